"""SpatialAcceleration: A_MB_E = [alpha_MB_E; a_MBo_E] of a frame B measured in a frame M."""

import numpy as np

from mallard.multibody.math._spatial_vector import SpatialVector, cross, require, vector3
from mallard.multibody.math._spatial_velocity import SpatialVelocity


class SpatialAcceleration(SpatialVector):
    """A frame's spatial acceleration [alpha; a]: angular alpha, translational a.

    Constructors: ``SpatialAcceleration()`` (all NaN), ``SpatialAcceleration(alpha, a)`` with
    3-vectors, ``SpatialAcceleration(A)`` with a 6-vector [alpha; a].
    """

    __module__ = "mallard.multibody.math"  # (its public path: pickles name it)

    __slots__ = ()
    _NAMES = ("alpha", "a", "A")

    def Shift(self, offset, angular_velocity_of_this_frame):
        """A_MC_E of a frame C fixed to B, from this = A_MB_E, offset = p_BoCo_E and w_MB_E:
        [alpha; a + alpha × p_BoCo_E + w_MB_E × (w_MB_E × p_BoCo_E)]."""
        p_BoCo_E = vector3(offset, "offset")
        w_MB_E = vector3(angular_velocity_of_this_frame, "angular_velocity_of_this_frame")
        c = self._c
        a_MCo_E = c[3:] + cross(c[:3], p_BoCo_E) + cross(w_MB_E, cross(w_MB_E, p_BoCo_E))
        return self._make(np.concatenate((c[:3], a_MCo_E)))

    def ShiftWithZeroAngularVelocity(self, offset):
        """Shift() for w_MB = 0: [alpha; a + alpha × p_BoCo_E], offset = p_BoCo_E."""
        p_BoCo_E = vector3(offset, "offset")
        c = self._c
        return self._make(np.concatenate((c[:3], c[3:] + cross(c[:3], p_BoCo_E))))

    def ComposeWithMovingFrameAcceleration(
        self,
        position_of_moving_frame,
        angular_velocity_of_this_frame,
        velocity_of_moving_frame,
        acceleration_of_moving_frame,
    ):
        """A_MC_E from this = A_MB_E, p_BoCo_E, w_MB_E, V_BC_E and A_BC_E (C moving on B).

        alpha_MC = alpha_MB + alpha_BC + w_MB × w_BC;
        a_MCo = a_MBo + alpha_MB × p_BoCo + w_MB × (w_MB × p_BoCo) + 2 w_MB × v_BCo + a_BCo.
        """
        p_BoCo_E = vector3(position_of_moving_frame, "position_of_moving_frame")
        w_MB_E = vector3(angular_velocity_of_this_frame, "angular_velocity_of_this_frame")
        require(velocity_of_moving_frame, SpatialVelocity, "velocity_of_moving_frame")
        require(acceleration_of_moving_frame, SpatialAcceleration, "acceleration_of_moving_frame")
        c = self._c
        V_BC_E = velocity_of_moving_frame._c
        alpha_MC_E = c[:3] + cross(w_MB_E, V_BC_E[:3])
        a_MCo_E = (
            c[3:] + cross(c[:3], p_BoCo_E) + cross(w_MB_E, cross(w_MB_E, p_BoCo_E) + 2 * V_BC_E[3:])
        )
        return self._make(np.concatenate((alpha_MC_E, a_MCo_E)) + acceleration_of_moving_frame._c)
