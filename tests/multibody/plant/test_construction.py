"""MultibodyPlant construction: model instances, bodies, frames, joints, actuators, force
elements, Finalize(), and the documented errors of each (pydrake 1.51's messages)."""

import math

import numpy as np
import pytest

from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    ForceElement,
    JointActuator,
    JointIndex,
    ModelInstanceIndex,
    PdControllerGains,
    PlanarJoint,
    PrismaticJoint,
    QuaternionFloatingJoint,
    RevoluteJoint,
    RigidBody,
    RotationalInertia,
    RpyFloatingJoint,
    ScrewJoint,
    SpatialInertia,
    UniformGravityFieldElement,
    UniversalJoint,
    WeldJoint,
    default_model_instance,
    world_model_instance,
)
from tests.multibody.plant.plant_models import box, library, revolute, two_instances

M = library("mallard")
BOX = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1)


def post_finalize(method):
    return (
        f"Post-finalize calls to '{method}()' are not allowed; calls to this method must happen "
        "before Finalize()."
    )


def tree_finalized(what):
    return (
        f"This MultibodyTree is finalized already. Therefore adding more {what} is not allowed. "
        "See documentation for Finalize() for details."
    )


def duplicate(instance, noun, name):
    return (
        f"Model instance '{instance}' already contains a {noun} named '{name}'. "
        f"{noun[0].upper() + noun[1:]} names must be unique within a given model."
    )


def raises(exc, message):
    """pytest.raises matching ``message`` exactly."""
    return pytest.raises(exc, match="^" + __import__("re").escape(message) + "$")


@pytest.fixture
def plant():
    return MultibodyPlant(0.0)


def finalized_with_body():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("a", BOX)
    plant.Finalize()
    return plant, body


# ---- the plant itself ---------------------------------------------------------------------


def test_fresh_plant(plant):
    assert plant.time_step() == 0.0
    assert not plant.is_finalized()
    assert (plant.num_bodies(), plant.num_frames(), plant.num_joints()) == (1, 1, 0)
    assert (plant.num_model_instances(), plant.num_force_elements()) == (2, 1)
    assert (plant.num_actuators(), plant.num_actuated_dofs(), plant.num_constraints()) == (0, 0, 0)
    world = plant.world_body()
    assert world.name() == "world" and world.index() == 0
    assert world.model_instance() == world_model_instance()
    assert plant.world_frame().name() == "world" and plant.world_frame().body() is world
    assert plant.GetModelInstanceName(world_model_instance()) == "WorldModelInstance"
    assert plant.GetModelInstanceName(default_model_instance()) == "DefaultModelInstance"


@pytest.mark.parametrize("time_step", [0.0, 0.01, math.inf])
def test_time_step(time_step):
    assert MultibodyPlant(time_step).time_step() == time_step
    assert MultibodyPlant(time_step=time_step).time_step() == time_step


@pytest.mark.parametrize("time_step", [-1.0, -1e-12, math.nan])
def test_negative_or_nan_time_step_raises_runtime_error(time_step):
    # pydrake fails a DRAKE_DEMAND here (SystemExit); mallard raises a RuntimeError.
    with pytest.raises(RuntimeError, match="time_step must be non-negative"):
        MultibodyPlant(time_step)


def test_system_identity(plant):
    assert plant.GetSystemType() == "drake::multibody::MultibodyPlant<double>"
    assert plant.get_name() == "" and plant.GetSystemPathname() == "::_"
    plant.set_name("myplant")
    assert plant.GetSystemPathname() == "::myplant"


# ---- model instances ----------------------------------------------------------------------


def test_add_model_instance(plant):
    assert plant.AddModelInstance("m1") == ModelInstanceIndex(2)
    assert plant.AddModelInstance("m2") == ModelInstanceIndex(3)
    assert plant.num_model_instances() == 4
    assert plant.GetModelInstanceByName("m2") == ModelInstanceIndex(3)
    assert isinstance(plant.GetModelInstanceByName("m2"), ModelInstanceIndex)


@pytest.mark.parametrize("name", ["m", "DefaultModelInstance", "WorldModelInstance"])
def test_add_model_instance_duplicate(plant, name):
    plant.AddModelInstance("m")
    message = (
        f"This model already contains a model instance named '{name}'. Model instance names "
        "must be unique within a given model."
    )
    with raises(RuntimeError, message):
        plant.AddModelInstance(name)


def test_add_model_instance_errors(plant):
    with pytest.raises(RuntimeError, match="cannot be empty"):
        plant.AddModelInstance("")  # pydrake: SystemExit
    with pytest.raises(TypeError):
        plant.AddModelInstance(3)
    plant.AddModelInstance("m")
    plant.Finalize()
    with raises(RuntimeError, tree_finalized("model instances")):
        plant.AddModelInstance("n")
    # The duplicate name is reported first, as by Drake.
    with pytest.raises(RuntimeError, match="already contains a model instance named 'm'"):
        plant.AddModelInstance("m")


def test_rename_model_instance(plant):
    m = plant.AddModelInstance("m")
    plant.AddModelInstance("k")
    body = plant.AddRigidBody("a", m, BOX)
    plant.RenameModelInstance(m, "z")
    assert plant.GetModelInstanceName(m) == "z"
    assert not plant.HasModelInstanceNamed("m") and plant.HasModelInstanceNamed("z")
    assert body.scoped_name().get_full() == "z::a"
    plant.RenameModelInstance(m, "z")  # its own name: fine
    with pytest.raises(RuntimeError, match="already contains a model instance named 'k'"):
        plant.RenameModelInstance(m, "k")
    with raises(RuntimeError, "There is no model instance id 9 in the model."):
        plant.RenameModelInstance(ModelInstanceIndex(9), "x")
    with pytest.raises(RuntimeError, match="cannot be empty"):
        plant.RenameModelInstance(m, "")
    plant.RenameModelInstance(world_model_instance(), "x")
    assert plant.GetModelInstanceName(world_model_instance()) == "x"
    plant.Finalize()
    with raises(RuntimeError, post_finalize("RenameModelInstance")):
        plant.RenameModelInstance(m, "y")


# ---- bodies -------------------------------------------------------------------------------


