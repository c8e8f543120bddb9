"""The plant's compiled stepping: many steps of a plant's state in one call, for the
Simulator's compiled advance (mallard.systems.analysis._compiled_advance).

:func:`drive_discrete_steps` takes a discrete plant's periodic updates (the free motion, then
Drake's SAP solver with the point contacts and joint constraints, kernels.discrete_step:
plant._discrete, plant._sap_driver, plant._contact) and
:func:`drive_explicit_steps` a continuous plant's explicit integration (explicit Euler, RK2,
RK3 with or without error control, systems.analysis), each exactly as the Python path takes
them, operation for operation, so that the states, times and statistics are the same to the
last bit: the integrators' sums and step rules are the same kernels (systems.analysis._kernels),
the SAP solver is kernels.sap. The discrete step's velocities (its SAP problem and solve) are
compiled once and called by address (kernels.step_velocities) from drive_discrete_steps and
kernels.rollouts' batch_rollout, not linked into either.

Both advance whole iterations of the Simulator's loop (an iteration: the pending update, then
time to the next event or the boundary) and stop after the first that ends at another
system's event or at the boundary. An iteration that fails (forward dynamics or the
SAP solver breaks down, the step size would go below the minimum) is undone, so that the
Simulator takes it again in Python, which raises as it does.

The inputs (actuation, applied generalized forces, PD controllers' desired states) are
constant during a call: the caller checks that nothing the inputs come from changes between
events.
"""

import math

from mallard._compiled import entry_point
from mallard.multibody._kernels._machinery import jitable, joint_specialized
from mallard.multibody._kernels.coordinates import calc_qdot, calc_v
from mallard.multibody._kernels.discrete_step import FAILED_SAP
from mallard.multibody._kernels.engine import forward_dynamics, forward_dynamics_by_address
from mallard.multibody._kernels.mobilizers import (
    HAS_BALL_RPY,
    HAS_PRISMATIC,
    HAS_QUATERNION_FLOATING,
    HAS_RPY_FLOATING,
)
from mallard.multibody._kernels.step_velocities import hold_step, step_velocities
from mallard.multibody._kernels.views import (
    model,
    parameters,
    workspace,
)
from mallard.multibody._layout import (
    BIAS,
    INERTIAS,
    POSITIONS,
    SAP_SUCCESS,
    VELOCITIES,
)
from mallard.systems.analysis._kernels import (
    ACCURACY_IN_USE,
    ACTUAL_INITIAL_STEP_SIZE_TAKEN,
    BOUNDARY_TIME,
    ERROR_ORDER,
    EXPLICIT_EULER,
    FAILED_MINIMUM_STEP,
    FIXED_STEP_MODE,
    GROUPED,
    IDEAL_NEXT_STEP_SIZE,
    ITERATIONS,
    LARGEST_STEP_SIZE_TAKEN,
    LAST_RESULT,
    MAPPED,
    MAX_STEP_SIZE,
    NUM_ODE_EVALS,
    NUM_SHRINKAGES_FROM_ERROR_CONTROL,
    NUM_STEPS_TAKEN,
    PREV_STEP_SIZE,
    PUBLISH_TIME,
    REACHED_PUBLISH,
    REACHED_UPDATE,
    REQ_INITIAL_STEP_SIZE,
    REQ_MIN_STEP_SIZE,
    RUNGE_KUTTA2,
    SCHEME,
    SMALLEST_ADAPTED_STEP_SIZE_TAKEN,
    STATUS,
    THROWS,
    TIME,
    TIME_HAS_ADVANCED,
    UPDATE_TIME,
    adjusted_step_size,
    candidate_step,
    combine,
    integration_target,
    py_max,
    rk3_error,
    weighted_max_abs,
    working_minimum_step_size,
)
from mallard.systems.framework._sample_times import next_sample_time

ALL_STAGES = POSITIONS | VELOCITIES | INERTIAS | BIAS

jitable(next_sample_time)


