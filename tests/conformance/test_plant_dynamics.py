"""MultibodyPlant dynamics, Jacobians, accelerations and energy against pydrake.

One rich continuous model is built in both libraries: every joint type (damped), reversed
revolute, prismatic and weld joints, chains of offset frames, lone free bodies, a user
quaternion joint, actuators with rotor inertia, gear ratios, effort limits and PD gains, joint
springs and a linear spring-damper, gravity disabled for one model instance. Everything is
compared at random states (non-unit quaternions) with every input fixed, to 1e-10 relative.
"""

import types

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.multibody.plant as d_plant  # noqa: E402
import pydrake.multibody.tree as d_tree  # noqa: E402
import pydrake.systems.framework as d_framework  # noqa: E402

import mallard.multibody.plant as m_plant  # noqa: E402
import mallard.multibody.tree as m_tree  # noqa: E402
import mallard.systems.framework as m_framework  # noqa: E402
from tests.multibody.plant.plant_models import dynamics_model, random_inertia  # noqa: E402

from .test_plant_kinematics import DRAKE, MALLARD, arr  # noqa: E402

TOL = dict(rtol=1e-10, atol=1e-10)
NUM_STATES = 3

for _ns, _plant, _tree, _framework in (
    (MALLARD, m_plant, m_tree, m_framework),
    (DRAKE, d_plant, d_tree, d_framework),
):
    _ns.ExternallyAppliedSpatialForce = _plant.ExternallyAppliedSpatialForce
    _ns.BasicVector = _framework.BasicVector


def close(ours, theirs, what=""):
    """Agreement to 1e-10 relative to the largest entry (and 1e-10 absolute)."""
    a, b = arr(ours), arr(theirs)
    assert a.shape == b.shape, (what, a.shape, b.shape)
    scale = max(1.0, float(np.max(np.abs(b)))) if b.size else 1.0
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-10 * scale, err_msg=what)


@pytest.fixture(scope="module")
def models():
    return dynamics_model(MALLARD), dynamics_model(DRAKE)


def frames(plant):
    return [
        plant.get_frame(type(plant.world_frame().index())(i)) for i in range(plant.num_frames())
    ]


def states(plant, seed=11):
    """NUM_STATES (q, v) pairs for the pydrake ``plant``: random, with non-unit quaternions
    and roll-pitch-yaw angles away from gimbal lock."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(NUM_STATES):
        q = rng.normal(size=plant.num_positions())
        for i in range(plant.num_joints()):
            joint = plant.get_joint(d_tree.JointIndex(i))
            s = joint.position_start()
            if joint.type_name() == "quaternion_floating":
                q[s : s + 4] = rng.normal(size=4)
            elif joint.type_name() in ("ball_rpy", "rpy_floating"):
                q[s + 1] = rng.uniform(-1.2, 1.2)
        out.append((q, rng.normal(size=plant.num_velocities())))
    return out


def set_inputs(ns, plant, items, ctx, seed):
    """Fixes every input of ``plant`` in ``ctx`` to values drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    plant.get_actuation_input_port().FixValue(ctx, rng.normal(size=plant.num_actuated_dofs()))
    plant.get_applied_generalized_force_input_port().FixValue(
        ctx, rng.normal(size=plant.num_velocities())
    )
    applied = []
    for name in ("l2", "a3", "free1", "l2"):
        force = ns.ExternallyAppliedSpatialForce()
        force.body_index = items.bodies[name].index()
        force.p_BoBq_B = rng.normal(size=3)
        force.F_Bq_W = ns.SpatialForce(rng.normal(size=3), rng.normal(size=3))
        applied.append(force)
    plant.get_applied_spatial_force_input_port().FixValue(ctx, applied)
    for mi in (items.robot, items.objects):
        port = plant.get_desired_state_input_port(mi)
        port.FixValue(ctx, rng.normal(size=port.size()))


def contexts(models, inputs=True, seed=11):
    """Pairs of (mallard, pydrake) contexts at the same random states, inputs fixed."""
    (ours, o), (theirs, t) = models
    for i, (q, v) in enumerate(states(theirs, seed)):
        m_ctx, d_ctx = ours.CreateDefaultContext(), theirs.CreateDefaultContext()
        for ns, plant, ctx, items in ((MALLARD, ours, m_ctx, o), (DRAKE, theirs, d_ctx, t)):
            plant.SetPositions(ctx, q)
            plant.SetVelocities(ctx, v)
            if inputs:
                set_inputs(ns, plant, items, ctx, seed + i)
        yield m_ctx, d_ctx


def make_forces(ns, plant, items, ctx, seed):
    """MultibodyForces with random generalized forces and body forces (added with
    RigidBody.AddInForceInWorld)."""
    rng = np.random.default_rng(seed)
    forces = ns.MultibodyForces(plant)
    forces.mutable_generalized_forces()[:] = rng.normal(size=plant.num_velocities())
    for name in ("l1", "a2", "free2", "y"):
        F_W = ns.SpatialForce(rng.normal(size=3), rng.normal(size=3))
        items.bodies[name].AddInForceInWorld(ctx, F_W, forces)
    return forces


def test_model(models):
    (ours, o), (theirs, t) = models
    assert ours.num_positions() == theirs.num_positions()
    assert ours.num_velocities() == theirs.num_velocities()
    for name, joint in t.joints.items():
        assert o.joints[name].velocity_start() == joint.velocity_start(), name


