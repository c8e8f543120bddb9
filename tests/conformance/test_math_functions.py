"""pydrake.math's functions beyond rotations against pydrake's: the Riccati and Lyapunov
solvers on well-conditioned problems (1e-10 relative; the two libraries' algorithms differ,
so ill-conditioned problems agree only to their condition number)."""

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.math as pm  # noqa: E402

import mallard.math as mm  # noqa: E402


def problem(seed):
    rng = np.random.default_rng(100 + seed)
    n, m = 1 + seed % 5, 1 + seed % 2
    Q0, R0 = rng.normal(size=(n, n)), rng.normal(size=(m, m))
    A = 0.5 * rng.normal(size=(n, n))
    return A, rng.normal(size=(n, m)), Q0 @ Q0.T + np.eye(n), R0 @ R0.T + np.eye(m), rng


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(b).max()))


@pytest.mark.parametrize("seed", range(10))
def test_riccati_and_lyapunov(seed):
    A, B, Q, R, rng = problem(seed)
    N = 0.1 * rng.normal(size=B.shape)
    for name, args in [
        ("ContinuousAlgebraicRiccatiEquation", (A, B, Q, R)),
        ("DiscreteAlgebraicRiccatiEquation", (A, B, Q, R)),
        ("DiscreteAlgebraicRiccatiEquation", (A, B, Q, R, N)),
        ("RealContinuousLyapunovEquation", (A - 3 * np.eye(len(A)), Q)),
        ("RealDiscreteLyapunovEquation", (A, Q)),
    ]:
        close(getattr(mm, name)(*args), getattr(pm, name)(*args))
