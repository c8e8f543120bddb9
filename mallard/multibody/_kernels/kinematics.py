"""Position and velocity kinematics of the whole tree, base to tip.

The tree is the plant's forest of mobilized bodies (mobods), numbered base to tip with World
as mobod 0. Per mobod k, ``tree[k]`` is the int64 row [parent mobod, joint type, q start,
v start, reversed, body index] and ``jparam[k]`` the joint's constants (see ``mobilizers``).

A mobilizer connects its inboard frame F, fixed on the parent body P with pose X_PF, to its
outboard frame M, fixed on the mobod's body B with pose X_MB. (F, M) are the joint's frames
as the user gave them, or (M, F) when the joint is *reversed* (its child body is the inboard
one); then X_FM(q) is the inverse of the joint's pose. A revolute mobilizer turns about a
signed coordinate axis ±e_i of F and M (``jparam[k, :3]``): when the joint's axis is not one,
the plant turns the joint's frames so that z is its axis (as Drake does). Then only two
columns of R_WF turn with q.

``X_kind[k]`` tells which of mobod k's constant poses are exactly identities, so that their
products can be skipped: bits R_PF_IDENTITY (X_PF is a translation) and X_MB_IDENTITY
(of mallard.multibody._layout).

Poses are stored as 4×3 arrays X = [R; pᵀ]: ``X[:3]`` is R_AB and ``X[3]`` is p_AoBo_A.
"""

from mallard.multibody._joint_types import PRISMATIC, QUATERNION_FLOATING, REVOLUTE, WELD
from mallard.multibody._kernels._machinery import jitable, joint_specialized
from mallard.multibody._kernels.lane_views import lane, lane_count
from mallard.multibody._kernels.mobilizers import (
    HAS_BALL_RPY,
    HAS_PLANAR,
    HAS_PRISMATIC,
    HAS_QUATERNION_FLOATING,
    HAS_RPY_FLOATING,
    HAS_SCREW,
    HAS_UNIVERSAL,
    NUM_VELOCITIES,
    calc_H_FM,
    calc_X_FM,
    prismatic_X_FM,
    quaternion_X_FM,
)
from mallard.multibody._kernels.pose import (
    load_pose,
    pose_inv,
    pose_mul,
    pose_mul_translation,
    position,
    rotate3,
    store_pose,
)
from mallard.multibody._kernels.trig import calc_sin_cos
from mallard.multibody._layout import (  # (the columns of a tree row)
    JTYPE,
    PARENT,
    Q_START,
    R_PF_IDENTITY,
    REVERSED,
    V_START,
    X_MB_IDENTITY,
)

# What calc_position_kinematics computes (its ``what``).
POSES = 0  # X_WB only (pose queries)
COLUMNS = 1  # X_WB and H_PB_W (what a mass matrix or a Jacobian needs)
ALL = 2  # X_WB, H_PB_W, X_WF and X_WM: the positions stage
DYNAMICS = 3  # COLUMNS and what the acceleration bias reads of X_WF and X_WM (see below)

# Layers of the position-kinematics pose array X_pc[layer, mobod]: LAYER_WB holds X_WB, and so
# on (LAYER_FM: X_FM, scratch).
LAYER_FM = 0
LAYER_WF = 1
LAYER_WM = 2
LAYER_WB = 3


