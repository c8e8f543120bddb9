"""System: what LeafSystem and Diagram share: names, ports, Context validation, events and
energy queries."""

from mallard.common._pybind import as_cpp_int, call_form, incompatible_arguments, overloads
from mallard.systems.framework._context import Context
from mallard.systems.framework._event_dispatch import (
    context_signature,
    execute,
    plan_for,
    throw_on_failure,
)
from mallard.systems.framework._events import EventKind, PeriodicEventData, TriggerType
from mallard.systems.framework._ports import PortList

_MODULE = "mallard.systems.framework"


class DependencyTicket:
    """What a computation depends on (``prerequisites_of_calc`` of an output port).
    ``DependencyTicket()`` is an invalid ticket, as pydrake's default."""

    __slots__ = ("_kind", "_index")

    def __init__(self, kind=None, index=None):
        self._kind = kind
        self._index = index

    def is_valid(self):
        return self._kind is not None

    def __eq__(self, other):
        return isinstance(other, DependencyTicket) and (self._kind, self._index) == (
            other._kind,
            other._index,
        )

    def __hash__(self):
        return hash((self._kind, self._index))

    def __repr__(self):
        return (
            f"DependencyTicket({self._kind}"
            + ("" if self._index is None else f", {self._index}")
            + ")"
        )


_TICKETS = (
    "nothing",
    "time",
    "accuracy",
    "q",
    "v",
    "z",
    "xc",
    "xd",
    "xa",
    "all_state",
    "pn",
    "pa",
    "all_parameters",
    "all_input_ports",
    "all_sources_except_input_ports",
    "all_sources",
    "configuration",
    "kinematics",
    "xcdot",
    "pe",
    "ke",
    "pc",
    "pnc",
)


class UnsupportedScalarConversion(RuntimeError):
    """A system does not support conversion to a scalar type (Drake's message)."""


def system_scalar_type(system):
    """The scalar type of ``system`` (or of a DiagramBuilder): its class's, float by
    default."""
    return getattr(type(system), "_template_scalar", float)


