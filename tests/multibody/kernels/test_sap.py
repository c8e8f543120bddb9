"""kernels.sap, Drake's SAP solver, against closed forms: the minimizer of
ℓ(v) = ½‖v − v*‖²_A + Σ ℓ_c(J_c·v) for problems whose optimality conditions are linear (a
limit active or not, a coupler, an unsaturated or saturated PD controller), Drake's
regularization and bias from the Delassus estimate, locked velocities, and the stopping
criteria."""

import math

import numpy as np
import pytest

from mallard._compiled import kernels
from mallard.multibody import _layout
from mallard.multibody.plant._sap_driver import SapProblem, _failure

H = 0.01
NEAR_RIGID = 0.1 * 0.1 / (4.0 * math.pi * math.pi)  # β²/(4π²), β = 0.1
SETTINGS = dict(zip(_layout.SAP_SETTINGS[1:], range(1, len(_layout.SAP_SETTINGS)), strict=True))
NO_INT, NO_FLOAT = np.zeros((0, 6), dtype=np.int64), np.zeros((0, 6))


def _solver(k=None):
    """The address of SAP's compiled solver for the kernels ``k`` (compiled by default; 0
    interpreted: kernels.sap.solve)."""
    return (k or kernels(np.float64)).address("sap_solve_at")


def solve(A, v_star, v0, q, limits=(), pd=(), couplers=(), locked=None, clique=None, **settings):
    """The SapProblem with the joint constraints of ``limits`` ((v, q slot, lower, upper)),
    ``pd`` ((v, q slot, Kp, Kd, e, qd, vd, u0)) and ``couplers`` ((v0, v1, q0, q1, ρ, Δ))
    solved compiled (and the same interpreted, on object arrays: the same numbers); returns
    (problem, status)."""
    nv = len(v_star)
    sizes = _layout.SapSizes(nv, 2 * len(limits) + len(pd) + len(couplers), 4)
    clique = np.zeros(nv, dtype=np.int64) if clique is None else np.asarray(clique)
    locked = np.zeros(nv, dtype=np.int64) if locked is None else np.asarray(locked)
    clique_of = clique.tolist()
    args = (
        np.asarray(q, dtype=float),
        np.asarray(v0, dtype=float),
        np.array([(r[0], r[1], clique_of[r[0]]) for r in limits], dtype=np.int64).reshape(-1, 3),
        np.array([r[2:] for r in limits], dtype=float).reshape(-1, 2),
        np.array([(r[0], r[1], clique_of[r[0]]) for r in pd], dtype=np.int64).reshape(-1, 3),
        np.array([r[2:] for r in pd], dtype=float).reshape(-1, 6),
        np.array(
            [r[:4] + (clique_of[r[0]], clique_of[r[1]]) for r in couplers], dtype=np.int64
        ).reshape(-1, 6),
        np.array([r[4:] for r in couplers], dtype=float).reshape(-1, 2),
    )
    results = []
    for dtype in (np.float64, object):
        problem = SapProblem(sizes, H, clique, locked)
        for name, value in settings.items():
            problem.work.settings[SETTINGS[name]] = value
        sw = problem.sw.astype(dtype)
        work = _layout.SAP_WORKSPACE.views(sw, sizes)
        work.v_star[:] = v_star
        k = kernels(dtype)
        k.sap_add_joint_constraints(problem.si, sw, *(a.astype(dtype) for a in args[:2]), *args[2:])
        work.v[:] = v0
        A_ = np.asarray(A, dtype=float).astype(dtype)
        status = k.sap_solve(problem.si, sw, A_, np.zeros(nv, dtype=dtype), _solver(k))
        problem.sw[:] = sw.astype(float)
        results.append((problem, status))
    (compiled, status), (interpreted, status_interpreted) = results
    assert status == status_interpreted
    np.testing.assert_allclose(interpreted.sw, compiled.sw, rtol=1e-14, atol=1e-14)
    return compiled, status


