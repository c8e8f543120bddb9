"""The primitive systems: ports (names, sizes, feedthrough, as pydrake's), outputs, state
and events, and the errors of their constructors."""

import numpy as np
import pytest

from mallard.common.value import AbstractValue
from mallard.systems.analysis import Simulator
from mallard.systems.framework import BasicVector, DiagramBuilder, PortDataType, TriggerType
from mallard.systems.primitives import (
    Adder,
    ConstantValueSource,
    ConstantVectorSource,
    Demultiplexer,
    Gain,
    Integrator,
    LogVectorOutput,
    Multiplexer,
    PassThrough,
    Saturation,
    TrajectorySource,
    VectorLog,
    VectorLogSink,
    ZeroOrderHold,
)
from mallard.trajectories import PiecewisePolynomial


def ports(system):
    inputs = [
        (p.get_name(), p.size(), p.get_data_type())
        for p in (system.get_input_port(i) for i in range(system.num_input_ports()))
    ]
    outputs = [
        (p.get_name(), p.size(), p.get_data_type())
        for p in (system.get_output_port(i) for i in range(system.num_output_ports()))
    ]
    return inputs, outputs


V, A = PortDataType.kVectorValued, PortDataType.kAbstractValued


def evaluate(system, *inputs, port=0):
    context = system.CreateDefaultContext()
    for i, value in enumerate(inputs):
        system.get_input_port(i).FixValue(context, value)
    return system.get_output_port(port).Eval(context)


def test_constant_vector_source():
    source = ConstantVectorSource([1.0, 2.0])
    assert ports(source) == ([], [("y0", 2, V)])
    assert source.GetSystemType() == "drake::systems::ConstantVectorSource<double>"
    assert source.num_numeric_parameter_groups() == 1
    context = source.CreateDefaultContext()
    value = source.get_source_value(context)
    assert isinstance(value, BasicVector) and value.CopyToVector().tolist() == [1, 2]
    source.get_mutable_source_value(context).SetFromVector([3.0, 4.0])
    np.testing.assert_array_equal(source.get_output_port().Eval(context), [3, 4])
    np.testing.assert_array_equal(evaluate(ConstantVectorSource(5.0)), [5.0])


def test_constant_value_source():
    source = ConstantValueSource(AbstractValue.Make("hello"))
    assert ports(source) == ([], [("y0", 0, A)])
    assert evaluate(source) == "hello"


def test_adder():
    adder = Adder(3, 2)
    assert ports(adder) == ([("u0", 2, V), ("u1", 2, V), ("u2", 2, V)], [("sum", 2, V)])
    assert all(adder.HasDirectFeedthrough(i, 0) for i in range(3))
    np.testing.assert_array_equal(evaluate(adder, [1, 2], [3, 4], [5, 6]), [9, 12])


def test_gain():
    gain = Gain(2.0, 3)
    assert ports(gain) == ([("u0", 3, V)], [("y0", 3, V)])
    assert gain.HasDirectFeedthrough(0, 0)
    np.testing.assert_array_equal(evaluate(gain, [1, 2, 3]), [2, 4, 6])
    vector_gain = Gain([1.0, -2.0])
    np.testing.assert_array_equal(evaluate(vector_gain, [3, 4]), [3, -8])
    assert gain.k() == 2.0 and vector_gain.k_vector().tolist() == [1, -2]
    with pytest.raises(RuntimeError, match="use k_vector"):
        vector_gain.k()


def test_saturation():
    saturation = Saturation([0.0, -1.0], [1.0, 1.0])
    assert ports(saturation) == ([("u0", 2, V)], [("y0", 2, V)])
    np.testing.assert_array_equal(evaluate(saturation, [-3, 0.5]), [0, 0.5])
    np.testing.assert_array_equal(evaluate(saturation, [3, -5]), [1, -1])
    with pytest.raises(RuntimeError, match="must be <="):
        Saturation([1.0], [0.0])
    with pytest.raises(RuntimeError, match="must have the same size"):
        Saturation([1.0], [0.0, 1.0])


def test_pass_through():
    for system in (PassThrough(2), PassThrough([1.0, 2.0])):
        assert ports(system) == ([("u", 2, V)], [("y", 2, V)])
        np.testing.assert_array_equal(evaluate(system, [5, 6]), [5, 6])
    abstract = PassThrough(AbstractValue.Make("s"))
    assert ports(abstract) == ([("u", 0, A)], [("y", 0, A)])
    assert abstract.HasDirectFeedthrough(0, 0)
    assert evaluate(abstract, "hi") == "hi"


