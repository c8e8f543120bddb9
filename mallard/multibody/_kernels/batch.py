"""Batched entry points: the plant's single-state drivers (kernels.engine) run over a leading
batch dimension, in parallel with ``numba.prange``, without a Context.

Every entry point takes the flat model (``mi``, ``mf``), ``ws0`` — one Context's workspace with
its parameter stage filled in (see mallard.multibody._layout) — the batch of inputs (arrays
with a leading dimension N), a workspace ``wss`` and the outputs (leading dimension N).

``wss`` has one row per *chunk* of the batch: C rows (C ≥ 1 when N ≥ 1; the caller picks C,
typically the number of threads). Chunk c handles the states ``c·N//C`` to ``(c+1)·N//C − 1``
in its own row, and chunks run in parallel (``prange``; interpreted, with object arrays, a
plain loop). A row is [workspace | x (nq + nv) | tau (nv) | F_B (n × 6) | u (nu)] (the last
three: the generalized forces, body forces indexed by body, and actuation passed to the
drivers), of ``mi[WS_SIZE] + scratch_size(mi)`` scalars, then a part of the entry point's own:

- Kinematics and dynamics go L states at a time (kernels.lanes): past its scratch, a row holds
  the lanes of a second row, and of v̇ and a point (:func:`lane_scratch_size`). A chunk first
  copies ``ws0`` into its row's workspace and into every lane of the lane row's (parameters
  once per chunk, not per state); then, per group of L states (the last group padded with
  copies of its last state), it writes their x into the lane row and calls the drivers on lane
  views of it (kernels.lane_views), the parameters coming from the row's workspace. The results
  are those of the single-state drivers, to the last bit. Interpreted, the lanes are one wide
  (``lane_width()``): the same code then computes each state with plain scalars.
- Derivatives go state by state: past its scratch, a row holds a derivative workspace
  (kernels.derivatives.dws_size scalars).
"""

import numba

from mallard.multibody._kernels._machinery import batched, jitable, reshaped
from mallard.multibody._kernels.engine import (
    _position_kinematics,
    _tree,
    _v1,
    _v2,
    _v4,
    body_inertias,
    drive_force_elements,
    drive_forward_dynamics,
    drive_inverse_dynamics,
    mass_matrix_into,
    point_jacobian_into,
)
from mallard.multibody._kernels.engine_derivatives import (
    drive_forward_dynamics_derivatives,
    drive_inverse_dynamics_derivatives,
)
from mallard.multibody._kernels.kinematics import BODY, COLUMNS, POSES
from mallard.multibody._kernels.kinematics import X_WB as X_WB_LAYER
from mallard.multibody._kernels.lane_views import lane_array, lane_view, lane_width
from mallard.multibody._kernels.lanes import L, transpose, vstore
from mallard.multibody._kernels.pose import load_pose
from mallard.multibody._layout import (
    BIAS,
    INERTIAS,
    NQ,
    NU,
    NV,
    POSITIONS,
    S_J,
    S_M,
    S_TAU,
    S_VDOT,
    S_X_PC,
    VELOCITIES,
    WS_SIZE,
    N,
)

_ALL = POSITIONS | VELOCITIES | INERTIAS | BIAS


@jitable
def scratch_size(mi):
    """The scalars a row of ``wss`` holds after the workspace (x, tau, F_B, u)."""
    n, nq, nv, nu = int(mi[N]), int(mi[NQ]), int(mi[NV]), int(mi[NU])
    return nq + nv + nv + 6 * n + nu


# ---- helpers ----------------------------------------------------------------------------------
@jitable
def _chunk_start(c, num_chunks, size):
    """The first state of chunk c of ``num_chunks`` over a batch of ``size``."""
    return (c * size) // num_chunks


@jitable
def _begin_chunk(mi, ws0, row):
    """Copies the Context's workspace ``ws0`` into the row's workspace and zeroes its scratch
    (so that unused inputs read as zero), not the part past it (see :func:`_past_scratch`)."""
    size = mi[WS_SIZE]
    for j in range(size):
        row[j] = ws0[j]
    _fill(row[size : size + scratch_size(mi)], 0.0 * ws0[0])


