"""Drake's SAP solver (Castro et al., "An unconstrained convex formulation of compliant
contact", 2022; drake/multibody/contact_solvers/sap): a discrete step's velocities v as the
minimizer of the convex cost

    ℓ(v) = ½·‖v − v*‖²_A + Σ_c ℓ_c(J_c·v),

A the dynamics matrix (M + h·D), v* the free-motion velocities, ℓ_c the convex cost of each
constraint c as a function of its constraint velocities vc = J_c·v, with impulses
γ_c = −∂ℓ_c/∂vc and Hessian G_c = ∂²ℓ_c/∂vc². Newton's method with Drake's exact line search
(Newton with bisection on dℓ/dα), stopping criteria, parameters and regularization (R and the
bias v̂ from a diagonal estimate of the Delassus operator, as SapModel computes it).

The structure is the trees' (cliques'), as in Drake's supernodal solver: A is zero between
cliques, a constraint's rows of J are zero outside the columns of its cliques (the
participating velocities of a clique are consecutive: ``clique_columns``), so the products
with J (J·x, Jᵀ·γ, Jᵀ·G·J, the Delassus estimates) and with A run over those columns only, and
H = A + Jᵀ·G·J is zero left of its envelope: in a clique's rows, left of the first column of
the earliest clique a kept constraint couples it to (its own, or one before it). The Cholesky
factor L keeps that envelope (no fill left of it), so H is factored on it, a clique's rows
together (:func:`_factor`). The terms left out are exact zeros. For speed, the per-constraint
helpers take the arrays they use, not the workspace: numba counts the references of each
array of a namedtuple passed across a call.

The problem is in a SAP table ``si`` (int64: a header, then _layout.SAP_TABLE) and a SAP
workspace ``sw`` (_layout.SAP_WORKSPACE): per constraint, its kind, equations (rows of J and
g, on the plant's velocities), cliques (kinematic trees) and parameters. As in Drake's reduced
problem, the velocities of locked joints are known; the participating velocities are the
unlocked ones of the cliques the constraints touch; the others keep v = v*.

Constraint kinds and their ``par`` rows:

* SAP_BOUNDED, Drake's SapHolonomicConstraint with impulse bounds per equation: par = [γ lower,
  γ upper, stiffness k, relaxation time τ, near-rigid β]. Joint limits are Drake's
  SapLimitConstraint (rows g = q0 − ql and qu − q0, J = ±1, γ ≥ 0, k = 1e12, τ = h,
  β = 0.1), whose regularization, bias, cost, impulses and Hessian are this kind's for those
  values; couplers are SapCouplerConstraint (γ free, k = ∞, τ = 0, β = 0.1); ball and weld
  constraints SapBallConstraint and SapWeldConstraint (γ free, k = ∞, τ = 0, β = 0.1), distance
  constraints SapDistanceConstraint (γ free, k and τ = damping/k its parameters, β = 0.1),
  tendon constraints SapTendonConstraint (rows as a limit's, γ ≥ 0, k and τ = damping/k its
  parameters, β = 0.1: its cost, impulses and Hessian are this kind's), all appended with their
  rows of J and g by :func:`sap_add_holonomic_constraints`.
* SAP_PD_CONTROLLER, Drake's SapPdControllerConstraint (one equation, vc = the joint's v): par =
  [Kp, Kd, effort limit e, q0, qd, vd, u0, Kp_eff, Kd_eff], the effective gains set here.

* SAP_FRICTION_CONE, Drake's SapFrictionConeConstraint (kSap's contact; 3 equations: the contact
  velocities in the contact frame, tangential then normal; g = [0, 0, φ0]): par = [μ, k, τd,
  β, σ, μ̃, μ̂] (the last two set by _make_data).
* SAP_HUNT_CROSSLEY, Drake's SapHuntCrossleyConstraint (kSimilar's and kLagged's contact; rows as
  SAP_FRICTION_CONE's): par = [lagged (1) or similar (0), μ, k, d, v_s, σ, fe0, vn0, n0, ε] (the
  last two set by _make_data).

Adding a kind: its constant, its branch in :func:`_make_data` (R, v̂ from the Delassus estimate
w) and in :func:`_impulses` (γ, cost, G block), and an entry point that appends its rows, as
:func:`sap_add_joint_constraints`, :func:`sap_add_holonomic_constraints` and
:func:`sap_add_contact_constraints` do.
"""

import math

import numpy as np
from numba import carray
from numba.extending import overload

from mallard._compiled import by_address, entry_point
from mallard.multibody._kernels._by_address import address_of, call_at
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.views import sap_table, sap_workspace
from mallard.multibody._layout import (
    SAP_BOUNDED,
    SAP_CLIQUE0,
    SAP_CLIQUE1,
    SAP_CONSTRAINTS_HESSIAN_NAN,
    SAP_CONSTRAINTS_HESSIAN_NEGATIVE,
    SAP_FRICTION_CONE,
    SAP_HESSIAN_NOT_POSITIVE_DEFINITE,
    SAP_HUNT_CROSSLEY,
    SAP_KEPT,
    SAP_KIND,
    SAP_LINE_SEARCH_GUESS_NAN,
    SAP_LINE_SEARCH_NOT_CONVERGED,
    SAP_MOMENTUM_HESSIAN_NAN,
    SAP_MOMENTUM_HESSIAN_NOT_POSITIVE,
    SAP_NO_DESCENT,
    SAP_NOT_CONVERGED,
    SAP_PD_CONTROLLER,
    SAP_SIZE,
    SAP_START,
    SAP_SUCCESS,
)

# par columns of a SAP_BOUNDED constraint.
GAMMA_LOWER, GAMMA_UPPER, STIFFNESS, RELAXATION_TIME, BETA = 0, 1, 2, 3, 4
# par columns of a SAP_PD_CONTROLLER constraint.
KP, KD, EFFORT_LIMIT, Q0, QD, VD, U0, KP_EFF, KD_EFF = 0, 1, 2, 3, 4, 5, 6, 7, 8
# par columns of a contact constraint: SAP_FRICTION_CONE, then SAP_HUNT_CROSSLEY's (LAGGED: 1 for
# kLagged, 0 for kSimilar); the last two of each are set by _make_data.
MU, CONTACT_STIFFNESS, DISSIPATION_TIME_SCALE, CONTACT_BETA, SIGMA, MU_TILDE, MU_HAT = range(7)
LAGGED, HC_MU, HC_STIFFNESS, HC_DISSIPATION, STICTION_TOLERANCE, HC_SIGMA = range(6)
FE0, VN0, N0, EPSILON_SOFT = 6, 7, 8, 9
#: Drake's soft norm tolerance of SapFrictionConeConstraint (‖yt‖ ≈ √(‖yt‖² + 1e-14)).
_SOFT_TOLERANCE_SQUARED = 1.0e-7 * 1.0e-7

