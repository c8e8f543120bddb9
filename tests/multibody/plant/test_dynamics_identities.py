"""MultibodyPlant dynamics identities on a rich random model (every joint type, reversed
joints, offset frames, free bodies, locked joints, actuators with rotor inertia and gear
ratio, springs) at random states: facts any correct implementation satisfies."""

import numpy as np
import pytest

from mallard._compiled import kernels
from mallard.multibody._joint_types import REVOLUTE
from mallard.multibody._layout import (
    BIAS,
    INERTIAS,
    JTYPE,
    PARAMETERS,
    POSITIONS,
    VELOCITIES,
    WORKSPACE,
    X_MB_IDENTITY,
)

from .plant_models import bodies, dynamics_model, library, random_inertia

M = library("mallard")
kV, kQDot = M.JacobianWrtVariable.kV, M.JacobianWrtVariable.kQDot


@pytest.fixture(scope="module", params=[5, 17])
def model(request):
    return dynamics_model(M, seed=request.param)


@pytest.fixture(scope="module")
def undamped():
    return dynamics_model(M, damped=False)


def random_states(plant, seed, count=3):
    """(q, v) pairs: random, non-unit quaternions, roll-pitch-yaw pitch away from gimbal
    lock."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        q = rng.normal(size=plant.num_positions())
        for i in range(plant.num_joints()):
            joint = plant.get_joint(M.JointIndex(i))
            s = joint.position_start()
            if joint.type_name() in ("ball_rpy", "rpy_floating"):
                q[s + 1] = rng.uniform(-1.2, 1.2)
        out.append((q, rng.normal(size=plant.num_velocities())))
    return out


def contexts(plant, seed=1, count=3):
    for q, v in random_states(plant, seed, count):
        context = plant.CreateDefaultContext()
        plant.SetPositions(context, q)
        plant.SetVelocities(context, v)
        yield context


def frames(plant):
    return [plant.get_frame(M.FrameIndex(i)) for i in range(plant.num_frames())]


def frame_pairs(plant, rng, count):
    """(B, A) pairs of random frames, A World about a third of the time."""
    all_frames = frames(plant)
    for _ in range(count):
        i, j = rng.integers(len(all_frames), size=2)
        yield all_frames[i], all_frames[0 if rng.uniform() < 0.3 else j]


def xdot(plant, context):
    return plant.EvalTimeDerivatives(context).CopyToVector()


# ---- mass matrix -------------------------------------------------------------------------
def test_mass_matrix_is_symmetric_positive_definite(model):
    plant, _ = model
    for context in contexts(plant):
        M_ = plant.CalcMassMatrix(context)
        np.testing.assert_allclose(M_, M_.T, rtol=0, atol=1e-13)
        assert np.linalg.eigvalsh(M_).min() > 0
        np.testing.assert_allclose(
            plant.CalcMassMatrixViaInverseDynamics(context), M_, rtol=0, atol=1e-12
        )
        # ½·vᵀ·M·v is the kinetic energy (rotor inertias included).
        v = plant.GetVelocities(context)
        np.testing.assert_allclose(plant.EvalKineticEnergy(context), 0.5 * v @ M_ @ v, rtol=1e-13)


def test_mass_matrix_is_precise_far_from_the_origin():
    """Moving free trees far away (1e5 m) leaves M unchanged: a floating joint's velocities
    are w_WB and v_WBo, so M does not depend on where a tree is. (A mass matrix computed
    about World's origin would lose ten digits here.)"""
    plant = M.MultibodyPlant(0.0)
    a, b, c = bodies(M, plant, ["a", "b", "c"])
    plant.AddJoint(M.RevoluteJoint("ab", a.body_frame(), b.body_frame(), [0.0, 0.6, 0.8]))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetVelocities(context, np.zeros(plant.num_velocities()))
    plant.SetPositions(context, plant.GetPositions(context) + 0.4)  # (non-unit quaternions)
    near = plant.CalcMassMatrix(context)
    for body, offset in ((a, [1e5, -2e5, 5e4]), (c, [-3e5, 1e5, 2e5])):
        X_WB = plant.GetFreeBodyPose(context, body)
        plant.SetFreeBodyPose(
            context, body, M.RigidTransform(X_WB.rotation(), X_WB.translation() + offset)
        )
    np.testing.assert_allclose(plant.CalcMassMatrix(context), near, rtol=0, atol=1e-13)


def test_rotor_inertia_adds_to_the_diagonal(model):
    plant, items = model
    context = next(contexts(plant))
    M0 = plant.CalcMassMatrix(context)
    actuator = items.actuators["jtip"]
    actuator.SetRotorInertia(context, actuator.rotor_inertia(context) + 0.5)
    actuator.SetGearRatio(context, 3.0)
    M1 = plant.CalcMassMatrix(context)
    i = items.joints["jtip"].velocity_start()
    expected = M0.copy()
    expected[i, i] += 9.0 * (0.05 + 0.5) - 16.0 * 0.05
    np.testing.assert_allclose(M1, expected, rtol=0, atol=1e-13)


# ---- inverse and forward dynamics ----------------------------------------------------------
def _apply_inputs(plant, items, context, rng):
    """Random actuation u, applied generalized forces tau and spatial forces; returns the
    generalized forces they amount to: B·ū + tau + Σ J_V_WBqᵀ·F_Bq_W, with ū = u clamped to
    the effort limits."""
    u = 3.0 * rng.normal(size=plant.num_actuated_dofs())
    tau = rng.normal(size=plant.num_velocities())
    plant.get_actuation_input_port().FixValue(context, u)
    plant.get_applied_generalized_force_input_port().FixValue(context, tau)
    u_applied = np.clip(u, plant.GetEffortLowerLimits(), plant.GetEffortUpperLimits())
    total = plant.MakeActuationMatrix() @ u_applied + tau
    applied = []
    for name in ("l2", "a3", "free1", "y"):
        body = items.bodies[name]
        force = M.ExternallyAppliedSpatialForce()
        force.body_index = body.index()
        force.p_BoBq_B = rng.normal(size=3)
        F = rng.normal(size=6)
        force.F_Bq_W = M.SpatialForce(F[:3], F[3:])
        applied.append(force)
        W = plant.world_frame()
        J = plant.CalcJacobianSpatialVelocity(context, kV, body.body_frame(), force.p_BoBq_B, W, W)
        total += J.T @ F
    plant.get_applied_spatial_force_input_port().FixValue(context, applied)
    return total


def test_inverse_dynamics_of_forward_dynamics(model):
    """ID(q, v, FD(q, v, τ)), with the force elements' forces, is τ: what the inputs
    apply."""
    plant, items = model
    rng = np.random.default_rng(2)
    for context in contexts(plant):
        tau = _apply_inputs(plant, items, context, rng)
        vdot = xdot(plant, context)[plant.num_positions() :]
        forces = M.MultibodyForces(plant)
        plant.CalcForceElementsContribution(context, forces)
        np.testing.assert_allclose(
            plant.CalcInverseDynamics(context, vdot, forces), tau, rtol=0, atol=1e-10
        )
        # M·v̇ + C·v = tau_g + tau_elements + tau (with the generalized forces of it all).
        rhs = plant.CalcGeneralizedForces(context, forces) + tau - plant.CalcBiasTerm(context)
        np.testing.assert_allclose(plant.CalcMassMatrix(context) @ vdot, rhs, rtol=0, atol=1e-10)


def test_inverse_dynamics_of_any_vdot_array_is_the_same(model):
    """CalcInverseDynamics and CalcForceElementsContribution give the same result, bit for
    bit, whether v̇ is a contiguous float64 array (their bound drivers, without numba's
    dispatch), a strided or read-only one, or a list (numba's dispatch), before and after the
    state changes."""
    plant, _ = model
    nv = plant.num_velocities()
    rng = np.random.default_rng(4)
    for context in contexts(plant):
        forces = M.MultibodyForces(plant)
        plant.CalcForceElementsContribution(context, forces)
        vdot = rng.normal(size=nv)
        expected = plant.CalcInverseDynamics(context, vdot, forces)
        strided = np.repeat(vdot, 2)[::2]
        read_only = vdot.copy()
        read_only.flags.writeable = False
        for other in (strided, read_only, list(vdot)):
            np.testing.assert_array_equal(
                plant.CalcInverseDynamics(context, other, forces), expected
            )
        again = M.MultibodyForces(plant)
        plant.CalcForceElementsContribution(context, again)
        np.testing.assert_array_equal(again.generalized_forces(), forces.generalized_forces())


def test_locked_joints(model):
    """Locked joints do not accelerate; the others move as if the locked joints were welds,
    so the inverse dynamics give back the applied forces on the unlocked coordinates."""
    plant, items = model
    rng = np.random.default_rng(3)
    for context in contexts(plant):
        tau = _apply_inputs(plant, items, context, rng)
        items.joints["jball"].Lock(context)
        items.joints["jpri_rev"].Lock(context)
        items.bodies["free2"].Lock(context)
        locked = np.zeros(plant.num_velocities(), dtype=bool)
        for joint in (items.joints["jball"], items.joints["jpri_rev"]):
            s = joint.velocity_start()
            locked[s : s + joint.num_velocities()] = True
        s = items.bodies["free2"].floating_velocities_start_in_v()
        locked[s : s + 6] = True
        vdot = xdot(plant, context)[plant.num_positions() :]
        np.testing.assert_array_equal(vdot[locked], 0.0)
        forces = M.MultibodyForces(plant)
        plant.CalcForceElementsContribution(context, forces)
        residual = plant.CalcInverseDynamics(context, vdot, forces) - tau
        np.testing.assert_allclose(residual[~locked], 0.0, atol=1e-10)
        assert np.abs(residual[locked]).max() > 1e-3  # The locks' constraint forces.


def test_accelerations_agree(model):
    """Forward dynamics' body accelerations, CalcSpatialAccelerationsFromVdot, the output
    ports, and frame accelerations = J·v̇ + bias."""
    plant, items = model
    rng = np.random.default_rng(4)
    for context in contexts(plant):
        _apply_inputs(plant, items, context, rng)
        vdot = xdot(plant, context)[plant.num_positions() :]
        np.testing.assert_array_equal(
            plant.get_generalized_acceleration_output_port().Eval(context), vdot
        )
        from_vdot = plant.CalcSpatialAccelerationsFromVdot(context, vdot)
        port = plant.get_body_spatial_accelerations_output_port().Eval(context)
        for i in range(plant.num_bodies()):
            body = plant.get_body(M.BodyIndex(i))
            A = plant.EvalBodySpatialAccelerationInWorld(context, body).get_coeffs()
            np.testing.assert_allclose(from_vdot[i].get_coeffs(), A, atol=1e-11)
            np.testing.assert_array_equal(port[i].get_coeffs(), A)
        for B, A in frame_pairs(plant, rng, 10):
            J = plant.CalcJacobianSpatialVelocity(context, kV, B, np.zeros(3), A, A)
            bias = plant.CalcBiasSpatialAcceleration(context, kV, B, np.zeros(3), A, A)
            np.testing.assert_allclose(
                B.CalcSpatialAcceleration(context, A, A).get_coeffs(),
                J @ vdot + bias.get_coeffs(),
                atol=1e-10,
            )
        W = plant.world_frame()
        J = plant.CalcJacobianCenterOfMassTranslationalVelocity(context, kV, W, W)
        bias = plant.CalcBiasCenterOfMassTranslationalAcceleration(context, kV, W, W)
        np.testing.assert_allclose(
            plant.CalcCenterOfMassTranslationalAccelerationInWorld(context),
            J @ vdot + bias,
            atol=1e-10,
        )


# ---- Jacobians and bias accelerations ------------------------------------------------------
def test_jacobians_times_velocities(model):
    """J_v·v and J_q̇·q̇ are the spatial velocity of the point."""
    plant, _ = model
    rng = np.random.default_rng(5)
    for context in contexts(plant):
        v = plant.GetVelocities(context)
        qdot = plant.MapVelocityToQDot(context, v)
        for B, A in frame_pairs(plant, rng, 10):
            E = frames(plant)[rng.integers(plant.num_frames())]
            p = rng.normal(size=3)
            expected = np.r_[
                B.CalcAngularVelocity(context, A, E),
                plant.CalcPointsVelocities(context, B, p.reshape(3, 1), A, E)[:, 0],
            ]
            J_v = plant.CalcJacobianSpatialVelocity(context, kV, B, p, A, E)
            J_q = plant.CalcJacobianSpatialVelocity(context, kQDot, B, p, A, E)
            np.testing.assert_allclose(J_v @ v, expected, atol=1e-11)
            np.testing.assert_allclose(J_q @ qdot, expected, atol=1e-11)
            P = rng.normal(size=(3, 2))
            J = plant.CalcJacobianTranslationalVelocity(context, kV, B, P, A, E)
            np.testing.assert_allclose(
                (J @ v).reshape(2, 3).T,
                plant.CalcPointsVelocities(context, B, P, A, E),
                atol=1e-11,
            )


def _positions_and_rotation(plant, context, q, B, P, A):
    plant.SetPositions(context, q)
    p = plant.CalcPointsPositions(context, B, P, A)
    return p, plant.CalcRelativeRotationMatrix(context, A, B).matrix()


def test_jacobians_are_derivatives_of_kinematics(model):
    """Central differences of positions and orientations along q̇ = N(q)·v (kV) and along
    each coordinate (kQDot, CalcJacobianPositionVector)."""
    plant, _ = model
    rng = np.random.default_rng(6)
    h = 1e-6
    for context in contexts(plant, count=2):
        q, v = plant.GetPositions(context).copy(), plant.GetVelocities(context).copy()
        qdot = plant.MapVelocityToQDot(context, v)
        work = plant.CreateDefaultContext()
        for B, A in frame_pairs(plant, rng, 4):
            P = rng.normal(size=(3, 2))
            p_plus, R_plus = _positions_and_rotation(plant, work, q + h * qdot, B, P, A)
            p_minus, R_minus = _positions_and_rotation(plant, work, q - h * qdot, B, P, A)
            _, R_AB = _positions_and_rotation(plant, work, q, B, P, A)
            S = (R_plus - R_minus) / (2 * h) @ R_AB.T  # [w_AB_A]×
            w = np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]]) / 2
            J_w = plant.CalcJacobianAngularVelocity(context, kV, B, A, A)
            np.testing.assert_allclose(J_w @ v, w, atol=1e-7)
            J_v = plant.CalcJacobianTranslationalVelocity(context, kV, B, P, A, A)
            np.testing.assert_allclose(
                (J_v @ v).reshape(2, 3).T, (p_plus - p_minus) / (2 * h), atol=1e-7
            )
            # With respect to each q: the position Jacobian and kQDot.
            J_p = plant.CalcJacobianPositionVector(context, B, P, A, A)
            J_q = plant.CalcJacobianTranslationalVelocity(context, kQDot, B, P, A, A)
            np.testing.assert_allclose(J_p, J_q, atol=1e-12)
            for j in rng.choice(plant.num_positions(), size=8, replace=False):
                e = np.zeros_like(q)
                e[j] = h
                p_plus, _ = _positions_and_rotation(plant, work, q + e, B, P, A)
                p_minus, _ = _positions_and_rotation(plant, work, q - e, B, P, A)
                np.testing.assert_allclose(
                    J_p[:, j], ((p_plus - p_minus) / (2 * h)).T.reshape(-1), atol=1e-7
                )


