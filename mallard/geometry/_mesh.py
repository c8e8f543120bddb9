"""Mesh and Convex: shapes read from a mesh file (pydrake.geometry's), with a per-axis scale.

The viewers (Meshcat, and the replay pages of mallard.geometry._replay) draw .obj, .stl and
.dae files. The volume, mass properties and convex hull (what point contact uses of a Mesh, as
in Drake) are computed from .obj files, as Drake computes them (Drake's other hull formats,
.vtk and .gltf, are not read yet); the hull needs scipy (mallard[mesh]). Files are read when
first needed, not by the constructor.
"""

import os
import pathlib

import numpy as np

from mallard.geometry._polygon_surface_mesh import closed_mesh_moments, convex_hull, read_obj
from mallard.geometry._shapes import Shape, fmt

#: The files whose convex hull Drake computes (a collision Mesh or Convex must be one).
_HULL_EXTENSIONS = (".obj", ".vtk", ".gltf")


class MeshSource:
    """Where a mesh's data comes from: here always a file path."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ("_path",)

    def __init__(self, path):
        self._path = pathlib.Path(path)

    def is_path(self):
        return True

    def is_in_memory(self):
        return False

    def path(self):
        return self._path

    def description(self):
        return str(self._path)

    def __getstate__(self):
        return {"path": self._path}  # (pydrake's pickled state)

    def __setstate__(self, state):
        self._path = pathlib.Path(state["path"])

    def extension(self):
        return self._path.suffix.lower()


class _MeshFile(Shape):
    """A shape given by the mesh file ``filename`` (made absolute against the current
    directory) scaled by ``scale``: a number (uniform) or 3 per-axis factors. RuntimeError if
    any |scale| < 1e-8 (a negative scale mirrors the mesh)."""

    __slots__ = ("_filename", "_scale3", "_hull")

    def __init__(self, filename, scale=1.0):
        self._filename = os.path.abspath(os.fspath(filename))
        scale3 = np.asarray(scale, dtype=float).reshape(-1)
        if scale3.size == 1:
            scale3 = np.repeat(scale3, 3)
        if scale3.size != 3:
            raise TypeError(f"{type(self).__name__}(): scale must be a number or 3 numbers")
        if not np.all(np.abs(scale3) >= 1e-8):
            raise RuntimeError(
                f"{type(self).__name__} |scale| cannot be < 1e-8 on any axis, given "
                f"[{' '.join(fmt(x) for x in scale3)}]."
            )
        self._scale3 = scale3
        self._hull = None

    def source(self):
        """The MeshSource (the file path)."""
        return MeshSource(self._filename)

    def filename(self):
        """The absolute path of the mesh file."""
        return self._filename

    def extension(self):
        """The file's extension, lower case with its dot (".obj")."""
        return os.path.splitext(self._filename)[1].lower()

    def scale3(self):
        """The per-axis scale [sx, sy, sz]."""
        return self._scale3.copy()

    def scale(self):
        """The uniform scale; RuntimeError if the scale is not uniform."""
        if not np.all(self._scale3 == self._scale3[0]):
            name = type(self).__name__
            raise RuntimeError(
                f"{name}::scale() can only be called for uniform scaling. This mesh has scale "
                f"[{' '.join(fmt(x) for x in self._scale3)}]. Use {name}::scale3() instead."
            )
        return float(self._scale3[0])

    def __repr__(self):
        scale3 = ", ".join(repr(float(x)) for x in self._scale3)
        return f"{type(self).__name__}(filename='{self._filename}', scale3=[{scale3}])"

    def __getstate__(self):
        return (MeshSource(self._filename), self._scale3.copy())  # (pydrake's pickled state)

    def __setstate__(self, state):
        source, scale3 = state
        self._filename, self._scale3 = str(source.path()), np.array(scale3, dtype=float)
        self._hull = None

    # ---- data read from the file -------------------------------------------------------------
    def _check_for_proximity(self):
        """What is checked when the shape gets a proximity role: a readable file (RuntimeError
        naming it otherwise, as Drake). Unlike Drake, a file type whose hull is not computed
        (.stl, .dae) is accepted here; the error comes when its hull is needed."""
        if not os.access(self._filename, os.R_OK) or not os.path.isfile(self._filename):
            raise RuntimeError(f"MemoryFile::Make() cannot read the file '{self._filename}'.")

    def _obj(self, error):
        """(vertices scaled, triangles) of the .obj file, outward wound even when the scale
        mirrors the mesh; ``error(shape)`` is the exception for another file type."""
        if self.extension() != ".obj":
            raise error(self)
        vertices, triangles = read_obj(self._filename)
        if np.prod(np.sign(self._scale3)) < 0:
            triangles = triangles[:, ::-1]
        return vertices * self._scale3, triangles

    def GetConvexHull(self):
        """The convex hull of the (scaled) mesh's vertices, a PolygonSurfaceMesh (computed
        once). RuntimeError if the file cannot be read or its vertices are degenerate."""
        if self._hull is None:
            vertices, _ = self._obj(_hull_error)
            self._hull = convex_hull(vertices, f"the mesh '{self._filename}'")
        return self._hull

    def _hull_moments(self):
        hull = self.GetConvexHull()
        return closed_mesh_moments(hull._vertices, hull._triangles())


def _hull_error(shape):
    if shape.extension() in _HULL_EXTENSIONS:
        return NotImplementedError(
            f"mallard reads only .obj files for convex hulls; cannot read '{shape.filename()}'."
        )
    return RuntimeError(
        "MakeConvexHull only applies to .obj, .vtk, and .gltf meshes; unsupported extension "
        f"'{shape.extension()}' for geometry data: {shape.filename()}."
    )


def _volume_error(shape):
    return RuntimeError(
        "CalcVolume currently only supports .obj files for mesh geometries; but the volume "
        f"of '{shape.filename()}' was requested."
    )


def _inertia_error(shape):
    return ValueError(
        "CalcSpatialInertia() currently only supports .obj or tetrahedral-mesh .vtk files for "
        f"{type(shape).__name__} shapes but was given '{shape.filename()}'."
    )


class Mesh(_MeshFile):
    """A mesh file's surface, drawn as given; for point contact, its convex hull (as in
    Drake). Its volume and mass properties are those of the closed surface it describes."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ()

    def _moments(self, error):
        vertices, triangles = self._obj(error)
        return closed_mesh_moments(vertices, triangles)

    def _calc_volume(self):
        return self._moments(_volume_error)[0]


class Convex(_MeshFile):
    """The convex hull of a mesh file's vertices (mallard's viewer draws the mesh as given)."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    __slots__ = ()

    def _moments(self, error):
        if self.extension() != ".obj":
            raise error(self)
        return self._hull_moments()

    def _calc_volume(self):
        return self._moments(_volume_error)[0]
