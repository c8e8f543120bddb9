"""to_sympy and from_sympy (pydrake.symbolic's conversions to and from SymPy).

mallard's expressions are sympy expressions already: to_sympy unwraps them (a Variable is a
real ``sympy.Dummy``), from_sympy wraps them."""

import numbers

import numpy as np
import sympy

from mallard.symbolic._expression import Expression, Variable, _number, _wrap
from mallard.symbolic._formula import Formula


def to_sympy(x, *, memo=None):
    """The SymPy form of a float, Variable, Expression or Formula; a number is returned
    as is. ``memo``, if given, receives ``{variable id: sympy symbol, sympy symbol:
    Variable}`` for every variable met."""
    if isinstance(x, (numbers.Real, np.bool_)):
        return x
    if isinstance(x, Formula):
        s = x._f
    elif isinstance(x, (Expression, Variable)):
        s = x._sym
    else:
        raise TypeError(
            f"to_sympy: expected a float, Variable, Expression or Formula, got {type(x).__name__}"
        )
    if memo is not None:
        for symbol in s.free_symbols:
            variable = Variable._of(symbol)
            memo[variable.get_id()] = symbol
            memo[symbol] = variable
    return s


def from_sympy(x, *, memo=None):
    """The Expression (or Formula, or float for a number) of a SymPy expression whose symbols
    are mallard Variables' or keys of ``memo`` ({sympy symbol: Variable}). Raises
    NotImplementedError naming a symbol that is neither."""
    x = sympy.sympify(x)
    replace = {}
    for symbol in x.free_symbols:
        if memo is not None and symbol in memo:
            replace[symbol] = memo[symbol]._sym
        elif symbol not in Variable._by_symbol:
            raise NotImplementedError(
                f"The SymPy variable {symbol} is missing from the `memo` dict."
            )
    replace.update({f: _number(float(f)) for f in x.atoms(sympy.Float)})
    x = x.xreplace(replace)
    if x is sympy.true or x is sympy.false:
        return x is sympy.true
    if isinstance(x, sympy.logic.boolalg.Boolean):
        return Formula._wrap(x)
    if x.is_Number:
        return float(x)
    return _wrap(x)
