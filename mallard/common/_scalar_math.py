"""Elementary functions of one scalar: ``math`` for doubles, numpy's dispatch otherwise.

numpy applied to a non-double scalar (AutoDiffXd, Expression) calls the scalar's own method of
the same name (``x.sin()``); for doubles the ``math`` module is several times faster. Also
``det3``, a 3x3 determinant written out so that it works for any scalar type.
"""

import math

import numpy as np


def sin(x):
    return math.sin(x) if isinstance(x, float) else np.sin(x)


def cos(x):
    return math.cos(x) if isinstance(x, float) else np.cos(x)


def sqrt(x):
    return math.sqrt(x) if isinstance(x, float) else np.sqrt(x)


def atan2(y, x):
    if isinstance(y, float) and isinstance(x, float):
        return math.atan2(y, x)
    return np.arctan2(y, x)


def acos(x):
    return math.acos(x) if isinstance(x, float) else np.arccos(x)


def det3(A):
    """The determinant of the 3x3 matrix A (an array, or nested lists: faster for doubles)."""
    return (
        A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1])
        - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0])
        + A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0])
    )
