"""RigidTransform (mirror of pydrake.math.RigidTransform).

X_AB is the pose of frame B in frame A: the rotation R_AB and the position p_AoBo_A of B's
origin from A's origin, expressed in A. p_AoQ_A = X_AB @ p_BoQ_B; X_AC = X_AB @ X_BC.
As in pydrake, ``rotation()`` returns the transform's own RotationMatrix (it follows later
``set_rotation`` calls) and ``translation()`` a read-only view of its own position vector.
"""

import numpy as np

from mallard._scalar import values_or_none
from mallard.common import _bindings as b
from mallard.common._angle_axis import AngleAxis
from mallard.common._cast import Cast
from mallard.common._isometry3 import Isometry3, homogeneous
from mallard.common._pybind import overloads
from mallard.common._quaternion import Quaternion
from mallard.math._roll_pitch_yaw import RollPitchYaw
from mallard.math._rotation_matrix import RotationMatrix, check_rotation_matrix


def _rotation_from(value):
    """A new RotationMatrix from a RotationMatrix, RollPitchYaw, Quaternion or AngleAxis."""
    if isinstance(value, RotationMatrix):
        return RotationMatrix._make(value._R.copy())
    if isinstance(value, RollPitchYaw):
        return value.ToRotationMatrix()
    return RotationMatrix(value)


def _from_pose_matrix(pose):
    """(R, p) of a 3x4 [R p] or 4x4 [R p; 0 0 0 1] matrix, checked as Drake does."""
    if pose.shape not in ((3, 4), (4, 4)):
        raise RuntimeError(
            f"RigidTransform(pose): pose must be a 3x4 matrix [R p] or a 4x4 matrix "
            f"[R p; 0 0 0 1] (or p must be a 3-vector); got an array of shape {pose.shape}"
        )
    if pose.shape == (4, 4):
        bottom = values_or_none(pose[3])
        if bottom is not None and not np.array_equal(bottom, [0.0, 0.0, 0.0, 1.0]):
            raise RuntimeError(
                "RigidTransform(pose): the bottom row of a 4x4 pose must be exactly "
                f"[0, 0, 0, 1]; got {bottom.tolist()}"
            )
    check_rotation_matrix(pose[:3, :3])
    return pose[:3, :3].copy(), pose[:3, 3].copy()


def _is_vector3(p):
    return type(p) is np.ndarray and p.dtype == np.float64 and p.shape == (3,)


def _fast_init(self, args):
    """The constructor's common overloads, () (R), (p), (R, p), (other), with exact types
    (what resolve would do for them, without its matching); False for any other call."""
    if not args:
        self._R, self._p = RotationMatrix._make(_IDENTITY.copy()), np.zeros(3)
    elif len(args) == 2 and type(args[0]) is RotationMatrix and _is_vector3(args[1]):
        self._R, self._p = RotationMatrix._make(args[0]._R.copy()), args[1].copy()
    elif len(args) != 1:
        return False
    elif type(args[0]) is RigidTransform:
        self._R, self._p = RotationMatrix._make(args[0]._R._R.copy()), args[0]._p.copy()
    elif type(args[0]) is RotationMatrix:
        self._R, self._p = RotationMatrix._make(args[0]._R.copy()), np.zeros(3)
    elif _is_vector3(args[0]):
        self._R, self._p = RotationMatrix._make(_IDENTITY.copy()), args[0].copy()
    else:
        return False
    return True


_IDENTITY = np.eye(3)


