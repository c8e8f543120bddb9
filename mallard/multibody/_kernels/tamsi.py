"""Drake's TAMSI solver (Transition-Aware Modified Semi-Implicit: Castro, Qu, Kuppuswamy,
Alspach, Sherman, "A Transition-Aware Method for the Simulation of Compliant Contact with
Regularized Friction", 2020; drake/multibody/plant/tamsi_solver and tamsi_driver): the
velocities v of a discrete step of length h with point contact, as Drake's TamsiDriver
computes them.

Per contact point i, its Jacobian rows J_i (3 × nv, in the contact frame C: tangential,
tangential, normal; the normal along nhat_AB, so that vn = (J_i·v)_z is the separation speed
and vt = (J_i·v)_xy the slip velocity of B relative to A), and the forces on B at C in C:

* normal, Hunt–Crossley with the penetration x = x0 − h·vn made implicit (two-way coupled):
  fn(vn) = (1 − d·vn)₊·(fn0 − h·k·vn)₊, fn0 = k·x0 (d the dissipation, k the stiffness);
* friction, Coulomb regularized in stiction: ft(vt) = −μ(‖vt‖ₛ)·t̂·fn, with the slip speed
  ‖vt‖ₛ = √(‖vt‖² + ε²), t̂ = vt/‖vt‖ₛ (ε = 1e-2·vₛ), μ(s) = μ·s·(2 − s) for s = ‖vt‖ₛ/vₛ < 1
  and μ above it (vₛ the stiction tolerance, μ the dynamic friction).

v solves the momentum balance (M its mass matrix, −τ the non-contact forces' generalized
forces (Drake's minus_tau: M·v̇* = τ), p* = M·v0 − h·(−τ))

    R(v) = M·v − p* − h·Σ_i J_iᵀ·[ft; fn](J_i·v) = 0

by Newton–Raphson: K·Δv = −R with K = ∂R/∂v (M + h·Σ Jtᵀ·(∂(−ft)/∂vt·Jt + μ·t̂·∂(−fn)/∂vn·Jn)
+ h·Σ Jnᵀ·∂(−fn)/∂vn·Jn, not symmetric: solved by LU with partial pivoting), then
v ← v + α·Δv with α ≤ 1 from the transition-aware line search (TALS, :func:`_tals_alpha`): per
contact, a step that leaves or enters the stiction region (‖vt‖ < vₛ) or crosses it is cut to
land in it, and a change of the slip direction larger than θ_max = π/3 is limited to θ_max.
Converged when ‖Δvt‖ and ‖Δvn‖ (over all contacts) fall below 1e-2·vₛ, at most 20 iterations.
As Drake's TamsiDriver, a step whose Newton fails is taken again in n = 2, 3, ..., 20 substeps
of h/n (fn0 ← (fn0 − (h/n)·k·vn)₊ after each); Drake raises if all fail.

Compiled for float64; run interpreted on object arrays of AutoDiffXd scalars, the iterations
carry the derivatives, as Drake's TamsiSolver<AutoDiffXd> does (its convergence tests read
the values only).
"""

from mallard._compiled import entry_point
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.dense import lu_solve

#: Drake's TamsiSolverParameters for the plant's step: the tolerance relative to the stiction
#: tolerance, cos θ_max (θ_max = π/3), the Newton iterations TamsiDriver allows, its substeps.
RELATIVE_TOLERANCE = 1.0e-2
COS_THETA_MAX = 0.5000000000000001  # (std::cos(M_PI / 3.0))
MAX_ITERATIONS = 20
MAX_SUBSTEPS = 20
#: A Newton solve's outcomes.
SUCCESS, MAX_ITERATIONS_REACHED, ALPHA_FAILED, SINGULAR = 0, 1, 2, 3
#: Columns of the per-contact scratch ``wc``: the substep's fn0; vt, vn (J_i·v); Δvt, Δvn;
#: fn, ∂fn/∂vn; μ(‖vt‖ₛ), ‖vt‖ₛ, t̂; the 2×2 symmetric ∂(−ft)/∂vt (xx, xy, yy).
FN0, VT, VN, DVT, DVN, FN, DFN, MU, SLIP, T_HAT, DFT = 0, 1, 3, 4, 6, 7, 8, 9, 10, 11, 13
CONTACT_COLUMNS = 16
#: Rows of the per-velocity scratch ``wv``: −τ, the substep's v0, p*, R then Δv.
MINUS_TAU, V0, P_STAR, DV = 0, 1, 2, 3
VELOCITY_ROWS = 4


