"""Geometry properties (pydrake.geometry's GeometryProperties and the property sets of the three
roles) and the functions that fill a ProximityProperties with the values contact reads.

A property set is a collection of groups (strings), each a collection of named values. Values
are stored as given; their type, as Drake's C++ type name (a Python float is a "double", a str a
"std::string", any other Python object a "drake::pydrake::Object"), is fixed by the first
AddProperty: UpdateProperty with a value of another type is an error, as in pydrake.
"""

import enum
import math

import numpy as np

from mallard.common._pybind import overloads
from mallard.common.value import Value
from mallard.geometry._rgba import Rgba
from mallard.geometry._shapes import fmt

_DEFAULT_GROUP = "__default__"


class HydroelasticType(enum.Enum):
    """The compliance type stored as ("hydroelastic", "compliance_type") (Drake's
    geometry::internal::HydroelasticType)."""

    kUndefined = 0
    kRigid = 1
    kSoft = 2


def _type_name(value):
    """The C++ type name pydrake gives a property value."""
    from mallard.multibody.plant._coulomb_friction import CoulombFriction

    if isinstance(value, bool):
        return "bool"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "std::string"
    if isinstance(value, Rgba):
        return "drake::geometry::Rgba"
    if isinstance(value, CoulombFriction):
        return "drake::multibody::CoulombFriction<double>"
    if isinstance(value, HydroelasticType):
        return "drake::geometry::internal::HydroelasticType"
    return "drake::pydrake::Object"


class GeometryProperties:
    """The base of the property sets: groups of named values (it has no constructor; make a
    ProximityProperties, IllustrationProperties or PerceptionProperties)."""

    __slots__ = ("_groups",)

    def __init__(self, other=None):
        if type(self) is GeometryProperties:
            raise TypeError("mallard.geometry.GeometryProperties: No constructor defined!")
        if other is not None and not isinstance(other, GeometryProperties):
            raise TypeError(
                f"{type(self).__name__}(): expected a GeometryProperties to copy, got "
                f"{type(other).__name__}"
            )
        self._groups = {_DEFAULT_GROUP: {}}
        if other is not None:
            self._groups = {group: dict(values) for group, values in other._groups.items()}

    @staticmethod
    def default_group_name():
        """The name of the group that always exists: "__default__"."""
        return _DEFAULT_GROUP

    def num_groups(self):
        """The number of groups, the default group included."""
        return len(self._groups)

    def HasGroup(self, group_name):
        return group_name in self._groups

    def GetGroupNames(self):
        """The set of group names."""
        return set(self._groups)

    def HasProperty(self, group_name, name):
        return name in self._groups.get(group_name, ())

    def AddProperty(self, group_name, name, value):
        """Adds ``value`` as (group_name, name), making the group if needed; RuntimeError if
        the property exists."""
        group = self._groups.setdefault(str(group_name), {})
        if name in group:
            raise RuntimeError(
                f"AddProperty(): Trying to add property ('{group_name}', '{name}'); a property "
                "with that name already exists"
            )
        group[str(name)] = value

    def UpdateProperty(self, group_name, name, value):
        """Sets (group_name, name) to ``value``, adding it if absent; RuntimeError if it exists
        with a value of another type."""
        group = self._groups.setdefault(str(group_name), {})
        if name in group:
            new, old = _type_name(value), _type_name(group[name])
            if new != old:
                raise RuntimeError(
                    f"UpdateProperty(): Trying to update property ('{group_name}', '{name}'); "
                    "The property already exists and is of different type. New type "
                    f"{new}, existing type {old}"
                )
        group[str(name)] = value

    def GetProperty(self, group_name, name):
        """The value of (group_name, name); RuntimeError if the group or property is absent."""
        group = self._groups.get(group_name)
        if group is None:
            raise RuntimeError(
                f"GetProperty(): Trying to read property ('{group_name}', '{name}'), but the "
                "group does not exist."
            )
        if name not in group:
            raise RuntimeError(f"GetProperty(): There is no property ('{group_name}', '{name}')")
        return group[name]

    def GetPropertyOrDefault(self, group_name, name, default_value):
        """The value of (group_name, name), or ``default_value`` if absent."""
        return self._groups.get(group_name, {}).get(name, default_value)

    def GetPropertiesInGroup(self, group_name):
        """{name: Value(value)} of the group; RuntimeError if it does not exist."""
        group = self._groups.get(group_name)
        if group is None:
            raise RuntimeError(
                "GetPropertiesInGroup(): Can't retrieve properties for a group that doesn't "
                f"exist: '{group_name}'"
            )
        return {name: Value(value) for name, value in group.items()}

    def RemoveProperty(self, group_name, name):
        """Removes (group_name, name); returns whether it existed (the group stays)."""
        group = self._groups.get(group_name)
        if group is None or name not in group:
            return False
        del group[name]
        return True

    def __str__(self):
        groups = [g for g in self._groups if g != _DEFAULT_GROUP] + [_DEFAULT_GROUP]
        lines = []
        for group in groups:
            lines.append(f"[{group}]")
            lines += [f"  {n}: {_type_name(v)}" for n, v in self._groups[group].items()]
        return "\n".join(lines)


