"""The discrete update of a MultibodyPlant (time_step h > 0): Drake's discrete solvers, the
point contact and the constraints SAP enforces, the discrete contact approximation, and the
sampled outputs.

Every h seconds (offset 0) the state x0 = [q0; v0] becomes

    v = the discrete solver's velocities,    q = q0 + h·N(q0)·v

(quaternions are not renormalized, as in Drake). The discrete contact approximation
(``set_discrete_contact_approximation``, Drake's default kLagged) chooses the solver
(``get_discrete_contact_solver``): kSap, kSimilar and kLagged use SAP (they differ only in how
contact is approximated), kTamsi TAMSI (deprecated by Drake).

* SAP (plant._sap_driver, kernels.sap), as Drake's SapDriver: the free motion v* = v0 + h·v̇*
  with (M + h·D)·v̇* = k(x0), every force explicit at x0 but joint damping (implicit), the
  actuators with PD gains left to their constraints (as Drake, even when their desired state
  input has no value: their input u then acts on nothing), locked joints held; then v
  minimizes ½‖v − v*‖²_{M+h·D} plus the costs of Drake's compliant constraints: point contact
  (plant._contact: SapFrictionConeConstraint for kSap, SapHuntCrossleyConstraint for kSimilar
  and kLagged), joint limits
  near the step's start, PD controllers with effort limits, and the constraints added to the
  plant (plant._constraints: couplers, distance, ball, weld, tendon). Limits, couplers, ball
  and weld constraints are near rigid, critically damped at the time step: a joint approaches
  its limit at most halfway per step (stopping a hair short of it, ~2e-6 rad at 1 ms), a
  violated limit or constraint is restored halfway per step.
* TAMSI (plant._tamsi_driver, kernels.tamsi), as Drake's TamsiDriver: every force explicit
  at x0 (joint damping too), every actuator's effort-limited input u (PD gains ignored), the
  limits of revolute and prismatic joints as Drake's explicit penalty forces (critically
  damped springs of period 20π·h, from the bodies' default inertias), v = 0 for locked
  joints; without contact v = v0 + h·v̇, with contact TAMSI's Newton–Raphson on the momentum
  balance with the point contacts' Hunt–Crossley normal forces (implicit in the penetration)
  and regularized friction.

AutoDiffXd plants: SAP solves the problem of their values and differentiates its solution by
the implicit function theorem, as Drake (see _sap_driver); TAMSI runs interpreted on their
scalars, as Drake's TamsiSolver<AutoDiffXd>.
Symbolic plants raise Drake's errors: no discrete update.

As Drake's, a plant uses sampled output ports by default (``SetUseSampledOutputPorts``):
the update is then an unrestricted update that also stores what the step computed
(accelerations, net actuation, reaction forces' inputs) in an abstract state, and the
acceleration, net actuation and reaction-force outputs report the last step (zeros before
the first). Without sampled output ports, the update is a discrete update of x = [q; v] and
those outputs are computed from the current state (what the next step would use).
"""

import logging
import math
import numbers

import numpy as np

from mallard._template import cpp_scalar_name
from mallard.common._pybind import incompatible_arguments
from mallard.common.value import AbstractValue
from mallard.multibody.plant._discrete_contact_approximation import (
    DiscreteContactApproximation,
    DiscreteContactSolver,
)
from mallard.multibody.plant._dynamics import _forward_dynamics_key
from mallard.multibody.plant._sap_driver import SapDriver
from mallard.multibody.plant._tamsi_driver import tamsi_step
from mallard.systems.framework._system import system_scalar_type

LOGGER = logging.getLogger("mallard.plant")

_MODULE = "mallard.multibody.plant"


