"""The plant's compiled entry points ("drivers"), each one call per API method, and the stage
functions they share with the batched entry points (kernels.batch).

A driver takes the flat arrays Python holds: the flat model (``mi`` int64, ``mf`` float64), the
state ``x = [q; v]`` and the Context's workspace ``ws`` (see mallard.multibody._layout), plus,
for most, a bit mask ``need`` of the stages (positions, velocities, inertias, bias) it must
bring up to date first; it computes its result into ``ws`` (or into the outputs it is given).
Few arguments and no allocation keep a call cheap from Python.

Inside, the arrays become the namedtuples of views the kernels take (kernels.views): ``model``
(sizes, tree, tables), ``params`` (the parameters' sections of a workspace) and ``work`` (the
other sections). The stage functions take those, so that the batched entry points can pass the
parameters of one workspace and a lane view (kernels.lane_views) of another as ``work``.
"""

import numpy as np
from numba import carray
from numba.extending import overload

from mallard._compiled import by_address, entry_point
from mallard.multibody._kernels._by_address import address_of, c_contiguous, call_at
from mallard.multibody._kernels._machinery import jitable, joint_specialized
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.coordinates import (
    calc_N_matrix,
    calc_Nplus_matrix,
    calc_qdot,
    calc_v,
)
from mallard.multibody._kernels.dynamics import (
    _add6,
    _has_arm,
    _p_PoBo,
    _row6,
    acceleration_bias,
    articulated_own,
    articulated_sweeps,
    body_inertia,
    calc_acceleration_bias,
    calc_body_inertias,
    calc_forward_dynamics,
    calc_generalized_forces,
    calc_inverse_dynamics,
    calc_mass_matrix,
    calc_spatial_accelerations,
    inertia_of,
    other_joints_bias,
    store_body_inertia,
    zero_world_inertia,
)
from mallard.multibody._kernels.jacobians import calc_point_jacobian
from mallard.multibody._kernels.kinematics import (
    ALL,
    LAYER_WB,
    POSES,
    calc_position_kinematics,
    calc_velocity_kinematics,
    velocity,
)
from mallard.multibody._kernels.lanes import clamp
from mallard.multibody._kernels.pose import load_pose
from mallard.multibody._kernels.vec3 import row3, store_row3
from mallard.multibody._kernels.views import model, parameters, workspace
from mallard.multibody._layout import (
    BIAS,
    BODY,
    INERTIAS,
    JTYPE,
    PARENT,
    POSES_ONLY,
    POSITIONS,
    VELOCITIES,
)


# ---- stages, on views ---------------------------------------------------------------------
@jitable(inline=True)
def run_stages(model, x, params, work, need):
    """Brings the stages in ``need`` of ``work`` (a workspace's views, or lane views: see
    kernels.batch) up to date, with the parameters ``params``: positions (X_pc, H_PB_W),
    velocities (V_WB), inertias (m_W, h_W, I_W), bias (A_bias). A stage's prerequisites must
    be in ``need`` or already up to date."""
    run_velocity_stages(model, x, params, work, need)
    if need & INERTIAS:
        calc_body_inertias(model, params, work)
    if need & BIAS:
        nq = model.nq
        calc_acceleration_bias(model, params, work, x[0:nq], x[nq : nq + model.nv])


# A kernel that reads fewer stages brings up only those (its ``need`` has no other: the SAP
# step's, kernels.discrete_step): the code of the others' kernels is then not linked into it.
@jitable(inline=True)
def run_positions(model, x, params, work, need):
    """:func:`run_stages` for ``need`` of the positions stage only."""
    if need & POSITIONS:
        calc_position_kinematics(model, params, work, x[0 : model.nq], ALL, 0)


@jitable(inline=True)
def run_velocity_stages(model, x, params, work, need):
    """:func:`run_stages` for ``need`` of the positions and velocities stages only."""
    run_positions(model, x, params, work, need)
    if need & VELOCITIES:
        nq = model.nq
        calc_velocity_kinematics(model, work, x[nq : nq + model.nv])


@jitable(inline=True)
def run_inertia_stages(model, x, params, work, need):
    """:func:`run_stages` for ``need`` of the positions and inertias stages only."""
    run_positions(model, x, params, work, need)
    if need & INERTIAS:
        calc_body_inertias(model, params, work)


