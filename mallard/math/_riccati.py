"""Algebraic Riccati and Lyapunov equations (pydrake.math), solved with numpy alone.

* ContinuousAlgebraicRiccatiEquation: the stabilizing X of A'X + XA − XBR⁻¹B'X + Q = 0, from the
  matrix sign of the Hamiltonian [[A, −G], [−Q, −A']] (G = BR⁻¹B'), by the scaled Newton
  iteration Z ← (Z/c + cZ⁻¹)/2, c = |det Z|^(1/2n) (Gardiner and Laub, 1986), then one Newton
  (Kleinman) step on the residual.
* DiscreteAlgebraicRiccatiEquation: the stabilizing X of A'XA − X − A'XB(R + B'XB)⁻¹B'XA + Q = 0
  by the structure-preserving doubling algorithm (Chu, Fan and Lin, 2005), with the cross term
  N folded into A and Q.
* RealContinuousLyapunovEquation (A'X + XA + Q = 0) and RealDiscreteLyapunovEquation
  (A'XA − X + Q = 0), as the linear systems of their n² unknowns (Kronecker form): exact to
  rounding, O(n⁶) work, for the small systems these are used on.
"""

import numpy as np

from mallard._scalar import as_array

_MAX_ITERATIONS = 100


def _square(M, name, function, n=None):
    a = as_array(M, name=name)
    if a.dtype != np.float64 or a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise RuntimeError(f"{function}: {name} must be a square matrix of doubles, got {a.shape}")
    if n is not None and a.shape[0] != n:
        raise RuntimeError(f"{function}: {name} must be {n}x{n}, got {a.shape}")
    return a


def _matrix(M, name, function, shape):
    a = as_array(M, name=name)
    if a.dtype != np.float64 or a.shape != shape:
        raise RuntimeError(f"{function}: {name} must be a {shape[0]}x{shape[1]} matrix of doubles")
    return a


def _check_symmetric(M, name, function):
    if not np.allclose(M, M.T, rtol=0.0, atol=1e-10 * max(1.0, np.abs(M).max(initial=0.0))):
        raise RuntimeError(f"{function}: {name} must be symmetric")


def _positive_definite_inverse(R, function):
    """R⁻¹ (from its Cholesky factor); RuntimeError unless R is positive definite."""
    try:
        L = np.linalg.cholesky(R)
    except np.linalg.LinAlgError:
        raise RuntimeError(f"{function}: R must be positive definite") from None
    Linv = np.linalg.inv(L)
    return Linv.T @ Linv


def _inputs(A, B, Q, R, function):
    A = _square(A, "A", function)
    n = A.shape[0]
    B = as_array(B, name="B")
    if B.dtype != np.float64 or B.ndim != 2 or B.shape[0] != n:
        raise RuntimeError(f"{function}: B must have {n} rows, got shape {B.shape}")
    Q = _square(Q, "Q", function, n)
    R = _square(R, "R", function, B.shape[1])
    _check_symmetric(Q, "Q", function)
    _check_symmetric(R, "R", function)
    return A, B, Q, R


def ContinuousAlgebraicRiccatiEquation(A, B, Q, R):
    """The unique stabilizing solution X of A'X + XA − XBR⁻¹B'X + Q = 0 (A − BR⁻¹B'X
    Hurwitz). RuntimeError if R is not positive definite or there is no such solution ((A, B)
    not stabilizable or (Q, A) with an unobservable mode on the imaginary axis)."""
    function = "ContinuousAlgebraicRiccatiEquation"
    A, B, Q, R = _inputs(A, B, Q, R, function)
    n = A.shape[0]
    G = B @ _positive_definite_inverse(R, function) @ B.T
    Z = np.block([[A, -G], [-Q, -A.T]])
    identity = np.eye(2 * n)
    for _ in range(_MAX_ITERATIONS):
        try:
            Zinv = np.linalg.inv(Z)
        except np.linalg.LinAlgError:
            raise _no_solution(function) from None
        sign, logdet = np.linalg.slogdet(Z)
        c = np.exp(logdet / (2 * n)) if sign != 0 else 1.0
        Z_next = 0.5 * (Z / c + c * Zinv)
        done = np.linalg.norm(Z_next - Z, 1) <= 1e-13 * np.linalg.norm(Z_next, 1)
        Z = Z_next
        if done:
            break
    else:
        raise _no_solution(function)
    # sign(H) = Z: the stable invariant subspace is the null space of Z + I.
    W = Z + identity
    lhs = np.vstack([W[:n, n:], W[n:, n:]])
    rhs = -np.vstack([W[:n, :n], W[n:, :n]])
    X, *_ = np.linalg.lstsq(lhs, rhs, rcond=None)
    X = 0.5 * (X + X.T)
    # One Newton (Kleinman) step: A_c'X + XA_c + Q + XGX = 0 with A_c = A − GX.
    Ac = A - G @ X
    X = RealContinuousLyapunovEquation(Ac, Q + X @ G @ X)
    X = 0.5 * (X + X.T)
    if not np.all(np.isfinite(X)) or np.max(np.linalg.eigvals(A - G @ X).real) >= 0:
        raise _no_solution(function)
    return X


