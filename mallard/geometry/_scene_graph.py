"""SceneGraph, as far as mallard needs it for now: a LeafSystem that records geometry sources,
their frames and geometries (names, poses, shapes, properties) and carries the frames' poses
from the sources' pose input ports to its query output port. It does no collision or
distance queries and no rendering (the viewer draws what it records).

Identifiers (SourceId, FrameId, GeometryId) are process-wide counters, as Drake's.
"""

import copy
import enum
import itertools

from mallard._template import convert_value
from mallard.common.value import AbstractValue
from mallard.math import RigidTransform
from mallard.systems.framework import LeafSystem
from mallard.systems.framework._system import system_scalar_type

_MODULE = "mallard.geometry"
_next_id = itertools.count(1).__next__  # Drake's identifiers share one counter too.


class _Identifier:
    """A unique id of a kind (made only by ``get_new_id``)."""

    __slots__ = ("_value",)

    def __init__(self, *args, **kwargs):
        raise TypeError(f"{_MODULE}.{type(self).__name__}: No constructor defined!")

    @classmethod
    def get_new_id(cls):
        new = object.__new__(cls)
        new._value = _next_id()
        return new

    def get_value(self):
        return self._value

    def is_valid(self):
        return self._value != 0

    def __eq__(self, other):
        if type(other) is type(self):
            return self._value == other._value
        return NotImplemented

    def __lt__(self, other):
        if type(other) is type(self):
            return self._value < other._value
        return NotImplemented

    def __hash__(self):
        return hash((type(self).__name__, self._value))

    def __repr__(self):
        return f"<{type(self).__name__} value={self._value}>"


class SourceId(_Identifier):
    """Identifies a geometry source registered with a SceneGraph."""

    __slots__ = ()


class FrameId(_Identifier):
    """Identifies a geometry frame."""

    __slots__ = ()


class GeometryId(_Identifier):
    """Identifies a geometry."""

    __slots__ = ()


class Role(enum.IntEnum):
    """The roles a geometry can have (Drake's geometry::Role)."""

    kUnassigned = 0
    kProximity = 1
    kIllustration = 2
    kPerception = 4


class GeometryFrame:
    """A frame to register with a SceneGraph: a name and a frame group."""

    def __init__(self, frame_name, frame_group_id=0):
        self._name = str(frame_name)
        self._group = int(frame_group_id)
        self._id = FrameId.get_new_id()

    def id(self):
        return self._id

    def name(self):
        return self._name

    def frame_group(self):
        return self._group


class GeometryInstance:
    """A geometry to register: its pose X_PG in its parent frame, shape and name, with the
    property groups of its roles (plain dicts of group → {name: value})."""

    def __init__(self, X_PG, shape, name):
        if not isinstance(X_PG, RigidTransform):
            raise TypeError(f"GeometryInstance: X_PG must be a RigidTransform, got {X_PG!r}")
        if not str(name).strip():
            raise RuntimeError(
                f"GeometryInstance given the name '{name}' which is an empty canonical string"
            )
        self._id = GeometryId.get_new_id()
        self._pose = X_PG
        self._shape = shape
        self._name = str(name)
        self._properties = {}

    def id(self):
        return self._id

    def pose(self):
        return self._pose

    def set_pose(self, X_PG):
        self._pose = X_PG

    def shape(self):
        return self._shape

    def name(self):
        return self._name

    def set_name(self, name):
        self._name = str(name)

    def set_illustration_properties(self, properties):
        self._properties[Role.kIllustration] = properties

    def set_proximity_properties(self, properties):
        self._properties[Role.kProximity] = properties

    def set_perception_properties(self, properties):
        self._properties[Role.kPerception] = properties

    def illustration_properties(self):
        return self._properties.get(Role.kIllustration)

    def proximity_properties(self):
        return self._properties.get(Role.kProximity)

    def perception_properties(self):
        return self._properties.get(Role.kPerception)


class FramePoseVector:
    """Poses X_PF of frames (by FrameId) in their parent frames (World for the frames
    registered without a parent), as a source reports them."""

    def __init__(self):
        self._poses = {}

    def set_value(self, id, value):  # noqa: A002 (pydrake's name)
        self._poses[id] = value

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


class _Frame:
    __slots__ = ("id", "name", "group", "source", "parent", "geometries")

    def __init__(self, frame_id, name, group, source, parent):
        self.id, self.name, self.group, self.source, self.parent = (
            frame_id,
            name,
            group,
            source,
            parent,
        )
        self.geometries = []


