"""A prototype of issue 24's MJCF reader by tables (U7), timed part by part beside the reader
and pydrake, and checked against the reader's plant.

Not mallard's reader: a measurement of the design in docs/performance_history.md ("MJCF by
tables, helper U7"). The document is read by expat into per-kind tables in one pass (each
element's attribute dict, line and parent); ``<default>`` classes are resolved once per class
and merged into an element's attributes by one dict display; the numbers of each attribute
kind are converted in one call (``plain_numbers``); frames, joint axes, geom and body inertias
are computed in numpy over all elements of a kind (by the arithmetic of the reader's scalar
functions, called with arrays: the same bits); the bodies, frames and joints are made by the
tree's bulk constructors and attached to the plant in one loop in Drake's order (bodies,
their joints' frames and the joints interleaved), the actuators likewise; Drake's checks run
over whole kinds (a union of attribute names, a set of distinct geom looks) and the warnings
are sorted into the reader's order.

Only the subset ``parsing.robot_mjcf`` writes (no ``<include>``, assets, contact or equality;
radian angles; primitive geoms; motors and position actuators; no SceneGraph): anything else
fails an assertion.

Errors: every number that does not read, a zero joint axis, limits out of order and an
inertial that is not physically valid are recorded with their order key (where the reader meets
them) and the first is raised, with the reader's text, file and line (the reader's own
functions read the failing elements); the other checks assert. ``--fuzz N`` checks that on N
mutated documents.

Run: python benchmarks/mjcf_tables.py [--bodies N ...] [--rounds R] [--fuzz N [--seed S]]
(checks the plant, its warnings and its Finalize against the reader for each size, then prints
the parts' CPU times and the alternating medians of pydrake, the reader and the prototype).
"""

import argparse
import gc
import logging
import math
import random
import re
import statistics
import sys
import tempfile
import time
import xml.parsers.expat as expat
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from parsing import robot_mjcf  # noqa: E402

from mallard.common._gc import paused_collection  # noqa: E402
from mallard.common._quaternion import hamilton_product  # noqa: E402
from mallard.common._quaternion_rotation import quaternion_rotation  # noqa: E402
from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, Sphere  # noqa: E402
from mallard.math import RigidTransform  # noqa: E402
from mallard.multibody.parsing._attributes import (  # noqa: E402
    convert_to_doubles,
    parse_floats,
    parse_scalar,
)
from mallard.multibody.parsing._diagnostics import Diagnostics  # noqa: E402
from mallard.multibody.parsing._mujoco import DEFAULT_ELEMENTS  # noqa: E402
from mallard.multibody.parsing._mujoco_geometry import (  # noqa: E402
    Frames,
    _reexpress,
    two_vector_rows,
)
from mallard.multibody.parsing._plain_numbers import plain_numbers  # noqa: E402
from mallard.multibody.tree import (  # noqa: E402
    BallRpyJoint,
    FixedOffsetFrame,
    JointActuator,
    PdControllerGains,
    PrismaticJoint,
    RevoluteJoint,
    RigidBody,
    RotationalInertia,
    SpatialInertia,
)
from mallard.multibody.tree._calc_spatial_inertia import unit_density_inertia  # noqa: E402
from mallard.multibody.tree._indices import (  # noqa: E402
    BodyIndex,
    FrameIndex,
    JointActuatorIndex,
    JointIndex,
    shared_indices,
)
from mallard.multibody.tree._rotational_inertia import (  # noqa: E402
    could_be_physically_valid_batch,
    point_mass_rows,
)
from mallard.multibody.tree._single_dof_joint import LimitedSingleDofJoint  # noqa: E402

ORIENTATIONS = frozenset(("quat", "axisangle", "euler", "xyaxes", "zaxis"))
SHAPES = {"sphere": Sphere, "capsule": Capsule, "cylinder": Cylinder, "box": Box,
          "ellipsoid": Ellipsoid}  # fmt: skip
IDENTITY_ROW = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
EPS = float(np.finfo(float).eps)
#: Below this many elements, a kind's arithmetic runs element by element in floats, through
#: the reader's scalar functions (numpy's cost a call exceeds the work).
FEW = 8
#: Attributes Drake ignores with a warning, by kind (the reader's lists).
UNSUPPORTED = {
    "body": ("mocap", "gravcomp", "user"),
    "joint": ("group", "springdamper", "stiffness", "actuatorfrcrange", "actuatorfrclimited",
              "actuatorgravcomp", "springref", "frictionloss", "user"),
    "geom": ("shellinertia", "fitscale", "fluidshape", "fluidcoef", "user"),
    "actuator": ("group", "lengthrange", "cranklength", "jointinparent", "tendon", "cranksite",
                 "slidersite", "site", "refsite", "user", "dyntype", "gaintype", "biastype",
                 "dynprm", "gainprm", "biasprm"),
}  # fmt: skip
IGNORED_CHILDREN = ("site", "light", "composite", "flexcomp", "plugin", "attach", "frame")
LOOK = ("contype", "conaffinity", "condim", "group", "material", "rgba", "friction")

TIMES = defaultdict(float)  # part -> CPU seconds, summed over parses


def tick(part, t0):
    """Adds the CPU time since ``t0`` to ``part``; returns now."""
    t1 = time.process_time()
    TIMES[part] += t1 - t0
    return t1


# ---- the document in tables ----------------------------------------------------------------
def read_tables(data):
    """(tags, attribute dicts, lines, parents (-1 for the root), {tag: [elements]}) of the
    XML ``data``, elements numbered in document order (one expat pass)."""
    parser = expat.ParserCreate(intern=None)
    tags, attrs, lines, parents, kinds = [], [], [], [], defaultdict(list)
    stack = [-1]
    push, pop = stack.append, stack.pop

    def start(tag, attrib):
        i = len(tags)
        parents.append(stack[-1])
        push(i)
        tags.append(tag)
        attrs.append(attrib)
        lines.append(parser.CurrentLineNumber)
        kinds[tag].append(i)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: pop()
    parser.Parse(data, True)
    return tags, attrs, lines, parents, kinds


