"""BatchedPlant.Rollout: a rollout is the Simulator's trajectory of the same plant, state for
state and to the last bit (discrete plants through their own step, continuous plants through
the Simulator's fixed-step explicit integrators), whatever the threads; bad input is refused
at the call, and a bad state fails alone, with a status naming why."""

import numpy as np
import pytest

from mallard.geometry import Box, SceneGraph
from mallard.math import RigidTransform
from mallard.models import MakeAcrobotPlant
from mallard.multibody.batch import BatchedPlant
from mallard.multibody.plant import (
    CoulombFriction,
    DiscreteContactApproximation,
    MultibodyPlant,
)
from mallard.multibody.tree import (
    FixedOffsetFrame,
    PdControllerGains,
    RevoluteJoint,
    SpatialInertia,
    UnitInertia,
)
from mallard.systems.analysis import (
    ExplicitEulerIntegrator,
    RungeKutta2Integrator,
    RungeKutta3Integrator,
    Simulator,
)

H = 1e-3
#: The continuous plants' step: a power of two, so that the Simulator's times t = k·h are exact
#: and its integrator's steps (to the next time asked) are h exactly; with h = 1e-3 they differ
#: from h by the rounding of t, and the trajectories by a few ulps.
H_CONTINUOUS = 2.0**-10


def free_body_plant(time_step, approximation=None):
    """A free body (quaternion floating joint) with an inertia that is not axisymmetric."""
    plant = MultibodyPlant(time_step)
    inertia = SpatialInertia(2.0, [0.1, -0.05, 0.02], UnitInertia(0.3, 0.25, 0.15, 0.01, 0, 0))
    plant.AddRigidBody("box", inertia)
    if approximation is not None:
        plant.set_discrete_contact_approximation(approximation)
    plant.Finalize()
    return plant


def acrobot_states(rng, size):
    return rng.normal(size=(size, 2)), rng.normal(size=(size, 2))


def free_body_states(rng, size):
    q = np.zeros((size, 7))
    quaternion = rng.normal(size=(size, 4))
    q[:, :4] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
    q[:, 4:] = rng.normal(size=(size, 3))
    return q, rng.normal(size=(size, 6)) * 2.0


def simulate(plant, q0, v0, actuation, steps, integrator=None, controller=None):
    """The Simulator's states after each of ``steps`` steps of the plant alone from (q0, v0),
    the actuation input set to actuation[t] (or controller(x)) before step t; ``integrator``:
    a class of fixed-step integrator of step H_CONTINUOUS for a continuous plant."""
    h = H if integrator is None else H_CONTINUOUS
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, q0)
    plant.SetVelocities(context, v0)
    port = plant.get_actuation_input_port()
    nu = plant.num_actuated_dofs()
    if nu:
        port.FixValue(context, np.zeros(nu))
    simulator = Simulator(plant, context)
    if integrator is not None:
        simulator.reset_integrator(
            integrator, *(() if integrator is RungeKutta3Integrator else (h,))
        )
        simulator.get_mutable_integrator().set_fixed_step_mode(True)
        simulator.get_mutable_integrator().set_maximum_step_size(h)
    simulator.Initialize()
    states = []
    for t in range(steps):
        context = simulator.get_mutable_context()
        if nu:
            x = plant.GetPositionsAndVelocities(context)
            u = actuation[t] if controller is None else controller(x, actuation[t])
            port.FixValue(context, u)
        simulator.AdvanceTo((t + 1) * h)
        states.append(plant.GetPositionsAndVelocities(simulator.get_context()).copy())
    return np.array(states)


@pytest.mark.parametrize(
    "approximation", [None, DiscreteContactApproximation.kTamsi], ids=["sap", "tamsi"]
)
def test_a_discrete_free_body_rollout_is_the_simulators_trajectory(approximation):
    plant = free_body_plant(H, approximation)
    q0, v0 = free_body_states(np.random.default_rng(1), 6)
    steps = 30
    X = BatchedPlant(plant).Rollout(q0, v0, num_steps=steps, every=3)
    assert X.shape == (6, 10, 13)
    for i in (0, 5):
        expected = simulate(plant, q0[i], v0[i], None, steps)
        np.testing.assert_array_equal(X[i], expected[2::3])


