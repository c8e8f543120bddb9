"""The systems library against pydrake: each system built with the same arguments in both
libraries has the same type name, ports (names, sizes, feedthrough) and state, and the same
outputs, time derivatives and discrete updates (1e-12) at the same states, inputs and times;
Linearize, FirstOrderTaylorApproximation and the LQR functions give the same matrices."""

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.all as D  # noqa: E402

import mallard.all as M  # noqa: E402

TOL = dict(rtol=1e-12, atol=1e-12)
A = np.array([[0.0, 1.0], [-2.0, -0.3]])
B = np.array([[0.0], [1.0]])
C = np.array([[1.0, 0.5]])


def symbolic(lib):
    import importlib

    return importlib.import_module(f"{lib.__name__.split('.')[0]}.symbolic")


def pendulum_vector_system(lib):
    sym = symbolic(lib)
    x, u, p, t = (
        sym.MakeVectorVariable(2, "x"),
        sym.Variable("u"),
        sym.Variable("p"),
        sym.Variable("t"),
    )
    return lib.SymbolicVectorSystem(
        time=t, state=x, input=[u], parameter=[p],
        dynamics=[x[1], -p * sym.sin(x[0]) + u * t - 0.1 * x[1] ** 2],
        output=[x[0] + 2 * sym.cos(x[1]), u * x[0]],
    )  # fmt: skip


def squaring_map(lib):
    x = symbolic(lib).Variable("x")
    return lib.SymbolicVectorSystem(state=[x], dynamics=[0.5 * x**2], output=[x], time_period=0.1)


def selector(lib):
    P = lib.SelectorParams
    return lib.Selector(
        P(
            inputs=[P.InputPortParams(name="a", size=2), P.InputPortParams(size=1)],
            outputs=[
                P.OutputPortParams(
                    name="y",
                    selections=[
                        P.OutputSelection(input_port_index=1, input_offset=0),
                        P.OutputSelection(input_port_index=0, input_offset=1),
                    ],
                ),
                P.OutputPortParams(selections=[P.OutputSelection(input_port_index=0)]),
            ],
        )
    )


SYSTEMS = {
    "affine": lambda lib: lib.AffineSystem(A, B, [0.1, 0.2], C, [[2.0]], [0.5]),
    "affine_no_feedthrough": lambda lib: lib.AffineSystem(A=A, B=B, C=C, y0=[1.0]),
    "affine_discrete": lambda lib: lib.AffineSystem(A, B, [0.1, 0.2], C, [[2.0]], [0.5], 0.1),
    "affine_only_offsets": lambda lib: lib.AffineSystem(f0=[1.0, 2.0], y0=[3.0]),
    "linear": lambda lib: lib.LinearSystem(A, B, C, np.zeros((1, 1))),
    "linear_discrete": lambda lib: lib.LinearSystem(A=A, B=B, C=C, D=[[1.0]], time_period=0.25),
    "matrix_gain": lambda lib: lib.MatrixGain(D=np.arange(6.0).reshape(2, 3)),
    "low_pass": lambda lib: lib.FirstOrderLowPassFilter(0.5, 2),
    "low_pass_vector": lambda lib: lib.FirstOrderLowPassFilter(time_constants=[0.5, 0.25, 2.0]),
    "sine": lambda lib: lib.Sine(2.0, 3.0, 0.5, 2),
    "sine_vector_input": lambda lib: lib.Sine(
        amplitudes=[1.0, 2.0], frequencies=[3.0, 4.0], phases=[0.0, 1.0], is_time_based=False
    ),
    "delay": lambda lib: lib.DiscreteTimeDelay(0.1, 3, 2),
    "delay_now": lambda lib: lib.DiscreteTimeDelay(
        update_sec=0.2, delay_time_steps=0, vector_size=1
    ),
    "derivative": lambda lib: lib.DiscreteDerivative(2, 0.1),
    "derivative_no_suppression": lambda lib: lib.DiscreteDerivative(
        num_inputs=1, time_step=0.05, suppress_initial_transient=False
    ),
    "interpolator": lambda lib: lib.StateInterpolatorWithDiscreteDerivative(2, 0.01),
    "interpolator_no_suppression": lambda lib: lib.StateInterpolatorWithDiscreteDerivative(
        num_positions=1, time_step=0.1, suppress_initial_transient=False
    ),
    "selector": selector,
    "symbolic": pendulum_vector_system,
    "symbolic_discrete": lambda lib: squaring_map(lib),
}


