"""Batched dynamics: a MultibodyPlant's kinematics and dynamics for many states at once
(mallard's own API; pydrake has no equivalent).

:class:`BatchedPlant` takes a finalized plant and a Context's parameters once, then computes
on arrays with a leading batch dimension N — ``q`` of shape (N, nq), ``v`` of shape (N, nv) —
with no Context: body poses, mass matrices, inverse and forward dynamics, point Jacobians and
the dynamics' derivatives. For float64 arrays the batch runs compiled, four states at a time
in vector registers (eight with AVX-512), on the calling thread and, for a batch large enough
to pay, on helper threads (``num_threads``); for object arrays (AutoDiffXd, Expression) it
runs the same kernels interpreted, a plain loop over the batch. The results are the plant's
own single-state results, state by state, to the last bit, whatever the number of threads.

One bad state does not spoil the batch: a state with a NaN or infinite input, a quaternion
whose four elements are zero, or (forward dynamics) an articulated inertia that is not
positive definite gets NaN in all of its results, the others are computed, and
``return_status=True`` gives a :class:`BatchStatus` that says which states failed and why.
Without it, a RuntimeWarning names the first failed state.

Example::

    import numpy as np
    from mallard.multibody.batch import BatchedPlant

    batched = BatchedPlant(plant)  # the parameters of plant's default Context
    q = np.random.default_rng(0).uniform(-1, 1, (1000, plant.num_positions()))
    v = np.zeros((1000, plant.num_velocities()))
    M = batched.CalcMassMatrix(q)  # (1000, nv, nv)
    tau = batched.CalcInverseDynamics(q, v, np.zeros_like(v))  # gravity compensation
    vdot, status = batched.CalcForwardDynamics(q, v, tau, return_status=True)  # ≈ 0
    assert status.ok.all(), status.messages()

Threads. A call runs on the calling thread alone unless its batch is large enough for helper
threads to pay (each thread 5 ms of work or more, the work per state of each operation and model
measured on calls run alone: the first large call times its first states alone); helpers then
claim groups of states as they get to them, and the caller computes whatever they have not, so
that a helper that cannot run (a busy core) costs little (see mallard.multibody._batch_run).
``num_threads`` bounds the threads of a call, the caller included: by default numba's
``NUMBA_NUM_THREADS`` (the number of CPUs unless set). No numba parallel region is used, so
the numba threading layer (``NUMBA_THREADING_LAYER``) does not matter, and several Python
threads may call the same BatchedPlant at once.

The first call of each method compiles its kernel (seconds); numba caches it on disk, so later
processes only load it.
"""

import copy
import functools
import warnings

import numpy as np

from mallard._compiled import DERIVATIVES_AT, kernels
from mallard._scalar import scalar_value
from mallard.multibody._batch_codes import (
    ALONE,
    ARGUMENTS,
    FORWARD,
    FORWARD_DYNAMICS,
    GROUPS,
    INVERSE,
    KINDS,
    MASS_MATRIX,
    NONFINITE,
    POINT_JACOBIAN,
    SOLVER_FAILED,
    SOLVER_STATUSES,
    STATE_ARGUMENT,
    ZERO_QUATERNION,
)
from mallard.multibody._batch_rollout import INTEGRATORS, RolloutOperation, RolloutPlan
from mallard.multibody._batch_run import Operation
from mallard.multibody._batch_status import BatchStatus
from mallard.multibody._layout import PARAMETERS, lanes
from mallard.multibody.tree._indices import ForceElementIndex

__all__ = ["BatchedPlant", "BatchStatus"]

_OBJECT, _FLOAT64 = np.dtype(object), np.dtype(np.float64)
_ndarray, _empty = np.ndarray, np.empty

#: The status codes of a batch of one state that was computed (read-only, shared by the calls).
_COMPUTED_ONE = np.zeros(1, dtype=np.int64)
_COMPUTED_ONE.flags.writeable = False

#: The attribute of BatchedPlant holding the bound single-state kernel of each operation on q
#: alone, for its fast path (see BatchedPlant._one).
_FAST_PATHS = {
    "batch_body_poses": "_poses_one",
    "batch_mass_matrix": "_mass_matrix_one",
    "batch_point_jacobian": "_jacobian_one",
}

#: BatchedPlant's attributes that a deep copy makes anew (see BatchedPlant.__deepcopy__).
_BOUND_TO_THIS_ONE = ("_single", "_single_kernels", "_frames", *_FAST_PATHS.values())

#: An absent point Jacobian's frame (see _ENTRY_POINTS): kernels.batch.batch_evaluate's k and
#: X_BF for the other operations.
_NO_FRAME = (0, np.zeros((4, 3)))

#: The batched entry point (kernels.batch) of each operation: its name, the arguments it takes
#: after the model (which operation or dynamics; the derivatives' entry point an address too:
#: _after_model), the batch inputs it takes that the operation has not (arrays with no rows:
#: zero) and the arguments it takes after its batch inputs (the point Jacobian's frame, given
#: by CalcJacobianSpatialVelocity). The mass matrix, forward
#: dynamics and point Jacobian share one entry point, as do the derivatives of inverse and
#: forward dynamics: each compiles the code its operations share once.
_ENTRY_POINTS = {
    "batch_body_poses": ("batch_body_poses", (), 0, ()),
    "batch_mass_matrix": ("batch_evaluate", (MASS_MATRIX,), 3, _NO_FRAME),
    "batch_inverse_dynamics": ("batch_inverse_dynamics", (), 0, ()),
    "batch_forward_dynamics": ("batch_evaluate", (FORWARD_DYNAMICS,), 0, _NO_FRAME),
    "batch_point_jacobian": ("batch_evaluate", (POINT_JACOBIAN,), 2, None),
    "batch_inverse_dynamics_derivatives": ("batch_dynamics_derivatives", (INVERSE,), 1, ()),
    "batch_forward_dynamics_derivatives": ("batch_dynamics_derivatives", (FORWARD,), 0, ()),
}

