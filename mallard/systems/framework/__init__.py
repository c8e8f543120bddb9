"""Mirror of pydrake.systems.framework: the core the MultibodyPlant is built on."""

from mallard.systems.framework._context import Context
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._ports import (
    FixedInputPortValue,
    InputPort,
    OutputPort,
    PortDataType,
)
from mallard.systems.framework._state import ContinuousState, DiscreteValues, Parameters, State
from mallard.systems.framework._vectors import BasicVector, VectorBase

__all__ = [
    "BasicVector",
    "Context",
    "ContinuousState",
    "DiscreteValues",
    "FixedInputPortValue",
    "InputPort",
    "LeafSystem",
    "OutputPort",
    "Parameters",
    "PortDataType",
    "State",
    "VectorBase",
]
