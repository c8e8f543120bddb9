"""Mirror of pydrake.systems.analysis: the Simulator, its integrators and configuration.

Beyond pydrake's Python bindings (which expose RungeKutta2Integrator and
RungeKutta3Integrator), the integrator classes behind every scheme mallard supports are
public, as in Drake's C++ API: ExplicitEulerIntegrator, RungeKutta5Integrator,
SemiExplicitEulerIntegrator and ImplicitEulerIntegrator.
"""

from mallard._public import publish
from mallard._template import TemplateClass
from mallard.systems.analysis._explicit_integrators import (
    ExplicitEulerIntegrator,
    RungeKutta2Integrator,
    RungeKutta3Integrator,
    RungeKutta5Integrator,
    SemiExplicitEulerIntegrator,
)
from mallard.systems.analysis._implicit_euler import ImplicitEulerIntegrator
from mallard.systems.analysis._integrator_base import IntegratorBase
from mallard.systems.analysis._monte_carlo import (
    MonteCarloSimulation,
    RandomSimulation,
    RandomSimulationResult,
)
from mallard.systems.analysis._simulator import Simulator
from mallard.systems.analysis._simulator_config import (
    ApplySimulatorConfig,
    ExtractSimulatorConfig,
    GetIntegrationSchemes,
    PrintSimulatorStatistics,
    ResetIntegratorFromFlags,
    SimulatorConfig,
)
from mallard.systems.analysis._simulator_status import InitializeParams, SimulatorStatus

Simulator_ = TemplateClass("Simulator_", Simulator, "system")
IntegratorBase_ = TemplateClass("IntegratorBase_", IntegratorBase, "system")
RungeKutta2Integrator_ = TemplateClass("RungeKutta2Integrator_", RungeKutta2Integrator, "system")
RungeKutta3Integrator_ = TemplateClass("RungeKutta3Integrator_", RungeKutta3Integrator, "system")

__all__ = [
    "ApplySimulatorConfig",
    "ExplicitEulerIntegrator",
    "ExtractSimulatorConfig",
    "GetIntegrationSchemes",
    "ImplicitEulerIntegrator",
    "InitializeParams",
    "IntegratorBase",
    "IntegratorBase_",
    "MonteCarloSimulation",
    "PrintSimulatorStatistics",
    "RandomSimulation",
    "RandomSimulationResult",
    "ResetIntegratorFromFlags",
    "RungeKutta2Integrator",
    "RungeKutta2Integrator_",
    "RungeKutta3Integrator",
    "RungeKutta3Integrator_",
    "RungeKutta5Integrator",
    "SemiExplicitEulerIntegrator",
    "Simulator",
    "SimulatorConfig",
    "SimulatorStatus",
    "Simulator_",
]

publish(globals())
