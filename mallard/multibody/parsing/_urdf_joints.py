"""The numbers of a URDF document's joints, read all at once: the values
``_urdf._UrdfParser.parse_joint`` reads one joint at a time (the pose of ``<origin>``, the unit
axis, the ``<limit>`` values, then the joint's own normalization of its axis and its limit
arrays: the same operations, element by element, in arrays), for the joints that need no
message: ``<joint>`` elements of type revolute, continuous, prismatic or fixed, with a name
and parent and child links, without ``drake_ignore``, ``<dynamics>``, ``<calibration>`` or
``<safety_controller>``, plain decimal numbers, a non-zero axis, lower ≤ upper and
non-negative velocity and acceleration limits (an ``<origin>``'s ``rpy`` made a rotation by
matrix_from_rpy, as parse_joint's origin_to_transform makes it). Any other joint is left to
parse_joint, so that its messages come in document order."""

import math
import operator

import numpy as np

from mallard.math._roll_pitch_yaw import matrix_from_rpy
from mallard.multibody.parsing._plain_numbers import ABSENT, plain_numbers
from mallard.multibody.tree._joint_axis import SQRT_EPSILON

_NO_LIMITS = (ABSENT,) * 5
_DEFAULTS = np.array([-math.inf, math.inf, math.inf, math.inf, math.inf])
_TYPES = ("revolute", "continuous", "prismatic", "fixed")
#: Below this many joints, parse_joint reads each (the arrays' fixed cost would not pay).
MIN_JOINTS = 8
_IDENTITY = np.eye(3).reshape(-1)
_TAG = operator.attrgetter("tag")
_ELEMENT = operator.attrgetter("element")
_REVERSED = operator.itemgetter(slice(None, None, -1))


def first_children(nodes):
    """[{tag: its first child of that tag, as an Element} for each ElementView of ``nodes``]
    (one pass each, no call per node: a joint's are read often; no ElementView made for them:
    ``node.view`` gives one's)."""
    # (reversed: the first of a tag is the last one the dict takes)
    return [
        dict(zip(map(_TAG, children), children, strict=True))
        for children in map(_REVERSED, map(_ELEMENT, nodes))
    ]


def first_views(node):
    """first_children' dict of ``node``, of ElementViews (a joint read alone: its children
    read one by one, and named in its messages)."""
    first = {}
    for child in node.children:
        first.setdefault(child.tag, child)
    return first


def joint_values(joints, firsts):
    """[(name, parent link, child link, pose row, unit axis, limit row, effort), or None
    where parse_joint must read it] for the joint elements ``joints`` (``firsts``: their
    first_children): X_PB's row as FixedOffsetFrame._in_row takes it, the limit row as
    LimitedSingleDofJoint._checked takes it (axis and limit row None for a fixed joint, effort
    ∞)."""
    values = [None] * len(joints)
    if len(joints) < MIN_JOINTS:
        return values
    found, names = [], []  # (the joints read here, their keys)
    vectors, scalars = [], []  # (their texts: the origin's and the axis's xyz; the limit's
    # lower, upper, velocity, drake:acceleration and effort)
    rotated, angles = [], []  # (those whose origin has rpy, by their place in found; its text)
    for k, (node, first) in enumerate(zip(joints, firsts, strict=True)):
        attrib = node.attrib
        if node.tag != "joint" or attrib.get("type") not in _TYPES or "drake_ignore" in attrib:
            continue
        if "dynamics" in first or "calibration" in first or "safety_controller" in first:
            continue
        parent, child = first.get("parent"), first.get("child")
        if parent is None or child is None:
            continue
        keys = (attrib.get("name"), parent.attrib.get("link"), child.attrib.get("link"))
        if not all(keys):  # (None or "": parse_joint's messages, or its silence)
            continue
        origin = first.get("origin")
        xyz = "0 0 0"
        if origin is not None:
            origin = origin.attrib
            xyz = origin.get("xyz", xyz)
            if "rpy" in origin:
                rotated.append(len(found))
                angles.append(origin["rpy"])
        axis, limit = first.get("axis"), first.get("limit")
        if attrib["type"] == "fixed":
            axis = limit = None  # (neither is read)
        vectors += (xyz, "1 0 0" if axis is None else axis.attrib.get("xyz", "1 0 0"))
        if limit is None:
            scalars += _NO_LIMITS
        else:
            get = limit.attrib.get
            scalars += (
                get("lower", ABSENT), get("upper", ABSENT), get("velocity", ABSENT),
                get("drake:acceleration", ABSENT), get("effort", ABSENT),
            )  # fmt: skip
        found.append(k)
        names.append(keys)
    if len(found) < MIN_JOINTS:
        return values
    vectors, scalars = plain_numbers(vectors, 3), plain_numbers(scalars, 1)
    angles = plain_numbers(angles, 3) if rotated else []
    if vectors is None or scalars is None or angles is None:  # (an unusual number somewhere:
        return values  # joint by joint)
    vectors = vectors.reshape(-1, 6)
    limits = scalars.reshape(-1, 5)
    ok = ~(np.isinf(vectors).any(axis=1) | np.isinf(limits).any(axis=1))  # (out of range)
    if rotated:
        angles = angles.reshape(-1, 3)
        ok[rotated] &= np.isfinite(angles).all(axis=1)
        angles = angles.tolist()
    np.copyto(limits, _DEFAULTS, where=np.isnan(limits))
    p, a = vectors[:, :3], vectors[:, 3:]
    lower, upper, velocity, acceleration, effort = limits.T
    with np.errstate(all="ignore"):  # (a zero axis fails)
        x, y, z = a.T
        norm = np.sqrt(x * x + y * y + z * z)  # (parse_joint's normalization, then unit_axis's)
        a = a / norm[:, None]
        x, y, z = a.T
        # (unit_axis rejects what is not clearly non-zero: here, only an axis whose squares
        # overflow, divided by an infinite norm)
        ok &= (norm >= 1e-8) & (np.abs(a).max(axis=1) > SQRT_EPSILON)
        a = a / np.sqrt(x * x + y * y + z * z)[:, None]
    ok &= (lower <= upper) & (velocity >= 0) & (acceleration >= 0)
    # (the joints' limit rows, ∓∞ where not given: each joint reads its row when asked)
    rows = np.stack((lower, upper, -velocity, velocity, -acceleration, acceleration), axis=1)
    rows.flags.writeable = False
    # (the joint frames' pose rows [R_PB, p_PB]: R_PB = I without rpy)
    poses = np.empty((len(found), 12))
    poses[:, :9], poses[:, 9:] = _IDENTITY, p
    for j, rpy in zip(rotated, angles, strict=True):
        if ok[j]:
            poses[j, :9] = matrix_from_rpy(*rpy).reshape(-1)
    poses.flags.writeable = False
    efforts = effort.tolist()
    for j in np.flatnonzero(ok).tolist():
        k = found[j]
        if joints[k].attrib["type"] == "fixed":
            values[k] = (*names[j], (poses, j), None, None, math.inf)
            continue
        values[k] = (*names[j], (poses, j), a[j], (rows, j), efforts[j])
    return values
