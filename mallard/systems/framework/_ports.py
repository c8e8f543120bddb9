"""Input and output ports of a System, and the values fixed on input ports."""

import enum

import numpy as np

from mallard._scalar import as_array, as_scalar
from mallard._template import array_to_scalar
from mallard.common.value import AbstractValue
from mallard.systems.framework._vectors import CPP_BASIC_VECTOR, BasicVector


class PortDataType(enum.IntEnum):
    """Whether a port carries a numeric vector or an abstract (any-type) value."""

    __module__ = "mallard.systems.framework"  # (its public path: pickles name it)

    kVectorValued = 0
    kAbstractValued = 1

    def __repr__(self):
        return f"<PortDataType.{self.name}: {self.value}>"


class FixedInputPortValue:
    """A value fixed on an input port of one Context (``InputPort.FixValue``)."""

    __slots__ = ("_context", "_value")

    def __init__(self, context, value):
        self._context = context
        self._value = value

    def GetMutableData(self):
        """The held AbstractValue, for modification in place."""
        self._context._u_changed()
        return self._value

    def _eval(self):
        return self._value.get_value()

    def _clone_for(self, context):
        return FixedInputPortValue(context, self._value.Clone())


class _Port:
    __slots__ = ("_system", "_index", "_name", "_data_type", "_size")

    def __init__(self, system, index, name, data_type, size):
        self._system = system
        self._index = index
        self._name = name
        self._data_type = data_type
        self._size = size

    def get_system(self):
        return self._system

    def get_index(self):
        return self._index

    def get_name(self):
        return self._name

    def get_data_type(self):
        return self._data_type

    def size(self):
        """The vector size (0 for an abstract port)."""
        return self._size

    def GetFullDescription(self):
        """``InputPort[0] (u) of System ::name (type)``, the type without its namespaces."""
        system = self._system
        head, bracket, tail = system.GetSystemType().partition("<")
        kind = head.rsplit("::", 1)[-1] + bracket + tail
        return (
            f"{type(self).__name__}[{self._index}] ({self._name}) of System "
            f"{system.GetSystemPathname()} ({kind})"
        )

    def _validate(self, context):
        if context._system is not self._system:
            raise RuntimeError(
                f"{type(self).__name__}: The Context given as an argument was not created for "
                f"this {self.GetFullDescription()}"
            )


