"""SDFormat parsing against pydrake: Drake's own example .sdf files shipped in the pydrake
wheel and hand-written documents covering every feature of the parser, each parsed by both
and compared: model instances, bodies, frames (with their poses), joints, actuators, force
elements, coordinate names and order, limits, damping, default state and free-body poses,
body poses at the default and a random state, mass matrix, gravity and inverse dynamics
(1e-10 relative). Broken documents must be rejected by both."""

import functools
import glob
import logging
import os
import textwrap

import numpy as np
import pytest

pydrake = pytest.importorskip("pydrake")

from pydrake.multibody import parsing as pd_parsing  # noqa: E402
from pydrake.multibody import plant as pd_plant  # noqa: E402
from pydrake.multibody import tree as pd_tree  # noqa: E402

from mallard.multibody import parsing as ml_parsing  # noqa: E402
from mallard.multibody import plant as ml_plant  # noqa: E402
from mallard.multibody import tree as ml_tree  # noqa: E402
from mallard.multibody.parsing import _sdf  # noqa: E402
from mallard.multibody.parsing._workspace import Workspace  # noqa: E402

DRAKE_SHARE = os.path.join(os.path.dirname(pydrake.__file__), "share", "drake")
DRAKE_FILES = sorted(glob.glob(f"{DRAKE_SHARE}/examples/**/*.sdf", recursive=True))
MODULES = {"pydrake": (pd_plant, pd_parsing, pd_tree), "mallard": (ml_plant, ml_parsing, ml_tree)}

# ---- hand-written documents ----------------------------------------------------------------
_ARM = """
<sdf version="1.8"><model name="arm"><pose>0 0 1 0 0 0</pose>
  <link name="base"><pose>0 0 0.5 0 0 0.3</pose>
    <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.25</izz></inertia>
    </inertial></link>
  <link name="tip"><inertial><pose>0 0 0.3 0 0 0</pose><mass>1</mass></inertial></link>
  <joint name="j" type="revolute"><parent>base</parent><child>tip</child>
    <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper><effort>10</effort>
    </limit></axis></joint>
  <frame name="ee" attached_to="tip"><pose>0 0 0.6 0 0 0</pose></frame>
</model></sdf>"""

_BOX_URDF = """
<robot name="box">
  <link name="l0"><inertial><mass value="2"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l1"><inertial><mass value="0.5"/><origin xyz="0 0 0.2"/>
    <inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="rj" type="revolute"><parent link="l0"/><child link="l1"/>
    <origin xyz="0 0 1"/><axis xyz="1 0 0"/><limit effort="3" lower="-1" upper="1"/>
  </joint>
</robot>"""

_POST = """
<sdf version="1.9"><model name="post_model"><pose>0 0 0.2 0 0 0</pose>
  <link name="foot"/><link name="top"><pose>0 0 1 0 0 0</pose></link>
  <joint name="stick" type="fixed"><parent>foot</parent><child>top</child></joint>
</model></sdf>"""

FILES = {
    "arm.sdf": _ARM,
    "post.sdf": _POST,
    "box.urdf": _BOX_URDF,
    "models/arm2/model.config": "<model><name>arm2</name><sdf version='1.8'>arm.sdf</sdf></model>",
    "models/arm2/arm.sdf": _ARM,
}

