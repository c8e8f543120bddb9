"""Every kernel entry point gives the same answer compiled (float64) and interpreted (object
arrays), and kernels are found, compiled and cached as mallard._compiled says."""

import numpy as np
import pytest

from mallard import _compiled
from mallard._compiled import ENTRY_MODULES, compiled, kernels
from mallard.multibody._kernels.lane_views import Lanes
from mallard.multibody._layout import POSES_ONLY, POSITIONS, WORKSPACE

from .kernel_cases import CASES, UNCOMPARED, ByMode, Sample


def _entry_points():
    for name in ENTRY_MODULES:
        __import__(name)
    return _compiled._ENTRY_POINTS


def _entry_point_of(case):
    """The entry point of a case: its name without the ``[variant]`` of an entry point with
    several cases (batch_dynamics_derivatives' inverse and forward dynamics)."""
    return case.split("[")[0]


def test_every_entry_point_has_a_case():
    cased = {_entry_point_of(name) for name in CASES}
    missing = sorted(set(_entry_points()) - cased)
    assert not missing, f"entry points without a case in kernel_cases.py: {missing}"
    assert not cased - set(_entry_points())


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
    args = CASES[name](np.random.default_rng(3))
    float_args = [a.compiled if isinstance(a, ByMode) else a for a in args]
    float_args = [a.copy() if isinstance(a, np.ndarray) else a for a in float_args]
    object_args = [_as_object(a.interpreted if isinstance(a, ByMode) else a) for a in args]
    entry = _entry_point_of(name)
    float_result = getattr(kernels(np.float64), entry)(*float_args)
    object_result = getattr(kernels(object), entry)(*object_args)
    if float_result is not None:
        _assert_same(float_result, object_result)
    for position, (a, b) in enumerate(zip(float_args, object_args, strict=True)):
        if isinstance(a, np.ndarray) and position not in UNCOMPARED.get(name, ()):
            assert b.dtype == object
            np.testing.assert_allclose(a, b.astype(float), rtol=1e-14, atol=1e-14)


def test_drive_stages_for_the_poses_alone():
    """drive_stages for POSES_ONLY (the pose queries) computes the poses X_WB (layer 3 of X_pc)
    as the positions stage does, compiled and interpreted alike."""
    sample = Sample(np.random.default_rng(4))
    mi, mf, x, ws, _ = sample.head()
    full = ws.copy()
    kernels(np.float64).drive_stages(mi, mf, x, full, POSITIONS)
    poses = ws.copy()
    kernels(np.float64).drive_stages(mi, mf, x, poses, POSES_ONLY)
    np.testing.assert_array_equal(
        WORKSPACE.views(poses, sample.sizes).X_pc[3], WORKSPACE.views(full, sample.sizes).X_pc[3]
    )
    assert (poses != ws).any()
    interpreted = ws.astype(object)
    kernels(object).drive_stages(mi, mf, x.astype(object), interpreted, POSES_ONLY)
    np.testing.assert_allclose(interpreted.astype(float), poses, rtol=1e-14, atol=1e-14)


def test_kernels_compiled_for_float64_only():
    assert kernels(np.float64).is_compiled and not kernels(object).is_compiled
    assert kernels(np.float64) is kernels(np.dtype("float64"))
    fn = _entry_points()["combine"]
    assert kernels(object).combine is fn
    assert kernels(np.float64).combine is compiled(fn) is compiled(fn)
    with pytest.raises(AttributeError, match="no kernel entry point is named 'nope'"):
        kernels(np.float64).nope  # noqa: B018


def test_a_bound_entry_point_skips_dispatch_and_computes_the_same():
    values, x = np.array([1.0, 2.0]), np.zeros(4)
    bound = kernels(np.float64).bind("copy_if_finite", args=(values, x, 0))
    assert bound(values, x, 1) and np.array_equal(x, [0, 1, 2, 0])
    assert not bound(np.array([np.nan, 1.0]), x, 0)
