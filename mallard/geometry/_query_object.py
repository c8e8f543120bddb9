"""QueryObject: what SceneGraph's query output port carries. It answers, for the Context it was
evaluated in, pose queries and the proximity queries of pydrake's QueryObject with Drake's
results and conventions (mallard.geometry._kernels for how): penetrations as point pairs,
signed distances between pairs and to a point, collision candidates and whether anything
collides.

Pairs are reported as (A, B) with A the geometry of smaller GeometryId, sorted; pairs of
geometries on one frame (anchored geometries among them), and pairs the collision filters
exclude, are never considered (ComputeSignedDistancePairClosestPoints excepted).
"""

import numpy as np

from mallard._compiled import kernels
from mallard._template import convert_value
from mallard.common._pybind import overloads
from mallard.geometry import _proximity_layout as layout
from mallard.geometry._geometry_instance import ROLE_NAMES, Role
from mallard.geometry._identifiers import FrameId, id_argument, id_text
from mallard.geometry._proximity_engine import _float_poses, _pose, _values
from mallard.geometry._query_results import (
    PenetrationAsPointPair,
    SignedDistancePair,
    SignedDistanceToPoint,
    records,
)
from mallard.geometry._scene_graph_inspector import SceneGraphInspector
from mallard.math import RigidTransform
from mallard.systems.framework._system import system_scalar_type

#: The shapes a sphere has a closed form with (Drake's sphere-shape functors).
_SPHERE_CLOSED = (layout.SPHERE, layout.BOX, layout.CAPSULE, layout.CYLINDER, layout.HALFSPACE)
#: For AutoDiffXd: the shapes a sphere's penetration and signed distance support, and the
#: shapes a point's signed distance does (Drake's ScalarSupport<AutoDiffXd>).
_AD_PENETRATION = _SPHERE_CLOSED
_AD_DISTANCE = (layout.SPHERE, layout.BOX, layout.HALFSPACE)
_AD_POINT = (layout.SPHERE, layout.BOX, layout.CAPSULE, layout.HALFSPACE)
_SCALAR_NAMES = {float: "double"}
#: The dtype of the arrays the compiled kernels take (compared by identity: cheaper than ==,
#: and an equal dtype that is another object takes the interpreted path, as correct).
_FLOAT64 = np.dtype(np.float64)
#: How much farther apart than max_distance the boxes of the pairs whose signed distance is
#: computed may be (m): above GJK's and EPA's tolerance (1e-6), so that every pair they could
#: find within max_distance is computed (as kernels.bounds.SLACK).
_REACH_SLACK = 1e-5
_PENETRATION_DOC = "QueryObject::ComputePointPairPenetration()"
_DISTANCE_DOC = "QueryObject::ComputeSignedDistancePairwiseClosestPoints()"


def _scalar_name(T):
    return _SCALAR_NAMES.get(T, "drake::AutoDiffXd")


