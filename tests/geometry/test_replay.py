"""The replay page (mallard.geometry._replay) and the mesh files it reads: each mesh stored
once, the poses of the recorded frames, the box the viewer frames and the floor below it."""

import base64
import json
import re
import struct
import warnings

import numpy as np
import pytest

from mallard.geometry import (
    Box,
    GeometryInstance,
    MakePhongIllustrationProperties,
    Mesh,
    Rgba,
    SceneGraph,
    Sphere,
)
from mallard.geometry import _replay as replay_module
from mallard.geometry._mesh_data import MeshFileError, read_mesh
from mallard.geometry._replay import Replay, _rotation_matrices, quaternions
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.multibody.plant import AddMultibodyPlantSceneGraph
from mallard.multibody.tree import SpatialInertia
from mallard.systems.framework import DiagramBuilder

CUBE_OBJ = """# a unit cube as quads
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2/1 3/2 7/3 6/4
f 3//1 4//1 8//1 7//1
f -4 -8 -5 -1
"""

DAE = """<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="centimeter" meter="0.01"/><up_axis>Z_UP</up_axis></asset>
  <library_effects>
    <effect id="red-effect"><profile_COMMON><technique sid="common"><phong>
      <diffuse><color sid="diffuse">1 0 0 1</color></diffuse>
    </phong></technique></profile_COMMON></effect>
  </library_effects>
  <library_materials>
    <material id="red-material"><instance_effect url="#red-effect"/></material>
  </library_materials>
  <library_geometries>
    <geometry id="quad">
      <mesh>
        <source id="quad-positions">
          <float_array id="quad-positions-array" count="12">0 0 0 1 0 0 1 1 0 0 1 0</float_array>
          <technique_common><accessor source="#quad-positions-array" count="4" stride="3"/>
          </technique_common>
        </source>
        <source id="quad-normals">
          <float_array id="quad-normals-array" count="3">0 0 1</float_array>
        </source>
        <vertices id="quad-vertices">
          <input semantic="POSITION" source="#quad-positions"/>
        </vertices>
        <polylist material="paint" count="1">
          <input semantic="VERTEX" source="#quad-vertices" offset="0"/>
          <input semantic="NORMAL" source="#quad-normals" offset="1"/>
          <vcount>4</vcount>
          <p>0 0 1 0 2 0 3 0</p>
        </polylist>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene">
      <node id="lifted"><translate>0 0 100</translate>
        <node id="turned"><rotate>0 0 1 90</rotate>
          <instance_geometry url="#quad">
            <bind_material><technique_common>
              <instance_material symbol="paint" target="#red-material"/>
            </technique_common></bind_material>
          </instance_geometry>
        </node>
      </node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
"""


def test_obj_faces_are_fans_of_triangles(tmp_path):
    path = tmp_path / "cube.obj"
    path.write_text(CUBE_OBJ)
    mesh = read_mesh(str(path))
    assert mesh.vertices.shape == (8, 3) and mesh.triangles.shape == (12, 3)
    np.testing.assert_array_equal(mesh.vertices.min(axis=0), [0, 0, 0])
    np.testing.assert_array_equal(mesh.vertices.max(axis=0), [1, 1, 1])
    # Each face of the cube is two triangles with its 4 corners, e.g. the top z = 1.
    top = [t for t in mesh.triangles if np.all(mesh.vertices[t][:, 2] == 1)]
    assert len(top) == 2 and len({tuple(mesh.vertices[i]) for t in top for i in t}) == 4
    assert mesh.parts == [(0, 12, None)]


def _binary_stl(triangles):
    data = bytearray(80) + struct.pack("<I", len(triangles))
    for corners in triangles:
        data += struct.pack("<12fH", 0, 0, 0, *np.ravel(corners), 0)
    return bytes(data)


def test_stl_binary_and_ascii_merge_shared_vertices(tmp_path):
    triangles = [[[0, 0, 0], [1, 0, 0], [0, 1, 0]], [[1, 0, 0], [1, 1, 0], [0, 1, 0]]]
    (tmp_path / "b.stl").write_bytes(_binary_stl(triangles))
    facets = "".join(
        "facet normal 0 0 1\nouter loop\n"
        + "".join(f"vertex {x} {y} {z}\n" for x, y, z in t)
        + "endloop\nendfacet\n"
        for t in triangles
    )
    (tmp_path / "a.stl").write_text(f"solid square\n{facets}endsolid square\n")
    for name in ("a.stl", "b.stl"):
        mesh = read_mesh(str(tmp_path / name))
        assert mesh.vertices.shape == (4, 3) and mesh.triangles.shape == (2, 3)
        np.testing.assert_array_equal(
            mesh.vertices[mesh.triangles].reshape(-1, 3), np.reshape(triangles, (-1, 3))
        )


