"""Batched rollouts: state-steps per second per core, mallard's BatchedPlant.Rollout beside
MuJoCo's own rollout module (``mujoco.rollout``) and a pydrake Simulator loop, in one run.

Models, 1 ms steps, zero or random actuation, one core (mallard ``num_threads=1``, MuJoCo
one MjData: one thread, pydrake a plain loop):

* **acrobot**: mallard's acrobot (Drake's parameters, joint damping 0.1), discrete; MuJoCo
  the same in MJCF (its default integrator, semi-implicit Euler with implicit damping, as
  SAP's free motion); random elbow torques (N × T × 1).
* **Panda** (example-robot-data's URDF, base welded, geometry, position limits and the
  fingers' mimic stripped: no contact, no constraint; nv = 9), falling from random states
  near home, zero actuation; MuJoCo loads the same URDF text.
* **Panda with limits**: the same with its position limits (the mimic stripped): the arm
  falls onto them, each state near a limit solved by SAP (mallard, pydrake) or by MuJoCo's
  limit constraints.

Every library writes every step's state (MuJoCo's rollout always does; mallard with
``every=1``), in batches of ``--batch`` rollouts of ``--steps`` steps. pydrake runs
``--drake-rollouts`` rollouts one by one (Simulator.AdvanceTo per rollout, state reset).
Throughputs are medians of ``--rounds`` samples taken in turn, so the ratios hold within one
run on a noisy machine; the machine is shared (2 cores, other jobs running).

``--dask``: also mallard.distributed on a LocalCluster (one thread per worker process; the
client on the same machine, ``direct_to_workers=True``) scaled to 1 worker process, then 2,
in each of ``--rounds`` rounds, ``--dask-model``'s rollouts (the acrobot's, or the Panda's:
no actuation to send, 5× the acrobot's work per state) tiled 4 times (sampled: as many
drawn on the workers by a Sampler), in the same chunks on 1 worker and on 2 (a user adds
workers, not chunks; ``--dask-chunks``: 4 equal chunks per worker, or balanced_chunks's;
whole blocks of the Sampler's), each worker warmed up (its plant built, its kernel loaded)
before the round's runs, five ways (:data:`DASK_WAYS`: input arrays from the client or
drawn by the tasks; states gathered on the client or written by the workers as .npz;
arrays and states through the machine's shared memory, mallard.distributed's default on a
LocalCluster, or over TCP, as to workers on other machines), Dask's periodic
work slowed (:data:`QUIET_DASK`, as mallard.distributed advises for workers that share
cores): the best of each, each round's
ratio for the scaling of two workers over one, and what a run on two workers costs (a table
after the main one: the client process's CPU per run and per chunk, the workers' CPU, the
bytes sent and fetched, the workers' idle time; see :func:`dask_scaling`), which, unlike
the ratio, stays meaningful on a loaded machine, and the ratio those costs allow on two
cores shared by the client's process and the workers, 2w / (w + c).

Run: ``python benchmarks/rollouts.py`` (the ``bench`` extra; ``--dask`` the ``distributed``
one); writes ``benchmarks/results/rollouts.md``.
"""

import argparse
import datetime
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from compare import default_robots_dir, machine_info, versions  # noqa: E402
from discrete_solvers import PANDA_HOME, panda_urdf  # noqa: E402

H = 1e-3

ACROBOT_MJCF = """
<mujoco model="acrobot">
  <option timestep="0.001" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="link1">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.1"/>
      <inertial pos="0 0 -0.5" mass="1" diaginertia="0.083 0.083 1e-6"/>
      <body name="link2" pos="0 0 -1">
        <joint name="elbow" type="hinge" axis="0 1 0" damping="0.1"/>
        <inertial pos="0 0 -1" mass="1" diaginertia="0.33 0.33 1e-6"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="elbow"/></actuator>
</mujoco>
"""


