"""Recursive dynamics of the whole tree: acceleration bias, body inertias in World, inverse
dynamics (Newton–Euler), generalized forces of body forces, mass matrix (composite bodies),
forward dynamics (articulated bodies) and q̇ = N(q)·v, all O(n) but the mass matrix.

Conventions (see ``kinematics``): mobods numbered base to tip, World is mobod 0; a spatial
vector of a mobod's body B is taken at its origin Bo and expressed in World W,
[rotational; translational]. The spatial inertia of body B about Bo in W is (m, h, I): mass
m, first moment h = m·p_BoBcm_W and rotational inertia I = I_BBo_W, so that
M·V = [I·w + h × v; m·v − h × w]. Forces on a body are spatial forces at Bo in W.
"""

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.kinematics import (
    JTYPE,
    PARENT,
    Q_START,
    REVERSED,
    V_START,
    X_WB,
    X_WF,
    X_WM,
)
from mallard.multibody._kernels.mobilizers import (
    NUM_VELOCITIES,
    calc_A_FM_bias,
    calc_qdot_from_v,
    calc_V_FM,
)
from mallard.multibody._kernels.vec3 import (
    add,
    cross3,
    dot3,
    mat_vec,
    scale,
    store,
    store_add,
    sub,
)


# ---- accelerations ------------------------------------------------------------------------
@jitable
def calc_acceleration_bias(tree, jparam, q, v, X_pc, V_WB, A_bias, ws):
    """A_bias[k]: the part of A_WB[k] that depends neither on v̇ nor on the parent's
    acceleration, so that A_WB = A_WP shifted to Bo + A_bias + Σ H_PB_W·v̇:

    α: w_WP × w_PB + α_PB(v̇=0);  a: w_WP × (w_WP × p_PoBo) + 2·w_WP × v_PBo + a_PBo(v̇=0).

    ``ws`` is a workspace of 12 scalars. Row 0 (World) is set to zero.
    """
    V_FM = ws[0:6]
    A_FM = ws[6:12]
    for i in range(6):
        A_bias[0, i] = 0.0 * V_WB[0, i]
    for k in range(1, tree.shape[0]):
        parent = tree[k, PARENT]
        jtype = tree[k, JTYPE]
        wP = (V_WB[parent, 0], V_WB[parent, 1], V_WB[parent, 2])
        vP = (V_WB[parent, 3], V_WB[parent, 4], V_WB[parent, 5])
        p = sub(X_pc[X_WB, k, 3], X_pc[X_WB, parent, 3])
        w_PB = sub((V_WB[k, 0], V_WB[k, 1], V_WB[k, 2]), wP)
        v_PB = sub((V_WB[k, 3], V_WB[k, 4], V_WB[k, 5]), add(vP, cross3(wP, p)))
        alpha = cross3(wP, w_PB)
        a = add(cross3(wP, cross3(wP, p)), scale(2.0, cross3(wP, v_PB)))
        if NUM_VELOCITIES[jtype] > 0:
            q_k = q[tree[k, Q_START] :]
            v_k = v[tree[k, V_START] :]
            calc_V_FM(jtype, jparam[k], q_k, v_k, V_FM)
            calc_A_FM_bias(jtype, jparam[k], q_k, v_k, A_FM)
            alpha_PB, a_PB = _across_mobilizer_bias(
                tree[k, REVERSED], X_pc[X_WF, k], X_pc[X_WM, k], X_pc[X_WB, k], V_FM, A_FM
            )
            alpha = add(alpha, alpha_PB)
            a = add(a, a_PB)
        store(alpha, A_bias[k, 0:3])
        store(a, A_bias[k, 3:6])


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
def calc_spatial_accelerations(tree, X_pc, H_PB_W, A_bias, vdot, A_WB):
    """A_WB[k] = A_WP shifted to Bo + A_bias[k] + H_PB_W·v̇, base to tip. Row 0 is set to
    zero."""
    for i in range(6):
        A_WB[0, i] = 0.0 * A_bias[0, i]
    for k in range(1, tree.shape[0]):
        _compose_acceleration(tree, X_pc, A_bias, A_WB, k)
        v_start = tree[k, V_START]
        for j in range(NUM_VELOCITIES[tree[k, JTYPE]]):
            col = H_PB_W[v_start + j]
            vdot_j = vdot[v_start + j]
            for i in range(6):
                A_WB[k, i] += col[i] * vdot_j


