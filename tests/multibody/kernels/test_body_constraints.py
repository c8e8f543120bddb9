"""kernels.body_constraints against truths: the angle-axis vector against the rotation's
(AngleAxis), each constraint's Jacobian J against finite differences of its function g
(J·v = ġ: exactly for ball and distance constraints, and for a weld where P and Q coincide),
and the spatial forces U per unit impulse against J (Jᵀ·e_r = Σ_bodies J_V_WBoᵀ·U, Drake's
AccumulateSpatialImpulses), on the kernel sample plant (six bodies, every joint type)."""

import numpy as np
import pytest

from mallard._compiled import kernels
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.multibody._kernels.body_constraints import angle_axis_vector
from mallard.multibody._layout import (
    BALL_CONSTRAINT,
    DISTANCE_CONSTRAINT,
    POSITIONS,
    WELD_CONSTRAINT,
    WORKSPACE,
)
from tests.multibody.kernels.kernel_cases import Sample

K = kernels(np.float64)


def _tuple(R):
    return tuple(np.asarray(R, dtype=float).reshape(9)) + (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    "R",
    [
        np.eye(3),
        RotationMatrix(RollPitchYaw(0.3, -0.2, 0.1)).matrix(),
        RotationMatrix(RollPitchYaw(1e-9, 2e-9, -1e-9)).matrix(),
        # trace ≤ 0, each branch of the quaternion's largest component (x, y, z):
        RotationMatrix.MakeXRotation(3.0).matrix(),
        RotationMatrix.MakeYRotation(-3.0).matrix(),
        RotationMatrix.MakeZRotation(np.pi).matrix(),
        RotationMatrix(RollPitchYaw(2.5, 1.0, -2.0)).matrix(),
    ],
)
def test_angle_axis_vector_is_the_rotations(R):
    a = np.array(angle_axis_vector(_tuple(R)))
    theta = np.linalg.norm(a)
    assert theta <= np.pi + 1e-15
    if theta > 0:
        # R = exp([a]×) (Rodrigues).
        k = a / theta
        K_ = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
        R_a = np.eye(3) + np.sin(theta) * K_ + (1 - np.cos(theta)) * K_ @ K_
        np.testing.assert_allclose(R_a, R, atol=1e-14)
    angle_axis = RotationMatrix(R).ToAngleAxis()
    expected = angle_axis.angle() * angle_axis.axis()
    if abs(angle_axis.angle() - np.pi) > 1e-12:  # (at π, ±axis are the same rotation)
        np.testing.assert_allclose(a, expected, atol=1e-14)


class Constraints:
    """The sample with a ball (mobods 1, 3), a distance (2, 5) and a weld (4, World)
    constraint, evaluated at any q."""

    def __init__(self):
        rng = np.random.default_rng(7)
        self.s = Sample(rng)
        self.table = np.array(
            [[BALL_CONSTRAINT, 1, 3, 0], [DISTANCE_CONSTRAINT, 2, 5, 3],
             [WELD_CONSTRAINT, 4, 0, 4]], dtype=np.int64,
        )  # fmt: skip
        poses = [RigidTransform(RollPitchYaw(*rng.normal(size=3)), rng.normal(size=3))
                 for _ in range(6)]  # fmt: skip
        self.X = np.array([[self._array(poses[2 * i]), self._array(poses[2 * i + 1])]
                           for i in range(3)])  # fmt: skip
        self.lengths = np.array([0.0, 0.2, 0.0])

    @staticmethod
    def _array(X):
        return np.vstack((X.rotation().matrix(), X.translation()))

    def poses(self, x):
        """X_WB (4×4) per mobod at x."""
        s = self.s
        ws = s.ws.copy()
        K.drive_stages(s.mi, s.mf, x, ws, POSITIONS)
        X_pc = WORKSPACE.views(ws, s.sizes).X_pc[3]
        out = np.tile(np.eye(4), (X_pc.shape[0], 1, 1))
        out[:, :3, :3], out[:, :3, 3] = X_pc[:, :3], X_pc[:, 3]
        return out

    def evaluate(self, x):
        """(J, g, U, ws) at the state x."""
        s, nv = self.s, self.s.sizes.nv
        ws = s.ws.copy()
        J_AB, J, g, U = np.zeros((2, 6, nv)), np.zeros((10, nv)), np.zeros(10), np.zeros((10, 2, 6))
        status = K.drive_body_constraints(
            s.mi, s.mf, x, ws, POSITIONS, self.table, self.X, self.lengths, J_AB, J, g, U,
            K.address("stages_at"),
        )  # fmt: skip
        assert status == -1
        return J, g, U, ws


