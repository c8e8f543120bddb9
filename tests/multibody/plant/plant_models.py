"""Models the plant tests build, written once for either library (mallard or pydrake).

Each builder takes ``m``, a namespace of the library's public names (``library("mallard")``
or ``library("pydrake")``), so that the conformance tests can build the same model in both.
"""

import importlib
from types import SimpleNamespace

import numpy as np

_MODULES = {
    "mallard": (
        "mallard.math",
        "mallard.multibody.tree",
        "mallard.multibody.math",
        "mallard.multibody.plant",
        "mallard.systems.framework",
        "mallard.common.value",
    ),
    "pydrake": (
        "pydrake.math",
        "pydrake.multibody.tree",
        "pydrake.multibody.math",
        "pydrake.multibody.plant",
        "pydrake.systems.framework",
        "pydrake.common.value",
    ),
}


def library(name):
    """The public names of the modules the tests use, from "mallard" or "pydrake"."""
    names = {}
    for module in _MODULES[name]:
        names.update(
            (k, v) for k, v in vars(importlib.import_module(module)).items() if k[0] != "_"
        )
    return SimpleNamespace(**names)


def box(m, mass=1.0):
    """A 0.1 m cube's spatial inertia (the notes' default body)."""
    return m.SpatialInertia.SolidBoxWithMass(mass, 0.1, 0.1, 0.1)


def revolute(m, plant, name, parent, child, axis=(0, 0, 1)):
    """Adds a RevoluteJoint between two bodies' frames."""
    return plant.AddJoint(m.RevoluteJoint(name, parent.body_frame(), child.body_frame(), axis))


def two_instances(m, time_step=0.0, finalize=True):
    """Instances m1 (=2): a (revolute j from World), b (revolute jb from frame F on a); m2 (=3):
    a (prismatic j from World), c (free); DefaultModelInstance: d (free). Actuators act (j in
    m1), act (j in m2), actb (jb). nq = 17, nv = 15, nu = 3."""
    plant = m.MultibodyPlant(time_step)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    a1 = plant.AddRigidBody("a", m1, box(m))
    b1 = plant.AddRigidBody("b", m1, box(m))
    a2 = plant.AddRigidBody("a", m2, box(m))
    plant.AddRigidBody("c", m2, box(m))
    plant.AddRigidBody("d", m.default_model_instance(), box(m))
    F = plant.AddFrame(m.FixedOffsetFrame("F", a1.body_frame(), m.RigidTransform([0, 0, 1.0])))
    plant.AddFrame(m.FixedOffsetFrame("F", a2.body_frame(), m.RigidTransform([0, 1.0, 0])))
    j = plant.AddJoint(m.RevoluteJoint("j", plant.world_frame(), a1.body_frame(), [0, 0, 1]))
    jb = plant.AddJoint(m.RevoluteJoint("jb", F, b1.body_frame(), [1, 0, 0]))
    j2 = plant.AddJoint(m.PrismaticJoint("j", plant.world_frame(), a2.body_frame(), [1, 0, 0]))
    plant.AddJointActuator("act", j)
    plant.AddJointActuator("act", j2)
    plant.AddJointActuator("actb", jb)
    if finalize:
        plant.Finalize()
    return plant


_FLOATING_V = ("wx", "wy", "wz", "vx", "vy", "vz")

#: The joints of ``all_joints`` and its free body: (name, type name, position suffixes,
#: velocity suffixes).
ALL_JOINTS = (
    ("rev", "revolute", ("q",), ("w",)),
    ("pri", "prismatic", ("x",), ("v",)),
    ("scr", "screw", ("q",), ("w",)),
    ("uni", "universal", ("qx", "qy"), ("wx", "wy")),
    ("pla", "planar", ("x", "y", "qz"), ("vx", "vy", "wz")),
    ("ball", "ball_rpy", ("qx", "qy", "qz"), ("wx", "wy", "wz")),
    ("rpyf", "rpy_floating", ("qx", "qy", "qz", "x", "y", "z"), _FLOATING_V),
    ("quatf", "quaternion_floating", ("qw", "qx", "qy", "qz", "x", "y", "z"), _FLOATING_V),
    ("weld", "weld", (), ()),
    ("free", "quaternion_floating", ("qw", "qx", "qy", "qz", "x", "y", "z"), _FLOATING_V),
)


