"""``mallard compile``: compiles mallard's kernels ahead of time into numba's on-disk cache.

numba compiles a kernel at its first call in an environment, then loads it from its cache.
This command makes those first calls (a container's or a CI job's build step, so that runs
start warm): each *task* below uses a part of mallard's API the way a program does, so that
exactly the kernels (and argument types) the program needs are compiled. Tasks run in
parallel worker processes (``-j``), by groups (:data:`GROUPS`: each worker takes the next
group when done with one; tasks in the same process share what they have in common); each
reports the kernels it compiled and their times. The plant's entry points compiled for its
model's set of joint types (mallard._compiled.JOINT_SPECIALIZED: its explicit steps and
stages) are compiled for the other set too after each task
(mallard._compiled.compile_for_every_joint_type): the cache then serves a model of any joint
types, not only the tasks' models.
"""

import argparse
import json
import multiprocessing
import os
import resource
import time

import numpy as np

HELP = "compile mallard's kernels into numba's cache ahead of time"
DESCRIPTION = """\
Compiles mallard's kernels into numba's on-disk cache (NUMBA_CACHE_DIR if set, else
__pycache__ beside mallard's sources), so that later runs start without compiling: a step
for a container image or a CI cache. Each task uses a part of mallard's API as a program
would; tasks run in parallel processes (-j). Prints, per task, the kernels it compiled and the
time each took (a task after another in the same process shares what they have in common).
'mallard cache' shows where the cache is and its size, 'mallard cache clear' empties it."""


# ---- the tasks -------------------------------------------------------------------------------
def _acrobot(time_step):
    from mallard.models import MakeAcrobotPlant

    return MakeAcrobotPlant(time_step=time_step)


def _limited(time_step):
    """A pendulum with joint limits and a PD-controlled actuator (the discrete step's SAP
    problem: limit and PD constraints)."""
    from mallard.multibody.plant import MultibodyPlant
    from mallard.multibody.tree import PdControllerGains, RevoluteJoint, SpatialInertia

    plant = MultibodyPlant(time_step)
    body = plant.AddRigidBody("link", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 1.0))
    joint = RevoluteJoint("joint", plant.world_frame(), body.body_frame(), [0, 1, 0])
    joint.set_position_limits([-0.2], [0.2])
    plant.AddJoint(joint)
    plant.AddJointActuator("motor", joint).set_controller_gains(PdControllerGains(p=10, d=1))
    plant.Finalize()
    return plant


def _distance_pendulum():
    """An arm and a free bob held by a distance constraint (discrete: SAP's holonomic rows
    from the constraint's kinematics), and its positions."""
    from mallard.multibody.plant import MultibodyPlant
    from mallard.multibody.tree import RevoluteJoint, SpatialInertia

    plant = MultibodyPlant(1e-3)
    arm = plant.AddRigidBody(
        "arm", SpatialInertia.SolidBoxWithMass(1.0, 0.5, 0.05, 0.05).Shift([0, 0, -0.25])
    )
    plant.AddJoint(RevoluteJoint("j", plant.world_frame(), arm.body_frame(), [0, 1, 0]))
    bob = plant.AddRigidBody("bob", SpatialInertia.SolidSphereWithMass(0.5, 0.05))
    plant.AddDistanceConstraint(arm, [0, 0, -0.5], bob, [0, 0, 0], 0.3)
    plant.Finalize()
    return plant, np.array([0.4, 1, 0, 0, 0, 0.25, 0.05, -0.7])


def _simulate(plant, configure=None, duration=0.01):
    from mallard.systems.analysis import Simulator

    simulator = Simulator(plant)
    context = simulator.get_mutable_context()
    plant.SetPositions(context, np.full(plant.num_positions(), 0.3))
    plant.get_actuation_input_port().FixValue(context, np.zeros(plant.num_actuators()))
    if configure is not None:
        configure(simulator, context)
    simulator.AdvanceTo(duration)
    return context


def _config(scheme, **options):
    from mallard.systems.analysis import ApplySimulatorConfig, SimulatorConfig

    def configure(simulator, context):
        ApplySimulatorConfig(SimulatorConfig(integration_scheme=scheme, **options), simulator)

    return configure


