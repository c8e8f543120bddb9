"""Batched entry points: the plant's single-state stages and results (kernels.engine) run over
a leading batch dimension, in parallel with ``numba.prange``, without a Context.

Every entry point takes the flat model (``mi``, ``mf``), ``ws0`` — one Context's workspace with
its parameter stage filled in (see mallard.multibody._layout) — the batch of inputs (arrays
with a leading dimension N), a workspace ``wss`` and the outputs (leading dimension N).

``wss`` has one row per *chunk* of the batch: C rows (C ≥ 1 when N ≥ 1; the caller picks C,
typically the number of threads). Chunk c handles the states ``c·N//C`` to ``(c+1)·N//C − 1``
in its own row, and chunks run in parallel (``prange``; interpreted, with object arrays, a
plain loop). A row starts with the sections of _layout.BATCH_ROW (a workspace, one state x,
generalized forces, body forces indexed by body, actuation), then a part of the entry
point's own:

- Kinematics and dynamics go L states at a time (kernels.lanes): past the BATCH_ROW, a row
  holds the L lanes of a _layout.LANE_ROW (a batch row's, then v̇ and a point;
  ``_layout.LANES · sizes.lane`` scalars). A chunk first copies ``ws0`` into its row's
  workspace and into every lane of the lane row's (parameters once per chunk, not per
  state); then, per group of L states (the last group padded with copies of its last
  state), it writes their x into the lane row and runs the stages on lane views of it
  (kernels.lane_views), the parameters coming from the row's workspace. The results are
  those of the single-state drivers, to the last bit. Interpreted, the lanes are one wide
  (``lane_width()``): the same code then computes each state with plain scalars.
- Derivatives go state by state: past the BATCH_ROW, a row holds a derivative workspace
  (_layout.DERIVATIVES, ``sizes.dws`` scalars).
"""

import numba

from mallard.multibody._kernels._machinery import batched, jitable, reshaped
from mallard.multibody._kernels.dynamics import calc_body_inertias, calc_mass_matrix
from mallard.multibody._kernels.engine import (
    force_elements,
    forward_dynamics,
    inverse_dynamics,
    point_jacobian,
)
from mallard.multibody._kernels.engine_derivatives import (
    drive_forward_dynamics_derivatives,
    drive_inverse_dynamics_derivatives,
)
from mallard.multibody._kernels.kinematics import COLUMNS, POSES, calc_position_kinematics
from mallard.multibody._kernels.kinematics import X_WB as X_WB_LAYER
from mallard.multibody._kernels.lane_views import lane_array, lane_view, lane_width
from mallard.multibody._kernels.lanes import transpose, vstore
from mallard.multibody._kernels.pose import load_pose
from mallard.multibody._kernels.views import (
    batch_row,
    lane_row,
    model,
    parameters,
    workspace,
)
from mallard.multibody._layout import BIAS, BODY, INERTIAS, POSITIONS, SIZE, VELOCITIES

_ALL = POSITIONS | VELOCITIES | INERTIAS | BIAS
_WS, _ROW, _LANE = SIZE["ws"], SIZE["row"], SIZE["lane"]


# ---- helpers ----------------------------------------------------------------------------------
@jitable
def _chunk_start(c, num_chunks, size):
    """The first state of chunk c of ``num_chunks`` over a batch of ``size``."""
    return (c * size) // num_chunks


@jitable
def _fill(a, value):
    """a[:] = value (a 1-D array)."""
    for j in range(a.shape[0]):
        a[j] = value


@jitable
def _begin_chunk(mi, ws0, row):
    """The BatchRow views of ``row``, with ``ws0`` copied into its workspace and the rest of
    it zero (so that unused inputs read as zero); the part past it is left as it is."""
    size = mi[_WS]
    for j in range(size):
        row[j] = ws0[j]
    _fill(row[size : mi[_ROW]], 0.0 * ws0[0])
    return batch_row(mi, row)


@jitable
def _past_row(mi, row):
    """The part of a row of ``wss`` past its BATCH_ROW: lanes, or a derivative workspace."""
    return row[mi[_ROW] :]


@jitable
def _begin_lanes(mi, ws0, row):
    """The BatchRow and LaneRow views (lane views, ``lane_width()`` lanes) of the lane row
    past ``row``'s BATCH_ROW, with ``ws0`` in every lane of its workspace (World's rows of the
    state's sections, which kernels expect set, included) and the rest of its batch row zero."""
    width, size = lane_width(), mi[_LANE]
    past = _past_row(mi, row)
    if past.shape[0] < width * size:
        raise ValueError("batched kernels: the rows of wss are too short for the lanes")
    lanes = reshaped(past[0 : width * size], (size, width))
    views = lane_row(mi, lane_view(lanes))
    ws_L = views.row
    for j in range(mi[_WS]):
        ws_L[j] = ws0[j]
    for j in range(mi[_WS], mi[_ROW]):
        for lane in range(width):
            lanes[j, lane] = 0.0 * ws0[0]
    return batch_row(mi, views.row), views


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


