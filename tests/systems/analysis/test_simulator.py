"""The Simulator: when events happen relative to integration (the sequences below were
recorded with pydrake 1.51.1 on the same systems), statuses and the monitor, statistics,
realtime rate, contexts and errors."""

import math
import re
import time

import numpy as np
import pytest

from mallard.common.value import AbstractValue
from mallard.systems.analysis import (
    InitializeParams,
    RungeKutta2Integrator,
    RungeKutta3Integrator,
    Simulator,
    SimulatorStatus,
)
from mallard.systems.framework import (
    ContinuousStateIndex,
    DiagramBuilder,
    DiscreteStateIndex,
    EventStatus,
    LeafSystem,
)
from mallard.systems.primitives import Gain, Integrator, LogVectorOutput, ZeroOrderHold


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


class Everything(LeafSystem):
    """ẋ = 1 and a discrete counter updated every 0.25 s, published every 0.25 s and at every
    step, with initialization and forced events; ``log`` records the calls."""

    def __init__(self):
        super().__init__()
        self.log = []
        self.DeclareContinuousState(1)
        self.DeclareDiscreteState(1)
        self.DeclarePeriodicDiscreteUpdateEvent(0.25, 0.0, self.update)
        self.DeclarePeriodicPublishEvent(0.25, 0.0, self.publish("pub"))
        self.DeclarePerStepPublishEvent(self.publish("ps"))
        self.DeclareInitializationPublishEvent(lambda c: self.log.append(("ip", c.get_time())))
        self.DeclareInitializationDiscreteUpdateEvent(
            lambda c, d: self.log.append(("iu", c.get_time()))
        )
        self.DeclareForcedPublishEvent(lambda c: self.log.append(("fp", c.get_time())))

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetFromVector([1.0])

    def update(self, context, discrete_state):
        n = context.get_discrete_state_vector()[0]
        self.log.append(("upd", context.get_time(), n, context.get_continuous_state_vector()[0]))
        discrete_state.set_value([n + 1])

    def publish(self, label):
        return lambda c: self.log.append((label, c.get_time(), c.get_discrete_state_vector()[0]))


def test_event_sequence_with_continuous_state():
    system = Everything()
    simulator = Simulator(system)
    integrator = simulator.get_integrator()
    assert isinstance(integrator, RungeKutta3Integrator)
    assert (integrator.get_target_accuracy(), integrator.get_maximum_step_size()) == (1e-4, 0.1)
    assert integrator.get_initial_step_size_target() == 1e-4
    assert not integrator.get_fixed_step_mode()
    status = simulator.Initialize()
    assert status.succeeded()
    # Initialization events, then per-step and timed publishes; the update at 0 is pending.
    assert system.log == [("iu", 0.0), ("ip", 0.0), ("ps", 0.0, 0.0), ("pub", 0.0, 0.0)]
    system.log.clear()
    status = simulator.AdvanceTo(0.5)
    assert status.reason() == SimulatorStatus.ReturnReason.kReachedBoundaryTime
    assert (status.return_time(), status.boundary_time()) == (0.5, 0.5)
    assert system.log == [
        ("upd", 0.0, 0.0, 0.0),
        ("ps", 0.0001, 1.0),
        ("ps", 0.0006000000000000001, 1.0),
        ("ps", 0.0031000000000000003, 1.0),
        ("ps", 0.015600000000000001, 1.0),
        ("ps", 0.0781, 1.0),
        ("ps", 0.1781, 1.0),
        ("ps", 0.25, 1.0),
        ("pub", 0.25, 1.0),
        ("upd", 0.25, 1.0, 0.25),
        ("ps", 0.35, 2.0),
        ("ps", 0.44999999999999996, 2.0),
        ("ps", 0.5, 2.0),
        ("pub", 0.5, 2.0),
    ]
    counts = (
        simulator.get_num_steps_taken(),
        simulator.get_num_discrete_updates(),
        simulator.get_num_publishes(),
    )
    assert counts == (10, 3, 11)
    system.log.clear()
    simulator.AdvanceTo(0.6)
    assert system.log == [("upd", 0.5, 2.0, 0.5), ("ps", 0.6, 3.0)]
    system.log.clear()
    simulator.AdvancePendingEvents()  # no update pending at 0.6: one more zero-length step
    assert system.log == [("ps", 0.6, 3.0)]
    assert simulator.get_num_steps_taken() == 12
    assert simulator.get_num_publishes() == 13


