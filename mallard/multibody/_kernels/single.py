"""Single-state entry points: one state's kinematics, dynamics and derivatives without a
Context, from arrays into the caller's outputs (mallard.multibody.single_state; BatchedPlant
calls them for a batch of one state).

Every entry point takes first ``held``: the flat model (``mi``, ``mf``) and a ``row`` (a batch
row followed by a derivative row, kernels.batch: a workspace with its parameter stage, a state
x, generalized forces, body forces, actuation, a derivative workspace and its outputs; made by
``batch_new_row(mi, ws0, row, False)``), as the tuple (mi, mf, row) or, compiled, as the
address of a :class:`Held` block (one number: numba converts each array argument of a call
from Python, about 0.03 µs each, a number for almost nothing; it holds too the addresses of
the derivatives' kernel, kernels.engine_derivatives.dynamics_derivatives_at, and of the
kernels it calls (mallard._compiled.DERIVATIVES_AT), which the two derivative entry points
call rather than link, and of :func:`state_code_at`, which every entry
point calls for a state it does not compute). Then the state and inputs as
1-D arrays (an optional input of length zero, or None, is zero), then the outputs. It returns
the state's status code, as the batched entry points' (kernels.batch: 0, or NONFINITE,
ZERO_QUATERNION, NOT_POSITIVE_DEFINITE with their detail), the outputs being NaN in full for a
state with a code, or :data:`WRONG_SHAPES` (nothing computed or written) if an argument's shape
is not the model's: the entry points test their arguments' shapes, so that Python need only
make sure of their types (mallard.multibody.single_state: numba's dispatcher, in C). The cheap
test of :func:`_computable` comes next; the code is worked out only for a state that fails it.

A state is computed exactly as the batched kernels compute each state (the same stage
functions in the same order, on the row's plain workspace instead of lanes; the positions
stage of forward and inverse dynamics stores only the joint frames' poses the acceleration
bias reads, kinematics.DYNAMICS), so that its
results are the plant's own single-state results and the batch's, to the last bit. The row
keeps nothing from call to call that a result depends on: each entry point sets the inputs it
reads (x, and the generalized and body forces and actuation it uses) and recomputes every
stage it needs, so that one row serves every entry point.
"""

import numpy as np
from numba import carray, types
from numba.extending import overload

from mallard._compiled import DERIVATIVES_AT, by_address, entry_point, kernels
from mallard.multibody._batch_codes import FORWARD, INVERSE, KINDS, NOT_POSITIVE_DEFINITE
from mallard.multibody._joint_types import QUATERNION_FLOATING
from mallard.multibody._kernels._by_address import HELD, address_of, call_at, held1, held2, hold
from mallard.multibody._kernels._machinery import jitable, reshaped
from mallard.multibody._kernels._numba_internals import c_view, kernels_internal_to
from mallard.multibody._kernels._pointer import pointer
from mallard.multibody._kernels.batch import (
    _fill,
    _state_code,
    value_of,
)
from mallard.multibody._kernels.dynamics import calc_body_inertias, calc_mass_matrix
from mallard.multibody._kernels.engine import (
    force_elements,
    forward_accelerations,
    inverse_dynamics,
    point_jacobian,
)
from mallard.multibody._kernels.engine_derivatives import (
    derivatives_by_address,
    fresh_recursive_derivatives,
)
from mallard.multibody._kernels.kinematics import (
    COLUMNS,
    DYNAMICS,
    LAYER_WB,
    POSES,
    calc_position_kinematics,
)
from mallard.multibody._kernels.recursive_derivatives import covers
from mallard.multibody._kernels.views import (
    batch_row,
    derivative_row,
    derivatives,
    model,
    parameters,
    workspace,
)
from mallard.multibody._layout import (
    BIAS,
    BODY,
    INERTIAS,
    JTYPE,
    POSITIONS,
    Q_START,
    SIZE,
    VELOCITIES,
)