# settings entries (_layout.SAP_SETTINGS).
TIME_STEP, ABS_TOLERANCE, REL_TOLERANCE, COST_ABS_TOLERANCE, COST_REL_TOLERANCE = 0, 1, 2, 3, 4
MAX_ITERATIONS, LS_MAX_ITERATIONS, LS_ALPHA_MAX = 5, 6, 7
# stats entries (_layout.SAP_STATS).
NUM_ITERS, NUM_LS_ITERS, OPTIMALITY_REACHED, COST_REACHED, COST = 0, 1, 2, 3, 4
MOMENTUM_RESIDUAL, MOMENTUM_SCALE = 5, 6

#: Drake's relative tolerance on f = −ℓ'(α)/ℓ'(0) of its exact line search.
_LINE_SEARCH_F_TOLERANCE = 1.0e-8
#: Drake's near-rigid parameter of its PD controller constraint.
_PD_BETA = 0.1


# ---- the participating problem ----------------------------------------------------------------
@jitable
def _participating_problem(t, w, M, diagonal):
    """Marks the constraints kept (a clique with an unlocked velocity) and lists the
    participating velocities (the unlocked velocities of the cliques of kept constraints, in
    the plant's order); sets A = (M + diag(diagonal)), v*, the guess v and J on them (A on
    its cliques' blocks, J on its constraints' cliques' columns: the rest is zero and never
    read) and each clique's envelope (:func:`_envelope`). Returns their number n."""
    nc, nv = t.counts[0], t.clique.shape[0]
    table, clique, locked, mark = t.constraints, t.clique, t.locked, t.mark
    for i in range(nv):
        mark[i] = 0
    for i in range(nv):
        if locked[i] == 0:
            mark[clique[i]] = 1
    for c in range(nc):
        c0, c1 = table[c, SAP_CLIQUE0], table[c, SAP_CLIQUE1]
        kept = mark[c0] != 0 or (c1 >= 0 and mark[c1] != 0)
        table[c, SAP_KEPT] = 1 if kept else 0
        if kept:
            if mark[c0] != 0:
                mark[c0] = 2
            if c1 >= 0 and mark[c1] != 0:
                mark[c1] = 2
    columns = t.clique_columns
    for i in range(nv):
        columns[i, 0], columns[i, 1] = 0, 0
    n = 0
    for i in range(nv):
        if locked[i] == 0 and mark[clique[i]] == 2:
            t.participating[n] = i
            if columns[clique[i], 1] == 0:
                columns[clique[i], 0] = n
            columns[clique[i], 1] = n + 1
            n += 1
    t.counts[2] = n
    part = t.participating
    # The envelope: per clique, the first column of its rows of H (its own, or that of a
    # clique before it that a kept constraint couples it to).
    for a in range(n):
        mark[clique[part[a]]] = columns[clique[part[a]], 0]
    for c in range(nc):
        c0, c1 = table[c, SAP_CLIQUE0], table[c, SAP_CLIQUE1]
        if table[c, SAP_KEPT] != 0 and c1 >= 0 and columns[c0, 1] > 0 and columns[c1, 1] > 0:
            mark[c0] = min(mark[c0], columns[c1, 0])
            mark[c1] = min(mark[c1], columns[c0, 0])
    A = w.A
    for a in range(n):
        i = part[a]
        block = columns[clique[i]]
        for b in range(block[0], block[1]):
            A[a, b] = M[i, part[b]]
        A[a, a] += diagonal[i]
        w.vp_star[a] = w.v_star[i]
        w.vp[a] = w.v[i]
    J, Jp = w.J, w.Jp
    for c in range(nc):
        if table[c, SAP_KEPT] == 0:
            continue
        first, end, first2, end2 = _columns(t.constraints, t.clique_columns, c)
        for r in range(table[c, SAP_START], table[c, SAP_START] + table[c, SAP_SIZE]):
            for a in range(first, end):
                Jp[r, a] = J[r, part[a]]
            for a in range(first2, end2):
                Jp[r, a] = J[r, part[a]]
    for a in range(n):
        w.p_star[a] = _A_times(t, A, w.vp_star, a)
        w.inv_sqrt_A[a] = (1.0 / A[a, a]) ** 0.5
    return n


@jitable(inline=True)
def _envelope(t, a):
    """The first column of row a of H's envelope (set by :func:`_participating_problem`):
    H's rows are zero left of it, and so are those of its Cholesky factor L."""
    return t.mark[t.clique[t.participating[a]]]


@jitable(inline=True)
def _A_times(t, A, x, a):
    """(A·x)[a], over the columns of a's clique (A = M + h·D is zero between trees)."""
    columns = t.clique_columns[t.clique[t.participating[a]]]
    s = 0.0
    for b in range(columns[0], columns[1]):
        s += A[a, b] * x[b]
    return s


@jitable(inline=True)
def _columns(table, columns, c):
    """(first, end, first', end'): the participating columns where constraint c's rows of J
    may be nonzero, those of its cliques (``columns``: t.clique_columns), the lower range
    first (one range, the second empty, if they overlap)."""
    c0, c1 = table[c, SAP_CLIQUE0], table[c, SAP_CLIQUE1]
    a0, a1 = columns[c0, 0], columns[c0, 1]
    if c1 < 0 or columns[c1, 1] == 0:
        return a0, a1, 0, 0
    b0, b1 = columns[c1, 0], columns[c1, 1]
    if a1 == 0:
        return b0, b1, 0, 0
    if a1 <= b0:
        return a0, a1, b0, b1
    if b1 <= a0:
        return b0, b1, a0, a1
    return min(a0, b0), max(a1, b1), 0, 0


