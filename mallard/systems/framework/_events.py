"""Events of a System: what the Simulator triggers (periodic, per-step, initialization,
forced) and what they do (publish, discrete update, unrestricted update).

A LeafSystem keeps its declared events as EventDeclaration records. The Simulator gathers
them from a (Diagram's) System with the leaf Context each belongs to, and dispatches them.
"""

import enum

from mallard.common._pybind import call_form, overloads


class TriggerType(enum.IntEnum):
    """What triggers an event (as Drake's TriggerType)."""

    __module__ = "mallard.systems.framework"  # (its public path: pickles name it)

    kUnknown = 0
    kInitialization = 1
    kForced = 2
    kTimed = 3
    kPeriodic = 4
    kPerStep = 5
    kWitness = 6

    def __repr__(self):
        return f"<TriggerType.{self.name}: {self.value}>"

    def __str__(self):
        return f"TriggerType.{self.name}"


class EventKind(enum.IntEnum):
    """What an event does."""

    kPublish = 0
    kDiscreteUpdate = 1
    kUnrestrictedUpdate = 2


class EventStatus:
    """What an event handler returns (or None for success): its severity and a message."""

    class Severity(enum.IntEnum):
        kDidNothing = 0
        kSucceeded = 1
        kReachedTermination = 2
        kFailed = 3

        def __str__(self):
            return f"Severity.{self.name}"

    __slots__ = ("_severity", "_system", "_message")

    def __init__(self, severity, system=None, message=""):
        self._severity = severity
        self._system = system
        self._message = message

    @staticmethod
    def DidNothing():
        return EventStatus(EventStatus.Severity.kDidNothing)

    @staticmethod
    def Succeeded():
        return EventStatus(EventStatus.Severity.kSucceeded)

    @staticmethod
    def ReachedTermination(system, message):
        return EventStatus(EventStatus.Severity.kReachedTermination, system, message)

    @staticmethod
    def Failed(system, message):
        return EventStatus(EventStatus.Severity.kFailed, system, message)

    def severity(self):
        return self._severity

    def message(self):
        return self._message

    def system(self):
        return self._system

    def did_nothing(self):
        return self._severity == EventStatus.Severity.kDidNothing

    def succeeded(self):
        return self._severity == EventStatus.Severity.kSucceeded

    def reached_termination(self):
        return self._severity == EventStatus.Severity.kReachedTermination

    def failed(self):
        return self._severity == EventStatus.Severity.kFailed

    def KeepMoreSevere(self, candidate):
        """Replaces this status by ``candidate`` if that is more severe (so that the first of
        the worst is kept); returns this status."""
        if candidate._severity > self._severity:
            self._severity = candidate._severity
            self._system = candidate._system
            self._message = candidate._message
        return self

    def __repr__(self):
        return f"EventStatus({self._severity.name}, message={self._message!r})"


class PeriodicEventData:
    """The period and offset of a periodic event."""

    __slots__ = ("_period_sec", "_offset_sec")

    def __init__(self, period_sec, offset_sec):
        self._period_sec = float(period_sec)
        self._offset_sec = float(offset_sec)

    def period_sec(self):
        return self._period_sec

    def offset_sec(self):
        return self._offset_sec

    def __eq__(self, other):
        return isinstance(other, PeriodicEventData) and (
            (self._period_sec, self._offset_sec) == (other._period_sec, other._offset_sec)
        )

    def __hash__(self):
        return hash((self._period_sec, self._offset_sec))

    def __repr__(self):
        return f"PeriodicEventData(period_sec={self._period_sec}, offset_sec={self._offset_sec})"


class EventDeclaration:
    """One declared event of a LeafSystem: its trigger, kind, timing and handler.

    The handler is called as ``handler(context)`` for publishes, ``handler(context,
    discrete_state)`` for discrete updates and ``handler(context, state)`` for unrestricted
    updates (the second argument holds the current values, to be modified in place); it may
    return an EventStatus.
    """

    __slots__ = ("trigger", "kind", "period_sec", "offset_sec", "handler")

    def __init__(self, trigger, kind, handler, period_sec=None, offset_sec=None):
        self.trigger = trigger
        self.kind = kind
        self.handler = handler
        self.period_sec = period_sec
        self.offset_sec = offset_sec


class Event:
    """An event object (pydrake's advanced declaration form): a trigger type and a callback,
    declared with LeafSystem.DeclarePeriodicEvent / DeclarePerStepEvent /
    DeclareInitializationEvent (or DeclareForcedEvent)."""

    _kind = None

    @overloads(
        "callback", "system_callback", "trigger_type, callback", "trigger_type, system_callback"
    )
    def __init__(self, *args, **kwargs):
        """``(callback)``, ``(system_callback)``, ``(trigger_type, callback)`` or
        ``(trigger_type, system_callback)``: ``callback(context, event, ...)`` or
        ``system_callback(system, context, event, ...)`` (by keyword only: a positional
        callable is a ``callback``, as in pydrake)."""
        _, values = call_form(Event.__init__, args, kwargs, type(self).__name__)
        trigger_type = values.get("trigger_type", TriggerType.kUnknown)
        callback = values.get("callback", values.get("system_callback"))
        if not callable(callback):
            raise TypeError(f"{type(self).__name__}(): the callback must be callable")
        self._trigger_type = TriggerType(trigger_type)
        self._callback = callback
        self._with_system = "system_callback" in values

    def get_trigger_type(self):
        return self._trigger_type

    def _with_trigger(self, trigger_type):
        clone = object.__new__(type(self))
        clone._trigger_type = trigger_type
        clone._callback = self._callback
        clone._with_system = self._with_system
        return clone

    def _handler(self, system):
        """The handler as EventDeclaration calls it, for an event declared by ``system``: the
        callback also gets this event (and a system_callback the system first)."""
        callback = self._callback
        if self._with_system:
            return lambda context, *buffer: callback(system, context, self, *buffer)
        return lambda context, *buffer: callback(context, self, *buffer)


class PublishEvent(Event):
    """An event whose callback ``callback(context, event)`` publishes."""

    _kind = EventKind.kPublish


class DiscreteUpdateEvent(Event):
    """An event whose callback ``callback(context, event, discrete_state)`` sets the next
    discrete state."""

    _kind = EventKind.kDiscreteUpdate


class UnrestrictedUpdateEvent(Event):
    """An event whose callback ``callback(context, event, state)`` sets the next state."""

    _kind = EventKind.kUnrestrictedUpdate
