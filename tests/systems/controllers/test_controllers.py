"""PidController, InverseDynamics and InverseDynamicsController: ports, state and outputs
(closed forms; the numbers were also checked against pydrake's)."""

import os

import numpy as np
import pytest

import mallard
from mallard.all import MultibodyForces, MultibodyPlant, Parser
from mallard.systems.controllers import InverseDynamics, InverseDynamicsController, PidController


def ports(system):
    inputs = [
        (p.get_name(), p.size())
        for p in map(system.get_input_port, range(system.num_input_ports()))
    ]
    outputs = [
        (p.get_name(), p.size())
        for p in map(system.get_output_port, range(system.num_output_ports()))
    ]
    return inputs, outputs


def test_pid_controller_ports_state_and_output():
    pid = PidController(kp=[1.0, 2.0], ki=[0.5, 0.5], kd=[0.1, 0.2])
    assert ports(pid) == ([("estimated_state", 4), ("desired_state", 4)], [("control", 2)])
    context = pid.CreateDefaultContext()
    assert context.num_continuous_states() == 2
    np.testing.assert_array_equal(pid.get_Kp_vector(), [1.0, 2.0])
    pid.get_input_port_estimated_state().FixValue(context, [1, 2, 3, 4])
    pid.get_input_port_desired_state().FixValue(context, [0, 0, 0, 0])
    pid.set_integral_value(context, [1.0, 1.0])
    np.testing.assert_allclose(pid.get_output_port_control().Eval(context), [-0.8, -4.3])
    np.testing.assert_allclose(pid.EvalTimeDerivatives(context).CopyToVector(), [-1.0, -2.0])


def test_pid_controller_projections_and_errors():
    pid = PidController(
        np.array([[1.0, 0, 0], [0, 0, 1.0]]), np.array([[2.0]]), [1.0], [0.0], [0.5]
    )
    assert ports(pid) == ([("estimated_state", 3), ("desired_state", 2)], [("control", 1)])
    context = pid.CreateDefaultContext()
    pid.get_input_port_estimated_state().FixValue(context, [1.0, 9.0, 2.0])
    pid.get_input_port_desired_state().FixValue(context, [0.0, 0.0])
    np.testing.assert_allclose(pid.get_output_port_control().Eval(context), [2.0 * (-1.0 - 1.0)])
    with pytest.raises(RuntimeError, match=r"Gains must have equal length: \|Kp\| = 1, \|Ki\| = 2"):
        PidController(kp=[1.0], ki=[0.0, 1.0], kd=[0.0])


def acrobot_fully_actuated():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(
        os.path.join(os.path.dirname(mallard.__file__), "models", "acrobot.urdf")
    )
    plant.AddJointActuator("shoulder_act", plant.GetJointByName("shoulder"))
    plant.Finalize()
    return plant


@pytest.mark.parametrize("reference", [False, True])
def test_inverse_dynamics_controller(reference):
    plant = acrobot_fully_actuated()
    kp, ki, kd = np.array([1.0, 2.0]), np.array([0.5, 0.5]), np.array([0.1, 0.2])
    controller = InverseDynamicsController(plant, kp, ki, kd, reference)
    inputs = [("estimated_state", 4), ("desired_state", 4)] + (
        [("desired_acceleration", 2)] if reference else []
    )
    assert ports(controller) == (inputs, [("actuation", 2), ("generalized_force", 2)])
    context = controller.CreateDefaultContext()
    x = np.array([0.1, 0.2, 0.3, 0.4])
    controller.get_input_port_estimated_state().FixValue(context, x)
    controller.get_input_port_desired_state().FixValue(context, np.zeros(4))
    vdot = kp * -x[:2] + kd * -x[2:]
    if reference:
        controller.get_input_port_desired_acceleration().FixValue(context, [1.0, 2.0])
        vdot = vdot + [1.0, 2.0]
    plant_context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(plant_context, x)
    forces = MultibodyForces(plant)
    plant.CalcForceElementsContribution(plant_context, forces)
    tau = plant.CalcInverseDynamics(plant_context, vdot, forces)
    np.testing.assert_allclose(controller.get_output_port_generalized_force().Eval(context), tau)
    # u in actuator order: the URDF's elbow actuator first, then the shoulder's.
    np.testing.assert_allclose(controller.get_output_port_control().Eval(context), tau[::-1])
    expected = [2.01822481, 2.60879495] if not reference else [6.98829139, 11.85206126]
    np.testing.assert_allclose(
        controller.get_output_port_control().Eval(context), expected, rtol=1e-8
    )


def test_inverse_dynamics_controller_needs_a_fully_actuated_robot():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(
        os.path.join(os.path.dirname(mallard.__file__), "models", "acrobot.urdf")
    )
    plant.Finalize()
    with pytest.raises(RuntimeError, match="Your plant has 2 positions, but only 1 actuators."):
        InverseDynamicsController(plant, [1, 1], [0, 0], [1, 1], False)


def test_inverse_dynamics_modes():
    plant = acrobot_fully_actuated()
    full = InverseDynamics(plant, InverseDynamics.InverseDynamicsMode.kInverseDynamics)
    assert ports(full) == (
        [("estimated_state", 4), ("desired_acceleration", 2)],
        [("generalized_force", 2)],
    )
    gravity = InverseDynamics(plant, InverseDynamics.InverseDynamicsMode.kGravityCompensation)
    assert ports(gravity) == ([("estimated_state", 4)], [("generalized_force", 2)])
    context = gravity.CreateDefaultContext()
    gravity.get_input_port_estimated_state().FixValue(context, [0.3, 0.2, 5.0, 6.0])
    plant_context = plant.CreateDefaultContext()
    plant.SetPositions(plant_context, [0.3, 0.2])
    np.testing.assert_allclose(
        gravity.get_output_port_generalized_force().Eval(context),
        -plant.CalcGravityGeneralizedForces(plant_context),
    )