def test_add_rigid_body_overloads(plant):
    a = plant.AddRigidBody("a", BOX)
    b = plant.AddRigidBody("b")
    c = plant.AddRigidBody("c", default_model_instance(), BOX)
    d = plant.AddRigidBody(name="d", M_BBo_B=BOX)
    assert [x.index() for x in (a, b, c, d)] == [1, 2, 3, 4]
    assert all(x.model_instance() == default_model_instance() for x in (a, b, c, d))
    assert a.default_mass() == 1.0 and b.default_mass() == 0.0
    assert a.GetParentPlant() is plant and plant.get_body(a.index()) is a
    frame = a.body_frame()
    assert frame.name() == "a" and frame.body() is a and frame.is_body_frame()
    assert frame.index() == 1 and plant.num_frames() == 5


def test_add_rigid_body_explicit_instance(plant):
    m = plant.AddModelInstance("m")
    a = plant.AddRigidBody("a", m, BOX)
    b = plant.AddRigidBody("b", model_instance=m)
    assert a.model_instance() == m and b.model_instance() == m and b.default_mass() == 0.0
    assert plant.AddRigidBody("a", default_model_instance(), BOX).index() == 3  # other instance


@pytest.mark.parametrize("args", [(BOX,), ()])
def test_two_arg_add_rigid_body_with_more_instances_raises(plant, args):
    plant.AddModelInstance("m")
    message = (
        "This model has more model instances than the default.  Please call AddRigidBody with "
        "an explicit model instance."
    )
    with raises(RuntimeError, message):
        plant.AddRigidBody("x", *args)


def test_add_rigid_body_errors(plant):
    plant.AddRigidBody("a", BOX)
    with raises(RuntimeError, duplicate("DefaultModelInstance", "body", "a")):
        plant.AddRigidBody("a", BOX)
    message = (
        "AddLink(): Model instance index 0 is reserved for the World link.  World is always "
        "predefined and is named 'world'."
    )
    with raises(RuntimeError, message):
        plant.AddRigidBody("x", world_model_instance(), BOX)
    with raises(RuntimeError, "Invalid model instance specified."):
        plant.AddRigidBody("x", ModelInstanceIndex(99), BOX)
    with raises(RuntimeError, "The name parameter to the RigidBody constructor is required."):
        plant.AddRigidBody("", BOX)
    assert plant.AddRigidBody("world", BOX).index() == 2  # allowed outside WorldModelInstance


def test_add_rigid_body_after_finalize():
    plant, _ = finalized_with_body()
    with raises(RuntimeError, post_finalize("AddRigidBody")):
        plant.AddRigidBody("a", BOX)  # post-finalize reported before the duplicate name


def test_rigid_body_element(plant):
    body = RigidBody("x", BOX)
    assert body.index() == -1 and body.model_instance() == default_model_instance()
    assert repr(body) == "<RigidBody name='x' index=-1 model_instance=1>"
    with raises(RuntimeError, "This multibody element was not owned by a MultibodyPlant."):
        body.GetParentPlant()
    with raises(RuntimeError, "This multibody element was not owned by a MultibodyPlant."):
        body.scoped_name()
    assert RigidBody("y", ModelInstanceIndex(3), BOX).model_instance() == 3
    assert RigidBody(body_name="z", M_BBo_B=BOX).default_mass() == 1.0
    with raises(RuntimeError, "The name parameter to the RigidBody constructor is required."):
        RigidBody("")
    for args, kwargs in [
        ((3.0,), {}),
        ((BOX, BOX), {}),
        ((), {"mass": 1.0}),
        ((), {"model_instance": 1}),
    ]:
        with pytest.raises(TypeError):
            RigidBody("x", *args, **kwargs)
    with pytest.raises(TypeError):
        RigidBody(3)
    added = plant.AddRigidBody("b", BOX)
    assert repr(added) == "<RigidBody name='b' index=1 model_instance=1>"
    assert repr(plant.world_body()) == "<RigidBody name='world' index=0 model_instance=0>"
    assert added.scoped_name().get_full() == "DefaultModelInstance::b"
    assert plant.world_body().scoped_name().get_full() == "WorldModelInstance::world"


def test_rigid_body_defaults():
    I_BBcm = RotationalInertia(0.01, 0.02, 0.03)
    M = SpatialInertia.MakeFromCentralInertia(2.0, [0.1, 0.2, 0.3], I_BBcm)
    body = RigidBody("b", M)
    assert body.default_mass() == 2.0
    np.testing.assert_array_equal(body.default_com(), [0.1, 0.2, 0.3])
    for got, want in [
        (body.default_spatial_inertia().CopyToFullMatrix6(), M.CopyToFullMatrix6()),
        (
            body.default_rotational_inertia().CopyToFullMatrix3(),
            M.CalcRotationalInertia().CopyToFullMatrix3(),
        ),
        (
            body.default_unit_inertia().CopyToFullMatrix3(),
            M.get_unit_inertia().CopyToFullMatrix3(),
        ),
    ]:
        np.testing.assert_allclose(got, want, rtol=1e-15)
    assert body.default_spatial_inertia() is not body.default_spatial_inertia()  # copies
    assert math.isnan(MultibodyPlant(0.0).world_body().default_mass())


def test_constructors_copy_their_arguments_unless_adopting():
    M = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)
    X = RigidTransform([1.0, 2.0, 3.0])
    instance = default_model_instance()
    for body in (RigidBody("b", M), RigidBody._new("b", instance, M)):
        assert body._M_BBo_B is not M and body._M_BBo_B._p is not M._p
        assert body._M_BBo_B._G is not M._G
    assert RigidBody._adopting("b", instance, M)._M_BBo_B is M
    world = MultibodyPlant(0.0).world_frame()
    for frame in (FixedOffsetFrame("f", world, X), FixedOffsetFrame._new("f", world, X, instance)):
        assert frame._X_PF is not X and frame._X_PF._p is not X._p
        assert frame._X_PF._R._R is not X._R._R
    assert FixedOffsetFrame._adopting("f", world, X, instance)._X_PF is X


