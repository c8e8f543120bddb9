"""Random Variables (RANDOM_UNIFORM, RANDOM_GAUSSIAN, RANDOM_EXPONENTIAL): their types and ids,
and their sampling by Expression.Evaluate and Evaluate with a RandomGenerator: each drawn once
per call, in id order (type first, then creation), from the libstdc++ draws of the generator."""

import pickle

import numpy as np
import pytest

pytest.importorskip("sympy")

from mallard.common import RandomGenerator  # noqa: E402
from mallard.common._random import exponential, gaussian, uniform  # noqa: E402
from mallard.symbolic import Evaluate, Expression, Variable, Variables, sin  # noqa: E402

T = Variable.Type


def test_types_names_and_ids():
    x = Variable("x")
    u = Variable("u", T.RANDOM_UNIFORM)
    n = Variable("n", T.RANDOM_GAUSSIAN)
    e = Variable("e", T.RANDOM_EXPONENTIAL)
    assert [v.get_type() for v in (x, u, n, e)] == [
        T.CONTINUOUS,
        T.RANDOM_UNIFORM,
        T.RANDOM_GAUSSIAN,
        T.RANDOM_EXPONENTIAL,
    ]
    assert repr(u) == "Variable('u', Random Uniform)"
    assert repr(n) == "Variable('n', Random Gaussian)"
    assert repr(e) == "Variable('e', Random Exponential)"
    # As pydrake's ids: the type in the top 8 bits, then the creation counter.
    assert [v.get_id() >> 56 for v in (x, u, n, e)] == [0, 4, 5, 6]
    early = Variable("early", T.RANDOM_GAUSSIAN)
    late = Variable("late", T.RANDOM_UNIFORM)
    assert early.get_id() > late.get_id()  # Gaussian sorts after uniform
    assert [v.get_name() for v in Variables([early, late, x])] == ["x", "late", "early"]


def test_random_variable_survives_pickling():
    u = Variable("u", T.RANDOM_EXPONENTIAL)
    again = pickle.loads(pickle.dumps(u))
    assert again.EqualTo(u) and again.get_type() == T.RANDOM_EXPONENTIAL


@pytest.mark.parametrize("type_", [T.INTEGER, T.BINARY, T.BOOLEAN])
def test_unsupported_types_raise(type_):
    with pytest.raises(NotImplementedError, match=f"Variable 'b': type {type_.name} is not"):
        Variable("b", type_)


def test_bad_type_raises_type_error():
    with pytest.raises(TypeError, match="expected a Variable.Type"):
        Variable("b", 4)


@pytest.mark.parametrize(
    "type_, draw",
    [
        (T.RANDOM_UNIFORM, uniform),
        (T.RANDOM_GAUSSIAN, gaussian),
        (T.RANDOM_EXPONENTIAL, exponential),
    ],
)
def test_evaluate_draws_from_the_generator(type_, draw):
    v = Expression(Variable("v", type_))
    g, reference = RandomGenerator(17), RandomGenerator(17)
    for _ in range(5):
        assert v.Evaluate(generator=g) == draw(reference)
    assert v.Evaluate(g) == draw(reference)  # the Evaluate(generator) overload
    assert v.Evaluate({}, g) == draw(reference)


def test_without_generator_a_random_variable_is_missing():
    u = Variable("u", T.RANDOM_UNIFORM)
    message = "The following environment does not have an entry for the variable u"
    with pytest.raises(RuntimeError, match=message):
        Expression(u).Evaluate()
    with pytest.raises(RuntimeError, match=message):
        Evaluate(np.array([u + 1.0]), {})


def test_continuous_variables_still_come_from_env():
    x, u = Variable("x"), Variable("u", T.RANDOM_UNIFORM)
    g, reference = RandomGenerator(3), RandomGenerator(3)
    assert (x + u).Evaluate({x: 2.0}, g) == 2.0 + uniform(reference)
    with pytest.raises(RuntimeError, match="does not have an entry for the variable x"):
        (x + u).Evaluate({}, g)


def test_assigned_random_variables_are_not_drawn():
    u, w = Variable("u", T.RANDOM_UNIFORM), Variable("w", T.RANDOM_UNIFORM)
    g, reference = RandomGenerator(8), RandomGenerator(8)
    assert (u + w).Evaluate({u: 10.0}, g) == 10.0 + uniform(reference)
    assert g() == reference()


def test_each_variable_is_drawn_once_per_call_in_id_order():
    n = Variable("n", T.RANDOM_GAUSSIAN)  # created first, drawn after the uniforms
    u1 = Variable("u1", T.RANDOM_UNIFORM)
    u2 = Variable("u2", T.RANDOM_UNIFORM)
    g, reference = RandomGenerator(99), RandomGenerator(99)
    m = np.array([[n, u2, u1], [2.0 * u1, u1 * u2, n + 1.0]])
    values = Evaluate(m, {}, g)
    U1, U2, N = uniform(reference), uniform(reference), gaussian(reference)
    np.testing.assert_array_equal(values[0], [N, U2, U1])
    np.testing.assert_allclose(values[1], [2.0 * U1, U1 * U2, N + 1.0], rtol=1e-15)
    assert g() == reference()  # nothing else was drawn
    # A scalar Evaluate draws its own variables (in id order) for each call.
    e = Expression(u1) - 3.0 * n
    assert e.Evaluate(g) == pytest.approx(uniform(reference) - 3.0 * gaussian(reference), 1e-15)


def test_generator_must_be_a_random_generator():
    u = Variable("u", T.RANDOM_UNIFORM)
    with pytest.raises(TypeError, match="Evaluate: expected a RandomGenerator, got int"):
        Expression(u).Evaluate({}, 3)


@pytest.mark.slow
def test_moments_of_expressions_of_random_variables():
    n = Variable("n", T.RANDOM_GAUSSIAN)
    u = Variable("u", T.RANDOM_UNIFORM)
    e = Variable("e", T.RANDOM_EXPONENTIAL)
    # 1 + 2n ~ N(1, 4); -π + 2πu ~ U[-π, π); sin of it has mean 0 and variance 1/2; 3e has
    # mean 3 and variance 9.
    m = np.array([1.0 + 2.0 * n, sin(-np.pi + 2 * np.pi * u), 3.0 * e])
    g = RandomGenerator(1)
    samples = np.array([Evaluate(m, generator=g).reshape(-1) for _ in range(4000)])
    np.testing.assert_allclose(samples.mean(axis=0), [1.0, 0.0, 3.0], atol=0.15)
    np.testing.assert_allclose(samples.var(axis=0), [4.0, 0.5, 9.0], rtol=0.12)
    assert np.all(samples[:, 2] >= 0) and np.all(np.abs(samples[:, 1]) <= 1)
