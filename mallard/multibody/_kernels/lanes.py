"""Lane values: ``L`` float64 values, of L states, in one vector register (L =
_layout.lanes(): eight with AVX-512, else four).

Batched kernels compute L states at once (see kernels.lane_views): numba does not vectorize
loops over the states of a batch by itself (each state's kinematics is a chain of dependent
products, bound by their latency; loops over a few lanes are too short for its loop vectorizer,
and their loads and stores too entangled for its SLP vectorizer), so the vectors are explicit.

Compiled, a lane value is an LLVM vector ``<L x double>`` (numba type :data:`f64xL`), loaded
from and stored to L consecutive float64 (``vload(a, j)``, ``vstore(a, j, v)``: ``a[j : j +
L]``), on which ``+``, ``-``, ``*``, ``/``, ``**`` and unary ``-`` are one vector operation
each, with Python floats and integers broadcast: code written for scalars, such as the pose
tuples of kernels.pose, computes L states at once. Interpreted, a lane value is a numpy array
of L elements (float or object), whose arithmetic is elementwise too. :func:`positive` and
:func:`clamp`, the comparisons kernels make, take scalars and lane values alike.

The arithmetic is IEEE's, without fused multiply-adds, like the scalar kernels': a lane holds
what the scalar kernel computes for its state, to the last bit.
"""

import operator

import llvmlite.ir as ir
import numpy as np
from numba import types
from numba.extending import (
    box,
    intrinsic,
    lower_builtin,
    models,
    overload,
    register_model,
    type_callable,
)

from mallard.multibody._kernels._numba_internals import (
    array_struct,
    box_float_tuple,
    cast,
    llvm_function,
    make_tuple,
    none_value,
)
from mallard.multibody._layout import lanes

#: The number of states a lane value holds (_layout.lanes: eight float64, one AVX-512
#: register, where numba compiles for AVX-512; else four, one AVX register).
L = lanes()

#: The LLVM type of a lane value.
VECTOR_TYPE = ir.VectorType(ir.DoubleType(), L)


class F64xL(types.Type):
    """numba's type of L float64 lanes in one vector value."""

    def __init__(self):
        super().__init__(name=f"f64x{L}")


#: The numba type of a lane value.
f64xL = F64xL()


@register_model(F64xL)
class _LanesModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, VECTOR_TYPE)


def vload(a, j):
    """The lanes ``a[j : j + L]`` (a copy)."""
    return a[j : j + L].copy()


def vstore(a, j, v):
    """``a[j : j + L] = v`` (lanes, or a scalar for every lane); of a row of four
    (:func:`transpose`), ``a[j : j + 4] = v``."""
    a[j : j + (L if np.ndim(v) == 0 else len(v))] = v


def _lane_pointer(context, builder, array_type, array, j, vector_type=VECTOR_TYPE):
    """A ``<L x double>*`` (or ``vector_type``) to element j of the 1-D array ``array``."""
    element = builder.gep(array_struct(context, builder, array_type, array).data, [j])
    return builder.bitcast(element, vector_type.as_pointer())


def _is_float_array(a):
    return (
        isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C" and a.dtype == types.float64
    )


def is_scalar_type(t):
    """Whether the numba type t is a float or an integer (broadcast to lanes)."""
    return isinstance(t, (types.Float, types.Integer))


@intrinsic
def _vload(typingctx, a, j):
    def codegen(context, builder, signature, args):
        return builder.load(_lane_pointer(context, builder, signature.args[0], *args), align=8)

    return f64xL(a, types.intp), codegen


@intrinsic
def _vstore(typingctx, a, j, v):
    def codegen(context, builder, signature, args):
        vector_type = ROW4_TYPE if isinstance(signature.args[2], Row4) else VECTOR_TYPE
        pointer = _lane_pointer(context, builder, signature.args[0], *args[:2], vector_type)
        builder.store(args[2], pointer, align=8)
        return none_value(context)

    return types.none(a, types.intp, v), codegen


