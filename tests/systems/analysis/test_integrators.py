"""Integrators: order of convergence, error control, fixed-step mode, settings and their
errors, statistics, and the SimulatorConfig functions."""

import math
import re

import numpy as np
import pytest

from mallard.systems.analysis import (
    ApplySimulatorConfig,
    ExplicitEulerIntegrator,
    ExtractSimulatorConfig,
    GetIntegrationSchemes,
    ImplicitEulerIntegrator,
    IntegratorBase,
    PrintSimulatorStatistics,
    ResetIntegratorFromFlags,
    RungeKutta2Integrator,
    RungeKutta3Integrator,
    RungeKutta5Integrator,
    SemiExplicitEulerIntegrator,
    Simulator,
    SimulatorConfig,
)
from mallard.systems.framework import LeafSystem


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


class Decay(LeafSystem):
    """ẋ = −λx (misc state z)."""

    def __init__(self, rate=1.0):
        super().__init__()
        self.rate = rate
        self.DeclareContinuousState(1)

    def DoCalcTimeDerivatives(self, context, derivatives):
        x = context.get_continuous_state_vector().GetAtIndex(0)
        derivatives.get_mutable_vector().SetAtIndex(0, -self.rate * x)


class Oscillator(LeafSystem):
    """q̈ = −ω²q as [q; v] (one generalized position and velocity)."""

    def __init__(self, omega=2.0):
        super().__init__()
        self.omega = omega
        self.DeclareContinuousState(1, 1, 0)

    def DoCalcTimeDerivatives(self, context, derivatives):
        q, v = context.get_continuous_state_vector().CopyToVector()
        derivatives.get_mutable_vector().SetFromVector([v, -(self.omega**2) * q])


def exact(system, t):
    if isinstance(system, Decay):
        return np.array([math.exp(-system.rate * t)])
    w = system.omega
    return np.array([math.cos(w * t), -w * math.sin(w * t)])


def initial(system):
    return [1.0] if isinstance(system, Decay) else [1.0, 0.0]


FIXED_STEP = [
    (ExplicitEulerIntegrator, 1),
    (RungeKutta2Integrator, 2),
    (SemiExplicitEulerIntegrator, 1),
]
ERROR_CONTROLLED = [
    (RungeKutta3Integrator, 3),
    (RungeKutta5Integrator, 5),
    (ImplicitEulerIntegrator, 1),
]


def make_integrator(cls, system, h, context):
    if (cls, 1) in FIXED_STEP or cls in (c for c, _ in FIXED_STEP):
        integrator = cls(system, h, context)
    else:
        integrator = cls(system, context)
        integrator.set_maximum_step_size(h)
        integrator.set_fixed_step_mode(True)
    integrator.Initialize()
    return integrator


def global_error(cls, system, h, t_final=1.0):
    context = system.CreateDefaultContext()
    context.SetContinuousState(initial(system))
    integrator = make_integrator(cls, system, h, context)
    integrator.IntegrateWithMultipleStepsToTime(t_final)
    assert context.get_time() == t_final
    return np.max(np.abs(context.get_continuous_state_vector().CopyToVector() - exact(system, 1)))


@pytest.mark.parametrize("system_type", [Decay, Oscillator])
@pytest.mark.parametrize("cls, order", FIXED_STEP + ERROR_CONTROLLED)
def test_order_of_convergence(system_type, cls, order):
    system = system_type()
    h = 0.05 if order < 5 else 0.2
    errors = [global_error(cls, system, h / 2**k) for k in range(3)]
    observed = [math.log2(errors[k] / errors[k + 1]) for k in range(2)]
    assert all(abs(p - order) < 0.25 for p in observed), (errors, observed)


def test_semi_explicit_euler_is_symplectic():
    """On an undamped oscillator, semi-explicit Euler keeps the energy bounded where explicit
    Euler's grows without bound."""
    energies = {}
    for cls in (SemiExplicitEulerIntegrator, ExplicitEulerIntegrator):
        system = Oscillator(omega=1.0)
        context = system.CreateDefaultContext()
        context.SetContinuousState([1.0, 0.0])
        integrator = cls(system, 0.05, context)
        integrator.Initialize()
        integrator.IntegrateWithMultipleStepsToTime(50.0)
        q, v = context.get_continuous_state_vector().CopyToVector()
        energies[cls] = 0.5 * (q * q + v * v)
    assert abs(energies[SemiExplicitEulerIntegrator] - 0.5) < 0.02
    assert energies[ExplicitEulerIntegrator] > 5.0


