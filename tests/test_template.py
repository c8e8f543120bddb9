"""Templated classes (X_[T]): instantiation, construction with scalar conversion, and
isinstance by scalar type, for value types, elements and the plant."""

import numpy as np
import pytest

from mallard.autodiffutils import AutoDiffXd
from mallard.math import RigidTransform, RigidTransform_, RotationMatrix_
from mallard.multibody.math import SpatialVelocity, SpatialVelocity_
from mallard.multibody.plant import MultibodyPlant, MultibodyPlant_
from mallard.multibody.tree import (
    Body_,
    Joint_,
    MultibodyForces_,
    RevoluteJoint,
    RevoluteJoint_,
    RigidBody_,
    SpatialInertia,
    SpatialInertia_,
)
from mallard.systems.framework import Context_


def _plant():
    plant = MultibodyPlant(0.0)
    body = plant.AddRigidBody("b", SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
    plant.AddJoint(RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    plant.Finalize()
    return plant


def test_float_instantiation_is_the_class_itself():
    assert RigidTransform_[float] is RigidTransform
    assert MultibodyPlant_[float] is MultibodyPlant
    assert RigidTransform_[AutoDiffXd] is RigidTransform_[AutoDiffXd]
    assert Body_ is RigidBody_
    assert RigidTransform_.get_instantiation(AutoDiffXd) == (
        RigidTransform_[AutoDiffXd],
        (AutoDiffXd,),
    )
    with pytest.raises(TypeError, match="unknown scalar type"):
        RigidTransform_[int]


def test_value_type_construction_converts_reals_to_constants():
    X = RigidTransform_[AutoDiffXd]([1.0, 2.0, 3.0])
    p = X.translation()
    assert p.dtype == object and all(type(x) is AutoDiffXd for x in p)
    assert [x.value() for x in p] == [1.0, 2.0, 3.0]
    assert all(x.derivatives().size == 0 for x in X.rotation().matrix().flat)
    assert isinstance(X, RigidTransform_[AutoDiffXd])
    assert isinstance(X @ X, RigidTransform_[AutoDiffXd])  # results keep the scalar type
    assert not isinstance(RigidTransform(), RigidTransform_[AutoDiffXd])
    assert isinstance(X.rotation(), RotationMatrix_[AutoDiffXd])
    V = SpatialVelocity_[AutoDiffXd]([1.0, 2, 3], [4.0, 5, 6])
    assert isinstance(V, SpatialVelocity_[AutoDiffXd]) and isinstance(V, SpatialVelocity)
    M = SpatialInertia_[AutoDiffXd].SolidBoxWithMass(AutoDiffXd(2.0, [1.0]), 0.1, 0.1, 0.1)
    assert isinstance(M, SpatialInertia_[AutoDiffXd])
    np.testing.assert_array_equal(M.get_mass().derivatives(), [1.0])


def test_elements_and_contexts_take_their_plant_scalar_type():
    plant = _plant()
    ad = plant.ToAutoDiffXd()
    assert isinstance(ad, MultibodyPlant_[AutoDiffXd]) and isinstance(ad, MultibodyPlant)
    assert not isinstance(plant, MultibodyPlant_[AutoDiffXd])
    j_ad, j = ad.GetJointByName("j"), plant.GetJointByName("j")
    assert isinstance(j_ad, RevoluteJoint_[AutoDiffXd]) and isinstance(j_ad, Joint_[AutoDiffXd])
    assert not isinstance(j, Joint_[AutoDiffXd]) and isinstance(j, Joint_[float])
    assert isinstance(ad.GetBodyByName("b"), RigidBody_[AutoDiffXd])
    assert isinstance(ad.CreateDefaultContext(), Context_[AutoDiffXd])
    assert not isinstance(plant.CreateDefaultContext(), Context_[AutoDiffXd])
    forces = MultibodyForces_[AutoDiffXd](plant)
    assert isinstance(forces, MultibodyForces_[AutoDiffXd])
    assert all(type(x) is AutoDiffXd for x in forces.generalized_forces())


def test_expression_instantiation_needs_mallard_symbolic():
    try:
        import mallard.symbolic  # noqa: F401
    except ImportError:
        with pytest.raises(NotImplementedError, match="mallard.symbolic"):
            RigidTransform_["Expression"]
    else:
        from mallard.symbolic import Expression

        assert RigidTransform_[Expression] is RigidTransform_["Expression"]


def test_value_type_factories_return_the_instantiation():
    M = SpatialInertia_[AutoDiffXd].SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)
    assert isinstance(M, SpatialInertia_[AutoDiffXd]) and type(M.get_mass()) is AutoDiffXd
    expected = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3).CopyToFullMatrix6()
    got = np.vectorize(lambda x: x.value(), otypes=[float])(M.CopyToFullMatrix6())
    np.testing.assert_array_equal(got, expected)
    R = RotationMatrix_[AutoDiffXd].MakeXRotation(0.3)
    assert isinstance(R, RotationMatrix_[AutoDiffXd])
    assert isinstance(RigidTransform_[AutoDiffXd].Identity(), RigidTransform_[AutoDiffXd])


#: The templated names the reference documents, by the module pydrake exports them from.
REFERENCE_TEMPLATES = {
    "mallard.math": ["RigidTransform_", "RollPitchYaw_", "RotationMatrix_"],
    "mallard.common.eigen_geometry": ["Quaternion_"],
    "mallard.multibody.math": [
        "SpatialAcceleration_",
        "SpatialForce_",
        "SpatialMomentum_",
        "SpatialVelocity_",
    ],
    "mallard.multibody.tree": """BallRpyJoint_ DoorHinge_ FixedOffsetFrame_ ForceElement_ Frame_
        JointActuator_ Joint_ LinearBushingRollPitchYaw_ LinearSpringDamper_ MultibodyForces_
        PlanarJoint_ PrismaticJoint_ PrismaticSpring_ QuaternionFloatingJoint_ RevoluteJoint_
        RevoluteSpring_ RigidBodyFrame_ RigidBody_ RotationalInertia_ RpyFloatingJoint_
        ScrewJoint_ SpatialInertia_ UniformGravityFieldElement_ UnitInertia_ UniversalJoint_
        WeldJoint_""".split(),
    "mallard.multibody.plant": ["MultibodyPlant_"],
    "mallard.systems.framework": ["Context_"],
}


@pytest.mark.parametrize("module", sorted(REFERENCE_TEMPLATES))
def test_reference_templates_are_exported(module):
    import importlib

    mod = importlib.import_module(module)
    for name in REFERENCE_TEMPLATES[module]:
        template = getattr(mod, name)
        assert name in mod.__all__
        base = getattr(mod, name[:-1])
        assert template[float] is base
        assert issubclass(template[AutoDiffXd], base)
        assert template[AutoDiffXd].__name__ == f"{name}𝓣AutoDiffXd𝓤"  # (pydrake's spelling)
