"""The forest of mobilized bodies ("mobods") that Finalize() builds from bodies and joints.

Drake's rule (reproduced exactly so that q and v are ordered as in pydrake):

1. Every joint touching World starts a tree, in joint index order (World may be either end).
2. Bodies with joints but no path to World get a floating joint to World at a chosen base
   body: the one that is a joint's child least often, then a joint's parent most often, then
   of lowest index; these trees follow the World ones, in the order their bases are chosen.
3. Bodies with no joints at all get a floating joint each, last, in body index order.
4. Mobods are numbered depth first (preorder) from World; the children of a body are ordered
   by the index of the joint connecting them. A joint may connect a child to its parent
   (it is then *reversed*). q and v are assigned in mobod order.

Any loop (including a body with two inboard joints, or a loop of welds) is an error, and so
is a reversed joint of a type other than revolute, prismatic or weld.

Drake also adds FixedOffsetFrames at Finalize() for some mobilizers (``mobilizer_frames``).
The finalized plant keeps the forest and its index maps in one ``Topology``.
"""

from itertools import chain, repeat
from operator import itemgetter
from typing import NamedTuple

import numpy as np

_IDENTITY_ROW = np.append(np.eye(3).reshape(9), np.zeros(3))  # ([R, p] of the identity)
_ZERO = np.zeros(3)
#: Per i, where e_i × u's elements are in [u0, u1, u2, 0, −u0, −u1, −u2] (z_axis_rotations).
_CROSS_TAKES = np.array([[3, 6, 1], [2, 3, 4], [5, 0, 3]])
_LOOP_ERROR = (
    "The bodies and joints of this system form one or more loops in the system graph. Drake "
    "currently does not support automatic modeling of such systems; however, they can be "
    "modeled with some input changes. See "
    "https://drake.mit.edu/troubleshooting.html#mbp-loops-in-graph for advice on how to model "
    "systems with loops."
)


class Mobod(NamedTuple):
    """One mobilized body: its body, its inboard joint (None for World), its parent mobod,
    whether the joint is reversed, and its slots in q and v (Topology.mobods)."""

    body: int
    joint: int | None
    parent: int
    reversed: bool
    q_start: int
    v_start: int


_new_mobod = tuple.__new__  # (Mobod's fields as one tuple: ~1/2 of Mobod(...)'s time)


class Topology:
    """A finalized plant's mobods and the index maps between them and its elements (made by
    MultibodyPlant.Finalize(), then read only).

    ``tree`` (n, 6): per mobod (World first) the columns of ``_layout.TREE_COLUMNS`` (parent,
    joint type, q start, v start, reversed, body); ``mobods``: the same as Mobods, made when
    first asked for; ``jparam`` (n, 4): its joint's constants (a revolute or prismatic joint's
    axis in its mobilizer frames, a revolute's turned to z: ``z_turns``, revolute mobod →
    X_JZ); ``mobod_of_body`` (by BodyIndex), ``mobod_of_joint`` (by joint ordinal),
    ``inboard_joint_of_body`` (the Joint mobilizing a body, None for World); for the dynamics:
    ``mobod_instance`` and ``mobod_joint`` (−1 for World) per mobod, ``actuator_input`` and
    ``actuator_v`` (input and v slot) per actuator, ``rpy_pitch`` (the q slots of roll-pitch-yaw
    joints' pitch), ``gravity_mobods`` (the mobods gravity acts on; set at first use)."""

    __slots__ = (
        "_mobods", "tree", "jparam", "z_turns", "mobod_of_body", "mobod_of_joint",
        "inboard_joint_of_body", "mobod_instance", "mobod_joint", "actuator_input",
        "actuator_v", "rpy_pitch", "gravity_mobods",
    )  # fmt: skip

    def __init__(self, n):
        # (the arrays are set by MultibodyPlant._build_flat_model, for n mobods)
        self._mobods = self.tree = self.jparam = self.mobod_of_body = self.mobod_of_joint = None
        self.z_turns = {}
        self.inboard_joint_of_body = [None] * n
        self.mobod_instance = self.mobod_joint = self.actuator_input = self.actuator_v = None
        self.rpy_pitch = self.gravity_mobods = None

    @property
    def mobods(self):
        """The Mobods, World first (its joint None): ``tree`` and ``mobod_joint`` as tuples."""
        if self._mobods is None:
            parent, q_start, v_start, reversed_joint, body = self.tree[:, (0, 2, 3, 4, 5)].T
            joint = [None, *self.mobod_joint[1:].tolist()]
            fields = zip(
                body.tolist(), joint, parent.tolist(), map(bool, reversed_joint.tolist()),
                q_start.tolist(), v_start.tolist(), strict=True,
            )  # fmt: skip
            self._mobods = list(map(_new_mobod, repeat(Mobod), fields))
        return self._mobods


