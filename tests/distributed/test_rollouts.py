"""mallard.distributed on a LocalCluster of two worker processes: the results are
BatchedPlant.Rollout's, bit for bit, whatever the chunking, through shared memory or over
TCP; chunks written as .npz files join back into the same arrays; a worker killed mid-run
loses no chunk and duplicates none; shared memory is released on every path."""

import concurrent.futures
import functools
import gc
import glob
import os
import signal
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from mallard.distributed import (  # noqa: E402
    PlantSpec,
    Sampler,
    balanced_chunks,
    batched_plant,
    load_npz,
    release_shared_memory,
    rollout,
    rollout_to_npz,
    warm_up,
)
from mallard.models import MakeAcrobotPlant  # noqa: E402
from mallard.multibody.batch import BatchedPlant  # noqa: E402

pytestmark = pytest.mark.slow  # (starting two worker processes takes seconds)

H = 1e-3
SPEC = PlantSpec.from_function(MakeAcrobotPlant, time_step=H)


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.fixture(autouse=True)
def no_segment_left():
    """Every test leaves none of this process's shared memory behind but the pool's free
    segments (kept for the next rollout)."""
    from mallard.distributed._shared import pooled

    yield
    assert sorted(_segments()) == sorted(pooled())


def _segments():
    """This process's mallard.distributed shared memory (its files in /dev/shm)."""
    from mallard.distributed._shared import DIRECTORY, PREFIX

    return glob.glob(os.path.join(DIRECTORY, f"{PREFIX}{os.getpid()}-*"))


@pytest.fixture
def created(monkeypatch):
    """The layouts (their arrays' names) mallard.distributed puts in shared memory, in order
    (but shares_memory's probes)."""
    from mallard.distributed import _shared

    layouts, fields = [], _shared._fields

    def recorded(layout):
        if list(layout) != ["token"]:
            layouts.append(sorted(layout))
        return fields(layout)

    monkeypatch.setattr(_shared, "_fields", recorded)
    return layouts


@pytest.fixture
def scatters(monkeypatch):
    """The number of states of each chunk whose inputs mallard.distributed scatters, in
    order."""
    from mallard.distributed import _rollouts

    made, scatter = [], _rollouts._scatter

    def recorded(client, inputs, *args):
        made.append(len(inputs[0]))
        return scatter(client, inputs, *args)

    monkeypatch.setattr(_rollouts, "_scatter", recorded)
    return made


def _sent_inside_the_tasks(monkeypatch, inline, *arrays):
    """Input arrays over TCP sent inside the chunks' tasks (``inline``: their bytes in all
    at most INLINE) or scattered (one byte more than INLINE)."""
    from mallard.distributed import _rollouts

    size = sum(a.nbytes for a in arrays)
    monkeypatch.setattr(_rollouts, "INLINE", size if inline else size - 1)


def _inputs(size, steps, seed=0):
    rng = np.random.default_rng(seed)
    q0, v0 = rng.normal(size=(size, 2)), rng.normal(size=(size, 2))
    return q0, v0, rng.normal(size=(size, steps, 1))


#: The ways arrays from the client go: through shared memory, or over TCP inside the chunks'
#: tasks or scattered (``shared``, ``inline``).
ARRAY_WAYS = pytest.mark.parametrize(
    "shared, inline",
    [(None, True), (False, True), (False, False)],
    ids=["shared memory", "TCP, inside the tasks", "TCP, scattered"],
)


@ARRAY_WAYS
def test_results_do_not_depend_on_the_chunking(
    client, shared, inline, created, scatters, monkeypatch
):
    from mallard.distributed._rollouts import _chunk_bounds

    pids = warm_up(client, SPEC)
    assert len(set(pids.values())) == 2  # (two processes, each with its plant)
    q0, v0, U = _inputs(23, 50)
    q0[6, 1] = np.nan
    _sent_inside_the_tasks(monkeypatch, inline, q0, v0, U)
    batched = BatchedPlant(MakeAcrobotPlant(time_step=H))
    expected, _ = batched.Rollout(q0, v0, U, every=5, return_status=True)
    chunkings = (1, 5, 23, 100, [7, 1, 15], balanced_chunks(23, 2))
    for chunk_size in chunkings:
        X, ok, messages = rollout(
            client, SPEC, q0, v0, U, every=5, chunk_size=chunk_size, shared=shared
        )
        np.testing.assert_array_equal(X, expected)
        assert ok.tolist() == [i != 6 for i in range(23)]
        assert list(messages) == [6] and "q0[6, 1] = nan is not finite" in messages[6]
    # (a LocalCluster's workers share the client's memory: the inputs and states go there)
    inputs, states = ["actuation", "q0", "v0"], ["ok", "x"]
    assert created == ([] if shared is False else [inputs, states] * 6)
    chunks = [count for c in chunkings for _, count in _chunk_bounds(23, c)]
    assert scatters == ([] if inline else chunks)  # (each chunk's inputs scattered, in order)


