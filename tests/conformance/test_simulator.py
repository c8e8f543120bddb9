"""The Simulator, integrators and primitives against pydrake on the same diagrams: logged
sample times and data of discrete, continuous and mixed systems, the order of event handler
calls, statuses, every integration scheme's steps, and the acrobot simulated passively."""

import importlib
import types

import numpy as np
import pytest

pytest.importorskip("pydrake")


def _library(prefix):
    ns = types.SimpleNamespace(name=prefix)
    for module in ("systems.framework", "systems.analysis", "systems.primitives"):
        mod = importlib.import_module(f"{prefix}.{module}")
        for key in dir(mod):
            if not key.startswith("_"):
                setattr(ns, key, getattr(mod, key))
    ns.plant = importlib.import_module(f"{prefix}.multibody.plant")
    ns.parsing = importlib.import_module(f"{prefix}.multibody.parsing")
    ns.PiecewisePolynomial = importlib.import_module(f"{prefix}.trajectories").PiecewisePolynomial
    return ns


DRAKE, MALLARD = _library("pydrake"), _library("mallard")
BOTH = pytest.mark.parametrize("lib", [DRAKE, MALLARD], ids=["pydrake", "mallard"])


def both(function, *args, **kwargs):
    return function(DRAKE, *args, **kwargs), function(MALLARD, *args, **kwargs)


