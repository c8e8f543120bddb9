"""PlantSpec, the per-process plants, and chunked rollouts on a Dask client (see
mallard.distributed)."""

import contextlib
import dataclasses
import functools
import os
import tempfile
import time
import traceback
import uuid

import numpy as np

from mallard.distributed._shared import SharedArrays, borrowed, location, shares_memory

#: The states of a chunk (one Dask task) unless told otherwise.
CHUNK_SIZE = 1024
#: Scattered chunks in flight per worker thread (see _finished_chunks): one computing, the
#: next one's inputs arriving.
WINDOW = 2
#: Bytes of input arrays (all the chunks' together, over TCP) sent inside the chunks' tasks,
#: all submitted at once, rather than scattered chunk by chunk in the window (see
#: _finished_chunks).
INLINE = 4 << 20
#: Seconds a scatter to a given worker waits for it to be running (else: to any worker).
_PINNED = 2

_FILE_TYPES = ("urdf", "sdf", "xml")


@dataclasses.dataclass(frozen=True)
class PlantSpec:
    """A picklable description of a plant, built where it is used (:meth:`build`): a model
    file (``path``), a model's text (``text`` of ``file_type`` "urdf", "sdf" or "xml" for
    MJCF), or ``function(**kwargs)``, a module-level function returning a finalized
    MultibodyPlant. ``time_step`` (files and text): the plant's (0: continuous);
    ``remove_joint_limits``: position limits set to ±∞ before Finalize() (a model without
    them steps faster, and a TAMSI plant's rollouts need it); ``num_threads``: BatchedPlant's
    on each worker. Make one with :meth:`from_file`, :meth:`from_text` or :meth:`from_function`."""

    path: str = None
    text: str = None
    file_type: str = None
    function: object = None
    kwargs: tuple = ()
    time_step: float = 0.0
    remove_joint_limits: bool = False
    num_threads: int = 1

    @classmethod
    def from_file(cls, path, *, time_step=0.0, remove_joint_limits=False, num_threads=1):
        """The plant of the model file ``path`` (URDF, SDFormat or MJCF, as Parser reads it;
        a path every worker can read)."""
        return cls(
            path=os.fspath(path),
            time_step=float(time_step),
            remove_joint_limits=remove_joint_limits,
            num_threads=num_threads,
        )

    @classmethod
    def from_text(cls, text, file_type, *, time_step=0.0, remove_joint_limits=False, num_threads=1):
        """The plant of a model's text (``file_type`` "urdf", "sdf" or "xml")."""
        if file_type not in _FILE_TYPES:
            raise ValueError(
                f"PlantSpec: file_type must be one of {_FILE_TYPES}, got {file_type!r}"
            )
        return cls(
            text=text,
            file_type=file_type,
            time_step=float(time_step),
            remove_joint_limits=remove_joint_limits,
            num_threads=num_threads,
        )

    @classmethod
    def from_function(cls, function, *, num_threads=1, **kwargs):
        """The plant ``function(**kwargs)`` returns (finalized); ``function`` must be
        importable by the workers (a module-level function, pickled by reference)."""
        if not callable(function):
            raise TypeError(f"PlantSpec.from_function: {function!r} is not callable")
        return cls(function=function, kwargs=tuple(sorted(kwargs.items())), num_threads=num_threads)

    def build(self):
        """A new BatchedPlant of this description's plant (its default Context)."""
        from mallard.multibody.batch import BatchedPlant

        return BatchedPlant(self._plant(), num_threads=self.num_threads)

    def _plant(self):
        if self.function is not None:
            plant = self.function(**dict(self.kwargs))
            if not plant.is_finalized():
                raise RuntimeError("PlantSpec: the function must return a finalized plant")
            return plant
        from mallard.geometry import SceneGraph
        from mallard.multibody.parsing import Parser
        from mallard.multibody.plant import MultibodyPlant

        plant = MultibodyPlant(self.time_step)
        plant.RegisterAsSourceForSceneGraph(SceneGraph())
        parser = Parser(plant)
        if self.path is not None:
            parser.AddModels(self.path)
        else:
            parser.AddModelsFromString(self.text, self.file_type)
        if self.remove_joint_limits:
            for joint in plant._joints:
                n = joint.num_positions()
                joint.set_position_limits(np.full(n, -np.inf), np.full(n, np.inf))
        plant.Finalize()
        return plant


