"""PlanarJoint: translation in the x-y plane of F and rotation about Fz (Mz = Fz)."""

import numpy as np

from mallard.multibody import _joint_types
from mallard.multibody.tree._joint import Joint


class PlanarJoint(Joint):
    """q = (x, y, θ): p_FoMo_F = (x, y, 0), R_FM = Rz(θ); v = (ẋ, ẏ, θ̇). Damping is a
    3-vector d: forces −d₀·ẋ, −d₁·ẏ on B at Mo in F and torque −d₂·θ̇ about Fz."""

    kTypeName = "planar"
    _jtype = _joint_types.PLANAR
    _nq = 3
    _nv = 3
    _position_suffixes = ("x", "y", "qz")
    _velocity_suffixes = ("vx", "vy", "wz")
    _can_rotate = True
    _can_translate = True

    def __init__(self, name, frame_on_parent, frame_on_child, damping=(0.0, 0.0, 0.0)):
        super().__init__(name, frame_on_parent, frame_on_child, damping=damping)

    def default_damping(self):
        """The default damping 3-vector."""
        return self._default_damping.copy()

    def get_translation(self, context):
        """p_FoMo_F = (x, y) in ``context``."""
        return self._positions(context, "get_translation")[:2].copy()

    def set_translation(self, context, p_FoMo_F):
        """Sets (x, y) in ``context``; returns this joint."""
        q = self._positions(context, "set_translation")
        return self._set_positions(
            context,
            np.concatenate((self._sized(p_FoMo_F, "p_FoMo_F", 2), q[2:])),
            "set_translation",
        )

    def get_rotation(self, context):
        """θ in ``context``."""
        return float(self._positions(context, "get_rotation")[2])

    def set_rotation(self, context, theta):
        """Sets θ in ``context``; returns this joint."""
        q = self._positions(context, "set_rotation")
        return self._set_positions(context, [q[0], q[1], theta], "set_rotation")

    def set_pose(self, context, p_FoMo_F, theta):
        """Sets (x, y) and θ in ``context``; returns this joint."""
        p = self._sized(p_FoMo_F, "p_FoMo_F", 2)
        return self._set_positions(context, [p[0], p[1], theta], "set_pose")

    def get_translational_velocity(self, context):
        """v_FoMo_F = (ẋ, ẏ) in ``context``."""
        return self._velocities(context, "get_translational_velocity")[:2].copy()

    def set_translational_velocity(self, context, v_FoMo_F):
        """Sets (ẋ, ẏ) in ``context``; returns this joint."""
        v = self._velocities(context, "set_translational_velocity")
        return self._set_velocities(
            context,
            np.concatenate((self._sized(v_FoMo_F, "v_FoMo_F", 2), v[2:])),
            "set_translational_velocity",
        )

    def get_angular_velocity(self, context):
        """θ̇ in ``context``."""
        return float(self._velocities(context, "get_angular_velocity")[2])

    def set_angular_velocity(self, context, theta_dot):
        """Sets θ̇ in ``context``; returns this joint."""
        v = self._velocities(context, "set_angular_velocity")
        return self._set_velocities(context, [v[0], v[1], theta_dot], "set_angular_velocity")

    def get_default_translation(self):
        """The default (x, y)."""
        return self._default_q[:2].copy()

    def set_default_translation(self, p_FoMo_F):
        """Sets the default (x, y)."""
        p = self._sized(p_FoMo_F, "p_FoMo_F", 2)
        self.set_default_positions([p[0], p[1], self._default_q[2]])

    def get_default_rotation(self):
        """The default θ."""
        return float(self._default_q[2])

    def set_default_rotation(self, theta):
        """Sets the default θ."""
        self.set_default_positions([self._default_q[0], self._default_q[1], theta])

    def set_default_pose(self, p_FoMo_F, theta):
        """Sets the default (x, y) and θ."""
        p = self._sized(p_FoMo_F, "p_FoMo_F", 2)
        self.set_default_positions([p[0], p[1], theta])
