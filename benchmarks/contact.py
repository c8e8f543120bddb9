"""Wall time per simulated second of contact scenes in mallard, pydrake and MuJoCo, in one run.

Scenes (point contact, ContactModel.kPoint; friction 0.5; gravity -9.81 m/s²):

* **sphere**: a 1 kg sphere of radius 0.1 m dropped from 0.3 m with a sideways velocity of
  0.5 m/s on a half space (it bounces, slides, then rolls).
* **20 boxes**: twenty 0.5 kg boxes (0.1 × 0.15 × 0.08 m, turned about z and slightly tilted)
  in four columns of five, 1.5 cm apart, dropped onto a half space: a pile.
* **Panda push**: example-robot-data's ``panda_collision.urdf`` (spheres and cylinders on its
  links, base welded to World, gravity off for the arm) from its home pose, its arm joints
  PD-controlled (Drake's PdControllerGains p = 100, d = 10: SAP's PD constraints) toward the
  home pose with the first joint at 1 rad, so that its hand sweeps into a 0.5 kg box resting
  on a table (an anchored box) and pushes it.

Rows: a discrete plant at 1 ms with Drake's default approximation (kLagged), kSap and kTamsi; a
continuous plant under the Simulator with RK3 at accuracy 1e-3 (the sphere only: the others
are too stiff to be worth it); MuJoCo (default solver, Euler at 1 ms) for scale on the sphere
and the boxes (its own contact model: not the same trajectory).

Agreement first: before timing, each row's final state after ``--duration`` is compared with
pydrake's; the run stops if mallard's positions differ by more than the row's tolerance: 1e-6
(the sphere and the Panda: the same steps, rounding apart); the continuous row, whose error
control chooses its steps from the contact forces, the integrator's accuracy 1e-3; the boxes
0.1 m, a check that it is the same pile and nothing more: a box resting on a face has one
contact point, its deepest vertex, which jumps between the face's corners on differences of
rounding (one box alone differs from pydrake by 1e-15 after 50 ms and by 0.5 mm after 100
ms). The table prints each row's difference. Timing as ``simulation.py``: each sample resets
the Context, Initialize()s the Simulator and advances it ``--duration`` simulated seconds;
the table gives the median of ``--rounds`` interleaved samples, the wall time per step, and
the ratios to pydrake and MuJoCo.

``--profile`` instead runs mallard's rows under cProfile and prints where the time goes
(grouped: proximity query, pair records, contact Jacobians and problem, SAP solver, framework).

Run: ``python benchmarks/contact.py`` (needs the ``bench`` extra and drake); writes
``benchmarks/results/contact.md``.
"""

import argparse
import importlib
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from compare import default_robots_dir  # noqa: E402
from simulation import table_header, timed_rows, write_table  # noqa: E402

CONTINUOUS = "continuous, RK3 at accuracy 1e-3"
DISCRETE = ("discrete 1 ms, kLagged", "discrete 1 ms, kSap", "discrete 1 ms, kTamsi")
ROWS = (*DISCRETE, CONTINUOUS)
#: The rows of the scenes TAMSI cannot take (a coupler, PD-controlled actuators: SAP only;
#: the pile of boxes: pydrake's TAMSI fails to converge at 0.71 s).
SAP_ROWS = DISCRETE[:2]
FRICTION = 0.5
BOX = (0.1, 0.15, 0.08)
PANDA = "panda_description/urdf/panda_collision.urdf"
#: How far a continuous row's final positions may be from pydrake's: the integrator's accuracy
#: (its error control picks its steps from the contact forces, so rounding changes them).
CONTINUOUS_TOLERANCE = 1e-3
PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.02, 0.02])


class Scene:
    """A scene as the Drake-style libraries build it (``build(m, plant)`` adds its bodies and
    geometry and returns the initial state for a finalized plant), its MJCF (or None), the rows
    it runs and the tolerance of its agreement with pydrake."""

    def __init__(self, name, build, mjcf, rows, tolerance=1e-6, inputs=None):
        self.name, self.build, self.mjcf, self.rows = name, build, mjcf, rows
        self.tolerance, self.inputs = tolerance, inputs


def _ground(m, plant, z=0.0):
    plant.RegisterCollisionGeometry(
        plant.world_body(),
        m.HalfSpace.MakePose(np.array([0.0, 0.0, 1.0]), np.array([0.0, 0.0, z])),
        m.HalfSpace(),
        "ground",
        m.CoulombFriction(FRICTION, FRICTION),
    )


def _free_body(m, plant, name, shape, inertia):
    body = plant.AddRigidBody(name, m.default_model_instance(), inertia)
    plant.RegisterCollisionGeometry(
        body, m.RigidTransform(), shape, name, m.CoulombFriction(FRICTION, FRICTION)
    )
    return body


