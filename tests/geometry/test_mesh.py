"""Mesh and Convex from .obj files: reading, CalcVolume, CalcSpatialInertia (closed forms of a
box), the convex hull (merged coplanar facets, planar and degenerate inputs) and the errors."""

import pickle

import numpy as np
import pytest

from mallard.geometry import Box, CalcVolume, Convex, HalfSpace, Mesh
from mallard.multibody.tree import CalcSpatialInertia

pytest.importorskip("scipy")

# A 1 x 2 x 3 box centered at (1, 0, 0), outward wound, with quads and negative indices.
BOX_OBJ = """# box
v 0.5 -1 -1.5
v 1.5 -1 -1.5
v 1.5 1 -1.5
v 0.5 1 -1.5
v 0.5 -1 1.5
v 1.5 -1 1.5
v 1.5 1 1.5
v 0.5 1 1.5
v 1.0 0.0 0.0
f 1 4 3 2
f 5/1 6/2 7/3 8/4
f 1//1 2//2 6//3 5//4
f -8 -7 -3 -4
f 3 4 8 7
f 4 1 5 8
"""


@pytest.fixture
def box_obj(tmp_path):
    path = tmp_path / "box.obj"
    path.write_text(BOX_OBJ)
    return str(path)


def test_volume_and_inertia_of_a_box(box_obj):
    for shape in (Mesh(box_obj), Convex(box_obj)):
        assert CalcVolume(shape) == pytest.approx(6.0, rel=1e-14)
        M = CalcSpatialInertia(shape, 2.0)
        expected = CalcSpatialInertia(Box(1, 2, 3), 2.0).Shift([-1.0, 0.0, 0.0])
        np.testing.assert_allclose(
            M.CopyToFullMatrix6(), expected.CopyToFullMatrix6(), rtol=1e-13, atol=1e-13
        )
    # A mirroring scale keeps the volume positive; the scale multiplies it.
    assert CalcVolume(Mesh(box_obj, [1, 2, -3])) == pytest.approx(36.0, rel=1e-14)
    assert CalcVolume(Convex(box_obj, 2.0)) == pytest.approx(48.0, rel=1e-14)


def test_convex_hull_merges_coplanar_facets(box_obj):
    hull = Mesh(box_obj).GetConvexHull()
    assert (hull.num_vertices(), hull.num_faces()) == (8, 6)  # the center vertex is inside
    assert all(hull.element(f).num_vertices() == 4 for f in range(6))
    assert hull.total_area() == pytest.approx(2 * (2 + 3 + 6), rel=1e-14)
    np.testing.assert_allclose(hull.centroid(), [1, 0, 0], atol=1e-14)
    for f in range(hull.num_faces()):
        polygon = hull.element(f)
        p = [hull.vertex(polygon.vertex(i)) for i in range(polygon.num_vertices())]
        n = hull.face_normal(f)
        assert (p[0] - [1, 0, 0]) @ n > 0  # outward
        assert np.cross(p[1] - p[0], p[2] - p[1]) @ n > 0  # counterclockwise
    shape = Convex(box_obj)
    assert shape.GetConvexHull() is shape.GetConvexHull()  # computed once
    assert pickle.loads(pickle.dumps(shape)).GetConvexHull().num_faces() == 6


def test_planar_and_degenerate_hulls(tmp_path):
    square = tmp_path / "square.obj"
    square.write_text("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 0.5 0\nf 1 2 3\n")
    hull = Mesh(str(square)).GetConvexHull()
    assert (hull.num_vertices(), hull.num_faces()) == (4, 2)  # both sides of the square
    line = tmp_path / "line.obj"
    line.write_text("v 0 0 0\nv 1 0 0\nv 2 0 0\nv 3 0 0\nf 1 2 3\n")
    with pytest.raises(RuntimeError, match="line.obj.*collinear"):
        Convex(str(line)).GetConvexHull()
    few = tmp_path / "few.obj"
    few.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    with pytest.raises(RuntimeError, match="few.obj.*fewer than four"):
        Convex(str(few)).GetConvexHull()


def test_errors(tmp_path):
    missing = str(tmp_path / "missing.obj")
    for call in (
        lambda: CalcVolume(Mesh(missing)),
        lambda: CalcSpatialInertia(Convex(missing), 1.0),
        lambda: Mesh(missing).GetConvexHull(),
    ):
        with pytest.raises(RuntimeError, match=f"cannot read the file '{missing}'"):
            call()
    with pytest.raises(RuntimeError, match="CalcVolume currently only supports .obj files"):
        CalcVolume(Mesh("/x/part.stl"))
    with pytest.raises(ValueError, match="only supports .obj or tetrahedral-mesh .vtk files for"):
        CalcSpatialInertia(Mesh("/x/part.dae"), 1.0)
    with pytest.raises(RuntimeError, match="MakeConvexHull only applies to .obj, .vtk, and .gltf"):
        Mesh("/x/part.stl").GetConvexHull()
    with pytest.raises(NotImplementedError, match="mallard reads only .obj files"):
        Convex("/x/part.vtk").GetConvexHull()
    bad = tmp_path / "bad.obj"
    bad.write_text("v 0 0 0\nf 1 2 3\n")
    with pytest.raises(RuntimeError, match="bad.obj:2: .*vertex that does not exist"):
        CalcVolume(Mesh(str(bad)))
    inside_out = tmp_path / "inside_out.obj"
    inside_out.write_text(
        "\n".join(
            line if not line.startswith("f") else "f " + " ".join(line.split()[1:][::-1])
            for line in BOX_OBJ.splitlines()
        )
    )
    with pytest.raises(ValueError, match="The calculated volume of a triangle surface mesh is -6"):
        CalcSpatialInertia(Mesh(str(inside_out)), 1.0)
    with pytest.raises(RuntimeError, match="density must be positive"):
        CalcSpatialInertia(Convex(str(inside_out)), -1.0)
    assert CalcVolume(HalfSpace()) == np.inf
    with pytest.raises(TypeError, match="expected a Shape"):
        CalcVolume("box")
