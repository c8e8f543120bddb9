"""Variable and Expression: symbolic scalars backed by sympy (pydrake.symbolic.Variable,
Expression).

An Expression is a thin wrapper (one slot) around a sympy expression. Numbers enter exactly: a
double is converted to the sympy Rational it equals (integral values to Integers), so symbolic
arithmetic is exact; arithmetic between two constants is folded in double precision, as Drake
folds it, so constants stay doubles. Adding 0 and multiplying by 0 or 1 short-circuit before
sympy is called (the multibody kernels do many of those on object arrays).
"""

import builtins
import enum
import functools
import math
import numbers
import weakref

import numpy as np
import sympy

from mallard.common._pybind import call_form, overloads
from mallard.common._random import RandomGenerator
from mallard.symbolic._random import SYMBOL_CLASSES, draw_missing, symbol_id

_ZERO = sympy.S.Zero
_ONE = sympy.S.One


@functools.lru_cache(maxsize=4096)
def _number(x):
    """The exact sympy number equal to the double (or integer) ``x``."""
    if isinstance(x, numbers.Integral):
        return sympy.Integer(int(x))
    x = float(x)
    if math.isnan(x):
        return sympy.nan
    if math.isinf(x):
        return sympy.oo if x > 0 else -sympy.oo
    if x.is_integer():
        return sympy.Integer(int(x))
    return sympy.Rational(*x.as_integer_ratio())


def _operand(x):
    """The sympy expression of ``x`` (Expression, Variable or real number), or None."""
    if isinstance(x, (Expression, Variable)):
        return x._sym
    if isinstance(x, (numbers.Real, np.bool_)):
        return _number(x)
    return None


def to_sym(x, name="argument"):
    """The sympy expression of ``x``; raises TypeError naming ``name`` for other types."""
    s = _operand(x)
    if s is None:
        raise TypeError(f"{name}: expected a float, Variable or Expression, got {type(x).__name__}")
    return s


def _wrap(s):
    """An Expression holding the sympy expression ``s`` (no conversion)."""
    e = object.__new__(Expression)
    e._sym = s
    return e


def _fold_binary(a, b, op):
    """``op`` on two constant sympy numbers, in double precision."""
    try:
        return _number(op(float(a), float(b)))
    except ZeroDivisionError:
        return _number(math.copysign(math.inf, float(a)) if float(a) != 0 else math.nan)


def _add(a, b):
    if b is _ZERO:
        return _wrap(a)
    if a is _ZERO:
        return _wrap(b)
    if a.is_Number and b.is_Number:
        return _wrap(_fold_binary(a, b, float.__add__))
    return _wrap(a + b)


def _mul(a, b):
    if a is _ZERO or b is _ZERO:
        return _wrap(_ZERO)
    if b is _ONE:
        return _wrap(a)
    if a is _ONE:
        return _wrap(b)
    if a.is_Number and b.is_Number:
        return _wrap(_fold_binary(a, b, float.__mul__))
    return _wrap(a * b)


def _div(a, b):
    if b is _ONE:
        return _wrap(a)
    if a.is_Number and b.is_Number:
        return _wrap(_fold_binary(a, b, float.__truediv__))
    return _wrap(a / b)


def _pow(a, b):
    if b is _ONE:
        return _wrap(a)
    if a.is_Number and b.is_Number:
        return _wrap(_constant("pow", math.pow, a, b))
    return _wrap(a**b)


def _constant(name, fn, *args):
    """``fn`` of constant sympy numbers in double precision; a domain error raises ValueError
    naming the function and its arguments (as Drake does)."""
    values = [float(a) for a in args]
    try:
        return _number(fn(*values))
    except (ValueError, ZeroDivisionError, OverflowError):
        shown = ", ".join(f"{v:g}" for v in values)
        raise ValueError(f"{name}({shown}) : numerical argument out of domain") from None


def _apply(name, sympy_fn, float_fn, *args):
    """The Expression ``sympy_fn(*args)``, folded in double precision if every argument is a
    constant."""
    if all(a.is_Number for a in args):
        return _wrap(_constant(name, float_fn, *args))
    return _wrap(sympy_fn(*args))


def _formula(relation, a, b):
    from mallard.symbolic._formula import Formula

    other = _operand(b)
    if other is None:
        return NotImplemented
    return Formula._wrap(relation(a._sym, other))


