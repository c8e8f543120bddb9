"""MultibodyPlantConfig, ApplyMultibodyPlantConfig, AddMultibodyPlant and
AddMultibodyPlantSceneGraph, as pydrake's.

Every setting takes effect but ``contact_surface_representation`` (checked, kept: mallard has
no hydroelastic contact yet): ``time_step``, ``use_sampled_output_ports``,
``penetration_allowance``, ``stiction_tolerance``, ``contact_model``,
``discrete_contact_approximation``, ``sap_near_rigid_threshold`` and
``adjacent_bodies_collision_filters``.
"""

import dataclasses
import logging

from mallard._template import instantiation
from mallard.common._pybind import overloads
from mallard.multibody.plant._contact_model import ContactModel
from mallard.multibody.plant._discrete_contact_approximation import DiscreteContactApproximation
from mallard.multibody.plant._multibody_plant import MultibodyPlant
from mallard.systems.framework._system import system_scalar_type

_CONTACT_MODELS = {
    "point": ContactModel.kPoint,
    "hydroelastic": ContactModel.kHydroelastic,
    "hydroelastic_with_fallback": ContactModel.kHydroelasticWithFallback,
}
_SURFACES = ("triangle", "polygon")
_APPROXIMATIONS = {"tamsi": "kTamsi", "sap": "kSap", "similar": "kSimilar", "lagged": "kLagged"}

LOGGER = logging.getLogger("mallard.plant")


@dataclasses.dataclass
class MultibodyPlantConfig:
    """The settings of a MultibodyPlant (pydrake's fields and defaults)."""

    time_step: float = 0.001
    use_sampled_output_ports: bool = True
    penetration_allowance: float = 0.001
    stiction_tolerance: float = 0.0001
    contact_model: str = "hydroelastic_with_fallback"
    discrete_contact_approximation: str = "lagged"
    sap_near_rigid_threshold: float = 1.0
    contact_surface_representation: str = "polygon"
    adjacent_bodies_collision_filters: bool = True


def ApplyMultibodyPlantConfig(config, plant):
    """Applies ``config`` to ``plant`` (before Finalize()). ``config.time_step`` must equal
    ``plant.time_step()``: it can only be set by the constructor."""
    if config.time_step != plant.time_step():
        raise RuntimeError(
            f"ApplyMultibodyPlantConfig(): config.time_step ({config.time_step}) differs from "
            f"plant.time_step() ({plant.time_step()}); the time step can only be set in the "
            "MultibodyPlant constructor (or by AddMultibodyPlant())."
        )
    for name, allowed in (
        ("contact_model", _CONTACT_MODELS),
        ("contact_surface_representation", _SURFACES),
    ):
        value = getattr(config, name)
        if value not in allowed:
            raise RuntimeError(
                f"Unknown {name} '{value}'; valid values are: "
                + ", ".join(repr(a) for a in allowed if a)
            )
    plant.SetUseSampledOutputPorts(bool(config.use_sampled_output_ports) and config.time_step > 0)
    plant.set_penetration_allowance(config.penetration_allowance)
    plant.set_stiction_tolerance(config.stiction_tolerance)
    plant.set_contact_model(_CONTACT_MODELS[config.contact_model])
    if config.time_step > 0:  # (as Drake: "" is the default, "lagged")
        name = (
            config.discrete_contact_approximation
            or MultibodyPlantConfig.discrete_contact_approximation
        )
        if name == "tamsi":
            _warn_tamsi_deprecated()
        if name not in _APPROXIMATIONS:
            raise RuntimeError(f"Unknown discrete_contact_approximation: '{name}'")
        plant.set_discrete_contact_approximation(
            getattr(DiscreteContactApproximation, _APPROXIMATIONS[name])
        )
    plant.set_sap_near_rigid_threshold(config.sap_near_rigid_threshold)
    plant.set_adjacent_bodies_collision_filters(config.adjacent_bodies_collision_filters)
    plant._config = dataclasses.replace(config)


def _warn_tamsi_deprecated():
    """Drake's deprecation warning for the "tamsi" approximation (once per process)."""
    if not getattr(_warn_tamsi_deprecated, "done", False):
        _warn_tamsi_deprecated.done = True
        LOGGER.warning(
            "DRAKE_DEPRECATED: The TAMSI solver is deprecated, and will be removed from Drake "
            "on or after 2026-09-01."
        )


def _add_plant_and_scene_graph(builder, plant, scene_graph):
    """Adds ``plant`` ("plant") and a SceneGraph ("scene_graph", of the builder's scalar type)
    to ``builder`` and connects them; returns (plant, scene_graph)."""
    from mallard.geometry import SceneGraph

    if scene_graph is None:
        scene_graph = instantiation(SceneGraph, system_scalar_type(builder), "system")()
        scene_graph.set_name("scene_graph")
    if not plant.get_name():
        plant.set_name("plant")
    builder.AddSystem(plant)
    if scene_graph not in builder.GetSystems():
        builder.AddSystem(scene_graph)
    source_id = plant.RegisterAsSourceForSceneGraph(scene_graph)
    builder.Connect(
        plant.get_geometry_pose_output_port(), scene_graph.get_source_pose_port(source_id)
    )
    builder.Connect(scene_graph.get_query_output_port(), plant.get_geometry_query_input_port())
    return plant, scene_graph


@overloads("builder, time_step, scene_graph=", "builder, plant, scene_graph=")
def AddMultibodyPlantSceneGraph(builder, *args, **kwargs):
    """``(builder, time_step, scene_graph=None)`` or ``(builder, plant, scene_graph=None)``:
    adds a MultibodyPlant (made with ``time_step``, of the builder's scalar type, or the
    given one) named "plant" and a SceneGraph named "scene_graph" to ``builder``, registers
    the plant as a geometry source and connects its geometry ports; returns (plant,
    scene_graph)."""
    values = dict(zip(("time_step", "scene_graph"), args, strict=False))
    for key, value in kwargs.items():
        if key not in ("time_step", "plant", "scene_graph") or key in values:
            raise TypeError(f"AddMultibodyPlantSceneGraph(): unexpected argument {key!r}")
        values[key] = value
    first = values.pop("time_step", None)
    plant = values.pop("plant", None)
    if isinstance(first, MultibodyPlant):
        plant = first
    elif plant is None:
        if first is None:
            raise TypeError("AddMultibodyPlantSceneGraph(): missing the argument 'time_step'")
        plant = instantiation(MultibodyPlant, system_scalar_type(builder))(first)
    return _add_plant_and_scene_graph(builder, plant, values.get("scene_graph"))


def AddMultibodyPlant(config, builder):
    """Adds a MultibodyPlant with ``config``'s settings and a SceneGraph to ``builder``;
    returns (plant, scene_graph)."""
    if not isinstance(config, MultibodyPlantConfig):
        raise TypeError(
            f"AddMultibodyPlant(): config must be a MultibodyPlantConfig, got {config!r}"
        )
    plant = MultibodyPlant(config.time_step)
    ApplyMultibodyPlantConfig(config, plant)
    return _add_plant_and_scene_graph(builder, plant, None)
