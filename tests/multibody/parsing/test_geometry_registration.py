"""The parser registers visual and collision geometry with a plant that is a geometry source,
as pydrake's does: names, frames, shapes, poses, colors, roles and friction, for mallard's
acrobot and example-robot-data's Panda (its meshes resolved through the package map)."""

import importlib.metadata
import os
import re

import numpy as np
import pytest

from mallard.geometry import Mesh, Role, SceneGraph
from mallard.multibody.parsing import Parser
from mallard.multibody.plant import AddMultibodyPlantSceneGraph, CoulombFriction, MultibodyPlant
from mallard.systems.framework import DiagramBuilder
from tests.multibody.parsing.urdf_helpers import link, robot

pd = pytest.importorskip("pydrake.all")

ACROBOT = os.path.join(os.path.dirname(__file__), "../../../mallard/models/acrobot.urdf")


def example_robot_data():
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        return None
    path = str(dist.locate_file("cmeel.prefix/share/example-robot-data"))
    return path if os.path.isdir(path) else None


ERD = example_robot_data()


def mallard_plant(parse):
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    parse(Parser(plant))
    return plant, scene_graph.model_inspector()


def pydrake_plant(parse):
    builder = pd.DiagramBuilder()
    plant, scene_graph = pd.AddMultibodyPlantSceneGraph(builder, 0.0)
    parse(pd.Parser(plant))
    return plant, scene_graph.model_inspector()


def summary(plant, inspector, role, body_names):
    """Per body: (geometry name, frame name, shape type, mesh file, X_BG, diffuse or
    friction)."""
    result = []
    for name in body_names:
        frame_id = plant.GetBodyFrameIdIfExists(plant.GetBodyByName(name).index())
        for g in inspector.GetGeometries(frame_id, role) if frame_id is not None else []:
            shape = inspector.GetShape(g)
            source = getattr(shape, "source", None)
            mesh_file = None
            if type(shape).__name__ in ("Mesh", "Convex"):
                mesh_file = shape.filename() if source is None else str(source().path())
            properties = inspector.GetProperties(g, role)
            if role == Role.kProximity or int(role) == int(pd.Role.kProximity):
                friction = properties.GetProperty("material", "coulomb_friction")
                extra = (friction.static_friction(), friction.dynamic_friction())
            else:
                diffuse = properties.GetPropertyOrDefault("phong", "diffuse", None)
                extra = None if diffuse is None else tuple(getattr(diffuse, "rgba", diffuse))
            result.append(
                (
                    inspector.GetName(g),
                    inspector.GetName(frame_id),
                    type(shape).__name__,
                    mesh_file,
                    inspector.GetPoseInFrame(g).GetAsMatrix4().round(12).tolist(),
                    extra,
                )
            )
    return result


def test_acrobot_geometry_matches_pydrake():
    ml_plant, ml_inspector = mallard_plant(lambda p: p.AddModels(ACROBOT))
    pd_plant, pd_inspector = pydrake_plant(lambda p: p.AddModels(ACROBOT))
    bodies = ["link1", "link2"]
    for ml_role, pd_role in (
        (Role.kIllustration, pd.Role.kIllustration),
        (Role.kPerception, pd.Role.kPerception),
        (Role.kProximity, pd.Role.kProximity),
    ):
        assert ml_inspector.NumGeometriesWithRole(ml_role) == pd_inspector.NumGeometriesWithRole(
            pd_role
        )
        assert summary(ml_plant, ml_inspector, ml_role, bodies) == summary(
            pd_plant, pd_inspector, pd_role, bodies
        )
    assert ml_plant.num_visual_geometries() == 2
    assert len(ml_plant.GetVisualGeometriesForBody(ml_plant.GetBodyByName("link1"))) == 1


