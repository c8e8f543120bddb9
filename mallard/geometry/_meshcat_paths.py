"""Meshcat's scene paths, transforms and property values, checked and normalized.

A path is "/"-delimited: absolute ("/Background", "/drake/visualizer") or relative to
"/drake" ("visualizer" is "/drake/visualizer", "" is "/drake"), as in Drake's Meshcat.
"""

import numbers

import numpy as np

from mallard.math import RigidTransform

#: The properties the viewer gives a meaning to: name -> (kind, vector size).
KNOWN_PROPERTIES = {
    "visible": ("boolean", None),
    "position": ("vector", 3),
    "quaternion": ("vector", 4),
    "scale": ("vector", 3),
    "color": ("vector", 4),
    "top_color": ("vector", 3),
    "bottom_color": ("vector", 3),
    "opacity": ("number", None),
    "intensity": ("number", None),
    "zoom": ("number", None),
}


def normalized_path(path):
    """The absolute form of ``path`` ("/a/b", no empty or trailing parts)."""
    if not isinstance(path, str):
        raise TypeError(f"Meshcat: a path must be a str, got {path!r}")
    parts = [p for p in path.split("/") if p]
    if not path.startswith("/"):
        parts = ["drake", *parts]
    return "/" + "/".join(parts)


def matrix4(X_ParentPath):
    """The 4x4 homogeneous matrix of a RigidTransform or of a 4x4 array."""
    if isinstance(X_ParentPath, RigidTransform):
        return np.asarray(X_ParentPath.GetAsMatrix4(), dtype=float)
    T = np.asarray(X_ParentPath, dtype=float)
    if T.shape != (4, 4):
        raise TypeError(
            "Meshcat.SetTransform(): expected a RigidTransform or a 4x4 matrix, got "
            f"{X_ParentPath!r}"
        )
    return T


def checked_property(property, value):  # noqa: A002 (pydrake's name)
    """(value, kind) for a property: kind is "boolean", "number" or "vector" (a list of
    floats). TypeError for another kind of value; RuntimeError if ``property`` is one the
    viewer knows and ``value`` is not of its kind or size."""
    if not isinstance(property, str) or not property:
        raise TypeError(
            f"Meshcat.SetProperty(): property must be a non-empty str, got {property!r}"
        )
    if isinstance(value, (bool, np.bool_)):
        value, kind = bool(value), "boolean"
    elif isinstance(value, numbers.Real):
        value, kind = float(value), "number"
    else:
        try:
            vector = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            vector = None
        if vector is None or vector.ndim != 1:
            raise TypeError(
                f"Meshcat.SetProperty(): the value of '{property}' must be a bool, a number or "
                f"a vector of numbers, got {value!r}"
            )
        value, kind = [float(x) for x in vector], "vector"
    known = KNOWN_PROPERTIES.get(property)
    if known is not None:
        known_kind, size = known
        if kind != known_kind or (size is not None and len(value) != size):
            what = f"a vector of {size} numbers" if size else f"a {known_kind}"
            raise RuntimeError(
                f"Meshcat.SetProperty(): the property '{property}' takes {what}, got {value!r}"
            )
    return value, kind
