"""BatchedPlant's five operations on states for two mallard trees at once (a change against
its starting tree).

Each tree runs in a process of its own (``PYTHONPATH`` = the tree), which builds the models
as benchmarks/compare.py does, a BatchedPlant on one thread and ``--states`` random states,
and times, on request, one sample of every operation: the least CPU time
(``time.process_time``) of ``--calls`` calls. The two processes take their samples in turn,
the order alternating from round to round, so that the machine's load hits both alike; the
table gives for each tree the least sample (ms per call), their ratio and the median of the
rounds' ratios.

Run: ``python benchmarks/batch_trees.py START_TREE . [--models panda,g1] [--rounds 10]
[--states 1000] [--calls 5]``.
"""

import argparse
import statistics
import time

from _two_trees import compare_models, samples_in_turns, serve


def worker(tree, models, states, calls):
    """A tree's process: builds the models, then times a round of samples per input line."""
    import numpy as np

    from mallard.multibody.batch import BatchedPlant

    _, built = compare_models(tree, models)
    setups = []
    for name, _, mallard in built:
        plant, frame = mallard.plant, mallard.body.body_frame()
        batched = BatchedPlant(plant, num_threads=1)
        nq, nv = plant.num_positions(), plant.num_velocities()
        rng = np.random.default_rng(0)
        Q = rng.uniform(-1.0, 1.0, (states, nq))
        V, A = rng.uniform(-1.0, 1.0, (states, nv)), rng.uniform(-1.0, 1.0, (states, nv))
        if nq > nv:  # (a floating base: a unit quaternion first)
            Q[:, :4] /= np.linalg.norm(Q[:, :4], axis=1)[:, None]
        operations = {
            "poses": lambda b=batched, Q=Q: b.CalcAllBodyPosesInWorld(Q),
            "mass matrix": lambda b=batched, Q=Q: b.CalcMassMatrix(Q),
            "inverse dynamics": lambda b=batched, Q=Q, V=V, A=A: b.CalcInverseDynamics(Q, V, A),
            "forward dynamics": lambda b=batched, Q=Q, V=V: b.CalcForwardDynamics(Q, V),
            "Jacobian": lambda b=batched, Q=Q, f=frame: b.CalcJacobianSpatialVelocity(Q, f),
        }
        for fn in operations.values():  # (warm: compiled, measured)
            fn()
            fn()
        setups.append((name, operations))

    def take_sample():
        sample = {}
        for name, operations in setups:
            for op, fn in operations.items():
                least = float("inf")
                for _ in range(calls):
                    began = time.process_time()
                    fn()
                    least = min(least, time.process_time() - began)
                sample[f"{name} {op}"] = least * 1e3
        return sample

    serve(take_sample)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs=2, help="the two mallard trees (the first: the reference)")
    parser.add_argument("--models", default="panda,g1")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=5, help="calls a sample (the least)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.trees[0], args.models, args.states, args.calls)
    worker_args = ["--models", args.models, "--states", str(args.states)]
    worker_args += ["--calls", str(args.calls)]
    samples, _ = samples_in_turns(__file__, args.trees, worker_args, args.rounds)
    print(f"ms per call ({args.states} states, least of {args.calls} calls, {args.rounds} rounds)")
    print(f"{'operation':26s} {'first':>9s} {'second':>9s} {'ratio':>7s} {'median':>7s}")
    for key in samples[0][0]:
        first = min(s[key] for s in samples[0])
        second = min(s[key] for s in samples[1])
        median = statistics.median(b[key] / a[key] for a, b in zip(*samples, strict=True))
        print(f"{key:26s} {first:9.4f} {second:9.4f} {second / first:7.3f} {median:7.3f}")


if __name__ == "__main__":
    main()