def all_joints(m, time_step=0.0):
    """One joint of every type from World to its own body ``B{name}``, then a free body
    "free", all in DefaultModelInstance (the notes' name-list model)."""
    plant = m.MultibodyPlant(time_step)
    W = plant.world_frame()
    make = {
        "rev": lambda P, C: m.RevoluteJoint("rev", P, C, [0, 0, 1]),
        "pri": lambda P, C: m.PrismaticJoint("pri", P, C, [0, 0, 1]),
        "scr": lambda P, C: m.ScrewJoint("scr", P, C, [0, 0, 1], 0.1, 0.0),
        "uni": lambda P, C: m.UniversalJoint("uni", P, C),
        "pla": lambda P, C: m.PlanarJoint("pla", P, C, [0, 0, 0]),
        "ball": lambda P, C: m.BallRpyJoint("ball", P, C),
        "rpyf": lambda P, C: m.RpyFloatingJoint("rpyf", P, C),
        "quatf": lambda P, C: m.QuaternionFloatingJoint("quatf", P, C),
        "weld": lambda P, C: m.WeldJoint("weld", P, C, m.RigidTransform([0.1, 0, 0])),
    }
    for name, *_ in ALL_JOINTS[:-1]:
        body = plant.AddRigidBody("B" + name, box(m))
        plant.AddJoint(make[name](W, body.body_frame()))
    plant.AddRigidBody("free", box(m))
    plant.Finalize()
    return plant


def bodies(m, plant, names, model_instance=None):
    """Adds bodies ``names`` (in the default model instance unless given); returns them."""
    mi = m.default_model_instance() if model_instance is None else model_instance
    return [plant.AddRigidBody(name, mi, box(m)) for name in names]


def mixed_forest(m):
    """The notes' example (d): free bodies mixed with World trees. Bodies free1, a0, a1,
    free2, c0, free3; joints ja1 (a0->a1), ja0 (World->a0), jc0 (prismatic World->c0)."""
    plant = m.MultibodyPlant(0.0)
    f1, a0, a1, f2, c0, f3 = bodies(m, plant, ["free1", "a0", "a1", "free2", "c0", "free3"])
    revolute(m, plant, "ja1", a0, a1)
    revolute(m, plant, "ja0", plant.world_body(), a0)
    plant.AddJoint(m.PrismaticJoint("jc0", plant.world_frame(), c0.body_frame(), [1, 0, 0]))
    plant.Finalize()
    return plant


def instances_forest(m):
    """The notes' example (g): model instances play no role in the ordering."""
    plant = m.MultibodyPlant(0.0)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    a = plant.AddRigidBody("a", m2, box(m))
    b = plant.AddRigidBody("b", m1, box(m))  # noqa: F841 (a lone body)
    c = plant.AddRigidBody("c", m2, box(m))
    d = plant.AddRigidBody("d", m1, box(m))
    plant.AddRigidBody("f", m1, box(m))
    g = plant.AddRigidBody("g", m2, box(m))
    revolute(m, plant, "jc", a, c)
    revolute(m, plant, "jd", plant.world_body(), d)
    revolute(m, plant, "ja", plant.world_body(), a)
    revolute(m, plant, "jg", d, g)
    plant.Finalize()
    return plant


def welds_forest(m):
    """The notes' example (e): welds are not merged; a weld-only subgraph floats."""
    plant = m.MultibodyPlant(0.0)
    names = ["b0", "w", "b2", "ww", "c", "wfree", "wchild"]
    b0, w, b2, ww, c, wfree, wchild = bodies(m, plant, names)
    revolute(m, plant, "j0", plant.world_body(), b0)
    plant.WeldFrames(b0.body_frame(), w.body_frame())
    revolute(m, plant, "j2", w, b2)
    plant.WeldFrames(plant.world_frame(), ww.body_frame())
    revolute(m, plant, "jc", ww, c)
    plant.AddJoint(m.WeldJoint("wj", wfree.body_frame(), wchild.body_frame(), m.RigidTransform()))
    plant.Finalize()
    return plant


def graphviz_model(m, finalize=True):
    """The notes' §5 model: "robot" (base welded to World, link1, link2, tool welded to
    link2) and "objects" (a free box)."""
    plant = m.MultibodyPlant(0.0)
    robot, objects = plant.AddModelInstance("robot"), plant.AddModelInstance("objects")
    base, link1, link2, tool = bodies(m, plant, ["base", "link1", "link2", "tool"], robot)
    bodies(m, plant, ["box"], objects)
    plant.WeldFrames(plant.world_frame(), base.body_frame())
    revolute(m, plant, "joint1", base, link1)
    revolute(m, plant, "joint2", link1, link2)
    plant.WeldFrames(link2.body_frame(), tool.body_frame())
    if finalize:
        plant.Finalize()
    return plant


