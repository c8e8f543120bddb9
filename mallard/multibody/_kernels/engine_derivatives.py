"""The derivatives of inverse and forward dynamics (kernels.derivatives,
kernels.recursive_derivatives) on flat arrays, in the manner of kernels.engine's drivers: the
flat model, the state, a workspace ``ws`` and a bit mask ``need`` of the stages to bring up to
date, plus a derivative workspace ``dws`` (_layout.DERIVATIVES) and the outputs.

Their code is compiled once, as the by-address kernel :func:`dynamics_derivatives_at`
(kernels._by_address), which the plant's entry point :func:`drive_dynamics_derivatives`,
SingleStatePlant's (kernels.single) and BatchedPlant's state-by-state path (kernels.batch)
call through :func:`derivatives_by_address`, instead of being optimized and compiled again in
each (both joint-type sets' plant entry points, SingleStatePlant's two and BatchedPlant's
linked the same sweeps: seven copies). It calls in turn the forward dynamics and the stages
by address (kernels.engine.forward_dynamics_at, stages_at), not linking them a second time:
its callers pass the three addresses (mallard._compiled.DERIVATIVES_AT).
"""

import numpy as np
from numba import carray
from numba.extending import overload

from mallard._compiled import by_address, entry_point
from mallard.multibody._batch_codes import FORWARD
from mallard.multibody._kernels._by_address import (
    HELD,
    address_of,
    call_at,
    held1,
    held2,
    hold,
)
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.derivatives import calc_inverse_dynamics_derivatives
from mallard.multibody._kernels.dynamics import (
    calc_body_inertias,
    calc_inverse_dynamics,
    calc_mass_matrix,
)
from mallard.multibody._kernels.engine import (
    _gather_body_forces,
    add_gravity_forces,
    forward_dynamics_by_address,
    stages_by_address,
)
from mallard.multibody._kernels.kinematics import (
    COLUMNS,
    calc_position_kinematics,
    calc_velocity_kinematics,
)
from mallard.multibody._kernels.mass_factor import factor, inverse, solve
from mallard.multibody._kernels.mobilizers import NUM_VELOCITIES
from mallard.multibody._kernels.recursive_derivatives import (
    calc_inverse_dynamics_derivatives as calc_recursive_derivatives,
)
from mallard.multibody._kernels.recursive_derivatives import covers
from mallard.multibody._kernels.views import derivatives, model, parameters, workspace
from mallard.multibody._layout import JTYPE, V_START


@jitable(inline=True)
def recursive_inverse_dynamics_derivatives(model, x, params, work, deriv, vdot, dtau_dq, dtau_dv):
    """:func:`inverse_dynamics_derivatives` without applied body forces for a model that
    kernels.recursive_derivatives ``covers``: its recursions, work.M theirs. ``work``,
    ``deriv``, x, v̇ and the outputs may be lane views (kernels.batch computes L states at
    once)."""
    nq, nv = model.nq, model.nv
    v = x[nq : nq + nv]
    q = x[0:nq]
    calc_recursive_derivatives(model, params, work, deriv, q, v, vdot, dtau_dq, dtau_dv, work.M)


@jitable(inline=True)
def fresh_recursive_derivatives(model, x, params, work, deriv, vdot, dtau_dq, dtau_dv):
    """:func:`recursive_inverse_dynamics_derivatives` with the stages it reads computed first
    (X_WB and H_PB_W, V_WB, the inertias; not X_WF, X_WM nor the acceleration bias): for a
    workspace without cached stages (kernels.single, kernels.batch; lane views there)."""
    nq, nv = model.nq, model.nv
    calc_position_kinematics(model, params, work, x[0:nq], COLUMNS, 0)
    calc_velocity_kinematics(model, work, x[nq : nq + nv])
    calc_body_inertias(model, params, work)
    recursive_inverse_dynamics_derivatives(model, x, params, work, deriv, vdot, dtau_dq, dtau_dv)


