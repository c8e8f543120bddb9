"""Context: time, state, parameters, cloning, copying from another Context, printing, and
the serial numbers that tell caches what changed."""

import copy
import re

import numpy as np
import pytest

from mallard.common.value import AbstractValue
from mallard.systems.framework import (
    AbstractValues,
    BasicVector,
    Context,
    ContinuousState,
    DiscreteValues,
    LeafSystem,
    Parameters,
    State,
)
from tests.systems.framework.example_system import Example


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


@pytest.fixture
def system():
    return Example()


@pytest.fixture
def context(system):
    return system.CreateDefaultContext()


def test_counts(context):
    assert isinstance(context, Context)
    assert (context.num_continuous_states(), context.num_discrete_state_groups()) == (4, 2)
    assert context.num_abstract_states() == 1
    with pytest.raises(RuntimeError, match="abstract"):  # pydrake: SystemExit
        context.num_total_states()
    assert (context.num_numeric_parameter_groups(), context.num_abstract_parameters()) == (1, 1)
    assert (context.num_input_ports(), context.num_output_ports()) == (2, 2)
    assert not context.is_stateless()
    assert not context.has_only_continuous_state() and not context.has_only_discrete_state()
    empty = LeafSystem().CreateDefaultContext()
    assert empty.is_stateless() and empty.num_total_states() == 0
    continuous = LeafSystem()
    continuous.DeclareContinuousState(3)
    only = continuous.CreateDefaultContext()
    assert only.has_only_continuous_state() and only.num_total_states() == 3


def test_time_and_accuracy(context):
    assert context.get_time() == 0.0
    context.SetTime(2.5)
    assert context.get_time() == 2.5
    assert context.get_accuracy() is None
    context.SetAccuracy(1e-3)
    assert context.get_accuracy() == 1e-3
    context.SetTimeAndContinuousState(3.0, [1.0, 2.0, 3.0, 4.0])
    assert context.get_time() == 3.0
    np.testing.assert_array_equal(
        context.get_continuous_state_vector().CopyToVector(), [1, 2, 3, 4]
    )


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_time_is_rejected(context, bad):
    # pydrake accepts these (a Simulator then aborts); mallard refuses them at the call.
    with raises(RuntimeError, f"Context.SetTime(): the time must be finite, got {bad}"):
        context.SetTime(bad)
    with pytest.raises(RuntimeError, match="must be finite"):
        context.SetTimeAndContinuousState(bad, [1.0, 2.0, 3.0, 4.0])
    assert context.get_time() == 0.0
    with pytest.raises(TypeError, match="time_sec"):
        context.SetTime("1.0")
    context.SetTime(np.int64(2))  # an integer is a time, stored as a float
    assert type(context.get_time()) is float and context.get_time() == 2.0


def test_non_finite_time_of_a_diagram_is_rejected():
    from mallard.autodiffutils import AutoDiffXd
    from mallard.systems.framework import DiagramBuilder
    from mallard.systems.primitives import Adder

    builder = DiagramBuilder()
    builder.AddSystem(Adder(2, 1))
    context = builder.Build().CreateDefaultContext()
    with raises(RuntimeError, "Context.SetTime(): the time must be finite, got nan"):
        context.SetTime(np.nan)
    assert context.get_time() == 0.0
    assert all(sub.get_time() == 0.0 for sub in context._subcontexts)
    context_ad = context._system.ToAutoDiffXd().CreateDefaultContext()
    with raises(RuntimeError, "Context.SetTime(): the time must be finite, got inf"):
        context_ad.SetTime(AutoDiffXd(np.inf, [1.0]))


def test_continuous_state(context):
    xc = context.get_continuous_state()
    assert isinstance(xc, ContinuousState)
    assert (xc.size(), xc.num_q(), xc.num_v(), xc.num_z()) == (4, 2, 1, 1)
    np.testing.assert_array_equal(xc.CopyToVector(), np.zeros(4))
    mutable = context.get_mutable_continuous_state()
    mutable.get_mutable_generalized_position().SetFromVector([1.0, 2.0])
    mutable.get_mutable_generalized_velocity().SetAtIndex(0, 3.0)
    mutable.get_mutable_misc_continuous_state().SetAtIndex(0, 4.0)
    np.testing.assert_array_equal(
        context.get_continuous_state_vector().CopyToVector(), [1, 2, 3, 4]
    )
    np.testing.assert_array_equal(xc.get_generalized_position().CopyToVector(), [1, 2])
    np.testing.assert_array_equal(xc.get_generalized_velocity().CopyToVector(), [3])
    np.testing.assert_array_equal(xc.get_misc_continuous_state().CopyToVector(), [4])
    assert xc[2] == 3.0
    xc[3] = 7.0
    assert xc.get_vector().GetAtIndex(3) == 7.0
    context.get_mutable_continuous_state_vector().SetFromVector([9.0, 9.0, 9.0, 9.0])
    np.testing.assert_array_equal(xc.CopyToVector(), [9, 9, 9, 9])
    context.SetContinuousState(np.array([[1.0], [2.0], [3.0], [4.0]]))
    np.testing.assert_array_equal(xc.get_mutable_vector().CopyToVector(), [1, 2, 3, 4])
    message = "Operand vector size 2 does not match this drake::systems::BasicVector<double> size 4"
    with raises(IndexError, message):
        context.SetContinuousState([1.0, 2.0])


