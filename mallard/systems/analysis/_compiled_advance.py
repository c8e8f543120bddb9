"""The Simulator's compiled advance: many iterations of its loop in one compiled call, when
nothing needs Python between them.

The Simulator's loop (see _simulator) takes, per iteration, the pending updates, then a step
of the integrator toward the next event or the boundary, then the publishes due. When the
only state that changes is one leaf system's, and that leaf can step it itself (a leaf whose
``_compiled_stepper()`` returns a stepper: the MultibodyPlant's, multibody.plant._stepping),
the iterations between other systems' events are that leaf's alone: a discrete plant's
periodic updates, or a continuous plant's integration steps (explicit Euler, RK2, RK3). A
CompiledAdvance hands those iterations to the leaf's stepper, which takes them in one
compiled call exactly as the loop would (the same states, times and statistics to the last
bit), then tells the Context and the integrator what changed. The loop goes on in Python
from the first iteration that ends at another event (whose publishes it handles) or at the
boundary.

It applies when, at the start of the iterations:

* the Simulator has no monitor, no target realtime rate, no per-step events, and does not
  publish every step;
* every other leaf is stateless or has only discrete or abstract state (changed by its own
  events, which end the compiled iterations), and no other leaf has events at the times of
  the discrete plant's update;
* the continuous state is the stepping leaf's alone, integrated by an ExplicitEuler, RK2 or
  RK3 integrator of float64 values;
* the inputs the stepper reads do not change between events: unconnected, fixed, or
  connected (possibly through Diagram input ports) to another system's output that depends
  on nothing but its parameters and its discrete or abstract state (a ConstantVectorSource,
  a ZeroOrderHold); and the stepper accepts the Context (see multibody.plant._stepping).

Otherwise the Simulator takes every iteration in Python, as before.
"""

import math

import numpy as np

from mallard.systems.analysis._explicit_integrators import (
    ExplicitEulerIntegrator,
    RungeKutta2Integrator,
    RungeKutta3Integrator,
)
from mallard.systems.framework._events import EventKind
from mallard.systems.framework._ports import FixedInputPortValue, OutputPort
from mallard.systems.framework._sample_times import next_sample_time

_INF = math.inf


