"""The kernels' on-disk cache, in fresh processes running a copy of mallard: a second process
loads what the first compiled; editing a helper recompiles its callers, in other files too, and
nothing else; with no writable cache directory, kernels are cached in a temporary one, with one
warning that says how to choose one."""

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

import mallard

KERNELS = "mallard.multibody._kernels."
PROBES = (KERNELS + "probe_caller.caller", KERNELS + "probe_other.other")
# Three kernels in three files (``caller`` calls ``helper_value`` of another file), and a
# function compiled by numba.njit(cache=True) elsewhere in mallard (as the integrators' are).
PROBE_FILES = {
    "multibody/_kernels/probe_helper.py": """\
        from mallard.multibody._kernels._machinery import jitable


        @jitable
        def helper_value():
            return 1.0
        """,
    "multibody/_kernels/probe_caller.py": """\
        from mallard.multibody._kernels._machinery import jitable
        from mallard.multibody._kernels.probe_helper import helper_value


        @jitable
        def caller(out):
            out[0] = helper_value()
        """,
    "multibody/_kernels/probe_other.py": """\
        from mallard.multibody._kernels._machinery import jitable


        @jitable
        def other(out):
            out[0] = 2.0
        """,
    "probe_elsewhere.py": """\
        import numba


        @numba.njit(cache=True)
        def elsewhere(out):
            out[0] = 4.0
        """,
}

# Prints, for each function named on the command line (module.function: a kernel, compiled,
# or a numba dispatcher), what it wrote in out[0] and whether it came from the cache; then the
# warnings, one per line.
SCRIPT = textwrap.dedent(
    """
    import importlib, sys, warnings
    import numpy as np
    warnings.simplefilter("always")
    with warnings.catch_warnings(record=True) as caught:
        from mallard._compiled import compiled
        for name in sys.argv[1:]:
            module, function = name.rsplit(".", 1)
            f = getattr(importlib.import_module(module), function)
            f = f if hasattr(f, "stats") else compiled(f)
            out = np.zeros(1)
            f(out)
            print(function, out[0], f.stats.cache_hits.get(f.signatures[0], 0))
    for w in caught:
        print("WARNING", str(w.message).replace("\\n", " "))
    """
)


def _copy_of_mallard(root):
    """A copy of mallard's sources (no caches), with the probes, in ``root``, on which
    PYTHONPATH=root runs."""
    shutil.copytree(
        pathlib.Path(mallard.__file__).parent,
        root / "mallard",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    for name, text in PROBE_FILES.items():
        (root / "mallard" / name).write_text(textwrap.dedent(text))


def _run(root, env, *kernels, **options):
    """The lines SCRIPT prints for ``kernels``, run from ``root`` (where the copy of mallard
    is): {function: (value, cache hits)}, warnings."""
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, *kernels],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        **options,
    )
    assert result.returncode == 0, result.stderr
    runs, warnings = {}, []
    for line in result.stdout.splitlines():
        if line.startswith("WARNING "):
            warnings.append(line[len("WARNING ") :])
        else:
            function, value, hits = line.split()
            runs[function] = (float(value), int(hits))
    return runs, warnings


def _environment(**values):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    return dict(env, **{k: str(v) for k, v in values.items()})


def test_editing_a_helper_recompiles_its_callers_and_nothing_else(tmp_path):
    _copy_of_mallard(tmp_path)
    env = _environment(PYTHONPATH=tmp_path, NUMBA_CACHE_DIR=tmp_path / "cache")
    assert _run(tmp_path, env, *PROBES) == ({"caller": (1.0, 0), "other": (2.0, 0)}, [])
    assert _run(tmp_path, env, *PROBES) == ({"caller": (1.0, 1), "other": (2.0, 1)}, [])  # cached

    helper = tmp_path / "mallard" / "multibody" / "_kernels" / "probe_helper.py"
    helper.write_text(helper.read_text().replace("return 1.0", "return 3.0"))
    # The caller, in another file, is compiled again with the new helper (not stale); the
    # other kernel still comes from the cache.
    assert _run(tmp_path, env, *PROBES) == ({"caller": (3.0, 0), "other": (2.0, 1)}, [])


def _read_only(path):
    """Makes the directory ``path`` read-only, and its subdirectories and files; and, for a
    test run as root, where permissions do not bind, blocks where numba would make its cache
    directories (``__pycache__``, ``.cache``) with files."""
    for directory, _, files in os.walk(path):
        for name in ("__pycache__", ".cache"):
            if not os.path.exists(os.path.join(directory, name)):
                files.append(name)
                open(os.path.join(directory, name), "w").close()
        for name in files:
            os.chmod(os.path.join(directory, name), 0o444)
        os.chmod(directory, 0o555)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_without_a_writable_cache_directory_kernels_are_cached_in_a_temporary_one(tmp_path):
    """The package directory and HOME read-only, no NUMBA_CACHE_DIR: kernels, and functions
    numba compiles elsewhere in mallard, compile (numba alone raises "no locator available"),
    with one warning naming NUMBA_CACHE_DIR; a second process loads them from the temporary
    directory."""
    src, home, tmp = tmp_path / "src", tmp_path / "home", tmp_path / "tmp"
    _copy_of_mallard(src)
    home.mkdir()
    tmp.mkdir()
    _read_only(src)
    _read_only(home)
    env = _environment(PYTHONPATH=src, HOME=home, TMPDIR=tmp)
    try:
        elsewhere = "mallard.probe_elsewhere.elsewhere"
        runs, warnings = _run(src, env, *PROBES, elsewhere)
        assert runs == {"caller": (1.0, 0), "other": (2.0, 0), "elsewhere": (4.0, 0)}
        assert len(warnings) == 1
        assert "NUMBA_CACHE_DIR" in warnings[0] and str(tmp) in warnings[0]
        runs, warnings = _run(src, env, *PROBES, elsewhere)
        assert runs == {"caller": (1.0, 1), "other": (2.0, 1), "elsewhere": (4.0, 1)}
        assert len(warnings) == 1
    finally:
        for path in (src, home):
            for directory, _, _ in os.walk(path):
                os.chmod(directory, 0o755)