def test_add_checked_is_add_rigid_body_add_frame_and_add_joint(plant):
    """The parsers' bulk entry point: the elements, indices, ordinals and names that the
    public methods give, in one call."""
    instance = plant.AddModelInstance("m")
    M = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)
    a, b = (RigidBody._adopting(name, instance, M) for name in "ab")
    F = FixedOffsetFrame._adopting("F", a.body_frame(), RigidTransform([0, 0, 1.0]), instance)
    joint = RevoluteJoint("j", F, b.body_frame(), [0, 0, 1.0])
    plant._add_checked([a, b], [F], [joint])
    assert plant.GetBodyByName("b", instance) is b and plant.GetFrameByName("F") is F
    assert plant.GetJointByName("j", instance) is joint
    assert [int(e.index()) for e in (a, b, F, joint)] == [1, 2, 3, 0]
    assert [int(e.body_frame().index()) for e in (a, b)] == [1, 2]
    assert [e._ordinal for e in (a, b, F, joint)] == [1, 2, 3, 0]
    with pytest.raises(RuntimeError, match="already has joint 'j'"):
        plant.AddJoint(RevoluteJoint("k", a.body_frame(), b.body_frame(), [0, 0, 1.0]))
    plant.Finalize()
    assert plant.num_positions() == 8 and joint.position_start() == 7


# ---- frames -------------------------------------------------------------------------------


def test_add_frame(plant):
    a = plant.AddRigidBody("a", BOX)
    X = RigidTransform([1.0, 2.0, 3.0])
    F = plant.AddFrame(FixedOffsetFrame("F", a.body_frame(), X))
    G = plant.AddFrame(FixedOffsetFrame("G", F, X, ModelInstanceIndex(0)))
    assert (F.index(), G.index(), plant.num_frames()) == (2, 3, 4)
    assert F.body() is a and G.body() is a and F.model_instance() == default_model_instance()
    assert G.model_instance() == world_model_instance() and not F.is_body_frame()
    assert plant.get_frame(F.index()) is F
    assert repr(F) == "<FixedOffsetFrame name='F' index=2 model_instance=1>"
    assert repr(a.body_frame()) == "<RigidBodyFrame name='a' index=1 model_instance=1>"


def test_add_frame_errors(plant):
    a = plant.AddRigidBody("a", BOX)
    F = plant.AddFrame(FixedOffsetFrame("F", a.body_frame(), RigidTransform()))
    with raises(RuntimeError, duplicate("DefaultModelInstance", "frame", "F")):
        plant.AddFrame(FixedOffsetFrame("F", a.body_frame(), RigidTransform()))
    with raises(RuntimeError, duplicate("DefaultModelInstance", "frame", "F")):
        plant.AddFrame(F)  # the same frame again: its name is taken
    with raises(RuntimeError, duplicate("DefaultModelInstance", "frame", "a")):
        plant.AddFrame(
            FixedOffsetFrame("a", plant.world_frame(), RigidTransform(), default_model_instance())
        )
    other = MultibodyPlant(0.0).AddRigidBody("x", BOX)
    # Drake does not check this; mallard refuses a parent frame from another plant.
    with pytest.raises(RuntimeError, match="not part of this MultibodyPlant"):
        plant.AddFrame(FixedOffsetFrame("G", other.body_frame(), RigidTransform()))
    with pytest.raises(TypeError):
        plant.AddFrame(a.body_frame())
    elsewhere = MultibodyPlant(0.0)
    taken = FixedOffsetFrame("T", elsewhere.world_frame(), RigidTransform())
    elsewhere.AddFrame(taken)
    with pytest.raises(RuntimeError, match="was already added to a plant"):
        plant.AddFrame(taken)
    plant.Finalize()
    with raises(RuntimeError, tree_finalized("frames")):
        plant.AddFrame(FixedOffsetFrame("H", a.body_frame(), RigidTransform()))


# ---- joints -------------------------------------------------------------------------------


def test_add_joint(plant):
    a = plant.AddRigidBody("a", BOX)
    m = plant.AddModelInstance("m")
    b = plant.AddRigidBody("b", m, BOX)
    ja = plant.AddJoint(RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 0, 1]))
    jb = plant.AddJoint(PrismaticJoint("jb", a.body_frame(), b.body_frame(), [1, 0, 0]))
    assert (ja.index(), jb.index(), plant.num_joints()) == (0, 1, 2)
    assert plant.get_joint(JointIndex(1)) is jb
    # A joint belongs to its child frame's model instance.
    assert ja.model_instance() == default_model_instance() and jb.model_instance() == m
    G = plant.AddFrame(
        FixedOffsetFrame("G", b.body_frame(), RigidTransform(), default_model_instance())
    )
    c = plant.AddRigidBody("c", m, BOX)
    jc = plant.AddJoint(WeldJoint("jc", c.body_frame(), G, RigidTransform()))
    assert jc.model_instance() == default_model_instance()
    jw = plant.AddJoint(RevoluteJoint("jw", c.body_frame(), plant.world_frame(), [0, 0, 1]))
    assert jw.model_instance() == world_model_instance()
    assert plant.num_frames() == 5  # world, a, b, G, c: joints add no frames


def test_add_joint_duplicate_name(plant):
    a, b = plant.AddRigidBody("a", BOX), plant.AddRigidBody("b", BOX)
    j = revolute(M, plant, "j", plant.world_body(), a)
    with raises(RuntimeError, duplicate("DefaultModelInstance", "joint", "j")):
        revolute(M, plant, "j", a, b)
    with raises(RuntimeError, duplicate("DefaultModelInstance", "joint", "j")):
        plant.AddJoint(j)
    m = plant.AddModelInstance("m")
    c = plant.AddRigidBody("c", m, BOX)
    assert revolute(M, plant, "j", a, c).model_instance() == m  # other instance: fine


def test_weld_self_joint(plant):
    a = plant.AddRigidBody("a", BOX)
    F = plant.AddFrame(FixedOffsetFrame("F", a.body_frame(), RigidTransform()))
    with raises(RuntimeError, "AddJoint(): joint a_welds_to_F would connect body a to itself."):
        plant.WeldFrames(a.body_frame(), F)
    message = "AddJoint(): joint world_welds_to_world would connect body world to itself."
    with raises(RuntimeError, message):
        plant.WeldFrames(plant.world_frame(), plant.world_frame())


