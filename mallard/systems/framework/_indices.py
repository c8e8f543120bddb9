"""The index types of the systems framework (ContinuousStateIndex, InputPortIndex...) and
UseDefaultName.

An index converts to int (``int(i)``, ``__index__``), equals the integers and indices of the
same value, and hashes as its int; its type tells overloads apart (as DeclareStateOutputPort's
state index does).
"""


class _Index:
    __slots__ = ("_value",)

    def __init__(self, value=-1234567):
        if isinstance(value, bool) or not isinstance(value, (int, _Index)):
            try:
                value = value.__index__()
            except AttributeError:
                raise TypeError(
                    f"{type(self).__name__}(): expected an int, got {type(value).__name__}"
                ) from None
        self._value = int(value)

    def is_valid(self):
        return self._value >= 0

    def __int__(self):
        return self._value

    __index__ = __int__

    def __eq__(self, other):
        try:
            return self._value == int(other)
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self):
        return hash(self._value)

    def __lt__(self, other):
        return self._value < int(other)

    def __repr__(self):
        return f"{type(self).__name__}({self._value})"


class ContinuousStateIndex(_Index):
    """The index of a continuous state group (always 0: a LeafSystem has one)."""

    __slots__ = ()


class DiscreteStateIndex(_Index):
    """The index of a discrete state group."""

    __slots__ = ()


class AbstractStateIndex(_Index):
    """The index of an abstract state variable."""

    __slots__ = ()


class NumericParameterIndex(_Index):
    """The index of a numeric parameter group."""

    __slots__ = ()


class AbstractParameterIndex(_Index):
    """The index of an abstract parameter."""

    __slots__ = ()


class InputPortIndex(_Index):
    """The index of an input port."""

    __slots__ = ()


class OutputPortIndex(_Index):
    """The index of an output port."""

    __slots__ = ()


class SubsystemIndex(_Index):
    """The index of a subsystem of a Diagram."""

    __slots__ = ()


class CacheIndex(_Index):
    """The index of a cache entry."""

    __slots__ = ()


class UseDefaultName:
    """The type of kUseDefaultName: asks a Declare*Port method for the default port name
    (``y{index}`` for outputs, ``u{index}`` for inputs)."""

    __slots__ = ()

    def __repr__(self):
        return "kUseDefaultName"


kUseDefaultName = UseDefaultName()
