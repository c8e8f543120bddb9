"""Mirror of pydrake.systems.framework: systems, Contexts, ports, Diagrams and events."""

from mallard.systems.framework._context import Context
from mallard.systems.framework._diagram import Diagram
from mallard.systems.framework._diagram_builder import DiagramBuilder
from mallard.systems.framework._diagram_context import DiagramContext
from mallard.systems.framework._events import EventStatus, PeriodicEventData, TriggerType
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._ports import (
    FixedInputPortValue,
    InputPort,
    OutputPort,
    PortDataType,
)
from mallard.systems.framework._state import ContinuousState, DiscreteValues, Parameters, State
from mallard.systems.framework._system import DependencyTicket, System
from mallard.systems.framework._vectors import BasicVector, VectorBase

#: pydrake's name of a leaf system's Context.
LeafContext = Context

__all__ = [
    "BasicVector",
    "Context",
    "ContinuousState",
    "DependencyTicket",
    "Diagram",
    "DiagramBuilder",
    "DiagramContext",
    "DiscreteValues",
    "EventStatus",
    "FixedInputPortValue",
    "InputPort",
    "LeafContext",
    "LeafSystem",
    "OutputPort",
    "Parameters",
    "PeriodicEventData",
    "PortDataType",
    "State",
    "System",
    "TriggerType",
    "VectorBase",
]