#: An input with no rows (see _ENTRY_POINTS; writeable, as the inputs are: a read-only array
#: is another argument type, for which numba would compile the kernel again).
_NO_ROWS = np.zeros((0, 0))

#: The batched operations whose rows hold derivative rows too (see BatchedPlant._row_size).
_DERIVATIVE_KERNELS = ("batch_inverse_dynamics_derivatives", "batch_forward_dynamics_derivatives")


def _after_model(name, which, compiled):
    """The arguments batched operation ``name``'s entry point takes after the model:
    _ENTRY_POINTS' ``which``, then for the derivatives the address of the kernel they call
    (kernels.engine_derivatives.dynamics_derivatives_at) and of those it calls, the vector of
    DERIVATIVES_AT's in ``compiled``'s Kernels (zeros interpreted)."""
    if name in _DERIVATIVE_KERNELS:
        return (*which, compiled.addresses(DERIVATIVES_AT))
    return which


#: The single-state entry point (kernels.single) of each batched one, for batches of one state.
_SINGLE_KERNELS = {
    "batch_body_poses": "single_body_poses",
    "batch_mass_matrix": "single_mass_matrix",
    "batch_inverse_dynamics": "single_inverse_dynamics",
    "batch_forward_dynamics": "single_forward_dynamics",
    "batch_point_jacobian": "single_point_jacobian",
    "batch_inverse_dynamics_derivatives": "single_inverse_dynamics_derivatives",
    "batch_forward_dynamics_derivatives": "single_forward_dynamics_derivatives",
}


