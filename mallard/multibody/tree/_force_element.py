"""ForceElement: the base of elements that apply state- and time-dependent forces."""

from mallard.multibody.tree._indices import ForceElementIndex, default_model_instance
from mallard.multibody.tree._multibody_element import MultibodyElement


class ForceElement(MultibodyElement):
    """A force element of a MultibodyPlant.

    Subclasses (Python ones too, added with ``plant.AddForceElement``) override
    ``CalcAndAddForceContribution(context, forces)``, adding their forces to the
    MultibodyForces ``forces``, and, for energy accounting, ``CalcPotentialEnergy(context)``,
    ``CalcConservativePower(context)`` and ``CalcNonConservativePower(context)`` (all zero
    by default).
    """

    _index_type = ForceElementIndex

    def __init__(self, model_instance=None):
        super().__init__(default_model_instance() if model_instance is None else model_instance)

    def __repr__(self):
        index = -1 if self._index is None else int(self._index)
        return f"<{type(self).__name__} index={index} model_instance={int(self._model_instance)}>"

    def CalcAndAddForceContribution(self, context, forces):
        """Adds this element's forces in ``context`` to ``forces``."""
        raise NotImplementedError(
            f"{type(self).__name__} must override CalcAndAddForceContribution(context, forces)"
        )

    def CalcPotentialEnergy(self, context):
        """The potential energy stored in this element (zero unless overridden)."""
        return 0.0

    def CalcConservativePower(self, context):
        """The power of this element's conservative forces (zero unless overridden)."""
        return 0.0

    def CalcNonConservativePower(self, context):
        """The power of this element's non-conservative forces (zero unless overridden)."""
        return 0.0

    def _default_parameters(self):
        """The values this element keeps in each Context (a dict; none by default)."""
        return {}

    def _plant_with(self, context):
        plant = self._finalized_plant("a context method")
        plant.ValidateContext(context)
        return plant
