"""The plant's compiled entry points ("drivers"), each one call per API method.

A driver takes the flat model (``mi`` int64, ``mf`` float64), the state ``x = [q; v]`` and the
Context's workspace ``ws`` (see mallard.multibody._layout), plus a bit mask ``need`` of the
stages (positions, velocities, inertias, bias) it must bring up to date first, then computes
its result into ``ws``. Few arguments and no allocation keep a call cheap from Python.
"""

from mallard.multibody._kernels._machinery import jitable, reshaped
from mallard.multibody._kernels.dynamics import (
    calc_acceleration_bias,
    calc_body_inertias,
    calc_forward_dynamics,
    calc_inverse_dynamics,
    calc_mass_matrix,
    calc_qdot,
)
from mallard.multibody._kernels.jacobians import calc_point_jacobian
from mallard.multibody._kernels.kinematics import (
    ALL,
    BODY,
    POSES,
    calc_position_kinematics,
    calc_velocity_kinematics,
)
from mallard.multibody._kernels.lanes import clamp
from mallard.multibody._layout import (
    ACTUATED_V,
    BIAS,
    GRAVITY_MASK,
    INERTIAS,
    NQ,
    NU,
    NV,
    OFFSETS,
    POSITIONS,
    S_A_BIAS,
    S_A_WB,
    S_BIAS_WS,
    S_COM_B,
    S_DAMPING,
    S_DINV,
    S_EFFORT_LIMITS,
    S_F,
    S_F6,
    S_F_R,
    S_F_TOTAL,
    S_G_B,
    S_G_W,
    S_H_FM,
    S_H_PB_W,
    S_H_R,
    S_H_W,
    S_I_W,
    S_IC_H,
    S_IC_I,
    S_IC_M,
    S_J,
    S_LOCKED,
    S_M,
    S_M_B,
    S_M_W,
    S_P,
    S_PATH,
    S_QDOT,
    S_REFLECTED,
    S_SIN_COS,
    S_TAU,
    S_TAU_TOTAL,
    S_U,
    S_U_ABA,
    S_V_WB,
    S_VDOT,
    S_X_KIND,
    S_X_PC,
    S_X_PF_MB,
    S_Z,
    TREE,
    V_END,
    VELOCITIES,
    N,
    sin_cos_width,
)

jitable(sin_cos_width)  # (a rule of the layout that kernels apply too)


# ---- views of the flat model and the workspace --------------------------------------------
@jitable
def _v1(mi, ws, section, a):
    o = mi[OFFSETS + section]
    return ws[o : o + a]


@jitable
def _v2(mi, ws, section, a, b):
    o = mi[OFFSETS + section]
    return reshaped(ws[o : o + a * b], (a, b))


@jitable
def _v3(mi, ws, section, a, b, c):
    o = mi[OFFSETS + section]
    return reshaped(ws[o : o + a * b * c], (a, b, c))


@jitable
def _v4(mi, ws, section, a, b, c, d):
    o = mi[OFFSETS + section]
    return reshaped(ws[o : o + a * b * c * d], (a, b, c, d))


@jitable
def _tree(mi):
    n = mi[N]
    return reshaped(mi[mi[TREE] : mi[TREE] + 6 * n], (n, 6))


@jitable
def _jparam(mi, mf):
    return reshaped(mf[0 : 4 * mi[N]], (mi[N], 4))


# ---- stages -----------------------------------------------------------------------------------
@jitable
def run_stages(mi, mf, x, pws, ws, need):
    """Brings the stages in ``need`` of ``ws`` (a workspace, or a lane view of one: see
    kernels.batch) up to date, with the parameters of ``pws`` (for a plant's Context: both
    its workspace): positions (X_pc, H_PB_W), velocities (V_WB), inertias (m_W, h_W, I_W),
    bias (A_bias). A stage's prerequisites must be in ``need`` or already up to date. (Views
    of the workspace are made only for the stages computed.)"""
    if need & POSITIONS:
        _position_kinematics(mi, mf, x, pws, ws, ALL, 0)
    if need & (VELOCITIES | INERTIAS | BIAS) == 0:
        return
    n, nq, nv = mi[N], mi[NQ], mi[NV]
    tree = _tree(mi)
    X_pc = _v4(mi, ws, S_X_PC, 4, n, 4, 3)
    V_WB = _v2(mi, ws, S_V_WB, n, 6)
    if need & VELOCITIES:
        calc_velocity_kinematics(tree, X_pc, _v2(mi, ws, S_H_PB_W, nv, 6), x[nq : nq + nv], V_WB)
    if need & INERTIAS:
        body_inertias(mi, pws, ws)
    if need & BIAS:
        calc_acceleration_bias(
            tree,
            _jparam(mi, mf),
            x[0:nq],
            x[nq : nq + nv],
            X_pc,
            V_WB,
            _v2(mi, ws, S_A_BIAS, n, 6),
            _v1(mi, ws, S_BIAS_WS, 12),
        )


