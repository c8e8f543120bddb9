"""BatchedPlant's threads on an idle and on a busy machine (issue 22).

Every batched operation (body poses, mass matrix, inverse and forward dynamics, frame
Jacobian, and the derivatives of inverse and forward dynamics) on the Panda (base welded) and
the G1 (floating base), for N = 1, 4, 64, 1000 and 100 000 states (the derivatives to
``--max-derivative-batch``, 1000: at 100 000 a call takes minutes), timed two ways in the same
run, samples interleaved:

* **default**: ``BatchedPlant(plant)``: up to NUMBA_NUM_THREADS threads, helpers asked only for
  batches whose measured work pays for them (mallard.multibody._batch_run);
* **one thread**: ``BatchedPlant(plant, num_threads=1)``;

once **idle** (as idle as the machine is: it is shared) and once **busy**, with a CPU-bound
process that the benchmark starts and pins to the last CPU. For N = 1, the single-state kernel
alone is timed too: the plant's entry point for one state, as the plant calls it from Python
(``kernels(np.float64).drive_...`` on a Context's workspace, every stage recomputed).

On a shared machine the other programs' bursts only ever add time, and they come and go
within a run, so the two configurations are sampled in turn, many short samples each (a
sample: as many calls as fill ``--sample-ms``, at least one), and each row gives

* µs per call, each configuration's least over the samples, and their ratio default / one
  thread (issue 22: ≤ 1.10 in every case);
* the spread: the same ratio from the even rounds alone and from the odd rounds alone (two
  independent estimates: how far apart they are says how much the noise moves the ratio;
  where the two configurations run the same code, a batch too small for helpers, it is 1 but
  for the noise);
* CPU µs per call, all the process's threads (``time.process_time``), each configuration's
  least: helpers cost CPU beside the caller's;
* the helper threads the default asks for per call (0: it runs the one thread's code);
* for N = 1, the single-state kernel's µs and default / kernel (≤ 2.0).

Run: ``python benchmarks/batch_threads.py`` (``--quick`` for a short run; ``--sizes``,
``--models``, ``--ops``, ``--rounds``, ``--sample-ms``, ``--case-seconds``; writes
``benchmarks/results/batch_threads.md``).
"""

import argparse
import datetime
import gc
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_timings import build  # noqa: E402

from mallard._compiled import DERIVATIVES_AT, kernels  # noqa: E402
from mallard.multibody import _batch_run  # noqa: E402
from mallard.multibody._batch_codes import FORWARD, INVERSE  # noqa: E402
from mallard.multibody._layout import BIAS, INERTIAS, POSES_ONLY, POSITIONS, VELOCITIES  # noqa: E402
from mallard.multibody.batch import BatchedPlant  # noqa: E402

OPS = ("poses", "mass matrix", "inverse dynamics", "forward dynamics", "frame Jacobian",
       "ID derivatives", "FD derivatives")  # fmt: skip
TIP = {"panda": "panda_leftfinger", "g1": "right_wrist_yaw_link"}
ALL_STAGES = POSITIONS | VELOCITIES | INERTIAS | BIAS


def batched_call(batched, op, model, q, v, a):
    """The batched op on the states (q, v) with accelerations (or forces) a."""
    frame = batched.plant().GetBodyByName(TIP[model]).body_frame()
    return {
        "poses": lambda: batched.CalcAllBodyPosesInWorld(q),
        "mass matrix": lambda: batched.CalcMassMatrix(q),
        "inverse dynamics": lambda: batched.CalcInverseDynamics(q, v, a),
        "forward dynamics": lambda: batched.CalcForwardDynamics(q, v, a),
        "frame Jacobian": lambda: batched.CalcJacobianSpatialVelocity(q, frame),
        "ID derivatives": lambda: batched.CalcInverseDynamicsDerivatives(q, v, a),
        "FD derivatives": lambda: batched.CalcForwardDynamicsDerivatives(q, v, a),
    }[op]