@pytest.mark.parametrize("shared", [None, False], ids=["shared memory", "TCP"])
def test_states_go_into_out_if_given(client, shared):
    q0, v0, U = _inputs(9, 20, seed=4)
    expected = BatchedPlant(MakeAcrobotPlant(time_step=H)).Rollout(q0, v0, U, every=4)
    out = np.full((9, 5, 4), np.nan)
    X, ok, _ = rollout(client, SPEC, q0, v0, U, every=4, chunk_size=4, out=out, shared=shared)
    assert X is out and ok.all()
    np.testing.assert_array_equal(out, expected)
    for bad in (np.empty((8, 5, 4)), np.empty((9, 5, 4), dtype=np.float32), out[:, ::2]):
        with pytest.raises(ValueError, match="out must be a C-contiguous float64 array"):
            rollout(client, SPEC, q0, v0, U, every=4, out=bad)
    with pytest.raises(ValueError, match=r"out has shape \(9, 4, 4\), the states \(9, 5, 4\)"):
        rollout(client, SPEC, q0, v0, U, every=4, out=np.empty((9, 4, 4)))


def test_scatters_skip_the_scheduler_of_a_local_cluster(client):
    from mallard.distributed._rollouts import _direct

    class RemoteClient:  # (a client of a scheduler elsewhere, direct_to_workers not set)
        direct_to_workers, cluster = None, None

    assert client.direct_to_workers is None and _direct(client)  # (LocalCluster: direct)
    assert not _direct(RemoteClient())
    RemoteClient.direct_to_workers = False
    client.direct_to_workers = False  # (the client's own choice wins)
    try:
        assert not _direct(client) and not _direct(RemoteClient())
    finally:
        client.direct_to_workers = None


def draw_acrobot_inputs(plant, rng, count, steps):
    """A Sampler's function: (q0, v0, actuation) of ``count`` acrobot states."""
    q0 = rng.uniform(-np.pi, np.pi, (count, plant.num_positions()))
    return q0, rng.normal(size=(count, 2)), rng.normal(size=(count, steps, 1))


@pytest.mark.parametrize("shared", [None, False], ids=["shared memory", "TCP"])
def test_sampled_inputs_do_not_depend_on_the_chunking(client, shared, created):
    sampler = Sampler(draw_acrobot_inputs, seed=3, num_states=23, block=4, kwargs={"steps": 30})
    plant = batched_plant(SPEC).plant()
    q0, v0, U = sampler.draw(plant, 0, 23)
    assert q0.shape == (23, 2) and U.shape == (23, 30, 1)
    for first, count in ((5, 7), (20, 10), (0, 1)):  # (state i's inputs: the seed's and i's)
        part = slice(first, first + count)
        for drawn, whole in zip(sampler.draw(plant, first, count), (q0, v0, U), strict=True):
            np.testing.assert_array_equal(drawn, whole[part])
    fewer = Sampler(draw_acrobot_inputs, seed=3, num_states=10, block=4, kwargs={"steps": 30})
    for drawn, whole in zip(fewer.draw(plant, 0, 10), (q0, v0, U), strict=True):
        np.testing.assert_array_equal(drawn, whole[:10])  # (nor on the number of states)
    expected = BatchedPlant(MakeAcrobotPlant(time_step=H)).Rollout(q0, v0, U, every=5)
    for chunk_size in (1, 5, 23, 100, (3, 10, 10), np.array(balanced_chunks(23, 3))):
        X, ok, messages = rollout(
            client, SPEC, sampler, num_steps=30, every=5, chunk_size=chunk_size, shared=shared
        )
        np.testing.assert_array_equal(X, expected)
        assert ok.all() and not messages
    assert created == ([] if shared is False else [["ok", "x"]] * 6)  # (the states)
    X, _, _ = rollout(client, SPEC, sampler, every=5, shared=shared)  # (num_steps not given:
    np.testing.assert_array_equal(X, expected)  # the states' shape unknown, fetched over TCP)


