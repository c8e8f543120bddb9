"""AffineSystem, LinearSystem and MatrixGain: state x, input "u0", output "y0" with

    ẋ = A x + B u + f0  (continuous, time_period = 0)   or   x[n+1] = A x[n] + B u[n] + f0
    y = C x + D u + y0                                       (every time_period seconds)

Empty matrices stand for zeros of the sizes the other matrices imply. As Drake's, the output
depends on the state only if C has a nonzero element and on the input only if D has one.
"""

import numpy as np

from mallard._scalar import as_array
from mallard._template import array_to_scalar
from mallard.common._random import check_generator, gaussians
from mallard.systems.framework._indices import kUseDefaultName
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._ports import PortDataType
from mallard.systems.framework._system import system_scalar_type

_COEFFICIENTS = ("A", "B", "f0", "C", "D", "y0")


def _matrix(m, name):
    """``m`` as a float64 matrix (a vector is a column, as pybind11 converts it); None and
    empty arrays are empty."""
    a = np.zeros((0, 0)) if m is None else as_array(m, name=name)
    if a.dtype != np.float64:
        raise TypeError(f"AffineSystem: {name} must hold numbers (double), got {a.dtype}")
    if a.size == 0:
        return np.zeros((0, 0))
    return a.reshape(-1, 1) if a.ndim <= 1 else a


def _vector(v, name):
    a = np.zeros(0) if v is None else as_array(v, name=name)
    if a.dtype != np.float64:
        raise TypeError(f"AffineSystem: {name} must hold numbers (double), got {a.dtype}")
    if a.ndim == 2 and 1 in a.shape or a.ndim == 0:
        a = a.reshape(-1)
    if a.ndim != 1:
        raise RuntimeError(f"AffineSystem: {name} must be a vector, got shape {a.shape}")
    return a


def _size(owner, pairs):
    """The size the non-empty (matrix dimension, label) pairs agree on (0 if all empty)."""
    size, first = 0, None
    for n, label in pairs:
        if n is None:
            continue
        if first is None:
            size, first = n, label
        elif n != size:
            raise RuntimeError(f"{owner}: {label} is {n} but {first} is {size}")
    return size


def affine_coefficients(owner, A, B, f0, C, D, y0):
    """(A, B, f0, C, D, y0) as full-size float64 arrays; RuntimeError naming ``owner`` for
    sizes that disagree."""
    A, B, C, D = (_matrix(m, n) for m, n in ((A, "A"), (B, "B"), (C, "C"), (D, "D")))
    f0, y0 = _vector(f0, "f0"), _vector(y0, "y0")
    if A.size and A.shape[0] != A.shape[1]:
        raise RuntimeError(f"{owner}: A must be square, got shape {A.shape}")

    def dim(m, axis):
        return m.shape[axis] if m.size else None

    n = _size(
        owner,
        [
            (dim(A, 0), "the number of rows of A"),
            (dim(B, 0), "the number of rows of B"),
            (f0.size or None, "the size of f0"),
            (dim(C, 1), "the number of columns of C"),
        ],
    )
    m = _size(
        owner,
        [(dim(B, 1), "the number of columns of B"), (dim(D, 1), "the number of columns of D")],
    )
    p = _size(
        owner,
        [
            (dim(C, 0), "the number of rows of C"),
            (dim(D, 0), "the number of rows of D"),
            (y0.size or None, "the size of y0"),
        ],
    )
    return (
        A if A.size else np.zeros((n, n)),
        B if B.size else np.zeros((n, m)),
        f0 if f0.size else np.zeros(n),
        C if C.size else np.zeros((p, n)),
        D if D.size else np.zeros((p, m)),
        y0 if y0.size else np.zeros(p),
    )


