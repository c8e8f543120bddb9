"""The plant's side of the Simulator's compiled advance (systems.analysis._compiled_advance):
a PlantStepper steps a plant's state many times in one compiled call
(kernels.stepping): a discrete plant's periodic updates, or a continuous plant's explicit
integration, exactly as the Python path takes them.

It can when everything a step depends on besides the state is fixed for the call: float64
scalars; inputs that do not change between events (the Simulator checks the ports listed in
``input_indices``); no applied spatial force, no force element besides gravity (each needs
Python at every step); no roll-pitch-yaw joint (whose singularities the Python path checks).
A continuous plant: no collision geometry and no PD-controlled actuator with a desired state
(contact forces and PD control are computed in Python). A discrete plant's step is the SAP
solver's (plant._sap_driver's problem, solved compiled: kernels.discrete_step) with point
contact (plant._contact, the geometry query compiled too: ContactTables), joint limits, PD
controllers and couplers; not TAMSI's (its limits are penalty forces computed in Python),
nor with locked joints, deactivated constraints, distance, ball, weld or tendon constraints
(their rows are computed in Python at each step), limits on multi-dof joints (which
SapDriver refuses), or a SceneGraph whose geometry is not all this plant's (or World's), whose
poses do not come from this plant's Context, or whose geometry query port is not connected.
A penetrating pair the Python path raises for (hydroelastic, invalid or foreign geometry), a
failed narrowphase or solver, or more contacts than the tables hold leaves that step to Python
(which raises, or grows the tables). Otherwise the Simulator takes its usual path.
"""

import numpy as np

from mallard._compiled import kernels
from mallard.geometry import _proximity_layout as geometry_layout
from mallard.multibody import _layout
from mallard.multibody._joint_types import PRISMATIC
from mallard.multibody.plant._contact import (
    _RIGID,
    _SOFT,
    _UNDEFINED,
    _DiscreteContacts,
    _PointPairs,
    contact_kind,
)
from mallard.multibody.plant._contact_model import ContactModel
from mallard.multibody.plant._discrete import DiscreteStepMemory
from mallard.multibody.plant._sap_driver import SapProblem
from mallard.systems.framework._events import TriggerType

#: Room for contacts in a step's tables at first (grown as the Python path grows its own).
_FIRST_CONTACTS = 8


