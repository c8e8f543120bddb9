"""MultibodyForces, and the element methods that fill it: RigidBody.AddInForce,
AddInForceInWorld, GetForceInWorld; Joint.AddInOneForce, AddInDamping. Also the body
acceleration queries RigidBody.EvalSpatialAccelerationInWorld and
CalcCenterOfMassTranslationalAccelerationInWorld."""

import numpy as np
import pytest

from mallard.math import RigidTransform, RollPitchYaw
from mallard.multibody.math import SpatialForce
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    MultibodyForces,
    PlanarJoint,
    PrismaticJoint,
    QuaternionFloatingJoint,
    RevoluteJoint,
    RotationalInertia,
    RpyFloatingJoint,
    ScrewJoint,
    SpatialInertia,
    UniversalJoint,
    WeldJoint,
)

BOX = SpatialInertia.SolidBoxWithMass(1.5, 0.1, 0.2, 0.3)


def _every_joint(damped=True):
    """One body per joint type, each jointed to World, with damping; returns (plant, joints,
    bodies), finalized, and a context at a random state."""
    plant = MultibodyPlant(0.0)
    W = plant.world_frame()
    bodies = [plant.AddRigidBody(f"b{i}", BOX) for i in range(9)]
    F = [b.body_frame() for b in bodies]
    d = 1.0 if damped else 0.0
    joints = [
        RevoluteJoint("rev", W, F[0], [0, 0, 1], 0.1 * d),
        PrismaticJoint("pri", W, F[1], [0, 1, 1], damping=0.2 * d),
        ScrewJoint("scr", W, F[2], 0.3, 0.3 * d),
        UniversalJoint("uni", W, F[3], 0.4 * d),
        PlanarJoint("pla", W, F[4], np.array([0.5, 0.6, 0.7]) * d),
        BallRpyJoint("ball", W, F[5], 0.8 * d),
        RpyFloatingJoint("rpy", W, F[6], 0.9 * d, 1.0 * d),
        QuaternionFloatingJoint("quat", W, F[7], 1.1 * d, 1.2 * d),
        WeldJoint("weld", W, F[8], RigidTransform([0, 0, 1])),
    ]
    joints = [plant.AddJoint(j) for j in joints]
    plant.Finalize()
    rng = np.random.default_rng(3)
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, rng.normal(size=plant.num_positions()))
    plant.SetVelocities(context, rng.normal(size=plant.num_velocities()))
    return plant, joints, bodies, context


def _slice(joint, tau):
    return tau[joint.velocity_start() : joint.velocity_start() + joint.num_velocities()]


# ---- MultibodyForces -------------------------------------------------------------------------
def test_constructors_and_sizes():
    plant = MultibodyPlant(0.0)
    plant.AddRigidBody("b", BOX)
    with pytest.raises(
        RuntimeError,
        match=r"^Pre-finalize calls to 'num_velocities\(\)' are not allowed; you must call "
        r"Finalize\(\) first.$",
    ):
        MultibodyForces(plant)
    plant.Finalize()
    for forces in (MultibodyForces(plant), MultibodyForces(plant=plant)):
        assert (forces.num_bodies(), forces.num_velocities()) == (2, 6)
        np.testing.assert_array_equal(forces.generalized_forces(), np.zeros(6))
    for forces in (MultibodyForces(3, 4), MultibodyForces(nb=3, nv=4), MultibodyForces(3, nv=4)):
        assert (forces.num_bodies(), forces.num_velocities()) == (3, 4)
    assert MultibodyForces(0, 0).num_velocities() == 0
    with pytest.raises(TypeError, match="nb must be an int"):
        MultibodyForces(1.0, 2)
    with pytest.raises(ValueError, match="nv must be non-negative, got -1"):
        MultibodyForces(1, -1)
    for args in ((1, 2, 3), (5,), (None,)):
        with pytest.raises(TypeError, match=r"takes \(plant\) or \(nb, nv\)"):
            MultibodyForces(*args)


