"""VanDerPolOscillator (pydrake.examples): q̈ = −μ·(q² − 1)·q̇ − q, with μ (default 1) its one
numeric parameter. State [q, q̇]; output ports "y0" (q) and "y1" (the state)."""

import numpy as np

from mallard.systems.framework import LeafSystem, kUseDefaultName


class VanDerPolOscillator(LeafSystem):
    """The Van der Pol oscillator (see the module docstring)."""

    __module__ = "mallard.examples"
    _cpp_type = "drake::examples::van_der_pol::VanDerPolOscillator<double>"

    def __init__(self):
        super().__init__()
        state_index = self.DeclareContinuousState(1, 1, 0)
        self.DeclareVectorOutputPort(kUseDefaultName, 1, self._copy_position)
        self.DeclareStateOutputPort(kUseDefaultName, state_index)
        self.DeclareNumericParameter(np.array([1.0]))

    def _scalar_conversion_args(self, T):
        return ()

    def get_position_output_port(self):
        return self.get_output_port(0)

    def get_full_state_output_port(self):
        return self.get_output_port(1)

    @staticmethod
    def CalcLimitCycle():
        """Samples of the limit cycle for μ = 1 (2×N: q, q̇): a simulation from (−0.1144,
        2.0578), a point on it, over one period (6.667 s), logged at every step."""
        from mallard.systems.analysis import Simulator
        from mallard.systems.framework import DiagramBuilder
        from mallard.systems.primitives import LogVectorOutput

        builder = DiagramBuilder()
        vdp = builder.AddSystem(VanDerPolOscillator())
        logger = LogVectorOutput(vdp.get_full_state_output_port(), builder)
        diagram = builder.Build()
        simulator = Simulator(diagram)
        simulator.get_mutable_context().SetContinuousState([-0.1144, 2.0578])
        simulator.AdvanceTo(6.667)
        return logger.FindLog(simulator.get_context()).data()

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector()
        q, qdot = x.GetAtIndex(0), x.GetAtIndex(1)
        mu = context.get_numeric_parameter(0).GetAtIndex(0)
        vector = derivatives.get_mutable_vector()
        vector.SetAtIndex(0, qdot)
        vector.SetAtIndex(1, -mu * (q * q - 1) * qdot - q)

    def _copy_position(self, context, output):
        output.SetAtIndex(0, context.get_continuous_state_vector().GetAtIndex(0))
