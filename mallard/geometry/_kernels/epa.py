"""EPA (FCL's expanding polytope algorithm on libccd's polytope): the penetration depth of two
intersecting convex objects and its witness points, from the simplex GJK ends with.

The polytope lives in a workspace (mallard.geometry._proximity_layout, WS_* and WI_*): its
vertices (support points), edges (two vertices, two faces) and faces (three edges; their unit
normal and its plane's distance from the origin, computed once), each with its squared
distance to the origin and the nearest point (its witness), in the order they were added
(libccd's lists), deleted elements marked dead. The element nearest the origin is kept as
libccd keeps it (updated as elements are added, searched again when it is deleted; ties go to
the lower kind: vertex, edge, face). Each step adds the support point in the direction of the
nearest point, replacing the faces it sees, until the distance improves by less than the
tolerance.
"""

import collections

import numpy as np
from numba import carray, types
from numba.extending import overload

from mallard._compiled import by_address
from mallard.geometry._kernels.ccd import (
    REAL_MAX,
    copy_support,
    eq,
    is_zero,
    len2,
    minkowski_support,
    normalized,
    point_segment_dist2,
    point_tri_dist2,
    vec_eq,
)
from mallard.geometry._kernels.gjk import closest_points, simplex, triangle_area_is_zero
from mallard.geometry._proximity_layout import (
    EPA_EDGES,
    EPA_FACES,
    EPA_VERTICES,
    OBJECT,
    PT_EDGE,
    PT_EDGE_I,
    PT_FACE,
    PT_FACE_I,
    PT_VERTEX,
    WI_BORDER,
    WI_COUNTS,
    WI_EDGE_MARK,
    WI_EDGES,
    WI_FACE_MARK,
    WI_FACES,
    WI_INTERNAL,
    WI_NEW_EDGE,
    WI_SIZE,
    WI_STACK,
    WI_VERTEX_ALIVE,
    WI_VISIBLE,
    WS_EDGES,
    WS_EPA,
    WS_FACES,
    WS_SCRATCH,
    WS_SIZE,
    WS_STATE,
    WS_VERTICES,
)
from mallard.multibody._kernels._by_address import address_of, call_at
from mallard.multibody._kernels._machinery import jitable, reshaped
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.vec3 import cross3, dot3, sub

#: Element kinds, as libccd numbers them (the lower wins a tie for nearest).
VERTEX, EDGE, FACE = 1, 2, 3
_NONE = 3
# Counters in C (wi[WI_COUNTS:]).
_NV, _NE, _NF, _NEAREST_TYPE, _NEAREST, _NBORDER, _NVISIBLE, _NINTERNAL = range(8)
#: Failures (negative statuses): an unexpected configuration (FCL throws), or a polytope
#: larger than the workspace.
FAILED, FULL = -1, -2
_ORIGIN = (0.0, 0.0, 0.0)
#: FCL's distance from a face's plane that counts as reliably off it (faceNormalPointingOutward).
_DIST_TOL = 0.01
_EPS = 2.220446049250313e-16

Polytope = collections.namedtuple(
    "Polytope",
    ("V", "E", "F", "EI", "FI", "C", "S", "FM", "EM", "BORDER", "STACK", "NEW", "VA", "VIS", "INT"),
)


@jitable(inline=True)
def polytope(ws, wi):
    """The Polytope views of the workspaces (float ``ws``, int ``wi``): every one made by
    ``reshaped``, so that none holds a reference that the kernels' calls would count (EPA's
    functions pass the polytope on at every step)."""
    return Polytope(
        reshaped(ws[WS_VERTICES:WS_EDGES], (EPA_VERTICES, PT_VERTEX)),
        reshaped(ws[WS_EDGES:WS_FACES], (EPA_EDGES, PT_EDGE)),
        reshaped(ws[WS_FACES:WS_EPA], (EPA_FACES, PT_FACE)),
        reshaped(wi[WI_EDGES:WI_FACES], (EPA_EDGES, PT_EDGE_I)),
        reshaped(wi[WI_FACES:WI_FACE_MARK], (EPA_FACES, PT_FACE_I)),
        reshaped(wi[WI_COUNTS:WI_VERTEX_ALIVE], (WI_VERTEX_ALIVE - WI_COUNTS,)),
        reshaped(ws[WS_STATE : WS_STATE + 4], (4,)),
        reshaped(wi[WI_FACE_MARK:WI_EDGE_MARK], (EPA_FACES,)),
        reshaped(wi[WI_EDGE_MARK:WI_BORDER], (EPA_EDGES,)),
        reshaped(wi[WI_BORDER:WI_STACK], (EPA_EDGES,)),
        reshaped(wi[WI_STACK:WI_NEW_EDGE], (3 * EPA_FACES,)),
        reshaped(wi[WI_NEW_EDGE:WI_VISIBLE], (EPA_VERTICES,)),
        reshaped(wi[WI_VERTEX_ALIVE:WI_EDGES], (EPA_VERTICES,)),
        reshaped(wi[WI_VISIBLE:WI_INTERNAL], (EPA_FACES,)),
        reshaped(wi[WI_INTERNAL:WI_SIZE], (EPA_EDGES,)),
    )


