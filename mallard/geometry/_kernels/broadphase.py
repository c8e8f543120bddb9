"""The broadphase: axis-aligned bounding boxes in World and sweep-and-prune, so that the
narrowphase sees only the allowed pairs whose boxes overlap.

Two kinds of box: the tight box of each shape at its pose (what the queries cull with; a
pair whose tight boxes are apart cannot touch), and FCL's (what FindCollisionCandidates
reports, as Drake's FCL broadphase does: the shape's box in its frame, translated if the
rotation is the identity, else the cube about the sphere that bounds that box — a sphere's
own, for a sphere). A half space's box
is unbounded except, when its normal is along an axis, on that side.

A box is a row of 6 (min xyz, max xyz). Sweep-and-prune finds the pairs of boxes that
overlap, or (for a distance query, as FCL's distance broadphase) that are at most that
distance apart: it sorts the boxes along the axis in which their centers spread most
(insertion sort from the previous order: cheap when poses change little between calls; a
heap sort when they changed a lot) and tests each box against those that start before it
ends (plus the distance). The pairs come out sorted, so the order of boxes of equal minimum
does not matter.
"""

import numpy as np

from mallard.geometry._proximity_layout import (
    BOX,
    CAPSULE,
    CONVEX,
    CYLINDER,
    ELLIPSOID,
    HALFSPACE,
    HULL_COUNT,
    HULL_START,
    KIND,
    MESH,
    SPHERE,
)
from mallard.multibody._kernels._machinery import jitable

_INF = np.inf


@jitable
def _set(boxes, g, lo, hi):
    boxes[g, 0], boxes[g, 1], boxes[g, 2] = lo[0], lo[1], lo[2]
    boxes[g, 3], boxes[g, 4], boxes[g, 5] = hi[0], hi[1], hi[2]


@jitable
def _halfspace_box(X_WG, g):
    """The box of the half space g: bounded on one side if its normal is an axis."""
    n = (X_WG[g, 0, 2], X_WG[g, 1, 2], X_WG[g, 2, 2])
    lo = (-_INF, -_INF, -_INF)
    hi = (_INF, _INF, _INF)
    for k in range(3):
        i, j = (k + 1) % 3, (k + 2) % 3
        if n[i] == 0.0 and n[j] == 0.0 and n[k] != 0.0:
            # n = ±axis k: the boundary is at x_k = p_k; the side is n's.
            bound = X_WG[g, 3, k]
            if k == 0:
                lo, hi = (
                    ((-_INF, lo[1], lo[2]), (bound, hi[1], hi[2]))
                    if n[k] > 0
                    else ((bound, lo[1], lo[2]), (_INF, hi[1], hi[2]))
                )
            elif k == 1:
                lo, hi = (
                    ((lo[0], -_INF, lo[2]), (hi[0], bound, hi[2]))
                    if n[k] > 0
                    else ((lo[0], bound, lo[2]), (hi[0], _INF, hi[2]))
                )
            else:
                lo, hi = (
                    ((lo[0], lo[1], -_INF), (hi[0], hi[1], bound))
                    if n[k] > 0
                    else ((lo[0], lo[1], bound), (hi[0], hi[1], _INF))
                )
    return lo, hi


@jitable
def _extent(kind, r, h, c, X_WG, g, i):
    """The half width along World axis i of the box of a primitive g (not a half space or
    convex shape) of measures (r, h, c)."""
    if kind == SPHERE:
        return r
    a0, a1, a2 = X_WG[g, i, 0], X_WG[g, i, 1], X_WG[g, i, 2]
    if kind == BOX:
        return abs(a0) * r + abs(a1) * h + abs(a2) * c
    if kind == ELLIPSOID:
        return np.sqrt((a0 * r) ** 2 + (a1 * h) ** 2 + (a2 * c) ** 2)
    if kind == CAPSULE:
        return abs(a2) * h + r
    # A cylinder: its axis's extent and its end discs'.
    return abs(a2) * h + r * np.sqrt(max(0.0, 1.0 - a2 * a2))


@jitable
def _hull_box(gi, hv, X_WG, g):
    """(min, max) in World of the hull vertices of geometry g."""
    X = X_WG[g]
    lo0 = lo1 = lo2 = _INF
    hi0 = hi1 = hi2 = -_INF
    start = gi[g, HULL_START]
    for v in range(start, start + gi[g, HULL_COUNT]):
        x = X[0, 0] * hv[v, 0] + X[0, 1] * hv[v, 1] + X[0, 2] * hv[v, 2] + X[3, 0]
        y = X[1, 0] * hv[v, 0] + X[1, 1] * hv[v, 1] + X[1, 2] * hv[v, 2] + X[3, 1]
        z = X[2, 0] * hv[v, 0] + X[2, 1] * hv[v, 1] + X[2, 2] * hv[v, 2] + X[3, 2]
        lo0, lo1, lo2 = min(lo0, x), min(lo1, y), min(lo2, z)
        hi0, hi1, hi2 = max(hi0, x), max(hi1, y), max(hi2, z)
    return (lo0, lo1, lo2), (hi0, hi1, hi2)