class System:
    """The base of LeafSystem and Diagram (not constructible on its own)."""

    #: The type name Drake reports for this system (GetSystemType); None for the Python
    #: class's ``module.qualname``, as pydrake reports Python systems.
    _cpp_type = None

    def __init__(self):
        self._name = ""
        self._parent = None  # the Diagram this system is a subsystem of, if any
        self._input_ports = PortList()
        self._output_ports = PortList()

    # ---- names ---------------------------------------------------------------------------
    def get_name(self):
        return self._name

    def set_name(self, name):
        self._name = name

    def GetSystemName(self):
        return self._name or "_"

    def GetSystemPathname(self):
        """``::name``, prefixed by the pathnames of the Diagrams containing this system."""
        prefix = "" if self._parent is None else self._parent.GetSystemPathname()
        return f"{prefix}::{self.GetSystemName()}"

    def GetSystemType(self):
        """Drake's type name (``drake::systems::Gain<drake::AutoDiffXd>``), or the Python
        class's ``module.qualname`` (template arguments as ``X_[T]``)."""
        cls = type(self)
        if self._cpp_type is None:
            from mallard._template import demangled

            return f"{cls.__module__}.{demangled(cls.__qualname__)}"
        T = system_scalar_type(self)
        if T is float:
            return self._cpp_type
        from mallard._template import cpp_scalar_name

        return self._cpp_type.replace("<double>", f"<{cpp_scalar_name(T)}>")

    # ---- scalar conversion (LeafSystem and Diagram implement _to_scalar_type) -------------
    def ToAutoDiffXd(self):
        """This system with AutoDiffXd scalars."""
        return self.ToScalarType["AutoDiffXd"]()

    def ToSymbolic(self):
        """This system with symbolic Expression scalars."""
        return self.ToScalarType["Expression"]()

    @property
    def ToScalarType(self):
        """``system.ToScalarType[T]()``: this system with scalar type T."""
        from mallard._template import ScalarConverter

        return ScalarConverter(self)

    def _to_scalar_type(self, T):
        """This system with scalar type T: here, Drake's error for a system that does not
        support the conversion."""
        raise self._unsupported_conversion(T)

    def _unsupported_conversion(self, T, because=None):
        """Drake's error: this system does not support conversion to T (``because`` of a
        subsystem's error)."""
        from mallard._template import cpp_scalar_name

        reason = "" if because is None else f" (because {because})"
        return UnsupportedScalarConversion(
            f"System {self.GetSystemPathname()} of type {self.GetSystemType()} does not "
            f"support scalar conversion to type {cpp_scalar_name(T)}{reason}"
        )

    def num_input_ports(self):
        return len(self._input_ports)

    def num_output_ports(self):
        return len(self._output_ports)

    def _port(self, ports, index, kind):
        if index is None:
            if len(ports) != 1:
                index_type = "InputPortIndex" if kind == "input" else "OutputPortIndex"
                raise RuntimeError(
                    f"System::get_{kind}_port(): {self.GetSystemType()} system "
                    f"'{self.GetSystemPathname()}' has {len(ports)} {kind}s, so this convenience "
                    f"function cannot be used; instead, use another overload e.g. "
                    f"get_{kind}_port({index_type}) or Get{kind.capitalize()}Port(string)"
                )
            return ports[0]
        value = as_cpp_int(index)
        if value is None:
            port = f"{_MODULE}.{kind.capitalize()}Port"
            raise incompatible_arguments(
                f"get_{kind}_port",
                (
                    f"(self: {_MODULE}.System, port_index: int, warn_deprecated: bool = True) "
                    f"-> {port}",
                    f"(self: {_MODULE}.System) -> {port}",
                ),
                (self, index),
                {},
            )
        index = value
        if index < 0:
            raise IndexError(
                f"System::get_{kind}_port(): negative port index {index} is illegal. "
                f"(System {self.GetSystemPathname()})"
            )
        if index >= len(ports):
            raise IndexError(
                f"System::get_{kind}_port(): there is no {kind} port with index {index} because "
                f"there are only {len(ports)} {kind} ports in system {self.GetSystemPathname()}."
            )
        return ports[index]

    def get_input_port(self, port_index=None, warn_deprecated=True):
        """The input port ``port_index`` (the only one if None). ``warn_deprecated``: whether
        to warn if the port is deprecated (mallard's systems deprecate no ports)."""
        return self._port(self._input_ports, port_index, "input")

    def get_output_port(self, port_index=None, warn_deprecated=True):
        """The output port ``port_index`` (the only one if None); see get_input_port."""
        return self._port(self._output_ports, port_index, "output")

    @overloads("output_port", "input_port, output_port")
    def HasDirectFeedthrough(self, *args, **kwargs):
        """``(output_port)``: whether that output depends on any input; ``(input_port,
        output_port)``: on that input (from the output's declared prerequisites; outputs
        declared without prerequisites depend on every input). Ports by index."""
        _, ports = call_form(System.HasDirectFeedthrough, args, kwargs)
        output = self.get_output_port(ports["output_port"])
        if "input_port" not in ports:
            return bool(output._feedthrough_inputs())
        return int(ports["input_port"]) in output._feedthrough_inputs()

    def _port_by_name(self, ports, name, kind):
        index = ports.index_named(name)
        if index is not None:
            return ports[index]
        valid = ", ".join(p.get_name() for p in ports) or "none"
        raise RuntimeError(
            f"System {self.GetSystemName()} does not have an {kind} port named {name} "
            f"(valid port names: {valid})"
        )

    def GetInputPort(self, port_name):
        return self._port_by_name(self._input_ports, port_name, "input")

    def GetOutputPort(self, port_name):
        return self._port_by_name(self._output_ports, port_name, "output")

    def HasInputPort(self, port_name):
        return self._input_ports.index_named(port_name) is not None

    def HasOutputPort(self, port_name):
        return self._output_ports.index_named(port_name) is not None

    def EvalVectorInput(self, context, port_index):
        return self.get_input_port(port_index).EvalBasicVector(context)

    def EvalAbstractInput(self, context, port_index):
        return self.get_input_port(port_index).EvalAbstract(context)

    def FixInputPortsFrom(self, other_system, other_context, target_context):
        """Fixes each input port of ``target_context`` (this system's) to the value the same
        port of ``other_system`` (the same system in another scalar type) has in
        ``other_context``; vector values are converted through their double values (a
        symbolic value must be a constant). Ports without a value stay as they are."""
        from mallard._template import cast_array
        from mallard.systems.framework._ports import PortDataType

        self.ValidateContext(target_context)
        other_system.ValidateContext(other_context)
        if other_system.num_input_ports() != self.num_input_ports():
            raise RuntimeError(
                f"FixInputPortsFrom(): {other_system.GetSystemPathname()} has "
                f"{other_system.num_input_ports()} input ports, this system "
                f"{self.num_input_ports()}"
            )
        T = system_scalar_type(self)
        for port, other in zip(self._input_ports, other_system._input_ports, strict=True):
            if not other.HasValue(other_context):
                continue
            if port.get_data_type() == PortDataType.kVectorValued:
                port.FixValue(target_context, cast_array(other.Eval(other_context), T))
            else:
                port.FixValue(target_context, other.EvalAbstract(other_context).Clone())

    def ValidateContext(self, context):
        """RuntimeError unless ``context`` was created by this system."""
        if not isinstance(context, Context):
            raise TypeError(
                f"{type(self).__name__}: expected a Context, got {type(context).__name__}"
            )
        if context._system is not self:
            raise RuntimeError(
                f"A function call on a {self.GetSystemType()} system named "
                f"'{self.GetSystemPathname()}' was passed the Context of a system named "
                f"'{context._pathname}' instead of the appropriate subsystem "
                "Context.\nFor more information about Context-System mismatches, see "
                "https://drake.mit.edu/troubleshooting.html#framework-context-system-mismatch"
            )

    # ---- dependency tickets (for prerequisites_of_calc) -----------------------------------
    def input_port_ticket(self, index):
        return DependencyTicket("input_port", int(index))

    def numeric_parameter_ticket(self, index):
        return DependencyTicket("numeric_parameter", int(index))

    def abstract_parameter_ticket(self, index):
        return DependencyTicket("abstract_parameter", int(index))

    def discrete_state_ticket(self, index):
        return DependencyTicket("discrete_state", int(index))

    def abstract_state_ticket(self, index):
        return DependencyTicket("abstract_state", int(index))

    def cache_entry_ticket(self, index):
        return DependencyTicket("cache_entry", int(index))

    def GetMyContextFromRoot(self, root_context):
        """This system's Context inside ``root_context`` (a Context of a Diagram containing
        this system, or of this system itself)."""
        if isinstance(root_context, Context) and root_context._system is self:
            return root_context
        chain = []
        system = self
        while system._parent is not None:
            chain.append(system)
            system = system._parent
        if not isinstance(root_context, Context) or root_context._system is not system:
            self.ValidateContext(root_context)  # raises the mismatch error
        context = root_context
        for subsystem in reversed(chain):
            context = context._subcontexts[subsystem._parent._index_of(subsystem)]
        return context

    def GetMyMutableContextFromRoot(self, root_context):
        """Same as GetMyContextFromRoot."""
        return self.GetMyContextFromRoot(root_context)

    def CreateDefaultContext(self):
        """A Context with default time (0), state and parameters."""
        context = self.AllocateContext()
        self.SetDefaultContext(context)
        return context

    def AllocateTimeDerivatives(self):
        """A ContinuousState shaped like this system's continuous state."""
        raise NotImplementedError  # (defined by LeafSystem and Diagram)

    def AllocateOutput(self):
        """A SystemOutput: a value for each output port, to be filled by CalcOutput."""
        from mallard.systems.framework._ports import SystemOutput

        return SystemOutput(port.Allocate() for port in self._output_ports)

    def CalcOutput(self, context, outputs):
        """Computes every output port's value in ``context`` into ``outputs`` (a SystemOutput
        from AllocateOutput)."""
        self.ValidateContext(context)
        if outputs.num_ports() != len(self._output_ports):
            raise RuntimeError(
                f"CalcOutput(): the SystemOutput has {outputs.num_ports()} ports; this system "
                f"has {len(self._output_ports)}"
            )
        for port, value in zip(self._output_ports, outputs._values, strict=True):
            port.Calc(context, value)

    def EvalTimeDerivatives(self, context):
        """The time derivatives of the continuous state, as a ContinuousState."""
        derivatives = self.AllocateTimeDerivatives()
        self.CalcTimeDerivatives(context, derivatives)
        return derivatives

    # ---- energy (zero unless a system models it) -------------------------------------------
    def CalcPotentialEnergy(self, context):
        self.ValidateContext(context)
        return 0.0

    def CalcKineticEnergy(self, context):
        self.ValidateContext(context)
        return 0.0

    def CalcConservativePower(self, context):
        self.ValidateContext(context)
        return 0.0

    def CalcNonConservativePower(self, context):
        self.ValidateContext(context)
        return 0.0

    def EvalPotentialEnergy(self, context):
        return self.CalcPotentialEnergy(context)

    def EvalKineticEnergy(self, context):
        return self.CalcKineticEnergy(context)

    # ---- events ------------------------------------------------------------------------------
    def _leaf_contexts(self, context):
        """[(leaf system, its Context)] of this system and its subsystems, in Diagram order,
        in ``context`` (this system's)."""
        raise NotImplementedError  # (defined by LeafSystem and Diagram)

    def _leaf_systems(self):
        """The leaf systems of this system, in Diagram order."""
        raise NotImplementedError  # (defined by LeafSystem and Diagram)

    def _leaf_events(self, context):
        """[(leaf system, its Context, EventDeclaration)] of every declared event of this
        system and its subsystems, in ``context`` (this system's)."""
        return [
            (leaf, leaf_context, event)
            for leaf, leaf_context in self._leaf_contexts(context)
            for event in leaf._events
        ]

    def ForcedPublish(self, context):
        """Runs the forced publish events of this system and its subsystems."""
        self.ValidateContext(context)
        plan = plan_for(self, context)
        throw_on_failure(plan.publish(plan.forced.publish), "ForcedPublish")

    def ExecuteInitializationEvents(self, context):
        """Runs the initialization events of this system and its subsystems in ``context``, as
        Simulator.Initialize() does: unrestricted updates, then discrete updates, then
        publishes. RuntimeError if a handler fails."""
        self.ValidateContext(context)
        plan = plan_for(self, context)
        execute(plan, plan.initialization, "ExecuteInitializationEvents")

    def ExecuteForcedEvents(self, context, publish=True):
        """Runs the forced events of this system and its subsystems in ``context``:
        unrestricted updates, then discrete updates, then (if ``publish``) publishes.
        "Reached termination" is ignored; RuntimeError if a handler fails."""
        self.ValidateContext(context)
        plan = plan_for(self, context)
        execute(plan, plan.forced, "ExecuteForcedEvents", publish)

    def AllocateDiscreteVariables(self):
        """A DiscreteValues shaped like this system's discrete state (default values)."""
        from mallard.systems.framework._state import DiscreteValues

        return DiscreteValues(
            [m.Clone() for leaf in self._leaf_systems() for m in leaf._discrete_models]
        )

    def CalcForcedDiscreteVariableUpdate(self, context, discrete_state):
        """Sets ``discrete_state`` to the discrete state after this system's forced discrete
        update events (the Context is not changed)."""
        self.ValidateContext(context)
        plan = plan_for(self, context)
        discrete_state.SetFrom(context._state._discrete)
        groups = plan.forced.discrete
        throw_on_failure(plan.calc_discrete(groups), "CalcForcedDiscreteVariableUpdate")
        plan.copy_discrete_buffers(groups, discrete_state)

    def CalcForcedUnrestrictedUpdate(self, context, state):
        """Sets ``state`` to the state after this system's forced unrestricted update events
        (the Context is not changed)."""
        self.ValidateContext(context)
        plan = plan_for(self, context)
        state.SetFrom(context._state)
        groups = plan.forced.unrestricted
        throw_on_failure(plan.calc_unrestricted(groups), "CalcForcedUnrestrictedUpdate")
        plan.copy_state_buffers(groups, state)

    def _periodic_discrete_timings(self):
        timings = []
        for leaf in self._leaf_systems():
            for event in leaf._events:
                if (
                    event.trigger == TriggerType.kPeriodic
                    and event.kind == EventKind.kDiscreteUpdate
                ):
                    key = (event.period_sec, event.offset_sec)
                    if key not in timings:
                        timings.append(key)
        return timings

    def GetUniquePeriodicDiscreteUpdateAttribute(self):
        """The PeriodicEventData of this system's periodic discrete update events if they all
        share one (period, offset); else None."""
        timings = self._periodic_discrete_timings()
        return PeriodicEventData(*timings[0]) if len(timings) == 1 else None

    def IsDifferenceEquationSystem(self):
        """(True, period) if this system's only state is one discrete group updated by
        periodic events of one period and zero offset; else (False, 0.0)."""
        if (
            self.num_discrete_state_groups() != 1
            or self.num_continuous_states() > 0
            or self.num_abstract_states() > 0
        ):
            return False, 0.0
        attribute = self.GetUniquePeriodicDiscreteUpdateAttribute()
        if attribute is None or attribute.offset_sec() != 0.0:
            return False, 0.0
        return True, attribute.period_sec()

    def IsDifferentialEquationSystem(self):
        """True if this system has neither discrete nor abstract state."""
        return self.num_discrete_state_groups() == 0 and self.num_abstract_states() == 0

    def EvalUniquePeriodicDiscreteUpdate(self, context):
        """The discrete state after this system's periodic discrete update events, which must
        share one timing (only those events run; the Context is not changed). The result is
        cached in ``context`` until the Context changes."""
        self.ValidateContext(context)
        method = "CalcUniquePeriodicDiscreteUpdate"
        plan = plan_for(self, context)
        timing = plan.unique_periodic_discrete_timing(method)
        if timing is None:
            raise RuntimeError(
                f"{method}(): there are no periodic discrete update events in this System."
            )
        signature = context_signature(context)
        cached = context._cache.get("unique_periodic_discrete_update")
        if cached is not None and cached[0] == signature:
            return cached[1]
        result = cached[1] if cached is not None else self.AllocateDiscreteVariables()
        result.SetFrom(context._state._discrete)
        groups = plan.periodic_discrete_events(timing).discrete
        throw_on_failure(plan.calc_discrete(groups), "EvalUniquePeriodicDiscreteUpdate")
        plan.copy_discrete_buffers(groups, result)
        context._cache["unique_periodic_discrete_update"] = (signature, result)
        return result

    def GetGraphvizString(self, max_depth=None, options=None):
        """A Graphviz digraph of this system's ports (and, for a Diagram, its subsystems and
        connections)."""
        lines = ["digraph _ {", "rankdir=LR;"]
        lines += self._graphviz_fragment()
        lines.append("}")
        return "\n".join(lines) + "\n"

    def _graphviz_fragment(self):
        inputs = "|".join(f"<u{i}>{p.get_name()}" for i, p in enumerate(self._input_ports))
        outputs = "|".join(f"<y{i}>{p.get_name()}" for i, p in enumerate(self._output_ports))
        return [
            f's{id(self)} [shape=record, label="{self.GetSystemName()}|{{{{{inputs}}}|'
            f'{{{outputs}}}}}"];'
        ]


def _ticket_method(kind):
    def ticket(self):
        return DependencyTicket(kind)

    ticket.__name__ = f"{kind}_ticket"
    ticket.__doc__ = f"The dependency ticket of {kind.replace('_', ' ')}."
    return ticket


for _kind in _TICKETS:
    setattr(System, f"{_kind}_ticket", _ticket_method(_kind))
