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
    """A 6-dof joint (abstract). Subclasses set ``_nr`` (positions of the orientation) and
    define ``_orientation_from_R(R_FM)`` and ``_R_from_orientation(coords)``, converting
    between their orientation coordinates and 3x3 rotation matrices."""

    _nv = 6
    _can_rotate = True
    _can_translate = True
    _velocity_suffixes = ("wx", "wy", "wz", "vx", "vy", "vz")

    def __init__(
        self, name, frame_on_parent, frame_on_child, angular_damping=0.0, translational_damping=0.0
    ):
        damping = [angular_damping] * 3 + [translational_damping] * 3
        super().__init__(name, frame_on_parent, frame_on_child, damping=damping)

    def default_angular_damping(self):
        """The default angular damping coefficient."""
        return float(self._default_damping[0])

    def default_translational_damping(self):
        """The default translational damping coefficient."""
        return float(self._default_damping[3])

    # ---- state ---------------------------------------------------------------------------
    def get_translation(self, context):
        """p_FoMo_F in ``context``."""
        return self._positions(context, "get_translation")[self._nr :].copy()

    def SetTranslation(self, context, p_FM):
        """Sets p_FoMo_F in ``context``; returns this joint."""
        q = self._positions(context, "SetTranslation").copy()
        q[self._nr :] = self._sized(p_FM, "p_FM", 3)
        return self._set_positions(context, q, "SetTranslation")

    def SetOrientation(self, context, R):
        """Sets the orientation to that of R_FM (a RotationMatrix); returns this joint."""
        if not isinstance(R, RotationMatrix):
            raise TypeError(f"R must be a RotationMatrix, got {type(R).__name__}")
        q = self._positions(context, "SetOrientation").copy()
        q[: self._nr] = self._orientation_from_R(R._R)
        return self._set_positions(context, q, "SetOrientation")

    def GetPose(self, context):
        """X_FM in ``context``."""
        q = self._positions(context, "GetPose")
        return RigidTransform._make(self._R_from_orientation(q[: self._nr]), q[self._nr :].copy())

    def SetPose(self, context, X_FM):
        """Sets the positions to those of X_FM; returns this joint."""
        if not isinstance(X_FM, RigidTransform):
            raise TypeError(f"X_FM must be a RigidTransform, got {type(X_FM).__name__}")
        q = np.concatenate((self._orientation_from_R(X_FM._R._R), X_FM._p))
        return self._set_positions(context, q, "SetPose")

    def get_angular_velocity(self, context):
        """w_FM_F in ``context``."""
        return self._velocities(context, "get_angular_velocity")[:3].copy()

    def set_angular_velocity(self, context, w_FM):
        """Sets w_FM_F in ``context``; returns this joint."""
        v = self._velocities(context, "set_angular_velocity").copy()
        v[:3] = self._sized(w_FM, "w_FM", 3)
        return self._set_velocities(context, v, "set_angular_velocity")

    def get_translational_velocity(self, context):
        """v_FMo_F in ``context``."""
        return self._velocities(context, "get_translational_velocity")[3:].copy()

    def set_translational_velocity(self, context, v_FM):
        """Sets v_FMo_F in ``context``; returns this joint."""
        v = self._velocities(context, "set_translational_velocity").copy()
        v[3:] = self._sized(v_FM, "v_FM", 3)
        return self._set_velocities(context, v, "set_translational_velocity")

    # ---- defaults ------------------------------------------------------------------------
    def get_default_translation(self):
        """The default p_FoMo_F."""
        return self._default_q[self._nr :].copy()

    def set_default_translation(self, translation):
        """Sets the default p_FoMo_F."""
        q = self._default_q.copy()
        q[self._nr :] = self._sized(translation, "translation", 3)
        self.set_default_positions(q)

    def GetDefaultPose(self):
        """X_FM of the default positions."""
        q = self._default_q
        return RigidTransform._make(self._R_from_orientation(q[: self._nr]), q[self._nr :].copy())

    def SetDefaultPose(self, X_FM):
        """Sets the default positions to those of X_FM."""
        if not isinstance(X_FM, RigidTransform):
            raise TypeError(f"X_FM must be a RigidTransform, got {type(X_FM).__name__}")
        self.set_default_positions(np.concatenate((self._orientation_from_R(X_FM._R._R), X_FM._p)))

    def GetDefaultPosePair(self):
        """(q_FM, p_FM): the default orientation as a Quaternion, and p_FoMo_F."""
        q = self._default_q
        return self._default_quaternion(), q[self._nr :].copy()

    def SetDefaultPosePair(self, q_FM, p_FM):
        """Sets the default positions from a Quaternion q_FM and p_FoMo_F."""
        if not isinstance(q_FM, Quaternion):
            raise TypeError(f"q_FM must be a Quaternion, got {type(q_FM).__name__}")
        self.SetDefaultPose(RigidTransform(q_FM, p_FM))

    def _default_quaternion(self):
        return RotationMatrix._make(
            self._R_from_orientation(self._default_q[: self._nr])
        ).ToQuaternion()