def test_discrete_state(context):
    xd = context.get_discrete_state()
    assert isinstance(xd, DiscreteValues) and xd.num_groups() == 2
    np.testing.assert_array_equal(context.get_discrete_state(1).CopyToVector(), [1, 2])
    np.testing.assert_array_equal(xd.get_vector().CopyToVector(), [0, 0, 0])  # group 0
    np.testing.assert_array_equal(xd.value(1), [1, 2])
    np.testing.assert_array_equal(xd.get_value(1), [1, 2])
    context.SetDiscreteState(0, [4.0, 5.0, 6.0])
    context.get_mutable_discrete_state(1).SetAtIndex(0, 7.0)
    np.testing.assert_array_equal(context.get_discrete_state(0).CopyToVector(), [4, 5, 6])
    np.testing.assert_array_equal(context.get_discrete_state(1).CopyToVector(), [7, 2])
    xd.set_value(1, [0.0, 1.0])
    xd.get_mutable_value(0)[0] = -1.0
    np.testing.assert_array_equal(context.get_discrete_state(1).CopyToVector(), [0, 1])
    assert context.get_discrete_state(0).GetAtIndex(0) == -1.0
    other = DiscreteValues([BasicVector([1.0, 1.0, 1.0]), BasicVector([2.0, 2.0])])
    context.SetDiscreteState(other)
    np.testing.assert_array_equal(context.get_discrete_state(1).CopyToVector(), [2, 2])
    context.get_mutable_state().get_mutable_discrete_state().get_mutable_vector(1).SetZero()
    np.testing.assert_array_equal(context.get_discrete_state(1).CopyToVector(), [0, 0])


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.get_discrete_state_vector(),
        lambda c: c.get_mutable_discrete_state_vector(),
        lambda c: c.get_discrete_state().size(),
        lambda c: c.get_discrete_state()[0],
        lambda c: c.get_discrete_state().__setitem__(0, 1.0),
        lambda c: c.get_discrete_state().set_value([1.0, 2.0, 3.0]),
    ],
)
def test_discrete_convenience_methods_need_one_group(context, call):
    message = (
        "Cannot use DiscreteValues convenience methods unless there is exactly one group. "
        "num_groups() = 2"
    )
    with raises(RuntimeError, message):
        call(context)


def test_set_discrete_state_needs_one_group(context):
    message = (
        "Context::SetDiscreteState(): expected exactly 1 discrete state group but there were 2 "
        "groups. Use the other signature if you have multiple groups."
    )
    with raises(RuntimeError, message):
        context.SetDiscreteState([1.0, 2.0, 3.0])


def test_discrete_convenience_methods_with_one_group():
    values = DiscreteValues(BasicVector([1.0, 2.0]))
    assert values.size() == 2 and values[1] == 2.0
    values[0] = 5.0
    values.set_value([3.0, 4.0])
    np.testing.assert_array_equal(values.get_vector().CopyToVector(), [3, 4])
    assert DiscreteValues().num_groups() == 0
    with pytest.raises(IndexError):
        values.get_vector(1)  # pydrake: SystemExit


def test_abstract_state(context):
    assert context.get_abstract_state(0).get_value() == 5
    context.SetAbstractState(0, 9)
    assert context.get_abstract_state(0).get_value() == 9
    context.get_mutable_abstract_state(0).set_value(10)
    assert context.get_state().get_abstract_state(0).get_value() == 10
    with pytest.raises(IndexError):
        context.get_abstract_state(1)


def test_parameters(context):
    parameters = context.get_parameters()
    assert isinstance(parameters, Parameters)
    assert parameters.num_numeric_parameter_groups() == 1
    np.testing.assert_array_equal(context.get_numeric_parameter(0).CopyToVector(), [7, 8])
    context.get_mutable_numeric_parameter(0).SetAtIndex(1, 3.0)
    np.testing.assert_array_equal(parameters.get_numeric_parameter(0).CopyToVector(), [7, 3])
    assert context.get_abstract_parameter(0).get_value() == "p"
    context.get_mutable_abstract_parameter(0).set_value("q")
    assert parameters.get_abstract_parameter(0).get_value() == "q"
    assert parameters.get_numeric_parameters().num_groups() == 1
    with pytest.raises(IndexError):
        context.get_numeric_parameter(1)