def test_collada_nodes_units_and_material_colors(tmp_path):
    path = tmp_path / "quad.dae"
    path.write_text(DAE)
    mesh = read_mesh(str(path))
    assert mesh.triangles.shape == (2, 3)
    # 1 m up (100 cm), turned 90° about z, in meters.
    np.testing.assert_allclose(mesh.vertices.min(axis=0), [-0.01, 0, 1], atol=1e-7)
    np.testing.assert_allclose(mesh.vertices.max(axis=0), [0, 0.01, 1], atol=1e-7)
    assert mesh.parts == [(0, 2, [1.0, 0.0, 0.0, 1.0])]


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("m.ply", "ply", "cannot read '.ply' meshes"),
        ("m.obj", "v 0 0 0\nf 1 2 3\n", "refers to a vertex that does not exist"),
        ("m.obj", "v 0 0 0\n", "has no triangles"),
        ("m.obj", "v 0 nan 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "non-finite"),
        ("m.dae", "<COLLADA", "not a valid dae file"),
        ("m.stl", "nothing", "neither binary nor ASCII STL"),
        ("missing.obj", None, "No such file"),
    ],
)
def test_mesh_errors_name_the_file(tmp_path, name, content, message):
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    with pytest.raises(MeshFileError, match=re.escape(message)) as info:
        read_mesh(str(path))
    assert str(path) in str(info.value)


def test_quaternions_of_rotation_matrices():
    rng = np.random.default_rng(1)
    R = np.array([RotationMatrix(RollPitchYaw(rng.uniform(-4, 4, 3))).matrix() for _ in range(200)])
    R = np.concatenate([R, [np.eye(3), np.diag([1.0, -1, -1]), np.diag([-1.0, -1, 1])]])
    q = quaternions(R)
    np.testing.assert_allclose(np.linalg.norm(q, axis=-1), 1, atol=1e-14)
    np.testing.assert_allclose(_rotation_matrices(q), R, atol=1e-14)
    assert np.all(q[:, 3] >= 0)
    w, x, y, z = RotationMatrix(R[0]).ToQuaternion().wxyz()
    np.testing.assert_allclose(q[0], np.sign(w) * np.array([x, y, z, w]), atol=1e-14)


def _scene(html):
    text = re.search(r'id="mallard-scene">(.*?)</script>', html, re.S).group(1)
    return json.loads(text)


def _two_bodies(mesh_path=None):
    """A plant of two free bodies, each drawn with a mesh file (the same one) or a box."""
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    for name in ("a", "b"):
        body = plant.AddRigidBody(name, SpatialInertia.SolidBoxWithMass(1, 1, 1, 1))
        shape = Mesh(str(mesh_path), 2.0) if mesh_path else Box(1, 2, 3)
        plant.RegisterVisualGeometry(body, RigidTransform(), shape, name, Rgba(0, 0, 1, 1))
    plant.Finalize()
    diagram = builder.Build()
    return diagram, plant, scene_graph


def _record(diagram, plant, scene_graph, positions, times):
    replay = Replay(scene_graph.model_inspector())
    context = diagram.CreateDefaultContext()
    for t, q in zip(times, positions, strict=True):
        plant.SetPositions(plant.GetMyMutableContextFromRoot(context), q)
        query = scene_graph.get_query_output_port().Eval(scene_graph.GetMyContextFromRoot(context))
        replay.AddPoses(t, query)
    return replay


def _free(p, rpy=(0, 0, 0)):
    w, x, y, z = RotationMatrix(RollPitchYaw(rpy)).ToQuaternion().wxyz()
    return [w, x, y, z, *p]


