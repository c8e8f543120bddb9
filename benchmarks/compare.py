"""mallard side by side with pydrake, Pinocchio and MuJoCo: same models, same states, one run.

What it measures
----------------
Three models, built in each library:

* **Panda** (example-robot-data ``panda_description/urdf/panda.urdf``, nv = 9: seven arm
  joints and the two finger slides). Its base link ``panda_link0`` is **welded to the world**
  in every library (Drake: ``WeldFrames``; Pinocchio and MuJoCo: a URDF root without a root
  joint is fixed). The ``<mimic>`` tag is removed (Drake turns it into a constraint that
  forbids continuous forward dynamics), so the second finger is an independent joint.
* **G1** (``g1_description/urdf/g1_29dof_rev_1_0.urdf``, floating base, nq = 36, nv = 35):
  a quaternion free joint on ``pelvis`` in every library (Drake adds it; Pinocchio
  ``JointModelFreeFlyer``; MuJoCo a ``freejoint`` added through ``MjSpec``).
* **chain30**: 30 links built through each library's API (``AddRigidBody``/``AddJoint``;
  ``pin.Model.addJoint``; ``MjSpec.add_body``), revolute axes cycling x, y, z, each link a
  1 kg 0.1 × 0.1 × 0.5 m box hanging 0.5 m below its joint, centre of mass 0.25 m below it.

All libraries get the same URDF text, stripped of what only some of them would use: visual
and collision geometry (MuJoCo cannot resolve ``package://`` meshes and the dynamics here is
geometry-free), ``<dynamics>`` (joint damping: Drake and MuJoCo apply it, Pinocchio's ``aba``
does not) and ``<safety_controller>``. MuJoCo compiles with ``fusestatic`` off (so welded
links keep their names), inertia from the ``<inertial>`` tags only, and all constraints
disabled (no contact, no joint limits; Drake's continuous plant ignores limits too). Gravity
is (0, 0, -9.81) m/s² everywhere. No model has actuators; forward dynamics is with zero
applied force.

Numerical check (first, before any timing)
------------------------------------------
At three random states, every library is compared with pydrake (the reference) on: the pose
of the tip body, the mass matrix, inverse dynamics with gravity, forward dynamics, and the
spatial-velocity Jacobian of the tip body's origin in world. Coordinates are mapped, not
avoided: joints are matched by name (the libraries order coordinates differently), and the
floating base is converted exactly —

* Drake: q = [qw qx qy qz, p_W], v = [ω_W, v_W] (both expressed in the world);
* Pinocchio: q = [p_W, qx qy qz qw], v = [Rᵀ v_W, Rᵀ ω_W] (both in the body frame);
* MuJoCo: qpos = [p_W, qw qx qy qz], qvel = [v_W, Rᵀ ω_W].

With v_lib = T(q) v_drake, a library's mass matrix is compared as Tᵀ M T, its torques as Tᵀ τ,
its Jacobian as J T; accelerations use v̇_lib = T v̇ + c, where c = -(Rᵀω) × (Rᵀv) for
Pinocchio's linear part (the derivative of body-frame components) and 0 otherwise. The run
aborts if any quantity differs from pydrake's by more than 1e-8 relative (Frobenius norm).

Timing
------
Every timed call first changes the state (16 random states are cycled), so that no library can
answer from a cache, then runs the operation through the library's normal Python API:

=====================  ============================  ====================  ======================
operation              mallard / pydrake             Pinocchio             MuJoCo
=====================  ============================  ====================  ======================
set state              SetPositionsAndVelocities     (no state object)     qpos[:]=, qvel[:]=
forward kinematics     SetPositions +                forwardKinematics +   mj_kinematics +
                       EvalBodyPoseInWorld(tip)      data.oMi[tip joint]   xpos, xmat[tip]
mass matrix            SetPositions + CalcMassMatrix crba (upper triangle) mj_kinematics,
                                                                           mj_comPos, mj_makeM,
                                                                           mj_fullM
inverse dynamics       SetPositionsAndVelocities +   rnea                  mj_inverse
                       CalcForceElementsContribution
                       + CalcInverseDynamics
forward dynamics       SetPositionsAndVelocities +   aba                   mj_forward
                       EvalTimeDerivatives
                       (.CopyToVector)
frame Jacobian         SetPositions +                computeFrameJacobian  mj_kinematics,
                       CalcJacobianSpatialVelocity   (LOCAL_WORLD_ALIGNED) mj_comPos, mj_jacBody
=====================  ============================  ====================  ======================

mallard's Context-free single-state API (``mallard.multibody.single_state.SingleStatePlant``,
column "mallard single-state") is timed beside them on the same states, each call writing into
an array allocated once (``out=``): forward kinematics ``CalcAllBodyPosesInWorld`` (every
body's pose, as ``forwardKinematics`` computes every joint's), ``CalcMassMatrix``,
``CalcInverseDynamics``, ``CalcForwardDynamics``, ``CalcJacobianSpatialVelocity``; it is checked
against pydrake first like the others.

A sample runs one library's calls back to back for about ``--sample-ms`` and records the mean
time per call; each round takes one sample of every library in turn (the order rotates from
round to round), so that drifts of a noisy machine hit all libraries alike; the table reports
the median over the rounds. The garbage collector is off while timing.

Batched (``--batch-size`` states, 1000 by default), per state: Pinocchio's C++ batch
(``rneaInParallel``, ``abaInParallel`` with ``--threads`` threads, one by default; Pinocchio
has no batched mass matrix, kinematics or Jacobian), a Python loop over pydrake's single calls
(the same code as its single-call timing), and mallard's batched API
(``mallard.multibody.batch.BatchedPlant``: ``CalcAllBodyPosesInWorld``, ``CalcMassMatrix``,
``CalcInverseDynamics``, ``CalcForwardDynamics``, ``CalcJacobianSpatialVelocity`` on (B, n)
arrays, ``num_threads=--threads``), if it exists: each method is checked against
mallard's single calls before it is timed, and skipped with a note when absent or different.

Run
---
``python benchmarks/compare.py`` (about a minute), ``python benchmarks/compare.py --quick``
(fewer, shorter samples: seconds per model); both take longer when numba compiles mallard's
kernels first. ``--output PATH`` (default ``benchmarks/results/compare.md``), ``--models
panda,g1,chain30``, ``--threads N`` (batched APIs), ``--help`` for the rest.
Needs the ``bench`` extra: ``pip install ".[bench]"``.
"""

