"""Where the proximity queries' kernels spend their time: the narrowphase per pair of shape kinds
on benchmarks/proximity.py's scene of 100 mixed primitives (mallard only).

For ComputeSignedDistancePairwiseClosestPoints (every pair) and ComputePointPairPenetration
(the broadphase's candidates), the compiled entry point (``proximity_signed_distances``,
``proximity_penetrations``) is called on the pairs of each kind of pair alone, separated pairs
apart from overlapping ones (GJK alone, or GJK then EPA; MPR finding no penetration, or
refining one): the least CPU time of many calls, per pair. The entry point's own cost is
measured on no pair and subtracted. What a query adds around its kernels (broadphase, result
records) is the query's time less the sum. Run: ``python benchmarks/proximity_kernels.py``.
"""

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from proximity import primitives  # noqa: E402

import mallard.all as ml  # noqa: E402
from mallard.geometry import _proximity_layout as layout  # noqa: E402

NAMES = dict(enumerate(("sphere", "box", "capsule", "cylinder", "ellipsoid")))


def least(fn, repeats):
    """The least CPU time (µs) of ``repeats`` calls of fn."""
    best = np.inf
    for _ in range(repeats):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best * 1e6


def kernel_timer(model, X_WG, name, columns, *arguments):
    """A function of an array of pairs: the µs of entry point ``name`` on them (the call's own
    cost subtracted) and how many it reports."""
    out = np.empty((4950, columns))
    found = np.empty((4950, 2), dtype=np.int64)

    def run(pairs):
        model.pairs[: len(pairs)] = pairs
        rest = (np.inf, out) if name == "proximity_signed_distances" else (out, found)
        return model.call(name, X_WG, model.pairs, len(pairs), *rest)

    empty = least(lambda: run(model.pairs[:0]), 200)

    def timed(pairs):
        found = run(pairs)
        return max(least(lambda: run(pairs), 20) - empty, 0.0), found, out[:found].copy()

    return timed


def table(title, model, pairs, timed, overlapping):
    """Prints the time per kind of pair, separated and overlapping apart; returns the sum."""
    kinds = model.kinds
    groups = {}
    for (a, b), hit in zip(pairs, overlapping, strict=True):
        key = tuple(sorted((NAMES[kinds[a]], NAMES[kinds[b]])))
        groups.setdefault(key, ([], []))[1 if hit else 0].append((a, b))
    print(f"\n{title}")
    print("| pair | pairs | µs | ns per pair | overlapping | µs | µs per pair |")
    print("|---|---|---|---|---|---|---|")
    total = 0.0
    for key, (apart, overlap) in sorted(groups.items()):
        t_apart = timed(np.array(apart, dtype=np.int64).reshape(-1, 2))[0] if apart else 0.0
        t_overlap = timed(np.array(overlap, dtype=np.int64).reshape(-1, 2))[0] if overlap else 0.0
        total += t_apart + t_overlap
        per_apart = t_apart / len(apart) * 1e3 if apart else 0.0
        per_overlap = t_overlap / len(overlap) if overlap else 0.0
        print(
            f"| {key[0]}–{key[1]} | {len(apart)} | {t_apart:.0f} | {per_apart:.0f} | "
            f"{len(overlap)} | {t_overlap:.0f} | {per_overlap:.1f} |"
        )
    return total


def main():
    sg, context = primitives(ml)
    query = sg.get_query_output_port().Eval(context)
    query.ComputeSignedDistancePairwiseClosestPoints()
    query.ComputePointPairPenetration()
    model, X_WG, allowed, _ = query._engine()
    # Signed distance, every pair.
    pairs = model.kept_candidates(X_WG, allowed, np.inf).copy()
    timed = kernel_timer(model, X_WG, "proximity_signed_distances", layout.DISTANCE)
    phi = timed(pairs)[2][:, 0]
    kernels = table(
        "ComputeSignedDistancePairwiseClosestPoints(): separated pairs (GJK or a closed form), "
        "overlapping (GJK then EPA, or a closed form)",
        model,
        pairs,
        timed,
        phi < 0,
    )
    whole = least(lambda: query.ComputeSignedDistancePairwiseClosestPoints(), 10)
    print(f"kernels {kernels:.0f} µs; the query {whole:.0f} µs")
    # Penetration, the broadphase's candidates.
    pairs = model.kept_candidates(X_WG, allowed, 0.0).copy()
    count = len(pairs)
    timed = kernel_timer(model, X_WG, "proximity_penetrations", layout.PENETRATION)
    hits = np.array([timed(pairs[i : i + 1])[1] > 0 for i in range(count)])
    kernels = table(
        "ComputePointPairPenetration(): candidates apart, penetrating (MPR or a closed form)",
        model,
        pairs,
        timed,
        hits,
    )
    whole = least(lambda: query.ComputePointPairPenetration(), 200)
    print(f"kernels {kernels:.0f} µs; the query {whole:.0f} µs")


if __name__ == "__main__":
    main()
