"""Text and LaTeX forms: fixed strings in Drake's notation, and the same expressions built in
pydrake (where installed) print the same."""

import numpy as np
import pytest

pytest.importorskip("sympy")

import mallard.symbolic as M  # noqa: E402

# Each recipe builds an expression (or formula, or matrix) from a symbolic module s and two
# variables x, y.
RECIPES = {
    "sum": lambda s, x, y: x + y**2,
    "product": lambda s, x, y: x * y * 2,
    "quotient": lambda s, x, y: x / y,
    "difference": lambda s, x, y: x - 2 * y,
    "negation": lambda s, x, y: -x,
    "leading minus": lambda s, x, y: -x + y,
    "constant first": lambda s, x, y: 2.5 * x - 1.5,
    "integral coefficient": lambda s, x, y: 2 * x + 1,
    "rational": lambda s, x, y: x * y / 3,
    "quotient of sums": lambda s, x, y: (x + 1) / (y - 1),
    "reciprocal": lambda s, x, y: 1 / x,
    "square": lambda s, x, y: x * x,
    "power of a sum": lambda s, x, y: (x + y) ** 2,
    "symbolic power": lambda s, x, y: s.pow(x, y),
    "sqrt": lambda s, x, y: s.sqrt(x),
    "trig": lambda s, x, y: s.sin(x) + s.cos(y),
    "trig product": lambda s, x, y: x * s.sin(y) ** 2,
    "more functions": lambda s, x, y: s.tan(x) * s.tanh(y) + s.asin(x) + s.acos(y),
    "atan": lambda s, x, y: s.atan(x),
    "hyperbolic": lambda s, x, y: s.sinh(x) + s.cosh(x),
    "exp log": lambda s, x, y: s.exp(x) * s.log(y),
    "abs": lambda s, x, y: s.abs(x),
    "atan2": lambda s, x, y: s.atan2(x, y),
    "min": lambda s, x, y: s.min(x, y),
    "max": lambda s, x, y: s.max(x, y),
    "ceil": lambda s, x, y: s.ceil(x),
    "floor": lambda s, x, y: s.floor(x),
    "if then else": lambda s, x, y: s.if_then_else(x > y, x, y),
    "expanded": lambda s, x, y: ((x + y) ** 2).Expand(),
    "derivative": lambda s, x, y: (x * y * s.sin(x)).Differentiate(x),
    "mixed": lambda s, x, y: x * y - y * s.sin(x) + 3,
    "pi": lambda s, x, y: x * np.pi,
    "e": lambda s, x, y: s.Expression(np.e),
    "tenth": lambda s, x, y: x * 0.1,
    "small": lambda s, x, y: s.Expression(1e-5),
    "large": lambda s, x, y: s.Expression(123456.789),
    "negative": lambda s, x, y: s.Expression(-2.0),
    "greater": lambda s, x, y: x > y,
    "at least": lambda s, x, y: x >= y,
    "less": lambda s, x, y: x < 1.5,
    "equal": lambda s, x, y: x == y,
    "not equal": lambda s, x, y: x != y,
    "and": lambda s, x, y: s.logical_and(x > y, y > 1),
    "or": lambda s, x, y: s.logical_or(x > y, y > 1),
    "not and": lambda s, x, y: s.logical_not(s.logical_and(x > 1, y > 1)),
    "indexed names": lambda s, x, y: s.MakeMatrixVariable(2, 2, "M")[1, 0] * s.sin(x),
    "matrix": lambda s, x, y: np.array([[x, 1.5], [y * 2, s.sin(x)]]),
    "vector": lambda s, x, y: np.array([x, y]),
    "float matrix": lambda s, x, y: np.eye(2),
}


def _forms(s, recipe):
    e = recipe(s, s.Variable("x"), s.Variable("y"))
    text = None if isinstance(e, np.ndarray) else str(e)
    return text, s.ToLatex(e), s.ToLatex(e, 5)


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_forms_match_pydrake(name):
    D = pytest.importorskip("pydrake.symbolic")
    assert _forms(M, RECIPES[name]) == _forms(D, RECIPES[name])


def test_fixed_forms():
    x, y = M.Variable("x"), M.Variable("y")
    assert str(x * y + 3 * M.sin(y) - y / 4) == "( - 0.25 * y + (x * y) + 3 * sin(y))"
    assert str((x + 1) / (y - 1)) == "((1 + x) / (-1 + y))"
    assert str(M.if_then_else(x > y, x, y)) == "(if (x > y) then x else y)"
    assert M.ToLatex(2.5 * x - 1.5) == "(-1.500 + 2.500x)"
    assert M.ToLatex(x * np.pi, 2) == "\\pi x"
    assert M.ToLatex(M.sqrt(x) / y) == "\\frac{\\sqrt{x}}{y}"
    assert M.ToLatex(x >= y) == "x \\ge y"
    assert M.ToLatex(np.array([[x, 0.26]]), 1) == "\\begin{bmatrix} x & 0.3 \\end{bmatrix}"