class QueryObject:
    """What SceneGraph's query output port carries: the poses of frames and geometries in
    World for the Context it was evaluated in, the inspector, and the proximity queries. A
    copy is "baked", as Drake's: it keeps the poses and the inspector of the moment it was
    made, not the Context, and answers its queries from them."""

    def __init__(self, scene_graph=None, context=None):
        self._sg = scene_graph
        self._context = context
        self._baked = None  # (a copy's) frame id -> X_PF, its inspector and its X_WG (or None)

    def inspector(self):
        """The inspector of the SceneGraph, reading the collision filters of this Context."""
        sg = self._sg
        if self._baked is not None:
            return self._baked[1]
        if self._context is None:
            return sg.model_inspector()
        return SceneGraphInspector(sg, sg._context_filters(self._context))

    def __deepcopy__(self, memo):
        baked = QueryObject(self._sg)
        if self._baked is not None or self._context is not None:
            world = self._sg._world_frame_id
            poses = {f: self._X_PF(f) for f in self._sg._frames if f != world}
            baked._baked = [poses, self.inspector(), None]
        return baked

    def __copy__(self):
        return self.__deepcopy__({})

    # ---- poses -------------------------------------------------------------------------------
    def _X_PF(self, frame_id):
        """The pose of frame ``frame_id`` in its parent frame."""
        if self._baked is not None:
            return self._baked[0][frame_id]
        frame = self._sg._frame(frame_id)
        return self._sg.get_source_pose_port(frame.source).Eval(self._context).value(frame_id)

    def _X_WF(self, frame_id):
        sg = self._sg
        frame = sg._frame(frame_id)
        if frame.parent is None and frame_id == sg._world_frame_id:
            return convert_value(RigidTransform(), system_scalar_type(sg))
        X_PF = self._X_PF(frame_id)
        if frame.parent is None:
            return X_PF
        return self._X_WF(frame.parent) @ X_PF

    def _check(self):
        if self._sg is None or (self._context is None and self._baked is None):
            raise RuntimeError("Attempting to perform query on invalid QueryObject.")

    @overloads("frame_id", "geometry_id")
    def GetPoseInWorld(self, *args, **kwargs):
        """X_WF of a frame or X_WG of a geometry."""
        (id,) = id_argument(QueryObject.GetPoseInWorld, args, kwargs)  # noqa: A001
        self._check()
        if isinstance(id, FrameId):
            return self._X_WF(id)
        geometry = self._sg._geometry(id)
        return self._X_WF(geometry.frame) @ geometry.X_FG

    def GetPoseInParent(self, frame_id):
        self._check()
        self._sg._frame(frame_id)
        return self._X_PF(frame_id)

    # ---- the proximity engine ----------------------------------------------------------------
    def _engine(self):
        """(model, X_WG, allowed, T): the ProximityModel, the geometries' poses in this
        Context (kept while the sources' poses are unchanged) or of this baked copy, the
        filter matrix and the scalar type."""
        sg, context = self._sg, self._context
        if context is None:
            return self._baked_engine()
        model = sg._proximity_model()
        # (The Context is this SceneGraph's: the query port that made this QueryObject
        # validated it. What the queries keep is the Context's: its port's QueryObject is
        # made anew when its poses change.)
        kept = context._system_cache
        if kept is None or kept.model is not model:
            kept = context._system_cache = _Kept(sg, context, model)
        key = self._pose_key(kept)
        filters = kept.filters.get_value()
        last = kept.last
        if last[0] == key and last[1] is filters and last[2] == filters.serial:
            return last[3]
        poses = kept.poses
        if poses[0] == key:
            X_WG = poses[1]
        else:
            X_WG = model.poses(self._frame_poses(model, kept))
            kept.poses = (key, X_WG)
        engine = (model, X_WG, model.allowed(sg, filters), model.scalar_type)
        kept.last = (key, filters, filters.serial, engine)
        return engine

    def _baked_engine(self):
        """_engine of a baked copy: its poses, made once per ProximityModel."""
        self._check()
        model = self._sg._proximity_model()
        _, inspector, cached = self._baked
        if cached is None or cached[0] is not model:
            cached = self._baked[2] = (model, model.poses(self._frame_poses(model, None)))
        return (
            model,
            cached[1],
            model.allowed(self._sg, inspector._filter_state()),
            model.scalar_type,
        )

    def _pose_key(self, kept):
        """What identifies the poses of the model's sources in this Context: per source, its
        plant's position and parameter stamps if its pose port is connected to a
        MultibodyPlant, else its FramePoseVector's identity and changes. Read through the
        probes of the sources' connections (``kept``'s), made again when a connection
        changes. (One source's: its own, not in a list.)"""
        inputs = self._context._inputs
        probes = kept.probes
        if len(probes) == 1:
            index, connection, version, of, _ = probes[0]
            if inputs[index] is connection:
                return version(of)
        else:
            key = []
            for index, connection, version, of, _ in probes:
                if inputs[index] is not connection:
                    break
                key.append(version(of))
            else:
                return key
        kept.probe(self._sg, self._context)
        return self._pose_key(kept)

    def _frame_poses(self, model, kept):
        """X_WF (4×3) of the model's frames (a list, or an (n, 4, 3) array): read from the
        plants' poses when every source's pose port is a MultibodyPlant's (no
        FramePoseVector made), else each source's pose port evaluated once. ``kept``: the
        Context's _Kept (None for a baked copy)."""
        sg, context = self._sg, self._context
        if self._baked is None:
            X_WF = self._plant_frame_poses(model, kept)
            if X_WF is not None:
                return X_WF
            vectors = {source: sg._pose_ports[source].Eval(context) for source in model.sources}

            def X_PF(frame_id, frame):
                return vectors[frame.source].value(frame_id)
        else:

            def X_PF(frame_id, frame):
                return self._X_PF(frame_id)

        frames = sg._frames
        parents = {}  # frame id -> X_WF of the frames that are parents

        def pose(frame_id):
            frame = frames[frame_id]
            if frame.source is None:  # (World's frame)
                return convert_value(RigidTransform(), system_scalar_type(sg))
            X = X_PF(frame_id, frame)
            if frame.parent is None:
                return X
            X_WP = parents.get(frame.parent)
            if X_WP is None:
                X_WP = parents[frame.parent] = pose(frame.parent)
            return X_WP @ X

        transforms = [pose(f) for f in model.frames]
        if model.scalar_type is float:
            return _float_poses(transforms)
        return [_pose(X) for X in transforms]

    def _plant_frame_poses(self, model, kept):
        """X_WF (n, 4, 3) of the model's frames from the poses of the MultibodyPlants their
        sources' pose ports are connected to (MultibodyPlant._geometry_frame_poses: the same
        numbers as their FramePoseVectors; World's frame the identity), or None if a source
        is not such a plant. (Through the probes of ``kept``, the Context's _Kept.)"""
        whole = kept.whole
        if whole is not None:  # (one plant: its rows of every frame, World's too)
            return whole[0]._geometry_frame_poses(whole[1], whole[2])
        X_WF = np.empty((len(model.frames), 4, 3))
        X_WF[:] = _IDENTITY
        for _, _, _, system_context, reader in kept.probes:
            if reader is None:
                return None
            plant, indices, rows = reader
            X = plant._geometry_frame_poses(system_context, rows)
            if X is None:
                return None
            X_WF[indices] = X
        return X_WF

    def _raise(self, model, status, what):
        """The RuntimeError for a failed kernel status (code, a, b)."""
        from mallard.geometry._kernels.narrowphase import UNSUPPORTED

        code, a, b = (int(x) for x in status)
        names = layout.FCL_NAMES[model.kinds[a]], layout.FCL_NAMES[model.kinds[b]]
        if code == UNSUPPORTED:
            raise _unsupported(what, names, float)
        raise RuntimeError(
            f"{what}: the iterative algorithm failed for geometries {id_text(model.ids[a])} "
            f"and {id_text(model.ids[b])} ('{names[0]}' and '{names[1]}') at this "
            "configuration (FCL's EPA would throw here too)"
        )

    @staticmethod
    def _check_scalar_support(model, pairs, T, supported, what):
        """For T ≠ float: raise Drake's error for the first of ``pairs`` that is not a sphere
        with a shape in ``supported``."""
        kinds = model.kinds
        for a, b in pairs:
            ka, kb = kinds[a], kinds[b]
            if not (
                (ka == layout.SPHERE and kb in supported)
                or (kb == layout.SPHERE and ka in supported)
            ):
                raise _unsupported(what, (layout.FCL_NAMES[ka], layout.FCL_NAMES[kb]), T)

    # ---- queries -------------------------------------------------------------------------------
    def ComputePointPairPenetration(self):
        """The penetrations of every unfiltered pair of overlapping geometries, sorted by
        (id_A, id_B): a list of PenetrationAsPointPair. Touching pairs are reported for a sphere
        with a sphere, box, capsule, cylinder or half space, not for the others. RuntimeError
        for two half spaces; for AutoDiffXd, for pairs other than a sphere with a sphere, box,
        capsule, cylinder or half space."""
        model, pairs, rows = self._penetrations()
        return records(PenetrationAsPointPair, rows, model.ids, pairs) if len(pairs) else []

    def _penetrations(self):
        """(model, pairs, rows) of ComputePointPairPenetration without its records: the
        ProximityModel, the pairs (k, 2) of geometry indices (A, B) as Drake reports them,
        sorted by (id_A, id_B), and their result rows (k, PENETRATION) [depth, nhat_BA_W,
        p_WCa, p_WCb] (the plant's contact reads these arrays, not records)."""
        model, X_WG, allowed, T = self._engine()
        pairs = model.kept_candidates(X_WG, allowed, 0.0)
        count = len(pairs)
        if T is not float:
            self._check_scalar_support(model, pairs, T, _AD_PENETRATION, "Penetration")
        compiled = X_WG.dtype is _FLOAT64
        if compiled:
            out, found = model.penetration_rows(count)  # (most pairs do not penetrate: see below)
            k = model.call("proximity_penetrations", X_WG, pairs, count, out, found)
        else:
            out = np.empty((count, layout.PENETRATION), dtype=X_WG.dtype)
            found = np.empty((count, 2), dtype=np.int64)
            k = kernels(X_WG.dtype).proximity_penetrations(
                model.held_arrays, X_WG, pairs, count, out, found
            )
        if k < 0:
            self._raise(model, model.status, "Penetration")
        if not k:
            return model, _NO_PAIRS, _NO_ROWS if compiled else out[:0]
        if 4 * k < len(found):  # (a few found: their rows copied out of the model's scratch)
            return model, found[:k].copy(), out[:k].copy()
        if compiled:  # (many found: the results keep the scratch, not a copy of most of it)
            model.take_penetration_rows()
        return model, found[:k], out[:k]

    def ComputeSignedDistancePairwiseClosestPoints(self, max_distance=np.inf):
        """The signed distances of every unfiltered pair of geometries that are at most
        ``max_distance`` apart, sorted by (id_A, id_B): a list of SignedDistancePair.
        RuntimeError for a half space with any shape but a sphere (and, for AutoDiffXd, for
        pairs other than a sphere with a sphere, box or half space)."""
        max_distance = float(max_distance)
        model, X_WG, allowed, T = self._engine()
        reach = max(max_distance, 0.0) + _REACH_SLACK
        pairs = model.kept_candidates(X_WG, allowed, reach).copy()  # (the kernel reorders them)
        return self._signed_distances(model, X_WG, pairs, max_distance, T)

    def _signed_distances(self, model, X_WG, pairs, max_distance, T):
        """The SignedDistancePair records of ``pairs`` (k × 2, reordered) at most
        ``max_distance`` apart."""
        if T is not float:
            self._check_scalar_support(model, pairs, T, _AD_DISTANCE, "Signed distance")
        if model.has_halfspace:
            ka, kb = model.kinds[pairs[:, 0]], model.kinds[pairs[:, 1]]
            H, S = layout.HALFSPACE, layout.SPHERE
            unsupported = ((ka == H) & (kb != S)) | ((kb == H) & (ka != S))
            if unsupported.any():  # (the first such pair's error)
                p = int(np.argmax(unsupported))
                names = layout.FCL_NAMES[ka[p]], layout.FCL_NAMES[kb[p]]
                raise _unsupported("Signed distance", names, T)
        count = len(pairs)
        out = np.empty((count, layout.DISTANCE), dtype=X_WG.dtype)
        arguments = (X_WG, pairs, count, max_distance, out)
        if X_WG.dtype is _FLOAT64:
            k = model.call("proximity_signed_distances", *arguments)
        else:
            k = kernels(X_WG.dtype).proximity_signed_distances(model.held_arrays, *arguments)
        if k < 0:
            self._raise(model, model.status, "Signed distance")
        return records(SignedDistancePair, out[:k], model.ids, pairs[:k])

    def ComputeSignedDistancePairClosestPoints(self, geometry_id_A, geometry_id_B):
        """The signed distance between two geometries with the proximity role, whatever the
        collision filters say: a SignedDistancePair whose A is the geometry of smaller id.
        RuntimeError for an id that is not registered or has no proximity role, and for the
        pairs ComputeSignedDistancePairwiseClosestPoints does not support."""
        self._check()
        indices = [self._proximity_index(g) for g in (geometry_id_A, geometry_id_B)]
        model, X_WG, _, T = self._engine()
        pairs = np.array([sorted(indices)], dtype=np.int64)
        return self._signed_distances(model, X_WG, pairs, np.inf, T)[0]

    def _proximity_index(self, geometry_id):
        sg = self._sg
        geometry = sg._geometry(geometry_id)
        if Role.kProximity not in geometry.properties:
            roles = [
                ROLE_NAMES[r]
                for r in (Role.kIllustration, Role.kPerception)
                if r in geometry.properties
            ]
            has = f"It has the {roles[0]} role." if roles else "It has no role."
            raise RuntimeError(
                f"The geometry {id_text(geometry_id)} cannot be used in "
                "ComputeSignedDistancePairClosestPoints; it does not have a proximity role. " + has
            )
        return sg._proximity_model().index[geometry_id]

    def ComputeSignedDistanceToPoint(self, p_WQ, threshold=np.inf):
        """The signed distances from the point Q (p_WQ, in World) to every geometry with the
        proximity role that is at most ``threshold`` away, sorted by id: a list of
        SignedDistanceToPoint (for AutoDiffXd, only spheres, boxes, capsules and half spaces
        are reported; a Mesh is reported if its file is an .obj)."""
        model, X_WG, _, T = self._engine()
        p = np.asarray(p_WQ)
        if p.shape not in ((3,), (3, 1)):
            raise TypeError(
                f"ComputeSignedDistanceToPoint(): p_WQ must be a 3-vector, got shape {p.shape}"
            )
        threshold = float(threshold)
        if model.point_errors:
            error = next(iter(model.point_errors.values()))
            raise RuntimeError(f"DistanceToPoint from meshes: {error}")
        if X_WG.dtype is _FLOAT64 and not p.dtype.hasobject:  # (compiled)
            p = np.ascontiguousarray(p, dtype=float).reshape(3)
            # (The geometries whose boxes are farther than reach are not computed.)
            reach = max(threshold, 0.0) + _REACH_SLACK if threshold < np.inf else -1.0
            out, index = model.point_rows, model.point_index
            k = model.call("proximity_point_distances", X_WG, p, threshold, reach,
                           model.point_supported, out, index)  # fmt: skip
            if k < 0:
                self._raise(model, model.status, "Signed distance to point")
            if not k:
                return []
            return records(SignedDistanceToPoint, out[:k].copy(), model.ids, index[:k].copy())
        p = p.reshape(3).astype(object)
        X = X_WG.astype(object)
        supported = model.point_supported
        if T is not float:
            supported = supported * np.isin(model.kinds, _AD_POINT)
        n = len(model.ids)
        out = np.empty((n, layout.POINT), dtype=object)
        index = np.empty(n, dtype=np.int64)
        k = kernels(object).proximity_point_distances(
            model.held_arrays, X, p, threshold, -1.0, supported, out, index
        )
        if k < 0:
            self._raise(model, model.status, "Signed distance to point")
        return records(SignedDistanceToPoint, out[:k], model.ids, index[:k])

    def FindCollisionCandidates(self):
        """The unfiltered pairs (id_A, id_B), id_A < id_B, whose bounding boxes overlap (Drake's
        broadphase boxes), sorted."""
        model, X_WG, allowed, _ = self._engine()
        ids = model.ids
        return [
            (ids[a], ids[b]) for a, b in model.kept_candidates(X_WG, allowed, 0.0, True).tolist()
        ]

    def HasCollisions(self):
        """Whether any unfiltered pair of geometries touches or overlaps."""
        model, X_WG, allowed, _ = self._engine()
        pairs = model.kept_candidates(X_WG, allowed, 0.0)
        count = len(pairs)
        if not count:  # (no boxes overlap: nothing for the narrowphase)
            return False
        X = X_WG if X_WG.dtype is _FLOAT64 else _values(X_WG)
        return model.call("proximity_intersecting", X, pairs, count, model.last_touching)

    # ---- bounding boxes, deformables, hydroelastics ------------------------------------------
    def ComputeAabbInWorld(self, geometry_id):
        """The axis-aligned box of a deformable geometry in World; None for a rigid geometry
        (as Drake: only deformable geometries are supported, and mallard has none).
        RuntimeError for an id that is not registered."""
        self._check()
        if geometry_id not in self._sg._geometries:
            raise RuntimeError(
                f"No AABB available for invalid geometry id: {id_text(geometry_id)}."
            )
        return None

    def ComputeObbInWorld(self, geometry_id):
        """The oriented bounding box of the geometry in World (its CalcObb box posed at X_WG;
        None for a HalfSpace), whatever its roles. RuntimeError for an id that is not
        registered, or a mesh file CalcObb cannot read."""
        from mallard.geometry._bounding_box import CalcObb, Obb

        self._check()
        if geometry_id not in self._sg._geometries:
            raise RuntimeError(f"No OBB available for invalid geometry id: {id_text(geometry_id)}.")
        obb = CalcObb(self._sg._geometries[geometry_id].shape)
        if obb is None:
            return None
        return Obb(self.GetPoseInWorld(geometry_id) @ obb.pose(), obb.half_width())

    def GetConfigurationsInWorld(self, deformable_geometry_id):
        """The configuration of a deformable geometry: RuntimeError, as mallard has none."""
        self._check()
        if deformable_geometry_id not in self._sg._geometries:
            raise RuntimeError(
                "No world configurations available for invalid geometry id: "
                f"{id_text(deformable_geometry_id)}"
            )
        raise RuntimeError(
            "Non-deformable geometries are characterized by poses. Use get_pose_in_world() instead."
        )

    def ComputeContactSurfaces(self, representation):
        """Hydroelastic contact surfaces: not built in mallard yet."""
        raise NotImplementedError(_HYDROELASTIC.format("ComputeContactSurfaces"))

    def ComputeContactSurfacesWithFallback(self, representation):
        """Hydroelastic contact surfaces with point pairs as fallback: not built in mallard
        yet."""
        raise NotImplementedError(_HYDROELASTIC.format("ComputeContactSurfacesWithFallback"))


