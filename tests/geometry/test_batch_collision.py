"""BatchedPlant.CheckCollisions: per configuration, the plant's own QueryObject answers
(collision-free within a padding, the least signed distance, the distances of the pairs within
a distance), the filters of the SceneGraph or of a Context, and the errors."""

import re

import numba
import numpy as np
import pytest

import mallard.all as ml
from mallard.multibody import _batch_run
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
    # A configuration that cannot be checked: its status says why; the others are checked.
    q = np.zeros((2, 3))
    q[1, 2] = np.nan
    result, status = batched.CheckCollisions(q, min_distance=True, return_status=True)
    assert status.ok.tolist() == [True, False]
    assert re.search(r"q\[1, 2\] = nan is not finite \(.* joint 'joint2'\)", status.message(1))
    assert not result.collision_free[1] and np.isnan(result.min_distance[1])
    assert result.min_distance[0] == batched.CheckCollisions(q[:1], min_distance=True).min_distance
    with pytest.warns(RuntimeWarning, match=r"1 of 2 states failed .* q\[1, 2\] = nan"):
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
    result, status = batched.CheckCollisions(q, pairs_within=1.0, return_status=True)
    assert not status.ok[0] and np.isnan(result.distances[0]).all()
    with pytest.raises(RuntimeError, match="state 0: .*'Box'.*'Halfspace'.*is not supported"):
        status.raise_if_failed()


def test_results_do_not_depend_on_the_threads(monkeypatch):
    """One thread or two (helpers asked for every call), batches that end a group part way:
    the same answers, bit for bit."""
    monkeypatch.setattr(_batch_run, "MIN_THREAD_SECONDS", 0.0)
    diagram, plant, sg = arm()
    alone = BatchedPlant(plant, num_threads=1)
    helped = BatchedPlant(plant, num_threads=min(2, numba.config.NUMBA_NUM_THREADS))
    rng = np.random.default_rng(6)
    for count in (1, 9, 203):
        Q = rng.uniform(-np.pi, np.pi, (count, plant.num_positions()))
        for kind in ({}, {"padding": 0.02}, {"min_distance": True, "pairs_within": 0.1}):
            reference = alone.CheckCollisions(Q, **kind)
            for _ in range(3):  # (the first call times its groups alone)
                result = helped.CheckCollisions(Q, **kind)
                for a, b in zip(reference, result, strict=True):
                    if isinstance(a, np.ndarray):
                        np.testing.assert_array_equal(a, b)
                    else:
                        assert a == b