def joint_graph(num_bodies, joint_rows):
    """The joints touching each body, in decreasing joint index order (a depth-first walk
    pushes them so, to pop them in joint order). ``joint_rows`` lists a row (parent body,
    child body, ...) of every joint, in joint index order."""
    touching = [[] for _ in range(num_bodies)]
    for j in range(len(joint_rows) - 1, -1, -1):
        row = joint_rows[j]
        touching[row[0]].append(j)
        touching[row[1]].append(j)
    return touching


def build_forest(num_bodies, joint_rows, floating_size):
    """(rows, bases): the mobods after World in depth-first order, as an int64 array of rows
    (body, joint, parent mobod, reversed, q start, v start: Mobod's fields), and the bodies
    that need a floating joint to World, in the order Drake adds them.

    ``joint_rows`` lists a row (parent body, child body, nq, nv, ...) of every joint, in joint
    index order (read, not changed); a floating joint (0, base, *``floating_size``) is
    numbered after them for each base: World's trees are grown first, then, of the bodies
    they left out, each base's (Drake's rules 2 and 3 above). RuntimeError if the bodies and
    joints form a loop.
    """
    ordered = _ordered_forest(num_bodies, joint_rows, floating_size)
    if ordered is not None:
        return ordered
    touching = joint_graph(num_bodies, joint_rows)
    mobod_of_body = [-1] * num_bodies
    mobod_of_body[0] = 0
    walked = [False] * len(joint_rows)
    rows = []  # (the mobods' fields, one after another)
    slots = _grow(rows, (0, 0), mobod_of_body, list(touching[0]), walked, touching, joint_rows)
    bases = []
    if len(rows) == 6 * (num_bodies - 1):  # (every body in World's trees)
        return _as_rows(rows), bases
    jointed = [b for b in range(1, num_bodies) if touching[b] and mobod_of_body[b] < 0]
    if jointed:  # (counted only for a model not all connected to World)
        as_child = [0] * num_bodies
        as_parent = [0] * num_bodies
        for row in joint_rows:
            as_parent[row[0]] += 1
            as_child[row[1]] += 1
        # (by as_child, then −as_parent, then b, as two stable sorts of the bodies in order:
        # keyed by list.__getitem__, no Python function called per body)
        jointed.sort(key=as_parent.__getitem__, reverse=True)
        jointed.sort(key=as_child.__getitem__)
    joint_rows = list(joint_rows)  # (with the floating joints: the graph needs no more of them)
    for b in [*jointed, *(b for b in range(1, num_bodies) if not touching[b])]:
        if mobod_of_body[b] < 0:
            j = len(joint_rows)
            bases.append(b)
            joint_rows.append((0, b, *floating_size))  # (World's new joint to b)
            walked.append(False)
            slots = _grow(rows, slots, mobod_of_body, [j], walked, touching, joint_rows)
            if len(rows) == 6 * (num_bodies - 1):  # (every body reached: no more bases)
                break
    return _as_rows(rows), bases


def _as_rows(fields):
    """The list of the mobods' fields, 6 each, as build_forest's int64 rows."""
    return np.fromiter(fields, dtype=np.int64, count=len(fields)).reshape(-1, 6)


