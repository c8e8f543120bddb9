"""BasicVector: construction, element access, whole-vector operations, copies, printing and
the errors pydrake raises (IndexError with Drake's messages)."""

import copy
import re

import numpy as np
import pytest

from mallard.systems.framework import BasicVector

CPP = "drake::systems::BasicVector<double>"


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


def test_construction():
    v = BasicVector([1.0, 2.0, 3.0])
    assert v.size() == 3
    np.testing.assert_array_equal(v.CopyToVector(), [1, 2, 3])
    assert np.isnan(BasicVector(2).CopyToVector()).all()  # a size: NaN-filled
    assert BasicVector(0).size() == 0 and BasicVector([]).size() == 0
    np.testing.assert_array_equal(BasicVector(np.array([[1.0], [2.0]])).CopyToVector(), [1, 2])
    np.testing.assert_array_equal(BasicVector(np.arange(3)).CopyToVector(), [0, 1, 2])
    data = np.array([1.0, 2.0])
    v = BasicVector(data)
    data[0] = 5.0  # the vector owns a copy
    assert v.GetAtIndex(0) == 1.0
    with pytest.raises(RuntimeError, match="non-negative"):  # pydrake: MemoryError
        BasicVector(-1)


def test_values():
    v = BasicVector([1.0, 2.0, 3.0])
    value = v.get_value()
    np.testing.assert_array_equal(value, [1, 2, 3])
    np.testing.assert_array_equal(v.value(), [1, 2, 3])
    with pytest.raises(ValueError):  # read-only, as pydrake's
        value[0] = 4.0
    mutable = v.get_mutable_value()
    mutable[0] = 9.0
    assert v[0] == 9.0
    copied = v.CopyToVector()
    copied[1] = -1.0
    assert v[1] == 2.0


def test_set_and_get():
    v = BasicVector([1.0, 2.0, 3.0])
    v.SetAtIndex(1, 7.0)
    assert v.GetAtIndex(1) == 7.0 and v[1] == 7.0
    v[2] = 8.0
    assert v.GetAtIndex(2) == 8.0
    v.SetFromVector([4.0, 5.0, 6.0])
    np.testing.assert_array_equal(v.CopyToVector(), [4, 5, 6])
    v.set_value(np.array([[1.0], [1.0], [1.0]]))
    np.testing.assert_array_equal(v.CopyToVector(), [1, 1, 1])
    v.SetFrom(BasicVector([3.0, 2.0, 1.0]))
    np.testing.assert_array_equal(v.CopyToVector(), [3, 2, 1])
    v.SetZero()
    np.testing.assert_array_equal(v.CopyToVector(), [0, 0, 0])
    assert v.PlusEqScaled(2.0, BasicVector([1.0, 2.0, 3.0])) is v
    np.testing.assert_array_equal(v.CopyToVector(), [2, 4, 6])


def index_error(i):
    return f"Index {i} is not within [0, 3) while accessing {CPP}."


def size_error(n):
    return f"Operand vector size {n} does not match this {CPP} size 3"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda v: v.SetAtIndex(5, 1.0), index_error(5)),
        (lambda v: v.GetAtIndex(-1), index_error(-1)),
        (lambda v: v[3], index_error(3)),  # pydrake reads out of bounds here
        (lambda v: v.SetFromVector([1.0, 2.0]), size_error(2)),
        (lambda v: v.set_value([1.0]), size_error(1)),
        (lambda v: v.SetFrom(BasicVector(4)), size_error(4)),
        (lambda v: v.PlusEqScaled(1.0, BasicVector(2)), size_error(2)),
    ],
)
def test_errors(call, message):
    v = BasicVector([1.0, 2.0, 3.0])
    with raises(IndexError, message):
        call(v)
    np.testing.assert_array_equal(v.CopyToVector(), [1, 2, 3])


def test_copies():
    v = BasicVector([1.0, 2.0])
    for c in (v.Clone(), copy.copy(v), copy.deepcopy(v)):
        assert type(c) is BasicVector and c is not v
        c.SetAtIndex(0, 5.0)
        assert v[0] == 1.0


def test_printing():
    assert repr(BasicVector([1.0, 2.0, 3.0])) == "BasicVector([1.0, 2.0, 3.0])"
    assert str(BasicVector([1.0 / 3, 2.0])) == "[0.3333333333333333, 2.0]"
    assert repr(BasicVector(2)) == "BasicVector([nan, nan])"
    assert repr(BasicVector([])) == "BasicVector([])"
    assert repr(BasicVector([1e-20, 123456.789])) == "BasicVector([1e-20, 123456.789])"


def test_non_double_scalars():
    sympy = pytest.importorskip("sympy")
    x = sympy.Symbol("x")
    v = BasicVector(np.array([x, 1.0], dtype=object))
    assert v.size() == 2 and v[0] == x
    v.SetAtIndex(1, 2 * x)
    assert v.CopyToVector()[1] == 2 * x
