"""Point contact of continuous plants against closed forms: the contact model's settings and
errors, the penalty estimates, the kernel's Hunt–Crossley force and Stribeck curve, a sphere
at rest on a half space at the penetration m·g/k, friction's direction and coefficient, the
contact results' conventions, generalized contact forces (Jᵀ·f), the hydroelastic and
discrete-plant errors, and a missing geometry input."""

import re

import numpy as np
import pytest

from mallard._compiled import kernels
from mallard.geometry import (
    AddCompliantHydroelasticProperties,
    AddContactMaterial,
    AddRigidHydroelasticProperties,
    DefaultProximityProperties,
    HalfSpace,
    ProximityProperties,
    SceneGraph,
    SceneGraphConfig,
    Sphere,
)
from mallard.math import RigidTransform
from mallard.multibody._kernels.contact import step5, stribeck_friction
from mallard.multibody.plant import (
    AddMultibodyPlantSceneGraph,
    ContactModel,
    ContactResults,
    CoulombFriction,
    MultibodyPlant,
    PointPairContactInfo,
)
from mallard.multibody.tree import BodyIndex, SpatialInertia
from mallard.systems.analysis import Simulator
from mallard.systems.framework import DiagramBuilder

G = 9.81


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


def ball_on_ground(
    time_step=0.0,
    mass=2.0,
    radius=0.1,
    k=None,
    d=None,
    friction=None,
    model=None,
    ground=None,
    approximation=None,
):
    """A free sphere (stiffness k, dissipation d, friction: μs = 0.8, μd = 0.6 unless given)
    and a half space z ≤ 0 of World of the same material (or ``ground``'s properties);
    returns (diagram, plant, scene_graph, ball, context of the plant, root context)."""
    friction = CoulombFriction(0.8, 0.6) if friction is None else friction
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    if model is not None:
        plant.set_contact_model(model)
    if approximation is not None:
        from mallard.multibody.plant import DiscreteContactApproximation

        plant.set_discrete_contact_approximation(
            getattr(DiscreteContactApproximation, approximation)
        )
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(mass, radius))
    properties = ProximityProperties()
    AddContactMaterial(dissipation=d, point_stiffness=k, friction=friction, properties=properties)
    plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(radius), "ball", properties)
    if ground is None:
        ground = ProximityProperties()
        AddContactMaterial(dissipation=d, point_stiffness=k, friction=friction, properties=ground)
    plant.RegisterCollisionGeometry(
        plant.world_body(), RigidTransform(), HalfSpace(), "ground", ground
    )
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    return diagram, plant, scene_graph, ball, plant.GetMyContextFromRoot(root), root


def set_ball(plant, context, z, v=(0, 0, 0, 0, 0, 0)):
    plant.SetPositions(context, [1, 0, 0, 0, 0, 0, z])
    plant.SetVelocities(context, v)


# ---- settings ---------------------------------------------------------------------------------
def test_contact_model_enum_and_default():
    assert [int(ContactModel.kHydroelastic), int(ContactModel.kPoint)] == [0, 1]
    assert int(ContactModel.kHydroelasticWithFallback) == 2
    assert ContactModel.kPointContactOnly == ContactModel.kPoint
    assert ContactModel.kHydroelasticsOnly.name == "kHydroelastic"
    plant = MultibodyPlant(0.0)
    assert plant.get_contact_model() == ContactModel.kHydroelasticWithFallback
    plant.set_contact_model(ContactModel.kPoint)
    assert plant.get_contact_model() == ContactModel.kPoint
    with pytest.raises(TypeError):
        plant.set_contact_model(1)
    plant.Finalize()
    with raises(
        RuntimeError,
        "Post-finalize calls to 'set_contact_model()' are not allowed; calls to this method "
        "must happen before Finalize().",
    ):
        plant.set_contact_model(ContactModel.kPoint)


