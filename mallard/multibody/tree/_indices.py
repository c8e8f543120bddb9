"""Index and id types of multibody elements, and JacobianWrtVariable (mirror of pydrake's).
The indices (BodyIndex, FrameIndex, ...) behave as every pydrake index does (see
mallard.common._type_safe_index)."""

import itertools
import threading

from mallard.common._pybind_enum import PybindEnum
from mallard.common._type_safe_index import TypeSafeIndex, drake_hash

_MODULE = "mallard.multibody.tree"


class BodyIndex(TypeSafeIndex):
    """Identifies a RigidBody (a.k.a. link) of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class FrameIndex(TypeSafeIndex):
    """Identifies a Frame of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class JointIndex(TypeSafeIndex):
    """Identifies a Joint of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class JointActuatorIndex(TypeSafeIndex):
    """Identifies a JointActuator of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class ForceElementIndex(TypeSafeIndex):
    """Identifies a ForceElement of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class ModelInstanceIndex(TypeSafeIndex):
    """Identifies a model instance of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


# Indices are immutable, so the functions below can return shared instances.
_WORLD_INDEX = BodyIndex(0)
_WORLD_FRAME_INDEX = FrameIndex(0)
_WORLD_MODEL_INSTANCE = ModelInstanceIndex(0)
_DEFAULT_MODEL_INSTANCE = ModelInstanceIndex(1)


_SHARED = {}  # index type -> its shared indices 0, 1, ... (a list, grown as needed)
_GROWING = threading.Lock()  # (plants may be built in several threads at once)


def shared_indices(index_type, stop):
    """The shared list of the indices 0, 1, ... (at least ``stop`` of them) of
    ``index_type``: the same instances for every caller (indices are immutable), so that an
    element's index is no new object. Read it, never change it."""
    shared = _SHARED.get(index_type)
    if shared is None or len(shared) < stop:
        with _GROWING:
            shared = _SHARED.setdefault(index_type, [])
            if len(shared) < stop:
                new = index_type._trusted
                shared += [new(i) for i in range(len(shared), max(stop, 2 * len(shared)))]
    return shared


def shared_index(index_type, value):
    """The shared index ``value`` of ``index_type`` (see shared_indices)."""
    shared = _SHARED.get(index_type)
    if shared is not None and value < len(shared):
        return shared[value]
    return shared_indices(index_type, value + 1)[value]


def world_index():
    """The index of the world body, always 0."""
    return _WORLD_INDEX


def world_frame_index():
    """The index of the world frame, always 0."""
    return _WORLD_FRAME_INDEX


def world_model_instance():
    """The model instance that holds the world body, always 0."""
    return _WORLD_MODEL_INSTANCE


def default_model_instance():
    """The model instance of elements added with none given, always 1."""
    return _DEFAULT_MODEL_INSTANCE


_constraint_ids = itertools.count(1)  # 0 is Drake's invalid id; next() is atomic in CPython.


class MultibodyConstraintId:
    """Identifies a constraint of a multibody plant. Made only by ``get_new_id()``.

    Ids equal and order only against ids; they hash as Drake's DefaultHash of the int64 value.
    """

    __slots__ = ("_value",)
    __module__ = _MODULE

    def __init__(self, *args, **kwargs):
        raise TypeError(f"{_MODULE}.MultibodyConstraintId: No constructor defined!")

    @staticmethod
    def get_new_id():
        """A new id, different from every id made before (thread safe)."""
        new = object.__new__(MultibodyConstraintId)
        new._value = next(_constraint_ids)
        return new

    def get_value(self):
        """The id's underlying integer."""
        return self._value

    def is_valid(self):
        """True (an id from ``get_new_id`` is always valid)."""
        return self._value != 0

    def __eq__(self, other):
        if isinstance(other, MultibodyConstraintId):
            return self._value == other._value
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, MultibodyConstraintId):
            return self._value < other._value
        return NotImplemented

    def __hash__(self):
        return drake_hash(self._value, 8)

    def __repr__(self):
        return f"<MultibodyConstraintId value={self._value}>"


class JacobianWrtVariable(PybindEnum):
    """Whether a Jacobian differentiates with respect to q̇ or v.

    Members: ``kQDot`` (0): J = ∂V/∂q̇; ``kV`` (1): J = ∂V/∂v. A pybind11 enum
    (mallard.common._pybind_enum).
    """

    __slots__ = ()
    __module__ = _MODULE
    _MEMBERS = {"kQDot": 0, "kV": 1}
