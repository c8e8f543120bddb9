"""Mirror of pydrake.common.containers: namedview (named access to the elements of an array,
aliasing it) and EqualToDict (a dict whose keys compare with ``EqualTo``)."""

import re

import numpy as np

__all__ = ["EqualToDict", "NamedViewBase", "namedview"]


class NamedViewBase:
    """The base of the classes ``namedview`` makes: a view of ``value`` (a numpy array, a
    list, ...) whose elements are also the attributes named by the class's fields. Writing
    an attribute or an item writes into ``value``."""

    _fields = ()

    def __init__(self, value):
        if len(value) != len(self._fields):
            raise AssertionError(
                f"{type(self).__name__}: expected {len(self._fields)} values (the fields "
                f"{self._fields}), got {len(value)}"
            )
        object.__setattr__(self, "_value", value)

    @classmethod
    def get_fields(cls):
        return cls._fields

    @classmethod
    def Zero(cls):
        """A view of a new list of zeros."""
        return cls([0] * len(cls._fields))

    def __getitem__(self, index):
        return self._value[index]

    def __setitem__(self, index, value):
        self._value[index] = value

    def __setattr__(self, name, value):
        if name not in self._fields:
            raise AttributeError(
                f"Cannot add attributes! The fields in this named view are{self._fields}, but "
                f"you tried to set '{name}'."
            )
        object.__setattr__(self, name, value)

    def __len__(self):
        return len(self._fields)

    def __iter__(self):
        return iter(self._value)

    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self._value, dtype=dtype)
        return a.copy() if copy else a

    def _format(self, format_value):
        fields = ", ".join(f"{f}={format_value(getattr(self, f))}" for f in self._fields)
        return f"{type(self).__name__}({fields})"

    def __str__(self):
        return self._format(str)

    def __repr__(self):
        return f"<{self._format(repr)}>"


def _field(index):
    def get(self):
        return self._value[index]

    def set(self, value):
        self._value[index] = value

    return property(get, set)


def _sanitize(name):
    """``name`` as an identifier: other characters become "_", a leading digit gets a "_"
    before it, and runs of "_" become one."""
    name = re.sub(r"\W", "_", name)
    if name[:1].isdigit():
        name = "_" + name
    return re.sub(r"_+", "_", name)


def namedview(name, fields, *, sanitize_field_names=True):
    """A NamedViewBase class called ``name`` with the attributes ``fields`` (made valid
    identifiers if ``sanitize_field_names``): ``View(value)`` views ``value``; ``view[:]``
    and ``np.asarray(view)`` alias it, ``np.array(view)`` copies it."""
    fields = [_sanitize(f) if sanitize_field_names else f for f in fields]
    if len(set(fields)) != len(fields):
        raise AssertionError("Field names must be unique")
    namespace = {"_fields": tuple(fields), "__module__": __name__}
    namespace.update({f: _field(i) for i, f in enumerate(fields)})
    return type(name, (NamedViewBase,), namespace)


class _EqualToKey:
    """A key compared with ``EqualTo`` (symbolic Variables and Expressions), hashed as its
    object (an unhashable one by its type and text)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __hash__(self):
        try:
            return hash(self.value)
        except TypeError:
            return hash((type(self.value), str(self.value)))

    def __eq__(self, other):
        if type(self.value) is not type(other.value):
            return False
        equal_to = getattr(self.value, "EqualTo", None)
        return bool(equal_to(other.value)) if equal_to is not None else self.value == other.value


class EqualToDict(dict):
    """A dict whose keys are compared by type and ``lhs.EqualTo(rhs)`` (for symbolic
    Variables and Expressions, whose ``==`` makes a Formula)."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __getitem__(self, key):
        return super().__getitem__(_EqualToKey(key))

    def __setitem__(self, key, value):
        super().__setitem__(_EqualToKey(key), value)

    def __delitem__(self, key):
        super().__delitem__(_EqualToKey(key))

    def __contains__(self, key):
        return super().__contains__(_EqualToKey(key))

    def get(self, key, default=None):
        return super().get(_EqualToKey(key), default)

    def pop(self, key, *default):
        return super().pop(_EqualToKey(key), *default)

    def keys(self):
        return [k.value for k in super().keys()]

    def items(self):
        return [(k.value, v) for k, v in super().items()]

    def __iter__(self):
        return iter(self.keys())

    def raw(self):
        """A plain dict of the same keys and values (its keys must be hashable: Variables
        are, mallard's Expressions are not)."""
        return dict(self.items())