# ---- the polytope --------------------------------------------------------------------------------
@jitable
def _reset(pt):
    pt.C[_NV] = pt.C[_NE] = pt.C[_NF] = 0
    pt.C[_NEAREST_TYPE] = _NONE
    pt.C[_NEAREST] = -1
    pt.S[0] = REAL_MAX


@jitable(llvm_inline=True)
def _vertex(V, i):
    return V[i, 0], V[i, 1], V[i, 2]


@jitable(llvm_inline=True)
def _better(dist, kind, best_dist, best_kind):
    """Whether an element of squared distance ``dist`` replaces the nearest (libccd's
    _ccdPtNearestUpdate: nearer, or as near and of a lower kind). (Most elements are farther
    and of no lower kind: they are rejected first by one comparison, as the two tests would.)"""
    if dist >= best_dist and kind >= best_kind:
        return False
    if eq(best_dist, dist):
        return kind < best_kind
    return dist < best_dist


@jitable(llvm_inline=True)
def _nearest_update(pt, kind, index, dist):
    """libccd's _ccdPtNearestUpdate."""
    if _better(dist, kind, pt.S[0], pt.C[_NEAREST_TYPE]):
        pt.C[_NEAREST_TYPE], pt.C[_NEAREST], pt.S[0] = kind, index, dist


@jitable(llvm_inline=True)
def _add_vertex(pt, s):
    """Adds the support point s (a row of 9); returns its index, or −1 if full."""
    i = pt.C[_NV]
    if i >= EPA_VERTICES:
        return -1
    pt.C[_NV] = i + 1
    for k in range(9):
        pt.V[i, k] = s[k]
    d = len2((s[0], s[1], s[2]))
    pt.V[i, 9] = d
    pt.V[i, 10], pt.V[i, 11], pt.V[i, 12] = s[0], s[1], s[2]
    pt.VA[i] = 1
    pt.NEW[i] = -1
    _nearest_update(pt, VERTEX, i, d)
    return i


@jitable(llvm_inline=True)
def _add_edge(pt, v0, v1):
    """Adds the edge v0–v1; returns its index, or −1 if full (or a vertex is −1)."""
    i = pt.C[_NE]
    if i >= EPA_EDGES or v0 < 0 or v1 < 0:
        return -1
    pt.C[_NE] = i + 1
    pt.EI[i, 0], pt.EI[i, 1], pt.EI[i, 2], pt.EI[i, 3], pt.EI[i, 4] = v0, v1, -1, -1, 1
    d, w = point_segment_dist2(_ORIGIN, _vertex(pt.V, v0), _vertex(pt.V, v1))
    pt.E[i, 0], pt.E[i, 1], pt.E[i, 2], pt.E[i, 3] = d, w[0], w[1], w[2]
    pt.EM[i] = 0
    _nearest_update(pt, EDGE, i, d)
    return i


@jitable(llvm_inline=True)
def _face_vertices(EI, FI, f):
    """The vertex indices (a, b, c) of face f (libccd's order)."""
    e0, e1 = FI[f, 0], FI[f, 1]
    a, b = EI[e0, 0], EI[e0, 1]
    c = EI[e1, 0]
    if c == a or c == b:
        c = EI[e1, 1]
    return a, b, c


