"""Two mallard trees timed in turn (the ``*_trees.py`` benchmarks): each in a worker process
of its own (``PYTHONPATH`` its tree), taking one sample when asked, the order alternating from
round to round so that the machine's load hits both alike."""

import gc
import json
import os
import subprocess
import sys


def serve(take_sample):
    """A worker's loop: says "ready", then answers each input line with the JSON of
    ``take_sample()`` (a dict), the garbage collector off."""
    print("ready", flush=True)
    gc.disable()
    for _ in sys.stdin:
        print(json.dumps(take_sample()), flush=True)


def compare_models(tree, models):
    """benchmarks/compare.py of ``tree`` and, for each name in the comma-separated ``models``,
    (name, its model definition, its mallard DrakeAPI): the models a worker times."""
    sys.path.insert(0, os.path.join(tree, "benchmarks"))
    import compare

    robots = compare.default_robots_dir()
    built = []
    for name in models.split(","):
        mdef = compare.model_defs(robots, [name])[0]
        built.append((name, mdef, compare.DrakeAPI("mallard", mdef, robots)))
    return compare, built


def samples_in_turns(script, trees, worker_args, rounds):
    """([the samples of trees[0]], [those of trees[1]]) (a dict per round) and the load average
    at each round: ``script`` run for each tree as ``script TREE TREE --worker *worker_args``
    (its worker calling ``serve``)."""
    processes = []
    for tree in map(os.path.abspath, trees):
        command = [sys.executable, os.path.abspath(script), tree, tree, "--worker", *worker_args]
        processes.append(subprocess.Popen(
            command, cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONPATH=tree),
        ))  # fmt: skip
    for process in processes:
        if process.stdout.readline().strip() != "ready":
            sys.exit("a worker failed")
    samples, loads = ([], []), []
    for r in range(rounds):
        loads.append(os.getloadavg()[0])
        for i in (0, 1) if r % 2 == 0 else (1, 0):
            processes[i].stdin.write("sample\n")
            processes[i].stdin.flush()
            samples[i].append(json.loads(processes[i].stdout.readline()))
    for process in processes:
        process.stdin.close()
        process.wait()
    return samples, loads
