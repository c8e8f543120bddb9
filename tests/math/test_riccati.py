"""Riccati and Lyapunov equations: the solutions satisfy their equations (residuals) and
stabilize, on random well-posed problems; the errors for ill-posed ones."""

import numpy as np
import pytest

from mallard.math import (
    ContinuousAlgebraicRiccatiEquation,
    DiscreteAlgebraicRiccatiEquation,
    RealContinuousLyapunovEquation,
    RealDiscreteLyapunovEquation,
)


def problem(seed):
    rng = np.random.default_rng(seed)
    n, m = 1 + seed % 6, 1 + seed % 3
    Q0, R0 = rng.normal(size=(n, n)), rng.normal(size=(m, m))
    A, B = rng.normal(size=(n, n)), rng.normal(size=(n, m))
    return A, B, Q0 @ Q0.T + 0.1 * np.eye(n), R0 @ R0.T + 0.5 * np.eye(m), rng


@pytest.mark.parametrize("seed", range(20))
def test_care_residual_and_stability(seed):
    A, B, Q, R, _ = problem(seed)
    X = ContinuousAlgebraicRiccatiEquation(A, B, Q, R)
    G = B @ np.linalg.solve(R, B.T)
    residual = A.T @ X + X @ A - X @ G @ X + Q
    assert np.abs(residual).max() <= 1e-9 * max(1.0, np.abs(X).max())
    np.testing.assert_array_equal(X, X.T)
    assert np.linalg.eigvals(A - G @ X).real.max() < 0


@pytest.mark.parametrize("seed", range(20))
def test_dare_residual_and_stability(seed):
    A, B, Q, R, rng = problem(seed)
    N = 0.05 * rng.normal(size=B.shape)
    for cross in (None, N):
        X = DiscreteAlgebraicRiccatiEquation(A, B, Q, R, cross)
        Nc = np.zeros(B.shape) if cross is None else cross
        K = np.linalg.solve(R + B.T @ X @ B, B.T @ X @ A + Nc.T)
        residual = A.T @ X @ A - X - (A.T @ X @ B + Nc) @ K + Q
        assert np.abs(residual).max() <= 1e-9 * max(1.0, np.abs(X).max())
        assert np.abs(np.linalg.eigvals(A - B @ K)).max() < 1


@pytest.mark.parametrize("seed", range(10))
def test_lyapunov_residuals(seed):
    A, _, Q, _, _ = problem(seed)
    X = RealContinuousLyapunovEquation(A, Q)
    np.testing.assert_allclose(A.T @ X + X @ A + Q, 0, atol=1e-10 * max(1, np.abs(X).max()))
    X = RealDiscreteLyapunovEquation(A, Q)
    np.testing.assert_allclose(A.T @ X @ A - X + Q, 0, atol=1e-10 * max(1, np.abs(X).max()))


def test_errors():
    A, B, Q, R = np.eye(2), np.ones((2, 1)), np.eye(2), np.eye(1)
    with pytest.raises(RuntimeError, match="R must be positive definite"):
        ContinuousAlgebraicRiccatiEquation(A, B, Q, -R)
    with pytest.raises(RuntimeError, match="R must be positive definite"):
        DiscreteAlgebraicRiccatiEquation(A, B, Q, 0 * R)
    with pytest.raises(RuntimeError, match="Q must be symmetric"):
        ContinuousAlgebraicRiccatiEquation(A, B, [[1.0, 1.0], [0.0, 1.0]], R)
    with pytest.raises(RuntimeError, match="B must have 2 rows"):
        ContinuousAlgebraicRiccatiEquation(A, np.ones((3, 1)), Q, R)
    with pytest.raises(RuntimeError, match="A must be a square matrix"):
        ContinuousAlgebraicRiccatiEquation(np.ones((2, 3)), B, Q, R)
    # An unstable mode the input cannot reach: no stabilizing solution.
    with pytest.raises(RuntimeError, match="no stabilizing solution"):
        ContinuousAlgebraicRiccatiEquation(np.diag([1.0, -1.0]), [[0.0], [1.0]], Q, R)
    with pytest.raises(RuntimeError, match="no stabilizing solution"):
        DiscreteAlgebraicRiccatiEquation(np.diag([2.0, 0.5]), [[0.0], [1.0]], Q, R)
    with pytest.raises(RuntimeError, match="N must be a 2x1 matrix"):
        DiscreteAlgebraicRiccatiEquation(A, B, Q, R, np.ones((1, 2)))
    with pytest.raises(RuntimeError, match="not unique"):
        RealContinuousLyapunovEquation(np.diag([1.0, -1.0]), np.eye(2))
    with pytest.raises(RuntimeError, match="not unique"):
        RealDiscreteLyapunovEquation(np.diag([1.0, 0.5]), np.eye(2))
