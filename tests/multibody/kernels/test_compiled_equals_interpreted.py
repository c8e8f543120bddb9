"""Every kernel gives the same answer compiled (float64) and interpreted (object arrays)."""

import importlib
import pkgutil

import numpy as np
import pytest

import mallard.multibody._kernels as kernels
from mallard.multibody._kernels import REGISTRY, compiled, for_dtype
from mallard.multibody._kernels.lane_views import Lanes

from .kernel_cases import CASES, UNCOMPARED

for _module in pkgutil.walk_packages(kernels.__path__, kernels.__name__ + "."):
    importlib.import_module(_module.name)


def test_every_kernel_has_a_case():
    missing = sorted(set(REGISTRY) - set(CASES))
    assert not missing, f"kernels without a case in kernel_cases.py: {missing}"
    assert len(REGISTRY) >= 17


def _as_object(arg):
    return arg.astype(object) if isinstance(arg, np.ndarray) else arg


def _assert_same(float_result, object_result):
    """The results agree (to 1e-14); a tuple of arrays item by item (lane views: their
    arrays)."""
    if isinstance(object_result, Lanes):
        object_result = object_result.array
    if isinstance(float_result, tuple) and isinstance(float_result[0], np.ndarray):
        for a, b in zip(float_result, object_result, strict=True):
            _assert_same(a, b)
        return
    np.testing.assert_allclose(
        np.asarray(float_result, dtype=float),
        np.asarray(object_result, dtype=float),
        rtol=1e-14,
        atol=1e-14,
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_compiled_equals_interpreted(name):
    fn = REGISTRY[name]
    args = CASES[name](np.random.default_rng(3))
    float_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    object_args = [_as_object(a) for a in args]
    float_result = compiled(fn)(*float_args)
    object_result = fn(*object_args)
    if float_result is not None:
        _assert_same(float_result, object_result)
    for position, (a, b) in enumerate(zip(float_args, object_args, strict=True)):
        if isinstance(a, np.ndarray) and position != UNCOMPARED.get(name):
            assert b.dtype == object
            np.testing.assert_allclose(a, b.astype(float), rtol=1e-14, atol=1e-14)


def test_for_dtype_picks_compiled_for_float64_only():
    fn = REGISTRY["mallard.multibody._kernels.spatial.cross"]
    assert for_dtype(fn, np.float64) is compiled(fn)
    assert for_dtype(fn, object) is fn
    assert compiled(fn) is compiled(fn)
