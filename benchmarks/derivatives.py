"""Derivatives of inverse and forward dynamics on the Panda or the G1: mallard beside Pinocchio
and pydrake.

What it measures
----------------
∂τ/∂q, ∂τ/∂v (and ∂τ/∂v̇ = M) of inverse dynamics with gravity, τ = M(q)·v̇ + C(q, v)·v − τ_g(q),
for the Panda (example-robot-data ``panda_description/urdf/panda.urdf``, base welded to the
world, nv = 9; the URDF cleaned as benchmarks/compare.py cleans it: no mimic, no damping, no
geometry), per call from Python, at states cycled from 16 random ones:

* mallard: SetPositionsAndVelocities + ``CalcInverseDynamicsDerivatives`` (analytical: for the
  Panda two compiled O(n) recursions, kernels/recursive_derivatives.py; a mallard method);
* Pinocchio: ``computeRNEADerivatives`` (Carpentier & Mansard's analytical recursions, C++);
* pydrake: its AutoDiffXd plant (``ToAutoDiffXd``) seeded with [q; v] — SetPositionsAndVelocities,
  CalcForceElementsContribution, CalcInverseDynamics, ExtractGradient;
* mallard single-state: ``SingleStatePlant.CalcInverseDynamicsDerivatives`` (no Context, the
  outputs written into arrays allocated once);
* mallard batched: ``BatchedPlant.CalcInverseDynamicsDerivatives`` on ``--batch-size`` states
  (``num_threads=--threads``), reported per state.

Then ∂v̇/∂q, ∂v̇/∂v of forward dynamics (zero applied forces) the same ways:
``CalcForwardDynamicsDerivatives`` of the plant (after SetPositionsAndVelocities), of
SingleStatePlant and of BatchedPlant, beside Pinocchio's ``computeABADerivatives``.

With ``--model g1``, the G1 humanoid (``g1_description/urdf/g1_29dof_rev_1_0.urdf`` cleaned
the same way; a quaternion floating base, nq = 36, nv = 35; mallard's recursions cover it too)
in place of the Panda, Pinocchio's model with a ``JointModelFreeFlyer`` root. Pinocchio's
derivatives of a floating base are not Drake's (its velocities in the base frame, linear
first, its ∂/∂q along the tangent space; Drake's and mallard's along the quaternion's 4
numbers, v fixed in the parent frame): for the G1 the results are checked against pydrake's
only, and Pinocchio is timed at the same states (its configuration made of mallard's q, the
velocities and accelerations of its dofs mallard's, its base's random).

First, at three states, every result is checked: mallard (the plant's and SingleStatePlant's)
against pydrake's gradients (1e-10 relative) and against Pinocchio's (1e-8, coordinates
matched by joint name); the forward dynamics derivatives of SingleStatePlant against the
plant's (bit for bit) and Pinocchio's (1e-8). Then each round
takes one sample of every library in turn (the order rotating), a sample running one
library's calls back to back for about ``--sample-ms`` and recording the mean time per call;
the table reports the median over ``--rounds`` rounds (µs per call) and pydrake's time over
each. The garbage collector is off while timing. The machine may be shared: the numbers are
noisy.

With ``--trees A B ...`` each tree's mallard (a checkout's root, put first on PYTHONPATH) runs
in a worker process of its own, every worker with its own Pinocchio, and the rounds take one
sample of every (tree, library) in turn: main's tree beside a branch's in one run, each with
its ratio to the Pinocchio of its own process.

``--timer cpu`` samples the process's CPU time instead of wall time (a loaded machine).

Usage: ``python benchmarks/derivatives.py [--model panda|g1] [--rounds 15] [--sample-ms 50]
[--batch-size 1000] [--threads 1] [--trees /work/main .] [--timer cpu]``.
"""

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from compare import clean_urdf, default_robots_dir  # noqa: E402

try:
    import pinocchio as pin
except ImportError as error:  # pragma: no cover - depends on the environment
    sys.exit(f"derivatives.py needs pinocchio: pip install '.[bench]' ({error})")

N_STATES = 16
#: The clock of the samples: wall time, or with ``--timer cpu`` the process's CPU time (on a
#: loaded machine, the time the process ran, without the other programs').
CLOCK = time.perf_counter


#: The models: (URDF in example-robot-data, the link welded to World or None: a floating base).
MODELS = {
    "panda": ("panda_description/urdf/panda.urdf", "panda_link0"),
    "g1": ("g1_description/urdf/g1_29dof_rev_1_0.urdf", None),
}
MODEL = "panda"  # (--model)


