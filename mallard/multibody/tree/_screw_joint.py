"""ScrewJoint: rotation of M about an axis â fixed in F coupled to translation along it."""

import numpy as np

from mallard.common._pybind import overloads
from mallard.multibody import _joint_types
from mallard.multibody.tree._joint_axis import SQRT_EPSILON
from mallard.multibody.tree._single_dof_joint import SingleDofJoint, bind_overloads

_FRAMES = ("name", "frame_on_parent", "frame_on_child")
_OVERLOADS = (
    (_FRAMES + ("screw_pitch", "damping"), {}),
    (_FRAMES + ("axis", "screw_pitch", "damping"), {}),
)


class ScrewJoint(SingleDofJoint):
    """q = θ, the rotation about â; the translation along â is z = pitch·θ/(2π) (pitch in
    meters per revolution; negative pitch moves toward −â). v = θ̇. Damping τ = −d·θ̇.

    Constructors: ``(name, frame_on_parent, frame_on_child, screw_pitch, damping)`` (â = z)
    and ``(name, frame_on_parent, frame_on_child, axis, screw_pitch, damping)``.
    """

    kTypeName = "screw"
    _jtype = _joint_types.SCREW
    _kind = "Screw"
    _position_suffixes = ("q",)
    _velocity_suffixes = ("w",)
    _can_rotate = True
    _can_translate = True

    @overloads(lambda: _OVERLOADS)
    def __init__(self, *args, **kwargs):
        values = bind_overloads("ScrewJoint", _OVERLOADS, args, kwargs)
        name, frame_on_parent, frame_on_child, *axis, screw_pitch, damping = values
        super().__init__(name, frame_on_parent, frame_on_child, (axis or [[0, 0, 1]])[0], damping)
        self._pitch = self._as_float(screw_pitch, "screw_pitch", "__init__")

    def screw_pitch(self):
        """Meters of translation along â per revolution."""
        return self._pitch

    # z = pitch·(θ/2π) and θ = (z/pitch)·2π, evaluated as Drake evaluates them.
    def _translation_of(self, theta):
        return self._pitch * (theta / (2 * np.pi))

    def _rotation_of(self, z, current, what, method):
        """θ with translation z, or ``current`` when the pitch is 0 and z is (near) 0, since
        every θ gives no translation then. RuntimeError if the pitch is within √ε of 0 and z
        is not."""
        z = self._as_float(z, what, method)
        if not (abs(self._pitch) > SQRT_EPSILON or abs(z) < SQRT_EPSILON):
            raise self._error(
                method,
                f"cannot produce the translation {z!r} with a screw pitch of {self._pitch!r} "
                "(too near zero)",
            )
        return current if self._pitch == 0 else (z / self._pitch) * 2 * np.pi

    def get_rotation(self, context):
        """θ in ``context``."""
        return self._get_position(context, "get_rotation")

    def get_translation(self, context):
        """z = pitch·θ/(2π) in ``context``."""
        return self._translation_of(self._get_position(context, "get_translation"))

    def set_translation(self, context, translation):
        """Sets θ so that the translation is ``translation``; returns this joint."""
        theta = self._get_position(context, "set_translation")
        theta = self._rotation_of(translation, theta, "translation", "set_translation")
        return self._set_positions(context, theta, "set_translation")

    def get_angular_velocity(self, context):
        """θ̇ in ``context``."""
        return self._get_velocity(context, "get_angular_velocity")

    def set_angular_velocity(self, context, theta_dot):
        """Sets θ̇ in ``context``; returns this joint."""
        return self._set_velocity(context, theta_dot, "theta_dot", "set_angular_velocity")

    def get_translational_velocity(self, context):
        """ż = pitch·θ̇/(2π) in ``context``."""
        return self._translation_of(self._get_velocity(context, "get_translational_velocity"))

    def set_translational_velocity(self, context, translation_dot):
        """Sets θ̇ so that ż is ``translation_dot``; returns this joint."""
        method = "set_translational_velocity"
        theta_dot = self._get_velocity(context, method)
        theta_dot = self._rotation_of(translation_dot, theta_dot, "translation_dot", method)
        return self._set_velocities(context, theta_dot, method)

    def get_default_rotation(self):
        """The default θ."""
        return float(self._default_q[0])

    def set_default_rotation(self, theta):
        """Sets the default θ (and so the default translation)."""
        self._set_default_position(theta, "theta", "set_default_rotation")

    def get_default_translation(self):
        """The default translation pitch·θ/(2π)."""
        return self._translation_of(float(self._default_q[0]))

    def set_default_translation(self, z):
        """Sets the default θ so that the default translation is ``z``."""
        theta = self._rotation_of(z, self._default_q[0], "z", "set_default_translation")
        self._default_q = np.array([theta])

    def set_random_pose_distribution(self, theta):
        """Sets the random distribution of θ (a vector of one Expression; the translation
        follows θ) that the plant's SetRandomState draws from (finalized plants only)."""
        method = "set_random_pose_distribution"
        self._set_random_positions(self._as_expressions(theta, 1, "theta", method), method)
