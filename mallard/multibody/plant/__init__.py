"""Mirror of pydrake.multibody.plant."""

from mallard.multibody.plant._config import (
    AddMultibodyPlant,
    AddMultibodyPlantSceneGraph,
    ApplyMultibodyPlantConfig,
    MultibodyPlantConfig,
)
from mallard.multibody.plant._externally_applied_spatial_force import (
    ExternallyAppliedSpatialForce,
)
from mallard.multibody.plant._geometry import CoulombFriction
from mallard.multibody.plant._multibody_plant import MultibodyPlant

__all__ = [
    "AddMultibodyPlant",
    "AddMultibodyPlantSceneGraph",
    "ApplyMultibodyPlantConfig",
    "CoulombFriction",
    "ExternallyAppliedSpatialForce",
    "MultibodyPlant",
    "MultibodyPlantConfig",
]