# ---- lanes: L states at once (see kernels.lanes) ------------------------------------------------
@jitable
def _load_lanes(A, first, stop, lanes, add):
    """lanes[j, l] = A[first + l, j] (or += if ``add``) for every column j of A, or
    A[stop − 1, j] past ``stop`` (the last group of states is padded with copies of its last
    state); none if A has no rows."""
    if A.shape[0] == 0:
        return
    for lane in range(lanes.shape[1]):
        i = min(first + lane, stop - 1)
        for j in range(A.shape[1]):
            lanes[j, lane] = lanes[j, lane] + A[i, j] if add else A[i, j]


@jitable
def _store_lane_matrix(lanes, A, first, count):
    """A[first + l] = lane l of ``lanes`` (m × n × L), for l < count: rows go out four
    elements at a time (their lanes transposed)."""
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


# ---- entry points -----------------------------------------------------------------------------
@batched
def batch_body_poses(mi, mf, ws0, Q, wss, X_WB):
    """X_WB[i, b] = the pose of body b in World at q = Q[i], a 4×4 homogeneous matrix
    [R_WB, p_WoBo_W; 0 0 0 1] (bodies indexed by BodyIndex). L states at a time, in lanes."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        m = model(mi, mf)  # (namedtuples are made inside a prange loop, not passed into one)
        row = wss[c]
        r = _begin_chunk(mi, ws0, row)
        rL, _ = _begin_lanes(mi, ws0, row)
        params, work = parameters(mi, r.ws), workspace(mi, rL.ws)
        X_pc, tree = work.X_pc, m.tree
        zero = 0.0 * ws0[0]
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(rL.x), False)
            calc_position_kinematics(m, params, work, rL.x[0 : m.nq], POSES, 0)
            count = min(lane_width(), stop - first)
            for k in range(m.n):
                T = load_pose(X_pc[X_WB_LAYER, k])
                b = tree[k, BODY]
                for r_ in range(3):  # (rows go out whole: the lanes of its elements, transposed)
                    rows = transpose(T[3 * r_], T[3 * r_ + 1], T[3 * r_ + 2], T[9 + r_])
                    for lane in range(count):
                        vstore(X_WB[first + lane, b, r_], 0, rows[lane])
                for lane in range(count):
                    vstore(X_WB[first + lane, b, 3], 0, zero)
                    X_WB[first + lane, b, 3, 3] = 1.0 + zero


@batched
def batch_mass_matrix(mi, mf, ws0, Q, wss, M):
    """M[i] = M(Q[i]) (nv × nv, reflected rotor inertias included). L states at a time, in
    lanes."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        m = model(mi, mf)  # (namedtuples are made inside a prange loop, not passed into one)
        row = wss[c]
        r = _begin_chunk(mi, ws0, row)
        rL, _ = _begin_lanes(mi, ws0, row)
        params, work = parameters(mi, r.ws), workspace(mi, rL.ws)
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(rL.x), False)
            calc_position_kinematics(m, params, work, rL.x[0 : m.nq], COLUMNS, 0)
            calc_body_inertias(m, params, work)
            calc_mass_matrix(m, params, work, work.M)
            _store_lane_matrix(lane_array(work.M), M, first, min(lane_width(), stop - first))


@batched
def batch_inverse_dynamics(mi, mf, ws0, Q, V, VDOT, TAU, wss, tau):
    """tau[i] = M·v̇ + C·v − tau_g − TAU[i] + D·v at (q, v, v̇) = (Q[i], V[i], VDOT[i]):
    the generalized forces that, with gravity, joint damping D and TAU[i] applied, produce
    the accelerations VDOT[i] (reflected rotor inertias included). TAU may have no rows
    (zero). L states at a time, in lanes."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        m = model(mi, mf)  # (namedtuples are made inside a prange loop, not passed into one)
        row = wss[c]
        r = _begin_chunk(mi, ws0, row)
        rL, lanes = _begin_lanes(mi, ws0, row)
        params, work = parameters(mi, r.ws), workspace(mi, rL.ws)
        xL, tau_app, vdot = rL.x, rL.tau, lanes.vdot
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(xL), False)
            _load_lanes(V, first, stop, lane_array(xL)[m.nq :], False)
            _load_lanes(VDOT, first, stop, lane_array(vdot), False)
            force_elements(m, xL, params, work, _ALL, rL.F_B, tau_app)
            if TAU.shape[0] > 0:
                _load_lanes(TAU, first, stop, lane_array(tau_app), True)
            inverse_dynamics(m, xL, params, work, 0, vdot, tau_app, rL.F_B)
            _store_lane_matrix(
                lane_array(reshaped(work.tau, (1, m.nv))),
                tau.reshape((size, 1, m.nv)),
                first,
                min(lane_width(), stop - first),
            )


@batched
def batch_forward_dynamics(mi, mf, ws0, Q, V, TAU, U, wss, vdot, status):
    """vdot[i] = v̇ at (Q[i], V[i]) with gravity, joint damping, reflected rotor inertias,
    locked joints, the generalized forces TAU[i] and the actuation U[i] (clamped to the effort
    limits); status[i] = −1, or the first mobod whose articulated inertia is not positive
    definite. TAU and U may have no rows (zero). L states at a time, in lanes; a group in
    which a state fails goes again state by state."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        m = model(mi, mf)  # (namedtuples are made inside a prange loop, not passed into one)
        nq, nv = m.nq, m.nv
        row = wss[c]
        r = _begin_chunk(mi, ws0, row)
        params, work1 = parameters(mi, r.ws), workspace(mi, r.ws)
        rL, _ = _begin_lanes(mi, ws0, row)
        work = workspace(mi, rL.ws)
        xL, tau_L, u_L, F_BL = rL.x, rL.tau, rL.u, rL.F_B
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(xL), False)
            _load_lanes(V, first, stop, lane_array(xL)[nq:], False)
            _load_lanes(TAU, first, stop, lane_array(tau_L), False)  # (no rows: stays zero)
            _load_lanes(U, first, stop, lane_array(u_L), False)
            count = min(lane_width(), stop - first)
            if forward_dynamics(m, xL, params, work, _ALL, u_L, tau_L, F_BL) < 0:
                _store_lane_matrix(
                    lane_array(reshaped(work.vdot, (1, nv))),
                    vdot.reshape((size, 1, nv)),
                    first,
                    count,
                )
                for i in range(first, first + count):
                    status[i] = -1
                continue
            for i in range(first, first + count):  # (which states fail, and the others' v̇)
                _load_state(m, Q, V, i, r.x)
                _load_inputs(TAU, U, i, r.tau, r.u)
                status[i] = forward_dynamics(m, r.x, params, work1, _ALL, r.u, r.tau, r.F_B)
                vdot_i = work1.vdot
                for j in range(nv):
                    vdot[i, j] = vdot_i[j]


