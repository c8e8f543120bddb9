"""Dense solves for the kernels: a general square solve by LU with partial pivoting, in place, no
allocation. (The mass matrix's factorization by its tree's sparsity: kernels.mass_factor.)
"""

from mallard.multibody._kernels._machinery import jitable


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
