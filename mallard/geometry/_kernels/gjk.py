"""GJK (libccd's, with FCL's simplex updates): whether two convex objects intersect, and the
distance between them and its witness points when they do not. Signed distance
(:func:`signed_distance`) continues with EPA (kernels.epa) when they do, as FCL's
GJKSignedDistance.

The simplex is up to four support points in the rows of ``P`` (4 × 9); its size is passed
and returned (the last point is the newest).

The signed distance's path (gjk_intersect_from, gjk_distance and the Minkowski supports and
nearest points of its steps) is inlined by LLVM into its caller (``llvm_inline``;
kernels.narrowphase.gjk_signed_distance): a call passes both objects' 40 floats, and calls
took a sixth of the every-pair query's kernel.
"""

import numpy as np

from mallard.geometry._kernels.ccd import (
    copy_support,
    is_zero,
    len2,
    minkowski_support,
    minkowski_support_inlined,
    normalized,
    point_segment_dist2,
    point_tri_dist2,
    point_tri_dist2_inlined,
    set_support,
    support,
    vec_eq,
)
from mallard.geometry._proximity_layout import WS_SCRATCH, WS_SIMPLEX
from mallard.multibody._kernels._machinery import jitable, reshaped
from mallard.multibody._kernels.vec3 import cross3, dot3, sub

#: numeric_limits<double>::epsilon() (FCL's constants<double>::eps()).
_EPS = 2.220446049250313e-16


@jitable
def simplex(ws):
    """The simplex (4 × 9) and a spare support point (9) of the workspace ws."""
    return reshaped(ws[WS_SIMPLEX : WS_SIMPLEX + 36], (4, 9)), ws[WS_SCRATCH : WS_SCRATCH + 9]


_ORIGIN = (0.0, 0.0, 0.0)
#: sin² of the angle between two edges above which they are not collinear to ε (see
#: triangle_area_is_zero).
_CLEARLY_NOT_COLLINEAR = 1e-20
#: GJK's first search direction (libccd's).
FIRST_DIRECTION = (1.0, 0.0, 0.0)
#: How far behind the origin (relative to the support points' coordinates, at least 1) the
#: first step's support point must be for :func:`_apart_at_first_step`.
_APART_MARGIN = 1e-10


@jitable
def _v(P, i):
    return P[i, 0], P[i, 1], P[i, 2]


@jitable
def eigen_normalized(a):
    """Eigen's normalized(): a / |a| (a unchanged if zero)."""
    z = len2(a)
    if z > 0.0:
        n = np.sqrt(z)
        return a[0] / n, a[1] / n, a[2] / n
    return a


@jitable
def _triple_cross(a, b, c):
    return cross3(cross3(a, b), c)


@jitable
def _do_simplex2(P, d):
    """The segment (B = P[0], A = P[1]): (1, d) if it holds the origin, else (0, the direction
    from the segment toward the origin)."""
    p_OA, p_OB = _v(P, 1), _v(P, 0)
    p_AB = sub(p_OB, p_OA)
    plane_normal = cross3(p_OB, p_AB)
    if len2(plane_normal) < len2(p_AB) * len2(p_OB) * _EPS * _EPS:
        return 1, d
    return 0, cross3(eigen_normalized(plane_normal), p_AB)


@jitable
def _do_simplex3(P, size, d):
    """The triangle (C = P[0], B = P[1], A = P[2]): (status, size, direction): status 1 if it
    holds the origin, −1 if degenerate, 0 to go on with the simplex reduced to the feature
    nearest the origin."""
    A, B, C = _v(P, 2), _v(P, 1), _v(P, 0)
    dist_squared, _ = point_tri_dist2(_ORIGIN, A, B, C)
    if abs(dist_squared) < _EPS * _EPS:
        return 1, size, d
    if vec_eq(A, B) or vec_eq(A, C):
        return -1, size, d
    AO = (-A[0], -A[1], -A[2])
    AB = sub(B, A)
    AC = sub(C, A)
    ABC = cross3(AB, AC)
    edge_AB = False
    dot = dot3(cross3(ABC, AC), AO)
    if is_zero(dot) or dot > 0.0:
        dot = dot3(AC, AO)
        if is_zero(dot) or dot > 0.0:
            copy_support(P[2], P[1])
            return 0, 2, _triple_cross(AC, AO, AC)
        edge_AB = True
    else:
        dot = dot3(cross3(AB, ABC), AO)
        if is_zero(dot) or dot > 0.0:
            edge_AB = True
        else:
            dot = dot3(ABC, AO)
            if is_zero(dot) or dot > 0.0:
                return 0, size, ABC
            for k in range(9):
                P[0, k], P[1, k] = P[1, k], P[0, k]
            return 0, size, (-ABC[0], -ABC[1], -ABC[2])
    if edge_AB:
        dot = dot3(AB, AO)
        if is_zero(dot) or dot > 0.0:
            copy_support(P[1], P[0])
            copy_support(P[2], P[1])
            return 0, 2, _triple_cross(AB, AO, AB)
        copy_support(P[2], P[0])
        return 0, 1, AO
    return 0, size, d


