"""Diagram: a System made of subsystems whose ports are connected (built by a
DiagramBuilder)."""

import numpy as np

from mallard._template import array_to_scalar
from mallard.common.value import AbstractValue
from mallard.systems.framework._diagram_context import (
    DiagramContext,
    DiagramContinuousState,
    continuous_parts,
)
from mallard.systems.framework._ports import InputPort, OutputPort
from mallard.systems.framework._system import System, system_scalar_type
from mallard.systems.framework._vectors import VectorBase


class _Connection:
    """An input's source inside a Diagram Context: an output port of a subsystem evaluated in
    that subsystem's Context. A leaf's vector output is computed into one BasicVector kept
    here (no allocation per evaluation): its value holds until the next evaluation."""

    __slots__ = ("_port", "_context", "_buffer")

    def __init__(self, port, context):
        self._port = port
        self._context = context
        self._buffer = None
        if type(port) is OutputPort and port._is_vector():
            self._buffer = port._alloc()

    def _eval(self):
        buffer = self._buffer
        if buffer is not None:
            self._port._calc(self._context, buffer)
            return buffer
        value = self._port._eval(self._context)
        return value.get_value() if isinstance(value, AbstractValue) else value


class _ExportedInput:
    """An input's source inside a Diagram Context: the Diagram's own input port ``index``
    (connected or fixed in the Diagram's Context, or neither)."""

    __slots__ = ("_context", "_index")

    def __init__(self, context, index):
        self._context = context
        self._index = index

    def _eval(self):
        source = self._context._inputs[self._index]
        return None if source is None else source._eval()


class DiagramOutputPort(OutputPort):
    """An output port of a Diagram: a subsystem's output port, exported."""

    __slots__ = ("_source",)

    def __init__(self, diagram, index, name, source):
        super().__init__(
            diagram, index, name, source.get_data_type(), source.size(), source._alloc, None
        )
        self._source = source

    def _subcontext(self, context):
        return context._subcontexts[self._system._index_of(self._source._system)]

    def _eval(self, context):
        return self._source._eval(self._subcontext(context))

    def Calc(self, context, value):
        self._validate(context)
        self._source.Calc(self._subcontext(context), value)

    def _feedthrough_inputs(self):
        diagram = self._system
        return {
            i
            for i in range(diagram.num_input_ports())
            if diagram._depends_on(self._source, diagram._input_port_destinations[i])
        }


