"""Integrator: a continuous state that integrates its input."""

import numpy as np

from mallard._scalar import as_array
from mallard._template import cast_array
from mallard.common._pybind import call_form, is_integer, overloads
from mallard.systems.framework._indices import ContinuousStateIndex
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._vectors import BasicVector


class Integrator(LeafSystem):
    """``Integrator(size)`` or ``(initial_value)``: continuous state x with ẋ = u (input
    "u0"); output "y0" = x (not directly dependent on u)."""

    _cpp_type = "drake::systems::Integrator<double>"

    @overloads("size", "initial_value")
    def __init__(self, *args, **kwargs):
        _, values = call_form(
            Integrator.__init__,
            args,
            kwargs,
            accept=lambda form, v: is_integer(next(iter(v.values()))) == (form == 0),
        )
        super().__init__()
        if "size" in values:
            initial = np.zeros(int(values["size"]))
        else:
            initial = as_array(np.atleast_1d(values["initial_value"]), name="initial_value")
            initial = initial.reshape(-1)
        self._u = self.DeclareVectorInputPort("u0", initial.size)
        self.DeclareContinuousState(BasicVector(initial))
        self.DeclareStateOutputPort("y0", ContinuousStateIndex(0))

    def _scalar_conversion_args(self, T):
        return (cast_array(self._continuous_model.CopyToVector(), T),)

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives._vector._data[:] = self._u.EvalBasicVector(context)._data

    def set_integral_value(self, context, value):
        """Sets the integral (the state) in ``context``."""
        self.ValidateContext(context)
        context.get_mutable_continuous_state_vector().SetFromVector(value)

    def set_default_integral_value(self, initial_value):
        """Sets the integral in Contexts created from now on."""
        value = as_array(np.atleast_1d(initial_value), name="initial_value").reshape(-1)
        if value.size != self.num_continuous_states():
            raise RuntimeError(
                f"Integrator.set_default_integral_value(): expected {self.num_continuous_states()}"
                f" values, got {value.size}"
            )
        self.DeclareContinuousState(BasicVector(value))
