"""Rgba: a color with opacity, each channel in [0, 1] (pydrake.geometry.Rgba)."""

import numpy as np

from mallard.common._pybind import call_form, overloads
from mallard.geometry._shapes import fmt


def _check(values):
    """``values`` (r, g, b, a) as floats, each checked to be in [0, 1]."""
    values = tuple(float(x) for x in values)
    if not all(0.0 <= x <= 1.0 for x in values):
        r, g, b, a = (fmt(x) for x in values)
        raise RuntimeError(
            "Rgba values must be within the range [0, 1]. Values provided: "
            f"(r={r}, g={g}, b={b}, a={a})"
        )
    return values


class Rgba:
    """A color: red, green, blue and alpha (opacity), each in [0, 1].

    ``Rgba()`` is opaque white; ``Rgba(r, g, b, a=1.0)``. RuntimeError for a value outside
    [0, 1].
    """

    __slots__ = ("_rgba",)

    def __init__(self, r=1.0, g=1.0, b=1.0, a=1.0):
        self._rgba = _check((r, g, b, a))

    def r(self):
        return self._rgba[0]

    def g(self):
        return self._rgba[1]

    def b(self):
        return self._rgba[2]

    def a(self):
        return self._rgba[3]

    @property
    def rgba(self):
        """The 4-vector [r, g, b, a]."""
        return np.array(self._rgba)

    @overloads("r, g, b, a=", "rgba")
    def set(self, *args, **kwargs):
        """``set(r, g, b, a=1.0)`` or ``set(rgba)`` with 3 or 4 values."""
        _, values = call_form(Rgba.set, args, kwargs, "Rgba.set")
        if "rgba" in values:
            args = np.asarray(values["rgba"], dtype=float).reshape(-1).tolist()
        else:
            args = [values[k] for k in "rgb"] + ([] if values["a"] is None else [values["a"]])
        if len(args) not in (3, 4):
            raise RuntimeError(f"Rgba::set() needs 3 or 4 values, got {len(args)}")
        self._rgba = _check((*args, 1.0)[:4])

    def update(self, r=None, g=None, b=None, a=None):
        """Sets the given channels; the others are unchanged."""
        given = (r, g, b, a)
        self._rgba = _check(
            old if new is None else new for old, new in zip(self._rgba, given, strict=True)
        )

    def scale_rgb(self, scale):
        """This color with r, g, b multiplied by ``scale`` (alpha unchanged)."""
        r, g, b, a = self._rgba
        return Rgba(r * scale, g * scale, b * scale, a)

    def __mul__(self, other):
        """The channel-wise product with another Rgba."""
        if not isinstance(other, Rgba):
            return NotImplemented
        return Rgba(*(x * y for x, y in zip(self._rgba, other._rgba, strict=True)))

    def __eq__(self, other):
        if isinstance(other, Rgba):
            return self._rgba == other._rgba
        return NotImplemented

    def __hash__(self):
        return hash(self._rgba)

    def __repr__(self):
        r, g, b, a = (repr(x) for x in self._rgba)
        return f"Rgba(r={r}, g={g}, b={b}, a={a})"


def illustration_color(properties):
    """The Rgba of a geometry's ("phong", "diffuse") property (an Rgba or 4 numbers), or None
    if it has none (or no properties)."""
    diffuse = properties.GetPropertyOrDefault("phong", "diffuse", None) if properties else None
    if diffuse is None or isinstance(diffuse, Rgba):
        return diffuse
    return Rgba(*np.asarray(getattr(diffuse, "rgba", diffuse), dtype=float).reshape(-1))
