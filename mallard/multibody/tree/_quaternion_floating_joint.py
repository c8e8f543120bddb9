"""QuaternionFloatingJoint: 6-dof joint with the orientation as a quaternion."""

import numpy as np

from mallard.common.eigen_geometry import Quaternion
from mallard.math import RotationMatrix
from mallard.math._random_rotation import shoemake_wxyz
from mallard.multibody import _joint_types
from mallard.multibody.tree._floating_joint import FloatingJoint


class QuaternionFloatingJoint(FloatingJoint):
    """q = (q_FM = [w, x, y, z], p_FoMo_F), 7 positions; v = (w_FM_F, v_FMo_F), 6 velocities.
    The zero configuration is q_FM = [1, 0, 0, 0], p_FM = 0. Quaternions are stored as given
    (not normalized); a rotation is stored as its canonical unit quaternion (w ≥ 0)."""

    kTypeName = "quaternion_floating"
    _jtype = _joint_types.QUATERNION_FLOATING
    _nq = 7
    _nr = 4
    _position_suffixes = ("qw", "qx", "qy", "qz", "x", "y", "z")

    def _zero_configuration(self):
        return np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])

    def _orientation_from_R(self, R_FM):
        return RotationMatrix._make(R_FM).ToQuaternion().wxyz()

    def _orientation_from_quaternion(self, q_FM):
        return q_FM.wxyz()

    def _rotation(self, wxyz):
        return Quaternion._make(wxyz.copy())

    _quaternion = _rotation

    def get_quaternion(self, context):
        """q_FM in ``context`` (as stored: not normalized)."""
        return self._rotation(self._positions(context, "get_quaternion", 0, 4))

    def SetQuaternion(self, context, q_FM):
        """Sets q_FM in ``context``; returns this joint."""
        self._as_instance(q_FM, Quaternion, "q_FM", "SetQuaternion")
        return self._set_positions(context, q_FM.wxyz(), "SetQuaternion")

    def SetOrientation(self, context, R):
        """Sets q_FM to the unit quaternion of the RotationMatrix R; returns this joint."""
        return self._set_orientation(context, R, "R")

    def get_default_quaternion(self):
        """The default q_FM (as stored)."""
        return self._rotation(self._default_q[:4])

    def set_default_quaternion(self, q_FM):
        """Sets the default q_FM."""
        self._as_instance(q_FM, Quaternion, "q_FM", "set_default_quaternion")
        self._set_default_slice(0, q_FM.wxyz())

    def set_default_translation(self, translation):
        """Sets the default p_FoMo_F."""
        self._set_default_translation(translation, "translation")

    def set_random_quaternion_distribution(self, q_FM):
        """Sets the random distribution of q_FM (a Quaternion of Expressions) that the plant's
        SetRandomState draws from; the translation keeps its distribution, or is zero if none
        was set (finalized plants only)."""
        method = "set_random_quaternion_distribution"
        self._as_instance(q_FM, Quaternion, "q_FM", method)
        wxyz = self._as_expressions(q_FM.wxyz(), 4, "q_FM", method)
        self._set_random_positions(wxyz, method)

    def set_random_quaternion_distribution_to_uniform(self):
        """Sets the random distribution of q_FM to uniformly random rotations (Shoemake's
        method on three RANDOM_UNIFORM Variables)."""
        from mallard.symbolic import Expression, Variable

        u = [Expression(Variable(f"u{i}", Variable.Type.RANDOM_UNIFORM)) for i in (1, 2, 3)]
        method = "set_random_quaternion_distribution_to_uniform"
        self._set_random_positions(shoemake_wxyz(*u), method)

    def set_random_translation_distribution(self, translation):
        """Sets the random distribution of p_FoMo_F (3 Expressions) that the plant's
        SetRandomState draws from; the quaternion keeps its distribution, or is [1, 0, 0, 0]
        if none was set (finalized plants only)."""
        method = "set_random_translation_distribution"
        p_FM = self._as_expressions(translation, 3, "translation", method)
        self._set_random_positions(p_FM, method, start=4)
