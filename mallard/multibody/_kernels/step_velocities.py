"""The discrete step's velocities compiled once, called by address (kernels._by_address):
kernels.discrete_step.sap_velocities (the SAP problem of the step's point contacts and joint
constraints, and its solve) as one kernel, :func:`sap_velocities_at`, of the 49 arrays held in
a block, which kernels.stepping.drive_discrete_steps (the
Simulator's step: ``staged`` 1) and kernels.rollouts' batch_rollout (a rollout's contact step:
``staged`` 0) call instead of each linking its code. Interpreted, the callers' ``block`` is
the tuple (joints, geometry, found) and :func:`step_velocities` runs it here.
"""

import numpy as np
from numba import carray
from numba.extending import overload

from mallard._compiled import by_address, entry_point
from mallard.multibody._kernels._by_address import (
    HELD,
    address_of,
    call_at,
    held1,
    held2,
    held3,
    hold,
)
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.discrete_step import sap_velocities
from mallard.multibody._kernels.views import (
    model,
    parameters,
    sap_table,
    sap_workspace,
    workspace,
)
from mallard.multibody._layout import SAP_KIND, SAP_PD_CONTROLLER, SAP_START, SAP_SUCCESS

#: The arrays of :func:`sap_velocities_at`'s block, in order: mi, mf, ws, x, v_star, diagonal,
#: si, sw, v_next (held by drive_discrete_steps at each call: :func:`hold_step`), then the 6
#: of ``joints``, the 11 of ``geometry`` and the 23 of ``found`` (kernels.discrete_step; held
#: by the Python driver: :func:`hold_tables`); a rollout's thread holds all of them once
#: (:func:`hold_velocities`).
STEP_ARRAYS = 9 + 6 + 11 + 23
#: The int64 slots of that block (drive_discrete_steps' ``block``, batch_rollout's).
STEP_BLOCK = HELD * STEP_ARRAYS
#: The block's first slot of the tables (:func:`hold_tables`).
TABLES_AT = HELD * 9


@by_address
def sap_velocities_at(block, solver, pairs, penetration, staged):
    """:func:`step_velocities` compiled once, for every joint type (kernels._by_address), of
    the arrays held in the block at ``block`` (STEP_ARRAYS), SAP's solver at the address
    ``solver``, the pair kernel and the penetration at ``pairs`` and ``penetration``,
    ``staged`` 1 or 0 (:func:`_velocities`): drive_discrete_steps and
    kernels.rollouts' batch_rollout call it instead of each linking the SAP problem's code."""
    b = carray(pointer(block), STEP_BLOCK, np.int64)
    f, i = np.float64, np.int64
    mi, mf, ws = held1(b, 0, i), held1(b, 1, f), held1(b, 2, f)
    joints = (
        held2(b, 9, i), held2(b, 10, f), held2(b, 11, i), held2(b, 12, f), held2(b, 13, i),
        held2(b, 14, f),
    )  # fmt: skip
    geometry = (
        held2(b, 15, i), held2(b, 16, f), held2(b, 17, f), held1(b, 18, i), held3(b, 19, f),
        held2(b, 20, np.uint8), held1(b, 21, i), held1(b, 22, i), held2(b, 23, f),
        held1(b, 24, i), held1(b, 25, f),
    )  # fmt: skip
    found = (
        held3(b, 26, f), held3(b, 27, f), held2(b, 28, f), held1(b, 29, i), held2(b, 30, i),
        held2(b, 31, f), held1(b, 32, f), held2(b, 33, i), held2(b, 34, f), held2(b, 35, f),
        held2(b, 36, f), held3(b, 37, f), held3(b, 38, f), held2(b, 39, f), held1(b, 40, f),
        held2(b, 41, i), held2(b, 42, f), held1(b, 43, i), held2(b, 44, i), held2(b, 45, f),
        held1(b, 46, f), held1(b, 47, f), held1(b, 48, i),
    )  # fmt: skip
    return _velocities(
        mi, mf, ws, held1(b, 3, f), held1(b, 4, f), held1(b, 5, f), held1(b, 6, i),
        held1(b, 7, f), held1(b, 8, f), (joints, geometry, found), solver, (pairs, penetration),
        staged,
    )  # fmt: skip


@jitable
def _velocities(mi, mf, ws, x, v_star, diagonal, si, sw, v_next, tables, solver, pairs, staged):
    """kernels.discrete_step.sap_velocities from x; ``tables``: (joints, geometry, found).
    ``staged`` 1: the Simulator's step, ws's positions and inertias are x's, and on success
    the step's contacts and impulses are kept (:func:`_keep_contacts`); 0: a rollout's state
    (kernels.rollouts), they are computed when needed and nothing is kept (its ``found`` has
    no room for the impulses). Returns the status."""
    joints, geometry, found = tables
    status, n = sap_velocities(
        model(mi, mf), parameters(mi, ws), workspace(mi, ws), x, v_star, diagonal, staged != 0,
        si, sw, solver, pairs, joints, geometry, found, v_next,
    )  # fmt: skip
    if staged != 0 and status == SAP_SUCCESS:
        _keep_contacts(si, sw, found, n)
    return status


