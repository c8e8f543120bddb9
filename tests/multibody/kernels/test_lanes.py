"""Lanes (kernels.lanes): compiled vector arithmetic is numpy's elementwise arithmetic, and the
poses of L states computed at once are the scalar kinematics' poses of each, to the last bit."""

import numba
import numpy as np

from mallard.multibody._kernels import compiled
from mallard.multibody._kernels.kinematics import (
    POSES,
    X_WB,
    calc_lane_poses,
    calc_lane_X_FM,
    calc_position_kinematics,
)
from mallard.multibody._kernels.lanes import L, transpose, vload, vstore
from mallard.multibody._layout import sin_cos_width

from .kernel_cases import _lane_poses_args, _position_kinematics_args


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


def test_lane_poses_are_the_scalar_poses_of_each_state():
    """The sample tree (revolute, reversed universal, quaternion floating, screw joints) at L
    states: calc_lane_X_FM + calc_lane_poses = calc_position_kinematics state by state."""
    rng = np.random.default_rng(5)
    tree, jparam, X_PF_MB, X_kind, qL, X_FML, sc, XL = _lane_poses_args(rng)
    nq = qL.shape[0] // L
    q_lanes = qL.reshape(nq, L)
    n = tree.shape[0]
    Q = np.ascontiguousarray(q_lanes.T)
    compiled(calc_lane_X_FM)(tree, jparam, Q, 0, L - 1, np.zeros((n, 4, 3)), X_FML)
    compiled(calc_lane_poses)(tree, jparam, X_PF_MB, X_kind, qL, X_FML, sc, XL)
    poses = XL.reshape(n, 12, L)
    for lane in range(L):
        args = list(_position_kinematics_args(np.random.default_rng(5)))
        args[4] = Q[lane]
        args[8] = POSES
        args[11] = np.zeros((3, sin_cos_width(nq)))
        compiled(calc_position_kinematics)(*args)
        np.testing.assert_array_equal(poses[:, :, lane], args[5][X_WB].reshape(n, 12))


@numba.njit
def _transposed(a, out):
    rows = transpose(vload(a, 0), vload(a, L), vload(a, 2 * L), vload(a, 3 * L))
    for i in range(4):
        vstore(out, i * L, rows[i])


def test_transpose():
    a = np.arange(16.0)
    out = np.zeros(16)
    _transposed(a, out)
    np.testing.assert_array_equal(out.reshape(4, 4), a.reshape(4, 4).T)
    rows = transpose(*a.reshape(4, 4))
    np.testing.assert_array_equal(np.array(rows), a.reshape(4, 4).T)
