"""RandomGenerator (pydrake.common.RandomGenerator): the 32-bit Mersenne Twister std::mt19937,
and the draws Drake makes from it with libstdc++'s distributions, reproduced bit for bit.

The engine follows Matsumoto and Nishimura (1998) with the C++ standard's seeding; Drake's
default seed is the standard's 5489. The draws follow libstdc++: a double in [0, 1) is
``generate_canonical`` of two 32-bit outputs (low word first); a standard normal is Marsaglia's
polar method (the second value of the pair is returned, the first would be cached, and Drake
makes a new distribution for every draw, so the cache is never used); an exponential of rate 1
is -log(1 - u).
"""

import enum
import math
import numbers

_N, _M = 624, 397
_MATRIX_A = 0x9908B0DF
_UPPER, _LOWER = 0x80000000, 0x7FFFFFFF
_MASK32 = 0xFFFFFFFF
_TWO_POW_32 = 4294967296.0
_ONE_BELOW_ONE = math.nextafter(1.0, 0.0)
_DEFAULT_SEED = 5489  # std::mt19937::default_seed


class RandomDistribution(enum.Enum):
    """The distributions Drake reasons about explicitly (pydrake.common.RandomDistribution)."""

    __module__ = "mallard.common"  # (its public path: pickles name it)

    kUniform = 0
    kGaussian = 1
    kExponential = 2


class RandomGenerator:
    """The pseudo-random engine std::mt19937: ``RandomGenerator()`` (seed 5489) or
    ``RandomGenerator(seed)``, seed an integer in [0, 2⁶⁴) of which the low 32 bits are used
    (as std::mt19937 does). ``generator()`` is the next 32-bit output."""

    __slots__ = ("_mt", "_index")

    def __init__(self, seed=_DEFAULT_SEED):
        if (
            isinstance(seed, bool)
            or not isinstance(seed, numbers.Integral)
            or not 0 <= int(seed) < 2**64
        ):
            raise TypeError(f"RandomGenerator: seed must be an integer in [0, 2**64), got {seed!r}")
        mt = [int(seed) & _MASK32]
        for i in range(1, _N):
            previous = mt[-1]
            mt.append((1812433253 * (previous ^ (previous >> 30)) + i) & _MASK32)
        self._mt = mt
        self._index = _N

    def _twist(self):
        mt = self._mt
        for i in range(_N):
            y = (mt[i] & _UPPER) | (mt[(i + 1) % _N] & _LOWER)
            mt[i] = mt[(i + _M) % _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        self._index = 0

    def __call__(self):
        """The next output, an integer in [0, 2³²)."""
        if self._index >= _N:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def __repr__(self):
        return f"<RandomGenerator at {self._index} of {_N}>"


def check_generator(generator, method):
    """Raises TypeError unless ``generator`` is a RandomGenerator."""
    if not isinstance(generator, RandomGenerator):
        raise TypeError(f"{method}: expected a RandomGenerator, got {type(generator).__name__}")


def uniform(generator):
    """A double uniform in [0, 1): libstdc++'s generate_canonical<double, 53> of two outputs."""
    low = float(generator())
    value = (low + float(generator()) * _TWO_POW_32) / (_TWO_POW_32 * _TWO_POW_32)
    return _ONE_BELOW_ONE if value >= 1.0 else value


def gaussian(generator):
    """A standard normal double (libstdc++'s normal_distribution on a fresh distribution)."""
    return gaussians(generator, 1)[0]


def gaussians(generator, n):
    """``n`` standard normal doubles drawn by one libstdc++ normal_distribution (as Drake
    draws a vector): each polar-method pair gives its second value, then its first."""
    values = []
    while len(values) < n:
        while True:
            x = 2.0 * uniform(generator) - 1.0
            y = 2.0 * uniform(generator) - 1.0
            r2 = x * x + y * y
            if r2 <= 1.0 and r2 != 0.0:
                break
        scale = math.sqrt(-2.0 * math.log(r2) / r2)
        values += [y * scale, x * scale]
    return values[:n]


def exponential(generator):
    """An exponential double of rate 1 (libstdc++'s exponential_distribution)."""
    return -math.log(1.0 - uniform(generator))


def sample(distribution, generator):
    """One double drawn from ``distribution`` (a RandomDistribution) of ``generator``."""
    return _SAMPLERS[distribution](generator)


_SAMPLERS = {
    RandomDistribution.kUniform: uniform,
    RandomDistribution.kGaussian: gaussian,
    RandomDistribution.kExponential: exponential,
}
