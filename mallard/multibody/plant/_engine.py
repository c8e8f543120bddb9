"""The plant's compiled engine (kernels.engine): the flat model built at Finalize(), and per
Context one workspace array with named views of it and the serial numbers of what each stage
and each cached result was computed from.

A stage is up to date when its serials match the Context's and the parameters it was computed
with are current. The parameter stage (frame poses, body mass properties, damping, reflected
inertias, effort limits, gravity, locks) is refreshed in Python when the Context's parameters
or the plant's model-level values (gravity vector, effort limits) change, and invalidates the
rest. :class:`Engine` is the one place that decides whether a stage or a result is current.
"""

import numpy as np

from mallard._compiled import kernels
from mallard._scalar import values_or_none
from mallard.multibody import _joint_types, _layout
from mallard.multibody._layout import (
    BIAS,
    INERTIAS,
    JTYPE,
    POSITIONS,
    Q_START,
    REVERSED,
    VELOCITIES,
)

_IDENTITY_POSE = np.vstack((np.eye(3), np.zeros((1, 3))))
_F64 = np.dtype(np.float64)


def _compose(X_AB, X_BC):
    """X_AC = X_AB·X_BC for 4×3 poses [R; pᵀ]."""
    X_AC = np.empty_like(X_AB, dtype=np.result_type(X_AB, X_BC))
    X_AC[:3] = X_AB[:3] @ X_BC[:3]
    X_AC[3] = X_AB[3] + X_AB[:3] @ X_BC[3]
    return X_AC


def _invert(X_AB):
    """X_BA = X_AB⁻¹ for a 4×3 pose [R; pᵀ]."""
    X_BA = np.empty_like(X_AB)
    X_BA[:3] = X_AB[:3].T
    X_BA[3] = -(X_AB[:3].T @ X_AB[3])
    return X_BA


def _identity_bits(X_PF, X_MB):
    """kernels.kinematics' X_kind bits of a mobod's X_PF and X_MB: which are exactly
    identities (a float64 translation X_PF; a float64 identity X_MB). Poses of other scalars
    (AutoDiffXd, symbolic) are never flagged, so their products are always computed."""
    bits = 0
    if X_PF.dtype == np.float64 and np.array_equal(X_PF[:3], _IDENTITY_POSE[:3]):
        bits |= _layout.R_PF_IDENTITY
    if X_MB.dtype == np.float64 and np.array_equal(X_MB, _IDENTITY_POSE):
        bits |= _layout.X_MB_IDENTITY
    return float(bits)


def _subtree_v_end(tree, nv):
    """Per mobod k, the end of its subtree's dofs: mobods are numbered depth first with their
    dofs in that order, so k's subtree (k and its descendants) is mobods k to k + size − 1
    and its dofs run from k's first to the first dof of mobod k + size (nv past the last)."""
    parent = tree[:, 0].tolist()
    n = len(parent)
    size = [1] * n
    for k in range(n - 1, 0, -1):
        size[parent[k]] += size[k]
    return np.append(tree[:, 3], nv)[np.arange(n) + size]  # (mobod n's v start: nv)


def _dof_parent(tree, nv):
    """Per dof i, its parent dof λ(i): i − 1 within its mobilizer, else the last dof of its
    mobod's nearest ancestor that has dofs; −1 for a dof with none (kernels.mass_factor)."""
    parent, v_start = tree[:, 0], tree[:, 3]
    v_stop = np.append(v_start[1:], nv)  # (dofs in mobod order; World's: none, stop 0)
    has_dofs = v_stop > v_start
    # per mobod the nearest ancestor-or-self with dofs, or World: each a mobod without dofs
    # points to its parent, then the pointers jump (their own targets') until they settle
    nearest = np.where(has_dofs, np.arange(len(parent)), parent)
    while True:
        jumped = nearest[nearest]
        if (jumped == nearest).all():
            break
        nearest = jumped
    lam = np.arange(-1, nv - 1)  # (i − 1, but for each mobod's first dof)
    first = np.flatnonzero(has_dofs)
    lam[v_start[first]] = v_stop[nearest[parent[first]]] - 1  # (World's: −1)
    return lam


