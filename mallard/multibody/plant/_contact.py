"""MultibodyPlant's contact: the contact model, Drake's compliant point contact (continuous
plants; discrete plants through SAP), its parameters and the contact results.

* **Contact model** (``set/get_contact_model``, ContactModel; Drake's default
  kHydroelasticWithFallback). mallard computes point contact only: under kPoint every pair of
  penetrating geometries is a point pair; under kHydroelasticWithFallback the pairs Drake
  would give a hydroelastic contact surface (a compliant geometry with a rigid or compliant
  one, neither a half space when both are compliant) raise NotImplementedError naming the
  geometries, the others (a geometry without a hydroelastic type, two rigid ones, ...) are
  point pairs, as Drake's fallback makes them; under kHydroelastic every penetrating pair
  raises (Drake's error for the pairs it cannot compute, NotImplementedError for the others).
* **Point contact** (continuous plants; Drake's CalcContactResultsPointPairContinuous, kernel
  ``kernels.contact``): per PenetrationAsPointPair of SceneGraph (QueryObject.
  ComputePointPairPenetration), fn = k·x·(1 + d·vn) and Stribeck-regularized Coulomb
  friction, applied to the bodies as spatial forces with the other applied forces (forward
  dynamics, reaction forces, the implicit residual). Each geometry's stiffness, dissipation
  and friction are its ProximityProperties' ("material", "point_contact_stiffness"),
  ("material", "hunt_crossley_dissipation") and ("material", "coulomb_friction"), else
  SceneGraph's DefaultProximityProperties (1e6 N/m, 50 s/m, 0.5), else (when those are None)
  the plant's estimates from ``set_penetration_allowance``; a pair's k = k₁k₂/(k₁ + k₂),
  d = (k₂d₁ + k₁d₂)/(k₁ + k₂), μ = 2μ₁μ₂/(μ₁ + μ₂) (Drake's CombinePointContactParameters,
  CalcContactFrictionFromSurfaceProperties).
* **Penalty estimates** (Drake's EstimatePointContactParameters, at Finalize() when the plant
  has collision geometry, again on ``set_penetration_allowance`` after it): with m the largest
  body mass and g the gravity's magnitude (9.81 without gravity), the pair stiffness
  k = m·g/δ for the allowance δ, time scale 1/ω = √(m/k), per-geometry stiffness 2k and
  dissipation (1/ω)/δ.

A discrete plant's contact is Drake's: the step's contact pairs (_DiscreteContacts) become SAP's
contact constraints (Drake's SapDriver; kernels.sap: SAP_FRICTION_CONE for kSap,
SAP_HUNT_CROSSLEY for kSimilar and kLagged), or TAMSI's contact points (kTamsi, Drake's
TamsiDriver: plant._tamsi_driver, kernels.tamsi); its contact results and generalized contact
forces come from the step's impulses. AutoDiffXd plants compute it too, as Drake (their pairs,
Jacobians and parameters of AutoDiffXd scalars). In both kinds of plant, as in Drake, a pair
whose bodies' trees have no unlocked dof is dropped.
"""

import copy
import weakref

import numpy as np

from mallard._compiled import kernels
from mallard.geometry._identifiers import id_text
from mallard.geometry._properties import HydroelasticType
from mallard.geometry._query_results import PenetrationAsPointPair, records
from mallard.geometry._scene_graph_config import SceneGraphConfig, proximity_value
from mallard.geometry._shapes import HalfSpace, fmt
from mallard.multibody._layout import (
    POSITIONS,
    SAP_FRICTION_CONE,
    SAP_HUNT_CROSSLEY,
    VELOCITIES,
    WORKSPACE,
)
from mallard.multibody.plant._contact_model import ContactModel
from mallard.multibody.plant._contact_results import ContactResults, PointPairContactInfo
from mallard.multibody.plant._coulomb_friction import CoulombFriction
from mallard.multibody.tree._indices import BodyIndex

#: Drake's MultibodyPlantConfig defaults.
DEFAULT_PENETRATION_ALLOWANCE = 1.0e-3
DEFAULT_STICTION_TOLERANCE = 1.0e-4
#: UniformGravityFieldElement::kDefaultStrength, for the estimates of a plant without gravity.
DEFAULT_GRAVITY = 9.81

