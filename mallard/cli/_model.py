"""What the subcommands share: the errors main() reports (and their exit codes), loading a
model into a plant with its SceneGraph, and the vector arguments (--q0, --v, ...)."""

import dataclasses
import logging
import os
import re

import numpy as np

from mallard.multibody.parsing import Parser
from mallard.multibody.plant import AddMultibodyPlantSceneGraph
from mallard.systems.framework import DiagramBuilder

#: The model ``mallard simulate`` runs without MODEL: the acrobot mallard ships.
DEFAULT_MODEL = "package://mallard/acrobot.urdf"
_MODEL_SUFFIXES = (".urdf", ".sdf", ".xml", ".dmd.yaml")
_PACKAGE_URI = re.compile(r"""(?:package|model)://([^/"'\s]+)/""")


class CliError(Exception):
    """An error the user can fix: main() prints it as one line and exits with exit_code (1:
    the model or the run failed)."""

    exit_code = 1


class UsageError(CliError):
    """A bad command line (exit code 2, as argparse's)."""

    exit_code = 2


#: The name of the ground ``load_model`` puts under a floating model.
GROUND = "ground"
#: The ground's Coulomb friction (static, dynamic); its stiffness and dissipation are the
#: plant's estimates from its penetration allowance (Drake's defaults), as the model's.
GROUND_FRICTION = (1.0, 1.0)


@dataclasses.dataclass
class LoadedModel:
    """A finalized plant (with its SceneGraph, in ``builder``), the file it came from, and
    whether a ground was put under it."""

    builder: DiagramBuilder
    plant: object
    scene_graph: object
    path: str
    ground: bool = False


def load_model(spec, package_paths=(), time_step=0.0, quiet=False, ground=False):
    """Loads ``spec`` (a .urdf/.sdf/.xml path or a package:// URL) into a new plant of
    ``time_step`` (0: continuous) in a new DiagramBuilder, and finalizes it. The packages its
    package:// URIs name come from ``package_paths`` (each a DIR to search for package.xml
    files, or NAME=DIR), ROS_PACKAGE_PATH, the package.xml files in the model's directory and
    above, and the model's ancestor directories named as a package. ``quiet``: without the
    parser's warnings (for a model loaded again). ``ground``: a model with a floating base
    gets World's half space z ≤ 0 as collision geometry (``add_ground``). CliError if it
    fails."""
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, time_step)
    parser = Parser(plant, scene_graph)
    package_map = parser.package_map()
    _add_package_paths(package_map, package_paths)
    path = _model_path(spec, package_map)
    _discover_packages(package_map, path)
    parser_logger = logging.getLogger("mallard.parsing")
    disabled, parser_logger.disabled = parser_logger.disabled, quiet
    try:
        parser.AddModels(path)
        grounded = ground and bool(floating_base_bodies(plant))
        if grounded:
            add_ground(plant)
        plant.Finalize()
    except (RuntimeError, ValueError, NotImplementedError) as e:
        raise CliError(f"cannot load the model '{spec}': {e}") from e
    finally:
        parser_logger.disabled = disabled
    return LoadedModel(builder, plant, scene_graph, path, grounded)


def floating_base_bodies(plant):
    """The bodies of the unfinalized ``plant`` that Finalize will give a floating joint: those
    (World aside) that are no joint's child."""
    from mallard.multibody.tree import BodyIndex

    children = {int(plant.get_joint(j).child_body().index()) for j in plant.GetJointIndices()}
    return [plant.get_body(BodyIndex(i)) for i in range(1, plant.num_bodies()) if i not in children]


def add_ground(plant):
    """Registers the ground: World's collision half space z ≤ 0, named ``GROUND``, with
    friction ``GROUND_FRICTION`` and no other contact property (so the plant's penalty
    estimates set its stiffness and dissipation, as for the model's geometry)."""
    from mallard.geometry import HalfSpace
    from mallard.math import RigidTransform
    from mallard.multibody.plant import CoulombFriction

    plant.RegisterCollisionGeometry(
        plant.world_body(), RigidTransform(), HalfSpace(), GROUND, CoulombFriction(*GROUND_FRICTION)
    )


