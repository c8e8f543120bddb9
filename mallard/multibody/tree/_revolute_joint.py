"""RevoluteJoint: rotation of M about an axis â fixed in F (â_F = â_M) by an angle θ."""

from mallard.common._pybind import overloads
from mallard.multibody import _joint_types
from mallard.multibody.tree._single_dof_joint import LimitedSingleDofJoint, bind_overloads

_FRAMES_AND_AXIS = ("name", "frame_on_parent", "frame_on_child", "axis")
_OVERLOADS = (
    (_FRAMES_AND_AXIS + ("damping",), {"damping": 0.0}),
    (_FRAMES_AND_AXIS + ("pos_lower_limit", "pos_upper_limit", "damping"), {"damping": 0.0}),
)


class RevoluteJoint(LimitedSingleDofJoint):
    """q = θ, the angle of M about â (right-hand rule); v = θ̇. Damping τ = −d·θ̇.

    Constructors: ``(name, frame_on_parent, frame_on_child, axis, damping=0)`` and
    ``(name, frame_on_parent, frame_on_child, axis, pos_lower_limit, pos_upper_limit,
    damping=0)``. The axis is normalized; it is zero if all |âᵢ| ≤ ε.
    """

    kTypeName = "revolute"
    _jtype = _joint_types.REVOLUTE
    _kind = "Revolute"
    _position_suffixes = ("q",)
    _velocity_suffixes = ("w",)
    _can_rotate = True

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        values = bind_overloads("RevoluteJoint", _OVERLOADS, args, kwargs)
        name, frame_on_parent, frame_on_child, axis, *limits, damping = values
        super().__init__(name, frame_on_parent, frame_on_child, axis, damping, *limits)

    def revolute_axis(self):
        """The unit axis â, expressed in F (and equally in M)."""
        return self._axis.copy()

    def get_angle(self, context):
        """θ in ``context``."""
        return self._get_position(context, "get_angle")

    def set_angle(self, context, angle):
        """Sets θ in ``context``; returns this joint."""
        return self._set_position(context, angle, "angle", "set_angle")

    def get_angular_rate(self, context):
        """θ̇ in ``context``."""
        return self._get_velocity(context, "get_angular_rate")

    def set_angular_rate(self, context, angle):
        """Sets θ̇ in ``context`` (the parameter is named ``angle`` as in pydrake); returns
        this joint."""
        return self._set_velocity(context, angle, "angle", "set_angular_rate")

    def get_default_angle(self):
        """The default θ."""
        return float(self._default_q[0])

    def set_default_angle(self, angle):
        """Sets the default θ."""
        self._set_default_position(angle, "angle", "set_default_angle")

    def set_random_angle_distribution(self, angle):
        """Sets the random distribution of θ (an Expression of random Variables) that the
        plant's SetRandomState draws from (finalized plants only)."""
        method = "set_random_angle_distribution"
        self._set_random_positions([self._as_expression(angle, "angle", method)], method)
