"""How kernels are registered, compiled for float64 and cached on disk.

numba's on-disk cache (``cache=True``) checks only the source file of the function it compiled,
so a cached kernel would go stale when a helper it calls, in another file, changes. Each kernel
is cached with the stamp of kernels._sources instead: a hash of its module's source and of every
module of mallard that module imports, directly or not. Editing one kernel file recompiles the
kernels of the modules that import it, and only those. Where numba finds no writable directory
for the cache, kernels (and mallard's other compiled functions) are cached in a temporary one,
with a warning (kernels._numba_internals).
"""

import os

import numpy as np
from numba import types
from numba.extending import overload, register_jitable

from mallard.multibody._kernels._numba_internals import (
    c_view,
    manage_caches,
    njit_cached,
    product,
)
from mallard.multibody._kernels._numba_internals import entry_point as entry_point
from mallard.multibody._kernels._sources import SourceGraph

#: Every kernel function by qualified name, for the test that runs each compiled and interpreted.
REGISTRY = {}

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_COMPILED = {}
_COMPILED_PARALLEL = {}
#: The kernels registered with :func:`batched`: ``compiled`` compiles them with parallel=True.
_PARALLEL = set()


def jitable(fn):
    """Registers ``fn`` as a kernel: callable from compiled kernels, unchanged from Python."""
    register_jitable(fn)
    REGISTRY[f"{fn.__module__}.{fn.__qualname__}"] = fn
    return fn


def batched(fn):
    """Registers ``fn`` as a batched entry point: a kernel whose outer loop over the batch is
    a ``numba.prange`` (plain ``range`` when interpreted). :func:`compiled` compiles it with
    ``parallel=True``. Entry points are not helpers: compiled kernels do not call them."""
    REGISTRY[f"{fn.__module__}.{fn.__qualname__}"] = fn
    _PARALLEL.add(fn)
    return fn


def compiled_parallel(fn):
    """``fn`` compiled by numba with ``parallel=True`` (its ``numba.prange`` loops run on
    numba's threads; nopython, cached on disk), for float64 arrays."""
    dispatcher = _COMPILED_PARALLEL.get(fn)
    if dispatcher is None:
        dispatcher = njit_cached(fn, parallel=True, error_model="numpy")
        _COMPILED_PARALLEL[fn] = dispatcher
    return dispatcher


def compiled(fn):
    """``fn`` compiled by numba (nopython, cached on disk), for float64 arrays; with
    ``parallel=True`` if it was registered with :func:`batched`."""
    if fn in _PARALLEL:
        return compiled_parallel(fn)
    dispatcher = _COMPILED.get(fn)
    if dispatcher is None:
        dispatcher = njit_cached(fn, error_model="numpy")
        _COMPILED[fn] = dispatcher
    return dispatcher


def reshaped(a, shape):
    """``a.reshape(shape)``: a C-contiguous view, shaped ``shape``, of the 1-D array ``a`` of
    exactly prod(shape) elements (how kernels see sections of a workspace as arrays).

    Compiled, a C-contiguous ``a`` is viewed without numba's general reshape, which calls a C
    helper costing tens of nanoseconds per view: a driver makes dozens of views per call. The
    view holds no reference to ``a``'s memory, nor do the views kernels take of it, so that
    their loops do no atomic reference counting: it must not outlive ``a``. Kernels use such
    views only while the arrays they come from are alive, and return none to Python."""
    return a.reshape(shape)


@overload(reshaped)
def _reshaped_compiled(a, shape):
    if not isinstance(a, types.Array):
        return None  # (lane views: see kernels.lane_views)
    if not (a.ndim == 1 and a.layout == "C"):
        return lambda a, shape: a.reshape(shape)

    def impl(a, shape):
        if product(shape) != a.shape[0]:
            raise ValueError("reshaped: the shape does not match the array's size")
        return c_view(a, shape)

    return impl


def for_dtype(fn, dtype):
    """The variant of kernel ``fn`` for arrays of ``dtype``: compiled for float64, else ``fn``."""
    return compiled(fn) if np.dtype(dtype) == np.float64 else fn


_MALLARD_DIR = os.path.dirname(os.path.dirname(_PACKAGE_DIR))
#: The import graph of mallard's sources, whose stamps key the kernels' cache entries.
SOURCES = SourceGraph(_MALLARD_DIR, "mallard")
manage_caches(_PACKAGE_DIR, SOURCES.stamp_of_file)
# The rest of mallard (the integrators' compiled helpers) keeps numba's stamps; all of it gets
# the temporary cache where numba has no writable directory.
manage_caches(_MALLARD_DIR)