def _ordered_forest(num_bodies, joint_rows, floating_size):
    """build_forest's (rows, bases) of a tree whose joints, in index order, are already the
    depth-first order build_forest grows (a parser's tree, its bodies added parent first): each
    body but World the child of exactly one joint, and either every body in World's tree or
    World without joints and one body the child of none, its floating base; a joint's
    parent body reached by the joints before it, along the path to the last one reached (so
    none reversed and no loop). None for any other model (build_forest grows it)."""
    parents = list(map(itemgetter(0), joint_rows))
    children = list(map(itemgetter(1), joint_rows))
    count = len(joint_rows)
    mobod_of_body = [-1] * num_bodies
    mobod_of_body[0] = path_top = 0
    if count == num_bodies - 1:  # (every body in World's tree, if each a child once)
        bases, path, q_next, v_next = [], [0], 0, 0
    elif count == num_bodies - 2 and 0 not in parents:  # (one floating base b: the first
        b = parents[0] if count else 1  # joint's parent, if each other body a child once)
        bases, path, (q_next, v_next) = [b], [0, 1], floating_size
        mobod_of_body[b] = path_top = 1
    else:
        return None
    k = path_top + 1
    inboard = []
    for parent_body, body in zip(parents, children, strict=True):
        parent = mobod_of_body[parent_body]
        if parent != path_top:  # (a child of the path's lower mobod: go back to it)
            if parent < 0:
                return None
            while path_top > parent:
                path.pop()
                path_top = path[-1]
            if path_top != parent:  # (not on the path: another branch's)
                return None
        inboard.append(parent)
        mobod_of_body[body] = path_top = k
        path.append(k)
        k += 1
    if len(set(children).union((0, *bases))) != num_bodies:  # (a body a child twice, or a
        return None  # joint's child World or the base: a loop)
    rows = np.zeros((num_bodies - 1, 6), dtype=np.int64)  # (none reversed)
    if bases:  # (the floating base's mobod first: its joint numbered after the others)
        rows[0, :2] = bases[0], count
    joints = rows[len(bases) :]
    joints[:, 0] = children
    joints[:, 1] = range(count)
    joints[:, 2] = inboard
    sizes = chain.from_iterable(map(itemgetter(2, 3), joint_rows))  # (nq, nv)
    ends = np.fromiter(sizes, np.int64, 2 * count).reshape(count, 2).cumsum(axis=0)
    joints[1:, 4:] = ends[:-1]
    joints[:, 4:] += (q_next, v_next)
    return rows, bases


def _grow(rows, slots, mobod_of_body, stack, walked, touching, joint_rows):
    """Appends to ``rows`` the fields of the mobods of the trees reached through the joints of
    ``stack`` (popped: the last first), depth first, each joint walked once (``walked``),
    their q and v slots from ``slots`` (the next (q, v) start) on; returns the next slots. A
    reached body's joints are pushed in decreasing index order (so popped in joint order), its
    inboard joint with them (then popped as walked); a joint popped between two bodies already
    reached closes a loop."""
    q_next, v_next = slots
    k = len(rows) // 6 + 1
    add, pop, push = rows.extend, stack.pop, stack.extend
    while stack:
        j = pop()
        if walked[j]:
            continue
        walked[j] = True
        row = joint_rows[j]
        parent_body, body = row[0], row[1]
        parent = mobod_of_body[parent_body]
        reversed_joint = parent < 0  # (reached from its child: the parent body is outboard)
        if reversed_joint:
            parent, body = mobod_of_body[body], parent_body
        elif mobod_of_body[body] >= 0:
            raise RuntimeError(_LOOP_ERROR)
        mobod_of_body[body] = k
        k += 1
        add((body, j, parent, reversed_joint, q_next, v_next))
        q_next += row[2]
        v_next += row[3]
        push(touching[body])
    return q_next, v_next


#: The joint types Drake can mobilize reversed (with the child body inboard of the parent).
REVERSIBLE_JOINT_TYPES = ("prismatic", "revolute", "weld")


def check_reversed_joints(joints, reversed_joints, instance_names):
    """RuntimeError, with Drake's message, if a joint that ``build_forest`` had to reverse (of
    ``joints``, by their ordinals ``reversed_joints``, in mobod order) is of a type Drake
    cannot reverse."""
    for j in reversed_joints:
        joint = joints[j]
        kind = joint.type_name()
        if kind not in REVERSIBLE_JOINT_TYPES:
            raise RuntimeError(
                f"MultibodyPlant::Finalize(): parent/child ordering for {kind} joint "
                f"{joint.name()} in model instance {instance_names[int(joint.model_instance())]} "
                "would have to be reversed to make a tree-structured model for this system. "
                f"Currently Drake does not support reversed {kind} joints. The joints that can "
                f"be reversed are: {', '.join(REVERSIBLE_JOINT_TYPES)}. Reverse the ordering in "
                "your joint definition so that its parent body is closer to World in the tree."
            )


