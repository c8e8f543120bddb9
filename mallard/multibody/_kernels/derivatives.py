"""Analytical derivatives of inverse dynamics: ∂τ/∂q and ∂τ/∂v of the recursive Newton–Euler
algorithm (kernels.dynamics), by forward-mode tangents, one O(n) sweep per direction.

Conventions as in kernels.dynamics: spatial vectors of a mobod's body B at its origin Bo, in
World W, [rotational; translational]. A tangent δx is the derivative of x along one direction:
a q entry q[i] (the entries of a quaternion are independent variables, and the pose depends on
q_FM/|q_FM|, exactly as forward-mode AutoDiff of the plant sees them) or a v entry v[i].

Direction q[i], a coordinate of mobod j: the motion of j's body relative to its parent per unit
q̇[i] is ξ = H_PB_W·N⁺(q)·e_i = (θ, u), θ a rotation and u the velocity of Bo_j, in W. Every
body outboard of j (j's included) moves rigidly with it: a point x fixed on one moves by
δx = v_O + θ × x (v_O = u − θ × p_WBo_j), a vector fixed on one by θ × (·); nothing inboard
moves. Direction v[i]: θ = v_O = 0, only velocities change. Either way only j's subtree has
nonzero kinematic tangents, and the forces' tangents flow from it down to the root.

A derivative workspace ``dws`` (float64 or object) holds the tangents and temporaries, in the
sections of mallard.multibody._layout.DERIVATIVES (``deriv``: their views).
"""

from mallard.multibody._joint_types import PRISMATIC, REVOLUTE, SCREW
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.kinematics import LAYER_WB, LAYER_WF, LAYER_WM
from mallard.multibody._kernels.lane_views import strided
from mallard.multibody._kernels.mobilizers import (
    H_FM_VARIES,
    NUM_POSITIONS,
    NUM_VELOCITIES,
    calc_A_FM_bias,
    calc_joint_tangent,
    calc_Nplus,
    calc_V_FM,
)
from mallard.multibody._kernels.vec3 import (
    add,
    cross3,
    dot3,
    mat_vec,
    row3,
    scale,
    store_row3,
    sub,
)
from mallard.multibody._layout import JTYPE, PARENT, Q_START, REVERSED, V_START


# ---- views-free access (a view of an array costs reference counting in compiled code) ----
@jitable
def _origin(X_pc, frame, k):
    """The origin (row 3) of pose X_pc[frame, k]: p_WFo, p_WMo or p_WBo of mobod k, in W."""
    return X_pc[frame, k, 3, 0], X_pc[frame, k, 3, 1], X_pc[frame, k, 3, 2]


@jitable
def _inertia_times(I_W, k, a):
    """I_W[k]·a, the rotational inertia of mobod k's body about Bo (in W) times a."""
    return (
        I_W[k, 0, 0] * a[0] + I_W[k, 0, 1] * a[1] + I_W[k, 0, 2] * a[2],
        I_W[k, 1, 0] * a[0] + I_W[k, 1, 1] * a[1] + I_W[k, 1, 2] * a[2],
        I_W[k, 2, 0] * a[0] + I_W[k, 2, 1] * a[1] + I_W[k, 2, 2] * a[2],
    )


