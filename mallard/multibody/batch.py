"""Batched dynamics: a MultibodyPlant's kinematics and dynamics for many states at once
(mallard's own API; pydrake has no equivalent).

:class:`BatchedPlant` takes a finalized plant and a Context's parameters once, then computes
on arrays with a leading batch dimension N — ``q`` of shape (N, nq), ``v`` of shape (N, nv) —
with no Context: body poses, mass matrices, inverse and forward dynamics, and point Jacobians.
For float64 arrays the batch runs compiled, split into one chunk per numba thread
(``numba.set_num_threads`` sets how many); for object arrays (AutoDiffXd, Expression) it runs
the same kernels interpreted, a plain loop over the batch. The results are the plant's own
single-state results, state by state.

Example::

    import numpy as np
    from mallard.multibody.batch import BatchedPlant

    batched = BatchedPlant(plant)  # the parameters of plant's default Context
    q = np.random.default_rng(0).uniform(-1, 1, (1000, plant.num_positions()))
    v = np.zeros((1000, plant.num_velocities()))
    M = batched.CalcMassMatrix(q)  # (1000, nv, nv)
    tau = batched.CalcInverseDynamics(q, v, np.zeros_like(v))  # gravity compensation
    vdot = batched.CalcForwardDynamics(q, v, tau)  # ≈ 0

The first call of each method compiles its kernel (seconds); numba caches it on disk, so later
processes only load it.
"""

import numpy as np

from mallard._compiled import kernels
from mallard.multibody._layout import LANES, PARAMETERS
from mallard.multibody.tree._indices import ForceElementIndex

__all__ = ["BatchedPlant"]


