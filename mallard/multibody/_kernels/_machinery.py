"""How kernels are registered, compiled for float64 and cached on disk.

numba's on-disk cache (``cache=True``) checks only the source file of the function it compiled,
so a cached kernel would go stale when a helper it calls, in another file, changes. A cache
locator placed first in numba's list stamps every kernel of this package with a hash of the
whole package's source instead.
"""

import functools
import hashlib
import os

from numba import types
from numba.core import caching, cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic, overload, register_jitable

from mallard._compiled import entry_point

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def jitable(fn=None, *, inline=False):
    """Registers ``fn`` as a kernel: callable from compiled kernels, unchanged from Python.
    ``inline``: compiled into each caller (numba's ``inline="always"``), for the thin
    functions that make a workspace's views or pass them on to kernels, so that the views do
    not cross a call (numba counts the references of every array passed across one, a call
    per array)."""
    if fn is None:
        return functools.partial(jitable, inline=inline)
    register_jitable(inline="always" if inline else "never")(fn)
    return fn


def batched(fn):
    """Registers ``fn`` as a batched entry point (mallard._compiled.entry_point, nogil): a
    kernel that several Python threads may run at once on the same batch (kernels.batch),
    compiled to release the GIL. Compiled kernels do not call them."""
    return entry_point(fn, nogil=True)


def reshaped(a, shape):
    """``a.reshape(shape)``: a C-contiguous view, shaped ``shape``, of the 1-D array ``a`` of
    exactly prod(shape) elements (how kernels see sections of a workspace as arrays).

    Compiled, a C-contiguous ``a`` is viewed without numba's general reshape, which calls a C
    helper costing tens of nanoseconds per view: a driver makes dozens of views per call. The
    view holds no reference to ``a``'s memory, nor do the views kernels take of it, so that
    their loops do no atomic reference counting: it must not outlive ``a``. Kernels use such
    views only while the arrays they come from are alive, and return none to Python."""
    return a.reshape(shape)


def _intp_items(context, builder, value, tuple_type):
    """The items of the tuple ``value`` of integers (type ``tuple_type``), cast to intp."""
    items = cgutils.unpack_tuple(builder, value, len(tuple_type))
    return [
        context.cast(builder, item, item_type, types.intp)
        for item, item_type in zip(items, tuple_type, strict=True)
    ]


def _view_codegen(view_type, shape, with_offset):
    """The codegen of :func:`_c_view` (with_offset False) or :func:`_c_view_at`."""
    ndim = len(shape)

    def codegen(context, builder, signature, args):
        source = context.make_array(signature.args[0])(context, builder, args[0])
        data = source.data
        if with_offset:
            stride = cgutils.unpack_tuple(builder, source.strides, signature.args[0].ndim)[0]
            offset = context.cast(builder, args[1], signature.args[1], types.intp)
            data = cgutils.pointer_add(builder, data, builder.mul(offset, stride))
        dims = _intp_items(context, builder, args[-1], shape)
        strides = [source.itemsize] * ndim
        for d in range(ndim - 2, -1, -1):
            strides[d] = builder.mul(strides[d + 1], dims[d + 1])
        view = context.make_array(view_type)(context, builder)
        context.populate_array(
            view,
            data=data,
            shape=cgutils.pack_array(builder, dims),
            strides=cgutils.pack_array(builder, strides),
            itemsize=source.itemsize,
            meminfo=cgutils.get_null_value(source.meminfo.type),
            parent=source.parent,
        )
        return impl_ret_borrowed(context, builder, view_type, view._getvalue())

    return codegen


@intrinsic
def _c_view(typingctx, a, shape):
    """The C-contiguous view of the C-contiguous array ``a`` shaped ``shape`` (unchecked),
    without a reference to ``a``'s memory (see :func:`reshaped`)."""
    view_type = types.Array(a.dtype, len(shape), "C")
    return view_type(a, shape), _view_codegen(view_type, shape, False)