def limit_R(w, h=H):
    """Drake's R of a joint limit of Delassus estimate w (stiffness 1e12, τ = h)."""
    return max(NEAR_RIGID * w, 1.0 / (h * 1e12 * (h + h)))


def test_an_active_limit_is_its_closed_form():
    """One dof of inertia a = 2 moving at −1 m/s onto its lower limit 1 mm away: the limit is
    active, γ = (v̂ − v)/R with R = β²/(4π²)·w, w = 1/a, v̂ = −g/(2h), and a·(v − v*) = γ."""
    a, q0, v0 = 2.0, 1e-3, -1.0
    v_star = v0 - 9.81 * H
    problem, status = solve([[a]], [v_star], [v0], [q0], limits=[(0, 0, 0.0, 0.5)])
    assert status == _layout.SAP_SUCCESS
    R, v_hat = limit_R(1.0 / a), -q0 / (2 * H)
    v = (a * v_star + v_hat / R) / (a + 1 / R)
    w = problem.work
    assert w.R[0] == R and w.v_hat[0] == v_hat and w.w[0] == 1.0 / a
    assert w.v[0] == pytest.approx(v, rel=1e-12)
    assert w.gamma[0] == pytest.approx((v_hat - v) / R, rel=1e-10)
    assert w.gamma[0] == pytest.approx(a * (w.v[0] - v_star), rel=1e-10)
    assert problem.table.counts[0] == 1 and problem.table.counts[1] == 1  # (upper not near)


def test_a_limit_moving_away_is_inactive_and_one_out_of_the_window_is_not_added():
    a = 2.0
    problem, status = solve([[a]], [0.3], [0.2], [1e-4], limits=[(0, 0, 0.0, 0.5)])
    assert status == _layout.SAP_SUCCESS
    assert problem.work.v[0] == 0.3 and problem.work.gamma[0] == 0.0
    # From the guess v0, one Newton step (the cost is quadratic where the limit is inactive).
    assert problem.statistics()["num_iters"] == 1
    # Drake's window: a limit is added when within q0 ± 2·h·max(|v0|, |v*|).
    q0 = 2 * H * 0.3 + 1e-9
    problem, _ = solve([[a]], [0.3], [-0.2], [q0], limits=[(0, 0, 0.0, 0.5)])
    assert problem.table.counts[0] == 0
    problem, _ = solve([[a]], [0.3], [-0.2], [q0 - 2e-9], limits=[(0, 0, 0.0, 0.5)])
    assert problem.table.counts[0] == 1


