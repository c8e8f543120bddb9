"""SceneGraph's proximity queries and BatchedPlant's collision checks for two mallard trees at
once (a change of the narrowphase against its starting tree), and whether their answers are
the same bits.

Each tree runs in a process of its own (``PYTHONPATH`` = the tree), which builds
benchmarks/proximity.py's scenes (100 primitives; the Panda among obstacles, the pairs that
touch at the zero configuration filtered) and times, on request, one sample of every query:
the least CPU time (``time.process_time``) of ``--calls`` calls, with the SHA-256 of the last
call's answer. The two processes take their samples in turn, the order alternating from round
to round, so that the machine's load hits both alike; the table gives for each tree the least
sample (ms per call), their ratio and the median of the rounds' ratios, and whether every
sample's answer hashed the same in both trees.

Run: ``python benchmarks/proximity_trees.py START_TREE . [--rounds 5] [--calls 5]``.
"""

import argparse
import hashlib
import os
import statistics
import sys
import time

from _two_trees import samples_in_turns, serve


def _digest(*arrays):
    """The SHA-256 of the arrays' bytes (float64, or their own dtype)."""
    import numpy as np

    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def _pairs_digest(results):
    import numpy as np

    return _digest(
        np.array([[r.id_A.get_value(), r.id_B.get_value()] for r in results], dtype=np.int64),
        np.array([[r.distance, *r.p_ACa, *r.p_BCb, *r.nhat_BA_W] for r in results]),
    )


def worker(tree, configurations, calls):
    """A tree's process: builds the scenes, then times a round of samples per input line."""
    sys.path.insert(0, os.path.join(tree, "benchmarks"))
    import numpy as np
    import proximity

    import mallard.all as ml
    from mallard.multibody.batch import BatchedPlant

    sg, context = proximity.primitives(ml)
    query = sg.get_query_output_port().Eval(context)
    apart_sg, apart_context = proximity.primitives(ml, spread=3.0)
    apart = apart_sg.get_query_output_port().Eval(apart_context)
    packed_sg, packed_context = proximity.primitives(ml, spread=0.3)
    packed = packed_sg.get_query_output_port().Eval(packed_context)
    points = np.random.default_rng(3).uniform(-1.0, 1.0, (20, 3))
    diagram, plant, panda_sg, panda_context = proximity.panda(ml)
    touching = proximity.touching_at_zero(ml, plant, panda_sg, panda_context)
    proximity.filter_pairs(ml, plant, panda_sg, touching)
    panda_context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyContextFromRoot(panda_context)
    panda_sg_context = panda_sg.GetMyContextFromRoot(panda_context)
    port = panda_sg.get_query_output_port()
    rng = np.random.default_rng(2)
    lo, hi = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    moving = rng.uniform(lo, hi, (200, plant.num_positions()))
    Q = rng.uniform(lo, hi, (configurations, plant.num_positions()))
    batched = BatchedPlant(plant, num_threads=1)

    def each_configuration(call):
        def run():
            answers = []
            for q in moving:
                plant.SetPositions(plant_context, q)
                answers.append(call(port.Eval(panda_sg_context)))
            return answers

        return run

    def check(**kind):
        return lambda: batched.CheckCollisions(Q, **kind)

    def checked_digest(r):
        arrays = [r.collision_free.astype(np.uint8)]
        arrays += [a for a in (r.min_distance, r.distances) if a is not None]
        return _digest(*arrays)

    queries = {
        "100 primitives, SignedDistancePairwise()": (
            lambda: query.ComputeSignedDistancePairwiseClosestPoints(),
            _pairs_digest,
        ),
        "100 primitives, SignedDistancePairwise(0.1)": (
            lambda: query.ComputeSignedDistancePairwiseClosestPoints(0.1),
            _pairs_digest,
        ),
        "100 primitives in 0.3 m (most overlap: EPA), SignedDistancePairwise()": (
            lambda: packed.ComputeSignedDistancePairwiseClosestPoints(),
            _pairs_digest,
        ),
        "100 primitives, SignedDistanceToPoint ×20": (
            lambda: [query.ComputeSignedDistanceToPoint(p) for p in points],
            lambda rs: _digest(np.array([[r.distance, *r.p_GN, *r.grad_W] for s in rs for r in s])),
        ),
        "100 primitives, PointPairPenetration (MPR, not by address)": (
            lambda: query.ComputePointPairPenetration(),
            lambda rs: _digest(np.array([[r.depth, *r.p_WCa, *r.p_WCb] for r in rs])),
        ),
        "100 primitives, HasCollisions": (lambda: query.HasCollisions(), str),
        "100 primitives 3 m apart, HasCollisions": (lambda: apart.HasCollisions(), str),
        "Panda, new configuration: SignedDistancePairwise(0.1)": (
            each_configuration(lambda q: q.ComputeSignedDistancePairwiseClosestPoints(0.1)),
            lambda rs: _digest(*[bytes.fromhex(_pairs_digest(r)) for r in rs]),
        ),
        "Panda, new configuration: HasCollisions": (
            each_configuration(lambda q: q.HasCollisions()),
            str,
        ),
        f"CheckCollisions, {configurations} Panda configurations": (check(), checked_digest),
        "the same, min_distance=True": (check(min_distance=True), checked_digest),
        "the same, padding=0.01": (check(padding=0.01), checked_digest),
    }
    for fn, _ in queries.values():  # (warm: compiled, measured)
        fn()

    def take_sample():
        sample = {}
        for name, (fn, digest) in queries.items():
            least = float("inf")
            for _ in range(calls):
                began = time.process_time()
                answer = fn()
                least = min(least, time.process_time() - began)
            sample[name] = (least * 1e3, digest(answer))
        return sample

    serve(take_sample)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs=2, help="the two mallard trees (the first: the reference)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=5, help="calls a sample (the least)")
    parser.add_argument("--configurations", type=int, default=2000)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.trees[0], args.configurations, args.calls)
    worker_args = ["--configurations", str(args.configurations), "--calls", str(args.calls)]
    samples, loads = samples_in_turns(__file__, args.trees, worker_args, args.rounds)
    print(
        f"ms per call (least of {args.calls} calls, {args.rounds} rounds, load "
        f"{min(loads):.1f}–{max(loads):.1f})"
    )
    print("| query | first | second | ratio | median ratio | same bits |")
    print("|---|---|---|---|---|---|")
    for key in samples[0][0]:
        first = min(s[key][0] for s in samples[0])
        second = min(s[key][0] for s in samples[1])
        median = statistics.median(b[key][0] / a[key][0] for a, b in zip(*samples, strict=True))
        same = all(a[key][1] == b[key][1] for a, b in zip(*samples, strict=True))
        print(f"| {key} | {first:.3f} | {second:.3f} | {second / first:.3f} | {median:.3f} | "
              f"{'yes' if same else 'NO'} |")  # fmt: skip


if __name__ == "__main__":
    main()
