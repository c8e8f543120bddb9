"""Geometry read from model files, as records, and their registration with the plant.

Parsers make records only when the Parser was given a scene graph or the plant is a geometry
source; the Parser registers them with the plant (RegisterVisualGeometry,
RegisterCollisionGeometry) when the plant is a geometry source, as Drake's parsers do.

Shapes are mallard.geometry shapes (Box, Sphere, Cylinder, Capsule, Ellipsoid, HalfSpace);
mesh files are MeshRecord (file path and scale), registered as a Mesh or Convex.
"""

from dataclasses import dataclass, field

import numpy as np

from mallard.geometry import (
    Convex,
    GeometryInstance,
    IllustrationProperties,
    Mesh,
    PerceptionProperties,
    ProximityProperties,
    Rgba,
)
from mallard.geometry._properties import HydroelasticType
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
    #: The element it was read from (an XmlElement), whose file and line a registration
    #: error names; None when unknown.
    element: object = None


def shape_type_name(shape):
    """The name Drake gives a shape's type ("Box", "Sphere", "Mesh"...)."""
    if isinstance(shape, MeshRecord):
        return shape.type_name()
    return type(shape).__name__


#: Drake's friction (static, dynamic) of a parsed collision geometry that gives none.
DEFAULT_FRICTION = (1.0, 1.0)


def _property_set(kind, groups):
    """A property set of ``kind`` holding the nested dict ``groups``: a phong diffuse becomes
    an Rgba, a (static, dynamic) coulomb_friction a CoulombFriction and a compliance_type
    ("rigid" or "compliant") a HydroelasticType, as Drake's parsers store them. Its values are
    new or immutable (a set, renderer accepting's, is copied): it shares nothing with the
    record or another set, so the SceneGraph keeps it uncopied."""
    from mallard.multibody.plant import CoulombFriction

    properties = kind()
    for group, values in groups.items():
        for name, value in values.items():
            if (group, name) == ("phong", "diffuse"):
                value = Rgba(*np.asarray(value, dtype=float).tolist())
            elif (group, name) == ("material", "coulomb_friction"):
                value = CoulombFriction(*value)
            elif (group, name) == ("hydroelastic", "compliance_type"):
                value = HydroelasticType.kRigid if value == "rigid" else HydroelasticType.kSoft
            elif isinstance(value, set):
                value = set(value)
            properties.AddProperty(group, name, value)
    return properties


def _instance(record):
    """The GeometryInstance of ``record`` with the properties of its roles."""
    shape = record.shape
    if isinstance(shape, MeshRecord):
        shape = (Convex if shape.convex else Mesh)(shape.path, shape.scale)
    instance = GeometryInstance(record.X_BG, shape, record.name)
    groups = {k: v for k, v in record.properties.items() if k != "roles"}
    if record.role == "visual":
        roles = record.properties.get("roles", {})
        if roles.get("illustration", True):
            instance.set_illustration_properties(_property_set(IllustrationProperties, groups))
        if roles.get("perception", True):
            instance.set_perception_properties(_property_set(PerceptionProperties, groups))
    else:
        material = dict(groups.get("material", {}))
        material.setdefault("coulomb_friction", DEFAULT_FRICTION)
        groups["material"] = material
        instance.set_proximity_properties(_property_set(ProximityProperties, groups))
    return instance


def register_geometries(plant, records):
    """Registers ``records`` with ``plant`` (a geometry source), in order, as
    RegisterVisualGeometry and RegisterCollisionGeometry would."""
    for record in records:
        try:
            plant._register_parsed_geometry(record.role == "visual", record.body, _instance(record))
        except RuntimeError as e:
            element = record.element
            if element is None:
                raise
            raise RuntimeError(f"{element.file}:{element.line}: error: {e}") from None
