"""Position and velocity kinematics of the whole tree, base to tip.

The tree is the plant's forest of mobilized bodies (mobods), numbered base to tip with World
as mobod 0. Per mobod k, ``tree[k]`` is the int64 row [parent mobod, joint type, q start,
v start, reversed, body index] and ``jparam[k]`` the joint's constants (see ``mobilizers``).

A mobilizer connects its inboard frame F, fixed on the parent body P with pose X_PF, to its
outboard frame M, fixed on the mobod's body B with pose X_MB. (F, M) are the joint's frames
as the user gave them, or (M, F) when the joint is *reversed* (its child body is the inboard
one); then X_FM(q) is the inverse of the joint's pose.

Poses are stored as 4×3 arrays X = [R; pᵀ]: ``X[:3]`` is R_AB and ``X[3]`` is p_AoBo_A.
"""

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.mobilizers import NUM_VELOCITIES, calc_H_FM, calc_X_FM
from mallard.multibody._kernels.spatial import compose_poses, invert_pose, rotate

# Columns of a tree row.
PARENT = 0
JTYPE = 1
Q_START = 2
V_START = 3
REVERSED = 4
BODY = 5

# Layers of the position-kinematics pose array X_pc[layer, mobod].
X_FM = 0
X_WF = 1
X_WM = 2
X_WB = 3


@jitable
def calc_position_kinematics(tree, jparam, X_PF_MB, q, X_pc, H_PB_W, H_FM):
    """Poses of every mobod and the columns of their across-mobilizer Jacobians.

    ``X_PF_MB[0, k]`` is X_PF and ``X_PF_MB[1, k]`` is X_MB of mobod k. Outputs per mobod k:
    ``X_pc[:, k]`` = X_FM, X_WF, X_WM, X_WB (see the layer constants); per generalized
    velocity i of mobod k, ``H_PB_W[i]`` = [w; v], the spatial velocity of B at Bo measured
    in P, expressed in W, per unit v[i]. ``H_FM`` is a 6×6 workspace. ``X_pc[:, 0]`` (World)
    must already hold identity poses.
    """
    for k in range(1, tree.shape[0]):
        parent = tree[k, PARENT]
        jtype = tree[k, JTYPE]
        q_start = tree[k, Q_START]
        reversed_joint = tree[k, REVERSED] != 0
        X_FMk = X_pc[X_FM, k]
        X_WFk = X_pc[X_WF, k]
        X_WMk = X_pc[X_WM, k]
        X_WBk = X_pc[X_WB, k]
        if reversed_joint:  # The joint's pose, inverted (X_WM as scratch).
            calc_X_FM(jtype, jparam[k], q[q_start:], X_WMk[:3], X_WMk[3])
            invert_pose(X_WMk[:3], X_WMk[3], X_FMk[:3], X_FMk[3])
        else:
            calc_X_FM(jtype, jparam[k], q[q_start:], X_FMk[:3], X_FMk[3])
        X_WP = X_pc[X_WB, parent]
        X_PF = X_PF_MB[0, k]
        X_MB = X_PF_MB[1, k]
        compose_poses(X_WP[:3], X_WP[3], X_PF[:3], X_PF[3], X_WFk[:3], X_WFk[3])
        compose_poses(X_WFk[:3], X_WFk[3], X_FMk[:3], X_FMk[3], X_WMk[:3], X_WMk[3])
        compose_poses(X_WMk[:3], X_WMk[3], X_MB[:3], X_MB[3], X_WBk[:3], X_WBk[3])
        if NUM_VELOCITIES[jtype] > 0:
            _across_mobilizer_jacobian(tree[k], jparam[k], q, X_WFk, X_WMk, X_WBk, H_PB_W, H_FM)


@jitable
def _across_mobilizer_jacobian(row, jparam, q, X_WF, X_WM, X_WB, H_PB_W, H_FM):
    """H_PB_W columns of one mobod from the joint's H (expressed in the joint's F frame, at the
    joint's M origin): rotated to W, shifted to Bo, and negated if the joint is reversed."""
    jtype = row[JTYPE]
    v_start = row[V_START]
    calc_H_FM(jtype, jparam, q[row[Q_START] :], H_FM)
    if row[REVERSED] != 0:
        sign = -1.0
        R_WJ = X_WM[:3]  # The joint's F frame is the mobilizer's M ...
        p_WJo = X_WF[3]  # ... and the joint's M origin the mobilizer's F origin.
    else:
        sign = 1.0
        R_WJ = X_WF[:3]
        p_WJo = X_WM[3]
    dx = X_WB[3, 0] - p_WJo[0]
    dy = X_WB[3, 1] - p_WJo[1]
    dz = X_WB[3, 2] - p_WJo[2]
    for j in range(NUM_VELOCITIES[jtype]):
        col = H_PB_W[v_start + j]
        rotate(R_WJ, H_FM[0:3, j], col[0:3])
        rotate(R_WJ, H_FM[3:6, j], col[3:6])
        wx = col[0]
        wy = col[1]
        wz = col[2]
        col[3] = sign * (col[3] + wy * dz - wz * dy)
        col[4] = sign * (col[4] + wz * dx - wx * dz)
        col[5] = sign * (col[5] + wx * dy - wy * dx)
        col[0] = sign * wx
        col[1] = sign * wy
        col[2] = sign * wz


@jitable
def calc_velocity_kinematics(tree, X_pc, H_PB_W, v, V_WB):
    """V_WB[k] = [w_WB_W; v_WBo_W] of every mobod: the parent's, shifted to Bo, plus
    H_PB_W·v. Row 0 (World) of V_WB must already be zero."""
    for k in range(1, tree.shape[0]):
        parent = tree[k, PARENT]
        v_start = tree[k, V_START]
        p_WB = X_pc[X_WB, k, 3]
        p_WP = X_pc[X_WB, parent, 3]
        dx = p_WB[0] - p_WP[0]
        dy = p_WB[1] - p_WP[1]
        dz = p_WB[2] - p_WP[2]
        V = V_WB[k]
        V_P = V_WB[parent]
        V[0] = V_P[0]
        V[1] = V_P[1]
        V[2] = V_P[2]
        V[3] = V_P[3] + V_P[1] * dz - V_P[2] * dy
        V[4] = V_P[4] + V_P[2] * dx - V_P[0] * dz
        V[5] = V_P[5] + V_P[0] * dy - V_P[1] * dx
        for j in range(NUM_VELOCITIES[tree[k, JTYPE]]):
            vj = v[v_start + j]
            col = H_PB_W[v_start + j]
            for i in range(6):
                V[i] += col[i] * vj
