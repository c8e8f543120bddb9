"""Mirror of pydrake.multibody.math: the spatial vector types."""

from mallard._public import publish
from mallard._template import TemplateClass, module_getattr
from mallard.multibody.math._spatial_acceleration import SpatialAcceleration
from mallard.multibody.math._spatial_force import SpatialForce
from mallard.multibody.math._spatial_momentum import SpatialMomentum
from mallard.multibody.math._spatial_velocity import SpatialVelocity

SpatialAcceleration_ = TemplateClass("SpatialAcceleration_", SpatialAcceleration)
SpatialForce_ = TemplateClass("SpatialForce_", SpatialForce)
SpatialMomentum_ = TemplateClass("SpatialMomentum_", SpatialMomentum)
SpatialVelocity_ = TemplateClass("SpatialVelocity_", SpatialVelocity)

__all__ = [
    "SpatialAcceleration",
    "SpatialAcceleration_",
    "SpatialForce",
    "SpatialForce_",
    "SpatialMomentum",
    "SpatialMomentum_",
    "SpatialVelocity",
    "SpatialVelocity_",
]


def __getattr__(name):
    """``Class_[T]`` and ``Class_𝓣T𝓤``: the names pickles give template instantiations (as
    pydrake's modules answer them)."""
    return module_getattr(__name__, globals(), name)


publish(globals())