def _finish(plant, poses, velocities):
    """Finalizes ``plant``; x0 for the free bodies' (quaternion wxyz, position) ``poses`` and
    spatial ``velocities`` (ω, v) in body order."""
    plant.Finalize()
    q0 = np.concatenate([np.concatenate(p) for p in poses])
    v0 = np.concatenate([np.concatenate(v) for v in velocities])
    return np.concatenate((q0, v0))


def build_sphere(m, plant):
    _ground(m, plant)
    _free_body(m, plant, "ball", m.Sphere(0.1), m.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    return _finish(plant, [([1.0, 0, 0, 0], [0.0, 0.0, 0.3])], [([0.0, 0, 0], [0.5, 0.0, 0.0])])


def _quaternion_product(a, b):
    w0, x0, y0, z0 = a
    w1, x1, y1, z1 = b
    return [
        w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
        w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
        w0 * y1 - x0 * z1 + y0 * w1 + z0 * x1,
        w0 * z1 + x0 * y1 - y0 * x1 + z0 * w1,
    ]


#: A small tilt (unit quaternion) of the boxes.
TILT = np.array([1.0, 0.03, 0.02, 0.0]) / np.linalg.norm([1.0, 0.03, 0.02, 0.0])


def _box_poses():
    poses = []
    for i in range(20):
        column, level = divmod(i, 5)
        angle = 0.3 * i  # (turned about z, then tilted: no face lands flat)
        q = _quaternion_product([np.cos(angle / 2), 0.0, 0.0, np.sin(angle / 2)], TILT)
        x, y = 0.2 * (column % 2) - 0.1, 0.2 * (column // 2) - 0.1
        poses.append((q, [x, y, BOX[2] / 2 + 0.005 + level * (BOX[2] + 0.015)]))
    return poses


def build_boxes(m, plant):
    _ground(m, plant)
    for i in range(20):
        inertia = m.SpatialInertia.SolidBoxWithMass(0.5, *BOX)
        _free_body(m, plant, f"box{i}", m.Box(*BOX), inertia)
    return _finish(plant, _box_poses(), [([0.0] * 3, [0.0] * 3)] * 20)


def build_panda(m, plant):
    robots = default_robots_dir()
    parser = m.Parser(plant)
    parser.package_map().Add("example-robot-data", str(robots.parent))
    panda = parser.AddModels(str(robots / PANDA))[0]
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    plant.set_gravity_enabled(panda, False)
    for i in range(7):
        joint = plant.GetJointByName(f"panda_joint{i + 1}")
        actuator = plant.AddJointActuator(f"motor{i + 1}", joint)
        actuator.set_controller_gains(m.PdControllerGains(p=100.0, d=10.0))
    plant.RegisterCollisionGeometry(
        plant.world_body(),
        m.RigidTransform([0.45, 0.25, 0.37]),
        m.Box(0.5, 0.5, 0.1),
        "table",
        m.CoulombFriction(FRICTION, FRICTION),
    )
    box = _free_body(
        m, plant, "box", m.Box(0.1, 0.1, 0.1), m.SpatialInertia.SolidBoxWithMass(0.5, 0.1, 0.1, 0.1)
    )
    plant.Finalize()
    x0 = np.zeros(plant.num_multibody_states())
    q0 = np.zeros(plant.num_positions())
    v0 = np.zeros(plant.num_velocities())
    for i, name in enumerate(["panda_joint1", "panda_joint2", "panda_joint3", "panda_joint4",
                              "panda_joint5", "panda_joint6", "panda_joint7",
                              "panda_finger_joint1", "panda_finger_joint2"]):  # fmt: skip
        joint = plant.GetJointByName(name)
        q0[joint.position_start()] = PANDA_HOME[i]
    start = box.floating_positions_start()
    q0[start : start + 7] = [1.0, 0.0, 0.0, 0.0, 0.29, 0.17, 0.4705]
    x0[: plant.num_positions()], x0[plant.num_positions() :] = q0, v0
    return x0


def panda_inputs(m, plant, context):
    """The arm's PD controllers turn its first joint from 0 to 1 rad, the rest held at home."""
    panda = plant.GetModelInstanceByName("panda")
    desired = np.concatenate((PANDA_HOME[:7], np.zeros(7)))
    desired[0] = 1.0
    plant.get_desired_state_input_port(panda).FixValue(context, desired)


#: The Go1's stance (hip, thigh, calf angles of each leg) and the height it is dropped from.
GO1_STANCE = {"hip": 0.0, "thigh": 0.9, "calf": -1.8}
GO1_HEIGHT = 0.32


def build_go1(m, plant):
    """The Unitree Go1 (example-robot-data; 12 actuators PD-controlled, Kp = 50, Kd = 2,
    through SAP's PD constraints) in its stance, dropped from 0.32 m onto a ground with
    friction 1 (stiffness from the penetration allowance), as tests/conformance's scene."""
    robots = default_robots_dir()
    parser = m.Parser(plant)
    parser.package_map().Add("example-robot-data", str(robots.parent))
    parser.AddModels(str(robots / "go1_description" / "urdf" / "go1.urdf"))
    plant.RegisterCollisionGeometry(
        plant.world_body(), m.RigidTransform(), m.HalfSpace(), "ground", m.CoulombFriction(1.0, 1.0)
    )
    for i in range(plant.num_actuators()):
        actuator = plant.get_joint_actuator(m.JointActuatorIndex(i))
        actuator.set_controller_gains(m.PdControllerGains(p=50.0, d=2.0))
    plant.Finalize()
    q0 = plant.GetDefaultPositions()
    for i, name in enumerate(plant.GetPositionNames(False)):
        q0[i] = next((a for part, a in GO1_STANCE.items() if part in name), q0[i])
    q0[6] = GO1_HEIGHT
    return np.concatenate((q0, np.zeros(plant.num_velocities())))


def go1_inputs(m, plant, context):
    """The PD targets: the stance, zero velocities; no feed-forward actuation."""
    joints = [plant.get_joint_actuator(m.JointActuatorIndex(i)).joint() for i in range(12)]
    desired = [next(a for part, a in GO1_STANCE.items() if part in j.name()) for j in joints]
    port = plant.get_desired_state_input_port(joints[0].model_instance())
    port.FixValue(context, np.concatenate((desired, np.zeros(12))))
    plant.get_actuation_input_port().FixValue(context, np.zeros(12))


SPHERE_MJCF = """
<mujoco><option timestep="0.001"/>
  <worldbody><geom type="plane" size="0 0 1" friction="0.5"/>
    <body pos="0 0 0.3"><freejoint/>
      <geom type="sphere" size="0.1" mass="1" friction="0.5"/></body>
  </worldbody>
</mujoco>
"""


def boxes_mjcf():
    bodies = []
    for q, p in _box_poses():
        bodies.append(
            f'<body pos="{p[0]} {p[1]} {p[2]}" quat="{q[0]} {q[1]} {q[2]} {q[3]}"><freejoint/>'
            f'<geom type="box" size="{BOX[0] / 2} {BOX[1] / 2} {BOX[2] / 2}" mass="0.5" '
            'friction="0.5"/></body>'
        )
    return (
        '<mujoco><option timestep="0.001"/><worldbody><geom type="plane" size="0 0 1" '
        f'friction="0.5"/>{"".join(bodies)}</worldbody></mujoco>'
    )


def scenes():
    out = [
        Scene("sphere", build_sphere, SPHERE_MJCF, ROWS),
        Scene("20 boxes", build_boxes, boxes_mjcf(), SAP_ROWS, tolerance=0.1),
    ]
    if default_robots_dir() is None:
        print("example-robot-data is not installed: the Panda is left out", file=sys.stderr)
        return out
    return out + [
        Scene("Panda push", build_panda, None, SAP_ROWS, inputs=panda_inputs),
        Scene("Go1 standing", build_go1, None, SAP_ROWS, inputs=go1_inputs),
    ]


def drake_style_run(package, scene, row, duration):
    """A function simulating ``scene`` for ``duration`` s in mallard or pydrake; returns the
    final state and the steps taken."""
    m = importlib.import_module(f"{package}.all")
    time_step = 0.0 if row == CONTINUOUS else 1e-3
    builder = m.DiagramBuilder()
    plant, _ = m.AddMultibodyPlantSceneGraph(builder, time_step)
    plant.set_contact_model(m.ContactModel.kPoint)
    if time_step > 0:
        approximation = row.rsplit(" ", 1)[1]
        plant.set_discrete_contact_approximation(
            getattr(m.DiscreteContactApproximation, approximation)
        )
    x0 = scene.build(m, plant)
    diagram = builder.Build()
    simulator = m.Simulator(diagram)
    context = simulator.get_mutable_context()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    if scene.inputs is not None:
        scene.inputs(m, plant, plant_context)
    if time_step == 0:
        config = m.SimulatorConfig(integration_scheme="runge_kutta3", accuracy=1e-3)
        m.ApplySimulatorConfig(config, simulator)

    def run():
        context.SetTime(0.0)
        plant.SetPositionsAndVelocities(plant_context, x0)
        simulator.Initialize()
        simulator.AdvanceTo(duration)
        return plant.GetPositionsAndVelocities(plant_context), simulator.get_num_steps_taken()

    run.plant = plant
    return run


def mujoco_run(scene, duration):
    import mujoco

    model = mujoco.MjModel.from_xml_string(scene.mjcf)
    data = mujoco.MjData(model)
    steps = round(duration / model.opt.timestep)

    def run():
        mujoco.mj_resetData(model, data)
        if scene.name == "sphere":
            data.qvel[0] = 0.5
        for _ in range(steps):
            mujoco.mj_step(model, data)
        return None, steps

    return run


def candidates(scene, row, duration):
    """label → function for one scene and row."""
    out = {package: drake_style_run(package, scene, row, duration)
           for package in ("mallard", "pydrake")}  # fmt: skip
    if scene.mjcf is not None and row != CONTINUOUS:
        try:
            import mujoco  # noqa: F401
        except ImportError:
            return out
        out["MuJoCo (Euler, 1 ms)"] = mujoco_run(scene, duration)
    return out


def check_agreement(scene, row, runs):
    """{label: (max |x − x_pydrake| of the positions at the end, steps)}; SystemExit if
    mallard's is above the scene's tolerance."""
    reference, _ = runs["pydrake"]()
    nq = runs["pydrake"].plant.num_positions()
    found = {}
    for label, run in runs.items():
        x, steps = run()
        difference = np.nan if x is None else float(np.max(np.abs(x[:nq] - reference[:nq])))
        found[label] = (difference, steps)
    tolerance = CONTINUOUS_TOLERANCE if row == CONTINUOUS else scene.tolerance
    if not found["mallard"][0] <= tolerance:
        sys.exit(
            f"{scene.name}, {row}: mallard's final positions differ from pydrake's by "
            f"{found['mallard'][0]:.3g} (tolerance {tolerance:g})"
        )
    return found


#: Profile groups: (label, substrings of "file:function" that belong to it), first match wins.
GROUPS = (
    ("SAP (driver and solver)", ("_kernels/sap.py", "_sap_driver.py")),
    ("contact problem (Jacobians, frames)", (
        "plant/_contact.py:__init__", "plant/_contact.py:_discrete_contacts",
        "plant/_contact.py:solved", "drive_point_jacobians", "drive_contact_problem",
    )),
    ("pair records and parameters", (
        "geometry/_query_results.py", "plant/_contact.py:_point_pairs", "_pair_entry",
        "_pair_parameters", "_relevant_pairs", "_contact_table", "pair_parameters",
        "combine_point_contact_parameters", "CalcContactFrictionFromSurfaceProperties",
    )),
    ("proximity query (poses, broad and narrow phase)", (
        "geometry/_query_object.py", "geometry/_proximity_engine.py", "geometry/_kernels/",
        "_geometry_frame_poses", "_calc_geometry_poses",
    )),
)  # fmt: skip


def _group(key):
    return next((g for g, keys in GROUPS if any(k in key for k in keys)), None)


def profile(scene, row, duration):
    """Prints the split of mallard's time (CPU time, under cProfile) on ``scene``/``row``:
    each group's inclusive time from callers outside it, less the time of other groups'
    functions it calls; the rest is the framework (the Simulator, events, ports, the free
    motion, state updates)."""
    import cProfile
    import pstats
    import time

    run = drake_style_run("mallard", scene, row, duration)
    run()
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    run()
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt
    found = dict.fromkeys([g for g, _ in GROUPS], 0.0)
    for (filename, _, function), (_, _, _, _, callers) in stats.stats.items():
        group = _group(f"{filename}:{function}")
        if group is None:
            continue
        for (cf, _, cfn), (_, _, _, inclusive) in callers.items():
            caller = _group(f"{cf}:{cfn}")
            if caller != group:
                found[group] += inclusive
                if caller is not None:
                    found[caller] -= inclusive
    lines = [f"{scene.name}, {row}: {total * 1e3:.0f} ms CPU under the profiler"]
    rest = total
    for group, seconds in found.items():
        lines.append(f"  {group}: {seconds / total:.0%}")
        rest -= seconds
    lines.append(f"  framework and the rest: {rest / total:.0%}")
    print("\n".join(lines), flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="samples per library and row")
    parser.add_argument("--duration", type=float, default=1.0, help="simulated seconds")
    parser.add_argument(
        "--sample-seconds", type=float, default=0.5, help="wall time of a sample (about)"
    )
    parser.add_argument("--scene", action="append", help="only these scenes (by name)")
    parser.add_argument("--profile", action="store_true", help="profile mallard's rows instead")
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).parent / "results" / "contact.md"
    )
    args = parser.parse_args(argv)
    selected = [s for s in scenes() if not args.scene or s.name in args.scene]
    if args.profile:
        for scene in selected:
            for row in scene.rows:
                profile(scene, row, args.duration)
        return
    lines = table_header("Contact", "scene")
    for scene in selected:
        for row in scene.rows:
            runs = candidates(scene, row, args.duration)
            lines += timed_rows(scene.name, row, runs, check_agreement(scene, row, runs), args)
    write_table(lines, args.output)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
