"""The module-level functions of mallard.symbolic: math functions, matrix Evaluate,
Substitute and Jacobian, variable vectors and matrices, the sympy conversions, and the
ImportError without sympy."""

import math
import subprocess
import sys

import numpy as np
import pytest

sympy = pytest.importorskip("sympy")

import mallard.symbolic as sym  # noqa: E402
from mallard.symbolic import (  # noqa: E402
    Evaluate,
    Expression,
    Jacobian,
    MakeMatrixVariable,
    MakeVectorVariable,
    Substitute,
    Variable,
    from_sympy,
    to_sympy,
)

_UNARY = {
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "sinh": math.sinh,
    "cosh": math.cosh,
    "tanh": math.tanh,
    "exp": math.exp,
    "log": math.log,
    "sqrt": math.sqrt,
    "abs": abs,
    "ceil": math.ceil,
    "floor": math.floor,
}


@pytest.mark.parametrize("name", sorted(_UNARY))
def test_unary_functions(name):
    x = Variable("x")
    fn = getattr(sym, name)
    for arg in (x, Expression(x)):
        e = fn(arg)
        assert isinstance(e, Expression) and e.GetVariables().include(x)
        assert e.Evaluate({x: 0.375}) == pytest.approx(_UNARY[name](0.375), rel=1e-15)
    assert fn(0.375).Evaluate() == _UNARY[name](0.375)  # a float folds to a constant
    assert getattr(x, name)().EqualTo(fn(x))


def test_binary_functions_and_numpy_names():
    x, y = Variable("x"), Variable("y")
    env = {x: -0.5, y: 2.0}
    assert sym.atan2(x, y).Evaluate(env) == math.atan2(-0.5, 2.0)
    assert sym.pow(x, y).Evaluate(env) == 0.25
    assert sym.pow(y, 0.5).Evaluate(env) == math.sqrt(2.0)
    assert sym.min(x, y).Evaluate(env) == -0.5 and sym.max(x, y).Evaluate(env) == 2.0
    assert sym.arctan2 is sym.atan2 and sym.arcsin is sym.asin
    assert x.arctan2(y).EqualTo(sym.atan2(x, y))
    with pytest.raises(TypeError, match="sin: expected a float, Variable or Expression, got str"):
        sym.sin("x")


def test_matrix_evaluate_substitute_jacobian():
    x, y = Variable("x"), Variable("y")
    f = np.array([x * sym.cos(y), x * sym.sin(y), x * x], dtype=object)
    env = {x: 2.0, y: 0.5}
    values = Evaluate(f, env)
    assert values.shape == (3, 1) and values.dtype == np.float64  # a column, as pydrake's
    np.testing.assert_allclose(values[:, 0], [2 * math.cos(0.5), 2 * math.sin(0.5), 4.0])
    assert Evaluate(np.array([[x, 1.0]]), env).tolist() == [[2.0, 1.0]]
    with pytest.raises(RuntimeError, match="does not have an entry for the variable y"):
        Evaluate(f, {x: 1.0})
    # The Jacobian of the docstring example of pydrake.symbolic.Jacobian.
    J = Jacobian(f, [x, y])
    expected = [
        [math.cos(0.5), -2 * math.sin(0.5)],
        [math.sin(0.5), 2 * math.cos(0.5)],
        [4.0, 0.0],
    ]
    np.testing.assert_allclose(Evaluate(J, env), expected, rtol=1e-15)
    with pytest.raises(ValueError, match="Jacobian: vars must be non-empty"):
        Jacobian(f, [])
    S = Substitute(f, {x: 2.0})
    assert S.shape == (3, 1)
    np.testing.assert_allclose(Evaluate(S, {y: 0.5}), values)
    S = Substitute(f, y, 0.5 * Expression(x))
    np.testing.assert_allclose(
        Evaluate(S, {x: 2.0})[:, 0], [2 * math.cos(1.0), 2 * math.sin(1.0), 4.0]
    )


def test_variable_vectors_and_matrices():
    q = MakeVectorVariable(3, "q")
    assert q.shape == (3,) and q.dtype == object
    assert [v.get_name() for v in q] == ["q(0)", "q(1)", "q(2)"]
    M = MakeMatrixVariable(2, 3, "M")
    assert M.shape == (2, 3) and M[1, 2].get_name() == "M(1, 2)"
    assert len({v.get_id() for v in M.flat}) == 6


def test_sympy_round_trip():
    x, y = Variable("x"), Variable("y")
    e = x * sym.sin(y) + 2.5
    s = to_sympy(e)
    assert isinstance(s, sympy.Expr)
    X, Y = to_sympy(x), to_sympy(y)
    assert sympy.simplify(s - (X * sympy.sin(Y) + sympy.Rational(5, 2))) == 0
    back = from_sympy(sympy.diff(s, Y))
    assert back.EqualTo(x * sym.cos(y))
    assert to_sympy(1.5) == 1.5 and from_sympy(sympy.Integer(2)) == 2.0
    assert from_sympy(s > 0).Evaluate({x: 1.0, y: 0.0})
    memo = {}
    to_sympy(e, memo=memo)
    assert memo[x.get_id()] == X and memo[X] is x
    other = sympy.Symbol("w")
    with pytest.raises(NotImplementedError, match="The SymPy variable w is missing"):
        from_sympy(other + 1)
    assert from_sympy(other + 1, memo={other: x}).EqualTo(x + 1)


def test_import_without_sympy_names_the_extra():
    code = (
        "import sys; sys.modules['sympy'] = None\n"
        "try:\n"
        "    import mallard.symbolic\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "install the 'symbolic' extra" in out.stdout
