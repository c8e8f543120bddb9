"""Events outside the Simulator: EventStatus, event objects, ExecuteInitializationEvents,
ExecuteForcedEvents, ForcedPublish, CalcForced*Update, EvalUniquePeriodicDiscreteUpdate and
the periodic-attribute queries; DeclareStateOutputPort; VectorSystem."""

import re

import numpy as np
import pytest

from mallard.common.value import AbstractValue
from mallard.systems.framework import (
    AbstractStateIndex,
    ContinuousStateIndex,
    DiagramBuilder,
    DiscreteStateIndex,
    DiscreteUpdateEvent,
    EventStatus,
    LeafSystem,
    PublishEvent,
    TriggerType,
    UnrestrictedUpdateEvent,
    VectorSystem,
    kUseDefaultName,
)


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


class Counter(LeafSystem):
    """Discrete state [n, n] (two equal entries) changed by every kind of event; ``log``
    records the handlers called."""

    def __init__(self, periods=(0.1,), name="counter"):
        super().__init__()
        self.set_name(name)
        self.log = []
        self.DeclareDiscreteState(2)
        for period in periods:
            self.DeclarePeriodicDiscreteUpdateEvent(period, 0.0, self.add(1, "periodic"))
        self.DeclareInitializationUnrestrictedUpdateEvent(self.unrestricted(1000, "init uu"))
        self.DeclareInitializationDiscreteUpdateEvent(self.add(10, "init du"))
        self.DeclareInitializationPublishEvent(self.publish("init pub"))
        self.DeclareForcedUnrestrictedUpdateEvent(self.unrestricted(0, "forced uu"))
        self.DeclareForcedDiscreteUpdateEvent(self.add(100, "forced du"))
        self.DeclareForcedPublishEvent(self.publish("forced pub"))

    def add(self, amount, label):
        def handler(context, discrete_state):
            self.log.append(label)
            discrete_state.set_value(discrete_state.get_value() + amount)

        return handler

    def unrestricted(self, amount, label):
        def handler(context, state):
            self.log.append(label)
            group = state.get_mutable_discrete_state(0)
            group.SetFromVector(group.CopyToVector() + amount)

        return handler

    def publish(self, label):
        def handler(context):
            self.log.append(label)

        return handler


def test_event_status():
    status = EventStatus.DidNothing()
    assert status.did_nothing() and status.severity() == EventStatus.Severity.kDidNothing
    system = Counter()
    status.KeepMoreSevere(EventStatus.Succeeded())
    assert status.succeeded()
    status.KeepMoreSevere(EventStatus.ReachedTermination(system, "stop"))
    status.KeepMoreSevere(EventStatus.ReachedTermination(None, "second"))
    assert status.reached_termination() and status.message() == "stop"
    assert status.system() is system
    status.KeepMoreSevere(EventStatus.Failed(None, "bad"))
    assert status.failed() and status.message() == "bad"
    assert str(EventStatus.Severity.kFailed) == "Severity.kFailed"
    assert [t.value for t in TriggerType] == [0, 1, 2, 3, 4, 5, 6]  # pydrake's values
    assert str(TriggerType.kPeriodic) == "TriggerType.kPeriodic"


def test_execute_initialization_events():
    system = Counter()
    context = system.CreateDefaultContext()
    system.ExecuteInitializationEvents(context)
    assert system.log == ["init uu", "init du", "init pub"]
    np.testing.assert_array_equal(context.get_discrete_state_vector().CopyToVector(), [1010] * 2)


def test_execute_forced_events():
    system = Counter()
    context = system.CreateDefaultContext()
    system.ExecuteForcedEvents(context)
    assert system.log == ["forced uu", "forced du", "forced pub"]
    system.log.clear()
    system.ExecuteForcedEvents(context, publish=False)
    assert system.log == ["forced uu", "forced du"]
    np.testing.assert_array_equal(context.get_discrete_state_vector().CopyToVector(), [200] * 2)
    system.log.clear()
    system.ForcedPublish(context)
    assert system.log == ["forced pub"]


