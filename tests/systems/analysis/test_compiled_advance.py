"""The Simulator's compiled advance (systems.analysis._compiled_advance): the iterations it
takes in one compiled call give the same times, states, outputs and statistics, to the last
bit, as the same Simulator taking every iteration in Python; it is used where it applies and
left aside where it does not; an iteration that fails is taken (and raises) in Python."""

import math
import re
from pathlib import Path

import numpy as np
import pytest

import mallard.models
from mallard.geometry import SceneGraph
from mallard.models import MakeAcrobotPlant
from mallard.multibody.math import SpatialForce
from mallard.multibody.parsing import Parser
from mallard.multibody.plant import ExternallyAppliedSpatialForce, MultibodyPlant
from mallard.multibody.tree import (
    PdControllerGains,
    RevoluteJoint,
    SpatialInertia,
    UnitInertia,
)
from mallard.systems.analysis import (
    ApplySimulatorConfig,
    RungeKutta3Integrator,
    Simulator,
    SimulatorConfig,
)
from mallard.systems.framework import DiagramBuilder
from mallard.systems.primitives import ConstantVectorSource, LogVectorOutput, Sine

ACROBOT_URDF = str(Path(mallard.models.__file__).parent / "acrobot.urdf")


# ---- models ------------------------------------------------------------------------------------
def acrobot(time_step):
    return MakeAcrobotPlant(time_step=time_step)


def limited_pair(time_step, coupled=True, approximation=None):
    """Two pendulums on revolute joints with tight limits, the second coupled to the first
    (q₁ = 0.5·q₀) unless ``coupled`` is False: SAP's limit and coupler constraints."""
    plant = MultibodyPlant(time_step)
    if approximation is not None:
        plant.set_discrete_contact_approximation(approximation)
    inertia = SpatialInertia(1.0, [0.0, 0.0, -0.5], UnitInertia(0.3, 0.3, 0.01))
    joints = []
    for i in range(2):
        body = plant.AddRigidBody(f"link{i}", inertia)
        joint = RevoluteJoint(f"joint{i}", plant.world_frame(), body.body_frame(), [0, 1, 0])
        joint.set_position_limits([-0.3], [0.25])
        joints.append(plant.AddJoint(joint))
        plant.AddJointActuator(f"motor{i}", joints[-1])
    if time_step > 0 and coupled:
        plant.AddCouplerConstraint(joints[1], joints[0], 0.5)
    plant.Finalize()
    return plant


def free_body(time_step):
    """A free body (quaternion floating joint: q̇ = N(q)·v, N ≠ I) under gravity."""
    plant = MultibodyPlant(time_step)
    plant.AddRigidBody("box", SpatialInertia.SolidBoxWithMass(2.0, 0.1, 0.2, 0.3))
    plant.Finalize()
    return plant


def initial_state(plant):
    """A state away from rest: positions offset, velocities nonzero."""
    if plant.num_positions() == 13:  # (free body: unit quaternion, then position)
        return np.array([0.6, 0.0, 0.8, 0.0, 0.1, 0.2, 0.3] + [1.0, -2.0, 3.0, 0.1, 0.2, 0.3])
    n = plant.num_positions()
    return np.concatenate((np.full(n, 0.2), np.linspace(1.0, 2.0, plant.num_velocities())))


