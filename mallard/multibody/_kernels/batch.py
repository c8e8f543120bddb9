"""Batched entry points: the plant's single-state stages and results (kernels.engine) over a
leading batch dimension N, without a Context, on as many threads as the caller runs them on
(mallard.multibody.batch starts them; compiled, they release the GIL).

Every entry point takes the flat model (``mi``, ``mf``; then which operation: ``op`` of
:func:`batch_evaluate`, ``forward`` of :func:`batch_dynamics_derivatives`), the batch of
inputs (arrays with a leading dimension N; an optional input with no rows is zero), the
calling thread's ``row``, the call's ``flags`` and ``mode``, then the outputs (leading
dimension N) and ``status`` (N int64). It returns the number of groups still being written
by another thread (see below; 0 unless ``mode`` is CALLER).

The mass matrix, forward dynamics and point Jacobian are one entry point
(:func:`batch_evaluate`), and so are the derivatives of inverse and forward dynamics
(:func:`batch_dynamics_derivatives`): numba optimizes and generates the machine code of all
the code an entry point links in that entry point's own module, so entry points sharing the
lanes' stages, the plain derivative sweeps and the groups' handling would each pay for it.
The body poses and inverse dynamics have entry points of their own: merged, their calls were
15–35% slower, LLVM no longer inlining their kernels (docs/compilation.md).

Groups and threads. The batch is cut into groups of states: L = lane_width() states
[L·g, L·g + L) (every entry point computes in lanes, or state by state in groups of L). Every
thread of a call runs the entry point with a row of its own and the same ``flags`` (int64,
zero to start, 2 + the number of groups long: the next group to hand out, the caller's scan,
then each group's state: FREE, CLAIMED, STOLEN, COMMITTING, DONE; the codes are in
mallard.multibody._batch_codes). A thread takes groups in
turn (:func:`next_group`), computes each in its row and then writes its results into the
outputs (commits it: :func:`begin_commit`, :func:`end_commit`) unless the caller took it over.
The caller (``mode`` CALLER), once no group is left to hand out, takes over every group not yet
written and computes it itself, so that it never waits for a thread that is slow or not
running, except one writing a group at that moment: it returns how many it found, and
mallard.multibody.batch waits for them (:func:`batch_unfinished`). A thread alone (``mode``
ALONE) takes every group in order without atomic operations. Whichever thread and group
compute a state, its results are the same to the last bit.

Rows. A row starts with the sections of _layout.BATCH_ROW (a workspace, one state x,
generalized forces, body forces indexed by body, actuation), then

- for the kinematics and dynamics, which go L states at a time (kernels.lanes), the L lanes of
  a _layout.LANE_ROW (a batch row's, v̇, a point and a status code; ``_layout.lanes() ·
  sizes.lane`` scalars): per group, the group's states' x go into the lane row and the stages
  run on lane views of it (kernels.lane_views), the parameters coming from the row's own
  workspace. Interpreted, the lanes are one wide (``lane_width()``);
- for the derivatives, the same lanes (padded to 8 scalars), then L _layout.DERIVATIVE_ROWs
  in lanes (a derivative workspace and the group's derivatives, written out when the group
  is committed) and one plain DERIVATIVE_ROW: the models kernels.recursive_derivatives covers
  go L states at a time; the others, and a forward dynamics derivatives group with an inertia
  that is not positive definite, state by state in the row's own workspace and plain
  derivative row, each state's results put into its lanes.

:func:`batch_new_row` makes a row from a Context's workspace ``ws0`` (its parameter stage
filled in, copied into the workspace and every lane of it); an entry point sets the inputs'
sections to zero when it starts, so that a row serves any number of calls of that entry point.

A call passing arrays costs atomic reference counts (numba's), so the checks go a group at a
time: one call per input array per group (and per state only for a state that fails).

Status. status[i] is 0 for a state computed, else a code ``kind + KINDS · detail``:
NONFINITE (an input is NaN or infinite; detail = argument + ARGUMENTS · column, argument the
input's place among the entry point's batch inputs, Q being 0), ZERO_QUATERNION (the four
positions of mobod ``detail``'s quaternion are zero), NOT_POSITIVE_DEFINITE (forward dynamics:
mobod ``detail``'s articulated inertia across its mobilizer is not positive definite). A state
with a code has NaN in all of its results; states with a NaN input or a zero quaternion are
not computed (their lanes compute another state of their group).
"""