CASES = {
    "nested_frames_ball": """
<sdf version="1.9"><model name="outer">
  <pose>1 2 3 0.1 0.2 0.3</pose>
  <link name="a"><pose>0.5 0 0 0 0 0.5</pose></link>
  <model name="inner">
    <pose relative_to="a">0 1 0 0 0 0</pose>
    <link name="b"><inertial><mass>2</mass></inertial></link>
    <link name="c"><pose>0 0 1 0 0 0</pose></link>
    <joint name="j" type="revolute"><parent>b</parent><child>c</child>
      <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>2</upper><effort>3</effort>
      <velocity>4</velocity></limit></axis></joint>
    <frame name="fi"/>
  </model>
  <joint name="k" type="ball"><parent>a</parent><child>inner::b</child>
    <axis><xyz>1 0 0</xyz><dynamics><damping>0.2</damping></dynamics></axis></joint>
  <frame name="f1" attached_to="inner"><pose>0 0 0 0 0 1</pose></frame>
  <frame name="f2" attached_to="k"><pose>0.1 0 0 0 0 0</pose></frame>
  <frame name="f3" attached_to="inner::j"/>
  <frame name="f4" attached_to="f1"><pose relative_to="a">0 0 2 0 0 0</pose></frame>
</model></sdf>""",
    "world_static_universal_screw": """
<sdf version="1.11"><world name="w">
  <frame name="wf"><pose>1 0 0 0 0 0</pose></frame>
  <model name="m1"><static>true</static><pose relative_to="wf">0 0 1 0 0 0</pose>
    <link name="l1"><pose>0 1 0 0 0 0</pose></link><link name="l2"/>
    <joint name="w12" type="fixed"><parent>l1</parent><child>l2</child></joint>
    <model name="n"><link name="nb"><pose>1 0 0 0 0 0</pose></link></model>
  </model>
  <model name="m2" canonical_link="q"><pose degrees="true">0 0 0 90 0 0</pose>
    <link name="p"><pose>1 0 0 0 0 0</pose><inertial><pose>0.1 0.2 0.3 0.4 0.5 0.6</pose>
      <mass>3</mass><inertia><ixx>2</ixx><iyy>3</iyy><izz>4</izz><ixy>0.1</ixy><ixz>0.2</ixz>
      <iyz>0.3</iyz></inertia></inertial></link>
    <link name="q"><pose rotation_format="quat_xyzw">0 0 2 0 0 0.7071067811865476
      0.7071067811865476</pose></link>
    <joint name="u" type="universal"><parent>p</parent><child>q</child>
      <pose>0 0.2 0 0 0 0</pose>
      <axis><xyz>1 0 0</xyz><limit><effort>0</effort></limit>
        <dynamics><damping>0.3</damping></dynamics></axis>
      <axis2><xyz>0 1 0</xyz><limit><effort>0</effort></limit>
        <dynamics><damping>0.3</damping></dynamics></axis2></joint>
  </model>
  <model name="m3">
    <link name="a"/><link name="b"/><link name="c"/><link name="d"/>
    <joint name="s" type="screw"><parent>world</parent><child>a</child>
      <screw_thread_pitch>0.2</screw_thread_pitch>
      <axis><xyz expressed_in="__model__">0 0 1</xyz></axis></joint>
    <joint name="cj" type="continuous"><parent>a</parent><child>b</child>
      <pose>0 0 1 0 0 0</pose>
      <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper><velocity>2</velocity>
        <effort>5</effort><drake:acceleration>7</drake:acceleration></limit>
        <dynamics><damping>0.1</damping><spring_stiffness>3</spring_stiffness>
        <spring_reference>0.5</spring_reference></dynamics></axis>
      <drake:rotor_inertia>0.25</drake:rotor_inertia><drake:gear_ratio>3</drake:gear_ratio>
      <drake:controller_gains p="10" d="2"/></joint>
    <joint name="pj" type="prismatic"><parent>b</parent><child>c</child>
      <axis><xyz expressed_in="b">1 1 0</xyz><limit><lower>-0.5</lower><upper>0.5</upper>
      </limit><dynamics><spring_stiffness>3</spring_stiffness></dynamics></axis></joint>
    <joint name="sc2" type="screw"><parent>c</parent><child>d</child>
      <thread_pitch>3</thread_pitch><axis><xyz>0 0 1</xyz></axis></joint>
  </model>
  <model name="t"><pose>0 0 -1 0 0 0</pose><link name="tc"/><link name="td"/></model>
  <joint name="wj" type="fixed"><parent>world</parent><child>t::tc</child>
    <pose>0 1 0 0 0 0</pose></joint>
  <joint name="wj2" type="fixed"><parent>t::tc</parent><child>t::td</child></joint>
  <frame name="wf2" attached_to="t"/>
  <frame name="wf3" attached_to="t::tc"><pose>0 0 1 0 0 0</pose></frame>
  <frame name="wf4" attached_to="wf"/>
</world></sdf>""",
    "includes": """
<sdf version="1.9"><model name="top">
  <link name="root"/>
  <include><uri>package://sdf_test/arm.sdf</uri><name>arm1</name>
    <pose>1 0 0 0 0 0.5</pose></include>
  <include><uri>arm.sdf</uri></include>
  <include><uri>model://sdf_test/models/arm2</uri><name>arm2</name></include>
  <include><uri>post.sdf</uri><name>post</name><static>true</static>
    <pose>3 0 0 0 0 0</pose></include>
  <include><uri>box.urdf</uri><name>boxy</name><pose>0 2 0 0 0 0</pose></include>
  <joint name="w" type="fixed"><parent>root</parent><child>arm1::base</child></joint>
  <joint name="w2" type="fixed"><parent>arm::tip</parent><child>boxy::l0</child></joint>
  <frame name="fe" attached_to="arm1::ee"/>
  <frame name="fb" attached_to="boxy::rj_parent"/>
</model></sdf>""",
    "drake_extensions": """
<sdf version="1.9"><model name="ext">
  <link name="base"/><link name="slider"><pose>0 0 1 0 0 0</pose></link>
  <link name="free"/>
  <joint name="weld" type="fixed"><parent>world</parent><child>base</child></joint>
  <frame name="pf" attached_to="base"><pose>0 0 0.5 0.3 0 0</pose></frame>
  <drake:joint name="planar" type="planar"><drake:parent>pf</drake:parent>
    <drake:child>slider</drake:child><drake:damping>0.1 0.2 0.3</drake:damping>
  </drake:joint>
  <drake:linear_bushing_rpy>
    <drake:bushing_frameA>base</drake:bushing_frameA>
    <drake:bushing_frameC>free</drake:bushing_frameC>
    <drake:bushing_torque_stiffness>1 2 3</drake:bushing_torque_stiffness>
    <drake:bushing_torque_damping>0.1 0.2 0.3</drake:bushing_torque_damping>
    <drake:bushing_force_stiffness>4 5 6</drake:bushing_force_stiffness>
    <drake:bushing_force_damping>0.4 0.5 0.6</drake:bushing_force_damping>
  </drake:linear_bushing_rpy>
  <drake:linear_spring_damper>
    <drake:linear_spring_damper_body_A>base</drake:linear_spring_damper_body_A>
    <drake:linear_spring_damper_p_AP>0 0 0.1</drake:linear_spring_damper_p_AP>
    <drake:linear_spring_damper_body_B>slider</drake:linear_spring_damper_body_B>
    <drake:linear_spring_damper_p_BQ>0.1 0 0</drake:linear_spring_damper_p_BQ>
    <drake:linear_spring_damper_free_length>0.7</drake:linear_spring_damper_free_length>
    <drake:linear_spring_damper_stiffness>20</drake:linear_spring_damper_stiffness>
    <drake:linear_spring_damper_damping>2</drake:linear_spring_damper_damping>
  </drake:linear_spring_damper>
</model></sdf>""",
    "sdformat_1_6_geometry": """
<sdf version="1.6"><model name="old">
  <link name="a"><pose frame="">0 0 1 0 0 1.2</pose>
    <inertial><pose>0 0 0.1 0 0 0</pose><mass>1.5</mass>
      <inertia><ixx>0.01</ixx><iyy>0.02</iyy><izz>0.02</izz></inertia></inertial>
    <visual name="v"><geometry><box><size>1 2 3</size></box></geometry>
      <material><diffuse>1 0 0 1</diffuse></material></visual>
    <collision name="c"><geometry><sphere><radius>0.1</radius></sphere></geometry></collision>
    <collision name="c2"><geometry><cylinder><radius>0.1</radius><length>1</length>
      </cylinder></geometry></collision>
    <collision name="c3"><geometry><capsule><radius>0.1</radius><length>1</length>
      </capsule></geometry></collision>
    <visual name="v2"><geometry><ellipsoid><radii>1 2 3</radii></ellipsoid></geometry>
    </visual>
    <collision name="c4"><geometry><mesh><uri>package://sdf_test/nonexistent.obj</uri>
      <scale>1 1 1</scale></mesh></geometry><drake:proximity_properties>
      <drake:mu_dynamic>0.5</drake:mu_dynamic></drake:proximity_properties></collision>
  </link>
  <link name="b"><pose>0 0.5 1 0 0.4 0</pose></link>
  <joint name="j" type="revolute"><parent>a</parent><child>b</child>
    <pose>0 0 0.2 0 0 0</pose>
    <axis><xyz>1 0 0</xyz><use_parent_model_frame>true</use_parent_model_frame>
      <limit><effort>-1</effort><velocity>-1</velocity></limit></axis></joint>
  <joint name="jw" type="prismatic"><parent>world</parent><child>a</child>
    <axis><xyz>0 0 1</xyz><use_parent_model_frame>1</use_parent_model_frame>
      <limit><lower>-1e16</lower><upper>1e16</upper><effort>0</effort></limit></axis>
  </joint>
</model></sdf>""",
    "placement_and_canonical": """
<sdf version="1.9"><world name="w">
  <model name="p" placement_frame="tip"><pose>0 0 2 0 0 0</pose>
    <link name="base"/><link name="tip"><pose>0 0 1 0 0.5 0</pose></link>
    <joint name="j" type="prismatic"><parent>base</parent><child>tip</child>
      <axis><xyz expressed_in="__model__">0 0 1</xyz></axis></joint>
  </model>
  <model name="empty_nest"><pose>1 1 1 0 0 0</pose>
    <model name="only"><link name="l"><pose>0 0 3 0 0 0</pose></link></model>
    <frame name="at_model"/>
  </model>
  <model name="static_frames"><static>true</static><pose>0 0 5 0 0 0</pose>
    <frame name="marker"><pose>1 0 0 0 0 0</pose></frame>
  </model>
</world></sdf>""",
}

