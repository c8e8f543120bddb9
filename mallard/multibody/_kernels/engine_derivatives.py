"""The plant's compiled entry points for the derivatives of inverse and forward dynamics
(kernels.derivatives), in the manner of kernels.engine: the flat model, the state, the
Context's workspace ``ws`` and a bit mask ``need`` of the stages to bring up to date, plus a
derivative workspace ``dws`` (kernels.derivatives.dws_size scalars) and the outputs.
"""

import numpy as np

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.dense import cholesky_factor, cholesky_solve
from mallard.multibody._kernels.derivatives import (
    S_A_WB,
    S_F,
    S_F_APP,
    S_L,
    S_TAU,
    S_TAU_APP,
    calc_inverse_dynamics_derivatives,
    dws_block,
)
from mallard.multibody._kernels.dynamics import calc_inverse_dynamics
from mallard.multibody._kernels.engine import (
    _gather_body_forces,
    _jparam,
    _tree,
    _v1,
    _v2,
    _v3,
    _v4,
    add_gravity_forces,
    drive_forward_dynamics,
    drive_mass_matrix,
    run_stages,
)
from mallard.multibody._kernels.kinematics import JTYPE, V_START
from mallard.multibody._kernels.mobilizers import NUM_VELOCITIES
from mallard.multibody._layout import (
    GRAVITY_MASK,
    NQ,
    NV,
    S_A_BIAS,
    S_DAMPING,
    S_G_W,
    S_H_PB_W,
    S_H_W,
    S_I_W,
    S_LOCKED,
    S_M,
    S_M_W,
    S_V_WB,
    S_VDOT,
    S_X_PC,
    N,
)


@jitable
def _inverse_dynamics_derivatives(mi, mf, x, ws, vdot, F_app_B, dws, dtau_dq, dtau_dv):
    """dtau_dq, dtau_dv of τ = M·v̇ + C·v − tau_g(q) + D·v − Σ_B J_Bᵀ·F_app_B[B] (F_app_B
    indexed by body, held fixed at Bo in W; gravity on the model instances where it is
    enabled; D joint damping), and ws[M] = M(q) with the reflected inertias. The stages must
    be up to date."""
    n, nq, nv = mi[N], mi[NQ], mi[NV]
    tree = _tree(mi)
    F_app = dws_block(dws, n, nv, S_F_APP)
    tau_app = dws_block(dws, n, nv, S_TAU_APP)[0]
    _gather_body_forces(tree, F_app_B, F_app)
    add_gravity_forces(mi, ws, ws, F_app)
    m_W = _v1(mi, ws, S_M_W, n)
    h_W = _v2(mi, ws, S_H_W, n, 3)
    g = _v1(mi, ws, S_G_W, 3)
    gravity_mask = mi[mi[GRAVITY_MASK] : mi[GRAVITY_MASK] + n]
    for i in range(nv):
        tau_app[i] = 0.0 * g[0]
    X_pc = _v4(mi, ws, S_X_PC, 4, n, 4, 3)
    H_PB_W = _v2(mi, ws, S_H_PB_W, nv, 6)
    V_WB = _v2(mi, ws, S_V_WB, n, 6)
    I_W = _v3(mi, ws, S_I_W, n, 3, 3)
    calc_inverse_dynamics(
        tree, X_pc, H_PB_W, V_WB, _v2(mi, ws, S_A_BIAS, n, 6), m_W, h_W, I_W, vdot, F_app,
        tau_app, dws_block(dws, n, nv, S_A_WB), dws_block(dws, n, nv, S_F),
        dws_block(dws, n, nv, S_TAU)[0],
    )  # fmt: skip
    calc_inverse_dynamics_derivatives(
        tree, _jparam(mi, mf), x[0:nq], x[nq : nq + nv], vdot, X_pc, H_PB_W, V_WB, m_W, h_W,
        I_W, g, gravity_mask, _v1(mi, ws, S_DAMPING, nv), np.zeros(n, dtype=np.int64), dws,
        dtau_dq, dtau_dv,
    )  # fmt: skip
    drive_mass_matrix(mi, mf, x, ws, 0)


@jitable
def drive_inverse_dynamics_derivatives(mi, mf, x, ws, need, vdot, F_app_B, dws, dtau_dq, dtau_dv):
    """dtau_dq (nv×nq), dtau_dv (nv×nv) and ws[M] (= dtau_dvdot) of inverse dynamics with
    gravity, joint damping and the body forces F_app_B (indexed by body, at Bo in W, held
    fixed): τ = M·v̇ + C·v − tau_g + D·v − Σ_B J_Bᵀ·F_app_B[B]."""
    run_stages(mi, mf, x, ws, ws, need)
    _inverse_dynamics_derivatives(mi, mf, x, ws, vdot, F_app_B, dws, dtau_dq, dtau_dv)


@jitable
def drive_forward_dynamics_derivatives(
    mi, mf, x, ws, need, u, tau_in, F_in_B, dws, dvdot_dq, dvdot_dv, dvdot_dtau
):
    """The forward dynamics of drive_forward_dynamics (into ws) and its derivatives with the
    inputs u, tau_in and F_in_B (at Bo in W) held fixed: dvdot_dq = −M⁻¹·∂τ/∂q and
    dvdot_dv = −M⁻¹·∂τ/∂v (τ the inverse dynamics of _inverse_dynamics_derivatives at the
    v̇ found), dvdot_dtau = M⁻¹; rows (and dvdot_dtau's columns) of locked joints' dofs zero.
    Returns −1, or the first mobod whose articulated inertia is not positive definite."""
    status = drive_forward_dynamics(mi, mf, x, ws, ws, need, u, tau_in, F_in_B)
    if status >= 0:
        return status
    n, nv = mi[N], mi[NV]
    tree = _tree(mi)
    vdot = _v1(mi, ws, S_VDOT, nv)
    _inverse_dynamics_derivatives(mi, mf, x, ws, vdot, F_in_B, dws, dvdot_dq, dvdot_dv)
    L = dws_block(dws, n, nv, S_L)
    locked = _v1(mi, ws, S_LOCKED, n)
    free = np.ones(nv, dtype=np.int64)
    for k in range(1, n):
        if locked[k] != 0:
            for c in range(tree[k, V_START], tree[k, V_START] + NUM_VELOCITIES[tree[k, JTYPE]]):
                free[c] = 0
    z = 0.0 * ws[0]
    for i in range(nv):
        for j in range(nv):
            dvdot_dtau[i, j] = z
        dvdot_dtau[i, i] = 1.0 + z
    cholesky_factor(_v2(mi, ws, S_M, nv, nv), free, L)
    cholesky_solve(L, free, dvdot_dq, -1.0)
    cholesky_solve(L, free, dvdot_dv, -1.0)
    cholesky_solve(L, free, dvdot_dtau, 1.0)
    return -1