@dataclasses.dataclass(frozen=True)
class Sampler:
    """Inputs drawn where each chunk runs, from a seed, rather than sent to it: ``num_states``
    states whose (q0, v0, actuation) ``function(plant, rng, count, **kwargs)`` returns for
    ``count`` states (arrays (count, nq), (count, nv), and (count, T, nu) or None; ``rng`` a
    numpy Generator; a module-level function, pickled by reference). States are drawn in
    whole blocks of ``block``: block b (states b·block, ..., (b + 1)·block − 1, the last
    block's past ``num_states`` drawn too and left out) by ``function`` with
    ``np.random.default_rng([seed, b])``, so that state i's inputs depend on the seed, the
    block and i only, whatever the chunking, the workers and ``num_states`` (a chunk draws
    the blocks it overlaps)."""

    function: object
    seed: int
    num_states: int
    block: int = 256
    kwargs: tuple = ()

    def __post_init__(self):
        if not callable(self.function):
            raise TypeError(f"Sampler: {self.function!r} is not callable")
        for name in ("num_states", "block"):
            value = getattr(self, name)
            if not (isinstance(value, int) and value >= 1):
                raise ValueError(f"Sampler: {name} must be a positive integer, got {value!r}")
        if isinstance(self.kwargs, dict):
            object.__setattr__(self, "kwargs", tuple(sorted(self.kwargs.items())))

    def draw(self, plant, first, count):
        """(q0, v0, actuation or None) of states first, ..., first + count − 1."""
        parts = [part for _, part in self._parts(plant, first, count)]
        return tuple(
            None if parts[0][k] is None else np.concatenate([p[k] for p in parts]) for k in range(3)
        )

    def _parts(self, plant, first, count):
        """The blocks' parts of states first, ..., first + count − 1, in order, as drawn:
        (their offset from ``first``, (q0, v0, actuation or None))."""
        end = min(first + count, self.num_states)
        for b in range(first // self.block, -(-end // self.block)):
            rng = np.random.default_rng([self.seed, b])
            drawn = self.function(plant, rng, self.block, **dict(self.kwargs))
            if len(drawn) != 3:
                raise ValueError("Sampler: the function must return (q0, v0, actuation or None)")
            start = max(first, b * self.block)
            part = slice(start - b * self.block, min(end, (b + 1) * self.block) - b * self.block)
            yield start - first, tuple(None if a is None else a[part] for a in drawn)


#: This process's BatchedPlants, by PlantSpec.
_PLANTS = {}


def batched_plant(spec):
    """This process's BatchedPlant of ``spec``: built at the first call, then kept."""
    batched = _PLANTS.get(spec)
    if batched is None:
        batched = _PLANTS[spec] = spec.build()
    return batched


def _warm(spec):
    """Builds this process's plant of ``spec`` and runs a one-state rollout (compiling, or
    loading from numba's cache, its kernel); returns the process's id."""
    import warnings

    batched = batched_plant(spec)
    plant = batched.plant()
    q0 = plant.GetPositions(plant.CreateDefaultContext())[None]
    kwargs = {} if plant.time_step() > 0 else {"time_step": 1e-3}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched.Rollout(q0, np.zeros((1, plant.num_velocities())), num_steps=1, **kwargs)
    return os.getpid()


def warm_up(client, spec):
    """Builds the plant of ``spec`` and loads its rollout kernel on every worker of
    ``client`` (a worker that joins later does it at its first chunk); returns the worker
    processes' ids by address."""
    return client.run(_warm, spec)


def _run_chunk(spec, index, first, q0, v0, actuation, target, kwargs, directory, out=None):
    """Chunk ``index`` (states first, first + 1, ...): the rollout's (x, ok, messages by
    global state index), x None if written into ``out`` (the chunk's rows of the states and
    of their ok flags in shared memory), or, with ``directory``, the path of its .npz
    file."""
    X, status = batched_plant(spec).Rollout(
        q0, v0, actuation, pd_target=target, out=None if out is None else out[0],
        return_status=True, **kwargs,
    )  # fmt: skip
    if out is not None:
        out[1][:] = status.ok
    messages = {first + i: _renumbered(m, i, first + i) for i, m in status.messages().items()}
    return _chunk_result(index, first, q0, v0, X, status.ok, messages, directory, out is not None)


def _chunk_result(index, first, q0, v0, X, ok, messages, directory, shared=False):
    """:func:`_run_chunk`'s result of the chunk's rollout: (X, or None if ``shared``: X is in
    the client's shared memory, ok, messages), or written as chunk-``index``.npz in
    ``directory``, its path."""
    if directory is None:
        return None if shared else X, ok, messages
    path = _chunk_path(directory, index)
    text = np.array([messages.get(first + i, "") for i in range(len(ok))])
    handle, temporary = tempfile.mkstemp(dir=directory, suffix=".npz.tmp")
    with os.fdopen(handle, "wb") as file:
        np.savez(
            file, index=np.arange(first, first + len(ok)), q0=q0, v0=v0, x=X, ok=ok, status=text
        )
    os.replace(temporary, path)  # (atomic: a chunk run twice writes the same file once)
    return path


def _chunk_path(directory, index):
    """The path of chunk ``index``'s .npz file in ``directory``."""
    return os.path.join(directory, f"chunk-{index:06d}.npz")


def _renumbered(message, i, index):
    """A chunk's message of its state i ("state i: ... q0[i, j] ...") for state ``index`` of
    the whole batch."""
    text = message.replace(f"state {i}: ", "", 1).replace(f"[{i}, ", f"[{index}, ", 1)
    return f"state {index}: {text}"


def _run_sent(spec, index, first, inputs, kwargs, directory):
    """:func:`_run_chunk` of the chunk's inputs (q0, v0, actuation, target), sent to the
    worker as one tuple (scattered, or inside the task)."""
    return _run_chunk(spec, index, first, *inputs, kwargs, directory)


#: The input arrays of a rollout, in :func:`_run_chunk`'s order, as named in shared memory.
_INPUTS = ("q0", "v0", "actuation", "pd_target")


def _run_shared(spec, index, first, count, inputs, kwargs, directory, states=None):
    """:func:`_run_chunk` of states first, ..., first + count − 1 of the arrays ``inputs``
    (:class:`SharedArrays` of the client's q0, v0 and, if given, actuation and pd_target),
    mapped here, not sent; their states and ok flags written into the client's ``states``
    (:func:`_opened`) if given."""
    rows = slice(first, first + count)
    arrays = inputs.open()
    out = None if states is None else tuple(a[rows] for a in _opened(states))
    parts = (arrays[name][rows] if name in arrays else None for name in _INPUTS)
    return _run_chunk(spec, index, first, *parts, kwargs, directory, out)


def _opened(states):
    """The client's arrays of the states and of their ok flags, mapped here: ``states`` a
    pair of :class:`SharedArrays` holding "x" and "ok" (the same segment, or two)."""
    return states[0].open()["x"], states[1].open()["ok"]


def _run_sampled(spec, index, first, count, sampler, kwargs, directory, states=None):
    """:func:`_run_chunk` of states first, ..., first + count − 1 drawn by ``sampler``, a
    block at a time: each block's part rolled out as drawn, into the chunk's states (its
    inputs never copied into chunk-sized arrays): its rows of the client's ``states``
    (:func:`_opened`) if given."""
    batched = batched_plant(spec)
    size = min(first + count, sampler.num_states) - first
    if states is None:
        X, ok = None, np.empty(size, dtype=bool)
    else:
        X, ok = (a[first : first + size] for a in _opened(states))
    messages, q0, v0 = {}, [], []
    for offset, (q0_part, v0_part, actuation) in sampler._parts(batched.plant(), first, count):
        rows = slice(offset, offset + len(q0_part))
        X_part, status = batched.Rollout(
            q0_part, v0_part, actuation, out=None if X is None else X[rows], return_status=True,
            **kwargs,
        )  # fmt: skip
        if X is None:
            if len(X_part) == size:  # (one block: its states are the chunk's, not copied)
                X = X_part
            else:
                X = np.empty((size,) + X_part.shape[1:])
                X[rows] = X_part
        ok[rows] = status.ok
        for i, message in status.messages().items():
            messages[first + offset + i] = _renumbered(message, i, first + offset + i)
        q0.append(q0_part)
        v0.append(v0_part)
    return _chunk_result(index, first, np.concatenate(q0), np.concatenate(v0), X, ok, messages,
                         directory, states is not None)  # fmt: skip


@dataclasses.dataclass
class _Run:
    """A rollout's chunks (see :func:`_chunk_run`): the number of states, of chunks, the
    arrays of the states and of their ok flags in shared memory that the workers write into
    (or None: each chunk's come back in its result), and the iterator of (chunk index, first
    state, its result) as the chunks finish."""

    size: int
    count: int
    states: object
    ok: object
    chunks: object


@contextlib.contextmanager
def _chunk_run(client, spec, q0, v0, actuation, pd_target, chunk_size, retries, kwargs,
               directory, shared, out=None):  # fmt: skip
    """The :class:`_Run` of a rollout, its shared memory (if any) given back to the pool on
    leaving, or released if leaving on an error. Where the workers share this machine's
    memory (``shared`` True, or None and :func:`shares_memory`), the chunks' input arrays
    are copied into shared memory (a segment of the pool: mallard.distributed._shared) that
    each chunk's task maps (nothing sent but the arrays' names; arrays of objects, which
    have no place there, are sent), and gathered states and their ok flags are written by
    the workers into shared memory (another segment of the pool: nothing fetched but failed
    states' messages), copied out chunk by chunk as they finish, or written straight into
    ``out`` if it is a :func:`shared_empty` array of their shape. Else a chunk's inputs
    go inside its task if the input arrays are small (:data:`INLINE` bytes in all: the
    scheduler unpickles a task and pickles it again, ~3 ms of CPU per MB, less than a
    scatter's round trip per chunk), or are scattered to a worker (Client.scatter, straight
    to it if :func:`_direct`), where its task runs. If ``q0`` is a :class:`Sampler`, its
    task draws them. A chunk whose inputs or result are lost with their worker (its future
    cancelled) is sent (scattered) and submitted again, up to ``retries`` + 2 times; a
    scatter that breaks off as its worker dies, tried again."""
    task = {"kwargs": kwargs, "directory": directory}
    if isinstance(q0, Sampler):
        if v0 is not None or actuation is not None or pd_target is not None:
            raise ValueError(
                "mallard.distributed: with a Sampler for q0, v0, actuation and pd_target must "
                "be None (the sampler draws the inputs)"
            )
        size, arrays = q0.num_states, None
        run = functools.partial(_run_sampled, spec, sampler=q0, **task)
    else:
        size, arrays = _checked_arrays(q0, v0, actuation, pd_target)
        run = None
    bounds = _chunk_bounds(size, chunk_size)
    states = ok = None
    objects = arrays is not None and any(a is not None and a.dtype.hasobject for a in arrays)
    with contextlib.ExitStack() as stack:
        if (
            bounds
            and not objects
            and _shares(client, shared, arrays is not None or directory is None)
        ):
            if arrays is not None:
                layout = {n: (a.shape, a.dtype) for n, a in zip(_INPUTS, arrays, strict=True)
                          if a is not None}  # fmt: skip
                inputs, views = stack.enter_context(borrowed(layout))
                for name, view in views.items():
                    view[...] = arrays[_INPUTS.index(name)]
                del views
                shape = _states_shape(*arrays, kwargs)
                arrays, run = None, functools.partial(_run_shared, spec, inputs=inputs, **task)
            else:
                shape = _sampled_states_shape(client, spec, size, kwargs)
            if directory is None and shape is not None:
                where = None if out is None else location(out)
                if where is not None and _fits(out, shape):
                    x = SharedArrays(where[0], (("x", (where[1], shape, "<f8")),))
                    segment, views = stack.enter_context(borrowed({"ok": ((size,), bool)}))
                    states, ok, pair = out, views["ok"], (x, segment)
                else:
                    layout = {"x": (shape, np.float64), "ok": ((size,), bool)}
                    segment, views = stack.enter_context(borrowed(layout))
                    (states, ok), pair = views.values(), (segment, segment)
                run = functools.partial(run, states=pair)
        chunks = _finished_chunks(client, spec, run, arrays, bounds, retries, task, ok)
        stack.enter_context(contextlib.closing(chunks))
        try:
            yield _Run(size, len(bounds), states, ok, chunks)
        except BaseException as error:  # (a chunk's error is the one its future keeps, and
            traceback.clear_frames(error.__traceback__)  # raised, it holds our frames: their
            raise  # futures, and so their keys on the cluster, would be kept for good)


def _fits(out, shape):
    """Whether ``out`` can take the states of ``shape`` as they are (Rollout's out)."""
    return (
        out.dtype == np.float64
        and out.shape == shape
        and out.flags.c_contiguous
        and out.flags.writeable
    )


def _checked_arrays(q0, v0, actuation, pd_target):
    """(the number of states, (q0, v0, actuation, pd_target) as arrays) of a rollout's
    inputs, checked."""
    q0, v0 = np.asarray(q0, dtype=np.float64), np.asarray(v0, dtype=np.float64)
    size = q0.shape[0] if q0.ndim == 2 else -1
    if q0.ndim != 2 or v0.ndim != 2 or v0.shape[0] != size:
        raise ValueError(
            f"mallard.distributed: q0 and v0 must be (N, nq) and (N, nv) arrays, got shapes "
            f"{q0.shape} and {v0.shape}"
        )
    for name, array in (("actuation", actuation), ("pd_target", pd_target)):
        if array is not None and np.shape(array)[0] != size:
            raise ValueError(f"mallard.distributed: {name} must have {size} rows (one per state)")
    actuation = None if actuation is None else np.asarray(actuation)
    pd_target = None if pd_target is None else np.asarray(pd_target)
    return size, (q0, v0, actuation, pd_target)


def _shares(client, shared, useful):
    """Whether a rollout's chunks go through shared memory (``shared``: True, False, or None:
    if ``useful`` (arrays to send or states to fetch) and the workers all share this
    machine's /dev/shm)."""
    if shared is None:
        return useful and shares_memory(client)
    if shared and not shares_memory(client):
        raise ValueError(
            "mallard.distributed: shared=True but the workers do not all see this machine's "
            "/dev/shm (workers on other machines, or in other containers)"
        )
    return bool(shared) and useful


def _states_shape(q0, v0, actuation, pd_target, kwargs):
    """The states' shape (N, num_steps // every, nq + nv) of Rollout's arguments, or None if
    they do not give one (a chunk's Rollout then says what is wrong)."""
    steps, every = kwargs.get("num_steps"), kwargs.get("every", 1)
    if actuation is not None:
        if actuation.ndim != 3 or steps not in (None, actuation.shape[1]):
            return None
        steps = actuation.shape[1]
    if not all(isinstance(n, (int, np.integer)) and n >= 0 for n in (steps, every)) or not every:
        return None
    return (q0.shape[0], steps // every, q0.shape[1] + v0.shape[1])


def _width(spec):
    """nq + nv of the plant of ``spec``, in this process."""
    plant = batched_plant(spec).plant()
    return plant.num_positions() + plant.num_velocities()


def _sampled_states_shape(client, spec, size, kwargs):
    """The states' shape (``size``, num_steps // every, nq + nv) of sampled chunks, nq + nv
    asked of one worker once per spec (it builds the plant for its chunks anyway), or None if the
    arguments do not give one (num_steps not given, or the plant not built: a chunk's task
    then says what is wrong)."""
    steps, every = kwargs.get("num_steps"), kwargs.get("every", 1)
    if not all(isinstance(n, (int, np.integer)) and n >= 1 for n in (steps, every)):
        return None
    if spec not in _WIDTHS:
        [width] = client.run(
            _width, spec, workers=list(client.nthreads())[:1], on_error="return"
        ).values()
        if not isinstance(width, int):
            return None
        _WIDTHS[spec] = width
    return (size, steps // every, _WIDTHS[spec])


#: nq + nv of the plants of the PlantSpecs this client has rolled out sampled chunks of.
_WIDTHS = {}


def _chunk_bounds(size, chunk_size):
    """Each chunk's (first state, number of states) of ``size`` states cut by ``chunk_size``:
    a positive integer (chunks of that many, the last one the rest), or a sequence of
    positive integers summing to ``size`` (each chunk's number of states, in order)."""
    if isinstance(chunk_size, (int, np.integer)) and not isinstance(chunk_size, bool):
        if chunk_size < 1:
            raise ValueError(
                f"mallard.distributed: chunk_size must be a positive integer, got {chunk_size!r}"
            )
        return [(first, min(chunk_size, size - first)) for first in range(0, size, chunk_size)]
    counts = [int(c) for c in chunk_size] if np.ndim(chunk_size) == 1 else None
    if counts is None or any(c < 1 for c in counts) or sum(counts) != size:
        raise ValueError(
            "mallard.distributed: chunk_size must be a positive integer or a sequence of "
            f"positive integers summing to the number of states ({size}), got {chunk_size!r}"
        )
    return list(zip(np.cumsum([0] + counts[:-1]).tolist(), counts, strict=True))


def balanced_chunks(size, workers, smallest=None):
    """Chunk sizes (a list summing to ``size``, for :func:`rollout`'s ``chunk_size``) in
    waves of ``workers`` equal chunks, each wave half the states left (factoring: Hummel,
    Schonberg and Flynn 1992), down to chunks of ``smallest`` states (by default
    ``size`` / (8 ``workers``): 4 chunks per worker, the waves ``size`` / 2, / 4, / 8 and
    the last eighth), the first wave one of the smallest ones (taken from the end when at
    least two waves are of the smallest size). As each worker takes the next chunk when it
    finishes one, the last chunks, the smallest, leave the workers finishing together (equal
    chunks leave one worker idle for up to a chunk's time at the end); the first ones, small
    too, start the workers soon (a chunk's inputs scattered from the client arrive before its
    task starts)."""
    for name, value in (("size", size), ("workers", workers)):
        if not (isinstance(value, (int, np.integer)) and value >= 1):
            raise ValueError(f"balanced_chunks: {name} must be a positive integer, got {value!r}")
    smallest = max(1, -(-size // (8 * workers)) if smallest is None else int(smallest))
    counts, left = [], size
    while left:
        count = min(left, max(smallest, -(-left // (2 * workers))))
        for _ in range(workers):
            if left:
                counts.append(min(count, left))
                left -= counts[-1]
    if sum(count <= smallest for count in counts) >= 2 * workers:
        counts = counts[-workers:] + counts[:-workers]
    return counts


def _direct(client):
    """Whether ``client`` scatters the chunks' inputs to the workers and gathers their
    results straight (Client.scatter's and Client.gather's ``direct``): its
    ``direct_to_workers`` if set, else True if its cluster is a LocalCluster (the workers on
    this machine: the data then skips the scheduler, which is in the client's own process
    and would receive and send it again)."""
    if client.direct_to_workers is not None:
        return client.direct_to_workers
    from distributed import LocalCluster

    return isinstance(getattr(client, "cluster", None), LocalCluster)


def _scatter(client, inputs, attempts, worker=None, direct=None):
    """The future of one chunk's inputs scattered to a worker (``worker``, an address, if
    given and still there; else the one Dask picks; ``direct`` as Client.scatter's), tried
    again (after a pause, up to ``attempts`` times) if the worker dies as it receives them."""
    if worker is not None:
        try:  # (a worker gone: no running worker of that address in time, or unknown)
            [future] = client.scatter(
                [inputs], hash=False, workers=[worker], timeout=_PINNED, direct=direct
            )
            return future
        except (OSError, TimeoutError, KeyError):
            pass
    for attempt in range(1, attempts + 1):
        try:
            [future] = client.scatter([inputs], hash=False, direct=direct)
            return future
        except OSError:  # (CommClosedError: the connection to the worker broke)
            if attempt == attempts:
                raise
            time.sleep(0.1 * attempt)


def _finished_chunks(client, spec, run, arrays, bounds, retries, task, ok=None):
    """The chunks' iterator of :func:`_chunk_run` (``run``: the task function of a chunk's
    (index, first state, number of states), or None and ``arrays`` the inputs to send;
    ``bounds``: each chunk's (first state, number of states); ``task``: the tasks' kwargs
    and directory; ``ok``: the states' ok flags in shared memory, if the workers write
    them there, with the states).

    Sampled chunks, those whose inputs are in shared memory, and those whose input arrays
    are at most :data:`INLINE` bytes in all (sent inside their tasks, through the scheduler:
    no scatter's round trip per chunk), are all submitted at once, in one graph (Client.map:
    one message to the scheduler, not one per chunk): the scheduler hands each to a worker
    as one frees up (Dask's queuing: at most two per worker thread, with more chunks than
    twice the threads), and runs again on another worker a task whose worker died.
    Scattered ones (larger arrays) go out as a sliding window: :data:`WINDOW` chunks per
    worker thread at first (one to each in turn, then the next), then, as a chunk finishes,
    the next chunk to the worker that ran it, sent before the finished chunk's result is
    fetched. So a worker holds at most WINDOW chunks' inputs, each receives the next while
    it computes one, and the work balances as the sampled chunks' does, whatever the
    workers' speeds (all scattered at once, each worker's share is fixed: a worker slowed
    down, by the client's own work on shared cores for one, finishes last while the others
    wait). A chunk submitted again (its worker died) goes to the worker Dask picks, and the
    chunk after it too. The results of the chunks that finished together are fetched in one
    Client.gather, straight from the workers if :func:`_direct`, while the others run; a
    chunk written as .npz, its file written when its task finished, is not asked for its
    path, nor one whose states and ok flags are in shared memory, all ok (a failed state's
    message is in its result: then fetched)."""
    from dask.distributed import as_completed
    from distributed.utils import CancelledError

    call = uuid.uuid4().hex
    submitted = {}  # key → (chunk index, its inputs' future, the times submitted, its worker)
    mapped = arrays is None  # (else sent: inside the tasks if inline, else scattered)
    inline = not mapped and sum(0 if a is None else a.nbytes for a in arrays) <= INLINE
    direct = _direct(client)
    directory = task["directory"]

    def submit(indices, times, workers):
        """The futures of chunks ``indices``, each submitted ``times[k]`` times before, a
        scattered chunk's inputs sent to ``workers[k]`` (an address, or None: Dask picks)."""
        keys = [f"mallard-rollout-{call}-{i}-{t}" for i, t in zip(indices, times, strict=True)]
        starts, counts = zip(*(bounds[i] for i in indices), strict=True)
        if mapped:
            scattered = [None] * len(indices)
            futures = client.map(run, indices, starts, counts, key=keys, retries=retries,
                                 pure=False)  # fmt: skip
        else:
            parts = [tuple(None if a is None else a[f : f + c] for a in arrays)
                     for f, c in zip(starts, counts, strict=True)]  # fmt: skip
            scattered = [None] * len(indices) if inline else [
                _scatter(client, part, retries + 3, w, direct)
                for part, w in zip(parts, workers, strict=True)
            ]  # fmt: skip
            futures = client.map(
                functools.partial(_run_sent, spec, **task), indices, starts,
                parts if inline else scattered, key=keys, retries=retries, pure=False,
            )  # fmt: skip
        for future, index, inputs, before, worker in zip(
            futures, indices, scattered, times, workers, strict=True
        ):
            submitted[future.key] = (index, inputs, before + 1, worker)
        return futures

    if mapped or inline:
        turns = [list(range(len(bounds)))]
        workers = [None] * len(bounds)
    else:
        threads = client.nthreads()  # (the workers now: address → threads)
        slots = [w for w in sorted(threads) for _ in range(threads[w])] or [None]
        workers = (slots * WINDOW)[: len(bounds)]
        turns = [[index] for index in range(len(workers))]  # (each submitted once scattered)
    pending = as_completed()
    for turn in turns:
        pending.update(submit(turn, [0] * len(turn), [workers[i] for i in turn]))
    following = iter(range(len(workers), len(bounds)))  # (the chunks not submitted yet)

    def again(index, times):  # (its inputs, or its result, lost with a worker)
        if times > retries + 2:
            raise RuntimeError(
                f"mallard.distributed: chunk {index}'s inputs were lost {times} times (its "
                "workers died, or its task was cancelled)"
            )
        pending.update(submit([index], [times], [None]))

    for batch in pending.batches():
        finished = []  # (chunk index, the times submitted, its future)
        for future in batch:
            index, _, times, worker = submitted.pop(future.key)
            if future.cancelled():
                again(index, times)
                continue
            after = next(following, None)
            if after is not None:
                pending.update(submit([after], [0], [worker]))
            finished.append((index, times, future))
        if directory is not None or ok is not None:  # (known without a fetch, but messages)
            fetched = []
            for index, times, future in finished:
                if future.status == "error":
                    future.result()  # (raises the chunk's error)
                first, count = bounds[index]
                if directory is not None:
                    yield index, first, _chunk_path(directory, index)
                elif ok[first : first + count].all():
                    yield index, first, (None, ok[first : first + count], {})
                else:
                    fetched.append((index, times, future))
            finished = fetched
        if not finished:
            continue
        try:  # (the batch's results in one fetch)
            results = client.gather([f for _, _, f in finished], direct=direct)
        except CancelledError:  # (one was lost since it finished: each on its own)
            results = [None] * len(finished)  # (None: not fetched; a chunk's result is not)
        for (index, times, future), result in zip(finished, results, strict=True):
            if result is None:
                try:
                    result = future.result()
                except CancelledError:
                    again(index, times)
                    continue
            yield index, bounds[index][0], result


def rollout(client, spec, q0, v0=None, actuation=None, *, chunk_size=CHUNK_SIZE, retries=2,
            pd_target=None, out=None, shared=None, **kwargs):  # fmt: skip
    """BatchedPlant.Rollout of the plant of ``spec`` (a :class:`PlantSpec`) on the workers of
    ``client``, ``chunk_size`` states per task (or a sequence of each task's number of
    states, in order, summing to N, as dask.array's chunks: :func:`balanced_chunks`'s, say);
    ``kwargs`` (num_steps, every, time_step,
    integrator, pd_gains) and the arrays as Rollout's, or ``q0`` a :class:`Sampler` that
    draws each chunk's inputs where it runs (v0, actuation, pd_target None). Returns (X, ok,
    messages): the states (N, num_steps // every, nq + nv), each state's ok flag (False: NaN
    results) and the failed states' messages by index. The same, bit for bit, whatever the
    chunking and the workers. ``shared``: whether the inputs and states go through this
    machine's shared memory rather than over TCP (None: if every worker shares it, as a
    LocalCluster's do; True: required, else ValueError). Each chunk's states are copied
    into X as it finishes (while the others run), from shared memory or fetched. ``out``,
    as Rollout's: a float64 C-contiguous array of X's shape to write the states into (X is
    ``out``), so that a caller rolling out batch after batch reuses its memory rather than
    the client mapping new pages each time; a :func:`shared_empty` array, through shared
    memory, the workers write into it straight, nothing copied."""
    with _chunk_run(client, spec, q0, v0, actuation, pd_target, chunk_size, retries, kwargs,
                    None, shared, out) as run:  # fmt: skip
        size = run.size
        if out is not None and not (
            isinstance(out, np.ndarray)
            and out.dtype == np.float64
            and out.ndim == 3
            and out.shape[0] == size
            and out.flags.c_contiguous
        ):
            raise ValueError(
                f"mallard.distributed.rollout: out must be a C-contiguous float64 array of "
                f"shape ({size}, num_steps // every, nq + nv)"
            )
        if not run.count:
            X = batched_plant(spec).Rollout(np.asarray(q0), np.asarray(v0), actuation, out=out,
                                            **kwargs)  # fmt: skip
            return X, np.ones(0, dtype=bool), {}
        X, ok, messages = out, np.empty(size, dtype=bool), {}
        for _, first, (X_part, ok_part, messages_part) in run.chunks:
            rows = slice(first, first + len(ok_part))
            if X_part is None:  # (written into the shared states)
                X_part = run.states[rows]
            if X is None:
                X = np.empty((size,) + X_part.shape[1:])
            elif X.shape[1:] != X_part.shape[1:]:
                raise ValueError(
                    f"mallard.distributed.rollout: out has shape {X.shape}, the states "
                    f"{(size,) + X_part.shape[1:]}"
                )
            if X is not run.states:  # (else written there by the workers)
                X[rows] = X_part
            ok[rows] = ok_part
            messages.update(messages_part)
    return X, ok, dict(sorted(messages.items()))


def rollout_to_npz(client, spec, directory, q0, v0=None, actuation=None, *,
                   chunk_size=CHUNK_SIZE, retries=2, pd_target=None, shared=None,
                   **kwargs):  # fmt: skip
    """As :func:`rollout` (``q0`` arrays or a Sampler; ``shared`` for the input arrays),
    each chunk written by its worker into ``directory`` (made if missing; shared by the
    workers) as chunk-XXXXXX.npz (see mallard.distributed); returns the files' paths in state
    order, as the chunks finish (``progress(done, total)`` is called after each if given in
    kwargs)."""
    progress = kwargs.pop("progress", None)
    directory = os.path.abspath(os.fspath(directory))
    os.makedirs(directory, exist_ok=True)
    with _chunk_run(client, spec, q0, v0, actuation, pd_target, chunk_size, retries, kwargs,
                    directory, shared) as run:  # fmt: skip
        paths = [None] * run.count
        for done, (index, _, path) in enumerate(run.chunks, start=1):
            paths[index] = path
            if progress is not None:
                progress(done, run.count)
    return paths


def load_npz(paths):
    """The chunks ``paths`` (of :func:`rollout_to_npz`) joined in state order: a dict of
    arrays index, q0, v0, x, ok, status."""
    parts = [dict(np.load(path)) for path in paths]
    if not parts:
        raise ValueError("load_npz: no chunk files given")
    joined = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    order = np.argsort(joined["index"], kind="stable")
    return {name: value[order] for name, value in joined.items()}