def _monitored(configure=None):
    """A configuration with a monitor (every step then goes through Python)."""

    def with_monitor(simulator, context):
        if configure is not None:
            configure(simulator, context)
        simulator.set_monitor(lambda root: None)

    return with_monitor


def task_simulation():
    """The compiled stepping of continuous (explicit integrators) and discrete plants."""
    _simulate(_acrobot(0.0), _config("runge_kutta3"))
    _simulate(_limited(1e-3))


def task_simulation_outputs():
    """What ``mallard simulate`` computes from the trajectory: energies and poses."""
    plant = _acrobot(0.0)
    context = plant.CreateDefaultContext()
    plant.EvalKineticEnergy(context)
    plant.EvalPotentialEnergy(context)
    plant.EvalBodyPoseInWorld(context, plant.world_body())


def task_python_stepping():
    """Simulation step by step in Python (a monitor, RK5, PD-controlled discrete plants, a
    distance constraint): time derivatives, the integrators' sums, the discrete step and its
    SAP problem and solve."""
    _simulate(_acrobot(0.0), _monitored(_config("runge_kutta3")))
    _simulate(_acrobot(0.0), _config("runge_kutta5"))

    def desired(simulator, context):
        plant = simulator.get_system()
        instance = plant.GetJointByName("joint").model_instance()
        plant.get_desired_state_input_port(instance).FixValue(context, [0.1, 0.0])

    plant = _limited(1e-3)
    _simulate(plant, _monitored())
    _simulate(plant, desired)
    plant, q0 = _distance_pendulum()
    _simulate(plant, lambda simulator, context: plant.SetPositions(context, q0))


def task_dynamics():
    """A plant's queries: kinematics, Jacobians, mass matrix, inverse and forward dynamics,
    forces, q̇ ↔ v maps."""
    from mallard.multibody.tree import JacobianWrtVariable, MultibodyForces

    plant = _acrobot(0.0)
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.3, 0.2])
    plant.get_actuation_input_port().FixValue(context, [0.0])
    nv = plant.num_velocities()
    frame = plant.GetBodyByName("link2").body_frame()
    world = plant.world_frame()
    plant.EvalBodyPoseInWorld(context, plant.GetBodyByName("link2"))
    plant.CalcMassMatrix(context)
    plant.CalcBiasTerm(context)
    forces = MultibodyForces(plant)
    plant.CalcForceElementsContribution(context, forces)
    plant.CalcInverseDynamics(context, np.zeros(nv), forces)
    plant.CalcGravityGeneralizedForces(context)
    plant.CalcSpatialAccelerationsFromVdot(context, np.zeros(nv))
    plant.EvalTimeDerivatives(context)
    plant.CalcJacobianSpatialVelocity(
        context, JacobianWrtVariable.kV, frame, [0, 0, 0], world, world
    )
    plant.CalcJacobianTranslationalVelocity(
        context, JacobianWrtVariable.kV, frame, np.zeros((3, 2)), world, world
    )
    plant.MapVelocityToQDot(context, np.zeros(nv))
    plant.MapQDotToVelocity(context, np.zeros(plant.num_positions()))
    plant.MakeVelocityToQDotMap(context)
    plant.MakeQDotToVelocityMap(context)


def task_derivatives():
    """mallard's analytical derivatives of inverse and forward dynamics."""
    plant = _acrobot(0.0)
    context = plant.CreateDefaultContext()
    plant.get_actuation_input_port().FixValue(context, [0.0])
    plant.CalcInverseDynamicsDerivatives(context, np.zeros(plant.num_velocities()))
    plant.CalcForwardDynamicsDerivatives(context)


def _batched():
    from mallard.multibody.batch import BatchedPlant

    plant = _acrobot(0.0)
    q, v = np.zeros((5, plant.num_positions())), np.zeros((5, plant.num_velocities()))
    return plant, BatchedPlant(plant), q, v


def task_batch_kinematics():
    """BatchedPlant's poses, Jacobians and mass matrices (kernels.batch.batch_evaluate, one
    entry point for them and batch-dynamics' operations, for the argument types all reach)."""
    plant, batch, q, _ = _batched()
    batch.CalcAllBodyPosesInWorld(q)
    batch.CalcJacobianSpatialVelocity(q, plant.GetBodyByName("link2").body_frame())
    batch.CalcMassMatrix(q)