class BatchedPlant:
    """A finalized MultibodyPlant's kinematics and dynamics on batches of states.

    ``BatchedPlant(plant, context=None, *, force_elements=True)`` copies, once, the parameters
    of ``context`` (the plant's default Context if None): body masses, centers of mass and
    inertias, frame offsets, joint damping, actuators' rotor inertias and gear ratios, locked
    joints; and the plant's gravity vector and effort limits. Later changes to the Context or
    the plant are not seen: make a new BatchedPlant. Nothing else of the Context is used — its
    state, time and input ports (actuation, applied forces, desired states of PD controllers)
    are ignored; each method takes its inputs as arguments.

    Forces included: uniform gravity (on the model instances where it is enabled) and joint
    damping. Other force elements (springs, bushings, user-defined ones...) are not supported:
    the constructor raises NotImplementedError naming the first one, unless
    ``force_elements=False``, which leaves them out of every result (gravity and joint damping
    are still included).

    Every method takes arrays with a leading batch dimension N (N = 0 is allowed) and returns
    arrays with the same leading dimension; ``result[i]`` is the plant's result at state
    ``i``. Arrays of numbers are computed as float64 (compiled, in parallel over the batch,
    four states at a time in vector registers: a batch of fewer than four costs as much as
    four), with the results of the plant's own single calls to the last bit; object arrays of
    non-double scalars (AutoDiffXd, Expression) are computed interpreted, in a plain loop, one
    state at a time. A wrong shape raises ValueError naming the argument and the expected
    shape; values are not checked (a NaN gives NaNs in that state's result).
    """

    def __init__(self, plant, context=None, *, force_elements=True):
        from mallard.multibody.plant._multibody_plant import MultibodyPlant

        if not isinstance(plant, MultibodyPlant):
            raise TypeError(f"BatchedPlant: expected a MultibodyPlant, got {type(plant).__name__}")
        if not plant.is_finalized():
            raise RuntimeError("BatchedPlant(): the plant must be finalized: call Finalize()")
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

    def plant(self):
        """The MultibodyPlant this BatchedPlant computes for."""
        return self._plant

    # ---- arguments ---------------------------------------------------------------------------
    def _array(self, value, name, width, method, size=None):
        """``value`` as an (N, width) array (float64, or object for non-double scalars), with
        N = ``size`` if given; ValueError naming ``name`` otherwise."""
        a = np.asarray(value)
        if a.dtype != object:
            if a.dtype.kind not in "biuf":
                raise TypeError(f"{method}(): {name} must hold numbers, got dtype {a.dtype}")
            a = a.astype(np.float64, copy=False)
        expected = f"({'N' if size is None else size}, {width})"
        if a.ndim != 2 or a.shape[1] != width or (size is not None and a.shape[0] != size):
            raise ValueError(
                f"BatchedPlant.{method}(): {name} must have shape {expected} (a leading batch "
                f"dimension), got {a.shape}"
            )
        return np.ascontiguousarray(a)

    def _lane_size(self):
        """The scalars a row needs past its BATCH_ROW for the kernels computing in lanes."""
        return LANES * self._sizes.lane

    def _common_dtype(self, *arrays):
        """object if any array (or the parameters) holds non-double scalars, else float64."""
        if self._ws0.dtype == object or any(a.dtype == object for a in arrays):
            return np.dtype(object)
        return np.dtype(np.float64)

    def _run(self, name, dtype, size, inputs, outputs, extra=0):
        """Calls batched kernel ``name`` on ``inputs`` (cast to ``dtype``), with a workspace of
        one row per chunk (one chunk per numba thread compiled, one interpreted), longer by
        ``extra`` scalars."""
        if dtype.kind == "O":
            chunks = 1
        else:
            import numba

            chunks = min(size, numba.get_num_threads())
        wss = np.empty((chunks, self._sizes.row + extra), dtype=dtype)
        ws0 = self._ws0.astype(dtype, copy=False)
        args = [a if isinstance(a, int) else a.astype(dtype, copy=False) for a in inputs]
        getattr(kernels(dtype), name)(self._mi, self._mf, ws0, *args, wss, *outputs)

    # ---- kinematics --------------------------------------------------------------------------
    def CalcAllBodyPosesInWorld(self, q):
        """X_WB of every body at each q: an array (N, num_bodies, 4, 4) of homogeneous
        transforms [R_WB, p_WoBo_W; 0, 0, 0, 1] (as RigidTransform.GetAsMatrix4()), indexed
        ``[i, BodyIndex]``; ``q`` is (N, nq)."""
        q = self._array(q, "q", self._nq, "CalcAllBodyPosesInWorld")
        dtype = self._common_dtype(q)
        size = q.shape[0]
        X_WB = np.empty((size, self._nb, 4, 4), dtype=dtype)
        if size:
            self._run("batch_body_poses", dtype, size, (q,), (X_WB,), self._lane_size())
        return X_WB

    def CalcJacobianSpatialVelocity(self, q, frame_B, p_BoBp_B=None):
        """J_V_WBp_W at each q: an array (N, 6, nv), the Jacobian with respect to v (Drake's
        JacobianWrtVariable.kV) of the spatial velocity [ω; v] of the point Bp fixed on
        ``frame_B``, measured and expressed in World, so that V_WBp_W = J·v.

        ``q`` is (N, nq); ``p_BoBp_B``, the position of Bp in ``frame_B``, is one 3-vector
        for every state or an (N, 3) array, one point per state (None: B's origin)."""
        method = "CalcJacobianSpatialVelocity"
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        k = self._engine.frame_mobod(frame_B, "frame_B")
        if p_BoBp_B is None:
            p_BoBp_B = np.zeros(3)
        p = np.asarray(p_BoBp_B)
        if p.shape == (3,):
            p = np.broadcast_to(p, (size, 3))
        p = self._array(p, "p_BoBp_B", 3, method, size)
        dtype = self._common_dtype(q, p)
        J = np.empty((size, 6, self._nv), dtype=dtype)
        if size:
            f = int(frame_B.index())
            X_BF = np.ascontiguousarray(self._X_BF[f])
            self._run("batch_point_jacobian", dtype, size, (q, k, X_BF, p), (J,), self._lane_size())
        return J

    # ---- dynamics ------------------------------------------------------------------------------
    def CalcMassMatrix(self, q):
        """M(q) at each q: an array (N, nv, nv), reflected rotor inertias of the actuators on
        its diagonal (as MultibodyPlant.CalcMassMatrix); ``q`` is (N, nq)."""
        q = self._array(q, "q", self._nq, "CalcMassMatrix")
        dtype = self._common_dtype(q)
        size = q.shape[0]
        M = np.empty((size, self._nv, self._nv), dtype=dtype)
        if size:
            self._run("batch_mass_matrix", dtype, size, (q,), (M,), self._lane_size())
        return M

    def CalcInverseDynamics(self, q, v, known_vdot, tau_applied=None):
        """The generalized forces tau (N, nv) that produce the accelerations ``known_vdot``
        at (q, v) with gravity, joint damping and ``tau_applied`` also acting:

            tau = M(q)·v̇ + C(q, v)·v − tau_g(q) + D·v − tau_applied

        (D the joint damping, reflected rotor inertias in M): the plant's CalcInverseDynamics
        with the forces of CalcForceElementsContribution plus ``tau_applied`` as the external
        forces. With v̇ = 0 and v = 0 it is the gravity compensation −tau_g(q). ``q`` is
        (N, nq); ``v``, ``known_vdot`` and ``tau_applied`` (None: zero) are (N, nv)."""
        method = "CalcInverseDynamics"
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        v = self._array(v, "v", self._nv, method, size)
        vdot = self._array(known_vdot, "known_vdot", self._nv, method, size)
        if tau_applied is None:
            tau_applied = np.zeros((0, self._nv))
        else:
            tau_applied = self._array(tau_applied, "tau_applied", self._nv, method, size)
        dtype = self._common_dtype(q, v, vdot, tau_applied)
        tau = np.empty((size, self._nv), dtype=dtype)
        if size:
            inputs = (q, v, vdot, tau_applied)
            self._run("batch_inverse_dynamics", dtype, size, inputs, (tau,), self._lane_size())
        return tau

    def CalcForwardDynamics(self, q, v, tau_applied=None, actuation=None):
        """The generalized accelerations v̇ (N, nv) at (q, v): the articulated body algorithm,
        as a continuous plant's EvalTimeDerivatives computes v̇, with gravity, joint damping,
        the actuators' reflected rotor inertias and locked joints, plus

        * ``tau_applied`` (N, nv): generalized forces added to those, as the plant's applied
          generalized force input port adds them (not clamped), and
        * ``actuation`` (N, nu): the actuation input u, as the plant's actuation input port
          takes it (ordered by actuator input, mapped to generalized forces by B, each clamped
          to its actuator's effort limit).

        None means zero. For a discrete plant this is still the continuous dynamics (the
        discrete step treats joint damping implicitly). RuntimeError if an articulated inertia
        is not positive definite (the plant's message, with the state's index)."""
        method = "CalcForwardDynamics"
        q, v, tau_applied, actuation, dtype = self._forward_dynamics_args(
            q, v, tau_applied, actuation, method
        )
        size = q.shape[0]
        vdot = np.empty((size, self._nv), dtype=dtype)
        status = np.empty(size, dtype=np.int64)
        if size:
            self._run(
                "batch_forward_dynamics",
                dtype,
                size,
                (q, v, tau_applied, actuation),
                (vdot, status),
                self._lane_size(),
            )
            self._raise_if_failed(method, status)
        return vdot

    def _raise_if_failed(self, method, status):
        """The plant's RuntimeError, with the state's index, for the first state whose
        ``status`` names a mobod with an articulated inertia not positive definite."""
        failed = np.flatnonzero(status >= 0)
        if failed.size:
            i = int(failed[0])
            error = self._engine.articulated_inertia_error(int(status[i]))
            raise RuntimeError(f"BatchedPlant.{method}(): state {i}: {error}")

    # ---- derivatives -------------------------------------------------------------------------
    def _derivative_run(self, name, dtype, size, inputs, outputs):
        self._run(name, dtype, size, inputs, outputs, self._sizes.dws)

    def CalcInverseDynamicsDerivatives(self, q, v, known_vdot):
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
        dtau_dq = np.zeros((size, nv, nq), dtype=dtype)
        dtau_dv = np.zeros((size, nv, nv), dtype=dtype)
        M = np.zeros((size, nv, nv), dtype=dtype)
        if size:
            self._derivative_run(
                "batch_inverse_dynamics_derivatives",
                dtype,
                size,
                (q, v, vdot),
                (dtau_dq, dtau_dv, M),
            )
        return dtau_dq, dtau_dv, M

    def _forward_dynamics_args(self, q, v, tau_applied, actuation, method):
        """(q, v, tau_applied, actuation, dtype) checked for ``method``: None inputs become
        arrays with no rows (zero), and dtype is the common scalar type."""
        q = self._array(q, "q", self._nq, method)
        size = q.shape[0]
        v = self._array(v, "v", self._nv, method, size)
        if tau_applied is None:
            tau_applied = np.zeros((0, self._nv))
        else:
            tau_applied = self._array(tau_applied, "tau_applied", self._nv, method, size)
        if actuation is None:
            actuation = np.zeros((0, self._nu))
        else:
            actuation = self._array(actuation, "actuation", self._nu, method, size)
        return q, v, tau_applied, actuation, self._common_dtype(q, v, tau_applied, actuation)

    def CalcForwardDynamicsDerivatives(self, q, v, tau_applied=None, actuation=None):
        """(dvdot_dq, dvdot_dv, dvdot_dtau, dvdot_du) at each state: the derivatives of
        :meth:`CalcForwardDynamics`' v̇, arrays (N, nv, nq), (N, nv, nv), (N, nv, nv) and
        (N, nv, nu), as MultibodyPlant.CalcForwardDynamicsDerivatives (a mallard method):
        −M⁻¹·∂τ/∂q, −M⁻¹·∂τ/∂v, M⁻¹ and M⁻¹·B (zero for actuators at their effort limit),
        locked joints' rows zero. Arguments as :meth:`CalcForwardDynamics`'."""
        method = "CalcForwardDynamicsDerivatives"
        q, v, tau_applied, actuation, dtype = self._forward_dynamics_args(
            q, v, tau_applied, actuation, method
        )
        size = q.shape[0]
        nq, nv = self._nq, self._nv
        dvdot_dq = np.zeros((size, nv, nq), dtype=dtype)
        dvdot_dv = np.zeros((size, nv, nv), dtype=dtype)
        dvdot_dtau = np.zeros((size, nv, nv), dtype=dtype)
        status = np.empty(size, dtype=np.int64)
        if size:
            self._derivative_run(
                "batch_forward_dynamics_derivatives",
                dtype,
                size,
                (q, v, tau_applied, actuation),
                (dvdot_dq, dvdot_dv, dvdot_dtau, status),
            )
            self._raise_if_failed(method, status)
        dvdot_du = dvdot_dtau[:, :, self._engine.tables.actuated_v]  # (B's columns)
        if actuation.shape[0] and dtype.kind != "O":
            clamped = np.abs(actuation) > self._effort_limits
            dvdot_du[np.broadcast_to(clamped[:, None, :], dvdot_du.shape)] = 0.0
        return dvdot_dq, dvdot_dv, dvdot_dtau, dvdot_du

    # ---- collisions ----------------------------------------------------------------------------
    def CheckCollisions(
        self, q, *, padding=0.0, min_distance=False, pairs_within=None, scene_graph_context=None
    ):
        """Collision checks of the plant's collision geometry (its SceneGraph's proximity
        geometries, on its bodies or anchored) at each configuration ``q[i]`` (``q`` is (N, nq),
        float64): a BatchedCollisions (mallard.geometry._batch_collision) holding, per
        configuration, whether it is collision-free (no pair the collision filters allow has a
        signed distance ≤ ``padding``), and, if asked, the least signed distance of those pairs
        (``min_distance=True``) and the signed distances of the pairs within ``pairs_within``.
        The filters are the SceneGraph's own, or those of ``scene_graph_context``. Each answer
        is that of the plant's QueryObject at that configuration; computed in parallel over
        the batch (mallard's own API: pydrake's SceneGraphCollisionChecker does this one
        configuration at a time)."""
        from mallard.geometry._batch_collision import check_collisions

        return check_collisions(self, q, padding, min_distance, pairs_within, scene_graph_context)
