"""SceneGraph's proximity queries against pydrake's, on random poses (fixed seeds) of every pair
among sphere, box, capsule, cylinder, ellipsoid, half space and convex (and of a point with
each): the set of penetrating pairs, depth, normal and witness points; signed distances with
their witnesses and normals; signed distances to a point with their gradients (and the
AutoDiffXd derivatives of the distance: the gradient); collision candidates and HasCollisions
on a scene of 100 primitives; the errors.

Where Drake answers in closed form (Drake's own for a sphere with a sphere, box, capsule,
cylinder or half space; FCL's for two boxes and a half space with a shape) the answers agree
to 1e-10. Where it answers iteratively (MPR for the other penetrations, GJK/EPA for the other
signed distances, GJK for an ellipsoid's distance to a point), both run the same algorithm,
and the answer agrees to 1e-6 — or, where the algorithm is so ill-conditioned that rounding
alone moves the answer by more (iterations ending near curved surfaces: the answer moves by up
to 1e-3 when a pose moves by one ulp, in pydrake as in mallard), mallard's answer for poses a
few ulps away from the given ones agrees with pydrake's to 1e-6 (most often to 1e-12): the
same algorithm, up to rounding.
"""

import itertools

import numpy as np
import pytest

pd = pytest.importorskip("pydrake.all")

import mallard.all as ml  # noqa: E402

CONVEX_OBJ = """v 0.3 0 0
v -0.25 0.01 0
v 0.02 0.2 -0.01
v 0 -0.22 0.03
v 0.01 0 0.35
v 0 0.02 -0.3
v 0.05 0.05 0.05
f 1 3 5
f 3 2 5
f 2 4 5
f 4 1 5
f 3 1 6
f 2 3 6
f 4 2 6
f 1 4 6
"""

SHAPES = ("sphere", "box", "capsule", "cylinder", "ellipsoid", "halfspace", "convex")
#: The pairs Drake answers in closed form (others: iteratively).
CLOSED_PENETRATION = {("box", "box")} | {
    tuple(sorted(("halfspace", s))) for s in ("box", "capsule", "cylinder", "ellipsoid", "convex")
}
CLOSED_WITH_SPHERE = ("sphere", "box", "capsule", "cylinder", "halfspace")


@pytest.fixture(scope="module")
def convex_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("proximity") / "octahedron.obj"
    path.write_text(CONVEX_OBJ)
    return str(path)


def make_shape(m, name, convex_path):
    return {
        "sphere": lambda: m.Sphere(0.3),
        "box": lambda: m.Box(0.6, 0.4, 0.3),
        "capsule": lambda: m.Capsule(0.15, 0.5),
        "cylinder": lambda: m.Cylinder(0.2, 0.5),
        "ellipsoid": lambda: m.Ellipsoid(0.3, 0.2, 0.25),
        "halfspace": lambda: m.HalfSpace(),
        "convex": lambda: m.Convex(convex_path),
    }[name]()


class Scene:
    """A SceneGraph of module m with one geometry per frame; ``query(poses)`` evaluates the
    query object with the frames at ``poses`` (4×4 matrices)."""

    def __init__(self, m, shapes, scalar=float):
        self.m = m
        sg = m.SceneGraph()
        source = sg.RegisterSource("s")
        self.frames, self.ids = [], []
        for i, shape in enumerate(shapes):
            frame = sg.RegisterFrame(source, m.GeometryFrame(f"f{i}"))
            instance = m.GeometryInstance(m.RigidTransform(), shape, f"g{i}")
            instance.set_proximity_properties(m.ProximityProperties())
            self.ids.append(sg.RegisterGeometry(source, frame, instance))
            self.frames.append(frame)
        if scalar is not float:
            sg = sg.ToAutoDiffXd()
        self.sg, self.source, self.scalar = sg, source, scalar
        self.context = sg.CreateDefaultContext()

    def query(self, poses):
        m = self.m
        vector = m.FramePoseVector() if self.scalar is float else m.FramePoseVector_[m.AutoDiffXd]()
        for frame, X in zip(self.frames, poses, strict=True):
            pose = m.RigidTransform(X)
            if self.scalar is not float:
                pose = m.RigidTransform_[m.AutoDiffXd](X)
            vector.set_value(frame, pose)
        self.sg.get_source_pose_port(self.source).FixValue(self.context, vector)
        return self.sg.get_query_output_port().Eval(self.context)


