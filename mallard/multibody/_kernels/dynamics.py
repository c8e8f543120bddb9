"""Recursive dynamics of the whole tree: acceleration bias, body inertias in World, inverse
dynamics (Newton–Euler), generalized forces of body forces, mass matrix (composite bodies),
forward dynamics (articulated bodies), all O(n) but the mass matrix.

Conventions (see ``kinematics``): mobods numbered base to tip, World is mobod 0; a spatial
vector of a mobod's body B is taken at its origin Bo and expressed in World W,
[rotational; translational]. The spatial inertia of body B about Bo in W is (m, h, I): mass
m, first moment h = m·p_BoBcm_W and rotational inertia I = I_BBo_W, so that
M·V = [I·w + h × v; m·v − h × w]. Forces on a body are spatial forces at Bo in W.
"""

import numpy as np

from mallard.multibody._joint_types import PRISMATIC, REVOLUTE, SCREW
from mallard.multibody._kernels._machinery import jitable, joint_specialized
from mallard.multibody._kernels.kinematics import LAYER_WB, LAYER_WF, LAYER_WM
from mallard.multibody._kernels.lane_views import lane, lane_count
from mallard.multibody._kernels.lanes import positive
from mallard.multibody._kernels.mobilizers import (
    HAS_BALL_RPY,
    HAS_PLANAR,
    HAS_QUATERNION_FLOATING,
    HAS_RPY_FLOATING,
    HAS_SCREW,
    HAS_UNIVERSAL,
    NUM_VELOCITIES,
    calc_A_FM_bias,
    calc_V_FM,
)
from mallard.multibody._kernels.pose import load_pose, rotate3
from mallard.multibody._kernels.vec3 import (
    add,
    add_row3,
    cross3,
    dot3,
    mat_vec,
    row3,
    scale,
    store_row3,
    sub,
    sym_vec,
)
from mallard.multibody._layout import (
    BODY,
    JTYPE,
    PARENT,
    Q_START,
    REVERSED,
    V_START,
    X_MB_IDENTITY,
)


# ---- helpers ------------------------------------------------------------------------------
@jitable
def _p_PoBo(X_pc, k, parent):
    """p_PoBo_W: from the origin of mobod ``parent``'s body to that of mobod k's, in W."""
    return (
        X_pc[LAYER_WB, k, 3, 0] - X_pc[LAYER_WB, parent, 3, 0],
        X_pc[LAYER_WB, k, 3, 1] - X_pc[LAYER_WB, parent, 3, 1],
        X_pc[LAYER_WB, k, 3, 2] - X_pc[LAYER_WB, parent, 3, 2],
    )


@jitable
def _zero3(like):
    """(0, 0, 0) in the scalar type of ``like``."""
    zero = 0.0 * like
    return zero, zero, zero


@jitable
def _unsigned(i):
    """The index i as an unsigned integer: compiled, indexing with it skips the test for
    negative indices, so that a loop over it can be a vector loop."""
    return np.uint64(i)


@jitable
def _row6(A, k):
    """Row k of an n×6 array, as a 6-tuple."""
    return A[k, 0], A[k, 1], A[k, 2], A[k, 3], A[k, 4], A[k, 5]


@jitable
def _dot6(a, b):
    """a·b of two 6-sequences, summed by halves (a shorter chain of dependent additions than
    left to right: the recursions are bound by latency)."""
    return (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) + (a[3] * b[3] + a[4] * b[4] + a[5] * b[5])


# ---- accelerations ------------------------------------------------------------------------
@joint_specialized
def calc_acceleration_bias(model, params, work, q, v):
    """work.A_bias[k]: the part of A_WB[k] that depends neither on v̇ nor on the parent's
    acceleration, so that A_WB = A_WP shifted to Bo + A_bias + Σ H_PB_W·v̇:

    α: w_WP × w_PB + α_PB(v̇=0);  a: w_WP × (w_WP × p_PoBo) + 2·w_WP × v_PBo + a_PBo(v̇=0).

    A revolute, prismatic or screw joint turns about (and slides along) an axis fixed in both
    F and M, so that α_PB(v̇=0) = 0 and a_PBo(v̇=0) = w_PB × (w_PB × p_MoBo), Mo (a point of the
    axis) the mobilizer's M origin (a zero, not computed, where ``params.X_kind`` says X_MB
    is the identity). The other types' term comes from the joint's V_FM and Ḣ_FM·v, in a
    pass of its own (a call inside the main loop would slow all of it down).

    Reads the poses X_pc and velocities V_WB of the workspace ``work`` (_layout.WORKSPACE);
    scratch: V_FM_A_FM. Row 0 (World) is set to zero.
    """
    tree, X_kind = model.tree, params.X_kind
    X_pc, V_WB, A_bias = work.X_pc, work.V_WB, work.A_bias
    n = tree.shape[0]
    for i in range(6):
        A_bias[0, i] = 0.0 * V_WB[0, i]
    for k in range(1, n):
        parent = tree[k, PARENT]
        alpha, a = acceleration_bias(
            X_pc, k, _has_arm(tree[k, JTYPE], X_kind[k]), _row6(V_WB, parent), _row6(V_WB, k),
            _p_PoBo(X_pc, k, parent),
        )  # fmt: skip
        store_row3(alpha, A_bias, k, 0)
        store_row3(a, A_bias, k, 3)
    other_joints_bias(model, params, work, q, v)


@joint_specialized
def _has_arm(jtype, kind):
    """Whether the acceleration bias of a mobod of joint type ``jtype`` and identity bits
    ``kind`` (params.X_kind) has the term w_PB × (w_PB × p_MoBo): a revolute (or screw)
    mobilizer whose X_MB is not the identity (else p_MoBo = 0, and the term a zero)."""
    return (jtype == REVOLUTE and int(kind) & X_MB_IDENTITY == 0) or (HAS_SCREW and jtype == SCREW)


@jitable
def acceleration_bias(X_pc, k, arm, V_P, V_B, p):
    """(α, a) of A_bias[k] (see :func:`calc_acceleration_bias`) from the velocities V_P of
    the parent and V_B of mobod k (6-sequences) and p = p_PoBo_W, without the other joint
    types' term; ``arm``: :func:`_has_arm` (the term is then computed from X_pc's X_WB and
    X_WM origins)."""
    wP = (V_P[0], V_P[1], V_P[2])
    vP = (V_P[3], V_P[4], V_P[5])
    w_PB = sub((V_B[0], V_B[1], V_B[2]), wP)
    v_PB = sub((V_B[3], V_B[4], V_B[5]), add(vP, cross3(wP, p)))
    alpha = cross3(wP, w_PB)
    a = add(cross3(wP, cross3(wP, p)), scale(2.0, cross3(wP, v_PB)))
    if arm:
        p_MoBo = sub(row3(X_pc[LAYER_WB, k], 3, 0), row3(X_pc[LAYER_WM, k], 3, 0))
        a = add(a, cross3(w_PB, cross3(w_PB, p_MoBo)))
    return alpha, a


