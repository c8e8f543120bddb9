"""MeshcatVisualizer in a diagram: the objects it draws for a parsed model, the frame poses it
sends and records (checked against the plant's body poses), its parameters and errors."""

import numpy as np
import pytest

pytest.importorskip("meshcat")

from mallard.geometry import (  # noqa: E402
    Meshcat,
    MeshcatVisualizer,
    MeshcatVisualizerParams,
    Rgba,
    Role,
    Sphere,
    StartMeshcat,
)
from mallard.math import RigidTransform  # noqa: E402
from mallard.multibody.parsing import Parser  # noqa: E402
from mallard.multibody.plant import AddMultibodyPlantSceneGraph  # noqa: E402
from mallard.multibody.tree import SpatialInertia  # noqa: E402
from mallard.systems.analysis import Simulator  # noqa: E402
from mallard.systems.framework import DiagramBuilder  # noqa: E402
from tests.geometry.meshcat_helpers import html_commands  # noqa: E402

ROBOT = """<robot name="r">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <visual><origin xyz="0 0 -0.5"/><geometry><box size="0.1 0.2 0.3"/></geometry>
      <material><color rgba="1 0 0 1"/></material></visual>
    <collision><geometry><sphere radius="0.25"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="world"/><child link="a"/>
    <axis xyz="0 1 0"/></joint>
</robot>"""


def build(model_url=None, text=None, params=None, time_step=0.0):
    """(diagram, plant, meshcat) of a model with a MeshcatVisualizer."""
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    parser = Parser(plant)
    if text is not None:
        parser.AddModelsFromString(text, "urdf")
    else:
        parser.AddModels(url=model_url)
    plant.Finalize()
    meshcat = StartMeshcat()
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat, params)
    return builder.Build(), plant, meshcat


def scene(meshcat):
    result = {}
    for command in html_commands(meshcat.StaticHtml()):
        result.setdefault(command["path"], {})[command["type"]] = command
    return result


def matrix(flat):
    return np.array(flat, dtype=float).reshape(4, 4).T


def simulate(diagram, plant, meshcat, q0, end_time, record=True):
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    plant.SetPositions(plant.GetMyMutableContextFromRoot(context), q0)
    if record:
        meshcat.StartRecording()
    simulator.AdvanceTo(end_time)
    meshcat.StopRecording()
    return plant.GetMyContextFromRoot(context)


def test_params_defaults_match_pydrake():
    pd_geometry = pytest.importorskip("pydrake.geometry")
    ml, pd = MeshcatVisualizerParams(), pd_geometry.MeshcatVisualizerParams()
    assert ml.publish_period == pd.publish_period == 1 / 64
    assert ml.prefix == pd.prefix and int(ml.role) == int(pd.role)
    np.testing.assert_array_equal(ml.default_color.rgba, pd.default_color.rgba)
    for name in ("delete_on_initialization_event", "enable_alpha_slider", "visible_by_default"):
        assert getattr(ml, name) == getattr(pd, name)


def test_acrobot_objects_and_recorded_poses():
    """The recorded frame poses are the plant's body poses at the publish times: frame k of
    a run to k/64 s ends where a separate run to that time ends."""
    q0 = [0.5, -0.3]
    diagram, plant, meshcat = build("package://mallard/acrobot.urdf")
    simulate(diagram, plant, meshcat, q0, 0.25)
    commands = scene(meshcat)
    link1 = "/drake/visualizer/acrobot/link1"
    (geometry_path,) = [p for p in commands if p.startswith(link1 + "/")]
    material = commands[geometry_path]["set_object"]["object"]["materials"][0]
    assert material["color"] == (round(0.1 * 255) << 16) | (round(0.3 * 255) << 8) | round(
        0.8 * 255
    )
    np.testing.assert_allclose(
        matrix(commands[geometry_path]["set_transform"]["matrix"])[:3, 3], [0, 0, -0.5]
    )
    recording = meshcat.get_mutable_recording()
    assert recording.end_time() == 0.25 and recording.frame(0.25) == 16
    for k in (0, 5, 16):
        other_diagram, other_plant, other_meshcat = build("package://mallard/acrobot.urdf")
        context = simulate(other_diagram, other_plant, other_meshcat, q0, k / 64, record=False)
        for name in ("link1", "link2"):
            X_WB = other_plant.EvalBodyPoseInWorld(context, other_plant.GetBodyByName(name))
            path = f"/drake/visualizer/acrobot/{name}"
            np.testing.assert_allclose(
                recording.get_key_frame(k, path, "position"), X_WB.translation(), atol=1e-12
            )
            w, x, y, z = X_WB.rotation().ToQuaternion().wxyz()
            xyzw = np.array(recording.get_key_frame(k, path, "quaternion"))
            assert min(abs(xyzw - [x, y, z, w]).max(), abs(xyzw + [x, y, z, w]).max()) < 1e-12


