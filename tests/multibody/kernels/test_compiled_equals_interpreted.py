"""Every kernel gives the same answer compiled (float64) and interpreted (object arrays)."""

import importlib
import os
import pkgutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mallard.multibody._kernels as kernels
from mallard._compiled import compiled, kernels
from mallard.multibody._kernels import REGISTRY
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


def test_kernels_are_cached_on_disk_with_a_package_wide_stamp(tmp_path):
    """A second process loads the compiled kernel from numba's cache instead of compiling."""
    script = textwrap.dedent(
        """
        import numpy as np
        from mallard._compiled import compiled
from mallard.multibody._kernels import spatial
        from mallard.multibody._kernels._machinery import _PackageStampLocator
        f = compiled(spatial.cross)
        out = np.empty(3)
        f(np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), out)
        assert out[2] == 1.0
        assert isinstance(f._cache._impl._locator, _PackageStampLocator)
        sig = f.signatures[0]
        print(f.stats.cache_hits.get(sig, 0), f.stats.cache_misses.get(sig, 0))
        """
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))

    def run():
        result = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        return [int(x) for x in result.stdout.split()]

    assert run() == [0, 1]  # first process: compiled, cache written
    assert run() == [1, 0]  # second process: loaded from the cache