def test_bias_accelerations_are_derivatives_of_jacobians(model):
    """AsBias_ABp_A = J̇·v: the central difference of J(q)·v along q̇ = N(q)·v."""
    plant, _ = model
    rng = np.random.default_rng(7)
    h = 1e-6
    for context in contexts(plant, count=2):
        q, v = plant.GetPositions(context).copy(), plant.GetVelocities(context).copy()
        qdot = plant.MapVelocityToQDot(context, v)
        work = plant.CreateDefaultContext()
        plant.SetVelocities(work, v)
        for B, A in frame_pairs(plant, rng, 6):
            p = rng.normal(size=3)
            JV = []
            for sign in (1, -1):
                plant.SetPositions(work, q + sign * h * qdot)
                JV.append(plant.CalcJacobianSpatialVelocity(work, kV, B, p, A, A) @ v)
            bias = plant.CalcBiasSpatialAcceleration(context, kV, B, p, A, A).get_coeffs()
            np.testing.assert_allclose(bias, (JV[0] - JV[1]) / (2 * h), atol=1e-6)
            P = np.c_[p, rng.normal(size=3)]
            np.testing.assert_allclose(
                plant.CalcBiasTranslationalAcceleration(context, kV, B, P, A, A)[:, 0],
                bias[3:],
                atol=1e-12,
            )


