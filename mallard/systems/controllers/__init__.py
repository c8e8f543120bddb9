"""Mirror of pydrake.systems.controllers: PidController, InverseDynamics,
InverseDynamicsController and the linear quadratic regulators."""

from mallard._public import publish
from mallard.systems.controllers._inverse_dynamics import InverseDynamics
from mallard.systems.controllers._inverse_dynamics_controller import (
    InverseDynamicsController,
)
from mallard.systems.controllers._lqr import (
    DiscreteTimeLinearQuadraticRegulator,
    LinearQuadraticRegulator,
)
from mallard.systems.controllers._pid_controller import PidController

__all__ = [
    "DiscreteTimeLinearQuadraticRegulator",
    "InverseDynamics",
    "InverseDynamicsController",
    "LinearQuadraticRegulator",
    "PidController",
]

publish(globals())