@jitable(inline=True)
def _gather_body_forces(model, F_B, F):
    """F[k] = F_B[body of mobod k] (body-indexed forces to mobod order)."""
    tree = model.tree
    for k in range(model.n):
        b = tree[k, BODY]
        for i in range(6):
            F[k, i] = F_B[b, i]


@jitable
def _gravity_force(m, h, g):
    """[h × g; m·g]: gravity's spatial force on a body of mass m and first moment h (about Bo,
    in W), at Bo in W."""
    return (
        h[1] * g[2] - h[2] * g[1],
        h[2] * g[0] - h[0] * g[2],
        h[0] * g[1] - h[1] * g[0],
        m * g[0],
        m * g[1],
        m * g[2],
    )


@jitable(inline=True)
def gravity_body_forces(model, params, work, F_B):
    """F_B[b] = gravity's force (see :func:`_gravity_force`) for each body b whose model
    instance feels gravity, zero for the others; the inertias stage of ``work`` must be up to
    date."""
    tree, gravity_mask, g = model.tree, model.gravity_mask, params.g_W
    m_W, h_W = work.m_W, work.h_W
    for j in range(6):
        F_B[tree[0, BODY], j] = 0.0 * g[0]
    for k in range(1, model.n):
        b = tree[k, BODY]
        if gravity_mask[k] != 0:
            F = _gravity_force(m_W[k], row3(h_W, k, 0), g)
            for j in range(6):
                F_B[b, j] = F[j]
        else:
            for j in range(6):
                F_B[b, j] = 0.0 * g[0]


@jitable(inline=True)
def add_gravity_forces(model, params, work, F):
    """F[k] += gravity's force (see :func:`_gravity_force`) for each mobod k whose body feels
    gravity (rows of F indexed by mobod); the inertias stage of ``work`` must be up to date."""
    gravity_mask, g, m_W, h_W = model.gravity_mask, params.g_W, work.m_W, work.h_W
    for k in range(1, model.n):
        if gravity_mask[k] != 0:
            F_k = _gravity_force(m_W[k], row3(h_W, k, 0), g)
            for j in range(6):
                F[k, j] += F_k[j]


@jitable(inline=True)
def inverse_dynamics(model, x, params, work, need, vdot, tau_app, F_app_B):
    """work.tau = M·v̇ + C·v − tau_app − Σ J_Bᵀ·F_app_B[B] (F_app_B indexed by body), with the
    reflected inertias' torques."""
    run_stages(model, x, params, work, need)
    F_app, tau, reflected = work.F_total, work.tau, params.reflected
    _gather_body_forces(model, F_app_B, F_app)
    calc_inverse_dynamics(
        model, work, work.V_WB, work.A_bias, vdot, F_app, tau_app, work.A_WB, work.F, tau
    )
    for i in range(model.nv):
        tau[i] += reflected[i] * vdot[i]


@jitable(inline=True)
def force_elements(model, x, params, work, need, F_B, tau):
    """What CalcForceElementsContribution sets before the other force elements add theirs:
    F_B (indexed by body) = gravity's forces (see :func:`gravity_body_forces`) and tau = −D·v,
    the joint damping's. ``need`` must bring the inertias stage up to date."""
    run_stages(model, x, params, work, need)
    _gravity_and_damping(model, x, params, work, F_B, tau)


@jitable(inline=True)
def _gravity_and_damping(model, x, params, work, F_B, tau):
    """:func:`force_elements` at the stages of ``work`` (the inertias up to date)."""
    gravity_body_forces(model, params, work, F_B)
    damping, nq = params.damping, model.nq
    for i in range(model.nv):
        tau[i] = -damping[i] * x[nq + i]


