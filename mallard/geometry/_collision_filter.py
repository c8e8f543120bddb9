"""Collision filters (pydrake.geometry's GeometrySet, CollisionFilterDeclaration and
CollisionFilterManager) and the filter state a SceneGraph keeps.

The candidate pairs of proximity queries are the pairs of distinct proximity geometries that
are neither both anchored nor both on one (non-world) frame (Drake's invariants, which no
declaration changes), less the pairs excluded by declarations. A declaration is a sequence of
statements evaluated in order; its GeometrySets are resolved to the proximity geometries they
name when it is applied (a frame stands for the geometries on it at that moment). Persistent
declarations change the excluded pairs; transient ones are a history applied on top of them,
each removable by its FilterId.
"""

import copy

from mallard.common._pybind import call_form, overloads
from mallard.geometry._geometry_version import next_key
from mallard.geometry._identifiers import FilterId, FrameId, GeometryId, id_text


def _ids(value, kind):
    """A list of ids of ``kind`` from one id or an iterable of them (TypeError otherwise)."""
    if isinstance(value, kind):
        return [value]
    try:
        ids = list(value)
    except TypeError:
        raise TypeError(f"GeometrySet: expected ids, got {value!r}") from None
    for x in ids:
        if not isinstance(x, kind):
            raise TypeError(f"GeometrySet: expected ids of one kind, got {x!r}")
    return ids


_SET_FORMS = (
    "",
    "geometry_id",
    "frame_id",
    "geometry_ids",
    "frame_ids",
    "geometry_ids, frame_ids",
)


class GeometrySet:
    """A set of geometries named by GeometryId or by the FrameId of the frame they are on.

    ``GeometrySet()``, ``GeometrySet(geometry_id)``, ``GeometrySet(frame_id)``,
    ``GeometrySet(geometry_ids)``, ``GeometrySet(frame_ids)`` or
    ``GeometrySet(geometry_ids, frame_ids)``; ``Add`` takes the same arguments.
    """

    __slots__ = ("_geometries", "_frames")

    @overloads(lambda: _SET_FORMS)
    def __init__(self, *args, **kwargs):
        self._geometries = {}  # ordered sets
        self._frames = {}
        if args or kwargs:
            self.Add(*args, **kwargs)

    @overloads(lambda: _SET_FORMS[1:])
    def Add(self, *args, **kwargs):
        if len(args) == 1 and not kwargs:  # one id or list: its kind decides
            value = args[0]
            if not isinstance(value, GeometryId | FrameId):
                value = _ids(value, GeometryId | FrameId)
            first = value if isinstance(value, GeometryId | FrameId) else next(iter(value), None)
            name = "frame_ids" if isinstance(first, FrameId) else "geometry_ids"
            values = {name: value}
        else:
            values = call_form(GeometrySet.Add, args, kwargs, "GeometrySet.Add")[1]
        for name, value in values.items():
            if name.startswith("geometry"):
                self._geometries.update(dict.fromkeys(_ids(value, GeometryId)))
            else:
                self._frames.update(dict.fromkeys(_ids(value, FrameId)))

    def __deepcopy__(self, memo):
        """A copy holding the same ids (immutable values: its two ordered sets copied, not
        each id in them)."""
        copied = object.__new__(GeometrySet)
        copied._geometries, copied._frames = dict(self._geometries), dict(self._frames)
        return copied

    def __repr__(self):
        geometries = [id_text(g) for g in self._geometries]
        frames = [id_text(f) for f in self._frames]
        return f"GeometrySet(geometries={geometries}, frames={frames})"


_EXCLUDE, _ALLOW = "exclude", "allow"


class CollisionFilterDeclaration:
    """Statements that exclude pairs from, or allow pairs back into, the candidate set; each
    method appends a statement and returns this declaration."""

    __slots__ = ("_statements",)

    def __init__(self):
        self._statements = []  # (kind, set A, set B or None for "within")

    def _append(self, kind, set_A, set_B=None):
        for s in (set_A, set_B):
            if s is not None and not isinstance(s, GeometrySet):
                raise TypeError(f"expected a GeometrySet, got {type(s).__name__}")
        self._statements.append((kind, copy.deepcopy(set_A), copy.deepcopy(set_B)))
        return self

    def ExcludeWithin(self, geometry_set):
        """Excludes every pair of geometries of ``geometry_set``."""
        return self._append(_EXCLUDE, geometry_set)

    def ExcludeBetween(self, set_A, set_B):
        """Excludes every pair (a, b) with a in ``set_A`` and b in ``set_B``."""
        return self._append(_EXCLUDE, set_A, set_B)

    def AllowWithin(self, geometry_set):
        """Allows every pair of geometries of ``geometry_set`` (Drake's invariants stay)."""
        return self._append(_ALLOW, geometry_set)

    def AllowBetween(self, set_A, set_B):
        """Allows every pair (a, b) with a in ``set_A`` and b in ``set_B`` (not the pairs
        within either set; Drake's invariants stay)."""
        return self._append(_ALLOW, set_A, set_B)