@overload(vload)
def _vload_compiled(a, j):
    if _is_float_array(a):
        return lambda a, j: _vload(a, j)
    return None


@overload(vstore)
def _vstore_compiled(a, j, v):
    if _is_float_array(a) and isinstance(v, (F64xL, Row4)):
        return lambda a, j, v: _vstore(a, j, v)
    if _is_float_array(a) and is_scalar_type(v):
        return lambda a, j, v: _vstore(a, j, splat(v))
    return None


def _splat(context, builder, x, x_type):
    """L copies of the float or integer x (of numba type x_type), as a float64."""
    x = cast(context, builder, x, x_type, types.float64)
    one = builder.insert_element(ir.Constant(VECTOR_TYPE, ir.Undefined), x, ir.IntType(32)(0))
    zeros = ir.Constant(ir.VectorType(ir.IntType(32), L), [0] * L)
    return builder.shuffle_vector(one, ir.Constant(VECTOR_TYPE, ir.Undefined), zeros)


@intrinsic
def splat(typingctx, x):
    """L copies of the float x."""

    def codegen(context, builder, signature, args):
        return _splat(context, builder, args[0], signature.args[0])

    return f64xL(x), codegen


def as_lanes(context, builder, value, value_type):
    """In code generation: the lane value ``value`` (numba type ``value_type``), or L copies
    of the scalar ``value``."""
    if isinstance(value_type, F64xL):
        return value
    return _splat(context, builder, value, value_type)


def _lane_operands(a, b):
    """Whether ``a op b`` is an operation on lanes: lanes with lanes, or with a scalar."""
    if isinstance(a, F64xL):
        return isinstance(b, F64xL) or is_scalar_type(b)
    return is_scalar_type(a) and isinstance(b, F64xL)


# The operators on lane values are typed and lowered as numba's own operators on scalars are
# (one vector instruction at each use), not as overloads: an overload is a function of its
# own, compiled per signature, and each use a call with numba's status check (~25 LLVM
# instructions of IR to lower and optimize for each ``a * b``; docs/compilation.md).
def _lower_binary(ops, instruction):
    def lower(context, builder, signature, args):
        a, b = (as_lanes(context, builder, v, t) for v, t in zip(args, signature.args, strict=True))
        return getattr(builder, instruction)(a, b)

    for op in ops:

        @type_callable(op)
        def typing(context):
            def typer(a, b):
                return f64xL if _lane_operands(a, b) else None

            return typer

        for operands in _LANE_OPERANDS:
            lower_builtin(op, *operands)(lower)


#: The operand types of a binary operator on lanes (classes of numba types).
_LANE_OPERANDS = (
    (F64xL, F64xL),
    (F64xL, types.Float),
    (types.Float, F64xL),
    (F64xL, types.Integer),
    (types.Integer, F64xL),
)


for _ops, _instruction in (
    ((operator.add, operator.iadd), "fadd"),
    ((operator.sub, operator.isub), "fsub"),
    ((operator.mul, operator.imul), "fmul"),
    ((operator.truediv, operator.itruediv), "fdiv"),
):  # (lane values are immutable: in place is the same)
    _lower_binary(_ops, _instruction)


@type_callable(operator.neg)
def _type_neg(context):
    def typer(a):
        return f64xL if isinstance(a, F64xL) else None

    return typer


@lower_builtin(operator.neg, F64xL)
def _lower_neg(context, builder, signature, args):
    return builder.fneg(args[0])


class Row4(types.Type):
    """numba's type of four float64 in one vector value: one state's four elements of a row,
    as :func:`transpose` gives them where L is not 4 (where it is, they are a lane value)."""

    def __init__(self):
        super().__init__(name="f64x4")


#: The LLVM type of a Row4.
ROW4_TYPE = ir.VectorType(ir.DoubleType(), 4)