class ProximityProperties(GeometryProperties):
    """The properties of a geometry's proximity role (contact materials, hydroelastics)."""

    __slots__ = ()


class IllustrationProperties(GeometryProperties):
    """The properties of a geometry's illustration role (e.g. ("phong", "diffuse"))."""

    __slots__ = ()


class PerceptionProperties(GeometryProperties):
    """The properties of a geometry's perception role."""

    __slots__ = ()


def MakePhongIllustrationProperties(diffuse):
    """IllustrationProperties with ("phong", "diffuse") = ``diffuse`` (an RGBA 4-vector or an
    Rgba), stored as an Rgba."""
    if not isinstance(diffuse, Rgba):
        values = np.asarray(diffuse, dtype=float).reshape(-1)
        if values.size != 4:
            raise TypeError(f"expected an RGBA 4-vector for diffuse, got {diffuse!r}")
        diffuse = Rgba(*values.tolist())
    properties = IllustrationProperties()
    properties.AddProperty("phong", "diffuse", diffuse)
    return properties


# ---- contact materials ---------------------------------------------------------------------------
def _number(name, value):
    """``value`` as a float, RuntimeError naming ``name`` if it is not a finite number."""
    x = float(value)
    if not math.isfinite(x):
        raise RuntimeError(f"The {name} must be a finite number; given {fmt(x)}")
    return x


def _check_properties(properties):
    if not isinstance(properties, ProximityProperties):
        raise TypeError(
            f"expected ProximityProperties for properties, got {type(properties).__name__}"
        )


@overloads(
    "dissipation=, point_stiffness=, friction=, properties=",
    "properties, dissipation=, point_stiffness=, friction=",
)
def AddContactMaterial(*args, **kwargs):
    """``AddContactMaterial(dissipation, point_stiffness, friction, properties)`` or
    ``AddContactMaterial(properties, dissipation=None, point_stiffness=None, friction=None)``:
    adds the given (non-None) values to ("material", "hunt_crossley_dissipation"),
    ("material", "point_contact_stiffness") and ("material", "coulomb_friction").

    RuntimeError if the dissipation is negative, the stiffness not positive, either is not
    finite (pydrake lets NaN and infinity through), or a property exists already; nothing is
    added then.
    """
    from mallard.multibody.plant._coulomb_friction import CoulombFriction

    names = ("dissipation", "point_stiffness", "friction", "properties")
    if args and isinstance(args[0], ProximityProperties):
        names = ("properties", "dissipation", "point_stiffness", "friction")
    if len(args) > 4:
        raise TypeError("AddContactMaterial(): too many arguments")
    values = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names or key in values:
            raise TypeError(f"AddContactMaterial(): unexpected argument {key!r}")
        values[key] = value
    properties = values.get("properties")
    _check_properties(properties)
    dissipation = values.get("dissipation")
    stiffness = values.get("point_stiffness")
    friction = values.get("friction")
    material = []
    if dissipation is not None:
        dissipation = _number("dissipation", dissipation)
        if dissipation < 0:
            raise RuntimeError(f"The dissipation can't be negative; given {fmt(dissipation)}")
        material.append(("hunt_crossley_dissipation", dissipation))
    if stiffness is not None:
        stiffness = _number("point_contact_stiffness", stiffness)
        if stiffness <= 0:
            raise RuntimeError(
                f"The point_contact_stiffness must be strictly positive; given {fmt(stiffness)}"
            )
        material.append(("point_contact_stiffness", stiffness))
    if friction is not None:
        if not isinstance(friction, CoulombFriction):
            raise TypeError(
                f"AddContactMaterial(): friction must be a CoulombFriction, got "
                f"{type(friction).__name__}"
            )
        material.append(("coulomb_friction", friction))
    _add_all(properties, "material", material)


