import numpy as np
import pytest

from mallard.common import _bindings as b

OVERLOADS = (
    (),
    (b.scalar("theta"),),
    (b.vector("v", 3), b.integer("i")),
    (b.columns("points"),),
)


def test_resolve_positional_and_keyword():
    assert b.resolve("f", OVERLOADS, (), {}) == (0, [])
    assert b.resolve("f", OVERLOADS, (2,), {}) == (1, [2.0])
    assert b.resolve("f", OVERLOADS, (), {"theta": 0.5}) == (1, [0.5])
    index, (v, i) = b.resolve("f", OVERLOADS, ([1, 2, 3],), {"i": np.int64(2)})
    assert index == 2 and v.dtype == np.float64 and i == 2 and type(i) is int
    index, (points,) = b.resolve("f", OVERLOADS, (np.ones((3, 5)),), {})
    assert index == 3 and points.shape == (3, 5)


@pytest.mark.parametrize(
    "args, kwargs",
    [((1, 2, 3), {}), (("x",), {}), ((), {"phi": 1.0}), (([1, 2, 3], 1.5), {})],
)
def test_resolve_mismatch_lists_overloads(args, kwargs):
    with pytest.raises(TypeError) as info:
        b.resolve("f", OVERLOADS, args, kwargs)
    message = str(info.value)
    assert "f: incompatible arguments" in message
    assert "3. f(v: numpy.ndarray[3], i: int)" in message
    assert "Invoked with:" in message


def test_readonly_and_formatting():
    a = np.arange(3.0)
    view = b.readonly(a)
    with pytest.raises(ValueError):
        view[0] = 1.0
    a[0] = 5.0
    assert view[0] == 5.0
    assert b.format_vector(np.array([1e-20, -0.0, 1 / 3])) == "[1e-20, -0.0, 0.3333333333333333]"
    assert type(b.scalar_out(np.float64(2.0))) is float
    with pytest.raises(TypeError, match="needs numeric values"):
        b.numeric_values(np.array([object()], dtype=object), "thing")