def random_pose(rng, spread=0.4):
    X = np.eye(4)
    X[:3, :3] = pd.RotationMatrix(
        pd.UniformlyRandomRotationMatrix(pd.RandomGenerator(int(rng.integers(2**31))))
    ).matrix()
    X[:3, 3] = rng.uniform(-spread, spread, 3)
    return X


def _d(x):
    """The derivatives of AutoDiffXd x (3 of them; none stands for zeros)."""
    d = np.asarray(x.derivatives(), dtype=float).reshape(-1)
    return d if d.size else np.zeros(3)


def penetration_row(r):
    return np.r_[r.depth, r.nhat_BA_W, r.p_WCa, r.p_WCb]


def distance_row(r):
    return np.r_[r.distance, r.nhat_BA_W, r.p_ACa, r.p_BCb]


def point_row(r):
    return np.r_[r.distance, r.p_GN, r.grad_W]


def assert_agrees(ours, theirs, iterative, rerun, tolerance=1e-10):
    """``ours`` equals ``theirs`` to ``tolerance`` (closed forms) or, iterative, to 1e-6 —
    or else ``rerun(poses perturbed by a few ulps)`` reproduces theirs to 1e-9."""
    err = np.max(np.abs(ours - theirs))
    if not iterative:
        assert err <= tolerance, (ours, theirs)
        return
    if err <= 1e-6:
        return
    rng = np.random.default_rng(1)
    best = min(np.max(np.abs(rerun(rng) - theirs)) for _ in range(60))
    assert best <= 1e-6, (err, best, ours, theirs)


def perturbed(poses, rng):
    out = []
    for X in poses:
        Y = X.copy()
        Y[:3, :] *= 1 + rng.uniform(-3e-16, 3e-16, (3, 4))
        out.append(Y)
    return out


PAIRS = [
    (a, b)
    for a, b in itertools.combinations_with_replacement(SHAPES, 2)
    if (a, b) != ("halfspace", "halfspace")
]


def ids_of(results, scene, names):
    """The (A, B) of each result as registration indices."""
    index = {g: i for i, g in enumerate(scene.ids)}
    return [tuple(index[getattr(r, n)] for n in names) for r in results]


@pytest.mark.parametrize("a, b", PAIRS)
def test_pairs_of_shapes(a, b, convex_path):
    """Both registration orders (which geometry is A): 15 random poses each (HasCollisions
    too: on one pair, each of its ways to answer, from bounds or the narrowphase)."""
    rng = np.random.default_rng(PAIRS.index((a, b)))
    pair = tuple(sorted((a, b)))
    penetration_iterative = not ("sphere" in pair and set(pair) <= set(CLOSED_WITH_SPHERE)) and (
        pair not in CLOSED_PENETRATION
    )
    distance_closed = "sphere" in pair and set(pair) <= set(CLOSED_WITH_SPHERE)
    distance_supported = "halfspace" not in pair or pair == ("halfspace", "sphere")
    penetrating = 0
    for first, second in ((a, b), (b, a)):
        scenes = [
            Scene(m, [make_shape(m, first, convex_path), make_shape(m, second, convex_path)])
            for m in (pd, ml)
        ]
        for _ in range(15):
            poses = [random_pose(rng), random_pose(rng)]
            theirs_q, ours_q = (scene.query(poses) for scene in scenes)
            theirs = theirs_q.ComputePointPairPenetration()
            ours = ours_q.ComputePointPairPenetration()
            names = ("id_A", "id_B")
            assert ids_of(ours, scenes[1], names) == ids_of(theirs, scenes[0], names)
            assert ours_q.HasCollisions() == theirs_q.HasCollisions()
            if theirs:
                penetrating += 1

                def rerun(rng, poses=poses, scene=scenes[1]):
                    q = scene.query(perturbed(poses, rng))
                    return penetration_row(q.ComputePointPairPenetration()[0])

                assert_agrees(
                    penetration_row(ours[0]),
                    penetration_row(theirs[0]),
                    penetration_iterative,
                    rerun,
                )
            if not distance_supported:
                for q in (theirs_q, ours_q):
                    with pytest.raises(RuntimeError, match="Signed distance queries between"):
                        q.ComputeSignedDistancePairwiseClosestPoints()
                continue
            theirs_d = theirs_q.ComputeSignedDistancePairwiseClosestPoints()
            ours_d = ours_q.ComputeSignedDistancePairwiseClosestPoints()
            assert (
                ids_of(ours_d, scenes[1], names) == ids_of(theirs_d, scenes[0], names) == [(0, 1)]
            )
            if np.isnan(theirs_d[0].nhat_BA_W).any():
                assert np.isnan(ours_d[0].nhat_BA_W).all()
                continue

            def rerun_d(rng, poses=poses, scene=scenes[1]):
                q = scene.query(perturbed(poses, rng))
                return distance_row(q.ComputeSignedDistancePairwiseClosestPoints()[0])

            assert_agrees(
                distance_row(ours_d[0]), distance_row(theirs_d[0]), not distance_closed, rerun_d
            )
    assert 0 < penetrating < 30  # both outcomes are exercised