import numpy as np
from numba.extending import overload

from mallard._scalar_value import scalar_value
from mallard.multibody._batch_codes import (
    ALONE,
    ARGUMENTS,
    CALLER,
    CLAIMED,
    COMMITTING,
    DONE,
    FORWARD,
    FORWARD_DYNAMICS,
    FREE,
    HELPER,
    INVERSE,
    KINDS,
    MASS_MATRIX,
    NONFINITE,
    NOT_POSITIVE_DEFINITE,
    POINT_JACOBIAN,
    STOLEN,
    ZERO_QUATERNION,
)
from mallard.multibody._batch_codes import GROUPS as _GROUPS
from mallard.multibody._batch_codes import NEXT as _NEXT
from mallard.multibody._batch_codes import SCAN as _SCAN
from mallard.multibody._joint_types import QUATERNION_FLOATING
from mallard.multibody._kernels._machinery import (
    atomic_add,
    atomic_cas,
    atomic_load,
    batched,
    jitable,
    reshaped,
)
from mallard.multibody._kernels.dynamics import calc_body_inertias, calc_mass_matrix
from mallard.multibody._kernels.engine import (
    force_elements,
    forward_accelerations,
    inverse_dynamics,
    point_jacobian,
)
from mallard.multibody._kernels.engine_derivatives import (
    derivatives_by_address,
    fresh_recursive_derivatives,
    recursive_inverse_dynamics_derivatives,
    solve_forward_dynamics_derivatives,
)
from mallard.multibody._kernels.kinematics import COLUMNS, LAYER_WB, POSES, calc_position_kinematics
from mallard.multibody._kernels.lane_views import lane_array, lane_view, lane_width
from mallard.multibody._kernels.lanes import transpose, vstore
from mallard.multibody._kernels.pose import load_pose
from mallard.multibody._kernels.recursive_derivatives import covers
from mallard.multibody._kernels.views import (
    batch_row,
    derivative_row,
    derivatives,
    lane_row,
    model,
    parameters,
    workspace,
)
from mallard.multibody._layout import (
    BIAS,
    BODY,
    INERTIAS,
    JTYPE,
    POSITIONS,
    Q_START,
    SIZE,
    VELOCITIES,
)

_ALL = POSITIONS | VELOCITIES | INERTIAS | BIAS
_WS, _ROW, _LANE, _DROW = SIZE["ws"], SIZE["row"], SIZE["lane"], SIZE["drow"]


# ---- groups and threads -------------------------------------------------------------------------
@jitable
def next_group(flags, mode):
    """The next group this thread computes, or −1 when there is none left for it: groups are
    handed out in order (an atomic counter) and claimed (FREE → CLAIMED); once none is left,
    the caller takes over, one by one, the groups not yet committed (FREE or CLAIMED →
    STOLEN; one being committed is left to its thread)."""
    count = flags.shape[0] - _GROUPS
    if mode == ALONE:
        g = flags[_NEXT]
        flags[_NEXT] = g + 1
        return g if g < count else -1
    while True:
        g = atomic_add(flags, _NEXT, 1)
        if g >= count:
            break
        if atomic_cas(flags, _GROUPS + g, FREE, CLAIMED) == FREE:
            return g
    if mode == HELPER:
        return -1
    g = flags[_SCAN]  # (only the caller scans)
    while g < count:
        state = atomic_load(flags, _GROUPS + g)
        if state != FREE and state != CLAIMED:
            g += 1  # (committing or done: another thread's)
        elif atomic_cas(flags, _GROUPS + g, state, STOLEN) == state:
            flags[_SCAN] = g + 1
            return g
        # (else its state changed meanwhile: look again)
    flags[_SCAN] = g
    return -1


@jitable(inline=True)
def begin_commit(flags, g, mode):
    """Whether this thread writes group g's results into the outputs (then
    :func:`end_commit`): the thread that claimed it, unless the caller has taken it over;
    the caller, always."""
    if mode == ALONE:
        return True
    state = atomic_cas(flags, _GROUPS + g, CLAIMED, COMMITTING)
    if state == CLAIMED:
        return True
    return mode == CALLER and atomic_cas(flags, _GROUPS + g, STOLEN, COMMITTING) == STOLEN


@jitable(inline=True)
def end_commit(flags, g, mode):
    """Marks group g's results written."""
    if mode != ALONE:
        atomic_cas(flags, _GROUPS + g, COMMITTING, DONE)


