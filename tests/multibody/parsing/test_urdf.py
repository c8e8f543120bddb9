"""The URDF parser: what each element becomes in the plant (Drake's documented URDF support),
with the names and order pydrake gives them."""

import math

import numpy as np
import pytest

from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.multibody.parsing import Parser
from mallard.multibody.parsing._geometry import MeshRecord
from mallard.multibody.parsing._urdf import closest_rotation_to_identity_from_unit_z
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    FrameIndex,
    ModelInstanceIndex,
    RotationalInertia,
    SpatialInertia,
)
from tests.multibody.parsing.urdf_helpers import joint, link, load, robot


def frames(plant):
    result = []
    for i in range(plant.num_frames()):
        f = plant.get_frame(FrameIndex(i))
        result.append((f.name(), f.body().name(), int(f.model_instance())))
    return result


def test_model_instance_bodies_joints_and_frames_in_drakes_order():
    text = robot(
        link("base"),
        link("l1"),
        link("l2"),
        joint("j1", "revolute", "base", "l1", '<origin xyz="0 0 1"/><axis xyz="0 1 0"/>'),
        joint("j2", "prismatic", "l1", "l2", '<axis xyz="0 0 2"/>'),
        '<frame name="tip" link="l2" xyz="0 0 0.5"/>',
        name="arm",
    )
    plant, _, instances = load(text, finalize=True)
    assert [plant.GetModelInstanceName(i) for i in instances] == ["arm"]
    assert frames(plant) == [
        ("world", "world", 0),
        ("base", "base", 2),
        ("l1", "l1", 2),
        ("l2", "l2", 2),
        ("j1_parent", "base", 2),
        ("j2_parent", "l1", 2),
        ("tip", "l2", 2),
    ]
    # The root link is free: Drake adds its floating joint (named after it) at Finalize.
    names = [plant.get_joint(j).name() for j in plant.GetJointIndices()]
    assert names == ["j1", "j2", "base"]
    assert plant.GetPositionNames() == [
        "arm_base_qw",
        "arm_base_qx",
        "arm_base_qy",
        "arm_base_qz",
        "arm_base_x",
        "arm_base_y",
        "arm_base_z",
        "arm_j1_q",
        "arm_j2_x",
    ]
    j1 = plant.GetJointByName("j1")
    assert j1.frame_on_parent().GetFixedPoseInBodyFrame().translation() == pytest.approx([0, 0, 1])
    assert j1.revolute_axis() == pytest.approx([0, 1, 0])
    assert plant.GetJointByName("j2").translation_axis() == pytest.approx([0, 0, 1])


def test_links_to_world_weld_or_connect_to_world():
    text = robot(
        '<link name="world"/>',
        link("a"),
        link("b"),
        joint("fix", "fixed", "world", "a", '<origin xyz="1 2 3"/>'),
        joint("hinge", "continuous", "world", "b"),
    )
    plant, _, _ = load(text, finalize=True)
    assert plant.num_positions() == 1
    assert plant.GetJointByName("fix").type_name() == "weld"
    # The joint frame on World belongs to the robot's model instance, as in Drake.
    assert frames(plant)[3:] == [("fix_parent", "world", 2), ("hinge_parent", "world", 2)]
    context = plant.CreateDefaultContext()
    X_WA = plant.EvalBodyPoseInWorld(context, plant.GetBodyByName("a"))
    assert X_WA.translation() == pytest.approx([1, 2, 3])


def test_inertial_origin_mass_and_full_inertia():
    inertial = (
        '<inertial><origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 0.1"/><mass value="2"/>'
        '<inertia ixx="0.3" ixy="0.01" ixz="-0.02" iyy="0.4" iyz="0.03" izz="0.5"/></inertial>'
    )
    plant, _, _ = load(robot(link("a", inertial)))
    M = plant.GetBodyByName("a").default_spatial_inertia()
    R_BBi = RollPitchYaw([0.3, -0.2, 0.1]).ToRotationMatrix()
    I_Bi = RotationalInertia(0.3, 0.4, 0.5, 0.01, -0.02, 0.03)
    expected = SpatialInertia.MakeFromCentralInertia(2.0, [0.1, 0.2, 0.3], I_Bi.ReExpress(R_BBi))
    np.testing.assert_allclose(M.CopyToFullMatrix6(), expected.CopyToFullMatrix6(), atol=1e-15)