@jitable
def _make_data(t, w, n):
    """Each kept constraint's Delassus estimate w (SapModel's: ‖W_c‖_F / n_c, with W_c =
    J_c·diag(A)⁻¹·J_cᵀ), regularization R and bias v̂, and a PD controller's effective gains
    (Drake's DoMakeData of each constraint kind)."""
    h = w.settings[TIME_STEP]
    table, Jp, A, par = t.constraints, w.Jp, w.A, w.par
    for c in range(t.counts[0]):
        if table[c, SAP_KEPT] == 0:
            continue
        s, m = table[c, SAP_START], table[c, SAP_SIZE]
        first, end, first2, end2 = _columns(t.constraints, t.clique_columns, c)
        norm2 = 0.0
        for a in range(m):
            for b in range(m):
                W_ab = 0.0
                for j in range(first, end):
                    W_ab += Jp[s + a, j] * (1.0 / A[j, j]) * Jp[s + b, j]
                for j in range(first2, end2):
                    W_ab += Jp[s + a, j] * (1.0 / A[j, j]) * Jp[s + b, j]
                norm2 += W_ab * W_ab
        delassus = norm2**0.5 / m
        for a in range(m):
            w.w[s + a] = delassus
        if table[c, SAP_KIND] == SAP_BOUNDED:
            beta = par[c, BETA]
            R_near_rigid = beta * beta / (4.0 * math.pi * math.pi) * delassus
            tau = par[c, RELAXATION_TIME]
            R_compliant = 1.0 / (h * (h + tau) * par[c, STIFFNESS])
            R = max(R_compliant, R_near_rigid)
            if R_compliant < R_near_rigid:  # near rigid: critically damped at the time step
                tau = h
            for a in range(m):
                w.R[s + a] = R
                w.R_inv[s + a] = 1.0 / R
                w.v_hat[s + a] = -(w.g[s + a] / (h + tau))
        elif table[c, SAP_KIND] == SAP_FRICTION_CONE:
            _make_friction_cone_data(par[c], w.R, w.R_inv, w.v_hat, w.g, s, h, delassus)
        elif table[c, SAP_KIND] == SAP_HUNT_CROSSLEY:
            _make_hunt_crossley_data(par[c], w.R, w.R_inv, w.v_hat, s, h, delassus)
        else:  # SAP_PD_CONTROLLER
            R_near_rigid = _PD_BETA * _PD_BETA / (4.0 * math.pi * math.pi) * delassus
            Kp, Kd = par[c, KP], par[c, KD]
            Kp_eff, Kd_eff = Kp, Kd
            if 1.0 / (h * (h * Kp + Kd)) < R_near_rigid:  # keeping Kd/Kp, R = R_near_rigid
                if h * Kp > Kd:
                    tau = Kd / Kp
                    Kp_eff = 1.0 / (h * (h + tau) * R_near_rigid)
                    Kd_eff = tau * Kp_eff
                else:
                    tau_inv = Kp / Kd
                    Kd_eff = 1.0 / (h * (1.0 + h * tau_inv) * R_near_rigid)
                    Kp_eff = tau_inv * Kd_eff
            par[c, KP_EFF] = Kp_eff
            par[c, KD_EFF] = Kd_eff


@jitable
def _make_friction_cone_data(par, R, R_inv, v_hat, g, s, h, delassus):
    """Drake's SapFrictionConeConstraint::DoMakeData (the three Delassus estimates equal):
    Rt = σ·w, Rn = max(β²/(4π²)·w, 1/(h·k·(h + τd))), v̂ = [0, 0, −φ0/(h + τd)], μ̃ =
    μ·√(Rt/Rn), μ̂ = μ·Rt/Rn."""
    beta = par[CONTACT_BETA]
    taud = par[DISSIPATION_TIME_SCALE]
    Rn = max(beta * beta / (4.0 * math.pi * math.pi) * delassus,
             1.0 / (h * par[CONTACT_STIFFNESS] * (h + taud)))  # fmt: skip
    Rt = par[SIGMA] * delassus
    for a in range(3):
        R_a = Rt if a < 2 else Rn
        R[s + a] = R_a
        R_inv[s + a] = 1.0 / R_a
        v_hat[s + a] = 0.0 * R_a
    v_hat[s + 2] = -g[s + 2] / (h + taud)
    par[MU_TILDE] = par[MU] * (Rt / Rn) ** 0.5
    par[MU_HAT] = par[MU] * Rt / Rn


@jitable
def _make_hunt_crossley_data(par, R, R_inv, v_hat, s, h, delassus):
    """Drake's SapHuntCrossleyConstraint::DoMakeData: n0 = max(0, h·fe0)·max(0, 1 − d·vn0)
    and the soft norm's ε = max(vs, μ·Rt·n0), Rt = σ·w."""
    Rt = par[HC_SIGMA] * delassus
    damping = max(0.0, 1.0 - par[HC_DISSIPATION] * par[VN0])
    n0 = max(0.0, h * par[FE0]) * damping
    par[N0] = n0
    par[EPSILON_SOFT] = max(par[STICTION_TOLERANCE], par[HC_MU] * Rt * n0)
    for a in range(3):
        R[s + a] = 1.0
        R_inv[s + a] = 1.0
        v_hat[s + a] = 0.0


@jitable
def _clamp_antiderivative(x, e):
    """The antiderivative of clamp(x, ±e) that is zero at x = 0."""
    if x < -e:
        return -e * (x + e / 2)
    if x <= e:
        return x * x / 2
    return e * (x - e / 2)


@jitable
def _impulses(t, w, vc, gamma, hessian):
    """γ (into ``gamma``) of every kept constraint at the constraint velocities ``vc`` and,
    if ``hessian``, the rows of its Hessian block G_c (into w.G); returns Σ_c ℓ_c(vc)."""
    h = w.settings[TIME_STEP]
    table, par, G = t.constraints, w.par, w.G
    cost = 0.0
    for c in range(t.counts[0]):
        if table[c, SAP_KEPT] == 0:
            continue
        s, m = table[c, SAP_START], table[c, SAP_SIZE]
        if table[c, SAP_KIND] == SAP_BOUNDED:
            lower, upper = par[c, GAMMA_LOWER], par[c, GAMMA_UPPER]
            for a in range(m):
                i = s + a
                y = w.R_inv[i] * (w.v_hat[i] - vc[i])
                w.y[i] = y
                gamma[i] = min(max(y, lower), upper)
                if y < lower:
                    cost -= lower * vc[i]
                elif y > upper:
                    cost -= upper * vc[i]
                else:
                    cost += 0.5 * w.R[i] * y * y
                if hessian:
                    for b in range(m):
                        G[i, b] = 0.0
                    if lower < y and y < upper:
                        G[i, a] = w.R_inv[i]
        elif table[c, SAP_KIND] == SAP_FRICTION_CONE:
            cost += _friction_cone_impulses(
                par[c], w.R, w.R_inv, w.v_hat, w.y, G, s, vc, gamma, hessian
            )
        elif table[c, SAP_KIND] == SAP_HUNT_CROSSLEY:
            cost += _hunt_crossley_impulses(par[c], G, s, h, vc, gamma, hessian)
        else:  # SAP_PD_CONTROLLER
            Kp, Kd, e = par[c, KP_EFF], par[c, KD_EFF], par[c, EFFORT_LIMIT]
            v = vc[s]
            q = par[c, Q0] + h * v
            y = -Kp * (q - par[c, QD]) - Kd * (v - par[c, VD]) + par[c, U0]
            w.y[s] = y
            common_factor = h * Kp + Kd
            cost += h * _clamp_antiderivative(y, e) / common_factor
            gamma[s] = h * (-e if y < -e else (e if e < y else y))
            if hessian:
                G[s, 0] = h * common_factor if -e <= y and y <= e else 0.0
    return cost


