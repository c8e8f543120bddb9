"""SDFormat ``<visual>`` and ``<collision>`` geometry as GeometryRecords (``_geometry``), made
only when geometry is parsed (see ``_geometry``), as Drake registers geometry only then. The
shapes are checked either way (libsdformat reads them while loading the document)."""

import numpy as np

from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Sphere
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.parsing._geometry import GeometryRecord, MeshRecord
from mallard.multibody.parsing._proximity import find_path, sdf_proximity_properties

# Each shape: its required child elements (with their number of values) and its maker.
_SHAPES = {
    "box": ((("size", 3),), lambda v: Box(*v[0])),
    "sphere": ((("radius", 1),), lambda v: Sphere(v[0][0])),
    "cylinder": ((("radius", 1), ("length", 1)), lambda v: Cylinder(v[0][0], v[1][0])),
    "capsule": ((("radius", 1), ("length", 1)), lambda v: Capsule(v[0][0], v[1][0])),
    "ellipsoid": ((("radii", 3),), lambda v: Ellipsoid(*v[0])),
}
_SHAPES["drake:capsule"] = _SHAPES["capsule"]
_SHAPES["drake:ellipsoid"] = (
    (("a", 1), ("b", 1), ("c", 1)),
    lambda v: Ellipsoid(v[0][0], v[1][0], v[2][0]),
)


def read_shape(doc, geometry):
    """(shape, X_GS) of a ``<geometry>`` element: a mallard.geometry shape or MeshRecord and
    the pose it needs in the geometry frame (a plane's normal), or (None, None) for
    ``<empty>`` or no shape. Checks the numbers; errors located at the elements."""
    for node in geometry.children:
        if node.tag in _SHAPES:
            fields, make = _SHAPES[node.tag]
            values = []
            for tag, count in fields:
                child = node.find(tag)
                if child is None:
                    doc.error(node, f"Element[{tag}] of <{node.tag}> is missing")
                values.append(doc.numbers(child, count))
            try:
                return make(values), None
            except (RuntimeError, ValueError) as e:
                doc.error(node, str(e))
        if node.tag == "mesh":
            uri = node.find("uri")
            if uri is None or not uri.text:
                doc.error(node, "<mesh> element missing a <uri>")
            scale = node.find("scale")
            scale = np.array(doc.numbers(scale, 3)) if scale is not None else np.ones(3)
            convex = node.find("drake:declare_convex") is not None
            return (uri, scale, convex), None
        if node.tag == "plane":
            normal = node.find("normal")
            n = np.array(doc.numbers(normal, 3) if normal is not None else (0.0, 0.0, 1.0))
            size = node.find("size")
            if size is not None:
                doc.numbers(size, 2)  # (read and checked by libsdformat; a half space has none)
            R = _rotation_from_z(n / np.linalg.norm(n))
            return HalfSpace(), RigidTransform(R, np.zeros(3))
    return None, None


def _rotation_from_z(n):
    """A rotation taking z to the unit vector ``n``."""
    z = np.array([0.0, 0.0, 1.0])
    v, c = np.cross(z, n), float(z @ n)
    if np.linalg.norm(v) < 1e-12:
        return RotationMatrix() if c > 0 else RotationMatrix.MakeXRotation(np.pi)
    K = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return RotationMatrix(np.eye(3) + K + K @ K / (1.0 + c))


def geometry_records(ws, doc, body, link_element):
    """The GeometryRecords of a link's visuals and collisions (meshes resolved now)."""
    records = []
    for role in ("visual", "collision"):
        for node in link_element.findall(role):
            geometry = node.find("geometry")
            if geometry is None:
                continue
            shape, X_GS = read_shape(doc, geometry)
            if shape is None:
                continue
            if isinstance(shape, tuple):
                uri, scale, convex = shape
                shape = MeshRecord(ws.resolve_uri(uri.text.strip(), uri), scale, convex)
            X_BG = doc.pose(node.find("pose")).to_rigid_transform()
            if X_GS is not None:
                X_BG = X_BG @ X_GS
            properties = {}
            diffuse = find_path(node, ("material", "diffuse"))
            if role == "visual" and diffuse is not None:
                properties["phong"] = {"diffuse": np.array(doc.numbers(diffuse))}
            if role == "collision":
                properties = sdf_proximity_properties(doc, node)
            records.append(GeometryRecord(body, role, node.get("name"), X_BG, shape, properties))
    return records
