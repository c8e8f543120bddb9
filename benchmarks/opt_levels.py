"""mallard's run time under numba's code generation settings (``NUMBA_OPT``,
``NUMBA_LOOP_VECTORIZE``...) or trees, area by area: docs/compilation.md, "What LLVM's
optimization level buys".

Each setting runs in a worker process of its own, on its own cache (``CACHE_ROOT/NAME``, or
``CACHE=`` another name under it: filled beforehand by ``NUMBA_CACHE_DIR=... mallard compile``
at that setting, both being in the cache key) and its own tree (``TREE=``, default the first
argument), with the environment variables given. A worker builds the mallard rows of
benchmarks/compare.py (single calls, the plant's and SingleStatePlant's, and BatchedPlant's
1000 states; Panda and G1), simulation.py, rollouts.py (200 rollouts × 1000 steps),
proximity.py and contact.py (0.25 s per run; ``--areas``: of compare, compare-single,
simulation, rollouts, proximity, contact), hashes each row's first result (SHA-256 of its
arrays and fields: the bits), then times a sample of each row (≥ ``--target`` s of CPU,
``time.process_time``) when asked; the workers take their samples in turn, the order
rotating each round. The table: each row's time per call (µs, least of the rounds) in the
first setting, and for the others the median of the rounds' ratios to it (BITS: its results
differ), then per area the geometric mean of the ratios and their range.

Run: ``python benchmarks/opt_levels.py TREE CACHE_ROOT --settings
"o3:NUMBA_OPT=3,o1:NUMBA_OPT=1,novec:NUMBA_LOOP_VECTORIZE=0" [--areas compare,rollouts]
[--rounds 5]`` (a setting: ``NAME:VAR=value+VAR=value``).
"""

import argparse
import gc
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np


def digest(x, h, depth=0):
    """Feeds ``x`` into the hash ``h``: arrays' bytes, numbers' reprs, the items of sequences,
    an object's public attributes and matrices (a pose's, a query result's fields)."""
    if isinstance(x, np.ndarray) and x.dtype == object:
        for item in x.ravel():
            digest(item, h, depth + 1)
    elif isinstance(x, np.ndarray):
        h.update(np.ascontiguousarray(x).tobytes())
    elif isinstance(x, (float, int, bool, str, np.floating, np.integer, np.bool_)) or x is None:
        h.update(repr(x).encode())
    elif isinstance(x, (list, tuple)):
        for item in x:
            digest(item, h, depth + 1)
    elif depth < 4:
        for name in sorted(dir(x)):
            if name.startswith("_"):
                continue
            try:
                value = getattr(x, name)
            except Exception:
                continue
            if not callable(value):
                digest(value, h, depth + 1)
            elif name in ("GetAsMatrix4", "value", "get_value"):
                try:
                    digest(value(), h, depth + 1)
                except Exception:
                    pass


def rows_compare(tree, rng_seed=0, batched=True):
    """label → (function, units per call): benchmarks/compare.py's mallard rows."""
    sys.path.insert(0, os.path.join(tree, "benchmarks"))
    import compare

    robots = compare.default_robots_dir()
    rows = {}
    for name in ("panda", "g1"):
        mdef = compare.model_defs(robots, [name])[0]
        mallard = compare.DrakeAPI("mallard", mdef, robots)
        rng = np.random.default_rng(rng_seed)
        single = {"mallard": mallard, "single-state": compare.MallardSingleState(mallard)}
        drake_states = [compare.random_drake_state(mallard, rng) for _ in range(16)]
        for label, lib in single.items():
            states = [lib.prepare(*compare.native_state(lib, *s)) for s in drake_states]
            for op, fn in lib.timers().items():
                rows[f"compare single {name} {label}: {op}"] = (
                    lambda fn=fn, states=states: fn(states),
                    len(states),
                )
        if not batched:
            continue
        batch = [compare.random_drake_state(mallard, rng) for _ in range(1000)]
        Q, V, A = (np.array([s[i] for s in batch]) for i in range(3))
        timers, notes = compare.mallard_batch_timers(mallard, Q, V, A, 1)
        assert not notes, notes
        for op, fn in timers.items():
            rows[f"compare batched {name}: {op}"] = (fn, 1000)
    return rows


