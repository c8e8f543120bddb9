"""The whole tree's maps between generalized velocities and time derivatives of the
generalized positions, mobilizer by mobilizer (kernels.mobilizers): q̇ = N(q)·v, v = N⁺(q)·q̇,
and the matrices N(q) (nq × nv) and N⁺(q) (nv × nq).

The mobilizer functions that lanes can't take go lane by lane (kernels.lane_views).
"""

from mallard.multibody._kernels._machinery import jitable, joint_specialized
from mallard.multibody._kernels.lane_views import lane, lane_count, strided
from mallard.multibody._kernels.mobilizers import (
    HAS_BALL_RPY,
    HAS_QUATERNION_FLOATING,
    HAS_RPY_FLOATING,
    N_IS_IDENTITY,
    NUM_POSITIONS,
    NUM_VELOCITIES,
    calc_N,
    calc_Nplus,
    calc_qdot_from_v,
    calc_v_from_qdot,
)
from mallard.multibody._layout import JTYPE, Q_START, V_START


@joint_specialized
def calc_qdot(model, q, v, qdot):
    """q̇ = N(q)·v of the whole tree: q̇ = v for the joint types with N = I (N_IS_IDENTITY),
    the others by
    kernels.mobilizers.calc_qdot_from_v, in a pass of their own."""
    tree, jparam = model.tree, model.jparam
    for k in range(1, model.n):
        jtype = tree[k, JTYPE]
        if N_IS_IDENTITY[jtype]:
            q_start = tree[k, Q_START]
            v_start = tree[k, V_START]
            for i in range(NUM_VELOCITIES[jtype]):
                qdot[q_start + i] = v[v_start + i]
    for k in range(1, model.n):
        jtype = tree[k, JTYPE]
        if not (HAS_BALL_RPY or HAS_RPY_FLOATING or HAS_QUATERNION_FLOATING):
            continue  # (compiled for the model's joint types: see mobilizers)
        if not N_IS_IDENTITY[jtype]:
            q_start = tree[k, Q_START]
            q_k, v_k, qdot_k = q[q_start:], v[tree[k, V_START] :], qdot[q_start:]
            for j in range(lane_count(q)):  # (lane views: lane by lane)
                calc_qdot_from_v(jtype, jparam[k], lane(q_k, j), lane(v_k, j), lane(qdot_k, j))


@jitable
def calc_v(model, q, qdot, v):
    """v = N⁺(q)·q̇ of the whole tree (kernels.mobilizers.calc_v_from_qdot per mobilizer)."""
    tree, jparam = model.tree, model.jparam
    for k in range(1, model.n):
        jtype = tree[k, JTYPE]
        q_start = tree[k, Q_START]
        calc_v_from_qdot(jtype, jparam[k], q[q_start:], qdot[q_start:], v[tree[k, V_START] :])


@jitable
def calc_N_matrix(model, q, N):
    """N (nq × nv) = N(q) of the whole tree, block diagonal by mobilizer (every entry set)."""
    _calc_map_matrix(model, q, N, False)


@jitable
def calc_Nplus_matrix(model, q, Nplus):
    """Nplus (nv × nq) = N⁺(q) of the whole tree, block diagonal by mobilizer (every entry
    set)."""
    _calc_map_matrix(model, q, Nplus, True)


@jitable
def _calc_map_matrix(model, q, out, plus):
    """out = N(q) (nq × nv), or N⁺(q) (nv × nq) if ``plus``: zero but the mobilizers' blocks
    (kernels.mobilizers.calc_N, calc_Nplus)."""
    tree, jparam = model.tree, model.jparam
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = 0.0 * q[0]
    for k in range(1, model.n):
        jtype = tree[k, JTYPE]
        qs, vs = tree[k, Q_START], tree[k, V_START]
        nq, nv = NUM_POSITIONS[jtype], NUM_VELOCITIES[jtype]
        if plus:
            calc_Nplus(jtype, jparam[k], strided(q[qs:]), out[vs : vs + nv, qs : qs + nq])
        else:
            calc_N(jtype, jparam[k], q[qs:], out[qs : qs + nq, vs : vs + nv])
