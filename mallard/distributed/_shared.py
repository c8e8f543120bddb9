"""Arrays in shared memory between a Dask client and the workers on its machine: a file in
/dev/shm (a tmpfs: memory, not disk) that the client creates and maps, and a chunk's task
maps by its path, so that the chunks' inputs and states are not pickled and sent over TCP
(see mallard.distributed).

A tmpfs allocates its pages one by one as they are first written, and frees them when the
file goes: ~0.6 ms of CPU per MB written into a new segment, ~0.2 ms per MB freed (the
EPYC, 2026-11-27), against 0.05 ms per MB copied into pages already there, and ~0.2 ms per
MB for Dask to scatter over TCP. So the client keeps the segments it copies the inputs
into, and the workers write the states into, mapped between calls: a pool that
:func:`borrowed` takes from and gives back to, so that a rollout after the first copies
into pages already allocated. The pool's segments are removed by
:func:`release_shared_memory` (called at exit; and by multiprocessing's resource tracker,
where they are registered, if the process is killed)."""

import atexit
import contextlib
import dataclasses
import mmap
import os
import socket
import threading
import uuid
import weakref
from multiprocessing import resource_tracker

import numpy as np

#: Where the segments live; None where there is no /dev/shm (no shared path then).
DIRECTORY = "/dev/shm" if os.path.isdir("/dev/shm") else None
#: The start of every segment's file name (then the client's process id).
PREFIX = "mallard-"
#: Each array's offset in a segment is a multiple of this (a cache line).
_ALIGN = 64
#: Segments the pool keeps between calls (free ones beyond this are removed, smallest first).
KEPT = 2


@dataclasses.dataclass(frozen=True)
class SharedArrays:
    """Picklable: arrays laid out one after the other in the file ``path`` (``fields``:
    name → (offset in bytes, shape, dtype string)); a task maps them with :meth:`open`."""

    path: str
    fields: tuple

    @classmethod
    def create(cls, layout):
        """(the description, the client's arrays by name) of a new segment of the arrays
        ``layout`` (name → (shape, dtype)), uninitialized, until :meth:`unlink` (the
        memory: until the last array mapping it goes)."""
        fields, size = _fields(layout)
        segment = _Segment.new(size)
        shared = cls(segment.path, fields)
        return shared, shared._arrays(segment.memory)

    def open(self):
        """The segment's arrays by name, mapped in this process (the mapping goes with the
        last of them). Raises RuntimeError if this process does not see the file: it runs on
        another machine, or the client is gone."""
        try:
            with open(self.path, "r+b") as file:
                memory = mmap.mmap(file.fileno(), 0)
        except FileNotFoundError:
            raise RuntimeError(
                f"mallard.distributed: the worker on {socket.gethostname()} does not see the "
                f"client's shared memory {self.path} (a worker on another machine: pass "
                "shared=False to send the inputs over TCP)"
            ) from None
        return self._arrays(memory)

    def unlink(self):
        """Removes the segment's file (idempotent): the mappings stay valid, the memory is
        freed as they go."""
        _unlink(self.path)

    def _arrays(self, memory):
        return {
            name: np.ndarray(shape, dtype=np.dtype(dtype), buffer=memory, offset=offset)
            for name, (offset, shape, dtype) in self.fields
        }


