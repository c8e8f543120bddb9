"""The ``mallard`` command as a whole: help, version, and every error path (one line on
stderr, exit 2 for a bad command line and 1 for a failed model or run, a traceback only with
--debug)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import mallard
from mallard.systems.analysis import GetIntegrationSchemes
from tests.cli.conftest import ACROBOT_URDF


def test_bare_command_prints_the_help(run):
    result = run()
    assert result.status == 0
    assert result.out.startswith("usage: mallard")
    for command in ("simulate", "inspect", "dynamics"):
        assert command in result.out
    assert result.err == ""


def test_version(run):
    result = run("--version")
    assert result.status == 0
    assert result.out.strip() == f"mallard {mallard.__version__}"


@pytest.mark.parametrize("command", ["simulate", "inspect", "dynamics"])
def test_every_command_has_help(run, command):
    result = run(command, "--help")
    assert result.status == 0
    assert result.out.startswith(f"usage: mallard {command}")
    assert "--package-path" in result.out


def test_simulate_help_names_the_defaults(run):
    out = run("simulate", "--help").out
    assert "package://mallard/acrobot.urdf" in out
    assert "./mallard_out" in out
    for scheme in GetIntegrationSchemes():
        assert scheme in out


def _bad_urdf(tmp_path):
    path = tmp_path / "bad.urdf"
    path.write_text('<robot name="bad"><link name="a">')
    return path


def _mujoco_xml(tmp_path):
    path = tmp_path / "robot.xml"
    path.write_text('<robot name="m"/>')  # (a URDF root in an MJCF file)
    return path


def _not_a_model(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a model")
    return path


# (argv, exit status, words the message must hold); tmp_path-based entries are callables.
ERRORS = [
    (["frobnicate"], 2, ["invalid choice: 'frobnicate'", "simulate"]),
    (["simulate", "missing.urdf"], 1, ["'missing.urdf' does not exist"]),
    (["inspect", _bad_urdf], 1, ["cannot load the model", "bad.urdf", "XML"]),
    (["inspect", _not_a_model], 1, ["not a .urdf, .sdf, .xml (MuJoCo) or .dmd.yaml file"]),
    (["inspect", _mujoco_xml], 1, ["cannot load the model", "robot.xml:1", "mujoco tag"]),
    (["inspect", "package://no_such_package/robot.urdf"], 1, ["unknown package"]),
    (["simulate", "--q0", "1,2,3"], 2, ["--q0 has 3 numbers, expected 2", "shoulder_q, elbow_q"]),
    (["simulate", "--v0", "1"], 2, ["--v0 has 1 numbers, expected 2", "shoulder_w, elbow_w"]),
    (["simulate", "--q0", "1,abc"], 2, ["'abc' is not a number"]),
    (["simulate", "--q0", "1,nan"], 2, ["finite"]),
    (["simulate", "--integrator", "rk45"], 2, ["invalid choice: 'rk45'", "runge_kutta3"]),
    (["simulate", "--duration", "-1"], 2, ["--duration"]),
    (["simulate", "--time-step", "0.01", "--integrator", "runge_kutta5"], 2, ["continuous"]),
    (["simulate", "--integrator", "explicit_euler", "--accuracy", "1e-3"], 2, ["fixed-step"]),
    (["dynamics", str(ACROBOT_URDF), "--q", "0.1"], 2, ["--q has 1 numbers, expected 2"]),
    (["inspect", str(ACROBOT_URDF), "--package-path", "/no/such/dir"], 2, ["does not exist"]),
]


def _argv(entry, tmp_path):
    return [a(tmp_path) if callable(a) else a for a in entry]


@pytest.mark.parametrize(("argv", "status", "words"), ERRORS, ids=lambda e: str(e)[:40])
def test_errors_are_one_line(run, tmp_path, monkeypatch, argv, status, words):
    monkeypatch.chdir(tmp_path)
    result = run(*_argv(argv, tmp_path))
    assert result.status == status
    assert len(result.err_lines) == 1, result.err
    line = result.err_lines[0]
    assert line.startswith("mallard: error: ")
    for word in words:
        assert word in line
    assert "Traceback" not in result.err
    assert not (tmp_path / "mallard_out").exists()


@pytest.mark.parametrize(("argv", "status", "words"), ERRORS[1:6], ids=lambda e: str(e)[:40])
def test_debug_shows_the_traceback(run, tmp_path, monkeypatch, argv, status, words):
    monkeypatch.chdir(tmp_path)
    result = run("--debug", *_argv(argv, tmp_path))
    assert result.status == status
    assert result.err.startswith("Traceback (most recent call last):")
    assert result.err_lines[-1].startswith("mallard: error: ")


def test_debug_after_the_command(run, tmp_path):
    result = run("inspect", tmp_path / "missing.urdf", "--debug")
    assert result.status == 1
    assert "Traceback" in result.err


@pytest.mark.slow
def test_python_dash_m_simulates_the_acrobot(tmp_path):
    out = tmp_path / "results"
    completed = subprocess.run(
        [sys.executable, "-m", "mallard", "simulate", "--duration", "0.2", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(mallard.__file__))},
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    assert "\r" not in completed.stderr  # no progress bar when stderr is not a terminal
    assert (out / "trajectory.npz").is_file()
    with open(out / "trajectory.csv") as f:
        assert f.readline().strip() == "t,shoulder_q,elbow_q,shoulder_w,elbow_w"
    data = np.load(out / "trajectory.npz")
    np.testing.assert_allclose(data["t"], np.arange(21) * 0.01, atol=1e-12)
    assert "simulated package://mallard/acrobot.urdf for 0.2 s" in completed.stdout