class PlantStepper:
    """The compiled stepping of one finalized plant (``plant._compiled_stepper()``)."""

    def __init__(self, plant):
        self.plant = plant
        self.discrete = plant._time_step > 0
        instances = range(plant._instance_inputs_start, plant.num_input_ports())
        self.input_indices = (  # (the input ports a step reads, by index)
            plant._actuation_port._index,
            plant._applied_generalized_force_port._index,
            *instances[0::2],  # (each model instance's actuation)
            plant._applied_spatial_force_port._index,
            *instances[1::2],  # (each one's desired state)
        )
        self.possible = (
            len(plant._force_elements) == 1
            and (self.discrete or not plant.num_collision_geometries())
            and plant._topology.rpy_pitch.size == 0
            and (self.discrete or not plant.num_constraints())
            and not (
                self.discrete
                and (
                    plant._uses_tamsi()
                    or plant._sap_driver.multi_dof_limits
                    or plant.num_constraints() != len(plant._coupler_constraints)
                )
            )
        )
        #: The event the discrete update is (a periodic unrestricted or discrete update).
        self.update_event = None
        if self.discrete:
            handlers = (plant._unrestricted_update, plant._discrete_update)
            (self.update_event,) = [
                e
                for e in plant._events
                if e.handler in handlers and e.trigger == TriggerType.kPeriodic
            ]
        self._inputs = self._ec = None
        #: (si, sw, solver, pairs, at, block, forward) of a discrete step (kernels.discrete_step:
        #: ``solver`` the address of SAP's compiled solver, kernels.sap.solve, ``pairs`` the
        #: pair kernel's and the penetration's, pair_addresses; ``at`` that of the step's
        #: velocities, kernels.step_velocities.sap_velocities_at, and ``block`` its arrays, the
        #: tables held by kernels.step_velocities.hold_tables at each prepare: the stepper's kernels
        #: are compiled; ``forward`` the address of its forward dynamics, kernels.
        #: engine_by_address.forward_dynamics_at), the tables (joints, geometry, found), which
        #: the block's addresses need alive, and the PD-controlled actuators' input slots (for
        #: the net actuation).
        self._constraints = self._tables_held = self._pd_inputs = None
        #: The address of the explicit steps' forward dynamics (_explicit_steps_address).
        self._forward = 0
        self._block = None
        self._scratch = None
        self._empty_problem = None  # (the SAP problem of a plant without constraints)
        self._tables = ContactTables(plant) if self.discrete else None

    def prepare(self, context):
        """Whether the plant's state in ``context`` (its own) can be stepped now; if so, takes
        the inputs (constant for the call)."""
        plant = self.plant
        if not self.possible:
            return False
        ec = plant._engine.cache(context)
        if ec.ws.dtype != np.float64 or (not self.discrete and plant._has_pd_input(context)):
            return False
        if plant._applied_spatial_force_port._value_or_none(context):
            return False
        if self.discrete:
            parameters = plant._parameters(context)
            if parameters.locked.any() or parameters.inactive_constraints:
                return False
            geometry = self._tables.geometry(context)
            if geometry is None:
                return False
            driver = plant._sap_driver
            u = plant._actuation(context)
            pd_rows, pd_values, self._pd_inputs = driver._pd_rows(context, u)
            contact = plant.num_collision_geometries() > 0
            if driver.may_constrain() or contact:
                room = _FIRST_CONTACTS if contact else 0
                found = ec.lookup("sap_problem", 0)
                if found is not None:
                    room = max(room, found[2])
                problem, _ = driver._problem(ec, parameters, room)  # (no bodies: checked)
                room = ec.lookup("sap_problem", 0)[2]
            else:  # (no rows: v⁺ = v*, no problem in the Context's cache, as SapDriver.step)
                room = 0
                problem = self._empty_problem
                if problem is None:
                    sizes = _layout.SapSizes(plant._nv, 0, 0)
                    locked = np.zeros(plant._nv, dtype=np.int64)
                    problem = SapProblem(sizes, plant._time_step, driver.clique, locked)
                    self._empty_problem = problem
            joints = (driver.limits, driver.limit_bounds, pd_rows, pd_values)
            joints += driver._coupler_rows(parameters)
            found = self._tables.scratch(room, problem.sizes.nk, len(self._pd_inputs))
            solver = ec.kernels.address("sap_solve_at")
            pairs = pair_addresses(ec.kernels, contact)
            at = ec.kernels.address("sap_velocities_at")
            tables = self._tables_held = (joints, geometry, found)
            block = self._block
            if block is None:
                from mallard.multibody._kernels.step_velocities import STEP_BLOCK

                block = self._block = np.zeros(STEP_BLOCK, dtype=np.int64)
            ec.kernels.hold_tables(block, *tables)
            forward = ec.kernels.address("forward_dynamics_at")
            self._constraints = (problem.si, problem.sw, solver, pairs, at, block, forward)
        else:
            self._forward = _explicit_steps_address(ec.kernels)
        self._inputs = plant._forward_dynamics_inputs(context, ec)
        self._ec = ec
        return True

    # ---- discrete plants -------------------------------------------------------------------
    def discrete_steps(self, context, t, pending, others, boundary):
        """Iterations of the Simulator's loop (kernels.stepping.drive_discrete_steps) on the
        plant's state in ``context``, after :meth:`prepare`; the Context is told of the new
        state (and, with sampled output ports, of the last update's DiscreteStepMemory).
        Returns (time, pending, iterations, updates, status, the last iteration's start)."""
        plant, ec = self.plant, self._ec
        nq, nv = plant._nq, plant._nv
        scratch = self._scratch
        if scratch is None:
            scratch = self._scratch = np.empty(5 * nv + 2 * nq)
        x = plant._x_of(context._state)
        step_diagonal = plant._time_step * ec.params.damping
        u, tau_in, F_in = self._inputs
        engine = plant._engine
        done = ec.kernels.drive_discrete_steps(
            engine.mi, engine.mf, ec.ws, x, u, tau_in, F_in, step_diagonal, *self._constraints,
            scratch, t, pending, others, boundary, plant._time_step,
            self.update_event.offset_sec,
        )  # fmt: skip
        updates = done[3]
        if updates:
            if plant._use_sampled_output_ports:
                context._state._abstract._values[0]._value = self._memory(context, scratch)
            context._state_changed()
        return done

    def _memory(self, context, scratch):
        """The DiscreteStepMemory of the last update: the state it started from and its
        (v⁺ − v)/h, from ``scratch`` (see drive_discrete_steps), the net actuation (the
        effort-limited input, the PD-controlled actuators' from their impulses) and the
        step's contacts (solved), as SapDriver.step reports them."""
        plant = self.plant
        nq, nv = plant._nq, plant._nv
        start = 3 * nv + nq
        x0 = scratch[start : start + nq + nv].copy()
        vdot = scratch[start + nq + nv :].copy()
        net = plant._limited_actuation(context)
        found = self._tables_held[2]
        h = plant._time_step
        if self._pd_inputs.size:
            net = net.astype(np.float64)
            net[self._pd_inputs] = found[21][: self._pd_inputs.size] / h
        contacts = None
        n = int(found[17][0])
        if n:
            v = plant._x_of(context._state)[nq:]
            contacts = self._tables.contacts(self._ec, x0, found, n)
            contacts.solved(found[20][: 3 * n], v, h)
        generalized, spatial = plant._applied_input_values(context)
        return DiscreteStepMemory(x0, vdot, net, generalized, spatial, None, contacts)

    # ---- continuous plants -----------------------------------------------------------------
    def explicit_steps(self, xc, integrator_arrays, control, counts):
        """Iterations of the Simulator's loop integrating the plant's state ``xc`` (the
        integrator's array) by an explicit scheme (kernels.stepping.drive_explicit_steps),
        after :meth:`prepare`: ``integrator_arrays`` are the integrator's (K, x0, x0_save, err,
        scales, weights, qbar, scratch); ``control`` and ``counts`` its settings and
        statistics, updated. Returns the iterations taken."""
        plant, ec = self.plant, self._ec
        u, tau_in, F_in = self._inputs
        engine = plant._engine
        return ec.kernels.drive_explicit_steps(
            engine.mi, engine.mf, ec.ws, xc, u, tau_in, F_in, self._forward, *integrator_arrays,
            control, counts,
        )  # fmt: skip


