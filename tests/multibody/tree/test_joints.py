"""The nine joint types: construction, defaults, limits, damping, state in a Context, errors,
and the pose X_FM(q) each one produces, checked against closed forms."""

import numpy as np
import pytest

from mallard.common.eigen_geometry import Quaternion
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    Joint,
    JointIndex,
    PlanarJoint,
    PrismaticJoint,
    QuaternionFloatingJoint,
    RevoluteJoint,
    RpyFloatingJoint,
    ScrewJoint,
    SpatialInertia,
    UniversalJoint,
    WeldJoint,
    default_model_instance,
)

EPS = np.finfo(float).eps
M0 = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)
AXIS = np.array([1.0, 2.0, 2.0]) / 3.0
PITCH = 0.3
X_WELD = RigidTransform(RollPitchYaw(0.1, -0.2, 0.3), [1.0, 2.0, 3.0])

# kind: (class, nq, nv, position suffixes, velocity suffixes, can_rotate, can_translate,
#        default positions)
TYPES = {
    "weld": (WeldJoint, 0, 0, (), (), False, False, []),
    "revolute": (RevoluteJoint, 1, 1, ("q",), ("w",), True, False, [0]),
    "prismatic": (PrismaticJoint, 1, 1, ("x",), ("v",), False, True, [0]),
    "screw": (ScrewJoint, 1, 1, ("q",), ("w",), True, True, [0]),
    "universal": (UniversalJoint, 2, 2, ("qx", "qy"), ("wx", "wy"), True, False, [0, 0]),
    "planar": (PlanarJoint, 3, 3, ("x", "y", "qz"), ("vx", "vy", "wz"), True, True, [0] * 3),
    "ball_rpy": (BallRpyJoint, 3, 3, ("qx", "qy", "qz"), ("wx", "wy", "wz"), True, False, [0] * 3),
    "rpy_floating": (
        RpyFloatingJoint,
        6,
        6,
        ("qx", "qy", "qz", "x", "y", "z"),
        ("wx", "wy", "wz", "vx", "vy", "vz"),
        True,
        True,
        [0] * 6,
    ),
    "quaternion_floating": (
        QuaternionFloatingJoint,
        7,
        6,
        ("qw", "qx", "qy", "qz", "x", "y", "z"),
        ("wx", "wy", "wz", "vx", "vy", "vz"),
        True,
        True,
        [1, 0, 0, 0, 0, 0, 0],
    ),
}
KINDS = list(TYPES)
MOVING = KINDS[1:]
NOT_FLOATING = KINDS[:7]


def make_joint(kind, name, F, M):
    """A joint of ``kind`` with default arguments (AXIS for the one-dof joints)."""
    return {
        "weld": lambda: WeldJoint(name, F, M, X_WELD),
        "revolute": lambda: RevoluteJoint(name, F, M, AXIS),
        "prismatic": lambda: PrismaticJoint(name, F, M, AXIS),
        "screw": lambda: ScrewJoint(name, F, M, AXIS, PITCH, 0.0),
        "universal": lambda: UniversalJoint(name, F, M),
        "planar": lambda: PlanarJoint(name, F, M),
        "ball_rpy": lambda: BallRpyJoint(name, F, M),
        "rpy_floating": lambda: RpyFloatingJoint(name, F, M),
        "quaternion_floating": lambda: QuaternionFloatingJoint(name, F, M),
    }[kind]()


def build(kinds=KINDS, offsets=False, finalize=True):
    """A plant with, for each kind, a body in instance "m" jointed to World by a joint named
    after its kind; with ``offsets``, F and M are FixedOffsetFrames at fixed poses."""
    plant = MultibodyPlant(0.0)
    m = plant.AddModelInstance("m")
    joints = {}
    for i, kind in enumerate(kinds):
        body = plant.AddRigidBody(f"B_{kind}", m, M0)
        F, M = plant.world_frame(), body.body_frame()
        if offsets:
            X_WF = RigidTransform(RollPitchYaw(0.3 * i, 0.2, -0.1), [0.1 * i, 0.5, -0.2])
            X_BM = RigidTransform(RollPitchYaw(-0.4, 0.1 * i, 0.7), [0.3, -0.1 * i, 0.2])
            F = plant.AddFrame(FixedOffsetFrame(f"F_{kind}", F, X_WF))
            M = plant.AddFrame(FixedOffsetFrame(f"M_{kind}", M, X_BM))
        joints[kind] = plant.AddJoint(make_joint(kind, kind, F, M))
    if finalize:
        plant.Finalize()
    return plant, joints


@pytest.fixture
def two_bodies():
    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("A", M0)
    b = plant.AddRigidBody("B", M0)
    return plant, a.body_frame(), b.body_frame()


# ---- construction ------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_type_sizes_and_defaults(kind, two_bodies):
    cls, nq, nv, _, _, _, _, q0 = TYPES[kind]
    _, F, M = two_bodies
    joint = make_joint(kind, "j", F, M)
    assert cls.kTypeName == kind and joint.type_name() == kind
    assert (joint.num_positions(), joint.num_velocities()) == (nq, nv)
    np.testing.assert_array_equal(joint.default_positions(), q0)
    for limits, n, sign in (
        (joint.position_lower_limits(), nq, -1),
        (joint.position_upper_limits(), nq, 1),
        (joint.velocity_lower_limits(), nv, -1),
        (joint.velocity_upper_limits(), nv, 1),
        (joint.acceleration_lower_limits(), nv, -1),
        (joint.acceleration_upper_limits(), nv, 1),
    ):
        np.testing.assert_array_equal(limits, np.full(n, sign * np.inf))
    np.testing.assert_array_equal(joint.default_damping_vector(), np.zeros(nv))
    assert joint.name() == "j" and not joint.is_ephemeral()
    assert joint.frame_on_parent() is F and joint.frame_on_child() is M
    assert joint.parent_body() is F.body() and joint.child_body() is M.body()
    assert joint.index() == JointIndex(-1)
    assert repr(joint) == f"<{cls.__name__} name='j' index=-1 model_instance=1>"


