"""PlanarJoint: translation in the x-y plane of F and rotation about Fz (Mz = Fz)."""

import numpy as np

from mallard._scalar import as_scalar
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
        super().__init__(name, frame_on_parent, frame_on_child)
        d = self._as_vector(damping, 3, "damping", "__init__")
        self._default_damping = self._checked_damping(d, "__init__")

    def default_damping(self):
        """The default damping 3-vector."""
        return self._default_damping.copy()

    def _p(self, p_FoMo_F, method, what="p_FoMo_F"):
        return self._as_vector(p_FoMo_F, 2, what, method)

    def get_translation(self, context):
        """p_FoMo_F = (x, y) in ``context``."""
        return self._positions(context, "get_translation", 0, 2)

    def set_translation(self, context, p_FoMo_F):
        """Sets (x, y) in ``context``; returns this joint."""
        return self._set_positions(context, self._p(p_FoMo_F, "set_translation"), "set_translation")

    def get_rotation(self, context):
        """θ in ``context``."""
        return as_scalar(self._positions(context, "get_rotation", 2)[0])

    def set_rotation(self, context, theta):
        """Sets θ in ``context``; returns this joint."""
        theta = self._as_float(theta, "theta", "set_rotation")
        return self._set_positions(context, theta, "set_rotation", 2)

    def set_pose(self, context, p_FoMo_F, theta):
        """Sets (x, y) and θ in ``context``; returns this joint."""
        q = np.append(self._p(p_FoMo_F, "set_pose"), self._as_float(theta, "theta", "set_pose"))
        return self._set_positions(context, q, "set_pose")

    def get_translational_velocity(self, context):
        """v_FoMo_F = (ẋ, ẏ) in ``context``."""
        return self._velocities(context, "get_translational_velocity", 0, 2)

    def set_translational_velocity(self, context, v_FoMo_F):
        """Sets (ẋ, ẏ) in ``context``; returns this joint."""
        method = "set_translational_velocity"
        return self._set_velocities(context, self._p(v_FoMo_F, method, "v_FoMo_F"), method)

    def get_angular_velocity(self, context):
        """θ̇ in ``context``."""
        return as_scalar(self._velocities(context, "get_angular_velocity", 2)[0])

    def set_angular_velocity(self, context, theta_dot):
        """Sets θ̇ in ``context``; returns this joint."""
        theta_dot = self._as_float(theta_dot, "theta_dot", "set_angular_velocity")
        return self._set_velocities(context, theta_dot, "set_angular_velocity", 2)

    def get_default_translation(self):
        """The default (x, y)."""
        return self._default_q[:2].copy()

    def set_default_translation(self, p_FoMo_F):
        """Sets the default (x, y)."""
        self._set_default_slice(0, self._p(p_FoMo_F, "set_default_translation"))

    def get_default_rotation(self):
        """The default θ."""
        return float(self._default_q[2])

    def set_default_rotation(self, theta):
        """Sets the default θ."""
        self._set_default_slice(2, self._as_float(theta, "theta", "set_default_rotation"))

    def set_default_pose(self, p_FoMo_F, theta):
        """Sets the default (x, y) and θ."""
        p = self._p(p_FoMo_F, "set_default_pose")
        self._default_q = np.append(p, self._as_float(theta, "theta", "set_default_pose"))

    def set_random_pose_distribution(self, p_FoMo_F, theta):
        """Sets the random distribution of (x, y) = p_FoMo_F (2 Expressions) and θ (an
        Expression) that the plant's SetRandomState draws from (finalized plants only)."""
        method = "set_random_pose_distribution"
        p = self._as_expressions(p_FoMo_F, 2, "p_FoMo_F", method)
        theta = self._as_expression(theta, "theta", method)
        self._set_random_positions([p[0], p[1], theta], method)
