"""Mirror of pydrake.common.eigen_geometry: Quaternion, AngleAxis, Isometry3."""

from mallard._template import TemplateClass, module_getattr
from mallard.common._angle_axis import AngleAxis
from mallard.common._isometry3 import Isometry3
from mallard.common._quaternion import Quaternion

AngleAxis_ = TemplateClass("AngleAxis_", AngleAxis)
Isometry3_ = TemplateClass("Isometry3_", Isometry3)
Quaternion_ = TemplateClass("Quaternion_", Quaternion)

__all__ = ["AngleAxis", "AngleAxis_", "Isometry3", "Isometry3_", "Quaternion", "Quaternion_"]


def __getattr__(name):
    """``Class_[T]`` and ``Class_𝓣T𝓤``: the names pickles give template instantiations (as
    pydrake's modules answer them)."""
    return module_getattr(__name__, globals(), name)