def test_limits_coupler_and_pd_on_a_box_of_three_dofs():
    """A = diag(a), dof 0 against its upper limit, dofs 1 and 2 coupled (q1 = 2·q2 + 0.1),
    dof 2 PD-controlled (unsaturated): the optimality conditions are linear, solved here."""
    a = np.array([1.5, 2.0, 0.5])
    q = np.array([0.4999, 0.31, 0.1])
    v0 = np.array([0.8, 0.1, -0.3])
    v_star = v0 + H * np.array([1.0, -2.0, 3.0])
    kp, kd, qd, vd, u0 = 30.0, 4.0, 0.2, 0.05, 0.7
    problem, status = solve(
        np.diag(a),
        v_star,
        v0,
        q,
        limits=[(0, 0, -1.0, 0.5)],
        pd=[(2, 2, kp, kd, math.inf, qd, vd, u0)],
        couplers=[(1, 2, 1, 2, 2.0, 0.1)],
    )
    assert status == _layout.SAP_SUCCESS
    w = problem.work
    # Drake's regularization: a limit's, a coupler's (near rigid: R = β²/(4π²)·w, τ = h),
    # and the PD gains (R = 1/(h·(h·Kp + Kd)) above the near-rigid bound: unchanged).
    R0 = limit_R(1 / a[0])
    w_coupler = 1 / a[1] + 4 / a[2]
    R1 = NEAR_RIGID * w_coupler
    assert w.w[:3] == pytest.approx([1 / a[0], 1 / a[2], w_coupler], rel=1e-15)
    assert w.R[[0, 2]] == pytest.approx([R0, R1], rel=1e-15)
    g0, g1 = 0.5 - q[0], q[1] - 2 * q[2] - 0.1
    assert w.v_hat[[0, 2]] == pytest.approx([-g0 / (2 * H), -g1 / (2 * H)], rel=1e-15)
    # Rows: limit (−v0), PD (v2), coupler (v1 − 2·v2). Solve a·(v − v*) = Jᵀ·γ with
    # γ0 = (v̂0 + v0)/R0, γ_pd = h·(−Kp·(q2 + h·v2 − qd) − Kd·(v2 − vd) + u0),
    # γ1 = (v̂1 − v1 + 2·v2)/R1: linear in v.
    K = np.diag(a)
    rhs = a * v_star
    K[0, 0] += 1 / R0  # −1·γ0 moved left: a0·v0 + v0/R0 = a0·v0* − v̂0/R0
    rhs[0] -= w.v_hat[0] / R0
    K[2, 2] += H * (H * kp + kd)
    rhs[2] += H * (-kp * (q[2] - qd) + kd * vd + u0)
    J = np.array([0.0, 1.0, -2.0])
    K += np.outer(J, J) / R1
    rhs += J * w.v_hat[2] / R1
    v = np.linalg.solve(K, rhs)
    np.testing.assert_allclose(w.v, v, rtol=1e-10, atol=1e-13)
    assert w.gamma[0] > 0  # the limit pushes
    # PD: the impulse is h·u of the controller at the step's end.
    u = -kp * (q[2] + H * v[2] - qd) - kd * (v[2] - vd) + u0
    assert w.gamma[1] == pytest.approx(H * u, rel=1e-9)


def test_a_saturated_pd_controller_applies_its_effort_limit():
    a, e = 2.0, 0.5
    problem, status = solve([[a]], [0.1], [0.1], [0.0], pd=[(0, 0, 100.0, 10.0, e, 1.0, 0, 0)])
    assert status == _layout.SAP_SUCCESS
    assert problem.work.gamma[0] == H * e
    assert problem.work.v[0] == pytest.approx(0.1 + H * e / a, rel=1e-14)


def test_stiff_pd_gains_are_clamped_in_the_near_rigid_regime_keeping_their_ratio():
    a, kp, kd = 2.0, 1e9, 1e6
    problem, _ = solve([[a]], [0.1], [0.1], [0.0], pd=[(0, 0, kp, kd, math.inf, 0.2, 0, 0)])
    par = problem.work.par[0]
    R_near_rigid = NEAR_RIGID / a
    kp_eff, kd_eff = par[7], par[8]  # (KP_EFF, KD_EFF)
    assert 1 / (H * (H * kp_eff + kd_eff)) == pytest.approx(R_near_rigid, rel=1e-12)
    assert kd_eff / kp_eff == pytest.approx(kd / kp, rel=1e-12)


def test_locked_velocities_keep_v_star_and_constraints_of_locked_cliques_are_dropped():
    """Two cliques: in the first, dof 0 is locked and dof 1 coupled to it (its row on dof 0
    dropped); the second (dof 2), entirely locked, has its limit constraint dropped."""
    a = np.array([1.0, 2.0, 3.0])
    v_star = np.array([0.5, 0.2, -0.4])
    problem, status = solve(
        np.diag(a),
        v_star,
        v_star,
        [0.0, 0.0, 0.0],
        limits=[(2, 2, -1e-4, 1.0)],
        couplers=[(1, 0, 1, 0, 1.0, 0.0)],
        locked=[1, 0, 1],
        clique=[0, 0, 1],
    )
    assert status == _layout.SAP_SUCCESS
    t, w = problem.table, problem.work
    assert t.counts[2] == 1 and t.participating[0] == 1  # only dof 1 participates
    assert list(t.constraints[:2, _layout.SAP_KEPT]) == [0, 1]
    assert w.v[0] == v_star[0] and w.v[2] == v_star[2]
    assert w.gamma[0] == 0.0  # the dropped limit
    R = NEAR_RIGID / a[1]  # the coupler on dof 1 alone
    v_hat = 0.0
    v1 = (a[1] * v_star[1] + v_hat / R) / (a[1] + 1 / R)
    assert w.v[1] == pytest.approx(v1, rel=1e-12)


