"""A box, capsule, cylinder, ellipsoid or convex shape S against a half space H, as FCL's
closed forms find their contact: the depth is how far S's deepest point (its support in −n)
is below H's boundary, the normal −n (n the half space's outward normal, in World), the
contact point halfway between that deepest point and the boundary (the ellipsoid's is FCL's
blend). Each returns (found, depth, normal, position), the normal pointing from S into H.

The half space is its canonical one (z ≤ 0) at pose X_H: n = X_H's z axis, and its boundary
holds X_H's origin.

As FCL's, the deepest point of a shape with a face or side parallel to the boundary (its
axis within PARALLEL_TOLERANCE of it, as a cosine) is that face's center: a box face down
touches at the middle of its bottom face, a capsule or cylinder lying flat below its center,
an upright cylinder at the center of its bottom disk (not a corner or rim point picked by
rounding).
"""

import numpy as np

from mallard.geometry._proximity_layout import BOX, CAPSULE, CYLINDER, ELLIPSOID
from mallard.multibody._kernels._machinery import jitable

#: FCL's halfspaceIntersectTolerance<double>: a cosine within it of 0 or ±1 is parallel.
PARALLEL_TOLERANCE = 1e-7


@jitable
def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@jitable
def _plane(X_H):
    """(n, d): the half space n·x ≤ d in World (FCL's transform of the canonical one)."""
    n = (X_H[0, 2], X_H[1, 2], X_H[2, 2])
    return n, _dot(n, (X_H[3, 0], X_H[3, 1], X_H[3, 2]))


@jitable
def _box(h, X, X_H):
    n, d = _plane(X_H)
    T = (X[3, 0], X[3, 1], X[3, 2])
    A = (
        (X[0, 0] * n[0] + X[1, 0] * n[1] + X[2, 0] * n[2]) * (2.0 * h[0]),
        (X[0, 1] * n[0] + X[1, 1] * n[1] + X[2, 1] * n[2]) * (2.0 * h[1]),
        (X[0, 2] * n[0] + X[1, 2] * n[1] + X[2, 2] * n[2]) * (2.0 * h[2]),
    )
    depth = 0.5 * (abs(A[0]) + abs(A[1]) + abs(A[2])) - (_dot(n, T) - d)
    if depth < 0:
        return False, 0.0, n, T
    # A face down: the first axis along ±n (its cosine A[i]/(2·h[i])) moves p alone.
    face = -1
    for i in range(3):
        cosine = A[i] / (2.0 * h[i])
        if face < 0 and abs(abs(cosine) - 1.0) < PARALLEL_TOLERANCE:
            face = i
    p = T
    for i in range(3):
        if face < 0 or i == face:
            k = 0.5 * (2.0 * h[i]) * (-1.0 if A[i] > 0 else 1.0)
            p = (p[0] + X[0, i] * k, p[1] + X[1, i] * k, p[2] + X[2, i] * k)
    q = depth * 0.5
    return True, depth, (-n[0], -n[1], -n[2]), (p[0] + n[0] * q, p[1] + n[1] * q, p[2] + n[2] * q)


@jitable
def _lying(radius, X, n, d):
    """A capsule or cylinder (of ``radius``, at pose X) whose axis is parallel to the boundary
    n·x = d: its deepest point is below its center."""
    T = (X[3, 0], X[3, 1], X[3, 2])
    depth = radius - (_dot(n, T) - d)
    if depth < 0:
        return False, 0.0, n, T
    q = 0.5 * depth - radius
    return True, depth, (-n[0], -n[1], -n[2]), (T[0] + n[0] * q, T[1] + n[1] * q, T[2] + n[2] * q)


@jitable
def _capsule(radius, half_length, X, X_H):
    n, d = _plane(X_H)
    z = (X[0, 2], X[1, 2], X[2, 2])
    cosa = _dot(z, n)
    if abs(cosa) < PARALLEL_TOLERANCE:
        return _lying(radius, X, n, d)
    k = (2.0 * half_length) * 0.5 * (-1.0 if cosa > 0 else 1.0)
    p = (X[3, 0] + z[0] * k, X[3, 1] + z[1] * k, X[3, 2] + z[2] * k)
    depth = radius - (_dot(n, p) - d)
    if depth < 0:
        return False, 0.0, n, p
    q = 0.5 * depth
    position = (
        p[0] - n[0] * radius + n[0] * q,
        p[1] - n[1] * radius + n[1] * q,
        p[2] - n[2] * radius + n[2] * q,
    )
    return True, depth, (-n[0], -n[1], -n[2]), position


@jitable
def _cylinder(radius, half_length, X, X_H):
    n, d = _plane(X_H)
    z = (X[0, 2], X[1, 2], X[2, 2])
    cosa = _dot(z, n)
    if abs(cosa) < PARALLEL_TOLERANCE:
        return _lying(radius, X, n, d)
    # C: from the axis to the rim point deepest along −n (none when upright).
    C = (0.0, 0.0, 0.0)
    if abs(abs(cosa) - 1.0) >= PARALLEL_TOLERANCE:
        C = (z[0] * cosa - n[0], z[1] * cosa - n[1], z[2] * cosa - n[2])
        s = radius / np.sqrt(C[0] * C[0] + C[1] * C[1] + C[2] * C[2])
        C = (C[0] * s, C[1] * s, C[2] * s)
    k = (2.0 * half_length) * 0.5 * (-1.0 if cosa > 0 else 1.0)
    p = (X[3, 0] + z[0] * k + C[0], X[3, 1] + z[1] * k + C[1], X[3, 2] + z[2] * k + C[2])
    depth = -(_dot(n, p) - d)
    if depth < 0:
        return False, 0.0, n, p
    q = 0.5 * depth
    return True, depth, (-n[0], -n[1], -n[2]), (p[0] + n[0] * q, p[1] + n[1] * q, p[2] + n[2] * q)


