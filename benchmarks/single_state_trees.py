"""SingleStatePlant beside Pinocchio, for two mallard trees at once (a change against main).

Each tree runs in a process of its own (``PYTHONPATH`` = the tree), which builds the models
and states as benchmarks/compare.py does (its classes: ``MallardSingleState``, ``Pinocchio``,
the same 16 random states, each call into an output allocated once) and times, on request,
one sample of every operation of both libraries (CPU time, ``--calls`` passes over the 16
states). The two processes take their samples in turn, the order alternating from round to
round, so that the machine's load hits both alike; the table gives for each tree the least
sample of SingleStatePlant and Pinocchio (µs per call) and their ratio (the median of the
rounds' ratios in brackets), and the ratio of the two trees' SingleStatePlant.

Run: ``python benchmarks/single_state_trees.py /work/main . [--models panda,g1]
[--rounds 30] [--calls 20]``. Needs the ``bench`` extra (Pinocchio).
"""

import argparse
import os
import statistics
import time

from _two_trees import compare_models, samples_in_turns, serve

OPS = (
    "forward kinematics",
    "mass matrix",
    "inverse dynamics",
    "forward dynamics",
    "frame Jacobian",
)


def worker(tree, models, calls):
    """A tree's process: builds the models, then times a round of samples per input line."""
    import numpy as np

    compare, built = compare_models(tree, models)
    setups = []
    for name, mdef, mallard in built:
        libs = {
            "single": compare.MallardSingleState(mallard),
            "pinocchio": compare.Pinocchio(mdef, mallard),
        }
        rng = np.random.default_rng(0)
        drake_states = [compare.random_drake_state(mallard, rng) for _ in range(16)]
        states = {
            key: [lib.prepare(*compare.native_state(lib, *s)) for s in drake_states]
            for key, lib in libs.items()
        }
        for key, lib in libs.items():  # (warm: compiled, bound)
            for op in OPS:
                lib.timers()[op](states[key])
        setups.append((name, libs, states))

    def take_sample():
        sample = {}
        for name, libs, states in setups:
            for op in OPS:
                for key, lib in libs.items():
                    fn, st = lib.timers()[op], states[key]
                    began = time.process_time()
                    for _ in range(calls):
                        fn(st)
                    seconds = time.process_time() - began
                    sample[f"{name}|{op}|{key}"] = seconds / (calls * len(st)) * 1e6
        return sample

    serve(take_sample)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs=2, help="the two mallard trees (the first: the reference)")
    parser.add_argument("--models", default="panda,g1")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--calls", type=int, default=20, help="passes over the states a sample")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.trees[0], args.models, args.calls)
    trees = [os.path.abspath(t) for t in args.trees]
    worker_args = ["--models", args.models, "--calls", str(args.calls)]
    samples, loads = samples_in_turns(__file__, trees, worker_args, args.rounds)
    print(
        f"{trees[0]} (A) and {trees[1]} (B), {args.rounds} rounds, load average "
        f"{min(loads):.1f}-{max(loads):.1f}; CPU µs per call, least of the rounds (median ratio)"
    )
    print("| model | operation | A: single / Pinocchio | B: single / Pinocchio | B / A |")
    print("|---|---|---|---|---|")
    for key in samples[0][0]:
        model, op, lib = key.split("|")
        if lib != "single":
            continue
        cells = []
        for s in samples:
            mine = [sample[key] for sample in s]
            theirs = [sample[f"{model}|{op}|pinocchio"] for sample in s]
            ratio = statistics.median(a / b for a, b in zip(mine, theirs, strict=True))
            cells.append(
                f"{min(mine):.2f} / {min(theirs):.2f} = {min(mine) / min(theirs):.2f} ({ratio:.2f})"
            )
        change = min(s[key] for s in samples[1]) / min(s[key] for s in samples[0])
        print(f"| {model} | {op} | {cells[0]} | {cells[1]} | {change:.2f} |")


if __name__ == "__main__":
    main()