@joint_specialized
def calc_position_kinematics(model, params, work, q, what, tip):
    """Poses of every mobod and the columns of their across-mobilizer Jacobians, as ``what``
    asks (ALL; COLUMNS: without the joint frames' poses X_WF, X_WM, but of the joints whose
    columns come from a pass of their own; DYNAMICS: COLUMNS and what
    dynamics.calc_acceleration_bias reads of them, X_WF and X_WM of the quaternion floating
    joints and X_WM's origin of the revolute ones, so that forward and inverse dynamics store
    no more poses than they read; POSES: only X_WB, layer 3 of X_pc); only of the
    mobods from World to mobod ``tip`` (its ancestors and itself: what the Jacobians of its
    points need) if tip > 0, ``params.path`` then holding their indices.

    Reads the parameters ``params`` (_layout.PARAMETERS): ``X_PF_MB[0, k]`` is X_PF and
    ``X_PF_MB[1, k]`` is X_MB of mobod k, ``X_kind[k]`` its identity bits (see the module's
    docstring). Writes, in the workspace ``work`` (_layout.WORKSPACE), per mobod k:
    ``X_pc[:, k]`` = X_WF, X_WM, X_WB in layers 1 to 3 (see the layer constants; layer 0,
    X_FM, is scratch for the joint types computed outside the main loop); per generalized
    velocity i of mobod k, ``H_PB_W[i]`` = [w; v], the spatial velocity of B at Bo measured
    in P, expressed in W, per unit v[i]. ``X_pc[:, 0]`` (World) must already hold identity
    poses. Scratch: ``H_FM``, ``sin_cos`` (the sines and cosines of q, see kernels.trig).

    Welds, revolute, prismatic and quaternion floating joints (the common ones) are computed in
    registers in the main loop; the other types' X_FM and H_FM come from :func:`calc_X_FM` and
    :func:`calc_H_FM`, called in passes of their own before and after it (a call inside the
    main loop would slow all of it down).

    The state's arrays (q, and ``work``'s) may be lane views (kernels.lane_views), of L
    states computed at once; the other types' X_FM and H_FM then go lane by lane.
    """
    tree, jparam = model.tree, model.jparam
    X_PF_MB, X_kind, path = params.X_PF_MB, params.X_kind, params.path
    X_pc, H_PB_W, H_FM, sc = work.X_pc, work.H_PB_W, work.H_FM, work.sin_cos
    count = tree.shape[0] - 1 if tip == 0 else _path(tree, tip, path)
    calc_sin_cos(q, sc)  # (of every coordinate: one vector loop; revolute joints use theirs)
    for step in range(count):
        k = step + 1 if tip == 0 else int(path[step])
        jtype = tree[k, JTYPE]
        if (
            HAS_SCREW or HAS_UNIVERSAL or HAS_PLANAR or HAS_BALL_RPY or HAS_RPY_FLOATING
        ) and not _in_main_loop(jtype):  # (compiled for the model's joint types: see mobilizers)
            q_k, X_FM_k = q[tree[k, Q_START] :], X_pc[LAYER_FM, k]
            for j in range(lane_count(q)):  # (lane views: lane by lane)
                X_FM_kj = lane(X_FM_k, j)
                calc_X_FM(jtype, jparam[k], lane(q_k, j), X_FM_kj[:3], X_FM_kj[3])
    for step in range(count):
        k = step + 1 if tip == 0 else int(path[step])
        jtype = tree[k, JTYPE]
        kind = int(X_kind[k])
        T_WP = load_pose(X_pc[LAYER_WB, tree[k, PARENT]])
        if kind & R_PF_IDENTITY:
            T_WF = pose_mul_translation(T_WP, load_pose(X_PF_MB[0, k]))
        else:
            T_WF = pose_mul(T_WP, load_pose(X_PF_MB[0, k]))
        if jtype == REVOLUTE:
            i = tree[k, Q_START]
            T_WM = _revolute_X_WM(T_WF, sc[1, i], sc[0, i], jparam[k], tree[k, REVERSED] != 0)
        elif jtype == WELD:
            T_WM = T_WF  # X_FM = I
        else:
            if HAS_PRISMATIC and jtype == PRISMATIC:
                T_FM = prismatic_X_FM(jparam[k], q[tree[k, Q_START]])
            elif HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
                T_FM = quaternion_X_FM(q[tree[k, Q_START] :])
            else:
                T_FM = load_pose(X_pc[LAYER_FM, k])
            if tree[k, REVERSED] != 0:  # the joint's pose, inverted
                T_FM = pose_inv(T_FM)
            if HAS_PRISMATIC and jtype == PRISMATIC:
                T_WM = pose_mul_translation(T_WF, T_FM)  # R_FM = I
            else:
                T_WM = pose_mul(T_WF, T_FM)
        if kind & X_MB_IDENTITY:
            T_WB = T_WM
        else:
            T_WB = pose_mul(T_WM, load_pose(X_PF_MB[1, k]))
        store_pose(T_WB, X_pc[LAYER_WB, k])
        if what == POSES:
            continue
        if what == ALL or not _in_main_loop(jtype):  # (the last pass reads them)
            store_pose(T_WF, X_pc[LAYER_WF, k])
            store_pose(T_WM, X_pc[LAYER_WM, k])
        elif what == DYNAMICS:
            if HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
                store_pose(T_WF, X_pc[LAYER_WF, k])
                store_pose(T_WM, X_pc[LAYER_WM, k])
            elif jtype == REVOLUTE:
                X_WM = X_pc[LAYER_WM, k]
                X_WM[3, 0] = T_WM[9]
                X_WM[3, 1] = T_WM[10]
                X_WM[3, 2] = T_WM[11]
        if jtype == REVOLUTE or (HAS_PRISMATIC and jtype == PRISMATIC):  # along â, in F and M
            a_W = rotate3(T_WF, (jparam[k, 0], jparam[k, 1], jparam[k, 2]))
            _axis_column(tree[k], jtype == REVOLUTE, a_W, T_WF, T_WB, H_PB_W)
        elif HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
            # H_FM = I (6×6): column j is the unit vector e_j.
            z = 0.0 * T_WF[0]
            o = 1.0 + z
            c = tree[k, V_START]
            _across_mobilizer_column(tree[k], T_WF, T_WM, T_WB, (o, z, z, z, z, z), H_PB_W, c)
            _across_mobilizer_column(tree[k], T_WF, T_WM, T_WB, (z, o, z, z, z, z), H_PB_W, c + 1)
            _across_mobilizer_column(tree[k], T_WF, T_WM, T_WB, (z, z, o, z, z, z), H_PB_W, c + 2)
            _across_mobilizer_column(tree[k], T_WF, T_WM, T_WB, (z, z, z, o, z, z), H_PB_W, c + 3)
            _across_mobilizer_column(tree[k], T_WF, T_WM, T_WB, (z, z, z, z, o, z), H_PB_W, c + 4)
            _across_mobilizer_column(tree[k], T_WF, T_WM, T_WB, (z, z, z, z, z, o), H_PB_W, c + 5)
    if what == POSES:
        return
    for step in range(count):
        k = step + 1 if tip == 0 else int(path[step])
        jtype = tree[k, JTYPE]
        if (
            HAS_SCREW or HAS_UNIVERSAL or HAS_PLANAR or HAS_BALL_RPY or HAS_RPY_FLOATING
        ) and not _in_main_loop(jtype):  # (compiled for the model's joint types: see mobilizers)
            q_k = q[tree[k, Q_START] :]
            for j in range(lane_count(q)):  # (lane views: lane by lane)
                calc_H_FM(jtype, jparam[k], lane(q_k, j), lane(H_FM, j))
            T_WF = load_pose(X_pc[LAYER_WF, k])
            T_WM = load_pose(X_pc[LAYER_WM, k])
            T_WB = load_pose(X_pc[LAYER_WB, k])
            v_start = tree[k, V_START]
            for j in range(NUM_VELOCITIES[jtype]):
                H_j = (H_FM[0, j], H_FM[1, j], H_FM[2, j], H_FM[3, j], H_FM[4, j], H_FM[5, j])
                _across_mobilizer_column(tree[k], T_WF, T_WM, T_WB, H_j, H_PB_W, v_start + j)