def test_keyword_constructors(two_bodies):
    _, F, M = two_bodies
    frames = dict(name="j", frame_on_parent=F, frame_on_child=M)
    r = RevoluteJoint(**frames, axis=[0, 0, 2], damping=0.5)
    np.testing.assert_array_equal(r.revolute_axis(), [0, 0, 1])
    assert r.default_damping() == 0.5
    r = RevoluteJoint(**frames, axis=[0, 0, 1], pos_lower_limit=-1, pos_upper_limit=2, damping=3)
    assert (r.position_lower_limit(), r.position_upper_limit(), r.default_damping()) == (-1, 2, 3)
    p = PrismaticJoint(
        **frames, axis=[3, 0, 0], pos_lower_limit=-1, pos_upper_limit=2, damping=0.25
    )
    np.testing.assert_array_equal(p.translation_axis(), [1, 0, 0])
    assert (p.position_lower_limit(), p.position_upper_limit(), p.default_damping()) == (
        -1,
        2,
        0.25,
    )
    s = ScrewJoint(**frames, screw_pitch=0.1, damping=0.5)
    assert (s.screw_pitch(), s.default_damping()) == (0.1, 0.5)
    s = ScrewJoint(**frames, axis=[0, 1, 0], screw_pitch=-0.2, damping=0.0)
    assert s.screw_pitch() == -0.2
    np.testing.assert_array_equal(
        UniversalJoint(**frames, damping=2).default_damping_vector(), [2, 2]
    )
    np.testing.assert_array_equal(
        PlanarJoint(**frames, damping=[1, 2, 3]).default_damping(), [1, 2, 3]
    )
    np.testing.assert_array_equal(
        BallRpyJoint(**frames, damping=2).default_damping_vector(), [2] * 3
    )
    for cls in (RpyFloatingJoint, QuaternionFloatingJoint):
        j = cls(**frames, angular_damping=1, translational_damping=2)
        np.testing.assert_array_equal(j.default_damping_vector(), [1, 1, 1, 2, 2, 2])
        assert (j.default_angular_damping(), j.default_translational_damping()) == (1, 2)
    w = WeldJoint(name="w", frame_on_parent_F=F, frame_on_child_M=M, X_FM=X_WELD)
    assert w.X_FM().IsExactlyEqualTo(X_WELD) and w.X_FM() is not w.X_FM()


def test_positional_overloads(two_bodies):
    _, F, M = two_bodies
    assert RevoluteJoint("r", F, M, [0, 0, 1], 2.0).default_damping() == 2.0
    r = RevoluteJoint("r", F, M, [0, 0, 1], -1, 1)
    assert (r.position_lower_limit(), r.position_upper_limit(), r.default_damping()) == (-1, 1, 0)
    assert RevoluteJoint("r", F, M, [0, 0, 1], -1, 1, 4).default_damping() == 4
    assert RevoluteJoint("r", F, M, [0, 0, 1], 1, 1).position_lower_limit() == 1
    s = ScrewJoint("s", F, M, 0.1, 0.2)
    assert (s.screw_pitch(), s.default_damping()) == (0.1, 0.2)
    np.testing.assert_array_equal(s._axis, [0, 0, 1])
    s = ScrewJoint("s", F, M, [2, 0, 0], 0.1, 0.2)
    np.testing.assert_array_equal(s._axis, [1, 0, 0])
    assert ScrewJoint("s", F, M, 0.0, 0.0).screw_pitch() == 0.0


@pytest.mark.parametrize(
    "make",
    [
        lambda F, M: RevoluteJoint("r", F, M, [0, 0, 1], pos_lower_limit=-1),
        lambda F, M: RevoluteJoint("r", F, M, [0, 0, 1], 0.5, damping=1),
        lambda F, M: RevoluteJoint("r", F, M, [0, 0, 1], -1, 1, 2, 3),
        lambda F, M: RevoluteJoint("r", F, M, [0, 0, 1], foo=1),
        lambda F, M: RevoluteJoint("r", F, M, [0, 1]),
        lambda F, M: RevoluteJoint("r", F, M, [0, 0, "a"]),
        lambda F, M: RevoluteJoint("r", F, M, [0, 0, 1], "a"),
        lambda F, M: RevoluteJoint("r", F, M, [0, 0, 1], [0.5]),
        lambda F, M: RevoluteJoint(1, F, M, [0, 0, 1]),
        lambda F, M: RevoluteJoint("r", F.body(), M, [0, 0, 1]),
        lambda F, M: ScrewJoint("s", F, M, 0.1),
        lambda F, M: ScrewJoint("s", F, M, [0, 0, 1], 0.1),
        lambda F, M: PlanarJoint("p", F, M, [1, 2]),
        lambda F, M: WeldJoint("w", F, M, [1, 2, 3]),
        lambda F, M: UniversalJoint("u", F, M, None),
        lambda F, M: QuaternionFloatingJoint("q", F, M, "1"),
    ],
)
def test_constructor_type_errors(make, two_bodies):
    _, F, M = two_bodies
    with pytest.raises(TypeError):
        make(F, M)


def test_abstract_joint_and_empty_name(two_bodies):
    _, F, M = two_bodies
    with pytest.raises(TypeError, match="No constructor defined"):
        Joint("j", F, M)
    with pytest.raises(RuntimeError, match="RevoluteJoint: the name of a joint cannot be empty"):
        RevoluteJoint("", F, M, [0, 0, 1])


@pytest.mark.parametrize(
    "cls, kind, tolerance",
    [(RevoluteJoint, "Revolute", EPS), (PrismaticJoint, "Prismatic", np.sqrt(EPS))],
)
def test_zero_axis(cls, kind, tolerance, two_bodies):
    """An axis is zero when all |aᵢ| ≤ ε (revolute, screw) or √ε (prismatic), as in Drake."""
    _, F, M = two_bodies
    message = f"^{kind} joint axis vector must have nonzero length.$"
    for axis in ([0, 0, 0], [0, 0, tolerance], [tolerance, -tolerance, tolerance]):
        with pytest.raises(RuntimeError, match=message):
            cls("j", F, M, axis)
    if cls is RevoluteJoint:
        with pytest.raises(RuntimeError, match=message):
            cls("j", F, M, [0, 0, 0], -1, 1)
    j = cls("j", F, M, [0, 0, -2 * tolerance])
    np.testing.assert_array_equal(j._axis, [0, 0, -1])
    with pytest.raises(RuntimeError, match="^Screw joint axis vector must have nonzero length.$"):
        ScrewJoint("s", F, M, [0, 0, EPS], 0.1, 0.0)
    assert ScrewJoint("s", F, M, [0, 0, 2 * EPS], 0.1, 0.0).screw_pitch() == 0.1
    for axis in ([0, 0, np.nan], [0, 0, np.inf]):
        with pytest.raises(RuntimeError, match=f"{cls.__name__} 'j': __init__\\(\\): the axis"):
            cls("j", F, M, axis)