def single_call(op, plant, context, model):
    """The single-state kernel of op, through its entry point, every stage recomputed."""
    engine = plant._engine
    ec = engine.cache(context)
    mi, mf, ws = engine.mi, engine.mf, ec.ws
    x = plant.GetPositionsAndVelocities(context).copy()
    nv, nq, n = plant.num_velocities(), plant.num_positions(), len(plant._topology.mobods)
    tau, u, F = np.zeros(nv), np.zeros(plant.num_actuated_dofs()), np.zeros((n, 6))
    F_B = np.zeros((plant.num_bodies(), 6))
    vdot = np.ones(nv)
    dws = np.zeros(engine.sizes.dws)
    d1, d2, d3 = np.zeros((nv, nq)), np.zeros((nv, nv)), np.zeros((nv, nv))
    body = plant.GetBodyByName(TIP[model])
    k = int(plant._topology.mobod_of_body[int(body.index())])
    X_BF = np.ascontiguousarray(ec.X_BF[int(body.body_frame().index())])
    p = np.zeros(3)
    K = kernels(np.float64)
    at = K.addresses(DERIVATIVES_AT)
    stages, fd = K.address("stages_at"), K.address("forward_dynamics_at")

    def inverse_dynamics():
        K.drive_force_elements(mi, mf, x, ws, ALL_STAGES, F_B, tau, stages)
        K.drive_inverse_dynamics(mi, mf, x, ws, 0, vdot, tau, F_B, stages)

    return {
        "poses": lambda: K.drive_stages(mi, mf, x, ws, POSES_ONLY),
        "mass matrix": lambda: K.drive_mass_matrix(mi, mf, x, ws, POSITIONS | INERTIAS, stages),
        "inverse dynamics": inverse_dynamics,
        "forward dynamics": lambda: K.drive_forward_dynamics(
            mi, mf, x, ws, ALL_STAGES, u, tau, F, fd
        ),
        "frame Jacobian": lambda: K.drive_point_jacobian(
            mi, mf, x, ws, POSITIONS, k, X_BF, p, stages
        ),
        "ID derivatives": lambda: K.drive_dynamics_derivatives(
            INVERSE, mi, mf, x, ws, ALL_STAGES, vdot, tau, F_B, dws, d1, d2, d2, at
        ),
        "FD derivatives": lambda: K.drive_dynamics_derivatives(
            FORWARD, mi, mf, x, ws, ALL_STAGES, u, tau, F_B, dws, d1, d2, d3, at
        ),
    }[op]


#: Helper threads asked for so far (HELPERS.submit counted: see main).
ASKED = [0]


def count_helpers():
    """Counts the helper threads the calls ask for, in :data:`ASKED`."""
    submit = _batch_run.HELPERS.submit

    def counted(task, count):
        ASKED[0] += count
        submit(task, count)

    _batch_run.HELPERS.submit = counted


def sample(fn, seconds):
    """(wall, CPU, helpers) per call of fn() over at least ``seconds`` of wall time (and one
    call): seconds, seconds of all the process's threads, helper threads asked."""
    count, asked, began, cpu = 0, ASKED[0], time.perf_counter(), time.process_time()
    while True:
        fn()
        count += 1
        elapsed = time.perf_counter() - began
        if elapsed >= seconds:
            cpu = time.process_time() - cpu
            return elapsed / count, cpu / count, (ASKED[0] - asked) / count


def measure(candidates, rounds, seconds, budget):
    """name → (wall, CPU, helpers): each candidate's samples (per call, ``rounds`` of each, see
    :func:`sample`, fewer, five at least, once ``budget`` seconds have passed), the candidates
    sampled in turn, the order alternating from round to round."""
    for fn in candidates.values():  # (warm: compiled, rows made, work per group measured)
        for _ in range(3):
            fn()
    names = list(candidates)
    samples = {name: [] for name in names}
    began = time.perf_counter()
    for r in range(rounds):
        if r >= 5 and time.perf_counter() - began > budget:
            break
        for name in names if r % 2 == 0 else names[::-1]:
            samples[name].append(sample(candidates[name], seconds))
    return {name: np.array(values).T for name, values in samples.items()}


def summary(result):
    """The row's figures from measure()'s samples: the least wall and CPU seconds of each
    candidate, default / one thread of the leasts, and that ratio over the even rounds and
    over the odd ones."""
    (default, default_cpu, helpers), (one, one_cpu, _) = result["default"], result["one"]
    r = {
        "helpers": helpers.mean(),
        "default": default.min(),
        "one": one.min(),
        "default cpu": default_cpu.min(),
        "one cpu": one_cpu.min(),
        "ratio": default.min() / one.min(),
        "halves": (default[0::2].min() / one[0::2].min(), default[1::2].min() / one[1::2].min()),
    }
    if "kernel" in result:
        r["kernel"] = result["kernel"][0].min()
    return r


class Hog:
    """A CPU-bound process pinned to one CPU (the last), while in the ``with`` block."""

    def __enter__(self):
        cpu = max(os.sched_getaffinity(0))
        code = (  # (spinning while the benchmark runs: it ends with it, however it ends)
            f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile os.getppid() == {os.getpid()}:"
            "\n    pass\n"
        )
        self.process = subprocess.Popen([sys.executable, "-c", code])
        time.sleep(0.5)
        return self

    def __exit__(self, *exc):
        self.process.kill()
        self.process.wait()


def states(plant, context, count, rng):
    q0 = plant.GetPositions(context)
    q = q0 + 0.3 * rng.normal(size=(count, plant.num_positions()))
    v = rng.normal(size=(count, plant.num_velocities()))
    return q, v, rng.normal(size=v.shape)


