"""Mirror of pydrake.multibody.tree."""

from mallard.multibody.tree._calc_spatial_inertia import CalcSpatialInertia
from mallard.multibody.tree._rotational_inertia import RotationalInertia
from mallard.multibody.tree._spatial_inertia import SpatialInertia
from mallard.multibody.tree._unit_inertia import UnitInertia

__all__ = ["CalcSpatialInertia", "RotationalInertia", "SpatialInertia", "UnitInertia"]