#: The status of a call whose arguments' shapes are not the model's (nothing computed).
WRONG_SHAPES = -1

_ALL = POSITIONS | VELOCITIES | INERTIAS | BIAS
_AFTER_POSITIONS = VELOCITIES | INERTIAS | BIAS  # (positions: calc_position_kinematics' DYNAMICS)
_ROW = SIZE["row"]


# ---- helpers -------------------------------------------------------------------------------
@jitable(inline=True)
def _one(a, width):
    """The 1-D input ``a`` as a batch of its one state, (1, width), or of none, (0, width),
    for an input of length zero (as kernels.batch takes optional inputs)."""
    return reshaped(a, (min(a.shape[0], 1), width))  # (no branch: numba's SSA warns on one)


def _given(a, like):
    """``a``, or for None an array of length zero (like ``like``'s): an optional input may be
    given as None, which costs the call no array to convert."""
    return like[0:0] if a is None else a


@overload(_given)
def _given_compiled(a, like):
    if isinstance(a, types.NoneType):
        return lambda a, like: like[0:0]
    return lambda a, like: a


def _borrowed(a):
    """``a`` (interpreted); compiled, a C-contiguous array ``a`` as a view holding no
    reference to its memory (kernels._machinery.reshaped), so that the kernels' calls that
    take it, and its slices, count no references (an atomic operation each, on the one
    counter of the caller's array: the largest fixed cost of a single call). The entry
    points view their arguments so, first: the arguments outlive the call."""
    return a


@overload(_borrowed)
def _borrowed_compiled(a):
    if isinstance(a, types.Array) and a.layout == "C":
        return lambda a: c_view(a, a.shape)
    return lambda a: a


#: The first slot of a Held block holding the addresses of DERIVATIVES_AT (0 until held).
_DERIVATIVES_AT = 8
#: The slot of a Held block holding :func:`state_code_at`'s address.
_STATE_CODE_AT = _DERIVATIVES_AT + len(DERIVATIVES_AT)


class Held:
    """The arrays ``mi``, ``mf`` and ``row`` (C-contiguous: int64, float64, float64) and, for
    the Jacobian entry points, a frame's record ``frame`` (:func:`frame_record`) as one
    number for the compiled entry points: ``address``, that of an int64 block [address, size]
    of each (zeros for no frame), then the addresses of the derivatives' kernels
    (:meth:`hold_derivatives`) and that of :func:`state_code_at` (compiled, or loaded from
    numba's cache, at the first Held of a process), valid while this object lives (it holds
    the block and the arrays). The address is a float (exact: below 2**53), which numba
    converts from Python in fewer steps than an int of more than 30 bits (~0.012 µs of a
    call; docs/performance_history.md)."""

    def __init__(self, mi, mf, row, frame=None):
        self.arrays = (mi, mf, row) if frame is None else (mi, mf, row, frame)
        dtypes = (np.int64, np.float64, np.float64, np.float64)
        for a, dtype in zip(self.arrays, dtypes, strict=False):
            if not (a.dtype == dtype and a.ndim == 1 and a.flags.c_contiguous):
                raise TypeError("Held: mi, mf, row, frame must be C-contiguous 1-D int64, float64")
        if frame is not None and frame.size != FRAME_RECORD:
            raise TypeError(f"Held: a frame's record has {FRAME_RECORD} elements")
        self.block = np.zeros(_STATE_CODE_AT + 1, dtype=np.int64)
        for i, a in enumerate(self.arrays):
            self.block[2 * i : 2 * i + 2] = a.ctypes.data, a.size
        self.block[_STATE_CODE_AT] = kernels(np.float64).address("state_code_at")
        self.address = float(self.block.ctypes.data)
        if self.address >= 2.0**53:  # (not exact as a float)
            raise OverflowError("Held: an address beyond 2**53")

    def hold_derivatives(self):
        """Holds the addresses of the derivatives' kernels (DERIVATIVES_AT: compiled, or loaded
        from numba's cache, at the first call in a process), which
        :func:`single_inverse_dynamics_derivatives` and
        :func:`single_forward_dynamics_derivatives` call: to be done before they are."""
        if self.block[_DERIVATIVES_AT] == 0:
            at = kernels(np.float64).addresses(DERIVATIVES_AT)
            self.block[_DERIVATIVES_AT:_STATE_CODE_AT] = at


