"""SimulatorConfig and the functions that apply it: GetIntegrationSchemes,
ResetIntegratorFromFlags, ApplySimulatorConfig, ExtractSimulatorConfig, and
PrintSimulatorStatistics."""

import dataclasses
import json
import math

from mallard._template import cpp_scalar_name
from mallard.systems.analysis._explicit_integrators import (
    ExplicitEulerIntegrator,
    RungeKutta2Integrator,
    RungeKutta3Integrator,
    RungeKutta5Integrator,
    SemiExplicitEulerIntegrator,
)
from mallard.systems.analysis._implicit_euler import ImplicitEulerIntegrator
from mallard.systems.analysis._integrator_base import double_value

# scheme name -> (integrator class, is fixed step)
_SCHEMES = {
    "explicit_euler": (ExplicitEulerIntegrator, True),
    "implicit_euler": (ImplicitEulerIntegrator, False),
    "runge_kutta2": (RungeKutta2Integrator, True),
    "runge_kutta3": (RungeKutta3Integrator, False),
    "runge_kutta5": (RungeKutta5Integrator, False),
    "semi_explicit_euler": (SemiExplicitEulerIntegrator, True),
}


@dataclasses.dataclass
class SimulatorConfig:
    """How to simulate: the integration scheme and its settings, the start time, realtime
    rate and whether to publish every step (pydrake's fields and defaults)."""

    integration_scheme: str = "runge_kutta3"
    max_step_size: float = 0.1
    accuracy: float = 1.0e-4
    use_error_control: bool = True
    start_time: float = 0.0
    target_realtime_rate: float = 0.0
    publish_every_time_step: bool = False


def GetIntegrationSchemes():
    """The names ResetIntegratorFromFlags and SimulatorConfig accept, sorted."""
    return sorted(_SCHEMES)


def ResetIntegratorFromFlags(simulator, scheme, max_step_size):
    """Replaces ``simulator``'s integrator by a new one of ``scheme`` (see
    GetIntegrationSchemes()) with the given maximum step size; returns it."""
    entry = _SCHEMES.get(scheme)
    if entry is None:
        raise RuntimeError(f"Unknown integration scheme: {scheme}")
    cls, fixed_step = entry
    if fixed_step:
        return simulator.reset_integrator(cls, max_step_size)
    integrator = simulator.reset_integrator(cls)
    integrator.set_maximum_step_size(max_step_size)
    return integrator


def ApplySimulatorConfig(config, simulator):
    """Sets ``simulator`` up as ``config`` says (always with a new integrator)."""
    integrator = ResetIntegratorFromFlags(
        simulator, config.integration_scheme, config.max_step_size
    )
    if integrator.supports_error_estimation():
        integrator.set_fixed_step_mode(not config.use_error_control)
    if not integrator.get_fixed_step_mode():
        integrator.set_target_accuracy(config.accuracy)
    simulator.get_mutable_context().SetTime(config.start_time)
    simulator.set_target_realtime_rate(config.target_realtime_rate)
    simulator.set_publish_at_initialization(config.publish_every_time_step)
    simulator.set_publish_every_time_step(config.publish_every_time_step)


def ExtractSimulatorConfig(simulator):
    """The SimulatorConfig of ``simulator``'s current settings (start_time: its Context's
    time). The accuracy is the integrator's accuracy in use (0 without error control)."""
    integrator = simulator.get_integrator()
    scheme = getattr(integrator, "_scheme", None)
    if scheme not in _SCHEMES:
        raise RuntimeError(f"Unrecognized integration scheme {type(integrator).__name__}")
    result = SimulatorConfig(integration_scheme=scheme)
    result.max_step_size = double_value(integrator.get_maximum_step_size())
    if integrator.supports_error_estimation():
        result.use_error_control = not integrator.get_fixed_step_mode()
        accuracy = integrator.get_accuracy_in_use()
        if math.isnan(accuracy):
            raise RuntimeError(
                "ExtractSimulatorConfig(): the integrator has no accuracy in use yet; "
                "Initialize() the Simulator (or set a target accuracy) first"
            )
        result.accuracy = accuracy
    else:
        result.use_error_control = False
        result.accuracy = 0.0
    result.start_time = double_value(simulator.get_context().get_time())
    result.target_realtime_rate = simulator.get_target_realtime_rate()
    result.publish_every_time_step = simulator.get_publish_every_time_step()
    return result


