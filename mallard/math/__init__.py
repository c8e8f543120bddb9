"""Mirror of pydrake.math: RigidTransform, RotationMatrix, RollPitchYaw."""

from mallard._template import TemplateClass
from mallard.math._functions import (
    abs,
    acos,
    arccos,
    arcsin,
    arctan,
    arctan2,
    asin,
    atan,
    atan2,
    ceil,
    cos,
    cosh,
    exp,
    floor,
    log,
    max,
    min,
    pow,
    sin,
    sinh,
    sqrt,
    tan,
    tanh,
)
from mallard.math._random_rotation import (
    UniformlyRandomAngleAxis,
    UniformlyRandomQuaternion,
    UniformlyRandomRotationMatrix,
    UniformlyRandomRPY,
)
from mallard.math._riccati import (
    ContinuousAlgebraicRiccatiEquation,
    DiscreteAlgebraicRiccatiEquation,
    RealContinuousLyapunovEquation,
    RealDiscreteLyapunovEquation,
)
from mallard.math._rigid_transform import RigidTransform
from mallard.math._roll_pitch_yaw import RollPitchYaw
from mallard.math._rotation_matrix import RotationMatrix

RigidTransform_ = TemplateClass("RigidTransform_", RigidTransform)
RollPitchYaw_ = TemplateClass("RollPitchYaw_", RollPitchYaw)
RotationMatrix_ = TemplateClass("RotationMatrix_", RotationMatrix)

__all__ = [
    "ContinuousAlgebraicRiccatiEquation",
    "DiscreteAlgebraicRiccatiEquation",
    "RealContinuousLyapunovEquation",
    "RealDiscreteLyapunovEquation",
    "RigidTransform",
    "RigidTransform_",
    "RollPitchYaw",
    "RollPitchYaw_",
    "RotationMatrix",
    "RotationMatrix_",
    "UniformlyRandomAngleAxis",
    "UniformlyRandomQuaternion",
    "UniformlyRandomRPY",
    "UniformlyRandomRotationMatrix",
    "abs",
    "acos",
    "arccos",
    "arcsin",
    "arctan",
    "arctan2",
    "asin",
    "atan",
    "atan2",
    "ceil",
    "cos",
    "cosh",
    "exp",
    "floor",
    "log",
    "max",
    "min",
    "pow",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
]
