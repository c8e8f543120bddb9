"""Aabb, Obb, CalcObb and the bounding-box queries of QueryObject and SceneGraphInspector
against pydrake: the same boxes (Obb's padding included), the same overlap answers, the same
oriented boxes of every shape (a Mesh's or Convex's from its convex hull, Drake's ObbMaker), the
same None and errors; the deformable and hydroelastic queries that mallard answers."""

import os

import numpy as np
import pytest

pd = pytest.importorskip("pydrake.all")

import mallard.all as ml  # noqa: E402
from tests.conformance.test_parsing_urdf import ERD  # noqa: E402

WEDGE = os.path.join(os.path.dirname(__file__), "..", "multibody", "parsing", "mjcf", "meshes")
WEDGE = os.path.abspath(os.path.join(WEDGE, "wedge.obj"))


def _meshes():
    files = [WEDGE]
    if ERD is not None:
        meshes = os.path.join(ERD, "robots", "laikago_description", "meshes")
        files += [os.path.join(meshes, f"{name}.obj") for name in ("calf", "hip")]
    return files


def _pose(m, rng):
    q = rng.normal(size=4)
    return m.RigidTransform(
        m.RotationMatrix(m.Quaternion(q / np.linalg.norm(q))), rng.normal(size=3)
    )


def _same_obb(a, b, tolerance=0.0):
    """The two Obb (pydrake's, mallard's) have the same pose and half widths."""
    np.testing.assert_allclose(
        b.pose().GetAsMatrix34(), a.pose().GetAsMatrix34(), rtol=0, atol=tolerance
    )
    np.testing.assert_allclose(b.half_width(), a.half_width(), rtol=0, atol=tolerance)


def _same_box(a, b, tolerance):
    """The two Obb are the same box: the same center and half widths, each axis of one along
    the same axis of the other (either way: which way an eigenvector points is rounding's
    choice)."""
    np.testing.assert_allclose(b.center(), a.center(), rtol=0, atol=tolerance)
    np.testing.assert_allclose(b.half_width(), a.half_width(), rtol=0, atol=tolerance)
    R_ab = a.pose().rotation().matrix().T @ b.pose().rotation().matrix()
    np.testing.assert_allclose(np.abs(R_ab), np.eye(3), rtol=0, atol=tolerance)


def test_aabb_and_obb_match_pydrakes():
    rng = np.random.default_rng(3)
    for _ in range(20):
        center, half = rng.normal(size=3) * 10, rng.uniform(0, 3, 3)
        a, b = pd.Aabb(center, half), ml.Aabb(center, half)
        for name in ("center", "half_width", "lower", "upper"):
            np.testing.assert_array_equal(getattr(b, name)(), getattr(a, name)())
        np.testing.assert_array_equal(b.pose().GetAsMatrix34(), a.pose().GetAsMatrix34())
        assert b.CalcVolume() == a.CalcVolume()
        X = _pose(pd, rng)
        o_pd = pd.Obb(X, half)
        o_ml = ml.Obb(ml.RigidTransform(X.GetAsMatrix4()), half)
        _same_obb(o_pd, o_ml)  # (padded alike: to the last bit)
        assert o_ml.CalcVolume() == o_pd.CalcVolume()
        np.testing.assert_array_equal(o_ml.center(), o_pd.center())
    box = ml.Aabb([1, 2, 3], [1, 1, 1])
    assert box.Equal(ml.Aabb([1, 2, 3], [1, 1, 1]))
    assert not box.Equal(ml.Aabb([1, 2, 3], [1, 1, 1 + 1e-15]))
    obb = ml.Obb(ml.RigidTransform([1, 2, 3]), [1, 2, 3])
    assert obb.Equal(ml.Obb(ml.RigidTransform([1, 2, 3]), [1, 2, 3]))
    assert not obb.Equal(ml.Obb(obb.pose(), obb.half_width()))  # (padded again, as Drake)
    assert not pd.Obb(pd.RigidTransform([1, 2, 3]), [1, 2, 3]).Equal(
        pd.Obb(
            pd.RigidTransform([1, 2, 3]),
            pd.Obb(pd.RigidTransform([1, 2, 3]), [1, 2, 3]).half_width(),
        )
    )


