"""Dense solves for the kernels: a Cholesky factor of a symmetric positive definite matrix
restricted to some of the unknowns (the others held at zero, as locked joints' velocities or
inactive constraint rows) and its solve with many right-hand sides; a general square solve by
LU with partial pivoting. In place, no allocation.
"""

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.lanes import positive


@jitable
def cholesky_factor(M, free, L):
    """L·Lᵀ = M restricted to the dofs with ``free`` nonzero (the others' rows and columns of M
    replaced by those of the identity), M symmetric positive definite (its lower triangle is
    read; M and L may be lane views, ``free`` not). Returns False if it is not positive
    definite (of lanes: in some lane). Row by row (each entry's sum in the
    same order as column by column)."""
    nv = M.shape[0]
    for i in range(nv):
        for j in range(i + 1):
            if free[i] != 0 and free[j] != 0:
                s = M[i, j]
            elif i == j:
                s = 1.0 + 0.0 * M[i, j]
            else:
                s = 0.0 * M[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            if i == j:
                if not positive(s):  # (of lanes: every lane)
                    return False
                L[i, i] = s**0.5
            else:
                L[i, j] = s / L[j, j]
    return True


@jitable
def cholesky_solve(L, free, B, sign):
    """B = sign·M⁻¹·B in place (B nv×m) with L from :func:`cholesky_factor`: the rows of B
    of the dofs not ``free`` are set to zero (and not read). Row by row, each row's columns
    side by side (a vector loop; each column's arithmetic is the same as alone)."""
    nv, m = L.shape[0], B.shape[1]
    for i in range(nv):
        if free[i] != 0:
            for c in range(m):
                B[i, c] = sign * B[i, c]
        else:
            for c in range(m):
                B[i, c] = 0.0 * B[i, c]
        for k in range(i):
            L_ik = L[i, k]
            for c in range(m):
                B[i, c] -= L_ik * B[k, c]
        L_ii = L[i, i]
        for c in range(m):
            B[i, c] = B[i, c] / L_ii
    for i in range(nv - 1, -1, -1):
        for k in range(i + 1, nv):
            L_ki = L[k, i]
            for c in range(m):
                B[i, c] -= L_ki * B[k, c]
        L_ii = L[i, i]
        for c in range(m):
            B[i, c] = B[i, c] / L_ii
    for i in range(nv):
        if free[i] == 0:
            for c in range(m):
                B[i, c] = 0.0 * B[i, c]


@jitable
def lu_solve(A, b):
    """b = A⁻¹·b in place, A (n×n, overwritten by its LU factors) by Gaussian elimination with
    partial pivoting (rows swapped in A and b; Eigen's PartialPivLU picks the same pivots:
    the largest magnitude in the column). Returns False if a pivot is zero."""
    n = A.shape[0]
    for j in range(n):
        p = j
        for i in range(j + 1, n):
            if abs(A[i, j]) > abs(A[p, j]):
                p = i
        if A[p, j] == 0.0:
            return False
        if p != j:
            for k in range(n):
                A[j, k], A[p, k] = A[p, k], A[j, k]
            b[j], b[p] = b[p], b[j]
        for i in range(j + 1, n):
            factor = A[i, j] / A[j, j]
            A[i, j] = factor
            for k in range(j + 1, n):
                A[i, k] -= factor * A[j, k]
            b[i] -= factor * b[j]
    for i in range(n - 1, -1, -1):
        for k in range(i + 1, n):
            b[i] -= A[i, k] * b[k]
        b[i] = b[i] / A[i, i]
    return True