@joint_specialized
def other_joints_bias(model, params, work, q, v):
    """A_bias[k] += the term of the joint types other than revolute, prismatic and screw
    (from the joint's V_FM and Ḣ_FM·v), in a pass of its own (see
    :func:`calc_acceleration_bias`); scratch: V_FM_A_FM."""
    tree, jparam = model.tree, model.jparam
    X_pc, A_bias = work.X_pc, work.A_bias
    V_FM = work.V_FM_A_FM[0:6]
    A_FM = work.V_FM_A_FM[6:12]
    for k in range(1, tree.shape[0]):
        jtype = tree[k, JTYPE]
        if jtype == REVOLUTE or jtype == PRISMATIC or jtype == SCREW or NUM_VELOCITIES[jtype] == 0:
            continue
        if not (
            HAS_UNIVERSAL
            or HAS_PLANAR
            or HAS_BALL_RPY
            or HAS_RPY_FLOATING
            or HAS_QUATERNION_FLOATING
        ):
            continue  # (compiled for the model's joint types: see mobilizers)
        q_k = q[tree[k, Q_START] :]
        v_k = v[tree[k, V_START] :]
        for j in range(lane_count(q)):  # (lane views: lane by lane)
            calc_V_FM(jtype, jparam[k], lane(q_k, j), lane(v_k, j), lane(V_FM, j))
            calc_A_FM_bias(jtype, jparam[k], lane(q_k, j), lane(v_k, j), lane(A_FM, j))
        alpha_PB, a_PB = _across_mobilizer_bias(
            tree[k, REVERSED], X_pc[LAYER_WF, k], X_pc[LAYER_WM, k], X_pc[LAYER_WB, k], V_FM, A_FM
        )
        store_row3(add(row3(A_bias, k, 0), alpha_PB), A_bias, k, 0)
        store_row3(add(row3(A_bias, k, 3), a_PB), A_bias, k, 3)


@jitable
def _across_mobilizer_bias(reversed_joint, X_WF, X_WM, X_WB, V_FM, A_FM):
    """(α, a): the acceleration of B at Bo measured in P with v̇ = 0, in W, from the joint's
    V_FM and Ḣ·v (in the joint's F frame, at the joint's M origin). A reversed joint's motion
    is that of its F frame measured in its M frame."""
    if reversed_joint != 0:
        R_WJ = X_WM[:3]
        p_WJF = X_WM[3]  # the joint's F origin: the mobilizer's M origin
        p_WJM = X_WF[3]  # the joint's M origin: the mobilizer's F origin
    else:
        R_WJ = X_WF[:3]
        p_WJF = X_WF[3]
        p_WJM = X_WM[3]
    w = mat_vec(R_WJ, V_FM[0:3])
    v = mat_vec(R_WJ, V_FM[3:6])
    alpha = mat_vec(R_WJ, A_FM[0:3])
    a = mat_vec(R_WJ, A_FM[3:6])
    if reversed_joint == 0:
        # Shift from the joint's Mo to Bo, both fixed on B: a + α × p + w × (w × p).
        p = sub(X_WB[3], p_WJM)
        return alpha, add(add(a, cross3(alpha, p)), cross3(w, cross3(w, p)))
    # F moving in M: α_MF = −α_FM and, with p = p_FoMo,
    # a_MFo = −a_FMo + α_FM × p + 2·w_FM × v_FMo − w_FM × (w_FM × p); then shifted from Fo to
    # Bo (fixed on F's body) with w_MF = −w_FM: a_MBo = a_MFo − α_FM × d + w_FM × (w_FM × d).
    p = sub(p_WJM, p_WJF)
    d = sub(X_WB[3], p_WJF)
    a_MFo = add(sub(cross3(alpha, p), a), sub(scale(2.0, cross3(w, v)), cross3(w, cross3(w, p))))
    return scale(-1.0, alpha), add(sub(a_MFo, cross3(alpha, d)), cross3(w, cross3(w, d)))


@jitable
def calc_spatial_accelerations(model, work, vdot, A_WB):
    """A_WB[k] = A_WP shifted to Bo + A_bias[k] + H_PB_W·v̇, base to tip (X_pc, H_PB_W and
    A_bias of the workspace ``work``). Row 0 is set to zero."""
    tree, X_pc, H_PB_W, A_bias = model.tree, work.X_pc, work.H_PB_W, work.A_bias
    for i in range(6):
        A_WB[0, i] = 0.0 * A_bias[0, i]
    for k in range(1, tree.shape[0]):
        alpha, a = _compose_acceleration(tree, X_pc, A_bias, A_WB, k)
        v_start = tree[k, V_START]
        for c in range(v_start, v_start + NUM_VELOCITIES[tree[k, JTYPE]]):
            alpha = add(alpha, scale(vdot[c], row3(H_PB_W, c, 0)))
            a = add(a, scale(vdot[c], row3(H_PB_W, c, 3)))
        store_row3(alpha, A_WB, k, 0)
        store_row3(a, A_WB, k, 3)


@jitable
def _compose_acceleration(tree, X_pc, A_bias, A_WB, k):
    """(α, a) of A_WP shifted to Bo + A_bias[k] (A_WB[k] without the H·v̇ term):
    α = α_WP + α_bias, a = a_WPo + α_WP × p_PoBo + a_bias."""
    parent = tree[k, PARENT]
    p = _p_PoBo(X_pc, k, parent)
    alpha_P = row3(A_WB, parent, 0)
    a_P = row3(A_WB, parent, 3)
    alpha = add(alpha_P, row3(A_bias, k, 0))
    return alpha, add(add(a_P, cross3(alpha_P, p)), row3(A_bias, k, 3))


# ---- inertias and forces --------------------------------------------------------------------
@jitable
def calc_body_inertias(model, params, work):
    """work's m_W, h_W, I_W: (m, h, I) of every mobod's body about Bo in W (see
    :func:`body_inertia`), from the bodies' parameters (of ``params``, by body index: m_B,
    com_B = p_BoBcm_B, G_B = G_BBo_B) and the poses work.X_pc. Row 0 (World) is set to
    zero."""
    tree, X_pc, mass, p_BoBcm_B, G_BBo_B = (
        model.tree,
        work.X_pc,
        params.m_B,
        params.com_B,
        params.G_B,
    )
    m_W, h_W, I_W = work.m_W, work.h_W, work.I_W
    zero_world_inertia(m_W, h_W, I_W)
    for k in range(1, tree.shape[0]):
        b = tree[k, BODY]
        m = mass[b]
        h, I = body_inertia(load_pose(X_pc[LAYER_WB, k]), m, row3(p_BoBcm_B, b, 0), G_BBo_B[b])
        store_body_inertia(m, h, I, m_W, h_W, I_W, k)


@jitable
def zero_world_inertia(m_W, h_W, I_W):
    """Row 0 (World) of m_W, h_W, I_W = 0."""
    for i in range(3):
        h_W[0, i] = 0.0
        for j in range(3):
            I_W[0, i, j] = 0.0
    m_W[0] = 0.0


