"""``mallard simulate``: a passive simulation (zero actuation, gravity) of a model, written to
trajectory files, a plot and an HTML replay, with a short summary."""

import math
import os
import sys
import time
import warnings

import numpy as np

from mallard.cli._compilation import CompilationWatch
from mallard.cli._model import (
    DEFAULT_MODEL,
    UsageError,
    coordinate_names,
    leave_out_collision_meshes_without_hull,
    load_model,
    parse_vector,
)
from mallard.cli._output import warn, write_trajectory
from mallard.cli._progress import ProgressBar
from mallard.geometry import Role
from mallard.math import RigidTransform
from mallard.systems.analysis import (
    ApplySimulatorConfig,
    ExtractSimulatorConfig,
    GetIntegrationSchemes,
    Simulator,
    SimulatorConfig,
)

# (Every command imports this module for its parser: the modules only a simulation uses, the
# logger, plot and replay, are imported where they are used.)

#: The initial positions (shoulder, elbow) of the default model: high enough for chaos.
DEMO_Q0 = (2.5, 0.5)
DEFAULT_OUT = "mallard_out"
DEFAULT_ACCURACY = 1e-6
_FIXED_STEP_SCHEMES = ("explicit_euler", "runge_kutta2", "semi_explicit_euler")
_DEFAULT_FIXED_STEP = 1e-3
#: The time step a model with constraints or a ground gets when none was asked for.
_CONSTRAINED_TIME_STEP = 1e-3
#: How high (m) above the ground a grounded model's lowest collision geometry starts (its
#: floating bases raised to it when they start lower and no --q0 was given).
_DROP_HEIGHT = 0.05

HELP = "simulate a model passively (zero actuation, under gravity) and save the results"
DESCRIPTION = f"""\
Simulates MODEL with zero actuation under gravity from --q0/--v0 (default: the model's
default positions, zero velocities) and writes into --out DIR: trajectory.npz (t, q, v,
their names and the energies), trajectory.csv (columns t, <joint>_q..., <joint>_v...),
plot.svg (the coordinates by kind, with their units, and the energies) and replay.html
(a self-contained 3D replay for any browser). Prints the steps taken, wall time, real-time
factor and energy drift (net of the joints' damping losses); on the first run after
install, also the time numba took to compile the kernels, apart.

Without MODEL: mallard's acrobot ({DEFAULT_MODEL}), a chaotic double
pendulum, from q0 = {",".join(map(str, DEMO_Q0))}.

A model with a floating base (a robot not welded to World) lands on a ground, World's
half space z <= 0 (friction 1; --no-ground leaves it out), and the replay draws the contact
forces as green double-sided arrows (point contact, Drake's ContactVisualizer's drawing).

The plant is continuous and integrated by runge_kutta3 with error control by default; a
model with constraints (e.g. mimic joints) or a ground becomes discrete, with --time-step
{_CONSTRAINED_TIME_STEP:g} and Drake's default discrete contact approximation (continuous
time does not support constraints, and makes contact stiff: give --integrator to keep a
grounded model continuous)."""


def _positive(text):
    value = float(text)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(text)
    return value


def _non_negative(text):
    value = float(text)
    if not (value >= 0 and math.isfinite(value)):
        raise ValueError(text)
    return value


_positive.__name__ = "positive number"
_non_negative.__name__ = "non-negative number"


