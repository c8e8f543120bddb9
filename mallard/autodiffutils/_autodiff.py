"""AutoDiffXd: a scalar carrying a value and its derivatives (forward mode), as pydrake's.

``AutoDiffXd(v, d)`` is v + dᵀε with ε² = 0: ``value()`` is v, ``derivatives()`` the vector d
of partial derivatives with respect to whatever the caller seeded. Arithmetic mixes freely with
real numbers (constants: no derivatives) and with other AutoDiffXd. As Eigen's AutoDiffScalar,
an empty derivative vector stands for zeros of any size; two non-empty vectors of different
sizes are an error. Comparisons compare values. Like pydrake's, the class has no ``__float__``
(converting would drop the derivatives silently) and is not hashable.

The elementary functions are methods under both pydrake's names (``sin``, ``atan2``, ...) and
numpy's (``arcsin``, ``arctan2``, ...), so numpy's ufuncs work on object arrays of AutoDiffXd:
``np.sin(a)`` calls ``a.sin()``, ``np.arctan2(y, x)`` calls ``y.arctan2(x)``, ``np.ceil``
calls ``__ceil__``. ``mallard.math`` has them as functions (pydrake.math's).
"""

import math
import numbers

import numpy as np

_EMPTY = np.zeros(0)
_EMPTY.flags.writeable = False
_REALS = (float, int, np.floating, np.integer)


def _derivatives_vector(derivatives):
    d = np.array(derivatives, dtype=float)
    if d.ndim == 2 and 1 in d.shape or d.ndim == 1:
        d = d.reshape(-1)
    else:
        raise ValueError(
            f"AutoDiffXd: derivatives must be a vector, got an array of shape {d.shape}"
        )
    d.flags.writeable = False
    return d


def _mismatch(da, db):
    return ValueError(
        f"AutoDiffXd: derivative vectors of different sizes ({da.size} and {db.size}) cannot "
        "be combined; seed every variable with the same number of derivatives"
    )


def _lin(ca, da, cb, db):
    """ca·da + cb·db, where an empty vector stands for zeros of the other's size."""
    if da.size == 0:
        return cb * db if db.size else _EMPTY
    if db.size == 0:
        return ca * da
    if da.size != db.size:
        raise _mismatch(da, db)
    return ca * da + cb * db


def _make(value, derivatives):
    """An AutoDiffXd from a float value and a derivative array it may keep (no checks)."""
    x = object.__new__(AutoDiffXd)
    x._v = value
    x._d = derivatives
    return x


def _chain(x, value, slope):
    """f(x) for a function of value ``value`` and derivative ``slope`` at x.value()."""
    return _make(value, slope * x._d if x._d.size else _EMPTY)


