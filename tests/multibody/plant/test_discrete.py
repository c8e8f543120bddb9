"""The discrete update of MultibodyPlant: its event, the scheme (closed forms), sampled
outputs, joint limits, couplers, locks and PD control."""

import numpy as np
import pytest

from mallard.all import (
    MultibodyPlant,
    PrismaticJoint,
    RevoluteJoint,
    SpatialInertia,
)
from mallard.systems.framework._events import EventKind
from tests.multibody.plant.discrete_helpers import advance, periodic_update

H = 0.01


def pendulum(time_step=H, damping=0.0, limits=None, sampled=True, actuated=False):
    """A mass m = 2 (a sphere of radius 0.1) 1 m below a revolute joint about y at q = 0."""
    plant = MultibodyPlant(time_step)
    if time_step > 0 and not sampled:
        plant.SetUseSampledOutputPorts(False)
    body = plant.AddRigidBody("b", SpatialInertia.SolidSphereWithMass(2.0, 0.1).Shift([0, 0, 1]))
    joint = plant.AddJoint(
        RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 1, 0], damping)
    )
    if limits is not None:
        joint.set_position_limits([limits[0]], [limits[1]])
    if actuated:
        plant.AddJointActuator("a", joint)
    plant.Finalize()
    return plant, joint


def two_joints(time_step=H):
    plant = MultibodyPlant(time_step)
    a = plant.AddRigidBody("a", SpatialInertia.SolidSphereWithMass(1.0, 0.1).Shift([0, 0, -1]))
    b = plant.AddRigidBody("b", SpatialInertia.SolidSphereWithMass(1.0, 0.1).Shift([0, 0, -1]))
    ja = plant.AddJoint(RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 1, 0]))
    jb = plant.AddJoint(PrismaticJoint("jb", a.body_frame(), b.body_frame(), [0, 0, 1]))
    return plant, ja, jb


def energy(plant, context):
    return plant.EvalKineticEnergy(context) + plant.EvalPotentialEnergy(context)


# ---- the event ------------------------------------------------------------------------------
def test_periodic_update_every_time_step_at_offset_zero():
    plant, _ = pendulum()
    event = periodic_update(plant)
    assert (event.period_sec, event.offset_sec) == (H, 0.0)
    assert event.kind == EventKind.kUnrestrictedUpdate  # sampled output ports (the default)
    assert plant.has_sampled_output_ports()
    assert plant.CreateDefaultContext().num_abstract_states() == 1
    plant, _ = pendulum(sampled=False)
    assert periodic_update(plant).kind == EventKind.kDiscreteUpdate
    assert not plant.has_sampled_output_ports()
    assert plant.CreateDefaultContext().num_abstract_states() == 0


def test_sampled_output_ports_setting_rules():
    assert not MultibodyPlant(0.0).has_sampled_output_ports()
    with pytest.raises(RuntimeError, match="continuous plant"):
        MultibodyPlant(0.0).SetUseSampledOutputPorts(True)
    MultibodyPlant(0.0).SetUseSampledOutputPorts(False)
    plant, _ = pendulum()
    with pytest.raises(RuntimeError, match="Post-finalize calls to 'SetUseSampledOutputPorts"):
        plant.SetUseSampledOutputPorts(False)


# ---- the scheme ----------------------------------------------------------------------------
def test_one_step_is_semi_implicit_euler_with_implicit_damping():
    d = 0.7
    plant, _ = pendulum(damping=d)
    context = plant.CreateDefaultContext()
    q, v = 2.5, 0.3
    plant.SetPositionsAndVelocities(context, [q, v])
    # m = 2 at distance 1 (COM at (−sin q, 0, −cos q)), I_cm = 2/5·m·r².
    inertia = 2.0 * (1.0 + 0.4 * 0.01)
    torque = -2.0 * 9.81 * np.sin(q)
    # I·(v⁺ − v) = h·(τ − d·v⁺)
    v_next = (inertia * v + H * torque) / (inertia + H * d)
    advance(plant, context, 1)
    np.testing.assert_allclose(plant.GetVelocities(context), [v_next], rtol=1e-13)
    np.testing.assert_allclose(plant.GetPositions(context), [q + H * v_next], rtol=1e-14)
    assert context.get_time() == H


