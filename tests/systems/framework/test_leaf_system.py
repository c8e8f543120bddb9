"""LeafSystem: names, declarations of ports, state and parameters, contexts and their
defaults, context validation, port lookup and its errors, and time derivatives."""

import re

import numpy as np
import pytest

from mallard.common.value import AbstractValue
from mallard.systems.framework import (
    BasicVector,
    ContinuousState,
    InputPort,
    LeafSystem,
    OutputPort,
)
from tests.systems.framework.example_system import Example

TYPE = "tests.systems.framework.example_system.Example"


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


def test_names():
    system = Example()
    assert system.get_name() == "" and system.GetSystemName() == "_"
    assert system.GetSystemPathname() == "::_"
    assert system.GetSystemType() == TYPE
    system.set_name("ex")
    assert (system.get_name(), system.GetSystemName(), system.GetSystemPathname()) == (
        "ex",
        "ex",
        "::ex",
    )


def test_declared_sizes():
    system = Example()
    assert (system.num_input_ports(), system.num_output_ports()) == (2, 2)
    assert (system.num_continuous_states(), system.num_discrete_state_groups()) == (4, 2)
    assert system.num_abstract_states() == 1
    assert (system.num_numeric_parameter_groups(), system.num_abstract_parameters()) == (1, 1)


def test_default_context():
    system = Example()
    context = system.CreateDefaultContext()
    system.ValidateContext(context)
    np.testing.assert_array_equal(context.get_continuous_state_vector().CopyToVector(), np.zeros(4))
    np.testing.assert_array_equal(context.get_discrete_state(0).CopyToVector(), np.zeros(3))
    np.testing.assert_array_equal(context.get_discrete_state(1).CopyToVector(), [1, 2])
    assert context.get_abstract_state(0).get_value() == 5
    np.testing.assert_array_equal(context.get_numeric_parameter(0).CopyToVector(), [7, 8])
    assert context.get_abstract_parameter(0).get_value() == "p"
    context.SetTime(3.0)
    context.SetContinuousState(np.ones(4))
    context.SetDiscreteState(1, [0.0, 0.0])
    context.SetAbstractState(0, 0)
    context.get_mutable_numeric_parameter(0).SetZero()
    system.SetDefaultContext(context)
    assert context.get_time() == 3.0  # not a default: kept
    assert context.get_abstract_state(0).get_value() == 5
    np.testing.assert_array_equal(context.get_discrete_state(1).CopyToVector(), [1, 2])
    np.testing.assert_array_equal(context.get_numeric_parameter(0).CopyToVector(), [7, 8])
    assert not context.get_continuous_state_vector().CopyToVector().any()
    context.SetContinuousState(np.ones(4))
    system.SetRandomContext(context, None)  # the default: the default context
    assert not context.get_continuous_state_vector().CopyToVector().any()


def test_allocate_context():
    system = Example()
    context = system.AllocateContext()
    assert context.num_continuous_states() == 4 and context.num_input_ports() == 2
    system.ValidateContext(context)


def test_declare_continuous_state_overloads():
    for args, sizes, values in [
        ((3,), (0, 0, 3), [0, 0, 0]),
        ((2, 1, 0), (2, 1, 0), [0, 0, 0]),
        ((BasicVector([1.0, 2.0]),), (0, 0, 2), [1, 2]),
        ((BasicVector([1.0, 2.0, 3.0]), 1, 1, 1), (1, 1, 1), [1, 2, 3]),
    ]:
        system = LeafSystem()
        system.DeclareContinuousState(*args)
        xc = system.CreateDefaultContext().get_continuous_state()
        assert (xc.num_q(), xc.num_v(), xc.num_z()) == sizes
        np.testing.assert_array_equal(xc.CopyToVector(), values)
    with pytest.raises(TypeError):
        LeafSystem().DeclareContinuousState(1, 2)
    message = "Number of velocity variables 2 must not exceed number of position variables 1"
    with raises(RuntimeError, message):  # pydrake: when a Context is made
        LeafSystem().DeclareContinuousState(1, 2, 0)


def test_declare_discrete_and_abstract_state():
    system = LeafSystem()
    assert system.DeclareDiscreteState(2) == 0
    assert system.DeclareDiscreteState(BasicVector([3.0])) == 1
    assert system.DeclareDiscreteState(np.array([4.0, 5.0])) == 2
    assert system.DeclareAbstractState(AbstractValue.Make([1, 2])) == 0
    assert system.DeclareAbstractState(AbstractValue.Make("plain")) == 1
    context = system.CreateDefaultContext()
    assert [context.get_discrete_state(i).CopyToVector().tolist() for i in range(3)] == [
        [0, 0],
        [3],
        [4, 5],
    ]
    assert context.get_abstract_state(0).get_value() == [1, 2]
    assert context.get_abstract_state(1).get_value() == "plain"
    # Each context gets its own copy of the abstract model value.
    context.get_mutable_abstract_state(0).get_mutable_value().append(3)
    assert system.CreateDefaultContext().get_abstract_state(0).get_value() == [1, 2]
    with pytest.raises(RuntimeError, match="non-negative"):
        system.DeclareDiscreteState(-1)


