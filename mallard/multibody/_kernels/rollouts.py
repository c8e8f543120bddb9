"""Batched rollouts: N initial states stepped T times, in lanes (L states at a time), on as many
threads as the caller runs them on (mallard.multibody.batch.BatchedPlant.Rollout).

A step is the plant's own: for a discrete plant, Drake's step as the plant takes it
(plant._discrete, plant._sap_driver): the free motion v* = v0 + h·v̇*(x0), v̇* the forward
dynamics with the actuation of the step (the parameters' reflected inertias are those of the
free motion: BatchedPlant adds h·D to them for SAP plants, whose joint damping is implicit);
if the plant has collision geometry, or joint limits (``limits``, ``bounds``: the
SapDriver's) and one is near the state, SAP's v from v*, state by state, with the point
contacts at the state (kernels.discrete_step.sap_velocities, compiled once and called by
address: kernels.step_velocities.sap_velocities_at; the SAP table and workspace past the row's
lanes, ``n_si`` and ``n_sw`` long, then the contact scratch and that kernel's block; M(q0)
with the plant's reflected inertias ``reflected0`` and the diagonal h·D; without contact,
M(q0) of the group's lanes at once, from the free motion's positions and inertias), else
v = v*; then q = q0 + h·N(q0)·v. For a continuous plant, a fixed
step of the Simulator's explicit Euler, second-order (Heun) or third-order Runge-Kutta
integrator (systems.analysis), their sums formed in the order those form them for a plant
alone (kernels of systems.analysis.combine, not grouped). Every operation is the single-state
one's, in the same order: a rollout equals the Simulator's trajectory to the last bit.

The actuation of step t is U[i, t] (U may have no rows: zero), plus, if TARGET has rows, a PD
law on the actuated joints' coordinates evaluated at the state the dynamics are evaluated at:
u = U[i, t] + (kp·(q_d − q) + kd·(v_d − v)), with TARGET[i] = [q_d; v_d] (nu each), ``gains``
= [kp; kd] and ``slots`` = [the q slots; the v slots] of the actuators' joints (nu each).

Groups and threads as kernels.batch, except that a group is never taken over by the caller: a
rollout writes its outputs as it goes (X[i, s] = the state after (s + 1)·``every`` steps),
so only the thread that claimed a group computes it, and the caller waits at the end for the
groups other threads are computing (BatchedPlant's wait for groups being written). Status as
kernels.batch's; a state whose state becomes non-finite, or whose articulated inertia is not
positive definite, during the rollout gets its code (NONFINITE of STATE_ARGUMENT with the
step, or NOT_POSITIVE_DEFINITE) and NaN in all of its outputs; its lanes then carry on with
another state of its group.
"""

import numpy as np

from mallard.multibody._batch_codes import (
    ARGUMENTS,
    CALLER,
    DISCRETE_STEP,
    EXPLICIT_EULER,
    HELPER,
    KINDS,
    NONFINITE,
    NOT_POSITIVE_DEFINITE,
    PAIR_FAILED,
    RUNGE_KUTTA2,
    RUNGE_KUTTA3,
    SOLVER_FAILED,
    SOLVER_STATUSES,
    STATE_ARGUMENT,
)
from mallard.multibody._kernels._machinery import batched, jitable, reshaped
from mallard.multibody._kernels.batch import (
    _begin_lanes,
    _check_group,
    _finish,
    _load_lanes,
    _nan_rows,
    _store_status,
    begin_commit,
    end_commit,
    live_lane,
    next_group,
    value_of,
)
from mallard.multibody._kernels.coordinates import calc_qdot
from mallard.multibody._kernels.discrete_step import found_size, found_views, int64_view
from mallard.multibody._kernels.dynamics import calc_mass_matrix
from mallard.multibody._kernels.engine import forward_accelerations
from mallard.multibody._kernels.kinematics import DYNAMICS, calc_position_kinematics
from mallard.multibody._kernels.lane_views import lane_array, lane_width
from mallard.multibody._kernels.lanes import transpose
from mallard.multibody._kernels.mobilizers import N_IS_IDENTITY
from mallard.multibody._kernels.sap import _add_joint_constraints, solve
from mallard.multibody._kernels.step_velocities import STEP_BLOCK, hold_velocities, step_velocities
from mallard.multibody._kernels.streaming import stream, stream_fence, stream_half
from mallard.multibody._kernels.views import (
    model,
    parameters,
    sap_table,
    sap_workspace,
    workspace,
)
from mallard.multibody._layout import (
    BIAS,
    INERTIAS,
    JTYPE,
    POSITIONS,
    Q_START,
    SAP_SUCCESS,
    SIZE,
    V_START,
    VELOCITIES,
)