def draw_with_a_nan(plant, rng, count):
    """A Sampler's function (blocks of 4): state 6's q0[1] NaN, the others drawn."""
    q0, v0, U = draw_acrobot_inputs(plant, rng, count, 10)
    if rng.bit_generator.seed_seq.entropy == [3, 1]:  # (block 1: states 4-7)
        q0[2, 1] = np.nan
    return q0, v0, U


def test_a_sampled_state_that_fails_keeps_its_index(client):
    sampler = Sampler(draw_with_a_nan, seed=3, num_states=11, block=4)
    q0, v0, U = sampler.draw(batched_plant(SPEC).plant(), 0, 11)
    assert np.isnan(q0[6, 1]) and np.isfinite(np.delete(q0, 6, axis=0)).all()
    batched = BatchedPlant(MakeAcrobotPlant(time_step=H))
    expected, _ = batched.Rollout(q0, v0, U, every=5, return_status=True)
    for chunk_size in (1, 3, 5, 11):  # (chunks across and within the sampler's blocks)
        X, ok, messages = rollout(
            client, SPEC, sampler, num_steps=10, every=5, chunk_size=chunk_size
        )
        np.testing.assert_array_equal(X, expected)
        assert ok.tolist() == [i != 6 for i in range(11)]
        assert list(messages) == [6] and "q0[6, 1] = nan is not finite" in messages[6]


def unfinalized_plant():
    """A PlantSpec's function that forgets Finalize()."""
    from mallard.multibody.plant import MultibodyPlant

    return MultibodyPlant(H)


def test_a_chunk_that_raises_raises_on_the_client(client, tmp_path, created):
    spec = PlantSpec.from_function(unfinalized_plant)
    q0, v0, U = _inputs(4, 3)
    with pytest.raises(RuntimeError, match="must return a finalized plant"):
        rollout(client, spec, q0, v0, U, chunk_size=2, retries=0)
    with pytest.raises(RuntimeError, match="must return a finalized plant"):
        rollout_to_npz(client, spec, tmp_path, q0, v0, U, chunk_size=2, retries=0)
    sampler = Sampler(draw_acrobot_inputs, seed=0, num_states=4, kwargs={"steps": 3})
    with pytest.raises(RuntimeError, match="must return a finalized plant"):
        rollout(client, spec, sampler, num_steps=3, chunk_size=2, retries=0)
    # (the inputs and states were in shared memory, released: no_segment_left checks; the
    # sampled chunks' states not, the plant's width unknown)
    inputs = ["actuation", "q0", "v0"]
    assert created == [inputs, ["ok", "x"], inputs]


def test_chunk_sizes_are_checked():
    q0, v0, U = _inputs(10, 3)
    for bad in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="chunk_size must be a positive integer"):
            rollout(None, SPEC, q0, v0, U, chunk_size=bad)
    for bad in ([3, 3], [5, 0, 5], [[5, 5]], "55"):
        with pytest.raises(ValueError, match=r"integers summing to the number of states \(10\)"):
            rollout(None, SPEC, q0, v0, U, chunk_size=bad)


def test_balanced_chunks_shrink_in_waves_of_one_per_worker():
    assert balanced_chunks(16000, 2) == [1000, 1000, 4000, 4000, 2000, 2000, 1000, 1000]
    assert balanced_chunks(16000, 2, smallest=500) == [500] * 2 + [4000] * 2 + [2000] * 2 + [
        1000
    ] * 2 + [500] * 2  # fmt: skip
    assert balanced_chunks(16000, 2, smallest=3000) == [4000, 4000, 3000, 3000, 2000]
    for size, workers in ((1, 1), (5, 3), (23, 2), (1000, 7), (4097, 4)):
        counts = balanced_chunks(size, workers)
        assert sum(counts) == size and min(counts) >= 1
        rest = counts[workers:] if max(counts[:workers]) < max(counts) else counts
        assert rest == sorted(rest, reverse=True)  # (the last chunks the smallest)
    for bad in ({"size": 0, "workers": 2}, {"size": 10, "workers": 0}, {"size": 2.0, "workers": 1}):
        with pytest.raises(ValueError, match="must be a positive integer"):
            balanced_chunks(**bad)


