"""What the two 6-dof joints (RpyFloatingJoint, QuaternionFloatingJoint) share.

v = (w_FM_F, v_FMo_F) for both; q is (orientation, p_FoMo_F) with the orientation three
roll-pitch-yaw angles or a quaternion [w, x, y, z]. Damping: an angular coefficient on the 3
angular velocities and a translational one on the 3 translational velocities.
"""

import numpy as np

from mallard.common.eigen_geometry import Quaternion
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.tree._joint import Joint


class FloatingJoint(Joint):
    """A 6-dof joint (abstract). Subclasses set ``_nr`` (the number of orientation
    coordinates) and convert between those coordinates and rotations:
    ``_orientation_from_R(R_FM)`` (a 3×3 array), ``_rotation(coords)`` and
    ``_quaternion(coords)`` (a RollPitchYaw or Quaternion, and a Quaternion), and
    ``_orientation_from_quaternion(q_FM)``."""

    _nv = 6
    _can_rotate = True
    _can_translate = True
    _velocity_suffixes = ("wx", "wy", "wz", "vx", "vy", "vz")

    def __init__(
        self, name, frame_on_parent, frame_on_child, angular_damping=0.0, translational_damping=0.0
    ):
        super().__init__(name, frame_on_parent, frame_on_child)
        da = self._as_float(angular_damping, "angular_damping", "__init__")
        dt = self._as_float(translational_damping, "translational_damping", "__init__")
        self._default_damping = self._checked_damping([da] * 3 + [dt] * 3, "__init__")

    def default_angular_damping(self):
        """The default angular damping coefficient."""
        return float(self._default_damping[0])

    def default_translational_damping(self):
        """The default translational damping coefficient."""
        return float(self._default_damping[3])

    # ---- state ---------------------------------------------------------------------------
    def get_translation(self, context):
        """p_FoMo_F in ``context``."""
        return self._positions(context, "get_translation", self._nr)

    def SetTranslation(self, context, p_FM):
        """Sets p_FoMo_F in ``context``; returns this joint."""
        p_FM = self._as_vector(p_FM, 3, "p_FM", "SetTranslation")
        return self._set_positions(context, p_FM, "SetTranslation", self._nr)

    def _set_orientation(self, context, R_FM, what):
        self._as_instance(R_FM, RotationMatrix, what, "SetOrientation")
        return self._set_positions(context, self._orientation_from_R(R_FM._R), "SetOrientation")

    def GetPose(self, context):
        """X_FM in ``context``."""
        q = self._positions(context, "GetPose")
        return RigidTransform(self._rotation(q[: self._nr]), q[self._nr :])

    def SetPose(self, context, X_FM):
        """Sets the positions to those of X_FM; returns this joint."""
        self._as_instance(X_FM, RigidTransform, "X_FM", "SetPose")
        q = np.concatenate((self._orientation_from_R(X_FM._R._R), X_FM.translation()))
        return self._set_positions(context, q, "SetPose")

    def get_angular_velocity(self, context):
        """w_FM_F in ``context``."""
        return self._velocities(context, "get_angular_velocity", 0, 3)

    def set_angular_velocity(self, context, w_FM):
        """Sets w_FM_F in ``context``; returns this joint."""
        w_FM = self._as_vector(w_FM, 3, "w_FM", "set_angular_velocity")
        return self._set_velocities(context, w_FM, "set_angular_velocity")

    def get_translational_velocity(self, context):
        """v_FMo_F in ``context``."""
        return self._velocities(context, "get_translational_velocity", 3)

    def set_translational_velocity(self, context, v_FM):
        """Sets v_FMo_F in ``context``; returns this joint."""
        v_FM = self._as_vector(v_FM, 3, "v_FM", "set_translational_velocity")
        return self._set_velocities(context, v_FM, "set_translational_velocity", 3)

    # ---- defaults ------------------------------------------------------------------------
    def get_default_translation(self):
        """The default p_FoMo_F."""
        return self._default_q[self._nr :].copy()

    def _set_default_translation(self, p_FM, what):
        p_FM = self._as_vector(p_FM, 3, what, "set_default_translation")
        self._set_default_slice(self._nr, p_FM)

    def GetDefaultPosePair(self):
        """(q_FM, p_FM): the default orientation as a Quaternion, and p_FoMo_F."""
        return self._quaternion(self._default_q[: self._nr]), self.get_default_translation()

    def SetDefaultPosePair(self, q_FM, p_FM):
        """Sets the default positions from a Quaternion q_FM and p_FoMo_F."""
        self._as_instance(q_FM, Quaternion, "q_FM", "SetDefaultPosePair")
        p_FM = self._as_vector(p_FM, 3, "p_FM", "SetDefaultPosePair")
        self._default_q = np.concatenate((self._orientation_from_quaternion(q_FM), p_FM))
