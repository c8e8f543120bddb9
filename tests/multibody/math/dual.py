"""A minimal forward-mode dual number, standing in for AutoDiffXd in object-dtype tests."""

import numbers


class Dual:
    """a + b·ε with ε² = 0; ``value()`` as AutoDiffXd has, so mallard treats it as a scalar."""

    def __init__(self, a, b=0.0):
        self.a, self.b = float(a), float(b)

    def value(self):
        return self.a

    @staticmethod
    def _lift(x):
        if isinstance(x, Dual):
            return x
        return Dual(x) if isinstance(x, numbers.Real) else None

    def __add__(self, other):
        other = self._lift(other)
        if other is None:
            return NotImplemented
        return Dual(self.a + other.a, self.b + other.b)

    __radd__ = __add__

    def __sub__(self, other):
        other = self._lift(other)
        if other is None:
            return NotImplemented
        return Dual(self.a - other.a, self.b - other.b)

    def __rsub__(self, other):
        return -self + other

    def __mul__(self, other):
        other = self._lift(other)
        if other is None:
            return NotImplemented
        return Dual(self.a * other.a, self.a * other.b + self.b * other.a)

    __rmul__ = __mul__

    def __neg__(self):
        return Dual(-self.a, -self.b)

    def __repr__(self):
        return f"Dual({self.a}, {self.b})"
