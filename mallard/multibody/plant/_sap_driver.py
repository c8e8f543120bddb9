"""A discrete plant's step through Drake's SAP solver (kernels.sap), its problem built as
Drake's SapDriver builds it for the constraints that need no geometry.

The problem of a step from x0 = [q0; v0] (SapDriver::CalcContactProblemCache):

* the dynamics matrix A = M(q0) + h·D (joint damping implicit) and the free-motion velocities
  v* = v0 + h·v̇* (the plant's ``_free_motion``), per clique: a kinematic tree with dofs;
* constraints, in Drake's order: joint limits of the single-dof joints whose limit is within
  q0 ± 2·h·max(|v0|, |v*|) (stiffness 1e12, dissipation time scale h, near-rigid β = 0.1), the
  PD-controlled actuators (their model instance's desired state set, joint not locked;
  effort limits), then the active constraints the user added (plant._constraints): couplers,
  distance, ball and weld constraints (their kinematics at q0 by
  kernels.body_constraints), tendon constraints violated at q0;
* locked joints: their velocities are known (v = v*, held by the free motion), as in Drake's
  reduced problem.

A constraint's cliques are the trees of its joints or bodies that have dofs (a body welded to
World, or World, has none: its Jacobian is zero). The spatial forces of the constraints between
bodies (γ/h on B at Q, −γ/h on A at P, as Drake's AccumulateSpatialImpulses) are reported for
the reaction forces.

Contact constraints come first, as in Drake: the step's point contacts (plant._contact.
_DiscreteContacts: Drake's SapFrictionConeConstraint for kSap, SapHuntCrossleyConstraint for
kSimilar and kLagged) appended by kernels.sap.sap_add_contact_constraints; the problem's
capacities grow with them (:meth:`_problem`), and the step keeps their impulses.
"""

import numpy as np

from mallard._compiled import kernels
from mallard._scalar import scalar_value, values_or_none
from mallard.multibody import _layout
from mallard.multibody._layout import (
    BALL_CONSTRAINT,
    BODY_CONSTRAINT_EQUATIONS,
    DISTANCE_CONSTRAINT,
    INERTIAS,
    POSITIONS,
    SAP_KIND,
    SAP_PD_CONTROLLER,
    SAP_START,
    SAP_STATS,
    WELD_CONSTRAINT,
)
from mallard.multibody.plant._parameters import pose_array

#: Drake's near-rigid parameter β of its holonomic constraints (ball, distance, weld, tendon).
_BETA = 0.1
#: The constraints between bodies, in Drake's order: the plant's dict of each kind, its kind.
_BODY_KINDS = (
    ("_distance_constraints", DISTANCE_CONSTRAINT),
    ("_ball_constraints", BALL_CONSTRAINT),
    ("_weld_constraints", WELD_CONSTRAINT),
)
_KIND_NAMES = {BALL_CONSTRAINT: "ball Constraint", DISTANCE_CONSTRAINT: "distance constraint",
               WELD_CONSTRAINT: "weld constraint"}  # fmt: skip

_NAN_CAUSE = (
    "The typical root cause for this failure is usually outside the solver, when there are "
    "not enough checks to catch it earlier. In this case, a previous (valid) simulation result "
    "led to the generation of NaN values in a controller, that are then fed as actuation "
    "through MultibodyPlant's ports. If you don't believe this is the root cause of your "
    "problem, please contact the Drake developers and/or open a Drake issue with a minimal "
    "reproduction example to help debug your problem."
)


