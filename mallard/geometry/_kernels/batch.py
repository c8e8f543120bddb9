"""The batched entry point of collision checking (BatchedPlant.CheckCollisions): a plant's
configurations, many at once, each checked against its collision geometry, on BatchedPlant's
groups and threads (mallard.multibody._kernels.batch: ``flags``, ``mode``, the caller taking
over; mallard.multibody._batch_run starts the threads). A group is GROUP configurations, one
after the other in the calling thread's row; its results are written into the outputs when it
is committed, so that they do not depend on which thread computes it.

Per configuration q: the body poses (the plant's kinematics, kernels.kinematics), each
geometry's pose X_WG = X_WB·X_BG (an anchored geometry's X_WG given), then the allowed pairs,
culled by bounds of their distance from the geometries' bounding spheres about their origins
(radius R, and an inscribed radius r: every shape here but a Convex or Mesh holds the ball of
radius r about its origin; and, for a block of pairs between two carriers, a body or an
anchored geometry, the balls that hold each carrier's geometries), so that a pair's distance φ
satisfies
|p_WAo − p_WBo| − (R_A + R_B) ≤ φ ≤ |p_WAo − p_WBo| − (r_A + r_B); a pair those bounds do
not rule out is bounded again more tightly where cheap (kernels.bounds.distance_bounds: a
box's distance to the other's ball, two cylinders' or capsules' segment distance) before its
narrowphase:

* collision-free only: each pair whose lower bound is within the padding goes to the
  narrowphase (its intersection test for a padding of 0, its signed distance else) unless
  its upper bound is (then it is within), stopping at the first pair within the padding;
* with the minimum signed distance, or the distances of the pairs within a distance: the
  bounds of every pair first; then the signed distance of each pair whose lower bound is below
  the least upper bound (or the least distance found so far) or within the distance asked for.

A bound rules a pair out only past a margin above rounding and the narrowphase's tolerances
(TOLERANCE, SLACK), so the answers are those of the narrowphase on every pair.

Arrays: the plant's flat model (mi, mf), Q (N, nq), the geometry model (gi, gf, hv), per
geometry its body's mobod (``mobod``, −1 if anchored) and X_BG (its X_WG if anchored), the
allowed pairs (P × 2, a < b, block by block) and per pair R_A + R_B (``reach``) and r_A + r_B
(``inner``), per carrier its mobod (−1: anchored) and ball (center in the body or World,
radius), the blocks (carrier, carrier, first pair, end);
``padding``, ``what`` (MIN_DISTANCE, PAIR_DISTANCES), ``report``, ``epa_at`` (the address of
EPA compiled once: kernels.epa.penetration_depth); then the thread's ``row``
(:func:`row_size`: a kernels.batch BATCH_ROW, then this kernel's sections), ``flags`` and
``mode``, and the outputs ``free`` (N uint8), ``min_distance`` (N, or none),
``distances`` (N × P, or none) and ``status`` (N int64: 0, or kernels.batch's NONFINITE and
ZERO_QUATERNION codes of q, or PAIR_FAILED + KINDS·p: the narrowphase failed for pair p, a pair
Drake does not support or EPA's failure). A failed configuration is not free, and its
distances are NaN.
"""

import numpy as np

from mallard.geometry._kernels.bounds import SLACK, distance_bounds
from mallard.geometry._kernels.narrowphase import intersect, signed_distance
from mallard.geometry._kernels.plain import plain
from mallard.geometry._proximity_layout import (
    DISTANCE,
    WI_SIZE,
    WS_SIZE,
)
from mallard.multibody._batch_codes import KINDS, PAIR_FAILED
from mallard.multibody._kernels._machinery import batched, jitable, reshaped
from mallard.multibody._kernels.batch import (
    _check_group,
    _finish,
    _store_status,
    begin_commit,
    end_commit,
    next_group,
)
from mallard.multibody._kernels.discrete_step import int64_view
from mallard.multibody._kernels.kinematics import LAYER_WB, POSES, calc_position_kinematics
from mallard.multibody._kernels.pose import load_pose, pose_mul, rotate3, store_pose
from mallard.multibody._kernels.views import batch_row, model, parameters, workspace
from mallard.multibody._layout import SIZE

