"""``mallard rollout``: many passive rollouts (zero actuation, under gravity) of a model from
sampled initial states, written as a dataset of .npz chunks (BatchedPlant.Rollout, on this
machine or on a Dask cluster through mallard.distributed)."""

import math
import os
import time

import numpy as np

from mallard.cli._compilation import CompilationWatch
from mallard.cli._model import CliError, UsageError, load_model
from mallard.cli._progress import ProgressBar

DEFAULT_OUT = "mallard_rollouts"
_DEFAULT_TIME_STEP = 1e-3
_CHUNK_SIZE = 1024
#: The states drawn from one seeded generator (mallard.distributed.Sampler's blocks).
_BLOCK = 256

HELP = "simulate many sampled initial states of a model at once into a dataset"
DESCRIPTION = f"""\
Samples N initial states of MODEL (seeded: --seed), simulates each for --duration seconds
with zero actuation under gravity, and writes the states every --every steps into --out DIR
as chunk-XXXXXX.npz files of --chunk-size states (index, q0, v0, x of shape
(states, steps, nq + nv), ok, status; numpy.load reads them, mallard.distributed.load_npz
joins them), with a progress bar. The plant is discrete with time step --time-step (default
{_DEFAULT_TIME_STEP:g} s), stepped with its own discrete update (BatchedPlant.Rollout: joint
limits through SAP; models with couplers, such as URDF mimic joints, are refused);
--remove-joint-limits sets the joints' position limits to ±∞ first.

Initial states: each position of a single-dof joint uniform within its limits (within ±π
for an unlimited revolute joint, ±0.5 m for a prismatic one), the others at their defaults;
velocities normal with standard deviation --v-scale (default 0). They are drawn where each
chunk runs, in blocks of {_BLOCK} states (block b with numpy's default_rng([SEED, b])), so the
same --seed gives the same states and results whatever --chunk-size, with or without
--scheduler, and state i the same whatever --n. (Before, the states were drawn at once with
default_rng(SEED): a given --seed now gives other states than it did then.)

Without --scheduler the rollouts run here, on BatchedPlant's threads; with --scheduler
ADDRESS (e.g. tcp://HOST:8786, a Dask scheduler whose workers have mallard installed with
its 'distributed' extra and read MODEL and write --out at the same paths) on the cluster,
each worker drawing its chunks' states: nothing but the sampler is sent to it."""


def _positive(text):
    value = float(text)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(text)
    return value


def _count(text):
    value = int(text)
    if value < 1:
        raise ValueError(text)
    return value


_positive.__name__ = "positive number"
_count.__name__ = "positive integer"


def add_parser(subparsers, add_model_arguments):
    parser = subparsers.add_parser("rollout", help=HELP, description=DESCRIPTION)
    parser.add_argument("model", metavar="MODEL", help="a .urdf/.sdf file or a package:// URL")
    add_model_arguments(parser)
    parser.add_argument("--n", type=_count, required=True, metavar="N", help="the states")
    parser.add_argument(
        "--duration", type=_positive, required=True, metavar="T", help="simulated time in s"
    )
    parser.add_argument(
        "--time-step",
        type=_positive,
        default=_DEFAULT_TIME_STEP,
        metavar="H",
        help=f"the discrete plant's time step in s (default: {_DEFAULT_TIME_STEP:g})",
    )
    parser.add_argument(
        "--every", type=_count, default=10, metavar="K", help="keep every K-th step (default 10)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the sampling's seed (default 0)")
    parser.add_argument(
        "--v-scale",
        type=float,
        default=0.0,
        metavar="S",
        help="standard deviation of the initial velocities (default 0)",
    )
    parser.add_argument(
        "--chunk-size",
        type=_count,
        default=_CHUNK_SIZE,
        metavar="C",
        help=f"states per chunk file and task (default {_CHUNK_SIZE})",
    )
    parser.add_argument(
        "--remove-joint-limits",
        action="store_true",
        help="set every joint's position limits to ±∞ before Finalize()",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="a Dask scheduler's address (default: run here)"
    )
    parser.add_argument(
        "--out", default=DEFAULT_OUT, metavar="DIR", help=f"the output directory ({DEFAULT_OUT})"
    )
    parser.set_defaults(run=run)


