"""Minkowski portal refinement (libccd's MPR, as FCL's collision calls it for the pairs it has
no closed form for): whether two convex objects intersect and, if they do, an approximate
penetration: the portal of A ⊖ B that the ray from an interior point of A ⊖ B through the origin
crosses is refined until it is within a tolerance of the boundary; the depth is the distance
from the origin to that portal, the direction its nearest point's, the contact point a
barycentric blend of the portal's support points. (Not the minimum translation: Drake reports
this answer.)

The portal is four support points (v0 the interior point, v1 v2 v3 the portal triangle) in the
rows of ``P`` (4 × 9, a workspace section).
"""

import numpy as np

from mallard.geometry._kernels.ccd import (
    EPS,
    center,
    copy_support,
    eq,
    is_zero,
    len2,
    minkowski_support,
    normalized,
    point_tri_dist2,
    set_support,
    vec_eq,
)
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.vec3 import cross3, dot3, sub

_ORIGIN = (0.0, 0.0, 0.0)


@jitable
def _v(P, i):
    return P[i, 0], P[i, 1], P[i, 2]


@jitable
def _swap(P, i, j):
    for k in range(9):
        P[i, k], P[j, k] = P[j, k], P[i, k]


@jitable
def _discover_portal(o1, o2, hv, P, max_iterations):
    """Finds the portal the ray from the interior point through the origin crosses: 0 when
    found, −1 if the origin is outside A ⊖ B, 1 if it is at v1, 2 if it is on v0–v1."""
    c1, c2 = center(o1), center(o2)
    v0 = sub(c1, c2)
    if vec_eq(v0, _ORIGIN):
        v0 = (v0[0] + EPS * 10.0, v0[1], v0[2])
    set_support(P[0], v0, c1, c2)
    d = normalized((-v0[0], -v0[1], -v0[2]))
    minkowski_support(o1, o2, hv, d, P[1])
    dot = dot3(_v(P, 1), d)
    if is_zero(dot) or dot < 0.0:
        return -1
    d = cross3(v0, _v(P, 1))
    if is_zero(len2(d)):
        return 1 if vec_eq(_v(P, 1), _ORIGIN) else 2
    d = normalized(d)
    minkowski_support(o1, o2, hv, d, P[2])
    dot = dot3(_v(P, 2), d)
    if is_zero(dot) or dot < 0.0:
        return -1
    d = normalized(cross3(sub(_v(P, 1), v0), sub(_v(P, 2), v0)))
    if dot3(d, v0) > 0.0:
        _swap(P, 1, 2)
        d = (-d[0], -d[1], -d[2])
    for _ in range(max_iterations):
        minkowski_support(o1, o2, hv, d, P[3])
        dot = dot3(_v(P, 3), d)
        if is_zero(dot) or dot < 0.0:
            return -1
        moved = False
        dot = dot3(cross3(_v(P, 1), _v(P, 3)), _v(P, 0))
        if dot < 0.0 and not is_zero(dot):
            copy_support(P[3], P[2])
            moved = True
        if not moved:
            dot = dot3(cross3(_v(P, 3), _v(P, 2)), _v(P, 0))
            if dot < 0.0 and not is_zero(dot):
                copy_support(P[3], P[1])
                moved = True
        if not moved:
            return 0
        d = normalized(cross3(sub(_v(P, 1), _v(P, 0)), sub(_v(P, 2), _v(P, 0))))
    return -1


@jitable
def _portal_dir(P):
    """The unit normal of the portal triangle v1 v2 v3, pointing out of A ⊖ B."""
    v1 = _v(P, 1)
    return normalized(cross3(sub(_v(P, 2), v1), sub(_v(P, 3), v1)))


@jitable
def _reaches_tolerance(P, v4, d, tolerance):
    """Whether the new support point v4 would not move the portal farther than the tolerance."""
    dv4 = dot3(v4, d)
    gap = min(min(dv4 - dot3(_v(P, 1), d), dv4 - dot3(_v(P, 2), d)), dv4 - dot3(_v(P, 3), d))
    return eq(gap, tolerance) or gap < tolerance


@jitable
def _expand_portal(P, v4_row):
    """Replaces the portal vertex that the support point v4 (a row of 9) makes the new
    portal's, keeping the portal facing out."""
    v4v0 = cross3((v4_row[0], v4_row[1], v4_row[2]), _v(P, 0))
    if dot3(_v(P, 1), v4v0) > 0.0:
        if dot3(_v(P, 2), v4v0) > 0.0:
            copy_support(v4_row, P[1])
        else:
            copy_support(v4_row, P[3])
    elif dot3(_v(P, 3), v4v0) > 0.0:
        copy_support(v4_row, P[2])
    else:
        copy_support(v4_row, P[1])


