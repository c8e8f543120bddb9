"""The systems library's Python-side pieces against pydrake, written once for both:
TemplateSystem (the authoring_leaf_systems tutorial's RunningCost), namedview (its
NamedViewDemo), Simulator_[AutoDiffXd], RandomSimulation/MonteCarloSimulation,
ExternallyAppliedSpatialForceMultiplexer feeding a plant, and mallard.common.yaml."""

import dataclasses
import importlib
import os
import typing

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.all as D  # noqa: E402

import mallard.all as M  # noqa: E402


def module(lib, name):
    return importlib.import_module(f"{lib.__name__.split('.')[0]}.{name}")


def both(function):
    return function(D), function(M)


def running_cost(lib):
    """The tutorial's scalar-templated LeafSystem."""
    TemplateSystem = module(lib, "systems.scalar_conversion").TemplateSystem

    @TemplateSystem.define("RunningCost_")
    def RunningCost_(T):
        class Impl(lib.LeafSystem_[T]):
            def _construct(self, converter=None, Q=np.eye(2)):  # noqa: B008 (the tutorial's)
                super().__init__(converter)
                self._Q = Q
                self._state_port = self.DeclareVectorInputPort("state", 2)
                self._command_port = self.DeclareVectorInputPort("command", 1)
                self.DeclareVectorOutputPort("cost", 1, self.CostOutput)

            def _construct_copy(self, other, converter=None):
                Impl._construct(self, converter=converter, Q=other._Q)

            def CostOutput(self, context, output):
                x = self._state_port.Eval(context)
                u = self._command_port.Eval(context)[0]
                output[0] = x.dot(self._Q.dot(x)) + u**2

        return Impl

    return RunningCost_


def test_template_system():
    def run(lib):
        RunningCost_ = running_cost(lib)
        RunningCost = RunningCost_[None]
        system = RunningCost(Q=np.diag([10, 1]))
        context = system.CreateDefaultContext()
        system.get_input_port(0).FixValue(context, [1, 2])
        system.get_input_port(1).FixValue(context, [3])
        value = system.get_output_port().Eval(context).tolist()
        AutoDiffXd = lib.AutoDiffXd
        direct = RunningCost_[AutoDiffXd]()
        system_ad = system.ToAutoDiffXd()
        system_symbolic = system.ToSymbolic()
        context_symbolic = system_symbolic.CreateDefaultContext()
        context_symbolic.SetTimeStateAndParametersFrom(context)
        system_symbolic.FixInputPortsFrom(system, context, context_symbolic)
        symbolic_value = system_symbolic.get_output_port().Eval(context_symbolic)[0]
        context_ad = system_ad.CreateDefaultContext()
        x = module(lib, "autodiffutils").InitializeAutoDiff(np.array([1.0, 2.0]))
        system_ad.get_input_port(0).FixValue(context_ad, x.reshape(-1))
        system_ad.get_input_port(1).FixValue(context_ad, [AutoDiffXd(3.0, [0.0, 0.0])])
        cost = system_ad.get_output_port().Eval(context_ad)[0]
        return [
            value,
            str(symbolic_value),
            cost.value(),
            cost.derivatives().tolist(),
            RunningCost is RunningCost_[float],
            isinstance(system_ad, RunningCost_[AutoDiffXd]),
            isinstance(direct, RunningCost_[AutoDiffXd]),
            system_ad.GetSystemType().split(".")[-1],
            [T[0].__name__ for T in RunningCost_.param_list],
            RunningCost_[AutoDiffXd](system)._Q.tolist(),
        ]

    theirs, ours = both(run)
    assert ours == theirs
    assert ours[:4] == [[23.0], "23", 23.0, [20.0, 4.0]]