def draw_states(plant, rng, count, v_scale):
    """(q0, v0, None) of ``count`` states drawn with ``rng`` as the command's description says
    (a mallard.distributed.Sampler's function: one block's states)."""
    q_default = plant.GetPositions(plant.CreateDefaultContext())
    q0 = np.tile(q_default, (count, 1))
    for joint in plant._joints:
        if joint.num_positions() != 1 or joint.num_velocities() != 1:
            continue
        lower, upper = joint.position_lower_limits()[0], joint.position_upper_limits()[0]
        half = np.pi if joint.type_name() == "revolute" else 0.5
        low = lower if np.isfinite(lower) else -half
        high = upper if np.isfinite(upper) else half
        q0[:, joint.position_start()] = rng.uniform(low, high, count)
    v0 = rng.normal(0.0, 1.0, (count, plant.num_velocities())) * v_scale
    return q0, v0, None


def sampler(n, seed, v_scale):
    """The mallard.distributed.Sampler of the command's n initial states."""
    from mallard.distributed import Sampler

    return Sampler(draw_states, seed, n, block=_BLOCK, kwargs={"v_scale": v_scale})


def sample_states(plant, n, seed, v_scale):
    """(q0, v0) of the n states the command samples (all of :func:`sampler`'s)."""
    return sampler(n, seed, v_scale).draw(plant, 0, n)[:2]


def run(args):
    from mallard.distributed._rollouts import PlantSpec, _run_sampled, batched_plant

    model = load_model(args.model, args.package_path, args.time_step)
    spec = PlantSpec.from_file(
        model.path, time_step=args.time_step, remove_joint_limits=args.remove_joint_limits
    )
    steps = int(round(args.duration / args.time_step))
    if steps < 1:
        raise UsageError(f"--duration {args.duration:g} is shorter than one step")
    states = sampler(args.n, args.seed, args.v_scale)
    with CompilationWatch():
        try:
            batched_plant(spec)  # (kept for the chunks run here; a model refused, here)
        except NotImplementedError as e:
            raise CliError(str(e)) from e
        os.makedirs(args.out, exist_ok=True)
        chunks = -(-args.n // args.chunk_size)
        bar = ProgressBar(chunks)
        began = time.perf_counter()
        kwargs = {"num_steps": steps, "every": args.every}
        try:
            if args.scheduler is None:
                for index in range(chunks):
                    first = index * args.chunk_size
                    _run_sampled(spec, index, first, args.chunk_size, states, kwargs, args.out)
                    bar.update(index + 1, f"{index + 1} / {chunks} chunks")
            else:
                _run_on_cluster(args, spec, states, kwargs, bar)
        except NotImplementedError as e:
            raise CliError(str(e)) from e
        finally:
            bar.close()
        seconds = time.perf_counter() - began
    rate = args.n * steps / seconds
    print(
        f"{args.n} rollouts × {steps} steps of {args.time_step:g} s: {seconds:.3g} s wall, "
        f"{rate:.3g} state-steps/s; {chunks} chunk files in {os.path.abspath(args.out)}"
    )
    return 0


def _run_on_cluster(args, spec, states, kwargs, bar):
    try:
        from dask.distributed import Client
    except ImportError as e:
        raise CliError(
            "--scheduler needs Dask: pip install 'mallard[distributed]' (dask[distributed])"
        ) from e
    from mallard.distributed import rollout_to_npz

    with Client(args.scheduler) as client:
        rollout_to_npz(
            client, spec, args.out, states, chunk_size=args.chunk_size,
            progress=lambda done, total: bar.update(done, f"{done} / {total} chunks"),
            **kwargs,
        )  # fmt: skip
