"""The viewer in headless Chromium (skipped without one): the StaticHtml() of a recorded
acrobot simulation draws the robot, and its replay at two times shows two different poses;
the live viewer of Meshcat(port) draws its scene."""

import os
import shutil
import signal
import subprocess

import numpy as np
import pytest

pytest.importorskip("meshcat")
image = pytest.importorskip("matplotlib.image")

from mallard.geometry import Box, Meshcat, MeshcatVisualizer, Rgba, StartMeshcat  # noqa: E402
from mallard.multibody.parsing import Parser  # noqa: E402
from mallard.multibody.plant import AddMultibodyPlantSceneGraph  # noqa: E402
from mallard.systems.analysis import Simulator  # noqa: E402
from mallard.systems.framework import DiagramBuilder  # noqa: E402


def find_chromium():
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


CHROMIUM = find_chromium()
pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")]


def screenshot(url, path, profile):
    """The RGB pixels (floats in [0, 1]) of ``url`` rendered by headless Chromium (its
    process group is killed if it has not finished in 3 minutes)."""
    command = [
        CHROMIUM,
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--use-gl=swiftshader",
        "--enable-unsafe-swiftshader",
        f"--user-data-dir={profile}",
        f"--screenshot={path}",
        "--window-size=800,600",
        "--virtual-time-budget=5000",
        url,
    ]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        assert process.wait(timeout=180) == 0
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return image.imread(path)[:, :, :3]


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
