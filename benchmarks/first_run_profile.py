"""What numba compiles in a first ``mallard simulate`` (or any mallard command), function by
function: run it in an empty cache (``NUMBA_CACHE_DIR=$(mktemp -d)``), from an empty directory
(the command writes its outputs there).

numba's compile events (``numba.core.event``: "numba:compile" per function compiled, nested;
"numba:run_pass" per compiler pass; "numba:llvm_lock" for the time in LLVM) give each function
its own CPU time (``time.process_time``, the functions it compiles for its callees excluded),
split by pass ("LLVM": in LLVM while the function is the innermost being compiled). With
``--llvm-parts``, LLVM's time per library: its functions optimized one by one ("function
passes"), its final module's optimization ("module passes"), machine code ("codegen").

Run: ``python benchmarks/first_run_profile.py [--top N] [--llvm-parts] [-- mallard args]``
(default: ``simulate``).
"""

import argparse
import collections
import os
import sys
import time

from numba.core import codegen, event

clock = time.process_time


class Profile:
    """Self CPU time per (compiled function, pass), from numba's events."""

    KINDS = ("numba:compile", "numba:run_pass", "numba:llvm_lock")

    def __init__(self):
        self.stack = []  # [kind, label, start, time of nested events]
        self.self_time = collections.Counter()  # (function, pass) → s
        self.compiled = []  # the functions compiled, in order

    def function(self):
        """The innermost function being compiled."""
        for kind, label, *_ in reversed(self.stack):
            if kind == "numba:compile":
                return label
        return "<none>"

    def listener(self, kind):
        profile = self

        class Listener(event.Listener):
            def on_start(self, ev):
                data = ev.data or {}
                if kind == "numba:compile":
                    py_func = getattr(data.get("dispatcher"), "py_func", None)
                    label = getattr(py_func, "__qualname__", "?")
                    profile.compiled.append(label)
                elif kind == "numba:run_pass":
                    label = data["name"].split(" [")[0]
                else:
                    label = "LLVM"
                profile.stack.append([kind, label, clock(), 0.0])

            def on_end(self, ev):
                kind_, label, start, nested = profile.stack.pop()
                spent = clock() - start
                if kind_ == "numba:compile":
                    key = (label, "(own)")
                else:
                    key = (profile.function(), label)
                profile.self_time[key] += spent - nested
                if profile.stack:
                    profile.stack[-1][3] += spent

        return Listener()


def time_llvm_parts(parts):
    """Adds LLVM's time per (part, library name) into ``parts``."""

    def timed(cls, name, label):
        original = getattr(cls, name)

        def wrapper(self, *args, **kwargs):
            start = clock()
            try:
                return original(self, *args, **kwargs)
            finally:
                parts[(label, self.name)] += clock() - start

        setattr(cls, name, wrapper)

    timed(codegen.CPUCodeLibrary, "_optimize_functions", "function passes")
    timed(codegen.CPUCodeLibrary, "_optimize_final_module", "module passes")
    timed(codegen.JITCodeLibrary, "_finalize_specific", "codegen")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=200, help="functions listed")
    parser.add_argument("--llvm-parts", action="store_true")
    parser.add_argument("command", nargs="*", default=["simulate"])
    args = parser.parse_args()
    profile = Profile()
    parts = collections.Counter()
    if args.llvm_parts:
        time_llvm_parts(parts)
    installed = [event.install_listener(k, profile.listener(k)) for k in Profile.KINDS]
    for manager in installed:
        manager.__enter__()
    start, wall = clock(), time.perf_counter()
    from mallard.cli import main as mallard_main

    sys.argv = ["mallard", *args.command]
    try:
        mallard_main()
    except SystemExit as exit_:
        if exit_.code:
            raise
    finally:
        for manager in installed:
            manager.__exit__(None, None, None)
    total, wall = clock() - start, time.perf_counter() - wall
    by_function, by_pass = collections.Counter(), collections.Counter()
    for (function, pass_), seconds in profile.self_time.items():
        by_function[function] += seconds
        by_pass[pass_] += seconds
    print(
        f"\nCPU {total:.2f} s (wall {wall:.2f} s), compiling {sum(by_function.values()):.2f} s, "
        f"{len(profile.compiled)} functions compiled; load average "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
    )
    print("by pass (s):")
    for pass_, seconds in by_pass.most_common(12):
        print(f"  {seconds:6.2f}  {pass_}")
    print("by function (s; its largest passes):")
    for function, seconds in by_function.most_common(args.top):
        largest = sorted(
            ((p, s) for (f, p), s in profile.self_time.items() if f == function),
            key=lambda item: -item[1],
        )[:4]
        print(
            f"  {seconds:6.2f}  {function}  [" + ", ".join(f"{p} {s:.2f}" for p, s in largest) + "]"
        )
    if parts:
        per_part = collections.Counter()
        for (part, _), seconds in parts.items():
            per_part[part] += seconds
        print("LLVM by part (s): " + ", ".join(f"{p} {s:.2f}" for p, s in per_part.items()))
        for (part, library), seconds in parts.most_common(15):
            print(f"  {seconds:6.2f}  {part}  {library}")


if __name__ == "__main__":
    main()