CASES["drake_package_includes"] = """
<sdf version="1.9"><world name="w">
  <include><uri>package://drake/examples/acrobot/Acrobot.sdf</uri><name>a1</name></include>
  <include><uri>package://drake/examples/acrobot/Acrobot.sdf</uri><name>a2</name>
    <pose>0 2 0 0 0 0.5</pose></include>
  <include><uri>package://drake/examples/multibody/cart_pole/cart_pole.sdf</uri></include>
  <include><uri>box.urdf</uri><name>world_box</name><pose>1 1 1 0 0 0</pose></include>
  <frame name="on_box" attached_to="world_box::l1"/>
</world></sdf>"""

# Joint frames whose pose in the parent link is identity only up to rounding: Drake makes a
# {joint}_parent frame unless it is exactly the identity.
CASES["near_identity_poses"] = """
<sdf version="1.9"><model name="m"><pose>0.1 0.2 0.3 0.7 0.8 0.9</pose>
  <link name="a"><pose>0.3 0.2 0.1 0.4 0.5 0.6</pose></link>
  <link name="b"><pose>0.3 0.2 0.1 0.4 0.5 0.6</pose></link>
  <link name="c"><pose relative_to="b">0 0 0 0 0 0</pose></link>
  <link name="d"><pose relative_to="c">0.5 0 0 0.1 0.2 0.3</pose></link>
  <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis/></joint>
  <joint name="k" type="revolute"><parent>b</parent><child>c</child><axis/></joint>
  <joint name="l" type="revolute"><parent>c</parent><child>d</child>
    <pose relative_to="c"/><axis/></joint>
  <joint name="w" type="fixed"><parent>world</parent><child>a</child>
    <pose relative_to="__model__"/></joint>
</model></sdf>"""