class Document:
    """The tables of the document being read, and the errors found in it so far, each with
    its order key (the reader's order: see ``key``)."""

    def __init__(self, file, tags, attrs, lines, parents):
        self.file, self.tags, self.attrs, self.lines, self.parents = (
            file,
            tags,
            attrs,
            lines,
            parents,
        )
        self.errors = []  # ((order key), the reader's exception)

    def node(self, i, attrib=None):
        """Element ``i`` as the reader's functions read it (its attributes ``attrib``: with
        its defaults)."""
        return _Node(self.attrs[i] if attrib is None else attrib, self.file, self.lines[i],
                     self.tags[i])  # fmt: skip

    def key(self, i, name):
        """The order key of attribute ``name`` of element ``i``: where the reader reads it (a
        body's inertial, its geoms, itself, its joints, then its nested bodies, which come
        later in the document; the actuators after every body)."""
        tag, parent = self.tags[i], self.parents[i]
        rank = RANKS.get(tag, {}).get(name, 9)
        if tag == "body":
            return (i, 2, i, rank)
        if tag in ("inertial", "geom", "joint"):
            return (parent, PHASES[tag], i, rank)
        return (len(self.tags), tag != "motor", i, rank)

    def record(self, i, name, error):
        self.errors.append((self.key(i, name), error))

    def raise_first(self):
        """Raises the error the reader would raise first, if any."""
        if self.errors:
            raise min(self.errors, key=lambda e: e[0])[1]


#: The phase of a body's child elements in the reader's parse_body, and the order in which it
#: reads each element's number attributes (an orientation attribute after pos).
PHASES = {"inertial": 0, "geom": 1, "joint": 3}
RANKS = {
    "body": {"pos": 0, **dict.fromkeys(ORIENTATIONS, 1)},
    "inertial": {"pos": 0, **dict.fromkeys(ORIENTATIONS, 1), "mass": 2, "diaginertia": 3,
                 "fullinertia": 4, "valid": 5},
    "joint": {"pos": 0, "axis": 1, "damping": 2, "range": 3, "limits": 4, "armature": 5},
    "geom": {"fromto": 0, "pos": 1, **dict.fromkeys(ORIENTATIONS, 2), "mass": 3, "density": 4},
    "motor": {"ctrlrange": 0, "kp": 2, "kd": 3},
    "position": {"ctrlrange": 0, "kp": 2, "kd": 3},
}  # fmt: skip
DOC = None  # (the Document being read)


def numbers(texts, count):
    """The numbers of ``texts`` (each ``count`` plain decimals): an (n, count) array, (n,)
    for one."""
    if not texts:
        return np.empty((0, count)) if count > 1 else np.empty(0)
    values = plain_numbers(texts, count)
    assert values is not None, texts
    return values.reshape(-1, count) if count > 1 else values


def column(elements, dicts, name, count, default):
    """numbers() of attribute ``name`` of each of ``elements`` (its attribute dict of
    ``dicts``; the text ``default`` where absent). Where a text is not ``count`` plain
    decimals, the elements are read one by one by the reader's function (parse_scalar for
    one number, parse_floats for several), its error recorded at the element (NaN there)."""
    texts = [a.get(name, default) for a in dicts]
    values = plain_numbers(texts, count) if texts else np.empty(0)
    if values is not None and np.isfinite(values).all():  # (out of range: the reader's error)
        return values.reshape(-1, count) if count > 1 else values
    out = []
    for i, a in zip(elements, dicts, strict=True):
        node = DOC.node(i, a)
        try:
            if count == 1:
                value = parse_scalar(node, name, DIAGNOSTICS, float(default))
            else:
                value = parse_floats(node, name, count) or convert_to_doubles(default)
        except (RuntimeError, ValueError) as error:
            DOC.record(i, name, error)
            value = math.nan if count == 1 else [math.nan] * count
        out.append(value)
    return np.array(out, float).reshape(-1, count) if count > 1 else np.array(out, float)


def rotations(elements, dicts, frames):
    """The rows of R (n, 9) of the orientation attribute of each of ``elements`` (its
    attribute dict of ``dicts``; the identity where none): each kind of orientation over all
    its elements at once, or one by one by the reader's Frames.rows (few elements, a text not
    plain, a zero quaternion or axis: its error recorded at the element, NaN there)."""
    R = np.empty((len(dicts), 9))
    R[:] = IDENTITY_ROW
    by_kind = defaultdict(list)
    for k, a in enumerate(dicts):
        if not ORIENTATIONS.isdisjoint(a):
            (kind,) = ORIENTATIONS.intersection(a)  # (several: the reader's error, not here)
            by_kind[kind].append(k)
    for kind, ks in by_kind.items():
        texts = [dicts[k][kind] for k in ks]
        few = len(ks) < FEW or kind in ("xyaxes", "zaxis")
        values = None if few else plain_numbers(texts, 3 if kind == "euler" else 4)
        if values is not None:
            values = values.reshape(len(ks), -1)
            q = values if kind != "axisangle" else values[:, :3]  # (zero: the reader's error)
            if not (np.isfinite(values).all() and ((q * q).sum(axis=1) > 0).all()):
                values = None
        if values is None:
            for k in ks:  # (the reader's Frames.rows)
                try:
                    R[k] = frames.rows(DOC.node(elements[k], dicts[k]), kind)
                except (RuntimeError, ValueError) as error:
                    DOC.record(elements[k], kind, error)
                    R[k] = math.nan
        elif kind == "quat":
            w, x, y, z = values.T
            squared_norm = w * w + x * x + y * y + z * z
            R[ks] = np.stack(quaternion_rotation(w, x, y, z, 2.0 / squared_norm), axis=1)
        elif kind == "euler":
            angles = values
            if frames.degree:
                angles = angles * (math.pi / 180.0)
            one, zero = np.ones(len(ks)), np.zeros(len(ks))
            q = (one, zero, zero, zero)
            for angle, axis in zip(angles.T, frames.eulerseq, strict=True):
                half = (angle / 2.0).tolist()  # (math's cos and sin: the reader's bits)
                step = [np.fromiter(map(math.cos, half), float, len(ks)), 0.0, 0.0, 0.0]
                step["xyz".index(axis.lower()) + 1] = np.fromiter(map(math.sin, half), float)
                q = hamilton_product(q, step) if axis.islower() else hamilton_product(step, q)
            w, x, y, z = q
            squared_norm = w * w + x * x + y * y + z * z
            R[ks] = np.stack(quaternion_rotation(w, x, y, z, 2.0 / squared_norm), axis=1)
        elif kind == "axisangle":
            x, y, z, angle = values.T
            norm = np.sqrt(x * x + y * y + z * z)
            if frames.degree:
                angle = angle * (math.pi / 180.0)
            c = np.fromiter(map(math.cos, angle.tolist()), float, len(ks))
            s = np.fromiter(map(math.sin, angle.tolist()), float, len(ks))
            x, y, z = x / norm, y / norm, z / norm
            sx, sy, sz = s * x, s * y, s * z
            cx, cy, cz = (1 - c) * x, (1 - c) * y, (1 - c) * z
            R[ks] = np.stack(
                (cx * x + c, cx * y - sz, cx * z + sy, cy * x + sz, cy * y + c, cy * z - sx,
                 cz * x - sy, cz * y + sx, cz * z + c), axis=1,
            )  # fmt: skip
    return R


