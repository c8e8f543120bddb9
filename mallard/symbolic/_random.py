"""Random variables: the sympy symbols of Variables of types RANDOM_UNIFORM, RANDOM_GAUSSIAN
and RANDOM_EXPONENTIAL, their ids, and their sampling when an expression is evaluated with a
RandomGenerator (as Drake's PopulateRandomVariables)."""

import sympy

from mallard.common._random import RandomDistribution, check_generator, sample

# pydrake's Variable id holds the type in its top 8 bits and a creation counter below, so
# that sets of variables (and the order random variables are drawn in) sort by type first.
_TYPE_SHIFT = 56


class RandomSymbol(sympy.Dummy):
    """The sympy symbol of a random Variable (abstract): ``type_value`` is the value of its
    Variable.Type, ``distribution`` its RandomDistribution."""

    __slots__ = ()
    type_value = None
    distribution = None


class UniformSymbol(RandomSymbol):
    """Uniform on [0, 1)."""

    __slots__ = ()
    type_value = 4
    distribution = RandomDistribution.kUniform


class GaussianSymbol(RandomSymbol):
    """Standard normal."""

    __slots__ = ()
    type_value = 5
    distribution = RandomDistribution.kGaussian


class ExponentialSymbol(RandomSymbol):
    """Exponential of rate 1."""

    __slots__ = ()
    type_value = 6
    distribution = RandomDistribution.kExponential


SYMBOL_CLASSES = {c.type_value: c for c in (UniformSymbol, GaussianSymbol, ExponentialSymbol)}


def symbol_id(symbol):
    """pydrake's id of the Variable of ``symbol``: type in the top 8 bits, then creation
    order (0 for a sympy Symbol that is no Variable's)."""
    return (getattr(symbol, "type_value", 0) << _TYPE_SHIFT) + getattr(symbol, "dummy_index", 0)


def draw_missing(values, symbols, generator, method="Evaluate"):
    """Adds to ``values`` ({sympy symbol: float}) a sample from ``generator`` of each random
    symbol of ``symbols`` that ``values`` lacks, drawn in id order (each once)."""
    check_generator(generator, method)
    missing = [s for s in symbols if isinstance(s, RandomSymbol) and s not in values]
    for s in sorted(missing, key=symbol_id):
        values[s] = sample(s.distribution, generator)
