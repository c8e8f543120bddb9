"""The visualization helpers against pydrake's: AddDefaultVisualization's visualizers,
JointSliders' sliders (names, ranges, values), ModelVisualizer's sliders, positions and
errors, and PlanarSceneGraphVisualizer's polygons."""

import importlib
import importlib.resources
import threading
import time

import numpy as np
import pytest

pytest.importorskip("pydrake")
pytest.importorskip("meshcat")
pytest.importorskip("matplotlib")

PENDULUM = "package://drake/examples/pendulum/Pendulum.urdf"
ACROBOT = str(importlib.resources.files("mallard.models") / "acrobot.urdf")


def lib(root, name):
    return importlib.import_module(f"{root}.{name}")


def plant_in_builder(root, urls):
    b = lib(root, "systems.framework").DiagramBuilder()
    plant, scene_graph = lib(root, "multibody.plant").AddMultibodyPlantSceneGraph(b, 0.0)
    parser = lib(root, "multibody.parsing").Parser(plant)
    parser.SetAutoRenaming(True)
    for url in urls:
        parser.AddModels(url=url) if url.startswith("package:") else parser.AddModels(url)
    plant.Finalize()
    return b, plant, scene_graph


def test_add_default_visualization():
    found = []
    for root in ("pydrake", "mallard"):
        builder, _, _ = plant_in_builder(root, [PENDULUM])
        meshcat = lib(root, "geometry").Meshcat()
        lib(root, "visualization").AddDefaultVisualization(builder, meshcat=meshcat)
        names = [s.get_name() for s in builder.GetSystems()]
        diagram = builder.Build()
        diagram.ForcedPublish(diagram.CreateDefaultContext())
        paths = [meshcat.HasPath(f"/drake/{p}") for p in ("illustration", "proximity")]
        found.append(([n for n in names if n.startswith("meshcat_visualizer(i") or
                       n == "meshcat_visualizer(proximity)"], paths))  # fmt: skip
    (d_names, d_paths), (m_names, m_paths) = found
    assert set(m_names) <= set(d_names) and "meshcat_visualizer(illustration)" in m_names
    assert m_paths == d_paths == [True, True]
    import mallard.all as M

    with pytest.raises(RuntimeError, match="no SceneGraph named 'scene_graph'"):
        M.AddDefaultVisualization(M.DiagramBuilder())


def test_joint_sliders():
    """Two acrobots (the joint names repeat: the sliders add the model instance), their
    ranges clamped by the joint limits and ±10, the output and SetPositions."""
    found = []
    for root in ("pydrake", "mallard"):
        builder, plant, _ = plant_in_builder(root, [ACROBOT, ACROBOT])
        meshcat = lib(root, "geometry").Meshcat()
        JointSliders = lib(root, "multibody.meshcat").JointSliders
        sliders = JointSliders(meshcat, plant, step=0.05, lower_limit=-2.0)
        names = meshcat.GetSliderNames()
        clamped = [meshcat.SetSliderValue(n, v) for n in names for v in (-100.0, 100.0, 0.123)]
        context = sliders.CreateDefaultContext()
        output = sliders.get_output_port().Eval(context)
        sliders.SetPositions([0.5, -0.5, 1.0, 0.0])
        moved = [meshcat.GetSliderValue(n) for n in names]
        sliders.Delete()
        after = (meshcat.GetSliderNames(), sliders.get_output_port().Eval(context))
        with pytest.raises(RuntimeError, match="Expected q of size 4, but got size 2"):
            sliders.SetPositions([0.0, 0.0])
        found.append((names, clamped, output, moved, after))
    d, m = found
    assert m[0] == d[0]
    np.testing.assert_allclose(m[1], d[1], atol=1e-12)
    np.testing.assert_allclose(m[2], d[2], atol=1e-12)
    np.testing.assert_allclose(m[3], d[3], atol=1e-12)
    assert m[4][0] == d[4][0] == []
    np.testing.assert_allclose(m[4][1], d[4][1])


def visualize(root, position=None):
    geometry, visualization = lib(root, "geometry"), lib(root, "visualization")
    meshcat = geometry.Meshcat()
    visualizer = visualization.ModelVisualizer(meshcat=meshcat)
    visualizer.AddModels(url=PENDULUM)
    visualizer.AddModels(ACROBOT)
    with pytest.raises(ValueError, match="Must provide either filename= or url="):
        visualizer.AddModels()
    visualizer.Run(position=position, loop_once=True)
    sliders = [s for s in meshcat.GetSliderNames() if "α" not in s]  # (pydrake's alpha)
    values = [meshcat.GetSliderValue(s) for s in sliders]
    with pytest.raises(ValueError, match="Finalize has already been called"):
        visualizer.AddModels(url=PENDULUM)
    if root == "mallard":  # (pydrake asserts on these)
        with pytest.raises(RuntimeError, match="Finalize has already been called"):
            visualizer.Finalize()
        with pytest.raises(ValueError, match="Finalize has already been called"):
            visualizer.parser()
    with pytest.raises(ValueError, match=r"Number of passed positions \(1\) does not match "):
        visualizer.Run(position=[0.0], loop_once=True)
    buttons = meshcat.GetButtonNames()
    return sliders, values, buttons, meshcat.HasPath("/drake/illustration")