@jitable
def body_inertia(R, m, p_BoBcm_B, G):
    """(h, I) of a body of mass m whose pose tuple in W has the rotation R (row by row in
    R[0:9]), its center of mass at p_BoBcm_B and its unit inertia G = G_BBo_B (3×3) in B:
    h = m·R·p_BoBcm_B and I = m·R·G·Rᵀ as the 6-tuple (xx, yy, zz, xy, xz, yz)."""
    h = scale(m, rotate3(R, p_BoBcm_B))
    # T = R·G, then I = m·T·Rᵀ (symmetric: its upper triangle).
    t00 = R[0] * G[0, 0] + R[1] * G[1, 0] + R[2] * G[2, 0]
    t01 = R[0] * G[0, 1] + R[1] * G[1, 1] + R[2] * G[2, 1]
    t02 = R[0] * G[0, 2] + R[1] * G[1, 2] + R[2] * G[2, 2]
    t10 = R[3] * G[0, 0] + R[4] * G[1, 0] + R[5] * G[2, 0]
    t11 = R[3] * G[0, 1] + R[4] * G[1, 1] + R[5] * G[2, 1]
    t12 = R[3] * G[0, 2] + R[4] * G[1, 2] + R[5] * G[2, 2]
    t20 = R[6] * G[0, 0] + R[7] * G[1, 0] + R[8] * G[2, 0]
    t21 = R[6] * G[0, 1] + R[7] * G[1, 1] + R[8] * G[2, 1]
    t22 = R[6] * G[0, 2] + R[7] * G[1, 2] + R[8] * G[2, 2]
    xx = m * (t00 * R[0] + t01 * R[1] + t02 * R[2])
    yy = m * (t10 * R[3] + t11 * R[4] + t12 * R[5])
    zz = m * (t20 * R[6] + t21 * R[7] + t22 * R[8])
    xy = m * (t00 * R[3] + t01 * R[4] + t02 * R[5])
    xz = m * (t00 * R[6] + t01 * R[7] + t02 * R[8])
    yz = m * (t10 * R[6] + t11 * R[7] + t12 * R[8])
    return h, (xx, yy, zz, xy, xz, yz)


@jitable
def store_body_inertia(m, h, I, m_W, h_W, I_W, k):
    """Row k of m_W, h_W, I_W = (m, h, I), I a 6-tuple (see :func:`body_inertia`),
    mirrored."""
    m_W[k] = m
    store_row3(h, h_W, k, 0)
    I_W[k, 0, 0] = I[0]
    I_W[k, 0, 1] = I[3]
    I_W[k, 0, 2] = I[4]
    I_W[k, 1, 0] = I[3]
    I_W[k, 1, 1] = I[1]
    I_W[k, 1, 2] = I[5]
    I_W[k, 2, 0] = I[4]
    I_W[k, 2, 1] = I[5]
    I_W[k, 2, 2] = I[2]


@jitable
def inertia_of(m_W, h_W, I_W, k):
    """(m, h, I) of row k of m_W, h_W, I_W, I as the 6-tuple of its upper triangle."""
    I = I_W[k]
    return m_W[k], row3(h_W, k, 0), (I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2])


@jitable
def _bias_force(h, I, V):
    """The velocity-dependent force of a body: [w × (I·w); w × (w × h)] (I the 6-tuple of
    :func:`body_inertia`)."""
    w = (V[0], V[1], V[2])
    return cross3(w, sym_vec(I, w)), cross3(w, cross3(w, h))


@jitable
def _body_force(m_W, h_W, I_W, V_WB, F_app, k, alpha, a):
    """(τ, f) = M·A + [w × (I·w); w × (w × h)] − F_app[k]: the force on the body of mobod k
    (at Bo, in W) that gives it the spatial acceleration A = (α, a)."""
    m = m_W[k]
    h = row3(h_W, k, 0)
    I = I_W[k]
    w = row3(V_WB, k, 0)
    tM = add(mat_vec(I, alpha), cross3(h, a))
    fM = sub(scale(m, a), cross3(h, alpha))
    tb = cross3(w, mat_vec(I, w))
    fb = cross3(w, cross3(w, h))
    return sub(add(tM, tb), row3(F_app, k, 0)), sub(add(fM, fb), row3(F_app, k, 3))


@jitable
def _shift_force_to_parent(tree, X_pc, F, k):
    """F[parent] += F[k] shifted from Bo to Po: [τ + p_PoBo × f; f]."""
    parent = tree[k, PARENT]
    p = _p_PoBo(X_pc, k, parent)
    f = row3(F, k, 3)
    t = add(row3(F, k, 0), cross3(p, f))
    add_row3(t, F, parent, 0)
    add_row3(f, F, parent, 3)


@jitable
def _project(tree, H_PB_W, F, k, tau):
    """tau[dofs of k] = H_PB_Wᵀ·F[k]."""
    v_start = tree[k, V_START]
    Fk = _row6(F, k)
    for c in range(v_start, v_start + NUM_VELOCITIES[tree[k, JTYPE]]):
        tau[c] = _dot6(_row6(H_PB_W, c), Fk)


@jitable
def calc_generalized_forces(model, work, F_Bo_W, F, tau):
    """tau = Σ_B J_Bᵀ·F_Bo_W: the generalized forces of spatial forces F_Bo_W on the bodies
    (per mobod, at Bo in W), at the positions of ``work``. ``F`` is a workspace shaped like
    F_Bo_W."""
    tree, X_pc, H_PB_W = model.tree, work.X_pc, work.H_PB_W
    for k in range(tree.shape[0]):
        for i in range(6):
            F[k, i] = F_Bo_W[k, i]
    for k in range(tree.shape[0] - 1, 0, -1):
        _project(tree, H_PB_W, F, k, tau)
        _shift_force_to_parent(tree, X_pc, F, k)


@jitable
def calc_inverse_dynamics(model, work, V_WB, A_bias, vdot, F_app, tau_app, A_WB, F, tau):
    """Recursive Newton–Euler: tau = M(q)·v̇ + C(q, v)·v − tau_app − Σ_B J_Bᵀ·F_app[B], at
    the positions and inertias of the workspace ``work`` and the velocities V_WB with their
    acceleration bias A_bias (w's, or zero: v = 0).

    Outputs A_WB (per mobod) and F, the spatial force each body's inboard mobilizer
    transmits to it (at Bo, in W).
    """
    tree, X_pc, H_PB_W, m_W, h_W, I_W = (
        model.tree,
        work.X_pc,
        work.H_PB_W,
        work.m_W,
        work.h_W,
        work.I_W,
    )
    # Base to tip: A_WB[k] = A_WP shifted to Bo + A_bias + H_PB_W·v̇, and the force the body
    # needs for it, F[k] = M·A + bias force − F_app (World: A = 0, F = −F_app[0]).
    for i in range(6):
        A_WB[0, i] = 0.0 * A_bias[0, i]
    t, f = _body_force(m_W, h_W, I_W, V_WB, F_app, 0, row3(A_WB, 0, 0), row3(A_WB, 0, 3))
    store_row3(t, F, 0, 0)
    store_row3(f, F, 0, 3)
    for k in range(1, tree.shape[0]):
        alpha, a = _compose_acceleration(tree, X_pc, A_bias, A_WB, k)
        v_start = tree[k, V_START]
        for c in range(v_start, v_start + NUM_VELOCITIES[tree[k, JTYPE]]):
            alpha = add(alpha, scale(vdot[c], row3(H_PB_W, c, 0)))
            a = add(a, scale(vdot[c], row3(H_PB_W, c, 3)))
        t, f = _body_force(m_W, h_W, I_W, V_WB, F_app, k, alpha, a)
        store_row3(alpha, A_WB, k, 0)
        store_row3(a, A_WB, k, 3)
        store_row3(t, F, k, 0)
        store_row3(f, F, k, 3)
    # Tip to base: F[k] (the body's own plus its children's) projected on k's dofs, then
    # shifted to the parent's origin and added to the parent's.
    for k in range(tree.shape[0] - 1, 0, -1):
        parent = tree[k, PARENT]
        v_start = tree[k, V_START]
        Fk = _row6(F, k)
        for c in range(v_start, v_start + NUM_VELOCITIES[tree[k, JTYPE]]):
            tau[c] = _dot6(_row6(H_PB_W, c), Fk) - tau_app[c]
        f = (Fk[3], Fk[4], Fk[5])
        add_row3(add((Fk[0], Fk[1], Fk[2]), cross3(_p_PoBo(X_pc, k, parent), f)), F, parent, 0)
        add_row3(f, F, parent, 3)


