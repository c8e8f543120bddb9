"""BatchedPlant: every batched result is the plant's own single-state result, state by state,
to the last bit (the batched kernels compute four or eight states at a time, in lanes); interpreted
(object arrays) equals compiled; shapes are checked; N = 0 and N = 1 work; a state that
cannot be computed gets NaN and a status naming the cause, the others their results.
(Threads: test_batch_threads.py.)"""

import re
import warnings

import numpy as np
import pytest

from mallard.math import RigidTransform, RollPitchYaw
from mallard.multibody.batch import BatchedPlant
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    FrameIndex,
    JacobianWrtVariable,
    MultibodyForces,
    PlanarJoint,
    PrismaticJoint,
    RevoluteJoint,
    RpyFloatingJoint,
    ScrewJoint,
    SpatialInertia,
    UnitInertia,
    UniversalJoint,
    WeldJoint,
)
from tests.dual import Dual

from .plant.plant_models import dynamics_model, library, random_inertia

M = library("mallard")


def build_model(seed=3):
    """A continuous plant with revolute (one reversed), prismatic, screw, universal, planar,
    ball, roll-pitch-yaw floating and weld joints, offset frames, two free bodies, joint
    damping, actuators with rotor inertias, gear ratios and effort limits, and gravity
    disabled in model instance "floaty"."""
    rng = np.random.default_rng(seed)
    plant = MultibodyPlant(0.0)
    robot = plant.AddModelInstance("robot")
    floaty = plant.AddModelInstance("floaty")
    names = ["base", "l1", "l2", "l3", "l4", "l5", "tip", "tool", "free1", "plan", "rpy"]
    b = {}
    for name in names:
        instance = floaty if name in ("plan", "rpy") else robot
        b[name] = plant.AddRigidBody(name, instance, random_inertia(M, rng))
    plant.AddRigidBody("free2", M.default_model_instance(), random_inertia(M, rng))

    def frame(name, parent):
        X = RigidTransform(RollPitchYaw(rng.uniform(-3, 3, size=3)), rng.normal(size=3))
        return plant.AddFrame(FixedOffsetFrame(name, parent, X))

    world = plant.world_frame()
    F0 = frame("F0", world)
    F1 = frame("F1", b["base"].body_frame())
    F2 = frame("F2", F1)
    F3 = frame("F3", b["l1"].body_frame())
    F4 = frame("F4", b["l2"].body_frame())
    F5 = frame("F5", b["l3"].body_frame())
    frame("F_tool", b["tool"].body_frame())
    j_pri = plant.AddJoint(
        PrismaticJoint("jpri", F0, b["base"].body_frame(), rng.normal(size=3), damping=0.3)
    )
    j_rev = plant.AddJoint(RevoluteJoint("jrev", F2, b["l1"].body_frame(), rng.normal(size=3)))
    j_rev.set_default_damping(0.2)
    plant.AddJoint(ScrewJoint("jscrew", F3, b["l2"].body_frame(), rng.normal(size=3), 0.3, 0.1))
    plant.AddJoint(UniversalJoint("juni", F4, b["l3"].body_frame(), 0.05))
    plant.AddJoint(BallRpyJoint("jball", F5, b["l4"].body_frame(), 0.1))
    # Reversed: the parent l5 is not in the tree yet, the child l4 is.
    j_tip = plant.AddJoint(
        RevoluteJoint("jtip", b["l5"].body_frame(), b["l4"].body_frame(), [0, 0, 1], 0.15)
    )
    plant.AddJoint(RevoluteJoint("jlast", b["l5"].body_frame(), b["tip"].body_frame(), [1, 0, 0]))
    plant.AddJoint(
        WeldJoint(
            "weld", b["tip"].body_frame(), b["tool"].body_frame(), RigidTransform([0.1, 0, 0])
        )
    )
    plant.AddJoint(PlanarJoint("jplanar", world, b["plan"].body_frame(), [0.1, 0.2, 0.3]))
    plant.AddJoint(RpyFloatingJoint("jrpy", b["plan"].body_frame(), b["rpy"].body_frame(), 0.1))
    for joint, limit, rotor, gear in (
        (j_pri, np.inf, 0.2, 3.0),
        (j_rev, 3.0, 0.1, 2.0),
        (j_tip, 0.5, 0.05, 4.0),
    ):
        actuator = plant.AddJointActuator("u_" + joint.name(), joint, limit)
        actuator.set_default_rotor_inertia(rotor)
        actuator.set_default_gear_ratio(gear)
    plant.set_gravity_enabled(floaty, False)
    plant.Finalize()
    return plant


