"""Kernels called by address (kernels._by_address): a kernel compiled alone and called from
compiled code through its address gives the bits of the same kernel linked into its caller,
and of the interpreted one, which calls the Python function."""

import numpy as np
import pytest
from numba import carray
from numba.core.errors import TypingError
from numba.extending import overload

from mallard._compiled import DERIVATIVES_AT, by_address, kernels
from mallard.multibody._batch_codes import FORWARD, INVERSE
from mallard.multibody._kernels._by_address import (
    HELD,
    address_of,
    call_at,
    held1,
    held2,
    held3,
    hold,
)
from mallard.multibody._kernels._numba_internals import WITHOUT_RUNTIME, njit_cached
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.discrete_step import find_point_pairs, point_pairs
from mallard.multibody._kernels.engine_derivatives import DERIVATIVE_ARRAYS, dynamics_derivatives
from mallard.multibody._kernels.sap import _solve
from mallard.multibody._kernels.step_velocities import (
    STEP_BLOCK,
    _velocities,
    hold_step,
    hold_velocities,
    step_velocities,
)
from mallard.multibody._kernels.views import sap_table, sap_workspace
from mallard.multibody._layout import DERIVATIVES

from .kernel_cases import CASES, ByMode, Sample, _contact_tables, _sap_args


@by_address
def _scale_at(a, n, factor):
    """a[:n] *= factor (a the address of int64s); returns their sum."""
    a = carray(pointer(a), n, np.int64)
    total = 0
    for i in range(n):
        a[i] *= factor
        total += a[i]
    return total


def _scale(a, factor, scale):
    """_scale_at on the array ``a`` (interpreted: here), compiled by address ``scale``."""
    a *= factor
    return int(a.sum())


@overload(_scale)
def _scale_compiled(a, factor, scale):
    return lambda a, factor, scale: call_at(scale, (address_of(a), a.shape[0], factor))


def _twice_scaled(a, factor, scale):
    return _scale(a, factor, scale) + _scale(a, factor, scale)


def test_a_kernel_called_by_its_address():
    """The compiled caller calls the kernel at the address Kernels.address gives (once per
    process), passing the address of its array's data; interpreted, the address is 0."""
    caller = njit_cached(_twice_scaled, **WITHOUT_RUNTIME)
    scale = kernels(np.float64).address("_scale_at")
    assert scale == kernels(np.float64).address("_scale_at") and scale > 0
    assert kernels(object).address("_scale_at") == 0
    a = np.arange(5, dtype=np.int64)
    assert caller(a, 3, scale) == 30 + 90
    np.testing.assert_array_equal(a, 9 * np.arange(5))
    b = np.arange(5, dtype=np.int64)
    assert _twice_scaled(b, 3, 0) == 120 and np.array_equal(a, b)


def test_by_address_takes_c_contiguous_arrays_and_integers():
    caller = njit_cached(_twice_scaled, **WITHOUT_RUNTIME)
    with pytest.raises(TypingError, match=r"address_of\(array\(int64, 1d, A\)\)"):
        caller(np.arange(10, dtype=np.int64)[::2], 3, 0)
    with pytest.raises(TypingError, match=r"call_at\(int64, Tuple\(int64, int64, float64\)\)"):
        caller(np.arange(5, dtype=np.int64), 3.0, 0)
    with pytest.raises(AttributeError, match="no by-address kernel"):
        kernels(np.float64).address("no_such_kernel")


