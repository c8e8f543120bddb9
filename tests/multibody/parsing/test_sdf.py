"""The SDFormat parser (mallard.multibody.parsing._sdf) feature by feature, called through a
Workspace; the expected values are Drake's (see tests/conformance/test_parsing_sdf.py for the
comparison with pydrake itself)."""

import logging
import math

import numpy as np
import pytest

from mallard.geometry import Box, Sphere
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.multibody.parsing import PackageMap, _sdf
from mallard.multibody.parsing._geometry import MeshRecord
from mallard.multibody.parsing._sdf_dom import Document
from mallard.multibody.parsing._sdf_pose import EXACT_DEPTH, Pose, _walk, pose_in_scope
from mallard.multibody.parsing._workspace import Workspace
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import ForceElementIndex, FrameIndex, JointIndex

_BOX_URDF = """<robot name="box">
  <link name="l0"><inertial><mass value="2"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l1"/>
  <joint name="rj" type="revolute"><parent link="l0"/><child link="l1"/>
    <origin xyz="0 0 1"/><axis xyz="1 0 0"/></joint>
</robot>"""

_ARM = """<sdf version="1.8"><model name="arm"><pose>0 0 1 0 0 0</pose>
  <link name="base"><pose>0 0 0.5 0 0 0</pose></link><link name="tip"/>
  <joint name="j" type="revolute"><parent>base</parent><child>tip</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
  <frame name="ee" attached_to="tip"/>
</model></sdf>"""


def sdf(body, version="1.9", name="m"):
    """A document with one model ``name`` holding ``body``."""
    return f'<sdf version="{version}">\n<model name="{name}">\n{body}\n</model>\n</sdf>\n'


class Loaded:
    """A plant with a document loaded: ``instances``, ``geometries`` and name lookups."""

    def __init__(
        self,
        text,
        tmp_path=None,
        files=None,
        strict=False,
        scene_graph=False,
        model_name=None,
        plant=None,
        prefix=None,
        auto_renaming=False,
    ):
        self.plant = plant or MultibodyPlant(0.0)
        package_map = PackageMap()
        file = "<literal-string>.sdf"
        if tmp_path is not None:
            package_map.Add("pkg", str(tmp_path))
            for name, content in (files or {}).items():
                path = tmp_path / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(content)
            file = str(tmp_path / "main.sdf")
        self.workspace = Workspace(
            self.plant,
            package_map,
            strict,
            auto_renaming,
            prefix,
            geometries=[] if scene_graph else None,
        )
        root = self.workspace.load_xml(text, file)
        self.instances = _sdf.parse(self.workspace, root, model_name)
        self.geometries = self.workspace.geometries

    def body(self, name):
        return self.plant.GetBodyByName(name)

    def frame(self, name, instance=None):
        if instance is None:
            matches = [self.plant.get_frame(FrameIndex(i)) for i in range(self.plant.num_frames())]
            matches = [f for f in matches if f.name() == name]
            assert len(matches) == 1, name
            return matches[0]
        return self.plant.GetFrameByName(name, self.plant.GetModelInstanceByName(instance))

    def joint(self, name):
        return self.plant.GetJointByName(name)

    def names(self, what):
        plant = self.plant
        if what == "frames":
            return [plant.get_frame(FrameIndex(i)).name() for i in range(plant.num_frames())]
        return [plant.get_joint(JointIndex(i)).name() for i in range(plant.num_joints())]


def force_kinds(plant):
    """The type names of the plant's force elements, gravity excepted."""
    return [
        type(plant.get_force_element(ForceElementIndex(i))).__name__
        for i in range(1, plant.num_force_elements())
    ]


def assert_pose(X, p, rpy=(0.0, 0.0, 0.0)):
    expected = RigidTransform(RollPitchYaw(*rpy), p)
    np.testing.assert_allclose(X.GetAsMatrix4(), expected.GetAsMatrix4(), atol=1e-12)