def rows_simulation():
    """label → (function, units per call): benchmarks/simulation.py's mallard rows."""
    import simulation

    rows = {}
    for model in simulation.models():
        for row in simulation.ROWS:
            time_step = 0.0 if row == simulation.ROWS[0] else 1e-3
            run = simulation.drake_style_run("mallard", model, time_step, 1.0)
            rows[f"simulation {model.name}: {row}"] = (run, 1)
    return rows


def rows_rollouts():
    """label → (function, units per call): benchmarks/rollouts.py's mallard rows."""
    import rollouts
    from compare import default_robots_dir

    from mallard.multibody.batch import BatchedPlant

    rng = np.random.default_rng(0)
    rows, batch, steps = {}, 200, 1000
    for name, (plant, _) in rollouts.mallard_plants(default_robots_dir()).items():
        q0, v0 = rollouts.initial_states(name, plant, batch, rng)
        nu = plant.num_actuated_dofs()
        U = rng.normal(size=(batch, steps, nu)) if nu else None
        batched = BatchedPlant(plant, num_threads=1)
        out = np.empty((batch, steps, q0.shape[1] + v0.shape[1]))

        def call(b=batched, q0=q0, v0=v0, U=U, out=out):
            b.Rollout(q0, v0, U, num_steps=steps, out=out)
            return out

        rows[f"rollouts {name} ({batch} x {steps} steps)"] = (call, batch * steps)
    return rows


def rows_proximity():
    """label → (function, units per call): benchmarks/proximity.py's mallard rows."""
    import proximity as px

    import mallard.all as ml
    from mallard.multibody.batch import BatchedPlant

    rows = {}
    queries = {
        "ComputePointPairPenetration": lambda q: q.ComputePointPairPenetration(),
        "SignedDistancePairwise()": lambda q: q.ComputeSignedDistancePairwiseClosestPoints(),
        "SignedDistancePairwise(0.1)": lambda q: q.ComputeSignedDistancePairwiseClosestPoints(0.1),
        "HasCollisions": lambda q: q.HasCollisions(),
    }
    sg, context = px.primitives(ml)
    q = sg.get_query_output_port().Eval(context)
    for title, call in queries.items():
        rows[f"proximity 100 primitives: {title}"] = (lambda call=call, q=q: call(q), 1)
    import pydrake.all as pd

    reference = px.panda(pd)
    pairs = px.touching_at_zero(pd, *reference[1:3], reference[3])
    diagram, plant, sg, _ = px.panda(ml)
    px.filter_pairs(ml, plant, sg, pairs)
    context = diagram.CreateDefaultContext()
    rng = np.random.default_rng(2)
    lo, hi = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    Q = rng.uniform(lo, hi, (200, plant.num_positions()))
    plant_context, sg_context = (
        plant.GetMyContextFromRoot(context),
        sg.GetMyContextFromRoot(context),
    )
    port = sg.get_query_output_port()
    for title in ("ComputePointPairPenetration", "SignedDistancePairwise(0.1)", "HasCollisions"):

        def run(call=queries[title]):
            out = []
            for q in Q:
                plant.SetPositions(plant_context, q)
                out.append(call(port.Eval(sg_context)))
            return out

        rows[f"proximity Panda, new configuration per query: {title}"] = (run, len(Q))
    batched = BatchedPlant(plant, num_threads=1)
    Qb = rng.uniform(lo, hi, (2000, plant.num_positions()))
    for kind in ({}, {"min_distance": True}):
        rows[f"proximity CheckCollisions {kind}"] = (
            lambda kind=kind: batched.CheckCollisions(Qb, **kind),
            len(Qb),
        )
    return rows


def rows_contact():
    """label → (function, units per call): benchmarks/contact.py's mallard rows."""
    import contact

    rows = {}
    for scene in contact.scenes():
        for row in scene.rows:
            run = contact.drake_style_run("mallard", scene, row, 0.25)
            rows[f"contact {scene.name}: {row}"] = (run, 1)
    return rows


