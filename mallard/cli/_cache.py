"""``mallard cache``: where numba's on-disk cache of mallard's compiled kernels is, how large,
and emptying it (``info``, ``clear``; as ``pip cache info``/``purge``).

The files are those of :func:`mallard.multibody._kernels._numba_internals.cache_files`: the
cache entries of mallard's own modules only, in every directory numba or mallard may have
written them, never another program's. Saving an entry already removes the entries it makes
stale (``KeyedCacheFile``); ``clear --stale`` removes those left (a kernel renamed or removed,
files of releases before keyed entries), ``clear`` every one.
"""

import os

HELP = "show the size of mallard's kernel cache, or empty it"
DESCRIPTION = """\
Shows where numba's on-disk cache of mallard's compiled kernels is and how large (info, the
default), or removes its files (clear; with --stale only those no run of these sources loads:
entries of other sources, unreadable ones, and the .nbi/.nbc files of numba's own format that
earlier mallard releases wrote).
Only mallard's cache files are listed or removed: those of its own modules, in __pycache__
beside its sources, NUMBA_CACHE_DIR, the user's cache directory and mallard's temporary one.
Saving a kernel already removes the entries of other sources of its module; a process that
loads a file another removes compiles the kernel again."""


def add_parser(subparsers, add_model_arguments):
    del add_model_arguments  # (no model)
    parser = subparsers.add_parser("cache", help=HELP, description=DESCRIPTION)
    parser.add_argument(
        "action",
        nargs="?",
        choices=("info", "clear"),
        default="info",
        help="info: the cache's directories, files and size (default); clear: remove its files",
    )
    parser.add_argument(
        "--stale",
        action="store_true",
        help="with clear: remove only the files no run loads (other sources, old formats)",
    )
    parser.set_defaults(run=run)


def _megabytes(size):
    return f"{size / 1e6:.1f} MB"


def run(args):
    import mallard
    from mallard.cli._model import CliError, UsageError
    from mallard.multibody._kernels import _machinery  # noqa: F401  (the kernels' stamps)
    from mallard.multibody._kernels._numba_internals import CURRENT, cache_files

    if args.stale and args.action != "clear":
        raise UsageError("--stale goes with 'clear'")
    files = cache_files(os.path.dirname(mallard.__file__))
    if args.action == "info":
        _print_info(files, CURRENT)
        return 0
    remove = [(path, size) for path, size, state in files if not args.stale or state != CURRENT]
    removed, failed = 0, []
    for path, size in remove:
        try:
            os.remove(path)
            removed += size
        except FileNotFoundError:  # (removed by another process meanwhile)
            pass
        except OSError as e:
            failed.append(f"{path}: {e.strerror}")
    what = "stale files" if args.stale else "files"
    print(f"removed {len(remove) - len(failed)} {what} ({_megabytes(removed)})")
    if failed:
        raise CliError(f"could not remove {len(failed)} file(s): {failed[0]}")
    return 0


def _print_info(files, current):
    """Prints the number and size of the cache's ``files`` ((path, size, state)), by
    directory and state; the files not in the state ``current`` together."""
    by_directory = {}
    for path, size, state in files:
        states = by_directory.setdefault(os.path.dirname(path), {})
        count, total = states.get(state, (0, 0))
        states[state] = (count + 1, total + size)
    total = sum(size for _, size, _ in files)
    print(f"mallard's kernel cache: {len(files)} files, {_megabytes(total)}")
    for directory, states in sorted(by_directory.items()):
        parts = ", ".join(
            f"{count} {state} ({_megabytes(size)})"
            for state, (count, size) in sorted(states.items())
        )
        print(f"  {directory}: {parts}")
    stale = [size for _, size, state in files if state != current]
    if stale:
        print(
            f"{len(stale)} files ({_megabytes(sum(stale))}) are not loaded by any run of these "
            "sources: 'mallard cache clear --stale' removes them"
        )