# ---- discrete plants -----------------------------------------------------------------------
@entry_point
def drive_discrete_steps(
    mi, mf, ws, x, u, tau_in, F_in, step_diagonal, si, sw, solver, pairs, at, block, forward,
    scratch, t, pending, others, boundary, h, offset,
):  # fmt: skip
    """Iterations of the Simulator's loop from time t for a discrete SAP plant whose only
    events are its periodic update (period h, ``offset``; ``pending`` at t) and whose state
    ``x`` = [q; v] is the only state that changes: each takes the update if it is pending,
    then goes to the next update time, stopping after the first iteration that reaches
    another event (the time ``others``) or the ``boundary``. The update (plant._discrete): the
    free motion v* = v + h·v̇ with v̇ of forward dynamics with h·D (``step_diagonal``) added
    to M's diagonal (by the kernel at the address ``forward``,
    Kernels.address("forward_dynamics_at"): kernels.engine.forward_dynamics_by_address); v⁺
    of the SAP problem (si, sw) of the point contacts (``geometry``, ``found``:
    kernels.discrete_step) and the joint constraints (``joints``, see
    kernels.sap.sap_add_joint_constraints) if any applies (by SAP's compiled solver at the
    address ``solver``, Kernels.address("sap_solve_at"): kernels.sap.solve; the point pairs
    by the pair kernel and the penetration at the addresses ``pairs``,
    (Kernels.address("point_pairs_at"), Kernels.address("penetration_at")), (0, 0) for a
    plant without collision geometry: kernels.discrete_step.find_point_pairs), else v*
    (:func:`step_velocities`: compiled, by the kernel at the address ``at``,
    Kernels.address("sap_velocities_at"), of the arrays held in ``block``, STEP_BLOCK
    int64s, which :func:`hold_tables` wrote the tables (joints, geometry, found) into before
    the call; interpreted, ``block`` is that tuple); then q⁺ = q + h·N(q)·v⁺. ``scratch``
    (5·nv + 2·nq floats) ends with the state before the last update and its (v⁺ − v)/h;
    ``found`` keeps the last update's contacts and impulses. Returns (the time, whether the
    update is pending, the iterations and the updates taken, −1 or why the next iteration
    was left to Python, the time the last iteration started at)."""
    m, params, work = model(mi, mf), parameters(mi, ws), workspace(mi, ws)
    nq, nv = m.nq, m.nv
    v_star = scratch[0:nv]
    v_next = scratch[nv : 2 * nv]
    saved = scratch[2 * nv : 3 * nv]
    qdot = scratch[3 * nv : 3 * nv + nq]
    x_prev = scratch[3 * nv + nq : 3 * nv + 2 * nq + nv]
    vdot_last = scratch[3 * nv + 2 * nq + nv : 4 * nv + 2 * nq + nv]
    reflected = params.reflected
    hold_step(block, mi, mf, ws, x, v_star, step_diagonal, si, sw, v_next)
    iterations = updates = 0
    status = -1
    t_last_start = t
    while True:
        if pending:
            # Forward dynamics with h·D added where the reflected inertias are.
            for i in range(nv):
                saved[i] = reflected[i]
                reflected[i] += step_diagonal[i]
            status = forward_dynamics_by_address(
                mi, mf, x, ws, ALL_STAGES, u, tau_in, F_in, forward
            )
            for i in range(nv):
                reflected[i] = saved[i]
            if status >= 0:
                break
            vdot = work.vdot
            for i in range(nv):
                v_star[i] = x[nq + i] + h * vdot[i]
            status = step_velocities(
                mi, mf, ws, x, v_star, step_diagonal, si, sw, v_next, solver, pairs, at, block, 1
            )
            if status != SAP_SUCCESS:
                if status > 0:
                    status = FAILED_SAP
                break
            status = -1
            calc_qdot(m, x[0:nq], v_next, qdot)
            for i in range(nq + nv):
                x_prev[i] = x[i]
            for i in range(nv):
                vdot_last[i] = (v_next[i] - x[nq + i]) / h
            for i in range(nq):
                x[i] = x[i] + h * qdot[i]
            for i in range(nv):
                x[nq + i] = v_next[i]
            updates += 1
        # Time goes to the next event (no continuous state: in one step).
        t_update = next_sample_time(h, offset, t)
        next_time = t_update if t_update < others else others
        t_last_start = t
        iterations += 1
        if boundary < next_time:
            t = boundary
            pending = False
        else:
            t = next_time
            pending = t_update == next_time
        if next_time == others or t >= boundary:
            break
    return t, pending, iterations, updates, status, t_last_start


# ---- continuous plants ---------------------------------------------------------------------
@joint_specialized
def _time_derivatives(mi, mf, ws, x, u, tau_in, F_in, forward, xdot):
    """xdot = [q̇; v̇] of the continuous plant at x (EvalTimeDerivatives); returns the forward
    dynamics' status. Compiled for every joint type (HAS_PRISMATIC), forward dynamics is the
    kernel's at the address ``forward`` (kernels.engine.forward_dynamics_by_address); for the
    first set of joint types (welds and revolute joints: the first ``mallard simulate``'s),
    linked (``forward`` unread), so that it is compiled for that set's joints only."""
    m = model(mi, mf)
    work = workspace(mi, ws)
    if HAS_PRISMATIC:
        status = forward_dynamics_by_address(mi, mf, x, ws, ALL_STAGES, u, tau_in, F_in, forward)
    else:
        status = forward_dynamics(m, x, parameters(mi, ws), work, ALL_STAGES, u, tau_in, F_in)
    nq = m.nq
    for i in range(nq):
        xdot[i] = work.qdot[i]
    for i in range(m.nv):
        xdot[nq + i] = work.vdot[i]
    return status


