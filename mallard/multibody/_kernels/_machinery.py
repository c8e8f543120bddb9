"""How kernels are registered, compiled for float64 and cached on disk.

numba's on-disk cache (``cache=True``) checks only the source file of the function it compiled,
so a cached kernel would go stale when a helper it calls, in another file, changes. Each kernel
is cached with the stamp of kernels._sources instead: a hash of its module's source and of every
module of mallard that module imports, directly or not. Editing one kernel file recompiles the
kernels of the modules that import it, and only those. Where numba finds no writable directory
for the cache, kernels (and mallard's other compiled functions) are cached in a temporary one,
with a warning (kernels._numba_internals). Compiling and calling kernels from Python:
mallard._compiled.
"""

import functools
import os

from numba import types
from numba.extending import overload, register_jitable

from mallard._compiled import entry_point
from mallard.multibody._kernels._numba_internals import (
    KERNEL_OPTIONS,
    build_inlined_ir_once,
    c_view,
    collect_less_while_compiling,
    compile_each_kernel_once,
    compile_with_room_for_frames,
    compiling_joint_types,
    cut_numbas_python_work,
    cut_numbas_work_per_statement,
    for_joint_types,
    generate_code_on_demand,
    index_elements_from_struct_values,
    inline_kernel,
    int64_atomic_add,
    int64_atomic_cas,
    int64_atomic_load,
    joint_specialized_kernel,
    kernels_internal_to,
    kernels_return_views,
    mallard_imported,
    manage_caches,
    product,
    type_inlined_calls_once,
)
from mallard.multibody._kernels._sources import SourceGraph

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def jitable(fn=None, *, inline=False, llvm_inline=False):
    """Registers ``fn`` as a kernel: callable from compiled kernels, unchanged from Python.
    ``inline``: compiled into each caller (numba's ``inline="always"``: typed and lowered
    again at each call site), for the thin functions that pass a workspace's views on to
    kernels, so that the views do not cross a call (a call passes each array of a namedtuple
    of views as ~10 words). ``llvm_inline``: compiled once, alone, and inlined by LLVM into
    each caller's code (numba's ``forceinline``: LLVM's alwaysinline), the same code as
    ``inline``'s for a function called from many kernels (kernels.views), at the cost of one
    compilation instead of one per call site."""
    if fn is None:
        return functools.partial(jitable, inline=inline, llvm_inline=llvm_inline)
    if inline:
        inline_kernel(fn)
    options = dict(KERNEL_OPTIONS, forceinline=True) if llvm_inline else KERNEL_OPTIONS
    register_jitable(inline="always" if inline else "never", **options)(fn)
    return fn


def joint_specialized(fn):
    """Registers ``fn`` as a kernel (as :func:`jitable`) compiled for the joint types of the
    entry point being compiled (``mallard._compiled.kernels(dtype, joint_types)``): its
    globals HAS_<NAME> (HAS_REVOLUTE..., one per joint type of _joint_types), True in its
    module and in Python, are False in the code compiled for a set of joint types that lacks
    that type, so that the branches they guard (``if HAS_PRISMATIC and jtype == PRISMATIC``)
    are neither typed nor compiled."""

    def implementation(*args, **kws):
        return for_joint_types(fn, compiling_joint_types())

    joint_specialized_kernel(fn)
    overload(fn, jit_options=KERNEL_OPTIONS, inline="never", strict=False)(implementation)
    return fn


def batched(fn=None, *, own_kernels=False, allocates=False):
    """Registers ``fn`` as a batched entry point (mallard._compiled.entry_point, nogil): a
    kernel that several Python threads may run at once on the same batch (kernels.batch),
    compiled to release the GIL. Compiled kernels do not call them. ``own_kernels``: the
    kernels linked into its machine code are its own, optimized with it
    (_numba_internals.kernels_internal_to: for a loop over the same kernel calls);
    ``allocates``: as entry_point's."""
    if fn is None:
        return functools.partial(batched, own_kernels=own_kernels, allocates=allocates)
    if own_kernels:
        kernels_internal_to(fn.__qualname__)
    return entry_point(fn, nogil=True, allocates=allocates)


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


_MALLARD_DIR = os.path.dirname(os.path.dirname(_PACKAGE_DIR))
#: The import graph of mallard's sources, whose stamps key the kernels' cache entries.
SOURCES = SourceGraph(_MALLARD_DIR, "mallard", since=mallard_imported())
#: The kernel packages: the dynamics' (this one) and SceneGraph's proximity queries'
#: (mallard.geometry._kernels, which calls this one's kernels).
KERNEL_PACKAGES = (_PACKAGE_DIR, os.path.join(_MALLARD_DIR, "geometry", "_kernels"))
for _directory in KERNEL_PACKAGES:
    manage_caches(_directory, SOURCES.stamp_of_file)
# The rest of mallard (the integrators' compiled helpers) keeps numba's stamps; all of it gets
# the temporary cache where numba has no writable directory.
manage_caches(_MALLARD_DIR)
# A kernel called from an entry point and from another kernel is compiled once, not twice; an
# inlined one is never compiled alone; machine code is generated for the entry points only;
# kernels compiled without numba's runtime may return views; numba repeats less of its own work
# (per statement too), builds an inlined kernel's untyped IR once and types its calls about twice
# per argument types; Python's garbage collector runs less often while numba compiles, and its
# frames have room (no memory mapped per call); an array's element is indexed from its struct
# value, not a copy of it.
compile_with_room_for_frames()
compile_each_kernel_once()
generate_code_on_demand()
kernels_return_views()
cut_numbas_python_work()
cut_numbas_work_per_statement()
build_inlined_ir_once()
type_inlined_calls_once()
collect_less_while_compiling()
index_elements_from_struct_values()


def atomic_add(a, i, value):
    """a[i] += value, atomically (sequentially consistent) when compiled; returns the value
    a[i] had. ``a``: a 1-D int64 array shared by the threads of a batched call (see
    kernels.batch); ``atomic_add(a, i, 0)`` is an atomic read."""
    old = a[i]
    a[i] = old + value
    return old


def atomic_load(a, i):
    """a[i], read atomically (acquire) when compiled. ``a`` as for :func:`atomic_add`."""
    return a[i]


def atomic_cas(a, i, expected, new):
    """a[i] = new if a[i] == expected (compare and swap, atomically when compiled); returns
    the value a[i] had (``expected`` if it swapped). ``a`` as for :func:`atomic_add`."""
    old = a[i]
    if old == expected:
        a[i] = new
    return old


@overload(atomic_add)
def _atomic_add_compiled(a, i, value):
    return lambda a, i, value: int64_atomic_add(a, i, value)


@overload(atomic_load)
def _atomic_load_compiled(a, i):
    return lambda a, i: int64_atomic_load(a, i)


@overload(atomic_cas)
def _atomic_cas_compiled(a, i, expected, new):
    return lambda a, i, expected, new: int64_atomic_cas(a, i, expected, new)