def named_view_demo(lib):
    """The tutorial's NamedViewDemo."""
    namedview = module(lib, "common.containers").namedview

    class NamedViewDemo(lib.LeafSystem):
        MyDiscreteState = namedview("MyDiscreteState", ["a", "b"])
        MyContinuousState = namedview("MyContinuousState", ["x", "z", "theta"])
        MyOutput = namedview("MyOutput", ["x", "a"])

        def __init__(self):
            super().__init__()
            self.DeclareDiscreteState(2)
            self.DeclarePeriodicDiscreteUpdateEvent(
                period_sec=1.0, offset_sec=0.0, update=self.DiscreteUpdate
            )
            self.DeclareContinuousState(3)
            self.DeclareVectorOutputPort(name="out", size=2, calc=self.CalcOutput)

        def DiscreteUpdate(self, context, discrete_values):
            discrete_state = self.MyDiscreteState(context.get_discrete_state_vector().value())
            continuous_state = self.MyContinuousState(
                context.get_continuous_state_vector().CopyToVector()
            )
            next_state = self.MyDiscreteState(discrete_values.get_mutable_value())
            next_state.a = discrete_state.a + 1
            next_state.b = discrete_state.b + continuous_state.x

        def DoCalcTimeDerivatives(self, context, derivatives):
            continuous_state = self.MyContinuousState(
                context.get_continuous_state_vector().CopyToVector()
            )
            dstate_dt = self.MyContinuousState(continuous_state[:])
            dstate_dt.x = -continuous_state.x
            dstate_dt.z = -continuous_state.z
            dstate_dt.theta = -np.arctan2(continuous_state.z, continuous_state.x)
            derivatives.SetFromVector(dstate_dt[:])

        def CalcOutput(self, context, output):
            discrete_state = self.MyDiscreteState(context.get_discrete_state_vector().value())
            continuous_state = self.MyContinuousState(
                context.get_continuous_state_vector().CopyToVector()
            )
            out = self.MyOutput(output.get_mutable_value())
            out.x = continuous_state.x
            out.a = discrete_state.a

    return NamedViewDemo


def test_named_view_tutorial():
    def run(lib):
        NamedViewDemo = named_view_demo(lib)
        system = NamedViewDemo()
        simulator = lib.Simulator(system)
        context = simulator.get_mutable_context()
        initial_discrete_state = NamedViewDemo.MyDiscreteState([3, 4])
        context.SetDiscreteState(initial_discrete_state[:])
        initial_continuous_state = NamedViewDemo.MyContinuousState.Zero()
        initial_continuous_state.x = 0.5
        initial_continuous_state.z = 0.92
        initial_continuous_state.theta = 0.23
        context.SetContinuousState(initial_continuous_state[:])
        simulator.AdvanceTo(4.0)
        return [
            str(NamedViewDemo.MyDiscreteState(context.get_discrete_state_vector().value())),
            NamedViewDemo.MyContinuousState(context.get_continuous_state_vector().CopyToVector()),
            NamedViewDemo.MyOutput(system.get_output_port().Eval(context)),
            repr(initial_continuous_state),
            NamedViewDemo.MyOutput.get_fields(),
        ]

    theirs, ours = both(run)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(np.asarray(ours[1]), np.asarray(theirs[1]), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(ours[2]), np.asarray(theirs[2]), rtol=1e-12)
    assert ours[3:] == theirs[3:]


def test_named_view_details():
    def run(lib):
        namedview = module(lib, "common.containers").namedview
        View = namedview("View", ["a", "b.c", "1x", "d__e"])
        value = np.array([1.0, 2.0, 3.0, 4.0])
        view = View(value)
        view.a = 10
        value[1] = 100
        out = [View.get_fields(), view[:].tolist(), len(view), str(view)]
        view[:] = 3
        out += [value.tolist(), np.array(view).tolist(), np.asarray(view) is value]
        with pytest.raises(AttributeError) as info:
            view.zz = 1
        out.append(str(info.value))
        with pytest.raises(AssertionError):
            namedview("X", ["a", "a"])
        return out

    theirs, ours = both(run)
    assert ours == theirs


@pytest.mark.parametrize("scheme", ["explicit_euler", "runge_kutta2", "runge_kutta3"])
def test_simulator_autodiff_fixed_steps(scheme):
    # With fixed steps, the gradients of the simulated state equal pydrake's bit for bit.
    def run(lib):
        system = lib.LinearSystem(
            [[-1.0, 2.0], [0.0, -3.0]], [[0.0], [1.0]], np.eye(2), [[0.0], [0.0]]
        )
        ad = system.ToAutoDiffXd()
        simulator = lib.Simulator_[lib.AutoDiffXd](ad)
        lib.ResetIntegratorFromFlags(simulator, scheme, 0.01)
        simulator.get_mutable_integrator().set_fixed_step_mode(True)
        context = simulator.get_mutable_context()
        x0 = module(lib, "autodiffutils").InitializeAutoDiff(np.array([1.0, 2.0]))
        context.SetContinuousState(x0.reshape(-1))
        ad.get_input_port().FixValue(context, [lib.AutoDiffXd(0.5, [0.0, 0.0])])
        simulator.AdvanceTo(1.0)
        x = context.get_continuous_state_vector().CopyToVector()
        ad_utils = module(lib, "autodiffutils")
        return (
            ad_utils.ExtractValue(x),
            ad_utils.ExtractGradient(x),
            simulator.get_num_steps_taken(),
        )

    (x_d, g_d, n_d), (x_m, g_m, n_m) = both(run)
    np.testing.assert_array_equal(x_m, x_d)
    np.testing.assert_array_equal(g_m, g_d)
    assert n_m == n_d