# ---- one joint ----------------------------------------------------------------------------
@jitable
def _across_mobilizer_bias_tangent(
    reversed_joint, X_WF, X_WM, X_WB, V_FM, A_FM, dV_FM, dA_FM, th_F, th_M, dp_F, dp_M, dp_B
):
    """The tangent (δα, δa) of kernels.dynamics._across_mobilizer_bias, given the tangents of
    V_FM and A_FM, the rotations th_F, th_M of the mobilizer's frames F and M, and the
    displacements dp_F, dp_M, dp_B of their origins and of Bo (all in W)."""
    if reversed_joint != 0:
        R_WJ = X_WM
        th_J = th_M
        p_WJF = row3(X_WM, 3, 0)
        dp_JF = dp_M
        p_WJM = row3(X_WF, 3, 0)
        dp_JM = dp_F
    else:
        R_WJ = X_WF
        th_J = th_F
        p_WJF = row3(X_WF, 3, 0)
        dp_JF = dp_F
        p_WJM = row3(X_WM, 3, 0)
        dp_JM = dp_M
    w = mat_vec(R_WJ, V_FM[0:3])
    alpha = mat_vec(R_WJ, A_FM[0:3])
    a = mat_vec(R_WJ, A_FM[3:6])
    dw = add(cross3(th_J, w), mat_vec(R_WJ, dV_FM[0:3]))
    dalpha = add(cross3(th_J, alpha), mat_vec(R_WJ, dA_FM[0:3]))
    da = add(cross3(th_J, a), mat_vec(R_WJ, dA_FM[3:6]))
    p_WB = row3(X_WB, 3, 0)
    if reversed_joint == 0:
        p = sub(p_WB, p_WJM)
        dp = sub(dp_B, dp_JM)
        wp = cross3(w, p)
        d_out = add(add(da, cross3(dalpha, p)), cross3(alpha, dp))
        d_out = add(d_out, cross3(dw, wp))
        d_out = add(d_out, cross3(w, add(cross3(dw, p), cross3(w, dp))))
        return dalpha, d_out
    v = mat_vec(R_WJ, V_FM[3:6])
    dv = add(cross3(th_J, v), mat_vec(R_WJ, dV_FM[3:6]))
    p = sub(p_WJM, p_WJF)
    dp = sub(dp_JM, dp_JF)
    d = sub(p_WB, p_WJF)
    dd = sub(dp_B, dp_JF)
    # a_MFo = α × p − a + 2·w × v − w × (w × p); out = a_MFo − α × d + w × (w × d).
    d_aMF = sub(add(cross3(dalpha, p), cross3(alpha, dp)), da)
    d_aMF = add(d_aMF, scale(2.0, add(cross3(dw, v), cross3(w, dv))))
    d_aMF = sub(d_aMF, add(cross3(dw, cross3(w, p)), cross3(w, add(cross3(dw, p), cross3(w, dp)))))
    d_out = sub(d_aMF, add(cross3(dalpha, d), cross3(alpha, dd)))
    d_out = add(d_out, add(cross3(dw, cross3(w, d)), cross3(w, add(cross3(dw, d), cross3(w, dd)))))
    return scale(-1.0, dalpha), d_out


# ---- one direction ------------------------------------------------------------------------
@jitable
def _owner(tree, is_q, i):
    """(mobod, local index) of coordinate q[i] (``is_q``) or velocity v[i]."""
    for k in range(1, tree.shape[0]):
        jtype = tree[k, JTYPE]
        if is_q != 0:
            start = tree[k, Q_START]
            count = NUM_POSITIONS[jtype]
        else:
            start = tree[k, V_START]
            count = NUM_VELOCITIES[jtype]
        if start <= i < start + count:
            return k, i - start
    return -1, -1


