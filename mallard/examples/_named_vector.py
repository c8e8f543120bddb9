"""NamedVector: a BasicVector whose elements have names, as Drake's generated vector types
(PendulumState, AcrobotParams, ...) have: ``x.theta()``, ``x.set_theta(v)``,
``x.with_theta(v)`` (a copy with that element set)."""

import numpy as np

from mallard.systems.framework import BasicVector


class NamedVector(BasicVector):
    """A BasicVector with named elements. Subclasses set ``_NAMES`` and ``_DEFAULTS`` (the
    values ``X()`` starts with); the accessors are made for each name."""

    __slots__ = ()
    _NAMES = ()
    _DEFAULTS = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for i, name in enumerate(cls._NAMES):
            setattr(cls, name, _getter(i, name))
            setattr(cls, f"set_{name}", _setter(i, name))
            setattr(cls, f"with_{name}", _with(name))

    def __init__(self):
        super().__init__(np.array(self._DEFAULTS, dtype=float))

    def Clone(self):
        clone = type(self)()
        clone._data = self._data.copy()
        return clone

    @classmethod
    def _view(cls, vector):
        """``vector`` (a Context's vector, whose class may be plain: the integrators hold the
        state their own way) seen as this class: the same elements, changes reported to the
        same Context."""
        if type(vector) is cls:
            return vector
        view = cls.__new__(cls)
        view._data, view._on_change = vector._data, vector._on_change
        return view


def _getter(i, name):
    def get(self):
        return self.GetAtIndex(i)

    get.__name__ = get.__qualname__ = name
    get.__doc__ = f"The element ``{name}``."
    return get


def _setter(i, name):
    def set_(self, value):
        self.SetAtIndex(i, value)

    set_.__doc__ = f"Sets the element ``{name}``."
    return _named(set_, f"set_{name}", name)


def _with(name):
    def with_(self, value):
        result = self.Clone()
        getattr(result, f"set_{name}")(value)
        return result

    with_.__doc__ = f"A copy with the element ``{name}`` set."
    return _named(with_, f"with_{name}", name)


def _named(function, name, argument):
    """``function(self, value)`` as ``name(self, <argument>)``: its parameter takes the
    element's name, the keyword pydrake's accessors take (e.g. ``set_theta(theta=...)``)."""
    code = function.__code__
    function.__code__ = code.replace(co_varnames=("self", argument, *code.co_varnames[2:]))
    function.__name__ = function.__qualname__ = name
    return function