@pytest.mark.parametrize("shape", SHAPES)
def test_signed_distance_to_point(shape, convex_path):
    rng = np.random.default_rng(SHAPES.index(shape))
    scenes = [Scene(m, [make_shape(m, shape, convex_path)]) for m in (pd, ml)]
    for _ in range(40):
        poses = [random_pose(rng, 0.2)]
        p_WQ = rng.uniform(-0.5, 0.5, 3)
        theirs = scenes[0].query(poses).ComputeSignedDistanceToPoint(p_WQ)
        ours = scenes[1].query(poses).ComputeSignedDistanceToPoint(p_WQ)
        assert len(ours) == len(theirs) == 1 and ours[0].id_G == scenes[1].ids[0]

        def rerun(rng, poses=poses, p_WQ=p_WQ):
            return point_row(
                scenes[1].query(perturbed(poses, rng)).ComputeSignedDistanceToPoint(p_WQ)[0]
            )

        assert_agrees(point_row(ours[0]), point_row(theirs[0]), shape == "ellipsoid", rerun)
        assert abs(np.linalg.norm(ours[0].grad_W) - 1) < 1e-12
    # The threshold drops the farther geometries.
    q = scenes[1].query([np.eye(4)])
    assert q.ComputeSignedDistanceToPoint([5.0, 5.0, 5.0], 1.0) == [] or shape == "halfspace"


@pytest.mark.parametrize("shape", ("sphere", "box", "capsule", "halfspace"))
def test_point_distance_gradient_autodiff(shape, convex_path):
    """The derivatives of the distance with respect to p_WQ are grad_W, and every AutoDiffXd
    result (distance, p_GN, grad_W, with their derivatives) is pydrake's."""
    rng = np.random.default_rng(7)
    scenes = [Scene(m, [make_shape(m, shape, convex_path)], scalar=m.AutoDiffXd) for m in (pd, ml)]
    for _ in range(20):
        poses = [random_pose(rng, 0.2)]
        p = rng.uniform(-0.5, 0.5, 3)
        results = []
        for m, scene in zip((pd, ml), scenes, strict=True):
            p_WQ = np.array([m.AutoDiffXd(p[i], np.eye(3)[i]) for i in range(3)])
            (r,) = scene.query(poses).ComputeSignedDistanceToPoint(p_WQ)
            values = [r.distance.value()] + [x.value() for x in (*r.p_GN, *r.grad_W)]
            derivs = [_d(r.distance)] + [_d(x) for x in (*r.p_GN, *r.grad_W)]
            results.append((np.array(values), np.array(derivs)))
        (tv, td), (ov, od) = results
        np.testing.assert_allclose(ov, tv, atol=1e-10)
        np.testing.assert_allclose(od, td, atol=1e-10)
        np.testing.assert_allclose(od[0], ov[4:7], atol=1e-10)  # ∂φ/∂p_WQ = grad_W


