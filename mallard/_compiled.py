"""How Python calls a kernel: the one way, for the plant, BatchedPlant, the integrators and the
tests. Importing this module does not import numba; the first kernel needed does.

A kernel module marks the functions Python may call with :func:`entry_point` (batched ones,
which several Python threads run at once, with ``nogil=True``); the modules that have entry
points are listed in :data:`ENTRY_MODULES`. ``kernels(dtype)`` is the set of entry points for
arrays of that scalar type, by name: compiled by numba (nopython, cached on disk) for float64,
the plain Python functions (interpreted) for object arrays of AutoDiffXd or symbolic scalars::

    kernels(np.float64).drive_qdot(mi, mf, q, v, qdot)

``kernels(dtype, joint_types)`` compiles the entry points of :data:`JOINT_SPECIALIZED` (a
model's, taking its joints' constants ``mf``: those the first ``mallard simulate`` compiles)
for the models whose joints are of those types only (a bit mask of
mallard.multibody._joint_types: ``kernel_joint_types`` of the model's; the plant's engine
passes its own): the code of the other types' joints is left out, and so is their cost in
compilation. Its other entry points, and ``kernels(dtype)``'s, are for every joint type.
``mallard compile`` compiles the entry points of JOINT_SPECIALIZED its tasks reach through a
model's kernels for every set of joint types (:func:`compile_for_every_joint_type`), so that
a model of any joint types finds them cached.

A hot path binds an entry point once (:meth:`Kernels.bind`): for float64, its compiled
function for exactly the types of the arguments it is bound with, called without numba's
dispatch on argument types.
"""

import functools
import importlib

import numpy as np

from mallard.multibody._joint_types import ALL as ALL_JOINT_TYPES
from mallard.multibody._joint_types import KERNEL_JOINT_TYPES

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
    "mallard.multibody._kernels.step_velocities",
    "mallard.multibody._kernels.stepping",
    "mallard.multibody._kernels.contact",
    "mallard.geometry._kernels.queries",
    "mallard.geometry._kernels.batch",
    "mallard.multibody.parsing._xml_scan",
    "mallard.multibody.parsing._mjcf_kernels",
)

#: The entry points whose code LLVM optimizes at -O1 instead of numba's -O3 (see
#: kernels._numba_internals.optimized_at): BatchedPlant's rollouts, 2-19% faster so (by run)
#: and 1.7 s cheaper to compile (docs/compilation.md, "What LLVM's optimization level buys");
#: BatchedPlant's collision checks and HasCollisions' test, as fast so and cheaper to compile
#: (docs/compilation.md, "The proximity task: two entry points at -O1, ...").
OPTIMIZED_AT_O1 = frozenset(("batch_rollout", "batch_collisions", "proximity_intersecting"))

#: The entry points whose final module LLVM optimizes without its loop unroller (see
#: kernels._numba_internals.optimized_at): SAP's solver, whose loops of unknown trip count
#: (64) it unrolled by 2-8 with remainder loops, its code 2.5× larger and its module passes
#: and machine code 1.7× longer; as fast or faster without (the contact scenes 0.91-1.02)
#: (docs/compilation.md, "The plant's group's linked copies: the derivatives by address,
#: SAP's solver not unrolled").
NOT_UNROLLED = frozenset(("sap_solve_at",))

#: The model entry points (those taking the joints' constants ``mf``) compiled for a model's
#: set of joint types (mallard.multibody._joint_types.KERNEL_JOINT_TYPES); the others are
#: compiled for every joint type, whatever the model's, once. These are what the first
#: ``mallard simulate`` compiles (the acrobot's explicit steps, its outputs' stages): for a
#: revolute model the set of welds and revolute joints compiles less there and runs 3-15%
#: faster; the other entry points gain about 3% or less from it (the discrete steps none) and cost
#: ``mallard compile`` a second compilation each (docs/compilation.md, "The revolute set for
#: the first simulate's entry points only").
JOINT_SPECIALIZED = frozenset(("drive_explicit_steps", "drive_stages"))