class AutoDiffXd:
    """A value with its vector of derivatives (see the module docstring)."""

    __module__ = "mallard.autodiffutils"  # (its public path: pickles name it)

    __slots__ = ("_v", "_d")
    __hash__ = None

    def __init__(self, value, derivatives=None, offset=None, *, size=None):
        """``AutoDiffXd(value)`` (no derivatives), ``AutoDiffXd(value, derivatives)``, or
        ``AutoDiffXd(value, size, offset)``: derivative 1 at ``offset`` among ``size``."""
        if not isinstance(value, numbers.Real):
            raise TypeError(f"AutoDiffXd: value must be a real number, got {type(value).__name__}")
        self._v = float(value)
        if offset is not None or size is not None:
            size = derivatives if size is None else size
            if not isinstance(size, (int, np.integer)) or not 0 <= int(offset) < size:
                raise ValueError(
                    f"AutoDiffXd(value, size, offset): offset must be in [0, size), got "
                    f"size={size!r}, offset={offset!r}"
                )
            d = np.zeros(int(size))
            d[int(offset)] = 1.0
            derivatives = d
        self._d = _EMPTY if derivatives is None else _derivatives_vector(derivatives)

    def value(self):
        """The value, a float."""
        return self._v

    def derivatives(self):
        """A copy of the derivative vector (1-D, possibly empty)."""
        return np.array(self._d)

    # ---- arithmetic ----------------------------------------------------------------------
    def __add__(self, other):
        if type(other) is AutoDiffXd:
            return _make(self._v + other._v, _lin(1.0, self._d, 1.0, other._d))
        if isinstance(other, _REALS):
            return _make(self._v + float(other), self._d)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if type(other) is AutoDiffXd:
            return _make(self._v - other._v, _lin(1.0, self._d, -1.0, other._d))
        if isinstance(other, _REALS):
            return _make(self._v - float(other), self._d)
        return NotImplemented

    def __rsub__(self, other):
        if isinstance(other, _REALS):
            return _make(float(other) - self._v, -self._d if self._d.size else _EMPTY)
        return NotImplemented

    def __mul__(self, other):
        if type(other) is AutoDiffXd:
            return _make(self._v * other._v, _lin(other._v, self._d, self._v, other._d))
        if isinstance(other, _REALS):
            other = float(other)
            return _make(self._v * other, other * self._d if self._d.size else _EMPTY)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if type(other) is AutoDiffXd:
            inv = 1.0 / other._v
            value = self._v * inv
            return _make(value, _lin(inv, self._d, -value * inv, other._d))
        if isinstance(other, _REALS):
            inv = 1.0 / float(other)
            return _make(self._v * inv, inv * self._d if self._d.size else _EMPTY)
        return NotImplemented

    def __rtruediv__(self, other):
        if isinstance(other, _REALS):
            value = float(other) / self._v
            return _chain(self, value, -value / self._v)
        return NotImplemented

    def __pow__(self, exponent):
        return self.pow(exponent)

    def __rpow__(self, base):
        if isinstance(base, _REALS):
            value = float(base) ** self._v
            return _chain(self, value, value * math.log(base) if value else 0.0)
        return NotImplemented

    def __neg__(self):
        return _make(-self._v, -self._d if self._d.size else _EMPTY)

    def __pos__(self):
        return self

    def __abs__(self):
        return -self if self._v < 0 else self

    def __ceil__(self):
        return float(math.ceil(self._v))

    def __floor__(self):
        return float(math.floor(self._v))

    # ---- comparisons (of values) ---------------------------------------------------------
    @staticmethod
    def _value_of(other):
        if type(other) is AutoDiffXd:
            return other._v
        if isinstance(other, _REALS):
            return other
        return None

    def __eq__(self, other):
        o = self._value_of(other)
        return NotImplemented if o is None else self._v == o

    def __ne__(self, other):
        o = self._value_of(other)
        return NotImplemented if o is None else self._v != o

    def __lt__(self, other):
        o = self._value_of(other)
        return NotImplemented if o is None else self._v < o

    def __le__(self, other):
        o = self._value_of(other)
        return NotImplemented if o is None else self._v <= o

    def __gt__(self, other):
        o = self._value_of(other)
        return NotImplemented if o is None else self._v > o

    def __ge__(self, other):
        o = self._value_of(other)
        return NotImplemented if o is None else self._v >= o

    # ---- elementary functions ------------------------------------------------------------
    def sin(self):
        return _chain(self, math.sin(self._v), math.cos(self._v))

    def cos(self):
        return _chain(self, math.cos(self._v), -math.sin(self._v))

    def tan(self):
        t = math.tan(self._v)
        return _chain(self, t, 1.0 + t * t)

    def asin(self):
        return _chain(self, math.asin(self._v), 1.0 / math.sqrt(1.0 - self._v * self._v))

    def acos(self):
        return _chain(self, math.acos(self._v), -1.0 / math.sqrt(1.0 - self._v * self._v))

    def atan(self):
        return _chain(self, math.atan(self._v), 1.0 / (1.0 + self._v * self._v))

    def atan2(self, x):
        """atan2(self, x): the angle of the point (x, self)."""
        x = _lift(x)
        y = self
        r2 = y._v * y._v + x._v * x._v
        return _make(math.atan2(y._v, x._v), _lin(x._v / r2, y._d, -y._v / r2, x._d))

    def sinh(self):
        return _chain(self, math.sinh(self._v), math.cosh(self._v))

    def cosh(self):
        return _chain(self, math.cosh(self._v), math.sinh(self._v))

    def tanh(self):
        t = math.tanh(self._v)
        return _chain(self, t, 1.0 - t * t)

    def exp(self):
        e = math.exp(self._v)
        return _chain(self, e, e)

    def log(self):
        return _chain(self, math.log(self._v), 1.0 / self._v)

    def sqrt(self):
        r = math.sqrt(self._v)
        return _chain(self, r, 0.5 / r)

    def pow(self, exponent):
        """self ** exponent, for a real or AutoDiffXd exponent."""
        if isinstance(exponent, _REALS):
            e = float(exponent)
            value = self._v**e
            return _chain(self, value, e * self._v ** (e - 1.0) if e else 0.0)
        if type(exponent) is AutoDiffXd:
            if exponent._d.size == 0:
                return self.pow(exponent._v)
            value = self._v**exponent._v
            slope = exponent._v * self._v ** (exponent._v - 1.0)
            return _make(value, _lin(slope, self._d, value * math.log(self._v), exponent._d))
        return NotImplemented

    def abs(self):
        return abs(self)

    def min(self, other):
        other = _lift(other)
        return self if self._v < other._v else other

    def max(self, other):
        other = _lift(other)
        return self if self._v > other._v else other

    def ceil(self):
        return self.__ceil__()

    def floor(self):
        return self.__floor__()

    # numpy's names (its ufuncs call these methods on object arrays).
    arcsin = asin
    arccos = acos
    arctan = atan
    arctan2 = atan2

    # ---- copies, pickling, printing ------------------------------------------------------
    def __copy__(self):
        return _make(self._v, self._d)

    def __deepcopy__(self, memo):
        return _make(self._v, self._d)

    def __getstate__(self):
        return (self._v, np.array(self._d))  # (pydrake's pickled state)

    def __setstate__(self, state):
        self._v, self._d = float(state[0]), _derivatives_vector(state[1])

    def __repr__(self):
        return f"<AutoDiffXd {self._v!r} nderiv={self._d.size}>"

    def __str__(self):
        return f"AD{{{self._v!r}, nderiv={self._d.size}}}"


def _lift(x):
    """``x`` as an AutoDiffXd (a real number becomes a constant)."""
    if type(x) is AutoDiffXd:
        return x
    if isinstance(x, _REALS):
        return _make(float(x), _EMPTY)
    raise TypeError(f"AutoDiffXd: expected a real number or an AutoDiffXd, got {type(x).__name__}")


def autodiff_equal_to(a, b):
    """True if ``a`` and ``b`` have equal values and equal derivative vectors (of the same
    size, as pydrake compares them)."""
    a, b = _lift(a), _lift(b)
    return a._v == b._v and a._d.size == b._d.size and bool(np.all(a._d == b._d))