def robot_urdf():
    """The model's URDF as compare.py prepares it (no mimic, damping, geometry)."""
    robots = default_robots_dir()
    if robots is None:
        sys.exit("derivatives.py needs example-robot-data: pip install example-robot-data")
    return clean_urdf((robots / MODELS[MODEL][0]).read_text())


def drake_plant(package, urdf):
    """The model as a continuous MultibodyPlant of ``package`` (mallard or pydrake)."""
    plant_module = __import__(f"{package}.multibody.plant", fromlist=["MultibodyPlant"])
    parsing = __import__(f"{package}.multibody.parsing", fromlist=["Parser"])
    plant = plant_module.MultibodyPlant(time_step=0.0)
    parsing.Parser(plant).AddModelsFromString(urdf, "urdf")
    if MODELS[MODEL][1] is not None:
        plant.WeldFrames(plant.world_frame(), plant.GetFrameByName(MODELS[MODEL][1]))
    plant.Finalize()
    return plant


class Mallard:
    name = "mallard"

    def __init__(self, urdf):
        from mallard.multibody.tree import MultibodyForces

        self.plant = drake_plant("mallard", urdf)
        self.context = self.plant.CreateDefaultContext()
        self.forces = MultibodyForces(self.plant)

    def derivatives(self, q, v, a):
        self.plant.SetPositionsAndVelocities(self.context, np.concatenate((q, v)))
        dq, dv, _ = self.plant.CalcInverseDynamicsDerivatives(self.context, a)
        return dq, dv

    def forward_derivatives(self, q, v):
        self.plant.SetPositionsAndVelocities(self.context, np.concatenate((q, v)))
        dq, dv = self.plant.CalcForwardDynamicsDerivatives(self.context)[:2]
        return dq, dv

    def forward_timer(self, states):
        plant, context, x = self.plant, self.context, [np.concatenate(s[:2]) for s in states]
        count = len(states)

        def run(calls):
            for i in range(calls):
                plant.SetPositionsAndVelocities(context, x[i % count])
                plant.CalcForwardDynamicsDerivatives(context)
            return calls

        return run

    def timer(self, states):
        plant, context, x = self.plant, self.context, [np.concatenate(s[:2]) for s in states]
        a = [s[2] for s in states]
        count = len(states)

        def run(calls):
            for i in range(calls):
                plant.SetPositionsAndVelocities(context, x[i % count])
                plant.CalcInverseDynamicsDerivatives(context, a[i % count])
            return calls

        return run


class MallardSingleState:
    name = "mallard SingleStatePlant"

    def __init__(self, plant):
        from mallard.multibody.single_state import SingleStatePlant

        self.single = SingleStatePlant(plant)
        nq, nv = plant.num_positions(), plant.num_velocities()
        self.outputs = (np.empty((nv, nq)), np.empty((nv, nv)), np.empty((nv, nv)))
        self.forward_outputs = self.outputs + (np.empty((nv, plant.num_actuated_dofs())),)

    def derivatives(self, q, v, a):
        dq, dv, _ = self.single.CalcInverseDynamicsDerivatives(q, v, a)
        return dq, dv

    def forward_derivatives(self, q, v):
        dq, dv, _, _ = self.single.CalcForwardDynamicsDerivatives(q, v)
        return dq, dv

    def timer(self, states):
        single, out, count = self.single, self.outputs, len(states)

        def run(calls):
            for i in range(calls):
                q, v, a = states[i % count]
                single.CalcInverseDynamicsDerivatives(q, v, a, out=out)
            return calls

        return run

    def forward_timer(self, states):
        single, out, count = self.single, self.forward_outputs, len(states)

        def run(calls):
            for i in range(calls):
                q, v, _ = states[i % count]
                single.CalcForwardDynamicsDerivatives(q, v, out=out)
            return calls

        return run


