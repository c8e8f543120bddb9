"""PendulumPlant (pydrake.examples): a point mass m at the end of a massless rod of length
l, swinging about a pin in a vertical plane, with viscous damping b and a torque input τ:

    m·l²·θ̈ = τ − m·g·l·sin θ − b·θ̇

State [θ, θ̇] (θ = 0 hanging down); input port "tau"; output port "state"; one numeric
parameter group PendulumParams (mass, length, damping, gravity).
"""

from mallard.examples._named_vector import NamedVector
from mallard.math import cos, sin
from mallard.systems.framework import LeafSystem


class PendulumParams(NamedVector):
    """mass [kg] (1.0), length [m] (0.5), damping [N·m·s] (0.1), gravity [m/s²] (9.81)."""

    __slots__ = ()
    __module__ = "mallard.examples"
    _NAMES = ("mass", "length", "damping", "gravity")
    _DEFAULTS = (1.0, 0.5, 0.1, 9.81)


class PendulumState(NamedVector):
    """theta [rad] (0.0), thetadot [rad/s] (0.0)."""

    __slots__ = ()
    __module__ = "mallard.examples"
    _NAMES = ("theta", "thetadot")
    _DEFAULTS = (0.0, 0.0)


class PendulumInput(NamedVector):
    """tau [N·m] (0.0), the torque at the pin."""

    __slots__ = ()
    __module__ = "mallard.examples"
    _NAMES = ("tau",)
    _DEFAULTS = (0.0,)


class PendulumPlant(LeafSystem):
    """The damped, torque-driven pendulum (see the module docstring)."""

    __module__ = "mallard.examples"
    _cpp_type = "drake::examples::pendulum::PendulumPlant<double>"

    def __init__(self):
        super().__init__()
        self.DeclareNumericParameter(PendulumParams())
        self._tau = self.DeclareVectorInputPort("tau", PendulumInput())
        state_index = self.DeclareContinuousState(PendulumState(), 1, 1, 0)
        self.DeclareStateOutputPort("state", state_index)

    def _scalar_conversion_args(self, T):
        return ()

    def get_state_output_port(self):
        return self.get_output_port(0)

    def get_state(self, context):
        """The PendulumState in ``context``."""
        self.ValidateContext(context)
        return PendulumState._view(context.get_continuous_state_vector())

    def get_mutable_state(self, context):
        self.ValidateContext(context)
        return PendulumState._view(context.get_mutable_continuous_state_vector())

    def get_parameters(self, context):
        """The PendulumParams in ``context``."""
        self.ValidateContext(context)
        return PendulumParams._view(context.get_numeric_parameter(0))

    def get_mutable_parameters(self, context):
        self.ValidateContext(context)
        return PendulumParams._view(context.get_mutable_numeric_parameter(0))

    def DoCalcTimeDerivatives(self, context, derivatives):
        x, p = self.get_state(context), self.get_parameters(context)
        tau = self._tau.Eval(context)[0]
        m, l, b, g = p.mass(), p.length(), p.damping(), p.gravity()
        theta, thetadot = x.theta(), x.thetadot()
        vector = derivatives.get_mutable_vector()
        vector.SetAtIndex(0, thetadot)
        vector.SetAtIndex(1, (tau - m * g * l * sin(theta) - b * thetadot) / (m * l * l))

    def CalcPotentialEnergy(self, context):
        """−m·g·l·cos θ."""
        x, p = self.get_state(context), self.get_parameters(context)
        return -p.mass() * p.gravity() * p.length() * cos(x.theta())

    def CalcKineticEnergy(self, context):
        """½·m·(l·θ̇)²."""
        x, p = self.get_state(context), self.get_parameters(context)
        return 0.5 * p.mass() * (p.length() * x.thetadot()) ** 2
