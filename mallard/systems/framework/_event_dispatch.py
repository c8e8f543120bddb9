"""Gathering and dispatching the events of a System (a LeafSystem or a Diagram's leaves), as
Drake's event collections and dispatchers do; used by the Simulator and by System's
ExecuteInitializationEvents, ExecuteForcedEvents, CalcForced*Update and
EvalUniquePeriodicDiscreteUpdate.

An EventPlan lists a System's leaves (system, Context) in Diagram order and sorts their
declared events by trigger. An EventCollection holds, per kind of event, the events to handle
together as [(leaf index, [EventDeclaration...])] in leaf order; within a leaf, events keep
the order of the collections merged and then of declaration (Drake's AddToEnd).

Dispatch follows Drake's rules:

* updates are computed from the current Context into scratch copies of each leaf's state
  (initialized to the current values and shared by that leaf's events, in order), then copied
  into the Context; a failure stops the dispatch at once and nothing is applied;
* every publish handler runs even if one fails;
* the status returned is the first of the most severe (EventStatus.KeepMoreSevere); a handler
  returning None succeeded.
"""

import copy
import math

from mallard.common.value import Value
from mallard.systems.framework._events import EventKind, EventStatus, TriggerType
from mallard.systems.framework._sample_times import next_sample_time

_KINDS = (EventKind.kUnrestrictedUpdate, EventKind.kDiscreteUpdate, EventKind.kPublish)
_SUCCEEDED = int(EventStatus.Severity.kSucceeded)
_TERMINATION = int(EventStatus.Severity.kReachedTermination)
_FAILED = int(EventStatus.Severity.kFailed)


class EventCollection:
    """Events to handle together: for each kind, [(leaf index, [EventDeclaration...])]."""

    __slots__ = ("unrestricted", "discrete", "publish")

    def __init__(self, unrestricted=(), discrete=(), publish=()):
        self.unrestricted = list(unrestricted)
        self.discrete = list(discrete)
        self.publish = list(publish)

    def has_events(self):
        return bool(self.unrestricted or self.discrete or self.publish)

    def has_updates(self):
        return bool(self.unrestricted or self.discrete)

    def _kind(self, kind):
        if kind == EventKind.kUnrestrictedUpdate:
            return self.unrestricted
        if kind == EventKind.kDiscreteUpdate:
            return self.discrete
        return self.publish


_EMPTY = EventCollection()


def _merge_groups(group_lists):
    """Merges [(leaf index, events)] lists: leaf order, each leaf's events in list order."""
    by_leaf = {}
    for groups in group_lists:
        for index, events in groups:
            by_leaf.setdefault(index, []).extend(events)
    return [(index, by_leaf[index]) for index in sorted(by_leaf)]


def merge(collections):
    """One EventCollection of ``collections`` (in order)."""
    collections = [c for c in collections if c.has_events()]
    if not collections:
        return _EMPTY
    if len(collections) == 1:
        return collections[0]
    return EventCollection(
        _merge_groups([c.unrestricted for c in collections]),
        _merge_groups([c.discrete for c in collections]),
        _merge_groups([c.publish for c in collections]),
    )