@jitable
def _position_kinematics(mi, mf, x, pws, ws, what, tip):
    """kinematics.calc_position_kinematics on the sections of ``ws`` (a workspace, or a lane
    view of one: see kernels.batch), with the parameters of ``pws``."""
    n, nq, nv = mi[N], mi[NQ], mi[NV]
    calc_position_kinematics(
        _tree(mi),
        _jparam(mi, mf),
        _v4(mi, pws, S_X_PF_MB, 2, n, 4, 3),
        _v1(mi, pws, S_X_KIND, n),
        x[0:nq],
        _v4(mi, ws, S_X_PC, 4, n, 4, 3),
        _v2(mi, ws, S_H_PB_W, nv, 6),
        _v2(mi, ws, S_H_FM, 6, 6),
        what,
        tip,
        _v1(mi, pws, S_PATH, n),
        _v2(mi, ws, S_SIN_COS, 3, sin_cos_width(nq)),
    )


@jitable
def body_inertias(mi, pws, ws):
    """The inertias stage (dynamics.calc_body_inertias) on the sections of ``ws`` (the poses
    of its positions stage up to date), with the parameters of ``pws``."""
    n = mi[N]
    calc_body_inertias(
        _tree(mi),
        _v4(mi, ws, S_X_PC, 4, n, 4, 3),
        _v1(mi, pws, S_M_B, n),
        _v2(mi, pws, S_COM_B, n, 3),
        _v3(mi, pws, S_G_B, n, 3, 3),
        _v1(mi, ws, S_M_W, n),
        _v2(mi, ws, S_H_W, n, 3),
        _v3(mi, ws, S_I_W, n, 3, 3),
    )


@jitable
def drive_stages(mi, mf, x, ws, need):
    """Only brings the stages in ``need`` up to date."""
    run_stages(mi, mf, x, ws, ws, need)


@jitable
def drive_poses(mi, mf, x, ws):
    """Only the poses X_WB of every mobod (layer 3 of X_pc, a part of the positions stage):
    the driver of pose queries."""
    _position_kinematics(mi, mf, x, ws, ws, POSES, 0)


# ---- results ------------------------------------------------------------------------------------
@jitable
def drive_mass_matrix(mi, mf, x, ws, need):
    """ws[M] = M(q) (see :func:`mass_matrix_into`)."""
    run_stages(mi, mf, x, ws, ws, need)
    nv = mi[NV]
    mass_matrix_into(mi, ws, ws, _v2(mi, ws, S_M, nv, nv))


@jitable
def mass_matrix_into(mi, pws, ws, M):
    """M = M(q) (nv × nv: composite bodies, reflected inertias on the diagonal); the
    positions and inertias stages of ``ws`` must be up to date (parameters: ``pws``)."""
    n, nv = mi[N], mi[NV]
    calc_mass_matrix(
        _tree(mi),
        mi[mi[V_END] : mi[V_END] + n],
        _v4(mi, ws, S_X_PC, 4, n, 4, 3),
        _v2(mi, ws, S_H_PB_W, nv, 6),
        _v1(mi, ws, S_M_W, n),
        _v2(mi, ws, S_H_W, n, 3),
        _v3(mi, ws, S_I_W, n, 3, 3),
        _v1(mi, pws, S_REFLECTED, nv),
        _v1(mi, ws, S_IC_M, n),
        _v2(mi, ws, S_IC_H, n, 3),
        _v3(mi, ws, S_IC_I, n, 3, 3),
        _v2(mi, ws, S_H_R, nv, 6),
        _v2(mi, ws, S_F_R, 6, nv),
        M,
    )


@jitable
def _gather_body_forces(tree, F_B, F):
    """F[k] = F_B[body of mobod k] (body-indexed forces to mobod order)."""
    for k in range(tree.shape[0]):
        b = tree[k, BODY]
        for i in range(6):
            F[k, i] = F_B[b, i]


