"""Lanes (kernels.lanes, kernels.lane_views): compiled vector arithmetic is numpy's
elementwise arithmetic; kernels written for scalar arrays, run on lane views, compute each
state as they do alone, to the last bit."""

import numba
import numpy as np
import pytest

from mallard._compiled import kernels
from mallard.multibody._kernels import lane_views
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._numba_internals import compilation_listener
from mallard.multibody._kernels.dynamics import calc_body_inertias, calc_mass_matrix
from mallard.multibody._kernels.kinematics import COLUMNS, calc_position_kinematics
from mallard.multibody._kernels.lane_views import Lanes, lane_view
from mallard.multibody._kernels.lanes import (
    L,
    _clamp_scalar,
    clamp,
    positive,
    transpose,
    vload,
    vstore,
)
from mallard.multibody._kernels.views import model, parameters, workspace
from mallard.multibody._layout import INERTIAS, POSITIONS, WORKSPACE

from .kernel_cases import Sample


@numba.njit
def _arithmetic(a, b, out):
    x, y = vload(a, 0), vload(b, L)
    results = (x + y, x - y, x * y, x / y, -x, 2.0 + x, x - 3, 0.5 * y, y / 4.0, 1.0 / x)
    for i in range(len(results)):
        vstore(out, i * L, results[i])
    vstore(out, len(results) * L, 7.0)  # a scalar, in every lane


def test_compiled_lane_arithmetic_is_elementwise():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=L), rng.normal(size=2 * L)
    out = np.zeros(11 * L)
    _arithmetic(a, b, out)
    x, y = a, b[L:]
    expected = (x + y, x - y, x * y, x / y, -x, 2.0 + x, x - 3, 0.5 * y, y / 4.0, 1.0 / x)
    np.testing.assert_array_equal(out.reshape(11, L), np.vstack((*expected, np.full(L, 7.0))))


def test_interpreted_lanes_are_copies():
    a = np.arange(2.0 * L)
    x = vload(a, L)
    vstore(a, L, 0.0)
    np.testing.assert_array_equal(x, np.arange(L, 2.0 * L))
    np.testing.assert_array_equal(a[L:], np.zeros(L))


def test_compiled_lanes_return_to_python_as_tuples():
    a = np.arange(2.0 * L)
    assert numba.njit(lambda a: vload(a, 1))(a) == tuple(np.arange(1.0, 1.0 + L))


@numba.njit
def _transposed(a, out):
    rows = transpose(vload(a, 0), vload(a, L), vload(a, 2 * L), vload(a, 3 * L))
    for lane in range(L):
        vstore(out, 4 * lane, rows[lane])


def test_transpose():
    """Four lane values → L rows of four elements (lane l of each), compiled and interpreted."""
    a = np.arange(4.0 * L)
    out = np.zeros(4 * L)
    _transposed(a, out)
    np.testing.assert_array_equal(out.reshape(L, 4), a.reshape(4, L).T)
    np.testing.assert_array_equal(np.array(transpose(*a.reshape(4, L))), a.reshape(4, L).T)


@numba.njit
def _view_ops(a, b):
    A, B = lane_view(a), lane_view(b)
    B[0, 1] = A[1, 2] * A[0, 0]  # lanes
    B[1, 1] = 2.0  # a scalar, in every lane
    B[1, 2] += A[0, 1]
    C = B[1]  # a view of a row
    C[0] = -A[1, 1]
    return B.shape[0] * 10 + C.shape[0]


def test_lane_views_compiled_and_interpreted():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(2, 3, L))
    b1, b2 = np.zeros((2, 3, L)), np.zeros((2, 3, L))
    assert _view_ops(a, b1) == _view_ops.py_func(a, b2) == 23
    np.testing.assert_array_equal(b1, b2)
    np.testing.assert_array_equal(b1[0, 1], a[1, 2] * a[0, 0])
    np.testing.assert_array_equal(b1[1, 1], np.full(L, 2.0))
    np.testing.assert_array_equal(b1[1, 2], a[0, 1])
    np.testing.assert_array_equal(b1[1, 0], -a[1, 1])
    view = Lanes(a)
    element = view[0, 0]
    element[:] = 0.0  # a copy
    assert a[0, 0, 0] != 0.0 and view.shape == (2, 3)


