"""Mirror of pydrake.common.deprecation: deprecation warnings for Python code.

As pydrake's, importing this module shows each DrakeDeprecationWarning once (a
``warnings.simplefilter("once", DrakeDeprecationWarning)``); change it with
``warnings.simplefilter``."""

import re
import sys
import types
import warnings

__all__ = [
    "DrakeDeprecationWarning",
    "ModuleShim",
    "deprecated",
    "deprecated_callable",
    "install_numpy_warning_filters",
]


class DrakeDeprecationWarning(DeprecationWarning):
    """A DeprecationWarning of its own, so that these can be filtered without touching other
    libraries'."""


warnings.simplefilter("once", DrakeDeprecationWarning)


def _message(message, date):
    if date is None:
        return message
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise ValueError(f"deprecation date must be YYYY-MM-DD, got {date!r}")
    return f"{message} The deprecated code will be removed from Drake on or after {date}."


def _warn(message, stacklevel=3):
    warnings.warn(message, category=DrakeDeprecationWarning, stacklevel=stacklevel)


class _DeprecatedDescriptor:
    """A class member that warns when it is accessed (then behaves as the original)."""

    def __init__(self, original, message):
        self._original = original
        self._message = message
        self.__doc__ = f"Warning:\n\n    Deprecated: {message}\n\n{original.__doc__ or ''}"

    def __set_name__(self, owner, name):
        self._name = name

    def __get__(self, obj, owner=None):
        _warn(self._message)
        if hasattr(self._original, "__get__"):
            return self._original.__get__(obj, owner)
        return self._original


def deprecated(message, *, date=None):
    """A decorator that deprecates a member of a class (a method, property, ...): accessing
    it warns (DrakeDeprecationWarning) with ``message`` and, given ``date`` (YYYY-MM-DD),
    the date after which it goes."""
    text = _message(message, date)

    def decorator(original):
        return _DeprecatedDescriptor(original, text)

    return decorator


def deprecated_callable(message, *, date=None):
    """A decorator that deprecates a function or class: calling it warns
    (DrakeDeprecationWarning) with ``message`` (and ``date``, see ``deprecated``)."""
    text = _message(message, date)

    def decorator(original):
        def wrapper(*args, **kwargs):
            _warn(text)
            return original(*args, **kwargs)

        wrapper.__name__ = getattr(original, "__name__", "deprecated")
        wrapper.__qualname__ = getattr(original, "__qualname__", wrapper.__name__)
        wrapper.__module__ = getattr(original, "__module__", __name__)
        wrapper.__doc__ = f"Warning:\n\n    Deprecated: {text}\n\n{original.__doc__ or ''}"
        wrapper._deprecated_original = original
        return wrapper

    return decorator


class ModuleShim:
    """Wraps module ``orig_module``: attributes it lacks come from ``handler(name)`` (which
    may warn, then return an alias; AttributeError if it raises one). ``ModuleShim._install
    (name, handler)`` puts the shim in ``sys.modules[name]``."""

    def __init__(self, orig_module, handler):
        if not isinstance(orig_module, types.ModuleType):
            raise TypeError(f"ModuleShim: expected a module, got {type(orig_module).__name__}")
        object.__setattr__(self, "_orig_module", orig_module)
        object.__setattr__(self, "_handler", handler)

    def __getattr__(self, name):
        module = object.__getattribute__(self, "_orig_module")
        if hasattr(module, name):
            return getattr(module, name)
        if name.startswith("__"):
            raise AttributeError(name)
        return object.__getattribute__(self, "_handler")(name)

    def __setattr__(self, name, value):
        setattr(object.__getattribute__(self, "_orig_module"), name, value)

    def __delattr__(self, name):
        delattr(object.__getattribute__(self, "_orig_module"), name)

    def __dir__(self):
        return dir(object.__getattribute__(self, "_orig_module"))

    def __repr__(self):
        return repr(object.__getattribute__(self, "_orig_module"))

    @classmethod
    def _install(cls, name, handler):
        """Replaces module ``name`` in sys.modules with a shim of it."""
        shim = cls(sys.modules[name], handler)
        sys.modules[name] = shim
        return shim


_NUMPY_COMPARISONS = (
    "elementwise comparison failed",
    "elementwise != comparison failed",
    "elementwise == comparison failed",
    "numpy equal will not",
)


def install_numpy_warning_filters(force=False):
    """Makes numpy's "elementwise comparison failed" DeprecationWarnings errors (they hide
    comparisons of object arrays gone wrong). Once, unless ``force``."""
    global _numpy_filters_installed
    if _numpy_filters_installed and not force:
        return
    for text in _NUMPY_COMPARISONS:
        warnings.filterwarnings("error", message=re.escape(text), category=DeprecationWarning)
    _numpy_filters_installed = True


_numpy_filters_installed = False
