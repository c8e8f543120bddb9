"""Mirror of pydrake.multibody.math: the spatial vector types."""

from mallard.multibody.math._spatial_acceleration import SpatialAcceleration
from mallard.multibody.math._spatial_force import SpatialForce
from mallard.multibody.math._spatial_momentum import SpatialMomentum
from mallard.multibody.math._spatial_velocity import SpatialVelocity

__all__ = ["SpatialAcceleration", "SpatialForce", "SpatialMomentum", "SpatialVelocity"]