class _Scalar:
    """Arithmetic, comparisons (giving a Formula) and the math functions numpy calls on object
    arrays (``np.sin(a)`` calls ``a.sin()``), shared by Variable and Expression."""

    __slots__ = ()

    def __add__(self, other):
        b = _operand(other)
        return NotImplemented if b is None else _add(self._sym, b)

    def __radd__(self, other):
        b = _operand(other)
        return NotImplemented if b is None else _add(b, self._sym)

    def __sub__(self, other):
        b = _operand(other)
        if b is None:
            return NotImplemented
        return _add(self._sym, _mul(b, -_ONE)._sym)

    def __rsub__(self, other):
        b = _operand(other)
        return NotImplemented if b is None else _add(b, _mul(self._sym, -_ONE)._sym)

    def __mul__(self, other):
        b = _operand(other)
        return NotImplemented if b is None else _mul(self._sym, b)

    def __rmul__(self, other):
        b = _operand(other)
        return NotImplemented if b is None else _mul(b, self._sym)

    def __truediv__(self, other):
        b = _operand(other)
        return NotImplemented if b is None else _div(self._sym, b)

    def __rtruediv__(self, other):
        b = _operand(other)
        return NotImplemented if b is None else _div(b, self._sym)

    def __pow__(self, other):
        b = _operand(other)
        return NotImplemented if b is None else _pow(self._sym, b)

    def __neg__(self):
        return _mul(self._sym, -_ONE)

    def __pos__(self):
        return _wrap(self._sym)

    def __abs__(self):
        return _apply("abs", sympy.Abs, abs, self._sym)

    def __lt__(self, other):
        return _formula(sympy.Lt, self, other)

    def __le__(self, other):
        return _formula(sympy.Le, self, other)

    def __gt__(self, other):
        return _formula(sympy.Gt, self, other)

    def __ge__(self, other):
        return _formula(sympy.Ge, self, other)

    def __eq__(self, other):
        return _formula(sympy.Eq, self, other)

    def __ne__(self, other):
        return _formula(sympy.Ne, self, other)

    # The functions numpy's object loops call, and pydrake's spellings of them.
    def abs(self):
        return self.__abs__()

    def sin(self):
        return _apply("sin", sympy.sin, math.sin, self._sym)

    def cos(self):
        return _apply("cos", sympy.cos, math.cos, self._sym)

    def tan(self):
        return _apply("tan", sympy.tan, math.tan, self._sym)

    def asin(self):
        return _apply("asin", sympy.asin, math.asin, self._sym)

    def acos(self):
        return _apply("acos", sympy.acos, math.acos, self._sym)

    def atan(self):
        return _apply("atan", sympy.atan, math.atan, self._sym)

    def atan2(self, x):
        """atan2(self, x): the angle of the point (x, self)."""
        return _apply("atan2", sympy.atan2, math.atan2, self._sym, to_sym(x, "atan2"))

    def sinh(self):
        return _apply("sinh", sympy.sinh, math.sinh, self._sym)

    def cosh(self):
        return _apply("cosh", sympy.cosh, math.cosh, self._sym)

    def tanh(self):
        return _apply("tanh", sympy.tanh, math.tanh, self._sym)

    def exp(self):
        return _apply("exp", sympy.exp, math.exp, self._sym)

    def log(self):
        return _apply("log", sympy.log, math.log, self._sym)

    def sqrt(self):
        return _apply("sqrt", sympy.sqrt, math.sqrt, self._sym)

    def pow(self, exponent):
        return _pow(self._sym, to_sym(exponent, "pow"))

    def min(self, other):
        return _apply("min", sympy.Min, min, self._sym, to_sym(other, "min"))

    def max(self, other):
        return _apply("max", sympy.Max, max, self._sym, to_sym(other, "max"))

    def ceil(self):
        return _apply("ceil", sympy.ceiling, math.ceil, self._sym)

    def floor(self):
        return _apply("floor", sympy.floor, math.floor, self._sym)

    arcsin, arccos, arctan, arctan2 = asin, acos, atan, atan2
    __floor__, __ceil__ = floor, ceil  # numpy's np.floor / np.ceil call math.floor / math.ceil


