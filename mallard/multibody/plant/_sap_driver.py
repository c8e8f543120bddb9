"""A discrete plant's step through Drake's SAP solver (kernels.sap), its problem built as
Drake's SapDriver builds it for the constraints that need no geometry.

The problem of a step from x0 = [q0; v0] (SapDriver::CalcContactProblemCache):

* the dynamics matrix A = M(q0) + h·D (joint damping implicit) and the free-motion velocities
  v* = v0 + h·v̇* (the plant's ``_free_motion``), per clique: a kinematic tree with dofs;
* constraints, in Drake's order: joint limits of the single-dof joints whose limit is within
  q0 ± 2·h·max(|v0|, |v*|) (stiffness 1e12, dissipation time scale h, near-rigid β = 0.1), the
  PD-controlled actuators (their model instance's desired state set, joint not locked;
  effort limits), the active couplers;
* locked joints: their velocities are known (v = v*, held by the free motion), as in Drake's
  reduced problem.

Contact constraints (Drake adds them first) come from geometry: their source appends their rows
(a kernel like kernels.sap.sap_add_joint_constraints, kind FRICTION_CONE) before this driver's
in :meth:`SapDriver.step`, and the problem's capacities grow by theirs (:meth:`_problem`).
"""

import numpy as np

from mallard._compiled import kernels
from mallard._scalar import values_or_none
from mallard.multibody import _layout
from mallard.multibody._layout import (
    INERTIAS,
    POSITIONS,
    SAP_KIND,
    SAP_START,
    SAP_STATS,
)

_PD_CONTROLLER = 1  # (kernels.sap's kind)

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
        "definite (its Cholesky factorization failed): the dynamics matrix M + h·D is not "
        "positive definite.",
    }
    return RuntimeError(messages[status])


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


class SapDriver:
    """The SAP step of a finalized discrete plant: the tables of its joint limits and of the
    cliques of its velocities, fixed at Finalize (as Drake reads the limits then)."""

    def __init__(self, plant):
        self.plant = plant
        nv = plant._nv
        # Cliques: the trees (subtrees of World's children) with dofs, numbered in order.
        clique = np.zeros(nv, dtype=np.int64)
        v_end = plant._engine.tables.v_end
        count = 0
        for k, mobod in enumerate(plant._mobods[1:], start=1):
            if mobod.parent == 0 and v_end[k] > mobod.v_start:
                clique[mobod.v_start : v_end[k]] = count
                count += 1
        self.clique = clique
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

    def _problem(self, ec, parameters):
        """The SapProblem of the Context of ``ec`` (made at its first step, and again when
        its parameters change: it holds the locks)."""
        problem = ec.lookup("sap_problem", 0)
        if problem is None:
            plant = self.plant
            nl = self.limits.shape[0]
            nu = sum(a.has_controller() for a in plant._actuators)
            nc = nl + nu + len(plant._coupler_constraints)
            sizes = _layout.SapSizes(plant._nv, 2 * nl + nu + len(plant._coupler_constraints), nc)
            locked = np.zeros(plant._nv, dtype=np.int64)
            for j in np.flatnonzero(parameters.locked):
                joint = plant._joints[j]
                locked[joint._v_start : joint._v_start + joint.num_velocities()] = 1
            problem = ec.store(
                "sap_problem", 0, SapProblem(sizes, plant._time_step, self.clique, locked)
            )
        return problem

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

    def step(self, context, q0, v0, v_star):
        """(v, net actuation, problem) of the SAP step from ``context`` (its state [q0; v0]
        and free-motion velocities ``v_star``): the velocities, the actuation applied (the
        effort-limited input u, the PD-controlled actuators' from their constraints'
        impulses) and the SapProblem solved (None without constraints, where v = v*).
        AutoDiffXd scalars: the problem solved in double, v differentiated as Drake's
        SapSolver<AutoDiffXd> does (see :meth:`_differentiate`)."""
        plant = self.plant
        if self.multi_dof_limits:
            raise RuntimeError(
                "Limits for joints with more than one degree of freedom are not supported. You "
                "are getting this exception because a new joint type must have been "
                "introduced. SapDriver::AddLimitConstraints() must be updated to support this "
                "feature. Please file an issue at https://github.com/RobotLocomotion/drake."
            )
        u, limits = plant._actuation(context), plant._effort_limits()
        net = np.minimum(np.maximum(u, -limits), limits) if u.size else u
        if not (self.limits.size or plant._coupler_constraints or plant._pd_tables()):
            return v_star.copy(), net, None  # (no constraint can apply)
        ec = plant._engine.cache(context)
        parameters = plant._parameters(context)
        problem = self._problem(ec, parameters)
        pd_rows, pd_values, pd_inputs = self._pd_rows(context, u)
        couplers = self._coupler_rows(parameters)
        autodiff = v_star.dtype != np.float64
        value = values_or_none if autodiff else lambda a: a
        compiled = kernels(np.float64)
        problem.table.counts[:] = 0
        problem.work.v_star[:] = value(v_star)
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
        if count == 0:
            return v_star.copy(), net, None
        h = plant._time_step
        if autodiff:
            M = plant.CalcMassMatrix(context)
        else:
            model = plant._engine
            need = model.need(ec, context, POSITIONS | INERTIAS)
            x = plant._x_of(context._state)
            ec.kernels.drive_mass_matrix(model.mi, model.mf, x, ec.ws, need)
            model.mark(ec, context, need)
            M = ec.work.M
        diagonal = h * ec.params.damping
        problem.work.v[:] = value(v0)
        status = compiled.sap_solve(problem.si, problem.sw, value(M), value(diagonal))
        if status != _layout.SAP_SUCCESS:
            raise _failure(status, context.get_time())
        v, gamma = problem.work.v.copy(), problem.work.gamma
        if autodiff:
            arguments = (q0, v0, pd_rows, pd_values, couplers, M, diagonal)
            v, gamma = self._differentiate(problem, v_star, pd_inputs.size > 0, *arguments)
        if pd_inputs.size:
            table = problem.table.constraints[: problem.table.counts[0]]
            starts = table[table[:, SAP_KIND] == _PD_CONTROLLER, SAP_START]
            net = net.astype(gamma.dtype)
            net[pd_inputs] = gamma[starts] / h
        return v, net, problem

    def _differentiate(self, problem, v_star, impulses, q0, v0, pd_rows, pd_values, couplers, M,
                       diagonal):  # fmt: skip
        """(v, γ) of AutoDiffXd scalars from the solution v in double of ``problem`` (built
        from their values): as Drake's SapSolver<AutoDiffXd>, the implicit function theorem
        on the optimality condition m(v; θ) = ∇ℓ(v; θ) = 0 gives the participating
        velocities' derivatives dv/dθ = −H⁻¹·∂m/∂θ, ∂m/∂θ evaluated with the problem's data
        of AutoDiffXd scalars at v (kernels.sap.sap_gradient, interpreted); the others are
        v*'s. γ at v(θ) if ``impulses`` (else the double γ)."""
        from mallard.autodiffutils import ExtractGradient, InitializeAutoDiff

        sizes = problem.sizes
        si = problem.si.copy()
        sw = problem.sw.astype(object)
        table = _layout.SAP_TABLE.views(si, sizes)
        work = _layout.SAP_WORKSPACE.views(sw, sizes)
        table.counts[:] = 0
        work.v_star[:] = v_star
        interpreted = kernels(object)
        interpreted.sap_add_joint_constraints(
            si, sw, q0, v0, self.limits, self.limit_bounds, pd_rows, pd_values, *couplers
        )
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