@jitable
def _positive_part(x):
    """max(0, x), as Drake's max(0.0, x) (0 without derivatives when x ≤ 0)."""
    if 0.0 < x:
        return x
    return 0.0 * x


@jitable
def _norm(squared):
    """√squared, 0 (without derivatives) at 0: the norm of a vector from its squared norm."""
    if squared > 0.0:
        return squared**0.5
    return 0.0 * squared


@jitable
def _regularized_friction(s, mu):
    """μ(s): μ·s·(2 − s) below s = 1, μ above (Drake's RegularizedFriction)."""
    if s >= 1.0:
        return mu
    return mu * s * (2.0 - s)


@jitable
def _regularized_friction_derivative(s, mu):
    """dμ/ds (Drake's RegularizedFrictionDerivative)."""
    if s >= 1.0:
        return 0.0 * mu
    return mu * (2.0 * (1.0 - s))


@jitable
def _smallest_positive_root(a, b, c):
    """The smallest positive root of a·α² + b·α + c (Drake's TalsLimiter::
    SolveQuadraticForTheSmallestPositiveRoot), −1 when the discriminant is not positive."""
    if abs(a) < 2.220446049250313e-16:
        return -c / b
    delta = b * b - 4.0 * a * c
    if not delta > 0.0:
        return -1.0
    sqrt_delta = delta**0.5
    numerator = -0.5 * (b + (sqrt_delta if b > 0.0 else -sqrt_delta))
    alpha1 = numerator / a
    alpha2 = c / numerator
    if alpha2 > 0.0 and alpha1 > 0.0:
        return alpha2 if alpha2 < alpha1 else alpha1
    return alpha1 if alpha2 < alpha1 else alpha2


@jitable
def _tals_alpha(v0, v1, dv0, dv1, v_stiction):
    """α in (0, 1] limiting the step of one contact's slip velocity v = (v0, v1) by
    Δv = (dv0, dv1), or −1 if the angle limit has no solution (Drake's TalsLimiter::
    CalcAlpha, x = ‖v‖/vₛ the dimensionless slip):

    * ‖Δv‖ below ε = 1e-2·vₛ, or v in stiction (x < 1) and not leaving it by far: 1;
    * from (near) rest to sliding (x < 1e-2, x(α=1) > 1): α puts v at vₛ/2 from rest; from
      sliding to (near) rest: α stops vₛ/2 short of rest;
    * sliding, crossing the stiction region along Δv (its closest point to the origin,
      α = −v·Δv/‖Δv‖², within vₛ): α of that point (less vₛ/(2‖Δv‖) if within ε);
    * sliding to sliding: 1 unless the slip direction turns by more than θ_max, else the α
      at which it turns by θ_max (the smallest positive root of a quadratic)."""
    epsilon_v = v_stiction * RELATIVE_TOLERANCE
    dv_norm2 = dv0 * dv0 + dv1 * dv1
    if dv_norm2 < epsilon_v * epsilon_v:
        return 1.0 + 0.0 * dv0
    w0 = v0 + dv0
    w1 = v1 + dv1
    v_norm = _norm(v0 * v0 + v1 * v1)
    w_norm = _norm(w0 * w0 + w1 * w1)
    x = v_norm / v_stiction
    x1 = w_norm / v_stiction
    dv_norm = dv_norm2**0.5
    if x < RELATIVE_TOLERANCE and x1 > 1.0:
        return v_stiction / dv_norm / 2.0
    if x > 1.0 and x1 < RELATIVE_TOLERANCE:
        return 1.0 - v_stiction / 2.0 / dv_norm
    if x < 1.0 or x1 < 1.0:
        return 1.0 + 0.0 * dv0
    v_dot_dv = v0 * dv0 + v1 * dv1
    if v_dot_dv < 0.0:  # toward the origin: does it cross the stiction region?
        alpha = -v_dot_dv / dv_norm2
        if alpha < 1.0:
            a0 = v0 + alpha * dv0
            a1 = v1 + alpha * dv1
            a_norm = _norm(a0 * a0 + a1 * a1)
            if a_norm < epsilon_v:
                return alpha - v_stiction / 2.0 / dv_norm
            if a_norm < v_stiction:
                return alpha
    cos1 = (v0 * w0 + v1 * w1) / v_norm / w_norm
    if cos1 > COS_THETA_MAX:
        return 1.0 + 0.0 * dv0
    x_dot_dx = v_dot_dv / (v_stiction * v_stiction)
    dx = dv_norm / v_stiction
    x2 = x * x
    x4 = x2 * x2  # (Drake's dx4, which is x⁴)
    cos2 = COS_THETA_MAX * COS_THETA_MAX
    a = x2 * dx * dx * cos2 - x_dot_dx * x_dot_dx
    b = 2.0 * x2 * x_dot_dx * (cos2 - 1.0)
    c = x4 * (cos2 - 1.0)
    return _smallest_positive_root(a, b, c)


