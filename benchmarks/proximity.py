"""SceneGraph's proximity queries and batched collision checking, mallard beside pydrake.

What it measures
----------------
* **100 primitives**: spheres, boxes, capsules, cylinders and ellipsoids (20 each, random
  sizes 5–30 cm) on frames at random poses in a 2 m cube (a few dozen touching pairs):
  ``ComputePointPairPenetration``, ``ComputeSignedDistancePairwiseClosestPoints`` (every pair,
  and within 0.1 m), ``HasCollisions``.
* **Panda**: example-robot-data's ``panda_collision.urdf`` (39 spheres and cylinders on its
  links), base welded to World, in a room of four anchored obstacles (a table top, a sphere, a
  box and a cylinder); the pairs of links that touch at the zero configuration are filtered
  (as a planner's allowed-collision matrix does), the rest as Drake filters by default
  (adjacent links). The same queries at random configurations (the poses of each configuration
  set once, then each query timed on it), and at a new configuration per query (200 random
  configurations in turn: SetPositions, the query port's QueryObject, the query; the poses,
  the broadphase and the narrowphase computed each time, as a planner's or a simulation's
  loop does).
* **Batched collision checking**: 10⁴ random Panda configurations (uniform within the joint
  limits), collision-free or not: ``BatchedPlant.CheckCollisions`` on one thread beside
  pydrake's ``SceneGraphCollisionChecker.CheckConfigsCollisionFree`` with ``Parallelism(1)``
  (its padding 0, the same filters), and with the minimum distance
  (``CheckCollisions(min_distance=True)``). The answers are checked equal first.

Every query's answer is checked against pydrake's before timing (the same pairs; distances to
1e-6). Run: ``python benchmarks/proximity.py [--quick]``.
"""

import argparse
import os
import time

import numpy as np
import pydrake.all as pd

import mallard.all as ml
from mallard.multibody.batch import BatchedPlant


def _example_robot_data():
    """example-robot-data's directory (its Python package, or $EXAMPLE_ROBOT_DATA)."""
    if os.environ.get("EXAMPLE_ROBOT_DATA"):
        return os.environ["EXAMPLE_ROBOT_DATA"]
    import glob
    import sys

    pattern = os.path.join(sys.prefix, "lib", "python*", "site-packages", "cmeel.prefix", "share")
    found = glob.glob(os.path.join(pattern, "example-robot-data"))
    return found[0] if found else None


ERD = _example_robot_data()
PANDA = "robots/panda_description/urdf/panda_collision.urdf"


def timed(fn, seconds):
    """µs per call of fn (repeated for about ``seconds`` of the process's CPU time: the
    machine is shared, so its wall time counts others' work)."""
    fn()
    count, start = 0, time.process_time()
    while True:
        fn()
        count += 1
        elapsed = time.process_time() - start
        if elapsed > seconds:
            return elapsed / count * 1e6


# ---- 100 primitives ------------------------------------------------------------------------------
def primitives(m, seed=5, spread=1.0):
    """(SceneGraph, its Context) of 100 primitives at random poses."""
    rng = np.random.default_rng(seed)
    sg = m.SceneGraph()
    source = sg.RegisterSource("s")
    frames = []
    for i in range(100):
        kind = i % 5
        shape = (
            m.Sphere(rng.uniform(0.05, 0.2)),
            m.Box(*rng.uniform(0.05, 0.3, 3)),
            m.Capsule(rng.uniform(0.03, 0.1), rng.uniform(0.1, 0.3)),
            m.Cylinder(rng.uniform(0.03, 0.1), rng.uniform(0.1, 0.3)),
            m.Ellipsoid(*rng.uniform(0.05, 0.2, 3)),
        )[kind]
        frame = sg.RegisterFrame(source, m.GeometryFrame(f"f{i}"))
        instance = m.GeometryInstance(m.RigidTransform(), shape, f"g{i}")
        instance.set_proximity_properties(m.ProximityProperties())
        sg.RegisterGeometry(source, frame, instance)
        frames.append(frame)
    context = sg.CreateDefaultContext()
    poses = m.FramePoseVector()
    rotations = np.random.default_rng(seed + 1)
    for frame in frames:
        q = rotations.normal(size=4)
        R = m.RotationMatrix(m.Quaternion(q / np.linalg.norm(q)))
        poses.set_value(frame, m.RigidTransform(R, rotations.uniform(-spread, spread, 3)))
    sg.get_source_pose_port(source).FixValue(context, poses)
    return sg, context


