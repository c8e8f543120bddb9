"""The model of the dynamics-derivative tests, written once for mallard and pydrake."""

import numpy as np

from tests.multibody.plant.plant_models import random_inertia

#: The joint types of :func:`two_way_chain`.
JOINT_TYPES = ("rev", "pri", "screw", "uni", "planar", "ball", "rpyf", "quatf")
#: Those that can be reversed (as in Drake).
REVERSIBLE = ("rev", "pri")


def _joint(m, kind, name, P, C, rng):
    axis = rng.normal(size=3)
    d = rng.uniform(0.05, 0.3)
    if kind == "rev":
        return m.RevoluteJoint(name, P, C, axis, d)
    if kind == "pri":
        return m.PrismaticJoint(name, P, C, axis, -np.inf, np.inf, d)
    if kind == "screw":
        return m.ScrewJoint(name, P, C, axis, 0.3, d)
    if kind == "uni":
        return m.UniversalJoint(name, P, C, d)
    if kind == "planar":
        return m.PlanarJoint(name, P, C, d * np.array([1.0, 2.0, 3.0]))
    if kind == "ball":
        return m.BallRpyJoint(name, P, C, d)
    if kind == "rpyf":
        return m.RpyFloatingJoint(name, P, C, d, 2 * d)
    return m.QuaternionFloatingJoint(name, P, C, d, 2 * d)


def two_way_chain(m, kinds=JOINT_TYPES, seed=4):
    """A continuous plant: a chain from World through two joints of each of ``kinds``, the
    first to body "A_kind", the second between A_kind and the next link "R_kind" (reversed,
    A_kind its child, for the REVERSIBLE types), every joint between random offset frames
    and damped; then a body welded by a reversed weld, a free body,
    actuators on the one-dof joints (rotor inertias, gear ratios, effort limit 2), gravity
    disabled in model instance "floaty" (the free body)."""
    rng = np.random.default_rng(seed)
    plant = m.MultibodyPlant(0.0)
    robot = plant.AddModelInstance("robot")
    floaty = plant.AddModelInstance("floaty")

    def frame(name, body):
        X = m.RigidTransform(m.RollPitchYaw(rng.uniform(-3, 3, size=3)), rng.normal(size=3))
        return plant.AddFrame(m.FixedOffsetFrame(name, body.body_frame(), X))

    previous = plant.world_body()
    actuated = []
    for kind in kinds:
        A = plant.AddRigidBody("A_" + kind, robot, random_inertia(m, rng))
        R = plant.AddRigidBody("R_" + kind, robot, random_inertia(m, rng))
        forward = plant.AddJoint(
            _joint(m, kind, "f_" + kind, frame("Pf_" + kind, previous), frame("Cf_" + kind, A), rng)
        )
        P, C = (R, A) if kind in REVERSIBLE else (A, R)
        backward = plant.AddJoint(
            _joint(m, kind, "r_" + kind, frame("Pr_" + kind, P), frame("Cr_" + kind, C), rng)
        )
        if kind in ("rev", "pri", "screw"):
            actuated += [forward, backward]
        previous = R
    tool = plant.AddRigidBody("tool", robot, random_inertia(m, rng))
    X = m.RigidTransform([0.1, 0.2, 0.3])
    plant.AddJoint(m.WeldJoint("weld", tool.body_frame(), previous.body_frame(), X))
    plant.AddRigidBody("free", floaty, random_inertia(m, rng))
    plant.set_gravity_enabled(floaty, False)
    for i, joint in enumerate(actuated):
        actuator = plant.AddJointActuator("u_" + joint.name(), joint, 2.0)
        actuator.set_default_rotor_inertia(0.1 * (i + 1))
        actuator.set_default_gear_ratio(1.5)
    plant.Finalize()
    return plant


