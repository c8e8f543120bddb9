"""The spatial-algebra and rotation helpers, checked against plain numpy formulas."""

import numpy as np
import pytest

from mallard._compiled import compiled
from mallard.multibody._kernels import rotation as rot
from mallard.multibody._kernels import spatial

rng = np.random.default_rng(7)


def skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def random_rotation():
    q = rng.normal(size=4)
    return np.array(compiled(rot.normalized_quaternion_rotation)(*q)).reshape(3, 3)


def point_mass_unit_inertia(p):
    return p @ p * np.eye(3) - np.outer(p, p)


@pytest.fixture(params=["compiled", "interpreted"])
def run(request):
    """Calls a helper compiled or as plain Python; both must pass every truth test."""
    if request.param == "compiled":
        return lambda fn, *args: compiled(fn)(*args)
    return lambda fn, *args: fn(*args)


def test_cross_rotate(run):
    a, b = rng.normal(size=3), rng.normal(size=3)
    out = np.empty(3)
    run(spatial.cross, a, b, out)
    np.testing.assert_allclose(out, np.cross(a, b), rtol=1e-14)
    run(spatial.cross, a, b, a)  # out aliasing an input is allowed
    np.testing.assert_allclose(a, out, rtol=1e-14)
    R = random_rotation()
    run(spatial.rotate, R, b, out)
    np.testing.assert_allclose(out, R @ b, rtol=1e-14)
    run(spatial.rotate_transpose, R, b, out)
    np.testing.assert_allclose(out, R.T @ b, rtol=1e-14)


def test_compose_and_invert_poses(run):
    R_AB, R_BC = random_rotation(), random_rotation()
    p_AB, p_BC = rng.normal(size=3), rng.normal(size=3)
    R_AC, p_AC = np.empty((3, 3)), np.empty(3)
    run(spatial.compose_poses, R_AB, p_AB, R_BC, p_BC, R_AC, p_AC)
    X_AB = np.eye(4)
    X_AB[:3, :3], X_AB[:3, 3] = R_AB, p_AB
    X_BC = np.eye(4)
    X_BC[:3, :3], X_BC[:3, 3] = R_BC, p_BC
    X_AC = X_AB @ X_BC
    np.testing.assert_allclose(R_AC, X_AC[:3, :3], atol=1e-14)
    np.testing.assert_allclose(p_AC, X_AC[:3, 3], atol=1e-14)
    R_BA, p_BA = np.empty((3, 3)), np.empty(3)
    run(spatial.invert_pose, R_AB, p_AB, R_BA, p_BA)
    X_BA = np.linalg.inv(X_AB)
    np.testing.assert_allclose(R_BA, X_BA[:3, :3], atol=1e-14)
    np.testing.assert_allclose(p_BA, X_BA[:3, 3], atol=1e-14)


def test_rotate_spatial(run):
    R, V = random_rotation(), rng.normal(size=6)
    out = np.empty(6)
    run(spatial.rotate_spatial, R, V, out)
    np.testing.assert_allclose(out, np.r_[R @ V[:3], R @ V[3:]], rtol=1e-14)


def test_shifts_are_rigid_and_preserve_power(run):
    V_P, F_P, p_PQ = rng.normal(size=6), rng.normal(size=6), rng.normal(size=3)
    V_Q, F_Q = np.empty(6), np.empty(6)
    run(spatial.shift_motion, V_P, p_PQ, V_Q)
    run(spatial.shift_force, F_P, p_PQ, F_Q)
    w, v = V_P[:3], V_P[3:]
    np.testing.assert_allclose(V_Q, np.r_[w, v + np.cross(w, p_PQ)], rtol=1e-14)
    np.testing.assert_allclose(F_Q, np.r_[F_P[:3] - np.cross(p_PQ, F_P[3:]), F_P[3:]], rtol=1e-14)
    # Power is independent of the point about which both are taken.
    assert V_Q @ F_Q == pytest.approx(V_P @ F_P, rel=1e-13)
    # Shifting back returns the original.
    back = np.empty(6)
    run(spatial.shift_motion, V_Q, -p_PQ, back)
    np.testing.assert_allclose(back, V_P, rtol=1e-13)


def test_spatial_cross_products(run):
    V, U, F = rng.normal(size=6), rng.normal(size=6), rng.normal(size=6)
    w, v = skew(V[:3]), skew(V[3:])
    crm = np.block([[w, np.zeros((3, 3))], [v, w]])
    out = np.empty(6)
    run(spatial.cross_motion, V, U, out)
    np.testing.assert_allclose(out, crm @ U, rtol=1e-13)
    run(spatial.cross_force, V, F, out)
    np.testing.assert_allclose(out, -crm.T @ F, rtol=1e-13)
    # (V ×ₘ U)·F + U·(V ×f F) = 0: the force cross product is the dual of the motion one.
    a, b = np.empty(6), np.empty(6)
    run(spatial.cross_motion, V, U, a)
    run(spatial.cross_force, V, F, b)
    assert a @ F + U @ b == pytest.approx(0.0, abs=1e-12)


def test_spatial_inertia_times_matches_6x6_matrix(run):
    m, p = 2.5, rng.normal(size=3)
    A = rng.normal(size=(3, 3))
    G_Scm = A @ A.T + np.eye(3)
    G_SP = G_Scm + point_mass_unit_inertia(p)
    M = np.block([[m * G_SP, m * skew(p)], [-m * skew(p), m * np.eye(3)]])
    V, out = rng.normal(size=6), np.empty(6)
    run(spatial.spatial_inertia_times, m, p, G_SP, V, out)
    np.testing.assert_allclose(out, M @ V, rtol=1e-13)
    # Kinetic energy ½ VᵀMV equals ½ m |v_cm|² + ½ wᵀ I_cm w.
    w, v = V[:3], V[3:]
    v_cm = v + np.cross(w, p)
    ke = 0.5 * m * v_cm @ v_cm + 0.5 * w @ (m * G_Scm) @ w
    assert 0.5 * V @ out == pytest.approx(ke, rel=1e-13)


def test_unit_inertia_reexpress_and_shift(run):
    points = rng.normal(size=(50, 3)) + [0.3, -0.2, 0.5]  # a unit-mass cloud, 1/50 each

    def cloud_unit_inertia(about):
        return sum(point_mass_unit_inertia(q - about) for q in points) / len(points)

    p_PScm = points.mean(axis=0)
    G_SP = cloud_unit_inertia(np.zeros(3))
    p_PQ = rng.normal(size=3)
    out = np.empty((3, 3))
    run(spatial.shift_unit_inertia, p_PScm, G_SP, p_PQ, out)
    np.testing.assert_allclose(out, cloud_unit_inertia(p_PQ), rtol=1e-12)
    R = random_rotation()
    run(spatial.reexpress_unit_inertia, R, G_SP, out)
    np.testing.assert_allclose(out, R @ G_SP @ R.T, rtol=1e-12)


def test_rotation_constructors(run):
    a = rng.normal(size=3)
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