def z_to_rows(x1, y1, z1):
    """two_vector_rows((0, 0, 1), b) for the arrays x1, y1, z1 of b (not opposite to z),
    element by element: the reader's arithmetic."""
    norm = np.sqrt(x1 * x1 + y1 * y1 + z1 * z1)
    x1, y1, z1 = x1 / norm, y1 / norm, z1 / norm
    x0, y0, z0 = 0.0, 0.0, 1.0
    c = x1 * x0 + y1 * y0 + z1 * z0
    assert not (c < -1.0 + EPS).any()  # (opposite: the SVD's axis, element by element)
    s = np.sqrt((1.0 + c) * 2.0)
    w, x, y, z = s * 0.5, (y0 * z1 - z0 * y1) / s, (z0 * x1 - x0 * z1) / s, (x0 * y1 - y0 * x1) / s
    return np.stack(quaternion_rotation(w, x, y, z, 2.0 / (w * w + x * x + y * y + z * z)), 1)


class _Node:
    """An element as the reader's functions read it: its attributes, file, line and tag."""

    def __init__(self, attrib, file=None, line=None, tag="element"):
        self.attrib, self.file, self.line, self.tag = attrib, file, line, tag

    def get(self, name, default=None):
        return self.attrib.get(name, default)


DIAGNOSTICS = Diagnostics()


# ---- the parse -----------------------------------------------------------------------------
def parse(plant, data, file):
    """Adds the MJCF document ``data`` (bytes of file ``file``) to ``plant``; returns its
    ModelInstanceIndex."""
    global DOC
    try:
        return _parse(plant, data, file)
    finally:
        DOC = None  # (the tables freed with the parse, as the reader's tree)


