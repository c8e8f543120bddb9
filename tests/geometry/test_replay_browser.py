"""The replay.html of ``mallard simulate`` in headless Chromium (skipped without one): the
acrobot and the Panda (meshes from example-robot-data) are drawn, framed so that they fill
a sensible part of the page, and the Panda's page loads within 10 s; a ball landing on the
ground shows its contact force as a green arrow once it touches."""

import importlib.metadata
import os
import re

import numpy as np
import pytest

from mallard.cli import main
from tests.geometry.browser import CHROMIUM, dump_dom, screenshot

pytest.importorskip("matplotlib.image")
pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found")]

#: The page's background (the viewer's clear color) and the rows its overlays cover.
BACKGROUND = np.array([0.933, 0.941, 0.957])
TITLE_ROWS, CONTROLS_ROWS = 60, 44


def model_mask(pixels):
    """The pixels of the drawn model: those not of the background color, the title and the
    controls bar aside (the floor is hidden by "floor=0")."""
    mask = np.abs(pixels - BACKGROUND).max(axis=-1) > 0.02
    mask[:TITLE_ROWS] = False
    mask[-CONTROLS_ROWS:] = False
    return mask


def extent(mask):
    """(height, width) of the box around the mask's pixels, as fractions of the page's."""
    rows, columns = np.nonzero(mask)
    return (np.ptp(rows) + 1) / mask.shape[0], (np.ptp(columns) + 1) / mask.shape[1]


def simulate(tmp_path, *argv):
    out = tmp_path / "out"
    assert main(["simulate", *map(str, argv), "--out", str(out)]) == 0
    return out / "replay.html"


def test_acrobot_is_framed(tmp_path):
    page = simulate(tmp_path, "--duration", "3")
    masks = []
    for t in (0.0, 1.5):
        pixels = screenshot(f"{page.as_uri()}#t={t}&floor=0", tmp_path / f"{t}.png", tmp_path / "p")
        masks.append(model_mask(pixels))
    assert all(mask.sum() > 300 for mask in masks)  # the links are thin (4 cm) but drawn
    # At t = 0 (q = 2.5, 0.5: stretched out) the 3 m of links span a third of the height of the
    # box of the whole motion (which they sweep 6 m across): not a speck in a corner.
    height, _ = extent(masks[0])
    assert 0.3 < height < 0.9
    assert np.logical_xor(*masks).sum() > 300  # two different poses
    # With the floor: the grid is below the model's lowest pixel at t = 0.
    pixels = screenshot(f"{page.as_uri()}#t=0", tmp_path / "floor.png", tmp_path / "p")
    floor = model_mask(pixels) & ~masks[0]
    lowest_model_row = np.nonzero(masks[0])[0].max()
    assert floor.sum() > 1000 and np.median(np.nonzero(floor)[0]) > lowest_model_row


def panda_urdf():
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    root = dist.locate_file("cmeel.prefix/share/example-robot-data/robots/panda_description")
    return os.path.join(str(root), "urdf", "panda.urdf")


def test_panda_meshes_render_and_load_quickly(tmp_path):
    page = simulate(tmp_path, panda_urdf(), "--duration", "1", "--no-ground")
    pixels = screenshot(f"{page.as_uri()}#t=0&floor=0", tmp_path / "panda.png", tmp_path / "p")
    mask = model_mask(pixels)
    height, width = extent(mask)
    assert height > 0.4 and mask.sum() > 0.015 * mask.size  # the upright arm fills the height
    dark = (pixels.max(axis=-1) < 0.45) & mask  # its joints' dark rings (the mesh's colors)
    assert dark.sum() > 200
    dom = dump_dom(f"{page.as_uri()}#t=0.5", tmp_path / "p")
    load_ms = int(re.search(r'data-load-ms="(\d+)"', dom).group(1))
    assert load_ms <= 10_000


BALL_URDF = """<?xml version="1.0"?>
<robot name="ball"><link name="ball">
<inertial><mass value="2"/><inertia ixx="0.008" iyy="0.008" izz="0.008" ixy="0" ixz="0" iyz="0"/>
</inertial>
<visual><geometry><sphere radius="0.1"/></geometry><material name="blue"><color rgba="0 0 1 1"/>
</material></visual>
<collision><geometry><sphere radius="0.1"/></geometry></collision></link></robot>
"""


def test_contact_force_arrow_is_drawn(tmp_path):
    path = tmp_path / "ball.urdf"
    path.write_text(BALL_URDF)
    page = simulate(tmp_path, path, "--duration", "1")
    green = []
    for t in (0.0, 1.0):  # in the air; resting on the ground
        pixels = screenshot(f"{page.as_uri()}#t={t}&floor=0", tmp_path / f"{t}.png", tmp_path / "p")
        mask = (pixels[..., 1] > 0.5) & (pixels[..., 0] < 0.3) & (pixels[..., 2] < 0.3)
        green.append(mask.sum())
    assert green[0] == 0 and green[1] > 100