@register_model(Row4)
class _Row4Model(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ROW4_TYPE)


#: The numba type of a state's four elements of a row (:func:`transpose`; ``vstore`` takes it).
f64x4 = f64xL if L == 4 else Row4()


def transpose(a, b, c, d):
    """The L states' rows of four elements (a, b, c, d), from four lane values: a tuple of L
    vectors of four float64 (lane values if L = 4), the l-th holding lane l of a, b, c and d.
    Of four scalars (one lane each), the 1-tuple of the lane (a, b, c, d)."""
    if not isinstance(a, np.ndarray):
        return (np.array([a, b, c, d]),)
    return tuple(np.array([a, b, c, d]).T.copy())


def _mask(indices):
    return ir.Constant(ir.VectorType(ir.IntType(32), len(indices)), indices)


@intrinsic
def _transpose(typingctx, a, b, c, d):
    def codegen(context, builder, signature, args):
        a, b, c, d = args
        rows = []
        for lane in range(L):  # (LLVM turns these into a few unpacks and permutes)
            ab = builder.shuffle_vector(a, b, _mask([lane, L + lane]))
            cd = builder.shuffle_vector(c, d, _mask([lane, L + lane]))
            rows.append(builder.shuffle_vector(ab, cd, _mask([0, 1, 2, 3])))
        return make_tuple(context, builder, signature.return_type, rows)

    return types.UniTuple(f64x4, L)(a, b, c, d), codegen


@overload(transpose)
def _transpose_compiled(a, b, c, d):
    if all(isinstance(x, F64xL) for x in (a, b, c, d)):
        return lambda a, b, c, d: _transpose(a, b, c, d)
    return None


@box(F64xL)
def _box(typ, value, c):
    """Lanes returned to Python: a tuple of L floats."""
    return box_float_tuple(
        c, [c.builder.extract_element(value, ir.IntType(32)(lane)) for lane in range(L)]
    )


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
        above = builder.fcmp_ordered(">", args[0], ir.Constant(VECTOR_TYPE, [0.0] * L))
        bits = builder.bitcast(above, ir.IntType(L))
        return builder.icmp_unsigned("==", bits, ir.IntType(L)(2**L - 1))

    return types.boolean(x), codegen


@intrinsic
def _where_greater(typingctx, x, y, a, b):
    """Lanes of a where x > y (ordered: not where either is NaN), else of b."""

    def codegen(context, builder, signature, args):
        x, y, a, b = args
        return builder.select(builder.fcmp_ordered(">", x, y), a, b)

    return f64xL(x, y, a, b), codegen


@overload(positive)
def _positive_compiled(x):
    if isinstance(x, F64xL):
        return lambda x: _all_positive(x)
    if is_scalar_type(x):
        return lambda x: x > 0.0
    return None


@overload(clamp)
def _clamp_compiled(x, limit):
    if isinstance(x, F64xL):

        def clamp_lanes(x, limit):
            below = _where_greater(splat(-limit), x, 0.0 * x - limit, x)
            return _where_greater(x, splat(limit), 0.0 * x + limit, below)

        return clamp_lanes
    if is_scalar_type(x):
        return _clamp_scalar
    return None


@type_callable(operator.pow)
def _type_pow(context):
    def typer(x, exponent):
        return f64xL if isinstance(x, F64xL) and is_scalar_type(exponent) else None

    return typer


@lower_builtin(operator.pow, F64xL, types.Float)
@lower_builtin(operator.pow, F64xL, types.Integer)
def _lower_pow(context, builder, signature, args):
    pow_type = ir.FunctionType(VECTOR_TYPE, [VECTOR_TYPE, VECTOR_TYPE])
    power = llvm_function(builder, pow_type, f"llvm.pow.v{L}f64")
    exponent = _splat(context, builder, args[1], signature.args[1])
    return builder.call(power, [args[0], exponent])
