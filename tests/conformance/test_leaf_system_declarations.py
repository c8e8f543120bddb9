"""LeafSystem's declarations against pydrake's, written once for both: what each Declare*
overload returns (with pydrake's keyword names), DeclareStateOutputPort fed with those
indices as Drake's tutorials do, FixValue with a scalar on a size-1 port, DeclareInputPort,
cache entries and FixInputPortsFrom."""

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.all as D  # noqa: E402

import mallard.all as M  # noqa: E402

BOTH = pytest.mark.parametrize("lib", [D, M], ids=["pydrake", "mallard"])


def both(function):
    return function(D), function(M)


def test_declare_returns_pydrakes_index_types():
    def run(lib):
        s = lib.LeafSystem()
        returned = [
            s.DeclareContinuousState(2),
            s.DeclareContinuousState(num_q=1, num_v=1, num_z=0),
            s.DeclareContinuousState(model_vector=lib.BasicVector([1.0, 2.0])),
            s.DeclareContinuousState(lib.BasicVector([1.0, 2.0, 3.0]), num_q=1, num_v=1, num_z=1),
            s.DeclareDiscreteState(1),
            s.DeclareDiscreteState(num_state_variables=2),
            s.DeclareDiscreteState(vector=np.array([3.0, 4.0])),
            s.DeclareDiscreteState(model_vector=lib.BasicVector([5.0])),
            s.DeclareAbstractState(lib.AbstractValue.Make(7)),
            s.DeclareAbstractState(model_value=lib.AbstractValue.Make("x")),
            s.DeclareNumericParameter(model_vector=lib.BasicVector([1.0])),
            s.DeclareAbstractParameter(model_value=lib.AbstractValue.Make(1)),
        ]
        context = s.CreateDefaultContext()
        groups = [context.get_discrete_state(i).CopyToVector().tolist() for i in range(4)]
        xc = context.get_continuous_state()
        split = (xc.num_q(), xc.num_v(), xc.num_z())
        return [(type(r).__name__, int(r)) for r in returned], groups, split

    theirs, ours = both(run)
    assert ours == theirs
    assert ours[0][:4] == [("ContinuousStateIndex", 0)] * 4
    assert ours[0][4:8] == [("DiscreteStateIndex", i) for i in range(4)]
    assert ours[0][8:] == [("AbstractStateIndex", 0), ("AbstractStateIndex", 1), ("int", 0)] + [
        ("int", 0)
    ]


def tutorial_systems(lib):
    """The three LeafSystems of Drake's authoring_leaf_systems tutorial that feed the index a
    DeclareXState returns to DeclareStateOutputPort."""

    class SimpleDiscreteTimeSystem(lib.LeafSystem):
        def __init__(self):
            super().__init__()
            state_index = self.DeclareDiscreteState(1)
            self.DeclareStateOutputPort("y", state_index)
            self.DeclarePeriodicDiscreteUpdateEvent(
                period_sec=1.0, offset_sec=0.0, update=self.Update
            )

        def Update(self, context, discrete_state):
            x = context.get_discrete_state_vector().GetAtIndex(0)
            discrete_state.get_mutable_vector().SetAtIndex(0, x**3)

    class SimpleContinuousTimeSystem(lib.LeafSystem):
        def __init__(self):
            super().__init__()
            state_index = self.DeclareContinuousState(1)
            self.DeclareStateOutputPort("y", state_index)

        def DoCalcTimeDerivatives(self, context, derivatives):
            x = context.get_continuous_state_vector().GetAtIndex(0)
            derivatives.get_mutable_vector().SetAtIndex(0, -x + x**3)

    class AbstractStateSystem(lib.LeafSystem):
        def __init__(self):
            super().__init__()
            index = self.DeclareAbstractState(lib.AbstractValue.Make("start"))
            self.DeclareStateOutputPort(lib.kUseDefaultName, index)
            self.DeclarePeriodicUnrestrictedUpdateEvent(1.0, 0.0, self.Update)

        def Update(self, context, state):
            value = context.get_abstract_state(0).get_value()
            state.get_mutable_abstract_state(0).set_value(value + "+")

    return SimpleDiscreteTimeSystem(), SimpleContinuousTimeSystem(), AbstractStateSystem()


def test_state_output_ports_from_returned_indices():
    def run(lib):
        results = []
        for system, x0 in zip(tutorial_systems(lib), ([0.9], [0.9], None), strict=True):
            simulator = lib.Simulator(system)
            context = simulator.get_mutable_context()
            if x0 is not None and context.num_discrete_state_groups():
                context.get_mutable_discrete_state_vector().SetFromVector(x0)
            elif x0 is not None:
                context.SetContinuousState(x0)
            simulator.AdvanceTo(4.0)
            port = system.get_output_port()
            value = port.Eval(context)
            results.append((port.get_name(), value if isinstance(value, str) else list(value)))
        return results

    theirs, ours = both(run)
    assert [r[0] for r in ours] == [r[0] for r in theirs] == ["y", "y", "y0"]
    np.testing.assert_allclose(ours[0][1], theirs[0][1], rtol=0, atol=1e-15)
    np.testing.assert_allclose(ours[1][1], theirs[1][1], rtol=1e-12, atol=1e-12)
    # Updates at 0, 1, 2 and 3 (the one at 4 is pending).
    assert ours[2][1] == theirs[2][1] == "start++++"


