"""Meshcat without a browser: paths, the scene's bookkeeping, the objects drawn for each
shape (checked against the shapes' geometry), recording and StaticHtml()."""

import math
import pathlib

import numpy as np
import pytest

pytest.importorskip("meshcat")

from mallard.geometry import (  # noqa: E402
    Box,
    Capsule,
    Convex,
    Cylinder,
    Ellipsoid,
    HalfSpace,
    Mesh,
    Meshcat,
    MeshcatAnimation,
    Rgba,
    Sphere,
    StartMeshcat,
)
from mallard.geometry._meshcat_objects import HALF_SPACE_THICKNESS  # noqa: E402
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix  # noqa: E402
from tests.geometry.meshcat_helpers import html_commands  # noqa: E402

TETRAHEDRON_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


def scene(meshcat):
    """{path: {command type: command}} of the scene StaticHtml() rebuilds."""
    result = {}
    for command in html_commands(meshcat.StaticHtml()):
        result.setdefault(command["path"], {})[command["type"]] = command
    return result


def object_of(meshcat, path):
    return scene(meshcat)[path]["set_object"]["object"]


def matrix(flat):
    """A three.js column-major matrix as a 4x4 array."""
    return np.array(flat, dtype=float).reshape(4, 4).T


def test_start_meshcat_is_serverless():
    meshcat = StartMeshcat()
    assert isinstance(meshcat, Meshcat)
    assert meshcat.port() is None and meshcat.GetNumActiveConnections() == 0
    assert meshcat.web_url().startswith("file://")
    meshcat.Flush()


def test_paths_are_absolute_or_relative_to_drake():
    meshcat = Meshcat()
    meshcat.SetObject("robot/box", Box(1, 2, 3))
    meshcat.SetObject("/other//sphere/", Sphere(1))
    assert meshcat.HasPath("/drake/robot/box") and meshcat.HasPath("robot")
    assert meshcat.HasPath("/other/sphere") and not meshcat.HasPath("/drake/other")
    assert set(scene(meshcat)) == {"/drake/robot/box", "/other/sphere"}
    with pytest.raises(TypeError, match="a path must be a str"):
        meshcat.SetObject(3, Box(1, 1, 1))


def test_set_transform_and_delete_bookkeeping():
    meshcat = Meshcat()
    X = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1.0, 2.0, 3.0])
    meshcat.SetObject("a/b/box", Box(1, 1, 1))
    meshcat.SetTransform("a/b", X)
    meshcat.SetTransform("/c", np.eye(4))
    np.testing.assert_allclose(
        matrix(scene(meshcat)["/drake/a/b"]["set_transform"]["matrix"]), X.GetAsMatrix4()
    )
    meshcat.Delete("a")
    assert not meshcat.HasPath("a/b/box") and meshcat.HasPath("/c")
    meshcat.SetObject("x", Box(1, 1, 1))
    meshcat.Delete()  # all of /drake
    assert not meshcat.HasPath("x") and meshcat.HasPath("/c")
    meshcat.Delete("/")
    assert scene(meshcat) == {}
    with pytest.raises(TypeError, match="RigidTransform or a 4x4 matrix"):
        meshcat.SetTransform("x", np.eye(3))


def test_properties_and_their_errors():
    meshcat = Meshcat()
    meshcat.SetProperty("/Background", "visible", False)
    meshcat.SetProperty("/Grid", "opacity", 1)
    meshcat.SetProperty("/Lights/x", "color", [1.0, 0.5, 0.0, 1.0])
    meshcat.SetProperty("/Lights/x", "my_property", [1, 2])  # the viewer sets any name
    commands = scene(meshcat)
    assert commands["/Background"]["set_property"]["value"] is False
    assert commands["/Grid"]["set_property"]["value"] == 1.0
    with pytest.raises(RuntimeError, match="'visible' takes a boolean"):
        meshcat.SetProperty("/Grid", "visible", 1.0)
    with pytest.raises(RuntimeError, match="'position' takes a vector of 3 numbers"):
        meshcat.SetProperty("/Grid", "position", [1.0, 2.0])
    with pytest.raises(TypeError, match="must be a bool, a number or a vector"):
        meshcat.SetProperty("/Grid", "label", "text")
    with pytest.raises(TypeError, match="property must be a non-empty str"):
        meshcat.SetProperty("/Grid", "", True)


