"""How kernels are registered, compiled for float64 and cached on disk.

numba's on-disk cache (``cache=True``) checks only the source file of the function it compiled,
so a cached kernel would go stale when a helper it calls, in another file, changes. A cache
locator placed first in numba's list stamps every kernel of this package, and of the kernel
sources elsewhere (:data:`_OTHER_SOURCES`), with a hash of all of their source instead.
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
_MALLARD_DIR = os.path.dirname(os.path.dirname(_PACKAGE_DIR))
#: The kernel sources outside this package: modules with entry points or kernels of their own
#: (the integrators' helpers) and helpers the kernels compile (the quaternion formula, the
#: periodic events' times).
_OTHER_SOURCES = tuple(
    os.path.join(_MALLARD_DIR, *path.split("/"))
    for path in (
        "systems/analysis/_kernels.py",
        "common/_quaternion.py",
        "systems/framework/_sample_times.py",
    )
)


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
    """Registers ``fn`` as a batched entry point (mallard._compiled.entry_point, parallel): a
    kernel whose outer loop over the batch is a ``numba.prange`` (plain ``range`` when
    interpreted), compiled with ``parallel=True``. Compiled kernels do not call them."""
    return entry_point(fn, parallel=True)


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


def _kernel_source_files():
    """Every kernel source file: this package's and :data:`_OTHER_SOURCES`."""
    files = [
        os.path.join(root, name)
        for root, _, names in sorted(os.walk(_PACKAGE_DIR))
        for name in sorted(names)
        if name.endswith(".py")
    ]
    return files + list(_OTHER_SOURCES)


def _is_kernel_source(py_file):
    path = os.path.abspath(py_file)
    return path.startswith(_PACKAGE_DIR + os.sep) or path in _OTHER_SOURCES


@functools.lru_cache(maxsize=1)
def _package_source_hash():
    digest = hashlib.sha256()
    for path in _kernel_source_files():
        with open(path, "rb") as f:
            digest.update(os.path.basename(path).encode() + f.read())
    return digest.hexdigest()


class _PackageStampLocator(caching._CacheLocator):
    """numba's usual locator for a kernel, with all the kernel sources as its stamp."""

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
        if not _is_kernel_source(py_file):
            return None
        for other in _CACHE_IMPL._locator_classes:
            if other is not cls:
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner)
        return None


def _compile_each_kernel_once():
    """Makes numba type (and compile) a kernel once per argument types, not twice.

    numba keys the implementations of an overload (which ``jitable`` registers) by the
    argument types and the flags of the function being compiled when it is called. Those
    flags differ in one option only between an entry point (compiled with a wrapper that
    Python calls) and the kernels below it (without), which changes nothing in the kernel's
    code: a kernel called both by an (inlined) driver and by another kernel was compiled
    twice, with everything it calls. The key is made with that option as the kernels'."""
    from numba.core import targetconfig
    from numba.core.typing import templates

    template = templates._OverloadFunctionTemplate
    if getattr(template._get_impl, "_mallard", False):
        return

    def _get_impl(self, args, kws):
        flags = targetconfig.ConfigStack.top_or_none()
        if flags is not None and not flags.no_cpython_wrapper:
            flags = flags.copy()
            flags.no_cpython_wrapper = True
        cache_key = self.context, tuple(args), tuple(kws.items()), flags
        found = self._impl_cache.get(cache_key)
        if found is not None:
            return found
        return self._build_impl(cache_key, args, kws)

    _get_impl._mallard = True
    template._get_impl = _get_impl


_compile_each_kernel_once()

# numba renamed _CacheImpl to CacheImpl in 0.61.
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl
if _PackageStampLocator not in _CACHE_IMPL._locator_classes:
    _CACHE_IMPL._locator_classes.insert(0, _PackageStampLocator)