class Discrete(LeafSystem):
    """x[n+1] = x[n] + 1 every 0.1 s; output "y" = x."""

    def __init__(self):
        super().__init__()
        self.DeclareDiscreteState(1)
        self.DeclarePeriodicDiscreteUpdateEvent(0.1, 0.0, self.update)
        self.DeclareStateOutputPort("y", DiscreteStateIndex(0))

    def update(self, context, discrete_state):
        discrete_state.set_value([context.get_discrete_state_vector()[0] + 1])


@pytest.mark.parametrize(
    "period, times, values, steps, publishes",
    [
        (0.0, np.arange(11) / 10, np.arange(11), 10, 11),
        (0.1, np.arange(11) / 10, np.arange(11), 10, 11),
        (0.25, [0.0, 0.25, 0.5, 0.75, 1.0], [0, 3, 5, 8, 10], 12, 5),
    ],
)
def test_logged_discrete_system(period, times, values, steps, publishes):
    builder = DiagramBuilder()
    system = builder.AddSystem(Discrete())
    logger = LogVectorOutput(system.get_output_port(), builder, period)
    simulator = Simulator(builder.Build())
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(simulator.get_context())
    np.testing.assert_allclose(log.sample_times(), times, rtol=0, atol=1e-15)
    # A sample at t is taken before the update at t: the value after updates at 0 .. t−0.1.
    np.testing.assert_array_equal(log.data()[0], values)
    assert simulator.get_num_steps_taken() == steps
    assert simulator.get_num_publishes() == publishes
    assert simulator.get_num_discrete_updates() == 10


def test_logged_discrete_system_with_incommensurate_period():
    builder = DiagramBuilder()
    system = builder.AddSystem(Discrete())
    logger = LogVectorOutput(system.get_output_port(), builder, 0.03)
    simulator = Simulator(builder.Build())
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(simulator.get_context())
    np.testing.assert_allclose(log.sample_times(), np.arange(34) * 0.03, atol=1e-15)
    expected = [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 8, 8, 8]
    expected += [9, 9, 9, 9, 10, 10, 10]
    np.testing.assert_array_equal(log.data()[0], expected)
    assert simulator.get_num_steps_taken() == 43


class Decay(LeafSystem):
    """ẋ = −x, output "y" = x."""

    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(1)
        self.DeclareStateOutputPort("y", ContinuousStateIndex(0))

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(0, -x)


def test_logged_continuous_system_per_step_and_periodic():
    # Per step: every step of the error-controlled RK3 (first step 1e-4, growing 5x).
    builder = DiagramBuilder()
    system = builder.AddSystem(Decay())
    logger = LogVectorOutput(system.get_output_port(), builder)
    simulator = Simulator(builder.Build())
    simulator.get_mutable_context().SetContinuousState([1.0])
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(simulator.get_context())
    np.testing.assert_allclose(
        log.sample_times()[:8],
        [0.0, 1e-4, 6e-4, 3.1e-3, 1.56e-2, 7.81e-2, 0.15440469447, 0.23070938894],
        atol=1e-10,
    )
    assert log.num_samples() == 18 and log.sample_times()[-1] == 1.0
    assert simulator.get_num_steps_taken() == 17
    assert simulator.get_integrator().get_num_derivative_evaluations() == 51
    np.testing.assert_allclose(log.data()[0, -1], math.exp(-1), atol=1e-5)
    # Periodic: exactly at 0, 0.1, ..., 1 (steps end there).
    builder = DiagramBuilder()
    system = builder.AddSystem(Decay())
    logger = LogVectorOutput(system.get_output_port(), builder, 0.1)
    simulator = Simulator(builder.Build())
    simulator.get_mutable_context().SetContinuousState([1.0])
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(simulator.get_context())
    np.testing.assert_allclose(log.sample_times(), np.arange(11) / 10, atol=1e-15)
    np.testing.assert_allclose(log.data()[0], np.exp(-np.arange(11) / 10), atol=1e-5)
    assert simulator.get_num_steps_taken() == 24