@jitable(llvm_inline=True)
def _add_face(pt, e0, e1, e2):
    """Adds the face of edges e0, e1, e2 (its distance, witness and plane: see _plane);
    returns its index, or −1 if full."""
    i = pt.C[_NF]
    if i >= EPA_FACES or e0 < 0 or e1 < 0 or e2 < 0:
        return -1
    pt.C[_NF] = i + 1
    pt.FI[i, 0], pt.FI[i, 1], pt.FI[i, 2], pt.FI[i, 3] = e0, e1, e2, 1
    a, b, c = _face_vertices(pt.EI, pt.FI, i)
    d, w = point_tri_dist2(_ORIGIN, _vertex(pt.V, a), _vertex(pt.V, b), _vertex(pt.V, c))
    pt.F[i, 0], pt.F[i, 1], pt.F[i, 2], pt.F[i, 3] = d, w[0], w[1], w[2]
    n, origin_to_plane = _plane(pt.V, pt.EI, e0, e1)
    pt.F[i, 4], pt.F[i, 5], pt.F[i, 6], pt.F[i, 7] = n[0], n[1], n[2], origin_to_plane
    for k in range(3):
        e = pt.FI[i, k]
        if pt.EI[e, 2] == -1:
            pt.EI[e, 2] = i
        else:
            pt.EI[e, 3] = i
    pt.FM[i] = 0
    _nearest_update(pt, FACE, i, d)
    return i


@jitable(llvm_inline=True)
def _delete_face(pt, f):
    for k in range(3):
        e = pt.FI[f, k]
        if pt.EI[e, 2] == f:
            pt.EI[e, 2] = pt.EI[e, 3]
        pt.EI[e, 3] = -1
    pt.FI[f, 3] = 0
    if pt.C[_NEAREST_TYPE] == FACE and pt.C[_NEAREST] == f:
        pt.C[_NEAREST] = -1


@jitable(llvm_inline=True)
def _delete_edge(pt, e):
    pt.EI[e, 4] = 0
    if pt.C[_NEAREST_TYPE] == EDGE and pt.C[_NEAREST] == e:
        pt.C[_NEAREST] = -1


@jitable(llvm_inline=True)
def _nearest(pt):
    """(kind, index) of the element nearest the origin (searched again if it was deleted)."""
    if pt.C[_NEAREST] < 0:
        _search_nearest(pt.V, pt.VA, pt.E, pt.EI, pt.F, pt.FI, pt.C, pt.S)
    return pt.C[_NEAREST_TYPE], pt.C[_NEAREST]


@jitable
def _search_nearest(V, VA, E, EI, F, FI, C, S):
    """Finds the element nearest the origin among the live vertices, edges, then faces (the
    polytope's arrays passed alone: a call counts the references of each array it passes)."""
    best, kind, index = REAL_MAX, _NONE, -1
    for i in range(C[_NV]):
        if VA[i] and _better(V[i, 9], VERTEX, best, kind):
            best, kind, index = V[i, 9], VERTEX, i
    for i in range(C[_NE]):
        if EI[i, 4] and _better(E[i, 0], EDGE, best, kind):
            best, kind, index = E[i, 0], EDGE, i
    for i in range(C[_NF]):
        if FI[i, 3] and _better(F[i, 0], FACE, best, kind):
            best, kind, index = F[i, 0], FACE, i
    S[0], C[_NEAREST_TYPE], C[_NEAREST] = best, kind, index


@jitable(llvm_inline=True)
def _element_dist(pt, kind, i):
    if kind == VERTEX:
        return pt.V[i, 9]
    if kind == EDGE:
        return pt.E[i, 0]
    return pt.F[i, 0]


@jitable(llvm_inline=True)
def _element_witness(pt, kind, i):
    if kind == VERTEX:
        return pt.V[i, 10], pt.V[i, 11], pt.V[i, 12]
    if kind == EDGE:
        return pt.E[i, 1], pt.E[i, 2], pt.E[i, 3]
    return pt.F[i, 1], pt.F[i, 2], pt.F[i, 3]


# ---- faces' outward normals and the visible patch ---------------------------------------------
@jitable(llvm_inline=True)
def _plane(V, EI, e0, e1):
    """(n, n·a): the unit normal n = (a₁ − a) × (b₁ − b₀)/|…| of the face of first edges
    e0 = a–a₁ and e1 = b₀–b₁ (FCL's, before its orientation), and its distance n·a from the
    origin to the face's plane (kept with the face when it is added)."""
    a = _vertex(V, EI[e0, 0])
    n = cross3(sub(_vertex(V, EI[e0, 1]), a), sub(_vertex(V, EI[e1, 1]), _vertex(V, EI[e1, 0])))
    k = 1.0 / np.sqrt(len2(n))
    n = (n[0] * k, n[1] * k, n[2] * k)
    return n, dot3(n, a)


