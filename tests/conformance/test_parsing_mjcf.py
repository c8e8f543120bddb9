"""MuJoCo (MJCF) parsing against pydrake: the hand-written Menagerie-style models of
tests/multibody/parsing/mjcf (a quadruped, a humanoid, an arm with a gripper, a cart-pole, a
hand) and feature documents, each parsed by both and compared: bodies, frames (with their
poses), joints, actuators (effort limit, gear, rotor inertia, PD gains), coordinate names and
order, limits, damping, default state and free-body poses, gravity, geometry (shape, pose,
color, friction), the warnings, and the mass matrix, gravity forces and inverse dynamics at
a random state (1e-12 relative). Broken documents must be rejected by both."""

import functools
import glob
import logging
import os
import re

import numpy as np
import pytest

pydrake = pytest.importorskip("pydrake")

from pydrake.multibody import parsing as pd_parsing  # noqa: E402
from pydrake.multibody import plant as pd_plant  # noqa: E402
from pydrake.multibody import tree as pd_tree  # noqa: E402

from mallard.multibody import parsing as ml_parsing  # noqa: E402
from mallard.multibody import plant as ml_plant  # noqa: E402
from mallard.multibody import tree as ml_tree  # noqa: E402
from tests.conformance.test_parsing_urdf import (  # noqa: E402
    _SHAPE_MEASURES,
    _actuators,
    _assert_close,
    _bodies,
    _frames,
    _joints,
    _random_state,
    _Recorder,
)

MODELS_DIR = os.path.normpath(
    os.path.join(os.path.dirname(__file__), "..", "multibody", "parsing", "mjcf")
)
MODELS = sorted(
    p for p in glob.glob(os.path.join(MODELS_DIR, "*.xml")) if not p.endswith("_assets.xml")
)