def run_model(model, args, rng, rows):
    plant, context = build(model)
    default, one = BatchedPlant(plant), BatchedPlant(plant, num_threads=1)
    for condition in ("idle", "busy"):
        hog = Hog() if condition == "busy" else None
        if hog:
            hog.__enter__()
        try:
            for op in args.ops:
                for size in args.sizes:
                    if op.endswith("derivatives") and size > args.max_derivative_batch:
                        continue
                    q, v, a = states(plant, context, size, rng)
                    candidates = {
                        "default": batched_call(default, op, model, q, v, a),
                        "one": batched_call(one, op, model, q, v, a),
                    }
                    if size == 1:
                        candidates["kernel"] = single_call(op, plant, context, model)
                    seconds = args.sample_ms * 1e-3
                    result = summary(measure(candidates, args.rounds, seconds, args.case_seconds))
                    rows.append((model, condition, op, size, result))
                    print_row(rows[-1])
        finally:
            if hog:
                hog.__exit__()


def print_row(row):
    model, condition, op, size, r = row
    even, odd = r["halves"]
    text = (
        f"{model:6s} {condition:5s} {op:17s} N={size:<7d} default {r['default'] * 1e6:10.2f} µs"
        f"  one thread {r['one'] * 1e6:10.2f} µs  ratio {r['ratio']:.2f} (halves "
        f"{even:.2f}, {odd:.2f})  CPU {r['default cpu'] * 1e6:.2f} / "
        f"{r['one cpu'] * 1e6:.2f} µs  helpers {r['helpers']:.2f}"
    )
    if "kernel" in r:
        text += f"  kernel {r['kernel'] * 1e6:.2f} µs ratio {r['default'] / r['kernel']:.2f}"
    print(text, flush=True)


def table(rows):
    lines = [
        "| model | machine | operation | N | default µs | one thread µs | default / one "
        "| halves: even, odd rounds | CPU µs: default / one | helpers per call "
        "| N = 1: kernel µs | default / kernel |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for model, condition, op, size, r in rows:
        kernel = " | "
        if "kernel" in r:
            kernel = f"{r['kernel'] * 1e6:.2f} | {r['default'] / r['kernel']:.2f}"
        even, odd = r["halves"]
        lines.append(
            f"| {model} | {condition} | {op} | {size} | {fmt(r['default'])} | {fmt(r['one'])} | "
            f"{r['ratio']:.2f} | {even:.2f}, {odd:.2f} | "
            f"{fmt(r['default cpu'])} / {fmt(r['one cpu'])} | {r['helpers']:.2g} | {kernel} |"
        )
    return "\n".join(lines)


def fmt(seconds):
    us = seconds * 1e6
    return f"{us:.3g}" if us < 100 else f"{us:.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--models", default="panda,g1")
    parser.add_argument("--ops", default=",".join(OPS))
    parser.add_argument("--sizes", default="1,4,64,1000,100000")
    parser.add_argument("--max-derivative-batch", type=int, default=1000)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--sample-ms", type=float)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--case-seconds",
        type=float,
        default=20.0,
        help="a case's sampling stops after this long, once it has 5 rounds",
    )
    parser.add_argument("--output", type=Path, default=Path(__file__).parent / "results" /
                        "batch_threads.md")  # fmt: skip
    args = parser.parse_args()
    args.ops = args.ops.split(",")
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.rounds = args.rounds or (6 if args.quick else 40)
    args.sample_ms = args.sample_ms or 2.0
    rng = np.random.default_rng(args.seed)
    count_helpers()
    header = (
        f"{datetime.datetime.now():%Y-%m-%d %H:%M}, {platform.node()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.2f}; Python {platform.python_version()}, numba "
        f"{numba.__version__}, NUMBA_NUM_THREADS={numba.config.NUMBA_NUM_THREADS}, "
        f"NUMBA_THREADING_LAYER={numba.config.THREADING_LAYER}; {args.rounds} rounds of "
        f"{args.sample_ms:g} ms samples (at most {args.case_seconds:g} s a case, 5 rounds or more)"
    )
    print(header, flush=True)
    gc.disable()
    rows = []
    for model in args.models.split(","):
        run_model(model, args, rng, rows)
    gc.enable()
    worst = max(r["ratio"] for *_, r in rows)
    over = [f"{m} {c} {o} N={n} {r['ratio']:.2f}" for m, c, o, n, r in rows if r["ratio"] > 1.1]
    single = [r["default"] / r["kernel"] for *_, r in rows if "kernel" in r]
    text = f"worst default / one thread: {worst:.2f}"
    if over:
        text += f" (above 1.10: {'; '.join(over)})"
    if single:
        text += f"; N = 1, default / single-state kernel: {min(single):.2f}–{max(single):.2f}"
    text += f"; load average at the end {os.getloadavg()[0]:.2f}"
    print(text)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(f"{header}\n\n{table(rows)}\n\n{text}\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