@jitable(inline=True)
def _friction_cone_impulses(par, R, R_inv, v_hat, y, G, s, vc, gamma, hessian):
    """Drake's SapFrictionConeConstraint at the contact velocities vc[s:s + 3] (tangential,
    normal): y = R⁻¹·(v̂ − vc) projected onto the friction cone (stiction: γ = y; sliding:
    γn = (yn + μ̂·yr)/(1 + μ̃²), γt = μ·γn·t̂; no contact: 0), the cost ½·γᵀ·R·γ and the 3×3
    Hessian block G = ∂P/∂y·R⁻¹. Returns the cost."""
    mu, mu_hat, mu_tilde = par[MU], par[MU_HAT], par[MU_TILDE]
    y0 = R_inv[s] * (v_hat[s] - vc[s])
    y1 = R_inv[s + 1] * (v_hat[s + 1] - vc[s + 1])
    yn = R_inv[s + 2] * (v_hat[s + 2] - vc[s + 2])
    y[s], y[s + 1], y[s + 2] = y0, y1, yn
    yr = (y0 * y0 + y1 * y1 + _SOFT_TOLERANCE_SQUARED) ** 0.5
    if yr <= mu * yn:  # stiction
        g0, g1, gn = y0, y1, yn
        if hessian:
            for a in range(3):
                for b in range(3):
                    G[s + a, b] = R_inv[s + a] if a == b else 0.0
    elif -mu_hat * yr < yn and mu * yn < yr:  # sliding (yn < yr/μ)
        t0, t1 = y0 / yr, y1 / yr
        factor = 1.0 / (1.0 + mu_tilde * mu_tilde)
        gn = (yn + mu_hat * yr) * factor
        g0, g1 = mu * gn * t0, mu * gn * t1
        if hessian:
            # [∂γt/∂yt ∂γt/∂yn; ∂γn/∂yt ∂γn/∂yn], then columns scaled by R⁻¹.
            P00, P01, P11 = t0 * t0, t0 * t1, t1 * t1
            a_perp = mu * gn / yr
            a_par = mu * mu_hat * factor
            G[s, 0] = a_perp * (1.0 - P00) + a_par * P00
            G[s, 1] = -a_perp * P01 + a_par * P01
            G[s + 1, 0] = G[s, 1]
            G[s + 1, 1] = a_perp * (1.0 - P11) + a_par * P11
            G[s, 2] = mu * factor * t0
            G[s + 1, 2] = mu * factor * t1
            G[s + 2, 0] = mu_hat * factor * t0
            G[s + 2, 1] = mu_hat * factor * t1
            G[s + 2, 2] = factor
            for a in range(3):
                for b in range(3):
                    G[s + a, b] = G[s + a, b] * R_inv[s + b]
    else:  # no contact
        g0, g1, gn = 0.0 * y0, 0.0 * y1, 0.0 * yn
        if hessian:
            for a in range(3):
                for b in range(3):
                    G[s + a, b] = 0.0
    gamma[s], gamma[s + 1], gamma[s + 2] = g0, g1, gn
    return 0.5 * (R[s] * g0 * g0 + R[s + 1] * g1 * g1 + R[s + 2] * gn * gn)


@jitable
def _hunt_crossley_impulse(par, h, vn):
    """Drake's discrete Hunt–Crossley normal impulse n(vn) = h·fe·(1 + d·ẋ), fe = fe0 + h·k·ẋ,
    ẋ = −vn (zero when either factor is not positive), and its derivative dn/dvn."""
    k, d = par[HC_STIFFNESS], par[HC_DISSIPATION]
    xdot = -vn
    fe = par[FE0] + h * k * xdot
    damping = 1.0 + d * xdot
    if fe <= 0.0 or damping <= 0.0:
        return 0.0 * vn, 0.0 * vn
    return h * fe * damping, -h * (k * h * damping + d * fe)


@jitable
def _hunt_crossley_antiderivative(par, h, vn):
    """Drake's N(vn), the antiderivative of n(vn) (vn clamped to min(fe0/(h·k), 1/d))."""
    k, d, fe0 = par[HC_STIFFNESS], par[HC_DISSIPATION], par[FE0]
    v_hat = min(fe0 / h / (k + 1.0e-20), 1.0 / (d + 1.0e-20))
    v = min(vn, v_hat)
    df = -h * k * v
    return h * (v * (fe0 + 0.5 * df) - d * v * v / 2.0 * (fe0 + 2.0 / 3.0 * df))


@jitable(inline=True)
def _hunt_crossley_impulses(par, G, s, h, vc, gamma, hessian):
    """Drake's SapHuntCrossleyConstraint (kSimilar, kLagged) at the contact velocities
    vc[s:s + 3]: the soft tangential speed ‖vt‖ₛ = √(‖vt‖² + ε²) − ε, z = vn − μ·‖vt‖ₛ
    (similar) or vn (lagged), γ = [−μ·n·t̂ₛ, n(z)] with n = n(z) (similar) or n0 (lagged),
    cost −N(z) (+ μ·‖vt‖ₛ·n0 lagged) and its Hessian block. Returns the cost."""
    mu, eps, n0 = par[HC_MU], par[EPSILON_SOFT], par[N0]
    lagged = par[LAGGED] != 0.0
    v0, v1, vn = vc[s], vc[s + 1], vc[s + 2]
    vt_soft = (v0 * v0 + v1 * v1 + eps * eps) ** 0.5 - eps
    t0, t1 = v0 / (vt_soft + eps), v1 / (vt_soft + eps)
    z = vn if lagged else vn - mu * vt_soft
    n, dn = _hunt_crossley_impulse(par, h, z)
    N = _hunt_crossley_antiderivative(par, h, z)
    n_friction = n0 if lagged else n
    gamma[s], gamma[s + 1], gamma[s + 2] = -mu * n_friction * t0, -mu * n_friction * t1, n
    if hessian:
        P00, P01, P11 = t0 * t0, t0 * t1, t1 * t1
        if lagged:
            a_perp, a_par = mu * n0 / (vt_soft + eps), 0.0
            Gtn0, Gtn1 = 0.0, 0.0
        else:
            a_perp, a_par = mu * n / (vt_soft + eps), -mu * mu * dn
            Gtn0, Gtn1 = mu * dn * t0, mu * dn * t1
        G[s, 0] = a_par * P00 + a_perp * (1.0 - P00)
        G[s, 1] = a_par * P01 - a_perp * P01
        G[s + 1, 0] = G[s, 1]
        G[s + 1, 1] = a_par * P11 + a_perp * (1.0 - P11)
        G[s, 2], G[s + 1, 2] = Gtn0, Gtn1
        G[s + 2, 0], G[s + 2, 1] = Gtn0, Gtn1
        G[s + 2, 2] = -dn
    if lagged:
        return -N + mu * vt_soft * n0
    return -N


# ---- cost, gradient, search direction -----------------------------------------------------------
@jitable
def _times_J(t, w, n, x, out):
    """out = J·x on the kept constraints' rows."""
    table, Jp = t.constraints, w.Jp
    for c in range(t.counts[0]):
        if table[c, SAP_KEPT] == 0:
            continue
        first, end, first2, end2 = _columns(t.constraints, t.clique_columns, c)
        for r in range(table[c, SAP_START], table[c, SAP_START] + table[c, SAP_SIZE]):
            s = 0.0
            for j in range(first, end):
                s += Jp[r, j] * x[j]
            for j in range(first2, end2):
                s += Jp[r, j] * x[j]
            out[r] = s


@jitable(inline=True)
def _dot(a, b, n):
    s = 0.0
    for i in range(n):
        s += a[i] * b[i]
    return s


