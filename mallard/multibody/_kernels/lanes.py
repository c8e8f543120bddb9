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
from numba.core import cgutils
from numba.extending import (
    box,
    intrinsic,
    models,
    overload,
    overload_attribute,
    register_model,
)

from mallard.multibody._kernels._machinery import _c_view, _product, reshaped

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


for _ops, _instruction in (
    ((operator.add, operator.iadd), "fadd"),
    ((operator.sub, operator.isub), "fsub"),
    ((operator.mul, operator.imul), "fmul"),
    ((operator.truediv, operator.itruediv), "fdiv"),
):
    for _op in _ops:  # (lane values are immutable: in place is the same)
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


# ---- lane views: kernels written for scalar arrays, run on L states ----------------------------
class Lanes:
    """An array of lanes as a kernel written for scalars sees it: ``array`` has one more
    dimension than the view, the last, of L lanes. Indexing by one integer per dimension gives
    the L lanes of that element (a copy; compiled, one vector value); by fewer, or with slices,
    a view of the rest; ``shape`` is the view's. Assigning an element writes its lanes (a
    scalar: to every lane)."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    @property
    def shape(self):
        return self.array.shape[:-1]

    def __getitem__(self, index):
        items = index if isinstance(index, tuple) else (index,)
        value = self.array[index]
        if len(items) == self.array.ndim - 1 and not any(isinstance(i, slice) for i in items):
            return value.copy()
        return Lanes(value)

    def __setitem__(self, index, value):
        self.array[index] = value

    def reshape(self, shape):
        """The view of the array reshaped to ``shape`` + (L,)."""
        return Lanes(self.array.reshape((*shape, L)))


def lane_view(array):
    """The :class:`Lanes` view of ``array`` (its last dimension: L lanes)."""
    return Lanes(array)


class LanesType(types.Type):
    """numba's type of a :class:`Lanes` view of an array of type ``array_type``."""

    def __init__(self, array_type):
        self.array_type = array_type
        self.ndim = array_type.ndim - 1
        super().__init__(name=f"Lanes({array_type})")


@register_model(LanesType)
class _LanesViewModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("array", fe_type.array_type)])


@intrinsic
def _wrap(typingctx, array):
    def codegen(context, builder, signature, args):
        view = cgutils.create_struct_proxy(signature.return_type)(context, builder)
        view.array = args[0]
        context.nrt.incref(builder, signature.args[0], args[0])
        return view._getvalue()

    return LanesType(array)(array), codegen


@box(LanesType)
def _box_lanes(typ, value, c):
    """Lane views returned to Python: their arrays."""
    array = cgutils.create_struct_proxy(typ)(c.context, c.builder, value).array
    return c.box(typ.array_type, array)


@intrinsic
def _unwrap(typingctx, view):
    def codegen(context, builder, signature, args):
        array = cgutils.create_struct_proxy(signature.args[0])(context, builder, args[0]).array
        context.nrt.incref(builder, signature.return_type, array)
        return array

    return view.array_type(view), codegen


@intrinsic
def _load_first(typingctx, a):
    """The L values from a's first element on (a: the lanes of one element, contiguous)."""

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.load(builder.bitcast(ary.data, _VECTOR.as_pointer()), align=8)

    return f64xL(a), codegen


@intrinsic
def _store_first(typingctx, a, v):
    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        builder.store(args[1], builder.bitcast(ary.data, _VECTOR.as_pointer()), align=8)
        return context.get_dummy_value()

    return types.none(a, f64xL), codegen


@overload(lane_view)
def _lane_view_compiled(array):
    if isinstance(array, types.Array) and array.dtype == types.float64:
        return lambda array: _wrap(array)
    return None


def _is_element(view, index):
    """Whether ``index`` names one element of the LanesType ``view`` (an integer per
    dimension)."""
    items = index.types if isinstance(index, types.BaseTuple) else (index,)
    return len(items) == view.ndim and all(isinstance(i, types.Integer) for i in items)


@overload(operator.getitem)
def _lanes_getitem(view, index):
    if not isinstance(view, LanesType):
        return None
    if _is_element(view, index):
        return lambda view, index: _load_first(_unwrap(view)[index])
    return lambda view, index: _wrap(_unwrap(view)[index])


@overload(operator.setitem)
def _lanes_setitem(view, index, value):
    if not (isinstance(view, LanesType) and _is_element(view, index)):
        return None
    if isinstance(value, F64xL):
        return lambda view, index, value: _store_first(_unwrap(view)[index], value)
    if _is_scalar(value):
        return lambda view, index, value: _store_first(_unwrap(view)[index], _splat(value))
    return None


