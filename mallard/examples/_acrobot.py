"""AcrobotPlant (pydrake.examples): two links in a vertical plane, the first pinned to the
world at the shoulder, the second to the first at the elbow, a torque τ at the elbow only
(Spong's acrobot; angles from the downward vertical, θ₂ relative to the first link):

    M(q)·q̈ + bias(q, q̇) = [0; τ]

with M and bias as ``MassMatrix`` and ``DynamicsBiasTerm`` give them (Coriolis, gravity and
joint damping in the bias). State [θ₁, θ₂, θ̇₁, θ̇₂]; input port "elbow_torque"; output port
"acrobot_state"; one numeric parameter group AcrobotParams.
"""

import numpy as np

from mallard.examples._named_vector import NamedVector
from mallard.math import cos, sin
from mallard.systems.framework import LeafSystem


class AcrobotParams(NamedVector):
    """m1, m2 [kg] (1, 1); l1, l2 [m] (1, 2); lc1, lc2 [m] (0.5, 1), the centers of mass
    from each link's joint; Ic1, Ic2 [kg·m²] (0.083, 0.33), the links' inertias about their
    centers of mass; b1, b2 [N·m·s] (0.1, 0.1), the joints' damping; gravity [m/s²]
    (9.81)."""

    __slots__ = ()
    __module__ = "mallard.examples"
    _NAMES = ("m1", "m2", "l1", "l2", "lc1", "lc2", "Ic1", "Ic2", "b1", "b2", "gravity")
    _DEFAULTS = (1.0, 1.0, 1.0, 2.0, 0.5, 1.0, 0.083, 0.33, 0.1, 0.1, 9.81)


class AcrobotState(NamedVector):
    """theta1, theta2 [rad], theta1dot, theta2dot [rad/s] (all 0)."""

    __slots__ = ()
    __module__ = "mallard.examples"
    _NAMES = ("theta1", "theta2", "theta1dot", "theta2dot")
    _DEFAULTS = (0.0, 0.0, 0.0, 0.0)


class AcrobotInput(NamedVector):
    """tau [N·m] (0), the elbow torque."""

    __slots__ = ()
    __module__ = "mallard.examples"
    _NAMES = ("tau",)
    _DEFAULTS = (0.0,)


class AcrobotPlant(LeafSystem):
    """The acrobot (see the module docstring)."""

    __module__ = "mallard.examples"
    _cpp_type = "drake::examples::acrobot::AcrobotPlant<double>"

    def __init__(self):
        super().__init__()
        self.DeclareNumericParameter(AcrobotParams())
        self._tau = self.DeclareVectorInputPort("elbow_torque", AcrobotInput())
        state_index = self.DeclareContinuousState(AcrobotState(), 2, 2, 0)
        self.DeclareStateOutputPort("acrobot_state", state_index)

    def _scalar_conversion_args(self, T):
        return ()

    def get_state(self, context):
        """The AcrobotState in ``context``."""
        self.ValidateContext(context)
        return AcrobotState._view(context.get_continuous_state_vector())

    def get_mutable_state(self, context):
        self.ValidateContext(context)
        return AcrobotState._view(context.get_mutable_continuous_state_vector())

    def get_parameters(self, context):
        """The AcrobotParams in ``context``."""
        self.ValidateContext(context)
        return AcrobotParams._view(context.get_numeric_parameter(0))

    def get_mutable_parameters(self, context):
        self.ValidateContext(context)
        return AcrobotParams._view(context.get_mutable_numeric_parameter(0))

    def SetMitAcrobotParameters(self, parameters):
        """Sets ``parameters`` (AcrobotParams) to those identified for MIT's acrobot
        hardware (its inertias about the centers of mass come out negative)."""
        for name, value in (
            ("m1", 2.4367), ("m2", 0.6178), ("l1", 0.2563), ("lc1", 1.6738),
            ("lc2", 1.5651), ("Ic1", -4.7443), ("Ic2", -1.0068), ("b1", 0.0320),
            ("b2", 0.0413),
        ):  # fmt: skip
            getattr(parameters, f"set_{name}")(value)

    def MassMatrix(self, context):
        """M(q), 2×2."""
        x, p = self.get_state(context), self.get_parameters(context)
        c2 = cos(x.theta2())
        I1 = p.Ic1() + p.m1() * p.lc1() * p.lc1()
        I2 = p.Ic2() + p.m2() * p.lc2() * p.lc2()
        m2l1lc2 = p.m2() * p.l1() * p.lc2()
        m12 = I2 + m2l1lc2 * c2
        m11 = I1 + I2 + p.m2() * p.l1() * p.l1() + 2 * m2l1lc2 * c2
        return _matrix([[m11, m12], [m12, I2]])

    def DynamicsBiasTerm(self, context):
        """bias(q, q̇): the Coriolis and centrifugal terms, gravity and joint damping."""
        x, p = self.get_state(context), self.get_parameters(context)
        t1, t2, t1dot, t2dot = x.theta1(), x.theta2(), x.theta1dot(), x.theta2dot()
        s1, s2, s12 = sin(t1), sin(t2), sin(t1 + t2)
        m2l1lc2 = p.m2() * p.l1() * p.lc2()
        g = p.gravity()
        bias0 = -2 * m2l1lc2 * s2 * t2dot * t1dot + -m2l1lc2 * s2 * t2dot * t2dot
        bias1 = m2l1lc2 * s2 * t1dot * t1dot
        bias0 += g * p.m1() * p.lc1() * s1 + g * p.m2() * (p.l1() * s1 + p.lc2() * s12)
        bias1 += g * p.m2() * p.lc2() * s12
        return _matrix([bias0 + p.b1() * t1dot, bias1 + p.b2() * t2dot])

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = self.get_state(context)
        M = self.MassMatrix(context)
        rhs = -self.DynamicsBiasTerm(context)
        rhs[1] += self._tau.Eval(context)[0]
        # M⁻¹ by the 2×2 formula (also for AutoDiffXd and Expression entries).
        inv_det = 1.0 / (M[0, 0] * M[1, 1] - M[1, 0] * M[0, 1])
        M_inv = _matrix([[M[1, 1] * inv_det, -M[0, 1] * inv_det],
                         [-M[1, 0] * inv_det, M[0, 0] * inv_det]])  # fmt: skip
        vdot = M_inv @ rhs
        derivatives.SetFromVector(_matrix([x.theta1dot(), x.theta2dot(), vdot[0], vdot[1]]))

    def CalcKineticEnergy(self, context):
        """½·q̇ᵀ·M·q̇."""
        x = self.get_state(context)
        qdot = _matrix([x.theta1dot(), x.theta2dot()])
        return 0.5 * (qdot @ self.MassMatrix(context) @ qdot)

    def CalcPotentialEnergy(self, context):
        x, p = self.get_state(context), self.get_parameters(context)
        c1, c12 = cos(x.theta1()), cos(x.theta1() + x.theta2())
        g = p.gravity()
        return -p.m1() * g * p.lc1() * c1 - p.m2() * g * (p.l1() * c1 + p.lc2() * c12)


def _matrix(rows):
    """A float64 array, or an object array if an entry is an AutoDiffXd or Expression."""
    a = np.array(rows, dtype=object)
    try:
        return a.astype(float)
    except TypeError:
        return a