@jitable
def tight_box(gi, gf, hv, X_WG, g, boxes):
    """boxes[g] = the tight box of geometry g at its pose X_WG[g]."""
    kind = gi[g, KIND]
    if kind == HALFSPACE:
        lo, hi = _halfspace_box(X_WG, g)
        _set(boxes, g, lo, hi)
        return
    if kind == CONVEX or kind == MESH:
        lo, hi = _hull_box(gi, hv, X_WG, g)
        _set(boxes, g, lo, hi)
        return
    r, h, c = gf[g, 0], gf[g, 1], gf[g, 2]
    e0 = _extent(kind, r, h, c, X_WG, g, 0)
    e1 = _extent(kind, r, h, c, X_WG, g, 1)
    e2 = _extent(kind, r, h, c, X_WG, g, 2)
    p0, p1, p2 = X_WG[g, 3, 0], X_WG[g, 3, 1], X_WG[g, 3, 2]
    _set(boxes, g, (p0 - e0, p1 - e1, p2 - e2), (p0 + e0, p1 + e1, p2 + e2))


@jitable
def _local_box(gi, gf, hv, g):
    """FCL's box of geometry g in its own frame: (min, max)."""
    kind = gi[g, KIND]
    r, h, c = gf[g, 0], gf[g, 1], gf[g, 2]
    if kind == SPHERE:
        e = (r, r, r)
    elif kind == BOX or kind == ELLIPSOID:
        e = (r, h, c)
    elif kind == CAPSULE:
        e = (r, r, h + r)
    elif kind == CYLINDER:
        e = (r, r, h)
    else:
        lo0 = lo1 = lo2 = _INF
        hi0 = hi1 = hi2 = -_INF
        start = gi[g, HULL_START]
        for v in range(start, start + gi[g, HULL_COUNT]):
            lo0, lo1, lo2 = min(lo0, hv[v, 0]), min(lo1, hv[v, 1]), min(lo2, hv[v, 2])
            hi0, hi1, hi2 = max(hi0, hv[v, 0]), max(hi1, hv[v, 1]), max(hi2, hv[v, 2])
        return (lo0, lo1, lo2), (hi0, hi1, hi2)
    return (-e[0], -e[1], -e[2]), e


@jitable
def _is_identity(X):
    """Eigen's isIdentity() of the rotation (to 1e-12)."""
    for i in range(3):
        for j in range(3):
            if abs(X[i, j] - (1.0 if i == j else 0.0)) > 1e-12:
                return False
    return True


@jitable
def fcl_box(gi, gf, hv, X_WG, g, boxes):
    """boxes[g] = FCL's box of geometry g at its pose X_WG[g]."""
    X = X_WG[g]
    identity = _is_identity(X)
    if gi[g, KIND] == HALFSPACE:
        if identity:
            lo, hi = _halfspace_box(X_WG, g)
            _set(boxes, g, lo, hi)
        else:
            _set(boxes, g, (-_INF, -_INF, -_INF), (_INF, _INF, _INF))
        return
    lo, hi = _local_box(gi, gf, hv, g)
    if identity:
        _set(
            boxes,
            g,
            (lo[0] + X[3, 0], lo[1] + X[3, 1], lo[2] + X[3, 2]),
            (hi[0] + X[3, 0], hi[1] + X[3, 1], hi[2] + X[3, 2]),
        )
        return
    c = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)
    if gi[g, KIND] == SPHERE:  # (FCL's sphere is bounded by its own radius)
        radius = gf[g, 0]
    else:
        radius = np.sqrt((lo[0] - c[0]) ** 2 + (lo[1] - c[1]) ** 2 + (lo[2] - c[2]) ** 2)
    w = (
        X[0, 0] * c[0] + X[0, 1] * c[1] + X[0, 2] * c[2] + X[3, 0],
        X[1, 0] * c[0] + X[1, 1] * c[1] + X[1, 2] * c[2] + X[3, 1],
        X[2, 0] * c[0] + X[2, 1] * c[1] + X[2, 2] * c[2] + X[3, 2],
    )
    _set(
        boxes,
        g,
        (w[0] - radius, w[1] - radius, w[2] - radius),
        (w[0] + radius, w[1] + radius, w[2] + radius),
    )