def test_demultiplexer():
    demux = Demultiplexer(4)
    assert ports(demux) == ([("u0", 4, V)], [(f"y{i}", 1, V) for i in range(4)])
    assert evaluate(demux, [1, 2, 3, 4], port=2).tolist() == [3]
    pairs = Demultiplexer(6, 2)
    assert [p[1] for p in ports(pairs)[1]] == [2, 2, 2]
    assert evaluate(pairs, np.arange(6.0), port=1).tolist() == [2, 3]
    uneven = Demultiplexer([1, 2])
    assert uneven.get_output_ports_sizes() == [1, 2]
    assert evaluate(uneven, [7, 8, 9], port=1).tolist() == [8, 9]
    with pytest.raises(RuntimeError, match="positive multiple"):
        Demultiplexer(5, 2)


def test_multiplexer():
    scalars = Multiplexer(3)
    assert ports(scalars) == ([("u0", 1, V), ("u1", 1, V), ("u2", 1, V)], [("y0", 3, V)])
    np.testing.assert_array_equal(evaluate(scalars, [1], [2], [3]), [1, 2, 3])
    sized = Multiplexer([1, 2])
    np.testing.assert_array_equal(evaluate(sized, [1], [2, 3]), [1, 2, 3])
    assert Multiplexer(BasicVector([0.0, 0.0])).num_input_ports() == 2


def test_integrator():
    integrator = Integrator(2)
    assert ports(integrator) == ([("u0", 2, V)], [("y0", 2, V)])
    assert not integrator.HasDirectFeedthrough(0, 0)
    assert integrator.num_continuous_states() == 2
    context = integrator.CreateDefaultContext()
    integrator.get_input_port().FixValue(context, [1.0, -2.0])
    integrator.set_integral_value(context, [1.0, 1.0])
    np.testing.assert_array_equal(integrator.get_output_port().Eval(context), [1, 1])
    simulator = Simulator(integrator, context)
    simulator.AdvanceTo(2.0)
    np.testing.assert_allclose(context.get_continuous_state_vector().CopyToVector(), [3, -3])
    start = Integrator([5.0])
    np.testing.assert_array_equal(
        start.CreateDefaultContext().get_continuous_state_vector().CopyToVector(), [5.0]
    )
    start.set_default_integral_value([6.0])
    assert start.CreateDefaultContext().get_continuous_state_vector()[0] == 6.0


def test_zero_order_hold():
    hold = ZeroOrderHold(0.1, 2, 0.05)
    assert ports(hold) == ([("u", 2, V)], [("y", 2, V)])
    assert (hold.period(), hold.offset()) == (0.1, 0.05)
    assert not hold.HasDirectFeedthrough(0, 0)
    assert hold.num_discrete_state_groups() == 1
    # Hold a ramp u = t: y jumps to u(offset + k·period) at those times.
    builder = DiagramBuilder()
    ramp = builder.AddSystem(
        TrajectorySource(PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [[0.0, 1.0]]))
    )
    hold = builder.AddSystem(ZeroOrderHold(0.1, 1, 0.05))
    builder.Connect(ramp.get_output_port(), hold.get_input_port())
    logger = LogVectorOutput(hold.get_output_port(), builder, 0.1)
    simulator = Simulator(builder.Build())
    simulator.AdvanceTo(0.5)
    log = logger.FindLog(simulator.get_context())
    # At t = 0.1k the last sample was at 0.1k − 0.05.
    np.testing.assert_allclose(log.data()[0], [0.0, 0.05, 0.15, 0.25, 0.35, 0.45], atol=1e-12)
    context = hold.CreateDefaultContext()
    hold.SetVectorState(context, [3.0])
    np.testing.assert_array_equal(hold.get_output_port().Eval(context), [3.0])
    abstract = ZeroOrderHold(0.5, AbstractValue.Make("init"))
    assert ports(abstract) == ([("u", 0, A)], [("y", 0, A)])
    context = abstract.CreateDefaultContext()
    abstract.get_input_port().FixValue(context, "sampled")
    assert abstract.get_output_port().Eval(context) == "init"
    simulator = Simulator(abstract, context)
    simulator.AdvanceTo(0.1)
    assert abstract.get_output_port().Eval(context) == "sampled"
    with pytest.raises(RuntimeError, match="offset_sec must be >= 0"):
        ZeroOrderHold(0.1, 1, -1.0)
    with pytest.raises(RuntimeError, match="period_sec must be positive"):
        ZeroOrderHold(0.0, 1)


