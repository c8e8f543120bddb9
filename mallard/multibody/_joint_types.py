"""Integer codes of the joint types, shared by the joint classes and the kernels.

Kept free of numba so that the element classes can use the codes without importing it.
"""

WELD = 0
REVOLUTE = 1
PRISMATIC = 2
SCREW = 3
UNIVERSAL = 4
PLANAR = 5
BALL_RPY = 6
RPY_FLOATING = 7
QUATERNION_FLOATING = 8

#: The bit mask of every joint type.
ALL = (1 << (QUATERNION_FLOATING + 1)) - 1

#: The sets of joint types (bit masks: bit c for code c) the entry points of
#: mallard._compiled.JOINT_SPECIALIZED (the first ``mallard simulate``'s: a model's explicit
#: steps and stages) are compiled for (mallard._compiled.kernels): a model's are the first set
#: that holds all its joint types; the other model entry points are compiled for ALL. A set
#: leaves out of the compiled code the branches of the types it lacks (kernels.mobilizers).
#: Two sets, so that ``mallard compile`` compiles those entry points twice only (once per set:
#: mallard._compiled.compile_for_every_joint_type): welds and revolute joints (pendulums, the
#: acrobot, chains of revolute joints), then all.
KERNEL_JOINT_TYPES = (1 << WELD | 1 << REVOLUTE, ALL)


def kernel_joint_types(codes):
    """The set of KERNEL_JOINT_TYPES (a bit mask) for a model whose joints have the type codes
    ``codes``."""
    mask = 0
    for code in codes:
        mask |= 1 << int(code)
    return next(s for s in KERNEL_JOINT_TYPES if mask & s == mask)