def PrintSimulatorStatistics(simulator):
    """Prints the statistics of ``simulator`` and its integrator, as pydrake's."""
    integrator = simulator.get_integrator()
    fixed = integrator.get_fixed_step_mode()
    lines = [
        "General stats regarding discrete updates:",
        f"Number of time steps taken (simulator stats) = {simulator.get_num_steps_taken()}",
        "Simulator publishes every time step: "
        + ("true" if simulator.get_publish_every_time_step() else "false"),
        f"Number of publishes = {simulator.get_num_publishes()}",
        f"Number of discrete updates = {simulator.get_num_discrete_updates()}",
        f'Number of "unrestricted" updates = {simulator.get_num_unrestricted_updates()}',
        "",
        f"Stats for integrator {_type_name(integrator)} with "
        + ("fixed steps:" if fixed else "error control:"),
        f"Number of time steps taken (integrator stats) = {integrator.get_num_steps_taken()}",
    ]
    if not fixed:
        lines += [
            "Initial time step taken = "
            f"{double_value(integrator.get_actual_initial_step_size_taken()):10.6g} s",
            "Largest time step taken = "
            f"{double_value(integrator.get_largest_step_size_taken()):10.6g} s",
            "Smallest adapted step size = "
            f"{double_value(integrator.get_smallest_adapted_step_size_taken()):10.6g} s",
            "Number of steps shrunk due to error control = "
            f"{integrator.get_num_step_shrinkages_from_error_control()}",
        ]
    lines += [
        f"Number of derivative evaluations = {integrator.get_num_derivative_evaluations()}",
        "Number of steps shrunk due to convergence-based failure = "
        f"{integrator.get_num_step_shrinkages_from_substep_failures()}",
        "Number of convergence-based step failures (should match) = "
        f"{integrator.get_num_substep_failures()}",
    ]
    if isinstance(integrator, ImplicitEulerIntegrator):
        lines.append("Implicit Integrator Statistics (integrator, error estimator, total):")
        for label, total, estimator in (
            (
                "Derivative Evaluations",
                integrator.get_num_derivative_evaluations(),
                integrator.get_num_error_estimator_derivative_evaluations(),
            ),
            (
                "Jacobian Computations",
                integrator.get_num_jacobian_evaluations(),
                integrator.get_num_error_estimator_jacobian_evaluations(),
            ),
            (
                "Derivative Evaluations for Jacobians",
                integrator.get_num_derivative_evaluations_for_jacobian(),
                integrator.get_num_error_estimator_derivative_evaluations_for_jacobian(),
            ),
            (
                "Iteration Matrix Factorizations",
                integrator.get_num_iteration_matrix_factorizations(),
                integrator.get_num_error_estimator_iteration_matrix_factorizations(),
            ),
            (
                "Newton-Raphson Iterations",
                integrator.get_num_newton_raphson_iterations(),
                integrator.get_num_error_estimator_newton_raphson_iterations(),
            ),
        ):
            lines.append(f"Number of {label} = {total - estimator}, {estimator}, {total} ")
    summary = dict(integrator.GetStatisticsSummary())
    lines += ["", "JSON Statistics:", json.dumps(summary, indent=2, sort_keys=True)]
    print("\n".join(lines))


def _type_name(integrator):
    """The integrator's class name as Drake prints it (``RungeKutta3Integrator``, or
    ``RungeKutta3Integrator<drake::AutoDiffXd>`` for another scalar type)."""
    name = type(integrator).__name__
    T = integrator._T
    return name if T is float else f"{name}<{cpp_scalar_name(T)}>"
