"""How Python calls a kernel: the one way, for the plant, BatchedPlant, the integrators and the
tests. Importing this module does not import numba; the first kernel needed does.

A kernel module marks the functions Python may call with :func:`entry_point` (batched ones,
whose outer loop is a ``numba.prange``, with ``parallel=True``); the modules that have entry
points are listed in :data:`ENTRY_MODULES`. ``kernels(dtype)`` is the set of entry points for
arrays of that scalar type, by name: compiled by numba (nopython, cached on disk) for float64,
the plain Python functions (interpreted) for object arrays of AutoDiffXd or symbolic scalars::

    kernels(np.float64).drive_mass_matrix(mi, mf, x, ws, need)

A hot path binds an entry point once (:meth:`Kernels.bind`): for float64, its compiled
function for exactly the types of the arguments it is bound with, called without numba's
dispatch on argument types.
"""

import functools
import importlib

import numpy as np

#: The modules that define entry points, imported when the first one is needed.
ENTRY_MODULES = (
    "mallard.systems.analysis._kernels",
    "mallard.multibody._kernels.engine",
    "mallard.multibody._kernels.engine_derivatives",
    "mallard.multibody._kernels.batch",
    "mallard.multibody._kernels.lcp",
    "mallard.geometry._kernels.queries",
    "mallard.geometry._kernels.batch",
)

_ENTRY_POINTS = {}  # name → function
_PARALLEL = set()  # the entry points compiled with parallel=True
_COMPILED = {}  # function → its numba dispatcher


def entry_point(fn=None, *, parallel=False):
    """Marks ``fn`` (a kernel, named uniquely among entry points) as one Python may call
    through :func:`kernels`; ``parallel``: its ``numba.prange`` loops run on numba's threads
    when compiled (interpreted, ``prange`` is ``range``)."""
    if fn is None:
        return functools.partial(entry_point, parallel=parallel)
    other = _ENTRY_POINTS.get(fn.__name__)
    if other is not None and other is not fn:
        raise ValueError(f"two entry points are named {fn.__name__!r}")
    _ENTRY_POINTS[fn.__name__] = fn
    if parallel:
        _PARALLEL.add(fn)
    return fn


def compiled(fn):
    """``fn`` compiled by numba for float64 arrays (nopython, cached on disk; with
    parallel=True if it is a parallel entry point). The dispatcher is made once per
    function."""
    dispatcher = _COMPILED.get(fn)
    if dispatcher is None:
        import numba

        options = {"cache": True, "error_model": "numpy"}
        if fn in _PARALLEL:
            options["parallel"] = True
        dispatcher = _COMPILED[fn] = numba.njit(**options)(fn)
    return dispatcher


def _find(name):
    """The entry point ``name``, importing the modules of ENTRY_MODULES in order until one
    defines it (None if none does)."""
    for module in ENTRY_MODULES:
        if name in _ENTRY_POINTS:
            break
        importlib.import_module(module)
    return _ENTRY_POINTS.get(name)


class Kernels:
    """The entry points for one kind of scalar, by name: compiled (float64) or interpreted
    (object arrays). Get them from :func:`kernels`."""

    def __init__(self, is_compiled):
        self.is_compiled = is_compiled

    def __getattr__(self, name):
        fn = _find(name)
        if fn is None:
            raise AttributeError(f"no kernel entry point is named {name!r}")
        fn = compiled(fn) if self.is_compiled else fn
        setattr(self, name, fn)  # (found once: later lookups are plain attribute reads)
        return fn

    def bind(self, name, *head, args=()):
        """The entry point ``name`` with its first arguments ``head`` bound: a function of
        the others. Compiled, it is the compiled function for exactly the types of ``head``
        and ``args`` (samples of the other arguments), called without numba's dispatch: it
        must then only be called with arguments of exactly those types (dtype, dimensions,
        layout), which it does not check."""
        fn = getattr(self, name)
        if self.is_compiled:
            import numba

            fn = fn.compile(tuple(numba.typeof(a) for a in head + tuple(args)))
        return functools.partial(fn, *head)


_KERNELS = {}


def kernels(dtype):
    """The :class:`Kernels` for arrays of ``dtype``: compiled for float64, else interpreted."""
    is_compiled = np.dtype(dtype) == np.float64
    found = _KERNELS.get(is_compiled)
    if found is None:
        found = _KERNELS[is_compiled] = Kernels(is_compiled)
    return found