def _parse(plant, data, file):
    diagnostics = Diagnostics()
    t = time.process_time()
    tags, attrs, lines, parents, kinds = read_tables(data)
    t = tick("read: expat into tables", t)
    global DOC
    DOC = Document(file, tags, attrs, lines, parents)
    frames = Frames(DIAGNOSTICS)
    (compiler,) = [attrs[i] for i in kinds["compiler"]]
    assert compiler.get("angle") == "radian" and compiler.get("autolimits", "true") == "true"
    frames.degree = False
    # <default>: each class's attributes once, its parent's merged in (own first, then the
    # parent's others, in their order: the reader's), by element kind.
    class_of = {d: attrs[d].get("class", "main") for d in kinds["default"]}
    defaults = {kind: {} for kind in DEFAULT_ELEMENTS}
    owned = {}  # kind -> its elements outside <default>
    for kind in ("joint", "geom", "motor", "position"):
        table, mine = defaults[kind], owned.setdefault(kind, [])
        for i in kinds[kind]:
            cls = class_of.get(parents[i])
            if cls is None:
                mine.append(i)
                continue
            a, parent = attrs[i], class_of.get(parents[parents[i]])
            table[cls] = a if parent not in table else {**a, **table[parent], **a}
    bodies = kinds["body"]
    world = kinds["worldbody"][0]
    childclass = {world: "main"}
    for b in bodies:
        childclass[b] = attrs[b].get("childclass", childclass[parents[b]])
    ordinal = {b: k for k, b in enumerate(bodies)}

    def merged(kind, elements):
        table = defaults[kind]
        out = []
        for i in elements:
            a = attrs[i]
            d = table.get(a.get("class") or childclass[parents[i]])
            out.append(a if d is None else {**a, **d, **a})
        return out

    joints = owned["joint"]
    joint_attrs = merged("joint", joints)
    geoms = [g for g in owned["geom"] if tags[parents[g]] == "body"]
    geom_attrs = merged("geom", geoms)
    t = tick("defaults, structure", t)

    body_attrs = [attrs[b] for b in bodies]
    p_PB = column(bodies, body_attrs, "pos", 3, "0 0 0")
    R_PB = rotations(bodies, body_attrs, frames)
    t = tick("body frames", t)

    n_j = len(joints)
    ax, ay, az = column(joints, joint_attrs, "axis", 3, "0 0 1").T
    norm = np.sqrt(ax * ax + ay * ay + az * az)
    for k in np.flatnonzero(norm == 0.0).tolist():  # (the reader's error, in its order)
        a = joint_attrs[k]
        message = f"The joint {a['name']} has a zero axis ({a.get('axis')})."
        try:
            DIAGNOSTICS.error(DOC.node(joints[k], a), message)
        except RuntimeError as error:
            DOC.record(joints[k], "axis", error)
    with np.errstate(invalid="ignore", divide="ignore"):  # (NaN where an error is recorded)
        ax, ay, az = ax / norm, ay / norm, az / norm  # (the reader's, then unit_axis' again)
    norm2 = np.sqrt(ax * ax + ay * ay + az * az)
    axes = np.stack((ax / norm2, ay / norm2, az / norm2), axis=1)
    has_pos = [k for k, a in enumerate(joint_attrs) if "pos" in a]
    p_CJ = np.zeros((n_j, 3))
    p_CJ[has_pos] = column([joints[k] for k in has_pos], [joint_attrs[k] for k in has_pos],
                           "pos", 3, "0 0 0")  # fmt: skip
    ranged = [k for k, a in enumerate(joint_attrs) if "range" in a]
    limits = np.empty((n_j, 6))
    limits[:] = (-math.inf, math.inf) * 3
    limits[ranged, :2] = column([joints[k] for k in ranged], [joint_attrs[k] for k in ranged],
                                "range", 2, "0 0")  # fmt: skip
    types = [a.get("type", "hinge") for a in joint_attrs]
    for k in np.flatnonzero(limits[:, 0] > limits[:, 1]).tolist():  # (the joint's own error)
        joint = object.__new__(RevoluteJoint if types[k] == "hinge" else PrismaticJoint)
        joint._name = joint_attrs[k]["name"]
        try:
            joint._checked_limits([limits[k, 0]], [limits[k, 1]], 1, "position",
                                  "set_position_limits")  # fmt: skip
        except RuntimeError as error:
            located = f"{DOC.file}:{DOC.lines[joints[k]]}: error: {error}"
            DOC.record(joints[k], "limits", RuntimeError(located))
    limits.flags.writeable = False
    damping = column(joints, joint_attrs, "damping", 1, "0")
    armature = column(joints, joint_attrs, "armature", 1, "0")
    t = tick("joint numbers", t)

    inertial_bodies = {parents[i] for i in kinds["inertial"]}
    weighed = [parents[g] not in inertial_bodies for g in geoms]  # (mass read: no <inertial>)
    G_B, p_BGcm, mass = geom_inertias(geoms, geom_attrs, weighed, frames)
    t = tick("geoms: frames, unit-density inertias, in B", t)
    rows = body_inertias(
        len(bodies), [ordinal[parents[g]] for g in geoms], G_B, p_BGcm, mass,
        [i for i in kinds["inertial"] if tags[parents[i]] == "body"], attrs, parents, ordinal,
        frames,
    )  # fmt: skip
    DOC.raise_first()
    t = tick("body inertias (composite, inertials)", t)

    # ---- the plant: bodies (and the massless ones between chained joints), each joint's
    # frames and the joint, in Drake's order.
    instance = plant.AddModelInstance(attrs[0]["model"])
    massless = np.zeros((1, 13))
    massless.flags.writeable = False
    joints_of = defaultdict(list)
    for k, i in enumerate(joints):
        joints_of[ordinal[parents[i]]].append(k)
    names, inertia_rows = [], []  # (bodies, in Drake's order)
    steps = []  # ("body", its place in names) or (joint, parent's place or -1, child's, body)
    place_of = [0] * len(bodies)
    for b in range(len(bodies)):
        name = body_attrs[b].get("name") or f"body{len(names) + 1}"
        place = place_of[b] = len(names)
        names.append(name)
        inertia_rows.append((rows, b))
        steps.append(("body", place))
        parent = parents[bodies[b]]
        last = -1 if parent == world else place_of[ordinal[parent]]
        chained = joints_of.get(b, ())
        for j, k in enumerate(chained):
            if j + 1 < len(chained):
                names.append(f"{name}{j}")
                inertia_rows.append((massless, 0))
                steps.append(("body", len(names) - 1))
                steps.append((k, last, len(names) - 1, None))  # (X_PC the identity)
                last = len(names) - 1
            else:
                steps.append((k, last, place, b))
    made = RigidBody._in_rows(names, instance, inertia_rows)
    t = tick("plant: bodies made", t)

    moving = [s for s in steps if s[0] != "body" and types[s[0]] in ("hinge", "slide")]
    pose = np.zeros((2 * len(moving), 12))
    pose[:, [0, 4, 8]] = 1.0
    frame_names, frame_parents, classes, joint_names, dampings = [], [], [], [], []
    world_body = plant.world_body()
    for k, a, c, _ in moving:
        parent, child = world_body if a < 0 else made[a], made[c]
        name = joint_attrs[k].get("name") or f"{parent._name}-{child._name}"
        joint_names.append(name)
        frame_names += (f"{name}_parent", f"{name}_child")
        frame_parents += (parent._body_frame, child._body_frame)
        classes.append(RevoluteJoint if types[k] == "hinge" else PrismaticJoint)
        d = float(damping[k])
        dampings.append(None if d == 0.0 and math.copysign(1.0, d) > 0 else d)
    # X_PJ = X_PB·X_CJ (X_CJ = [I, p_CJ]) by the stacked matmul (per matrix: the reader's
    # bits); X_PJ = X_CJ under a massless body (X_PC the identity); X_CJ itself on the child.
    on_body = [m for m, s in enumerate(moving) if s[3] is not None]
    bs, ks = [moving[m][3] for m in on_body], [moving[m][0] for m in on_body]
    R_PB3 = R_PB.reshape(-1, 3, 3)
    F = [2 * m for m in on_body]
    pose[F, :9] = np.matmul(R_PB3[bs], np.broadcast_to(np.eye(3), (len(bs), 3, 3))).reshape(-1, 9)
    pose[F, 9:] = np.matmul(R_PB3[bs], p_CJ[ks][:, :, None])[:, :, 0] + p_PB[bs]
    unplaced = [m for m, s in enumerate(moving) if s[3] is None]
    pose[[2 * m for m in unplaced], 9:] = p_CJ[[moving[m][0] for m in unplaced]]
    pose[1::2, 9:] = p_CJ[[s[0] for s in moving]]
    no_pos = [m for m in on_body if "pos" not in joint_attrs[moving[m][0]]]
    pose[[2 * m for m in no_pos], :9] = R_PB[[moving[m][3] for m in no_pos]]  # (X_PJ = X_PB)
    pose.flags.writeable = False
    made_frames = FixedOffsetFrame._in_rows(
        frame_names, frame_parents, [(pose, r) for r in range(len(pose))],
        [instance] * len(pose),
    )  # fmt: skip
    made_joints = LimitedSingleDofJoint._all_checked(
        classes, joint_names, made_frames[0::2], made_frames[1::2],
        [axes[s[0]] for s in moving], [(limits, s[0]) for s in moving], dampings,
    )  # fmt: skip
    t = tick("plant: frames, joints made", t)

    def ball(step):  # (a ball joint: by AddJoint)
        k, a, c, b = step
        parent, child = world_body if a < 0 else made[a], made[c]
        name = joint_attrs[k].get("name") or f"{parent._name}-{child._name}"
        X_PC = (
            RigidTransform() if b is None
            else RigidTransform._make(R_PB3[b].copy(), p_PB[b].copy())
        )  # fmt: skip
        X_CJ = RigidTransform._make(np.eye(3), p_CJ[k].copy())
        if "pos" in joint_attrs[k]:
            X_PJ = X_PC @ X_CJ
        else:
            X_PJ, X_CJ = X_PC, RigidTransform()
        plant.AddJoint(BallRpyJoint, name, parent, X_PJ, child, X_CJ, float(damping[k]))

    attach_in_order(plant, made, made_frames, made_joints, steps, moving, ball)
    for i in kinds["freejoint"]:  # (World's children here: X_WB = X_PB)
        b = ordinal[parents[i]]
        X_PB = RigidTransform._make(R_PB3[b].copy(), p_PB[b].copy())
        plant.SetDefaultFloatingBaseBodyPose(made[place_of[b]], RigidTransform() @ X_PB)
    t = tick("plant: attached in order", t)

    armatures = {
        joint: float(armature[s[0]])
        for joint, s in zip(made_joints, moving, strict=True)
        if "armature" in joint_attrs[s[0]]
    }
    actuator_attrs = add_actuators(
        plant, instance, dict(zip(joint_names, made_joints, strict=True)), armatures, tags,
        attrs, defaults, sorted(owned["motor"] + owned["position"],
                                key=lambda i: (tags[i] != "motor", i)),
    )  # fmt: skip
    t = tick("plant: actuators", t)

    # ---- Drake's checks over whole kinds; the warnings in the reader's order.
    for kind, dicts in (("body", body_attrs), ("joint", joint_attrs), ("geom", geom_attrs),
                        ("actuator", actuator_attrs)):  # fmt: skip
        assert set().union(*dicts).isdisjoint(UNSUPPORTED[kind])  # (else element by element)
    warnings, seen = [], set()  # ((body, phase, tag), line, message)
    for tag in IGNORED_CHILDREN:
        for i in kinds.get(tag, ()):
            p = parents[i]
            if tags[p] in ("body", "worldbody") and (p, tag) not in seen:
                seen.add((p, tag))  # (the first such child of each body)
                warnings.append(((p, 1, IGNORED_CHILDREN.index(tag)), lines[i],
                                 f"The tag '{tag}' found as a child of '{tags[p]}' is currently "
                                 "unsupported and will be ignored."))  # fmt: skip
    for look in {tuple(map(a.get, LOOK)) for a in geom_attrs}:  # (each distinct look once)
        contype, conaffinity, condim, group, material, rgba, friction = look
        assert material is None and condim is None
        if rgba is not None:
            numbers([rgba], 4)
        if friction is not None:
            numbers([friction], 1)
    assert len(set(names)) == len(names) and len(set(joint_names)) == len(joint_names)
    assert (norm > 0).all() and (damping >= 0).all() and (limits[:, 0] <= limits[:, 1]).all()
    weighed_mass = mass[weighed]
    assert (weighed_mass >= 0).all() and np.isfinite(weighed_mass).all()
    assert could_be_physically_valid_batch(*(G_B[weighed].T * weighed_mass)).all()
    for _, line, message in sorted(warnings):
        diagnostics.warning(None, message, file=file, line=line)
    tick("checks, warnings", t)
    return instance