@jitable
def _in_main_loop(jtype):
    """Whether :func:`calc_position_kinematics`' main loop computes mobilizers of type
    ``jtype`` in registers (welds, revolute, prismatic and quaternion floating ones); the
    other types' X_FM and H_FM come from passes of their own."""
    return jtype == WELD or jtype == REVOLUTE or jtype == PRISMATIC or jtype == QUATERNION_FLOATING


@jitable
def _path(tree, tip, path):
    """path[:depth] = the mobods from World (excluded) to mobod ``tip``, base to tip (as
    scalars: ``path`` is a section of a workspace); returns depth."""
    depth = 0
    k = tip
    while k > 0:
        depth += 1
        k = tree[k, PARENT]
    k = tip
    for i in range(depth - 1, -1, -1):
        path[i] = k
        k = tree[k, PARENT]
    return depth


@jitable
def _revolute_X_WM(T_WF, c, s, jparam, reversed_joint):
    """The pose tuple of X_WM = X_WF·X_FM for a revolute mobilizer about â = ±e_i
    (``jparam[:3]``) at angle θ (c = cos θ, s = sin θ): R_FM = rot(θ, â), or its transpose if
    the joint is reversed; p_FM = 0. Only the two columns of R_WF other than column i turn."""
    if reversed_joint:
        s = -s
    if jparam[2] != 0.0:  # columns 0 and 1 turn
        s = s * jparam[2]
        return (
            c * T_WF[0] + s * T_WF[1],
            c * T_WF[1] - s * T_WF[0],
            T_WF[2],
            c * T_WF[3] + s * T_WF[4],
            c * T_WF[4] - s * T_WF[3],
            T_WF[5],
            c * T_WF[6] + s * T_WF[7],
            c * T_WF[7] - s * T_WF[6],
            T_WF[8],
            T_WF[9],
            T_WF[10],
            T_WF[11],
        )
    if jparam[0] != 0.0:  # columns 1 and 2 turn
        s = s * jparam[0]
        return (
            T_WF[0],
            c * T_WF[1] + s * T_WF[2],
            c * T_WF[2] - s * T_WF[1],
            T_WF[3],
            c * T_WF[4] + s * T_WF[5],
            c * T_WF[5] - s * T_WF[4],
            T_WF[6],
            c * T_WF[7] + s * T_WF[8],
            c * T_WF[8] - s * T_WF[7],
            T_WF[9],
            T_WF[10],
            T_WF[11],
        )
    s = s * jparam[1]  # columns 2 and 0 turn
    return (
        c * T_WF[0] - s * T_WF[2],
        T_WF[1],
        c * T_WF[2] + s * T_WF[0],
        c * T_WF[3] - s * T_WF[5],
        T_WF[4],
        c * T_WF[5] + s * T_WF[3],
        c * T_WF[6] - s * T_WF[8],
        T_WF[7],
        c * T_WF[8] + s * T_WF[6],
        T_WF[9],
        T_WF[10],
        T_WF[11],
    )


