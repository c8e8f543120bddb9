"""AutoDiffXd: arithmetic and elementary functions against closed-form derivatives and
central finite differences; numpy dispatch on object arrays; pydrake's API behaviour."""

import copy
import math
import pickle

import numpy as np
import pytest

from mallard import math as mmath
from mallard.autodiffutils import AutoDiffXd, autodiff_equal_to

X0, DX = 0.37, np.array([1.0, -2.0, 0.5])


def _x():
    return AutoDiffXd(X0, DX)


#: (method, real function, domain point): derivatives are checked by central differences.
UNARY = [
    ("sin", math.sin, 0.37),
    ("cos", math.cos, 0.37),
    ("tan", math.tan, 0.37),
    ("asin", math.asin, 0.37),
    ("acos", math.acos, 0.37),
    ("atan", math.atan, 0.37),
    ("sinh", math.sinh, 0.37),
    ("cosh", math.cosh, 0.37),
    ("tanh", math.tanh, 0.37),
    ("exp", math.exp, 0.37),
    ("log", math.log, 0.37),
    ("sqrt", math.sqrt, 0.37),
    ("abs", abs, -0.37),
]


def _central(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


@pytest.mark.parametrize("name, f, x", UNARY)
def test_unary_functions_match_finite_differences(name, f, x):
    a = AutoDiffXd(x, DX)
    for y in (getattr(a, name)(), getattr(mmath, name)(a)):
        assert isinstance(y, AutoDiffXd)
        assert y.value() == pytest.approx(f(x), rel=1e-15)
        np.testing.assert_allclose(y.derivatives(), _central(f, x) * DX, rtol=1e-8)


@pytest.mark.parametrize(
    "ufunc, f", [(np.sin, math.sin), (np.arcsin, math.asin), (np.sqrt, math.sqrt),
                 (np.exp, math.exp), (np.log, math.log), (np.tanh, math.tanh),
                 (np.arctan, math.atan), (np.arccos, math.acos), (np.abs, abs)]
)  # fmt: skip
def test_numpy_ufuncs_on_object_arrays_call_the_methods(ufunc, f):
    a = np.array([AutoDiffXd(0.2, [1.0, 0.0]), AutoDiffXd(0.6, [0.0, 1.0])])
    y = ufunc(a)
    assert y.dtype == object
    for x, yi in zip((0.2, 0.6), y, strict=True):
        assert yi.value() == pytest.approx(f(x))
    np.testing.assert_allclose(
        np.array([y[0].derivatives(), y[1].derivatives()]),
        np.diag([_central(f, 0.2), _central(f, 0.6)]),
        rtol=1e-8,
    )


def test_arithmetic_closed_forms():
    x, y = AutoDiffXd(2.0, [1.0, 0.0]), AutoDiffXd(3.0, [0.0, 1.0])
    cases = {
        "x+y": (x + y, 5.0, [1, 1]),
        "x-y": (x - y, -1.0, [1, -1]),
        "x*y": (x * y, 6.0, [3, 2]),
        "x/y": (x / y, 2 / 3, [1 / 3, -2 / 9]),
        "2+x": (2 + x, 4.0, [1, 0]),
        "2-x": (2 - x, 0.0, [-1, 0]),
        "2*x": (2 * x, 4.0, [2, 0]),
        "2/x": (2 / x, 1.0, [-0.5, 0]),
        "x**3": (x**3, 8.0, [12, 0]),
        "x**y": (x**y, 8.0, [12, 8 * math.log(2)]),
        "2**x": (2**x, 4.0, [4 * math.log(2), 0]),
        "-x": (-x, -2.0, [-1, 0]),
        "atan2": (mmath.atan2(x, y), math.atan2(2, 3), [3 / 13, -2 / 13]),
        "pow": (mmath.pow(x, 2.0), 4.0, [4, 0]),
    }
    for name, (z, value, d) in cases.items():
        assert z.value() == pytest.approx(value), name
        np.testing.assert_allclose(z.derivatives(), d, rtol=1e-14, err_msg=name)


def test_numpy_scalars_mix_and_values_stay_python_floats():
    x = AutoDiffXd(1.0, [1.0])
    for z in (x + np.float64(2.0), np.float64(2.0) * x, x / np.int64(2), np.float64(1.0) - x):
        assert isinstance(z, AutoDiffXd)
        assert type(z.value()) is float


def test_empty_derivatives_act_as_zeros_and_mismatched_sizes_raise():
    x, c = AutoDiffXd(1.0, [1.0, 2.0]), AutoDiffXd(3.0)
    np.testing.assert_array_equal((x * c).derivatives(), [3.0, 6.0])
    np.testing.assert_array_equal((c - x).derivatives(), [-1.0, -2.0])
    assert (c * c).derivatives().shape == (0,)
    with pytest.raises(ValueError, match="different sizes"):
        x + AutoDiffXd(1.0, [1.0, 2.0, 3.0])


def test_comparisons_by_value_min_max_ceil_floor():
    x, y = AutoDiffXd(1.0, [5.0]), AutoDiffXd(2.0)
    assert x < y and x <= 1.0 and y > x and x == 1.0 and x != y and 3 > x
    assert x.min(y) is x and x.max(y) is y and mmath.min(x, y) is x
    np.testing.assert_array_equal(np.minimum(np.array([x]), np.array([y]))[0].derivatives(), [5])
    assert AutoDiffXd(1.5).ceil() == 2.0 and math.floor(AutoDiffXd(1.5)) == 1.0
    assert np.ceil(np.array([AutoDiffXd(1.5)]))[0] == 2.0


def test_as_pydrake_no_float_conversion_no_hash():
    x = AutoDiffXd(1.0, [1.0])
    with pytest.raises(TypeError):
        float(x)
    with pytest.raises(TypeError):
        hash(x)
    with pytest.raises(TypeError, match="real number"):
        AutoDiffXd("1.0")
    with pytest.raises(ValueError, match="must be a vector"):
        AutoDiffXd(1.0, np.eye(2))


def test_constructor_forms_repr_copy_pickle():
    x = AutoDiffXd(1, np.array([[1.0], [2.0]]))
    assert type(x.value()) is float
    np.testing.assert_array_equal(x.derivatives(), [1.0, 2.0])
    d = x.derivatives()
    d[0] = 10.0  # a copy
    assert x.derivatives()[0] == 1.0
    assert repr(x) == "<AutoDiffXd 1.0 nderiv=2>" and str(x) == "AD{1.0, nderiv=2}"
    for y in (copy.copy(x), copy.deepcopy(x), pickle.loads(pickle.dumps(x))):
        assert autodiff_equal_to(x, y)
    assert not autodiff_equal_to(x, AutoDiffXd(1.0, [1.0, 3.0]))
    assert not autodiff_equal_to(AutoDiffXd(1.0, [0.0]), AutoDiffXd(1.0))


def test_math_functions_on_reals_and_arrays():
    assert mmath.sin(0.5) == math.sin(0.5) and type(mmath.abs(-2)) is float
    assert mmath.pow(2, 3) == 8.0 and mmath.max(1, 2) == 2.0 and mmath.ceil(1.2) == 2.0
    np.testing.assert_array_equal(mmath.cos(np.array([0.0, math.pi])), [1.0, -1.0])
    with pytest.raises(TypeError, match="unsupported scalar type"):
        mmath.sin("x")


def test_against_pydrake():
    ad = pytest.importorskip("pydrake.autodiffutils")
    pm = pytest.importorskip("pydrake.math")
    for name, _, x in UNARY:
        ours = getattr(mmath, name)(AutoDiffXd(x, DX))
        theirs = getattr(pm, name)(ad.AutoDiffXd(x, DX))
        assert ours.value() == pytest.approx(theirs.value(), rel=1e-15)
        np.testing.assert_allclose(ours.derivatives(), theirs.derivatives(), rtol=1e-14)


def test_math_functions_dispatch_on_expressions():
    symbolic = pytest.importorskip("mallard.symbolic")
    x = symbolic.Variable("x")
    env = {x: 0.3}
    for name, f, _ in UNARY:
        if name == "abs":
            continue
        assert getattr(mmath, name)(x).Evaluate(env) == pytest.approx(f(0.3), rel=1e-14)
    assert mmath.atan2(1.0, x).Evaluate(env) == pytest.approx(math.atan2(1.0, 0.3))
    assert mmath.pow(2.0, x).Evaluate(env) == pytest.approx(2.0**0.3)
    assert mmath.max(x, 1.0).Evaluate(env) == 1.0


def test_names_as_pydrake():
    ad = pytest.importorskip("pydrake.autodiffutils")
    import mallard.autodiffutils as ours

    public = {n for n in dir(ad.AutoDiffXd) if not n.startswith("_")}
    assert public <= set(dir(AutoDiffXd))
    assert {n for n in dir(ad) if not n.startswith("_")} - {"np"} <= set(dir(ours))
    functions = [name for name, _, _ in UNARY] + ["atan2", "pow", "min", "max", "ceil", "floor"]
    functions += ["arcsin", "arccos", "arctan", "arctan2"]
    pm = pytest.importorskip("pydrake.math")
    assert all(hasattr(pm, f) and hasattr(mmath, f) for f in functions)


def test_constructor_with_size_and_offset():
    np.testing.assert_array_equal(AutoDiffXd(2.0, 3, 1).derivatives(), [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(AutoDiffXd(2.0, size=2, offset=0).derivatives(), [1.0, 0.0])
    with pytest.raises(ValueError, match=r"offset must be in \[0, size\)"):
        AutoDiffXd(2.0, 3, 3)
