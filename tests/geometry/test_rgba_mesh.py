"""Rgba and the mesh shapes (Mesh, Convex) against pydrake.geometry's."""

import os

import numpy as np
import pytest

from mallard.geometry import Convex, Mesh, Rgba, Shape

pd_geometry = pytest.importorskip("pydrake.geometry")


def test_rgba_matches_pydrake():
    for args in [(), (0.1, 0.2, 0.3), (0.1, 0.2, 0.3, 0.4), (1, 0, 1, 0)]:
        ml, pd = Rgba(*args), pd_geometry.Rgba(*args)
        np.testing.assert_array_equal(ml.rgba, pd.rgba)
        assert (ml.r(), ml.g(), ml.b(), ml.a()) == (pd.r(), pd.g(), pd.b(), pd.a())
        assert repr(ml) == repr(pd)
        assert repr(ml.scale_rgb(0.5)) == repr(pd.scale_rgb(0.5))
    assert Rgba(0.1, 0.2, 0.3) == Rgba(0.1, 0.2, 0.3, 1.0) != Rgba(0.1, 0.2, 0.3, 0.5)
    np.testing.assert_allclose(
        (Rgba(0.5, 1, 1, 0.5) * Rgba(0.5, 0.2, 1, 1)).rgba, [0.25, 0.2, 1, 0.5]
    )


def test_rgba_set_and_update():
    color = Rgba()
    color.set(0.1, 0.2, 0.3)
    np.testing.assert_array_equal(color.rgba, [0.1, 0.2, 0.3, 1.0])
    color.set(np.array([0.4, 0.5, 0.6, 0.7]))
    np.testing.assert_array_equal(color.rgba, [0.4, 0.5, 0.6, 0.7])
    color.update(g=0.0, a=1.0)
    np.testing.assert_array_equal(color.rgba, [0.4, 0.0, 0.6, 1.0])
    with pytest.raises(RuntimeError, match="3 or 4 values"):
        color.set([0.1, 0.2])


def test_rgba_out_of_range_is_an_error_as_in_pydrake():
    with pytest.raises(RuntimeError) as pd_error:
        pd_geometry.Rgba(2, 0, 0)
    with pytest.raises(RuntimeError) as ml_error:
        Rgba(2, 0, 0)
    assert str(ml_error.value) == str(pd_error.value)
    with pytest.raises(RuntimeError, match=r"range \[0, 1\]"):
        Rgba().update(b=-0.1)


def test_mesh_matches_pydrake(tmp_path):
    for cls, pd_cls in ((Mesh, pd_geometry.Mesh), (Convex, pd_geometry.Convex)):
        for scale in (1.0, 2.5, [1.0, 2.0, 3.0]):
            ml, pd = cls("/a/b.OBJ", scale), pd_cls("/a/b.OBJ", scale)
            assert isinstance(ml, Shape)
            assert ml.extension() == pd.extension() == ".obj"
            np.testing.assert_array_equal(ml.scale3(), pd.scale3())
            assert repr(ml) == repr(pd)
            assert ml.filename() == str(pd.source().path())
        with pytest.raises(RuntimeError) as ml_error:
            cls("/a/b.obj", [1, 2, 3]).scale()
        with pytest.raises(RuntimeError) as pd_error:
            pd_cls("/a/b.obj", [1, 2, 3]).scale()
        assert str(ml_error.value) == str(pd_error.value)
    assert Mesh("/a/b.stl", 2.0).scale() == 2.0
    assert Mesh("rel/m.dae").filename() == os.path.abspath("rel/m.dae")


def test_mesh_scale_near_zero_is_an_error():
    with pytest.raises(RuntimeError, match=r"Mesh \|scale\| cannot be < 1e-8 on any axis"):
        Mesh("/a/b.obj", [1, 1e-9, 1])
    with pytest.raises(RuntimeError, match=r"Convex \|scale\| cannot be < 1e-8"):
        Convex("/a/b.obj", 0.0)
    with pytest.raises(TypeError, match="scale must be a number or 3 numbers"):
        Mesh("/a/b.obj", [1, 2])
    assert Mesh("/a/b.obj", -1.0).scale() == -1.0  # a negative scale mirrors: allowed
