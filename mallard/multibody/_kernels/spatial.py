"""Spatial-algebra helpers for kernels.

Conventions (ARCHITECTURE.md §3): spatial vectors are 6-arrays [rotational; translational];
rotations are 3×3 arrays; poses are (R, p) pairs; a spatial inertia is (mass m, p_PScm_E,
G_SP_E) with G the unit inertia about the about-point P. Results go into ``out`` arrays the
caller owns. Every helper reads all of its inputs before writing ``out``, so ``out`` may alias
an input, except where a docstring says otherwise.
"""

from mallard.multibody._kernels._machinery import jitable


@jitable
def cross(a, b, out):
    """out = a × b."""
    x = a[1] * b[2] - a[2] * b[1]
    y = a[2] * b[0] - a[0] * b[2]
    z = a[0] * b[1] - a[1] * b[0]
    out[0] = x
    out[1] = y
    out[2] = z


@jitable
def rotate(R_AB, v_B, out):
    """out = R_AB · v_B (v re-expressed from B into A)."""
    x = R_AB[0, 0] * v_B[0] + R_AB[0, 1] * v_B[1] + R_AB[0, 2] * v_B[2]
    y = R_AB[1, 0] * v_B[0] + R_AB[1, 1] * v_B[1] + R_AB[1, 2] * v_B[2]
    z = R_AB[2, 0] * v_B[0] + R_AB[2, 1] * v_B[1] + R_AB[2, 2] * v_B[2]
    out[0] = x
    out[1] = y
    out[2] = z


@jitable
def rotate_transpose(R_AB, v_A, out):
    """out = R_ABᵀ · v_A (v re-expressed from A into B)."""
    x = R_AB[0, 0] * v_A[0] + R_AB[1, 0] * v_A[1] + R_AB[2, 0] * v_A[2]
    y = R_AB[0, 1] * v_A[0] + R_AB[1, 1] * v_A[1] + R_AB[2, 1] * v_A[2]
    z = R_AB[0, 2] * v_A[0] + R_AB[1, 2] * v_A[1] + R_AB[2, 2] * v_A[2]
    out[0] = x
    out[1] = y
    out[2] = z


@jitable
def compose_rotations(R_AB, R_BC, R_AC):
    """R_AC = R_AB · R_BC. R_AC must not alias R_AB or R_BC."""
    for i in range(3):
        for j in range(3):
            R_AC[i, j] = R_AB[i, 0] * R_BC[0, j] + R_AB[i, 1] * R_BC[1, j] + R_AB[i, 2] * R_BC[2, j]


@jitable
def compose_poses(R_AB, p_AB, R_BC, p_BC, R_AC, p_AC):
    """X_AC = X_AB · X_BC: R_AC = R_AB·R_BC, p_AoCo_A = p_AoBo_A + R_AB·p_BoCo_B.

    R_AC and p_AC must not alias the inputs.
    """
    compose_rotations(R_AB, R_BC, R_AC)
    rotate(R_AB, p_BC, p_AC)
    for i in range(3):
        p_AC[i] += p_AB[i]


@jitable
def invert_pose(R_AB, p_AB, R_BA, p_BA):
    """X_BA = X_AB⁻¹: R_BA = R_ABᵀ, p_BoAo_B = −R_ABᵀ·p_AoBo_A. Outputs must not alias inputs."""
    for i in range(3):
        for j in range(3):
            R_BA[i, j] = R_AB[j, i]
    rotate_transpose(R_AB, p_AB, p_BA)
    for i in range(3):
        p_BA[i] = -p_BA[i]


@jitable
def rotate_spatial(R_AB, V_B, out):
    """Re-expresses both halves of spatial vector V from frame B into frame A."""
    rotate(R_AB, V_B[0:3], out[0:3])
    rotate(R_AB, V_B[3:6], out[3:6])


@jitable
def shift_motion(V_P, p_PQ, out):
    """Rigid shift of a spatial velocity from point P to Q: w same, v_Q = v_P + w × p_PQ."""
    w0 = V_P[0]
    w1 = V_P[1]
    w2 = V_P[2]
    out[3] = V_P[3] + w1 * p_PQ[2] - w2 * p_PQ[1]
    out[4] = V_P[4] + w2 * p_PQ[0] - w0 * p_PQ[2]
    out[5] = V_P[5] + w0 * p_PQ[1] - w1 * p_PQ[0]
    out[0] = w0
    out[1] = w1
    out[2] = w2


