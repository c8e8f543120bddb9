"""Analytical derivatives of inverse and forward dynamics (mallard's own API: Drake gets them
by AutoDiffXd; these are what forward-mode AutoDiff of the plant gives, computed by compiled
tangent sweeps of the Newton–Euler algorithm, see kernels.derivatives, or for the models of
one-dof joints without applied body forces by two recursions, kernels.recursive_derivatives).

Derivatives with respect to q are with respect to q itself (nq columns): a quaternion's four
entries are independent variables, as with the plant's AutoDiffXd scalars.
"""

from collections import namedtuple

import numpy as np

from mallard._compiled import DERIVATIVES_AT
from mallard.multibody._batch_codes import FORWARD, INVERSE
from mallard.multibody._layout import BIAS, INERTIAS, POSITIONS, VELOCITIES

_ALL = POSITIONS | VELOCITIES | INERTIAS | BIAS

#: ∂τ/∂q (nv×nq), ∂τ/∂v (nv×nv) and ∂τ/∂v̇ = M(q) (nv×nv) of inverse dynamics.
InverseDynamicsDerivatives = namedtuple(
    "InverseDynamicsDerivatives", ["dtau_dq", "dtau_dv", "dtau_dvdot"]
)
#: ∂v̇/∂q (nv×nq), ∂v̇/∂v (nv×nv), ∂v̇/∂τ (nv×nv) and ∂v̇/∂u (nv×nu) of forward dynamics.
ForwardDynamicsDerivatives = namedtuple(
    "ForwardDynamicsDerivatives", ["dvdot_dq", "dvdot_dv", "dvdot_dtau", "dvdot_du"]
)


def _dws(plant, dtype):
    """The plant's derivative workspace for ``dtype`` (_layout.DERIVATIVES; scratch only,
    made once)."""
    workspaces = plant.__dict__.setdefault("_derivative_workspaces", {})
    dws = workspaces.get(dtype)
    if dws is None:
        dws = workspaces[dtype] = np.zeros(plant._engine.sizes.dws, dtype=dtype)
    return dws