def _held(held):
    """(mi, mf, row) of an entry point's first argument (see the module's docstring)."""
    return held[0], held[1], held[2]


@jitable
def _block(held, n):
    """The first n int64s of the block of the Held whose address is ``held`` (a float)."""
    return carray(pointer(np.int64(held)), n, np.int64)


@overload(_held)
def _held_compiled(held):
    if isinstance(held, types.Float):  # (Held.address: views holding no reference)

        def impl(held):
            b = _block(held, 6)
            mi = carray(pointer(b[0]), b[1], np.int64)
            mf = carray(pointer(b[2]), b[3], np.float64)
            return mi, mf, carray(pointer(b[4]), b[5], np.float64)

        return impl
    return lambda held: (_borrowed(held[0]), _borrowed(held[1]), _borrowed(held[2]))


def _derivatives_at(held):
    """The addresses of the derivatives' kernels held in ``held`` (:meth:`Held.
    hold_derivatives`), a view of its block; interpreted, zeros (unused: kernels.
    engine_derivatives.derivatives_by_address)."""
    return np.zeros(len(DERIVATIVES_AT), dtype=np.int64)


@overload(_derivatives_at)
def _derivatives_at_compiled(held):
    if isinstance(held, types.Float):
        n = len(DERIVATIVES_AT)
        return lambda held: carray(pointer(np.int64(held) + 8 * _DERIVATIVES_AT), n, np.int64)
    return None  # (compiled, the derivative entry points take a Held's address: a typing error)


# A state that fails the cheap test (_computable: a NaN, a zero quaternion) has its code worked
# out by a kernel called by address, not linked into each of the seven entry points (its code
# was about a tenth of their modules; good states never call it).
@by_address
def state_code_at(block):
    """kernels.batch._state_code of the state held in the block at ``block`` (kernels.
    _by_address.hold: mi, mf, the state's Q, A1, A2, A3 as batches of one or no row, and the
    one-scalar status scratch), which :func:`_code` calls compiled."""
    b = carray(pointer(block), HELD * 7, np.int64)
    f = np.float64
    m = model(held1(b, 0, np.int64), held1(b, 1, f))
    Q, A1, A2, A3 = held2(b, 2, f), held2(b, 3, f), held2(b, 4, f), held2(b, 5, f)
    return _state_code(m, 0, Q, A1, A2, A3, held1(b, 6, f))


def _code(held, mi, mf, row, Q, A1, A2, A3):
    """The status code of a state that fails :func:`_computable` (its inputs Q, A1, A2, A3 as
    batches of one state, or of none: :func:`_one`), into ``row``'s derivative row's status
    scratch: interpreted, here; compiled, by :func:`state_code_at` at the address ``held``
    holds, its arrays written into the derivative row's block."""
    return _state_code(model(mi, mf), 0, Q, A1, A2, A3, _derivative_code(mi, row))


@overload(_code)
def _code_compiled(held, mi, mf, row, Q, A1, A2, A3):
    if not isinstance(held, types.Float):  # (the tuple (mi, mf, row): linked)
        return lambda held, mi, mf, row, Q, A1, A2, A3: _state_code(
            model(mi, mf), 0, Q, A1, A2, A3, _derivative_code(mi, row)
        )

    def impl(held, mi, mf, row, Q, A1, A2, A3):
        d = derivative_row(mi, row[mi[_ROW] :])
        block = derivatives(mi, d.dws).block.view(np.int64)
        hold(block, (mi, mf, Q, A1, A2, A3, d.code))
        at = _block(held, _STATE_CODE_AT + 1)[_STATE_CODE_AT]
        return call_at(at, (address_of(block),))

    return impl