def test_autodiff_sphere_pairs_and_errors(convex_path):
    rng = np.random.default_rng(11)
    for other in ("sphere", "box", "halfspace"):
        scenes = [
            Scene(
                m,
                [make_shape(m, "sphere", convex_path), make_shape(m, other, convex_path)],
                scalar=m.AutoDiffXd,
            )
            for m in (pd, ml)
        ]
        for _ in range(10):
            poses = [random_pose(rng, 0.2), random_pose(rng, 0.2)]
            rows = []
            for scene in scenes:
                q = scene.query(poses)
                (d,) = q.ComputeSignedDistancePairwiseClosestPoints()
                pen = q.ComputePointPairPenetration()
                rows.append(
                    [x.value() for x in [d.distance, *d.nhat_BA_W, *d.p_ACa, *d.p_BCb]]
                    + ([x.value() for x in [pen[0].depth, *pen[0].p_WCa]] if pen else [])
                )
            np.testing.assert_allclose(rows[1], rows[0], atol=1e-10)
    scenes = [
        Scene(
            m,
            [make_shape(m, "box", convex_path), make_shape(m, "box", convex_path)],
            scalar=m.AutoDiffXd,
        )
        for m in (pd, ml)
    ]
    for scene in scenes:
        q = scene.query([np.eye(4), np.eye(4)])
        with pytest.raises(
            RuntimeError,
            match="Penetration queries between shapes 'Box' and 'Box' are not supported for "
            "scalar type drake::AutoDiffXd",
        ):
            q.ComputePointPairPenetration()
        with pytest.raises(
            RuntimeError,
            match="Signed distance queries between shapes 'Box' and 'Box' are not supported "
            "for scalar type drake::AutoDiffXd",
        ):
            q.ComputeSignedDistancePairwiseClosestPoints()


def primitive_scene(m, rng):
    shapes = []
    for i in range(100):
        kind = i % 5
        if kind == 0:
            shapes.append(m.Sphere(rng.uniform(0.05, 0.2)))
        elif kind == 1:
            shapes.append(m.Box(*rng.uniform(0.05, 0.3, 3)))
        elif kind == 2:
            shapes.append(m.Capsule(rng.uniform(0.03, 0.1), rng.uniform(0.1, 0.3)))
        elif kind == 3:
            shapes.append(m.Cylinder(rng.uniform(0.03, 0.1), rng.uniform(0.1, 0.3)))
        else:
            shapes.append(m.Ellipsoid(*rng.uniform(0.05, 0.2, 3)))
    return Scene(m, shapes)


def test_scene_of_primitives():
    """100 primitives: the candidates (Drake's broadphase boxes), HasCollisions and the
    penetrating and nearby pairs are pydrake's."""
    scenes = [primitive_scene(m, np.random.default_rng(5)) for m in (pd, ml)]
    rng = np.random.default_rng(6)
    for spread in (1.0, 3.0, 30.0):
        poses = [random_pose(rng, spread) for _ in range(100)]
        theirs, ours = (scene.query(poses) for scene in scenes)
        index = (
            {g: i for i, g in enumerate(scenes[0].ids)},
            {g: i for i, g in enumerate(scenes[1].ids)},
        )

        def pairs(results, k, index=index):
            return [(index[k][r.id_A], index[k][r.id_B]) for r in results]

        candidates = [
            [(index[k][a], index[k][b]) for a, b in q.FindCollisionCandidates()]
            for k, q in enumerate((theirs, ours))
        ]
        assert candidates[1] == candidates[0]
        assert ours.HasCollisions() == theirs.HasCollisions()
        assert pairs(ours.ComputePointPairPenetration(), 1) == pairs(
            theirs.ComputePointPairPenetration(), 0
        )
        near = (
            theirs.ComputeSignedDistancePairwiseClosestPoints(0.05),
            ours.ComputeSignedDistancePairwiseClosestPoints(0.05),
        )
        assert pairs(near[1], 1) == pairs(near[0], 0)
        np.testing.assert_allclose(
            [r.distance for r in near[1]], [r.distance for r in near[0]], atol=1e-6
        )


