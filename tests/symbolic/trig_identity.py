"""Deciding that a symbolic result equals a closed form: both sides become polynomials in
sin θ, cos θ of the angles (and the other variables), reduced modulo sin²θ + cos²θ = 1; the
difference must have no coefficient larger than a tolerance (doubles enter the kernels'
arithmetic, so the coefficients agree to rounding, not exactly)."""

import numpy as np
import sympy

from mallard.symbolic import to_sympy


def trig_normal_form(e, angles):
    """The polynomial (sympy.Poly) of sympy expression ``e`` in s_a = sin a, c_a = cos a for
    each symbol a of ``angles`` and in the other symbols, reduced by s_a² + c_a² − 1."""
    s = {a: sympy.Dummy(f"s_{a.name}") for a in angles}
    c = {a: sympy.Dummy(f"c_{a.name}") for a in angles}
    e = sympy.expand(sympy.expand_trig(e))
    e = e.xreplace({sympy.sin(a): s[a] for a in angles} | {sympy.cos(a): c[a] for a in angles})
    others = sorted(e.free_symbols - set(s.values()) - set(c.values()), key=str)
    gens = [*s.values(), *c.values(), *others]
    if e == 0:
        return sympy.Poly(0, *gens)
    identities = [s[a] ** 2 + c[a] ** 2 - 1 for a in angles]
    _, remainder = sympy.reduced(e, identities, *gens, order="lex")
    return sympy.Poly(remainder, *gens)


def assert_trig_equal(actual, expected, angles, tol=1e-12):
    """Asserts that the Expression (or array of Expressions) ``actual`` equals the sympy
    closed form ``expected`` (same shape) as trigonometric polynomials in ``angles``
    (mallard Variables), coefficient by coefficient to ``tol``."""
    actual = np.atleast_1d(np.asarray(actual, dtype=object))
    expected = np.atleast_1d(np.asarray(expected, dtype=object))
    assert actual.shape == expected.shape
    symbols = [to_sympy(a) for a in angles]
    for index, e in np.ndenumerate(actual):
        difference = trig_normal_form(to_sympy(e) - expected[index], symbols)
        largest = max((abs(float(k)) for k in difference.coeffs()), default=0.0)
        assert largest <= tol, f"entry {index}: {to_sympy(e)} differs from {expected[index]}"