# ---- models, links, frames -------------------------------------------------------------------
def test_acrobot_like_model():
    text = sdf(
        """
      <link name="base"/>
      <joint name="weld" type="fixed"><parent>world</parent><child>base</child></joint>
      <link name="upper"><pose>0 0.15 0 0 0 0</pose>
        <inertial><pose>0 0 -0.5 0 0 0</pose><mass>2</mass>
          <inertia><ixx>1</ixx><iyy>0.5</iyy><izz>1</izz></inertia></inertial></link>
      <joint name="shoulder" type="revolute"><parent>base</parent><child>upper</child>
        <axis><xyz expressed_in="__model__">0 1 0</xyz><limit><effort>0</effort></limit>
          <dynamics><damping>0.1</damping></dynamics></axis></joint>
      <frame name="hand"><pose relative_to="upper">0 0 -1 0 0 0</pose></frame>""",
        name="Acrobot",
    )
    m = Loaded(text)
    plant = m.plant
    assert [plant.GetModelInstanceName(i) for i in m.instances] == ["Acrobot"]
    assert m.names("frames") == [
        "world",
        "base",
        "upper",
        "__model__",
        "weld_child",
        "shoulder_parent",
        "shoulder_child",
        "hand",
    ]
    assert m.names("joints") == ["weld", "shoulder"]
    assert plant.num_actuators() == 0  # <effort>0</effort>: not actuated
    upper = m.body("upper")
    assert upper.default_mass() == 2.0
    np.testing.assert_allclose(upper.default_com(), [0, 0, -0.5])
    assert_pose(plant.GetDefaultFloatingBaseBodyPose(upper), [0, 0.15, 0])
    shoulder = m.joint("shoulder")
    assert shoulder.frame_on_parent().body() is m.body("base")
    assert_pose(shoulder.frame_on_parent().GetFixedPoseInBodyFrame(), [0, 0.15, 0])
    np.testing.assert_array_equal(shoulder.default_damping_vector(), [0.1])
    assert shoulder.position_lower_limits()[0] == -math.inf
    # A frame without attached_to is on the canonical link (the model frame's body).
    assert m.frame("hand").body() is m.body("base")
    assert_pose(m.frame("hand").GetFixedPoseInBodyFrame(), [0, 0.15, -1])
    plant.Finalize()
    assert plant.num_positions() == 1


def test_free_links_get_their_pose_as_default_floating_pose():
    m = Loaded(sdf('<pose>1 0 0 0 0 0</pose><link name="a"><pose>0 2 0 0 0 0.5</pose></link>'))
    assert_pose(m.plant.GetDefaultFloatingBaseBodyPose(m.body("a")), [1, 2, 0], [0, 0, 0.5])
    m.plant.Finalize()
    context = m.plant.CreateDefaultContext()
    assert_pose(m.plant.EvalBodyPoseInWorld(context, m.body("a")), [1, 2, 0], [0, 0, 0.5])


def test_missing_inertial_and_mass_use_sdformat_defaults():
    m = Loaded(
        sdf(
            '<link name="a"/><link name="b"><inertial><inertia><ixx>2</ixx><iyy>2</iyy>'
            "<izz>2</izz></inertia></inertial></link>"
        )
    )
    for name, moment in (("a", 1.0), ("b", 2.0)):
        body = m.body(name)
        assert body.default_mass() == 1.0
        np.testing.assert_allclose(body.default_rotational_inertia().get_moments(), [moment] * 3)


def test_nested_models_are_scoped_instances_added_first():
    m = Loaded(
        sdf(
            """
      <link name="a"/>
      <model name="inner"><pose relative_to="a">0 1 0 0 0 0</pose>
        <link name="b"/><model name="deep"><link name="c"/></model></model>
      <joint name="k" type="ball"><parent>a</parent><child>inner::b</child></joint>
      <frame name="f" attached_to="inner"/>""",
            name="outer",
        )
    )
    plant = m.plant
    names = [plant.GetModelInstanceName(i) for i in m.instances]
    assert names == ["outer", "outer::inner", "outer::inner::deep"]
    assert [plant.get_body(b).name() for b in plant.GetBodyIndices(m.instances[0])] == ["a"]
    assert int(m.body("c").index()) == 1  # nested models' bodies come first
    k = m.joint("k")
    assert k.type_name() == "ball_rpy"
    # Joint frames (and the joint) belong to the child body's model instance.
    assert k.model_instance() == m.instances[1]
    assert k.frame_on_parent().model_instance() == m.instances[1]
    assert_pose(k.frame_on_parent().GetFixedPoseInBodyFrame(), [0, 1, 0])
    # A frame attached to a model hangs on that model's __model__ frame (and instance).
    f = m.frame("f")
    assert f.model_instance() == m.instances[1]
    assert f.body() is m.body("b")