def test_trajectory_source():
    trajectory = PiecewisePolynomial.FirstOrderHold(
        [0.0, 1.0, 3.0], np.array([[0.0, 1.0, 5.0], [2.0, 3.0, 3.0]])
    )
    source = TrajectorySource(trajectory, 1)
    assert ports(source) == ([], [("y0", 4, V)])
    context = source.CreateDefaultContext()
    expected = {
        -1: [0, 2, 0, 0],
        0: [0, 2, 1, 1],
        1: [1, 3, 2, 0],
        3: [5, 3, 2, 0],
        4: [5, 3, 0, 0],
    }
    for t, values in expected.items():  # as pydrake's
        context.SetTime(t)
        np.testing.assert_allclose(source.get_output_port().Eval(context), values)
    keep = TrajectorySource(trajectory, 1, zero_derivatives_beyond_limits=False)
    context = keep.CreateDefaultContext()
    context.SetTime(4.0)
    np.testing.assert_allclose(keep.get_output_port().Eval(context), [5, 3, 2, 0])
    source.UpdateTrajectory(PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [[1.0, 1.0], [0, 0]]))
    context = source.CreateDefaultContext()
    context.SetTime(0.5)
    np.testing.assert_allclose(source.get_output_port().Eval(context), [1, 0, 0, 0])
    with pytest.raises(RuntimeError, match="must be 2x1"):
        source.UpdateTrajectory(PiecewisePolynomial.FirstOrderHold([0.0, 1.0], [[1.0, 1.0]]))
    with pytest.raises(RuntimeError, match="one column"):
        TrajectorySource(PiecewisePolynomial(np.eye(2)))


def test_vector_log():
    log = VectorLog(2)
    assert (log.get_input_size(), log.num_samples(), VectorLog.kDefaultCapacity) == (2, 0, 1000)
    assert log.data().shape == (2, 0) and log.sample_times().shape == (0,)
    for k in range(2500):  # past the default capacity
        log.AddData(0.1 * k, [k, -k])
    assert log.num_samples() == 2500
    np.testing.assert_array_equal(log.data()[:, 2499], [2499, -2499])
    assert log.sample_times()[10] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        log.data()[0, 0] = 1.0  # read-only views
    log.Clear()
    assert log.num_samples() == 0
    log.Reserve(5000)
    with pytest.raises(RuntimeError, match="expected a sample of size 2, got 1"):
        log.AddData(0.0, [1.0])


def test_vector_log_sink_triggers():
    sink = VectorLogSink(2)
    assert ports(sink) == ([("data", 2, V)], [])
    triggers = sorted(e.trigger for e in sink._events)
    assert triggers == [TriggerType.kForced, TriggerType.kPerStep]
    assert sorted(e.trigger for e in VectorLogSink(2, 0.5)._events) == [
        TriggerType.kForced,
        TriggerType.kPeriodic,
    ]
    only_forced = VectorLogSink(2, {TriggerType.kForced})
    context = only_forced.CreateDefaultContext()
    only_forced.get_input_port().FixValue(context, [1.0, 2.0])
    context.SetTime(0.25)
    only_forced.ForcedPublish(context)
    log = only_forced.GetLog(context)
    assert log is only_forced.FindLog(context) is only_forced.GetMutableLog(context)
    assert log.sample_times().tolist() == [0.25] and log.data()[:, 0].tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="publish_period must be > 0 exactly when"):
        VectorLogSink(2, {TriggerType.kPeriodic})
    with pytest.raises(RuntimeError, match="publish_period must be > 0 exactly when"):
        VectorLogSink(2, {TriggerType.kForced}, 0.1)
    with pytest.raises(RuntimeError, match="publish_period must be >= 0"):
        VectorLogSink(2, -1.0)
    with pytest.raises(RuntimeError, match="non-empty subset"):
        VectorLogSink(2, {TriggerType.kInitialization})


def test_log_vector_output_with_triggers():
    builder = DiagramBuilder()
    source = builder.AddSystem(ConstantVectorSource([1.0, 2.0]))
    logger = LogVectorOutput(
        source.get_output_port(), builder, {TriggerType.kPeriodic}, publish_period=0.25
    )
    diagram = builder.Build()
    simulator = Simulator(diagram)
    simulator.AdvanceTo(1.0)
    log = logger.FindMutableLog(simulator.get_context())
    np.testing.assert_allclose(log.sample_times(), [0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_array_equal(log.data(), [[1] * 5, [2] * 5])
    diagram.ForcedPublish(simulator.get_context())  # kForced was not asked for
    assert log.num_samples() == 5