BROKEN = {
    "unknown_joint_type": '<link name="a"/><link name="b"/><joint name="j" type="foo">'
    "<parent>a</parent><child>b</child></joint>",
    "missing_child": '<link name="a"/><joint name="j" type="fixed"><parent>a</parent>'
    "<child>zz</child></joint>",
    "unknown_relative_to": '<link name="a"><pose relative_to="nope">0 0 0 0 0 0</pose></link>',
    "unknown_attached_to": '<link name="a"/><frame name="f" attached_to="zz"/>',
    "duplicate_name": '<link name="a"/><link name="a"/>',
    "unknown_package": '<link name="a"/><include><uri>package://nopkg/x.sdf</uri></include>',
    "unknown_element": '<link name="a"><foo>1</foo></link>',
    "unknown_drake_element": '<link name="a"><drake:foo>1</drake:foo></link>',
    "negative_damping": '<link name="a"/><joint name="j" type="revolute"><parent>world</parent>'
    "<child>a</child><axis><dynamics><damping>-1</damping></dynamics></axis></joint>",
    "limits_reversed": '<link name="a"/><joint name="j" type="revolute"><parent>world</parent>'
    "<child>a</child><axis><limit><lower>1</lower><upper>0</upper></limit></axis></joint>",
    "no_axis": '<link name="a"/><joint name="j" type="revolute"><parent>world</parent>'
    "<child>a</child></joint>",
    "no_links": "",
    "attached_to_cycle": '<link name="a"/><frame name="f" attached_to="g"/>'
    '<frame name="g" attached_to="f"/>',
    "relative_to_cycle": '<link name="a"><pose relative_to="f"/></link>'
    '<frame name="f" attached_to="a"><pose relative_to="a"/></frame>',
    "bad_number": '<link name="a"><inertial><mass>abc</mass></inertial></link>',
    "self_joint": '<link name="a"/><joint name="j" type="fixed"><parent>a</parent>'
    "<child>a</child></joint>",
    "static_revolute": '<static>true</static><link name="a"/><link name="b"/>'
    '<joint name="j" type="revolute"><parent>a</parent><child>b</child></joint>',
}


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """A directory (package "sdf_test") with the files the hand-written cases include."""
    root = tmp_path_factory.mktemp("sdf_test")
    (root / "package.xml").write_text("<package format='2'><name>sdf_test</name></package>")
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).strip())
    for name, text in CASES.items():
        (root / f"{name}.sdf").write_text(text.strip())
    return str(root)