@numba.njit
def _negative_indices_and_powers(a, b):
    A, B = lane_view(a), lane_view(b)
    B[-1, 0] = A[-2, -1] ** 2  # (negative indices count from the end, as numpy's)
    B[0, -2] = A[np.uint64(1), np.int32(-3)] ** 0.5 - 1
    B[-2, 1] = (2 - A[1, 0]) * 3
    column = B[:, 2]  # (a view of strided elements)
    column[-1] = A[0, 0] / column[0]


def test_lane_views_negative_indices_and_powers():
    rng = np.random.default_rng(2)
    a = rng.uniform(0.5, 2.0, size=(2, 3, L))
    b1, b2 = np.ones((2, 3, L)), np.ones((2, 3, L))
    _negative_indices_and_powers(a, b1)
    _negative_indices_and_powers.py_func(a, b2)
    np.testing.assert_array_equal(b1, b2)
    np.testing.assert_array_equal(b1[1, 0], a[0, 2] ** 2)


def test_lane_operations_compile_no_function_of_their_own():
    """Lane arithmetic and an element's lanes (loaded, stored) are lowered where they are used,
    as numba's operators on scalars are: compiling a function of them compiles no other
    function (but lane_view's, once per array type)."""
    compiled = []

    @numba.njit
    def lane_expression(a):
        A = lane_view(a)
        A[0, 0] = -(A[1, 1] * A[0, 1] + 1.0) / (2 - A[1, 0]) ** 2
        A[1, 1] -= 3 * A[0, 0]

    with compilation_listener(compiled.append, lambda: None):
        lane_expression(np.ones((2, 2, L)))
    assert compiled[0] == "lane_expression" and compiled[1:] in ([], ["<lambda>"])


@jitable
def _weighted_sum(a):
    """Σ (i + 1)·a[i] (a kernel lanes call lane by lane)."""
    total = 0.0
    for i in range(a.shape[0]):
        total += (i + 1) * a[i]
    return total


def _lane_by_lane_and_plain_py(a, b, out):
    A = lane_view(a)
    for j in range(lane_views.lane_count(A)):
        out[j] = _weighted_sum(lane_views.lane(A[1], j))  # (a strided lane)
    out[L] = _weighted_sum(lane_views.lane(b, 0))  # (a contiguous array: its only lane)


def test_a_kernel_called_lane_by_lane_and_on_arrays_is_compiled_once():
    """lane(a, j) of a lane view and of a plain array have one type (compiled, an array of any
    layout: lane_views.strided), so that a kernel called with both (the mobilizers' functions,
    from the kinematics in lanes and on a plain workspace) is compiled once, not once per
    layout, with the results of the interpreted code."""
    rng = np.random.default_rng(3)
    a, b = rng.uniform(size=(2, 3, L)), rng.uniform(size=3)
    out, expected = np.zeros(L + 1), np.zeros(L + 1)
    compiled = []
    with compilation_listener(compiled.append, lambda: None):
        numba.njit(_lane_by_lane_and_plain_py)(a, b, out)
    _lane_by_lane_and_plain_py(a, b, expected)
    np.testing.assert_array_equal(out, expected)
    assert compiled.count("_weighted_sum") == 1
    assert out[0] == a[1, 0, 0] + 2 * a[1, 1, 0] + 3 * a[1, 2, 0]


