"""ScopedName (mirror of pydrake.multibody.tree.ScopedName): "namespace::element".

The element is never empty (unless default-constructed) and never contains "::". The namespace
may be empty (then the full name is just the element, without a leading "::"), never starts or
ends with "::" but may contain it inside, e.g. "robot1::left::arm::end_frame" is namespace
"robot1::left::arm" and element "end_frame". A single ":" is not special.

As pydrake's, ScopedName compares and hashes by identity: two equal names are not ``==``.
"""

from mallard.common._pybind import as_cpp_string, bind, incompatible_arguments, overloads

_MODULE = "mallard.multibody.tree"
_DELIM = "::"
_QUALNAME = f"{_MODULE}.ScopedName"


def _strings(function, signatures, args, kwargs, names, self=None):
    """The str arguments of a call with parameters ``names``, or pybind11's TypeError."""
    values = bind(args, kwargs, names)
    if values is not None:
        values = [as_cpp_string(v) for v in values]
        if None not in values:
            return values
    shown = args if self is None else (self, *args)
    constructor = function == "__init__"
    raise incompatible_arguments(function, signatures, shown, kwargs, constructor)


def _is_valid(namespace_name, element_name):
    return not (
        namespace_name.startswith(_DELIM)
        or namespace_name.endswith(_DELIM)
        or not element_name
        or _DELIM in element_name
    )


class ScopedName:
    """A delimited name "namespace::element" for a multibody element, e.g. "robot1::torso"."""

    __slots__ = ("_namespace", "_element", "_full")
    __module__ = _MODULE

    @overloads("", "namespace_name, element_name")
    def __init__(self, *args, **kwargs):
        """ScopedName() is empty; ScopedName(namespace_name, element_name) raises RuntimeError if
        namespace_name starts or ends with "::", or element_name is empty or contains "::"."""
        if not args and not kwargs:
            self._set("", "")
            return
        namespace_name, element_name = _strings(
            "__init__",
            (f"{_QUALNAME}()", f"{_QUALNAME}(namespace_name: str, element_name: str)"),
            args,
            kwargs,
            ("namespace_name", "element_name"),
        )
        self._set_checked(namespace_name, element_name)

    def _set(self, namespace_name, element_name):
        self._namespace = namespace_name
        self._element = element_name
        self._full = f"{namespace_name}{_DELIM}{element_name}" if namespace_name else element_name

    def _set_checked(self, namespace_name, element_name):
        if not _is_valid(namespace_name, element_name):
            raise RuntimeError(
                f"Cannot create a ScopedName('{namespace_name}', '{element_name}') with "
                "mis-placed delimiters"
            )
        self._set(namespace_name, element_name)

    @staticmethod
    def _new(namespace_name, element_name):
        new = object.__new__(ScopedName)
        new._set(namespace_name, element_name)
        return new

    @staticmethod
    @overloads("namespace_name, element_name")
    def Make(*args, **kwargs):
        """ScopedName(namespace_name, element_name), or None where the constructor raises."""
        namespace_name, element_name = _strings(
            "Make",
            (f"(namespace_name: str, element_name: str) -> Optional[{_QUALNAME}]",),
            args,
            kwargs,
            ("namespace_name", "element_name"),
        )
        if not _is_valid(namespace_name, element_name):
            return None
        return ScopedName._new(namespace_name, element_name)

    @staticmethod
    @overloads("name1, name2")
    def Join(*args, **kwargs):
        """Parse(name1 + "::" + name2): "::" may appear in either name, and the last word is
        the element."""
        name1, name2 = _strings(
            "Join", (f"(name1: str, name2: str) -> {_QUALNAME}",), args, kwargs, ("name1", "name2")
        )
        return ScopedName._parse(f"{name1}{_DELIM}{name2}")

    @staticmethod
    @overloads("scoped_name")
    def Parse(*args, **kwargs):
        """The ScopedName of "namespace::element" after removing every leading and trailing
        "::" and collapsing each inner "::::" to "::"; the element follows the last "::"."""
        (scoped_name,) = _strings(
            "Parse", (f"(scoped_name: str) -> {_QUALNAME}",), args, kwargs, ("scoped_name",)
        )
        return ScopedName._parse(scoped_name)

    @staticmethod
    def _parse(name):
        while name.endswith(_DELIM):
            name = name[:-2]
        while name.startswith(_DELIM):
            name = name[2:]
        # Collapse "::::" to "::", from the right as Drake does ("a:::::b" -> "a:::b").
        while (i := name.rfind("::::")) >= 0:
            name = name[:i] + _DELIM + name[i + 4 :]
        i = name.rfind(_DELIM)
        if i < 0:
            return ScopedName._new("", name)
        return ScopedName._new(name[:i], name[i + 2 :])

    def get_full(self):
        """The full name, e.g. "robot1::torso" (empty only if default-constructed)."""
        return self._full

    def get_namespace(self):
        """The namespace, e.g. "robot1" (typically the model instance name; may be empty)."""
        return self._namespace

    def get_element(self):
        """The element's local name, e.g. "torso" (empty only if default-constructed)."""
        return self._element

    def to_string(self):
        """The full name, as ``get_full()``."""
        return self._full

    @overloads("element_name")
    def set_element(self, *args, **kwargs):
        """Replaces the element name, keeping the namespace; raises as the constructor does."""
        (element_name,) = _strings(
            "set_element",
            (f"(self: {_QUALNAME}, element_name: str) -> None",),
            args,
            kwargs,
            ("element_name",),
            self,
        )
        self._set_checked(self._namespace, element_name)

    @overloads("namespace_name")
    def set_namespace(self, *args, **kwargs):
        """Replaces the namespace name (which may be empty), keeping the element; raises as the
        constructor does (so also if the element is empty)."""
        (namespace_name,) = _strings(
            "set_namespace",
            (f"(self: {_QUALNAME}, namespace_name: str) -> None",),
            args,
            kwargs,
            ("namespace_name",),
            self,
        )
        self._set_checked(namespace_name, self._element)

    def __str__(self):
        return self._full

    def __repr__(self):
        return f"ScopedName({self._namespace!r}, {self._element!r})"

    def __copy__(self):
        return ScopedName._new(self._namespace, self._element)

    def __deepcopy__(self, memo):
        return self.__copy__()
