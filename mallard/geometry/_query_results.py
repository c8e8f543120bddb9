"""The results of SceneGraph's proximity queries (pydrake.geometry's PenetrationAsPointPair,
SignedDistancePair, SignedDistanceToPoint): plain records whose vectors are numpy arrays of
the query's scalar type (float, or AutoDiffXd for a QueryObject of a SceneGraph_[AutoDiffXd]).
"""

import numpy as np

from mallard._template import TemplateClass


def _vector(value, name, kind):
    a = np.asarray(value)
    if a.dtype != object:
        a = a.astype(float)
    if a.shape not in ((3,), (3, 1)):
        raise TypeError(f"{kind}: {name} must be a 3-vector, got shape {a.shape}")
    return a.reshape(3)


class _Record:
    """A record of ids, vectors (3) and one scalar, set by keyword or attribute."""

    __slots__ = ()
    _IDS = ()
    _VECTORS = ()
    _SCALAR = ""

    def __init__(self, **kwargs):
        for name in self._IDS:
            setattr(self, name, kwargs.pop(name, None))
        for name in self._VECTORS:
            value = kwargs.pop(name, None)
            setattr(
                self,
                name,
                np.zeros(3) if value is None else _vector(value, name, type(self).__name__),
            )
        setattr(self, self._SCALAR, kwargs.pop(self._SCALAR, 0.0))
        if kwargs:
            raise TypeError(f"{type(self).__name__}(): unexpected arguments {sorted(kwargs)}")

    def __repr__(self):
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({fields})"


class PenetrationAsPointPair(_Record):
    """The penetration of geometries A and B: Ca on A's surface and Cb on B's surface are the
    points of each deepest inside the other; nhat_BA_W (unit, in World) points out of B into
    A; depth = (p_WCb − p_WCa)·nhat_BA_W > 0."""

    __slots__ = ("id_A", "id_B", "p_WCa", "p_WCb", "nhat_BA_W", "depth")
    _IDS = ("id_A", "id_B")
    _VECTORS = ("p_WCa", "p_WCb", "nhat_BA_W")
    _SCALAR = "depth"


class SignedDistancePair(_Record):
    """The signed distance between geometries A and B (negative when they overlap), its
    witness points Ca on A (p_ACa, in A's frame) and Cb on B (p_BCb, in B's frame), and
    nhat_BA_W, the direction (in World) in which A moving away from B increases the distance
    fastest."""

    __slots__ = ("id_A", "id_B", "p_ACa", "p_BCb", "distance", "nhat_BA_W")
    _IDS = ("id_A", "id_B")
    _VECTORS = ("p_ACa", "p_BCb", "nhat_BA_W")
    _SCALAR = "distance"


class SignedDistanceToPoint(_Record):
    """The signed distance from a query point Q to geometry G (negative inside), the point N
    of G's surface nearest Q (p_GN, in G's frame) and the gradient grad_W of the distance with
    respect to Q's position (a unit vector in World)."""

    __slots__ = ("id_G", "p_GN", "distance", "grad_W")
    _IDS = ("id_G",)
    _VECTORS = ("p_GN", "grad_W")
    _SCALAR = "distance"


PenetrationAsPointPair_ = TemplateClass("PenetrationAsPointPair_", PenetrationAsPointPair)
SignedDistancePair_ = TemplateClass("SignedDistancePair_", SignedDistancePair)
SignedDistanceToPoint_ = TemplateClass("SignedDistanceToPoint_", SignedDistanceToPoint)


def make(kind, ids, row, vectors):
    """A ``kind`` record from ids and a result row: the scalar first, then the vectors (3
    each) in the order ``vectors`` names them (no copies or checks: the rows are the
    caller's)."""
    record = object.__new__(kind)
    for name, value in zip(kind._IDS, ids, strict=True):
        setattr(record, name, value)
    setattr(record, kind._SCALAR, row[0])
    for i, name in enumerate(vectors):
        setattr(record, name, row[1 + 3 * i : 4 + 3 * i])
    return record