def test_a_sampler_is_checked():
    with pytest.raises(TypeError, match="is not callable"):
        Sampler(3, seed=0, num_states=4)
    for bad in ({"num_states": 0}, {"num_states": 4, "block": 0}):
        with pytest.raises(ValueError, match="must be a positive integer"):
            Sampler(draw_acrobot_inputs, seed=0, **bad)
    sampler = Sampler(draw_acrobot_inputs, seed=0, num_states=4, kwargs={"steps": 3})
    with pytest.raises(ValueError, match="v0, actuation and pd_target must be None"):
        rollout(None, SPEC, sampler, np.zeros((4, 2)))
    with pytest.raises(ValueError, match="must return"):
        Sampler(lambda plant, rng, count: (1, 2), seed=0, num_states=1).draw(None, 0, 1)


def test_a_spec_is_built_once_per_process():
    spec = PlantSpec.from_text(open(_acrobot_urdf()).read(), "urdf", time_step=H)
    assert batched_plant(spec) is batched_plant(spec)
    assert batched_plant(spec).plant().num_positions() == 2
    with pytest.raises(ValueError, match="file_type must be one of"):
        PlantSpec.from_text("<robot/>", "yaml")
    with pytest.raises(TypeError, match="is not callable"):
        PlantSpec.from_function(3)


def _acrobot_urdf():
    import mallard.models

    return os.path.join(os.path.dirname(mallard.models.__file__), "acrobot.urdf")


def test_chunks_written_as_npz_join_into_the_same_arrays(client, tmp_path):
    spec = PlantSpec.from_file(_acrobot_urdf(), time_step=H)
    q0, v0, U = _inputs(10, 20, seed=1)
    seen = []
    paths = rollout_to_npz(
        client, spec, tmp_path / "out", q0, v0, U, chunk_size=3,
        progress=lambda done, total: seen.append((done, total)),
    )  # fmt: skip
    assert [os.path.basename(p) for p in paths] == [f"chunk-{i:06d}.npz" for i in range(4)]
    assert seen[-1] == (4, 4)
    data = load_npz(paths[::-1])
    expected = batched_plant(spec).Rollout(q0, v0, U)
    np.testing.assert_array_equal(data["x"], expected)
    np.testing.assert_array_equal(data["q0"], q0)
    assert data["ok"].all() and (data["status"] == "").all()
    assert sorted(os.listdir(tmp_path / "out")) == sorted(os.path.basename(p) for p in paths)


@pytest.mark.parametrize(
    "sampled, shared, inline",
    [(False, None, True), (False, False, True), (False, False, False), (True, None, True)],
    ids=[
        "arrays in shared memory", "arrays over TCP inside the tasks", "arrays over TCP, "
        "scattered", "sampled",
    ],
)  # fmt: skip
def test_a_worker_killed_mid_run_loses_no_chunk(
    client, sampled, shared, inline, scatters, monkeypatch
):
    q0, v0, U = _inputs(64, 4000, seed=2)
    inputs = (q0, v0, U)
    _sent_inside_the_tasks(monkeypatch, inline, *inputs)
    if sampled:  # (inputs drawn by the chunks' tasks: no data to lose but the results)
        sampler = Sampler(draw_acrobot_inputs, seed=2, num_states=64, kwargs={"steps": 4000})
        q0, v0, U = sampler.draw(batched_plant(SPEC).plant(), 0, 64)
        inputs = (sampler,)
    expected = BatchedPlant(MakeAcrobotPlant(time_step=H)).Rollout(q0, v0, U, every=100)
    pids = client.run(os.getpid)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        job = pool.submit(rollout, client, SPEC, *inputs, every=100, chunk_size=4, shared=shared)
        deadline = time.monotonic() + 60
        busy = []
        while not busy and time.monotonic() < deadline:
            busy = [w for w, keys in client.processing().items() if w in pids and keys]
            time.sleep(0.005)
        assert busy, "no worker started a chunk"
        os.kill(pids[busy[0]], signal.SIGKILL)  # (a worker process this test's cluster started)
        assert not job.done()
        X, ok, messages = job.result(timeout=300)
    np.testing.assert_array_equal(X, expected)
    assert ok.all() and not messages
    assert pids[busy[0]] not in client.run(os.getpid).values()
    assert (len(scatters) >= 16) == (shared is False and not inline)  # (16 chunks)


