"""The kernels' on-disk cache, in fresh processes running a copy of mallard: a second process
loads what the first compiled; editing a helper recompiles its callers, in other files too, and
nothing else; with no writable cache directory, kernels are cached in a temporary one, with one
warning that says how to choose one."""

import os
import pathlib
import shutil
import sys
import textwrap
import time

import pytest

import mallard
from tests import processes

KERNELS = "mallard.multibody._kernels."
PROBES = (KERNELS + "probe_caller.caller", KERNELS + "probe_other.other")
# Three kernels in three files (``caller`` calls ``helper_value`` of another file), a function
# compiled (mallard._compiled.compiled) outside the kernel packages, and one compiled by
# numba.njit(cache=True) elsewhere in mallard.
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
    "probe_plain.py": """\
        def plain(out):
            out[0] = 5.0
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


# SCRIPT, run after importing the modules of the functions it is given and then replacing, in
# a file, a text by another: the file, the text and its replacement come first on the command
# line, then SCRIPT's functions.
EDITING = (
    """
import importlib, pathlib, sys
path, old, new = sys.argv[1:4]
sys.argv[1:] = sys.argv[4:]
for name in sys.argv[1:]:
    importlib.import_module(name.rsplit(".", 1)[0])
pathlib.Path(path).write_text(pathlib.Path(path).read_text().replace(old, new))
"""
    + SCRIPT
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


def _run(root, env, *kernels, script=SCRIPT, edit=()):
    """The lines ``script`` (SCRIPT, or EDITING with ``edit``: the file, the text, its
    replacement) prints for ``kernels``, run from ``root`` (where the copy of mallard is):
    {function: (value, cache hits)}, warnings."""
    runs, warnings = {}, []
    for line in processes.run(script, *edit, *kernels, cwd=root, env=env).splitlines():
        if line.startswith("WARNING "):
            warnings.append(line[len("WARNING ") :])
        else:
            function, value, hits = line.split()
            runs[function] = (float(value), int(hits))
    return runs, warnings


def test_editing_a_helper_recompiles_its_callers_and_nothing_else(tmp_path):
    _copy_of_mallard(tmp_path)
    env = processes.environment(PYTHONPATH=tmp_path, NUMBA_CACHE_DIR=tmp_path / "cache")
    assert _run(tmp_path, env, *PROBES) == ({"caller": (1.0, 0), "other": (2.0, 0)}, [])
    assert _run(tmp_path, env, *PROBES) == ({"caller": (1.0, 1), "other": (2.0, 1)}, [])  # cached

    helper = tmp_path / "mallard" / "multibody" / "_kernels" / "probe_helper.py"
    helper.write_text(helper.read_text().replace("return 1.0", "return 3.0"))
    # The caller, in another file, is compiled again with the new helper (not stale); the
    # other kernel still comes from the cache.
    assert _run(tmp_path, env, *PROBES) == ({"caller": (3.0, 0), "other": (2.0, 1)}, [])


def test_a_process_that_imported_a_file_before_its_edit_does_not_cache_its_code(tmp_path):
    """A process that imported the kernels' modules, then saw a file they depend on edited
    (a helper's, or the file of a function compiled outside the kernel packages), runs the
    code it imported, uncached (it saved it under the stamp of the edited sources: every
    later process then ran the old helper, 1.0), with one warning that says so; the next
    process compiles the edited code, the one after loads it."""
    _copy_of_mallard(tmp_path)
    env = processes.environment(PYTHONPATH=tmp_path, NUMBA_CACHE_DIR=tmp_path / "cache")
    helper = tmp_path / "mallard" / "multibody" / "_kernels" / "probe_helper.py"
    plain = tmp_path / "mallard" / "probe_plain.py"
    caller, plain_name = PROBES[0], "mallard.probe_plain.plain"
    edit = (helper, "return 1.0", "return 3.0")
    runs, warned = _run(tmp_path, env, caller, script=EDITING, edit=edit)
    assert runs == {"caller": (1.0, 0)} and len(warned) == 1  # (it says so, once)
    assert "modified after this process imported mallard" in warned[0]
    edit = (plain, "5.0", "6.0")
    runs, warned = _run(tmp_path, env, plain_name, script=EDITING, edit=edit)
    assert runs == {"plain": (5.0, 0)} and len(warned) == 1
    assert _run(tmp_path, env, caller, plain_name) == ({"caller": (3.0, 0), "plain": (6.0, 0)}, [])
    assert _run(tmp_path, env, caller, plain_name) == ({"caller": (3.0, 1), "plain": (6.0, 1)}, [])


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
    env = processes.environment(PYTHONPATH=src, HOME=home, TMPDIR=tmp)
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


# ---- One function's cache entries: two processes saving at once, files of two builds mixed ----

# A function cached as mallard caches its kernels (njit_cached), whose two compiled signatures
# give results told apart by their type: plus_one(1) is the int 2, plus_one(1.0) the float 2.0.
PLUS_ONE = """\
from mallard.multibody._kernels._numba_internals import njit_cached


def plus_one(x):
    return x + 1


plus_one = njit_cached(plus_one)
"""

# Prints repr(plus_one(a)) for each argument a on the command line (a Python literal), then
# how many came from the cache.
CALL = """
import ast, sys
from plus_one import plus_one
results = [repr(plus_one(ast.literal_eval(a))) for a in sys.argv[1:]]
print(*results, sum(plus_one.stats.cache_hits.values()))
"""

# CALL with one argument, in a process numbered ``me`` (0 or 1) of two, each renaming files
# into the cache directory (numba writes a file to a temporary one, then renames it over its
# name) in turn, as TURNS orders their renames: each process's first waits until both have
# reached theirs (a rename not in TURNS waits for every one that is; a process that exited
# has made all of its own).
SCHEDULED = (
    """
import atexit, os, sys, time
turns, me, argument, cache = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
TURNS = [(0, 1), (1, 1), (1, 2), (0, 2)]
made = 0
rename = os.replace


def mark(name):
    open(os.path.join(turns, name), "w").close()


def wait_for_any(*names):
    deadline = time.monotonic() + 120
    while not any(os.path.exists(os.path.join(turns, n)) for n in names):
        if time.monotonic() > deadline:
            return
        time.sleep(0.001)


def in_turn(source, target):
    global made
    if not os.path.abspath(target).startswith(cache):
        return rename(source, target)
    made += 1
    mark(f"reached-{me}-{made}")
    if made == 1:
        wait_for_any(f"reached-{1 - me}-1", f"exit-{1 - me}")
    turn = TURNS.index((me, made)) if (me, made) in TURNS else len(TURNS)
    for j, m in TURNS[:turn]:
        wait_for_any(f"made-{j}-{m}", f"exit-{j}")
    rename(source, target)
    mark(f"made-{me}-{made}")


os.replace = in_turn
atexit.register(mark, f"exit-{me}")
sys.argv[1:] = [argument]
"""
    + CALL
)


def _plus_one(root):
    """The environment of processes running CALL in ``root``, where PLUS_ONE is written, with
    the cache ``root``/cache."""
    (root / "plus_one.py").write_text(PLUS_ONE)
    mallard_root = pathlib.Path(mallard.__file__).parents[1]
    return processes.environment(PYTHONPATH=mallard_root, NUMBA_CACHE_DIR=root / "cache")


def test_two_processes_saving_two_signatures_at_once_save_each_its_own(tmp_path):
    """Two processes compile plus_one, one for float64, the other for int64, into one cache,
    their writes interleaved as those of numba's own cache files lose: both read the index
    and take the first data file; one's index is written last, the other's data (a third
    process then ran the float64 code for plus_one(1): 2.0). Each signature keeps its own
    entry, which a third process loads."""
    env = _plus_one(tmp_path)
    turns = tmp_path / "turns"
    turns.mkdir()
    cache = os.path.join(tmp_path / "cache", "")
    writers = [
        processes.start(SCHEDULED, turns, me, argument, cache, cwd=tmp_path, env=env)
        for me, argument in enumerate(("1.0", "1"))
    ]
    assert [processes.output(w).split() for w in writers] == [["2.0", "0"], ["2", "0"]]
    assert processes.run(CALL, "1.0", "1", cwd=tmp_path, env=env).split() == ["2.0", "2", "2"]


def test_a_file_of_other_sources_copied_into_the_cache_is_not_run(tmp_path):
    """A cache whose data files were copied over from a cache of other sources (a partial
    restore, a copy taken while another tree compiled): plus_one's entry of ``x + 2`` (the same
    bytecode, so the same key, other sources) copied over that of ``x + 1`` is compiled again
    (numba's own files loaded it: plus_one(1) gave 3)."""
    env = _plus_one(tmp_path)
    source = tmp_path / "plus_one.py"
    first = source.stat()
    assert processes.run(CALL, "1", cwd=tmp_path, env=env).split() == ["2", "0"]
    shutil.copytree(tmp_path / "cache", tmp_path / "first")
    source.write_text(PLUS_ONE.replace("x + 1", "x + 2"))
    # (another stamp, in the past: a source modified after a process imported mallard, as one
    # stamped a second ahead would be on a fast machine, turns that process's cache off)
    os.utime(source, ns=(first.st_atime_ns, first.st_mtime_ns - 10**9))
    assert processes.run(CALL, "1", cwd=tmp_path, env=env).split() == ["3", "0"]
    second = tmp_path / "second"
    shutil.move(tmp_path / "cache", second)
    shutil.copytree(tmp_path / "first", tmp_path / "cache")
    for data in second.rglob("*.nbc"):
        shutil.copy(data, tmp_path / "cache" / data.relative_to(second))
    source.write_text(PLUS_ONE)
    os.utime(source, ns=(first.st_atime_ns, first.st_mtime_ns))
    assert processes.run(CALL, "1", cwd=tmp_path, env=env).split() == ["2", "0"]


# ---- Pruning: the files a save makes stale, `mallard cache` ------------------------------------


def _cache_dir(root):
    """The directory of plus_one's cache files (NUMBA_CACHE_DIR's subdirectory of ``root``)."""
    (directory,) = {path.parent for path in (root / "cache").rglob("plus_one.*")}
    return directory


def _entries(directory):
    return sorted(path.name for path in directory.glob("plus_one.plus_one-*.k*.nbc"))


def _edit_plus_one(root, old, new):
    """Replaces ``old`` by ``new`` in plus_one.py, its time of modification a second in the
    past (see test_a_file_of_other_sources_copied_into_the_cache_is_not_run)."""
    source = root / "plus_one.py"
    st = source.stat()
    source.write_text(source.read_text().replace(old, new))
    os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns - 10**9))


