"""Batched entry points: the plant's single-state drivers (kernels.engine) run over a leading
batch dimension, in parallel with ``numba.prange``, without a Context.

Every entry point takes the flat model (``mi``, ``mf``), ``ws0`` — one Context's workspace with
its parameter stage filled in (see mallard.multibody._layout) — the batch of inputs (arrays
with a leading dimension N), a workspace ``wss`` and the outputs (leading dimension N).

``wss`` has one row per *chunk* of the batch: C rows of ``mi[WS_SIZE] + scratch_size(mi)``
scalars (C ≥ 1 when N ≥ 1; the caller picks C, typically the number of threads). Chunk c
handles the states ``c·N//C`` to ``(c+1)·N//C − 1`` one after the other in its own row: it
first copies ``ws0`` into the row's workspace (parameters once per chunk, not per state), then
per state writes x = [q; v] into the row's scratch and calls the single-state driver. Chunks run
in parallel (``prange``); interpreted (object arrays), ``prange`` is ``range``: a plain loop.

A row is [workspace | x (nq + nv) | tau (nv) | F_B (n × 6) | u (nu)], the last three being the
generalized forces, body forces (indexed by body) and actuation passed to the drivers. The
entry points of derivatives take rows longer by a derivative workspace
(kernels.derivatives.dws_size scalars), at their end.
"""

import numba

from mallard.multibody._kernels._machinery import batched, jitable, reshaped
from mallard.multibody._kernels.engine import (
    _jparam,
    _tree,
    _v1,
    _v2,
    _v4,
    drive_columns,
    drive_force_elements,
    drive_forward_dynamics,
    drive_inverse_dynamics,
    drive_path_positions,
    drive_stages,
    mass_matrix_into,
    point_jacobian_into,
)
from mallard.multibody._kernels.engine_derivatives import (
    drive_forward_dynamics_derivatives,
    drive_inverse_dynamics_derivatives,
)
from mallard.multibody._kernels.kinematics import (
    BODY,
    X_FM,
    _load_lanes,
    calc_lane_poses,
    calc_lane_X_FM,
)
from mallard.multibody._kernels.lanes import L, transpose, vstore
from mallard.multibody._layout import (
    BIAS,
    INERTIAS,
    NQ,
    NU,
    NV,
    POSITIONS,
    S_M,
    S_TAU,
    S_VDOT,
    S_X_KIND,
    S_X_PC,
    S_X_PF_MB,
    VELOCITIES,
    WS_SIZE,
    N,
    sin_cos_width,
)

_ALL = POSITIONS | VELOCITIES | INERTIAS | BIAS


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
    (so that unused inputs read as zero)."""
    size = mi[WS_SIZE]
    for j in range(size):
        row[j] = ws0[j]
    for j in range(size, row.shape[0]):
        row[j] = 0.0 * ws0[0]


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
    """The part of a row of ``wss`` past its scratch: a derivative workspace, or lanes."""
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


# ---- entry points -----------------------------------------------------------------------------
@batched
def batch_body_poses(mi, mf, ws0, Q, wss, X_WB):
    """X_WB[i, b] = the pose of body b in World at q = Q[i], a 4×4 homogeneous matrix
    [R_WB, p_WoBo_W; 0 0 0 1] (bodies indexed by BodyIndex). The states go L at a time through
    kinematics.calc_lane_poses (the last group padded with copies of its last state), in the
    row's lane part (see :func:`lane_scratch_size`)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    n, nq = mi[N], mi[NQ]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws = _part(mi, row, _WS)
        tree, jparam = _tree(mi), _jparam(mi, mf)
        X_pc = _v4(mi, ws, S_X_PC, 4, n, 4, 3)
        qL, sc, X_FML, XL = _lane_parts(mi, row)
        _identity_lanes(XL)  # World's pose
        stop = _chunk_start(c + 1, num_chunks, size)
        for first in range(_chunk_start(c, num_chunks, size), stop, L):
            for lane in range(L):
                i = min(first + lane, stop - 1)
                for j in range(nq):
                    qL[j * L + lane] = Q[i, j]
            calc_lane_X_FM(tree, jparam, Q, first, stop - 1, X_pc[X_FM], X_FML)
            calc_lane_poses(
                tree,
                jparam,
                _v4(mi, ws, S_X_PF_MB, 2, n, 4, 3),
                _v1(mi, ws, S_X_KIND, n),
                qL,
                X_FML,
                sc,
                XL,
            )
            _store_lane_poses(tree, XL, X_WB, first, min(L, stop - first))


@jitable
def _lane_parts(mi, row):
    """The lane arrays (qL, sc, X_FML, XL) of kinematics.calc_lane_poses in the row's lane
    part (past its scratch)."""
    n, nq = mi[N], mi[NQ]
    lanes = _past_scratch(mi, row)
    width = sin_cos_width(L * nq)
    q_end = L * nq
    sc_end = q_end + 3 * width
    X_FM_end = sc_end + 12 * L * n
    if lanes.shape[0] < X_FM_end + 12 * L * n:
        raise ValueError("batched poses: the rows of wss are too short for the lanes")
    sc = reshaped(lanes[q_end:sc_end], (3, width))
    return lanes[0:q_end], sc, lanes[sc_end:X_FM_end], lanes[X_FM_end : X_FM_end + 12 * L * n]


def lane_scratch_size(mi):
    """The scalars batch_body_poses needs in a row past its scratch: the lanes of q, of their
    sines and cosines, and of two poses per mobod (X_FM, X_WB)."""
    n, nq = int(mi[N]), int(mi[NQ])
    return L * nq + 3 * sin_cos_width(L * nq) + 24 * L * n


