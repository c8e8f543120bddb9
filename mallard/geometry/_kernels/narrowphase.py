"""Which algorithm answers a pair of geometries, as Drake (v1.51) dispatches it, and Drake's
conventions for the answer. Geometry ``a`` is the one of smaller GeometryId (A), ``b`` the other
(B); ``X_WG`` holds every geometry's pose.

* Penetration (ComputePointPairPenetration): a sphere with a sphere, box, capsule, cylinder or
  half space by Drake's closed forms (kernels.sphere_pairs, reported from depth 0 on); two
  boxes, or a half space with a box, capsule, cylinder, ellipsoid or convex shape, by FCL's
  closed forms; every other pair by MPR (tolerance 2e-12). FCL's answers are reported from a
  depth above ε on, with nhat_BA_W the negated FCL normal and the witness points half the depth
  either side of FCL's contact point — and, for a sphere B with an ellipsoid or convex A, with
  A and B swapped (B reported as A), as Drake does.
* Signed distance: a sphere with a sphere, box, capsule, cylinder or half space in closed form;
  a half space with any other shape is unsupported; every other pair by GJK, then EPA when they
  overlap (tolerance 1e-6), nhat_BA_W = (p_WCa − p_WCb)/φ (for |φ| < 1e-14 the sphere's normal
  if one is a sphere of positive radius, else NaN).
* Intersection (HasCollisions): the same closed forms and MPR, without the depth threshold.

Statuses (negative): UNSUPPORTED (a pair Drake throws for), and EPA's failures.

The penetration is, compiled, one kernel called by address (:func:`penetration_at`,
kernels._by_address) from the contact queries' pair kernel (kernels.discrete_step.point_pairs)
and SceneGraph's penetration query (kernels.queries.proximity_penetrations), through
:func:`find_penetration`.
"""

import numpy as np
from numba import carray, types
from numba.extending import overload

from mallard._compiled import by_address
from mallard.geometry._kernels.box_box import box_box
from mallard.geometry._kernels.ccd import make_object
from mallard.geometry._kernels.epa import penetration_depth
from mallard.geometry._kernels.gjk import (
    first_support,
    gjk_distance,
    gjk_intersect_from,
    simplex,
)
from mallard.geometry._kernels.halfspace_pairs import shape_halfspace
from mallard.geometry._kernels.mpr import mpr_intersect, mpr_penetration
from mallard.geometry._kernels.point_distance import rotate_to_world, to_geometry
from mallard.geometry._kernels.sphere_pairs import sphere_distance, sphere_penetration
from mallard.geometry._proximity_layout import (
    BOX,
    CAPSULE,
    CONVEX,
    CYLINDER,
    GI_COLUMNS,
    HALFSPACE,
    HULL_COUNT,
    HULL_START,
    KIND,
    MESH,
    PENETRATION,
    SPHERE,
    WS_SCRATCH,
    WS_SIZE,
)
from mallard.multibody._kernels._by_address import address_of, call_at
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._pointer import pointer

UNSUPPORTED = -10
#: FCL's collision tolerance as Drake sets it, and its iteration limit.
MPR_TOLERANCE, MPR_ITERATIONS = 2e-12, 500
#: The signed distance's GJK/EPA tolerance (Drake's default) and iteration limit (FCL's).
DISTANCE_TOLERANCE, DISTANCE_ITERATIONS = 1e-6, 1000
_EPS = 2.220446049250313e-16


@jitable
def _sphere_closed_form(kind):
    """Whether a sphere with this shape has a closed form (Drake's sphere-shape functors)."""
    return kind == SPHERE or kind == BOX or kind == CAPSULE or kind == CYLINDER or kind == HALFSPACE


@jitable
def _has_hull(kind):
    """Whether a shape of this kind is a hull (Convex, Mesh): MPR then needs the hulls'
    vertices (else it is compiled without them: kernels.mpr)."""
    return kind == CONVEX or kind == MESH


@jitable
def _m(gf, g):
    return gf[g, 0], gf[g, 1], gf[g, 2]


