"""Variable, Variables and Expression: arithmetic, evaluation, substitution and calculus,
checked against closed forms and sympy."""

import math
import pickle

import numpy as np
import pytest

sympy = pytest.importorskip("sympy")

from mallard.symbolic import (  # noqa: E402
    Expression,
    Formula,
    Variable,
    Variables,
    cos,
    exp,
    sin,
    sqrt,
    to_sympy,
)


@pytest.fixture
def xyz():
    return Variable("x"), Variable("y"), Variable("z")


def test_variable_identity_and_naming():
    x, x_again = Variable("x"), Variable("x")
    assert x.get_name() == "x" and str(x) == "x"
    assert repr(x) == "Variable('x', Continuous)"
    assert x.get_id() != x_again.get_id()
    assert x.EqualTo(x) and not x.EqualTo(x_again)
    assert x.get_type() == Variable.Type.CONTINUOUS
    # == builds a Formula, as in pydrake.
    assert isinstance(x == x_again, Formula)
    assert {x: 1.0}[x] == 1.0
    # A variable survives pickling as the same variable.
    assert pickle.loads(pickle.dumps(x)) is x


def test_unsupported_variable_type_is_named():
    with pytest.raises(NotImplementedError, match="Variable 'b': type BINARY"):
        Variable("b", Variable.Type.BINARY)
    with pytest.raises(TypeError, match="Variable: expected a str name, got float"):
        Variable(1.0)


def test_variables_set(xyz):
    x, y, z = xyz
    vs = Variables([y, x])
    assert vs.size() == len(vs) == 2 and not vs.empty()
    assert [v.get_name() for v in vs] == ["x", "y"]  # in order of creation
    assert x in vs and z not in vs and vs.include(y)
    vs.insert(z)
    assert vs.IsSupersetOf(Variables([x, z])) and vs.IsStrictSupersetOf(Variables([x]))
    assert Variables([x]).IsSubsetOf(vs) and Variables([x]).IsStrictSubsetOf(vs)
    assert vs.erase(y) == 1 and y not in vs
    assert vs.EqualTo(Variables([z, x]))
    assert str(vs) == "{x, z}" and repr(vs) == '<Variables "{x, z}">'
    assert Variables().empty()
    with pytest.raises(TypeError, match="Variables.insert: expected a Variable, got float"):
        vs.insert(1.0)


def test_constructors_and_constant_evaluation(xyz):
    x, _, _ = xyz
    assert Expression().Evaluate() == 0.0
    assert Expression(2.5).Evaluate() == 2.5
    assert isinstance(Expression(3).Evaluate(), float)
    assert Expression(x).EqualTo(Expression(x))
    assert Expression(0.1).Evaluate() == 0.1  # doubles enter exactly
    with pytest.raises(TypeError, match="Expression: expected a float, Variable or Expression"):
        Expression("x")


def test_arithmetic_matches_sympy(xyz):
    x, y, z = xyz
    e = (x + 2 * y) * z - x / y + (x - 1) ** 2 - (-y)
    X, Y, Z = (to_sympy(v) for v in xyz)
    expected = (X + 2 * Y) * Z - X / Y + (X - 1) ** 2 + Y
    assert sympy.simplify(to_sympy(e) - expected) == 0
    env = {x: 1.5, y: -0.5, z: 2.0}
    value = (1.5 - 1.0) * 2.0 - 1.5 / -0.5 + 0.25 - 0.5
    assert e.Evaluate(env) == pytest.approx(value, rel=1e-15)
    assert (3.0 - x).Evaluate({x: 1.0}) == 2.0
    assert (3.0 / Expression(x)).Evaluate({x: 4.0}) == 0.75
    assert (x**y).Evaluate({x: 2.0, y: 3.0}) == 8.0


def test_constant_folding_is_cheap_and_in_doubles(xyz):
    x, _, _ = xyz
    assert (Expression(0) * x).EqualTo(Expression(0))
    assert (x * 0.0).EqualTo(Expression(0))
    assert (x * 1.0).EqualTo(Expression(x)) and (x + 0.0).EqualTo(Expression(x))
    assert (x - x).EqualTo(Expression(0))
    # Constants are folded as doubles, as Drake folds them.
    assert (Expression(0.1) + 0.2).Evaluate() == 0.1 + 0.2
    assert sin(Expression(0.5)).Evaluate() == math.sin(0.5)
    assert sqrt(2.0).Evaluate() == math.sqrt(2.0)
    assert (Expression(1.0) / 0.0).Evaluate() == math.inf