def mobilizer_axes(axes, reversed_joint):
    """(axes, coordinate): the unit axes (m × 3 floats), in the joints' frames F, about (along)
    which Drake mobilizes revolute (prismatic) joints of unit ``axes`` (m × 3), and whether
    each is a coordinate axis: the joint's axis, except when the mobilizer axis u (the joint's,
    negated where ``reversed_joint``) has an element u_i exactly 1.0 — as a normalized axis
    within about 1.5e-8 of a coordinate axis does — where Drake uses that coordinate axis
    exactly (±e_i, signed as the joint is), dropping the other (tiny) elements."""
    flipped = reversed_joint.any()
    hit = (np.where(reversed_joint[:, None], -axes, axes) if flipped else axes) == 1.0
    coordinate = hit.any(axis=1)
    if not coordinate.any():
        return axes.copy(), coordinate
    first = hit & (hit.cumsum(axis=1) == 1)  # (the first element 1.0 of u)
    signed = np.where(reversed_joint, -1.0, 1.0)[:, None] if flipped else 1.0
    return np.where(coordinate[:, None], np.where(first, signed, 0.0), axes), coordinate


def revolute_turns(axes):
    """The rows of the unit ``axes`` (m × 3 floats) of revolute mobilizers that are not signed
    coordinate axes ±e_i: kernels.kinematics turns about ±e_i directly, and about any other
    axis as the z axis of the mobilizer's frames turned by :func:`z_turn`, which the parameter
    stage composes into X_PF and X_MB (plant._engine)."""
    return np.flatnonzero(np.count_nonzero(axes, axis=1) != 1)


def z_turn(axis):
    """The pose [R; 0] (4×3, see kernels.kinematics) of a frame Z turned from a joint's frame
    J so that Z's z axis is the unit ``axis`` (3 floats, given in J): R = R_JZ, R·e_z = axis.
    For a coordinate axis ±e_i it is a signed permutation (exact). A revolute mobilizer whose
    axis is not such a coordinate axis turns about the z axis of its frames turned so (one
    about ±e_i turns about it directly: see kernels.kinematics). :func:`z_turns` of one."""
    return z_turns(np.array([axis], dtype=float))[0]


def z_turns(axes):
    """The z_turn of each of the unit ``axes`` (m × 3 floats): m × 4 × 3. (In floats, each
    operation as on Python floats: x = e_j − (e_j·a)a normalized, for e_j the axis after a's
    largest element in magnitude (the first of equals), then columns x, a × x, a.)"""
    m = len(axes)
    j = (np.abs(axes).argmax(axis=1) + 1) % 3  # (e_j ⊥ a = ±e_i exactly)
    rows = np.arange(m)
    s = axes[rows, j]  # e_j · a
    e_j = np.zeros((m, 3))
    e_j[rows, j] = 1.0
    x = e_j - s[:, None] * axes
    norm = np.sqrt(x[:, 0] * x[:, 0] + x[:, 1] * x[:, 1] + x[:, 2] * x[:, 2])
    x = x / norm[:, None]
    (x0, x1, x2), (a0, a1, a2) = x.T, axes.T
    X = np.zeros((m, 4, 3))
    X[:, :3, 0] = x
    X[:, :3, 1] = np.column_stack((a1 * x2 - a2 * x1, a2 * x0 - a0 * x2, a0 * x1 - a1 * x0))
    X[:, :3, 2] = axes
    return X


def non_identity_poses(X):
    """Which of the poses ``X`` (m × 12: rows [R row by row, p]) are not exactly the identity
    (an element −0.0 counts as 0.0)."""
    return ~(X == _IDENTITY_ROW).all(axis=1)