@jitable
def _fcl_closed_form(ka, kb):
    """Whether FCL answers a pair of these kinds (not a sphere with a closed form; not two
    half spaces) in closed form: two boxes, or a half space with another shape."""
    return (ka == BOX and kb == BOX) or ka == HALFSPACE or kb == HALFSPACE


@jitable
def _fcl_contact(gi, gf, hv, X_WG, a, b, ws):
    """(found, depth, normal, position): FCL's contact between a and b (not a sphere with a
    closed form; not two half spaces), the normal pointing from a into b."""
    if _fcl_closed_form(gi[a, KIND], gi[b, KIND]):
        return _fcl_closed_contact(gi, gf, hv, X_WG, a, b, ws)
    o1, o2 = make_object(gi, gf, X_WG[a], a), make_object(gi, gf, X_WG[b], b)
    if _has_hull(gi[a, KIND]) or _has_hull(gi[b, KIND]):
        return mpr_penetration(o1, o2, hv, MPR_TOLERANCE, MPR_ITERATIONS)
    return mpr_penetration(o1, o2, None, MPR_TOLERANCE, MPR_ITERATIONS)


@jitable
def _fcl_closed_contact(gi, gf, hv, X_WG, a, b, ws):
    """:func:`_fcl_contact` of a pair FCL answers in closed form (:func:`_fcl_closed_form`):
    without MPR, which the intersection test (:func:`intersect`) of such a pair does not
    reach."""
    ka, kb = gi[a, KIND], gi[b, KIND]
    if ka == BOX and kb == BOX:
        return box_box(_m(gf, a), X_WG[a], _m(gf, b), X_WG[b], ws[WS_SCRATCH : WS_SCRATCH + 40])
    if kb == HALFSPACE:
        return shape_halfspace(
            ka, _m(gf, a), hv, gi[a, HULL_START], gi[a, HULL_COUNT], X_WG[a], X_WG[b]
        )
    found, depth, n, pos = shape_halfspace(  # (a is the half space)
        kb, _m(gf, b), hv, gi[b, HULL_START], gi[b, HULL_COUNT], X_WG[b], X_WG[a]
    )
    return found, depth, (-n[0], -n[1], -n[2]), pos


@jitable
def penetration(gi, gf, hv, X_WG, a, b, ws, out):
    """Writes the penetration of a and b in ``out`` (depth, nhat_BA_W, p_WCa, p_WCb); returns
    1 if they penetrate, 2 if they do and Drake reports them as (b, a) (a sphere b with an
    ellipsoid or convex a), 0 if not, or UNSUPPORTED (two half spaces)."""
    ka, kb = gi[a, KIND], gi[b, KIND]
    if ka == SPHERE and _sphere_closed_form(kb):
        return 1 if sphere_penetration(gf[a, 0], X_WG[a], kb, _m(gf, b), X_WG[b], True, out) else 0
    if kb == SPHERE and _sphere_closed_form(ka):
        return 1 if sphere_penetration(gf[b, 0], X_WG[b], ka, _m(gf, a), X_WG[a], False, out) else 0
    if ka == HALFSPACE and kb == HALFSPACE:
        return UNSUPPORTED
    found, depth, normal, pos = _fcl_contact(gi, gf, hv, X_WG, a, b, ws)
    if not found or depth <= _EPS:
        return 0
    # Drake swaps A and B after FCL's answer for a sphere B (with an ellipsoid or convex A).
    s = -1.0 if kb == SPHERE else 1.0
    h = 0.5 * depth * s
    out[0] = depth
    out[1], out[2], out[3] = -normal[0] * s, -normal[1] * s, -normal[2] * s
    out[4], out[5], out[6] = pos[0] + h * normal[0], pos[1] + h * normal[1], pos[2] + h * normal[2]
    out[7], out[8], out[9] = pos[0] - h * normal[0], pos[1] - h * normal[1], pos[2] - h * normal[2]
    return 2 if kb == SPHERE else 1


