"""The kinematics of Drake's constraints between two bodies, as its SapDriver computes them for
SAP (AddBallConstraints, AddDistanceConstraints, AddWeldConstraints): per constraint, its
constraint function g (rows of ``g``), its Jacobian J (rows of ``J``, on the plant's
velocities) and, per row, the spatial forces on A at Ao and on B at Bo in World per unit
impulse of that row (``U``: Drake's AccumulateSpatialImpulses, for the reaction forces). The
SAP solver takes them as holonomic constraints (kernels.sap.sap_add_holonomic_constraints).

A constraint's kind (_layout's BALL_CONSTRAINT, DISTANCE_CONSTRAINT, WELD_CONSTRAINT) and its
bodies A and B are given by their mobods (World is mobod 0, whose Jacobian is
zero); P is fixed on A at the pose X_AP, Q on B at X_BQ (only their positions for a ball or
a distance constraint). Spatial vectors are [rotational; translational].

* BALL (3 rows): g = p_PQ_W = p_WQ − p_WP, J = Jv_WBq − Jv_WAp; the impulse γ acts on B at Q
  and −γ on A at P.
* DISTANCE (1 row): d = ‖p_PQ‖, g = d − ℓ (ℓ the free length), J = p̂ᵀ·(Jv_WBq − Jv_WAp) with
  p̂ = p_PQ/d; γ·p̂ acts on B at Q, −γ·p̂ on A at P. Drake rejects d < 1e-7 + 1e-2·ℓ.
* WELD (6 rows): g = [a_PQ_W; p_PoQo_W], a_PQ = θ·k the angle-axis vector of R_PQ (Eigen's
  AngleAxis of the matrix, θ ∈ [0, π], through its quaternion, as Drake's ToAngleAxis),
  expressed in World; J = J_WBm − J_WAm, the spatial velocity Jacobians of the points Am of A
  and Bm of B coincident with M, the midpoint of Po and Qo; γ acts on B at Bm, −γ on A at Am.
"""

import numpy as np

from mallard._compiled import entry_point
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels.engine import stages_by_address
from mallard.multibody._kernels.jacobians import calc_point_jacobian
from mallard.multibody._kernels.kinematics import LAYER_WB
from mallard.multibody._kernels.pose import load_pose, pose_inv, pose_mul, position, rotate3
from mallard.multibody._kernels.vec3 import cross3, scale, sub
from mallard.multibody._kernels.views import model, workspace
from mallard.multibody._layout import BALL_CONSTRAINT as BALL
from mallard.multibody._layout import WELD_CONSTRAINT as WELD

#: Drake's bound below which a distance constraint's distance is nonphysically small:
#: d < MINIMUM_DISTANCE + RELATIVE_DISTANCE·ℓ.
MINIMUM_DISTANCE = 1.0e-7
RELATIVE_DISTANCE = 1.0e-2


@jitable
def angle_axis_vector(R):
    """θ·k, the angle-axis vector of the rotation of the pose tuple R (kernels.pose), as
    Eigen's AngleAxis of the matrix: from its quaternion (Eigen's conversion), θ =
    2·atan2(‖v‖, |w|) ∈ [0, π], k = ±v/‖v‖ (zero for the identity)."""
    R00, R01, R02 = R[0], R[1], R[2]
    R10, R11, R12 = R[3], R[4], R[5]
    R20, R21, R22 = R[6], R[7], R[8]
    trace = R00 + R11 + R22
    if trace > 0:
        t = (trace + 1.0) ** 0.5
        w = 0.5 * t
        t = 0.5 / t
        x, y, z = (R21 - R12) * t, (R02 - R20) * t, (R10 - R01) * t
    else:
        i = 0
        if R11 > R00:
            i = 1
        if R22 > (R11 if i == 1 else R00):
            i = 2
        if i == 0:
            t = (R00 - R11 - R22 + 1.0) ** 0.5
            x = 0.5 * t
            t = 0.5 / t
            w, y, z = (R21 - R12) * t, (R10 + R01) * t, (R20 + R02) * t
        elif i == 1:
            t = (R11 - R22 - R00 + 1.0) ** 0.5
            y = 0.5 * t
            t = 0.5 / t
            w, z, x = (R02 - R20) * t, (R21 + R12) * t, (R01 + R10) * t
        else:
            t = (R22 - R00 - R11 + 1.0) ** 0.5
            z = 0.5 * t
            t = 0.5 / t
            w, x, y = (R10 - R01) * t, (R02 + R20) * t, (R12 + R21) * t
    n = (x * x + y * y + z * z) ** 0.5
    if n == 0.0:
        return 0.0 * n, 0.0 * n, 0.0 * n
    angle = 2.0 * np.arctan2(n, abs(w))
    if w < 0.0:
        n = -n
    return (x / n) * angle, (y / n) * angle, (z / n) * angle


@jitable
def _store_forces(U, r, t_A, f_A, t_B, f_B):
    """U[r] = the spatial forces (t_A, f_A) on A and (t_B, f_B) on B."""
    for i in range(3):
        U[r, 0, i] = t_A[i]
        U[r, 0, 3 + i] = f_A[i]
        U[r, 1, i] = t_B[i]
        U[r, 1, 3 + i] = f_B[i]


