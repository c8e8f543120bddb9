"""Index and id types of multibody elements, and JacobianWrtVariable (mirror of pydrake's).
The indices (BodyIndex, FrameIndex, ...) behave as every pydrake index does (see
mallard.common._type_safe_index)."""

import itertools

from mallard.common._pybind import as_cpp_int, bind, incompatible_arguments, overloads
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
        if not args and not kwargs:  # unpickling (as pydrake's: __setstate__ gives the value)
            return object.__new__(cls)
        return cls._member(args, kwargs)

    @overloads("value")
    def __init__(self, *args, **kwargs):
        if not args and not kwargs:  # JacobianWrtVariable(): pybind11's error
            type(self)._member(args, kwargs)

    @classmethod
    def _member(cls, args, kwargs):
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

    def __copy__(self):
        return self  # (immutable)

    def __deepcopy__(self, memo):
        return self

    def __getstate__(self):
        return self._value  # (pydrake's pickled state)

    def __setstate__(self, state):
        self._value = int(state)


def _jacobian_wrt_member(value):
    member = object.__new__(JacobianWrtVariable)
    member._value = value
    return member


JacobianWrtVariable.kQDot = _jacobian_wrt_member(0)
JacobianWrtVariable.kV = _jacobian_wrt_member(1)
JacobianWrtVariable.__members__ = {"kQDot": JacobianWrtVariable.kQDot, "kV": JacobianWrtVariable.kV}
_JACOBIAN_WRT_MEMBERS = {m._value: m for m in JacobianWrtVariable.__members__.values()}
_JACOBIAN_WRT_NAMES = {m._value: name for name, m in JacobianWrtVariable.__members__.items()}