def geom_inertias(geoms, geom_attrs, weighed, frames):
    """(G_GBo_B rows (n, 9), p_BoGcm_B (n, 3), mass (n,)) of the body geoms at their density
    (1000) or mass: each shape kind's unit-density inertia over its geoms at once, re-expressed
    in B (_reexpress with arrays) and shifted to Bo, as the reader's GeomParser._inertia."""
    n = len(geom_attrs)
    if n < FEW:
        inertias = [
            geom_inertia(g, a, w, frames)
            for g, a, w in zip(geoms, geom_attrs, weighed, strict=True)
        ]
        G_B, p, mass = ([inertia[j] for inertia in inertias] for j in range(3))
        return np.array(G_B).reshape(-1, 9), np.array(p).reshape(-1, 3), np.array(mass, float)
    kinds = [a.get("type", "sphere") for a in geom_attrs]
    sizes = [a.get("size", "") for a in geom_attrs]
    p_BG = np.zeros((n, 3))
    R_BG = np.empty((n, 9))
    R_BG[:] = IDENTITY_ROW
    length = np.full(n, np.nan)
    fromto = [k for k, a in enumerate(geom_attrs) if "fromto" in a]
    has_fromto = np.zeros(n, bool)
    has_fromto[fromto] = True
    if fromto:
        x0, y0, z0, x1, y1, z1 = column(
            [geoms[k] for k in fromto], [geom_attrs[k] for k in fromto], "fromto", 6, ""
        ).T
        p_BG[fromto] = np.stack(((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2), axis=1)
        dx, dy, dz = x0 - x1, y0 - y1, z0 - z1
        length[fromto] = np.sqrt(dx * dx + dy * dy + dz * dz)
        R_BG[fromto] = z_to_rows(x1 - x0, y1 - y0, z1 - z0)
    placed = [k for k, a in enumerate(geom_attrs) if "fromto" not in a]
    placed_attrs = [geom_attrs[k] for k in placed]
    placed_geoms = [geoms[k] for k in placed]
    p_BG[placed] = column(placed_geoms, placed_attrs, "pos", 3, "0 0 0")
    R_BG[placed] = rotations(placed_geoms, placed_attrs, frames)
    volume, moments = np.zeros(n), np.zeros((n, 6))
    by_kind = defaultdict(list)
    for k, kind in enumerate(kinds):
        by_kind[kind].append(k)
    for kind, ks in by_kind.items():
        if kind == "sphere":
            measures = (numbers([sizes[k] for k in ks], 1),)
        elif kind in ("capsule", "cylinder"):
            words = [sizes[k].split(None, 2) for k in ks]  # (1 or 2 numbers)
            L = length[ks]
            along = ~has_fromto[ks]  # (no fromto: the length is twice the half length)
            L[along] = 2 * numbers([w[1] for w, a in zip(words, along, strict=True) if a], 1)
            measures = (numbers([w[0] for w in words], 1), L)
        else:
            s = numbers([sizes[k] for k in ks], 3).T
            measures = (2.0 * s[0], 2.0 * s[1], 2.0 * s[2]) if kind == "box" else tuple(s)
        v, m = unit_density_inertia(SHAPES[kind], measures)
        volume[ks] = v
        moments[ks] = np.stack(np.broadcast_arrays(*m), axis=1)
    given = [k for k, a in enumerate(geom_attrs) if "mass" in a and weighed[k]]
    dense = [k for k, a in enumerate(geom_attrs) if "mass" not in a and weighed[k]]
    mass = np.full(n, math.nan)  # (NaN: not read, the body's <inertial> gives its inertia)
    mass[given] = column([geoms[k] for k in given], [geom_attrs[k] for k in given], "mass", 1,
                         "0")  # fmt: skip
    mass[dense] = volume[dense] * column(
        [geoms[k] for k in dense], [geom_attrs[k] for k in dense], "density", 1, "1000"
    )
    xx, yy, zz, xy, xz, yz = moments.T
    zero = np.zeros(n)
    (px, py, pz), G = _reexpress(R_BG.T, (zero, zero, zero),
                                 [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])  # fmt: skip
    bx, by, bz = p_BG.T
    qx, qy, qz = px + bx, py + by, pz + bz  # (p_BoGcm = p_GoGcm + p_BoGo)
    pm_p, pm_q = point_mass_rows(px, py, pz), point_mass_rows(qx, qy, qz)
    G_B = np.stack([
        g - b + a
        for g_row, b_row, a_row in zip(G, pm_p, pm_q, strict=True)
        for g, b, a in zip(g_row, b_row, a_row, strict=True)
    ], axis=1)  # fmt: skip
    return G_B, np.stack((qx, qy, qz), axis=1), mass


def geom_inertia(g, a, weighed, frames):
    """geom_inertias' (G_GBo_B rows, p_BoGcm_B, mass) of geom ``g`` (its attributes ``a``),
    in floats: the reader's functions (Frames.pose, two_vector_rows, unit_density_inertia,
    _reexpress); its error recorded at the geom (NaNs)."""
    node = DOC.node(g, a)
    try:
        return _geom_inertia(node, a, weighed, frames)
    except (RuntimeError, ValueError) as error:
        name = str(error).rsplit("attribute ", 1)[-1].split()[0].strip("'")
        DOC.record(g, name if name in RANKS["geom"] else "fromto", error)
        return [math.nan] * 9, [math.nan] * 3, math.nan


def _geom_inertia(node, a, weighed, frames):
    kind, size = a.get("type", "sphere"), convert_to_doubles(a.get("size", ""))
    if "fromto" in a:
        x0, y0, z0, x1, y1, z1 = parse_floats(node, "fromto", 6)
        R = two_vector_rows((0.0, 0.0, 1.0), (x1 - x0, y1 - y0, z1 - z0))
        p_BG = ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2)
        dx, dy, dz = x0 - x1, y0 - y1, z0 - z1
        length = math.sqrt(dx * dx + dy * dy + dz * dz)
    else:
        R, p_BG = frames.pose(node)
        length = None
    if kind in ("capsule", "cylinder"):
        measures = (size[0], length if length is not None else 2 * size[1])
    elif kind == "box":
        measures = (2.0 * size[0], 2.0 * size[1], 2.0 * size[2])
    else:
        measures = tuple(size[:3]) if kind == "ellipsoid" else (size[0],)
    volume, (xx, yy, zz, xy, xz, yz) = unit_density_inertia(SHAPES[kind], measures)
    mass = parse_scalar(node, "mass", DIAGNOSTICS) if weighed else math.nan
    if mass is None:
        mass = volume * parse_scalar(node, "density", DIAGNOSTICS, 1000.0)
    (px, py, pz), G = _reexpress(R or IDENTITY_ROW, (0.0, 0.0, 0.0),
                                 [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])  # fmt: skip
    bx, by, bz = p_BG
    q = (px + bx, py + by, pz + bz)
    pm_p, pm_q = point_mass_rows(px, py, pz), point_mass_rows(*q)
    G_B = [
        g - b + c
        for g_row, b_row, c_row in zip(G, pm_p, pm_q, strict=True)
        for g, b, c in zip(g_row, b_row, c_row, strict=True)
    ]
    return G_B, q, mass


