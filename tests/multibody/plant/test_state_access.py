"""MultibodyPlant state access: positions and velocities in a Context (whole plant, per model
instance, in a State), array helpers, default state and positions, the free-body API, body
locks and mass parameters, and cache invalidation of the body kinematics by every route
that changes q, v or a parameter."""

import math
import re
import warnings

import numpy as np
import pytest

from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.multibody.math import SpatialVelocity
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    FixedOffsetFrame,
    JacobianWrtVariable,
    ModelInstanceIndex,
    QuaternionFloatingJoint,
    SpatialInertia,
    default_model_instance,
)
from tests.multibody.plant.plant_models import (
    all_joints,
    box,
    instances_forest,
    library,
    revolute,
    two_instances,
)

M = library("mallard")
MI = ModelInstanceIndex
NQ, NV = 17, 15  # two_instances
Q = np.arange(1.0, NQ + 1)
V = np.arange(101.0, 101 + NV)


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


def mismatch(plant_name="::_"):
    return (
        "A function call on a drake::multibody::MultibodyPlant<double> system named "
        f"'{plant_name}' was passed the Context of a system named '::_' instead of the "
        "appropriate subsystem Context.\nFor more information about Context-System "
        "mismatches, see https://drake.mit.edu/troubleshooting.html"
        "#framework-context-system-mismatch"
    )


@pytest.fixture(params=[0.0, 0.01], ids=["continuous", "discrete"])
def setup(request):
    plant = two_instances(M, time_step=request.param)
    return plant, plant.CreateDefaultContext()


def foreign_context():
    return two_instances(M).CreateDefaultContext()


# ---- default state ------------------------------------------------------------------------


def test_default_state_of_every_joint_type():
    plant = all_joints(M)
    context = plant.CreateDefaultContext()
    q = plant.GetPositions(context)
    expected = np.zeros(31)
    expected[[17, 24]] = 1.0  # the quaternions' w of "quatf" and "free"
    np.testing.assert_array_equal(q, expected)
    np.testing.assert_array_equal(plant.GetVelocities(context), np.zeros(29))
    np.testing.assert_array_equal(plant.GetDefaultPositions(), expected)


def test_default_state(setup):
    plant, context = setup
    x = plant.GetPositionsAndVelocities(context)
    expected = np.zeros(NQ + NV)
    expected[[3, 10]] = 1.0
    np.testing.assert_array_equal(x, expected)
    assert context.get_time() == 0.0


def test_joint_defaults_reach_new_contexts():
    plant = two_instances(M, finalize=False)
    plant.GetJointByName("jb").set_default_angle(0.7)
    plant.GetJointByName("j", MI(3)).set_default_translation(0.2)
    plant.Finalize()
    q = plant.GetPositions(plant.CreateDefaultContext())
    assert (q[1], q[2]) == (0.7, 0.2)


# ---- getters and setters ------------------------------------------------------------------


def test_set_and_get(setup):
    plant, context = setup
    plant.SetPositions(context, Q)
    plant.SetVelocities(context, V)
    np.testing.assert_array_equal(plant.GetPositions(context), Q)
    np.testing.assert_array_equal(plant.GetVelocities(context), V)
    np.testing.assert_array_equal(plant.GetPositionsAndVelocities(context), np.r_[Q, V])
    # Per model instance, in increasing q (v) order: m1 has j@0, jb@1; m2 j@2, c@3..9;
    # the default instance d@10..16.
    np.testing.assert_array_equal(plant.GetPositions(context, MI(2)), Q[[0, 1]])
    np.testing.assert_array_equal(plant.GetPositions(context, MI(3)), Q[2:10])
    np.testing.assert_array_equal(plant.GetVelocities(context, MI(3)), V[2:9])
    np.testing.assert_array_equal(plant.GetVelocities(context, default_model_instance()), V[9:])
    np.testing.assert_array_equal(
        plant.GetPositionsAndVelocities(context, MI(2)), np.r_[Q[[0, 1]], V[[0, 1]]]
    )
    assert plant.GetPositions(context, MI(0)).shape == (0,)
    plant.SetPositionsAndVelocities(context, np.r_[V, Q][: NQ + NV])
    np.testing.assert_array_equal(plant.GetPositionsAndVelocities(context), np.r_[V, Q][:32])
    # Returned arrays are copies.
    plant.GetPositions(context)[0] = -5.0
    plant.GetPositions(context, MI(2))[0] = -5.0
    plant.GetPositionsAndVelocities(context)[0] = -5.0
    assert plant.GetPositions(context)[0] == V[0]


def test_set_from_strided_readonly_and_reversed_arrays(setup):
    """Whatever the layout of the array given, the values set are its elements in order."""
    plant, context = setup
    strided = np.repeat(Q, 2)[::2]  # (a view with stride 16)
    plant.SetPositions(context, strided)
    np.testing.assert_array_equal(plant.GetPositions(context), Q)
    plant.SetVelocities(context, V[::-1].copy()[::-1])  # negative stride
    np.testing.assert_array_equal(plant.GetVelocities(context), V)
    readonly = np.r_[V, Q][: NQ + NV]
    readonly.flags.writeable = False
    plant.SetPositionsAndVelocities(context, readonly)
    np.testing.assert_array_equal(plant.GetPositionsAndVelocities(context), readonly)
    plant.SetPositions(context, np.asfortranarray(np.c_[Q, Q])[:, 1])
    np.testing.assert_array_equal(plant.GetPositions(context), Q)


def test_set_per_model_instance(setup):
    plant, context = setup
    plant.SetPositions(context, MI(3), np.arange(8.0))
    plant.SetVelocities(context, MI(3), np.arange(7.0) + 10)
    plant.SetPositionsAndVelocities(context, MI(2), [-1, -2, -3, -4])
    x = plant.GetPositionsAndVelocities(context)
    np.testing.assert_array_equal(x[:10], [-1, -2, 0, 1, 2, 3, 4, 5, 6, 7])
    np.testing.assert_array_equal(x[NQ : NQ + 9], [-3, -4, 10, 11, 12, 13, 14, 15, 16])
    plant.SetPositions(context, model_instance=MI(2), q=[5.0, 6.0])
    plant.SetVelocities(context=context, v=V)
    np.testing.assert_array_equal(plant.GetPositions(context)[:2], [5, 6])