#: The length of a frame record (:func:`frame_record`).
FRAME_RECORD = 16


def frame_record(k, X_BF):
    """A frame F's record: a float64 array holding X_BF (the 4×3 pose of F in the body of
    mobod k, row by row), then k, then F's origin in F (zeros: the point of
    :func:`single_frame_jacobian`), held with the model for the Jacobian entry points (see
    :class:`Held`: one number, cheaper to pass than k and X_BF)."""
    record = np.zeros(FRAME_RECORD)
    record[:12] = np.asarray(X_BF, dtype=np.float64).reshape(-1)
    record[12] = k
    return record


def _held_frame(held):
    """(k, X_BF, p_FoFo) of the frame record of an entry point's first argument (a Held of a
    frame: interpreted, the tuple (mi, mf, row, record)), X_BF and the zeros p_FoFo views of
    it; k = -1 (a bad mobod) if it has none."""
    if len(held) < 4:
        return -1, np.zeros((4, 3)), np.zeros(3)
    return int(held[3][12]), held[3][:12].reshape(4, 3), held[3][13:16]


@overload(_held_frame)
def _held_frame_compiled(held):
    if isinstance(held, types.Float):  # (Held.address: views holding no reference)

        def impl(held):
            b = _block(held, 8)
            record = carray(pointer(b[6]), FRAME_RECORD, np.float64)
            k = int(record[12]) if b[7] == FRAME_RECORD else -1  # (b[7] = 0: no frame)
            return k, c_view(record, (4, 3)), record[13:16]

        return impl
    return lambda held: (int(held[3][12]), c_view(held[3], (4, 3)), held[3][13:16])


# (The shape tests combine booleans with & and |, without branches: numba's SSA warns on a
# short-circuit ``and`` in a function inlined into an entry point.)
@jitable(inline=True)
def _sized(a, n):
    """Whether the 1-D array ``a`` has n elements."""
    return a.shape[0] == n


@jitable(inline=True)
def _sized_or_empty(a, n):
    """Whether the 1-D array ``a`` (an optional input) has n elements or none."""
    return (a.shape[0] == n) | (a.shape[0] == 0)


@jitable(inline=True)
def _sized2(a, rows, columns):
    """Whether the 2-D array ``a`` is rows × columns."""
    return (a.shape[0] == rows) & (a.shape[1] == columns)


@jitable
def _finite(a):
    """Whether the 1-D array ``a`` is finite: x·0 == 0 exactly for a finite x (independent
    tests joined with &, which vectorize, not a chain of additions)."""
    ok = True
    for j in range(a.shape[0]):
        ok &= value_of(a[j], 0.0) * 0.0 == 0.0
    return ok


@jitable
def _computable(m, q, a1, a2, a3):
    """Whether the state has no status code (kernels.batch._check_group): its inputs (1-D
    arrays) finite and no quaternion's four positions zero; the cheap test before any code is
    worked out."""
    if not (_finite(q) & _finite(a1) & _finite(a2) & _finite(a3)):
        return False
    if m.nq == m.nv:  # (no quaternion floating joint: the only joints with more q than v)
        return True
    tree = m.tree
    for k in range(1, m.n):
        if tree[k, JTYPE] == QUATERNION_FLOATING:
            i = tree[k, Q_START]
            if (
                value_of(q[i], 1.0) == 0.0
                and value_of(q[i + 1], 1.0) == 0.0
                and value_of(q[i + 2], 1.0) == 0.0
                and value_of(q[i + 3], 1.0) == 0.0
            ):
                return False
    return True


@jitable
def _load(a, x, start):
    """x[start:start + len(a)] = a."""
    for j in range(a.shape[0]):
        x[start + j] = a[j]


