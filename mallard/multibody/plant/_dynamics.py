"""MultibodyPlant dynamics: inverse dynamics, mass matrix, bias and gravity terms, applied
and force-element forces, forward dynamics (time derivatives), accelerations and energy.

Cache entries (per Context, with the serial numbers of what they depend on): the bodies'
spatial inertias in World (q, p), the acceleration bias (q, v, p) and the forward dynamics
(everything: t, q, v, p, inputs).
"""

import numpy as np

from mallard._scalar import as_array
from mallard.multibody.math import SpatialAcceleration
from mallard.multibody.tree._multibody_forces import MultibodyForces
from mallard.multibody.tree._spatial_inertia import SpatialInertia


class _DynamicsCache:
    """The plant's dynamics cache entries in one Context (see the module docstring)."""

    __slots__ = (
        "inertia_serial",
        "m_W",
        "h_W",
        "I_W",
        "bias_serial",
        "A_bias",
        "ws12",
        "X_pc",
        "H_PB_W",
        "V_WB",
        "fd_serial",
        "vdot",
        "A_WB",
        "fd_ws",
        "u",
    )

    def __init__(self):
        self.inertia_serial = self.bias_serial = self.fd_serial = None


def _kernel(name, dtype):
    from mallard.multibody._kernels import dynamics, for_dtype

    return for_dtype(getattr(dynamics, name), dtype)


