"""MultibodyPlant_[AutoDiffXd]: ToAutoDiffXd() carries the model over, and gradients of the
dynamics (mass matrix, bias term, gravity, inverse and forward dynamics, a frame Jacobian,
energies, momentum) seeded on q, v or a parameter agree with central finite differences of
the double plant, on a model with every joint type."""

import numpy as np
import pytest

from mallard.autodiffutils import AutoDiffXd, ExtractGradient, ExtractValue, InitializeAutoDiff
from mallard.multibody.plant import MultibodyPlant, MultibodyPlant_
from tests.multibody.plant.plant_models import dynamics_model, library

m = library("mallard")
H = 1e-6  # finite-difference step
RTOL = 1e-6


@pytest.fixture(scope="module")
def model():
    plant, items = dynamics_model(m)
    plant_ad = plant.ToAutoDiffXd()
    rng = np.random.default_rng(7)
    x0 = np.concatenate(
        (
            plant.GetPositions(plant.CreateDefaultContext())
            + 0.3 * rng.normal(size=plant.num_positions()),
            rng.normal(size=plant.num_velocities()),
        )
    )
    return plant, plant_ad, items, x0


def _matrix(r):
    return np.atleast_1d(np.asarray(r)).reshape(np.shape(r) if np.ndim(r) == 2 else (-1, 1))


def _check_gradient(plant, plant_ad, x0, f, seed="x"):
    """Compares ExtractGradient(f(plant_ad, context_ad)) with x seeded, to central
    differences of f on the double plant (entries in column-major order, as the gradient)."""
    n = len(x0)
    context = plant.CreateDefaultContext()
    context_ad = plant_ad.CreateDefaultContext()
    plant_ad.SetPositionsAndVelocities(context_ad, InitializeAutoDiff(x0))
    r = _matrix(f(plant_ad, context_ad))
    G = ExtractGradient(r, num_derivatives=n)

    def f_float(x):
        plant.SetPositionsAndVelocities(context, x)
        return _matrix(np.asarray(f(plant, context), dtype=float)).T.reshape(-1)

    np.testing.assert_allclose(ExtractValue(r).T.reshape(-1), f_float(x0), rtol=1e-12, atol=1e-12)
    fd = np.empty_like(G)
    for i in range(n):
        e = np.zeros(n)
        e[i] = H
        fd[:, i] = (f_float(x0 + e) - f_float(x0 - e)) / (2 * H)
    scale = max(1.0, np.abs(fd).max())
    np.testing.assert_allclose(G, fd, rtol=0, atol=RTOL * scale)


QUANTITIES = {
    "mass_matrix": lambda p, c: p.CalcMassMatrix(c),
    "bias_term": lambda p, c: p.CalcBiasTerm(c),
    "gravity": lambda p, c: p.CalcGravityGeneralizedForces(c),
    "inverse_dynamics": lambda p, c: p.CalcInverseDynamics(
        c, np.linspace(-1.0, 1.0, p.num_velocities()), m.MultibodyForces(p)
    ),
    "forward_dynamics": lambda p, c: p.EvalTimeDerivatives(c).CopyToVector(),
    "frame_jacobian": lambda p, c: p.CalcJacobianSpatialVelocity(
        c,
        m.JacobianWrtVariable.kV,
        p.GetFrameByName("F_tool"),
        [0.1, -0.2, 0.3],
        p.GetFrameByName("F_world"),
        p.world_frame(),
    ),
    "kinetic_energy": lambda p, c: p.CalcKineticEnergy(c),
    "potential_energy": lambda p, c: p.CalcPotentialEnergy(c),
    "momentum": lambda p, c: p.CalcSpatialMomentumInWorldAboutPoint(c, [0.1, 0, 0]).get_coeffs(),
    "pose": lambda p, c: p.CalcRelativeTransform(
        c, p.world_frame(), p.GetBodyByName("tool").body_frame()
    ).GetAsMatrix34(),
}