def test_each_mesh_is_stored_once(tmp_path):
    path = tmp_path / "cube.obj"
    path.write_text(CUBE_OBJ)
    diagram, plant, scene_graph = _two_bodies(path)
    positions = [_free([0, 0, 0]) + _free([3, 0, 0]), _free([0, 0, 1]) + _free([3, 0, 1])]
    replay = _record(diagram, plant, scene_graph, positions, [0.0, 0.5])
    html = replay.Html("two cubes", "a test")
    scene = _scene(html)
    assert len(scene["meshes"]) == 1
    assert [o["mesh"] for o in scene["objects"]] == [0, 0]
    assert [o["scale"] for o in scene["objects"]] == [[2.0] * 3] * 2
    mesh = scene["meshes"][0]
    assert len(base64.b64decode(mesh["vertices"])) == 8 * 3 * 4  # float32
    assert len(base64.b64decode(mesh["triangles"])) == 12 * 3 * 2 and mesh["index_bytes"] == 2
    poses = np.frombuffer(base64.b64decode(scene["poses"]), np.float32).reshape(2, 2, 7)
    np.testing.assert_allclose(poses[1, 1], [3, 0, 1, 0, 0, 0, 1])
    # The cubes (2 m, from the origin of each body) over both times.
    np.testing.assert_allclose(scene["bounds"], [[0, 0, 0], [5, 2, 3]])
    assert scene["floor"] == 0.0 and scene["follow"] is None
    assert "<b>two cubes</b>" in html and "a test" in html


def test_floor_below_a_model_hanging_below_the_origin():
    diagram, plant, scene_graph = _two_bodies()
    positions = [_free([0, 0, -2]) + _free([0, 0, -5], [np.pi / 2, 0, 0])]
    scene = _scene(_record(diagram, plant, scene_graph, positions, [0.0]).Html("boxes"))
    # b's box (1, 2, 3) turned 90° about x: 3 along y, 2 along z, so its bottom is z = -6.
    np.testing.assert_allclose(scene["bounds"], [[-0.5, -1.5, -6], [0.5, 1.5, -0.5]])
    assert scene["floor"] == -6


def test_a_floor_a_little_below_the_model_is_framed_too():
    diagram, plant, scene_graph = _two_bodies()
    for z, framed_lo in ((2.0, 0.0), (8.0, 6.5)):  # 0.5 m below: framed; 6.5 m: not
        positions = [_free([0, 0, z]) + _free([0, 0, z])]
        scene = _scene(_record(diagram, plant, scene_graph, positions, [0.0]).Html("boxes"))
        assert scene["floor"] == 0.0 and scene["bounds"][0][2] == framed_lo


def test_a_model_that_travels_is_followed():
    diagram, plant, scene_graph = _two_bodies()
    times = np.linspace(0, 2, 11)
    positions = [_free([0, 0, -20 * t]) + _free([2, 0, -20 * t]) for t in times]
    scene = _scene(_record(diagram, plant, scene_graph, positions, times).Html("falling"))
    centers = np.frombuffer(base64.b64decode(scene["follow"]), np.float32).reshape(-1, 3)
    np.testing.assert_allclose(centers[:, 2], -20 * times, atol=1e-5)
    np.testing.assert_allclose(scene["bounds"], [[-0.5, -1, -1.5], [2.5, 1, 1.5]])
    assert scene["floor"] == -1.5  # below the start


def test_times_must_increase_and_unreadable_meshes_are_left_out(tmp_path):
    diagram, plant, scene_graph = _two_bodies(tmp_path / "missing.obj")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        replay = Replay(scene_graph.model_inspector())
    assert len(caught) == 1 and "missing.obj" in str(caught[0].message)
    assert replay.num_frames() == 0
    query = scene_graph.get_query_output_port().Eval(
        scene_graph.GetMyContextFromRoot(diagram.CreateDefaultContext())
    )
    replay.AddPoses(1.0, query)
    with pytest.raises(ValueError, match="not after the last recorded 1.0"):
        replay.AddPoses(1.0, query)


def test_world_geometry_stands_still_and_titles_are_escaped():
    scene_graph = SceneGraph()
    source = scene_graph.RegisterSource("s")
    instance = GeometryInstance(RigidTransform([0, 0, 1]), Sphere(0.5), "ball")
    instance.set_illustration_properties(MakePhongIllustrationProperties([1, 0, 0, 0.5]))
    scene_graph.RegisterAnchoredGeometry(source, instance)
    replay = Replay(scene_graph.model_inspector())
    html = replay.Html("a <b> & </script>")
    scene = _scene(html)
    assert scene["title"] == "a <b> & </script>" and "a &lt;b&gt; &amp; &lt;/script&gt;" in html
    assert [(o["type"], o["frame"], o["color"]) for o in scene["objects"]] == [
        ("sphere", -1, [1, 0, 0, 0.5])
    ]
    assert scene["num_frames"] == 0


