"""Simulator: advances a System's Context through time, integrating its continuous state and
handling its events when Drake's Simulator does.

The timing rules (Drake's, checked against pydrake):

* Initialize(): initialization events (unrestricted, then discrete updates, then publishes),
  then the publishes of per-step events and of periodic events due at the start time, then
  the forced publishes if set_publish_at_initialization, then the monitor. Periodic and
  per-step *updates* due at the start time are left pending.
* Each step of AdvanceTo(): the pending unrestricted then discrete updates (per-step ones
  before periodic ones, per leaf system), then the continuous state is integrated toward the
  next periodic event time (updates and publishes, at most one maximum step, never past the
  boundary time), then the per-step publishes and, if the step reached an event time, that
  time's publishes; then the forced publishes if set_publish_every_time_step, then the
  monitor. The step counts even when it did not advance time.
* Updates due at the time AdvanceTo() stops at stay pending until the next AdvanceTo() or
  AdvancePendingEvents(); publishes at that time happen before it returns. So a logger
  publishing at t sees the state before the updates at t.
* Periodic event times are offset + k·period computed afresh (not accumulated); events of
  different systems or periods trigger together only when those times are equal.
* The times (the Context's, the boundary, the event times) are scalars of the system's type
  T, as Drake's Simulator<T> has them: an AutoDiffXd boundary time, or an error-controlled
  step, gives the final time and state derivatives. The statuses and statistics hold their
  double values.
* A handler returning EventStatus.Failed raises RuntimeError (updates are then not
  applied; all publishes still run); ReachedTermination makes AdvanceTo() return at the
  current time with that status.
"""

import math
import time

from mallard.systems.analysis._compiled_advance import CompiledAdvance
from mallard.systems.analysis._explicit_integrators import RungeKutta3Integrator
from mallard.systems.analysis._integrator_base import IntegratorBase, StepResult, double_value
from mallard.systems.analysis._interrupts import keyboard_interrupt_held
from mallard.systems.analysis._simulator_status import InitializeParams, SimulatorStatus
from mallard.systems.framework._context import as_time
from mallard.systems.framework._event_dispatch import _EMPTY, EventPlan
from mallard.systems.framework._events import EventStatus

_DEFAULT_INITIAL_STEP_SIZE_TARGET = 1e-4
_DEFAULT_MAX_STEP_SIZE = 0.1
_DEFAULT_ACCURACY = 1e-4
_INF = math.inf
_DID_NOTHING = EventStatus.DidNothing()
_TRIGGERING = (StepResult.kReachedUpdateTime, StepResult.kReachedPublishTime)


