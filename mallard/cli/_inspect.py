"""``mallard inspect``: the model instances, bodies, joints and actuators of a model."""

import numpy as np

from mallard.cli._model import CliError, load_model
from mallard.cli._output import format_number, format_table
from mallard.multibody.tree import BodyIndex, ModelInstanceIndex

HELP = "print a model's instances, bodies, joints and actuators"
DESCRIPTION = """\
Prints tables of MODEL's model instances, bodies (mass, center of mass Bcm in the body frame
B), joints (type, parent -> child body, slots in q and v, position limits, damping) and
actuators (joint, effort limit), then the total mass and nq, nv, nu. --graphviz FILE writes
the topology (bodies and joints) as a Graphviz .dot file."""


def add_parser(subparsers, add_model_arguments):
    parser = subparsers.add_parser("inspect", help=HELP, description=DESCRIPTION)
    parser.add_argument("model", metavar="MODEL", help="a .urdf/.sdf file or a package:// URL")
    add_model_arguments(parser)
    parser.add_argument(
        "--graphviz", metavar="FILE", help="write the topology as Graphviz dot text to FILE"
    )
    parser.set_defaults(run=run)


def _slots(start, count):
    """``start`` or ``start-end`` (inclusive) of ``count`` coordinates; "-" if none."""
    if count == 0:
        return "-"
    return str(start) if count == 1 else f"{start}-{start + count - 1}"


def _limits(lower, upper):
    """``[lower, upper]`` per coordinate ("; "-separated); "none" if all are infinite."""
    if np.all(np.isinf(lower)) and np.all(np.isinf(upper)):
        return "none"
    return "; ".join(
        f"[{format_number(lo)}, {format_number(hi)}]" for lo, hi in zip(lower, upper, strict=True)
    )


def _values(vector):
    """The numbers of ``vector``, one if they are all equal; "-" if empty."""
    if len(vector) == 0:
        return "-"
    if np.all(vector == vector[0]):
        return format_number(vector[0])
    return ", ".join(format_number(x) for x in vector)


def _instance_rows(plant):
    rows = []
    for i in range(plant.num_model_instances()):
        instance = ModelInstanceIndex(i)
        rows.append(
            [
                str(i),
                plant.GetModelInstanceName(instance),
                str(len(plant.GetBodyIndices(instance))),
                str(len(plant.GetJointIndices(instance))),
                str(len(plant.GetJointActuatorIndices(instance))),
                str(plant.num_positions(instance)),
                str(plant.num_velocities(instance)),
            ]
        )
    return rows


def _body_rows(plant):
    rows = []
    for i in range(plant.num_bodies()):
        body = plant.get_body(BodyIndex(i))
        com = body.default_com()
        rows.append(
            [
                str(i),
                body.name(),
                plant.GetModelInstanceName(body.model_instance()),
                format_number(body.default_mass()),
                "-" if np.any(np.isnan(com)) else " ".join(format_number(c) for c in com),
            ]
        )
    return rows


def _joint_rows(plant):
    rows = []
    for index in plant.GetJointIndices():
        joint = plant.get_joint(index)
        rows.append(
            [
                str(int(index)),
                joint.name(),
                joint.type_name(),
                f"{joint.parent_body().name()} -> {joint.child_body().name()}",
                _slots(joint.position_start(), joint.num_positions()),
                _slots(joint.velocity_start(), joint.num_velocities()),
                _limits(joint.position_lower_limits(), joint.position_upper_limits()),
                _values(joint.default_damping_vector()),
            ]
        )
    return rows


def _actuator_rows(plant):
    rows = []
    for index in plant.GetJointActuatorIndices():
        actuator = plant.get_joint_actuator(index)
        rows.append(
            [
                str(int(index)),
                actuator.name(),
                actuator.joint().name(),
                format_number(actuator.effort_limit()),
            ]
        )
    return rows


def run(args):
    model = load_model(args.model, args.package_path)
    plant = model.plant
    print(f"model: {args.model} ({model.path})")
    print(f"\nmodel instances ({plant.num_model_instances()}):")
    print(
        format_table(
            ["index", "name", "bodies", "joints", "actuators", "nq", "nv"], _instance_rows(plant)
        )
    )
    print(f"\nbodies ({plant.num_bodies()}):")
    print(
        format_table(
            ["index", "name", "model instance", "mass [kg]", "p_BoBcm_B [m]"], _body_rows(plant)
        )
    )
    print(f"\njoints ({plant.num_joints()}):")
    print(
        format_table(
            [
                "index",
                "name",
                "type",
                "parent -> child",
                "q",
                "v",
                "position limits",
                "damping",
            ],
            _joint_rows(plant),
        )
    )
    print(f"\nactuators ({plant.num_actuators()}):")
    print(
        format_table(["index", "name", "joint", "effort limit"], _actuator_rows(plant))
        if plant.num_actuators()
        else "  (none)"
    )
    context = plant.CreateDefaultContext()
    print(
        f"\ntotal mass: {format_number(plant.CalcTotalMass(context))} kg; "
        f"nq = {plant.num_positions()}, nv = {plant.num_velocities()}, "
        f"nu = {plant.num_actuated_dofs()}"
    )
    if args.graphviz:
        try:
            with open(args.graphviz, "w", encoding="utf-8") as f:
                f.write(plant.GetTopologyGraphvizString())
        except OSError as e:
            raise CliError(f"cannot write --graphviz {args.graphviz}: {e.strerror}") from e
        print(f"wrote the topology to {args.graphviz}")
    return 0
