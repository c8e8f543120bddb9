"""kernels.tamsi (Drake's TAMSI) and dense.lu_solve against their definitions: the linear
solve against numpy's, the transition-aware line search's cases by what each promises, and a
solved step's momentum balance, forces and friction cone."""

import math

import numpy as np
import pytest

from mallard._compiled import kernels
from mallard.multibody._kernels import tamsi
from mallard.multibody._kernels.dense import lu_solve
from tests.multibody.kernels.kernel_cases import _tamsi_args

VS = 1e-4  # the stiction tolerance


def test_lu_solve_pivots_and_solves():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(5, 5))
    A[0, 0] = 0.0  # (needs a row swap)
    b = rng.normal(size=5)
    x = b.copy()
    assert lu_solve(A.copy(), x)
    np.testing.assert_allclose(x, np.linalg.solve(A, b), rtol=1e-12)
    assert not lu_solve(np.zeros((2, 2)), np.ones(2))


def test_tals_small_steps_and_stiction_are_not_limited():
    assert tamsi._tals_alpha(1.0, 0.0, 1e-7, 0.0, VS) == 1.0  # ‖Δv‖ < 1e-2·vₛ
    assert tamsi._tals_alpha(0.5 * VS, 0.0, 0.3 * VS, 0.0, VS) == 1.0  # within stiction


def test_tals_from_rest_lands_at_half_the_stiction_tolerance():
    alpha = tamsi._tals_alpha(0.0, 0.0, 0.3, 0.4, VS)
    assert alpha * 0.5 == pytest.approx(VS / 2)


def test_tals_to_rest_stops_half_the_stiction_tolerance_short():
    alpha = tamsi._tals_alpha(0.3, 0.4, -0.3, -0.4, VS)
    assert (1 - alpha) * 0.5 == pytest.approx(VS / 2)


def test_tals_crossing_the_stiction_region_stops_at_its_closest_point():
    v, dv = np.array([1e-3, 0.5 * VS]), np.array([-2e-3, 0.0])  # passes vₛ/2 from rest
    alpha = tamsi._tals_alpha(*v, *dv, VS)
    assert alpha == pytest.approx(0.5)
    assert np.linalg.norm(v + alpha * dv) < VS


def test_tals_limits_a_turn_to_theta_max():
    v, dv = np.array([1.0, 0.0]), np.array([-1.0, 2.0])  # turns by 90°
    alpha = tamsi._tals_alpha(*v, *dv, VS)
    assert 0 < alpha < 1
    w = v + alpha * dv
    assert math.acos(v @ w / np.linalg.norm(w)) == pytest.approx(math.pi / 3, rel=1e-12)
    assert tamsi._tals_alpha(1.0, 0.0, 0.0, 0.5, VS) == 1.0  # (27°: not limited)


def test_a_solved_step_balances_momentum_with_its_forces():
    """The random case of kernel_cases: at the returned v, M·v = p* + h·Jᵀ·f to the solver's
    tolerance, fn = (1 − d·vn)₊(fn0 − h·k·vn)₊, and friction within the cone μ·fn, opposing
    the slip."""
    M, J, minus_tau, v0, fn0, k, d, mu, h, vs, v, f, *_ = args = _tamsi_args(
        np.random.default_rng(3)
    )
    assert kernels(np.float64).tamsi_step(*args) == 1
    p_star = M @ v0 - h * minus_tau
    residual = M @ v - p_star - h * J.T @ f
    assert np.linalg.norm(residual) < 1e-8 * np.linalg.norm(p_star)
    vc, fc = (J @ v).reshape(-1, 3), f.reshape(-1, 3)
    vn = vc[:, 2]
    expected = np.maximum(1 - d * vn, 0) * np.maximum(fn0 - h * k * vn, 0)
    np.testing.assert_allclose(fc[:, 2], expected, rtol=1e-12)
    ft = np.linalg.norm(fc[:, :2], axis=1)
    assert np.all(ft <= mu * fc[:, 2] * (1 + 1e-12))
    assert np.all(np.einsum("ij,ij->i", fc[:, :2], vc[:, :2]) <= 0)