_DISCONNECTED = (
    "\n\nThe provided context doesn't show a connection for the plant's query input port (see "
    "MultibodyPlant::get_geometry_query_input_port()). See "
    "https://drake.mit.edu/troubleshooting.html#mbp-unconnected-query-object-port for help."
)


#: _ContactTable.kind: a geometry's hydroelastic compliance type.
_UNDEFINED, _RIGID, _SOFT, _OTHER = 0, 1, 2, 3


class _ContactTable:
    """Per geometry of a ProximityModel (its index), what point contact reads of it, made
    once per set of contact settings: ``body`` and ``mobod`` (−1 for a geometry that is not
    this plant's collision geometry), ``values`` [k, d, μs, μd, τ] (ContactMixin.
    _geometry_parameters), ``valid`` (False where reading them raises or the geometry is not
    the plant's: a pair with it raises the error then) and, for the hydroelastic contact
    models, ``kind`` (_UNDEFINED, _RIGID, _SOFT, _OTHER) and ``half`` (a half space)."""

    __slots__ = ("body", "mobod", "values", "valid", "kind", "half")

    def __init__(self, plant, model, inspector, defaults):
        n = len(model.ids)
        self.body = np.full(n, -1, dtype=np.int64)
        self.mobod = np.full(n, -1, dtype=np.int64)
        self.values = np.zeros((n, 5))
        self.valid = np.zeros(n, dtype=bool)
        self.kind = np.full(n, _OTHER, dtype=np.int64)
        self.half = np.zeros(n, dtype=bool)
        codes = {HydroelasticType.kUndefined: _UNDEFINED, HydroelasticType.kRigid: _RIGID,
                 HydroelasticType.kSoft: _SOFT}  # fmt: skip
        point = plant._contact_model == ContactModel.kPoint
        for g, geometry_id in enumerate(model.ids):
            if not point:
                properties = inspector.GetProximityProperties(geometry_id)
                kind = proximity_value(properties, "hydroelastic", "compliance_type", defaults)
                self.kind[g] = codes.get(kind, _OTHER)
                self.half[g] = isinstance(inspector.GetShape(geometry_id), HalfSpace)
            body = plant._geometry_body.get(geometry_id)
            if body is None:
                continue
            self.body[g] = int(body)
            self.mobod[g] = plant._topology.mobod_of_body[int(body)]
            try:
                values = plant._geometry_parameters(geometry_id, inspector, defaults)
                self.values[g] = values
            except (RuntimeError, TypeError, ValueError):
                continue  # (raised again when the geometry is in contact)
            self.valid[g] = True


class _PointPairs:
    """The point pairs of a query: the ProximityModel, ``ab`` (geometry indices of A and B),
    ``rows`` [depth, nhat_BA_W, p_WCa, p_WCb] (QueryObject._penetrations), ``bodies`` [body
    A, body B, mobod A, mobod B] and ``par`` (pair_parameters) per pair; the
    PenetrationAsPointPair records are made only when asked for (:meth:`records`)."""

    __slots__ = ("model", "ab", "rows", "bodies", "par")

    def __init__(self, model, ab, rows, bodies, par):
        self.model, self.ab, self.rows, self.bodies, self.par = model, ab, rows, bodies, par

    def __len__(self):
        return len(self.ab)

    def __deepcopy__(self, memo):
        """The arrays copied; the ProximityModel (SceneGraph's cache, not a step's value)
        shared."""
        arrays = (copy.deepcopy(a, memo) for a in (self.ab, self.rows, self.bodies, self.par))
        return _PointPairs(self.model, *arrays)

    def subset(self, keep):
        """The pairs where ``keep`` (a boolean mask or indices)."""
        return _PointPairs(self.model, self.ab[keep], self.rows[keep], self.bodies[keep],
                           self.par[keep])  # fmt: skip

    def ids(self, i):
        """(id_A, id_B) of pair i."""
        return self.model.ids[self.ab[i, 0]], self.model.ids[self.ab[i, 1]]

    def records(self):
        """A PenetrationAsPointPair per pair (views of a copy of the rows)."""
        return records(PenetrationAsPointPair, self.rows.copy(), self.model.ids, self.ab)


class _PointContacts:
    """A Context's point contacts: the kept _PointPairs (None without any), their bodies
    (BodyIndex), ``info`` rows [f_Bc_W, p_WC, vn, slip] and the spatial forces on the bodies
    F_BBo_W."""

    __slots__ = ("pairs", "bodies", "info", "F_BBo_W")

    def __init__(self, pairs, bodies, info, F_BBo_W):
        self.pairs, self.bodies, self.info, self.F_BBo_W = pairs, bodies, info, F_BBo_W


