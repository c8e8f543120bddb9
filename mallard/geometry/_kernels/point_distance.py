"""The signed distance from a point Q to a shape G, as Drake computes it (its closed forms for a
sphere, half space, capsule, box and cylinder; GJK for an ellipsoid; the nearest triangle and
its feature normals for a Convex's hull or a Mesh's surface): (φ, p_GN, ∇φ_W), the distance
(negative inside), the nearest point N on G's surface in G and the gradient of φ with respect
to p_WQ, a unit vector in World.

The closed forms take any scalar (AutoDiffXd interpreted: derivatives of φ, p_GN and ∇φ with
respect to whatever p_WQ and X_WG depend on). ``X`` is the pose X_WG, a 4×3 array [R; pᵀ].
"""

import numpy as np

from mallard.geometry._kernels.ccd import make_object, point_object
from mallard.geometry._kernels.epa import penetration_depth
from mallard.geometry._kernels.gjk import eigen_normalized, gjk_distance, gjk_intersect
from mallard.geometry._proximity_layout import (
    BOX,
    CAPSULE,
    CYLINDER,
    ELLIPSOID,
    HALFSPACE,
    SPHERE,
    TRI_A,
    TRI_B,
    TRI_C,
    TRI_CORNER_N,
    TRI_COUNT,
    TRI_EDGE_N,
    TRI_N,
    TRI_START,
)
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.vec3 import mat_vec


# ---- helpers: a pose applied to points and vectors ----------------------------------------------
@jitable
def to_geometry(X, p_WQ):
    """p_GQ = X_WG⁻¹·p_WQ."""
    d0, d1, d2 = p_WQ[0] - X[3, 0], p_WQ[1] - X[3, 1], p_WQ[2] - X[3, 2]
    return (
        X[0, 0] * d0 + X[1, 0] * d1 + X[2, 0] * d2,
        X[0, 1] * d0 + X[1, 1] * d1 + X[2, 1] * d2,
        X[0, 2] * d0 + X[1, 2] * d1 + X[2, 2] * d2,
    )


#: R_WG·v, of a pose X_WG (4 × 3, R_WG in its first three rows): vec3's R·a.
rotate_to_world = mat_vec


@jitable
def rotate_to_geometry(X, v):
    """R_WGᵀ·v."""
    return (
        X[0, 0] * v[0] + X[1, 0] * v[1] + X[2, 0] * v[2],
        X[0, 1] * v[0] + X[1, 1] * v[1] + X[2, 1] * v[2],
        X[0, 2] * v[0] + X[1, 2] * v[1] + X[2, 2] * v[2],
    )


@jitable
def to_world(X, p):
    """X_WG·p."""
    w = rotate_to_world(X, p)
    return w[0] + X[3, 0], w[1] + X[3, 1], w[2] + X[3, 2]


@jitable
def tolerance(size):
    """Drake's DistanceToPointRelativeTolerance: 1e-14·max(1, size)."""
    return 1e-14 * max(1.0, size)


@jitable
def _sign(x):
    """Drake's Sign: −1 for x < 0, else 1."""
    return -1.0 if x < 0 else 1.0


# ---- the closed forms ----------------------------------------------------------------------------
@jitable
def sphere_in_sphere_frame(radius, p_SQ):
    """(φ, p_SN, ∇φ_S) of a sphere centered at S's origin (∇φ = Sx at the center)."""
    dist = np.sqrt(p_SQ[0] * p_SQ[0] + p_SQ[1] * p_SQ[1] + p_SQ[2] * p_SQ[2])
    if dist > tolerance(radius):
        grad = (p_SQ[0] / dist, p_SQ[1] / dist, p_SQ[2] / dist)
    else:
        zero = 0.0 * p_SQ[0]
        grad = (1.0 + zero, zero, zero)
    p_SN = (radius * grad[0], radius * grad[1], radius * grad[2])
    phi = (
        (p_SQ[0] - p_SN[0]) * grad[0]
        + (p_SQ[1] - p_SN[1]) * grad[1]
        + (p_SQ[2] - p_SN[2]) * grad[2]
    )
    return phi, p_SN, grad


@jitable
def _sphere(radius, X, p_WQ):
    phi, p_GN, grad_G = sphere_in_sphere_frame(radius, to_geometry(X, p_WQ))
    return phi, p_GN, rotate_to_world(X, grad_G)