def test_penalty_estimates():
    """k = m_max·g/δ, time scale √(m/k) = √(δ/g), per-geometry stiffness 2k, dissipation
    (time scale)/δ; −1 without collision geometry; re-estimated after Finalize()."""
    plant = MultibodyPlant(0.0)
    with raises(
        RuntimeError,
        "Pre-finalize calls to 'get_contact_penalty_method_time_scale()' are not allowed; you "
        "must call Finalize() first.",
    ):
        plant.get_contact_penalty_method_time_scale()
    for bad in (0.0, -1e-3):
        with raises(
            RuntimeError,
            "set_penetration_allowance(): penetration_allowance must be strictly positive.",
        ):
            plant.set_penetration_allowance(bad)
    plant.Finalize()
    assert plant.get_contact_penalty_method_time_scale() == -1.0
    plant.set_penetration_allowance(2e-3)
    assert np.isnan(plant.get_contact_penalty_method_time_scale())  # (no mass: Drake's 0/0)

    _, plant, *_ = ball_on_ground(mass=3.0)
    tau = np.sqrt(1e-3 / G)
    assert plant.get_contact_penalty_method_time_scale() == pytest.approx(tau, rel=1e-15)
    k = 3.0 * G / 1e-3
    assert plant._penalty[0] == pytest.approx(2 * k, rel=1e-15)
    assert plant._penalty[1] == pytest.approx(tau / 1e-3, rel=1e-15)
    plant.set_penetration_allowance(5e-3)
    assert plant.get_contact_penalty_method_time_scale() == pytest.approx(np.sqrt(5e-3 / G))


def test_stiction_tolerance_errors():
    plant = MultibodyPlant(0.0)
    for bad in (0.0, -1e-4):
        with pytest.raises(RuntimeError, match="v_stiction > 0"):
            plant.set_stiction_tolerance(bad)
    plant.set_stiction_tolerance(1e-3)
    plant.set_stiction_tolerance()
    assert plant._stiction_tolerance == 1e-4


def test_scene_graph_config_errors():
    scene_graph = SceneGraph()
    assert scene_graph.get_config().default_proximity_properties.point_stiffness == 1e6
    for fields, message in (
        ({"compliance_type": "foo"}, "Unknown hydroelastic_type: 'foo'"),
        (
            {"point_stiffness": -1.0},
            "Invalid scene graph configuration: 'point_stiffness' (-1) must be a positive value.",
        ),
        (
            {"hunt_crossley_dissipation": -1.0},
            "Invalid scene graph configuration: 'hunt_crossley_dissipation' (-1) must be a "
            "non-negative value.",
        ),
        (
            {"static_friction": None},
            "Invalid scene graph configuration: either both 'static_friction' (nullopt) and "
            "'dynamic_friction' (0.5) must have a value, or neither.",
        ),
        (
            {"static_friction": 0.1, "dynamic_friction": 0.5},
            "The given dynamic friction (0.5) is greater than the given static friction (0.1); "
            "dynamic friction must be less than or equal to static friction.",
        ),
    ):
        config = SceneGraphConfig()
        config.default_proximity_properties = DefaultProximityProperties(**fields)
        with raises(RuntimeError, message):
            scene_graph.set_config(config)
    assert scene_graph.get_config() == SceneGraphConfig()


def test_stribeck_curve():
    assert [step5(0.0), step5(0.5), step5(1.0)] == [0.0, 0.5, 1.0]
    mu_s, mu_d = 0.8, 0.5
    assert stribeck_friction(0.0, mu_s, mu_d) == 0.0
    assert stribeck_friction(0.5, mu_s, mu_d) == pytest.approx(0.4)
    assert stribeck_friction(1.0, mu_s, mu_d) == pytest.approx(mu_s)
    assert stribeck_friction(2.0, mu_s, mu_d) == pytest.approx(0.65)
    assert stribeck_friction(3.0, mu_s, mu_d) == mu_d
    assert stribeck_friction(30.0, mu_s, mu_d) == mu_d