# ---- running the same simulation both ways -------------------------------------------------------
def simulate(make, time_step, compiled, *, config=None, duration=0.35, boundaries=None,
             logger_period=None, source=None, hook=None):  # fmt: skip
    """Simulates make(time_step) (alone, or in a Diagram with a SceneGraph when a logger or
    a source is asked for) and returns everything observable: time, state, statistics, the
    plant's outputs and the log."""
    if logger_period is None and source is None:
        plant = make(time_step)
        diagram, logger = plant, None
    else:
        builder = DiagramBuilder()
        plant = builder.AddSystem(make(time_step))
        builder.AddSystem(SceneGraph())
        logger = None
        if logger_period is not None:
            logger = LogVectorOutput(plant.get_state_output_port(), builder, logger_period)
        if source is not None:
            system = builder.AddSystem(source(plant))
            builder.Connect(system.get_output_port(0), plant.get_actuation_input_port())
        diagram = builder.Build()
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    plant.SetPositionsAndVelocities(plant_context, initial_state(plant))
    if source is None:
        u = np.linspace(-0.5, 0.5, plant.num_actuators())
        plant.get_actuation_input_port().FixValue(plant_context, u)
    if config is not None and time_step == 0:
        ApplySimulatorConfig(config, simulator)
    if hook is not None:
        hook(simulator, plant, plant_context)
    simulator.Initialize()
    if not compiled:
        simulator._compiled = None
    before = _PYTHON_STEPS[0]
    for boundary in boundaries or [duration]:
        simulator.AdvanceTo(boundary)
    python_steps = _PYTHON_STEPS[0] - before
    integrator = simulator.get_integrator()
    result = {
        "time": context.get_time(),
        "x": plant.GetPositionsAndVelocities(plant_context),
        "steps": simulator.get_num_steps_taken(),
        "updates": (simulator.get_num_discrete_updates(), simulator.get_num_unrestricted_updates()),
        "publishes": simulator.get_num_publishes(),
        "integrator": [(name, float(value)) for name, value in integrator.GetStatisticsSummary()],
        "ideal": float(integrator.get_ideal_next_step_size()),
        "previous": float(integrator.get_previous_integration_step_size()),
        "vdot": plant.get_generalized_acceleration_output_port().Eval(plant_context),
        "net": plant.get_net_actuation_output_port().Eval(plant_context),
    }
    if time_step > 0:  # (the last SAP solve's statistics)
        found = plant._engine.cache(plant_context).lookup("sap_problem", 0)
        result["sap"] = found[0].statistics() if found is not None else None  # (problem, bodies)
    if logger is not None:
        log = logger.FindLog(context)
        result["log"] = (log.sample_times().copy(), log.data().copy())
    return result, python_steps


def assert_same(a, b):
    """The results ``a`` and ``b`` of :func:`simulate` are the same."""
    a, b = a[0], b[0]
    assert a.keys() == b.keys()
    for key in a:
        if key == "log":
            np.testing.assert_array_equal(a[key][0], b[key][0])
            np.testing.assert_array_equal(a[key][1], b[key][1])
        elif isinstance(a[key], np.ndarray):
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
        else:
            assert repr(a[key]) == repr(b[key]), key  # (NaN statistics equal too)


#: The plant's steps and derivative evaluations taken in Python (counted by the fixture).
_PYTHON_STEPS = [0]


@pytest.fixture(autouse=True)
def count_python_steps(monkeypatch):
    for name in ("_calc_discrete_step", "_time_derivatives"):
        original = getattr(MultibodyPlant, name)

        def counted(plant, *args, _original=original, **kwargs):
            _PYTHON_STEPS[0] += 1
            return _original(plant, *args, **kwargs)

        monkeypatch.setattr(MultibodyPlant, name, counted)


RK3 = SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-4)
CONFIGS = {
    "rk3": RK3,
    "rk3 fixed": SimulatorConfig(
        integration_scheme="runge_kutta3", max_step_size=2e-3, use_error_control=False
    ),
    "rk2": SimulatorConfig(integration_scheme="runge_kutta2", max_step_size=1e-3),
    "euler": SimulatorConfig(integration_scheme="explicit_euler", max_step_size=1e-3),
}


# ---- the same results ------------------------------------------------------------------------
@pytest.mark.parametrize("make", [acrobot, limited_pair, free_body])
def test_discrete_plants(make):
    python = simulate(make, 1e-3, compiled=False)
    compiled = simulate(make, 1e-3, compiled=True)
    assert_same(compiled, python)
    assert compiled[0]["updates"] == (0, 350)
    assert python[1] == 350 and compiled[1] == 0
    if make is limited_pair:
        assert compiled[0]["sap"]["num_iters"] > 0


