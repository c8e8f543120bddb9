"""AngleAxis (mirror of pydrake.common.eigen_geometry.AngleAxis): a rotation by an angle about
a unit axis. Like pydrake's binding of Eigen::AngleAxis, the constructor and ``set_axis`` refuse
an axis whose norm differs from 1 by 1e-5 or more.
"""

import numpy as np

from mallard._scalar import scalar_value
from mallard.common import _bindings as b
from mallard.common._cast import Cast
from mallard.common._pybind import overloads
from mallard.common._quaternion import (
    Quaternion,
    check_unit_norm,
    matrix_to_quaternion,
    quaternion_product,
)
from mallard.common._scalar_math import atan2, cos, sin, sqrt


def angle_axis_to_matrix(angle, axis):
    """R = cos(θ) I + (1 - cos(θ)) λλᵀ + sin(θ) [λ]× for the angle θ about the unit axis λ."""
    if type(axis) is np.ndarray and axis.dtype == np.float64:
        axis = axis.tolist()  # (the same arithmetic in floats: several times faster)
    r0, r1, r2, r3, r4, r5, r6, r7, r8 = angle_axis_rows(angle, *axis)
    return np.array([[r0, r1, r2], [r3, r4, r5], [r6, r7, r8]])


def angle_axis_rows(angle, x, y, z):
    """The rows of angle_axis_to_matrix(angle, (x, y, z)) as a 9-tuple (any scalars)."""
    return cos_sin_axis_rows(cos(angle), sin(angle), x, y, z)


def cos_sin_axis_rows(c, s, x, y, z):
    """angle_axis_rows of the angle whose cosine and sine are ``c`` and ``s`` (any scalars, or
    arrays of many rotations: the MJCF fast path's)."""
    sx, sy, sz = s * x, s * y, s * z
    cx, cy, cz = (1 - c) * x, (1 - c) * y, (1 - c) * z
    return (
        cx * x + c, cx * y - sz, cx * z + sy,
        cy * x + sz, cy * y + c, cy * z - sx,
        cz * x - sy, cz * y + sx, cz * z + c,
    )  # fmt: skip


def angle_axis_from_quaternion(wxyz):
    """(θ, λ) of the quaternion wxyz (any norm): θ in [0, π]; λ = [1, 0, 0] when θ = 0."""
    w, x, y, z = wxyz
    n = sqrt(x * x + y * y + z * z)
    if scalar_value(n) == 0.0:
        return 0.0, np.array([1.0, 0.0, 0.0])
    negative_w = w < 0
    angle = 2 * atan2(n, -w if negative_w else w)
    return angle, np.array([x, y, z]) / (-n if negative_w else n)


def angle_axis_to_quaternion(angle, axis):
    """wxyz = [cos(θ/2), sin(θ/2) λ]."""
    half = 0.5 * angle
    s = sin(half)
    return np.array([cos(half), s * axis[0], s * axis[1], s * axis[2]])


class AngleAxis:
    """A rotation by angle() radians about the unit vector axis()."""

    __slots__ = ("_angle", "_axis")
    #: ``x.cast[U]()``: a copy with scalar type U (see mallard.common._cast).
    cast = Cast()
    __module__ = "mallard.common.eigen_geometry"

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        index, values = b.resolve("AngleAxis", _OVERLOADS, args, kwargs)
        if index == 0:
            self._angle, self._axis = 0.0, np.array([1.0, 0.0, 0.0])
        elif index == 1:
            angle, axis = values
            check_unit_norm(axis, "Axis", "axis")
            self._angle, self._axis = angle, axis.copy()
        elif index == 2:
            self.set_quaternion(values[0])
        elif index == 3:
            self.set_rotation(values[0])
        else:
            self._angle, self._axis = values[0]._angle, values[0]._axis.copy()

    @classmethod
    def _make(cls, angle, axis):
        """An AngleAxis that takes ownership of ``axis`` without checks."""
        a = object.__new__(cls)
        a._angle, a._axis = angle, axis
        return a

    @staticmethod
    def Identity():
        """The zero rotation (angle 0 about [1, 0, 0])."""
        return AngleAxis._make(0.0, np.array([1.0, 0.0, 0.0]))

    def angle(self):
        return b.scalar_out(self._angle)

    def axis(self):
        """The unit axis (a copy)."""
        return self._axis.copy()

    def set_angle(self, angle):
        (self._angle,) = b.resolve("AngleAxis.set_angle", _SET_ANGLE, (angle,), {})[1]

    def set_axis(self, axis):
        """Sets the axis; raises RuntimeError if it is not of unit length."""
        (axis,) = b.resolve("AngleAxis.set_axis", _SET_AXIS, (axis,), {})[1]
        check_unit_norm(axis, "Axis", "axis")
        self._axis = axis.copy()

    def set_quaternion(self, q):
        """Sets this to the rotation of the Quaternion q (angle in [0, π])."""
        (q,) = b.resolve("AngleAxis.set_quaternion", _SET_QUATERNION, (q,), {})[1]
        self._angle, self._axis = angle_axis_from_quaternion(q._wxyz)

    def set_rotation(self, rotation):
        """Sets this to the rotation of a 3x3 rotation matrix (angle in [0, π])."""
        (R,) = b.resolve("AngleAxis.set_rotation", _SET_ROTATION, (rotation,), {})[1]
        self._angle, self._axis = angle_axis_from_quaternion(matrix_to_quaternion(R))

    def rotation(self):
        """The 3x3 rotation matrix."""
        return angle_axis_to_matrix(self._angle, self._axis)

    def quaternion(self):
        """The unit Quaternion [cos(θ/2), sin(θ/2) λ]."""
        return Quaternion._make(angle_axis_to_quaternion(self._angle, self._axis))

    def inverse(self):
        """The rotation by -angle about the same axis."""
        return AngleAxis._make(-self._angle, self._axis.copy())

    def multiply(self, other):
        """The composition self * other, as a Quaternion."""
        if not isinstance(other, AngleAxis):
            b.resolve("AngleAxis.multiply", _MULTIPLY, (other,), {})
        q = quaternion_product(
            angle_axis_to_quaternion(self._angle, self._axis),
            angle_axis_to_quaternion(other._angle, other._axis),
        )
        return Quaternion._make(q)

    __matmul__ = multiply

    def __str__(self):
        return f"AngleAxis(angle={b.format_scalar(self._angle)}, axis={self._axis})"

    def __copy__(self):
        return AngleAxis._make(self._angle, self._axis.copy())

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __getstate__(self):
        return (self._angle, self._axis.copy())

    def __setstate__(self, state):
        self._angle, self._axis = state[0], np.array(state[1])


_OVERLOADS = (
    (),
    (b.scalar("angle"), b.vector("axis", 3)),
    (b.instance_of("quaternion", Quaternion),),
    (b.matrix("rotation", 3, 3),),
    (b.instance_of("other", AngleAxis),),
)
_SET_ANGLE = ((b.scalar("angle"),),)
_SET_AXIS = ((b.vector("axis", 3),),)
_SET_QUATERNION = ((b.instance_of("q", Quaternion),),)
_SET_ROTATION = (_OVERLOADS[3],)
_MULTIPLY = ((b.instance_of("other", AngleAxis),),)