def test_revolute_self_joint_raises_at_add_joint(plant):
    a = plant.AddRigidBody("a", BOX)
    F = plant.AddFrame(FixedOffsetFrame("F", a.body_frame(), RigidTransform()))
    joint = RevoluteJoint("j1", a.body_frame(), F, [0, 0, 1])
    with raises(RuntimeError, "AddJoint(): joint j1 would connect body a to itself."):
        plant.AddJoint(joint)


def test_second_joint_between_two_bodies(plant):
    m = plant.AddModelInstance("m")
    a = plant.AddRigidBody("a", m, BOX)
    b = plant.AddRigidBody("b", m, BOX)
    revolute(M, plant, "j1", plant.world_body(), a)
    message = (
        "AddJoint(): This LinkJointGraph already has joint 'j1' (model instance 2) connecting "
        "link 'world' to link 'a'. Therefore adding joint '{}' (model instance {}) connecting "
        "link '{}' to link '{}' is not allowed."
    )
    with raises(RuntimeError, message.format("j2", 0, "a", "world")):
        revolute(M, plant, "j2", a, plant.world_body())
    with raises(RuntimeError, message.format("world_welds_to_a", 2, "world", "a")):
        plant.WeldFrames(plant.world_frame(), a.body_frame())
    revolute(M, plant, "jab", a, b)
    with pytest.raises(RuntimeError, match="already has joint 'jab'"):
        plant.AddJoint(PrismaticJoint("k", a.body_frame(), b.body_frame(), [1, 0, 0]))


def test_add_joint_between_plants(plant):
    other = MultibodyPlant(0.0)
    x = other.AddRigidBody("x", BOX)
    message = (
        "AddJoint(): can't add joint jx because bodies world and x are from different "
        "MultibodyPlants."
    )
    with raises(RuntimeError, message):
        plant.AddJoint(RevoluteJoint("jx", plant.world_frame(), x.body_frame(), [0, 0, 1]))
    lonely = RigidBody("lonely", BOX)
    with pytest.raises(RuntimeError, match="different MultibodyPlants"):
        plant.AddJoint(RevoluteJoint("jl", plant.world_frame(), lonely.body_frame(), [0, 0, 1]))
    a = plant.AddRigidBody("a", BOX)
    F = FixedOffsetFrame("F", a.body_frame(), RigidTransform())  # not added
    with pytest.raises(RuntimeError, match="must be added to this plant"):
        plant.AddJoint(RevoluteJoint("jf", plant.world_frame(), F, [0, 0, 1]))
    with pytest.raises(TypeError):
        plant.AddJoint("joint")
    with pytest.raises(TypeError):
        plant.AddJoint(RevoluteJoint("jt", plant.world_frame(), a.body_frame(), [0, 0, 1]), 1)


def test_add_joint_cpp_overload(plant):
    """``AddJoint(JointType, name, parent, X_PF, child, X_BM, ...)``, C++'s AddJoint<T>."""
    a, b, c = (plant.AddRigidBody(n, BOX) for n in "abc")
    X = RigidTransform([0.0, 0.0, 0.5])
    j1 = plant.AddJoint(RevoluteJoint, "j1", plant.world_body(), X, a, None, [0, 0, 1])
    assert j1.frame_on_parent().name() == "j1_parent" and j1.frame_on_child() is a.body_frame()
    np.testing.assert_array_equal(
        j1.frame_on_parent().GetFixedPoseInBodyFrame().translation(), [0, 0, 0.5]
    )
    j2 = plant.AddJoint(PrismaticJoint, "j2", a, None, b, X, [1, 0, 0])
    assert j2.frame_on_parent() is a.body_frame() and j2.frame_on_child().name() == "j2_child"
    assert j2.frame_on_child().body() is b
    j3 = plant.AddJoint(WeldJoint, "j3", b, RigidTransform(), c, RigidTransform(), X)
    assert (j3.frame_on_parent().name(), j3.frame_on_child().name()) == ("j3_parent", "j3_child")
    assert plant.num_frames() == 4 + 4
    with pytest.raises(TypeError):
        plant.AddJoint(RevoluteJoint, "j4", a.body_frame(), None, c, None, [0, 0, 1])
    # Both new frames are in the child's model instance (as in Drake), so a second "j1" finds
    # its frame name taken first. A failed call adds nothing.
    assert j1.frame_on_parent().model_instance() == a.model_instance()
    with raises(RuntimeError, duplicate("DefaultModelInstance", "frame", "j1_parent")):
        plant.AddJoint(RevoluteJoint, "j1", a, X, c, X, [0, 0, 1])
    with raises(RuntimeError, duplicate("DefaultModelInstance", "joint", "j1")):
        plant.AddJoint(RevoluteJoint, "j1", a, None, c, None, [0, 0, 1])
    with pytest.raises(RuntimeError, match="axis"):
        plant.AddJoint(RevoluteJoint, "j6", a, X, c, X, [0, 0, 0])
    assert (plant.num_frames(), plant.num_joints()) == (8, 3)
    plant.Finalize()
    with raises(RuntimeError, post_finalize("AddJoint")):
        plant.AddJoint(RevoluteJoint, "j5", plant.world_body(), None, c, None, [0, 0, 1])


def test_weld_frames(plant):
    m = plant.AddModelInstance("m")
    a = plant.AddRigidBody("a", m, BOX)
    F = plant.AddFrame(FixedOffsetFrame("F", plant.world_frame(), RigidTransform([1.0, 0, 0])))
    weld = plant.WeldFrames(F, a.body_frame())
    assert isinstance(weld, WeldJoint) and weld.name() == "F_welds_to_a"
    assert weld.model_instance() == m and weld.frame_on_parent() is F
    assert weld.X_FM().IsExactlyIdentity()
    b = plant.AddRigidBody("b", m, BOX)
    X = RigidTransform(RotationMatrix.MakeZRotation(0.3), [0, 1.0, 0])
    weld2 = plant.WeldFrames(
        frame_on_parent_F=a.body_frame(), frame_on_child_M=b.body_frame(), X_FM=X
    )
    assert weld2.X_FM().IsExactlyEqualTo(X)
    with raises(RuntimeError, duplicate("m", "joint", "a_welds_to_b")):
        plant.WeldFrames(a.body_frame(), b.body_frame())


# ---- actuators ----------------------------------------------------------------------------