def _failure(status, time):
    """The exception Drake throws for the SAP solver's ``status`` (not success)."""
    if status == _layout.SAP_NOT_CONVERGED:
        return RuntimeError(
            "The SAP solver failed to converge at simulation time = "
            f"{repr(float(time)).removesuffix('.0')}. Reasons for "
            "divergence and possible solutions include:\n"
            "  1. Externally applied actuation values diverged due to external "
            "     reasons to the solver. Revise your control logic.\n"
            "  2. External force elements such as spring or bushing elements can "
            "     lead to unstable temporal dynamics if too stiff. Revise your "
            "     model and consider whether these forces can be better modeled "
            "     using one of SAP's compliant constraints. E.g., use a distance "
            "     constraint instead of a spring element.\n"
            "  3. Numerical ill conditioning of the model caused by, for instance, "
            "     extremely large mass ratios. Revise your model and consider "
            "     whether very small objects can be removed or welded to larger "
            "     objects in the model.\n"
            "  4. Ill-conditioning could be alleviated via SAP's near rigid "
            "     parameter. Refer to "
            "     MultibodyPlant::set_sap_near_rigid_threshold() for details.\n"
            "  5. Some other cause. You may want to use Stack Overflow (#drake "
            "     tag) to request some assistance.\n"
        )
    messages = {
        _layout.SAP_NO_DESCENT: "The cost does not decrease along the search direction. This "
        "is usually caused by an excessive accumulation round-off errors for ill-conditioned "
        "systems. Consider revisiting your model.",
        _layout.SAP_MOMENTUM_HESSIAN_NAN: "The Hessian of the momentum cost along the search "
        f"direction is NaN. {_NAN_CAUSE}",
        _layout.SAP_MOMENTUM_HESSIAN_NOT_POSITIVE: "The Hessian of the momentum cost along "
        "the search direction is not positive. This can only be caused by a mass matrix that "
        "is not SPD. This would indicate bad problem data (e.g. a zero mass floating body, "
        "though this would be caught earlier).",
        _layout.SAP_CONSTRAINTS_HESSIAN_NAN: "The Hessian of the constraints cost along the "
        f"search direction is NaN. {_NAN_CAUSE}",
        _layout.SAP_CONSTRAINTS_HESSIAN_NEGATIVE: "The Hessian of the constraints cost along "
        "the search direction is negative. This can only be caused by a degenerate constraint "
        "Hessian (a bug).",
        _layout.SAP_LINE_SEARCH_GUESS_NAN: "The initial guess for line search is NaN. "
        + _NAN_CAUSE,
        _layout.SAP_LINE_SEARCH_NOT_CONVERGED: "NewtonWithBisectionFallback did not converge.",
        _layout.SAP_HESSIAN_NOT_POSITIVE_DEFINITE: "The SAP solver's Hessian is not positive "
        "definite (its Cholesky factorization failed): either the dynamics matrix M + h·D is "
        "not positive definite, or the problem data (state, actuation, contact data) holds "
        f"NaN values. {_NAN_CAUSE}",
    }
    return RuntimeError(messages[status])


def cliques(plant):
    """(per velocity, per body) the clique: the trees (subtrees of World's children) with
    dofs, numbered in order; a body's clique is its tree's (−1 without dofs)."""
    clique = np.zeros(plant._nv, dtype=np.int64)
    mobod_clique = np.full(len(plant._topology.mobods), -1, dtype=np.int64)
    v_end = plant._engine.tables.v_end
    count = 0
    for k, mobod in enumerate(plant._topology.mobods[1:], start=1):
        if mobod.parent != 0:
            mobod_clique[k] = mobod_clique[mobod.parent]  # (parents come first)
        elif v_end[k] > mobod.v_start:
            clique[mobod.v_start : v_end[k]] = count
            mobod_clique[k] = count
            count += 1
    return clique, mobod_clique[plant._topology.mobod_of_body]


class SapProblem:
    """A SAP problem's arrays (kernels.sap) of capacities ``sizes`` (a _layout.SapSizes):
    the table ``si`` (int64) and workspace ``sw``, with numpy views ``table`` and ``work``;
    its settings are the time step ``h`` and Drake's nominal solver parameters."""

    __slots__ = ("sizes", "si", "sw", "table", "work")

    def __init__(self, sizes, h, clique, locked):
        self.sizes = sizes
        self.si = _layout.build_sap_table(sizes)
        self.sw = np.zeros(_layout.SAP_WORKSPACE.size(sizes))
        self.table = _layout.SAP_TABLE.views(self.si, sizes)
        self.work = _layout.SAP_WORKSPACE.views(self.sw, sizes)
        self.work.settings[:] = (h,) + _layout.SAP_DEFAULT_SETTINGS
        self.table.clique[:] = clique
        self.table.locked[:] = locked

    def statistics(self):
        """The last solve's statistics, by name (_layout.SAP_STATS)."""
        return dict(zip(SAP_STATS, self.work.stats.tolist(), strict=True))