class DerivativesMixin:
    """Derivatives of inverse and forward dynamics (mallard-specific methods)."""

    def _check_derivative_force_elements(self, method):
        """NotImplementedError naming the first force element other than gravity."""
        for element in self._force_elements[1:]:
            raise NotImplementedError(
                f"{method}(): force element {type(element).__name__} (ForceElementIndex "
                f"{int(element.index())}) is not supported: only gravity and joint damping "
                "are differentiated"
            )

    def CalcInverseDynamicsDerivatives(self, context, known_vdot, external_forces=None):
        """(dtau_dq, dtau_dv, dtau_dvdot): the derivatives of inverse dynamics with gravity and
        joint damping, a mallard method (pydrake has none: there one seeds an AutoDiffXd plant)::

            τ(q, v, v̇) = M(q)·v̇ + C(q, v)·v − tau_g(q) + D·v − tau_ext − Σ_B J_Bᵀ·F_ext_Bo_W

        that is CalcInverseDynamics(context, known_vdot, forces) with ``forces`` the force
        elements' contribution (CalcForceElementsContribution: gravity and joint damping D,
        differentiated) plus ``external_forces`` (None: none), whose values are held fixed
        (its spatial forces at each Bo, in World, do not turn with the bodies). dtau_dq is
        nv×nq, with respect to q itself (a quaternion's four entries independently);
        dtau_dv is nv×nv; dtau_dvdot is M(q) (reflected rotor inertias included).

        NotImplementedError if the plant has force elements other than gravity (springs,
        bushings, ...); TypeError if ``known_vdot`` or ``external_forces`` hold non-double
        scalars while the Context holds doubles."""
        method = "CalcInverseDynamicsDerivatives"
        self._throw_if_not_finalized(method)
        if context._system is not self:
            self.ValidateContext(context)
        self._check_derivative_force_elements(method)
        vdot = known_vdot
        if not (
            type(vdot) is np.ndarray
            and vdot.dtype == np.float64
            and vdot.shape == (self._nv,)
            and vdot.flags.c_contiguous  # (as the compiled kernel takes its arrays)
        ):
            vdot = np.ascontiguousarray(self._vdot_arg(known_vdot, method))
        ec = self._engine.cache(context)
        if external_forces is None:
            F_B = ec.zero_F
        else:
            self._check_forces(external_forces, method)
            F_B = external_forces._F_BBo_W
        dtype = ec.ws.dtype
        if vdot.dtype != dtype or F_B.dtype != dtype:
            if dtype.kind != "O":
                raise TypeError(
                    f"{method}(): known_vdot and external_forces must hold the Context's "
                    f"scalar type (float), got {vdot.dtype} and {F_B.dtype}"
                )
            vdot, F_B = vdot.astype(object), F_B.astype(object)
        need = self._engine.need(ec, context, _ALL)
        dtau_dq = np.zeros((self._nv, self._nq), dtype=dtype)
        dtau_dv = np.zeros((self._nv, self._nv), dtype=dtype)
        model = self._engine
        ec.kernels.drive_dynamics_derivatives(
            INVERSE,
            model.mi,
            model.mf,
            self._x(context),
            ec.ws,
            need,
            vdot,
            ec.zero_tau,  # (not read)
            F_B,
            _dws(self, dtype),
            dtau_dq,
            dtau_dv,
            dtau_dv,  # (not read)
            ec.kernels.addresses(DERIVATIVES_AT),
        )
        self._engine.mark(ec, context, need)
        return InverseDynamicsDerivatives(dtau_dq, dtau_dv, ec.work.M.copy())

    def CalcForwardDynamicsDerivatives(self, context):
        """(dvdot_dq, dvdot_dv, dvdot_dtau, dvdot_du): the derivatives of a continuous plant's
        forward dynamics v̇ (the v̇ of EvalTimeDerivatives), a mallard method (pydrake has
        none: there one seeds an AutoDiffXd plant). v̇ solves

            M(q)·v̇ + C(q, v)·v = tau_g(q) − D·v + τ + B·clamp(u)

        with τ the applied generalized force input and u the actuation input (each actuator's
        clamped to its effort limit), inputs held fixed. dvdot_dq = −M⁻¹·∂τ_ID/∂q (nv×nq,
        with respect to q itself), dvdot_dv = −M⁻¹·∂τ_ID/∂v (nv×nv), τ_ID the inverse
        dynamics of CalcInverseDynamicsDerivatives at that v̇; dvdot_dtau = M⁻¹ (nv×nv);
        dvdot_du = M⁻¹·B (nv×nu), zero for actuators at their limit. Locked joints' rows (and
        their columns of dvdot_dtau, dvdot_du) are zero.

        NotImplementedError for a discrete plant, for force elements other than gravity, and
        when the applied spatial force or a desired state (PD control) input has a value."""
        method = "CalcForwardDynamicsDerivatives"
        self._throw_if_not_finalized(method)
        self.ValidateContext(context)
        if self._time_step > 0:
            raise NotImplementedError(
                f"{method}(): only continuous plants are supported; this plant is discrete "
                f"(time_step = {self._time_step})"
            )
        self._throw_if_continuous_with_constraints()
        self._check_derivative_force_elements(method)
        if self._applied_spatial_force_port._value_or_none(context):
            raise NotImplementedError(
                f"{method}(): the applied spatial force input port has a value: forces at "
                "points fixed on bodies are not supported"
            )
        if self._has_pd_input(context):
            raise NotImplementedError(
                f"{method}(): a desired state input port has a value: PD-controlled "
                "actuation is not supported"
            )
        ec = self._engine.cache(context)
        dtype = ec.ws.dtype
        u = self._actuation(context).astype(dtype, copy=False)
        tau = self._applied_input_values(context)[0]
        tau = ec.zero_tau if tau is None else np.ascontiguousarray(tau, dtype=dtype)
        need = self._engine.need(ec, context, _ALL)
        nq, nv = self._nq, self._nv
        dvdot_dq = np.zeros((nv, nq), dtype=dtype)
        dvdot_dv = np.zeros((nv, nv), dtype=dtype)
        dvdot_dtau = np.zeros((nv, nv), dtype=dtype)
        model = self._engine
        failed = ec.kernels.drive_dynamics_derivatives(
            FORWARD,
            model.mi,
            model.mf,
            self._x(context),
            ec.ws,
            need,
            u,
            tau,
            ec.zero_F,
            _dws(self, dtype),
            dvdot_dq,
            dvdot_dv,
            dvdot_dtau,
            ec.kernels.addresses(DERIVATIVES_AT),
        )
        self._engine.mark(ec, context, need)
        ec.forget("forward_dynamics")  # (recomputed into ec, not recorded)
        if failed >= 0:
            self._raise_not_positive_definite(int(failed))
        static = self._topology
        dvdot_du = np.zeros((nv, u.shape[0]), dtype=dtype)
        dvdot_du[:, static.actuator_input] = dvdot_dtau[:, static.actuator_v]
        if dtype == np.float64:
            dvdot_du[:, np.abs(u) > self._effort_limits()] = 0.0
        return ForwardDynamicsDerivatives(dvdot_dq, dvdot_dv, dvdot_dtau, dvdot_du)
