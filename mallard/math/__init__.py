"""Mirror of pydrake.math: RigidTransform, RotationMatrix, RollPitchYaw."""

from mallard.math._rigid_transform import RigidTransform
from mallard.math._roll_pitch_yaw import RollPitchYaw
from mallard.math._rotation_matrix import RotationMatrix

__all__ = ["RigidTransform", "RollPitchYaw", "RotationMatrix"]
