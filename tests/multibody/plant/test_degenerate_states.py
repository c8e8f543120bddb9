"""States at the edge of what the dynamics can take: a quaternion with all four elements zero
raises where Drake raises (at the first pose, mass matrix, force or Jacobian computed from
it), naming the joint, instead of giving NaN poses; a free body far away (1e308 m) still gets
finite accelerations, as in Drake."""

import numpy as np
import pytest

from mallard.autodiffutils import InitializeAutoDiff
from mallard.math import RigidTransform
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    JacobianWrtVariable,
    MultibodyForces,
    RevoluteJoint,
    SpatialInertia,
    UnitInertia,
)

ZERO_QUATERNION = r"All the elements in a quaternion are zero: the positions q\[0:4\] of joint"


def _free_body_with_a_link():
    """A free body "base" (COM off its origin) with a link on a revolute joint."""
    plant = MultibodyPlant(0.0)
    inertia = SpatialInertia(2.0, [0.1, 0.2, 0.3], UnitInertia(1.0, 1.2, 1.3))
    base = plant.AddRigidBody("base", inertia)
    link = plant.AddRigidBody("link", inertia)
    plant.AddJoint(RevoluteJoint("j", base.body_frame(), link.body_frame(), [0, 0, 1]))
    plant.Finalize()
    return plant, base


def _queries(plant, context, body):
    nv = plant.num_velocities()
    world = plant.world_frame()
    return {
        "CalcMassMatrix": lambda: plant.CalcMassMatrix(context),
        "EvalBodyPoseInWorld": lambda: plant.EvalBodyPoseInWorld(context, body),
        "EvalTimeDerivatives": lambda: plant.EvalTimeDerivatives(context),
        "CalcInverseDynamics": lambda: plant.CalcInverseDynamics(
            context, np.zeros(nv), MultibodyForces(plant)
        ),
        "CalcJacobianSpatialVelocity": lambda: plant.CalcJacobianSpatialVelocity(
            context, JacobianWrtVariable.kV, body.body_frame(), [0, 0, 0], world, world
        ),
        "CalcGravityGeneralizedForces": lambda: plant.CalcGravityGeneralizedForces(context),
    }


@pytest.mark.parametrize(
    "query",
    [
        "CalcMassMatrix",
        "EvalBodyPoseInWorld",
        "EvalTimeDerivatives",
        "CalcInverseDynamics",
        "CalcJacobianSpatialVelocity",
        "CalcGravityGeneralizedForces",
    ],
)
def test_a_zero_quaternion_raises_at_first_use(query):
    plant, base = _free_body_with_a_link()
    context = plant.CreateDefaultContext()
    q = np.zeros(plant.num_positions())
    q[4:7] = [1.0, 2.0, 3.0]
    plant.SetPositions(context, q)  # (accepted, as in Drake: it may be set before it is used)
    with pytest.raises(RuntimeError, match=ZERO_QUATERNION + " 'base'"):
        _queries(plant, context, base)[query]()
    # Again (nothing was marked computed), then fixed: any nonzero quaternion is a rotation.
    with pytest.raises(RuntimeError, match=ZERO_QUATERNION):
        _queries(plant, context, base)[query]()
    q[0] = 1e-3
    plant.SetPositions(context, q)
    _queries(plant, context, base)[query]()
    np.testing.assert_array_equal(
        plant.EvalBodyPoseInWorld(context, base).GetAsMatrix4(),
        RigidTransform([1.0, 2.0, 3.0]).GetAsMatrix4(),
    )


def test_a_zero_quaternion_raises_for_autodiff_scalars():
    plant, base = _free_body_with_a_link()
    ad = plant.ToAutoDiffXd()
    context = ad.CreateDefaultContext()
    q = np.zeros(plant.num_positions())
    ad.SetPositions(context, InitializeAutoDiff(q).reshape(-1))
    with pytest.raises(RuntimeError, match=ZERO_QUATERNION + " 'base'"):
        ad.CalcMassMatrix(context)


def test_a_free_body_far_away_has_finite_accelerations():
    """At p_WBo = 1e308 m, at rest: every point falls at g and nothing turns (the forward
    dynamics shifts nothing to World's origin, where 1e308² would overflow)."""
    plant, _ = _free_body_with_a_link()
    context = plant.CreateDefaultContext()
    for p in ([1e308, 1e308, 1e308], [1e308, -1e308, 0.0]):
        q = np.r_[[1.0, 0.0, 0.0, 0.0], p, [0.3]]
        plant.SetPositions(context, q)
        vdot = plant.EvalTimeDerivatives(context).get_generalized_velocity().CopyToVector()
        np.testing.assert_allclose(vdot, [0, 0, 0, 0, 0, -9.81, 0], atol=1e-12)
        assert np.isfinite(plant.CalcMassMatrix(context)).all()