@jitable
def _fill(a, value):
    """a[:] = value (a 1-D array)."""
    for j in range(a.shape[0]):
        a[j] = value


# Parts of a row of wss.
_WS = 0
_X = 1
_TAU = 2
_F_B = 3
_U = 4


@jitable
def _part(mi, row, part):
    """The part ``part`` (_WS, _X, _TAU, _F_B flattened, or _U) of a row of ``wss``."""
    n, nq, nv, nu = mi[N], mi[NQ], mi[NV], mi[NU]
    start = 0
    stop = mi[WS_SIZE]
    sizes = (nq + nv, nv, 6 * n, nu)
    for j in range(part):
        start = stop
        stop = start + sizes[j]
    return row[start:stop]


@jitable
def _load_state(mi, Q, V, i, x):
    """x = [Q[i]; V[i]] (v = 0 if V has no rows)."""
    nq, nv = mi[NQ], mi[NV]
    for j in range(nq):
        x[j] = Q[i, j]
    if V.shape[0] > 0:
        for j in range(nv):
            x[nq + j] = V[i, j]


@jitable
def _past_scratch(mi, row):
    """The part of a row of ``wss`` past its scratch: lanes, or a derivative workspace."""
    n, nq, nv, nu = mi[N], mi[NQ], mi[NV], mi[NU]
    return row[mi[WS_SIZE] + nq + nv + nv + 6 * n + nu :]


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
def lane_scratch_size(mi):
    """The scalars the entry points computing in lanes need in a row past its scratch: the L
    lanes (at most) of a row (workspace and scratch, see :func:`_part`), of v̇ and of a
    point."""
    return L * (int(mi[WS_SIZE]) + scratch_size(mi) + int(mi[NV]) + 3)


@jitable
def _lane_row(mi, row, width):
    """The array (size × ``width``) of the lane row in the part of ``row`` past its scratch:
    the lanes of a row (see :func:`_part`), then of v̇ (nv) and of a point (3)."""
    size = mi[WS_SIZE] + scratch_size(mi) + mi[NV] + 3
    lanes = _past_scratch(mi, row)
    if lanes.shape[0] < width * size:
        raise ValueError("batched kernels: the rows of wss are too short for the lanes")
    return reshaped(lanes[0 : width * size], (size, width))


@jitable
def _begin_lanes(mi, ws0, lanes):
    """The lane view of the lane row ``lanes`` (see :func:`_lane_row`), with ``ws0`` in every
    lane of its workspace (World's rows of the state's sections, which kernels expect set,
    included) and its scratch zero."""
    row_L = lane_view(lanes)
    ws_L = _part(mi, row_L, _WS)
    for j in range(mi[WS_SIZE]):
        ws_L[j] = ws0[j]
    for j in range(mi[WS_SIZE], mi[WS_SIZE] + scratch_size(mi)):
        for lane in range(lanes.shape[1]):
            lanes[j, lane] = 0.0 * ws0[0]
    return row_L


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
    [R_WB, p_WoBo_W; 0 0 0 1] (bodies indexed by BodyIndex). L states at a time, in lanes
    (see :func:`lane_scratch_size`)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    n = mi[N]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, row_L = _part(mi, row, _WS), _begin_lanes(mi, ws0, _lane_row(mi, row, lane_width()))
        wsL, xL = _part(mi, row_L, _WS), _part(mi, row_L, _X)
        X_pc = _v4(mi, wsL, S_X_PC, 4, n, 4, 3)
        tree = _tree(mi)
        zero = 0.0 * ws0[0]
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(xL), False)
            _position_kinematics(mi, mf, xL, ws, wsL, POSES, 0)
            count = min(lane_width(), stop - first)
            for k in range(n):
                T = load_pose(X_pc[X_WB_LAYER, k])
                b = tree[k, BODY]
                for r in range(3):  # (rows go out whole: the lanes of its elements, transposed)
                    rows = transpose(T[3 * r], T[3 * r + 1], T[3 * r + 2], T[9 + r])
                    for lane in range(count):
                        vstore(X_WB[first + lane, b, r], 0, rows[lane])
                for lane in range(count):
                    vstore(X_WB[first + lane, b, 3], 0, zero)
                    X_WB[first + lane, b, 3, 3] = 1.0 + zero