@jitable
def _do_simplex4(P, size, d):
    """The tetrahedron (D, C, B, A = P[0..3]): as :func:`_do_simplex3`."""
    A, B, C, D = _v(P, 3), _v(P, 2), _v(P, 1), _v(P, 0)
    AB, AC, AD = sub(B, A), sub(C, A), sub(D, A)
    AS = (-A[0], -A[1], -A[2])
    n_ABC = eigen_normalized(cross3(AB, AC))
    so_ABC = dot3(n_ABC, AS)
    d_ABC = dot3(n_ABC, AD)
    if abs(d_ABC) < _EPS:
        return -1, size, d
    if abs(so_ABC) < _EPS:
        if abs(point_tri_dist2(_ORIGIN, A, B, C)[0]) < _EPS * _EPS:
            return 1, size, d
    n_ACD = eigen_normalized(cross3(AC, AD))
    so_ACD = dot3(n_ACD, AS)
    if abs(so_ACD) < _EPS:
        if abs(point_tri_dist2(_ORIGIN, A, C, D)[0]) < _EPS * _EPS:
            return 1, size, d
    n_ADB = eigen_normalized(cross3(AD, AB))
    so_ADB = dot3(n_ADB, AS)
    if abs(so_ADB) < _EPS:
        if abs(point_tri_dist2(_ORIGIN, A, D, B)[0]) < _EPS * _EPS:
            return 1, size, d
    in_ABC = so_ABC * d_ABC > 0
    in_ADB = so_ADB * dot3(n_ADB, AC) > 0
    in_ACD = so_ACD * dot3(n_ACD, AB) > 0
    if in_ABC and in_ADB and in_ACD:
        return 1, size, d
    if not in_ACD:
        copy_support(P[3], P[2])
    elif not in_ADB:
        copy_support(P[0], P[1])
        copy_support(P[2], P[0])
        copy_support(P[3], P[2])
    else:
        copy_support(P[1], P[0])
        copy_support(P[2], P[1])
        copy_support(P[3], P[2])
    return _do_simplex3(P, 3, d)


@jitable(inline=True)
def _apart_at_first_step(o1, o2, hv, P):
    """Whether the support point along −P[0] is clearly behind the origin (libccd's GJK then
    ends at its first step: apart), computed along the unit direction −P[0]/|P[0]| into P[1]:
    the support point :func:`gjk_distance` starts from, to its bits. libccd's, along −P[0]
    itself, is the same point to rounding (a few ε of the coordinates, far below the
    margin), so the two tests agree whenever this one answers True."""
    d = (-P[0, 0], -P[0, 1], -P[0, 2])
    if not len2(d) > 0.0:
        return False
    n = normalized(d)
    minkowski_support_inlined(o1, o2, hv, n, P[1])
    scale = max(
        max(1.0, max(abs(P[1, 3]), abs(P[1, 4]))),
        max(max(abs(P[1, 5]), abs(P[1, 6])), max(abs(P[1, 7]), abs(P[1, 8]))),
    )
    return dot3(_v(P, 1), n) < -_APART_MARGIN * scale


@jitable
def first_support(o, hv):
    """The support point of object o along GJK's first direction: o1's part of GJK's first
    support point, the same in every pair o1 is in (:func:`gjk_intersect_from`)."""
    return support(o, hv, FIRST_DIRECTION)


