"""DistanceConstraintParams: the parameters of a distance constraint (pydrake's)."""

import copy
import math

import numpy as np

from mallard.common._pybind import bind, incompatible_arguments, overloads
from mallard.multibody.tree._indices import BodyIndex

_MODULE = "mallard.multibody.plant"
_FORMS = (
    f"{_MODULE}.DistanceConstraintParams()",
    f"{_MODULE}.DistanceConstraintParams(bodyA: mallard.multibody.tree.BodyIndex, p_AP: "
    "numpy.ndarray[numpy.float64[3, 1]], bodyB: mallard.multibody.tree.BodyIndex, p_BQ: "
    "numpy.ndarray[numpy.float64[3, 1]], distance: float, stiffness: float, damping: float)",
)
_NAMES = ("bodyA", "p_AP", "bodyB", "p_BQ", "distance", "stiffness", "damping")


def _vector3(x):
    """``x`` as a 3-vector of doubles (pybind11's conversion), or None."""
    try:
        a = np.array(x, dtype=float)
    except (TypeError, ValueError):
        return None
    return a.reshape(3) if a.size == 3 and (a.ndim == 1 or 1 in a.shape) else None


def _double(x):
    if isinstance(x, bool) or not isinstance(x, int | float | np.integer | np.floating):
        return None
    return float(x)


class DistanceConstraintParams:
    """The parameters of a distance constraint between a point P of body A and a point Q of
    body B: the constraint d(q) = ‖p_PQ‖ = d₀ (``distance``), or, for finite ``stiffness`` k,
    a spring f = −k·(d − d₀) − c·ḋ (``damping`` c) along p_PQ. Constructed with no argument,
    an invalid set of parameters (invalid body indices)."""

    __slots__ = ("_bodyA", "_p_AP", "_bodyB", "_p_BQ", "_distance", "_stiffness", "_damping")
    __module__ = _MODULE

    @overloads("", "bodyA, p_AP, bodyB, p_BQ, distance, stiffness, damping")
    def __init__(self, *args, **kwargs):
        if not args and not kwargs:
            self._bodyA, self._bodyB = BodyIndex(), BodyIndex()
            self._p_AP, self._p_BQ = np.zeros(3), np.zeros(3)
            self._distance = self._stiffness = self._damping = 0.0
            return
        values = bind(args, kwargs, _NAMES)
        converted = None
        if values is not None:
            bodyA, p_AP, bodyB, p_BQ, distance, stiffness, damping = values
            converted = (_vector3(p_AP), _vector3(p_BQ), _double(distance), _double(stiffness),
                         _double(damping))  # fmt: skip
            if not (isinstance(bodyA, BodyIndex) and isinstance(bodyB, BodyIndex)) or any(
                v is None for v in converted
            ):
                converted = None
        if converted is None:
            raise incompatible_arguments("__init__", _FORMS, args, kwargs, constructor=True)
        p_AP, p_BQ, distance, stiffness, damping = converted
        if not bodyA.is_valid():
            raise RuntimeError("Invalid index for body A.")
        if not bodyB.is_valid():
            raise RuntimeError("Invalid index for body B.")
        if bodyA == bodyB:
            raise RuntimeError("Body indexes are equal.")
        if not distance > 0.0:
            raise RuntimeError("Distance must be strictly positive.")
        if not stiffness > 0.0:
            raise RuntimeError("Stiffness must be strictly positive.")
        if not damping >= 0.0:
            raise RuntimeError("Damping must be positive or zero.")
        self._bodyA, self._p_AP, self._bodyB, self._p_BQ = bodyA, p_AP, bodyB, p_BQ
        self._distance, self._stiffness, self._damping = distance, stiffness, damping

    def bodyA(self):
        """The index of body A."""
        return self._bodyA

    def bodyB(self):
        """The index of body B."""
        return self._bodyB

    def p_AP(self):
        """The position of point P in body A's frame."""
        return self._p_AP.copy()

    def p_BQ(self):
        """The position of point Q in body B's frame."""
        return self._p_BQ.copy()

    def distance(self):
        """The fixed length d₀ of the constraint."""
        return self._distance

    def stiffness(self):
        """The constraint's stiffness k (N/m; ∞ for a rigid rod)."""
        return self._stiffness

    def damping(self):
        """The constraint's damping c (N·s/m)."""
        return self._damping

    def __copy__(self):
        new = object.__new__(DistanceConstraintParams)
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    def __deepcopy__(self, memo):
        return copy.copy(self)  # (its arrays are never written: accessors return copies)

    def __repr__(self):
        k = "inf" if math.isinf(self._stiffness) else repr(self._stiffness)
        return (
            f"DistanceConstraintParams(bodyA={self._bodyA!r}, p_AP={self._p_AP.tolist()}, "
            f"bodyB={self._bodyB!r}, p_BQ={self._p_BQ.tolist()}, distance={self._distance!r}, "
            f"stiffness={k}, damping={self._damping!r})"
        )
