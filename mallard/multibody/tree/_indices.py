"""Index and id types of multibody elements, and JacobianWrtVariable (mirror of pydrake's).

An index (BodyIndex, FrameIndex, ...) names an element of a plant by its position, an int in
[0, 2³¹). ``BodyIndex()`` is invalid: its value is Drake's kDefaultInvalid, -1234567 (any
negative value is invalid; none is checked, as in Drake's Release builds). As pydrake's, an
index

* converts to int (``int(i)``, and ``__index__``, so it subscripts lists and numpy arrays) but
  is no int: it has no arithmetic;
* equals every integer and every index, of any type, with the same value;
* orders (``<``, ``>``) only against an index of its own type; ``<=`` and ``>=`` raise;
* hashes as Drake's DefaultHash (FNV-1a) of its int value, equal across index types but
  unlike int's: ``BodyIndex(1) == 1``, yet ``{1: x}[BodyIndex(1)]`` raises KeyError.

Indices are immutable, so mallard also lets them be copied and pickled (pydrake does not).
"""

import functools
import itertools

from mallard.multibody.tree._pybind import (
    INT_MAX,
    INT_MIN,
    as_cpp_int,
    bind,
    incompatible_arguments,
)

_MODULE = "mallard.multibody.tree"
_INVALID = -1234567  # Drake's TypeSafeIndex kDefaultInvalid.
_FNV_OFFSET, _FNV_PRIME, _MASK64 = 0xCBF29CE484222325, 0x100000001B3, 2**64 - 1


def _drake_hash(value, nbytes):
    """Drake's DefaultHash (64-bit FNV-1a) of ``value`` as an ``nbytes``-byte little-endian int.

    pybind11 hands this unsigned value to Python as the __hash__ result, and Python folds one
    beyond the Py_ssize_t range into a hash as it does any int; a Python __hash__ returning the
    same value gets the same treatment.
    """
    h = _FNV_OFFSET
    for byte in value.to_bytes(nbytes, "little", signed=True):
        h = ((h ^ byte) * _FNV_PRIME) & _MASK64
    return h


@functools.lru_cache(maxsize=4096)
def _index_hash(value):
    """The hash of an index (memoized: indices are hashed often, and their values are few)."""
    return _drake_hash(value, 4)


class _TypeSafeIndex:
    """The behaviour shared by the index types (see the module docstring).

    A value the constructor cannot take raises pybind11's TypeError; a wrong number of
    arguments raises Python's (pydrake words it as for a wrong value).
    """

    __slots__ = ("_value",)

    def __init__(self, value=_INVALID, /):
        if type(value) is not int or not INT_MIN <= value <= INT_MAX:
            converted = as_cpp_int(value)
            if converted is None:
                name = f"{_MODULE}.{type(self).__qualname__}"
                raise incompatible_arguments(
                    "__init__", (f"{name}()", f"{name}(arg0: int)"), (value,), {}, True
                )
            value = converted
        self._value = value

    def is_valid(self):
        """True unless the index is invalid (default-constructed or negative)."""
        return self._value >= 0

    def __int__(self):
        return self._value

    __index__ = __int__

    def __eq__(self, other):
        if isinstance(other, _TypeSafeIndex):
            return self._value == other._value
        other = as_cpp_int(other)
        return NotImplemented if other is None else self._value == other

    def __lt__(self, other):
        if isinstance(other, type(self)):
            return self._value < other._value
        return NotImplemented

    def __hash__(self):
        return _index_hash(self._value)

    def __repr__(self):
        return f"{type(self).__name__}({self._value})"

    def __reduce__(self):
        return type(self), (self._value,)


class BodyIndex(_TypeSafeIndex):
    """Identifies a RigidBody (a.k.a. link) of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class FrameIndex(_TypeSafeIndex):
    """Identifies a Frame of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class JointIndex(_TypeSafeIndex):
    """Identifies a Joint of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class JointActuatorIndex(_TypeSafeIndex):
    """Identifies a JointActuator of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class ForceElementIndex(_TypeSafeIndex):
    """Identifies a ForceElement of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


class ModelInstanceIndex(_TypeSafeIndex):
    """Identifies a model instance of a multibody plant by index."""

    __slots__ = ()
    __module__ = _MODULE


# Indices are immutable, so the functions below can return shared instances.
_WORLD_INDEX = BodyIndex(0)
_WORLD_FRAME_INDEX = FrameIndex(0)
_WORLD_MODEL_INSTANCE = ModelInstanceIndex(0)
_DEFAULT_MODEL_INSTANCE = ModelInstanceIndex(1)


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
        return _drake_hash(self._value, 8)

    def __repr__(self):
        return f"<MultibodyConstraintId value={self._value}>"


class JacobianWrtVariable:
    """Whether a Jacobian differentiates with respect to q̇ or v.

    Members: ``kQDot`` (0): J = ∂V/∂q̇; ``kV`` (1): J = ∂V/∂v.

    As a pybind11 enum: ``JacobianWrtVariable(value)`` takes any C++ int (an unnamed value
    gets the name "???"); members equal only members (``kV != 1``), hash as their value, convert
    with ``int()`` and don't order.
    """

    __slots__ = ("_value",)
    __module__ = _MODULE

    def __new__(cls, *args, **kwargs):
        values = bind(args, kwargs, ("value",))
        value = None if values is None else as_cpp_int(values[0])
        if value is None:
            signature = f"{_MODULE}.{cls.__qualname__}(value: int)"
            raise incompatible_arguments("__init__", (signature,), args, kwargs, True)
        member = _JACOBIAN_WRT_MEMBERS.get(value)
        if member is None:
            member = object.__new__(cls)
            member._value = value
        return member

    @property
    def name(self):
        """The member's name ("???" for an unnamed value)."""
        return _JACOBIAN_WRT_NAMES.get(self._value, "???")

    @property
    def value(self):
        """The member's int value."""
        return self._value

    def __int__(self):
        return self._value

    __index__ = __int__

    def __eq__(self, other):
        return type(other) is type(self) and self._value == other._value

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return self._value

    def __repr__(self):
        return f"<JacobianWrtVariable.{self.name}: {self._value}>"

    def __str__(self):
        return f"JacobianWrtVariable.{self.name}"

    def __reduce__(self):
        return JacobianWrtVariable, (self._value,)


def _jacobian_wrt_member(value):
    member = object.__new__(JacobianWrtVariable)
    member._value = value
    return member


JacobianWrtVariable.kQDot = _jacobian_wrt_member(0)
JacobianWrtVariable.kV = _jacobian_wrt_member(1)
JacobianWrtVariable.__members__ = {"kQDot": JacobianWrtVariable.kQDot, "kV": JacobianWrtVariable.kV}
_JACOBIAN_WRT_MEMBERS = {m._value: m for m in JacobianWrtVariable.__members__.values()}
_JACOBIAN_WRT_NAMES = {m._value: name for name, m in JacobianWrtVariable.__members__.items()}
