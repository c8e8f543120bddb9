"""Cheap bounds of two geometries' signed distance (no narrowphase): the balls about a
geometry's origin that hold it and that it holds, and tighter bounds where cheap (a box's
distance to the other's ball, two cylinders' or capsules' axis distance). BatchedPlant's
collision checks (kernels.batch) and the distance queries (kernels.queries) rule pairs out
with them, and HasCollisions' query, only past SLACK, so that every answer is the
narrowphase's."""

import numpy as np

from mallard.geometry._kernels.point_distance import closed_form
from mallard.geometry._proximity_layout import BOX, CAPSULE, CYLINDER, ELLIPSOID, KIND, SPHERE
from mallard.multibody._kernels._machinery import jitable

#: How far above a distance (the least found or bounded, or a query's max_distance) a pair's
#: lower bound must be for the pair to be ruled out (m): above GJK's and EPA's tolerance
#: (1e-6), so that every distance they could compute below it is computed.
SLACK = 1e-5


@jitable
def outer_radius(kind, r, h, c):
    """The radius of the least ball about the origin of a sphere, box, capsule, cylinder or
    ellipsoid of measures (r, h, c) that holds it (−1 for another shape)."""
    if kind == SPHERE:
        return r
    if kind == BOX:
        return np.sqrt(r * r + h * h + c * c)
    if kind == CAPSULE:
        return h + r
    if kind == CYLINDER:
        return np.sqrt(r * r + h * h)
    if kind == ELLIPSOID:
        return max(r, max(h, c))
    return -1.0


@jitable
def inner_radius(kind, r, h, c):
    """The radius of the greatest ball about the origin of a sphere, box, capsule, cylinder or
    ellipsoid of measures (r, h, c) that it holds (−1 for another shape)."""
    if kind == SPHERE or kind == CAPSULE:
        return r
    if kind == BOX or kind == ELLIPSOID:
        return min(r, min(h, c))
    if kind == CYLINDER:
        return min(r, h)
    return -1.0


@jitable
def ball_bounds(gi, gf, X_WG, a, b):
    """(lower, upper) bounds of the signed distance of a and b from the balls about their
    origins that hold them and that they hold: the distance of the origins less the sum of
    the outer radii, of the inner radii (−inf, +inf if one is not a sphere, box, capsule,
    cylinder or ellipsoid)."""
    Ra = outer_radius(gi[a, KIND], gf[a, 0], gf[a, 1], gf[a, 2])
    Rb = outer_radius(gi[b, KIND], gf[b, 0], gf[b, 1], gf[b, 2])
    if Ra < 0 or Rb < 0:
        return -np.inf, np.inf
    d0 = X_WG[a, 3, 0] - X_WG[b, 3, 0]
    d1 = X_WG[a, 3, 1] - X_WG[b, 3, 1]
    d2 = X_WG[a, 3, 2] - X_WG[b, 3, 2]
    d = np.sqrt(d0 * d0 + d1 * d1 + d2 * d2)
    ra = inner_radius(gi[a, KIND], gf[a, 0], gf[a, 1], gf[a, 2])
    rb = inner_radius(gi[b, KIND], gf[b, 0], gf[b, 1], gf[b, 2])
    return d - Ra - Rb, d - ra - rb


@jitable
def _axis(X_WG, g, h):
    """(p, d): the segment p ± d of a cylinder's or capsule's axis (half length h)."""
    p = (X_WG[g, 3, 0], X_WG[g, 3, 1], X_WG[g, 3, 2])
    return p, (h * X_WG[g, 0, 2], h * X_WG[g, 1, 2], h * X_WG[g, 2, 2])


@jitable
def _dot(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


@jitable
def _segment_distance(p1, d1, p2, d2):
    """The distance between the segments p1 + s·d1 and p2 + t·d2 (s, t in [−1, 1]), or −inf
    where they are nearly parallel (then rounding could make it exceed the true distance)."""
    r = (p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2])
    a, e, b = _dot(d1, d1), _dot(d2, d2), _dot(d1, d2)
    c, f = _dot(d1, r), _dot(d2, r)
    denominator = a * e - b * b
    if not denominator > 1e-6 * a * e:
        return -np.inf
    # The closest points of the lines, then of the segments (clamping one, then the other).
    s = min(1.0, max(-1.0, (b * f - c * e) / denominator))
    t = (b * s + f) / e
    if t < -1.0 or t > 1.0:
        t = min(1.0, max(-1.0, t))
        s = min(1.0, max(-1.0, (b * t - c) / a))
    w = (r[0] + s * d1[0] - t * d2[0], r[1] + s * d1[1] - t * d2[1], r[2] + s * d1[2] - t * d2[2])
    return np.sqrt(_dot(w, w))


@jitable
def distance_bounds(gi, gf, X_WG, a, b):
    """(lower, upper) bounds of the signed distance of a and b tighter than their balls' where
    cheap (else −inf, +inf): a box's signed distance to the other's center, less the other's
    outer radius (plus its inner radius: its inner ball is inside it); for two cylinders or
    capsules, the distance of the capsules that hold them (their radii, half lengths) and of
    those they hold."""
    ka, kb = gi[a, KIND], gi[b, KIND]
    if ka == SPHERE or kb == SPHERE:  # (a sphere's pairs are closed forms: no bound is cheaper)
        return -np.inf, np.inf
    if kb == BOX:
        ka, kb, a, b = kb, ka, b, a
    if ka == BOX:
        R = outer_radius(kb, gf[b, 0], gf[b, 1], gf[b, 2])
        if R < 0:
            return -np.inf, np.inf
        p_WBo = (X_WG[b, 3, 0], X_WG[b, 3, 1], X_WG[b, 3, 2])
        phi = closed_form(BOX, (gf[a, 0], gf[a, 1], gf[a, 2]), X_WG[a], p_WBo)[0]
        return phi - R, phi - inner_radius(kb, gf[b, 0], gf[b, 1], gf[b, 2])
    if (ka == CYLINDER or ka == CAPSULE) and (kb == CYLINDER or kb == CAPSULE):
        p1, d1 = _axis(X_WG, a, gf[a, 1])
        p2, d2 = _axis(X_WG, b, gf[b, 1])
        lower = _segment_distance(p1, d1, p2, d2) - gf[a, 0] - gf[b, 0]
        # A cylinder holds the capsule of radius ρ = min(r, h) about its axis shortened by ρ
        # (a capsule: itself).
        ra, rb = (
            inner_radius(ka, gf[a, 0], gf[a, 1], 0.0),
            inner_radius(kb, gf[b, 0], gf[b, 1], 0.0),
        )
        p1, d1 = _axis(X_WG, a, gf[a, 1] - (ra if ka == CYLINDER else 0.0))
        p2, d2 = _axis(X_WG, b, gf[b, 1] - (rb if kb == CYLINDER else 0.0))
        upper = _segment_distance(p1, d1, p2, d2)
        return lower, upper - ra - rb if upper > -np.inf else np.inf
    return -np.inf, np.inf