#: What to compute, besides whether a configuration is collision-free (bits of ``what``).
MIN_DISTANCE, PAIR_DISTANCES = 1, 2
#: Configurations per group.
GROUP = 8
#: How far past the padding or a distance asked for a pair's lower bound must be for the pair
#: to be ruled out (m): far above rounding and MPR's tolerance.
TOLERANCE = 1e-9
_ROW = SIZE["row"]


@jitable
def row_size(mi, ng, num_pairs, num_carriers):
    """The scalars of a row for ng geometries, num_pairs allowed pairs and num_carriers
    carriers: a BATCH_ROW, then the poses X_WG (ng × 12), the carriers' ball centers in World
    (× 3), the pairs' lower bounds, the narrowphase's workspace and result, the group's
    results (codes, free, least distance, the pairs' distances) and the narrowphase's int64
    workspace (its bits)."""
    floats = 12 * ng + 3 * num_carriers + num_pairs + WS_SIZE + DISTANCE
    return mi[_ROW] + floats + GROUP * (3 + num_pairs) + WI_SIZE


@jitable
def _within(gi, gf, hv, X_WG, a, b, padding, ews, ewi, epa_at, out):
    """(status, within): whether a and b are within ``padding`` of each other."""
    if padding == 0.0:
        return 0, intersect(gi, gf, hv, X_WG, a, b, ews, out)
    status = signed_distance(gi, gf, hv, X_WG, a, b, ews, ewi, out, epa_at)
    return status, status == 0 and out[0] <= padding


@jitable
def _center_distance(X_WG, a, b):
    """|p_WAo − p_WBo|."""
    d0 = X_WG[a, 3, 0] - X_WG[b, 3, 0]
    d1 = X_WG[a, 3, 1] - X_WG[b, 3, 1]
    d2 = X_WG[a, 3, 2] - X_WG[b, 3, 2]
    return np.sqrt(d0 * d0 + d1 * d1 + d2 * d2)


@jitable
def _ball_distance(centers, a, b):
    """The distance between carriers a's and b's ball centers."""
    d0 = centers[a, 0] - centers[b, 0]
    d1 = centers[a, 1] - centers[b, 1]
    d2 = centers[a, 2] - centers[b, 2]
    return np.sqrt(d0 * d0 + d1 * d1 + d2 * d2)


@jitable
def _poses(X_pc, mobod, X_BG, X_WG):
    """X_WG[g] of every geometry from the bodies' poses X_WB (X_pc's LAYER_WB)."""
    for g in range(X_WG.shape[0]):
        if mobod[g] < 0:
            store_pose(load_pose(X_BG[g]), X_WG[g])
        else:
            X_WB = load_pose(X_pc[LAYER_WB, mobod[g]])
            store_pose(pose_mul(X_WB, load_pose(X_BG[g])), X_WG[g])


@jitable
def _carrier_centers(X_pc, carrier_mobod, carrier_ball, centers):
    """centers[k] = the center of carrier k's ball in World (its body's pose applied)."""
    for k in range(centers.shape[0]):
        c = (carrier_ball[k, 0], carrier_ball[k, 1], carrier_ball[k, 2])
        if carrier_mobod[k] >= 0:
            X_WB = load_pose(X_pc[LAYER_WB, carrier_mobod[k]])
            r = rotate3(X_WB, c)
            c = (r[0] + X_WB[9], r[1] + X_WB[10], r[2] + X_WB[11])
        centers[k, 0], centers[k, 1], centers[k, 2] = c[0], c[1], c[2]


@jitable
def _block_apart(centers, carrier_ball, blocks, k, margin):
    """Whether block k's two carriers' balls are more than ``margin`` apart."""
    a, b = blocks[k, 0], blocks[k, 1]
    d0 = centers[a, 0] - centers[b, 0]
    d1 = centers[a, 1] - centers[b, 1]
    d2 = centers[a, 2] - centers[b, 2]
    limit = carrier_ball[a, 3] + carrier_ball[b, 3] + margin
    return d0 * d0 + d1 * d1 + d2 * d2 > limit * limit