@jitable
def _load_or_zero(a, x):
    """x = a, or zero if ``a`` has length zero (an input not given)."""
    if a.shape[0] == 0:
        _fill(x, 0.0)
    else:
        _load(a, x, 0)


def _flat(a):
    """The C-contiguous array ``a`` as a 1-D view; compiled, without numba's general reshape
    (a call into its C helper) and holding no reference (see :func:`_borrowed`)."""
    return a.reshape(-1)


@overload(_flat)
def _flat_compiled(a):
    if isinstance(a, types.Array) and a.layout == "C":
        return lambda a: c_view(a, (a.size,))
    return lambda a: a.reshape(-1)


@jitable
def _store(source, out):
    """out = source (1-D or 2-D arrays of one shape)."""
    s, o = _flat(source), _flat(out)  # (both C-contiguous)
    for j in range(o.shape[0]):
        o[j] = s[j]


@jitable
def _nan(out):
    """out = NaN (all of it; C-contiguous)."""
    _fill(_flat(out), np.nan)


@jitable(inline=True)
def _views(mi, mf, row):
    """(model, r, params, work): the model, the BatchRow views of ``row`` and its
    workspace's parameters and other sections."""
    r = batch_row(mi, row)
    return model(mi, mf), r, parameters(mi, r.ws), workspace(mi, r.ws)


@jitable(inline=True)
def _derivative_views(mi, row):
    """(r, d): the BatchRow views of ``row``, its body forces set to zero (the derivative
    entry points apply none; each sets the other inputs it reads), and the DerivativeRow
    views past it."""
    r = batch_row(mi, row)
    _fill(_flat(r.F_B), 0.0)
    return r, derivative_row(mi, row[mi[_ROW] :])


@jitable(inline=True)
def _derivative_code(mi, row):
    """The one-scalar status scratch of ``row``'s derivative row."""
    return derivative_row(mi, row[mi[_ROW] :]).code


def _own_kernels(fn):
    """Makes the kernels linked into the entry point ``fn`` its own (internal to its machine
    code: _numba_internals.kernels_internal_to), so that LLVM drops the arguments they do not
    use and inlines those it calls once: numba passes a namedtuple of views as one argument
    per field of each array, and the calls of the model's and the workspace's views (~10
    words an array) were a third of a single call's compute."""
    kernels_internal_to(fn.__qualname__)
    return fn


# ---- entry points ----------------------------------------------------------------------------
@entry_point
@_own_kernels
@jitable(inline=True)
def single_body_poses(held, q, X_WB):
    """X_WB[b] = the pose of body b in World at q, a 4×4 homogeneous matrix
    [R_WB, p_WoBo_W; 0 0 0 1] (bodies indexed by BodyIndex)."""
    mi, mf, row = _held(held)
    q, X_WB = _borrowed(q), _borrowed(X_WB)
    m, r, params, work = _views(mi, mf, row)
    if not (_sized(q, m.nq) and X_WB.shape[0] == m.n and X_WB.shape[1] == 4 and X_WB.shape[2] == 4):
        return WRONG_SHAPES
    none = q[0:0]
    if not _computable(m, q, none, none, none):
        _nan(X_WB)
        empty = _one(none, 1)
        return _code(held, mi, mf, row, _one(q, m.nq), empty, empty, empty)
    _load(q, r.x, 0)
    calc_position_kinematics(m, params, work, r.x[0 : m.nq], POSES, 0)
    X_pc, tree = work.X_pc, m.tree
    for k in range(m.n):
        X = X_pc[LAYER_WB, k]
        T = X_WB[tree[k, BODY]]
        for i in range(3):
            T[i, 0] = X[i, 0]
            T[i, 1] = X[i, 1]
            T[i, 2] = X[i, 2]
            T[i, 3] = X[3, i]
            T[3, i] = 0.0
        T[3, 3] = 1.0
    return 0


