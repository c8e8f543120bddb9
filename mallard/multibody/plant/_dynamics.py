"""MultibodyPlant dynamics: inverse dynamics, mass matrix, bias and gravity terms, applied
and force-element forces, forward dynamics (time derivatives), accelerations and energy.

Cache entries (per Context, with the serial numbers of what they depend on): the bodies'
spatial inertias in World (q, p), the acceleration bias (q, v, p) and the forward dynamics
(everything: t, q, v, p, inputs).

Forward dynamics is the articulated body algorithm (O(n)). For a discrete plant it gives the
accelerations of its discrete step, (v_next − v)/δt (see _discrete); its sampled output ports
report the last step's (see _ports).
"""

import numpy as np

from mallard._scalar import as_array
from mallard.common._bindings import scalar_out
from mallard.multibody._layout import BIAS, BODY, INERTIAS, POSITIONS, VELOCITIES
from mallard.multibody.math import SpatialAcceleration
from mallard.multibody.plant._ports import _has_nan
from mallard.multibody.tree._multibody_forces import MultibodyForces
from mallard.multibody.tree._spatial_inertia import SpatialInertia

_F64 = np.dtype(np.float64)
_CONTIGUOUS = (8,)  # the strides of a contiguous float64 vector

#: What Drake's error says was evaluated when the geometry input is missing.
_DERIVATIVES = "You've tried evaluating time derivatives or their residuals."


def _forward_dynamics_key(context):
    """What forward dynamics depends on: the Context's time, state and inputs (the
    parameters: through the parameter stage, see Engine.cache)."""
    return (context._serial_t, context._serial_q, context._serial_v, context._serial_u)


#: What _pd_controllers returns when no PD-controlled actuator has a desired state.
_NO_PD_CONTROLLERS = (np.zeros(0, dtype=np.int64),) * 3 + (np.zeros(0),) * 4


