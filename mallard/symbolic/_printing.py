"""Text and LaTeX forms of symbolic expressions and formulas, in Drake's notation.

``to_string`` writes a sum as ``(c + a * x - b * y)``, a product as ``(c * x * pow(y, 2))``,
a quotient as ``(x / y)`` and functions by their C++ names (``sin(x)``, ``atan2(y, x)``,
``(if c then a else b)``); numbers print with 17 significant digits. ``to_latex`` follows
Drake's ToLatex: ``(x - 2y)``, ``2 x y``, ``\\frac{x}{y}``, ``x^{2}``, ``\\sin{x}``, numbers with
``precision`` decimals unless integral, π as ``\\pi``.
"""

import math
import re

import sympy

from mallard.symbolic._random import symbol_id

_ONE = sympy.S.One

_FUNCTION_NAMES = {
    sympy.sin: "sin",
    sympy.cos: "cos",
    sympy.tan: "tan",
    sympy.asin: "asin",
    sympy.acos: "acos",
    sympy.atan: "atan",
    sympy.atan2: "atan2",
    sympy.sinh: "sinh",
    sympy.cosh: "cosh",
    sympy.tanh: "tanh",
    sympy.exp: "exp",
    sympy.log: "log",
    sympy.Abs: "abs",
    sympy.Min: "min",
    sympy.Max: "max",
    sympy.ceiling: "ceil",
    sympy.floor: "floor",
}

_RELATIONS = {
    sympy.StrictLessThan: ("<", "<"),
    sympy.LessThan: ("<=", "\\le"),
    sympy.StrictGreaterThan: (">", ">"),
    sympy.GreaterThan: (">=", "\\ge"),
    sympy.Equality: ("==", "="),
    sympy.Unequality: ("!=", "\\neq"),
}


# Drake's order of expression kinds, by which it sorts the terms of a sum and factors of a
# product.
_KIND_ORDER = [
    sympy.Number,
    sympy.Symbol,
    sympy.Add,
    sympy.Mul,
    "division",
    sympy.log,
    sympy.Abs,
    sympy.exp,
    "sqrt",
    sympy.Pow,
    sympy.sin,
    sympy.cos,
    sympy.tan,
    sympy.asin,
    sympy.acos,
    sympy.atan,
    sympy.atan2,
    sympy.sinh,
    sympy.cosh,
    sympy.tanh,
    sympy.Min,
    sympy.Max,
    sympy.ceiling,
    sympy.floor,
    sympy.Piecewise,
]


def _kind(e):
    if e.is_Number:
        return 0
    if e.is_Symbol:
        return 1
    if e.is_Mul and any(_is_inverse(f) for f in e.args):
        return _KIND_ORDER.index("division")
    if e.is_Pow and e.exp == sympy.S.Half:
        return _KIND_ORDER.index("sqrt")
    for i, kind in enumerate(_KIND_ORDER):
        if isinstance(kind, type) and isinstance(e, kind):
            return i
    return len(_KIND_ORDER)


def _order_key(e):
    """A sort key close to Drake's expression order: by kind, then variables by id (type,
    then creation), then arguments in turn."""
    if e.is_Symbol:
        return (1, symbol_id(e))
    if e.is_Number:
        return (0, float(e))
    return (_kind(e), tuple(_order_key(a) for a in e.args))


def _is_inverse(f):
    """True for a factor b^e with a negative numeric exponent."""
    return f.is_Pow and f.exp.is_Number and f.exp.is_negative


def _split(e):
    """(numerator coefficient, numerator factors, denominator coefficient, denominator
    factors) of a product. A coefficient that is a fraction no double equals (``x / 3``)
    is shown as a division."""
    c, factors = e.as_coeff_mul()
    factors = sorted(factors, key=lambda f: _order_key(f.base if f.is_Pow else f))
    num = [f for f in factors if not _is_inverse(f)]
    den = [1 / f for f in factors if _is_inverse(f)]
    if c.is_Rational and not c.is_Integer and sympy.Rational(*float(c).as_integer_ratio()) != c:
        return sympy.Integer(c.p), num, sympy.Integer(c.q), den
    return c, num, _ONE, den