import argparse
import datetime
import functools
import gc
import importlib
import importlib.metadata
import os
import platform
import re
import statistics
import sys
import sysconfig
import time
import warnings
from pathlib import Path

import numpy as np

# MuJoCo and Pinocchio are imported before pydrake (they bring their own shared libraries).
try:
    import mujoco
    import pinocchio as pin
except ImportError as error:  # pragma: no cover - depends on the environment
    sys.exit(f"compare.py needs pinocchio and mujoco: pip install '.[bench]' ({error})")

OPS = (
    "set state",
    "forward kinematics",
    "mass matrix",
    "inverse dynamics",
    "forward dynamics",
    "frame Jacobian",
)
BATCH_OPS = OPS[1:]
LIBRARIES = ("mallard", "pydrake", "pinocchio", "mujoco", "mallard single-state")
CHAIN_LINKS = 30
N_STATES = 16  # distinct states cycled through by the single-call timings


# ---- models ----------------------------------------------------------------------------------
def default_robots_dir():
    """example-robot-data's robots directory (installed by pip under cmeel.prefix)."""
    for base in (sysconfig.get_paths()["purelib"], sys.prefix):
        for sub in ("cmeel.prefix/share", "share"):
            path = Path(base) / sub / "example-robot-data" / "robots"
            if path.is_dir():
                return path
    return None


def clean_urdf(text):
    """The URDF as every library here gets it: no mimic (Drake makes it a constraint), no
    joint damping, no geometry, no safety controller (see the module docstring)."""
    for pattern in (
        r"<mimic[^>]*/>",
        r"<dynamics[^>]*/>",
        r"<safety_controller[^>]*/>",
        r"<visual\b.*?</visual>",
        r"<collision\b.*?</collision>",
    ):
        text = re.sub(pattern, "", text, flags=re.S)
    return text


class ModelDef:
    """One model: its URDF text (None for the programmatic chain), whether its base floats,
    the link welded to the world (if any), and the tip body that the kinematics, the Jacobian
    and the pose check use (a body that is the child of a moving joint in every library)."""

    def __init__(self, name, label, urdf, floating, weld, tip):
        self.name, self.label = name, label
        self.urdf, self.floating, self.weld, self.tip = urdf, floating, weld, tip


def model_defs(robots_dir, names):
    defs = []
    for name in names:
        if name == "panda":
            path = robots_dir / "panda_description/urdf/panda.urdf"
            defs.append(
                ModelDef(
                    name,
                    "Panda (fixed base, nv=9)",
                    clean_urdf(path.read_text()),
                    False,
                    "panda_link0",
                    "panda_leftfinger",
                )
            )
        elif name == "g1":
            path = robots_dir / "g1_description/urdf/g1_29dof_rev_1_0.urdf"
            defs.append(
                ModelDef(
                    name,
                    "G1 humanoid (floating base, nv=35)",
                    clean_urdf(path.read_text()),
                    True,
                    None,
                    "right_wrist_yaw_link",
                )
            )
        elif name == "chain30":
            defs.append(
                ModelDef(
                    name,
                    f"{CHAIN_LINKS}-link revolute chain (nv={CHAIN_LINKS})",
                    None,
                    False,
                    None,
                    f"link{CHAIN_LINKS - 1}",
                )
            )
        else:
            sys.exit(f"unknown model {name!r}: choose among panda, g1, chain30")
    return defs


def chain_link(i):
    """Link i of the chain: (joint axis index 0/1/2, joint offset in the parent link, mass,
    centre of mass in the link, central principal moments)."""
    mass, lx, ly, lz = 1.0, 0.1, 0.1, 0.5
    moments = mass / 12 * np.array([ly**2 + lz**2, lx**2 + lz**2, lx**2 + ly**2])
    offset = np.array([0.0, 0.0, -0.5 if i > 0 else 0.0])
    return i % 3, offset, mass, np.array([0.0, 0.0, -0.25]), moments


def quaternion_to_rotation(w, x, y, z):
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