@jitable
def unfinished(flags):
    """The groups whose results are not yet written."""
    count = 0
    for g in range(flags.shape[0] - _GROUPS):
        if atomic_load(flags, _GROUPS + g) != DONE:
            count += 1
    return count


@jitable
def _finish(flags, mode):
    """What an entry point returns: the groups the caller must still wait for."""
    return unfinished(flags) if mode == CALLER else 0


@batched
def batch_unfinished(flags):
    """The groups of a call (its ``flags``) whose results are not yet written (see the
    module's docstring)."""
    return unfinished(flags)


# ---- status -------------------------------------------------------------------------------------
def value_of(x, default):
    """The double value of the scalar ``x``, or ``default`` if it has none (a symbolic
    Expression that is not a constant); compiled, ``x``."""
    value = scalar_value(x)
    return default if value is None else value


@overload(value_of)
def _value_of_compiled(x, default):
    return lambda x, default: x


@jitable
def _all_finite(A, first, count):
    """Whether every value of rows ``first`` to ``first + count − 1`` of A is finite (A may
    have no rows): x·0 is NaN exactly for a NaN or infinite x, and a NaN survives the sum."""
    if A.shape[0] == 0:
        return True
    s = 0.0
    for i in range(first, first + count):
        for j in range(A.shape[1]):
            s += value_of(A[i, j], 0.0) * 0.0
    return s == s


@jitable
def _nonfinite(A, i, argument):
    """The NONFINITE code of the first NaN or infinite value of A[i] (the input ``argument``),
    or 0 (also if A has no rows)."""
    if A.shape[0] == 0:
        return 0
    for j in range(A.shape[1]):
        if not np.isfinite(value_of(A[i, j], 0.0)):
            return NONFINITE + KINDS * (argument + ARGUMENTS * j)
    return 0


@jitable
def _nonfinite_code(i, Q, A1, A2, A3):
    """The NONFINITE code of the first NaN or infinite input of state i: Q[i] (argument 0),
    then A1[i], A2[i], A3[i] (arguments 1 to 3; arrays with no rows are not checked); or 0."""
    code = _nonfinite(Q, i, 0)
    if code == 0:
        code = _nonfinite(A1, i, 1)
    if code == 0:
        code = _nonfinite(A2, i, 2)
    if code == 0:
        code = _nonfinite(A3, i, 3)
    return code


@jitable
def _check_group(model, first, count, codes, Q, A1, A2, A3):
    """codes[l] = the code of state first + l (l < count) before computing: its inputs
    (see :func:`_nonfinite_code`) finite, its quaternions not zero. Returns the first lane of
    a state to compute, or −1 if there is none."""
    finite = (
        _all_finite(Q, first, count)
        and _all_finite(A1, first, count)
        and _all_finite(A2, first, count)
        and _all_finite(A3, first, count)
    )
    for lane in range(count):
        codes[lane] = 0 if finite else _nonfinite_code(first + lane, Q, A1, A2, A3)
    tree = model.tree
    for k in range(1, model.n):
        if tree[k, JTYPE] == QUATERNION_FLOATING:
            s = tree[k, Q_START]
            for lane in range(count):
                i = first + lane
                if (
                    value_of(codes[lane], 0.0) == 0.0
                    and value_of(Q[i, s], 1.0) == 0.0
                    and value_of(Q[i, s + 1], 1.0) == 0.0
                    and value_of(Q[i, s + 2], 1.0) == 0.0
                    and value_of(Q[i, s + 3], 1.0) == 0.0
                ):
                    codes[lane] = ZERO_QUATERNION + KINDS * k
    return live_lane(codes, count)


@jitable
def live_lane(codes, count):
    """The first of a group's ``count`` lanes whose state has no failure code, or −1."""
    for lane in range(count):
        if value_of(codes[lane], 0.0) == 0.0:
            return lane
    return -1


@jitable
def _state_code(model, i, Q, A1, A2, A3, codes):
    """State i's code before computing (see :func:`_check_group`; ``codes``: one scalar of
    scratch)."""
    _check_group(model, i, 1, codes, Q, A1, A2, A3)
    return int(value_of(codes[0], 0.0))


@jitable
def _store_status(codes, status, first, count):
    for lane in range(count):
        status[first + lane] = int(value_of(codes[lane], 0.0))


