"""Bounding boxes' errors (pydrake aborts the process on a negative half width; mallard
raises), CalcObb's, and the hydroelastic queries that are not built yet."""

import numpy as np
import pytest

import mallard.all as ml


def test_bad_boxes_raise():
    for bad in ([-1, 1, 1], [np.nan, 1, 1]):
        with pytest.raises(ValueError, match=r"Aabb\(\): half_width must not be negative"):
            ml.Aabb([0, 0, 0], bad)
        with pytest.raises(ValueError, match=r"Obb\(\): half_width must not be negative"):
            ml.Obb(ml.RigidTransform(), bad)
    with pytest.raises(ValueError, match=r"Aabb\(\): half_width must have 3 elements"):
        ml.Aabb([0, 0, 0], [1, 1])
    with pytest.raises(ValueError, match=r"Aabb\(\): p_HoBo must be 3 finite numbers"):
        ml.Aabb([0, np.inf, 0], [1, 1, 1])
    with pytest.raises(TypeError, match=r"Obb\(\): X_HB must be a RigidTransform"):
        ml.Obb(np.eye(4), [1, 1, 1])
    with pytest.raises(TypeError, match=r"CalcObb\(\): expected a Shape, got str"):
        ml.CalcObb("box")


def test_calc_obb_of_a_missing_mesh_names_the_file(tmp_path):
    missing = str(tmp_path / "missing.obj")
    with pytest.raises(RuntimeError, match="missing.obj"):
        ml.CalcObb(ml.Mesh(missing))


def test_obb_padding_and_volume():
    """Drake's padding: max(ε·scale, 2e-14), scale the largest center coordinate or half
    width; the volume of the padded box."""
    obb = ml.Obb(ml.RigidTransform([1000.0, 0, 0]), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(
        obb.half_width(), np.array([1, 2, 3]) + 1000 * np.finfo(float).eps
    )
    small = ml.Obb(ml.RigidTransform(), [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(small.half_width(), [2e-14] * 3)
    assert obb.CalcVolume() == 8 * np.prod(obb.half_width())
    assert ml.Aabb([0, 0, 0], [1, 2, 3]).CalcVolume() == 48.0


def test_hydroelastic_queries_are_not_built():
    sg = ml.SceneGraph()
    source = sg.RegisterSource("s")
    properties = ml.ProximityProperties()
    ml.AddRigidHydroelasticProperties(0.1, properties)
    g = sg.RegisterAnchoredGeometry(
        source, ml.GeometryInstance(ml.RigidTransform(), ml.Sphere(1), "ball")
    )
    sg.AssignRole(source, g, properties)
    context = sg.CreateDefaultContext()
    query = sg.get_query_output_port().Eval(context)
    representation = ml.HydroelasticContactRepresentation.kTriangle
    with pytest.raises(NotImplementedError, match="ComputeContactSurfaces.*not implemented"):
        query.ComputeContactSurfaces(representation)
    with pytest.raises(NotImplementedError, match="WithFallback.*not implemented"):
        query.ComputeContactSurfacesWithFallback(representation)
    with pytest.raises(NotImplementedError, match="geometry .* \\('ball'\\) has hydroelastic"):
        query.inspector().maybe_get_hydroelastic_mesh(g)
    assert [m.name for m in ml.HydroelasticContactRepresentation] == ["kTriangle", "kPolygon"]


def test_has_overlap_arguments():
    a, b = ml.Aabb([0, 0, 0], [1, 1, 1]), ml.Aabb([1.5, 0, 0], [1, 1, 1])
    assert ml.Aabb.HasOverlap(a_G=a, b_H=b, X_GH=ml.RigidTransform())
    assert not ml.Aabb.HasOverlap(a, b, X_GH=ml.RigidTransform([2, 0, 0]))
    with pytest.raises(TypeError, match=r"Aabb.HasOverlap\(\): incompatible arguments"):
        ml.Aabb.HasOverlap(a, b_H=b, X_CH=ml.RigidTransform())
