"""UniformGravityFieldElement: a uniform gravity field acting on the plant's bodies."""

import numpy as np

from mallard._scalar import as_array
from mallard.multibody.tree._force_element import ForceElement
from mallard.multibody.tree._indices import ModelInstanceIndex, world_model_instance


class UniformGravityFieldElement(ForceElement):
    """Gravity g_W (expressed in World) acting on every body of the model instances for
    which it is enabled. Every MultibodyPlant owns exactly one (``gravity_field()``)."""

    kDefaultStrength = 9.81

    def __init__(self, g_W=None):
        super().__init__(world_model_instance())
        if g_W is None:
            g_W = [0.0, 0.0, -self.kDefaultStrength]
        self._g_W = as_array(g_W, (3,), "g_W").astype(float)
        self._disabled = set()

    def gravity_vector(self):
        """g_W, the acceleration of gravity expressed in World."""
        return self._g_W.copy()

    def set_gravity_vector(self, arg0):
        """Sets g_W."""
        self._g_W = as_array(arg0, (3,), "gravity_vector").astype(float)

    def _check_instance(self, model_instance, method):
        plant = self.GetParentPlant()
        if not isinstance(model_instance, ModelInstanceIndex) or not (
            0 <= int(model_instance) < plant.num_model_instances()
        ):
            raise RuntimeError(
                f"UniformGravityFieldElement.{method}(): invalid model instance "
                f"{model_instance!r}; the plant has {plant.num_model_instances()}"
            )
        return plant

    def is_enabled(self, model_instance):
        """True if gravity acts on the bodies of ``model_instance``."""
        self._check_instance(model_instance, "is_enabled")
        return int(model_instance) not in self._disabled

    def set_enabled(self, model_instance, is_enabled):
        """Enables or disables gravity for ``model_instance``; only before Finalize()."""
        plant = self._check_instance(model_instance, "set_enabled")
        if plant.is_finalized():
            raise RuntimeError(
                "UniformGravityFieldElement.set_enabled(): gravity can only be enabled or "
                "disabled before the MultibodyPlant is finalized"
            )
        if is_enabled:
            self._disabled.discard(int(model_instance))
        else:
            self._disabled.add(int(model_instance))

    def _enabled_mask(self, num_model_instances):
        """A bool array: enabled per model instance index."""
        mask = np.ones(num_model_instances, dtype=bool)
        mask[list(self._disabled)] = False
        return mask
