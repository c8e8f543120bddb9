"""Mesh and Convex: shapes read from a mesh file (pydrake.geometry's), with a per-axis scale.

mallard keeps the file's path; the viewers (Meshcat, and the replay pages of
mallard.geometry._replay) read .obj, .stl and .dae files.
"""

import os

import numpy as np

from mallard.geometry._shapes import Shape, fmt


class _MeshFile(Shape):
    """A shape given by the mesh file ``filename`` (made absolute against the current
    directory) scaled by ``scale``: a number (uniform) or 3 per-axis factors. RuntimeError if
    any |scale| < 1e-8 (a negative scale mirrors the mesh)."""

    __slots__ = ("_filename", "_scale3")

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


class Mesh(_MeshFile):
    """A mesh file's surface, drawn as given."""

    __slots__ = ()


class Convex(_MeshFile):
    """The convex hull of a mesh file's vertices (mallard's viewer draws the mesh as given)."""

    __slots__ = ()
