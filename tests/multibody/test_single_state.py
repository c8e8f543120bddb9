"""SingleStatePlant: every result is the plant's own (Context-based) result and BatchedPlant's,
to the last bit; ``out`` is written in full and returned; arguments are checked; a state that
cannot be computed raises, naming why, with NaN outputs."""

import copy
import gc
import re

import numpy as np
import pytest

from mallard.multibody.batch import BatchedPlant
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.single_state import SingleStatePlant
from mallard.multibody.tree import (
    JacobianWrtVariable,
    MultibodyForces,
    RevoluteJoint,
    SpatialInertia,
)

from .plant.plant_models import library
from .test_batch import at_state, build_model, frames, random_states

M = library("mallard")


@pytest.fixture(scope="module")
def plant():
    return build_model()


@pytest.fixture(scope="module")
def context(plant):
    """Parameters other than the defaults (a mass, a damping, a locked joint)."""
    context = plant.CreateDefaultContext()
    plant.GetBodyByName("l2").SetMass(context, 2.5)
    plant.GetJointByName("jrev").SetDamping(context, 0.7)
    plant.GetJointByName("jlast").Lock(context)
    return context


@pytest.fixture(scope="module")
def single(plant, context):
    return SingleStatePlant(plant, context)


@pytest.fixture(scope="module")
def batched(plant, context):
    return BatchedPlant(plant, context)


@pytest.fixture(scope="module")
def states(plant):
    rng = np.random.default_rng(5)
    q, v = random_states(plant, 3, seed=9)
    nv, nu = plant.num_velocities(), plant.num_actuated_dofs()
    return q, v, rng.normal(size=(3, nv)), rng.normal(size=(3, nv)), 4.0 * rng.normal(size=(3, nu))


def _nan_like(a):
    return np.full(np.shape(a), np.nan)


# ---- results ---------------------------------------------------------------------------------
def test_poses_mass_matrix_and_jacobians_are_the_plants(plant, context, single, states):
    q = states[0]
    kV, W = JacobianWrtVariable.kV, plant.world_frame()
    for i in range(len(q)):
        at_state(plant, context, q[i])
        out = _nan_like(np.empty((plant.num_bodies(), 4, 4)))
        X_WB = single.CalcAllBodyPosesInWorld(q[i], out=out)
        assert X_WB is out
        for b in range(plant.num_bodies()):
            body = plant.get_body(M.BodyIndex(b))
            np.testing.assert_array_equal(
                X_WB[b], plant.EvalBodyPoseInWorld(context, body).GetAsMatrix4()
            )
        np.testing.assert_array_equal(single.CalcMassMatrix(q[i]), plant.CalcMassMatrix(context))
        p = np.array([0.1, -0.2, 0.3])
        for frame in frames(plant):
            out = _nan_like(np.empty((6, plant.num_velocities())))
            J = single.CalcJacobianSpatialVelocity(q[i], frame, p, out=out)
            np.testing.assert_array_equal(
                J, plant.CalcJacobianSpatialVelocity(context, kV, frame, p, W, W)
            )
            np.testing.assert_array_equal(
                single.CalcJacobianSpatialVelocity(q[i], frame),
                plant.CalcJacobianSpatialVelocity(context, kV, frame, np.zeros(3), W, W),
            )


def test_inverse_and_forward_dynamics_are_the_plants(plant, context, single, states):
    q, v, vdot, tau, u = states
    nq = plant.num_positions()
    for i in range(len(q)):
        at_state(plant, context, q[i], v[i])
        forces = MultibodyForces(plant)
        plant.CalcForceElementsContribution(context, forces)
        expected = plant.CalcInverseDynamics(context, vdot[i], forces)
        np.testing.assert_array_equal(single.CalcInverseDynamics(q[i], v[i], vdot[i]), expected)
        forces.mutable_generalized_forces()[:] += tau[i]
        out = _nan_like(tau[i])
        assert single.CalcInverseDynamics(q[i], v[i], vdot[i], tau[i], out=out) is out
        np.testing.assert_array_equal(out, plant.CalcInverseDynamics(context, vdot[i], forces))
        inputs = context.Clone()
        plant.get_actuation_input_port().FixValue(inputs, u[i])
        plant.get_applied_generalized_force_input_port().FixValue(inputs, tau[i])
        expected = plant.EvalTimeDerivatives(inputs).CopyToVector()[nq:]
        out = _nan_like(v[i])
        single.CalcForwardDynamics(q[i], v[i], tau[i], u[i], out=out)
        np.testing.assert_array_equal(out, expected)
        plant.get_actuation_input_port().FixValue(inputs, np.zeros_like(u[i]))
        plant.get_applied_generalized_force_input_port().FixValue(inputs, np.zeros_like(v[i]))
        expected = plant.EvalTimeDerivatives(inputs).CopyToVector()[nq:]
        np.testing.assert_array_equal(single.CalcForwardDynamics(q[i], v[i]), expected)


