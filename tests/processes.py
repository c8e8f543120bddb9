"""Python scripts run in fresh processes, for tests of what a process keeps (numba's on-disk
cache) or of what two processes do at once."""

import os
import subprocess
import sys


def environment(**values):
    """This process's environment without numba's and the XDG settings (NUMBA_*, XDG_*), with
    ``values`` (str() of each) added."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    return dict(env, **{k: str(v) for k, v in values.items()})


def start(script, *args, cwd, env):
    """A process running ``python -c script *args`` (str() of each) in ``cwd`` with ``env``."""
    return subprocess.Popen(
        [sys.executable, "-c", script, *map(str, args)],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def output(process):
    """What the process of :func:`start` printed, once it ended; the test fails, with what it
    printed on stderr, if the process failed."""
    stdout, stderr = process.communicate()
    assert process.returncode == 0, stderr
    return stdout


def run(script, *args, cwd, env):
    """What ``python -c script *args`` prints (see :func:`start`, :func:`output`)."""
    return output(start(script, *args, cwd=cwd, env=env))
