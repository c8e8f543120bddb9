"""Scalar conversion of a MultibodyPlant: ``ToAutoDiffXd()``, ``ToSymbolic()``,
``ToScalarType[T]()``.

The converted plant is a deep copy of the finalized plant (its elements, defaults, model
instances and flat model) whose class is ``MultibodyPlant_[T]`` and whose elements' classes are
the T instantiations of theirs (see mallard._template). Its model state and parameters hold T
scalars, so its Contexts do; the engine then runs the interpreted kernels on object arrays
(kernels.for_dtype). Its methods called with a Context return T. The copy is standalone: it is
not part of a Diagram, and it keeps its geometry ids but no SceneGraph.

The output ports' calc functions and the events' handlers are closures over the plant; the
copy rebinds them to itself (``_rebind``).
"""

import copy
import types

import numpy as np

from mallard import _template
from mallard.multibody.plant._parameters import PlantParameters
from mallard.systems.framework import BasicVector

#: Element lists of the plant whose elements take the plant's scalar type.
_ELEMENT_LISTS = ("_bodies", "_frames", "_joints", "_actuators", "_force_elements")


def _rebind(fn, memo):
    """``fn`` with the objects it closes over (and its bound ``self``) replaced by their
    copies in ``memo``; functions reached through closure cells are rebound too."""
    if isinstance(fn, types.MethodType):
        return types.MethodType(_rebind(fn.__func__, memo), memo.get(id(fn.__self__), fn.__self__))
    if isinstance(fn, types.FunctionType) and fn.__closure__:
        cells = tuple(types.CellType(_rebind(c.cell_contents, memo)) for c in fn.__closure__)
        new = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, cells)
        new.__kwdefaults__ = fn.__kwdefaults__
        return new
    if isinstance(fn, (types.FunctionType, types.BuiltinFunctionType, type)):
        return fn
    return memo.get(id(fn), fn)


def _convert_parameters(parameters, T):
    """The PlantParameters with their real-valued arrays and force-element values as T."""
    a = _template.array_to_scalar
    return PlantParameters(
        a(parameters.mass, T),
        a(parameters.com, T),
        a(parameters.G, T),
        a(parameters.X_PF, T),
        a(parameters.damping, T),
        a(parameters.rotor_inertia, T),
        a(parameters.gear_ratio, T),
        parameters.locked.copy(),
        [
            {k: _template.convert_result(v, T) for k, v in d.items()}
            for d in parameters.force_elements
        ],
        set(parameters.inactive_constraints),
        dict(parameters.distance_constraints),
    )


class ScalarPlantOverrides:
    """What a MultibodyPlant_[T] does differently: its defaults are T, its type name says T,
    and one constructed directly (``MultibodyPlant_[AutoDiffXd](time_step)``) takes scalar
    type T at Finalize()."""

    def GetSystemType(self):
        T = type(self)._template_scalar
        return super().GetSystemType().replace("<double>", f"<{_template.cpp_scalar_name(T)}>")

    def _default_parameters(self):
        return _convert_parameters(super()._default_parameters(), type(self)._template_scalar)

    def Finalize(self):
        super().Finalize()
        _adopt_scalar_type(self, type(self)._template_scalar)

    def SetDefaultState(self, context, state):
        super().SetDefaultState(context, state)
        x = self._x_of(state)
        x[:] = _template.array_to_scalar(x, type(self)._template_scalar)


class ScalarConversionMixin:
    """MultibodyPlant's scalar conversion (System's ToAutoDiffXd(), ToSymbolic() and
    ToScalarType[T]() call ``_to_scalar_type``)."""

    def _to_scalar_type(self, T):
        if T is getattr(type(self), "_template_scalar", float):
            return super()._to_scalar_type(T)  # (as Drake, no conversion to the same type)
        if not self._is_finalized:
            raise RuntimeError(
                "Attempting to clone a MultibodyTree that has not been finalized. "
                "MultibodyTree::Finalize() must be called before attempting to clone a "
                "MultibodyTree."
            )
        return self._copy_as(T)

    def _copy_as(self, T):
        """A deep copy of this plant with scalar type T."""
        from mallard.multibody.plant import MultibodyPlant_

        # Left out: the SceneGraph and the Diagram this plant is part of. (The Engine is
        # copied with the plant it belongs to.)
        memo = {id(self._parent): None}
        if self._geometry_link.scene_graph is not None:
            memo[id(self._geometry_link.scene_graph)] = None
        new = copy.deepcopy(self, memo)
        new._parent = None
        new._geometry_link.scene_graph = None
        for port in new._output_ports:
            port._alloc = _rebind(port._alloc, memo)
            port._calc = _rebind(port._calc, memo)
        for event in new._events:
            event.handler = _rebind(event.handler, memo)
        new.__class__ = MultibodyPlant_[T]
        for joint in new._joints:
            joint._random_q = None  # as Drake's: random distributions are not converted
        _adopt_scalar_type(new, T)
        return new


def _adopt_scalar_type(plant, T):
    """Gives the finalized ``plant`` (a MultibodyPlant_[T]) scalar type T: its elements'
    classes, its model state, the models of its vector output ports and its default
    parameters."""
    for attr in _ELEMENT_LISTS:
        for element in getattr(plant, attr):
            base = getattr(type(element), "_template_base", type(element))
            element.__class__ = base if T is float else _template.instantiation(base, T)
    for port in plant._output_ports:
        model = getattr(port._alloc, "__self__", None)  # a vector port's model (NaNs)
        if isinstance(model, BasicVector):
            model._data = _template.array_to_scalar(np.full(model.size(), np.nan), T)
    for model in [plant._continuous_model._vector, *plant._discrete_models]:
        model._data = _template.cast_array(model._data, T)
    plant._abstract_parameter_models[0].set_value(plant._default_parameters())