def _quiet(function):
    """Runs ``function`` with the parsers' warnings silenced."""
    loggers = [logging.getLogger(n) for n in ("drake", "mallard.parsing")]
    levels = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(logging.ERROR)
    try:
        return function()
    finally:
        for log, level in zip(loggers, levels, strict=True):
            log.setLevel(level)


@functools.cache
def _load(library, path, package_dir=None):
    """(plant, instances) of ``path`` parsed (not finalized), or (None, error message)."""
    plant_module, parsing, _ = MODULES[library]
    plant = plant_module.MultibodyPlant(0.0)

    def add():
        if library == "pydrake":
            parser = parsing.Parser(plant)
            if package_dir:
                parser.package_map().Add("sdf_test", package_dir)
            return parser.AddModels(path)
        # mallard: the SDFormat parser itself, through a Workspace.
        package_map = parsing.PackageMap()
        package_map.Add("drake", DRAKE_SHARE)
        if package_dir:
            package_map.Add("sdf_test", package_dir)
        workspace = Workspace(plant, package_map, False, False, None)
        return _sdf.parse(workspace, workspace.load_file(path))

    try:
        instances = _quiet(add)
    except Exception as e:
        return None, str(e)
    return plant, [int(i) for i in instances]


def _describe(plant, tree):
    """Everything comparable about a plant before Finalize, as plain values."""
    frames = []
    for i in range(plant.num_frames()):
        f = plant.get_frame(tree.FrameIndex(i))
        X = f.GetFixedPoseInBodyFrame().GetAsMatrix34() if i > 0 else np.zeros((3, 4))
        frames.append((f.name(), f.body().name(), int(f.model_instance()), X))
    joints = []
    for i in range(plant.num_joints()):
        j = plant.get_joint(tree.JointIndex(i))
        joints.append(
            (
                j.name(),
                j.type_name(),
                int(j.model_instance()),
                j.frame_on_parent().name(),
                j.frame_on_child().name(),
                j.position_lower_limits(),
                j.position_upper_limits(),
                j.velocity_upper_limits(),
                j.acceleration_upper_limits(),
                j.default_damping_vector(),
                j.default_positions(),
                _joint_parameters(j),
            )
        )
    actuators = []
    for i in range(plant.num_actuators()):
        a = plant.get_joint_actuator(tree.JointActuatorIndex(i))
        gains = (
            (a.get_controller_gains().p, a.get_controller_gains().d) if a.has_controller() else None
        )
        actuators.append(
            (
                a.name(),
                a.joint().name(),
                a.effort_limit(),
                a.default_rotor_inertia(),
                a.default_gear_ratio(),
                gains,
            )
        )
    bodies = []
    for i in range(1, plant.num_bodies()):
        b = plant.get_body(tree.BodyIndex(i))
        bodies.append(
            (
                b.name(),
                int(b.model_instance()),
                b.default_spatial_inertia().CopyToFullMatrix6(),
                plant.GetDefaultFloatingBaseBodyPose(b).GetAsMatrix34(),
            )
        )
    forces = [
        type(plant.get_force_element(tree.ForceElementIndex(i))).__name__
        for i in range(plant.num_force_elements())
    ]
    instances = [
        plant.GetModelInstanceName(tree.ModelInstanceIndex(i))
        for i in range(plant.num_model_instances())
    ]
    return {
        "instances": instances,
        "bodies": bodies,
        "frames": frames,
        "joints": joints,
        "actuators": actuators,
        "forces": forces,
    }


