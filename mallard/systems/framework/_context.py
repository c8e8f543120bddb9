"""Context: everything a System's computations depend on (time, state, parameters, input
values) plus a cache of derived quantities.

The time is a scalar of the system's type T, as Drake's Context<T>: a float, or an AutoDiffXd
or Expression for the Context of an AutoDiffXd or symbolic system (real numbers given to
SetTime become T constants).

Dependency tracking is by serial numbers: every mutation of a source stamps it with a new
number drawn from one process-wide counter, and a cache entry remembers the stamps of the
sources it was computed from. Sources: time ``t``, state ``q`` (continuous generalized
positions, and all state that is not continuous), state ``v`` (the rest of the continuous
state, and all state that is not continuous), parameters ``p`` and input values ``u``.
"""

import itertools
import math

import numpy as np

from mallard._scalar import as_scalar, scalar_value
from mallard.common._pybind import call_form, overloads

_next_serial = itertools.count(1).__next__


class Context:
    """The Context of a LeafSystem, created by that system (``CreateDefaultContext``)."""

    __slots__ = (
        "_system",
        "_pathname",
        "_time",
        "_state",
        "_parameters",
        "_inputs",
        "_accuracy",
        "_cache",
        "_system_cache",
        "_root",
        "_serial_t",
        "_serial_q",
        "_serial_v",
        "_serial_p",
        "_serial_u",
        "__weakref__",
    )

    def __init__(self, system, state, parameters, num_input_ports):
        self._system = system
        self._pathname = system.GetSystemPathname()  # as when the Context was made, as Drake's
        T = getattr(type(system), "_template_scalar", float)  # (system_scalar_type)
        self._time = 0.0 if T is float else T(0.0)
        self._state = state
        self._parameters = parameters
        self._inputs = [None] * num_input_ports
        self._accuracy = None
        self._cache = {}
        self._system_cache = None  # the system's own cache object, if it keeps one
        self._root = None  # the root DiagramContext, if this Context is part of a Diagram's
        self._serial_t = self._serial_q = self._serial_v = _next_serial()
        self._serial_p = self._serial_u = self._serial_t
        state._continuous._bind(self._q_changed, self._v_changed, self._state_changed)
        state._discrete._bind(self._state_changed)
        state._abstract._on_change = self._state_changed
        parameters._bind(self._p_changed)

    # ---- dependency tracking -------------------------------------------------------------
    # In a Diagram, a change of one subsystem's Context may change the inputs of any other:
    # the root DiagramContext then marks their inputs changed (_changed_in_diagram).
    def _q_changed(self):
        self._serial_q = _next_serial()
        if self._root is not None:
            self._root._changed_in_diagram(self)

    def _v_changed(self):
        self._serial_v = _next_serial()
        if self._root is not None:
            self._root._changed_in_diagram(self)

    def _state_changed(self):
        self._serial_q = self._serial_v = _next_serial()
        if self._root is not None:
            self._root._changed_in_diagram(self)

    def _p_changed(self):
        self._serial_p = _next_serial()
        if self._root is not None:
            self._root._changed_in_diagram(self)

    def _u_changed(self):
        self._serial_u = _next_serial()
        if self._root is not None:
            self._root._changed_in_diagram(self)

    def _all_changed(self):
        self._serial_t = self._serial_q = self._serial_v = _next_serial()
        self._serial_p = self._serial_u = self._serial_t

    # ---- time ----------------------------------------------------------------------------
    def get_time(self):
        """The time, a T (the scalar type of the system)."""
        return self._time

    def SetTime(self, time_sec):
        """Sets the time (a T, or a real number); RuntimeError unless it is finite (pydrake
        accepts NaN and infinity, with which a Simulator later aborts)."""
        self._time = checked_time(time_sec, "Context.SetTime()", type(self._time))
        self._serial_t = _next_serial()

    def get_accuracy(self):
        return self._accuracy

    def SetAccuracy(self, accuracy):
        self._accuracy = accuracy
        self._all_changed()

    # ---- state ---------------------------------------------------------------------------
    def get_state(self):
        return self._state

    def get_mutable_state(self):
        self._state_changed()
        return self._state

    def num_continuous_states(self):
        return self._state._continuous.size()

    def num_discrete_state_groups(self):
        return self._state._discrete.num_groups()

    def num_abstract_states(self):
        return len(self._state._abstract._values)

    def num_total_states(self):
        """The number of continuous and discrete state variables; RuntimeError if there is
        abstract state (which has no size)."""
        if self.num_abstract_states():
            raise RuntimeError(
                "Context::num_total_states(): the state has abstract variables, so it has no "
                "total number of variables"
            )
        discrete = sum(g.size() for g in self._state._discrete._groups)
        return self.num_continuous_states() + discrete

    def is_stateless(self):
        return (
            self.num_continuous_states() == 0
            and self.num_discrete_state_groups() == 0
            and (self.num_abstract_states() == 0)
        )

    def has_only_continuous_state(self):
        return (
            self.num_continuous_states() > 0
            and self.num_discrete_state_groups() == 0
            and (self.num_abstract_states() == 0)
        )

    def has_only_discrete_state(self):
        return (
            self.num_discrete_state_groups() > 0
            and self.num_continuous_states() == 0
            and (self.num_abstract_states() == 0)
        )

    def get_continuous_state(self):
        return self._state._continuous

    def get_mutable_continuous_state(self):
        return self._state.get_mutable_continuous_state()

    def get_continuous_state_vector(self):
        return self._state._continuous._vector

    def get_mutable_continuous_state_vector(self):
        return self._state.get_mutable_continuous_state().get_vector()

    def SetContinuousState(self, xc):
        self._state._continuous.SetFromVector(xc)

    def SetTimeAndContinuousState(self, time_sec, xc):
        self.SetTime(time_sec)
        self.SetContinuousState(xc)

    def get_discrete_state(self, index=None):
        return self._state.get_discrete_state(index)

    def get_discrete_state_vector(self):
        return self._state._discrete._only_group()

    def get_mutable_discrete_state(self, index=None):
        return self._state.get_mutable_discrete_state(index)

    def get_mutable_discrete_state_vector(self):
        group = self._state._discrete._only_group()
        group._changed()
        return group

    @overloads("xd", "group_index, xd")
    def SetDiscreteState(self, *args, **kwargs):
        """``SetDiscreteState(xd)`` for the only group (a vector) or all (DiscreteValues), or
        ``(group_index, xd)``."""
        _, values = call_form(Context.SetDiscreteState, args, kwargs)
        args = tuple(values.values())
        discrete = self._state._discrete
        if len(args) == 1 and hasattr(args[0], "num_groups"):
            discrete.SetFrom(args[0])
        elif len(args) == 1 and discrete.num_groups() != 1:
            raise RuntimeError(
                "Context::SetDiscreteState(): expected exactly 1 discrete state group but there "
                f"were {discrete.num_groups()} groups. Use the other signature if you have "
                "multiple groups."
            )
        else:
            discrete.set_value(*args)

    def get_abstract_state(self, index=None):
        """The abstract state's AbstractValues, or its value ``index``."""
        return self._state.get_abstract_state(index)

    def get_mutable_abstract_state(self, index=None):
        return self._state.get_mutable_abstract_state(index)

    def SetAbstractState(self, index, value):
        self.get_mutable_abstract_state(index).set_value(value)

    # ---- parameters ----------------------------------------------------------------------
    def get_parameters(self):
        return self._parameters

    def get_mutable_parameters(self):
        self._p_changed()
        return self._parameters

    def num_numeric_parameter_groups(self):
        return self._parameters.num_numeric_parameter_groups()

    def num_abstract_parameters(self):
        return self._parameters.num_abstract_parameters()

    def get_numeric_parameter(self, index):
        return self._parameters.get_numeric_parameter(index)

    def get_mutable_numeric_parameter(self, index):
        return self._parameters.get_mutable_numeric_parameter(index)

    def get_abstract_parameter(self, index):
        return self._parameters.get_abstract_parameter(index)

    def get_mutable_abstract_parameter(self, index):
        return self._parameters.get_mutable_abstract_parameter(index)

    # ---- ports ---------------------------------------------------------------------------
    def num_input_ports(self):
        return len(self._inputs)

    def num_output_ports(self):
        return self._system.num_output_ports()

    def _rebind_continuous(self, array):
        """Makes the continuous state live in ``array`` (a view of a Diagram's state vector):
        the values are copied there, and this Context's state becomes views of it."""
        from mallard.systems.framework._state import ContinuousState
        from mallard.systems.framework._vectors import VectorBase

        old = self._state._continuous
        array[:] = old._vector._data
        new = ContinuousState(VectorBase(array), old._num_q, old._num_v, old._num_z)
        new._bind(self._q_changed, self._v_changed, self._state_changed)
        self._state._continuous = new

    # ---- whole-context operations --------------------------------------------------------
    def SetStateAndParametersFrom(self, source):
        self._state.SetFrom(source._state)
        self._parameters.SetFrom(source._parameters)

    def SetTimeStateAndParametersFrom(self, source):
        self.SetTime(source.get_time())
        self._accuracy = source._accuracy
        self.SetStateAndParametersFrom(source)

    def Clone(self):
        """An independent copy: same system, time, state, parameters and fixed input values."""
        clone = Context(
            self._system, self._state.Clone(), self._parameters.Clone(), len(self._inputs)
        )
        clone._pathname = self._pathname
        clone._time = self._time
        clone._accuracy = self._accuracy
        clone._inputs = [None if i is None else i._clone_for(clone) for i in self._inputs]
        return clone

    def __copy__(self):
        return self.Clone()

    def __deepcopy__(self, memo):
        return self.Clone()

    def __str__(self):
        """The Context as Drake prints it: time, state and parameter values."""
        header = f"{self._pathname} Context"
        lines = [header, "-" * (_width(self._pathname) + 9), f"Time: {_format_time(self._time)}"]
        xc = self._state._continuous
        groups = self._state._discrete._groups
        n_abstract = len(self._state._abstract._values)
        if xc.size() or groups or n_abstract:
            lines.append("States:")
            if xc.size():
                lines += [f"  {xc.size()} continuous states", "    " + _format_values(xc._vector)]
            if groups:
                lines.append(f"  {len(groups)} discrete state groups with")
                lines += _format_groups(groups, "states")
            if n_abstract:
                lines.append(f"  {n_abstract} abstract states")
            lines.append("")
        numeric = self._parameters._numeric._groups
        n_abstract = self._parameters.num_abstract_parameters()
        if numeric or n_abstract:
            lines.append("Parameters:")
            if numeric:
                lines.append(f"  {len(numeric)} numeric parameter groups with")
                lines += _format_groups(numeric, "parameters")
            if n_abstract:
                lines.append(f"  {n_abstract} abstract parameters")
        return "\n".join(lines) + "\n"