# ---- energy ------------------------------------------------------------------------------
def _energy_rates(plant, context, h=1e-5):
    """(dKE/dt, dPE/dt) by central differences along the motion x ± h·ẋ."""
    x = plant.GetPositionsAndVelocities(context).copy()
    x_dot = xdot(plant, context)
    work = plant.CreateDefaultContext()
    rates = []
    for energy in (plant.EvalKineticEnergy, plant.EvalPotentialEnergy):
        values = []
        for sign in (1, -1):
            plant.SetPositionsAndVelocities(work, x + sign * h * x_dot)
            values.append(energy(work))
        rates.append((values[0] - values[1]) / (2 * h))
    return rates


def test_energy_is_conserved_without_damping(undamped):
    """No damping and no inputs: d(KE + PE)/dt = 0, dPE/dt = −P_conservative, and no
    non-conservative power."""
    plant, _ = undamped
    for context in contexts(plant):
        dKE, dPE = _energy_rates(plant, context)
        scale = max(1.0, abs(dKE))
        assert abs(dKE + dPE) < 1e-6 * scale
        np.testing.assert_allclose(dPE, -plant.CalcConservativePower(context), atol=1e-6 * scale)
        assert plant.CalcNonConservativePower(context) == 0.0


def test_energy_dissipation_with_damping(model):
    """d(KE + PE)/dt = −vᵀ·D·v + P_nonconservative (the spring-damper's)."""
    plant, _ = model
    for context in contexts(plant):
        v = plant.GetVelocities(context)
        damping = np.zeros_like(v)
        for i in range(plant.num_joints()):
            joint = plant.get_joint(M.JointIndex(i))
            s = joint.velocity_start()
            damping[s : s + joint.num_velocities()] = joint.GetDampingVector(context)
        dKE, dPE = _energy_rates(plant, context)
        expected = -v @ (damping * v) + plant.CalcNonConservativePower(context)
        assert plant.CalcNonConservativePower(context) != 0.0
        np.testing.assert_allclose(dKE + dPE, expected, atol=1e-6 * max(1.0, abs(dKE)))


