"""RandomGenerator (std::mt19937) against the C++ standard's check value and the published
reference outputs, and the draws on it (uniform, Gaussian, exponential) against libstdc++'s
formulas and their distributions' moments."""

import math

import numpy as np
import pytest

from mallard.common import RandomDistribution, RandomGenerator
from mallard.common._random import exponential, gaussian, sample, uniform


def test_default_seed_is_5489_and_matches_the_standard_check_value():
    # [rand.predef]: the 10000th consecutive invocation of a default-constructed mt19937
    # produces 4123659995.
    g = RandomGenerator()
    outputs = [g() for _ in range(10000)]
    assert outputs[-1] == 4123659995
    # Matsumoto and Nishimura's reference outputs for init_genrand(5489).
    assert outputs[:3] == [3499211612, 581869302, 3890346734]
    g = RandomGenerator(5489)
    assert [g() for _ in range(3)] == outputs[:3]


def test_outputs_are_32_bit_and_seeds_differ():
    g0, g1 = RandomGenerator(0), RandomGenerator(1)
    a, b = [g0() for _ in range(1000)], [g1() for _ in range(1000)]
    assert all(0 <= x < 2**32 for x in a + b)
    assert a[:3] == [2357136044, 2546248239, 3071714933]  # init_genrand(0)
    assert a != b


def test_seed_uses_its_low_32_bits():
    g, h = RandomGenerator(2**32 + 7), RandomGenerator(7)
    assert [g() for _ in range(5)] == [h() for _ in range(5)]
    RandomGenerator(2**64 - 1)()  # the largest seed pydrake takes


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "1", True, None])
def test_bad_seed_raises_type_error(seed):
    with pytest.raises(TypeError, match="RandomGenerator: seed must be an integer"):
        RandomGenerator(seed)


def test_numpy_integer_seed():
    g, h = RandomGenerator(np.uint32(3)), RandomGenerator(3)
    assert g() == h()


def test_uniform_is_generate_canonical_of_two_outputs():
    g, raw = RandomGenerator(9), RandomGenerator(9)
    for _ in range(100):
        low, high = raw(), raw()
        expected = (float(low) + float(high) * 2.0**32) / 2.0**64
        assert uniform(g) == min(expected, math.nextafter(1.0, 0.0))


def test_gaussian_is_the_polar_method_on_uniform_draws():
    g, raw = RandomGenerator(4), RandomGenerator(4)
    for _ in range(50):
        while True:
            x, y = 2.0 * uniform(raw) - 1.0, 2.0 * uniform(raw) - 1.0
            r2 = x * x + y * y
            if 0.0 < r2 <= 1.0:
                break
        assert gaussian(g) == y * math.sqrt(-2.0 * math.log(r2) / r2)
    assert g() == raw()  # as many outputs used


def test_exponential_is_minus_log_one_minus_uniform():
    g, raw = RandomGenerator(5), RandomGenerator(5)
    for _ in range(50):
        assert exponential(g) == -math.log(1.0 - uniform(raw))


@pytest.mark.parametrize(
    "distribution, mean, variance, support",
    [
        (RandomDistribution.kUniform, 0.5, 1 / 12, (0.0, 1.0)),
        (RandomDistribution.kGaussian, 0.0, 1.0, (-math.inf, math.inf)),
        (RandomDistribution.kExponential, 1.0, 1.0, (0.0, math.inf)),
    ],
)
def test_moments_of_the_distributions(distribution, mean, variance, support):
    g = RandomGenerator(2024)
    x = np.array([sample(distribution, g) for _ in range(40000)])
    assert np.all((support[0] <= x) & (x < support[1]))
    # 40000 draws: the sample mean's standard error is √(var/40000) ≤ 0.005.
    assert abs(x.mean() - mean) < 0.02
    assert abs(x.var() - variance) < 0.05 * variance


def test_random_distribution_members():
    assert [d.name for d in RandomDistribution] == ["kUniform", "kGaussian", "kExponential"]
    assert [d.value for d in RandomDistribution] == [0, 1, 2]
