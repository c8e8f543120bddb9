"""The discrete update of a MultibodyPlant (time_step h > 0) and its constraints.

The scheme (one periodic update every h seconds, offset 0): semi-implicit (symplectic) Euler
on the linearized dynamics, as Drake's discrete solver takes them when there is no contact,
then a projection onto the constraints:

1. Free motion: v* = v + h·v̇, with v̇ from the articulated body algorithm at (q, v) and every
   force explicit except joint damping −D·v⁺ and the PD-controlled actuators'
   clamp(−Kp·(q + h·v⁺ − q_d) − Kd·(v⁺ − v_d) + u, ±effort limit), which are implicit
   (see DynamicsMixin._discrete_forward_dynamics). Locked joints keep v⁺ = 0.
2. Constraints: v⁺ is the point nearest to v* in the metric of the step's Hessian
   A = M(q) + h·D + (h·Kd + h²·Kp of the unsaturated PD actuators) among the velocities whose
   next positions q + h·v⁺ satisfy
   * the position limits lower ≤ q⁺ ≤ upper of every single-dof joint (revolute, prismatic,
     screw): one inequality per finite limit;
   * the coupler constraints q₀⁺ = ρ·q₁⁺ + Δq (an equality each).
   That is the quadratic program min ½·(v⁺ − v*)ᵀ·A·(v⁺ − v*) over those constraints, solved
   exactly (to round-off) through its dual, a small mixed LCP over the constraints, by
   Murty's least-index principal pivoting. The projection is inelastic: it never adds
   kinetic energy (in A's metric), and a limit reached during a step is met exactly (no
   penetration, no bounce). A position that starts outside its limits or off its coupler is
   brought back in one step.
3. Positions: q⁺ = q + h·N(q)·v⁺. Quaternions are not renormalized, as Drake does not.

Drake's default discrete solver (SAP) treats limits and couplers as compliant constraints
with a near-rigid regularization; without constraints its step is the one above to
round-off, with them the two differ by the (small) penetration and softness SAP allows.

As Drake's, a plant uses sampled output ports by default (``SetUseSampledOutputPorts``):
the update is then an unrestricted update that also stores what the step computed
(accelerations, net actuation, reaction forces' inputs) in an abstract state, and the
acceleration, net actuation and reaction-force outputs report the last step (zeros before
the first). Without sampled output ports, the update is a discrete update of x = [q; v] and
those outputs are computed from the current state (what the next step would use).
"""

import logging

import numpy as np

from mallard._compiled import kernels
from mallard.common.value import AbstractValue
from mallard.multibody.plant._dynamics import _forward_dynamics_key
from mallard.multibody.tree._indices import MultibodyConstraintId
from mallard.multibody.tree._joint import Joint

LOGGER = logging.getLogger("mallard.plant")

_CONTINUOUS_CONSTRAINTS = (
    "Currently this MultibodyPlant is set to use continuous time. Continuous time does not "
    "support constraints. Use a discrete time model and set_discrete_contact_approximation() "
    "to set a model approximation that uses the SAP solver instead (kSap, kSimilar, or "
    "kLagged)."
)


class CouplerConstraintSpec:
    """q₀ = gear_ratio·q₁ + offset between two single-dof joints (Drake's
    CouplerConstraintSpec)."""

    __slots__ = ("id", "joint0_index", "joint1_index", "gear_ratio", "offset")

    def __init__(self, constraint_id, joint0_index, joint1_index, gear_ratio, offset):
        self.id = constraint_id
        self.joint0_index = joint0_index
        self.joint1_index = joint1_index
        self.gear_ratio = gear_ratio
        self.offset = offset


class DiscreteStepMemory:
    """What one discrete step computed, for the sampled output ports: the state x0 the step
    started from, the generalized accelerations (v⁺ − v)/h, the net actuation, and the
    values of the applied force inputs (from which, with x0, the reaction forces follow)."""

    __slots__ = ("x0", "vdot", "net_actuation", "applied_generalized", "applied_spatial")

    def __init__(self, x0, vdot, net_actuation, applied_generalized, applied_spatial):
        self.x0 = x0
        self.vdot = vdot
        self.net_actuation = net_actuation
        self.applied_generalized = applied_generalized
        self.applied_spatial = applied_spatial


class DiscreteStep:
    """The result of one step from a Context: x⁺ = [q⁺; v⁺] and its memory."""

    __slots__ = ("x_next", "memory")

    def __init__(self, x_next, memory):
        self.x_next = x_next
        self.memory = memory


