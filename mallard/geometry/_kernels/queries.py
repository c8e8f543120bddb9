"""Entry points of SceneGraph's proximity queries (called through ``mallard._compiled``): first
``held``, the geometry model and its workspaces (the arrays of :data:`HELD`: gi, gf, hv, tri,
X_FG as _proximity_layout declares them, the workspaces ws and wi, ``status``, a scratch row
and a row of 6 per geometry for boxes), then the poses X_WG (ng, 4, 3), then each query's own
arrays. ``held`` is, compiled, the address of an int64 block of (address, rows) per array of
HELD, in that order (ProximityModel.held: numba converts one integer instead of an array
each, about 0.05 µs an array), then the addresses of the kernels of :data:`ADDRESSES`
compiled once (kernels._by_address: EPA, kernels.epa.epa_at; the penetration, kernels.
narrowphase.penetration_at; each set by ProximityModel.call for the queries that may run it),
or the tuple of the arrays (interpreted, or compiled for a test: those kernels linked). Pairs
are (a, b) rows of geometry indices, a < b (indices are in GeometryId order, so A is the
geometry of smaller id); results go to rows of ``out`` in the order of the pairs that report
one, the pairs compacted alike, and a failure to ``status``: (code, a, b).
"""

import numpy as np
from numba import carray, types
from numba.extending import overload

from mallard._compiled import entry_point
from mallard.geometry._kernels.bounds import SLACK, ball_bounds, distance_bounds
from mallard.geometry._kernels.broadphase import fcl_box, sweep_and_prune, tight_box
from mallard.geometry._kernels.ccd import point_object
from mallard.geometry._kernels.narrowphase import (
    BY_GJK,
    _sphere_closed_form,
    closed_signed_distance,
    find_penetration,
    gjk_signed_distance,
    intersect,
    prepared,
    simplex,
)
from mallard.geometry._kernels.plain import plain
from mallard.geometry._kernels.point_distance import point_distance
from mallard.geometry._proximity_layout import (
    FRAME,
    GI_COLUMNS,
    KIND,
    PENETRATION,
    SPHERE,
    TRI_COLUMNS,
    WI_SIZE,
    WS_SIZE,
)
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.pose import load_pose, pose_mul, store_pose

#: The arrays ``held`` stands for, in order (see the module).
HELD = ("gi", "gf", "hv", "tri", "X_FG", "ws", "wi", "status", "scratch", "boxes")
#: The by-address kernels whose addresses end ``held``'s block, in order (see the module).
ADDRESSES = ("epa_at", "penetration_at")
_EPA_AT, _PENETRATION_AT = ADDRESSES.index("epa_at"), ADDRESSES.index("penetration_at")


def _held(held):
    """The arrays of HELD of an entry point's first argument (see the module)."""
    return held


@overload(_held)
def _held_compiled(held):
    if isinstance(held, types.Integer):  # (views holding no reference: plain's)

        def impl(held):
            b = carray(pointer(held), 2 * len(HELD), np.int64)
            return (
                carray(pointer(b[0]), (b[1], GI_COLUMNS), np.int64),
                carray(pointer(b[2]), (b[3], 3), np.float64),
                carray(pointer(b[4]), (b[5], 3), np.float64),
                carray(pointer(b[6]), (b[7], TRI_COLUMNS), np.float64),
                carray(pointer(b[8]), (b[9], 4, 3), np.float64),
                carray(pointer(b[10]), WS_SIZE, np.float64),
                carray(pointer(b[12]), WI_SIZE, np.int64),
                carray(pointer(b[14]), 3, np.int64),
                carray(pointer(b[16]), PENETRATION, np.float64),
                carray(pointer(b[18]), (b[19], 6), np.float64),
            )

        return impl
    return lambda held: held


def _address(held, i):
    """The address of the kernel ADDRESSES[i] compiled once held's block holds (see the
    module); None for the tuple of the arrays (interpreted, here: unused; compiled, that
    kernel linked)."""
    return None