#: Feature documents (parsed from strings by both).
CASES = {
    "defaults_nested": """
<mujoco model="m"><default><geom type="box" size="0.1 0.1 0.1" rgba="0 1 0 1"/>
  <default class="a"><geom type="sphere"/><joint axis="1 0 0" damping="2"/>
    <default class="b"><joint range="-10 20"/></default></default></default>
  <worldbody><body name="b1" childclass="a"><joint name="j1"/><geom size="0.2"/>
    <body name="b2" pos="0 0 1"><joint name="j2" class="b"/><geom class="main"/></body>
  </body></worldbody></mujoco>""",
    "euler_sequences": """
<mujoco model="m"><compiler eulerseq="ZyX" angle="radian"/><worldbody>
  <body name="b" euler="0.3 -0.2 1.1"><joint type="ball"/><geom size="0.1"/>
    <body name="c" pos="1 0 0" euler="1 2 3"><joint name="s" type="slide" axis="0 1 1"
      ref="0.3" range="-1 1"/><geom type="box" size="0.1 0.2 0.3" euler="0.1 0.2 0.3"/></body>
  </body></worldbody></mujoco>""",
    "inertia_from_geom_false": """
<mujoco model="m"><compiler inertiafromgeom="false"/><worldbody>
  <body name="b"><joint/><geom size="1"/></body></worldbody></mujoco>""",
    "inertia_from_geom_true": """
<mujoco model="m"><compiler inertiafromgeom="true"/><worldbody>
  <body name="b"><joint/><inertial mass="1" diaginertia="1 1 1"/><geom size="0.5"/></body>
  </worldbody></mujoco>""",
    "two_orientations": """
<mujoco model="m"><worldbody><body name="b" quat="1 0 0 0" euler="0 0 1"><joint/>
  <geom size="1"/></body></worldbody></mujoco>""",
    "unknown_joint_type": """
<mujoco model="m"><worldbody><body name="b"><joint type="spiral"/><geom size="1"/></body>
  </worldbody></mujoco>""",
    "free_and_hinge": """
<mujoco model="m"><worldbody><body name="b"><joint/><joint type="free"/><geom size="1"/>
  </body></worldbody></mujoco>""",
    "autolimits_off": """
<mujoco model="m"><compiler autolimits="false"/><worldbody><body name="b">
  <joint range="0 1"/><geom size="1"/></body></worldbody></mujoco>""",
    "bad_limited": """
<mujoco model="m"><worldbody><body name="b"><joint limited="maybe" range="0 1"/>
  <geom size="1"/></body></worldbody></mujoco>""",
    "actuator_ranges": """
<mujoco model="m"><worldbody><body name="b"><joint name="j"/><geom size="1"/></body>
  </worldbody><actuator><motor joint="j" ctrlrange="-2 1" forcerange="-3 3"/>
  <motor joint="j" ctrlrange="2 1"/><motor tendon="t"/><velocity joint="j"/></actuator>
  </mujoco>""",
    "geom_options": """
<mujoco model="m"><worldbody><body name="b"><joint/>
  <geom name="g1" size="1" contype="0" conaffinity="0"/>
  <geom name="g2" size="1" group="3" condim="6" friction="0.5 0.1 0"/>
  <geom name="g3" size="1" contype="2"/><geom name="g4" type="hfield"/>
  <geom name="g5" type="box" fromto="0 0 0 1 1 1" size="1"/>
  <geom name="g6" type="ellipsoid" size="0.1 0.2 0.3" mass="2"/>
  <geom name="g7" type="cylinder" size="0.1 0.2" pos="0 0 1" axisangle="0 1 0 90"/>
  </body></worldbody></mujoco>""",
    "unsupported": """
<mujoco model="m"><size njmax="10"/><statistic center="0 0 0"/><sensor/><tendon/>
  <option timestep="0.01" gravity="0 0 -1"><flag contact="disable"/></option>
  <worldbody><light/><site name="s"/><body name="b" mocap="true"><site/>
  <joint springref="1" stiffness="2" frictionloss="3"/><geom size="1"/></body>
  </worldbody><keyframe/></mujoco>""",
    "equality": """
<mujoco model="m"><worldbody><body name="a"><joint/><geom size="1"/></body>
  <body name="b"><joint/><geom size="1"/></body></worldbody>
  <equality><weld body1="a"/><joint joint1="j"/></equality></mujoco>""",
    "missing_joint": """
<mujoco model="m"><worldbody><body name="b"><joint name="j"/><geom size="1"/></body>
  </worldbody><actuator><motor joint="nope"/></actuator></mujoco>""",
    "no_model_name": "<mujoco><worldbody/></mujoco>",
    "not_mujoco": "<robot name='r'/>",
    "capsule_size": """
<mujoco model="m"><worldbody><body name="b"><joint/><geom type="capsule" size="1"/></body>
  </worldbody></mujoco>""",
}


def _comparable(messages):
    """Warnings without Drake's text before the "file:line:"."""
    return sorted(re.sub(r"^.*?(\S+:\d+: (warning|error): )", r"\1", m) for m in messages)


def _parse(library, path=None, text=None, scene_graph=False, packages=()):
    """(plant, scene graph or None, error or None, warnings) of a parse (finalized), with
    the package.xml files ``packages`` added to the parser's package map."""
    plant_module, parsing, logger_name = {
        "pydrake": (pd_plant, pd_parsing, "drake"),
        "mallard": (ml_plant, ml_parsing, "mallard.parsing"),
    }[library]
    plant = plant_module.MultibodyPlant(0.0)
    graph = None
    if scene_graph:
        from importlib import import_module

        geometry = import_module("pydrake.geometry" if library == "pydrake" else "mallard.geometry")
        graph = geometry.SceneGraph()
        plant.RegisterAsSourceForSceneGraph(graph)
    parser = parsing.Parser(plant)
    for package in packages:
        parser.package_map().AddPackageXml(package)
    logger, recorder = logging.getLogger(logger_name), _Recorder()
    logger.addHandler(recorder)
    propagate, logger.propagate = logger.propagate, False
    try:
        if path is not None:
            parser.AddModels(path)
        else:
            parser.AddModelsFromString(text, "xml")
        plant.Finalize()
    except Exception as e:
        return None, None, str(e), recorder.messages
    finally:
        logger.removeHandler(recorder)
        logger.propagate = propagate
    return plant, graph, None, recorder.messages