def test_derivatives_are_batched_plants_and_the_plants(plant, context, single, batched, states):
    q, v, vdot, tau, u = states
    inverse = batched.CalcInverseDynamicsDerivatives(q, v, vdot)
    forward = batched.CalcForwardDynamicsDerivatives(q, v, tau, u)
    for i in range(len(q)):
        outs = tuple(_nan_like(a[i]) for a in inverse)
        ours = single.CalcInverseDynamicsDerivatives(q[i], v[i], vdot[i], out=outs)
        assert all(a is b for a, b in zip(ours, outs, strict=True))
        at_state(plant, context, q[i], v[i])
        expected = plant.CalcInverseDynamicsDerivatives(context, vdot[i])
        for a, b, c in zip(ours, inverse, expected, strict=True):
            np.testing.assert_array_equal(a, b[i])
            np.testing.assert_allclose(a, c, rtol=1e-13, atol=1e-12)
        outs = tuple(_nan_like(a[i]) for a in forward)
        ours = single.CalcForwardDynamicsDerivatives(q[i], v[i], tau[i], u[i], out=outs)
        for a, b in zip(ours, forward, strict=True):
            np.testing.assert_array_equal(a, b[i])
        for a, b in zip(single.CalcForwardDynamicsDerivatives(q[i], v[i]),
                        batched.CalcForwardDynamicsDerivatives(q[i:i + 1], v[i:i + 1]),
                        strict=True):  # fmt: skip
            np.testing.assert_array_equal(a, b[0])


def test_a_batch_of_one_state_is_the_single_state_result(plant, single, batched, states):
    q, v, vdot, tau, u = states
    frame = plant.GetFrameByName("F_tool")
    pairs = (
        (single.CalcAllBodyPosesInWorld(q[0]), batched.CalcAllBodyPosesInWorld(q[:1])),
        (single.CalcMassMatrix(q[0]), batched.CalcMassMatrix(q[:1])),
        (single.CalcInverseDynamics(q[0], v[0], vdot[0], tau[0]),
         batched.CalcInverseDynamics(q[:1], v[:1], vdot[:1], tau[:1])),
        (single.CalcForwardDynamics(q[0], v[0], None, u[0]),
         batched.CalcForwardDynamics(q[:1], v[:1], None, u[:1])),
        (single.CalcJacobianSpatialVelocity(q[0], frame, [1, 2, 3]),
         batched.CalcJacobianSpatialVelocity(q[:1], frame, [1, 2, 3])),
    )  # fmt: skip
    for a, b in pairs:
        assert b.shape == (1, *a.shape)
        np.testing.assert_array_equal(a, b[0])


def test_lists_and_integers_are_accepted(plant, single, states):
    q = states[0][0]
    np.testing.assert_array_equal(single.CalcMassMatrix(q.tolist()), single.CalcMassMatrix(q))
    zeros = plant.GetDefaultPositions().astype(int)
    assert single.CalcMassMatrix(zeros).dtype == np.float64
    strided = np.repeat(q, 2)[::2]  # (not contiguous: copied)
    np.testing.assert_array_equal(single.CalcMassMatrix(strided), single.CalcMassMatrix(q))
    read_only = q.copy()
    read_only.flags.writeable = False
    np.testing.assert_array_equal(single.CalcMassMatrix(read_only), single.CalcMassMatrix(q))
    unaligned = _unaligned(q.shape)
    unaligned[:] = q
    np.testing.assert_array_equal(single.CalcMassMatrix(unaligned), single.CalcMassMatrix(q))
    v = states[1][0]
    np.testing.assert_array_equal(
        single.CalcInverseDynamics(q, v.tolist(), read_only[: len(v)], out=np.empty(len(v))),
        single.CalcInverseDynamics(q, v, q[: len(v)].copy()),
    )
    frame = plant.GetFrameByName("F_tool")
    for p in (None, [0.0, 0.1, 0.2]):  # (the frame's origin, a point: two kernels)
        np.testing.assert_array_equal(
            single.CalcJacobianSpatialVelocity(q.tolist(), frame, p),
            single.CalcJacobianSpatialVelocity(q, frame, None if p is None else np.array(p)),
        )