# ---- rows ---------------------------------------------------------------------------------------
@jitable
def _fill(a, value):
    """a[:] = value (a 1-D array, or a lane view)."""
    for j in range(a.shape[0]):
        a[j] = value


@jitable
def _clear_inputs(r, zero):
    """The input sections of BatchRow views ``r`` (or lane views) set to zero."""
    _fill(r.x, zero)
    _fill(r.tau, zero)
    for b in range(r.F_B.shape[0]):
        _fill(r.F_B[b], zero)
    _fill(r.u, zero)


@jitable
def _past_row(mi, row):
    """The part of a row past its BATCH_ROW: lanes, or a derivative row."""
    return row[mi[_ROW] :]


@jitable
def _lane_array_of(mi, row):
    """The lanes of ``row`` (sizes.lane × lane_width(), see the module's docstring)."""
    width, size = lane_width(), mi[_LANE]
    past = _past_row(mi, row)
    if past.shape[0] < width * size:
        raise ValueError("batched kernels: a row is too short for its lanes")
    return reshaped(past[0 : width * size], (size, width))


@jitable
def _begin_lanes(mi, row):
    """(r, rL, lanes): the BatchRow views of ``row`` and the BatchRow and LaneRow lane views
    of its lanes, every input section zero."""
    zero = 0.0 * row[0]
    r = batch_row(mi, row)
    views = lane_row(mi, lane_view(_lane_array_of(mi, row)))
    rL = batch_row(mi, views.row)
    _clear_inputs(r, zero)
    _clear_inputs(rL, zero)
    _fill(views.vdot, zero)
    _fill(views.p, zero)
    return r, rL, views


@batched
def batch_new_row(mi, ws0, row, lanes):
    """A row (see the module's docstring) with the workspace ``ws0`` (its parameter stage
    filled in) in its workspace and, if ``lanes``, in every lane of its lanes' workspace
    (World's rows of the state's sections, which kernels expect set, included); everything
    else zero."""
    zero = 0.0 * ws0[0]
    _fill(row, zero)
    for j in range(mi[_WS]):
        row[j] = ws0[j]
    if lanes:
        L = _lane_array_of(mi, row)
        for j in range(mi[_WS]):
            for lane in range(L.shape[1]):
                L[j, lane] = ws0[j]


# ---- lanes: L states at once (see kernels.lanes) ------------------------------------------------
@jitable
def _load_lanes(A, first, count, codes, good, lanes, add):
    """lanes[j, l] = A[first + l, j] (or += if ``add``) for every column j of A; a lane past
    ``count`` or of a state with a code takes the state of lane ``good`` instead; none if A
    has no rows."""
    if A.shape[0] == 0:
        return
    for lane in range(lanes.shape[1]):
        source = lane if lane < count and value_of(codes[lane], 0.0) == 0.0 else good
        i = first + source
        for j in range(A.shape[1]):
            lanes[j, lane] = lanes[j, lane] + A[i, j] if add else A[i, j]


@jitable
def _store_lane_matrix(lanes, A, first, count, codes):
    """A[first + l] = lane l of ``lanes`` (m × n × L) for l < count, or NaN for a state with a
    code: rows go out four elements at a time (their lanes transposed)."""
    m, n = lanes.shape[0], lanes.shape[1]
    A_L = lane_view(lanes)
    for r in range(m):
        s = 0
        while s + 4 <= n:
            rows = transpose(A_L[r, s], A_L[r, s + 1], A_L[r, s + 2], A_L[r, s + 3])
            for lane in range(count):
                vstore(A[first + lane, r], s, rows[lane])
            s += 4
        for t in range(s, n):
            for lane in range(count):
                A[first + lane, r, t] = lanes[r, t, lane]
    _nan_rows(A, first, count, codes)


@jitable
def _nan_rows(A, first, count, codes):
    """A[first + l] = NaN (all of it) for the states l < count with a code."""
    for lane in range(count):
        if value_of(codes[lane], 0.0) != 0.0:
            a = A[first + lane].reshape(-1)  # (A is C-contiguous)
            _fill(a, np.nan)