def test_add_joint_actuator(plant):
    a = plant.AddRigidBody("a", BOX)
    j = revolute(M, plant, "j", plant.world_body(), a)
    act = plant.AddJointActuator("act", j)
    assert act.index() == 0 and act.joint() is j and act.name() == "act"
    assert act.effort_limit() == math.inf and act.model_instance() == j.model_instance()
    assert plant.get_joint_actuator(act.index()) is act
    act2 = plant.AddJointActuator("act2", j, 2.5)  # a second actuator on one joint: allowed
    assert act2.effort_limit() == 2.5
    assert act2.index() == 1
    assert (plant.num_actuators(), plant.num_actuated_dofs()) == (2, 2)
    plant.Finalize()
    np.testing.assert_array_equal(plant.MakeActuationMatrix(), [[1.0, 1.0]])


@pytest.mark.parametrize("limit, shown", [(0, "0"), (-1, "-1"), (math.nan, "nan")])
def test_add_joint_actuator_effort_limit(plant, limit, shown):
    a = plant.AddRigidBody("a", BOX)
    j = revolute(M, plant, "j", plant.world_body(), a)
    message = f"JointActuator effort limit must be strictly positive (not {shown})"
    with raises(RuntimeError, message):
        plant.AddJointActuator("act", j, limit)


@pytest.mark.parametrize(
    "make, dofs",
    [
        (lambda W, B: UniversalJoint("u", W, B), 2),
        (lambda W, B: WeldJoint("u", W, B, RigidTransform()), 0),
        (lambda W, B: QuaternionFloatingJoint("u", W, B), 6),
        (lambda W, B: PlanarJoint("u", W, B, [0, 0, 0]), 3),
    ],
)
def test_add_joint_actuator_needs_one_dof(plant, make, dofs):
    a = plant.AddRigidBody("a", BOX)
    joint = plant.AddJoint(make(plant.world_frame(), a.body_frame()))
    message = (
        f"Calling AddJointActuator with joint u failed -- this joint has {dofs} degrees of "
        "freedom, and MultibodyPlant currently only supports actuators for single "
        "degree-of-freedom joints. See https://stackoverflow.com/q/71477852/9510020 for the "
        "common workarounds."
    )
    with raises(RuntimeError, message):
        plant.AddJointActuator("act", joint, 0.0)  # the dofs are checked first


def test_add_joint_actuator_errors_in_drake_order(plant):
    a = plant.AddRigidBody("a", BOX)
    j = revolute(M, plant, "j", plant.world_body(), a)
    plant.AddJointActuator("act", j)
    with raises(RuntimeError, duplicate("DefaultModelInstance", "joint actuator", "act")):
        plant.AddJointActuator("act", j, 0.0)
    with pytest.raises(TypeError):
        plant.AddJointActuator("x", "j")
    plant.Finalize()
    with raises(RuntimeError, duplicate("DefaultModelInstance", "joint actuator", "act")):
        plant.AddJointActuator("act", j)
    with raises(RuntimeError, tree_finalized("actuators")):
        plant.AddJointActuator("new", j, 0.0)


# ---- force elements and gravity -----------------------------------------------------------


class Spring(ForceElement):
    """A force element written in Python."""


def test_force_element_defaults(plant):
    spring = plant.AddForceElement(Spring())
    assert spring.model_instance() == default_model_instance()
    assert repr(spring) == "<Spring index=1 model_instance=1>"
    plant.Finalize()
    context = plant.CreateDefaultContext()
    assert spring.CalcPotentialEnergy(context) == 0.0
    assert spring.CalcConservativePower(context) == 0.0
    assert spring.CalcNonConservativePower(context) == 0.0
    with pytest.raises(NotImplementedError, match="CalcAndAddForceContribution"):
        spring.CalcAndAddForceContribution(context, None)


def test_add_force_element(plant):
    spring = plant.AddForceElement(Spring())
    assert spring.index() == 1 and plant.num_force_elements() == 2
    assert plant.get_force_element(spring.index()) is spring and spring.GetParentPlant() is plant
    message = (
        "This model already contains a gravity field element. Only one gravity field element "
        "is allowed per model."
    )
    with raises(RuntimeError, message):
        plant.AddForceElement(UniformGravityFieldElement())
    with pytest.raises(RuntimeError, match="already added"):
        plant.AddForceElement(spring)
    with pytest.raises(TypeError):
        plant.AddForceElement("spring")
    plant.Finalize()
    with raises(RuntimeError, post_finalize("AddForceElement")):
        plant.AddForceElement(Spring())


def test_gravity_field(plant):
    g = plant.gravity_field()
    assert g is plant.mutable_gravity_field() and g.index() == 0
    assert g.model_instance() == world_model_instance()
    assert repr(g) == "<UniformGravityFieldElement index=0 model_instance=0>"
    assert UniformGravityFieldElement.kDefaultStrength == 9.81
    np.testing.assert_array_equal(g.gravity_vector(), [0, 0, -9.81])
    g.set_gravity_vector([0.0, 1.0, 2.0])
    np.testing.assert_array_equal(g.gravity_vector(), [0, 1, 2])
    g.gravity_vector()[0] = 5.0  # a copy
    np.testing.assert_array_equal(g.gravity_vector(), [0, 1, 2])
    np.testing.assert_array_equal(
        UniformGravityFieldElement([1.0, 2.0, 3.0]).gravity_vector(), [1, 2, 3]
    )
    with pytest.raises(TypeError):
        UniformGravityFieldElement([1.0, 2.0])
    with pytest.raises(TypeError):
        g.is_enabled(1)
    with pytest.raises(TypeError):
        g.set_gravity_vector([1.0, 2.0, 3.0, 4.0])


def test_gravity_enabled(plant):
    m = plant.AddModelInstance("m")
    g = plant.mutable_gravity_field()
    assert g.is_enabled(m) and plant.is_gravity_enabled(m)
    assert g.is_enabled(world_model_instance())
    g.set_enabled(m, False)
    assert not g.is_enabled(m) and not plant.is_gravity_enabled(m)
    assert plant.is_gravity_enabled(default_model_instance())
    plant.set_gravity_enabled(m, True)
    assert g.is_enabled(m)
    plant.set_gravity_enabled(m, False)
    for call in (
        lambda: g.is_enabled(ModelInstanceIndex(5)),
        lambda: g.set_enabled(ModelInstanceIndex(5), False),
        lambda: plant.is_gravity_enabled(ModelInstanceIndex(5)),
        lambda: plant.set_gravity_enabled(ModelInstanceIndex(5), False),
    ):
        with raises(RuntimeError, "Model instance index is invalid."):
            call()
    plant.Finalize()
    assert not g.is_enabled(m)
    with raises(RuntimeError, "Gravity can only be enabled pre-finalize."):
        g.set_enabled(m, True)
    with raises(RuntimeError, post_finalize("set_gravity_enabled")):
        plant.set_gravity_enabled(m, True)


