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

    def _R_from_orientation(self, coords):
        return RotationMatrix(RollPitchYaw(coords))._R

    def get_angles(self, context):
        """(roll, pitch, yaw) in ``context``."""
        return self._positions(context, "get_angles")[:3].copy()

    def set_angles(self, context, angles):
        """Sets (roll, pitch, yaw) in ``context``; returns this joint."""
        q = self._positions(context, "set_angles").copy()
        q[:3] = self._sized(angles, "angles", 3)
        return self._set_positions(context, q, "set_angles")

    def get_default_angles(self):
        """The default (roll, pitch, yaw)."""
        return self._default_q[:3].copy()

    def set_default_angles(self, angles):
        """Sets the default (roll, pitch, yaw)."""
        q = self._default_q.copy()
        q[:3] = self._sized(angles, "angles", 3)
        self.set_default_positions(q)
