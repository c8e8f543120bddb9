"""LeafSystem: a System with its own state, parameters and ports (no subsystems)."""

import numpy as np

from mallard._scalar import as_array
from mallard._template import array_to_scalar, instantiation
from mallard.common import _bindings as b
from mallard.common._pybind import overloads
from mallard.common._random import RandomDistribution
from mallard.common.value import AbstractValue
from mallard.systems.framework._cache_entry import CacheEntry, ValueProducer
from mallard.systems.framework._context import Context
from mallard.systems.framework._events import (
    EventDeclaration,
    EventKind,
    PeriodicEventData,
    TriggerType,
)
from mallard.systems.framework._indices import (
    AbstractStateIndex,
    ContinuousStateIndex,
    DiscreteStateIndex,
    UseDefaultName,
)
from mallard.systems.framework._ports import InputPort, OutputPort, PortBlock, PortDataType
from mallard.systems.framework._state import ContinuousState, DiscreteValues, Parameters, State
from mallard.systems.framework._system import DependencyTicket, System, system_scalar_type
from mallard.systems.framework._vectors import BasicVector


def _model_vector(size_or_vector, what, T, fill=0.0):
    """A BasicVector of scalar type T from a size (filled with ``fill``), a BasicVector (a
    copy, of its class) or an array of default values."""
    if type(size_or_vector) is int and size_or_vector >= 0:  # (the common case: a size)
        data = np.empty(size_or_vector)  # (np.full's Python wrapper costs ~5x more)
        data.fill(fill)
        model = BasicVector._make(data)
    elif isinstance(size_or_vector, BasicVector):
        model = size_or_vector.Clone()
    elif isinstance(size_or_vector, (int, np.integer)) and not isinstance(size_or_vector, bool):
        if size_or_vector < 0:
            raise RuntimeError(f"{what}: size must be non-negative, got {size_or_vector}")
        model = BasicVector._make(np.full(int(size_or_vector), fill))
    else:
        model = BasicVector(as_array(size_or_vector, name=what).reshape(-1))
    if T is not float:
        model._data = array_to_scalar(model._data, T)
    return model


def _prerequisites(tickets, method):
    """The declared prerequisites (None: all sources); RuntimeError for an explicitly empty
    set or an invalid ticket, TypeError for anything but DependencyTickets."""
    if tickets is None:
        return None
    tickets = set(tickets)
    if not tickets:
        raise RuntimeError(
            f"{method}(): the prerequisites_of_calc must not be empty; say {{nothing_ticket()}} "
            "if the value depends on nothing in the Context"
        )
    for ticket in tickets:
        if not isinstance(ticket, DependencyTicket):
            raise TypeError(
                f"{method}(): prerequisites_of_calc must hold DependencyTickets, got "
                f"{type(ticket).__name__}"
            )
        if not ticket.is_valid():
            raise RuntimeError(f"{method}(): prerequisites_of_calc holds an invalid ticket")
    return tickets


def _port_name_param(name):
    def convert(v):
        return v if isinstance(v, (str, UseDefaultName)) else b._MISMATCH

    return b.Param(name, "Union[str, UseDefaultName]", convert)


_NAME = _port_name_param("name")
_RANDOM_TYPE = b.optional(b.anything("random_type", "Optional[RandomDistribution]"), None)
_PREREQUISITES = b.optional(b.anything("prerequisites_of_calc", "set[DependencyTicket]"), None)
_CALC = b.Param("calc", "Callable", lambda v: v if callable(v) else b._MISMATCH)
_VECTOR_INPUT = (
    (_NAME, b.instance_of("model_vector", BasicVector), _RANDOM_TYPE),
    (_NAME, b.integer("size"), _RANDOM_TYPE),
)
_INPUT = ((_NAME, b.instance_of("type", PortDataType), b.integer("size"), _RANDOM_TYPE),)
_VECTOR_OUTPUT = (
    (_NAME, b.instance_of("model_value", BasicVector), _CALC, _PREREQUISITES),
    (_NAME, b.integer("size"), _CALC, _PREREQUISITES),
)
_CONTINUOUS = (
    (b.integer("num_state_variables"),),
    (b.integer("num_q"), b.integer("num_v"), b.integer("num_z")),
    (b.instance_of("model_vector", BasicVector),),
    (
        b.instance_of("model_vector", BasicVector),
        b.integer("num_q"),
        b.integer("num_v"),
        b.integer("num_z"),
    ),
)
_DISCRETE = (
    (b.instance_of("model_vector", BasicVector),),
    (b.integer("num_state_variables"),),
    (b.any_array("vector"),),
)


