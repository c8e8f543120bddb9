"""The velocities of one state's discrete step through SAP, after its free motion: the step's
point contacts and joint constraints, as the Python path computes them (plant._discrete,
plant._sap_driver's SapDriver.step, plant._contact's _DiscreteContacts), operation for
operation, so that v⁺ is the same to the last bit. The Simulator's compiled stepping
(kernels.stepping) and BatchedPlant's rollouts (kernels.rollouts) take their steps through
:func:`sap_velocities`.

The contact tables are two tuples (made by plant._stepping.ContactTables):

* ``geometry``, fixed for a plant, its SceneGraph's proximity model and collision filters:
  (gi, gf, hv: the ProximityModel; frame_mobod: per frame of the model, the mobod of its body,
  −1 for World's; X_FG per geometry; allowed: the filter matrix (n × n, upper triangle) with 2
  for the pairs the Python path raises for (a geometry that is not the plant's, whose
  parameters do not read, with a negative relaxation time, or a pair the contact model makes
  hydroelastic); body, mobod and values [k, d, μs, μd, τ] per geometry
  (plant._contact._ContactTable); body_clique per body; settings [contact kind (kernels.sap,
  or −1: no geometry), lagged (1.0 or 0.0), near-rigid β, stiction tolerance]);
* ``found``, its scratch and the last step's contacts: (X_WF, X_WG, boxes, order, pairs,
  rows, gws: the broadphase's and the narrowphase's, as QueryObject's; bodies, par, p_WC,
  nhat_AB_W, R_WC, jscratch, J, phi0, cliques, cpar: the contact problem of up to C pairs
  (kernels.contact.contact_problem); count (int64, 1): the pairs of the last step; then
  last_pairs, last_rows, last_gamma, last_pd: its contacts and impulses
  (kernels.step_velocities); block: the block (kernels._by_address) of the arrays the pair
  kernel takes).

The step's point pairs (:func:`point_pairs`: the geometries' poses, boxes, broadphase,
narrowphase and pair parameters) are, compiled, one kernel called by address
(:func:`point_pairs_at`, kernels._by_address) from every compiled step (kernels.
step_velocities.sap_velocities_at, which the plant's step and batch_rollout's call): its
arrays, the first 9 of ``geometry`` and of ``found`` and the bodies' poses X_WB, written into
found's ``block`` by the caller at each call. It calls each pair's penetration by address in
turn (kernels.narrowphase.penetration_at, which SceneGraph's penetration query calls too).
The callers take both addresses as ``pairs``: (Kernels.address("point_pairs_at"),
Kernels.address("penetration_at")), (0, 0) for a plant without collision geometry.

The joint constraints are a tuple (limits, limit_bounds, pd, pd_values, couplers,
coupler_values) as kernels.sap.sap_add_joint_constraints takes them.
"""

import numpy as np
from numba import carray
from numba.extending import overload

from mallard._compiled import by_address
from mallard.geometry._kernels.broadphase import sweep_and_prune, tight_box
from mallard.geometry._kernels.narrowphase import find_penetration
from mallard.geometry._kernels.queries import geometry_poses
from mallard.geometry._proximity_layout import PENETRATION, WS_SIZE
from mallard.multibody._kernels._by_address import (
    HELD,
    address_of,
    call_at,
    held1,
    held2,
    held3,
    hold,
)
from mallard.multibody._kernels._machinery import jitable, reshaped
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.contact import contact_pairs, contact_problem
from mallard.multibody._kernels.dynamics import calc_mass_matrix
from mallard.multibody._kernels.engine import run_inertia_stages
from mallard.multibody._kernels.kinematics import LAYER_WB
from mallard.multibody._kernels.sap import (
    _add_contact_constraints,
    _add_joint_constraints,
    solve,
)
from mallard.multibody._kernels.views import sap_table, sap_workspace
from mallard.multibody._layout import INERTIAS, POSITIONS, SAP_SUCCESS

#: Why a step was left to Python (the forward dynamics' failures are the mobod, ≥ 0): the SAP
#: solver failed; a penetrating pair the Python path raises for (or the narrowphase failed);
#: more contacts than the tables have room for.
FAILED_SAP = -2
FAILED_CONTACT = -3
FAILED_CAPACITY = -4
#: settings' entries of the contact tables.
KIND, LAGGED, BETA, STICTION = 0, 1, 2, 3
#: The arrays of the pair kernel's block (:func:`point_pairs_at`), and found's entry holding it.
PAIR_ARRAYS, BLOCK = 19, 22


