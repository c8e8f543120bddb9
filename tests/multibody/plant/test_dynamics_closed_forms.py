"""MultibodyPlant dynamics against closed forms: a simple pendulum, Spong's acrobot, a
torque-free asymmetric rigid body, and a mass-spring-damper."""

import numpy as np
import pytest

from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.models import AcrobotParameters, MakeAcrobotPlant
from mallard.multibody.math import SpatialVelocity
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    JacobianWrtVariable,
    PrismaticJoint,
    PrismaticSpring,
    RevoluteJoint,
    RotationalInertia,
    SpatialInertia,
)

G = 9.81


def _state(plant, q, v):
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, q)
    plant.SetVelocities(context, v)
    return context


def _vdot(plant, context):
    return plant.EvalTimeDerivatives(context).CopyToVector()[plant.num_positions() :]


# ---- a simple pendulum ---------------------------------------------------------------------
def _pendulum(m=1.3, l=0.7, I=0.05, damping=0.0):
    """A body of mass m and central inertia I about the y axis, its center of mass l below a
    revolute joint about y (World to body), actuated."""
    plant = MultibodyPlant(0.0)
    M_BBo_B = SpatialInertia.MakeFromCentralInertia(m, [0, 0, -l], RotationalInertia(I, I, I))
    body = plant.AddRigidBody("bob", M_BBo_B)
    joint = plant.AddJoint(
        RevoluteJoint("pin", plant.world_frame(), body.body_frame(), [0, 1, 0], damping)
    )
    plant.AddJointActuator("motor", joint)
    plant.Finalize()
    return plant


@pytest.mark.parametrize("theta, theta_dot", [(0.0, 0.0), (0.4, -1.2), (2.9, 3.0), (-1.7, 0.5)])
def test_pendulum(theta, theta_dot):
    m, l, I = 1.3, 0.7, 0.05
    plant = _pendulum(m, l, I)
    context = _state(plant, [theta], [theta_dot])
    J = I + m * l * l  # about the pin
    np.testing.assert_allclose(plant.CalcMassMatrix(context), [[J]], rtol=1e-14)
    np.testing.assert_allclose(plant.CalcBiasTerm(context), [0.0], atol=1e-14)
    tau_g = -m * G * l * np.sin(theta)
    np.testing.assert_allclose(plant.CalcGravityGeneralizedForces(context), [tau_g], atol=1e-13)
    u = 0.8
    plant.get_actuation_input_port().FixValue(context, [u])
    np.testing.assert_allclose(_vdot(plant, context), [(tau_g + u) / J], atol=1e-13)
    np.testing.assert_allclose(plant.EvalKineticEnergy(context), 0.5 * J * theta_dot**2, atol=1e-14)
    np.testing.assert_allclose(
        plant.EvalPotentialEnergy(context), -m * G * l * np.cos(theta), atol=1e-14
    )
    # The bob's center of mass: a = l·(θ̈ t̂ − θ̇² r̂) with r̂ the unit vector from the pin.
    theta_ddot = (tau_g + u) / J
    r_hat = np.array([-np.sin(theta), 0, -np.cos(theta)])
    t_hat = np.array([-np.cos(theta), 0, np.sin(theta)])
    np.testing.assert_allclose(
        plant.CalcCenterOfMassTranslationalAccelerationInWorld(context),
        l * (theta_ddot * t_hat - theta_dot**2 * r_hat),
        atol=1e-13,
    )


def test_pendulum_small_oscillation_period():
    """For small angles θ(t) = θ₀·cos(ω t), ω² = m g l / J: integrated with RK4 over one
    period, the pendulum comes back where it started."""
    m, l, I = 1.3, 0.7, 0.05
    plant = _pendulum(m, l, I)
    omega = np.sqrt(m * G * l / (I + m * l * l))
    x = np.array([1e-4, 0.0])
    steps = 400
    x = _rk4(plant, x, 2 * np.pi / omega, steps)
    np.testing.assert_allclose(x, [1e-4, 0.0], atol=1e-10)