def test_set_non_contiguous_instance():
    plant = instances_forest(M)  # m2 has jg@q1, ja@q2, jc@q3
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, MI(3), [7.0, 8.0, 9.0])
    np.testing.assert_array_equal(plant.GetPositions(context)[:4], [0, 7, 8, 9])
    np.testing.assert_array_equal(plant.GetPositions(context, MI(3)), [7, 8, 9])


def test_set_in_a_state(setup):
    """The (context, state, [model_instance,] value) overloads of C++ (not bound by
    pydrake): they write into ``state``, which may be another context's."""
    plant, context = setup
    plant.SetPositions(context, context.get_mutable_state(), MI(3), np.arange(8.0))
    plant.SetVelocities(context, context.get_mutable_state(), MI(3), np.arange(7.0))
    np.testing.assert_array_equal(plant.GetPositions(context, MI(3)), np.arange(8.0))
    np.testing.assert_array_equal(plant.GetVelocities(context, MI(3)), np.arange(7.0))
    other = context.Clone()
    plant.SetPositions(context, other.get_mutable_state(), MI(2), [1.0, 2.0])
    np.testing.assert_array_equal(plant.GetPositions(other, MI(2)), [1, 2])
    np.testing.assert_array_equal(plant.GetPositions(context, MI(2)), [0, 0])
    with pytest.raises(TypeError):
        plant.SetPositions(context, "state", MI(2), [1.0, 2.0])


@pytest.mark.parametrize(
    "call, size",
    [
        (lambda p, c: p.SetPositions(c, np.zeros(3)), NQ),
        (lambda p, c: p.SetVelocities(c, np.zeros(3)), NV),
        (lambda p, c: p.SetPositionsAndVelocities(c, np.zeros(3)), NQ + NV),
        (lambda p, c: p.SetPositions(c, MI(2), np.zeros(3)), 2),
        (lambda p, c: p.SetVelocities(c, MI(3), np.zeros(3)), 7),
        (lambda p, c: p.SetPositionsAndVelocities(c, MI(2), np.zeros(3)), 4),
        (lambda p, c: p.SetPositions(c, c.get_mutable_state(), MI(2), np.zeros(3)), 2),
        (lambda p, c: p.SetPositions(c, np.zeros((NQ, 2))), NQ),
    ],
)
def test_set_wrong_size(setup, call, size):
    # pydrake fails a DRAKE_DEMAND (SystemExit); mallard raises a RuntimeError.
    plant, context = setup
    with pytest.raises(RuntimeError, match=f"must have size {size}, got an array of shape"):
        call(plant, context)


@pytest.mark.parametrize(
    "call, what",
    [
        (lambda p, c: p.SetPositions(c, np.full(NQ, np.nan)), "q"),
        (lambda p, c: p.SetVelocities(c, np.r_[np.inf, np.zeros(NV - 1)]), "v"),
        (lambda p, c: p.SetPositionsAndVelocities(c, np.full(NQ + NV, np.nan)), "q_v"),
        (lambda p, c: p.SetPositions(c, MI(2), [0.0, np.nan]), "q"),
    ],
)
def test_set_non_finite(setup, call, what):
    # pydrake fails its AllFinite DRAKE_DEMAND (SystemExit); mallard raises a RuntimeError.
    plant, context = setup
    x = plant.GetPositionsAndVelocities(context)
    with pytest.raises(RuntimeError, match=f"{what} must be finite"):
        call(plant, context)
    np.testing.assert_array_equal(plant.GetPositionsAndVelocities(context), x)


@pytest.mark.parametrize(
    "call",
    [
        lambda p, c: p.GetPositions(c),
        lambda p, c: p.GetVelocities(c),
        lambda p, c: p.GetPositionsAndVelocities(c),
        lambda p, c: p.GetPositions(c, MI(2)),
        lambda p, c: p.SetPositions(c, np.zeros(3)),
        lambda p, c: p.SetVelocities(c, MI(2), np.zeros(2)),
        lambda p, c: p.SetPositionsAndVelocities(c, np.zeros(3)),
        lambda p, c: p.SetDefaultState(c, c.get_mutable_state()),
        lambda p, c: p.GetFreeBodyPose(c, p.GetBodyByName("d")),
        lambda p, c: p.EvalBodyPoseInWorld(c, p.GetBodyByName("d")),
        lambda p, c: p.GetBodyByName("d").Lock(c),
    ],
)
def test_foreign_context(call):
    plant = two_instances(M)
    with raises(RuntimeError, mismatch()):
        call(plant, foreign_context())
    plant.set_name("myplant")
    with raises(RuntimeError, mismatch("::myplant")):
        call(plant, foreign_context())


def test_not_a_context(setup):
    plant, _ = setup
    with pytest.raises(TypeError, match="expected a Context"):
        plant.GetPositions(None)
    with pytest.raises(TypeError):
        plant.SetPositions(None, Q)


@pytest.mark.parametrize(
    "call",
    [
        lambda p, c: p.GetPositions(c, MI(9)),
        lambda p, c: p.GetVelocities(c, MI(9)),
        lambda p, c: p.GetPositionsAndVelocities(c, MI(9)),
        lambda p, c: p.SetPositions(c, MI(9), []),
        lambda p, c: p.SetVelocities(c, MI(9), []),
        lambda p, c: p.SetPositionsAndVelocities(c, MI(9), []),
        lambda p, c: p.GetDefaultPositions(MI(9)),
        lambda p, c: p.SetDefaultPositions(MI(9), []),
        lambda p, c: p.GetPositionsFromArray(MI(9), np.zeros(NQ)),
        lambda p, c: p.SetVelocitiesInArray(MI(9), [], np.zeros(NV)),
    ],
)
def test_invalid_model_instance(setup, call):
    plant, context = setup
    message = "The given ModelInstanceIndex(9) is out of bounds (must be less than 4)"
    with raises(RuntimeError, message):
        call(plant, context)


