"""SceneGraph (registration, poses, inspector) and the plant as its geometry source:
AddMultibodyPlantSceneGraph, AddMultibodyPlant, geometry registration and poses."""

import numpy as np
import pytest

from mallard.all import (
    AddMultibodyPlant,
    AddMultibodyPlantSceneGraph,
    ApplyMultibodyPlantConfig,
    Box,
    CoulombFriction,
    DiagramBuilder,
    FrameId,
    GeometryFrame,
    GeometryInstance,
    MultibodyPlant,
    MultibodyPlantConfig,
    RigidTransform,
    Role,
    SceneGraph,
    SpatialInertia,
    Sphere,
)


def test_scene_graph_registration_and_inspector():
    sg = SceneGraph()
    source = sg.RegisterSource("src")
    assert sg.SourceIsRegistered(source)
    assert sg.get_source_pose_port(source).get_name() == "src_pose"
    assert sg.get_query_output_port().get_name() == "query"
    frame = sg.RegisterFrame(source, GeometryFrame("f"))
    geometry = sg.RegisterGeometry(
        source, frame, GeometryInstance(RigidTransform([0, 0, 1]), Box(1, 2, 3), "g")
    )
    inspector = sg.model_inspector()
    assert (inspector.num_frames(), inspector.num_geometries()) == (2, 1)
    assert inspector.GetName(geometry) == "g" and inspector.GetName(frame) == "f"
    assert inspector.GetFrameId(geometry) == frame
    assert inspector.GetOwningSourceName(geometry) == "src"
    np.testing.assert_array_equal(inspector.GetPoseInFrame(geometry).translation(), [0, 0, 1])
    with pytest.raises(RuntimeError, match="duplicate name: src"):
        sg.RegisterSource("src")


def test_add_multibody_plant_scene_graph_carries_body_poses():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.001)
    assert (plant.get_name(), scene_graph.get_name()) == ("plant", "scene_graph")
    assert plant.geometry_source_is_registered() and plant.time_step() == 0.001
    body = plant.AddRigidBody("b", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    visual = plant.RegisterVisualGeometry(
        body, RigidTransform([0, 0, 0.1]), Sphere(0.1), "vis", [1, 0, 0, 1]
    )
    collision = plant.RegisterCollisionGeometry(
        body, RigidTransform(), Box(1, 1, 1), "col", CoulombFriction(0.5, 0.4)
    )
    plant.Finalize()
    assert plant.GetVisualGeometriesForBody(body) == [visual]
    assert plant.GetCollisionGeometriesForBody(body) == [collision]
    assert (plant.num_visual_geometries(), plant.num_collision_geometries()) == (1, 1)
    frame = plant.GetBodyFrameIdOrThrow(body.index())
    assert isinstance(frame, FrameId) and plant.GetBodyFromFrameId(frame) is body
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyContextFromRoot(context)
    plant.SetFreeBodyPose(plant_context, body, RigidTransform([1, 2, 3]))
    poses = plant.get_geometry_pose_output_port().Eval(plant_context)
    assert poses.ids() == [frame]
    query = scene_graph.get_query_output_port().Eval(scene_graph.GetMyContextFromRoot(context))
    np.testing.assert_allclose(query.GetPoseInWorld(visual).translation(), [1, 2, 3.1])
    np.testing.assert_allclose(query.GetPoseInWorld(frame).translation(), [1, 2, 3])
    inspector = scene_graph.model_inspector()
    assert inspector.GetName(frame) == "b"
    assert repr(inspector.GetShape(collision)) == repr(Box(1, 1, 1))
    np.testing.assert_array_equal(
        inspector.GetIllustrationProperties(visual).GetProperty("phong", "diffuse").rgba,
        [1, 0, 0, 1],
    )
    assert inspector.GetProximityProperties(collision).GetProperty(
        "material", "coulomb_friction"
    ) == CoulombFriction(0.5, 0.4)
    assert inspector.NumGeometriesWithRole(Role.kIllustration) == 1


def test_geometry_registration_rules():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    with pytest.raises(RuntimeError, match="not registered as a geometry source"):
        plant.RegisterVisualGeometry(body, RigidTransform(), Sphere(1), "v", [1, 1, 1, 1])
    sg = SceneGraph()
    plant.RegisterAsSourceForSceneGraph(sg)
    with pytest.raises(RuntimeError, match="already registered"):
        plant.RegisterAsSourceForSceneGraph(sg)
    plant.Finalize()
    assert plant.GetBodyFrameIdIfExists(body.index()) is not None  # (every body at Finalize)
    with pytest.raises(RuntimeError, match="Post-finalize calls to 'RegisterVisualGeometry"):
        plant.RegisterVisualGeometry(body, RigidTransform(), Sphere(1), "v", [1, 1, 1, 1])


def test_multibody_plant_config():
    config = MultibodyPlantConfig()
    assert (config.time_step, config.use_sampled_output_ports) == (0.001, True)
    assert config.discrete_contact_approximation == "lagged"
    plant, scene_graph = AddMultibodyPlant(
        MultibodyPlantConfig(time_step=0.01, use_sampled_output_ports=False), DiagramBuilder()
    )
    assert plant.time_step() == 0.01 and not plant.has_sampled_output_ports()
    with pytest.raises(RuntimeError, match="time step can only be set"):
        ApplyMultibodyPlantConfig(MultibodyPlantConfig(time_step=0.5), MultibodyPlant(0.1))


def test_geometry_names_are_unique_per_frame_and_role_as_in_pydrake():
    """A visual and a collision geometry of a frame may share a name; two geometries of the
    same role may not (pydrake's message)."""
    import mallard.all as ml

    pd = pytest.importorskip("pydrake.all")
    messages = []
    for module, illustration, proximity in (
        (pd, pd.IllustrationProperties, pd.ProximityProperties),
        (ml, ml.IllustrationProperties, ml.ProximityProperties),
    ):
        sg = module.SceneGraph()
        source = sg.RegisterSource("s")
        frame = sg.RegisterFrame(source, module.GeometryFrame("f"))
        geometries = [
            module.GeometryInstance(module.RigidTransform(), module.Box(1, 1, 1), "x")
            for _ in range(3)
        ]
        geometries[0].set_illustration_properties(illustration())
        geometries[1].set_proximity_properties(proximity())
        geometries[2].set_illustration_properties(illustration())
        sg.RegisterGeometry(source, frame, geometries[0])
        sg.RegisterGeometry(source, frame, geometries[1])
        with pytest.raises(RuntimeError) as error:
            sg.RegisterGeometry(source, frame, geometries[2])
        messages.append(str(error.value))
    assert messages[0] == messages[1]
