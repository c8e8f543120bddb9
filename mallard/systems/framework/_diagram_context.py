"""DiagramContext: the Context of a Diagram, made of its subsystems' Contexts.

The subsystems' continuous states live in one array (the Diagram's continuous state vector;
each subsystem Context holds views of its part), so an integrator moves them all at once. The
discrete and abstract state of the Diagram are the subsystems' own groups and values. A
change anywhere (through the Diagram's Context or a subsystem's) marks the inputs of every
subsystem changed, since they may depend on it.
"""

import numpy as np

from mallard.systems.framework._context import Context, _next_serial, _width
from mallard.systems.framework._ports import FixedInputPortValue
from mallard.systems.framework._state import (
    AbstractValues,
    ContinuousState,
    DiscreteValues,
    Parameters,
    State,
)
from mallard.systems.framework._vectors import VectorBase


class IndexedVector(VectorBase):
    """A VectorBase of the elements ``indices`` of an array (a Diagram's q, v or z, which are
    not contiguous): reads copy them, writes scatter into the array."""

    __slots__ = ("_base", "_indices")

    def __init__(self, base, indices):
        super().__init__(base[indices])
        self._base = base
        self._indices = indices

    def size(self):
        return self._indices.shape[0]

    def get_value(self):
        return self._base[self._indices]

    def value(self):
        return self._base[self._indices]

    def CopyToVector(self):
        return self._base[self._indices]

    def get_mutable_value(self):
        raise RuntimeError(
            "The generalized positions, velocities or misc state of a Diagram are not "
            "contiguous: use SetFromVector or the subsystems' Contexts to change them"
        )

    def SetFromVector(self, value):
        a = self._checked(value)
        self._base[self._indices] = a
        self._changed()

    def SetAtIndex(self, index, value):
        self._check_index(index)
        self._base[self._indices[index]] = value
        self._changed()

    def GetAtIndex(self, index):
        self._check_index(index)
        return self._base.item(self._indices[index])

    def _check_index(self, index):
        if not 0 <= index < self._indices.shape[0]:
            raise IndexError(
                f"Index {index} is not within [0, {self._indices.shape[0]}) while accessing "
                "a Diagram's state vector."
            )


class DiagramContinuousState(ContinuousState):
    """The continuous state of a Diagram: the subsystems' states [q; v; z] one after the
    other in one vector; q, v and z are gathered views (IndexedVector)."""

    def __init__(self, vector, parts):
        """``parts``: (num_q, num_v, num_z) of each subsystem, in order."""
        self._vector = vector
        q, v, z = [], [], []
        offset = 0
        for num_q, num_v, num_z in parts:
            q += range(offset, offset + num_q)
            v += range(offset + num_q, offset + num_q + num_v)
            z += range(offset + num_q + num_v, offset + num_q + num_v + num_z)
            offset += num_q + num_v + num_z
        self._num_q, self._num_v, self._num_z = len(q), len(v), len(z)
        data = vector._data
        self._q = IndexedVector(data, np.array(q, dtype=np.int64))
        self._v = IndexedVector(data, np.array(v, dtype=np.int64))
        self._z = IndexedVector(data, np.array(z, dtype=np.int64))

    def Clone(self):
        clone = object.__new__(DiagramContinuousState)
        clone._vector = VectorBase(self._vector._data.copy())
        clone._num_q, clone._num_v, clone._num_z = self._num_q, self._num_v, self._num_z
        data = clone._vector._data
        clone._q = IndexedVector(data, self._q._indices)
        clone._v = IndexedVector(data, self._v._indices)
        clone._z = IndexedVector(data, self._z._indices)
        return clone


def continuous_parts(context):
    """(num_q, num_v, num_z) of every leaf Context under ``context``, in state order."""
    if isinstance(context, DiagramContext):
        return [p for sub in context._subcontexts for p in continuous_parts(sub)]
    xc = context._state._continuous
    return [(xc._num_q, xc._num_v, xc._num_z)]