@overload(_address)
def _address_compiled(held, i):
    if isinstance(held, types.Integer):
        at = 2 * len(HELD)
        return lambda held, i: carray(pointer(held), at + len(ADDRESSES), np.int64)[at + i]
    return lambda held, i: None


@jitable
def _epa_at(held):
    """The address of EPA compiled once (kernels.epa.epa_at): :func:`_address`."""
    return _address(held, _EPA_AT)


@jitable(inline=True)
def _plain3(a, b, c):
    """plain() of three arrays (an entry point's, before its loop over pairs)."""
    return plain(a), plain(b), plain(c)


@jitable
def _fail(status, code, a, b):
    status[0], status[1], status[2] = code, a, b
    return -1


@jitable
def geometry_poses(gi, X_WF, X_FG, X_WG):
    """X_WG[g] = X_WF[f]·X_FG[g] of every geometry g on frame f = gi[g, FRAME] (the one
    formula of the geometries' poses: QueryObject's and the compiled discrete step's)."""
    for g in range(X_WG.shape[0]):
        store_pose(pose_mul(load_pose(X_WF[gi[g, FRAME]]), load_pose(X_FG[g])), X_WG[g])


@entry_point
def proximity_poses(held, X_WF, X_WG):
    """:func:`geometry_poses` (X_WF per frame of the model, X_WG per geometry)."""
    gi, _, _, _, X_FG, _, _, _, _, _ = _held(held)
    geometry_poses(gi, X_WF, X_FG, X_WG)


@entry_point
def proximity_boxes(held, X_WG, fcl, boxes):
    """boxes[g] = the box of every geometry g at its pose: FCL's if ``fcl``
    (FindCollisionCandidates), else its tight box."""
    gi, gf, hv, _, _, _, _, _, _, _ = _held(held)
    for g in range(gi.shape[0]):
        if fcl:
            fcl_box(gi, gf, hv, X_WG, g, boxes)
        else:
            tight_box(gi, gf, hv, X_WG, g, boxes)


@entry_point
def proximity_candidates(held, boxes, allowed, reach, order, pairs):
    """The allowed pairs whose boxes (proximity_boxes') are at most ``reach`` apart (every
    allowed pair if it is infinite), sorted, in pairs[:count]; returns count."""
    n = _held(held)[0].shape[0]
    if reach == np.inf:
        count = 0
        for a in range(n):
            for b in range(a + 1, n):
                if allowed[a, b]:
                    pairs[count, 0], pairs[count, 1] = a, b
                    count += 1
        return count
    return sweep_and_prune(boxes, n, allowed, order, pairs, reach)


@entry_point
def proximity_penetrations(held, X_WG, pairs, count, out, found):
    """The penetrations of pairs[:count] (depth, nhat_BA_W, p_WCa, p_WCb per row of out), each
    pair as Drake reports it in the row of ``found`` of the same index (A, B: a pair may come
    out swapped, see kernels.narrowphase), sorted by (A, B) as Drake sorts them; returns how
    many penetrate, or −1 (status set) for an unsupported pair. A pair its bounds put apart
    (:func:`_apart`) is not computed."""
    gi, gf, hv, _, _, ws, _, status, _, _ = _held(held)
    penetration_at = _address(held, _PENETRATION_AT)
    X_WG, pairs, out = _plain3(X_WG, pairs, out)
    k = 0
    swapped = False
    for p in range(count):
        a, b = pairs[p, 0], pairs[p, 1]
        if _apart(gi, gf, X_WG, a, b, 0.0):
            continue
        code = find_penetration(gi, gf, hv, X_WG, a, b, ws, out[k], penetration_at)
        if code < 0:
            return _fail(status, code, a, b)
        if code:
            found[k, 0], found[k, 1] = (a, b) if code == 1 else (b, a)
            swapped = swapped or code == 2
            k += 1
    if swapped:
        _sort_rows(found, out, k)
    return k