@jitable
def _contact_forces(J, stiffness, dissipation, mu, h, v_stiction, v, f, wc):
    """At v: per contact vt, vn, the forces (into f, 3 per contact: ft, fn) and what the
    Newton Jacobian needs (wc): ∂fn/∂vn, μ(‖vt‖ₛ), ‖vt‖ₛ, t̂ (Drake's CalcNormalForces and
    CalcFrictionForces)."""
    nc, nv = wc.shape[0], v.shape[0]
    epsilon_v = v_stiction * RELATIVE_TOLERANCE
    for ic in range(nc):
        for r in range(3):
            s = 0.0 * v[0]
            for j in range(nv):
                s += J[3 * ic + r, j] * v[j]
            wc[ic, VT + r] = s
        vn = wc[ic, VN]
        signed_damping = 1.0 - dissipation[ic] * vn
        damping = _positive_part(signed_damping)
        signed_undamped = wc[ic, FN0] - h * stiffness[ic] * vn
        undamped = _positive_part(signed_undamped)
        fn = damping * undamped
        H_damping = 1.0 if signed_damping >= 0.0 else 0.0
        H_undamped = 1.0 if signed_undamped >= 0.0 else 0.0
        wc[ic, FN] = fn
        wc[ic, DFN] = -(
            dissipation[ic] * H_damping * undamped + h * stiffness[ic] * damping * H_undamped
        )
        vt0, vt1 = wc[ic, VT], wc[ic, VT + 1]
        slip = (vt0 * vt0 + vt1 * vt1 + epsilon_v * epsilon_v) ** 0.5
        t0, t1 = vt0 / slip, vt1 / slip
        mu_vt = _regularized_friction(slip / v_stiction, mu[ic])
        wc[ic, SLIP], wc[ic, T_HAT], wc[ic, T_HAT + 1], wc[ic, MU] = slip, t0, t1, mu_vt
        f[3 * ic] = -mu_vt * t0 * fn
        f[3 * ic + 1] = -mu_vt * t1 * fn
        f[3 * ic + 2] = fn


@jitable
def _newton_jacobian(M, J, mu, h, v_stiction, wc, K):
    """K = ∂R/∂v = M − h·Jtᵀ·Gt − h·Jnᵀ·Gn, Gn = ∂fn/∂vn·Jn, Gt = −∂(−ft)/∂vt·Jt − μ·t̂·Gn
    (Drake's CalcFrictionForcesGradient, CalcJacobian): ∂(−ft)/∂vt = fn·(P⊥·μ/‖vt‖ₛ + P·dμ/dv),
    P = t̂·t̂ᵀ, P⊥ = I − P."""
    nc, nv = wc.shape[0], M.shape[0]
    for ic in range(nc):
        t0, t1 = wc[ic, T_HAT], wc[ic, T_HAT + 1]
        slip, mu_vt, fn = wc[ic, SLIP], wc[ic, MU], wc[ic, FN]
        dmudv = _regularized_friction_derivative(slip / v_stiction, mu[ic]) / v_stiction
        wc[ic, DFT] = ((1.0 - t0 * t0) * mu_vt / slip + t0 * t0 * dmudv) * fn
        wc[ic, DFT + 1] = ((-t0 * t1) * mu_vt / slip + t0 * t1 * dmudv) * fn
        wc[ic, DFT + 2] = ((1.0 - t1 * t1) * mu_vt / slip + t1 * t1 * dmudv) * fn
    for i in range(nv):
        for j in range(nv):
            tangential = 0.0 * M[i, j]
            normal = 0.0 * M[i, j]
            for ic in range(nc):
                r = 3 * ic
                Gn = wc[ic, DFN] * J[r + 2, j]
                scale = wc[ic, MU]
                Gt0 = -(wc[ic, DFT] * J[r, j] + wc[ic, DFT + 1] * J[r + 1, j])
                Gt0 -= scale * wc[ic, T_HAT] * Gn
                Gt1 = -(wc[ic, DFT + 1] * J[r, j] + wc[ic, DFT + 2] * J[r + 1, j])
                Gt1 -= scale * wc[ic, T_HAT + 1] * Gn
                tangential += J[r, i] * Gt0 + J[r + 1, i] * Gt1
                normal += J[r + 2, i] * Gn
            K[i, j] = M[i, j] - h * tangential - h * normal