def test_saving_an_entry_removes_the_files_of_other_sources_and_numbas_own(tmp_path):
    """An edit of plus_one's source makes its entries stale: the next save removes them (and
    numba's own index and data files of plus_one, as releases before keyed files wrote), and
    keeps the entries of the current sources (the other signature's), the files of another
    function's old format, another module's and files being written."""
    env = _plus_one(tmp_path)
    assert processes.run(CALL, "1", "1.0", cwd=tmp_path, env=env).split() == ["2", "2.0", "0"]
    directory = _cache_dir(tmp_path)
    first = _entries(directory)
    assert len(first) == 2  # (int64 and float64)
    py = f"py{sys.version_info[0]}{sys.version_info[1]}"
    old_format = [f"plus_one.plus_one-4.{py}.nbi", f"plus_one.plus_one-4.{py}.1.nbc"]
    others = [
        f"plus_one.other-9.{py}.nbi",  # (another function's: mallard's if it is a kernel)
        f"elsewhere.plus_one-4.{py}.k0123456789abcdef0123.nbc",  # (another module's)
        f"plus_one.plus_one-4.{py}.k0123456789abcdef0123.nbc.tmp.0a1b",  # (being written)
    ]
    for name in old_format + others:
        (directory / name).write_bytes(b"")

    _edit_plus_one(tmp_path, "x + 1", "x + 2")
    assert processes.run(CALL, "1", cwd=tmp_path, env=env).split() == ["3", "0"]
    (saved,) = _entries(directory)  # (the int64 entry of x + 2; the two of x + 1 removed)
    assert saved in first  # (the same key and variant: the same name, another stamp)
    assert sorted(p.name for p in directory.iterdir()) == sorted([saved, *others])
    assert processes.run(CALL, "1.0", cwd=tmp_path, env=env).split() == ["3.0", "0"]
    assert len(_entries(directory)) == 2  # (of the same sources: both kept)
    assert processes.run(CALL, "1", "1.0", cwd=tmp_path, env=env).split() == ["3", "3.0", "2"]