def _held(client):
    """The keys the client holds futures of, and those in its workers' memory."""
    held = client.run(lambda dask_worker: list(dask_worker.data))
    return set(client.futures).union(*held.values())


@pytest.mark.parametrize("inline", [True, False], ids=["inside the tasks", "scattered"])
@pytest.mark.parametrize("way", ["rollout", "npz"])
def test_a_run_over_tcp_leaves_nothing_behind(client, tmp_path, way, inline, monkeypatch):
    """A run that finishes, or that fails (a chunk raises, the others are cancelled), leaves
    no future on the client and no data on the workers (a failed chunk's error, which its
    future keeps, must not hold the run's frames and their futures)."""
    spec, (q0, v0, U) = PlantSpec.from_function(unfinalized_plant), _inputs(12, 3)
    _sent_inside_the_tasks(monkeypatch, inline, q0, v0, U)
    call = rollout if way == "rollout" else functools.partial(rollout_to_npz, directory=tmp_path)
    for done in (SPEC, spec):  # (done, then a chunk raises: the others cancelled)
        before = _held(client)  # (what earlier tests left, if anything)
        try:
            call(client, done, q0=q0, v0=v0, actuation=U, chunk_size=2, retries=0, shared=False)
        except RuntimeError as error:
            assert done is spec and "must return a finalized plant" in str(error)
        else:
            assert done is SPEC
        deadline = time.monotonic() + 30
        while _held(client) - before and time.monotonic() < deadline:  # (released on the
            gc.collect()  # loop, or, in an error's cycles of frames, by the collector)
            time.sleep(0.05)
        assert not _held(client) - before


def test_a_scatter_broken_off_by_a_dying_worker_is_tried_again():
    from distributed.comm.core import CommClosedError

    from mallard.distributed._rollouts import _scatter

    class BreakingClient:  # (its first scatters break off, as when the worker dies)
        def __init__(self, breaks):
            self.breaks, self.calls = breaks, 0

        def scatter(self, data, hash, direct=None):
            self.calls += 1
            if self.calls <= self.breaks:
                raise CommClosedError("in <TCP (closed) ConnectionPool.scatter>: Stream is closed")
            return [("future of", data[0])]

    client = BreakingClient(2)
    assert _scatter(client, "inputs", 3) == ("future of", "inputs") and client.calls == 3
    with pytest.raises(CommClosedError):
        _scatter(BreakingClient(3), "inputs", 3)


def test_a_scatter_to_a_worker_gone_goes_to_another():
    from mallard.distributed._rollouts import _scatter

    class GoneClient:  # (its worker "tcp://gone:1" has left: Dask finds no such worker)
        def __init__(self):
            self.asked = []

        def scatter(self, data, hash, workers=None, timeout=None, direct=None):
            self.asked.append(workers)
            if workers == ["tcp://gone:1"]:
                raise TimeoutError("No valid workers found")
            return [("future of", data[0])]

    client = GoneClient()
    assert _scatter(client, "inputs", 3, "tcp://gone:1") == ("future of", "inputs")
    assert client.asked == [["tcp://gone:1"], None]
    assert _scatter(client, "inputs", 3, "tcp://here:2") == ("future of", "inputs")
    assert client.asked[2:] == [["tcp://here:2"]]


def test_workers_that_do_not_see_the_clients_memory_get_the_arrays_over_tcp(client):
    from mallard.distributed._rollouts import _shares
    from mallard.distributed._shared import SharedArrays, shares_memory

    class RemoteClient:  # (its workers elsewhere: they do not see this machine's /dev/shm)
        id, runs = "remote", 0

        def nthreads(self):
            return {"tcp://elsewhere:1": 1}

        def run(self, function, *args, on_error):
            RemoteClient.runs += 1
            return {"tcp://elsewhere:1": function("/dev/shm/not-this-one", *args[1:])}

    assert shares_memory(client) and not shares_memory(RemoteClient())
    assert not shares_memory(RemoteClient()) and RemoteClient.runs == 1  # (asked once)
    assert _shares(client, None, True) and not _shares(client, None, False)
    assert not _shares(RemoteClient(), None, True) and not _shares(client, False, True)
    q0, v0, U = _inputs(4, 3)
    with pytest.raises(ValueError, match="shared=True but the workers do not all see"):
        rollout(RemoteClient(), SPEC, q0, v0, U, shared=True)
    shared, arrays = SharedArrays.create({"q0": ((4, 2), np.float64)})
    shared.unlink()  # (as on another machine: no such file)
    with pytest.raises(RuntimeError, match="does not see the client's shared memory"):
        shared.open()
    arrays["q0"][:] = q0  # (the client's mapping outlives the file)
    np.testing.assert_array_equal(arrays["q0"], q0)