def test_camera_pose_looks_from_the_camera_at_the_target():
    meshcat = Meshcat()
    meshcat.SetCameraPose([1.0, -3.0, 2.0], [1.0, 0.0, 0.5])
    commands = scene(meshcat)
    X_WT = np.array(commands["/Cameras/default"]["set_transform"]["matrix"]).reshape(4, 4).T
    np.testing.assert_allclose(X_WT, RigidTransform([1.0, 0.0, 0.5]).GetAsMatrix4())
    # three.js's y-up camera frame: World's −y (toward the camera) is its +z, World's z its y.
    position = commands["/Cameras/default/rotated/<object>"]["set_property"]["value"]
    np.testing.assert_allclose(position, [0.0, 1.5, 3.0])


def test_bad_shapes_and_colors_are_errors():
    meshcat = Meshcat()
    with pytest.raises(TypeError, match="shape must be a mallard.geometry Shape"):
        meshcat.SetObject("x", "box")
    with pytest.raises(TypeError, match="rgba must be an Rgba"):
        meshcat.SetObject("x", Box(1, 1, 1), [1, 0, 0, 1])
    assert not meshcat.HasPath("x")


def test_material_color():
    meshcat = Meshcat()
    meshcat.SetObject("box", Box(1, 1, 1), Rgba(1.0, 0.5, 0.0, 0.25))
    (material,) = object_of(meshcat, "/drake/box")["materials"]
    assert material["color"] == 0xFF8000
    assert material["opacity"] == 0.25 and material["transparent"] is True
    meshcat.SetObject("box", Box(1, 1, 1))  # replaces it; default color 0.9 grey, opaque
    (material,) = object_of(meshcat, "/drake/box")["materials"]
    assert material["color"] == 0xE6E6E6 and material["transparent"] is False


def geometry_by_uuid(lowered):
    return {g["uuid"]: g for g in lowered["geometries"]}


def test_primitive_shapes_are_drawn_in_their_canonical_frames():
    meshcat = Meshcat()
    meshcat.SetObject("box", Box(1, 2, 3))
    meshcat.SetObject("sphere", Sphere(0.5))
    meshcat.SetObject("ellipsoid", Ellipsoid(1, 2, 3))
    meshcat.SetObject("cylinder", Cylinder(0.5, 2))
    lowered = object_of(meshcat, "/drake/box")
    box = geometry_by_uuid(lowered)[lowered["object"]["geometry"]]
    # three.js's BoxGeometry(width, height, depth) spans x, y, z.
    assert (box["type"], box["width"], box["height"], box["depth"]) == ("BoxGeometry", 1, 2, 3)
    lowered = object_of(meshcat, "/drake/sphere")
    assert geometry_by_uuid(lowered)[lowered["object"]["geometry"]]["radius"] == 0.5
    lowered = object_of(meshcat, "/drake/ellipsoid")
    assert geometry_by_uuid(lowered)[lowered["object"]["geometry"]]["radius"] == 1.0
    np.testing.assert_array_equal(matrix(lowered["object"]["matrix"]), np.diag([1, 2, 3, 1]))
    # three.js's cylinder axis is y: the object's matrix must take it to z (Drake's axis).
    lowered = object_of(meshcat, "/drake/cylinder")
    cylinder = geometry_by_uuid(lowered)[lowered["object"]["geometry"]]
    assert (cylinder["radiusTop"], cylinder["radiusBottom"], cylinder["height"]) == (0.5, 0.5, 2)
    T = matrix(lowered["object"]["matrix"])
    np.testing.assert_allclose(T @ [0, 1, 0, 0], [0, 0, 1, 0], atol=1e-15)
    np.testing.assert_allclose(T[:3, :3] @ T[:3, :3].T, np.eye(3), atol=1e-15)


def test_capsule_is_a_cylinder_and_two_spheres():
    meshcat = Meshcat()
    meshcat.SetObject("capsule", Capsule(0.25, 2.0))
    lowered = object_of(meshcat, "/drake/capsule")
    geometries = geometry_by_uuid(lowered)
    children = lowered["object"]["children"]
    kinds = [geometries[c["geometry"]]["type"] for c in children]
    assert kinds == ["CylinderGeometry", "SphereGeometry", "SphereGeometry"]
    assert geometries[children[0]["geometry"]]["height"] == 2.0
    centers = sorted(matrix(c["matrix"])[2, 3] for c in children[1:])
    assert centers == [-1.0, 1.0]
    assert all(geometries[c["geometry"]]["radius"] == 0.25 for c in children[1:])


def test_half_space_is_a_thin_box_below_z_zero():
    meshcat = Meshcat()
    meshcat.SetObject("ground", HalfSpace())
    lowered = object_of(meshcat, "/drake/ground")
    box = geometry_by_uuid(lowered)[lowered["object"]["geometry"]]
    T = matrix(lowered["object"]["matrix"])
    top = T[2, 3] + box["depth"] / 2
    assert top == 0.0 and box["depth"] == HALF_SPACE_THICKNESS
    assert box["width"] >= 50 and box["height"] >= 50