def test_gravity_field_not_in_a_plant():
    g = UniformGravityFieldElement()
    assert g.index() == -1
    for call in (
        lambda: g.is_enabled(default_model_instance()),
        lambda: g.set_enabled(default_model_instance(), False),
        g.GetParentPlant,
    ):
        # pydrake: SystemExit for the first two.
        with raises(RuntimeError, "This multibody element was not owned by a MultibodyPlant."):
            call()


# ---- Finalize -----------------------------------------------------------------------------


LOOP = (
    "The bodies and joints of this system form one or more loops in the system graph. Drake "
    "currently does not support automatic modeling of such systems; however, they can be "
    "modeled with some input changes. See "
    "https://drake.mit.edu/troubleshooting.html#mbp-loops-in-graph for advice on how to model "
    "systems with loops."
)


def test_finalize_twice():
    plant, _ = finalized_with_body()
    assert plant.is_finalized()
    with raises(RuntimeError, "MultibodyTreeSystem::Finalize(): repeated calls not allowed."):
        plant.Finalize()


def test_finalize_loop(plant):
    a, b, c, f = (plant.AddRigidBody(n, BOX) for n in "abcf")
    revolute(M, plant, "j1", plant.world_body(), a)
    revolute(M, plant, "j2", a, b)
    revolute(M, plant, "j3", b, c)
    revolute(M, plant, "j4", c, a)
    for _ in range(2):
        with raises(RuntimeError, LOOP):
            plant.Finalize()
        # A failed Finalize() leaves the plant as it was (no floating joint for f).
        assert not plant.is_finalized() and plant.num_joints() == 4
        assert not plant.HasJointNamed("f") and plant.num_frames() == 5


def test_finalize_two_inboard_joints(plant):
    a, b = plant.AddRigidBody("a", BOX), plant.AddRigidBody("b", BOX)
    revolute(M, plant, "j1", plant.world_body(), a)
    revolute(M, plant, "j2", plant.world_body(), b)
    revolute(M, plant, "j3", a, b)  # accepted here; the loop is found at Finalize()
    with raises(RuntimeError, LOOP):
        plant.Finalize()


def test_finalize_weld_loop(plant):
    a, b = plant.AddRigidBody("a", BOX), plant.AddRigidBody("b", BOX)
    plant.WeldFrames(plant.world_frame(), a.body_frame())
    plant.WeldFrames(a.body_frame(), b.body_frame())
    plant.WeldFrames(plant.world_frame(), b.body_frame())
    with raises(RuntimeError, LOOP):
        plant.Finalize()


def test_finalize_floating_loop(plant):
    a, b, c = (plant.AddRigidBody(n, BOX) for n in "abc")
    revolute(M, plant, "j1", a, b)
    revolute(M, plant, "j2", b, c)
    revolute(M, plant, "j3", c, a)
    with raises(RuntimeError, LOOP):
        plant.Finalize()


@pytest.mark.parametrize(
    "make, kind",
    [
        (lambda P, C: ScrewJoint("jj", P, C, [0, 0, 1], 0.1, 0.0), "screw"),
        (lambda P, C: UniversalJoint("jj", P, C), "universal"),
        (lambda P, C: PlanarJoint("jj", P, C, [0, 0, 0]), "planar"),
        (lambda P, C: BallRpyJoint("jj", P, C), "ball_rpy"),
        (lambda P, C: RpyFloatingJoint("jj", P, C), "rpy_floating"),
        (lambda P, C: QuaternionFloatingJoint("jj", P, C), "quaternion_floating"),
    ],
)
def test_finalize_unsupported_reversed_joint(plant, make, kind):
    m = plant.AddModelInstance("m")
    a = plant.AddRigidBody("a", m, BOX)
    plant.AddJoint(make(a.body_frame(), plant.world_frame()))
    message = (
        f"MultibodyPlant::Finalize(): parent/child ordering for {kind} joint jj in model "
        "instance WorldModelInstance would have to be reversed to make a tree-structured model "
        f"for this system. Currently Drake does not support reversed {kind} joints. The joints "
        "that can be reversed are: prismatic, revolute, weld. Reverse the ordering in your "
        "joint definition so that its parent body is closer to World in the tree."
    )
    with raises(RuntimeError, message):
        plant.Finalize()


def test_create_default_context_before_finalize(plant):
    plant.AddRigidBody("a", BOX)
    message = (
        "MultibodyPlant cannot SetDefaultParameters or CreateDefaultContext until after "
        "MultibodyPlant::Finalize() has been called."
    )
    with raises(RuntimeError, message):
        plant.CreateDefaultContext()
    with raises(RuntimeError, message):
        plant.AllocateContext()
    with raises(RuntimeError, message):
        plant.SetDefaultParameters(None, None)


@pytest.mark.parametrize(
    "construct, message",
    [
        (lambda p, a: p.AddRigidBody("b", BOX), post_finalize("AddRigidBody")),
        (
            lambda p, a: p.AddJoint(RevoluteJoint("j", p.world_frame(), a.body_frame(), [0, 0, 1])),
            post_finalize("AddJoint"),
        ),
        (lambda p, a: p.WeldFrames(p.world_frame(), a.body_frame()), post_finalize("AddJoint")),
        (lambda p, a: p.AddForceElement(Spring()), post_finalize("AddForceElement")),
        (
            lambda p, a: p.AddFrame(FixedOffsetFrame("F", a.body_frame(), RigidTransform())),
            tree_finalized("frames"),
        ),
        (lambda p, a: p.AddModelInstance("m"), tree_finalized("model instances")),
        (
            lambda p, a: p.set_gravity_enabled(default_model_instance(), False),
            post_finalize("set_gravity_enabled"),
        ),
        (
            lambda p, a: p.RenameModelInstance(default_model_instance(), "x"),
            post_finalize("RenameModelInstance"),
        ),
    ],
)
def test_construction_after_finalize(construct, message):
    plant, body = finalized_with_body()
    counts = (plant.num_bodies(), plant.num_joints(), plant.num_frames())
    with raises(RuntimeError, message):
        construct(plant, body)
    assert (plant.num_bodies(), plant.num_joints(), plant.num_frames()) == counts