class EventPlan:
    """The events of ``system`` in ``context`` (its Context), sorted by trigger."""

    def __init__(self, system, context):
        self.system = system
        self.context = context
        self.leaves = system._leaf_contexts(context)
        self.num_declared = sum(len(leaf._events) for leaf, _ in self.leaves)
        # Where each leaf's continuous state, discrete groups and abstract states start in
        # the whole system's.
        self.offsets = []
        xc = xd = xa = 0
        for _, leaf_context in self.leaves:
            self.offsets.append((xc, xd, xa))
            state = leaf_context._state
            xc += state._continuous.size()
            xd += len(state._discrete._groups)
            xa += len(state._abstract._values)
        groups = {
            trigger: {kind: [] for kind in _KINDS}
            for trigger in (TriggerType.kInitialization, TriggerType.kPerStep, TriggerType.kForced)
        }
        timings = {}  # (period, offset) -> timing index
        self._periodic = []  # per leaf: [(timing index, EventDeclaration)] in declaration order
        for index, (leaf, _) in enumerate(self.leaves):
            periodic = []
            per_trigger = {}
            for event in leaf._events:
                if event.trigger == TriggerType.kPeriodic:
                    key = (event.period_sec, event.offset_sec)
                    periodic.append((timings.setdefault(key, len(timings)), event))
                elif event.trigger in groups:
                    per_trigger.setdefault((event.trigger, event.kind), []).append(event)
            self._periodic.append(periodic)
            for (trigger, kind), events in per_trigger.items():
                groups[trigger][kind].append((index, events))
        self.initialization = self._collection(groups[TriggerType.kInitialization])
        self.per_step = self._collection(groups[TriggerType.kPerStep])
        self.forced = self._collection(groups[TriggerType.kForced])
        self.timings = sorted(timings, key=timings.get)  # [(period, offset)] by index
        self._timed_cache = {}
        self._merge_cache = {}
        self._discrete_buffers = {}
        self._state_buffers = {}

    @staticmethod
    def _collection(by_kind):
        return EventCollection(
            by_kind[EventKind.kUnrestrictedUpdate],
            by_kind[EventKind.kDiscreteUpdate],
            by_kind[EventKind.kPublish],
        )

    # ---- timed events ----------------------------------------------------------------------
    def timed(self, hits):
        """The EventCollection of the periodic events of the timings ``hits`` (a tuple of
        timing indices), each leaf's in declaration order."""
        collection = self._timed_cache.get(hits)
        if collection is None:
            by_kind = {kind: [] for kind in _KINDS}
            for index, periodic in enumerate(self._periodic):
                per_kind = {}
                for timing, event in periodic:
                    if timing in hits:
                        per_kind.setdefault(event.kind, []).append(event)
                for kind, events in per_kind.items():
                    by_kind[kind].append((index, events))
            collection = self._timed_cache[hits] = self._collection(by_kind)
        return collection

    def next_update(self, time):
        """(t, EventCollection): the first time after ``time`` at which periodic events
        trigger, and those events; (inf, empty) if there are none."""
        best = math.inf
        hits = ()
        for index, (period, offset) in enumerate(self.timings):
            t = next_sample_time(period, offset, time)
            if t < best:
                best, hits = t, (index,)
            elif t == best:
                hits += (index,)
        if not hits:
            return best, _EMPTY
        return best, self.timed(hits)

    def merged(self, *collections):
        """``merge(collections)``, remembered."""
        key = tuple(id(c) for c in collections)
        collection = self._merge_cache.get(key)
        if collection is None:
            collection = self._merge_cache[key] = merge(collections)
        return collection

    def unique_periodic_discrete_timing(self, method):
        """(period, offset) of the only timing of periodic discrete update events; None if
        there are none; RuntimeError (naming ``method``) if there are several."""
        found = []
        for periodic in self._periodic:
            for timing, event in periodic:
                if event.kind == EventKind.kDiscreteUpdate and timing not in found:
                    found.append(timing)
        if len(found) > 1:
            (p0, o0), (p1, o1) = self.timings[found[0]], self.timings[found[1]]
            raise RuntimeError(
                f"{method}(): found more than one periodic timing that triggers discrete update "
                f"events. Timings were (offset,period)=({_fmt(o0)},{_fmt(p0)}) and "
                f"({_fmt(o1)},{_fmt(p1)})."
            )
        return found[0] if found else None

    def periodic_discrete_events(self, timing):
        """The EventCollection of the periodic discrete update events of ``timing``."""
        by_kind = {kind: [] for kind in _KINDS}
        for index, periodic in enumerate(self._periodic):
            events = [e for t, e in periodic if t == timing and e.kind == EventKind.kDiscreteUpdate]
            if events:
                by_kind[EventKind.kDiscreteUpdate].append((index, events))
        return self._collection(by_kind)

    # ---- scratch buffers -----------------------------------------------------------------
    def discrete_buffer(self, index):
        buffer = self._discrete_buffers.get(index)
        if buffer is None:
            context = self.leaves[index][1]
            buffer = self._discrete_buffers[index] = context._state._discrete.Clone()
        return buffer

    def state_buffer(self, index):
        buffer = self._state_buffers.get(index)
        if buffer is None:
            context = self.leaves[index][1]
            buffer = self._state_buffers[index] = context._state.Clone()
        return buffer

    def copy_discrete_buffers(self, groups, discrete_values):
        """Copies the scratch DiscreteValues of the leaves of ``groups`` into their groups of
        ``discrete_values`` (the whole system's)."""
        for index, _ in groups:
            offset = self.offsets[index][1]
            for j, group in enumerate(self._discrete_buffers[index]._groups):
                discrete_values._groups[offset + j].SetFromVector(group._data)

    def copy_state_buffers(self, groups, state):
        """Copies the scratch States of the leaves of ``groups`` into their parts of ``state``
        (the whole system's)."""
        for index, _ in groups:
            buffer = self._state_buffers[index]
            xc, xd, xa = self.offsets[index]
            n = buffer._continuous.size()
            if n:
                vector = state._continuous._vector
                vector._data[xc : xc + n] = buffer._continuous._vector._data
                vector._changed()
            for j, group in enumerate(buffer._discrete._groups):
                state._discrete._groups[xd + j].SetFromVector(group._data)
            for j, value in enumerate(buffer._abstract._values):
                state._abstract.get_mutable(xa + j).SetFrom(value)

    # ---- dispatch ------------------------------------------------------------------------
    def calc_unrestricted(self, groups):
        """Runs the unrestricted update handlers of ``groups`` into the scratch States;
        returns the EventStatus."""
        accumulated = _Accumulator()
        for index, events in groups:
            system, context = self.leaves[index]
            buffer = self.state_buffer(index)
            _copy_state(context._state, buffer)
            for event in events:
                accumulated.add(event.handler(context, buffer), system)
                if accumulated.severity == _FAILED:
                    return accumulated.status()
        return accumulated.status()

    def apply_unrestricted(self, groups):
        """Copies the scratch States into the Contexts (abstract values by reference: the
        scratch copy is remade before it is used again)."""
        for index, _ in groups:
            context = self.leaves[index][1]
            state, buffer = context._state, self._state_buffers[index]
            vector = state._continuous._vector
            if vector._data.shape[0]:
                vector._data[:] = buffer._continuous._vector._data
                vector._changed()
            for mine, theirs in zip(state._discrete._groups, buffer._discrete._groups, strict=True):
                mine._data[:] = theirs._data
            for mine, theirs in zip(state._abstract._values, buffer._abstract._values, strict=True):
                mine._value = theirs._value
            context._state_changed()

    def calc_discrete(self, groups):
        """Runs the discrete update handlers of ``groups`` into the scratch DiscreteValues;
        returns the EventStatus."""
        accumulated = _Accumulator()
        for index, events in groups:
            system, context = self.leaves[index]
            buffer = self.discrete_buffer(index)
            for mine, theirs in zip(buffer._groups, context._state._discrete._groups, strict=True):
                mine._data[:] = theirs._data
            for event in events:
                accumulated.add(event.handler(context, buffer), system)
                if accumulated.severity == _FAILED:
                    return accumulated.status()
        return accumulated.status()

    def apply_discrete(self, groups):
        for index, _ in groups:
            context = self.leaves[index][1]
            for mine, theirs in zip(
                context._state._discrete._groups, self._discrete_buffers[index]._groups, strict=True
            ):
                mine._data[:] = theirs._data
            context._state_changed()

    def publish(self, groups):
        """Runs every publish handler of ``groups``; returns the EventStatus."""
        accumulated = _Accumulator()
        for index, events in groups:
            system, context = self.leaves[index]
            for event in events:
                accumulated.add(event.handler(context), system)
        return accumulated.status()


