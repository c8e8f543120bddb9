"""Mirror of pydrake.systems.controllers: PidController, InverseDynamics and
InverseDynamicsController."""

from mallard.systems.controllers._inverse_dynamics import InverseDynamics
from mallard.systems.controllers._inverse_dynamics_controller import (
    InverseDynamicsController,
)
from mallard.systems.controllers._pid_controller import PidController

__all__ = ["InverseDynamics", "InverseDynamicsController", "PidController"]
