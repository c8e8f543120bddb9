"""MultibodyPlant kinematics: cached poses and spatial velocities of the bodies, frame
queries, maps between v and q̇, and center-of-mass and momentum quantities.

The cached quantities live in the Context's EngineCache (see _engine): the pose X_BF of every
frame in its body (from the parameters), position kinematics (from q) and the bodies' spatial
velocities (from q and v).
"""

import functools

import numpy as np

from mallard._scalar import as_array
from mallard.common._bindings import scalar_out
from mallard.common._pybind import overloads
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody._layout import POSES_ONLY, POSITIONS, VELOCITIES
from mallard.multibody.math import SpatialMomentum, SpatialVelocity
from mallard.multibody.plant._engine import _F64, _compose
from mallard.multibody.tree._indices import ModelInstanceIndex

_new_object = object.__new__


class KinematicsMixin:
    """Kinematics methods of MultibodyPlant."""

    # ---- cache entries -------------------------------------------------------------------
    def _parameters(self, context):
        """The PlantParameters of ``context``, to read."""
        return context._parameters._abstract._values[0]._value

    def _mutable_parameters(self, context):
        """The PlantParameters of ``context``, to write: marks what depends on them out of
        date."""
        context._p_changed()
        return context._parameters._abstract._values[0]._value

    def _frame_poses(self, context):
        """The EngineCache with the parameter-derived poses up to date: X_BF of every frame,
        X_PF_MB of every mobilizer."""
        return self._engine.cache(context)

    def _position_kinematics(self, context):
        """The EngineCache with position kinematics up to date: ``X_pc`` (poses per mobod,
        see kernels.kinematics) and ``H_PB_W``."""
        return self._engine.ensure(context, POSITIONS)

    def _velocity_kinematics(self, context):
        """The EngineCache with velocity kinematics up to date: ``V_WB`` per mobod."""
        return self._engine.ensure(context, POSITIONS | VELOCITIES)

    # ---- bodies and frames ---------------------------------------------------------------
    def _check_body(self, context, body, method):
        """Validates ``context`` then ``body`` (in Drake's order); returns the body's mobod."""
        self.ValidateContext(context)
        self._throw_if_not_finalized(method)
        if body._plant is not self:
            raise RuntimeError(
                "This multibody element does not belong to the supplied MultibodyTree."
            )
        return int(self._topology.mobod_of_body[int(body.index())])

    def EvalBodyPoseInWorld(self, context, body):
        """X_WB, the pose of ``body``'s frame in World."""
        # The hot path of pose queries, inline: the Context's EngineCache with its poses X_WB
        # up to date (the poses stage only, without Jacobian columns), one copy of one pose.
        try:
            valid = context._system is self and body._plant is self
        except AttributeError:
            valid = False
        if not valid:
            self._check_body(context, body, "EvalBodyPoseInWorld")
        ec = self._posed_cache(context)
        X_WB = _new_object(RigidTransform)  # RigidTransform._from_pose, one call less
        X_WB._X = ec.X_WB_rows[body._mobod].copy()
        return X_WB

    def _posed_cache(self, context):
        """The EngineCache of ``context`` (of this plant) with its poses X_WB up to date (the
        poses stage only, without Jacobian columns): ``ec.X_WB_rows``, ``ec.work.X_pc[3]``."""
        ec = context._system_cache
        if (
            ec is None
            or ec.parameters_serial != context._serial_p
            or ec.engine_version != self._engine.version
        ):
            ec = self._engine.cache(context)
        if ec.poses_serial != context._serial_q:
            # The poses driver (drive_stages for POSES_ONLY) is bound to the state's array x,
            # which moves only with the Context's continuous state object (see
            # Context._rebind_continuous).
            continuous = context._state._continuous
            if continuous is not ec.poses_state:
                x = self._x_of(context._state)
                poses = self._engine.bind(ec, "drive_stages", x, (POSES_ONLY,))
                ec.run_poses = functools.partial(poses, POSES_ONLY)
                ec.poses_state = continuous
            w_slots = self._engine.w_slots
            if w_slots:  # (a zero quaternion raises: its w tested first, inline)
                x = ec.bound["drive_stages"][0]
                if x.dtype is not _F64:
                    self._engine.check_quaternions(x)
                else:
                    for w in w_slots:
                        if x[w] == 0.0:
                            self._engine.check_quaternions(x)
            ec.run_poses()
            ec.poses_serial = context._serial_q
        return ec

    def EvalBodySpatialVelocityInWorld(self, context, body):
        """V_WB_W, the spatial velocity of ``body``'s frame in World, expressed in World."""
        k = self._check_body(context, body, "EvalBodySpatialVelocityInWorld")
        return SpatialVelocity._make(self._velocity_kinematics(context).work.V_WB[k].copy())

    def _X_BF(self, context, frame):
        """(R_BF, p_BF) of ``frame`` in its body, from the parameters of ``context``."""
        X = self._frame_poses(context).X_BF[int(frame.index())]
        return X[:3], X[3]

    def _X_WF(self, context, frame):
        """(R_WF, p_WF) of ``frame`` (new arrays)."""
        self._check_frame(frame)
        self._throw_if_not_finalized("CalcPoseInWorld")
        cache = self._position_kinematics(context)
        X_WB = cache.work.X_pc[3, self._topology.mobod_of_body[int(frame.body().index())]]
        X_WF = _compose(X_WB, cache.X_BF[int(frame.index())])
        return X_WF[:3], X_WF[3]

    def _fixed_p_BF(self):
        """p_BoFo_B of every frame from the elements' default offsets (a cached array)."""
        p_BF = self.__dict__.get("_fixed_p_BF_array")
        if p_BF is None:
            p_BF = np.array([frame._default_X_BF()[1] for frame in self._frames], dtype=float)
            self._fixed_p_BF_array = p_BF
        return p_BF

    def _V_WF(self, context, frame):
        """V_WF_W of ``frame`` (a new 6-array): its body's, shifted to the frame's origin.

        As Drake's Frame::CalcSpatialVelocityInWorld, the shift is by the frame's *default*
        offset in its body (GetFixedPoseInBodyFrame), not by the one in ``context``: the two
        differ only after FixedOffsetFrame.SetPoseInParentFrame(context, ...), and then pydrake
        reports this velocity (and every velocity built on it) that way.
        """
        self._check_frame(frame)
        self._throw_if_not_finalized("CalcSpatialVelocityInWorld")
        k = self._topology.mobod_of_body[int(frame.body().index())]
        cache = self._velocity_kinematics(context)
        R_WB = cache.work.X_pc[3, k, :3]
        p_BF_W = R_WB @ self._fixed_p_BF()[int(frame.index())]
        V = cache.work.V_WB[k].copy()
        w = V[:3]
        V[3:] += np.array(
            [
                w[1] * p_BF_W[2] - w[2] * p_BF_W[1],
                w[2] * p_BF_W[0] - w[0] * p_BF_W[2],
                w[0] * p_BF_W[1] - w[1] * p_BF_W[0],
            ]
        )
        return V

    def CalcRelativeTransform(self, context, frame_A, frame_B):
        """X_AB, the pose of frame B in frame A."""
        self.ValidateContext(context)
        R_WA, p_WA = self._X_WF(context, self._check_frame(frame_A, "frame_A"))
        R_WB, p_WB = self._X_WF(context, self._check_frame(frame_B, "frame_B"))
        return RigidTransform._make(R_WA.T @ R_WB, R_WA.T @ (p_WB - p_WA))

    def CalcRelativeRotationMatrix(self, context, frame_A, frame_B):
        """R_AB, the orientation of frame B in frame A."""
        self.ValidateContext(context)
        R_WA, _ = self._X_WF(context, self._check_frame(frame_A, "frame_A"))
        R_WB, _ = self._X_WF(context, self._check_frame(frame_B, "frame_B"))
        return RotationMatrix._make(R_WA.T @ R_WB)

    def _points(self, p, method, name):
        a = as_array(p, name=name)
        if a.ndim == 1:
            a = a.reshape(-1, 1)
        if a.ndim != 2 or a.shape[0] != 3:
            raise RuntimeError(
                f"{method}(): {name} must have 3 rows (one point per column), got shape "
                f"{np.shape(p)}"
            )
        return a

    def CalcPointsPositions(self, context, frame_B, p_BQi, frame_A):
        """p_AQi (3×n): the positions in frame A of points Qi fixed in frame B (p_BQi, 3×n)."""
        p_BQi = self._points(p_BQi, "CalcPointsPositions", "p_BQi")
        X_AB = self.CalcRelativeTransform(context, frame_A, frame_B)
        return X_AB._R._R @ p_BQi + X_AB._p[:, None]

    def CalcPointsVelocities(self, context, frame_B, p_BQi, frame_A, frame_E):
        """v_AQi_E (3×n): velocities measured in frame A, expressed in frame E, of points Qi
        fixed in frame B."""
        p_BQi = self._points(p_BQi, "CalcPointsVelocities", "p_BQi")
        self.ValidateContext(context)
        for frame, name in ((frame_B, "frame_B"), (frame_A, "frame_A"), (frame_E, "frame_E")):
            self._check_frame(frame, name)
        R_WB, p_WB = self._X_WF(context, frame_B)
        R_WA, p_WA = self._X_WF(context, frame_A)
        R_WE, _ = self._X_WF(context, frame_E)
        V_WB = self._V_WF(context, frame_B)
        V_WA = self._V_WF(context, frame_A)
        p_WQ = R_WB @ p_BQi + p_WB[:, None]
        # v_AQ_W = v_WQ − v_WAq, with Aq the point of A coincident with Q.
        v_WQ = V_WB[3:, None] + np.cross(V_WB[:3], (p_WQ - p_WB[:, None]).T).T
        v_WAq = V_WA[3:, None] + np.cross(V_WA[:3], (p_WQ - p_WA[:, None]).T).T
        return R_WE.T @ (v_WQ - v_WAq)

    # ---- q̇ and v -------------------------------------------------------------------------
    def _map(self, context, values, n_in, method, name, to_qdot):
        self._throw_if_not_finalized(method)
        self.ValidateContext(context)
        values = as_array(values, name=name).reshape(-1)
        if values.shape[0] != n_in:
            raise RuntimeError(f"{method}(): {name} must have size {n_in}, got {values.shape[0]}")
        q = self._q(context)
        self._check_rpy_singularities(q, method) if to_qdot else None
        dtype = np.result_type(q, values)
        out = np.zeros(self._nq if to_qdot else self._nv, dtype=dtype)
        model = self._engine
        k = model.kernels(dtype)
        drive = k.drive_qdot if to_qdot else k.drive_v
        drive(model.mi, model.mf, q.astype(dtype, copy=False), values.astype(dtype), out)
        return out

    def _check_rpy_singularities(self, q, method):
        for j in self._joints:
            if j.type_name() in ("ball_rpy", "rpy_floating"):
                pitch = (
                    float(np.asarray(q[j._q_start + 1], dtype=float)) if q.dtype != object else None
                )
                if pitch is not None and abs(np.cos(pitch)) < 1e-3:
                    raise RuntimeError(
                        f"{method}(): the roll-pitch-yaw angles of joint '{j.name()}' are at (or "
                        f"near) the gimbal-lock singularity, pitch = {pitch}, where the angle "
                        "rates are undefined"
                    )

    def MapVelocityToQDot(self, context, v):
        """q̇ = N(q)·v."""
        return self._map(context, v, self._nv_checked(), "MapVelocityToQDot", "v", True)

    def MapQDotToVelocity(self, context, qdot):
        """v = N⁺(q)·q̇."""
        return self._map(context, qdot, self._nq_checked(), "MapQDotToVelocity", "qdot", False)

    def _nv_checked(self):
        self._throw_if_not_finalized("num_velocities")
        return self._nv

    def _nq_checked(self):
        self._throw_if_not_finalized("num_positions")
        return self._nq

    def MakeVelocityToQDotMap(self, context):
        """N(q) (nq × nv), a dense array (pydrake returns the same matrix as scipy sparse)."""
        return self._make_map(context, "drive_N", self._nq, self._nv, "MakeVelocityToQDotMap")

    def MakeQDotToVelocityMap(self, context):
        """N⁺(q) (nv × nq), a dense array (pydrake returns the same matrix as scipy sparse)."""
        return self._make_map(context, "drive_Nplus", self._nv, self._nq, "MakeQDotToVelocityMap")

    def _make_map(self, context, kernel, rows, cols, method):
        self._throw_if_not_finalized(method)
        self.ValidateContext(context)
        q = self._q(context)
        if kernel == "drive_N":
            self._check_rpy_singularities(q, method)
        out = np.zeros((rows, cols), dtype=q.dtype)
        model = self._engine
        getattr(model.kernels(q.dtype), kernel)(model.mi, model.mf, q, out)
        return out

    # ---- mass, center of mass, momentum --------------------------------------------------
    def _instance_bodies(self, model_instances, method):
        """Indices of the non-world bodies of ``model_instances`` (all if None)."""
        if model_instances is None:
            return list(range(1, len(self._bodies)))
        instances = set()
        for mi in model_instances:
            if not isinstance(mi, ModelInstanceIndex) or not (
                0 <= int(mi) < len(self._instance_names)
            ):
                raise RuntimeError(
                    f"{method}(): This MultibodyPlant method contains an invalid model_instance."
                )
            instances.add(int(mi))
        return [
            b
            for b in range(1, len(self._bodies))
            if int(self._bodies[b].model_instance()) in instances
        ]

    def CalcTotalMass(self, context, model_instances=None):
        """The total mass of the bodies (of ``model_instances``, if given), World excluded."""
        self.ValidateContext(context)
        bodies = self._instance_bodies(model_instances, "CalcTotalMass")
        mass = self._parameters(context).mass
        return scalar_out(sum((mass[b] for b in bodies), 0.0))

    def _com_data(self, context, model_instances, method):
        self.ValidateContext(context)
        self._throw_if_not_finalized(method)
        bodies = self._instance_bodies(model_instances, method)
        if not bodies:
            if model_instances is None:
                raise RuntimeError(
                    f"{method}(): This MultibodyPlant only contains the world_body() so its "
                    "center of mass is undefined."
                )
            raise RuntimeError(
                f"{method}(): There must be at least one non-world body contained in "
                "model_instances."
            )
        parameters = self._parameters(context)
        mass = parameters.mass[bodies]
        total = mass.sum()
        if not total > 0:
            raise RuntimeError(f"{method}(): The system's total mass must be greater than zero.")
        return bodies, parameters, mass, total

    def CalcCenterOfMassPositionInWorld(self, context, model_instances=None):
        """p_WoScm_W, the position in World of the center of mass of the bodies (of
        ``model_instances``, if given)."""
        bodies, parameters, mass, total = self._com_data(
            context, model_instances, "CalcCenterOfMassPositionInWorld"
        )
        X = self._position_kinematics(context).work.X_pc[3, self._topology.mobod_of_body[bodies]]
        p_WBcm = X[:, 3] + np.einsum("kij,kj->ki", X[:, :3], parameters.com[bodies])
        return mass @ p_WBcm / total

    def CalcCenterOfMassTranslationalVelocityInWorld(self, context, model_instances=None):
        """v_WScm_W, the velocity in World of the center of mass of the bodies (of
        ``model_instances``, if given)."""
        bodies, parameters, mass, total = self._com_data(
            context, model_instances, "CalcCenterOfMassTranslationalVelocityInWorld"
        )
        cache = self._velocity_kinematics(context)
        k = self._topology.mobod_of_body[bodies]
        v_WBcm = self._com_velocities(cache, k, parameters.com[bodies])
        return mass @ v_WBcm / total

    def _com_velocities(self, cache, mobods, p_BoBcm_B):
        """v_WBcm_W of the bodies of ``mobods`` (n × 3)."""
        R_WB = cache.work.X_pc[3, mobods, :3]
        p_BoBcm_W = np.einsum("kij,kj->ki", R_WB, p_BoBcm_B)
        V = cache.work.V_WB[mobods]
        return V[:, 3:] + np.cross(V[:, :3], p_BoBcm_W)

    def _body_com_velocity_in_world(self, context, body):
        k = self._check_body(context, body, "CalcCenterOfMassTranslationalVelocityInWorld")
        cache = self._velocity_kinematics(context)
        com = self._parameters(context).com[int(body.index())]
        return self._com_velocities(cache, [k], com[None, :])[0]

    @overloads("context, p_WoP_W", "context, model_instances, p_WoP_W")
    def CalcSpatialMomentumInWorldAboutPoint(self, context, *args, **kwargs):
        """L_WSP_W: the spatial momentum in World, about point P (p_WoP_W), expressed in
        World, of the bodies (of ``model_instances``, if given)."""
        args = list(args)
        model_instances = kwargs.pop("model_instances", None)
        if len(args) == 2:
            model_instances = args.pop(0)
        p_WoP_W = as_array(args[0] if args else kwargs.pop("p_WoP_W"), (3,), "p_WoP_W")
        self.ValidateContext(context)
        self._throw_if_not_finalized("CalcSpatialMomentumInWorldAboutPoint")
        bodies = self._instance_bodies(model_instances, "CalcSpatialMomentumInWorldAboutPoint")
        parameters = self._parameters(context)
        cache = self._velocity_kinematics(context)
        L = np.zeros(6, dtype=np.result_type(cache.work.V_WB, parameters.mass))
        for b in bodies:
            k = self._topology.mobod_of_body[b]
            R_WB = cache.work.X_pc[3, k, :3]
            p_WBo = cache.work.X_pc[3, k, 3]
            m = parameters.mass[b]
            p_BoBcm_W = R_WB @ parameters.com[b]
            G_BBo_W = R_WB @ parameters.G[b] @ R_WB.T
            w, v = cache.work.V_WB[k, :3], cache.work.V_WB[k, 3:]
            # L_WBBo_W = M_BBo_W·V_WB_W, then shifted from Bo to P.
            h = m * (G_BBo_W @ w + np.cross(p_BoBcm_W, v))
            ell = m * (v - np.cross(p_BoBcm_W, w))
            p_PBo = p_WBo - p_WoP_W
            L[:3] += h + np.cross(p_PBo, ell)
            L[3:] += ell
        return SpatialMomentum._make(L)
