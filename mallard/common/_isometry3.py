"""Isometry3 (mirror of pydrake.common.eigen_geometry.Isometry3): a rigid transform stored as a
4x4 homogeneous matrix [R p; 0 0 0 1]. Like pydrake's binding of Eigen::Isometry3, the
constructors and setters refuse a matrix whose rotation part is not orthonormal and
right-handed, or whose bottom row is not [0, 0, 0, 1], to within 1e-5.
"""

import numpy as np

from mallard._scalar import result_dtype, values_or_none
from mallard.common import _bindings as b
from mallard.common._cast import Cast
from mallard.common._pybind import overloads
from mallard.common._quaternion import Quaternion, matrix_to_quaternion
from mallard.common._scalar_math import det3

# pydrake's tolerance in its checks of the matrices given to Isometry3.
CHECK_TOLERANCE = 1e-5


def _check_rotation(R):
    values = values_or_none(R)
    if values is None:
        return
    error = float(np.max(np.abs(values @ values.T - np.eye(3))))
    if not error < CHECK_TOLERANCE:
        raise RuntimeError(
            f"Isometry3: rotation matrix is not orthonormal: max |R Rᵀ - I| = {error!r} is "
            f"not below {CHECK_TOLERANCE:g} for R =\n{values}"
        )
    det = det3(values.tolist())
    if not abs(det - 1.0) < CHECK_TOLERANCE:
        raise RuntimeError(
            f"Isometry3: rotation matrix violates the right-hand rule: det(R) = {det!r} "
            f"differs from 1 by {CHECK_TOLERANCE:g} or more for R =\n{values}"
        )


def _check_matrix(M):
    _check_rotation(M[:3, :3])
    values = values_or_none(M[3])
    if values is None:
        return
    error = float(np.max(np.abs(values - np.array([0.0, 0.0, 0.0, 1.0]))))
    if not error < CHECK_TOLERANCE:
        raise RuntimeError(
            f"Isometry3: homogeneous matrix is improperly scaled: its bottom row "
            f"{values.tolist()} differs from [0, 0, 0, 1] by {error!r} (tolerance "
            f"{CHECK_TOLERANCE:g})"
        )


def homogeneous(R, p):
    """The 4x4 matrix [R p; 0 0 0 1]."""
    M = np.zeros((4, 4), dtype=result_dtype(R, p))
    M[:3, :3] = R
    M[:3, 3] = p
    M[3, 3] = 1.0
    return M


class Isometry3:
    """A rigid transform [R p; 0 0 0 1] (rotation R, translation p) as a 4x4 matrix."""

    __slots__ = ("_M",)
    #: ``x.cast[U]()``: a copy with scalar type U (see mallard.common._cast).
    cast = Cast()
    __module__ = "mallard.common.eigen_geometry"

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        index, values = b.resolve("Isometry3", _OVERLOADS, args, kwargs)
        if index == 0:
            self._M = np.eye(4)
        elif index == 1:
            self.set_matrix(values[0])
        elif index == 2:
            _check_rotation(values[0])
            self._M = homogeneous(*values)
        elif index == 3:
            self._M = homogeneous(values[0].rotation(), values[1])
        else:
            self._M = values[0]._M.copy()

    @classmethod
    def _make(cls, M):
        """An Isometry3 that takes ownership of the 4x4 array ``M`` without checks."""
        X = object.__new__(cls)
        X._M = M
        return X

    @staticmethod
    def Identity():
        return Isometry3._make(np.eye(4))

    def matrix(self):
        """The 4x4 homogeneous matrix (a copy)."""
        return self._M.copy()

    @overloads(lambda: _SET_MATRIX)
    def set_matrix(self, *args, **kwargs):
        (M,) = b.resolve("Isometry3.set_matrix", _SET_MATRIX, args, kwargs)[1]
        _check_matrix(M)
        self._M = M.copy()

    def rotation(self):
        """The 3x3 rotation part (a copy)."""
        return self._M[:3, :3].copy()

    @overloads(lambda: _SET_ROTATION)
    def set_rotation(self, *args, **kwargs):
        (R,) = b.resolve("Isometry3.set_rotation", _SET_ROTATION, args, kwargs)[1]
        _check_rotation(R)
        self._M = homogeneous(R, self._M[:3, 3])

    def translation(self):
        """The translation 3-vector (a copy)."""
        return self._M[:3, 3].copy()

    @overloads(lambda: _SET_TRANSLATION)
    def set_translation(self, *args, **kwargs):
        (p,) = b.resolve("Isometry3.set_translation", _SET_TRANSLATION, args, kwargs)[1]
        self._M = homogeneous(self._M[:3, :3], p)

    def quaternion(self):
        """The Quaternion of the rotation part."""
        return Quaternion._make(matrix_to_quaternion(self._M[:3, :3]))

    @overloads(lambda: _SET_QUATERNION)
    def set_quaternion(self, *args, **kwargs):
        (q,) = b.resolve("Isometry3.set_quaternion", _SET_QUATERNION, args, kwargs)[1]
        self._M = homogeneous(q.rotation(), self._M[:3, 3])

    def inverse(self):
        """[Rᵀ, -Rᵀ p; 0 0 0 1]."""
        Rt = self._M[:3, :3].T
        return Isometry3._make(homogeneous(Rt, -(Rt @ self._M[:3, 3])))

    @overloads(lambda: _MULTIPLY)
    def multiply(self, *args, **kwargs):
        """The composition self * other (an Isometry3), or self applied to positions."""
        index, (other,) = b.resolve("Isometry3.multiply", _MULTIPLY, args, kwargs)
        R, p = self._M[:3, :3], self._M[:3, 3]
        if index == 0:
            M = other._M
            return Isometry3._make(homogeneous(R @ M[:3, :3], R @ M[:3, 3] + p))
        return R @ other + (p if other.ndim == 1 else p[:, np.newaxis])

    __matmul__ = multiply

    def __str__(self):
        return str(self._M)

    def __copy__(self):
        return Isometry3._make(self._M.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        return self._M.copy()

    def __setstate__(self, state):
        self._M = np.array(state)


_OVERLOADS = (
    (),
    (b.matrix("matrix", 4, 4),),
    (b.matrix("rotation", 3, 3), b.vector("translation", 3)),
    (b.instance_of("quaternion", Quaternion), b.vector("translation", 3)),
    (b.instance_of("other", Isometry3),),
)
_SET_MATRIX = ((b.matrix("arg0", 4, 4),),)
_SET_ROTATION = ((b.matrix("arg0", 3, 3),),)
_SET_TRANSLATION = ((b.vector("arg0", 3),),)
_SET_QUATERNION = ((b.instance_of("arg0", Quaternion),),)
_MULTIPLY = ((b.instance_of("other", Isometry3),), (b.columns("position"),))