def _unaligned(shape):
    """A writable float64 array of ``shape`` whose data is not aligned."""
    size = int(np.prod(shape))
    return np.frombuffer(bytearray(8 * size + 1), dtype=np.float64, offset=1, count=size).reshape(
        shape
    )


def test_every_kernel_refuses_arguments_of_wrong_shapes(plant, single, states):
    """Each kernel returns WRONG_SHAPES for an argument (its type right) one element too
    long, or a bad mobod, writing nothing (the methods then raise naming the argument)."""
    from mallard.multibody._kernels.single import WRONG_SHAPES, Held, frame_record

    q, v, vdot, tau, u = (a[0] for a in states)
    frame = plant.GetFrameByName("F_tool")
    X_BF = single._batched._frame(frame)[1]
    frame_held = single._frame_held(frame)
    bad_frames = (  # (a bad mobod; no frame)
        Held(single._mi, single._mf, single._row, frame_record(plant.num_bodies() + 1, X_BF)),
        single._held,
    )
    nv = plant.num_velocities()
    calls = {
        "_body_poses": (q, np.zeros(single._poses_shape)),
        "_mass_matrix": (q, np.zeros((nv, nv))),
        "_inverse_dynamics": (q, v, vdot, tau, np.zeros(nv)),
        "_forward_dynamics": (q, v, tau, u, np.zeros(nv)),
        "_point_jacobian": (q, np.full(3, 0.1), np.zeros((6, nv))),
        "_frame_jacobian": (q, np.zeros((6, nv))),
        "_inverse_dynamics_derivatives": (q, v, vdot)
        + tuple(np.zeros(shape) for shape in single._inverse_shapes),
        "_forward_dynamics_derivatives": (q, v, tau, u)
        + tuple(np.zeros(shape) for shape in single._forward_shapes),
    }
    for attribute, args in calls.items():
        outputs = [a for a in args if isinstance(a, np.ndarray) and not a.any()]
        held = frame_held if attribute.endswith("_jacobian") else single._h
        assert getattr(single, attribute)(held, *args) == 0  # (binds it)
        kernel = getattr(single, attribute)
        wrongs = []
        for i, a in enumerate(args):
            wrong = np.zeros((a.shape[0] + 1, *a.shape[1:]))
            wrongs.append((held, (*args[:i], wrong, *args[i + 1 :])))
        if held is frame_held:
            wrongs += [(bad.address, args) for bad in bad_frames]
        for i, (bad_held, bad) in enumerate(wrongs):
            for output in outputs:
                output[...] = 7.0
            assert kernel(bad_held, *bad) == WRONG_SHAPES, (attribute, i)
            assert all((output == 7.0).all() for output in outputs), (attribute, i)