def body_inertias(n, owners, G_B, p_BGcm, mass, inertials, attrs, parents, ordinal, frames):
    """The bodies' inertia rows (n, 13) [m, p_BoBcm_B, G_BBo_B]: an ``<inertial>``'s
    (MakeFromCentralInertia), else the composite of the body's geoms of positive mass
    (composite_inertia's sums, geom place by geom place over all bodies)."""
    rows = np.zeros((n, 13))
    has_inertial = np.zeros(n, bool)
    has_inertial[[ordinal[parents[i]] for i in inertials]] = True
    places, count = [], defaultdict(int)  # (the k-th massive geoms of the bodies, by k)
    for g, b in enumerate(owners):
        k = count[b]
        count[b] = k + 1
        if k == len(places):
            places.append([])
        if mass[g] > 0 and not has_inertial[b]:
            places[k].append(g)
    total, parts = np.zeros(n), np.zeros((n, 12))
    part = np.concatenate((p_BGcm, G_B), axis=1)
    for gs in places:
        bs = [owners[g] for g in gs]
        m1, m2 = total[bs], mass[gs]
        m = m1 + m2
        parts[bs] = (parts[bs] * m1[:, None] + part[gs] * m2[:, None]) / m[:, None]
        total[bs] = m
    rows[:, 0], rows[:, 1:] = total, parts
    dicts = [attrs[i] for i in inertials]
    bodies = [ordinal[parents[i]] for i in inertials]
    m = column(inertials, dicts, "mass", 1, "nan")
    p = column(inertials, dicts, "pos", 3, "0 0 0")
    I = np.zeros((len(dicts), 3, 3))
    diagonal = [k for k, a in enumerate(dicts) if "diaginertia" in a]
    I[diagonal, 0, 0], I[diagonal, 1, 1], I[diagonal, 2, 2] = column(
        [inertials[k] for k in diagonal], [dicts[k] for k in diagonal], "diaginertia", 3, ""
    ).T
    turned = [k for k in diagonal if not ORIENTATIONS.isdisjoint(dicts[k])]
    if turned:  # (reexpress: R·I·Rᵀ symmetrized, the stacked matmul per matrix)
        R = rotations([inertials[k] for k in turned], [dicts[k] for k in turned], frames)
        R = R.reshape(-1, 3, 3)
        out = R @ I[turned] @ R.transpose(0, 2, 1)
        I[turned] = (out + out.transpose(0, 2, 1)) * 0.5
    full = [k for k, a in enumerate(dicts) if "diaginertia" not in a]
    fxx, fyy, fzz, fxy, fxz, fyz = column(
        [inertials[k] for k in full], [dicts[k] for k in full], "fullinertia", 6, ""
    ).T
    I[full] = np.stack((fxx, fxy, fxz, fxy, fyy, fyz, fxz, fyz, fzz), 1).reshape(-1, 3, 3)
    I = I.reshape(-1, 9)
    x, y, z = p.T
    P = np.stack([q for row in point_mass_rows(x, y, z) for q in row], axis=1)
    valid = (m > 0) & could_be_physically_valid_batch(*I.T)
    for k in np.flatnonzero(~valid).tolist():  # (the reader's check, for its message)
        i = inertials[k]
        try:
            if not m[k] > 0:
                SpatialInertia.MakeFromCentralInertia(
                    float(m[k]), p[k].tolist(), RotationalInertia._make(I[k].reshape(3, 3))
                )
            SpatialInertia._from_central_rows(float(m[k]), p[k].tolist(),
                                              I[k].reshape(3, 3).tolist())  # fmt: skip
        except RuntimeError as error:
            located = f"{DOC.file}:{DOC.lines[i]}: error: {error}"
            DOC.record(i, "valid", RuntimeError(located))
    DOC.raise_first()  # (every number read and inertia checked: the reader's first error)
    rows[bodies, 0], rows[bodies, 1:4], rows[bodies, 4:] = m, p, I / m[:, None] + P
    rows.flags.writeable = False
    return rows


