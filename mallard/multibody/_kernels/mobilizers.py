"""Mobilizer (joint) kinematics kernels: X_FM(q), H_FM(q), V_FM, Ḣ_FM·v, H_FMᵀ·F, N(q), N⁺(q).

A mobilizer connects its inboard frame F (on the parent) to its outboard frame M (on the child).
Each function takes the joint's type code ``jtype``, its parameter row ``jparam`` =
[â_x, â_y, â_z, pitch] (the unit axis â, expressed in F and equally in M, of a revolute,
prismatic or screw joint; the screw pitch in meters per revolution; unused entries 0), and the
joint's own slices ``q`` (length nq) and ``v`` (length nv). Results go into output arrays the
caller owns; outputs must not alias inputs.

Coordinates, as in Drake (see the reference's Joints and Mobilizer sections); p_FM is
p_FoMo_F, w_FM_F and v_FMo_F are M's angular velocity and Mo's velocity in F, expressed in F:

* WELD, nq/nv 0/0: X_FM = I (a weld's fixed X_FM is the caller's to fold into its frames).
* REVOLUTE, 1/1: q = θ, R_FM = rot(θ, â), p_FM = 0; v = θ̇.
* PRISMATIC, 1/1: q = x, R_FM = I, p_FM = x·â; v = ẋ.
* SCREW, 1/1: q = θ, R_FM = rot(θ, â), p_FM = (pitch·θ/2π)·â; v = θ̇.
* UNIVERSAL, 2/2: q = (θ₁, θ₂), R_FM = Rx(θ₁)·Ry(θ₂), p_FM = 0; v = (θ̇₁, θ̇₂).
* PLANAR, 3/3: q = (x, y, θ), R_FM = Rz(θ), p_FM = (x, y, 0); v = (ẋ, ẏ, θ̇).
* BALL_RPY, 3/3: q = (r, p, y), R_FM = Rz(y)·Ry(p)·Rx(r), p_FM = 0; v = w_FM_F.
* RPY_FLOATING, 6/6: q = (r, p, y, p_FM); v = (w_FM_F, v_FMo_F).
* QUATERNION_FLOATING, 7/6: q = (q_FM = [w, x, y, z], p_FM); v = (w_FM_F, v_FMo_F).

The quaternion in q need not have unit length: R_FM = R(q_FM/|q_FM|), q̇ = N(q)·v is
½·(0, w_FM_F)⊗q_FM with the raw (unnormalized) q_FM, and v = N⁺(q)·q̇ uses
w_FM_F = 2·E(q_FM)ᵀ·q̇_FM/|q_FM|² (E as in :func:`calc_N`), all exactly as Drake computes them.

Roll-pitch-yaw N(q) divides by cos(pitch): it is singular at pitch = π/2 + kπ. These kernels do
not check (kernels never validate); Drake's MapVelocityToQDot throws when |cos(pitch)| < 1e-3
(pydrake 1.51, both BALL_RPY and RPY_FLOATING), a check for the caller. N⁺ is never singular.
"""

import numpy as np

from mallard.multibody._joint_types import (  # noqa: E402  (the codes, kept numba-free)
    BALL_RPY,
    PLANAR,
    PRISMATIC,
    QUATERNION_FLOATING,
    REVOLUTE,
    RPY_FLOATING,
    SCREW,
    UNIVERSAL,
)
from mallard.multibody._kernels._machinery import jitable, joint_specialized
from mallard.multibody._kernels.lane_views import strided
from mallard.multibody._kernels.rotation import (
    normalized_quaternion_rotation,
    rotation_about_axis,
    rotation_from_rpy,
)

#: nq and nv indexed by joint type code.
NUM_POSITIONS = np.array([0, 1, 1, 1, 2, 3, 3, 6, 7], dtype=np.int64)
NUM_VELOCITIES = np.array([0, 1, 1, 1, 2, 3, 3, 6, 6], dtype=np.int64)
#: 1 for the joint types whose H_FM (and Ḣ_FM·v) depend on q (see calc_joint_tangent).
H_FM_VARIES = np.array([0, 0, 0, 0, 1, 0, 0, 0, 0], dtype=np.int64)
#: 1 for the joint types with N(q) = I (q̇ = v; see calc_N).
N_IS_IDENTITY = np.array([1, 1, 1, 1, 1, 1, 0, 0, 0], dtype=np.int64)