@jitable
def _first_within(gi, gf, hv, X_WG, pairs, reach, inner, blocks, centers, carrier_ball, padding,
                  ews, ewi, epa_at, out):  # fmt: skip
    """(pair, status) of the first pair within ``padding`` (pair −1 if none), or of the
    first whose narrowphase failed (status < 0)."""
    for k in range(blocks.shape[0]):
        if _block_apart(centers, carrier_ball, blocks, k, padding + TOLERANCE):
            continue
        for p in range(blocks[k, 2], blocks[k, 3]):
            a, b = pairs[p, 0], pairs[p, 1]
            d0 = X_WG[a, 3, 0] - X_WG[b, 3, 0]
            d1 = X_WG[a, 3, 1] - X_WG[b, 3, 1]
            d2 = X_WG[a, 3, 2] - X_WG[b, 3, 2]
            limit = reach[p] + padding + TOLERANCE
            squared = d0 * d0 + d1 * d1 + d2 * d2
            if squared > limit * limit:
                continue
            if np.sqrt(squared) - inner[p] < padding - SLACK:  # (certainly within)
                return p, 0
            lower, upper = distance_bounds(gi, gf, X_WG, a, b)
            if lower > padding + TOLERANCE:
                continue
            if upper < padding - SLACK:
                return p, 0
            status, hit = _within(gi, gf, hv, X_WG, a, b, padding, ews, ewi, epa_at, out)
            if status < 0 or hit:
                return p, status
    return -1, 0


@jitable
def _wanted(low, bound, free, minimum, pair_distances, padding, report):
    """Whether a pair whose distance is at least ``low`` is needed: it may be the least
    (below ``bound``), a pair within ``report``, or within the padding of a configuration not
    yet found in collision."""
    return (
        (minimum and low < bound) or (pair_distances and low <= report) or (free and low <= padding)
    )


@jitable
def _distances(gi, gf, hv, X_WG, pairs, reach, inner, blocks, centers, carrier_ball, padding,
               what, report, lower, ews, ewi, epa_at, out, distances):  # fmt: skip
    """(pair, status, free, least) of one configuration with distances asked for (see the
    module's docstring): distances[p] = pair p's signed distance if at most ``report`` (with
    PAIR_DISTANCES), else +inf; ``least`` the least signed distance (with MIN_DISTANCE); pair
    ≥ 0 and status < 0 if pair's narrowphase failed."""
    num_pairs = pairs.shape[0]
    minimum, pair_distances = what & MIN_DISTANCE, what & PAIR_DISTANCES
    # The balls' bounds of every pair; then the tighter bounds of the pairs those leave; then
    # the narrowphase of the pairs these leave.
    bound = np.inf  # (the least upper bound of a pair's distance, then of those computed)
    for k in range(blocks.shape[0]):
        a, b = blocks[k, 0], blocks[k, 1]
        gap = _ball_distance(centers, a, b) - carrier_ball[a, 3] - carrier_ball[b, 3]
        if not _wanted(gap - TOLERANCE, bound, True, minimum, pair_distances, padding, report):
            for p in range(blocks[k, 2], blocks[k, 3]):
                lower[p] = np.inf
            continue
        for p in range(blocks[k, 2], blocks[k, 3]):
            d = _center_distance(X_WG, pairs[p, 0], pairs[p, 1])
            lower[p] = d - reach[p]
            bound = min(bound, d - inner[p])
    for p in range(num_pairs):
        if _wanted(lower[p] - TOLERANCE, bound, True, minimum, pair_distances, padding, report):
            tight_lower, upper = distance_bounds(gi, gf, X_WG, pairs[p, 0], pairs[p, 1])
            lower[p] = max(lower[p], tight_lower)
            bound = min(bound, upper)
    least, free = np.inf, True
    for p in range(num_pairs):
        if pair_distances:
            distances[p] = np.inf
        low = lower[p] - TOLERANCE
        if not _wanted(low, bound, free, minimum, pair_distances, padding, report):
            continue
        a, b = pairs[p, 0], pairs[p, 1]
        exact = (minimum and low < bound + SLACK) or (pair_distances and low <= report)
        if exact:
            status = signed_distance(gi, gf, hv, X_WG, a, b, ews, ewi, out, epa_at)
            hit = status == 0 and out[0] <= padding
        else:
            status, hit = _within(gi, gf, hv, X_WG, a, b, padding, ews, ewi, epa_at, out)
        if status < 0:
            return p, status, False, least
        if hit:
            free = False
        if exact:
            d = out[0]
            least = min(least, d)
            bound = min(bound, d)
            if pair_distances and d <= report:
                distances[p] = d
    return -1, 0, free, least