class Variable(_Scalar):
    """A symbolic variable (``Variable(name)`` or ``Variable(name, type)``), unique: two
    Variables made with the same name are different variables. The types supported are
    CONTINUOUS and the random ones: RANDOM_UNIFORM (on [0, 1)), RANDOM_GAUSSIAN (standard
    normal) and RANDOM_EXPONENTIAL (rate 1), drawn when an expression is evaluated with a
    RandomGenerator."""

    class Type(enum.Enum):
        CONTINUOUS = 0
        INTEGER = 1
        BINARY = 2
        BOOLEAN = 3
        RANDOM_UNIFORM = 4
        RANDOM_GAUSSIAN = 5
        RANDOM_EXPONENTIAL = 6

    __slots__ = ("_sym", "__weakref__")
    # One Variable object per sympy symbol, so that variables found in an expression are the
    # very objects the user made.
    _by_symbol = weakref.WeakValueDictionary()

    def __new__(cls, name, type=Type.CONTINUOUS):
        if not isinstance(name, str):
            raise TypeError(f"Variable: expected a str name, got {builtins.type(name).__name__}")
        if not isinstance(type, Variable.Type):
            raise TypeError(
                f"Variable '{name}': expected a Variable.Type, got {builtins.type(type).__name__}"
            )
        if type == Variable.Type.CONTINUOUS:
            return cls._of(sympy.Dummy(name, real=True))
        if type.value not in SYMBOL_CLASSES:
            raise NotImplementedError(
                f"Variable '{name}': type {type.name} is not supported by mallard.symbolic "
                "(only CONTINUOUS, RANDOM_UNIFORM, RANDOM_GAUSSIAN and RANDOM_EXPONENTIAL)"
            )
        return cls._of(SYMBOL_CLASSES[type.value](name, real=True))

    @classmethod
    def _of(cls, symbol):
        """The Variable of sympy symbol ``symbol``."""
        v = cls._by_symbol.get(symbol)
        if v is None:
            v = object.__new__(cls)
            v._sym = symbol
            cls._by_symbol[symbol] = v
        return v

    def __reduce__(self):
        return (Variable._of, (self._sym,))

    def get_id(self):
        """A number unique to this variable (ordered as pydrake's: by type, then creation)."""
        return symbol_id(self._sym)

    def get_name(self):
        return self._sym.name

    def get_type(self):
        return Variable.Type(getattr(self._sym, "type_value", 0))

    def EqualTo(self, other):
        """True if ``other`` is this very variable."""
        return isinstance(other, Variable) and other._sym == self._sym

    def __hash__(self):
        return hash(self._sym)

    def __str__(self):
        return self._sym.name

    def __repr__(self):
        return f"Variable('{self._sym.name}', {_TYPE_NAMES[self.get_type()]})"


