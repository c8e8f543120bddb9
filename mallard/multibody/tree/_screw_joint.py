"""ScrewJoint: rotation of M about an axis â fixed in F coupled to translation along it."""

import numpy as np

from mallard.multibody import _joint_types
from mallard.multibody.tree._joint_axis import unit_axis
from mallard.multibody.tree._single_dof_joint import SingleDofJoint

_TWO_PI = 2.0 * np.pi


class ScrewJoint(SingleDofJoint):
    """q = θ, the rotation about â; the translation along â is z = pitch·θ/(2π) (pitch in
    meters per revolution; negative pitch moves toward −â). v = θ̇. Damping τ = −d·θ̇.

    Constructors: ``(name, frame_on_parent, frame_on_child, screw_pitch, damping)`` (â = z)
    and ``(name, frame_on_parent, frame_on_child, axis, screw_pitch, damping)``.
    """

    kTypeName = "screw"
    _jtype = _joint_types.SCREW
    _position_suffixes = ("q",)
    _velocity_suffixes = ("w",)
    _can_rotate = True
    _can_translate = True

    def __init__(self, name, frame_on_parent, frame_on_child, *args, **kwargs):
        names = ("axis", "screw_pitch", "damping")
        if len(args) + len(kwargs) == 2 and "axis" not in kwargs:
            names = names[1:]
        values = dict(zip(names, args, strict=False))
        for key, value in kwargs.items():
            if key not in names or key in values:
                raise TypeError(f"ScrewJoint: unexpected argument {key!r}")
            values[key] = value
        if len(args) > len(names) or len(values) != len(names):
            raise TypeError(
                "ScrewJoint: expected (name, frame_on_parent, frame_on_child, [axis,] "
                "screw_pitch, damping)"
            )
        self._axis = unit_axis("ScrewJoint", name, values.get("axis", [0.0, 0.0, 1.0]))
        self._pitch = float(values["screw_pitch"])
        super().__init__(name, frame_on_parent, frame_on_child, damping=[values["damping"]])

    def screw_pitch(self):
        """Meters of translation along â per revolution."""
        return self._pitch

    def screw_axis(self):
        """The unit axis â, expressed in F (and equally in M)."""
        return self._axis.copy()

    def _translation_of(self, theta):
        return self._pitch * theta / _TWO_PI

    def _rotation_of(self, z):
        if abs(self._pitch) < np.finfo(float).eps:
            raise RuntimeError(
                f"{self._describe()}: the translation does not determine the rotation of a "
                "screw joint of zero pitch"
            )
        return z * _TWO_PI / self._pitch

    def get_rotation(self, context):
        """θ in ``context``."""
        return self._get_position(context, "get_rotation")

    def set_rotation(self, context, theta):
        """Sets θ in ``context``; returns this joint."""
        return self._set_positions(context, theta, "set_rotation")

    def get_translation(self, context):
        """z = pitch·θ/(2π) in ``context``."""
        return self._translation_of(self._get_position(context, "get_translation"))

    def set_translation(self, context, translation):
        """Sets θ so that the translation is ``translation``; returns this joint."""
        return self._set_positions(context, self._rotation_of(translation), "set_translation")

    def get_angular_velocity(self, context):
        """θ̇ in ``context``."""
        return self._get_velocity(context, "get_angular_velocity")

    def set_angular_velocity(self, context, theta_dot):
        """Sets θ̇ in ``context``; returns this joint."""
        return self._set_velocities(context, theta_dot, "set_angular_velocity")

    def get_translational_velocity(self, context):
        """ż = pitch·θ̇/(2π) in ``context``."""
        return self._translation_of(self._get_velocity(context, "get_translational_velocity"))

    def set_translational_velocity(self, context, translation_dot):
        """Sets θ̇ so that ż is ``translation_dot``; returns this joint."""
        theta_dot = self._rotation_of(translation_dot)
        return self._set_velocities(context, theta_dot, "set_translational_velocity")

    def get_default_rotation(self):
        """The default θ."""
        return float(self._default_q[0])

    def set_default_rotation(self, theta):
        """Sets the default θ (and so the default translation)."""
        self.set_default_positions([theta])

    def get_default_translation(self):
        """The default translation pitch·θ/(2π)."""
        return self._translation_of(float(self._default_q[0]))

    def set_default_translation(self, z):
        """Sets the default θ so that the default translation is ``z``."""
        self.set_default_positions([self._rotation_of(z)])

    def _jparam(self):
        return np.concatenate((self._axis, [self._pitch]))