class ContactMixin:
    """Contact methods of MultibodyPlant."""

    def _init_contact(self):
        self._contact_model = ContactModel.kHydroelasticWithFallback
        self._penetration_allowance = DEFAULT_PENETRATION_ALLOWANCE
        self._stiction_tolerance = DEFAULT_STICTION_TOLERANCE
        # Drake's penalty_method_contact_parameters_: per-geometry stiffness, dissipation,
        # time scale (negative until estimated).
        self._penalty = (-1.0, -1.0, -1.0)
        self._contact_serial = 0  # counts changes of the contact parameters
        self._geometry_body = None  # GeometryId -> BodyIndex, from Finalize()
        # (what the _ContactTable was made with, the table), see _contact_table
        self._table_cache = (None, None)

    # ---- settings ------------------------------------------------------------------------------
    def set_contact_model(self, model):
        """Sets the contact model (before Finalize())."""
        self._throw_if_finalized("set_contact_model")
        if not isinstance(model, ContactModel):
            raise TypeError(f"set_contact_model(): expected a ContactModel, got {model!r}")
        self._contact_model = model

    def get_contact_model(self):
        """The contact model (kHydroelasticWithFallback unless set)."""
        return self._contact_model

    def set_penetration_allowance(self, penetration_allowance=DEFAULT_PENETRATION_ALLOWANCE):
        """Sets the penetration allowance δ (m) from which the plant estimates the stiffness
        and dissipation of geometries that have none (see the module); re-estimated at once
        after Finalize()."""
        penetration_allowance = float(penetration_allowance)
        if not penetration_allowance > 0:
            raise RuntimeError(
                "set_penetration_allowance(): penetration_allowance must be strictly positive."
            )
        self._penetration_allowance = penetration_allowance
        if self._is_finalized:
            self._estimate_point_contact_parameters(penetration_allowance)

    def get_contact_penalty_method_time_scale(self):
        """The time scale 1/ω of the estimated point contact (see the module), −1 if the plant
        has no collision geometry and no penetration allowance was set since Finalize()."""
        self._throw_if_not_finalized("get_contact_penalty_method_time_scale")
        return self._penalty[2]

    def set_stiction_tolerance(self, v_stiction=DEFAULT_STICTION_TOLERANCE):
        """Sets the stiction tolerance v_s (m/s) of the Stribeck friction model: the slip speed
        at which friction reaches the static coefficient (1e-4 by default)."""
        v_stiction = float(v_stiction)
        if not v_stiction > 0:
            raise RuntimeError(
                "set_stiction_tolerance(): condition 'v_stiction > 0' failed (v_stiction = "
                f"{fmt(v_stiction)})."
            )
        self._stiction_tolerance = v_stiction
        self._contact_serial += 1

    def _estimate_point_contact_parameters(self, penetration_allowance):
        """Drake's EstimatePointContactParameters (see the module)."""
        g = float(np.linalg.norm(self._gravity_field.gravity_vector()))
        if g == 0:
            g = DEFAULT_GRAVITY
        mass = 0.0
        for body in self._bodies:
            m = body.default_mass()
            if m > mass:  # (World's NaN mass is skipped, as by std::max)
                mass = m
        stiffness = mass * g / penetration_allowance
        # (NaN without a massive body, as Drake's 0/0)
        time_scale = 1.0 / np.sqrt(np.float64(stiffness) / mass) if mass > 0 else np.nan
        self._penalty = (2.0 * stiffness, time_scale / penetration_allowance, time_scale)
        self._contact_serial += 1

    def _finalize_contact(self):
        """At Finalize(): the estimates if the plant has collision geometry (as Drake) and
        the map from collision geometry to body."""
        self._geometry_body = {
            g: BodyIndex(b)
            for b, ids in self._geometry_link.collision_geometries.items()
            for g in ids
        }
        if self.num_collision_geometries() > 0 and self._penalty[2] < 0:
            self._estimate_point_contact_parameters(self._penetration_allowance)

    # ---- the geometry query ------------------------------------------------------------------
    def _query_object(self, context, explanation):
        """The QueryObject of the geometry query input, or Drake's error (naming what was
        evaluated) if the port has no value."""
        query = self._geometry_query_port._value_or_none(context)
        if query is None:
            raise RuntimeError(explanation + _DISCONNECTED)
        return query

    def _geometry_body_index(self, geometry_id):
        body = self._geometry_body.get(geometry_id)
        if body is None:
            raise RuntimeError(
                f"The geometry {id_text(geometry_id)} in contact is not a collision geometry "
                "of this MultibodyPlant."
            )
        return body

    # ---- point contact -----------------------------------------------------------------------
    def _point_pairs(self, query):
        """The _PointPairs of the contact model at the query's poses (None without a
        penetration): QueryObject._penetrations' arrays, no record per pair, and per pair
        its bodies and combined parameters from the per-geometry _ContactTable."""
        model, ab, rows = query._penetrations()
        if not len(ab):
            return None
        table = self._contact_table(query, model)
        a, b = ab[:, 0], ab[:, 1]
        bad = ~(table.valid[a] & table.valid[b])
        if self._contact_model != ContactModel.kPoint:
            kind_A, kind_B = table.kind[a], table.kind[b]
            half = table.half[a] | table.half[b]
            fallback = (
                (kind_A == _UNDEFINED) | (kind_B == _UNDEFINED)
                | ((kind_A == _RIGID) & (kind_B == _RIGID))
                | ((kind_A == _SOFT) & (kind_B == _SOFT) & half)
            )  # fmt: skip
            bad |= ~fallback | (self._contact_model == ContactModel.kHydroelastic)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            self._raise_pair_error(query, model.ids[a[i]], model.ids[b[i]])
        n = len(ab)
        bodies, par = np.empty((n, 4), dtype=np.int64), np.empty((n, 7))
        kernels(np.float64).contact_pairs(ab, table.body, table.mobod, table.values, bodies, par)
        return _PointPairs(model, ab, rows, bodies, par)

    def _contact_table(self, query, model):
        """The _ContactTable of the query's proximity model, cached until the contact
        settings, SceneGraph's config or its proximity geometries change. (The key holds
        weak references to the config and the model, not their id(): a config made where a
        freed one was has its id; a dead reference equals no other.)"""
        sg = query._sg
        config = sg.__dict__.get("_config")
        config_key = None if config is None else weakref.ref(config)
        key = (self._contact_serial, config_key, sg._proximity_serial, weakref.ref(model))
        if self._table_cache[0] != key:
            inspector = query.inspector()
            defaults = (config or SceneGraphConfig()).default_proximity_properties
            self._table_cache = (key, _ContactTable(self, model, inspector, defaults))
        return self._table_cache[1]

    def _raise_pair_error(self, query, id_A, id_B):
        """Raises the error of the pair (id_A, id_B) that is not a valid point pair: its
        hydroelastic classification, a geometry of another plant, a bad material property (in
        Drake's order)."""
        inspector = query.inspector()
        config = query._sg.__dict__.get("_config") or SceneGraphConfig()
        defaults = config.default_proximity_properties
        if self._contact_model != ContactModel.kPoint:
            self._check_hydroelastic(id_A, id_B, inspector, defaults)
        for geometry_id in (id_A, id_B):
            self._geometry_body_index(geometry_id)
        for geometry_id in (id_A, id_B):
            np.asarray(self._geometry_parameters(geometry_id, inspector, defaults), dtype=float)
        raise AssertionError(f"the pair {id_A}, {id_B} was found invalid without an error")

    def _relevant_pairs(self, context, pairs):
        """``pairs`` without the pairs whose bodies are both on trees with no dof or only
        locked ones (Drake drops them when a joint is locked), None if none is left."""
        locked = self._parameters(context).locked
        if not locked.any():
            return pairs
        from mallard.multibody.plant._sap_driver import cliques

        clique, body_clique = cliques(self)
        unlocked = np.ones(self._nv, dtype=bool)
        for j in np.flatnonzero(locked):
            joint = self._joints[j]
            unlocked[joint._v_start : joint._v_start + joint.num_velocities()] = False
        live = np.zeros(clique.max(initial=-1) + 2, dtype=bool)  # (index −1: no dofs)
        live[clique[unlocked]] = True
        bodies = pairs.bodies
        keep = live[body_clique[bodies[:, 0]]] | live[body_clique[bodies[:, 1]]]
        if keep.all():
            return pairs
        if not keep.any():
            return None
        return pairs.subset(keep)

    def _check_hydroelastic(self, id_A, id_B, inspector, defaults):
        """Raises for a pair the contact model would not make a point pair of (see the
        module; _ContactTable classifies the geometries alike for the pairs that do not
        raise)."""

        def describe(geometry_id):
            properties = inspector.GetProximityProperties(geometry_id)
            kind = proximity_value(properties, "hydroelastic", "compliance_type", defaults)
            half_space = isinstance(inspector.GetShape(geometry_id), HalfSpace)
            return kind, half_space, inspector.GetName(geometry_id)

        (kind_A, half_A, name_A), (kind_B, half_B, name_B) = map(describe, (id_A, id_B))
        undefined = HydroelasticType.kUndefined
        rigid, soft = HydroelasticType.kRigid, HydroelasticType.kSoft
        ids = f"'{name_A}' (id {id_text(id_A)}) and '{name_B}' (id {id_text(id_B)})"
        if kind_A == undefined or kind_B == undefined:
            failure = (
                "Requested a contact surface between a pair of geometries without hydroelastic "
                f"representation for at least one shape: {ids}"
            )
        elif kind_A == rigid and kind_B == rigid:
            failure = (
                f"Requested contact between two rigid objects ({ids}); that is not allowed in "
                "hydroelastic-only contact. Please consider using hydroelastics with "
                "point-contact fallback, e.g., QueryObject::ComputeContactSurfacesWithFallback() "
                "or MultibodyPlant::set_contact_model(ContactModel::kHydroelasticWithFallback)"
            )
        elif kind_A == soft and kind_B == soft and half_A and half_B:
            failure = f"Requested contact between two half spaces ({ids}); that is not allowed"
        elif kind_A == soft and kind_B == soft and (half_A or half_B):
            failure = (
                "Requested hydroelastic contact between two compliant geometries, one of which "
                f"is a half space ({ids}); that is not allowed"
            )
        else:
            raise NotImplementedError(
                f"MultibodyPlant: the geometries {ids} are in hydroelastic contact (both have "
                "hydroelastic properties), and mallard does not compute hydroelastic contact "
                "yet. Use set_contact_model(ContactModel.kPoint), or remove their hydroelastic "
                "properties."
            )
        if self._contact_model == ContactModel.kHydroelastic:
            raise RuntimeError(failure)

    def _geometry_parameters(self, geometry_id, inspector, defaults):
        """[k, d, μs, μd, τ] of a geometry: its stiffness, dissipation, static and dynamic
        friction and relaxation time (0.1 s when neither the geometry nor SceneGraph's
        defaults give one), read as the module says; RuntimeError naming the geometry for a
        bad value."""
        k_default, d_default, _ = self._penalty
        properties = inspector.GetProximityProperties(geometry_id)
        k = proximity_value(properties, "material", "point_contact_stiffness", defaults)
        d = proximity_value(properties, "material", "hunt_crossley_dissipation", defaults)
        mu = proximity_value(properties, "material", "coulomb_friction", defaults)
        tau = proximity_value(properties, "material", "relaxation_time", defaults, 0.1)
        name = inspector.GetName(geometry_id)
        k = _material_value(k_default if k is None else k, "point_contact_stiffness", name)
        d = _material_value(d_default if d is None else d, "hunt_crossley_dissipation", name)
        mu = _friction(mu, name)
        return k, d, mu.static_friction(), mu.dynamic_friction(), tau

    def _point_contacts(self, context, explanation):
        """The Context's _PointContacts (continuous plants), cached with the state, inputs and
        contact parameters they were computed at."""
        ec = self._engine.cache(context)
        key = (
            context._serial_q,
            context._serial_v,
            context._serial_u,
            self._contact_serial,
        )
        found = ec.lookup("point_contacts", key)
        if found is not None:
            return found
        dtype = ec.ws.dtype
        nb = len(self._bodies)
        if self.num_collision_geometries() == 0:
            return ec.store("point_contacts", key, _empty_contacts(nb, dtype))
        query = self._query_object(context, explanation)
        pairs = self._point_pairs(query)
        if pairs is not None:
            pairs = self._relevant_pairs(context, pairs)
        if pairs is None:
            return ec.store("point_contacts", key, _empty_contacts(nb, dtype))
        n = len(pairs)
        rows, bodies = pairs.rows, pairs.bodies
        need = self._engine.need(ec, context, POSITIONS | VELOCITIES)
        info = np.zeros((n, 8), dtype=rows.dtype)
        kept = np.empty(n, dtype=np.int64)
        F = np.zeros((nb, 6), dtype=rows.dtype)
        model = self._engine
        count = ec.kernels.drive_point_contact(
            model.mi,
            model.mf,
            self._x_of(context._state),
            ec.ws,
            need,
            bodies,
            rows,
            pairs.par,
            1.0 / self._stiction_tolerance,
            info,
            kept,
            F,
            ec.kernels.address("stages_at"),
        )
        self._engine.mark(ec, context, need)
        kept = kept[:count]
        contacts = _PointContacts(pairs.subset(kept) if count else None, bodies[kept, :2],
                                  info[:count], F)  # fmt: skip
        return ec.store("point_contacts", key, contacts)

    def _contact_body_forces(self, context, explanation):
        """The contact forces on the bodies, F_BBo_W (per BodyIndex), of a continuous plant."""
        return self._point_contacts(context, explanation).F_BBo_W

    def _generalized_contact_forces(self, context, explanation):
        """Σ_B J_Bᵀ·F_BBo_W of the contact forces (size nv; continuous plants)."""
        contacts = self._point_contacts(context, explanation)
        if contacts.pairs is None:
            return np.zeros(self._nv, dtype=contacts.F_BBo_W.dtype)
        return self._generalized_forces_of(context, contacts.F_BBo_W)

    def _calc_contact_results(self, context, value):
        """The contact_results output: a ContactResults of the point contacts."""
        value.set_value(self._contact_results(context))

    def _contact_results(self, context):
        if self._time_step > 0:
            return self._discrete_contact_results(context)
        contacts = self._point_contacts(
            context, "You've tried evaluating MultibodyPlant's 'contact_results' output port."
        )
        infos = []
        point_pairs = [] if contacts.pairs is None else contacts.pairs.records()
        for pair, (A, B), row in zip(point_pairs, contacts.bodies, contacts.info, strict=True):
            infos.append(
                PointPairContactInfo._make(
                    BodyIndex(int(A)),
                    BodyIndex(int(B)),
                    row[0:3].copy(),
                    row[3:6].copy(),
                    row[6],
                    row[7],
                    pair,
                )
            )
        return ContactResults._make(infos, self)

    # ---- discrete plants ----------------------------------------------------------------------
    def _discrete_contacts(self, context):
        """The _DiscreteContacts of a discrete plant's step from ``context`` (Drake's
        DiscreteContactPairs of point contact), or None without contact."""
        if self.num_collision_geometries() == 0:
            return None
        query = self._query_object(context, "You've tried evaluating discrete forward dynamics.")
        pairs = self._point_pairs(query)
        if pairs is not None:
            pairs = self._relevant_pairs(context, pairs)
        if pairs is None:
            return None
        negative = pairs.par[:, 5:7] < 0
        if negative.any():
            i, side = (int(j) for j in np.argwhere(negative)[0])
            geometry_id, body = pairs.ids(i)[side], pairs.bodies[i, side]
            raise RuntimeError(
                "Relaxation time must be non-negative and relaxation_time = "
                f"{fmt(pairs.par[i, 5 + side])} was provided. For geometry "
                f"{query.inspector().GetName(geometry_id)} on body "
                f"{self._bodies[body].name()}."
            )
        return _DiscreteContacts(self, context, pairs)

    def _discrete_contact_results(self, context):
        """A discrete plant's ContactResults: those of its last step (empty before the first)
        with sampled output ports, else of the step from ``context``."""
        memory = self._step_memory(context)
        if memory is None or memory.contacts is None:
            return ContactResults._make([], self)
        return ContactResults._make(memory.contacts.infos(), self)

    def _discrete_generalized_contact_forces(self, context):
        """A discrete plant's generalized contact forces Jᵀ·γ/h (of its last step, or the
        step from ``context``: see _discrete_contact_results)."""
        memory = self._step_memory(context)
        if memory is None or memory.contacts is None:
            return np.zeros(self._nv)
        return memory.contacts.tau_contact


