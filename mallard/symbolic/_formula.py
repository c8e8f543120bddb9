"""Formula: a symbolic condition, made by comparing expressions (pydrake.symbolic.Formula)."""

import sympy

from mallard.common._pybind import call_form, overloads
from mallard.symbolic._expression import _evaluate, substitute


class Formula:
    """A relation between expressions (``x < y``, ``x == y``...), a conjunction, disjunction or
    negation of formulas, or a constant: ``Formula(True)``, ``Formula.True_()``,
    ``Formula.False_()``.

    ``bool(f)`` gives the value of a formula without free variables (so numeric branches of
    kernels work on constant expressions) and raises RuntimeError, naming the free variables,
    for any other (pydrake raises for every formula)."""

    __slots__ = ("_f",)

    @overloads("", "value")
    def __init__(self, *args, **kwargs):
        """``Formula()`` (false) or ``Formula(value)`` (a bool)."""
        _, values = call_form(Formula.__init__, args, kwargs)
        value = values.get("value", False)
        if not isinstance(value, bool):
            raise TypeError(f"Formula: expected a bool, got {type(value).__name__}")
        self._f = sympy.true if value else sympy.false

    @classmethod
    def _wrap(cls, f):
        formula = object.__new__(cls)
        formula._f = f
        return formula

    @staticmethod
    def True_():
        return Formula(True)

    @staticmethod
    def False_():
        return Formula(False)

    def Evaluate(self, env=None):
        """The truth value with the variables set by ``env`` ({Variable: float}); raises
        RuntimeError naming a variable ``env`` lacks."""
        value = _evaluate(self._f, env)
        if value is not sympy.true and value is not sympy.false:
            raise RuntimeError(f"Formula {self}: cannot be evaluated to true or false")
        return value is sympy.true

    def GetFreeVariables(self):
        from mallard.symbolic._variables import Variables

        return Variables._of_symbols(self._f.free_symbols)

    @overloads("var, e", "s")
    def Substitute(self, *args, **kwargs):
        """``Substitute(var, e)`` or ``Substitute(s)`` (``{var: e, ...}``)."""
        return Formula._wrap(
            substitute(self._f, *call_form(Formula.Substitute, args, kwargs)[1].values())
        )

    def EqualTo(self, other):
        """True if ``other`` is structurally the same formula."""
        return isinstance(other, Formula) and self._f == other._f

    __eq__ = EqualTo

    def __hash__(self):
        return hash(self._f)

    def __bool__(self):
        if self._f is sympy.true or self._f is sympy.false:
            return self._f is sympy.true
        names = ", ".join(v.get_name() for v in self.GetFreeVariables())
        text = str(self)
        text = text if len(text) <= 200 else text[:200] + "..."
        raise RuntimeError(
            f"The truth value of the Formula {text} depends on the variables {{{names}}}: "
            "a symbolic condition cannot be used in an `if` (use if_then_else)"
        )

    def to_string(self):
        from mallard.symbolic._printing import formula_to_string

        return formula_to_string(self._f)

    __str__ = to_string

    def __repr__(self):
        return f'<Formula "{self.to_string()}">'


def _formulas(args, name):
    for f in args:
        if not isinstance(f, Formula):
            raise TypeError(f"{name}: expected Formulas, got {type(f).__name__}")
    return [f._f for f in args]


def logical_and(*formulas):
    """The conjunction of the formulas."""
    return Formula._wrap(sympy.And(*_formulas(formulas, "logical_and")))


def logical_or(*formulas):
    """The disjunction of the formulas."""
    return Formula._wrap(sympy.Or(*_formulas(formulas, "logical_or")))


def logical_not(f):
    """The negation of the formula."""
    return Formula._wrap(sympy.Not(*_formulas((f,), "logical_not")))