def test_pre_finalize():
    plant = two_instances(M, finalize=False)
    for method, call in [
        ("GetPositions", lambda: plant.GetPositions(foreign_context())),
        ("SetPositions", lambda: plant.SetPositions(foreign_context(), Q)),
        ("SetDefaultState", lambda: plant.SetDefaultState(None, None)),
        ("GetDefaultPositions", lambda: plant.GetDefaultPositions()),
        ("SetDefaultPositions", lambda: plant.SetDefaultPositions(Q)),
        ("num_positions", lambda: plant.GetPositionsFromArray(MI(2), Q)),
        ("num_positions", lambda: plant.SetPositionsInArray(MI(2), [1, 2], np.zeros(NQ))),
        ("num_actuated_dofs", lambda: plant.GetActuationFromArray(MI(2), np.zeros(3))),
    ]:
        message = (
            f"Pre-finalize calls to '{method}()' are not allowed; you must call Finalize() first."
        )
        with raises(RuntimeError, message):
            call()


# ---- arrays -------------------------------------------------------------------------------


def test_from_and_in_arrays():
    plant = two_instances(M)
    q, v, u = np.arange(17.0), np.arange(15.0), np.array([10.0, 11.0, 12.0])
    expected = {  # model instance: (q slots, v slots, u slots)
        0: ([], [], []),
        1: (list(range(10, 17)), list(range(9, 15)), []),
        2: ([0, 1], [0, 1], [0, 2]),
        3: (list(range(2, 10)), list(range(2, 9)), [1]),
    }
    for mi, (qs, vs, us) in expected.items():
        np.testing.assert_array_equal(plant.GetPositionsFromArray(MI(mi), q), q[qs])
        np.testing.assert_array_equal(plant.GetVelocitiesFromArray(MI(mi), v), v[vs])
        np.testing.assert_array_equal(plant.GetActuationFromArray(MI(mi), u), u[us])
        for setter, full, slots in [
            (plant.SetPositionsInArray, 17, qs),
            (plant.SetVelocitiesInArray, 15, vs),
            (plant.SetActuationInArray, 3, us),
        ]:
            out = np.zeros(full)
            setter(MI(mi), -np.arange(1.0, 1 + len(slots)), out)
            want = np.zeros(full)
            want[slots] = -np.arange(1.0, 1 + len(slots))
            np.testing.assert_array_equal(out, want)
    column = np.arange(17.0).reshape(17, 1)
    np.testing.assert_array_equal(plant.GetPositionsFromArray(MI(2), column), [0, 1])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda p: p.GetPositionsFromArray(MI(2), np.zeros(3)), "Passed in array is not"),
        (lambda p: p.GetVelocitiesFromArray(MI(2), np.zeros(17)), "Passed in array is not"),
        (lambda p: p.GetActuationFromArray(MI(2), np.zeros(2)), "Passed in array is not"),
        (lambda p: p.SetPositionsInArray(MI(2), np.zeros(3), np.zeros(17)), "Passed in array(s)"),
        (lambda p: p.SetPositionsInArray(MI(2), np.zeros(2), np.zeros(3)), "Passed in array(s)"),
        (lambda p: p.SetVelocitiesInArray(MI(3), np.zeros(8), np.zeros(15)), "Passed in array(s)"),
        (lambda p: p.SetVelocitiesInArray(MI(2), np.zeros(2), np.zeros(17)), "Passed in array(s)"),
        (lambda p: p.SetActuationInArray(MI(2), np.zeros(1), np.zeros(3)), "Passed in array(s)"),
        (lambda p: p.SetActuationInArray(MI(2), np.zeros(2), np.zeros(2)), "Passed in array(s)"),
    ],
)
def test_array_sizes(call, message):
    with pytest.raises(RuntimeError, match="^" + re.escape(message)):
        call(two_instances(M))


def test_in_array_needs_a_writeable_array():
    plant = two_instances(M)
    for out in (None, [0.0] * 17, np.zeros(17)[::1].view()):
        if isinstance(out, np.ndarray):
            out.flags.writeable = False
        with pytest.raises(TypeError, match="writeable numpy array"):
            plant.SetPositionsInArray(MI(2), [1.0, 2.0], out)


# ---- defaults -----------------------------------------------------------------------------


def test_default_positions():
    plant = two_instances(M)
    np.testing.assert_array_equal(plant.GetDefaultPositions(MI(2)), [0, 0])
    np.testing.assert_array_equal(plant.GetDefaultPositions(MI(3)), [0, 1, 0, 0, 0, 0, 0, 0])
    plant.SetDefaultPositions(Q)
    np.testing.assert_array_equal(plant.GetDefaultPositions(), Q)
    # Written as given (no quaternion normalization), and used by new contexts.
    np.testing.assert_array_equal(plant.GetJointByName("c").default_positions(), Q[3:10])
    np.testing.assert_array_equal(plant.GetPositions(plant.CreateDefaultContext()), Q)
    plant.SetDefaultPositions(MI(2), [7.0, 8.0])
    plant.SetDefaultPositions(model_instance=MI(3), q_instance=np.zeros(8))
    np.testing.assert_array_equal(plant.GetDefaultPositions()[:10], [7, 8] + [0] * 8)
    plant.SetDefaultPositions(q=np.ones(NQ))
    np.testing.assert_array_equal(plant.GetDefaultPositions(), np.ones(NQ))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda p: p.SetDefaultPositions(np.zeros(3)), "q must have size 17"),
        (lambda p: p.SetDefaultPositions(MI(2), np.zeros(3)), "q_instance must have size 2"),
        (lambda p: p.SetDefaultPositions(np.full(NQ, np.nan)), "must be finite"),
        (lambda p: p.SetDefaultPositions(MI(2), [np.inf, 0.0]), "must be finite"),
    ],
)
def test_default_positions_errors(call, message):
    plant = two_instances(M)
    with pytest.raises(RuntimeError, match=message):  # pydrake: SystemExit
        call(plant)
    np.testing.assert_array_equal(plant.GetDefaultPositions(MI(2)), [0, 0])


