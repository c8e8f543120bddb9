"""Forward dynamics is O(n): time EvalTimeDerivatives on 10- and 100-link revolute chains.

Each call changes q first, so that nothing comes from the cache. Reports the median time per
call of each chain and checks time(100) < 3 × 10 × time(10); with pydrake installed, times
the same chains in pydrake too and reports mallard's time as a ratio of pydrake's.

Run: python benchmarks/forward_dynamics_scaling.py
"""

import importlib
import statistics
import time

import numpy as np


def chain(n, library="mallard"):
    """A continuous plant of ``n`` links, each hanging 0.5 m below the last from a revolute
    joint, the axes alternating between x and y, built with ``library`` (mallard or
    pydrake); a context at a random velocity, and random positions to cycle through."""
    m = {
        name: importlib.import_module(f"{library}.{module}")
        for name, module in (("math", "math"), ("tree", "multibody.tree"))
    }
    plant = importlib.import_module(f"{library}.multibody.plant").MultibodyPlant(0.0)
    tree, RigidTransform = m["tree"], m["math"].RigidTransform
    parent = plant.world_frame()
    for i in range(n):
        M = tree.SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.5)
        body = plant.AddRigidBody(f"link{i}", M)
        axis = [1.0, 0.0, 0.0] if i % 2 == 0 else [0.0, 1.0, 0.0]
        plant.AddJoint(tree.RevoluteJoint(f"joint{i}", parent, body.body_frame(), axis))
        parent = body.body_frame()
        if i + 1 < n:
            parent = plant.AddFrame(
                tree.FixedOffsetFrame(f"tip{i}", body.body_frame(), RigidTransform([0, 0, -0.5]))
            )
    plant.Finalize()
    context = plant.CreateDefaultContext()
    rng = np.random.default_rng(0)
    plant.SetVelocities(context, rng.normal(size=n))
    return plant, context, rng.normal(size=(64, n))


def time_per_call(n, library="mallard", samples=41, calls=50):
    """The median over ``samples`` of the mean time of ``calls`` EvalTimeDerivatives calls."""
    plant, context, qs = chain(n, library)
    plant.EvalTimeDerivatives(context)  # Compiles the kernels (or loads them).
    times = []
    for s in range(samples):
        start = time.perf_counter()
        for c in range(calls):
            plant.SetPositions(context, qs[(s * calls + c) % len(qs)])
            plant.EvalTimeDerivatives(context)
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def main():
    t10, t100 = time_per_call(10), time_per_call(100)
    ratio = t100 / t10
    print(f"EvalTimeDerivatives, 10-link chain:  {t10 * 1e6:8.1f} µs per call")
    print(f"EvalTimeDerivatives, 100-link chain: {t100 * 1e6:8.1f} µs per call")
    print(f"ratio time(100) / time(10): {ratio:.2f} (O(n) requires < 30)")
    print("OK" if ratio < 30 else "FAIL: forward dynamics does not scale as O(n)")
    try:
        importlib.import_module("pydrake")
    except ImportError:
        return
    for n, ours in ((10, t10), (100, t100)):
        theirs = time_per_call(n, "pydrake")
        print(
            f"pydrake, {n}-link chain: {theirs * 1e6:8.1f} µs per call; "
            f"mallard / pydrake = {ours / theirs:.2f}"
        )


if __name__ == "__main__":
    main()