class EngineCache:
    """One Context's workspace ``ws`` with the views of its sections (``params``: the
    parameters', ``work``: the others', see _layout), the kernels of its scalar type, the
    frame poses ``X_BF`` (from the parameters; ``X_BF_rows``: a list of its rows), the serials
    each stage was computed from (see :meth:`Engine.need`), and results cached with the key
    they were computed at (:meth:`lookup`): together, what decides whether anything cached
    for a Context is current."""

    __slots__ = (
        "ws",
        "params",
        "work",
        "kernels",
        "X_WB_rows",
        "X_BF",
        "X_BF_rows",
        "parameters_serial",
        "engine_version",
        "positions_serial",
        "poses_serial",
        "inertias_serial",
        "velocities_serials",
        "bias_serials",
        "results",
        "time_derivatives",
        "bound",
        "poses_state",
        "run_poses",
        "zero_tau",
        "zero_F",
    )

    def __init__(self, sizes, dtype, joint_types):
        self.ws = np.zeros(sizes.ws, dtype=dtype)
        self.params = _layout.PARAMETERS.views(self.ws, sizes)
        self.work = _layout.WORKSPACE.views(self.ws, sizes)
        self.kernels = kernels(dtype, joint_types)
        self.work.X_pc[:, 0] = _IDENTITY_POSE
        # Per mobod, views of X_WB = [R_WB; p_WB] (for the pose queries).
        self.X_WB_rows = list(self.work.X_pc[3])
        self.X_BF = self.X_BF_rows = None
        # The Context's serial_p and the Engine's version the parameter stage is of.
        self.parameters_serial = self.engine_version = None
        self.positions_serial = self.poses_serial = self.inertias_serial = None  # serial_q
        self.velocities_serials = self.bias_serials = None  # (serial_q, serial_v)
        self.results = {}  # name → (key, value): see lookup
        self.time_derivatives = None  # EvalTimeDerivatives' ContinuousState, made once
        self.bound = {}  # name → (x, driver) (see Engine.bind)
        self.poses_state = self.run_poses = None  # (see KinematicsMixin.EvalBodyPoseInWorld)
        # Zero inputs for the drivers.
        self.zero_tau = np.zeros(sizes.nv, dtype=dtype)
        self.zero_F = np.zeros((sizes.n, 6), dtype=dtype)

    def lookup(self, name, key):
        """The result ``name`` cached here if it was computed at ``key`` (a tuple of the
        Context's serials it depends on, or any value compared with ==), else None. (The
        parameter stage drops every result: see Engine.cache.)"""
        found = self.results.get(name)
        return found[1] if found is not None and found[0] == key else None

    def store(self, name, key, value):
        """Caches ``value`` as the result ``name`` computed at ``key``; returns it."""
        self.results[name] = (key, value)
        return value

    def forget(self, name):
        """Drops the cached result ``name``."""
        self.results.pop(name, None)