def add_parser(subparsers, add_model_arguments):
    parser = subparsers.add_parser("simulate", help=HELP, description=DESCRIPTION)
    parser.add_argument(
        "model",
        nargs="?",
        metavar="MODEL",
        help=f"a .urdf/.sdf file or a package:// URL (default: {DEFAULT_MODEL})",
    )
    add_model_arguments(parser)
    parser.add_argument(
        "--duration",
        type=_positive,
        default=10.0,
        metavar="T",
        help="simulated time in s (default: 10)",
    )
    parser.add_argument(
        "--time-step",
        type=_non_negative,
        default=0.0,
        metavar="H",
        help="H > 0: a discrete plant stepped every H s (default: 0, continuous)",
    )
    parser.add_argument(
        "--integrator",
        choices=GetIntegrationSchemes(),
        metavar="NAME",
        help="the integration scheme of a continuous plant: "
        + ", ".join(GetIntegrationSchemes())
        + " (default: runge_kutta3)",
    )
    parser.add_argument(
        "--accuracy",
        type=_positive,
        metavar="A",
        help=f"target accuracy of an error-controlled integrator (default: {DEFAULT_ACCURACY:g})",
    )
    parser.add_argument(
        "--max-step-size",
        type=_positive,
        metavar="H",
        help="largest integration step in s (default: 0.1; the step of the fixed-step schemes "
        f"{', '.join(_FIXED_STEP_SCHEMES)}: {_DEFAULT_FIXED_STEP:g})",
    )
    parser.add_argument(
        "--q0", nargs="+", metavar="Q", help="initial positions, e.g. --q0 1.0,0.5 or --q0 1 0.5"
    )
    parser.add_argument("--v0", nargs="+", metavar="V", help="initial velocities (as --q0)")
    parser.add_argument(
        "--sample-period",
        type=_positive,
        default=0.01,
        metavar="P",
        help="the period in s at which the state is logged (default: 0.01)",
    )
    parser.add_argument(
        "--realtime-rate",
        type=_non_negative,
        default=0.0,
        metavar="R",
        help="slow the run down to R times real time (default: 0, as fast as possible)",
    )
    parser.add_argument(
        "--out",
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"the output directory, created if needed (default: ./{DEFAULT_OUT})",
    )
    parser.add_argument(
        "--no-ground",
        dest="ground",
        action="store_false",
        help="no ground under a floating-base model: it falls freely",
    )
    parser.add_argument(
        "--show-inertia",
        action="store_true",
        help="draw each body's inertia ellipsoid in the replay",
    )
    parser.set_defaults(run=run)


def _simulator_config(args):
    """The SimulatorConfig of a continuous plant, from the integration options."""
    scheme = args.integrator or "runge_kutta3"
    fixed = scheme in _FIXED_STEP_SCHEMES
    if fixed and args.accuracy is not None:
        raise UsageError(
            f"--accuracy does not apply to the fixed-step integrator {scheme}: set its step "
            "with --max-step-size"
        )
    max_step = args.max_step_size or (_DEFAULT_FIXED_STEP if fixed else 0.1)
    return SimulatorConfig(
        integration_scheme=scheme,
        max_step_size=max_step,
        accuracy=args.accuracy or DEFAULT_ACCURACY,
        target_realtime_rate=args.realtime_rate,
    )


def _load(args):
    """The loaded model (with a ground under a floating base unless --no-ground), made
    discrete if it has constraints or a ground and no integration option was given (a
    continuous plant cannot simulate constraints; contact makes it stiff)."""
    spec = args.model or DEFAULT_MODEL
    integration_options = [
        name
        for name, value in (
            ("--integrator", args.integrator),
            ("--accuracy", args.accuracy),
            ("--max-step-size", args.max_step_size),
        )
        if value is not None
    ]
    if args.time_step > 0 and integration_options:
        raise UsageError(
            f"{' and '.join(integration_options)} only apply to a continuous plant; "
            f"--time-step {args.time_step:g} makes a discrete one"
        )
    model = load_model(spec, args.package_path, args.time_step, ground=args.ground)
    constraints = model.plant.num_constraints()
    if args.time_step == 0 and constraints and integration_options:
        raise UsageError(
            f"the model has {constraints} constraint(s), which a continuous plant cannot "
            f"simulate: use --time-step instead of {', '.join(integration_options)}"
        )
    if args.time_step == 0 and (constraints or model.ground) and not integration_options:
        why = (
            f"the model has {constraints} constraint(s) (e.g. mimic joints), which a "
            "continuous plant cannot simulate"
            if constraints
            else "the model floats and lands on the ground (--no-ground leaves it out), which "
            "a discrete plant simulates at a steady cost"
        )
        print(
            f"mallard: note: {why}: using a discrete plant with --time-step "
            f"{_CONSTRAINED_TIME_STEP:g}",
            file=sys.stderr,
        )
        model = load_model(
            spec, args.package_path, _CONSTRAINED_TIME_STEP, quiet=True, ground=args.ground
        )
    leave_out_collision_meshes_without_hull(model)
    if model.ground and not _has_collision_geometry(model):
        warn(
            "the model has no collision geometry (left out or none in the file): it will fall "
            "through the ground"
        )
    return model