@jitable
def _cost(t, w, n, cost_R):
    """At the iterate v: vc = J·v, γ and G (unless ``cost_R``, the constraints' cost, is not
    NaN: then w's vc, γ and G are those at v already), p = A·v, jc = Jᵀ·γ and ∇ℓ = A·(v − v*)
    − Jᵀ·γ. Returns (ℓ, the momentum cost ½‖v − v*‖²_A)."""
    v, A = w.vp, w.A
    if cost_R != cost_R:
        _times_J(t, w, n, v, w.vc)
        cost_R = _impulses(t, w, w.vc, w.gamma_p, True)
    table, Jp = t.constraints, w.Jp
    cost_A = 0.0
    for a in range(n):
        p = _A_times(t, A, v, a)
        w.p[a] = p
        cost_A += 0.5 * (v[a] - w.vp_star[a]) * (p - w.p_star[a])
        w.jc[a] = 0.0
    for c in range(t.counts[0]):
        if table[c, SAP_KEPT] == 0:
            continue
        first, end, first2, end2 = _columns(t.constraints, t.clique_columns, c)
        for r in range(table[c, SAP_START], table[c, SAP_START] + table[c, SAP_SIZE]):
            for a in range(first, end):
                w.jc[a] += Jp[r, a] * w.gamma_p[r]
            for a in range(first2, end2):
                w.jc[a] += Jp[r, a] * w.gamma_p[r]
    for a in range(n):
        w.grad[a] = (w.p[a] - w.p_star[a]) - w.jc[a]
    return cost_A + cost_R, cost_A


@jitable
def _assemble_hessian(t, w, n):
    """The lower triangle of H = A + Jᵀ·G·J at the iterate (G from :func:`_cost`), on its
    envelope (:func:`_envelope`)."""
    table, Jp, G, GJ, H, A = t.constraints, w.Jp, w.G, w.GJ, w.H, w.A
    columns = t.clique_columns
    for a in range(n):
        block = columns[t.clique[t.participating[a]], 0]
        for b in range(_envelope(t, a), block):
            H[a, b] = 0.0 * A[a, a]
        for b in range(block, a + 1):
            H[a, b] = A[a, b]
    for c in range(t.counts[0]):
        if table[c, SAP_KEPT] == 0:
            continue
        s, m = table[c, SAP_START], table[c, SAP_SIZE]
        first, end, first2, end2 = _columns(t.constraints, t.clique_columns, c)
        if m == 3:
            _add_contact_JtGJ(Jp, G, GJ, H, s, first, end, first2, end2)
        else:
            _add_JtGJ(Jp, G, GJ, H, s, m, first, end, first2, end2)


@jitable
def _add_contact_JtGJ(Jp, G, GJ, H, s, first, end, first2, end2):
    """:func:`_add_JtGJ` for a constraint of 3 rows (a contact's), its loops over them
    unrolled (a function of its own: numba inlines a function once per caller)."""
    _add_JtGJ(Jp, G, GJ, H, s, 3, first, end, first2, end2)


@jitable(inline=True)
def _add_JtGJ(Jp, G, GJ, H, s, m, first, end, first2, end2):
    """H += J_cᵀ·G_c·J_c on the lower triangle, for the constraint of the m rows of J from s
    on, whose columns are [first, end) and [first2, end2): GJ = G_c·J_c, then H[i, j] +=
    J[r, i]·GJ[r, j] for each row r in order, summed in a register (an entry J[r, i] = 0
    adds exact zeros: skipped)."""
    for q in range(2):
        lo, hi = (first, end) if q == 0 else (first2, end2)
        for r in range(s, s + m):
            for j in range(lo, hi):
                GJ_rj = 0.0
                for b in range(m):
                    GJ_rj += G[r, b] * Jp[s + b, j]
                GJ[r, j] = GJ_rj
    for q in range(2):
        lo, hi = (first, end) if q == 0 else (first2, end2)
        for i in range(lo, hi):
            for p in range(2):
                j0, j1 = (first, min(end, i + 1)) if p == 0 else (first2, min(end2, i + 1))
                for j in range(j0, j1):
                    H_ij = H[i, j]
                    for r in range(s, s + m):
                        J_ri = Jp[r, i]
                        if J_ri != 0.0:
                            H_ij += J_ri * GJ[r, j]
                    H[i, j] = H_ij


@jitable
def _factor(t, w, n):
    """The Cholesky factor L·Lᵀ = H (w.L's lower triangle, and its transpose in w.L's upper
    triangle for :func:`_factor_solve`'s rows of Lᵀ; H's from :func:`_assemble_hessian`) on
    H's envelope, which L's rows keep (no fill left of a row's first nonzero): the entry
    (i, j) sums over the columns where rows i and j both may be nonzero, from the later of
    their envelopes' first columns (the terms left out are exact zeros), in their order. A
    clique's rows (one envelope) at once, column by column (the supernodes of Drake's
    solver, which factors the same matrix by the blocks of its trees). Returns False if H
    is not positive definite."""
    H, L, columns = w.H, w.L, t.clique_columns
    envelope, clique, part = t.mark, t.clique, t.participating
    lo = 0
    while lo < n:
        c = clique[part[lo]]
        hi, first = columns[c, 1], envelope[c]
        for j in range(first, hi):
            top = max(lo, j)  # (the rows at and below the diagonal)
            k0 = max(first, envelope[clique[part[j]]])
            for i in range(top, hi):
                L_ij = H[i, j]
                for k in range(k0, j):
                    L_ij -= L[i, k] * L[j, k]
                L[i, j] = L_ij
            if j >= lo:
                if not L[j, j] > 0.0:
                    return False
                L[j, j] = L[j, j] ** 0.5
                top += 1
            L_jj = L[j, j]
            for i in range(top, hi):
                L_ij = L[i, j] / L_jj
                L[i, j] = L_ij
                L[j, i] = L_ij
        lo = hi
    return True


@jitable
def _factor_solve(t, w, n, x):
    """x = H⁻¹·x in place, with L from :func:`_factor`: L·y = x, then Lᵀ·x = y, row by row,
    each row's sum over the columns of L's envelope in order (the entries of Lᵀ's row i: the
    rows after i of its clique and of the later cliques whose envelope starts at or before
    i)."""
    L, columns = w.L, t.clique_columns
    envelope, clique, part = t.mark, t.clique, t.participating
    for i in range(n):
        s = x[i]
        for k in range(envelope[clique[part[i]]], i):
            s -= L[i, k] * x[k]
        x[i] = s / L[i, i]
    stop = n
    for i in range(n - 1, -1, -1):
        c = clique[part[i]]
        if i == columns[c, 1] - 1:  # a clique's last row: the end of the last clique after
            stop = i + 1  # it whose envelope reaches its rows (the same for all of them)
            k = i + 1
            while k < n:
                d = clique[part[k]]
                k = columns[d, 1]
                if envelope[d] <= columns[c, 0]:
                    stop = k
        s = x[i]
        k = i + 1
        while k < stop:
            d = clique[part[k]]
            end = columns[d, 1]
            if envelope[d] <= i:
                for r in range(k, end):
                    s -= L[i, r] * x[r]  # (L[r, i], from L's upper triangle)
            k = end
        x[i] = s / L[i, i]