def test_set_default_state(setup):
    plant, context = setup
    plant.SetPositionsAndVelocities(context, np.ones(NQ + NV))
    plant.SetDefaultState(context, context.get_mutable_state())
    np.testing.assert_array_equal(
        plant.GetPositionsAndVelocities(context),
        plant.GetPositionsAndVelocities(plant.CreateDefaultContext()),
    )
    plant.SetPositions(context, Q)
    other = context.Clone()
    plant.SetDefaultState(context, other.get_mutable_state())  # only ``state`` changes
    np.testing.assert_array_equal(plant.GetPositions(context), Q)
    assert plant.GetPositions(other)[0] == 0.0


def test_default_floating_base_pose():
    plant = two_instances(M, finalize=False)
    c, b = plant.GetBodyByName("c"), plant.GetBodyByName("b")
    X = RigidTransform(RotationMatrix.MakeZRotation(0.5), [1.0, 2.0, 3.0])
    assert plant.GetDefaultFloatingBaseBodyPose(c).IsExactlyIdentity()
    plant.SetDefaultFloatingBaseBodyPose(c, X)
    assert plant.GetDefaultFloatingBaseBodyPose(c).IsNearlyEqualTo(X, 1e-15)
    plant.SetDefaultFloatingBaseBodyPose(b, X)  # b gets a revolute joint: no effect
    plant.Finalize()
    q_c = [0.9689124217106447, 0, 0, 0.24740395925452294, 1, 2, 3]
    np.testing.assert_allclose(plant.GetJointByName("c").default_positions(), q_c, atol=1e-15)
    context = plant.CreateDefaultContext()
    np.testing.assert_allclose(plant.GetPositions(context, MI(3))[1:], q_c, atol=1e-15)
    assert plant.GetPositions(context)[1] == 0.0
    # What was set is remembered, though unused.
    assert plant.GetDefaultFloatingBaseBodyPose(b).IsNearlyEqualTo(X, 1e-15)
    assert plant.GetDefaultFloatingBaseBodyPose(plant.GetBodyByName("a", MI(2))).IsExactlyIdentity()
    # After Finalize() too.
    d = plant.GetBodyByName("d")
    with pytest.warns(DeprecationWarning, match="Use SetDefaultFloatingBaseBodyPose"):
        plant.SetDefaultFreeBodyPose(d, RigidTransform([4.0, 5.0, 6.0]))
    np.testing.assert_array_equal(plant.GetDefaultPositions()[-3:], [4, 5, 6])
    with pytest.warns(DeprecationWarning, match="Use GetDefaultFloatingBaseBodyPose"):
        np.testing.assert_array_equal(plant.GetDefaultFreeBodyPose(d).translation(), [4, 5, 6])
    # An unnormalized default quaternion reads back as a normalized rotation.
    plant.SetDefaultPositions(MI(3), [0, 2, 0, 0, 0, 1, 2, 3])
    pose = plant.GetDefaultFloatingBaseBodyPose(c)
    assert pose.rotation().IsExactlyIdentity() or pose.rotation().IsNearlyIdentity(1e-15)
    with pytest.raises(TypeError):
        plant.SetDefaultFloatingBaseBodyPose(c, np.eye(4))


# ---- free bodies --------------------------------------------------------------------------


