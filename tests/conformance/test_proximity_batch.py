"""Batched collision checking against pydrake: BatchedPlant.CheckCollisions on random Panda
configurations (example-robot-data's panda_collision.urdf: spheres and cylinders, with four
anchored obstacles) gives the collision-free flags of pydrake's SceneGraphCollisionChecker
(CheckConfigsCollisionFree, padding 0, the same filters), and the least signed distance of
pydrake's ComputeSignedDistancePairwiseClosestPoints."""

import os

import numpy as np
import pytest

pd = pytest.importorskip("pydrake.all")

import mallard.all as ml  # noqa: E402
from mallard.multibody.batch import BatchedPlant  # noqa: E402
from tests.conformance.test_parsing_urdf import ERD  # noqa: E402

PANDA = "robots/panda_description/urdf/panda_collision.urdf"
OBSTACLES = (
    ("table", "Box", (1.2, 1.2, 0.04), (0.4, 0.0, -0.3)),
    ("ball", "Sphere", (0.1,), (0.5, 0.2, 0.5)),
    ("crate", "Box", (0.2, 0.3, 0.25), (-0.1, 0.55, 0.35)),
    ("post", "Cylinder", (0.05, 0.8), (0.0, -0.5, 0.4)),
)
#: The pairs of links that touch at the zero configuration (filtered, as a planner would).
TOUCHING = (
    ("panda_hand", "panda_link5"),
    ("panda_leftfinger", "panda_link5"),
    ("panda_link1", "panda_link3"),
    ("panda_link3", "panda_link5"),
    ("panda_link5", "panda_link7"),
    ("panda_link5", "panda_rightfinger"),
)
pytestmark = pytest.mark.skipif(ERD is None, reason="needs example-robot-data")


def add_panda(m, plant):
    parser = m.Parser(plant)
    parser.package_map().Add("example-robot-data", ERD)
    parser.AddModels(os.path.join(ERD, PANDA))
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    for name, kind, size, p in OBSTACLES:
        plant.RegisterCollisionGeometry(
            plant.world_body(),
            m.RigidTransform(p),
            getattr(m, kind)(*size),
            name,
            m.CoulombFriction(0.5, 0.5),
        )


def test_panda_configurations():
    builder = ml.DiagramBuilder()
    plant, sg = ml.AddMultibodyPlantSceneGraph(builder, 0.0)
    add_panda(ml, plant)
    plant.Finalize()
    manager = sg.collision_filter_manager()
    for a, b in TOUCHING:
        manager.Apply(
            ml.CollisionFilterDeclaration().ExcludeBetween(
                ml.GeometrySet(plant.GetCollisionGeometriesForBody(plant.GetBodyByName(a))),
                ml.GeometrySet(plant.GetCollisionGeometriesForBody(plant.GetBodyByName(b))),
            )
        )
    robot_builder = pd.RobotDiagramBuilder(time_step=0.0)
    add_panda(pd, robot_builder.plant())
    robot = robot_builder.Build()
    their_plant = robot.plant()
    checker = pd.SceneGraphCollisionChecker(
        model=robot,
        robot_model_instances=[their_plant.GetModelInstanceByName("panda")],
        edge_step_size=0.05,
        env_collision_padding=0.0,
        self_collision_padding=0.0,
    )
    for a, b in TOUCHING:
        checker.SetCollisionFilteredBetween(
            their_plant.GetBodyByName(a), their_plant.GetBodyByName(b), True
        )
    rng = np.random.default_rng(8)
    lo, hi = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    Q = rng.uniform(lo, hi, (300, plant.num_positions()))
    theirs = np.array(checker.CheckConfigsCollisionFree(Q, pd.Parallelism(1)))
    ours = BatchedPlant(plant).CheckCollisions(Q, min_distance=True)
    assert 0.2 < theirs.mean() < 0.9  # both outcomes
    np.testing.assert_array_equal(ours.collision_free, theirs)
    # The least signed distance: pydrake's, from its plant's queries.
    context = robot.CreateDefaultContext()
    plant_context = their_plant.GetMyContextFromRoot(context)
    sg_context = robot.scene_graph().GetMyContextFromRoot(context)
    inspector = robot.scene_graph().model_inspector()
    filtered = {tuple(sorted(p)) for p in TOUCHING}
    for i in range(0, 300, 10):
        their_plant.SetPositions(plant_context, Q[i])
        query = robot.scene_graph().get_query_output_port().Eval(sg_context)
        distances = []
        for r in query.ComputeSignedDistancePairwiseClosestPoints():
            bodies = tuple(
                sorted(
                    their_plant.GetBodyFromFrameId(inspector.GetFrameId(g)).name()
                    for g in (r.id_A, r.id_B)
                )
            )
            if bodies not in filtered:
                distances.append(r.distance)
        assert ours.min_distance[i] == pytest.approx(min(distances), abs=1e-6)
