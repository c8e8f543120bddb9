"""What BatchedPlant.Rollout needs of its plant, checked once: how it steps (the discrete
plant's step, or an explicit integrator for a continuous plant), the parameters its kernel
runs with (kernels.rollouts), and what it refuses."""

from types import SimpleNamespace

import numpy as np

from mallard._compiled import kernels
from mallard.multibody._batch_codes import (
    DISCRETE_STEP,
    EXPLICIT_EULER,
    KINDS,
    NOT_POSITIVE_DEFINITE,
    RUNGE_KUTTA2,
    RUNGE_KUTTA3,
    ZERO_QUATERNION,
)
from mallard.multibody._batch_run import Operation
from mallard.multibody._layout import PARAMETERS, SapSizes
from mallard.multibody._welded_composites import merge_welded_bodies
from mallard.multibody.plant._stepping import (
    contact_geometry,
    found_arrays,
    no_geometry,
    pair_addresses,
)

#: The explicit integrators a continuous plant's rollout takes, by the names of
#: SimulatorConfig.integration_scheme (their fixed-step forms, as the Simulator's
#: ExplicitEulerIntegrator, RungeKutta2Integrator and RungeKutta3Integrator with fixed steps).
INTEGRATORS = {
    "explicit_euler": EXPLICIT_EULER,
    "runge_kutta2": RUNGE_KUTTA2,
    "runge_kutta3": RUNGE_KUTTA3,
}