# ---- coordinates -----------------------------------------------------------------------------
class CoordinateMap:
    """Drake's (q, v) → a library's. ``slots`` maps each 1-dof joint's Drake (q, v) index to
    the library's; ``base`` is None or (convention, Drake q start, Drake v start, library q
    start, library v start) of the floating base, convention "pinocchio" or "mujoco"."""

    def __init__(self, nq, nv, slots, base=None):
        self.nq, self.nv = nq, nv
        self.slots, self.base = slots, base

    @staticmethod
    def identity(nq, nv):
        """Drake's own coordinates (mallard, pydrake)."""
        return CoordinateMap(nq, nv, None)

    def _base_rotation(self, q):
        _, dq, _, _, _ = self.base
        w, x, y, z = q[dq : dq + 4]
        return quaternion_to_rotation(w, x, y, z)

    def positions(self, q):
        if self.slots is None:
            return q.copy()
        out = np.zeros(self.nq)
        for dq, _, lq, _ in self.slots:
            out[lq] = q[dq]
        if self.base is not None:
            kind, dq, _, lq, _ = self.base
            quat_wxyz, p = q[dq : dq + 4], q[dq + 4 : dq + 7]
            out[lq : lq + 3] = p
            if kind == "pinocchio":
                out[lq + 3 : lq + 7] = np.r_[quat_wxyz[1:], quat_wxyz[0]]
            else:
                out[lq + 3 : lq + 7] = quat_wxyz
        return out

    def velocity_map(self, q):
        """T with v_lib = T v_drake."""
        if self.slots is None:
            return np.eye(self.nv)
        T = np.zeros((self.nv, self.nv))
        for _, dv, _, lv in self.slots:
            T[lv, dv] = 1.0
        if self.base is not None:
            kind, _, dv, _, lv = self.base
            R = self._base_rotation(q)
            # Drake's base velocity is [ω_W, v_W]; the libraries put the linear part first.
            T[lv : lv + 3, dv + 3 : dv + 6] = R.T if kind == "pinocchio" else np.eye(3)
            T[lv + 3 : lv + 6, dv : dv + 3] = R.T
        return T

    def acceleration_bias(self, q, v):
        """c with v̇_lib = T v̇_drake + c (Ṫ v)."""
        c = np.zeros(self.nv)
        if self.base is not None and self.base[0] == "pinocchio":
            _, _, dv, _, lv = self.base
            R = self._base_rotation(q)
            w_B, v_B = R.T @ v[dv : dv + 3], R.T @ v[dv + 3 : dv + 6]
            c[lv : lv + 3] = -np.cross(w_B, v_B)
        return c


def drake_joint_slots(plant):
    """[(name, q start, v start, nv, child body name)] of a pydrake plant's moving joints:
    1-dof joints and (nv = 6) quaternion free joints."""
    out = []
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        nv = joint.num_velocities()
        if nv not in (0, 1, 6):
            sys.exit(f"joint {joint.name()} has {nv} velocities: not mapped by compare.py")
        if nv > 0:
            start_q, start_v = joint.position_start(), joint.velocity_start()
            out.append((joint.name(), start_q, start_v, nv, joint.child_body().name()))
    return out


# ---- libraries -------------------------------------------------------------------------------
# Each library offers timers(): op → function(states) that runs the op once per state (each
# state in the library's own coordinates, from prepare()) and returns the last result, and
# decode(op, result): that result as a numpy array in the library's coordinates but a common
# layout (pose: 3×4 [R p]; mass matrix: full nv×nv; Jacobian: 6×nv rows [ω; v], expressed in
# World; forward dynamics: v̇). The numerical check calls the very functions that are timed.
def run_once(lib, op, q, v, a):
    """lib's result of op at its own state (q, v, a), decoded."""
    return lib.decode(op, lib.timers()[op]([lib.prepare(q, v, a)]))


class DrakeAPI:
    """mallard or pydrake, through the same (pydrake's) API."""

    def __init__(self, package, mdef, robots_dir):
        self.name = package
        mod = {
            key: importlib.import_module(f"{package}.{sub}")
            for key, sub in (
                ("plant", "multibody.plant"),
                ("parsing", "multibody.parsing"),
                ("tree", "multibody.tree"),
                ("math", "math"),
            )
        }
        self.tree = mod["tree"]
        plant = self.plant = mod["plant"].MultibodyPlant(time_step=0.0)
        if mdef.urdf is None:
            self._build_chain(mod)
        else:
            parser = mod["parsing"].Parser(plant)
            parser.package_map().Add("example-robot-data", str(robots_dir))
            parser.AddModelsFromString(mdef.urdf, "urdf")
            if mdef.weld:
                plant.WeldFrames(plant.world_frame(), plant.GetFrameByName(mdef.weld))
        plant.Finalize()
        self.nq, self.nv = plant.num_positions(), plant.num_velocities()
        self.context = plant.CreateDefaultContext()
        self.body = plant.GetBodyByName(mdef.tip)
        self.forces = self.tree.MultibodyForces(plant)
        self.coordinates = CoordinateMap.identity(self.nq, self.nv)
        self._timers = self._make_timers()

    def _build_chain(self, mod):
        tree, RigidTransform, plant = self.tree, mod["math"].RigidTransform, self.plant
        parent = plant.world_frame()
        for i in range(CHAIN_LINKS):
            axis_index, offset, mass, com, moments = chain_link(i)
            if i > 0:
                parent = plant.AddFrame(
                    tree.FixedOffsetFrame(f"joint{i}_parent", parent, RigidTransform(offset))
                )
            M = tree.SpatialInertia.MakeFromCentralInertia(
                mass, com, tree.RotationalInertia(*moments)
            )
            body = plant.AddRigidBody(f"link{i}", M)
            axis = np.eye(3)[axis_index]
            plant.AddJoint(tree.RevoluteJoint(f"joint{i}", parent, body.body_frame(), axis))
            parent = body.body_frame()

    def prepare(self, q, v, a):
        return q, np.concatenate((q, v)), a

    def decode(self, op, result):
        if op == "forward kinematics":
            return np.c_[result.rotation().matrix(), result.translation()]
        if op == "forward dynamics":
            return np.array(result)[self.nq :]
        return np.array(result)

    def timers(self):
        return self._timers

    def _make_timers(self):
        plant, context, body, forces = self.plant, self.context, self.body, self.forces
        frame, world, p0 = body.body_frame(), plant.world_frame(), np.zeros(3)
        kV = self.tree.JacobianWrtVariable.kV

        def set_state(states):
            for _, x, _ in states:
                plant.SetPositionsAndVelocities(context, x)

        def forward_kinematics(states):
            for q, _, _ in states:
                plant.SetPositions(context, q)
                X = plant.EvalBodyPoseInWorld(context, body)
            return X

        def mass_matrix(states):
            for q, _, _ in states:
                plant.SetPositions(context, q)
                M = plant.CalcMassMatrix(context)
            return M

        def inverse_dynamics(states):
            for _, x, a in states:
                plant.SetPositionsAndVelocities(context, x)
                plant.CalcForceElementsContribution(context, forces)
                tau = plant.CalcInverseDynamics(context, a, forces)
            return tau

        def forward_dynamics(states):
            for _, x, _ in states:
                plant.SetPositionsAndVelocities(context, x)
                xdot = plant.EvalTimeDerivatives(context).CopyToVector()
            return xdot

        def frame_jacobian(states):
            for q, _, _ in states:
                plant.SetPositions(context, q)
                J = plant.CalcJacobianSpatialVelocity(context, kV, frame, p0, world, world)
            return J

        return {
            "set state": set_state,
            "forward kinematics": forward_kinematics,
            "mass matrix": mass_matrix,
            "inverse dynamics": inverse_dynamics,
            "forward dynamics": forward_dynamics,
            "frame Jacobian": frame_jacobian,
        }


