"""The unit axis of revolute, prismatic and screw joints, validated as Drake validates it."""

import math

import numpy as np

#: Drake calls an axis zero when all its components are at most this in magnitude: machine
#: epsilon for revolute and screw joints, its square root for prismatic joints.
EPSILON = float(np.finfo(float).eps)
SQRT_EPSILON = float(np.sqrt(EPSILON))


def unit_axis(joint, axis, tolerance):
    """``axis`` (3 numbers) normalized; RuntimeError with pydrake's text if it is zero."""
    if type(axis) is np.ndarray and axis.dtype == np.float64 and axis.shape == (3,):
        x, y, z = axis.tolist()  # (the common case, in floats: the same operations)
        if (
            math.isfinite(x)
            and math.isfinite(y)
            and math.isfinite(z)
            and max(abs(x), abs(y), abs(z)) > tolerance
        ):
            norm = math.sqrt(x * x + y * y + z * z)
            return np.array([x / norm, y / norm, z / norm])
    a = joint._as_vector(axis, 3, "axis", "__init__")
    if not np.all(np.isfinite(a)):
        raise joint._error("__init__", f"the axis must be finite, got {a.tolist()}")
    if not np.max(np.abs(a)) > tolerance:
        raise RuntimeError(f"{joint._kind} joint axis vector must have nonzero length.")
    # As Eigen's normalized(): the squared norm summed in order (a @ a may round otherwise).
    return a / np.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