def _linked_solve(si, sw, M, diagonal):
    """SAP's solve linked into this function (what drive_discrete_steps did)."""
    return _solve(sap_table(si, si), sap_workspace(si, sw), M, diagonal)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_sap_by_address_is_sap_linked_and_interpreted_to_the_bit(seed):
    """SAP's solve through its one compiled solver (sap_solve, by address), linked into the
    caller, and interpreted: the same workspace (solution, impulses, statistics), bit for
    bit, and the same status."""
    si, sw, M, diagonal = _sap_args(np.random.default_rng(seed), True)
    linked = njit_cached(_linked_solve, error_model="numpy", **WITHOUT_RUNTIME)
    results = []
    for run in ("address", "linked", "interpreted"):
        w = sw.copy()
        if run == "address":
            status = kernels(np.float64).sap_solve(
                si, w, M, diagonal, kernels(np.float64).address("sap_solve_at")
            )
        elif run == "linked":
            status = linked(si, w, M, diagonal)
        else:
            w = w.astype(object)
            status = kernels(object).sap_solve(si, w, M.astype(object), diagonal.astype(object), 0)
            w = w.astype(np.float64)
        results.append((status, w))
    (status, w), *others = results
    for other_status, other in others:
        assert other_status == status
        np.testing.assert_array_equal(other.view(np.int64), w.view(np.int64))


def _held_back(block, a, b, c):
    """Holds (a, b, c) in ``block`` and views them again from it; adds 1 to a and b and sets
    c[1, 2, 3] = 7 through its view; returns their sums."""
    hold(block, (a, b, c))
    x, y, z = held1(block, 0, np.int64), held2(block, 1, np.float64), held3(block, 2, np.uint8)
    x += 1
    y += 1.0
    z[1, 2, 3] = 7
    return x.sum(), y.sum(), z.sum()


def test_a_block_holds_arrays_by_address_and_sizes():
    """hold writes each array's address and sizes (1 past its dimensions) into HELD slots;
    held1/2/3 view the same memory again."""
    caller = njit_cached(_held_back, **WITHOUT_RUNTIME)
    a, b = np.arange(3, dtype=np.int64), np.zeros((2, 5))
    c = np.zeros((2, 3, 4), dtype=np.uint8)
    block = np.zeros(3 * HELD, dtype=np.int64)
    assert caller(block, a, b, c) == (6, 10.0, 7)
    assert block.tolist() == [
        a.ctypes.data, 3, 1, 1, b.ctypes.data, 2, 5, 1, c.ctypes.data, 2, 3, 4,
    ]  # fmt: skip
    assert a.tolist() == [1, 2, 3] and (b == 1.0).all() and c[1, 2, 3] == 7


def _find_pairs(X_WB, geometry, found, pairs):
    return find_point_pairs(X_WB, geometry, found, pairs)


def _linked_pairs(X_WB, geometry, found):
    """The pair kernel linked into this function (what drive_discrete_steps did), the
    penetration linked into it."""
    return point_pairs(X_WB, geometry, found, None)


def test_the_pair_kernel_by_address_is_linked_and_interpreted_to_the_bit():
    """The contact queries' pair kernel (discrete_step.point_pairs_at) through its block,
    calling the penetration by address (narrowphase.penetration_at), the same kernels linked
    into the caller, and interpreted: the same count and the same found arrays (poses, boxes,
    pairs, rows, bodies, parameters), bit for bit, at poses where some pairs penetrate."""
    by_address = njit_cached(_find_pairs, error_model="numpy", **WITHOUT_RUNTIME)
    linked = njit_cached(_linked_pairs, error_model="numpy", **WITHOUT_RUNTIME)
    k = kernels(np.float64)
    address = (k.address("point_pairs_at"), k.address("penetration_at"))
    counts = []
    for seed in range(4):
        s = Sample(np.random.default_rng(seed))
        geometry, found = _contact_tables(s, 64, 4)
        allowed = geometry[5].copy()
        allowed[allowed == 2] = 1  # (no pair the Python path raises for)
        geometry = geometry[:5] + (allowed,) + geometry[6:]
        X_WB = np.zeros((s.sizes.n, 4, 3))
        for k in range(s.sizes.n):
            X_WB[k, :3] = np.eye(3)
            X_WB[k, 3] = s.rng.uniform(-0.4, 0.4, 3)
        results = []
        for run in ("address", "linked", "interpreted"):
            f = tuple(a.copy() for a in found)
            if run == "address":
                n = by_address(X_WB, geometry, f, address)
            elif run == "linked":
                n = linked(X_WB, geometry, f)
            else:
                n = point_pairs(X_WB, geometry, f, None)
            results.append((n, f))
        (n, f), *others = results
        for other_n, other in others:
            assert other_n == n
            for a, b in zip(other[:9], f[:9], strict=True):
                np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
        counts.append(n)
    assert min(counts) >= 0 and max(counts) > 0, counts