class DiscreteStepMemory:
    """What one discrete step computed, for the sampled output ports: the state x0 the step
    started from, the generalized accelerations (v⁺ − v)/h, the net actuation, the values of
    the applied force inputs, the spatial forces F_BBo_W (per body) of the constraints
    between bodies (None without them; from which, with x0, the reaction forces follow) and
    the step's contacts (plant._contact._DiscreteContacts, solved; None without contact)."""

    __slots__ = (
        "x0",
        "vdot",
        "net_actuation",
        "applied_generalized",
        "applied_spatial",
        "constraint_forces",
        "contacts",
    )

    def __init__(self, x0, vdot, net_actuation, applied_generalized, applied_spatial,
                 constraint_forces=None, contacts=None):  # fmt: skip
        self.x0 = x0
        self.vdot = vdot
        self.net_actuation = net_actuation
        self.applied_generalized = applied_generalized
        self.applied_spatial = applied_spatial
        self.constraint_forces = constraint_forces
        self.contacts = contacts


class DiscreteStep:
    """The result of one step from a Context: x⁺ = [q⁺; v⁺] and its memory."""

    __slots__ = ("x_next", "memory")

    def __init__(self, x_next, memory):
        self.x_next = x_next
        self.memory = memory


def _critically_damped(period, inertia):
    """(k, d) of a critically damped oscillator of ``period`` and ``inertia``."""
    omega = 2.0 * math.pi / period
    stiffness = inertia * omega * omega
    return stiffness, 2.0 * math.sqrt(inertia * stiffness)


