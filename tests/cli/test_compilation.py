"""Kernel compilation on the command line: a progress line when numba compiles (none when
nothing is compiled), and its time reported apart from the simulation's wall time."""

import io

import pytest

from mallard.cli import _simulate
from mallard.cli._compilation import NOTICE, CompilationWatch

numba = pytest.importorskip("numba")


def _fresh_function():
    """A new numba function, compiled at its first call (never cached)."""

    @numba.njit(cache=False)
    def add_one(x):
        return x + 1.0

    return add_one


def test_notice_once_while_compiling():
    stream = io.StringIO()
    first, second = _fresh_function(), _fresh_function()
    with CompilationWatch(stream) as watch:
        assert first(1.0) == 2.0 and second(1.0) == 2.0
    assert stream.getvalue() == NOTICE + "\n"
    assert watch.compiled and watch.seconds > 0


def test_silent_when_nothing_compiles():
    function = _fresh_function()
    function(1.0)  # compiled before the watch
    stream = io.StringIO()
    with CompilationWatch(stream) as watch:
        assert function(2.0) == 3.0
    assert stream.getvalue() == ""
    assert not watch.compiled and watch.seconds == 0.0
    compiled_after = _fresh_function()
    compiled_after(1.0)  # after the watch: not seen
    assert stream.getvalue() == ""


def test_simulate_reports_compilation_apart(run, tmp_path, pendulum, monkeypatch):
    """A first run (here: the warm-up compiles a new function) prints the notice on stderr
    and the compilation time on a line of its own; a run with everything compiled neither."""
    assert run("simulate", pendulum, "--duration", "0.1", "--out", tmp_path).status == 0
    result = run("simulate", pendulum, "--duration", "0.1", "--out", tmp_path)
    assert result.status == 0, result.err
    assert NOTICE not in result.err
    assert "compilation" not in result.out

    warm_up = _simulate._warm_up

    def compiling_warm_up(*args):
        warm_up(*args)
        _fresh_function()(1.0)

    monkeypatch.setattr(_simulate, "_warm_up", compiling_warm_up)
    result = run("simulate", pendulum, "--duration", "0.1", "--out", tmp_path)
    assert result.status == 0, result.err
    assert result.err_lines == [NOTICE]
    lines = result.out.splitlines()
    assert lines[1].startswith("  steps: ") and "real-time factor" in lines[1]
    assert lines[2].startswith("  kernel compilation: ")
    assert lines[2].endswith(" s (first run only; not in the wall time and real-time factor)")


def test_dynamics_notice(run, tmp_path, pendulum, monkeypatch):
    from mallard.cli import _dynamics

    print_dynamics = _dynamics._print_dynamics

    def compiling(*args):
        _fresh_function()(1.0)
        print_dynamics(*args)

    monkeypatch.setattr(_dynamics, "_print_dynamics", compiling)
    result = run("dynamics", pendulum)
    assert result.status == 0, result.err
    assert result.err_lines == [NOTICE]
