"""The numbers MultibodyPlant keeps of its elements as it adds them (joint rows, bodies' model
instances and inertia rows, FixedOffsetFrames' ordinals and pose rows), which Finalize reads
instead of the elements: equal to the elements' after every way of adding, removing and
rolling back, and the default parameters they give read once at Finalize."""

import numpy as np
import pytest

from mallard.math import RigidTransform
from mallard.multibody.parsing import Parser
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    FixedOffsetFrame,
    PrismaticJoint,
    RevoluteJoint,
    SpatialInertia,
)

BOX = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)

URDF = (
    """<robot name="r">
  <link name="base"><inertial><mass value="2"/><inertia ixx="1" iyy="1" izz="1" ixy="0"
    ixz="0" iyz="0"/></inertial></link>
"""
    + "".join(
        f"""  <link name="l{i}"><inertial><mass value="{i + 1}"/><inertia ixx="1" iyy="2" izz="3"
    ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j{i}" type="{"revolute" if i % 2 else "prismatic"}">
    <parent link="{"base" if i == 0 else f"l{i - 1}"}"/><child link="l{i}"/>
    <origin xyz="0 0 {i}"/><axis xyz="0 1 0"/><limit lower="-1" upper="1"/></joint>
"""
        for i in range(8)
    )
    + "</robot>"
)


def rows_of_elements(plant):
    """The rows the plant should keep, read from its elements."""
    joints = [
        (
            int(j.frame_on_parent().body().index()),
            int(j.frame_on_child().body().index()),
            j.num_positions(),
            j.num_velocities(),
            int(j.model_instance()),
            j._jtype,
        )  # fmt: skip
        for j in plant._joints
    ]
    offset = [k for k, f in enumerate(plant._frames) if isinstance(f, FixedOffsetFrame)]
    return (
        joints,
        [int(b.model_instance()) for b in plant._bodies],
        [b._inertia_row for b in plant._bodies],
        offset,
        [plant._frames[k]._pose_row for k in offset],
    )


def assert_rows(plant):
    joints, instances, inertia_rows, offset, pose_rows = rows_of_elements(plant)
    assert plant._joint_rows == joints
    assert plant._body_instances == instances
    assert plant._offset_frames == offset
    for kept, rows in ((plant._inertia_rows, inertia_rows), (plant._pose_rows, pose_rows)):
        assert len(kept) == len(rows)
        for a, b in zip(kept, rows, strict=True):  # (the same array of rows, the same row)
            assert a is b or (a[0] is b[0] and a[1] == b[1])


def test_rows_follow_every_way_of_adding_and_removing():
    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", BOX)
    mi = plant.AddModelInstance("m")
    b = plant.AddRigidBody("b", mi, BOX)
    c = plant.AddRigidBody("c", mi, BOX)
    F = plant.AddFrame(FixedOffsetFrame("F", b.body_frame(), RigidTransform([0, 0, 1])))
    plant.AddJoint(RevoluteJoint("ab", a.body_frame(), F, [0, 0, 1]))
    j = plant.AddJoint(PrismaticJoint, "bc", b, RigidTransform([1, 0, 0]), c, None, [1, 0, 0])
    plant.WeldFrames(plant.world_frame(), a.body_frame())
    assert_rows(plant)
    Parser(plant).AddModelsFromString(URDF, "urdf")  # (the URDF reader's bulk path)
    assert any(row is not None for row in plant._inertia_rows)
    assert any(row is not None for row in plant._pose_rows)
    assert_rows(plant)
    plant.RemoveJoint(j)
    assert_rows(plant)
    checkpoint = plant._checkpoint()
    Parser(plant, "again").AddModelsFromString(URDF, "urdf")
    plant._rollback(checkpoint)
    assert_rows(plant)
    plant.Finalize()  # (floating joints for c and the URDF's base; mobilizer frames)
    assert_rows(plant)
    assert plant._joint_rows[-1][:2] == (0, int(c.index()))


def test_a_failed_finalize_leaves_the_rows_as_they_were():
    plant = MultibodyPlant(0.0)
    a, b, c, _ = (plant.AddRigidBody(n, BOX) for n in "abcf")  # (f: a floating base)
    plant.AddJoint(RevoluteJoint("ab", a.body_frame(), b.body_frame(), [0, 1, 1]))
    plant.AddJoint(RevoluteJoint("bc", b.body_frame(), c.body_frame(), [0, 0, 1]))
    plant.AddJoint(RevoluteJoint("ca", c.body_frame(), a.body_frame(), [1, 0, 0]))
    before = rows_of_elements(plant)
    with pytest.raises(RuntimeError, match="loops"):
        plant.Finalize()
    assert rows_of_elements(plant) == before
    assert_rows(plant)


def test_default_parameters_are_read_once_and_copied():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromString(URDF, "urdf")
    plant.Finalize()
    first, second = plant._default_parameters(), plant._default_parameters()
    for name in ("mass", "com", "G", "X_PF", "damping"):
        x, y = getattr(first, name), getattr(second, name)
        assert np.array_equal(x, y, equal_nan=True) and not np.shares_memory(x, y)
    # A Context's parameters are its own: changing them changes no other Context's.
    context, other = plant.CreateDefaultContext(), plant.CreateDefaultContext()
    body = plant.GetBodyByName("l3")
    body.SetMass(context, 10.0)
    assert body.get_mass(context) == 10.0 and body.get_mass(other) == 4.0
    assert plant.CreateDefaultContext() is not None
    assert body.get_mass(plant.CreateDefaultContext()) == 4.0


@pytest.mark.parametrize("documents", [1, 3])
def test_default_parameters_of_rows_equal_the_elements(documents):
    # (one document: one array of rows, read in one take; three: rows of three arrays)
    plant = MultibodyPlant(0.0)
    for i in range(documents):
        Parser(plant, f"r{i}").AddModelsFromString(URDF, "urdf")
    b = plant.AddRigidBody("b", plant.AddModelInstance("m"), BOX)  # (no rows: b and F)
    plant.AddFrame(FixedOffsetFrame("F", b.body_frame(), RigidTransform([1, 2, 3])))
    assert len({id(row[0]) for row in plant._inertia_rows if row is not None}) == documents
    plant.Finalize()
    parameters = plant._default_parameters()
    for body in plant._bodies[1:]:
        M = body.default_spatial_inertia()
        k = int(body.index())
        assert parameters.mass[k] == M.get_mass()
        assert np.array_equal(parameters.com[k], M.get_com())
        assert np.array_equal(parameters.G[k], M.get_unit_inertia().CopyToFullMatrix3())
    for frame in plant._frames:
        X = parameters.X_PF[int(frame.index())]
        if isinstance(frame, FixedOffsetFrame):
            assert np.array_equal(X[:3], frame._X_PF.rotation().matrix())
            assert np.array_equal(X[3], frame._X_PF.translation())
        else:
            assert np.array_equal(X, np.eye(4, 3))
