"""Compiled helpers of the integrators: the linear combinations of Runge-Kutta stages and
the weighted error norm, fused into one call each (numpy would take one call per term, and
these vectors are short), and the rules of a step (its target, its candidate size, Drake's
step-size adjustment) as plain functions of scalars.

Sums are formed in the order Drake's VectorBase::PlusEqScaled forms them, so that results
agree with Drake's to the last bit: a leaf system's state (a BasicVector) adds the terms to x
one at a time; a Diagram's (a Supervector) adds their sum, accumulated from zero.

The sums and the norm are entry points of mallard._compiled, called as
``kernels(dtype).combine(...)``: compiled at their first call for float64 (importing mallard
does not import numba), interpreted on object arrays (the states of AutoDiffXd and Expression
systems). The step rules are plain functions IntegratorBase calls. All are kernels too
(``jitable``), so that the plant's compiled stepping (mallard.multibody._kernels.stepping)
takes its steps by the same rules and sums.

Called from Python, the rules take the integrator's scalars: floats, or the AutoDiffXd times
and step sizes of an AutoDiffXd system's integrator (Drake's IntegratorBase<T> keeps them as T,
so that gradients also differentiate the step-size choices). Their tests are on the double
values, and min/max keep the derivatives Drake's AutoDiff min/max keep."""

import math

from numba.extending import overload

from mallard._compiled import entry_point
from mallard.multibody._kernels._machinery import jitable

#: IntegratorBase.StepResult's values, for the compiled stepping.
REACHED_PUBLISH = 1
REACHED_UPDATE = 3
TIME_HAS_ADVANCED = 4
REACHED_BOUNDARY = 5

# The integrator's settings and statistics as the plant's compiled stepping takes them
# (mallard.multibody._kernels.stepping.drive_explicit_steps; made and read back by
# systems.analysis._compiled_advance): where each is in its ``control`` (float64) and ``counts``
# (int64) arrays. The IntegratorBase attributes of the same names, and the times
# IntegrateNoFurtherThanTime is given.
IDEAL_NEXT_STEP_SIZE = 0
REQ_INITIAL_STEP_SIZE = 1
MAX_STEP_SIZE = 2
ACCURACY_IN_USE = 3
REQ_MIN_STEP_SIZE = 4
ACTUAL_INITIAL_STEP_SIZE_TAKEN = 5
SMALLEST_ADAPTED_STEP_SIZE_TAKEN = 6
LARGEST_STEP_SIZE_TAKEN = 7
PREV_STEP_SIZE = 8
PUBLISH_TIME = 9
UPDATE_TIME = 10
BOUNDARY_TIME = 11
TIME = 12  # the Context's time (in and out)
CONTROL_SIZE = 13
SCHEME = 0  # one of the schemes below
FIXED_STEP_MODE = 1  # get_fixed_step_mode()
ERROR_ORDER = 2  # get_error_estimate_order()
THROWS = 3  # get_throw_on_minimum_step_size_violation()
GROUPED = 4  # whether the state is a Diagram's (its stages' sums grouped)
MAPPED = 5  # whether q's error weighs through N(q) (q̇ = N(q)·v with N ≠ I)
NUM_STEPS_TAKEN = 6
NUM_ODE_EVALS = 7
NUM_SHRINKAGES_FROM_ERROR_CONTROL = 8
ITERATIONS = 9  # out: the Simulator's iterations taken
LAST_RESULT = 10  # out: the StepResult value of the last one
STATUS = 11  # out: −1, or why the next iteration is left to Python (FAILED_*, or ≥ 0: the
COUNTS_SIZE = 12  # mobod whose articulated inertia is not positive definite)

#: The schemes the compiled stepping takes.
EXPLICIT_EULER = 0
RUNGE_KUTTA2 = 1
RUNGE_KUTTA3 = 2

#: Why the compiled stepping left an iteration to Python, besides a failed forward dynamics
#: (the mobod, ≥ 0): the error control would go below the minimum step size.
FAILED_MINIMUM_STEP = -3

# Step-size control constants (Drake's, from Simbody).
SAFETY = 0.9
MIN_SHRINK = 0.1
MAX_GROW = 5.0
HYSTERESIS_LOW = 0.9
HYSTERESIS_HIGH = 1.2
NEAR_ENOUGH_SMALLER = 0.95
NEAR_ENOUGH_LARGER = 1.001
STRETCH_FACTOR = 1.01


@entry_point
@jitable
def combine(x, x0, K, scales, m, grouped):
    """x = x0 + scales[0]·K[0] + ... + scales[m-1]·K[m-1]: added to x0 one term at a time,
    or (``grouped``) summed first."""
    for i in range(x.shape[0]):
        if grouped:
            value = 0.0
            for j in range(m):
                value = value + K[j, i] * scales[j]
            x[i] = x0[i] + value
        else:
            value = x0[i]
            for j in range(m):
                value = value + scales[j] * K[j, i]
            x[i] = value


@entry_point
def combine_error(err, K, scales, m):
    """err = |scales[0]·K[0] + ... + scales[m-1]·K[m-1]|."""
    for i in range(err.shape[0]):
        value = 0.0
        for j in range(m):
            value = value + scales[j] * K[j, i]
        err[i] = abs(value)


@entry_point
@jitable
def rk3_error(err, x0, k, x, h):
    """err = |x0 + h·k − x| (the explicit midpoint solution minus RK3's)."""
    for i in range(err.shape[0]):
        err[i] = abs(x0[i] + h * k[i] - x[i])


