"""Quaternion (mirror of pydrake.common.eigen_geometry.Quaternion) and the quaternion formulas.

A quaternion q = w + x i + y j + z k is stored as the array [w, x, y, z]. Like pydrake's binding
of Eigen::Quaternion, the constructors and setters refuse a quaternion whose norm differs from
1 by 1e-5 or more; results of operations on valid quaternions are not re-checked.
"""

import numpy as np

from mallard._scalar import values_or_none
from mallard.common import _bindings as b
from mallard.common._cast import Cast
from mallard.common._pybind import overloads
from mallard.common._quaternion_rotation import quaternion_rotation
from mallard.common._scalar_math import acos, sin, sqrt

# pydrake's tolerance on |q| - 1 for a quaternion (and on |axis| - 1 for an AngleAxis).
UNIT_NORM_TOLERANCE = 1e-5


def check_unit_norm(v, what, value_name):
    """Raises RuntimeError if the double value of the vector ``v`` is not of unit length."""
    values = values_or_none(v)
    if values is None:
        return
    norm = float(np.sqrt(values @ values))
    if not abs(norm - 1.0) < UNIT_NORM_TOLERANCE:
        raise RuntimeError(
            f"{what} is not normalized: |{value_name}| = {norm!r} differs from 1 by "
            f"{UNIT_NORM_TOLERANCE:g} or more ({value_name} = {values.tolist()})"
        )


def quaternion_to_matrix(wxyz, s):
    """R = the rotation matrix of the quaternion wxyz (3×3; see quaternion_rotation)."""
    if type(wxyz) is np.ndarray and wxyz.dtype == np.float64 and type(s) in (float, np.float64):
        wxyz, s = wxyz.tolist(), float(s)  # (the same arithmetic in floats: ~5x faster)
    w, x, y, z = wxyz
    return np.array(quaternion_rotation(w, x, y, z, s)).reshape(3, 3)


def matrix_to_quaternion(R):
    """wxyz of the (near-)rotation matrix R (Shepperd's method, branches as Eigen chooses).

    With trace(R) > 0 the result has w > 0; otherwise the component along the largest diagonal
    element is positive. The result is not normalized.
    """
    values = values_or_none(R)
    d = None if values is None else np.diagonal(values).tolist()
    R = R.tolist()
    if d is None or d[0] + d[1] + d[2] > 0:
        t = sqrt(1 + (R[0][0] + R[1][1] + R[2][2]))
        h = 0.5 / t
        return np.array(
            [0.5 * t, (R[2][1] - R[1][2]) * h, (R[0][2] - R[2][0]) * h, (R[1][0] - R[0][1]) * h]
        )
    i = 0
    if d[1] > d[0]:
        i = 1
    if d[2] > d[i]:
        i = 2
    j, k = (i + 1) % 3, (i + 2) % 3
    t = sqrt(R[i][i] - R[j][j] - R[k][k] + 1)
    h = 0.5 / t
    q = [None] * 4
    q[0] = (R[k][j] - R[j][k]) * h
    q[1 + i] = 0.5 * t
    q[1 + j] = (R[j][i] + R[i][j]) * h
    q[1 + k] = (R[k][i] + R[i][k]) * h
    return np.array(q)


def quaternion_product(a, b):
    """wxyz of the Hamilton product a b of the quaternions a and b (arrays wxyz)."""
    return np.array(hamilton_product(a, b))