def test_add_joint_actuator_after_finalize_on_floating_joint():
    # Drake checks the joint's dofs before the finalized state.
    plant, body = finalized_with_body()
    with pytest.raises(RuntimeError, match="this joint has 6 degrees of freedom"):
        plant.AddJointActuator("a", plant.get_joint(JointIndex(0)))


def test_finalize_declares_state(plant):
    model = two_instances(M, finalize=False)
    assert model.num_continuous_states() == 0
    model.Finalize()
    assert (model.num_continuous_states(), model.num_discrete_state_groups()) == (32, 0)
    discrete = two_instances(M, time_step=0.01)
    assert (discrete.num_continuous_states(), discrete.num_discrete_state_groups()) == (0, 1)
    context = model.CreateDefaultContext()
    assert context.get_continuous_state().num_q() == 17
    assert context.get_continuous_state().num_v() == 15
    assert box(M).get_mass() == 1.0


def test_rollback_removes_everything_added_since_the_checkpoint():
    from mallard.math import RigidTransform
    from mallard.multibody.tree import (
        FixedOffsetFrame,
        RevoluteJoint,
        RevoluteSpring,
        SpatialInertia,
    )

    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", SpatialInertia.SolidBoxWithMass(1, 1, 1, 1))
    checkpoint = plant._checkpoint()
    mi = plant.AddModelInstance("robot")
    b = plant.AddRigidBody("b", mi, SpatialInertia.SolidBoxWithMass(1, 1, 1, 1))
    F = plant.AddFrame(FixedOffsetFrame("F", b.body_frame(), RigidTransform()))
    j = plant.AddJoint(RevoluteJoint("j", a.body_frame(), F, [0, 0, 1]))
    plant.AddJointActuator("u", j)
    plant.AddForceElement(RevoluteSpring(j, 0.0, 1.0))
    plant.set_gravity_enabled(mi, False)
    plant._rollback(checkpoint)
    assert (plant.num_bodies(), plant.num_frames(), plant.num_joints()) == (2, 2, 0)
    assert (plant.num_actuators(), plant.num_force_elements()) == (0, 1)
    assert plant.num_model_instances() == 2 and not plant.HasBodyNamed("b")
    assert not plant.HasModelInstanceNamed("robot") and not plant.HasFrameNamed("F")
    assert not plant.HasJointNamed("j") and not plant.HasJointActuatorNamed("u")
    assert b.GetParentPlant is not None and b._plant is None
    # The names are free again, so are the two bodies for a joint, and the plant works.
    mi = plant.AddModelInstance("robot")
    b = plant.AddRigidBody("b", mi, SpatialInertia.SolidBoxWithMass(1, 1, 1, 1))
    plant.AddJoint(RevoluteJoint("j", a.body_frame(), b.body_frame(), [0, 0, 1]))
    plant.Finalize()
    assert plant.num_positions() == 8


def test_fixed_offset_frame_takes_its_parent_frames_model_instance():
    from mallard.math import RigidTransform
    from mallard.multibody.tree import FixedOffsetFrame, SpatialInertia

    plant = MultibodyPlant(0.0)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    body = plant.AddRigidBody("b", m1, SpatialInertia.SolidBoxWithMass(1, 1, 1, 1))
    F = plant.AddFrame(FixedOffsetFrame("F", body.body_frame(), RigidTransform(), m2))
    G = plant.AddFrame(FixedOffsetFrame("G", F, RigidTransform()))
    assert G.model_instance() == m2 and G.body() is body
    H = plant.AddFrame(FixedOffsetFrame("H", body, RigidTransform()))
    assert H.model_instance() == m1


def test_lookups_by_name_alone_follow_additions_removals_and_rollbacks():
    from mallard.multibody.tree import RevoluteJoint

    plant = MultibodyPlant(0.0)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    a1, a2 = plant.AddRigidBody("a", m1, BOX), plant.AddRigidBody("a", m2, BOX)
    b2 = plant.AddRigidBody("b", m2, BOX)
    assert plant.GetBodyByName("b") is b2 and plant.HasBodyNamed("a", m1)
    with pytest.raises(RuntimeError, match="appears in multiple model instances"):
        plant.GetBodyByName("a")  # (in two model instances)
    joint = plant.AddJoint(RevoluteJoint("j", a2.body_frame(), b2.body_frame(), [0, 0, 1]))
    assert plant.GetJointByName("j") is joint
    plant.RemoveJoint(joint)
    assert not plant.HasJointNamed("j")
    checkpoint = plant._checkpoint()
    m3 = plant.AddModelInstance("m3")
    plant.AddRigidBody("c", m3, BOX)
    plant._rollback(checkpoint)
    assert not plant.HasBodyNamed("c") and not plant.HasModelInstanceNamed("m3")
    assert plant.GetModelInstanceByName("m2") == m2 and plant.GetBodyByName("a", m1) is a1
    plant.RenameModelInstance(m1, "m3")
    assert plant.GetModelInstanceByName("m3") == m1 and not plant.HasModelInstanceNamed("m1")


