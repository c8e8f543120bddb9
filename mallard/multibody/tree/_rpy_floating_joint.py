"""RpyFloatingJoint: 6-dof joint with the orientation as roll-pitch-yaw angles."""

from mallard.math import RollPitchYaw, RotationMatrix
from mallard.multibody import _joint_types
from mallard.multibody.tree._floating_joint import FloatingJoint


class RpyFloatingJoint(FloatingJoint):
    """q = (roll, pitch, yaw, p_FoMo_F) with R_FM = Rz(yaw)·Ry(pitch)·Rx(roll); v = (w_FM_F,
    v_FMo_F) (angular velocity, not angle rates). Singular at pitch = π/2 + kπ."""

    kTypeName = "rpy_floating"
    _jtype = _joint_types.RPY_FLOATING
    _nq = 6
    _nr = 3
    _position_suffixes = ("qx", "qy", "qz", "x", "y", "z")

    def _orientation_from_R(self, R_FM):
        return RollPitchYaw(RotationMatrix._make(R_FM)).vector()

    def _orientation_from_quaternion(self, q_FM):
        return RollPitchYaw(q_FM).vector()

    def _rotation(self, angles):
        return RollPitchYaw(angles)

    def _quaternion(self, angles):
        return RollPitchYaw(angles).ToQuaternion()

    def get_angles(self, context):
        """(roll, pitch, yaw) in ``context``."""
        return self._positions(context, "get_angles", 0, 3)

    def set_angles(self, context, angles):
        """Sets (roll, pitch, yaw) in ``context``; returns this joint."""
        return self._set_positions(
            context, self._as_vector(angles, 3, "angles", "set_angles"), "set_angles"
        )

    def SetOrientation(self, context, R_FM):
        """Sets the angles to those of the RotationMatrix R_FM; returns this joint."""
        return self._set_orientation(context, R_FM, "R_FM")

    def get_default_angles(self):
        """The default (roll, pitch, yaw)."""
        return self._default_q[:3].copy()

    def set_default_angles(self, angles):
        """Sets the default (roll, pitch, yaw)."""
        self._set_default_slice(0, self._as_vector(angles, 3, "angles", "set_default_angles"))

    def set_default_translation(self, p_FM):
        """Sets the default p_FoMo_F."""
        self._set_default_translation(p_FM, "p_FM")

    def set_random_angles_distribution(self, angles):
        """Sets the random distribution of (roll, pitch, yaw) (3 Expressions) that the plant's
        SetRandomState draws from; the translation keeps its distribution, or is zero if none
        was set (finalized plants only)."""
        method = "set_random_angles_distribution"
        self._set_random_positions(self._as_expressions(angles, 3, "angles", method), method)

    def set_random_translation_distribution(self, p_FM):
        """Sets the random distribution of p_FoMo_F (3 Expressions) that the plant's
        SetRandomState draws from; the angles keep their distribution, or are zero if none was
        set (finalized plants only)."""
        method = "set_random_translation_distribution"
        p_FM = self._as_expressions(p_FM, 3, "p_FM", method)
        self._set_random_positions(p_FM, method, start=3)