def test_discrete_update_without_sampled_output_ports():
    def make(time_step):
        plant = MultibodyPlant(time_step)
        plant.SetUseSampledOutputPorts(False)
        Parser(plant).AddModels(ACROBOT_URDF)
        plant.Finalize()
        return plant

    python = simulate(make, 1e-3, compiled=False)
    compiled = simulate(make, 1e-3, compiled=True)
    assert_same(compiled, python)
    assert compiled[0]["updates"] == (350, 0)
    assert python[1] == 350 and compiled[1] == 0


@pytest.mark.parametrize("make", [acrobot, free_body])
@pytest.mark.parametrize("scheme", list(CONFIGS))
def test_continuous_plants(make, scheme):
    python = simulate(make, 0.0, compiled=False, config=CONFIGS[scheme])
    compiled = simulate(make, 0.0, compiled=True, config=CONFIGS[scheme])
    assert_same(compiled, python)
    assert python[1] > 0 and compiled[1] == 0


@pytest.mark.parametrize("time_step", [0.0, 1e-3])
def test_diagrams_with_a_logger_and_a_constant_source(time_step):
    """Plant, SceneGraph, a logger every 10 ms (its publishes end the compiled iterations)
    and the actuation from a ConstantVectorSource; AdvanceTo in pieces off the update
    times."""
    options = dict(
        config=RK3,
        logger_period=0.01,
        source=lambda plant: ConstantVectorSource([0.3] * plant.num_actuators()),
        boundaries=[0.0105, 0.0105, 0.2, 0.31234, 0.35],
    )
    python = simulate(limited_pair if time_step else acrobot, time_step, False, **options)
    compiled = simulate(limited_pair if time_step else acrobot, time_step, True, **options)
    assert_same(compiled, python)
    assert compiled[0]["publishes"] == python[0]["publishes"] > 30
    assert python[1] > 0 and compiled[1] == 0


def test_an_error_controlled_step_below_the_minimum_raises_as_in_python():
    def hook(simulator, plant, context):
        integrator = simulator.get_mutable_integrator()
        integrator.set_requested_minimum_step_size(0.01)
        integrator.request_initial_step_size_target(0.02)
        integrator.set_target_accuracy(1e-9)

    message = "Error control wants to select step smaller than minimum allowed (0.01)"
    for compiled in (False, True):
        with pytest.raises(RuntimeError, match=re.escape(message)):
            simulate(acrobot, 0.0, compiled, config=RK3, hook=hook)


def test_a_failing_step_raises_as_in_python():
    def hook(simulator, plant, context):
        plant.get_joint(plant.GetJointIndices()[0])  # (the joints are fine)
        parameters = plant._mutable_parameters(context)
        parameters.mass[:] = -1.0  # M is not positive definite

    for compiled in (False, True):
        with pytest.raises(RuntimeError, match="positive"):
            simulate(limited_pair, 1e-3, compiled, hook=hook)


# ---- where it is left aside ---------------------------------------------------------------------
def _monitor(simulator, plant, context):
    simulator.set_monitor(lambda root: None)


def _spatial_force(simulator, plant, context):
    force = ExternallyAppliedSpatialForce()
    force.body_index = plant.GetBodyByName("link2").index()
    force.F_Bq_W = SpatialForce([0.0, 0.1, 0.0], [1.0, 0.0, 0.0])
    plant.get_applied_spatial_force_input_port().FixValue(context, [force])


def _rk5(simulator, plant, context):
    ApplySimulatorConfig(SimulatorConfig(integration_scheme="runge_kutta5"), simulator)