def checked_time(time_sec, method, T=float):
    """``time_sec`` as a time of scalar type ``T``: TypeError (naming ``method``) if it is not
    a real number or a T, RuntimeError if its value is NaN or infinite."""
    if type(time_sec) is not T:
        time_sec = as_time(time_sec, T, f"{method}: time_sec")
    value = time_sec if T is float else scalar_value(time_sec)
    if value is not None and not math.isfinite(value):
        raise RuntimeError(f"{method}: the time must be finite, got {value}")
    return time_sec


def as_time(x, T, name):
    """``x`` (a real number or a T) as a T: a real number becomes a T constant; TypeError
    naming ``name`` for anything else (a scalar of another type, as pydrake's)."""
    x = as_scalar(x, name=name)
    if type(x) is float:
        return x if T is float else T(x)
    if type(x) is not T:
        raise TypeError(
            f"{name}: expected a {_type_name(T)}, got {type(x).__name__} (a scalar of another type)"
        )
    return x


def _type_name(T):
    return "float" if T is float else T.__name__


def _width(text):
    """The length Drake's C++ gives ``text``: its UTF-8 bytes (the dashes under a header)."""
    return len(text.encode("utf-8"))


def _format_time(t):
    """A time as Drake prints it (fmt's shortest form: 0, 1.5, 1e-05; an AutoDiffXd's
    value)."""
    if hasattr(t, "derivatives"):
        t = t.value()
    if not isinstance(t, float | int):
        return str(t)
    text = repr(float(t))
    return text[:-2] if text.endswith(".0") else text


def _format_scalar(x):
    """One value as Drake streams it (16 significant digits; an AutoDiffXd's value)."""
    if hasattr(x, "derivatives"):
        x = x.value()
    return f"{x:.16g}" if isinstance(x, (float, int, np.floating)) else str(x)


def _format_values(vector):
    """The values of a vector as Eigen streams them: right-aligned to a common width."""
    texts = [_format_scalar(x) for x in vector._data]
    width = max((len(t) for t in texts), default=0)
    return " ".join(t.rjust(width) for t in texts)


def _format_groups(groups, noun):
    lines = []
    for g in groups:
        lines += [f"     {g.size()} {noun}", "       " + _format_values(g)]
    return lines