# ---- mass matrix ------------------------------------------------------------------------------
@jitable
def calc_mass_matrix(model, params, work, M):
    """M(q) by the composite body algorithm, at the positions and inertias of the workspace
    ``work``, plus diag(params.reflected) (actuators' reflected rotor inertias); every entry of M is
    written. Scratch of ``work``: Ic_m, Ic_h, Ic_I for composite inertias (like m_W, h_W, I_W;
    only the upper triangles of Ic_I), H_R (like H_PB_W) and F_R (6 × nv), motions and
    forces about the roots' origins (see below).

    Mobods are numbered depth first, with their dofs in that order, so each child of World
    roots a tree whose mobods and dofs are contiguous, and the dofs of mobod k's subtree (k and
    its descendants) run from k's first to ``v_end[k]`` − 1. Motions, inertias and forces of a
    tree are taken about one point, its root body's origin R (near the tree's bodies, for
    precision), so that composites add without shifts. Tip to base, when k is reached its
    composite Ic is complete: column i of F_R, for each dof i of k, is the force Ic·H_R[i],
    and the rows of k's dofs are filled against the columns of its subtree,
    M[j, i] = H_R[j]ᵀ·F_R[:, i], a product over contiguous columns (unsigned indices, so that
    compiled it is a vector loop). Other entries above the diagonal couple dofs on different
    branches (zero); the lower triangle is mirrored at the end."""
    tree, v_end, reflected = model.tree, model.v_end, params.reflected
    X_pc, H_PB_W, m_W, h_W, I_W = work.X_pc, work.H_PB_W, work.m_W, work.h_W, work.I_W
    Ic_m, Ic_h, Ic_I, H_R, F_R = work.Ic_m, work.Ic_h, work.Ic_I, work.H_R, work.F_R
    n = tree.shape[0]
    nv = M.shape[0]
    zero = 0.0 * m_W[0]
    p_WR = row3(X_pc[LAYER_WB, 0], 3, 0)
    for k in range(1, n):
        # k's inertia about R (p = p_RBo): h_R = h + m·p and
        # I_R = I + (m·|p|² + 2·h·p)·E − m·p·pᵀ − h·pᵀ − p·hᵀ.
        if tree[k, PARENT] == 0:  # (preorder: k's tree is rooted here)
            p_WR = row3(X_pc[LAYER_WB, k], 3, 0)
        m = m_W[k]
        h = row3(h_W, k, 0)
        p = sub(row3(X_pc[LAYER_WB, k], 3, 0), p_WR)
        diag = m * dot3(p, p) + 2.0 * dot3(h, p)
        Ic_m[k] = m
        store_row3(add(h, scale(m, p)), Ic_h, k, 0)
        Ic_I[k, 0, 0] = I_W[k, 0, 0] - m * p[0] * p[0] - 2.0 * h[0] * p[0] + diag
        Ic_I[k, 1, 1] = I_W[k, 1, 1] - m * p[1] * p[1] - 2.0 * h[1] * p[1] + diag
        Ic_I[k, 2, 2] = I_W[k, 2, 2] - m * p[2] * p[2] - 2.0 * h[2] * p[2] + diag
        Ic_I[k, 0, 1] = I_W[k, 0, 1] - m * p[0] * p[1] - h[0] * p[1] - p[0] * h[1]
        Ic_I[k, 0, 2] = I_W[k, 0, 2] - m * p[0] * p[2] - h[0] * p[2] - p[0] * h[2]
        Ic_I[k, 1, 2] = I_W[k, 1, 2] - m * p[1] * p[2] - h[1] * p[2] - p[1] * h[2]
        # H_R[j] = [w; v + p × w] for each dof j of k (a motion at Bo, taken to R).
        v_start = tree[k, V_START]
        for j in range(v_start, v_start + NUM_VELOCITIES[tree[k, JTYPE]]):
            w = row3(H_PB_W, j, 0)
            store_row3(w, H_R, j, 0)
            store_row3(add(row3(H_PB_W, j, 3), cross3(p, w)), H_R, j, 3)
    for k in range(n - 1, 0, -1):
        m = Ic_m[k]
        h = row3(Ic_h, k, 0)
        I = (
            Ic_I[k, 0, 0],
            Ic_I[k, 1, 1],
            Ic_I[k, 2, 2],
            Ic_I[k, 0, 1],
            Ic_I[k, 0, 2],
            Ic_I[k, 1, 2],
        )
        v_start = tree[k, V_START]
        v_stop = v_start + NUM_VELOCITIES[tree[k, JTYPE]]
        for i in range(v_start, v_stop):
            w = row3(H_R, i, 0)
            v = row3(H_R, i, 3)
            t = add(sym_vec(I, w), cross3(h, v))
            f = sub(scale(m, v), cross3(h, w))
            F_R[0, i], F_R[1, i], F_R[2, i] = t[0], t[1], t[2]
            F_R[3, i], F_R[4, i], F_R[5, i] = f[0], f[1], f[2]
        end = _unsigned(v_end[k])
        for j in range(_unsigned(v_start), _unsigned(v_stop)):
            H0, H1, H2 = H_R[j, 0], H_R[j, 1], H_R[j, 2]
            H3, H4, H5 = H_R[j, 3], H_R[j, 4], H_R[j, 5]
            for i in range(j, end):
                M[j, i] = (H0 * F_R[0, i] + H1 * F_R[1, i] + H2 * F_R[2, i]) + (
                    H3 * F_R[3, i] + H4 * F_R[4, i] + H5 * F_R[5, i]
                )
            for i in range(end, _unsigned(nv)):
                M[j, i] = zero
        parent = tree[k, PARENT]
        if parent > 0:
            Ic_m[parent] += m
            add_row3(h, Ic_h, parent, 0)
            Ic_I[parent, 0, 0] += I[0]
            Ic_I[parent, 1, 1] += I[1]
            Ic_I[parent, 2, 2] += I[2]
            Ic_I[parent, 0, 1] += I[3]
            Ic_I[parent, 0, 2] += I[4]
            Ic_I[parent, 1, 2] += I[5]
    for i in range(nv):
        for j in range(i):
            M[i, j] = M[j, i]
        M[i, i] += reflected[i]