def _terms(e):
    """(constant, [(coefficient, term)]) of a sum."""
    constant, rest = e.as_coeff_add()
    terms = [t.as_coeff_Mul() for t in rest]
    return constant, sorted(terms, key=lambda ct: _order_key(ct[1]))


def _binary_nest(name, args, show):
    """``name(a, name(b, c))`` for a flattened n-ary min/max."""
    if len(args) == 1:
        return show(args[0])
    return f"{name}({show(args[0])}, {_binary_nest(name, args[1:], show)})"


def _piecewise_pieces(e):
    pieces = list(e.args)
    if pieces[-1][1] is not sympy.true:
        raise NotImplementedError(f"a piecewise expression without an otherwise branch: {e}")
    return pieces


# ---- text -----------------------------------------------------------------------------------
def number_to_string(n):
    if n.is_Integer:
        return str(int(n))
    value = float(n)
    if math.isnan(value):
        return "NaN"
    return f"{value:.17g}"


def _product_to_string(c, factors):
    parts = ([] if c == 1 else [number_to_string(c)]) + [to_string(f) for f in factors]
    if len(parts) == 1:
        return parts[0]
    return "(" + " * ".join(parts) + ")"


def to_string(e):
    """Drake's text form of the sympy expression ``e``."""
    if e.is_Number:
        return number_to_string(e)
    if e.is_Symbol:
        return e.name
    if e.is_Add:
        constant, terms = _terms(e)
        out = [] if constant == 0 else [number_to_string(constant)]
        for c, t in terms:
            sign = " - " if c < 0 else (" + " if out else "")
            magnitude = -c if c < 0 else c
            out.append(sign + ("" if magnitude == 1 else number_to_string(magnitude) + " * "))
            out.append(to_string(t))
        return "(" + "".join(out) + ")"
    if e.is_Mul:
        c, num, c_den, den = _split(e)
        if not den and c_den == 1:
            return _product_to_string(c, num)
        return f"({_product_to_string(c, num)} / {_product_to_string(c_den, den)})"
    if e.is_Pow:
        if e.exp == sympy.S.Half:
            return f"sqrt({to_string(e.base)})"
        if _is_inverse(e):
            return f"(1 / {to_string(1 / e)})"
        return f"pow({to_string(e.base)}, {to_string(e.exp)})"
    if isinstance(e, sympy.Piecewise):
        *pieces, (otherwise, _) = _piecewise_pieces(e)
        out = to_string(otherwise)
        for value, condition in reversed(pieces):
            out = f"(if {formula_to_string(condition)} then {to_string(value)} else {out})"
        return out
    name = _FUNCTION_NAMES.get(e.func, e.func.__name__)
    if e.func in (sympy.Min, sympy.Max):
        return _binary_nest(name, e.args, to_string)
    return f"{name}({', '.join(to_string(a) for a in e.args)})"


def formula_to_string(f):
    """Drake's text form of the sympy boolean ``f``."""
    if f is sympy.true or f is sympy.false:
        return str(bool(f))
    if isinstance(f, sympy.core.relational.Relational):
        op = _RELATIONS[type(f)][0]
        return f"({to_string(f.lhs)} {op} {to_string(f.rhs)})"
    if isinstance(f, (sympy.And, sympy.Or)):
        op = " and " if isinstance(f, sympy.And) else " or "
        return "(" + op.join(formula_to_string(a) for a in f.args) + ")"
    if isinstance(f, sympy.Not):
        return f"!({formula_to_string(f.args[0])})"
    raise NotImplementedError(f"formula {f} has no text form in mallard.symbolic")


# ---- LaTeX ----------------------------------------------------------------------------------
def number_to_latex(n, precision):
    value = float(n)
    if value == math.pi:
        return "\\pi"
    if value == math.e:
        return "e"
    if value.is_integer():
        return str(int(value))
    return f"{value:.{precision}f}"


def _product_to_latex(c, factors, precision):
    parts = [] if c == 1 else [number_to_latex(c, precision)]
    parts += [to_latex(f, precision) for f in factors]
    return " ".join(parts) if parts else "1"


_LATEX_FUNCTIONS = {sympy.Abs: ("|", "|"), sympy.ceiling: ("\\lceil ", " \\rceil")}
_LATEX_FUNCTIONS[sympy.floor] = ("\\lfloor ", " \\rfloor")


