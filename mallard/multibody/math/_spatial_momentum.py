"""SpatialMomentum: L_MSP_E = [h; l] of a system S measured in M, about a point P."""

from mallard.multibody.math._spatial_vector import SpatialVector, require
from mallard.multibody.math._spatial_velocity import SpatialVelocity


class SpatialMomentum(SpatialVector):
    """A spatial momentum [h; l]: angular momentum h about a point P, translational momentum l.

    Constructors: ``SpatialMomentum()`` (all NaN), ``SpatialMomentum(h, l)`` with 3-vectors,
    ``SpatialMomentum(L)`` with a 6-vector [h; l].
    """

    __module__ = "mallard.multibody.math"  # (its public path: pickles name it)

    __slots__ = ()
    _NAMES = ("h", "l", "L")

    def Shift(self, offset):
        """L_MSQ_E from this = L_MSP_E and offset = p_PQ_E: [h - p_PQ_E × l; l]."""
        return self._shifted_moment(offset)

    def dot(self, velocity):
        """L_MBp_E ⋅ V_MBp_E: twice body B's kinetic energy in frame M (both expressed in E)."""
        require(velocity, SpatialVelocity, "velocity")
        return self._dot(velocity)

    def __matmul__(self, other):
        """``L @ V``: the same as dot()."""
        if not isinstance(other, SpatialVelocity):
            return NotImplemented
        return self._dot(other)