@jitable
def _search_direction(t, w, n):
    """Δv = −H⁻¹·∇ℓ with H = A + Jᵀ·G·J at the iterate (G from :func:`_cost`), J·Δv, A·Δv;
    returns (status, d²ℓ_A/dα² = Δvᵀ·A·Δv)."""
    A = w.A
    _assemble_hessian(t, w, n)
    if not _factor(t, w, n):
        return SAP_HESSIAN_NOT_POSITIVE_DEFINITE, 0.0
    for a in range(n):
        w.dv[a] = -w.grad[a]
    _factor_solve(t, w, n, w.dv)
    _times_J(t, w, n, w.dv, w.dvc)
    for a in range(n):
        w.dp[a] = _A_times(t, A, w.dv, a)
    d2ellA = _dot(w.dv, w.dp, n)
    if d2ellA != d2ellA:
        return SAP_MOMENTUM_HESSIAN_NAN, d2ellA
    if not d2ellA > 0.0:
        return SAP_MOMENTUM_HESSIAN_NOT_POSITIVE, d2ellA
    return SAP_SUCCESS, d2ellA


@jitable
def _cost_along_line(t, w, n, alpha, cost_A, d2ellA, dp_dv):
    """(ℓ, dℓ/dα, d²ℓ/dα², status, the constraints' cost) at v + α·Δv (Drake's
    CalcCostAlongLine: the momentum cost from its expansion in α, dp_dv = A·Δv·(v − v*) its
    first order term; the constraints' at J·(v + α·Δv), whose vc, γ and G it leaves in w)."""
    v, dv, v_alpha, dp, v_star = w.vp, w.dv, w.v_alpha, w.dp, w.vp_star
    dp_dva = 0.0
    for a in range(n):
        v_alpha_a = v[a] + alpha * dv[a]
        v_alpha[a] = v_alpha_a
        dp_dva += dp[a] * (v_alpha_a - v_star[a])
    _times_J(t, w, n, v_alpha, w.vc)
    cost_R = _impulses(t, w, w.vc, w.gamma_p, True)
    ell = cost_A + alpha * dp_dv + 0.5 * alpha * alpha * d2ellA + cost_R
    table, G = t.constraints, w.G
    dell = dp_dva
    d2ellR = 0.0
    for c in range(t.counts[0]):
        if table[c, SAP_KEPT] == 0:
            continue
        s, m = table[c, SAP_START], table[c, SAP_SIZE]
        for a in range(m):
            dell -= w.dvc[s + a] * w.gamma_p[s + a]
            Gdvc = 0.0
            for b in range(m):
                Gdvc += G[s + a, b] * w.dvc[s + b]
            d2ellR += w.dvc[s + a] * Gdvc
    if d2ellR != d2ellR:
        return ell, dell, d2ellR, SAP_CONSTRAINTS_HESSIAN_NAN, cost_R
    if d2ellR < 0.0:
        return ell, dell, d2ellR, SAP_CONSTRAINTS_HESSIAN_NEGATIVE, cost_R
    return ell, dell, d2ellA + d2ellR, SAP_SUCCESS, cost_R


@jitable(inline=True)
def _signbit(x):
    return math.copysign(1.0, x) < 0.0


@jitable
def _exact_line_search(t, w, n, cost_A, d2ellA):
    """Drake's exact line search: α minimizing ℓ(v + α·Δv) in (0, α_max], the root of dℓ/dα
    by Newton's method with bisection (DoNewtonWithBisectionFallback) on f(α) = dℓ/dα /
    (−dℓ/dα(0)). Returns (α, evaluations, status, the constraints' cost at α if w's vc, γ and
    G are those at α (the last evaluation's), else NaN)."""
    settings = w.settings
    nan = math.nan
    dell0 = _dot(w.grad, w.dv, n)
    if dell0 >= 0.0:
        return 1.0, 0, SAP_NO_DESCENT, nan
    alpha_max = settings[LS_ALPHA_MAX]
    dp_dv = 0.0
    for a in range(n):
        dp_dv += w.dp[a] * (w.vp[a] - w.vp_star[a])
    ell, dell, d2ell, status, cost_R = _cost_along_line(t, w, n, alpha_max, cost_A, d2ellA, dp_dv)
    if status != SAP_SUCCESS:
        return alpha_max, 0, status, nan
    if dell <= 0.0:  # still decreasing at α_max
        return alpha_max, 0, SAP_SUCCESS, cost_R
    if -dell0 < settings[COST_ABS_TOLERANCE] + settings[COST_REL_TOLERANCE] * ell:
        return 1.0, 0, SAP_SUCCESS, nan  # a gradient at round-off: a full Newton step
    scale = -dell0
    alpha_guess = min(-dell0 / d2ell, alpha_max)
    if alpha_guess != alpha_guess:
        return alpha_max, 0, SAP_LINE_SEARCH_GUESS_NAN, nan
    # The bracket [0, α_max] (f(0) = −1 < 0 < f(α_max)).
    x_lower, f_lower, x_upper, f_upper = 0.0, dell0 / scale, alpha_max, dell / scale
    f_tolerance = _LINE_SEARCH_F_TOLERANCE
    x_tolerance = f_tolerance * alpha_guess
    if abs(f_lower) < f_tolerance:
        return x_lower, 0, SAP_SUCCESS, nan
    if abs(f_upper) < f_tolerance:
        return x_upper, 0, SAP_SUCCESS, cost_R
    root = alpha_guess
    minus_dx = x_lower - x_upper
    minus_dx_previous = minus_dx
    max_iterations = int(settings[LS_MAX_ITERATIONS])
    for evaluations in range(1, max_iterations + 1):
        ell, dell, d2ell, status, cost_R = _cost_along_line(t, w, n, root, cost_A, d2ellA, dp_dv)
        if status != SAP_SUCCESS:
            return root, evaluations, status, nan
        f, df = dell / scale, d2ell / scale
        if _signbit(f) != _signbit(f_upper):
            x_lower, f_lower = root, f
        else:
            x_upper, f_upper = root, f
        if abs(f) < f_tolerance:
            return root, evaluations, SAP_SUCCESS, cost_R
        newton_is_slow = 2.0 * abs(f) > abs(minus_dx_previous * df)
        minus_dx_previous = minus_dx
        bisect = newton_is_slow
        if not newton_is_slow:
            minus_dx = f / df
            root = root - minus_dx
            bisect = not (x_lower <= root and root <= x_upper)
        if bisect:
            minus_dx = 0.5 * (x_lower - x_upper)
            root = x_lower - minus_dx
        if abs(minus_dx) < x_tolerance:
            return root, evaluations, SAP_SUCCESS, nan
    return root, max_iterations, SAP_LINE_SEARCH_NOT_CONVERGED, nan