def _pair(a, b):
    """The key of the unordered pair {a, b}."""
    return (a, b) if a < b else (b, a)


def _pairs(A, B):
    """The pairs of distinct geometries within A (B is None) or between A and B."""
    if B is None:
        A = sorted(A)
        return {(a, b) for i, a in enumerate(A) for b in A[i + 1 :]}
    return {_pair(a, b) for a in A for b in B if a != b}


class CollisionFilterState:
    """The excluded pairs of a SceneGraph (its model's or a Context's) and the transient
    history on top of them: [(FilterId, [(kind, pairs)])]; ``serial`` counts the changes
    (those made through :meth:`changed`); ``version`` is the key of their proximity version
    (GeometryVersion), new each time a CollisionFilterManager of them is taken."""

    def __init__(self):
        self.excluded = set()
        self.transient = []
        self.serial = 0
        self.version = next_key()

    def changed(self):
        """Marks a change of the filters (what caches of them check)."""
        self.serial += 1

    def excluded_pairs(self):
        """The pairs the persistent declarations exclude."""
        return self.excluded

    def transient_pairs(self):
        """(a, b, excluded) for every pair a transient statement names, in the order the
        statements apply (a later one overrides an earlier one)."""
        for _, statements in self.transient:
            for kind, pairs in statements:
                for a, b in pairs:
                    yield a, b, kind == _EXCLUDE

    def is_excluded(self, pair):
        """Whether the (sorted) pair is excluded by the declarations (invariants aside)."""
        excluded = pair in self.excluded
        for _, statements in self.transient:
            for kind, pairs in statements:
                if pair in pairs:
                    excluded = kind == _EXCLUDE
        return excluded

    def remove_geometry(self, geometry_id):
        """Forgets the filters of a geometry that lost its proximity role."""
        self.excluded = {p for p in self.excluded if geometry_id not in p}
        for _, statements in self.transient:
            for i, (kind, pairs) in enumerate(statements):
                statements[i] = (kind, {p for p in pairs if geometry_id not in p})
        self.changed()


class CollisionFilterManager:
    """Changes the collision filters of a SceneGraph's model or of one of its Contexts (get
    one from ``SceneGraph.collision_filter_manager()``)."""

    def __init__(self, scene_graph, state):
        self._sg = scene_graph
        self._state = state

    def _resolve(self, declaration):
        """[(kind, pairs)] of a declaration, its sets resolved to proximity geometries."""
        if not isinstance(declaration, CollisionFilterDeclaration):
            raise TypeError(
                f"expected a CollisionFilterDeclaration, got {type(declaration).__name__}"
            )
        resolved = []
        for kind, set_A, set_B in declaration._statements:
            A = self._sg._proximity_geometries_of(set_A)
            B = None if set_B is None else self._sg._proximity_geometries_of(set_B)
            resolved.append((kind, _pairs(A, B)))
        return resolved

    def Apply(self, declaration):
        """Applies ``declaration`` to the persistent filters. RuntimeError if it names an id
        that is not registered, or if there is a transient history."""
        resolved = self._resolve(declaration)
        if self._state.transient:
            raise RuntimeError(
                "You cannot attempt to modify the persistent collision filter configuration "
                "when there are active, transient filter declarations"
            )
        for kind, pairs in resolved:
            if kind == _EXCLUDE:
                self._state.excluded |= pairs
            else:
                self._state.excluded -= pairs
        self._state.changed()

    def ApplyTransient(self, declaration):
        """Applies ``declaration`` as the newest transient declaration; returns its FilterId."""
        resolved = self._resolve(declaration)
        filter_id = FilterId.get_new_id()
        self._state.transient.append((filter_id, resolved))
        self._state.changed()
        return filter_id

    def IsActive(self, filter_id):
        """Whether the transient declaration ``filter_id`` is in the history."""
        return any(f == filter_id for f, _ in self._state.transient)

    def RemoveDeclaration(self, filter_id):
        """Removes the transient declaration ``filter_id``; returns whether it was active."""
        history = self._state.transient
        for i, (f, _) in enumerate(history):
            if f == filter_id:
                del history[i]
                self._state.changed()
                return True
        return False

    def has_transient_history(self):
        return bool(self._state.transient)
