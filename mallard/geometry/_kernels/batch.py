"""The batched entry point of collision checking (BatchedPlant.CheckCollisions): a plant's
configurations, many at once, each checked against its collision geometry, one after the
other on the calling thread (compiled, it releases the GIL: Python threads may run it at once,
each with rows of its own).

Per configuration q: the body poses (the plant's kinematics, kernels.kinematics), each
geometry's pose X_WG = X_WB·X_BG (an anchored geometry's X_WG given), then the allowed pairs:

* collision-free only: the tight boxes grown by the padding, sweep-and-prune (kernels.
  broadphase), and for each pair whose boxes overlap whether it is within the padding (the
  narrowphase's intersection test for a padding of 0, the signed distance else), stopping at
  the first;
* with the minimum signed distance, or the distances of the pairs within a distance: every
  allowed pair whose boxes' gap does not rule it out, by its signed distance.

Arrays: the plant's flat model and a Context's workspace (mi, mf, ws0, as the dynamics'
batched entry points), Q (N, nq), the geometry model (gi, gf, hv), per geometry its body's
mobod (``mobod``, −1 for an anchored geometry) and X_BG (its X_WG if anchored), the allowed
pairs (a mask and a list), then the rows the call computes in: ``row`` (a batch row of
kernels.batch: a workspace and a state), ``gws`` (ng poses, ng boxes, the narrowphase's float
workspace) and ``gwi`` (the sweep's order and pairs, the narrowphase's int workspace).
"""

import numpy as np

from mallard.geometry._kernels.broadphase import sweep_and_prune, tight_box
from mallard.geometry._kernels.narrowphase import intersect, signed_distance
from mallard.geometry._proximity_layout import DISTANCE, WI_SIZE, WS_SIZE
from mallard.multibody._kernels._machinery import batched, jitable, reshaped
from mallard.multibody._kernels.kinematics import LAYER_WB, POSES, calc_position_kinematics
from mallard.multibody._kernels.pose import load_pose, pose_mul, store_pose
from mallard.multibody._kernels.views import batch_row, model, parameters, workspace
from mallard.multibody._layout import SIZE

#: What to compute, besides whether a configuration is collision-free (bits of ``what``).
MIN_DISTANCE, PAIR_DISTANCES = 1, 2
_WS = SIZE["ws"]


@jitable
def geometry_row_sizes(ng, num_pairs):
    """(floats, ints) of a row of gws and gwi for ng geometries and num_pairs allowed pairs."""
    return 18 * ng + WS_SIZE + DISTANCE, ng + 2 * num_pairs + WI_SIZE


@jitable
def _box_gap(boxes, a, b):
    """The gap between the boxes of a and b (0 if they overlap): a lower bound of the
    distance between the geometries."""
    gap2 = 0.0
    for k in range(3):
        d = max(boxes[a, k] - boxes[b, 3 + k], boxes[b, k] - boxes[a, 3 + k])
        if d > 0:
            gap2 += d * d
    return np.sqrt(gap2)


@jitable
def _within(gi, gf, hv, X_WG, a, b, padding, ews, ewi, out):
    """(status, within): whether a and b are within ``padding`` of each other."""
    if padding == 0.0:
        return 0, intersect(gi, gf, hv, X_WG, a, b, ews, out)
    status = signed_distance(gi, gf, hv, X_WG, a, b, ews, ewi, out)
    return status, status == 0 and out[0] <= padding


@batched
def batch_collisions(
    mi, mf, ws0, Q, gi, gf, hv, mobod, X_BG, allowed, pairs, padding, what, report, row, gws,
    gwi, free, min_distance, distances, status,
):  # fmt: skip
    """free[i] = 1 if no allowed pair is within ``padding`` at q = Q[i], else 0; with
    MIN_DISTANCE, min_distance[i] = the least signed distance of the allowed pairs (+inf if
    none); with PAIR_DISTANCES, distances[i, p] = the signed distance of pairs[p] if at most
    ``report``, else +inf. ``allowed`` is the mask (ng × ng, upper triangle) of the allowed
    pairs, ``pairs`` their list. status[i] = 0, or −(a·ng + b) − 1 if the narrowphase failed
    for geometries a and b (a pair Drake does not support, or EPA's failure)."""
    size = Q.shape[0]
    ng = gi.shape[0]
    num_pairs = pairs.shape[0]
    m = model(mi, mf)
    views = batch_row(mi, row)
    ws = views.ws
    for j in range(mi[_WS]):
        ws[j] = ws0[j]
    params, work = parameters(mi, ws), workspace(mi, ws)
    x = views.x
    X_WG = reshaped(gws[0 : 12 * ng], (ng, 4, 3))
    boxes = reshaped(gws[12 * ng : 18 * ng], (ng, 6))
    ews = gws[18 * ng : 18 * ng + WS_SIZE]
    out = gws[18 * ng + WS_SIZE : 18 * ng + WS_SIZE + DISTANCE]
    order = gwi[0:ng]
    for g in range(ng):
        order[g] = g
    swept = reshaped(gwi[ng : ng + 2 * num_pairs], (num_pairs, 2))
    ewi = gwi[ng + 2 * num_pairs : ng + 2 * num_pairs + WI_SIZE]
    for i in range(size):
        for j in range(m.nq):
            x[j] = Q[i, j]
        calc_position_kinematics(m, params, work, x[0 : m.nq], POSES, 0)
        for g in range(ng):
            if mobod[g] < 0:
                store_pose(load_pose(X_BG[g]), X_WG[g])
            else:
                T = pose_mul(load_pose(work.X_pc[LAYER_WB, mobod[g]]), load_pose(X_BG[g]))
                store_pose(T, X_WG[g])
        status[i] = 0
        free[i] = 1
        if what == 0:  # the first pair within the padding, among those the sweep finds
            for g in range(ng):
                tight_box(gi, gf, hv, X_WG, g, padding, boxes)
            count = sweep_and_prune(boxes, ng, allowed, order, swept, False)
            for p in range(count):
                a, b = swept[p, 0], swept[p, 1]
                code, hit = _within(gi, gf, hv, X_WG, a, b, padding, ews, ewi, out)
                if code < 0:
                    status[i] = -(a * ng + b) - 1
                    break
                if hit:
                    free[i] = 0
                    break
            continue
        for g in range(ng):
            tight_box(gi, gf, hv, X_WG, g, 0.0, boxes)
        best = np.inf
        for p in range(num_pairs):
            a, b = pairs[p, 0], pairs[p, 1]
            gap = _box_gap(boxes, a, b)
            if what & PAIR_DISTANCES:
                distances[i, p] = np.inf
            # (the gap bounds the distance from below where the boxes are apart)
            wanted = (what & MIN_DISTANCE and (gap == 0.0 or gap < best)) or (
                what & PAIR_DISTANCES and gap <= report
            )
            if wanted:
                code = signed_distance(gi, gf, hv, X_WG, a, b, ews, ewi, out)
                hit = code == 0 and out[0] <= padding
            elif free[i] and gap <= padding:
                code, hit = _within(gi, gf, hv, X_WG, a, b, padding, ews, ewi, out)
            else:
                continue
            if code < 0:
                status[i] = -(a * ng + b) - 1
                break
            if hit:
                free[i] = 0
            if wanted:
                d = out[0]
                best = min(best, d)
                if what & PAIR_DISTANCES and d <= report:
                    distances[i, p] = d
        if what & MIN_DISTANCE:
            min_distance[i] = best