def test_limits_damping_and_effort():
    limit = '<limit lower="-1" upper="2" velocity="3" effort="4" drake:acceleration="5"/>'
    text = robot(
        link("a"),
        joint("j", "revolute", "world", "a", limit + '<dynamics damping="0.7"/>'),
        "<transmission><type>transmission_interface/SimpleTransmission</type>"
        '<joint name="j"/><actuator name="motor"/></transmission>',
    )
    plant, _, _ = load(text, finalize=True)
    j = plant.GetJointByName("j")
    assert j.position_lower_limits() == [-1] and j.position_upper_limits() == [2]
    assert j.velocity_lower_limits() == [-3] and j.velocity_upper_limits() == [3]
    assert j.acceleration_lower_limits() == [-5] and j.acceleration_upper_limits() == [5]
    assert j.default_damping() == 0.7
    (actuator,) = [plant.get_joint_actuator(i) for i in plant.GetJointActuatorIndices()]
    assert actuator.name() == "motor" and actuator.joint().name() == "j"
    assert actuator.effort_limit() == 4
    assert plant.GetEffortUpperLimits() == [4]


def test_defaults_without_limit_and_axis():
    plant, _, _ = load(robot(link("a"), joint("j", "prismatic", "world", "a")), finalize=True)
    j = plant.GetJointByName("j")
    assert j.translation_axis() == pytest.approx([1, 0, 0])
    assert j.position_lower_limits() == [-math.inf]
    assert j.velocity_upper_limits() == [math.inf]
    assert j.default_damping() == 0.0


def test_actuator_extensions():
    actuator = (
        '<actuator name="m"><drake:rotor_inertia value="0.3"/><drake:gear_ratio value="4"/>'
        '<drake:controller_gains p="10" d="2"/></actuator>'
    )
    text = robot(
        link("a"),
        joint("j", "revolute", "world", "a"),
        f'<transmission type="SimpleTransmission"><joint name="j"/>{actuator}</transmission>',
    )
    plant, _, _ = load(text)
    m = plant.GetJointActuatorByName("m")
    assert m.default_rotor_inertia() == 0.3 and m.default_gear_ratio() == 4
    assert m.has_controller()
    gains = m.get_controller_gains()
    assert (gains.p, gains.d) == (10, 2)


def test_drake_joint_types():
    text = robot(
        link("a"),
        link("b"),
        link("c"),
        link("d"),
        joint("ball", "ball", "world", "a", '<dynamics damping="0.1"/>', tag="drake:joint"),
        joint("u", "universal", "a", "b", '<dynamics damping="0.2"/>', tag="drake:joint"),
        joint(
            "s",
            "screw",
            "b",
            "c",
            '<axis xyz="0 0 1"/><drake:screw_thread_pitch value="0.04"/>',
            tag="drake:joint",
        ),
        joint("p", "planar", "c", "d", '<axis xyz="1 0 0"/><dynamics damping="1 2 3"/>'),
    )
    plant, _, _ = load(text, finalize=True)
    types = {j: plant.GetJointByName(j).type_name() for j in ("ball", "u", "s", "p")}
    assert types == {"ball": "ball_rpy", "u": "universal", "s": "screw", "p": "planar"}
    assert plant.GetJointByName("ball").default_damping() == 0.1
    assert plant.GetJointByName("u").default_damping() == 0.2
    assert plant.GetJointByName("s").screw_pitch() == 0.04
    assert list(plant.GetJointByName("p").default_damping()) == [1, 2, 3]
    # A planar joint's frames: Mz along the axis, M as near B as possible, F = M at zero.
    assert [f[0] for f in frames(plant)[5:]] == [
        "ball_parent",
        "u_parent",
        "s_parent",
        "p_parent",
        "p_child",
    ]
    X_BM = plant.GetFrameByName("p_child").GetFixedPoseInBodyFrame()
    assert X_BM.rotation().matrix()[:, 2] == pytest.approx([1, 0, 0])
    assert plant.num_positions() == 3 + 2 + 1 + 3