def test_meshes(tmp_path):
    obj = tmp_path / "t.obj"
    obj.write_text(TETRAHEDRON_OBJ)
    stl = tmp_path / "t.stl"
    stl.write_bytes(b"\0" * 80 + (0).to_bytes(4, "little"))
    dae = tmp_path / "t.dae"
    dae.write_text("<COLLADA/>")
    meshcat = Meshcat()
    meshcat.SetObject("obj", Mesh(obj, [1, 2, 3]))
    meshcat.SetObject("stl", Convex(stl))
    meshcat.SetObject("dae", Mesh(dae))
    lowered = object_of(meshcat, "/drake/obj")
    geometry = geometry_by_uuid(lowered)[lowered["object"]["geometry"]]
    assert (geometry["format"], geometry["data"]) == ("obj", TETRAHEDRON_OBJ)
    np.testing.assert_array_equal(matrix(lowered["object"]["matrix"]), np.diag([1, 2, 3, 1]))
    lowered = object_of(meshcat, "/drake/stl")
    geometry = geometry_by_uuid(lowered)[lowered["object"]["geometry"]]
    assert geometry["format"] == "stl" and geometry["data"].data == stl.read_bytes()
    lowered = object_of(meshcat, "/drake/dae")
    assert geometry_by_uuid(lowered)[lowered["object"]["geometry"]]["format"] == "dae"


def test_unreadable_meshes_are_skipped_with_a_warning(tmp_path):
    meshcat = Meshcat()
    (tmp_path / "m.vtk").write_text("")
    with pytest.warns(UserWarning, match=r"cannot draw the mesh .*m.vtk.* not '.vtk'"):
        meshcat.SetObject("vtk", Mesh(tmp_path / "m.vtk"))
    with pytest.warns(UserWarning, match=r"cannot read the mesh file .*missing.obj"):
        meshcat.SetObject("missing", Mesh(tmp_path / "missing.obj"))
    assert not meshcat.HasPath("vtk") and not meshcat.HasPath("missing")


def test_recording():
    meshcat = Meshcat()
    meshcat.SetObject("box", Box(1, 1, 1))
    meshcat.SetTransform("box", RigidTransform([9.0, 0, 0]), time_in_recording=0.5)
    assert meshcat.get_mutable_recording().end_time() == 0  # not recording: not recorded
    meshcat.StartRecording(frames_per_second=32.0)
    for k in range(5):
        angle = 0.3 * k
        X = RigidTransform(RotationMatrix.MakeZRotation(angle), [k, 0, 0])
        meshcat.SetTransform("box", X, time_in_recording=k / 32)
    meshcat.SetProperty("box", "visible", False, time_in_recording=2 / 32)
    meshcat.StopRecording()
    meshcat.SetTransform("box", RigidTransform([7.0, 0, 0]), time_in_recording=1.0)
    recording = meshcat.get_recording()
    assert isinstance(recording, MeshcatAnimation) and recording.frames_per_second() == 32
    assert recording.end_time() == 4 / 32
    # A rotation by θ about z is the quaternion (x, y, z, w) = (0, 0, sin θ/2, cos θ/2).
    for k in range(5):
        half = 0.15 * k
        np.testing.assert_allclose(
            recording.get_key_frame(k, "box", "quaternion"),
            [0, 0, math.sin(half), math.cos(half)],
            atol=1e-15,
        )
        assert recording.get_key_frame(k, "/drake/box", "position") == [k, 0, 0]
    assert recording.get_key_frame(2, "box", "visible") is False
    with pytest.raises(RuntimeError, match="no key frame 32 for the property 'position'"):
        recording.get_key_frame(32, "box", "position")
    # The scene shows the last transform set (recorded while visualizing, then after).
    transform = scene(meshcat)["/drake/box"]["set_transform"]["matrix"]
    assert matrix(transform)[0, 3] == 7.0


def test_recording_without_setting_the_visualization():
    meshcat = Meshcat()
    meshcat.StartRecording(set_visualizations_while_recording=False)
    meshcat.SetTransform("box", RigidTransform([1.0, 0, 0]), time_in_recording=0.0)
    meshcat.SetTransform("box", RigidTransform([2.0, 0, 0]))  # no time: set, not recorded
    meshcat.SetTransform("box", RigidTransform([3.0, 0, 0]), time_in_recording=1.0)
    assert matrix(scene(meshcat)["/drake/box"]["set_transform"]["matrix"])[0, 3] == 2.0
    recording = meshcat.get_mutable_recording()
    assert recording.frame(1.0) == 64
    assert recording.get_key_frame(64, "box", "position") == [3.0, 0, 0]