# ---- inverse dynamics, mass matrix, bias, gravity and applied forces -------------------------
def test_inverse_dynamics_mass_matrix_and_bias(models):
    (ours, o), (theirs, t) = models
    rng = np.random.default_rng(2)
    for i, (m_ctx, d_ctx) in enumerate(contexts(models)):
        for method in (
            "CalcMassMatrix",
            "CalcMassMatrixViaInverseDynamics",
            "CalcBiasTerm",
            "CalcGravityGeneralizedForces",
        ):
            close(getattr(ours, method)(m_ctx), getattr(theirs, method)(d_ctx), method)
        vdot = rng.normal(size=theirs.num_velocities())
        m_forces = make_forces(MALLARD, ours, o, m_ctx, i)
        d_forces = make_forces(DRAKE, theirs, t, d_ctx, i)
        close(
            ours.CalcInverseDynamics(m_ctx, vdot, m_forces),
            theirs.CalcInverseDynamics(d_ctx, vdot, d_forces),
            "CalcInverseDynamics",
        )
        close(
            ours.CalcGeneralizedForces(m_ctx, m_forces),
            theirs.CalcGeneralizedForces(d_ctx, d_forces),
            "CalcGeneralizedForces",
        )
        # Force elements (gravity, springs, the spring-damper) and joint damping.
        ours.CalcForceElementsContribution(m_ctx, m_forces)
        theirs.CalcForceElementsContribution(d_ctx, d_forces)
        close(m_forces.generalized_forces(), d_forces.generalized_forces())
        for i in range(theirs.num_bodies()):
            close(
                ours.get_body(MALLARD.BodyIndex(i)).GetForceInWorld(m_ctx, m_forces),
                theirs.get_body(DRAKE.BodyIndex(i)).GetForceInWorld(d_ctx, d_forces),
                f"body {i}",
            )
        close(
            ours.CalcGeneralizedForces(m_ctx, m_forces),
            theirs.CalcGeneralizedForces(d_ctx, d_forces),
            "CalcGeneralizedForces of the force elements",
        )
        close(
            ours.CalcInverseDynamics(m_ctx, vdot, m_forces),
            theirs.CalcInverseDynamics(d_ctx, vdot, d_forces),
            "CalcInverseDynamics with the force elements",
        )


def test_parameters_in_context(models):
    """Masses, inertias, frame offsets, damping, rotor inertias and gear ratios changed in a
    Context change the dynamics alike."""
    (ours, o), (theirs, t) = models
    for m_ctx, d_ctx in contexts(models):
        ours.CalcMassMatrix(m_ctx), ours.EvalTimeDerivatives(m_ctx)  # Fill the caches.
        for ns, plant, ctx, items in ((MALLARD, ours, m_ctx, o), (DRAKE, theirs, d_ctx, t)):
            items.bodies["l2"].SetMass(ctx, 2.5)
            items.bodies["a3"].SetCenterOfMassInBodyFrame(ctx, [0.1, -0.2, 0.3])
            items.bodies["x"].SetSpatialInertiaInBodyFrame(
                ctx, random_inertia(ns, np.random.default_rng(4))
            )
            X = ns.RigidTransform(ns.RotationMatrix(ns.RollPitchYaw([0.1, 0.2, 0.3])), [1, 2, 3])
            plant.GetFrameByName("F_base").SetPoseInParentFrame(ctx, X)
            items.joints["jrev"].SetDamping(ctx, 0.7)
            items.joints["jplanar"].SetDampingVector(ctx, [0.3, 0.2, 0.1])
            items.actuators["jpri"].SetRotorInertia(ctx, 0.4)
            items.actuators["jtip"].SetGearRatio(ctx, 7.0)
        for method in (
            "CalcMassMatrix",
            "CalcMassMatrixViaInverseDynamics",
            "CalcBiasTerm",
            "CalcGravityGeneralizedForces",
            "EvalKineticEnergy",
            "EvalPotentialEnergy",
        ):
            close(getattr(ours, method)(m_ctx), getattr(theirs, method)(d_ctx), method)
        close(
            ours.EvalTimeDerivatives(m_ctx).CopyToVector(),
            theirs.EvalTimeDerivatives(d_ctx).CopyToVector(),
        )
        # Frames on and off the changed offset frame.
        m_kV, d_kV = MALLARD.JacobianWrtVariable.kV, DRAKE.JacobianWrtVariable.kV
        for B, A in (("F_base2", "world"), ("F_base", "F_l1"), ("F_l1", "F_base2")):
            oB, tB = ours.GetFrameByName(B), theirs.GetFrameByName(B)
            oA, tA = ours.GetFrameByName(A), theirs.GetFrameByName(A)
            p = np.array([0.1, 0.2, 0.3])
            close(
                oB.CalcSpatialAccelerationInWorld(m_ctx), tB.CalcSpatialAccelerationInWorld(d_ctx)
            )
            close(
                oB.CalcSpatialAcceleration(m_ctx, oA, oA),
                tB.CalcSpatialAcceleration(d_ctx, tA, tA),
            )
            close(
                ours.CalcJacobianSpatialVelocity(m_ctx, m_kV, oB, p, oA, oA),
                theirs.CalcJacobianSpatialVelocity(d_ctx, d_kV, tB, p, tA, tA),
            )
            close(
                ours.CalcBiasSpatialAcceleration(m_ctx, m_kV, oB, p, oA, oA),
                theirs.CalcBiasSpatialAcceleration(d_ctx, d_kV, tB, p, tA, tA),
            )
            close(
                ours.CalcSpatialInertia(
                    m_ctx, oB, [MALLARD.BodyIndex(2), MALLARD.BodyIndex(3)]
                ).CopyToFullMatrix6(),
                theirs.CalcSpatialInertia(
                    d_ctx, tB, [DRAKE.BodyIndex(2), DRAKE.BodyIndex(3)]
                ).CopyToFullMatrix6(),
            )


