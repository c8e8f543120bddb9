"""GeometryVersion (pydrake.geometry's): which version of a SceneGraph's proximity, illustration
and perception data a reader saw, so that it can tell later whether the data of a role changed.

A version is three keys, one per role, each unique to the change that made it (a default
GeometryVersion's keys equal no other's). SceneGraph changes a role's key exactly where Drake
bumps that role's version: registering a geometry with the role, assigning it, replacing its
properties or removing it; and, for proximity, taking a CollisionFilterManager (of the model,
or of a Context: its filters carry their own key). Perception never changes: Drake bumps it
only when a render engine accepts the geometry, and mallard has no render engines."""

import itertools

from mallard.geometry._geometry_instance import Role

#: The next unique key of a role's version.
next_key = itertools.count(1).__next__

#: The roles a version has a key for, in the order of its keys.
VERSION_ROLES = (Role.kProximity, Role.kIllustration, Role.kPerception)
_SLOT = {role: i for i, role in enumerate(VERSION_ROLES)}


class GeometryVersion:
    """``GeometryVersion()``: a version different from every other one;
    ``GeometryVersion(other)``: a copy of ``other``."""

    __module__ = "mallard.geometry"  # (its public path)
    __slots__ = ("_keys",)

    def __init__(self, other=None):
        if other is None:
            self._keys = (next_key(), next_key(), next_key())
        elif isinstance(other, GeometryVersion):
            self._keys = other._keys
        else:
            raise TypeError(
                f"GeometryVersion(): expected a GeometryVersion to copy, got {type(other).__name__}"
            )

    @classmethod
    def _of(cls, proximity, illustration, perception):
        """The version of the three roles' keys."""
        version = cls.__new__(cls)
        version._keys = (proximity, illustration, perception)
        return version

    def IsSameAs(self, other, role):
        """Whether ``other`` has the same version of ``role``'s data as this one.
        RuntimeError for Role.kUnassigned."""
        if not isinstance(other, GeometryVersion):
            raise TypeError(f"IsSameAs(): expected a GeometryVersion, got {type(other).__name__}")
        role = Role(role)
        if role == Role.kUnassigned:
            raise RuntimeError("Trying to compare the version of unassigned roles.")
        return self._keys[_SLOT[role]] == other._keys[_SLOT[role]]

    def __copy__(self):
        return GeometryVersion(self)

    def __deepcopy__(self, memo):
        return GeometryVersion(self)

    def __reduce__(self):
        raise TypeError("cannot pickle 'mallard.geometry.GeometryVersion' object")