@jitable
def calc_sweep_constants(model, work, deriv):
    """The terms of the tangent sweeps that no direction changes, from the kinematics and
    inertias of ``work`` and the primal pass's A_WB (of ``deriv``). Row k of deriv.K (n×18), for a
    mobod k ≥ 1 with parent P: p_PoBo = p_WBo − p_WPo, w_PB, v_PB (k's velocity in P, at Bo),
    I·w_WB, w_WB × h and I·α_WB (all in W). Row c of HJ (nv×12): s·[w; v − w × d], the
    column H_PB_W[c] = [w; v] seen at the origin of its joint's outboard frame, d = p_JMoBo
    from that origin (M, or F for a reversed joint) to Bo, s = −1 for a reversed joint; then
    [w; v − w × p_WBo], the column seen at Wo."""
    tree, X_pc, H_PB_W, V_WB, I_W, h_W = (
        model.tree, work.X_pc, work.H_PB_W, work.V_WB, work.I_W, work.h_W
    )  # fmt: skip
    A_WB, K, HJ = deriv.A_WB, deriv.K, deriv.HJ
    for k in range(1, tree.shape[0]):
        parent = tree[k, PARENT]
        p_B = _origin(X_pc, LAYER_WB, k)
        p = sub(p_B, _origin(X_pc, LAYER_WB, parent))
        wP = row3(V_WB, parent, 0)
        w_k = row3(V_WB, k, 0)
        v_PB = sub(row3(V_WB, k, 3), add(row3(V_WB, parent, 3), cross3(wP, p)))
        store_row3(p, K, k, 0)
        store_row3(sub(w_k, wP), K, k, 3)
        store_row3(v_PB, K, k, 6)
        store_row3(_inertia_times(I_W, k, w_k), K, k, 9)
        store_row3(cross3(w_k, row3(h_W, k, 0)), K, k, 12)
        store_row3(_inertia_times(I_W, k, row3(A_WB, k, 0)), K, k, 15)
        if tree[k, REVERSED] != 0:
            s = -1.0
            d = sub(p_B, _origin(X_pc, LAYER_WF, k))
        else:
            s = 1.0
            d = sub(p_B, _origin(X_pc, LAYER_WM, k))
        c0 = tree[k, V_START]
        for c in range(c0, c0 + NUM_VELOCITIES[tree[k, JTYPE]]):
            w = scale(s, row3(H_PB_W, c, 0))
            store_row3(w, HJ, c, 0)
            store_row3(sub(scale(s, row3(H_PB_W, c, 3)), cross3(w, d)), HJ, c, 3)
            w = row3(H_PB_W, c, 0)
            store_row3(w, HJ, c, 6)
            store_row3(sub(row3(H_PB_W, c, 3), cross3(w, p_B)), HJ, c, 9)


