"""pydrake.math's matrix utilities: VectorToSkewSymmetric, IsSymmetric, IsPositiveDefinite,
DecomposePSDmatrixIntoXtransposeTimesX, ClosestQuaternion, and the soft min/max functions."""

import math

import numpy as np

from mallard._scalar import as_array
from mallard.math._functions import exp, log


def VectorToSkewSymmetric(p):
    """The matrix [p]ₓ with [p]ₓ·v = p × v (any scalar type)."""
    p = as_array(p, (3,), "p")
    zero = p[0] * 0
    return np.array(
        [[zero, -p[2], p[1]], [p[2], zero, -p[0]], [-p[1], p[0], zero]],
        dtype=p.dtype,
    )


def _double_matrix(matrix, function):
    a = as_array(matrix, name="matrix")
    if a.dtype != np.float64 or a.ndim != 2:
        raise TypeError(f"{function}: expected a matrix of doubles, got {a.dtype} {a.shape}")
    return a


def IsSymmetric(matrix, precision=None):
    """Whether ``matrix`` is square and equals its transpose (exactly, or within the absolute
    ``precision`` elementwise)."""
    a = _double_matrix(matrix, "IsSymmetric")
    if a.shape[0] != a.shape[1]:
        return False
    if precision is None:
        return bool(np.array_equal(a, a.T))
    return bool(np.all(np.abs(a - a.T) <= precision))


def IsPositiveDefinite(matrix, tolerance=0.0):
    """Whether the symmetric ``matrix`` (its lower triangle is used) has every eigenvalue
    ≥ ``tolerance``·max(1, the largest |eigenvalue|) (``tolerance`` = 0: semidefinite)."""
    a = _double_matrix(matrix, "IsPositiveDefinite")
    if not tolerance >= 0:
        raise RuntimeError(f"IsPositiveDefinite(): tolerance must be >= 0, got {tolerance}")
    if a.shape[0] != a.shape[1]:
        raise RuntimeError(f"IsPositiveDefinite(): expected a square matrix, got {a.shape}")
    if a.size == 0:
        return True
    eigenvalues = np.linalg.eigvalsh(a, UPLO="L")
    return bool(eigenvalues.min() >= tolerance * max(1.0, np.abs(eigenvalues).max()))


def DecomposePSDmatrixIntoXtransposeTimesX(Y, zero_tol, return_empty_if_not_psd=False):
    """X with XᵀX = Y and rank(Y) rows (the eigenvalues > ``zero_tol``), for the positive
    semidefinite Y (its lower triangle is used): Y's Cholesky factor Lᵀ when every
    eigenvalue is above ``zero_tol``, else the rows √λᵢ vᵢᵀ of those that are. Not PSD (an
    eigenvalue < −zero_tol): RuntimeError, or an empty 0 x n matrix if
    ``return_empty_if_not_psd``. (Drake tries the Cholesky factor first, whose success on a
    singular Y depends on rounding; here the rank decides.)"""
    Y = _double_matrix(Y, "DecomposePSDmatrixIntoXtransposeTimesX")
    if Y.shape[0] != Y.shape[1]:
        raise RuntimeError("Y is not square.")
    if not zero_tol >= 0:
        raise RuntimeError("zero_tol should be non-negative.")
    n = Y.shape[0]
    symmetric = np.tril(Y) + np.tril(Y, -1).T
    eigenvalues, vectors = np.linalg.eigh(symmetric)
    if eigenvalues.min(initial=0.0) < -zero_tol:
        if return_empty_if_not_psd:
            return np.zeros((0, n))
        raise RuntimeError(
            f"Y is not positive semidefinite. It has an eigenvalue {eigenvalues.min():g} that "
            f"is less than the tolerance {-zero_tol:g}."
        )
    keep = eigenvalues > zero_tol
    if keep.all():
        # Full rank: the (unique) Cholesky factor, as Drake returns it.
        return np.linalg.cholesky(symmetric).T
    return (vectors[:, keep] * np.sqrt(eigenvalues[keep])).T


def ClosestQuaternion(quat1, quat2):
    """``quat2`` or −``quat2`` (the same orientation), whichever is nearer to ``quat1``."""
    from mallard.common._quaternion import Quaternion

    for q, name in ((quat1, "quat1"), (quat2, "quat2")):
        if not isinstance(q, Quaternion):
            raise TypeError(f"ClosestQuaternion(): {name} must be a Quaternion, got {q!r}")
    a, b = quat1.wxyz(), quat2.wxyz()
    dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
    return Quaternion._make(-b if dot < 0 else b.copy())


def _soft(x, alpha, function):
    alpha = float(alpha)
    if not alpha > 0:
        raise RuntimeError(f"{function}(): alpha must be positive, got {alpha}")
    if not math.isfinite(alpha):
        raise RuntimeError(f"{function}(): alpha must be finite, got {alpha}")
    x = list(x)
    if not x:
        raise RuntimeError(f"{function}(): x must not be empty")
    return x, alpha


def SoftOverMax(x, alpha=1.0):
    """log(Σᵢ exp(α xᵢ)) / α ≥ max(x) (doubles or AutoDiffXd); RuntimeError unless α is
    positive and finite."""
    x, alpha = _soft(x, alpha, "SoftOverMax")
    top = max(x)
    return top + log(sum(exp(alpha * (xi - top)) for xi in x)) / alpha


def SoftUnderMax(x, alpha=1.0):
    """Σᵢ exp(α xᵢ) xᵢ / Σⱼ exp(α xⱼ) ≤ max(x)."""
    x, alpha = _soft(x, alpha, "SoftUnderMax")
    top = max(x)
    weights = [exp(alpha * (xi - top)) for xi in x]
    return sum(w * xi for w, xi in zip(weights, x, strict=True)) / sum(weights)


def SoftOverMin(x, alpha=1.0):
    """Σᵢ exp(−α xᵢ) xᵢ / Σⱼ exp(−α xⱼ) ≥ min(x)."""
    x, alpha = _soft(x, alpha, "SoftOverMin")
    return -SoftUnderMax([-xi for xi in x], alpha)


def SoftUnderMin(x, alpha=1.0):
    """−log(Σᵢ exp(−α xᵢ)) / α ≤ min(x)."""
    x, alpha = _soft(x, alpha, "SoftUnderMin")
    return -SoftOverMax([-xi for xi in x], alpha)