def test_bulk_entry_points_make_and_add_what_the_public_methods_add():
    """_add_bodies_in_rows and _add_joints_in_rows (a reader's document made and added at
    once, each element in its place) leave the plant as AddRigidBody, AddFrame and AddJoint
    leave it: the elements, indices, ordinals, names, joints between bodies and the plant's
    rows; here after a removed joint (indices ahead of ordinals) and with a weld among the
    moving joints."""
    inertias = np.arange(3 * 13, dtype=float).reshape(3, 13)
    inertias[:, 0] = 1.0
    poses = np.zeros((3, 12))
    poses[:, :9] = np.eye(3).reshape(-1)
    poses[:, 9:] = [[0, 0, -0.5], [0, 1, 0], [2, 0, 0]]
    axis = np.array([0.0, 0.0, 1.0])
    limits = np.array([[-1.0, 1.0, -2.0, 2.0, -3.0, 3.0]] * 3)
    classes = [RevoluteJoint, WeldJoint, PrismaticJoint]
    plants = []
    for bulk in (True, False):
        plant = MultibodyPlant(0.0)
        first = plant.AddRigidBody("first", BOX)
        plant.RemoveJoint(plant.AddJoint(WeldJoint("w", plant.world_frame(), first.body_frame(),
                                                   RigidTransform())))  # fmt: skip
        instance = plant.AddModelInstance("m")
        names = ["a", "b", "c", "d"]
        rows = [(inertias, 0), (inertias, 1), (inertias, 2), (inertias, 0)]
        if bulk:
            bodies = plant._add_bodies_in_rows(names, instance, rows)
        else:
            bodies = [
                plant.AddRigidBody(name, instance, SpatialInertia._from_row(*row))
                for name, row in zip(names, rows, strict=True)
            ]
        parents, children = bodies[:3], bodies[1:]
        frame_names = [f"j{k}_parent" for k in range(3)]
        joint_names = [f"j{k}" for k in range(3)]
        pose_rows = [(poses, k) for k in range(3)]
        if bulk:
            frames, joints = plant._add_joints_in_rows(
                frame_names, parents, pose_rows, classes, joint_names, children,
                [axis, None, axis], [(limits, 0), None, (limits, 2)], [None, None, 0.5],
            )  # fmt: skip
        else:
            frames = [
                plant.AddFrame(FixedOffsetFrame(name, parent.body_frame(), RigidTransform(
                    RotationMatrix(poses[k, :9].reshape(3, 3)), poses[k, 9:])))
                for k, (name, parent) in enumerate(zip(frame_names, parents, strict=True))
            ]  # fmt: skip
            joints = [
                plant.AddJoint(RevoluteJoint("j0", frames[0], children[0].body_frame(), axis,
                                             -1.0, 1.0, 0.0)),
                plant.AddJoint(WeldJoint("j1", frames[1], children[1].body_frame(),
                                         RigidTransform())),
                plant.AddJoint(PrismaticJoint("j2", frames[2], children[2].body_frame(), axis,
                                              -1.0, 1.0, 0.5)),
            ]  # fmt: skip
            for joint in (joints[0], joints[2]):
                joint.set_velocity_limits([-2.0], [2.0])
                joint.set_acceleration_limits([-3.0], [3.0])
        registered = [
            (type(e).__name__, e.name(), int(e.index()), e._ordinal, int(e.model_instance()),
             e._plant is plant)
            for e in (*bodies, *map(RigidBody.body_frame, bodies), *frames, *joints)
        ]  # fmt: skip
        names = {kind: list(by_name.items()) for kind, by_name in plant._names.items()}
        between = {ends: joint.name() for ends, joint in plant._joint_between.items()}
        limits_of = [
            (j.position_lower_limits().tolist(), j.velocity_upper_limits().tolist(),
             j.acceleration_lower_limits().tolist(), j.default_damping_vector().tolist())
            for j in joints
        ]  # fmt: skip
        plants.append((registered, [[(k, e.name()) for k, e in v] for v in names.values()],
                       between, plant._joint_rows, plant._body_instances, plant._offset_frames,
                       dict(plant._next_index), limits_of))  # fmt: skip
        plant.Finalize()
        assert plant.num_positions() == 2 * 7 + 2  # (first and a float)
    assert plants[0] == plants[1]
    assert plants[0][0][-3][2:4] == (1, 0)  # (j0: index 1, ordinal 0, after the removed one)


def test_actuators_made_in_rows_are_those_add_joint_actuator_and_its_setters_make():
    """JointActuator._in_rows in the plant's places (_places) added by _add_placed: the
    actuators, fields (in their order), indices, ordinals, input starts and names that
    AddJointActuator and the setters (gear ratio, rotor inertia, controller gains) give,
    here after a removed actuator (indices ahead of ordinals)."""
    made = []
    for bulk in (True, False):
        plant = MultibodyPlant(0.0)
        instance = plant.AddModelInstance("m")
        a, b = (plant.AddRigidBody(name, instance, BOX) for name in "ab")
        joints = [
            plant.AddJoint(RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 0, 1.0])),
            plant.AddJoint(PrismaticJoint("jb", a.body_frame(), b.body_frame(), [1.0, 0, 0])),
        ]
        plant.RemoveJointActuator(plant.AddJointActuator("gone", joints[0]))
        names, limits, ratios = ["u", "v", "w"], [1.5, math.inf, 2.0], [1.0, 3.0, 0.5]
        inertias, gains = [0.0, 0.25, 0.125], [None, (10.0, 1.0), (0.0, 2.0)]
        on = [joints[0], joints[1], joints[0]]
        if bulk:
            actuators = JointActuator._in_rows(
                names, on, limits, inertias, ratios,
                [None if g is None else PdControllerGains._new(*g) for g in gains],
                plant._places("_actuators", 3),
            )  # fmt: skip
            plant._add_placed(actuators=actuators)
        else:
            actuators = []
            for name, joint, limit, inertia, ratio, pd in zip(
                names, on, limits, inertias, ratios, gains, strict=True
            ):
                actuator = plant.AddJointActuator(name, joint, limit)
                actuator.set_default_gear_ratio(ratio)
                actuator.set_default_rotor_inertia(inertia)
                if pd is not None:
                    actuator.set_controller_gains(PdControllerGains(p=pd[0], d=pd[1]))
                actuators.append(actuator)
        fields = [
            [(name, value is plant if name == "_plant" else
              (value.p, value.d) if name == "_gains" and value is not None else repr(value))
             for name, value in vars(actuator).items()]
            for actuator in actuators
        ]  # fmt: skip
        assert [plant.GetJointActuatorByName(name) for name in names] == actuators
        made.append((fields, dict(plant._next_index), plant.num_actuated_dofs()))
        plant.Finalize()
        assert plant.GetEffortUpperLimits().tolist() == limits
    assert made[0] == made[1]
    assert made[0][0][0][1:3] == [("_index", "JointActuatorIndex(1)"), ("_ordinal", "0")]