class _DiscreteContacts:
    """A discrete step's point contacts, as Drake's DiscreteUpdateManager makes its
    DiscreteContactPairs: per pair, the contact point C = wA·Ca + wB·Cb (wA = kA/(kA + kB)),
    the contact frame C (R_WC: z along nhat_AB_W = −nhat_BA_W, x and y by
    RotationMatrix.MakeFromOneVector), the contact Jacobian J_C = R_WCᵀ·(Jv_WBc − Jv_WAc)
    (rows: tangential, tangential, normal; the normal velocity is the separation speed), the
    signed distance φ0 = −depth, vn0 = (J_C·v0)_z, the elastic force fe0 = k·depth, and the
    SAP constraint parameters of the plant's approximation (kernels.sap: SAP_FRICTION_CONE for
    kSap with the dynamic friction, stiffness k, dissipation time scale τA + τB, the
    near-rigid threshold and σ = 1e-3; SAP_HUNT_CROSSLEY for kSimilar and kLagged with μd, k, d,
    the stiction tolerance and σ). After the step, :meth:`solved` keeps the impulses."""

    def __init__(self, plant, context, pairs):
        ec = plant._engine.ensure(context, POSITIONS)
        v0 = plant._x_of(context._state)[plant._nq :]
        self._make(plant, ec.kernels, ec.ws, ec.work.X_pc, v0, pairs)

    @classmethod
    def at(cls, plant, ws, x0, pairs):
        """The contacts of ``pairs`` (float64) of a step from the state x0, whose positions
        stage the float64 workspace ``ws`` holds (the compiled stepping's last step)."""
        contacts = cls.__new__(cls)
        X_pc = WORKSPACE.views(ws, plant._engine.sizes).X_pc
        contacts._make(plant, plant._engine.kernels(np.float64), ws, X_pc, x0[plant._nq :], pairs)
        return contacts

    def _make(self, plant, compiled, ws, X_pc, v0, pairs):
        """The pairs' contact frames, Jacobians and SAP parameters at the positions of ``ws``
        (kernels.contact.contact_problem, by ``compiled``: its Context's kernels) and the
        velocities v0 of the step's start."""
        from mallard.multibody.plant._discrete_contact_approximation import (
            DiscreteContactApproximation,
        )

        n, nv = len(pairs), plant._nv
        bodies, par, rows = pairs.bodies, pairs.par, pairs.rows
        self.plant, self.pairs, self.bodies = plant, pairs, bodies[:, :2].copy()
        dtype = np.result_type(rows, ws)  # (object for AutoDiffXd: the kernel interpreted)
        approximation = plant.get_discrete_contact_approximation()
        lagged = float(approximation == DiscreteContactApproximation.kLagged)
        kind = contact_kind(approximation)
        self.p_WC, nhat = np.empty((n, 3), dtype=dtype), np.empty((n, 3), dtype=dtype)
        self.R_WC = np.empty((n, 3, 3), dtype=dtype)
        self.J = np.empty((3 * n, nv), dtype=dtype)
        self.phi0 = np.empty(n, dtype=dtype)
        self.cliques = np.empty((n, 2), dtype=np.int64)
        self.par = np.zeros((n, 10), dtype=dtype)
        model = plant._engine
        compiled.drive_contact_problem(
            model.mi, model.mf, ws, bodies, rows, par, v0, kind, lagged,
            plant._sap_near_rigid_threshold, plant._stiction_tolerance,
            plant._sap_driver.body_clique, self.p_WC, nhat, self.R_WC,
            np.empty((2, 6, nv), dtype=dtype), self.J, self.phi0, self.cliques, self.par,
        )  # fmt: skip
        self.p_AoC_W = self.p_WC - X_pc[3, bodies[:, 2], 3]
        self.p_BoC_W = self.p_WC - X_pc[3, bodies[:, 3], 3]
        if kind < 0:  # (no SAP constraint: TAMSI's fn0 = k·x0, k, d, μ)
            k = par[:, 0]
            self.par = np.column_stack((k * rows[:, 0], k, par[:, 1], par[:, 3]))
        self.kind = kind if kind >= 0 else None
        self.gamma = self.vc = self.h = None

    def __len__(self):
        return len(self.pairs)

    def __deepcopy__(self, memo):
        """A copy of the step's arrays that refers to the same plant (a Context's value, as
        when the Simulator clones a state, never copies the plant or its SceneGraph)."""
        other = memo[id(self)] = type(self).__new__(type(self))
        for name, value in vars(self).items():
            setattr(other, name, value if name == "plant" else copy.deepcopy(value, memo))
        return other

    def tamsi_parameters(self):
        """(fn0 = k·x0, k, d, μ) per pair, TAMSI's (kTamsi plants)."""
        return self.par[:, 0], self.par[:, 1], self.par[:, 2], self.par[:, 3]

    def solved(self, gamma, v, h):
        """Keeps the step's contact impulses γ (3 per pair) and constraint velocities J_C·v."""
        self.gamma, self.vc, self.h = gamma.copy(), self.J @ v, h

    @property
    def tau_contact(self):
        """Jᵀ·γ/h, the generalized contact forces."""
        return self.J.T @ self.gamma / self.h

    def forces(self):
        """F_BBo_W per body (at Bo, in World) of the contact forces: f_Bc_W = R_WC·γ/h on B at
        C, its opposite on A (none on World)."""
        nb = len(self.plant._bodies)
        F = np.zeros((nb, 6), dtype=self.gamma.dtype)
        f_Bc_W = np.einsum("nab,nb->na", self.R_WC, self.gamma.reshape(-1, 3)) / self.h
        for (A, B), f, rA, rB in zip(self.bodies, f_Bc_W, self.p_AoC_W, self.p_BoC_W,
                                     strict=True):  # fmt: skip
            F[A, :3] -= np.cross(rA, f)
            F[A, 3:] -= f
            F[B, :3] += np.cross(rB, f)
            F[B, 3:] += f
        F[0] = 0.0
        return F

    def infos(self):
        """PointPairContactInfo per pair: f_Bc_W, p_WC, the separation speed vn and the slip
        speed ‖vt‖ at the step's velocities, as Drake's discrete contact results."""
        gamma, vc = self.gamma.reshape(-1, 3), self.vc.reshape(-1, 3)
        out = []
        for i, pair in enumerate(self.pairs.records()):
            f_Bc_W = self.R_WC[i] @ gamma[i] / self.h
            A, B = self.bodies[i]
            out.append(
                PointPairContactInfo._make(
                    BodyIndex(int(A)),
                    BodyIndex(int(B)),
                    f_Bc_W,
                    self.p_WC[i].copy(),
                    _scalar(vc[i, 2]),
                    _slip_speed(vc[i, 0], vc[i, 1]),
                    pair,
                )  # fmt: skip
            )
        return out


