"""SceneGraphConfig and DefaultProximityProperties (pydrake.geometry's): the proximity
properties SceneGraph gives every proximity geometry that lacks them, with Drake's defaults
(point stiffness 1e6 N/m, Hunt–Crossley dissipation 50 s/m, friction 0.5, ...).

Drake back-fills them into the geometries' properties of a SceneGraph Context; mallard keeps
the properties as registered and applies the defaults where they are read
(:func:`proximity_value`: the contact parameters of MultibodyPlant), with the same result.
"""

import dataclasses
import math

from mallard.geometry._properties import HydroelasticType
from mallard.geometry._shapes import fmt

_COMPLIANCE_TYPES = {
    "undefined": HydroelasticType.kUndefined,
    "rigid": HydroelasticType.kRigid,
    "compliant": HydroelasticType.kSoft,
}

#: (group, property) → the DefaultProximityProperties field that backs it up.
_FIELDS = {
    ("hydroelastic", "hydroelastic_modulus"): "hydroelastic_modulus",
    ("hydroelastic", "resolution_hint"): "resolution_hint",
    ("hydroelastic", "slab_thickness"): "slab_thickness",
    ("hydroelastic", "margin"): "margin",
    ("material", "hunt_crossley_dissipation"): "hunt_crossley_dissipation",
    ("material", "relaxation_time"): "relaxation_time",
    ("material", "point_contact_stiffness"): "point_stiffness",
}


@dataclasses.dataclass
class DefaultProximityProperties:
    """The proximity properties a geometry gets when it has none of its own (None: no
    default)."""

    compliance_type: str = "undefined"
    hydroelastic_modulus: float | None = 1.0e7
    resolution_hint: float | None = 0.02
    slab_thickness: float | None = None
    margin: float | None = None
    dynamic_friction: float | None = 0.5
    static_friction: float | None = 0.5
    hunt_crossley_dissipation: float | None = 50.0
    relaxation_time: float | None = 0.1
    point_stiffness: float | None = 1.0e6

    def ValidateOrThrow(self):
        """RuntimeError, as Drake's, for an unknown compliance type, a value out of its
        range, or only one of the two friction coefficients."""
        if self.compliance_type not in _COMPLIANCE_TYPES:
            raise RuntimeError(f"Unknown hydroelastic_type: '{self.compliance_type}'")
        for name, positive, finite in (
            ("hydroelastic_modulus", True, False),
            ("resolution_hint", True, True),
            ("slab_thickness", True, True),
            ("margin", False, True),
            ("dynamic_friction", False, False),
            ("static_friction", False, False),
            ("hunt_crossley_dissipation", False, False),
            ("relaxation_time", False, True),
            ("point_stiffness", True, False),
        ):
            value = getattr(self, name)
            if value is None:
                continue
            value = float(value)
            bad = value <= 0 if positive else value < 0
            if bad or (finite and not math.isfinite(value)):
                condition = ("positive" if positive else "non-negative") + (
                    ", finite" if finite else ""
                )
                raise RuntimeError(
                    f"Invalid scene graph configuration: '{name}' ({fmt(value)}) must be a "
                    f"{condition} value."
                )
        if (self.static_friction is None) != (self.dynamic_friction is None):

            def text(x):
                return "nullopt" if x is None else fmt(float(x))

            raise RuntimeError(
                "Invalid scene graph configuration: either both 'static_friction' "
                f"({text(self.static_friction)}) and 'dynamic_friction' "
                f"({text(self.dynamic_friction)}) must have a value, or neither."
            )
        if self.static_friction is not None:
            self._friction()

    def _friction(self):
        from mallard.multibody.plant._coulomb_friction import CoulombFriction

        return CoulombFriction(self.static_friction, self.dynamic_friction)


@dataclasses.dataclass
class SceneGraphConfig:
    """The settings of a SceneGraph: its default proximity properties."""

    default_proximity_properties: DefaultProximityProperties = dataclasses.field(
        default_factory=DefaultProximityProperties
    )

    def ValidateOrThrow(self):
        self.default_proximity_properties.ValidateOrThrow()


def proximity_value(properties, group, name, defaults, fallback=None):
    """The property (group, name) of a geometry's ProximityProperties, else the
    DefaultProximityProperties' value for it (as Drake back-fills it), else ``fallback``."""
    if properties is not None and properties.HasProperty(group, name):
        return properties.GetProperty(group, name)
    if (group, name) == ("hydroelastic", "compliance_type"):
        return _COMPLIANCE_TYPES[defaults.compliance_type]
    if (group, name) == ("material", "coulomb_friction"):
        return fallback if defaults.static_friction is None else defaults._friction()
    field = _FIELDS.get((group, name))
    value = None if field is None else getattr(defaults, field)
    return fallback if value is None else float(value)
