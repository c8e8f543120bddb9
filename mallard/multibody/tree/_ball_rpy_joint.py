"""BallRpyJoint: free rotation of M about the common origin of F and M, parameterized by
roll-pitch-yaw (space x-y-z) angles."""

import numpy as np

from mallard.multibody import _joint_types
from mallard.multibody.tree._joint import Joint


class BallRpyJoint(Joint):
    """q = (roll, pitch, yaw): R_FM = Rz(yaw)·Ry(pitch)·Rx(roll), Mo = Fo; v = w_FM_F (the
    angular velocity, not the angle rates). Damping τ = −d·w_FM."""

    kTypeName = "ball_rpy"
    _jtype = _joint_types.BALL_RPY
    _nq = 3
    _nv = 3
    _position_suffixes = ("qx", "qy", "qz")
    _velocity_suffixes = ("wx", "wy", "wz")
    _can_rotate = True

    def __init__(self, name, frame_on_parent, frame_on_child, damping=0.0):
        super().__init__(name, frame_on_parent, frame_on_child)
        d = self._as_float(damping, "damping", "__init__")
        self._default_damping = self._checked_damping([d, d, d], "__init__")

    @classmethod
    def _checked(cls, name, frame_on_parent, frame_on_child, damping):
        """The joint of arguments a caller has checked (a non-empty str, two Frames, a float
        damping ≥ 0): the constructor's fields, in its order, without its checks."""
        joint = object.__new__(cls)
        joint._init_fields(name, frame_on_parent, frame_on_child)
        joint._default_damping = np.array([damping, damping, damping])
        return joint

    def default_damping(self):
        """The default damping coefficient d."""
        return float(self._default_damping[0])

    def get_angles(self, context):
        """(roll, pitch, yaw) in ``context``."""
        return self._positions(context, "get_angles")

    def set_angles(self, context, angles):
        """Sets (roll, pitch, yaw) in ``context``; returns this joint."""
        return self._set_positions(
            context, self._as_vector(angles, 3, "angles", "set_angles"), "set_angles"
        )

    def get_angular_velocity(self, context):
        """w_FM_F in ``context``."""
        return self._velocities(context, "get_angular_velocity")

    def set_angular_velocity(self, context, w_FM):
        """Sets w_FM_F in ``context``; returns this joint."""
        w_FM = self._as_vector(w_FM, 3, "w_FM", "set_angular_velocity")
        return self._set_velocities(context, w_FM, "set_angular_velocity")

    def get_default_angles(self):
        """The default (roll, pitch, yaw)."""
        return self._default_q.copy()

    def set_default_angles(self, angles):
        """Sets the default (roll, pitch, yaw)."""
        self._default_q = self._as_vector(angles, 3, "angles", "set_default_angles")

    def set_random_angles_distribution(self, angles):
        """Sets the random distribution of the 3 angles (3 Expressions of random Variables)
        that the plant's SetRandomState draws from (finalized plants only)."""
        method = "set_random_angles_distribution"
        self._set_random_positions(self._as_expressions(angles, 3, "angles", method), method)