@entry_point
@_own_kernels
@jitable(inline=True)
def single_mass_matrix(held, q, M):
    """M = M(q) (nv × nv, reflected rotor inertias included)."""
    mi, mf, row = _held(held)
    q, M = _borrowed(q), _borrowed(M)
    m, r, params, work = _views(mi, mf, row)
    if not (_sized(q, m.nq) and _sized2(M, m.nv, m.nv)):
        return WRONG_SHAPES
    none = q[0:0]
    if not _computable(m, q, none, none, none):
        _nan(M)
        empty = _one(none, 1)
        return _code(held, mi, mf, row, _one(q, m.nq), empty, empty, empty)
    _load(q, r.x, 0)
    calc_position_kinematics(m, params, work, r.x[0 : m.nq], COLUMNS, 0)
    calc_body_inertias(m, params, work)
    calc_mass_matrix(m, params, work, M)
    return 0


@entry_point
@_own_kernels
@jitable(inline=True)
def single_inverse_dynamics(held, q, v, vdot, tau_applied, tau):
    """tau = M·v̇ + C·v − tau_g − tau_applied + D·v at (q, v, v̇) (see
    kernels.batch.batch_inverse_dynamics); ``tau_applied`` None or of length zero: zero."""
    mi, mf, row = _held(held)
    q, v, vdot, tau = _borrowed(q), _borrowed(v), _borrowed(vdot), _borrowed(tau)
    tau_applied = _given(_borrowed(tau_applied), q)
    m, r, params, work = _views(mi, mf, row)
    nq, nv = m.nq, m.nv
    if not (
        _sized(q, nq)
        and _sized(v, nv)
        and _sized(vdot, nv)
        and _sized_or_empty(tau_applied, nv)
        and _sized(tau, nv)
    ):
        return WRONG_SHAPES
    if not _computable(m, q, v, vdot, tau_applied):
        _nan(tau)
        return _code(
            held, mi, mf, row, _one(q, nq), _one(v, nv), _one(vdot, nv), _one(tau_applied, nv)
        )
    x, tau_app = r.x, r.tau
    _load(q, x, 0)
    _load(v, x, nq)
    calc_position_kinematics(m, params, work, x[0:nq], DYNAMICS, 0)
    force_elements(m, x, params, work, _AFTER_POSITIONS, r.F_B, tau_app)
    for j in range(tau_applied.shape[0]):
        tau_app[j] = tau_app[j] + tau_applied[j]
    inverse_dynamics(m, x, params, work, 0, vdot, tau_app, r.F_B)
    _store(work.tau, tau)
    return 0


@entry_point
@_own_kernels
@jitable(inline=True)
def single_forward_dynamics(held, q, v, tau_applied, actuation, vdot):
    """vdot = v̇ at (q, v) with gravity, joint damping, reflected rotor inertias, locked
    joints, the generalized forces ``tau_applied`` and the actuation (clamped to the effort
    limits; see kernels.batch.batch_forward_dynamics); inputs None or of length zero: zero."""
    mi, mf, row = _held(held)
    q, v, vdot = _borrowed(q), _borrowed(v), _borrowed(vdot)
    tau_applied, actuation = _given(_borrowed(tau_applied), q), _given(_borrowed(actuation), q)
    m, r, params, work = _views(mi, mf, row)
    nq, nv, nu = m.nq, m.nv, m.nu
    if not (
        _sized(q, nq)
        and _sized(v, nv)
        and _sized_or_empty(tau_applied, nv)
        and _sized_or_empty(actuation, nu)
        and _sized(vdot, nv)
    ):
        return WRONG_SHAPES
    if not _computable(m, q, v, tau_applied, actuation):
        _nan(vdot)
        return _code(
            held, mi, mf, row, _one(q, nq), _one(v, nv), _one(tau_applied, nv), _one(actuation, nu)
        )
    x = r.x
    _load(q, x, 0)
    _load(v, x, nq)
    _load_or_zero(tau_applied, r.tau)
    _load_or_zero(actuation, r.u)
    _fill(_flat(r.F_B), 0.0)
    calc_position_kinematics(m, params, work, x[0:nq], DYNAMICS, 0)
    k = forward_accelerations(m, x, params, work, _AFTER_POSITIONS, r.u, r.tau, r.F_B)  # (no q̇)
    if k >= 0:
        _nan(vdot)
        return NOT_POSITIVE_DEFINITE + KINDS * k
    _store(work.vdot, vdot)
    return 0