@jitable
def _explicit_step(mi, mf, ws, x, u, tau_in, F_in, forward, K, x0, scales, err, scheme, grouped,
                   h):  # fmt: skip
    """One step of ``h`` of the scheme from x (in place), as the integrator's _do_step takes
    it; returns (the forward dynamics' status, derivative evaluations)."""
    if scheme == EXPLICIT_EULER:
        status = _time_derivatives(mi, mf, ws, x, u, tau_in, F_in, forward, K[0])
        if status >= 0:
            return status, 1
        scales[0] = h
        combine(x, x, K, scales, 1, False)
        return status, 1
    if scheme == RUNGE_KUTTA2:
        status = _time_derivatives(mi, mf, ws, x, u, tau_in, F_in, forward, K[1])
        if status >= 0:
            return status, 1
        scales[0] = h
        combine(x, x, K[1:], scales, 1, False)
        status = _time_derivatives(mi, mf, ws, x, u, tau_in, F_in, forward, K[0])
        if status >= 0:
            return status, 2
        scales[0], scales[1] = h / 2, -h / 2
        combine(x, x, K, scales, 2, grouped)
        return status, 2
    for i in range(x.shape[0]):
        x0[i] = x[i]
    status = _time_derivatives(mi, mf, ws, x, u, tau_in, F_in, forward, K[0])
    if status >= 0:
        return status, 1
    scales[0] = h / 2
    combine(x, x0, K, scales, 1, False)
    status = _time_derivatives(mi, mf, ws, x, u, tau_in, F_in, forward, K[1])
    if status >= 0:
        return status, 2
    scales[0], scales[1] = -h, 2 * h
    combine(x, x0, K, scales, 2, grouped)
    status = _time_derivatives(mi, mf, ws, x, u, tau_in, F_in, forward, K[2])
    if status >= 0:
        return status, 3
    h6 = h / 6.0
    scales[0], scales[1], scales[2] = h6, 4 * h6, h6
    combine(x, x0, K, scales, 3, grouped)
    rk3_error(err, x0, K[1], x, h)
    return status, 3


@joint_specialized
def _error_norm(mi, mf, x, err, weights, mapped, qbar, scratch):
    """The integrator's weighted infinity norm of ``err`` (IntegratorBase._error_norm): with
    ``mapped``, q's error also weighs as N(q)·(qbar ∘ N⁺(q)·err_q) at the state x."""
    norm = weighted_max_abs(err, weights)
    if not (HAS_BALL_RPY or HAS_RPY_FLOATING or HAS_QUATERNION_FLOATING):
        return norm  # (compiled for joint types whose N(q) = I: never mapped; see mobilizers)
    if mapped:
        m = model(mi, mf)
        nq, nv = m.nq, m.nv
        v = scratch[0:nv]
        weighted = scratch[nv : 2 * nv]
        qdot = scratch[2 * nv : 2 * nv + nq]
        calc_v(m, x[0:nq], err[0:nq], v)
        for i in range(nv):
            weighted[i] = qbar[i] * v[i]
        calc_qdot(m, x[0:nq], weighted, qdot)
        if nq:
            largest = abs(qdot[0])
            for i in range(1, nq):
                value = abs(qdot[i])
                if math.isnan(value) or math.isnan(largest):
                    largest = math.nan
                elif value > largest:
                    largest = value
            norm = py_max(norm, largest)
    return norm