# ---- system spatial inertia ----------------------------------------------------------------
def test_spatial_inertia(model):
    plant, items = model
    for context in contexts(plant, count=2):
        body = items.bodies["l2"]
        np.testing.assert_allclose(
            plant.CalcSpatialInertia(
                context, body.body_frame(), [body.index()]
            ).CopyToFullMatrix6(),
            body.CalcSpatialInertiaInBodyFrame(context).CopyToFullMatrix6(),
            atol=1e-13,
        )
        F = plant.GetFrameByName("F_l1")
        names = ("l1", "a2", "free2")
        parts = [
            plant.CalcSpatialInertia(context, F, [items.bodies[n].index()]).CopyToFullMatrix6()
            for n in names
        ]
        whole = plant.CalcSpatialInertia(
            context, F, [items.bodies[n].index() for n in names] + [M.BodyIndex(0)]
        )
        np.testing.assert_allclose(whole.CopyToFullMatrix6(), sum(parts), atol=1e-12)
        # The spatial momentum about Fo, in F, of all the bodies = M_SFo_F · (rigid motion)
        # when every body moves with F's body: here, all at rest but F's spatial velocity.
        all_bodies = [M.BodyIndex(i) for i in range(plant.num_bodies())]
        mass = plant.CalcSpatialInertia(context, F, all_bodies).get_mass()
        np.testing.assert_allclose(mass, plant.CalcTotalMass(context), rtol=1e-14)


