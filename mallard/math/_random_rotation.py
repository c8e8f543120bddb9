"""Uniformly random rotations (pydrake.math.UniformlyRandomQuaternion, ...AngleAxis,
...RotationMatrix, ...RPY): Shoemake's method on three uniform draws, as Drake draws them."""

import math

import numpy as np

from mallard.common._angle_axis import AngleAxis
from mallard.common._quaternion import Quaternion
from mallard.common._random import check_generator, uniform
from mallard.common._scalar_math import cos, sin, sqrt
from mallard.math._roll_pitch_yaw import RollPitchYaw
from mallard.math._rotation_matrix import RotationMatrix


def shoemake_wxyz(u1, u2, u3):
    """[w, x, y, z] of the unit quaternion Shoemake's method makes of three numbers uniform on
    [0, 1] (scalars of any type: random symbolic Variables give a random distribution)."""
    a, b = sqrt(1 - u1), sqrt(u1)
    return np.array(
        [
            a * sin(2 * math.pi * u2),
            a * cos(2 * math.pi * u2),
            b * sin(2 * math.pi * u3),
            b * cos(2 * math.pi * u3),
        ]
    )


def UniformlyRandomQuaternion(generator):
    """A unit quaternion whose rotation is uniformly distributed over SO(3) (three draws from
    ``generator``, a RandomGenerator). Shoemake, Graphics Gems III, 1992."""
    check_generator(generator, "UniformlyRandomQuaternion")
    u1 = uniform(generator)
    u2 = uniform(generator)
    u3 = uniform(generator)
    return Quaternion._make(shoemake_wxyz(u1, u2, u3))


def UniformlyRandomAngleAxis(generator):
    """The AngleAxis of UniformlyRandomQuaternion(generator)."""
    return AngleAxis(UniformlyRandomQuaternion(generator))


def UniformlyRandomRotationMatrix(generator):
    """The RotationMatrix of UniformlyRandomQuaternion(generator)."""
    return RotationMatrix(UniformlyRandomQuaternion(generator))


def UniformlyRandomRPY(generator):
    """The roll-pitch-yaw angles [r, p, y] of UniformlyRandomQuaternion(generator)."""
    return RollPitchYaw(UniformlyRandomQuaternion(generator)).vector()