@jitable
def _identity_lanes(XL):
    """Mobod 0's lanes in the lane pose array XL = the identity pose."""
    for e in range(12):
        for lane in range(L):
            XL[e * L + lane] = 1.0 if e == 0 or e == 4 or e == 8 else 0.0


@jitable
def _store_lane_poses(tree, XL, X_WB, first, count):
    """X_WB[first + l, body of mobod k] = the 4×4 homogeneous matrix of mobod k's pose in
    lane l of XL, for every mobod and the first ``count`` lanes (rows go out whole: the
    lanes of a row's four elements, transposed)."""
    zero = 0.0 * XL[0]
    one = 1.0 + zero
    for k in range(tree.shape[0]):
        T = _load_lanes(XL, k)
        b = tree[k, BODY]
        for r in range(3):
            rows = transpose(T[3 * r], T[3 * r + 1], T[3 * r + 2], T[9 + r])
            for lane in range(count):
                vstore(X_WB[first + lane, b, r], 0, rows[lane])
        for lane in range(count):
            X = X_WB[first + lane, b]
            X[3, 0], X[3, 1], X[3, 2], X[3, 3] = zero, zero, zero, one


@batched
def batch_mass_matrix(mi, mf, ws0, Q, wss, M):
    """M[i] = M(Q[i]) (nv × nv, reflected rotor inertias included). Each M is computed in the
    workspace, then copied out row by row: the kernel's scattered writes stay in the cache, and
    the output sees sequential ones (faster on batches larger than the cache)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    nv = mi[NV]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, x = _part(mi, row, _WS), _part(mi, row, _X)
        M_ws = _v2(mi, ws, S_M, nv, nv)
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(mi, Q, Q[0:0], i, x)
            drive_columns(mi, mf, x, ws)
            drive_stages(mi, mf, x, ws, INERTIAS)
            mass_matrix_into(mi, ws, M_ws)
            for r in range(nv):
                for s in range(nv):
                    M[i, r, s] = M_ws[r, s]


@batched
def batch_inverse_dynamics(mi, mf, ws0, Q, V, VDOT, TAU, wss, tau):
    """tau[i] = M·v̇ + C·v − tau_g − TAU[i] + D·v at (q, v, v̇) = (Q[i], V[i], VDOT[i]):
    the generalized forces that, with gravity, joint damping D and TAU[i] applied, produce
    the accelerations VDOT[i] (reflected rotor inertias included). TAU may have no rows
    (zero)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    nv = mi[NV]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, x = _part(mi, row, _WS), _part(mi, row, _X)
        tau_app = _part(mi, row, _TAU)
        F_B = _part(mi, row, _F_B).reshape((mi[N], 6))
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(mi, Q, V, i, x)
            drive_force_elements(mi, mf, x, ws, _ALL, F_B, tau_app)
            if TAU.shape[0] > 0:
                for j in range(nv):
                    tau_app[j] += TAU[i, j]
            drive_inverse_dynamics(mi, mf, x, ws, 0, VDOT[i], tau_app, F_B)
            tau_i = _v1(mi, ws, S_TAU, nv)
            for j in range(nv):
                tau[i, j] = tau_i[j]


@batched
def batch_forward_dynamics(mi, mf, ws0, Q, V, TAU, U, wss, vdot, status):
    """vdot[i] = v̇ at (Q[i], V[i]) with gravity, joint damping, reflected rotor inertias,
    locked joints, the generalized forces TAU[i] and the actuation U[i] (clamped to the effort
    limits); status[i] = −1, or the first mobod whose articulated inertia is not positive
    definite. TAU and U may have no rows (zero)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    nv = mi[NV]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, x = _part(mi, row, _WS), _part(mi, row, _X)
        tau_in, u = _part(mi, row, _TAU), _part(mi, row, _U)
        F_B = _part(mi, row, _F_B).reshape((mi[N], 6))
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(mi, Q, V, i, x)
            _load_inputs(TAU, U, i, tau_in, u)
            status[i] = drive_forward_dynamics(mi, mf, x, ws, _ALL, u, tau_in, F_B)
            vdot_i = _v1(mi, ws, S_VDOT, nv)
            for j in range(nv):
                vdot[i, j] = vdot_i[j]


@batched
def batch_point_jacobian(mi, mf, ws0, Q, k, X_BF, P, wss, J):
    """J[i] = J_V_WQ_W (6 × nv, with respect to v) at q = Q[i] of the point Q fixed on mobod
    k's body at P[i] in the frame F whose pose in the body is X_BF (a 4×3 pose)."""
    size = Q.shape[0]
    num_chunks = wss.shape[0]
    for c in numba.prange(num_chunks):
        row = wss[c]
        _begin_chunk(mi, ws0, row)
        ws, x = _part(mi, row, _WS), _part(mi, row, _X)
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(mi, Q, Q[0:0], i, x)
            drive_path_positions(mi, mf, x, ws, k)
            point_jacobian_into(mi, ws, k, X_BF, P[i], J[i])


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
        for i in range(_chunk_start(c, num_chunks, size), _chunk_start(c + 1, num_chunks, size)):
            _load_state(mi, Q, V, i, x)
            _load_inputs(TAU, U, i, tau_in, u)
            status[i] = drive_forward_dynamics_derivatives(
                mi, mf, x, ws, _ALL, u, tau_in, F_B, dws, dvdot_dq[i], dvdot_dv[i], dvdot_dtau[i]
            )
