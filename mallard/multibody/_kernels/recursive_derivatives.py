"""Analytical derivatives of inverse dynamics in two O(n) recursions and O(n²) dot products,
after Carpentier & Mansard ("Analytical derivatives of rigid body dynamics algorithms", RSS
2018), derived here in mallard's notation, for the models whose mobilizers are welds, 1-dof
joints with an axis fixed in both frames (revolute, prismatic, screw) or quaternion floating
joints (below), gravity on all bodies or none and no applied body forces;
kernels.derivatives' tangent sweeps do the others.

Spatial vectors at the World origin Wo, in W, [rotational; translational]. Mobod k (parent λ)
has the column S_k (its dof's H_PB_W at Wo), the velocity v_k, the acceleration â_k = a_k − a_g
(a_g = [0; g], or zero without gravity), the spatial inertia I_k = (m, h, Ī) about Wo, its
rate İ_k = v_k ×* I_k − I_k·v_k × (an inertia with no mass: (ḣ, İ)) and momentum h_k = I_k·v_k;
C_k, Ċ_k and P_k their sums over k's subtree. With u_j = S_j × v_λ, w_j = −S_j × â_λ + u_j × v_λ
(λ = j's parent), and B_k·x = Ċ_k·x + x ×* P_k, Newton–Euler's τ_i = S_iᵀ·F_i
(F_i = Σ_{k ⪰ i} I_k·â_k + v_k ×* h_k, the primal pass's forces) varies as
  ∂τ_i/∂q_j = S_iᵀ·(C_i·w_j − B_i·u_j),  ∂τ_i/∂v_j = S_iᵀ·(B_i·S_j − 2·C_i·u_j)  for j ⪯ i,
  ∂τ_i/∂q_j = S_iᵀ·(S_j ×* F_j + C_j·w_j − B_j·u_j),  ∂τ_i/∂v_j = S_iᵀ·(B_j·S_j − 2·C_j·u_j)
for i an ancestor of j, and zero elsewhere: the bodies outboard of j move rigidly with S_j,
their velocities and accelerations change by S_j × (v_k − v_λ) and
S_j × (a_k − a_λ) − u_j × (v_k − v_λ), and the rigid part S_j ×* F_i cancels against
∂S_i = S_j × S_i. The rows i of the first pair are dot products with α_i = C_i·S_i and
β_i = B_iᵀ·S_i = Ċ_i·S_i − S_i ×* P_i.

The sections of the derivative workspace ``deriv`` (kernels.derivatives) are reused as
scratch: per mobod K[:, 0:10] C (m, h, Ī as xx yy zz xy xz yz), K[:, 10:16] â, dA and dp_B Ċ
(İ, ḣ), dV P, and for a 1-dof joint A_WB its u, dF its w; per dof (rows 0 to nv − 1)
HJ[:, 0:6] S, HJ[:, 6:12] α, dH β.
The derivatives' rows of a column j ⪯ i are dot products with α_i, β_i, M's rows too
(M_ij = S_jᵀ·α_i): a loop over the dofs of j's subtree, contiguous. No branch depends on
the state, so ``work`` and ``deriv`` may be lane views (kernels.lane_views: L states at once,
kernels.batch).

A quaternion floating joint (Drake's v = (w_FM_F, v_FMo_F), its columns fixed in F, the
rotations' through Mo) is three prismatic joints along F's axes followed by a ball at Mo whose
columns are fixed in the frame T the translations carry: the formulas above hold for a
translation's column; turning the subtree about a rotation's column S_j leaves j's own
columns, velocity and acceleration as they are, so that for it u_j = S_j × v_j,
w_j = −S_j × â_j + u_j × v_j (j's own body in place of its parent), the rows of j's own dofs
take the ancestors' form, and ∂τ/∂v_j's 2·C·u_j becomes C·(S_j × v_T + u_j). The derivatives
along the quaternion's 4 numbers (independent: the pose depends on q_FM/|q_FM|, as
kernels.derivatives takes them) are those along the rotations times N⁺(q).
"""

from mallard.multibody._joint_types import PRISMATIC, QUATERNION_FLOATING, REVOLUTE, SCREW, WELD
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.kinematics import LAYER_WB
from mallard.multibody._kernels.lane_views import lane, lane_count
from mallard.multibody._kernels.mobilizers import NUM_VELOCITIES, calc_Nplus
from mallard.multibody._kernels.vec3 import (
    add,
    cross3,
    dot3,
    row3,
    scale,
    store_row3,
    sub,
    sym_vec,
)
from mallard.multibody._layout import JTYPE, PARENT, Q_START, REVERSED, V_START