def _lanes_mass_matrix_py(mi, mf, xL, ws, wsL, M_L):
    """The batched mass matrix's kernels on lane views of xL, wsL and M_L (the parameters:
    ws's)."""
    m, x, work = model(mi, mf), lane_view(xL), workspace(mi, lane_view(wsL))
    params = parameters(mi, ws)
    calc_position_kinematics(m, params, work, x[0 : m.nq], COLUMNS, 0)
    calc_body_inertias(m, params, work)
    calc_mass_matrix(m, params, work, lane_view(M_L))


_lanes_mass_matrix = numba.njit(_lanes_mass_matrix_py)


# (compiled: ~20 s, numba compiling _lanes_mass_matrix, which it does not cache, every run)
@pytest.mark.parametrize("interpreted", [pytest.param(False, marks=pytest.mark.slow), True])
def test_kernels_on_lanes_compute_each_state_as_alone(interpreted):
    """Position kinematics (of every joint type: the sample plant's ball and universal joints
    go lane by lane), body inertias and mass matrix on lane views of L states = the same
    kernels on each state alone, to the last bit; they read no lane of the workspace but
    World's poses (the others hold NaN)."""
    s = Sample(np.random.default_rng(2))
    mi, mf, x, ws = s.mi, s.mf, s.x, s.staged()
    nq, nv, size = s.sizes.nq, s.sizes.nv, s.sizes.ws
    q_lanes = x[:nq, None] + 0.4 * np.random.default_rng(3).normal(size=(nq, L))
    xL = np.vstack((q_lanes, np.full((nv, L), np.nan)))
    wsL = np.full((size, L), np.nan)
    start = WORKSPACE.offsets(s.sizes)[WORKSPACE.names.index("X_pc")]
    X_pc = slice(start, start + 4 * s.sizes.n * 12)
    wsL[X_pc] = ws[X_pc, None]
    M_L = np.zeros((nv, nv, L))
    if interpreted:
        args = [a.astype(object) for a in (xL, ws, wsL, M_L)]
        _lanes_mass_matrix_py(mi, mf, args[0], args[1], args[2], args[3])
        M_L = args[3].astype(float)
    else:
        _lanes_mass_matrix(mi, mf, xL, ws, wsL, M_L)
    for lane in range(L):
        ws_alone = ws.copy()
        x_alone = np.concatenate((q_lanes[:, lane], np.zeros(nv)))
        compiled = kernels(np.float64)
        compiled.drive_mass_matrix(
            mi, mf, x_alone, ws_alone, POSITIONS | INERTIAS, compiled.address("stages_at")
        )
        M = WORKSPACE.views(ws_alone, s.sizes).M
        np.testing.assert_array_equal(M_L[:, :, lane], M)


@numba.njit
def _guards(a, limit, out):
    x = vload(a, 0)
    vstore(out, 0, clamp(x, limit))
    vstore(out, L, x**0.5)
    return positive(x), positive(a[0]), clamp(a[1], limit)


def test_guards_and_selections_of_lanes_and_scalars():
    """positive: every lane > 0 (NaN is not); clamp: as the scalar if/elif, lane by lane (inf
    clamped gives NaN, from 0·inf); x**0.5 of lanes is the scalar power of each lane."""
    limit = 1.5
    with np.errstate(invalid="ignore"):  # (0·inf, √−3)
        for case in (
            [0.5, 2.0, -3.0, np.nan],
            [0.5, 2.0, 3.0, 1e-300],
            [np.inf, -np.inf, 1.5, -1.5],
        ):
            a = np.resize(case, L)  # (repeated to fill the lanes)
            out = np.zeros(2 * L)
            all_positive, first_positive, clamped = _guards(a, limit, out)
            assert all_positive == bool(np.all(a > 0.0)) == positive(a)
            assert first_positive == (a[0] > 0.0)
            expected = [_clamp_scalar(x, limit) for x in a]
            np.testing.assert_array_equal(out[:L], expected)
            np.testing.assert_array_equal(clamp(a, limit), expected)
            assert clamped == _clamp_scalar(a[1], limit) or np.isnan(clamped)
            np.testing.assert_array_equal(out[L:], [x**0.5 for x in a])