@pytest.mark.parametrize("hook", [_monitor, _spatial_force, _rk5])
def test_left_to_python(hook):
    python = simulate(acrobot, 0.0, compiled=False, config=RK3, hook=hook)
    compiled = simulate(acrobot, 0.0, compiled=True, config=RK3, hook=hook)
    assert_same(compiled, python)
    assert compiled[1] == python[1] > 0


def test_pd_controlled_plant_compiled():
    """A desired state fixed (constant between events): SAP's PD constraints, compiled; the
    net actuation from their impulses."""

    def desired(simulator, plant, context):
        instance = plant.GetJointByName("joint").model_instance()
        plant.get_desired_state_input_port(instance).FixValue(context, [0.3, 0.0])

    python = simulate(pd_pendulum, 1e-3, compiled=False, hook=desired)
    compiled = simulate(pd_pendulum, 1e-3, compiled=True, hook=desired)
    assert_same(compiled, python)
    assert compiled[1] == 0 and python[1] == 350


def test_pd_controlled_continuous_plant_left_to_python():
    def desired(simulator, plant, context):
        instance = plant.GetJointByName("joint").model_instance()
        plant.get_desired_state_input_port(instance).FixValue(context, [0.3, 0.0])

    python = simulate(pd_pendulum, 0.0, compiled=False, config=RK3, hook=desired)
    compiled = simulate(pd_pendulum, 0.0, compiled=True, config=RK3, hook=desired)
    assert_same(compiled, python)
    assert compiled[1] == python[1] > 0


def pd_pendulum(time_step):
    """A pendulum whose actuator has PD gains."""
    plant = MultibodyPlant(time_step)
    body = plant.AddRigidBody("link", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 1.0))
    joint = plant.AddJoint(
        RevoluteJoint("joint", plant.world_frame(), body.body_frame(), [0, 1, 0])
    )
    plant.AddJointActuator("motor", joint).set_controller_gains(PdControllerGains(p=10, d=1))
    plant.Finalize()
    return plant


def test_pd_gains_without_desired_state_compiled():
    """Without a desired state, the PD-controlled actuator's input acts on nothing (Drake's
    SAP free motion): the compiled steps take it so."""
    python = simulate(pd_pendulum, 1e-3, compiled=False)
    compiled = simulate(pd_pendulum, 1e-3, compiled=True)
    assert_same(compiled, python)
    assert compiled[1] == 0 and python[1] == 350


def test_tamsi_left_to_python():
    """TAMSI's joint limits are penalty forces computed in Python."""
    from mallard.multibody.plant import DiscreteContactApproximation

    def make(time_step):
        return limited_pair(time_step, False, DiscreteContactApproximation.kTamsi)

    python = simulate(make, 1e-3, compiled=False)
    compiled = simulate(make, 1e-3, compiled=True)
    assert_same(compiled, python)
    assert compiled[1] == python[1] == 350


def test_body_constraints_left_to_python():
    """A distance constraint's rows are computed in Python at each step."""
    import mallard.all
    from tests.multibody.plant.constraint_models import distance_pendulum

    plant, q0 = distance_pendulum(mallard.all)

    def start(simulator, plant, context):
        plant.SetPositions(context, q0)

    python = simulate(lambda time_step: plant, 1e-3, compiled=False, hook=start)
    compiled = simulate(lambda time_step: plant, 1e-3, compiled=True, hook=start)
    assert_same(compiled, python)
    assert compiled[1] == python[1] == 350


def test_time_varying_input_left_to_python():
    """An input from a Sine (its output depends on time) changes between events."""
    options = dict(config=RK3, source=lambda plant: Sine(1.0, 5.0, 0.0, plant.num_actuators()))
    python = simulate(acrobot, 0.0, False, **options)
    compiled = simulate(acrobot, 0.0, True, **options)
    assert_same(compiled, python)
    assert compiled[1] == python[1] > 0