class RigidTransform:
    """The pose X_AB of a frame B in a frame A: rotation R_AB and position p_AoBo_A."""

    # A transform made by _from_pose holds only _X, a 4×3 array [R; pᵀ] it owns: _R and _p
    # (views of it) are made on first use, by __getattr__.
    __slots__ = ("_R", "_p", "_X")
    #: ``x.cast[U]()``: a copy with scalar type U (see mallard.common._cast).
    cast = Cast()
    __module__ = "mallard.math"

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        if not kwargs and _fast_init(self, args):
            return
        index, values = b.resolve("RigidTransform", _OVERLOADS, args, kwargs)
        if index == 0:
            self._R, self._p = RotationMatrix._make(np.eye(3)), np.zeros(3)
        elif index == 1:
            other = values[0]
            self._R, self._p = RotationMatrix._make(other._R._R.copy()), other._p.copy()
        elif index <= 5:
            self._R, self._p = _rotation_from(values[0]), values[1].copy()
        elif index == 6:
            self._R, self._p = _rotation_from(values[0]), np.zeros(3)
        elif index == 7:
            self._R, self._p = RotationMatrix._make(np.eye(3)), values[0].copy()
        else:  # An Isometry3, or a 3x4 or 4x4 matrix.
            R, self._p = _from_pose_matrix(values[0]._M if index == 8 else values[0])
            self._R = RotationMatrix._make(R)

    @classmethod
    def _make(cls, R, p):
        """A RigidTransform that takes ownership of the 3x3 array R and 3-vector p, unchecked."""
        self = object.__new__(cls)
        rotation = object.__new__(RotationMatrix)  # RotationMatrix._make(R), one call less
        rotation._R = R
        self._R = rotation
        self._p = p
        return self

    @classmethod
    def _from_pose(cls, X):
        """A RigidTransform that takes ownership of the 4×3 array X = [R; pᵀ], unchecked."""
        self = object.__new__(cls)
        self._X = X
        return self

    def __getattr__(self, name):
        # Only for a transform made by _from_pose: its rotation and position, made once.
        if name == "_R":
            self._R = RotationMatrix._make(self._X[:3])
            return self._R
        if name == "_p":
            self._p = self._X[3]
            return self._p
        raise AttributeError(f"'RigidTransform' object has no attribute '{name}'")

    @staticmethod
    def Identity():
        return RigidTransform._make(np.eye(3), np.zeros(3))

    @staticmethod
    def MakeUnchecked(pose):
        """X from the 3x4 matrix [R p], without checking that R is a rotation matrix."""
        (pose,) = b.resolve("RigidTransform.MakeUnchecked", _POSE34, (pose,), {})[1]
        return RigidTransform._make(pose[:, :3].copy(), pose[:, 3].copy())

    def _assign(self, R, p):
        # Updates this transform's own RotationMatrix and position vector, so that what
        # rotation() and translation() returned earlier follows, as in pydrake.
        self._R._R = R
        if self._p.dtype == object or p.dtype == np.float64:
            self._p[:] = p
        else:
            self._p = p.copy()

    def SetIdentity(self):
        """Sets this to the identity and returns it."""
        self._assign(np.eye(3), np.zeros(3))
        return self

    def set(self, R, p):
        """Sets the rotation to the RotationMatrix R and the position to p."""
        R, p = b.resolve("RigidTransform.set", _OVERLOADS[2:3], (R, p), {})[1]
        self._assign(R._R.copy(), p)

    def SetFromIsometry3(self, pose):
        """Sets this from an Isometry3 (its rotation part checked as a rotation matrix)."""
        (pose,) = b.resolve("RigidTransform.SetFromIsometry3", _OVERLOADS[8:9], (pose,), {})[1]
        self._assign(*_from_pose_matrix(pose._M))

    def rotation(self):
        """R_AB: this transform's own RotationMatrix (later changes to this show in it)."""
        return self._R

    @overloads(lambda: _SET_ROTATION)
    def set_rotation(self, *args, **kwargs):
        """Sets R_AB from a RotationMatrix, RollPitchYaw, Quaternion or AngleAxis."""
        (R,) = b.resolve("RigidTransform.set_rotation", _SET_ROTATION, args, kwargs)[1]
        self._R._R = _rotation_from(R)._R

    def translation(self):
        """p_AoBo_A: a read-only view of this transform's position vector."""
        return b.readonly(self._p)

    def set_translation(self, p):
        """Sets p_AoBo_A."""
        (p,) = b.resolve("RigidTransform.set_translation", _OVERLOADS[7:8], (p,), {})[1]
        self._assign(self._R._R, p)

    def GetAsMatrix4(self):
        """The 4x4 matrix [R p; 0 0 0 1]."""
        return homogeneous(self._R._R, self._p)

    def GetAsMatrix34(self):
        """The 3x4 matrix [R p]."""
        return homogeneous(self._R._R, self._p)[:3].copy()

    def GetAsIsometry3(self):
        return Isometry3._make(homogeneous(self._R._R, self._p))

    @overloads(lambda: _MULTIPLY)
    def multiply(self, *args, **kwargs):
        """X_AC = X_AB X_BC for other = X_BC; or p_AoQ_A = X_AB p_BoQ_B for a 3-vector or 3xN
        array of positions; or, for a 4-vector vec_B = [v_B; s] with s = 1 (a position) or
        s = 0 (a direction), [R_AB v_B + s p_AoBo_A; s]."""
        index, (other,) = b.resolve("RigidTransform.multiply", _MULTIPLY, args, kwargs)
        R, p = self._R._R, self._p
        if index == 0:
            return RigidTransform._make(R @ other._R._R, R @ other._p + p)
        if index == 1:
            return R @ other + (p if other.ndim == 1 else p[:, np.newaxis])
        s = values_or_none(other[3:])
        if s is not None and s[0] not in (0.0, 1.0):
            raise RuntimeError(
                f"RigidTransform.multiply(): the 4th element of vec_B = {other.tolist()} "
                f"must be 0 (a direction) or 1 (a position); got {s[0]!r}"
            )
        return np.concatenate([R @ other[:3] + other[3] * p, other[3:]])

    def __matmul__(self, other):
        if type(other) is RigidTransform:
            R = self._R._R
            return RigidTransform._make(R @ other._R._R, R @ other._p + self._p)
        return self.multiply(other)

    def inverse(self):
        """X_BA = [R_ABᵀ, -R_ABᵀ p_AoBo_A]."""
        Rt = self._R._R.T
        return RigidTransform._make(Rt.copy(), -(Rt @ self._p))

    def InvertAndCompose(self, other):
        """X_BC = X_AB⁻¹ X_AC for self = X_AB and other = X_AC."""
        (other,) = b.resolve("RigidTransform.InvertAndCompose", _OTHER, (other,), {})[1]
        Rt = self._R._R.T
        return RigidTransform._make(Rt @ other._R._R, Rt @ (other._p - self._p))

    def IsExactlyIdentity(self):
        """True if R is exactly the identity and p exactly zero."""
        p = b.numeric_values(self._p, "RigidTransform.IsExactlyIdentity")
        return self._R.IsExactlyIdentity() and not np.any(p)

    def IsNearlyIdentity(self, translation_tolerance):
        """True if R is the identity to within 128 ε and |p| ≤ translation_tolerance
        elementwise."""
        p = b.numeric_values(self._p, "RigidTransform.IsNearlyIdentity")
        return self._R.IsNearlyIdentity() and bool(np.max(np.abs(p)) <= translation_tolerance)

    def IsNearlyEqualTo(self, other, tolerance):
        """True if every element of [R p] is within ``tolerance`` of other's."""
        return bool(self.GetMaximumAbsoluteDifference(other) <= tolerance)

    def IsExactlyEqualTo(self, other):
        """True if every element of [R p] equals other's exactly."""
        return self.GetMaximumAbsoluteDifference(other) == 0.0

    def GetMaximumAbsoluteDifference(self, other):
        """max |[R p] - [R_other p_other]| over the 12 elements."""
        return max(
            self._R.GetMaximumAbsoluteDifference(other._R),
            self.GetMaximumAbsoluteTranslationDifference(other),
        )

    def GetMaximumAbsoluteTranslationDifference(self, other):
        """max |p - p_other| over the 3 elements."""
        what = "RigidTransform.GetMaximumAbsoluteTranslationDifference"
        return float(np.max(np.abs(b.numeric_values(self._p - other._p, what))))

    def __repr__(self):
        R = self._R._repr_indented(2)
        return f"RigidTransform(\n  R={R},\n  p={b.format_vector(self._p)},\n)"

    def __copy__(self):
        return RigidTransform._make(self._R._R.copy(), self._p.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        return self.GetAsMatrix34()

    def __setstate__(self, state):
        pose = np.array(state)
        self._R = RotationMatrix._make(pose[:, :3].copy())
        self._p = pose[:, 3].copy()


_P = b.vector("p", 3)
_OVERLOADS = (
    (),
    (b.instance_of("other", RigidTransform),),
    (b.instance_of("R", RotationMatrix), _P),
    (b.instance_of("rpy", RollPitchYaw), _P),
    (b.instance_of("quaternion", Quaternion), _P),
    (b.instance_of("theta_lambda", AngleAxis), _P),
    (b.instance_of("R", RotationMatrix),),
    (_P,),
    (b.instance_of("pose", Isometry3),),
    (b.any_array("pose"),),
)
_SET_ROTATION = tuple(params[:1] for params in _OVERLOADS[2:6])
_POSE34 = ((b.matrix("pose", 3, 4),),)
_OTHER = (_OVERLOADS[1],)
_MULTIPLY = (
    _OTHER[0],
    (b.columns("p_BoQ_B"),),
    (b.vector("vec_B", 4),),
)