def test_a_discrete_acrobot_rollout_with_actuation_is_the_simulators_trajectory():
    plant = MakeAcrobotPlant(time_step=H)  # (SAP: joint damping implicit)
    rng = np.random.default_rng(2)
    q0, v0 = acrobot_states(rng, 7)
    steps = 40
    U = rng.normal(size=(7, steps, 1)) * 3.0
    out = np.full((7, 40, 4), -1.0)
    X, status = BatchedPlant(plant).Rollout(q0, v0, U, out=out, return_status=True)
    assert X is out and status.ok.all()
    for i in (0, 3, 6):
        np.testing.assert_array_equal(X[i], simulate(plant, q0[i], v0[i], U[i], steps))


def test_states_are_the_same_in_an_out_array_of_any_alignment():
    """(kernels.rollouts stores a state's elements two at a time where its row of X is 16-byte
    aligned, one by one where not: out's memory at offsets of 0 and 8 bytes from an
    allocation, one of them aligned.)"""
    plant = MakeAcrobotPlant(time_step=H)
    q0, v0 = acrobot_states(np.random.default_rng(4), 11)
    batched = BatchedPlant(plant)
    X = batched.Rollout(q0, v0, num_steps=9)
    memory = np.empty(X.size + 1)
    for offset in (0, 1):
        out = memory[offset : offset + X.size].reshape(X.shape)
        assert batched.Rollout(q0, v0, num_steps=9, out=out) is out
        np.testing.assert_array_equal(out, X)


@pytest.mark.parametrize(
    "name, integrator",
    [
        ("explicit_euler", ExplicitEulerIntegrator),
        ("runge_kutta2", RungeKutta2Integrator),
        ("runge_kutta3", RungeKutta3Integrator),
    ],
)
def test_a_continuous_rollout_is_the_simulators_fixed_step_trajectory(name, integrator):
    rng = np.random.default_rng(3)
    steps = 20
    acrobot = MakeAcrobotPlant()
    q0, v0 = acrobot_states(rng, 5)
    U = rng.normal(size=(5, steps, 1))
    X = BatchedPlant(acrobot).Rollout(q0, v0, U, time_step=H_CONTINUOUS, integrator=name, every=4)
    expected = simulate(acrobot, q0[4], v0[4], U[4], steps, integrator)
    np.testing.assert_array_equal(X[4], expected[3::4])
    body = free_body_plant(0.0)
    q0, v0 = free_body_states(rng, 5)
    X = BatchedPlant(body).Rollout(q0, v0, num_steps=steps, time_step=H_CONTINUOUS, integrator=name)
    np.testing.assert_array_equal(X[2], simulate(body, q0[2], v0[2], None, steps, integrator))


def test_a_pd_target_is_a_pd_law_evaluated_at_each_step():
    plant = MakeAcrobotPlant(time_step=H)
    rng = np.random.default_rng(4)
    q0, v0 = acrobot_states(rng, 5)
    steps = 25
    U = rng.normal(size=(5, steps, 1))
    target = rng.normal(size=(5, 2))
    kp, kd = np.array([30.0]), np.array([2.0])
    X = BatchedPlant(plant).Rollout(q0, v0, U, pd_target=target, pd_gains=(kp, kd))
    elbow_q, elbow_v = 1, 3  # (x = [q; v])
    for i in (1, 4):

        def controller(x, u, i=i):
            return u + (kp * (target[i, 0] - x[elbow_q]) + kd * (target[i, 1] - x[elbow_v]))

        expected = simulate(plant, q0[i], v0[i], U[i], steps, controller=controller)
        np.testing.assert_array_equal(X[i], expected)
    free = BatchedPlant(plant).Rollout(q0, v0, U)
    assert not np.array_equal(free, X)


def test_threads_do_not_change_a_rollout():
    plant = MakeAcrobotPlant(time_step=H)
    rng = np.random.default_rng(5)
    q0, v0 = acrobot_states(rng, 203)
    U = rng.normal(size=(203, 60, 1))
    one = BatchedPlant(plant, num_threads=1).Rollout(q0, v0, U, every=6)
    batched = BatchedPlant(plant, num_threads=2)
    for _ in range(3):  # (the first call measures; later ones may use a helper)
        np.testing.assert_array_equal(batched.Rollout(q0, v0, U, every=6), one)
    alone = BatchedPlant(plant).Rollout(q0[101:102], v0[101:102], U[101:102], every=6)
    np.testing.assert_array_equal(alone[0], one[101])