#: The by-address kernels whose addresses the callers of the derivatives' kernel pass, in order
#: (the vector ``at`` of kernels.engine_derivatives.derivatives_by_address: :meth:`Kernels.
#: addresses`): that kernel, then the forward dynamics' and the stages' it calls by address.
DERIVATIVES_AT = ("dynamics_derivatives_at", "forward_dynamics_at", "stages_at")

_ENTRY_POINTS = {}  # name → function
_BY_ADDRESS = {}  # name → a kernel compiled code calls by its address (by_address)
_ADDRESSES = {}  # name → the address of the by-address kernel, compiled (Kernels.address)
_NOGIL = set()  # the entry points compiled with nogil=True
_ALLOCATING = set()  # the entry points compiled with numba's runtime (they allocate arrays)
_COMPILED = {}  # (function, joint types) → its numba dispatcher
_MODEL_ENTRY_POINTS = {}  # the JOINT_SPECIALIZED looked up for a model's joint types (a set)


def entry_point(fn=None, *, nogil=False, allocates=False):
    """Marks ``fn`` (a kernel, named uniquely among entry points) as one Python may call
    through :func:`kernels`; ``nogil``: compiled, it releases the GIL while it runs, so that
    Python threads run it at once (no entry point uses numba's parallel regions: see
    mallard.multibody.batch). ``allocates``: it, or a kernel it calls, allocates an array
    (``np.empty``...); it is then compiled with numba's runtime (NRT), which owns such arrays.
    The others are compiled without it (kernels work in arrays Python allocated): numba
    neither emits nor optimizes away a reference count for each array they pass around, which
    makes them cheaper to compile (see kernels._numba_internals.WITHOUT_RUNTIME). Compiling
    an entry point that allocates without ``allocates`` raises numba's "NRT required but not
    enabled"."""
    if fn is None:
        return functools.partial(entry_point, nogil=nogil, allocates=allocates)
    other = _ENTRY_POINTS.get(fn.__name__)
    if other is not None and other is not fn:
        raise ValueError(f"two entry points are named {fn.__name__!r}")
    _ENTRY_POINTS[fn.__name__] = fn
    if nogil:
        _NOGIL.add(fn)
    if allocates:
        _ALLOCATING.add(fn)
    return fn


def by_address(fn):
    """Marks ``fn`` (a kernel named uniquely among them, of int64 arguments returning an int64:
    see kernels._by_address) as compiled alone and called from compiled code through its
    address (:meth:`Kernels.address`), which its callers take as an argument: its machine code
    is made once (and cached), not linked into each caller's. Compiled as an entry point
    (:func:`compiled`) that owns the kernels it links (kernels._numba_internals.
    kernels_internal_to: LLVM optimizes them as one, as it did inside the callers that owned
    theirs). Called by kernel modules only (which import numba)."""
    from mallard.multibody._kernels._numba_internals import kernels_internal_to

    other = _BY_ADDRESS.get(fn.__name__)
    if other is not None and other is not fn:
        raise ValueError(f"two by-address kernels are named {fn.__name__!r}")
    _BY_ADDRESS[fn.__name__] = fn
    kernels_internal_to(fn.__qualname__)
    return fn


def compiled(fn, joint_types=ALL_JOINT_TYPES):
    """``fn`` compiled by numba for float64 arrays (nopython, cached on disk where numba can
    write, see kernels._numba_internals; with nogil=True if it is marked so; without numba's
    runtime unless it is marked ``allocates``, see :func:`entry_point`), for the models
    whose joints are of the types ``joint_types`` (a bit mask) if it is one of
    JOINT_SPECIALIZED, else for every joint type. The dispatcher is made once per function
    and joint types."""
    if fn.__name__ not in JOINT_SPECIALIZED:
        joint_types = ALL_JOINT_TYPES
    dispatcher = _COMPILED.get((fn, joint_types))
    if dispatcher is None:
        from mallard.multibody._kernels._numba_internals import (
            WITHOUT_RUNTIME,
            njit_cached,
            njit_for_joint_types,
        )

        options = {"error_model": "numpy"}
        if fn.__name__ in OPTIMIZED_AT_O1:
            options["opt"] = 1
        if fn.__name__ in NOT_UNROLLED:
            options["unrolling"] = False
        if fn in _NOGIL:
            options["nogil"] = True
        if fn not in _ALLOCATING:
            options.update(WITHOUT_RUNTIME)
        if joint_types == ALL_JOINT_TYPES:
            dispatcher = njit_cached(fn, **options)
        else:
            dispatcher = njit_for_joint_types(fn, joint_types, **options)
        _COMPILED[(fn, joint_types)] = dispatcher
    return dispatcher


