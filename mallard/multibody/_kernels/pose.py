"""Poses as tuples of 12 scalars, for kernels: (R row by row, then p), the layout of a 4×3
pose array [R; pᵀ]. Loading a pose into a tuple before computing with it lets compiled code
keep it in registers (stores to an output array can't alias it), several times faster than
computing array to array."""

from mallard.multibody._kernels._machinery import jitable


@jitable
def load_pose(X):
    """The 12-tuple of the 4×3 pose array X."""
    return (
        X[0, 0],
        X[0, 1],
        X[0, 2],
        X[1, 0],
        X[1, 1],
        X[1, 2],
        X[2, 0],
        X[2, 1],
        X[2, 2],
        X[3, 0],
        X[3, 1],
        X[3, 2],
    )


@jitable
def store_pose(T, X):
    """X = the pose tuple T."""
    X[0, 0] = T[0]
    X[0, 1] = T[1]
    X[0, 2] = T[2]
    X[1, 0] = T[3]
    X[1, 1] = T[4]
    X[1, 2] = T[5]
    X[2, 0] = T[6]
    X[2, 1] = T[7]
    X[2, 2] = T[8]
    X[3, 0] = T[9]
    X[3, 1] = T[10]
    X[3, 2] = T[11]


@jitable
def pose_mul(A, B):
    """X_AC = X_AB·X_BC for tuples A = X_AB, B = X_BC."""
    return (
        A[0] * B[0] + A[1] * B[3] + A[2] * B[6],
        A[0] * B[1] + A[1] * B[4] + A[2] * B[7],
        A[0] * B[2] + A[1] * B[5] + A[2] * B[8],
        A[3] * B[0] + A[4] * B[3] + A[5] * B[6],
        A[3] * B[1] + A[4] * B[4] + A[5] * B[7],
        A[3] * B[2] + A[4] * B[5] + A[5] * B[8],
        A[6] * B[0] + A[7] * B[3] + A[8] * B[6],
        A[6] * B[1] + A[7] * B[4] + A[8] * B[7],
        A[6] * B[2] + A[7] * B[5] + A[8] * B[8],
        A[9] + A[0] * B[9] + A[1] * B[10] + A[2] * B[11],
        A[10] + A[3] * B[9] + A[4] * B[10] + A[5] * B[11],
        A[11] + A[6] * B[9] + A[7] * B[10] + A[8] * B[11],
    )


@jitable
def pose_mul_translation(A, B):
    """X_AC = X_AB·X_BC for a tuple B = X_BC whose rotation is the identity: (R_AB,
    p_AB + R_AB·p_BC). The same as :func:`pose_mul` for finite values, with fewer operations."""
    return (
        A[0],
        A[1],
        A[2],
        A[3],
        A[4],
        A[5],
        A[6],
        A[7],
        A[8],
        A[9] + A[0] * B[9] + A[1] * B[10] + A[2] * B[11],
        A[10] + A[3] * B[9] + A[4] * B[10] + A[5] * B[11],
        A[11] + A[6] * B[9] + A[7] * B[10] + A[8] * B[11],
    )


@jitable
def pose_inv(A):
    """X_BA = X_AB⁻¹: (Rᵀ, −Rᵀ·p)."""
    return (
        A[0],
        A[3],
        A[6],
        A[1],
        A[4],
        A[7],
        A[2],
        A[5],
        A[8],
        -(A[0] * A[9] + A[3] * A[10] + A[6] * A[11]),
        -(A[1] * A[9] + A[4] * A[10] + A[7] * A[11]),
        -(A[2] * A[9] + A[5] * A[10] + A[8] * A[11]),
    )


@jitable
def rotate3(A, v):
    """R·v for the rotation of pose tuple A and a 3-sequence v."""
    return (
        A[0] * v[0] + A[1] * v[1] + A[2] * v[2],
        A[3] * v[0] + A[4] * v[1] + A[5] * v[2],
        A[6] * v[0] + A[7] * v[1] + A[8] * v[2],
    )


@jitable
def position(A):
    """The position (p) of pose tuple A."""
    return A[9], A[10], A[11]
