"""One state at a time without a Context: a MultibodyPlant's kinematics, dynamics and
derivatives from arrays into arrays the caller may provide (mallard's own API, for
model-predictive control and other tight Python loops; pydrake has no equivalent).

:class:`SingleStatePlant` takes a finalized plant and a Context's parameters once (as
mallard.multibody.batch.BatchedPlant does), then each method takes a state as 1-D arrays
(``q`` of size nq, ``v`` of size nv, ...) and returns its result, written into ``out`` when
given. A call is one compiled kernel: the arguments pass as they are to a numba dispatcher of
the kernel compiled for exactly the types of a well-formed call, whose type test (in C) and
the kernel's test of the shapes are the only tests a well-formed call makes; anything else is
then checked, converted or refused in Python. Results are the plant's own single-state
results (and BatchedPlant's) to the last bit.

Example::

    import numpy as np
    from mallard.multibody.single_state import SingleStatePlant

    single = SingleStatePlant(plant)  # the parameters of plant's default Context
    q, v = np.zeros(plant.num_positions()), np.zeros(plant.num_velocities())
    M = np.empty((plant.num_velocities(),) * 2)
    for _ in range(1000):
        single.CalcMassMatrix(q, out=M)  # no allocation
        tau = single.CalcInverseDynamics(q, v, np.zeros_like(v))

A state that cannot be computed raises after its outputs are set to NaN: ValueError for a NaN
or infinite input (naming the argument, its element and the joint), RuntimeError, as the
plant's, for a quaternion whose four elements are zero or (forward dynamics) an articulated
inertia that is not positive definite.
"""

import copy

import numpy as np

from mallard._compiled import kernels
from mallard.multibody._batch_codes import KINDS, NONFINITE, ZERO_QUATERNION
from mallard.multibody._kernels.single import WRONG_SHAPES, Held

__all__ = ["SingleStatePlant"]

_F64 = np.dtype(np.float64)
_ndarray, _empty = np.ndarray, np.empty

#: The kinds of a kernel's arguments (SingleStatePlant._arguments): an input, an optional
#: input (zero when not given: an array of length zero), an output.
_INPUT, _OPTIONAL, _OUTPUT = "input", "optional", "output"


