"""The plant's elements of an MJCF document, for the fast path (_mjcf_fast): the bodies (with
the massless bodies between chained joints), the revolute, prismatic and ball joints and their
frames made by the tree's bulk constructors, then added in Drake's order, each body (with its
body frame) before its joints' frames and joints (the frame indices interleave), by the
plant's _add_checked_in_order (ball joints with them, made by their constructor); welds by
the plant's WeldFrames at their places; floating poses and actuators by the plant's
methods."""

import math

import numpy as np

from mallard.common._angle_axis import angle_axis_to_matrix
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.parsing._mjcf_tables import Declined
from mallard.multibody.tree import (
    BallRpyJoint,
    FixedOffsetFrame,
    PdControllerGains,
    PrismaticJoint,
    RevoluteJoint,
    RigidBody,
)
from mallard.multibody.tree._single_dof_joint import LimitedSingleDofJoint

_CLASSES = {"hinge": RevoluteJoint, "slide": PrismaticJoint}


def transform(R_rows, p):
    """The RigidTransform of the rows of R (9) and p (3) (arrays: copied)."""
    return RigidTransform._make(R_rows.reshape(3, 3).copy(), p.copy())


def add_elements(plant, instance, plan, joints):
    """Adds the bodies and joints of ``plan`` (a Plan) to ``plant`` in its order; returns
    {joint name: the RevoluteJoint or PrismaticJoint}. ``joints``: the document's joints'
    (types, names, unit axes (the element reader's, then unit_axis'), limit rows (n, 6),
    dampings, p_CJ (n, 3), has_pos, refs (radians), the reader's unit axes (n, 3))."""
    types, joint_names, axes, limits, damping, p_CJ, has_pos, refs, unit = joints
    bodies = RigidBody._in_rows(plan.names, instance, plan.inertia_rows)
    world = plant.world_body()
    moving = [s for s in plan.steps if s[0] == "joint"]  # (revolute, prismatic, ball)
    n = len(moving)
    # X_PJ = X_PC·X_CJ (X_CJ = [I, p_CJ]; X_PC the body's X_PB for its last joint, the
    # identity for a chained one), X_PJ = X_PC without pos; X_CJ on the child.
    R_PC, p_PC = np.empty((n, 9)), np.zeros((n, 3))
    R_PC[:] = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    own = [m for m, s in enumerate(moving) if s[4] is not None]
    R_PC[own] = plan.R_PB[[moving[m][4] for m in own]]
    p_PC[own] = plan.p_PB[[moving[m][4] for m in own]]
    ks = [s[1] for s in moving]
    pose = np.zeros((2 * n, 12))
    pose[0::2, :9], pose[0::2, 9:] = R_PC, p_PC
    pose[1::2, [0, 4, 8]] = 1.0
    placed = [m for m in range(n) if has_pos[ks[m]]]
    if placed:
        p = p_CJ[[ks[m] for m in placed]]
        R = R_PC[placed].reshape(-1, 3, 3)  # (R_PC·I is R_PC: its bits)
        pose[[2 * m for m in placed], 9:] = np.matmul(R, p[:, :, None])[:, :, 0] + p_PC[placed]
        pose[[2 * m + 1 for m in placed], 9:] = p
    for m, k in enumerate(ks):  # (X_CJ moved by ref, as the reader: RigidTransforms)
        if types[k] == "slide" or (types[k] == "hinge" and refs[k] != 0.0):
            X_CJ = RigidTransform._make(np.eye(3), p_CJ[k].copy()) if has_pos[k] else None
            pose[2 * m + 1] = _rows(_ref_transform(X_CJ, types[k], refs[k], unit[k]))
    pose.flags.writeable = False
    parents = [world if s[2] < 0 else bodies[s[2]] for s in moving]
    frame_names = []
    for k in ks:
        frame_names += (f"{joint_names[k]}_parent", f"{joint_names[k]}_child")
    frame_parents = []
    for parent, s in zip(parents, moving, strict=True):
        frame_parents += (parent._body_frame, bodies[s[3]]._body_frame)
    frames = FixedOffsetFrame._in_rows(
        frame_names, frame_parents, [(pose, r) for r in range(2 * n)], [instance] * (2 * n)
    )
    single = [m for m, k in enumerate(ks) if types[k] in _CLASSES]
    dampings = [
        None if d == 0.0 and math.copysign(1.0, d) > 0 else d
        for d in damping[[ks[m] for m in single]].tolist()
    ]
    made = [None] * n
    for m, joint in zip(single, LimitedSingleDofJoint._all_checked(
        [_CLASSES[types[ks[m]]] for m in single], [joint_names[ks[m]] for m in single],
        [frames[2 * m] for m in single], [frames[2 * m + 1] for m in single],
        [axes[ks[m]] for m in single], [(limits, ks[m]) for m in single], dampings,
    ), strict=True):  # fmt: skip
        made[m] = joint
    for m, k in enumerate(ks):
        if made[m] is None:  # (a ball joint)
            made[m] = BallRpyJoint(
                joint_names[k], frames[2 * m], frames[2 * m + 1], float(damping[k])
            )
    groups, pending, m = [], [], 0  # (_add_checked_in_order's groups; bodies not in one)
    for step in plan.steps:
        kind = step[0]
        if kind == "body":
            pending.append(bodies[step[1]])
            continue
        if kind == "joint":
            groups.append((pending, frames[2 * m : 2 * m + 2], (made[m],)))
            pending, m = [], m + 1
            continue
        if pending:
            groups.append((pending, (), ()))
            pending = []
        if groups:
            plant._add_checked_in_order(groups)
            groups = []
        _, k, a, c, b = step
        parent, child = world if a < 0 else bodies[a], bodies[c]
        X_PC = RigidTransform() if b is None else transform(plan.R_PB[b], plan.p_PB[b])
        if kind == "weld":
            plant.WeldFrames(parent.body_frame(), child.body_frame(), X_PC)
        else:  # (free)
            plant.SetDefaultFloatingBaseBodyPose(child, plan.X_WB(b))
    if pending:
        groups.append((pending, (), ()))
    if groups:
        plant._add_checked_in_order(groups)
    for m in single:
        if refs[ks[m]] != 0.0:  # (a new joint's default position is 0)
            made[m].set_default_positions([refs[ks[m]]])
    return {joint_names[ks[m]]: made[m] for m in single}