# ---- forward dynamics ------------------------------------------------------------------------
# An articulated inertia is a symmetric 6×6 matrix [[A, B], [Bᵀ, C]] (A, C symmetric 3×3), about
# a body's origin, in W. Kernels keep it as a 21-tuple Pa: Pa[0:6] = A and Pa[15:21] = C as
# (xx, yy, zz, xy, xz, yz), Pa[6:15] = B row by row; arrays store it in the upper blocks of a
# 6×6 matrix (A's and C's upper triangles and B; the lower left block is not used).
@jitable
def _load_articulated(P, k):
    """The articulated inertia tuple of P[k]."""
    return (
        P[k, 0, 0], P[k, 1, 1], P[k, 2, 2], P[k, 0, 1], P[k, 0, 2], P[k, 1, 2],
        P[k, 0, 3], P[k, 0, 4], P[k, 0, 5],
        P[k, 1, 3], P[k, 1, 4], P[k, 1, 5],
        P[k, 2, 3], P[k, 2, 4], P[k, 2, 5],
        P[k, 3, 3], P[k, 4, 4], P[k, 5, 5], P[k, 3, 4], P[k, 3, 5], P[k, 4, 5],
    )  # fmt: skip


@jitable
def _store_articulated(Pa, P, k):
    """P[k] = the articulated inertia tuple Pa (the upper blocks only)."""
    P[k, 0, 0], P[k, 1, 1], P[k, 2, 2] = Pa[0], Pa[1], Pa[2]
    P[k, 0, 1], P[k, 0, 2], P[k, 1, 2] = Pa[3], Pa[4], Pa[5]
    P[k, 0, 3], P[k, 0, 4], P[k, 0, 5] = Pa[6], Pa[7], Pa[8]
    P[k, 1, 3], P[k, 1, 4], P[k, 1, 5] = Pa[9], Pa[10], Pa[11]
    P[k, 2, 3], P[k, 2, 4], P[k, 2, 5] = Pa[12], Pa[13], Pa[14]
    P[k, 3, 3], P[k, 4, 4], P[k, 5, 5] = Pa[15], Pa[16], Pa[17]
    P[k, 3, 4], P[k, 3, 5], P[k, 4, 5] = Pa[18], Pa[19], Pa[20]


@jitable
def _add_articulated(Pa, P, k):
    """P[k] += the articulated inertia tuple Pa (upper blocks)."""
    P[k, 0, 0] += Pa[0]
    P[k, 1, 1] += Pa[1]
    P[k, 2, 2] += Pa[2]
    P[k, 0, 1] += Pa[3]
    P[k, 0, 2] += Pa[4]
    P[k, 1, 2] += Pa[5]
    P[k, 0, 3] += Pa[6]
    P[k, 0, 4] += Pa[7]
    P[k, 0, 5] += Pa[8]
    P[k, 1, 3] += Pa[9]
    P[k, 1, 4] += Pa[10]
    P[k, 1, 5] += Pa[11]
    P[k, 2, 3] += Pa[12]
    P[k, 2, 4] += Pa[13]
    P[k, 2, 5] += Pa[14]
    P[k, 3, 3] += Pa[15]
    P[k, 4, 4] += Pa[16]
    P[k, 5, 5] += Pa[17]
    P[k, 3, 4] += Pa[18]
    P[k, 3, 5] += Pa[19]
    P[k, 4, 5] += Pa[20]


@jitable
def _sum_articulated(Pa, Pb):
    """Pa + Pb, term by term, of two articulated inertia tuples."""
    return (
        Pa[0] + Pb[0], Pa[1] + Pb[1], Pa[2] + Pb[2], Pa[3] + Pb[3], Pa[4] + Pb[4],
        Pa[5] + Pb[5], Pa[6] + Pb[6], Pa[7] + Pb[7], Pa[8] + Pb[8], Pa[9] + Pb[9],
        Pa[10] + Pb[10], Pa[11] + Pb[11], Pa[12] + Pb[12], Pa[13] + Pb[13], Pa[14] + Pb[14],
        Pa[15] + Pb[15], Pa[16] + Pb[16], Pa[17] + Pb[17], Pa[18] + Pb[18], Pa[19] + Pb[19],
        Pa[20] + Pb[20],
    )  # fmt: skip


#: Trees of up to this many mobods (World's included) have each P[k]'s rigid part formed by the
#: first of k's children the tip-to-base sweep takes, with what that child passes on (a bit per
#: mobod: :func:`articulated_sweeps`); larger ones store it in :func:`articulated_own`.
_FORMED_BY_CHILD = 64


@jitable
def _rigid_articulated(m, h, I):
    """The articulated inertia tuple of a rigid body (m, h, I), I the 6-tuple of
    :func:`body_inertia`: A = I, B = [h]×, C = m·E."""
    z = 0.0 * m
    return (
        I[0], I[1], I[2], I[3], I[4], I[5],
        z, -h[2], h[1],
        h[2], z, -h[0],
        -h[1], h[0], z,
        m, m, m, z, z, z,
    )  # fmt: skip


@jitable
def _B_times(Pa, v, rigid):
    """B·v of the articulated inertia tuple Pa; ``rigid``: Pa is a rigid body's (see
    :func:`_rigid_articulated`, B = [h]×): h × v, without the products by B's zeros."""
    B = Pa[6:15]
    if rigid:
        return cross3((B[7], B[2], B[3]), v)
    return (
        B[0] * v[0] + B[1] * v[1] + B[2] * v[2],
        B[3] * v[0] + B[4] * v[1] + B[5] * v[2],
        B[6] * v[0] + B[7] * v[1] + B[8] * v[2],
    )


@jitable
def _Bt_times(Pa, w, rigid):
    """Bᵀ·w of the articulated inertia tuple Pa; ``rigid`` (see :func:`_B_times`): w × h."""
    B = Pa[6:15]
    if rigid:
        return cross3(w, (B[7], B[2], B[3]))
    return (
        B[0] * w[0] + B[3] * w[1] + B[6] * w[2],
        B[1] * w[0] + B[4] * w[1] + B[7] * w[2],
        B[2] * w[0] + B[5] * w[1] + B[8] * w[2],
    )


@jitable
def _C_times(Pa, v, rigid):
    """C·v of the articulated inertia tuple Pa; ``rigid`` (C = m·E): m·v."""
    if rigid:
        return scale(Pa[15], v)
    return sym_vec(Pa[15:21], v)


@jitable
def _articulated_times(Pa, x, rigid):
    """Pa·x = [A·w + B·v; Bᵀ·w + C·v] for a 6-sequence x = [w; v]; ``rigid``: Pa is a rigid
    body's, whose zeros are not multiplied (:func:`_B_times`): the same values, all but the
    sign of a zero."""
    w = (x[0], x[1], x[2])
    v = (x[3], x[4], x[5])
    Aw = sym_vec(Pa[0:6], w)
    Bv = _B_times(Pa, v, rigid)
    Btw = _Bt_times(Pa, w, rigid)
    Cv = _C_times(Pa, v, rigid)
    return (
        Aw[0] + Bv[0],
        Aw[1] + Bv[1],
        Aw[2] + Bv[2],
        Btw[0] + Cv[0],
        Btw[1] + Cv[1],
        Btw[2] + Cv[2],
    )