_ALL = POSITIONS | VELOCITIES | INERTIAS | BIAS
_AFTER_POSITIONS = VELOCITIES | INERTIAS | BIAS  # (positions: calc_position_kinematics' DYNAMICS)
_ROW, _LANE = SIZE["row"], SIZE["lane"]


@jitable(inline=True)
def _borrowed(a):
    """The C-contiguous array ``a`` viewed holding no reference to its memory
    (kernels._machinery.reshaped): the calls that take it in the rollout's loop, once per
    step, then count no references (an atomic operation each)."""
    return reshaped(a.reshape(a.size), a.shape)


@jitable
def _load_actuation(U, t, first, count, codes, good, u):
    """u[j, l] = U[first + l, t, j] (u: lanes; a lane past ``count`` or of a failed state
    takes lane ``good``'s state), or zero if U has no rows."""
    for lane in range(u.shape[1]):
        source = lane if lane < count and value_of(codes[lane], 0.0) == 0.0 else good
        for j in range(u.shape[0]):
            u[j, lane] = U[first + source, t, j] if U.shape[0] > 0 else 0.0 * u[j, lane]


@jitable
def _add_pd(x, u, target, gains, slots):
    """u += kp·(q_d − q) + kd·(v_d − v) per actuator (see the module's docstring), ``target``
    = [q_d; v_d] (lane views, or one state's arrays)."""
    for a in range(u.shape[0]):
        q_error = target[0, a] - x[slots[0, a]]
        v_error = target[1, a] - x[slots[1, a]]
        u[a] = u[a] + (gains[0, a] * q_error + gains[1, a] * v_error)


@jitable
def _fail_lanes(m, r, params, work1, xL, U, TARGET, gains, slots, first, count, codes, t):
    """After the forward dynamics failed in lanes (at step t, stage state ``xL``): each live
    state of the group alone, in the row's own workspace: one whose state is not finite gets
    NONFINITE (STATE_ARGUMENT, step t), one whose forward dynamics fail NOT_POSITIVE_DEFINITE.
    Returns a live lane, or −1 if none is left."""
    x = lane_array(xL)
    nx, nu = x.shape[0], r.u.shape[0]
    for lane in range(count):
        if value_of(codes[lane], 0.0) != 0.0:
            continue
        finite = True
        for j in range(nx):
            r.x[j] = x[j, lane]
            finite = finite and np.isfinite(value_of(x[j, lane], 0.0))
        if not finite:
            codes[lane] = NONFINITE + KINDS * (STATE_ARGUMENT + ARGUMENTS * t)
            continue
        i = first + lane
        for j in range(nu):
            r.u[j] = U[i, t, j] if U.shape[0] > 0 else 0.0 * r.u[j]
        if TARGET.shape[0] > 0:
            _add_pd(r.x, r.u, TARGET[i].reshape((2, nu)), gains, slots)
        k = forward_accelerations(m, r.x, params, work1, _ALL, r.u, r.tau, r.F_B)
        if k >= 0:
            codes[lane] = NOT_POSITIVE_DEFINITE + KINDS * k
    return live_lane(codes, count)