def mallard_plants(robots):
    """{name: (plant, urdf text or None)} of mallard's discrete plants."""
    from mallard.models import MakeAcrobotPlant
    from mallard.multibody.parsing import Parser
    from mallard.multibody.plant import MultibodyPlant

    plants = {"acrobot": (MakeAcrobotPlant(time_step=H), None)}
    for name, limits in (("Panda", False), ("Panda with limits", True)):
        if robots is None:
            break
        urdf = panda_urdf(robots, mimic=False, limits=limits)
        plant = MultibodyPlant(H)
        Parser(plant).AddModelsFromString(urdf, "urdf")
        plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
        plant.Finalize()
        plants[name] = (plant, urdf)
    return plants


def initial_states(name, plant, n, rng):
    nq, nv = plant.num_positions(), plant.num_velocities()
    if name == "acrobot":
        return rng.uniform(-np.pi, np.pi, (n, nq)), rng.normal(size=(n, nv))
    return PANDA_HOME + rng.uniform(-0.3, 0.3, (n, nq)), rng.normal(size=(n, nv)) * 0.1


def mallard_run(plant, q0, v0, U, steps):
    from mallard.multibody.batch import BatchedPlant

    batched = BatchedPlant(plant, num_threads=1)
    out = np.empty((q0.shape[0], steps, q0.shape[1] + v0.shape[1]))
    batched.Rollout(q0[:4], v0[:4], None if U is None else U[:4, :2], num_steps=2)  # (compile)

    def run():
        batched.Rollout(q0, v0, U, num_steps=steps, out=out)

    return run


def mujoco_run(name, urdf, q0, v0, U, steps):
    import mujoco
    from mujoco import rollout

    if name == "acrobot":
        model = mujoco.MjModel.from_xml_string(ACROBOT_MJCF)
    else:
        model = mujoco.MjModel.from_xml_string(urdf)
        model.opt.timestep = H
        if name == "Panda":
            model.jnt_limited[:] = 0
    data = mujoco.MjData(model)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    size = mujoco.mj_stateSize(model, spec)
    states = np.zeros((q0.shape[0], size))
    for i in range(q0.shape[0]):
        data.qpos[:], data.qvel[:], data.time = q0[i], v0[i], 0.0
        mujoco.mj_getState(model, data, states[i], spec)
    out = np.empty((q0.shape[0], steps, size))
    rollout.rollout(model, data, states[:4], None if U is None else U[:4, :2])  # (warm up)

    def run():
        rollout.rollout(model, data, states, U, nstep=steps, state=out)

    return run


def pydrake_run(name, urdf, q0, v0, U, steps):
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant
    from pydrake.systems.analysis import Simulator

    plant = MultibodyPlant(H)
    if name == "acrobot":
        from mallard.multibody.parsing import PackageMap

        path = Path(PackageMap().GetPath("mallard")) / "acrobot.urdf"
        Parser(plant).AddModels(str(path))
    else:
        Parser(plant).AddModelsFromString(urdf, "urdf")
        plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    plant.Finalize()
    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    port = plant.get_actuation_input_port()
    nu = plant.num_actuated_dofs()

    def run():
        for i in range(q0.shape[0]):
            context.SetTime(0.0)
            plant.SetPositions(context, q0[i])
            plant.SetVelocities(context, v0[i])
            if nu:
                port.FixValue(context, U[i, 0])
            simulator.Initialize()
            simulator.AdvanceTo(steps * H)  # (open-loop actuation: the first step's, held)

    return run


def median_rate(run, state_steps, rounds):
    rates = []
    for _ in range(rounds):
        began = time.perf_counter()
        run()
        rates.append(state_steps / (time.perf_counter() - began))
    return float(np.median(rates))


