"""mallard.math and mallard.common.eigen_geometry against pydrake, on random inputs."""

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.common.eigen_geometry as pe  # noqa: E402
import pydrake.math as pm  # noqa: E402

import mallard.common.eigen_geometry as me  # noqa: E402
import mallard.math as mm  # noqa: E402

TOL = 1e-12
N = 25


def close(a, b, tol=TOL):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=0, atol=tol)


@pytest.fixture
def rng():
    return np.random.default_rng(20240611)


def unit_quaternions(rng, n=N):
    q = rng.normal(size=(n, 4))
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def rpys(rng, n=N):
    return rng.uniform([-np.pi, -1.5, -np.pi], [np.pi, 1.5, np.pi], size=(n, 3))


def both(name, *args, **kwargs):
    """(mallard, pydrake) objects of the class ``name`` built from the same arguments."""
    mine = getattr(mm, name, None) or getattr(me, name)
    theirs = getattr(pm, name, None) or getattr(pe, name)
    return mine(*args, **kwargs), theirs(*args, **kwargs)


def test_rotation_matrix_constructions(rng):
    for theta in rng.uniform(-4, 4, N):
        for make in ("MakeXRotation", "MakeYRotation", "MakeZRotation"):
            close(
                getattr(mm.RotationMatrix, make)(theta).matrix(),
                getattr(pm.RotationMatrix, make)(theta).matrix(),
            )
    for wxyz in unit_quaternions(rng):
        R, R_ref = mm.RotationMatrix(me.Quaternion(wxyz)), pm.RotationMatrix(pe.Quaternion(wxyz))
        close(R.matrix(), R_ref.matrix())
        angle, axis = rng.uniform(-4, 4), wxyz[1:] / np.linalg.norm(wxyz[1:])
        close(
            mm.RotationMatrix(me.AngleAxis(angle, axis)).matrix(),
            pm.RotationMatrix(pe.AngleAxis(angle, axis)).matrix(),
        )
    for rpy in rpys(rng):
        close(
            mm.RotationMatrix(mm.RollPitchYaw(rpy)).matrix(),
            pm.RotationMatrix(pm.RollPitchYaw(rpy)).matrix(),
        )


def test_rotation_matrix_conversions(rng):
    for wxyz in unit_quaternions(rng):
        R, R_ref = both("RotationMatrix", pe.Quaternion(wxyz).rotation())
        close(R.ToQuaternion().wxyz(), R_ref.ToQuaternion().wxyz())
        close(R.ToAngleAxis().angle(), R_ref.ToAngleAxis().angle())
        close(R.ToAngleAxis().axis(), R_ref.ToAngleAxis().axis())
        close(R.ToRollPitchYaw().vector(), R_ref.ToRollPitchYaw().vector())
        assert R.IsValid() == R_ref.IsValid()
    for M in (np.diag([1.0, -1.0, -1.0]), np.diag([-1.0, 1.0, -1.0]), np.diag([-1.0, -1.0, 1.0])):
        R, R_ref = both("RotationMatrix", M)
        close(R.ToQuaternion().wxyz(), R_ref.ToQuaternion().wxyz())
        close(R.ToAngleAxis().axis(), R_ref.ToAngleAxis().axis())


@pytest.mark.parametrize("offset", [1e-3, 1e-6, 1e-9, 1e-12, 0.0])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_rotation_matrix_to_rpy_near_gimbal_lock(rng, offset, sign):
    # Near gimbal lock only yaw ∓ roll is well determined: compare the rotation each implies.
    for roll, yaw in rng.uniform(-np.pi, np.pi, size=(10, 2)):
        R_ref = pm.RollPitchYaw(roll, sign * (np.pi / 2 - offset), yaw).ToRotationMatrix()
        R = mm.RotationMatrix(R_ref.matrix())
        rpy, rpy_ref = R.ToRollPitchYaw(), R_ref.ToRollPitchYaw()
        close(rpy.pitch_angle(), rpy_ref.pitch_angle(), 1e-8)
        close(rpy.ToRotationMatrix().matrix(), R_ref.matrix(), 1e-15)
        close(rpy_ref.ToRotationMatrix().matrix(), R_ref.matrix(), 1e-7)