class DynamicsMixin:
    """Dynamics methods of MultibodyPlant."""

    # ---- cache entries -------------------------------------------------------------------
    def _body_inertias(self, context):
        """The EngineCache with the bodies' (m, h, I) about Bo in W up to date (m_W, h_W,
        I_W; see kernels.dynamics)."""
        return self._engine.ensure(context, POSITIONS | INERTIAS)

    def _acceleration_bias(self, context):
        """The EngineCache with the acceleration bias A_bias per mobod up to date (and the
        kinematics it was computed from: X_pc, H_PB_W, V_WB)."""
        return self._engine.ensure(context, POSITIONS | VELOCITIES | BIAS)

    def _reflected_inertias(self, context):
        """ρ²·Iᵣ of the actuators, per generalized velocity (nv)."""
        return self._engine.cache(context).params.reflected.copy()

    def _mobod_forces(self, F_BBo_W):
        """Body spatial forces (indexed by BodyIndex) reordered per mobod."""
        return F_BBo_W[self._topology.tree[:, BODY]]

    # ---- inverse dynamics, mass matrix, bias term ------------------------------------------
    def _check_forces(self, forces, method):
        if not isinstance(forces, MultibodyForces):
            raise TypeError(f"{method}(): expected MultibodyForces, got {forces!r}")
        forces._check_plant(self, method)

    def _inverse_dynamics(self, context, vdot, F_app, tau_app, velocities=True):
        """(tau, A_WB, F): recursive Newton–Euler (see kernels.dynamics), with the actuators'
        reflected inertias. ``velocities=False`` computes as if v were zero."""
        if velocities:
            ec = self._acceleration_bias(context)
        ec = self._body_inertias(context)
        work = ec.work
        dtype = np.result_type(ec.ws, vdot, F_app, tau_app)
        n = len(self._topology.tree)
        A_WB = np.empty((n, 6), dtype=dtype)
        F = np.empty((n, 6), dtype=dtype)
        tau = np.empty(self._nv, dtype=dtype)
        V_WB, A_bias = (work.V_WB, work.A_bias) if velocities else (ec.zero_F, ec.zero_F)
        model = self._engine
        model.kernels(dtype).drive_newton_euler(
            model.mi, model.mf, ec.ws, V_WB, A_bias, vdot, F_app, tau_app, A_WB, F, tau
        )
        return tau, A_WB, F

    def _vdot_arg(self, vdot, method, name="known_vdot"):
        vdot = as_array(vdot, name=name).reshape(-1)
        if vdot.shape[0] != self._nv:
            raise RuntimeError(
                f"{method}(): {name} must have size nv = {self._nv}, got {vdot.shape[0]}"
            )
        return vdot

    def CalcInverseDynamics(self, context, known_vdot, external_forces):
        """tau = M(q)·v̇ + C(q, v)·v − tau_app − Σ_B J_Bᵀ·F_app_Bo_W, with tau_app and
        F_app from ``external_forces`` (force elements and gravity are not included: add them
        with CalcForceElementsContribution)."""
        if context._system is not self:
            self.ValidateContext(context)
        if not self._is_finalized:
            self._throw_if_not_finalized("CalcInverseDynamics")
        vdot = known_vdot
        if not (type(vdot) is np.ndarray and vdot.dtype is _F64 and vdot.shape == (self._nv,)):
            vdot = self._vdot_arg(known_vdot, "CalcInverseDynamics")
        if not self._forces_fit(external_forces):
            self._check_forces(external_forces, "CalcInverseDynamics")
        model = self._engine
        ec = model.cache(context)
        need = model.need(ec, context, POSITIONS | VELOCITIES | INERTIAS | BIAS)
        if vdot.dtype != ec.ws.dtype:  # (AutoDiffXd or symbolic v̇ of a double Context)
            model.ensure(context, POSITIONS | VELOCITIES | INERTIAS | BIAS)
            tau_app = external_forces._tau
            F_app = self._mobod_forces(external_forces._F_BBo_W)
            return self._inverse_dynamics(context, vdot, F_app, tau_app)[0]
        x, tau_app, F_app = (
            self._x_of(context._state),
            external_forces._tau,
            external_forces._F_BBo_W,
        )
        args = (need, vdot, tau_app, F_app, ec.kernels.address("stages_at"))
        if (
            vdot.dtype is _F64
            and vdot.strides == _CONTIGUOUS
            and self._forces_float(tau_app, F_app)
        ):
            model.bind(ec, "drive_inverse_dynamics", x, args)(*args)  # (no numba dispatch)
        else:
            ec.kernels.drive_inverse_dynamics(model.mi, model.mf, x, ec.ws, *args)
        model.mark(ec, context, need)
        return ec.work.tau.copy()

    def _forces_fit(self, forces):
        """Whether ``forces`` plainly is a MultibodyForces of this plant's sizes (else
        _check_forces reports it or accepts a subclass)."""
        return type(forces) is MultibodyForces and (
            forces._tau.shape[0] == self._nv and forces._F_BBo_W.shape[0] == len(self._bodies)
        )

    @staticmethod
    def _forces_float(tau, F):
        """Whether a MultibodyForces' arrays ``tau`` and ``F`` (which it makes contiguous) are
        float64: a bound driver (Engine.bind, called without numba's dispatch on argument
        types) may then take them."""
        return tau.dtype is _F64 and F.dtype is _F64

    def CalcMassMatrix(self, context):
        """M(q) (nv × nv), by the composite body algorithm, with the actuators' reflected
        rotor inertias on the diagonal."""
        if not self._is_finalized:
            self._throw_if_not_finalized("num_velocities")  # (as pydrake reports it)
        if context._system is not self:
            self.ValidateContext(context)
        ec = self._engine.cache(context)
        need = self._engine.need(ec, context, POSITIONS | INERTIAS)
        model = self._engine
        ec.kernels.drive_mass_matrix(
            model.mi, model.mf, self._x_of(context._state), ec.ws, need,
            ec.kernels.address("stages_at"),
        )  # fmt: skip
        self._engine.mark(ec, context, need)
        return ec.work.M.copy()

    def CalcMassMatrixViaInverseDynamics(self, context):
        """M(q), column i = inverse dynamics with v = 0, v̇ = eᵢ and no applied forces."""
        self._throw_if_not_finalized("num_velocities")  # (as pydrake reports it)
        self.ValidateContext(context)
        n, nv = len(self._topology.tree), self._nv
        F0, tau0 = np.zeros((n, 6)), np.zeros(nv)
        columns = [
            self._inverse_dynamics(context, e, F0, tau0, velocities=False)[0] for e in np.eye(nv)
        ]
        return np.array(columns).T.reshape(nv, nv)

    def CalcBiasTerm(self, context):
        """C(q, v)·v (size nv): inverse dynamics with v̇ = 0 and no applied forces."""
        self._throw_if_not_finalized("num_velocities")  # (as pydrake reports it)
        self.ValidateContext(context)
        n, nv = len(self._topology.tree), self._nv
        return self._inverse_dynamics(context, np.zeros(nv), np.zeros((n, 6)), np.zeros(nv))[0]

    def CalcSpatialAccelerationsFromVdot(self, context, known_vdot):
        """A_WB_W of every body (a list indexed by BodyIndex) for the generalized
        accelerations ``known_vdot``."""
        self.ValidateContext(context)
        self._throw_if_not_finalized("CalcSpatialAccelerationsFromVdot")
        vdot = self._vdot_arg(known_vdot, "CalcSpatialAccelerationsFromVdot")
        ec = self._acceleration_bias(context)
        A = np.empty_like(ec.work.A_bias, dtype=np.result_type(ec.ws, vdot))
        model = self._engine
        model.kernels(A.dtype).drive_spatial_accelerations(model.mi, model.mf, ec.ws, vdot, A)
        return [SpatialAcceleration._make(A[k].copy()) for k in self._topology.mobod_of_body]

    # ---- applied forces ----------------------------------------------------------------------
    def _gravity_mobods(self):
        """The mobods (World excluded) whose bodies feel gravity."""
        static = self._topology
        if static.gravity_mobods is None:  # gravity is enabled or disabled before Finalize()
            enabled = self._gravity_field._enabled_mask(len(self._instance_names))
            mobods = np.flatnonzero(enabled[static.mobod_instance])
            static.gravity_mobods = mobods[mobods > 0]
        return static.gravity_mobods

    def _gravity_body_forces(self, context):
        """Gravity on every body (indexed by BodyIndex): [p_BoBcm_W × m·g; m·g] = [h × g;
        m·g] at Bo, in W, for the bodies of the model instances where it is enabled."""
        ec = self._body_inertias(context)
        F = np.empty((len(self._bodies), 6), dtype=ec.ws.dtype)
        model = self._engine
        ec.kernels.drive_gravity_body_forces(model.mi, model.mf, ec.ws, F)
        return F

    def CalcGravityGeneralizedForces(self, context):
        """tau_g(q) (size nv), on the right-hand side of M·v̇ + C·v = tau_g + tau_app."""
        self.ValidateContext(context)
        self._throw_if_not_finalized("CalcGravityGeneralizedForces")
        return self._generalized_forces_of(context, self._gravity_body_forces(context))

    def _generalized_forces_of(self, context, F_BBo_W):
        """Σ_B J_Bᵀ·F_BBo_W for body forces indexed by BodyIndex."""
        ec = self._position_kinematics(context)
        F = self._mobod_forces(F_BBo_W)
        dtype = np.result_type(F, ec.ws)
        tau = np.zeros(self._nv, dtype=dtype)
        model = self._engine
        model.kernels(dtype).drive_generalized_forces(
            model.mi, model.mf, ec.ws, F, np.empty_like(F, dtype=dtype), tau
        )
        return tau

    def CalcGeneralizedForces(self, context, forces):
        """The generalized forces equivalent to ``forces``: its generalized forces plus
        Σ_B J_Bᵀ·F_BBo_W of its body forces."""
        self._throw_if_not_finalized("num_velocities")  # (as pydrake reports it)
        self.ValidateContext(context)
        self._check_forces(forces, "CalcGeneralizedForces")
        return forces._tau + self._generalized_forces_of(context, forces._F_BBo_W)

    def CalcForceElementsContribution(self, context, forces):
        """Sets ``forces`` to the forces of all force elements (gravity included) and joint
        damping, in ``context``."""
        try:
            valid = context._system is self
        except AttributeError:  # (not a Context: ValidateContext reports it)
            valid = False
        if not valid:
            self.ValidateContext(context)
        if not self._is_finalized:
            self._throw_if_not_finalized("CalcForceElementsContribution")
        if not self._forces_fit(forces):
            self._check_forces(forces, "CalcForceElementsContribution")
        model = self._engine
        ec = model.cache(context)
        need = model.need(ec, context, POSITIONS | INERTIAS)
        x, F_app, tau_app = self._x_of(context._state), forces._F_BBo_W, forces._tau
        args = (need, F_app, tau_app, ec.kernels.address("stages_at"))
        if ec.ws.dtype is _F64 and self._forces_float(tau_app, F_app):
            model.bind(ec, "drive_force_elements", x, args)(*args)  # (no numba dispatch)
        else:
            ec.kernels.drive_force_elements(model.mi, model.mf, x, ec.ws, *args)
        model.mark(ec, context, need)
        if len(self._force_elements) > 1:
            for element in self._force_elements[1:]:
                element.CalcAndAddForceContribution(context, forces)

    # ---- forward dynamics ------------------------------------------------------------------
    def _pd_tables(self):
        """Per model instance with PD-controlled actuators: (its index, number of actuators,
        the instance-local index, input slot, q slot, v slot, joint, Kp and Kd of each
        controlled one), kept until the model changes."""
        version, tables = getattr(self, "_pd_tables_cache", (None, None))
        if version != self._engine.version:
            tables = []
            for mi in range(len(self._instance_names)):
                actuators = [a for a in self._actuators if int(a.model_instance()) == mi]
                local = [i for i, a in enumerate(actuators) if a.has_controller()]
                if not local:
                    continue
                chosen = [actuators[i] for i in local]
                columns = [
                    [a._input_start for a in chosen],
                    [a.joint()._q_start for a in chosen],
                    [a.joint()._v_start for a in chosen],
                    [int(a.joint().index()) for a in chosen],
                ]
                slots = [np.array(c, dtype=np.int64) for c in [local, *columns]]
                gains = [
                    np.array([a._gains.p for a in chosen]),
                    np.array([a._gains.d for a in chosen]),
                ]
                tables.append((mi, len(actuators), *slots, *gains))
            self._pd_tables_cache = (self._engine.version, tables)
        return tables

    def _pd_controllers(self, context):
        """The PD-controlled actuators of the model instances whose desired state input has
        a value, whose joints are not locked (Drake's DesiredStateInput), as arrays: input
        slots, q slots, v slots, Kp, Kd, q_d, v_d."""
        tables = self._pd_tables()
        if not tables:
            return _NO_PD_CONTROLLERS
        parts = []
        locked = None
        sources = self._instance_inputs(context, 1)  # (the desired states')
        for mi, n, local, inputs, iq, iv, joints, kp, kd in tables:
            desired = None if sources[mi] is None else sources[mi]._eval()
            if desired is None or desired.size() == 0:
                continue
            x_d = desired._data
            if locked is None:
                locked = self._parameters(context).locked
            q_d, v_d = x_d[local], x_d[n + local]
            part = (inputs, iq, iv, kp, kd, q_d, v_d)
            unlocked = ~locked[joints]
            if not unlocked.all():
                part = tuple(a[unlocked] for a in part)
            if _has_nan(part[5]) or _has_nan(part[6]):
                raise RuntimeError(
                    f"Desired state input port for model instance {self._instance_names[mi]} "
                    "contains NaN."
                )
            parts.append(part)
        if not parts:
            return _NO_PD_CONTROLLERS
        if len(parts) == 1:
            return parts[0]
        return tuple(np.concatenate(column) for column in zip(*parts, strict=True))

    def _effort_limits(self):
        """The effort limit of every actuation input (∞ where there is none); kept until the
        model changes (JointActuator.set_effort_limit)."""
        version, limits = getattr(self, "_effort_limits_cache", (None, None))
        if version != self._engine.version:
            limits = np.array([a.effort_limit() for a in self._actuators], dtype=float)[
                np.argsort(self._topology.actuator_input)
            ]
            self._effort_limits_cache = (self._engine.version, limits)
        return limits

    def _limited_actuation(self, context):
        """The actuation input u clamped to the actuators' effort limits (no PD control)."""
        u, limits = self._actuation(context), self._effort_limits()
        return np.minimum(np.maximum(u, -limits), limits) if u.size else u

    def _actuation_with_pd(self, context):
        """The actuation applied: u plus, for the PD-controlled actuators of model instances
        whose desired state input has a value, −Kp·(q − q_d) − Kd·(v − v_d); all clamped to
        the actuators' effort limits (as Drake does, continuous plants included)."""
        u = self._actuation(context)
        s, iq, iv, kp, kd, q_d, v_d = self._pd_controllers(context)
        if s.size:
            q, v = self._q(context), self._v(context)
            u = u.astype(np.result_type(u, q, v), copy=False)
            u[s] += -kp * (q[iq] - q_d) - kd * (v[iv] - v_d)
        limits = self._effort_limits()
        return np.minimum(np.maximum(u, -limits), limits) if np.isfinite(limits).any() else u

    def _add_actuation(self, tau, u):
        """tau + B·u."""
        if not u.size:
            return tau
        tau = tau.astype(np.result_type(tau, u), copy=True)
        static = self._topology
        np.add.at(tau, static.actuator_v, u[static.actuator_input])
        return tau

    def _applied_forces(self, context, actuation=True, explanation=None):
        """(tau, F_BBo_W): everything applied in ``context``: force elements, gravity and
        joint damping, the applied generalized and spatial force inputs, contact (continuous
        plants; ``explanation`` for the error if the geometry input is missing) and (unless
        ``actuation`` is False) the actuation."""
        explanation = explanation or _DERIVATIVES
        forces = MultibodyForces(self)
        self.CalcForceElementsContribution(context, forces)
        tau, F = self._add_applied_inputs(context, forces._tau, forces._F_BBo_W)
        if self._time_step == 0 and self.num_collision_geometries() > 0:
            F = F + self._contact_body_forces(context, explanation)
        if actuation:
            tau = self._add_actuation(tau, self._actuation_with_pd(context))
        return tau, F

    def _add_applied_inputs(self, context, tau, F):
        """(tau, F) plus the applied generalized force and applied spatial force inputs."""
        generalized, spatial = self._applied_input_values(context)
        return self._add_applied_values(context, tau, F, generalized, spatial)

    def _applied_input_values(self, context):
        """(the applied generalized force array or None, the list of applied spatial forces
        or None) of ``context``'s inputs, checked for NaN."""
        generalized = self._applied_generalized_force_port._value_or_none(context)
        if generalized is not None:
            generalized = generalized._data
            if _has_nan(generalized):
                raise RuntimeError("Detected NaN in applied generalized force input port.")
        spatial = self._applied_spatial_force_port._value_or_none(context)
        return generalized, spatial

    def _add_applied_values(self, context, tau, F, generalized, spatial):
        """(tau, F) plus applied generalized forces and a list of applied spatial forces."""
        if generalized is not None:
            tau = tau + generalized
        for applied in spatial or ():
            body = self.get_body(applied.body_index)
            p_BoBq_B = as_array(applied.p_BoBq_B, (3,), "p_BoBq_B")
            F_Bq_W = applied.F_Bq_W._c
            if _has_nan(F_Bq_W) or _has_nan(p_BoBq_B):
                raise RuntimeError(f"Spatial force applied on body {body.name()} contains NaN.")
            R_WB = self.EvalBodyPoseInWorld(context, body)._R._R
            p_BoBq_W = R_WB @ p_BoBq_B
            b = int(applied.body_index)
            F = F.astype(np.result_type(F, F_Bq_W, R_WB), copy=True)
            F[b, :3] += F_Bq_W[:3] + np.cross(p_BoBq_W, F_Bq_W[3:])
            F[b, 3:] += F_Bq_W[3:]
        return tau, F

    def _has_pd_input(self, context):
        """Whether some PD-controlled actuator has a desired state in ``context``."""
        return any(source is not None for source in self._instance_inputs(context, 1))

    def _forward_dynamics(self, context):
        """The EngineCache with v̇ (``vdot``), A_WB per mobod (``A_WB``) and, for continuous
        plants, q̇ (``qdot``) of the forward dynamics (the articulated body algorithm) with
        every applied force, locked joints held, and reflected rotor inertias. For a discrete
        plant, as Drake's: those of its discrete step, v̇ = (v⁺ − v)/h (see _discrete)."""
        ec = self._engine.cache(context)
        key = _forward_dynamics_key(context)
        if ec.lookup("forward_dynamics", key) is not None:
            return ec
        if self._time_step == 0:
            self._throw_if_continuous_with_constraints()
            self._drive_forward_dynamics(context, ec, self._forward_dynamics_inputs(context, ec))
        else:
            self._step_accelerations(context, ec)
        ec.store("forward_dynamics", key, True)
        return ec

    def _drive_forward_dynamics(self, context, ec, inputs):
        """The compiled forward dynamics (kernels.engine.drive_forward_dynamics)
        into ec, with ``inputs`` (u, tau, F_BBo_W) (see _forward_dynamics_inputs)."""
        u, tau_in, F_in = inputs
        need = self._engine.need(ec, context, POSITIONS | VELOCITIES | INERTIAS | BIAS)
        model, kernels = self._engine, ec.kernels
        failed = kernels.drive_forward_dynamics(
            model.mi, model.mf, self._x_of(context._state), ec.ws, need, u, tau_in, F_in,
            kernels.address("forward_dynamics_at"),
        )  # fmt: skip
        self._engine.mark(ec, context, need)
        if failed >= 0:
            ec.forget("forward_dynamics")
            self._raise_not_positive_definite(failed)

    def _forward_dynamics_inputs(self, context, ec):
        """(u, tau, F_BBo_W) for drive_forward_dynamics: the actuation (unclamped; with PD
        control for a continuous plant, without the PD-controlled actuators' for a discrete
        SAP plant's free motion: see _discrete), and the generalized and body forces applied
        besides gravity and joint damping (the force elements and the applied force inputs).
        When they depend on the inputs only (no PD control, no other force element, no
        applied force), they are kept until the inputs change."""
        inputs = ec.lookup("forward_dynamics_inputs", context._serial_u)
        if inputs is not None:
            return inputs
        u = self._actuation(context)
        pd = self._time_step == 0 and self._has_pd_input(context)
        if pd:
            u = self._actuation_with_pd(context)
        elif self._time_step > 0:
            u = self._free_motion_actuation(u)
        generalized = self._applied_generalized_force_port._value_or_none(context)
        spatial = self._applied_spatial_force_port._value_or_none(context)
        contact = self._time_step == 0 and self.num_collision_geometries() > 0
        if len(self._force_elements) == 1 and generalized is None and not spatial:
            if not contact:
                if not pd:
                    inputs = (u, ec.zero_tau, ec.zero_F)
                    ec.store("forward_dynamics_inputs", context._serial_u, inputs)
                return u, ec.zero_tau, ec.zero_F
            return u, ec.zero_tau, self._contact_body_forces(context, _DERIVATIVES)
        forces = MultibodyForces(self)
        for element in self._force_elements[1:]:
            element.CalcAndAddForceContribution(context, forces)
        tau, F = self._add_applied_inputs(context, forces._tau, forces._F_BBo_W)
        if contact:
            F = F + self._contact_body_forces(context, _DERIVATIVES)
        dtype = ec.ws.dtype
        return u, tau.astype(dtype, copy=False), F.astype(dtype, copy=False)

    def _articulated_body_algorithm(self, context, tau, F_app, diagonal):
        """(v̇, A_WB per mobod) for generalized forces tau, body forces F_app (per mobod) and
        ``diagonal`` added to M's diagonal, locked joints held."""
        self._acceleration_bias(context)
        ec = self._body_inertias(context)
        dtype = np.result_type(tau, F_app, ec.ws, diagonal)
        ws = ec.ws if dtype == ec.ws.dtype else ec.ws.astype(dtype)  # (its scratch: of dtype)
        vdot = np.empty(self._nv, dtype=dtype)
        A_WB = np.empty((len(self._topology.tree), 6), dtype=dtype)
        model = self._engine
        failed = model.kernels(dtype).drive_articulated_body(
            model.mi,
            model.mf,
            ws,
            tau.astype(dtype, copy=False),
            F_app.astype(dtype, copy=False),
            diagonal.astype(dtype, copy=False),
            vdot,
            A_WB,
        )
        if failed >= 0:
            self._raise_not_positive_definite(failed)
        return vdot, A_WB

    def _raise_not_positive_definite(self, k):
        raise self._engine.articulated_inertia_error(k)

    def _qdot(self, context):
        """q̇ = N(q)·v of ``context`` (as MapVelocityToQDot, by one kernel call)."""
        q, v = self._q(context), self._v(context)
        pitch = self._topology.rpy_pitch
        if pitch.size and q.dtype == np.float64 and np.any(np.abs(np.cos(q[pitch])) < 1e-3):
            self._check_rpy_singularities(q, "MapVelocityToQDot")
        dtype = np.result_type(q, v)
        qdot = np.empty(self._nq, dtype=dtype)
        model = self._engine
        model.kernels(dtype).drive_qdot(model.mi, model.mf, q.astype(dtype, copy=False), v, qdot)
        return qdot

    def _time_derivatives(self, context):
        """The EngineCache with [q̇; v̇] in ``qdot`` and ``vdot`` (continuous plants)."""
        pitch = self._topology.rpy_pitch
        if pitch.size:
            q = self._q(context)
            if q.dtype == np.float64 and np.any(np.abs(np.cos(q[pitch])) < 1e-3):
                self._check_rpy_singularities(q, "MapVelocityToQDot")
        return self._forward_dynamics(context)

    def DoCalcTimeDerivatives(self, context, derivatives):
        """[q̇; v̇] = [N(q)·v; v̇ from forward dynamics] (continuous plants)."""
        if self._time_step > 0:
            return
        ec = self._time_derivatives(context)
        derivatives.SetFromVector(np.concatenate((ec.work.qdot, ec.work.vdot)))

    def EvalTimeDerivatives(self, context):
        """[q̇; v̇] as a ContinuousState cached in ``context`` (updated, not replaced, when
        the Context changes: keep a copy to compare)."""
        if context._system is not self:
            self.ValidateContext(context)
        ec = self._engine.cache(context)
        derivatives = ec.time_derivatives
        if derivatives is None:
            derivatives = ec.time_derivatives = self.AllocateTimeDerivatives()
        if self._time_step == 0:
            key = _forward_dynamics_key(context)
            if ec.lookup("time_derivatives", key) is None:
                self._time_derivatives(context)
                data = derivatives._vector._data
                data[: self._nq] = ec.work.qdot
                data[self._nq :] = ec.work.vdot
                ec.store("time_derivatives", key, True)
        return derivatives

    def implicit_time_derivatives_residual_size(self):
        """The size of CalcImplicitTimeDerivativesResidual's residual: nq + nv for a
        continuous plant, 0 for a discrete one."""
        return self.num_continuous_states()

    def AllocateImplicitTimeDerivativesResidual(self):
        """A vector sized for CalcImplicitTimeDerivativesResidual (its values unspecified)."""
        return np.zeros(self.implicit_time_derivatives_residual_size())

    def CalcImplicitTimeDerivativesResidual(self, context, proposed_derivatives, residual=None):
        """[q̇ₚ − N(q)·v; inverse dynamics(v̇ₚ) with every applied force] for proposed
        derivatives [q̇ₚ; v̇ₚ] (a ContinuousState); written into ``residual`` if given, else
        returned. Empty for a discrete plant."""
        method = "CalcImplicitTimeDerivativesResidual"
        self.ValidateContext(context)
        self._throw_if_not_finalized(method)
        size = self.implicit_time_derivatives_residual_size()
        if residual is not None and np.shape(residual) != (size,):
            raise RuntimeError(
                f"{method}(): expected residual vector of size {size} but got one of size "
                f"{np.size(residual)}.\nUse AllocateImplicitTimeDerivativesResidual() to "
                "obtain a vector of the correct size."
            )
        if not hasattr(proposed_derivatives, "CopyToVector"):
            raise TypeError(
                f"{method}(): proposed_derivatives must be a ContinuousState, got "
                f"{type(proposed_derivatives).__name__}"
            )
        if proposed_derivatives.size() != size:
            raise RuntimeError(
                f"drake::systems::ContinuousState<double> was not created for "
                f"{self.GetSystemType()} System {self.GetSystemPathname()}"
            )
        if size == 0:
            result = np.zeros(0)
        else:
            x_dot = proposed_derivatives.CopyToVector()
            qdot, vdot = x_dot[: self._nq], x_dot[self._nq :]
            tau, F_BBo_W = self._applied_forces(context)
            r_v = self._inverse_dynamics(context, vdot, self._mobod_forces(F_BBo_W), tau)[0]
            result = np.concatenate((qdot - self._qdot(context), r_v))
        if residual is None:
            return result
        residual[:] = result
        return None

    def EvalBodySpatialAccelerationInWorld(self, context, body):
        """A_WB_W of ``body`` from forward dynamics."""
        method = "EvalBodySpatialAccelerationInWorld"
        self._throw_if_not_finalized(method)
        k = self._check_body(context, body, method)
        return SpatialAcceleration._make(self._forward_dynamics(context).work.A_WB[k].copy())

    def _A_WF(self, context, frame):
        """A_WF_W of ``frame`` (from forward dynamics; its offset in its body from
        ``context``)."""
        self._check_frame(frame)
        k = self._topology.mobod_of_body[int(frame.body().index())]
        fd = self._forward_dynamics(context)
        kc = self._velocity_kinematics(context)
        R_WB = kc.work.X_pc[3, k, :3]
        p = R_WB @ self._frame_poses(context).X_BF[int(frame.index()), 3]
        w, alpha = kc.work.V_WB[k, :3], fd.work.A_WB[k, :3]
        A = fd.work.A_WB[k].copy()
        A[3:] += np.cross(alpha, p) + np.cross(w, np.cross(w, p))
        return A

    def CalcCenterOfMassTranslationalAccelerationInWorld(self, context, model_instances=None):
        """a_WScm_W of the bodies (of ``model_instances``, if given), from forward
        dynamics."""
        method = "CalcCenterOfMassTranslationalAccelerationInWorld"
        self._throw_if_not_finalized(method)
        bodies, parameters, mass, total = self._com_data(context, model_instances, method)
        k = self._topology.mobod_of_body[bodies]
        A = self._forward_dynamics(context).work.A_WB[k]
        kc = self._velocity_kinematics(context)
        p = (kc.work.X_pc[3, k, :3] @ parameters.com[bodies][:, :, None])[:, :, 0]
        w, alpha, a = kc.work.V_WB[k, :3], A[:, :3], A[:, 3:]
        a_WBcm = a + np.cross(alpha, p) + np.cross(w, np.cross(w, p))
        return mass @ a_WBcm / total

    # ---- energy ----------------------------------------------------------------------------
    def EvalKineticEnergy(self, context):
        """½·vᵀ·M(q)·v (reflected rotor inertias included)."""
        self.ValidateContext(context)
        self._throw_if_not_finalized("EvalKineticEnergy")
        inertias = self._body_inertias(context)
        V = self._velocity_kinematics(context).work.V_WB
        w, v = V[:, :3], V[:, 3:]
        h = inertias.work.h_W
        # M·V = [I·w + h × v; m·v − h × w].
        Iw = (inertias.work.I_W @ w[:, :, None])[:, :, 0]
        energy = 0.5 * (
            np.sum(w * (Iw + np.cross(h, v))) + np.sum(v * (inertias.work.m_W[:, None] * v))
        ) - 0.5 * np.sum(v * np.cross(h, w))
        v = self._v(context)
        return scalar_out(energy + 0.5 * np.sum(self._reflected_inertias(context) * v * v))

    def CalcKineticEnergy(self, context):
        return self.EvalKineticEnergy(context)

    def _gravity_energy_and_power(self, context):
        """(V_g, P_g): the potential energy of gravity (zero at World's origin) and its
        power."""
        inertias = self._body_inertias(context)
        g = self._gravity_field.gravity_vector()
        kc = self._velocity_kinematics(context)
        k = self._gravity_mobods()
        m, h = inertias.work.m_W[k, None], inertias.work.h_W[k]
        w, v = kc.work.V_WB[k, :3], kc.work.V_WB[k, 3:]
        # m·p_WBcm = m·p_WBo + h;  m·v_WBcm = m·v + w × h.
        energy = -np.sum((m * kc.work.X_pc[3, k, 3] + h) @ g)
        power = np.sum((m * v + np.cross(w, h)) @ g)
        return energy, power

    def EvalPotentialEnergy(self, context):
        """The potential energy of gravity (zero at World's origin height) and of the force
        elements."""
        self.ValidateContext(context)
        self._throw_if_not_finalized("EvalPotentialEnergy")
        energy = self._gravity_energy_and_power(context)[0]
        for element in self._force_elements[1:]:
            energy = energy + element.CalcPotentialEnergy(context)
        return scalar_out(energy)

    def CalcPotentialEnergy(self, context):
        return self.EvalPotentialEnergy(context)

    def CalcConservativePower(self, context):
        """The power of the conservative forces (gravity and the force elements' springs)."""
        self.ValidateContext(context)
        self._throw_if_not_finalized("CalcConservativePower")
        power = self._gravity_energy_and_power(context)[1]
        for element in self._force_elements[1:]:
            power = power + element.CalcConservativePower(context)
        return scalar_out(power)

    def CalcNonConservativePower(self, context):
        """The power of the force elements' non-conservative forces (joint damping and
        inputs are not included, as in Drake)."""
        self.ValidateContext(context)
        self._throw_if_not_finalized("CalcNonConservativePower")
        power = 0.0
        for element in self._force_elements[1:]:
            power = power + element.CalcNonConservativePower(context)
        return scalar_out(power)

    # ---- spatial inertia of a set of bodies ----------------------------------------------------
    def CalcSpatialInertia(self, context, frame_F, body_indexes):
        """M_SFo_F: the spatial inertia about Fo, expressed in frame F, of the bodies
        ``body_indexes`` (World contributes nothing)."""
        self.ValidateContext(context)
        self._throw_if_not_finalized("CalcSpatialInertia")
        if hasattr(frame_F, "GetParentPlant"):
            frame_F.GetParentPlant().ValidateContext(context)  # (pydrake's error)
        self._check_frame(frame_F, "frame_F")
        seen = set()
        for index in body_indexes:
            if not 0 <= int(index) < len(self._bodies):
                raise RuntimeError("CalcSpatialInertia(): contains an invalid BodyIndex.")
            if int(index) in seen:
                raise RuntimeError("CalcSpatialInertia(): contains a repeated BodyIndex.")
            seen.add(int(index))
        inertias = self._body_inertias(context)
        kc = self._position_kinematics(context)
        R_WF, p_WF = self._X_WF(context, frame_F)
        m = 0.0
        h = np.zeros(3)
        I = np.zeros((3, 3))
        for b in sorted(seen - {0}):
            k = self._topology.mobod_of_body[b]
            mk, hk, Ik = inertias.work.m_W[k], inertias.work.h_W[k], inertias.work.I_W[k]
            d = p_WF - kc.work.X_pc[3, k, 3]  # shift from Bo to Fo
            I = (
                I
                + Ik
                - mk * np.outer(d, d)
                + np.outer(hk, d)
                + np.outer(d, hk)
                + (mk * (d @ d) - 2.0 * (hk @ d)) * np.eye(3)
            )
            h = h + hk - mk * d
            m = m + mk
        if not m > 0:
            return SpatialInertia.Zero()
        R_FW = R_WF.T
        return SpatialInertia._make(m, R_FW @ h / m, R_FW @ I @ R_WF / m)
