"""SceneGraph's proximity queries without pydrake: what the caches keep (poses, filters, the
model after a registration), the broadphase against testing every pair, a Mesh's pairs (its
convex hull) and its distance to a point (its own surface), the result types, closed forms."""

import copy

import numpy as np
import pytest

import mallard.all as ml


def scene(shapes, anchored=()):
    """(SceneGraph, Context, frames, ids, source) with one frame per shape (at the identity)
    and the ``anchored`` shapes fixed in World."""
    sg = ml.SceneGraph()
    source = sg.RegisterSource("s")
    frames, ids = [], []
    for i, shape in enumerate(shapes):
        frame = sg.RegisterFrame(source, ml.GeometryFrame(f"f{i}"))
        instance = ml.GeometryInstance(ml.RigidTransform(), shape, f"g{i}")
        instance.set_proximity_properties(ml.ProximityProperties())
        ids.append(sg.RegisterGeometry(source, frame, instance))
        frames.append(frame)
    for i, shape in enumerate(anchored):
        instance = ml.GeometryInstance(ml.RigidTransform(), shape, f"a{i}")
        instance.set_proximity_properties(ml.ProximityProperties())
        ids.append(sg.RegisterAnchoredGeometry(source, instance))
    context = sg.CreateDefaultContext()
    return sg, context, frames, ids, source


def place(sg, context, source, frames, positions):
    poses = ml.FramePoseVector()
    for frame, p in zip(frames, positions, strict=True):
        poses.set_value(frame, ml.RigidTransform(p))
    sg.get_source_pose_port(source).FixValue(context, poses)
    return sg.get_query_output_port().Eval(context)


def test_results_follow_poses_filters_and_registrations():
    sg, context, frames, ids, source = scene([ml.Sphere(1.0), ml.Sphere(1.0)])
    q = place(sg, context, source, frames, [[0, 0, 0], [1.5, 0, 0]])
    (r,) = q.ComputePointPairPenetration()
    assert r.depth == pytest.approx(0.5)
    np.testing.assert_allclose(r.nhat_BA_W, [-1, 0, 0])  # out of B into A
    np.testing.assert_allclose(r.p_WCa, [1, 0, 0])
    np.testing.assert_allclose(r.p_WCb, [0.5, 0, 0])
    q = place(sg, context, source, frames, [[0, 0, 0], [3.0, 0, 0]])
    assert q.ComputePointPairPenetration() == []
    assert q.ComputeSignedDistancePairwiseClosestPoints()[0].distance == pytest.approx(1.0)
    assert q.ComputeSignedDistancePairwiseClosestPoints(0.5) == []
    # New filters in the Context: the pair is no longer considered.
    sg.collision_filter_manager(context).Apply(
        ml.CollisionFilterDeclaration().ExcludeWithin(ml.GeometrySet(ids))
    )
    assert q.ComputeSignedDistancePairwiseClosestPoints() == []
    assert not q.HasCollisions() and q.FindCollisionCandidates() == []
    assert q.ComputeSignedDistancePairClosestPoints(ids[0], ids[1]).distance == pytest.approx(1.0)
    # A geometry registered later is in the next query (a new Context takes the new model).
    instance = ml.GeometryInstance(ml.RigidTransform([3, 0, 0]), ml.Box(1, 1, 1), "box")
    instance.set_proximity_properties(ml.ProximityProperties())
    box = sg.RegisterAnchoredGeometry(source, instance)
    context = sg.CreateDefaultContext()
    q = place(sg, context, source, frames, [[0, 0, 0], [3.0, 0, 0]])
    (r,) = q.ComputePointPairPenetration()
    assert (r.id_A, r.id_B) == (ids[1], box) and r.depth == pytest.approx(1.5)
    assert q.HasCollisions()


