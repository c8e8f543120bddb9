"""Wall time per simulated second: the acrobot and the Panda simulated passively in mallard,
pydrake and MuJoCo, in one run.

Models:

* **acrobot**: mallard's ``acrobot.urdf`` (the model ``mallard simulate`` runs by default:
  two links, joint damping 0.1) from q = (2.5, 0.5), at rest: chaotic. MuJoCo gets the same
  bodies and joints as MJCF (it does not take a URDF joint to the world).
* **Panda**: example-robot-data's ``panda.urdf`` as ``compare.py`` prepares it (no mimic, no
  damping, no geometry; ``panda_link0`` welded to the world), from its home pose.

Zero actuation, gravity -9.81 m/s². Rows:

* **continuous, RK3 at accuracy 1e-3**: a continuous MultibodyPlant (time_step 0) under the
  Simulator with SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-3) in mallard
  and pydrake (error-controlled, the same step sizes in both); MuJoCo's RK4 at a fixed 1 ms
  step for scale (MuJoCo has no error-controlled integrator).
* **discrete, 1 ms**: a discrete MultibodyPlant (time_step 1e-3; the Panda's joint limits
  enforced by Drake's SAP solver in both) advanced by the Simulator;
  MuJoCo's semi-implicit Euler at 1 ms (joint damping implicit, joint limits on), the same
  scheme as the plants' without limits.

Agreement first: before timing, each row's final positions after ``--duration`` are compared
with pydrake's; the run stops if mallard's differ by more than 1e-6 (the steps are the same).
MuJoCo's difference is printed, not checked.

Each sample resets the Context (time 0, the initial state), Initialize()s the Simulator it
made once and advances it ``--duration`` simulated seconds (MuJoCo: mj_resetData, then
mj_step); samples of the libraries interleave, the table gives the median of ``--rounds``
samples, the wall time per step, and the ratios to pydrake and to MuJoCo.

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

ROOT = Path(__file__).resolve().parent.parent
ROWS = ("continuous, RK3 at accuracy 1e-3", "discrete, 1 ms")
#: How far mallard's final positions may be from pydrake's.
TOLERANCE = 1e-6

ACROBOT_MJCF = """
<mujoco model="acrobot">
  <option timestep="0.001"/>
  <worldbody>
    <body name="link1">
      <joint name="shoulder" type="hinge" axis="0 1 0" damping="0.1"/>
      <inertial pos="0 0 -0.5" mass="1" diaginertia="0.083 0.083 1e-6"/>
      <body name="link2" pos="0 0 -1">
        <joint name="elbow" type="hinge" axis="0 1 0" damping="0.1"/>
        <inertial pos="0 0 -1" mass="1" diaginertia="0.33 0.33 1e-6"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


class Model:
    """A model as each library gets it: the URDF (Drake-style libraries), the MuJoCo model
    (MJCF text, or the URDF compiled by MjSpec), the link welded to the world and the
    initial positions."""

    def __init__(self, name, urdf, mjcf, weld, q0):
        self.name, self.urdf, self.mjcf, self.weld, self.q0 = name, urdf, mjcf, weld, q0


def models():
    acrobot = (ROOT / "mallard/models/acrobot.urdf").read_text()
    out = [Model("acrobot", acrobot, ACROBOT_MJCF, None, np.array([2.5, 0.5]))]
    robots = default_robots_dir()
    if robots is None:
        print("example-robot-data is not installed: the Panda is left out", file=sys.stderr)
        return out
    panda = clean_urdf((robots / "panda_description/urdf/panda.urdf").read_text())
    home = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.0, 0.0])
    return out + [Model("Panda", panda, None, "panda_link0", home)]


def drake_style_run(package, model, time_step, duration):
    """A function simulating ``model`` for ``duration`` s in mallard or pydrake; returns the
    final state and the steps taken."""
    plant_mod = importlib.import_module(f"{package}.multibody.plant")
    parsing = importlib.import_module(f"{package}.multibody.parsing")
    analysis = importlib.import_module(f"{package}.systems.analysis")
    plant = plant_mod.MultibodyPlant(time_step)
    parsing.Parser(plant).AddModelsFromString(model.urdf, "urdf")
    if model.weld:
        plant.WeldFrames(plant.world_frame(), plant.GetFrameByName(model.weld))
    plant.Finalize()
    simulator = analysis.Simulator(plant)
    context = simulator.get_mutable_context()
    plant.get_actuation_input_port().FixValue(context, np.zeros(plant.num_actuators()))
    if time_step == 0:
        config = analysis.SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-3)
        analysis.ApplySimulatorConfig(config, simulator)
    x0 = np.concatenate((model.q0, np.zeros(plant.num_velocities())))

    def run():
        context.SetTime(0.0)
        plant.SetPositionsAndVelocities(context, x0)
        simulator.Initialize()
        simulator.AdvanceTo(duration)
        return plant.GetPositions(context), simulator.get_num_steps_taken()

    return run


