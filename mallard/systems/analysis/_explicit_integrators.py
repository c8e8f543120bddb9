"""The explicit integrators: ExplicitEulerIntegrator, RungeKutta2Integrator and
SemiExplicitEulerIntegrator (fixed step), RungeKutta3Integrator and RungeKutta5Integrator
(error-controlled), with Drake's tableaus and error estimates.

Fixed-step integrators are constructed as ``(system, max_step_size, context=None)``,
error-controlled ones as ``(system, context=None)``, as pydrake's. They step states of
AutoDiffXd and Expressions too (Simulator_[AutoDiffXd]), with step sizes of the same scalar
type (the stages' scales are then T).
"""

import numpy as np

from mallard.systems.analysis._integrator_base import IntegratorBase


class _FixedStepIntegrator(IntegratorBase):
    """An integrator without error estimation: every step has the size asked for."""

    _supports_object_states = True

    def __init__(self, system, max_step_size, context=None):
        super().__init__(system, context)
        self.set_maximum_step_size(max_step_size)

    def supports_error_estimation(self):
        return False

    def get_error_estimate_order(self):
        return 0


class ExplicitEulerIntegrator(_FixedStepIntegrator):
    """First order: x(t+h) = x(t) + h·ẋ(t). One derivative evaluation per step."""

    _scheme = "explicit_euler"

    def _do_initialize(self):
        self._K = np.empty((1, self._n), self._dtype)
        self._scales = np.empty(1, self._dtype)

    def _do_step(self, h):
        context, x, K = self._context, self._xc, self._K
        self._eval_derivatives(K[0])
        context.SetTime(context._time + h)
        self._scales[0] = h
        self._kernels.combine(x, x, K, self._scales, 1, False)
        self._notify_state_changed()
        return True


class RungeKutta2Integrator(_FixedStepIntegrator):
    """Second order (explicit trapezoid, Heun): an Euler step to t+h, then the mean of the
    two slopes. Two derivative evaluations per step."""

    _scheme = "runge_kutta2"

    def _do_initialize(self):
        self._K = np.empty((2, self._n), self._dtype)  # [k⁽ᵃ⁾, k₀]
        self._scales = np.empty(2, self._dtype)

    def _do_step(self, h):
        context, x, K, scales = self._context, self._xc, self._K, self._scales
        self._eval_derivatives(K[1])
        context.SetTime(context._time + h)
        scales[0] = h
        self._kernels.combine(x, x, K[1:], scales, 1, False)  # x⁽ᵃ⁾ = x₀ + h·k₀
        self._notify_state_changed()
        self._eval_derivatives(K[0])
        scales[0], scales[1] = h / 2, -h / 2
        self._kernels.combine(
            x, x, K, scales, 2, self._grouped
        )  # x₁ = x⁽ᵃ⁾ + h/2·k⁽ᵃ⁾ − h/2·k₀ = x₀ + h/2·(k₀ + k⁽ᵃ⁾)
        self._notify_state_changed()
        return True


class SemiExplicitEulerIntegrator(_FixedStepIntegrator):
    """First order, symplectic for mechanical systems: v and z take an explicit Euler step,
    then q(t+h) = q(t) + h·N(q(t))·v(t+h). One derivative evaluation per step."""

    _scheme = "semi_explicit_euler"

    def _do_initialize(self):
        self._k = np.empty(self._n, self._dtype)
        vz = []
        self._q_parts = []
        for leaf in self._leaves:
            a, nq, nv = leaf.start, leaf.num_q, leaf.num_v
            vz.extend(range(a + nq, leaf.stop))
            if nq:
                self._q_parts.append((leaf, slice(a, a + nq), slice(a + nq, a + nq + nv)))
        self._vz = np.array(vz, dtype=np.int64)

    def _do_step(self, h):
        context, x, k = self._context, self._xc, self._k
        self._eval_derivatives(k)
        vz = self._vz
        x[vz] += h * k[vz]
        self._notify_state_changed()
        for leaf, q, v in self._q_parts:
            if leaf.n_map is None:
                qdot = x[v]
            else:
                qdot = leaf.n_map.MapVelocityToQDot(leaf.context, x[v])
            x[q] += h * qdot
        context.SetTime(context._time + h)
        self._notify_state_changed()
        return True


