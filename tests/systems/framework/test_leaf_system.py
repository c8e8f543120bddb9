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
    InputPortIndex,
    LeafSystem,
    OutputPort,
    OutputPortIndex,
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


def test_ports_by_index_types():
    """Ports are found by any index pybind11 converts to an int (the index types, numpy's
    integers, bools), as pydrake's; other values raise pybind11's TypeError, negative ones
    Drake's IndexError."""
    system = Example()
    assert system.get_input_port(InputPortIndex(1)) is system.get_input_port(1)
    assert system.get_input_port(OutputPortIndex(1)) is system.get_input_port(1)
    assert system.get_output_port(np.int64(1)) is system.get_output_port(1)
    assert system.get_output_port(True) is system.get_output_port(1)
    assert system.get_input_port(port_index=InputPortIndex(0), warn_deprecated=False) is (
        system.get_input_port(0)
    )
    with raises(
        IndexError,
        "System::get_input_port(): there is no input port with index 9 because there are only 2 "
        "input ports in system ::_.",
    ):
        system.get_input_port(InputPortIndex(9))
    for index in (-1, InputPortIndex()):
        value = int(index)
        with raises(
            IndexError,
            f"System::get_output_port(): negative port index {value} is illegal. (System ::_)",
        ):
            system.get_output_port(index)
    for index in (1.0, "u", None.__class__):
        with raises(
            TypeError,
            "get_input_port(): incompatible function arguments. The following argument types "
            "are supported:\n"
            "    1. (self: mallard.systems.framework.System, port_index: int, warn_deprecated: "
            "bool = True) -> mallard.systems.framework.InputPort\n"
            "    2. (self: mallard.systems.framework.System) -> "
            "mallard.systems.framework.InputPort\n\n"
            f"Invoked with: {system!r}, {index!r}",
        ):
            system.get_input_port(index)


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


def test_declared_indices_feed_declare_state_output_port():
    from mallard.systems.framework import (
        AbstractStateIndex,
        ContinuousStateIndex,
        DiscreteStateIndex,
        kUseDefaultName,
    )

    system = LeafSystem()
    xc = system.DeclareContinuousState(num_q=1, num_v=1, num_z=0)
    xd = system.DeclareDiscreteState(vector=[3.0, 4.0])
    xa = system.DeclareAbstractState(AbstractValue.Make("s"))
    assert (type(xc), type(xd), type(xa)) == (
        ContinuousStateIndex,
        DiscreteStateIndex,
        AbstractStateIndex,
    )
    ports = [system.DeclareStateOutputPort(kUseDefaultName, i) for i in (xc, xd, xa)]
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0, 2.0])
    assert [p.get_name() for p in ports] == ["y0", "y1", "y2"]
    assert ports[0].Eval(context).tolist() == [1.0, 2.0]
    assert ports[1].Eval(context).tolist() == [3.0, 4.0]
    assert ports[2].Eval(context) == "s"
    message = "the state index must be a ContinuousStateIndex, DiscreteStateIndex or"
    with pytest.raises(TypeError, match=message):
        system.DeclareStateOutputPort("z", 0)
    with pytest.raises(RuntimeError, match="there is no discrete state group 1"):
        system.DeclareStateOutputPort("z", DiscreteStateIndex(1))


def test_declaration_overload_errors_list_the_overloads():
    system = LeafSystem()
    with pytest.raises(TypeError, match=r"(?s)DeclareDiscreteState.*model_vector.*Invoked"):
        system.DeclareDiscreteState("two")
    with pytest.raises(TypeError, match=r"(?s)1\. LeafSystem.DeclareVectorInputPort\(name"):
        system.DeclareVectorInputPort("u", size=2, sise=3)
    with pytest.raises(TypeError, match="DeclareContinuousState"):
        system.DeclareContinuousState(np.array([1.0, 2.0]))  # (a BasicVector, as pydrake's)
    with pytest.raises(TypeError, match="DeclareVectorOutputPort"):
        system.DeclareVectorOutputPort("y", 1, "not callable")


