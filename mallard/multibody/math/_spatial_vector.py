"""The base of the four spatial vector types: a 6-vector [rotational; translational].

Both halves are expressed in one frame E. The coefficients are a 1-D numpy array of dtype
float64, or object for non-double scalars (see ``mallard._scalar``). The array is never
modified in place, so results built around a trusted array (``_make``) may share it safely.
"""

import numpy as np

from mallard._scalar import as_array, as_scalar, values_or_none
from mallard.common._pybind import overloads

_EPSILON = float(np.finfo(float).eps)


def cross(a, b):
    """a × b for 3-vectors of either dtype (numpy's np.cross costs ~30 µs per call)."""
    a0, a1, a2 = a.tolist()
    b0, b1, b2 = b.tolist()
    dtype = object if a.dtype == object or b.dtype == object else np.float64
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dtype=dtype)


def vector3(x, name):
    """``x`` as a 3-vector array; TypeError naming ``name`` otherwise (as pydrake raises)."""
    try:
        return as_array(x, (3,), name)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name} must be a 3-vector, got {x!r}") from e


def require(other, cls, name):
    """Raises TypeError unless ``other`` is a ``cls`` (a class or a tuple of classes)."""
    if not isinstance(other, cls):
        names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
        raise TypeError(f"{name} must be a {names}, got {type(other).__name__}")


class SpatialVector:
    """Holds [rotational; translational] in one 6-vector; subclasses name the two halves.

    Subclasses set ``_NAMES`` = (rotational name, translational name, 6-vector name), the
    constructor keywords that pydrake uses for that type (e.g. ("w", "v", "V")).
    """

    __slots__ = ("_c",)
    _NAMES = ("rotational", "translational", "vector")

    @overloads(lambda cls: ("", cls._NAMES[:2], cls._NAMES[2:]))
    def __init__(self, *args, **kwargs):
        count = len(args) + len(kwargs)
        if count == 0:
            self._c = np.full(6, np.nan)
            return
        rot, trans, whole = self._NAMES
        names = (whole,) if count == 1 else (rot, trans)
        values = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in names or key in values:
                values = {}
                break
            values[key] = value
        if len(values) != count:
            raise TypeError(self._constructor_error(args, kwargs))
        try:
            if count == 1:
                self._c = np.array(as_array(values[whole], (6,), whole))
            else:
                parts = as_array(values[rot], (3,), rot), as_array(values[trans], (3,), trans)
                self._c = np.concatenate(parts)
        except (TypeError, ValueError) as e:
            raise TypeError(self._constructor_error(args, kwargs)) from e

    @classmethod
    def _constructor_error(cls, args, kwargs):
        rot, trans, whole = cls._NAMES
        given = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        return (
            f"{cls.__name__}(): incompatible constructor arguments; expected "
            f"{cls.__name__}(), {cls.__name__}({rot}, {trans}) with 3-vectors, or "
            f"{cls.__name__}({whole}) with a 6-vector; got ({given})"
        )

    @classmethod
    def _make(cls, coeffs):
        """Wraps a trusted 6-array without checks or copy; the caller must not mutate it."""
        obj = object.__new__(cls)
        obj._c = coeffs
        return obj

    @classmethod
    def Zero(cls):
        """A spatial vector whose rotational and translational components are both zero."""
        return cls._make(np.zeros(6))

    def rotational(self):
        """The rotational component (a read-only copy of the first 3 coefficients)."""
        r = self._c[:3].copy()
        r.flags.writeable = False
        return r

    def translational(self):
        """The translational component (a read-only copy of the last 3 coefficients)."""
        t = self._c[3:].copy()
        t.flags.writeable = False
        return t

    def get_coeffs(self):
        """The 6 coefficients [rotational; translational], as a new array."""
        return self._c.copy()

    def SetZero(self):
        """Sets both components to zero; returns ``self``."""
        self._c = np.zeros(6)
        return self

    def SetNaN(self):
        """Sets every coefficient to NaN (C++ Drake's SetNaN, unbound in pydrake); returns self."""
        self._c = np.full(6, np.nan)
        return self

    def IsApprox(self, other, tolerance=_EPSILON):
        """C++ Drake's IsApprox (not bound in pydrake): each half within a relative tolerance,

        ‖a − b‖ ≤ tolerance · min(‖a‖, ‖b‖) for a, b the rotational (then translational) parts.
        """
        require(other, type(self), "other")
        a = values_or_none(self._c)
        b = values_or_none(other._c)
        if a is None or b is None:
            raise TypeError(f"{type(self).__name__}.IsApprox needs numeric values")
        for half in (slice(0, 3), slice(3, 6)):
            bound = tolerance * min(np.linalg.norm(a[half]), np.linalg.norm(b[half]))
            if not np.linalg.norm(a[half] - b[half]) <= bound:
                return False
        return True

    def Rotate(self, R_FE):
        """Re-expresses ``this`` from frame E into frame F: returns [R_FE·rot; R_FE·trans]."""
        from mallard.math import RotationMatrix

        require(R_FE, RotationMatrix, "R_FE")
        return self._make((self._c.reshape(2, 3) @ R_FE.matrix().T).reshape(6))

    def _shifted_moment(self, offset):
        """[rot - offset × trans; trans]: a moment-type vector (force, momentum) shifted."""
        p = vector3(offset, "offset")
        c = self._c
        return self._make(np.concatenate((c[:3] - cross(p, c[3:]), c[3:])))

    def _dot(self, other):
        """The 6-vector inner product with ``other`` (a float for doubles)."""
        result = self._c @ other._c
        return float(result) if isinstance(result, np.floating) else result

    def __add__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._make(self._c + other._c)

    def __sub__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._make(self._c - other._c)

    def __iadd__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        self._c = self._c + other._c
        return self

    def __isub__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        self._c = self._c - other._c
        return self

    def __neg__(self):
        return self._make(-self._c)

    def __mul__(self, scalar):
        try:
            s = as_scalar(scalar)
        except TypeError:
            return NotImplemented
        return self._make(self._c * s)

    __rmul__ = __mul__

    def __imul__(self, scalar):
        try:
            s = as_scalar(scalar)
        except TypeError:
            return NotImplemented
        self._c = self._c * s
        return self

    def __repr__(self):
        rot, trans, _ = self._NAMES
        return (
            f"{type(self).__name__}(\n"
            f"  {rot}={self._c[:3].tolist()!r},\n"
            f"  {trans}={self._c[3:].tolist()!r},\n"
            f")"
        )

    def __copy__(self):
        return self._make(self._c)

    def __deepcopy__(self, memo):
        return self._make(self._c.copy())

    def __getstate__(self):
        return self._c.copy()

    def __setstate__(self, state):
        self._c = np.array(as_array(state, (6,), "state"))
