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
_ndarray = np.ndarray


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
        self._none = np.zeros(0)
        self._origin = np.zeros(3)
        self._kernels = {}  # entry point name → bound kernel

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
        """:meth:`_vector` of ``value``, or an array of length zero (zero) for None."""
        return self._none if value is None else self._vector(value, shape, name, method)

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
        """The outputs of a derivatives method: ``out`` (a tuple of arrays, see :meth:`_out`)
        or new arrays."""
        count = len(shapes)
        if out is None:
            return tuple([np.empty(shape) for shape in shapes])
        if not (isinstance(out, tuple | list) and len(out) == count):
            raise ValueError(f"SingleStatePlant.{method}(): out must be a tuple of {count} arrays")
        check = self._out
        for i in range(count):  # (a loop: this is on every call's path)
            check(out[i], shapes[i], i, method)
        return tuple(out)

    def _kernel(self, name, *samples):
        """The entry point ``name`` bound to (mi, mf, row), for arguments of the types of
        ``samples`` (see mallard._compiled.Kernels.bind)."""
        fn = self._kernels.get(name)
        if fn is None:  # (typed by fresh arrays: a sample may be read-only, a view...)
            samples = tuple(np.empty(a.shape) if type(a) is _ndarray else a for a in samples)
            fn = kernels(np.float64).bind(name, self._mi, self._mf, self._row, args=samples)
            self._kernels[name] = fn
        return fn

    def _raise(self, method, code, inputs, names):
        """The error of a state's status ``code`` (see the module's docstring)."""
        codes = np.array([code])
        message = self._batched._describe(codes, [a.reshape(1, -1) for a in inputs], names, 0)
        message = message.replace("[0, ", "[")  # (the state's one row: q[3], not q[0, 3])
        kind = code % KINDS
        if kind == NONFINITE:
            raise ValueError(f"SingleStatePlant.{method}(): {message}")
        if kind == ZERO_QUATERNION:
            raise RuntimeError(f"QuaternionToRotationMatrix(): {message}")
        raise self._batched._engine.articulated_inertia_error(code // KINDS)

    # ---- kinematics --------------------------------------------------------------------------
    def CalcAllBodyPosesInWorld(self, q, *, out=None):
        """X_WB of every body at q: an array (num_bodies, 4, 4) of homogeneous transforms
        [R_WB, p_WoBo_W; 0, 0, 0, 1] (as RigidTransform.GetAsMatrix4()), indexed by
        BodyIndex."""
        method = "CalcAllBodyPosesInWorld"
        q = self._vector(q, self._q_shape, "q", method)
        X_WB = self._out(out, self._poses_shape, "out", method)
        fn = self._kernels.get("single_body_poses") or self._kernel("single_body_poses", q, X_WB)
        code = fn(q, X_WB)
        if code:
            self._raise(method, code, (q,), ("q",))
        return X_WB

    def CalcJacobianSpatialVelocity(self, q, frame_B, p_BoBp_B=None, *, out=None):
        """J_V_WBp_W at q (6 × nv): the Jacobian with respect to v (Drake's
        JacobianWrtVariable.kV) of the spatial velocity [ω; v] of the point Bp fixed on
        ``frame_B`` at ``p_BoBp_B`` (a 3-vector in frame_B; None: its origin), measured and
        expressed in World, as the plant's CalcJacobianSpatialVelocity(context, kV, frame_B,
        p_BoBp_B, world, world)."""
        method = "CalcJacobianSpatialVelocity"
        q = self._vector(q, self._q_shape, "q", method)
        found = self._batched._frame(frame_B)
        p = self._origin if p_BoBp_B is None else self._vector(p_BoBp_B, (3,), "p_BoBp_B", method)
        J = self._out(out, self._J_shape, "out", method)
        name = "single_point_jacobian"
        fn = self._kernels.get(name) or self._kernel(name, q, *found, p, J)
        code = fn(q, found[0], found[1], p, J)
        if code:
            self._raise(method, code, (q, p), ("q", "p_BoBp_B"))
        return J

    # ---- dynamics ------------------------------------------------------------------------------
    def CalcMassMatrix(self, q, *, out=None):
        """M(q) (nv × nv), reflected rotor inertias of the actuators on its diagonal (as
        MultibodyPlant.CalcMassMatrix)."""
        method = "CalcMassMatrix"
        q = self._vector(q, self._q_shape, "q", method)
        M = self._out(out, self._M_shape, "out", method)
        fn = self._kernels.get("single_mass_matrix") or self._kernel("single_mass_matrix", q, M)
        code = fn(q, M)
        if code:
            self._raise(method, code, (q,), ("q",))
        return M

    def CalcInverseDynamics(self, q, v, known_vdot, tau_applied=None, *, out=None):
        """The generalized forces tau (nv) that produce ``known_vdot`` at (q, v) with gravity,
        joint damping and ``tau_applied`` (None: zero) acting, as
        BatchedPlant.CalcInverseDynamics: tau = M·v̇ + C·v − tau_g + D·v − tau_applied."""
        method = "CalcInverseDynamics"
        shape = self._v_shape
        q = self._vector(q, self._q_shape, "q", method)
        v = self._vector(v, shape, "v", method)
        vdot = self._vector(known_vdot, shape, "known_vdot", method)
        tau_app = self._optional(tau_applied, shape, "tau_applied", method)
        tau = self._out(out, shape, "out", method)
        name = "single_inverse_dynamics"
        fn = self._kernels.get(name) or self._kernel(name, q, v, vdot, tau_app, tau)
        code = fn(q, v, vdot, tau_app, tau)
        if code:
            names = ("q", "v", "known_vdot", "tau_applied")
            self._raise(method, code, (q, v, vdot, tau_app), names)
        return tau

    def _forward_dynamics_args(self, q, v, tau_applied, actuation, method):
        q = self._vector(q, self._q_shape, "q", method)
        v = self._vector(v, self._v_shape, "v", method)
        tau_app = self._optional(tau_applied, self._v_shape, "tau_applied", method)
        u = self._optional(actuation, self._u_shape, "actuation", method)
        return q, v, tau_app, u

    def CalcForwardDynamics(self, q, v, tau_applied=None, actuation=None, *, out=None):
        """The generalized accelerations v̇ (nv) at (q, v), as BatchedPlant.CalcForwardDynamics
        (gravity, joint damping, reflected rotor inertias, locked joints, ``tau_applied`` (nv)
        added, ``actuation`` (nu) clamped to the effort limits; None: zero)."""
        method = "CalcForwardDynamics"
        inputs = self._forward_dynamics_args(q, v, tau_applied, actuation, method)
        vdot = self._out(out, self._v_shape, "out", method)
        name = "single_forward_dynamics"
        fn = self._kernels.get(name) or self._kernel(name, *inputs, vdot)
        code = fn(*inputs, vdot)
        if code:
            self._raise(method, code, inputs, ("q", "v", "tau_applied", "actuation"))
        return vdot

    # ---- derivatives -------------------------------------------------------------------------
    def CalcInverseDynamicsDerivatives(self, q, v, known_vdot, *, out=None):
        """(dtau_dq (nv × nq), dtau_dv (nv × nv), dtau_dvdot = M (nv × nv)) of
        :meth:`CalcInverseDynamics`' tau without tau_applied, as
        MultibodyPlant.CalcInverseDynamicsDerivatives."""
        method = "CalcInverseDynamicsDerivatives"
        shape = self._v_shape
        q = self._vector(q, self._q_shape, "q", method)
        v = self._vector(v, shape, "v", method)
        vdot = self._vector(known_vdot, shape, "known_vdot", method)
        outs = self._outs(out, self._inverse_shapes, method)
        name = "single_inverse_dynamics_derivatives"
        fn = self._kernels.get(name) or self._kernel(name, q, v, vdot, *outs)
        code = fn(q, v, vdot, *outs)
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
        outs = self._outs(out, self._forward_shapes, method)
        name = "single_forward_dynamics_derivatives"
        fn = self._kernels.get(name) or self._kernel(name, *inputs, *outs)
        code = fn(*inputs, *outs)
        if code:
            self._raise(method, code, inputs, ("q", "v", "tau_applied", "actuation"))
        return outs