@by_address
def penetration_at(gi, gf, hv, X_WG, ng, nhv, a, b, ws, out):
    """:func:`penetration` compiled once (kernels._by_address), which :func:`find_penetration`
    calls compiled: gi (ng × GI_COLUMNS), gf (ng × 3), hv (nhv × 3), X_WG (ng × 4 × 3), ws
    (WS_SIZE) and out (PENETRATION) as the addresses of their data; returns its code."""
    f = np.float64
    return penetration(
        carray(pointer(gi), (ng, GI_COLUMNS), np.int64), carray(pointer(gf), (ng, 3), f),
        carray(pointer(hv), (nhv, 3), f), carray(pointer(X_WG), (ng, 4, 3), f), a, b,
        carray(pointer(ws), WS_SIZE, f), carray(pointer(out), PENETRATION, f),
    )  # fmt: skip


def find_penetration(gi, gf, hv, X_WG, a, b, ws, out, address):
    """:func:`penetration`: interpreted, here; compiled, by the penetration compiled once at
    the address ``address`` (``Kernels.address("penetration_at")``), called, not linked into
    the caller's code (the arrays C-contiguous), or, for an address None, linked."""
    return penetration(gi, gf, hv, X_WG, a, b, ws, out)


@overload(find_penetration)
def _find_penetration_compiled(gi, gf, hv, X_WG, a, b, ws, out, address):
    if isinstance(address, types.NoneType):
        return lambda gi, gf, hv, X_WG, a, b, ws, out, address: penetration(
            gi, gf, hv, X_WG, a, b, ws, out
        )

    def impl(gi, gf, hv, X_WG, a, b, ws, out, address):
        arguments = (address_of(gi), address_of(gf), address_of(hv), address_of(X_WG),
                     gi.shape[0], hv.shape[0], a, b, address_of(ws), address_of(out))  # fmt: skip
        return call_at(address, arguments)

    return impl


@jitable
def _halfspaces_intersect(X1, X2):
    """Whether two half spaces intersect: unless their normals are opposite and they are
    apart (FCL's halfspaceIntersect)."""
    n1 = (X1[0, 2], X1[1, 2], X1[2, 2])
    n2 = (X2[0, 2], X2[1, 2], X2[2, 2])
    if n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2] + 1.0 > _EPS:
        return True
    d1 = n1[0] * X1[3, 0] + n1[1] * X1[3, 1] + n1[2] * X1[3, 2]
    d2 = n2[0] * X2[3, 0] + n2[1] * X2[3, 1] + n2[2] * X2[3, 2]
    return d1 + d2 >= 0


@jitable
def intersect(gi, gf, hv, X_WG, a, b, ws, scratch):
    """Whether a and b touch or overlap (HasCollisions' test); ``scratch`` holds a row of 10."""
    ka, kb = gi[a, KIND], gi[b, KIND]
    if ka == SPHERE and _sphere_closed_form(kb):
        return sphere_penetration(gf[a, 0], X_WG[a], kb, _m(gf, b), X_WG[b], True, scratch)
    if kb == SPHERE and _sphere_closed_form(ka):
        return sphere_penetration(gf[b, 0], X_WG[b], ka, _m(gf, a), X_WG[a], False, scratch)
    if ka == HALFSPACE and kb == HALFSPACE:
        return _halfspaces_intersect(X_WG[a], X_WG[b])
    if _fcl_closed_form(ka, kb):
        return _fcl_closed_contact(gi, gf, hv, X_WG, a, b, ws)[0]
    o1, o2 = make_object(gi, gf, X_WG[a], a), make_object(gi, gf, X_WG[b], b)
    if _has_hull(ka) or _has_hull(kb):
        return mpr_intersect(o1, o2, hv, MPR_TOLERANCE, MPR_ITERATIONS)
    return mpr_intersect(o1, o2, None, MPR_TOLERANCE, MPR_ITERATIONS)


@jitable
def _normalized(v):
    n = np.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return v[0] / n, v[1] / n, v[2] / n


#: :func:`closed_signed_distance`'s answer for a pair that GJK and EPA answer.
BY_GJK = 1


