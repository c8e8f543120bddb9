"""BatchedPlant.Rollout for two mallard trees at once (a change against its starting tree):
CPU time per state-step and the rollouts' bits.

Each tree runs in a process of its own (``PYTHONPATH`` = the tree; benchmarks/_two_trees.py),
which builds the models and, on request, times one sample of each: the least CPU time
(``time.process_time``) of ``--calls`` rollouts on one thread, every step's state written.
The models: benchmarks/rollouts.py's acrobot (random elbow torques), Panda and Panda with
limits (its joint limits through SAP, no contact), ``--states`` states of ``--steps`` steps;
and benchmarks/contact.py's sphere on a half space (kSap) and 20 boxes (kLagged), point
contact through SAP state by state, from its initial state with small random velocities
(``--contact-states`` states of ``--contact-steps`` steps). The two processes take their
samples in turn, the order alternating from round to round; the table gives, for each tree,
the least and median sample (ns per state-step), the ratio of the medians and the median of
the rounds' ratios, and whether the rollouts' SHA-256 are equal in every sample.

``--stack-offsets 64``: each sample is instead the mean, over the 64 offsets in its page
(steps of 64 bytes) of the C stack the rollout runs on, of the least CPU time (``time.thread_time``)
of ``--calls`` rollouts at that offset, on a thread of the worker (its stack starts at the same
offset in every process; shifted by a ctypes callback taking a struct by value, which
libffi copies onto the stack). A process's rollout speed depends on the page offset of the
main thread's stack (randomized per process: the Panda's 140-175 ns per state-step from one
offset to another; docs/performance_history.md, helper T8), so one sample per process
compares two processes' draws; the mean over the offsets is what a process runs at on
average.

Run: ``python benchmarks/rollout_trees.py START_TREE . [--models acrobot,Panda]
[--rounds 8] [--stack-offsets 64]``.
"""

import argparse
import ctypes
import hashlib
import os
import statistics
import sys
import threading
import time

from _two_trees import samples_in_turns, serve

MODELS = ("acrobot", "Panda", "Panda with limits", "sphere kSap", "20 boxes kLagged")


def _contact_plant(tree, name):
    """(plant, x0) of benchmarks/contact.py's scene ``name`` ("sphere kSap", "20 boxes
    kLagged") in ``tree``'s mallard, 1 ms steps."""
    sys.path.insert(0, os.path.join(tree, "benchmarks"))
    import contact

    import mallard.all as m

    scene, approximation = name.rsplit(" ", 1)
    build = {"sphere": contact.build_sphere, "20 boxes": contact.build_boxes}[scene]
    builder = m.DiagramBuilder()
    plant, _ = m.AddMultibodyPlantSceneGraph(builder, 1e-3)
    plant.set_contact_model(m.ContactModel.kPoint)
    plant.set_discrete_contact_approximation(getattr(m.DiscreteContactApproximation,
                                                     approximation))  # fmt: skip
    x0 = build(m, plant)
    builder.Build()
    return plant, x0


_SHIFTERS = {}


def _on_shifted_stack(j, fn):
    """fn() with the C stack 64·j bytes lower than at j = 0: called back through ctypes with
    a struct of 32·(j + 1) bytes by value (libffi on x86-64 copies it onto the stack twice)."""
    found = _SHIFTERS.get(j)
    if found is None:
        fields = [("pad", ctypes.c_char * (32 * (j + 1)))]
        struct = type(f"Pad{j}", (ctypes.Structure,), {"_fields_": fields})
        found = _SHIFTERS[j] = (struct, ctypes.CFUNCTYPE(None, struct))
    struct, callback = found
    callback(lambda _: fn())(struct())