@jitable
def _rows(a):
    """The lanes array ``a`` (C-contiguous, its last dimension the lanes) as a matrix: a row
    per element."""
    return a.reshape((-1, a.shape[-1]))


@jitable
def _copy_lane(a, source, lane):
    """Lane ``lane`` of the lanes array ``a`` (its last dimension) = lane ``source``.

    Its reshape is its own, not :func:`_rows`': batch_rollout's step (a failed state's lanes,
    three calls) then calls it, and _rows is called once in batch_rollout and inlined there;
    with a call of _rows, LLVM inlined _copy_lane into the step's loop (its register
    allocation: +135 stack stores; the acrobot's step ~6% slower) once kernels were compiled
    once for nogil and plain callers (docs/compilation.md, "Kernels typed once whether a
    nogil entry point calls them or a kernel does")."""
    flat = a.reshape((-1, a.shape[-1]))
    for j in range(flat.shape[0]):
        flat[j, lane] = flat[j, source]


@jitable(inline=True)
def _evaluate(m, r, rL, lanes, params, work, work1, U, TARGET, gains, slots, first, count, good,
              t):  # fmt: skip
    """v̇ (work.vdot) at the lanes' state rL.x with the actuation of step t (and the PD law);
    the positions stage stores only the joint frames' poses the acceleration bias reads
    (kinematics.DYNAMICS, as kernels.single's forward dynamics). A state that fails is marked
    (:func:`_fail_lanes`) and its lanes, with those past the group's states, take a live
    state's (x, stages, target) before the lanes go again. Returns a live lane (``good`` or
    another), or −1 if none is left."""
    codes = lane_array(lanes.code)[0]
    pd = TARGET.shape[0] > 0
    k = -1
    for _ in range(lane_width() + 1):
        _load_actuation(U, t, first, count, codes, good, lane_array(rL.u))
        if pd:
            _add_pd(rL.x, rL.u, lanes.target, gains, slots)
        calc_position_kinematics(m, params, work, rL.x[0 : m.nq], DYNAMICS, 0)
        k = forward_accelerations(m, rL.x, params, work, _AFTER_POSITIONS, rL.u, rL.tau, rL.F_B)
        if k < 0:
            return good
        good = _fail_lanes(m, r, params, work1, rL.x, U, TARGET, gains, slots, first, count,
                           codes, t)  # fmt: skip
        if good < 0:
            return good
        for lane in range(lane_width()):
            if lane >= count or value_of(codes[lane], 0.0) != 0.0:
                _copy_lane(lane_array(rL.x), good, lane)
                _copy_lane(lane_array(lanes.stages), good, lane)
                _copy_lane(lane_array(lanes.target), good, lane)
    for lane in range(count):  # (unreachable: lanes compute as states alone do)
        if value_of(codes[lane], 0.0) == 0.0:
            codes[lane] = NOT_POSITIVE_DEFINITE + KINDS * k
    return -1


@jitable
def _stage_count(scheme):
    """The evaluations of the dynamics per step."""
    if scheme == RUNGE_KUTTA2:
        return 2
    if scheme == RUNGE_KUTTA3:
        return 3
    return 1


@jitable
def _combine(x, x0, K, m, s0, s1, s2):
    """x = x0 + s0·K[0] + s1·K[1] + s2·K[2] (the first m terms), the terms added one at a time
    (systems.analysis' combine, not grouped, on lane views)."""
    for i in range(x.shape[0]):
        value = x0[i] + s0 * K[0, i]
        if m > 1:
            value = value + s1 * K[1, i]
        if m > 2:
            value = value + s2 * K[2, i]
        x[i] = value


