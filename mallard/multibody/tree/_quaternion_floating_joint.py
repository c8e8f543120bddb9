"""QuaternionFloatingJoint: 6-dof joint with the orientation as a quaternion."""

import numpy as np

from mallard.common._quaternion import matrix_to_quaternion, quaternion_to_matrix
from mallard.common.eigen_geometry import Quaternion
from mallard.multibody import _joint_types
from mallard.multibody.tree._floating_joint import FloatingJoint


class QuaternionFloatingJoint(FloatingJoint):
    """q = (q_FM = [w, x, y, z], p_FoMo_F), 7 positions; v = (w_FM_F, v_FMo_F), 6 velocities.
    The zero configuration is q_FM = [1, 0, 0, 0], p_FM = 0."""

    kTypeName = "quaternion_floating"
    _jtype = _joint_types.QUATERNION_FLOATING
    _nq = 7
    _nr = 4
    _position_suffixes = ("qw", "qx", "qy", "qz", "x", "y", "z")

    def _zero_configuration(self):
        return np.array([1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])

    def _orientation_from_R(self, R_FM):
        return matrix_to_quaternion(R_FM)

    def _R_from_orientation(self, coords):
        q = np.asarray(coords)
        return quaternion_to_matrix(q, 2.0 / (q @ q))

    def get_quaternion(self, context):
        """q_FM in ``context`` (as stored: not normalized)."""
        return Quaternion._make(self._positions(context, "get_quaternion")[:4].copy())

    def SetQuaternion(self, context, q_FM):
        """Sets q_FM in ``context``; returns this joint."""
        if not isinstance(q_FM, Quaternion):
            raise TypeError(f"q_FM must be a Quaternion, got {type(q_FM).__name__}")
        q = self._positions(context, "SetQuaternion").copy()
        q[:4] = q_FM.wxyz()
        return self._set_positions(context, q, "SetQuaternion")

    def get_default_quaternion(self):
        """The default q_FM."""
        return Quaternion._make(self._default_q[:4].copy())

    def set_default_quaternion(self, q_FM):
        """Sets the default q_FM."""
        if not isinstance(q_FM, Quaternion):
            raise TypeError(f"q_FM must be a Quaternion, got {type(q_FM).__name__}")
        q = self._default_q.copy()
        q[:4] = q_FM.wxyz()
        self.set_default_positions(q)

    def _default_quaternion(self):
        return self.get_default_quaternion()
