"""The results of SceneGraph's proximity queries (pydrake.geometry's PenetrationAsPointPair,
SignedDistancePair, SignedDistanceToPoint): records of ids, one scalar and 3-vectors of the
query's scalar type (float, or AutoDiffXd for a QueryObject of a SceneGraph_[AutoDiffXd]).

A query's records share its results: its array of rows (per record the scalar, then the
vectors) and per id attribute the list of ids; a record holds only them and its index. Its
attributes read its row (the vectors are views of it) and its ids; setting one writes them
(a vector or the scalar into a row copied out for the record first), so that a query
returning thousands of results makes one small object per result and nothing else.
"""

import gc

import numpy as np

from mallard._template import TemplateClass


class _Id:
    """An id attribute, the record's entry of the query's ids list ``column``."""

    def __init__(self, column):
        self.column = column

    def __get__(self, record, owner=None):
        if record is None:
            return self
        return record._ids[self.column][record._i]

    def __set__(self, record, value):
        record._ids[self.column][record._i] = value


class _Scalar:
    """The scalar attribute, element 0 of the record's row."""

    def __get__(self, record, owner=None):
        return self if record is None else record._rows[record._i, 0]

    def __set__(self, record, value):
        record._own()[0] = value


class _Vector:
    """A 3-vector attribute, elements start..start + 2 of the record's row."""

    def __init__(self, start):
        self.start = start

    def __get__(self, record, owner=None):
        if record is None:
            return self
        return record._rows[record._i, self.start : self.start + 3]

    def __set__(self, record, value):
        a = np.asarray(value)
        if a.shape not in ((3,), (3, 1)):
            raise TypeError(f"{type(record).__name__}: a 3-vector is expected, got shape {a.shape}")
        row = record._own(a.dtype == object)
        row[self.start : self.start + 3] = a.reshape(3)


class _Record:
    """A record of ids, a scalar and 3-vectors (see the module); built by keyword."""

    __slots__ = ("_rows", "_ids", "_i")
    _IDS = ()
    _SCALAR = ""
    _VECTORS = ()

    def __init__(self, **kwargs):
        self._rows = np.zeros((1, 1 + 3 * len(self._VECTORS)))
        self._ids = tuple([None] for _ in self._IDS)
        self._i = 0
        for name in self._IDS:
            setattr(self, name, kwargs.pop(name, None))
        for name in (self._SCALAR, *self._VECTORS):
            if name in kwargs:
                setattr(self, name, kwargs.pop(name))
        if kwargs:
            raise TypeError(f"{type(self).__name__}(): unexpected arguments {sorted(kwargs)}")

    def _own(self, need_object=False):
        """The record's row, made its own (copied out of a query's shared results, with its
        ids) and of object dtype if ``need_object``."""
        rows, i = self._rows, self._i
        if rows.shape[0] != 1 or (need_object and rows.dtype != object):
            dtype = object if need_object or rows.dtype == object else float
            self._rows = rows[i : i + 1].astype(dtype)
            self._ids = tuple([column[i]] for column in self._ids)
            self._i = 0
        return self._rows[0]

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
    ``ids`` (a list): the records share ``rows``, which the caller must not reuse.
    The garbage collector is paused while they are made, if it runs: else it would scan the
    young objects once per 700 records, and its older generations more often."""
    k = len(indices)
    if not k:
        return []
    columns = (indices,) if indices.ndim == 1 else indices.T
    shared = tuple([list(map(ids.__getitem__, c.tolist())) for c in columns])
    paused = k > _PAUSE_GC_FROM and gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _made(kind, rows, shared, k)
    finally:
        if paused:
            gc.enable()


#: How many records a query makes before records() pauses the garbage collector.
_PAUSE_GC_FROM = 100


def _made(kind, rows, ids, k):
    new = object.__new__
    out = []
    append = out.append
    for i in range(k):
        r = new(kind)
        r._rows = rows
        r._ids = ids
        r._i = i
        append(r)
    return out