def test_collision_friction_and_disabled_roles_match_pydrake():
    text = robot(
        link(
            "a",
            extra=(
                '<visual name="v"><geometry><box size="1 2 3"/></geometry>'
                '<drake:illustration_properties enabled="false"/></visual>'
                '<collision name="c"><geometry><sphere radius="0.5"/></geometry>'
                '<drake:proximity_properties><drake:mu_static value="0.8"/>'
                '<drake:mu_dynamic value="0.5"/></drake:proximity_properties></collision>'
                '<collision name="v"><geometry><box size="1 2 3"/></geometry></collision>'
            ),
        )
    )
    ml_plant, ml_inspector = mallard_plant(lambda p: p.AddModelsFromString(text, "urdf"))
    pd_plant, pd_inspector = pydrake_plant(lambda p: p.AddModelsFromString(text, "urdf"))
    for ml_role, pd_role in (
        (Role.kIllustration, pd.Role.kIllustration),
        (Role.kPerception, pd.Role.kPerception),
        (Role.kProximity, pd.Role.kProximity),
    ):
        assert summary(ml_plant, ml_inspector, ml_role, ["a"]) == summary(
            pd_plant, pd_inspector, pd_role, ["a"]
        )
    (c, _) = ml_plant.GetCollisionGeometriesForBody(ml_plant.GetBodyByName("a"))
    friction = ml_inspector.GetProximityProperties(c).GetProperty("material", "coulomb_friction")
    assert friction == CoulombFriction(0.8, 0.5)


def test_registered_property_sets_share_no_value():
    """Each role's properties of a parsed geometry are its own: the renderers a URDF visual
    accepts are one set per role, changing one changes neither the other nor a new parse."""
    text = robot(
        link(
            "a",
            extra=(
                '<visual name="v"><geometry><box size="1 2 3"/></geometry>'
                '<drake:accepting_renderer name="r1"/><drake:accepting_renderer name="r2"/>'
                "</visual>"
            ),
        )
    )

    def parse(parser):
        parser.AddModelsFromString(text, "urdf")

    plant, inspector = mallard_plant(parse)
    (v,) = plant.GetVisualGeometriesForBody(plant.GetBodyByName("a"))
    illustration = inspector.GetIllustrationProperties(v).GetProperty("renderer", "accepting")
    perception = inspector.GetPerceptionProperties(v).GetProperty("renderer", "accepting")
    assert illustration == perception == {"r1", "r2"}
    illustration.add("r3")
    assert inspector.GetPerceptionProperties(v).GetProperty("renderer", "accepting") == {
        "r1",
        "r2",
    }
    plant, inspector = mallard_plant(parse)
    (v,) = plant.GetVisualGeometriesForBody(plant.GetBodyByName("a"))
    assert inspector.GetIllustrationProperties(v).GetProperty("renderer", "accepting") == {
        "r1",
        "r2",
    }


SDF = """<?xml version="1.0"?>
<sdf version="1.9"><model name="m"><link name="a">
  <inertial><mass>1</mass></inertial>
  <visual name="v"><pose>0 0 1 0 0.5 0</pose><geometry><box><size>1 2 3</size></box></geometry>
    <material><diffuse>1 0 0 1</diffuse></material></visual>
  <visual name="ground"><geometry><plane><normal>0 1 1</normal></plane></geometry></visual>
  <collision name="c"><geometry><capsule><radius>0.5</radius><length>1</length></capsule>
    </geometry></collision>
</link></model></sdf>"""


def test_sdf_geometry_matches_pydrake():
    ml_plant, ml_inspector = mallard_plant(lambda p: p.AddModelsFromString(SDF, "sdf"))
    pd_plant, pd_inspector = pydrake_plant(lambda p: p.AddModelsFromString(SDF, "sdf"))
    for ml_role, pd_role in (
        (Role.kIllustration, pd.Role.kIllustration),
        (Role.kPerception, pd.Role.kPerception),
        (Role.kProximity, pd.Role.kProximity),
    ):
        ml, pd_ = (
            [g if g[2] != "HalfSpace" else g[:4] + (half_space_normal(g[4]),) + g[5:] for g in x]
            for x in (
                summary(ml_plant, ml_inspector, ml_role, ["a"]),
                summary(pd_plant, pd_inspector, pd_role, ["a"]),
            )
        )
        assert ml and ml == pd_