@pytest.fixture(scope="module")
def plant():
    return build_model()


@pytest.fixture(scope="module")
def context(plant):
    """A Context with parameters other than the defaults: a mass, a frame offset, a damping,
    a rotor inertia, a locked joint and the gravity vector."""
    context = plant.CreateDefaultContext()
    plant.GetBodyByName("l2").SetMass(context, 2.5)
    plant.GetFrameByName("F3").SetPoseInParentFrame(
        context, RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0.3, -0.2, 0.1])
    )
    plant.GetJointByName("jrev").SetDamping(context, 0.7)
    plant.get_joint_actuator(M.JointActuatorIndex(0)).SetRotorInertia(context, 0.4)
    plant.GetJointByName("jlast").Lock(context)
    return context


@pytest.fixture(scope="module")
def batched(plant, context):
    return BatchedPlant(plant, context)


def random_states(plant, count, seed=7):
    """(q, v) batches: random, non-unit quaternions, roll-pitch-yaw pitch away from gimbal
    lock."""
    rng = np.random.default_rng(seed)
    q = rng.normal(size=(count, plant.num_positions()))
    for i in range(plant.num_joints()):
        joint = plant.get_joint(M.JointIndex(i))
        if joint.type_name() in ("ball_rpy", "rpy_floating"):
            q[:, joint.position_start() + 1] = rng.uniform(-1.2, 1.2, size=count)
    return q, rng.normal(size=(count, plant.num_velocities()))


def at_state(plant, context, q, v=None):
    """``context`` (parameters kept) at (q, v)."""
    plant.SetPositions(context, q)
    if v is not None:
        plant.SetVelocities(context, v)
    return context


def frames(plant):
    return [plant.get_frame(FrameIndex(i)) for i in range(plant.num_frames())]


# ---- each result equals the plant's ------------------------------------------------------------
def test_body_poses(plant, context, batched):
    q, _ = random_states(plant, 6)
    X_WB = batched.CalcAllBodyPosesInWorld(q)
    assert X_WB.shape == (6, plant.num_bodies(), 4, 4)
    for i in range(6):
        at_state(plant, context, q[i])
        for b in range(plant.num_bodies()):
            body = plant.get_body(M.BodyIndex(b))
            expected = plant.EvalBodyPoseInWorld(context, body).GetAsMatrix4()
            np.testing.assert_array_equal(X_WB[i, b], expected)  # (computed L at a time)


def test_mass_matrix(plant, context, batched):
    q, _ = random_states(plant, 6)
    Ms = batched.CalcMassMatrix(q)
    assert Ms.shape == (6, plant.num_velocities(), plant.num_velocities())
    for i in range(6):
        expected = plant.CalcMassMatrix(at_state(plant, context, q[i]))
        np.testing.assert_array_equal(Ms[i], expected)


@pytest.mark.parametrize("with_tau", [False, True])
def test_inverse_dynamics_includes_gravity_and_damping(plant, context, batched, with_tau):
    rng = np.random.default_rng(11)
    q, v = random_states(plant, 6)
    vdot = rng.normal(size=v.shape)
    tau_applied = rng.normal(size=v.shape) if with_tau else None
    tau = batched.CalcInverseDynamics(q, v, vdot, tau_applied)
    assert tau.shape == v.shape
    for i in range(6):
        at_state(plant, context, q[i], v[i])
        forces = MultibodyForces(plant)
        plant.CalcForceElementsContribution(context, forces)
        if with_tau:
            forces.mutable_generalized_forces()[:] += tau_applied[i]
        expected = plant.CalcInverseDynamics(context, vdot[i], forces)
        np.testing.assert_array_equal(tau[i], expected)


