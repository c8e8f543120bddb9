"""Drake's TypeSafeIndex as pydrake binds it: the index types of multibody elements
(BodyIndex, ...) and of the systems framework (InputPortIndex, ...) derive from TypeSafeIndex.

An index names an element by its position, an int in [0, 2³¹). ``BodyIndex()`` is invalid:
its value is Drake's kDefaultInvalid, -1234567 (any negative value is invalid; none is
checked, as in Drake's Release builds). As pydrake's, an index

* converts to int (``int(i)``, and ``__index__``, so it subscripts lists and numpy arrays) but
  is no int: it has no arithmetic;
* equals every integer and every index, of any type, with the same value;
* orders (``<``, ``>``) only against an index of its own type; ``<=`` and ``>=`` raise;
* hashes as Drake's DefaultHash (FNV-1a) of its int value, equal across index types but
  unlike int's: ``BodyIndex(1) == 1``, yet ``{1: x}[BodyIndex(1)]`` raises KeyError.

Indices are immutable, so mallard also lets them be copied and pickled (pydrake does not).
"""

import functools

from mallard.common._pybind import INT_MAX, INT_MIN, as_cpp_int, incompatible_arguments

INVALID_INDEX = -1234567  # Drake's TypeSafeIndex kDefaultInvalid.
_FNV_OFFSET, _FNV_PRIME, _MASK64 = 0xCBF29CE484222325, 0x100000001B3, 2**64 - 1


def drake_hash(value, nbytes):
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
    return drake_hash(value, 4)


class TypeSafeIndex:
    """The behaviour shared by the index types (see the module docstring); a subclass sets
    ``__module__`` to its public module (named in constructor errors).

    A value the constructor cannot take raises pybind11's TypeError; a wrong number of
    arguments raises Python's (pydrake words it as for a wrong value).
    """

    __slots__ = ("_value",)

    def __init__(self, value=INVALID_INDEX, /):
        if type(value) is not int or not INT_MIN <= value <= INT_MAX:
            converted = as_cpp_int(value)
            if converted is None:
                name = f"{type(self).__module__}.{type(self).__qualname__}"
                raise incompatible_arguments(
                    "__init__", (f"{name}()", f"{name}(arg0: int)"), (value,), {}, True
                )
            value = converted
        self._value = value

    @classmethod
    def _trusted(cls, value):
        """The index of the int ``value`` (in C++'s int range), without the constructor's
        conversion and checks."""
        index = object.__new__(cls)
        index._value = value
        return index

    def is_valid(self):
        """True unless the index is invalid (default-constructed or negative)."""
        return self._value >= 0

    def __int__(self):
        return self._value

    __index__ = __int__

    def __eq__(self, other):
        if isinstance(other, TypeSafeIndex):
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
