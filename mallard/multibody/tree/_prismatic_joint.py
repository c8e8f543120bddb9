"""PrismaticJoint: translation of M along an axis â fixed in F (â_F = â_M)."""

import numpy as np

from mallard.multibody import _joint_types
from mallard.multibody.tree._joint_axis import SQRT_EPSILON
from mallard.multibody.tree._single_dof_joint import LimitedSingleDofJoint


class PrismaticJoint(LimitedSingleDofJoint):
    """q = x, the translation of Mo along â (p_FoMo_F = x·â); v = ẋ. Damping f = −d·ẋ.
    The axis is normalized; it is zero if all |âᵢ| ≤ √ε."""

    kTypeName = "prismatic"
    _jtype = _joint_types.PRISMATIC
    _kind = "Prismatic"
    _axis_tolerance = SQRT_EPSILON
    _position_suffixes = ("x",)
    _velocity_suffixes = ("v",)
    _can_translate = True

    def __init__(
        self,
        name,
        frame_on_parent,
        frame_on_child,
        axis,
        pos_lower_limit=-np.inf,
        pos_upper_limit=np.inf,
        damping=0.0,
    ):
        super().__init__(
            name, frame_on_parent, frame_on_child, axis, damping, pos_lower_limit, pos_upper_limit
        )

    def translation_axis(self):
        """The unit axis â, expressed in F (and equally in M)."""
        return self._axis.copy()

    def get_translation(self, context):
        """x in ``context``."""
        return self._get_position(context, "get_translation")

    def set_translation(self, context, translation):
        """Sets x in ``context``; returns this joint."""
        return self._set_position(context, translation, "translation", "set_translation")

    def get_translation_rate(self, context):
        """ẋ in ``context``."""
        return self._get_velocity(context, "get_translation_rate")

    def set_translation_rate(self, context, translation_dot):
        """Sets ẋ in ``context``; returns this joint."""
        return self._set_velocity(
            context, translation_dot, "translation_dot", "set_translation_rate"
        )

    def get_default_translation(self):
        """The default x."""
        return float(self._default_q[0])

    def set_default_translation(self, translation):
        """Sets the default x."""
        self._set_default_position(translation, "translation", "set_default_translation")

    def set_random_translation_distribution(self, translation):
        """Sets the random distribution of x (an Expression of random Variables) that the
        plant's SetRandomState draws from (finalized plants only)."""
        method = "set_random_translation_distribution"
        x = self._as_expression(translation, "translation", method)
        self._set_random_positions([x], method)
