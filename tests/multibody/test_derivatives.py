"""Derivatives of inverse and forward dynamics (MultibodyPlant.CalcInverseDynamicsDerivatives,
CalcForwardDynamicsDerivatives and their BatchedPlant versions, mallard methods), checked
against central finite differences of the plant's own CalcInverseDynamics and
EvalTimeDerivatives."""

import numpy as np
import pytest

from mallard.math import RigidTransform
from mallard.multibody._kernels import batch as batch_kernels
from mallard.multibody._kernels import engine_derivatives
from mallard.multibody.batch import BatchedPlant
from mallard.multibody.math import SpatialForce
from mallard.multibody.plant import ExternallyAppliedSpatialForce, MultibodyPlant
from mallard.multibody.single_state import SingleStatePlant
from mallard.multibody.tree import (
    MultibodyForces,
    RevoluteSpring,
    RotationalInertia,
    SpatialInertia,
)
from tests.dual import Dual

from .derivative_models import (
    JOINT_TYPES,
    floating_tree,
    one_dof_tree,
    random_state,
    two_way_chain,
)
from .plant.plant_models import library
from .test_batch import build_model

M = library("mallard")
H = 1e-6  # the finite-difference step


def central_differences(f, x, step=H):
    """∂f/∂x (columns per entry of x) by central differences."""
    return np.array([(f(x + step * e) - f(x - step * e)) / (2 * step) for e in np.eye(x.size)]).T


def assert_close(ours, expected, rtol=1e-6):
    """Agreement to ``rtol`` relative to the larger of |expected| and the largest entry."""
    scale = max(1.0, np.abs(expected).max(initial=0.0))
    np.testing.assert_allclose(ours, expected, rtol=rtol, atol=rtol * scale)


COVERED = {"tree": one_dof_tree, "floating": floating_tree}


@pytest.fixture(scope="module", params=["chain", "batch_model", "tree", "floating"])
def model(request):
    """(plant, context): every joint type (two_way_chain: each twice, revolute and prismatic
    also reversed; build_model: a reversed revolute, a locked joint, changed parameters); two
    trees that kernels.recursive_derivatives covers (one_dof_tree, floating_tree)."""
    if request.param != "batch_model":
        plant = two_way_chain(M) if request.param == "chain" else COVERED[request.param](M)
        return plant, plant.CreateDefaultContext()
    plant = build_model()
    context = plant.CreateDefaultContext()
    plant.GetBodyByName("l2").SetMass(context, 2.5)
    plant.GetJointByName("jrev").SetDamping(context, 0.7)
    plant.GetJointByName("jlast").Lock(context)
    return plant, context


def set_state(plant, context, q, v):
    plant.SetPositions(context, q)
    plant.SetVelocities(context, v)


def external_forces(plant, rng):
    forces = MultibodyForces(plant)
    forces.mutable_generalized_forces()[:] = rng.normal(size=plant.num_velocities())
    for index in range(plant.num_bodies()):
        body = plant.get_body(M.BodyIndex(index))
        F = SpatialForce(rng.normal(size=3), rng.normal(size=3))
        body.AddInForceInWorld(plant.CreateDefaultContext(), F, forces)
    return forces


def inverse_dynamics(plant, context, vdot, external):
    """The plant's inverse dynamics with its force elements and ``external``."""
    forces = MultibodyForces(plant)
    plant.CalcForceElementsContribution(context, forces)
    forces.mutable_generalized_forces()[:] += external.generalized_forces()
    forces._F_BBo_W += external._F_BBo_W
    return plant.CalcInverseDynamics(context, vdot, forces)


def test_the_chain_has_every_joint_type():
    plant = two_way_chain(M)
    types = {plant.get_joint(i).type_name() for i in plant.GetJointIndices()}
    assert len(JOINT_TYPES) == 8 and len(types) == 9  # (and the weld)


