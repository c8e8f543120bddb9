"""The numbers of a URDF document's joints, read all at once: the values
``_urdf._UrdfParser.parse_joint`` reads one joint at a time (the pose of ``<origin>``, the unit
axis, the ``<limit>`` values, then the joint's own normalization of its axis and its limit
arrays: the same operations, element by element, in arrays), for the joints that need no
message: ``<joint>`` elements of type revolute, continuous, prismatic or fixed, with a name
and parent and child links, without ``drake_ignore``, plain decimal numbers, a non-zero axis,
lower ≤ upper and non-negative velocity and acceleration limits, a non-negative damping (an
``<origin>``'s ``rpy`` made a rotation by matrix_from_rpy, as parse_joint's
origin_to_transform makes it); those of which parse_joint only warns (``<calibration>``,
``<safety_controller>``, a non-zero friction, a coulomb_window) marked for the parser to give
its warnings. Any other joint is left to parse_joint, so that its messages come in document
order."""

import math
from itertools import repeat

import numpy as np

from mallard.math._roll_pitch_yaw import matrix_from_rpy
from mallard.multibody.parsing._plain_numbers import ABSENT, plain_numbers
from mallard.multibody.tree._joint_axis import SQRT_EPSILON

_NO_LIMITS = (ABSENT,) * 5
#: The columns of a limit row in [lower, upper, velocity, acceleration, effort] (the third and
#: fifth then negated).
_LIMIT_ROW = [0, 1, 2, 2, 3, 3]
_DEFAULTS = np.array([-math.inf, math.inf, math.inf, math.inf, math.inf])
_TYPES = ("revolute", "continuous", "prismatic", "fixed")
#: Below this many joints, parse_joint reads each (the arrays' fixed cost would not pay).
MIN_JOINTS = 8
_IDENTITY = np.eye(3).reshape(-1)
#: matrix_from_rpy(0, 0, 0) (its −sin(pitch) a −0.0, not the identity's bits).
_UNTURNED = matrix_from_rpy(0.0, 0.0, 0.0).reshape(-1)


def first_children(elements):
    """[{tag: its first child of that tag, as an Element} for each Element of ``elements``]
    (one pass each, no call per element: a joint's are read often; no ElementView made for
    them: its ElementView's ``view`` gives one's)."""
    # (reversed: the first of a tag is the last one the dict takes; a comprehension: dict()
    # of (tag, child) pairs makes and checks a pair per child, ~1.8× the instructions)
    return [{child.tag: child for child in reversed(element)} for element in elements]


def first_views(node):
    """first_children' dict of ``node``, of ElementViews (a joint read alone: its children
    read one by one, and named in its messages)."""
    first = {}
    for child in node.children:
        first.setdefault(child.tag, child)
    return first


def joint_values(joints, firsts):
    """([(name, parent link, child link, pose row, unit axis, limit row, effort, damping), or
    None where parse_joint must read it], [the places of those read that parse_joint warns
    of]) for the joint Elements ``joints`` (``firsts``: their first_children): X_PB's row as
    FixedOffsetFrame._in_row takes it, the limit row and damping as
    LimitedSingleDofJoint._checked takes them (axis, limit row and damping None for a fixed
    joint, effort ∞; damping None where the joint's is +0.0). (_UrdfParser.warn_read gives a
    joint's warnings.)"""
    values = [None] * len(joints)
    if len(joints) < MIN_JOINTS:
        return values, []
    found, names = [], []  # (the joints read here, their keys)
    fixed = []  # (the fixed ones, by their place in found)
    warned = set()  # (those parse_joint warns of, by their place in found)
    vectors, scalars = [], []  # (their texts: the origin's and the axis's xyz; the limit's
    # lower, upper, velocity, drake:acceleration and effort)
    rotated, angles = [], []  # (those whose origin has rpy, by their place in found; its text)
    damped, frictions = [], []  # (those with <dynamics>, by their place in found; its damping
    # and friction texts)
    for k, (node, first) in enumerate(zip(joints, firsts, strict=True)):
        attrib = node.attrib
        joint_type = attrib.get("type")
        if node.tag != "joint" or joint_type not in _TYPES or "drake_ignore" in attrib:
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
        if "calibration" in first or "safety_controller" in first:
            warned.add(len(found))
        if joint_type == "fixed":  # (no axis, limit or dynamics read)
            fixed.append(len(found))
            vectors += (xyz, "1 0 0")
            scalars += _NO_LIMITS
        else:
            axis, limit, dynamics = first.get("axis"), first.get("limit"), first.get("dynamics")
            vectors += (xyz, "1 0 0" if axis is None else axis.attrib.get("xyz", "1 0 0"))
            if limit is None:
                scalars += _NO_LIMITS
            else:
                get = limit.attrib.get
                scalars += (
                    get("lower", ABSENT), get("upper", ABSENT), get("velocity", ABSENT),
                    get("drake:acceleration", ABSENT), get("effort", ABSENT),
                )  # fmt: skip
            if dynamics is not None:
                get = dynamics.attrib.get
                damped.append(len(found))
                frictions += (get("damping", ABSENT), get("friction", ABSENT))
                if "coulomb_window" in dynamics.attrib:
                    warned.add(len(found))
        found.append(k)
        names.append(keys)
    n = len(found)
    if n < MIN_JOINTS:
        return values, []
    vectors, scalars = plain_numbers(vectors, 3), plain_numbers(scalars, 1)
    angles = plain_numbers(angles, 3) if rotated else []
    frictions = plain_numbers(frictions, 1) if damped else []
    # (an unusual number somewhere: joint by joint)
    if vectors is None or scalars is None or angles is None or frictions is None:
        return values, []
    return joint_rows(
        len(joints), found, names, fixed, warned, vectors.reshape(-1, 6),
        scalars.reshape(-1, 5), rotated, angles.reshape(-1, 3) if rotated else angles, damped,
        frictions.reshape(-1, 2) if damped else frictions,
    )  # fmt: skip