def test_pose_relative_to_and_attached_to_chains():
    m = Loaded(
        sdf("""
      <link name="a"><pose>1 0 0 0 0 1.5707963267948966</pose></link>
      <link name="b"><pose relative_to="a">1 0 0 0 0 0</pose></link>
      <frame name="f1" attached_to="a"><pose relative_to="b">0 0 1 0 0 0</pose></frame>
      <frame name="f2" attached_to="f1"><pose>0 0 1 0 0 0</pose></frame>
      <joint name="j" type="prismatic"><parent>a</parent><child>b</child>
        <pose relative_to="f2">0 0 0 0 0 0</pose><axis><xyz>1 0 0</xyz></axis></joint>""")
    )
    assert_pose(m.plant.GetDefaultFloatingBaseBodyPose(m.body("b")), [1, 1, 0], [0, 0, math.pi / 2])
    assert_pose(m.frame("f1").GetFixedPoseInBodyFrame(), [1, 0, 1])
    assert m.frame("f2").body() is m.body("a")
    assert_pose(m.frame("f2").GetFixedPoseInBodyFrame(), [1, 0, 2])
    j = m.joint("j")
    assert_pose(j.frame_on_parent().GetFixedPoseInBodyFrame(), [1, 0, 2])
    assert_pose(j.frame_on_child().GetFixedPoseInBodyFrame(), [0, 0, 2])


def test_deep_relative_to_chains_resolve_each_pose_once():
    # Each link 0.5 m along the x axis of the last, turned 0.1 rad about its z: link i is at
    # the sum of Rz(0.1 k) [0.5, 0, 0], k < i, turned 0.1 i. Exact (as libsdformat composes)
    # up to EXACT_DEPTH links deep, and to rounding beyond.
    n = 3 * EXACT_DEPTH
    links = ['<link name="l0"/>'] + [
        f'<link name="l{i}"><pose relative_to="l{i - 1}">0.5 0 0 0 0 0.1</pose></link>'
        for i in range(1, n)
    ]
    m = Loaded(sdf("\n".join(links)))
    p = np.zeros(3)
    for i in range(n):
        X_WL = m.plant.GetDefaultFloatingBaseBodyPose(m.body(f"l{i}"))
        assert_pose(X_WL, p, [0, 0, math.remainder(0.1 * i, 2 * math.pi)])
        p = p + 0.5 * np.array([math.cos(0.1 * i), math.sin(0.1 * i), 0.0])
    document = Document(m.workspace)
    top = document.read_root(m.workspace.load_xml(sdf("\n".join(links)), "m.sdf"))
    document.connect(top)
    model = top.models[0]
    for i in range(n):
        vertex = model.names[f"l{i}"]
        cached, walked = pose_in_scope(vertex, model), _walk(vertex, model)[0]
        if i < EXACT_DEPTH:
            assert (cached.p, cached.q) == (walked.p, walked.q)
        np.testing.assert_allclose(cached.p + cached.q, walked.p + walked.q, rtol=0, atol=1e-13)


def test_identity_parent_pose_uses_the_body_frame():
    m = Loaded(
        sdf(
            '<link name="a"/><link name="b"/><joint name="j" type="revolute">'
            "<parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>"
        )
    )
    assert m.joint("j").frame_on_parent() is m.body("a").body_frame()
    assert m.joint("j").frame_on_child().name() == "j_child"


