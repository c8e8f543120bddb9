"""Entry points of SceneGraph's proximity queries (called through ``mallard._compiled``): the
geometry model (gi, gf, hv, tri: _proximity_layout), the poses X_WG (ng, 4, 3), then each
query's own arrays. Pairs are (a, b) rows of geometry indices, a < b (indices are in GeometryId
order, so A is the geometry of smaller id); results go to rows of ``out`` in the order of the
pairs that report one, the pairs compacted alike, and a failure to ``status``: (code, a, b).
"""

import numpy as np

from mallard._compiled import entry_point
from mallard.geometry._kernels.bounds import SLACK, distance_bounds
from mallard.geometry._kernels.broadphase import fcl_box, sweep_and_prune, tight_box
from mallard.geometry._kernels.narrowphase import (
    intersect,
    penetration,
    signed_distance,
    simplex,
)
from mallard.geometry._kernels.plain import plain
from mallard.geometry._kernels.point_distance import point_distance
from mallard.geometry._proximity_layout import FRAME
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.pose import load_pose, pose_mul, store_pose


@jitable(inline=True)
def _plain7(a, b, c, d, e, f, g):
    """plain() of seven arrays (an entry point's, before its loop over pairs)."""
    return plain(a), plain(b), plain(c), plain(d), plain(e), plain(f), plain(g)


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
def proximity_poses(gi, gf, hv, X_WF, X_FG, X_WG):
    """:func:`geometry_poses` (X_WF per frame of the model, X_FG and X_WG per geometry)."""
    geometry_poses(gi, X_WF, X_FG, X_WG)


@entry_point
def proximity_boxes(gi, gf, hv, X_WG, fcl, boxes):
    """boxes[g] = the box of every geometry g at its pose: FCL's if ``fcl``
    (FindCollisionCandidates), else its tight box."""
    for g in range(gi.shape[0]):
        if fcl:
            fcl_box(gi, gf, hv, X_WG, g, boxes)
        else:
            tight_box(gi, gf, hv, X_WG, g, boxes)


@entry_point(allocates=True)
def proximity_candidates(gi, gf, hv, boxes, allowed, reach, order, pairs):
    """The allowed pairs whose boxes (proximity_boxes') are at most ``reach`` apart (every
    allowed pair if it is infinite), sorted, in pairs[:count]; returns count."""
    n = gi.shape[0]
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
def proximity_penetrations(gi, gf, hv, X_WG, pairs, count, ws, out, status):
    """The penetrations of pairs[:count] (depth, nhat_BA_W, p_WCa, p_WCb per row of out), each
    pair as Drake reports it (A, B: a pair may come out swapped, see kernels.narrowphase, and
    then status[1] = 1); returns how many penetrate, or −1 (status set) for an unsupported
    pair."""
    gi, gf, hv, X_WG, pairs, ws, out = _plain7(gi, gf, hv, X_WG, pairs, ws, out)
    status[1] = 0
    k = 0
    for p in range(count):
        a, b = pairs[p, 0], pairs[p, 1]
        found = penetration(gi, gf, hv, X_WG, a, b, ws, out[k])
        if found < 0:
            return _fail(status, found, a, b)
        if found:
            pairs[k, 0], pairs[k, 1] = (a, b) if found == 1 else (b, a)
            if found == 2:
                status[1] = 1  # (a pair came out swapped: the results need sorting)
            k += 1
    return k


@entry_point
def proximity_signed_distances(gi, gf, hv, X_WG, pairs, count, max_distance, ws, wi, out, status):
    """The signed distances of pairs[:count] (φ, nhat_BA_W, p_ACa, p_BCb per row of out) that
    are at most ``max_distance``; returns their number, or −1 (status set) for an unsupported
    pair or a failure. A pair whose cheap lower bound (kernels.bounds.distance_bounds) exceeds
    max_distance by more than GJK's and EPA's tolerance (SLACK) is not computed: it could not
    be found within."""
    gi, gf, hv, X_WG, pairs, ws, out = _plain7(gi, gf, hv, X_WG, pairs, ws, out)
    wi = plain(wi)
    k = 0
    for p in range(count):
        a, b = pairs[p, 0], pairs[p, 1]
        if max_distance < np.inf and distance_bounds(gi, gf, X_WG, a, b)[0] > max_distance + SLACK:
            continue
        code = signed_distance(gi, gf, hv, X_WG, a, b, ws, wi, out[k])
        if code < 0:
            return _fail(status, code, a, b)
        if out[k, 0] <= max_distance:
            pairs[k, 0], pairs[k, 1] = a, b
            k += 1
    return k


@entry_point
def proximity_intersecting(gi, gf, hv, X_WG, pairs, count, ws, scratch):
    """Whether any of pairs[:count] touches or overlaps."""
    gi, gf, hv, X_WG, pairs, ws, scratch = _plain7(gi, gf, hv, X_WG, pairs, ws, scratch)
    for p in range(count):
        if intersect(gi, gf, hv, X_WG, pairs[p, 0], pairs[p, 1], ws, scratch):
            return True
    return False


@entry_point
def proximity_point_distances(
    gi, gf, hv, tri, X_WG, p_WQ, threshold, supported, ws, wi, out, index, status
):
    """The signed distances from the point p_WQ to the geometries g with supported[g] ≠ 0
    (φ, p_GN, ∇φ_W per row of out) that are at most ``threshold``, their indices in
    index[:count]; returns count, or −1 (status set) for a failure."""
    P, _ = simplex(ws)
    k = 0
    for g in range(gi.shape[0]):
        if not supported[g]:
            continue
        code, phi, p_GN, grad = point_distance(gi, gf, hv, tri, X_WG[g], g, p_WQ, P, ws, wi)
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