def attach_in_order(plant, bodies, frames, joints, steps, moving, ball):
    """What _add_checked does, element by element in Drake's order: each body with its body
    frame, each joint's two frames then the joint (``steps``; ball joints by ``ball``)."""
    names, next_index = plant._names, plant._next_index
    body_index, frame_index = next_index["_bodies"], next_index["_frames"]
    joint_index = next_index["_joints"]
    body_names, frame_names, joint_names = names["RigidBody"], names["Frame"], names["Joint"]
    body_list, frame_list, joint_list = plant._bodies, plant._frames, plant._joints
    instances, inertia_rows = plant._body_instances, plant._inertia_rows
    offset_frames, pose_rows = plant._offset_frames, plant._pose_rows
    joint_between, joint_rows = plant._joint_between, plant._joint_rows
    body_indices = shared_indices(BodyIndex, body_index + len(bodies))
    frame_indices = shared_indices(FrameIndex, frame_index + len(bodies) + len(frames))
    joint_indices = shared_indices(JointIndex, joint_index + len(joints))
    m = 0
    for step in steps:
        if step[0] == "body":
            body = bodies[step[1]]
            frame = body._body_frame
            key = (body._model_instance._value, body._name)
            body_names[key] = body
            frame_names[key] = frame
            body._plant = frame._plant = plant
            body._index, frame._index = body_indices[body_index], frame_indices[frame_index]
            body._ordinal, frame._ordinal = len(body_list), len(frame_list)
            body_list.append(body)
            frame_list.append(frame)
            instances.append(key[0])
            inertia_rows.append(body._inertia_row)
            body_index += 1
            frame_index += 1
            continue
        if m == len(moving) or moving[m] is not step:
            next_index["_bodies"], next_index["_frames"] = body_index, frame_index
            next_index["_joints"] = joint_index
            ball(step)
            frame_index, joint_index = next_index["_frames"], next_index["_joints"]
            frame_indices = shared_indices(FrameIndex, frame_index + len(bodies) + len(frames))
            joint_indices = shared_indices(JointIndex, joint_index + len(joints))
            continue
        for frame in frames[2 * m : 2 * m + 2]:
            frame_names[(frame._model_instance._value, frame._name)] = frame
            frame._plant = plant
            frame._index = frame_indices[frame_index]
            frame._ordinal = len(frame_list)
            frame_list.append(frame)
            offset_frames.append(frame._ordinal)
            pose_rows.append(frame._pose_row)
            frame_index += 1
        joint = joints[m]
        joint_names[(joint._model_instance._value, joint._name)] = joint
        joint._plant = plant
        joint._index = joint_indices[joint_index]
        joint._ordinal = len(joint_list)
        joint_list.append(joint)
        joint_index += 1
        a = joint._frame_on_parent._body._index._value
        b = joint._frame_on_child._body._index._value
        joint_rows.append((a, b, joint._nq, joint._nv, joint._model_instance._value, joint._jtype))
        joint_between[(a, b) if a <= b else (b, a)] = joint
        m += 1
    next_index["_bodies"], next_index["_frames"] = body_index, frame_index
    next_index["_joints"] = joint_index


def add_actuators(plant, instance, joints, armatures, tags, attrs, defaults, actuators):
    """Adds the motor and position ``actuators`` (elements, in the reader's order) on the
    ``joints`` (by name) in one loop, their effort limits (symmetric ctrlrange), gears, rotor
    inertias (armature / gear²) and gains over all at once; returns their attribute dicts."""
    dicts = []
    for i in actuators:
        a = attrs[i]
        d = defaults[tags[i]].get(a.get("class", "main"))
        dicts.append(a if d is None else {**a, **d, **a})
    lower, upper = column(actuators, dicts, "ctrlrange", 2, "0 0").T
    DOC.raise_first()
    assert (lower < upper).all() and (-lower == upper).all()  # (else Drake's warnings)
    limit = np.maximum(upper, -lower).tolist()
    gear = numbers([a.get("gear", "1").split()[0] for a in dicts], 1).tolist()
    kp = column(actuators, dicts, "kp", 1, "1").tolist()
    kd = column(actuators, dicts, "kd", 1, "0").tolist()
    DOC.raise_first()
    first = plant._next_index["_actuators"]
    indices = shared_indices(JointActuatorIndex, first + len(dicts))
    names, actuator_list = plant._names["JointActuator"], plant._actuators
    for k, (i, a) in enumerate(zip(actuators, dicts, strict=True)):
        joint = joints[a["joint"]]
        actuator = object.__new__(JointActuator)
        actuator._plant, actuator._index = plant, indices[first + k]
        actuator._ordinal = actuator._input_start = len(actuator_list)
        actuator._model_instance, actuator._ephemeral = instance, False
        actuator._name, actuator._joint = a["name"], joint
        actuator._effort_limit = limit[k]
        actuator._gear_ratio = ratio = gear[k]
        rotor = armatures.get(joint)
        actuator._rotor_inertia = 0.0 if rotor is None else rotor / (ratio * ratio)
        p, d = kp[k], kd[k]
        assert tags[i] != "position" or (p >= 0 and d >= 0)  # (else the setter's error)
        positional = tags[i] == "position" and not (p == 0 and d == 0)  # (zero: no controller)
        actuator._gains = PdControllerGains(p=p, d=d) if positional else None
        names[(instance._value, actuator._name)] = actuator
        actuator_list.append(actuator)
    plant._next_index["_actuators"] = first + len(dicts)
    return dicts


# ---- checks and timings --------------------------------------------------------------------
def dump(plant):
    """The plant's elements, field by field (floats as their bytes), in index order."""

    def h(x):
        return np.asarray(x, dtype=float).tobytes()

    out = []
    for body in plant._bodies:
        M = body.default_spatial_inertia()
        out.append((body.name(), int(body.index()), h(M.get_mass()), h(M.get_com()),
                    h(M.get_unit_inertia().CopyToFullMatrix3())))  # fmt: skip
    for frame in plant._frames:
        X = frame.GetFixedPoseInBodyFrame()
        out.append((frame.name(), int(frame.index()), frame.body().name(),
                    h(X.rotation().matrix()), h(X.translation())))  # fmt: skip
    for joint in plant._joints:
        out.append((
            type(joint).__name__, joint.name(), int(joint.index()),
            joint.frame_on_parent().name(), joint.frame_on_child().name(),
            h(joint.position_lower_limits()), h(joint.position_upper_limits()),
            h(joint.velocity_upper_limits()), h(joint.default_damping_vector()),
            h(joint.default_positions()),
            h(getattr(joint, "revolute_axis", getattr(joint, "translation_axis", list))()),
        ))  # fmt: skip
    for actuator in plant._actuators:
        gains = actuator.get_controller_gains() if actuator.has_controller() else None
        out.append((actuator.name(), int(actuator.index()), actuator.joint().name(),
                    h(actuator.effort_limit()), h(actuator.default_gear_ratio()),
                    h(actuator.default_rotor_inertia()),
                    None if gains is None else (h(gains.p), h(gains.d))))  # fmt: skip
    for body, X in sorted(plant._default_floating_poses.items()):
        out.append((body, h(X.rotation().matrix()), h(X.translation())))
    out.append((plant._joint_rows, plant._offset_frames, plant._body_instances))
    return out