def test_input_fixed_again_between_advances():
    """A value fixed anew between AdvanceTo calls is taken by the next compiled iterations."""
    outcomes = []
    for compiled in (False, True):
        plant = acrobot(1e-3)
        simulator = Simulator(plant)
        context = simulator.get_mutable_context()
        plant.SetPositions(context, [0.5, 0.2])
        port = plant.get_actuation_input_port()
        port.FixValue(context, [0.0])
        simulator.Initialize()
        if not compiled:
            simulator._compiled = None
        simulator.AdvanceTo(0.1)
        port.FixValue(context, [2.0])
        simulator.AdvanceTo(0.2)
        outcomes.append(plant.GetPositionsAndVelocities(context))
    np.testing.assert_array_equal(outcomes[0], outcomes[1])


def test_the_integrator_keeps_working_after_compiled_iterations():
    """After compiled iterations the integrator continues in Python (a monitor set between
    AdvanceTo calls) exactly as if it had taken them itself."""
    results = []
    for compiled in (False, True):
        plant = acrobot(0.0)
        simulator = Simulator(plant)
        context = simulator.get_mutable_context()
        plant.SetPositions(context, [2.5, 0.5])
        plant.get_actuation_input_port().FixValue(context, [0.0])
        simulator.Initialize()
        if not compiled:
            simulator._compiled = None
        simulator.AdvanceTo(0.5)
        simulator.set_monitor(lambda root: None)
        simulator.AdvanceTo(1.0)
        integrator = simulator.get_integrator()
        results.append(
            (context.get_time(), plant.GetPositionsAndVelocities(context).tolist())
            + (integrator.GetStatisticsSummary(), simulator.get_num_steps_taken())
        )
    assert repr(results[0]) == repr(results[1])
    assert isinstance(simulator.get_integrator(), RungeKutta3Integrator)
    assert math.isfinite(results[1][0])