@jitable
def _compose_acceleration(tree, X_pc, A_bias, A_WB, k):
    """A_WB[k] = A_WP shifted to Bo + A_bias[k] (without the H·v̇ term)."""
    parent = tree[k, PARENT]
    p = sub(X_pc[X_WB, k, 3], X_pc[X_WB, parent, 3])
    alpha_P = (A_WB[parent, 0], A_WB[parent, 1], A_WB[parent, 2])
    a_P = (A_WB[parent, 3], A_WB[parent, 4], A_WB[parent, 5])
    store(add(alpha_P, A_bias[k, 0:3]), A_WB[k, 0:3])
    store(add(add(a_P, cross3(alpha_P, p)), A_bias[k, 3:6]), A_WB[k, 3:6])


# ---- inertias and forces --------------------------------------------------------------------
@jitable
def calc_body_inertias(tree, X_pc, mass, p_BoBcm_B, G_BBo_B, m_W, h_W, I_W):
    """(m, h, I) of every mobod's body about Bo in W, from the bodies' parameters (indexed
    by body index: mass, p_BoBcm_B, G_BBo_B). Row 0 (World) is set to zero."""
    for i in range(3):
        h_W[0, i] = 0.0
        for j in range(3):
            I_W[0, i, j] = 0.0
    m_W[0] = 0.0
    for k in range(1, tree.shape[0]):
        b = tree[k, 5]
        R = X_pc[X_WB, k, :3]
        m = mass[b]
        m_W[k] = m
        store(scale(m, mat_vec(R, p_BoBcm_B[b])), h_W[k])
        G = G_BBo_B[b]
        for i in range(3):
            for j in range(3):
                s = 0.0 * m
                for r in range(3):
                    for c in range(3):
                        s += R[i, r] * G[r, c] * R[j, c]
                I_W[k, i, j] = m * s


@jitable
def calc_gravity_forces(tree, mobods, m_W, h_W, g, F_BBo_W):
    """F_BBo_W[b] = [h × g; m·g], gravity's force at Bo in W, for the body b of each mobod
    in ``mobods`` (rows of F_BBo_W are indexed by body; the others are left alone)."""
    for i in range(mobods.shape[0]):
        k = mobods[i]
        b = tree[k, 5]
        h = (h_W[k, 0], h_W[k, 1], h_W[k, 2])
        store(cross3(h, (g[0], g[1], g[2])), F_BBo_W[b, 0:3])
        store(scale(m_W[k], (g[0], g[1], g[2])), F_BBo_W[b, 3:6])


@jitable
def _inertia_times(m, h, I, V):
    """(M·V rotational, M·V translational) for M = (m, h, I)."""
    w = (V[0], V[1], V[2])
    v = (V[3], V[4], V[5])
    return add(mat_vec(I, w), cross3(h, v)), sub(scale(m, v), cross3(h, w))


@jitable
def _bias_force(m, h, I, V):
    """The velocity-dependent force of a body: [w × (I·w); w × (w × h)]."""
    w = (V[0], V[1], V[2])
    return cross3(w, mat_vec(I, w)), cross3(w, cross3(w, h))


@jitable
def _shift_force_to_parent(tree, X_pc, F, k):
    """F[parent] += F[k] shifted from Bo to Po: [τ + p_PoBo × f; f]."""
    parent = tree[k, PARENT]
    p = sub(X_pc[X_WB, k, 3], X_pc[X_WB, parent, 3])
    f = (F[k, 3], F[k, 4], F[k, 5])
    store_add(add((F[k, 0], F[k, 1], F[k, 2]), cross3(p, f)), F[parent, 0:3])
    store_add(f, F[parent, 3:6])


@jitable
def _project(tree, H_PB_W, F, k, tau):
    """tau[dofs of k] = H_PB_Wᵀ·F[k]."""
    v_start = tree[k, V_START]
    for j in range(NUM_VELOCITIES[tree[k, JTYPE]]):
        col = H_PB_W[v_start + j]
        s = col[0] * F[k, 0]
        for i in range(1, 6):
            s += col[i] * F[k, i]
        tau[v_start + j] = s


@jitable
def calc_generalized_forces(tree, X_pc, H_PB_W, F_Bo_W, F, tau):
    """tau = Σ_B J_Bᵀ·F_Bo_W: the generalized forces of spatial forces F_Bo_W on the bodies
    (per mobod, at Bo in W). ``F`` is a workspace shaped like F_Bo_W."""
    for k in range(tree.shape[0]):
        for i in range(6):
            F[k, i] = F_Bo_W[k, i]
    for k in range(tree.shape[0] - 1, 0, -1):
        _project(tree, H_PB_W, F, k, tau)
        _shift_force_to_parent(tree, X_pc, F, k)


