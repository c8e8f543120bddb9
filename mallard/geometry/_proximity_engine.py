"""SceneGraph's proximity engine: the flat model of its proximity geometries that the kernels
read (mallard.geometry._proximity_layout), the poses of a Context's geometries, the filter
matrix of a Context's collision filters, and the queries' calls of the kernels.

The model is made once per set of registered proximity geometries (SceneGraph counts the
changes), in GeometryId order. A Context's poses X_WG are computed from its pose input ports
and kept (in the Context: QueryObject's _Kept) until a port's FramePoseVector changes; its
filter matrix until its filters change.
"""

import weakref

import numpy as np

from mallard._compiled import kernels
from mallard.geometry import _proximity_layout as layout
from mallard.geometry._geometry_instance import Role
from mallard.geometry._mesh import Convex, Mesh
from mallard.geometry._shapes import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Sphere
from mallard.systems.framework._system import system_scalar_type

#: (the code, the shape's measures in gf) by shape class.
_PRIMITIVES = {
    Sphere: (layout.SPHERE, lambda s: (s.radius(), 0.0, 0.0)),
    Box: (layout.BOX, lambda s: (s.width() / 2, s.depth() / 2, s.height() / 2)),
    Capsule: (layout.CAPSULE, lambda s: (s.radius(), s.length() / 2, 0.0)),
    Cylinder: (layout.CYLINDER, lambda s: (s.radius(), s.length() / 2, 0.0)),
    Ellipsoid: (layout.ELLIPSOID, lambda s: (s.a(), s.b(), s.c())),
    HalfSpace: (layout.HALFSPACE, lambda s: (0.0, 0.0, 0.0)),
}
#: Drake's error when the feature normals of a surface cannot be computed.
_SHARP_EDGE = (
    "FeatureNormalSet: Cannot compute an edge normal because the two triangles sharing the "
    "edge make a very sharp edge."
)
_NEEDLE = (
    "FeatureNormalSet: Cannot compute a vertex normal because the triangles sharing the vertex "
    "form a very pointy needle."
)


def _pose(X):
    """The 4×3 array [R; pᵀ] of a RigidTransform (of any scalar)."""
    R = X.rotation().matrix()
    A = np.empty((4, 3), dtype=object if R.dtype == object else float)
    A[:3] = R
    A[3] = X.translation()
    return A


def _float_poses(transforms):
    """The (n, 4, 3) array of :func:`_pose`'s of RigidTransforms of float, made at once."""
    A = np.empty((len(transforms), 4, 3))
    if transforms:
        A[:, :3] = [X.rotation().matrix() for X in transforms]
        A[:, 3] = [X.translation() for X in transforms]
    return A


def surface_triangles(vertices, triangles):
    """(tri rows (n, TRI_COLUMNS), error or None): the triangles of a closed surface with their
    face, edge and corner normals (Drake's FeatureNormalSet: corners angle-weighted, edges the
    normalized sum of their faces'), or Drake's message if a normal cannot be computed."""
    p = np.asarray(vertices, dtype=float)
    t = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    a, b, c = p[t[:, 0]], p[t[:, 1]], p[t[:, 2]]
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    corner = np.zeros_like(p)
    edges = {}
    for f in range(len(t)):
        v = t[f]
        e = [p[v[(i + 1) % 3]] - p[v[i]] for i in range(3)]
        e = [x / np.linalg.norm(x) for x in e]
        for i in range(3):
            corner[v[i]] += np.arccos(np.clip(e[i] @ -e[(i + 2) % 3], -1, 1)) * n[f]
        for i in range(3):
            key = tuple(sorted((int(v[i]), int(v[(i + 1) % 3]))))
            if key not in edges:
                edges[key] = n[f].copy()
            else:
                total = edges[key] + n[f]
                if total @ total < 3e-6:
                    return None, _SHARP_EDGE
                edges[key] = total / np.linalg.norm(total)
    used = np.unique(t)
    if np.any(np.einsum("ij,ij->i", corner[used], corner[used]) < 3e-6):
        return None, _NEEDLE
    corner[used] /= np.linalg.norm(corner[used], axis=1, keepdims=True)
    rows = np.empty((len(t), layout.TRI_COLUMNS))
    rows[:, layout.TRI_A : layout.TRI_A + 3] = a
    rows[:, layout.TRI_B : layout.TRI_B + 3] = b
    rows[:, layout.TRI_C : layout.TRI_C + 3] = c
    rows[:, layout.TRI_N : layout.TRI_N + 3] = n
    for f in range(len(t)):
        v = t[f]
        for k in range(3):  # edge k joins corner k − 1 to corner k
            key = tuple(sorted((int(v[k - 1]), int(v[k]))))
            rows[f, layout.TRI_EDGE_N + 3 * k : layout.TRI_EDGE_N + 3 * k + 3] = edges[key]
            rows[f, layout.TRI_CORNER_N + 3 * k : layout.TRI_CORNER_N + 3 * k + 3] = corner[v[k]]
    return rows, None