class InputPort(_Port):
    """An input port: its value comes from a connection or a fixed value in the Context."""

    __slots__ = ("_model_value", "_random_type")

    def __init__(self, system, index, name, data_type, size, model_value, random_type=None):
        # (_Port.__init__ inlined: a plant declares ports for each of its model instances)
        self._system = system
        self._index = index
        self._name = name
        self._data_type = data_type
        self._size = size
        self._model_value = model_value
        self._random_type = random_type

    def get_random_type(self):
        """The RandomDistribution of a port declared as a source of noise, else None."""
        return self._random_type

    def is_random(self):
        """Whether the port was declared as a source of noise (with a random_type)."""
        return self._random_type is not None

    def ticket(self):
        """The DependencyTicket of this port's value."""
        return self._system.input_port_ticket(self._index)

    def Allocate(self):
        """A new AbstractValue of this port's type (a BasicVector for vector ports)."""
        return self._model_value.Clone()

    def _to_value(self, value):
        """``value`` as the AbstractValue this port holds, or RuntimeError. A vector port
        takes a BasicVector, an array or list of its size (a column or row matrix too) or, if
        its size is 1, a scalar."""
        if self._data_type == PortDataType.kVectorValued:
            data = value.get_value() if isinstance(value, AbstractValue) else value
            data = data.CopyToVector() if isinstance(data, BasicVector) else data
            if data is None or isinstance(data, str):
                raise TypeError(
                    f"InputPort.FixValue(): input port '{self._name}' (index {self._index}) "
                    f"takes a vector of {self._size} numbers, got {type(data).__name__}"
                )
            a = as_array(data, name=self._name)
            if a.dtype == object:  # (only scalars: AutoDiffXd, Expression)
                a = np.array([as_scalar(x, self._name) for x in a.flat], object).reshape(a.shape)
            a = a.reshape(-1) if a.ndim == 0 or a.ndim == 2 and 1 in a.shape else a
            if a.ndim != 1 or a.shape[0] != self._size:
                actual = (
                    f"{CPP_BASIC_VECTOR} with size={a.size}"
                    if a.ndim == 1
                    else f"an array of shape {a.shape}"
                )
                raise RuntimeError(
                    f"System::FixInputPortTypeCheck(): expected value of type {CPP_BASIC_VECTOR} "
                    f"with size={self._size} for input port '{self._name}' (index {self._index}) "
                    f"but the actual type was {actual}. "
                    f"(System {self._system.GetSystemPathname()})"
                )
            T = getattr(type(self._system), "_template_scalar", float)
            return AbstractValue.Make(BasicVector(a if T is float else array_to_scalar(a, T)))
        if isinstance(value, AbstractValue):
            return value.Clone()
        model = self._model_value.get_value()
        if model is not None and not isinstance(value, type(model)):
            raise TypeError(
                f"System::FixInputPortTypeCheck(): expected value of type "
                f"{type(model).__name__} for input port '{self._name}' (index {self._index}) but "
                f"the actual type was {type(value).__name__}"
            )
        return AbstractValue.Make(value)

    def FixValue(self, context, value):
        """Fixes this port's value in ``context``; returns the FixedInputPortValue."""
        self._validate(context)
        fixed = FixedInputPortValue(context, self._to_value(value))
        context._inputs[self._index] = fixed
        context._u_changed()
        return fixed

    def HasValue(self, context):
        """True if the port is connected or has a fixed value in ``context``."""
        self._validate(context)
        return context._inputs[self._index] is not None

    def _value_or_none(self, context):
        """The raw value (a BasicVector for vector ports), or None if there is none."""
        source = context._inputs[self._index]
        return None if source is None else source._eval()

    def EvalAbstract(self, context):
        self._validate(context)
        return AbstractValue.Make(self._required(context))

    def EvalBasicVector(self, context):
        self._validate(context)
        return self._required(context)

    def _required(self, context):
        value = self._value_or_none(context)
        if value is None:
            raise RuntimeError(
                f"InputPort::Eval(): required {self.GetFullDescription()} is not connected"
            )
        return value

    def Eval(self, context):
        """The port's value: a numpy array (a copy) for vector ports, else the value."""
        self._validate(context)
        value = self._required(context)
        return value.CopyToVector() if self._data_type == PortDataType.kVectorValued else value


class OutputPort(_Port):
    """An output port: ``calc(context, output)`` fills ``output``, which ``alloc()`` makes: a
    BasicVector for vector ports, an AbstractValue for abstract ones."""

    __slots__ = ("_alloc", "_calc", "_prerequisites")

    def __init__(self, system, index, name, data_type, size, alloc, calc, prerequisites=None):
        """``prerequisites``: a set of DependencyTickets, only ever read (ports declared
        together share it; None: all sources)."""
        # (_Port.__init__ inlined: a plant declares ports for each of its model instances)
        self._system = system
        self._index = index
        self._name = name
        self._data_type = data_type
        self._size = size
        self._alloc = alloc
        self._calc = calc
        self._prerequisites = prerequisites

    def _feedthrough_inputs(self):
        """The indices of the input ports this output depends on directly (all of them
        unless its prerequisites were declared)."""
        n = self._system.num_input_ports()
        if self._prerequisites is None:
            return set(range(n))
        inputs = set()
        for ticket in self._prerequisites:
            if ticket._kind in ("all_sources", "all_input_ports"):
                return set(range(n))
            if ticket._kind == "input_port":
                inputs.add(int(ticket._index))
        return inputs

    def _is_vector(self):
        return self._data_type == PortDataType.kVectorValued

    def Allocate(self):
        """A new AbstractValue of this port's type (holding a BasicVector for vector ports)."""
        value = self._alloc()
        return AbstractValue.Make(value) if self._is_vector() else value

    def Calc(self, context, value):
        """Computes this port's value into ``value`` (an AbstractValue from ``Allocate``)."""
        self._validate(context)
        self._calc(context, value.get_mutable_value() if self._is_vector() else value)

    def _eval(self, context):
        """The computed value: a BasicVector, or an AbstractValue."""
        output = self._alloc()
        self._calc(context, output)
        return output

    def EvalAbstract(self, context):
        self._validate(context)
        output = self._eval(context)
        return AbstractValue.Make(output) if self._is_vector() else output

    def EvalBasicVector(self, context):
        self._validate(context)
        if not self._is_vector():
            raise RuntimeError(
                f"OutputPort::EvalBasicVector(): {self.GetFullDescription()} is abstract"
            )
        return self._eval(context)

    def Eval(self, context):
        """The port's value: a numpy array for vector ports, else the value itself."""
        self._validate(context)
        output = self._eval(context)
        return output.CopyToVector() if self._is_vector() else output.get_value()


