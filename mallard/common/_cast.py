"""``obj.cast[U]()`` of the value types pydrake gives it (RotationMatrix, RigidTransform,
Quaternion, AngleAxis, Isometry3): a copy with scalar type U."""

import copy

from mallard._template import _resolve, convert_value, scalar_type_of


class _BoundCast:
    __slots__ = ("_obj",)

    def __init__(self, obj):
        self._obj = obj

    def __getitem__(self, U):
        U = _resolve(U[0] if isinstance(U, tuple) else U)
        obj = self._obj
        T = scalar_type_of(obj)
        if T is not float and U is not T:
            # As Drake's: doubles cast to any scalar type, others only to themselves.
            raise RuntimeError(f"Invalid instantiation: cast[{U.__name__}]")
        return lambda: convert_value(copy.deepcopy(obj), U)

    def __repr__(self):
        return f"<bound cast of {self._obj!r}>"


class Cast:
    """The ``cast`` attribute: ``obj.cast[U]()`` is a copy of ``obj`` with scalar type U
    (doubles become constants; a non-double value casts only to its own type)."""

    def __get__(self, obj, owner=None):
        return self if obj is None else _BoundCast(obj)
