"""Mirror of pydrake.common.eigen_geometry: Quaternion, AngleAxis, Isometry3."""

from mallard.common._angle_axis import AngleAxis
from mallard.common._isometry3 import Isometry3
from mallard.common._quaternion import Quaternion

__all__ = ["AngleAxis", "Isometry3", "Quaternion"]
