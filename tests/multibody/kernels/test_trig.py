"""kernels.trig: sines and cosines of floats within 2 ulp of libm's (numpy's np.sin and
np.cos) over every range, libm's own beyond the polynomial's limit; interpreted, the same bits
on floats and np.sin and np.cos on other scalars."""

import numba
import numpy as np
import pytest

from mallard.multibody._kernels.trig import LIMIT, calc_sin_cos
from mallard.multibody._layout import sin_cos_width
from mallard.symbolic import Variable, sin

_run = numba.njit(lambda q, sc: calc_sin_cos(q, sc))


def _compiled_sin_cos(q):
    sc = np.full((3, sin_cos_width(len(q))), np.nan)
    _run(q, sc)
    return sc[0, : len(q)], sc[1, : len(q)]


def _ulps(ours, libm):
    """|ours − libm| in units of libm's last place (0 where both are equal)."""
    spacing = np.spacing(np.maximum(np.abs(libm), np.finfo(float).tiny))
    return np.where(ours == libm, 0.0, np.abs(ours - libm) / spacing)


@pytest.mark.parametrize("scale", [1e-8, 1.0, 4.0, 100.0, 0.99 * LIMIT])
def test_within_two_ulp_of_libm(scale):
    q = np.random.default_rng(0).uniform(-scale, scale, 20_001)
    s, c = _compiled_sin_cos(q)
    assert _ulps(s, np.sin(q)).max() <= 2
    assert _ulps(c, np.cos(q)).max() <= 2


def test_quadrant_boundaries_and_special_values():
    k = np.arange(-40, 41)
    q = np.concatenate(
        [k * np.pi / 2, k * np.pi / 4, np.nextafter(k * np.pi / 4, np.inf), [0.0, -0.0, 5e-324]]
    )
    s, c = _compiled_sin_cos(q)
    np.testing.assert_allclose(s, np.sin(q), rtol=0, atol=3e-16 * 64)
    np.testing.assert_allclose(c, np.cos(q), rtol=0, atol=3e-16 * 64)
    assert _ulps(s, np.sin(q))[np.abs(np.sin(q)) > 1e-3].max() <= 2
    # Beyond the polynomial's limit, and for inf and NaN, libm's values exactly.
    q = np.array([LIMIT, -LIMIT, 3e5, 1e300, np.inf, -np.inf, np.nan])
    s, c = _compiled_sin_cos(q)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(s, np.sin(q))
        np.testing.assert_array_equal(c, np.cos(q))


@pytest.mark.parametrize("n", [0, 1, 31, 32, 33, 70])
def test_every_length_fills_exactly_its_entries(n):
    q = np.linspace(-3.0, 3.0, n)
    sc = np.full((3, sin_cos_width(n)), 7.0)
    _run(q, sc)
    assert sin_cos_width(n) % 32 == 0 and sin_cos_width(n) >= n
    np.testing.assert_allclose(sc[0, :n], np.sin(q), rtol=0, atol=1e-15)
    np.testing.assert_allclose(sc[1, :n], np.cos(q), rtol=0, atol=1e-15)


def test_interpreted_is_the_compiled_on_floats_and_numpy_on_other_scalars():
    x = Variable("x")
    q = np.array([x, 0.5 * x], dtype=object)
    sc = np.zeros((3, sin_cos_width(2)), dtype=object)
    calc_sin_cos(q, sc)
    assert sc[0, 0].EqualTo(sin(x))
    assert sc[1, 1].EqualTo(np.cos(0.5 * x))
    q = np.random.default_rng(1).uniform(-10.0, 10.0, 40)
    sc = np.zeros((3, sin_cos_width(40)), dtype=object)
    calc_sin_cos(q.astype(object), sc)
    s, c = _compiled_sin_cos(q)
    np.testing.assert_array_equal(sc[0, :40].astype(float), s)
    np.testing.assert_array_equal(sc[1, :40].astype(float), c)