@entry_point
def hold_tables(block, joints, geometry, found):
    """Compiled, writes the joint constraints' and contact tables' arrays (kernels.
    discrete_step) into drive_discrete_steps' ``block`` (STEP_BLOCK int64s, from TABLES_AT:
    :func:`sap_velocities_at`'s), once for a call of it, so that it takes the block alone,
    not the tables (compiled once for every joint type, the tables' 40 arrays are unboxed
    and held by this entry point, not by each set's drive_discrete_steps); interpreted,
    nothing (drive_discrete_steps then takes the tuple (joints, geometry, found) as its
    ``block``)."""
    _hold_tables(block, joints, geometry, found)


def _hold_tables(block, joints, geometry, found):
    """(interpreted: nothing, see :func:`hold_tables`)"""


@overload(_hold_tables)
def _hold_tables_compiled(block, joints, geometry, found):
    def impl(block, joints, geometry, found):
        hold(block[TABLES_AT:], joints + geometry + found)

    return impl


def hold_step(block, mi, mf, ws, x, v_star, diagonal, si, sw, v_next):
    """Compiled, writes the first 9 arrays :func:`sap_velocities_at` takes into ``block``,
    once for the steps of a call; interpreted, nothing (the steps pass the arrays
    themselves: :func:`step_velocities`)."""


@overload(hold_step)
def _hold_step_compiled(block, mi, mf, ws, x, v_star, diagonal, si, sw, v_next):
    def impl(block, mi, mf, ws, x, v_star, diagonal, si, sw, v_next):
        hold(block, (mi, mf, ws, x, v_star, diagonal, si, sw, v_next))

    return impl


def hold_velocities(block, mi, mf, ws, x, v_star, diagonal, si, sw, v_next, tables):
    """Compiled, writes all the arrays :func:`sap_velocities_at` takes into ``block``
    (STEP_BLOCK int64s; ``tables``: (joints, geometry, found)) and returns it; interpreted,
    returns ``tables`` (:func:`step_velocities`' interpreted ``block``). For a caller whose
    arrays are the same at every call (kernels.rollouts' thread)."""
    return tables


@overload(hold_velocities)
def _hold_velocities_compiled(block, mi, mf, ws, x, v_star, diagonal, si, sw, v_next, tables):
    def impl(block, mi, mf, ws, x, v_star, diagonal, si, sw, v_next, tables):
        joints, geometry, found = tables
        hold(block, (mi, mf, ws, x, v_star, diagonal, si, sw, v_next) + joints + geometry + found)
        return block

    return impl


def step_velocities(mi, mf, ws, x, v_star, diagonal, si, sw, v_next, solver, pairs, at, block,
                    staged):  # fmt: skip
    """:func:`_velocities` (its status; ``staged`` 1 or 0): interpreted, here, ``block`` the
    tuple (joints, geometry, found); compiled, by the kernel at the address ``at``
    (``Kernels.address("sap_velocities_at")``), called, not linked into the caller's code,
    of the arrays held in ``block`` (:func:`hold_step` and :func:`hold_tables`, or
    :func:`hold_velocities`)."""
    return _velocities(mi, mf, ws, x, v_star, diagonal, si, sw, v_next, block, solver, pairs,
                       staged)  # fmt: skip


@overload(step_velocities)
def _step_velocities_compiled(mi, mf, ws, x, v_star, diagonal, si, sw, v_next, solver, pairs,
                              at, block, staged):  # fmt: skip
    def impl(mi, mf, ws, x, v_star, diagonal, si, sw, v_next, solver, pairs, at, block, staged):
        return call_at(at, (address_of(block), solver, pairs[0], pairs[1], staged))

    return impl


@jitable
def _keep_contacts(si, sw, found, n):
    """Keeps the step's n point pairs (their geometry pairs and rows), SAP's impulses γ and
    those of its PD controllers in ``found``'s last entries (see kernels.discrete_step), for
    the step's memory."""
    t, w = sap_table(si, si), sap_workspace(si, sw)
    found[17][0] = n
    pairs, rows, last_pairs, last_rows = found[4], found[5], found[18], found[19]
    last_gamma, last_pd = found[20], found[21]
    for i in range(n):
        last_pairs[i, 0], last_pairs[i, 1] = pairs[i, 0], pairs[i, 1]
        for k in range(rows.shape[1]):
            last_rows[i, k] = rows[i, k]
    gamma, table = w.gamma, t.constraints
    for r in range(t.counts[1]):
        last_gamma[r] = gamma[r]
    j = 0
    for c in range(t.counts[0]):
        if table[c, SAP_KIND] == SAP_PD_CONTROLLER:
            last_pd[j] = gamma[table[c, SAP_START]]
            j += 1