def test_simulator_autodiff_error_controlled():
    # Same steps, values and gradients as pydrake's (both differentiate the step-size choices
    # of error control too), within the integration accuracy of the exact sensitivity
    # expm(A t).
    def run(lib):
        A = np.array([[-1.0, 2.0], [0.0, -3.0]])
        system = lib.LinearSystem(A, [[0.0], [1.0]], np.eye(2), [[0.0], [0.0]]).ToAutoDiffXd()
        simulator = lib.Simulator_[lib.AutoDiffXd](system)
        context = simulator.get_mutable_context()
        x0 = module(lib, "autodiffutils").InitializeAutoDiff(np.array([1.0, 2.0]))
        context.SetContinuousState(x0.reshape(-1))
        system.get_input_port().FixValue(context, [lib.AutoDiffXd(0.5, [0.0, 0.0])])
        simulator.AdvanceTo(1.0)
        x = context.get_continuous_state_vector().CopyToVector()
        ad_utils = module(lib, "autodiffutils")
        return (
            ad_utils.ExtractValue(x),
            ad_utils.ExtractGradient(x),
            simulator.get_num_steps_taken(),
        )

    (x_d, g_d, n_d), (x_m, g_m, n_m) = both(run)
    np.testing.assert_array_equal(x_m, x_d)
    assert n_m == n_d
    e1, e3 = np.exp(-1.0), np.exp(-3.0)
    np.testing.assert_allclose(g_m, [[e1, e1 - e3], [0.0, e3]], atol=1e-5)
    np.testing.assert_allclose(g_m, g_d, rtol=1e-12, atol=1e-14)


def test_monte_carlo_simulation():
    def run(lib):
        def make_simulator(generator):
            system = lib.LinearSystem([[-1.0]], [[0.0]], [[1.0]], [[0.0]])
            system.configure_random_state([[4.0]])
            system.configure_default_state([1.0])
            builder = lib.DiagramBuilder()
            builder.AddSystem(system)
            source = builder.AddSystem(lib.ConstantVectorSource([0.0]))
            builder.Connect(source.get_output_port(), system.get_input_port())
            return lib.Simulator(builder.Build())

        def output(system, context):
            return context.get_continuous_state_vector()[0]

        results = lib.MonteCarloSimulation(
            make_simulator=make_simulator, output=output, final_time=1.0, num_samples=5,
            generator=lib.RandomGenerator(12),
        )  # fmt: skip
        replay = lib.RandomSimulation(make_simulator, output, 1.0, results[3].generator_snapshot)
        return [r.output for r in results], replay

    (outputs_d, replay_d), (outputs_m, replay_m) = both(run)
    np.testing.assert_allclose(outputs_m, outputs_d, rtol=1e-12)
    assert replay_m == outputs_m[3] and replay_d == outputs_d[3]
    assert len(set(outputs_m)) == 5


