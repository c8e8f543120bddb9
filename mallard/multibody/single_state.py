"""One state at a time without a Context: a MultibodyPlant's kinematics, dynamics and
derivatives from arrays into arrays the caller may provide (mallard's own API, for
model-predictive control and other tight Python loops; pydrake has no equivalent).

:class:`SingleStatePlant` takes a finalized plant and a Context's parameters once (as
mallard.multibody.batch.BatchedPlant does), then each method takes a state as 1-D arrays
(``q`` of size nq, ``v`` of size nv, ...) and returns its result, written into ``out`` when
given. A call is one compiled kernel called without numba's dispatch on argument types: the
arguments are checked in Python (float64, C-contiguous, their sizes) and passed on as they
are. Results are the plant's own single-state results (and BatchedPlant's) to the last bit.

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

import numpy as np

from mallard._compiled import kernels
from mallard.multibody._batch_codes import KINDS, NONFINITE, ZERO_QUATERNION

__all__ = ["SingleStatePlant"]

_F64 = np.dtype(np.float64)
_ndarray, _empty = np.ndarray, np.empty
_STRIDES_1D = (8,)


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
    anything else (lists, other dtypes) is converted, and a wrong size raises ValueError
    naming the argument. ``out``: the array (a tuple of arrays for the derivatives) to write
    the result into, float64, C-contiguous, writable and of the result's shape (ValueError
    otherwise), returned; None: new arrays. The first call of each method loads (or compiles)
    its kernel. The kernels hold the GIL (they share one workspace): Python threads may share a
    SingleStatePlant, their calls running one at a time.
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
        nq, nv, nu, nb = batched._nq, batched._nv, batched._nu, batched._nb
        self._q_shape, self._v_shape, self._u_shape = (nq,), (nv,), (nu,)
        self._poses_shape, self._M_shape, self._J_shape = (nb, 4, 4), (nv, nv), (6, nv)
        self._inverse_shapes = ((nv, nq), (nv, nv), (nv, nv))  # (the derivatives' outputs)
        self._forward_shapes = ((nv, nq), (nv, nv), (nv, nv), (nv, nu))
        self._origin = np.zeros(3)
        self._frames_found = batched._frames.get
        self._kernels = {}  # entry point name → bound kernel
        # Each method's bound kernel, an attribute (looked up on every call): first a binder,
        # which binds the entry point for the arguments of its first call and replaces itself.
        for attribute, name in _ENTRY_POINTS.items():
            setattr(self, attribute, self._binder(attribute, name))

    def plant(self):
        """The MultibodyPlant this SingleStatePlant computes for."""
        return self._batched.plant()

    # ---- arguments ---------------------------------------------------------------------------
    def _vector(self, value, shape, name, method):
        """``value`` as a float64 C-contiguous 1-D array of ``shape``; ValueError naming
        ``name`` otherwise."""
        if (
            type(value) is _ndarray
            and value.dtype is _F64
            and value.shape == shape
            and value.strides == (8,)
        ):
            return value
        a = np.asarray(value)
        if a.dtype.kind not in "biuf":
            raise TypeError(
                f"SingleStatePlant.{method}(): {name} must hold float64 numbers, got dtype "
                f"{a.dtype} (BatchedPlant computes other scalars)"
            )
        a = np.ascontiguousarray(a, dtype=np.float64)
        if a.shape != shape:
            raise ValueError(
                f"SingleStatePlant.{method}(): {name} must have shape {shape}, got {a.shape}"
            )
        return a

    def _optional(self, value, shape, name, method):
        """:meth:`_vector` of ``value``, or None (the kernels take it as zero)."""
        if value is None or (
            type(value) is _ndarray
            and value.dtype is _F64
            and value.shape == shape
            and value.strides == _STRIDES_1D
        ):
            return value
        return self._vector(value, shape, name, method)

    @staticmethod
    def _out(out, shape, name, method):
        """``out`` if it is a float64, C-contiguous, writable array of ``shape``, a new array
        for None; ValueError otherwise (``name``: the argument's name, or its index in
        ``out``)."""
        if out is None:
            return np.empty(shape)
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

    def _outs(self, out, shapes, method):
        """The outputs of a derivatives method from ``out``, a tuple (or list) of arrays each
        as :meth:`_out` takes them (the methods' inline tests failed)."""
        count = len(shapes)
        if not (isinstance(out, tuple | list) and len(out) == count):
            raise ValueError(f"SingleStatePlant.{method}(): out must be a tuple of {count} arrays")
        return tuple([self._out(out[i], shapes[i], i, method) for i in range(count)])

    def _kernel(self, name, *samples):
        """The entry point ``name`` bound to (mi, mf, row), for arguments of the types of
        ``samples`` (see mallard._compiled.Kernels.bind)."""
        key = (name,) + tuple(a is None for a in samples)  # (None: an input not given)
        fn = self._kernels.get(key)
        if fn is None:  # (typed by fresh arrays: a sample may be read-only, a view...)
            samples = tuple(np.empty(a.shape) if type(a) is _ndarray else a for a in samples)
            fn = kernels(np.float64).bind(name, self._mi, self._mf, self._row, args=samples)
            self._kernels[key] = fn
        return fn

    def _binder(self, attribute, name):
        """The first-call stand-in of a bound kernel attribute (see _setup): it binds ``name``
        for the arguments of its first call, replaces itself with the binding, and calls
        it."""

        def bind_and_call(*args):
            fn = self._kernel(name, *args)
            setattr(self, attribute, fn)
            return fn(*args)

        return bind_and_call

    def _raise(self, method, code, inputs, names):
        """The error of a state's status ``code`` (see the module's docstring)."""
        codes = np.array([code])
        rows = [np.zeros((1, 0)) if a is None else a.reshape(1, -1) for a in inputs]
        message = self._batched._describe(codes, rows, names, 0)
        message = message.replace("[0, ", "[")  # (the state's one row: q[3], not q[0, 3])
        kind = code % KINDS
        if kind == NONFINITE:
            raise ValueError(f"SingleStatePlant.{method}(): {message}")
        if kind == ZERO_QUATERNION:
            raise RuntimeError(f"QuaternionToRotationMatrix(): {message}")
        raise self._batched._engine.articulated_inertia_error(code // KINDS)

    # ---- kinematics --------------------------------------------------------------------------
    # (Each method tests its arguments inline, the common case first: a function call per
    # argument would cost more than the tests; :meth:`_vector`, :meth:`_out` and
    # :meth:`_outs` convert, or raise, otherwise.)
    def CalcAllBodyPosesInWorld(self, q, *, out=None):
        """X_WB of every body at q: an array (num_bodies, 4, 4) of homogeneous transforms
        [R_WB, p_WoBo_W; 0, 0, 0, 1] (as RigidTransform.GetAsMatrix4()), indexed by
        BodyIndex."""
        if not (
            type(q) is _ndarray
            and q.dtype is _F64
            and q.shape == self._q_shape
            and q.strides == _STRIDES_1D
        ):
            q = self._vector(q, self._q_shape, "q", "CalcAllBodyPosesInWorld")
        if not (
            type(out) is _ndarray
            and out.dtype is _F64
            and out.shape == self._poses_shape
            and (flags := out.flags).c_contiguous
            and flags.writeable
        ):
            out = self._out(out, self._poses_shape, "out", "CalcAllBodyPosesInWorld")
        code = self._body_poses(q, out)
        if code:
            self._raise("CalcAllBodyPosesInWorld", code, (q,), ("q",))
        return out

    def CalcJacobianSpatialVelocity(self, q, frame_B, p_BoBp_B=None, *, out=None):
        """J_V_WBp_W at q (6 × nv): the Jacobian with respect to v (Drake's
        JacobianWrtVariable.kV) of the spatial velocity [ω; v] of the point Bp fixed on
        ``frame_B`` at ``p_BoBp_B`` (a 3-vector in frame_B; None: its origin), measured and
        expressed in World, as the plant's CalcJacobianSpatialVelocity(context, kV, frame_B,
        p_BoBp_B, world, world)."""
        method = "CalcJacobianSpatialVelocity"
        if not (
            type(q) is _ndarray
            and q.dtype is _F64
            and q.shape == self._q_shape
            and q.strides == _STRIDES_1D
        ):
            q = self._vector(q, self._q_shape, "q", method)
        try:  # (BatchedPlant's frames found so far, then BatchedPlant._frame)
            found = self._frames_found(frame_B)
        except TypeError:  # (unhashable: not a Frame, which _frame reports)
            found = None
        k, X_BF = found or self._batched._frame(frame_B)
        p = self._origin if p_BoBp_B is None else self._vector(p_BoBp_B, (3,), "p_BoBp_B", method)
        if not (
            type(out) is _ndarray
            and out.dtype is _F64
            and out.shape == self._J_shape
            and (flags := out.flags).c_contiguous
            and flags.writeable
        ):
            out = self._out(out, self._J_shape, "out", method)
        code = self._point_jacobian(q, k, X_BF, p, out)
        if code:
            self._raise(method, code, (q, p), ("q", "p_BoBp_B"))
        return out

    # ---- dynamics ------------------------------------------------------------------------------
    def CalcMassMatrix(self, q, *, out=None):
        """M(q) (nv × nv), reflected rotor inertias of the actuators on its diagonal (as
        MultibodyPlant.CalcMassMatrix)."""
        if not (
            type(q) is _ndarray
            and q.dtype is _F64
            and q.shape == self._q_shape
            and q.strides == _STRIDES_1D
        ):
            q = self._vector(q, self._q_shape, "q", "CalcMassMatrix")
        if not (
            type(out) is _ndarray
            and out.dtype is _F64
            and out.shape == self._M_shape
            and (flags := out.flags).c_contiguous
            and flags.writeable
        ):
            out = self._out(out, self._M_shape, "out", "CalcMassMatrix")
        code = self._mass_matrix(q, out)
        if code:
            self._raise("CalcMassMatrix", code, (q,), ("q",))
        return out

    def CalcInverseDynamics(self, q, v, known_vdot, tau_applied=None, *, out=None):
        """The generalized forces tau (nv) that produce ``known_vdot`` at (q, v) with gravity,
        joint damping and ``tau_applied`` (None: zero) acting, as
        BatchedPlant.CalcInverseDynamics: tau = M·v̇ + C·v − tau_g + D·v − tau_applied."""
        method = "CalcInverseDynamics"
        shape = self._v_shape
        if not (
            type(q) is _ndarray
            and q.dtype is _F64
            and q.shape == self._q_shape
            and q.strides == _STRIDES_1D
        ):
            q = self._vector(q, self._q_shape, "q", method)
        if not (
            type(v) is _ndarray
            and v.dtype is _F64
            and v.shape == shape
            and v.strides == _STRIDES_1D
        ):
            v = self._vector(v, shape, "v", method)
        vdot = known_vdot
        if not (
            type(vdot) is _ndarray
            and vdot.dtype is _F64
            and vdot.shape == shape
            and vdot.strides == _STRIDES_1D
        ):
            vdot = self._vector(vdot, shape, "known_vdot", method)
        if not (
            type(out) is _ndarray
            and out.dtype is _F64
            and out.shape == shape
            and (flags := out.flags).c_contiguous
            and flags.writeable
        ):
            out = self._out(out, shape, "out", method)
        if tau_applied is None:
            code = self._inverse_dynamics(q, v, vdot, None, out)
        else:
            tau_applied = self._vector(tau_applied, shape, "tau_applied", method)
            code = self._inverse_dynamics_applied(q, v, vdot, tau_applied, out)
        if code:
            names = ("q", "v", "known_vdot", "tau_applied")
            self._raise(method, code, (q, v, vdot, tau_applied), names)
        return out

    def _forward_dynamics_args(self, q, v, tau_applied, actuation, method):
        """(q, v, tau_applied, actuation) checked (see :meth:`_vector`), the last two None if
        both are (the kernels then take them as zero), else arrays (zero for None)."""
        if not (
            type(q) is _ndarray
            and q.dtype is _F64
            and q.shape == self._q_shape
            and q.strides == _STRIDES_1D
        ):
            q = self._vector(q, self._q_shape, "q", method)
        shape = self._v_shape
        if not (
            type(v) is _ndarray
            and v.dtype is _F64
            and v.shape == shape
            and v.strides == _STRIDES_1D
        ):
            v = self._vector(v, shape, "v", method)
        if tau_applied is None and actuation is None:
            return q, v, None, None
        if tau_applied is None:
            tau_applied = np.zeros(shape)
        if actuation is None:
            actuation = np.zeros(self._u_shape)
        tau_applied = self._vector(tau_applied, shape, "tau_applied", method)
        actuation = self._vector(actuation, self._u_shape, "actuation", method)
        return q, v, tau_applied, actuation

    def CalcForwardDynamics(self, q, v, tau_applied=None, actuation=None, *, out=None):
        """The generalized accelerations v̇ (nv) at (q, v), as BatchedPlant.CalcForwardDynamics
        (gravity, joint damping, reflected rotor inertias, locked joints, ``tau_applied`` (nv)
        added, ``actuation`` (nu) clamped to the effort limits; None: zero)."""
        method = "CalcForwardDynamics"
        inputs = self._forward_dynamics_args(q, v, tau_applied, actuation, method)
        shape = self._v_shape
        if not (
            type(out) is _ndarray
            and out.dtype is _F64
            and out.shape == shape
            and (flags := out.flags).c_contiguous
            and flags.writeable
        ):
            out = self._out(out, shape, "out", method)
        if inputs[2] is None:
            code = self._forward_dynamics(*inputs, out)
        else:
            code = self._forward_dynamics_applied(*inputs, out)
        if code:
            self._raise(method, code, inputs, ("q", "v", "tau_applied", "actuation"))
        return out

    # ---- derivatives -------------------------------------------------------------------------
    def CalcInverseDynamicsDerivatives(self, q, v, known_vdot, *, out=None):
        """(dtau_dq (nv × nq), dtau_dv (nv × nv), dtau_dvdot = M (nv × nv)) of
        :meth:`CalcInverseDynamics`' tau without tau_applied, as
        MultibodyPlant.CalcInverseDynamicsDerivatives."""
        method = "CalcInverseDynamicsDerivatives"
        shape = self._v_shape
        if not (
            type(q) is _ndarray
            and q.dtype is _F64
            and q.shape == self._q_shape
            and q.strides == _STRIDES_1D
        ):
            q = self._vector(q, self._q_shape, "q", method)
        if not (
            type(v) is _ndarray
            and v.dtype is _F64
            and v.shape == shape
            and v.strides == _STRIDES_1D
        ):
            v = self._vector(v, shape, "v", method)
        vdot = known_vdot
        if not (
            type(vdot) is _ndarray
            and vdot.dtype is _F64
            and vdot.shape == shape
            and vdot.strides == _STRIDES_1D
        ):
            vdot = self._vector(vdot, shape, "known_vdot", method)
        shapes = self._inverse_shapes
        if out is None:
            outs = (_empty(shapes[0]), _empty(shapes[1]), _empty(shapes[2]))
        elif not (
            type(out) is tuple
            and len(out) == 3
            and type(a := out[0]) is _ndarray
            and a.dtype is _F64
            and a.shape == shapes[0]
            and (flags := a.flags).c_contiguous
            and flags.writeable
            and type(a := out[1]) is _ndarray
            and a.dtype is _F64
            and a.shape == shapes[1]
            and (flags := a.flags).c_contiguous
            and flags.writeable
            and type(a := out[2]) is _ndarray
            and a.dtype is _F64
            and a.shape == shapes[2]
            and (flags := a.flags).c_contiguous
            and flags.writeable
        ):
            outs = self._outs(out, shapes, method)
        else:
            outs = out
        code = self._inverse_dynamics_derivatives(q, v, vdot, *outs)
        if code:
            self._raise(method, code, (q, v, vdot), ("q", "v", "known_vdot"))
        return outs

    def CalcForwardDynamicsDerivatives(self, q, v, tau_applied=None, actuation=None, *, out=None):
        """(dvdot_dq (nv × nq), dvdot_dv, dvdot_dtau (nv × nv), dvdot_du (nv × nu)) of
        :meth:`CalcForwardDynamics`' v̇, as MultibodyPlant.CalcForwardDynamicsDerivatives:
        −M⁻¹·∂τ/∂q, −M⁻¹·∂τ/∂v, M⁻¹ and M⁻¹·B (zero for actuators beyond their effort
        limit), locked joints' rows zero."""
        method = "CalcForwardDynamicsDerivatives"
        inputs = self._forward_dynamics_args(q, v, tau_applied, actuation, method)
        shapes = self._forward_shapes
        if out is None:
            outs = (_empty(shapes[0]), _empty(shapes[1]), _empty(shapes[2]), _empty(shapes[3]))
        elif not (
            type(out) is tuple
            and len(out) == 4
            and type(a := out[0]) is _ndarray
            and a.dtype is _F64
            and a.shape == shapes[0]
            and (flags := a.flags).c_contiguous
            and flags.writeable
            and type(a := out[1]) is _ndarray
            and a.dtype is _F64
            and a.shape == shapes[1]
            and (flags := a.flags).c_contiguous
            and flags.writeable
            and type(a := out[2]) is _ndarray
            and a.dtype is _F64
            and a.shape == shapes[2]
            and (flags := a.flags).c_contiguous
            and flags.writeable
            and type(a := out[3]) is _ndarray
            and a.dtype is _F64
            and a.shape == shapes[3]
            and (flags := a.flags).c_contiguous
            and flags.writeable
        ):
            outs = self._outs(out, shapes, method)
        else:
            outs = out
        if inputs[2] is None:
            code = self._forward_dynamics_derivatives(*inputs, *outs)
        else:
            code = self._forward_dynamics_derivatives_applied(*inputs, *outs)
        if code:
            self._raise(method, code, inputs, ("q", "v", "tau_applied", "actuation"))
        return outs


#: SingleStatePlant's bound kernels: attribute → entry point (kernels.single). The
#: ``_applied`` ones are bound for arrays of the optional inputs, the others for None.
_ENTRY_POINTS = {
    "_body_poses": "single_body_poses",
    "_point_jacobian": "single_point_jacobian",
    "_mass_matrix": "single_mass_matrix",
    "_inverse_dynamics": "single_inverse_dynamics",
    "_inverse_dynamics_applied": "single_inverse_dynamics",
    "_forward_dynamics": "single_forward_dynamics",
    "_forward_dynamics_applied": "single_forward_dynamics",
    "_inverse_dynamics_derivatives": "single_inverse_dynamics_derivatives",
    "_forward_dynamics_derivatives": "single_forward_dynamics_derivatives",
    "_forward_dynamics_derivatives_applied": "single_forward_dynamics_derivatives",
}