def _step_by_address(mi, mf, ws, x, v_star, diagonal, si, sw, v_next, solver, pairs, at,
                     block, tables, staged):  # fmt: skip
    """The step's velocities as the Simulator's step holds them (staged: the tables already
    held by hold_tables) or as a rollout does (hold_velocities); interpreted, ``block`` is
    ``tables``."""
    if staged:
        hold_step(block, mi, mf, ws, x, v_star, diagonal, si, sw, v_next)
    else:
        block = hold_velocities(block, mi, mf, ws, x, v_star, diagonal, si, sw, v_next, tables)
    return step_velocities(
        mi, mf, ws, x, v_star, diagonal, si, sw, v_next, solver, pairs, at, block, staged
    )


def _step_linked(mi, mf, ws, x, v_star, diagonal, si, sw, v_next, solver, pairs, at, block,
                 tables, staged):  # fmt: skip
    """The step's velocities linked into this function (what drive_discrete_steps and
    batch_rollout did)."""
    return _velocities(mi, mf, ws, x, v_star, diagonal, si, sw, v_next, tables, solver, pairs,
                       staged)  # fmt: skip


@pytest.mark.parametrize("staged", [1, 0])
def test_the_step_velocities_by_address_are_linked_and_interpreted_to_the_bit(staged):
    """The discrete step's velocities (step_velocities.sap_velocities_at) through its block, linked
    into the caller, and interpreted, from the state of drive_discrete_steps' kernel case
    (point contacts, a limit, a PD controller, a coupler): the same status, and the same v⁺,
    SAP workspace and contact tables, bit for bit. Staged (the Simulator's step: the tables
    held by hold_tables, the positions and inertias staged), the contacts and impulses are
    kept; not (a rollout's state: all held by hold_velocities, the stages computed), nothing
    is kept."""
    from mallard.multibody._layout import BIAS, INERTIAS, POSITIONS, VELOCITIES

    case = CASES["drive_discrete_steps"](np.random.default_rng(3))
    args = [a.compiled if isinstance(a, ByMode) else a for a in case]
    mi, mf, ws, x = args[:4]
    diagonal, si, sw, solver, pairs, at = args[7:13]
    joints, geometry, found = case[13].interpreted
    if staged:
        kernels(np.float64).drive_stages(mi, mf, x, ws, POSITIONS | VELOCITIES | INERTIAS | BIAS)
    nv = diagonal.shape[0]
    v_star = x[-nv:] + 1e-3 * np.random.default_rng(5).normal(size=nv)
    compiled = {"error_model": "numpy", **WITHOUT_RUNTIME}
    runs = {
        "address": njit_cached(_step_by_address, **compiled),
        "linked": njit_cached(_step_linked, **compiled),
        "interpreted": _step_by_address,
    }
    results = []
    for name, run in runs.items():
        w, s, f, v_next = ws.copy(), sw.copy(), tuple(a.copy() for a in found), np.zeros(nv)
        block = tables = (joints, geometry, f)
        if name != "interpreted":
            block = np.zeros(STEP_BLOCK, dtype=np.int64)
            if staged:
                kernels(np.float64).hold_tables(block, *tables)
        where = (0, (0, 0), 0) if name == "interpreted" else (solver, pairs, at)
        status = run(mi, mf, w, x, v_star, diagonal, si, s, v_next, *where, block, tables, staged)
        results.append((status, v_next, s, f[:22]))  # (f[22]: the pair kernel's block)
    (status, v_next, s, f), *others = results
    assert status == 0, status  # (solved)
    if staged:
        assert f[17][0] > 0, f[17]  # (with contacts, kept)
    else:
        for kept, before in zip(f[17:22], found[17:22], strict=True):
            np.testing.assert_array_equal(kept, before)
        assert not np.array_equal(v_next, v_star)  # (a constraint acted)
    for other_status, other_v, other_s, other_f in others:
        assert other_status == status
        for a, b in zip((other_v, other_s, *other_f), (v_next, s, *f), strict=True):
            np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