def draw_acrobot_inputs(plant, rng, count, steps):
    """The acrobot's inputs as :func:`initial_states` and main draw them (uniform q0, normal
    v0 and elbow torques), for mallard.distributed's Sampler."""
    q0 = rng.uniform(-np.pi, np.pi, (count, plant.num_positions()))
    return q0, rng.normal(size=(count, plant.num_velocities())), rng.normal(size=(count, steps, 1))


def draw_panda_inputs(plant, rng, count, steps):
    """The Panda's inputs as :func:`initial_states` draws them (near home, falling: no
    actuation), for mallard.distributed's Sampler."""
    q0 = PANDA_HOME + rng.uniform(-0.3, 0.3, (count, plant.num_positions()))
    return q0, rng.normal(size=(count, plant.num_velocities())) * 0.1, None


def dask_spec(name, urdf):
    """The mallard.distributed PlantSpec and Sampler function of ``name``'s plant (the Panda
    welded to the world by a fixed joint in its URDF text: the same plant, the same bits, as
    :func:`mallard_plants`' WeldFrames)."""
    from mallard.distributed import PlantSpec
    from mallard.models import MakeAcrobotPlant

    if name == "acrobot":
        return PlantSpec.from_function(MakeAcrobotPlant, time_step=H), draw_acrobot_inputs
    weld = (
        '<link name="world"/><joint name="panda_world" type="fixed"><parent link="world"/>'
        '<child link="panda_link0"/></joint></robot>'
    )
    return PlantSpec.from_text(urdf.replace("</robot>", weld), "urdf", time_step=H), (
        draw_panda_inputs
    )