def test_has_overlap_matches_pydrakes():
    rng = np.random.default_rng(4)
    answers = []
    for _ in range(300):
        c1, c2 = rng.normal(size=3), rng.normal(size=3)
        h1, h2 = rng.uniform(0.1, 1, 3), rng.uniform(0.1, 1, 3)
        X_pd, X_B = _pose(pd, rng), _pose(pd, rng)
        X_ml, X_B_ml = (ml.RigidTransform(X.GetAsMatrix4()) for X in (X_pd, X_B))
        a_pd, a_ml = pd.Aabb(c1, h1), ml.Aabb(c1, h1)
        b_pd, b_ml = pd.Aabb(c2, h2), ml.Aabb(c2, h2)
        o_pd, o_ml = pd.Obb(X_B, h2), ml.Obb(X_B_ml, h2)
        pairs = (
            (pd.Aabb.HasOverlap(a_pd, b_pd, X_pd), ml.Aabb.HasOverlap(a_ml, b_ml, X_ml)),
            (pd.Aabb.HasOverlap(a_pd, o_pd, X_pd), ml.Aabb.HasOverlap(a_ml, o_ml, X_ml)),
            (pd.Obb.HasOverlap(o_pd, a_pd, X_pd), ml.Obb.HasOverlap(o_ml, a_ml, X_ml)),
            (pd.Obb.HasOverlap(o_pd, o_pd, X_pd), ml.Obb.HasOverlap(o_ml, o_ml, X_ml)),
            (
                pd.Obb.HasOverlap(o_pd, pd.HalfSpace(), X_pd),
                ml.Obb.HasOverlap(o_ml, ml.HalfSpace(), X_ml),
            ),
            (
                pd.Aabb.HasOverlap(bv_H=a_pd, hs_C=pd.HalfSpace(), X_CH=X_pd),
                ml.Aabb.HasOverlap(bv_H=a_ml, hs_C=ml.HalfSpace(), X_CH=X_ml),
            ),
            (
                pd.Obb.HasOverlap(o_pd, aabb_H=a_pd, X_GH=X_pd),
                ml.Obb.HasOverlap(o_ml, aabb_H=a_ml, X_GH=X_ml),
            ),
        )
        for theirs, ours in pairs:
            assert ours == theirs
            answers.append(ours)
    assert 0.1 < np.mean(answers) < 0.9  # (both answers)


@pytest.mark.parametrize(
    "make",
    [
        lambda m: m.Box(1, 2, 3),
        lambda m: m.Sphere(0.5),
        lambda m: m.Cylinder(0.3, 2),
        lambda m: m.Capsule(0.3, 2),
        lambda m: m.Ellipsoid(1, 2, 3),
        lambda m: m.HalfSpace(),
    ],
)
def test_calc_obb_of_primitives(make):
    theirs, ours = pd.CalcObb(make(pd)), ml.CalcObb(make(ml))
    if theirs is None:
        assert ours is None
    else:
        _same_obb(theirs, ours)


@pytest.mark.parametrize("path", _meshes())
@pytest.mark.parametrize("kind", ["Mesh", "Convex"])
def test_calc_obb_of_meshes(path, kind):
    """Drake's ObbMaker on the convex hull: the same box to rounding (the hull's vertices may
    come in another order)."""
    for scale in (1.0, [1.0, 2.0, 0.5]):
        theirs = pd.CalcObb(getattr(pd, kind)(path, scale))
        ours = ml.CalcObb(getattr(ml, kind)(path, scale))
        _same_box(theirs, ours, 1e-12)
        assert ours.CalcVolume() == pytest.approx(theirs.CalcVolume(), rel=1e-12)


def _scene(m):
    """A SceneGraph with one geometry of each shape on a posed frame (a wedge Mesh, an
    illustration-only sphere, an anchored half space), its Context and the ids."""
    sg = m.SceneGraph()
    source = sg.RegisterSource("s")
    frame = sg.RegisterFrame(source, m.GeometryFrame("f"))
    shapes = (
        m.Box(1, 2, 3),
        m.Sphere(0.5),
        m.Cylinder(0.3, 2),
        m.Capsule(0.3, 2),
        m.Ellipsoid(1, 2, 3),
        m.Mesh(WEDGE, 2.0),
        m.Convex(WEDGE, [1, 2, 3]),
    )
    ids = []
    rng = np.random.default_rng(7)
    for i, shape in enumerate(shapes):
        instance = m.GeometryInstance(_pose(m, rng), shape, f"g{i}")
        instance.set_proximity_properties(m.ProximityProperties())
        ids.append(sg.RegisterGeometry(source, frame, instance))
    ids.append(
        sg.RegisterGeometry(source, frame, m.GeometryInstance(_pose(m, rng), m.Sphere(1), "ill"))
    )
    sg.AssignRole(source, ids[-1], m.IllustrationProperties())
    ids.append(
        sg.RegisterAnchoredGeometry(
            source, m.GeometryInstance(m.RigidTransform(), m.HalfSpace(), "hs")
        )
    )
    context = sg.CreateDefaultContext()
    poses = m.FramePoseVector()
    poses.set_value(frame, _pose(m, rng))
    sg.get_source_pose_port(source).FixValue(context, poses)
    return sg, context, ids


