"""The results of SceneGraph's proximity queries (pydrake.geometry's PenetrationAsPointPair,
SignedDistancePair, SignedDistanceToPoint): records of ids, one scalar and 3-vectors of the
query's scalar type (float, or AutoDiffXd for a QueryObject of a SceneGraph_[AutoDiffXd]).

A query's records share its results (a _Shared: its read-only array of rows, per record the
scalar then the vectors, and the geometry indices of its ids); a record holds only them and
its index, so that a query returning thousands of results makes one small object per result
and nothing else. What the attributes read is made for the whole query on the first read of
one (the lists of ids and of scalars, the columns of each vector): an id or the scalar is then
an item of a list, a vector a read-only view of a row (as pydrake's: read-only, a Python float
for the scalar). Setting an attribute gives the record its own copy of its row and ids first.
"""

import gc
from itertools import repeat

import numpy as np

from mallard._template import TemplateClass


class _Shared:
    """What a query's records share: ``rows`` (k, columns), read-only; ``of``, the geometry
    indices of the ids ((k,) or (k, 2)) and the list of ids they index (GeometryId, or what a
    record was given); and, made on first use, the id lists, the scalars' list and the
    vectors' columns. A value type (its rows are converted with the record's scalar type)."""

    __slots__ = ("rows", "of", "_ids", "_scalars", "_vectors")

    def __init__(self, rows, indices, ids):
        rows.setflags(write=False)  # (cheaper than through rows.flags)
        self.rows, self.of = rows, (indices, ids)
        self._ids = self._scalars = None
        self._vectors = {}

    def id_columns(self):
        """Per id attribute, the list of the records' ids."""
        if self._ids is None:
            indices, ids = self.of
            columns = (indices,) if indices.ndim == 1 else indices.T
            self._ids = tuple([list(map(ids.__getitem__, c.tolist())) for c in columns])
        return self._ids

    def scalars(self):
        """The records' scalars (a list of Python floats, or of AutoDiffXd)."""
        if self._scalars is None:
            self._scalars = self.rows[:, 0].tolist()
        return self._scalars

    def vectors(self, start):
        """The (k, 3) view of the records' vectors at columns start..start + 2."""
        view = self._vectors.get(start)
        if view is None:
            view = self._vectors[start] = self.rows[:, start : start + 3]
        return view


#: (A record of a scalar type other than float converts its _Shared's rows.)
_Shared_ = TemplateClass("_Shared_", _Shared)


class _Id:
    """An id attribute, the record's entry of the query's ids ``column``."""

    def __init__(self, column):
        self.column = column

    def __get__(self, record, owner=None):
        if record is None:
            return self
        q = record._q
        return (q._ids or q.id_columns())[self.column][record._i]

    def __set__(self, record, value):
        row, ids = record._own()
        ids[self.column] = value
        record._keep(row, ids)


class _Scalar:
    """The scalar attribute, element 0 of the record's row."""

    def __get__(self, record, owner=None):
        if record is None:
            return self
        q = record._q
        return (q._scalars or q.scalars())[record._i]

    def __set__(self, record, value):
        row, ids = record._own()
        row[0] = value
        record._keep(row, ids)


class _Vector:
    """A 3-vector attribute, elements start..start + 2 of the record's row."""

    def __init__(self, start):
        self.start = start

    def __get__(self, record, owner=None):
        if record is None:
            return self
        view = record._q._vectors.get(self.start)
        if view is None:
            view = record._q.vectors(self.start)
        return view[record._i]

    def __set__(self, record, value):
        a = np.asarray(value)
        if a.shape not in ((3,), (3, 1)):
            raise TypeError(f"{type(record).__name__}: a 3-vector is expected, got shape {a.shape}")
        row, ids = record._own(a.dtype == object)
        row[self.start : self.start + 3] = a.reshape(3)
        record._keep(row, ids)


