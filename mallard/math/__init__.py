"""Mirror of pydrake.math: RigidTransform, RotationMatrix, RollPitchYaw; the scalar functions
for every scalar type; Riccati and Lyapunov equations; matrix utilities, B-spline bases,
barycentric meshes, numerical gradients and soft min/max."""

from mallard._public import publish
from mallard._template import TemplateClass, module_getattr
from mallard.math._barycentric import BarycentricMesh
from mallard.math._bspline_basis import BsplineBasis, KnotVectorType
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
    eq,
    exp,
    floor,
    ge,
    gt,
    inv,
    isnan,
    le,
    log,
    lt,
    matmul,
    max,
    min,
    ne,
    pow,
    sin,
    sinh,
    sqrt,
    tan,
    tanh,
    wrap_to,
)
from mallard.math._matrix_util import (
    ClosestQuaternion,
    DecomposePSDmatrixIntoXtransposeTimesX,
    IsPositiveDefinite,
    IsSymmetric,
    SoftOverMax,
    SoftOverMin,
    SoftUnderMax,
    SoftUnderMin,
    VectorToSkewSymmetric,
)
from mallard.math._numerical_gradient import (
    ComputeNumericalGradient,
    NumericalGradientMethod,
    NumericalGradientOption,
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
    "BarycentricMesh",
    "BsplineBasis",
    "ClosestQuaternion",
    "ComputeNumericalGradient",
    "ContinuousAlgebraicRiccatiEquation",
    "DecomposePSDmatrixIntoXtransposeTimesX",
    "DiscreteAlgebraicRiccatiEquation",
    "IsPositiveDefinite",
    "IsSymmetric",
    "KnotVectorType",
    "NumericalGradientMethod",
    "NumericalGradientOption",
    "RealContinuousLyapunovEquation",
    "RealDiscreteLyapunovEquation",
    "RigidTransform",
    "RigidTransform_",
    "RollPitchYaw",
    "RollPitchYaw_",
    "RotationMatrix",
    "RotationMatrix_",
    "SoftOverMax",
    "SoftOverMin",
    "SoftUnderMax",
    "SoftUnderMin",
    "UniformlyRandomAngleAxis",
    "UniformlyRandomQuaternion",
    "UniformlyRandomRPY",
    "UniformlyRandomRotationMatrix",
    "VectorToSkewSymmetric",
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
    "eq",
    "exp",
    "floor",
    "ge",
    "gt",
    "inv",
    "isnan",
    "le",
    "log",
    "lt",
    "matmul",
    "max",
    "min",
    "ne",
    "pow",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "wrap_to",
]


def __getattr__(name):
    """``Class_[T]`` and ``Class_𝓣T𝓤``: the names pickles give template instantiations (as
    pydrake's modules answer them)."""
    return module_getattr(__name__, globals(), name)


publish(globals())
