"""MultibodyPlant introspection: counts, lookups by index and name, model instances, the
topology (q/v ordering, floating bases, welds, graphviz), limits, coordinate names and
selector matrices, with pydrake 1.51's values and messages (notes/pydrake_behavior.md)."""

import math
import re

import numpy as np
import pytest

from mallard.math import RigidTransform
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    BodyIndex,
    FixedOffsetFrame,
    ForceElementIndex,
    FrameIndex,
    JointActuatorIndex,
    JointIndex,
    ModelInstanceIndex,
    PrismaticJoint,
    QuaternionFloatingJoint,
    RevoluteJoint,
    default_model_instance,
    world_model_instance,
)
from tests.multibody.plant.plant_models import (
    ALL_JOINTS,
    all_joints,
    bodies,
    box,
    graphviz_model,
    instances_forest,
    library,
    mixed_forest,
    revolute,
    selector_model,
    two_instances,
    welds_forest,
)

M = library("mallard")
MI = ModelInstanceIndex


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


def pre_finalize(method):
    return f"Pre-finalize calls to '{method}()' are not allowed; you must call Finalize() first."


def starts(plant):
    """{joint name: (q start, nq, v start, nv)}."""
    return {
        j.name(): (j.position_start(), j.num_positions(), j.velocity_start(), j.num_velocities())
        for j in (plant.get_joint(i) for i in plant.GetJointIndices())
    }


def names(elements):
    return [e.name() for e in elements]


# ---- counts -------------------------------------------------------------------------------


def test_counts():
    plant = two_instances(M, finalize=False)
    counts = (plant.num_bodies(), plant.num_joints(), plant.num_frames())
    assert counts == (6, 3, 8)
    assert (plant.num_actuators(), plant.num_actuated_dofs(), plant.num_force_elements()) == (
        3,
        3,
        1,
    )
    plant.Finalize()
    # Finalize() added floating joints for c and d, and no frames.
    assert (plant.num_bodies(), plant.num_joints(), plant.num_frames()) == (6, 5, 8)
    assert (plant.num_positions(), plant.num_velocities(), plant.num_multibody_states()) == (
        17,
        15,
        32,
    )
    per_instance = [
        (
            plant.num_positions(MI(i)),
            plant.num_velocities(MI(i)),
            plant.num_multibody_states(MI(i)),
            plant.num_actuators(MI(i)),
            plant.num_actuated_dofs(MI(i)),
        )
        for i in range(4)
    ]
    assert per_instance == [(0, 0, 0, 0, 0), (7, 6, 13, 0, 0), (2, 2, 4, 2, 2), (8, 7, 15, 1, 1)]
    assert isinstance(plant.num_positions(), int)
    assert plant.num_constraints() == 0


@pytest.mark.parametrize(
    "query, method",
    [
        (lambda p: p.num_positions(), "num_positions"),
        (lambda p: p.num_positions(default_model_instance()), "num_positions"),
        (lambda p: p.num_velocities(), "num_velocities"),
        (lambda p: p.num_velocities(default_model_instance()), "num_velocities"),
        (lambda p: p.num_multibody_states(), "num_states"),
        (lambda p: p.num_multibody_states(default_model_instance()), "num_states"),
        (lambda p: p.num_actuators(default_model_instance()), "num_actuators"),
        (lambda p: p.num_actuated_dofs(default_model_instance()), "num_actuated_dofs"),
        (lambda p: p.MakeActuationMatrix(), "num_velocities"),
        (lambda p: p.IsVelocityEqualToQDot(), "num_positions"),
        (lambda p: p.GetFloatingBaseBodies(), "GetFloatingBaseBodies"),
        (lambda p: p.IsAnchored(p.world_body()), "IsAnchored"),
        (
            lambda p: p.HasUniqueFloatingBaseBody(default_model_instance()),
            "HasUniqueFloatingBaseBody",
        ),
        (
            lambda p: p.GetUniqueFloatingBaseBodyOrThrow(default_model_instance()),
            "GetUniqueFloatingBaseBodyOrThrow",
        ),
        (lambda p: p.GetPositionLowerLimits(), "GetPositionLowerLimits"),
        (lambda p: p.GetPositionUpperLimits(), "GetPositionUpperLimits"),
        (lambda p: p.GetVelocityLowerLimits(), "GetVelocityLowerLimits"),
        (lambda p: p.GetVelocityUpperLimits(), "GetVelocityUpperLimits"),
        (lambda p: p.GetAccelerationLowerLimits(), "GetAccelerationLowerLimits"),
        (lambda p: p.GetAccelerationUpperLimits(), "GetAccelerationUpperLimits"),
        (lambda p: p.GetEffortLowerLimits(), "GetEffortLowerLimits"),
        (lambda p: p.GetEffortUpperLimits(), "GetEffortUpperLimits"),
        (lambda p: p.GetPositionNames(), "GetPositionNames"),
        (lambda p: p.GetVelocityNames(), "GetVelocityNames"),
        (lambda p: p.GetStateNames(), "GetPositionNames"),
        (lambda p: p.GetActuatorNames(), "GetActuatorNames"),
        (lambda p: p.MakeStateSelectorMatrix([]), "MakeStateSelectorMatrix"),
        (lambda p: p.MakeActuatorSelectorMatrix([]), "MakeActuatorSelectorMatrix"),
        (lambda p: p.GetBodiesKinematicallyAffectedBy([]), "GetBodiesKinematicallyAffectedBy"),
        (lambda p: p.GetDefaultPositions(), "GetDefaultPositions"),
    ],
)
def test_queries_before_finalize(query, method):
    plant = MultibodyPlant(0.0)
    plant.AddRigidBody("a", box(M))
    with raises(RuntimeError, pre_finalize(method)):
        query(plant)


