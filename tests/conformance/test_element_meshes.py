"""TriangleSurfaceMesh, VolumeMesh, their elements and the bounding boxes of meshes
(CalcBoundingBox, PolygonSurfaceMesh's too; ComputeAabbFor…/ComputeObbFor…) against pydrake:
the same areas, normals, centroids, volumes, barycentric coordinates and boxes; the errors
where pydrake raises (those where Drake aborts the process are RuntimeErrors in mallard)."""

import numpy as np
import pytest

pd = pytest.importorskip("pydrake.all")

import mallard.all as ml  # noqa: E402

TOL = 1e-12


def _points(rng, n):
    return [rng.normal(size=3) for _ in range(n)]


def _triangle_mesh(m, rng):
    """A random mesh of 12 triangles over 10 vertices, one triangle degenerate."""
    p = _points(rng, 10)
    p[9] = p[8].copy()
    triangles = [rng.choice(8, 3, replace=False) for _ in range(11)] + [[7, 8, 9]]
    return m.TriangleSurfaceMesh([m.SurfaceTriangle(*map(int, t)) for t in triangles], p)


def _volume_mesh(m, rng):
    """A random mesh of 6 tetrahedra over 9 vertices (some inverted)."""
    p = _points(rng, 9)
    elements = [rng.choice(9, 4, replace=False) for _ in range(6)]
    return m.VolumeMesh([m.VolumeElement(*map(int, e)) for e in elements], p)


def _close(a, b):
    np.testing.assert_allclose(np.asarray(b, float), np.asarray(a, float), rtol=0, atol=TOL)


@pytest.mark.parametrize("seed", range(3))
def test_triangle_surface_mesh_as_pydrakes(seed):
    a, b = (_triangle_mesh(m, np.random.default_rng(seed)) for m in (pd, ml))
    rng = np.random.default_rng(100 + seed)
    assert (b.num_triangles(), b.num_elements(), b.num_vertices()) == (
        a.num_triangles(), a.num_elements(), a.num_vertices()
    )  # fmt: skip
    _close(a.total_area(), b.total_area())
    _close(a.centroid(), b.centroid())
    for box_a, box_b in zip(a.CalcBoundingBox(), b.CalcBoundingBox(), strict=True):
        _close(box_a, box_b)
    _close(a.vertices(), b.vertices())
    assert [[t.vertex(i) for i in range(3)] for t in a.triangles()] == [
        [t.vertex(i) for i in range(3)] for t in b.triangles()
    ]
    for t in range(a.num_triangles()):
        _close(a.area(t), b.area(t))
        _close(a.face_normal(t), b.face_normal(t))
        _close(a.element_centroid(t), b.element_centroid(t))
        assert b.element(t).num_vertices() == 3
        p_MQ, b_Q = rng.normal(size=3), rng.normal(size=3)
        if a.area(t) > 0:
            _close(a.CalcBarycentric(p_MQ, t), b.CalcBarycentric(p_MQ=p_MQ, t=t))
        _close(
            a.CalcCartesianFromBarycentric(t, b_Q),
            b.CalcCartesianFromBarycentric(element_index=t, b_Q=b_Q),
        )
    same = _triangle_mesh(ml, np.random.default_rng(seed))
    other = _triangle_mesh(ml, np.random.default_rng(seed + 1))
    assert b.Equal(same) and not b.Equal(mesh=other)


@pytest.mark.parametrize("seed", range(3))
def test_volume_mesh_as_pydrakes(seed):
    a, b = (_volume_mesh(m, np.random.default_rng(seed)) for m in (pd, ml))
    rng = np.random.default_rng(200 + seed)
    assert (b.num_elements(), b.num_vertices()) == (a.num_elements(), a.num_vertices())
    _close(a.CalcVolume(), b.CalcVolume())
    for e in range(a.num_elements()):
        assert [b.tetrahedra()[e].vertex(i) for i in range(4)] == [
            a.element(e).vertex(i) for i in range(4)
        ]
        _close(a.CalcTetrahedronVolume(e), b.CalcTetrahedronVolume(e))
        p_MQ = rng.normal(size=3)
        np.testing.assert_allclose(
            b.CalcBarycentric(p_MQ, e), a.CalcBarycentric(p_MQ, e), atol=1e-9
        )
        for f in range(4):
            _close(a.inward_normal(e, f), b.inward_normal(e, f))
            for g in range(f + 1, 4):
                _close(a.edge_vector(e, f, g), b.edge_vector(e=e, a=f, b=g))