@jitable
def _halfspace(X, p_WQ):
    p_GQ = to_geometry(X, p_WQ)
    return p_GQ[2], (p_GQ[0], p_GQ[1], 0.0 * p_GQ[2]), (X[0, 2], X[1, 2], X[2, 2])


@jitable
def _capsule(radius, half_length, X, p_WQ):
    p_GQ = to_geometry(X, p_WQ)
    if p_GQ[2] >= half_length or p_GQ[2] <= -half_length:
        z = half_length if p_GQ[2] >= half_length else -half_length
        phi, p_SN, grad = sphere_in_sphere_frame(radius, (p_GQ[0], p_GQ[1], p_GQ[2] - z))
        return phi, (p_SN[0], p_SN[1], z + p_SN[2]), rotate_to_world(X, grad)
    phi, p_GM, grad = sphere_in_sphere_frame(radius, (p_GQ[0], p_GQ[1], 0.0 * p_GQ[2]))
    return phi, (p_GM[0], p_GM[1], p_GQ[2]), rotate_to_world(X, grad)


@jitable
def _clamp(h, coord):
    """(clamped coordinate, location: 0 inside, 1 on the boundary, 2 outside) for the box
    interval [−h, h] with Drake's tolerance."""
    tol = tolerance(h)
    zero = 0.0 * coord  # (a bound of coord's scalar type)
    if abs(coord) > h + tol:
        return _sign(coord) * h + zero, 2
    if abs(coord) >= h - tol:
        return _sign(coord) * h + zero, 1
    return coord, 0


@jitable
def _extremal_axis(p, h):
    """The axis whose coordinate is nearest its bound (ties: +x, −x, +y, −y, +z, −z)."""
    best = np.inf
    axis = -1
    for i in range(len(h)):
        for bound in (h[i], -h[i]):
            d = abs(bound - p[i])
            if d < best:
                best, axis = d, i
    return axis


@jitable
def box_distance_3(h, p):
    """(p_GN, ∇φ_G) of Drake's ComputeDistanceToBox for the box [−h, h] (3 axes) at p."""
    c0, l0 = _clamp(h[0], p[0])
    c1, l1 = _clamp(h[1], p[1])
    c2, l2 = _clamp(h[2], p[2])
    zero = 0.0 * p[0]
    if l0 == 2 or l1 == 2 or l2 == 2:
        d = (p[0] - c0, p[1] - c1, p[2] - c2)
        n = np.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
        return (c0, c1, c2), (d[0] / n, d[1] / n, d[2] / n)
    if l0 == 1 or l1 == 1 or l2 == 1:
        g0 = _sign(c0) if l0 == 1 else 0.0
        g1 = _sign(c1) if l1 == 1 else 0.0
        g2 = _sign(c2) if l2 == 1 else 0.0
        n = np.sqrt(g0 * g0 + g1 * g1 + g2 * g2)
        return (c0, c1, c2), (g0 / n + zero, g1 / n + zero, g2 / n + zero)
    axis = _extremal_axis(p, h)
    s = _sign(p[axis])
    if axis == 0:
        return (s * h[0] + zero, c1, c2), (s + zero, zero, zero)
    if axis == 1:
        return (c0, s * h[1] + zero, c2), (zero, s + zero, zero)
    return (c0, c1, s * h[2] + zero), (zero, zero, s + zero)


@jitable
def box_distance_2(h, p):
    """(p_BN, ∇φ_B) of Drake's ComputeDistanceToBox for the rectangle [−h, h] (2 axes)."""
    c0, l0 = _clamp(h[0], p[0])
    c1, l1 = _clamp(h[1], p[1])
    zero = 0.0 * p[0]
    if l0 == 2 or l1 == 2:
        d = (p[0] - c0, p[1] - c1)
        n = np.sqrt(d[0] * d[0] + d[1] * d[1])
        return (c0, c1), (d[0] / n, d[1] / n)
    if l0 == 1 or l1 == 1:
        g0 = _sign(c0) if l0 == 1 else 0.0
        g1 = _sign(c1) if l1 == 1 else 0.0
        n = np.sqrt(g0 * g0 + g1 * g1)
        return (c0, c1), (g0 / n + zero, g1 / n + zero)
    axis = _extremal_axis(p, h)
    s = _sign(p[axis])
    if axis == 0:
        return (s * h[0] + zero, c1), (s + zero, zero)
    return (c0, s * h[1] + zero), (zero, s + zero)