def test_generalized_forces_views_and_set_zero():
    forces = MultibodyForces(2, 3)
    tau = forces.mutable_generalized_forces()
    tau[:] = [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(forces.generalized_forces(), [1, 2, 3])
    copy = forces.generalized_forces()  # a copy, as pydrake returns
    copy[0] = 7.0
    np.testing.assert_array_equal(forces.generalized_forces(), [1, 2, 3])
    forces._F_BBo_W[1] = 5.0
    assert forces.SetZero() is forces
    np.testing.assert_array_equal(forces.generalized_forces(), np.zeros(3))
    np.testing.assert_array_equal(forces._F_BBo_W, np.zeros((2, 6)))
    tau[1] = 4.0  # the view stays the forces' own after SetZero
    np.testing.assert_array_equal(forces.generalized_forces(), [0, 4, 0])


def test_add_in_forces():
    plant, _, bodies, context = _every_joint()
    a, b = MultibodyForces(plant), MultibodyForces(plant)
    a.mutable_generalized_forces()[:] = 1.0
    b.mutable_generalized_forces()[:] = np.arange(plant.num_velocities())
    bodies[2].AddInForceInWorld(context, SpatialForce([1, 2, 3], [4, 5, 6]), a)
    bodies[2].AddInForceInWorld(context, SpatialForce([1, 1, 1], [1, 1, 1]), b)
    assert a.AddInForces(b) is None
    np.testing.assert_array_equal(a.generalized_forces(), 1 + np.arange(plant.num_velocities()))
    np.testing.assert_array_equal(
        bodies[2].GetForceInWorld(context, a).get_coeffs(), [2, 3, 4, 5, 6, 7]
    )
    np.testing.assert_array_equal(b.generalized_forces(), np.arange(plant.num_velocities()))
    for nb, nv, what in [(3, 2, "bodies"), (2, 3, "velocities")]:
        with pytest.raises(RuntimeError, match=f"AddInForces\\(\\): the addend has . {what}"):
            MultibodyForces(2, 2).AddInForces(MultibodyForces(nb, nv))
    with pytest.raises(TypeError, match="addend must be a MultibodyForces"):
        a.AddInForces(np.zeros(3))


# ---- RigidBody -------------------------------------------------------------------------------
def _free_body_and_frame():
    """A free body B and a frame E fixed on another free body, at a random state."""
    plant = MultibodyPlant(0.0)
    B = plant.AddRigidBody("B", BOX)
    other = plant.AddRigidBody("other", BOX)
    X = RigidTransform(RollPitchYaw(0.3, -0.4, 0.9), [0.2, -0.1, 0.5])
    E = plant.AddFrame(FixedOffsetFrame("E", other.body_frame(), X))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    rng = np.random.default_rng(5)
    q = rng.normal(size=14)
    q[:4] /= np.linalg.norm(q[:4])
    q[7:11] /= np.linalg.norm(q[7:11])
    plant.SetPositions(context, q)
    plant.SetVelocities(context, rng.normal(size=12))
    return plant, B, E, context


def test_add_in_force_at_a_point_expressed_in_another_frame():
    plant, B, E, context = _free_body_and_frame()
    forces = MultibodyForces(plant)
    p_BP_E = np.array([0.3, -0.2, 0.4])
    tau_E, f_E = np.array([0.5, 1.0, -2.0]), np.array([3.0, -1.0, 2.0])
    assert B.AddInForce(context, p_BP_E, SpatialForce(tau_E, f_E), E, forces) is None
    R_WE = E.CalcRotationMatrixInWorld(context).matrix()
    f_W = R_WE @ f_E
    expected = np.r_[R_WE @ tau_E + np.cross(R_WE @ p_BP_E, f_W), f_W]
    F_Bo_W = B.GetForceInWorld(context, forces)
    np.testing.assert_allclose(F_Bo_W.get_coeffs(), expected, rtol=1e-14, atol=1e-14)
    # The power is the same computed at P or at Bo.
    V_WB = B.EvalSpatialVelocityInWorld(context)
    V_WBp = V_WB.Shift(R_WE @ p_BP_E)
    F_Bp_W = SpatialForce(R_WE @ tau_E, f_W)
    assert F_Bo_W.dot(V_WB) == pytest.approx(F_Bp_W.dot(V_WBp), rel=1e-13)
    # Equivalent generalized forces: those of the other body stay zero.
    tau = plant.CalcGeneralizedForces(context, forces)
    np.testing.assert_array_equal(tau[6:], np.zeros(6))
    # It accumulates, and the other bodies are untouched.
    B.AddInForce(context, p_BP_E, SpatialForce(tau_E, f_E), E, forces)
    np.testing.assert_allclose(B.GetForceInWorld(context, forces).get_coeffs(), 2 * expected)
    np.testing.assert_array_equal(forces._F_BBo_W[[0, 2]], np.zeros((2, 6)))


def test_add_in_force_in_world_and_get_force_in_world():
    plant, B, E, context = _free_body_and_frame()
    forces = MultibodyForces(plant)
    F = SpatialForce([1, 2, 3], [4, 5, 6])
    B.AddInForceInWorld(context, F, forces)
    B.AddInForceInWorld(context, F, forces)
    got = B.GetForceInWorld(context, forces)
    np.testing.assert_array_equal(got.get_coeffs(), [2, 4, 6, 8, 10, 12])
    got.SetZero()  # a copy
    np.testing.assert_array_equal(B.GetForceInWorld(context, forces).get_coeffs()[:3], [2, 4, 6])
    # At World's origin and expressed in World, AddInForce is AddInForceInWorld.
    other = MultibodyForces(plant)
    B.AddInForce(context, np.zeros(3), F, plant.world_frame(), other)
    np.testing.assert_array_equal(B.GetForceInWorld(context, other).get_coeffs(), F.get_coeffs())
    # On a free body the generalized forces are [R_WBᵀ·τ; f] (w_WB and v_WBo in the parent).
    tau = plant.CalcGeneralizedForces(context, other)
    np.testing.assert_allclose(tau[:6], F.get_coeffs(), atol=1e-14)


def test_force_methods_errors():
    plant, B, E, context = _free_body_and_frame()
    F = SpatialForce([1, 2, 3], [4, 5, 6])
    wrong = MultibodyForces(2, 12)
    for call in (
        lambda: B.AddInForceInWorld(context, F, wrong),
        lambda: B.AddInForce(context, np.zeros(3), F, E, wrong),
        lambda: B.GetForceInWorld(context, wrong),
    ):
        with pytest.raises(RuntimeError, match="MultibodyForces are not compatible"):
            call()
    forces = MultibodyForces(plant)
    with pytest.raises(TypeError, match="forces must be a MultibodyForces"):
        B.GetForceInWorld(context, None)
    with pytest.raises(TypeError, match="F_Bp_E must be a SpatialForce"):
        B.AddInForce(context, np.zeros(3), np.zeros(6), E, forces)
    with pytest.raises(TypeError, match="frame_E must be a Frame"):
        B.AddInForce(context, np.zeros(3), F, B, forces)
    other = MultibodyPlant(0.0)
    other.Finalize()
    with pytest.raises(RuntimeError, match="was passed the Context of a system"):
        B.AddInForceInWorld(other.CreateDefaultContext(), F, forces)


def test_body_accelerations():
    """A free body with its COM off Bo, spinning without forces: Bo accelerates, the COM does
    not; under gravity the COM falls at g."""
    plant = MultibodyPlant(0.0)
    plant.mutable_gravity_field().set_gravity_vector([0, 0, 0])
    M = SpatialInertia.MakeFromCentralInertia(
        2.0, [0.3, -0.2, 0.1], RotationalInertia(0.1, 0.2, 0.25)
    )
    body = plant.AddRigidBody("body", M)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetVelocities(context, [1.0, 2.0, -0.5, 0.1, 0.2, 0.3])
    A = body.EvalSpatialAccelerationInWorld(context)
    np.testing.assert_array_equal(
        A.get_coeffs(), plant.EvalBodySpatialAccelerationInWorld(context, body).get_coeffs()
    )
    assert np.linalg.norm(A.translational()) > 0.1
    a_com = body.CalcCenterOfMassTranslationalAccelerationInWorld(context)
    np.testing.assert_allclose(a_com, np.zeros(3), atol=1e-13)
    np.testing.assert_allclose(
        a_com, plant.CalcCenterOfMassTranslationalAccelerationInWorld(context), atol=1e-13
    )
    plant.mutable_gravity_field().set_gravity_vector([0, 0, -9.81])
    context = plant.CreateDefaultContext()
    a_com = body.CalcCenterOfMassTranslationalAccelerationInWorld(context)
    np.testing.assert_allclose(a_com, [0, 0, -9.81], atol=1e-13)


# ---- Joint -----------------------------------------------------------------------------------
def test_add_in_one_force():
    plant, joints, _, context = _every_joint()
    for joint in joints:
        for dof in range(joint.num_velocities()):
            forces = MultibodyForces(plant)
            if joint.type_name() in ("ball_rpy", "rpy_floating", "quaternion_floating"):
                name = {"ball_rpy": "Ball RPY", "rpy_floating": "RpyFloating"}.get(
                    joint.type_name(), "QuaternionFloating"
                )
                with pytest.raises(
                    RuntimeError,
                    match=f"^{name} joints do not allow applying forces to individual degrees of "
                    "freedom.$",
                ):
                    joint.AddInOneForce(context, dof, 2.5, forces)
                continue
            joint.AddInOneForce(context, dof, 2.5, forces)
            joint.AddInOneForce(context, dof, 0.5, forces)
            expected = np.zeros(plant.num_velocities())
            expected[joint.velocity_start() + dof] = 3.0
            np.testing.assert_array_equal(forces.generalized_forces(), expected)
        for dof in (-1, joint.num_velocities()):
            with pytest.raises(RuntimeError, match=r"AddInOneForce\(\): joint_dof must be in"):
                joint.AddInOneForce(context, dof, 1.0, MultibodyForces(plant))
    revolute = joints[0]
    with pytest.raises(TypeError, match="joint_dof must be an int"):
        revolute.AddInOneForce(context, 0.0, 1.0, MultibodyForces(plant))
    with pytest.raises(TypeError, match="joint_tau must be a float"):
        revolute.AddInOneForce(context, 0, [1.0], MultibodyForces(plant))
    with pytest.raises(TypeError, match="forces must be a MultibodyForces"):
        revolute.AddInOneForce(context, 0, 1.0, None)
    with pytest.raises(RuntimeError, match="MultibodyForces are not compatible"):
        revolute.AddInOneForce(context, 0, 1.0, MultibodyForces(3, 3))


def test_add_in_one_force_needs_a_finalized_plant():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", BOX)
    joint = RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1])
    with pytest.raises(RuntimeError, match="not added to a MultibodyPlant"):
        joint.AddInOneForce(None, 0, 1.0, MultibodyForces(2, 1))
    plant.AddJoint(joint)
    with pytest.raises(RuntimeError, match="finalized"):
        joint.AddInDamping(None, MultibodyForces(2, 1))