def _explicit_steps_address(kernels):
    """The address drive_explicit_steps of ``kernels`` (mallard._compiled.Kernels) takes:
    kernels.engine.forward_dynamics_at's for its code for every joint type, which
    calls it; 0 for a smaller set's (the first of _joint_types.KERNEL_JOINT_TYPES, welds and
    revolute joints: the first ``mallard simulate``'s), which links forward dynamics
    (kernels.stepping._time_derivatives), so that it compiles no code for the other joint
    types there."""
    joint_types = kernels.joint_types
    if joint_types is None or joint_types >> PRISMATIC & 1:
        return kernels.address("forward_dynamics_at")
    return 0


def compiled_stepper(plant):
    """The plant's PlantStepper (made once, after Finalize)."""
    stepper = plant.__dict__.get("_stepper")
    if stepper is None:
        stepper = plant._stepper = PlantStepper(plant)
    return stepper


class ContactTables:
    """A discrete plant's contact tables for kernels.discrete_step (see there): the
    ``geometry`` tuple of a Context's SceneGraph, kept while its proximity model, collision
    filters, contact table and contact settings are the same, and the ``found`` scratch,
    sized by the room for contacts."""

    def __init__(self, plant):
        self.plant = plant
        self._key = (None,)  # (model, allowed, table, contact serial) of self._geometry
        self._geometry = self._model = self._table = None
        self._found = (None, None)  # (its sizes, found)

    def geometry(self, context):
        """The geometry tuple of the plant's Context ``context`` (the settings' kind −1 and no
        geometry for a plant without collision geometry), or None if the compiled step cannot
        take its SceneGraph (see plant._stepping)."""
        plant = self.plant
        if not plant.num_collision_geometries():
            if self._geometry is None:
                self._geometry = no_geometry(plant._sap_driver.body_clique)
            return self._geometry
        from mallard.geometry._query_object import _upstream

        query = plant._geometry_query_port._value_or_none(context)
        if query is None or query._context is None or query._baked is not None:
            return None
        sg, sg_context = query._sg, query._context
        model = sg._proximity_model()
        for source in model.sources:
            system, system_context = _upstream(sg, sg_context, source)
            if system is not plant or system_context is not context:
                return None
        allowed = model.allowed(sg, sg._context_filters(sg_context, mutable=False))
        table = plant._contact_table(query, model)
        key = (model, allowed, table, plant._contact_serial)
        old = self._key
        if len(old) == 4 and all(a is b for a, b in zip(key[:3], old[:3], strict=True)):
            if key[3] == old[3]:
                return self._geometry
        geometry = contact_geometry(plant, sg, model, allowed, table)
        if geometry is None:
            return None
        self._geometry = geometry
        self._key, self._model, self._table = key, model, table
        return self._geometry

    def scratch(self, room, nk, npd):
        """The ``found`` tuple for ``room`` contacts, SAP problems of ``nk`` equations and
        ``npd`` PD controllers (made again when those change)."""
        plant = self.plant
        geometry = self._geometry
        ng, nf, nv = geometry[0].shape[0], geometry[3].shape[0], plant._nv
        sizes = (ng, nf, room, nk, npd)
        if self._found[0] == sizes:
            return self._found[1]
        found = found_arrays(ng, nf, room, nk, npd, nv)
        self._found = (sizes, found)
        return found

    def contacts(self, ec, x0, found, n):
        """The _DiscreteContacts of the last step (from x0) of ``found`` (its n pairs), at the
        positions of x0 (computed in a copy of ec's workspace)."""
        plant = self.plant
        compiled = kernels(np.float64)
        ab, rows = found[18][:n].copy(), found[19][:n].copy()
        bodies, par = np.empty((n, 4), dtype=np.int64), np.empty((n, 7))
        table = self._table
        compiled.contact_pairs(ab, table.body, table.mobod, table.values, bodies, par)
        pairs = _PointPairs(self._model, ab, rows, bodies, par)
        ws = ec.ws.copy()
        engine = plant._engine
        ec.kernels.drive_stages(engine.mi, engine.mf, x0, ws, _layout.POSITIONS)
        return _DiscreteContacts.at(plant, ws, x0, pairs)