def test_queries_that_work_before_finalize():
    plant = two_instances(M, finalize=False)
    assert (plant.num_actuators(), plant.num_actuated_dofs()) == (3, 3)
    assert plant.GetBodyByName("b").name() == "b"
    assert names(plant.GetBodiesWeldedTo(plant.world_body())) == ["world"]
    assert plant.GetJointIndices() == [JointIndex(0), JointIndex(1), JointIndex(2)]


# ---- elements by index --------------------------------------------------------------------


@pytest.mark.parametrize(
    "getter, index_type, label, count",
    [
        ("get_body", BodyIndex, "RigidBodyIndex", 6),
        ("get_joint", JointIndex, "JointIndex", 5),
        ("get_mutable_joint", JointIndex, "JointIndex", 5),
        ("get_frame", FrameIndex, "FrameIndex", 8),
        ("get_joint_actuator", JointActuatorIndex, "JointActuatorIndex", 3),
        ("get_mutable_joint_actuator", JointActuatorIndex, "JointActuatorIndex", 3),
        ("get_force_element", ForceElementIndex, "ForceElementIndex", 1),
    ],
)
def test_get_by_index(getter, index_type, label, count):
    plant = two_instances(M)
    get = getattr(plant, getter)
    for i in range(count):
        assert get(index_type(i)).index() == i
    message = f"The given {label}(99) is out of bounds (must be less than {count})"
    with raises(RuntimeError, message):
        get(index_type(99))
    message = (
        f"The given default-constructed {label}() cannot be used. You must pass a valid integer "
        "as the index."
    )
    with raises(RuntimeError, message):
        get(index_type())
    with raises(RuntimeError, message):
        get(index_type(-1))
    with pytest.raises(TypeError):
        get(1)
    wrong = JointIndex if index_type is not JointIndex else BodyIndex
    with pytest.raises(TypeError):
        get(wrong(0))


def test_has_joint():
    plant = two_instances(M)
    assert plant.has_joint(JointIndex(4)) and not plant.has_joint(JointIndex(5))
    assert plant.has_joint_actuator(JointActuatorIndex(2))
    assert not plant.has_joint_actuator(JointActuatorIndex(3))


def test_world_elements():
    plant = two_instances(M)
    assert plant.world_body() is plant.get_body(BodyIndex(0))
    assert plant.world_frame() is plant.get_frame(FrameIndex(0))
    assert plant.world_frame().is_world_frame() and plant.world_frame().is_body_frame()
    assert plant.GetBodyByName("world") is plant.world_body()
    assert plant.GetFrameByName("world") is plant.world_frame()


# ---- model instances ----------------------------------------------------------------------


def test_model_instances():
    plant = two_instances(M)
    assert [plant.GetModelInstanceName(MI(i)) for i in range(4)] == [
        "WorldModelInstance",
        "DefaultModelInstance",
        "m1",
        "m2",
    ]
    assert plant.HasModelInstanceNamed("m2") and not plant.HasModelInstanceNamed("zzz")
    assert plant.GetModelInstanceByName("m1") == MI(2)
    with raises(RuntimeError, "There is no model instance id 99 in the model."):
        plant.GetModelInstanceName(MI(99))
    message = (
        "GetModelInstanceByName(): There is no model instance named 'zzz'. The current model "
        "instances are 'DefaultModelInstance', 'WorldModelInstance', 'm1', 'm2'."
    )
    with raises(RuntimeError, message):
        plant.GetModelInstanceByName("zzz")
    plant2 = MultibodyPlant(0.0)
    plant2.AddModelInstance("A")
    with pytest.raises(RuntimeError, match="are 'A', 'DefaultModelInstance', 'World"):
        plant2.GetModelInstanceByName("zzz")


def test_indices_by_model_instance():
    plant = two_instances(M)
    assert plant.GetBodyIndices(MI(2)) == [BodyIndex(1), BodyIndex(2)]
    assert plant.GetBodyIndices(world_model_instance()) == [BodyIndex(0)]
    assert plant.GetJointIndices(MI(3)) == [JointIndex(2), JointIndex(3)]
    assert plant.GetJointIndices() == [JointIndex(i) for i in range(5)]
    assert plant.GetFrameIndices(MI(3)) == [FrameIndex(3), FrameIndex(4), FrameIndex(7)]
    assert plant.GetJointActuatorIndices(MI(2)) == [JointActuatorIndex(0), JointActuatorIndex(2)]
    assert plant.GetJointActuatorIndices() == [JointActuatorIndex(i) for i in range(3)]
    assert plant.GetActuatedJointIndices(MI(2)) == [JointIndex(0), JointIndex(1)]
    for getter in (
        plant.GetBodyIndices,
        plant.GetJointIndices,
        plant.GetFrameIndices,
        plant.GetJointActuatorIndices,
        plant.GetActuatedJointIndices,
    ):
        # pydrake: SystemExit.
        with raises(
            RuntimeError, "The given ModelInstanceIndex(9) is out of bounds (must be less than 4)"
        ):
            getter(MI(9))