# ---- the acrobot -----------------------------------------------------------------------------
def _spong(p, q, v):
    """Spong's acrobot: M(q), C(q, v)·v and tau_g(q) (θ₁ from the downward vertical, θ₂
    relative to link 1; Drake's acrobot example)."""
    I1 = p.Ic1 + p.m1 * p.lc1**2
    I2 = p.Ic2 + p.m2 * p.lc2**2
    c2, s1, s2, s12 = np.cos(q[1]), np.sin(q[0]), np.sin(q[1]), np.sin(q[0] + q[1])
    m2l1lc2 = p.m2 * p.l1 * p.lc2
    M = np.array(
        [
            [I1 + I2 + p.m2 * p.l1**2 + 2 * m2l1lc2 * c2, I2 + m2l1lc2 * c2],
            [I2 + m2l1lc2 * c2, I2],
        ]
    )
    Cv = np.array(
        [
            -2 * m2l1lc2 * s2 * v[1] * v[0] - m2l1lc2 * s2 * v[1] ** 2,
            m2l1lc2 * s2 * v[0] ** 2,
        ]
    )
    tau_g = np.array(
        [
            -p.m1 * G * p.lc1 * s1 - p.m2 * G * (p.l1 * s1 + p.lc2 * s12),
            -p.m2 * G * p.lc2 * s12,
        ]
    )
    return M, Cv, tau_g


ACROBOT_STATES = [
    ([0.0, 0.0], [0.0, 0.0]),
    ([0.3, -0.8], [1.1, -0.4]),
    ([2.5, 1.9], [-2.0, 3.1]),
    ([-1.2, 3.0], [0.7, 0.2]),
]


@pytest.mark.parametrize("q, v", ACROBOT_STATES)
def test_acrobot(q, v):
    p = AcrobotParameters()
    plant = MakeAcrobotPlant(p)
    context = _state(plant, q, v)
    q, v = np.array(q), np.array(v)
    M, Cv, tau_g = _spong(p, q, v)
    np.testing.assert_allclose(plant.CalcMassMatrix(context), M, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(plant.CalcMassMatrixViaInverseDynamics(context), M, atol=1e-13)
    np.testing.assert_allclose(plant.CalcBiasTerm(context), Cv, atol=1e-13)
    np.testing.assert_allclose(plant.CalcGravityGeneralizedForces(context), tau_g, atol=1e-13)
    # Forward dynamics with the elbow torque and the joints' damping b.
    u = 1.7
    plant.get_actuation_input_port().FixValue(context, [u])
    tau = tau_g - Cv - np.array([p.b1 * v[0], p.b2 * v[1]]) + np.array([0.0, u])
    np.testing.assert_allclose(_vdot(plant, context), np.linalg.solve(M, tau), atol=1e-12)
    np.testing.assert_allclose(plant.EvalKineticEnergy(context), 0.5 * v @ M @ v, atol=1e-13)


# ---- a torque-free asymmetric rigid body -----------------------------------------------------
def _free_body(I_principal, R_BP):
    """A free body without gravity whose central inertia has principal moments
    ``I_principal`` along the axes of frame P (R_BP: P's orientation in the body frame); its
    center of mass is its origin."""
    plant = MultibodyPlant(0.0)
    I_B = R_BP @ np.diag(I_principal) @ R_BP.T
    inertia = RotationalInertia(I_B[0, 0], I_B[1, 1], I_B[2, 2], I_B[0, 1], I_B[0, 2], I_B[1, 2])
    body = plant.AddRigidBody(
        "body", SpatialInertia.MakeFromCentralInertia(2.0, [0, 0, 0], inertia)
    )
    plant.mutable_gravity_field().set_gravity_vector([0, 0, 0])
    plant.Finalize()
    return plant, body, I_B


def _rk4(plant, x, duration, steps):
    """x(duration) by classic RK4 with ``steps`` fixed steps on EvalTimeDerivatives."""
    context = plant.CreateDefaultContext()

    def f(x):
        plant.SetPositionsAndVelocities(context, x)
        return plant.EvalTimeDerivatives(context).CopyToVector()

    h = duration / steps
    for _ in range(steps):
        k1 = f(x)
        k2 = f(x + 0.5 * h * k1)
        k3 = f(x + 0.5 * h * k2)
        k4 = f(x + h * k3)
        x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return x


def _angular_momentum(plant, x):
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, x)
    return plant.CalcSpatialMomentumInWorldAboutPoint(context, [0, 0, 0]).rotational()