def contact_kind(approximation):
    """The SAP constraint kind of the contact approximation's pairs (kernels.sap), −1 for
    kTamsi (no SAP constraint)."""
    if approximation._value == 0:  # (kTamsi)
        return -1
    if approximation._value == 1:  # (kSap)
        return SAP_FRICTION_CONE
    return SAP_HUNT_CROSSLEY


def _scalar(x):
    """A float of a double, else the scalar (AutoDiffXd)."""
    return float(x) if isinstance(x, (float, np.floating)) else x


def _slip_speed(vx, vy):
    """‖(vx, vy)‖: a float of doubles, else of the scalars (0 without derivatives at 0)."""
    if isinstance(vx, (float, np.floating)):
        return float(np.hypot(vx, vy))
    squared = vx * vx + vy * vy
    return squared**0.5 if squared > 0 else 0.0 * squared


def _empty_contacts(nb, dtype):
    bodies = np.zeros((0, 2), dtype=np.int64)
    return _PointContacts(None, bodies, np.zeros((0, 8), dtype), np.zeros((nb, 6), dtype))


def _material_value(value, name, geometry):
    """A stiffness or dissipation of a geometry, checked: RuntimeError naming the geometry if
    it is negative or not a number."""
    if isinstance(value, (int, float)):
        value = float(value)
        if not value >= 0:
            raise RuntimeError(
                f"The proximity property ('material', '{name}') of geometry '{geometry}' is "
                f"{fmt(value)}; it must be non-negative."
            )
    return value


def _friction(friction, geometry):
    """A geometry's CoulombFriction, checked."""
    if friction is None:
        raise RuntimeError(
            f"Geometry '{geometry}' has no ('material', 'coulomb_friction') proximity property "
            "and SceneGraph's default proximity properties have no friction: its contact "
            "friction is undefined."
        )
    if not isinstance(friction, CoulombFriction):
        raise RuntimeError(
            f"The proximity property ('material', 'coulomb_friction') of geometry '{geometry}' "
            f"must be a CoulombFriction, got {friction!r}"
        )
    return friction
