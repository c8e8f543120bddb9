"""ForceElement: the base of elements that apply state- and time-dependent forces."""

from mallard._scalar import as_array
from mallard.multibody.tree._indices import (
    ForceElementIndex,
    ModelInstanceIndex,
    default_model_instance,
)
from mallard.multibody.tree._joint import to_float
from mallard.multibody.tree._multibody_element import MultibodyElement


class ForceElement(MultibodyElement):
    """A force element of a MultibodyPlant.

    Subclasses (Python ones too, added with ``plant.AddForceElement``) override
    ``CalcAndAddForceContribution(context, forces)``, adding their forces to the
    MultibodyForces ``forces`` (e.g. with ``RigidBody.AddInForceInWorld`` or
    ``forces.mutable_generalized_forces()``), and, for the plant's energy accounting,
    ``CalcPotentialEnergy(context)``, ``CalcConservativePower(context)`` (= −d(PE)/dt) and
    ``CalcNonConservativePower(context)`` (all zero unless overridden). The plant calls them
    from CalcForceElementsContribution, the forward dynamics, EvalPotentialEnergy,
    CalcConservativePower and CalcNonConservativePower.

    pydrake binds neither these methods nor a ForceElement constructor: Python subclasses
    are a mallard extension. An element keeps values in each Context by returning them from
    ``_default_parameters()`` (a dict), read back with ``_parameter(context, name)``.
    """

    _index_type = ForceElementIndex

    def __init__(self, model_instance=None):
        if model_instance is None:
            model_instance = default_model_instance()
        if not isinstance(model_instance, ModelInstanceIndex):
            raise TypeError(
                f"{type(self).__name__}: model_instance must be a ModelInstanceIndex, got "
                f"{type(model_instance).__name__}"
            )
        super().__init__(model_instance)

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
        """The power of this element's conservative forces, −d(PE)/dt (zero unless
        overridden)."""
        return 0.0

    def CalcNonConservativePower(self, context):
        """The power of this element's non-conservative forces (zero unless overridden)."""
        return 0.0

    # ---- for the subclasses --------------------------------------------------------------
    def _float(self, value, what):
        """``value`` as a float, converted as pybind11 converts a double; TypeError
        otherwise."""
        x = to_float(value)
        T = getattr(type(self), "_template_scalar", None)  # elements of a MultibodyPlant_[T]
        if x is None and T is not None and isinstance(value, T):
            return value
        if x is None:
            raise TypeError(
                f"{type(self).__name__}: {what} must be a float, got {type(value).__name__}"
            )
        return x

    def _vector3(self, value, what):
        """``value`` as a new float 3-vector; TypeError (as pybind11's conversion) otherwise."""
        keep = hasattr(type(self), "_template_scalar")  # T scalars, in a MultibodyPlant_[T]
        try:
            a = as_array(value, (3,), what)
            return a.copy() if keep and a.dtype == object else a.astype(float)
        except (ValueError, TypeError):
            raise TypeError(
                f"{type(self).__name__}: {what} must be a 3-vector, got {value!r}"
            ) from None

    def _default_parameters(self):
        """The values this element keeps in each Context (a dict; none by default)."""
        return {}

    def _owned(self, method=None):
        """The parent plant; RuntimeError (naming ``method``, if given) if this element is in
        none."""
        if self._plant is None:
            where = type(self).__name__ + (f".{method}()" if method else "")
            raise RuntimeError(
                f"{where}: this force element has not been added to a MultibodyPlant (call "
                "plant.AddForceElement() first)"
            )
        return self._plant

    def _plant_with(self, context):
        """The finalized parent plant, checked to own ``context``."""
        plant = self._owned()
        if not plant.is_finalized():
            raise RuntimeError(
                f"{type(self).__name__}: methods taking a Context need a finalized "
                "MultibodyPlant (call Finalize() first)"
            )
        plant.ValidateContext(context)
        return plant

    def _parameters_in(self, context):
        """This element's dict of parameters in ``context``."""
        return self._plant_with(context)._parameters(context).force_elements[int(self._index)]

    def _parameter(self, context, name):
        """Parameter ``name`` of this element in ``context``."""
        return self._parameters_in(context)[name]

    def _set_parameter(self, context, name, value):
        """Sets parameter ``name`` of this element in ``context`` (invalidating what depends
        on the parameters)."""
        plant = self._plant_with(context)
        plant._mutable_parameters(context).force_elements[int(self._index)][name] = value