def test_filters_and_anchored(convex_path):
    """Filtered pairs, geometries on one frame and anchored pairs are never considered;
    ComputeSignedDistancePairClosestPoints ignores the filters."""
    for m in (pd, ml):
        sg = m.SceneGraph()
        source = sg.RegisterSource("s")
        frame = sg.RegisterFrame(source, m.GeometryFrame("f"))
        other = sg.RegisterFrame(source, m.GeometryFrame("g"))
        ids = []
        for parent, name in ((frame, "a"), (frame, "b"), (other, "c")):
            instance = m.GeometryInstance(m.RigidTransform(), m.Sphere(0.5), name)
            instance.set_proximity_properties(m.ProximityProperties())
            ids.append(sg.RegisterGeometry(source, parent, instance))
        for name in ("d", "e"):
            instance = m.GeometryInstance(m.RigidTransform(), m.Sphere(0.5), name)
            instance.set_proximity_properties(m.ProximityProperties())
            ids.append(sg.RegisterAnchoredGeometry(source, instance))
        context = sg.CreateDefaultContext()
        poses = m.FramePoseVector()
        poses.set_value(frame, m.RigidTransform())
        poses.set_value(other, m.RigidTransform())
        sg.get_source_pose_port(source).FixValue(context, poses)
        q = sg.get_query_output_port().Eval(context)
        found = [(ids.index(r.id_A), ids.index(r.id_B)) for r in q.ComputePointPairPenetration()]
        assert found == [(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4)]
        sg.collision_filter_manager(context).Apply(
            m.CollisionFilterDeclaration().ExcludeBetween(
                m.GeometrySet(ids[2]), m.GeometrySet([ids[0], ids[3]])
            )
        )
        q = sg.get_query_output_port().Eval(context)
        found = [
            (ids.index(r.id_A), ids.index(r.id_B))
            for r in q.ComputeSignedDistancePairwiseClosestPoints()
        ]
        assert found == [(0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 4)]
        assert [(ids.index(a), ids.index(b)) for a, b in q.FindCollisionCandidates()] == found
        r = q.ComputeSignedDistancePairClosestPoints(ids[2], ids[0])
        assert (r.id_A, r.id_B) == (ids[0], ids[2]) and r.distance == pytest.approx(-1.0)


def test_errors(convex_path):
    for m in (pd, ml):
        with pytest.raises(
            RuntimeError, match="Attempting to perform query on invalid QueryObject"
        ):
            m.QueryObject().ComputePointPairPenetration()
        scene = Scene(m, [m.HalfSpace(), m.HalfSpace(), m.Box(1, 1, 1)])
        q = scene.query([np.eye(4)] * 3)
        with pytest.raises(
            RuntimeError,
            match="Penetration queries between shapes 'Halfspace' and 'Halfspace' are not "
            "supported for scalar type double",
        ):
            q.ComputePointPairPenetration()
        with pytest.raises(
            RuntimeError,
            match="Signed distance queries between shapes .*Halfspace.* are not supported for "
            "scalar type double",
        ):
            q.ComputeSignedDistancePairClosestPoints(scene.ids[0], scene.ids[2])
        sg = m.SceneGraph()
        source = sg.RegisterSource("s")
        visual = m.GeometryInstance(m.RigidTransform(), m.Sphere(1.0), "v")
        visual.set_illustration_properties(m.IllustrationProperties())
        v = sg.RegisterAnchoredGeometry(source, visual)
        proximity = m.GeometryInstance(m.RigidTransform(), m.Sphere(1.0), "p")
        proximity.set_proximity_properties(m.ProximityProperties())
        p = sg.RegisterAnchoredGeometry(source, proximity)
        context = sg.CreateDefaultContext()
        q = sg.get_query_output_port().Eval(context)
        with pytest.raises(
            RuntimeError,
            match="cannot be used in ComputeSignedDistancePairClosestPoints; it does not have "
            "a proximity role. It has the illustration role",
        ):
            q.ComputeSignedDistancePairClosestPoints(p, v)
        assert q.ComputeSignedDistancePairClosestPoints(p, p).distance == pytest.approx(-2.0)
        with pytest.raises(TypeError):
            q.ComputeSignedDistanceToPoint([0.0, 0.0])
