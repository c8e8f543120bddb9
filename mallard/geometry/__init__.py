"""Mirror of pydrake.geometry: the shape specifications, Rgba, geometry properties, collision
filters, a SceneGraph that records geometry and carries frame poses, its QueryObject's proximity
queries and their results, and the Meshcat viewer with its MeshcatVisualizer (the viewer needs
the optional "meshcat" package: mallard[viewer])."""

from mallard._public import publish
from mallard._template import TemplateClass
from mallard.geometry._bounding_box import (
    Aabb,
    CalcObb,
    ComputeAabbForTriangleMesh,
    ComputeAabbForVolumeMesh,
    ComputeObbForTriangleMesh,
    ComputeObbForVolumeMesh,
    HydroelasticContactRepresentation,
    Obb,
)
from mallard.geometry._collision_filter import (
    CollisionFilterDeclaration,
    CollisionFilterManager,
    GeometrySet,
)
from mallard.geometry._element_meshes import (
    SurfaceTriangle,
    TriangleSurfaceMesh,
    VolumeElement,
    VolumeMesh,
)
from mallard.geometry._geometry_instance import GeometryFrame, GeometryInstance, Role, RoleAssign
from mallard.geometry._geometry_version import GeometryVersion
from mallard.geometry._identifiers import FilterId, FrameId, GeometryId, SourceId
from mallard.geometry._mesh import Convex, Mesh, MeshSource
from mallard.geometry._meshcat import Meshcat, StartMeshcat
from mallard.geometry._meshcat_animation import MeshcatAnimation
from mallard.geometry._meshcat_params import MeshcatParams
from mallard.geometry._meshcat_visualizer import MeshcatVisualizer, MeshcatVisualizerParams
from mallard.geometry._plane import Plane
from mallard.geometry._polygon_surface_mesh import PolygonSurfaceMesh, SurfacePolygon
from mallard.geometry._properties import (
    AddCompliantHydroelasticProperties,
    AddCompliantHydroelasticPropertiesForHalfSpace,
    AddContactMaterial,
    AddRigidHydroelasticProperties,
    GeometryProperties,
    IllustrationProperties,
    MakePhongIllustrationProperties,
    PerceptionProperties,
    ProximityProperties,
)
from mallard.geometry._query_object import QueryObject
from mallard.geometry._query_results import (
    PenetrationAsPointPair,
    PenetrationAsPointPair_,
    SignedDistancePair,
    SignedDistancePair_,
    SignedDistanceToPoint,
    SignedDistanceToPoint_,
)
from mallard.geometry._rgba import Rgba
from mallard.geometry._scene_graph import FramePoseVector, SceneGraph
from mallard.geometry._scene_graph_config import DefaultProximityProperties, SceneGraphConfig
from mallard.geometry._scene_graph_inspector import SceneGraphInspector
from mallard.geometry._shapes import (
    Box,
    CalcVolume,
    Capsule,
    Cylinder,
    Ellipsoid,
    HalfSpace,
    MeshcatCone,
    Shape,
    Sphere,
)

SceneGraph_ = TemplateClass("SceneGraph_", SceneGraph, "system")
FramePoseVector_ = TemplateClass("FramePoseVector_", FramePoseVector)

__all__ = [
    "VolumeMesh",
    "VolumeElement",
    "TriangleSurfaceMesh",
    "SurfaceTriangle",
    "Plane",
    "ComputeObbForVolumeMesh",
    "ComputeObbForTriangleMesh",
    "ComputeAabbForVolumeMesh",
    "ComputeAabbForTriangleMesh",
    "Aabb",
    "CalcObb",
    "HydroelasticContactRepresentation",
    "Obb",
    "AddCompliantHydroelasticProperties",
    "AddCompliantHydroelasticPropertiesForHalfSpace",
    "AddContactMaterial",
    "AddRigidHydroelasticProperties",
    "Box",
    "CalcVolume",
    "Capsule",
    "CollisionFilterDeclaration",
    "CollisionFilterManager",
    "Convex",
    "Cylinder",
    "DefaultProximityProperties",
    "Ellipsoid",
    "FilterId",
    "FrameId",
    "FramePoseVector",
    "FramePoseVector_",
    "GeometryFrame",
    "GeometryId",
    "GeometryInstance",
    "GeometryProperties",
    "GeometryVersion",
    "GeometrySet",
    "HalfSpace",
    "IllustrationProperties",
    "MakePhongIllustrationProperties",
    "Mesh",
    "MeshSource",
    "Meshcat",
    "MeshcatParams",
    "MeshcatAnimation",
    "MeshcatCone",
    "MeshcatVisualizer",
    "MeshcatVisualizerParams",
    "PenetrationAsPointPair",
    "PenetrationAsPointPair_",
    "PerceptionProperties",
    "PolygonSurfaceMesh",
    "ProximityProperties",
    "QueryObject",
    "Rgba",
    "Role",
    "RoleAssign",
    "SceneGraph",
    "SceneGraph_",
    "SceneGraphConfig",
    "SceneGraphInspector",
    "Shape",
    "SignedDistancePair",
    "SignedDistancePair_",
    "SignedDistanceToPoint",
    "SignedDistanceToPoint_",
    "SourceId",
    "Sphere",
    "StartMeshcat",
    "SurfacePolygon",
]

publish(globals())
