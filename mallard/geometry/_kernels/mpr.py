"""Minkowski portal refinement (libccd's MPR, as FCL's collision calls it for the pairs it has
no closed form for): whether two convex objects intersect and, if they do, an approximate
penetration: the portal of A ⊖ B that the ray from an interior point of A ⊖ B through the origin
crosses is refined until it is within a tolerance of the boundary; the depth is the distance
from the origin to that portal, the direction its nearest point's, the contact point a
barycentric blend of the portal's support points. (Not the minimum translation: Drake reports
this answer.)

The portal ``P`` is a tuple of four support points (v0 the interior point, v1 v2 v3 the portal
triangle), each a tuple (v, v1, v2) of kernels.ccd.minkowski_point: held in registers, and no
array crosses a call in MPR's loops (a call with an array argument counts references to it, in
calls that spill the registers: with the portal in a workspace array and the support point
written to a row, each step cost ~25% more). ``hv`` is None for a pair of primitives (their MPR
then compiled without the hulls' branch and its array: ~10% more per step with it).
"""

import numpy as np

from mallard.geometry._kernels.ccd import (
    EPS,
    center,
    eq,
    is_zero,
    len2,
    minkowski_point,
    normalized,
    point_tri_dist2,
    vec_eq,
)
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.vec3 import cross3, dot3, sub

_ORIGIN = (0.0, 0.0, 0.0)


@jitable
def _discover_portal(o1, o2, hv, max_iterations):
    """(code, P): the portal the ray from the interior point through the origin crosses; code
    0 when found, −1 if the origin is outside A ⊖ B, 1 if it is at v1, 2 if it is on v0–v1
    (then P's v2 and v3 are v1). libccd's steps (v1, then v2, then v3 until the portal
    holds the ray) in one loop, so that the support points (inlined, a branch per shape kind
    for each object) are compiled at one site."""
    c1, c2 = center(o1), center(o2)
    v0 = sub(c1, c2)
    if vec_eq(v0, _ORIGIN):
        v0 = (v0[0] + EPS * 10.0, v0[1], v0[2])
    s0 = (v0, c1, c2)
    s1 = s2 = s0
    d = normalized((-v0[0], -v0[1], -v0[2]))
    for step in range(max_iterations + 2):  # (v1, v2, then v3 at most max_iterations times)
        s3 = minkowski_point(o1, o2, hv, d)
        dot = dot3(s3[0], d)
        if step == 0:  # v1
            s1 = s3
            if is_zero(dot) or dot < 0.0:
                return -1, (s0, s1, s1, s1)
            d = cross3(v0, s1[0])
            if is_zero(len2(d)):
                return (1 if vec_eq(s1[0], _ORIGIN) else 2), (s0, s1, s1, s1)
            d = normalized(d)
            continue
        if step == 1:  # v2
            s2 = s3
            if is_zero(dot) or dot < 0.0:
                return -1, (s0, s1, s2, s2)
            d = normalized(cross3(sub(s1[0], v0), sub(s2[0], v0)))
            if dot3(d, v0) > 0.0:
                s1, s2 = s2, s1
                d = (-d[0], -d[1], -d[2])
            continue
        if is_zero(dot) or dot < 0.0:
            return -1, (s0, s1, s2, s3)
        dot = dot3(cross3(s1[0], s3[0]), v0)
        if dot < 0.0 and not is_zero(dot):
            s2 = s3
        else:
            dot = dot3(cross3(s3[0], s2[0]), v0)
            if not (dot < 0.0 and not is_zero(dot)):
                return 0, (s0, s1, s2, s3)
            s1 = s3
        d = normalized(cross3(sub(s1[0], v0), sub(s2[0], v0)))
    return -1, (s0, s1, s2, s2)


@jitable
def _portal_dir(P):
    """The unit normal of the portal triangle v1 v2 v3, pointing out of A ⊖ B."""
    v1 = P[1][0]
    return normalized(cross3(sub(P[2][0], v1), sub(P[3][0], v1)))


@jitable
def _reaches_tolerance(P, v4, d, tolerance):
    """Whether the new support point v4 would not move the portal farther than the tolerance."""
    dv4 = dot3(v4, d)
    gap = min(min(dv4 - dot3(P[1][0], d), dv4 - dot3(P[2][0], d)), dv4 - dot3(P[3][0], d))
    return eq(gap, tolerance) or gap < tolerance