def task_batch_dynamics():
    """BatchedPlant's inverse and forward dynamics (kernels.batch.batch_evaluate, as
    batch-kinematics')."""
    _, batch, q, v = _batched()
    batch.CalcInverseDynamics(q, v, v)
    batch.CalcForwardDynamics(q, v)


def task_batch_derivatives():
    """BatchedPlant's derivatives of inverse and forward dynamics (one entry point for both,
    kernels.batch.batch_dynamics_derivatives, for the argument types both reach: the inverse
    dynamics' absent fourth input is a writeable array, as the forward's are)."""
    _, batch, q, v = _batched()
    batch.CalcInverseDynamicsDerivatives(q, v, v)
    batch.CalcForwardDynamicsDerivatives(q, v)


def task_single_state():
    """SingleStatePlant's poses, Jacobians, mass matrix, inverse and forward dynamics and
    derivatives (also what BatchedPlant runs for a batch of one state)."""
    from mallard.multibody.single_state import SingleStatePlant

    plant = _acrobot(0.0)
    single = SingleStatePlant(plant)
    q, v = np.zeros(plant.num_positions()), np.zeros(plant.num_velocities())
    single.CalcAllBodyPosesInWorld(q)
    frame = plant.GetBodyByName("link2").body_frame()
    single.CalcJacobianSpatialVelocity(q, frame)  # (the frame's origin)
    single.CalcJacobianSpatialVelocity(q, frame, np.zeros(3))  # (a point: another kernel)
    single.CalcMassMatrix(q)
    single.CalcInverseDynamics(q, v, v)
    single.CalcForwardDynamics(q, v)
    single.CalcInverseDynamicsDerivatives(q, v, v)
    single.CalcForwardDynamicsDerivatives(q, v)


def task_rollouts():
    """BatchedPlant's rollouts of a discrete and of a continuous plant."""
    from mallard.multibody.batch import BatchedPlant

    for time_step, options in ((1e-3, {}), (0.0, {"time_step": 1e-3})):
        plant = _acrobot(time_step)
        q = np.zeros((5, plant.num_positions()))
        BatchedPlant(plant).Rollout(q, q, num_steps=2, **options)


def task_parsing():
    """A URDF document large enough for the URDF reader's fast path (_urdf_fast.MIN_BYTES), a
    chain of links, and an MJCF one for the MJCF fast path's (_mjcf_fast.MIN_BYTES), bodies
    with a hinge of a class and a geom each, parsed without a SceneGraph until the fast paths
    read them (the process's first large documents are read without them:
    _scan_gate.READER_FIRST): the compiled XML scan, the MJCF fast path's math and gathers
    (_mjcf_kernels)."""
    from mallard.multibody.parsing import Parser, _mjcf_fast, _scan_gate, _urdf_fast
    from mallard.multibody.plant import MultibodyPlant

    inertial = (
        '<inertial><origin xyz="0 0 -0.25"/><mass value="1"/>'
        '<inertia ixx="0.02" iyy="0.02" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial>'
    )
    lines = ['<robot name="chain">', f'<link name="link0">{inertial}</link>']
    k = 0
    while sum(map(len, lines)) < _urdf_fast.MIN_BYTES:
        k += 1
        lines += [
            f'<link name="link{k}">{inertial}</link>',
            f'<joint name="joint{k}" type="revolute"><parent link="link{k - 1}"/>'
            f'<child link="link{k}"/><origin xyz="0 0 -0.5"/><axis xyz="0 1 0"/></joint>',
        ]
    text = "\n".join([*lines, "</robot>"])
    for _ in range(_scan_gate.READER_FIRST + 1):
        Parser(MultibodyPlant(0.0)).AddModelsFromString(text, "urdf")
    lines = ['<mujoco model="bodies"><default><default class="c"><joint damping="0.1"/>'
             "</default></default><worldbody>"]  # fmt: skip
    while sum(map(len, lines)) < _mjcf_fast.MIN_BYTES:
        k = len(lines)
        lines.append(
            f'<body name="body{k}" pos="0 0 {k}" euler="0 0 {k}"><joint class="c" axis="0 1 0"/>'
            '<geom type="capsule" fromto="0 0 0 0 0.1 -0.1" size="0.02"/></body>'
        )
    text = "\n".join([*lines, "</worldbody></mujoco>"])
    for _ in range(_scan_gate.READER_FIRST + 1):
        Parser(MultibodyPlant(0.0)).AddModelsFromString(text, "xml")