@jitable
def _gradient_distance(X, p_GN, grad_G, p_WQ):
    """(φ, p_GN, ∇φ_W) with φ = ∇φ_W·(p_WQ − p_WN), as Drake's box and cylinder."""
    grad_W = rotate_to_world(X, grad_G)
    p_WN = to_world(X, p_GN)
    phi = (
        grad_W[0] * (p_WQ[0] - p_WN[0])
        + grad_W[1] * (p_WQ[1] - p_WN[1])
        + grad_W[2] * (p_WQ[2] - p_WN[2])
    )
    return phi, p_GN, grad_W


@jitable
def _box(h, X, p_WQ):
    p_GN, grad_G = box_distance_3(h, to_geometry(X, p_WQ))
    return _gradient_distance(X, p_GN, grad_G, p_WQ)


@jitable
def _cylinder(radius, half_length, X, p_WQ):
    p_GQ = to_geometry(X, p_WQ)
    r_Q = np.sqrt(p_GQ[0] * p_GQ[0] + p_GQ[1] * p_GQ[1])
    if r_Q < tolerance(radius):
        zero = 0.0 * p_GQ[0]
        v0, v1 = 1.0 + zero, zero
    else:
        v0, v1 = p_GQ[0] / r_Q, p_GQ[1] / r_Q
    r = np.sqrt(p_GQ[0] * p_GQ[0] + p_GQ[1] * p_GQ[1])
    p_BN, grad_B = box_distance_2((radius, half_length), (r, p_GQ[2]))
    p_GN = (p_BN[0] * v0, p_BN[0] * v1, p_BN[1])
    grad_G = (grad_B[0] * v0, grad_B[0] * v1, grad_B[1])
    return _gradient_distance(X, p_GN, grad_G, p_WQ)


# ---- the iterative and mesh cases (float64 only) ------------------------------------------------
@jitable
def _ellipsoid(gi, gf, hv, X, g, p_WQ, P, ws, wi, epa_at):
    """Drake's: FCL's GJK signed distance to a sphere of radius zero at Q (tolerance 1e-6),
    the gradient the ellipsoid's normal at the witness point."""
    o1 = make_object(gi, gf, X, g)
    o2 = point_object(p_WQ)
    intersect, size, ready = gjk_intersect(o1, o2, hv, P, 1000)
    if intersect:
        status, depth, p_WN, _ = penetration_depth(o1, o2, hv, P, size, ws, wi, 1e-6, epa_at)
        if status < 0:
            return status, 0.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
        phi = -depth
    else:
        phi, p_WN, _ = gjk_distance(o1, o2, hv, P, size, ready, 1e-6, 1000)
    p_GN = to_geometry(X, p_WN)
    a, b, c = gf[g, 0], gf[g, 1], gf[g, 2]
    grad_G = eigen_normalized((p_GN[0] / (a * a), p_GN[1] / (b * b), p_GN[2] / (c * c)))
    return 0, phi, p_GN, rotate_to_world(X, grad_G)


@jitable
def _barycentric(p, a, b, c):
    """The barycentric coordinates of the projection of p on the plane of triangle abc (least
    squares, as Drake's CalcBarycentric)."""
    u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    v = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
    r = (p[0] - a[0], p[1] - a[1], p[2] - a[2])
    uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2]
    uv = u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
    vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
    ur = u[0] * r[0] + u[1] * r[1] + u[2] * r[2]
    vr = v[0] * r[0] + v[1] * r[1] + v[2] * r[2]
    det = uu * vv - uv * uv
    b1 = (vv * ur - uv * vr) / det
    b2 = (uu * vr - uv * ur) / det
    return 1.0 - b1 - b2, b1, b2


@jitable
def _row3(T, t, j):
    return T[t, j], T[t, j + 1], T[t, j + 2]