def test_volume_mesh_equal_with_a_tolerance_as_pydrakes():
    results = []
    for m in (pd, ml):
        p = [np.array(v, float) for v in ([0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1])]
        moved = [v + [0.0, 0.0, 1e-3] for v in p]
        moved[0] = p[0] + [6e-4, 6e-4, 0.0]
        elements = [m.VolumeElement(0, 1, 2, 3)]
        a, b = m.VolumeMesh(elements, p), m.VolumeMesh(elements, moved)
        results.append([a.Equal(b, t) for t in (0.0, 8.4e-4, 9.9e-4, 1e-3)] + [a.Equal(mesh=a)])
    assert results[1] == results[0]


def test_polygon_surface_mesh_box_and_centroids_as_pydrakes():
    p = [np.array(v, float) for v in ([0, 0, 0], [1, 0, 0], [1, 2, 0], [0, 2, 1], [3, 1, 2])]
    a, b = (m.PolygonSurfaceMesh([4, 0, 1, 2, 3, 3, 1, 4, 2], p) for m in (pd, ml))
    for box_a, box_b in zip(a.CalcBoundingBox(), b.CalcBoundingBox(), strict=True):
        _close(box_a, box_b)
    for e in range(2):
        _close(a.element_centroid(e), b.element_centroid(e))
    empty_a, empty_b = (
        pd.PolygonSurfaceMesh().CalcBoundingBox(),
        ml.PolygonSurfaceMesh().CalcBoundingBox(),
    )
    for x, y in zip(empty_a, empty_b, strict=True):
        np.testing.assert_array_equal(y, x)


@pytest.mark.parametrize("kind", ["Triangle", "Volume"])
def test_mesh_aabb_and_obb_as_pydrakes(kind):
    make = _triangle_mesh if kind == "Triangle" else _volume_mesh
    a, b = (make(m, np.random.default_rng(7)) for m in (pd, ml))
    for vertices in ({0, 1, 3, 5}, {2}, set(range(a.num_vertices()))):
        box_a = getattr(pd, f"ComputeAabbFor{kind}Mesh")(a, vertices)
        box_b = getattr(ml, f"ComputeAabbFor{kind}Mesh")(b, vertices)
        _close(box_a.center(), box_b.center())
        _close(box_a.half_width(), box_b.half_width())
        if len(vertices) < 4:
            continue
        obb_a = getattr(pd, f"ComputeObbFor{kind}Mesh")(a, vertices)
        obb_b = getattr(ml, f"ComputeObbFor{kind}Mesh")(mesh_M=b, vertices=vertices)
        np.testing.assert_allclose(obb_b.CalcVolume(), obb_a.CalcVolume(), rtol=1e-9)
        _close(obb_a.center(), obb_b.center())


def test_mesh_errors():
    p = [np.zeros(3), np.ones(3), np.array([1.0, 0, 0])]
    with pytest.raises(RuntimeError, match="A mesh must contain at least one triangle"):
        pd.TriangleSurfaceMesh([], [])
    with pytest.raises(RuntimeError, match="A mesh must contain at least one triangle"):
        ml.TriangleSurfaceMesh([], [])
    with pytest.raises(RuntimeError, match="must not be negative"):
        ml.SurfaceTriangle(-1, 0, 1)  # (Drake aborts)
    with pytest.raises(RuntimeError, match="names a vertex that does not exist"):
        ml.TriangleSurfaceMesh([ml.SurfaceTriangle(0, 1, 3)], p)
    with pytest.raises(TypeError):
        ml.TriangleSurfaceMesh([(0, 1, 2)], p)  # (pydrake's TypeError too)
    with pytest.raises(TypeError):
        pd.TriangleSurfaceMesh([(0, 1, 2)], p)
    mesh = ml.TriangleSurfaceMesh([ml.SurfaceTriangle(0, 1, 2)], p)
    for call in (lambda: mesh.vertex(3), lambda: mesh.area(1), lambda: mesh.element(0).vertex(3)):
        with pytest.raises(RuntimeError, match="failed"):  # (Drake aborts)
            call()
    with pytest.raises(RuntimeError, match="the set of vertices is empty"):
        ml.ComputeAabbForTriangleMesh(mesh, set())  # (Drake aborts)
    with pytest.raises(TypeError, match="expected a VolumeMesh"):
        ml.ComputeObbForVolumeMesh(mesh, {0})
    tetrahedra = ml.VolumeMesh([ml.VolumeElement(0, 1, 2, 3)], [*p, np.array([0, 0, 1.0])])
    with pytest.raises(RuntimeError, match="'2 < 1' failed"):  # (Drake aborts)
        tetrahedra.edge_vector(0, 2, 1)