# ---- forward dynamics ----------------------------------------------------------------------
def test_time_derivatives(models):
    """With actuation, PD control (clamped to effort limits), applied generalized and spatial
    forces, force elements and joint damping."""
    (ours, o), (theirs, t) = models
    for m_ctx, d_ctx in contexts(models):
        close(
            ours.EvalTimeDerivatives(m_ctx).CopyToVector(),
            theirs.EvalTimeDerivatives(d_ctx).CopyToVector(),
        )
        m_xdot, d_xdot = ours.AllocateTimeDerivatives(), theirs.AllocateTimeDerivatives()
        ours.CalcTimeDerivatives(m_ctx, m_xdot)
        theirs.CalcTimeDerivatives(d_ctx, d_xdot)
        close(m_xdot.CopyToVector(), d_xdot.CopyToVector())
        close(
            ours.get_net_actuation_output_port().Eval(m_ctx),
            theirs.get_net_actuation_output_port().Eval(d_ctx),
        )
        for mo, mt in zip(o.instances, t.instances, strict=True):
            close(
                ours.get_net_actuation_output_port(mo).Eval(m_ctx),
                theirs.get_net_actuation_output_port(mt).Eval(d_ctx),
            )


def test_time_derivatives_without_inputs(models):
    (ours, _), (theirs, _) = models
    for m_ctx, d_ctx in contexts(models, inputs=False):
        close(
            ours.EvalTimeDerivatives(m_ctx).CopyToVector(),
            theirs.EvalTimeDerivatives(d_ctx).CopyToVector(),
        )


def test_per_instance_actuation(models):
    """The per-instance actuation inputs add to the whole-plant input."""
    (ours, o), (theirs, t) = models
    for i, (m_ctx, d_ctx) in enumerate(contexts(models)):
        for plant, ctx, items in ((ours, m_ctx, o), (theirs, d_ctx, t)):
            rng = np.random.default_rng(i)
            for mi in items.instances:
                port = plant.get_actuation_input_port(mi)
                port.FixValue(ctx, rng.normal(size=port.size()))
        close(
            ours.EvalTimeDerivatives(m_ctx).CopyToVector(),
            theirs.EvalTimeDerivatives(d_ctx).CopyToVector(),
        )


def test_locked_joints(models):
    (ours, o), (theirs, t) = models
    for m_ctx, d_ctx in contexts(models):
        for ctx, items in ((m_ctx, o), (d_ctx, t)):
            items.joints["jball"].Lock(ctx)
            items.joints["jtip"].Lock(ctx)
            items.bodies["free2"].Lock(ctx)
        close(ours.GetVelocities(m_ctx), theirs.GetVelocities(d_ctx))
        close(
            ours.EvalTimeDerivatives(m_ctx).CopyToVector(),
            theirs.EvalTimeDerivatives(d_ctx).CopyToVector(),
        )
        xdot = np.random.default_rng(1).normal(size=theirs.num_multibody_states())
        m_proposed, d_proposed = ours.AllocateTimeDerivatives(), theirs.AllocateTimeDerivatives()
        m_proposed.SetFromVector(xdot)
        d_proposed.SetFromVector(xdot)
        close(
            ours.CalcImplicitTimeDerivativesResidual(m_ctx, m_proposed),
            theirs.CalcImplicitTimeDerivativesResidual(d_ctx, d_proposed),
        )
        for a, b in zip(
            ours.get_body_spatial_accelerations_output_port().Eval(m_ctx),
            theirs.get_body_spatial_accelerations_output_port().Eval(d_ctx),
            strict=True,
        ):
            close(a, b)
        for ctx, items in ((m_ctx, o), (d_ctx, t)):
            items.joints["jtip"].Unlock(ctx)
        close(
            ours.EvalTimeDerivatives(m_ctx).CopyToVector(),
            theirs.EvalTimeDerivatives(d_ctx).CopyToVector(),
        )


def test_acceleration_outputs(models):
    (ours, o), (theirs, t) = models
    for m_ctx, d_ctx in contexts(models):
        close(
            ours.get_generalized_acceleration_output_port().Eval(m_ctx),
            theirs.get_generalized_acceleration_output_port().Eval(d_ctx),
        )
        for mo, mt in zip(o.instances, t.instances, strict=True):
            close(
                ours.get_generalized_acceleration_output_port(mo).Eval(m_ctx),
                theirs.get_generalized_acceleration_output_port(mt).Eval(d_ctx),
            )
        ours_A = ours.get_body_spatial_accelerations_output_port().Eval(m_ctx)
        theirs_A = theirs.get_body_spatial_accelerations_output_port().Eval(d_ctx)
        assert len(ours_A) == len(theirs_A) == theirs.num_bodies()
        for i, (a, b) in enumerate(zip(ours_A, theirs_A, strict=True)):
            close(a, b, f"body {i}")
            body_o = ours.get_body(MALLARD.BodyIndex(i))
            body_t = theirs.get_body(DRAKE.BodyIndex(i))
            close(
                ours.EvalBodySpatialAccelerationInWorld(m_ctx, body_o),
                theirs.EvalBodySpatialAccelerationInWorld(d_ctx, body_t),
            )
        vdot = theirs.get_generalized_acceleration_output_port().Eval(d_ctx)
        for a, b in zip(
            ours.CalcSpatialAccelerationsFromVdot(m_ctx, vdot),
            theirs.CalcSpatialAccelerationsFromVdot(d_ctx, vdot),
            strict=True,
        ):
            close(a, b)
        vdot = np.random.default_rng(0).normal(size=theirs.num_velocities())
        for a, b in zip(
            ours.CalcSpatialAccelerationsFromVdot(m_ctx, vdot),
            theirs.CalcSpatialAccelerationsFromVdot(d_ctx, vdot),
            strict=True,
        ):
            close(a, b)
        close(
            ours.CalcCenterOfMassTranslationalAccelerationInWorld(m_ctx),
            theirs.CalcCenterOfMassTranslationalAccelerationInWorld(d_ctx),
        )
        for instances in ([o.robot, o.objects], [o.arm]):
            d_instances = [DRAKE.ModelInstanceIndex(int(mi)) for mi in instances]
            close(
                ours.CalcCenterOfMassTranslationalAccelerationInWorld(m_ctx, instances),
                theirs.CalcCenterOfMassTranslationalAccelerationInWorld(d_ctx, d_instances),
            )