def test_stopping_criteria():
    """Newton stops when ‖D·∇ℓ‖ ≤ εa + εr·max(‖D·p‖, ‖D·Jᵀγ‖), D = diag(A)^(−1/2), checked
    before each iteration; or when the cost stalls (|Δℓ| < εa' + εr'·ℓ, α > 0.5); it fails after
    max_iterations."""
    A = np.array([[2.0, 0.3], [0.3, 1.0]])
    args = (A, [-1.1, 0.4], [-1.0, 0.5], [1e-3, 0.0])
    limits = [(0, 0, 0.0, 1.0)]
    problem, status = solve(*args, limits=limits)
    stats = problem.statistics()
    assert status == _layout.SAP_SUCCESS and stats["optimality_criterion_reached"] == 1.0
    assert 1 <= stats["num_iters"] <= 3
    assert stats["momentum_residual"] <= 1e-14 + 1e-6 * stats["momentum_scale"]
    v = problem.work.v.copy()
    # From its own solution, no iteration at all.
    again = problem.sw.copy()
    again_work = _layout.SAP_WORKSPACE.views(again, problem.sizes)
    again_work.v[:] = v
    status = kernels(np.float64).sap_solve(problem.si, again, A, np.zeros(2), _solver())
    assert status == _layout.SAP_SUCCESS and again_work.stats[0] == 0  # num_iters
    np.testing.assert_array_equal(again_work.v, v)
    # Recomputed: the residual and scale the solver reports.
    gamma = problem.work.gamma[0]
    J = np.array([1.0, 0.0])
    grad = A @ (v - np.array(args[1])) - J * gamma
    D = 1 / np.sqrt(np.diag(A))
    assert stats["momentum_residual"] == pytest.approx(np.linalg.norm(D * grad), rel=1e-6)
    scale = max(np.linalg.norm(D * (A @ v)), np.linalg.norm(D * J * gamma))
    assert stats["momentum_scale"] == pytest.approx(scale, rel=1e-12)
    # No tolerance on the gradient: the cost criterion stops it.
    problem, status = solve(*args, limits=limits, abs_tolerance=0.0, rel_tolerance=0.0)
    stats = problem.statistics()
    assert status == _layout.SAP_SUCCESS and stats["cost_criterion_reached"] == 1.0
    np.testing.assert_allclose(problem.work.v, v, rtol=1e-9)
    # Out of iterations.
    problem, status = solve(*args, limits=limits, max_iterations=0)
    assert status == _layout.SAP_NOT_CONVERGED
    assert problem.statistics()["num_iters"] == 0


def test_failures_are_worded_as_drake():
    message = str(_failure(_layout.SAP_NOT_CONVERGED, 0.25))
    assert message.startswith(
        "The SAP solver failed to converge at simulation time = 0.25. Reasons for divergence "
        "and possible solutions include:\n  1. Externally applied actuation values diverged"
    )
    assert str(_failure(_layout.SAP_NOT_CONVERGED, 1.0)).startswith(
        "The SAP solver failed to converge at simulation time = 1. "
    )
    assert str(_failure(_layout.SAP_NO_DESCENT, 0.0)).startswith(
        "The cost does not decrease along the search direction."
    )