# ---- compiled kernels = interpreted kernels, on the plant's own arrays ---------------------
def _kernel_chain(plant, context, as_object, unflagged=False):
    """The kernels' results for the plant's state, through the entry points the plant calls,
    compiled on float64 arrays or interpreted on object arrays: poses, velocities, bias,
    inertias, M, inverse and forward dynamics (a joint locked), a Jacobian, q̇ and
    generalized forces; ``unflagged``: with no X_MB flagged the identity (X_kind), so that
    every product of it is computed."""
    dtype = object if as_object else float
    run = kernels(dtype)

    def arr(a):
        return np.asarray(a).astype(dtype)

    def out(*shape):
        return np.zeros(shape, dtype=dtype)

    model = plant._engine
    mi, mf, sizes = model.mi, model.mf, model.sizes
    ws = arr(plant._engine.cache(context).ws)  # (its parameter stage set)
    params, work = PARAMETERS.views(ws, sizes), WORKSPACE.views(ws, sizes)
    if unflagged:
        params.X_kind[:] = (params.X_kind.astype(int) & ~X_MB_IDENTITY).astype(float)
    x = arr(plant.GetPositionsAndVelocities(context))
    q, v = x[: sizes.nq], x[sizes.nq :]
    run.drive_stages(mi, mf, x, ws, POSITIONS | VELOCITIES | INERTIAS | BIAS)
    run.drive_mass_matrix(mi, mf, x, ws, 0, run.address("stages_at"))
    n, nv = sizes.n, sizes.nv
    rng = np.random.default_rng(0)
    F_app, tau_app, vdot_in = (
        arr(rng.normal(size=(n, 6))),
        arr(rng.normal(size=nv)),
        arr(rng.normal(size=nv)),
    )
    A_WB, F, tau = out(n, 6), out(n, 6), out(nv)
    run.drive_newton_euler(
        mi, mf, ws, work.V_WB, work.A_bias, vdot_in, F_app, tau_app, A_WB, F, tau
    )
    params.locked[3] = 1.0
    vdot, A_fd = out(nv), out(n, 6)
    failed = run.drive_articulated_body(mi, mf, ws, tau_app, F_app, params.reflected, vdot, A_fd)
    assert failed == -1
    J = out(1, 6, nv)
    run.drive_point_jacobians(mi, mf, ws, n - 2, arr([[0.1, 0.2, 0.3]]), J)
    qdot = out(sizes.nq)
    run.drive_qdot(mi, mf, q, v, qdot)
    tau_F = out(nv)
    run.drive_generalized_forces(mi, mf, ws, F_app, out(n, 6), tau_F)
    results = (work.X_pc, work.H_PB_W, work.V_WB, work.A_bias, work.m_W, work.h_W, work.I_W)
    results += (work.M, A_WB, F, tau, vdot, A_fd, J[0], qdot, tau_F)
    return [np.asarray(r, dtype=float) for r in results]


