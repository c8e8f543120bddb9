"""ZeroOrderHold: samples its input periodically and holds it."""

import math

from mallard.common._pybind import call_form, overloads
from mallard.common.value import AbstractValue
from mallard.systems.framework._indices import AbstractStateIndex, DiscreteStateIndex
from mallard.systems.framework._leaf_system import LeafSystem


class ZeroOrderHold(LeafSystem):
    """``ZeroOrderHold(period_sec, vector_size, offset_sec=0.0)`` or ``(period_sec,
    abstract_model_value, offset_sec=0.0)``: at t = offset + k·period its state takes the
    value of input "u"; output "y" is the state (zero, or the model value, until the first
    sample). The output does not depend on the input directly."""

    _cpp_type = "drake::systems::ZeroOrderHold<double>"

    @overloads(
        "period_sec, vector_size, offset_sec=", "period_sec, abstract_model_value, offset_sec="
    )
    def __init__(self, *args, **kwargs):
        _, values = call_form(
            ZeroOrderHold.__init__,
            args,
            kwargs,
            accept=lambda form, v: isinstance(list(v.values())[1], AbstractValue) == (form == 1),
        )
        period_sec, model, offset_sec = values.values()
        super().__init__()
        period_sec, offset_sec = float(period_sec), float(offset_sec or 0.0)
        if not period_sec > 0 or not math.isfinite(period_sec):
            raise RuntimeError(f"ZeroOrderHold: period_sec must be positive, got {period_sec}")
        if not offset_sec >= 0:
            raise RuntimeError(f"ZeroOrderHold: offset_sec must be >= 0, got {offset_sec}")
        self._period, self._offset = period_sec, offset_sec
        if isinstance(model, AbstractValue):
            self._u = self.DeclareAbstractInputPort("u", model)
            self.DeclareAbstractState(model)
            self.DeclarePeriodicUnrestrictedUpdateEvent(period_sec, offset_sec, self._latch)
            self.DeclareStateOutputPort("y", AbstractStateIndex(0))
            self._abstract = True
        else:
            self._u = self.DeclareVectorInputPort("u", int(model))
            self.DeclareDiscreteState(int(model))
            self.DeclarePeriodicDiscreteUpdateEvent(period_sec, offset_sec, self._sample)
            self.DeclareStateOutputPort("y", DiscreteStateIndex(0))
            self._abstract = False

    def _scalar_conversion_args(self, T):
        model = self._u.Allocate() if self._abstract else self._u.size()
        return self._period, model, self._offset

    def _sample(self, context, discrete_state):
        discrete_state._groups[0]._data[:] = self._u.EvalBasicVector(context)._data

    def _latch(self, context, state):
        state.get_mutable_abstract_state(0).SetFrom(self._u.EvalAbstract(context))

    def period(self):
        return self._period

    def offset(self):
        return self._offset

    def SetVectorState(self, context, value):
        """Sets the held value in ``context`` (vector ZeroOrderHold only)."""
        self.ValidateContext(context)
        if self._abstract:
            raise RuntimeError("ZeroOrderHold.SetVectorState(): this ZeroOrderHold is abstract")
        context.SetDiscreteState(0, value)