# CALL in a process whose first open of a cache entry (KeyedCacheFile.load) marks "loading"
# in the directory argv[1] and waits for "pruned" there, before opening the file ("before") or
# after (else: argv[2]).
LOADING = (
    """
import os, sys, time
from mallard.multibody._kernels import _numba_internals
turns, when = sys.argv[1], sys.argv[2]
sys.argv[1:] = sys.argv[3:]


def wait_for(name):
    deadline = time.monotonic() + 120
    while not os.path.exists(os.path.join(turns, name)) and time.monotonic() < deadline:
        time.sleep(0.001)


first = [True]


def open_in_turn(path, mode="r", *args, **kwargs):
    if not (path.endswith(".nbc") and first and first.pop()):
        return open(path, mode, *args, **kwargs)
    if when == "before":
        open(os.path.join(turns, "loading"), "w").close()
        wait_for("pruned")
    f = open(path, mode, *args, **kwargs)
    if when != "before":
        open(os.path.join(turns, "loading"), "w").close()
        wait_for("pruned")
    return f


_numba_internals.open = open_in_turn
"""
    + CALL
)


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_process_loading_an_entry_another_removes_compiles_or_reads_it_whole(tmp_path, when):
    """A process loads plus_one's int64 entry while another, of edited sources, saves its
    float64 entry and removes that one: removed before the first opens it, the first compiles
    plus_one (no error); after (opened, not read), it reads the file whole (POSIX: a removed
    file stays readable while open; elsewhere removing an open file fails, and is left)."""
    env = _plus_one(tmp_path)
    assert processes.run(CALL, "1", cwd=tmp_path, env=env).split() == ["2", "0"]
    turns = tmp_path / "turns"
    turns.mkdir()
    loader = processes.start(LOADING, turns, when, "1", cwd=tmp_path, env=env)
    first = _entries(_cache_dir(tmp_path))
    while not (turns / "loading").exists() and loader.poll() is None:
        time.sleep(0.01)  # (until the loader has imported plus_one and is loading it)
    _edit_plus_one(tmp_path, "x + 1", "x + 2")
    assert processes.run(CALL, "1.0", cwd=tmp_path, env=env).split() == ["3.0", "0"]
    (saved,) = _entries(_cache_dir(tmp_path))
    assert saved not in first  # (x + 1's int64 entry removed)
    (turns / "pruned").touch()
    hits = "0" if when == "before" else "1"
    assert processes.output(loader).split() == ["2", hits]
    assert processes.run(CALL, "1", cwd=tmp_path, env=env).split()[0] == "3"