def test_static_model_welds_links_not_yet_welded_to_world():
    m = Loaded(
        sdf("""<static>true</static><pose>0 0 1 0 0 0</pose>
      <link name="l1"><pose>0 1 0 0 0 0</pose></link><link name="l2"/>
      <joint name="w12" type="fixed"><parent>l1</parent><child>l2</child></joint>
      <model name="n"><link name="free"/></model>""")
    )
    assert m.names("joints") == ["w12", "sdformat_model_static_world_welds_to_l1"]
    weld = m.joint("sdformat_model_static_world_welds_to_l1")
    assert weld.frame_on_parent() is m.plant.world_frame()
    assert_pose(weld.X_FM(), [0, 1, 1])
    m.plant.Finalize()
    assert m.plant.num_positions() == 7  # the nested model is not static


def test_world_frames_models_and_joints():
    text = """<sdf version="1.9"><world name="w">
      <frame name="wf"><pose>1 0 0 0 0 0</pose></frame>
      <model name="a"><pose relative_to="wf">0 0 1 0 0 0</pose><link name="l"/></model>
      <model name="b"><link name="k"/></model>
      <joint name="weld" type="fixed"><parent>world</parent><child>b::k</child>
        <pose>0 1 0 0 0 0</pose></joint>
      <frame name="on_a" attached_to="a"/>
    </world></sdf>"""
    m = Loaded(text)
    assert len(m.instances) == 2
    assert_pose(m.plant.GetDefaultFloatingBaseBodyPose(m.body("l")), [1, 0, 1])
    wf = m.frame("wf", "WorldModelInstance")
    assert wf.body() is m.plant.world_body()
    assert m.frame("on_a").model_instance() == m.instances[0]
    assert_pose(m.joint("weld").frame_on_parent().GetFixedPoseInBodyFrame(), [0, 1, 0])


def test_model_name_override_prefix_and_auto_renaming():
    plant = MultibodyPlant(0.0)
    text = sdf('<link name="a"/>')
    assert plant.GetModelInstanceName(Loaded(text, plant=plant).instances[0]) == "m"
    m2 = Loaded(text, plant=plant, auto_renaming=True)
    assert plant.GetModelInstanceName(m2.instances[0]) == "m_1"
    m3 = Loaded(text, plant=plant, model_name="other", prefix="pre")
    assert plant.GetModelInstanceName(m3.instances[0]) == "pre::other"


# ---- joints ------------------------------------------------------------------------------------
def test_revolute_limits_actuator_and_drake_actuator_extensions():
    m = Loaded(
        sdf("""<link name="a"/>
      <joint name="j" type="revolute"><parent>world</parent><child>a</child>
        <axis><xyz>0 0 2</xyz><limit><lower>-1</lower><upper>2</upper><effort>3</effort>
          <velocity>4</velocity><drake:acceleration>5</drake:acceleration></limit></axis>
        <drake:rotor_inertia>0.25</drake:rotor_inertia><drake:gear_ratio>3</drake:gear_ratio>
        <drake:controller_gains p="10" d="2"/></joint>""")
    )
    j = m.joint("j")
    np.testing.assert_array_equal(j.revolute_axis(), [0, 0, 1])
    assert (j.position_lower_limits()[0], j.position_upper_limits()[0]) == (-1.0, 2.0)
    assert (j.velocity_lower_limits()[0], j.velocity_upper_limits()[0]) == (-4.0, 4.0)
    assert j.acceleration_upper_limits()[0] == 5.0
    actuator = m.plant.GetJointActuatorByName("j")
    assert actuator.effort_limit() == 3.0
    assert (actuator.default_rotor_inertia(), actuator.default_gear_ratio()) == (0.25, 3.0)
    assert (actuator.get_controller_gains().p, actuator.get_controller_gains().d) == (10, 2)


def test_no_effort_limit_means_an_unlimited_actuator():
    m = Loaded(
        sdf(
            '<link name="a"/><joint name="j" type="prismatic"><parent>world</parent>'
            "<child>a</child><axis><xyz>1 0 0</xyz></axis></joint>"
        )
    )
    assert m.plant.GetJointActuatorByName("j").effort_limit() == math.inf
    assert m.joint("j").velocity_upper_limits()[0] == math.inf