def _query_three_ways(name, seed):
    """The proximity query ``name`` on the geometry cases' scene (tests.geometry.kernel_cases)
    with the kernels of kernels.queries.ADDRESSES by address (the model's held block), linked
    (compiled with the tuple of held arrays) and interpreted, all the same bits: its count and
    its arrays after the call (pairs, then the query's own), float64; and the model."""
    from tests.geometry.kernel_cases import GEOMETRY_CASES

    held, X_WG, *args = GEOMETRY_CASES[name](np.random.default_rng(seed))
    m = held.model
    results = []
    for run in ("address", "linked", "interpreted"):
        a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
        dtype, first = np.float64, (m.held if run == "address" else m.held_arrays)
        if run == "interpreted":
            dtype, first = object, held.interpreted
            a = [x.astype(object) if getattr(x, "dtype", None) == np.float64 else x for x in a]
        k = getattr(kernels(dtype), name)(first, X_WG.astype(dtype), *a)
        arrays = [np.asarray(x, dtype=x.dtype if x.dtype != object else np.float64)
                  for x in a if isinstance(x, np.ndarray)]  # fmt: skip
        results.append((k, arrays))
    (k, arrays), *others = results
    for other_k, other in others:
        assert other_k == k
        for x, y in zip(other, arrays, strict=True):
            np.testing.assert_array_equal(x.view(np.uint8), y.view(np.uint8))
    return k, arrays, m


@pytest.mark.parametrize("seed", [3, 4])
def test_epa_by_address_is_epa_linked_and_interpreted_to_the_bit(seed):
    """The signed distances of every pair of the geometry cases' scene (GJK, then EPA for the
    overlapping ones): EPA by address, linked and interpreted give the same rows, bit for
    bit."""
    from mallard.geometry import _proximity_layout as layout

    k, (pairs, rows), m = _query_three_ways("proximity_signed_distances", seed)
    kinds = m.kinds[pairs[:k]]
    by_gjk = ~np.isin(kinds, (layout.SPHERE, layout.HALFSPACE)).any(axis=1)
    assert (rows[:k, 0][by_gjk] < 0).any()  # (pairs EPA answered)


@pytest.mark.parametrize("seed", [3, 4])
def test_the_penetration_by_address_is_linked_and_interpreted_to_the_bit(seed):
    """The penetrations of every pair of the geometry cases' scene (the closed forms, FCL's,
    MPR's): the penetration by address (narrowphase.penetration_at), linked and interpreted
    give the same rows and pairs, bit for bit."""
    from mallard.geometry import _proximity_layout as layout

    k, (_, rows, found), m = _query_three_ways("proximity_penetrations", seed)
    kinds = m.kinds[found[:k]]
    by_mpr = ~np.isin(kinds, (layout.SPHERE, layout.HALFSPACE)).any(axis=1)
    by_mpr &= ~(kinds == layout.BOX).all(axis=1)
    assert by_mpr.any() and (rows[:k, 0] > 0).all()  # (pairs MPR answered)


def _linked_derivatives(forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, at):
    """The derivatives' drivers linked into this function (what the plant's entry points
    and SingleStatePlant's did), the forward dynamics and the stages by address (``at``)."""
    return dynamics_derivatives(
        forward, mi, mf, x, ws, need, A, B, F_B, dws, D1, D2, D3, at[1], at[2]
    )