class _Geometry:
    __slots__ = ("id", "name", "frame", "X_FG", "shape", "properties", "source")

    def __init__(self, instance, frame, source):
        self.id = instance.id()
        self.name = instance.name()
        self.frame = frame
        self.X_FG = instance.pose()
        self.shape = instance.shape()
        self.properties = dict(instance._properties)
        self.source = source


class SceneGraphInspector:
    """Read access to what a SceneGraph has registered."""

    def __init__(self, scene_graph):
        self._sg = scene_graph

    def num_sources(self):
        return len(self._sg._sources)

    def num_frames(self):
        """The number of frames, World's included."""
        return len(self._sg._frames)

    def num_geometries(self):
        return len(self._sg._geometries)

    def NumGeometriesWithRole(self, role):
        return sum(1 for g in self._sg._geometries.values() if role in g.properties)

    def GetAllGeometryIds(self, role=None):
        return [g.id for g in self._sg._geometries.values() if role is None or role in g.properties]

    def GetAllFrameIds(self):
        return list(self._sg._frames)

    def world_frame_id(self):
        return self._sg.world_frame_id()

    def SourceIsRegistered(self, source_id):
        return source_id in self._sg._sources

    def GetName(self, id):  # noqa: A002 (pydrake's name)
        """The name of a source, frame or geometry."""
        sg = self._sg
        if isinstance(id, SourceId):
            return sg._source(id)
        if isinstance(id, FrameId):
            return sg._frame(id).name
        return sg._geometry(id).name

    def GetOwningSourceName(self, id):  # noqa: A002
        sg = self._sg
        item = sg._frame(id) if isinstance(id, FrameId) else sg._geometry(id)
        return sg._sources[item.source]

    def GetFrameGroup(self, frame_id):
        return self._sg._frame(frame_id).group

    def GetParentFrame(self, frame_id):
        frame = self._sg._frame(frame_id)
        return self._sg.world_frame_id() if frame.parent is None else frame.parent

    def GetFrameId(self, geometry_id):
        return self._sg._geometry(geometry_id).frame

    def GetGeometries(self, frame_id, role=None):
        return [
            g
            for g in self._sg._frame(frame_id).geometries
            if role is None or role in self._sg._geometries[g].properties
        ]

    def NumGeometriesForFrame(self, frame_id):
        return len(self._sg._frame(frame_id).geometries)

    def GetShape(self, geometry_id):
        return self._sg._geometry(geometry_id).shape

    def GetPoseInFrame(self, geometry_id):
        """X_FG: the geometry's pose in its frame."""
        return self._sg._geometry(geometry_id).X_FG

    def GetProperties(self, geometry_id, role):
        return self._sg._geometry(geometry_id).properties.get(role)

    def GetIllustrationProperties(self, geometry_id):
        return self.GetProperties(geometry_id, Role.kIllustration)

    def GetProximityProperties(self, geometry_id):
        return self.GetProperties(geometry_id, Role.kProximity)

    def GetPerceptionProperties(self, geometry_id):
        return self.GetProperties(geometry_id, Role.kPerception)


class QueryObject:
    """What SceneGraph's query output port carries: the poses of frames and geometries in
    World for the Context it was evaluated in, and the inspector."""

    def __init__(self, scene_graph=None, context=None):
        self._sg = scene_graph
        self._context = context

    def inspector(self):
        return self._sg.model_inspector()

    def _X_WF(self, frame_id):
        sg = self._sg
        frame = sg._frame(frame_id)
        if frame.parent is None and frame_id == sg._world_frame_id:
            return convert_value(RigidTransform(), system_scalar_type(sg))
        poses = sg.get_source_pose_port(frame.source).Eval(self._context)
        X_PF = poses.value(frame_id)
        if frame.parent is None:
            return X_PF
        return self._X_WF(frame.parent) @ X_PF

    def GetPoseInWorld(self, id):  # noqa: A002 (pydrake's name)
        """X_WF of a frame or X_WG of a geometry."""
        if self._sg is None:
            raise RuntimeError("QueryObject: this QueryObject is not bound to a SceneGraph")
        if isinstance(id, FrameId):
            return self._X_WF(id)
        geometry = self._sg._geometry(id)
        return self._X_WF(geometry.frame) @ geometry.X_FG

    def GetPoseInParent(self, frame_id):
        frame = self._sg._frame(frame_id)
        return self._sg.get_source_pose_port(frame.source).Eval(self._context).value(frame_id)