def test_prismatic_axis_zero_below_sqrt_eps(two_bodies):
    _, F, M = two_bodies
    assert RevoluteJoint("r", F, M, [1e-9, 0, 0]).revolute_axis()[0] == 1
    with pytest.raises(RuntimeError, match="Prismatic joint axis"):
        PrismaticJoint("p", F, M, [1e-8, 1e-8, 1e-8])


@pytest.mark.parametrize("damping", [-1.0, np.nan])
def test_negative_damping_in_constructors(damping, two_bodies):
    _, F, M = two_bodies
    for make, text in (
        (lambda: RevoluteJoint("j", F, M, [0, 0, 1], damping), "^Revolute joint damping"),
        (lambda: RevoluteJoint("j", F, M, [0, 0, 1], -1, 1, damping), "^Revolute joint damping"),
        (lambda: PrismaticJoint("j", F, M, [0, 0, 1], damping=damping), "^Prismatic joint damp"),
        (lambda: ScrewJoint("j", F, M, 0.1, damping), "^Screw joint damping must be nonnegative"),
        (lambda: UniversalJoint("j", F, M, damping), "^UniversalJoint 'j': __init__"),
        (lambda: BallRpyJoint("j", F, M, damping), "^BallRpyJoint 'j': __init__"),
        (lambda: PlanarJoint("j", F, M, [0, damping, 0]), "^PlanarJoint 'j': __init__"),
        (lambda: RpyFloatingJoint("j", F, M, damping), "^RpyFloatingJoint 'j': __init__"),
        (lambda: RpyFloatingJoint("j", F, M, 0, damping), "^RpyFloatingJoint 'j': __init__"),
        (lambda: QuaternionFloatingJoint("j", F, M, damping), "QuaternionFloatingJoint 'j'"),
        (lambda: QuaternionFloatingJoint("j", F, M, 0, damping), "QuaternionFloatingJoint 'j'"),
    ):
        with pytest.raises(RuntimeError, match=text):
            make()


@pytest.mark.parametrize("lower, upper", [(1, -1), (np.nan, 1), (0, np.nan)])
def test_constructor_position_limits_out_of_order(lower, upper, two_bodies):
    _, F, M = two_bodies
    for cls in (RevoluteJoint, PrismaticJoint):
        with pytest.raises(RuntimeError, match=f"{cls.__name__} 'j': __init__\\(\\): the position"):
            cls("j", F, M, [0, 0, 1], lower, upper)


def test_same_body_frames_are_rejected_by_add_joint(two_bodies):
    plant, F, _ = two_bodies
    joint = RevoluteJoint("r", F, F, [0, 0, 1])  # pydrake, too, accepts it until AddJoint
    with pytest.raises(RuntimeError, match="^AddJoint\\(\\): joint r would connect body A to"):
        plant.AddJoint(joint)


def test_model_instance_is_the_child_frames():
    plant = MultibodyPlant(0.0)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    a = plant.AddRigidBody("a", m1, M0)
    b = plant.AddRigidBody("b", m2, M0)
    assert RevoluteJoint("j", a.body_frame(), b.body_frame(), [0, 0, 1]).model_instance() == m2
    assert RevoluteJoint("j", b.body_frame(), a.body_frame(), [0, 0, 1]).model_instance() == m1
    G = plant.AddFrame(FixedOffsetFrame("G", b.body_frame(), RigidTransform(), m1))
    assert WeldJoint("w", a.body_frame(), G, RigidTransform()).model_instance() == m1
    world = plant.world_frame()
    assert BallRpyJoint("k", a.body_frame(), world).model_instance() == world.model_instance()


def test_joint_not_in_a_plant(two_bodies):
    _, F, M = two_bodies
    joint = RevoluteJoint("r", F, M, [0, 0, 1])
    with pytest.raises(RuntimeError, match="not owned by a MultibodyPlant"):
        joint.GetParentPlant()
    for method in ("position_start", "velocity_start", "can_rotate", "can_translate"):
        with pytest.raises(RuntimeError, match=f"'r': {method}\\(\\): this element was not"):
            getattr(joint, method)()
    with pytest.raises(RuntimeError, match="'r': position_suffix\\(\\): this element was not"):
        joint.position_suffix(0)


# ---- after Finalize ----------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_suffixes_and_mobility(kind):
    _, nq, nv, q_suffixes, v_suffixes, rotates, translates, _ = TYPES[kind]
    plant, joints = build(finalize=False)
    joint = joints[kind]
    for method in (joint.can_rotate, joint.can_translate, joint.position_start):
        with pytest.raises(RuntimeError, match=f"'{kind}': .* after the MultibodyPlant is final"):
            method()
    with pytest.raises(RuntimeError, match="finalized"):
        joint.position_suffix(0)
    plant.Finalize()
    assert tuple(joint.position_suffix(i) for i in range(nq)) == q_suffixes
    assert tuple(joint.velocity_suffix(i) for i in range(nv)) == v_suffixes
    assert (joint.can_rotate(), joint.can_translate()) == (rotates, translates)
    for method, n in ((joint.position_suffix, nq), (joint.velocity_suffix, nv)):
        for bad in (-1, n):
            with pytest.raises(RuntimeError, match=f"'{kind}': .*_suffix\\(\\): index"):
                method(bad)
        with pytest.raises(TypeError):
            method(0.0)


def test_slots_follow_the_joint_order():
    plant, joints = build()
    q_start = v_start = 0
    for kind in KINDS:
        joint = joints[kind]
        assert (joint.position_start(), joint.velocity_start()) == (q_start, v_start)
        assert joint.model_instance() == plant.GetModelInstanceByName("m")
        q_start += joint.num_positions()
        v_start += joint.num_velocities()
    assert (plant.num_positions(), plant.num_velocities()) == (q_start, v_start)


# ---- default positions -------------------------------------------------------------------
def test_set_default_positions_size_error():
    plant, joints = build(finalize=False)
    loose = RevoluteJoint(
        "loose", plant.world_frame(), joints["revolute"].child_body().body_frame(), AXIS
    )
    for joint, name, n in ((joints["planar"], "m::planar", 3), (loose, "loose", 1)):
        message = (
            "^set_default_positions: The number of positions in the input (2) does not match "
            f"the number of positions of the joint '{name}' ({n}).$"
        )
        with pytest.raises(RuntimeError, match=message.replace("(", "\\(").replace(")", "\\)")):
            joint.set_default_positions([1, 2])
    for bad in (0.5, [[1.0, 2.0]], np.zeros((2, 2)), "abc", None):
        with pytest.raises(TypeError):
            joints["revolute"].set_default_positions(bad)


