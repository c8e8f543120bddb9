"""The plant's elements of an MJCF document, for the fast path (_mjcf_fast): the bodies (with
the massless bodies between chained joints), the revolute, prismatic and ball joints with
their frames, the welds and the actuators, each made in its place in Drake's order (each body
with its body frame before its joints' frames and joints: the frame indices interleave; the
plant's _places) by the tree's bulk constructors (ball joints and welds by theirs), then added
at once by the plant's _add_placed; floating poses by the plant's method."""

import math
from itertools import repeat
from operator import add, itemgetter

import numpy as np

from mallard.common._angle_axis import angle_axis_to_matrix
from mallard.math import RigidTransform
from mallard.multibody.parsing._mjcf_tables import Declined
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    JointActuator,
    PdControllerGains,
    PrismaticJoint,
    RevoluteJoint,
    RigidBody,
    WeldJoint,
)
from mallard.multibody.tree._single_dof_joint import LimitedSingleDofJoint

_CLASSES = {"hinge": RevoluteJoint, "slide": PrismaticJoint}
_IDENTITY = np.array([1.0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0])  # ([I, 0]: a pose row)
_POSITIVE = (0.0).__lt__  # (an effort limit's check: False for NaN)


def transform(R_rows, p):
    """The RigidTransform of the rows of R (9) and p (3) (arrays: copied)."""
    return RigidTransform._make(R_rows.reshape(3, 3).copy(), p.copy())