class PydrakeAutoDiff:
    name = "pydrake AutoDiffXd"

    def __init__(self, urdf):
        from pydrake.autodiffutils import AutoDiffXd, ExtractGradient, InitializeAutoDiff
        from pydrake.multibody.tree import MultibodyForces_

        plant = drake_plant("pydrake", urdf)
        self.plant = plant.ToAutoDiffXd()
        self.context = self.plant.CreateDefaultContext()
        self.forces = MultibodyForces_[AutoDiffXd](self.plant)
        self.seed, self.gradient = InitializeAutoDiff, ExtractGradient
        self.nq = plant.num_positions()

    def derivatives(self, q, v, a):
        plant, context, forces = self.plant, self.context, self.forces
        plant.SetPositionsAndVelocities(context, self.seed(np.concatenate((q, v)))[:, 0])
        plant.CalcForceElementsContribution(context, forces)
        gradient = self.gradient(plant.CalcInverseDynamics(context, a, forces))
        return gradient[:, : self.nq], gradient[:, self.nq :]

    def timer(self, states):
        plant, context, forces = self.plant, self.context, self.forces
        x = [self.seed(np.concatenate(s[:2]))[:, 0] for s in states]
        a = [s[2] for s in states]
        count, gradient = len(states), self.gradient

        def run(calls):
            for i in range(calls):
                plant.SetPositionsAndVelocities(context, x[i % count])
                plant.CalcForceElementsContribution(context, forces)
                gradient(plant.CalcInverseDynamics(context, a[i % count], forces))
            return calls

        return run


class Pinocchio:
    name = "pinocchio"

    def __init__(self, urdf, reference):
        floating = MODELS[MODEL][1] is None
        root = (pin.JointModelFreeFlyer(),) if floating else ()
        self.model = pin.buildModelFromXML(urdf, *root)
        self.data = self.model.createData()
        # P[i] = Pinocchio's coordinate of the reference plant's 1-dof joints' coordinate i
        # (a floating base: P[0:7] its first 7, unused but by native()).
        permutation = np.arange(reference.num_positions())
        for index in reference.GetJointIndices():
            joint = reference.get_joint(index)
            if joint.num_positions() == 1:
                permutation[joint.position_start()] = self.model.joints[
                    self.model.getJointId(joint.name())
                ].idx_q
        self.permutation, self.floating = permutation, floating

    def native(self, q, v, a, rng):
        """Pinocchio's (q, v, v̇) of a state given as the reference plant's: the 1-dof joints'
        coordinates permuted; a floating base's pose from the reference's (quaternion [w, x,
        y, z] normalized, then p), its velocity and acceleration random (timing only)."""
        if not self.floating:
            P = self.permutation
            qp, vp, ap = (np.empty_like(x) for x in (q, v, a))
            qp[P], vp[P], ap[P] = q, v, a
            return qp, vp, ap
        P = self.permutation[7:]
        qp, vp, ap = np.empty(q.size), rng.uniform(-1, 1, v.size), rng.uniform(-1, 1, a.size)
        quaternion = q[0:4] / np.linalg.norm(q[0:4])
        qp[0:3], qp[3:6], qp[6] = q[4:7], quaternion[1:4], quaternion[0]
        qp[P], vp[P - 1], ap[P - 1] = q[7:], v[6:], a[6:]
        return qp, vp, ap

    def derivatives(self, q, v, a):
        P = self.permutation
        qp, vp, ap = (np.empty_like(x) for x in (q, v, a))
        qp[P], vp[P], ap[P] = q, v, a
        pin.computeRNEADerivatives(self.model, self.data, qp, vp, ap)
        return self.data.dtau_dq[np.ix_(P, P)], self.data.dtau_dv[np.ix_(P, P)]

    def forward_derivatives(self, q, v):
        P = self.permutation
        qp, vp = (np.empty_like(x) for x in (q, v))
        qp[P], vp[P] = q, v
        pin.computeABADerivatives(self.model, self.data, qp, vp, np.zeros_like(vp))
        return self.data.ddq_dq[np.ix_(P, P)], self.data.ddq_dv[np.ix_(P, P)]

    def forward_timer(self, states):
        model, data, rng = self.model, self.data, np.random.default_rng(2)
        permuted = []
        for q, v, a in states:
            qp, vp, _ = self.native(q, v, a, rng)
            permuted.append((qp, vp, np.zeros_like(vp)))
        count = len(states)

        def run(calls):
            for i in range(calls):
                pin.computeABADerivatives(model, data, *permuted[i % count])
            return calls

        return run

    def timer(self, states):
        model, data, rng = self.model, self.data, np.random.default_rng(2)
        permuted = [self.native(*s, rng) for s in states]
        count = len(states)

        def run(calls):
            for i in range(calls):
                pin.computeRNEADerivatives(model, data, *permuted[i % count])
            return calls

        return run