@jitable
def calc_inverse_dynamics(
    tree, X_pc, H_PB_W, V_WB, A_bias, m_W, h_W, I_W, vdot, F_app, tau_app, A_WB, F, tau
):
    """Recursive Newton–Euler: tau = M(q)·v̇ + C(q, v)·v − tau_app − Σ_B J_Bᵀ·F_app[B].

    Outputs A_WB (per mobod) and F, the spatial force each body's inboard mobilizer
    transmits to it (at Bo, in W).
    """
    calc_spatial_accelerations(tree, X_pc, H_PB_W, A_bias, vdot, A_WB)
    for k in range(tree.shape[0]):
        tM, fM = _inertia_times(m_W[k], h_W[k], I_W[k], A_WB[k])
        tb, fb = _bias_force(m_W[k], h_W[k], I_W[k], V_WB[k])
        store(sub(add(tM, tb), (F_app[k, 0], F_app[k, 1], F_app[k, 2])), F[k, 0:3])
        store(sub(add(fM, fb), (F_app[k, 3], F_app[k, 4], F_app[k, 5])), F[k, 3:6])
    for k in range(tree.shape[0] - 1, 0, -1):
        _project(tree, H_PB_W, F, k, tau)
        v_start = tree[k, V_START]
        for j in range(NUM_VELOCITIES[tree[k, JTYPE]]):
            tau[v_start + j] -= tau_app[v_start + j]
        _shift_force_to_parent(tree, X_pc, F, k)


# ---- mass matrix ------------------------------------------------------------------------------
@jitable
def calc_mass_matrix(tree, X_pc, H_PB_W, m_W, h_W, I_W, reflected, Ic_m, Ic_h, Ic_I, F, M):
    """M(q) by the composite body algorithm, plus diag(reflected) (actuators' reflected rotor
    inertias). Ic_m, Ic_h, Ic_I are workspaces for composite inertias (like m_W, h_W, I_W);
    F is a 6-scalar workspace."""
    n = tree.shape[0]
    for k in range(n):
        Ic_m[k] = m_W[k]
        for i in range(3):
            Ic_h[k, i] = h_W[k, i]
            for j in range(3):
                Ic_I[k, i, j] = I_W[k, i, j]
    for k in range(n - 1, 0, -1):
        parent = tree[k, PARENT]
        # Composite of k about Bo, shifted to Po (d = p_BoPo) and added to the parent's.
        d = sub(X_pc[X_WB, parent, 3], X_pc[X_WB, k, 3])
        m = Ic_m[k]
        h = (Ic_h[k, 0], Ic_h[k, 1], Ic_h[k, 2])
        dd = dot3(d, d)
        hd = dot3(h, d)
        for i in range(3):
            for j in range(3):
                s = Ic_I[k, i, j] - m * d[i] * d[j] + h[i] * d[j] + d[i] * h[j]
                if i == j:
                    s += m * dd - 2.0 * hd
                Ic_I[parent, i, j] += s
        Ic_m[parent] += m
        store_add(sub(h, scale(m, d)), Ic_h[parent])
    for k in range(1, n):
        v_start = tree[k, V_START]
        for j in range(NUM_VELOCITIES[tree[k, JTYPE]]):
            i_row = v_start + j
            t, f = _inertia_times(Ic_m[k], Ic_h[k], Ic_I[k], H_PB_W[i_row])
            store(t, F[0:3])
            store(f, F[3:6])
            # Down this mobod and then up its ancestors, shifting F to each one's origin.
            a = k
            child = k
            while a > 0:
                if a != k:
                    p = sub(X_pc[X_WB, child, 3], X_pc[X_WB, a, 3])
                    store_add(cross3(p, (F[3], F[4], F[5])), F[0:3])
                a_start = tree[a, V_START]
                for jj in range(NUM_VELOCITIES[tree[a, JTYPE]]):
                    col = H_PB_W[a_start + jj]
                    s = col[0] * F[0]
                    for r in range(1, 6):
                        s += col[r] * F[r]
                    M[i_row, a_start + jj] = s
                    M[a_start + jj, i_row] = s
                child = a
                a = tree[a, PARENT]
    for i in range(M.shape[0]):
        M[i, i] += reflected[i]