class CompiledAdvance:
    """The compiled advance of one Simulator's system and Context, made by
    :meth:`make` at Initialize(): the stepping leaf and its stepper, the timing of its
    update (discrete) and the other timings (which end compiled iterations)."""

    def __init__(self, plan, index, stepper):
        self.plan = plan
        self.stepper = stepper
        self.leaf, self.leaf_context = plan.leaves[index]
        self._input_sources = None
        self._inputs_constant = False
        self._declined = None  # the leaf Context's (serial_u, serial_p) the stepper declined
        self._rules = None
        self.timing = None
        #: The pending updates the stepper takes itself: its own update, or none.
        self.updates = ([], [])
        if stepper.discrete:
            event = stepper.update_event
            self.timing = plan.timings.index((event.period_sec, event.offset_sec))
            own = [(index, [event])]
            self.updates = (own, []) if event.kind == EventKind.kUnrestrictedUpdate else ([], own)
        self._pending = {}  # id(collection) → (collection, whether it is stepped compiled)
        self.others = [t for i, t in enumerate(plan.timings) if i != self.timing]

    @classmethod
    def make(cls, simulator, plan):
        """The CompiledAdvance of ``simulator``'s system as ``plan`` (its EventPlan) lists
        it, or None if its structure never allows one (or its times are not floats)."""
        if type(simulator._context._time) is not float:
            return None
        found = None
        for index, (leaf, context) in enumerate(plan.leaves):
            state = context._state
            get_stepper = getattr(leaf, "_compiled_stepper", None)
            stepper = get_stepper() if get_stepper is not None else None
            if stepper is not None and stepper.possible:
                if found is not None:
                    return None  # (two leaves that step themselves)
                found = (index, stepper)
            elif state._continuous.size():
                return None  # (another leaf's continuous state)
        if found is None:
            return None
        advance = cls(plan, *found)
        if advance.stepper.discrete:
            updates = plan.timed((advance.timing,))
            if updates.publish or (updates.unrestricted, updates.discrete) != advance.updates:
                return None  # (other events at the update's times)
        return advance

    # ---- whether the compiled advance applies now -------------------------------------------
    def _inputs_are_constant(self):
        """Whether every input the stepper reads is constant between events (remembered
        until the Context's sources of those inputs change)."""
        inputs = self.leaf_context._inputs
        sources = tuple(inputs[index] for index in self.stepper.input_indices)
        if sources != self._input_sources:
            self._input_sources = sources
            self._inputs_constant = all(
                _constant_between_events(source, self.leaf) for source in sources
            )
        return self._inputs_constant

    def _steps_pending(self, merged):
        """Whether the pending updates of ``merged`` (its publishes are done) are none or
        the stepper's update alone (remembered per collection: the EventPlan keeps them)."""
        found = self._pending.get(id(merged))
        if found is None:
            pending = (merged.unrestricted, merged.discrete)
            found = self._pending[id(merged)] = (
                merged,
                pending in (([], []), self.updates),
            )
        return found[1]

    def ready(self, simulator, merged):
        """Whether the next iterations may go compiled: the pending updates of ``merged`` are
        none or the stepper's, and everything the module lists holds."""
        if not self._steps_pending(merged):
            return False
        if (
            simulator._monitor is not None
            or simulator._target_realtime_rate > 0
            or simulator._publish_every_time_step
            or simulator._per_step.has_events()
        ):
            return False
        if not self.stepper.discrete and not self._integrator_ready(simulator._integrator):
            return False
        if not self._inputs_are_constant():
            return False
        # (What the stepper checks depends on the leaf's inputs and parameters only.)
        context = self.leaf_context
        serials = (context._serial_u, context._serial_p)
        if serials == self._declined:
            return False
        if not self.stepper.prepare(context):
            self._declined = serials
            return False
        return True

    def _next_other_time(self, time):
        """The first time after ``time`` at which another timing's events trigger."""
        best = _INF
        for period, offset in self.others:
            t = next_sample_time(period, offset, time)
            if t < best:
                best = t
        return best

    # ---- advancing ---------------------------------------------------------------------------
    def advance(self, simulator, merged, boundary_time):
        """Takes iterations of ``simulator``'s loop compiled, if it can now (``merged``: the
        pending events); returns None if it took none, else (iterations, the events of the
        last one's end time (its ``timed`` collection), whether they were reached, the
        discrete updates and the unrestricted updates taken)."""
        if not self.ready(simulator, merged):
            return None
        context = simulator._context
        if self.stepper.discrete:
            return self._advance_discrete(context, merged, boundary_time)
        return self._advance_continuous(simulator._integrator, context, boundary_time)

    def _advance_discrete(self, context, merged, boundary_time):
        t = context._time
        others = self._next_other_time(t)
        t, pending, iterations, updates, _, t_last = self.stepper.discrete_steps(
            self.leaf_context, t, merged.has_updates(), others, boundary_time
        )
        if not iterations:
            return None
        context.SetTime(t)
        _, timed = self.plan.next_update(t_last)
        # The last iteration ended at an event time (rather than the boundary before it) if
        # the update is pending there or other events trigger.
        reached = pending or t == others
        if self.updates[0]:
            return iterations, timed, reached, 0, updates
        return iterations, timed, reached, updates, 0

    def _integrator_ready(self, integrator):
        return (
            type(integrator) in _SCHEMES
            and integrator._initialized
            and integrator._single
            and integrator._dtype == np.float64
        )

    def _advance_continuous(self, integrator, context, boundary_time):
        rules = self._rules
        if rules is None:
            from mallard.systems.analysis import _kernels as rules

            self._rules = rules
        next_time, timed = self.plan.next_update(context._time)
        control = np.empty(rules.CONTROL_SIZE)
        counts = np.empty(rules.COUNTS_SIZE, dtype=np.int64)
        control[rules.IDEAL_NEXT_STEP_SIZE] = integrator._ideal_next_step_size
        control[rules.REQ_INITIAL_STEP_SIZE] = integrator._req_initial_step_size
        control[rules.MAX_STEP_SIZE] = integrator._max_step_size
        control[rules.ACCURACY_IN_USE] = integrator._accuracy_in_use
        control[rules.REQ_MIN_STEP_SIZE] = integrator._req_min_step_size
        control[rules.ACTUAL_INITIAL_STEP_SIZE_TAKEN] = integrator._actual_initial_step_size_taken
        control[rules.SMALLEST_ADAPTED_STEP_SIZE_TAKEN] = (
            integrator._smallest_adapted_step_size_taken
        )
        control[rules.LARGEST_STEP_SIZE_TAKEN] = integrator._largest_step_size_taken
        control[rules.PREV_STEP_SIZE] = integrator._prev_step_size
        control[rules.PUBLISH_TIME] = next_time if timed.publish else _INF
        control[rules.UPDATE_TIME] = next_time if timed.has_updates() else _INF
        control[rules.BOUNDARY_TIME] = boundary_time
        control[rules.TIME] = context._time
        counts[rules.SCHEME] = getattr(rules, _SCHEMES[type(integrator)])
        counts[rules.FIXED_STEP_MODE] = integrator.get_fixed_step_mode()
        counts[rules.ERROR_ORDER] = integrator.get_error_estimate_order()
        counts[rules.THROWS] = integrator._min_step_exceeded_throws
        counts[rules.GROUPED] = integrator._grouped
        counts[rules.MAPPED] = bool(integrator._mapped) if hasattr(integrator, "_mapped") else 0
        counts[rules.NUM_STEPS_TAKEN] = integrator._num_steps_taken
        counts[rules.NUM_ODE_EVALS] = integrator._num_ode_evals
        counts[rules.NUM_SHRINKAGES_FROM_ERROR_CONTROL] = (
            integrator._num_shrinkages_from_error_control
        )
        iterations = self.stepper.explicit_steps(
            integrator._xc, _integrator_arrays(integrator), control, counts
        )
        if not iterations:
            return None
        values, numbers = control.tolist(), counts.tolist()
        integrator._ideal_next_step_size = values[rules.IDEAL_NEXT_STEP_SIZE]
        integrator._actual_initial_step_size_taken = values[rules.ACTUAL_INITIAL_STEP_SIZE_TAKEN]
        integrator._smallest_adapted_step_size_taken = values[
            rules.SMALLEST_ADAPTED_STEP_SIZE_TAKEN
        ]
        integrator._largest_step_size_taken = values[rules.LARGEST_STEP_SIZE_TAKEN]
        integrator._prev_step_size = values[rules.PREV_STEP_SIZE]
        integrator._num_steps_taken = numbers[rules.NUM_STEPS_TAKEN]
        integrator._num_ode_evals = numbers[rules.NUM_ODE_EVALS]
        integrator._num_shrinkages_from_error_control = numbers[
            rules.NUM_SHRINKAGES_FROM_ERROR_CONTROL
        ]
        integrator._derivatives_serial = -2  # (its last evaluation is not at the new state)
        integrator._notify_state_changed()
        context.SetTime(values[rules.TIME])
        result = numbers[rules.LAST_RESULT]
        reached = result in (rules.REACHED_PUBLISH, rules.REACHED_UPDATE)
        return iterations, timed, reached, 0, 0


