"""What a source registers with a SceneGraph: GeometryFrame, GeometryInstance (a shape, its pose
and name, and the properties of its roles), and the Role and RoleAssign enums."""

import enum

from mallard.geometry._identifiers import FrameId, GeometryId
from mallard.geometry._properties import (
    IllustrationProperties,
    PerceptionProperties,
    ProximityProperties,
)
from mallard.geometry._shapes import Shape
from mallard.math import RigidTransform


class Role(enum.IntEnum):
    """The roles a geometry can have (Drake's geometry::Role)."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    kUnassigned = 0
    kProximity = 1
    kIllustration = 2
    kPerception = 4


class RoleAssign(enum.Enum):
    """How SceneGraph.AssignRole treats a role the geometry has: kNew (an error) or kReplace."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    kNew = 0
    kReplace = 1


#: The property class of each role, and the name Drake prints for it.
ROLE_PROPERTIES = {
    Role.kProximity: ProximityProperties,
    Role.kIllustration: IllustrationProperties,
    Role.kPerception: PerceptionProperties,
}
ROLE_NAMES = {
    Role.kUnassigned: "unassigned",
    Role.kProximity: "proximity",
    Role.kIllustration: "illustration",
    Role.kPerception: "perception",
}


def role_of(properties):
    """The Role of a property set (TypeError for anything else)."""
    for role, kind in ROLE_PROPERTIES.items():
        if isinstance(properties, kind):
            return role
    raise TypeError(
        "expected ProximityProperties, IllustrationProperties or PerceptionProperties, got "
        f"{type(properties).__name__}"
    )


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
    """A geometry to register: its pose X_PG in its parent frame, its shape and name, and the
    property sets of its roles (each None until set)."""

    def __init__(self, X_PG, shape, name):
        if not isinstance(X_PG, RigidTransform):
            raise TypeError(f"GeometryInstance: X_PG must be a RigidTransform, got {X_PG!r}")
        if not isinstance(shape, Shape):
            raise TypeError(f"GeometryInstance: shape must be a Shape, got {shape!r}")
        if not str(name).strip():
            raise RuntimeError(
                f"GeometryInstance given the name '{name}' which is an empty canonical string"
            )
        self._id = GeometryId.get_new_id()
        self._pose = X_PG
        self._shape = shape
        self._name = str(name)
        self._properties = {}  # Role -> properties

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

    def _set(self, role, properties):
        if not isinstance(properties, ROLE_PROPERTIES[role]):
            raise TypeError(
                f"set_{ROLE_NAMES[role]}_properties(): expected "
                f"{ROLE_PROPERTIES[role].__name__}, got {type(properties).__name__}"
            )
        self._properties[role] = properties

    def set_illustration_properties(self, properties):
        self._set(Role.kIllustration, properties)

    def set_proximity_properties(self, properties):
        self._set(Role.kProximity, properties)

    def set_perception_properties(self, properties):
        self._set(Role.kPerception, properties)

    def illustration_properties(self):
        return self._properties.get(Role.kIllustration)

    def proximity_properties(self):
        return self._properties.get(Role.kProximity)

    def perception_properties(self):
        return self._properties.get(Role.kPerception)

    mutable_illustration_properties = illustration_properties
    mutable_proximity_properties = proximity_properties
    mutable_perception_properties = perception_properties