@pytest.mark.parametrize("cls, order", ERROR_CONTROLLED)
def test_error_control_reaches_the_accuracy(cls, order):
    """The global error shrinks with the requested accuracy and stays within a modest
    multiple of it; tighter accuracy takes more steps, about accuracy^(−1/order) more."""
    accuracies = [1e-3, 1e-5] if cls is not ImplicitEulerIntegrator else [1e-2, 1e-3]
    steps, errors = [], []
    for accuracy in accuracies:
        system = Oscillator()
        simulator = Simulator(system)
        integrator = simulator.reset_integrator(cls)
        integrator.set_maximum_step_size(1.0)
        integrator.set_target_accuracy(accuracy)
        simulator.get_mutable_context().SetContinuousState([1.0, 0.0])
        simulator.AdvanceTo(3.0)
        state = simulator.get_context().get_continuous_state_vector().CopyToVector()
        errors.append(np.max(np.abs(state - exact(system, 3.0))))
        steps.append(integrator.get_num_steps_taken())
        # (Implicit Euler's local error control lets its global error grow larger.)
        assert errors[-1] < (30 if cls is not ImplicitEulerIntegrator else 100) * accuracy
    assert errors[1] < errors[0] and steps[1] > steps[0]
    ratio = accuracies[0] / accuracies[1]
    # Step count scales like accuracy^(-1/order) (local error order + 1 for one-step methods).
    expected = ratio ** (1 / (order + 1)) if cls is not ImplicitEulerIntegrator else ratio**0.5
    assert expected / 2 < steps[1] / steps[0] < expected * 2


def test_error_control_shrinks_a_too_large_first_step():
    system = Decay(rate=10.0)
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0])
    integrator = RungeKutta3Integrator(system, context)
    integrator.set_maximum_step_size(1.0)
    integrator.request_initial_step_size_target(1.0)
    integrator.set_target_accuracy(1e-6)
    integrator.Initialize()
    integrator.IntegrateWithMultipleStepsToTime(1.0)
    assert integrator.get_num_step_shrinkages_from_error_control() > 0
    assert integrator.get_actual_initial_step_size_taken() < 0.1
    assert integrator.get_smallest_adapted_step_size_taken() < 0.1
    assert context.get_continuous_state_vector()[0] == pytest.approx(math.exp(-10), abs=1e-6)


def test_step_size_rules():
    """Drake's CalcAdjustedStepSize: growth at most 5x, no growth under 20%, shrinking at
    least 10% and at most 10x, a NaN error shrinks 10x."""
    system = Decay()
    integrator = RungeKutta3Integrator(system, system.CreateDefaultContext())
    integrator.set_maximum_step_size(10.0)
    integrator.set_target_accuracy(1e-3)
    integrator.Initialize()
    adjust = integrator._calc_adjusted_step_size
    assert adjust(0.0, 0.1, False)[:2] == (True, 0.5)  # perfect step: 5x
    assert adjust(1e-9, 0.1, False)[:2] == (True, 0.5)  # capped at 5x
    assert adjust(0.9e-3, 0.1, False)[:2] == (True, 0.1)  # would grow < 20%: unchanged
    ok, h, _ = adjust(2e-3, 0.1, False)
    assert not ok and h == pytest.approx(0.9 * 0.1 * 0.5 ** (1 / 3))
    ok, h, _ = adjust(1.1e-3, 0.1, False)
    assert not ok and h == pytest.approx(0.9 * 0.1 * (1 / 1.1) ** (1 / 3))  # at most 0.9·h
    assert adjust(1.0, 0.1, False)[:2] == (False, pytest.approx(0.01))  # at most 10x
    assert adjust(math.nan, 0.1, False)[:2] == (False, pytest.approx(0.01))
    assert adjust(0.0, 5.0, False)[1] == 10.0  # the maximum step size