def test_closest_rotation_to_identity_from_unit_z():
    for u in ([0, 0, 1], [0, 0, -1], [1, 0, 0], [0.6, 0.0, 0.8], [0.48, -0.6, 0.64]):
        R = closest_rotation_to_identity_from_unit_z(np.array(u, dtype=float))
        assert isinstance(R, RotationMatrix)
        assert R.matrix()[:, 2] == pytest.approx(u)
    assert closest_rotation_to_identity_from_unit_z(np.array([0.0, 0, 1])).IsExactlyIdentity()


def test_frames_drake_ignore_and_world_frames():
    text = robot(
        link("a"),
        '<link name="ghost" drake_ignore="true"/>',
        '<frame name="f" link="a" xyz="1 0 0" rpy="0 0 1.5"/>',
        '<frame name="w" link="world" xyz="0 0 1"/>',
    )
    plant, _, _ = load(text)
    assert not plant.HasBodyNamed("ghost")
    f = plant.GetFrameByName("f")
    X = f.GetFixedPoseInBodyFrame()
    assert X.translation() == pytest.approx([1, 0, 0])
    assert RollPitchYaw(X.rotation()).vector() == pytest.approx([0, 0, 1.5])
    # A frame on the world link belongs to the world model instance (its parent's), as in Drake.
    assert int(plant.GetFrameByName("w").model_instance()) == 0


def test_force_element_extensions():
    bushing = (
        "<drake:linear_bushing_rpy>"
        '<drake:bushing_frameA name="a"/><drake:bushing_frameC name="b"/>'
        '<drake:bushing_torque_stiffness value="1 2 3"/>'
        '<drake:bushing_torque_damping value="0.1 0.2 0.3"/>'
        '<drake:bushing_force_stiffness value="10 20 30"/>'
        '<drake:bushing_force_damping value="1 1 1"/>'
        "</drake:linear_bushing_rpy>"
    )
    spring = (
        "<drake:linear_spring_damper>"
        '<drake:linear_spring_damper_body_A name="a"/>'
        '<drake:linear_spring_damper_body_B name="b"/>'
        '<drake:linear_spring_damper_p_AP value="0 0 0"/>'
        '<drake:linear_spring_damper_p_BQ value="0 0 1"/>'
        '<drake:linear_spring_damper_free_length value="0.5"/>'
        '<drake:linear_spring_damper_stiffness value="100"/>'
        '<drake:linear_spring_damper_damping value="2"/>'
        "</drake:linear_spring_damper>"
    )
    plant, _, _ = load(robot(link("a"), link("b"), bushing, spring))
    assert plant.num_force_elements() == 3  # gravity, the bushing, the spring-damper
    missing = bushing.replace('<drake:bushing_frameC name="b"/>', "")
    with pytest.raises(RuntimeError, match="Unable to find the <drake:bushing_frameC> tag"):
        load(robot(link("a"), link("b"), missing))
    wrong = spring.replace('body_B name="b"', 'body_B name="q"')
    with pytest.raises(RuntimeError, match="Body: q specified for"):
        load(robot(link("a"), link("b"), wrong))


def test_model_name_prefix_and_auto_renaming():
    plant = MultibodyPlant(0.0)
    text = robot(link("a"), name="bot")
    Parser(plant, "left").AddModelsFromString(text, "urdf")
    Parser(plant, model_name_prefix="right").AddModelsFromString(text, "urdf")
    parser = Parser(plant)
    parser.AddModelsFromString(text, "urdf")
    with pytest.raises(RuntimeError, match="already contains a model instance named 'bot'"):
        parser.AddModelsFromString(text, "urdf")
    parser.SetAutoRenaming(True)
    assert parser.GetAutoRenaming()
    parser.AddModelsFromString(text, "urdf")
    parser.AddModelsFromString(text, "urdf")
    count = plant.num_model_instances()
    names = [plant.GetModelInstanceName(ModelInstanceIndex(i)) for i in range(count)]
    assert names[2:] == ["left::bot", "right::bot", "bot", "bot_1", "bot_2"]


