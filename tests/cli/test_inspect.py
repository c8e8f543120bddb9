"""``mallard inspect``: the tables hold the model file's numbers (acrobot.urdf's and
pendulum.urdf's, as written in those files)."""

import re

import pytest

from mallard.multibody.parsing import Parser
from mallard.multibody.plant import MultibodyPlant
from tests.cli.conftest import ACROBOT_URDF


def _row(out, first_cells):
    """The cells of the table row of ``out`` that starts with ``first_cells``."""
    for line in out.splitlines():
        cells = re.split(r"\s{2,}", line.strip())
        if cells[: len(first_cells)] == first_cells:
            return cells
    raise AssertionError(f"no row {first_cells} in:\n{out}")


def test_acrobot_tables(run):
    result = run("inspect", "package://mallard/acrobot.urdf")
    assert result.status == 0, result.err
    out = result.out
    assert _row(out, ["2", "acrobot"]) == ["2", "acrobot", "2", "2", "1", "2", "2"]
    # acrobot.urdf: link1 1 kg with its COM 0.5 m down, link2 1 kg with its COM 1 m down.
    assert _row(out, ["1", "link1"]) == ["1", "link1", "acrobot", "1", "0 0 -0.5"]
    assert _row(out, ["2", "link2"]) == ["2", "link2", "acrobot", "1", "0 0 -1"]
    # Continuous joints (no limits), damping 0.1; the elbow's coordinate is q[1], v[1].
    shoulder = _row(out, ["0", "shoulder"])
    assert shoulder == ["0", "shoulder", "revolute", "world -> link1", "0", "0", "none", "0.1"]
    assert _row(out, ["1", "elbow"])[3:] == ["link1 -> link2", "1", "1", "none", "0.1"]
    assert _row(out, ["0", "elbow", "elbow"]) == ["0", "elbow", "elbow", "inf"]
    assert "total mass: 2 kg; nq = 2, nv = 2, nu = 1" in out


def test_pendulum_limits_and_effort(run):
    out = run("inspect", "package://mallard/pendulum.urdf").out
    # pendulum.urdf: <limit effort="5"/> (no position limits given), damping 0.1, 1 kg.
    assert _row(out, ["0", "theta", "theta"]) == ["0", "theta", "theta", "5"]
    assert _row(out, ["0", "theta", "revolute"])[-1] == "0.1"
    assert "total mass: 1 kg; nq = 1, nv = 1, nu = 1" in out


def test_graphviz_writes_the_topology(run, tmp_path):
    path = tmp_path / "acrobot.dot"
    result = run("inspect", "package://mallard/acrobot.urdf", "--graphviz", path)
    assert result.status == 0
    text = path.read_text()
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromUrl("package://mallard/acrobot.urdf")
    plant.Finalize()
    assert text == plant.GetTopologyGraphvizString()
    assert text.startswith("digraph")
    # Both joints, each from child to parent body.
    assert re.search(r'body1 -> body0 \[label="shoulder \[revolute\]"\]', text)
    assert re.search(r'body2 -> body1 \[label="elbow \[revolute\]"\]', text)


def test_graphviz_unwritable_file(run, tmp_path):
    result = run(
        "inspect", "package://mallard/acrobot.urdf", "--graphviz", tmp_path / "no" / "x.dot"
    )
    assert result.status == 1
    assert result.err_lines == [
        f"mallard: error: cannot write --graphviz {tmp_path / 'no' / 'x.dot'}: "
        "No such file or directory"
    ]


def test_total_mass_matches_pydrake(run):
    pydrake = pytest.importorskip("pydrake.all")
    out = run("inspect", "package://mallard/cart_pole.urdf").out
    plant = pydrake.MultibodyPlant(0.0)
    parser = pydrake.Parser(plant)
    parser.package_map().AddPackageXml(str(ACROBOT_URDF.parent / "package.xml"))
    parser.AddModels(url="package://mallard/cart_pole.urdf")
    plant.Finalize()
    mass = plant.CalcTotalMass(plant.CreateDefaultContext())
    match = re.search(r"total mass: (\S+) kg; nq = (\d+), nv = (\d+)", out)
    assert float(match[1]) == pytest.approx(mass, rel=1e-5)
    assert (int(match[2]), int(match[3])) == (plant.num_positions(), plant.num_velocities())