@batched
def batch_collisions(
    mi, mf, Q, gi, gf, hv, mobod, X_BG, pairs, reach, inner, carrier_mobod, carrier_ball, blocks,
    padding, what, report, epa_at, row, flags, mode, free, min_distance, distances, status,
):  # fmt: skip
    """free[i] = 1 if no allowed pair is within ``padding`` at q = Q[i], else 0; with
    MIN_DISTANCE, min_distance[i] = the least signed distance of the allowed pairs (+inf if
    none); with PAIR_DISTANCES, distances[i, p] = the signed distance of pairs[p] if at most
    ``report``, else +inf (see the module's docstring)."""
    size, ng, num_pairs = Q.shape[0], gi.shape[0], pairs.shape[0]
    m = model(mi, mf)
    views = batch_row(mi, row)
    params, work = parameters(mi, views.ws), workspace(mi, views.ws)
    x = views.x
    gi, gf, hv, mobod, X_BG = plain(gi), plain(gf), plain(hv), plain(mobod), plain(X_BG)
    pairs, reach, inner = plain(pairs), plain(reach), plain(inner)
    carrier_mobod, carrier_ball = plain(carrier_mobod), plain(carrier_ball)
    blocks, num_carriers = plain(blocks), carrier_mobod.shape[0]
    at = mi[_ROW]
    X_WG = reshaped(row[at : at + 12 * ng], (ng, 4, 3))
    at += 12 * ng
    centers = reshaped(row[at : at + 3 * num_carriers], (num_carriers, 3))
    at += 3 * num_carriers
    lower = reshaped(row[at : at + num_pairs], (num_pairs,))
    at += num_pairs
    ews = reshaped(row[at : at + WS_SIZE], (WS_SIZE,))
    at += WS_SIZE
    out = reshaped(row[at : at + DISTANCE], (DISTANCE,))
    at += DISTANCE
    codes = reshaped(row[at : at + GROUP], (GROUP,))
    group_free = reshaped(row[at + GROUP : at + 2 * GROUP], (GROUP,))
    group_least = reshaped(row[at + 2 * GROUP : at + 3 * GROUP], (GROUP,))
    at += 3 * GROUP
    group_distances = reshaped(row[at : at + GROUP * num_pairs], (GROUP, num_pairs))
    at += GROUP * num_pairs
    ewi = plain(int64_view(row[at : at + WI_SIZE]))
    none = Q[0:0]
    g = next_group(flags, mode)
    while g >= 0:
        first = g * GROUP
        count = min(GROUP, size - first)
        _check_group(m, first, count, codes, Q, none, none, none)
        for k in range(count):
            group_free[k] = 0.0
            group_least[k] = np.nan
            if codes[k] != 0:
                continue
            for j in range(m.nq):
                x[j] = Q[first + k, j]
            calc_position_kinematics(m, params, work, x[0 : m.nq], POSES, 0)
            _poses(work.X_pc, mobod, X_BG, X_WG)
            _carrier_centers(work.X_pc, carrier_mobod, carrier_ball, centers)
            if what == 0:
                p, code = _first_within(
                    gi, gf, hv, X_WG, pairs, reach, inner, blocks, centers, carrier_ball,
                    padding, ews, ewi, epa_at, out,
                )  # fmt: skip
                is_free, least = p < 0, np.inf
            else:
                p, code, is_free, least = _distances(
                    gi, gf, hv, X_WG, pairs, reach, inner, blocks, centers, carrier_ball,
                    padding, what, report, lower, ews, ewi, epa_at, out, group_distances[k],
                )  # fmt: skip
            if code < 0:
                codes[k] = PAIR_FAILED + KINDS * p
                continue
            group_free[k] = 1.0 if is_free else 0.0
            group_least[k] = least
        if begin_commit(flags, g, mode):
            for k in range(count):
                i = first + k
                free[i] = 1 if group_free[k] == 1.0 else 0
                if what & MIN_DISTANCE:
                    min_distance[i] = group_least[k]
                if what & PAIR_DISTANCES:
                    for p in range(num_pairs):
                        distances[i, p] = group_distances[k, p] if codes[k] == 0 else np.nan
            _store_status(codes, status, first, count)
            end_commit(flags, g, mode)
        g = next_group(flags, mode)
    return _finish(flags, mode)