class SceneGraph(LeafSystem):
    """Registers geometry sources, frames and geometries; each source reports its frames'
    poses on its pose input port; the query output port gives a QueryObject."""

    _cpp_type = "drake::geometry::SceneGraph<double>"

    def __init__(self):
        super().__init__()
        self._sources = {}  # SourceId -> name
        self._pose_ports = {}  # SourceId -> InputPort
        self._frames = {}
        self._geometries = {}
        self._world_frame_id = FrameId.get_new_id()
        self._frames[self._world_frame_id] = _Frame(self._world_frame_id, "world", 0, None, None)
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
        frames and geometries."""
        converted = super()._to_scalar_type(T)
        converted._world_frame_id = self._world_frame_id
        converted._frames = copy.deepcopy(self._frames)
        converted._geometries = copy.deepcopy(self._geometries)
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
                f"Referenced geometry source {source_id} is not registered."
            ) from None

    def _frame(self, frame_id):
        try:
            return self._frames[frame_id]
        except (KeyError, TypeError):
            raise RuntimeError(f"Referenced frame {frame_id} has not been registered.") from None

    def _geometry(self, geometry_id):
        try:
            return self._geometries[geometry_id]
        except (KeyError, TypeError):
            raise RuntimeError(
                f"Referenced geometry {geometry_id} has not been registered."
            ) from None

    def RegisterFrame(self, source_id, *args):
        """``(source_id, frame)`` or ``(source_id, parent_id, frame)``: registers a
        GeometryFrame (a child of World, or of ``parent_id``); returns its FrameId."""
        self._source(source_id)
        parent, frame = (None, args[0]) if len(args) == 1 else args
        if not isinstance(frame, GeometryFrame):
            raise TypeError(f"RegisterFrame(): expected a GeometryFrame, got {frame!r}")
        if parent is not None:
            self._frame(parent)
            if parent == self._world_frame_id:
                parent = None
        if frame.id() in self._frames:
            raise RuntimeError(
                f"Registering frame with an id that has already been registered: {frame.id()}"
            )
        self._frames[frame.id()] = _Frame(
            frame.id(), frame.name(), frame.frame_group(), source_id, parent
        )
        return frame.id()

    def RegisterGeometry(self, source_id, frame_id, geometry):
        """Registers a GeometryInstance on frame ``frame_id``; returns its GeometryId."""
        self._source(source_id)
        frame = self._frame(frame_id)
        if not isinstance(geometry, GeometryInstance):
            raise TypeError(f"RegisterGeometry(): expected a GeometryInstance, got {geometry!r}")
        for other in frame.geometries:
            other = self._geometries[other]
            shared = [r for r in geometry._properties if r in other.properties]
            if other.name == geometry.name() and shared:
                raise RuntimeError(
                    f"The name '{geometry.name()}' has already been used by a geometry with "
                    f"the '{shared[0].name[1:].lower()}' role."
                )
        self._geometries[geometry.id()] = _Geometry(geometry, frame_id, source_id)
        frame.geometries.append(geometry.id())
        return geometry.id()

    def RegisterAnchoredGeometry(self, source_id, geometry):
        """Registers a GeometryInstance fixed in World."""
        return self.RegisterGeometry(source_id, self._world_frame_id, geometry)

    def AssignRole(self, source_id, geometry_id, properties, assign=None):
        """Gives ``geometry_id`` a role with ``properties`` (an IllustrationProperties-like
        object carrying its role in ``role``, or a (Role, dict) pair)."""
        self._source(source_id)
        role, values = (
            properties
            if isinstance(properties, tuple)
            else (
                getattr(properties, "role", Role.kIllustration),
                properties,
            )
        )
        self._geometry(geometry_id).properties[role] = values

    def world_frame_id(self):
        return self._world_frame_id

    def model_inspector(self):
        return self._inspector

    # ---- ports -------------------------------------------------------------------------------
    def get_source_pose_port(self, id):  # noqa: A002 (pydrake's name)
        """The input port on which source ``id`` reports its frames' poses (FramePoseVector)."""
        self._source(id)
        return self._pose_ports[id]

    def get_query_output_port(self):
        return self._query_port