@jitable(inline=True)
def forward_accelerations(model, x, params, work, need, u, tau_in, F_in_B):
    """work.vdot and work.A_WB of a continuous plant: forward dynamics with the actuation
    ``u`` (clamped to the effort limits), generalized forces ``tau_in``, body forces
    ``F_in_B`` (indexed by body), gravity, joint damping, locked joints and reflected
    inertias. Returns −1, or the first mobod whose articulated inertia is not positive
    definite (of lanes: in any lane)."""
    nq, nv = model.nq, model.nv
    if need & POSITIONS:
        calc_position_kinematics(model, params, work, x[0:nq], ALL, 0)
    v = x[nq : nq + nv]
    tau, damping, limits = work.tau_total, params.damping, params.effort_limits
    for i in range(nv):
        tau[i] = tau_in[i] - damping[i] * v[i]
    actuated_v = model.actuated_v
    for a in range(model.nu):
        tau[actuated_v[a]] += clamp(u[a], limits[a])
    _articulated_stages(model, params, work, need, x[0:nq], v, F_in_B)
    return articulated_sweeps(model, params, work, tau, params.reflected, work.vdot, work.A_WB)


@joint_specialized
def _articulated_stages(model, params, work, need, q, v, F_in_B):
    """The velocities, inertias and bias stages in ``need`` (as :func:`run_stages` brings them
    up to date, the positions up to date) and what the articulated body algorithm starts from
    (kernels.dynamics.articulated_own, with the forces F_in_B, indexed by body, and
    gravity's), in one pass base to tip: each mobod's values go on to the next stage in
    registers, not stored and loaded again (a stage not in ``need`` is loaded), but the
    parent's V_P and p_PoBo, which the bias loads again after the velocity's and inertia's
    stores (kept, they and their products were spilled to the stack and reloaded). The same
    operations as the stages' own passes, run_stages' then _gather_body_forces' and
    add_gravity_forces': the same values."""
    tree, gravity_mask, X_kind, g = model.tree, model.gravity_mask, params.X_kind, params.g_W
    mass, p_BoBcm_B, G_BBo_B = params.m_B, params.com_B, params.G_B
    X_pc, H_PB_W, V_WB, A_bias = work.X_pc, work.H_PB_W, work.V_WB, work.A_bias
    m_W, h_W, I_W, P, z = work.m_W, work.h_W, work.I_W, work.P, work.z
    if need & INERTIAS:
        zero_world_inertia(m_W, h_W, I_W)
    if need & BIAS:
        for i in range(6):
            A_bias[0, i] = 0.0 * V_WB[0, i]
    for k in range(1, tree.shape[0]):
        parent = tree[k, PARENT]
        b = tree[k, BODY]
        if need & VELOCITIES:
            V = velocity(tree, H_PB_W, v, k, _row6(V_WB, parent), _p_PoBo(X_pc, k, parent))
            for i in range(6):
                V_WB[k, i] = V[i]
        else:
            V = _row6(V_WB, k)
        m = mass[b]  # (m_W[k]'s value)
        if need & INERTIAS:
            h, I = body_inertia(load_pose(X_pc[LAYER_WB, k]), m, row3(p_BoBcm_B, b, 0), G_BBo_B[b])
            store_body_inertia(m, h, I, m_W, h_W, I_W, k)
        else:
            _, h, I = inertia_of(m_W, h_W, I_W, k)
        if need & BIAS:  # (V_P and p loaded again: see the docstring)
            arm = _has_arm(tree[k, JTYPE], X_kind[k])
            V_P, p = _row6(V_WB, parent), _p_PoBo(X_pc, k, parent)
            alpha, a = acceleration_bias(X_pc, k, arm, V_P, V, p)
            store_row3(alpha, A_bias, k, 0)
            store_row3(a, A_bias, k, 3)
        F = _row6(F_in_B, b)
        if gravity_mask[k] != 0:
            F = _add6(F, _gravity_force(m, h, g))
        articulated_own(tree, m, h, I, V, F, P, z, k)
    if need & BIAS:
        other_joints_bias(model, params, work, q, v)


@jitable(inline=True)
def forward_dynamics(model, x, params, work, need, u, tau_in, F_in_B):
    """:func:`forward_accelerations`, and work.qdot = N(q)·v: the time derivatives of a
    continuous plant's state. Returns forward_accelerations' status."""
    status = forward_accelerations(model, x, params, work, need, u, tau_in, F_in_B)
    nq = model.nq
    calc_qdot(model, x[0:nq], x[nq : nq + model.nv], work.qdot)
    return status