class _ErrorControlledRungeKutta(IntegratorBase):
    """An explicit Runge-Kutta method with an embedded error estimate, as a Butcher tableau
    ``_A`` (rows of the stages after the first), ``_C`` (stage times), ``_B`` (propagated
    solution) and ``_E`` (propagated minus embedded solution)."""

    _DEFAULT_ACCURACY = 1e-3
    _LOOSEST_ACCURACY = 1e-1
    _MAX_STEP_FRACTION = 0.1
    _supports_object_states = True

    def supports_error_estimation(self):
        return True

    def _do_initialize(self):
        self._initialize_accuracy(
            self._DEFAULT_ACCURACY, self._LOOSEST_ACCURACY, self._MAX_STEP_FRACTION
        )
        self._K = np.empty((len(self._C), self._n), self._dtype)
        self._scales = np.empty(len(self._C), self._dtype)


class RungeKutta3Integrator(_ErrorControlledRungeKutta):
    """Third order, three stages (t, t+h/2, t+h), with the explicit midpoint method (second
    order) as error estimate; Drake's default integrator. The stages accumulate their terms
    in Drake's order, so that results agree with Drake's to the last bit."""

    _scheme = "runge_kutta3"
    _C = np.array([0.0, 0.5, 1.0])

    def get_error_estimate_order(self):
        return 3

    def _do_step(self, h):
        context, K, x, x0, scales = self._context, self._K, self._xc, self._x0, self._scales
        notify = self._notify_state_changed
        t0 = context._time
        x0[:] = x
        self._eval_derivatives(K[0])
        context.SetTime(t0 + h / 2)
        scales[0] = h / 2
        self._kernels.combine(x, x0, K, scales, 1, False)  # x⁽ᵃ⁾ = x₀ + h/2·k₀
        notify()
        self._eval_derivatives(K[1])
        context.SetTime(t0 + h)
        scales[0], scales[1] = -h, 2 * h
        self._kernels.combine(x, x0, K, scales, 2, self._grouped)  # x⁽ᵇ⁾ = x₀ − h·k₀ + 2h·k⁽ᵃ⁾
        notify()
        self._eval_derivatives(K[2])
        h6 = h / 6.0
        scales[0], scales[1], scales[2] = h6, 4 * h6, h6
        self._kernels.combine(
            x, x0, K, scales, 3, self._grouped
        )  # x₁ = x₀ + h/6·(k₀ + 4·k⁽ᵃ⁾ + k⁽ᵇ⁾)
        notify()
        self._kernels.rk3_error(self._err, x0, K[1], x, h)  # ε = |x₀ + h·k⁽ᵃ⁾ − x₁|
        return True


class RungeKutta5Integrator(_ErrorControlledRungeKutta):
    """Fifth order Dormand-Prince, seven stages (the last at the new state, reused as the
    first of the next step when nothing changed in between), with a fourth-order embedded
    error estimate. As pydrake's: error estimate order 5 in the step-size rule, accuracy
    1e-5 by default and at most 1e-3."""

    _scheme = "runge_kutta5"
    _C = (0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0)  # (floats: the stage times are floats)
    _A = (
        np.array([1 / 5]),
        np.array([3 / 40, 9 / 40]),
        np.array([44 / 45, -56 / 15, 32 / 9]),
        np.array([19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729]),
        np.array([9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656]),
        np.array([35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84]),
    )
    # Propagated (the last stage's state) minus embedded solution weights.
    _E = np.array(
        [
            35 / 384 - 5179 / 57600,
            0.0,
            500 / 1113 - 7571 / 16695,
            125 / 192 - 393 / 640,
            -2187 / 6784 + 92097 / 339200,
            11 / 84 - 187 / 2100,
            -1 / 40,
        ]
    )

    _DEFAULT_ACCURACY = 1e-5
    _LOOSEST_ACCURACY = 1e-3

    def get_error_estimate_order(self):
        return 5

    def _do_step(self, h):
        context, K, x, x0, scales = self._context, self._K, self._xc, self._x0, self._scales
        notify = self._notify_state_changed
        t0 = context._time
        x0[:] = x
        self._eval_derivatives(K[0])
        for i, (c, a) in enumerate(zip(self._C[1:], self._A, strict=True), start=1):
            context.SetTime(t0 + c * h)
            np.multiply(a, h, out=scales[:i])
            self._kernels.combine(x, x0, K, scales, i, self._grouped)
            notify()
            self._eval_derivatives(K[i])
        # The state is now x₁: the last stage is at t₀ + h with the propagated weights.
        np.multiply(self._E, h, out=scales)
        self._kernels.combine_error(self._err, K, scales, len(self._E))
        return True
