import copy
import pickle

import numpy as np
import pytest

from mallard.common.eigen_geometry import AngleAxis, Quaternion
from mallard.math import RollPitchYaw, RotationMatrix

EPS = np.finfo(float).eps


def random_rotations(n, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for q in rng.normal(size=(n, 4)):
        out.append(RotationMatrix(Quaternion(q / np.linalg.norm(q))))
    return out


def rz(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def test_default_and_identity():
    for R in (RotationMatrix(), RotationMatrix.Identity()):
        np.testing.assert_array_equal(R.matrix(), np.eye(3))
        assert R.IsExactlyIdentity()


@pytest.mark.parametrize(
    "make, expected",
    [
        (RotationMatrix.MakeXRotation, lambda c, s: [[1, 0, 0], [0, c, -s], [0, s, c]]),
        (RotationMatrix.MakeYRotation, lambda c, s: [[c, 0, s], [0, 1, 0], [-s, 0, c]]),
        (RotationMatrix.MakeZRotation, lambda c, s: [[c, -s, 0], [s, c, 0], [0, 0, 1]]),
    ],
)
def test_make_axis_rotation_closed_form(make, expected):
    for theta in (0.0, 0.3, -2.0, np.pi):
        R = make(theta)
        np.testing.assert_allclose(R.matrix(), expected(np.cos(theta), np.sin(theta)), atol=1e-15)
        assert R.IsValid()
    np.testing.assert_allclose(make(theta=0.7).matrix(), make(0.7).matrix())


@pytest.mark.parametrize("theta", [np.nan, np.inf])
def test_make_axis_rotation_rejects_non_finite_angle(theta):
    with pytest.raises(RuntimeError, match="theta must be finite"):
        RotationMatrix.MakeZRotation(theta)


def test_construct_from_matrix_checks_and_copies():
    M = rz(0.4)
    R = RotationMatrix(M)
    M[0, 0] = 5.0
    np.testing.assert_array_equal(R.matrix(), rz(0.4))
    np.testing.assert_array_equal(RotationMatrix(R=rz(0.4)).matrix(), rz(0.4))
    # Within 128 ε of orthonormal is accepted.
    RotationMatrix(np.eye(3) * (1 + 20 * EPS))


@pytest.mark.parametrize(
    "M, message",
    [
        (2 * np.eye(3), "not orthonormal"),
        (np.eye(3) * (1 + 1e-13), "not orthonormal"),
        (np.ones((3, 3)), "not orthonormal"),
        (np.diag([1.0, 1.0, -1.0]), "negative determinant"),
        (np.diag([1.0, 1.0, np.nan]), "NaN or infinite"),
    ],
)
def test_construct_rejects_non_rotation(M, message):
    with pytest.raises(RuntimeError, match=message):
        RotationMatrix(M)
    with pytest.raises(RuntimeError, match=message):
        RotationMatrix().set(M)


@pytest.mark.parametrize("bad", [np.eye(4), np.ones(3), "abc", None, [[1, 0], [0, 1]]])
def test_construct_rejects_wrong_argument(bad):
    with pytest.raises(TypeError, match="incompatible arguments"):
        RotationMatrix(bad)


def test_construct_from_other_representations():
    t = 0.8
    expected = rz(t)
    q = Quaternion(np.cos(t / 2), 0, 0, np.sin(t / 2))
    for R in (
        RotationMatrix(q),
        RotationMatrix(quaternion=q),
        RotationMatrix(AngleAxis(t, [0, 0, 1])),
        RotationMatrix(theta_lambda=AngleAxis(t, [0, 0, 1])),
        RotationMatrix(RollPitchYaw(0, 0, t)),
        RotationMatrix(rpy=RollPitchYaw(0, 0, t)),
        RotationMatrix(RotationMatrix.MakeZRotation(t)),
        RotationMatrix(other=RotationMatrix.MakeZRotation(t)),
    ):
        np.testing.assert_allclose(R.matrix(), expected, atol=1e-15)


def test_quaternion_constructor_normalizes_slightly_off_quaternion():
    # pydrake accepts quaternions within 1e-5 of unit length; Drake divides by |q|².
    R = RotationMatrix(Quaternion(1 + 5e-6, 0, 0, 0))
    np.testing.assert_allclose(R.matrix(), np.eye(3), atol=1e-15)


def test_row_col_are_read_only_views():
    R = RotationMatrix(rz(0.3))
    for i in range(3):
        np.testing.assert_array_equal(R.row(i), rz(0.3)[i])
        np.testing.assert_array_equal(R.col(index=i), rz(0.3)[:, i])
    with pytest.raises(ValueError):
        R.row(0)[0] = 1.0
    M = R.matrix()
    M[0, 0] = 7.0  # matrix() is a copy
    assert R.matrix()[0, 0] == rz(0.3)[0, 0]


@pytest.mark.parametrize("index", [3, -1])
def test_row_col_reject_bad_index(index):
    R = RotationMatrix()
    with pytest.raises(RuntimeError, match="index must be 0, 1 or 2"):
        R.row(index)
    with pytest.raises(RuntimeError, match="index must be 0, 1 or 2"):
        R.col(index)


def test_multiply_compose_and_apply():
    Ra, Rb = RotationMatrix.MakeZRotation(0.3), RotationMatrix.MakeZRotation(0.5)
    np.testing.assert_allclose((Ra @ Rb).matrix(), rz(0.8), atol=1e-15)
    np.testing.assert_allclose(Ra.multiply(other=Rb).matrix(), rz(0.8), atol=1e-15)
    v = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(Ra @ v, rz(0.3) @ v)
    np.testing.assert_allclose(Ra.multiply(v_B=[1, 2, 3]), rz(0.3) @ v)
    V = np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(Ra @ V, rz(0.3) @ V)
    assert (Ra @ v.reshape(3, 1)).shape == (3, 1)
    assert (Ra @ np.ones((3, 0))).shape == (3, 0)
    for bad in (np.ones(4), np.ones((4, 2)), "x"):
        with pytest.raises(TypeError, match="incompatible arguments"):
            Ra @ bad


def test_inverse_transpose_invert_and_compose():
    for R_AB, R_AC in zip(random_rotations(5, 1), random_rotations(5, 2), strict=True):
        np.testing.assert_array_equal(R_AB.inverse().matrix(), R_AB.matrix().T)
        np.testing.assert_array_equal(R_AB.transpose().matrix(), R_AB.matrix().T)
        assert (R_AB @ R_AB.inverse()).IsNearlyIdentity(4 * EPS)
        R_BC = R_AB.InvertAndCompose(R_AC)
        np.testing.assert_allclose(R_BC.matrix(), R_AB.matrix().T @ R_AC.matrix(), atol=1e-15)
        assert R_AB.InvertAndCompose(other=R_AC).IsNearlyEqualTo(R_BC, 0.0)


def test_comparisons():
    R = RotationMatrix.MakeXRotation(1e-10)
    assert not R.IsExactlyIdentity()
    assert not R.IsNearlyIdentity()
    assert R.IsNearlyIdentity(tolerance=2e-10)
    assert R.GetMaximumAbsoluteDifference(RotationMatrix()) == pytest.approx(1e-10)
    assert R.IsNearlyEqualTo(RotationMatrix(), 2e-10)
    assert not R.IsNearlyEqualTo(RotationMatrix(), 1e-11)
    assert R.IsExactlyEqualTo(RotationMatrix.MakeXRotation(1e-10))
    assert not R.IsExactlyEqualTo(RotationMatrix())


def test_equality_is_identity_based_like_pydrake():
    R = RotationMatrix()
    assert R == R
    assert R != RotationMatrix()
    assert len({R, R}) == 1


def test_is_valid():
    assert RotationMatrix.MakeYRotation(2.0).IsValid()
    assert not RotationMatrix.MakeUnchecked(2 * np.eye(3)).IsValid()
    assert not RotationMatrix.MakeUnchecked(np.diag([1.0, 1.0, -1.0])).IsValid()


def test_make_unchecked_holds_any_matrix():
    M = np.arange(9.0).reshape(3, 3)
    np.testing.assert_array_equal(RotationMatrix.MakeUnchecked(M).matrix(), M)


def test_to_quaternion_canonical_round_trip():
    for R in random_rotations(20, 3):
        q = R.ToQuaternion()
        assert q.w() >= 0
        assert np.linalg.norm(q.wxyz()) == pytest.approx(1.0, abs=1e-15)
        np.testing.assert_allclose(RotationMatrix(q).matrix(), R.matrix(), atol=1e-14)
    # Closed form: Rz(t) <-> [cos(t/2), 0, 0, sin(t/2)], made canonical.
    q = RotationMatrix.MakeZRotation(-3.0).ToQuaternion().wxyz()
    np.testing.assert_allclose(q, [np.cos(1.5), 0, 0, -np.sin(1.5)], atol=1e-15)
    np.testing.assert_allclose(
        RotationMatrix(np.diag([1.0, -1.0, -1.0])).ToQuaternion().wxyz(), [0, 1, 0, 0]
    )


def test_to_angle_axis_round_trip():
    for R in random_rotations(20, 4):
        aa = R.ToAngleAxis()
        assert 0 <= aa.angle() <= np.pi
        np.testing.assert_allclose(RotationMatrix(aa).matrix(), R.matrix(), atol=1e-14)
    aa = RotationMatrix.MakeXRotation(-3.1).ToAngleAxis()
    assert aa.angle() == pytest.approx(3.1, abs=1e-14)
    np.testing.assert_allclose(aa.axis(), [-1, 0, 0], atol=1e-15)
    aa = RotationMatrix().ToAngleAxis()
    assert aa.angle() == 0.0
    np.testing.assert_array_equal(aa.axis(), [1, 0, 0])


def test_to_roll_pitch_yaw():
    rpy = RotationMatrix.MakeZRotation(0.3).ToRollPitchYaw()
    assert isinstance(rpy, RollPitchYaw)
    np.testing.assert_allclose(rpy.vector(), [0, 0, 0.3], atol=1e-15)


def test_project_to_rotation_matrix():
    rng = np.random.default_rng(5)
    for R in random_rotations(5, 6):
        M = R.matrix() + 1e-6 * rng.normal(size=(3, 3))
        P = RotationMatrix.ProjectToRotationMatrix(M)
        assert P.IsValid()
        assert P.IsNearlyEqualTo(R, 1e-5)
        # The projection is closer to M than the original rotation is.
        assert np.linalg.norm(P.matrix() - M) <= np.linalg.norm(R.matrix() - M)
    np.testing.assert_allclose(
        RotationMatrix.ProjectToRotationMatrix(M=3 * rz(0.2)).matrix(), rz(0.2), atol=1e-15
    )
    with pytest.raises(RuntimeError, match="det\\(M\\) = -1.0 is negative"):
        RotationMatrix.ProjectToRotationMatrix(np.diag([1.0, 1.0, -1.0]))


@pytest.mark.parametrize("axis_index", [0, 1, 2])
def test_make_from_one_vector(axis_index):
    rng = np.random.default_rng(axis_index)
    for b_A in rng.normal(size=(10, 3)):
        R = RotationMatrix.MakeFromOneVector(b_A, axis_index)
        assert R.IsValid()
        np.testing.assert_allclose(R.col(axis_index), b_A / np.linalg.norm(b_A), atol=1e-15)
    # The next column is e × u / |e × u| with e along u's smallest element; then u × v.
    R = RotationMatrix.MakeFromOneVector(b_A=[1.0, 2.0, 3.0], axis_index=0)
    u = np.array([1.0, 2.0, 3.0]) / np.sqrt(14)
    v = np.array([0.0, -3.0, 2.0]) / np.sqrt(13)
    np.testing.assert_allclose(R.matrix(), np.column_stack([u, v, np.cross(u, v)]), atol=1e-15)


def test_make_from_one_vector_errors():
    with pytest.raises(RuntimeError, match="less than 1e-10"):
        RotationMatrix.MakeFromOneVector([0.0, 0.0, 1e-11], 1)
    with pytest.raises(RuntimeError, match="not finite"):
        RotationMatrix.MakeFromOneVector([0.0, np.inf, 1.0], 1)
    with pytest.raises(RuntimeError, match="axis_index must be 0, 1 or 2"):
        RotationMatrix.MakeFromOneVector([1.0, 2.0, 3.0], 3)
    with pytest.raises(TypeError, match="incompatible arguments"):
        RotationMatrix.MakeFromOneVector([1.0, 2.0, 3.0], 1.0)


def test_repr():
    assert repr(RotationMatrix.MakeZRotation(0.3)) == (
        "RotationMatrix([\n"
        "  [0.955336489125606, -0.29552020666133955, 0.0],\n"
        "  [0.29552020666133955, 0.955336489125606, 0.0],\n"
        "  [0.0, 0.0, 1.0],\n"
        "])"
    )


def test_copy_and_pickle():
    R = RotationMatrix.MakeXRotation(0.7)
    for clone in (copy.copy(R), copy.deepcopy(R), pickle.loads(pickle.dumps(R))):
        assert clone is not R
        assert clone.IsExactlyEqualTo(R)
    np.testing.assert_array_equal(R.__getstate__(), R.matrix())
