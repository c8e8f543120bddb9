"""Mirror of pydrake.examples: the small systems Drake's tutorials and courses build on."""

from mallard._public import publish
from mallard.examples._acrobot import AcrobotInput, AcrobotParams, AcrobotPlant, AcrobotState
from mallard.examples._pendulum import (
    PendulumInput,
    PendulumParams,
    PendulumPlant,
    PendulumState,
)
from mallard.examples._van_der_pol import VanDerPolOscillator

__all__ = [
    "AcrobotInput",
    "AcrobotParams",
    "AcrobotPlant",
    "AcrobotState",
    "PendulumInput",
    "PendulumParams",
    "PendulumPlant",
    "PendulumState",
    "VanDerPolOscillator",
]

publish(globals())