def test_declare_parameters():
    system = LeafSystem()
    assert system.DeclareNumericParameter(BasicVector([1.0])) == 0
    assert system.DeclareNumericParameter(BasicVector([2.0, 3.0])) == 1
    assert system.DeclareAbstractParameter(AbstractValue.Make({"k": 1})) == 0
    context = system.CreateDefaultContext()
    np.testing.assert_array_equal(context.get_numeric_parameter(1).CopyToVector(), [2, 3])
    context.get_mutable_abstract_parameter(0).get_mutable_value()["k"] = 2
    assert system.CreateDefaultContext().get_abstract_parameter(0).get_value() == {"k": 1}


def test_ports_by_index_and_name():
    system = Example()
    assert system.get_input_port(0) is system.u and system.get_input_port(1) is system.a
    assert system.get_output_port(0) is system.y and system.get_output_port(1) is system.z
    assert isinstance(system.u, InputPort) and isinstance(system.y, OutputPort)
    assert system.GetInputPort("a") is system.a and system.GetOutputPort("y") is system.y
    assert system.HasInputPort("u") and not system.HasInputPort("y")
    assert system.HasOutputPort("z") and not system.HasOutputPort("u")
    single = LeafSystem()
    port = single.DeclareVectorInputPort("only", 1)
    assert single.get_input_port() is port


def test_port_errors():
    system = Example()
    message = (
        "System::get_input_port(): there is no input port with index 5 because there are only 2 "
        "input ports in system ::_."
    )
    with raises(IndexError, message):
        system.get_input_port(5)
    with raises(IndexError, message.replace("input", "output")):
        system.get_output_port(5)
    message = (
        f"System::get_input_port(): {TYPE} system '::_' has 2 inputs, so this convenience "
        "function cannot be used; instead, use another overload e.g. "
        "get_input_port(InputPortIndex) or GetInputPort(string)"
    )
    with raises(RuntimeError, message):
        system.get_input_port()
    message = (
        f"System::get_output_port(): {TYPE} system '::_' has 2 outputs, so this convenience "
        "function cannot be used; instead, use another overload e.g. "
        "get_output_port(OutputPortIndex) or GetOutputPort(string)"
    )
    with raises(RuntimeError, message):
        system.get_output_port()
    with raises(RuntimeError, "System _ already has an input port named u"):
        system.DeclareVectorInputPort("u", 3)
    with raises(RuntimeError, "System _ already has an output port named z"):
        system.DeclareAbstractOutputPort("z", lambda: AbstractValue.Make(1), lambda c, v: None)
    with pytest.raises(RuntimeError, match="does not have an input port named zz"):
        system.GetInputPort("zz")
    with pytest.raises(RuntimeError, match="does not have an output port named zz"):
        system.GetOutputPort("zz")


def test_validate_context():
    system = Example()
    other = Example().CreateDefaultContext()
    message = (
        f"A function call on a {TYPE} system named '::_' was passed the Context of a system "
        "named '::_' instead of the appropriate subsystem Context.\nFor more information about "
        "Context-System mismatches, see "
        "https://drake.mit.edu/troubleshooting.html#framework-context-system-mismatch"
    )
    with raises(RuntimeError, message):
        system.ValidateContext(other)
    with pytest.raises(TypeError):
        system.ValidateContext("context")
    with raises(RuntimeError, message):
        system.SetDefaultContext(other)


def test_eval_inputs():
    system = Example()
    context = system.CreateDefaultContext()
    system.u.FixValue(context, [1.0, 2.0])
    system.a.FixValue(context, "hi")
    vector = system.EvalVectorInput(context, 0)
    assert isinstance(vector, BasicVector)
    np.testing.assert_array_equal(vector.CopyToVector(), [1, 2])
    assert system.EvalAbstractInput(context, 1).get_value() == "hi"


def test_time_derivatives():
    system = Example()
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0, 2.0, 3.0, 4.0])
    derivatives = system.AllocateTimeDerivatives()
    assert isinstance(derivatives, ContinuousState) and derivatives.size() == 4
    assert (derivatives.num_q(), derivatives.num_v()) == (2, 1)
    system.CalcTimeDerivatives(context, derivatives)
    np.testing.assert_array_equal(derivatives.CopyToVector(), [-1, -2, -3, -4])
    np.testing.assert_array_equal(
        system.EvalTimeDerivatives(context).CopyToVector(), [-1, -2, -3, -4]
    )
    with pytest.raises(RuntimeError):
        system.CalcTimeDerivatives(Example().CreateDefaultContext(), derivatives)


def test_time_derivatives_must_be_overridden():
    system = LeafSystem()
    system.DeclareContinuousState(1)
    with pytest.raises(NotImplementedError, match="DoCalcTimeDerivatives"):
        system.EvalTimeDerivatives(system.CreateDefaultContext())
    stateless = LeafSystem()
    assert stateless.EvalTimeDerivatives(stateless.CreateDefaultContext()).size() == 0
