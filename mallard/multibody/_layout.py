"""The layouts of the arrays the plant shares with its kernels, each declared once
(numba-free, so that the plant can import it).

A :class:`Layout` is a list of named sections of one flat array, each with its shape in the
model's sizes (:data:`SIZES`: ``"n"`` mobods, ``"nq"``, ``"nv"``, ``"nu"`` actuated dofs, and
sizes derived from them). Everything else is derived from the declaration: the sections'
offsets and the array's size for a model (:meth:`Layout.offsets`, :meth:`Layout.size`), numpy
views of the sections (:meth:`Layout.views`, a namedtuple ``Layout.View`` of them, by name),
and the compiled kernels' views (kernels.views makes, from the same declaration, a kernel
returning the same namedtuple of views).

The flat model ``mi`` (int64) starts with the model's sizes (:data:`SIZES`, in order), then
every layout's section offsets (layout by layout, in the order of :data:`LAYOUTS`), then the
sections of :data:`MODEL` (the tree rows and tables the kernels read). ``mf`` (float64) holds
the joints' constants (n × 4, see kernels.mobilizers). The Context's workspace ``ws`` is one
array of :data:`PARAMETERS` followed by :data:`WORKSPACE`; a derivative workspace ``dws`` is
one of :data:`DERIVATIVES`; a batched kernel's row one of :data:`BATCH_ROW`, followed by
L lanes of :data:`LANE_ROW` or by a :data:`DERIVATIVE_ROW` (kernels.batch).
"""

import collections
import functools
import itertools
import math
import operator

import numpy as np

#: The model's sizes, in the order of mi's header: mobods (World included), positions,
#: velocities, actuated dofs, the width of the sin_cos section, and sizes derived from the
#: layouts (x = [q; v], the workspace, a derivative workspace, a batch row, one lane of a
#: lane row and a derivative row).
SIZES = ("n", "nq", "nv", "nu", "nsc", "nx", "ws", "dws", "row", "lane", "drow")


def lanes_of(features):
    """The lanes for a CPU of LLVM features ``features`` ("+avx2,-avx512f,..."): eight float64
    (one AVX-512 register) with AVX-512F, else four (one AVX register)."""
    return 8 if "+avx512f" in features.split(",") else 4


@functools.cache
def lanes():
    """The states batched kernels compute at once, compiled (kernels.lanes): :func:`lanes_of`
    the CPU numba compiles for (the host's, or the features ``NUMBA_CPU_FEATURES`` names).
    The results are the same at either width, to the last bit; numba's cache keys kernels by
    those features, so kernels of both widths can share a cache. Imports numba at its first
    call (this module stays numba-free to import)."""
    from numba import config

    if config.CPU_FEATURES is not None:
        return lanes_of(config.CPU_FEATURES)
    if not config.ENABLE_AVX:  # (numba then compiles without any AVX feature)
        return 4
    import llvmlite.binding

    return lanes_of(llvmlite.binding.get_host_cpu_features().flatten())


#: Where each size is in mi: ``mi[SIZE["nv"]]``.
SIZE = {name: i for i, name in enumerate(SIZES)}

Sizes = collections.namedtuple("Sizes", SIZES)

# Columns of a row of MODEL's ``tree`` (one row per mobod).
PARENT = 0  # the parent mobod
JTYPE = 1  # the joint type code (_joint_types)
Q_START = 2  # its first position in q
V_START = 3  # its first velocity in v
REVERSED = 4  # 1 if the mobilizer is its joint reversed (the joint's child is inboard)
BODY = 5  # its body's BodyIndex

# Stages (bits of ``need``): what a driver must compute before its result.
POSITIONS = 1  # X_pc, H_PB_W
VELOCITIES = 2  # V_WB
INERTIAS = 4  # m_W, h_W, I_W
BIAS = 8  # A_bias
POSES_ONLY = 16  # X_WB alone, no other stage (pose queries: kernels.engine.drive_stages)

# Bits of the X_kind section: which of a mobod's constant poses are exactly identities (see
# kernels.kinematics).
R_PF_IDENTITY = 1  # X_PF is a translation
X_MB_IDENTITY = 2


