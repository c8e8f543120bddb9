"""Discrete-time primitives: DiscreteTimeDelay, DiscreteDerivative and
StateInterpolatorWithDiscreteDerivative (a Diagram of a DiscreteDerivative and a
Multiplexer)."""

import numpy as np

from mallard._template import array_to_scalar
from mallard.common import _bindings as b
from mallard.common._pybind import call_form, overloads
from mallard.common.value import AbstractValue
from mallard.systems.framework._context import Context
from mallard.systems.framework._diagram import Diagram
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._system import system_scalar_type
from mallard.systems.framework._vectors import BasicVector

_DELAY = (
    (b.scalar("update_sec"), b.integer("delay_time_steps"), b.integer("vector_size")),
    (
        b.scalar("update_sec"),
        b.integer("delay_time_steps"),
        b.instance_of("abstract_model_value", AbstractValue),
    ),
)


def _positive_period(owner, period):
    period = float(period)
    if not period > 0 or not np.isfinite(period):
        raise RuntimeError(f"{owner}: the period must be positive and finite, got {period}")
    return period


class DiscreteTimeDelay(LeafSystem):
    """``DiscreteTimeDelay(update_sec, delay_time_steps, vector_size)`` or ``(update_sec,
    delay_time_steps, abstract_model_value)``: every ``update_sec`` seconds (from 0) input
    "u" is sampled; output "delayed_u" is the sample taken ``delay_time_steps`` samples ago
    (zeros, or the model value, until then)."""

    _cpp_type = "drake::systems::DiscreteTimeDelay<double>"

    @overloads(lambda: _DELAY)
    def __init__(self, *args, **kwargs):
        super().__init__()
        index, (update_sec, steps, model) = b.resolve("DiscreteTimeDelay", _DELAY, args, kwargs)
        self._period = _positive_period("DiscreteTimeDelay", update_sec)
        if steps < 0:
            raise RuntimeError(f"DiscreteTimeDelay: delay_time_steps must be >= 0, got {steps}")
        self._steps = steps
        self._buffer_size = steps + 1  # (the buffer holds the current sample too)
        if index == 0:
            if model < 0:
                raise RuntimeError(f"DiscreteTimeDelay: vector_size must be >= 0, got {model}")
            self._size, self._model = model, None
            self._u = self.DeclareVectorInputPort("u", BasicVector(model))
            self.DeclareVectorOutputPort("delayed_u", model, self._copy_vector, {self.xd_ticket()})
            self.DeclareDiscreteState(model * self._buffer_size)
            self.DeclarePeriodicDiscreteUpdateEvent(self._period, 0.0, self._save_vector)
        else:
            self._size, self._model = -1, model.Clone()
            self._u = self.DeclareAbstractInputPort("u", model)
            self.DeclareAbstractOutputPort(
                "delayed_u", model.Clone, self._copy_abstract, {self.xa_ticket()}
            )
            for _ in range(self._buffer_size):
                self.DeclareAbstractState(model.Clone())
            # The index of the oldest value in the buffer, after the buffer.
            self.DeclareAbstractState(AbstractValue.Make(0))
            self.DeclarePeriodicUnrestrictedUpdateEvent(self._period, 0.0, self._save_abstract)

    def _scalar_conversion_args(self, T):
        model = self._size if self._model is None else self._model
        return self._period, self._steps, model

    def _copy_vector(self, context, output):
        output._data[:] = context._state._discrete._groups[0]._data[: self._size]

    def _save_vector(self, context, discrete_state):
        n = self._size
        old = context._state._discrete._groups[0]._data
        new = discrete_state._groups[0]._data
        new[: len(old) - n] = old[n:]
        new[len(old) - n :] = self._u.EvalBasicVector(context)._data

    def _copy_abstract(self, context, output):
        values = context._state._abstract._values
        output.SetFrom(values[values[self._buffer_size].get_value()])

    def _save_abstract(self, context, state):
        oldest = state.get_mutable_abstract_state(self._buffer_size)
        state.get_mutable_abstract_state(oldest.get_value()).SetFrom(self._u.EvalAbstract(context))
        oldest.set_value((oldest.get_value() + 1) % self._buffer_size)


