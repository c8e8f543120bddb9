"""The viewer in headless Chromium (skipped without one): the StaticHtml() of a recorded
acrobot simulation draws the robot, and its replay at two times shows two different poses;
the live viewer of Meshcat(port) draws its scene."""

import numpy as np
import pytest

pytest.importorskip("meshcat")
pytest.importorskip("matplotlib.image")

from mallard.geometry import Box, Meshcat, MeshcatVisualizer, Rgba, StartMeshcat  # noqa: E402
from mallard.multibody.parsing import Parser  # noqa: E402
from mallard.multibody.plant import AddMultibodyPlantSceneGraph  # noqa: E402
from mallard.systems.analysis import Simulator  # noqa: E402
from mallard.systems.framework import DiagramBuilder  # noqa: E402
from tests.geometry.browser import CHROMIUM, screenshot  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")]


def link_masks(pixels):
    """The masks of the red (link2) and blue (link1) pixels: the page is white once the
    background, grid and axes are hidden (the controls bar is black)."""
    r, g, b = pixels[:, :, 0], pixels[:, :, 1], pixels[:, :, 2]
    return r > np.maximum(g, b) + 0.25, b > np.maximum(r, g) + 0.25


def test_recorded_acrobot_replays_in_chromium(tmp_path):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModels(url="package://mallard/acrobot.urdf")
    plant.Finalize()
    meshcat = StartMeshcat()
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    diagram = builder.Build()
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    plant.SetPositions(plant.GetMyMutableContextFromRoot(context), [1.0, 0.5])
    meshcat.StartRecording()
    simulator.AdvanceTo(1.0)
    meshcat.StopRecording()
    meshcat.PublishRecording()
    for path in ("/Background", "/Grid", "/Axes"):
        meshcat.SetProperty(path, "visible", False)
    # Look along +y (the acrobot swings in the x-z plane); three.js's y is up here.
    meshcat.SetProperty("/Cameras/default/rotated/<object>", "position", [0.0, -1.5, 4.5])
    page = tmp_path / "acrobot.html"
    page.write_text(meshcat.StaticHtml())
    masks = [
        link_masks(screenshot(f"{page.as_uri()}#t={t}", tmp_path / f"{t}.png", tmp_path / "p"))
        for t in (0, 0.6)
    ]
    for red, blue in masks:  # both links are drawn
        assert red.sum() > 100 and blue.sum() > 100
    (red0, blue0), (red1, blue1) = masks
    assert np.logical_xor(red0, red1).sum() > 100  # in two different poses


def test_live_viewer_in_chromium(tmp_path):
    meshcat = Meshcat(port=0)
    meshcat.SetObject("box", Box(1, 1, 1), Rgba(1, 0, 0, 1))
    for path in ("/Background", "/Grid", "/Axes"):
        meshcat.SetProperty(path, "visible", False)
    red, blue = link_masks(screenshot(meshcat.web_url(), tmp_path / "live.png", tmp_path / "p"))
    assert red.sum() > 1000 and blue.sum() == 0


def test_live_viewer_shows_the_controls(tmp_path):
    """The live page draws the added slider and button in its panel (from "/controls")."""
    from tests.geometry.browser import _run

    meshcat = Meshcat(port=0)
    meshcat.AddSlider("elbow", -1.0, 1.0, 0.01, 0.25)
    meshcat.AddButton("Stop Running", "Escape")
    # (the panel arrives over a websocket after the page loads, in real time, which Chromium's
    # virtual time budget does not wait for: on a loaded machine a dump may come first)
    for attempt in range(3):
        url = meshcat.web_url()
        dom = _run(["--dump-dom", "--virtual-time-budget=5000", url], tmp_path / f"p{attempt}")
        if 'type="range"' in dom:
            break
    assert 'id="mallard-controls"' in dom
    assert 'type="range"' in dom and 'title="elbow"' in dom
    assert "<button>Stop Running</button>" in dom