# ---- point contact -------------------------------------------------------------------------------
def contact_scene(approximation, spheres=1, pd=False, hydroelastic=False):
    """A discrete plant (1 ms, kPoint unless ``hydroelastic``) in a Diagram with its SceneGraph:
    ``spheres`` spheres and a box dropped with sideways velocities on a half space (the box
    tilted, landing on a corner), and, with ``pd``, a pendulum whose PD-controlled actuator
    swings its sphere into the ground; returns (diagram, plant, x0, hook setting its inputs)."""
    from mallard.all import (
        AddCompliantHydroelasticProperties,
        AddContactMaterial,
        AddMultibodyPlantSceneGraph,
        AddRigidHydroelasticProperties,
        Box,
        ContactModel,
        CoulombFriction,
        HalfSpace,
        ProximityProperties,
        RigidTransform,
        RollPitchYaw,
        Sphere,
    )

    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 1e-3)
    if not hydroelastic:
        plant.set_contact_model(ContactModel.kPoint)
    plant.set_discrete_contact_approximation(approximation)
    friction = CoulombFriction(0.6, 0.5)
    ground = plant.RegisterCollisionGeometry(
        plant.world_body(), RigidTransform(), HalfSpace(), "ground", friction
    )
    for i in range(spheres):
        body = plant.AddRigidBody(f"ball{i}", SpatialInertia.SolidSphereWithMass(1.0, 0.05))
        plant.RegisterCollisionGeometry(body, RigidTransform(), Sphere(0.05), f"ball{i}", friction)
    box = plant.AddRigidBody("box", SpatialInertia.SolidBoxWithMass(0.5, 0.1, 0.15, 0.08))
    plant.RegisterCollisionGeometry(box, RigidTransform(), Box(0.1, 0.15, 0.08), "box", friction)
    if hydroelastic:  # (a compliant sphere resting on the box: a hydroelastic pair)
        properties = ProximityProperties()
        AddContactMaterial(friction=friction, properties=properties)
        AddCompliantHydroelasticProperties(0.01, 1e6, properties)
        soft = plant.AddRigidBody("soft", SpatialInertia.SolidSphereWithMass(0.1, 0.02))
        plant.RegisterCollisionGeometry(soft, RigidTransform(), Sphere(0.02), "soft", properties)
        properties = ProximityProperties()
        AddContactMaterial(friction=friction, properties=properties)
        AddRigidHydroelasticProperties(properties)
        plant.RegisterCollisionGeometry(
            box, RigidTransform([0.0, 0.0, -0.04]), Box(0.1, 0.1, 0.001), "plate", properties
        )
    if pd:
        link = plant.AddRigidBody("link", SpatialInertia.SolidSphereWithMass(1.0, 0.05))
        joint = plant.AddJoint(RevoluteJoint(
            "joint", plant.world_frame(), link.body_frame(), [0, 1, 0]
        ))  # fmt: skip
        plant.RegisterCollisionGeometry(
            link, RigidTransform([0.0, 0.0, -0.3]), Sphere(0.05), "tip", friction
        )
        actuator = plant.AddJointActuator("motor", joint)
        actuator.set_controller_gains(PdControllerGains(p=200.0, d=5.0))
        joint.set_default_angle(0.0)
    del ground
    plant.Finalize()
    diagram = builder.Build()
    x0 = np.zeros(plant.num_multibody_states())
    q0 = plant.GetDefaultPositions()
    v0 = np.zeros(plant.num_velocities())
    for i in range(spheres):
        body = plant.GetBodyByName(f"ball{i}")
        start = body.floating_positions_start()
        q0[start + 4 : start + 7] = [0.2 * i, 0.1, 0.052 if spheres == 1 else 0.049]
        v0[body.floating_velocities_start_in_v() + 3] = 0.5
    start = plant.GetBodyByName("box").floating_positions_start()
    q0[start : start + 4] = RollPitchYaw(0.3, 0.2, 0.1).ToQuaternion().wxyz()
    q0[start + 4 : start + 7] = [-0.3, 0.0, 0.1]
    if pd:
        q0[plant.GetJointByName("joint").position_start()] = 0.5
    if hydroelastic:  # (the box flat, the soft sphere touching its plate from below)
        q0[start : start + 4] = [1.0, 0.0, 0.0, 0.0]
        q0[start + 4 : start + 7] = [0.3, 0.0, 0.1]
        soft = plant.GetBodyByName("soft").floating_positions_start()
        q0[soft + 4 : soft + 7] = [0.3, 0.0, 0.1 - 0.04 - 0.0005 - 0.019]
    x0[: plant.num_positions()], x0[plant.num_positions() :] = q0, v0

    def inputs(context):
        if pd:
            instance = plant.GetJointByName("joint").model_instance()
            plant.get_desired_state_input_port(instance).FixValue(context, [-0.5, 0.0])
            plant.get_actuation_input_port(instance).FixValue(context, [0.3])

    return diagram, plant, x0, inputs


def simulate_contact(scene, compiled, duration=0.3, boundaries=None):
    """Simulates a contact_scene (built anew) and returns everything observable: time,
    state, statistics, the plant's contact results, generalized contact forces, accelerations,
    net actuation and reaction forces; and the steps taken in Python."""
    diagram, plant, x0, inputs = scene()
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    plant.SetPositionsAndVelocities(plant_context, x0)
    inputs(plant_context)
    simulator.Initialize()
    if not compiled:
        simulator._compiled = None
    before = _PYTHON_STEPS[0]
    for boundary in boundaries or [duration]:
        simulator.AdvanceTo(boundary)
    results = plant.get_contact_results_output_port().Eval(plant_context)
    infos = [results.point_pair_contact_info(i) for i in range(results.num_point_pair_contacts())]
    contact = np.array([
        np.concatenate((info.contact_force(), info.contact_point(),
                        [info.separation_speed(), info.slip_speed(), int(info.bodyA_index()),
                         int(info.bodyB_index())]))
        for info in infos
    ]).reshape(-1, 10)  # fmt: skip
    reactions = plant.get_reaction_forces_output_port().Eval(plant_context)
    found = plant._engine.cache(plant_context).lookup("sap_problem", 0)
    result = {
        "time": context.get_time(),
        "x": plant.GetPositionsAndVelocities(plant_context),
        "steps": simulator.get_num_steps_taken(),
        "updates": (simulator.get_num_discrete_updates(), simulator.get_num_unrestricted_updates()),
        "contact": contact,
        "tau_contact": plant.get_generalized_contact_forces_output_port(
            plant.GetModelInstanceByName("DefaultModelInstance")
        ).Eval(plant_context),
        "vdot": plant.get_generalized_acceleration_output_port().Eval(plant_context),
        "net": plant.get_net_actuation_output_port().Eval(plant_context),
        "reactions": np.array([F.get_coeffs() for F in reactions]).reshape(-1, 6),
        "sap": found[0].statistics() if found is not None else None,
    }
    return result, _PYTHON_STEPS[0] - before