def test_a_bad_state_fails_alone_and_says_why():
    plant = free_body_plant(H)
    batched = BatchedPlant(plant)
    q0, v0 = free_body_states(np.random.default_rng(6), 9)
    good = batched.Rollout(q0, v0, num_steps=10)
    q0[2, 5] = np.nan
    q0[4, :4] = 0.0
    v0[7, 0] = 1e300  # (finite, but the state overflows)
    with pytest.warns(RuntimeWarning, match=r"3 of 9 states failed.*q0\[2, 5\] = nan is"):
        X = batched.Rollout(q0, v0, num_steps=10)
    X, status = batched.Rollout(q0, v0, num_steps=10, return_status=True)
    assert status.failed().tolist() == [2, 4, 7]
    assert np.isnan(X[[2, 4, 7]]).all()
    ok = [0, 1, 3, 5, 6, 8]
    np.testing.assert_array_equal(X[ok], good[ok])
    assert "q0[2, 5] = nan is not finite (position 5 of joint" in status.message(2)
    assert "All the elements in a quaternion are zero" in status.message(4)
    assert "became NaN or infinite during the rollout, at step" in status.message(7)

    acrobot = BatchedPlant(MakeAcrobotPlant(time_step=H))
    q0, v0 = acrobot_states(np.random.default_rng(7), 5)
    U = np.zeros((5, 8, 1))
    U[3, 6, 0] = np.inf
    target = np.zeros((5, 2))
    target[1, 1] = np.nan
    X, status = acrobot.Rollout(
        q0, v0, U, pd_target=target, pd_gains=([1.0], [0.1]), return_status=True
    )
    assert status.failed().tolist() == [1, 3]
    assert status.message(3) == (
        "state 3: actuation[3, 6, 0] = inf is not finite (the actuation of actuator 'elbow')"
    )
    assert status.message(1) == "state 1: pd_target[1, 1] = nan is not finite"
    assert np.isfinite(X[[0, 2, 4]]).all() and np.isnan(X[[1, 3]]).all()


@pytest.mark.parametrize("time_step", [H, 0.0])
def test_a_state_whose_dynamics_fail_fails_alone(time_step):
    """States whose articulated inertia is not positive definite (a rod's about the first
    joint is sin²(q2): zero at q2 = 0) fail with the plant's code; the others of their
    groups, actuated and PD-controlled, are the rollouts of each alone, to the last bit."""
    plant = MultibodyPlant(time_step)
    link = plant.AddRigidBody("link", SpatialInertia.Zero())
    rod = plant.AddRigidBody("rod", SpatialInertia(1.0, [0, 0, 0], UnitInertia(1.0, 1.0, 0.0)))
    for name, parent, child, axis in (
        ("j1", plant.world_body(), link, [0, 0, 1]),
        ("j2", link, rod, [1, 0, 0]),
    ):
        joint = plant.AddJoint(RevoluteJoint(name, parent.body_frame(), child.body_frame(), axis))
        plant.AddJointActuator(name, joint)
    plant.Finalize()
    rng = np.random.default_rng(8)
    q0, v0 = rng.uniform(0.3, 1.0, (11, 2)), rng.normal(size=(11, 2))
    q0[[0, 3, 4, 10], 1] = 0.0
    U, target = rng.normal(size=(11, 6, 2)), rng.normal(size=(11, 4))
    options = {"time_step": H, "integrator": "runge_kutta3"} if time_step == 0.0 else {}
    gains = ([3.0, 2.0], [0.5, 0.2])
    batched = BatchedPlant(plant)
    X, status = batched.Rollout(
        q0, v0, U, pd_target=target, pd_gains=gains, return_status=True, **options
    )
    assert status.failed().tolist() == [0, 3, 4, 10]
    assert "is not positive-definite" in status.message(3)
    assert np.isnan(X[[0, 3, 4, 10]]).all()
    for i in (1, 2, 5, 6, 7, 8, 9):
        alone = batched.Rollout(
            q0[i : i + 1], v0[i : i + 1], U[i : i + 1], pd_target=target[i : i + 1],
            pd_gains=gains, **options,
        )  # fmt: skip
        np.testing.assert_array_equal(X[i], alone[0])


