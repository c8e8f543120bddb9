"""``mallard dynamics``: the terms of M(q)·v̇ + C(q, v)·v = τ_g(q) + τ of a model at a state."""

import numpy as np

from mallard.cli._compilation import CompilationWatch
from mallard.cli._model import coordinate_names, load_model, parse_vector

HELP = "print a model's mass matrix, bias term and gravity forces at a state"
DESCRIPTION = """\
Prints, at the state (--q, --v) of MODEL (default: its default positions, zero
velocities), the terms of M(q)·v̇ + C(q, v)·v = τ_g(q) + τ: the mass matrix M(q), the bias
term C(q, v)·v (Coriolis, centripetal and gyroscopic) and the generalized gravity forces
τ_g(q), each row and column named by its velocity coordinate; then the accelerations v̇
with zero actuation (and the joints' damping and contact), and the kinetic and potential
energy."""


def add_parser(subparsers, add_model_arguments):
    parser = subparsers.add_parser("dynamics", help=HELP, description=DESCRIPTION)
    parser.add_argument("model", metavar="MODEL", help="a .urdf/.sdf file or a package:// URL")
    add_model_arguments(parser)
    parser.add_argument("--q", nargs="+", metavar="Q", help="positions, e.g. --q 0.3,-0.5")
    parser.add_argument("--v", nargs="+", metavar="V", help="velocities (as --q)")
    parser.set_defaults(run=run)


def _format_vector(names, values, width):
    return "\n".join(f"  {name:<{width}}  {x:15.9g}" for name, x in zip(names, values, strict=True))


def run(args):
    model = load_model(args.model, args.package_path)
    with CompilationWatch():
        _print_dynamics(args, model)
    return 0


def _print_dynamics(args, model):
    plant = model.plant
    position_names, velocity_names = coordinate_names(plant)
    # (in the Diagram with its SceneGraph: the accelerations include contact)
    context = plant.GetMyMutableContextFromRoot(model.builder.Build().CreateDefaultContext())
    if args.q is not None:
        plant.SetPositions(context, parse_vector(args.q, position_names, "--q"))
    if args.v is not None:
        plant.SetVelocities(context, parse_vector(args.v, velocity_names, "--v"))
    width = max([len(n) for n in position_names + velocity_names], default=1)
    print(f"model: {args.model}; nq = {plant.num_positions()}, nv = {plant.num_velocities()}")
    print("q:")
    print(_format_vector(position_names, plant.GetPositions(context), width))
    print("v:")
    print(_format_vector(velocity_names, plant.GetVelocities(context), width))
    print("mass matrix M(q) (rows and columns in v order):")
    column = max([15, *(len(n) for n in velocity_names)])
    print(f"  {'':<{width}}" + "".join(f" {name:>{column}}" for name in velocity_names))
    for name, row in zip(velocity_names, plant.CalcMassMatrix(context), strict=True):
        print(f"  {name:<{width}}" + "".join(f" {x:{column}.9g}" for x in row))
    print("bias term C(q, v)·v:")
    print(_format_vector(velocity_names, plant.CalcBiasTerm(context), width))
    print("gravity generalized forces tau_g(q):")
    print(_format_vector(velocity_names, plant.CalcGravityGeneralizedForces(context), width))
    if plant.num_constraints():
        print("accelerations v̇: not computed (a continuous plant cannot have constraints)")
    else:
        plant.get_actuation_input_port().FixValue(context, np.zeros(plant.num_actuators()))
        vdot = plant.EvalTimeDerivatives(context).CopyToVector()[plant.num_positions() :]
        print("accelerations v̇ (zero actuation, with joint damping and contact):")
        print(_format_vector(velocity_names, vdot, width))
    print(f"kinetic energy: {plant.EvalKineticEnergy(context):.9g} J")
    print(f"potential energy: {plant.EvalPotentialEnergy(context):.9g} J")
