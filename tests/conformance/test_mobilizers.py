"""The mobilizer kernels against pydrake: a one-joint plant per joint type, random states.

The joint's inboard frame F is a FixedOffsetFrame on World and its outboard frame M one on the
child body, both at random poses, so that X_FM, V_FM and the bias acceleration of M are the
across-mobilizer quantities the kernels compute.
"""

import numpy as np
import pytest

pytest.importorskip("pydrake")

from pydrake.math import RigidTransform, RollPitchYaw, RotationMatrix  # noqa: E402
from pydrake.multibody.plant import MultibodyPlant  # noqa: E402
from pydrake.multibody.tree import (  # noqa: E402
    BallRpyJoint,
    FixedOffsetFrame,
    JacobianWrtVariable,
    PlanarJoint,
    PrismaticJoint,
    QuaternionFloatingJoint,
    RevoluteJoint,
    RpyFloatingJoint,
    ScrewJoint,
    SpatialInertia,
    UniversalJoint,
    WeldJoint,
)

from mallard._compiled import compiled  # noqa: E402
from mallard.multibody import _joint_types as jt  # noqa: E402
from mallard.multibody._kernels import mobilizers as mob  # noqa: E402

TOL = dict(rtol=1e-10, atol=1e-10)
TYPES = {
    "weld": jt.WELD,
    "revolute": jt.REVOLUTE,
    "prismatic": jt.PRISMATIC,
    "screw": jt.SCREW,
    "universal": jt.UNIVERSAL,
    "planar": jt.PLANAR,
    "ball_rpy": jt.BALL_RPY,
    "rpy_floating": jt.RPY_FLOATING,
    "quaternion_floating": jt.QUATERNION_FLOATING,
}


def random_pose(rng):
    return RigidTransform(
        RotationMatrix(RollPitchYaw(rng.uniform(-3, 3, size=3))), rng.normal(size=3)
    )


def build(kind, rng):
    """A plant with one joint of ``kind`` from World to a body; returns it, F, M, joint, jparam."""
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("B", SpatialInertia.SolidBoxWithMass(1.5, 0.1, 0.2, 0.3))
    F = plant.AddFrame(FixedOffsetFrame("F", plant.world_frame(), random_pose(rng)))
    M = plant.AddFrame(FixedOffsetFrame("M", body.body_frame(), random_pose(rng)))
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    pitch = 0.37
    jparam = np.zeros(4)
    if kind in ("revolute", "prismatic", "screw"):
        jparam[:3] = axis
    if kind == "screw":
        jparam[3] = pitch
    joint = {
        "weld": lambda: WeldJoint("j", F, M, random_pose(rng)),
        "revolute": lambda: RevoluteJoint("j", F, M, axis),
        "prismatic": lambda: PrismaticJoint("j", F, M, axis),
        "screw": lambda: ScrewJoint("j", F, M, axis, pitch, 0.0),
        "universal": lambda: UniversalJoint("j", F, M),
        "planar": lambda: PlanarJoint("j", F, M, np.zeros(3)),
        "ball_rpy": lambda: BallRpyJoint("j", F, M),
        "rpy_floating": lambda: RpyFloatingJoint("j", F, M),
        "quaternion_floating": lambda: QuaternionFloatingJoint("j", F, M),
    }[kind]()
    plant.AddJoint(joint)
    plant.Finalize()
    return plant, F, M, joint, jparam


def random_q(jtype, rng):
    q = rng.uniform(-2.5, 2.5, size=mob.NUM_POSITIONS[jtype])
    if jtype == jt.QUATERNION_FLOATING:
        # Deliberately not unit length: Drake normalizes for R_FM but not in N(q).
        q[:4] *= rng.uniform(0.3, 3.0) / np.linalg.norm(q[:4])
    if jtype in (jt.BALL_RPY, jt.RPY_FLOATING):
        q[1] = rng.uniform(-1.3, 1.3)  # away from the pitch = ±π/2 singularity
    return q


def drake_matrices(plant, context):
    """N and N⁺ column by column from MapVelocityToQDot / MapQDotToVelocity."""
    nq, nv = plant.num_positions(), plant.num_velocities()
    N = np.zeros((nq, nv))
    Nplus = np.zeros((nv, nq))
    for j in range(nv):
        N[:, j] = plant.MapVelocityToQDot(context, np.eye(nv)[j])
    for j in range(nq):
        Nplus[:, j] = plant.MapQDotToVelocity(context, np.eye(nq)[j])
    return N, Nplus