def test_calc_forced_updates_leave_the_context_alone():
    system = Counter()
    context = system.CreateDefaultContext()
    context.SetDiscreteState([5.0, 5.0])
    discrete = system.AllocateDiscreteVariables()
    system.CalcForcedDiscreteVariableUpdate(context, discrete)
    np.testing.assert_array_equal(discrete.get_value(), [105, 105])
    state = context.get_state().Clone()
    system.CalcForcedUnrestrictedUpdate(context, state)
    np.testing.assert_array_equal(state.get_discrete_state(0).CopyToVector(), [5, 5])
    np.testing.assert_array_equal(context.get_discrete_state_vector().CopyToVector(), [5, 5])
    assert system.log == ["forced du", "forced uu"]


def test_failure_raises():
    system = LeafSystem()
    system.set_name("bad")
    system.DeclareDiscreteState(1)
    system.DeclareInitializationDiscreteUpdateEvent(
        lambda context, discrete_state: EventStatus.Failed(system, "broken")
    )
    with raises(
        RuntimeError,
        "ExecuteInitializationEvents(): An event handler in "
        "mallard.systems.framework.LeafSystem System '::bad' failed with message: "
        '"broken".',
    ):
        system.ExecuteInitializationEvents(system.CreateDefaultContext())
    system.DeclareForcedPublishEvent(lambda context: 3)
    with pytest.raises(TypeError, match="must return an EventStatus or None"):
        system.ForcedPublish(system.CreateDefaultContext())


def test_unique_periodic_discrete_update():
    system = Counter()
    context = system.CreateDefaultContext()
    attribute = system.GetUniquePeriodicDiscreteUpdateAttribute()
    assert (attribute.period_sec(), attribute.offset_sec()) == (0.1, 0.0)
    assert system.IsDifferenceEquationSystem() == (True, 0.1)
    assert not system.IsDifferentialEquationSystem()
    result = system.EvalUniquePeriodicDiscreteUpdate(context)
    np.testing.assert_array_equal(result.get_value(), [1, 1])
    assert system.log == ["periodic"]
    assert system.EvalUniquePeriodicDiscreteUpdate(context) is result  # cached
    assert system.log == ["periodic"]
    context.SetDiscreteState([5.0, 5.0])
    np.testing.assert_array_equal(
        system.EvalUniquePeriodicDiscreteUpdate(context).get_value(), [6, 6]
    )
    np.testing.assert_array_equal(context.get_discrete_state_vector().CopyToVector(), [5, 5])


def test_unique_periodic_discrete_update_errors():
    two = Counter(periods=(0.1, 0.2))
    assert two.GetUniquePeriodicDiscreteUpdateAttribute() is None
    assert two.IsDifferenceEquationSystem() == (False, 0.0)
    with raises(
        RuntimeError,
        "CalcUniquePeriodicDiscreteUpdate(): found more than one periodic timing that triggers "
        "discrete update events. Timings were (offset,period)=(0,0.1) and (0,0.2).",
    ):
        two.EvalUniquePeriodicDiscreteUpdate(two.CreateDefaultContext())
    none = Counter(periods=())
    assert none.GetUniquePeriodicDiscreteUpdateAttribute() is None
    with raises(
        RuntimeError,
        "CalcUniquePeriodicDiscreteUpdate(): there are no periodic discrete update events in "
        "this System.",
    ):
        none.EvalUniquePeriodicDiscreteUpdate(none.CreateDefaultContext())


def test_diagram_events():
    builder = DiagramBuilder()
    first = builder.AddSystem(Counter(name="first"))
    second = builder.AddSystem(Counter(name="second"))
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    diagram.ExecuteInitializationEvents(context)
    for system in (first, second):
        sub = diagram.GetSubsystemContext(system, context)
        np.testing.assert_array_equal(sub.get_discrete_state_vector().CopyToVector(), [1010] * 2)
    result = diagram.EvalUniquePeriodicDiscreteUpdate(context)
    assert result.num_groups() == 2
    np.testing.assert_array_equal(result.get_vector(1).CopyToVector(), [1011, 1011])
    assert diagram.GetUniquePeriodicDiscreteUpdateAttribute().period_sec() == 0.1
    assert diagram.IsDifferenceEquationSystem() == (False, 0.0)  # two groups