def test_bad_arguments_are_refused_naming_them():
    discrete = BatchedPlant(MakeAcrobotPlant(time_step=H))
    continuous = BatchedPlant(MakeAcrobotPlant())
    q0, v0 = np.zeros((3, 2)), np.zeros((3, 2))
    cases = [
        (discrete, (np.zeros((3, 3)), v0), {"num_steps": 2}, r"q0 must have shape \(N, 2\)"),
        (discrete, (q0, np.zeros((2, 2))), {"num_steps": 2}, r"v0 must have shape \(3, 2\)"),
        (discrete, (q0, v0, np.zeros((3, 4))), {}, r"actuation must have shape \(3, num_steps"),
        (discrete, (q0, v0, np.zeros((3, 4, 1))), {"num_steps": 5}, "num_steps = 5 but"),
        (discrete, (q0, v0), {}, "give num_steps"),
        (discrete, (q0, v0), {"num_steps": -1}, "non-negative integer"),
        (discrete, (q0, v0), {"num_steps": 4, "every": 0}, "every must be a positive"),
        (discrete, (q0, v0), {"num_steps": 4, "time_step": 0.1}, "time_step must be None"),
        (discrete, (q0, v0), {"num_steps": 4, "out": np.zeros((3, 4, 3))}, "out must be"),
        (continuous, (q0, v0), {"num_steps": 4}, "needs a time_step > 0"),
        (continuous, (q0, v0), {"num_steps": 4, "time_step": H, "integrator": "rk4"}, "one of"),
        (discrete, (q0, v0), {"num_steps": 4, "pd_target": np.zeros((3, 2))}, "needs pd_gains"),
        (discrete, (q0, v0), {"num_steps": 4, "pd_gains": ([1], [1])}, "without pd_target"),
        (
            discrete,
            (q0, v0),
            {"num_steps": 4, "pd_target": np.zeros((3, 2)), "pd_gains": ([np.nan], [1])},
            "kp must be 1 finite values",
        ),
    ]
    for batched, args, kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            batched.Rollout(*args, **kwargs)
    X = discrete.Rollout(np.zeros((0, 2)), np.zeros((0, 2)), num_steps=3)
    assert X.shape == (0, 3, 4)
    assert discrete.Rollout(q0, v0, num_steps=3, every=4).shape == (3, 0, 4)


def _pendulum(time_step, limits=(), gains=None, coupled=False, second=False, tamsi=False):
    """A pendulum (a second one beside it if ``coupled`` or ``second``), its pin actuated."""
    plant = MultibodyPlant(time_step)
    joints = []
    for name in ("pin", "pin2") if coupled or second else ("pin",):
        body = plant.AddRigidBody(name, SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.5))
        joints.append(
            plant.AddJoint(
                RevoluteJoint(name, plant.world_frame(), body.body_frame(), [0, 1, 0], *limits)
            )
        )
    actuator = plant.AddJointActuator("motor", joints[0])
    if gains is not None:
        actuator.set_controller_gains(PdControllerGains(p=gains[0], d=gains[1]))
    if coupled:
        plant.AddCouplerConstraint(joints[0], joints[1], 2.0)
    if tamsi:
        plant.set_discrete_contact_approximation(DiscreteContactApproximation.kTamsi)
    plant.Finalize()
    return BatchedPlant(plant)


def test_joint_limits_go_through_sap_as_the_plants_step():
    batched = _pendulum(H, limits=(-0.3, 0.4), second=True)
    plant = batched.plant()
    rng = np.random.default_rng(8)
    q0 = rng.uniform(-0.25, 0.35, (6, 2))
    v0 = rng.normal(size=(6, 2)) * 4.0
    steps = 150
    U = rng.normal(size=(6, steps, 1))
    X, status = batched.Rollout(q0, v0, U, return_status=True)
    assert status.ok.all()
    for i in (0, 5):
        np.testing.assert_array_equal(X[i], simulate(plant, q0[i], v0[i], U[i], steps))
    assert X[:, :, :2].min() < -0.29 and X[:, :, :2].max() > 0.39  # (the limits were met)
    assert X[:, :, :2].min() > -0.31 and X[:, :, :2].max() < 0.41


