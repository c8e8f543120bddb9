"""The module-level functions of pydrake.symbolic: math functions of expressions, if_then_else,
and the matrix functions Evaluate, Substitute, Jacobian, ToLatex, MakeVectorVariable,
MakeMatrixVariable."""

import numbers

import numpy as np
import sympy

from mallard.common._pybind import call_form, overloads
from mallard.symbolic import _printing
from mallard.symbolic._expression import (
    Expression,
    Variable,
    _wrap,
    substitute,
    to_sym,
    with_random_samples,
)
from mallard.symbolic._formula import Formula


def _expression(x, name):
    return x if isinstance(x, Expression) else _wrap(to_sym(x, name))


def _unary(name):
    def fn(x):
        return getattr(_expression(x, name), name)()

    fn.__name__ = name
    fn.__doc__ = f"{name}(x) as an Expression (folded to a constant for a constant x)."
    return fn


sin, cos, tan = _unary("sin"), _unary("cos"), _unary("tan")
asin, acos, atan = _unary("asin"), _unary("acos"), _unary("atan")
sinh, cosh, tanh = _unary("sinh"), _unary("cosh"), _unary("tanh")
exp, log, sqrt, abs = _unary("exp"), _unary("log"), _unary("sqrt"), _unary("abs")
ceil, floor = _unary("ceil"), _unary("floor")
arcsin, arccos, arctan = asin, acos, atan


def atan2(y, x):
    """The angle of the point (x, y), as an Expression."""
    return _expression(y, "atan2").atan2(x)


def pow(x, exponent):
    return _expression(x, "pow").pow(exponent)


def min(a, b):
    return _expression(a, "min").min(b)


def max(a, b):
    return _expression(a, "max").max(b)


arctan2 = atan2


def if_then_else(f_cond, e_then, e_else):
    """The Expression equal to ``e_then`` where ``f_cond`` holds, else ``e_else``."""
    if not isinstance(f_cond, Formula):
        raise TypeError(f"if_then_else: expected a Formula, got {type(f_cond).__name__}")
    then, other = to_sym(e_then, "if_then_else"), to_sym(e_else, "if_then_else")
    return _wrap(sympy.Piecewise((then, f_cond._f), (other, True)))


def _matrix(m, name):
    """``m`` as a 2-D object array of Expressions (a 1-D array as a column, as pydrake's Eigen
    conversion makes it)."""
    a = np.asarray(m, dtype=object)
    if a.ndim == 1:
        a = a.reshape(-1, 1)
    if a.ndim != 2:
        raise ValueError(f"{name}: expected a vector or matrix, got shape {a.shape}")
    return np.vectorize(lambda e: _expression(e, name), otypes=[object])(a)


def Evaluate(m, env=None, generator=None):
    """The float matrix of the expressions of ``m`` with the variables set by ``env``
    ({Variable: float}); a vector gives a column. The random variables ``env`` lacks are drawn
    from ``generator`` (a RandomGenerator) once for the whole matrix, in id order. Raises
    RuntimeError naming a variable ``env`` lacks (a random one too, without a generator)."""
    a = _matrix(m, "Evaluate")
    if generator is not None:
        symbols = set().union(*(e._sym.free_symbols for e in a.flat))
        env = with_random_samples(env, symbols, generator)
    return np.vectorize(lambda e: e.Evaluate(env), otypes=[np.float64])(a).reshape(a.shape)


@overloads("m, subst", "m, var, e")
def Substitute(*args, **kwargs):
    """``Substitute(m, subst)`` (``{var: e}``) or ``Substitute(m, var, e)``: the matrix of
    expressions with the variables replaced (a vector gives a column)."""
    m, *subst = call_form(Substitute, args, kwargs)[1].values()
    a = _matrix(m, "Substitute")
    return np.vectorize(lambda e: _wrap(substitute(e._sym, *subst)), otypes=[object])(a)


def Jacobian(f, vars):
    """J with J[i, j] = ∂f[i]/∂vars[j], for a vector ``f`` of expressions."""
    f = _matrix(f, "Jacobian").reshape(-1)
    vars = list(np.asarray(vars, dtype=object).reshape(-1))
    if not vars:
        raise ValueError("Jacobian: vars must be non-empty")
    return np.array([e.Jacobian(vars) for e in f], dtype=object).reshape(len(f), len(vars))


@overloads("e, precision=", "f, precision=", "M, precision=")
def ToLatex(*args, **kwargs):
    """The LaTeX form of an Expression ``e``, Formula ``f`` or matrix ``M`` (floats shown
    with ``precision`` decimals unless integral; default 3)."""

    def accept(form, v):
        x = next(iter(v.values()))
        scalar = isinstance(x, Expression | Variable | numbers.Real)
        return form == (1 if isinstance(x, Formula) else 0 if scalar else 2)

    _, values = call_form(ToLatex, args, kwargs, accept=accept)
    e, precision = values.values()
    precision = 3 if precision is None else precision
    if isinstance(e, Formula):
        return _printing.formula_to_latex(e._f, precision)
    if isinstance(e, (Expression, Variable, numbers.Real)):
        return _printing.to_latex(to_sym(e, "ToLatex"), precision)
    a = _matrix(e, "ToLatex")
    rows = [" & ".join(_printing.to_latex(x._sym, precision) for x in row) for row in a]
    return "\\begin{bmatrix} " + " \\\\ ".join(rows) + " \\end{bmatrix}"


def MakeVectorVariable(rows, name, type=Variable.Type.CONTINUOUS):
    """A 1-D array of ``rows`` new Variables named ``name(i)``."""
    return np.array([Variable(f"{name}({i})", type) for i in range(rows)], dtype=object)


def MakeMatrixVariable(rows, cols, name, type=Variable.Type.CONTINUOUS):
    """A ``rows`` × ``cols`` array of new Variables named ``name(i, j)``."""
    m = np.empty((rows, cols), dtype=object)
    for i in range(rows):
        for j in range(cols):
            m[i, j] = Variable(f"{name}({i}, {j})", type)
    return m
