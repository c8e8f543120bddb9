"""Mirror of pydrake.multibody.plant."""

from mallard._public import publish
from mallard._template import TemplateClass, module_getattr
from mallard.multibody.plant._config import (
    AddMultibodyPlant,
    AddMultibodyPlantSceneGraph,
    ApplyMultibodyPlantConfig,
    MultibodyPlantConfig,
)
from mallard.multibody.plant._contact_model import ContactModel
from mallard.multibody.plant._contact_results import ContactResults, PointPairContactInfo
from mallard.multibody.plant._coulomb_friction import (
    CalcContactFrictionFromSurfaceProperties,
    CoulombFriction,
)
from mallard.multibody.plant._discrete_contact_approximation import (
    DiscreteContactApproximation,
    DiscreteContactSolver,
)
from mallard.multibody.plant._distance_constraint_params import DistanceConstraintParams
from mallard.multibody.plant._externally_applied_spatial_force import (
    ExternallyAppliedSpatialForce,
)
from mallard.multibody.plant._externally_applied_spatial_force_multiplexer import (
    ExternallyAppliedSpatialForceMultiplexer,
)
from mallard.multibody.plant._multibody_plant import MultibodyPlant
from mallard.multibody.plant._scalar_conversion import ScalarPlantOverrides

ContactResults_ = TemplateClass("ContactResults_", ContactResults)
CoulombFriction_ = TemplateClass("CoulombFriction_", CoulombFriction)
PointPairContactInfo_ = TemplateClass("PointPairContactInfo_", PointPairContactInfo)
ExternallyAppliedSpatialForce_ = TemplateClass(
    "ExternallyAppliedSpatialForce_", ExternallyAppliedSpatialForce
)
ExternallyAppliedSpatialForceMultiplexer_ = TemplateClass(
    "ExternallyAppliedSpatialForceMultiplexer_", ExternallyAppliedSpatialForceMultiplexer, "system"
)
MultibodyPlant_ = TemplateClass(
    "MultibodyPlant_", MultibodyPlant, "element", overrides=ScalarPlantOverrides
)

__all__ = [
    "AddMultibodyPlant",
    "AddMultibodyPlantSceneGraph",
    "ApplyMultibodyPlantConfig",
    "CalcContactFrictionFromSurfaceProperties",
    "ContactModel",
    "ContactResults",
    "ContactResults_",
    "CoulombFriction",
    "CoulombFriction_",
    "DiscreteContactApproximation",
    "DiscreteContactSolver",
    "DistanceConstraintParams",
    "ExternallyAppliedSpatialForce",
    "ExternallyAppliedSpatialForceMultiplexer",
    "ExternallyAppliedSpatialForceMultiplexer_",
    "ExternallyAppliedSpatialForce_",
    "MultibodyPlant",
    "MultibodyPlantConfig",
    "MultibodyPlant_",
    "PointPairContactInfo",
    "PointPairContactInfo_",
]


def __getattr__(name):
    """``Class_[T]`` and ``Class_𝓣T𝓤``: the names pickles give template instantiations (as
    pydrake's modules answer them)."""
    return module_getattr(__name__, globals(), name)


publish(globals())
