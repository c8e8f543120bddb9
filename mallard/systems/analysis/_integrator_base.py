"""IntegratorBase: what every integrator shares (settings, statistics, error-controlled step
selection, and the step toward the next event that the Simulator asks for).

The step-size strategy is Drake's (IntegratorBase::StepOnceErrorControlledAtMost and
CalcAdjustedStepSize, whose constants come from Simbody): a step is accepted when the
weighted infinity norm of the error estimate does not exceed the accuracy; the next step is
0.9·h·(accuracy/error)^(1/order), grown by at most 5×, shrunk by at least 0.9× and at most
10× per attempt, left unchanged when the growth would be under 20% and kept at its value
(not grown) after a step artificially shortened to reach an event. A step may be stretched by
1% to reach an event instead of leaving a sliver.

Times, step sizes and the error norm are scalars of the system's type T, as Drake's
IntegratorBase<T> keeps them (a float, or an AutoDiffXd for an AutoDiffXd system, so that
the gradients of a simulation also differentiate the step-size choices of error control);
the accuracy and the weights are floats, and every decision compares double values.

Integrators work on the Context's continuous state array in place. The time derivatives of a
Diagram are evaluated leaf by leaf into preallocated arrays (a leaf with its own cached
EvalTimeDerivatives, as the MultibodyPlant, is asked for that), and an evaluation is reused
when nothing has changed since the previous one (no serial number drawn since then), so
repeated evaluations at one state are counted once, as Drake counts cache hits.
"""

import enum
import math

import numpy as np

from mallard._compiled import kernels
from mallard._scalar_value import scalar_value
from mallard.systems.framework._context import _next_serial, as_time
from mallard.systems.framework._system import System, system_scalar_type

#: The integrators' compiled helpers (systems.analysis._kernels), for double values.
_KERNELS = kernels(np.float64)


class _Rules:
    """The rules of a step in systems.analysis._kernels (plain functions of scalars, which
    the plant's compiled stepping compiles too), imported at their first use (the module
    imports numba)."""

    def __getattr__(self, name):
        from mallard.systems.analysis import _kernels

        rule = getattr(_kernels, name)
        setattr(self, name, rule)
        return rule


_RULES = _Rules()

_NAN = math.nan


def _isnan(x):
    """Whether scalar ``x`` (a float or a T) is NaN."""
    return x != x


def double_value(x):
    """The double value of scalar ``x`` (Drake's ExtractDoubleOrThrow)."""
    return x if type(x) is float else scalar_value(x)


def _max_abs(values):
    """max |valuesᵢ| as Eigen's lpNorm<Infinity> of T: the first largest, 0 when empty."""
    if not values.size:
        return 0.0
    largest = abs(values[0])
    for x in values[1:]:
        x = abs(x)
        if x > largest:
            largest = x
    return largest


#: How much a step that could not be taken shrinks.
_SUBDIVISION_FACTOR = 0.5

# Plant joints whose N(q) (q̇ = N(q)·v) is the identity.
_IDENTITY_N_JOINTS = frozenset(("revolute", "prismatic", "weld", "planar", "universal", "screw"))


class StepResult(enum.IntEnum):
    """Why IntegrateNoFurtherThanTime() stopped where it did."""

    kReachedPublishTime = 1
    kReachedZeroCrossing = 2
    kReachedUpdateTime = 3
    kTimeHasAdvanced = 4
    kReachedBoundaryTime = 5
    kReachedStepLimit = 6


_STEP_RESULTS = {result.value: result for result in StepResult}


class _Leaf:
    """A leaf system with continuous state, where its state lives in the integrated vector,
    and how its time derivatives are evaluated."""

    __slots__ = ("system", "context", "start", "stop", "num_q", "num_v", "holder", "n_map")

    def __init__(self, system, context, start):
        xc = context._state._continuous
        self.system, self.context = system, context
        self.start, self.stop = start, start + xc.size()
        self.num_q, self.num_v = xc._num_q, xc._num_v
        # A system that caches its own derivatives (EvalTimeDerivatives overridden, as the
        # MultibodyPlant's) is asked for them; others compute into a holder.
        overrides = type(system).EvalTimeDerivatives is not System.EvalTimeDerivatives
        self.holder = None if overrides else system.AllocateTimeDerivatives()
        # How q̇ and v relate: None for the identity (N = I), else the system (which has
        # MapQDotToVelocity / MapVelocityToQDot).
        self.n_map = None if _n_is_identity(system, self.num_q, self.num_v) else system


