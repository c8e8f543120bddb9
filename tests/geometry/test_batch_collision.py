"""BatchedPlant.CheckCollisions: per configuration, the plant's own QueryObject answers
(collision-free within a padding, the least signed distance, the distances of the pairs within
a distance), the filters of the SceneGraph or of a Context, and the errors."""

import numpy as np
import pytest

import mallard.all as ml
from mallard.multibody.batch import BatchedPlant


def arm():
    """A three-link arm of capsules, boxes, a cylinder, an ellipsoid and spheres (revolute
    joints about y, z, y), two anchored obstacles."""
    builder = ml.DiagramBuilder()
    plant, sg = ml.AddMultibodyPlantSceneGraph(builder, 0.0)
    friction = ml.CoulombFriction(0.5, 0.5)
    parent = plant.world_body()
    shapes = (
        [ml.Capsule(0.05, 0.4)],
        [ml.Box(0.08, 0.08, 0.4), ml.Sphere(0.07)],
        [ml.Cylinder(0.04, 0.3), ml.Ellipsoid(0.06, 0.05, 0.12)],
    )
    for i, (axis, geometries) in enumerate(zip("yzy", shapes, strict=True)):
        body = plant.AddRigidBody(f"link{i}", ml.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        frame = parent.body_frame()
        if i:  # (each link's joint at the end of the one before)
            X_PJ = ml.RigidTransform([0, 0, 0.45])
            frame = plant.AddFrame(ml.FixedOffsetFrame(f"mount{i}", frame, X_PJ))
        axis = {"y": [0, 1, 0], "z": [0, 0, 1]}[axis]
        plant.AddJoint(ml.RevoluteJoint(f"joint{i}", frame, body.body_frame(), axis))
        for k, shape in enumerate(geometries):
            X_BG = ml.RigidTransform([0, 0, 0.2 + 0.15 * k])
            plant.RegisterCollisionGeometry(body, X_BG, shape, f"g{i}{k}", friction)
        parent = body
    plant.RegisterCollisionGeometry(
        plant.world_body(), ml.RigidTransform([0.5, 0.0, 0.5]), ml.Sphere(0.15), "ball", friction
    )
    plant.RegisterCollisionGeometry(
        plant.world_body(),
        ml.RigidTransform([0.0, 0.5, 0.3]),
        ml.Box(0.2, 0.2, 0.6),
        "post",
        friction,
    )
    plant.Finalize()
    diagram = builder.Build()
    return diagram, plant, sg


def plant_answers(diagram, plant, sg, Q, context=None):
    """(free, least distance, {pair: distance}) per configuration from the QueryObject."""
    context = context or diagram.CreateDefaultContext()
    plant_context = plant.GetMyContextFromRoot(context)
    sg_context = sg.GetMyContextFromRoot(context)
    out = []
    for q in Q:
        plant.SetPositions(plant_context, q)
        results = (
            sg.get_query_output_port().Eval(sg_context).ComputeSignedDistancePairwiseClosestPoints()
        )
        distances = {(r.id_A, r.id_B): r.distance for r in results}
        out.append((all(d > 0.01 for d in distances.values()), min(distances.values()), distances))
    return out


def test_answers_are_the_query_objects():
    diagram, plant, sg = arm()
    rng = np.random.default_rng(4)
    Q = rng.uniform(-np.pi, np.pi, (60, plant.num_positions()))
    batched = BatchedPlant(plant)
    result = batched.CheckCollisions(Q, padding=0.01, min_distance=True, pairs_within=0.2)
    expected = plant_answers(diagram, plant, sg, Q)
    assert 0 < result.collision_free.sum() < len(Q)  # both outcomes
    np.testing.assert_array_equal(result.collision_free, [e[0] for e in expected])
    np.testing.assert_allclose(result.min_distance, [e[1] for e in expected], rtol=0, atol=1e-12)
    for i, (_, _, distances) in enumerate(expected):
        for k, pair in enumerate(result.pairs):
            d = distances[pair]
            assert result.distances[i, k] == (d if d <= 0.2 else np.inf)
    # Collision-free only (no distances asked for): the same answer, by the quicker path.
    np.testing.assert_array_equal(
        batched.CheckCollisions(Q, padding=0.01).collision_free, result.collision_free
    )
    free_at_zero = batched.CheckCollisions(Q)
    assert free_at_zero.min_distance is None and free_at_zero.pairs is None
    np.testing.assert_array_equal(free_at_zero.collision_free, [e[1] > 0 for e in expected])


def test_filters_of_a_context():
    diagram, plant, sg = arm()
    context = diagram.CreateDefaultContext()
    sg_context = sg.GetMyContextFromRoot(context)
    ids = sg.model_inspector().GetAllGeometryIds(ml.Role.kProximity)
    sg.collision_filter_manager(sg_context).Apply(
        ml.CollisionFilterDeclaration().ExcludeWithin(ml.GeometrySet(ids))
    )
    Q = np.zeros((3, plant.num_positions()))
    batched = BatchedPlant(plant)
    assert batched.CheckCollisions(Q, scene_graph_context=sg_context).pairs is None
    result = batched.CheckCollisions(Q, pairs_within=1.0, scene_graph_context=sg_context)
    assert result.pairs == [] and result.distances.shape == (3, 0)
    assert result.collision_free.all()
    assert len(batched.CheckCollisions(Q, pairs_within=1.0).pairs) > 0  # the model's filters


def test_errors():
    diagram, plant, sg = arm()
    batched = BatchedPlant(plant)
    with pytest.raises(ValueError, match=r"q must have shape \(N, 3\)"):
        batched.CheckCollisions(np.zeros((2, 4)))
    with pytest.raises(ValueError, match="padding must be finite and ≥ 0"):
        batched.CheckCollisions(np.zeros((2, 3)), padding=-1.0)
    with pytest.raises(ValueError, match="pairs_within must be a number"):
        batched.CheckCollisions(np.zeros((2, 3)), pairs_within=np.nan)
    with pytest.raises(TypeError, match="q must hold numbers"):
        batched.CheckCollisions(np.zeros((2, 3), dtype=object) + ml.AutoDiffXd(0.0))
    assert batched.CheckCollisions(np.zeros((0, 3))).collision_free.shape == (0,)
    q = np.zeros((2, 3))
    q[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"q\[1, 2\] = nan is not finite \(.* joint 'joint2'\)"):
        batched.CheckCollisions(q)
    lone = ml.MultibodyPlant(0.0)
    lone.AddRigidBody("b", ml.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    lone.Finalize()
    with pytest.raises(RuntimeError, match="not registered as a geometry source"):
        BatchedPlant(lone).CheckCollisions(np.zeros((1, 7)))
    # A half space with a shape other than a sphere has no signed distance (as in Drake).
    builder = ml.DiagramBuilder()
    plant, sg = ml.AddMultibodyPlantSceneGraph(builder, 0.0)
    body = plant.AddRigidBody("b", ml.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    plant.RegisterCollisionGeometry(
        body, ml.RigidTransform(), ml.Box(1, 1, 1), "box", ml.CoulombFriction(0.5, 0.5)
    )
    plant.RegisterCollisionGeometry(
        plant.world_body(),
        ml.RigidTransform(),
        ml.HalfSpace(),
        "ground",
        ml.CoulombFriction(0.5, 0.5),
    )
    plant.Finalize()
    batched = BatchedPlant(plant)
    q = np.zeros((1, 7))
    q[0, 0], q[0, 6] = 1.0, 0.2
    assert not batched.CheckCollisions(q).collision_free[0]  # (the intersection test)
    with pytest.raises(RuntimeError, match="'Box'.*'Halfspace'.*is not supported"):
        batched.CheckCollisions(q, min_distance=True)