def test_actuated_joints_in_actuator_order():
    plant = selector_model(M)
    m1 = plant.GetModelInstanceByName("m1")
    assert plant.GetJointActuatorIndices(m1) == [JointActuatorIndex(1), JointActuatorIndex(2)]
    assert plant.GetActuatedJointIndices(m1) == [JointIndex(2), JointIndex(0)]
    assert [plant.get_joint_actuator(JointActuatorIndex(i)).input_start() for i in range(4)] == [
        0,
        1,
        2,
        3,
    ]


# ---- elements by name ---------------------------------------------------------------------


def test_lookup_by_name():
    plant = two_instances(M)
    assert plant.GetBodyByName("b").index() == 2
    assert plant.GetBodyByName("a", MI(3)).index() == 3
    assert plant.GetRigidBodyByName("a", MI(2)).index() == 1
    assert plant.GetFrameByName("F", MI(3)).index() == 7
    assert plant.GetJointByName("jb").index() == 1
    assert plant.GetJointByName(name="c", model_instance=MI(3)).is_ephemeral()
    assert plant.GetMutableJointByName("jb") is plant.GetJointByName("jb")
    assert plant.GetJointActuatorByName("actb").index() == 2
    assert plant.GetJointActuatorByName("act", MI(3)).joint().name() == "j"
    assert plant.HasBodyNamed("b") and not plant.HasBodyNamed("zzz")
    assert plant.HasBodyNamed("b", MI(2)) and not plant.HasBodyNamed("b", MI(3))
    assert plant.HasJointNamed("jb") and plant.HasJointNamed("j", MI(2))
    assert plant.HasFrameNamed("F", MI(2)) and not plant.HasFrameNamed("zzz")
    assert plant.HasJointActuatorNamed("act", MI(3)) and not plant.HasJointActuatorNamed("x")
    assert plant.NumBodiesWithName("a") == 2 and plant.NumBodiesWithName("zz") == 0


def test_lookup_missing_everywhere():
    plant = two_instances(M)
    message = (
        "GetRigidBodyByName(): There is no RigidBody named 'zzz' anywhere in the model (valid "
        "names in model instance 'WorldModelInstance' are: world; valid names in model instance "
        "'DefaultModelInstance' are: d; valid names in model instance 'm1' are: a, b; valid "
        "names in model instance 'm2' are: a, c)"
    )
    with raises(RuntimeError, message):
        plant.GetBodyByName("zzz")
    with raises(RuntimeError, message):
        plant.GetRigidBodyByName("zzz", MI(2))
    message = (
        "GetJointByName(): There is no Joint named 'zzz' anywhere in the model (valid names in "
        "model instance 'DefaultModelInstance' are: d; valid names in model instance 'm1' are: "
        "j, jb; valid names in model instance 'm2' are: c, j)"
    )
    with raises(RuntimeError, message):
        plant.GetJointByName("zzz")
    message = (
        "GetFrameByName(): There is no Frame named 'zzz' anywhere in the model (valid names in "
        "model instance 'WorldModelInstance' are: world; valid names in model instance "
        "'DefaultModelInstance' are: d; valid names in model instance 'm1' are: F, a, b; valid "
        "names in model instance 'm2' are: F, a, c)"
    )
    with raises(RuntimeError, message):
        plant.GetFrameByName("zzz")
    message = (
        "GetJointActuatorByName(): There is no JointActuator named 'zzz' anywhere in the model "
        "(valid names in model instance 'm1' are: act, actb; valid names in model instance "
        "'m2' are: act)"
    )
    with raises(RuntimeError, message):
        plant.GetJointActuatorByName("zzz")


def test_lookup_pre_finalize_lists_only_user_joints():
    plant = two_instances(M, finalize=False)
    with pytest.raises(RuntimeError, match=r"'m2' are: j\)$"):
        plant.GetJointByName("zzz")


def test_lookup_in_other_instance():
    plant = two_instances(M)
    message = (
        "GetRigidBodyByName(): There is no RigidBody named 'b' in the model instance named "
        "'m2', but one does exist in other model instances (m1)."
    )
    with raises(RuntimeError, message):
        plant.GetBodyByName("b", MI(3))
    with pytest.raises(RuntimeError, match="no Joint named 'jb' in the model instance named"):
        plant.GetJointByName("jb", MI(3))


@pytest.mark.parametrize(
    "lookup, method, kind, name",
    [
        (lambda p: p.GetBodyByName("a"), "GetRigidBodyByName", "RigidBody", "a"),
        (lambda p: p.GetRigidBodyByName("a"), "GetRigidBodyByName", "RigidBody", "a"),
        (lambda p: p.HasBodyNamed("a"), "HasRigidBodyNamed", "RigidBody", "a"),
        (lambda p: p.GetJointByName("j"), "GetJointByName", "Joint", "j"),
        (lambda p: p.HasJointNamed("j"), "HasJointNamed", "Joint", "j"),
        (lambda p: p.GetFrameByName("F"), "GetFrameByName", "Frame", "F"),
        (lambda p: p.HasFrameNamed("F"), "HasFrameNamed", "Frame", "F"),
        (
            lambda p: p.GetJointActuatorByName("act"),
            "GetJointActuatorByName",
            "JointActuator",
            "act",
        ),
        (lambda p: p.HasJointActuatorNamed("act"), "HasJointActuatorNamed", "JointActuator", "act"),
    ],
)
def test_lookup_ambiguous(lookup, method, kind, name):
    plant = two_instances(M)
    message = (
        f"{method}(): A {kind} named '{name}' appears in multiple model instances (m1, m2); you "
        "must provide a model_instance argument to disambiguate."
    )
    with raises(RuntimeError, message):
        lookup(plant)