class ProximityModel:
    """The flat model of a SceneGraph's proximity geometries (see the module)."""

    def __init__(self, scene_graph):
        sg = scene_graph
        self.scalar_type = system_scalar_type(sg)
        self.ids = sorted(g.id for g in sg._geometries.values() if Role.kProximity in g.properties)
        self.index = {g: i for i, g in enumerate(self.ids)}
        geometries = [sg._geometries[g] for g in self.ids]
        self.frames = list(dict.fromkeys(g.frame for g in geometries))
        #: The sources whose pose ports give those frames' poses (World's needs none).
        self.sources = list(
            dict.fromkeys(sg._frames[f].source for f in self.frames if f != sg._world_frame_id)
        )
        frame_index = {f: i for i, f in enumerate(self.frames)}
        n = len(self.ids)
        self.gi = np.zeros((n, layout.GI_COLUMNS), dtype=np.int64)
        self.gf = np.zeros((n, 3))
        self.X_FG = np.zeros((n, 4, 3))
        hulls, surfaces = [], []
        self.point_errors = {}  # index -> Drake's message for ComputeSignedDistanceToPoint
        self.point_supported = np.ones(n, dtype=np.int64)
        hull_start = tri_start = 0
        for i, geometry in enumerate(geometries):
            shape = geometry.shape
            self.gi[i, layout.FRAME] = frame_index[geometry.frame]
            self.X_FG[i] = _pose(geometry.X_FG)
            primitive = _PRIMITIVES.get(type(shape))
            if primitive is not None:
                self.gi[i, layout.KIND] = primitive[0]
                self.gf[i] = primitive[1](shape)
                continue
            hull = shape.GetConvexHull()
            vertices = hull._vertices
            self.gi[i, layout.KIND] = layout.CONVEX if isinstance(shape, Convex) else layout.MESH
            self.gi[i, layout.HULL_START] = hull_start
            self.gi[i, layout.HULL_COUNT] = len(vertices)
            self.gf[i] = vertices.mean(axis=0)
            hulls.append(vertices)
            hull_start += len(vertices)
            surface = self._surface(shape, hull)
            if surface is None:
                self.point_supported[i] = 0
                continue
            rows, error = surface_triangles(*surface)
            if error is not None:
                self.point_errors[i] = error
                self.point_supported[i] = 0
                continue
            self.gi[i, layout.TRI_START] = tri_start
            self.gi[i, layout.TRI_COUNT] = len(rows)
            surfaces.append(rows)
            tri_start += len(rows)
        self.hv = np.concatenate(hulls) if hulls else np.zeros((0, 3))
        self.tri = np.concatenate(surfaces) if surfaces else np.zeros((0, layout.TRI_COLUMNS))
        self.kinds = self.gi[:, layout.KIND].copy()
        #: Whether a half space is among them (whose signed distance only a sphere's has).
        self.has_halfspace = bool((self.kinds == layout.HALFSPACE).any())
        self.anchored = np.array([g.frame == sg._world_frame_id for g in geometries], dtype=bool)
        # Scratch: the broadphase's and the narrowphase's.
        self.boxes = np.zeros((n, 6))  # (what the kernel reads when it needs no boxes)
        #: The poses X_WG, {fcl: boxes}, {(reach, fcl): (allowed, pairs)}: see candidates.
        self.broadphase_at = (None, {}, {})
        #: The last kept_candidates' (X_WG, allowed, reach, fcl, pairs): its answer again
        #: without the dictionaries' lookups. (Exact: whenever it answers, broadphase_at
        #: holds the same pairs for the same key, which only a call with other poses or a
        #: miss replaces, and either replaces this too.)
        self.last_candidates = (None, None, None, None, None)
        self.order = np.arange(n, dtype=np.int64)
        self.pairs = np.zeros((max(n * (n - 1) // 2, 1), 2), dtype=np.int64)
        self.ws = np.zeros(layout.WS_SIZE)
        self.wi = np.zeros(layout.WI_SIZE, dtype=np.int64)
        self.status = np.zeros(3, dtype=np.int64)
        self.scratch = np.zeros(layout.PENETRATION)
        #: proximity_penetrations' rows and pairs (see penetration_rows).
        self.penetration_scratch = _NO_SCRATCH
        #: HasCollisions' pair found touching last: a, b, its index (proximity_intersecting).
        self.last_touching = np.array([-1, -1, 0], dtype=np.int64)
        #: A point's distances (ComputeSignedDistanceToPoint): rows and geometry indices.
        self.point_rows = np.zeros((n, layout.POINT))
        self.point_index = np.zeros(n, dtype=np.int64)
        from mallard.geometry._kernels.queries import ADDRESSES, HELD

        #: The entry points' first argument (kernels.queries): interpreted, the arrays of
        #: HELD; compiled, ``held``, the address of ``held_block``, (address, rows) of each,
        #: then the addresses of the kernels of ADDRESSES (set by :meth:`call` for the
        #: queries that may run them: _QUERIES_OF).
        self.held_arrays = tuple(getattr(self, name) for name in HELD)
        self.held_block = np.array(
            [x for a in self.held_arrays for x in (a.ctypes.data, len(a))] + [0] * len(ADDRESSES),
            dtype=np.int64,
        )
        self.held = self.held_block.ctypes.data
        self.bound = {}  # entry point name -> its compiled function for this model (see call)
        self.filters = weakref.WeakKeyDictionary()  # CollisionFilterState -> (serial, allowed)
        self.filters_last = (lambda: None, None, None)  # (weakref of a state, serial, allowed)

    @staticmethod
    def _surface(shape, hull):
        """(vertices, triangles) whose signed distance to a point Drake computes for a Convex
        (its hull) or a Mesh (its own .obj surface; None for another file type)."""
        if isinstance(shape, Mesh):
            if shape.extension() != ".obj":
                return None
            return shape._obj(None)
        return hull._vertices, hull._triangles()

    # ---- what a Context gives ----------------------------------------------------------------
    def allowed(self, scene_graph, state):
        """The filter matrix (n × n, upper triangle) of the collision filter state ``state``:
        1 for the pairs that proximity queries consider."""
        last = self.filters_last  # (the last state's, without the dictionary's lookup)
        if last[0]() is state and last[1] == state.serial:
            return last[2]
        entry = self.filters.get(state)
        if entry is not None and entry[0] == state.serial:
            self.filters_last = (weakref.ref(state), *entry)
            return entry[1]
        frame = self.gi[:, layout.FRAME]
        allowed = np.triu(frame[:, None] != frame[None, :], 1).astype(np.uint8)
        for a, b in state.excluded_pairs():
            i, j = self.index.get(a), self.index.get(b)
            if i is not None and j is not None:
                allowed[min(i, j), max(i, j)] = 0
        for a, b, excluded in state.transient_pairs():
            i, j = self.index.get(a), self.index.get(b)
            if i is not None and j is not None and frame[i] != frame[j]:
                allowed[min(i, j), max(i, j)] = 0 if excluded else 1
        self.filters[state] = (state.serial, allowed)
        self.filters_last = (weakref.ref(state), state.serial, allowed)
        return allowed

    def poses(self, X_WF):
        """X_WG (n, 4, 3) from the frames' poses X_WF (4×3 arrays, in self.frames' order: a
        list or an array)."""
        if not len(self.ids):  # every proximity role removed (e.g. a mesh without a hull)
            return np.empty((0, 4, 3))
        F = X_WF if isinstance(X_WF, np.ndarray) else np.stack(X_WF)
        dtype = object if F.dtype == object or self.X_FG.dtype == object else float
        if dtype is float:  # (compiled: the formula the compiled discrete step uses too)
            X_WG = np.empty((len(self.ids), 4, 3))
            self.call("proximity_poses", np.ascontiguousarray(F, dtype=float), X_WG)
            return X_WG
        R_WF, p_WF = F[:, :3, :].astype(dtype), F[:, 3, :].astype(dtype)
        frame = self.gi[:, layout.FRAME]
        R = R_WF[frame]
        X_WG = np.empty((len(self.ids), 4, 3), dtype=dtype)
        X_WG[:, :3, :] = np.matmul(R, self.X_FG[:, :3, :])
        X_WG[:, 3, :] = p_WF[frame] + np.matmul(R, self.X_FG[:, 3, :, None])[:, :, 0]
        return X_WG

    # ---- the kernels' calls -------------------------------------------------------------------
    def penetration_rows(self, count):
        """(out, found): proximity_penetrations' rows and pairs, at least ``count`` long: the
        model's (kept while a query copies its found rows out of them), or new ones after a
        query took them with its results (see QueryObject._penetrations)."""
        scratch = self.penetration_scratch
        if len(scratch[0]) < count:
            scratch = self.penetration_scratch = (
                np.empty((count, layout.PENETRATION)),
                np.empty((count, 2), dtype=np.int64),
            )
        return scratch

    def take_penetration_rows(self):
        """Gives penetration_rows' arrays away (to a query's results): the next are new."""
        self.penetration_scratch = _NO_SCRATCH

    def call(self, name, *args):
        """kernels(float64).<name>(held, *args): the compiled entry point bound to this model
        once (no numba dispatch per call), so ``args`` must have the types of the first
        call's (C-contiguous arrays of the same dtypes and dimensions, Python scalars)."""
        fn = self.bound.get(name)
        if fn is None:
            self.hold_addresses(name)
            fn = self.bound[name] = kernels(np.float64).bind(name, self.held, args=args)
        return fn(*args)

    def hold_addresses(self, name):
        """Sets in ``held_block`` the addresses of the kernels compiled once (kernels.queries.
        ADDRESSES) that the entry point ``name`` may call (_QUERIES_OF), compiling them (or
        loading them from the cache) if they are not yet."""
        from mallard.geometry._kernels.queries import ADDRESSES

        at = len(self.held_block) - len(ADDRESSES)
        for i, kernel in enumerate(ADDRESSES):
            if name in _QUERIES_OF[kernel]:
                self.held_block[at + i] = kernels(np.float64).address(kernel)

    def kept_candidates(self, X_WG, allowed, reach, fcl=False):
        """The allowed pairs (k × 2, sorted; not to be changed) whose boxes are at most
        ``reach`` apart (every allowed pair for an infinite reach): FCL's boxes if ``fcl``,
        else the tight boxes. The broadphase runs once per poses X_WG and filter matrix
        ``allowed`` (arrays never changed once made): its boxes and pairs are kept with the
        poses, as Drake updates its broadphase when the poses change, not per query."""
        last = self.last_candidates
        if last[0] is X_WG and last[1] is allowed and last[2] == reach and last[3] == fcl:
            return last[4]
        kept, boxes_of, found = self.broadphase_at
        if kept is X_WG:
            entry = found.get((reach, fcl))
            if entry is not None and entry[0] is allowed:
                self.last_candidates = (X_WG, allowed, reach, fcl, entry[1])
                return entry[1]
        if kept is not X_WG or len(found) > 8:
            boxes_of, found = {}, {}
            self.broadphase_at = (X_WG, boxes_of, found)
        reach, fcl = float(reach), bool(fcl)
        boxes = self.boxes if reach == np.inf else self.boxes_at(X_WG, fcl)
        count = self.call("proximity_candidates", boxes, allowed, reach, self.order, self.pairs)
        pairs = found[(reach, fcl)] = (allowed, self.pairs[:count].copy())
        self.last_candidates = (X_WG, allowed, reach, fcl, pairs[1])
        return pairs[1]

    def boxes_at(self, X_WG, fcl=False):
        """The boxes (n, 6: min, max in World) of the geometries at the poses X_WG: FCL's if
        ``fcl``, else the tight boxes; kept with the poses (see kept_candidates)."""
        kept, boxes_of, found = self.broadphase_at
        if kept is not X_WG:
            boxes_of = {}
            self.broadphase_at = (X_WG, boxes_of, {})
        boxes = boxes_of.get(fcl)
        if boxes is None:
            X = X_WG if X_WG.dtype != object else _values(X_WG)
            boxes = boxes_of[fcl] = np.empty((len(self.ids), 6))
            self.call("proximity_boxes", X, fcl, boxes)
        return boxes


#: penetration_rows' arrays before the first (no rows: nothing is written in them; writable,
#: as the kernel's arguments must be).
_NO_SCRATCH = (np.zeros((0, layout.PENETRATION)), np.zeros((0, 2), np.int64))
#: The entry points (kernels.queries) that may run EPA, called at its address in held's block.
#: The entry points (kernels.queries) that may call each kernel of kernels.queries.ADDRESSES.
_QUERIES_OF = {
    "epa_at": ("proximity_signed_distances", "proximity_point_distances"),
    "penetration_at": ("proximity_penetrations",),
}


def _values(a):
    """The float values of an array of AutoDiffXd."""
    from mallard._scalar import scalar_value

    return np.vectorize(scalar_value, otypes=[float])(a)