class Engine:
    """The compiled engine of a finalized plant: its flat model (``mi``, ``mf`` and their
    ``sizes``, see _layout), the ``version`` of the model-level values the parameter stage
    reads (gravity vector, effort limits), and, per Context, an EngineCache. It is the plant's
    interface to its kernels, for the plant and for BatchedPlant: :meth:`cache`,
    :meth:`ensure`, :meth:`bind`, :meth:`snapshot`, :meth:`check_quaternions`,
    :meth:`frame_mobod`, :meth:`articulated_inertia_error`; ``tables``: the views of
    _layout.MODEL's sections of mi (tree, actuated_v, gravity_mask, v_end, dof_parent);
    ``quaternions``: (q_start, joint) of each quaternion floating mobilizer, ``w_slots`` their
    q_starts (the slot of each one's w in x: a zero quaternion has w = 0); ``joint_types``: the
    joint types (_joint_types.kernel_joint_types) its Contexts' kernels are compiled for."""

    __slots__ = (
        "plant",
        "mi",
        "mf",
        "joint_types",
        "sizes",
        "tables",
        "version",
        "quaternions",
        "w_slots",
    )

    def __init__(self, plant):
        self.plant = plant
        n, nq, nv = len(plant._topology.tree), plant._nq, plant._nv
        nu = plant.num_actuated_dofs()
        self.sizes = _layout.model_sizes(n, nq, nv, nu)
        actuated_v = plant._topology.actuator_v  # (in input order: actuator_input is 0, 1, ...)
        enabled = plant._gravity_field._enabled_mask(len(plant._instance_names))
        gravity_mask = enabled[plant._topology.mobod_instance].astype(np.int64)
        gravity_mask[0] = 0  # (World)
        self.mi = _layout.build_mi(
            self.sizes,
            {
                "tree": plant._topology.tree,
                "actuated_v": actuated_v,
                "gravity_mask": gravity_mask,
                "v_end": _subtree_v_end(plant._topology.tree, nv),
                "dof_parent": _dof_parent(plant._topology.tree, nv),
            },
        )
        self.mf = np.ascontiguousarray(plant._topology.jparam.reshape(-1))
        # (the model's kernels are compiled for these joint types: mallard._compiled.kernels)
        codes = set(plant._topology.tree[:, JTYPE].tolist())  # (each type once, as ints)
        self.joint_types = _joint_types.kernel_joint_types(codes)
        self.tables = _layout.MODEL.views(self.mi, self.sizes)
        self.version = 0
        tree = plant._topology.tree
        floating = np.flatnonzero(tree[:, JTYPE] == _joint_types.QUATERNION_FLOATING)
        self.quaternions = tuple(
            (q_start, plant._joints[j])
            for q_start, j in zip(
                tree[floating, Q_START].tolist(),
                plant._topology.mobod_joint[floating].tolist(),
                strict=True,
            )
        )
        self.w_slots = tuple(start for start, _ in self.quaternions)  # (each w's slot in x)

    def kernels(self, dtype):
        """mallard._compiled.kernels(dtype) for this model's joint types."""
        return kernels(dtype, self.joint_types)

    def model_changed(self):
        """Marks the model-level values the parameter stage reads as changed, for every
        Context."""
        self.version += 1

    # ---- per Context ------------------------------------------------------------------------
    def cache(self, context):
        """The Context's EngineCache, with its parameter stage up to date."""
        ec = context._system_cache
        if ec is None:
            parameters = self.plant._parameters(context)
            dtype = np.result_type(self.plant._x(context), parameters.mass, parameters.X_PF)
            ec = context._system_cache = EngineCache(self.sizes, dtype, self.joint_types)
        if ec.parameters_serial != context._serial_p or ec.engine_version != self.version:
            self._update_parameter_stage(ec, context)
            ec.parameters_serial, ec.engine_version = context._serial_p, self.version
        return ec

    def ensure(self, context, stages):
        """The EngineCache of ``context`` with ``stages`` (bits of _layout) up to date."""
        ec = self.cache(context)
        need = self.need(ec, context, stages)
        if need:
            x = self.plant._x(context)
            ec.kernels.drive_stages(self.mi, self.mf, x, ec.ws, need)
            self.mark(ec, context, need)
        return ec

    def need(self, ec, context, stages):
        """The stages (with their prerequisites) of ``stages`` that are out of date; the
        positions' quaternions are checked (:meth:`check_quaternions`) when they are."""
        sq, sv = context._serial_q, context._serial_v
        need = 0
        if ec.positions_serial != sq:
            need = POSITIONS
            if self.w_slots:  # (inline: the test of each w is what most calls cost)
                x = self.plant._x_of(context._state)
                if x.dtype is not _F64:
                    self.check_quaternions(x)
                else:
                    for w in self.w_slots:
                        if x[w] == 0.0:
                            self.check_quaternions(x)
        if stages & (VELOCITIES | BIAS) and (need or ec.velocities_serials != (sq, sv)):
            need |= VELOCITIES
        if stages & INERTIAS and (need & POSITIONS or ec.inertias_serial != sq):
            need |= INERTIAS
        if stages & BIAS and (need or ec.bias_serials != (sq, sv)):
            need |= BIAS
        return need

    @staticmethod
    def mark(ec, context, need):
        """Records the stages computed in ``need`` as up to date."""
        sq, sv = context._serial_q, context._serial_v
        if need & POSITIONS:
            ec.positions_serial = ec.poses_serial = sq
        if need & VELOCITIES:
            ec.velocities_serials = (sq, sv)
        if need & INERTIAS:
            ec.inertias_serial = sq
        if need & BIAS:
            ec.bias_serials = (sq, sv)

    def bind(self, ec, name, x, args):
        """The driver ``name`` for ``ec``'s scalar type, bound to (mi, mf, x, ws): a function
        of the driver's other arguments, ``args`` or arguments of exactly their types, called
        through the compiled entry point (without numba's dispatch)."""
        bound = ec.bound.get(name)
        if bound is None or bound[0] is not x:  # (x: the state's array, its type fixed)
            fn = ec.kernels.bind(name, self.mi, self.mf, x, ec.ws, args=args)
            bound = ec.bound[name] = (x, fn)
        return bound[1]

    def check_quaternions(self, x):
        """RuntimeError, as Drake's, if a quaternion floating joint's four positions in
        x = [q; v] are all zero: its rotation, and every pose, mass matrix or force computed
        from it, would be NaN. (Checked where the position stage is computed, as Drake checks
        when it makes the rotation; values without a double, symbolic ones, are not.)"""
        if x.dtype is _F64:
            for w in self.w_slots:  # (a zero quaternion's w is zero: one test of each)
                if x[w] == 0.0:
                    break
            else:
                return
        for start, joint in self.quaternions:
            q = x if x.dtype is _F64 else values_or_none(x[start : start + 4])
            if q is None:
                continue
            i = start if q is x else 0
            if q[i] == 0.0 and q[i + 1] == 0.0 and q[i + 2] == 0.0 and q[i + 3] == 0.0:
                raise RuntimeError(
                    "QuaternionToRotationMatrix(): All the elements in a quaternion are zero: "
                    f"the positions q[{start}:{start + 4}] of joint '{joint.name()}' (a "
                    "quaternion [w, x, y, z] of any nonzero norm gives its rotation)."
                )

    def snapshot(self, context):
        """(ws, X_BF): copies of the Context's workspace with its parameter stage (the
        parameters' sections set, see _layout.PARAMETERS) and of its frame poses X_BF (4×3
        per FrameIndex), for computing without the Context (BatchedPlant)."""
        ec = self.cache(context)
        return ec.ws.copy(), ec.X_BF.copy()

    def frame_mobod(self, frame, name):
        """The mobod of ``frame``'s body (TypeError or RuntimeError, naming ``name``, unless
        it is a Frame of the plant)."""
        self.plant._check_frame(frame, name)
        return int(self.plant._topology.mobod_of_body[int(frame.body().index())])

    def articulated_inertia_error(self, k):
        """The RuntimeError, as Drake words it, for mobod k's articulated inertia across its
        mobilizer not being positive definite (a forward dynamics status k ≥ 0)."""
        plant = self.plant
        mobod = plant._topology.mobods[k]
        joint = plant._joints[mobod.joint]
        body = plant._bodies[mobod.body]
        inboard = plant._bodies[plant._topology.mobods[mobod.parent].body]
        message = (
            "An internal mass matrix associated with the joint that connects body "
            f"{inboard.name()} to body {body.name()} is not positive-definite."
        )
        if joint.can_rotate():
            message += (
                " Since the joint allows rotation, ensure body "
                f"{body.name()} (combined with other outboard bodies) has reasonable non-zero "
                "moments of inertia about the joint rotation axes."
            )
        if joint.can_translate():
            message += (
                " Since the joint allows translation, ensure body "
                f"{body.name()} (combined with other outboard bodies) has a reasonable non-zero "
                "mass."
            )
        return RuntimeError(message)

    def _update_parameter_stage(self, ec, context):
        """Copies the Context's parameters (and the plant's gravity and effort limits) into
        the workspace; every other stage and result becomes out of date."""
        plant = self.plant
        parameters = plant._parameters(context)
        X_PF = parameters.X_PF
        X_BF = np.empty_like(X_PF)
        for f, frame in enumerate(plant._frames):
            parent = getattr(frame, "_parent_frame", None)
            X_BF[f] = X_PF[f] if parent is None else _compose(X_BF[int(parent.index())], X_PF[f])
        ec.X_BF = X_BF
        ec.X_BF_rows = list(X_BF)  # (views, made once)
        p = ec.params
        p.X_PF_MB[:, 0] = _IDENTITY_POSE
        topology = plant._topology
        joint_reversed = zip(
            topology.mobod_joint[1:].tolist(), topology.tree[1:, REVERSED].tolist(), strict=True
        )
        for k, (j, reversed_joint) in enumerate(joint_reversed, start=1):
            joint = plant._joints[j]
            inboard, outboard = joint.frame_on_parent(), joint.frame_on_child()
            if reversed_joint:
                inboard, outboard = outboard, inboard
            X_P_inboard = X_BF[int(inboard.index())]
            X_outboard_B = _invert(X_BF[int(outboard.index())])
            if joint._jtype == _joint_types.WELD:
                X_FM = np.vstack((joint._X_FM._R._R, joint._X_FM._p[None, :]))
                X_P_inboard = _compose(X_P_inboard, _invert(X_FM) if reversed_joint else X_FM)
            X_JZ = plant._topology.z_turns.get(k)
            if X_JZ is not None:  # a revolute mobilizer: both frames turned, z along its axis
                X_P_inboard = _compose(X_P_inboard, X_JZ)
                X_outboard_B = _compose(_invert(X_JZ), X_outboard_B)
            p.X_PF_MB[0, k] = X_P_inboard
            p.X_PF_MB[1, k] = X_outboard_B
            p.X_kind[k] = _identity_bits(X_P_inboard, X_outboard_B)
        p.m_B[:] = parameters.mass
        p.m_B[0] = 0.0
        p.com_B[:] = parameters.com
        p.com_B[0] = 0.0
        p.G_B[:] = parameters.G
        p.G_B[0] = 0.0
        p.damping[:] = parameters.damping
        p.reflected[:] = 0.0
        for a in plant._actuators:
            i = a._ordinal
            p.reflected[a.joint()._v_start] += (
                parameters.gear_ratio[i] ** 2 * parameters.rotor_inertia[i]
            )
            p.effort_limits[a._input_start] = a.effort_limit()
        p.g_W[:] = plant._gravity_field.gravity_vector()
        p.locked[0] = 0.0
        p.locked[1:] = np.asarray(parameters.locked)[topology.mobod_joint[1:]].astype(float)
        ec.positions_serial = ec.poses_serial = ec.inertias_serial = None
        ec.velocities_serials = ec.bias_serials = None
        ec.results.clear()