# ---- entry points -----------------------------------------------------------------------------
@batched
def batch_body_poses(mi, mf, Q, row, flags, mode, X_WB, status):
    """X_WB[i, b] = the pose of body b in World at q = Q[i], a 4×4 homogeneous matrix
    [R_WB, p_WoBo_W; 0 0 0 1] (bodies indexed by BodyIndex). L states at a time, in lanes."""
    m = model(mi, mf)
    r, rL, lanes = _begin_lanes(mi, row)
    params, work = parameters(mi, r.ws), workspace(mi, rL.ws)
    X_pc, tree, codes = work.X_pc, m.tree, lane_array(lanes.code)[0]
    none, zero = Q[0:0], 0.0 * row[0]
    size, width = Q.shape[0], lane_width()
    g = next_group(flags, mode)
    while g >= 0:
        first = g * width
        count = min(width, size - first)
        good = _check_group(m, first, count, codes, Q, none, none, none)
        if good >= 0:
            _load_lanes(Q, first, count, codes, good, lane_array(rL.x), False)
            calc_position_kinematics(m, params, work, rL.x[0 : m.nq], POSES, 0)
        if begin_commit(flags, g, mode):
            for k in range(m.n):
                T = load_pose(X_pc[LAYER_WB, k])
                b = tree[k, BODY]
                for i in range(3):  # (rows go out whole: the lanes of its elements, transposed)
                    rows = transpose(T[3 * i], T[3 * i + 1], T[3 * i + 2], T[9 + i])
                    for lane in range(count):
                        vstore(X_WB[first + lane, b, i], 0, rows[lane])
                for lane in range(count):
                    bottom = X_WB[first + lane, b, 3]
                    bottom[0], bottom[1], bottom[2], bottom[3] = zero, zero, zero, 1.0 + zero
            _nan_rows(X_WB, first, count, codes)
            _store_status(codes, status, first, count)
            end_commit(flags, g, mode)
        g = next_group(flags, mode)
    return _finish(flags, mode)


@batched
def batch_inverse_dynamics(mi, mf, Q, V, VDOT, TAU, row, flags, mode, tau, status):
    """tau[i] = M·v̇ + C·v − tau_g − TAU[i] + D·v at (q, v, v̇) = (Q[i], V[i], VDOT[i]):
    the generalized forces that, with gravity, joint damping D and TAU[i] applied, produce
    the accelerations VDOT[i] (reflected rotor inertias included). TAU may have no rows
    (zero). L states at a time, in lanes."""
    m = model(mi, mf)
    r, rL, lanes = _begin_lanes(mi, row)
    params, work = parameters(mi, r.ws), workspace(mi, rL.ws)
    xL, tau_app, vdot, codes = rL.x, rL.tau, lanes.vdot, lane_array(lanes.code)[0]
    size, nv, width = Q.shape[0], m.nv, lane_width()
    g = next_group(flags, mode)
    while g >= 0:
        first = g * width
        count = min(width, size - first)
        good = _check_group(m, first, count, codes, Q, V, VDOT, TAU)
        if good >= 0:
            _load_lanes(Q, first, count, codes, good, lane_array(xL), False)
            _load_lanes(V, first, count, codes, good, lane_array(xL)[m.nq :], False)
            _load_lanes(VDOT, first, count, codes, good, lane_array(vdot), False)
            force_elements(m, xL, params, work, _ALL, rL.F_B, tau_app)
            _load_lanes(TAU, first, count, codes, good, lane_array(tau_app), True)
            inverse_dynamics(m, xL, params, work, 0, vdot, tau_app, rL.F_B)
        if begin_commit(flags, g, mode):
            tau_L = lane_array(reshaped(work.tau, (1, nv)))
            _store_lane_matrix(tau_L, tau.reshape((size, 1, nv)), first, count, codes)
            _store_status(codes, status, first, count)
            end_commit(flags, g, mode)
        g = next_group(flags, mode)
    return _finish(flags, mode)


