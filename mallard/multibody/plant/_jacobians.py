"""MultibodyPlant Jacobians and bias accelerations of points, frames and the center of mass.

Jacobians with respect to v (``kV``, nv columns) come from the across-mobilizer Jacobians
(kernel ``calc_point_jacobian``); those with respect to q̇ (``kQDot``, nq columns) are
J_q̇ = J_v·N⁺(q). A quantity measured in a frame A other than World is the World one of the
moving point minus that of the point of A it coincides with.
"""

import numpy as np

from mallard._scalar import as_array
from mallard.common._pybind import overloads
from mallard.multibody._layout import POSITIONS
from mallard.multibody.math import SpatialAcceleration
from mallard.multibody.tree._indices import JacobianWrtVariable

_F64 = np.dtype(np.float64)
_KV = JacobianWrtVariable.kV


def _float3(p):
    """``p`` as a contiguous float64 3-vector if it plainly is one (such an array or a list
    of 3 floats), else None (the general path then converts and checks it)."""
    if type(p) is np.ndarray:
        return p if p.dtype is _F64 and p.shape == (3,) and p.strides == (8,) else None
    if type(p) in (list, tuple) and len(p) == 3 and all(type(x) in (float, int) for x in p):
        return np.array(p, dtype=float)
    return None


def _cross_rows(w, P):
    """w × each column of P (3×n)."""
    return np.cross(w, P.T).T