class DiscreteMixin:
    """Discrete update, discrete contact approximation and sampled outputs of MultibodyPlant
    (its constraints: plant._constraints)."""

    # ---- discrete contact approximation ----------------------------------------------------
    def set_discrete_contact_approximation(self, approximation):
        """Sets the discrete contact approximation, and with it the discrete solver (kTamsi:
        TAMSI; kSap, kSimilar, kLagged: SAP). Before Finalize(), discrete plants only; TAMSI
        does not take constraints."""
        method = "set_discrete_contact_approximation"
        if not isinstance(approximation, DiscreteContactApproximation):
            raise incompatible_arguments(
                method,
                (
                    f"(self: {_MODULE}.MultibodyPlant, approximation: "
                    f"{_MODULE}.DiscreteContactApproximation) -> None",
                ),
                (self, approximation),
                {},
            )
        self._throw_if_finalized(method)
        if not self._time_step > 0:
            raise RuntimeError(f"{method}(): condition 'is_discrete()' failed.")
        if approximation == DiscreteContactApproximation.kTamsi and self.num_constraints():
            raise RuntimeError(
                "You selected TAMSI as the contact approximation, but you have constraints "
                "registered with this model (num_constraints() == "
                f"{self.num_constraints()}). TAMSI does not support constraints."
            )
        self._discrete_contact_approximation = approximation

    def get_discrete_contact_approximation(self):
        """The discrete contact approximation (kLagged unless set)."""
        return self._discrete_contact_approximation

    def get_discrete_contact_solver(self):
        """The discrete solver: kTamsi for the kTamsi approximation, kSap for the others."""
        if self._uses_tamsi():
            return DiscreteContactSolver.kTamsi
        return DiscreteContactSolver.kSap

    def _uses_tamsi(self):
        return self._discrete_contact_approximation._value == 0  # (kTamsi; hot path)

    def set_sap_near_rigid_threshold(self, near_rigid_threshold=1.0):
        """SAP's near-rigid threshold β for contact constraints (non-negative, 1 by default;
        Drake's joint limits, couplers and PD controllers have their own β = 0.1). Before
        Finalize()."""
        method = "set_sap_near_rigid_threshold"
        if isinstance(near_rigid_threshold, str) or not isinstance(
            near_rigid_threshold, numbers.Real
        ):
            raise incompatible_arguments(
                method,
                (f"(self: {_MODULE}.MultibodyPlant, near_rigid_threshold: float = 1.0) -> None",),
                (self, near_rigid_threshold),
                {},
            )
        self._throw_if_finalized(method)
        near_rigid_threshold = float(near_rigid_threshold)
        if not near_rigid_threshold >= 0.0:
            raise RuntimeError(f"{method}(): condition 'near_rigid_threshold >= 0.0' failed.")
        self._sap_near_rigid_threshold = near_rigid_threshold

    def get_sap_near_rigid_threshold(self):
        """SAP's near-rigid threshold for contact constraints (see its setter)."""
        return self._sap_near_rigid_threshold

    # ---- sampled output ports ------------------------------------------------------------
    def SetUseSampledOutputPorts(self, use_sampled_output_ports):
        """Whether a discrete plant's acceleration, actuation and reaction outputs report the
        last step (True, the default for discrete plants) or are computed from the current
        state. Before Finalize(); a continuous plant accepts only False."""
        self._throw_if_finalized("SetUseSampledOutputPorts")
        if use_sampled_output_ports and self._time_step == 0:
            raise RuntimeError(
                "SetUseSampledOutputPorts(): a continuous plant (time_step = 0) has no sampled "
                "output ports"
            )
        self._use_sampled_output_ports = bool(use_sampled_output_ports)

    def has_sampled_output_ports(self):
        return self._use_sampled_output_ports

    # ---- the update ----------------------------------------------------------------------
    def _declare_discrete_update(self):
        """At Finalize() (discrete plants): the periodic update of period h, offset 0, and
        the same as a forced update (CalcForcedUnrestrictedUpdate or
        CalcForcedDiscreteUpdate take a step), as Drake's DeclareStateUpdate."""
        h = self._time_step
        if self._use_sampled_output_ports:
            self.DeclareAbstractState(AbstractValue.Make(None))
            self.DeclarePeriodicUnrestrictedUpdateEvent(h, 0.0, self._unrestricted_update)
            self.DeclareForcedUnrestrictedUpdateEvent(self._unrestricted_update)
        else:
            self.DeclarePeriodicDiscreteUpdateEvent(h, 0.0, self._discrete_update)
            self.DeclareForcedDiscreteUpdateEvent(self._discrete_update)
        self._sap_driver = SapDriver(self)

    def _discrete_update(self, context, discrete_state):
        discrete_state.get_mutable_vector(0).SetFromVector(self._discrete_step(context).x_next)

    def _unrestricted_update(self, context, state):
        step = self._discrete_step(context)
        state.get_mutable_discrete_state(0).SetFromVector(step.x_next)
        state.get_mutable_abstract_state(0).set_value(step.memory)

    def _discrete_step(self, context):
        """The DiscreteStep from ``context`` (cached until its time, state, parameters or
        inputs change)."""
        ec = self._engine.cache(context)
        key = _forward_dynamics_key(context)
        step = ec.lookup("discrete_step", key)
        if step is None:
            step = ec.store("discrete_step", key, self._calc_discrete_step(context))
        return step

    def _calc_discrete_step(self, context):
        h = self._time_step
        x = self._x(context)
        nq = self._nq
        q, v = x[:nq], x[nq:]
        if x.dtype != np.float64 and (
            cpp_scalar_name(system_scalar_type(self)) == "drake::symbolic::Expression"
        ):
            raise RuntimeError(
                "This method doesn't support T = Expression."
                if self._uses_tamsi()
                else "Discrete updates with the SAP solver are not supported for T = "
                "symbolic::Expression"
            )
        contacts = self._discrete_contacts(context)
        constraint_forces = None
        if self._uses_tamsi():
            if contacts is None:
                v_next = v + h * self._free_motion(context)
                if self._parameters(context).locked.any():
                    v_next[self._locked_velocities(context)] = 0.0
            else:
                v_next = tamsi_step(self, context, v, self._free_motion(context), contacts)
            net = self._limited_actuation(context)
        else:
            v_star = v + h * self._free_motion(context)
            v_next, net, constraint_forces = self._sap_driver.step(context, q, v, v_star, contacts)
        vdot = (v_next - v) / h
        qdot = np.empty(nq, dtype=np.result_type(q, v_next))
        model = self._engine
        model.kernels(qdot.dtype).drive_qdot(model.mi, model.mf, q, v_next, qdot)
        x_next = np.concatenate((q + h * qdot, v_next))
        generalized, spatial = self._applied_input_values(context)
        memory = DiscreteStepMemory(
            x.copy(), vdot, net, generalized, spatial, constraint_forces, contacts
        )
        return DiscreteStep(x_next, memory)

    def _locked_velocities(self, context):
        """The v slots of the locked joints in ``context`` (an int array)."""
        locked = self._parameters(context).locked
        slots = [
            s
            for j in np.flatnonzero(locked)
            for s in range(
                self._joints[j]._v_start,
                self._joints[j]._v_start + self._joints[j].num_velocities(),
            )
        ]
        return np.array(slots, dtype=np.int64)

    def _controlled_inputs(self):
        """Per actuation input, True if its actuator has PD gains (kept until the model
        changes: JointActuator.set_controller_gains)."""
        version, mask = getattr(self, "_controlled_inputs_cache", (None, None))
        if version != self._engine.version:
            mask = np.zeros(self.num_actuated_dofs(), dtype=bool)
            for a in self._actuators:
                mask[a._input_start] = a.has_controller()
            self._controlled_inputs_cache = (self._engine.version, mask)
        return mask

    def _free_motion_actuation(self, u):
        """The actuation the discrete free motion applies: SAP leaves the actuators with PD
        gains to their constraints; TAMSI applies every actuator's."""
        if self._uses_tamsi():
            return u
        controlled = self._controlled_inputs()
        return np.where(controlled, 0.0, u) if controlled.any() else u

    def _free_motion(self, context):
        """v̇* (kept until the Context changes): the accelerations of the non-constraint
        forces the discrete solver takes (Drake's AccelerationsDueToNonConstraintForces),
        locked joints held. SAP: (M + h·D)·v̇* = k(x0), joint damping implicit, the PD
        controlled actuators left out; TAMSI: M·v̇* = k(x0), every force explicit, joint
        limits as penalty forces."""
        ec = self._engine.cache(context)
        key = _forward_dynamics_key(context)
        vdot = ec.lookup("free_motion", key)
        if vdot is not None:
            return vdot
        tamsi = self._uses_tamsi()
        if ec.ws.dtype == np.float64:
            u, tau, F = self._forward_dynamics_inputs(context, ec)
            if tamsi:
                self._drive_forward_dynamics(
                    context, ec, (u, self._add_joint_limit_penalties(context, tau), F)
                )
            else:  # (M + h·D): h·D where the ABA adds the reflected inertias
                reflected = ec.params.reflected.copy()
                ec.params.reflected[:] += self._time_step * ec.params.damping
                try:
                    self._drive_forward_dynamics(context, ec, (u, tau, F))
                finally:
                    ec.params.reflected[:] = reflected
            vdot = ec.work.vdot.copy()
        else:
            tau, F = self._applied_forces(context, actuation=False)
            u, limits = self._actuation(context), self._effort_limits()
            u = self._free_motion_actuation(np.minimum(np.maximum(u, -limits), limits))
            tau = self._add_actuation(tau, u)
            diagonal = self._reflected_inertias(context)
            if tamsi:
                tau = self._add_joint_limit_penalties(context, tau)
            else:
                diagonal = diagonal + self._time_step * ec.params.damping
            F_app = self._mobod_forces(F)
            vdot = self._articulated_body_algorithm(context, tau, F_app, diagonal)[0]
        return ec.store("free_motion", key, vdot)

    def _step_accelerations(self, context, ec):
        """ec's vdot and A_WB: those of the discrete step from ``context``, (v⁺ − v)/h (a
        discrete plant's forward dynamics, as Drake's)."""
        vdot = self._discrete_step(context).memory.vdot
        self._acceleration_bias(context)
        ec.work.vdot[:] = vdot
        model = self._engine
        ec.kernels.drive_spatial_accelerations(model.mi, model.mf, ec.ws, vdot, ec.work.A_WB)

    # ---- TAMSI's joint limits ----------------------------------------------------------------
    def _joint_limit_penalties(self):
        """Per revolute and prismatic joint with a limit: (v slot, q slot, lower, upper,
        stiffness, damping), a list of Drake's penalty parameters (SetUpJointLimitsParameters),
        made at the first TAMSI step: each body of the joint, the other held, is an oscillator
        of period 20π·h (its mass, or its rotational inertia about the axis at the joint
        frame); the less stiff one's."""
        rows = self.__dict__.get("_joint_limit_penalty_rows")
        if rows is not None:
            return rows
        period = 20.0 * math.pi * self._time_step
        rows = []
        for joint in self._joints:
            kind = joint.type_name()
            if kind not in ("revolute", "prismatic"):
                continue
            lower, upper = joint.position_lower_limits()[0], joint.position_upper_limits()[0]
            if not (np.isfinite(lower) or np.isfinite(upper)):
                continue
            candidates = []
            for frame in (joint.frame_on_parent(), joint.frame_on_child()):
                body = frame.body()
                if int(body.index()) == 0:
                    inertia = math.inf
                elif math.isnan(body.default_mass()):
                    inertia = math.inf
                elif kind == "prismatic":
                    inertia = float(body.default_mass())
                else:
                    X_BJ = frame.GetFixedPoseInBodyFrame()
                    M_BJo_J = (
                        body.default_spatial_inertia()
                        .Shift(X_BJ.translation())
                        .ReExpress(X_BJ.rotation())
                    )
                    I = M_BJo_J.CalcRotationalInertia().CopyToFullMatrix3()
                    axis = np.asarray(joint.revolute_axis(), dtype=float)
                    inertia = float(axis @ I @ axis)
                candidates.append(_critically_damped(period, inertia))
            parent, child = candidates
            stiffness, damping = parent if parent[0] < child[0] else child
            rows.append((joint._v_start, joint._q_start, lower, upper, stiffness, damping))
        self._joint_limit_penalty_rows = rows
        return rows

    def _add_joint_limit_penalties(self, context, tau):
        """tau plus Drake's penalty forces of the joint limits (TAMSI), at the state of
        ``context``: past a limit, −k·Δq − d·v, of the sign that pushes back. (A loop over
        the few limited joints: faster than numpy's calls on such small arrays.)"""
        rows = self._joint_limit_penalties()
        if not rows:
            return tau
        q, v = self._q(context).tolist(), None
        out = tau
        for iv, iq, lower, upper, k, d in rows:
            qi = q[iq]
            if not (qi > upper or qi < lower):
                continue
            if v is None:
                v = self._v(context).tolist()
                out = tau.astype(np.result_type(tau, self._q(context)), copy=True)
            if qi > upper:
                out[iv] += min(-k * (qi - upper) - d * v[iv], 0.0)
            else:
                out[iv] += max(-k * (qi - lower) - d * v[iv], 0.0)
        return out

    def _step_applied_forces(self, context, memory):
        """(tau, F_BBo_W) applied during the step of ``memory``, which started from the
        state of ``context``: force elements and gravity at (q, v), joint damping −D·v⁺, the
        applied inputs, the net actuation and the spatial forces of the constraints between
        bodies, as Drake's SapDriver reports them (the generalized forces of the joint
        constraints, limits and couplers, are left out: they change no reaction force)."""
        from mallard.multibody.tree._multibody_forces import MultibodyForces

        forces = MultibodyForces(self)
        self.CalcForceElementsContribution(context, forces)
        damping = self._parameters(context).damping
        v_next = memory.x0[self._nq :] + self._time_step * memory.vdot
        tau = forces._tau + damping * (memory.x0[self._nq :] - v_next)
        tau, F = self._add_applied_values(
            context, tau, forces._F_BBo_W, memory.applied_generalized, memory.applied_spatial
        )
        if memory.constraint_forces is not None:
            F = F + memory.constraint_forces
        if memory.contacts is not None:
            F = F + memory.contacts.forces()
        return self._add_actuation(tau, memory.net_actuation), F

    # ---- outputs of a discrete plant -----------------------------------------------------
    def _step_memory(self, context):
        """The DiscreteStepMemory the discrete outputs report: the last step's (None before
        the first) with sampled output ports, else the step from the current state."""
        if self._use_sampled_output_ports:
            return context._state._abstract.get(0).get_value()
        return self._discrete_step(context).memory
