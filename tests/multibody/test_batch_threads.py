"""BatchedPlant's threads: results bit-identical whatever the threads and which of them
computes which group of states; the caller takes over the groups a helper claimed and never
wrote (a helper that stalls costs nothing), and a helper's late results are refused; several
Python threads may call at once, under every numba threading layer (the workqueue layer, which
aborts a process whose threads enter a numba parallel region at once, in a subprocess)."""

import os
import subprocess
import sys
import textwrap
import threading

import numba
import numpy as np
import pytest

from mallard._compiled import kernels
from mallard.multibody import _batch_run
from mallard.multibody._batch_codes import (
    ALONE,
    CALLER,
    CLAIMED,
    COMMITTING,
    DONE,
    GROUPS,
    HELPER,
    MASS_MATRIX,
    STOLEN,
)
from mallard.multibody._kernels.batch import begin_commit
from mallard.multibody._layout import lanes
from mallard.multibody.batch import BatchedPlant

from .test_batch import _all_results, build_model, random_states


@pytest.fixture(scope="module")
def plant():
    return build_model()


@pytest.fixture
def eager_helpers(monkeypatch):
    """Helpers asked for every call of two groups or more, however little its work."""
    monkeypatch.setattr(_batch_run, "MIN_THREAD_SECONDS", 0.0)


def _inputs(plant, count, seed=5):
    rng = np.random.default_rng(seed)
    q, v = random_states(plant, count, seed)
    vdot, tau = rng.normal(size=v.shape), rng.normal(size=v.shape)
    return q, v, vdot, tau, rng.normal(size=(count, plant.num_actuated_dofs()))


def test_results_do_not_depend_on_the_threads(plant, eager_helpers):
    """One thread, two (helpers asked for every call), batch sizes that end a group part
    way: the same bits; and the derivatives too."""
    alone = BatchedPlant(plant, num_threads=1)
    helped = BatchedPlant(plant, num_threads=min(2, numba.config.NUMBA_NUM_THREADS))
    for count in (1, 3, 4, 37, 202):
        args = _inputs(plant, count)
        reference = _all_results(alone, plant, *args)
        reference += alone.CalcForwardDynamicsDerivatives(*args[:2], args[3], args[4])
        for _ in range(3):  # (the first call of each method times its groups alone)
            results = _all_results(helped, plant, *args)
            results += helped.CalcForwardDynamicsDerivatives(*args[:2], args[3], args[4])
            for a, b in zip(reference, results, strict=True):
                np.testing.assert_array_equal(a, b)


def test_num_threads(plant):
    assert BatchedPlant(plant).num_threads() == numba.config.NUMBA_NUM_THREADS
    assert BatchedPlant(plant, num_threads=1).num_threads() == 1
    limit = numba.config.NUMBA_NUM_THREADS
    for wrong in (0, -1, limit + 1, 1.5, "2"):
        with pytest.raises(ValueError, match=rf"num_threads must be an integer from 1 to {limit}"):
            BatchedPlant(plant, num_threads=wrong)


def test_helpers_only_for_calls_with_enough_work(plant, monkeypatch):
    """Helpers are asked only when each thread gets MIN_THREAD_SECONDS of the work estimated
    from the least time per group measured alone; every RECHECK-th call that would ask for
    them runs alone and is timed; a call too small to time never asks."""
    asked = []
    monkeypatch.setattr(_batch_run.HELPERS, "submit", lambda task, count: asked.append(count))
    batched = BatchedPlant(plant)
    q, _ = random_states(plant, lanes() * (_batch_run.PROBE_GROUPS - 1))
    for _ in range(3):
        batched.CalcMassMatrix(q)
    operation = batched._operations["batch_mass_matrix"]
    assert operation.seconds_per_group is None and asked == []  # (too small to be timed)
    operation._timed(3e-3, 2)
    operation._timed(5e-3, 2)
    assert operation.seconds_per_group == 1.5e-3  # (the least)
    per_group = _batch_run.MIN_THREAD_SECONDS / 2
    operation.seconds_per_group = per_group
    assert operation._helpers(3, 2) == 0  # (1.5 threads' worth)
    assert operation._helpers(4, 1) == 0  # (num_threads=1)
    helpers = [operation._helpers(4, 2) for _ in range(2 * _batch_run.RECHECK)]
    alone = [i for i, h in enumerate(helpers) if h == 0]
    assert alone == [_batch_run.RECHECK - 1, 2 * _batch_run.RECHECK - 1] and max(helpers) == 1


# ---- the groups' protocol (kernels.batch), the threads' moves made by hand ---------------------
def _mass_matrix_call(plant, q):
    """(kernel(flags, mode, M, status), rows): the batched mass matrix on q with a new row per
    call, as mallard.multibody.batch runs it."""
    engine = plant._engine
    sizes = engine.sizes
    ws0, _ = engine.snapshot(plant.CreateDefaultContext())
    compiled = kernels(np.float64)

    def call(flags, mode, M, status):
        row = np.empty(sizes.row + lanes() * sizes.lane)
        compiled.batch_new_row(engine.mi, ws0, row, True)
        none = np.zeros((0, 0))
        return compiled.batch_evaluate(
            engine.mi, engine.mf, MASS_MATRIX, q, none, none, none, 0, np.zeros((4, 3)), row,
            flags, mode, M, status,
        )  # fmt: skip

    return call