def test_event_objects():
    system = LeafSystem()
    system.DeclareDiscreteState(1)
    seen = []
    system.DeclarePeriodicEvent(
        0.5, 0.0, PublishEvent(lambda context, event: seen.append(event.get_trigger_type()))
    )
    system.DeclareInitializationEvent(
        DiscreteUpdateEvent(lambda context, event, discrete_state: discrete_state.set_value([7]))
    )
    system.DeclarePerStepEvent(
        UnrestrictedUpdateEvent(lambda context, event, state: seen.append("uu"))
    )
    context = system.CreateDefaultContext()
    system.ExecuteInitializationEvents(context)
    assert context.get_discrete_state_vector()[0] == 7
    with pytest.raises(RuntimeError, match="has trigger type kPerStep"):
        system.DeclarePeriodicEvent(0.1, 0.0, PublishEvent(TriggerType.kPerStep, lambda c, e: None))
    from mallard.systems.analysis import Simulator

    Simulator(system).AdvanceTo(0.5)
    assert seen == [TriggerType.kPeriodic, "uu", TriggerType.kPeriodic]


class _AllStates(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareContinuousState(2)
        self.DeclareDiscreteState(np.array([1.0, 2.0, 3.0]))
        self.DeclareAbstractState(AbstractValue.Make("s"))
        self.xc = self.DeclareStateOutputPort(kUseDefaultName, ContinuousStateIndex(0))
        self.xd = self.DeclareStateOutputPort("xd", DiscreteStateIndex(0))
        self.xa = self.DeclareStateOutputPort("xa", AbstractStateIndex(0))


def test_state_output_ports():
    system = _AllStates()
    context = system.CreateDefaultContext()
    context.SetContinuousState([4.0, 5.0])
    assert system.xc.get_name() == "y0"
    np.testing.assert_array_equal(system.xc.Eval(context), [4, 5])
    np.testing.assert_array_equal(system.xd.Eval(context), [1, 2, 3])
    assert system.xa.Eval(context) == "s"
    with pytest.raises(RuntimeError, match="there is no discrete state group 3"):
        system.DeclareStateOutputPort("bad", DiscreteStateIndex(3))
    with pytest.raises(RuntimeError, match="must be ContinuousStateIndex"):
        system.DeclareStateOutputPort("bad", ContinuousStateIndex(1))
    with pytest.raises(TypeError, match="must be a ContinuousStateIndex"):
        system.DeclareStateOutputPort("bad", 0)


class _FirstOrder(VectorSystem):
    """ẋ = −x + u, y = 2x."""

    def __init__(self):
        super().__init__(1, 1, direct_feedthrough=False)
        self.DeclareContinuousState(1)

    def DoCalcVectorOutput(self, context, input, state, output):
        assert input.size == 0
        output[:] = 2 * state

    def DoCalcVectorTimeDerivatives(self, context, input, state, derivatives):
        derivatives[:] = -state + input


def test_vector_system():
    system = _FirstOrder()
    assert system.get_input_port().get_name() == "u0"
    assert system.get_output_port().get_name() == "y0"
    assert not system.HasDirectFeedthrough(0, 0)
    context = system.CreateDefaultContext()
    context.SetContinuousState([3.0])
    system.get_input_port().FixValue(context, [1.0])
    np.testing.assert_array_equal(system.get_output_port().Eval(context), [6.0])
    np.testing.assert_array_equal(system.EvalTimeDerivatives(context).CopyToVector(), [-2.0])
    feedthrough = VectorSystem(2, 2, None)
    assert feedthrough.HasDirectFeedthrough(0, 0)
    with pytest.raises(RuntimeError, match="must override DoCalcVectorOutput"):
        c = feedthrough.CreateDefaultContext()
        feedthrough.get_input_port().FixValue(c, [0.0, 0.0])
        feedthrough.get_output_port().Eval(c)