@pytest.mark.parametrize(
    "value", [0, 0.5, np.float64(3.0), True, [0.25], [[0.25]], np.array(2.0)], ids=repr
)
def test_fix_value_takes_a_scalar_on_a_size_one_port(value):
    def run(lib):
        system = lib.LeafSystem()
        port = system.DeclareVectorInputPort("b", size=1)
        context = system.CreateDefaultContext()
        port.FixValue(context, value)
        return port.Eval(context).tolist()

    theirs, ours = both(run)
    assert ours == theirs


@pytest.mark.parametrize("value", [0.0, [1.0, 2.0, 3.0]], ids=repr)
def test_fix_value_size_errors_match(value):
    def run(lib):
        system = lib.LeafSystem()
        port = system.DeclareVectorInputPort(name="a", model_vector=lib.BasicVector([1.0, 2.0]))
        context = system.CreateDefaultContext()
        with pytest.raises(RuntimeError) as info:
            port.FixValue(context, value)
        return str(info.value)

    theirs, ours = both(run)
    assert ours == theirs


def test_declare_input_port():
    def run(lib):
        system = lib.LeafSystem()
        system.DeclareVectorInputPort("a", 2)
        port = system.DeclareInputPort(lib.kUseDefaultName, lib.PortDataType.kVectorValued, 3)
        named = system.DeclareInputPort(
            name="n", type=lib.PortDataType.kVectorValued, size=1,
            random_type=lib.RandomDistribution.kGaussian,
        )  # fmt: skip
        context = system.CreateDefaultContext()
        port.FixValue(context, [1.0, 2.0, 3.0])
        return (
            port.get_name(),
            port.size(),
            int(port.get_index()),
            named.get_name(),
            port.Eval(context).tolist(),
            port.ticket() == system.input_port_ticket(lib.InputPortIndex(1)),
        )

    theirs, ours = both(run)
    assert ours == theirs == ("u1", 3, 1, "n", [1.0, 2.0, 3.0], True)


def test_cache_entry():
    def run(lib):
        calls = []
        system = lib.LeafSystem()
        u = system.DeclareVectorInputPort("u", 1)
        index = system.DeclareNumericParameter(lib.BasicVector([2.0]))

        def calc(context, value):
            calls.append(context.get_time())
            value.set_value(2 * context.get_time() + context.get_numeric_parameter(0)[0])

        producer = lib.ValueProducer(allocate=lambda: lib.AbstractValue.Make(0.0), calc=calc)
        tickets = {system.time_ticket(), system.numeric_parameter_ticket(
            lib.NumericParameterIndex(index))}  # fmt: skip
        entry = system.DeclareCacheEntry(
            description="twice", value_producer=producer, prerequisites_of_calc=tickets
        )
        context = system.CreateDefaultContext()
        out = [
            entry.description(),
            entry.has_default_prerequisites(),
            entry.is_out_of_date(context),
        ]
        out += [entry.Eval(context), entry.Eval(context), list(calls)]
        context.SetTime(1.0)
        out += [entry.is_out_of_date(context), entry.Eval(context), list(calls)]
        u.FixValue(context, 3.0)  # not a prerequisite
        out += [entry.is_out_of_date(context)]
        context.get_mutable_numeric_parameter(0).SetAtIndex(0, 5.0)
        out += [entry.is_out_of_date(context), entry.Eval(context), len(calls)]
        entry.disable_caching(context)
        out += [entry.is_cache_entry_disabled(context), entry.Eval(context), entry.Eval(context)]
        out += [len(calls)]
        entry.enable_caching(context)
        out += [entry.Eval(context), len(calls), entry.EvalAbstract(context).get_value()]
        default = system.DeclareCacheEntry("all", lib.ValueProducer(lambda: 0.0, calc))
        out += [default.has_default_prerequisites()]
        out += [default.prerequisites() == {system.all_sources_ticket()}]
        with pytest.raises(RuntimeError):
            system.DeclareCacheEntry("empty", producer, set())
        return out

    theirs, ours = both(run)
    assert ours == theirs


def test_fix_input_ports_from():
    def run(lib):
        gain = lib.Gain(k=2.0, size=2)
        context = gain.CreateDefaultContext()
        gain.get_input_port().FixValue(context, [1.0, -3.0])
        ad = gain.ToAutoDiffXd()
        context_ad = ad.CreateDefaultContext()
        ad.FixInputPortsFrom(gain, context, context_ad)
        y = ad.get_output_port().Eval(context_ad)
        return [x.value() for x in y]

    theirs, ours = both(run)
    assert ours == theirs == [2.0, -6.0]


def test_ports_by_index_of_any_int_type():
    """get_input_port / get_output_port take what pybind11 converts to an int (the index
    types, numpy integers, bools) and raise pydrake's errors for the rest and for negative
    or missing indices."""

    def run(lib):
        plant = lib.MultibodyPlant(0.0)
        plant.Finalize()
        outcomes = []
        for get, index_type in (
            (plant.get_input_port, lib.InputPortIndex),
            (plant.get_output_port, lib.OutputPortIndex),
        ):
            for index in (
                index_type(1),
                np.int64(2),
                True,
                index_type(99),
                -3,
                index_type(),
                1.0,
                "x",
            ):
                try:
                    outcomes.append(get(index).get_name())
                except (IndexError, TypeError) as error:
                    first = str(error).splitlines()[0]
                    outcomes.append((type(error).__name__, first.replace("pydrake", "mallard")))
        return outcomes

    drake, mallard = both(run)
    assert mallard == drake