def test_mixed_sampled_data_system():
    """ẋ = −x + u with u = ZeroOrderHold(0.1) of −x: u is −x sampled at the start of each
    period, so x[k+1] = (x[k] − u[k])·e^−h + u[k] = x[k]·(2e^−h − 1) exactly."""
    builder = DiagramBuilder()
    plant = builder.AddSystem(Integrator(1))  # ẋ = input
    gain = builder.AddSystem(Gain(-1.0, 1))
    hold = builder.AddSystem(ZeroOrderHold(0.1, 1))
    # input = −x + u: sum through a second gain path.
    from mallard.systems.primitives import Adder

    adder = builder.AddSystem(Adder(2, 1))
    builder.Connect(plant.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), hold.get_input_port())
    builder.Connect(gain.get_output_port(), adder.get_input_port(0))
    builder.Connect(hold.get_output_port(), adder.get_input_port(1))
    builder.Connect(adder.get_output_port(), plant.get_input_port())
    logger = LogVectorOutput(plant.get_output_port(), builder, 0.1)
    diagram = builder.Build()
    simulator = Simulator(diagram)
    context = simulator.get_mutable_context()
    plant.set_integral_value(plant.GetMyMutableContextFromRoot(context), [1.0])
    simulator.get_mutable_integrator().set_target_accuracy(1e-10)
    simulator.AdvanceTo(1.0)
    log = logger.FindLog(context)
    expected = (2 * math.exp(-0.1) - 1) ** np.arange(11)
    np.testing.assert_allclose(log.data()[0], expected, rtol=0, atol=1e-9)
    assert simulator.get_num_discrete_updates() == 10  # 0, 0.1, ..., 0.9 (1.0 pending)


class Multirate(LeafSystem):
    """A per-step discrete update (+1), a periodic one (+100, period 0.3 from 0.1) and a
    periodic publish (0.2)."""

    def __init__(self):
        super().__init__()
        self.log = []
        self.DeclareDiscreteState(1)
        self.DeclarePerStepDiscreteUpdateEvent(self.per_step)
        self.DeclarePeriodicDiscreteUpdateEvent(0.3, 0.1, self.periodic)
        self.DeclarePeriodicPublishEvent(0.2, 0.0, self.publish)
        self.DeclareForcedPublishEvent(lambda c: self.log.append(("fp", c.get_time())))

    def per_step(self, context, discrete_state):
        self.log.append(("psu", context.get_time(), context.get_discrete_state_vector()[0]))
        discrete_state.set_value([context.get_discrete_state_vector()[0] + 1])

    def periodic(self, context, discrete_state):
        # Sees the per-step update in the scratch values, the old value in the Context.
        current = context.get_discrete_state_vector()[0]
        self.log.append(("upd", context.get_time(), current, discrete_state.get_value()[0]))
        discrete_state.set_value(discrete_state.get_value() + 100)

    def publish(self, context):
        self.log.append(("pub", context.get_time(), context.get_discrete_state_vector()[0]))