def int64_view(a):
    """The float64 array ``a``'s memory as int64 (how a row holds int64 arrays); of an array of
    other scalars (interpreted), an int64 copy."""
    return a.view(np.int64) if a.dtype == np.float64 else a.astype(np.int64)


@overload(int64_view)
def _int64_view_compiled(a):
    return lambda a: a.view(np.int64)


@jitable
def found_size(ng, nf, room, nk, npd, nv):
    """The float64 slots of a ``found`` tuple carved by :func:`found_views` (an int64 takes
    one)."""
    P = max(ng * (ng - 1) // 2, 1)
    return (12 * nf + 12 * ng + 6 * ng + ng + 2 * P + PENETRATION * P + WS_SIZE + 4 * room
            + 7 * room + 3 * room + 3 * room + 9 * room + 12 * nv + 3 * room * nv + room
            + 2 * room + 10 * room + 1 + 2 * room + PENETRATION * room + nk + npd
            + HELD * PAIR_ARRAYS)  # fmt: skip


@jitable
def _take(buffer, at, size):
    return buffer[at : at + size], at + size


@jitable
def found_views(buffer, ng, nf, room, nk, npd, nv):
    """The ``found`` tuple (see the module) for ng geometries on nf frames, ``room`` contacts,
    SAP problems of nk equations, npd PD controllers and nv velocities, as views of the
    C-contiguous float64 ``buffer`` (:func:`found_size` long; the int64 arrays its bits), as
    plant._stepping.found_arrays makes them. The broadphase's order must be a permutation of
    0..ng − 1 (the caller sets it once)."""
    P = max(ng * (ng - 1) // 2, 1)
    a, at = _take(buffer, 0, 12 * nf)
    X_WF = reshaped(a, (nf, 4, 3))
    a, at = _take(buffer, at, 12 * ng)
    X_WG = reshaped(a, (ng, 4, 3))
    a, at = _take(buffer, at, 6 * ng)
    boxes = reshaped(a, (ng, 6))
    a, at = _take(buffer, at, ng)
    order = int64_view(a)
    a, at = _take(buffer, at, 2 * P)
    pairs = reshaped(int64_view(a), (P, 2))
    a, at = _take(buffer, at, PENETRATION * P)
    rows = reshaped(a, (P, PENETRATION))
    gws, at = _take(buffer, at, WS_SIZE)
    a, at = _take(buffer, at, 4 * room)
    bodies = reshaped(int64_view(a), (room, 4))
    a, at = _take(buffer, at, 7 * room)
    par = reshaped(a, (room, 7))
    a, at = _take(buffer, at, 3 * room)
    p_WC = reshaped(a, (room, 3))
    a, at = _take(buffer, at, 3 * room)
    nhat = reshaped(a, (room, 3))
    a, at = _take(buffer, at, 9 * room)
    R_WC = reshaped(a, (room, 3, 3))
    a, at = _take(buffer, at, 12 * nv)
    jscratch = reshaped(a, (2, 6, nv))
    a, at = _take(buffer, at, 3 * room * nv)
    J = reshaped(a, (3 * room, nv))
    phi0, at = _take(buffer, at, room)
    a, at = _take(buffer, at, 2 * room)
    cliques = reshaped(int64_view(a), (room, 2))
    a, at = _take(buffer, at, 10 * room)
    cpar = reshaped(a, (room, 10))
    a, at = _take(buffer, at, 1)
    count = int64_view(a)
    a, at = _take(buffer, at, 2 * room)
    last_pairs = reshaped(int64_view(a), (room, 2))
    a, at = _take(buffer, at, PENETRATION * room)
    last_rows = reshaped(a, (room, PENETRATION))
    last_gamma, at = _take(buffer, at, nk)
    last_pd, at = _take(buffer, at, npd)
    a, at = _take(buffer, at, HELD * PAIR_ARRAYS)
    block = int64_view(a)
    return (X_WF, X_WG, boxes, order, pairs, rows, gws, bodies, par, p_WC, nhat, R_WC,
            jscratch, J, phi0, cliques, cpar, count, last_pairs, last_rows, last_gamma,
            last_pd, block)  # fmt: skip


@jitable
def _sort_pairs(pairs, rows, n, ng):
    """Sorts pairs[:n] (and their rows) by (a, b), as QueryObject sorts its penetrations
    when one came out swapped (insertion sort by swaps: the pairs are few and unique)."""
    for i in range(1, n):
        j = i
        while j > 0 and pairs[j - 1, 0] * ng + pairs[j - 1, 1] > pairs[j, 0] * ng + pairs[j, 1]:
            for k in range(2):
                pairs[j - 1, k], pairs[j, k] = pairs[j, k], pairs[j - 1, k]
            for k in range(rows.shape[1]):
                rows[j - 1, k], rows[j, k] = rows[j, k], rows[j - 1, k]
            j -= 1


@jitable
def point_pairs(X_WB, geometry, found, penetration_at):
    """The penetrating point pairs at the bodies' poses X_WB (per mobod, 4 × 3), as
    plant._contact._point_pairs makes them from QueryObject._penetrations: the geometries'
    poses, the tight boxes, sweep-and-prune, each pair's penetration (compiled once, at the
    address ``penetration_at``, or linked for None: kernels.narrowphase.find_penetration),
    sorted by (A, B); then
    per pair its bodies and combined parameters (kernels.contact.contact_pairs) in found's
    ``bodies`` and ``par``. Returns their number, FAILED_CONTACT or FAILED_CAPACITY.
    ``geometry`` and ``found`` may be their first 9 arrays only."""
    gi, gf, hv, frame_mobod, X_FG, allowed = (
        geometry[0], geometry[1], geometry[2], geometry[3], geometry[4], geometry[5]
    )  # fmt: skip
    body, mobod, values = geometry[6], geometry[7], geometry[8]
    X_WF, X_WG, boxes, order, pairs, rows, gws = (
        found[0], found[1], found[2], found[3], found[4], found[5], found[6]
    )  # fmt: skip
    bodies, par = found[7], found[8]
    ng = gi.shape[0]
    for f in range(frame_mobod.shape[0]):
        k = frame_mobod[f]
        for i in range(4):
            for j in range(3):
                if k < 0:
                    X_WF[f, i, j] = 1.0 if i == j else 0.0
                else:
                    X_WF[f, i, j] = X_WB[k, i, j]
    geometry_poses(gi, X_WF, X_FG, X_WG)
    for g in range(ng):
        tight_box(gi, gf, hv, X_WG, g, boxes)
    count = sweep_and_prune(boxes, ng, allowed, order, pairs, 0.0)
    n = 0
    swapped = False
    for p in range(count):
        a, b = pairs[p, 0], pairs[p, 1]
        hit = find_penetration(gi, gf, hv, X_WG, a, b, gws, rows[n], penetration_at)
        if hit < 0 or (hit > 0 and allowed[a, b] == 2):
            return FAILED_CONTACT
        if hit:
            if hit == 1:
                pairs[n, 0], pairs[n, 1] = a, b
            else:
                pairs[n, 0], pairs[n, 1] = b, a
                swapped = True
            n += 1
    if n > bodies.shape[0]:
        return FAILED_CAPACITY
    if swapped:
        _sort_pairs(pairs, rows, n, ng)
    contact_pairs(pairs[:n], body, mobod, values, bodies[:n], par[:n])
    return n


@by_address
def point_pairs_at(block, penetration_at):
    """The pair kernel compiled once (kernels._by_address), which :func:`find_point_pairs`
    calls compiled: :func:`point_pairs` of the arrays held in the block at ``block``
    (PAIR_ARRAYS: geometry's first 9, found's first 9, X_WB), the penetration at the address
    ``penetration_at``."""
    b = carray(pointer(block), HELD * PAIR_ARRAYS, np.int64)
    f, i = np.float64, np.int64
    geometry = (
        held2(b, 0, i), held2(b, 1, f), held2(b, 2, f), held1(b, 3, i), held3(b, 4, f),
        held2(b, 5, np.uint8), held1(b, 6, i), held1(b, 7, i), held2(b, 8, f),
    )  # fmt: skip
    found = (
        held3(b, 9, f), held3(b, 10, f), held2(b, 11, f), held1(b, 12, i), held2(b, 13, i),
        held2(b, 14, f), held1(b, 15, f), held2(b, 16, i), held2(b, 17, f),
    )  # fmt: skip
    return point_pairs(held3(b, 18, f), geometry, found, penetration_at)


def find_point_pairs(X_WB, geometry, found, pairs):
    """:func:`point_pairs`: interpreted, here; compiled, by the pair kernel at the address
    ``pairs[0]`` (``Kernels.address("point_pairs_at")``), called, not linked into the
    caller's code, its arrays written into found's block, the penetration at ``pairs[1]``
    (``Kernels.address("penetration_at")``)."""
    return point_pairs(X_WB, geometry, found, None)


@overload(find_point_pairs)
def _find_point_pairs_compiled(X_WB, geometry, found, pairs):
    def impl(X_WB, geometry, found, pairs):
        block = found[BLOCK]
        hold(block, geometry[:9] + found[:9] + (X_WB,))
        return call_at(pairs[0], (address_of(block), pairs[1]))

    return impl


@jitable
def sap_velocities(m, params, work, x, v_star, diagonal, staged, si, sw, solver, pairs,
                   joints, geometry, found, v_next):  # fmt: skip
    """v⁺ (into ``v_next``) of a SAP step from x = [q0; v0] with free-motion velocities
    ``v_star``, as SapDriver.step computes it: the SAP problem (si, sw) of the step's point
    contacts (none if the settings' kind is −1), then its joint constraints (``joints``),
    solved with A = M(q0) + diag(``diagonal``) from the guess v0 if there is any (by SAP's
    compiled solver at the address ``solver``: kernels.sap.solve; the point pairs by the pair
    kernel and the penetration at the addresses ``pairs``: :func:`find_point_pairs`), else
    v⁺ = v*. ``staged``: whether ``work``'s positions and inertias are those of q0 (else they
    are computed when needed); M is computed with params' reflected inertias. Returns
    (SAP_SUCCESS, the solver's failure, FAILED_CONTACT or FAILED_CAPACITY; the number of
    contacts)."""
    t, w = sap_table(si, si), sap_workspace(si, sw)
    nq, nv = m.nq, m.nv
    counts = t.counts
    for i in range(counts.shape[0]):
        counts[i] = 0
    w_v_star = w.v_star
    for i in range(nv):
        w_v_star[i] = v_star[i]
    settings = geometry[10]
    kind = int(settings[KIND])
    n = 0
    if kind >= 0:
        if not staged:
            run_inertia_stages(m, x, params, work, POSITIONS | INERTIAS)
            staged = True
        n = find_point_pairs(work.X_pc[LAYER_WB], geometry, found, pairs)
        if n < 0:
            return n, 0
        if n > 0:
            rows, par = found[5], found[8]
            p_WC, nhat, R_WC, jscratch, J = found[9], found[10], found[11], found[12], found[13]
            phi0, cliques, cpar = found[14], found[15], found[16]
            contact_problem(
                m, work, found[7][:n], rows[:n], par[:n], x[nq:], kind, settings[LAGGED],
                settings[BETA], settings[STICTION], geometry[9], p_WC[:n], nhat[:n],
                R_WC[:n], jscratch, J[: 3 * n], phi0[:n], cliques[:n], cpar[:n],
            )  # fmt: skip
            _add_contact_constraints(t, w, kind, cliques[:n], J[: 3 * n], phi0[:n], cpar[:n])
    limits, limit_bounds, pd, pd_values, couplers, coupler_values = joints
    constraints = _add_joint_constraints(
        t, w, x[0:nq], x[nq:], limits, limit_bounds, pd, pd_values, couplers, coupler_values
    )
    if constraints == 0:
        for i in range(nv):
            v_next[i] = v_star[i]
        return SAP_SUCCESS, n
    if not staged:
        run_inertia_stages(m, x, params, work, POSITIONS | INERTIAS)
    M = work.M
    calc_mass_matrix(m, params, work, M)
    v = w.v
    for i in range(nv):
        v[i] = x[nq + i]
    status = solve(si, sw, M, diagonal, solver)
    for i in range(nv):
        v_next[i] = v[i]
    return status, n