@functools.cache
def _load(library, key):
    if key in CASES:
        return _parse(library, text=CASES[key], scene_graph=True)
    return _parse(library, path=key, scene_graph=True)


def _geometries(plant, graph, tree, roles):
    inspector = graph.model_inspector()
    result = []
    for role_name, role in roles:
        for i in range(plant.num_bodies()):
            body = plant.get_body(tree.BodyIndex(i))
            frame_id = plant.GetBodyFrameIdIfExists(body.index())
            for g in inspector.GetGeometries(frame_id, role) if frame_id is not None else []:
                shape = inspector.GetShape(g)
                kind = type(shape).__name__
                if kind in ("Mesh", "Convex"):
                    measures = (os.path.basename(str(shape.source().path())), *shape.scale3())
                else:
                    measures = tuple(getattr(shape, m)() for m in _SHAPE_MEASURES.get(kind, ()))
                if role_name == "visual":
                    properties = inspector.GetIllustrationProperties(g)
                    rgba = properties.GetPropertyOrDefault("phong", "diffuse", None)
                    extra = None if rgba is None else tuple(rgba.rgba)
                else:
                    mu = inspector.GetProximityProperties(g).GetProperty(
                        "material", "coulomb_friction"
                    )
                    extra = (mu.static_friction(), mu.dynamic_friction())
                X = inspector.GetPoseInFrame(g).GetAsMatrix34()
                result.append(
                    (role_name, body.name(), inspector.GetName(g), kind, measures, extra, X)
                )
    return result


def _compare(key):
    pd, pd_graph, pd_error, pd_warnings = _load("pydrake", key)
    ml, ml_graph, ml_error, ml_warnings = _load("mallard", key)
    assert _comparable(ml_warnings) == _comparable(pd_warnings)
    if pd is None:
        assert ml is None, f"pydrake rejects it ({pd_error}) but mallard loads it"
        location = re.match(r"(\S+:\d+): error", pd_error)
        assert ml_error.startswith(location.group(1) if location else ""), (ml_error, pd_error)
        assert re.search(r":\d+: error: ", ml_error), ml_error
        return
    assert ml is not None, f"mallard fails: {ml_error}"
    compare_plants(pd, pd_graph, ml, ml_graph)


