"""Mirror of pydrake.symbolic: Variable, Variables, Expression, Formula and the functions on
them, backed by sympy (the ``symbolic`` extra: ``pip install mallard[symbolic]``)."""

try:
    import sympy  # noqa: F401
except ImportError as error:
    raise ImportError(
        "mallard.symbolic needs sympy: install the 'symbolic' extra "
        "(pip install 'mallard[symbolic]')"
    ) from error

from mallard._public import publish
from mallard.symbolic._expression import Expression, Variable
from mallard.symbolic._formula import Formula, logical_and, logical_not, logical_or
from mallard.symbolic._functions import (
    Evaluate,
    Jacobian,
    MakeMatrixVariable,
    MakeVectorVariable,
    Substitute,
    ToLatex,
    abs,
    acos,
    arccos,
    arcsin,
    arctan,
    arctan2,
    asin,
    atan,
    atan2,
    ceil,
    cos,
    cosh,
    exp,
    floor,
    if_then_else,
    log,
    max,
    min,
    pow,
    sin,
    sinh,
    sqrt,
    tan,
    tanh,
)
from mallard.symbolic._sympy_interop import from_sympy, to_sympy
from mallard.symbolic._variables import Variables

__all__ = [
    "Evaluate",
    "Expression",
    "Formula",
    "Jacobian",
    "MakeMatrixVariable",
    "MakeVectorVariable",
    "Substitute",
    "ToLatex",
    "Variable",
    "Variables",
    "abs",
    "acos",
    "arccos",
    "arcsin",
    "arctan",
    "arctan2",
    "asin",
    "atan",
    "atan2",
    "ceil",
    "cos",
    "cosh",
    "exp",
    "floor",
    "from_sympy",
    "if_then_else",
    "log",
    "logical_and",
    "logical_not",
    "logical_or",
    "max",
    "min",
    "pow",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "to_sympy",
]

publish(globals())
