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
        self._g_W = _vector3([0.0, 0.0, -self.kDefaultStrength] if g_W is None else g_W, "__init__")
        self._disabled = set()

    def gravity_vector(self):
        """g_W, the acceleration of gravity expressed in World."""
        return self._g_W.copy()

    def set_gravity_vector(self, arg0):
        """Sets g_W."""
        self._g_W = _vector3(arg0, "set_gravity_vector")
        self._model_changed()

    def _check_instance(self, model_instance):
        plant = self.GetParentPlant()
        if not isinstance(model_instance, ModelInstanceIndex):
            raise TypeError(
                f"model_instance must be a ModelInstanceIndex, got {type(model_instance).__name__}"
            )
        if not 0 <= int(model_instance) < plant.num_model_instances():
            raise RuntimeError("Model instance index is invalid.")
        return plant

    def is_enabled(self, model_instance):
        """True if gravity acts on the bodies of ``model_instance``."""
        self._check_instance(model_instance)
        return int(model_instance) not in self._disabled

    def set_enabled(self, model_instance, is_enabled):
        """Enables or disables gravity for ``model_instance``; only before Finalize()."""
        plant = self._check_instance(model_instance)
        if plant.is_finalized():
            raise RuntimeError("Gravity can only be enabled pre-finalize.")
        if is_enabled:
            self._disabled.discard(int(model_instance))
        else:
            self._disabled.add(int(model_instance))

    def CalcAndAddForceContribution(self, context, forces):
        """Adds m_B·g_W at Bcm of every body for which gravity is enabled to ``forces``."""
        plant = self._plant_with(context)
        forces._check_plant(plant, "UniformGravityFieldElement.CalcAndAddForceContribution")
        forces._F_BBo_W += plant._gravity_body_forces(context)

    def CalcGravityGeneralizedForces(self, context):
        """tau_g(q) (size nv), on the right-hand side of M·v̇ + C·v = tau_g + tau_app; v·tau_g
        is the power of gravity (positive when the potential energy decreases)."""
        return self._plant_with(context).CalcGravityGeneralizedForces(context)

    def CalcPotentialEnergy(self, context):
        """The potential energy of gravity, −Σ m_B·g_W·p_WBcm over the bodies for which it is
        enabled (zero when every center of mass is at World's origin)."""
        return self._plant_with(context)._gravity_energy_and_power(context)[0]

    def CalcConservativePower(self, context):
        """The power of gravity, Σ m_B·g_W·v_WBcm = v·tau_g = −d(PE)/dt."""
        return self._plant_with(context)._gravity_energy_and_power(context)[1]

    def CalcNonConservativePower(self, context):
        """Zero: gravity is conservative."""
        self._plant_with(context)
        return 0.0

    def _enabled_mask(self, num_model_instances):
        """A bool array: enabled per model instance index."""
        mask = np.ones(num_model_instances, dtype=bool)
        mask[list(self._disabled)] = False
        return mask


def _vector3(value, method):
    """``value`` as a float 3-vector; TypeError (as pybind11's conversion) otherwise."""
    try:
        return as_array(value, (3,), "g_W").astype(float)
    except ValueError:
        raise TypeError(
            f"{method}(): expected a 3-vector for the gravity vector g_W, got {value!r}"
        ) from None