def _has_collision_geometry(model):
    """Whether any body but World has a geometry with the proximity role."""
    from mallard.geometry import Role

    inspector = model.scene_graph.model_inspector()
    world = inspector.world_frame_id()
    return any(
        inspector.GetFrameId(g) != world for g in inspector.GetAllGeometryIds(Role.kProximity)
    )


def run(args):
    from mallard.cli._replay import ContactLog
    from mallard.systems.primitives import LogVectorOutput

    config = None if args.time_step > 0 else _simulator_config(args)
    model = _load(args)
    plant = model.plant
    position_names, velocity_names = coordinate_names(plant)
    if args.q0 is not None:
        q0 = parse_vector(args.q0, position_names, "--q0")
    else:
        q0 = np.array(DEMO_Q0) if args.model is None else None
    v0 = parse_vector(args.v0, velocity_names, "--v0") if args.v0 is not None else None

    logger = LogVectorOutput(plant.get_state_output_port(), model.builder, args.sample_period)
    contact_log = (
        ContactLog.AddToBuilder(model.builder, plant, args.sample_period)
        if _has_collision_geometry(model)
        else None
    )
    if args.show_inertia:
        from mallard.visualization import InertiaVisualizer

        InertiaVisualizer.AddToBuilder(model.builder, plant, model.scene_graph)
    diagram = model.builder.Build()
    simulator = Simulator(diagram)
    if plant.time_step() == 0:
        ApplySimulatorConfig(config, simulator)
    else:
        simulator.set_target_realtime_rate(args.realtime_rate)
    context = simulator.get_mutable_context()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    if q0 is not None:
        plant.SetPositions(plant_context, q0)
    if v0 is not None:
        plant.SetVelocities(plant_context, v0)
    if model.ground and q0 is None:
        _raise_above_ground(model, diagram, context)
    plant.get_actuation_input_port().FixValue(plant_context, np.zeros(plant.num_actuators()))
    if plant.time_step() > 0:
        _warn_outside_limits(plant, plant.GetPositions(plant_context), position_names)

    with CompilationWatch() as compilation:
        _warm_up(diagram, simulator, plant)
        if contact_log is not None:
            contact_log.forces.clear()  # (what the warm-up's copy of the run recorded)
        compiled_before_run = compilation.seconds
        progress = ProgressBar(args.duration)
        start = time.perf_counter()
        try:
            for boundary in _pieces(args.duration, args.sample_period):
                simulator.AdvanceTo(boundary)
                progress.monitor(context)
        finally:
            progress.close()
        # A kernel the warm-up did not reach compiles during the run: not part of its time.
        wall_time = time.perf_counter() - start - (compilation.seconds - compiled_before_run)
        outputs = _write_outputs(
            args,
            model,
            logger.FindLog(context),
            position_names,
            velocity_names,
            diagram,
            contact_log,
        )
    _print_summary(args, model, simulator, wall_time, compilation.seconds, contact_log, *outputs)
    return 0


#: About how many pieces a run is advanced in (the progress bar is redrawn between them).
_PIECES = 100


def _pieces(duration, sample_period):
    """The times a run advances to one after the other: multiples of the sample period (the
    logger's publish times, where the integrator stops anyway, so that the steps are those
    of a single AdvanceTo), about every 1% of the run, then ``duration``."""
    every = max(1, math.floor(duration / (_PIECES * sample_period)))
    times = [k * sample_period for k in range(every, math.floor(duration / sample_period), every)]
    return [t for t in times if t < duration] + [duration]