def test_per_step_and_multirate_events():
    system = Multirate()
    simulator = Simulator(system)
    simulator.set_publish_at_initialization(True)
    simulator.Initialize()
    assert system.log == [("pub", 0.0, 0.0), ("fp", 0.0)]
    system.log.clear()
    simulator.AdvanceTo(0.7)
    assert system.log == [
        ("psu", 0.0, 0.0),
        ("psu", 0.1, 1.0),
        ("upd", 0.1, 1.0, 2.0),
        ("pub", 0.2, 102.0),
        ("psu", 0.2, 102.0),
        ("pub", 0.4, 103.0),
        ("psu", 0.4, 103.0),
        ("upd", 0.4, 103.0, 104.0),
        ("pub", 0.6000000000000001, 204.0),
        ("psu", 0.6000000000000001, 204.0),
    ]
    assert simulator.get_num_steps_taken() == 5
    assert simulator.get_num_discrete_updates() == 5
    assert simulator.get_num_publishes() == 5
    system.log.clear()
    simulator.set_publish_every_time_step(True)
    assert simulator.get_publish_every_time_step()
    simulator.AdvanceTo(0.85)
    assert system.log == [
        ("psu", 0.7, 205.0),
        ("upd", 0.7, 205.0, 206.0),
        ("pub", 0.8, 306.0),
        ("fp", 0.8),
        ("psu", 0.8, 306.0),
        ("fp", 0.85),
    ]


def test_initialize_at_a_later_time_and_suppressed_events():
    system = Everything()
    simulator = Simulator(system)
    simulator.get_mutable_context().SetTime(0.5)
    simulator.Initialize(InitializeParams(suppress_initialization_events=True))
    assert system.log == [("ps", 0.5, 0.0), ("pub", 0.5, 0.0)]  # 0.5 is a publish time


class Stopper(LeafSystem):
    """A counter updated every 0.1 s whose handler (of ``kind``) returns ``status(t)``."""

    def __init__(self, kind, status):
        super().__init__()
        self.set_name("stopper")
        self.DeclareDiscreteState(1)
        self._status = status
        if kind == "discrete":
            self.DeclarePeriodicDiscreteUpdateEvent(0.1, 0.0, self.discrete)
        elif kind == "unrestricted":
            self.DeclarePeriodicUnrestrictedUpdateEvent(0.1, 0.0, self.unrestricted)
        else:
            self.DeclarePeriodicPublishEvent(0.1, 0.0, lambda c: self._status(self, c))

    def discrete(self, context, discrete_state):
        discrete_state.set_value([context.get_discrete_state_vector()[0] + 1])
        return self._status(self, context)

    def unrestricted(self, context, state):
        state.get_mutable_discrete_state().set_value([context.get_discrete_state_vector()[0] + 1])
        return self._status(self, context)


def _terminate_after(limit):
    def status(system, context):
        if context.get_time() > limit:
            return EventStatus.ReachedTermination(system, "done")
        return EventStatus.Succeeded()

    return status


@pytest.mark.parametrize("kind, count", [("discrete", 4), ("unrestricted", 4), ("publish", 0)])
def test_termination_from_a_handler(kind, count):
    system = Stopper(kind, _terminate_after(0.25))
    simulator = Simulator(system)
    status = simulator.AdvanceTo(1.0)
    assert status.reason() == SimulatorStatus.ReturnReason.kReachedTerminationCondition
    assert not status.succeeded()
    assert status.return_time() == pytest.approx(0.3) and status.system() is system
    assert status.message() == "done"
    assert status.FormatMessage() == (
        "Simulator returned early at time 0.30000000000000004 because "
        "tests.systems.analysis.test_simulator.Stopper System '::stopper' requested "
        'termination with message: "done"'
    )
    assert simulator.get_context().get_time() == pytest.approx(0.3)
    assert simulator.get_context().get_discrete_state_vector()[0] == count


@pytest.mark.parametrize("kind", ["discrete", "unrestricted", "publish"])
def test_failure_from_a_handler(kind):
    def fail_after(system, context):
        if context.get_time() > 0.25:
            return EventStatus.Failed(system, "boom")
        return None

    system = Stopper(kind, fail_after)
    simulator = Simulator(system)
    message = (
        "Simulator stopped at time 0.30000000000000004 because "
        "tests.systems.analysis.test_simulator.Stopper System '::stopper' failed with "
        'message: "boom"'
    )
    with raises(RuntimeError, message):
        simulator.AdvanceTo(1.0)
    # A failed update is not applied.
    expected = 3 if kind != "publish" else 0
    assert simulator.get_context().get_discrete_state_vector()[0] == expected


