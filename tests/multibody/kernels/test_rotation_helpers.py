"""The rotation helpers of the kernels, checked against plain numpy formulas."""

import numpy as np
import pytest

from mallard._compiled import compiled
from mallard.multibody._kernels import rotation as rot


def skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


@pytest.fixture(params=["compiled", "interpreted"])
def run(request):
    """Calls a helper compiled or as plain Python; both must pass every truth test."""
    if request.param == "compiled":
        return lambda fn, *args: compiled(fn)(*args)
    return lambda fn, *args: fn(*args)


def test_rotation_constructors(run):
    a = np.random.default_rng(7).normal(size=3)
    a /= np.linalg.norm(a)
    theta = 0.7
    R_axis, R_rpy = np.empty((3, 3)), np.empty((3, 3))
    run(rot.rotation_about_axis, a, theta, R_axis)
    # Rodrigues by matrix exponential of the skew matrix, and the axis is fixed.
    K = skew(a)
    np.testing.assert_allclose(
        R_axis, np.eye(3) + np.sin(theta) * K + (1 - np.cos(theta)) * K @ K, atol=1e-14
    )
    np.testing.assert_allclose(R_axis @ a, a, atol=1e-14)
    # The (non-unit) quaternion of that rotation gives the same matrix.
    q = 3.0 * np.r_[np.cos(theta / 2), np.sin(theta / 2) * a]
    R_quat = np.array(run(rot.normalized_quaternion_rotation, *q)).reshape(3, 3)
    np.testing.assert_allclose(R_quat, R_axis, atol=1e-14)
    r, p, y = 0.3, -1.1, 2.0
    run(rot.rotation_from_rpy, np.array([r, p, y]), R_rpy)
    Rx, Ry, Rz = np.empty((3, 3)), np.empty((3, 3)), np.empty((3, 3))
    run(rot.rotation_about_axis, np.array([1.0, 0, 0]), r, Rx)
    run(rot.rotation_about_axis, np.array([0, 1.0, 0]), p, Ry)
    run(rot.rotation_about_axis, np.array([0, 0, 1.0]), y, Rz)
    np.testing.assert_allclose(R_rpy, Rz @ Ry @ Rx, atol=1e-14)
