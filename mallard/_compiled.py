"""How Python calls a kernel: the one way, for the plant, BatchedPlant, the integrators and the
tests. Importing this module does not import numba; the first kernel needed does.

A kernel module marks the functions Python may call with :func:`entry_point` (batched ones,
which several Python threads run at once, with ``nogil=True``); the modules that have entry
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
    "mallard.multibody._kernels.single",
    "mallard.multibody._kernels.rollouts",
    "mallard.multibody._kernels.sap",
    "mallard.multibody._kernels.tamsi",
    "mallard.multibody._kernels.body_constraints",
    "mallard.multibody._kernels.stepping",
    "mallard.multibody._kernels.contact",
    "mallard.geometry._kernels.queries",
    "mallard.geometry._kernels.batch",
)

_ENTRY_POINTS = {}  # name → function
_NOGIL = set()  # the entry points compiled with nogil=True
_COMPILED = {}  # function → its numba dispatcher


def entry_point(fn=None, *, nogil=False):
    """Marks ``fn`` (a kernel, named uniquely among entry points) as one Python may call
    through :func:`kernels`; ``nogil``: compiled, it releases the GIL while it runs, so that
    Python threads run it at once (no entry point uses numba's parallel regions: see
    mallard.multibody.batch)."""
    if fn is None:
        return functools.partial(entry_point, nogil=nogil)
    other = _ENTRY_POINTS.get(fn.__name__)
    if other is not None and other is not fn:
        raise ValueError(f"two entry points are named {fn.__name__!r}")
    _ENTRY_POINTS[fn.__name__] = fn
    if nogil:
        _NOGIL.add(fn)
    return fn


def compiled(fn):
    """``fn`` compiled by numba for float64 arrays (nopython, cached on disk where numba can
    write, see kernels._numba_internals; with nogil=True if it is marked so). The dispatcher
    is made once per function."""
    dispatcher = _COMPILED.get(fn)
    if dispatcher is None:
        from mallard.multibody._kernels._numba_internals import njit_cached

        options = {"error_model": "numpy"}
        if fn in _NOGIL:
            options["nogil"] = True
        dispatcher = _COMPILED[fn] = njit_cached(fn, **options)
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
            from mallard.multibody._kernels._numba_internals import compiled_for

            fn = compiled_for(fn, head + tuple(args))
        return functools.partial(fn, *head)

    def typed(self, name, *args):
        """The entry point ``name`` for arguments of exactly the types of ``args`` (samples of
        all its arguments). Compiled, its compiled function for those types behind numba's
        type test on the arguments (in C; about 0.02 µs an argument), raising TypeError for
        arguments of any other types (dtype, dimensions, layout, writable), compiling
        nothing (see kernels._numba_internals.typed_dispatcher); interpreted, the function."""
        fn = getattr(self, name)
        if self.is_compiled:
            from mallard.multibody._kernels._numba_internals import typed_dispatcher

            fn = typed_dispatcher(fn, args)
        return fn


_KERNELS = {}


def kernels(dtype):
    """The :class:`Kernels` for arrays of ``dtype``: compiled for float64, else interpreted."""
    is_compiled = np.dtype(dtype) == np.float64
    found = _KERNELS.get(is_compiled)
    if found is None:
        found = _KERNELS[is_compiled] = Kernels(is_compiled)
    return found
