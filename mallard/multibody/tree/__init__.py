"""Mirror of pydrake.multibody.tree."""

from mallard._public import publish
from mallard._template import TemplateClass, module_getattr
from mallard.multibody.tree._ball_rpy_joint import BallRpyJoint
from mallard.multibody.tree._calc_spatial_inertia import CalcSpatialInertia
from mallard.multibody.tree._door_hinge import DoorHinge, DoorHingeConfig
from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._frame import FixedOffsetFrame, Frame, RigidBodyFrame
from mallard.multibody.tree._indices import (
    BodyIndex,
    ForceElementIndex,
    FrameIndex,
    JacobianWrtVariable,
    JointActuatorIndex,
    JointIndex,
    ModelInstanceIndex,
    MultibodyConstraintId,
    default_model_instance,
    world_frame_index,
    world_index,
    world_model_instance,
)
from mallard.multibody.tree._joint import Joint
from mallard.multibody.tree._joint_actuator import JointActuator, PdControllerGains
from mallard.multibody.tree._joint_springs import PrismaticSpring, RevoluteSpring
from mallard.multibody.tree._linear_bushing_roll_pitch_yaw import LinearBushingRollPitchYaw
from mallard.multibody.tree._linear_spring_damper import LinearSpringDamper
from mallard.multibody.tree._multibody_forces import MultibodyForces
from mallard.multibody.tree._planar_joint import PlanarJoint
from mallard.multibody.tree._prismatic_joint import PrismaticJoint
from mallard.multibody.tree._quaternion_floating_joint import QuaternionFloatingJoint
from mallard.multibody.tree._revolute_joint import RevoluteJoint
from mallard.multibody.tree._rigid_body import RigidBody
from mallard.multibody.tree._rotational_inertia import RotationalInertia
from mallard.multibody.tree._rpy_floating_joint import RpyFloatingJoint
from mallard.multibody.tree._scoped_name import ScopedName
from mallard.multibody.tree._screw_joint import ScrewJoint
from mallard.multibody.tree._spatial_inertia import SpatialInertia
from mallard.multibody.tree._uniform_gravity_field_element import UniformGravityFieldElement
from mallard.multibody.tree._unit_inertia import UnitInertia
from mallard.multibody.tree._universal_joint import UniversalJoint
from mallard.multibody.tree._weld_joint import WeldJoint

#: pydrake's alias of RigidBody.
Body = RigidBody

MultibodyForces_ = TemplateClass("MultibodyForces_", MultibodyForces)
RotationalInertia_ = TemplateClass("RotationalInertia_", RotationalInertia)
SpatialInertia_ = TemplateClass("SpatialInertia_", SpatialInertia)
UnitInertia_ = TemplateClass("UnitInertia_", UnitInertia)
BallRpyJoint_ = TemplateClass("BallRpyJoint_", BallRpyJoint, "element")
DoorHinge_ = TemplateClass("DoorHinge_", DoorHinge, "element")
FixedOffsetFrame_ = TemplateClass("FixedOffsetFrame_", FixedOffsetFrame, "element")
ForceElement_ = TemplateClass("ForceElement_", ForceElement, "element")
Frame_ = TemplateClass("Frame_", Frame, "element")
JointActuator_ = TemplateClass("JointActuator_", JointActuator, "element")
Joint_ = TemplateClass("Joint_", Joint, "element")
LinearBushingRollPitchYaw_ = TemplateClass(
    "LinearBushingRollPitchYaw_", LinearBushingRollPitchYaw, "element"
)
LinearSpringDamper_ = TemplateClass("LinearSpringDamper_", LinearSpringDamper, "element")
PlanarJoint_ = TemplateClass("PlanarJoint_", PlanarJoint, "element")
PrismaticJoint_ = TemplateClass("PrismaticJoint_", PrismaticJoint, "element")
PrismaticSpring_ = TemplateClass("PrismaticSpring_", PrismaticSpring, "element")
QuaternionFloatingJoint_ = TemplateClass(
    "QuaternionFloatingJoint_", QuaternionFloatingJoint, "element"
)
RevoluteJoint_ = TemplateClass("RevoluteJoint_", RevoluteJoint, "element")
RevoluteSpring_ = TemplateClass("RevoluteSpring_", RevoluteSpring, "element")
RigidBodyFrame_ = TemplateClass("RigidBodyFrame_", RigidBodyFrame, "element")
RigidBody_ = TemplateClass("RigidBody_", RigidBody, "element")
RpyFloatingJoint_ = TemplateClass("RpyFloatingJoint_", RpyFloatingJoint, "element")
ScrewJoint_ = TemplateClass("ScrewJoint_", ScrewJoint, "element")
UniformGravityFieldElement_ = TemplateClass(
    "UniformGravityFieldElement_", UniformGravityFieldElement, "element"
)
UniversalJoint_ = TemplateClass("UniversalJoint_", UniversalJoint, "element")
WeldJoint_ = TemplateClass("WeldJoint_", WeldJoint, "element")
Body_ = RigidBody_

__all__ = [
    "BallRpyJoint",
    "BallRpyJoint_",
    "Body",
    "BodyIndex",
    "Body_",
    "CalcSpatialInertia",
    "DoorHinge",
    "DoorHingeConfig",
    "DoorHinge_",
    "FixedOffsetFrame",
    "FixedOffsetFrame_",
    "ForceElement",
    "ForceElementIndex",
    "ForceElement_",
    "Frame",
    "FrameIndex",
    "Frame_",
    "JacobianWrtVariable",
    "Joint",
    "JointActuator",
    "JointActuatorIndex",
    "JointActuator_",
    "JointIndex",
    "Joint_",
    "LinearBushingRollPitchYaw",
    "LinearBushingRollPitchYaw_",
    "LinearSpringDamper",
    "LinearSpringDamper_",
    "ModelInstanceIndex",
    "MultibodyConstraintId",
    "MultibodyForces",
    "MultibodyForces_",
    "PdControllerGains",
    "PlanarJoint",
    "PlanarJoint_",
    "PrismaticJoint",
    "PrismaticJoint_",
    "PrismaticSpring",
    "PrismaticSpring_",
    "QuaternionFloatingJoint",
    "QuaternionFloatingJoint_",
    "RevoluteJoint",
    "RevoluteJoint_",
    "RevoluteSpring",
    "RevoluteSpring_",
    "RigidBody",
    "RigidBodyFrame",
    "RigidBodyFrame_",
    "RigidBody_",
    "RotationalInertia",
    "RotationalInertia_",
    "RpyFloatingJoint",
    "RpyFloatingJoint_",
    "ScopedName",
    "ScrewJoint",
    "ScrewJoint_",
    "SpatialInertia",
    "SpatialInertia_",
    "UniformGravityFieldElement",
    "UniformGravityFieldElement_",
    "UnitInertia",
    "UnitInertia_",
    "UniversalJoint",
    "UniversalJoint_",
    "WeldJoint",
    "WeldJoint_",
    "default_model_instance",
    "world_frame_index",
    "world_index",
    "world_model_instance",
]


def __getattr__(name):
    """``Class_[T]`` and ``Class_𝓣T𝓤``: the names pickles give template instantiations (as
    pydrake's modules answer them)."""
    return module_getattr(__name__, globals(), name)


publish(globals())
