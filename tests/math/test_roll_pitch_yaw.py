import copy
import pickle

import numpy as np
import pytest

from mallard.common.eigen_geometry import Quaternion
from mallard.math import RollPitchYaw, RotationMatrix

HALF_PI = np.pi / 2


def rx(t):
    return RotationMatrix.MakeXRotation(t).matrix()


def ry(t):
    return RotationMatrix.MakeYRotation(t).matrix()


def rz(t):
    return RotationMatrix.MakeZRotation(t).matrix()


def random_rpys(n, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform([-np.pi, -HALF_PI, -np.pi], [np.pi, HALF_PI, np.pi], size=(n, 3))


def test_constructors_and_accessors():
    for rpy in (
        RollPitchYaw(0.1, 0.2, 0.3),
        RollPitchYaw(roll=0.1, pitch=0.2, yaw=0.3),
        RollPitchYaw([0.1, 0.2, 0.3]),
        RollPitchYaw(rpy=np.array([[0.1], [0.2], [0.3]])),
        RollPitchYaw(other=RollPitchYaw(0.1, 0.2, 0.3)),
    ):
        np.testing.assert_array_equal(rpy.vector(), [0.1, 0.2, 0.3])
        assert (rpy.roll_angle(), rpy.pitch_angle(), rpy.yaw_angle()) == (0.1, 0.2, 0.3)
        assert type(rpy.roll_angle()) is float
    # Angles are stored as given (not wrapped to the canonical range).
    np.testing.assert_array_equal(RollPitchYaw(4.0, 2.0, -7.0).vector(), [4.0, 2.0, -7.0])


def test_constructor_from_rotation():
    R = RotationMatrix.MakeYRotation(0.4)
    for rpy in (
        RollPitchYaw(R),
        RollPitchYaw(R=R),
        RollPitchYaw(R.ToQuaternion()),
        RollPitchYaw(quaternion=R.ToQuaternion()),
        RollPitchYaw(R.matrix()),
        RollPitchYaw(matrix=R.matrix()),
    ):
        np.testing.assert_allclose(rpy.vector(), [0, 0.4, 0], atol=1e-15)


def test_constructor_errors():
    with pytest.raises(TypeError, match="incompatible arguments"):
        RollPitchYaw()
    with pytest.raises(TypeError, match="incompatible arguments"):
        RollPitchYaw([1.0, 2.0])
    with pytest.raises(RuntimeError, match="not orthonormal"):
        RollPitchYaw(2 * np.eye(3))


def test_setters():
    rpy = RollPitchYaw(0.1, 0.2, 0.3)
    rpy.set(1.0, 2.0, 3.0)
    np.testing.assert_array_equal(rpy.vector(), [1, 2, 3])
    rpy.set([4.0, 5.0, 6.0])
    np.testing.assert_array_equal(rpy.vector(), [4, 5, 6])
    rpy.set_roll_angle(-1.0)
    rpy.set_pitch_angle(-2.0)
    rpy.set_yaw_angle(-3.0)
    np.testing.assert_array_equal(rpy.vector(), [-1, -2, -3])


def test_to_rotation_matrix_closed_form():
    for r, p, y in random_rpys(10, 0):
        expected = rz(y) @ ry(p) @ rx(r)
        np.testing.assert_allclose(
            RollPitchYaw(r, p, y).ToRotationMatrix().matrix(), expected, atol=1e-15
        )
        np.testing.assert_allclose(
            RotationMatrix(RollPitchYaw(r, p, y)).matrix(), expected, atol=1e-15
        )


def test_to_quaternion_matches_rotation_matrix():
    for rpy in random_rpys(10, 1):
        q = RollPitchYaw(rpy).ToQuaternion()
        np.testing.assert_allclose(
            RotationMatrix(q).matrix(), RollPitchYaw(rpy).ToRotationMatrix().matrix(), atol=1e-15
        )
    # Closed form: yaw only.
    q = RollPitchYaw(0, 0, 0.6).ToQuaternion()
    np.testing.assert_allclose(q.wxyz(), [np.cos(0.3), 0, 0, np.sin(0.3)], atol=1e-16)


def test_round_trip_away_from_gimbal_lock():
    for rpy in random_rpys(50, 2):
        R = RollPitchYaw(rpy).ToRotationMatrix()
        back = RollPitchYaw(R)
        assert back.IsRollPitchYawInCanonicalRange()
        np.testing.assert_allclose(back.vector(), rpy, atol=1e-13 / np.cos(rpy[1]))
        back_q = RollPitchYaw(R.ToQuaternion())
        np.testing.assert_allclose(back_q.vector(), rpy, atol=1e-13 / np.cos(rpy[1]))


def test_angles_out_of_canonical_range_map_into_it():
    rpy = RollPitchYaw(RollPitchYaw(1, 2, 3).ToRotationMatrix())
    assert rpy.IsRollPitchYawInCanonicalRange()
    np.testing.assert_allclose(rpy.vector(), [1 - np.pi, np.pi - 2, 3 - np.pi], atol=1e-14)


@pytest.mark.parametrize("offset", [0.0, 1e-15, 1e-12, 1e-9, 1e-6, 1e-3])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_round_trip_near_gimbal_lock(offset, sign):
    pitch = sign * (HALF_PI - offset)
    for roll, yaw in np.random.default_rng(3).uniform(-np.pi, np.pi, size=(20, 2)):
        R = RollPitchYaw(roll, pitch, yaw).ToRotationMatrix()
        rpy = RollPitchYaw(R)
        assert rpy.IsRollPitchYawInCanonicalRange()
        # The angles reproduce R to rounding error, and pitch is accurate in absolute terms.
        assert rpy.ToRotationMatrix().IsNearlyEqualTo(R, 4e-16)
        assert rpy.pitch_angle() == pytest.approx(pitch, abs=5e-16)
        # Only yaw - sign * roll is determined at gimbal lock; it is recovered accurately.
        combo = rpy.yaw_angle() - sign * rpy.roll_angle()
        assert np.cos(combo - (yaw - sign * roll)) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_exact_gimbal_lock_matrix(sign):
    # R = Rz(y) Ry(±π/2) Rx(r) with exact zeros, for y - r = 0.7 (pitch π/2) or
    # y + r = -0.7 (pitch -π/2): only that combination is determined.
    c, s = np.cos(0.7), np.sin(0.7)
    R = np.array([[0.0, -sign * s, sign * c], [0.0, c, s], [-sign, 0.0, 0.0]])
    rpy = RollPitchYaw(R)
    assert rpy.pitch_angle() == sign * HALF_PI
    np.testing.assert_allclose(rpy.ToRotationMatrix().matrix(), R, atol=1e-15)


def rotation_dt(rpy, rpyDt, h=1e-6):
    """Central difference of R_AD(rpy + t rpyDt) at t = 0."""
    plus = RollPitchYaw(rpy + h * rpyDt).ToRotationMatrix().matrix()
    minus = RollPitchYaw(rpy - h * rpyDt).ToRotationMatrix().matrix()
    return (plus - minus) / (2 * h)


def unskew(S):
    return np.array([S[2, 1], S[0, 2], S[1, 0]])


def test_angular_velocity_from_rpy_dt_matches_finite_differences():
    rng = np.random.default_rng(4)
    for rpy in random_rpys(10, 5):
        rpyDt = rng.normal(size=3)
        R = RollPitchYaw(rpy).ToRotationMatrix().matrix()
        RDt = rotation_dt(rpy, rpyDt)
        w_A = unskew(RDt @ R.T)
        w_D = unskew(R.T @ RDt)
        rpy_obj = RollPitchYaw(rpy)
        np.testing.assert_allclose(rpy_obj.CalcRotationMatrixDt(rpyDt), RDt, atol=1e-8)
        np.testing.assert_allclose(
            rpy_obj.CalcAngularVelocityInParentFromRpyDt(rpyDt=rpyDt), w_A, atol=1e-8
        )
        np.testing.assert_allclose(
            rpy_obj.CalcAngularVelocityInChildFromRpyDt(rpyDt), w_D, atol=1e-8
        )
        # The inverse relations recover rpyDt.
        np.testing.assert_allclose(
            rpy_obj.CalcRpyDtFromAngularVelocityInParent(w_AD_A=w_A), rpyDt, atol=1e-7
        )
        np.testing.assert_allclose(
            rpy_obj.CalcRpyDtFromAngularVelocityInChild(w_AD_D=w_D), rpyDt, atol=1e-7
        )


def test_rpy_ddt_from_angular_acceleration_matches_finite_differences():
    rng = np.random.default_rng(6)
    h = 1e-5
    for rpy in random_rpys(10, 7):
        if abs(np.cos(rpy[1])) < 0.1:
            continue
        rpyDt, rpyDDt = rng.normal(size=3), rng.normal(size=3)

        def w(t, rpy=rpy, rpyDt=rpyDt, rpyDDt=rpyDDt):
            """(w_AD_A, w_AD_D) along rpy(t) = rpy + rpyDt t + rpyDDt t²/2."""
            state = RollPitchYaw(rpy + rpyDt * t + 0.5 * rpyDDt * t * t)
            rate = rpyDt + rpyDDt * t
            return (
                state.CalcAngularVelocityInParentFromRpyDt(rate),
                state.CalcAngularVelocityInChildFromRpyDt(rate),
            )

        (wA_plus, wD_plus), (wA_minus, wD_minus) = w(h), w(-h)
        alpha_A, alpha_D = (wA_plus - wA_minus) / (2 * h), (wD_plus - wD_minus) / (2 * h)
        rpy_obj = RollPitchYaw(rpy)
        np.testing.assert_allclose(
            rpy_obj.CalcRpyDDtFromRpyDtAndAngularAccelInParent(rpyDt, alpha_AD_A=alpha_A),
            rpyDDt,
            atol=1e-6,
        )
        np.testing.assert_allclose(
            rpy_obj.CalcRpyDDtFromAngularAccelInChild(rpyDt=rpyDt, alpha_AD_D=alpha_D),
            rpyDDt,
            atol=1e-6,
        )


@pytest.mark.parametrize(
    "call",
    [
        lambda rpy: rpy.CalcRpyDtFromAngularVelocityInParent([1, 2, 3]),
        lambda rpy: rpy.CalcRpyDtFromAngularVelocityInChild([1, 2, 3]),
        lambda rpy: rpy.CalcRpyDDtFromRpyDtAndAngularAccelInParent([1, 2, 3], [1, 2, 3]),
        lambda rpy: rpy.CalcRpyDDtFromAngularAccelInChild([1, 2, 3], [1, 2, 3]),
    ],
)
def test_gimbal_lock_errors(call):
    with pytest.raises(RuntimeError, match="Pitch angle p = 89.9427 degrees .* of gimbal-lock"):
        call(RollPitchYaw(1, HALF_PI - 1e-3, 3))
    with pytest.raises(RuntimeError, match="p = -90 degrees"):
        call(RollPitchYaw(1, -HALF_PI, 3))
    call(RollPitchYaw(1, HALF_PI - 0.01, 3))  # about 0.57 degrees away: allowed


def test_gimbal_lock_predicates():
    assert RollPitchYaw.DoesCosPitchAngleViolateGimbalLockTolerance(0.0079)
    assert not RollPitchYaw.DoesCosPitchAngleViolateGimbalLockTolerance(-0.0081)
    assert RollPitchYaw(0, HALF_PI - 1e-3, 0).DoesPitchAngleViolateGimbalLockTolerance()
    assert not RollPitchYaw(0, 1.0, 0).DoesPitchAngleViolateGimbalLockTolerance()


def test_comparisons_and_canonical_range():
    a = RollPitchYaw(0.1, 0.2, 0.3)
    b = RollPitchYaw(0.1 + 2 * np.pi, 0.2, 0.3)
    assert a.IsNearlyEqualTo(RollPitchYaw(0.1, 0.2, 0.3 + 1e-9), 2e-9)
    assert not a.IsNearlyEqualTo(b, 1e-6)
    assert a.IsNearlySame(b, 1e-14)
    assert not a.IsNearlySame(RollPitchYaw(0.1, 0.2, 0.4), 1e-3)
    assert a.IsRollPitchYawInCanonicalRange()
    assert not b.IsRollPitchYawInCanonicalRange()
    assert not RollPitchYaw(0, 1.6, 0).IsRollPitchYawInCanonicalRange()


def test_repr():
    assert repr(RollPitchYaw(0.1, 0.2, 0.3)) == "RollPitchYaw(roll=0.1, pitch=0.2, yaw=0.3)"
    assert repr(RollPitchYaw(1e-20, -1, 1 / 3)) == (
        "RollPitchYaw(roll=1e-20, pitch=-1.0, yaw=0.3333333333333333)"
    )


def test_copy_and_pickle():
    rpy = RollPitchYaw(0.1, 0.2, 0.3)
    for clone in (copy.copy(rpy), copy.deepcopy(rpy), pickle.loads(pickle.dumps(rpy))):
        assert clone is not rpy
        np.testing.assert_array_equal(clone.vector(), rpy.vector())


def test_quaternion_constructor_uses_any_sign():
    q = RollPitchYaw(0.1, 0.2, 0.3).ToQuaternion()
    negated = Quaternion(-q.wxyz())
    np.testing.assert_allclose(RollPitchYaw(negated).vector(), [0.1, 0.2, 0.3], atol=1e-15)