def _pose_array(X):
    return np.vstack((X[:3, :3], X[:3, 3]))


def test_jacobians_are_the_derivatives_of_the_constraint_functions():
    c = Constraints()
    c.X[2, 1] = _pose_array(c.poses(c.s.x)[4] @ _homogeneous(c.X[2, 0]))  # (P = Q at x)
    s = c.s
    nq, nv = s.sizes.nq, s.sizes.nv
    q = s.x[:nq]
    v = s.rng.normal(size=nv)
    qdot = np.zeros(nq)
    K.drive_qdot(s.mi, s.mf, q, v, qdot)
    J, g, _, _ = c.evaluate(s.x)
    assert np.abs(g[4:10]).max() < 1e-14  # the weld's frames coincide
    eps = 1e-6
    x_plus, x_minus = s.x.copy(), s.x.copy()
    x_plus[:nq] += eps * qdot
    x_minus[:nq] -= eps * qdot
    gdot = (c.evaluate(x_plus)[1] - c.evaluate(x_minus)[1]) / (2 * eps)
    np.testing.assert_allclose(J @ v, gdot, atol=1e-8)


def _homogeneous(X):
    out = np.eye(4)
    out[:3, :3], out[:3, 3] = X[:3], X[3]
    return out


def test_spatial_forces_per_unit_impulse_are_the_jacobians_transposed():
    """For each row r: J[r] = J_V_WAoᵀ·U[r, A] + J_V_WBoᵀ·U[r, B], the generalized impulse of
    the spatial impulses Drake's constraints apply on A at Ao and on B at Bo."""
    c = Constraints()
    J, _, U, ws = c.evaluate(c.s.x)
    s, nv = c.s, c.s.sizes.nv
    X_pc = WORKSPACE.views(ws, s.sizes).X_pc[3]
    J_Bo = {}
    for k in range(s.sizes.n):
        out = np.zeros((1, 6, nv))
        K.drive_point_jacobians(s.mi, s.mf, ws, k, X_pc[k, 3].reshape(1, 3), out)
        J_Bo[k] = out[0]
    first = 0
    for kind, kA, kB, _ in c.table:
        m = (3, 1, 6)[kind]
        for r in range(first, first + m):
            np.testing.assert_allclose(
                J_Bo[kA].T @ U[r, 0] + J_Bo[kB].T @ U[r, 1], J[r], atol=1e-13
            )
        first += m
    assert np.abs(J[4:10]).max() > 0.1  # (the weld's block is not empty)


def test_a_distance_nonphysically_small_is_reported():
    c = Constraints()
    J, g, _, _ = c.evaluate(c.s.x)
    d = g[3] + 0.2
    c.lengths[1] = (d - 1e-7) / 1e-2 + 1.0  # d < 1e-7 + 1e-2·ℓ
    s, nv = c.s, c.s.sizes.nv
    out = (np.zeros((2, 6, nv)), np.zeros((10, nv)), np.zeros(10), np.zeros((10, 2, 6)))
    status = K.drive_body_constraints(
        s.mi, s.mf, s.x, s.ws.copy(), POSITIONS, c.table, c.X, c.lengths, *out,
        K.address("stages_at"),
    )  # fmt: skip
    assert status == 1 and out[2][3] == pytest.approx(d - c.lengths[1])
