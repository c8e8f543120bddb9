"""Per-kernel timings of the dynamics kernels on the Panda arm (base welded; "panda_free":
floating) and the G1 humanoid (floating base), from example-robot-data's URDFs.

Each kernel is timed two ways, in µs per call: called in a compiled loop (no dispatch, the
workspace's views made once outside the loop), and through the plant's compiled entry point
from Python (``kernels(np.float64).drive_...``) recomputing only that stage or result; the
"all stages" rows recompute every stage the result needs, "nothing" is the bare cost of a
driver call.
The machine is shared: each figure is the minimum of many repetitions.

Run: python benchmarks/kernel_timings.py [--samples N] [panda panda_free g1]
"""

import argparse
import os
import re
import sys
import time

import numba
import numpy as np

from mallard._compiled import kernels
from mallard.multibody import _layout as L
from mallard.multibody._kernels.dynamics import (
    calc_acceleration_bias,
    calc_body_inertias,
    calc_forward_dynamics,
    calc_inverse_dynamics,
    calc_mass_matrix,
)
from mallard.multibody._kernels.kinematics import (
    ALL,
    calc_position_kinematics,
    calc_velocity_kinematics,
)
from mallard.multibody._kernels.views import model, parameters, workspace


def _robots():
    for p in sys.path:
        d = os.path.join(p, "cmeel.prefix", "share", "example-robot-data", "robots")
        if os.path.isdir(d):
            return d
    raise RuntimeError("example-robot-data not found")


def build(name):
    """(plant, context) of the Panda (base welded to World, "panda_free": floating) or the G1
    (floating base), at a random state."""
    from mallard.multibody.parsing import Parser
    from mallard.multibody.plant import MultibodyPlant

    robots = _robots()
    rel = {
        "panda": "panda_description/urdf/panda.urdf",
        "panda_free": "panda_description/urdf/panda.urdf",
        "g1": "g1_description/urdf/g1_29dof_rev_1_0.urdf",
    }[name]
    with open(os.path.join(robots, rel)) as f:
        text = re.sub(r"<mimic[^>]*/>", "", f.read())
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    # Meshes are package://example-robot-data/robots/... URLs.
    parser.package_map().Add("example-robot-data", os.path.dirname(robots))
    parser.AddModelsFromString(text, "urdf")
    if name == "panda":
        plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    rng = np.random.default_rng(1)
    q = plant.GetPositions(context) + 0.3 * rng.normal(size=plant.num_positions())
    plant.SetPositions(context, q)
    plant.SetVelocities(context, rng.normal(size=plant.num_velocities()))
    return plant, context


# ---- compiled loops over one kernel (the views of the workspace made once, outside) -----------
@numba.njit
def _loop_pos(mi, mf, x, ws, reps):
    m, params, work = model(mi, mf), parameters(mi, ws), workspace(mi, ws)
    for _ in range(reps):
        calc_position_kinematics(m, params, work, x[0 : m.nq], ALL, 0)


@numba.njit
def _loop_vel(mi, mf, x, ws, reps):
    m, work = model(mi, mf), workspace(mi, ws)
    for _ in range(reps):
        calc_velocity_kinematics(m, work, x[m.nq : m.nq + m.nv])


@numba.njit
def _loop_inertias(mi, mf, x, ws, reps):
    m, params, work = model(mi, mf), parameters(mi, ws), workspace(mi, ws)
    for _ in range(reps):
        calc_body_inertias(m, params, work)


@numba.njit
def _loop_bias(mi, mf, x, ws, reps):
    m, work = model(mi, mf), workspace(mi, ws)
    for _ in range(reps):
        calc_acceleration_bias(m, work, x[0 : m.nq], x[m.nq : m.nq + m.nv])


@numba.njit
def _loop_mass(mi, mf, x, ws, reps):
    m, params, work = model(mi, mf), parameters(mi, ws), workspace(mi, ws)
    for _ in range(reps):
        calc_mass_matrix(m, params, work, work.M)


@numba.njit
def _loop_id(mi, mf, x, ws, reps, vdot, tau_app, F_app):
    m, w = model(mi, mf), workspace(mi, ws)
    for _ in range(reps):
        calc_inverse_dynamics(m, w, w.V_WB, w.A_bias, vdot, F_app, tau_app, w.A_WB, w.F, w.tau)


@numba.njit
def _loop_fd(mi, mf, x, ws, reps, tau, F_app):
    m, params, work = model(mi, mf), parameters(mi, ws), workspace(mi, ws)
    s = 0
    for _ in range(reps):
        s += calc_forward_dynamics(
            m, params, work, tau, F_app, params.reflected, work.vdot, work.A_WB
        )
    return s