class DiscreteDerivative(LeafSystem):
    """``DiscreteDerivative(num_inputs, time_step, suppress_initial_transient=True)``: every
    ``time_step`` seconds (from 0) it samples input "u"; output "dudt" = (u[n] − u[n−1]) / h.
    With ``suppress_initial_transient`` the output is zero until two samples have been
    taken (a third discrete group counts them)."""

    _cpp_type = "drake::systems::DiscreteDerivative<double>"

    def __init__(self, num_inputs, time_step, suppress_initial_transient=True):
        super().__init__()
        n = int(num_inputs)
        if n <= 0:
            raise RuntimeError(f"DiscreteDerivative: num_inputs must be positive, got {n}")
        self._n = n
        self._h = _positive_period("DiscreteDerivative", time_step)
        self._suppress = bool(suppress_initial_transient)
        self._u = self.DeclareVectorInputPort("u", n)
        self.DeclareVectorOutputPort("dudt", n, self._calc, {self.xd_ticket()})
        self.DeclareDiscreteState(n)  # u[n]
        self.DeclareDiscreteState(n)  # u[n-1]
        if self._suppress:
            self.DeclareDiscreteState(1)  # the number of samples taken
        self.DeclarePeriodicDiscreteUpdateEvent(self._h, 0.0, self._update)

    def _scalar_conversion_args(self, T):
        return self._n, self._h, self._suppress

    def time_step(self):
        return self._h

    def suppress_initial_transient(self):
        return self._suppress

    def _update(self, context, discrete_state):
        groups, old = discrete_state._groups, context._state._discrete._groups
        groups[0]._data[:] = self._u.EvalBasicVector(context)._data
        groups[1]._data[:] = old[0]._data
        if self._suppress:
            groups[2]._data[0] = old[2]._data[0] + 1.0

    def _calc(self, context, output):
        groups = context._state._discrete._groups
        if self._suppress and not groups[2]._data[0] >= 2.0:
            output._data[:] = array_to_scalar(np.zeros(self._n), system_scalar_type(self))
        else:
            output._data[:] = (groups[0]._data - groups[1]._data) / self._h

    def set_input_history(self, state, u_n, u_n_minus_1):
        """Sets the samples u[n] and u[n−1] in ``state`` (a State of this system, or its
        Context) and ends the transient suppression."""
        if isinstance(state, Context):
            self.ValidateContext(state)
            state = state.get_mutable_state()
        for value, name in ((u_n, "u_n"), (u_n_minus_1, "u_n_minus_1")):
            if np.asarray(value).size != self._n:
                raise RuntimeError(
                    f"DiscreteDerivative.set_input_history(): {name} must have {self._n} "
                    f"elements, got {np.asarray(value).size}"
                )
        state.get_mutable_discrete_state(0).SetFromVector(u_n)
        state.get_mutable_discrete_state(1).SetFromVector(u_n_minus_1)
        if self._suppress:
            state.get_mutable_discrete_state(2).SetAtIndex(0, 2.0)


class StateInterpolatorWithDiscreteDerivative(Diagram):
    """``StateInterpolatorWithDiscreteDerivative(num_positions, time_step,
    suppress_initial_transient=True)``: input "position" q; output "state" = [q, q̇] with q̇
    a DiscreteDerivative of q (a Diagram of a DiscreteDerivative and a Multiplexer; as
    Drake's, it converts to a plain Diagram of another scalar type)."""

    _cpp_type = "drake::systems::StateInterpolatorWithDiscreteDerivative<double>"

    def __init__(self, num_positions, time_step, suppress_initial_transient=True):
        super().__init__()
        from mallard.systems.framework import DiagramBuilder_
        from mallard.systems.primitives import DiscreteDerivative_, Multiplexer_

        T = system_scalar_type(self)
        n = int(num_positions)
        builder = DiagramBuilder_[T]()
        self._derivative = builder.AddSystem(
            DiscreteDerivative_[T](n, time_step, suppress_initial_transient)
        )
        mux = builder.AddSystem(Multiplexer_[T]([n, n]))
        port = builder.ExportInput(self._derivative.get_input_port(), "position")
        builder.ConnectInput(port, mux.get_input_port(0))
        builder.Connect(self._derivative.get_output_port(), mux.get_input_port(1))
        builder.ExportOutput(mux.get_output_port(0), "state")
        builder.BuildInto(self)

    def suppress_initial_transient(self):
        return self._derivative.suppress_initial_transient()

    def _derivative_state(self, state):
        if isinstance(state, Context):
            self.ValidateContext(state)
            return self.GetMutableSubsystemState(self._derivative, state)
        return state  # (this Diagram's State: the derivative's groups come first)

    @overloads("context, position", "state, position")
    def set_initial_position(self, *args, **kwargs):
        """Sets the history so that the output is [position, 0]: in ``context`` (this
        Diagram's Context) or ``state`` (its State)."""
        _, values = call_form(
            StateInterpolatorWithDiscreteDerivative.set_initial_position,
            args,
            kwargs,
            accept=lambda form, v: isinstance(next(iter(v.values())), Context) == (form == 0),
        )
        state, position = values.values()
        state = self._derivative_state(state)
        self._derivative.set_input_history(state, position, position)

    def set_initial_state(self, state, position, velocity):
        """Sets the history so that the output is [position, velocity] (u[n−1] = position −
        h·velocity): in ``state`` (this Diagram's State, or its Context)."""
        state = self._derivative_state(state)
        position = np.asarray(position, dtype=float).reshape(-1)
        velocity = np.asarray(velocity, dtype=float).reshape(-1)
        previous = position - self._derivative.time_step() * velocity
        self._derivative.set_input_history(state, position, previous)