@jitable
def _advance(m, x, S, vdot, qdot, scheme, stage, h):
    """After evaluation ``stage`` of an explicit integrator's step (v̇ at x): the next
    stage's state x, or the step's result, in place (lane views). S = [x0, k0, k1, k2], as
    the integrators keep them (RK2: k⁽ᵃ⁾ then k0), k = [q̇; v̇] with q̇ = N(q)·v at x (into
    ``qdot``). (A discrete step's: :func:`_free_motion`.)"""
    nq, nv = m.nq, m.nv
    calc_qdot(m, x[0:nq], x[nq : nq + nv], qdot)
    K = S[1:4]
    slot = stage
    if scheme == RUNGE_KUTTA2:
        slot = 1 - stage
    k = K[slot]
    for i in range(nq):
        k[i] = qdot[i]
    for i in range(nv):
        k[nq + i] = vdot[i]
    if scheme == EXPLICIT_EULER:  # x = x0 + h·k0
        _combine(x, x, K, 1, h, 0.0, 0.0)
    elif scheme == RUNGE_KUTTA2:
        if stage == 0:  # x⁽ᵃ⁾ = x0 + h·k0
            _combine(x, x, K[1:2], 1, h, 0.0, 0.0)
        else:  # x1 = x⁽ᵃ⁾ + h/2·k⁽ᵃ⁾ − h/2·k0
            _combine(x, x, K, 2, h / 2, -h / 2, 0.0)
    elif stage == 0:  # (RUNGE_KUTTA3) x⁽ᵃ⁾ = x0 + h/2·k0, x0 kept in S[0]
        for i in range(nq + nv):
            S[0, i] = x[i]
        _combine(x, S[0], K, 1, h / 2, 0.0, 0.0)
    elif stage == 1:  # x⁽ᵇ⁾ = x0 − h·k0 + 2h·k⁽ᵃ⁾
        _combine(x, S[0], K, 2, -h, 2 * h, 0.0)
    else:  # x1 = x0 + h/6·(k0 + 4·k⁽ᵃ⁾ + k⁽ᵇ⁾)
        h6 = h / 6.0
        _combine(x, S[0], K, 3, h6, 4 * h6, h6)


@jitable(inline=True)
def _free_motion(nq, nv, x, S, vdot, h, keep):
    """A discrete step's free motion v* = v0 + h·v̇* in x = [q0; v0] (lane views), x0 kept
    in S[0] if ``keep`` (for SAP's step: :func:`_limit_step`)."""
    if keep:
        for i in range(nq + nv):
            S[0, i] = x[i]
    for i in range(nv):
        x[nq + i] = x[nq + i] + h * vdot[i]


@jitable
def _identity_N(m):
    """Whether N(q) = I for every mobilizer, its q and v at the same slots: then q̇ = v
    (kernels.coordinates.calc_qdot copies v), and a step's q = q0 + h·v."""
    tree = m.tree
    for k in range(1, m.n):
        if N_IS_IDENTITY[tree[k, JTYPE]] == 0 or tree[k, Q_START] != tree[k, V_START]:
            return False
    return True


@jitable(inline=True)
def _positions(m, x, qdot, h, identity):
    """A discrete step's q = q0 + h·N(q0)·v (lane views: x = [q0; v] in, [q; v] out);
    ``identity``: :func:`_identity_N` (q̇ = v, without calc_qdot's pass over the tree)."""
    nq = m.nq
    if identity:
        for i in range(nq):
            x[i] = x[i] + h * x[nq + i]
        return
    calc_qdot(m, x[0:nq], x[nq : nq + m.nv], qdot)
    for i in range(nq):
        x[i] = x[i] + h * qdot[i]


