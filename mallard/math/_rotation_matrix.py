"""RotationMatrix (mirror of pydrake.math.RotationMatrix).

R_AB relates the unit vectors of frames A and B: its columns are Bx, By, Bz expressed in A, and
v_A = R_AB @ v_B. Constructing from a 3x3 matrix checks, as Drake does in debug builds (and
pydrake's release build does not), that the matrix is finite, orthonormal to within
128 ε ≈ 2.8e-14 and right-handed; MakeUnchecked skips the check.
"""

import math

import numpy as np

from mallard._scalar import scalar_value, values_or_none
from mallard.common import _bindings as b
from mallard.common._angle_axis import (
    AngleAxis,
    angle_axis_from_quaternion,
    angle_axis_to_matrix,
)
from mallard.common._cast import Cast
from mallard.common._pybind import overloads
from mallard.common._quaternion import Quaternion, matrix_to_quaternion, quaternion_to_matrix
from mallard.common._scalar_math import cos, det3, sin, sqrt

# Drake's tolerance for orthonormality of a rotation matrix: 128 ε.
ORTHONORMALITY_TOLERANCE = 128 * np.finfo(float).eps
_IDENTITY = np.eye(3)


def _roll_pitch_yaw_module():
    # Imported lazily: _roll_pitch_yaw imports this module.
    from mallard.math import _roll_pitch_yaw

    return _roll_pitch_yaw


def _roll_pitch_yaw_class():
    return _roll_pitch_yaw_module().RollPitchYaw


def orthonormality_error(R):
    """max |R Rᵀ - I| of the float64 3x3 array R (zero for an exact rotation matrix)."""
    return float(np.abs(R @ R.T - _IDENTITY).max())


def check_rotation_matrix(R):
    """Raises RuntimeError unless the values of R form a proper rotation matrix."""
    values = values_or_none(R)
    if values is None:
        return
    error = orthonormality_error(values)
    if not error <= ORTHONORMALITY_TOLERANCE:  # also true for a NaN or infinite element
        if not np.all(np.isfinite(values)):
            raise RuntimeError(
                f"RotationMatrix: the matrix has a NaN or infinite element:\n{values}"
            )
        raise RuntimeError(
            f"RotationMatrix: the matrix is not orthonormal: max |R Rᵀ - I| = {error!r} exceeds "
            f"the tolerance 128 ε = {ORTHONORMALITY_TOLERANCE!r} for R =\n{values}\n"
            "Use RotationMatrix.ProjectToRotationMatrix() to get the closest rotation matrix."
        )
    det = det3(values.tolist())
    if det < 0:
        raise RuntimeError(
            f"RotationMatrix: the matrix has a negative determinant ({det!r}), so its basis "
            f"is left-handed; R =\n{values}"
        )


def _check_angle(theta, where):
    value = theta if isinstance(theta, float) else scalar_value(theta)
    if value is not None and not math.isfinite(value):
        raise RuntimeError(f"RotationMatrix.{where}(): theta must be finite; got {value!r}")


def _format_rows(R, indent):
    pad = " " * indent
    rows = "".join(f"{pad}  {b.format_vector(row)},\n" for row in R)
    return f"RotationMatrix([\n{rows}{pad}])"