def test_lookup_by_name_alone_follows_additions_and_removals():
    """Lookups without a model instance see the elements added and removed between them
    (the plant's index by name is brought up to date when asked)."""
    plant = two_instances(M, finalize=False)
    assert plant.HasJointNamed("jb") and plant.GetJointByName("jb").name() == "jb"
    m1 = plant.GetModelInstanceByName("m1")
    e = plant.AddRigidBody("e", m1, box(M))
    jc = plant.AddJoint(RevoluteJoint("jc", e.body_frame(), plant.GetBodyByName("c").body_frame(),
                                      [0, 1, 0]))  # fmt: skip
    assert plant.GetBodyByName("e") is e and plant.GetJointByName("jc") is jc
    plant.RemoveJoint(jc)
    assert not plant.HasJointNamed("jc") and plant.GetJointByName("jb").name() == "jb"
    m2 = plant.GetModelInstanceByName("m2")
    plant.AddJoint(RevoluteJoint("jc", plant.world_frame(), plant.GetBodyByName("c").body_frame(),
                                 [0, 1, 0]))  # fmt: skip
    assert plant.GetJointByName("jc").model_instance() == m2
    plant.AddRigidBody("e", m2, box(M))  # (now in two instances)
    with pytest.raises(RuntimeError, match="appears in multiple model instances"):
        plant.GetBodyByName("e")
    plant.RemoveJoint(plant.GetJointByName("jc"))
    assert not plant.HasJointNamed("jc") and plant.HasBodyNamed("e", m1)


@pytest.mark.parametrize(
    "lookup",
    [
        lambda p: p.GetBodyByName("a", MI(9)),
        lambda p: p.HasBodyNamed("a", MI(9)),
        lambda p: p.GetJointByName("j", MI(9)),
        lambda p: p.HasJointNamed("j", MI(9)),
        lambda p: p.GetFrameByName("F", MI(9)),
        lambda p: p.HasFrameNamed("F", MI(9)),
        lambda p: p.GetJointActuatorByName("act", MI(9)),
        lambda p: p.HasJointActuatorNamed("act", MI(9)),
    ],
)
def test_lookup_invalid_model_instance(lookup):
    with raises(RuntimeError, "There is no model instance id 9 in the model."):
        lookup(two_instances(M))


# ---- topology: q and v ordering -----------------------------------------------------------


def chain(plant, names_, joints, world_first=True):
    """Bodies ``names_`` and revolute joints (name, parent, child) between them."""
    by_name = {"world": plant.world_body()}
    by_name.update(zip(names_, bodies(M, plant, names_), strict=True))
    for name, parent, child in joints:
        revolute(M, plant, name, by_name[parent], by_name[child])
    plant.Finalize()
    return plant


def test_chain_order_independent_of_joint_and_body_order():
    joints = [("j0", "world", "b0"), ("j1", "b0", "b1"), ("j2", "b1", "b2"), ("j3", "b2", "b3")]
    for body_names, joint_list in [
        (["b0", "b1", "b2", "b3"], joints),
        (["b0", "b1", "b2", "b3"], joints[::-1]),
        (["b3", "b2", "b1", "b0"], joints),
    ]:
        plant = chain(MultibodyPlant(0.0), body_names, joint_list)
        assert plant.GetPositionNames(False) == ["j0_q", "j1_q", "j2_q", "j3_q"]
        assert {n: s[0] for n, s in starts(plant).items()} == {"j0": 0, "j1": 1, "j2": 2, "j3": 3}


def test_depth_first_children_by_joint_index():
    plant = MultibodyPlant(0.0)
    base = bodies(M, plant, ["base"])[0]
    plant.AddJoint(PrismaticJoint("jbase", plant.world_frame(), base.body_frame(), [1, 0, 0]))
    names_ = ["L0", "R0", "L1", "R1", "L2", "R2"]
    by_name = dict(zip(names_, bodies(M, plant, names_), strict=True), base=base)
    for name, parent, child in [
        ("jL0", "base", "L0"),
        ("jR0", "base", "R0"),
        ("jL1", "L0", "L1"),
        ("jR1", "R0", "R1"),
        ("jL2", "L1", "L2"),
        ("jR2", "R1", "R2"),
    ]:
        revolute(M, plant, name, by_name[parent], by_name[child])
    plant.Finalize()
    assert plant.GetPositionNames(False) == [
        "jbase_x", "jL0_q", "jL1_q", "jL2_q", "jR0_q", "jR1_q", "jR2_q"
    ]  # fmt: skip
    plant = chain(
        MultibodyPlant(0.0),
        ["base", "L", "R", "L2"],
        [("jR", "base", "R"), ("jL2", "L", "L2"), ("jL", "base", "L"), ("jbase", "world", "base")],
    )
    assert plant.GetPositionNames(False) == ["jbase_q", "jR_q", "jL_q", "jL2_q"]
    plant = chain(
        MultibodyPlant(0.0),
        ["r", "r1", "r2", "r11", "r12", "r21"],
        [
            ("j_r12", "r1", "r12"),
            ("j_r2", "r", "r2"),
            ("j_r21", "r2", "r21"),
            ("j_r1", "r", "r1"),
            ("j_r11", "r1", "r11"),
            ("j_r", "world", "r"),
        ],
    )
    assert plant.GetPositionNames(False) == [
        "j_r_q", "j_r2_q", "j_r21_q", "j_r1_q", "j_r12_q", "j_r11_q"
    ]  # fmt: skip


