"""The mixed linear complementarity problem of the discrete step's constraint projection,
solved by principal pivoting on the dense Cholesky kernels of ``kernels.dense``.

In place on arrays the caller passes (no allocation), for the small systems of one step: m =
the constraint rows (joint limits, couplers).
"""

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.dense import cholesky_factor, cholesky_solve


@jitable
def solve_mixed_lcp(W, r, equality, lam, active, S, L, X):
    """λ (into ``lam``) with w = W·λ + r, w = 0 on the ``equality`` rows (λ free there) and
    0 ≤ λ ⊥ w ≥ 0 on the others, for W (m×m) symmetric positive semidefinite: Murty's
    least-index principal pivoting (finite for positive definite W) with the equality rows
    always active; at each pivot, λ solves the active rows with the inactive λ at zero. A
    regularization of 1e-12 of W's largest diagonal entry keeps redundant active rows (a
    coupler and both its joints' limits) solvable. ``active`` (int, m), ``S`` and ``L``
    (m×m) and ``X`` (m×1) are scratch. Returns True when the pivoting converged (``lam`` is
    then the solution), False after 10·m + 50 pivots or on a breakdown of the factor."""
    m = r.shape[0]
    scale = 1e-300
    r_max = 1.0
    for i in range(m):
        scale = max(scale, abs(W[i, i]))
        r_max = max(r_max, abs(r[i]))
    tol = 1e-13 * r_max
    for i in range(m):
        for j in range(m):
            S[i, j] = W[i, j]
        S[i, i] += 1e-12 * scale
        active[i] = 1 if equality[i] or r[i] < 0.0 else 0
    for _ in range(10 * m + 50):
        if not cholesky_factor(S, active, L):
            return False
        for i in range(m):
            X[i, 0] = r[i]
        cholesky_solve(L, active, X, -1.0)
        for i in range(m):
            lam[i] = X[i, 0]
        blocking = -1
        for i in range(m):
            if equality[i]:
                continue
            w = r[i]
            for j in range(m):
                w += W[i, j] * lam[j]
            if (active[i] != 0 and lam[i] < -tol) or (active[i] == 0 and w < -tol):
                blocking = i
                break
        if blocking < 0:
            return True
        active[blocking] = 1 - active[blocking]
    return False