@jitable
def _leaf(tree, k, n):
    """Whether mobod k has no children (mobods are numbered depth first: a child follows its
    parent): its articulated inertia is its body's rigid one (see :func:`_rigid_articulated`)."""
    return k + 1 == n or tree[k + 1, PARENT] != k


@jitable
def _zero_half(tree, X_kind, k):
    """Where mobod k's column H_PB_W (of a one-dof mobilizer) has a zero half: 3, the
    translational one ([a_W; 0]: a revolute mobilizer whose X_MB is the identity, so that Bo =
    Mo is on the axis and kernels.kinematics' a_W × p_MoBo has zero factors), 0, the
    rotational one ([0; a_W]: a prismatic mobilizer), or −1."""
    jtype = tree[k, JTYPE]
    if jtype == REVOLUTE and int(X_kind[k]) & X_MB_IDENTITY != 0:
        return 3
    if jtype == PRISMATIC:
        return 0
    return -1


@jitable
def _one_dof_column(Pa, h, zk, half, rigid):
    """(U, Hᵀ·U, Hᵀ·z) for the column h = H of a one-dof mobilizer: U = Pa·h (see
    :func:`_articulated_times`, ``rigid`` as there), without the products by h's zero half
    ``half`` (see :func:`_zero_half`), which leave the other terms' values (all but the sign
    of a zero)."""
    if half == 3:  # h = [w; 0]: U = [A·w; Bᵀ·w]
        w = (h[0], h[1], h[2])
        Aw = sym_vec(Pa[0:6], w)
        Btw = _Bt_times(Pa, w, rigid)
        U = (Aw[0], Aw[1], Aw[2], Btw[0], Btw[1], Btw[2])
        return U, dot3(w, U), dot3(w, zk)
    if half == 0:  # h = [0; v]: U = [B·v; C·v]
        v = (h[3], h[4], h[5])
        Bv = _B_times(Pa, v, rigid)
        Cv = _C_times(Pa, v, rigid)
        U = (Bv[0], Bv[1], Bv[2], Cv[0], Cv[1], Cv[2])
        return U, dot3(v, (U[3], U[4], U[5])), dot3(v, (zk[3], zk[4], zk[5]))
    U = _articulated_times(Pa, h, rigid)
    return U, _dot6(h, U), _dot6(h, zk)


@jitable
def _remove_dof(Pa, U, Ug):
    """Pa − U·Ugᵀ for 6-tuples U and Ug = U/D: the articulated inertia with the motion of a
    one-dof mobilizer (U = Pa·H, D = Hᵀ·U) taken out."""
    return (
        Pa[0] - U[0] * Ug[0], Pa[1] - U[1] * Ug[1], Pa[2] - U[2] * Ug[2],
        Pa[3] - U[0] * Ug[1], Pa[4] - U[0] * Ug[2], Pa[5] - U[1] * Ug[2],
        Pa[6] - U[0] * Ug[3], Pa[7] - U[0] * Ug[4], Pa[8] - U[0] * Ug[5],
        Pa[9] - U[1] * Ug[3], Pa[10] - U[1] * Ug[4], Pa[11] - U[1] * Ug[5],
        Pa[12] - U[2] * Ug[3], Pa[13] - U[2] * Ug[4], Pa[14] - U[2] * Ug[5],
        Pa[15] - U[3] * Ug[3], Pa[16] - U[4] * Ug[4], Pa[17] - U[5] * Ug[5],
        Pa[18] - U[3] * Ug[4], Pa[19] - U[3] * Ug[5], Pa[20] - U[4] * Ug[5],
    )  # fmt: skip


@jitable
def _shift_articulated(Pa, p):
    """Φᵀ·Pa·Φ, Pa shifted from Bo to Po, with Φ = [[E, 0], [−X, E]] the rigid shift of
    motions from Po to Bo, X = [p]×, p = p_PoBo. In blocks: A' = A + S + Sᵀ − X·C·X with
    S = X·Bᵀ, B' = B + X·C, C' = C."""
    A = Pa[0:6]
    B = Pa[6:15]
    C = Pa[15:21]
    # Column j of S = X·Bᵀ is p × (row j of B).
    s0 = cross3(p, (B[0], B[1], B[2]))
    s1 = cross3(p, (B[3], B[4], B[5]))
    s2 = cross3(p, (B[6], B[7], B[8]))
    # Column j of N = X·C is p × (column j of C).
    n0 = cross3(p, (C[0], C[3], C[4]))
    n1 = cross3(p, (C[3], C[1], C[5]))
    n2 = cross3(p, (C[4], C[5], C[2]))
    # Row i of X·C·X = N·X is (row i of N) × p; it is symmetric: rows 0, 1 and (2, 2) suffice.
    r0 = cross3((n0[0], n1[0], n2[0]), p)
    r1 = cross3((n0[1], n1[1], n2[1]), p)
    r22 = n0[2] * p[1] - n1[2] * p[0]
    return (
        A[0] + 2.0 * s0[0] - r0[0],
        A[1] + 2.0 * s1[1] - r1[1],
        A[2] + 2.0 * s2[2] - r22,
        A[3] + s1[0] + s0[1] - r0[1],
        A[4] + s2[0] + s0[2] - r0[2],
        A[5] + s2[1] + s1[2] - r1[2],
        B[0] + n0[0], B[1] + n1[0], B[2] + n2[0],
        B[3] + n0[1], B[4] + n1[1], B[5] + n2[1],
        B[6] + n0[2], B[7] + n1[2], B[8] + n2[2],
        C[0], C[1], C[2], C[3], C[4], C[5],
    )  # fmt: skip


@jitable
def _shift_rigid(Pa, p):
    """:func:`_shift_articulated` of a rigid body's articulated inertia tuple Pa (B = [h]×,
    C = m·E: see :func:`_rigid_articulated`) without the products by its zeros, term by term
    the same values (all but the sign of a zero): S = X·Bᵀ's columns p × (row j of B),
    N = X·C = m·X and X·C·X's rows (row i of N) × p."""
    A = Pa[0:6]
    B = Pa[6:15]
    h0, h1, h2 = B[7], B[2], B[3]
    pm0, pm1, pm2 = p[0] * Pa[15], p[1] * Pa[15], p[2] * Pa[15]
    return (
        A[0] + 2.0 * (p[1] * h1 + p[2] * h2) - (-(pm2 * p[2]) - pm1 * p[1]),
        A[1] + 2.0 * (p[2] * h2 + p[0] * h0) - (-(pm0 * p[0]) - pm2 * p[2]),
        A[2] + 2.0 * (p[0] * h0 + p[1] * h1) - (-(pm1 * p[1]) - pm0 * p[0]),
        A[3] - p[1] * h0 - p[0] * h1 - pm1 * p[0],
        A[4] - p[2] * h0 - p[0] * h2 - pm2 * p[0],
        A[5] - p[2] * h1 - p[1] * h2 - pm2 * p[1],
        B[0], B[1] - pm2, B[2] + pm1,
        B[3] + pm2, B[4], B[5] - pm0,
        B[6] - pm1, B[7] + pm0, B[8],
        Pa[15], Pa[16], Pa[17], Pa[18], Pa[19], Pa[20],
    )  # fmt: skip


