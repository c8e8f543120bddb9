"""Mirror of pydrake.geometry: the shape specifications, Rgba, a SceneGraph that records
geometry and carries frame poses (no collision queries yet), and the Meshcat viewer with its
MeshcatVisualizer (the viewer needs the optional "meshcat" package: mallard[viewer])."""

from mallard._template import TemplateClass
from mallard.geometry._mesh import Convex, Mesh
from mallard.geometry._meshcat import Meshcat, StartMeshcat
from mallard.geometry._meshcat_animation import MeshcatAnimation
from mallard.geometry._meshcat_visualizer import MeshcatVisualizer, MeshcatVisualizerParams
from mallard.geometry._rgba import Rgba
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

SceneGraph_ = TemplateClass("SceneGraph_", SceneGraph, "system")

__all__ = [
    "Box",
    "Capsule",
    "Convex",
    "Cylinder",
    "Ellipsoid",
    "FrameId",
    "FramePoseVector",
    "GeometryFrame",
    "GeometryId",
    "GeometryInstance",
    "HalfSpace",
    "Mesh",
    "Meshcat",
    "MeshcatAnimation",
    "MeshcatVisualizer",
    "MeshcatVisualizerParams",
    "QueryObject",
    "Role",
    "Rgba",
    "SceneGraph",
    "SceneGraph_",
    "SceneGraphInspector",
    "Shape",
    "SourceId",
    "Sphere",
    "StartMeshcat",
]
