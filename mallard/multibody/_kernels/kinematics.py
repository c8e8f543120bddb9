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
from mallard.multibody._kernels.pose import (
    load_pose,
    pose_inv,
    pose_mul,
    position,
    rotate3,
    store_pose,
)

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
        jtype = tree[k, JTYPE]
        q_k = q[tree[k, Q_START] :]
        calc_X_FM(jtype, jparam[k], q_k, X_pc[X_FM, k, :3], X_pc[X_FM, k, 3])
        T_FM = load_pose(X_pc[X_FM, k])
        if tree[k, REVERSED] != 0:  # the joint's pose, inverted
            T_FM = pose_inv(T_FM)
            store_pose(T_FM, X_pc[X_FM, k])
        T_WF = pose_mul(load_pose(X_pc[X_WB, tree[k, PARENT]]), load_pose(X_PF_MB[0, k]))
        T_WM = pose_mul(T_WF, T_FM)
        T_WB = pose_mul(T_WM, load_pose(X_PF_MB[1, k]))
        store_pose(T_WF, X_pc[X_WF, k])
        store_pose(T_WM, X_pc[X_WM, k])
        store_pose(T_WB, X_pc[X_WB, k])
        if NUM_VELOCITIES[jtype] > 0:
            calc_H_FM(jtype, jparam[k], q_k, H_FM)
            _across_mobilizer_jacobian(tree[k], T_WF, T_WM, T_WB, H_FM, H_PB_W)


@jitable
def _across_mobilizer_jacobian(row, T_WF, T_WM, T_WB, H_FM, H_PB_W):
    """H_PB_W columns of one mobod from the joint's H (expressed in the joint's F frame, at the
    joint's M origin): rotated to W, shifted to Bo, and negated if the joint is reversed."""
    if row[REVERSED] != 0:
        sign = -1.0
        T_WJ = T_WM  # the joint's F frame is the mobilizer's M ...
        p_WJo = position(T_WF)  # ... and the joint's M origin the mobilizer's F origin.
    else:
        sign = 1.0
        T_WJ = T_WF
        p_WJo = position(T_WM)
    d = (T_WB[9] - p_WJo[0], T_WB[10] - p_WJo[1], T_WB[11] - p_WJo[2])
    v_start = row[V_START]
    for j in range(NUM_VELOCITIES[row[JTYPE]]):
        w = rotate3(T_WJ, (H_FM[0, j], H_FM[1, j], H_FM[2, j]))
        v = rotate3(T_WJ, (H_FM[3, j], H_FM[4, j], H_FM[5, j]))
        col = H_PB_W[v_start + j]
        col[0] = sign * w[0]
        col[1] = sign * w[1]
        col[2] = sign * w[2]
        col[3] = sign * (v[0] + w[1] * d[2] - w[2] * d[1])
        col[4] = sign * (v[1] + w[2] * d[0] - w[0] * d[2])
        col[5] = sign * (v[2] + w[0] * d[1] - w[1] * d[0])


@jitable
def calc_velocity_kinematics(tree, X_pc, H_PB_W, v, V_WB):
    """V_WB[k] = [w_WB_W; v_WBo_W] of every mobod: the parent's, shifted to Bo, plus
    H_PB_W·v. Row 0 (World) of V_WB must already be zero."""
    for k in range(1, tree.shape[0]):
        parent = tree[k, PARENT]
        v_start = tree[k, V_START]
        dx = X_pc[X_WB, k, 3, 0] - X_pc[X_WB, parent, 3, 0]
        dy = X_pc[X_WB, k, 3, 1] - X_pc[X_WB, parent, 3, 1]
        dz = X_pc[X_WB, k, 3, 2] - X_pc[X_WB, parent, 3, 2]
        w0, w1, w2 = V_WB[parent, 0], V_WB[parent, 1], V_WB[parent, 2]
        v0 = V_WB[parent, 3] + w1 * dz - w2 * dy
        v1 = V_WB[parent, 4] + w2 * dx - w0 * dz
        v2 = V_WB[parent, 5] + w0 * dy - w1 * dx
        for j in range(NUM_VELOCITIES[tree[k, JTYPE]]):
            vj = v[v_start + j]
            c = v_start + j
            w0 += H_PB_W[c, 0] * vj
            w1 += H_PB_W[c, 1] * vj
            w2 += H_PB_W[c, 2] * vj
            v0 += H_PB_W[c, 3] * vj
            v1 += H_PB_W[c, 4] * vj
            v2 += H_PB_W[c, 5] * vj
        V_WB[k, 0] = w0
        V_WB[k, 1] = w1
        V_WB[k, 2] = w2
        V_WB[k, 3] = v0
        V_WB[k, 4] = v1
        V_WB[k, 5] = v2