@jitable
def gjk_intersect(o1, o2, hv, P, max_iterations):
    """(intersect, simplex size, ready): libccd's GJK. When the objects intersect, ``P`` holds
    a simplex of A ⊖ B that contains the origin; when not, one toward it, and ``ready`` says
    whether P[size] already holds :func:`gjk_distance`'s first support point (objects clearly
    apart at the first step, see :func:`_apart_at_first_step`: the support point libccd
    computes there and _ccdDist computes again along the same direction, once)."""
    return gjk_intersect_from(o1, first_support(o1, hv), o2, hv, P, max_iterations)


@jitable(llvm_inline=True)
def gjk_intersect_from(o1, v1, o2, hv, P, max_iterations):
    """:func:`gjk_intersect` given v1 = first_support(o1, hv) (computed once for the pairs
    of one object o1)."""
    d = FIRST_DIRECTION
    v2 = support(o2, hv, (-d[0], -d[1], -d[2]))
    set_support(P[0], sub(v1, v2), v1, v2)
    size = 1
    if _apart_at_first_step(o1, o2, hv, P):
        return False, size, True
    d = (-P[0, 0], -P[0, 1], -P[0, 2])
    for _ in range(max_iterations):
        minkowski_support(o1, o2, hv, d, P[size])
        if dot3(_v(P, size), d) < 0.0:
            return False, size, False
        size += 1
        if size == 2:
            status, d = _do_simplex2(P, d)
        elif size == 3:
            status, size, d = _do_simplex3(P, size, d)
        else:
            status, size, d = _do_simplex4(P, size, d)
        if status == 1:
            return True, size, False
        if status == -1:
            return False, size, False
        if is_zero(len2(d)):
            return False, size, False
    return False, size, False


@jitable
def _points_from_segment(P, a, b, p):
    """The points on A and on B of the point p of the segment of support points a–b."""
    AB = sub(_v(P, b), _v(P, a))
    ax, ay, az = abs(AB[0]), abs(AB[1]), abs(AB[2])
    if ax >= ay and ax >= az:
        i = 0
    elif ay >= az:
        i = 1
    else:
        i = 2
    if abs(AB[i]) < _EPS:
        return (P[a, 3], P[a, 4], P[a, 5]), (P[a, 6], P[a, 7], P[a, 8])
    s = (p[i] - P[a, i]) / AB[i]
    p1 = (
        P[a, 3] + (P[b, 3] - P[a, 3]) * s,
        P[a, 4] + (P[b, 4] - P[a, 4]) * s,
        P[a, 5] + (P[b, 5] - P[a, 5]) * s,
    )
    p2 = (
        P[a, 6] + (P[b, 6] - P[a, 6]) * s,
        P[a, 7] + (P[b, 7] - P[a, 7]) * s,
        P[a, 8] + (P[b, 8] - P[a, 8]) * s,
    )
    return p1, p2


@jitable
def _coincident(p, q):
    """FCL's are_coincident: equal on every axis to ε·max(1, |pᵢ|, |qᵢ|)."""
    for i in range(3):
        tolerance = max(max(1.0, abs(p[i])), abs(q[i])) * _EPS
        if abs(p[i] - q[i]) > tolerance:
            return False
    return True


@jitable
def triangle_area_is_zero(a, b, c):
    """FCL's test of a degenerate triangle: coincident corners or collinear edges."""
    if _coincident(a, b) or _coincident(a, c):
        return True
    ab, ac = sub(b, a), sub(c, a)
    # (Edges at more than 1e-10 rad (sin² > 1e-20) cannot be collinear to FCL's ε² once
    # normalized: the normalizations are needed only below that.)
    if len2(cross3(ab, ac)) > _CLEARLY_NOT_COLLINEAR * (len2(ab) * len2(ac)):
        return False
    n = cross3(normalized(ab), normalized(ac))
    return len2(n) < _EPS * _EPS


