"""Shapes as the three.js JSON objects the meshcat viewer loads (its ``set_object`` command).

Each shape is drawn in its canonical frame (pydrake.geometry's conventions): three.js
cylinders, whose axis is y, are turned to z; a Capsule is a cylinder and two spheres; a
HalfSpace is a large thin box whose top face is z = 0; an Ellipsoid a scaled unit sphere; a
MeshcatCone a three.js cylinder of radii 0 and 1, turned, moved and scaled; a
Mesh or Convex is its .obj, .stl or .dae file (others cannot be drawn: a warning, and None).
"""

import uuid
import warnings

import numpy as np

from mallard.geometry._mesh import _MeshFile
from mallard.geometry._shapes import (
    Box,
    Capsule,
    Cylinder,
    Ellipsoid,
    HalfSpace,
    MeshcatCone,
    Shape,
    Sphere,
)

#: The side and thickness (m) of the box drawn for a HalfSpace.
HALF_SPACE_SIZE, HALF_SPACE_THICKNESS = 100.0, 0.01
#: Mesh file formats the viewer reads: extension -> (format name, binary).
MESH_FORMATS = {".obj": ("obj", False), ".dae": ("dae", False), ".stl": ("stl", True)}
#: The msgpack extension code under which the viewer decodes a Uint8Array.
_UINT8_EXT = 0x12

_IDENTITY = np.eye(4)
# R_x(90°): takes three.js's cylinder axis (y) to z.
_Y_TO_Z = np.array([[1.0, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])


def _column_major(T):
    """A 4x4 matrix as the 16 numbers three.js reads (column-major)."""
    return [float(x) for x in np.asarray(T, dtype=float).T.reshape(-1)]


def _translation(z):
    T = np.eye(4)
    T[2, 3] = z
    return T


def _material(rgba):
    r, g, b, a = (float(x) for x in rgba.rgba)
    color = (round(r * 255) << 16) | (round(g * 255) << 8) | round(b * 255)
    return {
        "uuid": str(uuid.uuid4()),
        "type": "MeshPhongMaterial",
        "color": color,
        "side": 2,
        "transparent": a < 1.0,
        "opacity": a,
    }


class _Builder:
    """Collects the geometries of one object and makes its meshes (sharing one material)."""

    def __init__(self, rgba):
        self.material = _material(rgba)
        self.geometries = []

    def mesh(self, geometry, T=_IDENTITY):
        geometry["uuid"] = str(uuid.uuid4())
        self.geometries.append(geometry)
        return {
            "uuid": str(uuid.uuid4()),
            "type": "Mesh",
            "geometry": geometry["uuid"],
            "material": self.material["uuid"],
            "matrix": _column_major(T),
        }

    def sphere(self, radius, T=_IDENTITY):
        geometry = {"type": "SphereGeometry", "radius": radius}
        return self.mesh(dict(geometry, widthSegments=24, heightSegments=16), T)

    def cylinder(self, radius, length, T=_IDENTITY):
        geometry = {"type": "CylinderGeometry", "radiusTop": radius, "radiusBottom": radius}
        return self.mesh(dict(geometry, height=length, radialSegments=32), T @ _Y_TO_Z)

    def cone(self, height, a, b):
        """Apex at the origin, base (semi-axes a, b) at z = height."""
        geometry = {"type": "CylinderGeometry", "radiusTop": 1.0, "radiusBottom": 0.0}
        T = np.diag([a, b, 1.0, 1.0]) @ _translation(height / 2) @ _Y_TO_Z
        return self.mesh(dict(geometry, height=height, radialSegments=32), T)

    def box(self, x, y, z, T=_IDENTITY):
        return self.mesh({"type": "BoxGeometry", "width": x, "height": y, "depth": z}, T)


def _mesh_file(builder, shape, path):
    """The mesh object of a Mesh or Convex, or None (with a warning) if it cannot be read."""
    fmt = MESH_FORMATS.get(shape.extension())
    if fmt is None:
        warnings.warn(
            f"Meshcat: cannot draw the mesh '{shape.filename()}' at '{path}': the viewer reads "
            f"{', '.join(MESH_FORMATS)} files, not '{shape.extension()}'; it is skipped.",
            stacklevel=4,
        )
        return None
    name, binary = fmt
    try:
        with open(shape.filename(), "rb" if binary else "r") as f:
            data = f.read()
    except OSError as e:
        warnings.warn(
            f"Meshcat: cannot read the mesh file '{shape.filename()}' for '{path}' "
            f"({e.strerror}); it is skipped.",
            stacklevel=4,
        )
        return None
    if binary:
        import umsgpack

        data = umsgpack.Ext(_UINT8_EXT, data)
    geometry = {"type": "_meshfile_geometry", "format": name, "data": data}
    return builder.mesh(geometry, np.diag([*shape.scale3(), 1.0]))


def shape_object(shape, rgba, path):
    """The three.js JSON object drawing ``shape`` with color ``rgba``, or None for a mesh
    the viewer cannot read (with a warning). TypeError for what is not a drawable Shape."""
    builder = _Builder(rgba)
    if isinstance(shape, Box):
        root = builder.box(shape.width(), shape.depth(), shape.height())
    elif isinstance(shape, Sphere):
        root = builder.sphere(shape.radius())
    elif isinstance(shape, Ellipsoid):
        root = builder.sphere(1.0, np.diag([shape.a(), shape.b(), shape.c(), 1.0]))
    elif isinstance(shape, Cylinder):
        root = builder.cylinder(shape.radius(), shape.length())
    elif isinstance(shape, Capsule):
        r, half = shape.radius(), shape.length() / 2
        root = {"uuid": str(uuid.uuid4()), "type": "Group", "matrix": _column_major(np.eye(4))}
        root["children"] = [
            builder.cylinder(r, shape.length()),
            builder.sphere(r, _translation(half)),
            builder.sphere(r, _translation(-half)),
        ]
    elif isinstance(shape, MeshcatCone):
        root = builder.cone(shape.height(), shape.a(), shape.b())
    elif isinstance(shape, HalfSpace):
        size, thickness = HALF_SPACE_SIZE, HALF_SPACE_THICKNESS
        root = builder.box(size, size, thickness, _translation(-thickness / 2))
    elif isinstance(shape, _MeshFile):
        root = _mesh_file(builder, shape, path)
        if root is None:
            return None
    elif isinstance(shape, Shape):
        raise TypeError(f"Meshcat.SetObject(): cannot draw a {type(shape).__name__}")
    else:
        raise TypeError(
            f"Meshcat.SetObject(): shape must be a mallard.geometry Shape, got {shape!r}"
        )
    return {
        "metadata": {"version": 4.5, "type": "Object"},
        "geometries": builder.geometries,
        "materials": [builder.material],
        "object": root,
    }
