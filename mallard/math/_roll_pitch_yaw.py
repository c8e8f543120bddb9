"""RollPitchYaw (mirror of pydrake.math.RollPitchYaw).

Space-fixed x-y-z (body-fixed z-y-x) angles [r, p, y] of a frame D in a frame A:
R_AD = Rz(y) Ry(p) Rx(r). The angular-velocity relations below are singular at gimbal lock
(cos(p) = 0); the functions that divide by cos(p) raise RuntimeError when |cos(p)| < 0.008.
"""

import math

import numpy as np

from mallard.common import _bindings as b
from mallard.common._pybind import overloads
from mallard.common._quaternion import Quaternion
from mallard.common._scalar_math import atan2, cos, sin, sqrt
from mallard.math._rotation_matrix import RotationMatrix

# Drake's gimbal-lock tolerance on |cos(pitch)|, and the pitch-angle margin it amounts to.
GIMBAL_LOCK_TOLERANCE_COS_PITCH = 0.008
_GIMBAL_LOCK_MARGIN_DEGREES = math.degrees(math.asin(GIMBAL_LOCK_TOLERANCE_COS_PITCH))


def matrix_from_rpy(r, p, y):
    """R_AD = Rz(y) Ry(p) Rx(r)."""
    sr, cr, sp, cp, sy, cy = sin(r), cos(r), sin(p), cos(p), sin(y), cos(y)
    return np.array(
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    )


def rpy_from_matrix(R):
    """[r, p, y] in the canonical range (|r|, |y| ≤ π, |p| ≤ π/2) with Rz(y) Ry(p) Rx(r) = R.

    yaw = atan2(R10, R00). Then M = Rz(y)ᵀ R = Ry(p) Rx(r) = [[cp, ., .], [0, cr, -sr],
    [-sp, ., .]], so roll comes from M's middle row, whose elements have unit size at any
    pitch, and pitch = atan2(-R20, |(R00, R10)|). Near gimbal lock, yaw (which R barely
    determines there) may carry the rounding of R00 and R10, but roll compensates for it and
    the angles reproduce R to rounding error.
    """
    (R00, R01, R02), (R10, R11, R12), (R20, _, _) = R.tolist()
    yaw = atan2(R10, R00)
    sy, cy = sin(yaw), cos(yaw)
    pitch = atan2(-R20, sqrt(R00 * R00 + R10 * R10))
    roll = atan2(sy * R02 - cy * R12, cy * R11 - sy * R01)
    return np.array([roll, pitch, yaw])


def quaternion_from_rpy(r, p, y):
    """wxyz of qz(y) qy(p) qx(r), the product of the three elementary rotations' quaternions."""
    sr, cr = sin(0.5 * r), cos(0.5 * r)
    sp, cp = sin(0.5 * p), cos(0.5 * p)
    sy, cy = sin(0.5 * y), cos(0.5 * y)
    return np.array(
        [
            cr * cp * cy + sr * sp * sy,
            sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy,
        ]
    )


