import copy
import pickle

import numpy as np
import pytest

from mallard.common.eigen_geometry import AngleAxis, Isometry3, Quaternion
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix

P = np.array([1.0, 2.0, 3.5])


def random_transforms(n, seed):
    rng = np.random.default_rng(seed)
    return [
        RigidTransform(RollPitchYaw(rng.uniform(-3, 3, 3)), rng.normal(size=3)) for _ in range(n)
    ]


def homogeneous(X):
    M = np.eye(4)
    M[:3, :3] = X.rotation().matrix()
    M[:3, 3] = X.translation()
    return M


def test_default_and_identity():
    for X in (RigidTransform(), RigidTransform.Identity()):
        assert X.IsExactlyIdentity()
        np.testing.assert_array_equal(X.GetAsMatrix4(), np.eye(4))


def test_constructors_with_pydrake_keywords():
    R = RotationMatrix.MakeZRotation(0.4)
    M = np.eye(4)
    M[:3, :3], M[:3, 3] = R.matrix(), P
    for X in (
        RigidTransform(R, P),
        RigidTransform(R=R, p=P),
        RigidTransform(RollPitchYaw(0, 0, 0.4), P),
        RigidTransform(rpy=RollPitchYaw(0, 0, 0.4), p=P),
        RigidTransform(quaternion=R.ToQuaternion(), p=P),
        RigidTransform(theta_lambda=AngleAxis(0.4, [0, 0, 1]), p=P),
        RigidTransform(pose=M),
        RigidTransform(M[:3]),
        RigidTransform(pose=Isometry3(M)),
        RigidTransform(other=RigidTransform(R, P)),
    ):
        np.testing.assert_allclose(X.GetAsMatrix4(), M, atol=1e-15)
    X = RigidTransform(R=R)
    np.testing.assert_array_equal(X.translation(), [0, 0, 0])
    X = RigidTransform(p=P)
    assert X.rotation().IsExactlyIdentity()
    np.testing.assert_array_equal(RigidTransform(P.reshape(3, 1)).translation(), P)


def test_constructor_copies_inputs():
    R, p = RotationMatrix.MakeXRotation(0.1), P.copy()
    X = RigidTransform(R, p)
    p[0] = 100.0
    assert X.translation()[0] == 1.0
    assert X.rotation() is not R


@pytest.mark.parametrize("shape", [(2, 4), (4, 3), (3, 3), (4,)])
def test_pose_matrix_of_wrong_shape(shape):
    with pytest.raises(RuntimeError, match="must be a 3x4 matrix"):
        RigidTransform(np.ones(shape))


def test_pose_matrix_checks():
    M = np.eye(4)
    M[3, 0] = 1.0
    with pytest.raises(RuntimeError, match="bottom row .* exactly"):
        RigidTransform(M)
    with pytest.raises(RuntimeError, match="not orthonormal"):
        RigidTransform(2 * np.eye(4)[:3])
    with pytest.raises(TypeError, match="incompatible arguments"):
        RigidTransform(RotationMatrix(), [1.0, 2.0])
    with pytest.raises(TypeError, match="incompatible arguments"):
        RigidTransform(R=np.eye(3))


def test_make_unchecked():
    pose = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(RigidTransform.MakeUnchecked(pose).GetAsMatrix34(), pose)


def test_rotation_and_translation_are_live_like_pydrake():
    X = RigidTransform(RotationMatrix.MakeXRotation(0.1), P)
    R, p = X.rotation(), X.translation()
    assert X.rotation() is R
    with pytest.raises(ValueError):
        p[0] = 5.0
    X.set_rotation(RotationMatrix.MakeYRotation(0.2))
    X.set_translation([7.0, 8.0, 9.0])
    assert R.IsExactlyEqualTo(RotationMatrix.MakeYRotation(0.2))
    np.testing.assert_array_equal(p, [7, 8, 9])


def test_setters():
    X = RigidTransform()
    X.set(RotationMatrix.MakeZRotation(0.3), P)
    np.testing.assert_allclose(X.GetAsMatrix34()[:, 3], P)
    assert X.rotation().IsExactlyEqualTo(RotationMatrix.MakeZRotation(0.3))
    for value in (
        RollPitchYaw(0.1, 0.2, 0.3),
        RollPitchYaw(0.1, 0.2, 0.3).ToQuaternion(),
        AngleAxis(RollPitchYaw(0.1, 0.2, 0.3).ToQuaternion()),
    ):
        X.set_rotation(value)
        assert X.rotation().IsNearlyEqualTo(RollPitchYaw(0.1, 0.2, 0.3).ToRotationMatrix(), 1e-15)
    X.SetFromIsometry3(Isometry3(RotationMatrix.MakeXRotation(1.0).matrix(), [4, 5, 6]))
    np.testing.assert_array_equal(X.translation(), [4, 5, 6])
    assert X.SetIdentity() is X
    assert X.IsExactlyIdentity()
    with pytest.raises(TypeError, match="incompatible arguments"):
        X.set_rotation(np.eye(3))


def test_matrix_forms():
    X = random_transforms(1, 0)[0]
    M = homogeneous(X)
    np.testing.assert_array_equal(X.GetAsMatrix4(), M)
    np.testing.assert_array_equal(X.GetAsMatrix34(), M[:3])
    np.testing.assert_array_equal(X.GetAsIsometry3().matrix(), M)