_TWO_PI = 2.0 * np.pi

# Whether the code may meet each joint type: True here (in Python, and compiled for every joint
# type); False, in the code compiled for a model's joint types, for the types it lacks
# (kernels._machinery.joint_specialized: each function that branches on the joint type), so
# that numba neither types nor compiles their branches.
HAS_REVOLUTE = HAS_PRISMATIC = HAS_SCREW = HAS_UNIVERSAL = HAS_PLANAR = True
HAS_BALL_RPY = HAS_RPY_FLOATING = HAS_QUATERNION_FLOATING = True


@jitable
def num_positions(jtype):
    """nq of joint type ``jtype``."""
    return NUM_POSITIONS[jtype]


@jitable
def num_velocities(jtype):
    """nv of joint type ``jtype``."""
    return NUM_VELOCITIES[jtype]


@joint_specialized
def set_zero_configuration(jtype, q):
    """q = the zero configuration (X_FM = I): all zeros, quaternion [1, 0, 0, 0]."""
    for i in range(NUM_POSITIONS[jtype]):
        q[i] = 0.0
    if HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
        q[0] = 1.0


@jitable
def prismatic_X_FM(jparam, x):
    """X_FM of a prismatic joint at x as a pose tuple (kernels.pose): R_FM = I, p_FM = x·â."""
    one = 1.0 + 0.0 * x
    zero = 0.0 * x
    return (
        one, zero, zero,
        zero, one, zero,
        zero, zero, one,
        x * jparam[0], x * jparam[1], x * jparam[2],
    )  # fmt: skip


@jitable
def quaternion_X_FM(q):
    """X_FM of a quaternion floating joint at q (its 7 coordinates) as a pose tuple
    (kernels.pose): R_FM = R(q_FM/|q_FM|), p_FM = q[4:7]."""
    R = normalized_quaternion_rotation(q[0], q[1], q[2], q[3])
    return R + (q[4], q[5], q[6])


@jitable
def _store_X_FM(T, R_FM, p_FM):
    """(R_FM, p_FM) = the pose tuple T."""
    for i in range(3):
        for j in range(3):
            R_FM[i, j] = T[3 * i + j]
        p_FM[i] = T[9 + i]


@joint_specialized
def calc_X_FM(jtype, jparam, q, R_FM, p_FM):
    """Pose X_FM = (R_FM, p_FoMo_F) of the outboard frame M in the inboard frame F."""
    for i in range(3):
        p_FM[i] = 0.0
    if HAS_REVOLUTE and jtype == REVOLUTE:
        rotation_about_axis(jparam[0:3], q[0], R_FM)
    elif HAS_PRISMATIC and jtype == PRISMATIC:
        _store_X_FM(prismatic_X_FM(jparam, q[0]), R_FM, p_FM)
    elif HAS_SCREW and jtype == SCREW:
        rotation_about_axis(jparam[0:3], q[0], R_FM)
        z = jparam[3] * (q[0] / _TWO_PI)
        for i in range(3):
            p_FM[i] = z * jparam[i]
    elif HAS_UNIVERSAL and jtype == UNIVERSAL:
        # Rx(θ₁)·Ry(θ₂)
        c1 = np.cos(q[0])
        s1 = np.sin(q[0])
        c2 = np.cos(q[1])
        s2 = np.sin(q[1])
        R_FM[0, 0] = c2
        R_FM[0, 1] = 0.0
        R_FM[0, 2] = s2
        R_FM[1, 0] = s1 * s2
        R_FM[1, 1] = c1
        R_FM[1, 2] = -s1 * c2
        R_FM[2, 0] = -c1 * s2
        R_FM[2, 1] = s1
        R_FM[2, 2] = c1 * c2
    elif HAS_PLANAR and jtype == PLANAR:
        c = np.cos(q[2])
        s = np.sin(q[2])
        _set_identity(R_FM)
        R_FM[0, 0] = c
        R_FM[0, 1] = -s
        R_FM[1, 0] = s
        R_FM[1, 1] = c
        p_FM[0] = q[0]
        p_FM[1] = q[1]
    elif HAS_BALL_RPY and jtype == BALL_RPY:
        rotation_from_rpy(q[0:3], R_FM)
    elif HAS_RPY_FLOATING and jtype == RPY_FLOATING:
        rotation_from_rpy(q[0:3], R_FM)
        for i in range(3):
            p_FM[i] = q[3 + i]
    elif HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
        _store_X_FM(quaternion_X_FM(q), R_FM, p_FM)
    else:  # WELD
        _set_identity(R_FM)