def test_floating_base_tree():
    plant = chain(
        MultibodyPlant(0.0),
        ["base", "R0", "R1", "L0", "L1"],
        [("jL1", "L0", "L1"), ("jL0", "base", "L0"), ("jR0", "base", "R0"), ("jR1", "R0", "R1")],
    )
    assert starts(plant) == {
        "jL1": (8, 1, 7, 1),
        "jL0": (7, 1, 6, 1),
        "jR0": (9, 1, 8, 1),
        "jR1": (10, 1, 9, 1),
        "base": (0, 7, 0, 6),
    }
    base = plant.GetJointByName("base")
    assert base.is_ephemeral() and base.type_name() == "quaternion_floating"
    assert base.index() == 4


def test_free_bodies_come_after_world_trees():
    plant = mixed_forest(M)
    assert starts(plant) == {
        "ja1": (1, 1, 1, 1),
        "ja0": (0, 1, 0, 1),
        "jc0": (2, 1, 2, 1),
        "free1": (3, 7, 3, 6),
        "free2": (10, 7, 9, 6),
        "free3": (17, 7, 15, 6),
    }
    assert [plant.GetJointByName(n).index() for n in ("free1", "free2", "free3")] == [3, 4, 5]
    free2 = plant.GetBodyByName("free2")
    assert (free2.floating_positions_start(), free2.floating_velocities_start_in_v()) == (10, 9)


def test_floating_subgraph_before_lone_body():
    plant = chain(
        MultibodyPlant(0.0),
        ["free1", "x", "free2", "y"],
        [("jy", "free2", "y"), ("jx", "world", "x")],
    )
    assert starts(plant) == {
        "jy": (8, 1, 7, 1),
        "jx": (0, 1, 0, 1),
        "free2": (1, 7, 1, 6),
        "free1": (9, 7, 8, 6),
    }
    assert [plant.GetJointByName(n).index() for n in ("free2", "free1")] == [2, 3]


def test_floating_base_choice():
    plant = chain(
        MultibodyPlant(0.0),
        ["a0", "a1", "b0", "b1", "b2"],
        [("ja", "a0", "a1"), ("jb1", "b0", "b1"), ("jb2", "b0", "b2")],
    )
    # b0 is a joint's parent twice: it is chosen first.
    assert {n: s[0] for n, s in starts(plant).items()} == {
        "ja": 16, "jb1": 7, "jb2": 8, "b0": 0, "a0": 9
    }  # fmt: skip
    plant = chain(
        MultibodyPlant(0.0), ["a0", "a1", "a2"], [("j21", "a2", "a1"), ("j10", "a1", "a0")]
    )
    assert {n: s[0] for n, s in starts(plant).items()} == {"j21": 7, "j10": 8, "a2": 0}
    # x and z tie; x has the lower index; z is then mobilized by the reversed joint jzy.
    plant = chain(MultibodyPlant(0.0), ["x", "y", "z"], [("jxy", "x", "y"), ("jzy", "z", "y")])
    assert {n: s[0] for n, s in starts(plant).items()} == {"jxy": 7, "jzy": 8, "x": 0}


def test_reversed_joint_inside_world_tree():
    plant = chain(MultibodyPlant(0.0), ["a", "b"], [("jwa", "world", "a"), ("jba", "b", "a")])
    assert {n: s[0] for n, s in starts(plant).items()} == {"jwa": 0, "jba": 1}


def test_welds_are_not_merged():
    plant = welds_forest(M)
    assert starts(plant) == {
        "j0": (0, 1, 0, 1),
        "b0_welds_to_w": (1, 0, 1, 0),
        "j2": (1, 1, 1, 1),
        "world_welds_to_ww": (2, 0, 2, 0),
        "jc": (2, 1, 2, 1),
        "wj": (10, 0, 9, 0),
        "wfree": (3, 7, 3, 6),
    }
    assert plant.GetJointByName("wfree").index() == 6
    assert plant.GetPositionNames(False)[:3] == ["j0_q", "j2_q", "jc_q"]


def test_joint_on_offset_frame_orders_by_its_body():
    plant = MultibodyPlant(0.0)
    b0, b1 = bodies(M, plant, ["b0", "b1"])
    F = plant.AddFrame(FixedOffsetFrame("F", b0.body_frame(), RigidTransform([0, 0, 1.0])))
    plant.AddJoint(RevoluteJoint("j1", F, b1.body_frame(), [0, 0, 1]))
    revolute(M, plant, "j0", plant.world_body(), b0)
    plant.Finalize()
    assert {n: s[0] for n, s in starts(plant).items()} == {"j1": 1, "j0": 0}