def _min_time(fn, reps, samples):
    best = float("inf")
    for _ in range(samples):
        t = time.perf_counter()
        fn()
        best = min(best, (time.perf_counter() - t) / reps)
    return best * 1e6


def time_model(name, samples):
    plant, context = build(name)
    ec = plant._engine.cache(context)
    flat = plant._engine
    mi, mf, ws = flat.mi, flat.mf, ec.ws
    x = plant._x(context).copy()
    nv = plant.num_velocities()
    rng = np.random.default_rng(2)
    vdot = rng.normal(size=nv)
    tau_app = rng.normal(size=nv)
    F_app = np.zeros((flat.sizes.n, 6))
    tau = rng.normal(size=nv)
    ALL = L.POSITIONS | L.VELOCITIES | L.INERTIAS | L.BIAS
    compiled = kernels(np.float64)
    compiled.drive_stages(mi, mf, x, ws, ALL)
    R = 1000
    rows = {}
    loops = {
        "position kinematics": lambda: _loop_pos(mi, mf, x, ws, R),
        "velocity kinematics": lambda: _loop_vel(mi, mf, x, ws, R),
        "body inertias": lambda: _loop_inertias(mi, mf, x, ws, R),
        "acceleration bias": lambda: _loop_bias(mi, mf, x, ws, R),
        "mass matrix": lambda: _loop_mass(mi, mf, x, ws, R),
        "inverse dynamics": lambda: _loop_id(mi, mf, x, ws, R, vdot, tau_app, F_app),
        "forward dynamics": lambda: _loop_fd(mi, mf, x, ws, R, tau, F_app),
    }
    for key, fn in loops.items():
        fn()
        rows[key] = [_min_time(fn, R, samples)]
    # Through the plant's drivers from Python (the stages the result needs, and the result).
    nb = plant.num_bodies()
    F_B = np.zeros((nb, 6))
    u = np.zeros(plant.num_actuated_dofs())
    drv = {
        k: getattr(compiled, k)
        for k in (
            "drive_stages",
            "drive_mass_matrix",
            "drive_inverse_dynamics",
            "drive_forward_dynamics",
        )
    }
    P, V, I, B = L.POSITIONS, L.VELOCITIES, L.INERTIAS, L.BIAS
    at, fd = compiled.address("stages_at"), compiled.address("forward_dynamics_at")
    calls = {
        "position kinematics": lambda: drv["drive_stages"](mi, mf, x, ws, P),
        "velocity kinematics": lambda: drv["drive_stages"](mi, mf, x, ws, V),
        "body inertias": lambda: drv["drive_stages"](mi, mf, x, ws, I),
        "acceleration bias": lambda: drv["drive_stages"](mi, mf, x, ws, B),
        "mass matrix": lambda: drv["drive_mass_matrix"](mi, mf, x, ws, 0, at),
        "inverse dynamics": lambda: drv["drive_inverse_dynamics"](
            mi, mf, x, ws, 0, vdot, tau_app, F_B, at
        ),
        "forward dynamics": lambda: drv["drive_forward_dynamics"](
            mi, mf, x, ws, 0, u, tau, F_B, fd
        ),
        "M all stages": lambda: drv["drive_mass_matrix"](mi, mf, x, ws, P | I, at),
        "ID all stages": lambda: drv["drive_inverse_dynamics"](
            mi, mf, x, ws, ALL, vdot, tau_app, F_B, at
        ),
        "FD all stages": lambda: drv["drive_forward_dynamics"](mi, mf, x, ws, ALL, u, tau, F_B, fd),
        "nothing": lambda: drv["drive_stages"](mi, mf, x, ws, 0),
    }
    K = 200

    for key, fn in calls.items():

        def many(fn=fn):
            for _ in range(K):
                fn()

        many()
        rows.setdefault(key, [float("nan")]).append(_min_time(many, K, samples))
    return plant, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("models", nargs="*", default=["panda", "g1"])
    args = ap.parse_args()
    for name in args.models:
        plant, rows = time_model(name, args.samples)
        nq, nv = plant.num_positions(), plant.num_velocities()
        print(f"\n{name}: {plant.num_bodies()} bodies, nq {nq}, nv {nv}")
        print(f"  {'kernel':22s} {'loop µs':>9s} {'driver µs':>10s}")
        for key, (a, b) in rows.items():
            print(f"  {key:22s} {a:9.3f} {b:10.3f}")


if __name__ == "__main__":
    main()