def test_inverse_dynamics_derivatives_are_finite_differences(model):
    plant, context = model
    rng = np.random.default_rng(2)
    q, v, vdot = random_state(plant, rng)
    external = external_forces(plant, rng)
    set_state(plant, context, q, v)
    dtau_dq, dtau_dv, dtau_dvdot = plant.CalcInverseDynamicsDerivatives(context, vdot, external)
    nq, nv = plant.num_positions(), plant.num_velocities()
    assert dtau_dq.shape == (nv, nq) and dtau_dv.shape == (nv, nv)

    def tau(q_, v_, vdot_=vdot):
        set_state(plant, context, q_, v_)
        return inverse_dynamics(plant, context, vdot_, external)

    assert_close(dtau_dq, central_differences(lambda x: tau(x, v), q))
    assert_close(dtau_dv, central_differences(lambda x: tau(q, x), v))
    # τ is affine in v̇: its derivative is M, exactly.
    set_state(plant, context, q, v)
    np.testing.assert_array_equal(dtau_dvdot, plant.CalcMassMatrix(context))
    assert_close(dtau_dvdot, central_differences(lambda x: tau(q, v, x), vdot))


def test_without_external_forces_and_with_zero_velocities(model):
    """No external forces: gravity and damping alone; at v = 0, ∂τ/∂v is C's part linear in v
    (zero) plus the damping D."""
    plant, context = model
    rng = np.random.default_rng(5)
    q, _, vdot = random_state(plant, rng)
    v = np.zeros(plant.num_velocities())
    set_state(plant, context, q, v)
    dtau_dq, dtau_dv, _ = plant.CalcInverseDynamicsDerivatives(context, vdot)
    none = MultibodyForces(plant)

    def tau(q_):
        set_state(plant, context, q_, v)
        return inverse_dynamics(plant, context, vdot, none)

    assert_close(dtau_dq, central_differences(tau, q))
    D = np.diag(plant._parameters(context).damping)
    np.testing.assert_allclose(dtau_dv, D, atol=1e-12)


@pytest.fixture(scope="module")
def inputs_rng():
    return np.random.default_rng(8)


def set_inputs(plant, context, tau, u):
    plant.get_applied_generalized_force_input_port().FixValue(context, tau)
    plant.get_actuation_input_port().FixValue(context, u)


def vdot_of(plant, context):
    return plant.EvalTimeDerivatives(context).CopyToVector()[plant.num_positions() :].copy()


def test_without_applied_forces_dtau_dvdot_is_the_mass_matrix(model):
    """Without applied body forces ∂τ/∂v̇ is M with the reflected rotor inertias: for the tree
    kernels.recursive_derivatives covers, its own (S_jᵀ·α_i, the composite inertias summed at
    Wo), which is the composite body algorithm's (summed at each root's origin) to rounding."""
    plant, context = model
    q, v, vdot = random_state(plant, np.random.default_rng(7))
    set_state(plant, context, q, v)
    _, _, dtau_dvdot = plant.CalcInverseDynamicsDerivatives(context, vdot)
    M = plant.CalcMassMatrix(context)
    np.testing.assert_allclose(dtau_dvdot, M, rtol=1e-13, atol=1e-13 * np.abs(M).max())
    np.testing.assert_array_equal(dtau_dvdot, dtau_dvdot.T)


def test_forward_dynamics_derivatives_are_finite_differences(model, inputs_rng):
    plant, context = model
    context = context.Clone()
    q, v, _ = random_state(plant, inputs_rng)
    nq, nv, nu = plant.num_positions(), plant.num_velocities(), plant.num_actuated_dofs()
    tau = inputs_rng.normal(size=nv)
    u = inputs_rng.normal(size=nu) * 2.0  # some beyond their effort limits
    set_state(plant, context, q, v)
    set_inputs(plant, context, tau, u)
    dvdot_dq, dvdot_dv, dvdot_dtau, dvdot_du = plant.CalcForwardDynamicsDerivatives(context)
    assert dvdot_dq.shape == (nv, nq) and dvdot_du.shape == (nv, nu)

    def vdot(q_=q, v_=v, tau_=tau, u_=u):
        set_state(plant, context, q_, v_)
        set_inputs(plant, context, tau_, u_)
        return vdot_of(plant, context)

    assert_close(dvdot_dq, central_differences(lambda x: vdot(q_=x), q))
    assert_close(dvdot_dv, central_differences(lambda x: vdot(v_=x), v))
    assert_close(dvdot_dtau, central_differences(lambda x: vdot(tau_=x), tau))
    assert_close(dvdot_du, central_differences(lambda x: vdot(u_=x), u))
    limits = np.array([a.effort_limit() for a in plant._actuators])
    saturated = np.abs(u) > limits
    assert saturated.any() and not saturated.all()
    assert not dvdot_du[:, saturated].any()