class AffineSystem(LeafSystem):
    """``AffineSystem(A, B, f0, C, D, y0, time_period=0.0)`` (every argument optional; see
    the module docstring)."""

    _cpp_type = "drake::systems::AffineSystem<double>"

    def __init__(self, A=None, B=None, f0=None, C=None, D=None, y0=None, time_period=0.0):
        super().__init__()
        self._declare_affine(type(self).__name__, A, B, f0, C, D, y0, time_period)

    def _declare_affine(self, owner, A, B, f0, C, D, y0, time_period):
        self._owner = owner
        A, B, f0, C, D, y0 = affine_coefficients(owner, A, B, f0, C, D, y0)
        time_period = float(time_period)
        if not time_period >= 0.0:
            raise RuntimeError(f"{owner}: time_period must be >= 0, got {time_period}")
        self._period = time_period
        self._set_coefficients(A, B, f0, C, D, y0)
        n, m, p = B.shape[0], B.shape[1], C.shape[0]
        self._x0 = np.zeros(n)
        self._sqrt_covariance = np.zeros((n, n))
        if n:
            if time_period == 0.0:
                self.DeclareContinuousState(n)
            else:
                self.DeclareDiscreteState(n)
                self.DeclarePeriodicDiscreteUpdateEvent(time_period, 0.0, self._update)
                self.DeclareForcedDiscreteUpdateEvent(self._update)
        if m:
            self.DeclareInputPort(kUseDefaultName, PortDataType.kVectorValued, m)
        # (As Drake's, decided once: UpdateCoefficients keeps them.)
        self._uses_C, self._uses_D = bool(np.any(C != 0)), bool(np.any(D != 0))
        if p:
            prerequisites = set()
            if self._uses_C:
                prerequisites.add(self.all_state_ticket())
            if self._uses_D:
                prerequisites.add(self.all_input_ports_ticket())
            self.DeclareVectorOutputPort(
                kUseDefaultName, p, self._calc_output, prerequisites or {self.nothing_ticket()}
            )

    def _set_coefficients(self, A, B, f0, C, D, y0):
        T = system_scalar_type(self)
        self._coefficients = (A, B, f0, C, D, y0)
        # The coefficients in the system's scalar type (constants), for its computations.
        self._A, self._B, self._f0, self._C, self._D, self._y0 = (
            m if T is float else array_to_scalar(m, T) for m in self._coefficients
        )

    # ---- coefficients ----------------------------------------------------------------------
    def A(self):
        return self._coefficients[0].copy()

    def B(self):
        return self._coefficients[1].copy()

    def f0(self):
        return self._coefficients[2].copy()

    def C(self):
        return self._coefficients[3].copy()

    def D(self):
        return self._coefficients[4].copy()

    def y0(self):
        return self._coefficients[5].copy()

    def time_period(self):
        return self._period

    def num_states(self):
        return self._coefficients[1].shape[0]

    def num_inputs(self):
        return self._coefficients[1].shape[1]

    def num_outputs(self):
        return self._coefficients[3].shape[0]

    def UpdateCoefficients(self, A=None, B=None, f0=None, C=None, D=None, y0=None):
        """Replaces the coefficients with ones of the same sizes (empty: zeros). The output's
        dependencies stay those the constructor declared."""
        new = affine_coefficients(self._owner, A, B, f0, C, D, y0)
        for name, old, value in zip(_COEFFICIENTS, self._coefficients, new, strict=True):
            if value.shape != old.shape:
                raise RuntimeError(
                    f"{self._owner}.UpdateCoefficients(): {name} must keep its shape "
                    f"{old.shape}, got {value.shape}"
                )
        self._set_coefficients(*new)

    # ---- default and random state ------------------------------------------------------------
    def configure_default_state(self, x0):
        """The state of Contexts set to their defaults."""
        x0 = _vector(x0, "x0")
        if x0.size != self.num_states():
            raise RuntimeError(
                f"{self._owner}.configure_default_state(): x0 must have "
                f"{self.num_states()} elements, got {x0.size}"
            )
        self._x0 = x0.copy()

    def configure_random_state(self, covariance):
        """SetRandomState draws x0 + √Σ w, w standard normal, with Σ = ``covariance``."""
        n = self.num_states()
        sigma = _matrix(covariance, "covariance")
        if sigma.shape != (n, n) and not (n == 0 and sigma.size == 0):
            raise RuntimeError(
                f"{self._owner}.configure_random_state(): the covariance must be {n}x{n}, got "
                f"{sigma.shape}"
            )
        if n:
            # The symmetric square root (Eigen's SelfAdjointEigenSolver::operatorSqrt).
            values, vectors = np.linalg.eigh(sigma)
            self._sqrt_covariance = (vectors * np.sqrt(np.maximum(values, 0.0))) @ vectors.T

    def get_random_state_covariance(self):
        return self._sqrt_covariance @ self._sqrt_covariance.T

    def _set_state(self, state, x):
        if self._period == 0.0:
            state.get_mutable_continuous_state().SetFromVector(x)
        else:
            state.get_mutable_discrete_state(0).SetFromVector(x)

    def SetDefaultState(self, context, state):
        self.ValidateContext(context)
        if self.num_states():
            T = system_scalar_type(self)
            self._set_state(state, self._x0 if T is float else array_to_scalar(self._x0, T))

    def SetRandomState(self, context, state, generator):
        """The default state plus √Σ w, w drawn as Drake draws it (one normal_distribution)."""
        self.ValidateContext(context)
        check_generator(generator, f"{self._owner}.SetRandomState()")
        n = self.num_states()
        if n:
            x = self._x0 + self._sqrt_covariance @ np.array(gaussians(generator, n))
            T = system_scalar_type(self)
            self._set_state(state, x if T is float else array_to_scalar(x, T))

    # ---- computations ------------------------------------------------------------------------
    def _state(self, context):
        if self._period == 0.0:
            return context._state._continuous._vector._data
        return context._state._discrete._groups[0]._data

    def _input(self, context):
        return self._input_ports[0].EvalBasicVector(context)._data

    def _calc_output(self, context, output):
        y = self._y0
        if self._uses_C:
            y = y + self._C @ self._state(context)
        if self._uses_D:
            y = y + self._D @ self._input(context)
        output._data[:] = y

    def _next(self, context):
        xn = self._A @ self._state(context) + self._f0
        if self.num_inputs():
            xn = xn + self._B @ self._input(context)
        return xn

    def DoCalcTimeDerivatives(self, context, derivatives):
        if self.num_states() and self._period == 0.0:
            derivatives._vector._data[:] = self._next(context)

    def _update(self, context, discrete_state):
        discrete_state._groups[0]._data[:] = self._next(context)

    # ---- scalar conversion ------------------------------------------------------------------
    def _scalar_conversion_args(self, T):
        return self._coefficients + (self._period,)

    def _to_scalar_type(self, T):
        converted = super()._to_scalar_type(T)
        converted._x0 = self._x0.copy()
        converted._sqrt_covariance = self._sqrt_covariance.copy()
        return converted


class LinearSystem(AffineSystem):
    """``LinearSystem(A, B, C, D, time_period=0.0)``: an AffineSystem with f0 = 0, y0 = 0."""

    _cpp_type = "drake::systems::LinearSystem<double>"

    def __init__(self, A=None, B=None, C=None, D=None, time_period=0.0):
        LeafSystem.__init__(self)
        self._declare_affine(type(self).__name__, A, B, None, C, D, None, time_period)

    def _scalar_conversion_args(self, T):
        A, B, _, C, D, _ = self._coefficients
        return A, B, C, D, self._period


class MatrixGain(LinearSystem):
    """``MatrixGain(D)``: output "y0" = D u of input "u0" (a LinearSystem without state)."""

    _cpp_type = "drake::systems::MatrixGain<double>"

    def __init__(self, D):
        D = _matrix(D, "D")
        LeafSystem.__init__(self)
        self._declare_affine(type(self).__name__, None, None, None, None, D, None, 0.0)

    def _scalar_conversion_args(self, T):
        return (self._coefficients[4],)