def test_poses_of_frames_with_a_parent_frame():
    """A geometry on a frame registered under another frame (and a frame under that one) is
    posed at X_WP·X_PF: closed forms of unit spheres (the penetration depth 2 − |x|), with a
    sphere anchored in World."""
    sg = ml.SceneGraph()
    source = sg.RegisterSource("s")
    parent = sg.RegisterFrame(source, ml.GeometryFrame("parent"))
    child = sg.RegisterFrame(source, parent, ml.GeometryFrame("child"))
    grandchild = sg.RegisterFrame(source, child, ml.GeometryFrame("grandchild"))
    ids = []
    for frame, name in ((child, "c"), (grandchild, "g")):
        instance = ml.GeometryInstance(ml.RigidTransform(), ml.Sphere(1.0), name)
        instance.set_proximity_properties(ml.ProximityProperties())
        ids.append(sg.RegisterGeometry(source, frame, instance))
    instance = ml.GeometryInstance(ml.RigidTransform([0, 0, -1.2]), ml.Sphere(1.0), "a")
    instance.set_proximity_properties(ml.ProximityProperties())
    ids.append(sg.RegisterAnchoredGeometry(source, instance))
    context = sg.CreateDefaultContext()
    half_turn = ml.RotationMatrix.MakeZRotation(np.pi / 2)
    poses = ml.FramePoseVector()
    poses.set_value(parent, ml.RigidTransform(half_turn, [0, 0, 0.25]))
    poses.set_value(child, ml.RigidTransform([1.0, 0, 0]))  # (in parent: +y in World)
    poses.set_value(grandchild, ml.RigidTransform([0, 0.5, 0]))  # (in child: −x in World)
    sg.get_source_pose_port(source).FixValue(context, poses)
    q = sg.get_query_output_port().Eval(context)
    np.testing.assert_allclose(q.GetPoseInWorld(ids[0]).translation(), [0, 1, 0.25], atol=1e-15)
    np.testing.assert_allclose(q.GetPoseInWorld(ids[1]).translation(), [-0.5, 1, 0.25], atol=1e-15)
    depths = {(r.id_A, r.id_B): r.depth for r in q.ComputePointPairPenetration()}
    p_c, p_g, p_a = np.array([0, 1, 0.25]), np.array([-0.5, 1, 0.25]), np.array([0, 0, -1.2])
    expected = {
        (ids[0], ids[1]): 2 - np.linalg.norm(p_c - p_g),
        (ids[1], ids[2]): 2 - np.linalg.norm(p_g - p_a),
        (ids[0], ids[2]): 2 - np.linalg.norm(p_c - p_a),
    }
    assert depths.keys() == expected.keys()  # (every pair overlaps)
    for pair, depth in depths.items():
        assert depth == pytest.approx(expected[pair], abs=1e-14)


