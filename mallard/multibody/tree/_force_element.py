"""ForceElement: the base of elements that apply state- and time-dependent forces."""

from mallard.multibody.tree._indices import ForceElementIndex, default_model_instance
from mallard.multibody.tree._multibody_element import MultibodyElement


class ForceElement(MultibodyElement):
    """A force element of a MultibodyPlant. Subclasses (in Python too) compute their forces
    in ``CalcAndAddForceContribution`` and their energy and powers in
    ``CalcPotentialEnergy``, ``CalcConservativePower`` and ``CalcNonConservativePower``."""

    _index_type = ForceElementIndex

    def __init__(self, model_instance=None):
        super().__init__(default_model_instance() if model_instance is None else model_instance)

    def __repr__(self):
        index = -1 if self._index is None else int(self._index)
        return f"<{type(self).__name__} index={index} model_instance={int(self._model_instance)}>"