# ---- forward dynamics ------------------------------------------------------------------------
@jitable
def calc_forward_dynamics(
    tree,
    X_pc,
    H_PB_W,
    V_WB,
    A_bias,
    m_W,
    h_W,
    I_W,
    tau,
    F_app,
    reflected,
    locked,
    P,
    z,
    U,
    Dinv,
    u,
    ws,
    vdot,
    A_WB,
):
    """Articulated body algorithm: v̇ from M(q)·v̇ + C(q, v)·v = tau + Σ_B J_Bᵀ·F_app[B], with
    diag(reflected) added to M, and v̇ = 0 for the mobods with ``locked[k]`` nonzero.

    Workspaces: P (n×6×6 articulated inertias), z (n×6 bias forces), U (nv×6), Dinv
    (n×6×6), u (nv), ws (6×12). Outputs v̇ and A_WB. Returns −1, or the first mobod (from
    the tips) whose articulated inertia across its mobilizer is not positive definite.
    """
    n = tree.shape[0]
    for k in range(n):
        _inertia_matrix(m_W[k], h_W[k], I_W[k], P[k])
        tb, fb = _bias_force(m_W[k], h_W[k], I_W[k], V_WB[k])
        store(sub(tb, (F_app[k, 0], F_app[k, 1], F_app[k, 2])), z[k, 0:3])
        store(sub(fb, (F_app[k, 3], F_app[k, 4], F_app[k, 5])), z[k, 3:6])
    Pa = ws[:, 0:6]
    T = ws[:, 6:12]
    for k in range(n - 1, 0, -1):
        nv = NUM_VELOCITIES[tree[k, JTYPE]]
        v_start = tree[k, V_START]
        for r in range(6):
            for c in range(6):
                Pa[r, c] = P[k, r, c]
        if nv > 0 and locked[k] == 0:
            # U = P·H, D = Hᵀ·U + diag(reflected), u = tau − Hᵀ·z.
            for j in range(nv):
                col = H_PB_W[v_start + j]
                for r in range(6):
                    s = P[k, r, 0] * col[0]
                    for c in range(1, 6):
                        s += P[k, r, c] * col[c]
                    U[v_start + j, r] = s
                s = tau[v_start + j]
                for r in range(6):
                    s -= col[r] * z[k, r]
                u[v_start + j] = s
            for a in range(nv):
                for b in range(nv):
                    s = H_PB_W[v_start + a, 0] * U[v_start + b, 0]
                    for r in range(1, 6):
                        s += H_PB_W[v_start + a, r] * U[v_start + b, r]
                    T[a, b] = s
                T[a, a] += reflected[v_start + a]
            if not _invert_spd(T, nv, Dinv[k]):
                return k
            # Pa = P − U·D⁻¹·Uᵀ;  za = z + Pa·A_bias + U·D⁻¹·u.
            for a in range(nv):
                for r in range(6):
                    s = Dinv[k, a, 0] * U[v_start, r]
                    for b in range(1, nv):
                        s += Dinv[k, a, b] * U[v_start + b, r]
                    T[a, r] = s  # (D⁻¹·Uᵀ)[a, r]
            for r in range(6):
                for c in range(6):
                    s = Pa[r, c]
                    for a in range(nv):
                        s -= U[v_start + a, r] * T[a, c]
                    Pa[r, c] = s
            for a in range(nv):
                s = Dinv[k, a, 0] * u[v_start]
                for b in range(1, nv):
                    s += Dinv[k, a, b] * u[v_start + b]
                for r in range(6):
                    z[k, r] += U[v_start + a, r] * s
        for r in range(6):
            s = Pa[r, 0] * A_bias[k, 0]
            for c in range(1, 6):
                s += Pa[r, c] * A_bias[k, c]
            z[k, r] += s
        _add_shifted_articulated(tree, X_pc, Pa, z, P, k, T)
    # Outward: A' = A_WP shifted + A_bias; v̇ = D⁻¹·(u − Uᵀ·A'); A = A' + H·v̇.
    for i in range(6):
        A_WB[0, i] = 0.0 * A_bias[0, i]
    for k in range(1, n):
        _compose_acceleration(tree, X_pc, A_bias, A_WB, k)
        nv = NUM_VELOCITIES[tree[k, JTYPE]]
        v_start = tree[k, V_START]
        if nv == 0:
            continue
        if locked[k] != 0:
            for a in range(nv):
                vdot[v_start + a] = 0.0 * u[v_start + a]
            continue
        for a in range(nv):
            s = u[v_start + a]
            for r in range(6):
                s -= U[v_start + a, r] * A_WB[k, r]
            T[0, a] = s
        for a in range(nv):
            s = Dinv[k, a, 0] * T[0, 0]
            for b in range(1, nv):
                s += Dinv[k, a, b] * T[0, b]
            vdot[v_start + a] = s
        for a in range(nv):
            col = H_PB_W[v_start + a]
            for r in range(6):
                A_WB[k, r] += col[r] * vdot[v_start + a]
    return -1