def task_proximity():
    """SceneGraph's proximity queries and BatchedPlant's collision checks (a sphere, a box and
    a capsule on free bodies)."""
    from mallard.geometry import Box, Capsule, ProximityProperties, Sphere
    from mallard.math import RigidTransform
    from mallard.multibody.batch import BatchedPlant
    from mallard.multibody.plant import AddMultibodyPlantSceneGraph
    from mallard.multibody.tree import SpatialInertia
    from mallard.systems.framework import DiagramBuilder

    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    for i, shape in enumerate((Sphere(0.1), Box(0.1, 0.2, 0.3), Capsule(0.1, 0.2))):
        body = plant.AddRigidBody(f"body{i}", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        plant.RegisterCollisionGeometry(
            body, RigidTransform(), shape, f"shape{i}", ProximityProperties()
        )
    plant.Finalize()
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    plant_context = plant.GetMyMutableContextFromRoot(context)
    q = plant.GetPositions(plant_context)
    q[4::7] = (0.05, 0.12, 1.0)  # (the sphere and the box overlap: HasCollisions tests them)
    plant.SetPositions(plant_context, q)
    query = scene_graph.get_query_output_port().Eval(scene_graph.GetMyContextFromRoot(context))
    query.ComputePointPairPenetration()
    query.ComputeSignedDistancePairwiseClosestPoints()
    ids = query.inspector().GetAllGeometryIds()
    query.ComputeSignedDistancePairClosestPoints(ids[0], ids[1])
    query.ComputeSignedDistanceToPoint(np.zeros(3))
    query.FindCollisionCandidates()
    query.HasCollisions()
    BatchedPlant(plant).CheckCollisions(np.tile(q, (3, 1)), min_distance=True, pairs_within=0.1)


def task_contact():
    """Point contact of a sphere resting in a half space, in a continuous plant and in
    discrete ones (SAP, TAMSI)."""
    from mallard.geometry import HalfSpace, Sphere
    from mallard.math import RigidTransform
    from mallard.multibody.plant import (
        AddMultibodyPlantSceneGraph,
        CoulombFriction,
        DiscreteContactApproximation,
    )
    from mallard.multibody.tree import SpatialInertia
    from mallard.systems.analysis import Simulator
    from mallard.systems.framework import DiagramBuilder

    for time_step, tamsi in ((0.0, False), (1e-3, False), (1e-3, True)):
        builder = DiagramBuilder()
        plant, _ = AddMultibodyPlantSceneGraph(builder, time_step)
        if tamsi:
            plant.set_discrete_contact_approximation(DiscreteContactApproximation.kTamsi)
        ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        friction = CoulombFriction(0.5, 0.5)
        plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(0.1), "ball", friction)
        plant.RegisterCollisionGeometry(
            plant.world_body(), RigidTransform(), HalfSpace(), "ground", friction
        )
        plant.Finalize()
        diagram = builder.Build()
        simulator = Simulator(diagram)
        context = plant.GetMyMutableContextFromRoot(simulator.get_mutable_context())
        plant.SetPositions(context, [1.0, 0, 0, 0, 0, 0, 0.099])
        simulator.AdvanceTo(0.002)
        if time_step > 0:  # (the Python step too: a monitor leaves the steps to it)
            simulator.set_monitor(lambda root: None)
            simulator.AdvanceTo(0.004)


#: name → task.
TASKS = {
    "batch-dynamics": task_batch_dynamics,
    "batch-derivatives": task_batch_derivatives,
    "batch-kinematics": task_batch_kinematics,
    "simulation": task_simulation,
    "python-stepping": task_python_stepping,
    "derivatives": task_derivatives,
    "dynamics": task_dynamics,
    "simulation-outputs": task_simulation_outputs,
    "single-state": task_single_state,
    "rollouts": task_rollouts,
    "proximity": task_proximity,
    "contact": task_contact,
    "parsing": task_parsing,
}