def query_rows(scenes, seconds, label):
    """Times the queries in each library (``scenes``: pydrake's and mallard's (SceneGraph,
    Context)); checks they agree first."""
    queries = {}
    for name, (m_sg, m_context) in zip(("pydrake", "mallard"), scenes, strict=True):
        queries[name] = m_sg.get_query_output_port().Eval(m_context)
    pairs = {}
    for name, q in queries.items():
        pen = q.ComputePointPairPenetration()
        near = q.ComputeSignedDistancePairwiseClosestPoints(0.1)
        pairs[name] = (len(pen), [round(r.distance, 6) for r in near], q.HasCollisions())
    assert pairs["pydrake"][0] == pairs["mallard"][0], pairs
    assert np.allclose(pairs["pydrake"][1], pairs["mallard"][1], atol=2e-6), label
    assert pairs["pydrake"][2] == pairs["mallard"][2]
    rows = []
    for title, call in (
        ("ComputePointPairPenetration", lambda q: q.ComputePointPairPenetration()),
        (
            "ComputeSignedDistancePairwiseClosestPoints()",
            lambda q: q.ComputeSignedDistancePairwiseClosestPoints(),
        ),
        (
            "ComputeSignedDistancePairwiseClosestPoints(0.1)",
            lambda q: q.ComputeSignedDistancePairwiseClosestPoints(0.1),
        ),
        ("HasCollisions", lambda q: q.HasCollisions()),
    ):
        t_pd = timed(lambda call=call: call(queries["pydrake"]), seconds)
        t_ml = timed(lambda call=call: call(queries["mallard"]), seconds)
        rows.append((label, title, t_ml, t_pd))
    return rows, pairs["pydrake"][0]


# ---- Panda -------------------------------------------------------------------------------------
OBSTACLES = (
    ("table", "Box", (1.2, 1.2, 0.04), (0.4, 0.0, -0.3)),
    ("ball", "Sphere", (0.1,), (0.5, 0.2, 0.5)),
    ("crate", "Box", (0.2, 0.3, 0.25), (-0.1, 0.55, 0.35)),
    ("post", "Cylinder", (0.05, 0.8), (0.0, -0.5, 0.4)),
)


def panda_plant(m, builder):
    """Adds the Panda and the obstacles to ``builder`` (a DiagramBuilder); returns (plant,
    scene graph)."""
    plant, sg = m.AddMultibodyPlantSceneGraph(builder, 0.0)
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
    plant.Finalize()
    return plant, sg


def touching_at_zero(m, plant, sg, context):
    """The pairs of bodies whose geometries touch at the zero configuration (by name)."""
    plant.SetPositions(plant.GetMyContextFromRoot(context), np.zeros(plant.num_positions()))
    q = sg.get_query_output_port().Eval(sg.GetMyContextFromRoot(context))
    inspector = sg.model_inspector()
    pairs = set()
    for r in q.ComputeSignedDistancePairwiseClosestPoints(0.0):
        a = plant.GetBodyFromFrameId(inspector.GetFrameId(r.id_A)).name()
        b = plant.GetBodyFromFrameId(inspector.GetFrameId(r.id_B)).name()
        if a != "world" and b != "world":
            pairs.add(tuple(sorted((a, b))))
    return sorted(pairs)


def filter_pairs(m, plant, sg, pairs):
    """Excludes the pairs of bodies (by name) from the SceneGraph's filters."""
    manager = sg.collision_filter_manager()
    for a, b in pairs:
        set_a = m.GeometrySet(plant.GetCollisionGeometriesForBody(plant.GetBodyByName(a)))
        set_b = m.GeometrySet(plant.GetCollisionGeometriesForBody(plant.GetBodyByName(b)))
        manager.Apply(m.CollisionFilterDeclaration().ExcludeBetween(set_a, set_b))


def panda(m):
    builder = m.DiagramBuilder()
    plant, sg = panda_plant(m, builder)
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    return diagram, plant, sg, context


def moving_rows(robots, Q, seconds):
    """µs per (SetPositions at the next configuration of Q, the query port's Eval, the query)
    for each library (``robots``: pydrake's and mallard's (diagram, plant, scene graph,
    Context))."""
    rows = []
    for title, call in (
        ("ComputePointPairPenetration", lambda q: q.ComputePointPairPenetration()),
        (
            "ComputeSignedDistancePairwiseClosestPoints(0.1)",
            lambda q: q.ComputeSignedDistancePairwiseClosestPoints(0.1),
        ),
        ("HasCollisions", lambda q: q.HasCollisions()),
    ):
        times = []
        for _, plant, sg, context in robots:
            plant_context = plant.GetMyContextFromRoot(context)
            sg_context = sg.GetMyContextFromRoot(context)
            port = sg.get_query_output_port()

            def run(
                plant=plant,
                plant_context=plant_context,
                port=port,
                sg_context=sg_context,
                call=call,
            ):
                for q in Q:
                    plant.SetPositions(plant_context, q)
                    call(port.Eval(sg_context))

            times.append(timed(run, seconds) / len(Q))
        rows.append(("Panda, a new configuration per query", title, times[1], times[0]))
    return rows