@batched
def batch_evaluate(mi, mf, op, Q, A1, A2, A3, k, X_BF, row, flags, mode, OUT, status):
    """BatchedPlant's mass matrix, forward dynamics and point Jacobian, one entry point for
    the three (numba optimizes and generates the machine code of all the code an entry point
    links in its own module: three entry points would each pay for the lanes' position
    kinematics, docs/compilation.md; the body poses and inverse dynamics, whose calls were
    slower in it, keep entry points of their own). ``op`` (_batch_codes) says which, with its
    batch inputs Q, A1, A2, A3 (those it does not take: arrays with no rows) and its output
    OUT[i] (N × m × n), L states at a time, in lanes; k and X_BF are the point Jacobian's
    (else 0 and any 4×3):

    * MASS_MATRIX: OUT[i] = M(Q[i]) (nv × nv, reflected rotor inertias included).
    * FORWARD_DYNAMICS: OUT[i, 0] = v̇ at (Q[i], A1[i]) with gravity, joint damping,
      reflected rotor inertias, locked joints, the generalized forces A2[i] and the actuation
      A3[i] (clamped to the effort limits; A2, A3 may have no rows: zero). A group in which an
      articulated inertia is not positive definite goes again state by state, each loaded
      into every lane (:func:`_alone_in_lanes`: no other forward dynamics linked in), to find
      which states fail and compute the others.
    * POINT_JACOBIAN: OUT[i] = J_V_WQ_W (6 × nv, with respect to v) at q = Q[i] of the point
      Q fixed on mobod k's body at A1[i] in the frame F whose pose in the body is X_BF (a 4×3
      pose)."""
    m = model(mi, mf)
    r, rL, lanes = _begin_lanes(mi, row)
    params, work = parameters(mi, r.ws), workspace(mi, rL.ws)
    xL, tau_L, u_L, F_BL, vdot = rL.x, rL.tau, rL.u, rL.F_B, lanes.vdot
    size, nq, nv, width = Q.shape[0], m.nq, m.nv, lane_width()
    codes, vdot_L = lane_array(lanes.code)[0], lane_array(reshaped(work.vdot, (1, nv)))
    g = next_group(flags, mode)
    while g >= 0:
        first = g * width
        count = min(width, size - first)
        good = _check_group(m, first, count, codes, Q, A1, A2, A3)
        if op == FORWARD_DYNAMICS:
            alone = -1  # (the lane whose state is in every lane, or −1: each lane its own)
            while good >= 0:
                at, n, source = (first, count, good) if alone < 0 else (first + alone, 1, 0)
                _load_lanes(Q, at, n, codes, source, lane_array(xL), False)
                _load_lanes(A1, at, n, codes, source, lane_array(xL)[nq:], False)
                _load_lanes(A2, at, n, codes, source, lane_array(tau_L), False)
                _load_lanes(A3, at, n, codes, source, lane_array(u_L), False)
                k_fail = forward_accelerations(m, xL, params, work, _ALL, u_L, tau_L, F_BL)
                if alone < 0 and k_fail < 0:
                    break
                alone = _alone_in_lanes(codes, count, alone, k_fail, vdot_L, lane_array(vdot))
                good = alone
        elif good >= 0:
            _load_lanes(Q, first, count, codes, good, lane_array(xL), False)
            calc_position_kinematics(m, params, work, xL[0:nq], COLUMNS, k)
            if op == MASS_MATRIX:
                calc_body_inertias(m, params, work)
                calc_mass_matrix(m, params, work, work.M)
            else:
                _load_lanes(A1, first, count, codes, good, lane_array(lanes.p), False)
                point_jacobian(m, work, k, X_BF, lanes.p, work.J)
        if begin_commit(flags, g, mode):
            if op == MASS_MATRIX:
                _store_lane_matrix(lane_array(work.M), OUT, first, count, codes)
            elif op == POINT_JACOBIAN:
                _store_lane_matrix(lane_array(work.J), OUT, first, count, codes)
            else:
                _store_lane_matrix(vdot_L, OUT, first, count, codes)
            _store_status(codes, status, first, count)
            end_commit(flags, g, mode)
        g = next_group(flags, mode)
    return _finish(flags, mode)


@jitable
def _alone_in_lanes(codes, count, alone, k, vdot_L, alone_vdot):
    """batch_evaluate's FORWARD_DYNAMICS states one at a time, after the group's forward dynamics
    failed in lanes (``alone`` −1) or that of the state of lane ``alone``, loaded into every
    lane, returned k (its status): that state's code, NOT_POSITIVE_DEFINITE if k ≥ 0, and its
    v̇ (lane 0's of vdot_L) into its lane of ``alone_vdot``. Returns the next lane of a state
    without a code, to compute alone, or −1 when none is left: then vdot_L = alone_vdot.
    (Lanes compute as a state alone does, to the last bit: the group needs no other code.)"""
    if alone >= 0:
        if k >= 0:
            codes[alone] = NOT_POSITIVE_DEFINITE + KINDS * k
        for j in range(vdot_L.shape[1]):
            alone_vdot[j, alone] = vdot_L[0, j, 0]
    for lane in range(alone + 1, count):
        if value_of(codes[lane], 0.0) == 0.0:
            return lane
    for lane in range(count):
        for j in range(vdot_L.shape[1]):
            vdot_L[0, j, lane] = alone_vdot[j, lane]
    return -1


