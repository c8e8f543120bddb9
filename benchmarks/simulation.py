"""Wall time per simulated second: the Panda falling passively from its home pose, in mallard,
pydrake and MuJoCo, in one run.

Rows:

* **continuous, RK3 at accuracy 1e-3**: a continuous MultibodyPlant (time_step 0) under the
  Simulator with SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-3) in mallard
  and pydrake (error-controlled, the same step sizes in both); MuJoCo's RK4 at a fixed 1 ms
  step for scale (MuJoCo has no error-controlled integrator).
* **discrete, 1 ms**: a discrete MultibodyPlant (time_step 1e-3, joint limits enforced: SAP in
  pydrake, exact complementarity in mallard) advanced by the Simulator; MuJoCo's default
  semi-implicit Euler at 1 ms with joint limits on.

The Panda is example-robot-data's ``panda.urdf`` as ``compare.py`` prepares it (no mimic, no
damping, no geometry; ``panda_link0`` welded to the world), zero actuation, gravity -9.81 m/s².
Each sample simulates one second from the home pose; samples of the libraries interleave, the
table gives the median of ``--rounds`` samples and the ratios to pydrake.

Run: ``python benchmarks/simulation.py`` (needs the ``bench`` extra); writes
``benchmarks/results/simulation.md``.
"""

import argparse
import datetime
import importlib
import platform
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from compare import clean_urdf, default_robots_dir, machine_info, measure, versions  # noqa: E402

PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.0, 0.0])
ROWS = ("continuous, RK3 at accuracy 1e-3", "discrete, 1 ms")


def drake_style_run(package, urdf, time_step, duration):
    """A function simulating the Panda for ``duration`` s in mallard or pydrake."""
    plant_mod = importlib.import_module(f"{package}.multibody.plant")
    parsing = importlib.import_module(f"{package}.multibody.parsing")
    analysis = importlib.import_module(f"{package}.systems.analysis")
    plant = plant_mod.MultibodyPlant(time_step)
    parsing.Parser(plant).AddModelsFromString(urdf, "urdf")
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    plant.Finalize()
    config = analysis.SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-3)

    def run():
        simulator = analysis.Simulator(plant)
        context = simulator.get_mutable_context()
        plant.SetPositions(context, PANDA_HOME)
        plant.get_actuation_input_port().FixValue(context, np.zeros(plant.num_actuators()))
        if time_step == 0:
            analysis.ApplySimulatorConfig(config, simulator)
        simulator.AdvanceTo(duration)
        return plant.GetPositions(context)

    return run


def mujoco_run(urdf, integrator, duration):
    import mujoco

    spec = mujoco.MjSpec.from_string(urdf)
    spec.compiler.fusestatic = False
    spec.compiler.inertiafromgeom = mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE
    m = spec.compile()
    m.opt.timestep = 1e-3
    m.opt.integrator = integrator
    d = mujoco.MjData(m)
    steps = round(duration / m.opt.timestep)

    def run():
        mujoco.mj_resetData(m, d)
        d.qpos[:] = PANDA_HOME
        for _ in range(steps):
            mujoco.mj_step(m, d)
        return d.qpos.copy()

    return run


def candidates(urdf, row, duration):
    """label → (function, simulated seconds per call) for one row."""
    time_step = 0.0 if row == ROWS[0] else 1e-3
    out = {
        package: (drake_style_run(package, urdf, time_step, duration), duration)
        for package in ("mallard", "pydrake")
    }
    try:
        import mujoco
    except ImportError:
        return out
    if time_step == 0:
        out["mujoco (RK4, 1 ms)"] = (
            mujoco_run(urdf, mujoco.mjtIntegrator.mjINT_RK4, duration),
            duration,
        )
    else:
        out["mujoco (Euler, 1 ms)"] = (
            mujoco_run(urdf, mujoco.mjtIntegrator.mjINT_EULER, duration),
            duration,
        )
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="samples per library and row")
    parser.add_argument("--duration", type=float, default=1.0, help="simulated seconds")
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).parent / "results" / "simulation.md"
    )
    args = parser.parse_args(argv)
    robots = default_robots_dir()
    if robots is None:
        sys.exit("example-robot-data is not installed: pip install '.[bench]'")
    urdf = clean_urdf((robots / "panda_description/urdf/panda.urdf").read_text())
    cpu, cores, usable = machine_info()
    lines = [
        "# Simulation: wall time per simulated second, the Panda falling passively",
        "",
        f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
        f"- machine: {cpu}, {cores} cores ({usable} usable), {platform.system()}",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()),
        "",
        "| row | library | s per simulated s | / pydrake |",
        "|---|---|---|---|",
    ]
    for row in ROWS:
        table = measure(candidates(urdf, row, args.duration), args.rounds, 0.0)
        for label, seconds in table.items():
            ratio = seconds / table["pydrake"]
            lines.append(f"| {row} | {label} | {seconds:.4f} | {ratio:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)


if __name__ == "__main__":
    main()
