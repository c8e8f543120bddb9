"""Geometry read from model files, kept as records until mallard has a SceneGraph to register
it with. Parsers make these only when the Parser was given a scene graph (as Drake's parsers
register geometry only when the plant is a geometry source).

Shapes are mallard.geometry shapes (Box, Sphere, Cylinder, Capsule, Ellipsoid); meshes, which
mallard.geometry does not have, are MeshRecord (file path and scale).
"""

from dataclasses import dataclass, field

import numpy as np

from mallard.math import RigidTransform


@dataclass(frozen=True)
class MeshRecord:
    """A mesh file (absolute ``path``) with per-axis ``scale``; ``convex`` when declared
    convex (Drake's geometry::Convex, from ``<drake:declare_convex/>``)."""

    path: str
    scale: np.ndarray
    convex: bool = False

    def type_name(self):
        """The name Drake gives the shape: "Convex" or "Mesh"."""
        return "Convex" if self.convex else "Mesh"


@dataclass
class GeometryRecord:
    """One visual or collision geometry of a body.

    ``role`` is "visual" or "collision"; ``X_BG`` the pose of the geometry frame G in the body
    frame B; ``shape`` a mallard.geometry shape or a MeshRecord; ``properties`` Drake's
    property groups as nested dicts (e.g. ``{"phong": {"diffuse": rgba}}`` for a visual,
    ``{"material": {"coulomb_friction": (static, dynamic)}}`` for a collision).
    """

    body: object
    role: str
    name: str
    X_BG: RigidTransform
    shape: object
    properties: dict = field(default_factory=dict)


def shape_type_name(shape):
    """The name Drake gives a shape's type ("Box", "Sphere", "Mesh"...)."""
    if isinstance(shape, MeshRecord):
        return shape.type_name()
    return type(shape).__name__
