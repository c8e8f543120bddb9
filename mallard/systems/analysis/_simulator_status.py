"""SimulatorStatus: why Simulator.Initialize() / AdvanceTo() returned, and InitializeParams."""

import enum

from mallard.systems.framework._event_dispatch import _fmt, format_system_id


class SimulatorStatus:
    """The boundary time asked for, the time reached and why: the boundary was reached, a
    handler or monitor asked for termination, or a handler failed."""

    class ReturnReason(enum.IntEnum):
        kReachedBoundaryTime = 0
        kReachedTerminationCondition = 1
        kEventHandlerFailed = 2

        def __str__(self):
            return f"ReturnReason.{self.name}"

    __slots__ = ("_boundary_time", "_return_time", "_reason", "_system", "_message")

    def __init__(self, boundary_time):
        self._boundary_time = float(boundary_time)
        self._return_time = float(boundary_time)
        self._reason = SimulatorStatus.ReturnReason.kReachedBoundaryTime
        self._system = None
        self._message = ""

    def SetReachedTermination(self, termination_time, system, message):
        self._set(termination_time, SimulatorStatus.ReturnReason.kReachedTerminationCondition)
        self._system, self._message = system, message

    def SetEventHandlerFailed(self, failure_time, system, message):
        self._set(failure_time, SimulatorStatus.ReturnReason.kEventHandlerFailed)
        self._system, self._message = system, message

    def _set(self, time, reason):
        self._return_time = float(time)
        self._reason = reason

    def boundary_time(self):
        return self._boundary_time

    def return_time(self):
        return self._return_time

    def reason(self):
        return self._reason

    def system(self):
        return self._system

    def message(self):
        return self._message

    def succeeded(self):
        return self._reason == SimulatorStatus.ReturnReason.kReachedBoundaryTime

    def FormatMessage(self):
        """A sentence saying why the Simulator returned, as Drake words it."""
        if self._reason == SimulatorStatus.ReturnReason.kReachedBoundaryTime:
            return (
                f"Simulator successfully reached the boundary time ({_fmt(self._boundary_time)})."
            )
        system_id = format_system_id(self._system)
        if self._reason == SimulatorStatus.ReturnReason.kReachedTerminationCondition:
            return (
                f"Simulator returned early at time {_fmt(self._return_time)} because "
                f'{system_id} requested termination with message: "{self._message}"'
            )
        return (
            f"Simulator stopped at time {_fmt(self._return_time)} because {system_id} failed "
            f'with message: "{self._message}"'
        )

    def IsIdenticalStatus(self, other):
        return (
            self._boundary_time == other._boundary_time
            and self._return_time == other._return_time
            and self._reason == other._reason
            and self._system is other._system
            and self._message == other._message
        )

    def __repr__(self):
        return f"<SimulatorStatus: {self.FormatMessage()}>"


class InitializeParams:
    """Options of Simulator.Initialize(): ``suppress_initialization_events``."""

    __slots__ = ("suppress_initialization_events",)

    def __init__(self, suppress_initialization_events=False):
        self.suppress_initialization_events = bool(suppress_initialization_events)

    def __repr__(self):
        return (
            "InitializeParams(suppress_initialization_events="
            f"{self.suppress_initialization_events})"
        )