@pytest.mark.parametrize("forward", [INVERSE, FORWARD])
@pytest.mark.parametrize("covered", [False, True])
def test_the_derivatives_by_address_are_linked_and_interpreted_to_the_bit(forward, covered):
    """The derivatives of inverse and forward dynamics through their kernel called by address
    (engine_derivatives.dynamics_derivatives_at, its block in the derivative workspace), the
    same drivers linked into the caller, and interpreted: the same status and outputs and the
    same workspace, bit for bit, for models the recursions cover and models of every joint
    type (the tangent sweeps, applied body forces)."""
    assert DERIVATIVES.shapes[DERIVATIVES.names.index("block")] == (HELD * DERIVATIVE_ARRAYS,)
    linked = njit_cached(_linked_derivatives, error_model="numpy", **WITHOUT_RUNTIME)
    addresses = kernels(np.float64).addresses(DERIVATIVES_AT)
    for seed in range(3):
        s = Sample(np.random.default_rng(seed), covered=covered)
        nq, nv, n = s.sizes.nq, s.sizes.nv, s.sizes.n
        mi, mf, x, ws, need = s.head()
        A = s.normal(s.sizes.nu if forward == FORWARD else nv)
        F_B = np.zeros((n, 6)) if covered else s.normal(n, 6)
        inputs = (forward, mi, mf, x, ws, need, A, s.normal(nv), F_B)
        results = []
        for run in ("address", "linked", "interpreted"):
            outs = [np.zeros(s.sizes.dws), np.zeros((nv, nq)), np.zeros((nv, nv))]
            outs.append(np.zeros((nv, nv)))
            args = [a.copy() if isinstance(a, np.ndarray) else a for a in inputs + tuple(outs)]
            if run == "address":
                status = kernels(np.float64).drive_dynamics_derivatives(*args, addresses)
            elif run == "linked":
                status = linked(*args, addresses)
            else:
                args = [a.astype(object) if isinstance(a, np.ndarray) else a for a in args]
                at = kernels(object).addresses(DERIVATIVES_AT)
                status = kernels(object).drive_dynamics_derivatives(*args, at)
                args = [a.astype(np.float64) if isinstance(a, np.ndarray) else a for a in args]
            block = DERIVATIVES.views(args[9], s.sizes).block  # (addresses by address only)
            block[:] = 0.0
            results.append((status, args[4], args[9:]))
        (status, ws_, outs), *others = results
        for other_status, other_ws, other_outs in others:
            assert other_status == status
            np.testing.assert_array_equal(other_ws.view(np.int64), ws_.view(np.int64))
            for a, b in zip(other_outs, outs, strict=True):
                np.testing.assert_array_equal(a.view(np.int64), b.view(np.int64))


def test_single_states_derivatives_hold_their_kernels_address():
    """SingleStatePlant's derivative entry points find the addresses of the derivatives'
    kernel and of those it calls (DERIVATIVES_AT) in their Held block, set before their first
    call (Held.hold_derivatives), once."""
    from mallard.multibody._kernels.single import _DERIVATIVES_AT, _STATE_CODE_AT, Held

    s = Sample(np.random.default_rng(0))
    held = Held(s.mi, s.mf, np.zeros(8))
    assert (held.block[_DERIVATIVES_AT:_STATE_CODE_AT] == 0).all()
    held.hold_derivatives()
    addresses = kernels(np.float64).addresses(DERIVATIVES_AT)
    assert (held.block[_DERIVATIVES_AT:_STATE_CODE_AT] == addresses).all() and addresses.all()
    held.hold_derivatives()
    assert (held.block[_DERIVATIVES_AT:_STATE_CODE_AT] == addresses).all()


def test_single_states_failure_path_is_called_by_address():
    """A Held holds, from its construction, the address of the kernel SingleStatePlant's entry
    points call for a state that fails their cheap test (kernels.single.state_code_at: its
    code linked into none of them; test_single_state checks the codes it returns)."""
    from mallard.multibody._kernels.single import _STATE_CODE_AT, Held

    s = Sample(np.random.default_rng(0))
    held = Held(s.mi, s.mf, np.zeros(8))
    assert held.block[_STATE_CODE_AT] == kernels(np.float64).address("state_code_at") != 0