class JacobiansMixin:
    """Jacobian and bias-acceleration methods of MultibodyPlant."""

    def _wrt(self, with_respect_to, method):
        if not isinstance(with_respect_to, JacobianWrtVariable):
            raise TypeError(
                f"{method}(): with_respect_to must be a JacobianWrtVariable, got "
                f"{with_respect_to!r}"
            )
        return with_respect_to == JacobianWrtVariable.kQDot

    def _point_jacobians_W(self, context, frame, p_WQ):
        """J_V_WQ_W (6×nv) for each column of p_WQ (3×p), points fixed on ``frame``'s body:
        an array p×6×nv."""
        ec = self._position_kinematics(context)
        k = self._topology.mobod_of_body[int(frame.body().index())]
        dtype = np.result_type(ec.ws, p_WQ)
        J = np.empty((p_WQ.shape[1], 6, self._nv), dtype=dtype)
        model = self._engine
        model.kernels(dtype).drive_point_jacobians(
            model.mi, model.mf, ec.ws, k, np.ascontiguousarray(p_WQ.T, dtype=dtype), J
        )
        return J

    def _relative_jacobians(
        self, context, with_respect_to, frame_B, p_BoBi_B, frame_A, frame_E, method
    ):
        """J_V_ABi_E for points Bi of frame B (p×6×n, n = nq or nv)."""
        to_qdot = self._wrt(with_respect_to, method)
        self._throw_if_not_finalized_as_pydrake(to_qdot)
        self.ValidateContext(context)
        for frame, name in ((frame_B, "frame_B"), (frame_A, "frame_A"), (frame_E, "frame_E")):
            self._check_frame(frame, name)
        R_WB, p_WB = self._X_WF(context, frame_B)
        p_WQ = R_WB @ p_BoBi_B + p_WB[:, None]
        J = self._point_jacobians_W(context, frame_B, p_WQ)
        if frame_A.body() is not self._bodies[0]:
            J = J - self._point_jacobians_W(context, frame_A, p_WQ)
        R_EW = self._X_WF(context, frame_E)[0].T
        J = np.concatenate((R_EW @ J[:, :3], R_EW @ J[:, 3:]), axis=1)
        if to_qdot:
            J = J @ self.MakeQDotToVelocityMap(context)
        return J

    def _throw_if_not_finalized_as_pydrake(self, to_qdot):
        """Pre-finalize, a Jacobian method raises as pydrake's does: about the first count it
        needs, nq (kQDot) or nv (kV)."""
        self._throw_if_not_finalized("num_positions" if to_qdot else "num_velocities")

    def _point_arg(self, p, method, name):
        """One point (a 3-vector) as a 3×1 array; TypeError (as pydrake's) otherwise."""
        a = as_array(p, name=name)
        if a.shape not in ((3,), (3, 1)):
            raise TypeError(f"{method}(): {name} must be a 3-vector, got shape {np.shape(p)}")
        return a.reshape(3, 1)

    def _points_arg(self, p, method, name):
        a = as_array(p, name=name)
        if a.ndim == 1:
            a = a.reshape(-1, 1)
        if a.ndim != 2 or a.shape[0] != 3:
            raise TypeError(f"{method}(): {name} must be a 3×n array, got shape {np.shape(p)}")
        return a

    def CalcJacobianSpatialVelocity(
        self, context, with_respect_to, frame_B, p_BoBp_B, frame_A, frame_E
    ):
        """J_V_ABp_E (6×n): Bp's spatial velocity in frame A, expressed in frame E, per unit
        q̇ (``kQDot``) or v (``kV``). Rows 0–2 angular, 3–5 translational."""
        world = self._frames[0]  # (World's frame: the one frame of index 0)
        try:  # the common case: kV, in World, of this plant's frames
            fast = (
                with_respect_to is _KV
                and context._system is self
                and frame_B._plant is self
                and (frame_A is world or frame_A._plant is self and frame_A._body is world._body)
                and (frame_E is world or frame_E._plant is self)
            )
        except AttributeError:  # not a Context or not frames: the general path reports it
            fast = False
        p = _float3(p_BoBp_B) if fast else None
        if p is not None:
            J = self._jacobian_in_world(context, frame_B, p)
            if frame_E is world:
                return J.copy()
            R_EW = self._X_WF(context, frame_E)[0].T
            return np.concatenate((R_EW @ J[:3], R_EW @ J[3:]))
        p = self._point_arg(p_BoBp_B, "CalcJacobianSpatialVelocity", "p_BoBp_B")
        return self._relative_jacobians(
            context, with_respect_to, frame_B, p, frame_A, frame_E, "CalcJacobianSpatialVelocity"
        )[0]

    def _jacobian_in_world(self, context, frame_B, p_BoBp_B):
        """J_V_WBp_W (6×nv, a view of the workspace) of the point Bp of frame B (p_BoBp_B in
        frame B): one compiled call."""
        engine = self._engine
        ec = engine.cache(context)
        x = self._x_of(context._state)
        need = 0
        if ec.positions_serial != context._serial_q:
            need = POSITIONS
            if engine.quaternions:
                engine.check_quaternions(x)
        args = (
            need, frame_B._body._mobod, ec.X_BF_rows[frame_B._index._value], p_BoBp_B,
            ec.kernels.address("stages_at"),
        )  # fmt: skip
        engine.bind(ec, "drive_point_jacobian", x, args)(*args)
        if need:
            engine.mark(ec, context, need)
        return ec.work.J

    def CalcJacobianAngularVelocity(self, context, with_respect_to, frame_B, frame_A, frame_E):
        """J_w_AB_E (3×n): frame B's angular velocity in frame A, expressed in frame E."""
        return self._relative_jacobians(
            context,
            with_respect_to,
            frame_B,
            np.zeros((3, 1)),
            frame_A,
            frame_E,
            "CalcJacobianAngularVelocity",
        )[0, :3]

    def CalcJacobianTranslationalVelocity(
        self, context, with_respect_to, frame_B, p_BoBi_B, frame_A, frame_E
    ):
        """J_v_ABi_E (3p×n): the velocities in frame A of the p points Bi of frame B (columns
        of p_BoBi_B), expressed in frame E, stacked."""
        p = self._points_arg(p_BoBi_B, "CalcJacobianTranslationalVelocity", "p_BoBi_B")
        J = self._relative_jacobians(
            context,
            with_respect_to,
            frame_B,
            p,
            frame_A,
            frame_E,
            "CalcJacobianTranslationalVelocity",
        )
        return J[:, 3:].reshape(3 * p.shape[1], -1)

    def CalcJacobianPositionVector(self, context, frame_B, p_BoBi_B, frame_A, frame_E):
        """Jq_p_AoBi_E (3p×nq): the partial derivatives of the positions from Ao of the points
        Bi with respect to q."""
        p = self._points_arg(p_BoBi_B, "CalcJacobianPositionVector", "p_BoBi_B")
        J = self._relative_jacobians(
            context,
            JacobianWrtVariable.kQDot,
            frame_B,
            p,
            frame_A,
            frame_E,
            "CalcJacobianPositionVector",
        )
        return J[:, 3:].reshape(3 * p.shape[1], -1)

    @overloads(
        "context, with_respect_to, frame_A, frame_E",
        "context, model_instances, with_respect_to, frame_A, frame_E",
    )
    def CalcJacobianCenterOfMassTranslationalVelocity(self, context, *args, **kwargs):
        """Js_v_AScm_E (3×n) of the center of mass of the bodies (of ``model_instances``, if
        given): ``(context, [model_instances,] with_respect_to, frame_A, frame_E)``."""
        method = "CalcJacobianCenterOfMassTranslationalVelocity"
        model_instances, with_respect_to, frame_A, frame_E = _com_args(args, kwargs)
        to_qdot = self._wrt(with_respect_to, method)
        self._throw_if_not_finalized_as_pydrake(to_qdot)
        bodies, parameters, mass, total = self._com_data(context, model_instances, method)
        J = np.zeros((3, self._nv), dtype=np.result_type(mass, self._q(context)))
        for b, m in zip(bodies, mass, strict=True):
            frame = self._bodies[b].body_frame()
            J += (
                m
                * self._relative_jacobians(
                    context,
                    JacobianWrtVariable.kV,
                    frame,
                    parameters.com[b].reshape(3, 1),
                    frame_A,
                    frame_E,
                    method,
                )[0, 3:]
            )
        J /= total
        return J @ self.MakeQDotToVelocityMap(context) if to_qdot else J

    # ---- bias accelerations ----------------------------------------------------------
    def _bias_accelerations(self, context):
        """A_WB of every mobod with v̇ = 0 (n×6; cached with the acceleration bias)."""
        ec = self._acceleration_bias(context)
        A = ec.lookup("bias_accelerations", ec.bias_serials)
        if A is None:
            A = np.empty_like(ec.work.A_bias)
            engine = self._engine
            ec.kernels.drive_spatial_accelerations(engine.mi, engine.mf, ec.ws, ec.zero_tau, A)
            ec.store("bias_accelerations", ec.bias_serials, A)
        return A

    def _bias_point_accelerations(self, context, frame_B, p_BoBi_B, frame_A, frame_E):
        """(α_bias, a_bias (3×p)): the bias angular acceleration of frame B and bias
        translational accelerations of its points Bi, measured in A, expressed in E."""
        A0 = self._bias_accelerations(context)
        cache = self._velocity_kinematics(context)
        R_WB, p_WB = self._X_WF(context, frame_B)
        p_WQ = R_WB @ p_BoBi_B + p_WB[:, None]

        def of_point(frame):
            k = self._topology.mobod_of_body[int(frame.body().index())]
            p_WBo = cache.work.X_pc[3, k, 3]
            w, v = cache.work.V_WB[k, :3], cache.work.V_WB[k, 3:]
            alpha, a = A0[k, :3], A0[k, 3:]
            r = p_WQ - p_WBo[:, None]
            v_Q = v[:, None] + _cross_rows(w, r)
            a_Q = a[:, None] + _cross_rows(alpha, r) + _cross_rows(w, _cross_rows(w, r))
            return w, alpha, v_Q, a_Q

        w_WB, alpha_WB, v_WQ, a_WQ = of_point(frame_B)
        if frame_A.body() is not self._bodies[0]:
            w_WA, alpha_WA, v_WAq, a_WAq = of_point(frame_A)
            w_AB = w_WB - w_WA
            alpha_WB = alpha_WB - alpha_WA - np.cross(w_WA, w_AB)
            v_AQ = v_WQ - v_WAq
            a_WQ = a_WQ - a_WAq - 2.0 * _cross_rows(w_WA, v_AQ)
        R_EW = self._X_WF(context, frame_E)[0].T
        return R_EW @ alpha_WB, R_EW @ a_WQ

    def _check_bias_args(self, context, with_respect_to, frames, method):
        if self._wrt(with_respect_to, method):
            raise RuntimeError(
                f"{method}(): bias accelerations are defined with respect to v only "
                "(with_respect_to must be JacobianWrtVariable.kV)"
            )
        self.ValidateContext(context)
        self._throw_if_not_finalized(method)
        for frame, name in frames:
            self._check_frame(frame, name)

    def CalcBiasSpatialAcceleration(
        self, context, with_respect_to, frame_B, p_BoBp_B, frame_A, frame_E
    ):
        """AsBias_ABp_E = J̇_V_ABp·v: the spatial acceleration of point Bp of frame B measured
        in frame A, expressed in frame E, when v̇ = 0 (``kV`` only)."""
        method = "CalcBiasSpatialAcceleration"
        self._check_bias_args(
            context,
            with_respect_to,
            ((frame_B, "frame_B"), (frame_A, "frame_A"), (frame_E, "frame_E")),
            method,
        )
        p = self._point_arg(p_BoBp_B, method, "p_BoBp_B")
        alpha, a = self._bias_point_accelerations(context, frame_B, p, frame_A, frame_E)
        return SpatialAcceleration._make(np.concatenate((alpha, a[:, 0])))

    def CalcBiasTranslationalAcceleration(
        self, context, with_respect_to, frame_B, p_BoBi_B, frame_A, frame_E
    ):
        """asBias_ABi_E (3×p): the bias translational accelerations of the points Bi of frame
        B measured in frame A, expressed in frame E (``kV`` only)."""
        method = "CalcBiasTranslationalAcceleration"
        self._check_bias_args(
            context,
            with_respect_to,
            ((frame_B, "frame_B"), (frame_A, "frame_A"), (frame_E, "frame_E")),
            method,
        )
        p = self._points_arg(p_BoBi_B, method, "p_BoBi_B")
        return self._bias_point_accelerations(context, frame_B, p, frame_A, frame_E)[1]

    @overloads(
        "context, with_respect_to, frame_A, frame_E",
        "context, model_instances, with_respect_to, frame_A, frame_E",
    )
    def CalcBiasCenterOfMassTranslationalAcceleration(self, context, *args, **kwargs):
        """asBias_AScm_E: the bias acceleration of the center of mass of the bodies (of
        ``model_instances``, if given) measured in frame A, expressed in frame E."""
        method = "CalcBiasCenterOfMassTranslationalAcceleration"
        model_instances, with_respect_to, frame_A, frame_E = _com_args(args, kwargs)
        bodies, parameters, mass, total = self._com_data(context, model_instances, method)
        self._check_bias_args(
            context, with_respect_to, ((frame_A, "frame_A"), (frame_E, "frame_E")), method
        )
        a = 0.0
        for b, m in zip(bodies, mass, strict=True):
            frame = self._bodies[b].body_frame()
            p = parameters.com[b].reshape(3, 1)
            a = a + m * self._bias_point_accelerations(context, frame, p, frame_A, frame_E)[1][:, 0]
        return a / total


def _com_args(args, kwargs):
    """(model_instances or None, with_respect_to, frame_A, frame_E)."""
    args = list(args)
    model_instances = kwargs.pop("model_instances", None)
    if args and isinstance(args[0], (list, tuple)):
        model_instances = args.pop(0)
    names = ["with_respect_to", "frame_A", "frame_E"]
    values = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names or key in values:
            raise TypeError(f"unexpected argument {key!r}")
        values[key] = value
    if len(values) != 3 or len(args) > 3:
        raise TypeError("expected ([model_instances,] with_respect_to, frame_A, frame_E)")
    return model_instances, values["with_respect_to"], values["frame_A"], values["frame_E"]