_HYDROELASTIC = (
    "QueryObject.{}(): hydroelastic contact surfaces are not implemented in mallard yet (a "
    "later issue); point contact is: ComputePointPairPenetration()"
)


class _Kept:
    """What the proximity queries keep in a SceneGraph Context (its ``_system_cache``, made
    per ProximityModel; a Context's clone starts without), shared by the QueryObjects its
    query port makes: ``probes``, per source of the model its _probe; ``filters``, the
    Context's AbstractValue of its collision filters (its own for its life); ``poses``, (pose
    key, X_WG) of the last poses computed; ``last``, (pose key, filter state, its serial,
    what QueryObject._engine returned) of the last query; ``whole``, (plant, its Context, its
    rows of the model's frames) when one plant's poses give every frame's (World's frame its
    World body's row, the identity), else None."""

    __slots__ = ("model", "probes", "filters", "poses", "last", "whole")

    def __init__(self, scene_graph, context, model):
        self.model = model
        self.probe(scene_graph, context)
        self.filters = context.get_abstract_parameter(scene_graph._filters_parameter)
        self.poses, self.last = (None, None), (None, None, None, None)

    def probe(self, scene_graph, context):
        """(Re)makes the probes of the sources' pose ports' connections."""
        model = self.model
        self.probes = [_probe(scene_graph, context, model, s) for s in model.sources]
        self.whole = None
        if len(self.probes) == 1 and self.probes[0][4] is not None:
            _, _, _, plant_context, (plant, indices, rows) = self.probes[0]
            world = scene_graph._world_frame_id in model.frames
            if len(indices) + world == len(model.frames):
                everything = np.zeros(len(model.frames), dtype=np.int64)  # (World's body: 0)
                everything[indices] = rows
                self.whole = plant, plant_context, everything