@jitable
def _face_normal_outward(V, VA, F, nv, f):
    """The outward unit normal of face f (FCL's faceNormalPointingOutward: the origin, or the
    polytope's vertices (the first nv), decide which side of its plane is inside)."""
    n = (F[f, 4], F[f, 5], F[f, 6])
    origin_to_plane = F[f, 7]
    if origin_to_plane < -_DIST_TOL:
        return (-n[0], -n[1], -n[2])
    if origin_to_plane <= _DIST_TOL:
        largest = smallest = 0.0
        for i in range(nv):
            if not VA[i]:
                continue
            to_plane = dot3(n, _vertex(V, i)) - origin_to_plane
            if to_plane > _DIST_TOL:
                return (-n[0], -n[1], -n[2])
            if to_plane < -_DIST_TOL:
                return n
            largest = max(largest, to_plane)
            smallest = min(smallest, to_plane)
        if largest > abs(smallest):
            return (-n[0], -n[1], -n[2])
    return n


@jitable(llvm_inline=True)
def _is_outside(V, VA, EI, FI, F, nv, f, p):
    """Whether the point p is strictly on the outer side of face f's plane."""
    n = _face_normal_outward(V, VA, F, nv, f)
    return dot3(n, sub(p, _vertex(V, EI[FI[f, 0], 0]))) > 0


@jitable(llvm_inline=True)
def _classify(pt, e, mark):
    """Marks edge e internal (1, listed in INT) or border (2, listed in BORDER); False if it
    already has the other mark."""
    if pt.EM[e] == 0:
        pt.EM[e] = mark
        if mark == 2:
            pt.BORDER[pt.C[_NBORDER]] = e
            pt.C[_NBORDER] += 1
        else:
            pt.INT[pt.C[_NINTERNAL]] = e
            pt.C[_NINTERNAL] += 1
        return True
    return pt.EM[e] == mark


@jitable(llvm_inline=True)
def _mark_visible(pt, f):
    pt.FM[f] = 1
    pt.VIS[pt.C[_NVISIBLE]] = f
    pt.C[_NVISIBLE] += 1


@jitable
def _visible_patch(pt, start, p):
    """Marks the faces the point p sees from ``start`` (visible 1, hidden 2), the edges between
    two visible faces (internal 1) and those of the patch's border (2, listed in BORDER in the
    order found; the visible faces listed in VIS, the internal edges in INT), by FCL's
    depth-first search. False if an edge gets both marks. Every live face and edge is unmarked
    before (_expand clears the marks it leaves on live ones)."""
    pt.C[_NBORDER] = pt.C[_NVISIBLE] = pt.C[_NINTERNAL] = 0
    _mark_visible(pt, start)
    stack = pt.STACK
    stack[0], stack[1], stack[2] = start, -1, 0
    top = 0
    while top >= 0:
        f, skip, k = stack[3 * top], stack[3 * top + 1], stack[3 * top + 2]
        if k == 3:
            top -= 1
            continue
        stack[3 * top + 2] = k + 1
        e = pt.FI[f, k]
        if e == skip:
            continue
        g = pt.EI[e, 3] if pt.EI[e, 2] == f else pt.EI[e, 2]
        if pt.FM[g] == 1:
            if not _classify(pt, e, 1):
                return False
        elif pt.FM[g] == 2:
            if not _classify(pt, e, 2):
                return False
        else:
            visible = _is_outside(
                pt.V, pt.VA, pt.EI, pt.FI, pt.F, pt.C[_NV], g, p
            ) or triangle_area_is_zero(p, _vertex(pt.V, pt.EI[e, 0]), _vertex(pt.V, pt.EI[e, 1]))
            if visible:
                _mark_visible(pt, g)
                if not _classify(pt, e, 1):
                    return False
                top += 1
                if 3 * top + 2 >= stack.shape[0]:
                    return False
                stack[3 * top], stack[3 * top + 1], stack[3 * top + 2] = g, e, 0
            else:
                if not _classify(pt, e, 2):
                    return False
                pt.FM[g] = 2
    return True


