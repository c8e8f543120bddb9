"""Variables: a set of symbolic Variables, ordered by id as pydrake orders them (type, then
creation) (pydrake.symbolic.Variables)."""

from mallard.common._pybind import call_form, overloads
from mallard.symbolic._expression import Variable
from mallard.symbolic._random import symbol_id


def _variable_or_variables(form, values):
    """Whether a call form fits its argument: the first takes a Variable (or anything else,
    rejected later), the second a Variables."""
    return isinstance(next(iter(values.values())), Variables) == (form == 1)


class Variables:
    """A set of Variables: ``Variables()`` or ``Variables(iterable of Variable)``."""

    __slots__ = ("_set",)

    def __init__(self, vars=()):
        self._set = {}
        for v in vars:
            self.insert(v)

    @classmethod
    def _of_symbols(cls, symbols):
        """The Variables of a set of sympy symbols."""
        vs = cls()
        for s in sorted(symbols, key=symbol_id):
            vs._set[s] = Variable._of(s)
        return vs

    def _sorted(self):
        return sorted(self._set.values(), key=Variable.get_id)

    @overloads("var", "vars")
    def insert(self, *args, **kwargs):
        """Adds a Variable ``var``, or every Variable of a Variables ``vars``."""
        _, values = call_form(Variables.insert, args, kwargs, accept=_variable_or_variables)
        (var,) = values.values()
        if isinstance(var, Variables):
            self._set.update(var._set)
        elif isinstance(var, Variable):
            self._set[var._sym] = var
        else:
            raise TypeError(f"Variables.insert: expected a Variable, got {type(var).__name__}")

    @overloads("key", "vars")
    def erase(self, *args, **kwargs):
        """Removes a Variable ``key`` (or every Variable of a Variables ``vars``); returns how
        many were."""
        _, values = call_form(Variables.erase, args, kwargs, accept=_variable_or_variables)
        (var,) = values.values()
        symbols = var._set if isinstance(var, Variables) else (var._sym,)
        return sum(self._set.pop(s, None) is not None for s in list(symbols))

    def include(self, key):
        return key._sym in self._set

    def size(self):
        return len(self._set)

    def empty(self):
        return not self._set

    def IsSubsetOf(self, vars):
        return self._set.keys() <= vars._set.keys()

    def IsSupersetOf(self, vars):
        return self._set.keys() >= vars._set.keys()

    def IsStrictSubsetOf(self, vars):
        return self._set.keys() < vars._set.keys()

    def IsStrictSupersetOf(self, vars):
        return self._set.keys() > vars._set.keys()

    def EqualTo(self, other):
        return isinstance(other, Variables) and self._set.keys() == other._set.keys()

    __eq__ = EqualTo
    __hash__ = None

    def __contains__(self, var):
        return isinstance(var, Variable) and self.include(var)

    def __len__(self):
        return len(self._set)

    def __iter__(self):
        return iter(self._sorted())

    def to_string(self):
        return "{" + ", ".join(v.get_name() for v in self._sorted()) + "}"

    __str__ = to_string

    def __repr__(self):
        return f'<Variables "{self.to_string()}">'