def test_kernel_force_on_world_and_body():
    """A pair between World (A) and a body B at rest: fn = k·x along nhat_BA, on A; B gets the
    opposite force, and the torque p_BoC × f_Bc about Bo."""
    _, plant, _, ball, context, _ = ball_on_ground()
    set_ball(plant, context, 1.0)
    ec = plant._engine.ensure(context, 3)
    B = int(ball.index())
    k_B = plant._topology.mobod_of_body[B]
    bodies = np.array([[0, B, 0, k_B]], dtype=np.int64)
    nhat = np.array([0.0, 0.6, 0.8])
    pairs = np.hstack(([0.01], nhat, [0.5, 0, 1.0], [0.5, 0, 1.0]))[None, :]
    par = np.array([[1e4, 2.0, 0.8, 0.5]])
    info, kept, F = np.zeros((1, 8)), np.zeros(1, dtype=np.int64), np.zeros((2, 6))
    count = kernels(np.float64).drive_point_contact(
        plant._engine.mi, plant._engine.mf, plant._x(context), ec.ws, 0, bodies, pairs, par,
        1e4, info, kept, F, kernels(np.float64).address("stages_at"),
    )  # fmt: skip
    assert count == 1
    f_Bc = -100.0 * nhat
    np.testing.assert_allclose(info[0, :3], f_Bc, rtol=1e-15)
    np.testing.assert_allclose(info[0, 3:6], [0.5, 0, 1.0])
    np.testing.assert_allclose(F[0], 0.0)
    p_BoC = np.array([0.5, 0, 0.0])
    np.testing.assert_allclose(F[1], np.concatenate((np.cross(p_BoC, f_Bc), f_Bc)), atol=1e-13)


# ---- contact in plants --------------------------------------------------------------------------
def test_sphere_rests_at_mg_over_k():
    """A sphere dropped on a half space comes to rest at penetration m·g/k (k the pair's
    stiffness: two geometries of stiffness 2k)."""
    k, mass = 2e4, 2.0
    diagram, plant, _, ball, context, root = ball_on_ground(mass=mass, k=2 * k, d=20.0)
    set_ball(plant, context, 0.12)
    simulator = Simulator(diagram, root)
    simulator.get_mutable_integrator().set_target_accuracy(1e-6)
    simulator.AdvanceTo(2.0)
    z = plant.GetPositions(context)[6]
    assert 0.1 - z == pytest.approx(mass * G / k, rel=1e-4)
    results = plant.get_contact_results_output_port().Eval(context)
    assert results.num_point_pair_contacts() == 1
    info = results.point_pair_contact_info(0)
    np.testing.assert_allclose(
        info.contact_force() * (1 if info.bodyB_index() == ball.index() else -1),
        [0, 0, mass * G],
        rtol=1e-3,
        atol=1e-6,
    )


def test_contact_results_conventions():
    """fn = k·x·(1 + d·vn) with vn the approach speed, friction opposing slip with the dynamic
    coefficient well above the stiction tolerance, p_WC midway between the witness points,
    and generalized contact forces Jᵀ·F."""
    k, d, mass = 1e4, 3.0, 2.0
    _, plant, _, ball, context, _ = ball_on_ground(mass=mass, k=2 * k, d=d)
    set_ball(plant, context, 0.09, [0, 0, 0, 0.5, 0, -0.2])
    results = plant.get_contact_results_output_port().Eval(context)
    assert isinstance(results, ContactResults) and results.plant() is plant
    assert results.num_hydroelastic_contacts() == 0
    (info,) = [results.point_pair_contact_info(i) for i in range(1)]
    assert isinstance(info, PointPairContactInfo)
    pair = info.point_pair()
    ball_is_A = info.bodyA_index() == ball.index()
    assert {info.bodyA_index(), info.bodyB_index()} == {ball.index(), BodyIndex(0)}
    assert pair.depth == pytest.approx(0.01)
    vn = 0.2
    fn = k * 0.01 * (1 + d * vn)
    assert info.separation_speed() == pytest.approx(vn)
    assert info.slip_speed() == pytest.approx(0.5)
    f_on_ball = np.array([-0.6 * fn, 0, fn])  # μd = 0.6 (0.5 m/s ≫ 1e-4 m/s)
    np.testing.assert_allclose(info.contact_force(), -f_on_ball if ball_is_A else f_on_ball)
    np.testing.assert_allclose(info.contact_point(), (pair.p_WCa + pair.p_WCb) / 2)
    np.testing.assert_allclose(info.contact_point(), [0, 0, -0.005], atol=1e-15)
    # Generalized forces: the ball's force at C, as a spatial force at its origin, in its
    # floating joint's coordinates ([w in the body frame (identity here); v in World]).
    p_BoC = np.array([0, 0, -0.095])
    tau = np.concatenate((np.cross(p_BoC, f_on_ball), f_on_ball))
    port = plant.get_generalized_contact_forces_output_port(ball.model_instance())
    np.testing.assert_allclose(port.Eval(context), tau, atol=1e-12)
    # And v̇ = M⁻¹·(τ_g + τ_contact).
    M = plant.CalcMassMatrix(context)
    expected = np.linalg.solve(M, plant.CalcGravityGeneralizedForces(context) + tau)
    np.testing.assert_allclose(plant.EvalTimeDerivatives(context).CopyToVector()[7:], expected)