def test_continuous_ignores_position_limits_and_springs_are_added():
    m = Loaded(
        sdf("""<link name="a"/><link name="b"/>
      <joint name="c" type="continuous"><parent>world</parent><child>a</child>
        <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper><velocity>2</velocity>
        </limit><dynamics><spring_stiffness>3</spring_stiffness>
        <spring_reference>0.5</spring_reference></dynamics></axis></joint>
      <joint name="p" type="prismatic"><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz><dynamics><spring_stiffness>4</spring_stiffness></dynamics>
        </axis></joint>""")
    )
    c = m.joint("c")
    assert c.type_name() == "revolute"
    assert c.position_upper_limits()[0] == math.inf
    assert c.velocity_upper_limits()[0] == 2.0
    kinds = force_kinds(m.plant)
    assert kinds == ["RevoluteSpring", "PrismaticSpring"]


def test_universal_ball_and_screw_joints():
    m = Loaded(
        sdf(
            """<link name="a"/><link name="b"/><link name="c"/>
      <joint name="u" type="universal"><parent>world</parent><child>a</child>
        <axis><xyz>0 1 0</xyz><limit><effort>0</effort></limit></axis>
        <axis2><xyz>0 0 1</xyz><limit><effort>0</effort></limit></axis2></joint>
      <joint name="ball" type="ball"><parent>a</parent><child>b</child></joint>
      <joint name="s" type="screw"><parent>b</parent><child>c</child>
        <screw_thread_pitch>0.3</screw_thread_pitch><axis><xyz>0 0 1</xyz></axis></joint>""",
            version="1.11",
        )
    )
    u = m.joint("u")
    assert u.type_name() == "universal"
    # F and M are the frame I whose x and y axes are axis and axis2.
    R = u.frame_on_parent().GetFixedPoseInBodyFrame().rotation().matrix()
    np.testing.assert_allclose(R, [[0, 0, 1], [1, 0, 0], [0, 1, 0]], atol=1e-15)
    assert m.joint("ball").type_name() == "ball_rpy"
    s = m.joint("s")
    assert s.screw_pitch() == 0.3
    assert m.plant.num_actuators() == 1  # effort limits of universal and ball joints: none
    assert m.plant.GetJointActuatorByName("s").joint() is s


def test_deprecated_thread_pitch_is_converted(caplog):
    m = Loaded(
        sdf(
            '<link name="a"/><joint name="s" type="screw"><parent>world</parent>'
            "<child>a</child><thread_pitch>0.2</thread_pitch><axis><xyz>0 0 1</xyz>"
            "</axis></joint>"
        )
    )
    assert m.joint("s").screw_pitch() == pytest.approx(-2 * math.pi / 0.2)
    assert "deprecated" in caplog.text


def test_axis_expressed_in_a_frame_and_sdformat_1_6_parent_model_frame():
    rotated = '<link name="a"><pose>0 0 0 0 0 1.5707963267948966</pose></link>'
    for axis in (
        '<xyz expressed_in="__model__">1 0 0</xyz>',
        "<xyz>1 0 0</xyz><use_parent_model_frame>true</use_parent_model_frame>",
    ):
        version = "1.6" if "use_parent" in axis else "1.9"
        m = Loaded(
            sdf(
                f'{rotated}<joint name="j" type="revolute"><parent>world</parent>'
                f"<child>a</child><axis>{axis}</axis></joint>",
                version=version,
            )
        )
        np.testing.assert_allclose(m.joint("j").revolute_axis(), [0, -1, 0], atol=1e-15)


def test_pose_formats_degrees_and_quaternions():
    m = Loaded(
        sdf(
            '<link name="a"><pose degrees="true">0 0 0 0 0 90</pose></link>'
            '<link name="b"><pose rotation_format="quat_xyzw">1 2 3 0 0 '
            "0.7071067811865476 0.7071067811865476</pose></link>"
        )
    )
    for name, p in (("a", [0, 0, 0]), ("b", [1, 2, 3])):
        assert_pose(m.plant.GetDefaultFloatingBaseBodyPose(m.body(name)), p, [0, 0, math.pi / 2])


