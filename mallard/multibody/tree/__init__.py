"""Mirror of pydrake.multibody.tree."""

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

__all__ = [
    "BallRpyJoint",
    "Body",
    "BodyIndex",
    "CalcSpatialInertia",
    "DoorHinge",
    "DoorHingeConfig",
    "FixedOffsetFrame",
    "ForceElement",
    "ForceElementIndex",
    "Frame",
    "FrameIndex",
    "JacobianWrtVariable",
    "Joint",
    "JointActuator",
    "JointActuatorIndex",
    "JointIndex",
    "LinearBushingRollPitchYaw",
    "LinearSpringDamper",
    "ModelInstanceIndex",
    "MultibodyConstraintId",
    "MultibodyForces",
    "PdControllerGains",
    "PlanarJoint",
    "PrismaticJoint",
    "PrismaticSpring",
    "QuaternionFloatingJoint",
    "RevoluteJoint",
    "RevoluteSpring",
    "RigidBody",
    "RigidBodyFrame",
    "RotationalInertia",
    "RpyFloatingJoint",
    "ScopedName",
    "ScrewJoint",
    "SpatialInertia",
    "UniformGravityFieldElement",
    "UnitInertia",
    "UniversalJoint",
    "WeldJoint",
    "default_model_instance",
    "world_frame_index",
    "world_index",
    "world_model_instance",
]
