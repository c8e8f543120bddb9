"""What pydrake's pybind11 bindings do with call arguments, for the types mirrored exactly here.

* ``as_cpp_int``: a value as pybind11 converts it to a C++ ``int`` (any integer or object with
  ``__index__`` in [-2³¹, 2³¹); in its converting pass, any other number whose ``int()``
  works, e.g. Decimal or numpy.float32, truncated; never a Python float), else None.
* ``as_cpp_string``: a ``str`` (bytes and bytearray decoded as UTF-8), else None.
* ``bind``: the values a call passes to a parameter list (positionally, then by keyword).
* ``incompatible_arguments``: the TypeError pybind11 raises when no overload takes a call.
"""

import operator

INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # The range of a C++ int.


def as_cpp_int(x):
    """``x`` as pybind11 converts it to a C++ int, or None if it does not."""
    if type(x) is int:
        return x if INT_MIN <= x <= INT_MAX else None
    if isinstance(x, float):
        return None
    try:
        value = operator.index(x)
    except TypeError:
        # pybind11's converting pass: PyNumber_Long of any number (an object with __int__ or
        # __float__).
        if not (hasattr(type(x), "__int__") or hasattr(type(x), "__float__")):
            return None
        try:
            value = int(x)
        except Exception:
            return None
    except Exception:
        return None
    return value if INT_MIN <= value <= INT_MAX else None


def as_cpp_string(x):
    """``x`` as pybind11 converts it to a C++ string (as a plain str), or None if it does not."""
    if type(x) is str:
        return x
    if isinstance(x, str):
        return str.__str__(x)
    if isinstance(x, bytes | bytearray):
        return bytes(x).decode()
    return None


def bind(args, kwargs, names):
    """The values for the parameters ``names`` (all required) in call order, or None."""
    n = len(args)
    if n > len(names) or len(kwargs) != len(names) - n:
        return None
    values = list(args)
    for name in names[n:]:
        if name not in kwargs:
            return None
        values.append(kwargs[name])
    return values


def incompatible_arguments(function, signatures, args, kwargs, constructor=False):
    """pybind11's TypeError for a call of ``function`` that matches none of ``signatures``."""
    kind = "constructor" if constructor else "function"
    listing = "\n".join(f"    {i}. {s}" for i, s in enumerate(signatures, 1))
    invoked = ", ".join(map(repr, args))
    if kwargs:
        named = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
        invoked += ("; " if args else "") + "kwargs: " + named
    return TypeError(
        f"{function}(): incompatible {kind} arguments. The following argument types are "
        f"supported:\n{listing}\n\nInvoked with: {invoked}"
    )
