"""What pydrake's pybind11 bindings do for the value types, done in Python.

* ``resolve``: picks the overload a call matches (positional or keyword arguments with pydrake's
  parameter names) and converts its arguments, or raises TypeError listing the overloads, as
  pybind11 does.
* Parameter kinds: ``instance_of`` (a class, possibly given lazily), ``vector`` / ``matrix``
  (numeric arrays of a fixed shape, converted with ``mallard._scalar.as_array``), ``columns``
  (3xN or a 3-vector), ``any_array``, ``scalar`` and ``integer``.
* ``readonly`` (a non-writeable view, as pydrake returns for references to internal data),
  ``scalar_out`` (a Python float for doubles), ``format_scalar`` (repr of one element) and
  ``numeric_values`` (the double values a query needs, or TypeError for symbolic scalars).
"""

import numpy as np

from mallard._scalar import as_array, as_scalar, values_or_none

_MISMATCH = object()
_REQUIRED = object()


class Param:
    """One parameter of one overload: its name, its type label, its converter and its default
    value (``_REQUIRED`` if it has none)."""

    __slots__ = ("name", "label", "convert", "default")

    def __init__(self, name, label, convert, default=_REQUIRED):
        self.name = name
        self.label = label
        self.convert = convert
        self.default = default


def optional(param, default):
    """``param`` with a default value (used as is, not converted, when the call omits it)."""
    return Param(param.name, param.label, param.convert, default)


def anything(name, label="object"):
    """A parameter taking any value (the callee checks it)."""
    return Param(name, label, lambda v: v)


def instance_of(name, cls, label=None):
    """A parameter that must be an instance of ``cls`` (or of ``cls()`` if given lazily)."""
    if isinstance(cls, type):
        label = label or cls.__name__

        def convert(v):
            return v if isinstance(v, cls) else _MISMATCH
    else:

        def convert(v):
            return v if isinstance(v, cls()) else _MISMATCH

    return Param(name, label, convert)


def _to_array(v, shape):
    if v is None or isinstance(v, str):
        return _MISMATCH
    try:
        a = as_array(v, shape)
    except (TypeError, ValueError):
        return _MISMATCH
    return a if 1 <= a.ndim <= 2 else _MISMATCH


def vector(name, n):
    """A parameter taking an n-vector (shape (n,), or an n x 1 / 1 x n array)."""
    return Param(name, f"numpy.ndarray[{n}]", lambda v: _to_array(v, (n,)))


def matrix(name, rows, cols):
    """A parameter taking a rows x cols array."""
    return Param(name, f"numpy.ndarray[{rows}, {cols}]", lambda v: _to_array(v, (rows, cols)))


def any_array(name):
    """A parameter taking a numeric 1-D or 2-D array of any size (the callee checks it)."""
    return Param(name, "numpy.ndarray[m, n]", lambda v: _to_array(v, None))


def columns(name):
    """A parameter taking a 3-vector (shape (3,) or (3, 1)) or a 3 x N array."""

    def convert(v):
        a = _to_array(v, None)
        if a is _MISMATCH or a.shape == (3,) or a.shape[0] == 3 and a.ndim == 2:
            return a
        return _MISMATCH

    return Param(name, "numpy.ndarray[3, n]", convert)


def scalar(name):
    """A parameter taking one scalar (a real number, or an AutoDiffXd / Expression)."""

    def convert(v):
        if isinstance(v, np.ndarray) and v.size != 1:
            return _MISMATCH
        try:
            return as_scalar(v)
        except TypeError:
            return _MISMATCH

    return Param(name, "float", convert)


def integer(name):
    """A parameter taking a Python or numpy integer."""

    def convert(v):
        ok = isinstance(v, (int, np.integer)) and not isinstance(v, bool)
        return int(v) if ok else _MISMATCH

    return Param(name, "int", convert)


def _describe(p):
    default = "" if p.default is _REQUIRED else f" = {p.default!r}"
    return f"{p.name}: {p.label}{default}"


def signature(owner, params):
    return f"{owner}(" + ", ".join(_describe(p) for p in params) + ")"


def resolve(owner, overloads, args, kwargs):
    """Returns ``(index, values)`` for the first overload in ``overloads`` the call matches.

    ``overloads`` is a sequence of parameter tuples. Arguments bind positionally, then by
    keyword; a parameter the call omits takes its default (see ``optional``). Raises TypeError
    listing the supported signatures if no overload matches.
    """
    for index, params in enumerate(overloads):
        if len(args) > len(params) or not set(kwargs) <= {p.name for p in params[len(args) :]}:
            continue
        values = []
        for i, p in enumerate(params):
            if i < len(args):
                raw = args[i]
            elif p.name in kwargs:
                raw = kwargs[p.name]
            elif p.default is not _REQUIRED:
                values.append(p.default)
                continue
            else:
                break
            value = p.convert(raw)
            if value is _MISMATCH:
                break
            values.append(value)
        else:
            return index, values
    listing = "\n".join(
        f"    {i + 1}. {signature(owner, params)}" for i, params in enumerate(overloads)
    )
    invoked = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
    raise TypeError(
        f"{owner}: incompatible arguments. The following argument types are supported:\n"
        f"{listing}\n\nInvoked with: {invoked}"
    )


def readonly(a):
    """A non-writeable view of ``a`` (pydrake's view of a value's internal storage)."""
    v = a.view()
    v.flags.writeable = False
    return v


def scalar_out(x):
    """One element as pydrake returns it: a Python float for doubles, else the scalar itself."""
    return float(x) if isinstance(x, float) else x


def format_scalar(x):
    """The repr pydrake prints for one element (Python's float repr for doubles)."""
    return repr(float(x)) if isinstance(x, float) else repr(x)


def format_vector(v):
    """``[a, b, c]`` with each element formatted as ``format_scalar`` does."""
    return "[" + ", ".join(format_scalar(x) for x in v) + "]"


def numeric_values(a, what):
    """The float64 values of ``a``; TypeError naming ``what`` if a scalar has no value."""
    values = values_or_none(a)
    if values is None:
        raise TypeError(
            f"{what} needs numeric values; got symbolic expressions with free variables"
        )
    return values