@batched
def batch_point_jacobian(mi, mf, ws0, Q, k, X_BF, P, wss, J):
    """J[i] = J_V_WQ_W (6 × nv, with respect to v) at q = Q[i] of the point Q fixed on mobod
    k's body at P[i] in the frame F whose pose in the body is X_BF (a 4×3 pose). L states at
    a time, in lanes."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        m = model(mi, mf)  # (namedtuples are made inside a prange loop, not passed into one)
        row = wss[c]
        r = _begin_chunk(mi, ws0, row)
        rL, lanes = _begin_lanes(mi, ws0, row)
        params, work = parameters(mi, r.ws), workspace(mi, rL.ws)
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(rL.x), False)
            _load_lanes(P, first, stop, lane_array(lanes.p), False)
            calc_position_kinematics(m, params, work, rL.x[0 : m.nq], COLUMNS, k)
            point_jacobian(m, work, k, X_BF, lanes.p, work.J)
            _store_lane_matrix(lane_array(work.J), J, first, min(lane_width(), stop - first))


@batched
def batch_inverse_dynamics_derivatives(mi, mf, ws0, Q, V, VDOT, wss, dtau_dq, dtau_dv, M):
    """dtau_dq[i] (nv × nq), dtau_dv[i] (nv × nv) and M[i] (= ∂τ/∂v̇) of batch_inverse_dynamics'
    tau (gravity and joint damping) at (Q[i], V[i], VDOT[i])."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        m = model(mi, mf)  # (namedtuples are made inside a prange loop, not passed into one)
        row = wss[c]
        r = _begin_chunk(mi, ws0, row)
        M_i = workspace(mi, r.ws).M
        dws = _past_row(mi, row)
        _fill(dws, 0.0 * ws0[0])
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(m, Q, V, i, r.x)
            drive_inverse_dynamics_derivatives(
                mi, mf, r.x, r.ws, _ALL, VDOT[i], r.F_B, dws, dtau_dq[i], dtau_dv[i]
            )
            for a in range(m.nv):
                for b in range(m.nv):
                    M[i, a, b] = M_i[a, b]


@batched
def batch_forward_dynamics_derivatives(
    mi, mf, ws0, Q, V, TAU, U, wss, dvdot_dq, dvdot_dv, dvdot_dtau, status
):
    """dvdot_dq[i], dvdot_dv[i] and dvdot_dtau[i] of batch_forward_dynamics' v̇ at (Q[i], V[i])
    with TAU[i] and U[i] (see kernels.engine_derivatives.drive_forward_dynamics_derivatives);
    status[i] as batch_forward_dynamics'. TAU and U may have no rows (zero)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        m = model(mi, mf)  # (namedtuples are made inside a prange loop, not passed into one)
        row = wss[c]
        r = _begin_chunk(mi, ws0, row)
        dws = _past_row(mi, row)
        _fill(dws, 0.0 * ws0[0])
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(m, Q, V, i, r.x)
            _load_inputs(TAU, U, i, r.tau, r.u)
            status[i] = drive_forward_dynamics_derivatives(
                mi, mf, r.x, r.ws, _ALL, r.u, r.tau, r.F_B, dws, dvdot_dq[i], dvdot_dv[i],
                dvdot_dtau[i],
            )  # fmt: skip