def test_minimum_step_size():
    system = Decay(rate=1e4)  # needs steps far below 0.01
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0])
    integrator = RungeKutta3Integrator(system, context)
    integrator.set_maximum_step_size(0.1)
    integrator.set_requested_minimum_step_size(0.01)
    integrator.set_target_accuracy(1e-3)
    assert integrator.get_requested_minimum_step_size() == 0.01
    assert integrator.get_throw_on_minimum_step_size_violation()
    integrator.Initialize()
    with raises(
        RuntimeError, "Error control wants to select step smaller than minimum allowed (0.01)"
    ):
        integrator.IntegrateWithMultipleStepsToTime(0.1)
    assert integrator.get_working_minimum_step_size() == 0.01
    integrator.set_throw_on_minimum_step_size_violation(False)
    context.SetTime(0.0)
    integrator.Initialize()
    integrator.IntegrateNoFurtherThanTime(math.inf, math.inf, 1.0)
    assert context.get_time() >= 0.01  # took a (too large) step of at least the minimum


def test_fixed_step_mode_and_stretch():
    system = Decay()
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0])
    integrator = RungeKutta3Integrator(system, context)
    integrator.set_maximum_step_size(0.1)
    integrator.set_fixed_step_mode(True)
    assert integrator.get_fixed_step_mode()
    integrator.Initialize()
    result = integrator.IntegrateNoFurtherThanTime(math.inf, math.inf, 1.0)
    assert result == IntegratorBase.StepResult.kTimeHasAdvanced and context.get_time() == 0.1
    # An event within 1% beyond the maximum step is reached in one (stretched) step.
    result = integrator.IntegrateNoFurtherThanTime(0.1 + 0.1009, math.inf, 1.0)
    assert result == IntegratorBase.StepResult.kReachedPublishTime
    assert context.get_time() == pytest.approx(0.2009)
    result = integrator.IntegrateNoFurtherThanTime(math.inf, 0.35, 1.0)
    assert result == IntegratorBase.StepResult.kTimeHasAdvanced  # 0.1509 > 1.01·0.1
    result = integrator.IntegrateNoFurtherThanTime(math.inf, 0.35, 1.0)
    assert result == IntegratorBase.StepResult.kReachedUpdateTime
    result = integrator.IntegrateNoFurtherThanTime(0.4, 0.4, 0.38)
    assert result == IntegratorBase.StepResult.kReachedBoundaryTime
    assert integrator.get_num_steps_taken() == 5
    assert integrator.get_num_derivative_evaluations() == 15
    assert integrator.IntegrateWithSingleFixedStepToTime(0.5)
    assert context.get_time() == 0.5
    with raises(
        RuntimeError, "IntegrateWithSingleFixedStepToTime() called with a negative step size."
    ):
        integrator.IntegrateWithSingleFixedStepToTime(0.4)
    with raises(RuntimeError, "Publish h is negative."):
        integrator.IntegrateNoFurtherThanTime(0.1, 1.0, 1.0)
    integrator.set_fixed_step_mode(False)
    with raises(RuntimeError, "IntegrateWithSingleFixedStepToTime() requires fixed stepping."):
        integrator.IntegrateWithSingleFixedStepToTime(0.6)


def test_settings_errors():
    system = Decay()
    rk2 = RungeKutta2Integrator(system, 0.1)
    assert not rk2.supports_error_estimation() and rk2.get_error_estimate_order() == 0
    assert rk2.get_fixed_step_mode() and math.isnan(rk2.get_target_accuracy())
    with raises(
        RuntimeError,
        "Integrator does not support accuracy estimation and user has requested error control",
    ):
        rk2.set_target_accuracy(1e-3)
    with raises(RuntimeError, "Integrator does not support accuracy estimation"):
        rk2.set_fixed_step_mode(False)
    with raises(
        RuntimeError,
        "Integrator does not support error estimation and user has initial step size target",
    ):
        rk2.request_initial_step_size_target(0.1)
    with raises(RuntimeError, "Context has not been set."):
        rk2.Initialize()
    with raises(RuntimeError, "Integrator not initialized."):
        rk2.IntegrateNoFurtherThanTime(1.0, 1.0, 1.0)
    rk3 = RungeKutta3Integrator(system, system.CreateDefaultContext())
    with raises(
        RuntimeError, "Neither initial step size target nor maximum step size has been set!"
    ):
        rk3.Initialize()
    rk3.set_maximum_step_size(0.1)
    rk3.set_requested_minimum_step_size(0.2)
    with raises(RuntimeError, "Integrator maximum step size is less than the minimum step size"):
        rk3.Initialize()
    rk3.set_requested_minimum_step_size(0.0)
    rk3.request_initial_step_size_target(1.0)
    with raises(
        RuntimeError, "Requested integrator initial step size is larger than the maximum step size."
    ):
        rk3.Initialize()