class MallardSingleState:
    """mallard's SingleStatePlant (no Context): the state as arrays, results written into
    arrays allocated once."""

    def __init__(self, mallard):
        from mallard.multibody.single_state import SingleStatePlant

        self.name = "mallard single-state"
        plant = mallard.plant
        self.single = SingleStatePlant(plant)
        self.coordinates = mallard.coordinates
        self.body_index, self.frame = int(mallard.body.index()), mallard.body.body_frame()
        nv = plant.num_velocities()
        self.outputs = {
            "forward kinematics": np.empty((plant.num_bodies(), 4, 4)),
            "mass matrix": np.empty((nv, nv)),
            "inverse dynamics": np.empty(nv),
            "forward dynamics": np.empty(nv),
            "frame Jacobian": np.empty((6, nv)),
        }
        self._timers = self._make_timers()

    def prepare(self, q, v, a):
        return q, v, a

    def decode(self, op, result):
        if op == "forward kinematics":  # (every body's pose: the tip's [R p])
            return result[self.body_index, :3, :].copy()
        return np.array(result)

    def timers(self):
        return self._timers

    def _make_timers(self):
        single, frame, out = self.single, self.frame, self.outputs
        X, M, tau, vdot, J = (out[op] for op in out)

        def forward_kinematics(states):
            for q, _, _ in states:
                single.CalcAllBodyPosesInWorld(q, out=X)
            return X

        def mass_matrix(states):
            for q, _, _ in states:
                single.CalcMassMatrix(q, out=M)
            return M

        def inverse_dynamics(states):
            for q, v, a in states:
                single.CalcInverseDynamics(q, v, a, out=tau)
            return tau

        def forward_dynamics(states):
            for q, v, _ in states:
                single.CalcForwardDynamics(q, v, out=vdot)
            return vdot

        def frame_jacobian(states):
            for q, _, _ in states:
                single.CalcJacobianSpatialVelocity(q, frame, out=J)
            return J

        return {
            "forward kinematics": forward_kinematics,
            "mass matrix": mass_matrix,
            "inverse dynamics": inverse_dynamics,
            "forward dynamics": forward_dynamics,
            "frame Jacobian": frame_jacobian,
        }


class Pinocchio:
    def __init__(self, mdef, reference):
        self.name = "pinocchio"
        if mdef.urdf is None:
            model = self._build_chain()
        elif mdef.floating:
            model = pin.buildModelFromXML(mdef.urdf, pin.JointModelFreeFlyer())
        else:
            model = pin.buildModelFromXML(mdef.urdf)
        self.model, self.data = model, model.createData()
        self.frame_id = model.getFrameId(mdef.tip)
        self.joint_id = model.frames[self.frame_id].parentJoint
        if not model.frames[self.frame_id].placement.isIdentity():
            sys.exit(f"pinocchio: body {mdef.tip} is not at its joint's frame")
        slots, base = [], None
        for name, dq, dv, nv, _ in drake_joint_slots(reference.plant):
            if nv == 6:  # the floating base: Pinocchio calls it root_joint
                joint = model.joints[model.getJointId("root_joint")]
                base = ("pinocchio", dq, dv, joint.idx_q, joint.idx_v)
            else:
                joint = model.joints[model.getJointId(name)]
                slots.append((dq, dv, joint.idx_q, joint.idx_v))
        self.coordinates = CoordinateMap(model.nq, model.nv, slots, base)
        self.tau0 = np.zeros(model.nv)
        self._timers = self._make_timers()

    @staticmethod
    def _build_chain():
        model, parent, previous_frame = pin.Model(), 0, 0
        joint_models = (pin.JointModelRX, pin.JointModelRY, pin.JointModelRZ)
        for i in range(CHAIN_LINKS):
            axis_index, offset, mass, com, moments = chain_link(i)
            joint = model.addJoint(
                parent, joint_models[axis_index](), pin.SE3(np.eye(3), offset), f"joint{i}"
            )
            model.appendBodyToJoint(
                joint, pin.Inertia(mass, com, np.diag(moments)), pin.SE3.Identity()
            )
            joint_frame = model.addJointFrame(joint, previous_frame)
            previous_frame = model.addBodyFrame(f"link{i}", joint, pin.SE3.Identity(), joint_frame)
            parent = joint
        return model

    def prepare(self, q, v, a):
        return q, v, a

    def decode(self, op, result):
        if op == "forward kinematics":
            return np.c_[result.rotation, result.translation]
        if op == "mass matrix":  # crba fills the upper triangle
            return np.triu(result) + np.triu(result, 1).T
        if op == "frame Jacobian":  # rows [v; ω] → [ω; v]
            return np.vstack((result[3:], result[:3]))
        return np.array(result)

    def timers(self):
        return self._timers

    def _make_timers(self):
        model, data, joint_id, frame_id = self.model, self.data, self.joint_id, self.frame_id
        tau0, LWA = self.tau0, pin.LOCAL_WORLD_ALIGNED

        def forward_kinematics(states):
            for q, _, _ in states:
                pin.forwardKinematics(model, data, q)
                X = data.oMi[joint_id]
            return X

        def mass_matrix(states):
            for q, _, _ in states:
                M = pin.crba(model, data, q)
            return M

        def inverse_dynamics(states):
            for q, v, a in states:
                tau = pin.rnea(model, data, q, v, a)
            return tau

        def forward_dynamics(states):
            for q, v, _ in states:
                vdot = pin.aba(model, data, q, v, tau0)
            return vdot

        def frame_jacobian(states):
            for q, _, _ in states:
                J = pin.computeFrameJacobian(model, data, q, frame_id, LWA)
            return J

        return {
            "forward kinematics": forward_kinematics,
            "mass matrix": mass_matrix,
            "inverse dynamics": inverse_dynamics,
            "forward dynamics": forward_dynamics,
            "frame Jacobian": frame_jacobian,
        }