def test_no_contact_when_apart_or_pulling():
    """No results, no force: apart, or with fn = k·x·(1 + d·vn) ≤ 0 (separating fast)."""
    _, plant, _, ball, context, _ = ball_on_ground(k=2e4, d=10.0)
    set_ball(plant, context, 0.2)
    assert plant.get_contact_results_output_port().Eval(context).num_point_pair_contacts() == 0
    set_ball(plant, context, 0.095, [0, 0, 0, 0, 0, 0.2])  # 1 + d·vn = 1 − 2 < 0
    assert plant.get_contact_results_output_port().Eval(context).num_point_pair_contacts() == 0
    port = plant.get_generalized_contact_forces_output_port(ball.model_instance())
    np.testing.assert_array_equal(port.Eval(context), np.zeros(6))


def test_defaults_from_scene_graph_and_plant_estimates():
    """Without materials, a geometry's stiffness and dissipation are SceneGraph's defaults
    (1e6, 50) or, when those are None, the plant's estimates (2·m·g/δ, √(δ/g)/δ)."""
    _, plant, _, _, context, _ = ball_on_ground(friction=None, ground=ProximityProperties())
    set_ball(plant, context, 0.099)
    info = plant.get_contact_results_output_port().Eval(context).point_pair_contact_info(0)
    assert abs(info.contact_force()[2]) == pytest.approx(0.5e6 * 1e-3)

    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    config = SceneGraphConfig()
    config.default_proximity_properties.point_stiffness = None
    config.default_proximity_properties.hunt_crossley_dissipation = None
    scene_graph.set_config(config)
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(2.0, 0.1))
    plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(0.1), "b", ProximityProperties())
    plant.RegisterCollisionGeometry(
        plant.world_body(), RigidTransform(), HalfSpace(), "g", ProximityProperties()
    )
    plant.Finalize()
    context = plant.GetMyContextFromRoot(builder.Build().CreateDefaultContext())
    set_ball(plant, context, 0.099, [0, 0, 0, 0, 0, -0.1])
    info = plant.get_contact_results_output_port().Eval(context).point_pair_contact_info(0)
    k = 2.0 * G / 1e-3
    d = np.sqrt(1e-3 / G) / 1e-3
    assert abs(info.contact_force()[2]) == pytest.approx(k * 1e-3 * (1 + d * 0.1))


