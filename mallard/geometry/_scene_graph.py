"""SceneGraph: a LeafSystem that records geometry sources, their frames and geometries (names,
poses, shapes, the properties of their roles), keeps the collision filters (the model's, copied
into each Context), and carries the frames' poses from the sources' pose input ports to its
query output port, whose QueryObject answers proximity queries (mallard.geometry._query_object).
It does no rendering (the viewer draws what it records).
"""

import copy

from mallard.common._pybind import call_form, overloads
from mallard.common.value import AbstractValue
from mallard.geometry._collision_filter import (
    CollisionFilterManager,
    CollisionFilterState,
)
from mallard.geometry._geometry_instance import (
    ROLE_NAMES,
    GeometryFrame,
    GeometryInstance,
    Role,
    RoleAssign,
    role_of,
)
from mallard.geometry._geometry_version import VERSION_ROLES, GeometryVersion, next_key
from mallard.geometry._identifiers import FrameId, SourceId, id_text
from mallard.geometry._query_object import QueryObject
from mallard.geometry._scene_graph_config import SceneGraphConfig
from mallard.geometry._scene_graph_inspector import SceneGraphInspector
from mallard.systems.framework import LeafSystem


class FramePoseVector:
    """Poses X_PF of frames (by FrameId) in their parent frames (World for the frames
    registered without a parent), as a source reports them."""

    def __init__(self):
        self._poses = {}
        self._version = 0  # counts the changes (the proximity engine's poses check it)

    def set_value(self, id, value):  # noqa: A002 (pydrake's name)
        self._poses[id] = value
        self._version += 1

    def value(self, id):  # noqa: A002
        try:
            return self._poses[id]
        except KeyError:
            raise RuntimeError(f"No such FrameId {id.get_value()}.") from None

    def has_id(self, id):  # noqa: A002
        return id in self._poses

    def ids(self):
        return list(self._poses)

    def size(self):
        return len(self._poses)

    def clear(self):
        self._poses.clear()
        self._version += 1


class _Frame:
    __slots__ = ("id", "name", "group", "source", "parent", "geometries")

    def __init__(self, frame_id, name, group, source, parent):
        self.id, self.name, self.group = frame_id, name, group
        self.source, self.parent = source, parent
        self.geometries = []


class _Geometry:
    __slots__ = ("id", "name", "frame", "X_FG", "shape", "properties", "source")

    def __init__(self, instance, frame, source, properties):
        self.id = instance.id()
        self.name = instance.name()
        self.frame = frame
        self.X_FG = instance.pose()
        self.shape = instance.shape()
        self.properties = properties  # Role -> properties
        self.source = source