@pytest.mark.parametrize("inputs", ["none", "tau", "actuation", "both"])
def test_forward_dynamics(plant, context, batched, inputs):
    rng = np.random.default_rng(13)
    q, v = random_states(plant, 6)
    tau = rng.normal(size=v.shape) if inputs in ("tau", "both") else None
    u = 4.0 * rng.normal(size=(6, plant.num_actuated_dofs()))  # some beyond the limits
    u = u if inputs in ("actuation", "both") else None
    vdot = batched.CalcForwardDynamics(q, v, tau, u)
    assert vdot.shape == v.shape
    nq = plant.num_positions()
    for i in range(6):
        context_i = context.Clone()
        at_state(plant, context_i, q[i], v[i])
        u_i = np.zeros(plant.num_actuated_dofs()) if u is None else u[i]
        plant.get_actuation_input_port().FixValue(context_i, u_i)
        if tau is not None:
            plant.get_applied_generalized_force_input_port().FixValue(context_i, tau[i])
        expected = plant.EvalTimeDerivatives(context_i).CopyToVector()[nq:]
        np.testing.assert_array_equal(vdot[i], expected)


def test_forward_dynamics_inverts_inverse_dynamics(plant, batched):
    rng = np.random.default_rng(17)
    q, v = random_states(plant, 5)
    tau = rng.normal(size=v.shape)
    context = plant.CreateDefaultContext()
    unlocked = BatchedPlant(plant, context)
    vdot = unlocked.CalcForwardDynamics(q, v, tau)
    np.testing.assert_allclose(unlocked.CalcInverseDynamics(q, v, vdot, tau), 0, atol=1e-10)


def test_jacobians(plant, context, batched):
    rng = np.random.default_rng(19)
    q, _ = random_states(plant, 4)
    kV = JacobianWrtVariable.kV
    W = plant.world_frame()
    for frame in frames(plant):
        p_single = rng.normal(size=3)
        p_each = rng.normal(size=(4, 3))
        J_single = batched.CalcJacobianSpatialVelocity(q, frame, p_single)
        J_each = batched.CalcJacobianSpatialVelocity(q, frame, p_each)
        J_origin = batched.CalcJacobianSpatialVelocity(q, frame)
        assert J_single.shape == (4, 6, plant.num_velocities())
        for i in range(4):
            at_state(plant, context, q[i])
            for J, p in ((J_single, p_single), (J_each, p_each[i]), (J_origin, np.zeros(3))):
                expected = plant.CalcJacobianSpatialVelocity(context, kV, frame, p, W, W)
                np.testing.assert_array_equal(J[i], expected)


# ---- parameters --------------------------------------------------------------------------------
def test_parameters_come_from_the_context_at_construction(plant, context):
    q, v = random_states(plant, 2)
    default = BatchedPlant(plant)
    assert not np.allclose(
        default.CalcMassMatrix(q), BatchedPlant(plant, context).CalcMassMatrix(q)
    )
    np.testing.assert_allclose(
        default.CalcMassMatrix(q)[1],
        plant.CalcMassMatrix(at_state(plant, plant.CreateDefaultContext(), q[1])),
        rtol=1e-12,
    )
    other = plant.CreateDefaultContext()
    snapshot = BatchedPlant(plant, other)
    before = snapshot.CalcInverseDynamics(q, v, v)
    plant.GetBodyByName("l3").SetMass(other, 7.0)  # after construction: not seen
    np.testing.assert_array_equal(snapshot.CalcInverseDynamics(q, v, v), before)