def test_monitor():
    system = Discrete()
    system.set_name("d")
    simulator = Simulator(system)
    times = []

    def monitor(context):
        times.append(context.get_time())
        if context.get_time() >= 0.3:
            return EventStatus.ReachedTermination(system, "mon stop")
        return None

    simulator.set_monitor(monitor)
    assert simulator.get_monitor() is monitor
    status = simulator.AdvanceTo(1.0)
    np.testing.assert_allclose(times, [0.0, 0.1, 0.2, 0.3])  # Initialize, then each step
    assert status.reason() == SimulatorStatus.ReturnReason.kReachedTerminationCondition
    assert status.message() == "mon stop"
    simulator.clear_monitor()
    assert simulator.get_monitor() is None
    simulator.set_monitor(lambda context: EventStatus.Failed(None, "mon fail"))
    with raises(
        RuntimeError,
        'Simulator stopped at time 0.4 because System failed with message: "mon fail"',
    ):
        simulator.AdvanceTo(1.0)
    simulator.set_monitor(lambda context: 3)
    with pytest.raises(TypeError, match="must return an EventStatus or None"):
        simulator.Initialize()


def test_status_messages():
    status = SimulatorStatus(1.0)
    assert status.succeeded()
    assert status.FormatMessage() == "Simulator successfully reached the boundary time (1)."
    other = SimulatorStatus(1.0)
    assert status.IsIdenticalStatus(other)
    other.SetReachedTermination(0.5, None, "x")
    assert not status.IsIdenticalStatus(other)
    assert str(SimulatorStatus.ReturnReason.kEventHandlerFailed) == (
        "ReturnReason.kEventHandlerFailed"
    )


def test_time_and_context_errors():
    system = Discrete()
    simulator = Simulator(system)
    simulator.AdvanceTo(0.5)
    simulator.get_mutable_context().SetTime(5.0)
    with raises(
        RuntimeError,
        "Simulation time has changed since last Initialize() or AdvanceTo(). Resetting "
        "simulation time requires a call to Initialize().",
    ):
        simulator.AdvanceTo(6.0)
    simulator.Initialize()
    with pytest.raises(RuntimeError, match="boundary time 4.0 is before the current time 5.0"):
        simulator.AdvanceTo(4.0)
    assert simulator.has_context() and simulator.get_system() is system
    context = system.CreateDefaultContext()
    simulator.reset_context(context)
    assert simulator.get_context() is context and simulator.get_mutable_context() is context
    simulator.AdvanceTo(0.2)  # Initializes again
    assert context.get_discrete_state_vector()[0] == 2
    simulator.reset_context(None)
    assert not simulator.has_context() and simulator.get_context() is None
    with raises(RuntimeError, "Initialize(): Context has not been set."):
        simulator.AdvanceTo(1.0)
    with pytest.raises(RuntimeError, match="was passed the Context of a system"):
        Simulator(system, Discrete().CreateDefaultContext())


def test_given_context_is_used():
    system = Decay()
    context = system.CreateDefaultContext()
    context.SetContinuousState([2.0])
    simulator = Simulator(system, context)
    assert simulator.get_context() is context
    simulator.AdvanceTo(1.0)
    assert context.get_time() == 1.0
    assert context.get_continuous_state_vector()[0] == pytest.approx(2 * math.exp(-1), abs=1e-4)