def test_no_scene_graph_no_geometry():
    visual = '<visual><geometry><box size="1 2 3"/></geometry></visual>'
    _, parser, _ = load(robot(link("a", extra=visual)))
    assert parser._geometries == []


def test_geometry_records_with_a_scene_graph(tmp_path):
    (tmp_path / "arm.obj").write_text("")
    text = robot(
        '<material name="red"><color rgba="1 0 0 1"/></material>',
        link(
            "a",
            extra=(
                '<visual name="v"><origin xyz="0 0 1"/><geometry><box size="1 2 3"/></geometry>'
                '<material name="red"/></visual>'
                '<visual><geometry><mesh filename="arm.obj" scale="2"/></geometry></visual>'
                '<visual><geometry><capsule radius="0.1" length="0.2"/></geometry></visual>'
                '<visual><geometry><drake:capsule radius="0.1" length="0.2"/></geometry></visual>'
                '<collision><geometry><sphere radius="0.5"/></geometry>'
                '<drake:proximity_properties><drake:mu_static value="0.8"/>'
                '<drake:mu_dynamic value="0.5"/></drake:proximity_properties></collision>'
                '<collision><geometry><cylinder radius="0.1" length="1"/></geometry></collision>'
                '<collision><geometry><drake:ellipsoid a="1" b="2" c="3"/></geometry>'
                "</collision>"
            ),
        ),
    )
    path = tmp_path / "robot.urdf"
    path.write_text(text)
    plant = MultibodyPlant(0.0)
    parser = Parser(plant, object())
    parser.AddModels(path)
    records = parser._geometries
    summary = [(g.role, g.name, type(g.shape).__name__) for g in records]
    assert summary == [
        ("visual", "v", "Box"),
        ("visual", "Mesh", "MeshRecord"),
        ("visual", "Capsule", "Capsule"),
        ("visual", "Capsule_1", "Capsule"),
        ("collision", "Sphere", "Sphere"),
        ("collision", "Cylinder", "Cylinder"),
        ("collision", "Ellipsoid", "Ellipsoid"),
    ]
    box, mesh = records[0], records[1]
    assert box.body is plant.GetBodyByName("a")
    assert box.X_BG.IsExactlyEqualTo(RigidTransform([0, 0, 1.0]))
    assert list(box.properties["phong"]["diffuse"]) == [1, 0, 0, 1]
    assert isinstance(mesh.shape, MeshRecord)
    assert mesh.shape.path == str(tmp_path / "arm.obj")
    assert list(mesh.shape.scale) == [2, 2, 2]
    assert records[4].properties["material"]["coulomb_friction"] == (0.8, 0.5)
    assert records[5].properties["material"]["coulomb_friction"] == (1.0, 1.0)


def test_string_with_model_file_and_url_give_the_same_plant(tmp_path):
    text = robot(link("a"), link("b"), joint("j", "revolute", "a", "b"), name="same")
    (tmp_path / "same.urdf").write_text(text)
    plants = []
    for add in (
        lambda p: p.AddModelsFromString(text, "urdf"),
        lambda p: p.AddModels(str(tmp_path / "same.urdf")),
        lambda p: p.AddModels(file_contents=text, file_type="urdf"),
        lambda p: p.AddModels(url=f"file://{tmp_path}/same.urdf"),
        lambda p: p.AddModelsFromUrl(f"file://{tmp_path}/same.urdf"),
    ):
        plant = MultibodyPlant(0.0)
        add(Parser(plant))
        plant.Finalize()
        plants.append(plant)
    assert len({tuple(p.GetPositionNames()) for p in plants}) == 1
