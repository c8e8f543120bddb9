"""RevoluteJoint: rotation of M about an axis â fixed in F (â_F = â_M) by an angle θ."""

import numpy as np

from mallard.multibody import _joint_types
from mallard.multibody.tree._joint_axis import unit_axis
from mallard.multibody.tree._single_dof_joint import SingleDofJoint


class RevoluteJoint(SingleDofJoint):
    """q = θ, the angle of M about â (right-hand rule); v = θ̇. Damping τ = −d·θ̇.

    Constructors: ``(name, frame_on_parent, frame_on_child, axis, damping=0)`` and
    ``(name, frame_on_parent, frame_on_child, axis, pos_lower_limit, pos_upper_limit,
    damping=0)``.
    """

    kTypeName = "revolute"
    _jtype = _joint_types.REVOLUTE
    _position_suffixes = ("q",)
    _velocity_suffixes = ("w",)
    _can_rotate = True

    def __init__(self, name, frame_on_parent, frame_on_child, axis, *args, **kwargs):
        limits, damping = _limits_and_damping("RevoluteJoint", args, kwargs)
        self._axis = unit_axis("RevoluteJoint", name, axis)
        super().__init__(
            name,
            frame_on_parent,
            frame_on_child,
            damping=[damping],
            pos_lower=[limits[0]],
            pos_upper=[limits[1]],
        )

    def revolute_axis(self):
        """The unit axis â, expressed in F (and equally in M)."""
        return self._axis.copy()

    def get_angle(self, context):
        """θ in ``context``."""
        return self._get_position(context, "get_angle")

    def set_angle(self, context, angle):
        """Sets θ in ``context``; returns this joint."""
        return self._set_positions(context, angle, "set_angle")

    def get_angular_rate(self, context):
        """θ̇ in ``context``."""
        return self._get_velocity(context, "get_angular_rate")

    def set_angular_rate(self, context, angle):
        """Sets θ̇ in ``context``; returns this joint."""
        return self._set_velocities(context, angle, "set_angular_rate")

    def get_default_angle(self):
        """The default θ."""
        return float(self._default_q[0])

    def set_default_angle(self, angle):
        """Sets the default θ."""
        self.set_default_positions([angle])

    def _jparam(self):
        return np.concatenate((self._axis, [0.0]))


def _limits_and_damping(cls_name, args, kwargs):
    """((lower, upper), damping) from ``(damping=0)`` or ``(lower, upper, damping=0)``."""
    names = (
        ("damping",)
        if len(args) + len(kwargs.keys() - {"damping"}) < 2
        else ("pos_lower_limit", "pos_upper_limit", "damping")
    )
    values = dict(zip(names, args, strict=False))
    if len(args) > len(names):
        raise TypeError(f"{cls_name}: too many arguments")
    for key, value in kwargs.items():
        if key not in names or key in values:
            raise TypeError(f"{cls_name}: unexpected argument {key!r}")
        values[key] = value
    limits = (values.get("pos_lower_limit", -np.inf), values.get("pos_upper_limit", np.inf))
    return tuple(float(x) for x in limits), float(values.get("damping", 0.0))