def test_parameters_object():
    numeric, abstract = BasicVector([1.0, 2.0]), AbstractValue.Make("a")
    for parameters, sizes in [
        (Parameters(), (0, 0)),
        (Parameters([numeric], [abstract]), (1, 1)),
        (Parameters([numeric, numeric]), (2, 0)),
        (Parameters([abstract]), (0, 1)),
        (Parameters(numeric), (1, 0)),
        (Parameters(abstract), (0, 1)),
        (Parameters(numeric=[numeric], abstract=[abstract]), (1, 1)),
    ]:
        counts = (parameters.num_numeric_parameter_groups(), parameters.num_abstract_parameters())
        assert counts == sizes
    parameters = Parameters([numeric], [abstract])
    parameters.set_numeric_parameters(DiscreteValues([BasicVector([3.0, 4.0])]))
    parameters.set_abstract_parameters(AbstractValues([AbstractValue.Make("b")]))
    np.testing.assert_array_equal(parameters.get_numeric_parameter(0).CopyToVector(), [3, 4])
    assert parameters.get_abstract_parameter(0).get_value() == "b"
    clone = parameters.Clone()
    clone.get_mutable_numeric_parameter(0).SetZero()
    clone.get_mutable_abstract_parameter(0).set_value("c")
    assert parameters.get_numeric_parameter(0).GetAtIndex(0) == 3.0
    assert parameters.get_abstract_parameter(0).get_value() == "b"
    parameters.SetFrom(clone)
    assert parameters.get_abstract_parameter(0).get_value() == "c"
    assert len(DiscreteValues([numeric, numeric]).get_data()) == 2


def test_continuous_state_object():
    xc = ContinuousState(BasicVector([1.0, 2.0, 3.0]))
    assert (xc.num_q(), xc.num_v(), xc.num_z()) == (0, 0, 3)
    xc = ContinuousState(BasicVector([1.0, 2.0, 3.0]), 2, 1, 0)
    assert (xc.num_q(), xc.num_v(), xc.num_z()) == (2, 1, 0)
    assert ContinuousState().size() == 0
    with pytest.raises(RuntimeError, match="must equal the state size"):
        ContinuousState(BasicVector([1.0, 2.0, 3.0]), 2, 1, 1)
    clone = xc.Clone()
    clone.SetFromVector([0.0, 0.0, 0.0])
    np.testing.assert_array_equal(xc.CopyToVector(), [1, 2, 3])
    xc.SetFrom(clone)
    np.testing.assert_array_equal(xc.CopyToVector(), [0, 0, 0])


def test_state_object(context):
    state = context.get_state()
    assert isinstance(state, State) and context.get_mutable_state() is state
    assert state.get_continuous_state() is context.get_continuous_state()
    assert state.get_discrete_state() is context.get_discrete_state()
    abstract = state.get_abstract_state()
    assert abstract.size() == 1 and abstract.get_value(0).get_value() == 5


def test_clone_is_independent(system, context):
    context.SetTime(1.5)
    context.SetContinuousState([1.0, 2.0, 3.0, 4.0])
    context.SetDiscreteState(1, [5.0, 6.0])
    context.SetAbstractState(0, 7)
    context.get_mutable_numeric_parameter(0).SetAtIndex(0, 0.5)
    system.u.FixValue(context, [1.0, 1.0])
    for clone in (context.Clone(), copy.copy(context), copy.deepcopy(context)):
        assert clone is not context and clone.get_time() == 1.5
        np.testing.assert_array_equal(
            clone.get_continuous_state_vector().CopyToVector(), [1, 2, 3, 4]
        )
        assert clone.get_abstract_state(0).get_value() == 7
        np.testing.assert_array_equal(system.u.Eval(clone), [1, 1])
        clone.SetContinuousState(np.zeros(4))
        clone.SetDiscreteState(1, [0.0, 0.0])
        clone.SetAbstractState(0, 0)
        clone.get_mutable_numeric_parameter(0).SetZero()
        system.u.FixValue(clone, [2.0, 2.0])
        clone.SetTime(0.0)
        np.testing.assert_array_equal(
            context.get_continuous_state_vector().CopyToVector(), [1, 2, 3, 4]
        )
        np.testing.assert_array_equal(context.get_discrete_state(1).CopyToVector(), [5, 6])
        assert context.get_abstract_state(0).get_value() == 7 and context.get_time() == 1.5
        assert context.get_numeric_parameter(0).GetAtIndex(0) == 0.5
        np.testing.assert_array_equal(system.u.Eval(context), [1, 1])
        system.ValidateContext(clone)