@jitable
def _sweep_axis(boxes, n):
    """The axis along which the bounded boxes' centers spread most."""
    best, axis = -1.0, 0
    for k in range(3):
        lo, hi = _INF, -_INF
        for g in range(n):
            a, b = boxes[g, k], boxes[g, 3 + k]
            if a > -_INF and b < _INF:
                center = 0.5 * (a + b)
                lo = min(lo, center)
                hi = max(hi, center)
        if hi - lo > best:
            best, axis = hi - lo, k
    return axis


@jitable
def _sort_order(boxes, n, axis, order):
    """Sorts order[:n] by the boxes' minimum along the axis: an insertion sort from the
    previous order (a few moves when poses change little between calls), finished by a heap
    sort once it has moved boxes more than 4n places (poses far from the last ones, as a
    planner's random configurations: an insertion sort's n²/4)."""
    moves = 0
    for i in range(1, n):
        g = order[i]
        key = boxes[g, axis]
        j = i - 1
        while j >= 0 and boxes[order[j], axis] > key:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = g
        moves += i - 1 - j
        if moves > 4 * n:
            _heap_sort_order(boxes, n, axis, order)
            return


@jitable
def _sift_down_order(boxes, axis, order, root, end):
    """Moves order[root] down the heap order[root:end] (largest key on top) to its place."""
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and boxes[order[child], axis] < boxes[order[child + 1], axis]:
            child += 1
        if not boxes[order[root], axis] < boxes[order[child], axis]:
            return
        order[root], order[child] = order[child], order[root]
        root = child


@jitable
def _heap_sort_order(boxes, n, axis, order):
    """Sorts order[:n] by the boxes' minimum along the axis (a heap sort: no allocation)."""
    for root in range(n // 2 - 1, -1, -1):
        _sift_down_order(boxes, axis, order, root, n)
    for end in range(n - 1, 0, -1):
        order[0], order[end] = order[end], order[0]
        _sift_down_order(boxes, axis, order, 0, end)


@jitable
def sweep_and_prune(boxes, n, allowed, order, pairs, reach=0.0, ordered=True):
    """The allowed pairs (a < b, allowed[a, b] ≠ 0) of the first n boxes that are at most
    ``reach`` apart (Euclidean distance between the boxes; 0: they overlap, faces touching
    count), in pairs[:count], sorted if ``ordered``; returns count. ``order`` (n) is the
    previous sorting (any permutation of 0..n−1), updated."""
    axis = _sweep_axis(boxes, n)
    _sort_order(boxes, n, axis, order)
    count = 0
    for i in range(n):
        a = order[i]
        end = boxes[a, 3 + axis]
        for j in range(i + 1, n):
            b = order[j]
            if boxes[b, axis] > end + reach:
                break
            if a < b:
                lo, hi = a, b
            else:
                lo, hi = b, a
            if allowed[lo, hi] == 0:
                continue
            apart = False
            gap2 = 0.0  # (the squared distance between the boxes)
            for k in range(3):
                gap = max(boxes[a, k] - boxes[b, 3 + k], boxes[b, k] - boxes[a, 3 + k])
                if gap > reach:
                    apart = True
                elif gap > 0.0:
                    gap2 += gap * gap
            if not apart and gap2 <= reach * reach:
                pairs[count, 0], pairs[count, 1] = lo, hi
                count += 1
    if ordered:
        _sort_pairs(pairs, count)
    return count


@jitable
def _pair_before(pairs, i, j):
    """Whether the pair in row i comes before the pair in row j (by a, then by b)."""
    return pairs[i, 0] < pairs[j, 0] or (pairs[i, 0] == pairs[j, 0] and pairs[i, 1] < pairs[j, 1])


@jitable
def _sift_down(pairs, root, end):
    """Moves the pair at row ``root`` down the heap of rows [0, end) to where it belongs."""
    while True:
        child = 2 * root + 1
        if child >= end:
            return
        if child + 1 < end and _pair_before(pairs, child, child + 1):
            child += 1
        if not _pair_before(pairs, root, child):
            return
        for i in range(2):
            pairs[root, i], pairs[child, i] = pairs[child, i], pairs[root, i]
        root = child


@jitable
def _sort_pairs(pairs, count):
    """Sorts the distinct pairs pairs[:count] (by a, then by b) in place: a heap sort, which
    allocates nothing (the kernels calling it are compiled without numba's runtime)."""
    for root in range(count // 2 - 1, -1, -1):
        _sift_down(pairs, root, count)
    for end in range(count - 1, 0, -1):
        for i in range(2):
            pairs[0, i], pairs[end, i] = pairs[end, i], pairs[0, i]
        _sift_down(pairs, 0, end)