class MuJoCo:
    def __init__(self, mdef, reference):
        self.name = "mujoco"
        if mdef.urdf is None:
            spec = self._build_chain()
        else:
            spec = mujoco.MjSpec.from_string(mdef.urdf)
            for _, _, _, nv, body in drake_joint_slots(reference.plant):
                if nv == 6:  # the URDF's root link floats: give it a free joint
                    spec.body(body).add_freejoint()
        spec.compiler.fusestatic = False
        spec.compiler.inertiafromgeom = mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE
        m = self.m = spec.compile()
        m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT  # no contact, no limits
        self.d = mujoco.MjData(m)
        self.body_id = m.body(mdef.tip).id
        slots, base = [], None
        for name, dq, dv, nv, _ in drake_joint_slots(reference.plant):
            if nv == 6:
                (free,) = [j for j in range(m.njnt) if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE]
                base = ("mujoco", dq, dv, m.jnt_qposadr[free], m.jnt_dofadr[free])
            else:
                joint = m.joint(name)
                slots.append((dq, dv, joint.qposadr[0], joint.dofadr[0]))
        self.coordinates = CoordinateMap(m.nq, m.nv, slots, base)
        self._timers = self._make_timers()

    @staticmethod
    def _build_chain():
        spec = mujoco.MjSpec()
        parent = spec.worldbody
        for i in range(CHAIN_LINKS):
            axis_index, offset, mass, com, moments = chain_link(i)
            body = parent.add_body(
                name=f"link{i}", pos=offset, mass=mass, ipos=com, inertia=moments
            )
            body.explicitinertial = True
            body.add_joint(
                name=f"joint{i}", type=mujoco.mjtJoint.mjJNT_HINGE, axis=np.eye(3)[axis_index]
            )
            parent = body
        return spec

    def prepare(self, q, v, a):
        return q, v, a

    def decode(self, op, result):
        if op == "forward kinematics":
            xmat, xpos = result
            return np.c_[xmat.reshape(3, 3), xpos]
        if op == "frame Jacobian":
            jacp, jacr = result
            return np.vstack((jacr, jacp))
        return np.array(result)

    def timers(self):
        return self._timers

    def _make_timers(self):
        m, d, body_id = self.m, self.d, self.body_id
        M = np.zeros((m.nv, m.nv))
        jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))

        def set_state(states):
            for q, v, _ in states:
                d.qpos[:] = q
                d.qvel[:] = v

        def forward_kinematics(states):
            for q, _, _ in states:
                d.qpos[:] = q
                mujoco.mj_kinematics(m, d)
                X = d.xmat[body_id], d.xpos[body_id]
            return X

        def mass_matrix(states):
            for q, _, _ in states:
                d.qpos[:] = q
                mujoco.mj_kinematics(m, d)
                mujoco.mj_comPos(m, d)
                mujoco.mj_makeM(m, d)
                mujoco.mj_fullM(m, d, M)
            return M

        def inverse_dynamics(states):
            for q, v, a in states:
                d.qpos[:] = q
                d.qvel[:] = v
                d.qacc[:] = a
                mujoco.mj_inverse(m, d)
                tau = d.qfrc_inverse
            return tau

        def forward_dynamics(states):
            for q, v, _ in states:
                d.qpos[:] = q
                d.qvel[:] = v
                mujoco.mj_forward(m, d)
                vdot = d.qacc
            return vdot

        def frame_jacobian(states):
            for q, _, _ in states:
                d.qpos[:] = q
                mujoco.mj_kinematics(m, d)
                mujoco.mj_comPos(m, d)
                mujoco.mj_jacBody(m, d, jacp, jacr, body_id)
            return jacp, jacr

        return {
            "set state": set_state,
            "forward kinematics": forward_kinematics,
            "mass matrix": mass_matrix,
            "inverse dynamics": inverse_dynamics,
            "forward dynamics": forward_dynamics,
            "frame Jacobian": frame_jacobian,
        }


