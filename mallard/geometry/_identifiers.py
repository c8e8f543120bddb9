"""Identifiers of SceneGraph's sources, frames, geometries and filter declarations
(SourceId, FrameId, GeometryId, FilterId): process-wide counters, as Drake's."""

import itertools

from mallard.common._pybind import call_form

_MODULE = "mallard.geometry"
_next_id = itertools.count(1).__next__  # Drake's identifiers share one counter too.


class _Identifier:
    """A unique id of a kind (made only by ``get_new_id``)."""

    __slots__ = ("_value",)

    def __init__(self, *args, **kwargs):
        raise TypeError(f"{_MODULE}.{type(self).__name__}: No constructor defined!")

    @classmethod
    def get_new_id(cls):
        new = object.__new__(cls)
        new._value = _next_id()
        return new

    def get_value(self):
        return self._value

    def is_valid(self):
        return self._value != 0

    def __eq__(self, other):
        if type(other) is type(self):
            return self._value == other._value
        return NotImplemented

    def __lt__(self, other):
        if type(other) is type(self):
            return self._value < other._value
        return NotImplemented

    def __hash__(self):
        return hash((type(self).__name__, self._value))

    def __repr__(self):
        return f"<{type(self).__name__} value={self._value}>"


class SourceId(_Identifier):
    """Identifies a geometry source registered with a SceneGraph."""

    __slots__ = ()


class FrameId(_Identifier):
    """Identifies a geometry frame."""

    __slots__ = ()


class GeometryId(_Identifier):
    """Identifies a geometry."""

    __slots__ = ()


class FilterId(_Identifier):
    """Identifies a transient collision filter declaration."""

    __slots__ = ()


def id_text(identifier):
    """The value Drake prints for an identifier (or the object itself if it is none)."""
    return identifier.get_value() if isinstance(identifier, _Identifier) else identifier


_ID_KINDS = {"source_id": SourceId, "frame_id": FrameId, "geometry_id": GeometryId}


def id_argument(function, args, kwargs):
    """The values a call of ``function`` passes, per its declared forms (``overloads``) whose
    first parameter is one of ``source_id``, ``frame_id``, ``geometry_id``, told apart by the
    type of the id given: (the id, then the other values)."""

    def accept(_, values):
        name, value = next(iter(values.items()))
        return isinstance(value, _ID_KINDS[name])

    _, values = call_form(function, args, kwargs, function.__qualname__, accept)
    return tuple(values.values())