class SceneGraph(LeafSystem):
    """Registers geometry sources, frames and geometries; each source reports its frames'
    poses on its pose input port; the query output port gives a QueryObject. The collision
    filters of the model are copied into each Context when it is made (an abstract
    parameter), as Drake copies its geometry state."""

    _cpp_type = "drake::geometry::SceneGraph<double>"

    def __init__(self):
        super().__init__()
        self._sources = {}  # SourceId -> name
        self._pose_ports = {}  # SourceId -> InputPort
        self._frames = {}
        self._geometries = {}
        self._world_frame_id = FrameId.get_new_id()
        self._frames[self._world_frame_id] = _Frame(self._world_frame_id, "world", 0, None, None)
        self._filters = CollisionFilterState()
        self._proximity_serial = 0  # counts changes of the proximity geometries
        #: Each role's version key (GeometryVersion; a role's proximity key is paired with the
        #: filters' own key when read).
        self._role_versions = {role: next_key() for role in VERSION_ROLES}
        self._proximity = None  # (serial, ProximityModel), made when first queried
        self._filters_parameter = self.DeclareAbstractParameter(AbstractValue.Make(self._filters))
        self._inspector = SceneGraphInspector(self)
        self._query_port = self.DeclareAbstractOutputPort(
            "query", QueryObject, self._calc_query_object
        )

    def _calc_query_object(self, context, value):
        value.set_value(QueryObject(self, context))

    # ---- scalar conversion -------------------------------------------------------------------
    def _scalar_conversion_args(self, T):
        return ()

    def _to_scalar_type(self, T):
        """A SceneGraph_[T] with this one's sources (and their pose input ports, in order),
        frames, geometries and collision filters."""
        converted = super()._to_scalar_type(T)
        converted._world_frame_id = self._world_frame_id
        converted._frames = copy.deepcopy(self._frames)
        converted._geometries = copy.deepcopy(self._geometries)
        converted._filters = copy.deepcopy(self._filters)
        converted._config = copy.deepcopy(self.__dict__.get("_config"))
        converted._role_versions = dict(self._role_versions)
        index = converted._filters_parameter
        converted._abstract_parameter_models[index] = AbstractValue.Make(converted._filters)
        for source_id, name in self._sources.items():
            converted._add_source(source_id, name)
        return converted

    # ---- registration ------------------------------------------------------------------------
    def RegisterSource(self, name=""):
        """Registers a geometry source (named ``name``, default "Source_{id}") and declares
        its pose input port; returns its SourceId."""
        source_id = SourceId.get_new_id()
        name = name or f"Source_{source_id.get_value()}"
        if name in self._sources.values():
            raise RuntimeError(f"Registering new source with duplicate name: {name}.")
        self._add_source(source_id, name)
        return source_id

    def _add_source(self, source_id, name):
        self._sources[source_id] = name
        self._pose_ports[source_id] = self.DeclareAbstractInputPort(
            f"{name}_pose", AbstractValue.Make(FramePoseVector())
        )

    def SourceIsRegistered(self, id):  # noqa: A002 (pydrake's name)
        return id in self._sources

    def _source(self, source_id):
        try:
            return self._sources[source_id]
        except (KeyError, TypeError):
            raise RuntimeError(
                f"Referenced geometry source {id_text(source_id)} is not registered."
            ) from None

    def _frame(self, frame_id):
        try:
            return self._frames[frame_id]
        except (KeyError, TypeError):
            raise RuntimeError(
                f"Referenced frame {id_text(frame_id)} has not been registered."
            ) from None

    def _geometry(self, geometry_id):
        try:
            return self._geometries[geometry_id]
        except (KeyError, TypeError):
            raise RuntimeError(
                f"Referenced geometry {id_text(geometry_id)} has not been registered."
            ) from None

    @overloads("source_id, frame", "source_id, parent_id, frame")
    def RegisterFrame(self, *args, **kwargs):
        """``(source_id, frame)`` or ``(source_id, parent_id, frame)``: registers a
        GeometryFrame (a child of World, or of ``parent_id``); returns its FrameId."""
        _, values = call_form(SceneGraph.RegisterFrame, args, kwargs, "SceneGraph.RegisterFrame")
        return self._register_frame(values["source_id"], values["frame"], values.get("parent_id"))

    def _register_frame(self, source_id, frame, parent=None):
        """RegisterFrame's work, its call form bound: ``frame`` (a GeometryFrame) a child of
        ``parent`` (a FrameId, None: World)."""
        self._source(source_id)
        if not isinstance(frame, GeometryFrame):
            raise TypeError(f"RegisterFrame(): expected a GeometryFrame, got {frame!r}")
        if parent is not None:
            self._frame(parent)
            if parent == self._world_frame_id:
                parent = None
        if frame.id() in self._frames:
            raise RuntimeError(
                "Registering frame with an id that has already been registered: "
                f"{id_text(frame.id())}"
            )
        self._frames[frame.id()] = _Frame(
            frame.id(), frame.name(), frame.frame_group(), source_id, parent
        )
        return frame.id()

    def _check_name(self, frame, name, role, ignore=None):
        """RuntimeError if another geometry on ``frame`` with ``role`` is named ``name``."""
        for other in frame.geometries:
            other = self._geometries[other]
            if other.id != ignore and other.name == name and role in other.properties:
                raise RuntimeError(
                    f"The name '{name}' has already been used by a geometry with the "
                    f"'{ROLE_NAMES[role]}' role."
                )

    def RegisterGeometry(self, source_id, frame_id, geometry):
        """Registers a GeometryInstance on frame ``frame_id`` with the roles its properties
        give it; returns its GeometryId."""
        return self._register_geometry(source_id, frame_id, geometry)

    def _register_geometry(self, source_id, frame_id, geometry, owned=False):
        """RegisterGeometry; ``owned``: ``geometry``'s property sets are held by no one else
        (a parser's, made for this call), so they are kept rather than copied."""
        self._source(source_id)
        frame = self._frame(frame_id)
        if not isinstance(geometry, GeometryInstance):
            raise TypeError(f"RegisterGeometry(): expected a GeometryInstance, got {geometry!r}")
        if geometry.id() in self._geometries:
            raise RuntimeError(
                "Registering geometry with an id that has already been registered: "
                f"{id_text(geometry.id())}"
            )
        for role in geometry._properties:
            self._check_name(frame, geometry.name(), role)
        properties = geometry._properties
        self._geometries[geometry.id()] = _Geometry(
            geometry, frame_id, source_id, dict(properties) if owned else copy.deepcopy(properties)
        )
        self._proximity_serial += 1
        for role in geometry._properties:
            self._changed_role(role)
        frame.geometries.append(geometry.id())
        return geometry.id()

    def RegisterAnchoredGeometry(self, source_id, geometry):
        """Registers a GeometryInstance fixed in World."""
        return self.RegisterGeometry(source_id, self._world_frame_id, geometry)

    def _owned_geometry(self, source_id, geometry_id):
        self._source(source_id)
        geometry = self._geometry(geometry_id)
        if geometry.source != source_id:
            raise RuntimeError(
                f"Given geometry id {id_text(geometry_id)} does not belong to the given "
                f"source id {id_text(source_id)}"
            )
        return geometry

    def AssignRole(self, source_id, geometry_id, properties, assign=RoleAssign.kNew):
        """Gives geometry ``geometry_id`` the role of ``properties`` (ProximityProperties,
        IllustrationProperties or PerceptionProperties), or with ``RoleAssign.kReplace``
        replaces the properties of a role it has."""
        role = role_of(properties)
        geometry = self._owned_geometry(source_id, geometry_id)
        if assign == RoleAssign.kReplace and role == Role.kPerception:
            raise RuntimeError(
                "AssignRole() with RoleAssign::kReplace does not work for perception properties"
            )
        has_role = role in geometry.properties
        if assign == RoleAssign.kNew and has_role:
            raise RuntimeError(
                f"Trying to assign the '{ROLE_NAMES[role]}' role to geometry id "
                f"{id_text(geometry_id)} for the first time; it already has the role assigned"
            )
        if assign == RoleAssign.kReplace and not has_role:
            raise RuntimeError(
                f"Trying to replace the properties on geometry id {id_text(geometry_id)} for "
                f"the '{ROLE_NAMES[role]}' role; it has not had the role initially assigned"
            )
        if not has_role:
            self._check_name(self._frames[geometry.frame], geometry.name, role)
        geometry.properties[role] = copy.deepcopy(properties)
        self._proximity_serial += 1
        self._changed_role(role)

    def RemoveRole(self, source_id, geometry_id, role):
        """Removes ``role`` from the geometry; returns the number of geometries that lost it
        (0 or 1). A geometry that loses its proximity role loses its collision filters."""
        geometry = self._owned_geometry(source_id, geometry_id)
        if geometry.properties.pop(Role(role), None) is None:
            return 0
        self._proximity_serial += 1
        self._changed_role(role)
        if role == Role.kProximity:
            self._filters.remove_geometry(geometry_id)
        return 1

    def _changed_role(self, role):
        """A new version of ``role``'s data (perception's never changes: see GeometryVersion)."""
        if role in (Role.kProximity, Role.kIllustration):
            self._role_versions[role] = next_key()

    def _geometry_version(self, filters, context):
        """The GeometryVersion of the geometries with the collision filters ``filters``, of the
        model's or (``context``) of a Context's. A Context's proximity version differs from the
        model's once there are proximity geometries (Drake applies the SceneGraphConfig's
        proximity defaults to the Context's copy of them), the same for every new Context."""
        versions = self._role_versions
        defaults_applied = context and any(
            Role.kProximity in g.properties for g in self._geometries.values()
        )
        return GeometryVersion._of(
            (versions[Role.kProximity], filters.version, defaults_applied),
            versions[Role.kIllustration],
            versions[Role.kPerception],
        )

    def world_frame_id(self):
        return self._world_frame_id

    def model_inspector(self):
        return self._inspector

    def _proximity_model(self):
        """The ProximityModel of the proximity geometries registered now (made again after
        a registration or role change)."""
        if self._proximity is None or self._proximity[0] != self._proximity_serial:
            from mallard.geometry._proximity_engine import ProximityModel

            self._proximity = (self._proximity_serial, ProximityModel(self))
        return self._proximity[1]

    # ---- configuration -----------------------------------------------------------------------
    def get_config(self, context=None):
        """A copy of the SceneGraphConfig (its default proximity properties). mallard keeps no
        per-Context copy: with a ``context`` (validated), the SceneGraph's config."""
        if context is not None:
            self.ValidateContext(context)
        return copy.deepcopy(self.__dict__.get("_config") or SceneGraphConfig())

    def set_config(self, config):
        """Sets the SceneGraphConfig, checked (RuntimeError, as Drake's, for invalid
        values); the default proximity properties apply to every proximity geometry, those
        registered before and after."""
        if not isinstance(config, SceneGraphConfig):
            raise TypeError(f"set_config(): expected a SceneGraphConfig, got {config!r}")
        config.ValidateOrThrow()
        self._config = copy.deepcopy(config)

    # ---- transactions ------------------------------------------------------------------------
    def _checkpoint(self):
        """The registered frames and geometries and the model's filters, for ``_rollback``."""
        frames = {f: len(frame.geometries) for f, frame in self._frames.items()}
        return frames, set(self._geometries), copy.deepcopy(self._filters)

    def _rollback(self, checkpoint):
        """Unregisters what was registered since ``checkpoint`` and restores the filters."""
        frames, geometries, filters = checkpoint
        for f in [f for f in self._frames if f not in frames]:
            del self._frames[f]
        for f, count in frames.items():
            del self._frames[f].geometries[count:]
        for g in [g for g in self._geometries if g not in geometries]:
            for role in self._geometries[g].properties:
                self._changed_role(role)
            del self._geometries[g]
        self._filters.excluded, self._filters.transient = filters.excluded, filters.transient
        self._filters.changed()
        self._proximity_serial += 1

    # ---- collision filters -------------------------------------------------------------------
    def collision_filter_manager(self, context=None):
        """The CollisionFilterManager of this SceneGraph's model, or of ``context`` (whose
        filters were copied from the model's when it was made). As in Drake, taking it makes
        a new version of the proximity data (of the model's, or of the Context's)."""
        state = self._filters if context is None else self._context_filters(context)
        state.version = next_key()
        return CollisionFilterManager(self, state)

    def _context_filters(self, context, mutable=True):
        """The CollisionFilterState of ``context``; with ``mutable`` (for a manager that may
        change it), the Context's parameters are marked changed, else it is only read (the
        queries)."""
        self.ValidateContext(context)
        if not mutable:
            return context.get_abstract_parameter(self._filters_parameter).get_value()
        return context.get_mutable_abstract_parameter(self._filters_parameter).get_mutable_value()

    def _geometries_of(self, geometry_set):
        """The ids a GeometrySet names (its geometries and those on its frames), in order;
        RuntimeError for an id not registered."""
        ids = {}
        for g in geometry_set._geometries:
            if g not in self._geometries:
                raise RuntimeError(
                    "Geometry set includes a geometry id that doesn't belong to the "
                    f"SceneGraph: {id_text(g)}"
                )
            ids[g] = None
        for f in geometry_set._frames:
            ids.update(dict.fromkeys(self._frame(f).geometries))
        return list(ids)

    def _proximity_geometries_of(self, geometry_set):
        """The ids of the proximity geometries a GeometrySet names."""
        return [
            g
            for g in self._geometries_of(geometry_set)
            if Role.kProximity in self._geometries[g].properties
        ]

    # ---- ports -------------------------------------------------------------------------------
    def get_source_pose_port(self, id):  # noqa: A002 (pydrake's name)
        """The input port on which source ``id`` reports its frames' poses (FramePoseVector)."""
        self._source(id)
        return self._pose_ports[id]

    def get_query_output_port(self):
        return self._query_port