@pytest.mark.parametrize("kind", MOVING)
def test_default_positions_initialize_contexts(kind):
    plant, joints = build()
    joint = joints[kind]
    q = np.arange(1.0, joint.num_positions() + 1)
    joint.set_default_positions(default_positions=q.reshape(-1, 1))  # a column is accepted
    np.testing.assert_array_equal(joint.default_positions(), q)
    start = joint.position_start()
    context = plant.CreateDefaultContext()
    np.testing.assert_array_equal(plant.GetPositions(context)[start : start + q.size], q)
    np.testing.assert_array_equal(plant.GetVelocities(context), 0)
    joint.default_positions()[:] = 0  # a copy
    np.testing.assert_array_equal(joint.default_positions(), q)


def test_single_dof_default_setters():
    _, joints = build(finalize=False)
    revolute, prismatic = joints["revolute"], joints["prismatic"]
    revolute.set_default_angle(angle=0.7)
    assert revolute.get_default_angle() == 0.7
    prismatic.set_default_translation(translation=0.2)
    assert prismatic.get_default_translation() == 0.2
    np.testing.assert_array_equal(prismatic.default_positions(), [0.2])
    with pytest.raises(TypeError):
        revolute.set_default_angle([0.7])


def test_screw_default_rotation_and_translation_are_coupled():
    _, joints = build(finalize=False)
    screw = joints["screw"]
    screw.set_default_rotation(theta=1.0)
    assert screw.get_default_rotation() == 1.0
    assert screw.get_default_translation() == PITCH * (1.0 / (2 * np.pi))
    screw.set_default_translation(z=0.45)
    assert screw.get_default_rotation() == (0.45 / PITCH) * 2 * np.pi
    assert screw.get_default_translation() == pytest.approx(0.45, rel=1e-15)
    np.testing.assert_array_equal(screw.default_positions(), [screw.get_default_rotation()])


def test_screw_of_zero_pitch():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", M0)
    screw = plant.AddJoint(ScrewJoint("s", plant.world_frame(), body.body_frame(), 0.0, 0.0))
    screw.set_default_rotation(0.5)
    screw.set_default_translation(0.0)  # every rotation has no translation: kept
    assert (screw.get_default_rotation(), screw.get_default_translation()) == (0.5, 0.0)
    with pytest.raises(RuntimeError, match="ScrewJoint 's': set_default_translation\\(\\)"):
        screw.set_default_translation(0.1)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    screw.set_angular_velocity(context, 2.0)
    assert screw.set_translation(context, 0.0) is screw
    screw.set_translational_velocity(context, 0.0)
    assert (screw.get_rotation(context), screw.get_angular_velocity(context)) == (0.5, 2.0)
    for method in (screw.set_translation, screw.set_translational_velocity):
        with pytest.raises(RuntimeError, match=f"ScrewJoint 's': {method.__name__}\\(\\): cannot"):
            method(context, 0.1)


def test_planar_defaults():
    _, joints = build(finalize=False)
    planar = joints["planar"]
    planar.set_default_translation(p_FoMo_F=[1, 2])
    planar.set_default_rotation(theta=3)
    np.testing.assert_array_equal(planar.get_default_translation(), [1, 2])
    assert planar.get_default_rotation() == 3
    planar.set_default_pose(p_FoMo_F=[4, 5], theta=6)
    np.testing.assert_array_equal(planar.default_positions(), [4, 5, 6])
    with pytest.raises(TypeError):
        planar.set_default_translation([1, 2, 3])


def test_angle_defaults():
    _, joints = build(finalize=False)
    joints["universal"].set_default_angles(angles=[0.5, 0.6])
    np.testing.assert_array_equal(joints["universal"].get_default_angles(), [0.5, 0.6])
    for kind in ("ball_rpy", "rpy_floating"):
        joints[kind].set_default_angles(angles=[0.4, 0.5, 0.6])
        np.testing.assert_array_equal(joints[kind].get_default_angles(), [0.4, 0.5, 0.6])
    joints["rpy_floating"].set_default_translation(p_FM=[1, 2, 3])
    np.testing.assert_array_equal(joints["rpy_floating"].get_default_translation(), [1, 2, 3])
    np.testing.assert_array_equal(
        joints["rpy_floating"].default_positions(), [0.4, 0.5, 0.6, 1, 2, 3]
    )
    with pytest.raises(TypeError):
        joints["universal"].set_default_angles([1])
    with pytest.raises(TypeError):
        joints["ball_rpy"].set_default_angles(np.array([[1.0, 2.0, 3.0]]))  # a row


def test_quaternion_floating_defaults():
    _, joints = build(finalize=False)
    joint = joints["quaternion_floating"]
    q = Quaternion([0.5, 0.5, 0.5, 0.5])
    joint.set_default_quaternion(q_FM=q)
    joint.set_default_translation(translation=[1, 2, 3])
    np.testing.assert_array_equal(joint.get_default_quaternion().wxyz(), q.wxyz())
    np.testing.assert_array_equal(joint.get_default_translation(), [1, 2, 3])
    np.testing.assert_array_equal(joint.default_positions(), [0.5, 0.5, 0.5, 0.5, 1, 2, 3])
    joint.set_default_positions([2, 0, 0, 0, 1, 2, 3])  # stored as given, not normalized
    np.testing.assert_array_equal(joint.get_default_quaternion().wxyz(), [2, 0, 0, 0])
    np.testing.assert_array_equal(joint.GetDefaultPose().rotation().matrix(), np.eye(3))
    with pytest.raises(TypeError):
        joint.set_default_quaternion([1, 0, 0, 0])


def test_floating_default_pose_pairs():
    _, joints = build(finalize=False)
    quaternion, rpy = joints["quaternion_floating"], joints["rpy_floating"]
    q_FM = RollPitchYaw(0.5, -0.4, 0.3).ToQuaternion()
    p_FM = np.array([7.0, 8.0, 9.0])
    quaternion.SetDefaultPosePair(q_FM=q_FM, p_FM=p_FM)
    q, p = quaternion.GetDefaultPosePair()
    np.testing.assert_array_equal(q.wxyz(), q_FM.wxyz())  # bit-identical
    np.testing.assert_array_equal(p, p_FM)
    rpy.SetDefaultPosePair(q_FM, p_FM)
    np.testing.assert_allclose(rpy.get_default_angles(), [0.5, -0.4, 0.3], atol=1e-15)
    q, p = rpy.GetDefaultPosePair()
    np.testing.assert_allclose(q.wxyz(), q_FM.wxyz(), atol=1e-15)
    np.testing.assert_array_equal(p, p_FM)
    X_FM = RigidTransform(RollPitchYaw(-2.0, 1.0, 3.0), [1.0, -2.0, 0.5])  # trace(R) < 0
    for joint in (quaternion, rpy):
        joint.SetDefaultPose(X_FM=X_FM)
        assert joint.GetDefaultPose().IsNearlyEqualTo(X_FM, 1e-15)
    np.testing.assert_array_equal(
        quaternion.default_positions()[:4], X_FM.rotation().ToQuaternion().wxyz()
    )
    assert quaternion.default_positions()[0] >= 0
    np.testing.assert_allclose(rpy.default_positions()[:3], [-2.0, 1.0, 3.0], atol=1e-14)
    with pytest.raises(TypeError):
        quaternion.SetDefaultPose(X_FM.rotation())
    with pytest.raises(TypeError):
        rpy.SetDefaultPosePair(X_FM.rotation(), p_FM)