@jitable
def _sort_rows(found, out, k):
    """Sorts found[:k] (pairs) by (A, B), the rows of ``out`` with them: an insertion sort
    (the pairs come sorted by (a, b) but for the few a narrowphase swapped)."""
    for i in range(1, k):
        j = i
        while j > 0 and (
            found[j - 1, 0] > found[j, 0]
            or (found[j - 1, 0] == found[j, 0] and found[j - 1, 1] > found[j, 1])
        ):
            for c in range(2):
                found[j - 1, c], found[j, c] = found[j, c], found[j - 1, c]
            for c in range(out.shape[1]):
                out[j - 1, c], out[j, c] = out[j, c], out[j - 1, c]
            j -= 1


@entry_point
def proximity_signed_distances(held, X_WG, pairs, count, max_distance, out):
    """The signed distances of pairs[:count] (φ, nhat_BA_W, p_ACa, p_BCb per row of out) that
    are at most ``max_distance``; returns their number, or −1 (status set) for an unsupported
    pair or a failure. A pair its bounds put farther apart than max_distance (:func:`_apart`)
    is not computed."""
    gi, gf, hv, _, _, ws, wi, status, _, _ = _held(held)
    epa_at = _epa_at(held)
    X_WG, pairs, out = _plain3(X_WG, pairs, out)
    # (What GJK needs of a pair's A, kept for its next pairs: pairs come sorted by A.)
    A, prepared_a = (point_object((0.0, 0.0, 0.0)), (0.0, 0.0, 0.0)), -1
    k = 0
    for p in range(count):
        a, b = pairs[p, 0], pairs[p, 1]
        if max_distance < np.inf and _apart(gi, gf, X_WG, a, b, max_distance):
            continue
        code = closed_signed_distance(gi, gf, X_WG, a, b, out[k])
        if code == BY_GJK:
            if a != prepared_a:
                A, prepared_a = prepared(gi, gf, hv, X_WG, a), a
            code = gjk_signed_distance(gi, gf, hv, X_WG, A, a, b, ws, wi, out[k], epa_at)
        if code < 0:
            return _fail(status, code, a, b)
        if out[k, 0] <= max_distance:
            pairs[k, 0], pairs[k, 1] = a, b
            k += 1
    return k


@entry_point
def proximity_intersecting(held, X_WG, pairs, count, last):
    """Whether any of pairs[:count] touches or overlaps. First the pair found touching by the
    last call (``last``: its geometries a, b and its index in that call's pairs; a = −1 for
    none), if it is among the pairs: poses that change little between calls keep it touching.
    Then the cheap answers: the pairs a sphere's closed form answers, and the pairs whose
    inscribed balls overlap past SLACK (kernels.bounds.ball_bounds); then the narrowphase of
    each other pair, unless its lower bounds (ball_bounds, distance_bounds) put it apart past
    SLACK or its upper bound (distance_bounds) says it overlaps. The pair found touching is
    kept in ``last``. Whether one pair touches is the narrowphase's answer in every order."""
    gi, gf, hv, _, _, ws, _, _, scratch, _ = _held(held)
    X_WG, pairs = plain(X_WG), plain(pairs)
    p = _last_pair(pairs, count, last)
    if p >= 0 and _touches(gi, gf, hv, X_WG, pairs[p, 0], pairs[p, 1], ws, scratch):
        return True
    for p in range(count):
        a, b = pairs[p, 0], pairs[p, 1]
        if _closed_form(gi, a, b):
            if intersect(gi, gf, hv, X_WG, a, b, ws, scratch):
                return _touching(pairs, p, last)
        elif ball_bounds(gi, gf, X_WG, a, b)[1] < -SLACK:
            return _touching(pairs, p, last)
    for p in range(count):
        a, b = pairs[p, 0], pairs[p, 1]
        if _closed_form(gi, a, b) or ball_bounds(gi, gf, X_WG, a, b)[0] > SLACK:
            continue
        lower, upper = distance_bounds(gi, gf, X_WG, a, b)
        if upper < -SLACK or (lower <= SLACK and intersect(gi, gf, hv, X_WG, a, b, ws, scratch)):
            return _touching(pairs, p, last)
    last[0] = -1
    return False