def add_elements(plant, instance, plan, joints):
    """Adds the bodies and joints of ``plan`` (a Plan) to ``plant`` in its order; returns
    {joint name: the RevoluteJoint or PrismaticJoint}. ``joints``: the document's joints'
    (types, unit axes (the element reader's, then unit_axis'), limit rows (n, 6), dampings,
    p_CJ (n, 3), has_pos, refs (radians), the reader's unit axes (n, 3))."""
    types, axes, limits, damping, p_CJ, has_pos, refs, unit = joints
    ks, joint_names = plan.ks, plan.joint_names
    n = len(ks)
    # X_PJ = X_PC·X_CJ (X_CJ = [I, p_CJ]; X_PC the body's X_PB for its last joint, the
    # identity for a chained one), X_PJ = X_PC without pos; X_CJ on the child.
    pose = np.empty((2 * n, 12))
    pose[:] = _IDENTITY
    X_PJ, X_CJ = pose[0::2], pose[1::2]  # (views of each joint's two rows; X_PJ = X_PC first)
    X_PJ[plan.owned] = np.concatenate((plan.R_PB, plan.p_PB), axis=1)[plan.owners]
    placed = [m for m in range(n) if has_pos[ks[m]]]
    if placed:
        p = p_CJ[[ks[m] for m in placed]]
        placed = np.array(placed)
        X_PC = X_PJ[placed]
        R = X_PC[:, :9].reshape(-1, 3, 3)  # (R_PC·I is R_PC: its bits)
        X_PJ[placed, 9:] = np.matmul(R, p[:, :, None])[:, :, 0] + X_PC[:, 9:]
        X_CJ[placed, 9:] = p
    moved = [
        m for m, k in enumerate(ks)
        if types[k] == "slide" or (types[k] == "hinge" and refs[k] != 0.0)
    ]  # fmt: skip
    if moved:  # (X_CJ moved by ref, as the reader moves it)
        k_moved = [ks[m] for m in moved]
        R, p = _moved_by_ref(
            [types[k] for k in k_moved], np.array([refs[k] for k in k_moved]), unit[k_moved],
            np.where(np.array([has_pos[k] for k in k_moved])[:, None], p_CJ[k_moved], 0.0),
        )  # fmt: skip
        rows = [2 * m + 1 for m in moved]
        pose[rows, :9], pose[rows, 9:] = R.reshape(-1, 9), p
    pose.flags.writeable = False
    f, j, body_slots = plan.num_frames, plan.num_joints, plan.frame_slots
    _, frame_indices, frame_ordinals = plant._places("_frames", f)
    _, body_indices, body_ordinals = plant._places("_bodies", len(plan.names))
    _, joint_indices, joint_ordinals = plant._places("_joints", j)

    # The bodies (with their frames), the joints' frames, the joints.
    bodies = RigidBody._in_rows(
        plan.names, instance, plan.inertia_rows,
        (plant, body_indices, _pick(frame_indices, body_slots), body_ordinals,
         _pick(frame_ordinals, body_slots)),
    )  # fmt: skip
    body_frames = [body._body_frame for body in bodies]
    world_frame = plant.world_body()._body_frame
    frame_parents = [None] * (2 * n)
    frame_parents[0::2] = [world_frame if a < 0 else body_frames[a] for a in plan.parents]
    frame_parents[1::2] = _pick(body_frames, plan.children)
    slots = [None] * (2 * n)
    slots[0::2] = plan.joint_frame_slots
    slots[1::2] = map(add, plan.joint_frame_slots, repeat(1))
    frames = FixedOffsetFrame._in_rows(
        plan.frame_names, frame_parents, list(zip(repeat(pose), range(2 * n))),
        [instance] * (2 * n), (plant, _pick(frame_indices, slots), _pick(frame_ordinals, slots)),
    )  # fmt: skip
    single = [m for m, k in enumerate(ks) if types[k] in _CLASSES]  # (the others: ball joints)
    k_single = _pick(ks, single)
    given = damping[list(k_single)]
    dampings = given.tolist()
    for m in np.flatnonzero((given == 0.0) & ~np.signbit(given)).tolist():
        dampings[m] = None  # (+0.0: the shared default)
    joint_slots = plan.joint_slots
    single_slots = _pick(joint_slots, single)
    made = LimitedSingleDofJoint._all_checked(
        list(map(_CLASSES.__getitem__, _pick(types, k_single))), _pick(joint_names, k_single),
        _pick(frames[0::2], single), _pick(frames[1::2], single), _pick(axes, k_single),
        list(zip(repeat(limits), k_single)), dampings,
        (plant, _pick(joint_indices, single_slots), _pick(joint_ordinals, single_slots)),
    )  # fmt: skip
    joints_in_order = [None] * j
    for slot, joint in zip(single_slots, made, strict=True):
        joints_in_order[slot] = joint
    if len(single) < n:
        for m in set(range(n)).difference(single):  # (ball joints)
            k, slot = ks[m], joint_slots[m]
            ball = BallRpyJoint._checked(
                joint_names[k], frames[2 * m], frames[2 * m + 1], float(damping[k])
            )
            joints_in_order[slot] = _placed(ball, plant, joint_indices, joint_ordinals, slot)
    for (slot, a, c, b), name in zip(plan.welds, plan.weld_names, strict=True):  # (WeldFrames')
        F, M = world_frame if a < 0 else body_frames[a], body_frames[c]
        weld = WeldJoint(name, F, M, transform(plan.R_PB[b], plan.p_PB[b]))
        joints_in_order[slot] = _placed(weld, plant, joint_indices, joint_ordinals, slot)

    # Added at once, the frames in their order; then the floating poses and positions.
    frames_in_order = [None] * f
    for s, frame in zip(body_slots, body_frames, strict=True):
        frames_in_order[s] = frame
    for s, frame in zip(slots, frames, strict=True):
        frames_in_order[s] = frame
    plant._add_placed(bodies, frames_in_order, frames, joints_in_order)
    for c, b in plan.free:
        plant.SetDefaultFloatingBaseBodyPose(bodies[c], plan.X_WB(b))
    for k, joint in zip(k_single, made, strict=True):
        if refs[k] != 0.0:  # (a new joint's default position is 0)
            joint.set_default_positions([refs[k]])
    return dict(zip(_pick(joint_names, k_single), made, strict=True))