class PortList:
    """A system's input or output ports, in index order: a sequence (indices, slices,
    iteration, ``len``) that ports are appended to. Ports declared one by one are held as they
    are; a block of ports declared at once (:meth:`add_block`) is held as its
    :class:`PortBlock`, and each of its ports made when first read (a plant declares several
    per model instance, and most are never asked for). A port made is the one read at its
    index from then on."""

    __slots__ = ("_ports", "_blocks", "_unmade")

    def __init__(self, ports=()):
        self._ports = list(ports)  # (a port, or None until its block makes it)
        self._blocks = []  # (PortBlocks, in index order)
        self._unmade = 0  # (the Nones in _ports)

    def __len__(self):
        return len(self._ports)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._ports)))]
        port = self._ports[index]  # (IndexError as a list's)
        return self._make(index % len(self._ports)) if port is None else port

    def __iter__(self):
        if not self._unmade:
            return iter(self._ports)
        return map(self.__getitem__, range(len(self._ports)))

    def append(self, port):
        self._ports.append(port)

    def add_block(self, block):
        """Holds ``block``'s ports after those held (``block.start`` must be ``len(self)``),
        unmade."""
        self._blocks.append(block)
        self._ports += [None] * block.count
        self._unmade += block.count

    def _make(self, index):
        block = next(b for b in reversed(self._blocks) if b.start <= index)
        port = self._ports[index] = block.make(index)
        self._unmade -= 1
        return port

    def index_named(self, name):
        """The index of the port named ``name``, or None (no port is made)."""
        index = self.block_index(name)
        if index is not None:
            return index
        for index, port in enumerate(self._ports):
            if port is not None and port._name == name:
                return index
        return None

    def block_index(self, name):
        """The index of the port of a block named ``name``, or None."""
        for block in self._blocks:
            k = block.position(name)
            if k is not None:
                return block.start + k
        return None


class PortBlock:
    """Ports declared at once (see PortList): port k = i·len(suffixes) + j (at index
    ``start`` + k of its system's ports) is named ``prefixes[i] + suffixes[j]`` and made by
    ``make(system, index, name, i, j, extras[j])``. ``positions`` is {prefix: i}; the prefixes
    are distinct strings and the suffixes non-empty strings, and the caller has checked that
    no two ports are named alike (LeafSystem._declare_port_block). The system's deep copies
    (scalar conversion) copy the block with it, so their ports are made for the copy."""

    __slots__ = (
        "system", "start", "count", "prefixes", "positions", "suffixes", "make_port", "extras",
    )  # fmt: skip

    def __init__(self, system, start, prefixes, positions, suffixes, make, extras):
        self.system, self.start, self.count = system, start, len(prefixes) * len(suffixes)
        self.prefixes, self.positions, self.suffixes = prefixes, positions, suffixes
        self.make_port, self.extras = make, extras

    def make(self, index):
        """The port at ``index`` of its system's ports."""
        i, j = divmod(index - self.start, len(self.suffixes))
        name = self.prefixes[i] + self.suffixes[j]
        return self.make_port(self.system, index, name, i, j, self.extras[j])

    def position(self, name):
        """The position k in the block of the port named ``name``, or None."""
        for j, suffix in enumerate(self.suffixes):
            if name.endswith(suffix):
                i = self.positions.get(name[: len(name) - len(suffix)])
                if i is not None:
                    return i * len(self.suffixes) + j
        return None


class SystemOutput:
    """A value for each output port of a system (System.AllocateOutput), which CalcOutput
    fills."""

    __slots__ = ("_values",)

    def __init__(self, values):
        self._values = list(values)

    def num_ports(self):
        return len(self._values)

    def _value(self, index):
        if not 0 <= index < len(self._values):
            raise IndexError(
                f"SystemOutput: port index {index} is not within [0, {len(self._values)})"
            )
        return self._values[index]

    def get_data(self, index):
        """The AbstractValue of output port ``index``."""
        return self._value(index)

    def get_vector_data(self, index):
        """The BasicVector of vector output port ``index``; RuntimeError for an abstract one."""
        value = self._value(index).get_value()
        if not isinstance(value, BasicVector):
            raise RuntimeError(f"SystemOutput: output port {index} is not vector-valued")
        return value