def test_shared_memory_is_kept_for_the_next_rollout_or_released(client):
    from mallard.distributed._shared import pooled

    release_shared_memory()
    q0, v0, U = _inputs(6, 10, seed=5)
    expected = BatchedPlant(MakeAcrobotPlant(time_step=H)).Rollout(q0, v0, U)
    out = np.empty_like(expected)
    rollout(client, SPEC, q0, v0, U, chunk_size=2, out=out)
    kept = pooled()  # (the inputs' segment and the states')
    assert len(kept) == 2 and sorted(_segments()) == sorted(kept)
    rollout(client, SPEC, q0[:5], v0[:5], U[:5], chunk_size=2, out=out[:5])
    assert sorted(pooled()) == sorted(kept)  # (the same segments again)
    np.testing.assert_array_equal(out, expected)
    with pytest.raises(RuntimeError, match="must return a finalized plant"):
        rollout(client, PlantSpec.from_function(unfinalized_plant), q0, v0, U, chunk_size=2,
                retries=0)  # fmt: skip
    assert not pooled()  # (those the failed run borrowed removed, not given back: its tasks
    release_shared_memory()  # may still be writing into them)
    assert not pooled() and not _segments()


def test_the_shared_memory_of_a_killed_client_is_removed():
    import subprocess
    import sys

    code = (
        "import os, signal\n"
        "from mallard.distributed._shared import borrowed\n"
        "shared, arrays = borrowed({'x': ((10,), float)}).__enter__()\n"
        "print(shared.path, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    path = done.stdout.strip()
    assert done.returncode == -signal.SIGKILL and path.startswith("/dev/shm/mallard-")
    deadline = time.monotonic() + 30  # (multiprocessing's resource tracker removes it)
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists(path)


def test_arrays_of_objects_are_sent_over_tcp(client, created):
    q0, v0, U = _inputs(5, 10, seed=6)
    expected = BatchedPlant(MakeAcrobotPlant(time_step=H)).Rollout(q0, v0, U)
    X, ok, _ = rollout(client, SPEC, q0, v0, U.astype(object), chunk_size=2)
    np.testing.assert_array_equal(X, expected)
    assert ok.all() and created == []  # (no place for objects in shared memory)


def test_states_go_straight_into_a_shared_out(client, created):
    import gc

    from mallard.distributed import shared_empty

    q0, v0, U = _inputs(7, 12, seed=7)
    q0[3, 0] = np.nan
    batched = BatchedPlant(MakeAcrobotPlant(time_step=H))
    expected, _ = batched.Rollout(q0, v0, U, every=3, return_status=True)
    release_shared_memory()
    out = shared_empty((7, 4, 4))
    assert len(_segments()) == 1  # (its file)
    X, ok, messages = rollout(client, SPEC, q0, v0, U, every=3, chunk_size=3, out=out)
    assert X is out and ok.tolist() == [i != 3 for i in range(7)] and list(messages) == [3]
    np.testing.assert_array_equal(out, expected)
    inputs = ["actuation", "q0", "v0"]
    assert created == [["array"], inputs, ["ok"]]  # (out, then no states' segment)
    whole = shared_empty((9, 4, 4))  # (a view of one: the same, into its rows)
    X, _, _ = rollout(client, SPEC, q0, v0, U, every=3, chunk_size=2, out=whole[1:8])
    np.testing.assert_array_equal(whole[1:8], expected)
    assert created[3:] == [["array"], inputs, ["ok"]]
    with pytest.raises(ValueError, match=r"out has shape \(7, 3, 4\), the states \(7, 4, 4\)"):
        rollout(client, SPEC, q0, v0, U, every=3, out=shared_empty((7, 3, 4)))
    release_shared_memory()
    del out, whole, X
    gc.collect()
    assert not _segments()  # (their files removed with them)
