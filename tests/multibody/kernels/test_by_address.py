"""Kernels called by address (kernels._by_address): a kernel compiled alone and called from
compiled code through its address gives the bits of the same kernel linked into its caller,
and of the interpreted one, which calls the Python function."""

import numpy as np
import pytest
from numba import carray
from numba.core.errors import TypingError
from numba.extending import overload

from mallard._compiled import by_address, kernels
from mallard.multibody._kernels._by_address import address_of, call_at
from mallard.multibody._kernels._numba_internals import WITHOUT_RUNTIME, njit_cached
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.sap import _solve
from mallard.multibody._kernels.views import sap_table, sap_workspace

from .kernel_cases import _sap_args


@by_address
def _scale_at(a, n, factor):
    """a[:n] *= factor (a the address of int64s); returns their sum."""
    a = carray(pointer(a), n, np.int64)
    total = 0
    for i in range(n):
        a[i] *= factor
        total += a[i]
    return total


def _scale(a, factor, scale):
    """_scale_at on the array ``a`` (interpreted: here), compiled by address ``scale``."""
    a *= factor
    return int(a.sum())


@overload(_scale)
def _scale_compiled(a, factor, scale):
    return lambda a, factor, scale: call_at(scale, (address_of(a), a.shape[0], factor))


def _twice_scaled(a, factor, scale):
    return _scale(a, factor, scale) + _scale(a, factor, scale)


def test_a_kernel_called_by_its_address():
    """The compiled caller calls the kernel at the address Kernels.address gives (once per
    process), passing the address of its array's data; interpreted, the address is 0."""
    caller = njit_cached(_twice_scaled, **WITHOUT_RUNTIME)
    scale = kernels(np.float64).address("_scale_at")
    assert scale == kernels(np.float64).address("_scale_at") and scale > 0
    assert kernels(object).address("_scale_at") == 0
    a = np.arange(5, dtype=np.int64)
    assert caller(a, 3, scale) == 30 + 90
    np.testing.assert_array_equal(a, 9 * np.arange(5))
    b = np.arange(5, dtype=np.int64)
    assert _twice_scaled(b, 3, 0) == 120 and np.array_equal(a, b)


def test_by_address_takes_c_contiguous_arrays_and_integers():
    caller = njit_cached(_twice_scaled, **WITHOUT_RUNTIME)
    with pytest.raises(TypingError, match=r"address_of\(array\(int64, 1d, A\)\)"):
        caller(np.arange(10, dtype=np.int64)[::2], 3, 0)
    with pytest.raises(TypingError, match=r"call_at\(int64, Tuple\(int64, int64, float64\)\)"):
        caller(np.arange(5, dtype=np.int64), 3.0, 0)
    with pytest.raises(AttributeError, match="no by-address kernel"):
        kernels(np.float64).address("no_such_kernel")


def _linked_solve(si, sw, M, diagonal):
    """SAP's solve linked into this function (what drive_discrete_steps did)."""
    return _solve(sap_table(si, si), sap_workspace(si, sw), M, diagonal)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_sap_by_address_is_sap_linked_and_interpreted_to_the_bit(seed):
    """SAP's solve through its one compiled solver (sap_solve, by address), linked into the
    caller, and interpreted: the same workspace (solution, impulses, statistics), bit for
    bit, and the same status."""
    si, sw, M, diagonal = _sap_args(np.random.default_rng(seed), True)
    linked = njit_cached(_linked_solve, error_model="numpy", **WITHOUT_RUNTIME)
    results = []
    for run in ("address", "linked", "interpreted"):
        w = sw.copy()
        if run == "address":
            status = kernels(np.float64).sap_solve(
                si, w, M, diagonal, kernels(np.float64).address("sap_solve_at")
            )
        elif run == "linked":
            status = linked(si, w, M, diagonal)
        else:
            w = w.astype(object)
            status = kernels(object).sap_solve(si, w, M.astype(object), diagonal.astype(object), 0)
            w = w.astype(np.float64)
        results.append((status, w))
    (status, w), *others = results
    for other_status, other in others:
        assert other_status == status
        np.testing.assert_array_equal(other.view(np.int64), w.view(np.int64))
