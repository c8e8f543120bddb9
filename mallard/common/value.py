"""Mirror of pydrake.common.value: type-erased values (AbstractValue, Value[T])."""

import copy

__all__ = ["AbstractValue", "Value"]


class AbstractValue:
    """A type-erased value, as held by abstract ports, states and parameters."""

    __slots__ = ("_value",)

    def __init__(self, value=None):
        if type(self) is AbstractValue:
            raise TypeError("AbstractValue is abstract; use AbstractValue.Make(value) or Value")
        self._value = value

    @staticmethod
    def Make(value):
        """A Value holding ``value``."""
        return Value(value)

    def get_value(self):
        """The held value."""
        return self._value

    def get_mutable_value(self):
        """The held value, for modification in place."""
        return self._value

    def set_value(self, value):
        """Replaces the held value."""
        self._value = value

    def SetFrom(self, other):
        """Copies the value held by ``other``."""
        self._value = copy.deepcopy(other.get_value())

    def Clone(self):
        """A deep copy."""
        return type(self)(copy.deepcopy(self._value))

    def __repr__(self):
        return f"Value[{type(self._value).__name__}]({self._value!r})"


class _ValueMeta(type):
    def __getitem__(cls, _value_type):
        # Value[T] is one Python class for every T: Python values carry their own type.
        return cls


class Value(AbstractValue, metaclass=_ValueMeta):
    """A value of any Python type; ``Value[T]`` is accepted as in pydrake."""

    __slots__ = ()
