"""The unit axis of revolute, prismatic and screw joints."""

import numpy as np

from mallard._scalar import as_array

_SQRT_EPS = float(np.sqrt(np.finfo(float).eps))


def unit_axis(cls_name, name, axis):
    """``axis`` normalized; RuntimeError naming the joint if its norm is below √ε."""
    a = as_array(axis, (3,), "axis").astype(float)
    norm = float(np.linalg.norm(a))
    if not norm >= _SQRT_EPS:
        raise RuntimeError(
            f"{cls_name} '{name}': the axis vector must have a non-zero length (at least "
            f"√ε = {_SQRT_EPS:.3g}); got axis {a.tolist()} of length {norm:g}"
        )
    return a / norm
