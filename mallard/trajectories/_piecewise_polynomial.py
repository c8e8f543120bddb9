"""PiecewisePolynomial: a matrix-valued function of time, one polynomial per segment between
break times (pydrake's, minimal: the hold and cubic Hermite constructions, evaluation and
derivatives).

Each segment i holds coefficients c[i, k] (matrices) of p(t) = Σₖ c[i, k]·(t − tᵢ)ᵏ. As in
Drake, evaluation clamps t to [start_time(), end_time()] and uses the segment that starts at
t (the last one at the end time): a zero-order hold never outputs its last sample.
"""

import numpy as np


class Trajectory:
    """The base of trajectories: a matrix-valued function of time."""

    def value(self, t):
        raise NotImplementedError

    def rows(self):
        raise NotImplementedError

    def cols(self):
        raise NotImplementedError

    def start_time(self):
        raise NotImplementedError

    def end_time(self):
        raise NotImplementedError

    def EvalDerivative(self, t, derivative_order=1):
        raise NotImplementedError

    def MakeDerivative(self, derivative_order=1):
        raise NotImplementedError

    def has_derivative(self):
        return False

    def vector_values(self, t):
        """The values at the times ``t`` as columns of a matrix (the trajectory must have one
        column)."""
        if self.cols() != 1:
            raise RuntimeError("This method only supports vector-valued trajectories.")
        return np.column_stack([self.value(ti)[:, 0] for ti in t]).reshape(self.rows(), -1)

    def duration(self):
        return self.end_time() - self.start_time()


def _samples_as_matrices(samples, what):
    """A list of 2-D arrays from a (rows × N) matrix (a nested list converts to one, as in
    pydrake) or a list of matrices."""
    try:
        array = np.asarray(samples, dtype=float)
    except ValueError:
        raise RuntimeError(f"{what}: the samples must all have the same shape") from None
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim == 2:
        return [array[:, i : i + 1].copy() for i in range(array.shape[1])]
    if array.ndim == 3:
        return [m.copy() for m in array]
    raise RuntimeError(f"{what}: the samples must be a matrix or a list of matrices")


def _check_breaks(breaks, samples, minimum):
    breaks = np.asarray(breaks, dtype=float).reshape(-1)
    if len(samples) < minimum:
        raise RuntimeError(
            f"{len(samples)} samples is not enough samples (this method requires at least "
            f"{minimum})."
        )
    if breaks.size != len(samples):
        raise RuntimeError(
            f"Number of break points {breaks.size} does not match number of samples {len(samples)}."
        )
    if np.any(np.diff(breaks) <= 0):
        raise RuntimeError("Times must be in increasing order.")
    return breaks