class _Projection:
    """The compiled kernels of the constraint projection (``kernels.lcp``) and scratch arrays
    for n velocities and m constraint rows."""

    def __init__(self, n, m):
        compiled = kernels(np.float64)
        self.residuals = compiled.constraint_residuals
        self.project = compiled.project_velocities
        self.r, self.lam, self.X = np.empty(m), np.empty(m), np.empty((m, 1))
        self.active = np.empty(m, dtype=np.int64)
        self.Y, self.L = np.empty((n, m)), np.empty((n, n))
        self.W, self.S, self.L_S = np.empty((m, m)), np.empty((m, m)), np.empty((m, m))


class DiscreteMixin:
    """Discrete update, constraints and sampled outputs of MultibodyPlant."""

    # ---- constraints ---------------------------------------------------------------------
    def AddCouplerConstraint(self, joint0, joint1, gear_ratio, offset=0.0):
        """Adds q₀ = gear_ratio·q₁ + offset between the single-dof joints ``joint0`` and
        ``joint1`` (enforced by discrete plants only; a continuous plant with constraints
        raises when its dynamics are evaluated, as Drake's). Returns its
        MultibodyConstraintId."""
        self._throw_if_finalized("AddCouplerConstraint")
        for joint in (joint0, joint1):
            if not isinstance(joint, Joint):
                raise TypeError(
                    f"AddCouplerConstraint(): expected a Joint, got {type(joint).__name__}"
                )
            if joint._plant is not self:
                raise RuntimeError(
                    f"AddCouplerConstraint(): joint '{joint.name()}' is not part of this "
                    "MultibodyPlant"
                )
        if joint0.num_velocities() != 1 or joint1.num_velocities() != 1:
            raise RuntimeError(
                "Coupler constraints can only be defined on single-DOF joints. However joint "
                f"'{joint0.name()}' has {joint0.num_velocities()} DOFs and joint "
                f"'{joint1.name()}' has {joint1.num_velocities()} DOFs."
            )
        constraint_id = MultibodyConstraintId.get_new_id()
        self._coupler_constraints[constraint_id] = CouplerConstraintSpec(
            constraint_id,
            joint0.index(),
            joint1.index(),
            float(gear_ratio),
            float(offset),
        )
        return constraint_id

    def num_constraints(self):
        """The number of constraints added (couplers)."""
        return len(self._coupler_constraints)

    def GetConstraintIds(self):
        """The ids of every constraint, in the order they were added."""
        return list(self._coupler_constraints)

    def _constraint_status(self, context, constraint_id, method):
        self.ValidateContext(context)
        self._throw_if_not_finalized(method)
        if constraint_id not in self._coupler_constraints:
            raise RuntimeError(
                f"{method}(): the constraint with id {constraint_id.get_value()} is not a "
                "constraint of this plant"
            )
        return self._parameters(context)

    def GetConstraintActiveStatus(self, context, id):  # noqa: A002 (pydrake's name)
        """Whether the constraint ``id`` is active in ``context`` (True by default)."""
        parameters = self._constraint_status(context, id, "GetConstraintActiveStatus")
        return id not in parameters.inactive_constraints

    def SetConstraintActiveStatus(self, context, id, status):  # noqa: A002
        """Activates or deactivates the constraint ``id`` in ``context``."""
        self._constraint_status(context, id, "SetConstraintActiveStatus")
        inactive = self._mutable_parameters(context).inactive_constraints
        if status:
            inactive.discard(id)
        else:
            inactive.add(id)

    def _throw_if_continuous_with_constraints(self):
        if self._time_step == 0 and self._coupler_constraints:
            raise RuntimeError(_CONTINUOUS_CONSTRAINTS)

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
        """At Finalize() (discrete plants): the periodic update of period h, offset 0."""
        h = self._time_step
        if self._use_sampled_output_ports:
            self.DeclareAbstractState(AbstractValue.Make(None))
            self.DeclarePeriodicUnrestrictedUpdateEvent(h, 0.0, self._unrestricted_update)
        else:
            self.DeclarePeriodicDiscreteUpdateEvent(h, 0.0, self._discrete_update)
        self._finalize_limits_and_couplers()

    def _discrete_update(self, context, discrete_state):
        discrete_state.get_mutable_vector(0).SetFromVector(self._discrete_step(context).x_next)

    def _unrestricted_update(self, context, state):
        step = self._discrete_step(context)
        state.get_mutable_discrete_state(0).SetFromVector(step.x_next)
        state.get_mutable_abstract_state(0).set_value(step.memory)

    def _finalize_limits_and_couplers(self):
        """The constraint rows, fixed at Finalize() (as Drake reads the joint limits then):
        for each finite limit of a single-dof joint and each coupler, its row of J (on v),
        kind (0 lower, 1 upper, 2 coupler), q slots, the constraint function g(q) = a₀·q[q0] +
        a₁·q[q1] + c (g ≥ 0 for limits, g = 0 for couplers), joint(s) (ordinals, as the locked
        parameters are indexed) and constraint id. At a step, J·v⁺ ≥ b (limits) or = b
        (couplers) with b = −g(q)/h."""
        rows = []  # (J row, kind, q0, q1, a0, a1, c, joint0, joint1, id)
        nv = self._nv
        for j in self._joints:
            if j.num_positions() != 1 or j.num_velocities() != 1:
                continue
            for kind, bound in (
                (0, j.position_lower_limits()[0]),
                (1, j.position_upper_limits()[0]),
            ):
                if np.isfinite(bound):
                    row = np.zeros(nv)
                    sign = 1.0 if kind == 0 else -1.0
                    row[j._v_start] = sign
                    i = j._ordinal
                    q0 = j._q_start
                    rows.append((row, kind, q0, q0, sign, 0.0, -sign * bound, i, i, None))
        for spec in self._coupler_constraints.values():
            j0, j1 = self.get_joint(spec.joint0_index), self.get_joint(spec.joint1_index)
            row = np.zeros(nv)
            row[j0._v_start] += 1.0
            row[j1._v_start] -= spec.gear_ratio
            rows.append(
                (row, 2, j0._q_start, j1._q_start, 1.0, -spec.gear_ratio, -spec.offset)
                + (j0._ordinal, j1._ordinal, spec.id)
            )
        self._c_J = np.array([r[0] for r in rows]).reshape(len(rows), nv)
        self._c_kind = np.array([r[1] for r in rows], dtype=np.int64)
        self._c_q0 = np.array([r[2] for r in rows], dtype=np.int64)
        self._c_q1 = np.array([r[3] for r in rows], dtype=np.int64)
        self._c_g = np.array([r[4:7] for r in rows], dtype=float).reshape(-1, 3).T.copy()
        self._c_joints = np.array([r[7:9] for r in rows], dtype=np.int64).reshape(-1, 2)
        self._c_ids = [r[9] for r in rows]
        self._c_equality = self._c_kind == 2
        self._c_any_equality = bool(self._c_equality.any())

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
        ec = self._forward_dynamics(context)
        v_next = v + h * ec.work.vdot
        locked = self._locked_velocities(context)
        if locked is not None:
            v_next[locked] = 0.0
        v_next = self._project_on_constraints(context, q, v_next, locked)
        vdot = (v_next - v) / h
        qdot = np.empty(nq, dtype=np.result_type(q, v_next))
        model = self._engine
        kernels(qdot.dtype).drive_qdot(model.mi, model.mf, q, v_next, qdot)
        x_next = np.concatenate((q + h * qdot, v_next))
        generalized, spatial = self._applied_input_values(context)
        memory = DiscreteStepMemory(
            x.copy(), vdot, self._net_actuation_at(context, v_next), generalized, spatial
        )
        return DiscreteStep(x_next, memory)

    def _locked_velocities(self, context):
        """The v slots of the locked joints in ``context``, or None."""
        locked = self._parameters(context).locked
        if not locked.any():
            return None
        slots = [
            s
            for j in np.flatnonzero(locked)
            for s in range(
                self._joints[j]._v_start,
                self._joints[j]._v_start + self._joints[j].num_velocities(),
            )
        ]
        return np.array(slots, dtype=np.int64)

    def _constraint_rows(self, parameters, locked):
        """(J, G, q0, q1, equality): the constraint rows (see _build_constraints) without the
        limits of locked joints and the deactivated couplers, with locked velocities' columns
        of J zero; or None if no row is left."""
        kind, inactive = self._c_kind, parameters.inactive_constraints
        keep = ~(parameters.locked[self._c_joints][:, 0] & (kind < 2))
        if inactive:
            keep &= np.array([i is None or i not in inactive for i in self._c_ids])
        if not keep.any():
            return None
        J = self._c_J[keep]
        if locked is not None:
            J[:, locked] = 0.0
        G = np.ascontiguousarray(self._c_g[:, keep])
        return J, G, self._c_q0[keep], self._c_q1[keep], self._c_equality[keep]

    def _project_on_constraints(self, context, q, v_star, locked):
        """v⁺: v* projected onto the constraints in the step's metric (module docstring)."""
        if not self._c_kind.size:
            return v_star
        if v_star.dtype != np.float64:
            raise NotImplementedError(
                "MultibodyPlant: the discrete update with joint limits or constraints supports "
                "float64 states only"
            )
        parameters = self._parameters(context)
        if locked is None and not parameters.inactive_constraints:
            J, G, q0, q1, equality = (
                self._c_J,
                self._c_g,
                self._c_q0,
                self._c_q1,
                self._c_equality,
            )
            any_equality = self._c_any_equality
        else:
            rows = self._constraint_rows(parameters, locked)
            if rows is None:
                return v_star
            J, G, q0, q1, equality = rows
            any_equality = bool(equality.any())
        scratch = self.__dict__.setdefault("_projection_scratch", {})
        p = scratch.get(J.shape[0])
        if p is None:
            p = scratch[J.shape[0]] = _Projection(self._nv, J.shape[0])
        if not p.residuals(J, G, q0, q1, q, self._time_step, v_star, p.r) and not any_equality:
            return v_star  # every limit is met by the free motion
        A = self.CalcMassMatrix(context)
        A.flat[:: self._nv + 1] += self._step_diagonal(context)
        free = np.ones(self._nv, dtype=np.int64)
        if locked is not None:  # locked velocities stay zero
            free[locked] = 0
        v_next = np.empty_like(v_star)
        status = p.project(
            A, J, p.r, equality, free, v_star, p.Y, p.L, p.W, p.lam, p.active, p.S, p.L_S, p.X,
            v_next,
        )  # fmt: skip
        if status == 1:
            raise RuntimeError(
                "MultibodyPlant: the discrete step's matrix M + h·D is not positive definite"
            )
        return v_next

    def _step_diagonal(self, context):
        """What the discrete step adds to M's diagonal: h·D plus, for the unsaturated PD
        actuators, h·Kd + h²·Kp (recorded by the forward dynamics)."""
        ec = self._forward_dynamics(context)
        return ec.lookup("forward_dynamics", _forward_dynamics_key(context))

    def _net_actuation_at(self, context, v_next):
        """The actuation applied during the step from ``context`` to v⁺: u clamped to the
        effort limits, the PD-controlled actuators' forces at v⁺ clamped likewise."""
        u = self._actuation(context)
        limits = self._effort_limits()
        net = np.minimum(np.maximum(u, -limits), limits)
        s, iq, iv, kp, kd, q_d, v_d = self._pd_controllers(context)
        if s.size:
            q = self._q(context)
            h = self._time_step
            f = -kp * (q[iq] + h * v_next[iv] - q_d) - kd * (v_next[iv] - v_d) + u[s]
            net[s] = np.minimum(np.maximum(f, -limits[s]), limits[s])
        return net

    def _step_applied_forces(self, context, memory):
        """(tau, F_BBo_W) applied during the step of ``memory``, which started from the
        state of ``context``: force elements and gravity at (q, v), joint damping −D·v⁺, the
        applied inputs and the net actuation (constraint forces excluded: they are what the
        joints transmit)."""
        from mallard.multibody.tree._multibody_forces import MultibodyForces

        forces = MultibodyForces(self)
        self.CalcForceElementsContribution(context, forces)
        damping = self._parameters(context).damping
        v_next = memory.x0[self._nq :] + self._time_step * memory.vdot
        tau = forces._tau + damping * (memory.x0[self._nq :] - v_next)
        tau, F = self._add_applied_values(
            context, tau, forces._F_BBo_W, memory.applied_generalized, memory.applied_spatial
        )
        return self._add_actuation(tau, memory.net_actuation), F

    # ---- outputs of a discrete plant -----------------------------------------------------
    def _step_memory(self, context):
        """The DiscreteStepMemory the discrete outputs report: the last step's (None before
        the first) with sampled output ports, else the step from the current state."""
        if self._use_sampled_output_ports:
            return context._state._abstract.get(0).get_value()
        return self._discrete_step(context).memory
