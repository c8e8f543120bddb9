"""The parts of a Context: ContinuousState, DiscreteValues, State and Parameters.

Each part owned by a Context tells it of every mutation (see ``_vectors``), so that the
Context can mark what depends on it out of date.
"""

from mallard.common._pybind import call_form, overloads
from mallard.common.value import AbstractValue
from mallard.systems.framework._vectors import BasicVector, VectorBase


def _subvector(vector, start, stop):
    """A VectorBase viewing elements [start, stop) of ``vector``, reporting to ``vector``."""
    sub = VectorBase(vector._data[start:stop])
    sub._on_change = vector._changed
    return sub


class ContinuousState:
    """The continuous state xc = [q; v; z] as one vector, with views of its three parts."""

    __slots__ = ("_vector", "_num_q", "_num_v", "_num_z", "_q", "_v", "_z")

    def __init__(self, state=None, num_q=None, num_v=0, num_z=None):
        self._vector = BasicVector(0) if state is None else state
        n = self._vector.size()
        if num_q is None:
            num_q, num_v, num_z = 0, 0, n
        elif num_z is None:
            num_z = n - num_q - num_v
        if min(num_q, num_v, num_z) < 0 or num_q + num_v + num_z != n:
            raise RuntimeError(
                f"ContinuousState: num_q ({num_q}) + num_v ({num_v}) + num_z ({num_z}) must "
                f"equal the state size ({n})"
            )
        if num_v > num_q:
            raise RuntimeError(
                f"Number of velocity variables {num_v} must not exceed number of position "
                f"variables {num_q}"
            )
        self._num_q, self._num_v, self._num_z = num_q, num_v, num_z
        self._q = _subvector(self._vector, 0, num_q)
        self._v = _subvector(self._vector, num_q, num_q + num_v)
        self._z = _subvector(self._vector, num_q + num_v, n)

    def _bind(self, on_change_q, on_change_v, on_change_all=None):
        """Reports mutations of q to ``on_change_q``, of v or z to ``on_change_v``, and of the
        whole to ``on_change_all`` (by default both of the others)."""

        def changed_all():
            on_change_q()
            on_change_v()

        self._vector._on_change = on_change_all or changed_all
        self._q._on_change = on_change_q
        self._v._on_change = on_change_v
        self._z._on_change = on_change_v

    def size(self):
        return self._vector.size()

    def num_q(self):
        return self._num_q

    def num_v(self):
        return self._num_v

    def num_z(self):
        return self._num_z

    def get_vector(self):
        return self._vector

    def get_mutable_vector(self):
        self._vector._changed()
        return self._vector

    def get_generalized_position(self):
        return self._q

    def get_mutable_generalized_position(self):
        self._q._changed()
        return self._q

    def get_generalized_velocity(self):
        return self._v

    def get_mutable_generalized_velocity(self):
        self._v._changed()
        return self._v

    def get_misc_continuous_state(self):
        return self._z

    def get_mutable_misc_continuous_state(self):
        self._z._changed()
        return self._z

    def CopyToVector(self):
        return self._vector.CopyToVector()

    def SetFromVector(self, value):
        self._vector.SetFromVector(value)

    def SetFrom(self, other):
        self._vector.SetFromVector(other.CopyToVector())

    def Clone(self):
        return ContinuousState(self._vector.Clone(), self._num_q, self._num_v, self._num_z)

    def __getitem__(self, index):
        return self._vector[index]

    def __setitem__(self, index, value):
        self._vector[index] = value