@jitable
def _inertia_matrix(m, h, I, P):
    """P = the 6×6 matrix of M = (m, h, I): [[I, [h]×], [[h]×ᵀ, m·E]]."""
    for i in range(3):
        for j in range(3):
            P[i, j] = I[i, j]
            P[3 + i, 3 + j] = m if i == j else 0.0 * m
    hx = (h[0], h[1], h[2])
    # [h]× = [[0, −hz, hy], [hz, 0, −hx], [−hy, hx, 0]]
    P[0, 3] = 0.0 * m
    P[0, 4] = -hx[2]
    P[0, 5] = hx[1]
    P[1, 3] = hx[2]
    P[1, 4] = 0.0 * m
    P[1, 5] = -hx[0]
    P[2, 3] = -hx[1]
    P[2, 4] = hx[0]
    P[2, 5] = 0.0 * m
    for i in range(3):
        for j in range(3):
            P[3 + j, i] = P[i, 3 + j]


@jitable
def _add_shifted_articulated(tree, X_pc, Pa, z, P, k, T):
    """P[parent] += Φᵀ·Pa·Φ and z[parent] += Φᵀ·z[k], with Φ the rigid shift of motions from
    Po to Bo: Φ = [[E, 0], [−[p]×, E]], p = p_PoBo. T is a 6×6 workspace."""
    parent = tree[k, PARENT]
    p = sub(X_pc[X_WB, k, 3], X_pc[X_WB, parent, 3])
    # T = Φᵀ·Pa: rows 0–2 += [p]× · rows 3–5.
    for c in range(6):
        top = (Pa[0, c], Pa[1, c], Pa[2, c])
        bottom = (Pa[3, c], Pa[4, c], Pa[5, c])
        t = add(top, cross3(p, bottom))
        T[0, c] = t[0]
        T[1, c] = t[1]
        T[2, c] = t[2]
        T[3, c] = bottom[0]
        T[4, c] = bottom[1]
        T[5, c] = bottom[2]
    # P[parent] += T·Φ: (T·Φ)[r, 0:3] = T[r, 0:3] − T[r, 3:6]·[p]× = T[r, 0:3] + p × T[r, 3:6].
    for r in range(6):
        right = (T[r, 3], T[r, 4], T[r, 5])
        left = add((T[r, 0], T[r, 1], T[r, 2]), cross3(p, right))
        P[parent, r, 0] += left[0]
        P[parent, r, 1] += left[1]
        P[parent, r, 2] += left[2]
        P[parent, r, 3] += right[0]
        P[parent, r, 4] += right[1]
        P[parent, r, 5] += right[2]
    f = (z[k, 3], z[k, 4], z[k, 5])
    store_add(add((z[k, 0], z[k, 1], z[k, 2]), cross3(p, f)), z[parent, 0:3])
    store_add(f, z[parent, 3:6])


@jitable
def _invert_spd(D, n, Dinv):
    """Dinv[:n, :n] = D[:n, :n]⁻¹ for a symmetric positive definite D, by Cholesky (D is
    overwritten by its factor). Returns False if D is not positive definite."""
    for j in range(n):
        s = D[j, j]
        for k in range(j):
            s -= D[j, k] * D[j, k]
        if not s > 0.0:
            return False
        d = s**0.5
        D[j, j] = d
        for i in range(j + 1, n):
            t = D[i, j]
            for k in range(j):
                t -= D[i, k] * D[j, k]
            D[i, j] = t / d
    # Dinv = L⁻ᵀ·L⁻¹, column by column: solve L·y = e_c, then Lᵀ·x = y.
    for c in range(n):
        for i in range(n):
            t = 1.0 if i == c else 0.0
            for k in range(i):
                t -= D[i, k] * Dinv[k, c]
            Dinv[i, c] = t / D[i, i]
        for i in range(n - 1, -1, -1):
            t = Dinv[i, c]
            for k in range(i + 1, n):
                t -= D[k, i] * Dinv[k, c]
            Dinv[i, c] = t / D[i, i]
    return True


# ---- time derivatives ------------------------------------------------------------------------
@jitable
def calc_qdot(tree, jparam, q, v, qdot):
    """q̇ = N(q)·v of the whole tree, mobilizer by mobilizer."""
    for k in range(1, tree.shape[0]):
        q_start = tree[k, Q_START]
        calc_qdot_from_v(
            tree[k, JTYPE], jparam[k], q[q_start:], v[tree[k, V_START] :], qdot[q_start:]
        )