def test_query_object_and_inspector_boxes():
    (sg_pd, c_pd, ids_pd), (sg_ml, c_ml, ids_ml) = _scene(pd), _scene(ml)
    q_pd = sg_pd.get_query_output_port().Eval(c_pd)
    q_ml = sg_ml.get_query_output_port().Eval(c_ml)
    for g_pd, g_ml in zip(ids_pd, ids_ml, strict=True):
        assert q_ml.ComputeAabbInWorld(g_ml) is None is q_pd.ComputeAabbInWorld(g_pd)
        for theirs, ours in (
            (q_pd.ComputeObbInWorld(g_pd), q_ml.ComputeObbInWorld(g_ml)),
            (
                q_pd.inspector().GetObbInGeometryFrame(g_pd),
                q_ml.inspector().GetObbInGeometryFrame(g_ml),
            ),
        ):
            if theirs is None:
                assert ours is None
            else:
                _same_box(theirs, ours, 1e-12)
    bad = ml.GeometryId.get_new_id()
    with pytest.raises(RuntimeError, match=r"No AABB available for invalid geometry id: \d+\."):
        q_ml.ComputeAabbInWorld(bad)
    with pytest.raises(RuntimeError, match=r"No OBB available for invalid geometry id: \d+\."):
        q_ml.ComputeObbInWorld(bad)
    with pytest.raises(RuntimeError, match=r"Referenced geometry \d+ has not been registered"):
        q_ml.inspector().GetObbInGeometryFrame(bad)


def test_deformable_queries_of_rigid_geometries():
    """mallard has rigid geometries only: pydrake's answers for them."""
    for m in (pd, ml):
        sg, context, ids = _scene(m)
        q = sg.get_query_output_port().Eval(context)
        inspector = q.inspector()
        bad = m.GeometryId.get_new_id()
        assert inspector.GetAllDeformableGeometryIds() == []
        assert inspector.NumDeformableGeometriesWithRole(m.Role.kProximity) == 0
        assert inspector.IsDeformableGeometry(ids[0]) is False
        assert inspector.GetReferenceMesh(ids[0]) is None
        assert inspector.maybe_get_hydroelastic_mesh(ids[0]) is None
        assert inspector.maybe_get_hydroelastic_mesh(bad) is None
        for call in (inspector.IsDeformableGeometry, inspector.GetReferenceMesh):
            with pytest.raises(RuntimeError, match=r"Referenced geometry \d+ has not been"):
                call(bad)
        with pytest.raises(RuntimeError, match="Non-deformable geometries are characterized"):
            q.GetConfigurationsInWorld(ids[0])
        with pytest.raises(RuntimeError, match=r"No world configurations available .* \d+"):
            q.GetConfigurationsInWorld(bad)


# ---- Plane ---------------------------------------------------------------------------------------
def test_plane_as_pydrakes():
    rng = np.random.default_rng(3)
    for _ in range(200):
        normal, point, p_FQ = (rng.normal(size=3) for _ in range(3))
        for normalized in (False, True):
            a, b = (m.Plane(normal, point, normalized) for m in (pd, ml))
            np.testing.assert_allclose(b.unit_normal(), a.unit_normal(), rtol=0, atol=1e-15)
            np.testing.assert_allclose(b.reference_point(), a.reference_point(), rtol=0, atol=1e-14)
            assert abs(b.CalcHeight(point=p_FQ) - a.CalcHeight(p_FQ)) < 1e-14
        half_width, p_PBo, X = rng.uniform(0, 1, 3), 0.7 * rng.normal(size=3), _pose(pd, rng)
        R_PB = ml.RotationMatrix(X.rotation().matrix())
        assert b.BoxOverlaps(
            half_width=half_width, box_center_in_plane=p_PBo, box_orientation_in_plane=R_PB
        ) == a.BoxOverlaps(half_width, p_PBo, X.rotation())


def test_boxes_overlap_planes_as_pydrakes():
    rng = np.random.default_rng(5)
    answers = []
    for _ in range(300):
        normal, point, p, half = (rng.normal(size=3) for _ in range(4))
        half = np.abs(half)
        q, x = rng.normal(size=4), rng.normal(size=4)
        row = []
        for m in (pd, ml):
            X_PH = _pose(m, np.random.default_rng(abs(int(q[0] * 1e6))))
            X_HB = _pose(m, np.random.default_rng(abs(int(x[0] * 1e6))))
            plane = m.Plane(normal, point)
            aabb, obb = m.Aabb(p, half), m.Obb(X_HB, half)
            row.append(
                (
                    m.Aabb.HasOverlap(aabb, plane, X_PH),
                    m.Obb.HasOverlap(bv_H=obb, plane_P=plane, X_PH=X_PH),
                )
            )
        answers.append(row)
    assert all(mallard == pydrake for pydrake, mallard in answers)
    assert 0 < sum(pydrake[0] for pydrake, _ in answers) < len(answers)


def test_plane_errors_and_pickle_as_pydrakes():
    import pickle

    for m in (pd, ml):
        with pytest.raises(RuntimeError, match="Cannot instantiate plane from normal n_F = "):
            m.Plane([0, 0, 1e-11], [0, 0, 0])
        plane = m.Plane([0, 3, 4], [1, 2, 3])
        copy = pickle.loads(pickle.dumps(plane))
        np.testing.assert_allclose(copy.unit_normal(), [0, 0.6, 0.8])
        np.testing.assert_allclose(copy.reference_point(), plane.reference_point())