def test_externally_applied_spatial_force_multiplexer():
    acrobot = os.path.join(os.path.dirname(M.__file__), "models", "acrobot.urdf")

    def run(lib):
        builder = lib.DiagramBuilder()
        plant, _ = lib.AddMultibodyPlantSceneGraph(builder, 0.0)
        lib.Parser(plant).AddModels(acrobot)
        plant.Finalize()
        mux = builder.AddSystem(lib.ExternallyAppliedSpatialForceMultiplexer(2))
        builder.Connect(mux.get_output_port(), plant.get_applied_spatial_force_input_port())
        builder.ExportInput(mux.get_input_port(0), "f0")
        builder.ExportInput(mux.get_input_port(1), "f1")
        diagram = builder.Build()
        context = diagram.CreateDefaultContext()
        forces = []
        for name, force in (
            ("link1", [0.1, 0.2, 0.0, 1.0, 0.0, 0.5]),
            ("link2", [0, 0, 1, 0, 2, 0]),
        ):
            f = lib.ExternallyAppliedSpatialForce()
            f.body_index = plant.GetBodyByName(name).index()
            f.p_BoBq_B = [0.0, 0.0, -0.3]
            f.F_Bq_W = lib.SpatialForce(tau=force[:3], f=force[3:])
            forces.append(f)
        diagram.get_input_port(0).FixValue(context, [forces[0]])
        diagram.get_input_port(1).FixValue(context, [forces[1], forces[0]])
        names = [mux.get_input_port(i).get_name() for i in range(2)]
        combined = mux.get_output_port().Eval(mux.GetMyContextFromRoot(context))
        xdot = diagram.EvalTimeDerivatives(context).CopyToVector()
        return names, [int(f.body_index) for f in combined], xdot, mux.GetSystemType()

    (n_d, b_d, xdot_d, t_d), (n_m, b_m, xdot_m, t_m) = both(run)
    assert (n_m, b_m, t_m) == (n_d, b_d, t_d)
    np.testing.assert_allclose(xdot_m, xdot_d, rtol=1e-12, atol=1e-12)


@dataclasses.dataclass
class Inner:
    x: float = 1.0
    name: str = "n"


@dataclasses.dataclass
class Other:
    k: int = 3


@dataclasses.dataclass
class Outer:
    a: float = 0.5
    b: int = 2
    flag: bool = True
    items: typing.List[float] = dataclasses.field(default_factory=lambda: [1.0, 2.5])  # noqa: UP006
    m: typing.Dict[str, float] = dataclasses.field(default_factory=lambda: {"u": 1.0})  # noqa: UP006
    inner: Inner = dataclasses.field(default_factory=Inner)
    opt: typing.Optional[float] = None  # noqa: UP045
    v: typing.Union[Inner, Other] = dataclasses.field(default_factory=Other)  # noqa: UP007
    arr: np.ndarray = dataclasses.field(default_factory=lambda: np.array([1.0, 2.0]))
    s: str = "hello world"
    nested: list[Inner] = dataclasses.field(default_factory=lambda: [Inner()])
    empty: dict[str, int] = dataclasses.field(default_factory=dict)


def test_yaml_typed(tmp_path):
    pytest.importorskip("yaml")

    def run(lib):
        y = module(lib, "common.yaml")
        SimulatorConfig = module(lib, "systems.analysis").SimulatorConfig
        out = [
            y.yaml_dump_typed(Outer()),
            y.yaml_dump_typed(Outer(v=Inner(x=2.0)), child_name="root"),
            y.yaml_dump_typed(Outer(a=3.0, opt=2.0), defaults=Outer()),
            y.yaml_dump_typed(Outer(a=1e-20, items=[float("inf"), float("nan"), 1e10, 0.1])),
            y.yaml_dump_typed(SimulatorConfig()),
            y.yaml_dump_typed({"a": Inner()}, schema=typing.Dict[str, Inner]),  # noqa: UP006
        ]
        data = (
            "a: 2\nitems: [3]\nv: !Inner {x: 4}\ninner: {name: z}\nopt: 1.5\narr: [1, 2]\nm: {w: 2}"
        )
        loaded = y.yaml_load_typed(schema=Outer, data=data)
        out += [repr(loaded), repr(y.yaml_load_typed(defaults=Outer(b=9), data="a: 1.5"))]
        config = y.yaml_load_typed(
            schema=SimulatorConfig, data="integration_scheme: runge_kutta2\nmax_step_size: 0.01"
        )
        out += [(config.integration_scheme, config.max_step_size, config.accuracy)]
        for bad in ["zz: 1", "b: 2.5", "v: !Nope {}"]:
            with pytest.raises(RuntimeError) as info:
                y.yaml_load_typed(schema=Outer, data=bad)
            out.append(str(info.value))
        filename = str(tmp_path / f"{lib.__name__}.yaml")
        y.yaml_dump_typed(Outer(b=5), filename=filename, child_name="root")
        out.append(y.yaml_load_typed(schema=Outer, filename=filename, child_name="root").b)
        out.append(y.yaml_load(data="_private: 1\npublic: !Inner {x: 2}\n"))
        out.append(y.yaml_load(data="_private: 1\n", private=True))
        return out

    theirs, ours = both(run)
    assert ours == theirs
