"""Arithmetic systems: Adder, Gain and Saturation."""

import numpy as np

from mallard._scalar import as_array
from mallard.systems.framework._leaf_system import LeafSystem


class Adder(LeafSystem):
    """Inputs "u0" ... "u{num_inputs-1}" of ``size`` elements; output "sum", their sum."""

    _cpp_type = "drake::systems::Adder<double>"

    def __init__(self, num_inputs, size):
        super().__init__()
        self._inputs = [self.DeclareVectorInputPort(f"u{i}", size) for i in range(num_inputs)]
        self.DeclareVectorOutputPort("sum", size, self._calc)

    def _scalar_conversion_args(self, T):
        return len(self._inputs), self._output_ports[0].size()

    def _calc(self, context, output):
        data = output._data
        data[:] = 0.0
        for port in self._inputs:
            data += port.EvalBasicVector(context)._data


class Gain(LeafSystem):
    """``Gain(k, size)`` or ``Gain(k_vector)``: input "u0", output "y0" = k ⊙ u."""

    _cpp_type = "drake::systems::Gain<double>"

    def __init__(self, k, size=None):
        super().__init__()
        if size is None:
            self._k = as_array(k, name="k").reshape(-1).astype(float)
        else:
            self._k = np.full(int(size), float(k))
        n = self._k.size
        self._u = self.DeclareVectorInputPort("u0", n)
        self.DeclareVectorOutputPort("y0", n, self._calc)

    def _scalar_conversion_args(self, T):
        return (self._k,)  # (as Drake's, the gain stays double)

    def _calc(self, context, output):
        np.multiply(self._k, self._u.EvalBasicVector(context)._data, out=output._data)

    def k(self):
        """The gain, when all elements share it (RuntimeError otherwise)."""
        if not np.all(self._k == self._k[0]):
            raise RuntimeError("Gain.k(): the gain differs between elements; use k_vector()")
        return float(self._k[0])

    def k_vector(self):
        return self._k.copy()


class Saturation(LeafSystem):
    """Input "u0", output "y0" = u clamped to [min_value, max_value] elementwise."""

    _cpp_type = "drake::systems::Saturation<double>"

    def __init__(self, min_value, max_value):
        super().__init__()
        lo = as_array(np.atleast_1d(min_value), name="min_value").reshape(-1).astype(float)
        hi = as_array(np.atleast_1d(max_value), name="max_value").reshape(-1).astype(float)
        if lo.size != hi.size:
            raise RuntimeError(
                f"Saturation: min_value (size {lo.size}) and max_value (size {hi.size}) must "
                "have the same size"
            )
        if np.any(lo > hi):
            raise RuntimeError(
                "Saturation: every element of min_value must be <= the element of max_value, "
                f"got {lo} and {hi}"
            )
        self._lo, self._hi = lo, hi
        self._u = self.DeclareVectorInputPort("u0", lo.size)
        self.DeclareVectorOutputPort("y0", lo.size, self._calc)

    def _scalar_conversion_args(self, T):
        return self._lo, self._hi

    def _calc(self, context, output):
        u = self._u.EvalBasicVector(context)._data
        if u.dtype == object:
            bounds = zip(u, self._lo, self._hi, strict=True)
            output._data[:] = [_clamp(x, lo, hi) for x, lo, hi in bounds]
        else:
            np.clip(u, self._lo, self._hi, out=output._data)


def _clamp(x, lo, hi):
    """min(max(x, lo), hi) for an AutoDiffXd (a bound becomes a constant) or an Expression
    (Drake's symbolic min and max)."""
    if hasattr(x, "Evaluate"):
        from mallard import symbolic

        return symbolic.min(symbolic.max(x, lo), hi)
    return type(x)(lo) if x < lo else type(x)(hi) if x > hi else x