def dask_chunks(size, block, chunking):
    """The chunk sizes of ``size`` states for two workers, whole numbers of the Sampler's
    ``block`` (the last chunk the rest): "equal", 4 chunks per worker, or "balanced",
    mallard.distributed.balanced_chunks's waves of smaller and smaller chunks."""
    from mallard.distributed import balanced_chunks

    blocks = -(-size // block)
    counts = [-(-blocks // 8)] * (blocks // -(-blocks // 8))
    if sum(counts) < blocks:
        counts.append(blocks - sum(counts))
    if chunking == "balanced":
        counts = balanced_chunks(blocks, 2)
    sizes = [c * block for c in counts]
    sizes[-1] -= sum(sizes) - size
    return sizes


#: mallard.distributed's ways timed by ``--dask``, each (inputs drawn by the chunks' tasks (a
#: Sampler) rather than arrays from the client, states written by the workers as .npz chunks
#: (rollout_to_npz) rather than gathered on the client (rollout), ``shared``): arrays and
#: states through the machine's shared memory (mallard.distributed's default with a
#: LocalCluster) or over TCP (``shared=False``, as with workers on other machines: arrays
#: scattered to the workers, states fetched from them).
DASK_WAYS = {
    "arrays over TCP, gathered": (False, False, False),
    "arrays, shared memory": (False, False, None),
    "sampled inputs, gathered over TCP": (True, False, False),
    "sampled inputs, shared memory": (True, False, None),
    "sampled inputs, npz": (True, True, None),
}


#: Dask's periodic work, which the client's process (a LocalCluster's scheduler and nannies in
#: it) and each worker do even idle, at long intervals: the event loops' health ticks (20 ms),
#: the system and memory monitors (0.5 s, 0.1 s) and the workers' statistical profiler (10 ms).
#: Idle, a LocalCluster of two workers took 0.068 s of CPU per second with Dask's defaults and
#: 0.018 s/s with these (2026-11-26 20:04, load 20): on the benchmark's two cores the client
#: and the workers share, 3.4% of them during a run on two workers, against nothing on one
#: (the client then has a core to itself). Environment variables, so that the worker processes
#: the nannies spawn read them too.
QUIET_DASK = {
    "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
    "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "5s",
    "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "1s",
    "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
}


def _scaled(cluster, client, workers, spec):
    """``cluster`` scaled to ``workers`` worker processes (waited for), each warmed up."""
    from mallard.distributed import warm_up

    cluster.scale(workers)
    deadline = time.monotonic() + 120
    while len(client.scheduler_info(n_workers=-1)["workers"]) != workers:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the LocalCluster did not reach {workers} workers")
        time.sleep(0.05)
    warm_up(client, spec)


def _idle_spans(stream, began, ended):
    """Seconds the workers of a run (``began``–``ended``, time.time()) spent not computing
    a chunk, summed over the workers, from Dask's task stream: before their first chunk,
    between chunks, after their last."""
    spans = {}
    for task in stream:
        for part in task["startstops"]:
            if part["action"] == "compute":
                spans.setdefault(task["worker"], []).append((part["start"], part["stop"]))
    start = between = end = 0.0
    for worker_spans in spans.values():
        worker_spans.sort()
        start += worker_spans[0][0] - began
        between += sum(
            b[0] - a[1] for a, b in zip(worker_spans[:-1], worker_spans[1:], strict=True)
        )
        end += ended - worker_spans[-1][1]
    return start, between, end


def _sent_bytes(dask_worker):
    """The bytes a Dask worker has sent to others (here: the client fetching its results)."""
    return dask_worker.transfer_outgoing_bytes_total


def dask_scaling(spec, draw, q0, v0, U, steps, rounds, directory, chunking):
    """({way: (best state-steps/s on 1 worker, on 2, each round's ratio of 2 workers over 1)},
    {way: the costs of a run on 2 workers}, the client's idle CPU rate, the chunk sizes) of
    mallard.distributed (``spec``, and ``draw`` the Sampler's function) on one LocalCluster (a
    thread per worker process; ``Client(direct_to_workers=True)``, as mallard.distributed
    advises a client that can reach its workers), scaled to 1 worker, then 2, in each of
    ``rounds`` rounds: one cluster, so that no idle cluster's scheduler and worker take CPU from
    the runs of the other (~5% of a core). Each worker is warmed up (plant built, kernel loaded)
    before the round's runs, as the protocol says, and then runs one rollout untimed (a worker's
    first run after it starts cost the first way timed ~5% more of the workers' CPU: 2026-11-28,
    the TCP arrays' row 1.66 without it, 1.80-1.88 with it); the same chunks on 1 worker and on
    2 (:func:`dask_chunks` of ``chunking``: a user adds workers, not chunks), each a whole
    number of the Sampler's blocks (a chunk then draws no block another also draws); Dask's
    periodic work at :data:`QUIET_DASK`'s intervals; the gathered states written into one array
    reused from run to run (``out``, as mallard_run does; through shared memory, one of
    mallard.distributed.shared_empty, which the workers write into).

    The costs (least over the rounds, but the idle time's median): the client process's CPU
    (the LocalCluster's scheduler and nannies in it) per run beyond its idle rate (measured
    once, on 2 workers) and per chunk, the workers' CPU, the bytes the client sent to the
    workers over TCP (the scattered inputs' arrays; none through shared memory) and
    fetched from them (Dask's own count), and the
    seconds the workers sat idle before their first chunk, between chunks and after their
    last (Dask's task stream)."""
    import dask
    from dask.distributed import Client, LocalCluster, get_task_stream

    from mallard.distributed import Sampler, rollout, rollout_to_npz, shared_empty

    os.environ.update(QUIET_DASK)
    dask.config.refresh()

    size = q0.shape[0]
    sampler = Sampler(draw, seed=0, num_states=size, kwargs={"steps": steps})
    chunk_size = dask_chunks(size, sampler.block, chunking)
    rates = {(way, w): [] for way in DASK_WAYS for w in (1, 2)}
    costs = {way: [] for way in DASK_WAYS}
    idle_rate = None
    out = np.empty((size, steps // 10, q0.shape[1] + v0.shape[1]))
    shared_out = shared_empty(out.shape)  # (the workers write the states straight into it)
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster, direct_to_workers=True) as client,
    ):
        client.get_task_stream()  # (the scheduler's task stream on from the start)
        for _ in range(rounds):
            for workers in (1, 2):
                _scaled(cluster, client, workers, spec)
                if workers == 2 and idle_rate is None:
                    cpu = time.process_time()
                    time.sleep(2.0)
                    idle_rate = (time.process_time() - cpu) / 2.0
                kwargs = {"num_steps": steps, "every": 10, "chunk_size": chunk_size}
                # (one run untimed: a worker's first run after it starts pays what later
                # runs do not, e.g. the first touch of its chunks' memory)
                rollout(client, spec, q0, v0, U, shared=False, out=out, **kwargs)
                for way, (sampled, npz, shared) in DASK_WAYS.items():
                    inputs = (sampler,) if sampled else (q0, v0, U)
                    worker_cpu = client.run(time.process_time)
                    fetched = client.run(_sent_bytes)
                    with get_task_stream(client) as stream:
                        cpu, began, wall = time.process_time(), time.time(), time.perf_counter()
                        if npz:
                            rollout_to_npz(
                                client, spec, directory, *inputs, shared=shared, **kwargs
                            )
                        else:
                            X = out if shared is False else shared_out
                            rollout(client, spec, *inputs, shared=shared, out=X, **kwargs)
                        wall, ended = time.perf_counter() - wall, time.time()
                        cpu = time.process_time() - cpu
                    rates[way, workers].append(size * steps / wall)
                    if workers == 1:
                        continue
                    chunks = len(chunk_size)
                    tcp = shared is False
                    sent = sum(a.nbytes for a in inputs if isinstance(a, np.ndarray)) * tcp
                    fetched = sum(client.run(_sent_bytes).values()) - sum(fetched.values())
                    worker_cpu = sum(client.run(time.process_time).values()) - sum(
                        worker_cpu.values()
                    )
                    beyond = cpu - idle_rate * wall
                    costs[way].append(
                        (beyond, beyond / chunks, worker_cpu, sent, fetched)
                        + _idle_spans(stream.data, began, ended)
                    )
    results, summary = {}, {}
    for way in DASK_WAYS:
        one, two = rates[way, 1], rates[way, 2]
        ratios = [b / a for a, b in zip(one, two, strict=True)]
        results[way] = (max(one), max(two), ratios)
        columns = list(zip(*costs[way], strict=True))
        summary[way] = [min(c) for c in columns[:5]] + [float(np.median(c)) for c in columns[5:]]
    return results, summary, idle_rate, chunk_size


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=1000, help="rollouts per sample")
    parser.add_argument("--steps", type=int, default=1000, help="steps per rollout (1 ms)")
    parser.add_argument("--rounds", type=int, default=3, help="samples per library")
    parser.add_argument("--drake-rollouts", type=int, default=5)
    parser.add_argument("--dask", action="store_true", help="also time mallard.distributed")
    parser.add_argument(
        "--dask-model", default="acrobot", choices=("acrobot", "Panda"),
        help="the model --dask rolls out (one of --models)",
    )  # fmt: skip
    parser.add_argument(
        "--dask-chunks", default="equal", choices=("equal", "balanced"),
        help="--dask's chunks: 4 equal ones per worker, or balanced_chunks's",
    )  # fmt: skip
    parser.add_argument(
        "--models", default="acrobot,Panda,Panda with limits", help="comma-separated model names"
    )
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).parent / "results" / "rollouts.md"
    )
    args = parser.parse_args(argv)
    robots = default_robots_dir()
    rng = np.random.default_rng(0)
    cpu, cores, usable = machine_info()
    lines = [
        "# Batched rollouts: state-steps per second on one core (1 ms steps)",
        "",
        f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
        f"- machine: {cpu}, {cores} cores ({usable} usable), {platform.system()}",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()),
        f"- {args.batch} rollouts × {args.steps} steps per sample, median of {args.rounds}; "
        f"pydrake: {args.drake_rollouts} rollouts",
        "",
        "| model | library | state-steps/s | mallard / it | 10⁴ rollouts of 1 s take |",
        "|---|---|---|---|---|",
    ]
    dask_costs = None  # (set by the --dask runs)
    for name, (plant, urdf) in mallard_plants(robots).items():
        q0, v0 = initial_states(name, plant, args.batch, rng)
        if name not in args.models.split(","):
            continue
        nu = plant.num_actuated_dofs()
        U = rng.normal(size=(args.batch, args.steps, nu)) if nu else None
        state_steps = args.batch * args.steps
        rates = {
            "mallard": median_rate(
                mallard_run(plant, q0, v0, U, args.steps), state_steps, args.rounds
            ),  # fmt: skip
            "mujoco.rollout": median_rate(
                mujoco_run(name, urdf, q0, v0, U, args.steps), state_steps, args.rounds
            ),
        }
        k = args.drake_rollouts
        drake = pydrake_run(name, urdf, q0[:k], v0[:k], U, args.steps)
        rates["pydrake Simulator loop"] = median_rate(drake, k * args.steps, 1)
        for label, rate in rates.items():
            total = 1e4 * 1000 / rate
            lines.append(
                f"| {name} | {label} | {rate:.3g} | {rates['mallard'] / rate:.2f} | {total:.3g} s |"
            )
        if args.dask and name == args.dask_model:  # (4 batches: work enough for two processes)
            tiled = [
                None if a is None else np.tile(a, (4,) + (1,) * (a.ndim - 1)) for a in (q0, v0, U)
            ]
            with tempfile.TemporaryDirectory() as directory:
                scaling, dask_costs, idle_rate, chunks = dask_scaling(
                    *dask_spec(name, urdf), *tiled, args.steps, args.rounds, directory,
                    args.dask_chunks,
                )  # fmt: skip
            for way, (one, two, ratios) in scaling.items():
                lines.append(
                    f"| {name} | mallard.distributed ({way}), 1 worker | {one:.3g} | | |\n"
                    f"| {name} | mallard.distributed ({way}), 2 workers | {two:.3g} | "
                    f"2 workers / 1: {two / one:.2f} (rounds: "
                    f"{', '.join(f'{r:.2f}' for r in ratios)}) | |"
                )
    if dask_costs is not None:
        lines += [
            "",
            f"mallard.distributed's costs per run of {4 * args.batch} {args.dask_model} rollouts "
            f"on 2 workers, in {len(chunks)} chunks ({args.dask_chunks}: "
            f"{', '.join(map(str, chunks))}; the same on 1 worker), least over the rounds "
            "(idle: median): the client process's CPU (the "
            f"LocalCluster's scheduler in it) beyond its idle {1e3 * idle_rate:.1f} ms/s, the "
            "workers' CPU, MB the client sent over TCP (the scattered arrays) and fetched "
            "(Dask's count), seconds the workers sat idle "
            "(summed over both) before their first chunk, between chunks, after their last; "
            "and the most two workers can give over one when they share two cores with the "
            "client's process (one worker has a core to itself), 2w / (w + c), w the workers' "
            "CPU and c the client's:",
            "",
            "| way | client CPU | per chunk | workers' CPU | MB sent | MB fetched | idle: "
            "start | between | end | 2w / (w + c) |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for way, (cpu, per_chunk, workers, sent, fetched, *idle) in dask_costs.items():
            lines.append(
                f"| {way} | {cpu:.3f} s | {1e3 * per_chunk:.1f} ms | {workers:.2f} s | "
                f"{sent / 1e6:.0f} | {fetched / 1e6:.0f} | "
                + " | ".join(f"{t:.3f}" for t in idle)
                + f" | {2 * workers / (workers + cpu):.2f} |"
            )
    text = "\n".join(lines) + "\n"
    print(text)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)


if __name__ == "__main__":
    main()