@jitable
def _expand(pt, kind, index, s):
    """Adds the support point s (a row of 9) to the polytope, replacing the faces it sees
    from the nearest element; a status (0, FAILED, FULL)."""
    p = (s[0], s[1], s[2])
    if kind == VERTEX:
        return FAILED
    if kind == FACE:
        start = index
    else:
        f0, f1 = pt.EI[index, 2], pt.EI[index, 3]
        if _is_outside(pt.V, pt.VA, pt.EI, pt.FI, pt.F, pt.C[_NV], f0, p):
            start = f0
        elif _is_outside(pt.V, pt.VA, pt.EI, pt.FI, pt.F, pt.C[_NV], f1, p):
            start = f1
        else:
            return FAILED
    if not _visible_patch(pt, start, p):
        return FAILED
    # (In the order found: each border edge loses one face, so the order does not matter.)
    for k in range(pt.C[_NVISIBLE]):
        _delete_face(pt, pt.VIS[k])
    for k in range(pt.C[_NINTERNAL]):
        _delete_edge(pt, pt.INT[k])
    v = _add_vertex(pt, s)
    if v < 0:
        return FULL
    for b in range(pt.C[_NBORDER]):
        border = pt.BORDER[b]
        e0 = e1 = -1
        for j in range(2):
            u = pt.EI[border, j]
            e = pt.NEW[u]
            if e < 0:
                e = _add_edge(pt, v, u)
                if e < 0:
                    return FULL
                pt.NEW[u] = e
            if j == 0:
                e0 = e
            else:
                e1 = e
        if _add_face(pt, border, e0, e1) < 0:
            return FULL
    # The marks left on live elements: the border edges and the hidden faces beyond them.
    for b in range(pt.C[_NBORDER]):
        border = pt.BORDER[b]
        pt.NEW[pt.EI[border, 0]] = -1
        pt.NEW[pt.EI[border, 1]] = -1
        pt.EM[border] = 0
        pt.FM[pt.EI[border, 2]] = 0
    return 0


# ---- the starting polytope ---------------------------------------------------------------------
@jitable
def _new_vertex(pt, s):
    """:func:`_add_vertex`, called, not inlined: the starting polytope's builders call it (and
    :func:`_new_edge`, :func:`_new_face`) at a few sites each, once per EPA; EPA's loop
    inlines them. (The polytope's helpers are inlined by LLVM, ``llvm_inline``: typed and
    lowered once, where numba's inlining did so at each call site.)"""
    return _add_vertex(pt, s)


@jitable
def _new_edge(pt, v0, v1):
    """:func:`_add_edge`, compiled once (see :func:`_new_vertex`)."""
    return _add_edge(pt, v0, v1)


@jitable
def _new_face(pt, e0, e1, e2):
    """:func:`_add_face`, compiled once (see :func:`_new_vertex`)."""
    return _add_face(pt, e0, e1, e2)


#: Directions tried for a first support point off a segment (libccd tries its 32 points on a
#: sphere, in its order; any direction that finds a point off the segment serves).
_DIRECTIONS = (
    (1.0, 0.0, 0.0),
    (-1.0, 0.0, 0.0),
    (0.0, 1.0, 0.0),
    (0.0, -1.0, 0.0),
    (0.0, 0.0, 1.0),
    (0.0, 0.0, -1.0),
    (0.57735026918962584, 0.57735026918962584, 0.57735026918962584),
    (-0.57735026918962584, 0.57735026918962584, 0.57735026918962584),
    (0.57735026918962584, -0.57735026918962584, 0.57735026918962584),
    (0.57735026918962584, 0.57735026918962584, -0.57735026918962584),
)


@jitable
def _tetrahedron(pt, a, b, c, d, from_d):
    """The polytope (empty before: its vertices are 0–3 in the order a, b, c, d) of the four
    support points (rows of 9) a, b, c, d: faces abc, abd, bcd, cad, in FCL's edge order: ab,
    bc, ca, then the edges to d (from d if ``from_d``: FCL's polytope of GJK's tetrahedron;
    else from a, b, c: of a triangle and a fourth point); a status. (Loops, not a call per
    element: each call site passes the polytope's 15 arrays.)"""
    for s in (a, b, c, d):
        _new_vertex(pt, s)
    for k in range(3):
        _new_edge(pt, k, (k + 1) % 3)
    for k in range(3):
        if from_d:
            _new_edge(pt, 3, k)
        else:
            _new_edge(pt, k, 3)
    if _new_face(pt, 0, 1, 2) < 0:
        return FULL
    for k in range(3):
        if _new_face(pt, 3 + k, 3 + (k + 1) % 3, k) < 0:
            return FULL
    return 0


