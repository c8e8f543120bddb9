"""Mirror of pydrake.systems.framework: systems, Contexts, ports, Diagrams and events."""

from mallard._public import publish
from mallard._template import TemplateClass
from mallard.systems.framework._cache_entry import CacheEntry, ValueProducer
from mallard.systems.framework._context import Context
from mallard.systems.framework._diagram import Diagram
from mallard.systems.framework._diagram_builder import DiagramBuilder
from mallard.systems.framework._diagram_context import DiagramContext
from mallard.systems.framework._events import (
    DiscreteUpdateEvent,
    Event,
    EventStatus,
    PeriodicEventData,
    PublishEvent,
    TriggerType,
    UnrestrictedUpdateEvent,
)
from mallard.systems.framework._indices import (
    AbstractParameterIndex,
    AbstractStateIndex,
    CacheIndex,
    ContinuousStateIndex,
    DiscreteStateIndex,
    InputPortIndex,
    InputPortSelection,
    NumericParameterIndex,
    OutputPortIndex,
    OutputPortSelection,
    SubsystemIndex,
    UseDefaultName,
    kUseDefaultName,
)
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._ports import (
    FixedInputPortValue,
    InputPort,
    OutputPort,
    PortDataType,
    SystemOutput,
)
from mallard.systems.framework._state import (
    AbstractValues,
    ContinuousState,
    DiscreteValues,
    Parameters,
    State,
)
from mallard.systems.framework._system import DependencyTicket, System
from mallard.systems.framework._vector_system import VectorSystem
from mallard.systems.framework._vectors import BasicVector, VectorBase

#: pydrake's name of a leaf system's Context.
LeafContext = Context


BasicVector_ = TemplateClass("BasicVector_", BasicVector)
Context_ = TemplateClass("Context_", Context, "context")
LeafContext_ = Context_
System_ = TemplateClass("System_", System, "system")
LeafSystem_ = TemplateClass("LeafSystem_", LeafSystem, "system")
VectorSystem_ = TemplateClass("VectorSystem_", VectorSystem, "system")
Diagram_ = TemplateClass("Diagram_", Diagram, "system")
DiagramBuilder_ = TemplateClass("DiagramBuilder_", DiagramBuilder, "system")

__all__ = [
    "SystemOutput",
    "AbstractValues",
    "AbstractParameterIndex",
    "AbstractStateIndex",
    "BasicVector",
    "BasicVector_",
    "CacheEntry",
    "CacheIndex",
    "Context",
    "Context_",
    "ContinuousState",
    "ContinuousStateIndex",
    "DependencyTicket",
    "Diagram",
    "Diagram_",
    "DiagramBuilder",
    "DiagramBuilder_",
    "DiagramContext",
    "DiscreteStateIndex",
    "DiscreteUpdateEvent",
    "DiscreteValues",
    "Event",
    "EventStatus",
    "FixedInputPortValue",
    "InputPort",
    "InputPortIndex",
    "InputPortSelection",
    "LeafContext",
    "LeafContext_",
    "LeafSystem",
    "LeafSystem_",
    "NumericParameterIndex",
    "OutputPort",
    "OutputPortIndex",
    "OutputPortSelection",
    "Parameters",
    "PeriodicEventData",
    "PortDataType",
    "PublishEvent",
    "State",
    "SubsystemIndex",
    "System",
    "System_",
    "TriggerType",
    "UnrestrictedUpdateEvent",
    "UseDefaultName",
    "ValueProducer",
    "VectorBase",
    "VectorSystem",
    "VectorSystem_",
    "kUseDefaultName",
]

publish(globals())