class PiecewisePolynomial(Trajectory):
    """``PiecewisePolynomial()`` (empty), ``(matrix)`` (a constant), or one of the
    ZeroOrderHold / FirstOrderHold / CubicHermite constructions."""

    def __init__(self, constant=None):
        if constant is None:
            self._breaks = np.zeros(0)
            self._coefficients = np.zeros((0, 1, 0, 0))
            return
        value = np.asarray(constant, dtype=float)
        value = value.reshape(-1, 1) if value.ndim <= 1 else value
        self._breaks = np.array([-np.inf, np.inf])
        self._coefficients = value[None, None].copy()

    @classmethod
    def _make(cls, breaks, coefficients):
        pp = cls.__new__(cls)
        pp._breaks = np.asarray(breaks, dtype=float)
        pp._coefficients = np.asarray(coefficients, dtype=float)
        return pp

    # ---- constructions ---------------------------------------------------------------------
    @classmethod
    def ZeroOrderHold(cls, breaks, samples):
        """Piecewise constant: sample i on [tᵢ, tᵢ₊₁) (the last sample only sets the end)."""
        samples = _samples_as_matrices(samples, "ZeroOrderHold")
        breaks = _check_breaks(breaks, samples, 2)
        coefficients = np.stack(samples[:-1])[:, None]
        return cls._make(breaks, coefficients)

    @classmethod
    def FirstOrderHold(cls, breaks, samples):
        """Piecewise linear through the samples."""
        samples = _samples_as_matrices(samples, "FirstOrderHold")
        breaks = _check_breaks(breaks, samples, 2)
        values = np.stack(samples)
        h = np.diff(breaks)[:, None, None]
        coefficients = np.stack((values[:-1], (values[1:] - values[:-1]) / h), axis=1)
        return cls._make(breaks, coefficients)

    @classmethod
    def CubicHermite(cls, breaks, samples, samples_dot):
        """Piecewise cubic with the given values and first derivatives at the breaks."""
        samples = _samples_as_matrices(samples, "CubicHermite")
        samples_dot = _samples_as_matrices(samples_dot, "CubicHermite")
        breaks = _check_breaks(breaks, samples, 2)
        if len(samples_dot) != len(samples) or samples_dot[0].shape != samples[0].shape:
            raise RuntimeError("CubicHermite: samples_dot must match samples")
        y, yd = np.stack(samples), np.stack(samples_dot)
        h = np.diff(breaks)[:, None, None]
        dy = y[1:] - y[:-1]
        c2 = (3 * dy / h - 2 * yd[:-1] - yd[1:]) / h
        c3 = (-2 * dy / h + yd[:-1] + yd[1:]) / h**2
        coefficients = np.stack((y[:-1], yd[:-1], c2, c3), axis=1)
        return cls._make(breaks, coefficients)

    # ---- queries -----------------------------------------------------------------------------
    def rows(self):
        return self._coefficients.shape[2]

    def cols(self):
        return self._coefficients.shape[3]

    def start_time(self, segment_index=None):
        """The start time of the trajectory, or of segment ``segment_index``."""
        if segment_index is not None:
            return float(self._breaks[self._segment(segment_index)])
        return float(self._breaks[0]) if self._breaks.size else 0.0

    def end_time(self, segment_index=None):
        """The end time of the trajectory, or of segment ``segment_index``."""
        if segment_index is not None:
            return float(self._breaks[self._segment(segment_index) + 1])
        return float(self._breaks[-1]) if self._breaks.size else 0.0

    def duration(self, segment_index=None):
        """The duration of the trajectory, or of segment ``segment_index``."""
        return self.end_time(segment_index) - self.start_time(segment_index)

    def _segment(self, index):
        n = self.get_number_of_segments()
        if not 0 <= index < n:
            raise RuntimeError(f"Segment number {index} out of range [0, {n})")
        return int(index)

    def get_number_of_segments(self):
        return max(self._breaks.size - 1, 0)

    def get_segment_times(self):
        return [float(t) for t in self._breaks]

    def get_segment_index(self, t):
        """The segment containing ``t`` (the one starting at t at a break; the first before
        the start, the last at or after the end)."""
        n = self.get_number_of_segments()
        index = int(np.searchsorted(self._breaks, t, side="right")) - 1
        return min(max(index, 0), n - 1)

    def is_time_in_range(self, t):
        return self.start_time() <= t <= self.end_time()

    def getSegmentPolynomialDegree(self, segment_index, row=0, col=0):
        return self._coefficients.shape[1] - 1

    def has_derivative(self):
        return True

    def _check_not_empty(self):
        if self.get_number_of_segments() == 0:
            raise RuntimeError("PiecewisePolynomial: the trajectory is empty")

    def value(self, t):
        """The (rows × cols) value at ``t`` (clamped to the time range)."""
        return self._evaluate(t, 0)

    def EvalDerivative(self, t, derivative_order=1):
        """The ``derivative_order``-th time derivative at ``t`` (clamped to the range)."""
        return self._evaluate(t, int(derivative_order))

    def _evaluate(self, t, order):
        self._check_not_empty()
        segment = self.get_segment_index(t)
        start = self._breaks[segment]
        tau = min(max(float(t), self.start_time()), self.end_time()) - start
        if not np.isfinite(start):
            tau = 0.0
        coefficients = self._coefficients[segment]
        result = np.zeros(coefficients.shape[1:])
        for k in range(coefficients.shape[0] - 1, order - 1, -1):
            factor = 1.0
            for j in range(order):
                factor *= k - j
            result = result * tau + factor * coefficients[k]
        return result

    def derivative(self, derivative_order=1):
        """The ``derivative_order``-th derivative as a PiecewisePolynomial."""
        coefficients = self._coefficients
        for _ in range(int(derivative_order)):
            degree = coefficients.shape[1] - 1
            if degree == 0:
                coefficients = np.zeros_like(coefficients)
                continue
            powers = np.arange(1, degree + 1, dtype=float)[None, :, None, None]
            coefficients = coefficients[:, 1:] * powers
        return PiecewisePolynomial._make(self._breaks.copy(), coefficients)

    def MakeDerivative(self, derivative_order=1):
        return self.derivative(derivative_order)

    def Clone(self):
        return PiecewisePolynomial._make(self._breaks.copy(), self._coefficients.copy())

    def __copy__(self):
        return self.Clone()

    def __deepcopy__(self, memo):
        return self.Clone()

    def __repr__(self):
        return (
            f"PiecewisePolynomial({self.rows()}x{self.cols()}, "
            f"{self.get_number_of_segments()} segments on [{self.start_time()}, "
            f"{self.end_time()}])"
        )