class Expression(_Scalar):
    """A symbolic expression: ``Expression()`` (0), ``Expression(float)``,
    ``Expression(Variable)``. Arithmetic with floats, Variables and Expressions gives an
    Expression; comparisons give a Formula."""

    __slots__ = ("_sym",)
    __hash__ = None  # as pydrake's: == builds a Formula

    @overloads("", "constant", "var")
    def __init__(self, *args, **kwargs):
        if kwargs or len(args) > 1:
            accept = _constant_or_variable
            args = tuple(call_form(Expression.__init__, args, kwargs, accept=accept)[1].values())
        self._sym = to_sym(args[0] if args else 0.0, "Expression")

    def __reduce__(self):
        return (_wrap, (self._sym,))

    def Evaluate(self, env=None, generator=None):
        """The value (a float) with the variables set by ``env`` ({Variable: float}) and the
        random variables ``env`` lacks drawn from ``generator`` (a RandomGenerator), once
        each, in id order; ``Evaluate(generator)`` draws them all. Raises RuntimeError naming
        a variable ``env`` lacks (a random one too, without a generator), or if the value is
        NaN."""
        if isinstance(env, RandomGenerator) and generator is None:
            env, generator = None, env
        if generator is not None:
            env = with_random_samples(env, self._sym.free_symbols, generator)
        if self._sym.is_Number:
            return _finite(self._sym)
        return _finite(_evaluate(self._sym, env).evalf())

    def EvaluatePartial(self, env):
        """The Expression with the variables of ``env`` ({Variable: float}) set."""
        return _wrap(self._sym.xreplace({s: _number(x) for s, x in _environment(env)}))

    @overloads("var, e", "s")
    def Substitute(self, *args, **kwargs):
        """``Substitute(var, e)`` or ``Substitute(s)`` (``{var: e, ...}``): the Expression with
        each variable replaced by its expression (or float)."""
        return _wrap(
            substitute(self._sym, *call_form(Expression.Substitute, args, kwargs)[1].values())
        )

    def Expand(self):
        """The expanded expression (products and integer powers of sums distributed)."""
        return _wrap(sympy.expand(self._sym, deep=True, mul=True, multinomial=True))

    def Differentiate(self, x):
        """∂self/∂x for the Variable ``x``."""
        if not isinstance(x, Variable):
            raise TypeError(f"Differentiate: expected a Variable, got {type(x).__name__}")
        return _wrap(sympy.diff(self._sym, x._sym))

    def Jacobian(self, vars):
        """The 1-D array [∂self/∂vars[j]]."""
        return np.array([self.Differentiate(x) for x in vars], dtype=object)

    def GetVariables(self):
        """The Variables this expression depends on."""
        from mallard.symbolic._variables import Variables

        return Variables._of_symbols(self._sym.free_symbols)

    GetFreeVariables = GetVariables

    def EqualTo(self, other):
        """True if ``other`` is structurally the same expression."""
        return isinstance(other, (Expression, Variable)) and self._sym == other._sym

    def is_polynomial(self):
        """True if the expression is a polynomial in its variables."""
        return bool(self._sym.is_polynomial())

    def to_string(self):
        from mallard.symbolic._printing import to_string

        return to_string(self._sym)

    def __str__(self):
        return self.to_string()

    def __repr__(self):
        return f'<Expression "{self.to_string()}">'


def _finite(value):
    """The float of a constant sympy value; RuntimeError if it is NaN (as in Drake) or not a
    real number."""
    try:
        result = float(value)
    except TypeError:
        raise RuntimeError(f"Evaluate: the value {value} is not a real number") from None
    if math.isnan(result):
        raise RuntimeError("NaN is detected during Symbolic computation.")
    return result


def _environment(env):
    """(sympy symbol, float) of each entry of ``env`` ({Variable: float})."""
    for v, x in (env or {}).items():
        if not isinstance(v, Variable):
            raise TypeError(f"environment: expected Variable keys, got {type(v).__name__}")
        yield v._sym, float(x)


_TYPE_NAMES = {
    Variable.Type.CONTINUOUS: "Continuous",
    Variable.Type.RANDOM_UNIFORM: "Random Uniform",
    Variable.Type.RANDOM_GAUSSIAN: "Random Gaussian",
    Variable.Type.RANDOM_EXPONENTIAL: "Random Exponential",
}


def with_random_samples(env, symbols, generator):
    """``env`` ({Variable: float}) with a sample from ``generator`` added for each random
    variable of ``symbols`` (sympy symbols) it lacks (Drake's PopulateRandomVariables)."""
    values = dict(_environment(env))
    draw_missing(values, symbols, generator)
    return {Variable._of(s): x for s, x in values.items()}


def _evaluate(e, env):
    """The sympy value of ``e`` with the variables of ``env`` set (RuntimeError naming the
    first variable ``env`` lacks)."""
    values = {s: sympy.Float(x) for s, x in _environment(env)}
    missing = [s for s in e.free_symbols if s not in values]
    if missing:
        name = min(missing, key=symbol_id).name
        raise RuntimeError(
            f"The following environment does not have an entry for the variable {name}"
        )
    return e.xreplace(values)


def _constant_or_variable(form, values):
    """Whether Expression's call form fits its argument (``var`` a Variable)."""
    return not values or isinstance(next(iter(values.values())), Variable) == (form == 2)


def substitute(e, *args):
    """sympy expression ``e`` with ``(var, expr)`` or ``({var: expr})`` substituted."""
    if len(args) == 2:
        subst = {args[0]: args[1]}
    elif len(args) == 1 and isinstance(args[0], dict):
        subst = args[0]
    else:
        raise TypeError("Substitute: expected (Variable, Expression) or {Variable: Expression}")
    for v in subst:
        if not isinstance(v, Variable):
            raise TypeError(f"Substitute: expected Variable keys, got {type(v).__name__}")
    return e.xreplace({v._sym: to_sym(x, "Substitute") for v, x in subst.items()})