@pytest.mark.parametrize("name", sorted(QUANTITIES))
def test_gradients_match_finite_differences(model, name):
    plant, plant_ad, _, x0 = model
    _check_gradient(plant, plant_ad, x0, QUANTITIES[name])


def test_kinetic_energy_gradient_in_v_is_the_generalized_momentum(model):
    plant, plant_ad, _, x0 = model
    nq = plant.num_positions()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, x0)
    context_ad = plant_ad.CreateDefaultContext()
    plant_ad.SetPositions(context_ad, x0[:nq])
    plant_ad.SetVelocities(context_ad, InitializeAutoDiff(x0[nq:])[:, 0])
    dKE_dv = plant_ad.CalcKineticEnergy(context_ad).derivatives()
    np.testing.assert_allclose(dKE_dv, plant.CalcMassMatrix(context) @ x0[nq:], rtol=1e-12)


def _parameter_gradient(plant, plant_ad, x0, set_parameter, value, f):
    """d f / d parameter: AutoDiffXd against central differences."""
    context_ad = plant_ad.CreateDefaultContext()
    plant_ad.SetPositionsAndVelocities(context_ad, x0)
    set_parameter(plant_ad, context_ad, AutoDiffXd(value, [1.0]))
    G = ExtractGradient(_matrix(f(plant_ad, context_ad)), num_derivatives=1)[:, 0]
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, x0)

    def at(p):
        set_parameter(plant, context, p)
        return _matrix(np.asarray(f(plant, context), dtype=float)).T.reshape(-1)

    fd = (at(value + H) - at(value - H)) / (2 * H)
    np.testing.assert_allclose(G, fd, rtol=0, atol=RTOL * max(1.0, np.abs(fd).max()))


def test_gradients_with_respect_to_parameters_and_joint_setters(model):
    plant, plant_ad, items, x0 = model
    mass = plant.GetBodyByName("l2").default_mass()

    def set_mass(p, c, value):
        p.GetBodyByName("l2").SetMass(c, value)

    def set_damping(p, c, value):
        p.GetJointByName("jrev").SetDamping(c, value)

    def set_stiffness(p, c, value):  # the RevoluteSpring on jrev
        p.get_force_element(items.forces[0].index()).SetStiffness(c, value)

    def set_gear_ratio(p, c, value):
        p.GetJointActuatorByName("u_jrev").SetGearRatio(c, value)

    def set_angle(p, c, value):
        p.GetJointByName("jrev").set_angle(c, value)

    xdot = QUANTITIES["forward_dynamics"]
    _parameter_gradient(plant, plant_ad, x0, set_mass, mass, QUANTITIES["mass_matrix"])
    _parameter_gradient(plant, plant_ad, x0, set_mass, mass, xdot)
    _parameter_gradient(plant, plant_ad, x0, set_damping, 0.2, xdot)
    _parameter_gradient(plant, plant_ad, x0, set_stiffness, 3.0, xdot)
    _parameter_gradient(plant, plant_ad, x0, set_gear_ratio, 2.0, xdot)
    _parameter_gradient(plant, plant_ad, x0, set_angle, 0.4, QUANTITIES["mass_matrix"])


def test_spatial_inertia_parameter_gradient(model):
    plant, plant_ad, _, x0 = model
    M0 = plant.GetBodyByName("a1").default_spatial_inertia()

    def set_inertia(p, c, mass):
        M = m.SpatialInertia(mass, M0.get_com(), M0.get_unit_inertia())
        p.GetBodyByName("a1").SetSpatialInertiaInBodyFrame(c, M)

    _parameter_gradient(plant, plant_ad, x0, set_inertia, M0.get_mass(), QUANTITIES["gravity"])


