"""SpatialVelocity: V_MB_E = [w_MB_E; v_MBo_E] of a frame B measured in a frame M."""

import numpy as np

from mallard.multibody.math._spatial_vector import SpatialVector, cross, require, vector3


class SpatialVelocity(SpatialVector):
    """A frame's spatial velocity [w; v]: angular velocity w, translational velocity v.

    Constructors: ``SpatialVelocity()`` (all NaN), ``SpatialVelocity(w, v)`` with 3-vectors,
    ``SpatialVelocity(V)`` with a 6-vector [w; v].
    """

    __module__ = "mallard.multibody.math"  # (its public path: pickles name it)

    __slots__ = ()
    _NAMES = ("w", "v", "V")

    def Shift(self, offset):
        """V_MC_E of a frame C fixed to B, offset = p_BoCo_E: [w; v + w × p_BoCo_E]."""
        p_BoCo_E = vector3(offset, "offset")
        c = self._c
        return self._make(np.concatenate((c[:3], c[3:] + cross(c[:3], p_BoCo_E))))

    def ComposeWithMovingFrameVelocity(self, position_of_moving_frame, velocity_of_moving_frame):
        """V_MC_E from this = V_MB_E, p_BoCo_E and V_BC_E (frame C moving on frame B).

        w_MC_E = w_MB_E + w_BC_E;  v_MCo_E = v_MBo_E + w_MB_E × p_BoCo_E + v_BCo_E.
        """
        p_BoCo_E = vector3(position_of_moving_frame, "position_of_moving_frame")
        require(velocity_of_moving_frame, SpatialVelocity, "velocity_of_moving_frame")
        c = self._c
        shift = np.concatenate((np.zeros(3), cross(c[:3], p_BoCo_E)))
        return self._make(c + shift + velocity_of_moving_frame._c)

    def dot(self, other=None, /, *, force=None, momentum=None):
        """V_MB_E ⋅ F_B_E, the power of a spatial ``force`` in M, or V_MBp_E ⋅ L_MBp_E, twice
        the kinetic energy for a spatial ``momentum``; both operands expressed in frame E."""
        from mallard.multibody.math._spatial_force import SpatialForce
        from mallard.multibody.math._spatial_momentum import SpatialMomentum

        given = [
            (n, x)
            for n, x in (("argument", other), ("force", force), ("momentum", momentum))
            if x is not None
        ]
        if len(given) != 1:
            raise TypeError("dot() takes exactly one SpatialForce or SpatialMomentum")
        name, x = given[0]
        allowed = {"force": SpatialForce, "momentum": SpatialMomentum}
        require(x, allowed.get(name, (SpatialForce, SpatialMomentum)), name)
        return self._dot(x)

    def __matmul__(self, other):
        """``V @ F`` or ``V @ L``: the same as dot()."""
        try:
            return self.dot(other)
        except TypeError:
            return NotImplemented