class Diagram(System):
    """Subsystems and the connections between their ports (use a DiagramBuilder)."""

    _cpp_type = "drake::systems::Diagram<double>"

    def __init__(self):
        super().__init__()
        self._systems = []
        self._system_index = {}
        self._connections = {}  # (system, input index) -> output port
        self._input_port_destinations = []  # per Diagram input: [subsystem input ports]

    # ---- structure ---------------------------------------------------------------------------
    def _index_of(self, subsystem):
        return self._system_index[id(subsystem)]

    def GetSystems(self):
        """The subsystems, in the order they were added."""
        return list(self._systems)

    def HasSubsystemNamed(self, name):
        return any(s.get_name() == name for s in self._systems)

    def GetSubsystemByName(self, name):
        """The subsystem named ``name``; RuntimeError if there is none."""
        for system in self._systems:
            if system.get_name() == name:
                return system
        valid = ", ".join(s.get_name() for s in self._systems)
        raise RuntimeError(
            f"System {self.GetSystemName()} does not have a subsystem named {name}. The "
            f"existing subsystems are named {{{valid}}}."
        )

    def _check_subsystem(self, subsystem):
        if id(subsystem) not in self._system_index:
            raise RuntimeError(
                f"{subsystem.GetSystemPathname()} is not a subsystem of Diagram "
                f"{self.GetSystemPathname()}"
            )

    def GetSubsystemContext(self, subsystem, context):
        """``subsystem``'s Context inside this Diagram's ``context`` (subsystems of nested
        Diagrams too)."""
        self.ValidateContext(context)
        parent = subsystem._parent
        while parent is not None and parent is not self:
            parent = parent._parent
        if parent is None:
            raise RuntimeError(
                f"GetSubsystemContext(): {subsystem.GetSystemType()} subsystem "
                f"'{subsystem.GetSystemPathname()}' is not contained in "
                f"{self.GetSystemType()} System '{self.GetSystemPathname()}'."
            )
        return subsystem.GetMyContextFromRoot(context)

    def GetMutableSubsystemContext(self, subsystem, context):
        return self.GetSubsystemContext(subsystem, context)

    def GetMutableSubsystemState(self, subsystem, context):
        return self.GetSubsystemContext(subsystem, context).get_mutable_state()

    def connection_map(self):
        """{(input system, input port index): (output system, output port index)}."""
        return {
            (system, index): (port.get_system(), port.get_index())
            for (system, index), port in self._connections.items()
        }

    def GetInputPortLocators(self, port_index):
        """[(subsystem, input port index)] that the Diagram's input ``port_index`` feeds."""
        return [(p.get_system(), p.get_index()) for p in self._input_port_destinations[port_index]]

    def get_output_port_locator(self, port_index):
        """(subsystem, output port index) that the Diagram's output ``port_index`` exports."""
        source = self.get_output_port(port_index)._source
        return source.get_system(), source.get_index()

    def AreConnected(self, output, input):
        return self._connections.get((input.get_system(), input.get_index())) is output

    # ---- scalar conversion ---------------------------------------------------------------------
    def _to_scalar_type(self, T):
        """A Diagram_[T] of the subsystems converted to T (see _diagram_scalar_conversion)."""
        from mallard.systems.framework._diagram_scalar_conversion import convert_diagram

        return convert_diagram(self, T)

    # ---- contexts ------------------------------------------------------------------------------
    def AllocateContext(self):
        """A DiagramContext: one Context per subsystem, its inputs wired to their sources."""
        context = DiagramContext(self, [s.AllocateContext() for s in self._systems])
        self._wire(context)
        return context

    def _wire(self, context):
        for (system, index), port in self._connections.items():
            sub = context._subcontexts[self._index_of(system)]
            sub._inputs[index] = _Connection(
                port, context._subcontexts[self._index_of(port.get_system())]
            )
        for i, destinations in enumerate(self._input_port_destinations):
            for port in destinations:
                sub = context._subcontexts[self._index_of(port.get_system())]
                sub._inputs[port.get_index()] = _ExportedInput(context, i)

    def SetDefaultContext(self, context):
        self.ValidateContext(context)
        for system, sub in zip(self._systems, context._subcontexts, strict=True):
            system.SetDefaultContext(sub)
        context.SetTime(0.0)

    def SetDefaultState(self, context, state):
        self.ValidateContext(context)
        for system, sub in zip(self._systems, context._subcontexts, strict=True):
            system.SetDefaultState(sub, sub._state)

    def SetRandomContext(self, context, generator):
        self.ValidateContext(context)
        for system, sub in zip(self._systems, context._subcontexts, strict=True):
            system.SetRandomContext(sub, generator)

    def ValidateContext(self, context):
        if not isinstance(context, DiagramContext) or context._system is not self:
            System.ValidateContext(self, context)

    # ---- sizes ---------------------------------------------------------------------------------
    def num_continuous_states(self):
        return sum(s.num_continuous_states() for s in self._systems)

    def num_discrete_state_groups(self):
        return sum(s.num_discrete_state_groups() for s in self._systems)

    def num_abstract_states(self):
        return sum(s.num_abstract_states() for s in self._systems)

    def num_numeric_parameter_groups(self):
        return 0

    def num_abstract_parameters(self):
        return 0

    # ---- dynamics --------------------------------------------------------------------------------
    def AllocateTimeDerivatives(self):
        """A ContinuousState shaped like this Diagram's (its subsystems' in order), of its
        scalar type."""
        context = self.AllocateContext()
        parts = continuous_parts(context)
        data = array_to_scalar(np.zeros(sum(sum(p) for p in parts)), system_scalar_type(self))
        return DiagramContinuousState(VectorBase(data), parts)

    def CalcTimeDerivatives(self, context, derivatives):
        """The subsystems' time derivatives, each into its part of ``derivatives``."""
        self.ValidateContext(context)
        data = derivatives.get_vector()._data
        offset = 0
        for system, sub in zip(self._systems, context._subcontexts, strict=True):
            size = sub.num_continuous_states()
            if size:
                part = system.AllocateTimeDerivatives()
                system.CalcTimeDerivatives(sub, part)
                data[offset : offset + size] = part.CopyToVector()
            offset += size

    def _leaf_contexts(self, context):
        return [
            leaf
            for system, sub in zip(self._systems, context._subcontexts, strict=True)
            for leaf in system._leaf_contexts(sub)
        ]

    def _leaf_systems(self):
        return [leaf for system in self._systems for leaf in system._leaf_systems()]

    def CalcPotentialEnergy(self, context):
        self.ValidateContext(context)
        return sum(
            s.CalcPotentialEnergy(c)
            for s, c in zip(self._systems, context._subcontexts, strict=True)
        )

    def CalcKineticEnergy(self, context):
        self.ValidateContext(context)
        return sum(
            s.CalcKineticEnergy(c) for s, c in zip(self._systems, context._subcontexts, strict=True)
        )

    def CalcConservativePower(self, context):
        self.ValidateContext(context)
        return sum(
            s.CalcConservativePower(c)
            for s, c in zip(self._systems, context._subcontexts, strict=True)
        )

    def CalcNonConservativePower(self, context):
        self.ValidateContext(context)
        return sum(
            s.CalcNonConservativePower(c)
            for s, c in zip(self._systems, context._subcontexts, strict=True)
        )

    # ---- direct feedthrough ------------------------------------------------------------------
    def _depends_on(self, output, inputs):
        """Whether subsystem ``output`` port depends directly on any of the subsystem input
        ports ``inputs`` (through feedthrough chains inside this Diagram)."""
        targets = {(id(p.get_system()), p.get_index()) for p in inputs}
        stack, seen = [output], set()
        while stack:
            port = stack.pop()
            system = port.get_system()
            for i in port._feedthrough_inputs():
                if (id(system), i) in targets:
                    return True
                source = self._connections.get((system, i))
                if source is not None and id(source) not in seen:
                    seen.add(id(source))
                    stack.append(source)
        return False


def make_input_port(diagram, index, name, like):
    """A Diagram input port shaped like the subsystem input port ``like``."""
    return InputPort(diagram, index, name, like.get_data_type(), like.size(), like._model_value)