@joint_specialized
def calc_H_FM(jtype, jparam, q, H_FM):
    """Columns 0..nv-1 of H_FM (6×nv) with V_FM_F = H_FM·v: rows [w_FM_F; v_FMo_F]."""
    nv = NUM_VELOCITIES[jtype]
    for i in range(6):
        for j in range(nv):
            H_FM[i, j] = 0.0
    if HAS_REVOLUTE and jtype == REVOLUTE:
        for i in range(3):
            H_FM[i, 0] = jparam[i]
    elif HAS_PRISMATIC and jtype == PRISMATIC:
        for i in range(3):
            H_FM[3 + i, 0] = jparam[i]
    elif HAS_SCREW and jtype == SCREW:
        k = jparam[3] / _TWO_PI
        for i in range(3):
            H_FM[i, 0] = jparam[i]
            H_FM[3 + i, 0] = k * jparam[i]
    elif HAS_UNIVERSAL and jtype == UNIVERSAL:
        # w_FM = θ̇₁·Fx + θ̇₂·My, with My_F = Rx(θ₁)·[0, 1, 0].
        H_FM[0, 0] = 1.0
        H_FM[1, 1] = np.cos(q[0])
        H_FM[2, 1] = np.sin(q[0])
    elif HAS_PLANAR and jtype == PLANAR:
        H_FM[3, 0] = 1.0
        H_FM[4, 1] = 1.0
        H_FM[2, 2] = 1.0
    elif HAS_BALL_RPY and jtype == BALL_RPY:
        for i in range(3):
            H_FM[i, i] = 1.0
    elif (HAS_RPY_FLOATING and jtype == RPY_FLOATING) or (
        HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING
    ):
        for i in range(6):
            H_FM[i, i] = 1.0


@joint_specialized
def calc_V_FM(jtype, jparam, q, v, V_FM):
    """V_FM_F = H_FM·v, the spatial velocity of M measured in F, at Mo, expressed in F."""
    for i in range(6):
        V_FM[i] = 0.0
    if HAS_REVOLUTE and jtype == REVOLUTE:
        for i in range(3):
            V_FM[i] = jparam[i] * v[0]
    elif HAS_PRISMATIC and jtype == PRISMATIC:
        for i in range(3):
            V_FM[3 + i] = jparam[i] * v[0]
    elif HAS_SCREW and jtype == SCREW:
        k = jparam[3] * (v[0] / _TWO_PI)
        for i in range(3):
            V_FM[i] = jparam[i] * v[0]
            V_FM[3 + i] = jparam[i] * k
    elif HAS_UNIVERSAL and jtype == UNIVERSAL:
        V_FM[0] = v[0]
        V_FM[1] = np.cos(q[0]) * v[1]
        V_FM[2] = np.sin(q[0]) * v[1]
    elif HAS_PLANAR and jtype == PLANAR:
        V_FM[2] = v[2]
        V_FM[3] = v[0]
        V_FM[4] = v[1]
    elif HAS_BALL_RPY and jtype == BALL_RPY:
        for i in range(3):
            V_FM[i] = v[i]
    elif (HAS_RPY_FLOATING and jtype == RPY_FLOATING) or (
        HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING
    ):
        for i in range(6):
            V_FM[i] = v[i]