@jitable(inline=True)
def _jacobian(held, q, p_FQ, J):
    """J = J_V_WQ_W (6 × nv, with respect to v) at q of the point Q fixed at p_FQ (a 3-vector)
    in the frame F of ``held``'s frame record (a Held of a frame: F's mobod and its pose in
    that mobod's body, :func:`frame_record`): the two Jacobian entry points' body."""
    mi, mf, row = _held(held)
    k, X_BF, _ = _held_frame(held)
    q, p, J = _borrowed(q), _borrowed(p_FQ), _borrowed(J)
    m, r, params, work = _views(mi, mf, row)
    if not (_sized(q, m.nq) and 0 <= k < m.n and _sized(p, 3) and _sized2(J, 6, m.nv)):
        return WRONG_SHAPES
    none = q[0:0]
    if not _computable(m, q, p, none, none):
        _nan(J)
        empty = _one(none, 1)
        return _code(held, mi, mf, row, _one(q, m.nq), _one(p, 3), empty, empty)
    _load(q, r.x, 0)
    calc_position_kinematics(m, params, work, r.x[0 : m.nq], COLUMNS, k)
    point_jacobian(m, work, k, X_BF, p, J)
    return 0


@entry_point
@_own_kernels
@jitable(inline=True)
def single_point_jacobian(held, q, p_FQ, J):
    """J = J_V_WQ_W (6 × nv) at q of the point Q fixed at p_FQ in the frame F of ``held``'s
    frame record (:func:`_jacobian`)."""
    return _jacobian(held, q, p_FQ, J)


@entry_point
@_own_kernels
@jitable(inline=True)
def single_frame_jacobian(held, q, J):
    """J = J_V_WFo_W (6 × nv) at q of the origin of the frame F of ``held``'s frame record:
    :func:`single_point_jacobian` of the point at the record's zeros, one array fewer to
    pass (numba converts each array argument of a call, ~0.03 µs)."""
    return _jacobian(held, q, _held_frame(held)[2], J)


@entry_point
@_own_kernels
@jitable(inline=True)
def single_inverse_dynamics_derivatives(held, q, v, vdot, dtau_dq, dtau_dv, M):
    """dtau_dq (nv × nq), dtau_dv (nv × nv) and M (= ∂τ/∂v̇) of single_inverse_dynamics' tau
    (gravity and joint damping, no applied forces) at (q, v, v̇)."""
    mi, mf, row = _held(held)
    q, v, vdot = _borrowed(q), _borrowed(v), _borrowed(vdot)
    dtau_dq, dtau_dv, M = _borrowed(dtau_dq), _borrowed(dtau_dv), _borrowed(M)
    m = model(mi, mf)
    nq, nv = m.nq, m.nv
    if not (
        _sized(q, nq)
        and _sized(v, nv)
        and _sized(vdot, nv)
        and _sized2(dtau_dq, nv, nq)
        and _sized2(dtau_dv, nv, nv)
        and _sized2(M, nv, nv)
    ):
        return WRONG_SHAPES
    r, d = _derivative_views(mi, row)
    none = q[0:0]
    if not _computable(m, q, v, vdot, none):
        _nan(dtau_dq)
        _nan(dtau_dv)
        _nan(M)
        empty = _one(none, 1)
        return _code(held, mi, mf, row, _one(q, nq), _one(v, nv), _one(vdot, nv), empty)
    _load(q, r.x, 0)
    _load(v, r.x, nq)
    work = workspace(mi, r.ws)
    if covers(m, r.F_B[0:0]) != 0:  # (linked: called by address it took 4-8% longer, docs)
        deriv = derivatives(mi, d.dws)
        fresh_recursive_derivatives(
            m, r.x, parameters(mi, r.ws), work, deriv, vdot, dtau_dq, dtau_dv
        )
    else:  # (dtau_dv and vdot[0:0] stand for the outputs and inputs it does not read)
        derivatives_by_address(
            INVERSE, mi, mf, r.x, r.ws, _ALL, vdot, vdot[0:0], r.F_B, d.dws, dtau_dq, dtau_dv,
            dtau_dv, _derivatives_at(held),
        )  # fmt: skip
    _store(work.M, M)
    return 0