#: The tasks in groups that share many kernels, each run by one worker process in order (a
#: process compiles its own kernels: only entry points are cached), the costliest group first
#: (workers take them in this order): the plant's tasks, its entry points on plain workspaces
#: (its explicit steps and stages for both sets of joint types); BatchedPlant's, in lanes, and
#: SingleStatePlant's, whose kernels BatchedPlant's derivatives run state by state too;
#: SceneGraph's queries; the URDF reader's XML scan.
GROUPS = (
    (
        "simulation",
        "simulation-outputs",
        "python-stepping",
        "dynamics",
        "derivatives",
        "contact",
    ),
    ("batch-dynamics", "batch-derivatives", "batch-kinematics", "single-state", "rollouts"),
    ("proximity",),
    ("parsing",),
)


# ---- running them ----------------------------------------------------------------------------
def run_tasks(names):
    """Runs the tasks ``names`` in this process; returns, per task, a dict of its wall and
    CPU seconds and the kernels it compiled ([name, seconds], in order)."""
    from mallard._compiled import compile_for_every_joint_type
    from mallard.cli._compilation import CompilationWatch

    reports = []
    for name in names:
        start, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_utime
        with CompilationWatch(stream=open(os.devnull, "w")) as watch:  # noqa: SIM115
            TASKS[name]()
            compile_for_every_joint_type()
        reports.append(
            {
                "task": name,
                "seconds": time.perf_counter() - start,
                "cpu": resource.getrusage(resource.RUSAGE_SELF).ru_utime - cpu,
                "kernels": watch.kernels,
            }
        )
    return reports


def worker_groups(names, jobs):
    """The tasks ``names`` in the lists that worker processes run, in the order they take them:
    the GROUPS' (the selected tasks of each), the group of most tasks cut in two halves while
    there are fewer lists than the ``jobs`` workers (each task alone once there are as many)."""
    groups = [[name for name in group if name in names] for group in GROUPS]
    groups = [group for group in groups if group]
    while len(groups) < jobs and any(len(group) > 1 for group in groups):
        i = max(range(len(groups)), key=lambda i: len(groups[i]))
        half = (len(groups[i]) + 1) // 2
        groups[i : i + 1] = [groups[i][:half], groups[i][half:]]
    return groups


def add_parser(subparsers, add_model_arguments):
    del add_model_arguments  # (no model)
    parser = subparsers.add_parser("compile", help=HELP, description=DESCRIPTION)
    parser.add_argument(
        "--only",
        metavar="TASKS",
        help="comma-separated tasks to run (default: all): " + ", ".join(TASKS),
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes (default: the number of CPUs)",
    )
    parser.add_argument("--worker", metavar="TASKS", help=argparse.SUPPRESS)
    parser.set_defaults(run=run)


def run(args):
    from mallard.cli._model import UsageError

    if args.worker is not None:
        print(json.dumps(run_tasks(args.worker.split(","))))
        return 0
    names = list(TASKS) if args.only is None else args.only.split(",")
    unknown = [name for name in names if name not in TASKS]
    if unknown:
        raise UsageError(f"unknown task(s) {', '.join(unknown)}; the tasks are: {', '.join(TASKS)}")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    start = time.perf_counter()
    groups = worker_groups(names, args.jobs)
    jobs = min(args.jobs, len(groups))
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        done = pool.imap_unordered(run_tasks, groups)
        reports = [report for reports in done for report in reports]
    wall = time.perf_counter() - start
    for report in sorted(reports, key=lambda r: list(TASKS).index(r["task"])):
        kernels = ", ".join(f"{k} {s:.1f} s" for k, s in report["kernels"]) or "none (cached)"
        print(
            f"{report['task']}: {report['seconds']:.1f} s ({report['cpu']:.1f} s CPU); "
            f"compiled: {kernels}"
        )
    cpu = sum(r["cpu"] for r in reports)
    print(f"total: {wall:.1f} s with {jobs} worker process(es), {cpu:.1f} s CPU in the tasks")
    return 0
