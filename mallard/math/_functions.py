"""pydrake.math's elementary functions for every scalar type: ``sin(x)`` is ``math.sin`` for
real numbers and ``x.sin()`` for other scalars (AutoDiffXd, symbolic Expression); numpy
arrays go through numpy's ufuncs (which call those methods on object arrays).

Two-argument functions (atan2, pow, min, max) with a real first argument lift it to the other
argument's scalar type (as ``0 * y + x``) before calling the method.
"""

import math
import numbers
import operator

import numpy as np

from mallard._scalar import scalar_value


def _unary(name, real, ufunc):
    def function(x):
        if isinstance(x, numbers.Real):
            return real(x)
        if isinstance(x, np.ndarray):
            return ufunc(x)
        method = getattr(x, name, None)
        if method is None:
            raise TypeError(f"{name}(): unsupported scalar type {type(x).__name__}")
        return method()

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"{name}(x) for a real number, an AutoDiffXd or an Expression."
    return function


def _binary(name, real, ufunc):
    def function(x, y):
        x_real, y_real = isinstance(x, numbers.Real), isinstance(y, numbers.Real)
        if x_real and y_real:
            return real(x, y)
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            return ufunc(x, y)
        if x_real:
            x = 0 * y + x  # x as a constant of y's scalar type
        method = getattr(x, name, None)
        if method is None:
            raise TypeError(f"{name}(): unsupported scalar type {type(x).__name__}")
        return method(y)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"{name}(x, y) for real numbers, AutoDiffXd or Expressions."
    return function


sin = _unary("sin", math.sin, np.sin)
cos = _unary("cos", math.cos, np.cos)
tan = _unary("tan", math.tan, np.tan)
asin = _unary("asin", math.asin, np.arcsin)
acos = _unary("acos", math.acos, np.arccos)
atan = _unary("atan", math.atan, np.arctan)
sinh = _unary("sinh", math.sinh, np.sinh)
cosh = _unary("cosh", math.cosh, np.cosh)
tanh = _unary("tanh", math.tanh, np.tanh)
exp = _unary("exp", math.exp, np.exp)
log = _unary("log", math.log, np.log)
sqrt = _unary("sqrt", math.sqrt, np.sqrt)
abs = _unary("abs", lambda x: float(x.__abs__()), np.abs)  # noqa: A001 (pydrake's name)
ceil = _unary("ceil", lambda x: float(math.ceil(x)), np.ceil)
floor = _unary("floor", lambda x: float(math.floor(x)), np.floor)
atan2 = _binary("atan2", math.atan2, np.arctan2)
pow = _binary("pow", lambda x, y: float(x) ** float(y), np.power)  # noqa: A001
min = _binary("min", lambda x, y: float(x if x <= y else y), np.minimum)  # noqa: A001
max = _binary("max", lambda x, y: float(x if x >= y else y), np.maximum)  # noqa: A001

# numpy's names, as pydrake.math has them too.
arcsin, arccos, arctan, arctan2 = asin, acos, atan, atan2


def wrap_to(value, low, high):
    """``value`` + k·(high − low) for the integer k that puts it in [low, high) (any scalar
    type: the wrap's derivative is that of ``value``). RuntimeError unless low < high, both
    finite."""
    low_value, high_value = scalar_value(low), scalar_value(high)
    if low_value is not None and high_value is not None:
        if not (math.isfinite(low_value) and math.isfinite(high_value)):
            raise RuntimeError(f"wrap_to(): low and high must be finite, got {low}, {high}")
        if not low_value < high_value:
            raise RuntimeError(f"wrap_to(): low must be less than high, got {low}, {high}")
    period = high - low
    return value - period * floor((value - low) / period)


def isnan(x):
    """Whether the scalar ``x`` (its value, for an AutoDiffXd) is NaN. (pydrake's
    Expression overload, a Formula, is not available.)"""
    if isinstance(x, numbers.Real):
        return math.isnan(x)
    if hasattr(x, "derivatives"):
        return math.isnan(x.value())
    if hasattr(x, "Evaluate"):
        raise NotImplementedError(
            "isnan(): the Expression overload (a Formula) is not available in mallard.symbolic"
        )
    raise TypeError(f"isnan(): expected a float or AutoDiffXd, got {type(x).__name__}")


def _comparison(name, op):
    def function(a, b):
        return np.vectorize(op, otypes=[object])(a, b)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"The elementwise ``{name}`` of two arrays (or scalars) of any scalar type (a Formula "
        "per element for Expressions, a bool otherwise)."
    )
    return function


eq = _comparison("eq", operator.eq)
ne = _comparison("ne", operator.ne)
lt = _comparison("lt", operator.lt)
le = _comparison("le", operator.le)
gt = _comparison("gt", operator.gt)
ge = _comparison("ge", operator.ge)


def matmul(A, B):
    """The matrix product A @ B for arrays of any scalar types (float64 if both are)."""
    A, B = np.asarray(A), np.asarray(B)
    if A.dtype == object or B.dtype == object:
        return np.dot(A.astype(object), B.astype(object))
    return A @ B


def inv(A):
    """The inverse of the square matrix A: numpy's for doubles; for AutoDiffXd or Expressions,
    Gauss-Jordan elimination with partial pivoting on the elements' values (an Expression
    pivot without a value is taken if it is not structurally zero). RuntimeError if A is
    singular."""
    A = np.asarray(A)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise RuntimeError(f"inv(): expected a square matrix, got shape {A.shape}")
    if A.dtype != object:
        return np.linalg.inv(A.astype(float))
    n = A.shape[0]
    M = np.hstack([A.astype(object), np.eye(n).astype(object)])
    for j in range(n):
        values = [scalar_value(M[i, j]) for i in range(j, n)]
        if all(v is not None for v in values):
            p = j + int(np.argmax(np.abs(values)))
            if values[p - j] == 0.0:
                raise RuntimeError("inv(): the matrix is singular")
        else:
            p = next((i for i in range(j, n) if not _is_zero(M[i, j])), None)
            if p is None:
                raise RuntimeError("inv(): the matrix is singular")
        M[[j, p]] = M[[p, j]]
        M[j] = M[j] / M[j, j]
        for i in range(n):
            if i != j:
                M[i] = M[i] - M[i, j] * M[j]
    return M[:, n:]


def _is_zero(x):
    value = scalar_value(x)
    if value is not None:
        return value == 0.0
    return str(x) == "0"