def half_space_normal(X_BG):
    """The normal (z axis) and origin of a half space's pose: its x and y axes are free (the
    SDFormat parser's choice differs from pydrake's)."""
    X = np.array(X_BG)
    return X[:3, 2].tolist(), X[:3, 3].tolist()


def test_parser_registers_the_plant_with_a_given_scene_graph():
    plant, scene_graph = MultibodyPlant(0.0), SceneGraph()
    Parser(plant, scene_graph).AddModels(ACROBOT)
    assert plant.geometry_source_is_registered()
    assert scene_graph.model_inspector().NumGeometriesWithRole(Role.kIllustration) == 2
    pd_plant, pd_scene_graph = pd.MultibodyPlant(0.0), pd.SceneGraph()
    pd.Parser(pd_plant, pd_scene_graph)
    assert pd_plant.geometry_source_is_registered()


def test_without_a_scene_graph_geometry_is_ignored():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(ACROBOT)
    assert not plant.geometry_source_is_registered() and plant.num_visual_geometries() == 0


def test_a_failed_parse_registers_nothing():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    visual = '<visual><geometry><box size="1 1 1"/></geometry></visual>'
    text = robot(link("a", extra=visual), '<joint name="j" type="bogus"/>')
    with pytest.raises(RuntimeError):
        Parser(plant).AddModelsFromString(text, "urdf")
    assert scene_graph.model_inspector().num_geometries() == 0
    assert not plant.HasBodyNamed("a")


@pytest.mark.skipif(ERD is None, reason="example-robot-data is not installed")
def test_panda_geometry_matches_pydrake(tmp_path):
    """pydrake's SceneGraph rejects the Panda's .stl collision meshes (it wants .obj for a
    convex hull): pydrake loads a copy whose collision meshes are an .obj stand-in."""
    path = os.path.join(ERD, "robots/panda_description/urdf/panda.urdf")
    stand_in = tmp_path / "stand_in.obj"
    stand_in.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    text = open(path).read()
    text = re.sub(r'filename="[^"]*collision/[^"]*\.stl"', f'filename="{stand_in}"', text)
    copy = tmp_path / "panda.urdf"
    copy.write_text(text)

    def add(parser, file):
        parser.package_map().Add("example-robot-data", ERD)
        parser.AddModels(file)

    ml_plant, ml_inspector = mallard_plant(lambda p: add(p, path))
    pd_plant, pd_inspector = pydrake_plant(lambda p: add(p, str(copy)))
    assert ml_inspector.NumGeometriesWithRole(Role.kIllustration) == 11
    panda = ml_plant.GetModelInstanceByName("panda")
    bodies = [ml_plant.get_body(i).name() for i in ml_plant.GetBodyIndices(panda)]
    for ml_role, pd_role in (
        (Role.kIllustration, pd.Role.kIllustration),
        (Role.kPerception, pd.Role.kPerception),
        (Role.kProximity, pd.Role.kProximity),
    ):
        assert ml_inspector.NumGeometriesWithRole(ml_role) == pd_inspector.NumGeometriesWithRole(
            pd_role
        )
        ml, pd_ = (
            summary(ml_plant, ml_inspector, ml_role, bodies),
            summary(pd_plant, pd_inspector, pd_role, bodies),
        )
        if ml_role == Role.kProximity:  # all but the mesh file (pydrake's is the stand-in)
            meshes = [g[3] for g in ml if g[3] is not None]
            assert meshes and all(m.endswith(".stl") and os.path.isfile(m) for m in meshes)
            ml, pd_ = ([g[:3] + g[4:] for g in x] for x in (ml, pd_))
        assert ml == pd_
    assert ml_plant.num_collision_geometries() == pd_plant.num_collision_geometries() == 17
    for g in ml_inspector.GetAllGeometryIds(Role.kIllustration):
        mesh = ml_inspector.GetShape(g)
        assert isinstance(mesh, Mesh) and mesh.extension() == ".dae"
        assert os.path.isfile(mesh.filename())