@jitable(inline=True)
def point_jacobian(model, work, k, X_BF, p_FQ, J):
    """J = J_V_WQ_W (6×nv) of the point Q of mobod k's body at p_FQ in the frame F whose pose
    in the body is X_BF (a 4×3 pose); the positions of k and its ancestors must be up to
    date. Scratch: work.p_WQ."""
    X_WB = work.X_pc[3, k]
    p = work.p_WQ
    for i in range(3):
        p[i] = X_BF[3, i] + X_BF[i, 0] * p_FQ[0] + X_BF[i, 1] * p_FQ[1] + X_BF[i, 2] * p_FQ[2]
    for i in range(3):
        p[3 + i] = X_WB[3, i] + X_WB[i, 0] * p[0] + X_WB[i, 1] * p[1] + X_WB[i, 2] * p[2]
    calc_point_jacobian(model, work, k, p[3:6], J)


# ---- compiled once, called by address ------------------------------------------------------
# (kernels._by_address) The stages and forward dynamics on the flat arrays, each one kernel
# for every joint type whose machine code the drivers call instead of each linking it (a
# driver's module otherwise holds the stages' code, the position kinematics of every joint
# type first, and forward dynamics' articulated body algorithm). Their arrays cross as their
# addresses and sizes: no block to write. A caller whose arrays are not C-contiguous links
# the kernel instead.
@by_address
def forward_dynamics_at(mi, ni, mf, nf, x, nx, ws, nw, u, nu, tau_in, ntau, F_in_B, nb, need):
    """:func:`forward_dynamics_of` compiled once, for every joint type, of the arrays at the
    addresses mi, mf, x, ws, u, tau_in (vectors of ni, nf, ... elements; mi of int64s, the
    others of float64s) and F_in_B (nb × 6); returns its status."""
    f = np.float64
    return forward_dynamics_of(
        carray(pointer(mi), ni, np.int64), carray(pointer(mf), nf, f), carray(pointer(x), nx, f),
        carray(pointer(ws), nw, f), need, carray(pointer(u), nu, f),
        carray(pointer(tau_in), ntau, f), carray(pointer(F_in_B), (nb, 6), f),
    )  # fmt: skip


@jitable(inline=True)
def forward_dynamics_of(mi, mf, x, ws, need, u, tau_in, F_in_B):
    """:func:`forward_dynamics` of the flat model (mi, mf), the state x and the
    workspace ws (its vdot, A_WB and qdot); returns its status."""
    return forward_dynamics(
        model(mi, mf), x, parameters(mi, ws), workspace(mi, ws), need, u, tau_in, F_in_B
    )


def forward_dynamics_by_address(mi, mf, x, ws, need, u, tau_in, F_in_B, at):
    """:func:`forward_dynamics_of`: interpreted, here; compiled, by the kernel at the address
    ``at`` (``Kernels.address("forward_dynamics_at")``), called, not linked into the
    caller's code (linked if an array is not C-contiguous)."""
    return forward_dynamics_of(mi, mf, x, ws, need, u, tau_in, F_in_B)


@overload(forward_dynamics_by_address)
def _forward_dynamics_by_address_compiled(mi, mf, x, ws, need, u, tau_in, F_in_B, at):
    if not c_contiguous(mi, mf, x, ws, u, tau_in, F_in_B):

        def linked(mi, mf, x, ws, need, u, tau_in, F_in_B, at):
            return forward_dynamics_of(mi, mf, x, ws, need, u, tau_in, F_in_B)

        return linked

    def impl(mi, mf, x, ws, need, u, tau_in, F_in_B, at):
        return call_at(
            at,
            (
                address_of(mi), mi.shape[0], address_of(mf), mf.shape[0], address_of(x),
                x.shape[0], address_of(ws), ws.shape[0], address_of(u), u.shape[0],
                address_of(tau_in), tau_in.shape[0], address_of(F_in_B), F_in_B.shape[0], need,
            ),
        )  # fmt: skip

    return impl


@by_address
def stages_at(mi, ni, mf, nf, x, nx, ws, nw, need):
    """:func:`stages_of` compiled once, for every joint type, of the arrays at the addresses
    mi (ni int64s), mf, x and ws (nf, nx, nw float64s); returns 0."""
    f = np.float64
    stages_of(
        carray(pointer(mi), ni, np.int64), carray(pointer(mf), nf, f), carray(pointer(x), nx, f),
        carray(pointer(ws), nw, f), need,
    )  # fmt: skip
    return 0