# ---- numerical check -------------------------------------------------------------------------
def random_drake_state(reference, rng):
    """Random (q, v, v̇) in Drake's coordinates, unit quaternions for free joints."""
    plant = reference.plant
    q = rng.uniform(-1.0, 1.0, plant.num_positions())
    for _, dq, _, nv, _ in drake_joint_slots(plant):
        if nv == 6:
            quat = rng.normal(size=4)
            q[dq : dq + 4] = quat / np.linalg.norm(quat)
    return q, rng.normal(size=plant.num_velocities()), rng.normal(size=plant.num_velocities())


def native_state(lib, q, v, a):
    """Drake's state (q, v, v̇) in lib's coordinates."""
    cm = lib.coordinates
    T = cm.velocity_map(q)
    return cm.positions(q), T @ v, T @ a + cm.acceleration_bias(q, v)


def in_drake_convention(lib, q, v, a):
    """lib's results at Drake's state (q, v, v̇), mapped to Drake's coordinates."""
    cm = lib.coordinates
    T, c = cm.velocity_map(q), cm.acceleration_bias(q, v)
    state = native_state(lib, q, v, a)
    return {
        "pose": run_once(lib, "forward kinematics", *state),
        "mass matrix": T.T @ run_once(lib, "mass matrix", *state) @ T,
        "inverse dynamics": T.T @ run_once(lib, "inverse dynamics", *state),
        "forward dynamics": T.T @ (run_once(lib, "forward dynamics", *state) - c),
        "frame Jacobian": run_once(lib, "frame Jacobian", *state) @ T,
    }


def relative_error(x, ref):
    return float(np.linalg.norm(x - ref) / max(np.linalg.norm(ref), 1e-300))


def check_agreement(libs, rng, tol, states=3):
    """Max relative error vs pydrake per (library, quantity); exits if any exceeds ``tol``."""
    reference = libs["pydrake"]
    errors = {}
    for _ in range(states):
        q, v, a = random_drake_state(reference, rng)
        ref = in_drake_convention(reference, q, v, a)
        for name, lib in libs.items():
            if name == "pydrake":
                continue
            for key, value in in_drake_convention(lib, q, v, a).items():
                err = relative_error(value, ref[key])
                errors[name, key] = max(errors.get((name, key), 0.0), err)
    bad = {k: e for k, e in errors.items() if not e <= tol}
    if bad:
        lines = "\n".join(
            f"  {lib:9s} {key:18s} relative error {e:.2e}" for (lib, key), e in bad.items()
        )
        sys.exit(f"ABORT: libraries disagree with pydrake beyond {tol:g} relative:\n{lines}")
    return errors


# ---- mallard's batched API (optional) ---------------------------------------------------------
# BatchedPlant's method per operation, and the arguments it takes (Q, V, A: (B, n) arrays in
# Drake's coordinates; frame: the tip body's frame).
MALLARD_BATCH_METHODS = {
    "forward kinematics": ("CalcAllBodyPosesInWorld", lambda Q, V, A, frame: (Q,)),
    "mass matrix": ("CalcMassMatrix", lambda Q, V, A, frame: (Q,)),
    "inverse dynamics": ("CalcInverseDynamics", lambda Q, V, A, frame: (Q, V, A)),
    "forward dynamics": ("CalcForwardDynamics", lambda Q, V, A, frame: (Q, V)),
    "frame Jacobian": ("CalcJacobianSpatialVelocity", lambda Q, V, A, frame: (Q, frame)),
}


def mallard_batch_timers(mallard, Q, V, A, threads):
    """op → function() running mallard's batched op (BatchedPlant) over all states, and
    notes. Each method is first checked against mallard's single calls on a few states; one
    that is missing, raises or disagrees is skipped with a note."""
    try:
        from mallard.multibody.batch import BatchedPlant
    except ImportError as error:
        return {}, [f"mallard's batched API is not available ({error}): mallard batched skipped."]
    import numba

    try:
        num_threads = min(threads, numba.config.NUMBA_NUM_THREADS)
        batched = BatchedPlant(mallard.plant, num_threads=num_threads)
    except Exception as error:
        return {}, [f"BatchedPlant(plant) raised {type(error).__name__}: {error}; skipped."]
    frame, body_index = mallard.body.body_frame(), int(mallard.body.index())
    k = min(4, Q.shape[0])
    expected = {
        op: np.array([run_once(mallard, op, Q[i], V[i], A[i]) for i in range(k)])
        for op in MALLARD_BATCH_METHODS
    }
    timers, notes = {}, []
    for op, (method, arguments) in MALLARD_BATCH_METHODS.items():
        fn = getattr(batched, method, None)
        if fn is None:
            notes.append(f"mallard batched {op}: BatchedPlant has no {method}; skipped.")
            continue
        try:
            got = np.asarray(fn(*arguments(Q[:k], V[:k], A[:k], frame)))
        except Exception as error:
            notes.append(f"mallard batched {op}: {method} raised {type(error).__name__}: {error}")
            continue
        if op == "forward kinematics":  # (B, num_bodies, 4, 4): the tip body's [R p]
            got = got[:, body_index, :3, :] if got.ndim == 4 else got
        if got.shape != expected[op].shape:
            shapes = f"{got.shape}, expected {expected[op].shape}"
            notes.append(f"mallard batched {op}: {method} gave shape {shapes}; skipped.")
            continue
        err = relative_error(got, expected[op])
        if not err <= 1e-8:
            notes.append(
                f"mallard batched {op}: {method} DISAGREES with mallard's single calls "
                f"(relative error {err:.1e}); skipped."
            )
            continue
        timers[op] = functools.partial(fn, *arguments(Q, V, A, frame))
    return timers, notes