@jitable
def _newton(t, w, n):
    """Drake's SapSolver::SolveWithGuessImpl from the iterate v: Newton iterations until the
    optimality criterion ‖D·∇ℓ‖ ≤ εa + εr·max(‖D·p‖, ‖D·jc‖) (D = diag(A)^(−1/2), p = A·v,
    jc = Jᵀ·γ) or the cost criterion |Δℓ| < εa' + εr'·ℓ (with α > 0.5) holds, checked before
    each iteration (none when the guess satisfies them). Statistics into w.stats; returns the
    status."""
    settings, stats = w.settings, w.stats
    ell, cost_A = _cost(t, w, n, math.nan)
    alpha = 1.0
    cost_reached = False
    k = 0
    line_search_iterations = 0
    status = SAP_NOT_CONVERGED
    max_iterations = int(settings[MAX_ITERATIONS])
    while True:
        residual2 = 0.0
        p2 = 0.0
        jc2 = 0.0
        for a in range(n):
            d = w.inv_sqrt_A[a]
            residual2 += (d * w.grad[a]) ** 2
            p2 += (d * w.p[a]) ** 2
            jc2 += (d * w.jc[a]) ** 2
        residual, scale = residual2**0.5, max(p2**0.5, jc2**0.5)
        optimality = residual <= settings[ABS_TOLERANCE] + settings[REL_TOLERANCE] * scale
        stats[OPTIMALITY_REACHED] = 1.0 if optimality else 0.0
        stats[COST_REACHED] = 1.0 if cost_reached else 0.0
        stats[COST] = ell
        stats[MOMENTUM_RESIDUAL] = residual
        stats[MOMENTUM_SCALE] = scale
        if optimality or cost_reached:
            status = SAP_SUCCESS
            break
        if k == max_iterations:
            break
        direction, d2ellA = _search_direction(t, w, n)
        if direction != SAP_SUCCESS:
            status = direction
            break
        alpha, evaluations, search, cost_R = _exact_line_search(t, w, n, cost_A, d2ellA)
        if search != SAP_SUCCESS:
            status = search
            break
        line_search_iterations += evaluations
        for a in range(n):
            w.vp[a] += alpha * w.dv[a]
        ell_previous = ell
        ell, cost_A = _cost(t, w, n, cost_R)  # (the line search's impulses at α, if it has them)
        cost_reached = (
            abs(ell_previous - ell)
            < settings[COST_ABS_TOLERANCE]
            + settings[COST_REL_TOLERANCE] * 0.5 * (abs(ell) + abs(ell_previous))
            and alpha > 0.5
        )
        k += 1
    stats[NUM_ITERS] = k
    stats[NUM_LS_ITERS] = line_search_iterations
    return status


# ---- entry points ------------------------------------------------------------------------------
@jitable
def _solve(t, w, M, diagonal):
    """:func:`sap_solve` on the views of its arrays."""
    n = _participating_problem(t, w, M, diagonal)
    status = SAP_SUCCESS
    if n > 0:
        _make_data(t, w, n)
        status = _newton(t, w, n)
    else:
        w.stats[NUM_ITERS] = 0.0
    for i in range(w.v.shape[0]):
        w.v[i] = w.v_star[i]
    for a in range(n):
        w.v[t.participating[a]] = w.vp[a]
    table = t.constraints
    for c in range(t.counts[0]):
        for r in range(table[c, SAP_START], table[c, SAP_START] + table[c, SAP_SIZE]):
            w.gamma[r] = w.gamma_p[r] if table[c, SAP_KEPT] != 0 else 0.0
    return status


@by_address
def sap_solve_at(si, si_size, sw, sw_size, M, nv, diagonal):
    """SAP's one compiled solver (kernels._by_address), which :func:`solve` calls compiled:
    :func:`sap_solve` with si, sw, M (nv × nv) and diagonal (nv) as the addresses of their
    data (C-contiguous) and their sizes."""
    si = carray(pointer(si), si_size, np.int64)
    sw = carray(pointer(sw), sw_size, np.float64)
    M = carray(pointer(M), (nv, nv), np.float64)
    diagonal = carray(pointer(diagonal), nv, np.float64)
    return _solve(sap_table(si, si), sap_workspace(si, sw), M, diagonal)


def solve(si, sw, M, diagonal, solver):
    """:func:`sap_solve`: interpreted, here; compiled, by SAP's one compiled solver, at the
    address ``solver`` (``Kernels.address("sap_solve_at")``), called, not linked into the
    caller's code (si, sw, M and diagonal C-contiguous)."""
    return _solve(sap_table(si, si), sap_workspace(si, sw), M, diagonal)


@overload(solve)
def _solve_compiled(si, sw, M, diagonal, solver):
    def impl(si, sw, M, diagonal, solver):
        sizes = (address_of(si), si.shape[0], address_of(sw), sw.shape[0], address_of(M))
        return call_at(solver, sizes + (M.shape[0], address_of(diagonal)))

    return impl


@entry_point
@jitable(inline=True)
def sap_solve(si, sw, M, diagonal, solver):
    """Solves the SAP problem of (si, sw) with the dynamics matrix A = M + diag(diagonal) (M
    the plant's nv × nv mass matrix), from the guess sw's ``v``: into ``v`` the solution (v*
    for the velocities that do not participate), into ``gamma`` the impulses (zero for the
    constraints of locked cliques), ``stats``. Returns SAP_SUCCESS or the failure's status.
    ``solver``: the address of SAP's compiled solver (``Kernels.address("sap_solve_at")``, 0
    interpreted: :func:`solve`)."""
    return solve(si, sw, M, diagonal, solver)


@jitable
def _gradient(t, w, M, diagonal):
    """:func:`sap_gradient` on the views of its arrays."""
    n = _participating_problem(t, w, M, diagonal)
    if n > 0:
        _make_data(t, w, n)
        _cost(t, w, n, math.nan)
        _assemble_hessian(t, w, n)
        H = w.H
        for i in range(n):
            for j in range(_envelope(t, i)):
                H[i, j] = 0.0 * H[i, i]
            for j in range(i):
                H[j, i] = H[i, j]
    return n


@entry_point
@jitable(inline=True)
def sap_gradient(si, sw, M, diagonal):
    """The SAP problem of (si, sw) (A = M + diag(diagonal)) at sw's ``v``: its participating
    velocities (as sap_solve lists them), and at them the cost's gradient ∇ℓ (sw's ``grad``),
    the impulses (``gamma_p``) and the Hessian H = ∂∇ℓ/∂v (``H``, full): the optimality
    condition m(v; θ) = ∇ℓ = 0 and its Jacobian, by which Drake's SapSolver<AutoDiffXd>
    differentiates the solution (dv/dθ = −H⁻¹·∂m/∂θ). Returns their number."""
    return _gradient(sap_table(si, si), sap_workspace(si, sw), M, diagonal)


@jitable
def _new_row(w, r):
    """Zeroes row r of J; returns it."""
    for j in range(w.J.shape[1]):
        w.J[r, j] = 0.0
    return w.J[r]