def test_gravity_vector_is_the_plants():
    plant = build_model()
    plant.mutable_gravity_field().set_gravity_vector([0.0, 1.0, -3.0])
    q, v = random_states(plant, 2)
    zero = np.zeros_like(v)
    tau = BatchedPlant(plant).CalcInverseDynamics(q, zero, zero)
    context = at_state(plant, plant.CreateDefaultContext(), q[1], zero[1])
    np.testing.assert_allclose(
        tau[1], -plant.CalcGravityGeneralizedForces(context), rtol=1e-12, atol=1e-12
    )


def test_other_force_elements_raise_unless_left_out():
    plant, items = dynamics_model(M)
    with pytest.raises(NotImplementedError, match="RevoluteSpring.*force_elements=False"):
        BatchedPlant(plant)
    batched = BatchedPlant(plant, force_elements=False)
    q, v = random_states(plant, 3)
    vdot = np.random.default_rng(2).normal(size=v.shape)
    tau = batched.CalcInverseDynamics(q, v, vdot)
    for i in range(3):
        context = at_state(plant, plant.CreateDefaultContext(), q[i], v[i])
        everything = MultibodyForces(plant)
        plant.CalcForceElementsContribution(context, everything)
        springs = MultibodyForces(plant)
        for element in items.forces:
            element.CalcAndAddForceContribution(context, springs)
        expected = plant.CalcInverseDynamics(context, vdot[i], everything)
        expected += plant.CalcGeneralizedForces(context, springs)
        np.testing.assert_allclose(tau[i], expected, rtol=1e-10, atol=1e-10)
    vdot = batched.CalcForwardDynamics(q, v)
    np.testing.assert_allclose(batched.CalcInverseDynamics(q, v, vdot), 0, atol=1e-9)


# ---- compiled and interpreted, threads, batch sizes ---------------------------------------------
def _all_results(batched, plant, q, v, vdot, tau, u):
    frame = plant.GetFrameByName("F_tool")
    return [
        batched.CalcAllBodyPosesInWorld(q),
        batched.CalcMassMatrix(q),
        batched.CalcInverseDynamics(q, v, vdot, tau),
        batched.CalcForwardDynamics(q, v, tau, u),
        batched.CalcJacobianSpatialVelocity(q, frame, [0.1, 0.2, 0.3]),
    ]


def test_interpreted_equals_compiled(plant, batched):
    rng = np.random.default_rng(23)
    q, v = random_states(plant, 3)
    vdot, tau = rng.normal(size=v.shape), rng.normal(size=v.shape)
    u = rng.normal(size=(3, plant.num_actuated_dofs()))
    compiled = _all_results(batched, plant, q, v, vdot, tau, u)
    interpreted = _all_results(
        batched, plant, q.astype(object), v.astype(object), vdot, tau.astype(object), u
    )
    for a, b in zip(compiled, interpreted, strict=True):
        assert a.dtype == np.float64 and b.dtype == object
        np.testing.assert_allclose(a, b.astype(float), rtol=1e-13, atol=1e-13)


def test_results_do_not_depend_on_uninitialized_memory(plant, context, batched, monkeypatch):
    """Rows and outputs allocated full of NaN (integers: −7) give the same results: the
    kernels (their lanes included) read nothing they did not write or copy."""
    rng = np.random.default_rng(37)
    q, v = random_states(plant, 6)
    vdot, tau = rng.normal(size=v.shape), rng.normal(size=v.shape)
    u = rng.normal(size=(6, plant.num_actuated_dofs()))
    expected = _all_results(batched, plant, q, v, vdot, tau, u)
    empty = np.empty

    def poisoned(shape, dtype=float):
        a = empty(shape, dtype=dtype)
        a.fill(-7 if np.dtype(dtype).kind in "iu" else np.nan)
        return a

    monkeypatch.setattr(np, "empty", poisoned)
    fresh = BatchedPlant(plant, context)  # (its rows made now, from poisoned memory)
    for a, b in zip(_all_results(fresh, plant, q, v, vdot, tau, u), expected, strict=True):
        np.testing.assert_array_equal(a, b)