class DynamicsMixin:
    """Dynamics methods of MultibodyPlant."""

    # ---- cache entries -------------------------------------------------------------------
    def _dynamics_cache(self, context):
        cache = context._cache.get("dynamics")
        if cache is None:
            cache = context._cache["dynamics"] = _DynamicsCache()
        return cache

    def _body_inertias(self, context):
        """(m, h, I) per mobod about Bo in W (see kernels.dynamics)."""
        cache = self._dynamics_cache(context)
        serial = (context._serial_q, context._serial_p)
        if cache.inertia_serial == serial:
            return cache
        kc = self._position_kinematics(context)
        parameters = self._parameters(context)
        dtype = np.result_type(kc.X_pc, parameters.mass)
        n = len(self._mobods)
        cache.m_W = np.empty(n, dtype=dtype)
        cache.h_W = np.empty((n, 3), dtype=dtype)
        cache.I_W = np.empty((n, 3, 3), dtype=dtype)
        _kernel("calc_body_inertias", dtype)(
            self._tree,
            kc.X_pc,
            parameters.mass,
            parameters.com,
            parameters.G,
            cache.m_W,
            cache.h_W,
            cache.I_W,
        )
        cache.inertia_serial = serial
        return cache

    def _acceleration_bias(self, context):
        """The acceleration bias A_bias per mobod, with the kinematics it was computed from
        (X_pc, H_PB_W, V_WB)."""
        cache = self._dynamics_cache(context)
        serial = (context._serial_q, context._serial_v, context._serial_p)
        if cache.bias_serial == serial:
            return cache
        kc = self._velocity_kinematics(context)
        dtype = kc.V_WB.dtype
        cache.A_bias = np.empty((len(self._mobods), 6), dtype=dtype)
        cache.ws12 = np.empty(12, dtype=dtype)
        _kernel("calc_acceleration_bias", dtype)(
            self._tree,
            self._jparam,
            self._q(context),
            self._v(context),
            kc.X_pc,
            kc.V_WB,
            cache.A_bias,
            cache.ws12,
        )
        cache.X_pc, cache.H_PB_W, cache.V_WB = kc.X_pc, kc.H_PB_W, kc.V_WB
        cache.bias_serial = serial
        return cache

    def _reflected_inertias(self, context):
        """ρ²·Iᵣ of the actuators, per generalized velocity (nv)."""
        parameters = self._parameters(context)
        reflected = np.zeros(self._nv, dtype=parameters.rotor_inertia.dtype)
        for a in self._actuators:
            i = int(a.index())
            reflected[a.joint()._v_start] += (
                parameters.gear_ratio[i] ** 2 * parameters.rotor_inertia[i]
            )
        return reflected

    def _mobod_forces(self, F_BBo_W):
        """Body spatial forces (indexed by BodyIndex) reordered per mobod."""
        return F_BBo_W[self._tree[:, 5]]

    # ---- inverse dynamics, mass matrix, bias term ------------------------------------------
    def _check_forces(self, forces, method):
        if not isinstance(forces, MultibodyForces):
            raise TypeError(f"{method}(): expected MultibodyForces, got {forces!r}")
        forces._check_plant(self, method)

    def _inverse_dynamics(self, context, vdot, F_app, tau_app, velocities=True):
        """(tau, A_WB, F): recursive Newton–Euler (see kernels.dynamics), with the actuators'
        reflected inertias. ``velocities=False`` computes as if v were zero."""
        inertias = self._body_inertias(context)
        if velocities:
            cache = self._acceleration_bias(context)
            V_WB, A_bias = cache.V_WB, cache.A_bias
            X_pc, H_PB_W = cache.X_pc, cache.H_PB_W
        else:
            kc = self._position_kinematics(context)
            X_pc, H_PB_W = kc.X_pc, kc.H_PB_W
            V_WB = np.zeros((len(self._mobods), 6), dtype=H_PB_W.dtype)
            A_bias = V_WB
        dtype = np.result_type(A_bias, inertias.m_W, vdot, F_app, tau_app)
        n = len(self._mobods)
        A_WB = np.empty((n, 6), dtype=dtype)
        F = np.empty((n, 6), dtype=dtype)
        tau = np.empty(self._nv, dtype=dtype)
        _kernel("calc_inverse_dynamics", dtype)(
            self._tree,
            X_pc,
            H_PB_W,
            V_WB,
            A_bias,
            inertias.m_W,
            inertias.h_W,
            inertias.I_W,
            vdot,
            F_app,
            tau_app,
            A_WB,
            F,
            tau,
        )
        tau += self._reflected_inertias(context) * vdot
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
        self._throw_if_not_finalized("CalcInverseDynamics")
        self.ValidateContext(context)
        vdot = self._vdot_arg(known_vdot, "CalcInverseDynamics")
        self._check_forces(external_forces, "CalcInverseDynamics")
        F_app = self._mobod_forces(external_forces._F_BBo_W)
        return self._inverse_dynamics(context, vdot, F_app, external_forces._tau)[0]

    def CalcMassMatrix(self, context):
        """M(q) (nv × nv), by the composite body algorithm, with the actuators' reflected
        rotor inertias on the diagonal."""
        self._throw_if_not_finalized("CalcMassMatrix")
        self.ValidateContext(context)
        kc = self._position_kinematics(context)
        inertias = self._body_inertias(context)
        dtype = inertias.m_W.dtype
        n = len(self._mobods)
        M = np.zeros((self._nv, self._nv), dtype=dtype)
        _kernel("calc_mass_matrix", dtype)(
            self._tree,
            kc.X_pc,
            kc.H_PB_W,
            inertias.m_W,
            inertias.h_W,
            inertias.I_W,
            self._reflected_inertias(context),
            np.empty(n, dtype=dtype),
            np.empty((n, 3), dtype=dtype),
            np.empty((n, 3, 3), dtype=dtype),
            np.empty(6, dtype=dtype),
            M,
        )
        return M

    def CalcMassMatrixViaInverseDynamics(self, context):
        """M(q), column i = inverse dynamics with v = 0, v̇ = eᵢ and no applied forces."""
        self._throw_if_not_finalized("CalcMassMatrixViaInverseDynamics")
        self.ValidateContext(context)
        n, nv = len(self._mobods), self._nv
        F0, tau0 = np.zeros((n, 6)), np.zeros(nv)
        columns = [
            self._inverse_dynamics(context, e, F0, tau0, velocities=False)[0] for e in np.eye(nv)
        ]
        return np.array(columns).T.reshape(nv, nv)

    def CalcBiasTerm(self, context):
        """C(q, v)·v (size nv): inverse dynamics with v̇ = 0 and no applied forces."""
        self._throw_if_not_finalized("CalcBiasTerm")
        self.ValidateContext(context)
        n, nv = len(self._mobods), self._nv
        return self._inverse_dynamics(context, np.zeros(nv), np.zeros((n, 6)), np.zeros(nv))[0]

    def CalcSpatialAccelerationsFromVdot(self, context, known_vdot):
        """A_WB_W of every body (a list indexed by BodyIndex) for the generalized
        accelerations ``known_vdot``."""
        self._throw_if_not_finalized("CalcSpatialAccelerationsFromVdot")
        self.ValidateContext(context)
        vdot = self._vdot_arg(known_vdot, "CalcSpatialAccelerationsFromVdot")
        cache = self._acceleration_bias(context)
        A = np.empty_like(cache.A_bias, dtype=np.result_type(cache.A_bias, vdot))
        _kernel("calc_spatial_accelerations", A.dtype)(
            self._tree, cache.X_pc, cache.H_PB_W, cache.A_bias, vdot, A
        )
        return [SpatialAcceleration._make(A[k].copy()) for k in self._mobod_of_body]

    # ---- applied forces ----------------------------------------------------------------------
    def _gravity_body_forces(self, context):
        """Gravity on every body (indexed by BodyIndex): [h × m·g ... ] = [p_BoBcm_W × m·g;
        m·g] at Bo, in W, for the bodies of the model instances where it is enabled."""
        inertias = self._body_inertias(context)
        g = self._gravity_field.gravity_vector()
        enabled = self._gravity_field._enabled_mask(len(self._instance_names))
        F = np.zeros((len(self._bodies), 6), dtype=inertias.m_W.dtype)
        for k in range(1, len(self._mobods)):
            b = self._tree[k, 5]
            if enabled[int(self._bodies[b].model_instance())]:
                F[b, :3] = np.cross(inertias.h_W[k], g)
                F[b, 3:] = inertias.m_W[k] * g
        return F

    def CalcGravityGeneralizedForces(self, context):
        """tau_g(q) (size nv), on the right-hand side of M·v̇ + C·v = tau_g + tau_app."""
        self._throw_if_not_finalized("CalcGravityGeneralizedForces")
        self.ValidateContext(context)
        return self._generalized_forces_of(context, self._gravity_body_forces(context))

    def _generalized_forces_of(self, context, F_BBo_W):
        """Σ_B J_Bᵀ·F_BBo_W for body forces indexed by BodyIndex."""
        kc = self._position_kinematics(context)
        F = self._mobod_forces(F_BBo_W)
        dtype = np.result_type(F, kc.H_PB_W)
        tau = np.zeros(self._nv, dtype=dtype)
        _kernel("calc_generalized_forces", dtype)(
            self._tree, kc.X_pc, kc.H_PB_W, F, np.empty_like(F, dtype=dtype), tau
        )
        return tau

    def CalcGeneralizedForces(self, context, forces):
        """The generalized forces equivalent to ``forces``: its generalized forces plus
        Σ_B J_Bᵀ·F_BBo_W of its body forces."""
        self._throw_if_not_finalized("CalcGeneralizedForces")
        self.ValidateContext(context)
        self._check_forces(forces, "CalcGeneralizedForces")
        return forces._tau + self._generalized_forces_of(context, forces._F_BBo_W)

    def CalcForceElementsContribution(self, context, forces):
        """Sets ``forces`` to the forces of all force elements (gravity included) and joint
        damping, in ``context``."""
        self._throw_if_not_finalized("CalcForceElementsContribution")
        self.ValidateContext(context)
        self._check_forces(forces, "CalcForceElementsContribution")
        forces.SetZero()
        forces._F_BBo_W += self._gravity_body_forces(context)
        for element in self._force_elements[1:]:
            element.CalcAndAddForceContribution(context, forces)
        forces._tau -= self._parameters(context).damping * self._v(context)

    # ---- forward dynamics ------------------------------------------------------------------
    def _actuation_with_pd(self, context):
        """u after the actuators' PD controllers (for model instances whose desired state
        input has a value): ũ = −Kp·(q − q_d) − Kd·(v − v_d) + u, clamped to the effort
        limits."""
        u = self._actuation(context)
        for mi, port in enumerate(self._desired_state_ports):
            desired = port._value_or_none(context)
            if desired is None or desired.size() == 0:
                continue
            actuators = [a for a in self._actuators if int(a.model_instance()) == mi]
            x_d = desired._data
            n = len(actuators)
            q, v = self._q(context), self._v(context)
            for i, a in enumerate(actuators):
                if not a.has_controller():
                    continue
                gains, joint = a._gains, a.joint()
                slot = a._input_start
                u_pd = (
                    -gains.p * (q[joint._q_start] - x_d[i])
                    - gains.d * (v[joint._v_start] - x_d[n + i])
                    + u[slot]
                )
                u[slot] = min(max(u_pd, -a.effort_limit()), a.effort_limit())
        return u

    def _applied_forces(self, context):
        """(tau, F_BBo_W): everything applied in ``context``: actuation, the applied
        generalized and spatial force inputs, force elements, gravity and joint damping."""
        forces = MultibodyForces(self)
        self.CalcForceElementsContribution(context, forces)
        tau = forces._tau + self.MakeActuationMatrix() @ self._actuation_with_pd(context)
        generalized = self._applied_generalized_force_port._value_or_none(context)
        if generalized is not None:
            tau = tau + generalized._data
        spatial = self._applied_spatial_force_port._value_or_none(context)
        F = forces._F_BBo_W
        for applied in spatial or ():
            body = self.get_body(applied.body_index)
            R_WB = self.EvalBodyPoseInWorld(context, body)._R._R
            p_BoBq_W = R_WB @ as_array(applied.p_BoBq_B, (3,), "p_BoBq_B")
            F_Bq_W = applied.F_Bq_W._c
            b = int(applied.body_index)
            F[b, :3] += F_Bq_W[:3] + np.cross(p_BoBq_W, F_Bq_W[3:])
            F[b, 3:] += F_Bq_W[3:]
        return tau, F

    def _forward_dynamics(self, context):
        """v̇ and A_WB (per mobod) by the articulated body algorithm, with every applied
        force, locked joints held, and reflected rotor inertias."""
        cache = self._dynamics_cache(context)
        serial = (
            context._serial_t,
            context._serial_q,
            context._serial_v,
            context._serial_p,
            context._serial_u,
        )
        if cache.fd_serial == serial:
            return cache
        tau, F_BBo_W = self._applied_forces(context)
        bias = self._acceleration_bias(context)
        inertias = self._body_inertias(context)
        F_app = self._mobod_forces(F_BBo_W)
        dtype = np.result_type(tau, F_app, bias.A_bias, inertias.m_W)
        n, nv = len(self._mobods), self._nv
        locked = np.zeros(n, dtype=np.int64)
        parameters = self._parameters(context)
        for k, mobod in enumerate(self._mobods[1:], start=1):
            locked[k] = parameters.locked[mobod.joint]
        vdot = np.empty(nv, dtype=dtype)
        A_WB = np.empty((n, 6), dtype=dtype)
        failed = _kernel("calc_forward_dynamics", dtype)(
            self._tree,
            bias.X_pc,
            bias.H_PB_W,
            bias.V_WB,
            bias.A_bias,
            inertias.m_W,
            inertias.h_W,
            inertias.I_W,
            tau,
            F_app,
            self._reflected_inertias(context),
            locked,
            np.empty((n, 6, 6), dtype=dtype),
            np.empty((n, 6), dtype=dtype),
            np.empty((nv, 6), dtype=dtype),
            np.empty((n, 6, 6), dtype=dtype),
            np.empty(nv, dtype=dtype),
            np.empty((6, 12), dtype=dtype),
            vdot,
            A_WB,
        )
        if failed >= 0:
            self._raise_not_positive_definite(failed)
        cache.vdot, cache.A_WB = vdot, A_WB
        cache.fd_serial = serial
        return cache

    def _raise_not_positive_definite(self, k):
        mobod = self._mobods[k]
        joint = self._joints[mobod.joint]
        body = self._bodies[mobod.body]
        inboard = self._bodies[self._mobods[mobod.parent].body]
        message = (
            "An internal mass matrix associated with the joint that connects body "
            f"{inboard.name()} to body {body.name()} is not positive-definite."
        )
        if joint.can_rotate():
            message += (
                " Since the joint allows rotation, ensure body "
                f"{body.name()} (combined with other outboard bodies) has reasonable non-zero "
                "moments of inertia about the joint rotation axes."
            )
        if joint.can_translate():
            message += (
                " Since the joint allows translation, ensure body "
                f"{body.name()} (combined with other outboard bodies) has a reasonable non-zero "
                "mass."
            )
        raise RuntimeError(message)

    def DoCalcTimeDerivatives(self, context, derivatives):
        """[q̇; v̇] = [N(q)·v; v̇ from forward dynamics] (continuous plants)."""
        if self._time_step > 0:
            return
        vdot = self._forward_dynamics(context).vdot
        qdot = self.MapVelocityToQDot(context, self._v(context))
        derivatives.SetFromVector(np.concatenate((qdot, vdot)))

    def CalcImplicitTimeDerivativesResidual(self, context, proposed_derivatives, residual=None):
        """[q̇ₚ − N(q)·v; inverse dynamics(v̇ₚ) with every applied force] for proposed
        derivatives [q̇ₚ; v̇ₚ]; written into ``residual`` if given, else returned."""
        self._throw_if_not_finalized("CalcImplicitTimeDerivativesResidual")
        self.ValidateContext(context)
        x_dot = (
            proposed_derivatives.CopyToVector()
            if hasattr(proposed_derivatives, "CopyToVector")
            else as_array(proposed_derivatives).reshape(-1)
        )
        nq = self._nq
        qdot, vdot = x_dot[:nq], x_dot[nq:]
        tau, F_BBo_W = self._applied_forces(context)
        r_v = self._inverse_dynamics(context, vdot, self._mobod_forces(F_BBo_W), tau)[0]
        r_q = qdot - self.MapVelocityToQDot(context, self._v(context))
        result = np.concatenate((r_q, r_v))
        if residual is None:
            return result
        residual[:] = result
        return None

    def EvalBodySpatialAccelerationInWorld(self, context, body):
        """A_WB_W of ``body`` from forward dynamics."""
        k = self._check_body(context, body, "EvalBodySpatialAccelerationInWorld")
        return SpatialAcceleration._make(self._forward_dynamics(context).A_WB[k].copy())

    def _A_WF(self, context, frame):
        """A_WF_W of ``frame`` (from forward dynamics)."""
        k = self._mobod_of_body[int(frame.body().index())]
        fd = self._forward_dynamics(context)
        kc = self._velocity_kinematics(context)
        R_WB = kc.X_pc[3, k, :3]
        p = R_WB @ self._frame_poses(context).X_BF[int(frame.index()), 3]
        w, alpha = kc.V_WB[k, :3], fd.A_WB[k, :3]
        A = fd.A_WB[k].copy()
        A[3:] += np.cross(alpha, p) + np.cross(w, np.cross(w, p))
        return A

    def CalcCenterOfMassTranslationalAccelerationInWorld(self, context, model_instances=None):
        """a_WScm_W of the bodies (of ``model_instances``, if given), from forward
        dynamics."""
        method = "CalcCenterOfMassTranslationalAccelerationInWorld"
        bodies, parameters, mass, total = self._com_data(context, model_instances, method)
        a = 0.0
        for b, m in zip(bodies, mass, strict=True):
            frame = self._bodies[b].body_frame()
            k = self._mobod_of_body[b]
            A = self._A_WF(context, frame)
            R_WB = self._velocity_kinematics(context).X_pc[3, k, :3]
            p = R_WB @ parameters.com[b]
            w = self._velocity_kinematics(context).V_WB[k, :3]
            a = a + m * (A[3:] + np.cross(A[:3], p) + np.cross(w, np.cross(w, p)))
        return a / total

    # ---- energy ----------------------------------------------------------------------------
    def EvalKineticEnergy(self, context):
        """½·vᵀ·M(q)·v (reflected rotor inertias included)."""
        self._throw_if_not_finalized("EvalKineticEnergy")
        self.ValidateContext(context)
        inertias = self._body_inertias(context)
        V_WB = self._velocity_kinematics(context).V_WB
        energy = 0.0
        for k in range(1, len(self._mobods)):
            V = V_WB[k]
            w, v = V[:3], V[3:]
            h = inertias.h_W[k]
            momentum = np.concatenate(
                (inertias.I_W[k] @ w + np.cross(h, v), inertias.m_W[k] * v - np.cross(h, w))
            )
            energy = energy + 0.5 * (V @ momentum)
        v = self._v(context)
        return energy + 0.5 * (self._reflected_inertias(context) * v) @ v

    def CalcKineticEnergy(self, context):
        return self.EvalKineticEnergy(context)

    def _gravity_energy_and_power(self, context):
        inertias = self._body_inertias(context)
        g = self._gravity_field.gravity_vector()
        enabled = self._gravity_field._enabled_mask(len(self._instance_names))
        kc = self._velocity_kinematics(context)
        energy = power = 0.0
        for k in range(1, len(self._mobods)):
            if not enabled[int(self._bodies[self._tree[k, 5]].model_instance())]:
                continue
            m, h = inertias.m_W[k], inertias.h_W[k]
            p_WBo = kc.X_pc[3, k, 3]
            w, v = kc.V_WB[k, :3], kc.V_WB[k, 3:]
            # m·p_WBcm = m·p_WBo + h;  m·v_WBcm = m·v + w × h.
            energy = energy - g @ (m * p_WBo + h)
            power = power + g @ (m * v + np.cross(w, h))
        return energy, power

    def EvalPotentialEnergy(self, context):
        """The potential energy of gravity (zero at World's origin height) and of the force
        elements."""
        self._throw_if_not_finalized("EvalPotentialEnergy")
        self.ValidateContext(context)
        energy = self._gravity_energy_and_power(context)[0]
        for element in self._force_elements[1:]:
            energy = energy + element.CalcPotentialEnergy(context)
        return energy

    def CalcPotentialEnergy(self, context):
        return self.EvalPotentialEnergy(context)

    def CalcConservativePower(self, context):
        """The power of the conservative forces (gravity and the force elements' springs)."""
        self._throw_if_not_finalized("CalcConservativePower")
        self.ValidateContext(context)
        power = self._gravity_energy_and_power(context)[1]
        for element in self._force_elements[1:]:
            power = power + element.CalcConservativePower(context)
        return power

    def CalcNonConservativePower(self, context):
        """The power of the force elements' non-conservative forces (joint damping and
        inputs are not included, as in Drake)."""
        self._throw_if_not_finalized("CalcNonConservativePower")
        self.ValidateContext(context)
        power = 0.0
        for element in self._force_elements[1:]:
            power = power + element.CalcNonConservativePower(context)
        return power

    # ---- spatial inertia of a set of bodies ----------------------------------------------------
    def CalcSpatialInertia(self, context, frame_F, body_indexes):
        """M_SFo_F: the spatial inertia about Fo, expressed in frame F, of the bodies
        ``body_indexes`` (World contributes nothing)."""
        self._throw_if_not_finalized("CalcSpatialInertia")
        self.ValidateContext(context)
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
            k = self._mobod_of_body[b]
            mk, hk, Ik = inertias.m_W[k], inertias.h_W[k], inertias.I_W[k]
            d = p_WF - kc.X_pc[3, k, 3]  # shift from Bo to Fo
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