@jitable
def _own_articulated(m_W, h_W, I_W, P, k, leaf):
    """The articulated inertia tuple of mobod k, as the tip-to-base sweep has it
    (:func:`articulated_sweeps`): its body's rigid one if a leaf, else P[k]."""
    if leaf:
        m_k, h_k, I_k = inertia_of(m_W, h_W, I_W, k)
        return _rigid_articulated(m_k, h_k, I_k)
    return _load_articulated(P, k)


@jitable
def _p_up(X_pc, k, parent):
    """p_PoBo of mobod k, or zero if its parent is World: nothing is shifted to World's
    origin (World's acceleration is zero and its articulated inertia unused, as in Drake):
    p_WoBo of a body far away (1e308 m) would overflow the shifted terms, and 0·∞ make its
    v̇ NaN."""
    return _p_PoBo(X_pc, k, parent) if parent != 0 else _zero3(X_pc[LAYER_WB, 0, 0, 0])


@jitable
def _scale6(s, a):
    """s·a for a scalar s and a 6-sequence a."""
    return s * a[0], s * a[1], s * a[2], s * a[3], s * a[4], s * a[5]


@jitable
def _shift_to_parent(F, p):
    """Φᵀ·F = [τ + p × f; f]: a spatial force (or a column of one) F = [τ; f] at Bo, shifted
    to Po (p = p_PoBo)."""
    t = cross3(p, (F[3], F[4], F[5]))
    return F[0] + t[0], F[1] + t[1], F[2] + t[2], F[3], F[4], F[5]


@jitable
def _add6(a, b):
    return a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5]


@jitable
def _axpy6(s, a, b):
    """s·a + b for a scalar s and 6-sequences a, b."""
    return (
        s * a[0] + b[0],
        s * a[1] + b[1],
        s * a[2] + b[2],
        s * a[3] + b[3],
        s * a[4] + b[4],
        s * a[5] + b[5],
    )


@jitable
def calc_forward_dynamics(model, params, work, tau, F_app, reflected, vdot, A_WB):
    """Articulated body algorithm: v̇ from M(q)·v̇ + C(q, v)·v = tau + Σ_B J_Bᵀ·F_app[B], with
    diag(reflected) added to M, and v̇ = 0 for the mobods with ``params.locked[k]`` nonzero, at
    the kinematics and inertias of the workspace ``work`` (X_pc, H_PB_W, V_WB, A_bias, m_W,
    h_W, I_W).

    Scratch of ``work``: P (n×6×6 articulated inertias, upper blocks; not a leaf's), z (n×6
    bias forces), U (nv×6), D_factor (n×6×6), u_aba (nv). Outputs v̇ and A_WB. Returns −1,
    or the first mobod (from the tips) whose articulated inertia across its mobilizer is not
    positive definite.

    Tip to base, per mobod with H = H_PB_W (6×nv), c = A_bias, Φ the shift of motions from Po
    to Bo: U = Pa·H, D = Hᵀ·U + diag(reflected), u = tau − Hᵀ·z; the parent gets
    Φᵀ·(Pa − U·D⁻¹·Uᵀ)·Φ and Φᵀ·(z + Pa·c) + Φᵀ·U·D⁻¹·(u − Uᵀ·c). Base to tip,
    v̇ = D⁻¹·(u − Uᵀ·c − (Φᵀ·U)ᵀ·A_WP) and A_WB = Φ·A_WP + c + H·v̇. The products by a
    one-dof column's zero half (a revolute mobilizer's [a_W; 0] where X_MB is the identity, a
    prismatic one's [0; a_W]) are skipped: see :func:`_zero_half`; so are those by the zeros
    of a leaf's Pa, its body's rigid inertia (formed where it is used, not stored in P): see
    :func:`_B_times` and :func:`_shift_rigid`. The terms that follow the parent's are
    computed with Φᵀ·U rather than with U, which keeps the chains of dependent operations
    from mobod to mobod short. A one-dof mobilizer keeps, in U, u and
    D_factor[k, 0, 0], Φᵀ·U (6), u − Uᵀ·c and 1/D; one of several dofs, with D = L·Lᵀ
    (Cholesky) and W = U·L⁻ᵀ: Φᵀ·W (nv×6), L⁻¹·(u − Uᵀ·c) and L (in D_factor[k]).
    """
    tree, V_WB, m_W, h_W, I_W = model.tree, work.V_WB, work.m_W, work.h_W, work.I_W
    for k in range(1, tree.shape[0]):
        m, h, I = inertia_of(m_W, h_W, I_W, k)
        articulated_own(tree, m, h, I, _row6(V_WB, k), _row6(F_app, k), work.P, work.z, k)
    return articulated_sweeps(model, params, work, tau, reflected, vdot, A_WB)


@jitable
def articulated_own(tree, m, h, I, V, F, P, z, k):
    """What the articulated body algorithm starts from at mobod k (see
    :func:`calc_forward_dynamics`): its bias force z[k] = [w × (I·w); w × (w × h)] − F, of the
    body's (m, h, I) (I a 6-tuple, see :func:`body_inertia`), its velocity V and the force F
    on it (6-sequences), to which the children's are added. Its body's own articulated
    inertia (the rigid one) is formed where it is used: by a leaf, and by the first child the
    tip-to-base sweep takes (:func:`articulated_sweeps`), with what that child passes on; in a
    tree of more than :data:`_FORMED_BY_CHILD` mobods it is stored here, into P[k] (but a
    leaf's)."""
    n = tree.shape[0]
    if n > _FORMED_BY_CHILD and not _leaf(tree, k, n):
        _store_articulated(_rigid_articulated(m, h, I), P, k)
    tb, fb = _bias_force(h, I, V)
    store_row3(sub(tb, (F[0], F[1], F[2])), z, k, 0)
    store_row3(sub(fb, (F[3], F[4], F[5])), z, k, 3)


