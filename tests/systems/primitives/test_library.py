"""The systems library's closed forms and errors: affine and linear systems, low-pass filter,
sine, delays, discrete derivative, selector, symbolic vector system, Linearize and the
controllability tests (their agreement with pydrake is in tests/conformance)."""

import numpy as np
import pytest

from mallard.common import RandomGenerator
from mallard.common.value import AbstractValue
from mallard.systems.analysis import Simulator
from mallard.systems.framework import DiagramBuilder, InputPortSelection, LeafSystem
from mallard.systems.primitives import (
    AffineSystem,
    ConstantVectorSource,
    DiscreteDerivative,
    DiscreteTimeDelay,
    FirstOrderLowPassFilter,
    FirstOrderTaylorApproximation,
    IsControllable,
    Linearize,
    LinearSystem,
    MatrixGain,
    Selector,
    SelectorParams,
    Sine,
    StateInterpolatorWithDiscreteDerivative,
)


def test_affine_system_closed_form_and_sizes():
    A, B, f0 = [[-1.0, 0.0], [0.0, -2.0]], [[1.0], [0.0]], [0.5, 0.0]
    system = AffineSystem(A, B, f0, C=[[1.0, 1.0]], D=[[3.0]], y0=[0.25])
    assert (system.num_states(), system.num_inputs(), system.num_outputs()) == (2, 1, 1)
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0, 2.0])
    system.get_input_port().FixValue(context, 2.0)
    np.testing.assert_array_equal(system.EvalTimeDerivatives(context).CopyToVector(), [1.5, -4])
    assert system.get_output_port().Eval(context).tolist() == [1 + 2 + 6 + 0.25]
    # Empty matrices are zeros of the implied sizes; no input: no input port.
    only_offsets = AffineSystem(f0=[1.0, 2.0], y0=[3.0])
    assert only_offsets.num_input_ports() == 0 and only_offsets.C().shape == (1, 2)
    assert not only_offsets.HasAnyDirectFeedthrough()
    with pytest.raises(RuntimeError, match="A must be square"):
        AffineSystem(A=np.ones((2, 3)))
    with pytest.raises(RuntimeError, match="the number of rows of B is 3 but"):
        AffineSystem(A=np.eye(2), B=np.ones((3, 1)))
    with pytest.raises(RuntimeError, match="time_period must be >= 0"):
        LinearSystem(A=np.eye(1), time_period=-1.0)
    with pytest.raises(RuntimeError, match="A must keep its shape"):
        system.UpdateCoefficients(A=np.eye(3))
    with pytest.raises(RuntimeError, match="x0 must have 2 elements"):
        system.configure_default_state([1.0])
    with pytest.raises(RuntimeError, match="the covariance must be 2x2"):
        system.configure_random_state(np.eye(3))
    with pytest.raises(TypeError, match="expected a RandomGenerator"):
        system.SetRandomContext(context, None)


def test_discrete_affine_system_and_update_coefficients():
    system = LinearSystem(A=[[0.5]], B=[[1.0]], C=[[2.0]], D=[[0.0]], time_period=0.1)
    assert system.num_discrete_state_groups() == 1 and system.time_period() == 0.1
    simulator = Simulator(system)
    context = simulator.get_mutable_context()
    context.SetDiscreteState([1.0])
    system.get_input_port().FixValue(context, [0.0])
    simulator.AdvanceTo(0.35)  # updates at 0, 0.1, 0.2, 0.3
    assert context.get_discrete_state_vector().GetAtIndex(0) == 0.5**4
    system.UpdateCoefficients(A=[[0.25]], B=[[1.0]], C=[[2.0]], D=[[0.0]])
    np.testing.assert_array_equal(system.A(), [[0.25]])
    assert system.get_output_port().Eval(context).tolist() == [2 * 0.5**4]


