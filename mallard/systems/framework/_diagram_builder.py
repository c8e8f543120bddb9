"""DiagramBuilder: collects systems and connections, then builds a Diagram."""

from mallard._template import cpp_scalar_name
from mallard.common._pybind import call_form, overloads
from mallard.systems.framework._diagram import Diagram, DiagramOutputPort, make_input_port
from mallard.systems.framework._ports import InputPort, OutputPort, PortDataType, PortList
from mallard.systems.framework._system import System, system_scalar_type


class DiagramBuilder:
    """Add systems, connect output ports to input ports, export the ports the Diagram should
    have, then Build() it (once)."""

    def __init__(self):
        self._systems = []
        self._connections = {}  # (system, input index) -> output port
        self._exported_inputs = []  # [(name, [subsystem input ports])]
        self._exported_outputs = []  # [(name, subsystem output port)]
        self._built = False

    def _throw_if_built(self):
        if self._built:
            raise RuntimeError(
                "DiagramBuilder: Build() or BuildInto() has already been called to create a "
                "Diagram; this DiagramBuilder may no longer be used."
            )

    # ---- systems ---------------------------------------------------------------------------
    def AddSystem(self, system):
        """Adds ``system``; returns it. An unnamed system gets a unique default name. (A
        system already in a Diagram, or added twice, is refused by Build(), as Drake's.)"""
        self._throw_if_built()
        if not isinstance(system, System):
            raise TypeError(f"DiagramBuilder.AddSystem(): expected a System, got {system!r}")
        T = system_scalar_type(self)
        if system_scalar_type(system) is not T:
            raise TypeError(
                f"DiagramBuilder.AddSystem(): this builder makes Diagrams of scalar type "
                f"{cpp_scalar_name(T)}, but system {system.GetSystemPathname()} is a "
                f"{system.GetSystemType()}"
            )
        if not system.get_name():
            system.set_name(f"{_type_path(system)}@{id(system):016x}")
        self._systems.append(system)
        return system

    def AddNamedSystem(self, name, system):
        """Names ``system`` ``name`` and adds it; returns it."""
        system.set_name(name)
        return self.AddSystem(system)

    def GetSystems(self):
        return list(self._systems)

    def GetMutableSystems(self):
        return list(self._systems)

    def HasSubsystemNamed(self, name):
        return any(s.get_name() == name for s in self._systems)

    def GetSubsystemByName(self, name):
        for system in self._systems:
            if system.get_name() == name:
                return system
        valid = ", ".join(s.get_name() for s in self._systems)
        raise RuntimeError(
            f"DiagramBuilder does not contain a subsystem named {name}. "
            f"Valid subsystems are {valid}."
        )

    def GetMutableSubsystemByName(self, name):
        return self.GetSubsystemByName(name)

    def empty(self):
        return not self._systems

    def already_built(self):
        return self._built

    # ---- connections ---------------------------------------------------------------------------
    def _check_port_system(self, port, what):
        system = port.get_system()
        if not any(s is system for s in self._systems):
            registered = ", ".join(f"'{s.get_name()}'" for s in self._systems) or "NONE"
            name = system.get_name()
            raise RuntimeError(
                f"DiagramBuilder: System '{name}' has not been registered to this "
                "DiagramBuilder using AddSystem nor AddNamedSystem.\n\nThe systems currently "
                f"registered to this builder are: {registered}.\n\nIf '{name}' was registered "
                "as a subsystem to one of these, you must export the input or output port "
                "using ExportInput/ExportOutput and then connect to the exported port."
            )

    def _check_unwired(self, port):
        key = (port.get_system(), port.get_index())
        exported = any(
            any(p is port for p in destinations) for _, destinations in self._exported_inputs
        )
        if key in self._connections or exported:
            raise RuntimeError(
                f"DiagramBuilder: input port {port.get_name()} of System "
                f"{port.get_system().GetSystemPathname()} is already connected"
            )

    def Connect(self, src, dest):
        """Connects the output port ``src`` to the input port ``dest`` (of systems added to
        this builder); RuntimeError for mismatched types or sizes, or a wired input."""
        self._throw_if_built()
        if not isinstance(src, OutputPort) or not isinstance(dest, InputPort):
            raise TypeError("DiagramBuilder.Connect(): expected (OutputPort, InputPort)")
        self._check_port_system(src, "output")
        self._check_port_system(dest, "input")
        self._check_unwired(dest)
        if src.get_data_type() != dest.get_data_type():
            raise RuntimeError(
                f"DiagramBuilder::Connect: Cannot mix vector-valued and abstract-valued ports "
                f"while connecting output port {src.get_name()} of System "
                f"{src.get_system().get_name()} to input port {dest.get_name()} of System "
                f"{dest.get_system().get_name()}"
            )
        if src.get_data_type() == PortDataType.kVectorValued and src.size() != dest.size():
            raise RuntimeError(
                f"DiagramBuilder::Connect: Mismatched vector sizes while connecting output port "
                f"{src.get_name()} of System {src.get_system().get_name()} (size {src.size()}) "
                f"to input port {dest.get_name()} of System {dest.get_system().get_name()} "
                f"(size {dest.size()})"
            )
        self._connections[(dest.get_system(), dest.get_index())] = src

    def ConnectToSame(self, exemplar, dest):
        """Connects the input port ``dest`` to the source of the input port ``exemplar``: the
        output port it is connected to, or the Diagram's input port it is exported as; returns
        whether a connection was made (False, doing nothing, if ``exemplar`` has neither)."""
        self._throw_if_built()
        self._check_port_system(exemplar, "input")
        self._check_port_system(dest, "input")
        source = self._connections.get((exemplar.get_system(), exemplar.get_index()))
        if source is not None:
            self.Connect(source, dest)
            return True
        for index, (_, destinations) in enumerate(self._exported_inputs):
            if any(p is exemplar for p in destinations):
                self.ConnectInput(index, dest)
                return True
        return False

    def Disconnect(self, source, dest):
        """Removes the connection from ``source`` to ``dest``."""
        self._throw_if_built()
        key = (dest.get_system(), dest.get_index())
        if self._connections.get(key) is not source:
            raise RuntimeError(
                f"DiagramBuilder::Disconnect: output port {source.get_name()} is not connected to "
                f"input port {dest.get_name()}"
            )
        del self._connections[key]

    def ExportInput(self, input, name=None):
        """Makes ``input`` (a subsystem's input port) an input port of the Diagram, named
        ``name`` (default ``{system name}_{port name}``); returns its index."""
        self._throw_if_built()
        self._check_port_system(input, "input")
        self._check_unwired(input)
        if name is None:
            name = f"{input.get_system().get_name()}_{input.get_name()}"
        if any(n == name for n, _ in self._exported_inputs):
            raise RuntimeError(
                f"DiagramBuilder: the Diagram already has an input port named {name}"
            )
        self._exported_inputs.append((name, [input]))
        return len(self._exported_inputs) - 1

    @overloads("diagram_port_name, input", "diagram_port_index, input")
    def ConnectInput(self, *args, **kwargs):
        """Also feeds the Diagram's input port (by name or index) to ``input``."""
        form, values = call_form(
            DiagramBuilder.ConnectInput,
            args,
            kwargs,
            accept=lambda i, v: isinstance(next(iter(v.values())), str) == (i == 0),
        )
        diagram_port, input = values.values()
        self._throw_if_built()
        self._check_port_system(input, "input")
        self._check_unwired(input)
        index = diagram_port
        if isinstance(diagram_port, str):
            names = [n for n, _ in self._exported_inputs]
            if diagram_port not in names:
                raise RuntimeError(f"DiagramBuilder: no exported input port named {diagram_port}")
            index = names.index(diagram_port)
        like = self._exported_inputs[index][1][0]
        if like.get_data_type() != input.get_data_type() or like.size() != input.size():
            raise RuntimeError(
                f"DiagramBuilder::ConnectInput: input port {input.get_name()} does not match "
                f"the type and size of the Diagram's input port {self._exported_inputs[index][0]}"
            )
        self._exported_inputs[index][1].append(input)

    def ExportOutput(self, output, name=None):
        """Makes ``output`` (a subsystem's output port) an output port of the Diagram, named
        ``name`` (default ``{system name}_{port name}``); returns its index."""
        self._throw_if_built()
        self._check_port_system(output, "output")
        if name is None:
            name = f"{output.get_system().get_name()}_{output.get_name()}"
        if any(n == name for n, _ in self._exported_outputs):
            raise RuntimeError(
                f"DiagramBuilder: the Diagram already has an output port named {name}"
            )
        self._exported_outputs.append((name, output))
        return len(self._exported_outputs) - 1

    def IsConnectedOrExported(self, port):
        key = (port.get_system(), port.get_index())
        return key in self._connections or any(
            any(p is port for p in destinations) for _, destinations in self._exported_inputs
        )

    def num_input_ports(self):
        return len(self._exported_inputs)

    def num_output_ports(self):
        return len(self._exported_outputs)

    def connection_map(self):
        return {
            (system, index): (port.get_system(), port.get_index())
            for (system, index), port in self._connections.items()
        }

    # ---- build ---------------------------------------------------------------------------------
    def Build(self):
        """The Diagram of the systems and connections (RuntimeError for an algebraic loop or
        duplicate subsystem names)."""
        T = system_scalar_type(self)
        if T is float:
            return self.BuildInto(Diagram())
        from mallard.systems.framework import Diagram_

        return self.BuildInto(Diagram_[T]())

    def BuildInto(self, target):
        """Builds into ``target`` (a Diagram, e.g. of a subclass, of this builder's scalar
        type); returns it."""
        self._throw_if_built()
        if system_scalar_type(target) is not system_scalar_type(self):
            raise TypeError(
                f"DiagramBuilder.BuildInto(): the target is a {target.GetSystemType()}, not a "
                f"Diagram of scalar type {cpp_scalar_name(system_scalar_type(self))}"
            )
        built = set()
        for system in self._systems:
            parent = target if id(system) in built else system._parent
            if parent is not None:  # (Drake's message names the Diagram it is in)
                raise RuntimeError(
                    f"Cannot build subsystem '{system.get_name()}' into Diagram "
                    f"'{target.GetSystemPathname()}' because it has already been built into a "
                    f"different Diagram '{parent.GetSystemPathname()}'"
                )
            built.add(id(system))
        names = [s.get_name() for s in self._systems]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise RuntimeError(
                f"Diagram: subsystem names must be unique; these are not: {', '.join(duplicates)}"
            )
        self._check_algebraic_loops()
        target._systems = list(self._systems)
        target._system_index = {id(s): i for i, s in enumerate(self._systems)}
        target._connections = dict(self._connections)
        target._input_port_destinations = [list(d) for _, d in self._exported_inputs]
        target._input_ports = PortList(
            make_input_port(target, i, name, destinations[0])
            for i, (name, destinations) in enumerate(self._exported_inputs)
        )
        target._output_ports = PortList(
            DiagramOutputPort(target, i, name, port)
            for i, (name, port) in enumerate(self._exported_outputs)
        )
        for system in self._systems:
            system._parent = target
        self._built = True
        return target

    def _check_algebraic_loops(self):
        """RuntimeError, listing the loop as Drake does, if the direct-feedthrough
        connections form a cycle."""
        # Graph: input port -> output ports of its system it feeds through; output port ->
        # the input ports it is connected to.
        feeds = {}
        for (system, index), src in self._connections.items():
            feeds.setdefault(id(src), []).append(system.get_input_port(index))
        state = {}

        def visit(port, path):
            key = ("i" if isinstance(port, InputPort) else "o", id(port))
            if state.get(key) == 1:
                start = next(i for i, p in enumerate(path) if p is port)
                raise RuntimeError(_loop_message(path[start:] + [port]))
            if state.get(key) == 2:
                return
            state[key] = 1
            if isinstance(port, InputPort):
                system = port.get_system()
                nexts = [
                    system.get_output_port(j)
                    for j in range(system.num_output_ports())
                    if port.get_index() in system.get_output_port(j)._feedthrough_inputs()
                ]
            else:
                nexts = feeds.get(id(port), [])
            for nxt in nexts:
                visit(nxt, path + [port])
            state[key] = 2

        # Start from the input ports in the order of their systems and indices, as Drake.
        for system in self._systems:
            for index in range(system.num_input_ports()):
                if (system, index) in self._connections:
                    visit(system.get_input_port(index), [])


def _loop_message(ports):
    lines = ["Reported algebraic loop detected in DiagramBuilder:"]
    for port, nxt in zip(ports, ports[1:] + [None], strict=False):
        description = port.GetFullDescription()
        if nxt is None:
            lines.append(f"  {description}")
        elif isinstance(port, InputPort):
            lines.append(f"  {description} is direct-feedthrough to")
        else:
            lines.append(f"  {description} is connected to")
    lines.append(
        "A System may have conservatively reported that one of its output ports depends on an "
        "input port, making one of the 'is direct-feedthrough to' lines above spurious.  If "
        "that is the case, remove the spurious dependency per the Drake API documentation for "
        "declaring output ports. https://drake.mit.edu/doxygen_cxx/classdrake_1_1systems_1_1_"
        "leaf_system.html#DeclareLeafOutputPort_feedthrough"
    )
    return "\n".join(lines)


def _type_path(system):
    """A default name's type part: Drake's ``drake/systems/Adder`` style for mallard's own
    systems, the Python ``module.qualname`` otherwise."""
    cls = type(system)
    if "_template_T" in vars(cls):  # an instantiation: its template's class
        cls = cls._template_base
    if cls.__module__.startswith("mallard."):
        return "drake/systems/" + cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"
