"""BsplineBasis: the B-spline basis of an order over a knot vector, and curves on it
(evaluated with de Boor's algorithm)."""

import bisect
import enum

import numpy as np

from mallard.common import _bindings as b
from mallard.common._pybind import call_form, overloads


class KnotVectorType(enum.Enum):
    """Uniform knots, or uniform with the first and last ``order`` knots repeated (clamped:
    the curve starts and ends at its first and last control points)."""

    __module__ = "mallard.math"  # (its public path: pickles name it)

    kUniform = 0
    kClampedUniform = 1

    def __repr__(self):
        return f"<KnotVectorType.{self.name}: {self.value}>"


def _default_knots(order, n, kind, initial, final):
    if n < order:
        raise RuntimeError(
            f"The number of basis functions ({n}) should be greater than or equal to the "
            f"order ({order})."
        )
    if not initial < final:
        raise RuntimeError(
            f"BsplineBasis: initial_parameter_value ({initial}) must be less than "
            f"final_parameter_value ({final})"
        )
    interval = (final - initial) / (n - order + 1)
    knots = []
    for i in range(n + order):
        if kind == KnotVectorType.kClampedUniform and i < order:
            knots.append(initial)
        elif kind == KnotVectorType.kClampedUniform and i >= n:
            knots.append(final)
        else:
            knots.append(initial + interval * (i - (order - 1)))
    return knots


def _knot_list(v):
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        return b._MISMATCH
    try:
        return [float(t) for t in v]
    except (TypeError, ValueError):
        return b._MISMATCH


_OVERLOADS = (
    (),
    (b.integer("order"), b.Param("knots", "list[float]", lambda v: _knot_list(v))),
    (
        b.integer("order"),
        b.integer("num_basis_functions"),
        b.optional(b.instance_of("type", KnotVectorType), KnotVectorType.kClampedUniform),
        b.optional(b.scalar("initial_parameter_value"), 0.0),
        b.optional(b.scalar("final_parameter_value"), 1.0),
    ),
    (b.instance_of("other", lambda: BsplineBasis, "BsplineBasis"),),
)


class BsplineBasis:
    """``BsplineBasis()`` (empty), ``(order, knots)``, ``(order, num_basis_functions,
    type=kClampedUniform, initial_parameter_value=0, final_parameter_value=1)`` or
    ``(other)``: n = len(knots) − order B-splines of degree order − 1, defined on
    [knots[order−1], knots[n]]."""

    __module__ = "mallard.math"  # (its public path: pickles name it)

    __slots__ = ("_order", "_knots")

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        index, values = b.resolve("BsplineBasis", _OVERLOADS, args, kwargs)
        if index == 0:
            self._order, self._knots = 0, []
        elif index == 1:
            order, knots = values
            if len(knots) < 2 * order:
                raise RuntimeError(
                    f"The number of knots ({len(knots)}) should be greater than or equal to "
                    f"twice the order ({2 * order})."
                )
            if any(t1 < t0 for t0, t1 in zip(knots, knots[1:], strict=False)):
                raise RuntimeError(f"BsplineBasis: the knots must be non-decreasing: {knots}")
            self._order, self._knots = order, knots
        elif index == 2:
            order, n, kind, initial, final = values
            self._order = order
            self._knots = _default_knots(order, n, kind, float(initial), float(final))
        else:
            self._order, self._knots = values[0]._order, list(values[0]._knots)

    def order(self):
        return self._order

    def degree(self):
        return self._order - 1

    def num_basis_functions(self):
        return len(self._knots) - self._order

    def knots(self):
        return list(self._knots)

    def initial_parameter_value(self):
        return self._knots[self._order - 1]

    def final_parameter_value(self):
        return self._knots[self.num_basis_functions()]

    def _check(self, t, method):
        if not self.initial_parameter_value() <= t <= self.final_parameter_value():
            raise RuntimeError(
                f"BsplineBasis.{method}(): the parameter value {t} is outside "
                f"[{self.initial_parameter_value()}, {self.final_parameter_value()}]"
            )

    def FindContainingInterval(self, parameter_value):
        """The knot index l with knots[l] ≤ t < knots[l+1] (≤ at the final value)."""
        t = float(parameter_value)
        if t < self.final_parameter_value():
            return bisect.bisect_right(self._knots, t) - 1
        return bisect.bisect_left(self._knots, t) - 1

    @overloads("parameter_interval", "parameter_value")
    def ComputeActiveBasisFunctionIndices(self, *args, **kwargs):
        """The basis functions that may be nonzero at ``parameter_value``, or anywhere on
        ``parameter_interval`` (two values): those of the knot intervals containing them."""

        def accept(form, values):
            size = np.size(next(iter(values.values())))
            return size == 2 if form == 0 else size == 1

        _, values = call_form(BsplineBasis.ComputeActiveBasisFunctionIndices, args, kwargs,
                              "BsplineBasis.ComputeActiveBasisFunctionIndices", accept)  # fmt: skip
        values = np.atleast_1d(np.asarray(next(iter(values.values())), dtype=float))
        if values.size == 1:
            start = end = float(values[0])
        elif values.size == 2:
            start, end = float(values[0]), float(values[1])
        else:
            raise TypeError("ComputeActiveBasisFunctionIndices(): a value or an interval")
        first = self.FindContainingInterval(start) - self._order + 1
        return list(range(first, self.FindContainingInterval(end) + 1))

    def EvaluateCurve(self, control_points, parameter_value):
        """Σᵢ Bᵢ(t)·control_points[i] (control points of any type supporting + and scalar
        ·), by de Boor's algorithm."""
        n = self.num_basis_functions()
        if len(control_points) != n:
            raise RuntimeError(
                f"BsplineBasis.EvaluateCurve(): expected {n} control points, got "
                f"{len(control_points)}"
            )
        t_bar = parameter_value
        self._check(float(t_bar) if isinstance(t_bar, (int, float)) else t_bar, "EvaluateCurve")
        k, t = self._order, self._knots
        ell = self.FindContainingInterval(t_bar)
        p = {i: np.copy(control_points[i]) for i in range(ell - k + 1, ell + 1)}
        for r in range(1, k):
            for i in range(ell, ell - k + r, -1):
                alpha = (t_bar - t[i]) / (t[i + k - r] - t[i])
                p[i] = (1.0 - alpha) * p[i - 1] + alpha * p[i]
        return p[ell]

    def EvaluateBasisFunctionI(self, i, parameter_value):
        """Bᵢ(parameter_value)."""
        n = self.num_basis_functions()
        if not 0 <= int(i) < n:
            raise IndexError(f"BsplineBasis: basis function {i} of {n}")
        delta = [0.0] * n
        delta[int(i)] = 1.0
        return float(self.EvaluateCurve(delta, parameter_value))

    def __eq__(self, other):
        return (
            isinstance(other, BsplineBasis)
            and self._order == other._order
            and self._knots == other._knots
        )

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __copy__(self):
        return BsplineBasis(self)

    def __deepcopy__(self, memo):
        return BsplineBasis(self)

    def __getstate__(self):
        return (self._order, self._knots)

    def __setstate__(self, state):
        self._order, self._knots = state[0], list(state[1])