@jitable
def closest_points(P, size, p):
    """(p1, p2): the points on A and on B of the point p of the simplex (size ≤ 3)."""
    if size == 1:
        return (P[0, 3], P[0, 4], P[0, 5]), (P[0, 6], P[0, 7], P[0, 8])
    if size == 2:
        return _points_from_segment(P, 0, 1, p)
    a, b, c = _v(P, 0), _v(P, 1), _v(P, 2)
    if triangle_area_is_zero(a, b, c):
        ab, ac, bc = len2(sub(b, a)), len2(sub(c, a)), len2(sub(c, b))
        if ab >= ac and ab >= bc:
            return _points_from_segment(P, 0, 1, p)
        if ac >= ab and ac >= bc:
            return _points_from_segment(P, 0, 2, p)
        return _points_from_segment(P, 1, 2, p)
    r_AB, r_AC = sub(b, a), sub(c, a)
    n = cross3(r_AB, r_AC)
    nn = len2(n)
    r_Ap = sub(p, a)
    beta = dot3(n, cross3(r_Ap, r_AC)) / nn
    gamma = dot3(n, cross3(r_AB, r_Ap)) / nn
    p1 = (
        P[0, 3] + (P[1, 3] - P[0, 3]) * beta + (P[2, 3] - P[0, 3]) * gamma,
        P[0, 4] + (P[1, 4] - P[0, 4]) * beta + (P[2, 4] - P[0, 4]) * gamma,
        P[0, 5] + (P[1, 5] - P[0, 5]) * beta + (P[2, 5] - P[0, 5]) * gamma,
    )
    p2 = (
        P[0, 6] + (P[1, 6] - P[0, 6]) * beta + (P[2, 6] - P[0, 6]) * gamma,
        P[0, 7] + (P[1, 7] - P[0, 7]) * beta + (P[2, 7] - P[0, 7]) * gamma,
        P[0, 8] + (P[1, 8] - P[0, 8]) * beta + (P[2, 8] - P[0, 8]) * gamma,
    )
    return p1, p2


@jitable
def _reduce_to_triangle(P, dist, witness):
    """(distance, witness): the face of the tetrahedron P nearest the origin, if nearer than
    ``dist`` (whose nearest point is ``witness``), becomes the simplex (P[0..2])."""
    best = -1
    for i in range(3):
        a = 3 if i == 0 else 0
        b = 3 if i == 1 else 1
        c = 3 if i == 2 else 2
        d2, w = point_tri_dist2(_ORIGIN, _v(P, a), _v(P, b), _v(P, c))
        d = np.sqrt(d2)
        if d < dist:
            dist, best, witness = d, i, w
    if best >= 0:
        copy_support(P[3], P[best])
    return dist, witness


@jitable(llvm_inline=True)
def gjk_distance(o1, o2, hv, P, size, ready, tolerance, max_iterations):
    """(distance, p1, p2) of separated objects from the GJK simplex (``size`` points in P)
    toward the origin (libccd's _ccdDist): the simplex is refined until the distance improves
    by less than ``tolerance``; p1 on o1, p2 on o2 (World). Distance −1 if not converged.
    ``ready``: P[size] holds the first support point already (:func:`gjk_intersect`'s)."""
    last_dist = 1.7976931348623157e308
    zero = (0.0, 0.0, 0.0)
    closest = zero
    for _ in range(max_iterations):
        if size == 1:
            closest = _v(P, 0)
            dist = np.sqrt(len2(closest))
        elif size == 2:
            d2, closest = point_segment_dist2(_ORIGIN, _v(P, 0), _v(P, 1))
            dist = np.sqrt(d2)
        elif size == 3:
            d2, closest = point_tri_dist2_inlined(_ORIGIN, _v(P, 0), _v(P, 1), _v(P, 2))
            dist = np.sqrt(d2)
        else:
            # (No nearer face: the nearest point stays the last one, as FCL's does in practice.)
            dist, closest = _reduce_to_triangle(P, last_dist, closest)
            size = 3
        if last_dist - dist < tolerance:
            p1, p2 = closest_points(P, size, closest)
            return dist, p1, p2
        d = normalized((-closest[0], -closest[1], -closest[2]))
        if not ready:
            minkowski_support_inlined(o1, o2, hv, d, P[size])
        ready = False
        last_dist = dist
        dist = np.sqrt(len2(_v(P, size)))
        if abs(last_dist - dist) < tolerance:
            p1, p2 = closest_points(P, size, closest)
            return last_dist, p1, p2
        size += 1
    return -1.0, zero, zero
