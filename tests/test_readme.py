"""The README's tour runs, and its commands are the ones CI and the package use."""

import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_tour_runs_and_computes_what_it_says(capsys):
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    namespace = {}
    exec(compile(code, "README tour", "exec"), namespace)
    M, xdot = namespace["M"], namespace["xdot"]
    np.testing.assert_allclose(M, M.T)
    assert np.all(np.linalg.eigvalsh(M) > 0)
    np.testing.assert_allclose(xdot[:2], [1.0, 0.5])
    # v̇ solves M·v̇ + C·v = τ_g.
    np.testing.assert_allclose(M @ xdot[2:] + namespace["Cv"], namespace["tau_g"], atol=1e-12)


def test_main_job_writes_the_simulation_outputs(tmp_path):
    """The README's main job (``mallard simulate``, here through ``python -m mallard`` as the
    console script may not be on PATH) writes the files it promises."""
    subprocess.run(
        [sys.executable, "-m", "mallard", "simulate", "--duration", "0.5"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    files = {p.name for p in (tmp_path / "mallard_out").iterdir()}
    assert files == {"trajectory.npz", "trajectory.csv", "plot.svg", "replay.html"}


def test_readme_commands():
    text = README.read_text()
    assert re.search(r"^pip install \. && mallard simulate$", text, re.M)
    # (the command CI runs: every test, --all)
    assert re.search(r'^pip install "\.\[test[^"]*\]" && python -m pytest --all$', text, re.M)
    pyproject = README.with_name("pyproject.toml").read_text()
    assert re.search(r'^\[project\.scripts\]\nmallard = "mallard\.cli:main"$', pyproject, re.M)


def test_every_python_block_runs():
    for code in re.findall(r"```python\n(.*?)```", README.read_text(), re.S)[1:]:
        exec(compile(code, "README block", "exec"), {})


def _block_with(text):
    (code,) = [c for c in re.findall(r"```python\n(.*?)```", README.read_text(), re.S) if text in c]
    namespace = {}
    exec(compile(code, "README block", "exec"), namespace)
    return namespace


def test_simulation_example_logs_what_it_says():
    ns = _block_with("Simulator(diagram)")
    log = ns["log"]
    assert log.sample_times().shape == (501,) and log.data().shape == (4, 501)
    assert log.sample_times()[-1] == 5.0


def test_batched_example_recovers_the_actuation():
    ns = _block_with("BatchedPlant(plant)")
    np.testing.assert_allclose(ns["tau"], np.c_[np.zeros(1000), ns["u"]], atol=1e-10)
    assert ns["X_WB"].shape == (1000, 3, 4, 4) and ns["J"].shape == (1000, 6, 2)


def test_scalar_types_example_agrees_with_itself_and_the_closed_form():
    ns = _block_with("ToAutoDiffXd()")
    np.testing.assert_allclose(ns["dtau_dq"], -ns["dtau_g_dq"], rtol=1e-12)
    M = ns["M"]
    q = ns["q"]
    env = {q[0]: 0.3, q[1]: -0.5}
    assert M[0, 1].Evaluate(env) == pytest.approx(1.33 + np.cos(-0.5), rel=1e-12)