def test_quaternions_are_not_renormalized_as_in_drake():
    plant = MultibodyPlant(0.1)
    plant.AddRigidBody("b", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    v = np.array([3.0, 2.0, 1.0, 0.0, 0.0, 0.0])
    plant.SetVelocities(context, v)
    q0 = plant.GetPositions(context)
    N = plant.MakeVelocityToQDotMap(context)
    advance(plant, context, 1)
    v1 = plant.GetVelocities(context)
    np.testing.assert_allclose(plant.GetPositions(context), q0 + 0.1 * N @ v1, atol=1e-15)
    assert np.linalg.norm(plant.GetPositions(context)[:4]) > 1.01  # (pydrake: 1.0179)


def test_sampled_outputs_report_the_last_step():
    plant, _ = pendulum()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.5, 0.2])
    acceleration = plant.get_generalized_acceleration_output_port()
    np.testing.assert_array_equal(acceleration.Eval(context), [0.0])  # before the first step
    assert all(
        np.all(F.get_coeffs() == 0) for F in plant.get_reaction_forces_output_port().Eval(context)
    )
    v0 = plant.GetVelocities(context)
    advance(plant, context, 1)
    np.testing.assert_allclose(
        acceleration.Eval(context), (plant.GetVelocities(context) - v0) / H, rtol=1e-14
    )


def test_unsampled_outputs_report_the_step_from_the_current_state():
    plant, _ = pendulum(sampled=False)
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.5, 0.2])
    vdot = plant.get_generalized_acceleration_output_port().Eval(context).copy()
    advance(plant, context, 1)
    np.testing.assert_allclose(plant.GetVelocities(context), 0.2 + H * vdot, rtol=1e-14)


# ---- joint limits (SAP) -----------------------------------------------------------------------
def test_a_step_onto_a_limit_is_sap_closed_form():
    """One step of the pendulum onto its lower limit: SAP's v⁺ = (A·v* + v̂/R)/(A + 1/R) with
    A = M + h·D, v* its free motion, R = β²/(4π²)·(1/A) (near rigid, β = 0.1) and
    v̂ = −(q0 − lower)/(2h) (Drake's SapLimitConstraint)."""
    plant, _ = pendulum(damping=0.3, limits=(-0.2, 0.2))
    context = plant.CreateDefaultContext()
    q0, v0 = -0.195, -3.0
    plant.SetPositionsAndVelocities(context, [q0, v0])
    A = plant.CalcMassMatrix(context)[0, 0] + H * 0.3
    v_star = v0 + H * plant._free_motion(context)[0]
    R = 0.1**2 / (4 * np.pi**2) / A
    v_hat = -(q0 + 0.2) / (2 * H)
    advance(plant, context, 1)
    v = (A * v_star + v_hat / R) / (A + 1 / R)
    assert plant.GetVelocities(context)[0] == pytest.approx(v, rel=1e-12)
    assert plant.GetPositions(context)[0] == pytest.approx(q0 + H * v, rel=1e-14)


@pytest.mark.parametrize("h, gap", [(0.01, 2e-4), (0.001, 2e-6)])
def test_a_limit_stops_the_pendulum_inelastically(h, gap):
    plant, _ = pendulum(time_step=h, limits=(-0.2, 0.2))
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.0, -3.0])
    e0 = energy(plant, context)
    qs, es = [], []
    for _ in range(int(0.5 / h)):
        advance(plant, context, 1)
        qs.append(plant.GetPositions(context)[0])
        es.append(energy(plant, context))
    # The near-rigid limit (compliant, critically damped at the time step) engages before
    # contact, halving the distance each step: the pendulum stops just short of it ...
    assert -0.2 < min(qs) < -0.2 + gap
    # ... and takes the kinetic energy at impact (½·I·v² ≈ 8.6 J) for good: no bounce.
    impact = int(np.argmin(qs))
    assert np.all(np.array(es[impact:]) < e0 - 8.0)


def test_a_position_outside_its_limits_is_pushed_back_half_the_way_per_step():
    """Near rigid, the limit's bias v̂ = −g/(2h) dominates: each step halves the violation."""
    plant, _ = pendulum(limits=(-0.2, 0.2))
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.5])
    advance(plant, context, 1)
    assert plant.GetPositions(context)[0] - 0.2 == pytest.approx(0.15, rel=1e-3)