def contact_geometry(plant, sg, model, allowed, table):
    """kernels.discrete_step's ``geometry`` tuple of ``plant`` in its SceneGraph ``sg``: the
    proximity ``model``, the filter matrix ``allowed`` (marked with 2 where the Python path
    raises: see there) and the plant's _ContactTable ``table``; None if a geometry is on a
    frame that is not the plant's (or World's)."""
    mobod_of_body = plant._topology.mobod_of_body
    frames = plant._geometry_link.body_frame_ids.items()
    by_frame = {f: int(mobod_of_body[b]) for b, f in frames}
    frame_mobod = np.empty(len(model.frames), dtype=np.int64)
    for i, frame_id in enumerate(model.frames):
        if frame_id == sg._world_frame_id:
            frame_mobod[i] = -1
        elif frame_id in by_frame:
            frame_mobod[i] = by_frame[frame_id]
        else:
            return None
    valid = table.valid & ~(table.values[:, 4] < 0)  # (a negative relaxation time raises)
    bad = ~(valid[:, None] & valid[None, :])
    if plant._contact_model != ContactModel.kPoint:  # (as plant._contact._point_pairs)
        kind_A, kind_B = table.kind[:, None], table.kind[None, :]
        half = table.half[:, None] | table.half[None, :]
        fallback = (
            (kind_A == _UNDEFINED) | (kind_B == _UNDEFINED)
            | ((kind_A == _RIGID) & (kind_B == _RIGID))
            | ((kind_A == _SOFT) & (kind_B == _SOFT) & half)
        )  # fmt: skip
        bad |= ~fallback | (plant._contact_model == ContactModel.kHydroelastic)
    marked = allowed.copy()
    marked[(allowed != 0) & bad] = 2
    approximation = plant.get_discrete_contact_approximation()
    settings = np.array([
        contact_kind(approximation), float(approximation._value == 3),
        plant._sap_near_rigid_threshold, plant._stiction_tolerance,
    ])  # fmt: skip
    return (model.gi, model.gf, model.hv, frame_mobod, model.X_FG, marked, table.body,
            table.mobod, table.values, plant._sap_driver.body_clique, settings)  # fmt: skip