def describe(system):
    inputs = [system.get_input_port(i) for i in range(system.num_input_ports())]
    outputs = [system.get_output_port(i) for i in range(system.num_output_ports())]
    return (
        system.GetSystemType(),
        [(p.get_name(), p.size()) for p in inputs],
        [(p.get_name(), p.size()) for p in outputs],
        [
            [system.HasDirectFeedthrough(i, j) for j in range(len(outputs))]
            for i in range(len(inputs))
        ],
        system.num_continuous_states(),
        system.num_discrete_state_groups(),
    )


def state_sizes(context):
    return [
        context.get_discrete_state(i).size() for i in range(context.num_discrete_state_groups())
    ]


def evaluate(system, context, rng_seed):
    """Sets every state, parameter and input to the same pseudo-random numbers in both
    libraries, then returns the outputs and derivatives."""
    rng = np.random.default_rng(rng_seed)
    context.SetTime(0.7)
    if context.num_continuous_states():
        context.SetContinuousState(rng.normal(size=context.num_continuous_states()))
    for i in range(context.num_discrete_state_groups()):
        n = context.get_discrete_state(i).size()
        context.SetDiscreteState(i, rng.normal(size=n) if n > 1 else [2.0 + rng.random()])
    for i in range(context.num_numeric_parameter_groups()):
        parameter = context.get_mutable_numeric_parameter(i)
        parameter.SetFromVector(1 + rng.random(parameter.size()))
    for i in range(system.num_input_ports()):
        port = system.get_input_port(i)
        port.FixValue(context, rng.normal(size=port.size()))
    outputs = [
        system.get_output_port(i).Eval(context).tolist() for i in range(system.num_output_ports())
    ]
    derivatives = []
    if context.num_continuous_states():
        derivatives = system.EvalTimeDerivatives(context).CopyToVector().tolist()
    return outputs, derivatives


def simulate(lib, system, seconds):
    """The outputs after ``seconds`` of simulation with inputs from Sine sources."""
    builder = lib.DiagramBuilder()
    builder.AddSystem(system)
    for i in range(system.num_input_ports()):
        n = system.get_input_port(i).size()
        source = builder.AddSystem(lib.Sine(np.arange(1.0, n + 1), np.full(n, 2.0), np.zeros(n)))
        builder.Connect(source.get_output_port(0), system.get_input_port(i))
    diagram = builder.Build()
    simulator = lib.Simulator(diagram)
    context = simulator.get_mutable_context()
    sub = system.GetMyContextFromRoot(context)
    for i in range(sub.num_numeric_parameter_groups()):
        sub.get_mutable_numeric_parameter(i).SetFromVector(
            np.full(sub.get_numeric_parameter(i).size(), 0.5)
        )
    if (
        sub.num_discrete_state_groups()
        and sub.get_discrete_state(0).size() == 1
        and not sub.num_input_ports()
    ):
        sub.SetDiscreteState(0, [0.9])
    samples = []
    for t in np.linspace(0.05, seconds, 7):
        simulator.AdvanceTo(t)
        samples.append(
            [system.get_output_port(i).Eval(sub).tolist() for i in range(system.num_output_ports())]
        )
    return samples


@pytest.mark.parametrize("name", SYSTEMS)
def test_structure_outputs_and_derivatives(name):
    theirs, ours = SYSTEMS[name](D), SYSTEMS[name](M)
    assert describe(ours) == describe(theirs)
    ctx_d, ctx_m = theirs.CreateDefaultContext(), ours.CreateDefaultContext()
    assert state_sizes(ctx_m) == state_sizes(ctx_d)
    np.testing.assert_array_equal(
        ctx_m.get_continuous_state_vector().CopyToVector(),
        ctx_d.get_continuous_state_vector().CopyToVector(),
    )
    (y_d, xdot_d), (y_m, xdot_m) = evaluate(theirs, ctx_d, 3), evaluate(ours, ctx_m, 3)
    for a, b in zip(y_m, y_d, strict=True):
        np.testing.assert_allclose(a, b, **TOL)
    np.testing.assert_allclose(xdot_m, xdot_d, **TOL)