@jitable
def _touches(gi, gf, hv, X_WG, a, b, ws, scratch):
    """Whether a and b touch or overlap, the cheapest answer first (as
    proximity_intersecting's passes test each pair)."""
    if _closed_form(gi, a, b):
        return intersect(gi, gf, hv, X_WG, a, b, ws, scratch)
    lower, upper = ball_bounds(gi, gf, X_WG, a, b)
    if upper < -SLACK:
        return True
    if lower > SLACK:
        return False
    lower, upper = distance_bounds(gi, gf, X_WG, a, b)
    return upper < -SLACK or (lower <= SLACK and intersect(gi, gf, hv, X_WG, a, b, ws, scratch))


@jitable
def _last_pair(pairs, count, last):
    """The index in pairs[:count] of the pair ``last`` holds (see proximity_intersecting), or
    −1."""
    a, b, p = last[0], last[1], last[2]
    if a < 0:
        return -1
    if p < count and pairs[p, 0] == a and pairs[p, 1] == b:
        return p
    for q in range(count):
        if pairs[q, 0] == a and pairs[q, 1] == b:
            return q
    return -1


@jitable
def _touching(pairs, p, last):
    """Keeps pair p in ``last`` (see proximity_intersecting); returns True."""
    last[0], last[1], last[2] = pairs[p, 0], pairs[p, 1], p
    return True


@jitable
def _apart(gi, gf, X_WG, a, b, distance):
    """Whether a lower bound of the signed distance of a and b (kernels.bounds: their balls',
    distance_bounds') exceeds ``distance`` by more than SLACK (GJK's, EPA's and MPR's
    tolerances are below): then their narrowphase could not find them within it, nor
    touching or penetrating for ``distance`` = 0."""
    if ball_bounds(gi, gf, X_WG, a, b)[0] > distance + SLACK:
        return True
    return distance_bounds(gi, gf, X_WG, a, b)[0] > distance + SLACK


@jitable
def _closed_form(gi, a, b):
    """Whether a sphere's closed form answers the pair a, b."""
    ka, kb = gi[a, KIND], gi[b, KIND]
    return (ka == SPHERE and _sphere_closed_form(kb)) or (kb == SPHERE and _sphere_closed_form(ka))


@entry_point
def proximity_point_distances(held, X_WG, p_WQ, threshold, reach, supported, out, index):
    """The signed distances from the point p_WQ to the geometries g with supported[g] ≠ 0
    (φ, p_GN, ∇φ_W per row of out) that are at most ``threshold``, their indices in
    index[:count]; returns count, or −1 (status set) for a failure. With ``reach`` ≥ 0 (for
    a finite threshold: its value, or 0 if negative, plus SLACK), a geometry whose tight box
    is farther than ``reach`` from p_WQ is not computed (its distance is above threshold)."""
    gi, gf, hv, tri, _, ws, wi, status, _, boxes = _held(held)
    epa_at = _epa_at(held)
    X_WG, p_WQ, out = _plain3(X_WG, p_WQ, out)
    P, _ = simplex(ws)
    k = 0
    for g in range(gi.shape[0]):
        if not supported[g]:
            continue
        if reach >= 0.0:
            tight_box(gi, gf, hv, X_WG, g, boxes)
            gap2 = 0.0
            for i in range(3):
                gap = max(max(boxes[g, i] - p_WQ[i], p_WQ[i] - boxes[g, 3 + i]), 0.0)
                gap2 += gap * gap
            if gap2 > reach * reach:  # (NaN: computed)
                continue
        code, phi, p_GN, grad = point_distance(gi, gf, hv, tri, X_WG[g], g, p_WQ, P, ws, wi, epa_at)
        if code < 0:
            return _fail(status, code, g, g)
        if phi <= threshold:
            row = out[k]
            row[0] = phi
            row[1], row[2], row[3] = p_GN[0], p_GN[1], p_GN[2]
            row[4], row[5], row[6] = grad[0], grad[1], grad[2]
            index[k] = g
            k += 1
    return k
