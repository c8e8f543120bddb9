"""SpatialForce: F_Bp_E = [tau; f], a torque and a force applied at a point Bp."""

from mallard.multibody.math._spatial_vector import SpatialVector, require
from mallard.multibody.math._spatial_velocity import SpatialVelocity


class SpatialForce(SpatialVector):
    """A spatial force [tau; f]: torque tau and force f applied at a point, expressed in E.

    Constructors: ``SpatialForce()`` (all NaN), ``SpatialForce(tau, f)`` with 3-vectors,
    ``SpatialForce(F)`` with a 6-vector [tau; f].
    """

    __module__ = "mallard.multibody.math"  # (its public path: pickles name it)

    __slots__ = ()
    _NAMES = ("tau", "f", "F")

    def Shift(self, offset):
        """F_Bq_E from this = F_Bp_E and offset = p_BpBq_E: [tau - p_BpBq_E × f; f]."""
        return self._shifted_moment(offset)

    def dot(self, velocity):
        """F_B_E ⋅ V_MB_E: the power of this force in frame M (both expressed in frame E)."""
        require(velocity, SpatialVelocity, "velocity")
        return self._dot(velocity)

    def __matmul__(self, other):
        """``F @ V``: the same as dot()."""
        if not isinstance(other, SpatialVelocity):
            return NotImplemented
        return self._dot(other)