def _pick(items, places):
    """The items of ``items`` (a sequence) at ``places`` (ints), as a tuple or list: one C
    call for two or more (itemgetter); of a range of step 1 (ordinals), by additions (a
    range's subscript costs ~5 times more)."""
    if type(items) is range:
        return list(map(add, places, repeat(items.start)))
    if len(places) > 1:
        return itemgetter(*places)(items)
    return [items[i] for i in places]


def _placed(joint, plant, indices, ordinals, slot):
    """``joint`` (made by its constructor) given its place ``slot`` of ``plant``'s places."""
    joint._plant, joint._index, joint._ordinal = plant, indices[slot], ordinals[slot]
    return joint


def _moved_by_ref(kinds, refs, axes, p_CJ):
    """(R (n, 3, 3), p (n, 3)) of X_CJ = [I, p_CJ] (rows of ``p_CJ``: zeros where the joint
    has no pos) of each slide or hinge of ``kinds`` moved by its ``refs`` along or about its
    unit axis (rows of ``axes``), as the element reader's parse_joint moves it: X_CJ·[I,
    ref·â] (slide) or X_CJ·[R(ref, â), 0] (hinge), the same products for all at once (each
    product by I is exact, whatever the kernel)."""
    n = len(kinds)
    R, p = np.empty((n, 3, 3)), np.zeros((n, 3))
    R[:] = np.eye(3)
    slides = [r for r, kind in enumerate(kinds) if kind == "slide"]
    p[slides] = refs[slides, None] * axes[slides]
    for r in set(range(n)).difference(slides):  # (hinges)
        R[r] = angle_axis_to_matrix(float(refs[r]), axes[r])
    I = np.eye(3)
    return np.matmul(I, R), np.matmul(I, p[:, :, None])[:, :, 0] + p_CJ


def add_actuators(plant, given, joints, armatures, ratios, limits, gains):
    """Adds the motor and position actuators of ``given`` (their names, None: not given, and
    their joints' names, in the element reader's order) on ``joints`` (the joints by name), as
    its parse_motor does, with their effort ``limits``, gear ``ratios`` (floats), the rotor
    inertias of the joints' ``armatures`` (by joint name) and the positions' PD ``gains``
    ({place: (kp, kd) floats}), made in their places and added at once (JointActuator._in_rows,
    the plant's _add_placed). Declined where AddJointActuator or a setter would raise."""
    names, joint_names = given
    if None in names:  # (Drake's name: motor and the actuator's number in the plant)
        first = plant.num_actuators()
        names = [f"motor{first + k}" if name is None else name for k, name in enumerate(names)]
    on = [joints.get(name) for name in joint_names]
    if (
        None in on  # (no joint, or not a revolute or prismatic joint of the document)
        or "" in names
        or len(set(names)) != len(names)  # (the instance is new: no other actuator)
        or not all(map(_POSITIVE, limits))
    ):
        raise Declined
    rotor_inertias = [0.0] * len(names)
    if armatures:
        try:  # (a zero ratio: the reader's error)
            rotor_inertias = [
                0.0 if armature is None else armature / (ratio * ratio)
                for armature, ratio in zip(map(armatures.get, joint_names), ratios, strict=True)
            ]
        except ZeroDivisionError:
            raise Declined from None
    controllers = [None] * len(names)  # (set_controller_gains': none where p = d = 0)
    for k, (p, d) in gains.items():
        if not (math.isfinite(p) and math.isfinite(d) and p >= 0 and d >= 0):
            raise Declined  # (set_controller_gains' error)
        if p != 0 or d != 0:
            controllers[k] = PdControllerGains._new(p, d)
    places = plant._places("_actuators", len(names))
    actuators = JointActuator._in_rows(
        names, on, limits, rotor_inertias, ratios, controllers, places
    )
    plant._add_placed(actuators=actuators)