# ---- timing ----------------------------------------------------------------------------------
def measure(candidates, rounds, sample_seconds):
    """Median time per unit of each candidate. ``candidates``: label → (function(), units per
    function call). Samples interleave candidates, rotating the order every round."""
    labels = list(candidates)
    reps = {}
    for label, (fn, _) in candidates.items():
        fn()  # warm up (compiles numba kernels, fills caches of static data)
        start = time.perf_counter()
        fn()
        elapsed = max(time.perf_counter() - start, 1e-7)
        reps[label] = max(1, round(sample_seconds / elapsed))
    samples = {label: [] for label in labels}
    gc.collect()
    gc.disable()
    try:
        for r in range(rounds):
            for j in range(len(labels)):
                label = labels[(r + j) % len(labels)]
                fn, units = candidates[label]
                n = reps[label]
                start = time.perf_counter()
                for _ in range(n):
                    fn()
                samples[label].append((time.perf_counter() - start) / (n * units))
    finally:
        gc.enable()
    return {label: statistics.median(s) for label, s in samples.items()}


def time_single_calls(libs, native_states, rounds, sample_seconds):
    """{op: {library: µs per call}}."""
    table = {}
    for op in OPS:
        candidates = {}
        for name, lib in libs.items():
            fn = lib.timers().get(op)
            if fn is not None:
                states = native_states[name]
                candidates[name] = (lambda fn=fn, states=states: fn(states), len(states))
        medians = measure(candidates, rounds, sample_seconds)
        table[op] = {name: t * 1e6 for name, t in medians.items()}
        print(f"    {op:20s} " + "  ".join(f"{n} {t:8.2f}" for n, t in table[op].items()))
    return table


def time_batched(libs, batch_size, rounds, sample_seconds, threads, rng):
    """{op: {column: µs per state}} for Pinocchio's C++ batch, the pydrake loop and mallard's
    batched API, and notes."""
    reference, pinocchio = libs["pydrake"], libs["pinocchio"]
    drake_states = [random_drake_state(reference, rng) for _ in range(batch_size)]
    # mallard batched: arrays (B, n) in Drake's coordinates.
    Q = np.array([s[0] for s in drake_states])
    V = np.array([s[1] for s in drake_states])
    A = np.array([s[2] for s in drake_states])
    pydrake_states = [reference.prepare(*s) for s in drake_states]
    # Pinocchio: column-major (n, B) arrays, as its batch functions take them (no copy).
    pin_states = [native_state(pinocchio, *s) for s in drake_states]
    Qp = np.array([s[0] for s in pin_states]).T
    Vp = np.array([s[1] for s in pin_states]).T
    Ap = np.array([s[2] for s in pin_states]).T
    tau0 = np.zeros_like(Vp)
    out = np.zeros_like(Vp)  # column-major, written in place
    pool = pin.ModelPool(pinocchio.model, threads)
    pin_batch = {
        "inverse dynamics": lambda: pin.rneaInParallel(threads, pool, Qp, Vp, Ap, out),
        "forward dynamics": lambda: pin.abaInParallel(threads, pool, Qp, Vp, tau0, out),
    }
    # Pinocchio's batch agrees with its single calls?
    k = min(4, batch_size)
    for op, run in pin_batch.items():
        run()
        single = np.array([run_once(pinocchio, op, *pin_states[i]) for i in range(k)])
        err = relative_error(out[:, :k].T, single)
        if not err <= 1e-10:
            sys.exit(f"ABORT: pinocchio's batched {op} differs from its single calls ({err:.1e})")
    mallard_timers, notes = mallard_batch_timers(libs["mallard"], Q, V, A, threads)
    pydrake_timers = reference.timers()
    table = {}
    for op in BATCH_OPS:
        candidates = {
            "pydrake loop": (lambda fn=pydrake_timers[op]: fn(pydrake_states), batch_size)
        }
        if op in pin_batch:
            candidates["pinocchio batch"] = (pin_batch[op], batch_size)
        if op in mallard_timers:
            candidates["mallard batched"] = (mallard_timers[op], batch_size)
        medians = measure(candidates, rounds, sample_seconds)
        table[op] = {name: t * 1e6 for name, t in medians.items()}
        print(f"    {op:20s} " + "  ".join(f"{n} {t:8.2f}" for n, t in table[op].items()))
    return table, notes


# ---- report ----------------------------------------------------------------------------------
def fmt_us(x):
    if x is None:
        return "—"
    return f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:.0f}"


def fmt_ratio(a, b):
    return "—" if a is None or b is None else f"{a / b:.2f}"


def machine_info():
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return cpu, os.cpu_count(), usable