# ---- derivatives: in lanes --------------------------------------------------------------------
@jitable
def _load_state(model, Q, V, i, x):
    """x = [Q[i]; V[i]] (v = 0 if V has no rows)."""
    nq = model.nq
    for j in range(nq):
        x[j] = Q[i, j]
    if V.shape[0] > 0:
        for j in range(model.nv):
            x[nq + j] = V[i, j]


@jitable
def _load_inputs(TAU, U, i, tau_in, u):
    """tau_in = TAU[i] and u = U[i] for the batches that have rows (TAU and U may have none:
    then tau_in and u keep their values)."""
    if TAU.shape[0] > 0:
        for j in range(tau_in.shape[0]):
            tau_in[j] = TAU[i, j]
    if U.shape[0] > 0:
        for j in range(u.shape[0]):
            u[j] = U[i, j]


@jitable(inline=True)
def _derivative_rows(mi, row):
    """(d, dL): the DerivativeRow views of a derivatives entry point's row and the lane views
    of its derivative lanes. Such a row is a batch row, its lanes (as :func:`_lane_array_of`'s,
    padded to 8 scalars), lane_width() derivative rows in lanes, then one derivative row."""
    width, size = lane_width(), mi[_DROW]
    past = _past_row(mi, row)
    start = -(-width * mi[_LANE] // 8) * 8
    plain = start + width * size
    if past.shape[0] < plain + size:
        raise ValueError("batched kernels: a row is too short for its derivative rows")
    lanes = lane_view(reshaped(past[start:plain], (size, width)))
    return derivative_row(mi, past[plain : plain + size]), derivative_row(mi, lanes)


@jitable
def _to_lane(D, lanes, lane):
    """Lane ``lane`` of ``lanes`` (m × n × L) = the matrix D."""
    for a in range(D.shape[0]):
        for b in range(D.shape[1]):
            lanes[a, b, lane] = D[a, b]


@jitable
def _inverse_derivatives_by_state(
    mi, mf, Q, V, VDOT, row, first, count, codes, D_dq, D_dv, D_M, at
):
    """The states of a group without a code (``codes``), one by one, in ``row``'s own
    workspace and derivative row (kernels.engine_derivatives, any model: by the derivatives'
    kernels at the addresses ``at``, see derivatives_by_address), their dtau_dq, dtau_dv and M
    into their lanes of D_dq, D_dv, D_M."""
    m = model(mi, mf)
    r = batch_row(mi, row)
    d = _derivative_rows(mi, row)[0]
    M_i = workspace(mi, r.ws).M
    for lane in range(count):
        if value_of(codes[lane], 0.0) == 0.0:
            i = first + lane
            _load_state(m, Q, V, i, r.x)
            vdot = VDOT[i]  # (vdot[0:0] and d_dv stand for the input and output it does not read)
            derivatives_by_address(
                INVERSE, mi, mf, r.x, r.ws, _ALL, vdot, vdot[0:0], r.F_B, d.dws, d.d_dq, d.d_dv,
                d.d_dv, at,
            )  # fmt: skip
            _to_lane(d.d_dq, D_dq, lane)
            _to_lane(d.d_dv, D_dv, lane)
            _to_lane(M_i, D_M, lane)


@jitable
def _forward_derivatives_by_state(
    mi, mf, Q, V, TAU, U, row, first, count, codes, D_dq, D_dv, D_dtau, at
):
    """As :func:`_inverse_derivatives_by_state`, for the forward dynamics' derivatives
    (codes[l] set for the states whose articulated inertia is not positive definite)."""
    m = model(mi, mf)
    r = batch_row(mi, row)
    d = _derivative_rows(mi, row)[0]
    for lane in range(count):
        if value_of(codes[lane], 0.0) == 0.0:
            i = first + lane
            _load_state(m, Q, V, i, r.x)
            _load_inputs(TAU, U, i, r.tau, r.u)
            k = derivatives_by_address(
                FORWARD, mi, mf, r.x, r.ws, _ALL, r.u, r.tau, r.F_B, d.dws, d.d_dq, d.d_dv,
                d.d_dvdot, at,
            )  # fmt: skip
            if k >= 0:
                codes[lane] = NOT_POSITIVE_DEFINITE + KINDS * k
            _to_lane(d.d_dq, D_dq, lane)
            _to_lane(d.d_dv, D_dv, lane)
            _to_lane(d.d_dvdot, D_dtau, lane)


@batched
def batch_dynamics_derivatives(
    mi, mf, forward, at, Q, V, A, B, row, flags, mode, D1, D2, D3, status
):
    """The derivatives of inverse (``forward`` INVERSE: batch_inverse_dynamics' τ) or forward
    (FORWARD: batch_forward_dynamics' v̇) dynamics, one entry point for both. L states at a
    time, in lanes (kernels.recursive_derivatives), for the models it covers; the others state
    by state (the tangent sweeps), as is a forward dynamics group in which an articulated
    inertia or M is not positive definite, by the derivatives' kernel at the address ``at``
    and those it calls (the vector ``Kernels.addresses(DERIVATIVES_AT)``, called, not linked:
    zeros interpreted; see kernels.engine_derivatives.derivatives_by_address).

    * INVERSE: D1[i] = dtau_dq (nv × nq), D2[i] = dtau_dv (nv × nv) and D3[i] = M (= ∂τ/∂v̇) of
      τ (gravity and joint damping) at (Q[i], V[i], A[i] = v̇); B has no rows.
    * FORWARD: D1[i] = dvdot_dq, D2[i] = dvdot_dv and D3[i] = dvdot_dtau of v̇ at (Q[i], V[i])
      with the generalized forces A[i] and the actuation B[i] (see
      kernels.engine_derivatives.drive_forward_dynamics_derivatives); A and B may have no
      rows (zero)."""
    m = model(mi, mf)
    r, rL, lanes = _begin_lanes(mi, row)
    d, dL = _derivative_rows(mi, row)
    params, work, deriv = parameters(mi, r.ws), workspace(mi, rL.ws), derivatives(mi, dL.dws)
    free = derivatives(mi, d.dws).free
    xL, tau_L, u_L, F_BL, vdot = rL.x, rL.tau, rL.u, rL.F_B, lanes.vdot
    codes = lane_array(lanes.code)[0]
    D1_L, D2_L = lane_array(dL.d_dq), lane_array(dL.d_dv)
    D3_L = lane_array(dL.d_dvdot) if forward == FORWARD else lane_array(work.M)
    in_lanes = covers(m, r.F_B[0:0]) != 0
    size, width = Q.shape[0], lane_width()
    g = next_group(flags, mode)
    while g >= 0:
        first = g * width
        count = min(width, size - first)
        good = _check_group(m, first, count, codes, Q, V, A, B)
        done = False
        if good >= 0 and in_lanes:
            _load_lanes(Q, first, count, codes, good, lane_array(xL), False)
            _load_lanes(V, first, count, codes, good, lane_array(xL)[m.nq :], False)
            if forward != FORWARD:
                _load_lanes(A, first, count, codes, good, lane_array(vdot), False)
                fresh_recursive_derivatives(m, xL, params, work, deriv, vdot, dL.d_dq, dL.d_dv)
                done = True
            else:
                _load_lanes(A, first, count, codes, good, lane_array(tau_L), False)
                _load_lanes(B, first, count, codes, good, lane_array(u_L), False)
                if forward_accelerations(m, xL, params, work, _ALL, u_L, tau_L, F_BL) < 0:
                    recursive_inverse_dynamics_derivatives(
                        m, xL, params, work, deriv, work.vdot, dL.d_dq, dL.d_dv
                    )
                    done = solve_forward_dynamics_derivatives(
                        m, params, work, deriv.L, free, dL.d_dq, dL.d_dv, dL.d_dvdot
                    )
        if good >= 0 and not done:
            if forward != FORWARD:
                _inverse_derivatives_by_state(
                    mi, mf, Q, V, A, row, first, count, codes, D1_L, D2_L, D3_L, at
                )
            else:
                _forward_derivatives_by_state(
                    mi, mf, Q, V, A, B, row, first, count, codes, D1_L, D2_L, D3_L, at
                )
        if begin_commit(flags, g, mode):
            _store_lane_matrix(D1_L, D1, first, count, codes)
            _store_lane_matrix(D2_L, D2, first, count, codes)
            _store_lane_matrix(D3_L, D3, first, count, codes)
            _store_status(codes, status, first, count)
            end_commit(flags, g, mode)
        g = next_group(flags, mode)
    return _finish(flags, mode)