def _every_method(batched, plant, q, v, vdot, tau, u):
    """Every method of ``batched`` with ``return_status=True``: name → (results, status)."""
    frame = plant.GetFrameByName("F_tool")
    calls = {
        "CalcAllBodyPosesInWorld": lambda: batched.CalcAllBodyPosesInWorld(q, return_status=True),
        "CalcMassMatrix": lambda: batched.CalcMassMatrix(q, return_status=True),
        "CalcInverseDynamics": lambda: batched.CalcInverseDynamics(
            q, v, vdot, tau, return_status=True
        ),
        "CalcForwardDynamics": lambda: batched.CalcForwardDynamics(
            q, v, tau, u, return_status=True
        ),
        "CalcJacobianSpatialVelocity": lambda: batched.CalcJacobianSpatialVelocity(
            q, frame, [0.1, 0.2, 0.3], return_status=True
        ),
        "CalcInverseDynamicsDerivatives": lambda: batched.CalcInverseDynamicsDerivatives(
            q, v, vdot, return_status=True
        ),
        "CalcForwardDynamicsDerivatives": lambda: batched.CalcForwardDynamicsDerivatives(
            q, v, tau, u, return_status=True
        ),
    }
    results = {}
    for name, call in calls.items():
        *arrays, status = call()
        results[name] = (arrays, status)
    return results


def _bad_inputs(plant, q, v, vdot, tau, u):
    """Copies of the inputs with a bad state 1 (a NaN in q), 5 (a zero quaternion: free body
    free1's), 6 (+∞ in v) and 7 (a NaN actuation): the expected message of each."""
    q, v, vdot, tau, u = (a.copy() for a in (q, v, vdot, tau, u))
    joint = plant.GetJointByName("jscrew")
    q[1, joint.position_start()] = np.nan
    free = plant.GetBodyByName("free1")
    start = free.floating_positions_start()
    q[5, start : start + 4] = 0.0
    v[6, plant.GetJointByName("jrev").velocity_start()] = np.inf
    u[7, 1] = np.nan
    expected = {
        1: rf"state 1: q\[1, {joint.position_start()}\] = nan is not finite \(position 0 of "
        r"joint 'jscrew'\)",
        5: rf"state 5: All the elements in a quaternion are zero: the positions "
        rf"q\[5, {start}:{start + 4}\] of joint 'free1'",
        6: r"state 6: v\[6, \d+\] = inf is not finite \(velocity 0 of joint 'jrev'\)",
        7: r"state 7: actuation\[7, 1\] = nan is not finite \(the actuation of actuator "
        r"'u_jrev'\)",
    }
    return (q, v, vdot, tau, u), expected


def test_a_bad_state_spoils_only_itself(plant, batched):
    """States with a NaN or infinite input or a zero quaternion get NaN in all of their
    results and a status naming the cause; the others (computed in the same lanes) are as
    computed without them, and no method raises."""
    rng = np.random.default_rng(41)
    q, v = random_states(plant, 9)
    vdot, tau = rng.normal(size=v.shape), rng.normal(size=v.shape)
    u = rng.normal(size=(9, plant.num_actuated_dofs()))
    good = _every_method(batched, plant, q, v, vdot, tau, u)
    bad_inputs, expected = _bad_inputs(plant, q, v, vdot, tau, u)
    bad = _every_method(batched, plant, *bad_inputs)
    uses_v = {"CalcInverseDynamics", "CalcForwardDynamics", "CalcInverseDynamicsDerivatives",
              "CalcForwardDynamicsDerivatives"}  # fmt: skip
    uses_u = {"CalcForwardDynamics", "CalcForwardDynamicsDerivatives"}
    for name, (arrays, status) in bad.items():
        failed = {1, 5} | ({6} if name in uses_v else set()) | ({7} if name in uses_u else set())
        assert status.failed().tolist() == sorted(failed), name
        assert status.ok.tolist() == [i not in failed for i in range(9)]
        for i in failed:
            assert re.fullmatch(expected[i], status.message(i)), (name, status.message(i))
        ok = [i for i in range(9) if i not in failed]
        for a, b in zip(arrays, good[name][0], strict=True):
            np.testing.assert_array_equal(a[ok], b[ok])
            assert np.isnan(a[sorted(failed)]).all(), name
        assert good[name][1].ok.all() and good[name][1].message(0) is None


