"""The index types of the systems framework (ContinuousStateIndex, InputPortIndex...),
UseDefaultName and the port selections (InputPortSelection, OutputPortSelection).

The indices behave as every pydrake index does (mallard.common._type_safe_index): they convert
to int, equal the integers and indices of the same value, order only against their own type
and hash as Drake does; their type tells overloads apart (as DeclareStateOutputPort's state
index does).
"""

import enum

from mallard.common._type_safe_index import TypeSafeIndex

_MODULE = "mallard.systems.framework"


class ContinuousStateIndex(TypeSafeIndex):
    """The index of a continuous state group (always 0: a LeafSystem has one)."""

    __slots__ = ()
    __module__ = _MODULE


class DiscreteStateIndex(TypeSafeIndex):
    """The index of a discrete state group."""

    __slots__ = ()
    __module__ = _MODULE


class AbstractStateIndex(TypeSafeIndex):
    """The index of an abstract state variable."""

    __slots__ = ()
    __module__ = _MODULE


class NumericParameterIndex(TypeSafeIndex):
    """The index of a numeric parameter group."""

    __slots__ = ()
    __module__ = _MODULE


class AbstractParameterIndex(TypeSafeIndex):
    """The index of an abstract parameter."""

    __slots__ = ()
    __module__ = _MODULE


class InputPortIndex(TypeSafeIndex):
    """The index of an input port."""

    __slots__ = ()
    __module__ = _MODULE


class OutputPortIndex(TypeSafeIndex):
    """The index of an output port."""

    __slots__ = ()
    __module__ = _MODULE


class SubsystemIndex(TypeSafeIndex):
    """The index of a subsystem of a Diagram."""

    __slots__ = ()
    __module__ = _MODULE


class CacheIndex(TypeSafeIndex):
    """The index of a cache entry."""

    __slots__ = ()
    __module__ = _MODULE


class UseDefaultName:
    """The type of kUseDefaultName: asks a Declare*Port method for the default port name
    (``y{index}`` for outputs, ``u{index}`` for inputs)."""

    __slots__ = ()

    def __repr__(self):
        return "kUseDefaultName"


kUseDefaultName = UseDefaultName()


class InputPortSelection(enum.IntEnum):
    """Which input port a function that takes one uses: none, or the first if there is one."""

    __module__ = "mallard.systems.framework"  # (its public path: pickles name it)

    kNoInput = -1
    kUseFirstInputIfItExists = -2

    def __repr__(self):
        return f"<InputPortSelection.{self.name}: {self.value}>"


class OutputPortSelection(enum.IntEnum):
    """Which output port a function that takes one uses: none, or the first if there is one."""

    __module__ = "mallard.systems.framework"  # (its public path: pickles name it)

    kNoOutput = -1
    kUseFirstOutputIfItExists = -2

    def __repr__(self):
        return f"<OutputPortSelection.{self.name}: {self.value}>"