def _limited_chain(time_step):
    """A chain of three links on revolute joints with position limits and damping (one tree:
    the limits' SAP problems couple its velocities through M), its first joint actuated by a
    motor with a rotor inertia (M's reflected inertia, beside h·D in SAP's A)."""
    plant = MultibodyPlant(time_step)
    parent = plant.world_frame()
    joints = []
    for i, (lower, upper) in enumerate(((-0.4, 0.5), (-0.6, 0.3), (-0.2, 0.7))):
        body = plant.AddRigidBody(f"link{i}", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.5))
        X_PJ = RigidTransform([0.0, 0.0, -0.5 if i else 0.0])
        frame = parent if not i else plant.AddFrame(FixedOffsetFrame(f"joint{i}", parent, X_PJ))
        joints.append(
            plant.AddJoint(
                RevoluteJoint(f"pin{i}", frame, body.body_frame(), [0, 1, 0], lower, upper, 0.3)
            )
        )
        parent = body.body_frame()
    motor = plant.AddJointActuator("motor", joints[0])
    motor.set_default_rotor_inertia(0.02)
    motor.set_default_gear_ratio(3.0)
    plant.Finalize()
    return BatchedPlant(plant)


def test_joint_limits_of_a_tree_go_through_sap_as_the_plants_step():
    # Groups whose states meet limits at different steps (the group's M is computed in lanes
    # once, for the states with a limit near): each state is the Simulator's, bit for bit.
    batched = _limited_chain(H)
    plant = batched.plant()
    rng = np.random.default_rng(11)
    q0 = rng.uniform(-0.15, 0.25, (7, 3))
    v0 = rng.normal(size=(7, 3)) * 3.0
    steps = 120
    U = rng.normal(size=(7, steps, 1)) * 5.0
    X, status = batched.Rollout(q0, v0, U, return_status=True)
    assert status.ok.all()
    for i in (0, 3, 6):
        np.testing.assert_array_equal(X[i], simulate(plant, q0[i], v0[i], U[i], steps))
    lower, upper = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    assert (X[:, :, :3] < lower + 0.02).any() and (X[:, :, :3] > upper - 0.02).any()


def test_plants_whose_step_needs_a_constraint_solve_are_refused():
    cases = [
        (
            _pendulum(H, limits=(-1.0, 1.0), tamsi=True),
            "joint 'pin' has position limits.*through TAMSI's joint limit penalty",
        ),
        (_pendulum(H, gains=(10.0, 1.0)), "actuator 'motor' has PD controller gains"),
        (_pendulum(0.0, gains=(10.0, 1.0)), "actuator 'motor' has PD controller gains"),
        (_pendulum(H, limits=(-1.0, 1.0), coupled=True), "it has 1 constraint"),
    ]
    for batched, message in cases:
        n = batched.plant().num_positions()
        with pytest.raises(NotImplementedError, match=message):
            batched.Rollout(np.zeros((1, n)), np.zeros((1, n)), num_steps=1)
    # A continuous plant ignores joint limits (as Drake's): its rollout runs.
    continuous = _pendulum(0.0, limits=(-1.0, 1.0))
    X = continuous.Rollout([[0.5]], [[3.0]], num_steps=200, time_step=H)
    assert X[0, -1, 0] > 1.0


def ground_scene(approximation=None, time_step=H):
    """A sphere and a box (free bodies) above a half space, in a Diagram with a SceneGraph
    (kPoint contact): (diagram, plant)."""
    from mallard.all import AddMultibodyPlantSceneGraph, ContactModel, DiagramBuilder, HalfSpace
    from mallard.geometry import Sphere

    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, time_step)
    plant.set_contact_model(ContactModel.kPoint)
    if approximation is not None:
        plant.set_discrete_contact_approximation(approximation)
    friction = CoulombFriction(0.6, 0.5)
    plant.RegisterCollisionGeometry(
        plant.world_body(), RigidTransform(), HalfSpace(), "ground", friction
    )
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(1.0, 0.05))
    plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(0.05), "ball", friction)
    box = plant.AddRigidBody("box", SpatialInertia.SolidBoxWithMass(0.5, 0.1, 0.15, 0.08))
    plant.RegisterCollisionGeometry(box, RigidTransform(), Box(0.1, 0.15, 0.08), "box", friction)
    plant.Finalize()
    return builder.Build(), plant


def ground_states(rng, size):
    """Initial states of the sphere and the box near the ground, tumbling and sliding."""
    q, v = np.zeros((size, 14)), rng.normal(size=(size, 12))
    for start in (0, 7):
        quaternion = rng.normal(size=(size, 4))
        q[:, start : start + 4] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
        q[:, start + 4 : start + 6] = rng.uniform(-0.5, 0.5, (size, 2))
        q[:, start + 6] = rng.uniform(0.03, 0.12, size)
    return q, v