def finalized(plant):
    """Finalize's results that depend on every element: the default mass matrix, positions
    and limits, as bytes."""
    plant.Finalize()
    context = plant.CreateDefaultContext()
    return (
        plant.CalcMassMatrix(context).tobytes(),
        plant.GetPositions(context).tobytes(),
        plant.GetPositionLowerLimits().tobytes(),
        plant.GetEffortUpperLimits().tobytes(),
    )


def check(path, mallard):
    """Whether the prototype's plant, warnings and Finalize equal the reader's for ``path``."""
    records = []
    handler = logging.Handler()
    handler.emit = lambda record: records.append(record.getMessage())
    logger = logging.getLogger("mallard.parsing")
    logger.addHandler(handler)
    propagate, logger.propagate = logger.propagate, False
    try:
        ours = mallard.MultibodyPlant(0.0)
        parse(ours, path.read_bytes(), str(path))
        our_warnings, records[:] = list(records), []
        theirs = mallard.MultibodyPlant(0.0)
        mallard.Parser(theirs).AddModels(str(path))
        their_warnings = list(records)
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
    return (dump(ours) == dump(theirs), our_warnings == their_warnings,
            finalized(ours) == finalized(theirs), len(our_warnings))  # fmt: skip


#: The number attributes the fuzz replaces, and the texts it puts there.
FUZZED = ("pos", "quat", "euler", "axisangle", "range", "diaginertia", "fullinertia", "mass",
          "fromto", "kp", "kd", "axis", "damping", "armature", "density")  # fmt: skip
FUZZ_TEXTS = ("1 2", "abc", "1 x 3", "nan", "1e999", "", "0 0 0 0", "1,2,3", "+-1",
              "1 2 3 4 5 6 7", "0.5", "-0", "1e-400", "0 0 0", "inf", "1_0", "1. 2. 3.",
              ".5 .5 .5 .5", "2 1")  # fmt: skip


def fuzz(count, seed, directory, mallard):
    """{outcome: documents} over ``count`` mutations of the 12- and 30-body robots (one or two
    FUZZED attributes, in elements or defaults, given one of FUZZ_TEXTS): "equal" where the
    prototype raises the reader's error (type, text, file and line) or makes its plant,
    "outside" where it leaves its subset (an assertion), else "DIFFERENT"."""
    random_ = random.Random(seed)
    documents = {n: robot_mjcf(n) for n in (12, 30)}
    attribute = re.compile(r'\b(\w+)="([^"]*)"')
    outcomes = defaultdict(int)

    def outcome(parse_into):
        try:
            plant = mallard.MultibodyPlant(0.0)
            parse_into(plant)
            return "made", dump(plant)
        except AssertionError:
            return "outside", None
        except (RuntimeError, ValueError) as error:
            return type(error).__name__, str(error)

    for k in range(count):
        text = documents[random_.choice((12, 30))]
        for _ in range(random_.choice((1, 1, 2))):
            spots = [m for m in attribute.finditer(text) if m.group(1) in FUZZED]
            spot = random_.choice(spots)
            text = text[: spot.start(2)] + random_.choice(FUZZ_TEXTS) + text[spot.end(2) :]
        path = Path(directory) / f"mutated{k}.xml"
        path.write_text(text)
        theirs = outcome(lambda plant, path=path: mallard.Parser(plant).AddModels(str(path)))
        ours = outcome(lambda plant, path=path: parse(plant, path.read_bytes(), str(path)))
        kind = "outside" if ours[0] == "outside" else "equal" if ours == theirs else "DIFFERENT"
        outcomes[f"{kind} ({theirs[0]})"] += 1
    return dict(outcomes)


def main(argv=None):
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--bodies", type=int, nargs="+", default=[30, 200])
    arguments.add_argument("--rounds", type=int, default=15)
    arguments.add_argument("--fuzz", type=int, default=0, help="mutated documents to check")
    arguments.add_argument("--seed", type=int, default=7)
    args = arguments.parse_args(argv)
    import pydrake.multibody.parsing as drake_parsing
    import pydrake.multibody.plant as drake_plant

    from mallard.multibody import parsing as mallard_parsing
    from mallard.multibody import plant as mallard_plant

    class mallard:
        MultibodyPlant = mallard_plant.MultibodyPlant
        Parser = mallard_parsing.Parser

    with tempfile.TemporaryDirectory() as directory:
        if args.fuzz:
            with np.errstate(all="ignore"):
                print(f"fuzz: {fuzz(args.fuzz, args.seed, directory, mallard)}")
        for n in args.bodies:
            path = Path(directory) / f"robot{n}.xml"
            path.write_text(robot_mjcf(n))
            plant_equal, warnings_equal, finalize_equal, count = check(path, mallard)
            print(f"{n} bodies: plant {'equal' if plant_equal else 'DIFFERENT'}, {count} "
                  f"warnings {'equal' if warnings_equal else 'DIFFERENT'}, Finalize "
                  f"{'equal' if finalize_equal else 'DIFFERENT'}")  # fmt: skip

            def pydrake_parse(path=path):
                plant = drake_plant.MultibodyPlant(0.0)
                drake_parsing.Parser(plant).AddModels(str(path))
                return plant

            def reader(path=path):
                plant = mallard.MultibodyPlant(0.0)
                mallard.Parser(plant).AddModels(str(path))
                return plant

            def prototype(path=path):
                plant = mallard.MultibodyPlant(0.0)
                with paused_collection():  # (as Parser._add)
                    parse(plant, path.read_bytes(), str(path))
                return plant

            logging.disable(logging.WARNING)
            libraries = (pydrake_parse, reader, prototype)
            for library in libraries:
                for _ in range(3):
                    library().Finalize()
            TIMES.clear()
            times = {library.__name__: ([], []) for library in libraries}
            for _ in range(args.rounds):
                for library in libraries:
                    gc.collect()
                    t0 = time.process_time()
                    plant = library()
                    t1 = time.process_time()
                    plant.Finalize()
                    t2 = time.process_time()
                    times[library.__name__][0].append(t1 - t0)
                    times[library.__name__][1].append(t2 - t0)
            logging.disable(logging.NOTSET)
            for part, seconds in TIMES.items():
                print(f"  {part:45s} {seconds / args.rounds * 1e3:7.3f} ms")
            base = [statistics.median(x) for x in times["pydrake_parse"]]
            for name, (parsed, finalized_) in times.items():
                a, b = statistics.median(parsed), statistics.median(finalized_)
                print(f"  {name:14s} parse {a * 1e3:7.3f} ms ({a / base[0]:.2f})   "
                      f"+ Finalize {b * 1e3:7.3f} ms ({b / base[1]:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