# ---- systems, written once for both libraries -------------------------------------------------
def discrete_system(lib):
    class Discrete(lib.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareDiscreteState(1)
            self.DeclarePeriodicDiscreteUpdateEvent(0.1, 0.0, self.update)
            self.DeclareStateOutputPort("y", lib.DiscreteStateIndex(0))

        def update(self, context, discrete_state):
            discrete_state.set_value([context.get_discrete_state_vector()[0] + 1])

    return Discrete()


def continuous_system(lib, kind):
    class Continuous(lib.LeafSystem):
        def __init__(self):
            super().__init__()
            if kind == "decay":
                self.DeclareContinuousState(1)
            else:
                self.DeclareContinuousState(1, 1, 0)
            self.DeclareStateOutputPort("y", lib.ContinuousStateIndex(0))

        def DoCalcTimeDerivatives(self, context, derivatives):
            x = context.get_continuous_state_vector().CopyToVector()
            if kind == "decay":
                derivatives.get_mutable_vector().SetFromVector(-x)
            else:
                derivatives.get_mutable_vector().SetFromVector([x[1], -4 * x[0] - 0.1 * x[1]])

    return Continuous()


def everything_system(lib, log):
    """ẋ = 1 with a counter updated every 0.25 s, published every 0.25 s and every step,
    with initialization, per-step update and forced events, all logged."""

    class Everything(lib.LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareContinuousState(1)
            self.DeclareDiscreteState(1)
            self.DeclarePeriodicDiscreteUpdateEvent(0.25, 0.0, self.update)
            self.DeclarePerStepDiscreteUpdateEvent(self.per_step)
            self.DeclarePeriodicPublishEvent(0.25, 0.0, self.publish("pub"))
            self.DeclarePeriodicPublishEvent(0.1, 0.05, self.publish("pub2"))
            self.DeclarePerStepPublishEvent(self.publish("ps"))
            self.DeclareInitializationPublishEvent(self.publish("ip"))
            self.DeclareInitializationDiscreteUpdateEvent(self.init_update)
            self.DeclareForcedPublishEvent(self.publish("fp"))

        def DoCalcTimeDerivatives(self, context, derivatives):
            derivatives.get_mutable_vector().SetFromVector([1.0])

        def update(self, context, discrete_state):
            log.append(("upd", context.get_time(), discrete_state.get_value()[0]))
            discrete_state.set_value(discrete_state.get_value() + 100)

        def per_step(self, context, discrete_state):
            log.append(("psu", context.get_time(), context.get_discrete_state_vector()[0]))
            discrete_state.set_value(discrete_state.get_value() + 1)

        def init_update(self, context, discrete_state):
            log.append(("iu", context.get_time()))
            discrete_state.set_value([1000.0])

        def publish(self, label):
            def handler(context):
                x = context.get_continuous_state_vector()[0]
                log.append((label, context.get_time(), context.get_discrete_state_vector()[0], x))

            return handler

    return Everything()


def assert_logs_equal(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert a[0] == b[0] and len(a) == len(b), (a, b)
        np.testing.assert_allclose(a[1:], b[1:], rtol=0, atol=1e-13, err_msg=str((a, b)))


# ---- event timing ------------------------------------------------------------------------------
@pytest.mark.parametrize("period", [0.0, 0.1, 0.25, 0.03])
def test_logged_discrete_system(period):
    def run(lib):
        builder = lib.DiagramBuilder()
        system = builder.AddSystem(discrete_system(lib))
        logger = lib.LogVectorOutput(system.get_output_port(), builder, period)
        simulator = lib.Simulator(builder.Build())
        simulator.AdvanceTo(1.0)
        log = logger.FindLog(simulator.get_context())
        counts = (
            simulator.get_num_steps_taken(),
            simulator.get_num_publishes(),
            simulator.get_num_discrete_updates(),
        )
        return np.array(log.sample_times()), np.array(log.data()), counts

    (t_d, x_d, n_d), (t_m, x_m, n_m) = both(run)
    np.testing.assert_array_equal(t_m, t_d)
    np.testing.assert_array_equal(x_m, x_d)
    assert n_m == n_d


@pytest.mark.parametrize("kind", ["decay", "oscillator"])
@pytest.mark.parametrize("period", [0.0, 0.1])
def test_logged_continuous_system(kind, period):
    def run(lib):
        builder = lib.DiagramBuilder()
        system = builder.AddSystem(continuous_system(lib, kind))
        logger = lib.LogVectorOutput(system.get_output_port(), builder, period)
        simulator = lib.Simulator(builder.Build())
        simulator.get_mutable_context().SetContinuousState([1.0] * system.num_continuous_states())
        simulator.AdvanceTo(2.0)
        log = logger.FindLog(simulator.get_context())
        integrator = simulator.get_integrator()
        counts = (
            simulator.get_num_steps_taken(),
            integrator.get_num_steps_taken(),
            integrator.get_num_derivative_evaluations(),
            integrator.get_num_step_shrinkages_from_error_control(),
        )
        return np.array(log.sample_times()), np.array(log.data()), counts

    (t_d, x_d, n_d), (t_m, x_m, n_m) = both(run)
    assert n_m == n_d
    np.testing.assert_allclose(t_m, t_d, rtol=0, atol=1e-14)
    np.testing.assert_allclose(x_m, x_d, rtol=0, atol=1e-12)


def test_event_handler_order_in_a_mixed_system():
    def run(lib):
        log = []
        system = everything_system(lib, log)
        simulator = lib.Simulator(system)
        simulator.Initialize()
        log.append(("advance",))
        simulator.AdvanceTo(0.6)
        log.append(("pending",))
        simulator.AdvancePendingEvents()
        log.append(("counts", simulator.get_num_steps_taken(), simulator.get_num_publishes()))
        return log

    ours, theirs = run(MALLARD), run(DRAKE)
    assert_logs_equal(
        [e for e in ours if len(e) > 1 or e[0] in ("advance", "pending")],
        [e for e in theirs if len(e) > 1 or e[0] in ("advance", "pending")],
    )


def test_sampled_data_diagram_of_primitives():
    """Integrator, ZeroOrderHold, Gain and Adder: ẋ = −x + u, u = −x held every 0.1 s."""

    def run(lib):
        builder = lib.DiagramBuilder()
        integrator = builder.AddSystem(lib.Integrator([1.0]))
        gain = builder.AddSystem(lib.Gain(-1.0, 1))
        hold = builder.AddSystem(lib.ZeroOrderHold(0.1, 1, 0.05))
        adder = builder.AddSystem(lib.Adder(2, 1))
        builder.Connect(integrator.get_output_port(), gain.get_input_port())
        builder.Connect(gain.get_output_port(), hold.get_input_port())
        builder.Connect(gain.get_output_port(), adder.get_input_port(0))
        builder.Connect(hold.get_output_port(), adder.get_input_port(1))
        builder.Connect(adder.get_output_port(), integrator.get_input_port())
        per_step = lib.LogVectorOutput(integrator.get_output_port(), builder)
        held = lib.LogVectorOutput(hold.get_output_port(), builder, 0.1)
        simulator = lib.Simulator(builder.Build())
        simulator.AdvanceTo(1.0)
        context = simulator.get_context()
        return [
            np.array(x)
            for log in (per_step.FindLog(context), held.FindLog(context))
            for x in (log.sample_times(), log.data())
        ] + [simulator.get_num_steps_taken(), simulator.get_num_discrete_updates()]

    theirs, ours = both(run)
    assert ours[4:] == theirs[4:]
    for a, b in zip(ours[:4], theirs[:4], strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


def test_trajectory_source_logged():
    def run(lib):
        trajectory = lib.PiecewisePolynomial.FirstOrderHold(
            [0.0, 0.3, 1.0], np.array([[0.0, 1.0, -1.0], [2.0, 3.0, 3.0]])
        )
        builder = lib.DiagramBuilder()
        source = builder.AddSystem(lib.TrajectorySource(trajectory, 1))
        logger = lib.LogVectorOutput(source.get_output_port(), builder, 0.1)
        simulator = lib.Simulator(builder.Build())
        simulator.AdvanceTo(1.5)
        log = logger.FindLog(simulator.get_context())
        return np.array(log.sample_times()), np.array(log.data())

    (t_d, x_d), (t_m, x_m) = both(run)
    np.testing.assert_allclose(t_m, t_d, atol=1e-15)
    np.testing.assert_allclose(x_m, x_d, atol=1e-14)


@pytest.mark.parametrize("kind", ["discrete", "publish"])
def test_termination_status(kind):
    def run(lib):
        class Stopper(lib.LeafSystem):
            def __init__(self):
                super().__init__()
                self.DeclareDiscreteState(1)
                if kind == "discrete":
                    self.DeclarePeriodicDiscreteUpdateEvent(0.1, 0.0, self.update)
                else:
                    self.DeclarePeriodicPublishEvent(0.1, 0.0, self.status)

            def status(self, context):
                if context.get_time() > 0.25:
                    return lib.EventStatus.ReachedTermination(self, "done")
                return lib.EventStatus.Succeeded()

            def update(self, context, discrete_state):
                discrete_state.set_value([context.get_discrete_state_vector()[0] + 1])
                return self.status(context)

        system = Stopper()
        system.set_name("stopper")
        simulator = lib.Simulator(system)
        status = simulator.AdvanceTo(1.0)
        message = status.FormatMessage().replace(f"{__name__}.", "")
        return (
            str(status.reason()),
            status.return_time(),
            status.message(),
            message.replace("run.<locals>.", ""),
            simulator.get_context().get_discrete_state_vector()[0],
        )

    theirs, ours = both(run)
    assert ours[:3] == theirs[:3] and ours[4] == theirs[4]
    # pydrake names the Python class "module.Stopper"; mallard "module.run.<locals>.Stopper".
    assert ours[3] == theirs[3]


# ---- integration schemes ---------------------------------------------------------------
SCHEMES = ["explicit_euler", "runge_kutta2", "runge_kutta3", "runge_kutta5", "semi_explicit_euler"]


@pytest.mark.parametrize("kind", ["decay", "oscillator"])
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("accuracy", [1e-3, 1e-7])
def test_integration_schemes_take_the_same_steps(kind, scheme, accuracy):
    def run(lib):
        system = continuous_system(lib, kind)
        simulator = lib.Simulator(system)
        config = lib.SimulatorConfig(
            integration_scheme=scheme, accuracy=accuracy, max_step_size=0.5
        )
        lib.ApplySimulatorConfig(config, simulator)
        simulator.get_mutable_context().SetContinuousState([1.0] * system.num_continuous_states())
        times = []
        simulator.set_monitor(lambda context: times.append(context.get_time()))
        simulator.AdvanceTo(3.0)
        state = simulator.get_context().get_continuous_state_vector().CopyToVector()
        return np.array(times), state, str(lib.ExtractSimulatorConfig(simulator))

    (t_d, x_d, c_d), (t_m, x_m, c_m) = both(run)
    assert c_m == c_d
    assert t_m.shape == t_d.shape
    np.testing.assert_allclose(t_m, t_d, rtol=0, atol=1e-12)
    np.testing.assert_allclose(x_m, x_d, rtol=0, atol=1e-12)


def test_implicit_euler_steps_are_of_the_same_order():
    def run(lib):
        system = continuous_system(lib, "oscillator")
        simulator = lib.Simulator(system)
        config = lib.SimulatorConfig(integration_scheme="implicit_euler", accuracy=1e-3)
        lib.ApplySimulatorConfig(config, simulator)
        simulator.get_mutable_context().SetContinuousState([1.0, 1.0])
        simulator.AdvanceTo(2.0)
        state = simulator.get_context().get_continuous_state_vector().CopyToVector()
        return simulator.get_num_steps_taken(), state

    (n_d, x_d), (n_m, x_m) = both(run)
    assert 0.8 < n_m / n_d < 1.25
    np.testing.assert_allclose(x_m, x_d, atol=0.02)


# ---- the acrobot -------------------------------------------------------------------------
def acrobot(lib, source):
    if source == "urdf":
        plant = lib.plant.MultibodyPlant(0.0)
        lib.parsing.Parser(plant).AddModels("mallard/models/acrobot.urdf")
        plant.Finalize()
        return plant
    from mallard.models import MakeAcrobotPlant

    return MakeAcrobotPlant()


def simulate_acrobot(lib, source, config, t_final=1.0):
    plant = acrobot(lib, source)
    simulator = lib.Simulator(plant)
    context = simulator.get_mutable_context()
    context.SetContinuousState([1.0, 0.5, 0.0, 0.0])
    plant.get_actuation_input_port().FixValue(context, [0.0])
    lib.ApplySimulatorConfig(config(lib), simulator)
    simulator.AdvanceTo(t_final)
    return context.get_continuous_state_vector().CopyToVector(), simulator.get_num_steps_taken()


@pytest.mark.parametrize("source", ["urdf", "MakeAcrobotPlant"])
@pytest.mark.parametrize(
    "scheme, accuracy, max_step, use_error_control",
    [
        ("runge_kutta3", 1e-8, 0.1, True),
        ("runge_kutta2", 0.0, 1e-3, False),
        ("runge_kutta5", 0.0, 1e-2, False),
        ("explicit_euler", 0.0, 1e-3, False),
        ("semi_explicit_euler", 0.0, 1e-3, False),
    ],
)
def test_passive_acrobot(source, scheme, accuracy, max_step, use_error_control):
    def config(lib):
        return lib.SimulatorConfig(
            integration_scheme=scheme,
            accuracy=accuracy or 1e-4,
            max_step_size=max_step,
            use_error_control=use_error_control,
        )

    x_d, n_d = simulate_acrobot(DRAKE, "urdf", config)
    x_m, n_m = simulate_acrobot(MALLARD, source, config)
    assert n_m == n_d
    np.testing.assert_allclose(x_m, x_d, rtol=0, atol=1e-6 if use_error_control else 1e-9)


def test_passive_acrobot_error_controlled_rk5_accuracy():
    """(pydrake's error-controlled RK5 misbehaves after rejected steps on plants, see the
    report: compare both against a tight reference instead of each other.)"""

    def config(accuracy):
        return lambda lib: lib.SimulatorConfig(integration_scheme="runge_kutta5", accuracy=accuracy)

    reference, _ = simulate_acrobot(DRAKE, "urdf", config(1e-12))
    ours, steps = simulate_acrobot(MALLARD, "urdf", config(1e-8))
    np.testing.assert_allclose(ours, reference, atol=1e-6)


# ---- primitives --------------------------------------------------------------------------
def primitives(lib):
    abstract = importlib.import_module(f"{lib.name}.common.value").AbstractValue
    return {
        "ConstantVectorSource": lib.ConstantVectorSource([1.0, 2.0]),
        "Adder": lib.Adder(3, 2),
        "Gain": lib.Gain(2.0, 2),
        "VectorGain": lib.Gain([1.0, -2.0]),
        "Saturation": lib.Saturation([0.0, -1.0], [1.0, 1.0]),
        "PassThrough": lib.PassThrough(2),
        "AbstractPassThrough": lib.PassThrough(abstract.Make("x")),
        "Demultiplexer": lib.Demultiplexer(4, 2),
        "Multiplexer": lib.Multiplexer([1, 2]),
        "ZeroOrderHold": lib.ZeroOrderHold(0.1, 2),
        "Integrator": lib.Integrator(2),
        "VectorLogSink": lib.VectorLogSink(2),
    }


def describe(system):
    inputs = [
        (p.get_name(), p.size(), int(p.get_data_type()))
        for p in (system.get_input_port(i) for i in range(system.num_input_ports()))
    ]
    outputs = [
        (p.get_name(), p.size(), int(p.get_data_type()))
        for p in (system.get_output_port(i) for i in range(system.num_output_ports()))
    ]
    feedthrough = [
        system.HasDirectFeedthrough(i, o)
        for i in range(system.num_input_ports())
        for o in range(system.num_output_ports())
    ]
    sizes = (
        system.num_continuous_states(),
        system.num_discrete_state_groups(),
        system.num_abstract_states(),
        system.num_numeric_parameter_groups(),
    )
    outputs_values = []
    if all(p[2] == 0 for p in inputs):
        context = system.CreateDefaultContext()
        for i, (_, size, _) in enumerate(inputs):
            system.get_input_port(i).FixValue(context, np.arange(size, dtype=float) - 1.5)
        outputs_values = [
            system.get_output_port(o).Eval(context).tolist()
            for o in range(system.num_output_ports())
        ]
    return inputs, outputs, feedthrough, sizes, outputs_values, system.GetSystemType()


def test_primitives_ports_and_outputs():
    theirs, ours = both(primitives)
    for name in theirs:
        assert describe(ours[name]) == describe(theirs[name]), name


def spinning_body(lib, scheme, accuracy):
    plant = lib.plant.MultibodyPlant(0.0)
    tree = importlib.import_module(f"{lib.name}.multibody.tree")
    inertia = tree.SpatialInertia.MakeFromCentralInertia(
        2.0, [0.0, 0.0, 0.0], tree.RotationalInertia(0.1, 0.2, 0.3)
    )
    plant.AddRigidBody("box", inertia)
    plant.Finalize()
    simulator = lib.Simulator(plant)
    context = simulator.get_mutable_context()
    x = np.zeros(13)
    x[0], x[7:10], x[10:13] = 1.0, [1.0, 0.1, 2.0], [0.0, 0.0, 1.0]
    context.SetContinuousState(x)
    config = lib.SimulatorConfig(
        integration_scheme=scheme,
        accuracy=accuracy,
        use_error_control=scheme != "semi_explicit_euler",
    )
    lib.ApplySimulatorConfig(config, simulator)
    simulator.AdvanceTo(2.0)
    return context.get_continuous_state_vector().CopyToVector(), simulator.get_num_steps_taken()


@pytest.mark.parametrize("scheme", ["runge_kutta3", "semi_explicit_euler"])
def test_torque_free_spinning_body(scheme):
    """A free body (quaternion floating joint: q̇ = N(q)·v ≠ v, so the error norm weighs q
    through N): the same steps and states as pydrake."""
    (x_d, n_d), (x_m, n_m) = both(spinning_body, scheme, 1e-7)
    assert n_m == n_d
    np.testing.assert_allclose(x_m, x_d, rtol=0, atol=1e-12)


def test_torque_free_spinning_body_rk5():
    """(pydrake's error-controlled RK5 misbehaves after rejected steps: compare with a tight
    pydrake RK3 reference.)"""
    reference, _ = spinning_body(DRAKE, "runge_kutta3", 1e-12)
    ours, _ = spinning_body(MALLARD, "runge_kutta5", 1e-7)
    np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-6)


# ---- plants in diagrams -----------------------------------------------------------------------
def simulate_acrobot_in_diagram(lib, time_step):
    """The acrobot in a diagram with a SceneGraph, its state logged every 10 ms, for 1 s."""
    builder = lib.DiagramBuilder()
    plant, _ = lib.plant.AddMultibodyPlantSceneGraph(builder, time_step)
    lib.parsing.Parser(plant).AddModels("mallard/models/acrobot.urdf")
    plant.Finalize()
    zero = builder.AddSystem(lib.ConstantVectorSource([0.0]))
    builder.Connect(zero.get_output_port(), plant.get_actuation_input_port())
    logger = lib.LogVectorOutput(plant.get_state_output_port(), builder, 0.01)
    diagram = builder.Build()
    simulator = lib.Simulator(diagram)
    plant_context = plant.GetMyMutableContextFromRoot(simulator.get_mutable_context())
    plant.SetPositionsAndVelocities(plant_context, [1.0, 0.5, 0.0, 0.0])
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(simulator.get_context())
    return log.sample_times(), log.data()


@pytest.mark.parametrize("time_step", [0.0, 1e-3])
def test_acrobot_in_a_diagram_with_scene_graph_and_logger(time_step):
    (t_d, x_d), (t_m, x_m) = both(simulate_acrobot_in_diagram, time_step)
    np.testing.assert_array_equal(t_m, t_d)
    # Discrete: the same semi-implicit Euler steps; continuous: RK3 at Drake's default accuracy
    # 1e-4 takes the same steps. Either way the trajectories agree to round-off.
    np.testing.assert_allclose(x_m, x_d, rtol=0, atol=1e-12)


def simulate_panda(lib, t_final=1.0):
    """The Panda (arm and fingers, no mimic) falling passively from its home pose under RK3 at
    accuracy 1e-6."""
    import pydrake.all

    import mallard.all
    from tests.multibody.plant.discrete_helpers import PANDA_HOME, make_panda

    module = pydrake.all if lib is DRAKE else mallard.all
    plant = make_panda(module, 0.0, strip_mimic=True)
    simulator = lib.Simulator(plant)
    context = simulator.get_mutable_context()
    plant.SetPositions(context, PANDA_HOME)
    plant.get_actuation_input_port().FixValue(context, np.zeros(plant.num_actuators()))
    lib.ApplySimulatorConfig(
        lib.SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-6), simulator
    )
    simulator.AdvanceTo(t_final)
    return plant.GetPositionsAndVelocities(context), simulator.get_num_steps_taken()


def test_passive_panda_agrees_at_one_second():
    from tests.multibody.plant.discrete_helpers import panda_root

    if panda_root() is None:
        pytest.skip("example-robot-data is not installed")
    (x_d, n_d), (x_m, n_m) = both(simulate_panda)
    assert n_m == n_d  # the same ~3000 error-controlled steps
    np.testing.assert_allclose(x_m, x_d, rtol=0, atol=1e-9)