@entry_point
def drive_explicit_steps(
    mi, mf, ws, x, u, tau_in, F_in, forward, K, x0, x0_save, err, scales, weights, qbar,
    scratch, control, counts,
):  # fmt: skip
    """Iterations of the Simulator's loop for a continuous plant whose state ``x`` = [q; v]
    is the only continuous state, integrated by an explicit scheme (counts[SCHEME]): each is
    one IntegrateNoFurtherThanTime toward the times in ``control``, as IntegratorBase takes
    it (error-controlled unless in fixed-step mode), stopping after the first that reaches
    an event or the boundary. The integrator's arrays (K, x0, x0_save, err, scales; the
    error weights and, for N(q) ≠ I, ``qbar``) are its own; ``scratch``: 2·nv + 2·nq + nv
    floats; ``control`` and ``counts``: its settings and statistics (see the indices
    above), updated as the iterations complete. ``forward``: the address of
    forward_dynamics_at for the code for every joint type, 0 for a smaller set's (see
    :func:`_time_derivatives`)."""
    n = x.shape[0]
    scheme, fixed, grouped = counts[SCHEME], counts[FIXED_STEP_MODE] != 0, counts[GROUPED] != 0
    order, throws, mapped = counts[ERROR_ORDER], counts[THROWS] != 0, counts[MAPPED] != 0
    publish_time, update_time = control[PUBLISH_TIME], control[UPDATE_TIME]
    boundary_time, max_step = control[BOUNDARY_TIME], control[MAX_STEP_SIZE]
    accuracy, req_min = control[ACCURACY_IN_USE], control[REQ_MIN_STEP_SIZE]
    m = model(mi, mf)
    x_call = scratch[2 * m.nv + m.nq : 2 * m.nv + m.nq + n]
    iterations = 0
    status = -1
    result = TIME_HAS_ADVANCED
    while True:
        # One IntegrateNoFurtherThanTime, on local copies committed when it completes.
        t0 = control[TIME]
        for i in range(n):
            x_call[i] = x[i]
        ideal = control[IDEAL_NEXT_STEP_SIZE]
        actual_initial = control[ACTUAL_INITIAL_STEP_SIZE_TAKEN]
        smallest = control[SMALLEST_ADAPTED_STEP_SIZE_TAKEN]
        evals = counts[NUM_ODE_EVALS]
        shrinkages = counts[NUM_SHRINKAGES_FROM_ERROR_CONTROL]
        result, target = integration_target(t0, publish_time, update_time, boundary_time, max_step)
        h = target - t0
        t = t0
        full_step = True
        if fixed:
            status, count = _explicit_step(
                mi, mf, ws, x, u, tau_in, F_in, forward, K, x0, scales, err, scheme, grouped, h
            )
            evals += count
            t = t0 + h
        else:
            # _step_once_error_controlled_at_most(h)
            h_max = h
            for i in range(n):
                x0_save[i] = x[i]
            step = ideal
            if math.isnan(step):
                step = control[REQ_INITIAL_STEP_SIZE]
            at_minimum = False
            while True:
                step, limited = candidate_step(h_max, step, max_step)
                status, count = _explicit_step(
                    mi, mf, ws, x, u, tau_in, F_in, forward, K, x0, scales, err, scheme,
                    grouped, step,
                )  # fmt: skip
                evals += count
                if status >= 0:
                    break
                t = t0 + step
                norm = _error_norm(mi, mf, x, err, weights, mapped, qbar, scratch)
                accepted, next_step, at_minimum, too_small = adjusted_step_size(
                    norm,
                    step,
                    at_minimum,
                    accuracy,
                    order,
                    max_step,
                    working_minimum_step_size(t, req_min),
                    throws,
                )
                if too_small:
                    status = FAILED_MINIMUM_STEP
                    break
                if accepted:
                    if not limited:
                        ideal = next_step
                    if math.isnan(actual_initial):
                        actual_initial = step
                    if math.isnan(smallest) or (step < smallest and step < h_max):
                        smallest = step
                    full_step = step == h_max
                    break
                shrinkages += 1
                step = next_step
                t = t0
                for i in range(n):
                    x[i] = x0_save[i]
        if status >= 0 or status == FAILED_MINIMUM_STEP:
            for i in range(n):
                x[i] = x_call[i]
            break
        # The iteration completed: commit it (_update_step_statistics, then the time).
        control[IDEAL_NEXT_STEP_SIZE] = ideal
        control[ACTUAL_INITIAL_STEP_SIZE_TAKEN] = actual_initial
        control[SMALLEST_ADAPTED_STEP_SIZE_TAKEN] = smallest
        counts[NUM_ODE_EVALS] = evals
        counts[NUM_SHRINKAGES_FROM_ERROR_CONTROL] = shrinkages
        taken = t - t0
        counts[NUM_STEPS_TAKEN] += 1
        if counts[NUM_STEPS_TAKEN] == 1:
            control[ACTUAL_INITIAL_STEP_SIZE_TAKEN] = taken
            control[LARGEST_STEP_SIZE_TAKEN] = taken
        elif taken > control[LARGEST_STEP_SIZE_TAKEN]:
            control[LARGEST_STEP_SIZE_TAKEN] = taken
        control[PREV_STEP_SIZE] = taken
        if full_step or t >= target:
            t = target
        else:
            result = TIME_HAS_ADVANCED
        control[TIME] = t
        iterations += 1
        if result == REACHED_PUBLISH or result == REACHED_UPDATE or t >= boundary_time:
            break
    counts[ITERATIONS] = iterations
    counts[LAST_RESULT] = result
    counts[STATUS] = status
    return iterations
