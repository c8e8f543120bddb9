"""What the one-dof joints (revolute, prismatic, screw) share: scalar limits and damping."""

from mallard.multibody.tree._joint import Joint


class SingleDofJoint(Joint):
    """A joint with one position and one velocity (abstract)."""

    _nq = 1
    _nv = 1

    def _get_position(self, context, method):
        return float(self._positions(context, method)[0])

    def _get_velocity(self, context, method):
        return float(self._velocities(context, method)[0])

    def position_lower_limit(self):
        return float(self._pos_lower[0])

    def position_upper_limit(self):
        return float(self._pos_upper[0])

    def velocity_lower_limit(self):
        return float(self._vel_lower[0])

    def velocity_upper_limit(self):
        return float(self._vel_upper[0])

    def acceleration_lower_limit(self):
        return float(self._acc_lower[0])

    def acceleration_upper_limit(self):
        return float(self._acc_upper[0])

    def default_damping(self):
        """The default damping coefficient d."""
        return float(self._default_damping[0])

    def set_default_damping(self, damping):
        """Sets the default damping coefficient (non-negative); only before Finalize()."""
        self.set_default_damping_vector([damping])

    def GetDamping(self, context):
        """The damping coefficient in ``context``."""
        return float(self.GetDampingVector(context)[0])

    def SetDamping(self, context, damping):
        """Sets the damping coefficient in ``context`` (non-negative)."""
        self.SetDampingVector(context, [damping])