def test_implicit_time_derivatives_residual(models):
    (ours, _), (theirs, _) = models
    rng = np.random.default_rng(8)
    for m_ctx, d_ctx in contexts(models):
        xdot = rng.normal(size=theirs.num_positions() + theirs.num_velocities())
        m_proposed, d_proposed = ours.AllocateTimeDerivatives(), theirs.AllocateTimeDerivatives()
        m_proposed.SetFromVector(xdot)
        d_proposed.SetFromVector(xdot)
        expected = theirs.CalcImplicitTimeDerivativesResidual(d_ctx, d_proposed)
        close(ours.CalcImplicitTimeDerivativesResidual(m_ctx, m_proposed), expected)
        residual = np.zeros_like(expected)
        ours.CalcImplicitTimeDerivativesResidual(m_ctx, m_proposed, residual)
        close(residual, expected)
        # At the true derivatives, the residual vanishes.
        m_proposed.SetFromVector(ours.EvalTimeDerivatives(m_ctx).CopyToVector())
        r = ours.CalcImplicitTimeDerivativesResidual(m_ctx, m_proposed)
        np.testing.assert_allclose(r, 0.0, atol=1e-9)


# ---- Jacobians and bias accelerations ------------------------------------------------------
def frame_triples(models, rng, count):
    """(mallard, pydrake) triples of random frames (B, A, E), World included."""
    (ours, _), (theirs, _) = models
    ours_f, theirs_f = frames(ours), frames(theirs)
    for _ in range(count):
        i = rng.integers(len(ours_f), size=3)
        if rng.uniform() < 0.3:
            i[1] = 0
        yield tuple(ours_f[k] for k in i), tuple(theirs_f[k] for k in i)


def test_jacobians(models):
    (ours, _), (theirs, _) = models
    rng = np.random.default_rng(21)
    for m_ctx, d_ctx in contexts(models, inputs=False):
        for (oB, oA, oE), (tB, tA, tE) in frame_triples(models, rng, 25):
            what = f"B={tB.name()} A={tA.name()} E={tE.name()}"
            p = rng.normal(size=3)
            P = rng.normal(size=(3, 3))
            for m_wrt, d_wrt in (
                (MALLARD.JacobianWrtVariable.kV, DRAKE.JacobianWrtVariable.kV),
                (MALLARD.JacobianWrtVariable.kQDot, DRAKE.JacobianWrtVariable.kQDot),
            ):
                close(
                    ours.CalcJacobianSpatialVelocity(m_ctx, m_wrt, oB, p, oA, oE),
                    theirs.CalcJacobianSpatialVelocity(d_ctx, d_wrt, tB, p, tA, tE),
                    what,
                )
                close(
                    ours.CalcJacobianAngularVelocity(m_ctx, m_wrt, oB, oA, oE),
                    theirs.CalcJacobianAngularVelocity(d_ctx, d_wrt, tB, tA, tE),
                    what,
                )
                close(
                    ours.CalcJacobianTranslationalVelocity(m_ctx, m_wrt, oB, P, oA, oE),
                    theirs.CalcJacobianTranslationalVelocity(d_ctx, d_wrt, tB, P, tA, tE),
                    what,
                )
            close(
                ours.CalcJacobianPositionVector(m_ctx, oB, P, oA, oE),
                theirs.CalcJacobianPositionVector(d_ctx, tB, P, tA, tE),
                what,
            )


def test_center_of_mass_jacobians(models):
    (ours, o), (theirs, t) = models
    rng = np.random.default_rng(22)
    for m_ctx, d_ctx in contexts(models, inputs=False):
        for (_, oA, oE), (_, tA, tE) in frame_triples(models, rng, 4):
            for m_wrt, d_wrt in (
                (MALLARD.JacobianWrtVariable.kV, DRAKE.JacobianWrtVariable.kV),
                (MALLARD.JacobianWrtVariable.kQDot, DRAKE.JacobianWrtVariable.kQDot),
            ):
                close(
                    ours.CalcJacobianCenterOfMassTranslationalVelocity(m_ctx, m_wrt, oA, oE),
                    theirs.CalcJacobianCenterOfMassTranslationalVelocity(d_ctx, d_wrt, tA, tE),
                )
                close(
                    ours.CalcJacobianCenterOfMassTranslationalVelocity(
                        m_ctx, [o.arm, o.objects], m_wrt, oA, oE
                    ),
                    theirs.CalcJacobianCenterOfMassTranslationalVelocity(
                        d_ctx, [t.arm, t.objects], d_wrt, tA, tE
                    ),
                )