def test_forward_dynamics_derivatives_identities(model):
    """∂v̇/∂τ = M⁻¹ on the free dofs (zero rows and columns for locked joints), and
    ∂v̇/∂q = −M⁻¹·∂τ/∂q with ∂τ/∂q from CalcInverseDynamicsDerivatives at v̇."""
    plant, context = model
    context = context.Clone()
    rng = np.random.default_rng(9)
    q, v, _ = random_state(plant, rng)
    set_state(plant, context, q, v)
    dvdot_dq, dvdot_dv, dvdot_dtau, _ = plant.CalcForwardDynamicsDerivatives(context)
    vdot = vdot_of(plant, context)
    dtau_dq, dtau_dv, Mq = plant.CalcInverseDynamicsDerivatives(context, vdot)
    free = np.ones(plant.num_velocities(), dtype=bool)
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        if joint.is_locked(context):
            free[joint.velocity_start() : joint.velocity_start() + joint.num_velocities()] = False
    Mf_inv = np.linalg.inv(Mq[np.ix_(free, free)])
    assert_close(dvdot_dtau[np.ix_(free, free)], Mf_inv, rtol=1e-10)
    assert not dvdot_dtau[~free].any() and not dvdot_dtau[:, ~free].any()
    assert_close(dvdot_dq[free], -Mf_inv @ dtau_dq[free], rtol=1e-10)
    assert_close(dvdot_dv[free], -Mf_inv @ dtau_dv[free], rtol=1e-10)
    assert not dvdot_dq[~free].any() and not dvdot_dv[~free].any()


def test_pendulum_closed_form():
    """A body of mass m (central inertia I) at distance l on a revolute joint, gravity g,
    damping d: τ = (m·l² + I)·θ̈ + m·g·l·sin θ + d·θ̇, so ∂τ/∂θ = m·g·l·cos θ, ∂τ/∂θ̇ = d."""
    m, l, g, d, I = 2.0, 0.7, 9.81, 0.3, 0.01
    plant = MultibodyPlant(0.0)
    inertia = SpatialInertia.MakeFromCentralInertia(m, [0, 0, -l], RotationalInertia(I, I, I))
    body = plant.AddRigidBody("bob", inertia)
    plant.AddJoint(M.RevoluteJoint("pin", plant.world_frame(), body.body_frame(), [1, 0, 0], d))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    theta, theta_dot = 0.4, -1.3
    set_state(plant, context, [theta], [theta_dot])
    dtau_dq, dtau_dv, Mq = plant.CalcInverseDynamicsDerivatives(context, [0.5])
    np.testing.assert_allclose(dtau_dq, [[m * g * l * np.cos(theta)]], rtol=1e-14)
    np.testing.assert_allclose(dtau_dv, [[d]], rtol=1e-14)
    np.testing.assert_allclose(Mq, [[m * l * l + I]], rtol=1e-14)