def test_canonical_link_and_placement_frame():
    m = Loaded(
        sdf(
            '<link name="p"/><link name="q"><pose>0 0 1 0 0 0</pose></link>',
            name='m" canonical_link="q" placement_frame="q',
        )
    )
    model_frame = m.frame("__model__")
    assert model_frame.body() is m.body("q")
    # The model pose (identity) places frame q: q at the origin, p one below.
    assert_pose(m.plant.GetDefaultFloatingBaseBodyPose(m.body("p")), [0, 0, -1])


# ---- includes ----------------------------------------------------------------------------------
def test_includes_of_sdformat_and_urdf_files(tmp_path):
    files = {
        "arm.sdf": _ARM,
        "box.urdf": _BOX_URDF,
        "models/arm2/model.config": "<model><sdf version='1.8'>a.sdf</sdf></model>",
        "models/arm2/a.sdf": _ARM,
    }
    text = sdf(
        """<link name="root"/>
      <include><uri>package://pkg/arm.sdf</uri><name>arm1</name>
        <pose>1 0 0 0 0 0</pose></include>
      <include><uri>arm.sdf</uri></include>
      <include><uri>model://pkg/models/arm2</uri><name>arm2</name></include>
      <include><uri>box.urdf</uri><name>boxy</name><pose>0 2 0 0 0 0</pose></include>
      <joint name="w" type="fixed"><parent>arm::tip</parent><child>boxy::l0</child></joint>
      <frame name="fe" attached_to="arm1::ee"/>""",
        name="top",
    )
    m = Loaded(text, tmp_path, files)
    plant = m.plant
    names = [plant.GetModelInstanceName(i) for i in m.instances]
    assert names == ["top", "top::arm1", "top::arm", "top::arm2"]
    # The URDF model is parsed while the document loads, before the SDFormat models.
    assert plant.GetModelInstanceName(m.body("l0").model_instance()) == "top::boxy"
    assert int(m.body("l0").model_instance()) < int(m.instances[0])
    arm1 = plant.GetModelInstanceByName("top::arm1")
    assert_pose(
        plant.GetDefaultFloatingBaseBodyPose(plant.GetBodyByName("base", arm1)), [1, 0, 0.5]
    )
    arm = plant.GetModelInstanceByName("top::arm")
    assert_pose(plant.GetDefaultFloatingBaseBodyPose(plant.GetBodyByName("base", arm)), [0, 0, 1.5])
    assert_pose(plant.GetDefaultFloatingBaseBodyPose(m.body("l0")), [0, 2, 0])
    assert m.frame("fe").body() is plant.GetBodyByName("tip", arm1)
    w = m.joint("w")
    assert_pose(w.frame_on_parent().GetFixedPoseInBodyFrame(), [0, 2, -1])


def test_static_include_override(tmp_path):
    files = {"post.sdf": sdf('<link name="foot"/>', name="post")}
    m = Loaded(
        sdf('<link name="r"/><include><uri>post.sdf</uri><static>1</static></include>'),
        tmp_path,
        files,
    )
    assert m.names("joints") == ["sdformat_model_static_world_welds_to_foot"]