@jitable
def _limit_step(mi, mf, m, r, params, work, work1, x, S, codes, count, limits, bounds, reflected0,
                diagonal, si, sw, solver, pairs, at, block, contact, t):  # fmt: skip
    """SAP's v, state by state, for the live states of the group (the step's constraints
    found at each state: point contacts, joint limits near it): x holds [q0; v*] (lanes), S[0]
    x0; M(q0) with the plant's reflected inertias ``reflected0``; a state whose solve fails
    gets SOLVER_FAILED (PAIR_FAILED, with the step, if its penetration query failed). Without
    ``contact`` (:func:`_joint_limit_step`), M(q0) of the lanes, once; with contact,
    kernels.discrete_step.sap_velocities per state, from r.x = x0 and SAP's workspace's v*
    into its v (kernels.step_velocities.step_velocities: compiled, by the kernel at the address
    ``at`` of the arrays held in ``block``, not linked into the rollout's code). Returns a
    live lane, or −1 if none is left."""
    if not contact:
        _joint_limit_step(m, r, params, work, work1, x, S, codes, count, limits, bounds,
                          reflected0, diagonal, si, sw, solver, t)  # fmt: skip
        return live_lane(codes, count)
    xa, x0 = lane_array(x), lane_array(S[0])
    w = sap_workspace(si, sw)
    v_star, v = w.v_star, w.v  # (bound: see docs/architecture.md, 4)
    nq, nv = m.nq, m.nv
    reflected = params.reflected
    for lane in range(count):
        if value_of(codes[lane], 0.0) != 0.0:
            continue
        for i in range(nq + nv):
            r.x[i] = x0[i, lane]
        for i in range(nv):
            v_star[i] = xa[nq + i, lane]
        for i in range(nv):  # (M with the plant's reflected inertias, then back)
            reflected[i] = reflected0[i]
        status = step_velocities(mi, mf, r.ws, r.x, v_star, diagonal, si, sw, v, solver, pairs,
                                 at, block, 0)  # fmt: skip
        for i in range(nv):
            reflected[i] = reflected0[i] + diagonal[i]
        if status < 0:  # (a pair the plant's query raises for: refused beforehand)
            codes[lane] = PAIR_FAILED + KINDS * t
            continue
        _store_velocities(status, v, xa, lane, nq, codes, t)
    return live_lane(codes, count)


@jitable
def _store_velocities(status, v, xa, lane, nq, codes, t):
    """The lane's v = SAP's v, or SOLVER_FAILED (with the step) if its solve failed."""
    if status != SAP_SUCCESS:
        codes[lane] = SOLVER_FAILED + KINDS * (status + SOLVER_STATUSES * t)
        return
    for i in range(v.shape[0]):
        xa[nq + i, lane] = v[i]


@jitable
def _joint_limits(t, w, x0, xa, lane, limits, bounds, nq, nv):
    """The SAP problem (t, w) of the joint limits near the lane's state (x0 = [q0; v0], xa =
    [q0; v*]; kernels.sap's as kernels.discrete_step.sap_velocities adds them, v* into
    w.v_star and v0 into w.v, the solve's guess); returns its number of constraints."""
    counts = t.counts
    for i in range(counts.shape[0]):
        counts[i] = 0
    for i in range(nv):
        w.v_star[i] = xa[nq + i, lane]
        w.v[i] = x0[nq + i, lane]
    none, no_values = limits[0:0], bounds[0:0]
    return _add_joint_constraints(t, w, x0[0:nq, lane], x0[nq : nq + nv, lane], limits, bounds,
                                  none, no_values, none, no_values)  # fmt: skip