def test_without_return_status_a_warning_names_the_first_failed_state(plant, batched):
    q, v = random_states(plant, 4)
    q[2, 0] = np.nan
    with pytest.warns(RuntimeWarning, match=r"CalcMassMatrix\(\): 1 of 4 states failed .*"
                      r"state 2: q\[2, 0\] = nan is not finite.*return_status=True"):  # fmt: skip
        M = batched.CalcMassMatrix(q)
    assert np.isnan(M[2]).all() and not np.isnan(M[[0, 1, 3]]).any()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        batched.CalcMassMatrix(q[[0, 1, 3]])  # (nothing failed: no warning)
        batched.CalcMassMatrix(q, return_status=True)  # (the status says it: no warning)


def test_batch_status(plant, batched):
    q, _ = random_states(plant, 3)
    q[1, 0] = -np.inf
    X_WB, status = batched.CalcAllBodyPosesInWorld(q, return_status=True)
    assert len(status) == 3 and status.failed().tolist() == [1]
    assert status.message(0) is None and status.message(-2) == status.message(1)
    assert status.messages() == {1: status.message(1)}
    assert "1 of 3 states failed; state 1: q[1, 0] = -inf" in repr(status)
    with pytest.raises(RuntimeError, match=r"CalcAllBodyPosesInWorld\(\): state 1: q\[1, 0\]"):
        status.raise_if_failed()
    with pytest.raises(IndexError, match="state 3 is out of range for 3 states"):
        status.message(3)
    _, fine = batched.CalcAllBodyPosesInWorld(q[[0, 2]], return_status=True)
    fine.raise_if_failed()
    assert fine.ok.all() and fine.failed().size == 0 and fine.messages() == {}


def test_interpreted_states_get_their_status_too(plant, batched):
    q, v = random_states(plant, 2)
    q[1, 3] = np.nan
    M, status = batched.CalcMassMatrix(q.astype(object), return_status=True)
    assert M.dtype == object and status.failed().tolist() == [1]
    assert "q[1, 3] = nan is not finite" in status.message(1)
    np.testing.assert_array_equal(M[0].astype(float), batched.CalcMassMatrix(q[:1])[0])
    assert all(np.isnan(float(x)) for x in M[1].flat)


def test_non_double_scalars_carry_derivatives(plant, batched):
    """Dual numbers (an AutoDiffXd stand-in) through the interpreted path: the derivative of
    M(q + t·dq) at t = 0 matches central differences."""
    q, _ = random_states(plant, 2)
    dq = np.random.default_rng(29).normal(size=q.shape)
    q_dual = np.vectorize(Dual, otypes=[object])(q, dq)
    M_dual = batched.CalcMassMatrix(q_dual)
    dM = np.vectorize(lambda x: x.b if isinstance(x, Dual) else 0.0, otypes=[float])(M_dual)
    h = 1e-6
    numeric = (batched.CalcMassMatrix(q + h * dq) - batched.CalcMassMatrix(q - h * dq)) / (2 * h)
    np.testing.assert_allclose(dM, numeric, rtol=1e-6, atol=1e-6)


def test_each_state_alone_equals_the_batch(plant, batched):
    rng = np.random.default_rng(31)
    q, v = random_states(plant, 7)
    vdot, tau = rng.normal(size=v.shape), rng.normal(size=v.shape)
    u = rng.normal(size=(7, plant.num_actuated_dofs()))
    reference = _all_results(batched, plant, q, v, vdot, tau, u)
    for i in range(7):
        one = slice(i, i + 1)
        alone = _all_results(batched, plant, q[one], v[one], vdot[one], tau[one], u[one])
        for a, b in zip(reference, alone, strict=True):
            np.testing.assert_array_equal(a[one], b)