@jitable
def drive_inverse_dynamics(mi, mf, x, pws, ws, need, vdot, tau_app, F_app_B):
    """ws[tau] = M·v̇ + C·v − tau_app − Σ J_Bᵀ·F_app_B[B] (F_app_B indexed by body), with
    the reflected inertias' torques (workspaces: see :func:`run_stages`)."""
    run_stages(mi, mf, x, pws, ws, need)
    n, nv = mi[N], mi[NV]
    tree = _tree(mi)
    F_app = _v2(mi, ws, S_F_TOTAL, n, 6)
    _gather_body_forces(tree, F_app_B, F_app)
    tau = _v1(mi, ws, S_TAU, nv)
    calc_inverse_dynamics(
        tree,
        _v4(mi, ws, S_X_PC, 4, n, 4, 3),
        _v2(mi, ws, S_H_PB_W, nv, 6),
        _v2(mi, ws, S_V_WB, n, 6),
        _v2(mi, ws, S_A_BIAS, n, 6),
        _v1(mi, ws, S_M_W, n),
        _v2(mi, ws, S_H_W, n, 3),
        _v3(mi, ws, S_I_W, n, 3, 3),
        vdot,
        F_app,
        tau_app,
        _v2(mi, ws, S_A_WB, n, 6),
        _v2(mi, ws, S_F, n, 6),
        tau,
    )
    reflected = _v1(mi, pws, S_REFLECTED, nv)
    for i in range(nv):
        tau[i] += reflected[i] * vdot[i]


@jitable
def _gravity_force(m_W, h_W, g, k):
    """[h × g; m·g]: gravity's spatial force on mobod k's body, at Bo in W."""
    return (
        h_W[k, 1] * g[2] - h_W[k, 2] * g[1],
        h_W[k, 2] * g[0] - h_W[k, 0] * g[2],
        h_W[k, 0] * g[1] - h_W[k, 1] * g[0],
        m_W[k] * g[0],
        m_W[k] * g[1],
        m_W[k] * g[2],
    )


@jitable
def _gravity_body_forces(mi, pws, ws, F_B):
    """F_B[b] = gravity's force (see :func:`_gravity_force`) for each body b whose model
    instance feels gravity, zero for the others; the inertias stage of ``ws`` must be up to
    date (parameters: ``pws``)."""
    n = mi[N]
    tree = _tree(mi)
    m_W = _v1(mi, ws, S_M_W, n)
    h_W = _v2(mi, ws, S_H_W, n, 3)
    g = _v1(mi, pws, S_G_W, 3)
    gravity_mask = mi[mi[GRAVITY_MASK] : mi[GRAVITY_MASK] + n]
    for j in range(6):
        F_B[tree[0, BODY], j] = 0.0 * g[0]
    for k in range(1, n):
        b = tree[k, BODY]
        if gravity_mask[k] != 0:
            F = _gravity_force(m_W, h_W, g, k)
            for j in range(6):
                F_B[b, j] = F[j]
        else:
            for j in range(6):
                F_B[b, j] = 0.0 * g[0]


@jitable
def add_gravity_forces(mi, pws, ws, F):
    """F[k] += gravity's force (see :func:`_gravity_force`) for each mobod k whose body feels
    gravity (rows of F indexed by mobod); the inertias stage of ``ws`` must be up to date
    (parameters: ``pws``)."""
    n = mi[N]
    m_W = _v1(mi, ws, S_M_W, n)
    h_W = _v2(mi, ws, S_H_W, n, 3)
    g = _v1(mi, pws, S_G_W, 3)
    gravity_mask = mi[mi[GRAVITY_MASK] : mi[GRAVITY_MASK] + n]
    for k in range(1, n):
        if gravity_mask[k] != 0:
            F_k = _gravity_force(m_W, h_W, g, k)
            for j in range(6):
                F[k, j] += F_k[j]


@jitable
def drive_force_elements(mi, mf, x, pws, ws, need, F_B, tau):
    """What CalcForceElementsContribution sets before the other force elements add theirs:
    F_B (indexed by body) = gravity's forces (see :func:`_gravity_body_forces`) and tau = −D·v,
    the joint damping's. ``need`` must bring the inertias stage up to date (workspaces: see
    :func:`run_stages`)."""
    run_stages(mi, mf, x, pws, ws, need)
    _gravity_body_forces(mi, pws, ws, F_B)
    nq, nv = mi[NQ], mi[NV]
    damping = _v1(mi, pws, S_DAMPING, nv)
    for i in range(nv):
        tau[i] = -damping[i] * x[nq + i]