@jitable
def articulated_sweeps(model, params, work, tau, reflected, vdot, A_WB):
    """:func:`calc_forward_dynamics` from P and z as :func:`articulated_own` leaves them for
    every mobod: its sweeps tip to base and base to tip."""
    tree, locked, X_kind = model.tree, params.locked, params.X_kind
    X_pc, H_PB_W, A_bias = work.X_pc, work.H_PB_W, work.A_bias
    m_W, h_W, I_W = work.m_W, work.h_W, work.I_W
    P, z, U, D_factor, u = work.P, work.z, work.U, work.D_factor, work.u_aba
    n = tree.shape[0]
    formed = 0 if n <= _FORMED_BY_CHILD else -1  # (bit k: P[k] holds k's rigid part)
    for k in range(n - 1, 0, -1):
        parent = tree[k, PARENT]
        nv = NUM_VELOCITIES[tree[k, JTYPE]]
        c = tree[k, V_START]
        leaf = _leaf(tree, k, n)
        one = nv == 1 and locked[k] == 0
        # Pa, z[k], c[k] and p are loaded where they are used, in each branch, not before them
        # (nor kept for the parent's terms, below): loaded before, they were spilled to the
        # stack and reloaded.
        zero = 0.0 * A_bias[k, 0]
        Ut = (zero, zero, zero, zero, zero, zero)  # (a one-dof mobilizer's, for its parent's terms)
        D_inv, r = zero, zero
        if one:
            half = _zero_half(tree, X_kind, k)
            Pa = _own_articulated(m_W, h_W, I_W, P, k, leaf)
            Uk, HU, Hz = _one_dof_column(Pa, _row6(H_PB_W, c), _row6(z, k), half, leaf)
            D = HU + reflected[c]
            if not positive(D):
                return k
            r = (tau[c] - Hz) - _dot6(Uk, _row6(A_bias, k))  # u − Uᵀ·c
            Ut = _shift_to_parent(Uk, _p_up(X_pc, k, parent))
            for i in range(6):
                U[c, i] = Ut[i]
            D_inv = 1.0 / D
            D_factor[k, 0, 0] = D_inv
            u[c] = r
        elif nv > 0 and locked[k] == 0:
            # U[j] = Φᵀ·U_j for now; D's lower triangle into D_factor[k], then factored in place.
            Pa = _own_articulated(m_W, h_W, I_W, P, k, leaf)
            zk, ck, p = _row6(z, k), _row6(A_bias, k), _p_up(X_pc, k, parent)
            for i in range(nv):
                hi = _row6(H_PB_W, c + i)
                Ui = _articulated_times(Pa, hi, leaf)
                for j in range(i + 1):
                    D_factor[k, i, j] = _dot6(_row6(H_PB_W, c + j), Ui)
                D_factor[k, i, i] += reflected[c + i]
                u[c + i] = (tau[c + i] - _dot6(hi, zk)) - _dot6(Ui, ck)  # u − Uᵀ·c
                Ut = _shift_to_parent(Ui, p)
                for e in range(6):
                    U[c + i, e] = Ut[e]
            # Cholesky D = L·Lᵀ, and by forward substitution Φᵀ·W = Φᵀ·U·L⁻ᵀ and
            # y = L⁻¹·(u − Uᵀ·c), column by column.
            for j in range(nv):
                s = D_factor[k, j, j]
                for i in range(j):
                    s -= D_factor[k, j, i] * D_factor[k, j, i]
                if not positive(s):
                    return k
                L_jj = s**0.5
                D_factor[k, j, j] = L_jj
                for i in range(j + 1, nv):
                    t = D_factor[k, i, j]
                    for m in range(j):
                        t -= D_factor[k, i, m] * D_factor[k, j, m]
                    D_factor[k, i, j] = t / L_jj
                Wj = _row6(U, c + j)
                y = u[c + j]
                for i in range(j):
                    Wj = _axpy6(-D_factor[k, j, i], _row6(U, c + i), Wj)
                    y -= D_factor[k, j, i] * u[c + i]
                L_inv = 1.0 / L_jj
                for i in range(6):
                    U[c + j, i] = L_inv * Wj[i]
                u[c + j] = L_inv * y
        if parent != 0:  # (World's articulated inertia is not needed: nothing is passed to it.)
            # The parent gets Pa and z + Pa·c shifted, less the columns of the dofs (of what the
            # projection above left in U, D_factor and u; none if locked or a weld). Pa and p
            # are loaded again after the projection's stores, for z + Pa·c, then for P_up
            # after z's store (which may alias them, for all LLVM knows), so that none is kept.
            Pa = _own_articulated(m_W, h_W, I_W, P, k, leaf)
            p = _p_up(X_pc, k, parent)
            z_up = _shift_to_parent(_add6(_row6(z, k), _articulated_times(Pa, _row6(A_bias, k),
                                                                         leaf)), p)  # fmt: skip
            if one:
                z_up = _axpy6(r, _scale6(D_inv, Ut), z_up)
            elif nv > 0 and locked[k] == 0:
                for j in range(nv):
                    z_up = _axpy6(u[c + j], _row6(U, c + j), z_up)
            for i in range(6):
                z[parent, i] += z_up[i]
            Pa = _own_articulated(m_W, h_W, I_W, P, k, leaf)
            p = _p_up(X_pc, k, parent)
            P_up = _shift_rigid(Pa, p) if leaf else _shift_articulated(Pa, p)
            if one:
                P_up = _remove_dof(P_up, Ut, _scale6(D_inv, Ut))
            elif nv > 0 and locked[k] == 0:
                for j in range(nv):  # Pa − U·D⁻¹·Uᵀ = Pa − W·Wᵀ, one column at a time
                    Wj = _row6(U, c + j)
                    P_up = _remove_dof(P_up, Wj, Wj)
            if (formed >> parent) & 1 != 0:
                _add_articulated(P_up, P, parent)
            else:  # (the parent's first child: P[parent] = its rigid part + P_up)
                m_p, h_p, I_p = inertia_of(m_W, h_W, I_W, parent)
                _store_articulated(_sum_articulated(_rigid_articulated(m_p, h_p, I_p), P_up),
                                   P, parent)  # fmt: skip
                formed |= 1 << parent
    # Base to tip: A_WB = Φ·A_WP + c + H·v̇, v̇ as above.
    for i in range(6):
        A_WB[0, i] = 0.0 * A_bias[0, i]
    for k in range(1, n):
        parent = tree[k, PARENT]
        nv = NUM_VELOCITIES[tree[k, JTYPE]]
        c = tree[k, V_START]
        A_P = _row6(A_WB, parent)
        alpha, a = _compose_acceleration(tree, X_pc, A_bias, A_WB, k)
        if nv > 0 and locked[k] != 0:
            for i in range(c, c + nv):
                vdot[i] = 0.0 * u[i]
        elif nv == 1:
            vd = D_factor[k, 0, 0] * (u[c] - _dot6(_row6(U, c), A_P))
            vdot[c] = vd
            half = _zero_half(tree, X_kind, k)
            if half != 0:
                alpha = add(alpha, scale(vd, row3(H_PB_W, c, 0)))
            if half != 3:
                a = add(a, scale(vd, row3(H_PB_W, c, 3)))
        elif nv > 0:
            # v̇ = L⁻ᵀ·(y − (Φᵀ·W)ᵀ·A_WP), by back substitution.
            for j in range(nv - 1, -1, -1):
                t = u[c + j] - _dot6(_row6(U, c + j), A_P)
                for i in range(j + 1, nv):
                    t -= D_factor[k, i, j] * vdot[c + i]
                vdot[c + j] = t / D_factor[k, j, j]
            for i in range(c, c + nv):
                alpha = add(alpha, scale(vdot[i], row3(H_PB_W, i, 0)))
                a = add(a, scale(vdot[i], row3(H_PB_W, i, 3)))
        store_row3(alpha, A_WB, k, 0)
        store_row3(a, A_WB, k, 3)
    return -1