class DiscreteValues:
    """Groups of discrete state variables, each a BasicVector."""

    __slots__ = ("_groups",)

    @overloads("datum", "data", "")
    def __init__(self, *args, **kwargs):
        """``DiscreteValues()``, ``(datum)`` (one BasicVector) or ``(data)`` (a list of them)."""
        if not kwargs and len(args) <= 1:  # (the common calls, without binding)
            data = args[0] if args else []
            self._groups = [data] if isinstance(data, VectorBase) else list(data)
            return
        _, values = call_form(
            DiscreteValues.__init__,
            args,
            kwargs,
            accept=lambda i, v: i != 0 or isinstance(v["datum"], VectorBase),
        )
        data = values.get("data", [values["datum"]] if "datum" in values else [])
        self._groups = list(data)

    def _bind(self, on_change):
        for group in self._groups:
            group._on_change = on_change

    def num_groups(self):
        return len(self._groups)

    def _group(self, index):
        if not 0 <= index < len(self._groups):
            raise IndexError(
                f"DiscreteValues: group index {index} is not within [0, {len(self._groups)})"
            )
        return self._groups[index]

    def _only_group(self):
        """The only group, for the convenience methods; RuntimeError unless there is one."""
        if len(self._groups) != 1:
            raise RuntimeError(
                "Cannot use DiscreteValues convenience methods unless there is exactly one "
                f"group. num_groups() = {len(self._groups)}"
            )
        return self._groups[0]

    def size(self):
        """The size of the only group (RuntimeError unless there is exactly one)."""
        return self._only_group().size()

    def get_data(self):
        return list(self._groups)

    def get_vector(self, index=0):
        return self._group(index)

    def get_mutable_vector(self, index=0):
        group = self._group(index)
        group._changed()
        return group

    def get_value(self, index=0):
        return self._group(index).get_value()

    def value(self, index=0):
        return self._group(index).get_value()

    def get_mutable_value(self, index=0):
        return self._group(index).get_mutable_value()

    @overloads("value", "index, value")
    def set_value(self, *args, **kwargs):
        """``set_value(value)`` for the only group or ``set_value(index, value)``."""
        _, values = call_form(DiscreteValues.set_value, args, kwargs)
        index = values.get("index")
        group = self._only_group() if index is None else self._group(index)
        group.SetFromVector(values["value"])

    def SetFrom(self, other):
        for mine, theirs in zip(self._groups, other._groups, strict=True):
            mine.SetFrom(theirs)

    def Clone(self):
        return DiscreteValues([g.Clone() for g in self._groups])

    def __getitem__(self, index):
        return self._only_group()[index]

    def __setitem__(self, index, value):
        self._only_group()[index] = value


class AbstractValues:
    """A list of AbstractValue (the abstract state, or abstract parameters), whose mutable
    access is reported to the Context that holds it."""

    __slots__ = ("_values", "_on_change", "_what")

    def __init__(self, data=(), what="abstract value"):
        self._values = list(data)
        for value in self._values:
            if not isinstance(value, AbstractValue):
                raise TypeError(f"AbstractValues: expected AbstractValue, got {value!r}")
        self._on_change = None
        self._what = what

    def size(self):
        return len(self._values)

    def get(self, index):
        if not 0 <= index < len(self._values):
            raise IndexError(f"{self._what} index {index} is not within [0, {len(self._values)})")
        return self._values[index]

    def get_mutable(self, index):
        value = self.get(index)
        if self._on_change is not None:
            self._on_change()
        return value

    def get_value(self, index):
        return self.get(index)

    def get_mutable_value(self, index):
        return self.get_mutable(index)

    def SetFrom(self, other):
        """Copies the values of ``other`` (as many, of the same types) into these."""
        if not isinstance(other, AbstractValues):
            raise TypeError(f"AbstractValues.SetFrom(): expected AbstractValues, got {other!r}")
        if len(other._values) != len(self._values):
            raise RuntimeError(
                f"AbstractValues::SetFrom(): {len(other._values)} values given for "
                f"{len(self._values)}"
            )
        for i, value in enumerate(other._values):
            self.get_mutable(i).SetFrom(value)

    def Clone(self):
        return AbstractValues([v.Clone() for v in self._values], self._what)