@jitable
def _axis_column(row, revolute, a_W, T_WF, T_WB, H_PB_W):
    """H_PB_W[v start] of a revolute (H_FM = [â; 0]) or prismatic (H_FM = [0; â]) mobilizer
    whose axis is a_W in W (the same in F and in M): [a_W; a_W × p_FoBo_W] (Fo = Mo for a
    revolute one) or [0; a_W], negated if the joint is reversed;
    :func:`_across_mobilizer_column` without the products by zero."""
    sign = -1.0 if row[REVERSED] != 0 else 1.0
    c = row[V_START]
    if revolute:
        d = (T_WB[9] - T_WF[9], T_WB[10] - T_WF[10], T_WB[11] - T_WF[11])
        H_PB_W[c, 0] = sign * a_W[0]
        H_PB_W[c, 1] = sign * a_W[1]
        H_PB_W[c, 2] = sign * a_W[2]
        H_PB_W[c, 3] = sign * (a_W[1] * d[2] - a_W[2] * d[1])
        H_PB_W[c, 4] = sign * (a_W[2] * d[0] - a_W[0] * d[2])
        H_PB_W[c, 5] = sign * (a_W[0] * d[1] - a_W[1] * d[0])
    else:
        z = 0.0 * a_W[0]
        H_PB_W[c, 0] = z
        H_PB_W[c, 1] = z
        H_PB_W[c, 2] = z
        H_PB_W[c, 3] = sign * a_W[0]
        H_PB_W[c, 4] = sign * a_W[1]
        H_PB_W[c, 5] = sign * a_W[2]