def test_statistics_reset_and_realtime_rate():
    system = Decay()
    simulator = Simulator(system)
    simulator.AdvanceTo(0.5)
    simulator.ResetStatistics()
    assert simulator.get_num_steps_taken() == 0
    assert simulator.get_integrator().get_num_steps_taken() == 0
    assert simulator.get_target_realtime_rate() == 0
    simulator.set_target_realtime_rate(-3)
    assert simulator.get_target_realtime_rate() == 0
    simulator.set_target_realtime_rate(5.0)
    simulator.ResetStatistics()
    start = time.perf_counter()
    # Steps of 0.1 s; each waits until real time catches up with its start: the last one
    # starts at 0.9, 0.4 s of simulated time after 0.5, so 0.08 s of real time at 5x.
    simulator.AdvanceTo(1.0)
    elapsed = time.perf_counter() - start
    assert elapsed >= 0.4 / 5.0 * 0.95
    assert 0 < simulator.get_actual_realtime_rate() <= 5.0 * 1.3


def test_reset_integrator():
    system = Decay()
    simulator = Simulator(system)
    integrator = simulator.reset_integrator(RungeKutta2Integrator, 0.01)
    assert simulator.get_integrator() is integrator
    assert integrator.get_context() is simulator.get_context()
    simulator.get_mutable_context().SetContinuousState([1.0])
    simulator.AdvanceTo(0.1)
    # Ten steps of 0.01 end at 0.09999999999999999: an 11th sliver reaches 0.1, as in Drake.
    assert integrator.get_num_steps_taken() == 11
    with pytest.raises(RuntimeError, match="integrates another system"):
        simulator.reset_integrator(RungeKutta2Integrator(Decay(), 0.1))
    mine = RungeKutta3Integrator(system)
    mine.set_maximum_step_size(0.05)
    assert simulator.reset_integrator(mine) is mine
    assert mine.get_context() is simulator.get_context()


def test_no_continuous_state_jumps_to_events():
    system = Discrete()
    simulator = Simulator(system)
    simulator.AdvanceTo(0.35)
    # Steps end at 0.1, 0.2, 0.3 (update times) and 0.35 (the boundary).
    assert simulator.get_num_steps_taken() == 4
    assert simulator.get_integrator().get_num_steps_taken() == 0
    assert system.num_continuous_states() == 0


class Bookkeeper(LeafSystem):
    """ẋ = 1; every 0.1 s an unrestricted update appends the time to an abstract list (in
    place), resets x to 0 and, after 0.25 s, fails."""

    def __init__(self, fail=False):
        super().__init__()
        self.fail = fail
        self.seen = []
        self.DeclareContinuousState(1)
        self.DeclareAbstractState(AbstractValue.Make([]))
        self.DeclarePeriodicUnrestrictedUpdateEvent(0.1, 0.0, self.update)

    def DoCalcTimeDerivatives(self, context, derivatives):
        derivatives.get_mutable_vector().SetFromVector([1.0])

    def update(self, context, state):
        # The Context keeps its value until the update is applied.
        self.seen.append(list(context.get_abstract_state(0).get_value()))
        state.get_mutable_abstract_state(0).get_mutable_value().append(context.get_time())
        state.get_mutable_continuous_state().SetFromVector([0.0])
        if self.fail and context.get_time() > 0.25:
            return EventStatus.Failed(self, "no")
        return None


def test_unrestricted_updates():
    system = Bookkeeper()
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    simulator.AdvanceTo(0.35)
    np.testing.assert_allclose(context.get_abstract_state(0).get_value(), [0, 0.1, 0.2, 0.3])
    assert system.seen[-1] == pytest.approx([0, 0.1, 0.2])
    assert context.get_continuous_state_vector()[0] == pytest.approx(0.05)
    assert simulator.get_num_unrestricted_updates() == 4
    failing = Bookkeeper(fail=True)
    simulator = Simulator(failing)
    with pytest.raises(RuntimeError, match='failed with message: "no"'):
        simulator.AdvanceTo(1.0)
    # The failed update was not applied, and the in-place change did not leak.
    np.testing.assert_allclose(
        simulator.get_context().get_abstract_state(0).get_value(), [0, 0.1, 0.2]
    )