@pytest.mark.parametrize("kind", NOT_FLOATING)
def test_default_pose_only_for_floating_joints(kind):
    _, joints = build(finalize=False)
    joint = joints[kind]
    get = f"^GetDefaultPose\\(\\): not implemented for joint type {kind}.$"
    put = f"^SetDefaultPose\\(\\): not implemented for joint type {kind}.$"
    for call, message in (
        (joint.GetDefaultPose, get),
        (joint.GetDefaultPosePair, get),
        (lambda: joint.SetDefaultPose(RigidTransform()), put),
        (lambda: joint.SetDefaultPosePair(Quaternion(), [1, 2, 3]), put),
    ):
        with pytest.raises(RuntimeError, match=message):
            call()


# ---- limits ------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", MOVING)
def test_limit_setters(kind):
    plant, joints = build()
    joint = joints[kind]
    nq, nv = joint.num_positions(), joint.num_velocities()
    for setter, getters, n, sl, start in (
        (
            joint.set_position_limits,
            ("position",),
            nq,
            plant.GetPositionLowerLimits,
            joint.position_start(),
        ),
        (
            joint.set_velocity_limits,
            ("velocity",),
            nv,
            plant.GetVelocityLowerLimits,
            joint.velocity_start(),
        ),
        (joint.set_acceleration_limits, ("acceleration",), nv, None, None),
    ):
        lower, upper = -np.arange(1.0, n + 1), np.arange(1.0, n + 1)
        setter(lower_limits=lower, upper_limits=upper)  # also after Finalize, as in pydrake
        (what,) = getters
        np.testing.assert_array_equal(getattr(joint, f"{what}_lower_limits")(), lower)
        np.testing.assert_array_equal(getattr(joint, f"{what}_upper_limits")(), upper)
        if sl is not None:
            np.testing.assert_array_equal(sl()[start : start + n], lower)
        method = setter.__name__
        for bad_lower, bad_upper in ((lower[:-1], upper[:-1]), (lower, upper[:-1])):
            with pytest.raises(RuntimeError, match=f"'{kind}': {method}\\(\\): the {what} limits"):
                setter(bad_lower, bad_upper)
        with pytest.raises(RuntimeError, match=f"'{kind}': {method}\\(\\): the {what} lower"):
            setter(upper, lower)
        nan = lower.copy()
        nan[0] = np.nan
        with pytest.raises(RuntimeError, match="must not exceed"):
            setter(nan, upper)
        with pytest.raises(TypeError):
            setter(1.0, 2.0)
        np.testing.assert_array_equal(getattr(joint, f"{what}_lower_limits")(), lower)


@pytest.mark.parametrize("cls", [RevoluteJoint, PrismaticJoint])
def test_scalar_limits(cls, two_bodies):
    _, F, M = two_bodies
    joint = cls("j", F, M, [0, 0, 1], -1.0, 2.0)
    joint.set_velocity_limits([-3.0], [4.0])
    joint.set_acceleration_limits([-5.0], [6.0])
    assert (joint.position_lower_limit(), joint.position_upper_limit()) == (-1, 2)
    assert (joint.velocity_lower_limit(), joint.velocity_upper_limit()) == (-3, 4)
    assert (joint.acceleration_lower_limit(), joint.acceleration_upper_limit()) == (-5, 6)
    joint.set_default_positions([5.0])  # need not be within the limits
    assert joint.default_positions()[0] == 5.0


def test_scalar_limits_only_on_revolute_and_prismatic():
    for cls in (ScrewJoint, UniversalJoint, PlanarJoint, BallRpyJoint, QuaternionFloatingJoint):
        assert not hasattr(cls, "position_lower_limit")
        assert not hasattr(cls, "set_default_damping")
    assert not hasattr(ScrewJoint, "set_rotation") and not hasattr(ScrewJoint, "screw_axis")
    assert not hasattr(Joint, "scoped_name")


# ---- damping -----------------------------------------------------------------------------
def test_default_damping_accessors(two_bodies):
    _, F, M = two_bodies
    assert RevoluteJoint("j", F, M, [0, 0, 1], 0.5).default_damping() == 0.5
    assert ScrewJoint("j", F, M, 0.1, 0.25).default_damping() == 0.25
    assert UniversalJoint("j", F, M, 0.3).default_damping() == 0.3
    assert BallRpyJoint("j", F, M, 0.4).default_damping() == 0.4
    np.testing.assert_array_equal(PlanarJoint("j", F, M, [1, 2, 3]).default_damping(), [1, 2, 3])


@pytest.mark.parametrize("kind", MOVING)
def test_damping_vector(kind):
    plant, joints = build(finalize=False)
    joint = joints[kind]
    nv = joint.num_velocities()
    d = np.linspace(0.5, 1.5, nv)
    joint.set_default_damping_vector(damping=d)
    np.testing.assert_array_equal(joint.default_damping_vector(), d)
    method = "set_default_damping_vector"
    with pytest.raises(RuntimeError, match=f"'{kind}': {method}\\(\\): damping must have size"):
        joint.set_default_damping_vector(np.ones(nv + 1))
    with pytest.raises(RuntimeError, match=f"'{kind}': {method}\\(\\): damping must be non-neg"):
        joint.set_default_damping_vector(-d)
    with pytest.raises(TypeError):
        joint.set_default_damping_vector(1.0)
    plant.Finalize()
    with pytest.raises(RuntimeError, match=f"'{kind}': {method}\\(\\): may only be called before"):
        joint.set_default_damping_vector(d)
    context = plant.CreateDefaultContext()
    np.testing.assert_array_equal(joint.GetDampingVector(context), d)
    assert joint.SetDampingVector(context, damping=2 * d) is None
    np.testing.assert_array_equal(joint.GetDampingVector(context), 2 * d)
    np.testing.assert_array_equal(joint.GetDampingVector(plant.CreateDefaultContext()), d)
    np.testing.assert_array_equal(joint.default_damping_vector(), d)
    for bad, text in (
        (np.ones(nv + 1), "must have size"),
        (-d, "must be non-negative"),
        ([np.nan] * nv, "must be non-negative"),
    ):
        with pytest.raises(RuntimeError, match=f"'{kind}': SetDampingVector\\(\\): damping {text}"):
            joint.SetDampingVector(context, bad)
    np.testing.assert_array_equal(joint.GetDampingVector(context), 2 * d)


