"""Events of a System: what the Simulator triggers (periodic, per-step, initialization,
forced) and what they do (publish, discrete update, unrestricted update).

A LeafSystem keeps its declared events as EventDeclaration records. The Simulator gathers
them from a (Diagram's) System with the leaf Context each belongs to, and dispatches them.
"""

import enum


class TriggerType(enum.IntEnum):
    """What triggers an event (as Drake's TriggerType)."""

    kUnknown = 0
    kForced = 1
    kTimed = 2
    kPeriodic = 3
    kPerStep = 4
    kWitness = 5
    kInitialization = 6


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