def test_defaults_follow_each_new_scene_graph_config():
    """A geometry without its own stiffness gets the default of SceneGraph's config as it is
    when the contact is computed, also when the new config is made where a config read before
    was freed: the plant's contact table is kept per config object, not per id() (a freed
    config's id is reused by the next one: the table of stiffness 1e5 was used for 4e5 in
    98 of 100 tries before)."""
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(2.0, 0.1))
    plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(0.1), "b", ProximityProperties())
    plant.RegisterCollisionGeometry(
        plant.world_body(), RigidTransform(), HalfSpace(), "g", ProximityProperties()
    )
    plant.Finalize()
    diagram = builder.Build()

    def force(k):
        config = SceneGraphConfig()
        config.default_proximity_properties.point_stiffness = k
        config.default_proximity_properties.hunt_crossley_dissipation = 0.0
        scene_graph.set_config(config)
        context = plant.GetMyContextFromRoot(diagram.CreateDefaultContext())
        set_ball(plant, context, 0.099)
        results = plant.get_contact_results_output_port().Eval(context)
        return results.point_pair_contact_info(0).contact_force()[2]

    for _ in range(10):
        assert abs(force(1e5)) == pytest.approx(0.5e5 * 1e-3)
        scene_graph.set_config(SceneGraphConfig())  # (freed by the next one: its id reused)
        assert abs(force(4e5)) == pytest.approx(2e5 * 1e-3)


def test_hydroelastic_pairs():
    """A compliant ball on a rigid half space: NotImplementedError naming both geometries
    under kHydroelasticWithFallback; under kPoint a point pair; under kHydroelastic a pair
    without hydroelastic properties raises Drake's error."""
    soft, rigid = ProximityProperties(), ProximityProperties()
    AddCompliantHydroelasticProperties(0.05, 1e6, soft)
    AddRigidHydroelasticProperties(rigid)

    def build(model, ball_properties, ground_properties):
        builder = DiagramBuilder()
        plant, _ = AddMultibodyPlantSceneGraph(builder, 0.0)
        plant.set_contact_model(model)
        ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        plant.RegisterCollisionGeometry(
            ball, RigidTransform(), Sphere(0.1), "ball", ball_properties
        )
        plant.RegisterCollisionGeometry(
            plant.world_body(), RigidTransform(), HalfSpace(), "ground", ground_properties
        )
        plant.Finalize()
        context = plant.GetMyContextFromRoot(builder.Build().CreateDefaultContext())
        set_ball(plant, context, 0.09)
        return plant, context

    plant, context = build(ContactModel.kHydroelasticWithFallback, soft, rigid)
    with pytest.raises(NotImplementedError, match="'ball' .* and 'ground' .* hydroelastic"):
        plant.EvalTimeDerivatives(context)
    plant, context = build(ContactModel.kPoint, soft, rigid)
    assert plant.get_contact_results_output_port().Eval(context).num_point_pair_contacts() == 1
    plant, context = build(ContactModel.kHydroelasticWithFallback, rigid, rigid)
    assert plant.get_contact_results_output_port().Eval(context).num_point_pair_contacts() == 1
    plant, context = build(ContactModel.kHydroelastic, ProximityProperties(), rigid)
    with pytest.raises(RuntimeError, match="without hydroelastic representation.*'ball'"):
        plant.EvalTimeDerivatives(context)
    plant, context = build(ContactModel.kHydroelastic, rigid, rigid)
    with pytest.raises(RuntimeError, match="two rigid objects"):
        plant.get_contact_results_output_port().Eval(context)


def test_negative_property_values():
    """Stiffness or dissipation set negative through AddProperty: an error naming the
    geometry."""
    bad = ProximityProperties()
    bad.AddProperty("material", "point_contact_stiffness", -5.0)
    _, plant, _, _, context, _ = ball_on_ground(ground=bad)
    set_ball(plant, context, 0.09)
    with pytest.raises(RuntimeError, match="'point_contact_stiffness'.* geometry 'ground'"):
        plant.EvalTimeDerivatives(context)


