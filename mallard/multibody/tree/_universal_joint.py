"""UniversalJoint: two rotations, about Fx and then about the intermediate y axis."""

from mallard.multibody import _joint_types
from mallard.multibody.tree._joint import Joint


class UniversalJoint(Joint):
    """q = (θ₁, θ₂): R_FM = Rx(θ₁)·Ry(θ₂), the origins Fo and Mo coincide; v = (θ̇₁, θ̇₂).
    Damping τᵢ = −d·θ̇ᵢ with one coefficient d for both."""

    kTypeName = "universal"
    _jtype = _joint_types.UNIVERSAL
    _nq = 2
    _nv = 2
    _position_suffixes = ("qx", "qy")
    _velocity_suffixes = ("wx", "wy")
    _can_rotate = True

    def __init__(self, name, frame_on_parent, frame_on_child, damping=0.0):
        super().__init__(name, frame_on_parent, frame_on_child)
        d = self._as_float(damping, "damping", "__init__")
        self._default_damping = self._checked_damping([d, d], "__init__")

    def default_damping(self):
        """The default damping coefficient d."""
        return float(self._default_damping[0])

    def get_angles(self, context):
        """(θ₁, θ₂) in ``context``."""
        return self._positions(context, "get_angles")

    def set_angles(self, context, angles):
        """Sets (θ₁, θ₂) in ``context``; returns this joint."""
        return self._set_positions(
            context, self._as_vector(angles, 2, "angles", "set_angles"), "set_angles"
        )

    def get_angular_rates(self, context):
        """(θ̇₁, θ̇₂) in ``context``."""
        return self._velocities(context, "get_angular_rates")

    def set_angular_rates(self, context, theta_dot):
        """Sets (θ̇₁, θ̇₂) in ``context``; returns this joint."""
        theta_dot = self._as_vector(theta_dot, 2, "theta_dot", "set_angular_rates")
        return self._set_velocities(context, theta_dot, "set_angular_rates")

    def get_default_angles(self):
        """The default (θ₁, θ₂)."""
        return self._default_q.copy()

    def set_default_angles(self, angles):
        """Sets the default (θ₁, θ₂)."""
        self._default_q = self._as_vector(angles, 2, "angles", "set_default_angles")

    def set_random_angles_distribution(self, angles):
        """Sets the random distribution of the 2 angles (2 Expressions of random Variables)
        that the plant's SetRandomState draws from (finalized plants only)."""
        method = "set_random_angles_distribution"
        self._set_random_positions(self._as_expressions(angles, 2, "angles", method), method)
