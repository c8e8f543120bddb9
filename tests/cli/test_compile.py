"""``mallard compile``: its tasks reach every kernel entry point, it reports what each task
compiled, and it refuses unknown tasks."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from mallard.cli import _compile

REPOSITORY = Path(__file__).resolve().parents[2]


#: Entry points mallard calls interpreted only (never compiled outside the kernel tests), for
#: AutoDiffXd plants: sap_gradient differentiates a SAP step, drive_articulated_body is the
#: free motion's forward dynamics with h·D added.
INTERPRETED_ONLY = {"sap_gradient", "drive_articulated_body"}


def test_the_tasks_reach_every_entry_point():
    """In a fresh process, the tasks compile (or load from the cache) every entry point and
    by-address kernel of mallard._compiled, those of _compiled.JOINT_SPECIALIZED (all of
    which they reach through a model's kernels) for every set of joint types with the same
    argument types, so that ``mallard compile`` leaves nothing to compile for a model of any
    joint types."""
    script = textwrap.dedent(
        """
        import json
        from mallard import _compiled
        from mallard.cli._compile import TASKS, run_tasks
        from mallard.multibody._joint_types import KERNEL_JOINT_TYPES

        run_tasks(list(TASKS))
        for module in _compiled.ENTRY_MODULES:
            __import__(module)
        compiled = {fn for (fn, _), d in _compiled._COMPILED.items() if d.signatures}
        every = {**_compiled._ENTRY_POINTS, **_compiled._BY_ADDRESS}
        reached = [name for name, fn in every.items() if fn in compiled]
        per_set = {
            fn.__name__: [
                sorted(map(str, _compiled.compiled(fn, s).signatures)) for s in KERNEL_JOINT_TYPES
            ]
            for fn in _compiled._MODEL_ENTRY_POINTS
        }
        print(json.dumps([sorted(every), reached, per_set, sorted(_compiled.JOINT_SPECIALIZED)]))
        """
    )
    env = dict(os.environ, PYTHONPATH=str(REPOSITORY))
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    every, reached, per_set, specialized = json.loads(completed.stdout.splitlines()[-1])
    assert sorted(set(every) - set(reached) - INTERPRETED_ONLY) == []
    assert sorted(per_set) == specialized
    for name, (revolute, every_type) in per_set.items():
        assert revolute == every_type and revolute, name


def test_reports_each_task(run):
    result = run("compile", "--only", "dynamics,simulation-outputs", "--jobs", "1")
    assert result.status == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("dynamics: ") and "s CPU); compiled: " in lines[0]
    assert lines[1].startswith("simulation-outputs: ")
    assert lines[2].startswith("total: ") and "1 worker process(es)" in lines[2]


def test_worker_reports_as_json(run):
    result = run("compile", "--worker", "simulation-outputs")
    assert result.status == 0, result.err
    (report,) = json.loads(result.out)
    assert report["task"] == "simulation-outputs"
    assert set(report) == {"task", "seconds", "cpu", "kernels"}


def test_unknown_task(run):
    result = run("compile", "--only", "dynamics,everything")
    assert result.status == 2
    assert result.err_lines == [
        "mallard: error: unknown task(s) everything; the tasks are: " + ", ".join(_compile.TASKS)
    ]
    assert run("compile", "--jobs", "0").status == 2


def test_worker_groups_hold_each_task_once():
    """Workers run the tasks by groups (those sharing kernels in one process), the groups cut
    while there are more workers than groups, each task alone once there are as many."""
    every = sorted(_compile.TASKS)
    for jobs in range(1, len(every) + 2):
        groups = _compile.worker_groups(list(_compile.TASKS), jobs)
        assert sorted(name for group in groups for name in group) == every
        assert len(groups) == max(len(_compile.GROUPS), min(jobs, len(every)))
    assert _compile.worker_groups(["dynamics", "proximity"], 1) == [["dynamics"], ["proximity"]]