def versions():
    out = {"python": platform.python_version()}
    for dist in ("mallard", "drake", "pin", "mujoco", "numpy", "numba"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = "not installed"
    return out


def report(results, settings):
    cpu, cores, usable = machine_info()
    lines = [
        "# mallard vs pydrake, Pinocchio and MuJoCo",
        "",
        f"- date: {datetime.datetime.now().isoformat(timespec='seconds')}",
        f"- machine: {cpu}, {cores} cores ({usable} usable by this process), "
        f"{platform.system()} {platform.release()}",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()),
        "- settings: " + ", ".join(f"{k} {v}" for k, v in settings.items()),
        "- command: " + " ".join(["python", *sys.argv]),
        "",
        "Medians over interleaved samples, µs per call through each library's Python API; "
        "every call changes the state first. Ratios < 1: mallard is faster. See the docstring "
        "of benchmarks/compare.py for exactly what each operation calls.",
        "",
    ]
    for mdef, res in results:
        single, batched, errors, notes = res["single"], res["batched"], res["errors"], res["notes"]
        lines += [f"## {mdef.label}", "", "Single call (µs):", ""]
        lines += [
            "| operation | mallard | pydrake | pinocchio | mujoco | mallard single-state "
            "| mallard/pydrake | mallard/pinocchio | single-state/pinocchio |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for op in OPS:
            row = single[op]
            m, d, p, j, s = (row.get(k) for k in LIBRARIES)
            lines.append(
                f"| {op} | {fmt_us(m)} | {fmt_us(d)} | {fmt_us(p)} | {fmt_us(j)} | {fmt_us(s)} "
                f"| {fmt_ratio(m, d)} | {fmt_ratio(m, p)} | {fmt_ratio(s, p)} |"
            )
        lines += ["", f"Batched, {settings['batch size']} states (µs per state):", ""]
        lines += [
            "| operation | mallard batched | pinocchio C++ batch | pydrake loop "
            "| mallard batched/pinocchio batch | mallard batched/pydrake loop |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for op in BATCH_OPS:
            row = batched[op]
            m, p, d = (row.get(k) for k in ("mallard batched", "pinocchio batch", "pydrake loop"))
            lines.append(
                f"| {op} | {fmt_us(m)} | {fmt_us(p)} | {fmt_us(d)} "
                f"| {fmt_ratio(m, p)} | {fmt_ratio(m, d)} |"
            )
        lines += ["", "Agreement with pydrake (max relative error over the checked states):", ""]
        keys = ["pose", "mass matrix", "inverse dynamics", "forward dynamics", "frame Jacobian"]
        lines += ["| library | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
        for lib in ("mallard", "pinocchio", "mujoco", "mallard single-state"):
            lines.append(f"| {lib} | " + " | ".join(f"{errors[lib, k]:.1e}" for k in keys) + " |")
        if notes:
            lines += ["", *(f"- {n}" for n in notes)]
        lines.append("")
    lines += [
        'Notes: pinocchio has no state object ("set state" —) and no C++ batch of the mass '
        "matrix, kinematics or Jacobian; `pin.crba` fills the upper triangle only; MuJoCo's "
        "`mj_forward` and `mj_inverse` run its whole pipeline (with constraints disabled).",
        "",
    ]
    return "\n".join(lines)


# ---- main ------------------------------------------------------------------------------------
def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    parser.add_argument(
        "--output",
        type=Path,
        default=Path(__file__).resolve().parent / "results" / "compare.md",
        help="markdown report (default: benchmarks/results/compare.md)",
    )
    parser.add_argument("--models", default="panda,g1,chain30", help="comma-separated subset")
    parser.add_argument("--rounds", type=int, help="samples per library and operation")
    parser.add_argument("--batch-rounds", type=int, help="samples per batched measurement")
    parser.add_argument("--sample-ms", type=float, help="target duration of one sample")
    parser.add_argument("--batch-size", type=int, default=1000, help="states per batch")
    parser.add_argument("--threads", type=int, default=1, help="threads of the batched APIs")
    parser.add_argument("--tol", type=float, default=1e-8, help="relative agreement required")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--robots", type=Path, help="example-robot-data's robots directory")
    args = parser.parse_args(argv)
    quick = args.quick
    args.rounds = args.rounds or (15 if quick else 201)
    args.batch_rounds = args.batch_rounds or (5 if quick else 41)
    args.sample_ms = args.sample_ms or (0.5 if quick else 1.0)
    return args


def main(argv=None):
    args = parse_args(argv)
    robots = args.robots or default_robots_dir()
    names = [n.strip() for n in args.models.split(",") if n.strip()]
    if any(n != "chain30" for n in names) and (robots is None or not robots.is_dir()):
        sys.exit("example-robot-data not found: pip install example-robot-data, or --robots DIR")
    rng = np.random.default_rng(args.seed)
    settings = {
        "mode": "quick" if args.quick else "full",
        "rounds": args.rounds,
        "batch rounds": args.batch_rounds,
        "sample ms": args.sample_ms,
        "batch size": args.batch_size,
        "threads (batched APIs)": args.threads,
        "states cycled": N_STATES,
        "seed": args.seed,
    }
    results = []
    for mdef in model_defs(robots, names):
        print(f"{mdef.label}: building")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            libs = {"mallard": DrakeAPI("mallard", mdef, robots)}
            libs["pydrake"] = DrakeAPI("pydrake", mdef, robots)
            libs["pinocchio"] = Pinocchio(mdef, libs["pydrake"])
            libs["mujoco"] = MuJoCo(mdef, libs["pydrake"])
            libs["mallard single-state"] = MallardSingleState(libs["mallard"])
        sizes = {n: (lib.coordinates.nq, lib.coordinates.nv) for n, lib in libs.items()}
        if len(set(sizes.values())) != 1:
            sys.exit(f"ABORT: {mdef.label}: (nq, nv) differ between libraries: {sizes}")
        print(f"  checking agreement (nq, nv = {sizes['pydrake']})")
        errors = check_agreement(libs, rng, args.tol)
        worst = max(errors.items(), key=lambda item: item[1])
        print(f"  all agree; worst relative error {worst[1]:.1e} ({worst[0][0]}, {worst[0][1]})")
        drake_states = [random_drake_state(libs["pydrake"], rng) for _ in range(N_STATES)]
        native = {
            name: [lib.prepare(*native_state(lib, *s)) for s in drake_states]
            for name, lib in libs.items()
        }
        print("  single calls (µs):")
        single = time_single_calls(libs, native, args.rounds, args.sample_ms * 1e-3)
        print(f"  batched, {args.batch_size} states (µs per state):")
        batched, notes = time_batched(
            libs, args.batch_size, args.batch_rounds, args.sample_ms * 1e-3, args.threads, rng
        )
        for note in notes:
            print(f"  note: {note}")
        results.append(
            (mdef, {"single": single, "batched": batched, "errors": errors, "notes": notes})
        )
    text = report(results, settings)
    print()
    print(text)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