@jitable
def _add_constraint(t, w, kind, size, clique0, clique1):
    """Appends a constraint of ``size`` equations to the table; returns (its index, its first
    equation)."""
    c, r = t.counts[0], t.counts[1]
    row = t.constraints[c]
    row[SAP_KIND], row[SAP_START], row[SAP_SIZE] = kind, r, size
    row[SAP_CLIQUE0], row[SAP_CLIQUE1], row[SAP_KEPT] = clique0, clique1, 1
    for i in range(w.par.shape[1]):
        w.par[c, i] = 0.0
    t.counts[0], t.counts[1] = c + 1, r + size
    return c, r


@jitable
def _add_joint_constraints(t, w, q, v0, limits, limit_bounds, pd, pd_values, couplers,
                           coupler_values):  # fmt: skip
    """Appends the constraints Drake's SapDriver adds for joints, in its order, with sw's
    time step h and free-motion velocities v*:

    * the limits (``limits`` rows: v slot, q slot, clique; ``limit_bounds`` rows: lower,
      upper) within the window q0 ± 2·h·max(|v0|, |v*|) (kLimitWindowFactor), one constraint
      per joint with a row for each of its limits in the window;
    * the PD controllers (``pd`` rows: v slot, q slot, clique; ``pd_values`` rows: Kp, Kd,
      effort limit, qd, vd, u0);
    * the couplers q₀ = ρ·q₁ + Δ (``couplers`` rows: v slots, q slots and cliques of joints 0
      and 1; ``coupler_values`` rows: ρ, Δ).

    Returns the number of constraints in the table."""
    h = w.settings[TIME_STEP]
    inf = math.inf
    for i in range(limits.shape[0]):
        iv, iq = limits[i, 0], limits[i, 1]
        q0 = q[iq]
        delta_q = h * max(abs(v0[iv]), abs(w.v_star[iv]))
        lower, upper = limit_bounds[i, 0], limit_bounds[i, 1]
        has_lower = not lower < q0 - 2.0 * delta_q and lower > -inf
        has_upper = not upper > q0 + 2.0 * delta_q and upper < inf
        if not (has_lower or has_upper):
            continue
        c, r = _add_constraint(t, w, SAP_BOUNDED, int(has_lower) + int(has_upper), limits[i, 2], -1)
        w.par[c, GAMMA_UPPER] = inf
        w.par[c, STIFFNESS] = 1.0e12
        w.par[c, RELAXATION_TIME] = h
        w.par[c, BETA] = 0.1
        if has_lower:
            _new_row(w, r)[iv] = 1.0
            w.g[r] = q0 - lower
            r += 1
        if has_upper:
            _new_row(w, r)[iv] = -1.0
            w.g[r] = upper - q0
    for i in range(pd.shape[0]):
        c, r = _add_constraint(t, w, SAP_PD_CONTROLLER, 1, pd[i, 2], -1)
        _new_row(w, r)[pd[i, 0]] = 1.0
        w.g[r] = 0.0
        values = pd_values[i]
        w.par[c, KP], w.par[c, KD], w.par[c, EFFORT_LIMIT] = values[0], values[1], values[2]
        w.par[c, Q0], w.par[c, QD], w.par[c, VD] = q[pd[i, 1]], values[3], values[4]
        w.par[c, U0] = values[5]
    for i in range(couplers.shape[0]):
        clique0, clique1 = couplers[i, 4], couplers[i, 5]
        c, r = _add_constraint(t, w, SAP_BOUNDED, 1, clique0, clique1 if clique1 != clique0 else -1)
        rho, offset = coupler_values[i, 0], coupler_values[i, 1]
        J = _new_row(w, r)
        J[couplers[i, 0]] = 1.0
        J[couplers[i, 1]] = -rho
        w.g[r] = q[couplers[i, 2]] - rho * q[couplers[i, 3]] - offset
        w.par[c, GAMMA_LOWER], w.par[c, GAMMA_UPPER] = -inf, inf
        w.par[c, STIFFNESS], w.par[c, BETA] = inf, 0.1
    return t.counts[0]


@entry_point
@jitable(inline=True)
def sap_add_joint_constraints(si, sw, q, v0, limits, limit_bounds, pd, pd_values, couplers,
                              coupler_values):  # fmt: skip
    """:func:`_add_joint_constraints` into the SAP problem (si, sw)."""
    return _add_joint_constraints(
        sap_table(si, si), sap_workspace(si, sw), q, v0, limits, limit_bounds, pd, pd_values,
        couplers, coupler_values,
    )  # fmt: skip


@jitable
def _add_holonomic_constraints(t, w, rows, J, g, par):
    """Appends SAP_BOUNDED constraints given whole: per constraint, ``rows`` (its number of
    equations m, its cliques: the second −1 for one) and ``par`` (γ lower, γ upper, stiffness,
    relaxation time, β), and its next m rows of ``J`` (on the plant's velocities) and ``g``.
    Returns the number of constraints in the table."""
    first = 0
    for i in range(rows.shape[0]):
        m = rows[i, 0]
        c, r = _add_constraint(t, w, SAP_BOUNDED, m, rows[i, 1], rows[i, 2])
        for a in range(m):
            for j in range(J.shape[1]):
                w.J[r + a, j] = J[first + a, j]
            w.g[r + a] = g[first + a]
        for k in range(BETA + 1):
            w.par[c, k] = par[i, k]
        first += m
    return t.counts[0]


@jitable
def _add_contact_constraints(t, w, kind, rows, J, phi0, par):
    """Appends one contact constraint of ``kind`` (SAP_FRICTION_CONE or SAP_HUNT_CROSSLEY) per
    row of ``rows`` (its cliques: the second −1 for one), with its 3 rows of ``J`` (the contact
    Jacobian in the contact frame C: tangential, tangential, normal), g = [0, 0, φ0] and its
    ``par`` row. Returns the number of constraints in the table."""
    for i in range(rows.shape[0]):
        c, r = _add_constraint(t, w, kind, 3, rows[i, 0], rows[i, 1])
        for a in range(3):
            for j in range(J.shape[1]):
                w.J[r + a, j] = J[3 * i + a, j]
            w.g[r + a] = 0.0
        w.g[r + 2] = phi0[i]
        for k in range(par.shape[1]):
            w.par[c, k] = par[i, k]
    return t.counts[0]


@entry_point
@jitable(inline=True)
def sap_add_contact_constraints(si, sw, kind, rows, J, phi0, par):
    """:func:`_add_contact_constraints` into the SAP problem (si, sw)."""
    return _add_contact_constraints(
        sap_table(si, si), sap_workspace(si, sw), kind, rows, J, phi0, par
    )


@entry_point
@jitable(inline=True)
def sap_add_holonomic_constraints(si, sw, rows, J, g, par):
    """:func:`_add_holonomic_constraints` into the SAP problem (si, sw)."""
    return _add_holonomic_constraints(sap_table(si, si), sap_workspace(si, sw), rows, J, g, par)