def test_panda_replay_size_is_its_meshes_and_trajectory():
    """The Panda's 11 visuals (the finger's mesh used twice) are 10 meshes stored once, so
    the page is about its meshes' float32 triangles plus the trajectory (base64) and the
    viewer: 2.6 MB for 10 s, where the per-geometry Collada text was 15 MB."""
    import importlib.metadata
    import pathlib

    from mallard.multibody.parsing import Parser

    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    erd = str(dist.locate_file("cmeel.prefix/share/example-robot-data"))
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    parser = Parser(plant)
    parser.package_map().Add("example-robot-data", erd)
    parser.AddModels(f"{erd}/robots/panda_description/urdf/panda.urdf")
    plant.Finalize()
    diagram = builder.Build()
    times = np.arange(101) * 0.01
    q0 = plant.GetPositions(plant.CreateDefaultContext())
    replay = _record(diagram, plant, scene_graph, [q0] * len(times), times)
    html = replay.Html("panda")
    scene = _scene(html)
    assert len(scene["objects"]) == 11 and len(scene["meshes"]) == 10
    binary = sum(
        len(base64.b64decode(m["vertices"])) + len(base64.b64decode(m["triangles"]))
        for m in scene["meshes"]
    )
    trajectory = len(times) * (8 + 7 * 4 * scene["num_frames"])
    viewer = (pathlib.Path(replay_module.__file__).parent / "replay_viewer.js").stat().st_size
    assert len(html) < 4 / 3 * (binary + trajectory) + viewer + 20_000
    assert len(html) < 2_500_000


def test_meshes_of_more_than_65536_vertices_have_32_bit_indices(tmp_path):
    rng = np.random.default_rng(2)
    corners = rng.uniform(-1, 1, (25_000, 3, 3))  # 75 000 distinct vertices
    (tmp_path / "big.stl").write_bytes(_binary_stl(corners))
    diagram, plant, scene_graph = _two_bodies(tmp_path / "big.stl")
    scene = _scene(Replay(scene_graph.model_inspector()).Html("big"))
    (mesh,) = scene["meshes"]
    assert mesh["index_bytes"] == 4
    vertices = np.frombuffer(base64.b64decode(mesh["vertices"]), np.float32).reshape(-1, 3)
    triangles = np.frombuffer(base64.b64decode(mesh["triangles"]), np.uint32).reshape(-1, 3)
    np.testing.assert_array_equal(vertices[triangles], corners.astype(np.float32))


def test_contact_forces_are_recorded_per_time():
    """AddContactForces attaches forces to the last recorded time; the scene holds, per time,
    its arrows (point, force / newtons_per_meter), scaled as given or, by default, so that
    the 90th percentile of the times' largest forces is a quarter of the model's size."""
    diagram, plant, scene_graph = _two_bodies()
    q = [_free([0, 0, 0]) + _free([1, 0, 0]), _free([0, 0, 1]) + _free([1, 0, 1])]
    replay = _record(diagram, plant, scene_graph, q, [0, 1])
    with pytest.raises(ValueError, match="time 0.0 is not the last time AddPoses recorded"):
        replay.AddContactForces(0.0, [[0, 0, 0]], [[0, 0, 1]])
    with pytest.raises(ValueError, match="2 points but 1 forces"):
        replay.AddContactForces(1.0, [[0, 0, 0], [1, 0, 0]], [[0, 0, 1]])
    assert _scene(replay.Html("t"))["contacts"] is None
    replay.AddContactForces(1.0, [[0, 0, 0], [1, 2, 3]], [[0, 0, 10.0], [4.0, 0, 3.0]])
    assert replay.num_contact_forces() == 2
    contacts = _scene(replay.Html("t", newtons_per_meter=5.0))["contacts"]
    offsets = np.frombuffer(base64.b64decode(contacts["offsets"]), dtype=np.int32)
    arrows = np.frombuffer(base64.b64decode(contacts["arrows"]), dtype=np.float32)
    np.testing.assert_array_equal(offsets, [0, 0, 2])  # none at t = 0, two at t = 1
    np.testing.assert_allclose(arrows.reshape(-1, 6), [[0, 0, 0, 0, 0, 2], [1, 2, 3, 0.8, 0, 0.6]])
    size = np.max(np.subtract(*_scene(replay.Html("t"))["bounds"][::-1]))
    default = _scene(replay.Html("t"))["contacts"]["newtons_per_meter"]
    assert default == pytest.approx(10.0 / (0.25 * size))