@jitable
def _point_rows(J_AB, J, r, a):
    """Row r of J = the row 3 + a (translational) of J_AB[1] − J_AB[0]."""
    for j in range(J.shape[1]):
        J[r, j] = J_AB[1, 3 + a, j] - J_AB[0, 3 + a, j]


@jitable
def calc_body_constraints(model, work, table, X, lengths, J_AB, J, g, U):
    """g, J and U (see the module) of the constraints of ``table`` (rows: kind, mobod of A,
    mobod of B, first row of g, J and U), at the positions of ``work`` (up to date); ``X``:
    per constraint, X_AP and X_BQ (two 4×3 poses); ``lengths``: a distance constraint's free
    length ℓ. J_AB: scratch (2, 6, nv). Returns −1, or the first distance constraint whose
    distance is nonphysically small (its g is d − ℓ)."""
    X_pc = work.X_pc
    for i in range(table.shape[0]):
        kind, kA, kB, r = table[i, 0], table[i, 1], table[i, 2], table[i, 3]
        X_WA, X_WB = load_pose(X_pc[LAYER_WB, kA]), load_pose(X_pc[LAYER_WB, kB])
        X_WP, X_WQ = pose_mul(X_WA, load_pose(X[i, 0])), pose_mul(X_WB, load_pose(X[i, 1]))
        p_WP, p_WQ = position(X_WP), position(X_WQ)
        p_AP_W = rotate3(X_WA, (X[i, 0, 3, 0], X[i, 0, 3, 1], X[i, 0, 3, 2]))
        p_BQ_W = rotate3(X_WB, (X[i, 1, 3, 0], X[i, 1, 3, 1], X[i, 1, 3, 2]))
        p_PQ_W = sub(p_WQ, p_WP)
        if kind == WELD:
            p_WM = scale(0.5, (p_WP[0] + p_WQ[0], p_WP[1] + p_WQ[1], p_WP[2] + p_WQ[2]))
            calc_point_jacobian(model, work, kA, p_WM, J_AB[0])
            calc_point_jacobian(model, work, kB, p_WM, J_AB[1])
            for a in range(6):
                for j in range(J.shape[1]):
                    J[r + a, j] = J_AB[1, a, j] - J_AB[0, a, j]
            a_PQ_W = rotate3(X_WP, angle_axis_vector(pose_mul(pose_inv(X_WP), X_WQ)))
            half = scale(0.5, p_PQ_W)
            p_AoAm_W = (p_AP_W[0] + half[0], p_AP_W[1] + half[1], p_AP_W[2] + half[2])
            p_BoBm_W = sub(p_BQ_W, half)
            zero = (0.0, 0.0, 0.0)
            for a in range(3):
                g[r + a] = a_PQ_W[a]
                g[r + 3 + a] = p_PQ_W[a]
                e = (1.0 if a == 0 else 0.0, 1.0 if a == 1 else 0.0, 1.0 if a == 2 else 0.0)
                minus_e = scale(-1.0, e)
                _store_forces(U, r + a, minus_e, zero, e, zero)
                t_A, t_B = cross3(p_AoAm_W, minus_e), cross3(p_BoBm_W, e)
                _store_forces(U, r + 3 + a, t_A, minus_e, t_B, e)
            continue
        calc_point_jacobian(model, work, kA, p_WP, J_AB[0])
        calc_point_jacobian(model, work, kB, p_WQ, J_AB[1])
        if kind == BALL:
            for a in range(3):
                _point_rows(J_AB, J, r + a, a)
                g[r + a] = p_PQ_W[a]
                e = (1.0 if a == 0 else 0.0, 1.0 if a == 1 else 0.0, 1.0 if a == 2 else 0.0)
                minus_e = scale(-1.0, e)
                _store_forces(U, r + a, cross3(p_AP_W, minus_e), minus_e, cross3(p_BQ_W, e), e)
        else:  # DISTANCE
            length = lengths[i]
            d = (p_PQ_W[0] * p_PQ_W[0] + p_PQ_W[1] * p_PQ_W[1] + p_PQ_W[2] * p_PQ_W[2]) ** 0.5
            g[r] = d - length
            if d < MINIMUM_DISTANCE + RELATIVE_DISTANCE * length:
                return i
            p_hat = (p_PQ_W[0] / d, p_PQ_W[1] / d, p_PQ_W[2] / d)
            for j in range(J.shape[1]):
                s = 0.0 * d
                for a in range(3):
                    s += p_hat[a] * (J_AB[1, 3 + a, j] - J_AB[0, 3 + a, j])
                J[r, j] = s
            minus_p_hat = scale(-1.0, p_hat)
            t_A, t_B = cross3(p_AP_W, minus_p_hat), cross3(p_BQ_W, p_hat)
            _store_forces(U, r, t_A, minus_p_hat, t_B, p_hat)
    return -1


@entry_point
@jitable(inline=True)
def drive_body_constraints(mi, mf, x, ws, need, table, X, lengths, J_AB, J, g, U, at):
    """g, J and U of the body constraints of ``table`` at the state x (see
    :func:`calc_body_constraints`), the positions brought up to date first if ``need`` (of
    the positions stage only) has them, by the kernel at ``at`` (kernels.engine.
    stages_by_address). Returns −1 or the index of a nonphysically short distance."""
    stages_by_address(mi, mf, x, ws, need, at)
    return calc_body_constraints(model(mi, mf), workspace(mi, ws), table, X, lengths, J_AB, J, g, U)