@jitable
def _from_triangle(o1, o2, hv, pt, P, scratch):
    """The tetrahedron of the triangle P[0..2] (holding the origin) and the farther of the
    support points on either side of it (FCL's convert2SimplexToTetrahedron)."""
    a, b, c = (P[0, 0], P[0, 1], P[0, 2]), (P[1, 0], P[1, 1], P[1, 2]), (P[2, 0], P[2, 1], P[2, 2])
    d = cross3(sub(b, a), sub(c, a))
    minkowski_support(o1, o2, hv, d, scratch[0])
    scale1 = dot3(d, (scratch[0, 0], scratch[0, 1], scratch[0, 2]))
    d = (-d[0], -d[1], -d[2])
    minkowski_support(o1, o2, hv, d, scratch[1])
    scale2 = dot3(d, (scratch[1, 0], scratch[1, 1], scratch[1, 2]))
    if abs(scale1) > abs(scale2):
        return _tetrahedron(pt, P[0], P[1], P[2], scratch[0], False)
    return _tetrahedron(pt, P[0], P[1], P[2], scratch[1], False)


@jitable
def _from_tetrahedron(o1, o2, hv, pt, P, scratch):
    """The polytope of the GJK tetrahedron P, or of its face the origin lies on."""
    a, b, c, d = (
        (P[0, 0], P[0, 1], P[0, 2]),
        (P[1, 0], P[1, 1], P[1, 2]),
        (P[2, 0], P[2, 1], P[2, 2]),
        (P[3, 0], P[3, 1], P[3, 2]),
    )
    tiny = _EPS * _EPS
    if abs(point_tri_dist2(_ORIGIN, a, b, c)[0]) < tiny:
        return _from_triangle(o1, o2, hv, pt, P, scratch)
    if abs(point_tri_dist2(_ORIGIN, a, c, d)[0]) < tiny:
        copy_support(P[2], P[1])
        copy_support(P[3], P[2])
        return _from_triangle(o1, o2, hv, pt, P, scratch)
    if abs(point_tri_dist2(_ORIGIN, a, b, d)[0]) < tiny:
        copy_support(P[3], P[2])
        return _from_triangle(o1, o2, hv, pt, P, scratch)
    if abs(point_tri_dist2(_ORIGIN, b, c, d)[0]) < tiny:
        copy_support(P[1], P[0])
        copy_support(P[2], P[1])
        copy_support(P[3], P[2])
        return _from_triangle(o1, o2, hv, pt, P, scratch)
    return _tetrahedron(pt, P[0], P[1], P[2], P[3], True)


@jitable
def _from_segment(o1, o2, hv, pt, P, scratch):
    """The polytope around the segment P[0]–P[1] (holding the origin): an octahedron of four
    support points about it, or the segment alone (touching, status 1)."""
    a, b = (P[0, 0], P[0, 1], P[0, 2]), (P[1, 0], P[1, 1], P[1, 2])
    found = False
    for d in _DIRECTIONS:
        minkowski_support(o1, o2, hv, d, scratch[0])
        s0 = (scratch[0, 0], scratch[0, 1], scratch[0, 2])
        if not vec_eq(a, s0) and not vec_eq(b, s0):
            found = True
            break
    touching = not found
    if not touching:
        s0 = (scratch[0, 0], scratch[0, 1], scratch[0, 2])
        minkowski_support(o1, o2, hv, (-s0[0], -s0[1], -s0[2]), scratch[1])
        s1 = (scratch[1, 0], scratch[1, 1], scratch[1, 2])
        touching = vec_eq(a, s1) or vec_eq(b, s1)
    if not touching:
        d = cross3(sub(s0, a), sub(s1, a))
        minkowski_support(o1, o2, hv, d, scratch[2])
        s2 = (scratch[2, 0], scratch[2, 1], scratch[2, 2])
        touching = vec_eq(a, s2) or vec_eq(b, s2)
    if not touching:
        minkowski_support(o1, o2, hv, (-d[0], -d[1], -d[2]), scratch[3])
        s3 = (scratch[3, 0], scratch[3, 1], scratch[3, 2])
        touching = vec_eq(a, s3) or vec_eq(b, s3)
    if touching:
        v0, v1 = _new_vertex(pt, P[0]), _new_vertex(pt, P[1])
        e = _new_edge(pt, v0, v1)
        pt.C[_NEAREST_TYPE], pt.C[_NEAREST] = EDGE, e
        return 1
    # An octahedron (the polytope empty before): the ring of vertices 0–3 (P[0], s0, P[1],
    # s1) and its edges 0–3 (k to k + 1), the apexes 4 (s2) and 5 (s3) and their edges 4–7
    # and 8–11 (to 0–3), the faces about each apex.
    for k in range(2):
        _new_vertex(pt, P[k])
        _new_vertex(pt, scratch[k])
    for k in range(2, 4):
        _new_vertex(pt, scratch[k])
    for k in range(4):
        _new_edge(pt, k, (k + 1) % 4)
    for apex in range(4, 6):
        for k in range(4):
            _new_edge(pt, apex, k)
    for apex in range(2):
        for k in range(4):
            if _new_face(pt, 4 + 4 * apex + k, 4 + 4 * apex + (k + 1) % 4, k) < 0:
                return FULL
    return 0