def worker(tree, models, args):
    """A tree's process: builds the models, then times a round of samples per input line."""
    import numpy as np

    sys.path.insert(0, os.path.join(tree, "benchmarks"))
    import rollouts

    from mallard.multibody.batch import BatchedPlant

    robots = rollouts.default_robots_dir()
    plants = rollouts.mallard_plants(robots)
    rng = np.random.default_rng(0)
    setups = []
    for name in models.split(","):
        if name in plants:
            plant = plants[name][0]
            n, steps = args.states, args.steps
            q0, v0 = rollouts.initial_states(name, plant, n, rng)
            U = rng.normal(size=(n, steps, 1)) if name == "acrobot" else None
        else:
            plant, x0 = _contact_plant(tree, name)
            n, steps = args.contact_states, args.contact_steps
            nq = plant.num_positions()
            q0 = np.tile(x0[:nq], (n, 1))
            v0 = x0[nq:] + 0.1 * rng.normal(size=(n, plant.num_velocities()))
            U = None
        batched = BatchedPlant(plant, num_threads=1)
        out = np.empty((n, steps, q0.shape[1] + v0.shape[1]))
        batched.Rollout(q0, v0, U, num_steps=steps, out=out)  # (compiled, warm)
        setups.append((name, batched, q0, v0, U, steps, out, n * steps))

    clock = time.thread_time if args.stack_offsets else time.process_time

    def least(setup):
        """The least CPU time of ``--calls`` rollouts of ``setup``, in ns per state-step."""
        _, batched, q0, v0, U, steps, out, state_steps = setup
        best = float("inf")
        for _ in range(args.calls):
            start = clock()
            batched.Rollout(q0, v0, U, num_steps=steps, out=out)
            best = min(best, clock() - start)
        return best * 1e9 / state_steps

    def over_stack_offsets():
        """{name: the mean over the stack's offsets of least(setup)}, run on a thread."""
        times = {setup[0]: [] for setup in setups}

        def sweep():
            for j in range(args.stack_offsets):
                for setup in setups:
                    _on_shifted_stack(j, lambda setup=setup: times[setup[0]].append(least(setup)))

        thread = threading.Thread(target=sweep)
        thread.start()
        thread.join()
        return {name: statistics.mean(t) for name, t in times.items()}

    def take_sample():
        means = over_stack_offsets() if args.stack_offsets else None
        sample = {}
        for setup in setups:
            name, out = setup[0], setup[6]
            ns = means[name] if means else least(setup)
            sample[name] = (ns, hashlib.sha256(out.tobytes()).hexdigest())
        return sample

    serve(take_sample)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs=2, help="the starting tree, then the changed one")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--calls", type=int, default=3, help="rollouts per sample (least)")
    parser.add_argument("--states", type=int, default=256)
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--contact-states", type=int, default=8)
    parser.add_argument("--contact-steps", type=int, default=200)
    parser.add_argument("--stack-offsets", type=int, default=0,
                        help="each sample the mean over this many of the C stack's offsets, "
                        "64 bytes apart (64: a page)")  # fmt: skip
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.trees[0], args.models, args)
        return
    worker_args = [f"--{k.replace('_', '-')}={v}" for k, v in vars(args).items()
                   if k not in ("trees", "worker", "rounds")]  # fmt: skip
    samples, loads = samples_in_turns(__file__, args.trees, worker_args, args.rounds)
    print(f"{args.rounds} rounds, load {min(loads):.1f}-{max(loads):.1f}")
    print("| model | start (least / median ns per state-step) | this | ratio of the medians "
          "| median of the rounds' ratios | bits |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for name in args.models.split(","):
        a = [s[name][0] for s in samples[0]]
        b = [s[name][0] for s in samples[1]]
        same = all(x[name][1] == y[name][1] for x, y in zip(*samples, strict=True))
        ratio = statistics.median(b) / statistics.median(a)
        rounds = statistics.median(y / x for x, y in zip(a, b, strict=True))
        print(f"| {name} | {min(a):.1f} / {statistics.median(a):.1f} | {min(b):.1f} / "
              f"{statistics.median(b):.1f} | {ratio:.3f} | {rounds:.3f} | "
              f"{'equal' if same else 'DIFFERENT'} |")  # fmt: skip


if __name__ == "__main__":
    main()