def test_domain_error_of_a_constant_is_named():
    with pytest.raises(ValueError, match=r"sqrt\(-1\) : numerical argument out of domain"):
        sqrt(Expression(-1.0))


def test_evaluate_names_the_missing_variable(xyz):
    x, y, _ = xyz
    with pytest.raises(RuntimeError, match="does not have an entry for the variable y"):
        (x + y).Evaluate({x: 1.0})
    with pytest.raises(RuntimeError, match="does not have an entry for the variable x"):
        (x + y).Evaluate()
    with pytest.raises(TypeError, match="environment: expected Variable keys, got str"):
        (x + y).Evaluate({"x": 1.0})
    assert (x + y).EvaluatePartial({x: 2.0}).EqualTo(2.0 + Expression(y))


def test_evaluate_nan_raises():
    with pytest.raises(RuntimeError, match="NaN is detected"):
        Expression(float("nan")).Evaluate()


def test_substitute_expand_differentiate(xyz):
    x, y, z = xyz
    e = x * y + sin(z)
    assert e.Substitute(x, y + 1).EqualTo((y + 1) * y + sin(z))
    s = e.Substitute({x: 2.0, z: Expression(y)})
    assert s.Evaluate({y: 0.5}) == pytest.approx(1.0 + math.sin(0.5))
    with pytest.raises(TypeError, match="Substitute: expected Variable keys, got str"):
        e.Substitute({"x": 1.0})
    expanded = ((x + y) ** 2).Expand()
    assert expanded.EqualTo(x**2 + 2 * x * y + y**2)
    assert e.Differentiate(z).EqualTo(cos(z))
    assert exp(2 * x).Differentiate(x).EqualTo(2 * exp(2 * x))
    J = (x * y * z).Jacobian([x, y, z])
    assert J.shape == (3,)
    assert J[0].EqualTo(y * z) and J[1].EqualTo(x * z) and J[2].EqualTo(x * y)
    with pytest.raises(TypeError, match="Differentiate: expected a Variable, got float"):
        e.Differentiate(1.0)


def test_get_variables_and_predicates(xyz):
    x, y, z = xyz
    e = x * y + 3.0
    vs = e.GetVariables()
    assert isinstance(vs, Variables) and vs.EqualTo(Variables([x, y]))
    assert list(vs)[0] is x  # the very Variable objects
    assert (x**2 * y + 1).is_polynomial() and not sin(x).is_polynomial()
    assert not (x ** Expression(y)).is_polynomial()
    with pytest.raises(TypeError, match="unhashable"):
        hash(Expression(x))


def test_math_methods_numpy_calls(xyz):
    x, y, _ = xyz
    a = np.array([Expression(x), Expression(y)], dtype=object)
    env = {x: 0.3, y: 0.7}

    def values(arr):
        return np.array([e.Evaluate(env) for e in arr])

    v = np.array([0.3, 0.7])
    for ufunc in (np.sin, np.cos, np.tan, np.arcsin, np.arccos, np.arctan, np.sinh, np.cosh):
        np.testing.assert_allclose(values(ufunc(a)), ufunc(v), rtol=1e-15)
    for ufunc in (np.tanh, np.exp, np.log, np.sqrt, np.abs, np.floor, np.ceil, np.square):
        np.testing.assert_allclose(values(ufunc(a)), ufunc(v), rtol=1e-15)
    np.testing.assert_allclose(values(np.arctan2(a, a[::-1])), np.arctan2(v, v[::-1]))
    np.testing.assert_allclose(values(np.power(a, 3)), v**3, rtol=1e-15)
    assert np.dot(a, a).Evaluate(env) == pytest.approx(0.58)
    M = np.array([[x, 1.0], [2.0, y]], dtype=object)
    np.testing.assert_allclose(values(M @ a), [0.09 + 0.7, 0.6 + 0.49], rtol=1e-15)
    assert (np.float64(2.0) * x).EqualTo(2 * Expression(x))
    assert x.min(y).Evaluate(env) == 0.3 and x.max(y).Evaluate(env) == 0.7
    assert x.pow(2.0).EqualTo(x * x)


def test_string_forms(xyz):
    x, y, z = xyz
    assert str(x + y**2) == "(x + pow(y, 2))"
    assert repr(x + y**2) == '<Expression "(x + pow(y, 2))">'
    assert (x * y + 3 * sin(z)).to_string() == "((x * y) + 3 * sin(z))"
    assert str(Expression(0.1) * x) == "(0.10000000000000001 * x)"