def compare_plants(pd, pd_graph, ml, ml_graph):
    """Asserts that the finalized plants (and their scene graphs) agree."""
    for what in ("num_bodies", "num_joints", "num_frames", "num_actuators", "num_positions",
                 "num_velocities", "num_model_instances", "num_constraints"):  # fmt: skip
        assert getattr(ml, what)() == getattr(pd, what)(), what
    assert _bodies(ml, ml_tree) == _bodies(pd, pd_tree)
    assert _frames(ml, ml_tree) == _frames(pd, pd_tree)
    assert _joints(ml, ml_tree) == _joints(pd, pd_tree)
    assert _actuators(ml, ml_tree) == _actuators(pd, pd_tree)
    assert ml.GetPositionNames() == pd.GetPositionNames()
    assert ml.GetVelocityNames() == pd.GetVelocityNames()
    for i in range(pd.num_actuators()):
        a_ml = ml.get_joint_actuator(ml_tree.JointActuatorIndex(i))
        a_pd = pd.get_joint_actuator(pd_tree.JointActuatorIndex(i))
        assert a_ml.has_controller() == a_pd.has_controller()
        if a_pd.has_controller():
            gains_ml, gains_pd = a_ml.get_controller_gains(), a_pd.get_controller_gains()
            assert (gains_ml.p, gains_ml.d) == (gains_pd.p, gains_pd.d)
    for limits in ("GetPositionLowerLimits", "GetPositionUpperLimits", "GetEffortLowerLimits",
                   "GetEffortUpperLimits"):  # fmt: skip
        _assert_close(getattr(ml, limits)(), getattr(pd, limits)(), limits, rtol=1e-14)
    for i in range(pd.num_joints()):
        j_ml, j_pd = ml.get_joint(ml_tree.JointIndex(i)), pd.get_joint(pd_tree.JointIndex(i))
        np.testing.assert_array_equal(j_ml.default_damping_vector(), j_pd.default_damping_vector())
        for frame in ("frame_on_parent", "frame_on_child"):
            _assert_close(
                getattr(j_ml, frame)().GetFixedPoseInBodyFrame().GetAsMatrix34(),
                getattr(j_pd, frame)().GetFixedPoseInBodyFrame().GetAsMatrix34(),
                f"{j_pd.name()} {frame}",
                rtol=1e-14,
            )
    for i in range(1, pd.num_bodies()):
        M_ml = ml.get_body(ml_tree.BodyIndex(i)).default_spatial_inertia()
        M_pd = pd.get_body(pd_tree.BodyIndex(i)).default_spatial_inertia()
        _assert_close(M_ml.CopyToFullMatrix6(), M_pd.CopyToFullMatrix6(), f"body {i}", 1e-12)
    _assert_close(
        ml.gravity_field().gravity_vector(), pd.gravity_field().gravity_vector(), "gravity", 0
    )
    from pydrake.geometry import Role

    from mallard.geometry import Role as MlRole

    pd_roles = (("visual", Role.kIllustration), ("collision", Role.kProximity))
    ml_roles = (("visual", MlRole.kIllustration), ("collision", MlRole.kProximity))
    pd_geometries = _geometries(pd, pd_graph, pd_tree, pd_roles)
    ml_geometries = _geometries(ml, ml_graph, ml_tree, ml_roles)
    assert [g[:6] for g in ml_geometries] == [g[:6] for g in pd_geometries]
    for a, b in zip(ml_geometries, pd_geometries, strict=True):
        np.testing.assert_allclose(a[6], b[6], rtol=0, atol=1e-14)

    ml_context, pd_context = ml.CreateDefaultContext(), pd.CreateDefaultContext()
    _assert_close(
        ml.GetPositionsAndVelocities(ml_context),
        pd.GetPositionsAndVelocities(pd_context),
        "default state",
        rtol=1e-15,
    )
    for seed in range(3):
        q, v, vdot = _random_state(pd, pd_tree, np.random.default_rng(seed))
        for plant, context in ((ml, ml_context), (pd, pd_context)):
            plant.SetPositions(context, q)
            plant.SetVelocities(context, v)
        _assert_close(ml.CalcMassMatrix(ml_context), pd.CalcMassMatrix(pd_context), "M", rtol=1e-12)
        _assert_close(
            ml.CalcGravityGeneralizedForces(ml_context),
            pd.CalcGravityGeneralizedForces(pd_context),
            "tau_g",
            rtol=1e-12,
        )
        tau_ml = ml.CalcInverseDynamics(ml_context, vdot, ml_tree.MultibodyForces(ml))
        tau_pd = pd.CalcInverseDynamics(pd_context, vdot, pd_tree.MultibodyForces(pd))
        _assert_close(tau_ml, tau_pd, "inverse dynamics", rtol=1e-12)


@pytest.mark.parametrize("path", MODELS, ids=[os.path.basename(p) for p in MODELS])
def test_model_matches_pydrake(path):
    _compare(path)


@pytest.mark.parametrize("case", sorted(CASES))
def test_case_matches_pydrake(case):
    _compare(case)


def test_models_cover_the_acceptance_robots():
    names = {os.path.basename(p) for p in MODELS}
    assert {"quadruped.xml", "humanoid.xml", "arm_gripper.xml"} <= names and len(names) >= 5