def test_conversion_carries_over_model_defaults_and_returns_autodiff():
    plant, items = dynamics_model(m)
    q_default = plant.GetDefaultPositions() + 0.1
    plant.SetDefaultPositions(q_default)
    plant.mutable_gravity_field().set_gravity_vector([0, 0, -3.0])
    plant_ad = plant.ToScalarType[AutoDiffXd]()
    assert isinstance(plant_ad, MultibodyPlant_[AutoDiffXd])
    assert plant_ad.GetSystemType() == "drake::multibody::MultibodyPlant<drake::AutoDiffXd>"
    for name in ("num_positions", "num_velocities", "num_bodies", "num_joints", "num_actuators"):
        assert getattr(plant_ad, name)() == getattr(plant, name)()
    assert plant_ad.GetJointByName("jrev") is not items.joints["jrev"]
    np.testing.assert_array_equal(plant_ad.gravity_field().gravity_vector(), [0, 0, -3.0])
    context_ad = plant_ad.CreateDefaultContext()
    q = plant_ad.GetPositions(context_ad)
    assert q.dtype == object and all(type(x) is AutoDiffXd for x in q)
    np.testing.assert_array_equal(ExtractValue(q)[:, 0], q_default)
    body = plant_ad.GetBodyByName("l2")
    assert type(body.get_mass(context_ad)) is AutoDiffXd
    assert body.get_mass(context_ad).value() == items.bodies["l2"].default_mass()
    assert type(body.default_mass()) is float  # defaults stay double, as in Drake
    assert type(plant_ad.GetJointByName("jrev").get_angle(context_ad)) is AutoDiffXd
    X_WB = plant_ad.EvalBodyPoseInWorld(context_ad, body)
    assert isinstance(X_WB, m.RigidTransform_[AutoDiffXd])
    state = plant_ad.get_state_output_port().Eval(context_ad)
    assert all(type(x) is AutoDiffXd for x in state)
    # The double plant is unchanged and its Contexts are not the converted plant's.
    assert plant.GetPositions(plant.CreateDefaultContext()).dtype == np.float64
    with pytest.raises(RuntimeError, match="was passed the Context"):
        plant.CalcMassMatrix(context_ad)


def test_conversion_errors():
    plant = MultibodyPlant(0.0)
    with pytest.raises(RuntimeError, match="has not been finalized"):
        plant.ToAutoDiffXd()
    plant.Finalize()
    plant_ad = plant.ToAutoDiffXd()
    with pytest.raises(RuntimeError, match="does not support scalar conversion"):
        plant_ad.ToAutoDiffXd()


def test_bushing_and_door_hinge_forward_dynamics_gradient():
    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", m.SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3))
    b = plant.AddRigidBody("b", m.SpatialInertia.SolidBoxWithMass(2.0, 0.3, 0.1, 0.2))
    joint = plant.AddJoint(m.RevoluteJoint("j", plant.world_frame(), a.body_frame(), [0, 1, 0]))
    plant.AddForceElement(
        m.LinearBushingRollPitchYaw(
            a.body_frame(),
            b.body_frame(),
            [1.0, 2, 3],
            [0.1, 0.2, 0.3],
            [10.0, 20, 30],
            [1.0, 2, 3],
        )
    )
    plant.AddForceElement(m.DoorHinge(joint, m.DoorHingeConfig()))
    plant.Finalize()
    x0 = plant.GetPositionsAndVelocities(plant.CreateDefaultContext())
    x0 += 0.3 * np.random.default_rng(1).normal(size=x0.size)
    _check_gradient(plant, plant.ToAutoDiffXd(), x0, QUANTITIES["forward_dynamics"])


def test_discrete_step_gradient():
    plant, _ = dynamics_model(m, time_step=0.01)
    plant_ad = plant.ToAutoDiffXd()
    x0 = plant.GetPositionsAndVelocities(plant.CreateDefaultContext())

    def step(p, c):
        state = c.Clone().get_mutable_state()
        p.CalcForcedUnrestrictedUpdate(c, state)
        return state.get_mutable_discrete_state(0).CopyToVector()

    _check_gradient(plant, plant_ad, x0, step)