def selector_model(m):
    """The notes' §9 model: instances m1, m2; ja (World->a, m1), jc (prismatic World->c, m2),
    jb (a->b, m1), jd (c->d, m2), free body fb (m1); actuators added out of joint order:
    u_jd, u_jb, u_ja, u_jc."""
    plant = m.MultibodyPlant(0.0)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    a, b = bodies(m, plant, ["a", "b"], m1)
    c, d = bodies(m, plant, ["c", "d"], m2)
    bodies(m, plant, ["fb"], m1)
    ja = revolute(m, plant, "ja", plant.world_body(), a)
    jc = plant.AddJoint(m.PrismaticJoint("jc", plant.world_frame(), c.body_frame(), [0, 0, 1]))
    jb = revolute(m, plant, "jb", a, b)
    jd = revolute(m, plant, "jd", c, d)
    for joint in (jd, jb, ja, jc):
        plant.AddJointActuator("u_" + joint.name(), joint)
    plant.Finalize()
    return plant


def reversed_joints(m):
    """Joints Drake must reverse: jzy (revolute z->y, after jxy x->y), jpw (prismatic from a
    body to World, off-axis) and a weld from a body to World at an offset."""
    plant = m.MultibodyPlant(0.0)
    mi = plant.AddModelInstance("m")
    x, y, z, p, w = bodies(m, plant, ["x", "y", "z", "p", "w"], mi)
    revolute(m, plant, "jxy", x, y)
    revolute(m, plant, "jzy", z, y, axis=(0, 1, 0))
    plant.AddJoint(m.PrismaticJoint("jpw", p.body_frame(), plant.world_frame(), [1.0, 2.0, 3.0]))
    plant.WeldFrames(w.body_frame(), plant.world_frame(), m.RigidTransform([0, 0, 1.0]))
    plant.Finalize()
    return plant


def random_inertia(m, rng):
    """A physically valid random M_BBo_B: mass, center of mass and central inertia."""
    moments = rng.uniform(0.1, 1.0, size=3)
    moments[2] = rng.uniform(abs(moments[0] - moments[1]) + 0.05, moments[0] + moments[1])
    R = m.RotationMatrix(m.RollPitchYaw(rng.uniform(-3, 3, size=3))).matrix()
    I = R @ np.diag(moments) @ R.T
    return m.SpatialInertia.MakeFromCentralInertia(
        rng.uniform(0.5, 3.0),
        rng.normal(scale=0.3, size=3),
        m.RotationalInertia(I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]),
    )


