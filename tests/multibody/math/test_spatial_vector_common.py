"""Behaviour shared by the four spatial vector types: construction, access, arithmetic, repr."""

import copy
import pickle

import numpy as np
import pytest
import sympy

from mallard.multibody.math import (
    SpatialAcceleration,
    SpatialForce,
    SpatialMomentum,
    SpatialVelocity,
)
from tests.dual import Dual

# Each type with its constructor keywords (rotational, translational, 6-vector), as pydrake.
TYPES = [
    (SpatialVelocity, "w", "v", "V"),
    (SpatialAcceleration, "alpha", "a", "A"),
    (SpatialForce, "tau", "f", "F"),
    (SpatialMomentum, "h", "l", "L"),
]
ALL = pytest.mark.parametrize("cls, rot, trans, whole", TYPES, ids=[t[0].__name__ for t in TYPES])


@ALL
def test_constructors(cls, rot, trans, whole):
    c = np.arange(1.0, 7.0)
    for x in (
        cls(c[:3], c[3:]),
        cls(**{rot: c[:3], trans: c[3:]}),
        cls(c[:3], **{trans: c[3:]}),
        cls(c),
        cls(**{whole: c}),
        cls(c.reshape(6, 1)),
        cls([1, 2, 3, 4, 5, 6]),
    ):
        assert type(x) is cls
        np.testing.assert_array_equal(x.get_coeffs(), c)
        np.testing.assert_array_equal(x.rotational(), c[:3])
        np.testing.assert_array_equal(x.translational(), c[3:])
        assert x.get_coeffs().dtype == np.float64


@ALL
def test_default_is_nan_and_zero_is_zero(cls, rot, trans, whole):
    assert np.isnan(cls().get_coeffs()).all() and cls().get_coeffs().shape == (6,)
    np.testing.assert_array_equal(cls.Zero().get_coeffs(), np.zeros(6))
    x = cls(np.ones(6))
    assert x.SetZero() is x
    np.testing.assert_array_equal(x.get_coeffs(), np.zeros(6))


@ALL
def test_constructor_does_not_alias_input(cls, rot, trans, whole):
    c = np.arange(6.0)
    x = cls(c)
    c[0] = 100.0
    assert x.get_coeffs()[0] == 0.0


@ALL
def test_accessors_return_copies(cls, rot, trans, whole):
    x = cls(np.arange(6.0))
    r, t, c = x.rotational(), x.translational(), x.get_coeffs()
    with pytest.raises(ValueError):
        r[0] = 1.0
    with pytest.raises(ValueError):
        t[0] = 1.0
    c[0] = 100.0  # writable, but a copy
    x += x
    np.testing.assert_array_equal(r, [0, 1, 2])
    np.testing.assert_array_equal(x.get_coeffs(), 2 * np.arange(6.0))


@ALL
@pytest.mark.parametrize(
    "args, kwargs",
    [
        (([1, 2],), {}),
        (([1, 2, 3], [4, 5, 6, 7]), {}),
        (([1, 2, 3], [4, 5, 6], [7, 8, 9]), {}),
        (([1, 2, 3, 4, 5, "a"],), {}),
        ((np.ones((2, 3)),), {}),
    ],
)
def test_constructor_errors(cls, rot, trans, whole, args, kwargs):
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        cls(*args, **kwargs)


@ALL
def test_constructor_keyword_errors(cls, rot, trans, whole):
    with pytest.raises(TypeError, match=f"{cls.__name__}\\({rot}, {trans}\\)"):
        cls(**{rot: [1, 2, 3]})
    with pytest.raises(TypeError, match="incompatible"):
        cls(**{rot: [1, 2, 3], "x": [4, 5, 6]})
    with pytest.raises(TypeError, match="incompatible"):
        cls([1, 2, 3], **{rot: [4, 5, 6]})
    with pytest.raises(TypeError, match="incompatible"):
        cls(cls.Zero())


@ALL
def test_arithmetic(cls, rot, trans, whole):
    a, b = np.arange(1.0, 7.0), np.array([0.5, -1, 2, 3, -4, 0.25])
    x, y = cls(a), cls(b)
    np.testing.assert_array_equal((x + y).get_coeffs(), a + b)
    np.testing.assert_array_equal((x - y).get_coeffs(), a - b)
    np.testing.assert_array_equal((-x).get_coeffs(), -a)
    np.testing.assert_array_equal((x * 2).get_coeffs(), 2 * a)
    np.testing.assert_array_equal((2.5 * x).get_coeffs(), 2.5 * a)
    np.testing.assert_array_equal((np.float64(3) * x).get_coeffs(), 3 * a)
    np.testing.assert_array_equal((x * True).get_coeffs(), a)
    np.testing.assert_array_equal(a, x.get_coeffs())  # operands unchanged