@jitable(inline=True)
def inverse_dynamics_derivatives(model, x, params, work, deriv, vdot, F_app_B, dtau_dq, dtau_dv):
    """dtau_dq, dtau_dv of τ = M·v̇ + C·v − tau_g(q) + D·v − Σ_B J_Bᵀ·F_app_B[B] (F_app_B
    indexed by body, held fixed at Bo in W; gravity on the model instances where it is
    enabled; D joint damping), and work.M = M(q) with the reflected inertias. The stages must
    be up to date; ``deriv``: the views of a derivative workspace."""
    nq, nv = model.nq, model.nv
    q, v = x[0:nq], x[nq : nq + nv]
    if covers(model, F_app_B) != 0:
        recursive_inverse_dynamics_derivatives(
            model, x, params, work, deriv, vdot, dtau_dq, dtau_dv
        )
    else:
        F_app, tau_app = deriv.F_app, deriv.tau_app
        _gather_body_forces(model, F_app_B, F_app)
        add_gravity_forces(model, params, work, F_app)
        for i in range(nv):
            tau_app[i] = 0.0 * params.g_W[0]
        A_WB, F, tau = deriv.A_WB, deriv.F, deriv.tau
        calc_inverse_dynamics(
            model, work, work.V_WB, work.A_bias, vdot, F_app, tau_app, A_WB, F, tau
        )
        calc_inverse_dynamics_derivatives(model, params, work, deriv, q, v, vdot, dtau_dq, dtau_dv)
        calc_mass_matrix(model, params, work, work.M)


# The two drivers are kernels linked into their callers (dynamics_derivatives_at; the linked
# copy test_by_address compares it with), not inlined: their bodies are then typed and compiled
# once for all of them, not again in each caller.
@jitable
def drive_inverse_dynamics_derivatives(
    mi, mf, x, ws, need, vdot, F_app_B, dws, dtau_dq, dtau_dv, stages_at
):
    """dtau_dq (nv×nq), dtau_dv (nv×nv) and ws's M (= dtau_dvdot) of inverse dynamics with
    gravity, joint damping and the body forces F_app_B (indexed by body, at Bo in W, held
    fixed): τ = M·v̇ + C·v − tau_g + D·v − Σ_B J_Bᵀ·F_app_B[B]; the stages in ``need`` first,
    by the kernel at ``stages_at`` (kernels.engine.stages_by_address)."""
    stages_by_address(mi, mf, x, ws, need, stages_at)
    m, params, work = model(mi, mf), parameters(mi, ws), workspace(mi, ws)
    deriv = derivatives(mi, dws)
    inverse_dynamics_derivatives(m, x, params, work, deriv, vdot, F_app_B, dtau_dq, dtau_dv)


@jitable
def drive_forward_dynamics_derivatives(
    mi, mf, x, ws, need, u, tau_in, F_in_B, dws, dvdot_dq, dvdot_dv, dvdot_dtau, forward_at
):
    """The forward dynamics of kernels.engine.forward_dynamics (into ws; by the kernel at
    ``forward_at``, kernels.engine.forward_dynamics_by_address) and its derivatives
    with the inputs u, tau_in and F_in_B (at Bo in W) held fixed: dvdot_dq = −M⁻¹·∂τ/∂q and
    dvdot_dv = −M⁻¹·∂τ/∂v (τ the inverse dynamics of :func:`inverse_dynamics_derivatives` at
    the v̇ found), dvdot_dtau = M⁻¹; rows (and dvdot_dtau's columns) of locked joints' dofs
    zero. Returns −1, or the first mobod whose articulated inertia is not positive definite."""
    status = forward_dynamics_by_address(mi, mf, x, ws, need, u, tau_in, F_in_B, forward_at)
    if status >= 0:
        return status
    m, params, work = model(mi, mf), parameters(mi, ws), workspace(mi, ws)
    deriv = derivatives(mi, dws)
    inverse_dynamics_derivatives(m, x, params, work, deriv, work.vdot, F_in_B, dvdot_dq, dvdot_dv)
    solve_forward_dynamics_derivatives(
        m, params, work, deriv.L, deriv.free, dvdot_dq, dvdot_dv, dvdot_dtau
    )
    return -1