@pytest.mark.parametrize(
    "cls, default, loosest, initial_fraction",
    [
        (RungeKutta3Integrator, 1e-3, 1e-1, 0.1),
        (RungeKutta5Integrator, 1e-5, 1e-3, 0.1),
        (ImplicitEulerIntegrator, 1e-1, 5e-1, 1.0),
    ],
)
def test_accuracy_defaults(cls, default, loosest, initial_fraction):
    system = Decay()
    integrator = cls(system, system.CreateDefaultContext())
    integrator.set_maximum_step_size(0.2)
    integrator.Initialize()
    assert integrator.get_accuracy_in_use() == default
    assert integrator.get_initial_step_size_target() == pytest.approx(0.2 * initial_fraction)
    integrator.set_target_accuracy(0.9)
    integrator.Initialize()
    assert integrator.get_accuracy_in_use() == loosest
    assert integrator.get_target_accuracy() == 0.9


def test_weights():
    """A zero weight makes a variable's error ignored; negative weights are rejected."""
    steps = []
    for weight in (1.0, 0.0):
        system = Oscillator(omega=5.0)
        context = system.CreateDefaultContext()
        context.SetContinuousState([1.0, 0.0])
        integrator = RungeKutta3Integrator(system, context)
        integrator.set_maximum_step_size(0.5)
        integrator.set_target_accuracy(1e-6)
        integrator.Initialize()
        assert integrator.get_generalized_state_weight_vector().tolist() == [1.0]
        integrator.get_mutable_generalized_state_weight_vector()[0] = weight
        assert not integrator.is_initialized()
        integrator.Initialize()
        integrator.IntegrateWithMultipleStepsToTime(1.0)
        steps.append(integrator.get_num_steps_taken())
    assert steps[1] < steps[0]
    integrator.get_mutable_generalized_state_weight_vector()[0] = -1.0
    with raises(RuntimeError, "Scaling coefficient is less than zero."):
        integrator.Initialize()
    assert integrator.get_misc_state_weight_vector().size == 0


def test_derivative_evaluation_counts_and_fsal():
    counts = {}
    for cls in (ExplicitEulerIntegrator, RungeKutta2Integrator, RungeKutta3Integrator):
        system = Decay()
        context = system.CreateDefaultContext()
        context.SetContinuousState([1.0])
        integrator = make_integrator(cls, system, 0.1, context)
        integrator.IntegrateWithMultipleStepsToTime(0.5)
        counts[cls] = integrator.get_num_derivative_evaluations() / integrator.get_num_steps_taken()
    assert counts == {
        ExplicitEulerIntegrator: 1,
        RungeKutta2Integrator: 2,
        RungeKutta3Integrator: 3,
    }
    # RK5 reuses its last stage as the next first one when the step was limited by error
    # control (the Context was not touched in between).
    system = Decay(rate=5.0)
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0])
    integrator = RungeKutta5Integrator(system, context)
    integrator.set_maximum_step_size(10.0)
    integrator.set_target_accuracy(1e-12)
    integrator.Initialize()
    for _ in range(20):
        integrator.IntegrateNoFurtherThanTime(math.inf, math.inf, 10.0)
    steps = integrator.get_num_steps_taken()
    rejected = integrator.get_num_step_shrinkages_from_error_control()
    assert rejected > 0
    # 6 evaluations per accepted step after the first (whose first stage is new), 7 per
    # rejected attempt (which restarts from the start state).
    assert integrator.get_num_derivative_evaluations() == 1 + 6 * steps + 7 * rejected