def _n_is_identity(system, num_q, num_v):
    if num_q == 0:
        return True
    if not hasattr(system, "MapQDotToVelocity"):
        if num_q != num_v:
            raise RuntimeError(
                f"System {system.GetSystemPathname()} has {num_q} generalized positions but "
                f"{num_v} velocities and no MapQDotToVelocity: the integrator cannot relate "
                "them"
            )
        return True
    try:
        joints = [system.get_joint(i) for i in system.GetJointIndices()]
        return num_q == num_v and all(j.type_name() in _IDENTITY_N_JOINTS for j in joints)
    except AttributeError:
        return False


class IntegratorBase:
    """The base of the integrators: ``IntegratorBase(system, context=None)``.

    The Context must be set (here or with reset_context) and the integrator initialized
    (Initialize()) before stepping; Initialize() again after changing weights or the Context.
    """

    StepResult = StepResult

    #: Name of the scheme in GetIntegrationSchemes(), set by each integrator.
    _scheme = None
    #: Whether this integrator steps states of AutoDiffXd and Expressions (object arrays).
    _supports_object_states = False

    def __init__(self, system, context=None):
        self._system = system
        self._context = context
        self._T = T = system_scalar_type(system)
        template_T = getattr(type(self), "_template_scalar", T)  # (of X_[T](system, ...))
        if template_T is not T:
            raise TypeError(
                f"{type(self).__name__}: the system's scalar type is {T.__name__}, not "
                f"{template_T.__name__}"
            )
        self._nan = _NAN if T is float else T(_NAN)  # (Drake's nan() of T)
        self._initialized = False
        self._target_accuracy = _NAN
        self._accuracy_in_use = _NAN
        self._fixed_step_mode = False
        self._max_step_size = self._nan
        self._req_min_step_size = self._as_T(0.0)
        self._req_initial_step_size = self._nan
        self._min_step_exceeded_throws = True
        self._ideal_next_step_size = self._nan
        self._prev_step_size = self._nan
        self._qbar_weight = np.zeros(0)
        self._z_weight = np.zeros(0)
        self._err_est = None
        self._n = 0
        self.ResetStatistics()

    # ---- capabilities (overridden) ---------------------------------------------------------
    def supports_error_estimation(self):
        """Whether the integrator estimates its error (and so can control its step size)."""
        raise NotImplementedError

    def get_error_estimate_order(self):
        """The order of the asymptotic term of the error estimate (0 without one)."""
        raise NotImplementedError

    def _do_step(self, h):
        """Advances time and continuous state by ``h``; sets the error estimate if any.
        Returns False (time and state restored) if the step could not be taken."""
        raise NotImplementedError

    def _do_initialize(self):
        """Integrator-specific initialization (defaults, workspace)."""

    def _as_T(self, x, name="step size"):
        """Real number or T ``x`` as a T (TypeError for another scalar type)."""
        return as_time(x, self._T, f"{type(self).__name__}: {name}")

    def _initialize_accuracy(self, default_accuracy, loosest_accuracy, max_step_fraction):
        """Drake's InitializeAccuracy: an initial step target (a fraction of the maximum
        step) unless one was requested, and the accuracy in use (the default if none was
        set, at most the loosest)."""
        if _isnan(self._req_initial_step_size):
            if _isnan(self._max_step_size):
                raise RuntimeError(
                    "Neither initial step size target nor maximum step size has been set!"
                )
            self._req_initial_step_size = self._max_step_size * max_step_fraction
        accuracy = self._target_accuracy
        if math.isnan(accuracy):
            accuracy = default_accuracy
        elif accuracy > loosest_accuracy:
            accuracy = loosest_accuracy
        self._accuracy_in_use = accuracy

    # ---- accuracy ------------------------------------------------------------------------
    def set_target_accuracy(self, accuracy):
        """Requests an accuracy (about 10^-digits); RuntimeError without error estimation."""
        if not self.supports_error_estimation():
            raise RuntimeError(
                "Integrator does not support accuracy estimation and user has requested error "
                "control"
            )
        self._target_accuracy = float(accuracy)
        self._accuracy_in_use = float(accuracy)

    def get_target_accuracy(self):
        return self._target_accuracy

    def get_accuracy_in_use(self):
        """The accuracy used (the target, or the integrator's default, clamped to its
        loosest), set by Initialize()."""
        return self._accuracy_in_use

    # ---- error control -------------------------------------------------------------------
    def get_error_estimate(self):
        """The error estimate of the last step as a ContinuousState (None without error
        estimation)."""
        return self._err_est

    def get_ideal_next_step_size(self):
        """The step size error control would take next (a T; NaN before the first step)."""
        return self._ideal_next_step_size

    def set_fixed_step_mode(self, flag):
        """Steps of the size asked for (no error control); RuntimeError if turning it off for
        an integrator without error estimation."""
        if not flag and not self.supports_error_estimation():
            raise RuntimeError("Integrator does not support accuracy estimation")
        self._fixed_step_mode = bool(flag)

    def get_fixed_step_mode(self):
        return not self.supports_error_estimation() or self._fixed_step_mode

    def get_generalized_state_weight_vector(self):
        """The weights of the generalized (quasi-)coordinates' and velocities' errors."""
        return self._qbar_weight

    def get_mutable_generalized_state_weight_vector(self):
        """The weights, to modify in place; Initialize() must be called afterwards."""
        self._initialized = False
        return self._qbar_weight

    def get_misc_state_weight_vector(self):
        return self._z_weight

    def get_mutable_misc_state_weight_vector(self):
        self._initialized = False
        return self._z_weight

    # ---- step sizes ----------------------------------------------------------------------
    def request_initial_step_size_target(self, step_size):
        """The size of the first step to try (error-controlled integrators only)."""
        if not self.supports_error_estimation():
            raise RuntimeError(
                "Integrator does not support error estimation and user has initial step size target"
            )
        self._req_initial_step_size = self._as_T(step_size, "step_size")

    def get_initial_step_size_target(self):
        return self._req_initial_step_size

    def set_maximum_step_size(self, max_step_size):
        """The largest step (which may be stretched by 1% to reach an event)."""
        self._max_step_size = self._as_T(max_step_size, "max_step_size")

    def get_maximum_step_size(self):
        return self._max_step_size

    def get_stretch_factor(self):
        return 1.01  # (systems.analysis._kernels.STRETCH_FACTOR)

    def set_requested_minimum_step_size(self, min_step_size):
        self._req_min_step_size = self._as_T(min_step_size, "min_step_size")

    def get_requested_minimum_step_size(self):
        return self._req_min_step_size

    def set_throw_on_minimum_step_size_violation(self, throws):
        self._min_step_exceeded_throws = bool(throws)

    def get_throw_on_minimum_step_size_violation(self):
        return self._min_step_exceeded_throws

    def get_working_minimum_step_size(self):
        """max(1e-14, 1e-14·|t|, requested minimum), a T."""
        return _RULES.working_minimum_step_size(self._context._time, self._req_min_step_size)

    # ---- context and system --------------------------------------------------------------
    def get_context(self):
        return self._context

    def get_mutable_context(self):
        return self._context

    def reset_context(self, context):
        """Integrates ``context`` from now on (Initialize() before stepping)."""
        self._context = context
        self._initialized = False

    def get_system(self):
        return self._system

    def is_initialized(self):
        return self._initialized

    def get_previous_integration_step_size(self):
        return self._prev_step_size

    # ---- initialization ------------------------------------------------------------------
    def Reset(self):
        """Back to the settings of a new integrator (Initialize() again before stepping)."""
        self._err_est = None
        self._qbar_weight = np.zeros(0)
        self._z_weight = np.zeros(0)
        self._fixed_step_mode = False
        self.ResetStatistics()
        self._req_min_step_size = self._as_T(0.0)
        self._max_step_size = self._nan
        self._accuracy_in_use = _NAN
        self._prev_step_size = self._nan
        self._ideal_next_step_size = self._nan
        self._initialized = False

    def Initialize(self):
        """Checks the settings, sizes the workspace for the Context and resets the
        statistics."""
        if self._context is None:
            raise RuntimeError("Context has not been set.")
        if self._max_step_size < self._req_min_step_size:
            raise RuntimeError("Integrator maximum step size is less than the minimum step size")
        if self._req_initial_step_size > self._max_step_size:
            raise RuntimeError(
                "Requested integrator initial step size is larger than the maximum step size."
            )
        if self._req_initial_step_size < self._req_min_step_size:
            raise RuntimeError(
                "Requested integrator initial step size is smaller than the minimum step size."
            )
        self._system.ValidateContext(self._context)
        self._build_workspace()
        if self.supports_error_estimation():
            self._err_est = self._system.AllocateTimeDerivatives()
            self._err = self._err_est._vector._data
            if self._qbar_weight.size != self._nv:
                self._qbar_weight = np.ones(self._nv)
            if self._z_weight.size != self._nz:
                self._z_weight = np.ones(self._nz)
            if (self._qbar_weight.size and self._qbar_weight.min() < 0) or (
                self._z_weight.size and self._z_weight.min() < 0
            ):
                raise RuntimeError("Scaling coefficient is less than zero.")
            self._build_weights()
        self.ResetStatistics()
        self._do_initialize()
        self._initialized = True

    def _build_workspace(self):
        context = self._context
        vector = context._state._continuous._vector
        self._xc_vector = vector
        self._xc = vector._data
        # A Diagram's state sums several terms before adding them (see _kernels).
        self._grouped = hasattr(context, "_subcontexts")
        self._dtype = self._xc.dtype  # float64, or object (AutoDiffXd, Expression)
        self._kernels = kernels(self._dtype)  # (compiled for float64, else interpreted)
        if self._dtype.kind == "O" and not self._supports_object_states:
            raise NotImplementedError(
                f"{type(self).__name__}: mallard integrates AutoDiffXd and Expression states "
                "with the explicit integrators only"
            )
        n = self._n = self._xc.shape[0]
        self._leaves = []
        self._nv = self._nz = 0
        start = 0
        for system, leaf_context in self._system._leaf_contexts(context):
            xc = leaf_context._state._continuous
            if xc.size():
                self._leaves.append(_Leaf(system, leaf_context, start))
                start += xc.size()
            self._nv += xc._num_v
            self._nz += xc._num_z
        self._single = (
            len(self._leaves) == 1 and self._leaves[0].start == 0 and self._leaves[0].stop == n
        )
        self._x0 = np.empty(n, self._dtype)
        self._x0_save = np.empty(n, self._dtype)
        self._tmp = np.empty(n, self._dtype)
        self._cached_derivatives = None  # the array the last evaluation was written to
        self._derivatives_serial = -2  # no evaluation to reuse yet

    def _build_weights(self):
        """The weight of each state variable's error (q through the identity N), and the
        leaves whose q weights need N (their q entries weigh 0 here); the entries of q, v
        and z in the state (the norms of T errors take them apart, as Drake's)."""
        weights = np.empty(self._n)
        self._mapped = []
        q, v, z = [], [], []
        v_count = z_count = 0
        for leaf in self._leaves:
            nq, nv = leaf.num_q, leaf.num_v
            a, b = leaf.start, leaf.stop
            qbar = self._qbar_weight[v_count : v_count + nv]
            if leaf.n_map is None:
                weights[a : a + nq] = qbar[:nq]
                q.append(np.arange(a, a + nq))
            else:
                weights[a : a + nq] = 0.0
                self._mapped.append((leaf, slice(a, a + nq), qbar))
                q.append((leaf, slice(a, a + nq), qbar))
            weights[a + nq : a + nq + nv] = qbar
            v.append(np.arange(a + nq, a + nq + nv))
            nz = b - a - nq - nv
            weights[a + nq + nv : b] = self._z_weight[z_count : z_count + nz]
            z.append(np.arange(a + nq + nv, b))
            v_count += nv
            z_count += nz
        self._weights = weights
        self._q_parts = q
        self._v_entries = np.concatenate(v) if v else np.zeros(0, np.int64)
        self._z_entries = np.concatenate(z) if z else np.zeros(0, np.int64)

    # ---- derivatives ---------------------------------------------------------------------
    def _notify_state_changed(self):
        self._xc_vector._changed()

    def _eval_derivatives(self, out):
        """Writes the time derivatives at the Context's time and state into ``out``."""
        # The arrays written here are only ever written here, so the last one still holds the
        # last evaluation.
        serial = _next_serial()
        if serial == self._derivatives_serial + 1:
            if out is not self._cached_derivatives:
                out[:] = self._cached_derivatives
            self._cached_derivatives = out
            self._derivatives_serial = serial
            return
        for leaf in self._leaves:
            if leaf.holder is None:
                values = leaf.system.EvalTimeDerivatives(leaf.context)._vector._data
            else:
                leaf.system.CalcTimeDerivatives(leaf.context, leaf.holder)
                values = leaf.holder._vector._data
            if self._single:
                out[:] = values
            else:
                out[leaf.start : leaf.stop] = values
        self._cached_derivatives = out
        self._num_ode_evals += 1
        self._derivatives_serial = _next_serial()

    def CalcStateChangeNorm(self, dx_state):
        """The weighted infinity norm of a change of continuous state (a ContinuousState or
        an array)."""
        data = dx_state.get_vector()._data if hasattr(dx_state, "get_vector") else dx_state
        return self._error_norm(np.asarray(data))

    def _error_norm(self, err):
        """The weighted infinity norm of ``err``: a float, or a T for T errors."""
        if self._n == 0:
            return 0.0
        if err.dtype != np.float64:
            return self._scalar_error_norm(err)
        norm = _KERNELS.weighted_max_abs(err, self._weights)
        for leaf, q_slice, qbar in self._mapped:
            v = leaf.n_map.MapQDotToVelocity(leaf.context, err[q_slice])
            weighted = leaf.n_map.MapVelocityToQDot(leaf.context, qbar * v)
            norm = max(norm, np.max(np.abs(weighted))) if weighted.size else norm
        if math.isnan(norm):
            return _NAN
        return float(norm)

    def _scalar_error_norm(self, err):
        """The weighted infinity norm of T errors as Drake's CalcStateChangeNorm forms it: the
        largest of the norms of z, of q (weighted through N: N·W·N⁺·dq) and of v."""
        w = self._weights
        v, z = self._v_entries, self._z_entries
        v_norm = _max_abs(w[v] * err[v])
        z_norm = _max_abs(w[z] * err[z])
        q_changes = []
        for part in self._q_parts:
            if isinstance(part, np.ndarray):
                q_changes.append(w[part] * err[part])
            else:
                leaf, q, qbar = part
                dv = leaf.n_map.MapQDotToVelocity(leaf.context, err[q])
                q_changes.append(np.asarray(leaf.n_map.MapVelocityToQDot(leaf.context, qbar * dv)))
        q_norm = _max_abs(np.concatenate(q_changes)) if q_changes else 0.0
        if _isnan(q_norm) or _isnan(v_norm) or _isnan(z_norm):
            return self._nan
        return _RULES.py_max(z_norm, _RULES.py_max(q_norm, v_norm))

    # ---- stepping ------------------------------------------------------------------------
    def _step(self, h):
        return self._do_step(h)

    def _validate_smaller_step_size(self, current_step_size, new_step_size):
        if (
            new_step_size < self.get_working_minimum_step_size()
            and new_step_size < current_step_size
            and self._min_step_exceeded_throws
        ):
            self._throw_step_too_small()

    def _throw_step_too_small(self):
        raise RuntimeError(
            "Error control wants to select step smaller than minimum allowed "
            f"({double_value(self.get_working_minimum_step_size()):g})"
        )

    def _calc_adjusted_step_size(self, err, step_taken, at_minimum):
        """(step accepted, next step size, at minimum step) from the error norm of a step of
        ``step_taken`` (Drake's CalcAdjustedStepSize: systems.analysis._kernels)."""
        accepted, new_step_size, at_minimum, too_small = _RULES.adjusted_step_size(
            err,
            step_taken,
            at_minimum,
            self._accuracy_in_use,
            self.get_error_estimate_order(),
            self._max_step_size,
            self.get_working_minimum_step_size(),
            self._min_step_exceeded_throws,
        )
        if too_small:
            self._throw_step_too_small()
        return accepted, new_step_size, at_minimum

    def _step_once_error_controlled_at_most(self, h_max):
        """One error-controlled step of at most ``h_max``; True if it was ``h_max``."""
        context = self._context
        current_time = context._time
        x0_save = self._x0_save
        x0_save[:] = self._xc
        step = self._ideal_next_step_size
        if step != step:  # (NaN: _isnan, inlined in this loop)
            step = self._req_initial_step_size
        at_minimum = False
        while True:
            step, limited = _RULES.candidate_step(h_max, step, self._max_step_size)
            adjusted = step
            while not self._step(adjusted):
                adjusted *= _SUBDIVISION_FACTOR
                if adjusted < np.finfo(float).eps:
                    raise RuntimeError(
                        "Integrator has been directed to a near zero-length step in order to "
                        "obtain convergence."
                    )
                self._validate_smaller_step_size(step, adjusted)
                self._num_shrinkages_from_substep_failures += 1
                self._num_substep_failures += 1
            step = adjusted
            err = self._error_norm(self._err)
            succeeded, next_step, at_minimum = self._calc_adjusted_step_size(err, step, at_minimum)
            if succeeded:
                if not limited:
                    self._ideal_next_step_size = next_step
                if self._actual_initial_step_size_taken != self._actual_initial_step_size_taken:
                    self._actual_initial_step_size_taken = step
                smallest = self._smallest_adapted_step_size_taken
                if smallest != smallest or (step < smallest and step < h_max):
                    self._smallest_adapted_step_size_taken = step
                return step == h_max
            self._num_shrinkages_from_error_control += 1
            step = next_step
            context.SetTime(current_time)
            self._xc[:] = x0_save
            self._notify_state_changed()

    def IntegrateNoFurtherThanTime(self, publish_time, update_time, boundary_time):
        """One step toward the earliest of the three times (stopping there if reached, or
        earlier for the maximum step size or error control); returns a StepResult."""
        if not self._initialized:
            raise RuntimeError("Integrator not initialized.")
        context = self._context
        t0 = context._time
        if publish_time - t0 < 0:
            raise RuntimeError("Publish h is negative.")
        if update_time - t0 < 0:
            raise RuntimeError("Update h is negative.")
        if boundary_time - t0 < 0:
            raise RuntimeError("Boundary h is negative.")
        if self._n == 0:
            result, target_time = _RULES.integration_target(
                t0, publish_time, update_time, boundary_time, math.inf
            )
            context.SetTime(target_time)
            return _STEP_RESULTS[result]
        result, target_time = _RULES.integration_target(
            t0, publish_time, update_time, boundary_time, self._max_step_size
        )
        h = target_time - t0
        if h < 0:
            raise RuntimeError("Negative h.")
        full_step = True
        if self.get_fixed_step_mode():
            adjusted = h
            while not self._step(adjusted):
                self._num_shrinkages_from_substep_failures += 1
                self._num_substep_failures += 1
                adjusted *= _SUBDIVISION_FACTOR
                self._validate_smaller_step_size(h, adjusted)
                full_step = False
        else:
            full_step = self._step_once_error_controlled_at_most(h)
        self._update_step_statistics(context._time - t0)
        if full_step or context._time >= target_time:
            context.SetTime(target_time)
            return _STEP_RESULTS[result]
        return StepResult.kTimeHasAdvanced

    def IntegrateWithMultipleStepsToTime(self, t_final):
        """Steps (as many as needed) until the time is ``t_final``."""
        inf = math.inf
        while True:
            self.IntegrateNoFurtherThanTime(
                inf, inf, _RULES.py_min(t_final, self._context.get_time() + self._max_step_size)
            )
            if self._context.get_time() >= t_final:
                return

    def IntegrateWithSingleFixedStepToTime(self, t_target):
        """One step of exactly t_target − t (fixed-step mode only); False if the step
        failed."""
        h = t_target - self._context.get_time()
        if h < 0:
            raise RuntimeError(
                "IntegrateWithSingleFixedStepToTime() called with a negative step size."
            )
        if not self.get_fixed_step_mode():
            raise RuntimeError("IntegrateWithSingleFixedStepToTime() requires fixed stepping.")
        if not self._step(h):
            return False
        self._update_step_statistics(h)
        self._context.SetTime(t_target)
        return True

    # ---- statistics ----------------------------------------------------------------------
    def _update_step_statistics(self, h):
        self._num_steps_taken += 1
        if self._num_steps_taken == 1:
            self._actual_initial_step_size_taken = h
            self._largest_step_size_taken = h
        elif h > self._largest_step_size_taken:
            self._largest_step_size_taken = h
        self._prev_step_size = h

    def ResetStatistics(self):
        """Forgets the statistics."""
        self._actual_initial_step_size_taken = self._nan
        self._smallest_adapted_step_size_taken = self._nan
        self._largest_step_size_taken = self._nan
        self._num_steps_taken = 0
        self._num_ode_evals = 0
        self._num_shrinkages_from_error_control = 0
        self._num_shrinkages_from_substep_failures = 0
        self._num_substep_failures = 0
        self._do_reset_statistics()

    def _do_reset_statistics(self):
        """Integrator-specific statistics reset."""

    def get_num_substep_failures(self):
        return self._num_substep_failures

    def get_num_step_shrinkages_from_substep_failures(self):
        return self._num_shrinkages_from_substep_failures

    def get_num_step_shrinkages_from_error_control(self):
        return self._num_shrinkages_from_error_control

    def get_num_derivative_evaluations(self):
        """Time-derivative evaluations (reused evaluations at an unchanged state are not
        counted)."""
        return self._num_ode_evals

    def get_actual_initial_step_size_taken(self):
        return self._actual_initial_step_size_taken

    def get_smallest_adapted_step_size_taken(self):
        return self._smallest_adapted_step_size_taken

    def get_largest_step_size_taken(self):
        return self._largest_step_size_taken

    def get_num_steps_taken(self):
        return self._num_steps_taken

    def add_derivative_evaluations(self, evals):
        self._num_ode_evals += int(evals)

    def GetStatisticsSummary(self):
        """[(name, value)] of the statistics, as pydrake's (step sizes as floats)."""
        summary = [("integrator_num_steps_taken", self.get_num_steps_taken())]
        if not self.get_fixed_step_mode():
            summary += [
                (
                    "integrator_actual_initial_step_size_taken",
                    double_value(self.get_actual_initial_step_size_taken()),
                ),
                (
                    "integrator_largest_step_size_taken",
                    double_value(self.get_largest_step_size_taken()),
                ),
                (
                    "integrator_smallest_adapted_step_size_taken",
                    double_value(self.get_smallest_adapted_step_size_taken()),
                ),
                (
                    "integrator_num_step_shrinkages_from_error_control",
                    self.get_num_step_shrinkages_from_error_control(),
                ),
            ]
        summary.append(
            ("integrator_num_derivative_evaluations", self.get_num_derivative_evaluations())
        )
        return summary

    def __repr__(self):
        return f"<{type(self).__name__} of {self._system.GetSystemPathname()}>"