@jitable
def drive_forward_dynamics(mi, mf, x, pws, ws, need, u, tau_in, F_in_B):
    """ws[vdot], ws[A_WB] and ws[qdot] of a continuous plant: forward dynamics with the
    actuation ``u`` (clamped to the effort limits), generalized forces ``tau_in``, body forces
    ``F_in_B`` (indexed by body), gravity, joint damping, locked joints and reflected inertias.
    Returns −1, or the first mobod whose articulated inertia is not positive definite (of
    lanes: in any lane). Workspaces: see :func:`run_stages`."""
    run_stages(mi, mf, x, pws, ws, need)
    n, nq, nv, nu = mi[N], mi[NQ], mi[NV], mi[NU]
    tree = _tree(mi)
    v = x[nq : nq + nv]
    tau = _v1(mi, ws, S_TAU_TOTAL, nv)
    damping = _v1(mi, pws, S_DAMPING, nv)
    for i in range(nv):
        tau[i] = tau_in[i] - damping[i] * v[i]
    limits = _v1(mi, pws, S_EFFORT_LIMITS, nu)
    actuated_v = mi[mi[ACTUATED_V] : mi[ACTUATED_V] + nu]
    for a in range(nu):
        tau[actuated_v[a]] += clamp(u[a], limits[a])
    F = _v2(mi, ws, S_F_TOTAL, n, 6)
    _gather_body_forces(tree, F_in_B, F)
    add_gravity_forces(mi, pws, ws, F)
    m_W = _v1(mi, ws, S_M_W, n)
    h_W = _v2(mi, ws, S_H_W, n, 3)
    status = calc_forward_dynamics(
        tree,
        _v4(mi, ws, S_X_PC, 4, n, 4, 3),
        _v2(mi, ws, S_H_PB_W, nv, 6),
        _v2(mi, ws, S_V_WB, n, 6),
        _v2(mi, ws, S_A_BIAS, n, 6),
        m_W,
        h_W,
        _v3(mi, ws, S_I_W, n, 3, 3),
        tau,
        F,
        _v1(mi, pws, S_REFLECTED, nv),
        _v1(mi, pws, S_LOCKED, n),
        _v3(mi, ws, S_P, n, 6, 6),
        _v2(mi, ws, S_Z, n, 6),
        _v2(mi, ws, S_U, nv, 6),
        _v3(mi, ws, S_DINV, n, 6, 6),
        _v1(mi, ws, S_U_ABA, nv),
        _v1(mi, ws, S_VDOT, nv),
        _v2(mi, ws, S_A_WB, n, 6),
    )
    calc_qdot(tree, _jparam(mi, mf), x[0:nq], v, _v1(mi, ws, S_QDOT, nq))
    return status


@jitable
def drive_point_jacobian(mi, mf, x, ws, need, k, X_BF, p_FQ):
    """ws[J] = J_V_WQ_W (see :func:`point_jacobian_into`)."""
    run_stages(mi, mf, x, ws, ws, need)
    point_jacobian_into(mi, ws, k, X_BF, p_FQ, _v2(mi, ws, S_J, 6, mi[NV]))


@jitable
def point_jacobian_into(mi, ws, k, X_BF, p_FQ, J):
    """J = J_V_WQ_W (6×nv) of the point Q of mobod k's body at p_FQ in the frame F whose pose
    in the body is X_BF (a 4×3 pose); the positions of k and its ancestors must be up to
    date."""
    X_pc = _v4(mi, ws, S_X_PC, 4, mi[N], 4, 3)
    X_WB = X_pc[3, k]
    p_WQ = _v1(mi, ws, S_F6, 3)
    for i in range(3):
        p_BQ = X_BF[3, i] + X_BF[i, 0] * p_FQ[0] + X_BF[i, 1] * p_FQ[1] + X_BF[i, 2] * p_FQ[2]
        p_WQ[i] = p_BQ
    for i in range(3):
        ws_i = X_WB[3, i] + X_WB[i, 0] * p_WQ[0] + X_WB[i, 1] * p_WQ[1] + X_WB[i, 2] * p_WQ[2]
        ws[mi[OFFSETS + S_F6] + 3 + i] = ws_i
    calc_point_jacobian(
        _tree(mi), X_pc, _v2(mi, ws, S_H_PB_W, mi[NV], 6), k, _v1(mi, ws, S_F6, 6)[3:6], J
    )


@jitable
def copy_if_finite(values, x, start):
    """x[start:start + len(values)] = values if every value is finite; returns whether it
    copied (the plant's fast path for setting q, v or x)."""
    for i in range(values.shape[0]):
        if not abs(values[i]) < 1e308:  # NaN or ±inf
            return False
    for i in range(values.shape[0]):
        x[start + i] = values[i]
    return True