def leave_out_collision_meshes_without_hull(model):
    """Takes the proximity role from the collision geometries whose mesh has no convex hull
    mallard computes (a Mesh or Convex file other than .obj: Drake refuses such models when
    parsing), with a warning, so that the model simulates without their contact."""
    from mallard.cli._output import warn
    from mallard.geometry import Role
    from mallard.multibody.tree import BodyIndex

    plant, scene_graph = model.plant, model.scene_graph
    inspector = scene_graph.model_inspector()
    left_out = []
    for body in (plant.get_body(BodyIndex(i)) for i in range(plant.num_bodies())):
        for geometry_id in plant.GetCollisionGeometriesForBody(body):
            hull = getattr(inspector.GetShape(geometry_id), "GetConvexHull", None)
            if hull is None:
                continue
            try:
                hull()
            except (RuntimeError, NotImplementedError) as e:
                left_out.append((inspector.GetName(geometry_id), e))
                scene_graph.RemoveRole(plant.get_source_id(), geometry_id, Role.kProximity)
    if left_out:
        name, error = left_out[0]
        warn(
            f"{len(left_out)} collision geometries are left out of contact: mallard computes no "
            f"convex hull of their meshes (e.g. '{name}': {error})"
        )


def _add_package_paths(package_map, package_paths):
    for entry in package_paths:
        name, sep, directory = entry.rpartition("=")
        if not os.path.isdir(directory):
            raise UsageError(f"--package-path {entry}: directory '{directory}' does not exist")
        try:
            if sep:
                package_map.Add(name, os.path.abspath(directory))
            else:
                package_map.PopulateFromFolder(os.path.abspath(directory))
        except RuntimeError as e:
            raise UsageError(f"--package-path {entry}: {e}") from e
    if os.environ.get("ROS_PACKAGE_PATH"):
        package_map.PopulateFromRosPackagePath()


def _model_path(spec, package_map):
    """The absolute file path of ``spec``; CliError if it does not name a model file."""
    if "://" in spec:
        try:
            return package_map.ResolveUrl(spec)
        except RuntimeError as e:
            raise CliError(f"cannot resolve the model URL '{spec}': {e}") from e
    if not os.path.exists(spec):
        raise CliError(f"the model file '{spec}' does not exist")
    if not os.path.isfile(spec):
        raise CliError(f"the model '{spec}' is not a file")
    if not spec.lower().endswith(_MODEL_SUFFIXES):
        raise CliError(
            f"the model file '{spec}' is not a .urdf, .sdf, .xml (MuJoCo) or .dmd.yaml file"
        )
    return os.path.abspath(spec)


def _discover_packages(package_map, path):
    """Adds the packages found from the model file ``path`` upward: each ancestor directory's
    package.xml, and each ancestor directory named as a package the file refers to (as
    example-robot-data's robots refer to package://example-robot-data/robots/...)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            wanted = set(_PACKAGE_URI.findall(f.read()))
    except OSError as e:
        raise CliError(f"cannot read the model file '{path}': {e.strerror}") from e
    directory = os.path.dirname(path)
    while True:
        manifest = os.path.join(directory, "package.xml")
        if os.path.isfile(manifest):
            try:
                package_map.AddPackageXml(manifest)
            except RuntimeError:
                pass  # a package of that name is already known: the explicit one wins
        name = os.path.basename(directory)
        if name in wanted and not package_map.Contains(name):
            package_map.Add(name, directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            return
        directory = parent


def parse_vector(values, names, option):
    """The numbers of ``values`` (strings of comma- or space-separated numbers) as a vector
    of len(names); UsageError naming ``option`` and the expected ``names`` otherwise."""
    tokens = [t for value in values for t in re.split(r"[,\s]+", value.strip()) if t]
    try:
        vector = np.array([float(t) for t in tokens])
    except ValueError:
        bad = next(t for t in tokens if not _is_number(t))
        raise UsageError(f"{option}: '{bad}' is not a number") from None
    if not np.all(np.isfinite(vector)):
        raise UsageError(f"{option}: the numbers must be finite, got {', '.join(tokens)}")
    if vector.size != len(names):
        raise UsageError(
            f"{option} has {vector.size} numbers, expected {len(names)}: "
            + (", ".join(names) if names else "(the model has none)")
        )
    return vector


def _is_number(token):
    try:
        float(token)
    except ValueError:
        return False
    return True


def coordinate_names(plant):
    """(position names, velocity names) of ``plant``, prefixed by the model instance only
    when more than one model instance has coordinates."""
    instances = {
        int(plant.get_joint(j).model_instance())
        for j in plant.GetJointIndices()
        if plant.get_joint(j).num_velocities() > 0
    }
    prefix = len(instances) > 1
    return plant.GetPositionNames(prefix), plant.GetVelocityNames(prefix)
