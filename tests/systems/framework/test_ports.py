"""Input and output ports: values fixed in a Context, evaluation, allocation, descriptions
and the errors of each."""

import re

import numpy as np
import pytest

from mallard.common.value import AbstractValue
from mallard.systems.framework import (
    BasicVector,
    FixedInputPortValue,
    LeafSystem,
    PortDataType,
)
from tests.systems.framework.example_system import Example

DESCRIPTION = "of System ::_ (tests.systems.framework.example_system.Example)"


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


@pytest.fixture
def system():
    return Example()


@pytest.fixture
def context(system):
    return system.CreateDefaultContext()


def test_port_properties(system):
    assert (system.u.get_name(), system.u.get_index(), system.u.size()) == ("u", 0, 2)
    assert system.u.get_data_type() == PortDataType.kVectorValued
    assert system.a.get_data_type() == PortDataType.kAbstractValued and system.a.size() == 0
    assert (system.z.get_name(), system.z.get_index(), system.z.size()) == ("z", 1, 0)
    assert system.y.get_system() is system and system.u.get_system() is system
    assert repr(PortDataType.kVectorValued) == "<PortDataType.kVectorValued: 0>"
    assert system.u.GetFullDescription() == f"InputPort[0] (u) {DESCRIPTION}"
    assert system.z.GetFullDescription() == f"OutputPort[1] (z) {DESCRIPTION}"


def test_fix_value(system, context):
    assert not system.u.HasValue(context)
    fixed = system.u.FixValue(context, [1.0, 2.0])
    assert isinstance(fixed, FixedInputPortValue) and system.u.HasValue(context)
    np.testing.assert_array_equal(system.u.Eval(context), [1, 2])
    system.u.FixValue(context, BasicVector([3.0, 4.0]))
    np.testing.assert_array_equal(system.u.Eval(context), [3, 4])
    system.u.FixValue(context, np.array([[5.0], [6.0]]))
    np.testing.assert_array_equal(system.u.Eval(context), [5, 6])
    system.u.FixValue(context, AbstractValue.Make(BasicVector([7.0, 8.0])))
    np.testing.assert_array_equal(system.u.EvalBasicVector(context).CopyToVector(), [7, 8])
    value = system.u.Eval(context)
    value[0] = 0.0  # a copy
    np.testing.assert_array_equal(system.u.Eval(context), [7, 8])
    system.a.FixValue(context, "hi")
    assert system.a.Eval(context) == "hi"
    assert system.a.EvalAbstract(context).get_value() == "hi"
    system.a.FixValue(context, AbstractValue.Make("there"))
    assert system.a.Eval(context) == "there"


def test_fixed_value_is_mutable(system, context):
    fixed = system.u.FixValue(context, [1.0, 2.0])
    fixed.GetMutableData().get_mutable_value().SetAtIndex(0, 9.0)
    np.testing.assert_array_equal(system.u.Eval(context), [9, 2])
    np.testing.assert_array_equal(system.y.Eval(context), [18, 4])