def _outputs(plant, count):
    nv = plant.num_velocities()
    return np.full((count, nv, nv), -7.0), np.full(count, -7, dtype=np.int64)


def test_a_helper_alone_writes_every_group(plant):
    size = 2 * lanes() + 2  # (three groups, the last of two states)
    q, _ = random_states(plant, size)
    call = _mass_matrix_call(plant, q)
    expected, status = _outputs(plant, size)
    call(np.zeros(GROUPS + 3, dtype=np.int64), ALONE, expected, status)
    flags = np.zeros(GROUPS + 3, dtype=np.int64)
    M, status = _outputs(plant, size)
    assert call(flags, HELPER, M, status) == 0
    np.testing.assert_array_equal(M, expected)
    assert (flags[GROUPS:] == DONE).all() and (status == 0).all()
    M.fill(-7.0)
    assert call(flags, CALLER, M, status) == 0  # (nothing left: the caller writes nothing)
    assert (M == -7.0).all()


def test_the_caller_takes_over_groups_a_stalled_helper_claimed(plant):
    """Groups 0 and 2 claimed by a helper that stalls, group 1 being written by another: the
    caller computes 0, 2 and the rest, returns that one group is still being written, and the
    stalled helper's results are refused when it wakes."""
    L = lanes()
    size = 4 * L + 3  # (five groups, the last of three states)
    q, _ = random_states(plant, size)
    call = _mass_matrix_call(plant, q)
    expected, _ = _outputs(plant, size)
    call(np.zeros(GROUPS + 5, dtype=np.int64), ALONE, expected, np.zeros(size, dtype=np.int64))
    flags = np.zeros(GROUPS + 5, dtype=np.int64)
    flags[0] = 3  # (groups 0 to 2 handed out)
    flags[GROUPS + 0] = flags[GROUPS + 2] = CLAIMED
    flags[GROUPS + 1] = COMMITTING
    M, status = _outputs(plant, size)
    assert call(flags, CALLER, M, status) == 1
    assert flags[GROUPS:].tolist() == [DONE, COMMITTING, DONE, DONE, DONE]
    assert kernels(np.float64).batch_unfinished(flags) == 1
    mine = np.r_[0:L, 2 * L : size]
    np.testing.assert_array_equal(M[mine], expected[mine])
    assert (M[L : 2 * L] == -7.0).all()  # (group 1: its helper's to write)
    assert not begin_commit(flags, 0, HELPER)  # (the stalled helper wakes: refused)
    flags[GROUPS + 1] = DONE
    assert kernels(np.float64).batch_unfinished(flags) == 0


def test_a_stolen_group_is_the_callers_to_write():
    flags = np.array([1, 0, STOLEN], dtype=np.int64)
    assert not begin_commit(flags, 0, HELPER) and flags[GROUPS] == STOLEN
    assert begin_commit(flags, 0, CALLER) and flags[GROUPS] == COMMITTING
    flags[GROUPS] = CLAIMED
    assert begin_commit(flags, 0, HELPER) and flags[GROUPS] == COMMITTING
    assert not begin_commit(flags, 0, CALLER)  # (a helper is writing it)


# ---- callers on several Python threads ----------------------------------------------------------
def test_several_python_threads_call_at_once(plant, eager_helpers):
    batched = BatchedPlant(plant)
    args = [_inputs(plant, 150 + 13 * t, seed=t) for t in range(4)]
    expected = [_all_results(BatchedPlant(plant, num_threads=1), plant, *a) for a in args]
    failures = []

    def work(t):
        try:
            for _ in range(3):
                for a, b in zip(_all_results(batched, plant, *args[t]), expected[t], strict=True):
                    np.testing.assert_array_equal(a, b)
        except Exception as error:  # (reported below, from the main thread)
            failures.append(error)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures


_SUBPROCESS = textwrap.dedent(
    """
    import threading
    import numba
    import numpy as np
    from mallard.multibody import _batch_run
    from mallard.multibody.batch import BatchedPlant
    from tests.multibody.test_batch import _all_results, build_model
    from tests.multibody.test_batch_threads import _inputs

    _batch_run.MIN_THREAD_SECONDS = 0.0  # (helpers asked for every call)
    plant = build_model()
    batched = BatchedPlant(plant, num_threads=2)
    args = [_inputs(plant, 120 + 7 * t, seed=t) for t in range(4)]
    expected = [_all_results(BatchedPlant(plant, num_threads=1), plant, *a) for a in args]
    failures = []

    def work(t):
        for _ in range(5):
            for a, b in zip(_all_results(batched, plant, *args[t]), expected[t], strict=True):
                if not np.array_equal(a, b):
                    failures.append(t)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        layer = numba.threading_layer()
    except ValueError:
        layer = None  # (never started: no numba parallel region ran)
    print("failures", failures, "layer", layer)
    """
)


@pytest.mark.parametrize("layer", ["workqueue", "omp", "tbb"])
def test_python_threads_under_every_threading_layer(layer):
    """Four Python threads calling one BatchedPlant (helpers on) under NUMBA_THREADING_LAYER:
    no abort (workqueue aborts a process whose threads enter a parallel region at once),
    every result as on one thread, and numba's threading layer never started."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, NUMBA_THREADING_LAYER=layer, NUMBA_NUM_THREADS="2", PYTHONPATH=root)
    done = subprocess.run(
        [sys.executable, "-c", _SUBPROCESS],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "failures [] layer None" in done.stdout, done.stdout + done.stderr[-3000:]
