"""Linear quadratic regulators: the gain K of u = −Kx and the cost-to-go x'Sx, from the
algebraic Riccati equations of mallard.math, for matrices, LinearSystems, and any system
linearized about a Context."""

import numpy as np

from mallard._scalar import as_array
from mallard.common._pybind import call_form, overloads
from mallard.math._riccati import (
    ContinuousAlgebraicRiccatiEquation,
    DiscreteAlgebraicRiccatiEquation,
)
from mallard.systems.framework._context import Context
from mallard.systems.framework._indices import OutputPortSelection
from mallard.systems.framework._system import System
from mallard.systems.primitives._affine_system import AffineSystem, LinearSystem
from mallard.systems.primitives._linearize import Linearize


def _cross_term(N, n, m, function):
    """N as an n x m matrix (zeros if empty)."""
    if N is None or np.asarray(N).size == 0:
        return np.zeros((n, m))
    N = as_array(N, name="N")
    if N.shape != (n, m):
        raise RuntimeError(f"{function}: N must be {n}x{m}, got {N.shape}")
    return N


def _matrices(A, B, Q, R, N, function):
    A, B, Q, R = (as_array(M, name=k) for M, k in ((A, "A"), (B, "B"), (Q, "Q"), (R, "R")))
    if B.ndim != 2 or A.ndim != 2 or B.shape[0] != A.shape[0]:
        raise RuntimeError(f"{function}: A ({A.shape}) and B ({B.shape}) do not agree")
    return A, B, Q, R, _cross_term(N, B.shape[0], B.shape[1], function)


def _gain(B, R, N, S, A=None):
    """K = R⁻¹(B'S + N') (continuous) or (R + B'SB)⁻¹(B'SA + N') (discrete, given A)."""
    if A is None:
        return np.linalg.solve(R, B.T @ S + N.T)
    return np.linalg.solve(R + B.T @ S @ B, B.T @ S @ A + N.T)


def _continuous(A, B, Q, R, N, F, function):
    if F is not None and np.asarray(F).size:
        F = as_array(F, name="F")
        n = A.shape[0]
        if F.ndim != 2 or F.shape[1] != n:
            raise RuntimeError(f"{function}: F must have {n} columns, got shape {F.shape}")
        # The constrained states x = P z, P an orthonormal basis of the null space of F.
        _, s, Vt = np.linalg.svd(F)
        rank = int(np.sum(s > np.finfo(float).eps * max(F.shape) * (s[0] if s.size else 0)))
        if rank >= n:
            raise RuntimeError(f"{function}: rank(F) must be less than the number of states")
        P = Vt[rank:].T
        Rinv_Nt = np.linalg.solve(R, N.T)
        Sz = ContinuousAlgebraicRiccatiEquation(
            P.T @ (A - B @ Rinv_Nt) @ P, P.T @ B, P.T @ (Q - N @ Rinv_Nt) @ P, R
        )
        S = P @ Sz @ P.T
    else:
        Rinv_Nt = np.linalg.solve(R, N.T) if N.any() else None
        if Rinv_Nt is None:
            S = ContinuousAlgebraicRiccatiEquation(A, B, Q, R)
        else:
            S = ContinuousAlgebraicRiccatiEquation(A - B @ Rinv_Nt, B, Q - N @ Rinv_Nt, R)
    return _gain(B, R, N, S), S


def _discrete(A, B, Q, R, N):
    S = DiscreteAlgebraicRiccatiEquation(A, B, Q, R, N)
    return _gain(B, R, N, S, A), S


def _controller(system, K, offset=None):
    """A stateless system u = −Kx (+ offset) of ``system``'s time period."""
    m, n = K.shape
    if offset is None:
        return LinearSystem(np.zeros((0, 0)), np.zeros((0, n)), np.zeros((m, 0)), -K,
                            system.time_period())  # fmt: skip
    return AffineSystem(np.zeros((0, 0)), np.zeros((0, n)), np.zeros(0), np.zeros((m, 0)), -K,
                        offset, system.time_period())  # fmt: skip


@overloads("A, B, Q, R, N=, F=", "system, Q, R, N=", "system, context, Q, R, N=, input_port_index=")
def LinearQuadraticRegulator(*args, **kwargs):
    """``(A, B, Q, R, N=None, F=None)``: (K, S) minimizing ∫ x'Qx + u'Ru + 2x'Nu dt subject
    to ẋ = Ax + Bu (and Fx = 0); ``(system, Q, R, N=None)``: the LinearSystem u = −Kx for a
    LinearSystem (continuous or discrete); ``(system, context, Q, R, N=None,
    input_port_index=0)``: the AffineSystem u = u0 − K(x − x0) regulating ``system`` to the
    equilibrium (x0, u0) of ``context`` (linearized there). RuntimeError if R is not positive
    definite."""
    function = "LinearQuadraticRegulator"

    def accept(form, v):
        if isinstance(v.get("A", v.get("system")), System) == (form == 0):
            return False
        return form != 1 or not isinstance(v["Q"], Context)

    form, v = call_form(LinearQuadraticRegulator, args, kwargs, accept=accept)
    if form == 2:
        index = 0 if v["input_port_index"] is None else v["input_port_index"]
        return _regulate_about(function, v["system"], v["context"], v["Q"], v["R"], v["N"], index)
    if form == 1:
        return _regulate_linear_system(function, v["system"], v["Q"], v["R"], v["N"])
    A, B, Q, R, N = _matrices(v["A"], v["B"], v["Q"], v["R"], v["N"], function)
    return _continuous(A, B, Q, R, N, v["F"], function)


def _regulate_linear_system(function, system, Q, R, N=None):
    if not isinstance(system, LinearSystem):
        raise TypeError(f"{function}(): expected a LinearSystem, got {type(system).__name__}")
    A, B, Q, R, N = _matrices(system.A(), system.B(), Q, R, N, function)
    if system.time_period() == 0.0:
        K, _ = _continuous(A, B, Q, R, N, None, function)
    else:
        K, _ = _discrete(A, B, Q, R, N)
    return _controller(system, K)


def _regulate_about(function, system, context, Q, R, N=None, input_port_index=0):
    system.ValidateContext(context)
    linear = Linearize(system, context, input_port_index, OutputPortSelection.kNoOutput)
    A, B, Q, R, N = _matrices(linear.A(), linear.B(), Q, R, N, function)
    if linear.time_period() == 0.0:
        K, _ = _continuous(A, B, Q, R, N, None, function)
        x0 = context.get_continuous_state_vector().CopyToVector()
    else:
        K, _ = _discrete(A, B, Q, R, N)
        x0 = context.get_discrete_state(0).CopyToVector()
    u0 = system.get_input_port(int(input_port_index)).Eval(context)
    return _controller(linear, K, u0 + K @ x0)


def DiscreteTimeLinearQuadraticRegulator(A, B, Q, R, N=None):
    """(K, S) minimizing Σ x'Qx + u'Ru + 2x'Nu subject to x[n+1] = Ax[n] + Bu[n]; u = −Kx.
    RuntimeError if R is not positive definite."""
    function = "DiscreteTimeLinearQuadraticRegulator"
    A, B, Q, R, N = _matrices(A, B, Q, R, N, function)
    return _discrete(A, B, Q, R, N)