def test_model_instances_play_no_role_in_the_order():
    plant = instances_forest(M)
    assert {n: s[0] for n, s in starts(plant).items()} == {
        "jc": 3, "jd": 0, "ja": 2, "jg": 1, "b": 4, "f": 11
    }  # fmt: skip
    m1, m2 = MI(2), MI(3)
    assert plant.GetJointByName("b").model_instance() == m1
    assert plant.GetJointByName("jg").model_instance() == m2
    assert plant.GetPositionNames()[:4] == ["m1_jd_q", "m2_jg_q", "m2_ja_q", "m2_jc_q"]


def test_joints_whose_child_is_world():
    plant = MultibodyPlant(0.0)
    a, b, c = bodies(M, plant, ["a", "b", "c"])
    revolute(M, plant, "jb", plant.world_body(), b)
    ja = plant.AddJoint(RevoluteJoint("ja", a.body_frame(), plant.world_frame(), [0, 0, 1]))
    weld = plant.WeldFrames(c.body_frame(), plant.world_frame())
    plant.Finalize()
    assert ja.model_instance() == world_model_instance() == weld.model_instance()
    assert {n: s[0] for n, s in starts(plant).items()} == {"jb": 0, "ja": 1, "c_welds_to_world": 2}
    assert plant.GetPositionNames() == ["DefaultModelInstance_jb_q", "WorldModelInstance_ja_q"]


def test_reversed_revolute_gets_mobilizer_frames():
    plant = MultibodyPlant(0.0)
    x, y, z = bodies(M, plant, ["x", "y", "z"])
    revolute(M, plant, "jxy", x, y)
    revolute(M, plant, "jzy", z, y)
    assert plant.num_frames() == 4
    plant.Finalize()
    assert plant.num_frames() == 6
    F, M_ = plant.get_frame(FrameIndex(4)), plant.get_frame(FrameIndex(5))
    assert (F.name(), F.body().name(), M_.name(), M_.body().name()) == (
        "jzy_y_F",
        "y",
        "jzy_z_M",
        "z",
    )
    assert F.is_ephemeral() and M_.is_ephemeral() and not plant.world_frame().is_ephemeral()
    assert plant.HasFrameNamed("jzy_y_F")


def test_ephemeral_floating_joints():
    plant = MultibodyPlant(0.0)
    m, m2 = plant.AddModelInstance("m"), plant.AddModelInstance("m2")
    a, c, e, x = bodies(M, plant, ["a", "c", "e", "x"], m)
    revolute(M, plant, "c", plant.world_body(), a)
    revolute(M, plant, "_c", a, x)
    f = plant.AddRigidBody("e", m2, box(M))
    revolute(M, plant, "e", plant.world_body(), f)
    frames_before = plant.num_frames()
    plant.Finalize()
    assert plant.num_frames() == frames_before
    floating = [plant.get_joint(JointIndex(i)) for i in range(3, plant.num_joints())]
    # Name = body name, '_'-prefixed while taken in the body's instance (not others').
    assert names(floating) == ["__c", "e"]
    for joint, body in zip(floating, (c, e), strict=True):
        assert joint.is_ephemeral() and joint.child_body() is body
        assert joint.model_instance() == m and joint.frame_on_parent() is plant.world_frame()
        assert joint.frame_on_child() is body.body_frame()
        np.testing.assert_array_equal(joint.default_positions(), [1, 0, 0, 0, 0, 0, 0])
    assert not plant.GetJointByName("c", m).is_ephemeral()


def test_floating_base_bodies():
    plant = two_instances(M)
    assert plant.GetFloatingBaseBodies() == {BodyIndex(4), BodyIndex(5)}
    user = MultibodyPlant(0.0)
    a = user.AddRigidBody("a", box(M))
    user.AddJoint(QuaternionFloatingJoint("qa", user.world_frame(), a.body_frame()))
    user.Finalize()
    assert user.GetFloatingBaseBodies() == set()


def test_unique_base_body():
    plant = two_instances(M)
    d = plant.GetBodyByName("d")
    assert plant.HasUniqueFloatingBaseBody(default_model_instance())
    assert plant.GetUniqueFloatingBaseBodyOrThrow(default_model_instance()) is d
    with pytest.warns(DeprecationWarning, match=r"Use HasUniqueFloatingBaseBody\(\) instead"):
        assert plant.HasUniqueFreeBaseBody(default_model_instance())
    with pytest.warns(DeprecationWarning, match="Use GetUniqueFloatingBaseBodyOrThrow"):
        assert plant.GetUniqueFreeBaseBodyOrThrow(default_model_instance()) is d
    for mi in (world_model_instance(), MI(2), MI(3)):
        assert not plant.HasUniqueFloatingBaseBody(mi)
    with raises(RuntimeError, "Model WorldModelInstance does not have a unique base body."):
        plant.GetUniqueFloatingBaseBodyOrThrow(world_model_instance())
    message = "Model m1 has a unique base body, but it is not a floating base body."
    with raises(RuntimeError, message):
        plant.GetUniqueFloatingBaseBodyOrThrow(MI(2))
    with raises(RuntimeError, "Model m2 does not have a unique base body."):
        plant.GetUniqueFloatingBaseBodyOrThrow(MI(3))
    with pytest.raises(RuntimeError, match="out of bounds"):
        plant.HasUniqueFloatingBaseBody(MI(9))  # pydrake: SystemExit