def _name_to_latex(name):
    """A variable's name in LaTeX: ``q(0)`` as ``q_{0}``, ``M(1, 2)`` as ``M_{1, 2}``."""
    match = re.fullmatch(r"(.*)\((.*)\)", name)
    return f"{match[1]}_{{{match[2]}}}" if match else name


def to_latex(e, precision=3):
    """Drake's LaTeX form of the sympy expression ``e``."""
    if e.is_Number:
        return number_to_latex(e, precision)
    if e.is_Symbol:
        return _name_to_latex(e.name)
    if e.is_Add:
        constant, terms = _terms(e)
        out = [] if constant == 0 else [number_to_latex(constant, precision)]
        for c, t in terms:
            sign = " - " if c < 0 else (" + " if out else "")
            magnitude = -c if c < 0 else c
            out.append(sign + ("" if magnitude == 1 else number_to_latex(magnitude, precision)))
            out.append(to_latex(t, precision))
        return "(" + "".join(out) + ")"
    if e.is_Mul:
        c, num, c_den, den = _split(e)
        if not den and c_den == 1:
            return _product_to_latex(c, num, precision)
        numerator = _product_to_latex(c, num, precision)
        return f"\\frac{{{numerator}}}{{{_product_to_latex(c_den, den, precision)}}}"
    if e.is_Pow:
        if e.exp == sympy.S.Half:
            return f"\\sqrt{{{to_latex(e.base, precision)}}}"
        if _is_inverse(e):
            return f"\\frac{{1}}{{{to_latex(1 / e, precision)}}}"
        return f"{to_latex(e.base, precision)}^{{{to_latex(e.exp, precision)}}}"
    if isinstance(e, sympy.exp):
        return f"e^{{{to_latex(e.args[0], precision)}}}"
    if isinstance(e, sympy.atan2):
        y, x = (to_latex(a, precision) for a in e.args)
        return f"\\atan{{\\frac{{{y}}}{{{x}}}}}"
    if e.func in _LATEX_FUNCTIONS:
        left, right = _LATEX_FUNCTIONS[e.func]
        return left + to_latex(e.args[0], precision) + right
    if e.func in (sympy.Min, sympy.Max):
        name = "\\" + _FUNCTION_NAMES[e.func]
        a = to_latex(e.args[0], precision)
        rest = e.args[1] if len(e.args) == 2 else e.func(*e.args[1:])
        return f"{name}\\{{{a}, {to_latex(rest, precision)}\\}}"
    if isinstance(e, sympy.Piecewise):
        rows = [
            f"{to_latex(value, precision)} & \\text{{if }} "
            f"{formula_to_latex(condition, precision)}, \\\\ "
            for value, condition in _piecewise_pieces(e)[:-1]
        ]
        otherwise = to_latex(e.args[-1][0], precision)
        cases = "".join(rows) + f"{otherwise} & \\text{{otherwise}}."
        return f"\\begin{{cases}} {cases}\\end{{cases}}"
    name = _FUNCTION_NAMES.get(e.func, e.func.__name__)
    return f"\\{name}{{{', '.join(to_latex(a, precision) for a in e.args)}}}"


def formula_to_latex(f, precision=3):
    """Drake's LaTeX form of the sympy boolean ``f``."""
    if f is sympy.true or f is sympy.false:
        return "\\text{" + ("true" if f is sympy.true else "false") + "}"
    if isinstance(f, sympy.core.relational.Relational):
        op = _RELATIONS[type(f)][1]
        return f"{to_latex(f.lhs, precision)} {op} {to_latex(f.rhs, precision)}"
    if isinstance(f, (sympy.And, sympy.Or)):
        op = " \\land " if isinstance(f, sympy.And) else " \\lor "
        return op.join(formula_to_latex(a, precision) for a in f.args)
    if isinstance(f, sympy.Not):
        # As Drake, the negation is pushed inward: ¬(a ∧ b) is shown as ¬a ∨ ¬b.
        pushed = sympy.to_nnf(f, simplify=False)
        if not isinstance(pushed, sympy.Not):
            return formula_to_latex(pushed, precision)
        return f"\\neg {formula_to_latex(f.args[0], precision)}"
    raise NotImplementedError(f"formula {f} has no LaTeX form in mallard.symbolic")