def test_rotation_matrix_operations(rng):
    for q1, q2 in zip(unit_quaternions(rng), unit_quaternions(rng), strict=True):
        A, A_ref = both("RotationMatrix", pe.Quaternion(q1).rotation())
        B, B_ref = both("RotationMatrix", pe.Quaternion(q2).rotation())
        close((A @ B).matrix(), (A_ref @ B_ref).matrix())
        close(A.inverse().matrix(), A_ref.inverse().matrix())
        close(A.transpose().matrix(), A_ref.transpose().matrix())
        close(A.InvertAndCompose(B).matrix(), A_ref.InvertAndCompose(B_ref).matrix())
        v, V = rng.normal(size=3), rng.normal(size=(3, 5))
        close(A @ v, A_ref @ v)
        close(A.multiply(V), A_ref.multiply(V))
        for i in range(3):
            close(A.row(i), A_ref.row(i))
            close(A.col(i), A_ref.col(i))
        assert A.IsNearlyIdentity(1.5) == A_ref.IsNearlyIdentity(1.5)


def test_make_from_one_vector_and_projection(rng):
    for b_A in rng.normal(size=(N, 3)):
        for axis_index in range(3):
            close(
                mm.RotationMatrix.MakeFromOneVector(b_A, axis_index).matrix(),
                pm.RotationMatrix.MakeFromOneVector(b_A, axis_index).matrix(),
            )
    for b_A in ([0.0, 0.0, 2.0], [0.0, 2.0, 0.0], [-1.0, 0.0, 0.0], [0.4, 0.4, 0.5]):
        for axis_index in range(3):
            close(
                mm.RotationMatrix.MakeFromOneVector(b_A, axis_index).matrix(),
                pm.RotationMatrix.MakeFromOneVector(b_A, axis_index).matrix(),
            )
    for wxyz in unit_quaternions(rng):
        M = pe.Quaternion(wxyz).rotation() + 0.3 * rng.normal(size=(3, 3))
        if np.linalg.det(M) <= 0:
            continue
        close(
            mm.RotationMatrix.ProjectToRotationMatrix(M).matrix(),
            pm.RotationMatrix.ProjectToRotationMatrix(M).matrix(),
            1e-10,
        )


def test_roll_pitch_yaw(rng):
    for rpy in rpys(rng):
        r, r_ref = both("RollPitchYaw", rpy)
        close(r.ToRotationMatrix().matrix(), r_ref.ToRotationMatrix().matrix())
        close(r.ToQuaternion().wxyz(), r_ref.ToQuaternion().wxyz())
        rpyDt, w, alpha = rng.normal(size=(3, 3))
        close(r.CalcRotationMatrixDt(rpyDt), r_ref.CalcRotationMatrixDt(rpyDt))
        close(
            r.CalcAngularVelocityInParentFromRpyDt(rpyDt),
            r_ref.CalcAngularVelocityInParentFromRpyDt(rpyDt),
        )
        close(
            r.CalcAngularVelocityInChildFromRpyDt(rpyDt),
            r_ref.CalcAngularVelocityInChildFromRpyDt(rpyDt),
        )
        close(
            r.CalcRpyDtFromAngularVelocityInParent(w),
            r_ref.CalcRpyDtFromAngularVelocityInParent(w),
            1e-11,
        )
        close(
            r.CalcRpyDtFromAngularVelocityInChild(w),
            r_ref.CalcRpyDtFromAngularVelocityInChild(w),
            1e-11,
        )
        close(
            r.CalcRpyDDtFromRpyDtAndAngularAccelInParent(rpyDt, alpha),
            r_ref.CalcRpyDDtFromRpyDtAndAngularAccelInParent(rpyDt, alpha),
            1e-10,
        )
        close(
            r.CalcRpyDDtFromAngularAccelInChild(rpyDt, alpha),
            r_ref.CalcRpyDDtFromAngularAccelInChild(rpyDt, alpha),
            1e-10,
        )
        # Angles outside the canonical range come back canonical, as pydrake's do.
        wide = rpy * 3
        close(
            mm.RollPitchYaw(mm.RollPitchYaw(wide).ToRotationMatrix()).vector(),
            pm.RollPitchYaw(pm.RollPitchYaw(wide).ToRotationMatrix()).vector(),
        )
        q = pe.Quaternion(pm.RollPitchYaw(wide).ToQuaternion().wxyz())
        close(mm.RollPitchYaw(me.Quaternion(q.wxyz())).vector(), pm.RollPitchYaw(q).vector())