def _joint_parameters(joint):
    """Type-specific joint parameters (axis, pitch) as a flat array."""
    values = []
    for method in ("revolute_axis", "translation_axis", "screw_axis", "screw_pitch"):
        if hasattr(joint, method):
            values.append(np.atleast_1d(getattr(joint, method)()))
    return np.concatenate(values) if values else np.zeros(0)


def _assert_same(actual, expected, what):
    """Recursive comparison: equal strings and ints, numbers within 1e-10 relative."""
    if isinstance(expected, dict):
        assert actual.keys() == expected.keys(), what
        for key in expected:
            _assert_same(actual[key], expected[key], f"{what}.{key}")
    elif isinstance(expected, (list, tuple)):
        assert len(actual) == len(expected), f"{what}: {actual} != {expected}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            _assert_same(a, e, f"{what}[{i}]")
    elif isinstance(expected, str) or expected is None:
        assert actual == expected, f"{what}: {actual!r} != {expected!r}"
    else:
        _assert_close(actual, expected, what)


def _assert_close(actual, expected, what, rtol=1e-10):
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    scale = max(1.0, float(np.max(np.abs(expected[np.isfinite(expected)]), initial=0.0)))
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale, err_msg=what)


def _compare(path, package_dir=None):
    pd, pd_instances = _load("pydrake", path, package_dir)
    ml, ml_instances = _load("mallard", path, package_dir)
    assert pd is not None, pd_instances
    assert ml is not None, f"mallard fails: {ml_instances}"
    assert ml_instances == pd_instances
    _assert_same(_describe(ml, ml_tree), _describe(pd, pd_tree), "plant")
    for plant in (ml, pd):
        plant.Finalize()
    assert ml.GetPositionNames() == pd.GetPositionNames()
    assert ml.GetVelocityNames() == pd.GetVelocityNames()
    assert ml.GetActuatorNames() == pd.GetActuatorNames()
    for limits in (
        "GetPositionLowerLimits",
        "GetPositionUpperLimits",
        "GetVelocityUpperLimits",
        "GetEffortUpperLimits",
        "GetAccelerationUpperLimits",
    ):
        np.testing.assert_array_equal(getattr(ml, limits)(), getattr(pd, limits)(), limits)
    ml_context, pd_context = ml.CreateDefaultContext(), pd.CreateDefaultContext()
    _assert_close(
        ml.GetPositionsAndVelocities(ml_context),
        pd.GetPositionsAndVelocities(pd_context),
        "default state",
    )
    _assert_poses(ml, ml_context, pd, pd_context, "default poses")
    rng = np.random.default_rng(len(path))
    q = rng.uniform(-1.0, 1.0, pd.num_positions())
    for i in range(pd.num_joints()):
        joint = pd.get_joint(pd_tree.JointIndex(i))
        if joint.type_name() == "quaternion_floating":
            s = joint.position_start()
            q[s : s + 4] /= np.linalg.norm(q[s : s + 4])
    v = rng.uniform(-1.0, 1.0, pd.num_velocities())
    vdot = rng.uniform(-1.0, 1.0, pd.num_velocities())
    for plant, context in ((ml, ml_context), (pd, pd_context)):
        plant.SetPositions(context, q)
        plant.SetVelocities(context, v)
    _assert_poses(ml, ml_context, pd, pd_context, "random poses")
    _assert_close(ml.CalcMassMatrix(ml_context), pd.CalcMassMatrix(pd_context), "mass matrix")
    _assert_close(
        ml.CalcGravityGeneralizedForces(ml_context),
        pd.CalcGravityGeneralizedForces(pd_context),
        "gravity",
    )
    tau_ml = ml.CalcInverseDynamics(ml_context, vdot, ml_tree.MultibodyForces(ml))
    tau_pd = pd.CalcInverseDynamics(pd_context, vdot, pd_tree.MultibodyForces(pd))
    _assert_close(tau_ml, tau_pd, "inverse dynamics")