@jitable
def signed_distance(gi, gf, hv, X_WG, a, b, ws, wi, out, epa_at):
    """Writes the signed distance of a and b in ``out`` (φ, nhat_BA_W, p_ACa, p_BCb); returns
    0, UNSUPPORTED (a half space with a shape other than a sphere) or EPA's failure (EPA at
    the address ``epa_at``: kernels.epa.penetration_depth)."""
    code = closed_signed_distance(gi, gf, X_WG, a, b, out)
    if code != BY_GJK:
        return code
    # (The every-pair query's loop prepares A once for its pairs instead:
    # kernels.queries.proximity_signed_distances.)
    A = prepared(gi, gf, hv, X_WG, a)
    return gjk_signed_distance(gi, gf, hv, X_WG, A, a, b, ws, wi, out, epa_at)


@jitable(llvm_inline=True)
def closed_signed_distance(gi, gf, X_WG, a, b, out):
    """:func:`signed_distance` of the pairs a sphere's closed form answers (then 0), or
    UNSUPPORTED, or BY_GJK for the others (out untouched)."""
    ka, kb = gi[a, KIND], gi[b, KIND]
    if ka == SPHERE and _sphere_closed_form(kb):
        sphere_distance(gf[a, 0], X_WG[a], kb, _m(gf, b), X_WG[b], True, out)
        return 0
    if kb == SPHERE and _sphere_closed_form(ka):
        sphere_distance(gf[b, 0], X_WG[b], ka, _m(gf, a), X_WG[a], False, out)
        return 0
    if ka == HALFSPACE or kb == HALFSPACE:
        return UNSUPPORTED
    return BY_GJK


@jitable
def prepared(gi, gf, hv, X_WG, a):
    """What GJK needs of geometry a (the A of a pair), the same in every pair with a: its
    object and its first support point (kernels.gjk.first_support)."""
    o1 = make_object(gi, gf, X_WG[a], a)
    return o1, first_support(o1, hv)


@jitable
def gjk_signed_distance(gi, gf, hv, X_WG, A, a, b, ws, wi, out, epa_at):
    """:func:`signed_distance` of a pair of BY_GJK, A = prepared(…, a): FCL's GJK signed
    distance (EPA when they overlap, at the address ``epa_at``: kernels.epa.
    penetration_depth). GJK's steps are inlined into it (kernels.gjk), compiled
    once; it is not inlined itself: LLVM inlining of the function that calls EPA doubled
    proximity_signed_distances' compile time (20 → 36-46 s of CPU)."""
    P, _ = simplex(ws)
    o1, v1 = A
    o2 = make_object(gi, gf, X_WG[b], b)
    overlap, size, ready = gjk_intersect_from(o1, v1, o2, hv, P, DISTANCE_ITERATIONS)
    if overlap:
        status, depth, p1, p2 = penetration_depth(
            o1, o2, hv, P, size, ws, wi, DISTANCE_TOLERANCE, epa_at
        )
        if status < 0:
            return status
        phi = -depth
    else:
        phi, p1, p2 = gjk_distance(
            o1, o2, hv, P, size, ready, DISTANCE_TOLERANCE, DISTANCE_ITERATIONS
        )
    ka, kb = gi[a, KIND], gi[b, KIND]
    Xa, Xb = X_WG[a], X_WG[b]
    p_ACa, p_BCb = to_geometry(Xa, p1), to_geometry(Xb, p2)
    if abs(phi) < 1e-14:
        if ka == SPHERE and gf[a, 0] > 0:
            u = _normalized(p_ACa)
            n = rotate_to_world(Xa, (-u[0], -u[1], -u[2]))
        elif kb == SPHERE and gf[b, 0] > 0:
            n = rotate_to_world(Xb, _normalized(p_BCb))
        else:
            n = (np.nan, np.nan, np.nan)
    else:
        n = ((p1[0] - p2[0]) / phi, (p1[1] - p2[1]) / phi, (p1[2] - p2[2]) / phi)
    out[0] = phi
    out[1], out[2], out[3] = n[0], n[1], n[2]
    out[4], out[5], out[6] = p_ACa[0], p_ACa[1], p_ACa[2]
    out[7], out[8], out[9] = p_BCb[0], p_BCb[1], p_BCb[2]
    return 0