def panda_checker(pairs):
    builder = pd.RobotDiagramBuilder(time_step=0.0)
    plant = builder.plant()
    parser = builder.parser()
    parser.package_map().Add("example-robot-data", ERD)
    parser.AddModels(os.path.join(ERD, PANDA))
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    for name, kind, size, p in OBSTACLES:
        plant.RegisterCollisionGeometry(
            plant.world_body(),
            pd.RigidTransform(p),
            getattr(pd, kind)(*size),
            name,
            pd.CoulombFriction(0.5, 0.5),
        )
    robot = builder.Build()
    checker = pd.SceneGraphCollisionChecker(
        model=robot,
        robot_model_instances=[plant.GetModelInstanceByName("panda")],
        edge_step_size=0.05,
        env_collision_padding=0.0,
        self_collision_padding=0.0,
    )
    for a, b in pairs:
        checker.SetCollisionFilteredBetween(plant.GetBodyByName(a), plant.GetBodyByName(b), True)
    return checker, plant


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter timings, 2000 configurations")
    args = parser.parse_args()
    seconds = 0.3 if args.quick else 1.5
    rows, touching = query_rows([primitives(pd), primitives(ml)], seconds, "100 primitives")
    table = [(f"100 primitives ({touching} touching)", title, a, b) for _, title, a, b in rows]
    # The Panda at random configurations.
    robots = [panda(pd), panda(ml)]
    pairs = touching_at_zero(pd, *robots[0][1:3], robots[0][3])
    assert pairs == touching_at_zero(ml, *robots[1][1:3], robots[1][3])
    for (_, plant, sg, _), m in zip(robots, (pd, ml), strict=True):
        filter_pairs(m, plant, sg, pairs)
    robots = [(d, p, s, d.CreateDefaultContext()) for d, p, s, _ in robots]  # (new filters)
    rng = np.random.default_rng(2)
    plant = robots[0][1]
    lo, hi = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    totals = {}
    for _ in range(4):
        q = rng.uniform(lo, hi)
        for _, plant_, _, context in robots:
            plant_.SetPositions(plant_.GetMyContextFromRoot(context), q)
        scenes = [(r[2], r[2].GetMyContextFromRoot(r[3])) for r in robots]
        for _, title, t_ml, t_pd in query_rows(scenes, seconds / 2, "Panda")[0]:
            a, b = totals.get(title, (0.0, 0.0))
            totals[title] = (a + t_ml / 4, b + t_pd / 4)
    label = "Panda (43 geometries, 4 configurations)"
    table += [(label, title, a, b) for title, (a, b) in totals.items()]
    table += moving_rows(robots, rng.uniform(lo, hi, (200, plant.num_positions())), seconds)
    print("| scene | query | mallard µs | pydrake µs | ratio |")
    print("|---|---|---|---|---|")
    for label, title, t_ml, t_pd in table:
        print(f"| {label} | {title} | {t_ml:.1f} | {t_pd:.1f} | {t_ml / t_pd:.2f} |")
    # Batched collision checking.
    n = 2000 if args.quick else 10000
    checker, _ = panda_checker(pairs)
    Q = rng.uniform(lo, hi, (n, plant.num_positions()))
    batched = BatchedPlant(robots[1][1], num_threads=1)
    start = time.process_time()
    theirs = np.array(checker.CheckConfigsCollisionFree(Q, pd.Parallelism(1)))
    t_pd = (time.process_time() - start) / n * 1e6
    times = {}
    for kind in ({}, {"min_distance": True}):
        batched.CheckCollisions(Q[:10], **kind)  # (compiled and loaded)
        start = time.process_time()
        ours = batched.CheckCollisions(Q, **kind)
        times[bool(kind)] = (time.process_time() - start) / n * 1e6
        assert np.array_equal(ours.collision_free, theirs)
    print()
    print(
        f"Batched collision checking, {n} Panda configurations ({theirs.mean():.0%} "
        "collision-free), one thread, µs per configuration:"
    )
    print(f"| pydrake CheckConfigsCollisionFree | {t_pd:.1f} | |")
    print(
        f"| BatchedPlant.CheckCollisions | {times[False]:.2f} | {t_pd / times[False]:.0f}× faster |"
    )
    print(
        f"| BatchedPlant.CheckCollisions(min_distance=True) | {times[True]:.2f} | "
        f"{t_pd / times[True]:.0f}× faster |"
    )


if __name__ == "__main__":
    main()