@jitable
def _refine_portal(o1, o2, hv, P, v4, tolerance, max_iterations):
    """Expands the portal toward the origin: 0 if the origin is inside A ⊖ B, −1 if not."""
    for _ in range(max_iterations):
        d = _portal_dir(P)
        dot = dot3(d, _v(P, 1))
        if is_zero(dot) or dot > 0.0:
            return 0
        minkowski_support(o1, o2, hv, d, v4)
        dot = dot3((v4[0], v4[1], v4[2]), d)
        if not (is_zero(dot) or dot > 0.0) or _reaches_tolerance(
            P, (v4[0], v4[1], v4[2]), d, tolerance
        ):
            return -1
        _expand_portal(P, v4)
    return -1


@jitable
def _portal_position(P):
    """The contact point: the barycentric blend of the portal's points on A and on B."""
    d = _portal_dir(P)
    v0, v1, v2, v3 = _v(P, 0), _v(P, 1), _v(P, 2), _v(P, 3)
    b0 = dot3(cross3(v1, v2), v3)
    b1 = dot3(cross3(v3, v2), v0)
    b2 = dot3(cross3(v0, v1), v3)
    b3 = dot3(cross3(v2, v1), v0)
    total = b0 + b1 + b2 + b3
    if is_zero(total) or total < 0.0:
        b0 = 0.0
        b1 = dot3(cross3(v2, v3), d)
        b2 = dot3(cross3(v3, v1), d)
        b3 = dot3(cross3(v1, v2), d)
        total = b1 + b2 + b3
    inv = 1.0 / total
    b = (b0, b1, b2, b3)
    p1x = p1y = p1z = p2x = p2y = p2z = 0.0
    for i in range(4):
        p1x += P[i, 3] * b[i]
        p1y += P[i, 4] * b[i]
        p1z += P[i, 5] * b[i]
        p2x += P[i, 6] * b[i]
        p2y += P[i, 7] * b[i]
        p2z += P[i, 8] * b[i]
    p1x, p1y, p1z = p1x * inv, p1y * inv, p1z * inv
    p2x, p2y, p2z = p2x * inv, p2y * inv, p2z * inv
    return (p1x + p2x) * 0.5, (p1y + p2y) * 0.5, (p1z + p2z) * 0.5


@jitable
def mpr_intersect(o1, o2, hv, P, v4, tolerance, max_iterations):
    """Whether objects o1 and o2 intersect (libccd's ccdMPRIntersect)."""
    res = _discover_portal(o1, o2, hv, P, max_iterations)
    if res < 0:
        return False
    if res > 0:
        return True
    return _refine_portal(o1, o2, hv, P, v4, tolerance, max_iterations) == 0


@jitable
def mpr_penetration(o1, o2, hv, P, v4, tolerance, max_iterations):
    """(found, depth, direction, position): libccd's ccdMPRPenetration of objects o1 and o2,
    the direction pointing from o1 into o2, the position between them (World). ``P`` (4 × 9)
    and ``v4`` (9) are scratch."""
    zero = (0.0, 0.0, 0.0)
    res = _discover_portal(o1, o2, hv, P, max_iterations)
    if res < 0:
        return False, 0.0, zero, zero
    if res == 1:  # touching at v1
        pos = (
            (P[1, 3] + P[1, 6]) * 0.5,
            (P[1, 4] + P[1, 7]) * 0.5,
            (P[1, 5] + P[1, 8]) * 0.5,
        )
        return True, 0.0, zero, pos
    if res == 2:  # the origin is on v0–v1
        pos = (
            (P[1, 3] + P[1, 6]) * 0.5,
            (P[1, 4] + P[1, 7]) * 0.5,
            (P[1, 5] + P[1, 8]) * 0.5,
        )
        d = _v(P, 1)
        return True, np.sqrt(len2(d)), normalized(d), pos
    if _refine_portal(o1, o2, hv, P, v4, tolerance, max_iterations) < 0:
        return False, 0.0, zero, zero
    iterations = 0
    while True:
        d = _portal_dir(P)
        minkowski_support(o1, o2, hv, d, v4)
        if (
            _reaches_tolerance(P, (v4[0], v4[1], v4[2]), d, tolerance)
            or iterations > max_iterations
        ):
            depth2, w = point_tri_dist2(_ORIGIN, _v(P, 1), _v(P, 2), _v(P, 3))
            depth = np.sqrt(depth2)
            direction = zero if is_zero(depth) else normalized(w)
            return True, depth, direction, _portal_position(P)
        _expand_portal(P, v4)
        iterations += 1
