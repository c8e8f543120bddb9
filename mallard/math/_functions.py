"""pydrake.math's elementary functions for every scalar type: ``sin(x)`` is ``math.sin`` for
real numbers and ``x.sin()`` for other scalars (AutoDiffXd, symbolic Expression); numpy
arrays go through numpy's ufuncs (which call those methods on object arrays).

Two-argument functions (atan2, pow, min, max) with a real first argument lift it to the other
argument's scalar type (as ``0 * y + x``) before calling the method.
"""

import math
import numbers

import numpy as np


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