def simulate_diagram(diagram, plant, q0, v0, steps):
    """The Simulator's states of the plant in ``diagram`` after each of ``steps`` steps."""
    simulator = Simulator(diagram)
    context = plant.GetMyMutableContextFromRoot(simulator.get_mutable_context())
    plant.SetPositions(context, q0)
    plant.SetVelocities(context, v0)
    simulator.Initialize()
    states = []
    for t in range(steps):
        simulator.AdvanceTo((t + 1) * H)
        states.append(plant.GetPositionsAndVelocities(context).copy())
    return np.array(states)


@pytest.mark.parametrize("approximation", ["kSap", "kLagged"])
def test_contact_rollouts_are_the_simulators_trajectories(approximation):
    """A sphere and a box landing, bouncing and sliding on the ground: each state's rollout
    (its contacts found and solved state by state, compiled) is the Simulator's trajectory of
    the same discrete plant, to the last bit, whatever the threads."""
    diagram, plant = ground_scene(getattr(DiscreteContactApproximation, approximation))
    q0, v0 = ground_states(np.random.default_rng(3), 6)
    steps = 120
    X, status = BatchedPlant(plant).Rollout(q0, v0, num_steps=steps, return_status=True)
    assert status.ok.all()
    for i in range(6):
        np.testing.assert_array_equal(X[i], simulate_diagram(diagram, plant, q0[i], v0[i], steps))
    X2 = BatchedPlant(plant, num_threads=2).Rollout(q0, v0, num_steps=steps)
    np.testing.assert_array_equal(X2, X)
    z = X[:, -1, 6]  # (the spheres' heights: on the ground, not through it)
    assert (z > 0.045).all() and (np.abs(z - 0.05) < 1e-3).sum() >= 4


def test_contact_rollouts_refuse_what_they_do_not_compute():
    from mallard.all import (
        AddCompliantHydroelasticProperties,
        AddContactMaterial,
        AddRigidHydroelasticProperties,
        ProximityProperties,
    )

    q0, v0 = ground_states(np.random.default_rng(4), 1)
    _, tamsi = ground_scene(DiscreteContactApproximation.kTamsi)
    with pytest.raises(NotImplementedError, match="not for TAMSI"):
        BatchedPlant(tamsi).Rollout(q0, v0, num_steps=2)
    _, continuous = ground_scene(time_step=0.0)
    with pytest.raises(NotImplementedError, match="not for continuous plants"):
        BatchedPlant(continuous).Rollout(q0, v0, num_steps=2, time_step=H)
    # A compliant and a rigid hydroelastic geometry (their contact is not computed yet).
    plant = MultibodyPlant(H)
    plant.RegisterAsSourceForSceneGraph(SceneGraph())
    friction = CoulombFriction(0.5, 0.5)
    box = plant.AddRigidBody("box", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
    properties = ProximityProperties()
    AddContactMaterial(friction=friction, properties=properties)
    AddRigidHydroelasticProperties(properties)
    plant.RegisterCollisionGeometry(box, RigidTransform(), Box(0.1, 0.1, 0.1), "box", properties)
    properties = ProximityProperties()
    AddContactMaterial(friction=friction, properties=properties)
    AddCompliantHydroelasticProperties(0.01, 1e6, properties)
    soft = plant.AddRigidBody("soft", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
    plant.RegisterCollisionGeometry(soft, RigidTransform(), Box(0.1, 0.1, 0.1), "soft", properties)
    plant.Finalize()
    with pytest.raises(NotImplementedError, match="'box' and 'soft' may come into contact"):
        BatchedPlant(plant).Rollout(np.zeros((1, 14)) + [1, 0, 0, 0, 0, 0, 0] * 2,
                                    np.zeros((1, 12)), num_steps=2)  # fmt: skip


def _welded_tree(time_step, limits=False, gravity_off=False):
    """An arm whose bodies are in part welded: a base welded to World at a turned offset, two
    revolute links (actuated, damped; the first with position limits if ``limits``), a hand
    with mass welded to the second at a turned offset, a massless tool frame welded to the
    hand, a finger on a prismatic joint on the hand; and a free puck with a weight welded to
    it. ``gravity_off``: the hand in a model instance without gravity."""
    from mallard.math import RollPitchYaw
    from mallard.multibody.tree import PrismaticJoint

    plant = MultibodyPlant(time_step)
    arm, hands = plant.AddModelInstance("arm"), plant.AddModelInstance("hands")

    def box(name, mass, size, model=arm):
        if mass == 0.0:
            inertia = SpatialInertia(0.0, [0, 0, 0], UnitInertia(0, 0, 0))
        else:  # (its center of mass off its origin)
            inertia = SpatialInertia.SolidBoxWithMass(mass, *size).Shift([0.01, -0.02, 0.03])
        return plant.AddRigidBody(name, model, inertia)

    base = box("base", 2.0, (0.2, 0.2, 0.1))
    plant.WeldFrames(
        plant.world_frame(),
        base.body_frame(),
        RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0.1, 0, 0.5]),
    )
    parent, joints = base.body_frame(), []
    for i, axis in enumerate(([0, 0, 1], [0, 1, 0])):
        link = box(f"link{i}", 1.0 + i, (0.1, 0.1, 0.4))
        frame = plant.AddFrame(
            FixedOffsetFrame(f"joint{i}", parent, RigidTransform([0.02, 0.0, 0.2 + 0.1 * i]))
        )
        lower, upper = (-0.3, 0.4) if limits and i == 0 else (-np.inf, np.inf)
        joints.append(
            plant.AddJoint(
                RevoluteJoint(f"pin{i}", frame, link.body_frame(), axis, lower, upper, 0.2)
            )
        )
        plant.AddJointActuator(f"motor{i}", joints[-1])
        parent = link.body_frame()
    hand = box("hand", 0.7, (0.08, 0.2, 0.05), hands if gravity_off else arm)
    plant.WeldFrames(
        parent, hand.body_frame(), RigidTransform(RollPitchYaw(0.0, 0.3, -0.8), [0, 0.03, 0.25])
    )
    tool = box("tool", 0.0, ())
    plant.WeldFrames(hand.body_frame(), tool.body_frame(), RigidTransform([0, 0, 0.1]))
    finger = box("finger", 0.05, (0.02, 0.02, 0.05))
    plant.AddJoint(
        PrismaticJoint("slide", hand.body_frame(), finger.body_frame(), [0, 1, 0], damping=0.3)
    )
    puck = box("puck", 0.5, (0.1, 0.1, 0.02))
    weight = box("weight", 0.3, (0.05, 0.05, 0.05))
    plant.WeldFrames(puck.body_frame(), weight.body_frame(), RigidTransform([0.04, -0.02, 0.03]))
    if gravity_off:
        plant.mutable_gravity_field().set_enabled(hands, False)
    plant.Finalize()
    return plant


