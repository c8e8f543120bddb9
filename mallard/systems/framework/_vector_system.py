"""VectorSystem: a LeafSystem with at most one vector input ("u0") and one vector output
("y0"), written with numpy arrays."""

import numpy as np

from mallard.systems.framework._leaf_system import LeafSystem

_EMPTY = np.zeros(0)
_EMPTY.setflags(write=False)


class VectorSystem(LeafSystem):
    """Subclasses override ``DoCalcVectorOutput(context, input, state, output)`` and, with
    continuous state, ``DoCalcVectorTimeDerivatives(context, input, state, derivatives)``;
    ``output`` and ``derivatives`` are numpy arrays to fill in place, ``state`` is the
    continuous state (or, without it, the only discrete state group).

    ``direct_feedthrough`` None or True: the output may depend on the input; False: it does
    not, and DoCalcVectorOutput receives an empty ``input``.
    """

    def __init__(self, input_size, output_size, direct_feedthrough=None):
        super().__init__()
        if input_size > 0:
            self.DeclareVectorInputPort("u0", int(input_size))
        if output_size > 0:
            feedthrough = direct_feedthrough is None or bool(direct_feedthrough)
            self._feedthrough = feedthrough and input_size > 0
            prerequisites = None if self._feedthrough else {self.all_state_ticket()}
            self.DeclareVectorOutputPort(
                "y0", int(output_size), self._calc_vector_output, prerequisites
            )

    def _input(self, context):
        if not self._input_ports:
            return _EMPTY
        return self._input_ports[0].Eval(context)

    @staticmethod
    def _state(context):
        state = context._state
        if state._continuous.size():
            return state._continuous._vector._data
        groups = state._discrete._groups
        return groups[0]._data if groups else _EMPTY

    def _calc_vector_output(self, context, output):
        u = self._input(context) if self._feedthrough else _EMPTY
        self.DoCalcVectorOutput(context, u, self._state(context), output.get_mutable_value())

    def DoCalcVectorOutput(self, context, input, state, output):
        if output.size:
            raise RuntimeError(
                f"{type(self).__name__}: a VectorSystem with an output must override "
                "DoCalcVectorOutput"
            )

    def DoCalcTimeDerivatives(self, context, derivatives):
        if derivatives.size() == 0:
            return
        xdot = derivatives.get_mutable_vector().get_mutable_value()
        self.DoCalcVectorTimeDerivatives(context, self._input(context), self._state(context), xdot)

    def DoCalcVectorTimeDerivatives(self, context, input, state, derivatives):
        if derivatives.size:
            raise RuntimeError(
                f"{type(self).__name__}: a VectorSystem with continuous state must override "
                "DoCalcVectorTimeDerivatives"
            )