class SingleStatePlant:
    """A finalized MultibodyPlant's kinematics, dynamics and derivatives at one state, without
    a Context (see the module's docstring).

    ``SingleStatePlant(plant, context=None, *, force_elements=True)`` copies, once, the
    parameters of ``context`` (the plant's default Context if None), exactly as
    BatchedPlant(plant, context) does: later changes to the Context or the plant are not
    seen; forces are gravity and joint damping (other force elements raise
    NotImplementedError unless ``force_elements=False`` leaves them out). float64 only: a plant
    of AutoDiffXd or Expression scalars raises TypeError (BatchedPlant takes those).

    Each method takes the state as 1-D arrays: float64 C-contiguous arrays pass as they are;
    anything else (lists, other dtypes, read-only arrays) is converted, and a wrong size raises
    ValueError naming the argument. ``out``: the array (a tuple of arrays for the derivatives)
    to write the result into, float64, C-contiguous, writable and of the result's
    shape (ValueError otherwise), returned; None: new arrays. The first call of each method
    loads (or compiles) its kernel. The kernels hold the GIL (they share one workspace): Python
    threads may share a SingleStatePlant, their calls running one at a time.
    """

    def __init__(self, plant, context=None, *, force_elements=True):
        from mallard.multibody.batch import BatchedPlant

        self._setup(BatchedPlant(plant, context, force_elements=force_elements, num_threads=1))

    @classmethod
    def _of(cls, batched):
        """The SingleStatePlant of a BatchedPlant (its parameters, shared)."""
        single = cls.__new__(cls)
        single._setup(batched)
        return single

    def _setup(self, batched):
        if batched._object_parameters:
            raise TypeError(
                "SingleStatePlant: the plant's parameters are not float64 (an AutoDiffXd or "
                "Expression plant); use BatchedPlant, which computes them interpreted"
            )
        self._batched = batched
        self._mi, self._mf = batched._mi, batched._mf
        sizes = batched._sizes
        self._row = np.empty(sizes.row + sizes.drow)
        kernels(np.float64).batch_new_row(self._mi, batched._ws0, self._row, False)
        self._held = Held(self._mi, self._mf, self._row)
        self._h = self._held.address  # (every kernel's first argument, but the Jacobians')
        nq, nv, nu, nb = batched._nq, batched._nv, batched._nu, batched._nb
        self._poses_shape, self._M_shape, self._J_shape = (nb, 4, 4), (nv, nv), (6, nv)
        self._v_shape = (nv,)
        self._inverse_shapes = ((nv, nq), (nv, nv), (nv, nv))  # (the derivatives' outputs)
        self._forward_shapes = ((nv, nq), (nv, nv), (nv, nv), (nv, nu))
        # Each kernel's arguments after the held arrays: (name, shape, kind); an output's name
        # is "out", or its index in the derivatives' ``out``.
        q, v = ("q", (nq,), _INPUT), ("v", (nv,), _INPUT)
        vdot, tau = ("known_vdot", (nv,), _INPUT), ("tau_applied", (nv,), _OPTIONAL)
        u, p = ("actuation", (nu,), _OPTIONAL), ("p_BoBp_B", (3,), _INPUT)
        inverse = tuple((i, shape, _OUTPUT) for i, shape in enumerate(self._inverse_shapes))
        forward = tuple((i, shape, _OUTPUT) for i, shape in enumerate(self._forward_shapes))
        self._arguments = {
            "_body_poses": (q, ("out", self._poses_shape, _OUTPUT)),
            "_mass_matrix": (q, ("out", self._M_shape, _OUTPUT)),
            "_inverse_dynamics": (q, v, vdot, tau, ("out", (nv,), _OUTPUT)),
            "_forward_dynamics": (q, v, tau, u, ("out", (nv,), _OUTPUT)),
            "_point_jacobian": (q, p, ("out", self._J_shape, _OUTPUT)),
            "_frame_jacobian": (q, ("out", self._J_shape, _OUTPUT)),
            "_inverse_dynamics_derivatives": (q, v, vdot, *inverse),
            "_forward_dynamics_derivatives": (q, v, tau, u, *forward),
        }
        self._none = np.zeros(0)  # (an optional input not given)
        self._frames = {}  # frame → the address of its Held (see _frame_held)
        self._frame_helds = []  # (those Helds)
        self._kernels = {}  # entry point name → its kernel bound for BatchedPlant (_kernel)
        # Each method's kernel, an attribute (looked up on every call): first a binder, which
        # makes the kernel at the first call and replaces itself with it.
        for attribute, name in _ENTRY_POINTS.items():
            setattr(self, attribute, self._binder(attribute, name))

    def __deepcopy__(self, memo):
        """A new SingleStatePlant of a deep copy of its parameters (the kernels take the
        address of this one's arrays, which a copy of its attributes would share)."""
        return type(self)._of(copy.deepcopy(self._batched, memo))

    def plant(self):
        """The MultibodyPlant this SingleStatePlant computes for."""
        return self._batched.plant()

    # ---- arguments ---------------------------------------------------------------------------
    # A method passes its arguments to its kernel as they are (None made an array): the
    # kernel is a numba dispatcher of the entry point compiled for exactly the types of a
    # well-formed call (float64, C-contiguous, writable arrays: numba's type test, in
    # C, is the only test a well-formed call makes in Python), which raises TypeError for
    # others; the entry point tests the shapes first and returns WRONG_SHAPES, computing
    # nothing, if one is not the model's. Either way :meth:`_again` then checks and converts
    # the arguments, raising as the class's docstring says, and calls the kernel again.
    def _vector(self, value, shape, name, method):
        """``value`` as a new float64 C-contiguous 1-D array of ``shape``; TypeError or
        ValueError naming ``name`` otherwise."""
        a = np.asarray(value)
        if a.dtype.kind not in "biuf":
            raise TypeError(
                f"SingleStatePlant.{method}(): {name} must hold float64 numbers, got dtype "
                f"{a.dtype} (BatchedPlant computes other scalars)"
            )
        a = np.array(a, dtype=np.float64)  # (a copy: writable, C-contiguous)
        if a.shape != shape:
            raise ValueError(
                f"SingleStatePlant.{method}(): {name} must have shape {shape}, got {a.shape}"
            )
        return a

    @staticmethod
    def _out(out, shape, name, method):
        """``out`` if it is a float64, C-contiguous, writable array of ``shape``;
        ValueError otherwise (``name``: the argument's name, or its index in ``out``)."""
        if (
            type(out) is _ndarray
            and out.dtype is _F64
            and out.shape == shape
            and (flags := out.flags).c_contiguous
            and flags.writeable
        ):
            return out
        name = name if isinstance(name, str) else f"out[{name}]"
        raise ValueError(
            f"SingleStatePlant.{method}(): {name} must be a writable C-contiguous float64 array "
            f"of shape {shape}, got {getattr(out, 'dtype', type(out).__name__)} "
            f"{getattr(out, 'shape', '')}"
        )

    @staticmethod
    def _outs(out, shapes, method):
        """The outputs of a derivatives method as a tuple: new arrays for None, else the
        arrays of ``out``, a tuple or list of len(shapes) (ValueError otherwise; its arrays are
        checked if the call fails, see :meth:`_again`)."""
        count = len(shapes)
        if out is None:
            return tuple([_empty(shape) for shape in shapes])
        if type(out) is tuple and len(out) == count:
            return out
        if not (isinstance(out, tuple | list) and len(out) == count):
            raise ValueError(f"SingleStatePlant.{method}(): out must be a tuple of {count} arrays")
        return tuple(out)

    def _again(self, method, attribute, code, args):
        """After kernel ``attribute`` returned ``code`` (nonzero; WRONG_SHAPES for a
        TypeError) for ``args`` (the held arrays' address, then the arguments of
        ``self._arguments[attribute]``): for WRONG_SHAPES, the arguments checked and converted
        (TypeError or ValueError naming a bad one) and the kernel called again; then the
        error of the state's status code, if any."""
        arguments = self._arguments[attribute]
        args = list(args)
        if code == WRONG_SHAPES:
            for i, (name, shape, kind) in enumerate(arguments, 1):
                if kind is _INPUT or (kind is _OPTIONAL and args[i] is not self._none):
                    args[i] = self._vector(args[i], shape, name, method)
                elif kind is _OUTPUT:
                    args[i] = self._out(args[i], shape, name, method)
            code = getattr(self, attribute)(*args)
        if code:
            inputs, names = [], []
            for i, (name, _, kind) in enumerate(arguments, 1):
                if kind is _INPUT or kind is _OPTIONAL:
                    inputs.append(args[i])
                    names.append(name)
            self._raise(method, code, inputs, names)

    def _raise(self, method, code, inputs, names):
        """The error of a state's status ``code`` (see the module's docstring)."""
        codes = np.array([code])
        rows = [a.reshape(1, -1) for a in inputs]
        message = self._batched._describe(codes, rows, names, 0)
        message = message.replace("[0, ", "[")  # (the state's one row: q[3], not q[0, 3])
        kind = code % KINDS
        if kind == NONFINITE:
            raise ValueError(f"SingleStatePlant.{method}(): {message}")
        if kind == ZERO_QUATERNION:
            raise RuntimeError(f"QuaternionToRotationMatrix(): {message}")
        raise self._batched._engine.articulated_inertia_error(code // KINDS)

    def _binder(self, attribute, name):
        """The first-call stand-in of a kernel attribute (see _setup): it makes the kernel,
        entry point ``name`` for the types of a well-formed call (mallard._compiled's
        Kernels.typed), replaces itself with it, and calls it."""

        def bind_and_call(*args):
            self._hold_derivatives(name)
            samples = [np.empty((1,) * len(shape)) for _, shape, _ in self._arguments[attribute]]
            fn = kernels(np.float64).typed(name, self._h, *samples)
            setattr(self, attribute, fn)
            return fn(*args)

        return bind_and_call

    def _hold_derivatives(self, name):
        """For a derivatives' entry point ``name``, holds the address of the kernel it calls in
        the held block (kernels.single.Held.hold_derivatives), before its first call."""
        if name.endswith("_derivatives"):
            self._held.hold_derivatives()

    def _kernel(self, name, *samples):
        """The entry point ``name`` bound to the held arrays (but the Jacobians', whose first
        argument is its frame's Held: :meth:`_frame_held`), called without numba's dispatch:
        for arguments of exactly the types of ``samples``, which it does not check
        (BatchedPlant's batches of one state; see mallard._compiled.Kernels.bind)."""
        key = (name,) + tuple(a is None for a in samples)  # (None: an input not given)
        fn = self._kernels.get(key)
        if fn is None:  # (typed by fresh arrays: a sample may be read-only, a view...)
            self._hold_derivatives(name)
            samples = tuple(np.empty(a.shape) if type(a) is _ndarray else a for a in samples)
            head = () if name in _FRAME_HELD else (self._h,)
            fn = kernels(np.float64).bind(name, *head, args=samples)
            self._kernels[key] = fn
        return fn

    # ---- kinematics --------------------------------------------------------------------------
    # (Each method calls its kernel first, see "arguments" above.)
    def CalcAllBodyPosesInWorld(self, q, *, out=None):
        """X_WB of every body at q: an array (num_bodies, 4, 4) of homogeneous transforms
        [R_WB, p_WoBo_W; 0, 0, 0, 1] (as RigidTransform.GetAsMatrix4()), indexed by
        BodyIndex."""
        if out is None:
            out = _empty(self._poses_shape)
        try:
            code = self._body_poses(self._h, q, out)
        except TypeError:
            code = WRONG_SHAPES
        if code:
            self._again("CalcAllBodyPosesInWorld", "_body_poses", code, (self._h, q, out))
        return out

    def CalcJacobianSpatialVelocity(self, q, frame_B, p_BoBp_B=None, *, out=None):
        """J_V_WBp_W at q (6 × nv): the Jacobian with respect to v (Drake's
        JacobianWrtVariable.kV) of the spatial velocity [ω; v] of the point Bp fixed on
        ``frame_B`` at ``p_BoBp_B`` (a 3-vector in frame_B; None: its origin), measured and
        expressed in World, as the plant's CalcJacobianSpatialVelocity(context, kV, frame_B,
        p_BoBp_B, world, world)."""
        try:
            held = self._frames[frame_B]  # (the Held of frame_B: the kernel's first argument)
        except (KeyError, TypeError):  # (a frame not seen before, or unhashable: not a Frame)
            held = self._frame_held(frame_B)
        if out is None:
            out = _empty(self._J_shape)
        if p_BoBp_B is None:  # (frame_B's origin: the point its record holds)
            try:
                code = self._frame_jacobian(held, q, out)
            except TypeError:
                code = WRONG_SHAPES
            if code:
                self._again("CalcJacobianSpatialVelocity", "_frame_jacobian", code, (held, q, out))
            return out
        try:
            code = self._point_jacobian(held, q, p_BoBp_B, out)
        except TypeError:
            code = WRONG_SHAPES
        if code:
            args = (held, q, p_BoBp_B, out)
            self._again("CalcJacobianSpatialVelocity", "_point_jacobian", code, args)
        return out

    def _frame_held(self, frame):
        """The address of the Held of the model and ``frame``'s record (kernels.single: the
        Jacobian's first argument) for a frame of the plant (BatchedPlant._frame, which raises
        TypeError or RuntimeError naming frame_B otherwise), kept for its next calls."""
        try:
            address = self._frames.get(frame)
        except TypeError:  # (unhashable: not a Frame, which BatchedPlant._frame reports)
            address = None
        if address is None:
            held = Held(self._mi, self._mf, self._row, self._batched._frame(frame)[2])
            self._frame_helds.append(held)
            address = self._frames[frame] = held.address
        return address

    # ---- dynamics ------------------------------------------------------------------------------
    def CalcMassMatrix(self, q, *, out=None):
        """M(q) (nv × nv), reflected rotor inertias of the actuators on its diagonal (as
        MultibodyPlant.CalcMassMatrix)."""
        if out is None:
            out = _empty(self._M_shape)
        try:
            code = self._mass_matrix(self._h, q, out)
        except TypeError:
            code = WRONG_SHAPES
        if code:
            self._again("CalcMassMatrix", "_mass_matrix", code, (self._h, q, out))
        return out

    def CalcInverseDynamics(self, q, v, known_vdot, tau_applied=None, *, out=None):
        """The generalized forces tau (nv) that produce ``known_vdot`` at (q, v) with gravity,
        joint damping and ``tau_applied`` (None: zero) acting, as
        BatchedPlant.CalcInverseDynamics: tau = M·v̇ + C·v − tau_g + D·v − tau_applied."""
        if tau_applied is None:
            tau_applied = self._none
        if out is None:
            out = _empty(self._v_shape)
        try:
            code = self._inverse_dynamics(self._h, q, v, known_vdot, tau_applied, out)
        except TypeError:
            code = WRONG_SHAPES
        if code:
            args = (self._h, q, v, known_vdot, tau_applied, out)
            self._again("CalcInverseDynamics", "_inverse_dynamics", code, args)
        return out

    def CalcForwardDynamics(self, q, v, tau_applied=None, actuation=None, *, out=None):
        """The generalized accelerations v̇ (nv) at (q, v), as BatchedPlant.CalcForwardDynamics
        (gravity, joint damping, reflected rotor inertias, locked joints, ``tau_applied`` (nv)
        added, ``actuation`` (nu) clamped to the effort limits; None: zero)."""
        if tau_applied is None:
            tau_applied = self._none
        if actuation is None:
            actuation = self._none
        if out is None:
            out = _empty(self._v_shape)
        try:
            code = self._forward_dynamics(self._h, q, v, tau_applied, actuation, out)
        except TypeError:
            code = WRONG_SHAPES
        if code:
            args = (self._h, q, v, tau_applied, actuation, out)
            self._again("CalcForwardDynamics", "_forward_dynamics", code, args)
        return out

    # ---- derivatives -------------------------------------------------------------------------
    def CalcInverseDynamicsDerivatives(self, q, v, known_vdot, *, out=None):
        """(dtau_dq (nv × nq), dtau_dv (nv × nv), dtau_dvdot = M (nv × nv)) of
        :meth:`CalcInverseDynamics`' tau without tau_applied, as
        MultibodyPlant.CalcInverseDynamicsDerivatives."""
        method = "CalcInverseDynamicsDerivatives"
        outs = self._outs(out, self._inverse_shapes, method)
        try:
            code = self._inverse_dynamics_derivatives(self._h, q, v, known_vdot, *outs)
        except TypeError:
            code = WRONG_SHAPES
        if code:
            args = (self._h, q, v, known_vdot, *outs)
            self._again(method, "_inverse_dynamics_derivatives", code, args)
        return outs

    def CalcForwardDynamicsDerivatives(self, q, v, tau_applied=None, actuation=None, *, out=None):
        """(dvdot_dq (nv × nq), dvdot_dv, dvdot_dtau (nv × nv), dvdot_du (nv × nu)) of
        :meth:`CalcForwardDynamics`' v̇, as MultibodyPlant.CalcForwardDynamicsDerivatives:
        −M⁻¹·∂τ/∂q, −M⁻¹·∂τ/∂v, M⁻¹ and M⁻¹·B (zero for actuators beyond their effort
        limit), locked joints' rows zero."""
        method = "CalcForwardDynamicsDerivatives"
        if tau_applied is None:
            tau_applied = self._none
        if actuation is None:
            actuation = self._none
        outs = self._outs(out, self._forward_shapes, method)
        try:
            code = self._forward_dynamics_derivatives(self._h, q, v, tau_applied, actuation, *outs)
        except TypeError:
            code = WRONG_SHAPES
        if code:
            args = (self._h, q, v, tau_applied, actuation, *outs)
            self._again(method, "_forward_dynamics_derivatives", code, args)
        return outs


#: SingleStatePlant's kernels: attribute → entry point (kernels.single).
_ENTRY_POINTS = {
    "_body_poses": "single_body_poses",
    "_point_jacobian": "single_point_jacobian",
    "_frame_jacobian": "single_frame_jacobian",
    "_mass_matrix": "single_mass_matrix",
    "_inverse_dynamics": "single_inverse_dynamics",
    "_forward_dynamics": "single_forward_dynamics",
    "_inverse_dynamics_derivatives": "single_inverse_dynamics_derivatives",
    "_forward_dynamics_derivatives": "single_forward_dynamics_derivatives",
}

#: The entry points whose first argument is a frame's Held (SingleStatePlant._frame_held).
_FRAME_HELD = frozenset(("single_point_jacobian", "single_frame_jacobian"))
