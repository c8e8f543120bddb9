"""Drake's tutorial pyplot_animation_multibody_plant under mallard: a pendulum (Drake's
model, from an installed pydrake) simulated in real time with PlanarSceneGraphVisualizer,
shown, then recorded as a matplotlib animation (as HTML); the recorded frames and the last
drawing agree with pydrake's (test_visualization compares the polygons). (0.3 s simulated
instead of the tutorial's 1 s: in real time, the test would take 6 s.)"""

import pytest

pytest.importorskip("pydrake")
pytest.importorskip("matplotlib")

from tests.conformance.tutorials.runner import compare  # noqa: E402

SOURCE = """
import matplotlib
matplotlib.use("Agg")
import numpy as np
from matplotlib import animation
from {lib}.multibody.parsing import Parser
from {lib}.multibody.plant import AddMultibodyPlantSceneGraph
from {lib}.systems.analysis import Simulator
from {lib}.systems.framework import DiagramBuilder
from {lib}.systems.planar_scenegraph_visualizer import ConnectPlanarSceneGraphVisualizer

def run_pendulum(duration=1., playback=True, show=True):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.)
    Parser(builder).AddModels(url="package://drake/examples/pendulum/Pendulum.urdf")
    plant.Finalize()
    T_VW = np.array([[1., 0., 0., 0.], [0., 0., 1., 0.], [0., 0., 0., 1.]])
    visualizer = ConnectPlanarSceneGraphVisualizer(
        builder, scene_graph, T_VW=T_VW, xlim=[-1.2, 1.2], ylim=[-1.2, 1.2], show=show)
    if playback:
        visualizer.start_recording()
    diagram = builder.Build()
    simulator = Simulator(diagram)
    simulator.Initialize()
    simulator.set_target_realtime_rate(1.)
    plant_context = diagram.GetMutableSubsystemContext(plant, simulator.get_mutable_context())
    plant.get_actuation_input_port().FixValue(plant_context, np.zeros(plant.num_actuators()))
    plant_context.SetContinuousState([0.5, 0.1])
    simulator.AdvanceTo(duration)
    print(simulator.get_context().get_time(), plant.GetPositions(plant_context))
    if playback:
        visualizer.stop_recording()
        return visualizer.get_recording_as_animation()
    return None

run_pendulum(duration=0.3, playback=False)
ani = run_pendulum(duration=0.3, playback=True)
html = ani.to_jshtml()
print(html.count("<img") > 0 or "frames" in html, animation.writers.is_available("ffmpeg"))
ani = run_pendulum(duration=0.3, playback=True, show=False)
html = ani.to_jshtml()
print(len(ani._framedata) if hasattr(ani, "_framedata") else "")
"""


def test_pyplot_animation():
    compare(SOURCE)