@jitable
def covers(model, F_app_B):
    """1 if :func:`calc_inverse_dynamics_derivatives` applies: every mobilizer a weld, revolute,
    prismatic or screw joint or a quaternion floating joint not reversed, gravity's mask the
    same for every mobod, F_app_B all zero."""
    tree, mask = model.tree, model.gravity_mask
    for k in range(1, tree.shape[0]):
        jtype = tree[k, JTYPE]
        floating = jtype == QUATERNION_FLOATING and tree[k, REVERSED] == 0
        if not (jtype == WELD or jtype == REVOLUTE or jtype == PRISMATIC or jtype == SCREW):
            if not floating:
                return 0
        if mask[k] != mask[1]:
            return 0
    for b in range(F_app_B.shape[0]):
        for r in range(F_app_B.shape[1]):
            if F_app_B[b, r] != 0.0:
                return 0
    return 1


# ---- spatial algebra on pairs of 3-tuples --------------------------------------------------
@jitable
def _motion_cross(w, v, a, b):
    """[w; v] × [a; b] (motion vectors)."""
    return cross3(w, a), add(cross3(w, b), cross3(v, a))


@jitable
def _force_cross(w, v, n, f):
    """[w; v] ×* [n; f] (a motion vector across a force vector)."""
    return add(cross3(w, n), cross3(v, f)), cross3(w, f)


@jitable
def _inertia_times(m, h, Ib, a, b):
    """(m, h, Ī)·[a; b] = [Ī·a + h × b; m·b − h × a], a spatial inertia (Ī the 6-tuple
    xx yy zz xy xz yz) times a motion vector."""
    return add(sym_vec(Ib, a), cross3(h, b)), sub(scale(m, b), cross3(h, a))


@jitable
def _row6(A, k, j):
    return (A[k, j], A[k, j + 1], A[k, j + 2], A[k, j + 3], A[k, j + 4], A[k, j + 5])


@jitable
def _dot6(a, b, c, d):
    """[a; b]·[c; d]."""
    return dot3(a, c) + dot3(b, d)


@jitable
def _velocity_at_Wo(X_pc, V_WB, k):
    """V_WB[k] seen at Wo: [w; v_WBo − w × p_WBo]."""
    w = row3(V_WB, k, 0)
    p = (X_pc[LAYER_WB, k, 3, 0], X_pc[LAYER_WB, k, 3, 1], X_pc[LAYER_WB, k, 3, 2])
    return w, sub(row3(V_WB, k, 3), cross3(w, p))


@jitable
def _subtree_force_changes(z, C, Cdot, P_j, F_j, S, u, w, U):
    """The changes of the force F_j on mobod j's subtree (at Wo) along a q direction,
    S ×* F_j + C_j·w − Ċ_j·u − u ×* P_j, and along a v direction, Ċ_j·S + S ×* P_j − C_j·U, for
    a column S of j's mobilizer with its u, w, U; C = (m, h, Ī) and Ċ = (ḣ, İ) j's composite
    inertia and its rate, motion and force vectors as pairs of 3-tuples (z: a zero)."""
    (m, h, Ib), (hd, Id) = C, Cdot
    (Sw, Sv), (uw, uv), (ww, wv), (Uw, Uv) = S, u, w, U
    (Pn, Pf), (Fn, Ff) = P_j, F_j
    xn, xf = _force_cross(Sw, Sv, Fn, Ff)
    yn, yf = _inertia_times(m, h, Ib, ww, wv)
    qn, qf = add(xn, yn), add(xf, yf)
    yn, yf = _inertia_times(z, hd, Id, uw, uv)
    xn, xf = _force_cross(uw, uv, Pn, Pf)
    qn, qf = sub(qn, add(yn, xn)), sub(qf, add(yf, xf))
    yn, yf = _inertia_times(z, hd, Id, Sw, Sv)
    xn, xf = _force_cross(Sw, Sv, Pn, Pf)
    cn, cf = _inertia_times(m, h, Ib, Uw, Uv)
    return (qn, qf), (sub(add(yn, xn), cn), sub(add(yf, xf), cf))


