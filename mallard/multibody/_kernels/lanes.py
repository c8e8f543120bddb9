"""Lanes: a quantity of ``L`` states side by side, computed with vector instructions.

A *lane array* is a 1-D array holding, for each scalar of a kernel's data, its value in each of
L states: ``a[i·L + l]`` is scalar i of state l. ``vload(a, j)`` is the L values ``a[j : j +
L]`` as one value, ``vstore(a, j, v)`` writes them back. Compiled for float64, that value is an
LLVM vector ``<L x double>`` (numba type :data:`f64xL`) on which ``+``, ``-``, ``*``, ``/`` and
unary ``-`` are one vector instruction each, with Python floats broadcast: kernels written for
scalars (the pose tuples of kernels.pose, for instance) then compute L states at once.
Interpreted, it is a numpy array of L elements (float or object), whose arithmetic is
elementwise too.

numba does not vectorize loops over the states of a batch by itself: each state's kinematics is
a chain of dependent products (bound by their latency), and loops over a few lanes are too
short for its loop vectorizer and their loads and stores too entangled for its SLP vectorizer.

The arithmetic is IEEE's, without fused multiply-adds, like the scalar kernels': a lane holds
what the scalar kernel computes for its state, to the last bit.
"""

import operator

import llvmlite.ir as ir
import numpy as np
from numba import types
from numba.extending import box, intrinsic, models, overload, register_model

#: The number of states a lane value holds (four float64: one AVX register).
L = 4

_VECTOR = ir.VectorType(ir.DoubleType(), L)


class F64xL(types.Type):
    """numba's type of L float64 lanes in one vector value."""

    def __init__(self):
        super().__init__(name=f"f64x{L}")


#: The numba type of a vload of a float64 lane array.
f64xL = F64xL()


@register_model(F64xL)
class _LanesModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, _VECTOR)


def vload(a, j):
    """The lanes ``a[j : j + L]`` (a copy)."""
    return a[j : j + L].copy()


def vstore(a, j, v):
    """``a[j : j + L] = v`` (lanes, or a scalar for every lane)."""
    a[j : j + L] = v


def _lane_pointer(context, builder, array_type, array, j):
    """A ``<L x double>*`` to element j of the 1-D array ``array``."""
    ary = context.make_array(array_type)(context, builder, array)
    element = builder.gep(ary.data, [j])
    return builder.bitcast(element, _VECTOR.as_pointer())


def _is_float_array(a):
    return (
        isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C" and a.dtype == types.float64
    )


def _is_scalar(t):
    return isinstance(t, (types.Float, types.Integer))


@intrinsic
def _vload(typingctx, a, j):
    def codegen(context, builder, signature, args):
        return builder.load(_lane_pointer(context, builder, signature.args[0], *args), align=8)

    return f64xL(a, types.intp), codegen


@intrinsic
def _vstore(typingctx, a, j, v):
    def codegen(context, builder, signature, args):
        pointer = _lane_pointer(context, builder, signature.args[0], args[0], args[1])
        builder.store(args[2], pointer, align=8)
        return context.get_dummy_value()

    return types.none(a, types.intp, f64xL), codegen


@overload(vload)
def _vload_compiled(a, j):
    if _is_float_array(a):
        return lambda a, j: _vload(a, j)
    return None


@overload(vstore)
def _vstore_compiled(a, j, v):
    if _is_float_array(a) and isinstance(v, F64xL):
        return lambda a, j, v: _vstore(a, j, v)
    if _is_float_array(a) and _is_scalar(v):
        return lambda a, j, v: _vstore(a, j, _splat(v))
    return None


@intrinsic
def _splat(typingctx, x):
    """L copies of the float x."""

    def codegen(context, builder, signature, args):
        x = context.cast(builder, args[0], signature.args[0], types.float64)
        one = builder.insert_element(ir.Constant(_VECTOR, ir.Undefined), x, ir.IntType(32)(0))
        zeros = ir.Constant(ir.VectorType(ir.IntType(32), L), [0] * L)
        return builder.shuffle_vector(one, ir.Constant(_VECTOR, ir.Undefined), zeros)

    return f64xL(x), codegen


def _binary_intrinsic(instruction):
    @intrinsic
    def apply(typingctx, a, b):
        def codegen(context, builder, signature, args):
            return getattr(builder, instruction)(args[0], args[1])

        return f64xL(a, b), codegen

    return apply


def _overload_binary(op, instruction):
    apply = _binary_intrinsic(instruction)

    @overload(op)
    def lanes_op(a, b):
        if isinstance(a, F64xL) and isinstance(b, F64xL):
            return lambda a, b: apply(a, b)
        if isinstance(a, F64xL) and _is_scalar(b):
            return lambda a, b: apply(a, _splat(b))
        if _is_scalar(a) and isinstance(b, F64xL):
            return lambda a, b: apply(_splat(a), b)
        return None


for _op, _instruction in (
    (operator.add, "fadd"),
    (operator.sub, "fsub"),
    (operator.mul, "fmul"),
    (operator.truediv, "fdiv"),
):
    _overload_binary(_op, _instruction)


@intrinsic
def _negate(typingctx, a):
    def codegen(context, builder, signature, args):
        return builder.fneg(args[0])

    return f64xL(a), codegen


@overload(operator.neg)
def _lanes_neg(a):
    if isinstance(a, F64xL):
        return lambda a: _negate(a)
    return None


def transpose(a, b, c, d):
    """The 4×4 transpose of four lane values (L = 4): a tuple of four lane values, the l-th
    holding lane l of a, b, c and d."""
    return tuple(np.array([a, b, c, d]).T.copy())


_PAIRS = ([0, 4, 1, 5], [2, 6, 3, 7])  # interleave the low, then the high halves
_HALVES = ([0, 1, 4, 5], [2, 3, 6, 7])  # the low halves of both, then the high halves


@intrinsic
def _transpose(typingctx, a, b, c, d):
    def codegen(context, builder, signature, args):
        a, b, c, d = args

        def shuffle(x, y, mask):
            return builder.shuffle_vector(x, y, ir.Constant(ir.VectorType(ir.IntType(32), 4), mask))

        ab = [shuffle(a, b, mask) for mask in _PAIRS]  # a0 b0 a1 b1, a2 b2 a3 b3
        cd = [shuffle(c, d, mask) for mask in _PAIRS]
        lanes = [shuffle(ab[i], cd[i], mask) for i in range(2) for mask in _HALVES]
        return context.make_tuple(builder, signature.return_type, lanes)

    return types.UniTuple(f64xL, 4)(a, b, c, d), codegen


@overload(transpose)
def _transpose_compiled(a, b, c, d):
    if L == 4 and all(isinstance(x, F64xL) for x in (a, b, c, d)):
        return lambda a, b, c, d: _transpose(a, b, c, d)
    return None


@box(F64xL)
def _box(typ, value, c):
    """Lanes returned to Python: a tuple of L floats."""
    floats = [
        c.pyapi.float_from_double(c.builder.extract_element(value, ir.IntType(32)(lane)))
        for lane in range(L)
    ]
    result = c.pyapi.tuple_pack(floats)
    for f in floats:
        c.pyapi.decref(f)
    return result