def test_matrix_gain():
    gain = MatrixGain(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    context = gain.CreateDefaultContext()
    gain.get_input_port().FixValue(context, [1.0, -1.0])
    assert gain.get_output_port().Eval(context).tolist() == [-1.0, -1.0, -1.0]
    assert gain.num_states() == 0 and gain.GetSystemType() == "drake::systems::MatrixGain<double>"


def test_low_pass_filter_step_response():
    # z(t) = u (1 − exp(−t/τ)) from z(0) = 0, against the simulated filter.
    builder = DiagramBuilder()
    source = builder.AddSystem(ConstantVectorSource([1.0, 2.0]))
    lpf = builder.AddSystem(FirstOrderLowPassFilter(time_constants=[0.5, 0.2]))
    builder.Connect(source.get_output_port(), lpf.get_input_port())
    simulator = Simulator(builder.Build())
    simulator.get_mutable_integrator().set_target_accuracy(1e-10)
    simulator.AdvanceTo(1.0)
    z = lpf.GetMyContextFromRoot(simulator.get_context()).get_continuous_state_vector()
    expected = np.array([1.0, 2.0]) * (1 - np.exp(-1.0 / np.array([0.5, 0.2])))
    np.testing.assert_allclose(z.CopyToVector(), expected, rtol=1e-7)
    assert FirstOrderLowPassFilter(0.5, 3).get_time_constant() == 0.5
    with pytest.raises(RuntimeError, match="cannot be represented as a scalar"):
        lpf.get_time_constant()
    with pytest.raises(RuntimeError, match="must be positive"):
        FirstOrderLowPassFilter(0.0)
    with pytest.raises(TypeError, match="FirstOrderLowPassFilter: incompatible arguments"):
        FirstOrderLowPassFilter("fast")


def test_sine_closed_form():
    sine = Sine(amplitudes=[2.0, 1.0], frequencies=[3.0, 0.5], phases=[0.25, 0.0])
    context = sine.CreateDefaultContext()
    context.SetTime(0.7)
    arg = np.array([3.0, 0.5]) * 0.7 + [0.25, 0.0]
    a, w = np.array([2.0, 1.0]), np.array([3.0, 0.5])
    np.testing.assert_allclose(sine.get_output_port(0).Eval(context), a * np.sin(arg))
    np.testing.assert_allclose(sine.get_output_port(1).Eval(context), a * w * np.cos(arg))
    np.testing.assert_allclose(sine.get_output_port(2).Eval(context), -a * w**2 * np.sin(arg))
    with pytest.raises(RuntimeError, match="must have the same size"):
        Sine([1.0], [1.0, 2.0], [0.0])
    with pytest.raises(RuntimeError, match="amplitude vector"):
        sine.amplitude()


def test_delays_and_derivative():
    with pytest.raises(RuntimeError, match="delay_time_steps must be >= 0"):
        DiscreteTimeDelay(0.1, -1, 2)
    with pytest.raises(RuntimeError, match="the period must be positive"):
        DiscreteTimeDelay(0.0, 1, 2)
    with pytest.raises(RuntimeError, match="num_inputs must be positive"):
        DiscreteDerivative(0, 0.1)
    delay = DiscreteTimeDelay(0.1, 2, AbstractValue.Make("x"))
    assert delay.num_abstract_states() == 4  # three values and the oldest one's index
    derivative = DiscreteDerivative(1, 0.5)
    context = derivative.CreateDefaultContext()
    derivative.set_input_history(context, [3.0], [1.0])
    assert derivative.get_output_port().Eval(context).tolist() == [4.0]  # (3 − 1)/0.5
    with pytest.raises(RuntimeError, match="u_n must have 1 elements"):
        derivative.set_input_history(context, [1.0, 2.0], [1.0])
    interpolator = StateInterpolatorWithDiscreteDerivative(2, 0.1)
    context = interpolator.CreateDefaultContext()
    interpolator.set_initial_state(context, [1.0, 2.0], [0.5, -0.5])
    interpolator.get_input_port().FixValue(context, [1.0, 2.0])
    np.testing.assert_allclose(interpolator.get_output_port().Eval(context), [1, 2, 0.5, -0.5])
    interpolator.set_initial_position(context.get_mutable_state(), [3.0, 4.0])
    interpolator.get_input_port().FixValue(context, [3.0, 4.0])
    np.testing.assert_allclose(interpolator.get_output_port().Eval(context), [3, 4, 0, 0])


def test_selector_errors():
    P = SelectorParams
    inputs = [P.InputPortParams(size=2)]

    def select(index, offset):
        return P(
            inputs=inputs,
            outputs=[
                P.OutputPortParams(
                    selections=[P.OutputSelection(input_port_index=index, input_offset=offset)]
                )
            ],
        )

    with pytest.raises(RuntimeError, match="selects element 2 of input 0, which has 2"):
        Selector(select(0, 2))
    with pytest.raises(RuntimeError, match="selects from input 1, but there are 1 inputs"):
        Selector(select(1, 0))
    with pytest.raises(RuntimeError, match="negative size"):
        Selector(P(inputs=[P.InputPortParams(size=-1)]))
    with pytest.raises(TypeError, match="unknown fields"):
        P.InputPortParams(sise=2)
    with pytest.raises(TypeError, match="expected SelectorParams"):
        Selector({"inputs": []})


def test_symbolic_vector_system_errors():
    sym = pytest.importorskip("mallard.symbolic")
    from mallard.systems.primitives import SymbolicVectorSystem

    x, y = sym.Variable("x"), sym.Variable("y")
    with pytest.raises(RuntimeError, match="there are 2 dynamics for 1 state variables"):
        SymbolicVectorSystem(state=[x], dynamics=[x, x])
    with pytest.raises(RuntimeError, match="has the variable y, which is not"):
        SymbolicVectorSystem(state=[x], dynamics=[y])
    with pytest.raises(RuntimeError, match="must be distinct"):
        SymbolicVectorSystem(state=[x, x], dynamics=[x, x])
    with pytest.raises(TypeError, match="state must be Variables"):
        SymbolicVectorSystem(state=[x + 1], dynamics=[x])
    system = SymbolicVectorSystem(state=[x], dynamics=[-2 * x])
    assert system.dynamics_for_variable(x).EqualTo(-2 * x)
    with pytest.raises(IndexError, match="does not have a dynamics for the given variable y"):
        system.dynamics_for_variable(y)


def test_linearize_closed_form_and_errors():
    # The affine system is its own first-order approximation, anywhere.
    A, B, C, Dm = [[0.0, 1.0], [-4.0, -0.5]], [[0.0], [2.0]], [[1.0, 0.0]], [[0.5]]
    system = AffineSystem(A, B, [1.0, 0.0], C, Dm, [0.25])
    context = system.CreateDefaultContext()
    context.SetContinuousState([0.3, 0.2])
    system.get_input_port().FixValue(context, [0.1])
    taylor = FirstOrderTaylorApproximation(system, context)
    for name in ("A", "B", "f0", "C", "D", "y0"):
        np.testing.assert_allclose(getattr(taylor, name)(), getattr(system, name)(), atol=1e-15)
    with pytest.raises(RuntimeError, match="not an equilibrium"):
        Linearize(system, context)
    no_input = Linearize(system, context, InputPortSelection.kNoInput, 0, 100.0)
    assert no_input.num_inputs() == 0 and no_input.num_outputs() == 1
    with pytest.raises(RuntimeError, match="there is no output port with index 3"):
        Linearize(system, context, output_port_index=3, equilibrium_check_tolerance=100.0)

    class Abstract(LeafSystem):
        def __init__(self):
            super().__init__()
            self.DeclareAbstractInputPort("a", AbstractValue.Make(1))

        def _scalar_conversion_args(self, T):
            return ()

    abstract = Abstract()
    with pytest.raises(RuntimeError, match="differentiation of abstract ports"):
        Linearize(abstract, abstract.CreateDefaultContext())

    class NotConvertible(LeafSystem):
        pass

    plain = NotConvertible()
    with pytest.raises(RuntimeError, match="does not support scalar conversion"):
        Linearize(plain, plain.CreateDefaultContext())
    with pytest.raises(TypeError, match="expected a LinearSystem"):
        IsControllable(system)


def test_random_state_is_a_sample_of_the_covariance():
    system = AffineSystem(A=-np.eye(2), B=np.zeros((2, 1)))
    system.configure_default_state([1.0, -1.0])
    covariance = np.array([[2.0, 0.5], [0.5, 1.0]])
    system.configure_random_state(covariance)
    np.testing.assert_allclose(system.get_random_state_covariance(), covariance)
    generator = RandomGenerator(7)
    context = system.CreateDefaultContext()
    samples = []
    for _ in range(4000):
        system.SetRandomContext(context, generator)
        samples.append(context.get_continuous_state_vector().CopyToVector())
    samples = np.array(samples)
    np.testing.assert_allclose(samples.mean(axis=0), [1.0, -1.0], atol=0.08)
    np.testing.assert_allclose(np.cov(samples.T), covariance, atol=0.12)