class _Record:
    """A record of ids, a scalar and 3-vectors (see the module); built by keyword."""

    __slots__ = ("_q", "_i")
    _IDS = ()
    _SCALAR = ""
    _VECTORS = ()

    def __init__(self, **kwargs):
        self._keep(np.zeros(1 + 3 * len(self._VECTORS)), [None] * len(self._IDS))
        for name in self._IDS:
            if name in kwargs:
                setattr(self, name, kwargs.pop(name))
        for name in (self._SCALAR, *self._VECTORS):
            if name in kwargs:
                setattr(self, name, kwargs.pop(name))
        if kwargs:
            raise TypeError(f"{type(self).__name__}(): unexpected arguments {sorted(kwargs)}")

    def _own(self, need_object=False):
        """(row, ids) for _keep: a writable copy of the record's row (of object dtype if
        ``need_object`` or already) and a list of its ids."""
        q, i = self._q, self._i
        dtype = object if need_object or q.rows.dtype == object else float
        return q.rows[i].astype(dtype), [column[i] for column in q.id_columns()]

    def _keep(self, row, ids):
        """Makes ``row`` and ``ids`` (a list) the record's own results."""
        indices = np.arange(len(ids), dtype=np.int64)
        self._q = _Shared(row[None], indices if len(ids) == 1 else indices[None], ids)
        self._i = 0

    def __repr__(self):
        names = (*self._IDS, self._SCALAR, *self._VECTORS)
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{type(self).__name__}({fields})"


class PenetrationAsPointPair(_Record):
    """The penetration of geometries A and B: Ca on A's surface and Cb on B's surface are the
    points of each deepest inside the other; nhat_BA_W (unit, in World) points out of B into
    A; depth = (p_WCb − p_WCa)·nhat_BA_W > 0."""

    __slots__ = ()
    _IDS = ("id_A", "id_B")
    id_A, id_B = _Id(0), _Id(1)
    _SCALAR = "depth"
    _VECTORS = ("nhat_BA_W", "p_WCa", "p_WCb")
    depth = _Scalar()
    nhat_BA_W, p_WCa, p_WCb = _Vector(1), _Vector(4), _Vector(7)


class SignedDistancePair(_Record):
    """The signed distance between geometries A and B (negative when they overlap), its
    witness points Ca on A (p_ACa, in A's frame) and Cb on B (p_BCb, in B's frame), and
    nhat_BA_W, the direction (in World) in which A moving away from B increases the distance
    fastest."""

    __slots__ = ()
    _IDS = ("id_A", "id_B")
    id_A, id_B = _Id(0), _Id(1)
    _SCALAR = "distance"
    _VECTORS = ("nhat_BA_W", "p_ACa", "p_BCb")
    distance = _Scalar()
    nhat_BA_W, p_ACa, p_BCb = _Vector(1), _Vector(4), _Vector(7)


class SignedDistanceToPoint(_Record):
    """The signed distance from a query point Q to geometry G (negative inside), the point N
    of G's surface nearest Q (p_GN, in G's frame) and the gradient grad_W of the distance with
    respect to Q's position (a unit vector in World)."""

    __slots__ = ()
    _IDS = ("id_G",)
    id_G = _Id(0)
    _SCALAR = "distance"
    _VECTORS = ("p_GN", "grad_W")
    distance = _Scalar()
    p_GN, grad_W = _Vector(1), _Vector(4)


PenetrationAsPointPair_ = TemplateClass("PenetrationAsPointPair_", PenetrationAsPointPair)
SignedDistancePair_ = TemplateClass("SignedDistancePair_", SignedDistancePair)
SignedDistanceToPoint_ = TemplateClass("SignedDistanceToPoint_", SignedDistanceToPoint)


def records(kind, rows, ids, indices):
    """A ``kind`` record per row of the results array ``rows``, with the ids of the geometries
    ``indices`` names ((k,) for a geometry's record, (k, 2) (A, B) for a pair's) among
    ``ids`` (a list): the records share ``rows`` (made read-only) and ``indices``, which the
    caller must not change or reuse. The garbage collector is paused while they are made, if
    it runs: else it would scan the young objects once per 700 records, and its older
    generations more often."""
    k = len(indices)
    if not k:
        return []
    shared = _Shared(rows, indices, ids)
    paused = k > _PAUSE_GC_FROM and gc.isenabled()
    if paused:
        gc.disable()
    try:
        made = list(map(object.__new__, repeat(kind, k)))
        for i, record in enumerate(made):
            record._q = shared
            record._i = i
        return made
    finally:
        if paused:
            gc.enable()


#: How many records a query makes before records() pauses the garbage collector.
_PAUSE_GC_FROM = 100
