"""Rotation-matrix constructors for kernels (joint kinematics): quaternion, axis-angle, RPY."""

import numpy as np

from mallard.common._quaternion_rotation import quaternion_rotation
from mallard.multibody._kernels._machinery import jitable

jitable(quaternion_rotation)


@jitable
def normalized_quaternion_rotation(w, x, y, z):
    """R(q/|q|) of the quaternion q = (w, x, y, z) of any nonzero norm, as a 9-tuple (see
    mallard.common._quaternion.quaternion_rotation)."""
    return quaternion_rotation(w, x, y, z, 2.0 / (w * w + x * x + y * y + z * z))


@jitable
def rotation_about_axis(a_unit, theta, R):
    """R = rotation by ``theta`` (right-hand rule) about the unit vector ``a_unit`` (Rodrigues)."""
    c = np.cos(theta)
    s = np.sin(theta)
    t = 1.0 - c
    x = a_unit[0]
    y = a_unit[1]
    z = a_unit[2]
    R[0, 0] = c + t * x * x
    R[0, 1] = t * x * y - s * z
    R[0, 2] = t * x * z + s * y
    R[1, 0] = t * x * y + s * z
    R[1, 1] = c + t * y * y
    R[1, 2] = t * y * z - s * x
    R[2, 0] = t * x * z - s * y
    R[2, 1] = t * y * z + s * x
    R[2, 2] = c + t * z * z


@jitable
def rotation_from_rpy(rpy, R):
    """R = Rz(yaw)·Ry(pitch)·Rx(roll) for rpy = [roll, pitch, yaw] (space-fixed x-y-z)."""
    cr = np.cos(rpy[0])
    sr = np.sin(rpy[0])
    cp = np.cos(rpy[1])
    sp = np.sin(rpy[1])
    cy = np.cos(rpy[2])
    sy = np.sin(rpy[2])
    R[0, 0] = cy * cp
    R[0, 1] = cy * sp * sr - sy * cr
    R[0, 2] = cy * sp * cr + sy * sr
    R[1, 0] = sy * cp
    R[1, 1] = sy * sp * sr + cy * cr
    R[1, 2] = sy * sp * cr - cy * sr
    R[2, 0] = -sp
    R[2, 1] = cp * sr
    R[2, 2] = cp * cr