def _upstream(scene_graph, context, source):
    """(the system whose output port a source's pose port is connected to, its Context), or
    (None, None) for another connection (a fixed value, a diagram's export)."""
    connection = context._inputs[scene_graph._pose_ports[source].get_index()]
    system = getattr(getattr(connection, "_port", None), "_system", None)
    return (None, None) if system is None else (system, connection._context)


def _probe(scene_graph, context, model, source):
    """(the index of a source's pose port, its connection in ``context``, version, of,
    reader): ``version(of)`` identifies the poses the source reports (see
    QueryObject._pose_key); ``reader`` is (plant, indices in model.frames, plant's rows) if
    the port is connected to a MultibodyPlant whose poses give those of the source's frames
    (see QueryObject._plant_frame_poses), else None. RuntimeError (Drake's, from the port's
    Eval) if the port is not connected."""
    port = scene_graph._pose_ports[source]
    connection = context._inputs[port._index]
    if connection is None:
        port.Eval(context)
    system = getattr(getattr(connection, "_port", None), "_system", None)
    version = getattr(system, "_geometry_pose_version", None)
    if version is None:
        return port._index, connection, _value_version, connection, None
    indices, frame_ids = [], []
    for i, frame_id in enumerate(model.frames):
        if (
            frame_id != scene_graph._world_frame_id
            and scene_graph._frame(frame_id).source == source
        ):
            indices.append(i)
            frame_ids.append(frame_id)
    rows = system._geometry_frame_rows(frame_ids)
    reader = None if rows is None else (system, indices, rows)
    return port._index, connection, version, connection._context, reader


def _value_version(connection):
    """(the FramePoseVector a source's pose port's connection gives, its changes): the value
    itself, not its id(), so that a new value made where a freed one was is not taken for it
    (FramePoseVector compares by identity)."""
    value = connection._eval()
    return value, value._version, None  # (never equal to a plant's stamps)


#: [R; pᵀ] of the identity pose.
_IDENTITY = np.vstack((np.eye(3), np.zeros((1, 3))))
#: The pairs and rows of no penetration (read-only).
_NO_PAIRS = np.zeros((0, 2), dtype=np.int64)
_NO_ROWS = np.zeros((0, layout.PENETRATION))
_NO_PAIRS.flags.writeable = _NO_ROWS.flags.writeable = False


def _unsupported(what, names, T):
    doc = _PENETRATION_DOC if what == "Penetration" else _DISTANCE_DOC
    return RuntimeError(
        f"{what} queries between shapes '{names[0]}' and '{names[1]}' are not supported for "
        f"scalar type {_scalar_name(T)}. See the documentation for {doc} for the full status "
        "of supported geometries."
    )