def DiscreteAlgebraicRiccatiEquation(A, B, Q, R, N=None):
    """The unique stabilizing solution X of A'XA − X − (A'XB + N)(R + B'XB)⁻¹(B'XA + N') + Q = 0
    (N = 0 if omitted). RuntimeError if R is not positive definite or there is no such
    solution."""
    function = "DiscreteAlgebraicRiccatiEquation"
    A, B, Q, R = _inputs(A, B, Q, R, function)
    n, m = B.shape
    Rinv = _positive_definite_inverse(R, function)
    if N is not None and np.asarray(N).size:
        N = _matrix(N, "N", function, (n, m))
        A = A - B @ Rinv @ N.T
        Q = Q - N @ Rinv @ N.T
    Ak, Gk, Hk = A.copy(), B @ Rinv @ B.T, Q.copy()
    identity = np.eye(n)
    with np.errstate(over="ignore", invalid="ignore"):  # (divergence is checked below)
        for _ in range(_MAX_ITERATIONS):
            W = identity + Gk @ Hk
            try:
                V1 = np.linalg.solve(W, Ak)  # W⁻¹A
                V2 = np.linalg.solve(W, Gk)  # W⁻¹G
            except np.linalg.LinAlgError:
                raise _no_solution(function) from None
            H_next = Hk + Ak.T @ Hk @ V1
            Gk = Gk + Ak @ V2 @ Ak.T
            Ak = Ak @ V1
            if not np.all(np.isfinite(H_next)):
                raise _no_solution(function)
            scale = max(np.linalg.norm(H_next, 1), 1e-300)
            done = np.linalg.norm(H_next - Hk, 1) <= 1e-14 * scale
            Hk = H_next
            if done:
                break
        else:
            raise _no_solution(function)
    X = 0.5 * (Hk + Hk.T)
    K = np.linalg.solve(R + B.T @ X @ B, B.T @ X @ A)  # (A, Q with N folded in)
    if np.abs(np.linalg.eigvals(A - B @ K)).max(initial=0.0) >= 1:
        raise _no_solution(function)
    return X


def _no_solution(function):
    return RuntimeError(
        f"{function}: the equation has no stabilizing solution (the system must be "
        "stabilizable, and (Q, A) detectable)"
    )


def _lyapunov(A, Q, function, discrete):
    A = _square(A, "A", function)
    Q = _square(Q, "Q", function, A.shape[0])
    n = A.shape[0]
    identity = np.eye(n)
    # vec(A'XA) = (A' ⊗ A') vec(X); vec(A'X + XA) = (I ⊗ A' + A' ⊗ I) vec(X) (column-major).
    if discrete:
        M = np.kron(A.T, A.T) - np.eye(n * n)
    else:
        M = np.kron(identity, A.T) + np.kron(A.T, identity)
    try:
        x = np.linalg.solve(M, -Q.reshape(-1, order="F"))
    except np.linalg.LinAlgError:
        raise RuntimeError(
            f"{function}: the solution is not unique (A has eigenvalues λᵢ, λⱼ with "
            + ("λᵢλⱼ = 1)" if discrete else "λᵢ + λⱼ = 0)")
        ) from None
    return x.reshape(n, n, order="F")


def RealContinuousLyapunovEquation(A, Q):
    """The X of A'X + XA + Q = 0; RuntimeError if it is not unique."""
    return _lyapunov(A, Q, "RealContinuousLyapunovEquation", discrete=False)


def RealDiscreteLyapunovEquation(A, Q):
    """The X of A'XA − X + Q = 0; RuntimeError if it is not unique."""
    return _lyapunov(A, Q, "RealDiscreteLyapunovEquation", discrete=True)