@entry_point
@_own_kernels
@jitable(inline=True)
def single_forward_dynamics_derivatives(
    held, q, v, tau_applied, actuation, dvdot_dq, dvdot_dv, dvdot_dtau, dvdot_du
):
    """dvdot_dq, dvdot_dv, dvdot_dtau (see
    kernels.engine_derivatives.drive_forward_dynamics_derivatives) and dvdot_du (nv × nu,
    dvdot_dtau's columns of the actuated dofs, zero for an actuator whose actuation is beyond
    its effort limit) of single_forward_dynamics' v̇ at (q, v) with its inputs."""
    mi, mf, row = _held(held)
    q, v = _borrowed(q), _borrowed(v)
    dvdot_dq, dvdot_dv = _borrowed(dvdot_dq), _borrowed(dvdot_dv)
    dvdot_dtau, dvdot_du = _borrowed(dvdot_dtau), _borrowed(dvdot_du)
    m = model(mi, mf)
    nq, nv, nu = m.nq, m.nv, m.nu
    tau_applied = _given(_borrowed(tau_applied), q)
    actuation = _given(_borrowed(actuation), q)
    if not (
        _sized(q, nq)
        and _sized(v, nv)
        and _sized_or_empty(tau_applied, nv)
        and _sized_or_empty(actuation, nu)
        and _sized2(dvdot_dq, nv, nq)
        and _sized2(dvdot_dv, nv, nv)
        and _sized2(dvdot_dtau, nv, nv)
        and _sized2(dvdot_du, nv, nu)
    ):
        return WRONG_SHAPES
    r, d = _derivative_views(mi, row)
    code = 0
    if not _computable(m, q, v, tau_applied, actuation):
        code = _code(
            held, mi, mf, row, _one(q, nq), _one(v, nv), _one(tau_applied, nv), _one(actuation, nu)
        )
    if code == 0:
        _load(q, r.x, 0)
        _load(v, r.x, nq)
        _load_or_zero(tau_applied, r.tau)
        _load_or_zero(actuation, r.u)
        k = derivatives_by_address(
            FORWARD, mi, mf, r.x, r.ws, _ALL, r.u, r.tau, r.F_B, d.dws, dvdot_dq, dvdot_dv,
            dvdot_dtau, _derivatives_at(held),
        )  # fmt: skip
        if k >= 0:
            code = NOT_POSITIVE_DEFINITE + KINDS * k
    if code != 0:
        _nan(dvdot_dq)
        _nan(dvdot_dv)
        _nan(dvdot_dtau)
        _nan(dvdot_du)
        return code
    actuated_v, limits = m.actuated_v, parameters(mi, r.ws).effort_limits
    for a in range(nu):
        clamped = actuation.shape[0] > 0 and abs(actuation[a]) > limits[a]
        c = actuated_v[a]
        for i in range(nv):
            dvdot_du[i, a] = 0.0 if clamped else dvdot_dtau[i, c]
    return 0