@jitable
def _surface(gi, tri, X, g, p_WQ):
    """The nearest triangle of G's surface (tri rows) and the feature normal there decide the
    side (Drake's CalcSignedDistanceToSurfaceMesh)."""
    p = to_geometry(X, p_WQ)
    best = np.inf
    best_N = (0.0, 0.0, 0.0)
    best_n = (0.0, 0.0, 1.0)
    start = gi[g, TRI_START]
    for t in range(start, start + gi[g, TRI_COUNT]):
        corners = (_row3(tri, t, TRI_A), _row3(tri, t, TRI_B), _row3(tri, t, TRI_C))
        b0, b1, b2 = _barycentric(p, corners[0], corners[1], corners[2])
        if b0 > 0 and b1 > 0 and b2 > 0:
            N = (
                corners[0][0] * b0 + corners[1][0] * b1 + corners[2][0] * b2,
                corners[0][1] * b0 + corners[1][1] * b1 + corners[2][1] * b2,
                corners[0][2] * b0 + corners[1][2] * b1 + corners[2][2] * b2,
            )
            d2 = (p[0] - N[0]) ** 2 + (p[1] - N[1]) ** 2 + (p[2] - N[2]) ** 2
            if d2 < best:
                best, best_N, best_n = d2, N, _row3(tri, t, TRI_N)
            continue
        previous = 2
        for i in range(3):
            A, B = corners[previous], corners[i]
            AB = (B[0] - A[0], B[1] - A[1], B[2] - A[2])
            s = (AB[0] * (p[0] - A[0]) + AB[1] * (p[1] - A[1]) + AB[2] * (p[2] - A[2])) / (
                AB[0] * AB[0] + AB[1] * AB[1] + AB[2] * AB[2]
            )
            if s <= 0:
                N, n = A, _row3(tri, t, TRI_CORNER_N + 3 * previous)
            elif s >= 1:
                N, n = B, _row3(tri, t, TRI_CORNER_N + 3 * i)
            else:
                N = (
                    (1.0 - s) * A[0] + s * B[0],
                    (1.0 - s) * A[1] + s * B[1],
                    (1.0 - s) * A[2] + s * B[2],
                )
                n = _row3(tri, t, TRI_EDGE_N + 3 * i)
            d2 = (p[0] - N[0]) ** 2 + (p[1] - N[1]) ** 2 + (p[2] - N[2]) ** 2
            if d2 < best:
                best, best_N, best_n = d2, N, n
            previous = i
    NQ = (p[0] - best_N[0], p[1] - best_N[1], p[2] - best_N[2])
    s = 1.0 if NQ[0] * best_n[0] + NQ[1] * best_n[1] + NQ[2] * best_n[2] >= 0 else -1.0
    distance = np.sqrt(best)
    if distance == 0:
        grad = best_n
    else:
        unit = eigen_normalized(NQ)
        grad = (s * unit[0], s * unit[1], s * unit[2])
    return s * distance, best_N, rotate_to_world(X, grad)


# ---- dispatch ----------------------------------------------------------------------------------
@jitable
def closed_form(kind, m, X, p_WQ):
    """(φ, p_GN, ∇φ_W) for a sphere, half space, capsule, box or cylinder of measures m (any
    scalar)."""
    if kind == SPHERE:
        return _sphere(m[0], X, p_WQ)
    if kind == HALFSPACE:
        return _halfspace(X, p_WQ)
    if kind == CAPSULE:
        return _capsule(m[0], m[1], X, p_WQ)
    if kind == BOX:
        return _box(m, X, p_WQ)
    return _cylinder(m[0], m[1], X, p_WQ)


@jitable
def point_distance(gi, gf, hv, tri, X, g, p_WQ, P, ws, wi, epa_at):
    """(status, φ, p_GN, ∇φ_W) of geometry g at pose X (float64): status 0, or a failure of
    EPA (negative; EPA at the address ``epa_at``: kernels.epa.penetration_depth)."""
    kind = gi[g, 0]
    if kind == ELLIPSOID:
        return _ellipsoid(gi, gf, hv, X, g, p_WQ, P, ws, wi, epa_at)
    if kind == SPHERE or kind == HALFSPACE or kind == CAPSULE or kind == BOX or kind == CYLINDER:
        phi, p_GN, grad = closed_form(kind, (gf[g, 0], gf[g, 1], gf[g, 2]), X, p_WQ)
        return 0, phi, p_GN, grad
    phi, p_GN, grad = _surface(gi, tri, X, g, p_WQ)
    return 0, phi, p_GN, grad
