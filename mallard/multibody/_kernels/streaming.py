"""Non-temporal stores: results a kernel writes once and does not read again (a rollout's
states, step after step), stored past the caches, so that they do not evict the workspace
the kernel computes in.

Compiled, ``stream(a, j, v)`` is a store of ``v`` (a float, or a vector of four float64:
lanes.transpose's rows) at ``a[j]`` marked nontemporal for LLVM (on x86, MOVNTSD or MOVNTI
per element, ``a[j]`` not known to be aligned to the vector), ``stream_half(a, j, v, h)`` a
store of half h of such a row at a 16-byte aligned ``a[j]`` (on x86, one MOVNTPD of two
float64: a rollout's states, whose rows have an even length, in half the stores). Such
stores are weakly ordered, so a kernel calls ``stream_fence()`` after them (on x86, SFENCE,
which orders them, then a sequentially consistent fence), before it stores anything else to
those elements or tells another thread they are written. Interpreted, plain stores.
"""

import platform

import llvmlite.ir as ir
import numpy as np
from numba import types
from numba.extending import intrinsic, overload

from mallard.multibody._kernels._numba_internals import array_struct, llvm_function, none_value
from mallard.multibody._kernels.lanes import F64xL, Row4

#: Whether numba compiles for x86 (SFENCE orders its non-temporal stores; a locked
#: instruction, LLVM's sequentially consistent fence there, need not on every CPU).
X86 = platform.machine().lower() in ("x86_64", "amd64", "i386", "i686")


def stream(a, j, v):
    """``a[j] = v`` (a float), or ``a[j : j + len(v)] = v`` (a row of lanes.transpose)."""
    if np.ndim(v) == 0:
        a[j] = v
    else:
        a[j : j + len(v)] = v


def stream_half(a, j, v, h):
    """``a[j : j + 2] = v[2·h : 2·h + 2]``: half h (0 or 1, a constant) of a row of
    lanes.transpose; compiled, ``a[j]`` must be 16-byte aligned."""
    a[j : j + 2] = v[2 * h : 2 * h + 2]


def stream_fence():
    """Orders the streamed stores before every later load and store (compiled: a fence)."""


def _store_nontemporal(context, builder, signature, args, value, align):
    """Stores ``value`` at a[j] (args: a, j, ...), aligned to ``align`` bytes, nontemporal."""
    data = array_struct(context, builder, signature.args[0], args[0]).data
    pointer = builder.bitcast(builder.gep(data, [args[1]]), value.type.as_pointer())
    store = builder.store(value, pointer, align=align)
    store.set_metadata("nontemporal", builder.module.add_metadata([ir.IntType(32)(1)]))
    return none_value(context)


@intrinsic
def _stream(typingctx, a, j, v):
    def codegen(context, builder, signature, args):
        return _store_nontemporal(context, builder, signature, args, args[2], 8)

    return types.none(a, types.intp, v), codegen


def _stream_half_intrinsic(h):
    """The intrinsic of :func:`stream_half` for half h."""

    @intrinsic
    def stream_half_h(typingctx, a, j, v):
        def codegen(context, builder, signature, args):
            mask = ir.Constant(ir.VectorType(ir.IntType(32), 2), [2 * h, 2 * h + 1])
            half = builder.shuffle_vector(args[2], ir.Constant(args[2].type, ir.Undefined), mask)
            return _store_nontemporal(context, builder, signature, args, half, 16)

        return types.none(a, types.intp, v), codegen

    return stream_half_h


_STREAM_HALF = (_stream_half_intrinsic(0), _stream_half_intrinsic(1))


@overload(stream)
def _stream_compiled(a, j, v):
    if not (
        isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C" and a.dtype == types.float64
    ):
        return None
    if isinstance(v, (F64xL, Row4)) or v == types.float64:
        return lambda a, j, v: _stream(a, j, v)
    return None


@overload(stream_half)
def _stream_half_compiled(a, j, v, h):
    if not (
        isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C" and a.dtype == types.float64
    ):
        return None
    if isinstance(v, (F64xL, Row4)) and isinstance(h, types.IntegerLiteral):
        store = _STREAM_HALF[h.literal_value]
        return lambda a, j, v, h: store(a, j, v)
    return None


@intrinsic
def _fence(typingctx):
    def codegen(context, builder, signature, args):
        if X86:
            sfence = llvm_function(
                builder, ir.FunctionType(ir.VoidType(), []), "llvm.x86.sse.sfence"
            )
            builder.call(sfence, [])
        builder.fence("seq_cst")
        return none_value(context)

    return types.none(), codegen


@overload(stream_fence)
def _stream_fence_compiled():
    return lambda: _fence()