def test_continuous_plants_ignore_limits_and_warn_once(caplog):
    plant, _ = pendulum(time_step=0.0, limits=(-0.2, 0.2))
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.5])
    plant.EvalTimeDerivatives(context)
    with caplog.at_level("WARNING", logger="mallard.plant"):
        plant.get_reaction_forces_output_port().Eval(context)
        plant.get_reaction_forces_output_port().Eval(context)
    (record,) = caplog.records
    assert record.getMessage().startswith(
        "Currently MultibodyPlant does not handle joint limits for continuous models."
    )
    assert record.getMessage().endswith("Joints that specify limits are: 'j'")


# ---- couplers --------------------------------------------------------------------------------
def test_a_coupler_is_restored_half_the_way_per_step():
    """SAP's coupler, near rigid: its violation g = q0 − 2·q1 − 0.5 relaxes by ~1/2 per step
    (v̂ = −g/(2h)); deactivated, it no longer acts."""
    plant, ja, jb = two_joints()
    cid = plant.AddCouplerConstraint(ja, jb, 2.0, 0.5)
    assert plant.num_constraints() == 1 and plant.GetConstraintIds() == [cid]
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.3, 0.0, 1.0, -2.0])
    assert plant.GetConstraintActiveStatus(context, cid)
    violations = []
    for _ in range(20):
        advance(plant, context, 1)
        q = plant.GetPositions(context)
        violations.append(q[0] - 2.0 * q[1] - 0.5)
    assert abs(violations[0]) == pytest.approx(0.1, rel=1e-3)
    assert abs(violations[-1]) < 1e-5
    plant.SetConstraintActiveStatus(context, cid, False)
    assert not plant.GetConstraintActiveStatus(context, cid)
    plant.SetPositionsAndVelocities(context, [0.0, 0.0, 0.0, 0.0])
    advance(plant, context, 1)
    assert plant.GetPositions(context)[0] != pytest.approx(0.5, abs=1e-3)


def test_coupler_constraint_errors_as_drake():
    plant, ja, jb = two_joints()
    from mallard.all import BallRpyJoint

    fb = plant.AddRigidBody("fb", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    fj = plant.AddJoint(BallRpyJoint("fj", plant.world_frame(), fb.body_frame()))
    with pytest.raises(RuntimeError) as error:
        plant.AddCouplerConstraint(ja, fj, 1.0)
    assert str(error.value) == (
        "Coupler constraints can only be defined on single-DOF joints. However joint 'ja' has "
        "1 DOFs and joint 'fj' has 3 DOFs."
    )
    first = plant.AddCouplerConstraint(joint0=ja, joint1=jb, gear_ratio=1.0)
    second = plant.AddCouplerConstraint(ja, jb, 1.0)
    assert second.get_value() > first.get_value()
    plant.Finalize()
    with pytest.raises(RuntimeError, match=r"Post-finalize calls to 'AddCouplerConstraint\(\)'"):
        plant.AddCouplerConstraint(ja, jb, 1.0)


def test_continuous_plant_with_constraints_raises_as_drake():
    plant, ja, jb = two_joints(0.0)
    plant.AddCouplerConstraint(ja, jb, 2.0)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    message = (
        "Currently this MultibodyPlant is set to use continuous time. Continuous time does "
        "not support constraints. Use a discrete time model and "
        "set_discrete_contact_approximation() to set a model approximation that uses the SAP "
        "solver instead (kSap, kSimilar, or kLagged)."
    )
    for call in (
        lambda: plant.EvalTimeDerivatives(context),
        lambda: plant.get_generalized_acceleration_output_port().Eval(context),
        lambda: plant.get_reaction_forces_output_port().Eval(context),
    ):
        with pytest.raises(RuntimeError) as error:
            call()
        assert str(error.value) == message


def test_coupler_with_limits_of_both_joints_stays_consistent():
    plant, ja, jb = two_joints()
    ja.set_position_limits([-0.1], [0.1])
    jb.set_position_limits([-0.05], [0.05])
    plant.AddCouplerConstraint(ja, jb, 2.0)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.0, 0.0, 3.0, 1.5])
    for _ in range(50):
        advance(plant, context, 1)
        q = plant.GetPositions(context)
        assert -0.1 - 1e-3 <= q[0] <= 0.1 + 1e-3 and -0.05 - 1e-3 <= q[1] <= 0.05 + 1e-3
        assert q[0] == pytest.approx(2.0 * q[1], abs=1e-3)


