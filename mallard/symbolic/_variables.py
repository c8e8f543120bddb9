"""Variables: a set of symbolic Variables, ordered by id as pydrake orders them (type, then
creation) (pydrake.symbolic.Variables)."""

from mallard.symbolic._expression import Variable
from mallard.symbolic._random import symbol_id


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

    def insert(self, var):
        """Adds a Variable, or every Variable of a Variables."""
        if isinstance(var, Variables):
            self._set.update(var._set)
        elif isinstance(var, Variable):
            self._set[var._sym] = var
        else:
            raise TypeError(f"Variables.insert: expected a Variable, got {type(var).__name__}")

    def erase(self, var):
        """Removes a Variable (or every Variable of a Variables); returns how many were."""
        symbols = var._set if isinstance(var, Variables) else (var._sym,)
        return sum(self._set.pop(s, None) is not None for s in list(symbols))

    def include(self, var):
        return var._sym in self._set

    def size(self):
        return len(self._set)

    def empty(self):
        return not self._set

    def IsSubsetOf(self, other):
        return self._set.keys() <= other._set.keys()

    def IsSupersetOf(self, other):
        return self._set.keys() >= other._set.keys()

    def IsStrictSubsetOf(self, other):
        return self._set.keys() < other._set.keys()

    def IsStrictSupersetOf(self, other):
        return self._set.keys() > other._set.keys()

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