def dynamics_model(m, seed=5, damped=True, time_step=0.0):
    """A continuous plant for the dynamics tests: every joint type, reversed revolute,
    prismatic and weld joints, chains of offset frames, lone free bodies, a user quaternion
    joint between bodies, actuators with rotor inertias, gear ratios, effort limits and PD
    gains, two joint springs and a linear spring-damper, gravity disabled in model instance
    "arm". ``damped=False`` leaves out joint damping and the spring-damper's damping;
    ``time_step`` > 0 makes the plant discrete.
    Returns (plant, items), ``items`` naming model instances and elements."""
    rng = np.random.default_rng(seed)
    d = 1.0 if damped else 0.0

    def pose():
        R = m.RotationMatrix(m.RollPitchYaw(rng.uniform(-3, 3, size=3)))
        return m.RigidTransform(R, rng.normal(size=3))

    def axis():
        return rng.normal(size=3)

    plant = m.MultibodyPlant(time_step)
    robot = plant.AddModelInstance("robot")
    arm = plant.AddModelInstance("arm")
    objects = plant.AddModelInstance("objects")
    default = m.default_model_instance()
    b = {}
    for name, mi in [
        ("l3", robot),
        ("base", robot),
        ("l1", robot),
        ("a2", arm),
        ("l2", robot),
        ("free1", objects),
        ("l5", robot),
        ("x", objects),
        ("a1", arm),
        ("l4", robot),
        ("y", objects),
        ("tool", arm),
        ("free2", default),
        ("a3", arm),
        ("nub", arm),
    ]:
        b[name] = plant.AddRigidBody(name, mi, random_inertia(m, rng))
    world = plant.world_frame()

    def frame(name, parent, *instance):
        return plant.AddFrame(m.FixedOffsetFrame(name, parent, pose(), *instance))

    F_world = frame("F_world", world)
    F_base = frame("F_base", b["base"].body_frame())
    F_base2 = frame("F_base2", F_base)
    M_l1 = frame("M_l1", b["l1"].body_frame())
    F_l1 = frame("F_l1", M_l1)
    F_l2 = frame("F_l2", b["l2"].body_frame())
    F_l3 = frame("F_l3", b["l3"].body_frame())
    F_a1 = frame("F_a1", b["a1"].body_frame(), arm)
    F_a3 = frame("F_a3", b["a3"].body_frame())
    F_x = frame("F_x", b["x"].body_frame())
    frame("F_free1", b["free1"].body_frame())
    frame("F_tool", b["tool"].body_frame())

    joints = {}

    def add(joint):
        joints[joint.name()] = plant.AddJoint(joint)
        return joints[joint.name()]

    add(m.ScrewJoint("jscrew", F_l1, b["l2"].body_frame(), axis(), 0.3, 0.1 * d))
    add(m.PrismaticJoint("jpri", F_world, b["base"].body_frame(), axis(), -1.0, 2.0, 0.3 * d))
    add(m.RevoluteJoint("jrev", F_base2, M_l1, axis(), 0.2 * d))
    add(m.UniversalJoint("juni", F_l2, b["l3"].body_frame(), 0.05 * d))
    add(m.BallRpyJoint("jball", F_l3, b["l4"].body_frame(), 0.1 * d))
    # Reversed: the parent l5 is not in the tree yet, the child l3 is.
    add(m.RevoluteJoint("jtip", b["l5"].body_frame(), F_l3, axis(), 0.15 * d))
    add(m.PlanarJoint("jplanar", world, F_a1, d * np.array([0.1, 0.2, 0.3])))
    add(m.RpyFloatingJoint("jrpy", F_a1, b["a2"].body_frame(), 0.1 * d, 0.2 * d))
    add(
        m.QuaternionFloatingJoint(
            "jquat", b["l4"].body_frame(), b["a3"].body_frame(), 0.05 * d, 0.1 * d
        )
    )
    joints["weld_tool"] = plant.WeldFrames(b["a2"].body_frame(), b["tool"].body_frame(), pose())
    add(m.WeldJoint("wrev", b["nub"].body_frame(), F_a3, pose()))  # Reversed weld.
    add(m.RevoluteJoint("jrev_w", F_x, world, axis(), 0.1 * d))  # Reversed: World is the child.
    add(m.PrismaticJoint("jpri_rev", b["y"].body_frame(), F_x, axis(), -1.0, 1.0, 0.1 * d))

    actuators = {}
    for name, effort_limit in (
        ("jpri", np.inf),
        ("jrev", 3.0),
        ("jscrew", np.inf),
        ("jtip", 0.5),
        ("jrev_w", 2.0),
        ("jpri_rev", np.inf),
    ):
        actuators[name] = plant.AddJointActuator("u_" + name, joints[name], effort_limit)
    for name, rotor_inertia, gear_ratio in (
        ("jpri", 0.2, 3.0),
        ("jrev", 0.1, 2.0),
        ("jtip", 0.05, 4.0),
        ("jpri_rev", 0.3, 1.5),
    ):
        actuators[name].set_default_rotor_inertia(rotor_inertia)
        actuators[name].set_default_gear_ratio(gear_ratio)
    for name, kp, kd in (("jpri", 20.0, 2.0), ("jrev", 10.0, 1.0), ("jrev_w", 5.0, 0.5)):
        actuators[name].set_controller_gains(m.PdControllerGains(p=kp, d=kd))

    forces = [
        plant.AddForceElement(m.RevoluteSpring(joints["jrev"], 0.2, 3.0)),
        plant.AddForceElement(m.PrismaticSpring(joints["jpri"], 0.1, 5.0)),
        plant.AddForceElement(
            m.LinearSpringDamper(
                b["l2"], [0.1, 0.2, 0.3], b["a1"], [-0.1, 0.0, 0.2], 0.5, 10.0, 0.5 * d
            )
        ),
    ]
    plant.set_gravity_enabled(arm, False)
    plant.Finalize()
    items = SimpleNamespace(
        instances=[m.ModelInstanceIndex(i) for i in range(plant.num_model_instances())],
        robot=robot,
        arm=arm,
        objects=objects,
        bodies=b,
        joints=joints,
        actuators=actuators,
        forces=forces,
    )
    return plant, items