def test_rigid_transform(rng):
    for rpy1, rpy2 in zip(rpys(rng), rpys(rng), strict=True):
        p1, p2 = rng.normal(size=(2, 3))
        X, X_ref = (
            mm.RigidTransform(mm.RollPitchYaw(rpy1), p1),
            pm.RigidTransform(pm.RollPitchYaw(rpy1), p1),
        )
        Y, Y_ref = (
            mm.RigidTransform(mm.RollPitchYaw(rpy2), p2),
            pm.RigidTransform(pm.RollPitchYaw(rpy2), p2),
        )
        close(X.GetAsMatrix4(), X_ref.GetAsMatrix4())
        close(X.GetAsMatrix34(), X_ref.GetAsMatrix34())
        close(X.GetAsIsometry3().matrix(), X_ref.GetAsIsometry3().matrix())
        close((X @ Y).GetAsMatrix4(), (X_ref @ Y_ref).GetAsMatrix4())
        close(X.inverse().GetAsMatrix4(), X_ref.inverse().GetAsMatrix4())
        close(X.InvertAndCompose(Y).GetAsMatrix4(), X_ref.InvertAndCompose(Y_ref).GetAsMatrix4())
        points = rng.normal(size=(3, 4))
        close(X @ points, X_ref @ points)
        close(X @ points[:, 0], X_ref @ points[:, 0])
        for s in (0.0, 1.0):
            vec = np.append(points[:, 1], s)
            close(X @ vec, X_ref @ vec)
        close(X.GetMaximumAbsoluteDifference(Y), X_ref.GetMaximumAbsoluteDifference(Y_ref))
        close(
            X.GetMaximumAbsoluteTranslationDifference(Y),
            X_ref.GetMaximumAbsoluteTranslationDifference(Y_ref),
        )
        assert X.IsNearlyEqualTo(Y, 1.0) == X_ref.IsNearlyEqualTo(Y_ref, 1.0)
        wxyz = pm.RollPitchYaw(rpy1).ToQuaternion().wxyz()
        close(
            mm.RigidTransform(me.Quaternion(wxyz), p1).GetAsMatrix4(),
            pm.RigidTransform(pe.Quaternion(wxyz), p1).GetAsMatrix4(),
        )
        close(
            mm.RigidTransform(X.GetAsMatrix4()).GetAsMatrix4(),
            pm.RigidTransform(X_ref.GetAsMatrix4()).GetAsMatrix4(),
        )


def test_quaternion(rng):
    for w1, w2 in zip(unit_quaternions(rng), unit_quaternions(rng), strict=True):
        a, a_ref = both("Quaternion", w1)
        b, b_ref = both("Quaternion", w2)
        close(a.rotation(), a_ref.rotation())
        close(me.Quaternion(a.rotation()).wxyz(), pe.Quaternion(a_ref.rotation()).wxyz())
        close((a @ b).wxyz(), (a_ref @ b_ref).wxyz())
        close(a.inverse().wxyz(), a_ref.inverse().wxyz())
        close(a.conjugate().wxyz(), a_ref.conjugate().wxyz())
        t = rng.uniform()
        close(a.slerp(t, b).wxyz(), a_ref.slerp(t, b_ref).wxyz())
        v, V = rng.normal(size=3), rng.normal(size=(3, 4))
        close(a @ v, a_ref @ v)
        close(a.multiply(V), a_ref.multiply(V))


