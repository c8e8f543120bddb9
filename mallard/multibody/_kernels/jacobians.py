"""Jacobians of points fixed on a body, from the across-mobilizer Jacobians H_PB_W."""

from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.kinematics import LAYER_WB
from mallard.multibody._kernels.mobilizers import NUM_VELOCITIES
from mallard.multibody._layout import JTYPE, PARENT, V_START


@jitable
def calc_point_jacobian(model, work, k, p_WQ, J):
    """J (6×nv) = J_V_WQ_W: the spatial velocity in World of a point Q fixed on the body of
    mobod k (p_WQ its position in World), per unit generalized velocity: J·v = [w_WB; v_WQ],
    at the positions of the workspace ``work``. Columns of mobods not between World and k are
    zero."""
    tree, X_pc, H_PB_W = model.tree, work.X_pc, work.H_PB_W
    for i in range(6):
        for j in range(J.shape[1]):
            J[i, j] = 0.0 * p_WQ[0]
    a = k
    while a > 0:
        dx = p_WQ[0] - X_pc[LAYER_WB, a, 3, 0]
        dy = p_WQ[1] - X_pc[LAYER_WB, a, 3, 1]
        dz = p_WQ[2] - X_pc[LAYER_WB, a, 3, 2]
        v_start = tree[a, V_START]
        for j in range(NUM_VELOCITIES[tree[a, JTYPE]]):
            col = H_PB_W[v_start + j]
            c = v_start + j
            J[0, c] = col[0]
            J[1, c] = col[1]
            J[2, c] = col[2]
            J[3, c] = col[3] + col[1] * dz - col[2] * dy
            J[4, c] = col[4] + col[2] * dx - col[0] * dz
            J[5, c] = col[5] + col[0] * dy - col[1] * dx
        a = tree[a, PARENT]
