"""kernels.dense: the Cholesky factor of a matrix restricted to its free dofs solves the
restricted system and leaves the others zero."""

import numpy as np

from mallard._compiled import compiled
from mallard.multibody._kernels import dense


def _banded(rng, n=36, block=6):
    """A symmetric positive definite matrix of blocks on the diagonal, some coupled to the
    next."""
    M = np.zeros((n, n))
    for s in range(0, n, block):
        X = rng.normal(size=(block, block))
        M[s : s + block, s : s + block] = X @ X.T + block * np.eye(block)
    for s in range(0, n - block, block):
        if rng.random() < 0.5:
            C = 0.1 * rng.normal(size=(block, block))
            M[s + block : s + 2 * block, s : s + block] = C
            M[s : s + block, s + block : s + 2 * block] = C.T
    return M


def test_cholesky_solves_on_the_free_dofs():
    rng = np.random.default_rng(4)
    factor, solve = compiled(dense.cholesky_factor), compiled(dense.cholesky_solve)
    for _ in range(10):
        M = _banded(rng)
        n = M.shape[0]
        free = np.ones(n)  # (the types test_numba_internals compiles cholesky_factor for)
        free[rng.integers(0, n)] = 0.0
        L = np.zeros((n, n))
        assert factor(M, free, L)
        kept = free != 0
        np.testing.assert_allclose(
            (L @ L.T)[np.ix_(kept, kept)], M[np.ix_(kept, kept)], rtol=1e-12, atol=1e-12
        )
        B = rng.normal(size=(n, 2))
        x = B.copy()
        solve(L, free, x, 1.0)
        expected = np.linalg.solve(M[np.ix_(kept, kept)], B[kept])
        np.testing.assert_allclose(x[kept], expected, rtol=1e-10, atol=1e-12)
        assert not x[~kept].any()