def test_bodies_welded_to_and_anchored():
    plant = MultibodyPlant(0.0)
    a, b, c, d = bodies(M, plant, ["a", "b", "c", "d"])
    plant.WeldFrames(a.body_frame(), b.body_frame())
    plant.WeldFrames(b.body_frame(), c.body_frame())
    revolute(M, plant, "jd", plant.world_body(), d)
    assert names(plant.GetBodiesWeldedTo(c)) == ["a", "b", "c"]
    assert names(plant.GetBodiesWeldedTo(d)) == ["d"]
    plant.WeldFrames(plant.world_frame(), a.body_frame())
    assert names(plant.GetBodiesWeldedTo(plant.world_body())) == ["world", "a", "b", "c"]
    plant.Finalize()
    assert [plant.IsAnchored(x) for x in (plant.world_body(), a, b, c, d)] == [
        True, True, True, True, False
    ]  # fmt: skip
    other = MultibodyPlant(0.0).AddRigidBody("x", box(M))
    with pytest.raises(RuntimeError, match="not part of this plant"):
        plant.GetBodiesWeldedTo(other)  # pydrake: SystemExit
    with pytest.raises(RuntimeError, match="not part of this plant"):
        plant.IsAnchored(other)
    with pytest.raises(TypeError):
        plant.IsAnchored("a")


def test_bodies_kinematically_affected_by():
    plant = welds_forest(M)
    by_joint = {
        j.name(): [
            plant.get_body(b).name() for b in plant.GetBodiesKinematicallyAffectedBy([j.index()])
        ]
        for j in (plant.get_joint(i) for i in plant.GetJointIndices())
    }
    assert by_joint["j0"] == ["b0", "w", "b2"] and by_joint["b0_welds_to_w"] == []
    assert by_joint["wfree"] == ["wfree", "wchild"] and by_joint["jc"] == ["c"]
    both = plant.GetBodiesKinematicallyAffectedBy([JointIndex(4), JointIndex(2)])
    assert both == [BodyIndex(3), BodyIndex(5)]


# ---- graphviz -----------------------------------------------------------------------------

GRAPHVIZ = """digraph MultibodyPlant {
label="";
rankdir=BT;
labelloc=t;
subgraph cluster0 {
 label="WorldModelInstance";
 body0 [label="world"];
}
subgraph cluster1 {
 label="DefaultModelInstance";
}
subgraph cluster2 {
 label="robot";
 body1 [label="base"];
 body2 [label="link1"];
 body3 [label="link2"];
 body4 [label="tool"];
}
subgraph cluster3 {
 label="objects";
 body5 [label="box"];
}
body1 -> body0 [label="world_welds_to_base [weld]"];
body2 -> body1 [label="joint1 [revolute]"];
body3 -> body2 [label="joint2 [revolute]"];
body4 -> body3 [label="link2_welds_to_tool [weld]"];
body5 -> body0 [label="box [quaternion_floating]"];
}
"""


def test_graphviz():
    plant = graphviz_model(M, finalize=False)
    pre = GRAPHVIZ.replace('body5 -> body0 [label="box [quaternion_floating]"];\n', "")
    assert plant.GetTopologyGraphvizString() == pre
    plant.Finalize()
    assert plant.GetTopologyGraphvizString() == GRAPHVIZ


# ---- limits -------------------------------------------------------------------------------


def test_limits():
    plant = MultibodyPlant(0.0)
    a, b = bodies(M, plant, ["a", "b"])
    ja = plant.AddJoint(
        RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 0, 1], -1.0, 2.0)
    )
    ja.set_velocity_limits([-3.0], [4.0])
    ja.set_acceleration_limits([-5.0], [6.0])
    plant.AddJointActuator("act", ja, 7.0)
    plant.Finalize()  # b floats: 7 q, 6 v, all unbounded
    inf = math.inf
    np.testing.assert_array_equal(plant.GetPositionLowerLimits(), [-1.0] + [-inf] * 7)
    np.testing.assert_array_equal(plant.GetPositionUpperLimits(), [2.0] + [inf] * 7)
    np.testing.assert_array_equal(plant.GetVelocityLowerLimits(), [-3.0] + [-inf] * 6)
    np.testing.assert_array_equal(plant.GetVelocityUpperLimits(), [4.0] + [inf] * 6)
    np.testing.assert_array_equal(plant.GetAccelerationLowerLimits(), [-5.0] + [-inf] * 6)
    np.testing.assert_array_equal(plant.GetAccelerationUpperLimits(), [6.0] + [inf] * 6)
    np.testing.assert_array_equal(plant.GetEffortLowerLimits(), [-7.0])
    np.testing.assert_array_equal(plant.GetEffortUpperLimits(), [7.0])
    plant.RemoveAllJointActuatorEffortLimits()
    np.testing.assert_array_equal(plant.GetEffortUpperLimits(), [inf])
    assert b.name() == "b"


# ---- coordinate names ---------------------------------------------------------------------