def compile_for_every_joint_type():
    """Compiles each entry point of JOINT_SPECIALIZED looked up in this process for a model's
    joint types (``kernels(np.float64, joint_types)``) for every set of KERNEL_JOINT_TYPES,
    for each of the argument types it was compiled for, for any set (compiling what the cache
    does not hold): ``mallard compile``'s tasks then leave in the cache what a model of any
    joint types needs."""
    for fn in _MODEL_ENTRY_POINTS:
        signatures = {}  # (a set, in order)
        for joint_types in KERNEL_JOINT_TYPES:
            found = _COMPILED.get((fn, joint_types))
            signatures.update(dict.fromkeys(found.signatures if found is not None else ()))
        for joint_types in KERNEL_JOINT_TYPES:
            dispatcher = compiled(fn, joint_types)
            for signature in signatures:
                if signature not in dispatcher.signatures:
                    dispatcher.compile(signature)


def _find(name, table=_ENTRY_POINTS):
    """The entry point ``name`` (the by-address kernel, for ``table`` _BY_ADDRESS), importing
    the modules of ENTRY_MODULES in order until one defines it (None if none does)."""
    for module in ENTRY_MODULES:
        if name in table:
            break
        importlib.import_module(module)
    return table.get(name)


class Kernels:
    """The entry points for one kind of scalar, by name: compiled (float64) or interpreted
    (object arrays); compiled, for a model's joint types ``joint_types`` (a bit mask) or
    None (every joint type, for no model in particular). Get them from :func:`kernels`."""

    def __init__(self, is_compiled, joint_types=None):
        self.is_compiled = is_compiled
        self.joint_types = joint_types
        self._addresses = {}  # names → Kernels.addresses(names)

    def __getattr__(self, name):
        fn = _find(name)
        if fn is None:
            raise AttributeError(f"no kernel entry point is named {name!r}")
        if self.is_compiled:
            if self.joint_types is not None and name in JOINT_SPECIALIZED:
                _MODEL_ENTRY_POINTS[fn] = None
            fn = compiled(fn, ALL_JOINT_TYPES if self.joint_types is None else self.joint_types)
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

    def address(self, name):
        """The address of the by-address kernel ``name`` (:func:`by_address`) compiled, as a C
        function of int64s (compiled, or loaded from numba's cache, once per process), which
        compiled callers take as an argument; interpreted, 0 (the callers call the Python
        function)."""
        if not self.is_compiled:
            return 0
        found = _ADDRESSES.get(name)
        if found is None:
            fn = _find(name, _BY_ADDRESS)
            if fn is None:
                raise AttributeError(f"no by-address kernel is named {name!r}")
            from numba import types

            from mallard.multibody._kernels._numba_internals import c_address

            signature = (types.int64,) * fn.__code__.co_argcount
            found = _ADDRESSES[name] = c_address(compiled(fn), signature)
        return found

    def addresses(self, names):
        """The :meth:`address` of each by-address kernel of the tuple ``names``, as an int64
        vector (made once per process: numba converts an array argument for less than a
        tuple), which compiled callers index; interpreted, zeros."""
        found = self._addresses.get(names)
        if found is None:
            found = np.array([self.address(name) for name in names], dtype=np.int64)
            self._addresses[names] = found
        return found

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


def kernels(dtype, joint_types=None):
    """The :class:`Kernels` for arrays of ``dtype``: compiled for float64, else interpreted;
    compiled, the model's entry points are for the models whose joints are of the types
    ``joint_types`` (a bit mask, see the module: a model's set of KERNEL_JOINT_TYPES) only,
    for every joint type if None."""
    is_compiled = np.dtype(dtype) == np.float64
    key = is_compiled, joint_types if is_compiled else None
    found = _KERNELS.get(key)
    if found is None:
        found = _KERNELS[key] = Kernels(*key)
    return found