@batched
def batch_mass_matrix(mi, mf, ws0, Q, wss, M):
    """M[i] = M(Q[i]) (nv × nv, reflected rotor inertias included). L states at a time, in
    lanes (see :func:`lane_scratch_size`)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    nv = mi[NV]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, row_L = _part(mi, row, _WS), _begin_lanes(mi, ws0, _lane_row(mi, row, lane_width()))
        wsL, xL = _part(mi, row_L, _WS), _part(mi, row_L, _X)
        M_L = _v2(mi, wsL, S_M, nv, nv)
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(xL), False)
            _position_kinematics(mi, mf, xL, ws, wsL, COLUMNS, 0)
            body_inertias(mi, ws, wsL)
            mass_matrix_into(mi, ws, wsL, M_L)
            _store_lane_matrix(lane_array(M_L), M, first, min(lane_width(), stop - first))


@batched
def batch_inverse_dynamics(mi, mf, ws0, Q, V, VDOT, TAU, wss, tau):
    """tau[i] = M·v̇ + C·v − tau_g − TAU[i] + D·v at (q, v, v̇) = (Q[i], V[i], VDOT[i]):
    the generalized forces that, with gravity, joint damping D and TAU[i] applied, produce
    the accelerations VDOT[i] (reflected rotor inertias included). TAU may have no rows
    (zero). L states at a time, in lanes (see :func:`lane_scratch_size`)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    n, nq, nv = mi[N], mi[NQ], mi[NV]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, row_L = _part(mi, row, _WS), _begin_lanes(mi, ws0, _lane_row(mi, row, lane_width()))
        wsL, xL, tau_app = _part(mi, row_L, _WS), _part(mi, row_L, _X), _part(mi, row_L, _TAU)
        F_B = reshaped(_part(mi, row_L, _F_B), (n, 6))
        vdot = _past_scratch(mi, row_L)[0:nv]
        tau_L = _v1(mi, wsL, S_TAU, nv)
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(xL), False)
            _load_lanes(V, first, stop, lane_array(xL)[nq:], False)
            _load_lanes(VDOT, first, stop, lane_array(vdot), False)
            drive_force_elements(mi, mf, xL, ws, wsL, _ALL, F_B, tau_app)
            if TAU.shape[0] > 0:
                _load_lanes(TAU, first, stop, lane_array(tau_app), True)
            drive_inverse_dynamics(mi, mf, xL, ws, wsL, 0, vdot, tau_app, F_B)
            _store_lane_matrix(
                lane_array(reshaped(tau_L, (1, nv))),
                tau.reshape((size, 1, nv)),
                first,
                min(lane_width(), stop - first),
            )