@entry_point
@jitable
def weighted_max_abs(values, weights):
    """max |valuesᵢ|·weightsᵢ, NaN if any value is NaN, 0 for empty vectors."""
    result = 0.0
    for i in range(values.shape[0]):
        v = abs(values[i]) * weights[i]
        if math.isnan(v):
            return math.nan
        if v > result:
            result = v
    return result


# ---- the rules of a step ---------------------------------------------------------------------
def takes_second_of_equal(a, b):
    """Of two scalars of equal value, whether Drake's AutoDiff min and max return the second:
    when only it has derivatives (compiled, for floats: never)."""
    return _num_derivatives(a) == 0 and _num_derivatives(b) > 0


@overload(takes_second_of_equal)
def _takes_second_of_equal_compiled(a, b):
    return lambda a, b: False


def _num_derivatives(x):
    derivatives = getattr(x, "derivatives", None)
    return 0 if derivatives is None else derivatives().size


@jitable
def py_min(a, b):
    """min(a, b) as Python's builtin and Drake's std::min take it: ``a`` unless ``b`` is
    strictly smaller (so a NaN ``b`` is dropped, a NaN ``a`` kept), or equal and alone in
    having derivatives (Drake's AutoDiff min)."""
    if b < a or (b == a and takes_second_of_equal(a, b)):
        return b
    return a


@jitable
def py_max(a, b):
    """max(a, b) as Python's builtin and Drake's std::max take it: ``a`` unless ``b`` is
    strictly larger, or equal and alone in having derivatives (Drake's AutoDiff max)."""
    if b > a or (b == a and takes_second_of_equal(a, b)):
        return b
    return a


@jitable
def integration_target(t0, publish_time, update_time, boundary_time, max_step_size):
    """(StepResult value, target time) of a step from t0 toward the earliest of the three
    times (the update on a tie, then the publish): that time, unless the maximum step (which
    may be stretched by 1% to reach an event, not the boundary) ends before it
    (kTimeHasAdvanced, target t0 + the maximum step)."""
    result = REACHED_UPDATE
    target = update_time
    if publish_time < update_time:
        result = REACHED_PUBLISH
        target = publish_time
    if boundary_time < target:
        result = REACHED_BOUNDARY
        target = boundary_time
    reached_boundary = result == REACHED_BOUNDARY
    max_integrator_time = t0 + max_step_size
    if (reached_boundary and max_integrator_time < target) or (
        not reached_boundary and t0 + max_step_size * STRETCH_FACTOR < target
    ):
        result = TIME_HAS_ADVANCED
        target = max_integrator_time
    return result, target


@jitable
def candidate_step(h_max, step, max_step_size):
    """(step, limited): the step an error-controlled integrator tries toward a step of at most
    ``h_max`` from its ideal ``step``: ``h_max`` if within 5% below or 0.1% above it
    (``limited`` if the ideal step was longer), at most the maximum step size."""
    limited = False
    if h_max < NEAR_ENOUGH_SMALLER * step:
        limited = True
        step = h_max
    elif h_max < NEAR_ENOUGH_LARGER * step:
        step = h_max
    return py_min(step, max_step_size), limited


@jitable
def working_minimum_step_size(t, requested_minimum):
    """max(1e-14, 1e-14·|t|, the requested minimum step size)."""
    return py_max(py_max(1e-14, abs(t) * 1e-14), requested_minimum)


@jitable
def adjusted_step_size(
    err, step_taken, at_minimum, accuracy, order, max_step_size, working_minimum, throws
):
    """Drake's CalcAdjustedStepSize for the error norm ``err`` of a step of ``step_taken``
    (error estimate of order ``order``): (accepted, next step size, at minimum, too small).
    ``too small``: the next step would be below ``working_minimum`` and ``throws`` (the
    caller raises; the other values are then meaningless)."""
    if not err - err == 0:  # (NaN or infinite: math.isnan and isinf take no AutoDiffXd)
        return False, MIN_SHRINK * step_taken, at_minimum, False
    if err == 0:
        new_step_size = MAX_GROW * step_taken
    else:
        new_step_size = SAFETY * step_taken * (accuracy / err) ** (1.0 / order)
    if new_step_size > step_taken:
        at_minimum = False
        if new_step_size < HYSTERESIS_HIGH * step_taken:
            new_step_size = step_taken
    if new_step_size < step_taken and at_minimum:
        return True, step_taken, at_minimum, False
    if new_step_size < step_taken:
        if err <= accuracy:
            new_step_size = step_taken
        else:
            new_step_size = py_min(new_step_size, HYSTERESIS_LOW * step_taken)
    new_step_size = py_min(new_step_size, MAX_GROW * step_taken)
    new_step_size = py_max(new_step_size, MIN_SHRINK * step_taken)
    if max_step_size == max_step_size:  # (not NaN)
        new_step_size = py_min(new_step_size, max_step_size)
    if new_step_size < working_minimum and new_step_size < step_taken and throws:
        return False, new_step_size, at_minimum, True
    new_step_size = py_max(new_step_size, working_minimum)
    if new_step_size == working_minimum:
        at_minimum = True
        if new_step_size < step_taken:
            return False, new_step_size, at_minimum, False
    return new_step_size >= step_taken, new_step_size, at_minimum, False