def test_weld_damping_is_empty():
    plant, joints = build(["weld"])
    context = plant.CreateDefaultContext()
    weld = joints["weld"]
    assert weld.GetDampingVector(context).shape == (0,)
    weld.SetDampingVector(context, [])
    with pytest.raises(RuntimeError, match="damping must have size 0"):
        weld.SetDampingVector(context, [1.0])


@pytest.mark.parametrize("kind", ["revolute", "prismatic", "screw"])
def test_scalar_damping(kind):
    plant, joints = build(finalize=False)
    joint = joints[kind]
    if kind != "screw":
        joint.set_default_damping(damping=0.5)
        assert joint.default_damping() == 0.5
        for bad in (-1.0, np.nan):
            with pytest.raises(RuntimeError, match=f"'{kind}': set_default_damping\\(\\): damp"):
                joint.set_default_damping(bad)
    plant.Finalize()
    if kind != "screw":
        with pytest.raises(RuntimeError, match="set_default_damping\\(\\): may only be called"):
            joint.set_default_damping(1.0)
    context = plant.CreateDefaultContext()
    joint.SetDamping(context, damping=3.0)
    assert joint.GetDamping(context) == 3.0
    np.testing.assert_array_equal(joint.GetDampingVector(context), [3.0])
    for bad in (-3.0, np.nan):
        with pytest.raises(RuntimeError, match=f"'{kind}': SetDamping\\(\\): damping must be non"):
            joint.SetDamping(context, bad)
    with pytest.raises(TypeError):
        joint.SetDamping(context, [1.0])


# ---- state in a Context ------------------------------------------------------------------
def state_after(plant, joint, set_state):
    """(q, v) of a fresh default Context after ``set_state(context)``, which must return the
    joint, and (q0, v0) of the default Context."""
    context = plant.CreateDefaultContext()
    q0, v0 = plant.GetPositions(context), plant.GetVelocities(context)
    assert set_state(context) is joint
    return plant.GetPositions(context), plant.GetVelocities(context), q0, v0


def assert_slots(joint, q, v, q0, v0, q_values=None, v_values=None, q_at=0, v_at=0):
    """q and v equal q0 and v0 except ``q_values`` at joint position ``q_at``... ."""
    expected_q, expected_v = q0.copy(), v0.copy()
    if q_values is not None:
        start = joint.position_start() + q_at
        expected_q[start : start + np.size(q_values)] = q_values
    if v_values is not None:
        start = joint.velocity_start() + v_at
        expected_v[start : start + np.size(v_values)] = v_values
    np.testing.assert_array_equal(q, expected_q)
    np.testing.assert_array_equal(v, expected_v)


@pytest.fixture(scope="module")
def model():
    return build()


@pytest.mark.parametrize(
    "kind, set_q, get_q, set_v, get_v, q_name, v_name",
    [
        ("revolute", "set_angle", "get_angle", "set_angular_rate", "get_angular_rate", "angle",
         "angle"),
        ("prismatic", "set_translation", "get_translation", "set_translation_rate",
         "get_translation_rate", "translation", "translation_dot"),
    ],
)  # fmt: skip
def test_revolute_prismatic_state(kind, set_q, get_q, set_v, get_v, q_name, v_name, model):
    plant, joints = model
    joint = joints[kind]
    state = state_after(plant, joint, lambda c: getattr(joint, set_q)(c, **{q_name: 0.3}))
    assert_slots(joint, *state, q_values=[0.3])
    state = state_after(plant, joint, lambda c: getattr(joint, set_v)(context=c, **{v_name: 0.4}))
    assert_slots(joint, *state, v_values=[0.4])
    context = plant.CreateDefaultContext()
    getattr(joint, set_q)(context, 1)
    getattr(joint, set_v)(context, np.float32(0.5))
    assert (getattr(joint, get_q)(context), getattr(joint, get_v)(context)) == (1.0, 0.5)
    assert (joint.GetOnePosition(context), joint.GetOneVelocity(context)) == (1.0, 0.5)
    for bad in ([0.3], np.array([0.3]), "1", None):
        with pytest.raises(TypeError, match=f"{set_q}\\(\\): {q_name} must be a float"):
            getattr(joint, set_q)(context, bad)


def test_screw_state(model):
    plant, joints = model
    screw = joints["screw"]
    state = state_after(plant, screw, lambda c: screw.set_translation(c, translation=0.1))
    theta = (0.1 / PITCH) * 2 * np.pi
    assert_slots(screw, *state, q_values=[theta])
    state = state_after(plant, screw, lambda c: screw.set_angular_velocity(c, theta_dot=0.3))
    assert_slots(screw, *state, v_values=[0.3])
    state = state_after(
        plant, screw, lambda c: screw.set_translational_velocity(c, translation_dot=0.05)
    )
    assert_slots(screw, *state, v_values=[(0.05 / PITCH) * 2 * np.pi])
    context = plant.CreateDefaultContext()
    screw.set_translation(context, 0.1).set_angular_velocity(context, 0.3)
    assert screw.get_rotation(context) == theta
    assert screw.get_translation(context) == PITCH * (theta / (2 * np.pi))
    assert screw.get_angular_velocity(context) == 0.3
    assert screw.get_translational_velocity(context) == PITCH * (0.3 / (2 * np.pi))
    assert screw.GetOnePosition(context) == theta


