"""plot.svg of ``mallard simulate``: a panel per kind of coordinate with its unit, base
coordinates apart from the joints, small multiples for many joints, the energies, and a
title naming the model and the integrator."""

import xml.etree.ElementTree as ET

import pytest

from mallard.cli._plot import SMALL_MULTIPLES, _nice_ticks

SVG = "{http://www.w3.org/2000/svg}"

_LINK = """
  <link name="{name}">
    <inertial>
      <origin xyz="0 0 -0.25"/>
      <mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/>
    </inertial>
  </link>"""
_JOINT = """
  <joint name="{name}" type="{kind}">
    <parent link="{parent}"/>
    <child link="{child}"/>
    <origin xyz="0 0 -0.5"/>
    <axis xyz="{axis}"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>"""


def _chain(path, joints, base="world"):
    """A URDF of links l0, l1... joined by ``joints`` [(name, type, axis)]; l0 is attached to
    ``base`` by the first joint, or is a free body if ``base`` is None."""
    parts = ['<?xml version="1.0"?>\n<robot name="chain">']
    parts += [_LINK.format(name=f"l{i}") for i in range(len(joints) + (base is None))]
    for i, (name, kind, axis) in enumerate(joints):
        parent = (base if i == 0 else f"l{i - 1}") if base else f"l{i}"
        child = f"l{i}" if base else f"l{i + 1}"
        parts.append(_JOINT.format(name=name, kind=kind, parent=parent, child=child, axis=axis))
    parts.append("</robot>\n")
    path.write_text("".join(parts))
    return path


def _plot(run, tmp_path, *argv):
    result = run("simulate", *argv, "--duration", "0.2", "--out", tmp_path / "out")
    assert result.status == 0, result.err
    return ET.parse(tmp_path / "out" / "plot.svg").getroot()


def _texts(element, css):
    return [t.text for t in element.iter(f"{SVG}text") if t.get("class") == css]


def _panels(root):
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]


def test_acrobot_plot_names_the_model_units_and_coordinates(run, tmp_path):
    root = _plot(run, tmp_path)
    assert _texts(root, "title") == [
        "acrobot: simulated for 0.2 s (continuous, runge_kutta3, accuracy 1e-06)"
    ]
    assert [p.get("data-label") for p in _panels(root)] == [
        "joint angles [rad]",
        "joint angular velocities [rad/s]",
        "energy [J]",
    ]
    assert _texts(root, "ylabel") == [p.get("data-label") for p in _panels(root)]
    assert set(_texts(root, "xlabel")) == {"time [s]"}
    angles = _panels(root)[0]
    assert _texts(angles, "legend-entry") == ["shoulder_q", "elbow_q"]
    names = [s.get("data-name") for s in angles.iter(f"{SVG}polyline")]
    assert names == ["shoulder_q", "elbow_q"]
    points = angles.find(f"{SVG}polyline").get("points").split()
    assert len(points) == 21  # a point per logged sample


def test_base_coordinates_apart_from_the_joints(run, tmp_path):
    model = _chain(
        tmp_path / "free.urdf",
        [("hinge", "revolute", "0 1 0"), ("slide", "prismatic", "0 0 1")],
        base=None,
    )
    root = _plot(run, tmp_path, model, "--integrator", "runge_kutta2")
    panels = {p.get("data-label"): p for p in _panels(root)}
    assert list(panels) == [
        "base position [m]",
        "base orientation (quaternion)",
        "joint angles [rad]",
        "joint translations [m]",
        "base linear velocity [m/s]",
        "base angular velocity [rad/s]",
        "joint angular velocities [rad/s]",
        "joint linear velocities [m/s]",
        "energy [J]",
    ]
    assert _texts(panels["base position [m]"], "legend-entry") == ["l0_x", "l0_y", "l0_z"]
    assert _texts(panels["base orientation (quaternion)"], "legend-entry") == [
        "l0_qw",
        "l0_qx",
        "l0_qy",
        "l0_qz",
    ]
    assert _texts(panels["joint translations [m]"], "legend-entry") == ["slide_x"]
    assert "runge_kutta2" in _texts(root, "title")[0]


def test_many_joints_are_small_multiples(run, tmp_path):
    n = SMALL_MULTIPLES + 2
    model = _chain(tmp_path / "long.urdf", [(f"j{i}", "revolute", "0 1 0") for i in range(n)])
    root = _plot(run, tmp_path, model)
    angles = [p for p in _panels(root) if p.get("data-label") == "joint angles [rad]"]
    assert len(angles) == n  # one small panel per joint, titled with its name and unit
    assert [_texts(p, "series-title") for p in angles] == [[f"j{i}_q [rad]"] for i in range(n)]
    assert all(not _texts(p, "legend-entry") for p in angles)
    assert "chain" in _texts(root, "title")[0]


@pytest.mark.parametrize(
    "lo, hi, ticks",
    [
        (0.0, 10.0, [0, 2, 4, 6, 8, 10]),
        (-0.3, 0.7, [-0.4, -0.2, 0, 0.2, 0.4, 0.6, 0.8]),
        (5.0, 5.0, [4.4, 4.6, 4.8, 5.0, 5.2, 5.4, 5.6]),  # a constant: ±10%
    ],
)
def test_nice_ticks_cover_the_range(lo, hi, ticks):
    found, first, last = _nice_ticks(lo, hi)
    assert found == pytest.approx(ticks) and first <= lo and last >= hi
