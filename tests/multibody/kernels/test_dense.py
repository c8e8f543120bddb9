"""kernels.dense: skipping the zeros of block-banded matrices (SAP's Hessians) changes no bit,
and the factor solves the restricted system."""

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


def test_skipping_zeros_is_bit_equal_and_solves():
    rng = np.random.default_rng(4)
    factor, solve = compiled(dense.cholesky_factor), compiled(dense.cholesky_solve)
    for _ in range(10):
        M = _banded(rng)
        n = M.shape[0]
        free = np.ones(n)  # (the types test_numba_internals compiles cholesky_factor for)
        free[rng.integers(0, n)] = 0.0
        L_dense, L_skip = np.zeros((n, n)), np.zeros((n, n))
        assert factor(M, free, L_dense, False) and factor(M, free, L_skip, True)
        np.testing.assert_array_equal(np.tril(L_skip), np.tril(L_dense))
        B = rng.normal(size=(n, 2))
        x_dense, x_skip = B.copy(), B.copy()
        solve(L_dense, free, x_dense, 1.0, False)
        solve(L_skip, free, x_skip, 1.0, True)
        np.testing.assert_array_equal(x_skip, x_dense)
        kept = free != 0
        expected = np.linalg.solve(M[np.ix_(kept, kept)], B[kept])
        np.testing.assert_allclose(x_skip[kept], expected, rtol=1e-10, atol=1e-12)
        assert not x_skip[~kept].any()