def random_state(plant, rng):
    """(q, v, v̇): random, quaternions not of unit length, roll-pitch-yaw pitches away from
    gimbal lock."""
    q = rng.normal(size=plant.num_positions())
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        if joint.type_name() in ("ball_rpy", "rpy_floating"):
            q[joint.position_start() + 1] = rng.uniform(-1.2, 1.2)
    return q, rng.normal(size=plant.num_velocities()), rng.normal(size=plant.num_velocities())


def one_dof_tree(m, seed=3):
    """A continuous plant of the models kernels.recursive_derivatives covers: a tree of damped
    revolute, prismatic and screw joints between random offset frames (branches at the first
    and third bodies, two joints reversed, a second root), a weld, and a revolute joint
    outboard of the weld; every one-dof joint actuated (rotor inertias, effort limit 2); gravity
    on every body."""
    rng = np.random.default_rng(seed)
    plant = m.MultibodyPlant(0.0)

    def frame(name, body):
        X = m.RigidTransform(m.RollPitchYaw(rng.uniform(-3, 3, size=3)), rng.normal(size=3))
        return plant.AddFrame(m.FixedOffsetFrame(name, body.body_frame(), X))

    bodies = [plant.world_body()]
    kinds = ("rev", "pri", "screw", "rev", "rev", "pri", "rev", "screw")
    parents = (0, 1, 1, 2, 3, 3, 5, 0)
    for i, (kind, parent) in enumerate(zip(kinds, parents, strict=True)):
        B = plant.AddRigidBody(f"B{i}", random_inertia(m, rng))
        P, C = bodies[parent], B
        if i in (3, 6):
            P, C = C, P
        plant.AddJoint(_joint(m, kind, f"j{i}", frame(f"P{i}", P), frame(f"C{i}", C), rng))
        bodies.append(B)
    tool = plant.AddRigidBody("tool", random_inertia(m, rng))
    X = m.RigidTransform([0.1, 0.2, 0.3])
    plant.AddJoint(m.WeldJoint("weld", bodies[4].body_frame(), tool.body_frame(), X))
    last = plant.AddRigidBody("last", random_inertia(m, rng))
    plant.AddJoint(_joint(m, "rev", "j_last", frame("P_last", tool), frame("C_last", last), rng))
    for i, index in enumerate(plant.GetJointIndices()):
        joint = plant.get_joint(index)
        if joint.num_velocities() == 1:
            actuator = plant.AddJointActuator("u_" + joint.name(), joint, 2.0)
            actuator.set_default_rotor_inertia(0.1 * (i + 1))
    plant.Finalize()
    return plant


def floating_tree(m, seed=6):
    """A continuous plant kernels.recursive_derivatives covers with quaternion floating joints:
    a free body (its floating joint added by Finalize) carrying a branch of revolute, prismatic
    and screw joints, one of them reversed, and a quaternion floating joint between random
    offset frames in the middle of a branch, with a revolute joint outboard of it; damped
    joints, the 1-dof ones actuated (effort limit 2), gravity on every body."""
    rng = np.random.default_rng(seed)
    plant = m.MultibodyPlant(0.0)

    def frame(name, body):
        X = m.RigidTransform(m.RollPitchYaw(rng.uniform(-3, 3, size=3)), rng.normal(size=3))
        return plant.AddFrame(m.FixedOffsetFrame(name, body.body_frame(), X))

    bodies = [plant.AddRigidBody("base", random_inertia(m, rng))]
    kinds = ("rev", "pri", "quatf", "rev", "screw", "rev")
    parents = (0, 1, 2, 3, 0, 5)
    for i, (kind, parent) in enumerate(zip(kinds, parents, strict=True)):
        B = plant.AddRigidBody(f"B{i}", random_inertia(m, rng))
        P, C = bodies[parent], B
        if i == 4:
            P, C = C, P
        joint = plant.AddJoint(_joint(m, kind, f"j{i}", frame(f"P{i}", P), frame(f"C{i}", C), rng))
        if joint.num_velocities() == 1:
            plant.AddJointActuator("u_" + joint.name(), joint, 2.0)
        bodies.append(B)
    plant.Finalize()
    return plant