def test_model_visualizer():
    assert visualize("mallard") == visualize("pydrake")
    assert visualize("mallard", [0.3, 0.2, -0.4]) == visualize("pydrake", [0.3, 0.2, -0.4])
    import mallard.visualization as V

    with pytest.raises(NotImplementedError, match="RgbdSensor"):
        V.ModelVisualizer(show_rgbd_sensor=True)
    with pytest.raises(NotImplementedError, match="hydroelastic"):
        V.ModelVisualizer(compliance_type="rigid")


def test_model_visualizer_frames_and_reload(tmp_path):
    """visualize_frames adds three cylinders per frame; Reload Model Files parses the files
    again (a broken file leaves an empty scene and is logged)."""
    import mallard.all as M

    urdf = tmp_path / "one.urdf"
    urdf.write_text(
        '<robot name="one"><link name="a"><visual><geometry><box size="1 1 1"/></geometry>'
        "</visual></link></robot>"
    )
    meshcat = M.Meshcat()
    visualizer = M.ModelVisualizer(meshcat=meshcat, visualize_frames=True)
    visualizer.AddModels(urdf)
    visualizer.Finalize()
    inspector = visualizer._scene_graph.model_inspector()
    assert inspector.num_geometries() == 1 + 3  # the box and the triad of frame "a"
    meshcat._controls.receive('{"button": "Reload Model Files"}')  # (as a browser sends it)

    def stop_when_reloaded():
        while (
            visualizer._plant.is_finalized() is False
            or "Stop Running" not in (meshcat.GetButtonNames())
            or meshcat.GetButtonClicks("Reload Model Files")
        ):
            time.sleep(0.01)
        meshcat._controls.receive('{"button": "Stop Running"}')

    clicker = threading.Thread(target=stop_when_reloaded, daemon=True)
    clicker.start()
    visualizer.Run()  # reloads (the reload button's clicks reset), then stops at the click
    clicker.join(timeout=60)
    assert visualizer._plant.num_bodies() == 2
    assert meshcat.GetButtonNames() == []


def polygons(root):
    """The pendulum tutorial's scene after 1 s, as PlanarSceneGraphVisualizer draws it."""
    builder, plant, scene_graph = plant_in_builder(root, [PENDULUM])
    connect = lib(root, "systems.planar_scenegraph_visualizer").ConnectPlanarSceneGraphVisualizer
    T_VW = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
    visualizer = connect(builder, scene_graph, T_VW=T_VW, xlim=[-1.2, 1.2], ylim=[-1.2, 1.2],
                         show=False)  # fmt: skip
    visualizer.start_recording()
    diagram = builder.Build()
    simulator = lib(root, "systems.analysis").Simulator(diagram)
    context = plant.GetMyMutableContextFromRoot(simulator.get_mutable_context())
    plant.get_actuation_input_port().FixValue(context, np.zeros(plant.num_actuators()))
    context.SetContinuousState([0.5, 0.1])
    simulator.AdvanceTo(1.0)
    visualizer.stop_recording()
    animation = visualizer.get_recording_as_animation()
    frames = animation._save_count if hasattr(animation, "_save_count") else None
    visualizer._draw_recorded_frame(len(visualizer._recorded_contexts) - 1)
    shapes = [np.unique(np.round(p.get_xy(), 12), axis=0) for p in visualizer.ax.patches]
    return len(visualizer._recorded_contexts), frames, shapes, visualizer.ax.get_title()


def area(vertices):
    from mallard.systems.planar_scenegraph_visualizer import convex_hull_2d

    x, y = convex_hull_2d(vertices.T)
    return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def test_planar_scenegraph_visualizer():
    """The same frames; each polygon has pydrake's vertices (pydrake's hull drops vertices
    within qhull's tolerance of an edge, mallard's keeps them) and its area."""
    (d_count, d_frames, d_shapes, d_title), (m_count, m_frames, m_shapes, m_title) = (
        polygons(r) for r in ("pydrake", "mallard")
    )
    assert (m_count, m_frames, m_title) == (d_count, d_frames, d_title)
    assert len(m_shapes) == len(d_shapes)
    for d, m in zip(d_shapes, m_shapes, strict=True):
        for vertex in d:
            assert np.min(np.linalg.norm(m - vertex, axis=1)) < 1e-9
        assert area(m) == pytest.approx(area(d), rel=1e-4)