@joint_specialized
def calc_A_FM_bias(jtype, jparam, q, v, A_FM):
    """Ḣ_FM·v: the part of A_FM_F (M in F, at Mo, expressed in F) that does not multiply v̇.

    Zero for every type but UNIVERSAL, whose second axis My_F = Rx(θ₁)·[0, 1, 0] turns with θ₁:
    Ḣ_FM·v = [θ̇₁·θ̇₂·(0, −sin θ₁, cos θ₁); 0]. (PLANAR's and the floating joints' translational
    v is ṗ_FoMo_F itself, so their H_FM is constant.)
    """
    for i in range(6):
        A_FM[i] = 0.0
    if HAS_UNIVERSAL and jtype == UNIVERSAL:
        w12 = v[0] * v[1]
        A_FM[1] = -np.sin(q[0]) * w12
        A_FM[2] = np.cos(q[0]) * w12


@joint_specialized
def calc_tau_from_F(jtype, jparam, q, F_Mo_F, tau):
    """tau = H_FMᵀ·F_Mo_F (length nv) for a spatial force on M applied at Mo, expressed in F."""
    if HAS_REVOLUTE and jtype == REVOLUTE:
        tau[0] = jparam[0] * F_Mo_F[0] + jparam[1] * F_Mo_F[1] + jparam[2] * F_Mo_F[2]
    elif HAS_PRISMATIC and jtype == PRISMATIC:
        tau[0] = jparam[0] * F_Mo_F[3] + jparam[1] * F_Mo_F[4] + jparam[2] * F_Mo_F[5]
    elif HAS_SCREW and jtype == SCREW:
        t = jparam[0] * F_Mo_F[0] + jparam[1] * F_Mo_F[1] + jparam[2] * F_Mo_F[2]
        f = jparam[0] * F_Mo_F[3] + jparam[1] * F_Mo_F[4] + jparam[2] * F_Mo_F[5]
        tau[0] = t + jparam[3] / _TWO_PI * f
    elif HAS_UNIVERSAL and jtype == UNIVERSAL:
        tau[0] = F_Mo_F[0]
        tau[1] = np.cos(q[0]) * F_Mo_F[1] + np.sin(q[0]) * F_Mo_F[2]
    elif HAS_PLANAR and jtype == PLANAR:
        tau[0] = F_Mo_F[3]
        tau[1] = F_Mo_F[4]
        tau[2] = F_Mo_F[2]
    elif HAS_BALL_RPY and jtype == BALL_RPY:
        for i in range(3):
            tau[i] = F_Mo_F[i]
    elif (HAS_RPY_FLOATING and jtype == RPY_FLOATING) or (
        HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING
    ):
        for i in range(6):
            tau[i] = F_Mo_F[i]


@joint_specialized
def calc_qdot_from_v(jtype, jparam, q, v, qdot):
    """q̇ = N(q)·v (see :func:`calc_N`)."""
    if (HAS_BALL_RPY and jtype == BALL_RPY) or (HAS_RPY_FLOATING and jtype == RPY_FLOATING):
        _rpy_rates_from_w(q, v, qdot)
        if HAS_RPY_FLOATING and jtype == RPY_FLOATING:
            for i in range(3, 6):
                qdot[i] = v[i]
    elif HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
        # q̇_FM = ½·(0, w)⊗q_FM = ½·E(q_FM)·w.
        h0 = 0.5 * v[0]
        h1 = 0.5 * v[1]
        h2 = 0.5 * v[2]
        qw = q[0]
        qx = q[1]
        qy = q[2]
        qz = q[3]
        qdot[0] = -qx * h0 - qy * h1 - qz * h2
        qdot[1] = qw * h0 + qz * h1 - qy * h2
        qdot[2] = -qz * h0 + qw * h1 + qx * h2
        qdot[3] = qy * h0 - qx * h1 + qw * h2
        for i in range(4, 7):
            qdot[i] = v[i - 1]
    else:
        for i in range(NUM_VELOCITIES[jtype]):
            qdot[i] = v[i]


