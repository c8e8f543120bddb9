"""How kernels are registered, compiled for float64 and cached on disk.

numba's on-disk cache (``cache=True``) checks only the source file of the function it compiled,
so a cached kernel would go stale when a helper it calls, in another file, changes. A cache
locator placed first in numba's list stamps every kernel of a kernel package with a hash of the
source of that whole package and of the packages it uses instead: this package's kernels with
its own source, those of another kernel package (mallard.geometry._kernels) with its own and
this one's (:func:`register_kernel_package`).
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
#: The kernel packages (directories) whose kernels are stamped, each with the directories whose
#: source its kernels depend on (its own first).
_PACKAGES = {_PACKAGE_DIR: (_PACKAGE_DIR,)}


def register_kernel_package(directory, *depends_on):
    """Stamps the kernels defined in the files under ``directory`` with the source of that
    directory and of ``depends_on`` (directories of the kernel packages they call)."""
    directory = os.path.abspath(directory)
    _PACKAGES[directory] = (directory,) + tuple(os.path.abspath(d) for d in depends_on)


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


@functools.cache
def _package_source_hash(directories):
    digest = hashlib.sha256()
    for directory in directories:
        for root, _, files in sorted(os.walk(directory)):
            for name in sorted(files):
                if name.endswith(".py"):
                    with open(os.path.join(root, name), "rb") as f:
                        digest.update(name.encode() + f.read())
    return digest.hexdigest()


def _package_of(py_file):
    """The registered kernel package whose directory holds ``py_file`` (None if none does)."""
    path = os.path.abspath(py_file)
    for directory in _PACKAGES:
        if path.startswith(directory + os.sep):
            return directory
    return None


class _PackageStampLocator(caching._CacheLocator):
    """numba's usual locator for a kernel, with its package's source (and that of the packages
    it depends on) as its stamp."""

    def __init__(self, inner, package):
        self._inner = inner
        self._package = package

    def ensure_cache_path(self):
        self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), _package_source_hash(_PACKAGES[self._package]))

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    @classmethod
    def from_function(cls, py_func, py_file):
        package = _package_of(py_file)
        if package is None:
            return None
        for other in _CACHE_IMPL._locator_classes:
            if other is not cls:
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner, package)
        return None


# numba renamed _CacheImpl to CacheImpl in 0.61.
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl
if _PackageStampLocator not in _CACHE_IMPL._locator_classes:
    _CACHE_IMPL._locator_classes.insert(0, _PackageStampLocator)