@jitable
def calc_inverse_dynamics_tangents(model, params, work, deriv, q, v, vdot, is_q, out):
    """out[:, i] = ∂τ/∂q[i] (``is_q``; out nv×nq) or ∂τ/∂v[i] (out nv×nv) for every i, one
    tangent sweep each, of Newton–Euler's
    τ = M·v̇ + C·v − tau_app − Σ_B J_Bᵀ·(F_app[B] + gravity on B), the applied forces F_app
    (at Bo in W) and tau_app held fixed, gravity [h × g; m·g] on the mobods with
    ``model.gravity_mask`` set moving with its body (g: params.g_W), at the kinematics and
    inertias of ``work``, the primal pass's A_WB and F (the forces each body and its
    outboard bodies need) and the sweep constants K, HJ of :func:`calc_sweep_constants`, of
    ``deriv`` (the views of a derivative workspace, whose other sections are scratch)."""
    tree, jparam, gravity_mask, g = model.tree, model.jparam, model.gravity_mask, params.g_W
    X_pc, H_PB_W, V_WB = work.X_pc, work.H_PB_W, work.V_WB
    m_W, h_W, I_W = work.m_W, work.h_W, work.I_W
    A_WB, F, K, HJ, active = deriv.A_WB, deriv.F, deriv.K, deriv.HJ, deriv.active
    dp_B, dV, dA, dF, dH = deriv.dp_B, deriv.dV, deriv.dA, deriv.dF, deriv.dH
    H_FM, dH_FM, Nplus = deriv.H_FM, deriv.dH_FM, deriv.Nplus
    V_FM, A_FM, dV_FM, dA_FM = deriv.V_FM, deriv.A_FM, deriv.dV_FM, deriv.dA_FM
    n = tree.shape[0]
    z = 0.0 * g[0]
    zero = (z, z, z)
    for i in range(out.shape[1]):
        j, il = _owner(tree, is_q, i)
        # Only j's subtree is written base to tip, and read with its parent's row; only dF of
        # the subtree and of j's parent, tip to base.
        for k in range(n):
            active[k] = 0
            for r in range(6):
                dF[k, r] = z
        pj = tree[j, PARENT]
        for r in range(3):
            dp_B[pj, r] = z
        for r in range(6):
            dV[pj, r] = z
            dA[pj, r] = z
        theta = zero
        v_O = zero
        if is_q != 0:
            # ξ = H_PB_W·N⁺·e_il: the motion of j's body in its parent per unit q̇[i].
            jtype_j = tree[j, JTYPE]
            calc_Nplus(jtype_j, jparam[j], strided(q[tree[j, Q_START] :]), strided(Nplus))
            xi_w = zero
            xi_v = zero
            for r in range(NUM_VELOCITIES[jtype_j]):
                c = tree[j, V_START] + r
                xi_w = add(xi_w, scale(Nplus[r, il], row3(H_PB_W, c, 0)))
                xi_v = add(xi_v, scale(Nplus[r, il], row3(H_PB_W, c, 3)))
            theta = xi_w
            v_O = sub(xi_v, cross3(theta, _origin(X_pc, LAYER_WB, j)))
        # Base to tip over j's subtree.
        for k in range(j, n):
            parent = tree[k, PARENT]
            if k != j and active[parent] != 1:
                continue
            active[k] = 1
            local = k == j
            # k's velocity in its parent changes only for a q direction or at j itself.
            relative = is_q != 0 or local
            jtype = tree[k, JTYPE]
            nv_k = NUM_VELOCITIES[jtype]
            c0 = tree[k, V_START]
            p_B = _origin(X_pc, LAYER_WB, k)
            p = row3(K, k, 0)
            p_WM = _origin(X_pc, LAYER_WM, k)
            axis = jtype == REVOLUTE or jtype == PRISMATIC or jtype == SCREW
            if local and (is_q == 0 or H_FM_VARIES[jtype]) and not axis:
                q_k = q[tree[k, Q_START] :]
                calc_joint_tangent(
                    jtype, jparam[k], q_k, v[c0:], is_q, il, H_FM, dH_FM, dV_FM, dA_FM
                )
            # Positions and frames: for a q direction, body k turns by θ and its points move by
            # v_O + θ × p; its parent too unless k = j.
            th_P = zero
            d_pB = zero
            dp = zero
            dp_F = zero
            dp_M = zero
            if is_q != 0:
                parent_moves = not local
                if parent_moves:
                    th_P = theta
                    dp_F = add(v_O, cross3(theta, _origin(X_pc, LAYER_WF, k)))
                d_pB = add(v_O, cross3(theta, p_B))
                dp = sub(d_pB, row3(dp_B, parent, 0))
                store_row3(d_pB, dp_B, k, 0)
                dp_M = add(v_O, cross3(theta, p_WM))
                # δH_PB_W: a column is s·[w; v + w × d], [w; v] its HJ[c, 0:6], d = p_JMoBo.
                if tree[k, REVERSED] != 0:
                    s = -1.0
                    layer_J = LAYER_WM
                    th_J = theta
                    d = sub(p_B, _origin(X_pc, LAYER_WF, k))
                    dd = sub(d_pB, dp_F)
                else:
                    s = 1.0
                    layer_J = LAYER_WF
                    th_J = th_P
                    d = sub(p_B, p_WM)
                    dd = sub(d_pB, dp_M)
                turns = local and H_FM_VARIES[jtype]
                for r in range(nv_k):
                    c = c0 + r
                    w = row3(HJ, c, 0)
                    dw = cross3(th_J, w)
                    dv = cross3(th_J, row3(HJ, c, 3))
                    if turns:
                        R_WJ = X_pc[layer_J, k]
                        dw = add(dw, mat_vec(R_WJ, (dH_FM[0, r], dH_FM[1, r], dH_FM[2, r])))
                        dv = add(dv, mat_vec(R_WJ, (dH_FM[3, r], dH_FM[4, r], dH_FM[5, r])))
                    store_row3(scale(s, dw), dH, c, 0)
                    store_row3(scale(s, add(add(dv, cross3(dw, d)), cross3(w, dd))), dH, c, 3)
            # δV_WB.
            wP = row3(V_WB, parent, 0)
            dwP = row3(dV, parent, 0)
            dw_k = dwP
            dv_shift = add(row3(dV, parent, 3), cross3(dwP, p))
            if is_q != 0:
                dv_shift = add(dv_shift, cross3(wP, dp))
            dv_k = dv_shift
            for r in range(nv_k):
                c = c0 + r
                if is_q != 0:
                    dw_k = add(dw_k, scale(v[c], row3(dH, c, 0)))
                    dv_k = add(dv_k, scale(v[c], row3(dH, c, 3)))
                elif local and r == il:
                    dw_k = add(dw_k, row3(H_PB_W, c, 0))
                    dv_k = add(dv_k, row3(H_PB_W, c, 3))
            store_row3(dw_k, dV, k, 0)
            store_row3(dv_k, dV, k, 3)
            # δA_bias (see kernels.dynamics.calc_acceleration_bias).
            w_k = row3(V_WB, k, 0)
            w_PB = row3(K, k, 3)
            v_PB = row3(K, k, 6)
            dw_PB = sub(dw_k, dwP)
            dv_PB = sub(dv_k, dv_shift)
            d_alpha = cross3(dwP, w_PB)
            wP_dp = cross3(dwP, p)
            if is_q != 0:
                wP_dp = add(wP_dp, cross3(wP, dp))
            d_a = add(cross3(dwP, cross3(wP, p)), cross3(wP, wP_dp))
            d_a = add(d_a, scale(2.0, cross3(dwP, v_PB)))
            if relative:
                d_alpha = add(d_alpha, cross3(wP, dw_PB))
                d_a = add(d_a, scale(2.0, cross3(wP, dv_PB)))
            if jtype == REVOLUTE or jtype == SCREW:
                p_MB = sub(p_B, p_WM)
                wdp = zero
                if relative:
                    d_a = add(d_a, cross3(dw_PB, cross3(w_PB, p_MB)))
                    wdp = cross3(dw_PB, p_MB)
                if is_q != 0:
                    wdp = add(wdp, cross3(w_PB, cross3(theta, p_MB)))  # δp_MoBo = θ × p_MoBo
                if relative:
                    d_a = add(d_a, cross3(w_PB, wdp))
            elif not axis and nv_k > 0:
                q_k, v_k = strided(q[tree[k, Q_START] :]), strided(v[c0:])  # (see strided)
                calc_V_FM(jtype, jparam[k], q_k, v_k, strided(V_FM))
                calc_A_FM_bias(jtype, jparam[k], q_k, v_k, strided(A_FM))
                if not local or (is_q != 0 and not H_FM_VARIES[jtype]):
                    for r in range(6):
                        dV_FM[r] = z
                        dA_FM[r] = z
                j_alpha, j_a = _across_mobilizer_bias_tangent(
                    tree[k, REVERSED], X_pc[LAYER_WF, k], X_pc[LAYER_WM, k], X_pc[LAYER_WB, k],
                    V_FM, A_FM, dV_FM, dA_FM, th_P, theta, dp_F, dp_M, d_pB,
                )  # fmt: skip
                d_alpha = add(d_alpha, j_alpha)
                d_a = add(d_a, j_a)
            # δA_WB = δ(A_WP shifted to Bo) + δA_bias + δH·v̇.
            dalP = row3(dA, parent, 0)
            d_alpha = add(dalP, d_alpha)
            d_a = add(add(row3(dA, parent, 3), cross3(dalP, p)), d_a)
            if is_q != 0:
                d_a = add(d_a, cross3(row3(A_WB, parent, 0), dp))
                for r in range(nv_k):
                    c = c0 + r
                    d_alpha = add(d_alpha, scale(vdot[c], row3(dH, c, 0)))
                    d_a = add(d_a, scale(vdot[c], row3(dH, c, 3)))
            store_row3(d_alpha, dA, k, 0)
            store_row3(d_a, dA, k, 3)
            # δ of the body's force M·A + [w × (I·w); w × (w × h)] − F_app − gravity, with
            # δh = θ × h and δI·x = θ × (I·x) − I·(θ × x) for a q direction.
            m = m_W[k]
            h = row3(h_W, k, 0)
            Iw = row3(K, k, 9)
            dt = add(add(_inertia_times(I_W, k, d_alpha), cross3(h, d_a)), cross3(dw_k, Iw))
            dt = add(dt, cross3(w_k, _inertia_times(I_W, k, dw_k)))
            df = sub(scale(m, d_a), cross3(h, d_alpha))
            df = add(add(df, cross3(dw_k, row3(K, k, 12))), cross3(w_k, cross3(dw_k, h)))
            if is_q != 0:
                alpha = row3(A_WB, k, 0)
                a = row3(A_WB, k, 3)
                dh = cross3(theta, h)
                dIw = sub(cross3(theta, Iw), _inertia_times(I_W, k, cross3(theta, w_k)))
                dIa = sub(
                    cross3(theta, row3(K, k, 15)), _inertia_times(I_W, k, cross3(theta, alpha))
                )
                dt = add(add(dt, dIa), add(cross3(dh, a), cross3(w_k, dIw)))
                df = sub(df, cross3(dh, alpha))
                df = add(df, cross3(w_k, cross3(w_k, dh)))
                if gravity_mask[k] != 0:
                    dt = sub(dt, cross3(dh, (g[0], g[1], g[2])))
            store_row3(dt, dF, k, 0)
            store_row3(df, dF, k, 3)
        # Tip to base over j's subtree: δτ = δHᵀ·F + Hᵀ·δF, δF shifted to the parent and
        # added to its (δH and δp zero but for a q direction); zero outside it.
        for k in range(n - 1, 0, -1):
            c0 = tree[k, V_START]
            nv_k = NUM_VELOCITIES[tree[k, JTYPE]]
            if active[k] == 0:
                for c in range(c0, c0 + nv_k):
                    out[c, i] = z
                continue
            moved = is_q != 0
            for c in range(c0, c0 + nv_k):
                t0 = H_PB_W[c, 0] * dF[k, 0] + H_PB_W[c, 1] * dF[k, 1] + H_PB_W[c, 2] * dF[k, 2]
                t1 = H_PB_W[c, 3] * dF[k, 3] + H_PB_W[c, 4] * dF[k, 4] + H_PB_W[c, 5] * dF[k, 5]
                if moved:
                    s0 = dH[c, 0] * F[k, 0] + dH[c, 1] * F[k, 1] + dH[c, 2] * F[k, 2]
                    s1 = dH[c, 3] * F[k, 3] + dH[c, 4] * F[k, 4] + dH[c, 5] * F[k, 5]
                    out[c, i] = (s0 + s1) + (t0 + t1)
                else:
                    out[c, i] = t0 + t1
            parent = tree[k, PARENT]
            df = row3(dF, k, 3)
            t = add(row3(dF, k, 0), cross3(row3(K, k, 0), df))
            if moved:
                dp = sub(row3(dp_B, k, 0), row3(dp_B, parent, 0))
                t = add(t, cross3(dp, row3(F, k, 3)))
            for r in range(3):
                dF[parent, r] += t[r]
                dF[parent, 3 + r] += df[r]
        # j's ancestors: nothing of theirs changes, so the same δF, the subtree's, about Wo
        # reaches each: δτ = H(Wo)ᵀ·[δt + p_WPo × δf; δf] (P = j's parent).
        df = row3(dF, pj, 3)
        dt = add(row3(dF, pj, 0), cross3(_origin(X_pc, LAYER_WB, pj), df))
        k = pj
        while k > 0:
            c0 = tree[k, V_START]
            for c in range(c0, c0 + NUM_VELOCITIES[tree[k, JTYPE]]):
                out[c, i] = dot3(row3(HJ, c, 6), dt) + dot3(row3(HJ, c, 9), df)
            k = tree[k, PARENT]


@jitable
def calc_inverse_dynamics_derivatives(model, params, work, deriv, q, v, vdot, dtau_dq, dtau_dv):
    """dtau_dq (nv×nq) and dtau_dv (nv×nv) of :func:`calc_inverse_dynamics_tangents`' τ plus
    joint damping D·v (params.damping), one tangent sweep per column; ``deriv`` the views of
    a derivative workspace holding the primal pass's A_WB and F."""
    calc_sweep_constants(model, work, deriv)
    for is_q in range(1, -1, -1):
        out = dtau_dq if is_q != 0 else dtau_dv
        calc_inverse_dynamics_tangents(model, params, work, deriv, q, v, vdot, is_q, out)
    damping = params.damping
    for i in range(model.nv):
        dtau_dv[i, i] += damping[i]