@pytest.mark.parametrize("approximation", ["kSap", "kSimilar", "kLagged", "kTamsi"])
def test_discrete_sphere_comes_to_rest(approximation):
    """A discrete plant: the sphere dropped on the half space comes to rest carried by its
    contact, m·g up (Jᵀ·γ/h in the generalized contact forces), at the penetration m·g/k for
    the Hunt–Crossley approximations and TAMSI."""
    from mallard.multibody.plant import DiscreteContactApproximation

    k, mass = 2e4, 2.0
    builder_args = dict(time_step=1e-3, mass=mass, k=2 * k, d=20.0)
    diagram, plant, _, ball, context, root = ball_on_ground(
        **builder_args, approximation=approximation
    )
    assert plant.get_discrete_contact_approximation() == getattr(
        DiscreteContactApproximation, approximation
    )
    set_ball(plant, context, 0.12)
    Simulator(diagram, root).AdvanceTo(1.0)
    z = plant.GetPositions(context)[6]
    if approximation != "kSap":
        assert 0.1 - z == pytest.approx(mass * G / k, rel=1e-6)
    results = plant.get_contact_results_output_port().Eval(context)
    info = results.point_pair_contact_info(0)
    sign = 1 if info.bodyB_index() == ball.index() else -1
    np.testing.assert_allclose(sign * info.contact_force(), [0, 0, mass * G], rtol=1e-4, atol=1e-9)
    port = plant.get_generalized_contact_forces_output_port(ball.model_instance())
    np.testing.assert_allclose(port.Eval(context), [0, 0, 0, 0, 0, mass * G], rtol=1e-4, atol=1e-9)


@pytest.mark.parametrize("approximation", ["kLagged", "kTamsi"])
def test_cloned_context_keeps_the_step_contacts(approximation):
    """A Context cloned after a discrete contact step (as the Simulator clones a state for an
    unrestricted update) gives the same contact results, and its step memory refers to the
    same plant and proximity model (a clone copies the step's arrays, not the model)."""
    diagram, plant, _, ball, context, root = ball_on_ground(
        time_step=1e-3, k=4e4, d=20.0, approximation=approximation
    )
    set_ball(plant, context, 0.099)
    Simulator(diagram, root).AdvanceTo(0.01)
    clone = root.Clone()
    results = plant.get_contact_results_output_port().Eval(context)
    cloned = plant.get_contact_results_output_port().Eval(plant.GetMyContextFromRoot(clone))
    assert results.num_point_pair_contacts() == cloned.num_point_pair_contacts() == 1
    a, b = results.point_pair_contact_info(0), cloned.point_pair_contact_info(0)
    np.testing.assert_array_equal(a.contact_force(), b.contact_force())
    assert b.contact_force()[2] != 0.0
    memories = [
        value.get_value()
        for c in (context, plant.GetMyContextFromRoot(clone))
        for value in c._state._abstract._values
        if type(value.get_value()).__name__ == "DiscreteStepMemory"
    ]
    original, copied = (m.contacts for m in memories)
    assert copied is not original and copied.plant is original.plant is plant
    assert copied.pairs.model is original.pairs.model
    np.testing.assert_array_equal(copied.J, original.J)


def test_tamsi_steps_into_and_out_of_contact():
    """TAMSI: no contact results in the air, one pair once the ball touches the ground; the
    free-fall step is v0 + h·g."""
    from mallard.multibody.plant import DiscreteContactApproximation, DiscreteContactSolver

    diagram, plant, _, _, context, root = ball_on_ground(time_step=1e-3, approximation="kTamsi")
    assert plant.get_discrete_contact_solver() == DiscreteContactSolver.kTamsi
    assert plant.get_discrete_contact_approximation() == DiscreteContactApproximation.kTamsi
    set_ball(plant, context, 0.5)
    simulator = Simulator(diagram, root)
    simulator.AdvanceTo(0.01)
    assert plant.get_contact_results_output_port().Eval(context).num_point_pair_contacts() == 0
    assert plant.GetVelocities(context)[5] == pytest.approx(-G * 0.01, rel=1e-12)
    set_ball(plant, context, 0.099)
    simulator.AdvanceTo(0.02)
    assert plant.get_contact_results_output_port().Eval(context).num_point_pair_contacts() == 1


