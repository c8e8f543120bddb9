"""FirstOrderLowPassFilter: ż = (u − z)/τ elementwise, output z."""

import numpy as np

from mallard._scalar import as_array
from mallard.common import _bindings as b
from mallard.common._pybind import overloads
from mallard.systems.framework._indices import ContinuousStateIndex, kUseDefaultName
from mallard.systems.framework._leaf_system import LeafSystem

_OVERLOADS = (
    (b.scalar("time_constant"), b.optional(b.integer("size"), 1)),
    (b.any_array("time_constants"),),
)


class FirstOrderLowPassFilter(LeafSystem):
    """``FirstOrderLowPassFilter(time_constant, size=1)`` or ``(time_constants)``: input "u0",
    continuous state z with ż = (u − z)/τ, output "y0" = z (not directly dependent on u)."""

    _cpp_type = "drake::systems::FirstOrderLowPassFilter<double>"

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        super().__init__()
        index, values = b.resolve("FirstOrderLowPassFilter", _OVERLOADS, args, kwargs)
        if index == 0:
            time_constant, size = values
            tau = np.full(size, float(time_constant))
        else:
            tau = as_array(values[0], name="time_constants").reshape(-1).astype(float)
        if tau.size == 0 or not np.all(tau > 0):
            raise RuntimeError(
                f"FirstOrderLowPassFilter: the time constants must be positive, got {tau}"
            )
        self._tau = tau
        self._u = self.DeclareVectorInputPort(kUseDefaultName, tau.size)
        self.DeclareContinuousState(tau.size)
        self.DeclareStateOutputPort(kUseDefaultName, ContinuousStateIndex(0))

    def _scalar_conversion_args(self, T):
        return (self._tau,)

    def get_time_constant(self):
        """The time constant, when all elements share it (RuntimeError otherwise)."""
        if not np.all(self._tau == self._tau[0]):
            raise RuntimeError(
                "The time constants vector, [{}], cannot be represented as a scalar value. "
                "Please use FirstOrderLowPassFilter.get_time_constants_vector() instead.".format(
                    ", ".join(f"{t:g}" for t in self._tau)
                )
            )
        return float(self._tau[0])

    def get_time_constants_vector(self):
        return self._tau.copy()

    def set_initial_output_value(self, context, z0):
        """Sets the state (the output) in ``context``."""
        self.ValidateContext(context)
        context.get_mutable_continuous_state_vector().SetFromVector(z0)

    def DoCalcTimeDerivatives(self, context, derivatives):
        z = context._state._continuous._vector._data
        u = self._u.EvalBasicVector(context)._data
        derivatives._vector._data[:] = (u - z) / self._tau