@jitable
def _newton(M, J, stiffness, dissipation, mu, h, v_stiction, v, f, K, wv, wc):
    """One TAMSI solve of a (sub)step of length h from the guess v (Drake's TamsiSolver::
    SolveWithGuess, two-way coupled; wv's p* set): v, f (its forces) at convergence. Returns
    SUCCESS or why it failed."""
    nc, nv = wc.shape[0], v.shape[0]
    tolerance = RELATIVE_TOLERANCE * v_stiction
    vt_error = 2.0 * tolerance
    vn_error = 2.0 * tolerance
    dv = wv[DV]
    for _ in range(MAX_ITERATIONS):
        _contact_forces(J, stiffness, dissipation, mu, h, v_stiction, v, f, wc)
        if (vt_error if vt_error > vn_error else vn_error) < tolerance:
            return SUCCESS
        for i in range(nv):  # −R
            s = 0.0 * v[0]
            for j in range(nv):
                s += M[i, j] * v[j]
            contact = 0.0 * v[0]
            for r in range(3 * nc):
                contact += J[r, i] * f[r]
            dv[i] = -(s - wv[P_STAR, i] - h * contact)
        _newton_jacobian(M, J, mu, h, v_stiction, wc, K)
        if not lu_solve(K, dv):
            return SINGULAR
        vt2 = 0.0 * v[0]
        vn2 = 0.0 * v[0]
        for ic in range(nc):
            for r in range(3):
                s = 0.0 * v[0]
                for j in range(nv):
                    s += J[3 * ic + r, j] * dv[j]
                wc[ic, DVT + r] = s
            vt2 += wc[ic, DVT] * wc[ic, DVT] + wc[ic, DVT + 1] * wc[ic, DVT + 1]
            vn2 += wc[ic, DVN] * wc[ic, DVN]
        vt_error = _norm(vt2)
        vn_error = _norm(vn2)
        alpha = 1.0 + 0.0 * v[0]
        for ic in range(nc):
            a = _tals_alpha(wc[ic, VT], wc[ic, VT + 1], wc[ic, DVT], wc[ic, DVT + 1], v_stiction)
            if not a > 0.0:
                return ALPHA_FAILED
            if a < alpha:
                alpha = a
        for j in range(nv):
            v[j] = v[j] + alpha * dv[j]
    return MAX_ITERATIONS_REACHED


@entry_point
@jitable
def tamsi_step(M, J, minus_tau, v0, fn0, stiffness, dissipation, mu, h, v_stiction, v, f, K,
               wv, wc):  # fmt: skip
    """The velocities v (nv) and contact forces f (3·nc: per contact ft, fn on B at C, in C)
    of a discrete step of length h with nc point contacts (see the module): M the mass
    matrix (nv × nv), J the contact Jacobians (3·nc × nv, rows per contact: tangential,
    tangential, normal), minus_tau (nv) the non-contact forces' −τ, v0 (nv) the velocities
    at the step's start, per contact fn0 = k·x0, the stiffness k, the dissipation d and the
    dynamic friction μ; v_stiction the stiction tolerance. Scratch: K (nv × nv), wv
    (VELOCITY_ROWS × nv), wc (nc × CONTACT_COLUMNS), of M's scalar type. Returns the number
    of substeps of h/n that succeeded (1 when the whole step did, as Drake's TamsiDriver
    tries n = 1, 2, ..., MAX_SUBSTEPS), 0 if every try failed."""
    nc, nv = wc.shape[0], v.shape[0]
    for j in range(nv):
        wv[MINUS_TAU, j] = minus_tau[j]
    for substeps in range(1, MAX_SUBSTEPS + 1):
        dt = h / substeps
        for j in range(nv):
            wv[V0, j] = v0[j]
        for ic in range(nc):
            wc[ic, FN0] = fn0[ic]
        status = SUCCESS
        for _ in range(substeps):
            for i in range(nv):  # p* = M·v0 − dt·(−τ)
                s = 0.0 * v0[0]
                for j in range(nv):
                    s += M[i, j] * wv[V0, j]
                wv[P_STAR, i] = s - dt * wv[MINUS_TAU, i]
            for j in range(nv):
                v[j] = wv[V0, j]
            status = _newton(M, J, stiffness, dissipation, mu, dt, v_stiction, v, f, K, wv, wc)
            if status != SUCCESS:
                break
            for j in range(nv):
                wv[V0, j] = v[j]
            for ic in range(nc):  # fn0 ← (fn0 − dt·k·vn)₊
                wc[ic, FN0] = _positive_part(wc[ic, FN0] - dt * stiffness[ic] * wc[ic, VN])
        if status == SUCCESS:
            return substeps
    return 0
