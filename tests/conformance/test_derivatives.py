"""Derivatives of inverse and forward dynamics (mallard's CalcInverseDynamicsDerivatives and
CalcForwardDynamicsDerivatives) against pydrake's AutoDiffXd plant, seeded with q, v (and the
applied generalized force and actuation inputs), on a model with every joint type and
non-unit quaternions, to 1e-10 relative to the largest entry."""

import numpy as np
import pytest

pytest.importorskip("pydrake")

from pydrake.autodiffutils import (  # noqa: E402
    AutoDiffXd,
    ExtractGradient,
    ExtractValue,
    InitializeAutoDiff,
)
from pydrake.multibody.math import SpatialForce_  # noqa: E402
from pydrake.multibody.tree import BodyIndex, MultibodyForces_  # noqa: E402

from tests.multibody.derivative_models import (  # noqa: E402
    one_dof_tree,
    random_state,
    two_way_chain,
)
from tests.multibody.plant.plant_models import library  # noqa: E402

MALLARD, DRAKE = library("mallard"), library("pydrake")


def _constant(values):
    return np.array([AutoDiffXd(float(x)) for x in values])


def close(ours, theirs):
    scale = max(1.0, float(np.max(np.abs(theirs))))
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10 * scale)


@pytest.fixture(scope="module")
def models():
    """(mallard plant, pydrake plant, pydrake AutoDiffXd plant)."""
    drake = two_way_chain(DRAKE)
    return two_way_chain(MALLARD), drake, drake.ToAutoDiffXd()


def test_same_coordinates(models):
    ours, drake, _ = models
    for index in ours.GetJointIndices():
        joint = ours.get_joint(index)
        theirs = drake.GetJointByName(joint.name())
        assert joint.position_start() == theirs.position_start()
        assert joint.velocity_start() == theirs.velocity_start()


@pytest.mark.parametrize("seed", [1, 2])
def test_inverse_dynamics_derivatives(models, seed):
    ours, _, drake_ad = models
    rng = np.random.default_rng(seed)
    q, v, vdot = random_state(ours, rng)
    nq, nv = q.size, v.size
    F_ext = rng.normal(size=(ours.num_bodies(), 6))
    tau_ext = rng.normal(size=nv)
    # pydrake: τ(q, v) with the force elements' forces plus the fixed external body forces
    # (the external generalized forces, constant, only shift τ by −tau_ext).
    context = drake_ad.CreateDefaultContext()
    x = InitializeAutoDiff(np.concatenate((q, v)))[:, 0]
    drake_ad.SetPositions(context, x[:nq])
    drake_ad.SetVelocities(context, x[nq:])
    forces = MultibodyForces_[type(x[0])](drake_ad)
    drake_ad.CalcForceElementsContribution(context, forces)
    for b in range(ours.num_bodies()):
        F = SpatialForce_[AutoDiffXd](_constant(F_ext[b, :3]), _constant(F_ext[b, 3:]))
        drake_ad.get_body(BodyIndex(b)).AddInForceInWorld(context, F, forces)
    tau = drake_ad.CalcInverseDynamics(context, vdot, forces)
    gradient = ExtractGradient(tau)
    # mallard.
    context = ours.CreateDefaultContext()
    ours.SetPositions(context, q)
    ours.SetVelocities(context, v)
    external = MALLARD.MultibodyForces(ours)
    external.mutable_generalized_forces()[:] = tau_ext
    external._F_BBo_W[:] = F_ext
    dtau_dq, dtau_dv, dtau_dvdot = ours.CalcInverseDynamicsDerivatives(context, vdot, external)
    close(dtau_dq, gradient[:, :nq])
    close(dtau_dv, gradient[:, nq:])
    close(dtau_dvdot, ours.CalcMassMatrix(context))
    # (the same τ: the force elements' and the external forces both ways)
    forces = MALLARD.MultibodyForces(ours)
    ours.CalcForceElementsContribution(context, forces)
    forces.mutable_generalized_forces()[:] += tau_ext
    forces._F_BBo_W += F_ext
    close(ours.CalcInverseDynamics(context, vdot, forces), ExtractValue(tau)[:, 0] - tau_ext)


@pytest.mark.parametrize("seed", [3, 4])
def test_forward_dynamics_derivatives(models, seed):
    ours, _, drake_ad = models
    rng = np.random.default_rng(seed)
    q, v, _ = random_state(ours, rng)
    nq, nv, nu = q.size, v.size, ours.num_actuated_dofs()
    tau = rng.normal(size=nv)
    u = 2.0 * rng.normal(size=nu)  # some beyond their effort limits
    context = drake_ad.CreateDefaultContext()
    x = InitializeAutoDiff(np.concatenate((q, v, tau, u)))[:, 0]
    drake_ad.SetPositions(context, x[:nq])
    drake_ad.SetVelocities(context, x[nq : nq + nv])
    drake_ad.get_applied_generalized_force_input_port().FixValue(context, x[nq + nv : nq + 2 * nv])
    drake_ad.get_actuation_input_port().FixValue(context, x[nq + 2 * nv :])
    derivatives = drake_ad.EvalTimeDerivatives(context).CopyToVector()[nq:]
    gradient = ExtractGradient(derivatives)
    context = ours.CreateDefaultContext()
    ours.SetPositions(context, q)
    ours.SetVelocities(context, v)
    ours.get_applied_generalized_force_input_port().FixValue(context, tau)
    ours.get_actuation_input_port().FixValue(context, u)
    dvdot_dq, dvdot_dv, dvdot_dtau, dvdot_du = ours.CalcForwardDynamicsDerivatives(context)
    close(dvdot_dq, gradient[:, :nq])
    close(dvdot_dv, gradient[:, nq : nq + nv])
    close(dvdot_dtau, gradient[:, nq + nv : nq + 2 * nv])
    close(dvdot_du, gradient[:, nq + 2 * nv :])


@pytest.mark.parametrize("seed", [5, 6])
def test_recursive_derivatives(seed):
    """The models kernels.recursive_derivatives covers (a tree of revolute, prismatic and
    screw joints, no applied body forces): ∂τ/∂q, ∂τ/∂v and ∂v̇/∂q, ∂v̇/∂v."""
    ours, drake = one_dof_tree(MALLARD), one_dof_tree(DRAKE)
    drake_ad = drake.ToAutoDiffXd()
    q, v, vdot = random_state(ours, np.random.default_rng(seed))
    nq = q.size
    context = drake_ad.CreateDefaultContext()
    x = InitializeAutoDiff(np.concatenate((q, v)))[:, 0]
    drake_ad.SetPositions(context, x[:nq])
    drake_ad.SetVelocities(context, x[nq:])
    forces = MultibodyForces_[type(x[0])](drake_ad)
    drake_ad.CalcForceElementsContribution(context, forces)
    gradient = ExtractGradient(drake_ad.CalcInverseDynamics(context, vdot, forces))
    fd_gradient = ExtractGradient(drake_ad.EvalTimeDerivatives(context).CopyToVector()[nq:])
    context = ours.CreateDefaultContext()
    ours.SetPositions(context, q)
    ours.SetVelocities(context, v)
    dtau_dq, dtau_dv, _ = ours.CalcInverseDynamicsDerivatives(context, vdot)
    close(dtau_dq, gradient[:, :nq])
    close(dtau_dv, gradient[:, nq:])
    dvdot_dq, dvdot_dv, _, _ = ours.CalcForwardDynamicsDerivatives(context)
    close(dvdot_dq, fd_gradient[:, :nq])
    close(dvdot_dv, fd_gradient[:, nq:])
