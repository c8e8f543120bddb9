"""``mallard simulate``: its files, its physics (energies against closed forms, energy
conservation and the damping balance, pydrake's trajectory) and its options."""

import base64
import csv
import json
import math
import sys
import time

import numpy as np
import pytest

from mallard.cli._simulate import DEMO_Q0, _cumulative_integral
from mallard.systems.analysis import GetIntegrationSchemes
from tests.cli.conftest import MIMIC_URDF


def _simulate(run, out, *argv):
    result = run("simulate", *argv, "--out", out)
    assert result.status == 0, result.err
    return result, dict(np.load(out / "trajectory.npz"))


def _drift(data):
    """E(T) - E(0) relative to the energy range, from the saved energies."""
    kinetic, potential = data["kinetic_energy"], data["potential_energy"]
    total = kinetic + potential
    return (total[-1] - total[0]) / (kinetic.max() + np.ptp(potential))


def test_default_run_writes_every_file(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("simulate", "--duration", "0.3")
    assert result.status == 0, result.err
    out = tmp_path / "mallard_out"
    data = np.load(out / "trajectory.npz")
    np.testing.assert_allclose(data["t"], np.arange(31) * 0.01, atol=1e-12)
    assert data["q"].shape == data["v"].shape == (31, 2)
    np.testing.assert_array_equal(data["q"][0], DEMO_Q0)
    np.testing.assert_array_equal(data["v"][0], [0.0, 0.0])
    assert list(data["position_names"]) == ["shoulder_q", "elbow_q"]
    assert list(data["velocity_names"]) == ["shoulder_w", "elbow_w"]
    with open(out / "trajectory.csv") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["t", "shoulder_q", "elbow_q", "shoulder_w", "elbow_w"]
    table = np.array(rows[1:], dtype=float)
    np.testing.assert_allclose(table, np.column_stack([data["t"], data["q"], data["v"]]), 1e-11)
    lines = result.out.splitlines()
    assert lines[0] == (
        "simulated package://mallard/acrobot.urdf for 0.3 s "
        "(continuous, runge_kutta3, accuracy 1e-06)"
    )
    assert lines[1].startswith("  steps: ") and "real-time factor: " in lines[1]
    assert "energy drift" in lines[3]
    assert (out / "plot.svg").read_text().startswith("<svg")
    assert (out / "replay.html").read_text().startswith("<!DOCTYPE html>")


def _replay_scene(path):
    """The scene a replay page holds (its JSON)."""
    html = path.read_text()
    start = html.index('<script type="application/json" id="mallard-scene">')
    text = html[html.index(">", start) + 1 : html.index("</script>", start)]
    return json.loads(text)  # (JSON reads the page's "<\\/" as "</")


def test_replay_html(run, tmp_path):
    """replay.html needs no extra: the model's name, its two links (each cylinder in its
    link's frame) and the poses of the run, framed with the floor below the motion."""
    result = run("simulate", "--duration", "0.5", "--out", tmp_path)
    assert result.status == 0, result.err
    html = (tmp_path / "replay.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "MeshCat" not in html
    assert "<b>acrobot</b>" in html
    assert "simulated for 0.5 s (continuous, runge_kutta3, accuracy 1e-06)" in html
    assert f"{tmp_path / 'replay.html'}" in result.out
    scene = _replay_scene(tmp_path / "replay.html")
    assert scene["title"] == "acrobot" and scene["num_frames"] == 2
    assert [o["type"] for o in scene["objects"]] == ["cylinder", "cylinder"]
    times = np.frombuffer(base64.b64decode(scene["times"]), dtype=np.float64)
    np.testing.assert_allclose(times, np.arange(51) * 0.01, atol=1e-12)
    (lo, hi), floor = scene["bounds"], scene["floor"]
    assert floor <= lo[2] and hi[2] > lo[2]


@pytest.mark.parametrize("show_inertia", [False, True])
def test_show_inertia_draws_an_ellipsoid_per_body(run, tmp_path, show_inertia):
    flag = ("--show-inertia",) if show_inertia else ()
    assert run("simulate", "--duration", "0.05", "--out", tmp_path, *flag).status == 0
    scene = _replay_scene(tmp_path / "replay.html")
    types = sorted(o["type"] for o in scene["objects"])
    assert types == ["cylinder", "cylinder"] + ["ellipsoid"] * 2 * show_inertia
    assert scene["num_frames"] == 2 + 2 * show_inertia


def test_pendulum_energies_match_closed_forms(run, tmp_path, pendulum):
    _, data = _simulate(
        run, tmp_path, pendulum, "--duration", "1", "--q0", "1.2", "--accuracy", "1e-10"
    )
    theta, omega = data["q"][:, 0], data["v"][:, 0]
    # The bob: 2 kg, COM 0.5 m below the pivot, 0.01 kg m² about its COM; g = 9.81 m/s².
    np.testing.assert_allclose(
        data["kinetic_energy"], 0.5 * (0.01 + 2 * 0.25) * omega**2, rtol=1e-12, atol=1e-14
    )
    np.testing.assert_allclose(
        data["potential_energy"], -2 * 9.81 * 0.5 * np.cos(theta), rtol=1e-12
    )
    assert abs(_drift(data)) < 1e-8
    np.testing.assert_array_equal(data["damping_dissipated"], 0.0)


def test_undamped_acrobot_conserves_energy(run, tmp_path, undamped_acrobot):
    """A truth check of the integration: the chaotic double pendulum without damping keeps its
    energy to the accuracy asked for."""
    result, data = _simulate(
        run,
        tmp_path,
        undamped_acrobot,
        "--duration",
        "1",
        "--q0",
        "2.5,0.5",
        "--integrator",
        "runge_kutta3",
        "--accuracy",
        "1e-9",
    )
    assert abs(_drift(data)) < 1e-7
    assert np.ptp(data["q"][:, 1]) > 1.5  # it moved a lot
    printed = float(result.out.split("(")[-1].split(" of the range")[0])
    assert printed == pytest.approx(_drift(data), rel=1e-2, abs=1e-12)


def test_damping_losses_balance_the_energy(run, tmp_path):
    """dE/dt = -vᵀ·B·v: the energy lost equals the damping losses integrated from the logged
    velocities (acrobot.urdf: damping 0.1 N·m·s at both joints), to the quadrature's O(h⁴)."""
    _, data = _simulate(
        run, tmp_path, "--duration", "1", "--accuracy", "1e-10", "--sample-period", "0.002"
    )
    total = data["kinetic_energy"] + data["potential_energy"]
    power = 0.1 * (data["v"] ** 2).sum(axis=1)
    assert data["damping_dissipated"][-1] > 1  # joules: a loss to account for
    np.testing.assert_allclose(
        total[0] - total, data["damping_dissipated"], atol=1e-6 * (total.max() - total.min())
    )
    # The trapezoidal rule agrees to its O(h²) accuracy.
    trapezoid = np.sum(0.5 * (power[1:] + power[:-1]) * np.diff(data["t"]))
    assert data["damping_dissipated"][-1] == pytest.approx(trapezoid, rel=1e-3)


def test_acrobot_trajectory_matches_pydrake(run, tmp_path):
    pydrake = pytest.importorskip("pydrake.all")
    from tests.cli.conftest import ACROBOT_URDF

    _, data = _simulate(
        run,
        tmp_path,
        ACROBOT_URDF,
        "--duration",
        "0.5",
        "--q0",
        "1.0,-0.5",
        "--v0",
        "0.3,0",
        "--accuracy",
        "1e-10",
    )
    plant = pydrake.MultibodyPlant(0.0)
    pydrake.Parser(plant).AddModels(str(ACROBOT_URDF))
    plant.Finalize()
    simulator = pydrake.Simulator(plant)
    pydrake.ApplySimulatorConfig(pydrake.SimulatorConfig(accuracy=1e-10), simulator)
    context = simulator.get_mutable_context()
    plant.SetPositions(context, [1.0, -0.5])
    plant.SetVelocities(context, [0.3, 0.0])
    plant.get_actuation_input_port().FixValue(context, [0.0])
    simulator.AdvanceTo(0.5)
    np.testing.assert_allclose(data["q"][-1], plant.GetPositions(context), atol=1e-7)
    np.testing.assert_allclose(data["v"][-1], plant.GetVelocities(context), atol=1e-6)


@pytest.mark.parametrize("scheme", GetIntegrationSchemes())
def test_every_integrator(run, tmp_path, pendulum, scheme):
    """Each scheme follows the pendulum to its order (fixed-step ones: 1 ms steps)."""
    _, reference = _simulate(
        run, tmp_path / "ref", pendulum, "--duration", "0.2", "--q0", "1", "--accuracy", "1e-10"
    )
    result, data = _simulate(
        run, tmp_path / scheme, pendulum, "--duration", "0.2", "--q0", "1", "--integrator", scheme
    )
    assert f"(continuous, {scheme}, " in result.out
    np.testing.assert_allclose(data["q"][-1], reference["q"][-1], atol=5e-3)
    np.testing.assert_allclose(data["v"][-1], reference["v"][-1], atol=2e-2)


def test_discrete_time_step(run, tmp_path, pendulum):
    result, data = _simulate(
        run, tmp_path, pendulum, "--duration", "0.5", "--q0", "1", "--time-step", "1e-4"
    )
    assert "(discrete, time step 0.0001 s)" in result.out
    _, reference = _simulate(
        run, tmp_path / "ref", pendulum, "--duration", "0.5", "--q0", "1", "--accuracy", "1e-10"
    )
    # The plant's first-order (semi-implicit Euler) step: error O(h).
    np.testing.assert_allclose(data["q"], reference["q"], atol=1e-3)


def test_constraints_make_the_plant_discrete(run, tmp_path):
    model = tmp_path / "mimic.urdf"
    model.write_text(MIMIC_URDF)
    result, data = _simulate(run, tmp_path, model, "--duration", "0.2", "--q0", "0.5,0.5")
    assert "mallard: note: the model has 1 constraint(s)" in result.err
    assert "(discrete, time step 0.001 s)" in result.out
    # The coupler keeps q_j2 = q_j1 (to the constraint solver's compliance).
    np.testing.assert_allclose(data["q"][:, 1], data["q"][:, 0], atol=1e-3)
    assert np.ptp(data["q"][:, 0]) > 0.05  # it swings


def test_constraints_refuse_an_integrator(run, tmp_path):
    model = tmp_path / "mimic.urdf"
    model.write_text(MIMIC_URDF)
    result = run("simulate", model, "--integrator", "runge_kutta5", "--out", tmp_path)
    assert result.status == 2
    assert result.err_lines == [
        "mallard: error: the model has 1 constraint(s), which a continuous plant cannot "
        "simulate: use --time-step instead of --integrator"
    ]


def test_warns_about_positions_outside_the_limits(run, tmp_path):
    model = tmp_path / "mimic.urdf"
    model.write_text(MIMIC_URDF)
    result = run(
        "simulate",
        model,
        "--time-step",
        "1e-3",
        "--duration",
        "0.01",
        "--q0",
        "3.5,3.5",
        "--out",
        tmp_path,
    )
    assert result.status == 0
    assert (
        "outside the joint limits, which the discrete plant will push them back into: "
        "j1_q = 3.5 not in [-3, 3]; j2_q = 3.5 not in [-3, 3]" in result.err
    )


@pytest.mark.parametrize("q0", [["-1,0.5"], ["-1", "0.5"], ["-1 0.5"], ["--q0=-1,0.5"]])
def test_vector_syntaxes(run, tmp_path, q0):
    argv = q0 if q0[0].startswith("--") else ["--q0", *q0]
    _, data = _simulate(run, tmp_path, "--duration", "0.01", *argv)
    np.testing.assert_array_equal(data["q"][0], [-1.0, 0.5])


def test_sample_period_and_nested_out_dir(run, tmp_path, pendulum):
    out = tmp_path / "a" / "b"
    _, data = _simulate(run, out, pendulum, "--duration", "0.5", "--sample-period", "0.05")
    np.testing.assert_allclose(data["t"], np.arange(11) * 0.05, atol=1e-12)


def test_realtime_rate_slows_the_run(run, tmp_path, pendulum):
    # The simulator pauses before each step, as Drake's does, so the run may end one step
    # (at most 1 ms here) before the wall clock reaches the simulated time.
    start = time.perf_counter()
    argv = ("--duration", "0.3", "--realtime-rate", "1", "--max-step-size", "0.001")
    _simulate(run, tmp_path, pendulum, *argv)
    assert time.perf_counter() - start >= 0.3 - 0.001


def test_cumulative_integral_is_fourth_order():
    """∫₀ᵗ sin = 1 - cos t; halving h divides the error by about 16."""
    errors = []
    for n in (21, 41):
        t = np.linspace(0.0, 2.0, n)
        errors.append(np.abs(_cumulative_integral(t, np.sin(t)) - (1 - np.cos(t))).max())
    assert errors[0] < 1e-5
    assert math.log2(errors[0] / errors[1]) > 3.5


def test_a_mesh_the_replay_cannot_read_is_a_warning(run, tmp_path):
    (tmp_path / "part.ply").write_text("ply\n")
    model = tmp_path / "meshy.urdf"
    model.write_text(
        MIMIC_URDF.replace("<mimic", "<!--")
        .replace('offset="0"/>', "-->")
        .replace(
            "</inertial>\n  </link>",
            '</inertial>\n    <visual><geometry><mesh filename="part.ply"/></geometry></visual>'
            "\n  </link>",
            1,
        )
    )
    result = run("simulate", model, "--duration", "0.05", "--out", tmp_path / "out")
    assert result.status == 0, result.err
    (line,) = [line for line in result.err_lines if "replay" in line]
    assert line.startswith("mallard: warning: replay: a mesh is left out: ")
    assert "part.ply: cannot read '.ply' meshes" in line
    assert _replay_scene(tmp_path / "out" / "replay.html")["objects"] == []


def test_main_job_needs_no_extra(run, tmp_path, monkeypatch):
    """The main job writes all its files with the core dependencies alone (numpy, numba): no
    meshcat (nor its msgpack and tornado), no matplotlib."""
    for name in ("meshcat", "umsgpack", "tornado", "matplotlib", "sympy"):
        monkeypatch.setitem(sys.modules, name, None)
    result = run("simulate", "--duration", "0.05", "--out", tmp_path)
    assert result.status == 0, result.err
    assert result.err == ""
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {"trajectory.npz", "trajectory.csv", "plot.svg", "replay.html"}