def _warm_up(diagram, simulator, plant):
    """Runs, on a copy of the simulator's Context, what the run will compute (a first step
    of the same Simulator configuration, the energies and the poses), so that numba compiles
    their kernels (or loads them from its cache) before the timed run."""
    scratch = simulator.get_context().Clone()
    trial = Simulator(diagram, scratch)
    if plant.time_step() == 0:
        ApplySimulatorConfig(ExtractSimulatorConfig(simulator), trial)
        step = min(simulator.get_integrator().get_maximum_step_size(), 1e-3)
    else:
        step = plant.time_step()
    trial.set_target_realtime_rate(0.0)
    trial.AdvanceTo(scratch.get_time() + step)
    plant_context = plant.GetMyContextFromRoot(scratch)
    plant.EvalKineticEnergy(plant_context)
    plant.EvalPotentialEnergy(plant_context)
    plant.EvalBodyPoseInWorld(plant_context, plant.world_body())  # the replay's poses


def _write_outputs(args, model, log, position_names, velocity_names, diagram, contact_log):
    """Writes the trajectory files, the plot and the replay into args.out; returns (the
    trajectory, the paths written)."""
    from mallard.cli._plot import coordinate_panels, plot_svg
    from mallard.cli._replay import model_title, replay_html

    plant = model.plant
    x = np.array(log.data()).T
    nq = plant.num_positions()
    trajectory = {
        "t": np.array(log.sample_times()),
        "q": x[:, :nq],
        "v": x[:, nq:],
        "position_names": np.array(position_names),
        "velocity_names": np.array(velocity_names),
    }
    trajectory.update(_energies(plant, trajectory["t"], x))
    os.makedirs(args.out, exist_ok=True)
    written = list(write_trajectory(args.out, trajectory))
    subtitle = f"simulated for {args.duration:g} s ({_integration(args, plant)})"
    title = f"{model_title(plant)}: {subtitle}"
    path = os.path.join(args.out, "plot.svg")
    with open(path, "w", encoding="utf-8") as f:
        f.write(plot_svg(trajectory, *coordinate_panels(plant), title))
    written.append(path)
    html = replay_html(
        diagram,
        plant,
        model.scene_graph,
        trajectory["t"],
        x,
        subtitle,
        contact_log.forces if contact_log else None,
    )
    path = os.path.join(args.out, "replay.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    written.append(path)
    return trajectory, written


def _raise_above_ground(model, diagram, context):
    """Raises the floating bases of a grounded model in ``context`` (the diagram's) so that
    its lowest collision geometry (the bounding boxes of the geometries' shapes) starts
    _DROP_HEIGHT above the ground, if it starts lower (a model's default pose is usually at
    z = 0, half in the ground), with a note."""
    from mallard.geometry._replay import Replay

    plant, scene_graph = model.plant, model.scene_graph
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (a mesh it cannot read just leaves its box out)
        boxes = Replay(scene_graph.model_inspector(), Role.kProximity)
    boxes.AddPoses(0.0, scene_graph.get_query_output_port().Eval(
        scene_graph.GetMyContextFromRoot(context)))  # fmt: skip
    extent = boxes.boxes()
    if extent is None:
        return
    lift = _DROP_HEIGHT - extent[0][0, 2]
    if lift <= 0:
        return
    plant_context = plant.GetMyMutableContextFromRoot(context)
    for body in map(plant.get_body, sorted(plant.GetFloatingBaseBodies())):
        X_WB = plant.EvalBodyPoseInWorld(plant_context, body)
        plant.SetFreeBodyPose(
            plant_context, body, RigidTransform(X_WB.rotation(), X_WB.translation() + [0, 0, lift])
        )
    print(
        f"mallard: note: the model starts {lift:.3g} m higher than its default pose, "
        f"{_DROP_HEIGHT:g} m above the ground (give --q0 to start elsewhere)",
        file=sys.stderr,
    )


def _warn_outside_limits(plant, q, position_names):
    """Warns about the positions ``q`` outside the joint limits (which a discrete plant
    enforces, with forces that add energy)."""
    lower, upper = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    outside = [
        f"{name} = {x:g} not in [{lo:g}, {hi:g}]"
        for name, x, lo, hi in zip(position_names, q, lower, upper, strict=True)
        if not lo <= x <= hi
    ]
    if outside:
        warn(
            "the initial positions are outside the joint limits, which the discrete plant "
            "will push them back into: " + "; ".join(outside)
        )


def _energies(plant, t, x):
    """The kinetic and potential energy of ``plant`` at each state (row) of ``x`` at times
    ``t``, and the energy its joint damping dissipated since t[0]."""
    context = plant.CreateDefaultContext()
    kinetic, potential = np.empty(len(x)), np.empty(len(x))
    for i, state in enumerate(x):
        plant.SetPositionsAndVelocities(context, state)
        kinetic[i] = plant.EvalKineticEnergy(context)
        potential[i] = plant.EvalPotentialEnergy(context)
    damping = np.zeros(plant.num_velocities())
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        start = joint.velocity_start()
        damping[start : start + joint.num_velocities()] = joint.default_damping_vector()
    v = x[:, plant.num_positions() :]
    return {
        "kinetic_energy": kinetic,
        "potential_energy": potential,
        "damping_dissipated": _cumulative_integral(t, (v * v) @ damping),
    }


def _cumulative_integral(t, f):
    """∫ f dt from t[0] to each t[i], for samples f of a smooth function at the evenly spaced
    times t: the trapezoidal rule with its end correction -h²/12 (f'(t[i]) - f'(t[0]))
    (Euler-Maclaurin; f' by finite differences), so the error is O(h⁴) instead of O(h²)."""
    integral = np.concatenate([[0.0], np.cumsum(0.5 * (f[1:] + f[:-1]) * np.diff(t))])
    if len(t) >= 3:
        df = np.gradient(f, t, edge_order=2)
        integral -= (t[1] - t[0]) ** 2 / 12 * (df - df[0])
    return integral


def _energy_drift(trajectory):
    """(E(T) - E(0) + the energy damping dissipated, that drift relative to the energy range
    max kinetic + (max - min) potential, NaN if that range is 0)."""
    kinetic, potential = trajectory["kinetic_energy"], trajectory["potential_energy"]
    total = kinetic + potential
    drift = total[-1] - total[0] + trajectory["damping_dissipated"][-1]
    scale = kinetic.max() + potential.max() - potential.min()
    return drift, drift / scale if scale > 0 else math.nan


def _integration(args, plant):
    """How ``plant`` was simulated: "continuous, runge_kutta3, accuracy 1e-06"..."""
    if plant.time_step() > 0:
        return f"discrete, time step {plant.time_step():g} s"
    config = _simulator_config(args)
    how = f"continuous, {config.integration_scheme}"
    if config.integration_scheme in _FIXED_STEP_SCHEMES:
        return how + f", step {config.max_step_size:g} s"
    return how + f", accuracy {config.accuracy:g}"


def _print_summary(args, model, simulator, wall_time, compile_time, contact_log, trajectory,
                   written):  # fmt: skip
    how = _integration(args, model.plant)
    total = trajectory["kinetic_energy"] + trajectory["potential_energy"]
    dissipated = trajectory["damping_dissipated"][-1]
    drift, relative = _energy_drift(trajectory)
    rate = args.duration / wall_time if wall_time > 0 else math.inf
    print(f"simulated {args.model or DEFAULT_MODEL} for {args.duration:g} s ({how})")
    print(
        f"  steps: {simulator.get_num_steps_taken()}, wall time: {wall_time:.3g} s, "
        f"real-time factor: {rate:.3g}"
    )
    if compile_time > 0:
        print(
            f"  kernel compilation: {compile_time:.3g} s (first run only; not in the wall time "
            "and real-time factor)"
        )
    print(
        f"  energy: E(0) = {total[0]:.6g} J, E(T) = {total[-1]:.6g} J, "
        f"dissipated by joint damping: {dissipated:.6g} J"
    )
    relative = "no energy exchanged" if math.isnan(relative) else f"{relative:.3g} of the range"
    print(f"  energy drift E(T) - E(0) + dissipated: {drift:.3g} J ({relative})")
    if contact_log is not None:
        _, forces = contact_log.forces[max(contact_log.forces)]
        largest = np.linalg.norm(forces, axis=1).max() if len(forces) else 0.0
        print(
            f"  contact at T: {len(forces)} point(s), the largest force {largest:.4g} N (the "
            "energy drift includes what contact dissipated)"
        )
    print("  wrote: " + ", ".join(written))
