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