class BodyConstraints:
    """The active constraints between bodies of a Context's parameters, as
    kernels.body_constraints.drive_body_constraints and kernels.sap.
    sap_add_holonomic_constraints take them: ``table`` (kind, mobods of A and B, first row),
    ``X`` (X_AP, X_BQ), ``lengths`` (a distance's free length), ``rows`` (equations, cliques)
    and ``par`` (γ bounds, stiffness, relaxation time, β) per constraint; ``on_A``, ``on_B``
    (num_bodies × rows): 1 where a row's body A (B) is that body; the double outputs (J, g,
    U) and scratch J_AB."""

    __slots__ = ("table", "X", "lengths", "rows", "par", "on_A", "on_B", "J_AB", "J", "g", "U")

    def __init__(self, table, X, lengths, rows, par, bodies, num_bodies, nv):
        self.table, self.X, self.lengths, self.rows, self.par = table, X, lengths, rows, par
        nk = bodies.shape[0]
        self.on_A, self.on_B = np.zeros((num_bodies, nk)), np.zeros((num_bodies, nk))
        self.on_A[bodies[:, 0], np.arange(nk)] = 1.0
        self.on_B[bodies[:, 1], np.arange(nk)] = 1.0
        self.J_AB, self.J, self.g, self.U = self.outputs(np.float64, nv)

    def outputs(self, dtype, nv):
        """New (J_AB, J, g, U) arrays of scalar ``dtype``."""
        nk = self.on_A.shape[1]
        return tuple(np.zeros(shape, dtype=dtype) for shape in ((2, 6, nv), (nk, nv), (nk,),
                                                                (nk, 2, 6)))  # fmt: skip

    def forces(self, gamma, U, h):
        """F_BBo_W per body of the impulses ``gamma`` (one per row) over the step h."""
        return (self.on_A @ (gamma[:, None] * U[:, 0]) + self.on_B @ (gamma[:, None] * U[:, 1])) / h