def test_a_strided_state_alone_equals_a_contiguous_one(plant, batched):
    """A batch of one state whose rows are strided views (the fast path, from the second call
    on, passes their ravel(): a contiguous copy) gives the contiguous batch's results."""
    rng = np.random.default_rng(37)
    q, v = random_states(plant, 1)
    vdot, tau = rng.normal(size=v.shape), rng.normal(size=v.shape)
    u = rng.normal(size=(1, plant.num_actuated_dofs()))
    contiguous = (q, v, vdot, tau, u)
    strided = [np.repeat(a, 2, axis=1)[:, ::2] for a in contiguous]
    assert not any(a.flags.c_contiguous for a in strided if a.shape[1] > 1)
    frame = plant.GetFrameByName("F_tool")
    expected = _all_results(batched, plant, *contiguous)
    expected.append(batched.CalcJacobianSpatialVelocity(q, frame))
    for _ in range(2):
        results = _all_results(batched, plant, *strided)
        results.append(batched.CalcJacobianSpatialVelocity(strided[0], frame))
        for a, b in zip(expected, results, strict=True):
            np.testing.assert_array_equal(a, b)


def test_empty_batch(plant, batched):
    nq, nv, nu, nb = (
        plant.num_positions(),
        plant.num_velocities(),
        plant.num_actuated_dofs(),
        plant.num_bodies(),
    )
    q, v = np.zeros((0, nq)), np.zeros((0, nv))
    shapes = [(0, nb, 4, 4), (0, nv, nv), (0, nv), (0, nv), (0, 6, nv)]
    results = _all_results(batched, plant, q, v, v, v, np.zeros((0, nu)))
    assert [r.shape for r in results] == shapes
    assert batched.CalcJacobianSpatialVelocity(q, plant.world_frame(), np.zeros((0, 3))).shape == (
        0,
        6,
        nv,
    )


def test_lists_and_integers_are_accepted(plant, batched):
    q, _ = random_states(plant, 1)
    np.testing.assert_array_equal(batched.CalcMassMatrix(q.tolist()), batched.CalcMassMatrix(q))
    zeros = plant.GetDefaultPositions().astype(int)[None]  # (its quaternions [1, 0, 0, 0])
    assert batched.CalcMassMatrix(zeros).dtype == np.float64


# ---- errors --------------------------------------------------------------------------------------
def test_shape_errors(plant, batched):
    nq, nv = plant.num_positions(), plant.num_velocities()
    q, v = random_states(plant, 3)
    frame = plant.world_frame()
    expected = rf"CalcMassMatrix\(\): q must have shape \(N, {nq}\).*got \({nq},\)"
    with pytest.raises(ValueError, match=expected):
        batched.CalcMassMatrix(q[0])
    with pytest.raises(ValueError, match=r"q must have shape"):
        batched.CalcAllBodyPosesInWorld(q[:, :-1])
    with pytest.raises(ValueError, match=rf"v must have shape \(3, {nv}\).*got \(2, {nv}\)"):
        batched.CalcInverseDynamics(q, v[:2], v)
    with pytest.raises(ValueError, match=r"known_vdot must have shape"):
        batched.CalcInverseDynamics(q, v, v[:, :-1])
    with pytest.raises(ValueError, match=r"tau_applied must have shape"):
        batched.CalcInverseDynamics(q, v, v, v[:1])
    with pytest.raises(ValueError, match=r"tau_applied must have shape"):
        batched.CalcForwardDynamics(q, v, v[None])
    with pytest.raises(ValueError, match=r"actuation must have shape \(3, 3\)"):
        batched.CalcForwardDynamics(q, v, None, np.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"p_BoBp_B must have shape \(3, 3\)"):
        batched.CalcJacobianSpatialVelocity(q, frame, np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"p_BoBp_B must have shape"):
        batched.CalcJacobianSpatialVelocity(q, frame, np.zeros(4))
    with pytest.raises(TypeError, match="must hold numbers"):
        batched.CalcMassMatrix(np.full((1, nq), "a"))