class RotationMatrix:
    """The rotation matrix R_AB relating the orientation of a frame B to a frame A."""

    __slots__ = ("_R",)
    #: ``x.cast[U]()``: a copy with scalar type U (see mallard.common._cast).
    cast = Cast()
    __module__ = "mallard.math"

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        if not args and not kwargs:  # (the common case, without resolve's matching)
            self._R = _IDENTITY.copy()
            return
        index, values = b.resolve("RotationMatrix", _OVERLOADS, args, kwargs)
        if index == 0:
            self._R = np.eye(3)
        elif index == 1:
            self._R = values[0]._R.copy()
        elif index == 2:
            check_rotation_matrix(values[0])
            self._R = values[0].copy()
        elif index == 3:
            q = values[0]._wxyz
            self._R = quaternion_to_matrix(q, 2 / (q @ q))
        elif index == 4:
            axis = values[0]._axis
            self._R = angle_axis_to_matrix(values[0]._angle, axis / sqrt(axis @ axis))
        else:
            self._R = values[0].ToRotationMatrix()._R

    @classmethod
    def _make(cls, R):
        """A RotationMatrix that takes ownership of the 3x3 array ``R`` without checks."""
        self = object.__new__(cls)
        self._R = R
        return self

    @staticmethod
    def Identity():
        """The identity rotation."""
        return RotationMatrix._make(np.eye(3))

    @staticmethod
    def MakeUnchecked(R):
        """A RotationMatrix holding the 3x3 matrix R, without checking it is a rotation."""
        (R,) = b.resolve("RotationMatrix.MakeUnchecked", _MATRIX, (R,), {})[1]
        return RotationMatrix._make(R.copy())

    @staticmethod
    def MakeXRotation(theta):
        """R_AB for B rotated from A by theta radians about Ax = Bx (right-hand rule)."""
        (theta,) = b.resolve("RotationMatrix.MakeXRotation", _THETA, (theta,), {})[1]
        _check_angle(theta, "MakeXRotation")
        c, s = cos(theta), sin(theta)
        return RotationMatrix._make(np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]))

    @staticmethod
    def MakeYRotation(theta):
        """R_AB for B rotated from A by theta radians about Ay = By (right-hand rule)."""
        (theta,) = b.resolve("RotationMatrix.MakeYRotation", _THETA, (theta,), {})[1]
        _check_angle(theta, "MakeYRotation")
        c, s = cos(theta), sin(theta)
        return RotationMatrix._make(np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]))

    @staticmethod
    def MakeZRotation(theta):
        """R_AB for B rotated from A by theta radians about Az = Bz (right-hand rule)."""
        (theta,) = b.resolve("RotationMatrix.MakeZRotation", _THETA, (theta,), {})[1]
        _check_angle(theta, "MakeZRotation")
        c, s = cos(theta), sin(theta)
        return RotationMatrix._make(np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]))

    @staticmethod
    def MakeFromOneVector(b_A, axis_index):
        """R_AB whose column ``axis_index`` is b_A / |b_A|; the others are chosen by Drake's rule.

        With u = b_A / |b_A| and e the unit vector of A along u's smallest-magnitude element
        (the first one on ties), the next column (cyclically) is v = e × u / |e × u| and the
        one after is u × v. Raises RuntimeError if |b_A| < 1e-10 or b_A is not finite, or if
        axis_index is not 0, 1 or 2.
        """
        name = "RotationMatrix.MakeFromOneVector"
        b_A, axis_index = b.resolve(name, _FROM_ONE_VECTOR, (b_A, axis_index), {})[1]
        if axis_index not in (0, 1, 2):
            raise RuntimeError(f"{name}(): axis_index must be 0, 1 or 2; got {axis_index!r}")
        return RotationMatrix._from_one_vector(b_A, axis_index)

    @staticmethod
    def _from_one_vector(b_A, axis_index):
        """MakeFromOneVector of arguments its caller has resolved (a 3-vector array and 0, 1
        or 2)."""
        name = "RotationMatrix.MakeFromOneVector"
        norm = sqrt(b_A @ b_A)
        value = scalar_value(norm)
        if value is not None and not (np.isfinite(value) and value >= 1e-10):
            raise RuntimeError(
                f"{name}(): b_A = {b.numeric_values(b_A, name).tolist()} cannot be made a unit "
                f"vector: its magnitude {value!r} is not finite or is less than 1e-10"
            )
        u = b_A / norm
        magnitudes = np.abs(b.numeric_values(u, name))
        i = int(np.argmin(magnitudes))
        if i == 0:
            v = np.array([0.0, -u[2], u[1]])
        elif i == 1:
            v = np.array([u[2], 0.0, -u[0]])
        else:
            v = np.array([-u[1], u[0], 0.0])
        v = v / sqrt(v @ v)
        w = np.array(
            [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        )
        R = np.empty((3, 3), dtype=u.dtype)
        R[:, axis_index] = u
        R[:, (axis_index + 1) % 3] = v
        R[:, (axis_index + 2) % 3] = w
        return RotationMatrix._make(R)

    @staticmethod
    def ProjectToRotationMatrix(M):
        """The rotation matrix closest to the 3x3 matrix M in the Frobenius norm (via SVD).

        Raises RuntimeError if det(M) < 0 (no rotation is near a reflection).
        """
        name = "RotationMatrix.ProjectToRotationMatrix"
        (M,) = b.resolve(name, _PROJECT, (M,), {})[1]
        values = b.numeric_values(M, name)
        det = det3(values.tolist())
        if det < 0:
            raise RuntimeError(
                f"{name}(): det(M) = {det!r} is negative, so M's basis is left-handed and no "
                f"rotation matrix is near it; M =\n{values}"
            )
        U, _, Vt = np.linalg.svd(values)
        return RotationMatrix._make(U @ Vt)

    def set(self, R):
        """Sets this to the 3x3 matrix R; raises RuntimeError if R is not a rotation matrix."""
        (R,) = b.resolve("RotationMatrix.set", _MATRIX, (R,), {})[1]
        check_rotation_matrix(R)
        self._R = R.copy()

    def matrix(self):
        """The 3x3 matrix R_AB (a copy)."""
        return self._R.copy()

    def row(self, index):
        """Row ``index`` (0, 1 or 2) of R_AB: A's unit vector Ax, Ay or Az expressed in B."""
        return b.readonly(self._R[self._index(index, "row")])

    def col(self, index):
        """Column ``index`` (0, 1 or 2) of R_AB: B's unit vector Bx, By or Bz expressed in A."""
        return b.readonly(self._R[:, self._index(index, "col")])

    @staticmethod
    def _index(index, method):
        if isinstance(index, (int, np.integer)) and 0 <= index <= 2:
            return int(index)
        raise RuntimeError(f"RotationMatrix.{method}(): index must be 0, 1 or 2; got {index!r}")

    @overloads(lambda: _MULTIPLY)
    def multiply(self, *args, **kwargs):
        """R_AC = R_AB * R_BC for other = R_BC, or v_A = R_AB @ v_B for a 3-vector or 3xN v_B."""
        index, (other,) = b.resolve("RotationMatrix.multiply", _MULTIPLY, args, kwargs)
        if index == 0:
            return RotationMatrix._make(self._R @ other._R)
        return self._R @ other

    def __matmul__(self, other):
        if type(other) is RotationMatrix:
            return RotationMatrix._make(self._R @ other._R)
        return self.multiply(other)

    def inverse(self):
        """R_BA = R_ABᵀ."""
        return RotationMatrix._make(self._R.T.copy())

    def transpose(self):
        """R_ABᵀ = R_BA."""
        return RotationMatrix._make(self._R.T.copy())

    def InvertAndCompose(self, other):
        """R_BC = R_ABᵀ R_AC for self = R_AB and other = R_AC."""
        (other,) = b.resolve("RotationMatrix.InvertAndCompose", _OTHER, (other,), {})[1]
        return RotationMatrix._make(self._R.T @ other._R)

    def IsExactlyIdentity(self):
        """True if every element equals the identity's exactly."""
        values = b.numeric_values(self._R, "RotationMatrix.IsExactlyIdentity")
        return bool(np.array_equal(values, np.eye(3)))

    def IsNearlyIdentity(self, tolerance=ORTHONORMALITY_TOLERANCE):
        """True if every element is within ``tolerance`` of the identity's."""
        values = b.numeric_values(self._R, "RotationMatrix.IsNearlyIdentity")
        return bool(np.max(np.abs(values - np.eye(3))) <= tolerance)

    def IsNearlyEqualTo(self, other, tolerance):
        """True if every element is within ``tolerance`` of other's (C++ Drake API)."""
        return bool(self.GetMaximumAbsoluteDifference(other) <= tolerance)

    def IsExactlyEqualTo(self, other):
        """True if every element equals other's exactly (C++ Drake API)."""
        return self.GetMaximumAbsoluteDifference(other) == 0.0

    def GetMaximumAbsoluteDifference(self, other):
        """max |self - other| over the 9 elements (C++ Drake API)."""
        what = "RotationMatrix.GetMaximumAbsoluteDifference"
        diff = b.numeric_values(self._R - other._R, what)
        return float(np.max(np.abs(diff)))

    def IsValid(self):
        """True if this is orthonormal to within 128 ε and right-handed."""
        values = b.numeric_values(self._R, "RotationMatrix.IsValid")
        orthonormal = orthonormality_error(values) <= ORTHONORMALITY_TOLERANCE
        return bool(orthonormal and det3(values.tolist()) > 0)

    def ToQuaternion(self):
        """The unit Quaternion of this rotation, in canonical form (w ≥ 0)."""
        q = matrix_to_quaternion(self._R)
        q = q / sqrt(q @ q)
        return Quaternion._make(-q if q[0] < 0 else q)

    def ToAngleAxis(self):
        """The AngleAxis of this rotation, with angle in [0, π]."""
        return AngleAxis._make(*angle_axis_from_quaternion(self.ToQuaternion()._wxyz))

    def ToRollPitchYaw(self):
        """The RollPitchYaw of this rotation, in the canonical range."""
        m = _roll_pitch_yaw_module()
        return m.RollPitchYaw._make(m.rpy_from_matrix(self._R))

    def __repr__(self):
        return _format_rows(self._R, 0)

    def _repr_indented(self, indent):
        return _format_rows(self._R, indent)

    def __copy__(self):
        return RotationMatrix._make(self._R.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        return self._R.copy()

    def __setstate__(self, state):
        self._R = np.array(state)


_MATRIX = ((b.matrix("R", 3, 3),),)
_OVERLOADS = (
    (),
    (b.instance_of("other", RotationMatrix),),
    _MATRIX[0],
    (b.instance_of("quaternion", Quaternion),),
    (b.instance_of("theta_lambda", AngleAxis),),
    (b.instance_of("rpy", _roll_pitch_yaw_class, "RollPitchYaw"),),
)
_THETA = ((b.scalar("theta"),),)
_OTHER = ((b.instance_of("other", RotationMatrix),),)
_MULTIPLY = (_OTHER[0], (b.columns("v_B"),))
_PROJECT = ((b.matrix("M", 3, 3),),)
_FROM_ONE_VECTOR = ((b.vector("b_A", 3), b.integer("axis_index")),)
