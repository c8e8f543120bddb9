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


def test_ports_declared_at_once_are_those_declared_one_by_one():
    def declare(system, at_once):
        inputs = [("a", 1), ("b", 0)]
        outputs = [
            ("y", 1, lambda c, out: out.SetFromVector([c.get_time()]), {system.time_ticket()}),
            ("z", 2, lambda c, out: out.SetFromVector([1.0, 2.0]), None),
        ]
        if at_once:
            names, sizes, calcs, prerequisites = map(list, zip(*outputs, strict=True))
            return (
                system._add_vector_inputs(["a", "b"], [1, 0]),
                system._add_vector_outputs(names, sizes, calcs, prerequisites),
            )
        return (
            [system._add_vector_input(*spec) for spec in inputs],
            [system._add_vector_output(*spec) for spec in outputs],
        )

    systems = LeafSystem(), LeafSystem()
    ports = [declare(s, at_once) for s, at_once in zip(systems, (True, False), strict=True)]
    for (inputs, outputs), system in zip(ports, systems, strict=True):
        assert [(p.get_name(), p.get_index(), p.size()) for p in inputs] == [
            ("a", 0, 1),
            ("b", 1, 0),
        ]
        assert [(p.get_name(), p.get_index(), p.size()) for p in outputs] == [
            ("y", 0, 1),
            ("z", 1, 2),
        ]
        assert outputs[0]._feedthrough_inputs() == set()
        assert outputs[1]._feedthrough_inputs() == {0, 1}
        context = system.CreateDefaultContext()
        context.SetTime(0.5)
        assert outputs[0].Eval(context).tolist() == [0.5]
    # A name taken (or repeated) is the error of declaring the ports one by one.
    for system in systems:
        with raises(RuntimeError, "System _ already has an input port named a"):
            system._add_vector_inputs(["c", "a"], [1, 1])
        with raises(RuntimeError, "System _ already has an output port named w"):
            system._add_vector_outputs(["w", "w"], [1, 1], [lambda c, out: None] * 2, [None])


def test_ports_declared_at_once_cycle_their_prerequisites():
    """Port k of _add_vector_outputs takes prerequisites[k % len(prerequisites)]; sizes that
    are not plain ints (a numpy integer) declare the same ports one by one."""
    system = LeafSystem()
    time_only = {system.time_ticket()}
    outputs = system._add_vector_outputs(
        ["y0", "y1", "y2"], [1, np.int64(2), 1], [lambda c, out: None] * 3, [time_only, None]
    )
    assert [(p.get_name(), p.get_index(), p.size()) for p in outputs] == [
        ("y0", 0, 1),
        ("y1", 1, 2),
        ("y2", 2, 1),
    ]
    assert [p._prerequisites for p in outputs] == [time_only, None, time_only]
    inputs = system._add_vector_inputs(["u0", "u1"], [np.int64(3), 0])
    assert [(p.get_name(), p.get_index(), p.size()) for p in inputs] == [("u0", 0, 3), ("u1", 1, 0)]
