"""InitializeAutoDiff, InitializeAutoDiffTuple, ExtractValue, ExtractGradient: shapes and
column-major numbering as pydrake's (checked against pydrake when it is installed)."""

import numpy as np
import pytest

from mallard.autodiffutils import (
    AutoDiffXd,
    ExtractGradient,
    ExtractValue,
    InitializeAutoDiff,
    InitializeAutoDiffTuple,
)

A = np.array([[1.0, 2.0, 5.0], [3.0, 4.0, 6.0]])


def test_vector_is_a_column_seeded_with_the_identity():
    x = InitializeAutoDiff([1.0, 2.0, 3.0])
    assert x.shape == (3, 1) and x.dtype == object
    np.testing.assert_array_equal(ExtractValue(x), [[1.0], [2.0], [3.0]])
    np.testing.assert_array_equal(ExtractGradient(x), np.eye(3))


def test_matrix_entries_are_numbered_column_major():
    X = InitializeAutoDiff(A)
    assert X.shape == (2, 3)
    for (r, c), x in np.ndenumerate(X):
        assert x.value() == A[r, c]
        assert np.argmax(x.derivatives()) == r + 2 * c
    np.testing.assert_array_equal(ExtractGradient(X), np.eye(6))
    np.testing.assert_array_equal(ExtractValue(X), A)


def test_num_derivatives_start_and_explicit_gradient():
    x = InitializeAutoDiff(np.array([1.0, 2.0]), num_derivatives=4, deriv_num_start=1)
    np.testing.assert_array_equal(ExtractGradient(x), [[0, 1, 0, 0], [0, 0, 1, 0]])
    G = np.arange(12.0).reshape(6, 2)
    Y = InitializeAutoDiff(A, G)
    np.testing.assert_array_equal(Y[0, 1].derivatives(), [4.0, 5.0])
    np.testing.assert_array_equal(ExtractGradient(Y), G)
    with pytest.raises(ValueError, match="do not fit"):
        InitializeAutoDiff(np.array([1.0, 2.0]), num_derivatives=1)
    with pytest.raises(ValueError, match="one row per entry"):
        InitializeAutoDiff(np.array([1.0, 2.0]), np.eye(3))
    with pytest.raises(TypeError, match="vector or a matrix"):
        InitializeAutoDiff(np.zeros((2, 2, 2)))


def test_tuple_numbers_derivatives_across_arguments():
    a, b = InitializeAutoDiffTuple([1.0, 2.0], np.array([[3.0, 4.0]]))
    assert a.shape == (2, 1) and b.shape == (1, 2)
    np.testing.assert_array_equal(ExtractGradient(a), np.eye(4)[:2])
    np.testing.assert_array_equal(ExtractGradient(b), np.eye(4)[2:])


def test_constants_and_mismatched_sizes():
    mixed = np.array([1.0, AutoDiffXd(2.0, [1.0, 2.0]), AutoDiffXd(3.0)], dtype=object)
    np.testing.assert_array_equal(ExtractGradient(mixed), [[0, 0], [1, 2], [0, 0]])
    np.testing.assert_array_equal(ExtractValue(mixed), [[1.0], [2.0], [3.0]])
    assert ExtractGradient(np.zeros((2, 3))).shape == (6, 0)
    assert ExtractGradient(np.array([AutoDiffXd(1.0)]), num_derivatives=3).shape == (1, 3)
    bad = np.array([AutoDiffXd(1.0, [1.0]), AutoDiffXd(2.0, [1.0, 2.0])])
    with pytest.raises(RuntimeError, match="inconsistent, non-zero numbers of derivatives"):
        ExtractGradient(bad)
    with pytest.raises(RuntimeError, match="num_derivatives"):
        ExtractGradient(np.array([AutoDiffXd(1.0, [1.0])]), num_derivatives=2)


def test_same_as_pydrake():
    ad = pytest.importorskip("pydrake.autodiffutils")
    for value in ([1.0, 2.0, 3.0], A, np.array([[1.0, 2.0]])):
        ours, theirs = InitializeAutoDiff(value), ad.InitializeAutoDiff(value)
        assert ours.shape == theirs.shape
        np.testing.assert_array_equal(ExtractGradient(ours), ad.ExtractGradient(theirs))
        np.testing.assert_array_equal(ExtractValue(ours), ad.ExtractValue(theirs))
    ours = InitializeAutoDiff(A, num_derivatives=9, deriv_num_start=2)
    theirs = ad.InitializeAutoDiff(A, num_derivatives=9, deriv_num_start=2)
    np.testing.assert_array_equal(ExtractGradient(ours), ad.ExtractGradient(theirs))
