"""Models the plant tests build, written once for either library (mallard or pydrake).

Each builder takes ``m``, a namespace of the library's public names (``library("mallard")``
or ``library("pydrake")``), so that the conformance tests can build the same model in both.
"""

import importlib
from types import SimpleNamespace

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
