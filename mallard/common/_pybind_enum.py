"""A base class for pydrake's pybind11 enums.

A subclass names its members in ``_MEMBERS`` (name → int value, in declaration order) and gets
them as class attributes. As a pybind11 enum: ``Enum(value)`` takes any C++ int (an unnamed
value gets the name "???"), members have ``name`` and ``value``, equal only members of their
own enum (``Enum.kA != 0``), hash as their value, convert with ``int()``, don't order, and
pickle as pydrake's do (``cls.__new__(cls)`` then ``__setstate__(int)``, so each library loads
the other's pickles); ``Enum.__members__`` maps the names to the members.
"""

from mallard.common._pybind import as_cpp_int, bind, incompatible_arguments, overloads


class PybindEnum:
    """The base of a pybind11-like enum (see the module)."""

    __slots__ = ("_value",)
    _MEMBERS = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._by_value = {}
        cls._names = {}
        members = {}
        for name, value in cls._MEMBERS.items():
            member = object.__new__(cls)
            member._value = value
            setattr(cls, name, member)
            members[name] = cls._by_value[value] = member
            cls._names[value] = name
        cls.__members__ = members

    def __new__(cls, *args, **kwargs):
        if not args and not kwargs:  # unpickling: __setstate__ gives the value
            return object.__new__(cls)
        return cls._member(args, kwargs)

    @overloads("value")
    def __init__(self, *args, **kwargs):
        if not args and not kwargs:  # Enum(): pybind11's error
            type(self)._member(args, kwargs)

    @classmethod
    def _member(cls, args, kwargs):
        values = bind(args, kwargs, ("value",))
        value = None if values is None else as_cpp_int(values[0])
        if value is None:
            signature = f"{cls.__module__}.{cls.__qualname__}(value: int)"
            raise incompatible_arguments("__init__", (signature,), args, kwargs, True)
        member = cls._by_value.get(value)
        if member is None:
            member = object.__new__(cls)
            member._value = value
        return member

    @property
    def name(self):
        """The member's name ("???" for an unnamed value)."""
        return type(self)._names.get(self._value, "???")

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
        return f"<{type(self).__name__}.{self.name}: {self._value}>"

    def __str__(self):
        return f"{type(self).__name__}.{self.name}"

    def __copy__(self):
        return self  # (immutable)

    def __deepcopy__(self, memo):
        return self

    def __getstate__(self):
        return self._value  # (pydrake's pickled state)

    def __setstate__(self, state):
        self._value = int(state)