def found_arrays(ng, nf, room, nk, npd, nv):
    """kernels.discrete_step's ``found`` tuple for ng geometries on nf frames, ``room``
    contacts, SAP problems of nk equations, npd PD controllers and nv velocities (the arrays
    kernels.discrete_step.found_views carves from a row, tested alike)."""
    from mallard.multibody._kernels.discrete_step import HELD, PAIR_ARRAYS

    P = max(ng * (ng - 1) // 2, 1)
    rows = geometry_layout.PENETRATION
    return (
        np.zeros((nf, 4, 3)), np.zeros((ng, 4, 3)), np.zeros((ng, 6)),
        np.arange(ng, dtype=np.int64), np.zeros((P, 2), dtype=np.int64), np.zeros((P, rows)),
        np.zeros(geometry_layout.WS_SIZE), np.zeros((room, 4), dtype=np.int64),
        np.zeros((room, 7)), np.zeros((room, 3)), np.zeros((room, 3)),
        np.zeros((room, 3, 3)), np.zeros((2, 6, nv)), np.zeros((3 * room, nv)),
        np.zeros(room), np.zeros((room, 2), dtype=np.int64), np.zeros((room, 10)),
        np.zeros(1, dtype=np.int64), np.zeros((room, 2), dtype=np.int64),
        np.zeros((room, rows)), np.zeros(nk), np.zeros(npd),
        np.zeros(HELD * PAIR_ARRAYS, dtype=np.int64),
    )  # fmt: skip


def pair_addresses(k, contact):
    """kernels.discrete_step.find_point_pairs' ``pairs``: the addresses of the pair kernel and
    of the penetration compiled once (``k.address``, k a Kernels) for a plant with collision
    geometry (``contact``), else (0, 0) (neither is then compiled)."""
    if not contact:
        return 0, 0
    return k.address("point_pairs_at"), k.address("penetration_at")


def no_geometry(body_clique):
    """The geometry tuple of a plant without collision geometry (kind −1), ``body_clique``
    its bodies' cliques."""
    int64 = np.int64
    return (
        np.zeros((0, geometry_layout.GI_COLUMNS), dtype=int64), np.zeros((0, 3)),
        np.zeros((0, 3)), np.zeros(0, dtype=int64), np.zeros((0, 4, 3)),
        np.zeros((0, 0), dtype=np.uint8), np.zeros(0, dtype=int64), np.zeros(0, dtype=int64),
        np.zeros((0, 5)), body_clique, np.array([-1.0, 0.0, 0.0, 0.0]),
    )  # fmt: skip
