"""The value types on object arrays, with a minimal dual-number scalar standing in for
AutoDiffXd: values must match the float64 results and derivatives the closed forms."""

import math

import numpy as np

from mallard.common.eigen_geometry import AngleAxis, Isometry3, Quaternion
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from tests.dual import Dual, derivatives, values


def test_axis_rotation_derivative():
    t = 0.4
    R = RotationMatrix.MakeZRotation(Dual(t, 1.0))
    assert R.matrix().dtype == object
    c, s = math.cos(t), math.sin(t)
    np.testing.assert_allclose(values(R.matrix()), RotationMatrix.MakeZRotation(t).matrix())
    np.testing.assert_allclose(derivatives(R.matrix()), [[-s, -c, 0], [c, -s, 0], [0, 0, 0]])
    assert R.IsValid()
    assert "Dual(" in repr(R)


def test_rpy_round_trip_and_rotation_matrix_dt():
    rpy, rpyDt = np.array([0.3, -0.7, 2.0]), np.array([0.5, -1.0, 2.0])
    rpy_dual = RollPitchYaw(*[Dual(a, b) for a, b in zip(rpy, rpyDt, strict=True)])
    R = rpy_dual.ToRotationMatrix()
    expected_dt = RollPitchYaw(rpy).CalcRotationMatrixDt(rpyDt)
    np.testing.assert_allclose(derivatives(R.matrix()), expected_dt, atol=1e-14)
    # Extracting the angles back (checks run on the values) gives rpy and its rate.
    back = RollPitchYaw(RotationMatrix(R.matrix())).vector()
    np.testing.assert_allclose(values(back), rpy, atol=1e-15)
    np.testing.assert_allclose(derivatives(back), rpyDt, atol=1e-13)
    w = rpy_dual.CalcAngularVelocityInParentFromRpyDt(rpyDt)
    np.testing.assert_allclose(
        values(w), RollPitchYaw(rpy).CalcAngularVelocityInParentFromRpyDt(rpyDt)
    )
    # The quaternion path agrees with the matrix path.
    q = rpy_dual.ToQuaternion()
    np.testing.assert_allclose(derivatives(RotationMatrix(q).matrix()), expected_dt, atol=1e-14)
    np.testing.assert_allclose(
        values(R.ToQuaternion().wxyz()), RollPitchYaw(rpy).ToQuaternion().wxyz(), atol=1e-15
    )


def test_rigid_transform_with_dual_translation():
    p = np.array([Dual(1.0, 1.0), Dual(2.0), Dual(3.0)], dtype=object)
    X = RigidTransform(RotationMatrix.MakeXRotation(0.5), p)
    X_float = RigidTransform(RotationMatrix.MakeXRotation(0.5), [1.0, 2.0, 3.0])
    Y = X @ X.inverse()
    assert Y.IsNearlyIdentity(1e-15)
    np.testing.assert_allclose(derivatives(Y.translation()), 0.0, atol=1e-15)
    np.testing.assert_allclose(values((X @ X).GetAsMatrix4()), (X_float @ X_float).GetAsMatrix4())
    np.testing.assert_allclose(values(X @ [1.0, 1.0, 1.0]), X_float @ [1.0, 1.0, 1.0])
    np.testing.assert_allclose(derivatives(X @ [1.0, 1.0, 1.0]), [1, 0, 0])
    X.set_translation([4.0, 5.0, 6.0])  # a float vector into an object transform
    np.testing.assert_allclose(values(X.translation()), [4, 5, 6])


def test_eigen_geometry_types():
    angle = Dual(0.5, 1.0)
    a = AngleAxis(angle, [0.0, 0.0, 1.0])
    R = RotationMatrix(a).matrix()
    np.testing.assert_allclose(
        derivatives(R), derivatives(RotationMatrix.MakeZRotation(angle).matrix()), atol=1e-15
    )
    q = Quaternion(
        Dual(math.cos(0.25), -math.sin(0.25) / 2),
        0.0,
        0.0,
        Dual(math.sin(0.25), math.cos(0.25) / 2),
    )
    np.testing.assert_allclose(derivatives(q.rotation()), derivatives(R), atol=1e-15)
    back = AngleAxis(q)
    assert abs(back.angle().a - 0.5) < 1e-15 and abs(back.angle().b - 1.0) < 1e-15
    X = Isometry3(q.rotation(), [1.0, 2.0, 3.0])
    np.testing.assert_allclose(values((X @ X.inverse()).matrix()), np.eye(4), atol=1e-15)
