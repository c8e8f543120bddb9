"""ExternallyAppliedSpatialForceMultiplexer: concatenates lists of ExternallyAppliedSpatialForce
(for the plant's applied spatial force input port)."""

import copy

from mallard.common.value import AbstractValue
from mallard.systems.framework._indices import kUseDefaultName
from mallard.systems.framework._leaf_system import LeafSystem


class ExternallyAppliedSpatialForceMultiplexer(LeafSystem):
    """``ExternallyAppliedSpatialForceMultiplexer(num_inputs)``: abstract inputs "u0" ...
    "u{num_inputs-1}", each a list of ExternallyAppliedSpatialForce; output "y0", their
    concatenation in input order (copies). Every input must be connected or fixed."""

    _cpp_type = "drake::multibody::ExternallyAppliedSpatialForceMultiplexer<double>"

    def __init__(self, num_inputs):
        super().__init__()
        num_inputs = int(num_inputs)
        if num_inputs < 0:
            raise RuntimeError(
                f"ExternallyAppliedSpatialForceMultiplexer: num_inputs must be >= 0, got "
                f"{num_inputs}"
            )
        for _ in range(num_inputs):
            self.DeclareAbstractInputPort(kUseDefaultName, AbstractValue.Make([]))
        self.DeclareAbstractOutputPort(
            kUseDefaultName, lambda: AbstractValue.Make([]), self._concatenate
        )

    def _scalar_conversion_args(self, T):
        return (self.num_input_ports(),)

    def _concatenate(self, context, output):
        forces = []
        for port in self._input_ports:
            forces += [copy.copy(force) for force in port.Eval(context)]
        output.set_value(forces)