def test_bias_accelerations(models):
    (ours, o), (theirs, t) = models
    m_kV, d_kV = MALLARD.JacobianWrtVariable.kV, DRAKE.JacobianWrtVariable.kV
    rng = np.random.default_rng(23)
    for m_ctx, d_ctx in contexts(models, inputs=False):
        for (oB, oA, oE), (tB, tA, tE) in frame_triples(models, rng, 25):
            what = f"B={tB.name()} A={tA.name()} E={tE.name()}"
            p = rng.normal(size=3)
            P = rng.normal(size=(3, 2))
            close(
                ours.CalcBiasSpatialAcceleration(m_ctx, m_kV, oB, p, oA, oE),
                theirs.CalcBiasSpatialAcceleration(d_ctx, d_kV, tB, p, tA, tE),
                what,
            )
            close(
                ours.CalcBiasTranslationalAcceleration(m_ctx, m_kV, oB, P, oA, oE),
                theirs.CalcBiasTranslationalAcceleration(d_ctx, d_kV, tB, P, tA, tE),
                what,
            )
        for (_, oA, oE), (_, tA, tE) in frame_triples(models, rng, 4):
            close(
                ours.CalcBiasCenterOfMassTranslationalAcceleration(m_ctx, m_kV, oA, oE),
                theirs.CalcBiasCenterOfMassTranslationalAcceleration(d_ctx, d_kV, tA, tE),
            )
            close(
                ours.CalcBiasCenterOfMassTranslationalAcceleration(m_ctx, [o.robot], m_kV, oA, oE),
                theirs.CalcBiasCenterOfMassTranslationalAcceleration(
                    d_ctx, [t.robot], d_kV, tA, tE
                ),
            )


# ---- energy, power, spatial inertia --------------------------------------------------------
def test_energy_and_power(models):
    (ours, _), (theirs, _) = models
    for m_ctx, d_ctx in contexts(models):
        for method in (
            "EvalKineticEnergy",
            "CalcKineticEnergy",
            "EvalPotentialEnergy",
            "CalcPotentialEnergy",
            "CalcConservativePower",
            "CalcNonConservativePower",
        ):
            close(getattr(ours, method)(m_ctx), getattr(theirs, method)(d_ctx), method)


def test_spatial_inertia(models):
    (ours, _), (theirs, _) = models
    rng = np.random.default_rng(24)
    ours_f, theirs_f = frames(ours), frames(theirs)
    for m_ctx, d_ctx in contexts(models, inputs=False):
        for _ in range(6):
            f = rng.integers(len(ours_f))
            indices = rng.choice(theirs.num_bodies(), size=rng.integers(1, 6), replace=False)
            M_ours = ours.CalcSpatialInertia(
                m_ctx, ours_f[f], [MALLARD.BodyIndex(int(i)) for i in indices]
            )
            M_theirs = theirs.CalcSpatialInertia(
                d_ctx, theirs_f[f], [DRAKE.BodyIndex(int(i)) for i in indices]
            )
            close(M_ours.CopyToFullMatrix6(), M_theirs.CopyToFullMatrix6())


# ---- frame accelerations -------------------------------------------------------------------
def test_frame_accelerations(models):
    (ours, _), (theirs, _) = models
    rng = np.random.default_rng(25)
    for m_ctx, d_ctx in contexts(models):
        for (oB, oA, oE), (tB, tA, tE) in frame_triples(models, rng, 15):
            what = f"B={tB.name()} A={tA.name()} E={tE.name()}"
            close(
                oB.CalcSpatialAccelerationInWorld(m_ctx),
                tB.CalcSpatialAccelerationInWorld(d_ctx),
                what,
            )
            close(
                oB.CalcSpatialAcceleration(m_ctx, oA, oE),
                tB.CalcSpatialAcceleration(d_ctx, tA, tE),
                what,
            )
            close(
                oB.CalcSpatialAcceleration(m_ctx, measured_in_frame=oA, expressed_in_frame=oE),
                tB.CalcSpatialAcceleration(d_ctx, measured_in_frame=tA, expressed_in_frame=tE),
                what,
            )
            close(
                oB.CalcRelativeSpatialAcceleration(m_ctx, oE, oA, oE),
                tB.CalcRelativeSpatialAcceleration(d_ctx, tE, tA, tE),
                what,
            )
            close(
                oB.CalcRelativeSpatialAccelerationInWorld(m_ctx, oA),
                tB.CalcRelativeSpatialAccelerationInWorld(d_ctx, tA),
                what,
            )


# ---- errors --------------------------------------------------------------------------------
def _error_setup(m):
    """Small plants for the error cases: ``plant`` (finalized, continuous: revolute b with an
    actuator in instance "inst", prismatic c, free d), ``other`` (another finalized plant),
    ``pre`` (not finalized), ``empty`` (World only), massless-body plants and a discrete
    plant, with contexts."""
    P = types.SimpleNamespace(m=m)

    def make(finalize=True, time_step=0.0, mass=1.0):
        plant = m.MultibodyPlant(time_step)
        inst = plant.AddModelInstance("inst")
        M = m.SpatialInertia.SolidBoxWithMass(mass, 0.1, 0.1, 0.1)
        b = plant.AddRigidBody("b", inst, M if mass > 0 else m.SpatialInertia.Zero())
        c = plant.AddRigidBody("c", inst, m.SpatialInertia.SolidBoxWithMass(1, 0.1, 0.1, 0.1))
        d = m.SpatialInertia.SolidBoxWithMass(1, 0.1, 0.2, 0.3)
        plant.AddRigidBody("d", m.default_model_instance(), d)
        j = plant.AddJoint(m.RevoluteJoint("j", plant.world_frame(), b.body_frame(), [0, 0, 1]))
        plant.AddJoint(m.PrismaticJoint("j2", b.body_frame(), c.body_frame(), [0, 1, 0]))
        actuator = plant.AddJointActuator("a", j)
        actuator.set_controller_gains(m.PdControllerGains(p=1.0, d=1.0))
        if finalize:
            plant.Finalize()
        return plant, b, inst

    P.plant, P.b, P.inst = make()
    P.ctx = P.plant.CreateDefaultContext()
    P.other, P.b2, _ = make()
    P.ctx2 = P.other.CreateDefaultContext()
    P.pre, P.bp, _ = make(finalize=False)
    P.empty = m.MultibodyPlant(0.0)
    P.empty.Finalize()
    P.empty_ctx = P.empty.CreateDefaultContext()
    P.W, P.Wp = P.plant.world_frame(), P.pre.world_frame()
    P.kV, P.kQ = m.JacobianWrtVariable.kV, m.JacobianWrtVariable.kQDot
    for name, joint_type in (("rotating", "RevoluteJoint"), ("sliding", "PrismaticJoint")):
        plant = m.MultibodyPlant(0.0)
        body = plant.AddRigidBody("massless", m.SpatialInertia.Zero())
        plant.AddJoint(
            getattr(m, joint_type)("j", plant.world_frame(), body.body_frame(), [0, 0, 1])
        )
        plant.Finalize()
        setattr(P, name, plant)
    P.floating = m.MultibodyPlant(0.0)
    P.floating.AddRigidBody("massless", m.SpatialInertia.Zero())
    P.floating.Finalize()
    return P