def test_universal_and_ball_state(model):
    plant, joints = model
    universal, ball = joints["universal"], joints["ball_rpy"]
    state = state_after(plant, universal, lambda c: universal.set_angles(c, angles=[0.1, 0.2]))
    assert_slots(universal, *state, q_values=[0.1, 0.2])
    state = state_after(
        plant, universal, lambda c: universal.set_angular_rates(c, theta_dot=[3, 4])
    )
    assert_slots(universal, *state, v_values=[3, 4])
    state = state_after(plant, ball, lambda c: ball.set_angles(c, angles=[0.1, 0.2, 0.3]))
    assert_slots(ball, *state, q_values=[0.1, 0.2, 0.3])
    state = state_after(plant, ball, lambda c: ball.set_angular_velocity(c, w_FM=[1, 2, 3]))
    assert_slots(ball, *state, v_values=[1, 2, 3])
    context = plant.CreateDefaultContext()
    universal.set_angles(context, [0.1, 0.2]).set_angular_rates(context, [3, 4])
    ball.set_angles(context, [0.4, 0.5, 0.6]).set_angular_velocity(context, [1, 2, 3])
    np.testing.assert_array_equal(universal.get_angles(context), [0.1, 0.2])
    np.testing.assert_array_equal(universal.get_angular_rates(context), [3, 4])
    np.testing.assert_array_equal(ball.get_angles(context), [0.4, 0.5, 0.6])
    np.testing.assert_array_equal(ball.get_angular_velocity(context), [1, 2, 3])
    ball.get_angles(context)[:] = 0  # a copy
    np.testing.assert_array_equal(ball.get_angles(context), [0.4, 0.5, 0.6])
    with pytest.raises(TypeError):
        universal.set_angles(context, [0.1, 0.2, 0.3])
    with pytest.raises(TypeError):
        ball.set_angular_velocity(context, [1, 2])


def test_planar_state(model):
    plant, joints = model
    planar = joints["planar"]
    for set_state, q_values, v_values, q_at, v_at in (
        (lambda c: planar.set_translation(c, p_FoMo_F=[0.1, 0.2]), [0.1, 0.2], None, 0, 0),
        (lambda c: planar.set_rotation(c, theta=0.3), [0.3], None, 2, 0),
        (lambda c: planar.set_pose(c, p_FoMo_F=[1, 2], theta=3), [1, 2, 3], None, 0, 0),
        (lambda c: planar.set_translational_velocity(c, v_FoMo_F=[4, 5]), None, [4, 5], 0, 0),
        (lambda c: planar.set_angular_velocity(c, theta_dot=6), None, [6], 0, 2),
    ):
        state = state_after(plant, planar, set_state)
        assert_slots(planar, *state, q_values, v_values, q_at, v_at)
    context = plant.CreateDefaultContext()
    planar.set_pose(context, [1, 2], 3).set_translational_velocity(context, [4, 5])
    planar.set_angular_velocity(context, 6)
    np.testing.assert_array_equal(planar.get_translation(context), [1, 2])
    assert planar.get_rotation(context) == 3
    np.testing.assert_array_equal(planar.get_translational_velocity(context), [4, 5])
    assert planar.get_angular_velocity(context) == 6
    with pytest.raises(TypeError):
        planar.set_translation(context, [1, 2, 3])


@pytest.mark.parametrize("kind", ["rpy_floating", "quaternion_floating"])
def test_floating_state(kind, model):
    plant, joints = model
    joint = joints[kind]
    nr = 3 if kind == "rpy_floating" else 4
    state = state_after(plant, joint, lambda c: joint.SetTranslation(c, p_FM=[1, 2, 3]))
    assert_slots(joint, *state, q_values=[1, 2, 3], q_at=nr)
    state = state_after(plant, joint, lambda c: joint.set_angular_velocity(c, w_FM=[1, 2, 3]))
    assert_slots(joint, *state, v_values=[1, 2, 3])
    state = state_after(plant, joint, lambda c: joint.set_translational_velocity(c, v_FM=[4, 5, 6]))
    assert_slots(joint, *state, v_values=[4, 5, 6], v_at=3)
    for R in (RotationMatrix(RollPitchYaw(-0.5, 0.4, 0.2)), RotationMatrix(RollPitchYaw(-2, 1, 3))):
        keywords = {"R_FM" if kind == "rpy_floating" else "R": R}
        state = state_after(plant, joint, lambda c, k=keywords: joint.SetOrientation(c, **k))
        orientation = R.ToRollPitchYaw().vector() if nr == 3 else R.ToQuaternion().wxyz()
        assert_slots(joint, *state, q_values=orientation)
        X_FM = RigidTransform(R, [4, 5, 6])
        state = state_after(plant, joint, lambda c, X_FM=X_FM: joint.SetPose(c, X_FM=X_FM))
        assert_slots(joint, *state, q_values=np.append(orientation, [4, 5, 6]))
        context = plant.CreateDefaultContext()
        joint.SetPose(context, X_FM)
        assert joint.GetPose(context).IsNearlyEqualTo(X_FM, 1e-14)
        np.testing.assert_array_equal(joint.get_translation(context), [4, 5, 6])
    context = plant.CreateDefaultContext()
    joint.set_angular_velocity(context, [1, 2, 3]).set_translational_velocity(context, [4, 5, 6])
    np.testing.assert_array_equal(joint.get_angular_velocity(context), [1, 2, 3])
    np.testing.assert_array_equal(joint.get_translational_velocity(context), [4, 5, 6])
    with pytest.raises(TypeError):
        joint.SetPose(context, RotationMatrix())
    with pytest.raises(TypeError):
        joint.SetOrientation(context, RigidTransform())
    with pytest.raises(TypeError):
        joint.SetTranslation(context, [1, 2])


def test_rpy_floating_angles(model):
    plant, joints = model
    joint = joints["rpy_floating"]
    state = state_after(plant, joint, lambda c: joint.set_angles(c, angles=[0.1, 0.2, 0.3]))
    assert_slots(joint, *state, q_values=[0.1, 0.2, 0.3])
    context = plant.CreateDefaultContext()
    joint.set_angles(context, [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(joint.get_angles(context), [0.1, 0.2, 0.3])
    expected = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0, 0, 0])
    assert joint.GetPose(context).IsExactlyEqualTo(expected)


def test_quaternion_floating_quaternion(model):
    plant, joints = model
    joint = joints["quaternion_floating"]
    q = Quaternion([0.5, 0.5, 0.5, 0.5])
    state = state_after(plant, joint, lambda c: joint.SetQuaternion(c, q_FM=q))
    assert_slots(joint, *state, q_values=[0.5, 0.5, 0.5, 0.5])
    context = plant.CreateDefaultContext()
    joint.SetQuaternion(context, q)
    np.testing.assert_array_equal(joint.get_quaternion(context).wxyz(), q.wxyz())
    q_stored = plant.GetPositions(context)
    q_stored[joint.position_start()] = 2.0  # not normalized: read as stored
    plant.SetPositions(context, q_stored)
    np.testing.assert_array_equal(joint.get_quaternion(context).wxyz(), [2, 0.5, 0.5, 0.5])
    with pytest.raises(TypeError):
        joint.SetQuaternion(context, [1, 0, 0, 0])