def test_compose_apply_and_inverse():
    rng = np.random.default_rng(1)
    for X_AB, X_BC in zip(random_transforms(5, 2), random_transforms(5, 3), strict=True):
        X_AC = X_AB @ X_BC
        np.testing.assert_allclose(
            X_AC.GetAsMatrix4(), homogeneous(X_AB) @ homogeneous(X_BC), atol=1e-14
        )
        assert X_AB.multiply(other=X_BC).IsNearlyEqualTo(X_AC, 0.0)
        assert (X_AB @ X_AB.inverse()).IsNearlyIdentity(1e-14)
        np.testing.assert_allclose(
            X_AB.inverse().GetAsMatrix4(), np.linalg.inv(homogeneous(X_AB)), atol=1e-14
        )
        assert X_AB.InvertAndCompose(X_AC).IsNearlyEqualTo(X_BC, 1e-14)
        p_BQ = rng.normal(size=3)
        expected = X_AB.rotation().matrix() @ p_BQ + X_AB.translation()
        np.testing.assert_allclose(X_AB @ p_BQ, expected, atol=1e-15)
        np.testing.assert_allclose(X_AB.multiply(p_BoQ_B=p_BQ), expected, atol=1e-15)
        points = rng.normal(size=(3, 4))
        np.testing.assert_allclose(
            X_AB @ points, np.column_stack([X_AB @ c for c in points.T]), atol=1e-15
        )
        assert (X_AB @ p_BQ.reshape(3, 1)).shape == (3, 1)
        np.testing.assert_allclose(X_AB @ np.append(p_BQ, 1.0), np.append(expected, 1.0))
        np.testing.assert_allclose(
            X_AB.multiply(vec_B=np.append(p_BQ, 0.0)),
            np.append(X_AB.rotation() @ p_BQ, 0.0),
            atol=1e-15,
        )


def test_multiply_errors():
    X = RigidTransform(P)
    with pytest.raises(RuntimeError, match="4th element of vec_B .* must be 0 .* or 1"):
        X @ np.array([1.0, 2.0, 3.0, 2.0])
    with pytest.raises(TypeError, match="incompatible arguments"):
        X @ np.ones((4, 2))
    with pytest.raises(TypeError, match="incompatible arguments"):
        X @ RotationMatrix()


def test_comparisons():
    X = RigidTransform(RotationMatrix.MakeXRotation(1e-10), [0, 0, 3e-10])
    assert not X.IsExactlyIdentity()
    assert not X.IsNearlyIdentity(translation_tolerance=1.0)  # rotation off by 1e-10
    assert RigidTransform([0, 0, 3e-10]).IsNearlyIdentity(4e-10)
    assert not RigidTransform([0, 0, 3e-10]).IsNearlyIdentity(2e-10)
    assert X.GetMaximumAbsoluteDifference(RigidTransform()) == pytest.approx(3e-10)
    assert X.GetMaximumAbsoluteTranslationDifference(RigidTransform()) == pytest.approx(3e-10)
    assert X.IsNearlyEqualTo(RigidTransform(), tolerance=4e-10)
    assert not X.IsNearlyEqualTo(other=RigidTransform(), tolerance=2e-10)
    assert X.IsExactlyEqualTo(RigidTransform(X))
    assert not X.IsExactlyEqualTo(RigidTransform())
    assert X != RigidTransform(X)  # == is identity-based, as in pydrake


def test_repr():
    X = RigidTransform(RotationMatrix.MakeZRotation(0.3), P)
    assert repr(X) == (
        "RigidTransform(\n"
        "  R=RotationMatrix([\n"
        "    [0.955336489125606, -0.29552020666133955, 0.0],\n"
        "    [0.29552020666133955, 0.955336489125606, 0.0],\n"
        "    [0.0, 0.0, 1.0],\n"
        "  ]),\n"
        "  p=[1.0, 2.0, 3.5],\n"
        ")"
    )


def test_copy_and_pickle():
    X = random_transforms(1, 4)[0]
    for clone in (copy.copy(X), copy.deepcopy(X), pickle.loads(pickle.dumps(X))):
        assert clone is not X
        assert clone.IsExactlyEqualTo(X)
    np.testing.assert_array_equal(X.__getstate__(), X.GetAsMatrix34())


def test_quaternion_constructor_of_non_unit_quaternion_is_refused_by_quaternion():
    with pytest.raises(RuntimeError, match="Quaternion is not normalized"):
        RigidTransform(Quaternion(1.0, 2.0, 3.0, 4.0), P)


def test_transform_made_from_a_pose_array_behaves_as_any_other():
    """RigidTransform._from_pose (what pose queries return) makes its rotation and position
    on first use, from the 4×3 array it owns; each is made once, and setters made before the
    other is read are kept."""
    R = RotationMatrix.MakeZRotation(0.3).matrix()
    pose = np.vstack((R, [1.0, 2.0, 3.0]))
    X = RigidTransform._from_pose(pose.copy())
    np.testing.assert_array_equal(X.GetAsMatrix34(), np.column_stack((R, [1.0, 2.0, 3.0])))
    assert X.rotation() is X.rotation()
    np.testing.assert_array_equal(X.multiply(RigidTransform()).GetAsMatrix4(), X.GetAsMatrix4())
    Y = RigidTransform._from_pose(pose.copy())
    Y.set_translation([4.0, 5.0, 6.0])  # before the rotation is first read
    np.testing.assert_array_equal(Y.rotation().matrix(), R)
    np.testing.assert_array_equal(Y.translation(), [4.0, 5.0, 6.0])
    Z = RigidTransform._from_pose(pose.copy())
    Z.set_rotation(RotationMatrix())
    np.testing.assert_array_equal(Z.translation(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(Z.rotation().matrix(), np.eye(3))
    W = copy.deepcopy(RigidTransform._from_pose(pose.copy()))
    np.testing.assert_array_equal(W.GetAsMatrix34(), X.GetAsMatrix34())
    with pytest.raises(AttributeError):
        X.no_such_attribute  # noqa: B018