def test_every_failure_status_has_drakes_words():
    prefixes = {
        _layout.SAP_MOMENTUM_HESSIAN_NAN: "The Hessian of the momentum cost along the search "
        "direction is NaN. The typical root cause",
        _layout.SAP_MOMENTUM_HESSIAN_NOT_POSITIVE: "The Hessian of the momentum cost along the "
        "search direction is not positive.",
        _layout.SAP_CONSTRAINTS_HESSIAN_NAN: "The Hessian of the constraints cost along the "
        "search direction is NaN.",
        _layout.SAP_CONSTRAINTS_HESSIAN_NEGATIVE: "The Hessian of the constraints cost along "
        "the search direction is negative.",
        _layout.SAP_LINE_SEARCH_GUESS_NAN: "The initial guess for line search is NaN.",
        _layout.SAP_LINE_SEARCH_NOT_CONVERGED: "NewtonWithBisectionFallback did not converge.",
        _layout.SAP_HESSIAN_NOT_POSITIVE_DEFINITE: "The SAP solver's Hessian is not positive "
        "definite",
    }
    for status, prefix in prefixes.items():
        error = _failure(status, 0.0)
        assert isinstance(error, RuntimeError) and str(error).startswith(prefix)


def test_trees_coupled_out_of_order_solve_as_the_dense_system():
    """Six cliques (the third locked) and quadratic constraints (free impulses, compliant)
    coupling cliques that are not neighbours, in both orders, one clique with a constraint
    of its own only: the envelope factorization's solution is the dense one,
    (A + Jᵀ·R⁻¹·J)·v = A·v* + Jᵀ·R⁻¹·v̂ on the participating velocities, v* elsewhere."""
    rng = np.random.default_rng(7)
    clique = np.array([0, 0, 1, 1, 1, 2, 3, 3, 4, 4, 5, 5])
    locked = (clique == 2).astype(np.int64)
    nv = clique.size
    A = np.zeros((nv, nv))
    for c in range(6):
        dofs = np.flatnonzero(clique == c)
        X = rng.normal(size=(dofs.size, dofs.size))
        A[np.ix_(dofs, dofs)] = X @ X.T + dofs.size * np.eye(dofs.size)
    couples = [(0, 3, 2), (1, 4, 1), (3, -1, 1), (4, 0, 2), (2, 1, 1), (5, -1, 1), (4, 1, 1)]
    rows = np.array([(m, c0, c1) for c0, c1, m in couples], dtype=np.int64)
    J = np.zeros((rows[:, 0].sum(), nv))
    r = 0
    for c0, c1, m in couples:
        dofs = np.flatnonzero((clique == c0) | (clique == c1))
        J[r : r + m, dofs] = rng.normal(size=(m, dofs.size))
        r += m
    g = rng.normal(size=J.shape[0]) * 1e-3
    par = np.tile([-np.inf, np.inf, 1e4, 0.01, 0.1], (len(couples), 1))
    problem = SapProblem(_layout.SapSizes(nv, J.shape[0], len(couples)), H, clique, locked)
    w = problem.work
    w.v_star[:] = v_star = rng.normal(size=nv)
    kernels(np.float64).sap_add_holonomic_constraints(problem.si, problem.sw, rows, J, g, par)
    w.v[:] = v_star + 0.1
    status = kernels(np.float64).sap_solve(problem.si, problem.sw, A, np.zeros(nv), _solver())
    assert status == _layout.SAP_SUCCESS
    assert problem.statistics()["num_iters"] == 1  # (a quadratic cost: one Newton step)
    part = np.flatnonzero(locked == 0)
    np.testing.assert_array_equal(problem.table.participating[: part.size], part)
    Jp, R_inv = J[:, part], 1.0 / w.R
    Ap = A[np.ix_(part, part)]
    v = np.linalg.solve(
        Ap + Jp.T @ (R_inv[:, None] * Jp), Ap @ v_star[part] + Jp.T @ (R_inv * w.v_hat)
    )
    np.testing.assert_allclose(w.v[part], v, rtol=1e-10, atol=1e-12)
    assert w.v[5] == v_star[5]