@jitable(inline=True)
def stages_of(mi, mf, x, ws, need):
    """:func:`run_stages` of the flat model (mi, mf), the state x and the workspace ws."""
    run_stages(model(mi, mf), x, parameters(mi, ws), workspace(mi, ws), need)


def stages_by_address(mi, mf, x, ws, need, at):
    """:func:`stages_of`: interpreted, here; compiled, by the kernel at the address ``at``
    (``Kernels.address("stages_at")``), called, not linked into the caller's code (linked if
    an array is not C-contiguous)."""
    stages_of(mi, mf, x, ws, need)


@overload(stages_by_address)
def _stages_by_address_compiled(mi, mf, x, ws, need, at):
    if not c_contiguous(mi, mf, x, ws):
        return lambda mi, mf, x, ws, need, at: stages_of(mi, mf, x, ws, need)

    def impl(mi, mf, x, ws, need, at):
        call_at(
            at,
            (
                address_of(mi), mi.shape[0], address_of(mf), mf.shape[0], address_of(x),
                x.shape[0], address_of(ws), ws.shape[0], need,
            ),
        )  # fmt: skip

    return impl


# ---- drivers: the entry points Python calls, on flat arrays -------------------------------
@entry_point
@jitable(inline=True)
def drive_stages(mi, mf, x, ws, need):
    """Only brings the stages in ``need`` up to date; ``need`` = POSES_ONLY: only the poses
    X_WB of every mobod (layer 3 of X_pc, a part of the positions stage), the driver of pose
    queries (one entry point for both, compiled once for a program's poses and energies)."""
    m, params, work = model(mi, mf), parameters(mi, ws), workspace(mi, ws)
    if need == POSES_ONLY:
        calc_position_kinematics(m, params, work, x[0 : m.nq], POSES, 0)
    else:
        run_stages(m, x, params, work, need)


@entry_point
@jitable(inline=True)
def drive_mass_matrix(mi, mf, x, ws, need, at):
    """ws's M = M(q) (nv × nv: composite bodies, reflected inertias on the diagonal), the
    stages in ``need`` (of the positions and inertias stages only) brought up to date first
    by the kernel at ``at`` (:func:`stages_by_address`)."""
    stages_by_address(mi, mf, x, ws, need, at)
    work = workspace(mi, ws)
    calc_mass_matrix(model(mi, mf), parameters(mi, ws), work, work.M)


@entry_point
@jitable(inline=True)
def drive_inverse_dynamics(mi, mf, x, ws, need, vdot, tau_app, F_app_B, at):
    """ws's tau (see :func:`inverse_dynamics`), the stages in ``need`` brought up to date
    first by the kernel at ``at`` (:func:`stages_by_address`)."""
    stages_by_address(mi, mf, x, ws, need, at)
    inverse_dynamics(
        model(mi, mf), x, parameters(mi, ws), workspace(mi, ws), 0, vdot, tau_app, F_app_B
    )


@entry_point
@jitable(inline=True)
def drive_force_elements(mi, mf, x, ws, need, F_B, tau, at):
    """F_B and tau of :func:`force_elements`, the stages in ``need`` (of the positions and
    inertias stages only) brought up to date first by the kernel at ``at``
    (:func:`stages_by_address`)."""
    stages_by_address(mi, mf, x, ws, need, at)
    _gravity_and_damping(model(mi, mf), x, parameters(mi, ws), workspace(mi, ws), F_B, tau)


@entry_point
@jitable(inline=True)
def drive_point_jacobian(mi, mf, x, ws, need, k, X_BF, p_FQ, at):
    """ws's J = J_V_WQ_W (see :func:`point_jacobian`), the stages in ``need`` (of the
    positions stage only) brought up to date first by the kernel at ``at``
    (:func:`stages_by_address`)."""
    stages_by_address(mi, mf, x, ws, need, at)
    work = workspace(mi, ws)
    point_jacobian(model(mi, mf), work, k, X_BF, p_FQ, work.J)