class State:
    """The complete state: continuous, discrete and abstract parts."""

    __slots__ = ("_continuous", "_discrete", "_abstract")

    def __init__(self, continuous=None, discrete=None, abstract=()):
        self._continuous = continuous if continuous is not None else ContinuousState()
        self._discrete = discrete if discrete is not None else DiscreteValues()
        self._abstract = AbstractValues(abstract, "abstract state")

    def get_continuous_state(self):
        return self._continuous

    def get_mutable_continuous_state(self):
        self._continuous._vector._changed()
        return self._continuous

    def get_discrete_state(self, index=None):
        return self._discrete if index is None else self._discrete.get_vector(index)

    def get_mutable_discrete_state(self, index=None):
        if index is None:
            for group in self._discrete._groups:
                group._changed()
            return self._discrete
        return self._discrete.get_mutable_vector(index)

    def get_abstract_state(self, index=None):
        """The abstract state's AbstractValues, or its value ``index``."""
        return self._abstract if index is None else self._abstract.get(index)

    def get_mutable_abstract_state(self, index=None):
        if index is None:
            if self._abstract._on_change is not None:
                self._abstract._on_change()
            return self._abstract
        return self._abstract.get_mutable(index)

    def SetFrom(self, other):
        self._continuous.SetFrom(other._continuous)
        self._discrete.SetFrom(other._discrete)
        self._abstract.SetFrom(other._abstract)

    def Clone(self):
        return State(
            self._continuous.Clone(),
            self._discrete.Clone(),
            [v.Clone() for v in self._abstract._values],
        )


class Parameters:
    """Numeric parameter groups (BasicVector) and abstract parameters (AbstractValue)."""

    __slots__ = ("_numeric", "_abstract")

    @overloads("", "numeric, abstract", "numeric", "abstract", "vec", "value")
    def __init__(self, *args, **kwargs):
        """``Parameters()``, ``(numeric, abstract)`` (lists), ``(numeric)``, ``(abstract)``,
        ``(vec)`` (a BasicVector) or ``(value)`` (an AbstractValue), as pydrake's overloads;
        a positional argument is told by its type."""

        def accept(form, v):
            if form in (2, 3):  # one list: numeric or abstract by its elements
                items = next(iter(v.values()))
                if isinstance(items, VectorBase | AbstractValue):
                    return False
                items = list(items)
                return not items or all(isinstance(x, AbstractValue) for x in items) == (form == 3)
            if form == 4:
                return isinstance(v["vec"], VectorBase)
            return form != 5 or isinstance(v["value"], AbstractValue)

        if not kwargs and len(args) in (0, 2):  # (the common calls, without binding)
            numeric, abstract = args or ((), ())
        else:
            _, values = call_form(Parameters.__init__, args, kwargs, accept=accept)
            numeric = values.get("numeric", [values["vec"]] if "vec" in values else ())
            abstract = values.get("abstract", [values["value"]] if "value" in values else ())
        self._numeric = DiscreteValues(list(numeric))
        self._abstract = AbstractValues(
            [a if isinstance(a, AbstractValue) else AbstractValue.Make(a) for a in abstract],
            "abstract parameter",
        )

    def _bind(self, on_change):
        self._numeric._bind(on_change)
        self._abstract._on_change = on_change

    def num_numeric_parameter_groups(self):
        return self._numeric.num_groups()

    def num_abstract_parameters(self):
        return len(self._abstract._values)

    def get_numeric_parameter(self, index):
        return self._numeric.get_vector(index)

    def get_mutable_numeric_parameter(self, index):
        return self._numeric.get_mutable_vector(index)

    def get_numeric_parameters(self):
        return self._numeric

    def get_abstract_parameter(self, index):
        return self._abstract.get(index)

    def get_mutable_abstract_parameter(self, index):
        return self._abstract.get_mutable(index)

    def get_abstract_parameters(self):
        return list(self._abstract._values)

    def set_numeric_parameters(self, numeric_params):
        """Copies the numeric parameters from ``numeric_params`` (a DiscreteValues)."""
        self._numeric.SetFrom(numeric_params)

    def set_abstract_parameters(self, abstract_params):
        """Copies the abstract parameters from ``abstract_params`` (an AbstractValues)."""
        self._abstract.SetFrom(abstract_params)

    def SetFrom(self, other):
        self._numeric.SetFrom(other._numeric)
        self._abstract.SetFrom(other._abstract)

    def Clone(self):
        clone = Parameters()
        clone._numeric = self._numeric.Clone()
        clone._abstract = self._abstract.Clone()
        return clone