def hamilton_product(a, b):
    """quaternion_product(a, b) as a 4-tuple (a and b: 4 scalars each, any type)."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


class Quaternion:
    """A quaternion [w, x, y, z], normally of unit length, representing a rotation."""

    __slots__ = ("_wxyz",)
    #: ``x.cast[U]()``: a copy with scalar type U (see mallard.common._cast).
    cast = Cast()
    __module__ = "mallard.common.eigen_geometry"

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        index, values = b.resolve("Quaternion", _OVERLOADS, args, kwargs)
        if index == 0:
            self._wxyz = np.array([1.0, 0.0, 0.0, 0.0])
            return
        if index == 1:
            wxyz = values[0].copy()
        elif index == 2:
            wxyz = np.array(values)
        elif index == 3:
            wxyz = matrix_to_quaternion(values[0])
        else:
            wxyz = values[0]._wxyz.copy()
        check_unit_norm(wxyz, "Quaternion", "q")
        self._wxyz = wxyz

    @classmethod
    def _make(cls, wxyz):
        """A Quaternion that takes ownership of the array ``wxyz`` without checks."""
        q = object.__new__(cls)
        q._wxyz = wxyz
        return q

    @staticmethod
    def Identity():
        """The identity quaternion [1, 0, 0, 0]."""
        return Quaternion._make(np.array([1.0, 0.0, 0.0, 0.0]))

    def w(self):
        return b.scalar_out(self._wxyz[0])

    def x(self):
        return b.scalar_out(self._wxyz[1])

    def y(self):
        return b.scalar_out(self._wxyz[2])

    def z(self):
        return b.scalar_out(self._wxyz[3])

    def wxyz(self):
        """The 4-vector [w, x, y, z] (a copy)."""
        return self._wxyz.copy()

    def xyz(self):
        """The vector part [x, y, z] (a copy)."""
        return self._wxyz[1:].copy()

    @overloads(lambda: _SET_WXYZ_OVERLOADS)
    def set_wxyz(self, *args, **kwargs):
        """Sets [w, x, y, z] from a 4-vector or four scalars; raises if not unit length."""
        index, values = b.resolve("Quaternion.set_wxyz", _SET_WXYZ_OVERLOADS, args, kwargs)
        wxyz = values[0].copy() if index == 0 else np.array(values)
        check_unit_norm(wxyz, "Quaternion", "q")
        self._wxyz = wxyz

    def rotation(self):
        """The 3x3 rotation matrix this (unit) quaternion represents."""
        return quaternion_to_matrix(self._wxyz, 2.0)

    @overloads(lambda: _SET_ROTATION_OVERLOADS)
    def set_rotation(self, *args, **kwargs):
        """Sets this to the quaternion of a 3x3 rotation matrix (raises if not a rotation)."""
        (R,) = b.resolve("Quaternion.set_rotation", _SET_ROTATION_OVERLOADS, args, kwargs)[1]
        wxyz = matrix_to_quaternion(R)
        check_unit_norm(wxyz, "Quaternion", "q")
        self._wxyz = wxyz

    @overloads(lambda: _MULTIPLY_OVERLOADS)
    def multiply(self, *args, **kwargs):
        """The product self * other (a Quaternion), or this rotation applied to 3-vectors."""
        index, values = b.resolve("Quaternion.multiply", _MULTIPLY_OVERLOADS, args, kwargs)
        if index == 0:
            return Quaternion._make(quaternion_product(self._wxyz, values[0]._wxyz))
        return self.rotation() @ values[0]

    def __matmul__(self, other):
        if type(other) is Quaternion:
            return Quaternion._make(quaternion_product(self._wxyz, other._wxyz))
        return self.multiply(other)

    def conjugate(self):
        """[w, -x, -y, -z]."""
        return Quaternion._make(self._wxyz * np.array([1.0, -1.0, -1.0, -1.0]))

    def inverse(self):
        """conjugate / |q|² (the conjugate for a unit quaternion)."""
        q = self._wxyz
        return Quaternion._make(q * np.array([1.0, -1.0, -1.0, -1.0]) / (q @ q))

    def normalized(self):
        """q / |q| (Eigen's ``normalized``; not bound in pydrake)."""
        return Quaternion._make(self._wxyz / sqrt(self._wxyz @ self._wxyz))

    def slerp(self, t, other):
        """Spherical linear interpolation from self (t = 0) to other (t = 1), shortest path."""
        d = self._wxyz @ other._wxyz
        abs_d = -d if d < 0 else d
        if abs_d >= 1 - np.finfo(float).eps:
            s0, s1 = 1 - t, t
        else:
            theta = acos(abs_d)
            sin_theta = sin(theta)
            s0 = sin((1 - t) * theta) / sin_theta
            s1 = sin(t * theta) / sin_theta
        if d < 0:
            s1 = -s1
        return Quaternion._make(s0 * self._wxyz + s1 * other._wxyz)

    def __str__(self):
        w, x, y, z = (b.format_scalar(c) for c in self._wxyz)
        return f"Quaternion(w={w}, x={x}, y={y}, z={z})"

    def __copy__(self):
        return Quaternion._make(self._wxyz.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        return self._wxyz.copy()

    def __setstate__(self, state):
        self._wxyz = np.array(state)


_OVERLOADS = (
    (),
    (b.vector("wxyz", 4),),
    (b.scalar("w"), b.scalar("x"), b.scalar("y"), b.scalar("z")),
    (b.matrix("rotation", 3, 3),),
    (b.instance_of("other", Quaternion),),
)
_SET_WXYZ_OVERLOADS = _OVERLOADS[1:3]
_SET_ROTATION_OVERLOADS = ((b.matrix("arg0", 3, 3),),)
_MULTIPLY_OVERLOADS = ((b.instance_of("arg0", Quaternion),), (b.columns("vector"),))