def _all_of_type(items, kind):
    """Whether every item of ``items`` (a collection) is of type ``kind`` itself (not a
    subclass). (list.count compares by identity first: ~1/10 of a set of the types' time.)"""
    return list(map(type, items)).count(kind) == len(items)


class LeafSystem(System):
    """The base of systems with state, parameters and ports of their own.

    Subclasses declare their ports, state and parameters in ``__init__`` with the
    ``Declare*`` methods and override ``SetDefaultState`` / ``SetDefaultParameters`` /
    ``DoCalcTimeDerivatives`` as needed. The vector models are declared in the system's
    scalar type (that of ``LeafSystem_[T]``, float by default).

    Scalar conversion: a system class supports ``ToScalarType[T]()`` by defining
    ``_scalar_conversion_args(T)``, the constructor arguments that build it with scalar
    type T (its T instantiation is constructed with them and takes the system's name), or
    by passing a SystemScalarConverter to ``__init__`` (as the systems a TemplateSystem
    defines do).
    """

    def __init__(self, converter=None):
        super().__init__()
        from mallard.systems.scalar_conversion import SystemScalarConverter

        if converter is not None and not isinstance(converter, SystemScalarConverter):
            raise TypeError(
                f"LeafSystem: converter must be a SystemScalarConverter or None, got "
                f"{type(converter).__name__}"
            )
        self._converter = converter  # (how ToScalarType converts, if given)
        self._events = []  # EventDeclaration records
        self._continuous_model = ContinuousState()
        self._discrete_models = []
        self._abstract_state_models = []
        self._numeric_parameter_models = []
        self._abstract_parameter_models = []
        self._cache_entries = []
        self._port_names = {"input": set(), "output": set()}  # (unique per kind)
        self._nan_models = {}  # size -> (its NaN model BasicVector, that in an AbstractValue)

    # ---- ports ---------------------------------------------------------------------------
    def _port_name(self, name, ports, kind):
        """``name`` (kUseDefaultName: ``u{index}`` / ``y{index}``), checked unique and not
        empty."""
        if isinstance(name, UseDefaultName):
            name = f"{'u' if kind == 'input' else 'y'}{len(ports)}"
        if name == "":
            raise RuntimeError(
                f"System {self.GetSystemName()}: an {kind} port name must not be empty "
                "(use kUseDefaultName for a default name)"
            )
        if name in self._port_names[kind] or ports.block_index(name) is not None:
            raise RuntimeError(
                f"System {self.GetSystemName()} already has an {kind} port named {name}"
            )
        return name

    def _append_port(self, ports, port, kind):
        ports.append(port)
        self._port_names[kind].add(port.get_name())
        return port

    def _nan_model(self, size):
        """(the BasicVector of ``size`` NaNs in the system's scalar type, it in an
        AbstractValue): the model of the vector ports declared with that size, shared by them
        (a port's model is only ever cloned)."""
        models = self._nan_models.get(size)
        if models is None:
            model = _model_vector(size, "a vector port", system_scalar_type(self), np.nan)
            models = self._nan_models[size] = (model, AbstractValue.Make(model))
        return models

    def _add_vector_input(self, name, model, random_type=None):
        name = self._port_name(name, self._input_ports, "input")
        if random_type is not None and not isinstance(random_type, RandomDistribution):
            raise TypeError(
                f"System {self.GetSystemName()}: random_type must be a RandomDistribution or "
                f"None, got {type(random_type).__name__}"
            )
        if type(model) is int and model >= 0:  # (the common case: a size)
            port = self._vector_input_port(len(self._input_ports), name, model, random_type)
        else:
            model = _model_vector(model, "DeclareVectorInputPort", system_scalar_type(self), np.nan)
            port = InputPort(
                self,
                len(self._input_ports),
                name,
                PortDataType.kVectorValued,
                model.size(),
                AbstractValue.Make(model),
                random_type,
            )
        return self._append_port(self._input_ports, port, "input")

    def _vector_input_port(self, index, name, size, random_type=None):
        """The vector input port ``index`` of this system, of ``size`` (an int ≥ 0), its model
        the system's NaN vector of that size (not yet declared: see _append_port)."""
        model_value = self._nan_model(size)[1]
        return InputPort(
            self, index, name, PortDataType.kVectorValued, size, model_value, random_type
        )

    def _vector_output_port(self, index, name, size, calc, prerequisites):
        """The vector output port ``index`` of this system, of ``size`` (an int ≥ 0),
        allocating clones of the system's NaN vector of that size; ``prerequisites`` as
        validated by _prerequisites (not yet declared: see _append_port)."""
        alloc = self._nan_model(size)[0].Clone
        return OutputPort(
            self, index, name, PortDataType.kVectorValued, size, alloc, calc, prerequisites
        )

    def _declare_port_block(self, kind, prefixes, positions, suffixes, make, prerequisites=None):
        """Declares the ports of ``kind`` ("input" or "output") named ``prefix + suffix`` for
        each of ``prefixes`` (outer) and ``suffixes`` (inner), in that order: the port of
        prefixes[i] and suffixes[j] is ``make(self, index, name, i, j, prerequisites[j])``
        (of the output ports' ``prerequisites``, one per suffix, each validated once; None
        for input ports), made when first read (PortBlock). ``positions`` is {prefix: i};
        the prefixes and ``positions`` are read only from then on. Names already taken (or
        two ports named alike) declare them one by one, with the errors of doing so."""
        ports = self._input_ports if kind == "input" else self._output_ports
        if prerequisites is None:
            prerequisites = (None,) * len(suffixes)
        else:
            method = "DeclareVectorOutputPort"
            prerequisites = tuple(_prerequisites(p, method) for p in prerequisites)
        if not self._block_names_fresh(ports, kind, prefixes, positions, suffixes):
            for i, prefix in enumerate(prefixes):
                for j, suffix in enumerate(suffixes):
                    name = self._port_name(prefix + suffix, ports, kind)
                    port = make(self, len(ports), name, i, j, prerequisites[j])
                    self._append_port(ports, port, kind)
            return
        ports.add_block(
            PortBlock(self, len(ports), prefixes, positions, suffixes, make, prerequisites)
        )

    def _block_names_fresh(self, ports, kind, prefixes, positions, suffixes):
        """Whether the names ``prefix + suffix`` of a port block (_declare_port_block) are
        distinct non-empty strings that name no port of ``kind`` yet."""
        if ports._blocks or not (_all_of_type(prefixes, str) and _all_of_type(suffixes, str)):
            return False  # (one block per kind: the plant's)
        if len(positions) != len(prefixes) or len(set(suffixes)) != len(suffixes):
            return False
        if "" in suffixes:
            return False
        for suffix in suffixes:  # (a name taken: a prefix + suffix)
            for taken in self._port_names[kind]:
                if taken.endswith(suffix) and taken[: len(taken) - len(suffix)] in positions:
                    return False
            for other in suffixes:  # (p + other == q + suffix, other = t + suffix: q = p + t)
                if other != suffix and other.endswith(suffix):
                    t = other[: len(other) - len(suffix)]
                    if any(prefix + t in positions for prefix in prefixes):
                        return False
        return True

    @overloads(lambda: _VECTOR_INPUT)
    def DeclareVectorInputPort(self, *args, **kwargs):
        """``(name, model_vector, random_type=None)`` or ``(name, size, random_type=None)``:
        a vector input port of ``size`` elements or shaped like the BasicVector
        ``model_vector``. ``random_type`` (a RandomDistribution) labels the port as a source
        of noise (``InputPort.get_random_type()``)."""
        _, (name, model, random_type) = b.resolve(
            "LeafSystem.DeclareVectorInputPort", _VECTOR_INPUT, args, kwargs
        )
        return self._add_vector_input(name, model, random_type)

    @overloads(lambda: _INPUT)
    def DeclareInputPort(self, *args, **kwargs):
        """``(name, type, size, random_type=None)``: an input port of PortDataType ``type``.
        A vector port has ``size`` elements. (Drake accepts kAbstractValued here and fails
        when a Context is made, as the port has no model value; mallard refuses it here.)"""
        _, (name, data_type, size, random_type) = b.resolve(
            "LeafSystem.DeclareInputPort", _INPUT, args, kwargs
        )
        if data_type != PortDataType.kVectorValued:
            raise RuntimeError(
                f"System {self.GetSystemName()}: DeclareInputPort() of an abstract port has no "
                "model value to allocate from; use DeclareAbstractInputPort(name, model_value)"
            )
        return self._add_vector_input(name, size, random_type)

    def DeclareAbstractInputPort(self, name, model_value):
        """An input port carrying values of the type held by ``model_value`` (an
        AbstractValue; a plain value is wrapped)."""
        name = self._port_name(name, self._input_ports, "input")
        if not isinstance(model_value, AbstractValue):
            model_value = AbstractValue.Make(model_value)
        port = InputPort(
            self, len(self._input_ports), name, PortDataType.kAbstractValued, 0, model_value
        )
        return self._append_port(self._input_ports, port, "input")

    @overloads(lambda: _VECTOR_OUTPUT)
    def DeclareVectorOutputPort(self, *args, **kwargs):
        """``(name, model_value, calc, prerequisites_of_calc=...)`` or ``(name, size, calc,
        prerequisites_of_calc=...)``: a vector output port of ``size`` elements or shaped like
        the BasicVector ``model_value``; ``calc(context, output)`` fills the BasicVector
        ``output``. Without ``prerequisites_of_calc`` the port depends on everything."""
        _, (name, model, calc, prerequisites) = b.resolve(
            "LeafSystem.DeclareVectorOutputPort", _VECTOR_OUTPUT, args, kwargs
        )
        return self._add_vector_output(name, model, calc, prerequisites)

    def _add_vector_output(self, name, model, calc, prerequisites=None):
        name = self._port_name(name, self._output_ports, "output")
        index = len(self._output_ports)
        if type(model) is int and model >= 0:  # (the common case: a size)
            prerequisites = _prerequisites(prerequisites, "DeclareVectorOutputPort")
            port = self._vector_output_port(index, name, model, calc, prerequisites)
        else:
            model = _model_vector(
                model, "DeclareVectorOutputPort", system_scalar_type(self), np.nan
            )
            port = OutputPort(
                self,
                index,
                name,
                PortDataType.kVectorValued,
                model.size(),
                model.Clone,
                calc,
                _prerequisites(prerequisites, "DeclareVectorOutputPort"),
            )
        return self._append_port(self._output_ports, port, "output")

    def DeclareAbstractOutputPort(self, name, alloc, calc, prerequisites_of_calc=None):
        """An abstract output port: ``alloc()`` makes an AbstractValue (a plain value is
        wrapped), ``calc(context, value)`` sets that AbstractValue."""
        name = self._port_name(name, self._output_ports, "output")

        def allocate():
            value = alloc()
            return value if isinstance(value, AbstractValue) else AbstractValue.Make(value)

        port = OutputPort(
            self,
            len(self._output_ports),
            name,
            PortDataType.kAbstractValued,
            0,
            allocate,
            calc,
            _prerequisites(prerequisites_of_calc, "DeclareAbstractOutputPort"),
        )
        return self._append_port(self._output_ports, port, "output")

    def DeclareStateOutputPort(self, name, state_index):
        """An output port whose value is a state of this system: a ContinuousStateIndex (the
        continuous state vector), a DiscreteStateIndex (that discrete group) or an
        AbstractStateIndex (that abstract state), as the DeclareXState methods return them.
        ``name`` may be kUseDefaultName (``y{port index}``). The port does not depend on any
        input."""
        where = f"DeclareStateOutputPort(): System {self.GetSystemPathname()}"
        if isinstance(state_index, ContinuousStateIndex):
            if int(state_index) != 0:
                raise RuntimeError(
                    f"{where}: a LeafSystem has one continuous state group, so the index must "
                    f"be ContinuousStateIndex(0), got {int(state_index)}"
                )
            return self.DeclareVectorOutputPort(
                name,
                self._continuous_model.size(),
                lambda context, output: output.SetFromVector(
                    context._state._continuous._vector._data
                ),
                {self.xc_ticket()},
            )
        if isinstance(state_index, DiscreteStateIndex):
            i = int(state_index)
            if not 0 <= i < len(self._discrete_models):
                raise RuntimeError(
                    f"{where}: there is no discrete state group {i} (this system declares "
                    f"{len(self._discrete_models)})"
                )
            return self.DeclareVectorOutputPort(
                name,
                self._discrete_models[i].size(),
                lambda context, output: output.SetFromVector(
                    context._state._discrete._groups[i]._data
                ),
                {self.discrete_state_ticket(i)},
            )
        if isinstance(state_index, AbstractStateIndex):
            i = int(state_index)
            if not 0 <= i < len(self._abstract_state_models):
                raise RuntimeError(
                    f"{where}: there is no abstract state {i} (this system declares "
                    f"{len(self._abstract_state_models)})"
                )
            model = self._abstract_state_models[i]
            return self.DeclareAbstractOutputPort(
                name,
                model.Clone,
                lambda context, output: output.SetFrom(context._state._abstract._values[i]),
                {self.abstract_state_ticket(i)},
            )
        raise TypeError(
            f"{where}: the state index must be a ContinuousStateIndex, DiscreteStateIndex or "
            f"AbstractStateIndex (as DeclareContinuousState, DeclareDiscreteState and "
            f"DeclareAbstractState return), got {type(state_index).__name__} {state_index!r}"
        )

    # ---- cache entries -------------------------------------------------------------------
    def DeclareCacheEntry(self, description, value_producer, prerequisites_of_calc=None):
        """A cache entry: ``value_producer`` (a ValueProducer) computes its value from a
        Context; ``Eval`` recomputes it only when one of ``prerequisites_of_calc`` (tickets;
        by default all sources) changed. Returns the CacheEntry."""
        if not isinstance(value_producer, ValueProducer):
            raise TypeError(
                f"DeclareCacheEntry(): expected a ValueProducer, got "
                f"{type(value_producer).__name__}"
            )
        prerequisites = _prerequisites(prerequisites_of_calc, "DeclareCacheEntry")
        entry = CacheEntry(
            self, len(self._cache_entries), description, value_producer, prerequisites
        )
        self._cache_entries.append(entry)
        return entry

    def num_cache_entries(self):
        return len(self._cache_entries)

    def get_cache_entry(self, index):
        """The CacheEntry of CacheIndex ``index``."""
        i = int(index)
        if not 0 <= i < len(self._cache_entries):
            raise IndexError(
                f"System {self.GetSystemPathname()}: there is no cache entry {i} (this system "
                f"declares {len(self._cache_entries)})"
            )
        return self._cache_entries[i]

    # ---- state and parameters ------------------------------------------------------------
    @overloads(lambda: _CONTINUOUS)
    def DeclareContinuousState(self, *args, **kwargs):
        """``(num_state_variables)``, ``(num_q, num_v, num_z)``, ``(model_vector)`` or
        ``(model_vector, num_q, num_v, num_z)``; returns ContinuousStateIndex(0). Without
        the split, every variable is a miscellaneous (z) variable."""
        index, values = b.resolve("LeafSystem.DeclareContinuousState", _CONTINUOUS, args, kwargs)
        T = system_scalar_type(self)
        if index == 1:
            num_q, num_v, num_z = values
            model = _model_vector(num_q + num_v + num_z, "DeclareContinuousState", T)
        else:
            model = _model_vector(values[0], "DeclareContinuousState", T)
            num_q, num_v, num_z = values[1:] if index == 3 else (0, 0, model.size())
        self._continuous_model = ContinuousState(model, num_q, num_v, num_z)
        return ContinuousStateIndex(0)

    @overloads(lambda: _DISCRETE)
    def DeclareDiscreteState(self, *args, **kwargs):
        """``(model_vector)`` (a BasicVector), ``(num_state_variables)`` (zeros) or
        ``(vector)`` (an array of initial values): a discrete state group; returns its
        DiscreteStateIndex."""
        _, (model,) = b.resolve("LeafSystem.DeclareDiscreteState", _DISCRETE, args, kwargs)
        self._discrete_models.append(
            _model_vector(model, "DeclareDiscreteState", system_scalar_type(self))
        )
        return DiscreteStateIndex(len(self._discrete_models) - 1)

    def DeclareAbstractState(self, model_value):
        """An abstract state variable with ``model_value`` (an AbstractValue; a plain value
        is wrapped) as default; returns its AbstractStateIndex."""
        if not isinstance(model_value, AbstractValue):
            model_value = AbstractValue.Make(model_value)
        self._abstract_state_models.append(model_value)
        return AbstractStateIndex(len(self._abstract_state_models) - 1)

    def DeclareNumericParameter(self, model_vector):
        """A numeric parameter group with ``model_vector``'s values as defaults; returns its
        index (an int, as pydrake's)."""
        self._numeric_parameter_models.append(
            _model_vector(model_vector, "Parameter", system_scalar_type(self))
        )
        return len(self._numeric_parameter_models) - 1

    def DeclareAbstractParameter(self, model_value):
        """An abstract parameter with ``model_value`` as default; returns its index (an
        int, as pydrake's)."""
        if not isinstance(model_value, AbstractValue):
            model_value = AbstractValue.Make(model_value)
        self._abstract_parameter_models.append(model_value)
        return len(self._abstract_parameter_models) - 1

    def num_continuous_states(self):
        return self._continuous_model.size()

    def num_discrete_state_groups(self):
        return len(self._discrete_models)

    def num_abstract_states(self):
        return len(self._abstract_state_models)

    def num_numeric_parameter_groups(self):
        return len(self._numeric_parameter_models)

    def num_abstract_parameters(self):
        return len(self._abstract_parameter_models)

    # ---- contexts ------------------------------------------------------------------------
    def AllocateContext(self):
        """A Context for this system, with state and parameters of the declared sizes."""
        state = State(
            self._continuous_model.Clone(),
            DiscreteValues([m.Clone() for m in self._discrete_models]),
            [m.Clone() for m in self._abstract_state_models],
        )
        parameters = Parameters(
            [m.Clone() for m in self._numeric_parameter_models],
            [m.Clone() for m in self._abstract_parameter_models],
        )
        return Context(self, state, parameters, len(self._input_ports))

    def SetDefaultContext(self, context):
        """Sets the parameters and state of ``context`` to their defaults (not its time)."""
        self.ValidateContext(context)
        self.SetDefaultParameters(context, context._parameters)
        self.SetDefaultState(context, context._state)

    def SetDefaultState(self, context, state):
        """Sets ``state`` to the declared model values."""
        self.ValidateContext(context)
        state._continuous.SetFromVector(self._continuous_model.CopyToVector())
        for group, model in zip(state._discrete._groups, self._discrete_models, strict=True):
            group.SetFrom(model)
        for i, model in enumerate(self._abstract_state_models):
            state.get_mutable_abstract_state(i).SetFrom(model)

    def SetDefaultParameters(self, context, parameters):
        """Sets ``parameters`` to the declared model values."""
        self.ValidateContext(context)
        for i, model in enumerate(self._numeric_parameter_models):
            parameters.get_mutable_numeric_parameter(i).SetFrom(model)
        for i, model in enumerate(self._abstract_parameter_models):
            parameters.get_mutable_abstract_parameter(i).SetFrom(model)

    def SetRandomState(self, context, state, generator):
        """Sets ``state`` to a random sample; by default, the default state."""
        self.SetDefaultState(context, state)

    def SetRandomParameters(self, context, parameters, generator):
        """Sets ``parameters`` to a random sample; by default, the default parameters."""
        self.SetDefaultParameters(context, parameters)

    def SetRandomContext(self, context, generator):
        """Sets the parameters and state of ``context`` to random samples (not its time)."""
        self.ValidateContext(context)
        self.SetRandomParameters(context, context._parameters, generator)
        self.SetRandomState(context, context._state, generator)

    # ---- time derivatives ----------------------------------------------------------------
    def AllocateTimeDerivatives(self):
        """A ContinuousState shaped like this system's continuous state."""
        return self._continuous_model.Clone()

    def CalcTimeDerivatives(self, context, derivatives):
        """Writes the time derivatives of the continuous state into ``derivatives``."""
        self.ValidateContext(context)
        self.DoCalcTimeDerivatives(context, derivatives)

    def DoCalcTimeDerivatives(self, context, derivatives):
        if derivatives.size() != 0:
            raise NotImplementedError(
                f"{type(self).__name__} declares continuous state but does not override "
                "DoCalcTimeDerivatives"
            )

    # ---- events ------------------------------------------------------------------------------
    def _declare_event(self, trigger, kind, handler, period_sec=None, offset_sec=None):
        if not callable(handler):
            raise TypeError(f"{self.GetSystemName()}: an event handler must be callable")
        if trigger == TriggerType.kPeriodic:
            period_sec, offset_sec = float(period_sec), float(offset_sec)
            if not period_sec > 0 or not offset_sec >= 0:
                raise RuntimeError(
                    f"{self.GetSystemType()} '{self.GetSystemPathname()}': a periodic event needs "
                    f"period > 0 and offset >= 0, got period {period_sec}, offset {offset_sec}"
                )
        self._events.append(EventDeclaration(trigger, kind, handler, period_sec, offset_sec))

    def DeclarePeriodicPublishEvent(self, period_sec, offset_sec, publish):
        """``publish(context)`` every ``period_sec`` seconds from ``offset_sec``."""
        self._declare_event(
            TriggerType.kPeriodic, EventKind.kPublish, publish, period_sec, offset_sec
        )

    def DeclarePeriodicDiscreteUpdateEvent(self, period_sec, offset_sec, update):
        """``update(context, discrete_state)`` every ``period_sec`` seconds from
        ``offset_sec``: it sets the next values of the discrete state in ``discrete_state``
        (which holds the current ones)."""
        self._declare_event(
            TriggerType.kPeriodic, EventKind.kDiscreteUpdate, update, period_sec, offset_sec
        )

    def DeclarePeriodicUnrestrictedUpdateEvent(self, period_sec, offset_sec, update):
        """``update(context, state)`` every ``period_sec`` seconds from ``offset_sec``: it sets
        the next values of any state in ``state`` (which holds the current ones)."""
        self._declare_event(
            TriggerType.kPeriodic, EventKind.kUnrestrictedUpdate, update, period_sec, offset_sec
        )

    def DeclarePerStepPublishEvent(self, publish):
        """``publish(context)`` at the end of every simulation step (and at initialization)."""
        self._declare_event(TriggerType.kPerStep, EventKind.kPublish, publish)

    def DeclarePerStepDiscreteUpdateEvent(self, update):
        """``update(context, discrete_state)`` at the start of every simulation step."""
        self._declare_event(TriggerType.kPerStep, EventKind.kDiscreteUpdate, update)

    def DeclarePerStepUnrestrictedUpdateEvent(self, update):
        """``update(context, state)`` at the start of every simulation step."""
        self._declare_event(TriggerType.kPerStep, EventKind.kUnrestrictedUpdate, update)

    def DeclareInitializationPublishEvent(self, publish):
        """``publish(context)`` when a Simulator is initialized."""
        self._declare_event(TriggerType.kInitialization, EventKind.kPublish, publish)

    def DeclareInitializationDiscreteUpdateEvent(self, update):
        """``update(context, discrete_state)`` when a Simulator is initialized."""
        self._declare_event(TriggerType.kInitialization, EventKind.kDiscreteUpdate, update)

    def DeclareInitializationUnrestrictedUpdateEvent(self, update):
        """``update(context, state)`` when a Simulator is initialized."""
        self._declare_event(TriggerType.kInitialization, EventKind.kUnrestrictedUpdate, update)

    def DeclareForcedPublishEvent(self, publish):
        """``publish(context)`` when ForcedPublish is called."""
        self._declare_event(TriggerType.kForced, EventKind.kPublish, publish)

    def _declare_event_object(self, trigger, event, period_sec=None, offset_sec=None):
        from mallard.systems.framework._events import Event

        if not isinstance(event, Event) or event._kind is None:
            raise TypeError(
                f"{self.GetSystemName()}: expected a PublishEvent, DiscreteUpdateEvent or "
                f"UnrestrictedUpdateEvent, got {type(event).__name__}"
            )
        if event.get_trigger_type() not in (TriggerType.kUnknown, trigger):
            raise RuntimeError(
                f"{self.GetSystemType()} '{self.GetSystemPathname()}': an event declared as "
                f"{trigger.name} has trigger type {event.get_trigger_type().name}"
            )
        stored = event._with_trigger(trigger)
        self._declare_event(trigger, event._kind, stored._handler(self), period_sec, offset_sec)

    def DeclarePeriodicEvent(self, period_sec, offset_sec, event):
        """Declares ``event`` (a PublishEvent, DiscreteUpdateEvent or UnrestrictedUpdateEvent,
        whose callback also receives the event) to occur periodically."""
        self._declare_event_object(TriggerType.kPeriodic, event, period_sec, offset_sec)

    def DeclarePerStepEvent(self, event):
        """Declares ``event`` to occur at every simulation step."""
        self._declare_event_object(TriggerType.kPerStep, event)

    def DeclareInitializationEvent(self, event):
        """Declares ``event`` to occur at initialization."""
        self._declare_event_object(TriggerType.kInitialization, event)

    def DeclareForcedDiscreteUpdateEvent(self, update):
        """``update(context, discrete_state)`` when forced (ExecuteForcedEvents,
        CalcForcedDiscreteVariableUpdate)."""
        self._declare_event(TriggerType.kForced, EventKind.kDiscreteUpdate, update)

    def DeclareForcedUnrestrictedUpdateEvent(self, update):
        """``update(context, state)`` when forced (ExecuteForcedEvents,
        CalcForcedUnrestrictedUpdate)."""
        self._declare_event(TriggerType.kForced, EventKind.kUnrestrictedUpdate, update)

    def _leaf_contexts(self, context):
        return [(self, context)]

    def _leaf_systems(self):
        return [self]

    def GetPeriodicEvents(self):
        """{PeriodicEventData: [handlers]} of this system's periodic events."""
        periodic = {}
        for event in self._events:
            if event.trigger == TriggerType.kPeriodic:
                key = PeriodicEventData(event.period_sec, event.offset_sec)
                periodic.setdefault(key, []).append(event.handler)
        return periodic

    # ---- direct feedthrough ------------------------------------------------------------------
    def HasAnyDirectFeedthrough(self):
        return any(p._feedthrough_inputs() for p in self._output_ports)

    # ---- scalar conversion -------------------------------------------------------------------
    def _scalar_conversion_args(self, T):
        """The constructor arguments that build this system with scalar type T; None: this
        system does not support scalar conversion."""
        return None

    def _to_scalar_type(self, T):
        """A new system with scalar type T, of the class that defines
        ``_scalar_conversion_args`` (so a Python subclass of Gain converts to a Gain, as in
        pydrake), built from those arguments; as Drake, not to the same scalar type. A system
        constructed with a SystemScalarConverter (TemplateSystem's) converts with it."""
        if self._converter is not None:
            converted = self._converter._convert(T, self)
            if converted is None:
                return System._to_scalar_type(self, T)
            converted.set_name(self.get_name())
            return converted
        base = next(c for c in type(self).__mro__ if "_scalar_conversion_args" in vars(c))
        args = None
        if base is not LeafSystem and T is not system_scalar_type(self):
            args = self._scalar_conversion_args(T)
        if args is None:
            return super()._to_scalar_type(T)
        converted = (base if T is float else instantiation(base, T, "system"))(*args)
        converted.set_name(self.get_name())
        return converted