APPROXIMATIONS = ("kSap", "kSimilar", "kLagged")


@pytest.mark.parametrize("approximation", APPROXIMATIONS)
def test_point_contact(approximation):
    """A sphere and a box landing, sliding and rolling on a half space: the compiled steps
    (the geometry query, the contact problem and SAP compiled) give the Python path's bits."""
    from mallard.multibody.plant import DiscreteContactApproximation

    def scene():
        return contact_scene(getattr(DiscreteContactApproximation, approximation))

    python = simulate_contact(scene, compiled=False, boundaries=[0.1234, 0.3])
    compiled = simulate_contact(scene, compiled=True, boundaries=[0.1234, 0.3])
    assert_same(compiled, python)
    assert python[1] == 300 and compiled[1] == 0
    assert len(compiled[0]["contact"]) == 2 and compiled[0]["sap"]["num_iters"] > 0


def test_point_contact_with_pd_controllers():
    """A PD-controlled pendulum (desired state and actuation fixed) swinging into the ground
    beside falling bodies: its PD constraints, the net actuation from their impulses."""
    from mallard.multibody.plant import DiscreteContactApproximation

    def scene():
        return contact_scene(DiscreteContactApproximation.kLagged, pd=True)

    python = simulate_contact(scene, compiled=False)
    compiled = simulate_contact(scene, compiled=True)
    assert_same(compiled, python)
    assert python[1] == 300 and compiled[1] == 0
    assert len(compiled[0]["contact"]) == 3


def test_more_contacts_than_the_tables_hold():
    """Twelve spheres on the ground: the first step with more contacts than the compiled
    step's tables hold is taken in Python, which grows them; the others compiled."""
    from mallard.multibody.plant import DiscreteContactApproximation

    def scene():
        return contact_scene(DiscreteContactApproximation.kSap, spheres=12)

    python = simulate_contact(scene, compiled=False, duration=0.05)
    compiled = simulate_contact(scene, compiled=True, duration=0.05)
    assert_same(compiled, python)
    assert python[1] == 50 and 0 < compiled[1] < 5
    assert len(compiled[0]["contact"]) >= 12


def test_hydroelastic_pair_raises_as_in_python():
    """A pair the contact model would make hydroelastic is left to Python, which raises."""
    from mallard.multibody.plant import DiscreteContactApproximation

    def scene():
        return contact_scene(DiscreteContactApproximation.kLagged, hydroelastic=True)

    for compiled in (False, True):
        with pytest.raises(NotImplementedError, match="hydroelastic"):
            simulate_contact(scene, compiled)


def test_tamsi_contact_left_to_python():
    from mallard.multibody.plant import DiscreteContactApproximation

    def scene():
        return contact_scene(DiscreteContactApproximation.kTamsi)

    python = simulate_contact(scene, compiled=False, duration=0.05)
    compiled = simulate_contact(scene, compiled=True, duration=0.05)
    assert_same(compiled, python)
    assert compiled[1] == python[1] == 50
