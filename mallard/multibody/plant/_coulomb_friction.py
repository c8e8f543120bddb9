"""CoulombFriction: the static and dynamic friction coefficients of a surface, and the rule
that combines two surfaces' coefficients into those of their contact."""

import math

from mallard.geometry._shapes import fmt
from mallard.multibody._contact_parameters import combine_friction


class CoulombFriction:
    """Static and dynamic Coulomb friction coefficients (pydrake.multibody.plant's).

    ``CoulombFriction()`` is frictionless; ``CoulombFriction(static_friction,
    dynamic_friction)``: RuntimeError if either is negative or NaN (pydrake lets NaN through),
    or if dynamic > static.
    """

    __module__ = "mallard.multibody.plant"  # (its public path: pickles name it)

    __slots__ = ("_static", "_dynamic")

    def __init__(self, static_friction=0.0, dynamic_friction=0.0):
        static_friction, dynamic_friction = float(static_friction), float(dynamic_friction)
        for kind, value in (("dynamic", dynamic_friction), ("static", static_friction)):
            if math.isnan(value):
                raise RuntimeError(f"The given {kind} friction is not a number: nan")
            if value < 0:
                raise RuntimeError(f"The given {kind} friction is negative: {fmt(value)}")
        if dynamic_friction > static_friction:
            raise RuntimeError(
                f"The given dynamic friction ({fmt(dynamic_friction)}) is greater than the "
                f"given static friction ({fmt(static_friction)}); dynamic friction must be "
                "less than or equal to static friction."
            )
        self._static = static_friction
        self._dynamic = dynamic_friction

    def static_friction(self):
        return self._static

    def dynamic_friction(self):
        return self._dynamic

    def __eq__(self, other):
        if not isinstance(other, CoulombFriction):
            return NotImplemented
        return (self._static, self._dynamic) == (other._static, other._dynamic)

    def __hash__(self):
        return hash((self._static, self._dynamic))

    def __getstate__(self):
        return (self._static, self._dynamic)

    def __setstate__(self, state):
        self._static, self._dynamic = state

    def __repr__(self):
        return f"CoulombFriction(static_friction={self._static}, dynamic_friction={self._dynamic})"


def CalcContactFrictionFromSurfaceProperties(surface_properties1, surface_properties2):
    """The friction of the contact between two surfaces: each coefficient is
    μ = 2·μ₁·μ₂/(μ₁ + μ₂) (zero if both are zero), as Drake combines them."""
    return CoulombFriction(
        combine_friction(
            surface_properties1.static_friction(), surface_properties2.static_friction()
        ),
        combine_friction(
            surface_properties1.dynamic_friction(), surface_properties2.dynamic_friction()
        ),
    )