def test_frame_errors(plant, batched):
    q, _ = random_states(plant, 1)
    with pytest.raises(TypeError, match="frame_B must be a Frame"):
        batched.CalcJacobianSpatialVelocity(q, "F0")
    other = build_model()
    with pytest.raises(RuntimeError, match="not part of this MultibodyPlant"):
        batched.CalcJacobianSpatialVelocity(q, other.GetFrameByName("F0"))


def test_construction_errors(plant):
    with pytest.raises(TypeError, match="expected a MultibodyPlant"):
        BatchedPlant("plant")
    unfinalized = MultibodyPlant(0.0)
    with pytest.raises(RuntimeError, match="Finalize"):
        BatchedPlant(unfinalized)
    with pytest.raises(RuntimeError):
        BatchedPlant(plant, build_model().CreateDefaultContext())


def test_forward_dynamics_fails_only_the_states_that_fail():
    """In a group whose forward dynamics fails for some states only (a rod's articulated
    inertia about the first joint is sin²(q2): zero at q2 = 0), those states fail and the
    others get the plant's v̇ to the last bit, with the inputs of each, in any lane."""
    plant = MultibodyPlant(0.0)
    link = plant.AddRigidBody("link", SpatialInertia.Zero())
    rod = plant.AddRigidBody("rod", SpatialInertia(1.0, [0, 0, 0], UnitInertia(1.0, 1.0, 0.0)))
    plant.AddJoint(RevoluteJoint("j1", plant.world_frame(), link.body_frame(), [0, 0, 1]))
    plant.AddJoint(RevoluteJoint("j2", link.body_frame(), rod.body_frame(), [1, 0, 0]))
    plant.Finalize()
    rng = np.random.default_rng(5)
    q = rng.uniform(-1, 1, (11, 2))
    q[[0, 3, 4, 10], 1] = 0.0
    v, tau = rng.normal(size=(11, 2)), rng.normal(size=(11, 2))
    vdot, status = BatchedPlant(plant).CalcForwardDynamics(q, v, tau, return_status=True)
    assert status.failed().tolist() == [0, 3, 4, 10]
    assert np.isnan(vdot[[0, 3, 4, 10]]).all()
    context = plant.CreateDefaultContext()
    for i in (1, 2, 5, 6, 7, 8, 9):
        plant.SetPositions(context, q[i])
        plant.SetVelocities(context, v[i])
        plant.get_applied_generalized_force_input_port().FixValue(context, tau[i])
        np.testing.assert_array_equal(
            vdot[i], plant.EvalTimeDerivatives(context).CopyToVector()[2:]
        )


def test_forward_dynamics_names_the_failing_state():
    """An articulated inertia that is not positive definite (a massless link) fails those
    states only, with the plant's message; the derivatives likewise."""
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("massless", SpatialInertia.Zero())
    plant.AddJoint(RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    plant.Finalize()
    batched = BatchedPlant(plant)
    assert batched.plant() is plant
    zeros = np.zeros((2, 1))
    for method in (batched.CalcForwardDynamics, batched.CalcForwardDynamicsDerivatives):
        *results, status = method(zeros, zeros, return_status=True)
        assert status.failed().tolist() == [0, 1]
        assert re.fullmatch(
            r"state 1: An internal mass matrix associated with the joint that connects body "
            r"world to body massless is not positive-definite\..*moments of inertia.*",
            status.message(1),
        )
        assert all(np.isnan(r).all() for r in results)
        with pytest.raises(RuntimeError, match=r"\(\): state 0: An internal mass matrix"):
            status.raise_if_failed()
