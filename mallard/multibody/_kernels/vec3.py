"""3-vector arithmetic on scalars, for kernels: each helper takes and returns tuples of three
scalars, so compiled code keeps them in registers (no arrays are allocated)."""

from mallard.multibody._kernels._machinery import jitable


@jitable
def load(a):
    """(a[0], a[1], a[2])."""
    return a[0], a[1], a[2]


@jitable
def add(a, b):
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


@jitable
def sub(a, b):
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


@jitable
def scale(s, a):
    return s * a[0], s * a[1], s * a[2]


@jitable
def cross3(a, b):
    """a × b."""
    return (
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    )


@jitable
def dot3(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@jitable
def mat_vec(R, a):
    """R·a for a 3×3 array R."""
    return (
        R[0, 0] * a[0] + R[0, 1] * a[1] + R[0, 2] * a[2],
        R[1, 0] * a[0] + R[1, 1] * a[1] + R[1, 2] * a[2],
        R[2, 0] * a[0] + R[2, 1] * a[1] + R[2, 2] * a[2],
    )


@jitable
def store(a, out):
    """out[0:3] = a."""
    out[0] = a[0]
    out[1] = a[1]
    out[2] = a[2]


@jitable
def store_add(a, out):
    """out[0:3] += a."""
    out[0] += a[0]
    out[1] += a[1]
    out[2] += a[2]


@jitable
def row3(A, k, j):
    """(A[k, j], A[k, j + 1], A[k, j + 2]): three consecutive entries of row k of A."""
    return A[k, j], A[k, j + 1], A[k, j + 2]


@jitable
def store_row3(a, A, k, j):
    """A[k, j:j + 3] = a."""
    A[k, j] = a[0]
    A[k, j + 1] = a[1]
    A[k, j + 2] = a[2]


@jitable
def add_row3(a, A, k, j):
    """A[k, j:j + 3] += a."""
    A[k, j] += a[0]
    A[k, j + 1] += a[1]
    A[k, j + 2] += a[2]


@jitable
def sym_vec(S, a):
    """S·a for a symmetric 3×3 S given as the 6-tuple (xx, yy, zz, xy, xz, yz)."""
    return (
        S[0] * a[0] + S[3] * a[1] + S[4] * a[2],
        S[3] * a[0] + S[1] * a[1] + S[5] * a[2],
        S[4] * a[0] + S[5] * a[1] + S[2] * a[2],
    )