#: The integrators the compiled stepping takes, and their scheme's name in
#: systems.analysis._kernels.
_SCHEMES = {
    ExplicitEulerIntegrator: "EXPLICIT_EULER",
    RungeKutta2Integrator: "RUNGE_KUTTA2",
    RungeKutta3Integrator: "RUNGE_KUTTA3",
}


def _integrator_arrays(integrator):
    """(K, x0, x0_save, err, scales, weights, qbar, scratch) of drive_explicit_steps, made
    once per workspace of the integrator."""
    arrays = integrator.__dict__.get("_compiled_arrays")
    if arrays is None or arrays[0] is not integrator._K:
        n = integrator._n
        weights = getattr(integrator, "_weights", None)
        mapped = getattr(integrator, "_mapped", None) or []
        qbar = mapped[0][2] if mapped else np.zeros(0)
        err = integrator._err if integrator.supports_error_estimation() else np.zeros(n)
        x0 = integrator._x0
        arrays = integrator._compiled_arrays = (
            integrator._K,
            x0,
            integrator._x0_save,
            err,
            integrator._scales,
            weights if weights is not None else np.zeros(n),
            qbar,
            np.empty(3 * n),
        )
    return arrays


#: The prerequisites of an output that keep it constant between events (when its system is
#: not the stepping leaf): parameters, and discrete or abstract state (changed by events).
_CONSTANT_BETWEEN_EVENTS = frozenset(
    ("nothing", "pn", "pa", "all_parameters", "numeric_parameter", "abstract_parameter")
    + ("xd", "xa", "discrete_state", "abstract_state")
)


def _constant_between_events(source, leaf):
    """Whether an input's source (a Context's entry for an input port of ``leaf``) keeps its
    value while only ``leaf``'s state and the time change: none, a fixed value, a Diagram
    input port whose source does, or an output port of another system depending on
    parameters and discrete or abstract state only."""
    if source is None or isinstance(source, FixedInputPortValue):
        return True
    port = getattr(source, "_port", None)
    if port is None:
        context, index = getattr(source, "_context", None), getattr(source, "_index", None)
        if context is None or index is None:
            return False
        return _constant_between_events(context._inputs[index], leaf)  # (a Diagram's input)
    if type(port) is not OutputPort or port._prerequisites is None or port._system is leaf:
        return False
    return all(ticket._kind in _CONSTANT_BETWEEN_EVENTS for ticket in port._prerequisites)