class _CopyOnWrite(Value):
    """An abstract value of a scratch State: the Context's object until the handler asks to
    modify it in place (then a deep copy) or replaces it."""

    __slots__ = ("_copied",)

    def __init__(self, value=None):
        super().__init__(value)
        self._copied = False

    def get_mutable_value(self):
        if not self._copied:
            self._value = copy.deepcopy(self._value)
            self._copied = True
        return self._value

    def set_value(self, value):
        self._value = value
        self._copied = True

    def SetFrom(self, other):
        Value.SetFrom(self, other)
        self._copied = True


def _copy_state(state, buffer):
    """Sets the scratch State ``buffer`` to ``state`` (abstract values copied on write)."""
    buffer._continuous._vector._data[:] = state._continuous._vector._data
    for mine, theirs in zip(buffer._discrete._groups, state._discrete._groups, strict=True):
        mine._data[:] = theirs._data
    values = buffer._abstract._values
    for i, value in enumerate(state._abstract._values):
        mine = values[i]
        if type(mine) is not _CopyOnWrite:
            mine = values[i] = _CopyOnWrite()
        mine._value = value._value
        mine._copied = False


class _Accumulator:
    """The first of the most severe statuses returned by handlers (None counts as
    Succeeded)."""

    __slots__ = ("severity", "_worst")

    def __init__(self):
        self.severity = 0
        self._worst = None

    def add(self, result, system):
        if result is None:
            if self.severity < _SUCCEEDED:
                self.severity = _SUCCEEDED
            return
        if not isinstance(result, EventStatus):
            raise TypeError(
                f"An event handler of System {system.GetSystemPathname()} returned "
                f"{type(result).__name__}; it must return an EventStatus or None"
            )
        if result._severity > self.severity:
            self.severity = int(result._severity)
            self._worst = result

    def status(self):
        if self._worst is not None:
            worst = self._worst
            return EventStatus(worst._severity, worst._system, worst._message)
        if self.severity == _SUCCEEDED:
            return EventStatus.Succeeded()
        return EventStatus.DidNothing()