@pytest.mark.parametrize("kind", sorted(TYPES))
def test_mobilizer_kernels_match_pydrake(kind):
    rng = np.random.default_rng(sum(map(ord, kind)))
    jtype = TYPES[kind]
    plant, F, M, joint, jparam = build(kind, rng)
    nq, nv = mob.NUM_POSITIONS[jtype], mob.NUM_VELOCITIES[jtype]
    assert (plant.num_positions(), plant.num_velocities()) == (nq, nv)
    context = plant.CreateDefaultContext()
    R_FM, p_FM, V_FM, A_FM = np.empty((3, 3)), np.empty(3), np.empty(6), np.empty(6)
    N, Nplus, qdot, v_back = np.empty((nq, nv)), np.empty((nv, nq)), np.empty(nq), np.empty(nv)

    q0 = np.empty(nq)
    compiled(mob.set_zero_configuration)(jtype, q0)
    np.testing.assert_array_equal(q0, plant.GetPositions(context))  # Drake's default q

    R_WF = F.CalcPoseInWorld(context).rotation().matrix()
    for _ in range(5):
        q, v = random_q(jtype, rng), rng.normal(size=nv)
        plant.SetPositions(context, q)
        plant.SetVelocities(context, v)

        X_FM = plant.CalcRelativeTransform(context, F, M)
        compiled(mob.calc_X_FM)(jtype, jparam, q, R_FM, p_FM)
        R, p = R_FM, p_FM
        if kind == "weld":  # the weld's own X_FM is not part of the mobilizer kernels
            np.testing.assert_array_equal(np.c_[R_FM, p_FM], np.c_[np.eye(3), np.zeros(3)])
            R, p = joint.X_FM().rotation().matrix(), joint.X_FM().translation()
        np.testing.assert_allclose(R, X_FM.rotation().matrix(), **TOL)
        np.testing.assert_allclose(p, X_FM.translation(), **TOL)

        compiled(mob.calc_V_FM)(jtype, jparam, q, v, V_FM)
        np.testing.assert_allclose(V_FM, M.CalcSpatialVelocity(context, F, F).get_coeffs(), **TOL)

        # F is fixed in World, so M's bias acceleration in World is Ḣ_FM·v re-expressed.
        compiled(mob.calc_A_FM_bias)(jtype, jparam, q, v, A_FM)
        W = plant.world_frame()
        Ab_WM_W = plant.CalcBiasSpatialAcceleration(
            context, JacobianWrtVariable.kV, M, np.zeros(3), W, W
        ).get_coeffs()
        np.testing.assert_allclose(np.r_[R_WF @ A_FM[:3], R_WF @ A_FM[3:]], Ab_WM_W, **TOL)

        N_drake, Nplus_drake = drake_matrices(plant, context)
        compiled(mob.calc_N)(jtype, jparam, q, N)
        compiled(mob.calc_Nplus)(jtype, jparam, q, Nplus)
        np.testing.assert_allclose(N, N_drake, **TOL)
        np.testing.assert_allclose(Nplus, Nplus_drake, **TOL)
        compiled(mob.calc_qdot_from_v)(jtype, jparam, q, v, qdot)
        np.testing.assert_allclose(qdot, plant.MapVelocityToQDot(context, v), **TOL)
        qdot_any = rng.normal(size=nq)
        compiled(mob.calc_v_from_qdot)(jtype, jparam, q, qdot_any, v_back)
        np.testing.assert_allclose(v_back, plant.MapQDotToVelocity(context, qdot_any), **TOL)


def test_make_maps_agree_when_scipy_is_available():
    """MakeVelocityToQDotMap / MakeQDotToVelocityMap (scipy sparse) for a non-unit quaternion."""
    pytest.importorskip("scipy")
    rng = np.random.default_rng(11)
    jtype = jt.QUATERNION_FLOATING
    plant, *_ = build("quaternion_floating", rng)
    context = plant.CreateDefaultContext()
    q = random_q(jtype, rng)
    plant.SetPositions(context, q)
    N, Nplus = np.empty((7, 6)), np.empty((6, 7))
    compiled(mob.calc_N)(jtype, np.zeros(4), q, N)
    compiled(mob.calc_Nplus)(jtype, np.zeros(4), q, Nplus)
    np.testing.assert_allclose(N, plant.MakeVelocityToQDotMap(context).toarray(), **TOL)
    np.testing.assert_allclose(Nplus, plant.MakeQDotToVelocityMap(context).toarray(), **TOL)


def test_generalized_forces_match_pydrake():
    """H_FMᵀ·F: the generalized force of a spatial force on M at Mo equals Drake's J_V_WMᵀ·F."""
    for kind, jtype in TYPES.items():
        rng = np.random.default_rng(5 + jtype)
        plant, F, M, _, jparam = build(kind, rng)
        nv = mob.NUM_VELOCITIES[jtype]
        context = plant.CreateDefaultContext()
        q = random_q(jtype, rng)
        plant.SetPositions(context, q)
        J_V_FM_F = plant.CalcJacobianSpatialVelocity(
            context, JacobianWrtVariable.kV, M, np.zeros(3), F, F
        )
        H_FM = np.empty((6, nv))
        compiled(mob.calc_H_FM)(jtype, jparam, q, H_FM)
        np.testing.assert_allclose(H_FM, J_V_FM_F, **TOL)
        F_Mo_F, tau = rng.normal(size=6), np.empty(nv)
        compiled(mob.calc_tau_from_F)(jtype, jparam, q, F_Mo_F, tau)
        np.testing.assert_allclose(tau, J_V_FM_F.T @ F_Mo_F, **TOL)