# ---- Drake's extensions and geometry -----------------------------------------------------------
def test_drake_joint_bushing_and_spring_damper():
    m = Loaded(
        sdf("""<link name="a"/><link name="b"/>
      <frame name="pf" attached_to="a"/>
      <drake:joint name="planar" type="planar"><drake:parent>pf</drake:parent>
        <drake:child>b</drake:child><drake:damping>0.1 0.2 0.3</drake:damping></drake:joint>
      <drake:linear_bushing_rpy><drake:bushing_frameA>a</drake:bushing_frameA>
        <drake:bushing_frameC>b</drake:bushing_frameC>
        <drake:bushing_torque_stiffness>1 2 3</drake:bushing_torque_stiffness>
        <drake:bushing_torque_damping>1 2 3</drake:bushing_torque_damping>
        <drake:bushing_force_stiffness>1 2 3</drake:bushing_force_stiffness>
        <drake:bushing_force_damping>1 2 3</drake:bushing_force_damping>
      </drake:linear_bushing_rpy>
      <drake:linear_spring_damper>
        <drake:linear_spring_damper_body_A>a</drake:linear_spring_damper_body_A>
        <drake:linear_spring_damper_p_AP>0 0 0</drake:linear_spring_damper_p_AP>
        <drake:linear_spring_damper_body_B>b</drake:linear_spring_damper_body_B>
        <drake:linear_spring_damper_p_BQ>0 0 0</drake:linear_spring_damper_p_BQ>
        <drake:linear_spring_damper_free_length>1</drake:linear_spring_damper_free_length>
        <drake:linear_spring_damper_stiffness>2</drake:linear_spring_damper_stiffness>
        <drake:linear_spring_damper_damping>3</drake:linear_spring_damper_damping>
      </drake:linear_spring_damper>""")
    )
    planar = m.joint("planar")
    assert planar.type_name() == "planar"
    np.testing.assert_array_equal(planar.default_damping_vector(), [0.1, 0.2, 0.3])
    kinds = force_kinds(m.plant)
    assert kinds == ["LinearBushingRollPitchYaw", "LinearSpringDamper"]


def test_geometry_records_only_with_a_scene_graph(tmp_path):
    body = """<link name="a">
      <visual name="v"><pose>0 0 1 0 0 0</pose><geometry><box><size>1 2 3</size></box>
        </geometry><material><diffuse>1 0 0 1</diffuse></material></visual>
      <collision name="c"><geometry><sphere><radius>0.5</radius></sphere></geometry>
      </collision>
      <collision name="m"><geometry><mesh><uri>package://pkg/x.obj</uri>
        <drake:declare_convex/></mesh></geometry></collision></link>"""
    assert Loaded(sdf(body)).geometries is None
    m = Loaded(sdf(body), tmp_path, {"x.obj": ""}, scene_graph=True)
    visual, sphere, mesh = m.geometries
    assert (visual.role, visual.name, repr(visual.shape)) == ("visual", "v", repr(Box(1, 2, 3)))
    assert_pose(visual.X_BG, [0, 0, 1])
    np.testing.assert_array_equal(visual.properties["phong"]["diffuse"], [1, 0, 0, 1])
    assert (sphere.role, repr(sphere.shape)) == ("collision", repr(Sphere(0.5)))
    assert isinstance(mesh.shape, MeshRecord) and mesh.shape.convex


def test_pose_arithmetic_matches_rigid_transforms():
    X_AB = Pose.from_rpy((1, 2, 3), (0.1, -0.2, 0.3))
    X_BC = Pose.from_rpy((-1, 0.5, 0), (0.4, 0.5, -0.6))
    expected = X_AB.to_rigid_transform() @ X_BC.to_rigid_transform()
    np.testing.assert_allclose(
        (X_AB * X_BC).to_rigid_transform().GetAsMatrix4(), expected.GetAsMatrix4(), atol=1e-14
    )
    identity = (X_AB.inverse() * X_AB).to_rigid_transform()
    np.testing.assert_allclose(identity.GetAsMatrix4(), np.eye(4), atol=1e-15)
    R = RotationMatrix(RollPitchYaw(0.1, -0.2, 0.3)).matrix()
    np.testing.assert_allclose(X_AB.to_rigid_transform().rotation().matrix(), R, atol=1e-15)
    assert Pose.from_rpy((0, 0, 0), (0, 0, 0)).to_rigid_transform().IsExactlyIdentity()


def test_warnings_go_to_the_parsing_logger(caplog):
    with caplog.at_level(logging.WARNING, logger="mallard.parsing"):
        Loaded(
            sdf(
                '<link name="a"><self_collide>1</self_collide><kinematic>1</kinematic></link>'
                '<plugin name="p" filename="f"/>'
            )
        )
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "<literal-string>.sdf:3: warning: Ignoring unsupported SDFormat element in model: plugin",
        "<literal-string>.sdf:3: warning: Ignoring unsupported SDFormat element in link: "
        "self_collide",
        "<literal-string>.sdf:3: warning: Unsupported value for SDFormat element kinematic: true",
    ]