@overload_attribute(LanesType, "shape")
def _lanes_shape(view):
    return lambda view: _unwrap(view).shape[:-1]


def lane_count(a):
    """L for a lane view, 1 for an array: with :func:`lane`, how kernels run scalar code (a
    call that lanes can't take) lane by lane."""
    return L if isinstance(a, Lanes) else 1


def lane(a, index):
    """Lane ``index`` of a lane view (a strided array of scalars); an array is its only lane."""
    return a.array[..., index] if isinstance(a, Lanes) else a


@overload(lane_count)
def _lane_count_compiled(a):
    count = L if isinstance(a, LanesType) else 1
    return lambda a: count


@overload(lane)
def _lane_compiled(a, index):
    if isinstance(a, LanesType):
        return lambda a, index: _unwrap(a)[..., index]
    return lambda a, index: a


def lane_array(view):
    """The array of a lane view (its last dimension: L lanes)."""
    return view.array


@overload(lane_array)
def _lane_array_compiled(view):
    if isinstance(view, LanesType):
        return lambda view: _unwrap(view)
    return None


@overload(reshaped)
def _reshaped_lanes(a, shape):
    """A 1-D lane view of a C-contiguous array, reshaped: its array viewed as shape + (L,)."""
    if not (isinstance(a, LanesType) and a.ndim == 1 and a.array_type.layout == "C"):
        return None

    def impl(a, shape):
        if _product(shape) != a.shape[0]:
            raise ValueError("reshaped: the shape does not match the lane view's size")
        return _wrap(_c_view(_unwrap(a), shape + (L,)))

    return impl


# ---- guards and selections that kernels take of lanes and of scalars alike ---------------------
def positive(x):
    """Whether x > 0 (False for NaN); of lanes, whether every lane is: a guard, on which a
    kernel stops (its caller then takes the lanes' states one by one)."""
    if isinstance(x, np.ndarray):
        return bool(np.all(x > 0.0))
    return x > 0.0


def clamp(x, limit):
    """x clamped to [−limit, limit] (limit ≥ 0), lane by lane: 0·x + limit above it, 0·x −
    limit below it (NaN stays NaN; 0·x keeps the type of AutoDiffXd and symbolic scalars)."""
    if isinstance(x, np.ndarray):
        return np.where(x > limit, 0.0 * x + limit, np.where(x < -limit, 0.0 * x - limit, x))
    return _clamp_scalar(x, limit)


def _clamp_scalar(x, limit):
    if x > limit:
        return 0.0 * x + limit
    if x < -limit:
        return 0.0 * x - limit
    return x


@intrinsic
def _all_positive(typingctx, x):
    def codegen(context, builder, signature, args):
        above = builder.fcmp_ordered(">", args[0], ir.Constant(_VECTOR, [0.0] * L))
        bits = builder.bitcast(above, ir.IntType(L))
        return builder.icmp_unsigned("==", bits, ir.IntType(L)(2**L - 1))

    return types.boolean(x), codegen


@intrinsic
def _select(typingctx, condition_of, a, b, threshold, above):
    """Lanes of a where (condition_of > threshold if above else condition_of < threshold),
    else of b (threshold: lanes)."""

    def codegen(context, builder, signature, args):
        x, a, b, t, is_above = args
        over = builder.fcmp_ordered(">", x, t)
        under = builder.fcmp_ordered("<", x, t)
        condition = builder.select(is_above, over, under)
        return builder.select(condition, a, b)

    return f64xL(condition_of, a, b, threshold, types.boolean), codegen


@overload(positive)
def _positive_compiled(x):
    if isinstance(x, F64xL):
        return lambda x: _all_positive(x)
    if _is_scalar(x):
        return lambda x: x > 0.0
    return None


@overload(clamp)
def _clamp_compiled(x, limit):
    if isinstance(x, F64xL):

        def clamp_lanes(x, limit):
            high, low = _splat(limit), _splat(-limit)
            below = _select(x, 0.0 * x - limit, x, low, False)
            return _select(x, 0.0 * x + limit, below, high, True)

        return clamp_lanes
    if _is_scalar(x):
        return _clamp_scalar
    return None


@intrinsic
def _power(typingctx, x, exponent):
    def codegen(context, builder, signature, args):
        signature_ = ir.FunctionType(_VECTOR, [_VECTOR, _VECTOR])
        power = cgutils.get_or_insert_function(builder.module, signature_, f"llvm.pow.v{L}f64")
        return builder.call(power, args)

    return f64xL(x, x), codegen


@overload(operator.pow)
def _lanes_pow(x, exponent):
    if isinstance(x, F64xL) and _is_scalar(exponent):
        return lambda x, exponent: _power(x, _splat(exponent))
    return None