def test_statistics():
    system = Decay()
    simulator = Simulator(system)
    simulator.get_mutable_context().SetContinuousState([1.0])
    simulator.AdvanceTo(1.0)
    integrator = simulator.get_integrator()
    summary = integrator.GetStatisticsSummary()
    assert [key for key, _ in summary] == [
        "integrator_num_steps_taken",
        "integrator_actual_initial_step_size_taken",
        "integrator_largest_step_size_taken",
        "integrator_smallest_adapted_step_size_taken",
        "integrator_num_step_shrinkages_from_error_control",
        "integrator_num_derivative_evaluations",
    ]
    assert dict(summary)["integrator_num_steps_taken"] == 17
    assert integrator.get_actual_initial_step_size_taken() == 1e-4
    assert integrator.get_largest_step_size_taken() == pytest.approx(0.0930946, abs=1e-7)
    assert integrator.get_previous_integration_step_size() > 0
    assert integrator.get_num_substep_failures() == 0
    assert integrator.get_num_step_shrinkages_from_substep_failures() == 0
    integrator.ResetStatistics()
    assert integrator.get_num_steps_taken() == 0
    assert math.isnan(integrator.get_largest_step_size_taken())


def test_integration_schemes_and_flags():
    assert GetIntegrationSchemes() == [
        "explicit_euler",
        "implicit_euler",
        "runge_kutta2",
        "runge_kutta3",
        "runge_kutta5",
        "semi_explicit_euler",
    ]
    simulator = Simulator(Decay())
    classes = {
        "explicit_euler": ExplicitEulerIntegrator,
        "implicit_euler": ImplicitEulerIntegrator,
        "runge_kutta2": RungeKutta2Integrator,
        "runge_kutta3": RungeKutta3Integrator,
        "runge_kutta5": RungeKutta5Integrator,
        "semi_explicit_euler": SemiExplicitEulerIntegrator,
    }
    for scheme, cls in classes.items():
        integrator = ResetIntegratorFromFlags(simulator, scheme, 0.05)
        assert type(integrator) is cls and simulator.get_integrator() is integrator
        assert integrator.get_maximum_step_size() == 0.05
        assert math.isnan(integrator.get_target_accuracy())
        assert integrator.get_context() is simulator.get_context()
    with raises(RuntimeError, "Unknown integration scheme: rk4"):
        ResetIntegratorFromFlags(simulator, "rk4", 0.1)


def test_simulator_config_round_trip():
    config = SimulatorConfig()
    assert repr(config) == (
        "SimulatorConfig(integration_scheme='runge_kutta3', max_step_size=0.1, "
        "accuracy=0.0001, use_error_control=True, start_time=0.0, target_realtime_rate=0.0, "
        "publish_every_time_step=False)"
    )
    simulator = Simulator(Decay())
    assert ExtractSimulatorConfig(simulator) == config
    config = SimulatorConfig(
        integration_scheme="runge_kutta5",
        max_step_size=0.2,
        accuracy=1e-6,
        start_time=1.5,
        target_realtime_rate=2.0,
        publish_every_time_step=True,
    )
    ApplySimulatorConfig(config, simulator)
    assert simulator.get_context().get_time() == 1.5
    assert simulator.get_target_realtime_rate() == 2.0
    assert simulator.get_publish_every_time_step()
    assert ExtractSimulatorConfig(simulator) == config
    ApplySimulatorConfig(SimulatorConfig(use_error_control=False), simulator)
    assert simulator.get_integrator().get_fixed_step_mode()
    assert math.isnan(simulator.get_integrator().get_target_accuracy())
    # Without error control the extracted accuracy is the accuracy in use (the default).
    ApplySimulatorConfig(SimulatorConfig(integration_scheme="runge_kutta2"), simulator)
    extracted = ExtractSimulatorConfig(simulator)
    assert (extracted.accuracy, extracted.use_error_control) == (0.0, False)
    ResetIntegratorFromFlags(simulator, "runge_kutta3", 0.1)
    with pytest.raises(RuntimeError, match="no accuracy in use yet"):
        ExtractSimulatorConfig(simulator)
    simulator.Initialize()
    assert ExtractSimulatorConfig(simulator).accuracy == 1e-3