def test_declare_input_port_and_random_type():
    from mallard.common import RandomDistribution
    from mallard.systems.framework import PortDataType, kUseDefaultName

    system = LeafSystem()
    port = system.DeclareInputPort(kUseDefaultName, PortDataType.kVectorValued, 2)
    noise = system.DeclareVectorInputPort("w", 1, RandomDistribution.kGaussian)
    assert (port.get_name(), port.size(), port.is_random(), port.get_random_type()) == (
        "u0",
        2,
        False,
        None,
    )
    assert noise.is_random() and noise.get_random_type() == RandomDistribution.kGaussian
    with pytest.raises(RuntimeError, match="use DeclareAbstractInputPort"):
        system.DeclareInputPort("a", PortDataType.kAbstractValued, 0)
    with pytest.raises(RuntimeError, match="must not be empty"):
        system.DeclareVectorInputPort("", 1)
    with pytest.raises(TypeError, match="random_type must be a RandomDistribution"):
        system.DeclareVectorInputPort("r", 1, "gaussian")
    with pytest.raises(RuntimeError, match="already has an input port named w"):
        system.DeclareInputPort("w", PortDataType.kVectorValued, 1)


def test_cache_entries():
    from mallard.systems.framework import CacheIndex, ValueProducer

    calls = []
    system = LeafSystem()
    system.DeclareContinuousState(1)
    u = system.DeclareVectorInputPort("u", 1)

    def calc(context, value):
        calls.append(1)
        value.set_value(context.get_continuous_state_vector()[0] + u.Eval(context)[0])

    entry = system.DeclareCacheEntry(
        "x+u", ValueProducer(lambda: 0.0, calc), {system.xc_ticket(), u.ticket()}
    )
    twice = system.DeclareCacheEntry(
        "2(x+u)",
        ValueProducer(lambda: 0.0, lambda c, v: v.set_value(2 * entry.Eval(c))),
        {entry.ticket()},
    )
    assert system.get_cache_entry(CacheIndex(1)) is twice and system.num_cache_entries() == 2
    context = system.CreateDefaultContext()
    u.FixValue(context, 1.0)
    assert (twice.Eval(context), len(calls)) == (2.0, 1)
    context.SetContinuousState([2.0])  # through the entry it depends on
    assert twice.is_out_of_date(context) and (twice.Eval(context), len(calls)) == (6.0, 2)
    u.FixValue(context, 0.0)
    assert (twice.Eval(context), len(calls)) == (4.0, 3)
    context.SetTime(1.0)  # an input may depend on time upstream: recomputed
    assert entry.is_out_of_date(context)
    entry.disable_caching_by_default()
    assert entry.is_disabled_by_default()
    fresh = system.CreateDefaultContext()
    u.FixValue(fresh, 0.0)
    entry.Eval(fresh), entry.Eval(fresh)
    assert entry.is_cache_entry_disabled(fresh) and len(calls) == 5
    with pytest.raises(RuntimeError, match="depend on themselves"):
        loop = system.DeclareCacheEntry(
            "loop", ValueProducer(lambda: 0.0, calc), {system.cache_entry_ticket(2)}
        )
        loop.Eval(context)
    with pytest.raises(TypeError, match="expected a ValueProducer"):
        system.DeclareCacheEntry("bad", calc)
    with pytest.raises(TypeError, match="both must be callable"):
        ValueProducer(0.0, calc)
    with pytest.raises(TypeError, match="must hold DependencyTickets"):
        system.DeclareCacheEntry("bad", ValueProducer(lambda: 0.0, calc), {0})
    with pytest.raises(IndexError, match="there is no cache entry 7"):
        system.get_cache_entry(7)
    with pytest.raises(RuntimeError, match="was passed the Context"):
        entry.Eval(LeafSystem().CreateDefaultContext())


def test_fix_input_ports_from_checks_the_port_counts():
    one, two = LeafSystem(), LeafSystem()
    one.DeclareVectorInputPort("u", 1)
    with pytest.raises(RuntimeError, match="has 1 input ports, this system 0"):
        two.FixInputPortsFrom(one, one.CreateDefaultContext(), two.CreateDefaultContext())
    empty = one.CreateDefaultContext()
    target = one.CreateDefaultContext()
    one.FixInputPortsFrom(one, empty, target)  # a port without a value stays without
    assert not one.get_input_port().HasValue(target)


def test_a_port_name_is_taken_only_by_a_declared_port():
    system = LeafSystem()
    with pytest.raises(TypeError, match="random_type must be a RandomDistribution"):
        system.DeclareVectorInputPort("u", 2, "not a distribution")
    system.DeclareVectorInputPort("u", 2)  # (the failed declaration took no name)
    system.DeclareVectorOutputPort("u", 1, lambda context, output: None)  # (per kind)
    with raises(RuntimeError, "System _ already has an input port named u"):
        system.DeclareAbstractInputPort("u", AbstractValue.Make(1))
    with raises(RuntimeError, "System _ already has an output port named u"):
        system.DeclareVectorOutputPort("u", 1, lambda context, output: None)
    assert [system.get_input_port(0).get_name(), system.get_output_port(0).get_name()] == [
        "u",
        "u",
    ]