def test_angle_axis_and_isometry3(rng):
    for wxyz in unit_quaternions(rng):
        a, a_ref = me.AngleAxis(me.Quaternion(wxyz)), pe.AngleAxis(pe.Quaternion(wxyz))
        close(a.angle(), a_ref.angle())
        close(a.axis(), a_ref.axis())
        close(a.rotation(), a_ref.rotation())
        close(a.quaternion().wxyz(), a_ref.quaternion().wxyz())
        close(a.inverse().rotation(), a_ref.inverse().rotation())
        close((a @ a).wxyz(), (a_ref @ a_ref).wxyz())
        R = a_ref.rotation()
        close(me.AngleAxis(R).axis(), pe.AngleAxis(R).axis())
        close(me.AngleAxis(R).angle(), pe.AngleAxis(R).angle())
        p = rng.normal(size=3)
        X, X_ref = both("Isometry3", R, p)
        close(X.inverse().matrix(), X_ref.inverse().matrix())
        close((X @ X).matrix(), (X_ref @ X_ref).matrix())
        close(X @ p, X_ref @ p)
        close(X.quaternion().wxyz(), X_ref.quaternion().wxyz())


@pytest.mark.parametrize(
    "make",
    [
        lambda m: m.RotationMatrix.MakeZRotation(0.3),
        lambda m: m.RotationMatrix(),
        lambda m: m.RollPitchYaw(0.1, 0.2, 0.3),
        lambda m: m.RollPitchYaw(1e-20, -1.0, 1 / 3),
        lambda m: m.RigidTransform(m.RollPitchYaw(0.1, 0.2, 0.3), [1.0, 2.0, 3.5]),
        lambda m: m.RigidTransform([1e-20, -0.0, 1 / 3]),
    ],
)
def test_reprs(make):
    assert repr(make(mm)) == repr(make(pm))


@pytest.mark.parametrize(
    "make",
    [
        lambda e: e.Quaternion(-1.0, 0.0, 0.0, 0.0),
        lambda e: e.Quaternion(0.5, 0.5, 0.5, 0.5),
        lambda e: e.AngleAxis(0.5, [0.0, 0.0, 1.0]),
        lambda e: e.Isometry3(np.eye(3), [1.0, 2.0, 3.0]),
    ],
)
def test_eigen_geometry_strs(make):
    assert str(make(me)) == str(make(pe))


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda m, e: e.Quaternion(1.0, 2.0, 3.0, 4.0), RuntimeError),
        (lambda m, e: e.Quaternion(2 * np.eye(3)), RuntimeError),
        (lambda m, e: e.AngleAxis(0.5, [0.0, 0.0, 2.0]), RuntimeError),
        (lambda m, e: e.Isometry3(2 * np.eye(4)), RuntimeError),
        (lambda m, e: e.Isometry3(np.diag([1.0, 1.0, -1.0, 1.0])), RuntimeError),
        (
            lambda m, e: m.RotationMatrix.ProjectToRotationMatrix(np.diag([1.0, 1, -1])),
            RuntimeError,
        ),
        (
            lambda m, e: m.RollPitchYaw(1.0, np.pi / 2, 3.0).CalcRpyDtFromAngularVelocityInParent(
                [1.0, 2.0, 3.0]
            ),
            RuntimeError,
        ),
        (
            lambda m, e: m.RollPitchYaw(1.0, np.pi / 2, 3.0).CalcRpyDtFromAngularVelocityInChild(
                [1.0, 2.0, 3.0]
            ),
            RuntimeError,
        ),
        (lambda m, e: m.RigidTransform() @ np.array([1.0, 2.0, 3.0, 2.0]), RuntimeError),
        (lambda m, e: m.RigidTransform(np.ones((2, 4))), RuntimeError),
        (lambda m, e: m.RotationMatrix(np.eye(4)), TypeError),
        (lambda m, e: m.RotationMatrix() @ np.ones(4), TypeError),
        (lambda m, e: m.RollPitchYaw([1.0, 2.0]), TypeError),
        (lambda m, e: m.RollPitchYaw(), TypeError),
        (lambda m, e: m.RigidTransform() @ np.ones((4, 2)), TypeError),
        (lambda m, e: e.AngleAxis() @ [1.0, 2.0, 3.0], TypeError),
    ],
)
def test_same_error_types(call, error):
    with pytest.raises(error):
        call(pm, pe)
    with pytest.raises(error):
        call(mm, me)


def test_equality_is_identity_based_in_both():
    for m in (mm, pm):
        R = m.RotationMatrix()
        assert R == R and R != m.RotationMatrix()