# ---- errors ----------------------------------------------------------------------------------
def test_argument_errors(plant, single, states):
    q, v = states[0][0], states[1][0]
    nq, nv = plant.num_positions(), plant.num_velocities()
    with pytest.raises(ValueError, match=rf"CalcMassMatrix\(\): q must have shape \({nq},\)"):
        single.CalcMassMatrix(q[None])
    with pytest.raises(ValueError, match=rf"v must have shape \({nv},\), got \({nv - 1},\)"):
        single.CalcInverseDynamics(q, v[:-1], v)
    with pytest.raises(ValueError, match="actuation must have shape"):
        single.CalcForwardDynamics(q, v, None, np.zeros(2))
    with pytest.raises(ValueError, match="p_BoBp_B must have shape"):
        single.CalcJacobianSpatialVelocity(q, plant.world_frame(), np.zeros(4))
    for p in (None, np.zeros(3)):  # (the frame's origin, a point: two kernels)
        with pytest.raises(ValueError, match=r"CalcJacobianSpatialVelocity\(\): q must have"):
            single.CalcJacobianSpatialVelocity(q[:-1], plant.world_frame(), p)
        with pytest.raises(ValueError, match=r"CalcJacobianSpatialVelocity\(\): out must be"):
            single.CalcJacobianSpatialVelocity(q, plant.world_frame(), p, out=np.zeros((6, nv + 1)))
    with pytest.raises(TypeError, match="must hold float64 numbers"):
        single.CalcMassMatrix(np.full(nq, "a"))
    for not_a_frame in ("F0", [1], None):  # (hashable or not)
        with pytest.raises(TypeError, match="frame_B must be a Frame"):
            single.CalcJacobianSpatialVelocity(q, not_a_frame)
    bad_outs = (
        np.zeros((nv, nv + 1)),
        np.zeros((nv, nv), dtype=np.float32),
        np.zeros((nv, 2 * nv))[:, ::2],
        np.zeros((nv, nv)).T.copy().T[:, :],  # (Fortran order)
        [[0.0] * nv] * nv,
    )
    for out in bad_outs:
        with pytest.raises(ValueError, match=r"CalcMassMatrix\(\): out must be a writable"):
            single.CalcMassMatrix(q, out=out)
    readonly = np.zeros((nv, nv))
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="out must be a writable"):
        single.CalcMassMatrix(q, out=readonly)
    with pytest.raises(ValueError, match="out must be a tuple of 3 arrays"):
        single.CalcInverseDynamicsDerivatives(q, v, v, out=np.zeros((nv, nq)))
    with pytest.raises(ValueError, match=r"out\[1\] must be a writable"):
        single.CalcInverseDynamicsDerivatives(
            q, v, v, out=(np.zeros((nv, nq)), np.zeros(nv), np.zeros((nv, nv)))
        )


def test_a_state_that_cannot_be_computed_raises_with_nan_outputs(plant, single, states):
    q, v = states[0][0].copy(), states[1][0]
    joint = plant.GetJointByName("jscrew")
    q[joint.position_start()] = np.nan
    out = np.zeros((plant.num_velocities(),) * 2)
    message = rf"CalcMassMatrix\(\): q\[{joint.position_start()}\] = nan is not finite "
    with pytest.raises(ValueError, match=message + r"\(position 0 of joint 'jscrew'\)"):
        single.CalcMassMatrix(q, out=out)
    assert np.isnan(out).all()
    frame, J = plant.GetFrameByName("F_tool"), np.zeros((6, plant.num_velocities()))
    for p in (None, np.zeros(3)):  # (the frame's origin, a point: two kernels)
        J[...] = 0.0
        with pytest.raises(ValueError, match=message.replace("CalcMassMatrix", "CalcJacobian\\w*")):
            single.CalcJacobianSpatialVelocity(q, frame, p, out=J)
        assert np.isnan(J).all()
    with pytest.raises(ValueError, match=r"p_BoBp_B\[1\] = nan is not finite"):
        single.CalcJacobianSpatialVelocity(states[0][0], frame, [0.0, np.nan, 0.0])
    bad_v = v.copy()
    bad_v[2] = np.inf
    with pytest.raises(ValueError, match=r"CalcInverseDynamics\(\): known_vdot\[2\] = inf"):
        single.CalcInverseDynamics(states[0][0], v, bad_v)
    zero = states[0][0].copy()
    joints = [plant.get_joint(M.JointIndex(j)) for j in range(plant.num_joints())]
    free = next(j for j in joints if j.type_name() == "quaternion_floating")
    zero[free.position_start() : free.position_start() + 4] = 0.0
    with pytest.raises(RuntimeError, match="All the elements in a quaternion are zero"):
        single.CalcAllBodyPosesInWorld(zero)