@jitable
def shift_force(F_P, p_PQ, out):
    """Shift of a spatial force (or momentum) from P to Q: τ_Q = τ_P − p_PQ × f, f same."""
    f0 = F_P[3]
    f1 = F_P[4]
    f2 = F_P[5]
    out[0] = F_P[0] - (p_PQ[1] * f2 - p_PQ[2] * f1)
    out[1] = F_P[1] - (p_PQ[2] * f0 - p_PQ[0] * f2)
    out[2] = F_P[2] - (p_PQ[0] * f1 - p_PQ[1] * f0)
    out[3] = f0
    out[4] = f1
    out[5] = f2


@jitable
def cross_motion(V, U, out):
    """Spatial cross product of motions V ×ₘ U = [w×u_w; w×u_v + v×u_w] (same point, frame).

    out must not alias V or U.
    """
    cross(V[0:3], U[0:3], out[0:3])
    cross(V[0:3], U[3:6], out[3:6])
    out[3] += V[4] * U[2] - V[5] * U[1]
    out[4] += V[5] * U[0] - V[3] * U[2]
    out[5] += V[3] * U[1] - V[4] * U[0]


@jitable
def cross_force(V, F, out):
    """Spatial cross product of a motion and a force V ×f F = [w×τ + v×f; w×f].

    out must not alias V or F.
    """
    cross(V[0:3], F[0:3], out[0:3])
    out[0] += V[4] * F[5] - V[5] * F[4]
    out[1] += V[5] * F[3] - V[3] * F[5]
    out[2] += V[3] * F[4] - V[4] * F[3]
    cross(V[0:3], F[3:6], out[3:6])


@jitable
def spatial_inertia_times(m, p_PScm, G_SP, V, out):
    """out = M_SP·V for M_SP = (m, p_PScm, G_SP): [m(G_SP·w + p×v); m(v − p×w)].

    Gives a spatial momentum from a spatial velocity, or a force from an acceleration, about P.
    out must not alias V.
    """
    w = V[0:3]
    v = V[3:6]
    rotate(G_SP, w, out[0:3])
    out[0] = m * (out[0] + p_PScm[1] * v[2] - p_PScm[2] * v[1])
    out[1] = m * (out[1] + p_PScm[2] * v[0] - p_PScm[0] * v[2])
    out[2] = m * (out[2] + p_PScm[0] * v[1] - p_PScm[1] * v[0])
    out[3] = m * (v[0] - (p_PScm[1] * w[2] - p_PScm[2] * w[1]))
    out[4] = m * (v[1] - (p_PScm[2] * w[0] - p_PScm[0] * w[2]))
    out[5] = m * (v[2] - (p_PScm[0] * w[1] - p_PScm[1] * w[0]))


@jitable
def reexpress_unit_inertia(R_AE, G_E, out):
    """out = R_AE · G_E · R_AEᵀ (a unit or rotational inertia re-expressed from E in A).

    out must not alias G_E.
    """
    for i in range(3):
        for j in range(3):
            s = R_AE[i, 0] * R_AE[j, 0] * G_E[0, 0]
            for k in range(3):
                for l in range(3):
                    if k != 0 or l != 0:
                        s += R_AE[i, k] * G_E[k, l] * R_AE[j, l]
            out[i, j] = s


@jitable
def shift_unit_inertia(p_PScm, G_SP, p_PQ, out):
    """Unit inertia about Q from the one about P: G_SQ = G_SP − pm(p_PScm) + pm(p_PScm − p_PQ),

    where pm(p) = |p|²·Id − p·pᵀ is the unit inertia of a point mass at p. out may alias G_SP.
    """
    a0 = p_PScm[0]
    a1 = p_PScm[1]
    a2 = p_PScm[2]
    b0 = a0 - p_PQ[0]
    b1 = a1 - p_PQ[1]
    b2 = a2 - p_PQ[2]
    aa = a0 * a0 + a1 * a1 + a2 * a2
    bb = b0 * b0 + b1 * b1 + b2 * b2
    d = bb - aa
    out[0, 0] = G_SP[0, 0] + d - (b0 * b0 - a0 * a0)
    out[1, 1] = G_SP[1, 1] + d - (b1 * b1 - a1 * a1)
    out[2, 2] = G_SP[2, 2] + d - (b2 * b2 - a2 * a2)
    xy = G_SP[0, 1] - (b0 * b1 - a0 * a1)
    xz = G_SP[0, 2] - (b0 * b2 - a0 * a2)
    yz = G_SP[1, 2] - (b1 * b2 - a1 * a2)
    out[0, 1] = xy
    out[1, 0] = xy
    out[0, 2] = xz
    out[2, 0] = xz
    out[1, 2] = yz
    out[2, 1] = yz