def joint_rows(count, found, names, fixed, warned, vectors, limits, rotated, angles, damped,
               frictions):  # fmt: skip
    """joint_values' answer (of ``count`` joints) from the values of the joints it reads
    (``found``, their places; ``names``, their (name, parent link, child link); the others
    :func:`joint_columns`'), with joint_columns' warnings."""
    columns, ok, warned = joint_columns(
        fixed, warned, vectors, limits, rotated, angles, damped, frictions
    )
    read = list(map(tuple.__add__, names, zip(*columns, strict=True)))
    values = [None] * count
    if len(found) == count and ok.all():
        values = read
    else:
        for j in np.flatnonzero(ok).tolist():
            values[found[j]] = read[j]
    return values, [found[j] for j in warned if ok[j]]


def joint_columns(fixed, warned, vectors, limits, rotated, angles, damped, frictions):
    """([pose rows, unit axes, limit rows, efforts, dampings]: the columns of joint_values'
    values but the names, of n joints, a boolean (n,) of those parse_joint reads so, [the
    places of those parse_joint warns of, ascending]) from their values: ``fixed``,
    ``warned``: the fixed ones and those parse_joint warns of by their children (places); the
    (n, 6) xyz of each ``<origin>`` and its axis; the (n, 5) lower, upper, velocity,
    drake:acceleration and effort of each ``<limit>``, NaN where absent; the rpy rows
    ``angles`` of the joints at ``rotated``; the (d, 2) damping and friction of the
    ``<dynamics>`` of the joints at ``damped``, NaN where absent (``limits``' NaN are set to
    their defaults, ``warned`` (a set) takes the joints warned of for their friction). (The
    math of parse_joint in arrays, for the reader and its fast path, _urdf_fast.)"""
    n = len(vectors)
    ok = ~(np.isinf(vectors).any(axis=1) | np.isinf(limits).any(axis=1))  # (out of range)
    dampings = [None] * n  # (a damping the joint keeps: not +0.0, the default's)
    if damped:
        damping, friction = frictions.T
        # (out of range, a damping the joint rejects)
        ok[damped] &= ~np.isinf(frictions).any(axis=1) & ~(damping < 0.0)
        kept = ~np.isnan(damping) & ((damping != 0.0) | np.signbit(damping))
        rubs = (friction != 0.0) & ~np.isnan(friction)  # (parse_joint warns of it)
        for j, d, keep in zip(damped, damping.tolist(), kept.tolist(), strict=True):
            if keep:
                dampings[j] = d
        warned.update(np.array(damped)[rubs].tolist())
    unturned = []  # (those whose rpy is three +0.0s: matrix_from_rpy's row for them once)
    if rotated:
        ok[rotated] &= np.isfinite(angles).all(axis=1)
        turned = (angles != 0.0).any(axis=1) | np.signbit(angles).any(axis=1)
        if not turned.all():
            at = np.array(rotated)
            unturned, rotated, angles = at[~turned], at[turned].tolist(), angles[turned]
        angles = angles.tolist()
    np.copyto(limits, _DEFAULTS, where=np.isnan(limits))
    p, a = vectors[:, :3], vectors[:, 3:]
    with np.errstate(all="ignore"):  # (a zero axis fails)
        squares = a * a
        norm = np.sqrt(squares[:, 0] + squares[:, 1] + squares[:, 2])  # (parse_joint's
        a = a / norm[:, None]  # normalization, then unit_axis's)
        # (unit_axis rejects what is not clearly non-zero: here, only an axis whose squares
        # overflow, divided by an infinite norm)
        ok &= (norm >= 1e-8) & (np.abs(a).max(axis=1) > SQRT_EPSILON)
        squares = a * a
        a = a / np.sqrt(squares[:, 0] + squares[:, 1] + squares[:, 2])[:, None]
    lower, upper, velocity, acceleration, effort = limits.T
    ok &= (lower <= upper) & (velocity >= 0) & (acceleration >= 0)
    # (the joints' limit rows [lower, upper, −velocity, velocity, −acceleration, acceleration],
    # ∓∞ where not given: each joint reads its row when asked)
    rows = limits[:, _LIMIT_ROW]
    np.negative(rows[:, 2::2], out=rows[:, 2::2])
    rows.flags.writeable = False
    # (the joint frames' pose rows [R_PB, p_PB]: R_PB = I without rpy)
    poses = np.empty((n, 12))
    poses[:, :9], poses[:, 9:] = _IDENTITY, p
    poses[unturned, :9] = _UNTURNED
    for j, rpy in zip(rotated, angles, strict=True):
        if ok[j]:
            poses[j, :9] = matrix_from_rpy(*rpy).reshape(-1)
    poses.flags.writeable = False
    places = range(n)
    axes, limit_rows = list(a), list(zip(repeat(rows), places))  # (effort ∞ where fixed)
    for j in fixed:
        axes[j] = limit_rows[j] = None
    pose_rows = list(zip(repeat(poses), places))
    return [pose_rows, axes, limit_rows, effort.tolist(), dampings], ok, sorted(warned)
