"""Mirror of pydrake.geometry: the shape specifications (meshes are not supported yet)."""

from mallard.geometry._shapes import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Shape, Sphere

__all__ = ["Box", "Capsule", "Cylinder", "Ellipsoid", "HalfSpace", "Shape", "Sphere"]
