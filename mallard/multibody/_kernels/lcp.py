"""The discrete step's constraint projection: the constraints' residuals, the mixed linear
complementarity problem solved by principal pivoting on the dense Cholesky kernels of
``kernels.dense``, and the projected velocities.

In place on arrays the caller passes (no allocation), for the small systems of one step: m =
the constraint rows (joint limits, couplers).
"""

from mallard._compiled import entry_point
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


@entry_point
@jitable
def constraint_residuals(J, G, i0, i1, q, h, v, r):
    """r = J·v − b for the constraint rows J·v⁺ ≥ b (limits) or = b (couplers) of a step of
    length h, with b = −g(q)/h and g = G[0]·q[i0] + G[1]·q[i1] + G[2] row by row. Returns
    whether some row has r < 0 (a limit the free motion would cross)."""
    violated = False
    for i in range(r.shape[0]):
        s = (G[0, i] * q[i0[i]] + G[1, i] * q[i1[i]] + G[2, i]) / h
        for j in range(v.shape[0]):
            s += J[i, j] * v[j]
        r[i] = s
        if s < 0.0:
            violated = True
    return violated


@entry_point
@jitable
def project_velocities(A, J, r, equality, free, v, Y, L, W, lam, active, S, L_S, X, v_out):
    """v_out = v + Y·λ: ``v`` projected onto the constraints in the metric A (n×n, symmetric
    positive definite on the ``free`` unknowns; the others stay as in v), with Y = A⁻¹Jᵀ and λ
    the mixed LCP's solution (:func:`solve_mixed_lcp` with W = J·Y and residuals r). Y (n×m),
    L (n×n), W, S, L_S (m×m), lam, X (m, m×1) and active (int, m) are scratch. Returns 0, or 1
    if A is not positive definite, or 2 if the pivoting did not converge (v_out is then the
    last pivot's projection)."""
    n, m = v.shape[0], r.shape[0]
    if not cholesky_factor(A, free, L):
        return 1
    for i in range(n):
        for c in range(m):
            Y[i, c] = J[c, i]
    cholesky_solve(L, free, Y, 1.0)
    for a in range(m):  # W = J·Y, row by row (a vector loop over W's columns)
        for b in range(m):
            W[a, b] = 0.0
        for i in range(n):
            J_ai = J[a, i]
            for b in range(m):
                W[a, b] += J_ai * Y[i, b]
    converged = solve_mixed_lcp(W, r, equality, lam, active, S, L_S, X)
    for i in range(n):
        s = v[i]
        for c in range(m):
            s += Y[i, c] * lam[c]
        v_out[i] = s
    return 0 if converged else 2