def test_published_recording_is_the_html_animation():
    meshcat = Meshcat()
    meshcat.SetObject("box", Box(1, 1, 1))
    meshcat.StartRecording(frames_per_second=10)
    meshcat.SetTransform("box", RigidTransform([0.0, 0, 0]), time_in_recording=0.0)
    meshcat.SetTransform("box", RigidTransform([1.0, 0, 0]), time_in_recording=0.3)
    meshcat.StopRecording()
    assert all(c["type"] != "set_animation" for c in html_commands(meshcat.StaticHtml()))
    meshcat.PublishRecording()
    meshcat.DeleteRecording()  # the published animation stays
    assert meshcat.get_mutable_recording().end_time() == 0
    commands = html_commands(meshcat.StaticHtml())
    assert commands[-1]["type"] == "set_animation"
    (animation,) = commands[-1]["animations"]
    assert animation["path"] == "/drake/box" and animation["clip"]["fps"] == 10
    tracks = {t["name"]: t for t in animation["clip"]["tracks"]}
    assert [k["time"] for k in tracks[".position"]["keys"]] == [0, 3]
    assert tracks[".position"]["keys"][1]["value"] == [1.0, 0, 0]
    assert tracks[".quaternion"]["type"] == "quaternion"
    assert commands[-1]["options"] == {
        "play": True,
        "loopMode": 2201,  # three.js's LoopRepeat
        "repetitions": 1,
        "clampWhenFinished": True,
    }


def test_static_html_is_standalone(tmp_path):
    meshcat = Meshcat()
    meshcat.SetObject("box", Box(1, 1, 1))
    html = meshcat.StaticHtml()
    bundle = (
        pathlib.Path(__import__("meshcat").__file__).parent / "viewer/dist/main.min.js"
    ).read_text()
    assert bundle in html  # the viewer's JavaScript is inlined
    page = html.replace(bundle, "")
    assert "src=" not in page and "http" not in page and "fetch(" not in page
    assert "new MeshCat.Viewer" in page and "seek(" in page
    url = meshcat.web_url()
    assert url.startswith("file://") and url.endswith("/meshcat.html")
    path = pathlib.Path(url[len("file://") :])
    assert path.read_text() == html
    meshcat.SetObject("sphere", Sphere(1))
    meshcat.web_url()  # rewritten
    assert path.read_text() == meshcat.StaticHtml()


def test_meshcat_animation_matches_pydrake():
    pd_geometry = pytest.importorskip("pydrake.geometry")
    ml, pd = MeshcatAnimation(10.0), pd_geometry.MeshcatAnimation(10.0)
    for a in (ml, pd):
        a.set_start_time(1.0)
    assert [ml.frame(t) for t in (1.0, 1.26, 1.3, 2.99)] == [
        pd.frame(t) for t in (1.0, 1.26, 1.3, 2.99)
    ]
    default, pd_default = MeshcatAnimation(), pd_geometry.MeshcatAnimation()
    assert default.frames_per_second() == pd_default.frames_per_second()
    assert int(default.loop_mode()) == int(pd_default.loop_mode())
    assert (default.autoplay(), default.repetitions(), default.clamp_when_finished()) == (
        pd_default.autoplay(),
        pd_default.repetitions(),
        pd_default.clamp_when_finished(),
    )
    default.set_loop_mode(MeshcatAnimation.LoopMode.kLoopPingPong)
    default.set_repetitions(3)
    default.set_autoplay(False)
    options = default.lower()["options"]
    assert (options["loopMode"], options["repetitions"], options["play"]) == (2202, 3, False)


def test_meshcat_animation_errors():
    with pytest.raises(RuntimeError, match="frames_per_second must be positive"):
        MeshcatAnimation(0)
    with pytest.raises(RuntimeError, match="frame must be non-negative"):
        MeshcatAnimation().SetTransform(-1, "x", RigidTransform())
    with pytest.raises(RuntimeError, match=r"time 0.5 is before start_time\(\) 1.0"):
        animation = MeshcatAnimation()
        animation.set_start_time(1.0)
        animation.frame(0.5)


def test_importing_mallard_geometry_does_not_import_meshcat():
    import subprocess
    import sys

    code = "import sys, mallard.geometry; print('meshcat' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_meshcat_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "meshcat", None)
    with pytest.raises(ImportError, match=r"mallard\[viewer\]"):
        Meshcat()