@pytest.mark.parametrize("name", SYSTEMS)
def test_simulated_outputs(name):
    theirs = simulate(D, SYSTEMS[name](D), 1.0)
    ours = simulate(M, SYSTEMS[name](M), 1.0)
    for a, b in zip(ours, theirs, strict=True):
        for ya, yb in zip(a, b, strict=True):
            np.testing.assert_allclose(ya, yb, rtol=1e-9, atol=1e-9)


AUTODIFF = ["affine", "affine_discrete", "low_pass", "sine", "delay", "derivative", "selector"]


@pytest.mark.parametrize("name", [*AUTODIFF, "interpolator", "matrix_gain", "symbolic"])
def test_autodiff_conversion(name):
    def run(lib):
        system = SYSTEMS[name](lib).ToAutoDiffXd()
        context = system.CreateDefaultContext()
        outputs, derivatives = evaluate(system, context, 5)
        flat = [x for y in outputs for x in y] + derivatives
        return system.GetSystemType(), [x.value() for x in flat]

    (type_d, v_d), (type_m, v_m) = run(D), run(M)
    assert type_m == type_d
    np.testing.assert_allclose(v_m, v_d, **TOL)


def test_abstract_delay():
    def run(lib):
        system = lib.DiscreteTimeDelay(0.1, 2, lib.AbstractValue.Make("start"))
        context = system.CreateDefaultContext()
        history = []
        for k in range(5):
            system.get_input_port().FixValue(context, f"s{k}")
            state = context.get_mutable_state()
            events = system.AllocateDiscreteVariables()  # (unused: only for symmetry)
            del events
            system.CalcForcedUnrestrictedUpdate(context, state)
            history.append(system.get_output_port().Eval(context))
        return history, context.num_abstract_states()

    assert run(M) == run(D)


def test_affine_random_state_and_defaults():
    def run(lib):
        system = lib.AffineSystem(np.diag([-1.0, -2.0, -3.0]), np.ones((3, 1)), np.zeros(3),
                                  np.eye(3), np.zeros((3, 1)), np.zeros(3))  # fmt: skip
        system.configure_default_state([1.0, 2.0, 3.0])
        system.configure_random_state([[1.0, 0.2, 0.0], [0.2, 2.0, 0.1], [0.0, 0.1, 3.0]])
        context = system.CreateDefaultContext()
        default = context.get_continuous_state_vector().CopyToVector()
        system.SetRandomContext(context, lib.RandomGenerator(3))
        converted = system.ToAutoDiffXd().CreateDefaultContext()
        values = [x.value() for x in converted.get_continuous_state_vector().CopyToVector()]
        return default, context.get_continuous_state_vector().CopyToVector(), values

    for a, b in zip(run(M), run(D), strict=True):
        np.testing.assert_allclose(a, b, **TOL)


def pendulum(lib):
    """A torque-driven pendulum as a SymbolicVectorSystem (for Linearize and LQR)."""
    sym = symbolic(lib)
    x, u = sym.MakeVectorVariable(2, "x"), sym.Variable("u")
    return lib.SymbolicVectorSystem(
        state=x, input=[u], dynamics=[x[1], -9.81 * sym.sin(x[0]) - 0.1 * x[1] + u],
        output=[x[0], 3 * x[1] + u],
    )  # fmt: skip


def test_linearize_and_taylor():
    def run(lib):
        system = pendulum(lib)
        context = system.CreateDefaultContext()
        context.SetContinuousState([np.pi, 0.0])
        system.get_input_port().FixValue(context, [0.0])
        linear = lib.Linearize(system, context)
        context.SetContinuousState([0.3, -0.2])
        system.get_input_port().FixValue(context, [0.4])
        with pytest.raises(RuntimeError, match="not an equilibrium"):
            lib.Linearize(system, context, equilibrium_check_tolerance=1e-6)
        affine = lib.FirstOrderTaylorApproximation(system, context)
        no_input = lib.Linearize(
            system, context, input_port_index=lib.InputPortSelection.kNoInput,
            output_port_index=lib.OutputPortIndex(0), equilibrium_check_tolerance=100.0,
        )  # fmt: skip
        discrete = lib.LinearSystem(A, B, C, [[0.0]], 0.1)
        dctx = discrete.CreateDefaultContext()
        discrete.get_input_port().FixValue(dctx, [0.0])
        relinearized = lib.Linearize(discrete, dctx)
        return [
            type(linear).__name__, linear.A(), linear.B(), linear.C(), linear.D(),
            type(affine).__name__, affine.A(), affine.B(), affine.f0(), affine.C(), affine.D(),
            affine.y0(), no_input.B().shape, no_input.D().shape, relinearized.A(),
            relinearized.time_period(),
        ]  # fmt: skip

    for a, b in zip(run(M), run(D), strict=True):
        if isinstance(a, str | tuple | float):
            assert a == b
        else:
            np.testing.assert_allclose(a, b, **TOL)