def test_print_simulator_statistics(capsys):
    simulator = Simulator(Decay())
    ResetIntegratorFromFlags(simulator, "runge_kutta2", 0.1)
    simulator.get_mutable_context().SetContinuousState([1.0])
    simulator.AdvanceTo(1.0)
    PrintSimulatorStatistics(simulator)
    # pydrake 1.51.1 prints the same for this simulation.
    assert capsys.readouterr().out == (
        "General stats regarding discrete updates:\n"
        "Number of time steps taken (simulator stats) = 11\n"
        "Simulator publishes every time step: false\n"
        "Number of publishes = 0\n"
        "Number of discrete updates = 0\n"
        'Number of "unrestricted" updates = 0\n'
        "\n"
        "Stats for integrator RungeKutta2Integrator with fixed steps:\n"
        "Number of time steps taken (integrator stats) = 11\n"
        "Number of derivative evaluations = 22\n"
        "Number of steps shrunk due to convergence-based failure = 0\n"
        "Number of convergence-based step failures (should match) = 0\n"
        "\n"
        "JSON Statistics:\n"
        "{\n"
        '  "integrator_num_derivative_evaluations": 22,\n'
        '  "integrator_num_steps_taken": 11\n'
        "}\n"
    )
    simulator = Simulator(Decay())
    simulator.get_mutable_context().SetContinuousState([1.0])
    simulator.AdvanceTo(1.0)
    PrintSimulatorStatistics(simulator)
    out = capsys.readouterr().out
    assert "Stats for integrator RungeKutta3Integrator with error control:\n" in out
    assert "Initial time step taken =     0.0001 s\n" in out
    assert "Largest time step taken =  0.0930946 s\n" in out
    assert "Number of derivative evaluations = 51\n" in out
    ResetIntegratorFromFlags(simulator, "implicit_euler", 0.1)
    simulator.AdvanceTo(2.0)
    PrintSimulatorStatistics(simulator)
    out = capsys.readouterr().out
    assert "Implicit Integrator Statistics (integrator, error estimator, total):\n" in out
    assert "Number of Newton-Raphson Iterations = " in out


def test_implicit_euler_on_a_stiff_system():
    """Implicit Euler takes steps far beyond explicit stability (h·λ ≫ 2) and stays
    stable."""
    system = Decay(rate=1000.0)
    context = system.CreateDefaultContext()
    context.SetContinuousState([1.0])
    integrator = ImplicitEulerIntegrator(system, context)
    integrator.set_maximum_step_size(0.1)
    integrator.set_fixed_step_mode(True)
    integrator.Initialize()
    integrator.IntegrateWithMultipleStepsToTime(1.0)
    assert 0 <= context.get_continuous_state_vector()[0] < 1e-10
    assert integrator.get_num_newton_raphson_iterations() > 0
    assert integrator.get_num_jacobian_evaluations() >= 1
    assert integrator.get_num_iteration_matrix_factorizations() >= 1
    assert integrator.get_num_derivative_evaluations_for_jacobian() >= 2


def test_autodiff_states_step_with_the_explicit_integrators_only():
    from mallard.autodiffutils import AutoDiffXd, ExtractGradient
    from mallard.systems.analysis import Simulator_
    from mallard.systems.primitives import LinearSystem

    system = LinearSystem([[-2.0]], [[0.0]], [[1.0]], [[0.0]]).ToAutoDiffXd()
    simulator = Simulator_[AutoDiffXd](system)
    context = simulator.get_mutable_context()
    context.SetContinuousState([AutoDiffXd(1.0, [1.0])])
    system.get_input_port().FixValue(context, [0.0])
    simulator.get_mutable_integrator().set_target_accuracy(1e-8)
    simulator.AdvanceTo(1.0)
    x = context.get_continuous_state_vector().CopyToVector()
    # x(1) = exp(−2)·x0: value and derivative with respect to x0.
    assert abs(x[0].value() - np.exp(-2.0)) < 1e-7
    assert abs(ExtractGradient(x)[0, 0] - np.exp(-2.0)) < 1e-7
    with pytest.raises(NotImplementedError, match="explicit integrators only"):
        ImplicitEulerIntegrator(system, context).Initialize()