def z_axis_rotations(u):
    """RotationMatrix.MakeFromOneVector(u_k, 2)'s matrix of each row u_k of ``u`` (m × 3
    floats; m × 3 × 3): its operations on arrays, in the same order, so the same floats (the
    dot products as sums left to right, as numpy's of three elements are)."""
    from mallard.math import RotationMatrix

    if not len(u):
        return np.zeros((0, 3, 3))
    u0, u1, u2 = u.T
    norm = np.sqrt(u0 * u0 + u1 * u1 + u2 * u2)
    valid = norm >= 1e-10  # (False for NaN; ∞ checked below)
    if not valid.all() or not np.isfinite(norm).all():
        for k in np.flatnonzero(~(np.isfinite(norm) & valid)).tolist():
            RotationMatrix._from_one_vector(u[k], 2)  # (its error)
    u = u / norm[:, None]
    # v: the unit e along u's smallest element (the first of equals) crossed with u, its
    # elements taken from [u, 0, −u] (e_0 × u = [0, −u2, u1], e_1 × u = [u2, 0, −u0],
    # e_2 × u = [−u1, u0, 0]), then normalized
    u0, u1, u2 = u.T
    signed = np.concatenate((u, np.zeros((len(u), 1)), -u), axis=1)
    v = np.take_along_axis(signed, _CROSS_TAKES[np.abs(u).argmin(axis=1)], axis=1)
    v0, v1, v2 = v.T
    v = v / np.sqrt(v0 * v0 + v1 * v1 + v2 * v2)[:, None]
    v0, v1, v2 = v.T
    R = np.empty((len(u), 3, 3))
    R[:, :, 2], R[:, :, 0] = u, v
    R[:, :, 1] = np.column_stack((u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0))
    return R


def mobilizer_frames(rows, joints, framed, welds):
    """The FixedOffsetFrames Drake adds at Finalize(), in the order it adds them (mobod order;
    of the mobods' ``rows``, build_forest's, and the plant's ``joints``), as columns: (names,
    parent frames, model instances (the joint's), poses: per frame R_PF (9 floats, row by row)
    and p_PF (3), as arrays to be joined into rows of 12 (a pair's R_PF is one row of an
    array; a weld's are its pose's own arrays)).

    With F the mobilizer's inboard frame and M its outboard one (the joint's child and parent
    frames if the joint is reversed):

    * a revolute or prismatic joint whose mobilizer axis u (the joint's unit axis, negated if
      reversed) has no element exactly 1.0 (``framed``: (those mobods, their u as rows))
      gets ``{joint}_{F}_F`` on F and ``{joint}_{M}_M`` on M, both at
      R = RotationMatrix.MakeFromOneVector(u, 2) (z along u), p = 0; Drake then mobilizes
      about their z axes. (An element exactly 1.0 — even of a
      normalized axis like [1e-9, 0, 1] — makes Drake use that coordinate axis, with no
      frames: mobilizer_axes.)
    * a weld whose X_FM (X_MF if reversed) is not exactly the identity (``welds``: those
      mobods, non_identity_poses) gets ``{joint}_{F}_F`` on F at that pose, so that the weld's
      mobilizer is the identity.
    """
    from mallard.math._rotation_matrix import check_rotation_matrix

    framed, u = framed
    R_FM = dict(zip(framed, z_axis_rotations(u).reshape(-1, 9), strict=True))
    names, parents, instances, poses = [], [], [], []
    ks = sorted([*framed, *welds]) if welds else framed
    picked = rows[np.array(ks, dtype=np.int64) - 1][:, (1, 3)].tolist()  # (joint, reversed)
    for k, (j, reversed_joint) in zip(ks, picked, strict=True):
        joint = joints[j]
        name, mi = joint._name, joint._model_instance
        R = R_FM.get(k)
        if R is not None:
            F, M = joint._frame_on_parent, joint._frame_on_child
            if reversed_joint:
                F, M = M, F
            names += (f"{name}_{F._name}_F", f"{name}_{M._name}_M")
            parents += (F, M)
            instances += (mi, mi)
            poses += (R, _ZERO, R, _ZERO)
        else:
            X = joint._X_FM.inverse() if reversed_joint else joint._X_FM
            check_rotation_matrix(X._R._R)  # (a weld of RotationMatrix.MakeUnchecked's pose)
            F = joint._frame_on_child if reversed_joint else joint._frame_on_parent
            names.append(f"{name}_{F._name}_F")
            parents.append(F)
            instances.append(mi)
            poses += (X._R._R, X._p)
    return names, parents, instances, poses
