"""A batch of one state (issue 22's bound: N = 1 within 2× of the single-state kernel alone).

For the cheap operations (body poses, mass matrix, inverse and forward dynamics, frame
Jacobian) on the Panda (base welded) and the G1 (floating base), wall µs per call of

* ``BatchedPlant(plant)`` with N = 1 (arrays (1, n));
* ``SingleStatePlant(plant)`` (1-D arrays: its checks, its output and its kernel);
* SingleStatePlant's kernel alone: the entry point (kernels.single) as the method calls it
  (numba's type test on the arguments, then the compiled function), on arrays made
  beforehand;
* the single-state kernel alone, as benchmarks/batch_threads.py times it: the plant's entry
  point on a Context's workspace, every stage recomputed (inverse dynamics with its force
  elements),

each the least over ``--samples`` samples of ``--calls`` calls, the three interleaved (on a
shared machine, the other programs' bursts only ever add time), with the ratios BatchedPlant /
SingleStatePlant, BatchedPlant / its kernel and BatchedPlant / the reference kernel.

Run: ``python benchmarks/batch_one_state.py [--samples 300] [--calls 200]``.
"""

import argparse
import gc
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batch_threads import TIP, batched_call, single_call, states  # noqa: E402
from kernel_timings import build  # noqa: E402

from mallard.multibody.batch import BatchedPlant  # noqa: E402
from mallard.multibody.single_state import SingleStatePlant  # noqa: E402

OPS = ("poses", "mass matrix", "inverse dynamics", "forward dynamics", "frame Jacobian")


def single_state_call(single, op, model, q, v, a):
    """SingleStatePlant's op at the state (q[0], v[0]) with accelerations a[0]."""
    frame = single.plant().GetBodyByName(TIP[model]).body_frame()
    q, v, a = q[0], v[0], a[0]
    return {
        "poses": lambda: single.CalcAllBodyPosesInWorld(q),
        "mass matrix": lambda: single.CalcMassMatrix(q),
        "inverse dynamics": lambda: single.CalcInverseDynamics(q, v, a),
        "forward dynamics": lambda: single.CalcForwardDynamics(q, v, a),
        "frame Jacobian": lambda: single.CalcJacobianSpatialVelocity(q, frame),
    }[op]


def bound_call(single, op, model, q, v, a):
    """SingleStatePlant's kernel of op (made by a call of its method beforehand), called as the
    method calls it, on arrays made once."""
    plant = single.plant()
    nv, nb = plant.num_velocities(), plant.num_bodies()
    frame_held = single._frame_held(plant.GetBodyByName(TIP[model]).body_frame())
    q, v, a, h, none = q[0], v[0], a[0], single._h, single._none
    X_WB, M, J = np.empty((nb, 4, 4)), np.empty((nv, nv)), np.empty((6, nv))
    tau, vdot = np.empty(nv), np.empty(nv)
    return {
        "poses": lambda: single._body_poses(h, q, X_WB),
        "mass matrix": lambda: single._mass_matrix(h, q, M),
        "inverse dynamics": lambda: single._inverse_dynamics(h, q, v, a, none, tau),
        "forward dynamics": lambda: single._forward_dynamics(h, q, v, a, none, vdot),
        "frame Jacobian": lambda: single._point_jacobian(frame_held, q, single._origin, J),
    }[op]


def least(fns, samples, calls):
    """The least seconds per call of each fn over ``samples`` samples of ``calls`` calls."""
    best = [np.inf] * len(fns)
    for _ in range(samples):
        for j, fn in enumerate(fns):
            began = time.perf_counter()
            for _ in range(calls):
                fn()
            best[j] = min(best[j], (time.perf_counter() - began) / calls)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--models", default="panda,g1")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(
        "| model | operation | BatchedPlant N = 1 / SingleStatePlant / its kernel / reference "
        "kernel, µs | ratios to each |"
    )
    print("|---|---|---|---|")
    gc.disable()  # (a collection inside a sample is another program's burst)
    for model in args.models.split(","):
        plant, context = build(model)
        batched, single = BatchedPlant(plant), SingleStatePlant(plant)
        for op in OPS:
            q, v, a = states(plant, context, 1, rng)
            fns = [
                batched_call(batched, op, model, q, v, a),
                single_state_call(single, op, model, q, v, a),
                single_call(op, plant, context, model),
            ]
            for fn in fns:  # (warm: compiled, bound)
                fn()
            fns.insert(2, bound_call(single, op, model, q, v, a))
            times = least(fns, args.samples, args.calls)
            print(
                f"| {model} | {op} | {' / '.join(f'{t * 1e6:.2f}' for t in times)} | "
                f"{', '.join(f'{times[0] / t:.2f}' for t in times[1:])} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