def _assert_poses(ml, ml_context, pd, pd_context, what):
    for i in range(1, pd.num_bodies()):
        X_ml = ml.EvalBodyPoseInWorld(ml_context, ml.get_body(ml_tree.BodyIndex(i)))
        X_pd = pd.EvalBodyPoseInWorld(pd_context, pd.get_body(pd_tree.BodyIndex(i)))
        _assert_close(X_ml.GetAsMatrix34(), X_pd.GetAsMatrix34(), f"{what}: body {i}")


@pytest.mark.parametrize(
    "path", DRAKE_FILES, ids=[os.path.relpath(p, DRAKE_SHARE) for p in DRAKE_FILES]
)
def test_drake_example_matches_pydrake(path):
    _compare(path)


def test_drake_examples_were_found():
    names = {os.path.basename(p) for p in DRAKE_FILES}
    assert {"Acrobot.sdf", "cart_pole.sdf", "planar_gripper.sdf", "warehouse.sdf"} <= names


@pytest.mark.parametrize("case", sorted(CASES))
def test_hand_written_document_matches_pydrake(case, model_dir, monkeypatch):
    # pydrake resolves relative include URIs against the working directory, mallard against
    # the including file's directory: run where both agree.
    monkeypatch.chdir(model_dir)
    _compare(os.path.join(model_dir, f"{case}.sdf"), model_dir)


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_document_is_rejected_by_both(case, tmp_path):
    path = tmp_path / f"{case}.sdf"
    path.write_text(
        f'<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m">\n'
        f"{BROKEN[case]}\n</model>\n</sdf>\n"
    )
    pd, pd_error = _load("pydrake", str(path))
    ml, ml_error = _load("mallard", str(path))
    assert pd is None, f"pydrake loads {case}"
    assert ml is None, f"mallard loads {case}, pydrake: {pd_error}"
    assert f"{path}:" in ml_error, f"mallard's error is not located: {ml_error}"
    assert ml_error.split("error: ")[-1] in pd_error or _same_rule(ml_error, pd_error)


def _same_rule(ml_error, pd_error):
    """Whether both messages name the same problem (libsdformat's wording differs in the
    URI errors, which mallard words as Drake's ResolveUri does)."""
    return "nopkg" in ml_error and "nopkg" in pd_error or "abc" in ml_error and "mass" in pd_error