def test_the_role_chooses_the_geometry():
    diagram, plant, meshcat = build(text=ROBOT)
    diagram.ForcedPublish(diagram.CreateDefaultContext())
    kinds = [
        c["set_object"]["object"]["geometries"][0]["type"]
        for c in scene(meshcat).values()
        if "set_object" in c
    ]
    assert kinds == ["BoxGeometry"]
    params = MeshcatVisualizerParams(role=Role.kProximity, default_color=Rgba(0, 1, 0, 0.5))
    diagram, plant, meshcat = build(text=ROBOT, params=params)
    diagram.ForcedPublish(diagram.CreateDefaultContext())
    objects = [c["set_object"]["object"] for c in scene(meshcat).values() if "set_object" in c]
    assert [o["geometries"][0]["type"] for o in objects] == ["SphereGeometry"]
    assert objects[0]["materials"][0]["color"] == 0x00FF00
    assert objects[0]["materials"][0]["opacity"] == 0.5


def test_forced_publish_sets_the_frame_poses():
    diagram, plant, meshcat = build(text=ROBOT, params=MeshcatVisualizerParams(prefix="/viz"))
    context = diagram.CreateDefaultContext()
    plant.SetPositions(plant.GetMyMutableContextFromRoot(context), [0.4])
    diagram.ForcedPublish(context)
    X_WA = plant.EvalBodyPoseInWorld(plant.GetMyContextFromRoot(context), plant.GetBodyByName("a"))
    np.testing.assert_allclose(
        matrix(scene(meshcat)["/viz/r/a"]["set_transform"]["matrix"]), X_WA.GetAsMatrix4()
    )


def test_initialization_deletes_the_prefix():
    for delete in (True, False):
        params = MeshcatVisualizerParams(delete_on_initialization_event=delete)
        diagram, plant, meshcat = build(text=ROBOT, params=params)
        meshcat.SetObject("visualizer/stale", Sphere(1))
        Simulator(diagram).Initialize()
        assert meshcat.HasPath("visualizer/stale") is not delete
        assert meshcat.HasPath("visualizer/r/a")


def test_visible_by_default():
    params = MeshcatVisualizerParams(visible_by_default=False)
    diagram, plant, meshcat = build(text=ROBOT, params=params)
    diagram.ForcedPublish(diagram.CreateDefaultContext())
    assert scene(meshcat)["/drake/visualizer"]["set_property"]["value"] is False


def test_visualizer_recording_methods():
    diagram, plant, meshcat = build(text=ROBOT, params=MeshcatVisualizerParams(publish_period=0.1))
    visualizer = [s for s in diagram.GetSystems() if isinstance(s, MeshcatVisualizer)][0]
    assert visualizer.get_name() == "meshcat_visualizer(visualizer)"
    recording = visualizer.StartRecording()
    assert recording.frames_per_second() == 10
    simulator = Simulator(diagram)
    simulator.AdvanceTo(0.35)
    visualizer.StopRecording()
    visualizer.PublishRecording()
    assert html_commands(meshcat.StaticHtml())[-1]["type"] == "set_animation"
    assert visualizer.get_mutable_recording().end_time() == pytest.approx(0.3)
    visualizer.DeleteRecording()
    assert visualizer.get_mutable_recording().end_time() == 0


def test_errors():
    with pytest.raises(TypeError, match="meshcat must be a Meshcat"):
        MeshcatVisualizer(object())
    with pytest.raises(NotImplementedError, match="enable_alpha_slider"):
        MeshcatVisualizer(Meshcat(), MeshcatVisualizerParams(enable_alpha_slider=True))
    with pytest.raises(NotImplementedError, match="show_hydroelastic"):
        MeshcatVisualizer(Meshcat(), MeshcatVisualizerParams(show_hydroelastic=True))
    with pytest.raises(RuntimeError, match="params.role must be"):
        MeshcatVisualizer(Meshcat(), MeshcatVisualizerParams(role=Role.kUnassigned))


def test_panda_meshes_are_drawn():
    """The Panda's visuals are .dae meshes resolved through the package map."""
    import importlib.metadata
    import os
    import warnings

    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    erd = str(dist.locate_file("cmeel.prefix/share/example-robot-data"))
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().Add("example-robot-data", erd)
    parser.AddModels(os.path.join(erd, "robots/panda_description/urdf/panda.urdf"))
    plant.Finalize()
    meshcat = StartMeshcat()
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    diagram = builder.Build()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        diagram.ForcedPublish(diagram.CreateDefaultContext())
    objects = [c["set_object"]["object"] for c in scene(meshcat).values() if "set_object" in c]
    formats = [o["geometries"][0].get("format") for o in objects]
    assert formats == ["dae"] * 11
    assert all("<COLLADA" in o["geometries"][0]["data"] for o in objects)


def test_registered_rgba_is_drawn():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    body = plant.AddRigidBody("b", SpatialInertia.SolidBoxWithMass(1.0, 1.0, 1.0, 1.0))
    plant.RegisterVisualGeometry(body, RigidTransform(), Sphere(0.5), "s", Rgba(0, 0, 1, 0.5))
    plant.Finalize()
    meshcat = StartMeshcat()
    MeshcatVisualizer.AddToBuilder(builder, scene_graph.get_query_output_port(), meshcat)
    diagram = builder.Build()
    diagram.ForcedPublish(diagram.CreateDefaultContext())
    (command,) = [c for c in scene(meshcat).values() if "set_object" in c]
    material = command["set_object"]["object"]["materials"][0]
    assert (material["color"], material["opacity"]) == (0x0000FF, 0.5)