def _welded_states(plant, rng, size):
    q0 = np.zeros((size, plant.num_positions()))
    q0[:, :3] = rng.uniform(-0.25, 0.35, (size, 3))  # (pin0, pin1, slide)
    quaternion = rng.normal(size=(size, 4))
    q0[:, 3:7] = quaternion / np.linalg.norm(quaternion, axis=1, keepdims=True)
    q0[:, 7:] = rng.normal(size=(size, 3))
    return q0, rng.normal(size=(size, plant.num_velocities()))


def test_welded_bodies_are_merged_into_their_composites():
    # Rollouts run the plant's model with its welded bodies merged (_welded_composites): the
    # composite of link1, the hand and the tool is their spatial inertia about link1's origin,
    # as the plant computes it; the base goes with World; a body without welded mass keeps
    # its parameters bit for bit.
    from mallard.multibody._layout import PARAMETERS
    from mallard.multibody._welded_composites import merge_welded_bodies

    plant = _welded_tree(H)
    merged = merge_welded_bodies(plant._engine, BatchedPlant(plant)._ws0)
    names = [plant._bodies[plant._topology.mobods[k].body].name() for k in merged.mobods]
    assert names == ["world", "link0", "link1", "finger", "puck"]
    params = PARAMETERS.views(merged.ws0, merged.sizes)
    context = plant.CreateDefaultContext()
    parts = [plant.GetBodyByName(name).index() for name in ("link1", "hand", "tool")]
    M = plant.CalcSpatialInertia(context, plant.GetBodyByName("link1").body_frame(), parts)
    np.testing.assert_allclose(params.m_B[2], M.get_mass(), rtol=1e-15)
    np.testing.assert_allclose(params.com_B[2], M.get_com(), rtol=0, atol=1e-15)
    G = M.get_unit_inertia().CopyToFullMatrix3()
    np.testing.assert_allclose(params.G_B[2], G, rtol=0, atol=1e-15)
    finger = plant.GetBodyByName("finger")
    assert params.m_B[3] == finger.default_mass()
    ws0 = BatchedPlant(plant)._ws0
    original = PARAMETERS.views(ws0, plant._engine.sizes)
    b = int(finger.index())
    np.testing.assert_array_equal(params.G_B[3], original.G_B[b])
    np.testing.assert_array_equal(params.com_B[3], original.com_B[b])