def _ref_transform(X_CJ, kind, ref, axis):
    """X_CJ (None: the identity) moved by the joint's ``ref`` along or about its unit
    ``axis`` (an array), as the element reader's parse_joint moves it."""
    X_CJ = RigidTransform() if X_CJ is None else X_CJ
    if kind == "slide":
        return X_CJ @ RigidTransform(ref * axis)
    return X_CJ @ RigidTransform(RotationMatrix._make(angle_axis_to_matrix(ref, axis)))


def _rows(X):
    """The pose row [R (row by row, 9), p (3)] of the RigidTransform ``X``."""
    return np.concatenate((X.rotation().matrix().reshape(9), X.translation()))


def add_actuators(plant, dicts, tags, joints, armatures, ratios, limits, gains):
    """Adds the motor and position actuators of attribute dicts ``dicts`` (their ``tags``, in
    the element reader's order) on ``joints`` (by name), as its parse_motor does, with their
    effort ``limits``, gear ``ratios`` (None: not given), the rotor inertias of the joints'
    ``armatures`` (by joint) and the positions' PD ``gains`` ((kp, kd) each)."""
    for a, tag, limit, ratio, (kp, kd) in zip(dicts, tags, limits, ratios, gains, strict=True):
        name = a.get("name")
        if name is None:
            name = f"motor{plant.num_actuators()}"
        joint = joints.get(a.get("joint"))
        if joint is None:
            raise Declined  # (none, or not a revolute or prismatic joint of the document)
        actuator = plant.AddJointActuator(name, joint, limit)
        if ratio is not None:
            actuator.set_default_gear_ratio(ratio)
        armature = armatures.get(joint)
        if armature is not None:
            ratio = actuator.default_gear_ratio()
            if ratio == 0:
                raise Declined  # (the reader's error)
            actuator.set_default_rotor_inertia(armature / (ratio * ratio))
        if tag == "position":
            actuator.set_controller_gains(PdControllerGains(p=kp, d=kd))