@ALL
def test_in_place_arithmetic_keeps_identity(cls, rot, trans, whole):
    a, b = np.arange(1.0, 7.0), np.array([0.5, -1, 2, 3, -4, 0.25])
    x = cls(a)
    alias = x
    x += cls(b)
    x *= 2.0
    x -= cls(a)
    assert x is alias and type(x) is cls
    np.testing.assert_array_equal(x.get_coeffs(), 2 * (a + b) - a)


@ALL
def test_arithmetic_errors(cls, rot, trans, whole):
    x = cls(np.ones(6))
    other = SpatialForce if cls is not SpatialForce else SpatialVelocity
    for bad in (
        lambda: x + other(np.ones(6)),
        lambda: x - 1,
        lambda: x * x,
        lambda: x / 2,
        lambda: +x,
        lambda: x * "a",
    ):
        with pytest.raises(TypeError):
            bad()


@ALL
def test_repr(cls, rot, trans, whole):
    x = cls([1, 2, 3e-20, -4, 5.5, 6])
    expected = f"{cls.__name__}(\n  {rot}=[1.0, 2.0, 3e-20],\n  {trans}=[-4.0, 5.5, 6.0],\n)"
    assert repr(x) == expected and str(x) == expected
    assert (
        repr(cls()) == f"{cls.__name__}(\n  {rot}=[nan, nan, nan],\n  {trans}=[nan, nan, nan],\n)"
    )


@ALL
def test_copy_pickle_and_identity_equality(cls, rot, trans, whole):
    x = cls(np.arange(6.0))
    for y in (copy.copy(x), copy.deepcopy(x), pickle.loads(pickle.dumps(x))):
        assert type(y) is cls and y is not x
        np.testing.assert_array_equal(y.get_coeffs(), x.get_coeffs())
        # pydrake compares by identity.
        assert y != x and x == x
    y = copy.copy(x)
    y += x
    np.testing.assert_array_equal(x.get_coeffs(), np.arange(6.0))
    assert hash(x) != hash(y)
    with pytest.raises(AttributeError):
        x.extra = 1


@ALL
def test_symbolic_scalars(cls, rot, trans, whole):
    s = sympy.symbols("s0:6")
    x = cls(np.array(s, dtype=object))
    assert x.get_coeffs().dtype == object
    y = 2 * x + cls(np.ones(6))
    assert [sympy.expand(e - (2 * si + 1)) for e, si in zip(y.get_coeffs(), s, strict=True)] == [
        0
    ] * 6
    assert repr(x) == f"{cls.__name__}(\n  {rot}=[s0, s1, s2],\n  {trans}=[s3, s4, s5],\n)"


@ALL
def test_dual_scalars(cls, rot, trans, whole):
    # A scalar with value() (as AutoDiffXd has) multiplies and yields an object-dtype vector.
    d = Dual(2.0, 1.0)
    for z in (cls(np.arange(6.0)) * d, d * cls(np.arange(6.0))):
        c = z.get_coeffs()
        assert c.dtype == object and type(z) is cls
        assert [(e.a, e.b) for e in c] == [(2.0 * i, float(i)) for i in range(6)]


@pytest.mark.parametrize(
    "cls", [SpatialVelocity, SpatialAcceleration, SpatialForce, SpatialMomentum]
)
def test_set_nan_and_is_approx(cls):
    V = cls(np.arange(1.0, 7.0))
    assert V.SetNaN() is V
    assert np.isnan(V.get_coeffs()).all()
    a = cls(np.arange(1.0, 7.0))
    b = cls(np.arange(1.0, 7.0) * (1 + 1e-10))
    assert a.IsApprox(a)
    assert not a.IsApprox(b)  # default tolerance is machine epsilon, relative
    assert a.IsApprox(b, tolerance=1e-9)
    assert not a.IsApprox(cls(np.r_[1.0, 2.0, 3.0, 4.0, 5.0, 7.0]), tolerance=1e-3)
    assert not a.IsApprox(V)  # NaN is approximately nothing