def test_controllability_and_observability():
    def run(lib):
        sys = lib.LinearSystem(A, B, C, [[0.0]])
        uncontrollable = lib.LinearSystem(np.diag([1.0, -1.0]), [[1.0], [0.0]], C, [[0.0]])
        unstable_hidden = lib.LinearSystem(np.diag([-1.0, 1.0]), [[1.0], [0.0]], C, [[0.0]])
        return [
            lib.ControllabilityMatrix(sys), lib.ObservabilityMatrix(sys),
            lib.IsControllable(sys), lib.IsObservable(sys), lib.IsControllable(uncontrollable),
            lib.IsStabilizable(uncontrollable), lib.IsStabilizable(unstable_hidden),
            lib.IsDetectable(sys),
        ]  # fmt: skip

    for a, b in zip(run(M), run(D), strict=True):
        np.testing.assert_allclose(a, b, **TOL)


def well_conditioned(seed, n, m):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, n))
    B = rng.normal(size=(n, m))
    Q0 = rng.normal(size=(n, n))
    R0 = rng.normal(size=(m, m))
    N = 0.1 * rng.normal(size=(n, m))
    return A, B, Q0 @ Q0.T + np.eye(n), R0 @ R0.T + np.eye(m), N


@pytest.mark.parametrize("seed", range(6))
def test_lqr_on_matrices(seed):
    A, B, Q, R, N = well_conditioned(seed, 2 + seed % 3, 1 + seed % 2)
    F = np.zeros((1, A.shape[0]))
    F[0, 0] = 1.0

    def run(lib):
        return [
            *lib.LinearQuadraticRegulator(A, B, Q, R),
            *lib.LinearQuadraticRegulator(A=A, B=B, Q=Q, R=R, N=N),
            *lib.LinearQuadraticRegulator(A, B, Q, R, F=F),
            *lib.DiscreteTimeLinearQuadraticRegulator(0.5 * A, B, Q, R),
            *lib.DiscreteTimeLinearQuadraticRegulator(A=0.5 * A, B=B, Q=Q, R=R, N=N),
        ]

    for a, b in zip(run(M), run(D), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)


def test_lqr_systems():
    def run(lib):
        Q, R = np.diag([10.0, 1.0]), [[0.5]]
        continuous = lib.LinearQuadraticRegulator(lib.LinearSystem(A, B, C, [[0.0]]), Q, R)
        discrete = lib.LinearQuadraticRegulator(
            system=lib.LinearSystem(0.5 * A, B, C, [[0.0]], 0.1), Q=Q, R=R, N=[[0.1], [0.0]]
        )
        plant = pendulum(lib)
        context = plant.CreateDefaultContext()
        context.SetContinuousState([np.pi, 0.0])
        plant.get_input_port().FixValue(context, [0.0])
        about = lib.LinearQuadraticRegulator(plant, context, Q, R)
        ctx = about.CreateDefaultContext()
        about.get_input_port().FixValue(ctx, [np.pi + 0.1, 0.2])
        return [
            (type(continuous).__name__, continuous.time_period(), describe(continuous)),
            continuous.D(),
            (type(discrete).__name__, discrete.time_period(), describe(discrete)),
            discrete.D(),
            (type(about).__name__, describe(about)),
            about.D(), about.y0(), about.get_output_port().Eval(ctx),
        ]  # fmt: skip

    for a, b in zip(run(M), run(D), strict=True):
        if isinstance(a, tuple):
            assert a == b
        else:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)


def test_lqr_errors():
    for lib in (D, M):
        with pytest.raises(RuntimeError):
            lib.LinearQuadraticRegulator(A, B, np.eye(2), [[-1.0]])  # R not positive definite
