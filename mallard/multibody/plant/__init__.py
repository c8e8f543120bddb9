"""Mirror of pydrake.multibody.plant."""

from mallard.multibody.plant._externally_applied_spatial_force import (
    ExternallyAppliedSpatialForce,
)
from mallard.multibody.plant._multibody_plant import MultibodyPlant

__all__ = ["ExternallyAppliedSpatialForce", "MultibodyPlant"]