@jitable(inline=True)
def _store_dq(dtau_dq, row, col, Nplus, r, value):
    """dtau_dq[row, col] = value (the derivative along q[col]); for r ≥ 0, ``value`` that
    along rotation r of a quaternion floating joint whose q_FM starts at col: its share
    N⁺[r, i]·value of the derivative along each q_FM[i] (Nplus the joint's N⁺)."""
    if r < 0:
        dtau_dq[row, col] = value
    else:
        for i in range(4):
            dtau_dq[row, col + i] += Nplus[r, i] * value


@jitable(inline=True)
def _subtree_row(SA, beta, c2, S, u, w, U):
    """(∂τ/∂q, ∂τ/∂v, M) of row c2, a dof of j's subtree, in a column S of j with its u, w, U
    (the row's α, β in SA[c2, 6:12], beta[c2]): α·w − β·u, β·S − α·U, α·S."""
    a_n, a_f = row3(SA, c2, 6), row3(SA, c2, 9)
    b_n, b_f = row3(beta, c2, 0), row3(beta, c2, 3)
    dq = _dot6(a_n, a_f, w[0], w[1]) - _dot6(b_n, b_f, u[0], u[1])
    dv = _dot6(b_n, b_f, S[0], S[1]) - _dot6(a_n, a_f, U[0], U[1])
    return dq, dv, _dot6(a_n, a_f, S[0], S[1])


@jitable(inline=True)
def _store_row(dtau_dv, M, c2, c, dv, M_c2c):
    """dtau_dv[c2, c] = dv, M[c2, c] = M[c, c2] = M_c2c."""
    dtau_dv[c2, c] = dv
    M[c2, c] = M_c2c
    M[c, c2] = M_c2c


@jitable
def _floating_acceleration(X_pc, H_PB_W, V_WB, SA, v, vdot, parent, c0, p, w, vo, al, a):
    """â_k = â_λ + Σ S·v̇ + Ṡ·v (â_λ = (al, a); k's velocity (w, vo) and its origin p, at
    Wo) of a mobod k with a quaternion floating joint, v = (w_FM_F, v_FMo_F), its dofs c0 on,
    its columns S at Wo stored in SA: three prismatic joints along F's axes (Ṡ = v_λ × S),
    then a ball at Mo whose columns are fixed in the frame T they carry (Ṡ = v_T × S,
    v_T = v_λ + [0; Σ S·v of the translations])."""
    z = 0.0 * p[0]
    zero = (z, z, z)
    wP, vP = zero, zero
    if parent > 0:
        wP, vP = _velocity_at_Wo(X_pc, V_WB, parent)
    dvT = zero
    for c in range(c0, c0 + 6):
        Sw = row3(H_PB_W, c, 0)
        Sv = sub(row3(H_PB_W, c, 3), cross3(Sw, p))
        store_row3(Sw, SA, c, 0)
        store_row3(Sv, SA, c, 3)
        al = add(al, scale(vdot[c], Sw))
        a = add(a, scale(vdot[c], Sv))
        if c >= c0 + 3:
            dvT = add(dvT, scale(v[c], Sv))
    vT = add(vP, dvT)
    tw, tv = _motion_cross(wP, vT, sub(w, wP), sub(vo, vT))
    return add(al, tw), add(a, add(cross3(wP, dvT), tv))


@jitable
def _floating_frames(model, X_pc, V_WB, K, SA, Nplus, q, v, j, zero):
    """(V_λ, â_λ, V_j, â_j, V_T) at Wo of mobod j's quaternion floating joint (λ its parent,
    T the frame its translations carry), and its N⁺ into Nplus (lane by lane)."""
    tree = model.tree
    cj, qj, parent = tree[j, V_START], tree[j, Q_START], tree[j, PARENT]
    q_j = q[qj:]
    for i in range(lane_count(q)):  # (lane views: lane by lane)
        calc_Nplus(QUATERNION_FLOATING, model.jparam[j], lane(q_j, i), lane(Nplus, i))
    V_l = (zero, zero)
    if parent > 0:
        V_l = _velocity_at_Wo(X_pc, V_WB, parent)
    vT = V_l[1]
    for c in range(cj + 3, cj + 6):
        vT = add(vT, scale(v[c], row3(SA, c, 3)))
    A_l = (row3(K, parent, 10), row3(K, parent, 13))
    A_j = (row3(K, j, 10), row3(K, j, 13))
    return V_l, A_l, _velocity_at_Wo(X_pc, V_WB, j), A_j, (V_l[0], vT)


