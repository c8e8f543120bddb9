"""Wall time per simulated second of a discrete plant (1 ms steps) through Drake's discrete
solvers, mallard beside pydrake, in one run.

Rows (the Panda of example-robot-data, ``panda_link0`` welded to the world, no geometry, from
its home pose for one simulated second):

* **falling without limits, SAP (kLagged)**: limits and mimic stripped: no constraint, the
  step is the free motion (the cost of a step outside the solver, for scale).
* **falling, SAP (kLagged)**: zero actuation; its joints hit their limits, the fingers'
  ``<mimic>`` is a coupler: SAP's constraints (limits near the state, the coupler).
* **falling, TAMSI**: the same under TAMSI (the mimic stripped: TAMSI takes no coupler); the
  limits are penalty forces.
* **PD-controlled, SAP (kLagged)**: the arm's 7 joints PD-controlled (Kp = 100, Kd = 10,
  effort limit 20 N·m) toward home + 0.5 rad: 7 PD constraints every step.

Each sample simulates one second with one ``Simulator.AdvanceTo``; samples of the libraries
interleave; the table gives the median of ``--rounds`` samples and the ratio to pydrake.

Run: ``python benchmarks/discrete_solvers.py`` (needs the ``bench`` extra); writes
``benchmarks/results/discrete_solvers.md``.
"""

import argparse
import datetime
import importlib
import platform
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from compare import default_robots_dir, machine_info, measure, versions  # noqa: E402

PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.0, 0.0])
ROWS = {
    "falling without limits, SAP (kLagged)": ("kLagged", False),
    "falling, SAP (kLagged)": ("kLagged", False),
    "falling, TAMSI": ("kTamsi", False),
    "PD-controlled, SAP (kLagged)": ("kLagged", True),
}


def panda_urdf(robots, mimic, limits=True):
    """The Panda URDF without geometry (and without its mimic tag unless ``mimic``, its
    position limits unless ``limits``)."""
    text = (robots / "panda_description/urdf/panda.urdf").read_text()
    patterns = [r"<visual\b.*?</visual>", r"<collision\b.*?</collision>"]
    if not mimic:
        patterns.append(r"<mimic[^>]*/>")
    if not limits:
        patterns += [r' lower="[^"]*"', r' upper="[^"]*"']
    for pattern in patterns:
        text = re.sub(pattern, "", text, flags=re.S)
    return text


def run_of(package, urdf, approximation, pd, duration):
    """A function simulating the Panda for ``duration`` s in mallard or pydrake."""
    plant_mod = importlib.import_module(f"{package}.multibody.plant")
    parsing = importlib.import_module(f"{package}.multibody.parsing")
    analysis = importlib.import_module(f"{package}.systems.analysis")
    tree = importlib.import_module(f"{package}.multibody.tree")
    plant = plant_mod.MultibodyPlant(1e-3)
    parsing.Parser(plant).AddModelsFromString(urdf, "urdf")
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    plant.set_discrete_contact_approximation(
        getattr(plant_mod.DiscreteContactApproximation, approximation)
    )
    if pd:
        for i in range(1, 8):
            actuator = plant.AddJointActuator(f"a{i}", plant.GetJointByName(f"panda_joint{i}"))
            actuator.set_controller_gains(tree.PdControllerGains(p=100.0, d=10.0))
            actuator.set_effort_limit(20.0)
    plant.Finalize()

    def run():
        simulator = analysis.Simulator(plant)
        context = simulator.get_mutable_context()
        plant.SetPositions(context, PANDA_HOME)
        if pd:
            desired = np.concatenate((PANDA_HOME[:7] + 0.5, np.zeros(7)))
            instance = plant.GetModelInstanceByName("panda")
            plant.get_desired_state_input_port(instance).FixValue(context, desired)
        simulator.AdvanceTo(duration)
        return plant.GetPositions(context)

    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="samples per library and row")
    parser.add_argument("--duration", type=float, default=1.0, help="simulated seconds")
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).parent / "results" / "discrete_solvers.md"
    )
    args = parser.parse_args(argv)
    robots = default_robots_dir()
    if robots is None:
        sys.exit("example-robot-data is not installed: pip install '.[bench]'")
    cpu, cores, usable = machine_info()
    lines = [
        "# Discrete solvers: wall time per simulated second of the Panda at 1 ms",
        "",
        f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
        f"- machine: {cpu}, {cores} cores ({usable} usable), {platform.system()}",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()),
        "",
        "| row | library | s per simulated s | / pydrake |",
        "|---|---|---|---|",
    ]
    for row, (approximation, pd) in ROWS.items():
        limits = not row.startswith("falling without")
        urdf = panda_urdf(robots, mimic=approximation != "kTamsi" and limits, limits=limits)
        candidates = {
            package: (run_of(package, urdf, approximation, pd, args.duration), args.duration)
            for package in ("mallard", "pydrake")
        }
        table = measure(candidates, args.rounds, 0.0)
        for label, seconds in table.items():
            ratio = seconds / table["pydrake"]
            lines.append(f"| {row} | {label} | {seconds:.4f} | {ratio:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)


if __name__ == "__main__":
    main()