@joint_specialized
def calc_v_from_qdot(jtype, jparam, q, qdot, v):
    """v = N⁺(q)·q̇ (see :func:`calc_Nplus`); exact when q̇ is in the range of N(q)."""
    if (HAS_BALL_RPY and jtype == BALL_RPY) or (HAS_RPY_FLOATING and jtype == RPY_FLOATING):
        # w_FM_F = ṙ·(Rz(y)·Ry(p)·Fx) + ṗ·(Rz(y)·Fy) + ẏ·Fz.
        cp = np.cos(q[1])
        sp = np.sin(q[1])
        cy = np.cos(q[2])
        sy = np.sin(q[2])
        rd = qdot[0]
        pd = qdot[1]
        yd = qdot[2]
        v[0] = cy * cp * rd - sy * pd
        v[1] = sy * cp * rd + cy * pd
        v[2] = -sp * rd + yd
        if HAS_RPY_FLOATING and jtype == RPY_FLOATING:
            for i in range(3, 6):
                v[i] = qdot[i]
    elif HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
        # w_FM_F = 2·E(q_FM)ᵀ·q̇_FM / |q_FM|².
        qw = q[0]
        qx = q[1]
        qy = q[2]
        qz = q[3]
        k = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
        a = qdot[0]
        b = qdot[1]
        c = qdot[2]
        d = qdot[3]
        v[0] = k * (-qx * a + qw * b - qz * c + qy * d)
        v[1] = k * (-qy * a + qz * b + qw * c - qx * d)
        v[2] = k * (-qz * a - qy * b + qx * c + qw * d)
        for i in range(3, 6):
            v[i] = qdot[i + 1]
    else:
        for i in range(NUM_VELOCITIES[jtype]):
            v[i] = qdot[i]


@joint_specialized
def calc_N(jtype, jparam, q, N):
    """N(q) (nq×nv) with q̇ = N(q)·v.

    Roll-pitch-yaw (BALL_RPY, and the angular block of RPY_FLOATING), singular at cos(p) = 0:
    [[cy/cp, sy/cp, 0], [−sy, cy, 0], [cy·sp/cp, sy·sp/cp, 1]]. QUATERNION_FLOATING: the angular
    block is ½·E(q_FM) with E = [[−x, −y, −z], [w, z, −y], [−z, w, x], [y, −x, w]] for the raw
    q_FM = [w, x, y, z]. The other types (and translational blocks) have N = I.
    """
    nq = NUM_POSITIONS[jtype]
    nv = NUM_VELOCITIES[jtype]
    for i in range(nq):
        for j in range(nv):
            N[i, j] = 0.0
    if (HAS_BALL_RPY and jtype == BALL_RPY) or (HAS_RPY_FLOATING and jtype == RPY_FLOATING):
        cp = np.cos(q[1])
        sp = np.sin(q[1])
        cy = np.cos(q[2])
        sy = np.sin(q[2])
        cy_cp = cy / cp
        sy_cp = sy / cp
        N[0, 0] = cy_cp
        N[0, 1] = sy_cp
        N[1, 0] = -sy
        N[1, 1] = cy
        N[2, 0] = sp * cy_cp
        N[2, 1] = sp * sy_cp
        N[2, 2] = 1.0
        if HAS_RPY_FLOATING and jtype == RPY_FLOATING:
            for i in range(3, 6):
                N[i, i] = 1.0
    elif HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
        w = 0.5 * q[0]
        x = 0.5 * q[1]
        y = 0.5 * q[2]
        z = 0.5 * q[3]
        N[0, 0] = -x
        N[0, 1] = -y
        N[0, 2] = -z
        N[1, 0] = w
        N[1, 1] = z
        N[1, 2] = -y
        N[2, 0] = -z
        N[2, 1] = w
        N[2, 2] = x
        N[3, 0] = y
        N[3, 1] = -x
        N[3, 2] = w
        for i in range(3):
            N[4 + i, 3 + i] = 1.0
    else:
        for i in range(nv):
            N[i, i] = 1.0