def test_optional_inputs_none_or_given(plant, single, states):
    """An optional input given as None is zero (its own binding of the kernel), whether the
    other is given or not; a bad value in one given is named."""
    q, v, _, tau, u = states
    for i in range(2):
        zeros_u = np.zeros_like(u[i])
        np.testing.assert_array_equal(
            single.CalcForwardDynamics(q[i], v[i], tau[i]),
            single.CalcForwardDynamics(q[i], v[i], tau[i], zeros_u),
        )
        np.testing.assert_array_equal(
            single.CalcForwardDynamics(q[i], v[i], None, u[i]),
            single.CalcForwardDynamics(q[i], v[i], np.zeros_like(v[i]), u[i]),
        )
        np.testing.assert_array_equal(
            single.CalcForwardDynamics(q[i], v[i]),
            single.CalcForwardDynamics(q[i], v[i], np.zeros_like(v[i]), zeros_u),
        )
        for a, b in zip(
            single.CalcForwardDynamicsDerivatives(q[i], v[i], tau[i]),
            single.CalcForwardDynamicsDerivatives(q[i], v[i], tau[i], zeros_u),
            strict=True,
        ):
            np.testing.assert_array_equal(a, b)
    bad = tau[0].copy()
    bad[1] = np.nan
    with pytest.raises(ValueError, match=r"CalcInverseDynamics\(\): tau_applied\[1\] = nan"):
        single.CalcInverseDynamics(q[0], v[0], v[0], bad)
    bad_u = u[0].copy()
    bad_u[0] = np.inf
    with pytest.raises(ValueError, match=r"CalcForwardDynamics\(\): actuation\[0\] = inf"):
        single.CalcForwardDynamics(q[0], v[0], None, bad_u)