@jitable
def _floating_column(S, r, frames):
    """(u, w, U) of column S = S_r of a quaternion floating joint (r < 3 a rotation, else a
    translation), given ``frames`` of :func:`_floating_frames` (see the module)."""
    V_l, A_l, V_j, A_j, V_T = frames
    V_b, A_b = V_l, A_l
    if r < 3:
        V_b, A_b = V_j, A_j
    u = _motion_cross(S[0], S[1], V_b[0], V_b[1])
    sw, sv = _motion_cross(S[0], S[1], A_b[0], A_b[1])
    tw, tv = _motion_cross(u[0], u[1], V_b[0], V_b[1])
    w = (sub(tw, sw), sub(tv, sv))
    if r < 3:
        xw, xv = _motion_cross(S[0], S[1], V_T[0], V_T[1])
        return u, w, (add(xw, u[0]), add(xv, u[1]))
    return u, w, (scale(2.0, u[0]), scale(2.0, u[1]))


@jitable
def calc_inverse_dynamics_derivatives(
    model, params, work, deriv, q, v, vdot, dtau_dq, dtau_dv, M
):  # fmt: skip
    """dtau_dq (nv×nq) and dtau_dv (nv×nv) of kernels.derivatives'
    calc_inverse_dynamics_derivatives (with no applied forces) for a model :func:`covers`, at
    the kinematics and inertias of ``work``, the positions q (for the quaternions' N⁺),
    velocities v and accelerations v̇, and M = ∂τ/∂v̇ (nv×nv, diag(params.reflected) added):
    M_ij = S_jᵀ·α_i for j ⪯ i, mirrored (kernels.dynamics.calc_mass_matrix's M to rounding,
    from the same composite inertias as the derivatives); the primal Newton–Euler pass done
    here (â, and F at Wo in deriv.F)."""
    tree, g, damping, reflected = model.tree, params.g_W, params.damping, params.reflected
    X_pc, H_PB_W, V_WB, m_W, h_W, I_W = (
        work.X_pc, work.H_PB_W, work.V_WB, work.m_W, work.h_W, work.I_W
    )  # fmt: skip
    F, K, Idot, hdot, P = deriv.F, deriv.K, deriv.dA, deriv.dp_B, deriv.dV
    SA, beta, Uk, Wk = deriv.HJ, deriv.dH, deriv.A_WB, deriv.dF
    n = tree.shape[0]
    z = 0.0 * m_W[0]  # (of the state's type: a lane value in lanes)
    zero = (z, z, z)
    a_g = zero
    if n > 1 and model.gravity_mask[1] != 0:
        a_g = (g[0] + z, g[1] + z, g[2] + z)
    for r in range(3):
        K[0, 10 + r] = z
        K[0, 13 + r] = -a_g[r]
    # Base to tip: each mobod's own C, Ċ, P and force I·â + v ×* h (summed below), â, and
    # its dofs' S (a 1-dof joint's u, w too); â_k = â_λ + Σ S·v̇ + Ṡ·v, Ṡ = v_λ × S for a
    # 1-dof joint (â_k = â_λ + S·v̇ − u·v).
    for k in range(1, n):
        p = (X_pc[LAYER_WB, k, 3, 0], X_pc[LAYER_WB, k, 3, 1], X_pc[LAYER_WB, k, 3, 2])
        w = row3(V_WB, k, 0)
        vo = sub(row3(V_WB, k, 3), cross3(w, p))
        parent = tree[k, PARENT]
        al, a = row3(K, parent, 10), row3(K, parent, 13)
        nv_k = NUM_VELOCITIES[tree[k, JTYPE]]
        if nv_k == 1:
            c = tree[k, V_START]
            Sw = row3(H_PB_W, c, 0)
            Sv = sub(row3(H_PB_W, c, 3), cross3(Sw, p))
            wP, vP = zero, zero
            if parent > 0:
                wP, vP = _velocity_at_Wo(X_pc, V_WB, parent)
            uw, uv = _motion_cross(Sw, Sv, wP, vP)
            sw, sv = _motion_cross(Sw, Sv, al, a)
            tw, tv = _motion_cross(uw, uv, wP, vP)
            store_row3(Sw, SA, c, 0)
            store_row3(Sv, SA, c, 3)
            store_row3(uw, Uk, k, 0)
            store_row3(uv, Uk, k, 3)
            store_row3(sub(tw, sw), Wk, k, 0)
            store_row3(sub(tv, sv), Wk, k, 3)
            al = add(al, sub(scale(vdot[c], Sw), scale(v[c], uw)))
            a = add(a, sub(scale(vdot[c], Sv), scale(v[c], uv)))
        elif nv_k == 6:
            c0 = tree[k, V_START]
            al, a = _floating_acceleration(
                X_pc, H_PB_W, V_WB, SA, v, vdot, parent, c0, p, w, vo, al, a
            )
        store_row3(al, K, k, 10)
        store_row3(a, K, k, 13)
        # Ī about Wo = Ī_Bo + m·(|p|²·1 − p·pᵀ) + 2·(p·h_B)·1 − p·h_Bᵀ − h_B·pᵀ.
        m = m_W[k]
        hB = row3(h_W, k, 0)
        h = add(hB, scale(m, p))
        d = m * dot3(p, p) + 2.0 * dot3(p, hB)
        Ib = (
            I_W[k, 0, 0] + d - m * p[0] * p[0] - 2.0 * p[0] * hB[0],
            I_W[k, 1, 1] + d - m * p[1] * p[1] - 2.0 * p[1] * hB[1],
            I_W[k, 2, 2] + d - m * p[2] * p[2] - 2.0 * p[2] * hB[2],
            I_W[k, 0, 1] - m * p[0] * p[1] - p[0] * hB[1] - hB[0] * p[1],
            I_W[k, 0, 2] - m * p[0] * p[2] - p[0] * hB[2] - hB[0] * p[2],
            I_W[k, 1, 2] - m * p[1] * p[2] - p[1] * hB[2] - hB[1] * p[2],
        )
        K[k, 0] = m
        store_row3(h, K, k, 1)
        for r in range(6):
            K[k, 4 + r] = Ib[r]
        mom_n, mom_f = _inertia_times(m, h, Ib, w, vo)
        store_row3(mom_n, P, k, 0)
        store_row3(mom_f, P, k, 3)
        fn, ff = _inertia_times(m, h, Ib, al, a)
        xn, xf = _force_cross(w, vo, mom_n, mom_f)
        store_row3(add(fn, xn), F, k, 0)
        store_row3(add(ff, xf), F, k, 3)
        # İ = [w]×·Ī − Ī·[w]× − (h·vᵀ + v·hᵀ) + 2·(v·h)·1, ḣ = w × h + m·v.
        c0 = cross3(w, (Ib[0], Ib[3], Ib[4]))
        c1 = cross3(w, (Ib[3], Ib[1], Ib[5]))
        c2 = cross3(w, (Ib[4], Ib[5], Ib[2]))
        vh = 2.0 * dot3(vo, h)
        Idot[k, 0] = 2.0 * (c0[0] - h[0] * vo[0]) + vh
        Idot[k, 1] = 2.0 * (c1[1] - h[1] * vo[1]) + vh
        Idot[k, 2] = 2.0 * (c2[2] - h[2] * vo[2]) + vh
        Idot[k, 3] = c1[0] + c0[1] - h[0] * vo[1] - vo[0] * h[1]
        Idot[k, 4] = c2[0] + c0[2] - h[0] * vo[2] - vo[0] * h[2]
        Idot[k, 5] = c2[1] + c1[2] - h[1] * vo[2] - vo[1] * h[2]
        store_row3(add(cross3(w, h), scale(m, vo)), hdot, k, 0)
    # Tip to base: the subtree sums, and α, β of each dof (rows by dof).
    for k in range(n - 1, 0, -1):
        c0 = tree[k, V_START]
        for c in range(c0, c0 + NUM_VELOCITIES[tree[k, JTYPE]]):
            Sw, Sv = row3(SA, c, 0), row3(SA, c, 3)
            an, af = _inertia_times(K[k, 0], row3(K, k, 1), _row6(K, k, 4), Sw, Sv)
            bn, bf = _inertia_times(z, row3(hdot, k, 0), _row6(Idot, k, 0), Sw, Sv)
            xn, xf = _force_cross(Sw, Sv, row3(P, k, 0), row3(P, k, 3))
            store_row3(an, SA, c, 6)
            store_row3(af, SA, c, 9)
            store_row3(sub(bn, xn), beta, c, 0)
            store_row3(sub(bf, xf), beta, c, 3)
        parent = tree[k, PARENT]
        if parent > 0:
            for r in range(10):
                K[parent, r] += K[k, r]
            for r in range(6):
                Idot[parent, r] += Idot[k, r]
                P[parent, r] += P[k, r]
                F[parent, r] += F[k, r]
            for r in range(3):
                hdot[parent, r] += hdot[k, r]
    for i in range(dtau_dq.shape[0]):
        for c in range(dtau_dq.shape[1]):
            dtau_dq[i, c] = z
        for c in range(dtau_dv.shape[1]):
            dtau_dv[i, c] = z
            M[i, c] = z
    # Column c, a dof of mobod j: the rows of the dofs of j's subtree (j's first to
    # v_end[j] − 1, the mobods numbered depth first), then those of its ancestors. A 1-dof
    # joint's column moves j's subtree about S_c from j's parent λ (u = S × v_λ,
    # w = −S × â_λ + u × v_λ, U = 2·u). A quaternion floating joint's translation likewise; its
    # rotation turns the subtree about S_c from j's own body, whose velocity and acceleration
    # stay (u = S × v_j, w = −S × â_j + u × v_j; U = S × v_T + u): for the joint's own rows
    # and its ancestors' the rigid part S ×* F_j of the change of the subtree's force
    # remains, and the derivatives along the quaternion's 4 numbers are N⁺ᵀ of these.
    v_end, Nplus = model.v_end, deriv.Nplus
    for j in range(1, n):
        nv_j = NUM_VELOCITIES[tree[j, JTYPE]]
        if nv_j == 0:
            continue
        cj, qj, parent = tree[j, V_START], tree[j, Q_START], tree[j, PARENT]
        frames = ((zero, zero), (zero, zero), (zero, zero), (zero, zero), (zero, zero))
        if nv_j == 6:
            frames = _floating_frames(model, X_pc, V_WB, K, SA, Nplus, q, v, j, zero)
        for c in range(cj, cj + nv_j):
            S = (row3(SA, c, 0), row3(SA, c, 3))
            r, col, lo = -1, qj, cj  # (rows lo and on: α·w − β·u)
            if nv_j == 1:
                u = (row3(Uk, j, 0), row3(Uk, j, 3))
                w = (row3(Wk, j, 0), row3(Wk, j, 3))
                U = (scale(2.0, u[0]), scale(2.0, u[1]))
            else:
                u, w, U = _floating_column(S, c - cj, frames)
                col = qj + 1 + (c - cj)
                if c < cj + 3:
                    r, col, lo = c - cj, qj, cj + 6
            if r < 0:  # (the common case without a branch per row)
                for c2 in range(cj, v_end[j]):
                    dq, dv, M_c2c = _subtree_row(SA, beta, c2, S, u, w, U)
                    dtau_dq[c2, col] = dq
                    _store_row(dtau_dv, M, c2, c, dv, M_c2c)
            else:
                for c2 in range(cj, v_end[j]):
                    dq, dv, M_c2c = _subtree_row(SA, beta, c2, S, u, w, U)
                    if c2 >= lo:
                        _store_dq(dtau_dq, c2, col, Nplus, r, dq)
                    _store_row(dtau_dv, M, c2, c, dv, M_c2c)
            if parent <= 0 and r < 0:
                continue
            C = (K[j, 0], row3(K, j, 1), _row6(K, j, 4))
            Cdot = (row3(hdot, j, 0), _row6(Idot, j, 0))
            P_j = (row3(P, j, 0), row3(P, j, 3))
            F_j = (row3(F, j, 0), row3(F, j, 3))
            (qn, qf), (vn, vf) = _subtree_force_changes(z, C, Cdot, P_j, F_j, S, u, w, U)
            for c2 in range(cj, lo):
                value = _dot6(row3(SA, c2, 0), row3(SA, c2, 3), qn, qf)
                _store_dq(dtau_dq, c2, col, Nplus, r, value)
            i = parent
            while i > 0:
                ci = tree[i, V_START]
                for c2 in range(ci, ci + NUM_VELOCITIES[tree[i, JTYPE]]):
                    Si_w, Si_v = row3(SA, c2, 0), row3(SA, c2, 3)
                    _store_dq(dtau_dq, c2, col, Nplus, r, _dot6(Si_w, Si_v, qn, qf))
                    dtau_dv[c2, c] = _dot6(Si_w, Si_v, vn, vf)
                i = tree[i, PARENT]
    for i in range(model.nv):
        dtau_dv[i, i] += damping[i]
        M[i, i] += reflected[i]
