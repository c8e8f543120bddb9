"""Cache entries a LeafSystem declares (DeclareCacheEntry): a value computed from a Context and
kept in it until one of its prerequisites changes.

A Context stamps its sources with serial numbers (see _context): time ``t``, positions ``q``,
velocities and the rest of the state ``v``, parameters ``p``, inputs ``u``. A ticket maps to
the sources it covers; an entry is up to date while the stamps of its sources are those it was
computed with. The map is conservative where the stamps are coarser than Drake's tickets
(every discrete or abstract state change stamps q and v; the accuracy stamps everything; an
input depends on time too, as it may come from a system whose output does).
"""

from mallard.common.value import AbstractValue

_ALL = ("t", "q", "v", "p", "u")
#: The Context sources each ticket kind covers.
_SOURCES = {
    "nothing": (),
    "time": ("t",),
    "accuracy": ("t",),  # (SetAccuracy stamps every source)
    "q": ("q",),
    "v": ("v",),
    "z": ("v",),
    "xc": ("q", "v"),
    "xd": ("q", "v"),
    "xa": ("q", "v"),
    "all_state": ("q", "v"),
    "discrete_state": ("q", "v"),
    "abstract_state": ("q", "v"),
    "pn": ("p",),
    "pa": ("p",),
    "all_parameters": ("p",),
    "numeric_parameter": ("p",),
    "abstract_parameter": ("p",),
    "input_port": ("u",),
    "all_input_ports": ("u",),
    "all_sources_except_input_ports": ("t", "q", "v", "p"),
    "all_sources": _ALL,
    "configuration": ("q", "p"),
    "kinematics": ("q", "v", "p"),
    "xcdot": _ALL,
    "pe": _ALL,
    "ke": _ALL,
    "pc": _ALL,
    "pnc": _ALL,
}


class ValueProducer:
    """``ValueProducer(allocate, calc)``: ``allocate()`` returns a new AbstractValue (a plain
    value is wrapped), ``calc(context, value)`` sets that AbstractValue from ``context``."""

    __slots__ = ("_allocate", "_calc")

    def __init__(self, allocate, calc):
        if not callable(allocate) or not callable(calc):
            raise TypeError("ValueProducer(allocate, calc): both must be callable")
        self._allocate = allocate
        self._calc = calc

    def Allocate(self):
        value = self._allocate()
        return value if isinstance(value, AbstractValue) else AbstractValue.Make(value)

    def Calc(self, context, value):
        self._calc(context, value)


class CacheEntry:
    """A declared cache entry (``LeafSystem.DeclareCacheEntry``): ``Eval(context)`` is its
    value in ``context``, recomputed only when a prerequisite changed since the last
    computation (or always, where caching is disabled)."""

    __slots__ = ("_system", "_index", "_description", "_producer", "_prerequisites", "_off")

    def __init__(self, system, index, description, producer, prerequisites):
        self._system = system
        self._index = index
        self._description = str(description)
        self._producer = producer
        self._prerequisites = prerequisites  # None: all sources
        self._off = False  # disabled by default

    def cache_index(self):
        from mallard.systems.framework._indices import CacheIndex

        return CacheIndex(self._index)

    def description(self):
        return self._description

    def ticket(self):
        """The DependencyTicket of this entry's value (a prerequisite of other computations)."""
        return self._system.cache_entry_ticket(self._index)

    def prerequisites(self):
        """The declared DependencyTickets (all_sources_ticket() by default)."""
        if self._prerequisites is None:
            return {self._system.all_sources_ticket()}
        return set(self._prerequisites)

    def has_default_prerequisites(self):
        return self._prerequisites is None

    def _sources(self, seen=()):
        """The Context sources this entry depends on (through other entries too)."""
        if self._prerequisites is None:
            return _ALL
        sources = set()
        for ticket in self._prerequisites:
            if ticket._kind == "cache_entry":
                index = int(ticket._index)
                if index in seen or index == self._index:
                    raise RuntimeError(
                        f"CacheEntry '{self._description}': its prerequisites depend on "
                        "themselves through cache entry tickets"
                    )
                entry = self._system.get_cache_entry(index)
                sources.update(entry._sources((*seen, self._index)))
            else:
                sources.update(_SOURCES[ticket._kind])
        if "u" in sources:  # (an input may come from a system whose output depends on time)
            sources.add("t")
        return tuple(s for s in _ALL if s in sources)

    def _stamps(self, context):
        return tuple(getattr(context, f"_serial_{s}") for s in self._sources())

    def _slot(self, context):
        self._system.ValidateContext(context)
        return context._cache.get(("cache_entry", self._index))

    def is_out_of_date(self, context):
        """Whether ``Eval`` would recompute the value in ``context``."""
        slot = self._slot(context)
        return (
            slot is None
            or self.is_cache_entry_disabled(context)
            or slot[0] != self._stamps(context)
        )

    def EvalAbstract(self, context):
        """The value in ``context``, as an AbstractValue (recomputed if out of date)."""
        slot = self._slot(context)
        stamps = self._stamps(context)
        if slot is None:
            slot = [None, self._producer.Allocate(), self._off]
            context._cache[("cache_entry", self._index)] = slot
        if slot[0] != stamps or slot[2]:
            self._producer.Calc(context, slot[1])
            slot[0] = stamps
        return slot[1]

    def Eval(self, context):
        """The value in ``context`` (recomputed if out of date)."""
        return self.EvalAbstract(context).get_value()

    def disable_caching(self, context):
        """Recompute on every Eval in ``context``."""
        self._mutable_slot(context)[2] = True

    def enable_caching(self, context):
        """Recompute in ``context`` only when out of date (the default)."""
        self._mutable_slot(context)[2] = False

    def is_cache_entry_disabled(self, context):
        slot = self._slot(context)
        return self._off if slot is None else slot[2]

    def disable_caching_by_default(self):
        """Recompute on every Eval in the Contexts where this entry has not been evaluated
        yet (Drake: the Contexts allocated from now on)."""
        self._off = True

    def is_disabled_by_default(self):
        return self._off

    def _mutable_slot(self, context):
        slot = self._slot(context)
        if slot is None:
            slot = [None, self._producer.Allocate(), self._off]
            context._cache[("cache_entry", self._index)] = slot
        return slot