def test_torque_free_body_euler_equations():
    """I·ẇ + w × I·w = 0 in the body frame, for ẇ from forward dynamics."""
    R_BP = RotationMatrix(RollPitchYaw([0.3, -0.5, 1.1])).matrix()
    plant, body, I_B = _free_body([1.0, 2.0, 2.7], R_BP)
    rng = np.random.default_rng(1)
    for _ in range(4):
        context = plant.CreateDefaultContext()
        R_WB = RotationMatrix(RollPitchYaw(rng.uniform(-3, 3, size=3)))
        plant.SetFreeBodyPose(context, body, RigidTransform(R_WB, rng.normal(size=3)))
        w_W, v_W = rng.normal(size=3), rng.normal(size=3)
        plant.SetFreeBodySpatialVelocity(context, body, SpatialVelocity(w_W, v_W))
        vdot = _vdot(plant, context)
        R_BW = R_WB.matrix().T
        w_B, alpha_B = R_BW @ w_W, R_BW @ vdot[:3]
        np.testing.assert_allclose(I_B @ alpha_B, -np.cross(w_B, I_B @ w_B), atol=1e-12)
        # The center of mass (the body origin) does not accelerate.
        np.testing.assert_allclose(vdot[3:], 0.0, atol=1e-12)


def test_torque_free_body_conserves_momentum_and_energy():
    R_BP = RotationMatrix(RollPitchYaw([0.3, -0.5, 1.1])).matrix()
    plant, body, _ = _free_body([1.0, 2.0, 2.7], R_BP)
    context = plant.CreateDefaultContext()
    plant.SetVelocities(context, [0.3, 2.0, -0.7, 0.1, 0.2, 0.3])
    x0 = plant.GetPositionsAndVelocities(context).copy()
    energy0 = plant.EvalKineticEnergy(context)
    L0 = _angular_momentum(plant, x0)
    x = _rk4(plant, x0, 1.0, 200)
    np.testing.assert_allclose(_angular_momentum(plant, x), L0, rtol=1e-8, atol=1e-8)
    plant.SetPositionsAndVelocities(context, x)
    np.testing.assert_allclose(plant.EvalKineticEnergy(context), energy0, rtol=1e-8)
    assert not np.allclose(x[4:], x0[4:])  # It moved.


def test_axisymmetric_body_precession():
    """An axisymmetric body (I₁ = I₂ ≠ I₃ about its own axes): in the body frame, w rotates
    about the symmetry axis at Ω = (I₃ − I₁)/I₁·w₃, w₃ constant."""
    I1, I3 = 1.0, 1.8
    plant, body, _ = _free_body([I1, I1, I3], np.eye(3))
    w0_B = np.array([0.4, 0.0, 1.5])
    x0 = np.r_[1.0, 0, 0, 0, 0, 0, 0, w0_B, 0, 0, 0]  # Identity pose: w_W = w_B.
    t = 0.8
    x = _rk4(plant, x0, t, 200)
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, x)
    R_WB = plant.EvalBodyPoseInWorld(context, body).rotation().matrix()
    w_B = R_WB.T @ x[7:10]
    Omega = (I3 - I1) / I1 * w0_B[2]
    expected = [w0_B[0] * np.cos(Omega * t), w0_B[0] * np.sin(Omega * t), w0_B[2]]
    np.testing.assert_allclose(w_B, expected, atol=1e-9)


