"""Mirror of pydrake.geometry: the shape specifications (meshes are not supported yet) and a
SceneGraph that records geometry and carries frame poses (no collision queries yet)."""

from mallard.geometry._scene_graph import (
    FrameId,
    FramePoseVector,
    GeometryFrame,
    GeometryId,
    GeometryInstance,
    QueryObject,
    Role,
    SceneGraph,
    SceneGraphInspector,
    SourceId,
)
from mallard.geometry._shapes import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Shape, Sphere

__all__ = [
    "Box",
    "Capsule",
    "Cylinder",
    "Ellipsoid",
    "FrameId",
    "FramePoseVector",
    "GeometryFrame",
    "GeometryId",
    "GeometryInstance",
    "HalfSpace",
    "QueryObject",
    "Role",
    "SceneGraph",
    "SceneGraphInspector",
    "Shape",
    "SourceId",
    "Sphere",
]