# ---- errors ---------------------------------------------------------------------------------
def test_other_force_elements_raise():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
    joint = plant.AddJoint(M.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    plant.AddForceElement(RevoluteSpring(joint, 0.0, 10.0))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    message = "force element RevoluteSpring .*ForceElementIndex 1.* not supported"
    with pytest.raises(NotImplementedError, match="CalcInverseDynamicsDerivatives.*" + message):
        plant.CalcInverseDynamicsDerivatives(context, [0.0])
    with pytest.raises(NotImplementedError, match="CalcForwardDynamicsDerivatives.*" + message):
        plant.CalcForwardDynamicsDerivatives(context)


def _pendulum(time_step=0.0, finalize=True):
    plant = MultibodyPlant(time_step)
    body = plant.AddRigidBody("b", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
    joint = plant.AddJoint(M.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    actuator = plant.AddJointActuator("a", joint)
    if finalize:
        actuator.set_controller_gains(M.PdControllerGains(p=1.0, d=0.1))
        plant.Finalize()
    return plant


def test_forward_dynamics_errors():
    plant = _pendulum(time_step=0.01)
    with pytest.raises(NotImplementedError, match="only continuous plants.*time_step = 0.01"):
        plant.CalcForwardDynamicsDerivatives(plant.CreateDefaultContext())
    plant = _pendulum()
    context = plant.CreateDefaultContext()
    applied = ExternallyAppliedSpatialForce()
    applied.body_index = plant.GetBodyByName("b").index()
    applied.F_Bq_W = SpatialForce([0, 0, 1.0], [1.0, 0, 0])
    plant.get_applied_spatial_force_input_port().FixValue(context, [applied])
    with pytest.raises(NotImplementedError, match="applied spatial force input port"):
        plant.CalcForwardDynamicsDerivatives(context)
    context = plant.CreateDefaultContext()
    plant.get_desired_state_input_port(M.default_model_instance()).FixValue(context, [0.1, 0.0])
    with pytest.raises(NotImplementedError, match="desired state input port.*PD"):
        plant.CalcForwardDynamicsDerivatives(context)


def test_inverse_dynamics_argument_errors():
    plant = _pendulum()
    context = plant.CreateDefaultContext()
    with pytest.raises(RuntimeError, match="known_vdot must have size nv = 1, got 2"):
        plant.CalcInverseDynamicsDerivatives(context, [0.0, 1.0])
    with pytest.raises(TypeError, match="expected MultibodyForces"):
        plant.CalcInverseDynamicsDerivatives(context, [0.0], "forces")
    with pytest.raises(TypeError, match="must hold the Context's scalar type.*got object"):
        plant.CalcInverseDynamicsDerivatives(context, np.array([Dual(0.0, 1.0)]))
    unfinalized = _pendulum(finalize=False)
    with pytest.raises(RuntimeError, match="CalcInverseDynamicsDerivatives"):
        unfinalized.CalcInverseDynamicsDerivatives(context, [0.0])
    other = _pendulum()
    with pytest.raises(RuntimeError):
        other.CalcForwardDynamicsDerivatives(context)


# ---- batched ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def batch_setup():
    plant = build_model()
    context = plant.CreateDefaultContext()
    plant.GetJointByName("jlast").Lock(context)
    rng = np.random.default_rng(12)
    states = [random_state(plant, rng) for _ in range(5)]
    q, v, vdot = (np.array(s) for s in zip(*states, strict=True))
    return plant, context, BatchedPlant(plant, context), q, v, vdot, rng


def test_batched_equals_per_state(batch_setup):
    plant, context, batched, q, v, vdot, rng = batch_setup
    nv, nu = plant.num_velocities(), plant.num_actuated_dofs()
    tau = rng.normal(size=(len(q), nv))
    u = 2.0 * rng.normal(size=(len(q), nu))
    inverse = batched.CalcInverseDynamicsDerivatives(q, v, vdot)
    forward = batched.CalcForwardDynamicsDerivatives(q, v, tau, u)
    context = context.Clone()
    for i in range(len(q)):
        set_state(plant, context, q[i], v[i])
        expected = plant.CalcInverseDynamicsDerivatives(context, vdot[i])
        for ours, theirs in zip(inverse, expected, strict=True):
            np.testing.assert_allclose(ours[i], theirs, rtol=1e-13, atol=1e-12)
        set_inputs(plant, context, tau[i], u[i])
        expected = plant.CalcForwardDynamicsDerivatives(context)
        for ours, theirs in zip(forward, expected, strict=True):
            np.testing.assert_allclose(ours[i], theirs, rtol=1e-13, atol=1e-12)


@pytest.mark.parametrize(
    "covered", ["tree", "floating", None], ids=["lanes", "floating", "by_state"]
)
def test_batched_are_the_plants_to_the_bit(covered):
    """BatchedPlant's derivatives (in lanes for a model kernels.recursive_derivatives covers,
    else state by state) and SingleStatePlant's are the plant's single calls' to the last bit,
    with a locked joint, a batch of 7 (a group of 4 and one of 3) whose state 2 is NaN (NaN
    results, the others computed) and, for forward dynamics, actuations beyond the effort
    limits."""
    plant = COVERED[covered](M) if covered else build_model()
    context = plant.CreateDefaultContext()
    joint = plant.GetJointByName("j4" if covered else "jlast")
    joint.Lock(context)
    batched = BatchedPlant(plant, context)
    single = SingleStatePlant(plant, context)
    rng = np.random.default_rng(5)
    states = [random_state(plant, rng) for _ in range(7)]
    q, v, vdot = (np.array(s) for s in zip(*states, strict=True))
    q[2, 0] = np.nan
    nv, nu = plant.num_velocities(), plant.num_actuated_dofs()
    tau, u = rng.normal(size=(7, nv)), 3.0 * rng.normal(size=(7, nu))
    with pytest.warns(RuntimeWarning):
        inverse = batched.CalcInverseDynamicsDerivatives(q, v, vdot)
    with pytest.warns(RuntimeWarning):
        forward = batched.CalcForwardDynamicsDerivatives(q, v, tau, u)
    for i in range(7):
        if i == 2:
            assert all(np.isnan(x[i]).all() for x in inverse + forward)
            continue
        set_state(plant, context, q[i], v[i])
        expected = plant.CalcInverseDynamicsDerivatives(context, vdot[i])
        one = single.CalcInverseDynamicsDerivatives(q[i], v[i], vdot[i])
        for ours, alone, theirs in zip(inverse, one, expected, strict=True):
            np.testing.assert_array_equal(ours[i], theirs)
            np.testing.assert_array_equal(alone, theirs)
        set_inputs(plant, context, tau[i], u[i])
        expected = plant.CalcForwardDynamicsDerivatives(context)
        one = single.CalcForwardDynamicsDerivatives(q[i], v[i], tau[i], u[i])
        for ours, alone, theirs in zip(forward, one, expected, strict=True):
            np.testing.assert_array_equal(ours[i], theirs)
            np.testing.assert_array_equal(alone, theirs)
    free = np.ones(nv, dtype=bool)
    free[joint.velocity_start()] = False
    assert not forward[0][0][~free].any() and forward[0][0][free].any(axis=1).all()


def test_batched_without_inputs_and_empty(batch_setup):
    plant, context, batched, q, v, vdot, _ = batch_setup
    nv = plant.num_velocities()
    zero = batched.CalcForwardDynamicsDerivatives(q, v)
    given = batched.CalcForwardDynamicsDerivatives(
        q, v, np.zeros((len(q), nv)), np.zeros((len(q), plant.num_actuated_dofs()))
    )
    for a, b in zip(zero, given, strict=True):
        np.testing.assert_array_equal(a, b)
    for result in (
        batched.CalcInverseDynamicsDerivatives(q[:0], v[:0], vdot[:0]),
        batched.CalcForwardDynamicsDerivatives(q[:0], v[:0]),
    ):
        assert all(r.shape[0] == 0 for r in result)
    with pytest.raises(ValueError, match="known_vdot must have shape"):
        batched.CalcInverseDynamicsDerivatives(q, v, vdot[:, :2])


def test_batched_interpreted_equals_compiled(batch_setup):
    """Object arrays run the same kernels interpreted."""
    plant, context, batched, q, v, vdot, _ = batch_setup
    compiled = batched.CalcInverseDynamicsDerivatives(q[:1], v[:1], vdot[:1])
    interpreted = batched.CalcInverseDynamicsDerivatives(
        q[:1].astype(object), v[:1].astype(object), vdot[:1].astype(object)
    )
    for a, b in zip(compiled, interpreted, strict=True):
        assert b.dtype == object
        np.testing.assert_allclose(a, b.astype(float), rtol=1e-13, atol=1e-12)


def test_external_forces_are_held_fixed_in_world():
    """External forces are held fixed at Bo, in World, while Bo moves: a body whose origin is
    at distance r from a z-axis revolute joint, a force f = (0, 1, 0) at Bo:
    τ = −ẑ·(p_WBo × f) = −r·cos θ, so ∂τ/∂θ = r·sin θ."""
    r = 0.8
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    F = plant.AddFrame(M.FixedOffsetFrame("F", body.body_frame(), RigidTransform([-r, 0, 0])))
    plant.AddJoint(M.RevoluteJoint("j", plant.world_frame(), F, [0, 0, 1]))
    plant.mutable_gravity_field().set_gravity_vector([0, 0, 0])
    plant.Finalize()
    context = plant.CreateDefaultContext()
    theta = 0.3
    plant.SetPositions(context, [theta])
    forces = MultibodyForces(plant)
    body.AddInForceInWorld(context, SpatialForce([0, 0, 0], [0, 1.0, 0]), forces)
    dtau_dq, _, _ = plant.CalcInverseDynamicsDerivatives(context, [0.0], forces)
    np.testing.assert_allclose(dtau_dq, [[r * np.sin(theta)]], rtol=1e-14)


@pytest.mark.parametrize("covered", ["tree", "floating"])
def test_recursions_equal_the_tangent_sweeps(monkeypatch, covered):
    """On a model it covers (quaternion floating joints too: the derivatives along the
    quaternion's 4 numbers), kernels.recursive_derivatives (compiled and interpreted) gives
    the tangent sweeps' (kernels.derivatives, forced) derivatives to rounding; the models it
    does not cover go to the sweeps."""
    plant = COVERED[covered](M)
    batched = BatchedPlant(plant, plant.CreateDefaultContext())
    rng = np.random.default_rng(3)
    q, v, vdot = (np.array([x]) for x in random_state(plant, rng))
    recursive = batched.CalcInverseDynamicsDerivatives(q, v, vdot)
    calls = []
    real = engine_derivatives.calc_recursive_derivatives

    def spy(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(engine_derivatives, "calc_recursive_derivatives", spy)
    as_object = [x.astype(object) for x in (q, v, vdot)]
    interpreted = batched.CalcInverseDynamicsDerivatives(*as_object)
    assert calls
    for module in (engine_derivatives, batch_kernels):  # (the plant's choice, the batch's)
        monkeypatch.setattr(module, "covers", lambda model, F_app_B: 0)
    swept = batched.CalcInverseDynamicsDerivatives(*as_object)
    assert len(calls) == 1
    for a, b, c in zip(recursive, interpreted, swept, strict=True):
        np.testing.assert_allclose(a, b.astype(float), rtol=1e-13, atol=1e-12)
        assert_close(a, c.astype(float), rtol=1e-12)
    monkeypatch.undo()
    monkeypatch.setattr(engine_derivatives, "calc_recursive_derivatives", spy)
    chain = two_way_chain(M)
    q, v, vdot = (np.array([x], dtype=object) for x in random_state(chain, rng))
    BatchedPlant(chain, chain.CreateDefaultContext()).CalcInverseDynamicsDerivatives(q, v, vdot)
    assert len(calls) == 1


# ---- against mallard's own AutoDiffXd plant ------------------------------------------------
def test_analytical_derivatives_equal_autodiff(model):
    """∂τ/∂q, ∂τ/∂v of inverse dynamics and ∂v̇/∂q, ∂v̇/∂v of forward dynamics equal the
    gradients the AutoDiffXd plant (ToAutoDiffXd, q and v seeded) computes, to 1e-10."""
    from mallard.autodiffutils import ExtractGradient, InitializeAutoDiff

    plant, context = model
    q, v, vdot = random_state(plant, np.random.default_rng(7))
    set_state(plant, context, q, v)
    plant_ad = plant.ToAutoDiffXd()
    context_ad = plant_ad.CreateDefaultContext()
    context_ad.SetTimeStateAndParametersFrom(context)
    nq = q.size
    x_ad = InitializeAutoDiff(np.concatenate((q, v)))
    plant_ad.SetPositionsAndVelocities(context_ad, x_ad.reshape(-1))

    forces = M.MultibodyForces(plant_ad)
    plant_ad.CalcForceElementsContribution(context_ad, forces)
    dtau_dx = ExtractGradient(plant_ad.CalcInverseDynamics(context_ad, vdot, forces))
    dtau_dq, dtau_dv, _ = plant.CalcInverseDynamicsDerivatives(context, vdot)
    assert_close(dtau_dq, dtau_dx[:, :nq], rtol=1e-10)
    assert_close(dtau_dv, dtau_dx[:, nq:], rtol=1e-10)

    derivatives_ad = plant_ad.EvalTimeDerivatives(context_ad).CopyToVector()[nq:]
    dvdot_dx = ExtractGradient(derivatives_ad)
    dvdot_dq, dvdot_dv, _, _ = plant.CalcForwardDynamicsDerivatives(context)
    assert_close(dvdot_dq, dvdot_dx[:, :nq], rtol=1e-10)
    assert_close(dvdot_dv, dvdot_dx[:, nq:], rtol=1e-10)
