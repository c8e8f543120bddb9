"""PiecewisePolynomial: the hold and cubic Hermite constructions, evaluation (clamped to the
time range, pydrake's segment choice at breaks), derivatives and errors."""

import numpy as np
import pytest

from mallard.trajectories import PiecewisePolynomial, Trajectory


@pytest.fixture
def first_order():
    return PiecewisePolynomial.FirstOrderHold(
        [0.0, 1.0, 3.0], np.array([[0.0, 1.0, 5.0], [2.0, 3.0, 3.0]])
    )


def test_queries(first_order):
    assert isinstance(first_order, Trajectory)
    assert (first_order.rows(), first_order.cols()) == (2, 1)
    assert (first_order.start_time(), first_order.end_time(), first_order.duration()) == (0, 3, 3)
    assert first_order.get_number_of_segments() == 2
    assert first_order.get_segment_times() == [0.0, 1.0, 3.0]
    assert [first_order.get_segment_index(t) for t in (-1, 0, 0.5, 1, 2, 3, 4)] == [
        0,
        0,
        0,
        1,
        1,
        1,
        1,
    ]
    assert first_order.is_time_in_range(2.0) and not first_order.is_time_in_range(3.5)


def test_first_order_hold(first_order):
    # Values and slopes as pydrake's (clamped outside the range).
    expected = {
        -1: ([0, 2], [1, 1]),
        0: ([0, 2], [1, 1]),
        0.5: ([0.5, 2.5], [1, 1]),
        1: ([1, 3], [2, 0]),
        2: ([3, 3], [2, 0]),
        3: ([5, 3], [2, 0]),
        4: ([5, 3], [2, 0]),
    }
    derivative = first_order.derivative(1)
    for t, (value, slope) in expected.items():
        np.testing.assert_allclose(first_order.value(t)[:, 0], value)
        np.testing.assert_allclose(first_order.EvalDerivative(t, 1)[:, 0], slope)
        np.testing.assert_allclose(derivative.value(t)[:, 0], slope)
    np.testing.assert_allclose(first_order.EvalDerivative(0.5, 2), np.zeros((2, 1)))
    np.testing.assert_allclose(first_order.vector_values([0.0, 0.5]), [[0, 0.5], [2, 2.5]])


def test_zero_order_hold_never_outputs_its_last_sample():
    hold = PiecewisePolynomial.ZeroOrderHold([0.0, 1.0, 3.0], np.array([[0.0, 1.0, 5.0]]))
    values = [hold.value(t)[0, 0] for t in (-1, 0, 0.5, 1, 2, 3, 4)]
    assert values == [0, 0, 0, 1, 1, 1, 1]
    assert hold.EvalDerivative(0.5)[0, 0] == 0


def test_samples_forms():
    # A list of vectors is a matrix whose columns are the samples (as pydrake converts it).
    columns = PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [np.array([1.0, 2.0]), [3.0, 4.0]])
    np.testing.assert_allclose(columns.value(0.5), [[1.5], [3.5]])
    matrices = PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [np.eye(2), 2 * np.eye(2)])
    assert (matrices.rows(), matrices.cols()) == (2, 2)
    np.testing.assert_allclose(matrices.value(0.5), 1.5 * np.eye(2))
    constant = PiecewisePolynomial(np.array([1.0, 2.0]))
    np.testing.assert_allclose(constant.value(123.0), [[1.0], [2.0]])


def test_cubic_hermite():
    cubic = PiecewisePolynomial.CubicHermite([0.0, 2.0], [[0.0, 1.0]], [[1.0, 0.0]])
    assert cubic.value(0.0)[0, 0] == 0 and cubic.value(2.0)[0, 0] == pytest.approx(1.0)
    assert cubic.EvalDerivative(0.0)[0, 0] == pytest.approx(1.0)
    assert cubic.EvalDerivative(2.0)[0, 0] == pytest.approx(0.0, abs=1e-15)
    assert cubic.value(1.0)[0, 0] == pytest.approx(0.75)
    assert cubic.getSegmentPolynomialDegree(0) == 3
    third = cubic.derivative(3)
    assert third.value(1.0)[0, 0] == pytest.approx(6 * cubic._coefficients[0, 3, 0, 0])


def test_errors():
    with pytest.raises(RuntimeError, match="^Times must be in increasing order.$"):
        PiecewisePolynomial.FirstOrderHold([0.0, 0.0], np.array([[0.0, 1.0]]))
    with pytest.raises(
        RuntimeError, match="^Number of break points 2 does not match number of samples 3.$"
    ):
        PiecewisePolynomial.FirstOrderHold([0.0, 1.0], np.array([[0.0, 1.0, 2.0]]))
    with pytest.raises(RuntimeError, match="^1 samples is not enough samples"):
        PiecewisePolynomial.FirstOrderHold([0.0], np.array([[0.0]]))
    with pytest.raises(RuntimeError, match="the trajectory is empty"):
        PiecewisePolynomial().value(0.0)


def test_clone(first_order):
    clone = first_order.Clone()
    clone._coefficients[:] = 0
    assert first_order.value(0.5)[0, 0] == 0.5
