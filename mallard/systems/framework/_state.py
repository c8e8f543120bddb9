"""The parts of a Context: ContinuousState, DiscreteValues, State and Parameters.

Each part owned by a Context tells it of every mutation (see ``_vectors``), so that the
Context can mark what depends on it out of date.
"""

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

    def __init__(self, data=None):
        if data is None:
            data = []
        elif isinstance(data, VectorBase):
            data = [data]
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

    def set_value(self, *args):
        """``set_value(value)`` for the only group or ``set_value(index, value)``."""
        group = self._only_group() if len(args) == 1 else self._group(args[0])
        group.SetFromVector(args[-1])

    def SetFrom(self, other):
        for mine, theirs in zip(self._groups, other._groups, strict=True):
            mine.SetFrom(theirs)

    def Clone(self):
        return DiscreteValues([g.Clone() for g in self._groups])

    def __getitem__(self, index):
        return self._only_group()[index]

    def __setitem__(self, index, value):
        self._only_group()[index] = value


class _AbstractValues:
    """A list of AbstractValue whose mutable access is reported to ``_on_change``."""

    __slots__ = ("_values", "_on_change", "_what")

    def __init__(self, values, what):
        self._values = list(values)
        self._on_change = None
        self._what = what

    def get(self, index):
        if not 0 <= index < len(self._values):
            raise IndexError(f"{self._what} index {index} is not within [0, {len(self._values)})")
        return self._values[index]

    def get_mutable(self, index):
        value = self.get(index)
        if self._on_change is not None:
            self._on_change()
        return value

    def clone(self):
        return _AbstractValues([v.Clone() for v in self._values], self._what)


class State:
    """The complete state: continuous, discrete and abstract parts."""

    __slots__ = ("_continuous", "_discrete", "_abstract")

    def __init__(self, continuous=None, discrete=None, abstract=()):
        self._continuous = continuous if continuous is not None else ContinuousState()
        self._discrete = discrete if discrete is not None else DiscreteValues()
        self._abstract = _AbstractValues(abstract, "abstract state")

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
        if index is None:
            return list(self._abstract._values)
        return self._abstract.get(index)

    def get_mutable_abstract_state(self, index):
        return self._abstract.get_mutable(index)

    def SetFrom(self, other):
        self._continuous.SetFrom(other._continuous)
        self._discrete.SetFrom(other._discrete)
        for i, value in enumerate(other._abstract._values):
            self._abstract.get_mutable(i).SetFrom(value)

    def Clone(self):
        return State(
            self._continuous.Clone(),
            self._discrete.Clone(),
            [v.Clone() for v in self._abstract._values],
        )


class Parameters:
    """Numeric parameter groups (BasicVector) and abstract parameters (AbstractValue)."""

    __slots__ = ("_numeric", "_abstract")

    def __init__(self, numeric=(), abstract=()):
        """``Parameters()``, ``(numeric, abstract)`` (lists), or one list, BasicVector or
        AbstractValue (numeric or abstract by its type), as pydrake's overloads."""
        if isinstance(numeric, VectorBase):
            numeric = [numeric]
        elif isinstance(numeric, AbstractValue):
            numeric, abstract = (), [numeric]
        elif numeric and all(isinstance(x, AbstractValue) for x in numeric) and not abstract:
            numeric, abstract = (), numeric
        self._numeric = DiscreteValues(list(numeric))
        self._abstract = _AbstractValues(
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

    def set_numeric_parameters(self, numeric):
        self._numeric.SetFrom(numeric)

    def set_abstract_parameters(self, abstract):
        for i, value in enumerate(abstract):
            self._abstract.get_mutable(i).SetFrom(value)

    def SetFrom(self, other):
        self._numeric.SetFrom(other._numeric)
        self.set_abstract_parameters(other._abstract._values)

    def Clone(self):
        clone = Parameters()
        clone._numeric = self._numeric.Clone()
        clone._abstract = self._abstract.clone()
        return clone