def _fresh(P):
    ctx = P.plant.CreateDefaultContext()
    return ctx


def _nan_input(P, which):
    ctx = _fresh(P)
    plant, m = P.plant, P.m
    if which == "actuation":
        plant.get_actuation_input_port().FixValue(ctx, [np.nan])
    elif which == "instance actuation":
        plant.get_actuation_input_port(P.inst).FixValue(ctx, [np.nan])
    elif which == "desired state":
        plant.get_desired_state_input_port(P.inst).FixValue(ctx, [np.nan, 0.0])
    elif which == "generalized":
        plant.get_applied_generalized_force_input_port().FixValue(ctx, np.r_[np.nan, np.zeros(7)])
    else:
        force = m.ExternallyAppliedSpatialForce()
        force.body_index = P.b.index()
        if which == "spatial F":
            force.F_Bq_W = m.SpatialForce([np.nan, 0, 0], [0, 0, 0])
        elif which == "spatial p":
            force.p_BoBq_B = [0, np.nan, 0]
        else:
            force.body_index = m.BodyIndex(9)
        plant.get_applied_spatial_force_input_port().FixValue(ctx, [force])
    return plant.EvalTimeDerivatives(ctx)


ERROR_CASES = {
    # pydrake: SystemExit (a failed DRAKE_DEMAND).
    "ID vdot size": lambda P: P.plant.CalcInverseDynamics(
        P.ctx, np.zeros(3), P.m.MultibodyForces(P.plant)
    ),
    "ID forces nv": lambda P: P.plant.CalcInverseDynamics(
        P.ctx, np.zeros(8), P.m.MultibodyForces(4, 3)
    ),
    "ID forces nb": lambda P: P.plant.CalcInverseDynamics(
        P.ctx, np.zeros(8), P.m.MultibodyForces(5, 8)
    ),
    "generalized forces size": lambda P: P.plant.CalcGeneralizedForces(
        P.ctx, P.m.MultibodyForces(4, 3)
    ),
    "force elements size": lambda P: P.plant.CalcForceElementsContribution(
        P.ctx, P.m.MultibodyForces(5, 8)
    ),
    "A from vdot size": lambda P: P.plant.CalcSpatialAccelerationsFromVdot(P.ctx, np.zeros(3)),
    "body of another plant": lambda P: P.plant.EvalBodySpatialAccelerationInWorld(P.ctx, P.b2),
    "bias kQDot": lambda P: P.plant.CalcBiasSpatialAcceleration(
        P.ctx, P.kQ, P.b.body_frame(), np.zeros(3), P.W, P.W
    ),
    "bias translational kQDot": lambda P: P.plant.CalcBiasTranslationalAcceleration(
        P.ctx, P.kQ, P.b.body_frame(), np.zeros((3, 1)), P.W, P.W
    ),
    "bias com kQDot": lambda P: P.plant.CalcBiasCenterOfMassTranslationalAcceleration(
        P.ctx, P.kQ, P.W, P.W
    ),
    "acceleration port instance": lambda P: P.plant.get_generalized_acceleration_output_port(
        P.m.ModelInstanceIndex(9)
    ),
    # pydrake: TypeError (argument conversion).
    "J point shape": lambda P: P.plant.CalcJacobianSpatialVelocity(
        P.ctx, P.kV, P.b.body_frame(), np.zeros(2), P.W, P.W
    ),
    "J points shape": lambda P: P.plant.CalcJacobianTranslationalVelocity(
        P.ctx, P.kV, P.b.body_frame(), np.zeros((2, 3)), P.W, P.W
    ),
    "J position shape": lambda P: P.plant.CalcJacobianPositionVector(
        P.ctx, P.b.body_frame(), np.zeros((4, 1)), P.W, P.W
    ),
    "bias point shape": lambda P: P.plant.CalcBiasSpatialAcceleration(
        P.ctx, P.kV, P.b.body_frame(), np.zeros(4), P.W, P.W
    ),
    "bias points shape": lambda P: P.plant.CalcBiasTranslationalAcceleration(
        P.ctx, P.kV, P.b.body_frame(), np.zeros((2, 1)), P.W, P.W
    ),
    "wrt not an enum": lambda P: P.plant.CalcJacobianAngularVelocity(
        P.ctx, 1, P.b.body_frame(), P.W, P.W
    ),
    "ID forces None": lambda P: P.plant.CalcInverseDynamics(P.ctx, np.zeros(8), None),
    "frame None": lambda P: P.b.body_frame().CalcSpatialAcceleration(P.ctx, None, P.W),
    # pydrake: RuntimeError.
    "com empty list": lambda P: P.plant.CalcCenterOfMassTranslationalAccelerationInWorld(P.ctx, []),
    "com World only": lambda P: P.plant.CalcJacobianCenterOfMassTranslationalVelocity(
        P.ctx, [P.m.world_model_instance()], P.kV, P.W, P.W
    ),
    "bias com empty": lambda P: P.plant.CalcBiasCenterOfMassTranslationalAcceleration(
        P.ctx, [], P.kV, P.W, P.W
    ),
    "com plant of World": lambda P: P.empty.CalcCenterOfMassTranslationalAccelerationInWorld(
        P.empty_ctx
    ),
    "com Jacobian plant of World": lambda P: P.empty.CalcJacobianCenterOfMassTranslationalVelocity(
        P.empty_ctx, P.kV, P.empty.world_frame(), P.empty.world_frame()
    ),
    "bias com plant of World": lambda P: P.empty.CalcBiasCenterOfMassTranslationalAcceleration(
        P.empty_ctx, P.kV, P.empty.world_frame(), P.empty.world_frame()
    ),
    "com massless": lambda P: P.sliding.CalcCenterOfMassTranslationalAccelerationInWorld(
        P.sliding.CreateDefaultContext()
    ),
    "spatial inertia invalid body": lambda P: P.plant.CalcSpatialInertia(
        P.ctx, P.W, [P.m.BodyIndex(9)]
    ),
    "spatial inertia repeated body": lambda P: P.plant.CalcSpatialInertia(
        P.ctx, P.W, [P.m.BodyIndex(1), P.m.BodyIndex(2), P.m.BodyIndex(1)]
    ),
    "spatial inertia frame of another plant": lambda P: P.plant.CalcSpatialInertia(
        P.ctx, P.b2.body_frame(), [P.m.BodyIndex(1)]
    ),
    "residual size": lambda P: P.plant.CalcImplicitTimeDerivativesResidual(
        P.ctx, P.plant.AllocateTimeDerivatives(), np.zeros(3)
    ),
    "massless rotating": lambda P: P.rotating.EvalTimeDerivatives(
        P.rotating.CreateDefaultContext()
    ),
    "massless sliding": lambda P: P.sliding.get_generalized_acceleration_output_port().Eval(
        P.sliding.CreateDefaultContext()
    ),
    "massless floating": lambda P: P.floating.EvalTimeDerivatives(
        P.floating.CreateDefaultContext()
    ),
    "NaN actuation": lambda P: _nan_input(P, "actuation"),
    "NaN instance actuation": lambda P: _nan_input(P, "instance actuation"),
    "NaN desired state": lambda P: _nan_input(P, "desired state"),
    "NaN generalized force": lambda P: _nan_input(P, "generalized"),
    "NaN spatial force": lambda P: _nan_input(P, "spatial F"),
    "NaN spatial force point": lambda P: _nan_input(P, "spatial p"),
    "spatial force body": lambda P: _nan_input(P, "body"),
    "frame acceleration context": lambda P: P.b.body_frame().CalcSpatialAccelerationInWorld(P.ctx2),
    "frame acceleration other plant": lambda P: P.b.body_frame().CalcSpatialAcceleration(
        P.ctx, P.b2.body_frame(), P.W
    ),
    "relative acceleration other plant": lambda P: (
        P.b.body_frame().CalcRelativeSpatialAccelerationInWorld(P.ctx, P.b2.body_frame())
    ),
    "frame acceleration pre-finalize": lambda P: P.bp.body_frame().CalcRelativeSpatialAcceleration(
        P.ctx, P.Wp, P.Wp, P.Wp
    ),
    "acceleration port pre-finalize": lambda P: P.pre.get_generalized_acceleration_output_port(),
    "body accelerations port pre-finalize": lambda P: (
        P.pre.get_body_spatial_accelerations_output_port()
    ),
}