def mujoco_run(model, integrator, duration):
    import mujoco

    if model.mjcf is not None:
        m = mujoco.MjModel.from_xml_string(model.mjcf)
    else:
        spec = mujoco.MjSpec.from_string(model.urdf)
        spec.compiler.fusestatic = False
        spec.compiler.inertiafromgeom = mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE
        m = spec.compile()
    m.opt.timestep = 1e-3
    m.opt.integrator = integrator
    d = mujoco.MjData(m)
    steps = round(duration / m.opt.timestep)

    def run():
        mujoco.mj_resetData(m, d)
        d.qpos[:] = model.q0
        for _ in range(steps):
            mujoco.mj_step(m, d)
        return d.qpos.copy(), steps

    return run


def candidates(model, row, duration):
    """label → function for one model and row."""
    time_step = 0.0 if row == ROWS[0] else 1e-3
    out = {
        package: drake_style_run(package, model, time_step, duration)
        for package in ("mallard", "pydrake")
    }
    try:
        import mujoco
    except ImportError:
        return out
    if time_step == 0:
        out["MuJoCo (RK4, 1 ms)"] = mujoco_run(model, mujoco.mjtIntegrator.mjINT_RK4, duration)
    else:
        out["MuJoCo (Euler, 1 ms)"] = mujoco_run(model, mujoco.mjtIntegrator.mjINT_EULER, duration)
    return out


def check_agreement(model, row, runs):
    """{label: (max |q − q_pydrake| at the end, steps)}; SystemExit if mallard's is above the
    tolerance."""
    reference, _ = runs["pydrake"]()
    found = {}
    for label, run in runs.items():
        x, steps = run()
        found[label] = (float(np.max(np.abs(x - reference))), steps)
    tolerance = TOLERANCE
    if not found["mallard"][0] <= tolerance:
        sys.exit(
            f"{model.name}, {row}: mallard's final positions differ from pydrake's by "
            f"{found['mallard'][0]:.3g} (tolerance {tolerance:g})"
        )
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="samples per library and row")
    parser.add_argument("--duration", type=float, default=1.0, help="simulated seconds")
    parser.add_argument(
        "--sample-seconds", type=float, default=0.2, help="wall time of a sample (about)"
    )
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).parent / "results" / "simulation.md"
    )
    args = parser.parse_args(argv)
    lines = table_header("Simulation", "model")
    for model in models():
        for row in ROWS:
            runs = candidates(model, row, args.duration)
            lines += timed_rows(model.name, row, runs, check_agreement(model, row, runs), args)
    write_table(lines, args.output)


def table_header(title, what):
    """The first lines of a per-simulated-second table: the machine, versions and command,
    then the columns (``what``: the first column's name)."""
    cpu, cores, usable = machine_info()
    return [
        f"# {title}: wall time per simulated second",
        "",
        f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
        f"- machine: {cpu}, {cores} cores ({usable} usable), {platform.system()}",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()),
        "- command: " + " ".join(["python", *sys.argv]),
        "",
        f"| {what} | row | library | ms per simulated s | µs per step | / pydrake | / MuJoCo "
        "| steps | max abs q − pydrake's |",
        "|---|---|---|---|---|---|---|---|---|",
    ]


def timed_rows(name, row, runs, agreement, args):
    """The table's lines of one (model, row): each library's wall time per simulated second
    (``measure``, args.rounds samples of about args.sample_seconds), per step, and its ratios
    to pydrake's and to MuJoCo's (when it ran); ``agreement`` maps a label to (max abs q −
    pydrake's, or NaN when not comparable; steps taken)."""
    table = measure(
        {label: (run, args.duration) for label, run in runs.items()},
        args.rounds,
        args.sample_seconds,
    )
    mujoco = next((v for k, v in table.items() if k.startswith("MuJoCo")), None)
    lines = []
    for label, seconds in table.items():
        difference, steps = agreement[label]
        per_step = seconds * args.duration / steps * 1e6
        to_mujoco = f"{seconds / mujoco:.2f}" if mujoco else "—"
        shown = "—" if np.isnan(difference) else f"{difference:.2g}"
        lines.append(
            f"| {name} | {row} | {label} | {seconds * 1e3:.3g} | {per_step:.3g} "
            f"| {seconds / table['pydrake']:.2f} | {to_mujoco} | {steps} | {shown} |"
        )
    print(lines, flush=True)
    return lines


def write_table(lines, output):
    """Prints the table and writes it to ``output``."""
    text = "\n".join(lines) + "\n"
    print(text)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text)


if __name__ == "__main__":
    main()