def test_missing_geometry_input():
    """A plant with collision geometry, its query input port not connected: Drake's error,
    naming what was evaluated."""
    scene_graph = SceneGraph()
    plant = MultibodyPlant(0.0)
    plant.RegisterAsSourceForSceneGraph(scene_graph)
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(0.1), "b", CoulombFriction())
    plant.Finalize()
    context = plant.CreateDefaultContext()
    with pytest.raises(RuntimeError, match="^You've tried evaluating time derivatives"):
        plant.EvalTimeDerivatives(context)
    with pytest.raises(RuntimeError, match="(?s)'contact_results' output port.*query input port"):
        plant.get_contact_results_output_port().Eval(context)


def test_plant_config_contact_fields_take_effect():
    from mallard.multibody.plant import ApplyMultibodyPlantConfig, MultibodyPlantConfig

    plant = MultibodyPlant(0.0)
    plant.AddRigidBody("b", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    config = MultibodyPlantConfig(
        time_step=0.0, penetration_allowance=4e-3, stiction_tolerance=2e-3, contact_model="point"
    )
    ApplyMultibodyPlantConfig(config, plant)
    assert plant.get_contact_model() == ContactModel.kPoint
    assert plant._stiction_tolerance == 2e-3
    plant.Finalize()
    plant.set_penetration_allowance(plant._penetration_allowance)  # (estimates from it)
    assert plant.get_contact_penalty_method_time_scale() == pytest.approx(np.sqrt(4e-3 / G))
    with pytest.raises(RuntimeError, match="Unknown contact_model 'soft'"):
        ApplyMultibodyPlantConfig(
            MultibodyPlantConfig(time_step=0.0, contact_model="soft"), MultibodyPlant(0.0)
        )


def test_pairs_of_locked_trees_are_dropped():
    """As Drake: a pair whose bodies' trees have no unlocked dof is no contact."""
    _, plant, _, ball, context, _ = ball_on_ground(k=2e4)
    set_ball(plant, context, 0.09)
    port = plant.get_contact_results_output_port()
    assert port.Eval(context).num_point_pair_contacts() == 1
    joint = plant.GetJointByName("ball")
    joint.Lock(context)
    assert port.Eval(context).num_point_pair_contacts() == 0
    np.testing.assert_array_equal(plant.EvalTimeDerivatives(context).CopyToVector()[7:], 0.0)
    joint.Unlock(context)
    assert port.Eval(context).num_point_pair_contacts() == 1


def test_autodiff_time_derivatives_match_finite_differences():
    """A continuous plant's contact in AutoDiffXd (the kernel interpreted on the query's
    AutoDiffXd pairs): ∂ẋ/∂x equals central differences of the double plant's, sliding
    (μd) and approaching."""
    from mallard.autodiffutils import ExtractGradient, ExtractValue, InitializeAutoDiff

    diagram, plant, _, _, context, root = ball_on_ground(k=2e4, d=3.0)
    x0 = np.array([0.9, 0.1, 0.3, 0.3, 0.01, -0.02, 0.095, 0.2, -0.1, 0.3, 0.4, 0.1, -0.2])
    ad = diagram.ToAutoDiffXd()
    ad_plant = ad.GetSubsystemByName("plant")
    ad_context = ad_plant.GetMyContextFromRoot(ad.CreateDefaultContext())
    ad_plant.SetPositionsAndVelocities(ad_context, InitializeAutoDiff(x0))
    xdot = ad_plant.EvalTimeDerivatives(ad_context).CopyToVector()

    def f(x):
        plant.SetPositionsAndVelocities(context, x)
        return plant.EvalTimeDerivatives(context).CopyToVector()

    np.testing.assert_allclose(ExtractValue(xdot).ravel(), f(x0), rtol=1e-12)
    eps = 1e-7
    fd = np.column_stack([(f(x0 + eps * e) - f(x0 - eps * e)) / (2 * eps) for e in np.eye(13)])
    np.testing.assert_allclose(ExtractGradient(xdot), fd, rtol=1e-5, atol=1e-3)