#: Methods called with the Context of another plant, on a finalized plant and on one that is
#: not (pydrake checks one or the other first, method by method).
CONTEXT_CASES = {
    "CalcMassMatrix": lambda P: (),
    "CalcMassMatrixViaInverseDynamics": lambda P: (),
    "CalcBiasTerm": lambda P: (),
    "CalcGravityGeneralizedForces": lambda P: (),
    "EvalKineticEnergy": lambda P: (),
    "EvalPotentialEnergy": lambda P: (),
    "CalcConservativePower": lambda P: (),
    "CalcNonConservativePower": lambda P: (),
    "CalcCenterOfMassTranslationalAccelerationInWorld": lambda P: (),
    "EvalTimeDerivatives": lambda P: (),
    "CalcInverseDynamics": lambda P: (np.zeros(8), P.m.MultibodyForces(4, 8)),
    "CalcGeneralizedForces": lambda P: (P.m.MultibodyForces(4, 8),),
    "CalcForceElementsContribution": lambda P: (P.m.MultibodyForces(4, 8),),
    "CalcSpatialAccelerationsFromVdot": lambda P: (np.zeros(8),),
    "EvalBodySpatialAccelerationInWorld": lambda P: (P.target_b,),
    "CalcJacobianSpatialVelocity": lambda P: (
        P.kV,
        P.target_B,
        np.zeros(3),
        P.target_W,
        P.target_W,
    ),
    "CalcJacobianAngularVelocity": lambda P: (P.kQ, P.target_B, P.target_W, P.target_W),
    "CalcJacobianTranslationalVelocity": lambda P: (
        P.kV,
        P.target_B,
        np.zeros((3, 1)),
        P.target_W,
        P.target_W,
    ),
    "CalcJacobianPositionVector": lambda P: (P.target_B, np.zeros((3, 1)), P.target_W, P.target_W),
    "CalcJacobianCenterOfMassTranslationalVelocity": lambda P: (P.kQ, P.target_W, P.target_W),
    "CalcBiasSpatialAcceleration": lambda P: (
        P.kV,
        P.target_B,
        np.zeros(3),
        P.target_W,
        P.target_W,
    ),
    "CalcBiasTranslationalAcceleration": lambda P: (
        P.kV,
        P.target_B,
        np.zeros((3, 1)),
        P.target_W,
        P.target_W,
    ),
    "CalcBiasCenterOfMassTranslationalAcceleration": lambda P: (P.kV, P.target_W, P.target_W),
    "CalcSpatialInertia": lambda P: (P.target_W, [P.m.BodyIndex(1)]),
    "CalcImplicitTimeDerivativesResidual": lambda P: (P.plant.AllocateTimeDerivatives(),),
}