def _fmt(x):
    """A double as fmt prints it (shortest round trip, no trailing '.0')."""
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def format_system_id(system):
    """``{type} System '{pathname}'`` (as Drake's status messages name a system)."""
    if system is None:
        return "System"
    head, bracket, tail = system.GetSystemType().partition("<")
    kind = head.rsplit("::", 1)[-1] + bracket + tail
    return f"{kind} System '{system.GetSystemPathname()}'"


def throw_on_failure(status, function_name):
    """RuntimeError naming ``function_name`` if ``status`` failed."""
    if status.failed():
        raise RuntimeError(
            f"{function_name}(): An event handler in {format_system_id(status.system())} "
            f'failed with message: "{status.message()}".'
        )


def execute(plan, collection, function_name, publish=True):
    """Handles ``collection`` now, as ExecuteInitializationEvents / ExecuteForcedEvents do:
    unrestricted updates, then discrete updates, then (if ``publish``) publishes; a failure
    raises."""
    if collection.unrestricted:
        status = plan.calc_unrestricted(collection.unrestricted)
        throw_on_failure(status, function_name)
        plan.apply_unrestricted(collection.unrestricted)
    if collection.discrete:
        status = plan.calc_discrete(collection.discrete)
        throw_on_failure(status, function_name)
        plan.apply_discrete(collection.discrete)
    if publish and collection.publish:
        throw_on_failure(plan.publish(collection.publish), function_name)


def context_signature(context):
    """The serial numbers of everything ``context``'s computations depend on."""
    leaves = getattr(context, "_leaves", None) or (context,)
    return tuple((c._serial_t, c._serial_q, c._serial_v, c._serial_p, c._serial_u) for c in leaves)


def plan_for(system, context):
    """The EventPlan of ``system`` in ``context``, remembered in the Context (rebuilt if
    events were declared since)."""
    plan = context._cache.get("event_plan")
    if plan is None or plan.num_declared != sum(
        len(leaf._events) for leaf, _ in system._leaf_contexts(context)
    ):
        plan = context._cache["event_plan"] = EventPlan(system, context)
    return plan