@jitable
def _joint_limit_step(m, r, params, work, work1, x, S, codes, count, limits, bounds, reflected0,
                      diagonal, si, sw, solver, t):  # fmt: skip
    """:func:`_limit_step` of a plant without contact: the live states with a joint limit
    near (kernels.sap's window) solved one after another, with M(q0) computed once for the
    group's lanes (the lanes' positions and inertias are q0's, from the free motion's forward
    dynamics) with the plant's reflected inertias ``reflected0``: the same M, the same problem
    and the same operations as sap_velocities', state by state."""
    xa, x0 = lane_array(x), lane_array(S[0])
    tab, w = sap_table(si, si), sap_workspace(si, sw)
    nq, nv = m.nq, m.nv
    near = 0
    for lane in range(count):
        if value_of(codes[lane], 0.0) == 0.0:
            if _joint_limits(tab, w, x0, xa, lane, limits, bounds, nq, nv) > 0:
                near |= 1 << lane
    if near == 0:
        return
    reflected = params.reflected
    for i in range(nv):  # (M with the plant's reflected inertias, then back)
        reflected[i] = reflected0[i]
    calc_mass_matrix(m, params, work, work.M)
    for i in range(nv):
        reflected[i] = reflected0[i] + diagonal[i]
    ML, M = lane_array(work.M), work1.M
    for lane in range(count):
        if near & (1 << lane) == 0:
            continue
        _joint_limits(tab, w, x0, xa, lane, limits, bounds, nq, nv)
        for i in range(nv):
            for j in range(nv):
                M[i, j] = ML[i, j, lane]
        status = solve(si, sw, M, diagonal, solver)
        _store_velocities(status, w.v, xa, lane, nq, codes, t)


@jitable
def _store_state(x, X, first, count, s):
    """X[first + l, s] = lane l of the lanes' state x, for l < count: four elements at a
    time, their lanes transposed (kernels.lanes.transpose), the rest one by one; stored past
    the caches (kernels.streaming: the states, written once, would evict the workspace;
    ``stream_fence`` before they are read or written again), two elements a store where X's
    rows are 16-byte aligned (an even length, X's memory aligned: as numpy allocates it)."""
    a = lane_array(x)
    n = a.shape[0]
    halves = n % 2 == 0 and X.ctypes.data % 16 == 0
    j = 0
    while j + 4 <= n:
        rows = transpose(x[j], x[j + 1], x[j + 2], x[j + 3])
        for lane in range(count):
            if halves:
                stream_half(X[first + lane, s], j, rows[lane], 0)
                stream_half(X[first + lane, s], j + 2, rows[lane], 1)
            else:
                stream(X[first + lane, s], j, rows[lane])
        j += 4
    if halves and j < n:  # (the last two)
        rows = transpose(x[j], x[j + 1], x[j], x[j + 1])
        for lane in range(count):
            stream_half(X[first + lane, s], j, rows[lane], 0)
        j += 2
    for lane in range(count):
        for i in range(j, n):
            stream(X[first + lane, s], i, a[i, lane])


@jitable
def _check_final(x, count, codes, steps):
    """A live state whose final state is not finite gets NONFINITE (STATE_ARGUMENT, step
    ``steps``)."""
    a = lane_array(x)
    for lane in range(count):
        if value_of(codes[lane], 0.0) == 0.0:
            for j in range(a.shape[0]):
                if not np.isfinite(value_of(a[j, lane], 0.0)):
                    codes[lane] = NONFINITE + KINDS * (STATE_ARGUMENT + ARGUMENTS * steps)
                    break