@batched
def batch_forward_dynamics(mi, mf, ws0, Q, V, TAU, U, wss, vdot, status):
    """vdot[i] = v̇ at (Q[i], V[i]) with gravity, joint damping, reflected rotor inertias,
    locked joints, the generalized forces TAU[i] and the actuation U[i] (clamped to the effort
    limits); status[i] = −1, or the first mobod whose articulated inertia is not positive
    definite. TAU and U may have no rows (zero). L states at a time, in lanes (see
    :func:`lane_scratch_size`); a group in which a state fails goes again state by state."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    n, nq, nv = mi[N], mi[NQ], mi[NV]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, x = _part(mi, row, _WS), _part(mi, row, _X)
        tau_in, u = _part(mi, row, _TAU), _part(mi, row, _U)
        F_B = reshaped(_part(mi, row, _F_B), (n, 6))
        row_L = _begin_lanes(mi, ws0, _lane_row(mi, row, lane_width()))
        wsL, xL = _part(mi, row_L, _WS), _part(mi, row_L, _X)
        tau_L, u_L = _part(mi, row_L, _TAU), _part(mi, row_L, _U)
        F_BL = reshaped(_part(mi, row_L, _F_B), (n, 6))
        vdot_L = _v1(mi, wsL, S_VDOT, nv)
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(xL), False)
            _load_lanes(V, first, stop, lane_array(xL)[nq:], False)
            _load_lanes(TAU, first, stop, lane_array(tau_L), False)  # (no rows: stays zero)
            _load_lanes(U, first, stop, lane_array(u_L), False)
            count = min(lane_width(), stop - first)
            if drive_forward_dynamics(mi, mf, xL, ws, wsL, _ALL, u_L, tau_L, F_BL) < 0:
                _store_lane_matrix(
                    lane_array(reshaped(vdot_L, (1, nv))),
                    vdot.reshape((size, 1, nv)),
                    first,
                    count,
                )
                for i in range(first, first + count):
                    status[i] = -1
                continue
            for i in range(first, first + count):  # (which states fail, and the others' v̇)
                _load_state(mi, Q, V, i, x)
                _load_inputs(TAU, U, i, tau_in, u)
                status[i] = drive_forward_dynamics(mi, mf, x, ws, ws, _ALL, u, tau_in, F_B)
                vdot_i = _v1(mi, ws, S_VDOT, nv)
                for j in range(nv):
                    vdot[i, j] = vdot_i[j]


@batched
def batch_point_jacobian(mi, mf, ws0, Q, k, X_BF, P, wss, J):
    """J[i] = J_V_WQ_W (6 × nv, with respect to v) at q = Q[i] of the point Q fixed on mobod
    k's body at P[i] in the frame F whose pose in the body is X_BF (a 4×3 pose). L states at
    a time, in lanes (see :func:`lane_scratch_size`)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, row_L = _part(mi, row, _WS), _begin_lanes(mi, ws0, _lane_row(mi, row, lane_width()))
        wsL, xL = _part(mi, row_L, _WS), _part(mi, row_L, _X)
        pL = _past_scratch(mi, row_L)[mi[NV] :]
        J_L = _v2(mi, wsL, S_J, 6, mi[NV])
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, lane_width()):
            _load_lanes(Q, first, stop, lane_array(xL), False)
            _load_lanes(P, first, stop, lane_array(pL), False)
            _position_kinematics(mi, mf, xL, ws, wsL, COLUMNS, k)
            point_jacobian_into(mi, wsL, k, X_BF, pL, J_L)
            _store_lane_matrix(lane_array(J_L), J, first, min(lane_width(), stop - first))


@batched
def batch_inverse_dynamics_derivatives(mi, mf, ws0, Q, V, VDOT, wss, dtau_dq, dtau_dv, M):
    """dtau_dq[i] (nv × nq), dtau_dv[i] (nv × nv) and M[i] (= ∂τ/∂v̇) of batch_inverse_dynamics'
    tau (gravity and joint damping) at (Q[i], V[i], VDOT[i])."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    nv = mi[NV]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, x = _part(mi, row, _WS), _part(mi, row, _X)
        F_B = _part(mi, row, _F_B).reshape((mi[N], 6))
        dws = _past_scratch(mi, row)
        _fill(dws, 0.0 * ws0[0])
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(mi, Q, V, i, x)
            drive_inverse_dynamics_derivatives(
                mi, mf, x, ws, _ALL, VDOT[i], F_B, dws, dtau_dq[i], dtau_dv[i]
            )
            M_i = _v2(mi, ws, S_M, nv, nv)
            for r in range(nv):
                for s in range(nv):
                    M[i, r, s] = M_i[r, s]


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
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, x = _part(mi, row, _WS), _part(mi, row, _X)
        tau_in, u = _part(mi, row, _TAU), _part(mi, row, _U)
        F_B = _part(mi, row, _F_B).reshape((mi[N], 6))
        dws = _past_scratch(mi, row)
        _fill(dws, 0.0 * ws0[0])
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(mi, Q, V, i, x)
            _load_inputs(TAU, U, i, tau_in, u)
            status[i] = drive_forward_dynamics_derivatives(
                mi, mf, x, ws, _ALL, u, tau_in, F_B, dws, dvdot_dq[i], dvdot_dv[i], dvdot_dtau[i]
            )
