"""``python -m mallard``: the dynamics of the acrobot model mallard ships.

Until simulation exists, this is mallard's main job: it builds the acrobot (a double pendulum
actuated at the elbow), puts it in a state, and prints its kinematics and dynamics.
"""

import numpy as np

from mallard.models import MakeAcrobotPlant


def main():
    plant = MakeAcrobotPlant()
    context = plant.CreateDefaultContext()
    q = np.array([0.3, -0.5])
    v = np.array([1.0, 2.0])
    plant.SetPositions(context, q)
    plant.SetVelocities(context, v)
    np.set_printoptions(precision=6, suppress=True)
    print(
        "mallard: the acrobot (MultibodyPlant with "
        f"{plant.num_bodies() - 1} bodies, nq = {plant.num_positions()}, "
        f"nv = {plant.num_velocities()})"
    )
    print(f"  state: q = {q}, v = {v}   (shoulder, elbow angles in rad)")
    tip = plant.GetBodyByName("link2")
    print(f"  link2 origin in World: {plant.EvalBodyPoseInWorld(context, tip).translation()}")
    print(f"  center of mass in World: {plant.CalcCenterOfMassPositionInWorld(context)}")
    print("  mass matrix M(q):")
    print("   ", str(plant.CalcMassMatrix(context)).replace("\n", "\n    "))
    print(f"  bias term C(q, v)·v: {plant.CalcBiasTerm(context)}")
    print(f"  gravity generalized forces tau_g(q): {plant.CalcGravityGeneralizedForces(context)}")
    plant.get_actuation_input_port().FixValue(context, [0.0])
    xdot = plant.EvalTimeDerivatives(context).CopyToVector()
    print(f"  accelerations v̇ (passive, with joint damping): {xdot[2:]}")
    print(
        f"  kinetic energy {plant.EvalKineticEnergy(context):.6f} J, "
        f"potential energy {plant.EvalPotentialEnergy(context):.6f} J"
    )


if __name__ == "__main__":
    main()