class MallardBatched:
    name = "mallard batched (per state)"

    def __init__(self, plant, size, threads):
        from mallard.multibody.batch import BatchedPlant

        self.batched = BatchedPlant(plant, num_threads=threads)
        self.size = size

    def timer(self, states):
        rng = np.random.default_rng(1)
        picks = rng.integers(0, len(states), size=self.size)
        q, v, a = (np.array([states[i][j] for i in picks]) for j in range(3))
        batched, size = self.batched, self.size
        batched.CalcInverseDynamicsDerivatives(q, v, a)  # (compiles)

        def run(calls):
            batches = max(1, calls // size)
            for _ in range(batches):
                batched.CalcInverseDynamicsDerivatives(q, v, a)
            return batches * size

        return run


class MallardBatchedForward(MallardBatched):
    def timer(self, states):
        rng = np.random.default_rng(1)
        picks = rng.integers(0, len(states), size=self.size)
        q, v = (np.array([states[i][j] for i in picks]) for j in range(2))
        batched, size = self.batched, self.size
        batched.CalcForwardDynamicsDerivatives(q, v)  # (compiles)

        def run(calls):
            batches = max(1, calls // size)
            for _ in range(batches):
                batched.CalcForwardDynamicsDerivatives(q, v)
            return batches * size

        return run


def check_forward(mallard, single, pinocchio, states):
    others = ((single, 0.0),) + (() if pinocchio.floating else ((pinocchio, 1e-8),))
    for q, v, _ in states[:3]:
        ours = mallard.forward_derivatives(q, v)
        for other, rtol in others:
            theirs = other.forward_derivatives(q, v)
            for x, y, what in zip(ours, theirs, ("dvdot_dq", "dvdot_dv"), strict=True):
                error = np.linalg.norm(x - y) / max(1.0, np.linalg.norm(y))
                if error > rtol:
                    sys.exit(f"{other.name} {what} differs from mallard's by {error:.2e}")
    also = "" if pinocchio.floating else " = pinocchio (1e-8)"
    print("check: forward dynamics derivatives, SingleStatePlant = mallard's plant (bit for bit)"
          f"{also} at 3 states")  # fmt: skip


def time_runs(runs, rounds, sample_ms):
    """{name: median seconds per call} over interleaved samples of every run (see
    :func:`sample`)."""
    for run in runs.values():
        run(4)  # warm up (and compile)
    times = {name: [] for name in runs}
    names = list(runs)
    gc.disable()
    try:
        for r in range(rounds):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                times[name].append(sample(runs[name], sample_ms))
    finally:
        gc.enable()
    return {name: statistics.median(t) for name, t in times.items()}


def print_table(title, medians, reference):
    print(title)
    for name, median in medians.items():
        ratio = median / medians[reference]
        print(f"  {name:30s} {1e6 * median:10.2f} µs   / {reference}: {ratio:7.2f}")


def check(mallard, pydrake, pinocchio, states):
    others = ((pydrake, 1e-10),) + (() if pinocchio.floating else ((pinocchio, 1e-8),))
    for q, v, a in states[:3]:
        ours = mallard.derivatives(q, v, a)
        for other, rtol in others:
            theirs = other.derivatives(q, v, a)
            for x, y, what in zip(ours, theirs, ("dtau_dq", "dtau_dv"), strict=True):
                error = np.linalg.norm(x - y) / max(1.0, np.linalg.norm(y))
                if error > rtol:
                    sys.exit(f"{other.name} {what} differs from mallard's by {error:.2e}")
    also = "" if pinocchio.floating else " = pinocchio (1e-8)"
    print(f"check: mallard = pydrake AutoDiffXd (1e-10){also} at 3 states")


def sample(run, ms):
    """Mean seconds per call of ``run`` (which makes about ``calls`` calls and returns how
    many) over about ``ms`` milliseconds; a :class:`Remote` run samples in its worker."""
    if isinstance(run, Remote):
        return run.sample(ms)
    calls = 1
    while True:
        start = CLOCK()
        done = run(calls)
        elapsed = CLOCK() - start
        if elapsed > ms / 1000 or calls > 1e7:
            return elapsed / done
        calls *= 2


def timers(args):
    """The checked libraries' timers: ({name: run} of the inverse dynamics' derivatives, the
    same of the forward dynamics', Pinocchio's name)."""
    urdf = robot_urdf()
    mallard = Mallard(urdf)
    pydrake = PydrakeAutoDiff(urdf)
    pinocchio = Pinocchio(urdf, mallard.plant)
    rng = np.random.default_rng(0)
    nv = mallard.plant.num_velocities()
    nq = mallard.plant.num_positions()
    states = [
        (rng.uniform(-1, 1, nq), rng.uniform(-1, 1, nv), rng.uniform(-1, 1, nv))
        for _ in range(N_STATES)
    ]
    check(mallard, pydrake, pinocchio, states)
    single = MallardSingleState(mallard.plant)
    check(single, pydrake, pinocchio, states)
    check_forward(mallard, single, pinocchio, states)
    batched = MallardBatched(mallard.plant, args.batch_size, args.threads)
    libraries = (mallard, single, pinocchio, pydrake, batched)
    inverse = {lib.name: lib.timer(states) for lib in libraries}
    forward = MallardBatchedForward(mallard.plant, args.batch_size, args.threads)
    libraries = (mallard, single, pinocchio, forward)
    forward = {lib.name: getattr(lib, "forward_timer", lib.timer)(states) for lib in libraries}
    return inverse, forward, pinocchio.name


def worker(args):
    """Serves samples on stdin/stdout: prints the runs' names once, then for each line
    "table name ms" the seconds per call of one sample."""
    inverse, forward, _ = timers(args)
    runs = {"inverse": inverse, "forward": forward}
    for table in runs.values():
        for run in table.values():
            run(4)  # warm up (and compile)
    print("READY", json.dumps({t: list(r) for t, r in runs.items()}), flush=True)
    gc.disable()
    for line in sys.stdin:
        table, name, ms = json.loads(line)
        print(sample(runs[table][name], ms), flush=True)


class Remote:
    """A run of a worker process (see :func:`worker`), as time_runs takes it."""

    def __init__(self, process, table, name):
        self.process, self.table, self.name = process, table, name

    def __call__(self, calls):
        return 0  # (warmed up in its worker)

    def sample(self, ms):
        self.process.stdin.write(json.dumps([self.table, self.name, ms]) + "\n")
        self.process.stdin.flush()
        return float(self.process.stdout.readline())


def compare_trees(args):
    """The tables of every tree in ``args.trees``, sampled in turn (see the module)."""
    here = Path(__file__).resolve()
    command = [sys.executable, str(here), "--worker", "--model", args.model,
               "--batch-size", str(args.batch_size),
               "--threads", str(args.threads), "--timer", args.timer]  # fmt: skip
    workers = {}
    for tree in args.trees:
        root = str(Path(tree).resolve())
        env = dict(os.environ, PYTHONPATH=root)
        process = subprocess.Popen(
            command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        line = process.stdout.readline()
        while not line.startswith("READY"):
            print(f"[{tree}] {line}", end="")
            line = process.stdout.readline()
        workers[tree] = (process, json.loads(line.split(" ", 1)[1]))
    for table in ("inverse", "forward"):
        runs = {}
        for tree, (process, names) in workers.items():
            for name in names[table]:
                runs[(tree, name)] = Remote(process, table, name)
        medians = time_runs(runs, args.rounds, args.sample_ms)
        title = "computeRNEADerivatives" if table == "inverse" else "computeABADerivatives"
        print(f"{table} dynamics ({title}), µs per call, median of {args.rounds} rounds:")
        for tree in workers:
            reference = medians[(tree, "pinocchio")]
            for (t, name), median in medians.items():
                if t == tree:
                    print(f"  {tree:14s} {name:30s} {1e6 * median:10.2f} µs   / pinocchio: "
                          f"{median / reference:7.2f}")  # fmt: skip
    for process, _ in workers.values():
        process.stdin.close()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=tuple(MODELS), default="panda")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--sample-ms", type=float, default=50.0)
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--trees", nargs="+", help="checkouts to compare (see the module)")
    parser.add_argument("--timer", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global CLOCK, MODEL
    CLOCK = time.process_time if args.timer == "cpu" else time.perf_counter
    MODEL = args.model
    if args.worker:
        return worker(args)
    if args.trees:
        return compare_trees(args)
    inverse, forward, reference = timers(args)
    medians = time_runs(inverse, args.rounds, args.sample_ms)
    print(f"{MODEL}, ∂τ/∂q and ∂τ/∂v of inverse dynamics with gravity")
    print(f"median of {args.rounds} interleaved samples, µs per call (noisy: shared machine)")
    print_table("inverse dynamics (computeRNEADerivatives):", medians, reference)
    medians = time_runs(forward, args.rounds, args.sample_ms)
    print_table("forward dynamics (computeABADerivatives):", medians, reference)


if __name__ == "__main__":
    main()