class DiagramContext(Context):
    """The Context of a Diagram: time, the subsystems' Contexts, and the values fixed on the
    Diagram's input ports."""

    __slots__ = ("_subcontexts", "_leaves")

    def __init__(self, diagram, subcontexts):
        self._subcontexts = list(subcontexts)
        self._leaves = [leaf for sub in self._subcontexts for leaf in _leaves_of(sub)]
        parts = continuous_parts(self)
        dtype = np.result_type(
            *[leaf._state._continuous._vector._data for leaf in self._leaves], np.float64
        )
        data = np.zeros(sum(sum(p) for p in parts), dtype=dtype)
        continuous = DiagramContinuousState(VectorBase(data), parts)
        discrete = DiscreteValues(
            [g for leaf in self._leaves for g in leaf._state._discrete._groups]
        )
        state = State(continuous, discrete)
        state._abstract = AbstractValues(
            [v for leaf in self._leaves for v in leaf._state._abstract._values], "abstract state"
        )
        Context.__init__(self, diagram, state, Parameters(), diagram.num_input_ports())
        self._rebind_continuous(data)
        for leaf in self._leaves:
            leaf._root = self
        for sub in self._subcontexts:
            if isinstance(sub, DiagramContext):
                sub._root = self
        # The discrete groups now report to this Context: re-point them at their leaves.
        for leaf in self._leaves:
            leaf._state._discrete._bind(leaf._state_changed)

    # ---- parameters: the leaves', in order (as Drake's DiagramContext numbers them) ----------
    def _parameter_at(self, index, count, kind):
        """(leaf Context, its index) of the Diagram's parameter ``index`` of a ``kind``
        (``count(leaf)`` of them per leaf)."""
        if index >= 0:
            for leaf in self._leaves:
                n = count(leaf)
                if index < n:
                    return leaf, index
                index -= n
        raise IndexError(f"DiagramContext: no {kind} with that index")

    def num_numeric_parameter_groups(self):
        return sum(leaf.num_numeric_parameter_groups() for leaf in self._leaves)

    def num_abstract_parameters(self):
        return sum(leaf.num_abstract_parameters() for leaf in self._leaves)

    def _numeric(self, index):
        return self._parameter_at(
            index, Context.num_numeric_parameter_groups, "numeric parameter group"
        )

    def _abstract(self, index):
        return self._parameter_at(index, Context.num_abstract_parameters, "abstract parameter")

    def get_numeric_parameter(self, index):
        leaf, i = self._numeric(index)
        return leaf.get_numeric_parameter(i)

    def get_mutable_numeric_parameter(self, index):
        leaf, i = self._numeric(index)
        return leaf.get_mutable_numeric_parameter(i)

    def get_abstract_parameter(self, index):
        leaf, i = self._abstract(index)
        return leaf.get_abstract_parameter(i)

    def get_mutable_abstract_parameter(self, index):
        leaf, i = self._abstract(index)
        return leaf.get_mutable_abstract_parameter(i)

    # ---- notifications ---------------------------------------------------------------------
    def _changed_in_diagram(self, origin):
        """Something of the subsystem Context ``origin`` changed: every other subsystem's
        inputs may have."""
        serial = _next_serial()
        for leaf in self._leaves:
            if leaf is not origin:
                leaf._serial_u = serial

    def _q_changed(self):
        serial = _next_serial()
        self._serial_q = serial
        for leaf in self._leaves:
            leaf._serial_q = leaf._serial_u = serial
        self._notify_outer()

    def _v_changed(self):
        serial = _next_serial()
        self._serial_v = serial
        for leaf in self._leaves:
            leaf._serial_v = leaf._serial_u = serial
        self._notify_outer()

    def _state_changed(self):
        serial = _next_serial()
        self._serial_q = self._serial_v = serial
        for leaf in self._leaves:
            leaf._serial_q = leaf._serial_v = leaf._serial_u = serial
        self._notify_outer()

    def _p_changed(self):
        serial = _next_serial()
        self._serial_p = serial
        for leaf in self._leaves:
            leaf._serial_p = leaf._serial_u = serial
        self._notify_outer()

    def _u_changed(self):
        serial = _next_serial()
        self._serial_u = serial
        for leaf in self._leaves:
            leaf._serial_u = serial
        self._notify_outer()

    def _notify_outer(self):
        """If this Diagram is inside another, its change may change the others' inputs."""
        if self._root is not None:
            self._root._changed_in_diagram(self)

    def _rebind_continuous(self, array):
        """The continuous state lives in ``array``: this Context's vector and, part by part,
        its subsystems' (see Context._rebind_continuous)."""
        old = self._state._continuous
        parts = continuous_parts(self)
        new = DiagramContinuousState(VectorBase(array), parts)
        new._bind(self._q_changed, self._v_changed, self._state_changed)
        self._state._continuous = new
        del old
        offset = 0
        for sub in self._subcontexts:
            size = sum(sum(p) for p in continuous_parts(sub))
            sub._rebind_continuous(array[offset : offset + size])
            offset += size

    # ---- time and accuracy -------------------------------------------------------------------
    def SetTime(self, time_sec):
        """Sets the time of this Context and its subsystems' (RuntimeError unless finite)."""
        Context.SetTime(self, time_sec)
        for sub in self._subcontexts:
            sub.SetTime(self._time)

    def SetAccuracy(self, accuracy):
        Context.SetAccuracy(self, accuracy)
        for sub in self._subcontexts:
            sub.SetAccuracy(accuracy)

    # ---- whole-context operations --------------------------------------------------------
    def SetStateAndParametersFrom(self, source):
        for mine, theirs in zip(self._subcontexts, source._subcontexts, strict=True):
            mine.SetStateAndParametersFrom(theirs)

    def Clone(self):
        """An independent copy: same time, state, parameters and fixed input values."""
        clone = self._system.AllocateContext()
        clone.SetTimeStateAndParametersFrom(self)
        for mine, theirs in zip(clone._leaves, self._leaves, strict=True):
            for i, source in enumerate(theirs._inputs):
                if isinstance(source, FixedInputPortValue):
                    mine._inputs[i] = source._clone_for(mine)
        clone._inputs = [None if i is None else i._clone_for(clone) for i in self._inputs]
        return clone

    def __str__(self):
        """The Context as Drake prints it: totals, then each subcontext that holds state or
        parameters."""
        lines = [
            f"{self._pathname} Context (of a Diagram)",
            "-" * (_width(self._pathname) + 24),
        ]
        if self.num_continuous_states():
            lines.append(f"{self.num_continuous_states()} total continuous states")
        groups = self.num_discrete_state_groups()
        if groups:
            count = sum(self.get_discrete_state(i).size() for i in range(groups))
            lines.append(f"{count} total discrete states in {groups} groups")
        if self.num_abstract_states():
            lines.append(f"{self.num_abstract_states()} total abstract states")
        groups = self.num_numeric_parameter_groups()
        if groups:
            count = sum(self.get_numeric_parameter(i).size() for i in range(groups))
            lines.append(f"{count} total numeric parameters in {groups} groups")
        if self.num_abstract_parameters():
            lines.append(f"{self.num_abstract_parameters()} total abstract parameters")
        text = "\n".join(lines) + "\n"
        for sub in self._subcontexts:
            if (
                sub.num_continuous_states()
                or sub.num_discrete_state_groups()
                or sub.num_abstract_states()
                or sub.num_numeric_parameter_groups()
                or sub.num_abstract_parameters()
            ):
                text += "\n" + str(sub)
        return text


def _leaves_of(context):
    if isinstance(context, DiagramContext):
        return list(context._leaves)
    return [context]