@pytest.mark.parametrize(
    "kind", ["weld", "universal", "planar", "ball_rpy", "rpy_floating", "quaternion_floating"]
)
def test_one_position_needs_one_dof(kind, model):
    plant, joints = model
    context = plant.CreateDefaultContext()
    for method in ("GetOnePosition", "GetOneVelocity"):
        with pytest.raises(RuntimeError, match=f"'{kind}': {method}\\(\\): requires a joint with"):
            getattr(joints[kind], method)(context)


@pytest.mark.parametrize("kind", KINDS)
def test_lock(kind, model):
    plant, joints = model
    joint = joints[kind]
    context = plant.CreateDefaultContext()
    v = np.arange(1.0, plant.num_velocities() + 1)
    plant.SetVelocities(context, v)
    assert not joint.is_locked(context)
    assert joint.Lock(context) is None
    assert joint.is_locked(context)
    start, nv = joint.velocity_start(), joint.num_velocities()
    expected = v.copy()
    expected[start : start + nv] = 0
    np.testing.assert_array_equal(plant.GetVelocities(context), expected)
    assert not joint.is_locked(plant.CreateDefaultContext())
    joint.Unlock(context)
    assert not joint.is_locked(context)


def test_context_of_another_plant(model):
    plant, joints = model
    other, _ = build(["revolute"])
    context = other.CreateDefaultContext()
    for call in (
        lambda: joints["revolute"].get_angle(context),
        lambda: joints["revolute"].set_angle(context, 1.0),
        lambda: joints["planar"].GetDampingVector(context),
        lambda: joints["weld"].Lock(context),
    ):
        with pytest.raises(RuntimeError, match="Context"):
            call()


@pytest.mark.parametrize(
    "kind, method, args, q",
    [
        ("revolute", "set_random_angle_distribution", (0.3,), [0.3]),
        ("prismatic", "set_random_translation_distribution", (0.3,), [0.3]),
        ("screw", "set_random_pose_distribution", ([0.3],), [0.3]),
        ("universal", "set_random_angles_distribution", ([0.1, 0.2],), [0.1, 0.2]),
        ("planar", "set_random_pose_distribution", ([0.1, 0.2], 0.3), [0.1, 0.2, 0.3]),
        ("ball_rpy", "set_random_angles_distribution", ([0.1, 0.2, 0.3],), [0.1, 0.2, 0.3]),
        ("rpy_floating", "set_random_angles_distribution", ([0.1, 0.2, 0.3],),
         [0.1, 0.2, 0.3, 0, 0, 0]),
        ("rpy_floating", "set_random_translation_distribution", ([0.1, 0.2, 0.3],),
         [0, 0, 0, 0.1, 0.2, 0.3]),
        ("quaternion_floating", "set_random_quaternion_distribution", (Quaternion(),),
         [1, 0, 0, 0, 0, 0, 0]),
        ("quaternion_floating", "set_random_translation_distribution", ([1, 2, 3],),
         [1, 0, 0, 0, 1, 2, 3]),
    ],
)  # fmt: skip
def test_constant_random_distributions(kind, method, args, q):
    """Constant distributions (floats): SetRandomContext sets them; the positions not given
    take the zero configuration's values (tests/multibody/plant/test_random_state.py tests
    random ones)."""
    pytest.importorskip("sympy")
    from mallard.common import RandomGenerator

    plant, joints = build()  # not the shared model: the distribution stays with the joint
    joint = joints[kind]
    getattr(joint, method)(*args)
    context = plant.CreateDefaultContext()
    plant.SetRandomContext(context, RandomGenerator())
    start = joint.position_start()
    np.testing.assert_array_equal(plant.GetPositions(context)[start : start + len(q)], q)


# ---- X_FM(q), through the plant ----------------------------------------------------------
def Rx(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def Ry(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def Rz(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def R_about(axis, angle):
    """Rodrigues' formula."""
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def R_of_quaternion(w, x, y, z):
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def closed_form_X_FM(kind, q):
    """(R_FM, p_FoMo_F) of a joint of ``kind`` (as make_joint makes it) at positions q."""
    if kind == "weld":
        return X_WELD.rotation().matrix(), X_WELD.translation()
    if kind == "revolute":
        return R_about(AXIS, q[0]), np.zeros(3)
    if kind == "prismatic":
        return np.eye(3), q[0] * AXIS
    if kind == "screw":
        return R_about(AXIS, q[0]), PITCH * q[0] / (2 * np.pi) * AXIS
    if kind == "universal":
        return Rx(q[0]) @ Ry(q[1]), np.zeros(3)
    if kind == "planar":
        return Rz(q[2]), np.array([q[0], q[1], 0.0])
    if kind == "ball_rpy":
        return Rz(q[2]) @ Ry(q[1]) @ Rx(q[0]), np.zeros(3)
    if kind == "rpy_floating":
        return Rz(q[2]) @ Ry(q[1]) @ Rx(q[0]), q[3:]
    return R_of_quaternion(*q[:4] / np.linalg.norm(q[:4])), q[4:]


@pytest.mark.parametrize("kind", KINDS)
def test_X_FM_closed_forms(kind):
    plant, joints = build(offsets=True)
    joint = joints[kind]
    F, M = joint.frame_on_parent(), joint.frame_on_child()
    context = plant.CreateDefaultContext()
    rng = np.random.default_rng(7)
    for _ in range(3):
        q = rng.uniform(-2, 2, size=plant.num_positions())
        plant.SetPositions(context, q)
        q_joint = q[joint.position_start() : joint.position_start() + joint.num_positions()]
        R_FM, p_FM = closed_form_X_FM(kind, q_joint)
        X_FM = plant.CalcRelativeTransform(context, F, M)
        np.testing.assert_allclose(X_FM.rotation().matrix(), R_FM, atol=1e-14)
        np.testing.assert_allclose(X_FM.translation(), p_FM, atol=1e-14)
        if kind in ("rpy_floating", "quaternion_floating"):
            assert joint.GetPose(context).IsNearlyEqualTo(X_FM, 1e-14)


def test_default_model_instance_joint():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", M0)
    joint = plant.AddJoint(RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    assert joint.model_instance() == default_model_instance()
    with pytest.raises(RuntimeError, match="joint 'DefaultModelInstance::j' \\(1\\)"):
        joint.set_default_positions([])