def test_free_body_pose_and_velocity(setup):
    plant, context = setup
    c = plant.GetBodyByName("c")
    X = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1.0, 2.0, 3.0])
    plant.SetFreeBodyPose(context, c, X)
    np.testing.assert_allclose(
        plant.GetPositions(context, MI(3))[1:],
        np.r_[RotationMatrix(X.rotation()).ToQuaternion().wxyz(), [1, 2, 3]],
        atol=1e-15,
    )
    assert plant.GetFreeBodyPose(context, c).IsNearlyEqualTo(X, 1e-15)
    assert plant.EvalBodyPoseInWorld(context, c).IsNearlyEqualTo(X, 1e-15)
    V_WC = SpatialVelocity([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    plant.SetFreeBodySpatialVelocity(context, c, V_WC)
    np.testing.assert_array_equal(plant.GetVelocities(context, MI(3))[1:], np.arange(1.0, 7.0))
    np.testing.assert_allclose(
        plant.EvalBodySpatialVelocityInWorld(context, c).get_coeffs(), V_WC.get_coeffs()
    )
    plant.SetFloatingBaseBodyPoseInWorldFrame(context, c, RigidTransform([7.0, 8.0, 9.0]))
    np.testing.assert_array_equal(plant.GetPositions(context, MI(3))[1:], [1, 0, 0, 0, 7, 8, 9])
    plant.SetFreeBodyPose(context=context, body=c, X_JpJc=RigidTransform([5.0, 5.0, 5.0]))
    plant.SetFreeBodySpatialVelocity(context=context, body=c, V_JpJc=SpatialVelocity.Zero())
    assert plant.GetPositions(context, MI(3))[-1] == 5.0
    assert not plant.GetVelocities(context).any()
    with pytest.warns(DeprecationWarning, match="Use context, body, V_JpJc instead"):
        plant.SetFreeBodySpatialVelocity(c, V_WC, context)  # pydrake's deprecated order
    np.testing.assert_array_equal(plant.GetVelocities(context, MI(3))[1:], np.arange(1.0, 7.0))
    # An unnormalized quaternion is stored as is and read back as a rotation.
    plant.SetPositions(context, MI(3), [0.5, 2, 0, 0, 0, 1, 2, 3])
    assert plant.GetFreeBodyPose(context, c).rotation().IsNearlyIdentity(1e-15)


def test_free_body_in_a_state(setup):
    plant, context = setup
    d = plant.GetBodyByName("d")
    other = context.Clone()
    plant.SetFreeBodyPose(context, other.get_mutable_state(), d, RigidTransform([3.0, 3.0, 3.0]))
    plant.SetFreeBodySpatialVelocity(
        context, other.get_mutable_state(), d, SpatialVelocity([0, 0, 1.0], [0, 0, 0])
    )
    np.testing.assert_array_equal(plant.GetPositions(other)[-3:], [3, 3, 3])
    assert plant.GetVelocities(other)[-4] == 1.0
    assert not plant.GetPositions(context)[-3:].any()


def test_user_quaternion_joint_is_free_but_not_floating_base():
    plant = MultibodyPlant(0.0)
    a, b = plant.AddRigidBody("a", box(M)), plant.AddRigidBody("b", box(M))
    revolute(M, plant, "ja", plant.world_body(), a)
    plant.AddJoint(QuaternionFloatingJoint("qb", a.body_frame(), b.body_frame()))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetFreeBodyPose(context, b, RigidTransform([1.0, 2.0, 3.0]))  # X_JpJc
    np.testing.assert_array_equal(plant.GetFreeBodyPose(context, b).translation(), [1, 2, 3])
    assert not b.is_floating_base_body() and b.has_quaternion_dofs()
    with pytest.raises(RuntimeError, match="not a floating base body"):  # pydrake: SystemExit
        plant.SetFloatingBaseBodyPoseInWorldFrame(context, b, RigidTransform())
    with pytest.raises(RuntimeError, match="not a floating base body"):
        b.floating_positions_start()


@pytest.mark.parametrize(
    "call",
    [
        lambda p, c, b: p.GetFreeBodyPose(c, b),
        lambda p, c, b: p.SetFreeBodyPose(c, b, RigidTransform()),
        lambda p, c, b: p.SetFreeBodySpatialVelocity(c, b, SpatialVelocity.Zero()),
    ],
)
def test_free_body_api_on_non_free_bodies(setup, call):
    plant, context = setup
    with raises(RuntimeError, "Body 'b' is not a free body."):
        call(plant, context, plant.GetBodyByName("b"))
    with raises(RuntimeError, "Body 'world' is not a free body."):  # pydrake: SystemExit
        call(plant, context, plant.world_body())
    other = two_instances(M).GetBodyByName("c")
    with pytest.raises(RuntimeError, match="not part of this plant"):
        call(plant, context, other)
    with pytest.raises(TypeError):
        call(plant, context, "c")


def test_free_body_api_errors(setup):
    plant, context = setup
    c = plant.GetBodyByName("c")
    with pytest.raises(TypeError):
        plant.SetFloatingBaseBodyPoseInAnchoredFrame(context, "F", c, RigidTransform())
    other = two_instances(M).world_frame()
    with pytest.raises(RuntimeError, match="is not part of this MultibodyPlant"):
        plant.SetFloatingBaseBodyPoseInAnchoredFrame(context, other, c, RigidTransform())
    with pytest.raises(TypeError):
        plant.SetDefaultState(context, "state")
    with pytest.raises(TypeError):
        plant.SetFreeBodyPose(context, c, np.eye(4))
    with pytest.raises(TypeError):
        plant.SetFreeBodySpatialVelocity(context, c, np.zeros(6))
    pre = two_instances(M, finalize=False)
    message = "Pre-finalize calls to '{}()' are not allowed; you must call Finalize() first."
    with raises(RuntimeError, message.format("GetFreeBodyPose")):
        pre.GetFreeBodyPose(context, pre.GetBodyByName("c"))
    with raises(RuntimeError, message.format("SetFreeBodyPose")):
        pre.SetFreeBodyPose(context, pre.GetBodyByName("c"), RigidTransform())
    with raises(RuntimeError, message.format("SetFloatingBaseBodyPoseInAnchoredFrame")):
        pre.SetFloatingBaseBodyPoseInAnchoredFrame(
            context, pre.world_frame(), pre.GetBodyByName("c"), RigidTransform()
        )


def test_pose_in_anchored_frame():
    plant = MultibodyPlant(0.0)
    a, f = plant.AddRigidBody("a", box(M)), plant.AddRigidBody("f", box(M))
    b = plant.AddRigidBody("b", box(M))
    plant.WeldFrames(plant.world_frame(), a.body_frame(), RigidTransform([0, 0, 1.0]))
    R = RotationMatrix.MakeZRotation(math.pi / 2)
    F = plant.AddFrame(FixedOffsetFrame("F", a.body_frame(), RigidTransform(R, [1.0, 0, 0])))
    G = plant.AddFrame(FixedOffsetFrame("G", b.body_frame(), RigidTransform()))
    revolute(M, plant, "jb", plant.world_body(), b)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetFloatingBaseBodyPoseInAnchoredFrame(context, F, f, RigidTransform([1.0, 0, 0]))
    s = math.sqrt(0.5)
    np.testing.assert_allclose(plant.GetPositions(context)[1:], [s, 0, 0, s, 1, 1, 1], atol=1e-15)
    plant.SetFreeBodyPoseInAnchoredFrame(context, F, f, RigidTransform([0, 1.0, 0]))
    np.testing.assert_allclose(plant.GetPositions(context)[-3:], [0, 0, 1], atol=1e-15)
    plant.SetFloatingBaseBodyPoseInAnchoredFrame(
        context, plant.world_frame(), f, RigidTransform([2.0, 0, 0])
    )
    np.testing.assert_array_equal(plant.GetPositions(context)[-3:], [2, 0, 0])
    with raises(RuntimeError, "Frame 'G' must be anchored to the world frame."):
        plant.SetFloatingBaseBodyPoseInAnchoredFrame(context, G, f, RigidTransform())
    with pytest.raises(RuntimeError, match="not a floating base body"):
        plant.SetFloatingBaseBodyPoseInAnchoredFrame(context, F, b, RigidTransform())


# ---- RigidBody: floating base, locks, mass parameters -------------------------------------


def test_floating_base_body_queries():
    plant = two_instances(M)
    c, b = plant.GetBodyByName("c"), plant.GetBodyByName("b")
    assert c.is_floating_base_body() and not b.is_floating_base_body()
    assert not plant.world_body().is_floating_base_body()
    assert c.has_quaternion_dofs() and not b.has_quaternion_dofs()
    assert (c.floating_positions_start(), c.floating_velocities_start_in_v()) == (3, 3)
    assert [c.floating_position_suffix(i) for i in range(7)] == [
        "qw", "qx", "qy", "qz", "x", "y", "z"
    ]  # fmt: skip
    assert [c.floating_velocity_suffix(i) for i in range(6)] == [
        "wx", "wy", "wz", "vx", "vy", "vz"
    ]  # fmt: skip
    with pytest.warns(DeprecationWarning, match="is_floating_base_body"):
        assert c.is_floating()
    for call in (
        b.floating_positions_start,
        b.floating_velocities_start_in_v,
        lambda: b.floating_position_suffix(0),
        lambda: b.floating_velocity_suffix(0),
        plant.world_body().floating_positions_start,
    ):
        with pytest.raises(RuntimeError, match="is not a floating base body"):
            call()  # pydrake: SystemExit
    for call in (lambda: c.floating_position_suffix(7), lambda: c.floating_velocity_suffix(-1)):
        with pytest.raises(RuntimeError):
            call()


@pytest.mark.parametrize(
    "method, call",
    [
        ("is_floating_base_body", lambda b: b.is_floating_base_body()),
        ("has_quaternion_dofs", lambda b: b.has_quaternion_dofs()),
        ("floating_positions_start", lambda b: b.floating_positions_start()),
        ("floating_velocities_start_in_v", lambda b: b.floating_velocities_start_in_v()),
        ("floating_position_suffix", lambda b: b.floating_position_suffix(0)),
        ("floating_velocity_suffix", lambda b: b.floating_velocity_suffix(0)),
        ("Lock", lambda b: b.Lock(None)),
        ("Unlock", lambda b: b.Unlock(None)),
        ("is_locked", lambda b: b.is_locked(None)),
    ],
)
def test_floating_base_body_queries_before_finalize(method, call):
    body = two_instances(M, finalize=False).GetBodyByName("c")
    message = (
        f"From '{method}'. The model to which this rigid body belongs must be finalized. See "
        "MultibodyPlant::Finalize()."
    )
    with raises(RuntimeError, message):
        call(body)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with raises(RuntimeError, message.replace(method, "is_floating_base_body")):
            body.is_floating()


def test_lock_and_unlock(setup):
    plant, context = setup
    c = plant.GetBodyByName("c")
    plant.SetVelocities(context, V)
    assert not c.is_locked(context)
    c.Lock(context)
    assert c.is_locked(context) and plant.GetJointByName("c").is_locked(context)
    np.testing.assert_array_equal(plant.GetVelocities(context, MI(3))[1:], np.zeros(6))
    assert plant.GetVelocities(context)[0] == V[0]
    plant.SetVelocities(context, V)  # not blocked: stored as given
    np.testing.assert_array_equal(plant.GetVelocities(context), V)
    clone = context.Clone()
    assert c.is_locked(clone)
    c.Unlock(context)
    assert not c.is_locked(context) and c.is_locked(clone)
    assert not c.is_locked(plant.CreateDefaultContext())
    assert not plant.world_body().is_locked(context)


@pytest.mark.parametrize("method", ["Lock", "Unlock"])
def test_lock_non_floating_base_body(setup, method):
    plant, context = setup
    for name in ("b", "world"):
        message = f"Attempted to call {method}() on non-floating-base rigid body {name}"
        with raises(RuntimeError, message):
            getattr(plant.GetBodyByName(name), method)(context)


def test_mass_parameters(setup):
    plant, context = setup
    b = plant.GetBodyByName("b")
    assert b.get_mass(context) == 1.0 and isinstance(b.get_mass(context), float)
    b.SetMass(context, 5.0)
    assert b.get_mass(context) == 5.0 and b.default_mass() == 1.0
    assert plant.CalcTotalMass(context) == 9.0
    # SetMass keeps the unit inertia: I_BBo_B scales with the mass.
    np.testing.assert_allclose(
        b.CalcSpatialInertiaInBodyFrame(context).CalcRotationalInertia().get_moments(),
        np.full(3, 5.0 / 600),
    )
    b.SetCenterOfMassInBodyFrame(context, [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(b.CalcCenterOfMassInBodyFrame(context), [0.1, 0.2, 0.3])
    M_new = SpatialInertia.SolidSphereWithMass(2.0, 0.1)
    b.SetSpatialInertiaInBodyFrame(context, M_new)
    assert b.get_mass(context) == 2.0
    np.testing.assert_allclose(
        b.CalcSpatialInertiaInBodyFrame(context).CopyToFullMatrix6(), M_new.CopyToFullMatrix6()
    )
    assert b.get_mass(plant.CreateDefaultContext()) == 1.0  # only that context changed
    assert b.get_mass(context.Clone()) == 2.0
    plant.world_body().SetMass(context, 1.0)  # accepted, as by Drake
    assert plant.world_body().get_mass(context) == 1.0
    with pytest.raises(TypeError):
        b.SetMass(None, 1.0)
    with pytest.raises(TypeError):
        b.SetSpatialInertiaInBodyFrame(context, 3.0)
    with raises(RuntimeError, mismatch()):
        b.SetMass(foreign_context(), 1.0)  # pydrake does not check this


def test_body_kinematics(setup):
    plant, context = setup
    a = plant.GetBodyByName("a", MI(2))
    a.SetCenterOfMassInBodyFrame(context, [1.0, 0.0, 0.0])
    plant.SetPositions(context, MI(2), [math.pi / 2, 0.0])
    plant.SetVelocities(context, MI(2), [2.0, 0.0])
    X_WA = a.EvalPoseInWorld(context)
    assert X_WA.IsExactlyEqualTo(plant.EvalBodyPoseInWorld(context, a))
    np.testing.assert_allclose(X_WA.rotation().matrix(), [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
                               atol=1e-15)  # fmt: skip
    V_WA = a.EvalSpatialVelocityInWorld(context)
    np.testing.assert_array_equal(V_WA.get_coeffs(), [0, 0, 2, 0, 0, 0])
    # The COM, at (0, 1, 0) in World, moves at w × r = (-2, 0, 0).
    np.testing.assert_allclose(
        a.CalcCenterOfMassTranslationalVelocityInWorld(context), [-2, 0, 0], atol=1e-15
    )
    with raises(RuntimeError, mismatch()):
        a.EvalPoseInWorld(foreign_context())


# ---- cache invalidation -------------------------------------------------------------------


def pose_and_velocity(plant, context, body):
    X = plant.EvalBodyPoseInWorld(context, body).GetAsMatrix34()
    V_ = plant.EvalBodySpatialVelocityInWorld(context, body).get_coeffs()
    return X, V_


def rate(plant, context):
    return plant.EvalBodySpatialVelocityInWorld(context, plant.GetBodyByName("a", MI(2)))


def angle_of(plant, context):
    X = plant.EvalBodyPoseInWorld(context, plant.GetBodyByName("a", MI(2)))
    R = X.rotation().matrix()
    return math.atan2(R[1, 0], R[0, 0])


def x_vector(context):
    """The plant's state vector x = [q; v] in ``context`` (continuous or discrete)."""
    if context.num_continuous_states():
        return context.get_mutable_continuous_state_vector()
    return context.get_mutable_discrete_state_vector()


ROUTES = {
    "plant.SetPositions": lambda p, c, x: p.SetPositions(c, x[:NQ]),
    "plant.SetPositions(instance)": lambda p, c, x: p.SetPositions(c, MI(2), x[:2]),
    "plant.SetPositionsAndVelocities": lambda p, c, x: p.SetPositionsAndVelocities(c, x),
    "plant.SetPositions(state)": lambda p, c, x: p.SetPositions(
        c, c.get_mutable_state(), MI(2), x[:2]
    ),
    "joint.set_angle": lambda p, c, x: p.GetJointByName("j", MI(2)).set_angle(c, x[0]),
    "vector.SetFromVector": lambda p, c, x: x_vector(c).SetFromVector(x),
    "vector.SetAtIndex": lambda p, c, x: x_vector(c).SetAtIndex(0, x[0]),
    "vector.get_mutable_value": lambda p, c, x: (
        x_vector(c).get_mutable_value().__setitem__(0, x[0])
    ),
    "state.vector": lambda p, c, x: (
        c.get_mutable_state().get_mutable_continuous_state().get_mutable_vector()
        if c.num_continuous_states()
        else c.get_mutable_state().get_mutable_discrete_state().get_mutable_vector(0)
    ).SetFromVector(x),
    "context.SetState": lambda p, c, x: (
        c.SetContinuousState(x) if c.num_continuous_states() else c.SetDiscreteState(x)
    ),
    "context.SetTimeStateAndParametersFrom": lambda p, c, x: c.SetTimeStateAndParametersFrom(
        _context_with(p, x)
    ),
}


def silent_x(context):
    """x's storage, written without telling the Context (to observe its cache)."""
    state = context._state
    if context.num_continuous_states():
        return state._continuous._vector._data
    return state._discrete._groups[0]._data


def _context_with(plant, x):
    other = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(other, x)
    return other


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_position_routes_invalidate_poses(setup, route):
    plant, context = setup
    before = angle_of(plant, context)
    assert before == 0.0
    x = plant.GetPositionsAndVelocities(context)
    x[0] = 0.5
    ROUTES[route](plant, context, x)
    assert angle_of(plant, context) == pytest.approx(0.5, abs=1e-14)


def test_queries_follow_a_rebound_state_vector():
    """When a Context's continuous state moves to another array (as inside a Diagram), pose and
    Jacobian queries read the new one."""
    plant = two_instances(M)
    context = plant.CreateDefaultContext()
    assert angle_of(plant, context) == 0.0
    frame = plant.GetBodyByName("b", MI(2)).body_frame()
    plant.CalcJacobianSpatialVelocity(context, JacobianWrtVariable.kV, frame, [0, 0, 0],
                                      plant.world_frame(), plant.world_frame())  # fmt: skip
    moved = np.zeros(NQ + NV + 5)[2 : 2 + NQ + NV]
    context._rebind_continuous(moved)
    q0 = plant.GetDefaultPositions()  # (its quaternions [1, 0, 0, 0]: zero ones raise)
    plant.SetPositions(context, np.r_[0.5, q0[1:]])
    assert moved[0] == 0.5
    assert angle_of(plant, context) == pytest.approx(0.5, abs=1e-14)
    J = plant.CalcJacobianSpatialVelocity(context, JacobianWrtVariable.kV, frame, [0, 0, 0],
                                          plant.world_frame(), plant.world_frame())  # fmt: skip
    plant.SetPositions(context, q0)
    J0 = plant.CalcJacobianSpatialVelocity(context, JacobianWrtVariable.kV, frame, [0, 0, 0],
                                           plant.world_frame(), plant.world_frame())  # fmt: skip
    assert not np.allclose(J, J0)


VELOCITY_ROUTES = {
    "plant.SetVelocities": lambda p, c, v: p.SetVelocities(c, v),
    "plant.SetVelocities(instance)": lambda p, c, v: p.SetVelocities(c, MI(2), v[:2]),
    "joint.set_angular_rate": lambda p, c, v: p.GetJointByName("j", MI(2)).set_angular_rate(
        c, v[0]
    ),
    "plant.SetFreeBodySpatialVelocity": lambda p, c, v: p.SetFreeBodySpatialVelocity(
        c, p.GetBodyByName("d"), SpatialVelocity([0, 0, 0], [1.0, 0, 0])
    ),
    "vector.SetAtIndex": lambda p, c, v: x_vector(c).SetAtIndex(NQ, v[0]),
    "generalized_velocity": lambda p, c, v: (
        c.get_mutable_continuous_state().get_mutable_generalized_velocity().SetAtIndex(0, v[0])
        if c.num_continuous_states()
        else c.get_mutable_discrete_state(0).SetAtIndex(NQ, v[0])
    ),
}


@pytest.mark.parametrize("route", sorted(VELOCITY_ROUTES))
def test_velocity_routes_invalidate_velocities(setup, route):
    plant, context = setup
    a, d = plant.GetBodyByName("a", MI(2)), plant.GetBodyByName("d")
    assert not rate(plant, context).get_coeffs().any()
    v = np.zeros(NV)
    v[0] = 2.0
    VELOCITY_ROUTES[route](plant, context, v)
    moved = np.r_[
        plant.EvalBodySpatialVelocityInWorld(context, a).get_coeffs(),
        plant.EvalBodySpatialVelocityInWorld(context, d).get_coeffs(),
    ]
    assert moved.any()
    assert angle_of(plant, context) == 0.0


def test_parameter_routes_invalidate_poses(setup):
    plant, context = setup
    b = plant.GetBodyByName("b")
    np.testing.assert_array_equal(plant.EvalBodyPoseInWorld(context, b).translation(), [0, 0, 1])
    F = plant.GetFrameByName("F", MI(2))
    F.SetPoseInParentFrame(context, RigidTransform([0, 0, 5.0]))
    np.testing.assert_array_equal(plant.EvalBodyPoseInWorld(context, b).translation(), [0, 0, 5])
    # Through the Context's parameters directly.
    parameters = context.get_mutable_parameters()
    assert parameters.num_abstract_parameters() == 1
    fresh = plant.CreateDefaultContext()
    context.get_mutable_parameters().SetFrom(fresh.get_parameters())
    np.testing.assert_array_equal(plant.EvalBodyPoseInWorld(context, b).translation(), [0, 0, 1])
    context.SetTimeStateAndParametersFrom(fresh)
    np.testing.assert_array_equal(plant.EvalBodyPoseInWorld(context, b).translation(), [0, 0, 1])


def test_repeated_evals_use_the_cache(setup):
    plant, context = setup
    a = plant.GetBodyByName("a", MI(2))
    plant.SetPositions(context, MI(2), [0.3, 0.0])
    plant.SetVelocities(context, MI(2), [1.0, 0.0])
    first = pose_and_velocity(plant, context, a)
    # Write q and v behind the Context's back: cached results do not see it ...
    silent_x(context)[0] = 1.0
    silent_x(context)[NQ] = 5.0
    second = pose_and_velocity(plant, context, a)
    np.testing.assert_array_equal(first[0], second[0])
    np.testing.assert_array_equal(first[1], second[1])
    # ... and are recomputed once told.
    plant.SetPositions(context, MI(2), [0.3, 0.0])
    third = pose_and_velocity(plant, context, a)
    np.testing.assert_array_equal(first[0], third[0])
    assert third[1][2] == 5.0


def test_velocity_change_keeps_cached_poses(setup):
    plant, context = setup
    a = plant.GetBodyByName("a", MI(2))
    X = plant.EvalBodyPoseInWorld(context, a).GetAsMatrix34()
    silent_x(context)[0] = 1.0
    plant.SetVelocities(context, V)  # invalidates v only (continuous plants)
    X2 = plant.EvalBodyPoseInWorld(context, a).GetAsMatrix34()
    if context.num_continuous_states():
        np.testing.assert_array_equal(X, X2)
    assert rate(plant, context).get_coeffs()[2] == V[0]


def test_clone_is_independent(setup):
    plant, context = setup
    a = plant.GetBodyByName("a", MI(2))
    plant.SetPositions(context, Q)
    context.SetTime(1.5)
    plant.get_actuation_input_port().FixValue(context, [1.0, 2.0, 3.0])
    angle = angle_of(plant, context)
    clone = context.Clone()
    assert clone.get_time() == 1.5 and angle_of(plant, clone) == angle
    np.testing.assert_array_equal(plant.GetPositions(clone), Q)
    plant.SetPositions(clone, plant.GetDefaultPositions())  # (angle 0, unit quaternions)
    a.SetMass(clone, 3.0)
    plant.get_actuation_input_port().FixValue(clone, [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(plant.GetPositions(context), Q)
    assert a.get_mass(context) == 1.0 and angle_of(plant, context) == angle
    assert angle_of(plant, clone) == 0.0
    np.testing.assert_array_equal(plant.get_actuation_input_port().Eval(context), [1, 2, 3])
    assert plant.get_actuation_input_port().Eval(clone).tolist() == [0, 0, 0]


def test_instance_slots_made_at_the_first_read():
    """_InstanceSlots: the slots of each model instance (increasing, as a stable sort of the
    owners), its owners computed once, at the first read of any instance, in any order."""
    from mallard.multibody.plant._multibody_plant import _InstanceSlots

    owner = np.array([2, 0, 2, 1, 0, 2], dtype=np.int64)
    calls = []
    slots = _InstanceSlots(lambda: calls.append(1) or owner, 4)
    assert calls == [] and len(slots) == 4
    assert slots[-2].tolist() == [0, 2, 5]  # (instance 2)
    assert slots[0].tolist() == [1, 4]
    assert slots[1].tolist() == [3]
    assert slots[3].tolist() == []
    assert slots[0] is slots[0] and calls == [1]
    with pytest.raises(IndexError):
        slots[4]