# ---- the iteration ------------------------------------------------------------------------------
@jitable
def _validate_edge(pt, e):
    """FCL's check of an edge found nearest: unless the origin is on it, the nearer of its two
    faces becomes the nearest element. False if the origin is outside the polytope."""
    kEps = 2.0 * _EPS
    v0 = _vertex(pt.V, pt.EI[e, 0])
    threshold = kEps * max(1.0, np.sqrt(len2(v0)))
    d0 = -dot3(_face_normal_outward(pt.V, pt.VA, pt.F, pt.C[_NV], pt.EI[e, 2]), v0)
    d1 = -dot3(_face_normal_outward(pt.V, pt.VA, pt.F, pt.C[_NV], pt.EI[e, 3]), v0)
    if d0 > threshold or d1 > threshold:
        return False
    if not pt.E[e, 0] < kEps * kEps:
        closest = 1 if d0 < d1 else 0
        pt.C[_NEAREST_TYPE] = FACE
        pt.C[_NEAREST] = pt.EI[e, 2 + closest]
        pt.S[0] = (d1 if closest else d0) ** 2
    return True


@jitable(llvm_inline=True)
def _support_direction(pt, kind, i):
    """The direction to expand in: to the nearest point, or the face's outward normal if the
    origin is on it."""
    if is_zero(_element_dist(pt, kind, i)):
        if kind == EDGE:
            return _face_normal_outward(pt.V, pt.VA, pt.F, pt.C[_NV], pt.EI[i, 2])
        return _face_normal_outward(pt.V, pt.VA, pt.F, pt.C[_NV], i)
    return normalized(_element_witness(pt, kind, i))


@jitable(llvm_inline=True)
def _next_support(o1, o2, hv, pt, kind, i, s, tolerance):
    """Writes the next support point in s; False when converged (or touching)."""
    if kind == VERTEX:
        return False
    d = _support_direction(pt, kind, i)
    minkowski_support(o1, o2, hv, d, s)
    p = (s[0], s[1], s[2])
    if dot3(p, d) - np.sqrt(_element_dist(pt, kind, i)) < tolerance:
        return False
    # (Each branch returns: numba's inlining wants no name assigned in two branches.)
    if kind == EDGE:
        d2 = point_segment_dist2(p, _vertex(pt.V, pt.EI[i, 0]), _vertex(pt.V, pt.EI[i, 1]))[0]
        return not np.sqrt(d2) < tolerance
    a, b, c = _face_vertices(pt.EI, pt.FI, i)
    d2_face = point_tri_dist2(p, _vertex(pt.V, a), _vertex(pt.V, b), _vertex(pt.V, c))[0]
    return not np.sqrt(d2_face) < tolerance