@jitable
def _ellipsoid(radii, X, X_H):
    # The half space in the ellipsoid's frame E: X_EH = X_WE⁻¹·X_WH.
    nW = (X_H[0, 2], X_H[1, 2], X_H[2, 2])
    n = (
        X[0, 0] * nW[0] + X[1, 0] * nW[1] + X[2, 0] * nW[2],
        X[0, 1] * nW[0] + X[1, 1] * nW[1] + X[2, 1] * nW[2],
        X[0, 2] * nW[0] + X[1, 2] * nW[1] + X[2, 2] * nW[2],
    )
    t = (X_H[3, 0] - X[3, 0], X_H[3, 1] - X[3, 1], X_H[3, 2] - X[3, 2])
    t_E = (
        X[0, 0] * t[0] + X[1, 0] * t[1] + X[2, 0] * t[2],
        X[0, 1] * t[0] + X[1, 1] * t[1] + X[2, 1] * t[2],
        X[0, 2] * t[0] + X[1, 2] * t[1] + X[2, 2] * t[2],
    )
    d = _dot(n, t_E)
    r2 = (radii[0] ** 2, radii[1] ** 2, radii[2] ** 2)
    to_plane = np.sqrt(n[0] ** 2 * r2[0] + n[1] ** 2 * r2[1] + n[2] ** 2 * r2[2])
    depth = to_plane + d
    if depth < 0:
        return False, 0.0, n, n
    normal = (
        -(X[0, 0] * n[0] + X[0, 1] * n[1] + X[0, 2] * n[2]),
        -(X[1, 0] * n[0] + X[1, 1] * n[1] + X[1, 2] * n[2]),
        -(X[2, 0] * n[0] + X[2, 1] * n[1] + X[2, 2] * n[2]),
    )
    k = 1.0 / to_plane
    support = (k * (r2[0] * n[0]), k * (r2[1] * n[1]), k * (r2[2] * n[2]))
    f = 0.5 * depth / _dot(n, support) - 1.0
    p_E = (support[0] * f, support[1] * f, support[2] * f)
    position = (
        X[0, 0] * p_E[0] + X[0, 1] * p_E[1] + X[0, 2] * p_E[2] + X[3, 0],
        X[1, 0] * p_E[0] + X[1, 1] * p_E[1] + X[1, 2] * p_E[2] + X[3, 1],
        X[2, 0] * p_E[0] + X[2, 1] * p_E[1] + X[2, 2] * p_E[2] + X[3, 2],
    )
    return True, depth, normal, position


@jitable
def _convex(hv, start, count, X, X_H):
    # The half space in the convex shape's frame C.
    nW = (X_H[0, 2], X_H[1, 2], X_H[2, 2])
    n = (
        X[0, 0] * nW[0] + X[1, 0] * nW[1] + X[2, 0] * nW[2],
        X[0, 1] * nW[0] + X[1, 1] * nW[1] + X[2, 1] * nW[2],
        X[0, 2] * nW[0] + X[1, 2] * nW[1] + X[2, 2] * nW[2],
    )
    t = (X_H[3, 0] - X[3, 0], X_H[3, 1] - X[3, 1], X_H[3, 2] - X[3, 2])
    d = _dot(
        n,
        (
            X[0, 0] * t[0] + X[1, 0] * t[1] + X[2, 0] * t[2],
            X[0, 1] * t[0] + X[1, 1] * t[1] + X[2, 1] * t[2],
            X[0, 2] * t[0] + X[1, 2] * t[1] + X[2, 2] * t[2],
        ),
    )
    deepest = start
    least = 1.7976931348623157e308
    for i in range(start, start + count):
        signed = n[0] * hv[i, 0] + n[1] * hv[i, 1] + n[2] * hv[i, 2] - d
        if signed < least:
            least, deepest = signed, i
    if least > 0:
        return False, 0.0, nW, nW
    v = (hv[deepest, 0], hv[deepest, 1], hv[deepest, 2])
    p = (
        X[0, 0] * v[0] + X[0, 1] * v[1] + X[0, 2] * v[2] + X[3, 0],
        X[1, 0] * v[0] + X[1, 1] * v[1] + X[1, 2] * v[2] + X[3, 1],
        X[2, 0] * v[0] + X[2, 1] * v[1] + X[2, 2] * v[2] + X[3, 2],
    )
    depth = -least
    q = 0.5 * depth
    position = (p[0] + nW[0] * q, p[1] + nW[1] * q, p[2] + nW[2] * q)
    return True, depth, (-nW[0], -nW[1], -nW[2]), position


@jitable
def shape_halfspace(kind, m, hv, start, count, X, X_H):
    """(found, depth, normal, position) of shape S (kind, measures m; a convex shape's hull
    vertices hv[start:start + count]) at pose X against the half space at X_H; the normal
    points from S into the half space."""
    if kind == BOX:
        return _box(m, X, X_H)
    if kind == CAPSULE:
        return _capsule(m[0], m[1], X, X_H)
    if kind == CYLINDER:
        return _cylinder(m[0], m[1], X, X_H)
    if kind == ELLIPSOID:
        return _ellipsoid(m, X, X_H)
    return _convex(hv, start, count, X, X_H)