@batched(own_kernels=True)
def batch_rollout(mi, mf, X0, U, TARGET, gains, slots, h, scheme, steps, every, limits, bounds,
                  reflected0, diagonal, n_si, n_sw, solver, pairs, at, geometry, room, row,
                  flags, mode, X, status):  # fmt: skip
    """X[i, s] = the state [q; v] after (s + 1)·``every`` steps of size h (``scheme``: the
    discrete step or an explicit integrator, see the module's docstring) from X0[i], with
    the actuation U[i, t] during step t (U may have no rows: zero) and, if TARGET has rows,
    the PD law to TARGET[i] (``gains``, ``slots``); a discrete plant's joint limits through
    SAP if ``limits`` has rows, and its point contacts (kernels.discrete_step: ``geometry``,
    its contact tables, whose settings' kind is −1 without collision geometry; room for
    ``room`` contacts, in the row past the SAP problem; ``solver``: the address of SAP's
    compiled solver, kernels.sap.solve; ``pairs``: the pair kernel's and the penetration's,
    kernels.discrete_step.find_point_pairs; ``at``: that of the step's velocities with
    contact, kernels.step_velocities.sap_velocities_at, whose block of arrays, STEP_BLOCK int64s,
    follows the contact scratch in the row). ``steps`` steps in all. L states at a time, in
    lanes."""
    m = model(mi, mf)
    U, X = _borrowed(U), _borrowed(X)
    r, rL, lanes = _begin_lanes(mi, row)
    params, work1 = parameters(mi, r.ws), workspace(mi, r.ws)
    work = workspace(mi, rL.ws)
    codes = lane_array(lanes.code)[0]
    UU = U.reshape((U.shape[0], U.shape[1] * U.shape[2]))
    none = X0[0:0]
    size, width = X0.shape[0], lane_width()
    stages = _stage_count(scheme)
    base = mi[_ROW] + width * mi[_LANE]  # (past the lanes: the SAP table, then workspace)
    si, sw = int64_view(row[base : base + n_si]), row[base + n_si : base + n_si + n_sw]
    ng, nf = geometry[0].shape[0], geometry[3].shape[0]
    start = base + n_si + n_sw
    end = start + found_size(ng, nf, room, 0, 0, m.nv)
    found = found_views(row[start:end], ng, nf, room, 0, 0, m.nv)
    order = found[3]
    for g in range(ng):  # (the broadphase's order: a permutation)
        order[g] = g
    contact = geometry[10][0] >= 0.0
    block = int64_view(row[end : end + STEP_BLOCK])  # (empty without contact)
    if contact:
        w = sap_workspace(si, sw)
        no_rows, no_values = limits[0:0], bounds[0:0]  # (no PD controllers, no couplers)
        joints = (limits, bounds, no_rows, no_values, no_rows, no_values)
        block = hold_velocities(block, mi, mf, r.ws, r.x, w.v_star, diagonal, si, sw, w.v,
                                (joints, geometry, found))  # fmt: skip
    sap = scheme == DISCRETE_STEP and (limits.shape[0] > 0 or contact)
    identity = _identity_N(m)
    claim = HELPER if mode == CALLER else mode  # (a group is never taken over)
    g = next_group(flags, claim)
    while g >= 0:
        first = g * width
        count = min(width, size - first)
        good = _check_group(m, first, count, codes, X0, UU, TARGET, none)
        if good >= 0:
            _load_lanes(X0, first, count, codes, good, lane_array(rL.x), False)
            _load_lanes(TARGET, first, count, codes, good, _rows(lane_array(lanes.target)), False)
            for t in range(steps):
                for stage in range(stages):
                    good = _evaluate(m, r, rL, lanes, params, work, work1, U, TARGET, gains,
                                     slots, first, count, good, t)  # fmt: skip
                    if good < 0:
                        break
                    if scheme == DISCRETE_STEP:
                        _free_motion(m.nq, m.nv, rL.x, lanes.stages, work.vdot, h, sap)
                    else:
                        _advance(m, rL.x, lanes.stages, work.vdot, work.qdot, scheme, stage, h)
                if good < 0:
                    break
                if scheme == DISCRETE_STEP:
                    if sap:
                        good = _limit_step(mi, mf, m, r, params, work, work1, rL.x,
                                           lanes.stages, codes, count, limits, bounds,
                                           reflected0, diagonal, si, sw, solver, pairs, at,
                                           block, contact, t)  # fmt: skip
                        if good < 0:
                            break
                    _positions(m, rL.x, work.qdot, h, identity)
                if (t + 1) % every == 0:
                    _store_state(rL.x, X, first, count, (t + 1) // every - 1)
            stream_fence()  # (the states streamed: before _nan_rows and the commit)
            _check_final(rL.x, count, codes, steps)
        begin_commit(flags, g, claim)
        _nan_rows(X, first, count, codes)
        _store_status(codes, status, first, count)
        end_commit(flags, g, claim)
        g = next_group(flags, claim)
    return _finish(flags, mode)
