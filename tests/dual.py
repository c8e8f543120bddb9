"""A minimal forward-mode dual number, a stand-in for AutoDiffXd in object-array tests.

``Dual(a, b)`` is a + b·ε with ε² = 0 (value a, derivative b). It has ``value()`` as AutoDiffXd
has (so mallard treats it as a scalar), compares by value, and has the functions numpy calls
on object arrays (``np.sin(x)`` calls ``x.sin()``).
"""

import math
import numbers

import numpy as np


class Dual:
    __slots__ = ("a", "b")

    def __init__(self, a, b=0.0):
        self.a, self.b = float(a), float(b)

    def value(self):
        return self.a

    @staticmethod
    def lift(x):
        """``x`` as a Dual, or None if it is not a number."""
        if isinstance(x, Dual):
            return x
        return Dual(x) if isinstance(x, numbers.Real) else None

    def _binary(self, other, op):
        other = Dual.lift(other)
        return NotImplemented if other is None else op(self, other)

    def __add__(self, o):
        return self._binary(o, lambda x, y: Dual(x.a + y.a, x.b + y.b))

    __radd__ = __add__

    def __sub__(self, o):
        return self._binary(o, lambda x, y: Dual(x.a - y.a, x.b - y.b))

    def __rsub__(self, o):
        return self._binary(o, lambda x, y: Dual(y.a - x.a, y.b - x.b))

    def __mul__(self, o):
        return self._binary(o, lambda x, y: Dual(x.a * y.a, x.a * y.b + x.b * y.a))

    __rmul__ = __mul__

    def __truediv__(self, o):
        return self._binary(o, lambda x, y: Dual(x.a / y.a, (x.b * y.a - x.a * y.b) / (y.a * y.a)))

    def __rtruediv__(self, o):
        return self._binary(o, lambda x, y: y / x)

    def __pow__(self, n):
        if isinstance(n, Dual):
            return NotImplemented
        return Dual(self.a**n, n * self.a ** (n - 1) * self.b)

    def __neg__(self):
        return Dual(-self.a, -self.b)

    def __abs__(self):
        return -self if self.a < 0 else self

    def __lt__(self, o):
        return self.a < Dual.lift(o).a

    def __le__(self, o):
        return self.a <= Dual.lift(o).a

    def __gt__(self, o):
        return self.a > Dual.lift(o).a

    def __ge__(self, o):
        return self.a >= Dual.lift(o).a

    def sin(self):
        return Dual(math.sin(self.a), math.cos(self.a) * self.b)

    def cos(self):
        return Dual(math.cos(self.a), -math.sin(self.a) * self.b)

    def tanh(self):
        t = math.tanh(self.a)
        return Dual(t, (1 - t * t) * self.b)

    def sqrt(self):
        r = math.sqrt(self.a)
        return Dual(r, self.b / (2 * r))

    def arctan2(self, x):
        x = Dual.lift(x)
        d = self.a * self.a + x.a * x.a
        return Dual(math.atan2(self.a, x.a), (x.a * self.b - self.a * x.b) / d)

    def arccos(self):
        return Dual(math.acos(self.a), -self.b / math.sqrt(1 - self.a * self.a))

    def __repr__(self):
        return f"Dual({self.a!r}, {self.b!r})"


def values(a):
    """The values of an array of Duals (and numbers)."""
    return np.vectorize(lambda x: Dual.lift(x).a, otypes=[float])(np.asarray(a, dtype=object))


def derivatives(a):
    """The derivatives of an array of Duals (0 for numbers)."""
    return np.vectorize(lambda x: Dual.lift(x).b, otypes=[float])(np.asarray(a, dtype=object))