@intrinsic
def _c_view_at(typingctx, a, offset, shape):
    """:func:`_c_view` of ``a[offset:]`` (offset along a's first dimension), without making
    that slice (whose reference to a's memory would be counted, and not optimized away)."""
    view_type = types.Array(a.dtype, len(shape), "C")
    return view_type(a, offset, shape), _view_codegen(view_type, shape, True)


@intrinsic
def _product(typingctx, shape):
    """The product of the integers of the tuple ``shape``."""

    def codegen(context, builder, signature, args):
        size = context.get_constant(types.intp, 1)
        for value in _intp_items(context, builder, args[0], shape):
            size = builder.mul(size, value)
        return size

    return types.intp(shape), codegen


@overload(reshaped)
def _reshaped_compiled(a, shape):
    if not isinstance(a, types.Array):
        return None  # (lane views: see kernels.lane_views)
    if not (a.ndim == 1 and a.layout == "C"):
        return lambda a, shape: a.reshape(shape)

    def impl(a, shape):
        if _product(shape) != a.shape[0]:
            raise ValueError("reshaped: the shape does not match the array's size")
        return _c_view(a, shape)

    return impl


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


def _int64_pointer(context, builder, array_type, array, index):
    """The address of ``array[index]`` (an int64 1-D array, the index unchecked)."""
    data = context.make_array(array_type)(context, builder, array).data
    return builder.gep(data, [index])


def _atomic_signature(a, arity):
    if not (isinstance(a, types.Array) and a.dtype == types.int64 and a.ndim == 1):
        raise TypeError("atomics take a 1-D int64 array")
    return types.int64(a, types.intp, *([types.int64] * arity))


@intrinsic
def _atomic_add(typingctx, a, i, value):
    def codegen(context, builder, signature, args):
        pointer = _int64_pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.atomic_rmw("add", pointer, args[2], "seq_cst")

    return _atomic_signature(a, 1), codegen


@intrinsic
def _atomic_load(typingctx, a, i):
    def codegen(context, builder, signature, args):
        pointer = _int64_pointer(context, builder, signature.args[0], args[0], args[1])
        return builder.load_atomic(pointer, "acquire", 8)

    return _atomic_signature(a, 0), codegen


@intrinsic
def _atomic_cas(typingctx, a, i, expected, new):
    def codegen(context, builder, signature, args):
        pointer = _int64_pointer(context, builder, signature.args[0], args[0], args[1])
        pair = builder.cmpxchg(pointer, args[2], args[3], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return _atomic_signature(a, 2), codegen


@overload(atomic_add)
def _atomic_add_compiled(a, i, value):
    return lambda a, i, value: _atomic_add(a, i, value)


@overload(atomic_load)
def _atomic_load_compiled(a, i):
    return lambda a, i: _atomic_load(a, i)


@overload(atomic_cas)
def _atomic_cas_compiled(a, i, expected, new):
    return lambda a, i, expected, new: _atomic_cas(a, i, expected, new)


@functools.lru_cache(maxsize=1)
def _package_source_hash():
    digest = hashlib.sha256()
    for root, _, files in sorted(os.walk(_PACKAGE_DIR)):
        for name in sorted(files):
            if name.endswith(".py"):
                with open(os.path.join(root, name), "rb") as f:
                    digest.update(name.encode() + f.read())
    return digest.hexdigest()


class _PackageStampLocator(caching._CacheLocator):
    """numba's usual locator for a kernel, with the whole package's source as its stamp."""

    def __init__(self, inner):
        self._inner = inner

    def ensure_cache_path(self):
        self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), _package_source_hash())

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        if not os.path.abspath(py_file).startswith(_PACKAGE_DIR + os.sep):
            return None
        for other in _CACHE_IMPL._locator_classes:
            if other is not cls:
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner)
        return None


# numba renamed _CacheImpl to CacheImpl in 0.61.
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl
if _PackageStampLocator not in _CACHE_IMPL._locator_classes:
    _CACHE_IMPL._locator_classes.insert(0, _PackageStampLocator)