class BatchedPlant:
    """A finalized MultibodyPlant's kinematics and dynamics on batches of states.

    ``BatchedPlant(plant, context=None, *, force_elements=True, num_threads=None)`` copies,
    once, the parameters of ``context`` (the plant's default Context if None): body masses,
    centers of mass and inertias, frame offsets, joint damping, actuators' rotor inertias and
    gear ratios, locked joints; and the plant's gravity vector and effort limits. Later
    changes to the Context or the plant are not seen: make a new BatchedPlant. Nothing else
    of the Context is used — its state, time and input ports (actuation, applied forces,
    desired states of PD controllers) are ignored; each method takes its inputs as arguments.

    Forces included: uniform gravity (on the model instances where it is enabled) and joint
    damping. Other force elements (springs, bushings, user-defined ones...) are not supported:
    the constructor raises NotImplementedError naming the first one, unless
    ``force_elements=False``, which leaves them out of every result (gravity and joint damping
    are still included).

    ``num_threads``: the most threads a call runs on, the calling thread included (None:
    numba's ``NUMBA_NUM_THREADS``; 1: the calling thread only). Helper threads are used only
    for batches large enough to pay (see the module's docstring); results do not depend on
    them.

    Every method takes arrays with a leading batch dimension N (N = 0 is allowed) and returns
    arrays with the same leading dimension; ``result[i]`` is the plant's result at state
    ``i``. Arrays of numbers are computed as float64 (compiled, four states at a time in
    vector registers, eight with AVX-512 (_layout.lanes): a batch of two or three costs as much
    as four; a batch of one state runs SingleStatePlant's kernel,
    mallard.multibody.single_state), with the results of the plant's own single calls to the
    last bit; object arrays of non-double scalars
    (AutoDiffXd, Expression) are computed interpreted, in a plain loop, one state at a time. A
    wrong shape raises ValueError naming the argument and the expected shape. A state that
    cannot be computed (a NaN or infinite input, a zero quaternion, an articulated inertia
    that is not positive definite) gets NaN in all of its results; with
    ``return_status=True`` a method returns its results followed by a :class:`BatchStatus`
    saying which states failed and why, else a RuntimeWarning names the first.
    """

    def __init__(self, plant, context=None, *, force_elements=True, num_threads=None):
        from mallard.multibody.plant._multibody_plant import MultibodyPlant

        if not isinstance(plant, MultibodyPlant):
            raise TypeError(f"BatchedPlant: expected a MultibodyPlant, got {type(plant).__name__}")
        if not plant.is_finalized():
            raise RuntimeError("BatchedPlant(): the plant must be finalized: call Finalize()")
        if num_threads is not None:
            import numba

            limit = numba.config.NUMBA_NUM_THREADS
            if not (isinstance(num_threads, int | np.integer) and 1 <= num_threads <= limit):
                raise ValueError(
                    f"BatchedPlant(): num_threads must be an integer from 1 to {limit} "
                    f"(NUMBA_NUM_THREADS), got {num_threads!r}"
                )
            num_threads = int(num_threads)
        if context is None:
            context = plant.CreateDefaultContext()
        plant.ValidateContext(context)
        if force_elements:
            for i in range(1, plant.num_force_elements()):  # (0: gravity)
                element = plant.get_force_element(ForceElementIndex(i))
                raise NotImplementedError(
                    f"BatchedPlant: force element {type(element).__name__} (ForceElementIndex "
                    f"{int(element.index())}) is not supported by the batched API (only "
                    "gravity and joint damping are); pass force_elements=False to leave the "
                    "other force elements out"
                )
        self._plant = plant
        # The plant's documented interface to its kernels (plant._engine.Engine).
        self._engine = engine = plant._engine
        self._mi, self._mf, self._sizes = engine.mi, engine.mf, engine.sizes
        self._ws0, self._X_BF = engine.snapshot(context)
        self._nq, self._nv = plant.num_positions(), plant.num_velocities()
        self._nu = plant.num_actuated_dofs()
        self._nb = plant.num_bodies()
        self._effort_limits = PARAMETERS.views(self._ws0, self._sizes).effort_limits
        self._object_parameters = self._ws0.dtype == object
        self._num_threads = num_threads
        self._operations = {}  # operation name → its Operation (float64)
        self._rollout_plan = None  # (made at the first Rollout: _batch_rollout.RolloutPlan)
        self._single = None  # (made at the first batch of one state: SingleStatePlant)
        self._single_kernels = {}  # batched kernel name → its bound single-state kernel
        self._none = np.zeros(0)  # (an absent optional input of a single state)
        self._frames = {}  # frame → (mobod, X_BF, record) (see _frame)
        self._origin = np.zeros(3)  # (B's origin, for a state alone: read by the kernel only)
        nq, nv, nu, nb = self._nq, self._nv, self._nu, self._nb
        # A batch of one state's fast paths (see _one): the bound single-state kernels of the
        # operations on q alone (None until the first float64 batch of one state binds them),
        # q's shape, the outputs' shapes; the other operations' inputs' and output's shapes.
        self._poses_one = self._mass_matrix_one = self._jacobian_one = None
        self._q_one = (1, nq)
        self._poses_shape, self._M_shape, self._J_shape = (1, nb, 4, 4), (1, nv, nv), (1, 6, nv)
        self._one_shapes = {
            "batch_inverse_dynamics": (((1, nq), (1, nv), (1, nv), (1, nv)), (1, nv)),
            "batch_forward_dynamics": (((1, nq), (1, nv), (1, nv), (1, nu)), (1, nv)),
        }

    def __deepcopy__(self, memo):
        """A deep copy without the kernels of batches of one state, which take the address of
        this one's arrays (kernels.single.Held): the copy binds its own."""
        copied = type(self).__new__(type(self))
        memo[id(self)] = copied
        state = {k: v for k, v in self.__dict__.items() if k not in _BOUND_TO_THIS_ONE}
        copied.__dict__.update(copy.deepcopy(state, memo))
        copied._single, copied._single_kernels, copied._frames = None, {}, {}
        copied._poses_one = copied._mass_matrix_one = copied._jacobian_one = None
        return copied

    def plant(self):
        """The MultibodyPlant this BatchedPlant computes for."""
        return self._plant

    def num_threads(self):
        """The most threads a call runs on, the calling thread included."""
        if self._num_threads is None:
            import numba

            self._num_threads = numba.config.NUMBA_NUM_THREADS
        return self._num_threads

    # ---- arguments ---------------------------------------------------------------------------
    def _frame(self, frame):
        """(mobod, X_BF, record) of a frame of the plant: its body's mobod, its pose in the
        body (a C-contiguous 4×3 pose) and, for float64 parameters, its record
        (kernels.single.frame_record, which X_BF views; None otherwise); TypeError or
        RuntimeError naming frame_B otherwise. Found once per frame."""
        try:
            found = self._frames.get(frame)
        except TypeError:  # (unhashable: not a Frame, which frame_mobod reports)
            found = None
        if found is None:
            k = self._engine.frame_mobod(frame, "frame_B")
            X_BF, record = self._X_BF[int(frame.index())], None
            if X_BF.dtype is _FLOAT64:
                from mallard.multibody._kernels.single import frame_record

                record = frame_record(k, X_BF)
                X_BF = record[:12].reshape(4, 3)
            found = self._frames[frame] = (k, X_BF, record)
        return found

    def _array(self, value, name, width, method, size=None):
        """``value`` as an (N, width) array (float64, or object for non-double scalars), with
        N = ``size`` if given; ValueError naming ``name`` otherwise."""
        a = value
        if not (type(a) is _ndarray and a.dtype is _FLOAT64 and a.flags.c_contiguous):
            a = np.asarray(value)
            if a.dtype != object:
                if a.dtype.kind not in "biuf":
                    raise TypeError(f"{method}(): {name} must hold numbers, got dtype {a.dtype}")
                a = a.astype(np.float64, copy=False)
            a = np.ascontiguousarray(a)
        shape = a.shape
        if len(shape) != 2 or shape[1] != width or (size is not None and shape[0] != size):
            expected = f"({'N' if size is None else size}, {width})"
            raise ValueError(
                f"BatchedPlant.{method}(): {name} must have shape {expected} (a leading batch "
                f"dimension), got {a.shape}"
            )
        return a

    def _optional(self, value, name, width, method, size):
        """:meth:`_array` of ``value``, or an array with no rows (zero) for None."""
        if value is None:
            return np.zeros((0, width))
        return self._array(value, name, width, method, size)

    def _common_dtype(self, *arrays):
        """object if any array (or the parameters) holds non-double scalars, else float64."""
        if self._object_parameters:
            return _OBJECT
        for a in arrays:  # (a loop: this is on every call's path)
            if a.dtype is not _FLOAT64 and a.dtype == _OBJECT:
                return _OBJECT
        return _FLOAT64

    # ---- running a kernel ------------------------------------------------------------------------
    def _row_size(self, name, width):
        """The scalars of a row of batched kernel ``name`` (see kernels.batch): a batch row and
        ``width`` lanes; for the derivatives, the lanes padded to 8 scalars, ``width``
        derivative rows and one more."""
        sizes = self._sizes
        if name in _DERIVATIVE_KERNELS:
            return sizes.row + -(-width * sizes.lane // 8) * 8 + (width + 1) * sizes.drow
        return sizes.row + width * sizes.lane

    def _run(self, name, size, inputs, outputs, fixed=(), after=None):
        """Runs batched operation ``name``, its kernel (kernels.batch: groups of
        _layout.lanes() states; _ENTRY_POINTS') on ``inputs`` (the batch's arrays) and
        ``after`` (the kernel's arguments after them, if the operation takes any: the point
        Jacobian's frame), writing ``outputs``; returns the states' status codes.

        A batch of one float64 state runs the operation's single-state kernel (kernels.single,
        as SingleStatePlant does: no groups, no threads), bound at its first call, on
        ``inputs`` (their first rows, but at the positions ``fixed``, taken whole); computed,
        its status is the shared :data:`_COMPUTED_ONE`."""
        if size == 1 and outputs[0].dtype is _FLOAT64:
            none, args = self._none, []
            if fixed:
                i = 0
                for a in inputs:  # (loops, not comprehensions: this is the call's overhead)
                    args.append(a if i in fixed else a[0] if len(a) else none)
                    i += 1
            else:  # (the common case, without the test per input)
                for a in inputs:
                    args.append(a[0] if len(a) else none)
            for a in outputs:
                args.append(a[0])
            if name == "batch_forward_dynamics_derivatives":  # (dvdot_du: BatchedPlant's own)
                args.append(np.empty((self._nv, self._nu)))
            fn = self._single_kernels.get(name) or self._single_kernel(name, args)
            code = fn(*args)
            return _COMPUTED_ONE if not code else np.array([code], dtype=np.int64)
        status = np.empty(size, dtype=np.int64)
        if not size:
            return status
        entry, which, absent, tail = _ENTRY_POINTS[name]
        batch = len(inputs) + absent  # (the batch inputs: the others, ``after``, are fixed)
        inputs = (*inputs, *(_NO_ROWS,) * absent, *(tail if after is None else after))
        fixed = range(batch, len(inputs))
        if entry == "batch_evaluate" and outputs[0].ndim == 2:  # (N × m × n: v̇ as 1 × nv)
            outputs = (outputs[0].reshape((size, 1, outputs[0].shape[1])),)
        if outputs[0].dtype == object:  # (all outputs have the inputs' common dtype)
            ws0 = self._ws0.astype(object)
            inputs = [a if i in fixed else a.astype(object) for i, a in enumerate(inputs)]
            row = np.empty(self._row_size(name, 1), dtype=object)
            interpreted = kernels(object)
            interpreted.batch_new_row(self._mi, ws0, row, True)
            flags = np.zeros(GROUPS + size, dtype=np.int64)
            getattr(interpreted, entry)(
                self._mi, self._mf, *_after_model(name, which, interpreted), *inputs, row, flags,
                ALONE, *outputs, status,
            )  # fmt: skip
            return status
        operation = self._operations.get(name)
        if operation is None:
            batched = [i not in fixed for i in range(len(inputs))]
            samples = (inputs, (*outputs, status))
            operation = self._operations[name] = Operation(
                entry, self._mi, self._mf, self._ws0, self._row_size(name, lanes()), True,
                lanes(), batched, samples, aligned=self._sizes.row,
                which=_after_model(name, which, kernels(np.float64)),
            )  # fmt: skip
        operation.run(inputs, (*outputs, status), size, self.num_threads())
        return status

    def _one(self, name, inputs):
        """The fast path of a batch of one state for the operations of several inputs: the
        output of batched kernel ``name`` (an array (1, n), computed by its single-state
        kernel) if it has been bound (a float64 batch of one state ran before), every input is
        a float64 ndarray (1, n) (the kernel gets its row as ``ravel()`` gives it: a view, or a
        contiguous copy of a strided one) or None (an optional input, zero) and the state is
        computed; else None, and the caller takes the general path (which checks, computes
        and reports as for any batch). The operations on q alone make the same test in
        place, without this call (a tenth of their fast path's cost)."""
        fn = self._single_kernels.get(name)
        if fn is None:
            return None
        shapes, output_shape = self._one_shapes[name]
        none, args, i = self._none, [], 0
        for a in inputs:  # (loops, not comprehensions: this is the whole call's overhead)
            if a is None:
                args.append(none)
            elif type(a) is _ndarray and a.shape == shapes[i] and a.dtype is _FLOAT64:
                args.append(a.ravel())
            else:
                return None
            i += 1
        output = _empty(output_shape)
        args.append(output[0])
        if fn(*args):  # (a state that cannot be computed: the general path reports it)
            return None
        return output

    def _single_state(self):
        """This BatchedPlant's SingleStatePlant (made at the first batch of one state)."""
        single = self._single
        if single is None:
            from mallard.multibody.single_state import SingleStatePlant

            single = self._single = SingleStatePlant._of(self)
        return single

    def _single_kernel(self, name, args):
        """The single-state kernel of batched kernel ``name``, bound for ``args``
        (SingleStatePlant's, made at the first batch of one state)."""
        fn = self._single_kernels[name] = self._single_state()._kernel(_SINGLE_KERNELS[name], *args)
        fast = _FAST_PATHS.get(name)
        if fast is not None:
            setattr(self, fast, fn)
        return fn

    def _finish(self, method, results, codes, inputs, arguments, return_status, describe=None):
        """``results`` (one array or a tuple), with the BatchStatus if ``return_status``; a
        RuntimeWarning naming the first failed state otherwise. ``describe``: a method like
        :meth:`_describe` (it, by default)."""
        status = None
        if return_status or (codes is not _COMPUTED_ONE and np.count_nonzero(codes)):
            describe = functools.partial(describe or self._describe, codes, inputs, arguments)
            status = BatchStatus(method, codes, describe)
        if not return_status:
            if status is not None:
                failed = status.failed()
                warnings.warn(
                    f"BatchedPlant.{method}(): {failed.size} of {len(status)} states failed "
                    f"(their results are NaN); {status.message(failed[0])}. Pass "
                    "return_status=True to get each state's status.",
                    RuntimeWarning,
                    stacklevel=3,
                )
            return results
        return (*results, status) if isinstance(results, tuple) else (results, status)

    def _describe(self, codes, inputs, arguments, i):
        """Why state i was not computed, from its status code (see kernels.batch)."""
        code = int(codes[i])
        kind, detail = code % KINDS, code // KINDS
        if kind == NONFINITE:
            argument, column = detail % ARGUMENTS, detail // ARGUMENTS
            name = arguments[argument]
            value = scalar_value(inputs[argument][i, column])
            return (
                f"{name}[{i}, {column}] = {value!r} is not finite ({self._element(name, column)})"
            )
        k = detail
        if kind == ZERO_QUATERNION:
            start = self._plant._topology.mobods[k].q_start
            joint = self._plant._joints[self._plant._topology.mobods[k].joint]
            return (
                f"All the elements in a quaternion are zero: the positions q[{i}, {start}:"
                f"{start + 4}] of joint '{joint.name()}'"
            )
        return str(self._engine.articulated_inertia_error(k))

    def _element(self, name, column):
        """What column ``column`` of the input ``name`` is (a joint's position or velocity, an
        actuator's actuation, a coordinate of a point)."""
        plant = self._plant
        if name == "p_BoBp_B":
            return f"the point's {'xyz'[column]} coordinate"
        if name == "actuation":
            for actuator in plant._actuators:
                if actuator._input_start == column:
                    return f"the actuation of actuator '{actuator.name()}'"
        for joint in plant._joints:
            if name == "q":
                start, count, what = joint.position_start(), joint.num_positions(), "position"
            else:
                start, count, what = joint.velocity_start(), joint.num_velocities(), "velocity"
            if start <= column < start + count:
                return f"{what} {column - start} of joint '{joint.name()}'"
        return name

    # ---- kinematics --------------------------------------------------------------------------
    def CalcAllBodyPosesInWorld(self, q, *, return_status=False):
        """X_WB of every body at each q: an array (N, num_bodies, 4, 4) of homogeneous
        transforms [R_WB, p_WoBo_W; 0, 0, 0, 1] (as RigidTransform.GetAsMatrix4()), indexed
        ``[i, BodyIndex]``; ``q`` is (N, nq)."""
        fn = self._poses_one
        if (
            fn is not None  # (the fast path of one state: see _one)
            and type(q) is _ndarray
            and q.shape == self._q_one
            and q.dtype is _FLOAT64
            and not return_status
        ):
            X_WB = _empty(self._poses_shape)
            if not fn(q.ravel(), X_WB[0]):
                return X_WB
        method = "CalcAllBodyPosesInWorld"
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        X_WB = np.empty((size, self._nb, 4, 4), dtype=self._common_dtype(q))
        codes = self._run("batch_body_poses", size, (q,), (X_WB,))
        return self._finish(method, X_WB, codes, (q,), ("q",), return_status)

    def CalcJacobianSpatialVelocity(self, q, frame_B, p_BoBp_B=None, *, return_status=False):
        """J_V_WBp_W at each q: an array (N, 6, nv), the Jacobian with respect to v (Drake's
        JacobianWrtVariable.kV) of the spatial velocity [ω; v] of the point Bp fixed on
        ``frame_B``, measured and expressed in World, so that V_WBp_W = J·v.

        ``q`` is (N, nq); ``p_BoBp_B``, the position of Bp in ``frame_B``, is one 3-vector
        for every state or an (N, 3) array, one point per state (None: B's origin)."""
        fn = self._jacobian_one
        if (
            fn is not None  # (the fast path of one state: see _one)
            and p_BoBp_B is None
            and type(q) is _ndarray
            and q.shape == self._q_one
            and q.dtype is _FLOAT64
            and not return_status
        ):
            try:  # (the Held of a frame found before: SingleStatePlant._frame_held)
                held = self._single._frames[frame_B]
            except (KeyError, TypeError):
                pass
            else:
                J = _empty(self._J_shape)
                if not fn(held, q.ravel(), self._origin, J[0]):
                    return J
        method = "CalcJacobianSpatialVelocity"
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        k, X_BF, _ = self._frame(frame_B)
        if p_BoBp_B is None:
            p = np.zeros((size, 3))
        else:
            p = np.asarray(p_BoBp_B)
            if p.shape == (3,):
                p = np.broadcast_to(p, (size, 3))
            p = self._array(p, "p_BoBp_B", 3, method, size)
        J = np.empty((size, 6, self._nv), dtype=self._common_dtype(q, p))
        names = ("q", "p_BoBp_B")
        if size == 1 and J.dtype is _FLOAT64:  # (_run's single-state kernel: the frame's Held)
            held = self._single_state()._frame_held(frame_B)
            codes = self._run("batch_point_jacobian", size, (held, q, p), (J,), fixed=(0,))
        else:
            codes = self._run("batch_point_jacobian", size, (q, p), (J,), after=(k, X_BF))
        return self._finish(method, J, codes, (q, p), names, return_status)

    # ---- dynamics ------------------------------------------------------------------------------
    def CalcMassMatrix(self, q, *, return_status=False):
        """M(q) at each q: an array (N, nv, nv), reflected rotor inertias of the actuators on
        its diagonal (as MultibodyPlant.CalcMassMatrix); ``q`` is (N, nq)."""
        fn = self._mass_matrix_one
        if (
            fn is not None  # (the fast path of one state: see _one)
            and type(q) is _ndarray
            and q.shape == self._q_one
            and q.dtype is _FLOAT64
            and not return_status
        ):
            M = _empty(self._M_shape)
            if not fn(q.ravel(), M[0]):
                return M
        method = "CalcMassMatrix"
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        M = np.empty((size, self._nv, self._nv), dtype=self._common_dtype(q))
        codes = self._run("batch_mass_matrix", size, (q,), (M,))
        return self._finish(method, M, codes, (q,), ("q",), return_status)

    def CalcInverseDynamics(self, q, v, known_vdot, tau_applied=None, *, return_status=False):
        """The generalized forces tau (N, nv) that produce the accelerations ``known_vdot``
        at (q, v) with gravity, joint damping and ``tau_applied`` also acting:

            tau = M(q)·v̇ + C(q, v)·v − tau_g(q) + D·v − tau_applied

        (D the joint damping, reflected rotor inertias in M): the plant's CalcInverseDynamics
        with the forces of CalcForceElementsContribution plus ``tau_applied`` as the external
        forces. With v̇ = 0 and v = 0 it is the gravity compensation −tau_g(q). ``q`` is
        (N, nq); ``v``, ``known_vdot`` and ``tau_applied`` (None: zero) are (N, nv)."""
        inputs = (q, v, known_vdot, tau_applied)
        if not return_status and (one := self._one("batch_inverse_dynamics", inputs)) is not None:
            return one
        method = "CalcInverseDynamics"
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        v = self._array(v, "v", self._nv, method, size)
        vdot = self._array(known_vdot, "known_vdot", self._nv, method, size)
        tau_applied = self._optional(tau_applied, "tau_applied", self._nv, method, size)
        tau = np.empty((size, self._nv), dtype=self._common_dtype(q, v, vdot, tau_applied))
        inputs = (q, v, vdot, tau_applied)
        names = ("q", "v", "known_vdot", "tau_applied")
        codes = self._run("batch_inverse_dynamics", size, inputs, (tau,))
        return self._finish(method, tau, codes, inputs, names, return_status)

    def _forward_dynamics_args(self, q, v, tau_applied, actuation, method):
        """(q, v, tau_applied, actuation) checked for ``method``: None inputs become arrays
        with no rows (zero)."""
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        v = self._array(v, "v", self._nv, method, size)
        tau_applied = self._optional(tau_applied, "tau_applied", self._nv, method, size)
        actuation = self._optional(actuation, "actuation", self._nu, method, size)
        return q, v, tau_applied, actuation

    def CalcForwardDynamics(self, q, v, tau_applied=None, actuation=None, *, return_status=False):
        """The generalized accelerations v̇ (N, nv) at (q, v): the articulated body algorithm,
        as a continuous plant's EvalTimeDerivatives computes v̇, with gravity, joint damping,
        the actuators' reflected rotor inertias and locked joints, plus

        * ``tau_applied`` (N, nv): generalized forces added to those, as the plant's applied
          generalized force input port adds them (not clamped), and
        * ``actuation`` (N, nu): the actuation input u, as the plant's actuation input port
          takes it (ordered by actuator input, mapped to generalized forces by B, each clamped
          to its actuator's effort limit).

        None means zero. For a discrete plant this is still the continuous dynamics (the
        discrete step treats joint damping implicitly). A state whose articulated inertia is
        not positive definite gets NaN, its status the plant's message."""
        inputs = (q, v, tau_applied, actuation)
        if not return_status and (one := self._one("batch_forward_dynamics", inputs)) is not None:
            return one
        method = "CalcForwardDynamics"
        inputs = self._forward_dynamics_args(q, v, tau_applied, actuation, method)
        size = inputs[0].shape[0]
        vdot = np.empty((size, self._nv), dtype=self._common_dtype(*inputs))
        names = ("q", "v", "tau_applied", "actuation")
        codes = self._run("batch_forward_dynamics", size, inputs, (vdot,))
        return self._finish(method, vdot, codes, inputs, names, return_status)

    # ---- derivatives -------------------------------------------------------------------------
    def CalcInverseDynamicsDerivatives(self, q, v, known_vdot, *, return_status=False):
        """(dtau_dq, dtau_dv, dtau_dvdot) at each state: the derivatives of
        :meth:`CalcInverseDynamics`' tau (gravity and joint damping included), arrays
        (N, nv, nq), (N, nv, nv) and (N, nv, nv) (the last M(q)), as
        MultibodyPlant.CalcInverseDynamicsDerivatives (a mallard method) without external
        forces. ``q`` is (N, nq); ``v`` and ``known_vdot`` are (N, nv)."""
        method = "CalcInverseDynamicsDerivatives"
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        v = self._array(v, "v", self._nv, method, size)
        vdot = self._array(known_vdot, "known_vdot", self._nv, method, size)
        dtype = self._common_dtype(q, v, vdot)
        nq, nv = self._nq, self._nv
        outputs = (
            np.empty((size, nv, nq), dtype=dtype),
            np.empty((size, nv, nv), dtype=dtype),
            np.empty((size, nv, nv), dtype=dtype),
        )
        inputs, names = (q, v, vdot), ("q", "v", "known_vdot")
        name = "batch_inverse_dynamics_derivatives"
        codes = self._run(name, size, inputs, outputs)
        return self._finish(method, outputs, codes, inputs, names, return_status)

    def CalcForwardDynamicsDerivatives(
        self, q, v, tau_applied=None, actuation=None, *, return_status=False
    ):
        """(dvdot_dq, dvdot_dv, dvdot_dtau, dvdot_du) at each state: the derivatives of
        :meth:`CalcForwardDynamics`' v̇, arrays (N, nv, nq), (N, nv, nv), (N, nv, nv) and
        (N, nv, nu), as MultibodyPlant.CalcForwardDynamicsDerivatives (a mallard method):
        −M⁻¹·∂τ/∂q, −M⁻¹·∂τ/∂v, M⁻¹ and M⁻¹·B (zero for actuators at their effort limit),
        locked joints' rows zero. Arguments as :meth:`CalcForwardDynamics`'."""
        method = "CalcForwardDynamicsDerivatives"
        inputs = self._forward_dynamics_args(q, v, tau_applied, actuation, method)
        q, actuation = inputs[0], inputs[3]
        size = q.shape[0]
        dtype = self._common_dtype(*inputs)
        nq, nv = self._nq, self._nv
        outputs = (
            np.empty((size, nv, nq), dtype=dtype),
            np.empty((size, nv, nv), dtype=dtype),
            np.empty((size, nv, nv), dtype=dtype),
        )
        names = ("q", "v", "tau_applied", "actuation")
        name = "batch_forward_dynamics_derivatives"
        codes = self._run(name, size, inputs, outputs)
        dvdot_dtau = outputs[2]
        dvdot_du = dvdot_dtau[:, :, self._engine.tables.actuated_v]  # (B's columns)
        if actuation.shape[0] and dtype.kind != "O":
            clamped = (np.abs(actuation) > self._effort_limits) & (codes == 0)[:, None]
            dvdot_du[np.broadcast_to(clamped[:, None, :], dvdot_du.shape)] = 0.0
        results = (*outputs, dvdot_du)
        return self._finish(method, results, codes, inputs, names, return_status)

    # ---- rollouts ------------------------------------------------------------------------------
    def Rollout(
        self,
        q0,
        v0,
        actuation=None,
        *,
        num_steps=None,
        every=1,
        time_step=None,
        integrator="runge_kutta3",
        pd_target=None,
        pd_gains=None,
        out=None,
        return_status=False,
    ):
        """Simulates N states at once: the states [q; v] after every ``every``-th of
        ``num_steps`` steps from (q0[i], v0[i]), an array X (N, num_steps // every, nq + nv):
        X[i, s] is state i's after (s + 1)·every steps (the initial state is not included).

        A discrete plant steps with its own discrete update, step h = its time step:
        the free motion v* = v0 + h·v̇* (for SAP plants, joint damping implicit), then for a
        state with a joint limit near, SAP's v (the plant's compiled solve, state by state),
        else v = v*, and q = q0 + h·N(q0)·v; plants with constraints (couplers...),
        PD-controlled actuators, TAMSI plants with joint limits and locked joints raise
        NotImplementedError. A continuous
        plant steps with the Simulator's fixed-step ``integrator`` ("explicit_euler",
        "runge_kutta2" (Heun) or "runge_kutta3", as ExplicitEulerIntegrator,
        RungeKutta2Integrator and RungeKutta3Integrator in fixed-step mode) of step
        ``time_step`` (required, and only for continuous plants). Contact is ignored (a
        plant with collision geometry warns). The result equals, state for state and to the
        last bit, the Simulator's trajectory of the plant alone with the same inputs; for a
        plant with welded bodies and no contact, to rounding (the rollout's model has them
        merged into composite bodies, their sums formed in another order: within 1e-12 over
        100-odd steps in the tests; mallard.multibody._welded_composites).

        ``actuation``: (N, num_steps, nu), the actuation input during each step (clamped to
        the effort limits, as the plant's); None: zero (then ``num_steps`` is required).
        ``pd_target`` (N, 2·nu) = [q_d; v_d] per state and ``pd_gains`` = (kp, kd), nu each:
        an explicit PD law on the actuators' joints (single-dof) added to the actuation,
        u = actuation + (kp·(q_d − q) + kd·(v_d − v)), evaluated at each state the dynamics
        are (as a controller system feeding the plant's actuation input).

        ``out``: an array (N, num_steps // every, nq + nv) of float64, C-contiguous, to write
        into (returned); else a new one. A state with a NaN or infinite input, a zero
        quaternion, or whose state becomes non-finite or whose articulated inertia is not
        positive definite or its SAP solve fails during the rollout, gets NaN in all of its
        outputs (see the class's ``return_status``); the others are computed. float64 only.
        Threads as the other methods (a group of four or eight states, _layout.lanes, is
        computed whole by the thread that claims it)."""
        method = "Rollout"
        if self._rollout_plan is None:
            self._rollout_plan = RolloutPlan(self)
        plan = self._rollout_plan
        h, scheme = self._rollout_scheme(plan, time_step, integrator)
        q0 = self._array(q0, "q0", self._nq, method)
        size = q0.shape[0]
        v0 = self._array(v0, "v0", self._nv, method, size)
        nu, nx = self._nu, self._nq + self._nv
        if actuation is None:
            if num_steps is None:
                raise ValueError("BatchedPlant.Rollout(): give num_steps, or an actuation array")
            U = np.zeros((0, 0, nu))
        else:
            U = np.ascontiguousarray(actuation, dtype=np.float64)
            if U.ndim != 3 or U.shape[0] != size or U.shape[2] != nu:
                raise ValueError(
                    f"BatchedPlant.Rollout(): actuation must have shape ({size}, num_steps, "
                    f"{nu}), got {U.shape}"
                )
            if num_steps is not None and num_steps != U.shape[1]:
                raise ValueError(
                    f"BatchedPlant.Rollout(): num_steps = {num_steps} but actuation has "
                    f"{U.shape[1]} steps"
                )
            num_steps = U.shape[1]
        if not (isinstance(num_steps, int | np.integer) and num_steps >= 0):
            raise ValueError(
                f"BatchedPlant.Rollout(): num_steps must be a non-negative integer, got "
                f"{num_steps!r}"
            )
        if not (isinstance(every, int | np.integer) and every >= 1):
            raise ValueError(
                f"BatchedPlant.Rollout(): every must be a positive integer, got {every!r}"
            )
        target, gains, slots = self._pd_arguments(pd_target, pd_gains, size, method)
        shape = (size, int(num_steps) // int(every), nx)
        if out is None:
            X = np.empty(shape)
        else:
            X = out
            if not (
                isinstance(X, np.ndarray)
                and X.dtype == np.float64
                and X.shape == shape
                and X.flags.c_contiguous
                and X.flags.writeable
            ):
                raise ValueError(
                    f"BatchedPlant.Rollout(): out must be a writable C-contiguous float64 array "
                    f"of shape {shape}, got "
                    f"{getattr(X, 'dtype', type(X).__name__)} {getattr(X, 'shape', '')}"
                )
        if any(a.dtype == object for a in (q0, v0)):
            raise NotImplementedError("BatchedPlant.Rollout(): float64 states only")
        X0 = np.concatenate((q0, v0), axis=1)
        inputs = (X0, U, target, gains, slots, float(h), scheme, int(num_steps), int(every))
        inputs += plan.sap
        codes = self._run_rollout(plan, size, inputs, X)
        return self._finish(
            method, X, codes, (X0, U, target), ("x0", "actuation", "pd_target"), return_status,
            self._describe_rollout,
        )  # fmt: skip

    def _describe_rollout(self, codes, inputs, arguments, i):
        """Why state i of a rollout was not computed (see :meth:`_describe`): its NONFINITE
        codes name q0, v0, actuation[i, t, j], pd_target or the step its state became
        non-finite at (kernels.rollouts)."""
        code = int(codes[i])
        if code % KINDS == SOLVER_FAILED:
            from mallard.multibody.plant._sap_driver import _failure

            status, step = divmod(code // KINDS, SOLVER_STATUSES)[::-1]
            return (
                f"the SAP solver failed at step {step}: "
                f"{_failure(status, step * self._plant.time_step())}"
            )
        if code % KINDS != NONFINITE:
            return self._describe(codes, inputs, arguments, i)
        detail = code // KINDS
        argument, column = detail % ARGUMENTS, detail // ARGUMENTS
        if argument == STATE_ARGUMENT:
            return (
                f"its state became NaN or infinite during the rollout, at step {column} (the "
                "simulation diverged: too large a step or a stiff model)"
            )
        X0, U, target = inputs
        if argument == 0:
            name, nq = ("q", 0) if column < self._nq else ("v", self._nq)
            value = float(X0[i, column])
            return (
                f"{name}0[{i}, {column - nq}] = {value!r} is not finite "
                f"({self._element(name, column - nq)})"
            )
        if argument == 1:
            t, j = divmod(column, self._nu)
            return (
                f"actuation[{i}, {t}, {j}] = {float(U[i, t, j])!r} is not finite "
                f"({self._element('actuation', j)})"
            )
        return f"pd_target[{i}, {column}] = {float(target[i, column])!r} is not finite"

    def _rollout_scheme(self, plan, time_step, integrator):
        """(h, scheme) of a rollout (see :meth:`Rollout`)."""
        if plan.discrete:
            if time_step is not None:
                raise ValueError(
                    "BatchedPlant.Rollout(): a discrete plant steps with its own time step "
                    f"({plan.h}); time_step must be None"
                )
            return plan.h, plan.scheme
        if time_step is None or not (isinstance(time_step, float | int) and time_step > 0):
            raise ValueError(
                "BatchedPlant.Rollout(): a continuous plant needs a time_step > 0 for its "
                f"fixed-step integrator, got {time_step!r}"
            )
        if integrator not in INTEGRATORS:
            raise ValueError(
                f"BatchedPlant.Rollout(): integrator must be one of {sorted(INTEGRATORS)}, got "
                f"{integrator!r}"
            )
        return float(time_step), INTEGRATORS[integrator]

    def _pd_arguments(self, pd_target, pd_gains, size, method):
        """(target (N, 2·nu) or no rows, gains (2, nu), slots (2, nu)) of a rollout."""
        nu = self._nu
        gains, slots = np.zeros((2, nu)), np.zeros((2, nu), dtype=np.int64)
        if pd_target is None:
            if pd_gains is not None:
                raise ValueError("BatchedPlant.Rollout(): pd_gains without pd_target")
            return np.zeros((0, 2 * nu)), gains, slots
        target = self._array(pd_target, "pd_target", 2 * nu, method, size)
        if pd_gains is None or len(pd_gains) != 2:
            raise ValueError("BatchedPlant.Rollout(): pd_target needs pd_gains = (kp, kd)")
        for row, (name, value) in enumerate(zip(("kp", "kd"), pd_gains, strict=True)):
            value = np.asarray(value, dtype=np.float64)
            if value.shape != (nu,) or not np.all(np.isfinite(value)):
                raise ValueError(
                    f"BatchedPlant.Rollout(): pd_gains' {name} must be {nu} finite values, "
                    f"got {value!r}"
                )
            gains[row] = value
        for actuator in self._plant._actuators:
            joint = actuator.joint()
            if joint.num_positions() != 1 or joint.num_velocities() != 1:
                raise ValueError(
                    f"BatchedPlant.Rollout(): pd_target: actuator '{actuator.name()}' drives "
                    f"joint '{joint.name()}', which is not a single-dof joint"
                )
            a = actuator._input_start
            slots[0, a] = joint.position_start()  # (slots of x = [q; v])
            slots[1, a] = self._nq + joint.velocity_start()
        return target, gains, slots

    def _run_rollout(self, plan, size, inputs, X):
        """Runs kernels.rollouts' batch_rollout; returns the states' status codes."""
        status = np.empty(size, dtype=np.int64)
        if not size:
            return status
        name = "batch_rollout"
        operation = self._operations.get(name)
        if operation is None:
            batched = [True, True, True] + [False] * (len(inputs) - 3)
            sizes = plan.sizes  # (the plant's model, or its welded bodies merged)
            row_size = sizes.row + lanes() * sizes.lane + sum(plan.sap[4:6]) + plan.found_size
            operation = self._operations[name] = RolloutOperation(
                plan, name, plan.mi, plan.mf, plan.ws0, row_size, True, lanes(), batched,
                (inputs, (X, status)), aligned=sizes.row,
            )  # fmt: skip
        operation.run(inputs, (X, status), size, self.num_threads())
        return plan.plant_codes(status)

    # ---- collisions ----------------------------------------------------------------------------
    def CheckCollisions(
        self,
        q,
        *,
        padding=0.0,
        min_distance=False,
        pairs_within=None,
        scene_graph_context=None,
        return_status=False,
    ):
        """Collision checks of the plant's collision geometry (its SceneGraph's proximity
        geometries, on its bodies or anchored) at each configuration ``q[i]`` (``q`` is (N, nq),
        float64): a BatchedCollisions (mallard.geometry._batch_collision) holding, per
        configuration, whether it is collision-free (no pair the collision filters allow has a
        signed distance ≤ ``padding``), and, if asked, the least signed distance of those pairs
        (``min_distance=True``) and the signed distances of the pairs within ``pairs_within``.
        The filters are the SceneGraph's own, or those of ``scene_graph_context``. Each answer
        is that of the plant's QueryObject at that configuration, whatever the number of
        threads (computed compiled, groups of configurations on helper threads as the other
        methods). A configuration with a NaN or infinite q, a zero quaternion, or a pair whose
        signed distance is not supported (as in Drake: a half space with a shape other than a
        sphere) is not checked: it is not collision-free and its distances are NaN (see the
        class's ``return_status``). mallard's own API: pydrake's SceneGraphCollisionChecker
        checks one configuration at a time."""
        from mallard.geometry._batch_collision import check_collisions

        result, codes, q, describe = check_collisions(
            self, q, padding, min_distance, pairs_within, scene_graph_context
        )
        results = self._finish("CheckCollisions", (result,), codes, (q,), ("q",), return_status,
                               describe)  # fmt: skip
        return results if return_status else results[0]