def expected_names(which, prefix="", always_add_suffix=True):
    """The position (``which`` = "q") or velocity names of ``all_joints``, in q (v) order."""
    out = []
    for name, _, q_suffixes, v_suffixes in ALL_JOINTS:
        suffixes = q_suffixes if which == "q" else v_suffixes
        if len(suffixes) == 1 and not always_add_suffix:
            out.append(prefix + name)
        else:
            out += [f"{prefix}{name}_{s}" for s in suffixes]
    return out


def test_coordinate_names_all_joint_types():
    plant = all_joints(M)
    p = "DefaultModelInstance_"
    assert plant.GetPositionNames() == expected_names("q", p)
    assert plant.GetPositionNames(False) == expected_names("q")
    assert plant.GetPositionNames(add_model_instance_prefix=False, always_add_suffix=False) == (
        expected_names("q", always_add_suffix=False)
    )
    assert plant.GetVelocityNames(False, False) == expected_names("v", always_add_suffix=False)
    assert plant.GetVelocityNames() == expected_names("v", p)
    assert plant.GetStateNames(False) == expected_names("q") + expected_names("v")
    assert plant.GetStateNames() == expected_names("q", p) + expected_names("v", p)
    # The per-instance overloads default to no prefix.
    assert plant.GetPositionNames(default_model_instance()) == expected_names("q")
    assert plant.GetPositionNames(default_model_instance(), True) == expected_names("q", p)
    assert plant.GetStateNames(default_model_instance(), True)[-1] == p + "free_vz"
    assert plant.GetPositionNames(world_model_instance()) == []


def test_names_with_two_instances():
    plant = MultibodyPlant(0.0)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    for mi in (m1, m2):
        body = plant.AddRigidBody("a", mi, box(M))
        plant.AddJointActuator("act", revolute(M, plant, "j", plant.world_body(), body))
    plant.AddRigidBody("b", m1, box(M))
    plant.Finalize()
    assert plant.GetActuatorNames() == ["m1_act", "m2_act"]
    assert plant.GetActuatorNames(False) == ["act", "act"]
    assert plant.GetActuatorNames(m2) == ["act"]
    assert plant.GetActuatorNames(m2, True) == ["m2_act"]
    assert plant.GetActuatorNames(model_instance=m2, add_model_instance_prefix=True) == ["m2_act"]
    assert plant.GetPositionNames(m2, True) == ["m2_j_q"]
    assert plant.GetPositionNames() == ["m1_j_q", "m2_j_q"] + [
        f"m1_b_{s}" for s in ("qw", "qx", "qy", "qz", "x", "y", "z")
    ]
    assert plant.GetVelocityNames(m1, always_add_suffix=False)[0] == "j"
    with pytest.raises(TypeError):
        plant.GetPositionNames(m1, True, True, True)
    with pytest.raises(TypeError):
        plant.GetStateNames(always_add_suffix=True)


def test_names_of_non_contiguous_instances():
    # pydrake fails a DRAKE_DEMAND here (a bug); mallard lists them in q (or u) order.
    plant = instances_forest(M)
    assert plant.GetPositionNames(MI(3)) == ["jg_q", "ja_q", "jc_q"]
    plant = two_instances(M)
    assert plant.GetActuatorNames(MI(2)) == ["act", "actb"]


# ---- selector and actuation matrices ------------------------------------------------------


def test_state_selector_matrix():
    plant = selector_model(M)
    jd, ja = plant.GetJointByName("jd").index(), plant.GetJointByName("ja").index()
    S = plant.MakeStateSelectorMatrix([jd, ja])
    assert S.shape == (4, 21)
    assert [list(np.flatnonzero(row)) for row in S] == [[3], [0], [14], [11]]
    assert plant.MakeStateSelectorMatrix([plant.GetJointByName("fb").index()]).shape == (13, 21)
    assert plant.MakeStateSelectorMatrix([]).shape == (0, 21)
    with raises(RuntimeError, "Joint named 'ja' is repeated multiple times."):
        plant.MakeStateSelectorMatrix([ja, jd, ja])


def test_actuator_selector_matrix():
    plant = selector_model(M)
    expected = [[0, 1], [0, 0], [0, 0], [1, 0]]
    S = plant.MakeActuatorSelectorMatrix([JointActuatorIndex(3), JointActuatorIndex(0)])
    np.testing.assert_array_equal(S, expected)
    joints = [plant.GetJointByName(n).index() for n in ("jc", "jd")]
    np.testing.assert_array_equal(plant.MakeActuatorSelectorMatrix(joints), expected)
    repeated = plant.MakeActuatorSelectorMatrix([JointActuatorIndex(3)] * 2)
    np.testing.assert_array_equal(repeated, [[0, 0], [0, 0], [0, 0], [1, 1]])
    with raises(RuntimeError, "Joint 'fb' does not have an actuator."):
        plant.MakeActuatorSelectorMatrix([plant.GetJointByName("fb").index()])


def test_actuation_matrix():
    plant = selector_model(M)
    B = plant.MakeActuationMatrix()
    assert B.shape == (10, 4)
    np.testing.assert_array_equal(B[:4], [[0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0]])
    assert not B[4:].any()


def test_is_velocity_equal_to_qdot():
    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", box(M))
    revolute(M, plant, "j", plant.world_body(), a)
    plant.Finalize()
    assert plant.IsVelocityEqualToQDot()
    assert not two_instances(M).IsVelocityEqualToQDot()
