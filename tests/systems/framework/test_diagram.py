"""Diagrams: building, subsystem queries, exported ports, evaluation through connections,
and the errors for unconnected inputs, mismatched ports and algebraic loops."""

import re

import numpy as np
import pytest

from mallard.common.value import AbstractValue
from mallard.systems.framework import (
    BasicVector,
    ContinuousStateIndex,
    Diagram,
    DiagramBuilder,
    LeafSystem,
)
from mallard.systems.primitives import Adder, Gain, Integrator, PassThrough


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


def build_adder_gain():
    """in0, a_u1 -> Adder "a" -> Gain(2) "g" -> g_y0."""
    builder = DiagramBuilder()
    adder = builder.AddNamedSystem("a", Adder(2, 1))
    gain = builder.AddNamedSystem("g", Gain(2.0, 1))
    builder.Connect(adder.get_output_port(), gain.get_input_port())
    builder.ExportInput(adder.get_input_port(0), "in0")
    builder.ExportInput(adder.get_input_port(1))
    builder.ExportOutput(gain.get_output_port())
    return builder.Build(), adder, gain


def test_exported_ports_and_evaluation():
    diagram, adder, gain = build_adder_gain()
    assert [diagram.get_input_port(i).get_name() for i in range(2)] == ["in0", "a_u1"]
    assert diagram.get_output_port().get_name() == "g_y0"
    context = diagram.CreateDefaultContext()
    diagram.get_input_port(0).FixValue(context, [1.0])
    diagram.get_input_port(1).FixValue(context, [2.0])
    np.testing.assert_array_equal(diagram.get_output_port().Eval(context), [6.0])
    # Changing a fixed value is seen downstream.
    diagram.get_input_port(1).FixValue(context, [4.0])
    np.testing.assert_array_equal(diagram.get_output_port().Eval(context), [10.0])
    np.testing.assert_array_equal(
        gain.get_input_port().Eval(diagram.GetSubsystemContext(gain, context)), [5.0]
    )


def test_subsystem_queries():
    diagram, adder, gain = build_adder_gain()
    assert diagram.GetSubsystemByName("g") is gain
    assert diagram.HasSubsystemNamed("a") and not diagram.HasSubsystemNamed("x")
    assert diagram.GetSystems() == [adder, gain]
    with raises(
        RuntimeError,
        "System _ does not have a subsystem named nope. The existing subsystems are named {a, g}.",
    ):
        diagram.GetSubsystemByName("nope")
    context = diagram.CreateDefaultContext()
    sub = diagram.GetSubsystemContext(gain, context)
    assert sub is diagram.GetMutableSubsystemContext(gain, context)
    assert sub is gain.GetMyContextFromRoot(context)
    gain.ValidateContext(sub)
    other = Gain(1.0, 1)
    with raises(
        RuntimeError,
        "GetSubsystemContext(): drake::systems::Gain<double> subsystem '::_' is not contained "
        "in drake::systems::Diagram<double> System '::_'.",
    ):
        diagram.GetSubsystemContext(other, context)
    assert diagram.GetSystemType() == "drake::systems::Diagram<double>"
    assert isinstance(diagram, Diagram)


def test_nested_diagram_context_and_state():
    inner = DiagramBuilder()
    integrator = inner.AddNamedSystem("int", Integrator(2))
    inner.ExportInput(integrator.get_input_port(), "u")
    inner.ExportOutput(integrator.get_output_port(), "y")
    inner_diagram = inner.Build()
    inner_diagram.set_name("inner")
    outer = DiagramBuilder()
    outer.AddSystem(inner_diagram)
    outer.ExportInput(inner_diagram.get_input_port(), "u")
    diagram = outer.Build()
    context = diagram.CreateDefaultContext()
    leaf = diagram.GetSubsystemContext(integrator, context)
    integrator.set_integral_value(leaf, [1.0, 2.0])
    np.testing.assert_array_equal(context.get_continuous_state_vector().CopyToVector(), [1, 2])
    diagram.get_input_port().FixValue(context, [3.0, 4.0])
    np.testing.assert_array_equal(diagram.EvalTimeDerivatives(context).CopyToVector(), [3.0, 4.0])


def test_unconnected_input_error():
    diagram, adder, _ = build_adder_gain()
    context = diagram.CreateDefaultContext()
    with raises(
        RuntimeError,
        "InputPort::Eval(): required InputPort[0] (u0) of System ::_::a (Adder<double>) is not "
        "connected",
    ):
        diagram.get_output_port().Eval(context)


def test_connect_errors():
    builder = DiagramBuilder()
    adder = builder.AddNamedSystem("add", Adder(2, 1))
    gain = builder.AddNamedSystem("g", Gain(1.0, 2))
    passthrough = builder.AddNamedSystem("p", PassThrough(AbstractValue.Make(1)))
    with raises(
        RuntimeError,
        "DiagramBuilder::Connect: Mismatched vector sizes while connecting output port sum of "
        "System add (size 1) to input port u0 of System g (size 2)",
    ):
        builder.Connect(adder.get_output_port(), gain.get_input_port())
    with pytest.raises(RuntimeError, match="Cannot mix vector-valued and abstract-valued"):
        builder.Connect(adder.get_output_port(), passthrough.get_input_port())
    with pytest.raises(RuntimeError, match="has not been registered to this DiagramBuilder") as e:
        builder.Connect(gain.get_output_port(), PassThrough(2).get_input_port())
    assert "currently registered to this builder are: 'add', 'g', 'p'." in str(e.value)
    other = builder.AddNamedSystem("other", Gain(1.0, 1))
    builder.Connect(adder.get_output_port(), other.get_input_port())
    with pytest.raises(RuntimeError, match="is already connected"):
        builder.Connect(adder.get_output_port(), other.get_input_port())


