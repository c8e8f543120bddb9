"""What BatchedPlant.Rollout needs of its plant, checked once: how it steps (the discrete
plant's step, or an explicit integrator for a continuous plant), the parameters its kernel
runs with (kernels.rollouts), and what it refuses."""

import warnings

import numpy as np

from mallard.multibody._batch_codes import (
    DISCRETE_STEP,
    EXPLICIT_EULER,
    RUNGE_KUTTA2,
    RUNGE_KUTTA3,
)
from mallard.multibody._layout import PARAMETERS

#: The explicit integrators a continuous plant's rollout takes, by the names of
#: SimulatorConfig.integration_scheme (their fixed-step forms, as the Simulator's
#: ExplicitEulerIntegrator, RungeKutta2Integrator and RungeKutta3Integrator with fixed steps).
INTEGRATORS = {
    "explicit_euler": EXPLICIT_EULER,
    "runge_kutta2": RUNGE_KUTTA2,
    "runge_kutta3": RUNGE_KUTTA3,
}


class RolloutPlan:
    """The rollout of one BatchedPlant: its discrete step (``scheme`` DISCRETE_STEP, step
    ``h`` the plant's time step, parameters ``ws0`` with the free motion's reflected
    inertias) or, for a continuous plant, ``ws0`` as BatchedPlant's. Raises
    NotImplementedError for what rollouts do not take yet."""

    def __init__(self, batched):
        plant = batched._plant
        self.discrete = plant.time_step() > 0
        self.ws0 = batched._ws0
        locked = PARAMETERS.views(self.ws0, batched._sizes).locked
        if np.any(locked):
            raise NotImplementedError(
                "BatchedPlant.Rollout(): locked joints are not supported by rollouts yet (the "
                "Context the BatchedPlant was made from has locked joints)"
            )
        if plant.num_collision_geometries():
            warnings.warn(
                f"BatchedPlant.Rollout(): the plant has {plant.num_collision_geometries()} "
                "collision geometries; rollouts ignore contact (as mallard's plant does for "
                "now: its step and dynamics have no contact forces)",
                UserWarning,
                stacklevel=3,
            )
        plant._throw_if_continuous_with_constraints()
        if not self.discrete:
            self._check_pd(plant, "its forward dynamics")
            return
        self.h, self.scheme = plant.time_step(), DISCRETE_STEP
        self._check_discrete(plant)
        if not plant._uses_tamsi():  # SAP's free motion: joint damping implicit, M + h·D
            self.ws0 = self.ws0.copy()
            params = PARAMETERS.views(self.ws0, batched._sizes)
            params.reflected[:] += self.h * params.damping

    @staticmethod
    def _check_pd(plant, what):
        for actuator in plant._actuators:
            if actuator.has_controller():
                raise NotImplementedError(
                    f"BatchedPlant.Rollout(): actuator '{actuator.name()}' has PD controller "
                    f"gains, which {what} leave to the plant's PD controllers, which rollouts "
                    "do not run yet (Rollout's pd_target applies an explicit PD law instead)"
                )

    @staticmethod
    def _check_discrete(plant):
        """NotImplementedError for a discrete plant whose step needs a constraint solve
        (SAP's joint limits, PD controllers and couplers; TAMSI's joint limit penalties)."""
        solver = "TAMSI's joint limit penalty forces" if plant._uses_tamsi() else "SAP"
        reason = None
        for joint in plant._joints:
            lower, upper = joint.position_lower_limits(), joint.position_upper_limits()
            if np.any(np.isfinite(lower)) or np.any(np.isfinite(upper)):
                reason = f"joint '{joint.name()}' has position limits"
                break
        if reason is None and plant.num_constraints():
            reason = f"it has {plant.num_constraints()} constraint(s) (couplers, ...)"
        if reason is None:
            for actuator in plant._actuators:
                if actuator.has_controller():
                    reason = f"actuator '{actuator.name()}' has PD controller gains"
                    break
        if reason is not None:
            raise NotImplementedError(
                f"BatchedPlant.Rollout(): {reason}, and its discrete step goes through "
                f"{solver}, which rollouts do not run yet; rollouts take the discrete step "
                "of plants without joint limits, couplers or PD-controlled actuators (remove "
                "the limits before Finalize(), e.g. joint.set_position_limits(-inf, inf)), "
                "and continuous plants"
            )