@pytest.mark.parametrize("integrator", [None, RungeKutta3Integrator], ids=["sap", "rk3"])
def test_rollouts_of_welded_trees_are_the_simulators_to_rounding(integrator):
    # The merged composites' sums are formed once, in another order than the plant's sweeps:
    # the trajectories agree to rounding (1e-12 over 100 steps), not to the last bit.
    plant = _welded_tree(H if integrator is None else 0.0)
    rng = np.random.default_rng(12)
    q0, v0 = _welded_states(plant, rng, 5)
    steps = 100
    U = rng.normal(size=(5, steps, 2))
    kwargs = {} if integrator is None else {"time_step": H_CONTINUOUS}
    X = BatchedPlant(plant).Rollout(q0, v0, U, **kwargs)
    for i in (0, 4):
        expected = simulate(plant, q0[i], v0[i], U[i], steps, integrator)
        np.testing.assert_allclose(X[i], expected, rtol=0, atol=1e-12)
        assert not np.allclose(X[i, -1], X[i, 0], atol=1e-3)  # (it moved)


def test_rollouts_of_welded_trees_with_limits_are_the_simulators_to_the_solvers_tolerance():
    # A joint limit's SAP solve from a v* that differs by rounding: the same answer to the
    # solver's tolerance (its stopping criteria; here within 1e-12 over 150 steps).
    plant = _welded_tree(H, limits=True)
    rng = np.random.default_rng(13)
    q0, v0 = _welded_states(plant, rng, 4)
    v0[:, 0] = [-9.0, 9.0, -8.0, 8.0]
    steps = 150
    U = rng.normal(size=(4, steps, 2))
    X, status = BatchedPlant(plant).Rollout(q0, v0, U, return_status=True)
    assert status.ok.all()
    assert X[:, :, 0].min() < -0.29 and X[:, :, 0].max() > 0.39  # (the limits were met)
    for i in range(4):
        expected = simulate(plant, q0[i], v0[i], U[i], steps)
        np.testing.assert_allclose(X[i], expected, rtol=0, atol=1e-12)


def test_welds_across_gravity_settings_are_not_merged():
    # The hand without gravity, welded to link1 with gravity: the plant's own model runs, and
    # the rollout is the Simulator's to the last bit.
    plant = _welded_tree(H, gravity_off=True)
    batched = BatchedPlant(plant)
    rng = np.random.default_rng(14)
    q0, v0 = _welded_states(plant, rng, 3)
    X = batched.Rollout(q0, v0, num_steps=40)
    assert batched._rollout_plan.mobods is None
    for i in range(3):
        np.testing.assert_array_equal(X[i], simulate(plant, q0[i], v0[i], np.zeros((40, 2)), 40))


def test_a_welded_trees_failures_name_the_plants_joints_and_bodies():
    plant = _welded_tree(H)
    rng = np.random.default_rng(15)
    q0, v0 = _welded_states(plant, rng, 3)
    q0[1, 3:7] = 0.0
    X, status = BatchedPlant(plant).Rollout(q0, v0, num_steps=5, return_status=True)
    assert status.failed().tolist() == [1]
    assert "the positions q[1, 3:7] of joint 'puck'" in status.message(1)
    # A massless link on a revolute joint past a welded body: its articulated inertia is zero.
    plant = MultibodyPlant(H)
    base = plant.AddRigidBody("base", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
    plant.WeldFrames(plant.world_frame(), base.body_frame(), RigidTransform([0, 0, 1.0]))
    link = plant.AddRigidBody("link", SpatialInertia(0.0, [0, 0, 0], UnitInertia(0, 0, 0)))
    plant.AddJoint(RevoluteJoint("pin", base.body_frame(), link.body_frame(), [0, 1, 0]))
    plant.Finalize()
    _, status = BatchedPlant(plant).Rollout(np.zeros((1, 1)), np.zeros((1, 1)), num_steps=2,
                                             return_status=True)  # fmt: skip
    with pytest.raises(RuntimeError) as error:
        simulate(plant, [0.0], [0.0], None, 1)
    assert str(error.value) in status.message(0)
    assert "body base to body link" in status.message(0)