@jitable
def dynamics_derivatives(
    forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, forward_at, stages_at
):
    """``forward`` FORWARD: :func:`drive_forward_dynamics_derivatives` with u = A, tau_in = B,
    F_in_B = F_B into (D1, D2, D3) = (dvdot_dq, dvdot_dv, dvdot_dtau), returning its status;
    else (_batch_codes.INVERSE) :func:`drive_inverse_dynamics_derivatives` with v̇ = A,
    F_app_B = F_B into (D1, D2) = (dtau_dq, dtau_dv) (B and D3 unread), returning −1. The
    forward dynamics by the kernel at ``forward_at``, the stages by that at ``stages_at``
    (0 interpreted)."""
    if forward == FORWARD:
        return drive_forward_dynamics_derivatives(
            mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, forward_at
        )
    drive_inverse_dynamics_derivatives(mi, mf, x, ws, need, A, F_B, dws, D1, D2, stages_at)
    return -1


#: The arrays of :func:`dynamics_derivatives_at`'s block, in order: mi, mf, x, ws, A, B, F_B,
#: dws, D1, D2, D3 (_layout.DERIVATIVES' ``block`` holds HELD int64 slots for each).
DERIVATIVE_ARRAYS = 11


@by_address
def dynamics_derivatives_at(block, forward, need, forward_at, stages_at):
    """:func:`dynamics_derivatives` compiled once (kernels._by_address), of the arrays held in
    the block at ``block`` (DERIVATIVE_ARRAYS; C-contiguous float64 but mi, 1-D but F_B and
    D1–D3), which :func:`derivatives_by_address` calls compiled; it calls the forward
    dynamics and the stages at ``forward_at`` and ``stages_at``."""
    b = carray(pointer(block), HELD * DERIVATIVE_ARRAYS, np.int64)
    f = np.float64
    return dynamics_derivatives(
        forward, held1(b, 0, np.int64), held1(b, 1, f), held1(b, 2, f), held1(b, 3, f), need,
        held1(b, 4, f), held1(b, 5, f), held2(b, 6, f), held1(b, 7, f), held2(b, 8, f),
        held2(b, 9, f), held2(b, 10, f), forward_at, stages_at,
    )  # fmt: skip


def derivatives_by_address(forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, at):
    """:func:`dynamics_derivatives`: interpreted, here; compiled, by the kernel at the address
    ``at[0]``, called, not linked into the caller's code, its arrays (C-contiguous) written
    into the block of ``dws``; ``at``: the addresses of mallard._compiled.DERIVATIVES_AT
    (``Kernels.addresses``; zeros interpreted)."""
    return dynamics_derivatives(
        forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, at[1], at[2]
    )


@overload(derivatives_by_address)
def _derivatives_by_address_compiled(forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, at):
    def impl(forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, at):
        block = derivatives(mi, dws).block.view(np.int64)
        hold(block, (mi, mf, x, ws, A, B, F_B, dws, D1, D2, D3))
        return call_at(at[0], (address_of(block), forward, need, at[1], at[2]))

    return impl


@entry_point
@jitable
def drive_dynamics_derivatives(forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, at):
    """The plant's derivatives of inverse or forward dynamics (:func:`dynamics_derivatives`,
    ``forward`` INVERSE or FORWARD), by the kernels at the addresses ``at`` compiled (see
    :func:`derivatives_by_address`: zeros interpreted); returns −1 or the forward dynamics'
    failing mobod."""
    return derivatives_by_address(forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, at)


@jitable
def solve_forward_dynamics_derivatives(
    model, params, work, L, free, dvdot_dq, dvdot_dv, dvdot_dtau
):
    """dvdot_dq = −M⁻¹·dvdot_dq, dvdot_dv = −M⁻¹·dvdot_dv (given ∂τ/∂q, ∂τ/∂v) and dvdot_dtau
    = M⁻¹ by one factorization L of work.M by the tree's sparsity (kernels.mass_factor)
    restricted to the dofs not locked (``free``: 1, else 0; rows, and dvdot_dtau's columns, of
    locked dofs zero). ``free`` is a plain array; ``work``, L and the outputs may be lane
    views. Returns whether M is positive definite (in every lane)."""
    nv, tree, locked = model.nv, model.tree, params.locked
    for i in range(nv):
        free[i] = 1.0
    for k in range(1, model.n):
        if locked[k] != 0:
            for c in range(tree[k, V_START], tree[k, V_START] + NUM_VELOCITIES[tree[k, JTYPE]]):
                free[c] = 0.0
    if not factor(model, work.M, free, L):
        return False
    solve(model, L, free, dvdot_dq, -1.0)
    solve(model, L, free, dvdot_dv, -1.0)
    inverse(model, L, free, dvdot_dtau)
    return True