def worker(tree, areas, target):
    """A setting's process: builds the rows, prints their hashes and repetitions, then the
    µs per unit of each row for each input line."""
    sys.path.insert(0, os.path.join(tree, "benchmarks"))
    builders = {
        "compare": lambda: rows_compare(tree),
        "compare-single": lambda: rows_compare(tree, batched=False),
        "simulation": rows_simulation,
        "rollouts": rows_rollouts,
        "proximity": rows_proximity,
        "contact": rows_contact,
    }
    rows = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for area in areas:
            rows.update(builders[area]())
    setup = {}
    for label, (fn, _) in rows.items():
        h = hashlib.sha256()
        digest(fn(), h)
        began = time.process_time()
        fn()
        elapsed = max(time.process_time() - began, 1e-6)
        setup[label] = (h.hexdigest()[:16], max(1, math.ceil(target / elapsed)))
    print(json.dumps(setup), flush=True)
    gc.collect()
    gc.disable()
    for _ in sys.stdin:
        sample = {}
        for label, (fn, units) in rows.items():
            reps = setup[label][1]
            began = time.process_time()
            for _ in range(reps):
                fn()
            sample[label] = (time.process_time() - began) / (reps * units) * 1e6
        print(json.dumps(sample), flush=True)


def area_of(label):
    """The area of a row (its benchmark; compare.py's single calls and batched rows apart)."""
    words = label.split(" ")
    return " ".join(words[:2]) if words[0] == "compare" else words[0]


def table(setups, samples):
    """The rows' and areas' ratios to the first setting (see the module), as text."""
    names = list(setups)
    first = names[0]
    lines = [f"{'row':70s} {first + ' µs':>12s} " + " ".join(f"{n:>12s}" for n in names[1:])]
    by_area = {}
    for label in setups[first]:
        cells = []
        for name in names[1:]:
            ratios = [
                b[label] / a[label] for a, b in zip(samples[first], samples[name], strict=True)
            ]
            ratio = statistics.median(ratios)
            by_area.setdefault(area_of(label), {}).setdefault(name, []).append(ratio)
            bits = "" if setups[name][label][0] == setups[first][label][0] else " BITS"
            cells.append(f"{ratio:7.3f}{bits:>5s}")
        least = min(sample[label] for sample in samples[first])
        lines.append(f"{label[:70]:70s} {least:12.2f} " + " ".join(cells))
    lines.append("")
    for area, by_name in by_area.items():
        cells = []
        for name, ratios in by_name.items():
            mean = math.exp(statistics.mean(map(math.log, ratios)))
            cells.append(f"{name} {mean:.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
        lines.append(f"{area:16s} " + "  ".join(cells))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", help="the mallard tree of the settings without TREE=")
    parser.add_argument("cache_root", help="the directory of the settings' caches")
    parser.add_argument("--settings", required=True, help="NAME:VAR=value+VAR=value,...")
    parser.add_argument("--areas", default="compare,simulation,rollouts,proximity,contact")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--target", type=float, default=0.05, help="CPU seconds a row sample")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    areas = args.areas.split(",")
    if args.worker:
        return worker(args.tree, areas, args.target)
    settings = []
    for item in args.settings.split(","):
        name, assignments = item.split(":")
        settings.append((name, dict(a.split("=") for a in assignments.split("+") if a)))
    processes = []
    for name, env in settings:
        tree = os.path.abspath(env.pop("TREE", args.tree))
        cache = os.path.join(args.cache_root, env.pop("CACHE", name))
        command = [sys.executable, os.path.abspath(__file__), tree, args.cache_root,
                   "--settings", "-", "--areas", args.areas, "--target", str(args.target),
                   "--worker"]  # fmt: skip
        environment = dict(os.environ, PYTHONPATH=tree, NUMBA_CACHE_DIR=cache, **env)
        processes.append(subprocess.Popen(
            command, cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env=environment,
        ))  # fmt: skip
    setups = {}
    for (name, _), process in zip(settings, processes, strict=True):
        line = process.stdout.readline()
        if not line:
            sys.exit(f"the worker of {name} failed")
        setups[name] = json.loads(line)
    samples = {name: [] for name, _ in settings}
    for r in range(args.rounds):
        load = os.getloadavg()[0]
        for i in range(r, r + len(settings)):
            process = processes[i % len(settings)]
            process.stdin.write("sample\n")
            process.stdin.flush()
            samples[settings[i % len(settings)][0]].append(json.loads(process.stdout.readline()))
        print(f"round {r + 1} of {args.rounds} done (load {load:.1f})", flush=True)
    for process in processes:
        process.stdin.close()
        process.wait()
    print(table(setups, samples))


if __name__ == "__main__":
    main()