class Simulator:
    """``Simulator(system, context=None)``: simulates ``system`` from ``context`` (by default
    a new default Context), with a RungeKutta3Integrator (maximum step 0.1 s, accuracy 1e-4,
    first step 1e-4 s)."""

    def __init__(self, system, context=None):
        if context is None:
            context = system.CreateDefaultContext()
        else:
            system.ValidateContext(context)
        self._system = system
        self._context = context
        integrator = RungeKutta3Integrator(system, context)
        integrator.request_initial_step_size_target(_DEFAULT_INITIAL_STEP_SIZE_TARGET)
        integrator.set_maximum_step_size(_DEFAULT_MAX_STEP_SIZE)
        integrator.set_target_accuracy(_DEFAULT_ACCURACY)
        integrator.Initialize()
        self._integrator = integrator
        self._monitor = None
        self._target_realtime_rate = 0.0
        self._publish_every_time_step = False
        self._publish_at_initialization = False
        self._initialization_done = False
        self._last_known_simtime = math.nan
        self._plan = None
        self._compiled = None  # the CompiledAdvance (see _compiled_advance), if any
        self._per_step = _EMPTY
        self._timed = _EMPTY
        self._time_triggered = False
        self._num_steps_taken = 0
        self._num_discrete_updates = 0
        self._num_unrestricted_updates = 0
        self._num_publishes = 0
        self._initial_simtime = double_value(context.get_time())
        self._initial_realtime = time.perf_counter()

    # ---- initialization ------------------------------------------------------------------
    def Initialize(self, params=None):
        """Prepares to simulate from the Context's time and state and handles the
        initialization events (see the module docstring); returns a SimulatorStatus."""
        if self._context is None:
            raise RuntimeError("Initialize(): Context has not been set.")
        params = params if params is not None else InitializeParams()
        context = self._context
        self._initialization_done = False
        current_time = context.get_time()
        status = SimulatorStatus(double_value(current_time))
        self._integrator.Initialize()
        self.ResetStatistics()
        plan = self._plan = EventPlan(self._system, context)
        self._compiled = CompiledAdvance.make(self, plan)
        init = _EMPTY if params.suppress_initialization_events else plan.initialization
        self._per_step = self._timed = _EMPTY
        self._time_triggered = False
        worst = self._handle_unrestricted(init.unrestricted)
        self._throw_if_failed(worst, status)
        worst = _keep(worst, self._handle_discrete(init.discrete))
        self._throw_if_failed(worst, status)
        if not worst.reached_termination():
            self._per_step = plan.per_step
            before = math.nextafter(double_value(current_time), -_INF)
            next_time, timed = plan.next_update(before)
            self._timed = timed
            self._time_triggered = next_time == current_time
            merged = plan.merged(init, plan.per_step, timed if self._time_triggered else _EMPTY)
            worst = _keep(worst, self._handle_publish(merged.publish))
            if self._publish_at_initialization:
                worst = _keep(worst, self._handle_publish(plan.forced.publish))
            if self._monitor is not None:
                worst = _keep(worst, self._call_monitor())
            self._throw_if_failed(worst, status)
        if worst.reached_termination():
            status.SetReachedTermination(
                double_value(context.get_time()), worst.system(), worst.message()
            )
        self._last_known_simtime = double_value(context.get_time())
        self._initialization_done = True
        return status

    # ---- advancing -------------------------------------------------------------------------
    def AdvanceTo(self, boundary_time, interruptible=True):
        """Advances to ``boundary_time`` (a real number or a T; Initialize()-ing first if
        needed); returns a SimulatorStatus (early return if a handler or the monitor asked
        for termination). ``interruptible=False`` holds Ctrl+C (SIGINT) until it returns."""
        if not interruptible:
            with keyboard_interrupt_held():
                return self.AdvanceTo(boundary_time)
        if not self._initialization_done:
            status = self.Initialize()
            if not status.succeeded():
                return status
        context = self._context
        if self._last_known_simtime != context._time:
            raise RuntimeError(
                "Simulation time has changed since last Initialize() or AdvanceTo(). "
                "Resetting simulation time requires a call to Initialize()."
            )
        T = type(context._time)
        if T is float:
            boundary_time = float(boundary_time)
        else:
            boundary_time = as_time(boundary_time, T, "Simulator.AdvanceTo(): boundary_time")
        if not boundary_time >= context._time:
            raise RuntimeError(
                "Simulator::AdvanceTo(): the boundary time "
                f"{double_value(boundary_time)} is before the current time "
                f"{double_value(context._time)}"
            )
        status = SimulatorStatus(double_value(boundary_time))
        plan = self._plan
        integrator = self._integrator
        per_step = self._per_step
        merged = plan.merged(per_step, self._timed if self._time_triggered else _EMPTY)
        forced_publish = plan.forced.publish
        realtime = self._target_realtime_rate > 0
        compiled = self._compiled
        while True:
            if realtime:
                self._pause_if_too_fast()
            worst = _DID_NOTHING
            done = None if compiled is None else compiled.advance(self, merged, boundary_time)
            if done is not None:
                # Iterations taken compiled: the last one ended at ``timed``'s time if
                # ``triggered``; its publishes are handled below.
                iterations, timed, triggered, discrete, unrestricted = done
                self._num_discrete_updates += discrete
                self._num_unrestricted_updates += unrestricted
            else:
                iterations = 1
                if merged.unrestricted:
                    worst = self._handle_unrestricted(merged.unrestricted)
                    self._throw_if_failed(worst, status)
                if merged.discrete:
                    worst = _keep(worst, self._handle_discrete(merged.discrete))
                    self._throw_if_failed(worst, status)
                if not worst.reached_termination():
                    next_time, timed = plan.next_update(context._time)
                    if timed is _EMPTY:
                        result = integrator.IntegrateNoFurtherThanTime(_INF, _INF, boundary_time)
                    else:
                        next_update = next_time if timed.has_updates() else _INF
                        next_publish = next_time if timed.publish else _INF
                        result = integrator.IntegrateNoFurtherThanTime(
                            next_publish, next_update, boundary_time
                        )
                    triggered = result in _TRIGGERING
            if not worst.reached_termination():
                self._timed, self._time_triggered = timed, triggered
                self._num_steps_taken += iterations
                merged = plan.merged(per_step, timed) if triggered else per_step
                if merged.publish:
                    worst = _keep(worst, self._handle_publish(merged.publish))
                if self._publish_every_time_step:
                    worst = _keep(worst, self._handle_publish(forced_publish))
                if self._monitor is not None:
                    worst = _keep(worst, self._call_monitor())
                if worst._severity == EventStatus.Severity.kFailed:
                    self._throw_if_failed(worst, status)
            if worst.reached_termination():
                status.SetReachedTermination(
                    double_value(context._time), worst.system(), worst.message()
                )
                break
            if context._time >= boundary_time:
                break
        self._last_known_simtime = double_value(context._time)
        return status

    def AdvancePendingEvents(self):
        """Handles the updates pending at the current time (and that time's per-step
        publishes) without advancing time."""
        return self.AdvanceTo(self._context.get_time())

    # ---- event handling ------------------------------------------------------------------
    def _handle_unrestricted(self, groups):
        if not groups:
            return _DID_NOTHING
        status = self._plan.calc_unrestricted(groups)
        if status.did_nothing() or status.failed():
            return status
        self._plan.apply_unrestricted(groups)
        self._num_unrestricted_updates += 1
        return status

    def _handle_discrete(self, groups):
        if not groups:
            return _DID_NOTHING
        status = self._plan.calc_discrete(groups)
        if status.did_nothing() or status.failed():
            return status
        self._plan.apply_discrete(groups)
        self._num_discrete_updates += 1
        return status

    def _handle_publish(self, groups):
        if not groups:
            return _DID_NOTHING
        status = self._plan.publish(groups)
        if not (status.did_nothing() or status.failed()):
            self._num_publishes += 1
        return status

    def _call_monitor(self):
        result = self._monitor(self._context)
        if result is None:
            return _DID_NOTHING
        if not isinstance(result, EventStatus):
            raise TypeError(
                f"Simulator: the monitor returned {type(result).__name__}; it must return an "
                "EventStatus or None"
            )
        return result

    def _throw_if_failed(self, worst, status):
        if worst.failed():
            status.SetEventHandlerFailed(
                double_value(self._context.get_time()), worst.system(), worst.message()
            )
            raise RuntimeError(status.FormatMessage())

    # ---- realtime --------------------------------------------------------------------------
    def _pause_if_too_fast(self):
        simtime_passed = double_value(self._context.get_time()) - self._initial_simtime
        desired = self._initial_realtime + simtime_passed / self._target_realtime_rate
        delay = desired - time.perf_counter()
        if delay > 0:
            time.sleep(delay)

    def set_target_realtime_rate(self, realtime_rate):
        """Slows the simulation down to at most ``realtime_rate`` × real time (0: as fast
        as possible)."""
        self._target_realtime_rate = max(float(realtime_rate), 0.0)

    def get_target_realtime_rate(self):
        return self._target_realtime_rate

    def get_actual_realtime_rate(self):
        """Simulated time over real time since Initialize() or ResetStatistics()."""
        simtime_passed = double_value(self._context.get_time()) - self._initial_simtime
        return simtime_passed / (time.perf_counter() - self._initial_realtime)

    # ---- publishing options ------------------------------------------------------------------
    def set_publish_every_time_step(self, publish):
        """Also run the forced publish events at the end of every step."""
        self._publish_every_time_step = bool(publish)

    def get_publish_every_time_step(self):
        return self._publish_every_time_step

    def set_publish_at_initialization(self, publish):
        """Also run the forced publish events at Initialize()."""
        self._publish_at_initialization = bool(publish)

    # ---- monitor ---------------------------------------------------------------------------
    def set_monitor(self, monitor):
        """``monitor(root_context)`` after Initialize() and every step; it may return an
        EventStatus: ReachedTermination ends AdvanceTo(), Failed raises."""
        if not callable(monitor):
            raise TypeError("Simulator.set_monitor(): the monitor must be callable")
        self._monitor = monitor

    def get_monitor(self):
        return self._monitor

    def clear_monitor(self):
        self._monitor = None

    # ---- context, system and integrator ------------------------------------------------
    def get_context(self):
        return self._context

    def get_mutable_context(self):
        return self._context

    def has_context(self):
        return self._context is not None

    def reset_context(self, context):
        """Simulates ``context`` (a Context of the system, or None) from now on; the next
        AdvanceTo() Initialize()s."""
        if context is not None:
            self._system.ValidateContext(context)
        self._context = context
        self._integrator.reset_context(context)
        self._initialization_done = False

    def get_system(self):
        return self._system

    def get_integrator(self):
        return self._integrator

    def get_mutable_integrator(self):
        return self._integrator

    def reset_integrator(self, integrator, *args, **kwargs):
        """Replaces the integrator; returns the new one. ``integrator`` is an integrator of
        this Simulator's system (its Context becomes the Simulator's) or an integrator class,
        constructed as ``integrator(system, *args, context=...)`` (as Drake's
        reset_integrator<Integrator>(args...)). The next AdvanceTo() Initialize()s."""
        if isinstance(integrator, type):
            integrator = integrator(self._system, *args, context=self._context, **kwargs)
        elif args or kwargs:
            raise TypeError("Simulator.reset_integrator(): arguments given with an integrator")
        if not isinstance(integrator, IntegratorBase):
            raise TypeError(
                f"Simulator.reset_integrator(): expected an integrator, got "
                f"{type(integrator).__name__}"
            )
        if integrator.get_system() is not self._system:
            raise RuntimeError(
                "Simulator.reset_integrator(): the integrator integrates another system"
            )
        integrator.reset_context(self._context)
        self._integrator = integrator
        self._initialization_done = False
        return integrator

    # ---- statistics ------------------------------------------------------------------------
    def ResetStatistics(self):
        """Forgets the statistics (and restarts the realtime clock)."""
        self._integrator.ResetStatistics()
        self._num_steps_taken = 0
        self._num_discrete_updates = 0
        self._num_unrestricted_updates = 0
        self._num_publishes = 0
        self._initial_simtime = double_value(self._context.get_time())
        self._initial_realtime = time.perf_counter()

    def get_num_steps_taken(self):
        return self._num_steps_taken

    def get_num_discrete_updates(self):
        return self._num_discrete_updates

    def get_num_unrestricted_updates(self):
        return self._num_unrestricted_updates

    def get_num_publishes(self):
        return self._num_publishes


def _keep(worst, candidate):
    """The more severe of two statuses (the first if equal)."""
    return candidate if candidate._severity > worst._severity else worst
