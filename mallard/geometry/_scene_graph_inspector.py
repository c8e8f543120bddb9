"""SceneGraphInspector: read access to what a SceneGraph has registered (sources, frames,
geometries, their roles and properties) and to its collision filters (the model's, or those of
the Context a QueryObject was evaluated in)."""

import copy

from mallard.common._pybind import overloads
from mallard.geometry._collision_filter import GeometrySet, _pair
from mallard.geometry._geometry_instance import ROLE_NAMES, GeometryInstance, Role
from mallard.geometry._identifiers import FrameId, GeometryId, SourceId, id_argument, id_text


class SceneGraphInspector:
    """Read access to a SceneGraph's registered data; the collision filters read are those of
    ``filters`` (a CollisionFilterState), by default the model's."""

    def __init__(self, scene_graph, filters=None):
        self._sg = scene_graph
        self._filters = filters

    def _filter_state(self):
        return self._sg._filters if self._filters is None else self._filters

    def geometry_version(self):
        """The GeometryVersion of the geometry data (of each role) this inspector reads: keep
        it (a copy, as in Drake) to tell later whether a role's data changed."""
        return self._sg._geometry_version(self._filter_state(), self._filters is not None)

    # ---- sources and frames ------------------------------------------------------------------
    def num_sources(self):
        return len(self._sg._sources)

    def GetAllSourceIds(self):
        return list(self._sg._sources)

    def SourceIsRegistered(self, source_id):
        return source_id in self._sg._sources

    def num_frames(self):
        """The number of frames, World's included."""
        return len(self._sg._frames)

    def GetAllFrameIds(self):
        return list(self._sg._frames)

    def world_frame_id(self):
        return self._sg.world_frame_id()

    def FramesForSource(self, source_id):
        """The set of FrameIds registered by ``source_id``."""
        self._sg._source(source_id)
        return {f.id for f in self._sg._frames.values() if f.source == source_id}

    def NumFramesForSource(self, source_id):
        return len(self.FramesForSource(source_id))

    @overloads("frame_id, source_id", "geometry_id, source_id")
    def BelongsToSource(self, *args, **kwargs):
        """Whether frame ``frame_id`` or geometry ``geometry_id`` was registered by
        ``source_id``."""
        id, source_id = id_argument(SceneGraphInspector.BelongsToSource, args, kwargs)  # noqa: A001
        self._sg._source(source_id)
        return self._item(id).source == source_id

    def _item(self, id):  # noqa: A002
        sg = self._sg
        return sg._frame(id) if isinstance(id, FrameId) else sg._geometry(id)

    @overloads("source_id", "frame_id", "geometry_id")
    def GetName(self, *args, **kwargs):
        """The name of a source, frame or geometry."""
        (id,) = id_argument(SceneGraphInspector.GetName, args, kwargs)  # noqa: A001
        if isinstance(id, SourceId):
            return self._sg._source(id)
        return self._item(id).name

    @overloads("frame_id", "geometry_id")
    def GetOwningSourceName(self, *args, **kwargs):
        (id,) = id_argument(SceneGraphInspector.GetOwningSourceName, args, kwargs)  # noqa: A001
        return self._sg._sources[self._item(id).source]

    def GetFrameGroup(self, frame_id):
        return self._sg._frame(frame_id).group

    def GetParentFrame(self, frame_id):
        frame = self._sg._frame(frame_id)
        return self._sg.world_frame_id() if frame.parent is None else frame.parent

    # ---- geometries --------------------------------------------------------------------------
    def num_geometries(self):
        return len(self._sg._geometries)

    def _with_role(self, role):
        return [g for g in self._sg._geometries.values() if role is None or role in g.properties]

    def GetAllGeometryIds(self, role=None):
        """The ids of every geometry (with ``role``, if given), in increasing order."""
        return sorted(g.id for g in self._with_role(role))

    def NumGeometriesWithRole(self, role):
        return len(self._with_role(role))

    def NumAnchoredGeometries(self):
        """The number of geometries on the world frame."""
        return len(self._sg._frame(self._sg.world_frame_id()).geometries)

    def NumDynamicGeometries(self):
        """The number of geometries on frames other than World."""
        return self.num_geometries() - self.NumAnchoredGeometries()

    def GetGeometryIds(self, geometry_set, role=None):
        """The set of geometries that ``geometry_set`` names (with ``role``, if given)."""
        if not isinstance(geometry_set, GeometrySet):
            raise TypeError(f"expected a GeometrySet, got {type(geometry_set).__name__}")
        return {
            g
            for g in self._sg._geometries_of(geometry_set)
            if role is None or role in self._sg._geometries[g].properties
        }

    def GetFrameId(self, geometry_id):
        return self._sg._geometry(geometry_id).frame

    def GetGeometries(self, frame_id, role=None):
        """The geometries on frame ``frame_id`` (with ``role``, if given), in registration
        order."""
        geometries = self._sg._geometries
        return [
            g
            for g in self._sg._frame(frame_id).geometries
            if role is None or role in geometries[g].properties
        ]

    def NumGeometriesForFrame(self, frame_id):
        return len(self._sg._frame(frame_id).geometries)

    def NumGeometriesForFrameWithRole(self, frame_id, role):
        return len(self.GetGeometries(frame_id, role))

    def GetGeometryIdByName(self, frame_id, role, name):
        """The geometry on ``frame_id`` with ``role`` named ``name``; RuntimeError if none."""
        frame = self._sg._frame(frame_id)
        candidates = self.GetGeometries(frame_id, role)
        for g in candidates:
            if self._sg._geometries[g].name == name:
                return g
        names = ", ".join(self._sg._geometries[g].name for g in candidates)
        raise RuntimeError(
            f"The frame '{frame.name}' ({id_text(frame_id)}) has no geometry with the role "
            f"'{ROLE_NAMES[Role(role)]}' and the canonical name '{name}'. The names associated "
            f"with this frame/role are {{{names}}}."
        )

    def GetShape(self, geometry_id):
        return self._sg._geometry(geometry_id).shape

    def GetPoseInFrame(self, geometry_id):
        """X_FG: the geometry's pose in its frame."""
        return self._sg._geometry(geometry_id).X_FG

    def GetProperties(self, geometry_id, role):
        """The properties of the geometry's ``role``, or None if it does not have it."""
        return self._sg._geometry(geometry_id).properties.get(Role(role))

    def GetIllustrationProperties(self, geometry_id):
        return self.GetProperties(geometry_id, Role.kIllustration)

    def GetProximityProperties(self, geometry_id):
        return self.GetProperties(geometry_id, Role.kProximity)

    def GetPerceptionProperties(self, geometry_id):
        return self.GetProperties(geometry_id, Role.kPerception)

    def GetConvexHull(self, geometry_id):
        """The convex hull (a PolygonSurfaceMesh) of a Mesh or Convex geometry, else None."""
        shape = self._sg._geometry(geometry_id).shape
        hull = getattr(shape, "GetConvexHull", None)
        return None if hull is None else hull()

    def CloneGeometryInstance(self, geometry_id):
        """A GeometryInstance (with a new id) of the geometry: its pose, shape, name and the
        properties of its roles."""
        geometry = self._sg._geometry(geometry_id)
        instance = GeometryInstance(geometry.X_FG, geometry.shape.Clone(), geometry.name)
        instance._properties = copy.deepcopy(geometry.properties)
        return instance

    # ---- collision filters -------------------------------------------------------------------
    def GetCollisionCandidates(self):
        """The set of unfiltered pairs (id_A, id_B), id_A < id_B, of proximity geometries."""
        ids = self.GetAllGeometryIds(Role.kProximity)
        sg, state = self._sg, self._filter_state()
        return {
            (a, b)
            for i, a in enumerate(ids)
            for b in ids[i + 1 :]
            if not is_filtered(sg, state, a, b)
        }

    def CollisionFiltered(self, geometry_id1, geometry_id2):
        """Whether the pair is filtered out of proximity queries. RuntimeError if either is
        not registered or has no proximity role."""
        sg = self._sg
        for g in (geometry_id1, geometry_id2):
            if not isinstance(g, GeometryId) or g not in sg._geometries:
                reason = "is not a valid geometry"
            elif Role.kProximity not in sg._geometries[g].properties:
                reason = "does not have a proximity role"
            else:
                continue
            raise RuntimeError(
                "Can't report collision filter status between geometries "
                f"{id_text(geometry_id1)} and {id_text(geometry_id2)}; {id_text(g)} {reason}"
            )
        return is_filtered(sg, self._filter_state(), geometry_id1, geometry_id2)

    # ---- bounding boxes, deformables, hydroelastics ------------------------------------------
    def GetObbInGeometryFrame(self, geometry_id):
        """The geometry's oriented bounding box in its own frame G (CalcObb of its shape; None
        for a HalfSpace)."""
        from mallard.geometry._bounding_box import CalcObb

        return CalcObb(self._sg._geometry(geometry_id).shape)

    def IsDeformableGeometry(self, geometry_id):
        """False: mallard has rigid geometries only."""
        self._sg._geometry(geometry_id)
        return False

    def GetAllDeformableGeometryIds(self):
        """[]: mallard has rigid geometries only."""
        return []

    def NumDeformableGeometriesWithRole(self, role):
        """0: mallard has rigid geometries only."""
        Role(role)
        return 0

    def GetReferenceMesh(self, geometry_id):
        """The reference mesh of a deformable geometry: None (mallard has rigid geometries
        only)."""
        self._sg._geometry(geometry_id)
        return None

    def maybe_get_hydroelastic_mesh(self, geometry_id):
        """The mesh of the geometry's hydroelastic representation: None for a geometry that has
        none (no hydroelastic compliance type, an unregistered id, a half space);
        NotImplementedError for the others (hydroelastic contact is a later issue)."""
        from mallard.geometry._properties import HydroelasticType
        from mallard.geometry._shapes import HalfSpace

        geometry = self._sg._geometries.get(geometry_id)
        properties = None if geometry is None else geometry.properties.get(Role.kProximity)
        if properties is None or isinstance(geometry.shape, HalfSpace):
            return None
        kind = properties.GetPropertyOrDefault(
            "hydroelastic", "compliance_type", HydroelasticType.kUndefined
        )
        if kind == HydroelasticType.kUndefined:
            return None
        raise NotImplementedError(
            "SceneGraphInspector.maybe_get_hydroelastic_mesh(): geometry "
            f"{id_text(geometry_id)} ('{geometry.name}') has hydroelastic properties, and "
            "mallard does not build hydroelastic meshes yet (a later issue)"
        )


def is_filtered(scene_graph, state, a, b):
    """Whether proximity geometries a and b are filtered: the same geometry, both anchored,
    both on one frame, or excluded by ``state``'s declarations."""
    if a == b:
        return True
    frame_a, frame_b = scene_graph._geometries[a].frame, scene_graph._geometries[b].frame
    if frame_a == frame_b:
        return True
    return state.is_excluded(_pair(a, b))