@jitable
def _expand_portal(P, s4):
    """The portal with the vertex that the support point s4 makes the new portal's replaced,
    keeping it facing out."""
    v4v0 = cross3(s4[0], P[0][0])
    if dot3(P[1][0], v4v0) > 0.0:
        if dot3(P[2][0], v4v0) > 0.0:
            return P[0], s4, P[2], P[3]
        return P[0], P[1], P[2], s4
    if dot3(P[3][0], v4v0) > 0.0:
        return P[0], P[1], s4, P[3]
    return P[0], s4, P[2], P[3]


@jitable
def _refine_portal(o1, o2, hv, P, tolerance, max_iterations):
    """(code, P): the portal expanded toward the origin; code 0 if the origin is inside
    A ⊖ B, −1 if not."""
    for _ in range(max_iterations):
        d = _portal_dir(P)
        dot = dot3(d, P[1][0])
        if is_zero(dot) or dot > 0.0:
            return 0, P
        s4 = minkowski_point(o1, o2, hv, d)
        dot = dot3(s4[0], d)
        if not (is_zero(dot) or dot > 0.0) or _reaches_tolerance(P, s4[0], d, tolerance):
            return -1, P
        P = _expand_portal(P, s4)
    return -1, P


@jitable
def _portal_position(P):
    """The contact point: the barycentric blend of the portal's points on A and on B."""
    d = _portal_dir(P)
    v0, v1, v2, v3 = P[0][0], P[1][0], P[2][0], P[3][0]
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
        p1, p2 = P[i][1], P[i][2]
        p1x += p1[0] * b[i]
        p1y += p1[1] * b[i]
        p1z += p1[2] * b[i]
        p2x += p2[0] * b[i]
        p2y += p2[1] * b[i]
        p2z += p2[2] * b[i]
    p1x, p1y, p1z = p1x * inv, p1y * inv, p1z * inv
    p2x, p2y, p2z = p2x * inv, p2y * inv, p2z * inv
    return (p1x + p2x) * 0.5, (p1y + p2y) * 0.5, (p1z + p2z) * 0.5


@jitable
def _midpoint(s):
    """The point halfway between support point s's points on A and on B."""
    p1, p2 = s[1], s[2]
    return (p1[0] + p2[0]) * 0.5, (p1[1] + p2[1]) * 0.5, (p1[2] + p2[2]) * 0.5


@jitable
def mpr_intersect(o1, o2, hv, tolerance, max_iterations):
    """Whether objects o1 and o2 intersect (libccd's ccdMPRIntersect)."""
    res, P = _discover_portal(o1, o2, hv, max_iterations)
    if res < 0:
        return False
    if res > 0:
        return True
    return _refine_portal(o1, o2, hv, P, tolerance, max_iterations)[0] == 0


@jitable
def mpr_penetration(o1, o2, hv, tolerance, max_iterations):
    """(found, depth, direction, position): libccd's ccdMPRPenetration of objects o1 and o2,
    the direction pointing from o1 into o2, the position between them (World)."""
    zero = (0.0, 0.0, 0.0)
    res, P = _discover_portal(o1, o2, hv, max_iterations)
    if res < 0:
        return False, 0.0, zero, zero
    if res == 1:  # touching at v1
        return True, 0.0, zero, _midpoint(P[1])
    if res == 2:  # the origin is on v0–v1
        d = P[1][0]
        return True, np.sqrt(len2(d)), normalized(d), _midpoint(P[1])
    res, P = _refine_portal(o1, o2, hv, P, tolerance, max_iterations)
    if res < 0:
        return False, 0.0, zero, zero
    iterations = 0
    while True:
        d = _portal_dir(P)
        s4 = minkowski_point(o1, o2, hv, d)
        if _reaches_tolerance(P, s4[0], d, tolerance) or iterations > max_iterations:
            depth2, w = point_tri_dist2(_ORIGIN, P[1][0], P[2][0], P[3][0])
            depth = np.sqrt(depth2)
            direction = zero if is_zero(depth) else normalized(w)
            return True, depth, direction, _portal_position(P)
        P = _expand_portal(P, s4)
        iterations += 1
