"""What pydrake's pybind11 bindings do with call arguments, for the types mirrored exactly here.

* ``as_cpp_int``: a value as pybind11 converts it to a C++ ``int`` (any integer or object with
  ``__index__`` in [-2³¹, 2³¹); in its converting pass, any other number whose ``int()``
  works, e.g. Decimal or numpy.float32, truncated; never a Python float), else None.
* ``is_integer``: a Python or numpy integer, not a bool.
* ``as_cpp_string``: a ``str`` (bytes and bytearray decoded as UTF-8), else None.
* ``bind``: the values a call passes to a parameter list (positionally, then by keyword).
* ``incompatible_arguments``: the TypeError pybind11 raises when no overload takes a call.
* ``overloads``: declares the call forms of a function that takes ``*args, **kwargs`` (an
  overloaded pydrake function), which ``signatures`` lists (the API conformance test compares
  them with pydrake's).
"""

import inspect
import operator

import numpy as np

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


def is_integer(x):
    """Whether ``x`` is a Python or numpy integer (not a bool): how overloads taking a size or
    an index tell it from a vector."""
    return isinstance(x, int | np.integer) and not isinstance(x, bool)


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


def overloads(*forms):
    """Declares the call forms of a function that takes ``*args, **kwargs`` and sorts them out
    itself, as pybind11 lists an overloaded function's signatures. Each form is a text of
    parameter names without ``self`` (``"context, model_instance, q"``; ``name=`` has a default;
    parameters after ``*`` are keyword-only), a tuple of names, a (names, {name: default})
    pair, a parameter table of ``_bindings.resolve`` (Param objects), or a function returning
    a sequence of such forms (for tables defined after the class that uses them; given the
    class if it takes an argument, for a method whose forms each subclass names)."""

    def declare(function):
        function.__overloads__ = forms
        return function

    return declare


def _signature(form):
    P = inspect.Parameter
    if isinstance(form, str):
        kind, params = P.POSITIONAL_OR_KEYWORD, []
        for name in (n.strip() for n in form.split(",") if n.strip()):
            if name == "*":
                kind = P.KEYWORD_ONLY
            elif name.endswith("="):
                params.append(P(name[:-1], kind, default=None))
            else:
                params.append(P(name, kind))
        return inspect.Signature(params)
    if len(form) == 2 and isinstance(form[1], dict):  # (names, {name: default})
        names, defaults = form
        return inspect.Signature(
            [P(n, P.POSITIONAL_OR_KEYWORD, **({"default": defaults[n]} if n in defaults else {}))
             for n in names]
        )  # fmt: skip
    if all(isinstance(p, str) for p in form):  # names, all required
        return inspect.Signature([P(n, P.POSITIONAL_OR_KEYWORD) for n in form])
    return inspect.Signature(  # a table of _bindings.Param
        [P(p.name, P.POSITIONAL_OR_KEYWORD, **({} if _required(p) else {"default": p.default}))
         for p in form]
    )  # fmt: skip


def _required(param):
    from mallard.common._bindings import _REQUIRED

    return param.default is _REQUIRED


def signatures(function, cls=None):
    """The call forms of ``function`` (without ``self``) as inspect.Signature objects: those
    declared with ``overloads`` (as a method of ``cls``), else its own signature; a bound
    method's and a staticmethod's alike."""
    if cls is None and inspect.ismethod(function):
        cls = function.__self__ if isinstance(function.__self__, type) else type(function.__self__)
    function = getattr(function, "__func__", function)
    declared = getattr(function, "__overloads__", None)
    if declared is not None:
        forms = []
        for form in declared:
            if callable(form):
                form = form(cls) if form.__code__.co_argcount == 1 else form()
                forms.extend(form)
            else:
                forms.append(form)
        return [_signature(form) for form in forms]
    signature = inspect.signature(function)
    params = list(signature.parameters.values())
    if params and params[0].name in ("self", "cls"):
        params = params[1:]
    return [signature.replace(parameters=params)]


def call_form(function, args, kwargs, owner=None, accept=None, cls=None):
    """``(index, values)`` of the first call form declared for ``function`` (``overloads``)
    that the call binds to, positionally then by keyword, and that ``accept(index, values)``
    takes if given; ``values`` maps every parameter name to its value (defaults filled in).
    Else pybind11's TypeError listing the forms, as from ``owner`` (default: the function's
    qualified name). ``cls``: the class whose method it is (see ``overloads``)."""
    forms = signatures(function, cls)
    for index, signature in enumerate(forms):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            continue
        bound.apply_defaults()
        if accept is None or accept(index, bound.arguments):
            return index, bound.arguments
    owner = owner or function.__qualname__.replace(".__init__", "")
    name = owner.rsplit(".", 1)[-1]
    listing = [f"{name}{s}" for s in forms]
    raise incompatible_arguments(
        owner, listing, args, kwargs, constructor=function.__name__ == "__init__"
    )