def test_fix_value_errors(system, context):
    message = (
        "System::FixInputPortTypeCheck(): expected value of type "
        "drake::systems::BasicVector<double> with size=2 for input port 'u' (index 0) but the "
        "actual type was drake::systems::BasicVector<double> with size=3. (System ::_)"
    )
    with raises(RuntimeError, message):
        system.u.FixValue(context, [1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="expected value of type str for input port 'a'"):
        system.a.FixValue(context, 3)
    # A matrix of the port's size is not a vector: the message names its shape.
    four = LeafSystem()
    port = four.DeclareVectorInputPort("m", 4)
    message = (
        "System::FixInputPortTypeCheck(): expected value of type "
        "drake::systems::BasicVector<double> with size=4 for input port 'm' (index 0) but the "
        "actual type was an array of shape (2, 2). (System ::_)"
    )
    with raises(RuntimeError, message):
        port.FixValue(four.CreateDefaultContext(), np.eye(2))
    for bad in (None, "1"):
        with pytest.raises(TypeError, match="takes a vector of 2 numbers"):
            system.u.FixValue(context, bad)
    with pytest.raises(TypeError, match="u: expected a scalar, got object"):
        system.u.FixValue(context, np.array([object(), object()]))
    other = Example().CreateDefaultContext()
    message = (
        "InputPort: The Context given as an argument was not created for this InputPort[0] (u) "
        f"{DESCRIPTION}"
    )
    with raises(RuntimeError, message):
        system.u.FixValue(other, [1.0, 2.0])
    with raises(RuntimeError, message):
        system.u.HasValue(other)


def test_unconnected_input(system, context):
    for port, index, name in ((system.u, 0, "u"), (system.a, 1, "a")):
        message = (
            f"InputPort::Eval(): required InputPort[{index}] ({name}) {DESCRIPTION} is not "
            "connected"
        )
        with raises(RuntimeError, message):
            port.Eval(context)
        with raises(RuntimeError, message):
            port.EvalAbstract(context)


def test_input_allocate(system):
    value = system.u.Allocate()
    assert isinstance(value, AbstractValue) and isinstance(value.get_value(), BasicVector)
    assert np.isnan(value.get_value().CopyToVector()).all()  # declared by size
    assert system.a.Allocate().get_value() == "hello"


def test_vector_output(system, context):
    system.u.FixValue(context, [1.0, 2.0])
    context.SetContinuousState([10.0, 20.0, 0.0, 0.0])
    y = system.y.Eval(context)
    np.testing.assert_array_equal(y, [12, 24])
    y[0] = 0.0  # a copy
    basic = system.y.EvalBasicVector(context)
    assert isinstance(basic, BasicVector)
    np.testing.assert_array_equal(basic.CopyToVector(), [12, 24])
    abstract = system.y.EvalAbstract(context)
    np.testing.assert_array_equal(abstract.get_value().CopyToVector(), [12, 24])
    allocated = system.y.Allocate()
    assert np.isnan(allocated.get_value().CopyToVector()).all()
    system.y.Calc(context, allocated)
    np.testing.assert_array_equal(allocated.get_value().CopyToVector(), [12, 24])
    # The output follows the context.
    system.u.FixValue(context, [0.0, 0.0])
    np.testing.assert_array_equal(system.y.Eval(context), [10, 20])


def test_abstract_output(system, context):
    system.a.FixValue(context, "hi")
    assert system.z.Eval(context) == "hi!"
    value = system.z.EvalAbstract(context)
    assert isinstance(value, AbstractValue) and value.get_value() == "hi!"
    allocated = system.z.Allocate()
    assert isinstance(allocated, AbstractValue) and allocated.get_value() == ""
    system.z.Calc(context, allocated)
    assert allocated.get_value() == "hi!"
    with pytest.raises(RuntimeError, match="is abstract"):
        system.z.EvalBasicVector(context)


def test_abstract_output_calc_receives_the_abstract_value():
    seen = []

    class System(Example):
        def calc_z(self, context, output):
            seen.append(type(output))
            output.set_value("x")

    system = System()
    assert system.z.Eval(system.CreateDefaultContext()) == "x"
    assert issubclass(seen[0], AbstractValue)


def test_output_checks_the_context(system):
    other = Example().CreateDefaultContext()
    message = (
        "OutputPort: The Context given as an argument was not created for this OutputPort[0] "
        f"(y) {DESCRIPTION}"
    )
    for call in (system.y.Eval, system.y.EvalBasicVector, system.y.EvalAbstract):
        with raises(RuntimeError, message):
            call(other)
    with raises(RuntimeError, message):
        system.y.Calc(other, system.y.Allocate())


def test_fixed_values_in_a_clone(system, context):
    system.u.FixValue(context, [1.0, 2.0])
    clone = context.Clone()
    system.u.FixValue(context, [0.0, 0.0])
    np.testing.assert_array_equal(system.u.Eval(clone), [1, 2])
    assert not system.a.HasValue(clone)


def test_ports_of_one_size_share_their_model_not_their_values():
    system = LeafSystem()
    u1 = system.DeclareVectorInputPort("u1", 2)
    u2 = system.DeclareVectorInputPort("u2", 2)
    y1 = system.DeclareVectorOutputPort("y1", 2, lambda c, out: out.SetFromVector([1.0, 2.0]))
    y2 = system.DeclareVectorOutputPort("y2", 2, lambda c, out: out.SetFromVector([3.0, 4.0]))
    a, b = u1.Allocate(), u2.Allocate()
    assert a is not b and a.get_value() is not b.get_value()
    a.get_mutable_value().SetFromVector([5.0, 6.0])
    assert np.isnan(u2.Allocate().get_value().CopyToVector()).all()
    context = system.CreateDefaultContext()
    assert y1.Eval(context).tolist() == [1.0, 2.0] and y2.Eval(context).tolist() == [3.0, 4.0]
    assert np.isnan(y1.Allocate().get_value().CopyToVector()).all()


def _output(system, index, name, i, j, prerequisites):
    """A PortBlock's make for the tests: output j of prefix i, of size i + j, its value the
    time plus i."""
    calc = lambda c, out: out.SetFromVector(np.full(i + j, c.get_time() + i))  # noqa: E731
    return system._vector_output_port(index, name, i + j, calc, prerequisites)


def _input(system, index, name, i, j, _):
    return system._vector_input_port(index, name, i + j)


def _declare_blocks(system, prefixes, at_once):
    """Input ports prefix + ("_u", "_w") and output ports prefix + ("_y", "_z") (sizes i + j),
    declared as blocks or one by one; the outputs' prerequisites: time, then all sources."""
    time_only = {system.time_ticket()}
    positions = {prefix: i for i, prefix in enumerate(prefixes)}
    if at_once:
        system._declare_port_block("input", prefixes, positions, ("_u", "_w"), _input)
        system._declare_port_block(
            "output", prefixes, positions, ("_y", "_z"), _output, (time_only, None)
        )
        return
    for i, prefix in enumerate(prefixes):
        for j, suffix in enumerate(("_u", "_w")):
            system._add_vector_input(prefix + suffix, i + j)
    for i, prefix in enumerate(prefixes):
        for j, (suffix, tickets) in enumerate((("_y", time_only), ("_z", None))):
            port = _output(system, 0, "", i, j, None)
            system._add_vector_output(prefix + suffix, i + j, port._calc, tickets)


def _described(system):
    context = system.CreateDefaultContext()
    context.SetTime(0.5)
    inputs = [(p.get_name(), p.get_index(), p.size()) for p in system._input_ports]
    outputs = [
        (p.get_name(), p.get_index(), p.size(), p._feedthrough_inputs(), p.Eval(context).tolist())
        for p in system._output_ports
    ]
    return inputs, outputs


def test_ports_declared_in_a_block_are_those_declared_one_by_one():
    systems = LeafSystem(), LeafSystem()
    for system, at_once in zip(systems, (True, False), strict=True):
        system.DeclareVectorInputPort("first", 1)
        _declare_blocks(system, ["a", "b", "c"], at_once)
    block, one_by_one = systems
    # Nothing is made until read; then a port is the same object at every read.
    assert (block._input_ports._unmade, block._output_ports._unmade) == (6, 6)
    assert block.get_output_port(3) is block.GetOutputPort("b_z") is block.get_output_port(3)
    assert block.HasInputPort("c_w") and not block.HasInputPort("c_v")
    assert block._output_ports._unmade == 5 and block._input_ports._unmade == 6
    assert _described(block) == _described(one_by_one)
    assert block._output_ports[0]._prerequisites == {block.time_ticket()}
    assert block._output_ports[1]._prerequisites is None
    assert [p.get_name() for p in block._output_ports[-2:]] == ["c_y", "c_z"]
    # A port declared after the block is numbered after it, its name checked against it.
    with raises(RuntimeError, "System _ already has an input port named b_u"):
        block.DeclareVectorInputPort("b_u", 1)
    assert block.DeclareVectorInputPort("d_u", 1).get_index() == 7
    with raises(
        RuntimeError,
        "System _ does not have an output port named q (valid port names: a_y, a_z, b_y, b_z, "
        "c_y, c_z)",
    ):
        block.GetOutputPort("q")


def test_a_block_of_names_taken_declares_its_ports_one_by_one():
    """A name already taken, or two ports of a block named alike, is the error of declaring
    its ports one by one (the ports before it declared)."""
    system = LeafSystem()
    system.DeclareVectorInputPort("b_w", 1)
    with raises(RuntimeError, "System _ already has an input port named b_w"):
        system._declare_port_block("input", ["a", "b"], {"a": 0, "b": 1}, ("_u", "_w"), _input)
    assert [p.get_name() for p in system._input_ports] == ["b_w", "a_u", "a_w", "b_u"]
    assert not system._input_ports._blocks
    system = LeafSystem()
    with raises(RuntimeError, "System _ already has an output port named a_x_y"):
        system._declare_port_block(
            "output", ["a", "a_x"], {"a": 0, "a_x": 1}, ("_x_y", "_y"), _output, (None, None)
        )