@jitable
def _across_mobilizer_column(row, T_WF, T_WM, T_WB, H_j, H_PB_W, c):
    """H_PB_W[c] from one column H_j = [w; v] of the joint's H (expressed in the joint's F
    frame, at the joint's M origin): rotated to W, shifted to Bo, and negated if the joint is
    reversed."""
    if row[REVERSED] != 0:
        sign = -1.0
        T_WJ = T_WM  # the joint's F frame is the mobilizer's M ...
        p_WJo = position(T_WF)  # ... and the joint's M origin the mobilizer's F origin.
    else:
        sign = 1.0
        T_WJ = T_WF
        p_WJo = position(T_WM)
    d = (T_WB[9] - p_WJo[0], T_WB[10] - p_WJo[1], T_WB[11] - p_WJo[2])
    w = rotate3(T_WJ, (H_j[0], H_j[1], H_j[2]))
    v = rotate3(T_WJ, (H_j[3], H_j[4], H_j[5]))
    H_PB_W[c, 0] = sign * w[0]
    H_PB_W[c, 1] = sign * w[1]
    H_PB_W[c, 2] = sign * w[2]
    H_PB_W[c, 3] = sign * (v[0] + w[1] * d[2] - w[2] * d[1])
    H_PB_W[c, 4] = sign * (v[1] + w[2] * d[0] - w[0] * d[2])
    H_PB_W[c, 5] = sign * (v[2] + w[0] * d[1] - w[1] * d[0])


@jitable
def calc_velocity_kinematics(model, work, v):
    """work.V_WB[k] = [w_WB_W; v_WBo_W] of every mobod (see :func:`velocity`), of the
    positions in ``work``. Row 0 (World) of V_WB must already be zero."""
    tree, X_pc, H_PB_W, V_WB = model.tree, work.X_pc, work.H_PB_W, work.V_WB
    for k in range(1, tree.shape[0]):
        parent = tree[k, PARENT]
        p = (
            X_pc[LAYER_WB, k, 3, 0] - X_pc[LAYER_WB, parent, 3, 0],
            X_pc[LAYER_WB, k, 3, 1] - X_pc[LAYER_WB, parent, 3, 1],
            X_pc[LAYER_WB, k, 3, 2] - X_pc[LAYER_WB, parent, 3, 2],
        )
        V = velocity(
            tree, H_PB_W, v, k,
            (V_WB[parent, 0], V_WB[parent, 1], V_WB[parent, 2],
             V_WB[parent, 3], V_WB[parent, 4], V_WB[parent, 5]),
            p,
        )  # fmt: skip
        for i in range(6):
            V_WB[k, i] = V[i]


@jitable
def velocity(tree, H_PB_W, v, k, V_P, p):
    """V_WB of mobod k as a 6-tuple: its parent's V_P (a 6-sequence) shifted to Bo (p =
    p_PoBo_W), plus H_PB_W·v over the mobod's velocities."""
    v_start = tree[k, V_START]
    w0, w1, w2 = V_P[0], V_P[1], V_P[2]
    v0 = V_P[3] + w1 * p[2] - w2 * p[1]
    v1 = V_P[4] + w2 * p[0] - w0 * p[2]
    v2 = V_P[5] + w0 * p[1] - w1 * p[0]
    for j in range(NUM_VELOCITIES[tree[k, JTYPE]]):
        vj = v[v_start + j]
        c = v_start + j
        w0 += H_PB_W[c, 0] * vj
        w1 += H_PB_W[c, 1] * vj
        w2 += H_PB_W[c, 2] * vj
        v0 += H_PB_W[c, 3] * vj
        v1 += H_PB_W[c, 4] * vj
        v2 += H_PB_W[c, 5] * vj
    return w0, w1, w2, v0, v1, v2