def test_kernels_compiled_equal_interpreted_on_the_plant(model):
    plant, _ = model
    for context in contexts(plant, count=1):
        for ours, theirs in zip(
            _kernel_chain(plant, context, False), _kernel_chain(plant, context, True), strict=True
        ):
            np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)
        # And the chain is what the plant computes.
        chain = _kernel_chain(plant, context, False)
        np.testing.assert_allclose(chain[7], plant.CalcMassMatrix(context), atol=1e-13)
        np.testing.assert_allclose(
            chain[-2],
            plant.MapVelocityToQDot(context, plant.GetVelocities(context)),
            atol=1e-14,
        )


def _chain_of_column_kinds():
    """A continuous chain, actuated, under gravity: revolute joints about coordinate axes with
    X_MB the identity (the child's body frame), one about a random axis into an offset frame,
    and a prismatic joint."""
    rng = np.random.default_rng(3)
    plant = M.MultibodyPlant(0.0)
    b = [plant.AddRigidBody(f"b{i}", random_inertia(M, rng)) for i in range(5)]

    def offset(body):
        R = M.RotationMatrix(M.RollPitchYaw(rng.uniform(-3, 3, 3)))
        X = M.RigidTransform(R, rng.normal(size=3))
        return plant.AddFrame(M.FixedOffsetFrame(f"F_{body.name()}", body.body_frame(), X))

    joints = [
        M.RevoluteJoint("j0", plant.world_frame(), b[0].body_frame(), [0, 0, 1], 0.1),
        M.PrismaticJoint("j1", b[0].body_frame(), b[1].body_frame(), rng.normal(size=3)),
        M.RevoluteJoint("j2", offset(b[1]), b[2].body_frame(), [1, 0, 0], 0.1),
        M.RevoluteJoint("j3", b[2].body_frame(), offset(b[3]), rng.normal(size=3), 0.1),
        M.RevoluteJoint("j4", b[3].body_frame(), b[4].body_frame(), [0, -1, 0], 0.1),
    ]
    for joint in joints:
        plant.AddJointActuator(f"u_{joint.name()}", plant.AddJoint(joint))
    plant.Finalize()
    return plant


def test_zero_half_columns_skip_only_products_by_zero():
    """Where X_MB is the identity, a revolute column is [a_W; 0]: the acceleration bias and
    the articulated body algorithm skip the products by its zero half
    (kernels.dynamics._zero_half), which changes no value (but a zero's sign): the same
    results as with every product computed (X_kind unflagged), compiled and interpreted. (A
    prismatic column's zero half, always skipped, is checked by the identities above.)"""
    plant = _chain_of_column_kinds()
    sizes, tree = plant._engine.sizes, plant._topology.tree
    for context in contexts(plant, count=2):
        kinds = PARAMETERS.views(plant._engine.cache(context).ws, sizes).X_kind.astype(int)
        revolute = [k for k in range(1, sizes.n) if tree[k, JTYPE] == REVOLUTE]
        assert [kinds[k] & X_MB_IDENTITY != 0 for k in revolute] == [True, True, False, True]
        for as_object in (False, True):
            skipped = _kernel_chain(plant, context, as_object)
            computed = _kernel_chain(plant, context, as_object, unflagged=True)
            for ours, theirs in zip(skipped, computed, strict=True):
                assert np.array_equal(ours, theirs)