def _add_all(properties, group, values):
    """Adds every (name, value) of ``values`` to ``group``, or (if one exists) none."""
    for name, _ in values:
        if properties.HasProperty(group, name):
            raise RuntimeError(
                f"AddProperty(): Trying to add property ('{group}', '{name}'); a property with "
                "that name already exists"
            )
    for name, value in values:
        properties.AddProperty(group, name, value)


def _positive(name, value):
    x = _number(name, value)
    if x <= 0:
        raise RuntimeError(f"The {name} must be positive; given {fmt(x)}")
    return x


@overloads("resolution_hint, properties", "properties")
def AddRigidHydroelasticProperties(*args, **kwargs):
    """``(resolution_hint, properties)`` or ``(properties)``: marks the geometry rigid for
    hydroelastic contact (("hydroelastic", "compliance_type")), with its
    ("hydroelastic", "resolution_hint") when given (finite, positive)."""
    names = ("resolution_hint", "properties") if len(args) + len(kwargs) == 2 else ("properties",)
    values = _bind("AddRigidHydroelasticProperties", names, args, kwargs)
    _check_properties(values["properties"])
    group = []
    if "resolution_hint" in values:
        group.append(("resolution_hint", _positive("resolution hint", values["resolution_hint"])))
    group.append(("compliance_type", HydroelasticType.kRigid))
    _add_all(values["properties"], "hydroelastic", group)


def AddCompliantHydroelasticProperties(resolution_hint, hydroelastic_modulus, properties):
    """Marks the geometry compliant for hydroelastic contact, with its resolution hint (m,
    finite, positive) and hydroelastic modulus (Pa, positive)."""
    _check_properties(properties)
    hint = _positive("resolution hint", resolution_hint)
    _add_compliant(properties, ("resolution_hint", hint), hydroelastic_modulus)


def AddCompliantHydroelasticPropertiesForHalfSpace(
    slab_thickness, hydroelastic_modulus, properties
):
    """Marks a half space compliant for hydroelastic contact: a slab of that thickness (m,
    finite, positive) and hydroelastic modulus (Pa, positive)."""
    _check_properties(properties)
    thickness = _positive("slab thickness", slab_thickness)
    _add_compliant(properties, ("slab_thickness", thickness), hydroelastic_modulus)


def _add_compliant(properties, size, hydroelastic_modulus):
    modulus = float(hydroelastic_modulus)
    if not modulus > 0:
        raise RuntimeError(f"The hydroelastic modulus must be positive; given {fmt(modulus)}")
    _number("hydroelastic modulus", modulus)
    _add_all(
        properties,
        "hydroelastic",
        [size, ("compliance_type", HydroelasticType.kSoft), ("hydroelastic_modulus", modulus)],
    )


def _bind(function, names, args, kwargs):
    """{name: value} of a call's arguments, TypeError if they do not fit ``names``."""
    values = dict(zip(names, args, strict=False))
    if len(args) > len(names) or any(k not in names or k in values for k in kwargs):
        raise TypeError(f"{function}(): expected arguments ({', '.join(names)})")
    values.update(kwargs)
    if len(values) != len(names):
        raise TypeError(f"{function}(): expected arguments ({', '.join(names)})")
    return values