class SapDriver:
    """The SAP step of a finalized discrete plant: the tables of its joint limits and of the
    cliques of its velocities and bodies, fixed at Finalize (as Drake reads the limits then),
    and those of its tendon constraints (made at the first step)."""

    def __init__(self, plant):
        self.plant = plant
        self.clique, self.body_clique = cliques(plant)
        clique = self.clique
        rows, bounds, multi_dof = [], [], []
        for j in plant._joints:
            lower, upper = j.position_lower_limits(), j.position_upper_limits()
            if j.num_positions() == 1 and j.num_velocities() == 1:
                if np.isfinite(lower[0]) or np.isfinite(upper[0]):
                    rows.append((j._v_start, j._q_start, clique[j._v_start]))
                    bounds.append((lower[0], upper[0]))
            elif np.any(lower != -np.inf) or np.any(upper != np.inf):
                multi_dof.append(j.name())
        self.limits = np.array(rows, dtype=np.int64).reshape(-1, 3)
        self.limit_bounds = np.array(bounds, dtype=float).reshape(-1, 2)
        self.multi_dof_limits = multi_dof
        self.no_pd = (np.zeros((0, 3), dtype=np.int64), np.zeros((0, 6)))
        self.couplers = None  # (rows, values) of the couplers, when none is inactive
        self.constrained = plant.num_constraints() > 0  # (constraints are added before)
        self.tendons = None  # the tendon constraints' tables (see _tendon_tables)

    def may_constrain(self):
        """Whether a step may have constraints other than contact: joint limits, constraints
        the user added or PD-controlled actuators (else, out of contact, v = v* without a
        problem)."""
        return bool(self.limits.size or self.constrained or self.plant._pd_tables())

    def _problem(self, ec, parameters, contacts=0):
        """The SapProblem of the Context of ``ec`` and its BodyConstraints (or None), made at
        its first step and again when its parameters change (they hold the locks, the active
        constraints and the distance constraints' parameters) or a step has more than the
        ``contacts`` it has room for (room for twice as many then)."""
        problem = ec.lookup("sap_problem", 0)
        if problem is not None and problem[2] < contacts:
            problem = None
            contacts = 2 * contacts
        if problem is None:
            plant = self.plant
            inactive = parameters.inactive_constraints
            bodies = self._body_constraints(parameters)
            nl = self.limits.shape[0]
            nu = sum(a.has_controller() for a in plant._actuators)
            ncp = sum(i not in inactive for i in plant._coupler_constraints)
            nt = sum(i not in inactive for i in plant._tendon_constraints)
            nb, nkb = (0, 0) if bodies is None else (bodies.rows.shape[0], bodies.J.shape[0])
            sizes = _layout.SapSizes(
                plant._nv,
                3 * contacts + 2 * nl + nu + ncp + nkb + 2 * nt,
                contacts + nl + nu + ncp + nb + nt,
            )
            locked = np.zeros(plant._nv, dtype=np.int64)
            for j in np.flatnonzero(parameters.locked):
                joint = plant._joints[j]
                locked[joint._v_start : joint._v_start + joint.num_velocities()] = 1
            problem = SapProblem(sizes, plant._time_step, self.clique, locked)
            problem = ec.store("sap_problem", 0, (problem, bodies, contacts))
        return problem[:2]

    def _constraint_cliques(self, kind, body_A, body_B):
        """(clique0, clique1) of a constraint between ``body_A`` and ``body_B`` (Drake's: one
        clique if one body's tree has no dofs or both are in one tree)."""
        cA, cB = self.body_clique[int(body_A.index())], self.body_clique[int(body_B.index())]
        if cA < 0 and cB < 0:
            raise RuntimeError(
                f"Creating a {_KIND_NAMES[kind]} between bodies '{body_A.name()}' and "
                f"'{body_B.name()}' where both are welded to the world is not allowed."
            )
        if cA < 0 or cB < 0 or cA == cB:
            return max(cA, cB), -1
        return cA, cB

    def _body_constraints(self, parameters):
        """The BodyConstraints of the active distance (their parameters in ``parameters``),
        ball and weld constraints, or None."""
        plant = self.plant
        inactive = parameters.inactive_constraints
        table, X, lengths, rows, par, bodies = [], [], [], [], [], []
        first = 0
        inf = np.inf
        for attribute, kind in _BODY_KINDS:
            specs = getattr(plant, attribute)
            if kind == DISTANCE_CONSTRAINT:
                specs = parameters.distance_constraints
            for constraint_id, spec in specs.items():
                if constraint_id in inactive:
                    continue
                if kind == DISTANCE_CONSTRAINT:
                    A, B = spec.bodyA(), spec.bodyB()
                    X_AP = pose_array(np.eye(3), spec.p_AP())
                    X_BQ = pose_array(np.eye(3), spec.p_BQ())
                    k, d = spec.stiffness(), spec.damping()
                    values, length = (-inf, inf, k, d / k, _BETA), spec.distance()
                else:
                    A, B = spec.body_A, spec.body_B
                    if kind == WELD_CONSTRAINT:
                        X_AP = pose_array(spec.X_AP.rotation().matrix(), spec.X_AP.translation())
                        X_BQ = pose_array(spec.X_BQ.rotation().matrix(), spec.X_BQ.translation())
                    else:
                        X_AP = pose_array(np.eye(3), spec.p_AP)
                        X_BQ = pose_array(np.eye(3), spec.p_BQ)
                    values, length = (-inf, inf, inf, 0.0, _BETA), 0.0
                body_A, body_B = plant.get_body(A), plant.get_body(B)
                m = BODY_CONSTRAINT_EQUATIONS[kind]
                mobods = plant._topology.mobod_of_body[[int(A), int(B)]]
                table.append((kind, *mobods, first))
                X.append((X_AP, X_BQ))
                lengths.append(length)
                rows.append((m, *self._constraint_cliques(kind, body_A, body_B)))
                par.append(values)
                bodies += [(int(A), int(B))] * m
                first += m
        if not table:
            return None
        return BodyConstraints(
            np.array(table, dtype=np.int64),
            np.array(X, dtype=float),
            np.array(lengths, dtype=float),
            np.array(rows, dtype=np.int64),
            np.array(par, dtype=float),
            np.array(bodies, dtype=np.int64),
            plant.num_bodies(),
            plant._nv,
        )

    def _body_kinematics(self, context, ec, bodies, x):
        """(J, g, U) of ``bodies`` at the state x of ``context`` (the scalar type of its
        workspace), by kernels.body_constraints."""
        plant = self.plant
        model = plant._engine
        if ec.ws.dtype == np.float64:
            J_AB, J, g, U = bodies.J_AB, bodies.J, bodies.g, bodies.U
        else:
            J_AB, J, g, U = bodies.outputs(object, plant._nv)
        need = model.need(ec, context, POSITIONS)
        status = ec.kernels.drive_body_constraints(
            model.mi, model.mf, x, ec.ws, need, bodies.table, bodies.X, bodies.lengths, J_AB,
            J, g, U, ec.kernels.address("stages_at"),
        )  # fmt: skip
        model.mark(ec, context, need)
        if status >= 0:
            row = bodies.table[status, 3]
            length = bodies.lengths[status]
            distance = float(values_or_none(g[row : row + 1])[0]) + length
            raise RuntimeError(
                f"The distance is {_fmt(distance)}. This is nonphysically small when compared "
                f"to the free length of the constraint, {_fmt(length)}. "
            )
        return J, g, U

    def _tendon_tables(self):
        """Per tendon constraint: its id, v slots, q slots, coefficients (in the order of its
        trees' dofs), the number of them in its first tree, its rows of J (per finite limit),
        cliques and SAP parameters; the limits (lower, upper) and offset."""
        plant = self.plant
        tables = []
        for constraint_id, spec in plant._tendon_constraints.items():
            joints = [plant.get_joint(j) for j in spec.joints]
            trees = []
            for joint in joints:
                c = self.clique[joint._v_start]
                if c not in trees:
                    trees.append(c)
                if len(trees) > 2:
                    raise RuntimeError(
                        "Creating a tendon constraint for a set of joints that belong to more "
                        "than two kinematic trees is not allowed."
                    )
            order = sorted(
                range(len(joints)),
                key=lambda i: (trees.index(self.clique[joints[i]._v_start]), joints[i]._v_start),
            )
            iv = np.array([joints[i]._v_start for i in order], dtype=np.int64)
            iq = np.array([joints[i]._q_start for i in order], dtype=np.int64)
            a = np.array([spec.a[i] for i in order], dtype=float)
            first = sum(self.clique[v] == trees[0] for v in iv)
            limits = [x for x in (spec.lower_limit, spec.upper_limit) if np.isfinite(x)]
            J = np.zeros((len(limits), plant._nv))
            if np.isfinite(spec.lower_limit):
                J[0, iv] = a
            if np.isfinite(spec.upper_limit):
                J[-1, iv] = -a
            k = spec.stiffness
            cliques = (trees[0], trees[1] if len(trees) > 1 else -1)
            tables.append((
                constraint_id, iq, a, first, J, (len(limits), *cliques),
                (0.0, np.inf, k, spec.damping / k, _BETA),
                (spec.lower_limit, spec.upper_limit), spec.offset,
            ))  # fmt: skip
        return tables

    def _tendon_rows(self, parameters, q):
        """(rows, J, g, par) of the active tendon constraints violated at q (the scalar type
        of q, as Drake's SapTendonConstraint: l0 = a·q + offset; g = l0 − lower, upper − l0
        per finite limit), or None."""
        if self.tendons is None:
            self.tendons = self._tendon_tables()
        inactive = parameters.inactive_constraints
        rows, Js, gs, pars = [], [], [], []
        for constraint_id, iq, a, first, J, row, values, limits, offset in self.tendons:
            if constraint_id in inactive:
                continue
            terms = a * q[iq]
            l0 = terms[:first].sum() + offset
            if first < len(terms):
                l0 = l0 + terms[first:].sum()
            g = [l0 - limits[0]] if np.isfinite(limits[0]) else []
            if np.isfinite(limits[1]):
                g.append(limits[1] - l0)
            if not any(scalar_value(gi) < 0.0 for gi in g):
                continue  # (Drake adds it only when violated at q0)
            rows.append(row)
            Js.append(J)
            gs += g
            pars.append(values)
        if not rows:
            return None
        return (np.array(rows, dtype=np.int64), np.concatenate(Js), np.array(gs),
                np.array(pars))  # fmt: skip

    def _pd_rows(self, context, u):
        """(rows, values) of the PD controllers (see kernels.sap.sap_add_joint_constraints),
        and the input slots of their actuators, for the actuation input ``u``."""
        plant = self.plant
        s, iq, iv, kp, kd, q_d, v_d = plant._pd_controllers(context)
        if not s.size:
            return self.no_pd + (s,)
        rows = np.empty((s.size, 3), dtype=np.int64)
        rows[:, 0], rows[:, 1], rows[:, 2] = iv, iq, self.clique[iv]
        values = np.empty((s.size, 6), dtype=np.result_type(q_d, v_d, u))
        values[:, 0], values[:, 1], values[:, 2] = kp, kd, plant._effort_limits()[s]
        values[:, 3], values[:, 4], values[:, 5] = q_d, v_d, u[s]
        return rows, values, s

    def _coupler_rows(self, parameters):
        """(rows, values) of the active couplers (see sap_add_joint_constraints)."""
        plant = self.plant
        inactive = parameters.inactive_constraints
        if self.couplers is not None and not inactive:
            return self.couplers
        rows, values = [], []
        for spec in plant._coupler_constraints.values():
            if spec.id in inactive:
                continue
            j0, j1 = plant.get_joint(spec.joint0_index), plant.get_joint(spec.joint1_index)
            rows.append(
                (j0._v_start, j1._v_start, j0._q_start, j1._q_start)
                + (self.clique[j0._v_start], self.clique[j1._v_start])
            )
            values.append((spec.gear_ratio, spec.offset))
        couplers = (
            np.array(rows, dtype=np.int64).reshape(-1, 6),
            np.array(values, dtype=float).reshape(-1, 2),
        )
        if not inactive:
            self.couplers = couplers
        return couplers

    def step(self, context, q0, v0, v_star, contacts=None):
        """(v, net actuation, constraint forces) of the SAP step from ``context`` (its state
        [q0; v0] and free-motion velocities ``v_star``) with the step's ``contacts``
        (plant._contact._DiscreteContacts, or None; given their impulses): the velocities,
        the actuation applied (the effort-limited input u, the PD-controlled actuators' from
        their constraints' impulses) and the spatial forces F_BBo_W per body of the
        constraints between bodies (None without them). AutoDiffXd scalars: the problem
        solved in double, v differentiated as Drake's SapSolver<AutoDiffXd> does (see
        :meth:`_differentiate`)."""
        plant = self.plant
        if self.multi_dof_limits:
            raise RuntimeError(
                "Limits for joints with more than one degree of freedom are not supported. You "
                "are getting this exception because a new joint type must have been "
                "introduced. SapDriver::AddLimitConstraints() must be updated to support this "
                "feature. Please file an issue at https://github.com/RobotLocomotion/drake."
            )
        u, net = plant._actuation(context), plant._limited_actuation(context)
        if not (self.may_constrain() or contacts):
            return v_star.copy(), net, None  # (no constraint can apply)
        ec = plant._engine.cache(context)
        parameters = plant._parameters(context)
        problem, bodies = self._problem(ec, parameters, len(contacts) if contacts else 0)
        pd_rows, pd_values, pd_inputs = self._pd_rows(context, u)
        couplers = self._coupler_rows(parameters)
        autodiff = v_star.dtype != np.float64
        value = values_or_none if autodiff else lambda a: a
        compiled = kernels(np.float64)
        problem.table.counts[:] = 0
        problem.work.v_star[:] = value(v_star)
        if contacts:  # (first, as Drake)
            compiled.sap_add_contact_constraints(
                problem.si, problem.sw, contacts.kind, contacts.cliques, value(contacts.J),
                value(contacts.phi0), value(contacts.par),
            )  # fmt: skip
        count = compiled.sap_add_joint_constraints(
            problem.si,
            problem.sw,
            value(q0),
            value(v0),
            self.limits,
            self.limit_bounds,
            pd_rows,
            value(pd_values),
            *couplers,
        )
        # The holonomic constraints (rows, J, g, par), in the Context's scalar type.
        holonomic, first_body_row, U = [], 0, None
        x = plant._x_of(context._state)
        if bodies is not None:
            J, g, U = self._body_kinematics(context, ec, bodies, x)
            first_body_row = problem.table.counts[1]
            holonomic.append((bodies.rows, J, g, bodies.par))
        tendons = self._tendon_rows(parameters, q0) if plant._tendon_constraints else None
        if tendons is not None:
            holonomic.append(tendons)
        for rows, J, g, par in holonomic:
            count = compiled.sap_add_holonomic_constraints(
                problem.si, problem.sw, rows, value(J), value(g), par
            )
        if count == 0:
            return v_star.copy(), net, None
        h = plant._time_step
        if autodiff:
            M = plant.CalcMassMatrix(context)
        else:
            model = plant._engine
            need = model.need(ec, context, POSITIONS | INERTIAS)
            ec.kernels.drive_mass_matrix(
                model.mi, model.mf, x, ec.ws, need, ec.kernels.address("stages_at")
            )
            model.mark(ec, context, need)
            M = ec.work.M
        diagonal = h * ec.params.damping
        problem.work.v[:] = value(v0)
        solver = compiled.address("sap_solve_at")
        status = compiled.sap_solve(problem.si, problem.sw, value(M), value(diagonal), solver)
        if status != _layout.SAP_SUCCESS:
            raise _failure(status, scalar_value(context.get_time()))
        v, gamma = problem.work.v.copy(), problem.work.gamma
        if autodiff:
            arguments = (q0, v0, pd_rows, pd_values, couplers, holonomic, M, diagonal)
            impulses = pd_inputs.size > 0 or U is not None or bool(contacts)
            v, gamma = self._differentiate(problem, v_star, impulses, contacts, *arguments)
        if contacts:
            contacts.solved(gamma[: 3 * len(contacts)], v, h)
        if pd_inputs.size:
            table = problem.table.constraints[: problem.table.counts[0]]
            starts = table[table[:, SAP_KIND] == SAP_PD_CONTROLLER, SAP_START]
            net = net.astype(gamma.dtype)
            net[pd_inputs] = gamma[starts] / h
        forces = None
        if U is not None:
            forces = bodies.forces(gamma[first_body_row : first_body_row + U.shape[0]], U, h)
        return v, net, forces

    def _differentiate(self, problem, v_star, impulses, contacts, q0, v0, pd_rows, pd_values,
                       couplers, holonomic, M, diagonal):  # fmt: skip
        """(v, γ) of AutoDiffXd scalars from the solution v in double of ``problem`` (built
        from their values): as Drake's SapSolver<AutoDiffXd>, the implicit function theorem
        on the optimality condition m(v; θ) = ∇ℓ(v; θ) = 0 gives the participating
        velocities' derivatives dv/dθ = −H⁻¹·∂m/∂θ, ∂m/∂θ evaluated with the problem's data
        of AutoDiffXd scalars at v (kernels.sap.sap_gradient, interpreted); the others are
        v*'s. γ at v(θ) if ``impulses`` (else the double γ). The step's ``contacts`` (their J,
        φ0 and parameters of AutoDiffXd scalars) come first, as in the double problem."""
        from mallard.autodiffutils import ExtractGradient, InitializeAutoDiff

        sizes = problem.sizes
        si = problem.si.copy()
        sw = problem.sw.astype(object)
        table = _layout.SAP_TABLE.views(si, sizes)
        work = _layout.SAP_WORKSPACE.views(sw, sizes)
        table.counts[:] = 0
        work.v_star[:] = v_star
        interpreted = kernels(object)
        if contacts:
            interpreted.sap_add_contact_constraints(
                si, sw, contacts.kind, contacts.cliques, contacts.J, contacts.phi0, contacts.par
            )
        interpreted.sap_add_joint_constraints(
            si, sw, q0, v0, self.limits, self.limit_bounds, pd_rows, pd_values, *couplers
        )
        for rows, J, g, par in holonomic:
            interpreted.sap_add_holonomic_constraints(si, sw, rows, J, g, par)
        work.v[:] = problem.work.v
        n = interpreted.sap_gradient(si, sw, M, diagonal)
        H = values_or_none(work.H[:n, :n])
        dm_dtheta = ExtractGradient(work.grad[:n])
        dv_dtheta = -np.linalg.solve(H, dm_dtheta) if dm_dtheta.size else dm_dtheta
        v = v_star.copy()
        v[table.participating[:n]] = InitializeAutoDiff(
            problem.work.v[table.participating[:n]], gradient=dv_dtheta
        ).reshape(-1)
        if not impulses:
            return v, problem.work.gamma
        work.v[:] = v
        interpreted.sap_gradient(si, sw, M, diagonal)
        return v, work.gamma_p


def _fmt(x):
    """A double as Drake's messages print it (fmt's shortest form, no trailing ".0")."""
    text = repr(float(x))
    return text.removesuffix(".0") if "e" not in text else text