def _fields(layout):
    """(SharedArrays' fields, the bytes they take) of ``layout`` (name → (shape, dtype))."""
    fields, size = [], 0
    for name, (shape, dtype) in layout.items():
        offset = -(-size // _ALIGN) * _ALIGN
        fields.append((name, (offset, tuple(int(n) for n in shape), np.dtype(dtype).str)))
        size = offset + int(np.prod(shape)) * np.dtype(dtype).itemsize
    return tuple(fields), size


@dataclasses.dataclass(frozen=True)
class _Segment:
    """A file in DIRECTORY of ``size`` bytes and this process's mapping of it."""

    path: str
    size: int
    memory: mmap.mmap

    @classmethod
    def new(cls, size):
        size = max(size, 1)
        path = os.path.join(DIRECTORY, f"{PREFIX}{os.getpid()}-{uuid.uuid4().hex}")
        handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.ftruncate(handle, size)
            memory = mmap.mmap(handle, size)
        except BaseException:
            os.unlink(path)
            raise
        finally:
            os.close(handle)
        resource_tracker.register(_tracked(path), "shared_memory")  # (removed if killed)
        return cls(path, size, memory)


def _tracked(path):
    """The name multiprocessing's resource tracker removes a /dev/shm file by."""
    return "/" + os.path.basename(path)


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    resource_tracker.unregister(_tracked(path), "shared_memory")


#: The pool's free segments (see the module's docstring), and its lock (threads may roll out
#: at once).
_FREE = []
_LOCK = threading.Lock()


@contextlib.contextmanager
def borrowed(layout):
    """(description, arrays) of ``layout`` (name → (shape, dtype)) in a segment of the pool
    (the smallest free one large enough, else a new one), given back on leaving (the arrays
    must not be used after), or removed if leaving on an exception (a failed run's tasks
    may still be running, and writing into it)."""
    fields, size = _fields(layout)
    with _LOCK:
        fitting = [s for s in _FREE if s.size >= size]
        segment = min(fitting, key=lambda s: s.size) if fitting else None
        if segment is not None:
            _FREE.remove(segment)
    if segment is None:
        segment = _Segment.new(size)
    shared = SharedArrays(segment.path, fields)
    try:
        yield shared, shared._arrays(segment.memory)
    except BaseException:
        _unlink(segment.path)
        raise
    with _LOCK:
        _FREE.append(segment)
        _FREE.sort(key=lambda s: s.size)
        removed = _FREE[: max(0, len(_FREE) - KEPT)]
        del _FREE[: len(removed)]
    for segment in removed:
        _unlink(segment.path)


def pooled():
    """The paths of the pool's free segments."""
    with _LOCK:
        return [segment.path for segment in _FREE]


def release_shared_memory():
    """Removes the shared memory this process keeps for its next rollouts (the pool's free
    segments: their memory freed as their last mappings go); called at exit."""
    with _LOCK:
        removed = _FREE[:]
        _FREE.clear()
    for segment in removed:
        _unlink(segment.path)


atexit.register(release_shared_memory)
if hasattr(os, "register_at_fork"):  # (a forked child's exit: not its pool)
    os.register_at_fork(after_in_child=_FREE.clear)


def _sees(path, token):
    """Whether this process reads ``token`` (bytes) from the file ``path``."""
    try:
        with open(path, "rb") as file:
            return file.read() == token
    except OSError:
        return False


#: The files of shared_empty's arrays, by the id of their mapping (forgotten as it goes).
_OWNED = {}


def shared_empty(shape, dtype=np.float64):
    """A new array of ``shape`` and ``dtype`` in this machine's shared memory (a file in
    /dev/shm, uninitialized): given to rollout as ``out``, the workers on this machine
    write the states straight into it (nothing copied on the client). Its file is removed
    when the array, and every view of it, goes (or at exit; or by multiprocessing's resource
    tracker if the process is killed). After a run that failed, its tasks may still be
    writing into it for a while."""
    fields, size = _fields({"array": (shape, dtype)})
    segment = _Segment.new(size)
    key = id(segment.memory)
    _OWNED[key] = segment.path
    weakref.finalize(segment.memory, _forget, key, segment.path)
    return SharedArrays(segment.path, fields)._arrays(segment.memory)["array"]


def _forget(key, path):
    _OWNED.pop(key, None)
    _unlink(path)


def location(array):
    """(the path of the file of the :func:`shared_empty` array ``array`` is (a view of),
    ``array``'s offset in it in bytes), or None if it is not one."""
    base = array
    while isinstance(base, np.ndarray):
        base = base.base
    path = _OWNED.get(id(base)) if isinstance(base, mmap.mmap) else None
    if path is None:
        return None
    return path, array.ctypes.data - np.frombuffer(base, dtype=np.uint8).ctypes.data


#: shares_memory's answers by (client id, its workers' addresses).
_SHARING = {}


def shares_memory(client):
    """Whether every worker of ``client`` (at least one) sees this process's /dev/shm: a file
    written there with a random token is read back by each worker (client.run), so that a
    worker in another container or on another machine (its own /dev/shm) answers False;
    asked again only when the workers change (a probe takes 5-20 ms to come back; the
    workers' addresses, one call to the scheduler, ~0.2 ms of CPU)."""
    if DIRECTORY is None:
        return False
    key = (client.id, tuple(sorted(client.nthreads())))
    if key not in _SHARING:
        _SHARING[key] = _probe(client)
    return _SHARING[key]


def _probe(client):
    """Whether every worker of ``client`` reads back a token written in /dev/shm."""
    token = uuid.uuid4().bytes
    probe, arrays = SharedArrays.create({"token": ((len(token),), np.uint8)})
    try:
        arrays["token"][:] = np.frombuffer(token, dtype=np.uint8)
        del arrays
        seen = client.run(_sees, probe.path, token, on_error="return")
    finally:
        probe.unlink()
    return bool(seen) and all(answer is True for answer in seen.values())
