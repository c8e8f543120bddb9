"""ImplicitEulerIntegrator: first-order implicit (backward) Euler with error control by step
doubling, as pydrake's default ImplicitEulerIntegrator: the propagated solution is two
half steps, the error estimate its difference from one full step (second order).

Each implicit step solves x − x₀ − h·f(t₀+h, x) = 0 by Newton-Raphson with the iteration
matrix I − h·J, J = ∂f/∂x by forward differences. J is reused across steps while Newton
converges; on a failure it is recomputed at the step's start and the step retried, and a
second failure halves the step. Convergence follows Drake's test (an update below 10·eps
relative, or the rate-based estimate of Hairer & Wanner IV.8.10 with κ = 0.05 of the accuracy,
at most 10 iterations). Steps below the working minimum are explicit Euler with an RK2 error
estimate.
"""

import math

import numpy as np

from mallard.systems.analysis._integrator_base import IntegratorBase

_MAX_ITERATIONS = 10
_KAPPA = 0.05
_EPS = np.finfo(float).eps


class ImplicitEulerIntegrator(IntegratorBase):
    """``ImplicitEulerIntegrator(system, context=None)``; error-controlled (accuracy 0.1 by
    default, at most 0.5), first step the maximum step size."""

    _scheme = "implicit_euler"

    def __init__(self, system, context=None):
        super().__init__(system, context)

    def supports_error_estimation(self):
        return True

    def get_error_estimate_order(self):
        return 2

    def _do_reset_statistics(self):
        self._num_nr_iterations = [0, 0]  # [integrator, error estimator]
        self._num_jacobian_evaluations = [0, 0]
        self._num_jacobian_function_evaluations = [0, 0]
        self._num_factorizations = [0, 0]
        self._num_function_evaluations_estimator = 0
        self._part = 0

    def _do_initialize(self):
        self._initialize_accuracy(1e-1, 5e-1, 1.0)
        n = self._n
        self._jacobian = None
        self._f = np.empty(n)
        self._f0 = np.empty(n)
        self._x_full = np.empty(n)
        self._x_half = np.empty(n)
        self._dx = np.empty(n)

    # ---- pieces ---------------------------------------------------------------------------
    def _set(self, t, x):
        self._context.SetTime(t)
        self._xc[:] = x
        self._notify_state_changed()

    def _eval(self, out):
        before = self._num_ode_evals
        self._eval_derivatives(out)
        if self._part == 1:
            self._num_function_evaluations_estimator += self._num_ode_evals - before

    def _compute_jacobian(self, t, x):
        """J = ∂f/∂x at (t, x) by forward differences (leaves the Context at (t, x))."""
        n = self._n
        f0 = np.empty(n)
        self._set(t, x)
        self._eval(f0)
        jacobian = np.empty((n, n))
        column = np.empty(n)
        xp = x.copy()
        for j in range(n):
            delta = math.sqrt(_EPS) * max(1.0, abs(x[j]))
            xp[j] = x[j] + delta
            delta = xp[j] - x[j]
            self._set(t, xp)
            self._eval(column)
            jacobian[:, j] = (column - f0) / delta
            xp[j] = x[j]
        self._num_jacobian_evaluations[self._part] += 1
        self._num_jacobian_function_evaluations[self._part] += n + 1
        return jacobian

    def _implicit_step(self, t0, x0, h, out):
        """x(t₀+h) into ``out`` by implicit Euler from (t₀, x₀); False if Newton failed
        with a fresh Jacobian too."""
        for trial in (1, 2):
            if trial == 2 or self._jacobian is None:
                self._jacobian = self._compute_jacobian(t0, x0)
            matrix = np.eye(self._n) - h * self._jacobian
            self._num_factorizations[self._part] += 1
            if self._newton(t0 + h, x0, h, matrix, out):
                return True
        return False

    def _newton(self, tf, x0, h, matrix, x):
        x[:] = x0
        f, dx = self._f, self._dx
        last_norm = math.inf
        for iteration in range(_MAX_ITERATIONS):
            self._set(tf, x)
            self._eval(f)
            residual = x - x0 - h * f
            self._num_nr_iterations[self._part] += 1
            try:
                dx[:] = np.linalg.solve(matrix, -residual)
            except np.linalg.LinAlgError:
                return False
            norm = self._error_norm(dx)
            x += dx
            if _update_is_zero(x, dx):
                self._set(tf, x)
                return True
            if iteration > 0:
                theta = norm / last_norm
                if not theta <= 1.0:
                    return False
                eta = theta / (1.0 - theta) if theta < 1.0 else math.inf
                if eta * norm < _KAPPA * self._accuracy_in_use:
                    self._set(tf, x)
                    return True
            last_norm = norm
        return False

    # ---- the step -------------------------------------------------------------------------
    def _do_step(self, h):
        context = self._context
        t0 = context._time
        x0 = self._x0
        x0[:] = self._xc
        err = self._err
        if h < self.get_working_minimum_step_size():
            # Explicit Euler, with the RK2 (explicit trapezoid) difference as error.
            f0 = self._f0
            self._eval(f0)
            x_euler = x0 + h * f0
            self._set(t0 + h, x_euler)
            f1 = self._f
            self._part = 1
            self._eval(f1)
            self._part = 0
            err[:] = np.abs(0.5 * h * (f1 - f0))
            return True
        full, half = self._x_full, self._x_half
        self._part = 1
        ok = self._implicit_step(t0, x0, h, full)
        self._part = 0
        if ok:
            ok = self._implicit_step(t0, x0, h / 2, half)
            if ok:
                mid = half.copy()
                ok = self._implicit_step(t0 + h / 2, mid, h / 2, half)
        if not ok:
            self._set(t0, x0)
            return False
        np.subtract(full, half, out=err)
        np.abs(err, out=err)
        self._set(t0 + h, half)
        return True

    # ---- statistics -------------------------------------------------------------------------
    def get_num_newton_raphson_iterations(self):
        return sum(self._num_nr_iterations)

    def get_num_error_estimator_newton_raphson_iterations(self):
        return self._num_nr_iterations[1]

    def get_num_jacobian_evaluations(self):
        return sum(self._num_jacobian_evaluations)

    def get_num_error_estimator_jacobian_evaluations(self):
        return self._num_jacobian_evaluations[1]

    def get_num_derivative_evaluations_for_jacobian(self):
        return sum(self._num_jacobian_function_evaluations)

    def get_num_error_estimator_derivative_evaluations_for_jacobian(self):
        return self._num_jacobian_function_evaluations[1]

    def get_num_iteration_matrix_factorizations(self):
        return sum(self._num_factorizations)

    def get_num_error_estimator_iteration_matrix_factorizations(self):
        return self._num_factorizations[1]

    def get_num_error_estimator_derivative_evaluations(self):
        return self._num_function_evaluations_estimator


def _update_is_zero(x, dx):
    """Whether every |dxᵢ| ≤ 10·eps·max(|xᵢ|, 1) (False with a NaN)."""
    tolerance = 10 * _EPS * np.maximum(np.abs(x), 1.0)
    return bool(np.all(np.abs(dx) <= tolerance))