def test_one_query_object_follows_its_context():
    """A QueryObject kept across changes answers for its Context as it is at each query: the
    plant's positions and parameters, a fixed FramePoseVector changed in place or replaced,
    the Context's filters (closed forms: two unit spheres' distance |x| − 2)."""
    builder = ml.DiagramBuilder()
    plant, sg = ml.AddMultibodyPlantSceneGraph(builder, 0.0)
    body = plant.AddRigidBody("b", ml.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    plant.AddJoint(ml.PrismaticJoint("x", plant.world_frame(), body.body_frame(), [1, 0, 0]))
    friction = ml.CoulombFriction(0.5, 0.5)
    a = plant.RegisterCollisionGeometry(body, ml.RigidTransform(), ml.Sphere(1.0), "a", friction)
    b = plant.RegisterCollisionGeometry(
        plant.world_body(), ml.RigidTransform(), ml.Sphere(1.0), "b", friction
    )
    plant.Finalize()
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyContextFromRoot(context)
    sg_context = sg.GetMyContextFromRoot(context)
    q = sg.get_query_output_port().Eval(sg_context)
    for x in (3.0, 1.5, 1.5, 2.5):
        plant.SetPositions(plant_context, [x])
        assert q.ComputeSignedDistancePairwiseClosestPoints()[0].distance == pytest.approx(x - 2)
        assert len(q.ComputePointPairPenetration()) == (x < 2) and q.HasCollisions() == (x < 2)
    sg.collision_filter_manager(sg_context).Apply(
        ml.CollisionFilterDeclaration().ExcludeBetween(ml.GeometrySet(a), ml.GeometrySet(b))
    )
    assert q.ComputeSignedDistancePairwiseClosestPoints() == []
    # A SceneGraph's own Context with a fixed FramePoseVector.
    sg2, context2, frames, ids, source = scene([ml.Sphere(1.0), ml.Sphere(1.0)])
    q = place(sg2, context2, source, frames, [[0, 0, 0], [3.0, 0, 0]])
    assert q.ComputeSignedDistancePairwiseClosestPoints()[0].distance == pytest.approx(1.0)
    fixed = sg2.get_source_pose_port(source).FixValue(context2, ml.FramePoseVector())
    poses = fixed.GetMutableData().get_mutable_value()
    for frame, x in zip(frames, (0.0, 2.5), strict=True):
        poses.set_value(frame, ml.RigidTransform([x, 0, 0]))
    assert q.ComputeSignedDistancePairwiseClosestPoints()[0].distance == pytest.approx(0.5)
    poses.set_value(frames[1], ml.RigidTransform([1.0, 0, 0]))  # (in place, no new stamp)
    assert q.ComputePointPairPenetration()[0].depth == pytest.approx(1.0)


def test_results_follow_fixed_pose_values_replaced_between_queries():
    """A FramePoseVector fixed in place of another (twice between two queries: the first one
    freed meanwhile, with as many changes as the last) gives the last one's poses."""
    sg, context, frames, ids, source = scene([ml.Sphere(1.0), ml.Sphere(1.0)])
    for k in range(50):
        x = 3.0 + (k % 7) * 0.25
        for x_k in (10.0, 20.0, x):
            place(sg, context, source, frames, [[0, 0, 0], [x_k, 0, 0]])
            if x_k == 20.0:
                continue
            q = sg.get_query_output_port().Eval(context)
            (r,) = q.ComputeSignedDistancePairwiseClosestPoints()
            assert r.distance == pytest.approx(x_k - 2, abs=1e-12)


def test_the_port_query_objects_share_what_their_context_keeps():
    """The query port makes a new QueryObject whenever the positions change: they share what
    the queries keep in the SceneGraph Context (the probes of its pose port, made once) and
    answer for the Context's positions; a clone of the Context keeps none of it. The frames'
    poses read from the plant's rows (World's frame its World body's row) are the plant's
    FramePoseVector's, to the bit."""
    builder = ml.DiagramBuilder()
    plant, sg = ml.AddMultibodyPlantSceneGraph(builder, 0.0)
    body = plant.AddRigidBody("b", ml.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    plant.AddJoint(ml.RevoluteJoint("z", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    friction = ml.CoulombFriction(0.5, 0.5)
    X_BG = ml.RigidTransform(ml.RollPitchYaw(0.1, 0.2, 0.3), [2.0, 0, 0])
    plant.RegisterCollisionGeometry(body, X_BG, ml.Sphere(0.5), "a", friction)
    plant.RegisterCollisionGeometry(
        plant.world_body(), ml.RigidTransform([0, 2.0, 0]), ml.Sphere(0.5), "b", friction
    )
    plant.Finalize()
    context = builder.Build().CreateDefaultContext()
    plant_context = plant.GetMyContextFromRoot(context)
    sg_context = sg.GetMyContextFromRoot(context)
    port = sg.get_query_output_port()
    port.Eval(sg_context).HasCollisions()
    kept = sg_context._system_cache
    probes = kept.probes
    for angle in (0.3, np.pi / 2, 2.0):
        plant.SetPositions(plant_context, [angle])
        q = port.Eval(sg_context)
        distance = np.hypot(2 * np.cos(angle), 2 * np.sin(angle) - 2) - 1
        assert q.ComputeSignedDistancePairwiseClosestPoints()[0].distance == pytest.approx(distance)
        assert q.HasCollisions() == (distance <= 0)
        assert sg_context._system_cache is kept and kept.probes is probes
        assert kept.whole is not None
        X_WF = q._frame_poses(kept.model, kept)
        vector = plant.get_geometry_pose_output_port().Eval(plant_context)
        for i, frame in enumerate(kept.model.frames):
            X = vector.value(frame) if frame != sg._world_frame_id else ml.RigidTransform()
            np.testing.assert_array_equal(X_WF[i, :3], X.rotation().matrix())
            np.testing.assert_array_equal(X_WF[i, 3], X.translation())
    clone = context.Clone()
    assert sg.GetMyContextFromRoot(clone)._system_cache is None
    q = port.Eval(sg.GetMyContextFromRoot(clone))
    assert q.ComputeSignedDistancePairwiseClosestPoints()[0].distance == pytest.approx(distance)


def test_a_copy_is_baked():
    """A copy of a QueryObject answers from the poses of the moment it was made
    (as Drake's); ids may be passed by keyword."""
    sg, context, frames, ids, source = scene([ml.Sphere(1.0), ml.Sphere(1.0)])
    q = place(sg, context, source, frames, [[0, 0, 0], [1.5, 0, 0]])
    baked = copy.copy(q)
    q = place(sg, context, source, frames, [[0, 0, 0], [3.0, 0, 0]])
    assert q.ComputePointPairPenetration() == []
    (r,) = baked.ComputePointPairPenetration()
    assert r.depth == pytest.approx(0.5) and baked.HasCollisions()
    assert copy.deepcopy(baked).ComputeSignedDistancePairwiseClosestPoints()[0].distance == (
        pytest.approx(-0.5)
    )
    np.testing.assert_allclose(baked.GetPoseInWorld(geometry_id=ids[1]).translation(), [1.5, 0, 0])
    np.testing.assert_allclose(q.GetPoseInWorld(frame_id=frames[1]).translation(), [3, 0, 0])
    with pytest.raises(RuntimeError, match="Attempting to perform query on invalid QueryObject"):
        ml.QueryObject().GetPoseInWorld(frame_id=frames[0])


def test_sweep_and_prune_finds_every_overlapping_allowed_pair():
    rng = np.random.default_rng(3)
    n = 300
    lo = rng.uniform(-10, 10, (n, 3))
    boxes = np.hstack([lo, lo + rng.uniform(0.1, 2.0, (n, 3))])
    boxes[7, :3], boxes[7, 3:] = -np.inf, np.inf  # an unbounded box overlaps every other
    allowed = np.triu(rng.uniform(size=(n, n)) < 0.8, 1).astype(np.uint8)
    expected = [
        (a, b)
        for a in range(n)
        for b in range(a + 1, n)
        if allowed[a, b]
        and np.all(boxes[a, :3] <= boxes[b, 3:])
        and np.all(boxes[b, :3] <= boxes[a, 3:])
    ]
    from mallard.geometry._kernels.broadphase import sweep_and_prune  # noqa: PLC0415

    order = rng.permutation(n).astype(np.int64)
    pairs = np.zeros((n * n // 2, 2), dtype=np.int64)
    count = sweep_and_prune(boxes, n, allowed, order, pairs)
    assert [tuple(p) for p in pairs[:count]] == expected
    assert sorted(order) == list(range(n))
    # Sorted along the sweep's axis (from a random order: by the heap sort), and from that
    # order again (the insertion sort, moving nothing) the same pairs.
    assert any(np.all(np.diff(boxes[order, k]) >= 0) for k in range(3))
    count = sweep_and_prune(boxes, n, allowed, order, pairs)
    assert [tuple(p) for p in pairs[:count]] == expected


def test_sweep_and_prune_with_a_reach_finds_the_boxes_at_most_that_far_apart():
    rng = np.random.default_rng(4)
    n, reach = 200, 0.7
    lo = rng.uniform(-10, 10, (n, 3))
    boxes = np.hstack([lo, lo + rng.uniform(0.1, 2.0, (n, 3))])
    allowed = np.triu(np.ones((n, n)), 1).astype(np.uint8)

    def distance(a, b):  # between boxes a and b
        gap = np.maximum(0.0, np.maximum(boxes[a, :3] - boxes[b, 3:], boxes[b, :3] - boxes[a, 3:]))
        return np.linalg.norm(gap)

    expected = [(a, b) for a in range(n) for b in range(a + 1, n) if distance(a, b) <= reach]
    from mallard.geometry._kernels.broadphase import sweep_and_prune  # noqa: PLC0415

    pairs = np.zeros((n * n // 2, 2), dtype=np.int64)
    count = sweep_and_prune(boxes, n, allowed, np.arange(n, dtype=np.int64), pairs, reach)
    assert [tuple(p) for p in pairs[:count]] == expected
    assert any(distance(a, b) > 0 for a, b in expected)  # (not only overlapping boxes)


OBJ = """v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0.5 0.5 0.4
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
f 1 4 3 2
f 6 7 8 9
f 1 2 7 6
f 2 3 8 7
f 3 4 9 8
f 4 1 6 9
"""


def test_mesh_is_its_hull_for_pairs_and_its_surface_for_points(tmp_path):
    """A closed Mesh (a cube) collides as its convex hull, as a Convex of the same file; its
    signed distance to a point is from its own surface, and the feature normals give the sign
    inside and out."""
    path = tmp_path / "cube.obj"
    path.write_text(OBJ)
    results = []
    for shape in (ml.Mesh(str(path)), ml.Convex(str(path))):
        sg, context, frames, ids, source = scene([shape, ml.Box(0.5, 0.5, 0.5)])
        q = place(sg, context, source, frames, [[0, 0, 0], [1.1, 0.5, 0.5]])
        (r,) = q.ComputePointPairPenetration()
        results.append((r.depth, *r.nhat_BA_W))
        (d,) = q.ComputeSignedDistanceToPoint([0.5, 0.5, 0.2], threshold=1.0)[:1]
        assert d.distance == pytest.approx(-0.2)
        np.testing.assert_allclose(d.grad_W, [0, 0, -1], atol=1e-12)
        (d,) = q.ComputeSignedDistanceToPoint([2.0, 0.5, 0.5], threshold=0.7)
        assert d.id_G == ids[1] and d.distance == pytest.approx(0.65)
    np.testing.assert_allclose(results[0], results[1])
    np.testing.assert_allclose(results[0], [0.15, -1, 0, 0], atol=1e-9)


def test_a_threshold_skips_only_the_geometries_farther_away(tmp_path):
    """ComputeSignedDistanceToPoint(p, threshold) does not compute the geometries whose boxes
    are farther than the threshold: its records are those of every geometry at most that far,
    to the bit, inside geometries (negative thresholds) and beside a half space too."""
    path = tmp_path / "cube.obj"
    path.write_text(OBJ)
    shapes = [ml.Sphere(0.2), ml.Box(0.3, 0.2, 0.4), ml.Capsule(0.1, 0.3), ml.Cylinder(0.1, 0.3),
              ml.Ellipsoid(0.1, 0.2, 0.3), ml.Convex(str(path), 0.3)] * 3  # fmt: skip
    sg, context, frames, ids, source = scene(shapes, anchored=[ml.HalfSpace()])
    rng = np.random.default_rng(7)
    poses = ml.FramePoseVector()
    for frame in frames:
        q = rng.normal(size=4)
        R = ml.RotationMatrix(ml.Quaternion(q / np.linalg.norm(q)))
        poses.set_value(frame, ml.RigidTransform(R, rng.uniform(-1, 1, 3) + [0, 0, 1]))
    sg.get_source_pose_port(source).FixValue(context, poses)
    q = sg.get_query_output_port().Eval(context)
    near = 0
    for p_WQ in [*rng.uniform(-1.2, 1.2, (20, 3)) + [0, 0, 1], *(r.p_WCa for r in
                 q.ComputePointPairPenetration())]:  # fmt: skip
        every = q.ComputeSignedDistanceToPoint(p_WQ)
        assert len(every) == len(ids)
        for threshold in (-0.05, 0.0, 0.1, 0.4):
            within = q.ComputeSignedDistanceToPoint(p_WQ, threshold)
            expected = [r for r in every if r.distance <= threshold]
            assert [r.id_G for r in within] == [r.id_G for r in expected]
            for a, b in zip(within, expected, strict=True):
                assert a.distance == b.distance
                assert a.p_GN.tolist() == b.p_GN.tolist() and a.grad_W.tolist() == b.grad_W.tolist()
            near += 0 < len(within) < len(every)
    assert near > 20  # (some geometries within, some not)


def test_records_read_as_pydrakes():
    """A record's scalar is a Python float, its vectors read-only arrays (as pydrake's); setting
    an attribute changes that record only."""
    sg, context, frames, ids, source = scene([ml.Sphere(1.0)] * 3)
    q = place(sg, context, source, frames, [[0, 0, 0], [1.5, 0, 0], [3.0, 0, 0]])
    for records in (q.ComputeSignedDistancePairwiseClosestPoints(),
                    q.ComputePointPairPenetration(),
                    q.ComputeSignedDistanceToPoint([0.2, 0, 0])):  # fmt: skip
        r, other = records[0], records[-1]
        scalar = type(r)._SCALAR
        assert type(getattr(r, scalar)) is float
        for name in type(r)._VECTORS:
            vector = getattr(r, name)
            assert vector.shape == (3,) and vector.dtype == float
            with pytest.raises(ValueError, match="read-only"):
                vector[0] = 1.0
        kept = getattr(other, scalar), [getattr(other, n).tolist() for n in type(r)._VECTORS]
        id_name = type(r)._IDS[0]
        setattr(r, scalar, 7.0)
        setattr(r, type(r)._VECTORS[0], [1, 2, 3])
        setattr(r, id_name, ids[2])
        assert getattr(r, scalar) == 7.0 and getattr(r, type(r)._VECTORS[0]).tolist() == [1, 2, 3]
        assert getattr(r, id_name) == ids[2]
        assert kept == (getattr(other, scalar), [getattr(other, n).tolist() for n in
                                                 type(r)._VECTORS])  # fmt: skip


def test_penetrations_stay_as_they_were_after_the_next_queries():
    """A query's penetrations are not changed by the queries after it, whether their rows were
    copied out of the model's scratch (a few found among many candidates) or the scratch went
    with them (most found)."""
    sg, context, frames, ids, source = scene([ml.Sphere(1.0)] * 5)
    most = [[1.5 * i, 0, 0] for i in range(5)]  # 4 candidates, 4 penetrating
    few = [[1.6 * i, 1.6 * i, 0] for i in range(4)] + [[0, -1.5, 0]]  # 5 candidates, 1
    model = sg._proximity_model()

    def values(records):
        return [(r.id_A, r.id_B, r.depth, *(getattr(r, n).tolist() for n in r._VECTORS))
                for r in records]  # fmt: skip

    for first, then in ((most, few), (few, most), (most, most), (few, few)):
        records = place(sg, context, source, frames, first).ComputePointPairPenetration()
        kept = values(records)
        assert len(kept) == (4 if first is most else 1)
        for positions in (then, first, then):
            for p in positions:
                p[2] += 0.01  # (other depths, normals and points: other rows)
            place(sg, context, source, frames, positions).ComputePointPairPenetration()
        assert values(records) == kept
        assert sg._proximity_model() is model


def test_closed_forms():
    """A point and a box, capsule, cylinder: distances, nearest points and gradients in
    closed form."""
    sg, context, frames, ids, source = scene([ml.Box(2, 4, 6), ml.Capsule(1, 2), ml.Cylinder(1, 2)])
    q = place(sg, context, source, frames, [[0, 0, 0], [10, 0, 0], [20, 0, 0]])
    box, capsule, cylinder = q.ComputeSignedDistanceToPoint([1.5, 0.5, 0.5])[:1] + [
        q.ComputeSignedDistanceToPoint(p)[k] for p, k in (([10, 0, 3], 1), ([20, 2, 2], 2))
    ]
    assert box.distance == pytest.approx(0.5)
    np.testing.assert_allclose(box.p_GN, [1, 0.5, 0.5])
    assert capsule.distance == pytest.approx(1.0)  # above the top cap's center
    np.testing.assert_allclose(capsule.grad_W, [0, 0, 1])
    assert cylinder.distance == pytest.approx(np.hypot(1, 1))  # off the rim
    np.testing.assert_allclose(cylinder.p_GN, [0, 1, 1])


def test_result_types():
    for kind in (ml.PenetrationAsPointPair, ml.SignedDistancePair, ml.SignedDistanceToPoint):
        record = kind()
        assert isinstance(record, kind_template(kind)[float])
        for name in kind._VECTORS:
            np.testing.assert_array_equal(getattr(record, name), np.zeros(3))
    r = ml.SignedDistancePair(distance=1.5, p_ACa=[1, 2, 3])
    assert r.distance == 1.5 and r.p_ACa.tolist() == [1, 2, 3] and r.id_A is None
    with pytest.raises(TypeError, match="unexpected arguments"):
        ml.SignedDistanceToPoint(depth=1)
    with pytest.raises(TypeError, match="3-vector"):
        ml.PenetrationAsPointPair(p_WCa=[1, 2])
    ad = ml.SignedDistanceToPoint_[ml.AutoDiffXd](distance=1.0)
    assert isinstance(ad, ml.SignedDistanceToPoint_[ml.AutoDiffXd])


def kind_template(kind):
    return getattr(ml, kind.__name__ + "_")


def test_many_records_leave_the_garbage_collector_as_they_found_it():
    """records() pauses the collector while it makes many records, and restores its state."""
    import gc

    from mallard.geometry._query_results import SignedDistancePair, records

    rows = np.arange(500 * 10, dtype=float).reshape(500, 10)
    ids = [ml.GeometryId.get_new_id() for _ in range(2)]
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            made = records(SignedDistancePair, rows, ids, np.array([[0, 1]] * 500))
            assert gc.isenabled() is enabled
            assert len(made) == 500 and made[499].distance == rows[499, 0]
            assert made[3].id_A == ids[0] and made[3].id_B == ids[1]
            np.testing.assert_array_equal(made[7].p_BCb, rows[7, 7:10])
    finally:
        (gc.enable if was else gc.disable)()