class RolloutPlan:
    """The rollout of one BatchedPlant: its discrete step (``scheme`` DISCRETE_STEP, step
    ``h`` the plant's time step, parameters ``ws0`` with the free motion's reflected
    inertias, and for a SAP plant with joint limits the SAP problem of a state, see
    :meth:`_sap_limits`) or, for a continuous plant, ``ws0`` as BatchedPlant's. ``sap``: the
    kernel's arguments (limits, bounds, reflected0, diagonal, n_si, n_sw, the address of SAP's
    compiled solver (kernels.sap.solve), those of the pair kernel and the penetration
    (kernels.discrete_step.find_point_pairs, (0, 0) without contact), that of the step's
    velocities (kernels.step_velocities.sap_velocities_at, 0 without contact); no limits: none, 0
    for the addresses;
    then the contact tables of kernels.discrete_step, without geometry). The model the
    kernel runs on (``mi``, ``mf``, ``sizes``, ``ws0``): without contact, the plant's with
    its welded bodies merged into composites (_welded_composites, ``mobods`` the plant's
    mobod of each of its mobods), else the plant's (``mobods`` None).
    Raises NotImplementedError for what rollouts do not take yet."""

    def __init__(self, batched):
        plant = batched._plant
        self.discrete = plant.time_step() > 0
        self.ws0 = batched._ws0
        nv = plant.num_velocities()
        self.sap = (np.zeros((0, 3), np.int64), np.zeros((0, 2)), np.zeros(nv), np.zeros(nv), 0, 0)
        self.sap += (0, (0, 0), 0)  # (no SAP: no solver's address, no pair kernel's, ...)
        # (the contact tables of kernels.discrete_step: without geometry, none)
        self.sap += (no_geometry(np.zeros(plant.num_bodies(), np.int64)), 0)
        #: The contact scratch's slots in a row (kernels.discrete_step.found_views carves it;
        #: with contact, then the step's velocities' block: kernels.rollouts).
        self.found_size = sum(a.size for a in found_arrays(0, 0, 0, 0, 0, nv))
        self.si = self.sw = None
        locked = PARAMETERS.views(self.ws0, batched._sizes).locked
        if np.any(locked):
            raise NotImplementedError(
                "BatchedPlant.Rollout(): locked joints are not supported by rollouts yet (the "
                "Context the BatchedPlant was made from has locked joints)"
            )
        contact = plant.num_collision_geometries() > 0
        if contact and not (self.discrete and not plant._uses_tamsi()):
            raise NotImplementedError(
                f"BatchedPlant.Rollout(): the plant has {plant.num_collision_geometries()} "
                "collision geometries; rollouts compute point contact for discrete plants "
                "through SAP (the kSap, kSimilar and kLagged approximations), not for "
                f"{'TAMSI' if self.discrete else 'continuous plants'} (the Simulator does)"
            )
        plant._throw_if_continuous_with_constraints()
        if not self.discrete:
            self._check_pd(plant, "its forward dynamics")
        else:
            self.h, self.scheme = plant.time_step(), DISCRETE_STEP
            self._check_discrete(plant)
            if not plant._uses_tamsi():  # SAP's free motion: joint damping implicit, M + h·D
                self.ws0 = self.ws0.copy()
                params = PARAMETERS.views(self.ws0, batched._sizes)
                reflected0 = params.reflected.copy()
                params.reflected[:] += self.h * params.damping
                if plant._sap_driver.limits.size or contact:
                    self._sap_limits(plant, reflected0, self.h * params.damping, contact)
        self.mi, self.mf, self.sizes, self.mobods = batched._mi, batched._mf, batched._sizes, None
        merged = None if contact else merge_welded_bodies(batched._engine, self.ws0)
        if merged is not None:  # (contact: the geometry sits on the plant's bodies)
            self.mi, self.mf, self.ws0, self.sizes, self.mobods = merged

    def plant_codes(self, codes):
        """The status codes of a rollout of the merged model (see ``mobods``) with the mobods
        they name (a zero quaternion's, an articulated inertia's) the plant's, in place."""
        if self.mobods is None:
            return codes
        kinds = codes % KINDS
        named = (kinds == ZERO_QUATERNION) | (kinds == NOT_POSITIVE_DEFINITE)
        codes[named] = kinds[named] + KINDS * self.mobods[codes[named] // KINDS]
        return codes

    def _sap_limits(self, plant, reflected0, diagonal, contact):
        """The SAP problem of a step of a plant with joint limits or point contact (its
        SapDriver's limits and cliques; A = M + h·D, M with the reflected inertias
        ``reflected0``; with ``contact``, room for a contact per allowed pair): the table
        ``si`` and workspace ``sw`` each row of the kernel ends with (RolloutOperation), and
        the contact tables (:meth:`_contact_tables`)."""
        from mallard.multibody._kernels.step_velocities import STEP_BLOCK
        from mallard.multibody.plant._sap_driver import SapProblem

        driver = plant._sap_driver
        if driver.multi_dof_limits:
            raise NotImplementedError(
                f"BatchedPlant.Rollout(): joint '{driver.multi_dof_limits[0]}' has limits on "
                "more than one degree of freedom, which the plant's SAP step does not take"
            )
        nv, nl = plant.num_velocities(), driver.limits.shape[0]
        geometry, room = self.sap[9:]
        if contact:
            geometry, room = self._contact_tables(plant)
            ng, nf = geometry[0].shape[0], geometry[3].shape[0]
            found = sum(a.size for a in found_arrays(ng, nf, room, 0, 0, nv))
            self.found_size = found + STEP_BLOCK
        locked = np.zeros(nv, dtype=np.int64)
        sizes = SapSizes(nv, 2 * nl + 3 * room, nl + room)
        problem = SapProblem(sizes, self.h, driver.clique, locked)
        self.si, self.sw = problem.si, problem.sw
        self.sap = (
            driver.limits,
            driver.limit_bounds,
            reflected0,
            diagonal,
            self.si.size,
            self.sw.size,
            kernels(np.float64).address("sap_solve_at"),
            pair_addresses(kernels(np.float64), contact),
            kernels(np.float64).address("sap_velocities_at") if contact else 0,
            geometry,
            room,
        )

    @staticmethod
    def _contact_tables(plant):
        """(kernels.discrete_step's geometry tuple, the room for contacts: one per pair the
        filters allow) of the plant in its SceneGraph, with the SceneGraph's own collision
        filters; NotImplementedError for geometry that is not the plant's (or World's) and
        for the pairs whose contact the plant's step raises for (hydroelastic, invalid
        properties)."""
        sg = plant._geometry_link.scene_graph
        model = sg._proximity_model()
        allowed = model.allowed(sg, sg._filters)
        query = SimpleNamespace(_sg=sg, inspector=sg.model_inspector)  # (what the table reads)
        table = plant._contact_table(query, model)
        geometry = contact_geometry(plant, sg, model, allowed, table)
        if geometry is None:
            raise NotImplementedError(
                "BatchedPlant.Rollout(): the plant's SceneGraph has geometry on frames that are "
                "not the plant's bodies: rollouts compute the plant's own contact only"
            )
        bad = np.argwhere(geometry[5] == 2)
        if bad.size:
            names = [sg.model_inspector().GetName(model.ids[g]) for g in bad[0]]
            raise NotImplementedError(
                f"BatchedPlant.Rollout(): the geometries '{names[0]}' and '{names[1]}' may come "
                "into contact, which the plant's step raises for (hydroelastic contact, or "
                "invalid contact properties: see the Simulator's error); rollouts refuse them"
            )
        return geometry, max(int(np.count_nonzero(allowed)), 1)

    @staticmethod
    def _check_pd(plant, what):
        for actuator in plant._actuators:
            if actuator.has_controller():
                raise NotImplementedError(
                    f"BatchedPlant.Rollout(): actuator '{actuator.name()}' has PD controller "
                    f"gains, which {what} leave to the plant's PD controllers, which rollouts "
                    "do not run yet (Rollout's pd_target applies an explicit PD law instead)"
                )

    @staticmethod
    def _check_discrete(plant):
        """NotImplementedError for a discrete plant whose step needs a constraint solve that
        rollouts do not run (SAP's PD controllers and other constraints; TAMSI's joint limit
        penalties; SAP's joint limits they run)."""
        solver = "TAMSI's joint limit penalty forces" if plant._uses_tamsi() else "SAP"
        reason = None
        for joint in plant._joints if plant._uses_tamsi() else ():
            lower, upper = joint.position_lower_limits(), joint.position_upper_limits()
            if np.any(np.isfinite(lower)) or np.any(np.isfinite(upper)):
                reason = f"joint '{joint.name()}' has position limits"
                break
        if reason is None and plant.num_constraints():
            reason = f"it has {plant.num_constraints()} constraint(s) (couplers, ...)"
        if reason is None:
            for actuator in plant._actuators:
                if actuator.has_controller():
                    reason = f"actuator '{actuator.name()}' has PD controller gains"
                    break
        if reason is not None:
            raise NotImplementedError(
                f"BatchedPlant.Rollout(): {reason}, and its discrete step goes through "
                f"{solver}, which rollouts do not run yet; rollouts take the discrete step "
                "of plants without constraints or PD-controlled actuators (SAP: joint limits "
                "included; TAMSI: without joint limits), and continuous plants"
            )


class RolloutOperation(Operation):
    """BatchedPlant's Operation of rollouts: its rows end with the SAP table (its int64 bits)
    and workspace of a RolloutPlan with joint limits or contact, then its contact scratch
    (see kernels.rollouts)."""

    def __init__(self, plan, *args, **options):
        self._plan = plan
        super().__init__(*args, **options)

    def _make_row(self):
        row = super()._make_row()
        plan = self._plan
        if plan.si is not None:
            n_si, n_sw = plan.si.size, plan.sw.size
            base = row.size - n_si - n_sw - plan.found_size
            row[base : base + n_si].view(np.int64)[:] = plan.si
            row[base + n_si : base + n_si + n_sw] = plan.sw
        return row