@joint_specialized
def calc_Nplus(jtype, jparam, q, Nplus):
    """N⁺(q) (nv×nq) with v = N⁺(q)·q̇, a left inverse of N(q) (N⁺·N = I).

    Roll-pitch-yaw angular block: [[cy·cp, −sy, 0], [sy·cp, cy, 0], [−sp, 0, 1]] (never singular).
    QUATERNION_FLOATING angular block: 2·E(q_FM)ᵀ/|q_FM|² (E as in :func:`calc_N`).
    """
    nq = NUM_POSITIONS[jtype]
    nv = NUM_VELOCITIES[jtype]
    for i in range(nv):
        for j in range(nq):
            Nplus[i, j] = 0.0
    if (HAS_BALL_RPY and jtype == BALL_RPY) or (HAS_RPY_FLOATING and jtype == RPY_FLOATING):
        cp = np.cos(q[1])
        sp = np.sin(q[1])
        cy = np.cos(q[2])
        sy = np.sin(q[2])
        Nplus[0, 0] = cy * cp
        Nplus[0, 1] = -sy
        Nplus[1, 0] = sy * cp
        Nplus[1, 1] = cy
        Nplus[2, 0] = -sp
        Nplus[2, 2] = 1.0
        if HAS_RPY_FLOATING and jtype == RPY_FLOATING:
            for i in range(3, 6):
                Nplus[i, i] = 1.0
    elif HAS_QUATERNION_FLOATING and jtype == QUATERNION_FLOATING:
        qw = q[0]
        qx = q[1]
        qy = q[2]
        qz = q[3]
        k = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz)
        w = k * qw
        x = k * qx
        y = k * qy
        z = k * qz
        Nplus[0, 0] = -x
        Nplus[0, 1] = w
        Nplus[0, 2] = -z
        Nplus[0, 3] = y
        Nplus[1, 0] = -y
        Nplus[1, 1] = z
        Nplus[1, 2] = w
        Nplus[1, 3] = -x
        Nplus[2, 0] = -z
        Nplus[2, 1] = -y
        Nplus[2, 2] = x
        Nplus[2, 3] = w
        for i in range(3):
            Nplus[3 + i, 4 + i] = 1.0
    else:
        for i in range(nv):
            Nplus[i, i] = 1.0


@joint_specialized
def calc_joint_tangent(jtype, jparam, q, v, is_q, i, H_FM, dH_FM, dV_FM, dA_FM):
    """The tangents of a mobilizer's own H_FM, V_FM = H_FM·v and Ḣ_FM·v (in its F frame) along
    its coordinate q[i] (``is_q``) or velocity v[i]: dH_FM (columns 0..nv−1), dV_FM, dA_FM
    (kernels.derivatives). H_FM is a 6×6 workspace. Only the types with H_FM_VARIES have H_FM
    and Ḣ_FM·v depending on q: UNIVERSAL, whose second axis (0, cos θ₁, sin θ₁) turns with
    θ₁."""
    nv = NUM_VELOCITIES[jtype]
    z = 0.0 * jparam[0]
    for r in range(6):
        dV_FM[r] = z
        dA_FM[r] = z
        for c in range(nv):
            dH_FM[r, c] = z
    if is_q == 0:
        calc_H_FM(jtype, jparam, strided(q), strided(H_FM))  # (one layout: see strided)
        for r in range(6):
            dV_FM[r] = H_FM[r, i]
    if not HAS_UNIVERSAL or not H_FM_VARIES[jtype]:
        return
    c1 = np.cos(q[0])
    s1 = np.sin(q[0])
    w12 = v[0] * v[1]
    if is_q != 0:
        if i == 0:
            dH_FM[1, 1] = -s1
            dH_FM[2, 1] = c1
            dV_FM[1] = -s1 * v[1]
            dV_FM[2] = c1 * v[1]
            dA_FM[1] = -c1 * w12
            dA_FM[2] = -s1 * w12
    else:
        other = v[1] if i == 0 else v[0]
        dA_FM[1] = -s1 * other
        dA_FM[2] = c1 * other


@jitable
def _rpy_rates_from_w(rpy, w_FM, rpy_dot):
    """[ṙ, ṗ, ẏ] from w_FM_F for R_FM = Rz(y)·Ry(p)·Rx(r); divides by cos(p)."""
    cp = np.cos(rpy[1])
    sp = np.sin(rpy[1])
    cy = np.cos(rpy[2])
    sy = np.sin(rpy[2])
    w0 = w_FM[0]
    w1 = w_FM[1]
    w2 = w_FM[2]
    rd = (cy * w0 + sy * w1) / cp
    rpy_dot[0] = rd
    rpy_dot[1] = -sy * w0 + cy * w1
    rpy_dot[2] = sp * rd + w2


@jitable
def _set_identity(R):
    """R = I (3×3)."""
    for i in range(3):
        for j in range(3):
            R[i, j] = 0.0
        R[i, i] = 1.0