def test_an_articulated_inertia_not_positive_definite_raises_the_plants_error():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("massless", SpatialInertia.Zero())
    plant.AddJoint(RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    plant.Finalize()
    single = SingleStatePlant(plant)
    assert single.plant() is plant
    zero = np.zeros(1)
    out = np.zeros(1)
    message = re.escape("An internal mass matrix associated with the joint that connects body ")
    with pytest.raises(RuntimeError, match=message):
        single.CalcForwardDynamics(zero, zero, out=out)
    assert np.isnan(out).all()
    with pytest.raises(RuntimeError, match=message):
        single.CalcForwardDynamicsDerivatives(zero, zero)


def test_a_deep_copy_has_its_own_arrays(plant, context, states):
    """A deep copy computes on arrays of its own (the kernels take their address), and so
    does a BatchedPlant's, which binds its single-state kernels anew."""
    original = SingleStatePlant(plant, context)
    q = states[0][0]
    expected = original.CalcMassMatrix(q)
    copied = copy.deepcopy(original)
    assert copied._h != original._h and copied._row is not original._row
    del original
    gc.collect()
    np.testing.assert_array_equal(copied.CalcMassMatrix(q), expected)
    batched = BatchedPlant(plant, context)
    batched.CalcMassMatrix(q[None])  # (binds the single-state kernel to its arrays)
    copied = copy.deepcopy(batched)
    assert copied._single is None and copied._mass_matrix_one is None
    del batched
    gc.collect()
    np.testing.assert_array_equal(copied.CalcMassMatrix(q[None])[0], expected)


def test_the_held_arrays_stay_where_their_addresses_say(plant, context, states):
    """The kernels' first argument is the address of the arrays mi, mf and row (kernels.single
    .Held): nothing can move them while a SingleStatePlant (or a shallow copy, which shares
    them) lives. The Held block references them, so they outlive the original; numpy refuses
    to reallocate (``resize``) an array that is referenced or a view; the plant's engine and
    the SingleStatePlant set them once."""
    original = SingleStatePlant(plant, context)
    q = states[0][0]
    expected = original.CalcMassMatrix(q)
    J = original.CalcJacobianSpatialVelocity(q, plant.GetFrameByName("F_tool"))
    held, (frame_held,) = original._held, original._frame_helds  # (a frame's: its record too)
    assert frame_held.arrays[:3] == held.arrays and len(frame_held.arrays) == 4
    addresses = [a.ctypes.data for a in frame_held.arrays]
    assert held.arrays[0] is original._mi and held.arrays[2] is original._row
    for a in frame_held.arrays:
        with pytest.raises(ValueError, match="cannot resize"):
            a.resize(a.size + 1)
    shallow = copy.copy(original)
    del original
    gc.collect()
    np.testing.assert_array_equal(shallow.CalcMassMatrix(q), expected)
    np.testing.assert_array_equal(
        shallow.CalcJacobianSpatialVelocity(q, plant.GetFrameByName("F_tool")), J
    )
    assert [a.ctypes.data for a in frame_held.arrays] == addresses
    assert list(frame_held.block[0:8:2]) == addresses
    assert list(held.block[0:8:2]) == [*addresses[:3], 0]  # (no frame)


def test_construction_errors(plant):
    with pytest.raises(TypeError, match="expected a MultibodyPlant"):
        SingleStatePlant("plant")
    with pytest.raises(TypeError, match="not float64"):
        SingleStatePlant(plant.ToAutoDiffXd())


def test_a_batch_of_one_bad_state_gets_its_status(plant, batched, states):
    """A batch of one state (SingleStatePlant's kernel) reports as any batch: NaN results, a
    status naming the input; the derivatives' actuation columns as in a larger batch."""
    q, v, vdot, tau, u = (a[:1].copy() for a in states)
    q[0, 2] = np.nan
    tau_out, status = batched.CalcInverseDynamics(q, v, vdot, return_status=True)
    assert status.failed().tolist() == [0] and np.isnan(tau_out).all()
    assert re.search(r"q\[0, 2\] = nan is not finite", status.message(0))
    q, v, tau, u = states[0], states[1], states[3], states[4]
    three = batched.CalcForwardDynamicsDerivatives(q, v, tau, u)
    one = batched.CalcForwardDynamicsDerivatives(q[1:2], v[1:2], tau[1:2], u[1:2])
    for a, b in zip(three, one, strict=True):
        np.testing.assert_array_equal(a[1:2], b)


def test_a_batch_of_one_state_again_is_the_single_state_result(plant, single, batched, states):
    """Later calls of a batch of one state (the kernel bound: BatchedPlant._one's fast path)
    give the single-state results to the bit, and bad arguments the errors of any batch."""
    q, v, vdot, tau, u = (a[:1] for a in states)
    frame = plant.GetFrameByName("F_tool")
    calls = (
        (lambda: single.CalcAllBodyPosesInWorld(q[0]),
         lambda: batched.CalcAllBodyPosesInWorld(q)),
        (lambda: single.CalcMassMatrix(q[0]), lambda: batched.CalcMassMatrix(q)),
        (lambda: single.CalcInverseDynamics(q[0], v[0], vdot[0]),
         lambda: batched.CalcInverseDynamics(q, v, vdot)),
        (lambda: single.CalcInverseDynamics(q[0], v[0], vdot[0], tau[0]),
         lambda: batched.CalcInverseDynamics(q, v, vdot, tau)),
        (lambda: single.CalcForwardDynamics(q[0], v[0]), lambda: batched.CalcForwardDynamics(q, v)),
        (lambda: single.CalcForwardDynamics(q[0], v[0], tau[0], u[0]),
         lambda: batched.CalcForwardDynamics(q, v, tau, u)),
        (lambda: single.CalcJacobianSpatialVelocity(q[0], frame),
         lambda: batched.CalcJacobianSpatialVelocity(q, frame)),
    )  # fmt: skip
    for alone, batch in calls:
        expected = alone()
        for _ in range(2):
            result = batch()
            assert result.shape == (1, *expected.shape)
            np.testing.assert_array_equal(result[0], expected)
    with pytest.raises(ValueError, match=r"q must have shape \(N, "):
        batched.CalcMassMatrix(q[:, :-1])
    with pytest.raises(ValueError, match=r"v must have shape \(1, "):
        batched.CalcForwardDynamics(q, v[:, :-1])
    with pytest.raises(TypeError, match="frame_B"):
        batched.CalcJacobianSpatialVelocity(q, "F_tool")
    with pytest.raises(ValueError, match=r"q must have shape \(N, "):  # (q before frame_B)
        batched.CalcJacobianSpatialVelocity(q[:, :-1], "F_tool")


def test_a_batch_of_one_computed_state_has_its_own_status(plant, batched, states):
    """A computed state alone gets a status of its own, unchanged by later calls; a failed
    one, without return_status, the warning of any batch."""
    q = states[0][:1]
    _, status = batched.CalcMassMatrix(q, return_status=True)
    assert status.ok.tolist() == [True] and status.messages() == {}
    bad = q.copy()
    bad[0, 2] = np.nan
    with pytest.warns(RuntimeWarning, match=r"1 of 1 states failed.*q\[0, 2\] = nan"):
        M = batched.CalcMassMatrix(bad)
    assert np.isnan(M).all()
    _, failed = batched.CalcMassMatrix(bad, return_status=True)
    assert status.ok.tolist() == [True] and failed.ok.tolist() == [False]
    assert batched.CalcMassMatrix(q, return_status=True)[1].ok.tolist() == [True]