def test_a_system_in_two_diagrams():
    """As Drake's: AddSystem takes a system already in a Diagram (or added twice); Build()
    refuses it, naming both Diagrams."""
    gain = Gain(1.0, 1)
    builder = DiagramBuilder()
    builder.AddNamedSystem("g", gain)
    builder.Build().set_name("first")
    second = DiagramBuilder()
    second.AddSystem(gain)
    with raises(
        RuntimeError,
        "Cannot build subsystem 'g' into Diagram '::_' because it has already been built into "
        "a different Diagram '::first'",
    ):
        second.Build()
    twice = DiagramBuilder()
    other = twice.AddNamedSystem("h", Gain(1.0, 1))
    twice.AddSystem(other)
    with pytest.raises(RuntimeError, match="Cannot build subsystem 'h' into Diagram '::_'"):
        twice.Build()


def test_algebraic_loop_error():
    builder = DiagramBuilder()
    adder = builder.AddNamedSystem("add", Adder(2, 1))
    gain = builder.AddNamedSystem("g", Gain(1.0, 1))
    builder.Connect(adder.get_output_port(), gain.get_input_port())
    builder.Connect(gain.get_output_port(), adder.get_input_port(0))
    message = (
        "Reported algebraic loop detected in DiagramBuilder:\n"
        "  InputPort[0] (u0) of System ::add (Adder<double>) is direct-feedthrough to\n"
        "  OutputPort[0] (sum) of System ::add (Adder<double>) is connected to\n"
        "  InputPort[0] (u0) of System ::g (Gain<double>) is direct-feedthrough to\n"
        "  OutputPort[0] (y0) of System ::g (Gain<double>) is connected to\n"
        "  InputPort[0] (u0) of System ::add (Adder<double>)\n"
    )
    with pytest.raises(RuntimeError) as info:
        builder.Build()
    assert str(info.value).startswith(message)


def test_loop_through_state_is_no_algebraic_loop():
    builder = DiagramBuilder()
    adder = builder.AddNamedSystem("add", Adder(2, 1))
    integrator = builder.AddNamedSystem("int", Integrator(1))
    builder.Connect(adder.get_output_port(), integrator.get_input_port())
    builder.Connect(integrator.get_output_port(), adder.get_input_port(0))
    builder.ExportInput(adder.get_input_port(1))
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    diagram.get_input_port().FixValue(context, [1.0])
    context.SetContinuousState([2.0])
    np.testing.assert_array_equal(diagram.EvalTimeDerivatives(context).CopyToVector(), [3.0])


class _StateOut(LeafSystem):
    def __init__(self):
        super().__init__()
        self.DeclareVectorInputPort("u", 1)
        self.DeclareContinuousState(BasicVector([1.0, 2.0]))
        self.y = self.DeclareStateOutputPort("y", ContinuousStateIndex(0))


def test_state_output_port_has_no_feedthrough():
    system = _StateOut()
    assert not system.HasDirectFeedthrough(0, 0)
    context = system.CreateDefaultContext()
    np.testing.assert_array_equal(system.y.Eval(context), [1.0, 2.0])
    # Diagram input -> _StateOut -> Gain -> Diagram output: no feedthrough through state.
    builder = DiagramBuilder()
    state_out = builder.AddNamedSystem("s", _StateOut())
    gain = builder.AddNamedSystem("g", Gain(1.0, 2))
    builder.Connect(state_out.get_output_port(), gain.get_input_port())
    builder.ExportInput(state_out.get_input_port())
    builder.ExportOutput(gain.get_output_port())
    diagram = builder.Build()
    assert not diagram.HasDirectFeedthrough(0, 0)


def test_connect_to_same():
    """ConnectToSame(exemplar, dest): dest gets exemplar's source, an output port or an
    exported input of the Diagram; a no-op (False) for an exemplar with neither."""
    builder = DiagramBuilder()
    adder = builder.AddNamedSystem("a", Adder(2, 1))
    first, second, third = (builder.AddNamedSystem(n, Gain(3.0, 1)) for n in "xyz")
    builder.Connect(adder.get_output_port(), first.get_input_port())
    assert builder.ConnectToSame(first.get_input_port(), second.get_input_port())
    builder.ExportInput(adder.get_input_port(0), "in0")
    builder.ExportInput(adder.get_input_port(1), "in1")
    assert builder.ConnectToSame(adder.get_input_port(0), third.get_input_port())
    lone = builder.AddNamedSystem("lone", Gain(1.0, 1))
    spare = builder.AddNamedSystem("spare", Gain(1.0, 1))
    assert not builder.ConnectToSame(lone.get_input_port(), spare.get_input_port())
    assert not builder.IsConnectedOrExported(spare.get_input_port())
    for system in (first, second, third):
        builder.ExportOutput(system.get_output_port(), system.get_name())
    builder.ExportInput(lone.get_input_port(), "lone")
    builder.ExportInput(spare.get_input_port(), "spare")
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    diagram.get_input_port(0).FixValue(context, [1.0])
    diagram.get_input_port(1).FixValue(context, [2.0])
    assert [diagram.get_output_port(i).Eval(context)[0] for i in range(3)] == [9.0, 9.0, 3.0]
    again = DiagramBuilder()
    source = again.AddNamedSystem("b", Adder(1, 1))
    u, v = (again.AddNamedSystem(n, Gain(1.0, 1)) for n in "uv")
    again.Connect(source.get_output_port(), u.get_input_port())
    again.Connect(source.get_output_port(), v.get_input_port())
    with pytest.raises(RuntimeError, match="is already connected"):
        again.ConnectToSame(u.get_input_port(), v.get_input_port())