def test_set_from_another_context(system, context):
    source = system.CreateDefaultContext()
    source.SetTime(4.0)
    source.SetAccuracy(0.1)
    source.SetContinuousState([1.0, 1.0, 1.0, 1.0])
    source.SetAbstractState(0, 3)
    source.get_mutable_numeric_parameter(0).SetZero()
    context.SetStateAndParametersFrom(source)
    assert context.get_time() == 0.0
    np.testing.assert_array_equal(context.get_continuous_state_vector().CopyToVector(), np.ones(4))
    assert context.get_abstract_state(0).get_value() == 3
    np.testing.assert_array_equal(context.get_numeric_parameter(0).CopyToVector(), [0, 0])
    context.SetTimeStateAndParametersFrom(source)
    assert context.get_time() == 4.0 and context.get_accuracy() == 0.1
    source.SetAbstractState(0, 4)
    assert context.get_abstract_state(0).get_value() == 3  # copied, not shared


def test_serial_numbers(system, context):
    """Each mutation stamps what it changed: time t, q, v, parameters p, inputs u."""

    def stamps():
        return {k: getattr(context, "_serial_" + k) for k in "tqvpu"}

    def changed(action):
        before = stamps()
        action()
        after = stamps()
        return {k for k in before if before[k] != after[k]}

    xc = context.get_mutable_continuous_state()
    assert changed(lambda: context.SetTime(1.0)) == {"t"}
    assert changed(lambda: xc.get_mutable_generalized_position().SetAtIndex(0, 1.0)) == {"q"}
    assert changed(lambda: xc.get_mutable_generalized_velocity().SetAtIndex(0, 1.0)) == {"v"}
    assert changed(lambda: xc.get_mutable_misc_continuous_state().SetAtIndex(0, 1.0)) == {"v"}
    assert changed(lambda: context.SetContinuousState(np.ones(4))) == {"q", "v"}
    assert changed(lambda: context.get_mutable_continuous_state_vector()) == {"q", "v"}
    assert changed(lambda: context.SetDiscreteState(0, np.ones(3))) == {"q", "v"}
    assert changed(lambda: context.SetAbstractState(0, 1)) == {"q", "v"}
    assert changed(lambda: context.get_mutable_state()) == {"q", "v"}
    assert changed(lambda: context.get_mutable_numeric_parameter(0).SetZero()) == {"p"}
    assert changed(lambda: context.get_mutable_abstract_parameter(0)) == {"p"}
    assert changed(lambda: context.get_mutable_parameters()) == {"p"}
    assert changed(lambda: system.u.FixValue(context, [1.0, 2.0])) == {"u"}
    fixed = system.a.FixValue(context, "x")
    assert changed(fixed.GetMutableData) == {"u"}
    assert changed(lambda: context.SetAccuracy(1e-6)) == set("tqvpu")
    # Reads change nothing.
    assert changed(lambda: (context.get_state(), context.get_continuous_state_vector(),
                            context.get_parameters(), system.y.Eval(context))) == set()  # fmt: skip


def test_printing(system):
    class Printed(LeafSystem):
        def __init__(self):
            super().__init__()
            values = [1 / 3, 1e-20, 123456.789, np.nan, 2.0, -1.5, 1e20, 1 / 600]
            self.DeclareContinuousState(BasicVector(values), 3, 2, 3)
            self.DeclareDiscreteState(3)
            self.DeclareNumericParameter(BasicVector([]))
            self.DeclareNumericParameter(BasicVector([0.5, -0.25]))
            self.DeclareAbstractState(AbstractValue.Make(1))

    printed = Printed()
    context = printed.CreateDefaultContext()
    context.SetTime(2.5)
    printed.set_name("renamed")  # the Context keeps the name it was created with
    expected = (
        "::_ Context\n------------\nTime: 2.5\nStates:\n  8 continuous states\n"
        "       0.3333333333333333 9.999999999999999e-21            123456.789"
        "                   nan                     2                  -1.5"
        "                 1e+20  0.001666666666666667\n"
        "  1 discrete state groups with\n     3 states\n       0 0 0\n  1 abstract states\n\n"
        "Parameters:\n  2 numeric parameter groups with\n     0 parameters\n       \n"
        "     2 parameters\n         0.5 -0.25\n"
    )
    assert str(context) == expected
    assert str(LeafSystem().CreateDefaultContext()) == "::_ Context\n------------\nTime: 0\n"
    system.set_name("sys")
    header = str(system.CreateDefaultContext()).splitlines()[:2]
    assert header == ["::sys Context", "--------------"]
