"""Formula: comparisons of expressions, evaluation, truth value, logical connectives and
if_then_else."""

import pytest

pytest.importorskip("sympy")

from mallard.symbolic import (  # noqa: E402
    Expression,
    Formula,
    Variable,
    Variables,
    if_then_else,
    logical_and,
    logical_not,
    logical_or,
)


@pytest.fixture
def xy():
    return Variable("x"), Variable("y")


def test_comparisons_build_formulas(xy):
    x, y = xy
    cases = [
        (x < y, "(x < y)", False),
        (x <= y, "(x <= y)", False),
        (x > y, "(x > y)", True),
        (x >= y, "(x >= y)", True),
        (x == y, "(x == y)", False),
        (x != y, "(x != y)", True),
        (Expression(x) > 1.0, "(x > 1)", True),
        (2.0 > Expression(x), "(x < 2)", False),
    ]
    for f, text, value in cases:
        assert isinstance(f, Formula)
        assert str(f) == text
        assert f.Evaluate({x: 2.0, y: 1.0}) is value
    assert repr(x > y) == '<Formula "(x > y)">'


def test_constants_and_free_variables(xy):
    x, y = xy
    assert str(Formula.True_()) == "True" and str(Formula.False_()) == "False"
    assert Formula(True).EqualTo(Formula.True_())
    assert (x == x).EqualTo(Formula.True_())
    assert (Expression(1.0) < 2.0).EqualTo(Formula.True_())
    assert (x > y).GetFreeVariables().EqualTo(Variables([x, y]))
    assert (x > y).Substitute(y, 0.0).EqualTo(x > 0.0)
    assert (x > y) == (x > y)  # structural equality of formulas is a bool
    with pytest.raises(TypeError, match="Formula: expected a bool, got float"):
        Formula(1.0)


def test_truth_value_of_a_symbolic_formula_is_an_error(xy):
    x, y = xy
    assert bool(Expression(3.0) > 2.0) is True
    assert bool(Formula.False_()) is False
    with pytest.raises(RuntimeError, match=r"Formula \(x > y\) depends on the variables \{x, y\}"):
        bool(x > y)
    with pytest.raises(RuntimeError, match="does not have an entry for the variable y"):
        (x > y).Evaluate({x: 1.0})


def test_logical_connectives(xy):
    x, y = xy
    both = logical_and(x > y, y > 1.0)
    either = logical_or(x > y, y > 1.0)
    assert str(both) == "((x > y) and (y > 1))"
    assert str(either) == "((x > y) or (y > 1))"
    assert both.Evaluate({x: 3.0, y: 2.0}) and not both.Evaluate({x: 3.0, y: 0.0})
    assert either.Evaluate({x: 3.0, y: 0.0}) and not either.Evaluate({x: 0.0, y: 0.5})
    assert logical_not(x > y).Evaluate({x: 0.0, y: 1.0})
    with pytest.raises(TypeError, match="logical_and: expected Formulas, got bool"):
        logical_and(x > y, True)


def test_if_then_else(xy):
    x, y = xy
    e = if_then_else(x > y, x - y, y - x)  # |x - y|
    assert str(e) == "(if (x > y) then (x - y) else ( - x + y))"
    assert e.Evaluate({x: 3.0, y: 1.0}) == 2.0
    assert e.Evaluate({x: 1.0, y: 3.0}) == 2.0
    # A constant condition selects its branch at once.
    assert if_then_else(Expression(1.0) > 0.0, x, y).EqualTo(Expression(x))
    with pytest.raises(TypeError, match="if_then_else: expected a Formula, got bool"):
        if_then_else(True, x, y)
