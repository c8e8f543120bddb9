"""ComputeNumericalGradient: the Jacobian of a vector function by finite differences."""

import enum

import numpy as np

from mallard._scalar import as_array


class NumericalGradientMethod(enum.Enum):
    """Forward, backward or central differences."""

    __module__ = "mallard.math"  # (its public path: pickles name it)

    kForward = 0
    kBackward = 1
    kCentral = 2

    def __repr__(self):
        return f"<NumericalGradientMethod.{self.name}: {self.value}>"


class NumericalGradientOption:
    """``NumericalGradientOption(method, function_accuracy=1e-15)``: the method, and the
    perturbation size it implies: √accuracy (forward, backward) or ∛accuracy (central)."""

    def __init__(self, method, function_accuracy=1e-15):
        if not isinstance(method, NumericalGradientMethod):
            raise TypeError(
                f"NumericalGradientOption: expected a NumericalGradientMethod, got {method!r}"
            )
        if not function_accuracy > 0:
            raise RuntimeError(
                f"NumericalGradientOption: function_accuracy must be positive, got "
                f"{function_accuracy}"
            )
        self._method = method
        if method == NumericalGradientMethod.kCentral:
            self._perturbation = float(np.cbrt(function_accuracy))
        else:
            self._perturbation = float(np.sqrt(function_accuracy))

    def NumericalGradientMethod(self):
        return self._method

    def perturbation_size(self):
        return self._perturbation

    def __repr__(self):
        return f"<NumericalGradientOption({self._method!r})>"


def ComputeNumericalGradient(calc_func, x, option=None):
    """The matrix ∂f/∂x (one row per element of f, one column per element of x) of
    ``calc_func`` (x ↦ f(x), vectors of doubles) at ``x``, each column from a perturbation
    of size option.perturbation_size()·max(1, |xⱼ|)."""
    if option is None:
        option = NumericalGradientOption(NumericalGradientMethod.kForward)
    x = as_array(x, name="x").reshape(-1).astype(float)
    method = option.NumericalGradientMethod()

    def f(point):
        return np.asarray(calc_func(point), dtype=float).reshape(-1)

    y = None if method == NumericalGradientMethod.kCentral else f(x)
    columns = []
    for j in range(x.size):
        delta = option.perturbation_size() * max(1.0, abs(x[j]))
        plus, minus = x.copy(), x.copy()
        plus[j] += delta
        minus[j] -= delta
        # (Dividing by the step the rounded coordinates actually take.)
        if method == NumericalGradientMethod.kForward:
            columns.append((f(plus) - y) / (plus[j] - x[j]))
        elif method == NumericalGradientMethod.kBackward:
            columns.append((y - f(minus)) / (x[j] - minus[j]))
        else:
            columns.append((f(plus) - f(minus)) / (plus[j] - minus[j]))
    if not columns:
        return np.zeros((f(x).size, 0))
    return np.column_stack(columns)
