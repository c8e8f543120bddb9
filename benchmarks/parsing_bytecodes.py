"""The Python bytecodes mallard executes to parse, then Finalize, the cases of
``benchmarks/parsing.py`` (its URDF and SDFormat chains, MJCF chain and directives,
``write_cases``): a deterministic measure of the parsers' Python work (the same on a loaded
machine, unlike their times; C work, as expat's or numpy's, is not counted).

Run: python benchmarks/parsing_bytecodes.py [--links N] [--mjcf-links N] [--models N]
[--top K] [--case TEXT] (``--top``: also the K functions that execute the most, per case;
``--case``: only the cases whose label contains TEXT, e.g. MJCF).
"""

import argparse
import collections
import sys
import tempfile
from pathlib import Path

from parsing import library, new_plant, select, write_cases


def count(call, per_function):
    """(bytecodes, calls) that ``call()`` executes; ``per_function`` counts them by function."""
    totals = [0, 0]

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        if event == "opcode":
            totals[0] += 1
            code = frame.f_code
            per_function[
                f"{code.co_name} ({Path(code.co_filename).name}:{code.co_firstlineno})"
            ] += 1
        elif event == "call":
            totals[1] += 1
        return tracer

    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(None)
    return totals


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--links", type=int, default=200)
    parser.add_argument("--mjcf-links", type=int, default=200)
    parser.add_argument("--models", type=int, default=200)
    parser.add_argument("--top", type=int, default=0)
    parser.add_argument(
        "--case",
        action="append",
        help="only the cases whose label contains this text (any case; repeatable), e.g. MJCF",
    )
    args = parser.parse_args(argv)
    plant_class, parser_class = library("mallard")
    with tempfile.TemporaryDirectory() as directory:
        cases = write_cases(
            directory, links=args.links, mjcf_links=args.mjcf_links, models=args.models
        )
        cases = select(cases, args.case)
        for case, (path, scene_graph) in cases.items():
            plant = new_plant(plant_class, scene_graph)
            parser_class(plant).AddModels(str(path))  # (first: lazy imports, caches)
            plant.Finalize()
            per_function = collections.Counter()
            plant = new_plant(plant_class, scene_graph)

            def parse(plant=plant, path=path):
                parser_class(plant).AddModels(str(path))

            parsed = count(parse, per_function)
            finalized = count(plant.Finalize, collections.Counter())
            print(
                f"{case:36s} parse {parsed[0]:>9,} bytecodes {parsed[1]:>7,} calls; "
                f"Finalize {finalized[0]:>9,} bytecodes {finalized[1]:>7,} calls"
            )
            for function, n in per_function.most_common(args.top):
                print(f"    {100 * n / parsed[0]:5.1f}% {function}")


if __name__ == "__main__":
    main()