@entry_point
@jitable(inline=True)
def drive_forward_dynamics(mi, mf, x, ws, need, u, tau_in, F_in_B, at):
    """ws's vdot, A_WB and qdot (:func:`forward_dynamics`) by the kernel at ``at``
    (:func:`forward_dynamics_by_address`; interpreted, 0); returns its status."""
    return forward_dynamics_by_address(mi, mf, x, ws, need, u, tau_in, F_in_B, at)


@entry_point
@jitable(inline=True)
def drive_point_jacobians(mi, mf, ws, k, P_WQ, J):
    """J[i] = J_V_WQ_W (6×nv, kernels.jacobians) of the points at P_WQ[i] (in World) fixed on
    mobod k's body, at the positions of ``ws`` (those of k and its ancestors up to date)."""
    m, work = model(mi, mf), workspace(mi, ws)
    for i in range(P_WQ.shape[0]):
        calc_point_jacobian(m, work, k, P_WQ[i], J[i])


@entry_point
@jitable(inline=True)
def drive_gravity_body_forces(mi, mf, ws, F_B):
    """F_B of :func:`gravity_body_forces` (the inertias stage must be up to date)."""
    gravity_body_forces(model(mi, mf), parameters(mi, ws), workspace(mi, ws), F_B)


@entry_point
@jitable(inline=True)
def drive_newton_euler(mi, mf, ws, V_WB, A_bias, vdot, F_app, tau_app, A_WB, F, tau):
    """kernels.dynamics.calc_inverse_dynamics at the stages of ``ws`` (positions and
    inertias up to date), with the velocities V_WB and bias A_bias given (ws's, or zero),
    into the outputs A_WB, F and tau (of any scalar type the inputs give), plus the reflected
    inertias' torques."""
    m, work = model(mi, mf), workspace(mi, ws)
    calc_inverse_dynamics(m, work, V_WB, A_bias, vdot, F_app, tau_app, A_WB, F, tau)
    reflected = parameters(mi, ws).reflected
    for i in range(m.nv):
        tau[i] += reflected[i] * vdot[i]


@entry_point
@jitable(inline=True)
def drive_articulated_body(mi, mf, ws, tau, F_app, diagonal, vdot, A_WB):
    """kernels.dynamics.calc_forward_dynamics at the stages of ``ws`` (all up to date), with
    the generalized forces tau, the body forces F_app (per mobod) and ``diagonal`` added to
    M's diagonal (in place of the reflected inertias), into vdot and A_WB; returns its
    status. Its scratch is ws's (of ws's scalar type)."""
    return calc_forward_dynamics(
        model(mi, mf), parameters(mi, ws), workspace(mi, ws), tau, F_app, diagonal, vdot, A_WB
    )


@entry_point
@jitable(inline=True)
def drive_spatial_accelerations(mi, mf, ws, vdot, A_WB):
    """A_WB per mobod for the accelerations v̇ (kernels.dynamics.calc_spatial_accelerations),
    at the stages of ``ws`` (positions and bias up to date)."""
    calc_spatial_accelerations(model(mi, mf), workspace(mi, ws), vdot, A_WB)


@entry_point
@jitable(inline=True)
def drive_generalized_forces(mi, mf, ws, F_Bo_W, F, tau):
    """tau = Σ_B J_Bᵀ·F_Bo_W (per mobod; F a workspace like it) at the positions of ``ws``."""
    calc_generalized_forces(model(mi, mf), workspace(mi, ws), F_Bo_W, F, tau)


@entry_point
@jitable(inline=True)
def drive_qdot(mi, mf, q, v, qdot):
    """q̇ = N(q)·v (kernels.coordinates)."""
    calc_qdot(model(mi, mf), q, v, qdot)


@entry_point
@jitable(inline=True)
def drive_v(mi, mf, q, qdot, v):
    """v = N⁺(q)·q̇ (kernels.coordinates)."""
    calc_v(model(mi, mf), q, qdot, v)


@entry_point
@jitable(inline=True)
def drive_N(mi, mf, q, N):
    """N = N(q), nq × nv (kernels.coordinates)."""
    calc_N_matrix(model(mi, mf), q, N)


@entry_point
@jitable(inline=True)
def drive_Nplus(mi, mf, q, Nplus):
    """Nplus = N⁺(q), nv × nq (kernels.coordinates)."""
    calc_Nplus_matrix(model(mi, mf), q, Nplus)


@entry_point
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