# ---- locks and PD control ------------------------------------------------------------------
def test_a_locked_joint_is_held():
    plant, ja, jb = two_joints()
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.3, 0.1, 1.0, 0.5])
    ja.Lock(context)
    advance(plant, context, 10)
    assert plant.GetPositions(context)[0] == 0.3 and plant.GetVelocities(context)[0] == 0.0
    assert plant.GetPositions(context)[1] != 0.1  # the other joint moves


def test_pd_controlled_actuator_in_the_discrete_update():
    plant = MultibodyPlant(H)
    body = plant.AddRigidBody("b", SpatialInertia.SolidSphereWithMass(2.0, 0.1).Shift([0, 0, 1]))
    joint = plant.AddJoint(RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 1, 0]))
    actuator = plant.AddJointActuator("a", joint)
    from mallard.all import PdControllerGains

    kp, kd = 400.0, 40.0
    actuator.set_controller_gains(PdControllerGains(p=kp, d=kd))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    instance = joint.model_instance()
    plant.get_desired_state_input_port(instance).FixValue(context, [0.3, 0.0])
    plant.get_actuation_input_port().FixValue(context, [0.0])
    q0 = 0.0
    advance(plant, context, 1)
    v1 = plant.GetVelocities(context)[0]
    net = plant.get_net_actuation_output_port().Eval(context)[0]
    assert net == pytest.approx(-kp * (q0 + H * v1 - 0.3) - kd * (v1 - 0.0), rel=1e-12)
    advance(plant, context, 300)
    assert plant.GetPositions(context)[0] == pytest.approx(0.3, abs=0.03)  # gravity offset


def test_autodiff_step_with_pd_limits_and_coupler_is_the_derivative_of_the_step():
    """An AutoDiffXd plant's SAP step (its constraints active: a limit, a coupler, a PD
    controller with its effort limit) differentiated by the implicit function theorem equals
    the central differences of the double step."""
    from mallard.all import InitializeAutoDiff, PdControllerGains

    plant, ja, jb = two_joints()
    jb.set_position_limits([-0.05], [0.05])
    plant.AddCouplerConstraint(ja, jb, 2.0, 0.5)
    actuator = plant.AddJointActuator("u", jb)
    actuator.set_controller_gains(PdControllerGains(p=50.0, d=2.0))
    actuator.set_effort_limit(30.0)
    plant.Finalize()
    instance = jb.model_instance()

    def step(p, x0):
        context = p.CreateDefaultContext()
        p.SetPositionsAndVelocities(context, x0)
        desired = np.array([0.02, 0.0]).astype(x0.dtype)
        p.get_desired_state_input_port(instance).FixValue(context, desired)
        state = context.Clone().get_mutable_state()
        p.CalcForcedUnrestrictedUpdate(context, state)
        return state.get_discrete_state().get_vector(0).CopyToVector()

    x0 = np.array([0.59, 0.045, 2.0, 1.0])
    x_ad = step(plant.ToAutoDiffXd(), InitializeAutoDiff(x0).reshape(-1))
    gradient = np.array([[d for d in e.derivatives()] for e in x_ad])
    np.testing.assert_allclose([e.value() for e in x_ad], step(plant, x0), rtol=1e-14)
    differences = np.array(
        [(step(plant, x0 + e) - step(plant, x0 - e)) / 2e-7 for e in 1e-7 * np.eye(4)]
    ).T
    np.testing.assert_allclose(gradient, differences, rtol=1e-6, atol=1e-5)


# ---- reaction forces -------------------------------------------------------------------------
@pytest.mark.parametrize("time_step", [0.0, H])
def test_reaction_force_of_a_hanging_pendulum_is_its_weight(time_step):
    plant, joint = pendulum(time_step=time_step)
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.0])  # the mass hangs below the axis, at rest
    if time_step:
        advance(plant, context, 1)
    (F,) = plant.get_reaction_forces_output_port().Eval(context)
    # Jc = the body frame, aligned with World: the joint holds the weight m·g = 19.62 N up.
    np.testing.assert_allclose(F.translational(), [0, 0, 2 * 9.81], atol=1e-9)
    np.testing.assert_allclose(F.rotational(), [0, 0, 0], atol=1e-9)
