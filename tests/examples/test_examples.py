"""mallard.examples against closed forms: the pendulum's and the acrobot's energy is conserved
without damping and input, the acrobot's mass matrix is the kinetic energy's Hessian in q̇,
and the Van der Pol oscillator's derivatives are its equation's."""

import numpy as np
import pytest

from mallard.examples import AcrobotPlant, PendulumPlant, VanDerPolOscillator
from mallard.systems.analysis import Simulator


def undamped(plant):
    context = plant.CreateDefaultContext()
    params = plant.get_mutable_parameters(context)
    for name in ("damping", "b1", "b2"):
        if hasattr(params, f"set_{name}"):
            getattr(params, f"set_{name}")(0.0)
    plant.get_input_port().FixValue(context, [0.0])
    return context


@pytest.mark.parametrize("plant, x0", [(PendulumPlant(), [1.0, 0.5]),
                                       (AcrobotPlant(), [1.0, -0.5, 0.2, 0.1])])  # fmt: skip
def test_energy_conserved(plant, x0):
    context = undamped(plant)
    context.SetContinuousState(x0)

    def energy():
        return plant.EvalPotentialEnergy(context) + plant.EvalKineticEnergy(context)

    e0 = energy()
    simulator = Simulator(plant, context)
    simulator.get_mutable_integrator().set_target_accuracy(1e-10)
    simulator.AdvanceTo(2.0)
    assert abs(energy() - e0) < 1e-7 * abs(e0)


def test_pendulum_closed_form():
    plant = PendulumPlant()
    context = plant.CreateDefaultContext()
    plant.get_input_port().FixValue(context, [0.3])
    context.SetContinuousState([0.4, 0.2])
    m, l, b, g = 1.0, 0.5, 0.1, 9.81
    expected = (0.3 - m * g * l * np.sin(0.4) - b * 0.2) / (m * l * l)
    np.testing.assert_allclose(
        plant.EvalTimeDerivatives(context).CopyToVector(), [0.2, expected], rtol=1e-15
    )


def test_acrobot_mass_matrix_is_the_kinetic_energy_hessian():
    plant = AcrobotPlant()
    context = plant.CreateDefaultContext()
    q = [0.3, -1.1]
    context.SetContinuousState([*q, 0.0, 0.0])
    M = plant.MassMatrix(context)
    for v in np.random.default_rng(0).normal(size=(3, 2)):
        context.SetContinuousState([*q, *v])
        np.testing.assert_allclose(plant.EvalKineticEnergy(context), 0.5 * v @ M @ v, rtol=1e-14)
    assert np.allclose(M, M.T) and np.all(np.linalg.eigvalsh(M) > 0)


def test_van_der_pol():
    vdp = VanDerPolOscillator()
    context = vdp.CreateDefaultContext()
    context.get_mutable_numeric_parameter(0).SetAtIndex(0, 2.0)
    context.SetContinuousState([0.4, -0.3])
    np.testing.assert_allclose(
        vdp.EvalTimeDerivatives(context).CopyToVector(),
        [-0.3, -2.0 * (0.4**2 - 1) * -0.3 - 0.4],
        rtol=1e-15,
    )
    assert vdp.get_position_output_port().Eval(context)[0] == 0.4
    limit = VanDerPolOscillator.CalcLimitCycle()
    np.testing.assert_allclose(limit[:, -1], limit[:, 0], atol=0.02)  # (one period)