# `mallard cache ARGS...`, its output and exit status.
CLI = "import sys; from mallard.cli import main; sys.exit(main(sys.argv[1:]))"


def test_mallard_cache_lists_and_clears_mallards_files_only(tmp_path):
    """``mallard cache`` counts the cache's files by directory and state; ``clear --stale``
    removes those of other sources (an edited kernel's, not yet compiled again) and numba's
    own files of mallard's modules, ``clear`` every one; a file of another module stays."""
    _copy_of_mallard(tmp_path)
    env = processes.environment(PYTHONPATH=tmp_path, NUMBA_CACHE_DIR=tmp_path / "cache")
    assert _run(tmp_path, env, *PROBES) == ({"caller": (1.0, 0), "other": (2.0, 0)}, [])
    info = processes.run(CLI, "cache", cwd=tmp_path, env=env)
    assert "stale" not in info and "old format" not in info
    (directory,) = {path.parent for path in (tmp_path / "cache").rglob("probe_other.*")}
    assert f"{directory}: 2 current" in info  # (caller's and other's entries)

    other = tmp_path / "mallard" / "multibody" / "_kernels" / "probe_other.py"
    other.write_text(other.read_text().replace("2.0", "7.0"))
    py = f"py{sys.version_info[0]}{sys.version_info[1]}"
    (directory / f"probe_other.other-4.{py}.nbi").write_bytes(b"index")
    (directory / f"notmallard.other-4.{py}.nbi").write_bytes(b"another program's")
    info = processes.run(CLI, "cache", "info", cwd=tmp_path, env=env)
    assert f"{directory}: 1 current" in info and "1 old format (0.0 MB), 1 stale" in info
    assert "2 files" in info.splitlines()[-1] and "mallard cache clear --stale" in info

    cleared = processes.run(CLI, "cache", "clear", "--stale", cwd=tmp_path, env=env)
    assert cleared.startswith("removed 2 stale files")
    assert _run(tmp_path, env, *PROBES) == ({"caller": (1.0, 1), "other": (7.0, 0)}, [])
    assert processes.run(CLI, "cache", "clear", cwd=tmp_path, env=env).startswith("removed 2 ")
    assert sorted(path.name for path in directory.iterdir()) == [f"notmallard.other-4.{py}.nbi"]
    assert _run(tmp_path, env, PROBES[0]) == ({"caller": (1.0, 0)}, [])


def test_mallard_cache_errors(tmp_path, monkeypatch, capsys):
    """--stale without clear is a usage error (2); a file clear cannot remove, an error (1)
    naming it, after removing the others."""
    from mallard.cli import main
    from mallard.multibody._kernels import _numba_internals

    assert main(["cache", "info", "--stale"]) == 2
    assert "--stale goes with 'clear'" in capsys.readouterr().err
    kept, removed = tmp_path / "kept.nbc", tmp_path / "removed.nbc"
    files = [(str(path), 1, _numba_internals.STALE) for path in (kept, removed)]
    for path in (kept, removed):
        path.write_bytes(b"x")
    monkeypatch.setattr(_numba_internals, "cache_files", lambda package_dir: files)
    remove = os.remove

    def refuse_kept(path):
        if path == str(kept):
            raise PermissionError(13, "Permission denied")
        remove(path)

    monkeypatch.setattr(os, "remove", refuse_kept)
    assert main(["cache", "clear"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("removed 1 files") and f"{kept}: Permission denied" in err
    assert kept.exists() and not removed.exists()
