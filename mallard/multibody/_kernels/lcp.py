"""Dense kernels of the discrete step's constraint projection: a Cholesky solve with many
right-hand sides, and a mixed linear complementarity problem solved by principal pivoting.

Both work in place on arrays the caller passes (no allocation), for the small systems of one
step: n = nv unknowns, m = the constraint rows (joint limits, couplers).
"""

from mallard.multibody._kernels._machinery import jitable


@jitable
def cholesky(A, k, L):
    """L[:k, :k] ← the lower Cholesky factor of A[:k, :k] (symmetric positive definite; a
    non-positive pivot, from round-off on a semidefinite A, is replaced by the tiniest positive
    one so that the factor stays finite)."""
    for j in range(k):
        d = A[j, j]
        for p in range(j):
            d -= L[j, p] * L[j, p]
        if not d > 1e-300:
            d = 1e-300
        d = d**0.5
        L[j, j] = d
        for i in range(j + 1, k):
            s = A[i, j]
            for p in range(j):
                s -= L[i, p] * L[j, p]
            L[i, j] = s / d
        for i in range(j):
            L[i, j] = 0.0


@jitable
def cholesky_solve(L, k, x):
    """x[:k] ← (L Lᵀ)⁻¹ x[:k] for the factor L[:k, :k] of :func:`cholesky`."""
    for i in range(k):
        s = x[i]
        for p in range(i):
            s -= L[i, p] * x[p]
        x[i] = s / L[i, i]
    for i in range(k - 1, -1, -1):
        s = x[i]
        for p in range(i + 1, k):
            s -= L[p, i] * x[p]
        x[i] = s / L[i, i]


@jitable
def spd_solve_columns(A, B, L, x):
    """B ← A⁻¹ B for A (n×n) symmetric positive definite and B (n×m), column by column; L
    (n×n) and x (n) are scratch."""
    n = A.shape[0]
    cholesky(A, n, L)
    for c in range(B.shape[1]):
        for i in range(n):
            x[i] = B[i, c]
        cholesky_solve(L, n, x)
        for i in range(n):
            B[i, c] = x[i]


@jitable
def solve_mixed_lcp(W, r, equality, lam, active, index, S, L, x):
    """λ (into ``lam``) with w = W·λ + r, w = 0 on the ``equality`` rows (λ free there) and
    0 ≤ λ ⊥ w ≥ 0 on the others, for W (m×m) symmetric positive semidefinite: Murty's
    least-index principal pivoting (finite for positive definite W) with the equality rows
    always active. A regularization of 1e-12 of W's largest diagonal entry keeps redundant
    active rows (a coupler and both its joints' limits) solvable. ``active`` (bool, m),
    ``index`` (int, m), ``S`` and ``L`` (m×m) and ``x`` (m) are scratch. Returns True when
    the pivoting converged (``lam`` is then the solution), False after 10·m + 50 pivots."""
    m = r.shape[0]
    scale = 1e-300
    r_max = 1.0
    for i in range(m):
        scale = max(scale, abs(W[i, i]))
        r_max = max(r_max, abs(r[i]))
    regularization = 1e-12 * scale
    tol = 1e-13 * r_max
    for i in range(m):
        active[i] = equality[i] or r[i] < 0.0
    for _ in range(10 * m + 50):
        k = 0
        for i in range(m):
            if active[i]:
                index[k] = i
                k += 1
        for a in range(k):
            for b in range(k):
                S[a, b] = W[index[a], index[b]]
            S[a, a] += regularization
            x[a] = -r[index[a]]
        cholesky(S, k, L)
        cholesky_solve(L, k, x)
        for i in range(m):
            lam[i] = 0.0
        for a in range(k):
            lam[index[a]] = x[a]
        blocking = -1
        for i in range(m):
            if equality[i]:
                continue
            w = r[i]
            for j in range(m):
                w += W[i, j] * lam[j]
            if (active[i] and lam[i] < -tol) or (not active[i] and w < -tol):
                blocking = i
                break
        if blocking < 0:
            return True
        active[blocking] = not active[blocking]
    return False