def sin_cos_width(nq):
    """nq rounded up to a multiple of 32, a multiple of the block of every vector loop (vector
    width times interleave): the width of the sin_cos section (see kernels.trig)."""
    return -(-nq // 32) * 32


class Layout:
    """The sections of one flat array: ``sections`` is a sequence of (name, shape, what it
    holds), a shape a tuple of integers and size names (of :data:`SIZES`). ``after``: the
    layout this one follows in the same array (its offsets then start past it)."""

    def __init__(self, name, sections, after=None, sizes=SIZES):
        self.name = name
        self.size_names = sizes
        self.size_index = {d: i for i, d in enumerate(sizes)}
        self.names = tuple(s[0] for s in sections)
        self.shapes = tuple(tuple(s[1]) for s in sections)
        self.docs = tuple(s[2] for s in sections)
        self.after = after
        self.first = 0  # where its first section is, if it follows no layout
        self.View = collections.namedtuple(name.title().replace("_", ""), self.names)
        self.base = None  # where its offsets are in its header (set below, for LAYOUTS)
        for shape in self.shapes:
            for d in shape:
                if not (isinstance(d, int) or d in self.size_index):
                    raise ValueError(f"layout {name}: unknown size {d!r}")
        # (each section's length as its constant times one of the layout's monomials, the
        # products of size names: offsets and sizes evaluate each monomial once)
        monomials, monomial = [], []
        for shape in self.shapes:
            names = tuple(d for d in shape if isinstance(d, str))
            if names not in monomials:
                monomials.append(names)
            monomial.append(monomials.index(names))
        self._monomials = tuple(monomials)
        self._monomial = tuple(monomial)
        self._constants = tuple(
            math.prod(d for d in shape if isinstance(d, int)) for shape in self.shapes
        )

    def __len__(self):
        return len(self.names)

    def shape(self, name, sizes):
        """The shape of section ``name`` for ``sizes`` (a Sizes, or a SapSizes for the SAP
        layouts: a namedtuple of the layout's size names)."""
        return _concrete(self.shapes[self.names.index(name)], sizes)

    def start(self, sizes):
        """Where the layout's first section is in its array."""
        return self.first if self.after is None else self.after.end(sizes)

    def offsets(self, sizes):
        """The offset of each section in the array, for ``sizes``."""
        lengths = self._section_lengths(sizes)
        return list(itertools.accumulate(lengths, initial=self.start(sizes)))[:-1]

    def size(self, sizes):
        """The scalars of the layout's sections, for ``sizes``."""
        return sum(self._section_lengths(sizes))

    def _section_lengths(self, sizes):
        """The scalars of each section, for ``sizes``."""
        values = []
        for names in self._monomials:
            value = 1
            for d in names:
                value *= getattr(sizes, d)
            values.append(value)
        return list(map(operator.mul, self._constants, map(values.__getitem__, self._monomial)))

    def end(self, sizes):
        """Where the array ends: past this layout (and those it follows)."""
        return self.start(sizes) + self.size(sizes)

    def views(self, array, sizes):
        """The View (namedtuple) of ``array``'s sections as numpy views, shaped."""
        return self.View._make(
            array[o : o + math.prod(s)].reshape(s)
            for o, s in zip(
                self.offsets(sizes), (_concrete(s, sizes) for s in self.shapes), strict=True
            )
        )


def _concrete(shape, sizes):
    return tuple(d if isinstance(d, int) else getattr(sizes, d) for d in shape)


# ---- the layouts ------------------------------------------------------------------------------
MODEL = Layout(
    "model_tables",
    (
        ("tree", ("n", 6), "per mobod: PARENT, JTYPE, Q_START, V_START, REVERSED, BODY"),
        ("actuated_v", ("nu",), "the generalized velocity of each actuator input"),
        ("gravity_mask", ("n",), "1 if gravity acts on the mobod's body, else 0"),
        ("v_end", ("n",), "the end of each mobod's subtree's dofs (see kernels.dynamics)"),
        ("dof_parent", ("nv",), "each dof's parent dof λ(i), −1 at a root (kernels.mass_factor)"),
    ),
)

PARAMETERS = Layout(
    "parameters",
    (
        ("X_PF_MB", (2, "n", 4, 3), "X_PF and X_MB per mobod, as 4×3 poses [R; pᵀ]"),
        ("X_kind", ("n",), "identity bits of X_PF_MB (R_PF_IDENTITY, X_MB_IDENTITY)"),
        ("m_B", ("n",), "mass per body (BodyIndex)"),
        ("com_B", ("n", 3), "p_BoBcm_B per body"),
        ("G_B", ("n", 3, 3), "unit inertia G_BBo_B per body"),
        ("damping", ("nv",), "joint damping per dof"),
        ("reflected", ("nv",), "the actuators' reflected rotor inertias per dof"),
        ("effort_limits", ("nu",), "per actuator input"),
        ("g_W", (3,), "gravity, in World"),
        ("locked", ("n",), "1 if the mobod's joint is locked, else 0"),
        # (never in lanes: its entries are indices)
        ("path", ("n",), "scratch: the mobods from World to a tip (kernels.kinematics)"),
    ),
)

WORKSPACE = Layout(
    "workspace",
    (
        # Stages.
        ("X_pc", (4, "n", 4, 3), "X_FM (scratch), X_WF, X_WM, X_WB per mobod"),
        ("H_PB_W", ("nv", 6), "the across-mobilizer Jacobians' columns"),
        ("sin_cos", (3, "nsc"), "sin q, cos q and q, padded (kernels.trig)"),
        ("m_W", ("n",), "mass per mobod"),
        ("h_W", ("n", 3), "first mass moment about Bo, in W, per mobod"),
        ("I_W", ("n", 3, 3), "rotational inertia about Bo, in W, per mobod"),
        ("V_WB", ("n", 6), "spatial velocity per mobod"),
        ("A_bias", ("n", 6), "acceleration bias per mobod"),
        # Results.
        ("M", ("nv", "nv"), "the mass matrix"),
        ("tau", ("nv",), "inverse dynamics"),
        ("vdot", ("nv",), "forward dynamics"),
        ("qdot", ("nq",), "q̇ = N(q)·v"),
        ("A_WB", ("n", 6), "spatial acceleration per mobod"),
        ("F", ("n", 6), "Newton–Euler's force per mobod (with its outboard bodies')"),
        ("J", (6, "nv"), "a point's Jacobian"),
        # Temporaries.
        ("H_FM", (6, 6), "one mobilizer's H_FM"),
        ("V_FM_A_FM", (12,), "one mobilizer's V_FM and Ḣ_FM·v"),
        ("p_WQ", (6,), "a point, in its body and in World"),
        ("Ic_m", ("n",), "composite mass (mass matrix)"),
        ("Ic_h", ("n", 3), "composite first moment"),
        ("Ic_I", ("n", 3, 3), "composite rotational inertia (upper triangle)"),
        ("H_R", ("nv", 6), "H_PB_W about each tree's root"),
        ("F_R", (6, "nv"), "forces about each tree's root"),
        ("P", ("n", 6, 6), "articulated inertias (forward dynamics)"),
        ("z", ("n", 6), "articulated bias forces"),
        ("U", ("nv", 6), "Φᵀ·U (or Φᵀ·W) per dof"),
        ("D_factor", ("n", 6, 6), "1/D, or the Cholesky factor L of D, per mobod"),
        ("u_aba", ("nv",), "u − Uᵀ·c (or L⁻¹ of it) per dof"),
        ("tau_total", ("nv",), "the generalized forces forward dynamics takes"),
        ("F_total", ("n", 6), "the body forces, per mobod"),
    ),
    after=PARAMETERS,
)

DERIVATIVES = Layout(
    "derivatives",
    (
        ("dp_B", ("n", 3), "δp_WBo per mobod"),
        ("dV", ("n", 6), "δV_WB"),
        ("dA", ("n", 6), "δA_WB"),
        ("dF", ("n", 6), "δF"),
        ("F_app", ("n", 6), "the body forces applied (at Bo, in W)"),
        ("A_WB", ("n", 6), "of the primal Newton–Euler pass"),
        ("F", ("n", 6), "of the primal pass (each body's and its outboard bodies')"),
        ("dH", ("nv", 6), "δH_PB_W"),
        ("tau", ("nv",), "of the primal pass"),
        ("tau_app", ("nv",), "zero"),
        ("H_FM", (6, 6), "one mobilizer's H_FM"),
        ("dH_FM", (6, 6), "its tangent"),
        ("Nplus", (6, 7), "one mobilizer's N⁺"),
        ("V_FM", (6,), "one mobilizer's V_FM"),
        ("A_FM", (6,), "one mobilizer's Ḣ_FM·v"),
        ("dV_FM", (6,), "their tangents"),
        ("dA_FM", (6,), ""),
        ("L", ("nv", "nv"), "a Cholesky factor"),
        ("K", ("n", 18), "the sweep constants per mobod"),
        ("HJ", ("nv", 12), "the sweep constants per velocity"),
        ("active", ("n",), "1 marks the subtree of a direction's mobod"),
        ("free", ("nv",), "1 for the dofs of the joints that are not locked, else 0"),
        ("block", (44,), "int64s: the arrays held for kernels.engine_derivatives' by address"),
    ),
)

BATCH_ROW = Layout(
    "batch_row",
    (
        ("ws", ("ws",), "a workspace (PARAMETERS and WORKSPACE)"),
        ("x", ("nx",), "one state [q; v]"),
        ("tau", ("nv",), "generalized forces"),
        ("F_B", ("n", 6), "body forces, per body"),
        ("u", ("nu",), "actuation"),
    ),
)

LANE_ROW = Layout(
    "lane_row",
    (
        ("row", ("row",), "the lanes of a batch row"),
        ("vdot", ("nv",), "accelerations"),
        ("p", (3,), "a point"),
        ("code", (1,), "the state's status code (kernels.batch; 0: computed)"),
        ("stages", (4, "nx"), "a rollout's x₀ and Runge-Kutta slopes (kernels.rollouts)"),
        ("target", (2, "nu"), "a rollout's PD target [q_d; v_d] (kernels.rollouts)"),
    ),
)

DERIVATIVE_ROW = Layout(
    "derivative_row",
    (
        ("dws", ("dws",), "a derivative workspace"),
        ("d_dq", ("nv", "nq"), "one state's derivatives with respect to q"),
        ("d_dv", ("nv", "nv"), "... with respect to v"),
        ("d_dvdot", ("nv", "nv"), "... with respect to v̇ (M) or to τ (M⁻¹)"),
        ("code", (1,), "the state's status code (kernels.batch; 0: computed)"),
    ),
)

#: What kernels take as ``model``: the sizes, MODEL's tables and the joints' constants
#: ``jparam`` (n × 4, of mf); kernels.views.model makes it from (mi, mf).
Model = collections.namedtuple(
    "Model",
    (
        "n",
        "nq",
        "nv",
        "nu",
        "tree",
        "jparam",
        "actuated_v",
        "gravity_mask",
        "v_end",
        "dof_parent",
    ),
)

#: The layouts whose offsets mi holds, in order.
LAYOUTS = (MODEL, PARAMETERS, WORKSPACE, DERIVATIVES, BATCH_ROW, LANE_ROW, DERIVATIVE_ROW)

_base = len(SIZES)
for _layout in LAYOUTS:
    _layout.base = _base
    _base += len(_layout)
#: The length of mi's header (sizes and offsets); MODEL's sections follow it.
HEADER = _base

MODEL.first = HEADER


#: The sizes every other size is derived from (a model's, and sin_cos_width(nq), nq + nv).
_BASE_SIZES = ("n", "nq", "nv", "nu", "nsc", "nx")


def _derived_sizes(base):
    """The sizes SIZES derives from the layouts, given the base sizes ``base`` (a mapping
    from the names of _BASE_SIZES): a workspace starts with the parameters, a batch row
    holds a workspace, a lane row a batch row, a derivative row a derivative workspace."""
    sizes = Sizes(**base, ws=0, dws=0, row=0, lane=0, drow=0)
    sizes = sizes._replace(ws=WORKSPACE.end(sizes), dws=DERIVATIVES.size(sizes))
    sizes = sizes._replace(row=BATCH_ROW.size(sizes))
    return sizes._replace(lane=LANE_ROW.size(sizes), drow=DERIVATIVE_ROW.size(sizes))


class _Polynomial(dict):
    """An integer polynomial in the base sizes: {monomial (sorted tuple of size names):
    coefficient}; the layouts' arithmetic (+, ×, ``sum``, ``math.prod``, getattr of Sizes)
    applied to these computes mi's header symbolically, once (_HEADER_MATRIX)."""

    def __add__(self, other):
        total = _Polynomial(self)
        for monomial, c in _polynomial(other).items():
            total[monomial] = total.get(monomial, 0) + c
        return total

    __radd__ = __add__

    def __mul__(self, other):
        product = _Polynomial()
        for m1, c1 in self.items():
            for m2, c2 in _polynomial(other).items():
                monomial = tuple(sorted(m1 + m2))
                product[monomial] = product.get(monomial, 0) + c1 * c2
        return product

    __rmul__ = __mul__


def _polynomial(value):
    return value if isinstance(value, _Polynomial) else _Polynomial({(): value})


def _header_matrix():
    """(H, (I, J)): mi's header — SIZES, then every layout's offsets (LAYOUTS) — is
    H @ (b[I] * b[J]) for b = [1, *base sizes] (_BASE_SIZES): each entry a polynomial of
    degree ≤ 2 in the base sizes, H its coefficients on the monomials b[I]·b[J]."""
    base = {name: _Polynomial({(name,): 1}) for name in _BASE_SIZES}
    sizes = _derived_sizes(base)
    entries = [_polynomial(size) for size in sizes]
    entries += [_polynomial(o) for layout in LAYOUTS for o in layout.offsets(sizes)]
    monomials = sorted({m for entry in entries for m in entry}, key=lambda m: (len(m), m))
    if max(map(len, monomials)) > 2:
        raise ValueError("mi's header: a monomial of degree > 2")
    H = np.array([[entry.get(m, 0) for m in monomials] for entry in entries], dtype=np.int64)
    position = {name: i + 1 for i, name in enumerate(_BASE_SIZES)}  # (b[0] = 1)
    I, J = (np.array([position[m[k]] if k < len(m) else 0 for m in monomials]) for k in (0, 1))
    return H, (I, J)


def _header(n, nq, nv, nu):
    """mi's header (SIZES, then every layout's offsets) for a model of n mobods, nq positions,
    nv velocities and nu actuated dofs: one product of integer arrays (_header_matrix)."""
    b = np.array((1, n, nq, nv, nu, sin_cos_width(nq), nq + nv), dtype=np.int64)
    return _HEADER_MATRIX @ (b[_HEADER_MONOMIALS[0]] * b[_HEADER_MONOMIALS[1]])


def model_sizes(n, nq, nv, nu):
    """The Sizes of a model of n mobods, nq positions, nv velocities and nu actuated dofs."""
    return Sizes._make(_header(n, nq, nv, nu)[: len(SIZES)].tolist())


def build_mi(sizes, tables):
    """The flat model ``mi`` for ``sizes``: its header (sizes and every layout's offsets),
    then MODEL's sections from ``tables`` (a dict of their arrays by name)."""
    header = _header(sizes.n, sizes.nq, sizes.nv, sizes.nu)
    ends = (*header[MODEL.base + 1 : MODEL.base + len(MODEL)].tolist(), MODEL.end(sizes))
    mi = np.empty(ends[-1], dtype=np.int64)
    mi[:HEADER] = header
    for name, start, end in zip(MODEL.names, [HEADER, *ends[:-1]], ends, strict=True):
        table = np.asarray(tables[name], dtype=np.int64).reshape(-1)
        if table.shape != (end - start,):
            raise ValueError(f"build_mi: table {name} has {table.size} entries")
        mi[start:end] = table
    return mi


_HEADER_MATRIX, _HEADER_MONOMIALS = _header_matrix()


# ---- the SAP solver's arrays (kernels.sap) ----------------------------------------------------
#: The sizes of a SAP problem's arrays, their capacities: the plant's velocities, constraint
#: equations and constraints. A SAP header (an int64 array, :func:`build_sap_header`) starts
#: with them, then the offsets of SAP_LAYOUTS' sections; SAP_TABLE's sections follow it in the
#: same array, SAP_WORKSPACE's are a float (or object) array of their own.
SAP_SIZES = ("nv", "nk", "nc")

SapSizes = collections.namedtuple("SapSizes", SAP_SIZES)

#: Columns of a row of SAP_TABLE's ``constraints`` (one row per constraint).
SAP_KIND = 0  # its kind (below)
SAP_START = 1  # its first equation (row of J)
SAP_SIZE = 2  # its number of equations
SAP_CLIQUE0 = 3  # the clique (kinematic tree) of its first Jacobian block
SAP_CLIQUE1 = 4  # that of its second block, or −1 (one clique)
SAP_KEPT = 5  # set by the solver: 1 if one of its cliques has an unlocked velocity
#: The kinds of SAP constraints (SAP_KIND): a bounded joint quantity (joint limits, couplers,
#: body constraints' equations), a PD controller, a point contact's friction cone (kSap) and
#: its Hunt–Crossley model (kSimilar, kLagged).
SAP_BOUNDED, SAP_PD_CONTROLLER, SAP_FRICTION_CONE, SAP_HUNT_CROSSLEY = 0, 1, 2, 3

#: Entries of SAP_WORKSPACE's ``settings`` (Drake's SapSolverParameters, and the time step).
SAP_SETTINGS = (
    "time_step",
    "abs_tolerance",
    "rel_tolerance",
    "cost_abs_tolerance",
    "cost_rel_tolerance",
    "max_iterations",
    "line_search_max_iterations",
    "line_search_alpha_max",
)
#: Drake's nominal SapSolverParameters, the settings after the time step.
SAP_DEFAULT_SETTINGS = (1e-14, 1e-6, 1e-30, 1e-15, 100, 100, 1.5)
#: What the SAP solver returns (kernels.sap.sap_solve); the plant words each as Drake does.
SAP_SUCCESS = 0
SAP_NOT_CONVERGED = 1  # max_iterations reached
SAP_NO_DESCENT = 2  # dℓ/dα(0) ≥ 0 along the Newton direction
SAP_MOMENTUM_HESSIAN_NAN = 3
SAP_MOMENTUM_HESSIAN_NOT_POSITIVE = 4
SAP_CONSTRAINTS_HESSIAN_NAN = 5
SAP_CONSTRAINTS_HESSIAN_NEGATIVE = 6
SAP_LINE_SEARCH_GUESS_NAN = 7
SAP_LINE_SEARCH_NOT_CONVERGED = 8  # Newton with bisection ran out of iterations
SAP_HESSIAN_NOT_POSITIVE_DEFINITE = 9
#: Entries of SAP_WORKSPACE's ``stats`` (Drake's SapStatistics, last iteration).
SAP_STATS = (
    "num_iters",
    "num_line_search_iters",
    "optimality_criterion_reached",
    "cost_criterion_reached",
    "cost",
    "momentum_residual",
    "momentum_scale",
)
#: The kinds of constraints between two bodies (kernels.body_constraints computes their rows of
#: J and g for SAP): point coincidence, distance, frame coincidence, and their numbers of rows.
BALL_CONSTRAINT, DISTANCE_CONSTRAINT, WELD_CONSTRAINT = 0, 1, 2
BODY_CONSTRAINT_EQUATIONS = (3, 1, 6)
#: Columns of SAP_WORKSPACE's ``par`` (each constraint's parameters, by kind: kernels.sap).
SAP_PARAMETERS = 10
#: Columns of SAP_WORKSPACE's ``G``: the largest number of equations of one constraint.
SAP_MAX_EQUATIONS = 6

SAP_TABLE = Layout(
    "sap_table",
    (
        ("counts", (3,), "in use: constraints, constraint equations, participating velocities"),
        ("constraints", ("nc", 6), "per constraint: SAP_KIND, SAP_START, ... SAP_KEPT"),
        ("clique", ("nv",), "the clique (the kinematic tree) of each of the plant's velocities"),
        ("locked", ("nv",), "1 for a velocity of a locked joint, else 0"),
        ("mark", ("nv",), "per clique: scratch, then its envelope's first column (kernels.sap)"),
        ("clique_columns", ("nv", 2), "per clique, its participating velocities [first, end)"),
        ("participating", ("nv",), "the plant velocity of each participating velocity"),
    ),
    sizes=SAP_SIZES,
)

SAP_WORKSPACE = Layout(
    "sap_workspace",
    (
        # The problem, on the plant's velocities.
        ("settings", (len(SAP_SETTINGS),), "the solver's parameters (SAP_SETTINGS)"),
        ("J", ("nk", "nv"), "the constraints' Jacobians, one row per equation"),
        ("g", ("nk",), "each equation's constraint function at the step's start"),
        ("par", ("nc", SAP_PARAMETERS), "each constraint's parameters (by kind)"),
        ("v_star", ("nv",), "the free-motion velocities v*"),
        ("v", ("nv",), "the initial guess, then the solution"),
        ("gamma", ("nk",), "the solution's impulses"),
        ("stats", (len(SAP_STATS),), "the solver's statistics (SAP_STATS)"),
        # The participating problem (its first counts[2] velocities; rows as J's).
        ("A", ("nv", "nv"), "the dynamics matrix M + h·D"),
        ("Jp", ("nk", "nv"), "J on the participating velocities"),
        ("vp_star", ("nv",), "v*"),
        ("p_star", ("nv",), "A·v*"),
        ("vp", ("nv",), "the iterate v"),
        ("v_alpha", ("nv",), "v + α·Δv along the line search"),
        ("inv_sqrt_A", ("nv",), "diag(A)^(−1/2), the stopping criteria's scaling"),
        ("p", ("nv",), "A·v"),
        ("jc", ("nv",), "Jᵀ·γ"),
        ("grad", ("nv",), "∇ℓ = A·(v − v*) − Jᵀ·γ"),
        ("dv", ("nv",), "the search direction Δv"),
        ("dp", ("nv",), "A·Δv"),
        ("H", ("nv", "nv"), "the Hessian A + Jᵀ·G·J"),
        ("L", ("nv", "nv"), "its Cholesky factor"),
        ("rhs", ("nv", 1), "a right-hand side"),
        ("w", ("nk",), "the Delassus operator's diagonal estimate"),
        ("R", ("nk",), "the regularization"),
        ("R_inv", ("nk",), "its inverse"),
        ("v_hat", ("nk",), "the bias v̂"),
        ("vc", ("nk",), "the constraint velocities J·v"),
        ("dvc", ("nk",), "J·Δv"),
        ("gamma_p", ("nk",), "the impulses at v (or along the line search)"),
        ("y", ("nk",), "R⁻¹·(v̂ − vc) (the unprojected impulses)"),
        ("G", ("nk", SAP_MAX_EQUATIONS), "each constraint's Hessian block −∂γ/∂vc, its rows"),
        ("GJ", ("nk", "nv"), "G·J"),
    ),
    sizes=SAP_SIZES,
)

#: The layouts whose offsets a SAP header holds, in order.
SAP_LAYOUTS = (SAP_TABLE, SAP_WORKSPACE)

_base = len(SAP_SIZES)
for _layout in SAP_LAYOUTS:
    _layout.base = _base
    _base += len(_layout)
#: The length of a SAP header; SAP_TABLE's sections follow it.
SAP_HEADER = _base

SAP_TABLE.first = SAP_HEADER


def build_sap_table(sizes):
    """The SAP header for ``sizes`` (a SapSizes) followed by SAP_TABLE's sections (zero):
    the int64 array the SAP kernels take as ``si``."""
    parts = [np.array(sizes, dtype=np.int64)]
    parts += [np.array(layout.offsets(sizes), dtype=np.int64) for layout in SAP_LAYOUTS]
    parts.append(np.zeros(SAP_TABLE.size(sizes), dtype=np.int64))
    return np.concatenate(parts)