def test_steady_spin_about_a_principal_axis():
    R_BP = RotationMatrix(RollPitchYaw([0.3, -0.5, 1.1])).matrix()
    plant, body, _ = _free_body([1.0, 2.0, 2.7], R_BP)
    context = plant.CreateDefaultContext()
    plant.SetVelocities(context, np.r_[2.0 * R_BP[:, 1], 0, 0, 0])  # Identity pose.
    np.testing.assert_allclose(_vdot(plant, context), 0.0, atol=1e-13)


# ---- a mass-spring-damper ------------------------------------------------------------------
def test_mass_spring_damper():
    """A body on a horizontal prismatic joint with a PrismaticSpring, joint damping and a
    force input: ẍ = (−k·(x − x₀) − c·ẋ + u + f)/m."""
    m, k, c, x0 = 2.5, 40.0, 1.5, 0.3
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("mass", SpatialInertia.SolidBoxWithMass(m, 0.1, 0.2, 0.3))
    joint = plant.AddJoint(
        PrismaticJoint("slider", plant.world_frame(), body.body_frame(), [1, 0, 0], damping=c)
    )
    plant.AddForceElement(PrismaticSpring(joint, x0, k))
    plant.AddJointActuator("push", joint)
    plant.Finalize()
    for x, xdot, u, f in [(0.0, 0.0, 0.0, 0.0), (0.7, -1.3, 2.0, 0.0), (-0.4, 2.2, -1.0, 3.5)]:
        context = _state(plant, [x], [xdot])
        plant.get_actuation_input_port().FixValue(context, [u])
        plant.get_applied_generalized_force_input_port().FixValue(context, [f])
        expected = (-k * (x - x0) - c * xdot + u + f) / m
        np.testing.assert_allclose(
            plant.EvalTimeDerivatives(context).CopyToVector(), [xdot, expected], atol=1e-13
        )
        np.testing.assert_allclose(
            plant.EvalPotentialEnergy(context), 0.5 * k * (x - x0) ** 2, atol=1e-13
        )
        np.testing.assert_allclose(
            plant.CalcConservativePower(context), -k * (x - x0) * xdot, atol=1e-13
        )
    # The jacobian of the body's origin is the slider's axis.
    J = plant.CalcJacobianTranslationalVelocity(
        context,
        JacobianWrtVariable.kV,
        body.body_frame(),
        np.zeros(3),
        plant.world_frame(),
        plant.world_frame(),
    )
    np.testing.assert_allclose(J, [[1.0], [0.0], [0.0]])


def test_model_changes_after_context_creation_reach_existing_contexts():
    """set_gravity_vector and set_effort_limit after Finalize() apply to Contexts that already
    exist (Drake reads both from the model at each evaluation)."""
    plant = MakeAcrobotPlant()
    context = _state(plant, [0.3, -0.5], [0.0, 0.0])
    tau_g = plant.CalcGravityGeneralizedForces(context)
    plant.mutable_gravity_field().set_gravity_vector([0, 0, -2 * 9.81])
    np.testing.assert_allclose(plant.CalcGravityGeneralizedForces(context), 2 * tau_g, rtol=1e-14)

    plant.get_actuation_input_port().FixValue(context, [10.0])
    vdot_free = _vdot(plant, context)
    plant.GetJointActuatorByName("elbow").set_effort_limit(1.0)
    vdot_limited = _vdot(plant, context)
    plant.get_actuation_input_port().FixValue(context, [1.0])
    np.testing.assert_allclose(vdot_limited, _vdot(plant, context), rtol=1e-14)
    assert not np.allclose(vdot_free, vdot_limited)