def test_add_in_damping():
    plant, joints, bodies, context = _every_joint()
    v = plant.GetVelocities(context)
    damping = {
        "rev": [0.1],
        "pri": [0.2],
        "scr": [0.3],
        "uni": [0.4, 0.4],
        "pla": [0.5, 0.6, 0.7],
        "ball": [0.8] * 3,
        "rpy": [0.9] * 3 + [1.0] * 3,
        "quat": [1.1] * 3 + [1.2] * 3,
        "weld": [],
    }
    forces = MultibodyForces(plant)
    for joint in joints:
        joint.AddInDamping(context, forces)
        np.testing.assert_allclose(
            _slice(joint, forces.generalized_forces()),
            -np.array(damping[joint.name()]) * _slice(joint, v),
            rtol=1e-15,
        )
    np.testing.assert_array_equal(forces._F_BBo_W, np.zeros((len(bodies) + 1, 6)))
    # The plant's force elements include the damping of every joint.
    total = MultibodyForces(plant)
    plant.CalcForceElementsContribution(context, total)
    np.testing.assert_allclose(
        plant.CalcGeneralizedForces(context, total),
        forces.generalized_forces() + plant.CalcGravityGeneralizedForces(context),
        atol=1e-14,
    )
    # Damping in the Context.
    planar = joints[4]
    planar.SetDampingVector(context, [2.0, 0.0, 1.0])
    forces.SetZero()
    planar.AddInDamping(context, forces)
    np.testing.assert_array_equal(
        _slice(planar, forces.generalized_forces()), -np.array([2.0, 0.0, 1.0]) * _slice(planar, v)
    )
    with pytest.raises(RuntimeError, match="MultibodyForces are not compatible"):
        planar.AddInDamping(context, MultibodyForces(2, 2))