@jitable
def epa(o1, o2, hv, P, size, ws, wi, tolerance):
    """(status, depth, p1, p2): the penetration depth of the intersecting objects o1 and o2
    from GJK's simplex (``size`` points in P) and its witness points, p1 on o1 and p2 on o2
    (World). Status 0, or FAILED or FULL."""
    zero = (0.0, 0.0, 0.0)
    pt = polytope(ws, wi)
    scratch = reshaped(ws[WS_SCRATCH : WS_SCRATCH + 8 * 9], (8, 9))
    _reset(pt)
    if size == 4:
        status = _from_tetrahedron(o1, o2, hv, pt, P, scratch)
    elif size == 3:
        status = _from_triangle(o1, o2, hv, pt, P, scratch)
    else:
        status = _from_segment(o1, o2, hv, pt, P, scratch)
    if status < 0:
        return status, 0.0, zero, zero
    kind, i = _nearest(pt)
    if status == 0:
        s = scratch[7]
        while True:
            kind, i = _nearest(pt)
            if kind == EDGE:
                if not _validate_edge(pt, i):
                    return FAILED, 0.0, zero, zero
                kind, i = _nearest(pt)
            if not _next_support(o1, o2, hv, pt, kind, i, s, tolerance):
                break
            status = _expand(pt, kind, i, s)
            if status < 0:
                return status, 0.0, zero, zero
    depth = np.sqrt(_element_dist(pt, kind, i))
    # The witness points: the nearest point expressed on the element's support points.
    if kind == VERTEX:
        return 0, depth, (pt.V[i, 3], pt.V[i, 4], pt.V[i, 5]), (pt.V[i, 6], pt.V[i, 7], pt.V[i, 8])
    if kind == EDGE:
        copy_support(pt.V[pt.EI[i, 0]], P[0])
        copy_support(pt.V[pt.EI[i, 1]], P[1])
        p1, p2 = closest_points(P, 2, _element_witness(pt, kind, i))
    else:
        a, b, c = _face_vertices(pt.EI, pt.FI, i)
        copy_support(pt.V[a], P[0])
        copy_support(pt.V[b], P[1])
        copy_support(pt.V[c], P[2])
        p1, p2 = closest_points(P, 3, _element_witness(pt, kind, i))
    return 0, depth, p1, p2


@jitable
def _object(io, at):
    """The object (kernels.ccd.make_object) held in io[at : at + OBJECT]."""
    return (
        io[at], io[at + 1], io[at + 2], io[at + 3], io[at + 4], io[at + 5], io[at + 6],
        io[at + 7], io[at + 8], io[at + 9], io[at + 10], io[at + 11], io[at + 12], io[at + 13],
        io[at + 14], io[at + 15], io[at + 16], io[at + 17], io[at + 18], io[at + 19],
    )  # fmt: skip


@by_address
def epa_at(ws, wi, hv, nhv, size):
    """EPA compiled once (kernels._by_address), which :func:`penetration_depth` calls compiled:
    :func:`epa` with the workspaces ws (WS_SIZE) and wi (WI_SIZE) and the hull vertices hv
    (nhv × 3) as the addresses of their data, GJK's simplex of ``size`` points in ws's
    (kernels.gjk.simplex), the objects and tolerance in ws[WS_EPA:] (2 × OBJECT, 1), where it
    writes its depth and witness points after them; returns its status."""
    ws = carray(pointer(ws), WS_SIZE, np.float64)
    io = ws[WS_EPA:]
    P, _ = simplex(ws)
    status, depth, p1, p2 = epa(
        _object(io, 0), _object(io, OBJECT), carray(pointer(hv), (nhv, 3), np.float64), P, size,
        ws, carray(pointer(wi), WI_SIZE, np.int64), io[2 * OBJECT],
    )  # fmt: skip
    at = 2 * OBJECT + 1
    io[at] = depth
    for i in range(3):
        io[at + 1 + i], io[at + 4 + i] = p1[i], p2[i]
    return status


def penetration_depth(o1, o2, hv, P, size, ws, wi, tolerance, address):
    """:func:`epa` (P ws's simplex, kernels.gjk.simplex): interpreted, here; compiled, by EPA
    compiled once, at the address ``address`` (``Kernels.address("epa_at")``), called, not
    linked into the caller's code (hv, ws and wi C-contiguous), or, for an address None,
    linked."""
    return epa(o1, o2, hv, P, size, ws, wi, tolerance)


@overload(penetration_depth)
def _penetration_depth_compiled(o1, o2, hv, P, size, ws, wi, tolerance, address):
    if isinstance(address, types.NoneType):
        return lambda o1, o2, hv, P, size, ws, wi, tolerance, address: epa(
            o1, o2, hv, P, size, ws, wi, tolerance
        )

    def impl(o1, o2, hv, P, size, ws, wi, tolerance, address):
        io = ws[WS_EPA:]
        for i in range(OBJECT):
            io[i], io[OBJECT + i] = o1[i], o2[i]
        io[2 * OBJECT] = tolerance
        arguments = (address_of(ws), address_of(wi), address_of(hv), hv.shape[0], size)
        status = call_at(address, arguments)
        at = 2 * OBJECT + 1
        return status, io[at], (io[at + 1], io[at + 2], io[at + 3]), (io[at + 4], io[at + 5],
                                                                    io[at + 6])  # fmt: skip

    return impl