class RollPitchYaw:
    """Roll-pitch-yaw angles [r, p, y] of a frame D in a frame A: R_AD = Rz(y) Ry(p) Rx(r)."""

    __slots__ = ("_rpy",)
    __module__ = "mallard.math"

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        index, values = b.resolve("RollPitchYaw", _OVERLOADS, args, kwargs)
        if index == 0:
            self._rpy = values[0]._rpy.copy()
        elif index == 1:
            self._rpy = values[0].copy()
        elif index == 2:
            self._rpy = np.array(values)
        elif index == 3:
            self._rpy = rpy_from_matrix(values[0]._R)
        else:  # A Quaternion, or a 3x3 matrix checked to be a rotation matrix.
            self._rpy = rpy_from_matrix(RotationMatrix(values[0])._R)

    @classmethod
    def _make(cls, rpy):
        """A RollPitchYaw that takes ownership of the 3-vector ``rpy``."""
        self = object.__new__(cls)
        self._rpy = rpy
        return self

    def vector(self):
        """[roll, pitch, yaw] (a copy)."""
        return self._rpy.copy()

    def roll_angle(self):
        return b.scalar_out(self._rpy[0])

    def pitch_angle(self):
        return b.scalar_out(self._rpy[1])

    def yaw_angle(self):
        return b.scalar_out(self._rpy[2])

    @overloads(lambda: _SET_OVERLOADS)
    def set(self, *args, **kwargs):
        """Sets [roll, pitch, yaw] from three scalars or a 3-vector (C++ Drake API)."""
        index, values = b.resolve("RollPitchYaw.set", _SET_OVERLOADS, args, kwargs)
        self._rpy = values[0].copy() if index == 0 else np.array(values)

    def _set_angle(self, i, angle, name):
        (angle,) = b.resolve(f"RollPitchYaw.set_{name}", ((b.scalar(name),),), (angle,), {})[1]
        if not isinstance(angle, float) and self._rpy.dtype != object:
            self._rpy = self._rpy.astype(object)
        self._rpy[i] = angle

    def set_roll_angle(self, r):
        """Sets the roll angle (C++ Drake API)."""
        self._set_angle(0, r, "r")

    def set_pitch_angle(self, p):
        """Sets the pitch angle (C++ Drake API)."""
        self._set_angle(1, p, "p")

    def set_yaw_angle(self, y):
        """Sets the yaw angle (C++ Drake API)."""
        self._set_angle(2, y, "y")

    def ToRotationMatrix(self):
        """R_AD = Rz(y) Ry(p) Rx(r)."""
        return RotationMatrix._make(matrix_from_rpy(*self._rpy))

    def ToQuaternion(self):
        """The Quaternion qz(y) qy(p) qx(r) of R_AD (not put in canonical form)."""
        return Quaternion._make(quaternion_from_rpy(*self._rpy))

    def IsNearlyEqualTo(self, other, tolerance):
        """True if each angle is within ``tolerance`` of other's (C++ Drake API)."""
        diff = b.numeric_values(self._rpy - other._rpy, "RollPitchYaw.IsNearlyEqualTo")
        return bool(np.max(np.abs(diff)) <= tolerance)

    def IsNearlySame(self, other, tolerance):
        """True if the two rotation matrices agree elementwise to ``tolerance`` (C++ Drake API).

        Unlike IsNearlyEqualTo, angles that differ but give the same orientation (e.g. roll and
        roll + 2π) count as the same.
        """
        R, R_other = self.ToRotationMatrix(), other.ToRotationMatrix()
        return R.IsNearlyEqualTo(R_other, tolerance)

    def IsRollPitchYawInCanonicalRange(self):
        """True if -π ≤ roll, yaw ≤ π and -π/2 ≤ pitch ≤ π/2 (C++ Drake API)."""
        r, p, y = b.numeric_values(self._rpy, "RollPitchYaw.IsRollPitchYawInCanonicalRange")
        return bool(abs(r) <= math.pi and abs(p) <= math.pi / 2 and abs(y) <= math.pi)

    @staticmethod
    def DoesCosPitchAngleViolateGimbalLockTolerance(cos_pitch_angle):
        """True if |cos(pitch)| < 0.008, i.e. pitch is within ≈0.458° of ±90° (C++ Drake API)."""
        value = b.numeric_values(
            cos_pitch_angle, "RollPitchYaw.DoesCosPitchAngleViolateGimbalLockTolerance"
        )
        return bool(abs(value) < GIMBAL_LOCK_TOLERANCE_COS_PITCH)

    def DoesPitchAngleViolateGimbalLockTolerance(self):
        """True if this pitch angle is within ≈0.458° of ±90° (C++ Drake API)."""
        return self.DoesCosPitchAngleViolateGimbalLockTolerance(cos(self._rpy[1]))

    def _trig(self):
        r, p, y = self._rpy
        return sin(r), cos(r), sin(p), cos(p), sin(y), cos(y)

    def _trig_away_from_gimbal_lock(self, function):
        trig = self._trig()
        if self.DoesCosPitchAngleViolateGimbalLockTolerance(trig[3]):
            pitch = math.degrees(b.numeric_values(self._rpy, function)[1])
            raise RuntimeError(
                f"RollPitchYaw::{function}(): Pitch angle p = {pitch:g} degrees is within "
                f"{_GIMBAL_LOCK_MARGIN_DEGREES:g} degrees of gimbal-lock. There is a "
                "divide-by-zero error (singularity) at gimbal-lock.  Pitch angles near "
                "gimbal-lock cause numerical inaccuracies.  To avoid this orientation "
                "singularity, use a quaternion -- not RollPitchYaw."
            )
        return trig

    def CalcAngularVelocityInParentFromRpyDt(self, rpyDt):
        """w_AD_A, D's angular velocity in A expressed in A, from rpyDt = d[r, p, y]/dt."""
        (rpyDt,) = b.resolve(
            "RollPitchYaw.CalcAngularVelocityInParentFromRpyDt", _RPYDT, (rpyDt,), {}
        )[1]
        _, _, sp, cp, sy, cy = self._trig()
        rDt, pDt, yDt = rpyDt
        return np.array([cy * cp * rDt - sy * pDt, sy * cp * rDt + cy * pDt, yDt - sp * rDt])

    def CalcAngularVelocityInChildFromRpyDt(self, rpyDt):
        """w_AD_D, D's angular velocity in A expressed in D, from rpyDt = d[r, p, y]/dt."""
        (rpyDt,) = b.resolve(
            "RollPitchYaw.CalcAngularVelocityInChildFromRpyDt", _RPYDT, (rpyDt,), {}
        )[1]
        sr, cr, sp, cp, _, _ = self._trig()
        rDt, pDt, yDt = rpyDt
        return np.array([rDt - sp * yDt, cr * pDt + sr * cp * yDt, cr * cp * yDt - sr * pDt])

    def CalcRotationMatrixDt(self, rpyDt):
        """d(R_AD)/dt = [w_AD_A]× R_AD for rpyDt = d[r, p, y]/dt."""
        (rpyDt,) = b.resolve("RollPitchYaw.CalcRotationMatrixDt", _RPYDT, (rpyDt,), {})[1]
        wx, wy, wz = self.CalcAngularVelocityInParentFromRpyDt(rpyDt)
        skew = np.array([[0.0, -wz, wy], [wz, 0.0, -wx], [-wy, wx, 0.0]])
        return skew @ matrix_from_rpy(*self._rpy)

    def CalcRpyDtFromAngularVelocityInParent(self, w_AD_A):
        """d[r, p, y]/dt from w_AD_A; raises RuntimeError near gimbal lock."""
        function = "CalcRpyDtFromAngularVelocityInParent"
        (w,) = b.resolve(f"RollPitchYaw.{function}", _W_PARENT, (w_AD_A,), {})[1]
        return self._rpy_dt_from_parent(w, self._trig_away_from_gimbal_lock(function))

    def CalcRpyDtFromAngularVelocityInChild(self, w_AD_D):
        """d[r, p, y]/dt from w_AD_D; raises RuntimeError near gimbal lock."""
        function = "CalcRpyDtFromAngularVelocityInChild"
        (w,) = b.resolve(f"RollPitchYaw.{function}", _W_CHILD, (w_AD_D,), {})[1]
        return self._rpy_dt_from_child(w, self._trig_away_from_gimbal_lock(function))

    def CalcRpyDDtFromRpyDtAndAngularAccelInParent(self, rpyDt, alpha_AD_A):
        """d²[r, p, y]/dt² from rpyDt and alpha_AD_A (D's angular acceleration in A, expressed
        in A); raises RuntimeError near gimbal lock."""
        function = "CalcRpyDDtFromRpyDtAndAngularAccelInParent"
        args = (rpyDt, alpha_AD_A)
        rpyDt, alpha = b.resolve(f"RollPitchYaw.{function}", _ACCEL_PARENT, args, {})[1]
        trig = self._trig_away_from_gimbal_lock(function)
        _, _, sp, cp, sy, cy = trig
        rDt, pDt, yDt = rpyDt
        # α_A = N_A(rpy) rpyDDt + Ṅ_A rpyDt, where w_AD_A = N_A(rpy) rpyDt.
        NDt_rpyDt = np.array(
            [
                (-sy * cp * yDt - cy * sp * pDt) * rDt - cy * yDt * pDt,
                (cy * cp * yDt - sy * sp * pDt) * rDt - sy * yDt * pDt,
                -cp * pDt * rDt,
            ]
        )
        return self._rpy_dt_from_parent(alpha - NDt_rpyDt, trig)

    def CalcRpyDDtFromAngularAccelInChild(self, rpyDt, alpha_AD_D):
        """d²[r, p, y]/dt² from rpyDt and alpha_AD_D (D's angular acceleration in A, expressed
        in D); raises RuntimeError near gimbal lock."""
        function = "CalcRpyDDtFromAngularAccelInChild"
        args = (rpyDt, alpha_AD_D)
        rpyDt, alpha = b.resolve(f"RollPitchYaw.{function}", _ACCEL_CHILD, args, {})[1]
        trig = self._trig_away_from_gimbal_lock(function)
        sr, cr, sp, cp, _, _ = trig
        rDt, pDt, yDt = rpyDt
        # α_D = N_D(rpy) rpyDDt + Ṅ_D rpyDt, where w_AD_D = N_D(rpy) rpyDt.
        NDt_rpyDt = np.array(
            [
                -cp * pDt * yDt,
                -sr * rDt * pDt + (cr * cp * rDt - sr * sp * pDt) * yDt,
                -cr * rDt * pDt - (sr * cp * rDt + cr * sp * pDt) * yDt,
            ]
        )
        return self._rpy_dt_from_child(alpha - NDt_rpyDt, trig)

    @staticmethod
    def _rpy_dt_from_parent(w, trig):
        """Solves w = N_A rpyDt for rpyDt."""
        _, _, sp, cp, sy, cy = trig
        rDt = (cy * w[0] + sy * w[1]) / cp
        return np.array([rDt, cy * w[1] - sy * w[0], w[2] + sp * rDt])

    @staticmethod
    def _rpy_dt_from_child(w, trig):
        """Solves w = N_D rpyDt for rpyDt."""
        sr, cr, sp, cp, _, _ = trig
        yDt = (sr * w[1] + cr * w[2]) / cp
        return np.array([w[0] + sp * yDt, cr * w[1] - sr * w[2], yDt])

    def __repr__(self):
        r, p, y = (b.format_scalar(a) for a in self._rpy)
        return f"RollPitchYaw(roll={r}, pitch={p}, yaw={y})"

    def __copy__(self):
        return RollPitchYaw._make(self._rpy.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        return self._rpy.copy()

    def __setstate__(self, state):
        self._rpy = np.array(state)


_SET_OVERLOADS = (
    (b.vector("rpy", 3),),
    (b.scalar("roll"), b.scalar("pitch"), b.scalar("yaw")),
)
_OVERLOADS = (
    (b.instance_of("other", RollPitchYaw),),
    *_SET_OVERLOADS,
    (b.instance_of("R", RotationMatrix),),
    (b.instance_of("quaternion", Quaternion),),
    (b.matrix("matrix", 3, 3),),
)
_RPYDT = ((b.vector("rpyDt", 3),),)
_W_PARENT = ((b.vector("w_AD_A", 3),),)
_W_CHILD = ((b.vector("w_AD_D", 3),),)
_ACCEL_PARENT = ((b.vector("rpyDt", 3), b.vector("alpha_AD_A", 3)),)
_ACCEL_CHILD = ((b.vector("rpyDt", 3), b.vector("alpha_AD_D", 3)),)
