"""kernels._machinery.reshaped: compiled, a view of a workspace section shaped like numpy's
reshape of it; interpreted, numpy's reshape."""

import numba
import numpy as np
import pytest

from mallard.multibody._kernels._machinery import reshaped


@numba.njit
def _views(ws, mi):
    """Views of sections of ws and mi, shapes mixing array values and constants."""
    return (
        reshaped(ws[3:27], (mi[0], 4)),
        reshaped(ws[0:24], (2, 3, 4)),
        reshaped(ws[6:30], (mi[1], mi[2], 2, 2)),
        reshaped(mi[0:6], (2, 3)),
    )


@numba.njit
def _wrong_size(ws):
    return reshaped(ws[0:10], (3, 4))


def test_compiled_views_equal_numpy_reshape_and_share_memory():
    ws = np.arange(30.0)
    mi = np.array([6, 3, 2, 3, 4, 5, 6], dtype=np.int64)
    got = _views(ws, mi)
    expected = (
        ws[3:27].reshape(6, 4),
        ws[0:24].reshape(2, 3, 4),
        ws[6:30].reshape(3, 2, 2, 2),
        mi[0:6].reshape(2, 3),
    )
    for view, reference in zip(got, expected, strict=True):
        assert view.dtype == reference.dtype
        assert view.shape == reference.shape
        assert view.strides == reference.strides
        assert view.flags.c_contiguous
        np.testing.assert_array_equal(view, reference)
    got[0][1, 2] = -1.0  # a view: writes reach the workspace
    assert ws[3 + 1 * 4 + 2] == -1.0


def test_compiled_view_of_the_wrong_size_raises():
    with pytest.raises(ValueError, match="does not match"):
        _wrong_size(np.arange(30.0))


def test_interpreted_is_numpy_reshape_for_object_arrays():
    ws = np.arange(12.0).astype(object)
    view = reshaped(ws, (3, 4))
    assert view.dtype == object and view.shape == (3, 4)
    view[2, 3] = "x"
    assert ws[11] == "x"