def _outcome(call):
    """(exception type name, message) of ``call()``, or None if it returns."""
    try:
        call()
    except SystemExit as e:
        return "SystemExit", str(e)
    except Exception as e:
        return type(e).__name__, str(e)
    return None


@pytest.fixture(scope="module")
def error_setups():
    return _error_setup(MALLARD), _error_setup(DRAKE)


def _check_same_error(ours, theirs, what):
    assert theirs is not None, f"{what}: pydrake raises nothing"
    assert ours is not None, f"{what}: mallard raises nothing (pydrake: {theirs})"
    if theirs[0] == "SystemExit":
        assert ours[0] == "RuntimeError", (what, ours, theirs)
    elif theirs[0] == "TypeError":
        assert ours[0] == "TypeError", (what, ours, theirs)
    else:
        assert ours == theirs, what


@pytest.mark.parametrize("what", sorted(ERROR_CASES))
def test_errors(error_setups, what):
    ours, theirs = error_setups
    _check_same_error(
        _outcome(lambda: ERROR_CASES[what](ours)), _outcome(lambda: ERROR_CASES[what](theirs)), what
    )


@pytest.mark.parametrize("finalized", [True, False])
@pytest.mark.parametrize("method", sorted(CONTEXT_CASES))
def test_context_of_another_plant(error_setups, method, finalized):
    outcomes = []
    for P in error_setups:
        target = P.plant if finalized else P.pre
        P.target_b = P.b if finalized else P.bp
        P.target_B, P.target_W = P.target_b.body_frame(), target.world_frame()
        call = getattr(target, method)
        args = (P.ctx2, *CONTEXT_CASES[method](P))
        outcomes.append(_outcome(lambda call=call, args=args: call(*args)))
    _check_same_error(*outcomes, method)


# ---- a discrete plant ----------------------------------------------------------------------
def test_discrete_plant():
    """A discrete plant has no time derivatives (and an empty residual), reports zero
    accelerations and actuation on its sampled ports, and computes the rest as a continuous
    one does."""
    models = dynamics_model(MALLARD, time_step=0.01), dynamics_model(DRAKE, time_step=0.01)
    (ours, o), (theirs, t) = models
    for m_ctx, d_ctx in contexts(models):
        for method in ("CalcMassMatrix", "CalcBiasTerm", "EvalKineticEnergy"):
            close(getattr(ours, method)(m_ctx), getattr(theirs, method)(d_ctx), method)
        close(
            ours.EvalTimeDerivatives(m_ctx).CopyToVector(),
            theirs.EvalTimeDerivatives(d_ctx).CopyToVector(),
        )
        close(
            ours.CalcImplicitTimeDerivativesResidual(m_ctx, ours.AllocateTimeDerivatives()),
            theirs.CalcImplicitTimeDerivativesResidual(d_ctx, theirs.AllocateTimeDerivatives()),
        )
        assert ours.implicit_time_derivatives_residual_size() == 0
        for port in (
            "get_generalized_acceleration_output_port",
            "get_net_actuation_output_port",
        ):
            close(getattr(ours, port)().Eval(m_ctx), getattr(theirs, port)().Eval(d_ctx), port)
        for a, b in zip(
            ours.get_body_spatial_accelerations_output_port().Eval(m_ctx),
            theirs.get_body_spatial_accelerations_output_port().Eval(d_ctx),
            strict=True,
        ):
            close(a, b)
        for name in ("l2", "a3", "free1"):
            close(
                ours.EvalBodySpatialAccelerationInWorld(m_ctx, o.bodies[name]),
                theirs.EvalBodySpatialAccelerationInWorld(d_ctx, t.bodies[name]),
                name,
            )


def test_externally_applied_spatial_force():
    values = []
    for ns in (MALLARD, DRAKE):
        force = ns.ExternallyAppliedSpatialForce()
        defaults = (int(force.body_index), arr(force.p_BoBq_B).copy(), arr(force.F_Bq_W))
        force.p_BoBq_B = [1, 2, 3]
        assert not force.p_BoBq_B.flags.writeable
        for attribute, value in (
            ("body_index", 1),
            ("p_BoBq_B", [1.0, 2.0]),
            ("F_Bq_W", np.zeros(6)),
        ):
            with pytest.raises(TypeError):
                setattr(force, attribute, value)
        values.append((defaults, arr(force.p_BoBq_B)))
    (ours, ours_p), (theirs, theirs_p) = values
    assert ours[0] == theirs[0]
    close(ours[1], theirs[1])
    close(ours[2], theirs[2])
    close(ours_p, theirs_p)
