"""Simulated physics against truths: a pendulum's period (the exact elliptic-integral value
for small and large amplitudes), energy conservation of an undamped acrobot, and monotone
energy decay of a damped one."""

import math

import numpy as np
import pytest

from mallard.models import AcrobotParameters, MakeAcrobotPlant
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import RevoluteJoint, RotationalInertia, SpatialInertia
from mallard.systems.analysis import ApplySimulatorConfig, Simulator, SimulatorConfig

MASS, LENGTH, INERTIA = 1.0, 0.5, 0.001  # bob mass, pivot-to-center distance, I about center


def make_pendulum():
    plant = MultibodyPlant(0.0)
    bob = plant.AddRigidBody(
        "bob",
        SpatialInertia.MakeFromCentralInertia(
            MASS, [0.0, 0.0, -LENGTH], RotationalInertia(INERTIA, INERTIA, INERTIA)
        ),
    )
    plant.AddJoint(RevoluteJoint("theta", plant.world_frame(), bob.body_frame(), [0.0, 1.0, 0.0]))
    plant.Finalize()
    return plant


def elliptic_k(k):
    """The complete elliptic integral of the first kind K(k) = π / (2·AGM(1, √(1−k²)))."""
    a, b = 1.0, math.sqrt(1.0 - k * k)
    for _ in range(40):  # converges quadratically: a handful of iterations reach eps
        a, b = (a + b) / 2, math.sqrt(a * b)
    assert abs(a - b) <= 4e-16 * a
    return math.pi / (2 * a)


def exact_period(theta0, gravity):
    omega0 = math.sqrt(MASS * gravity * LENGTH / (INERTIA + MASS * LENGTH**2))
    return 4 * elliptic_k(math.sin(theta0 / 2)) / omega0


def zero_crossings(samples):
    """Times where θ changes sign, from (t, θ, θ̇) samples: cubic Hermite interpolation on
    each step, refined by bisection."""
    times = []
    for (t0, q0, v0), (t1, q1, v1) in zip(samples, samples[1:], strict=False):
        if q0 == 0 or q0 * q1 >= 0:
            continue
        h = t1 - t0

        def q(s, t0=t0, q0=q0, v0=v0, q1=q1, v1=v1, h=h):
            # Hermite basis on s ∈ [0, 1].
            return (
                (2 * s**3 - 3 * s**2 + 1) * q0
                + (s**3 - 2 * s**2 + s) * h * v0
                + (-2 * s**3 + 3 * s**2) * q1
                + (s**3 - s**2) * h * v1
            )

        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if q(lo) * q(mid) <= 0:
                hi = mid
            else:
                lo = mid
        times.append(t0 + h * (lo + hi) / 2)
    return times


@pytest.mark.parametrize("theta0", [0.1, 1.0, 2.5])
def test_pendulum_period_matches_elliptic_integral(theta0):
    plant = make_pendulum()
    gravity = -plant.gravity_field().gravity_vector()[2]
    period = exact_period(theta0, gravity)
    simulator = Simulator(plant)
    ApplySimulatorConfig(
        SimulatorConfig(integration_scheme="runge_kutta5", accuracy=1e-12, max_step_size=0.01),
        simulator,
    )
    context = simulator.get_mutable_context()
    context.SetContinuousState([theta0, 0.0])
    samples = []
    simulator.set_monitor(
        lambda c: samples.append((c.get_time(), *c.get_continuous_state_vector().CopyToVector()))
    )
    simulator.AdvanceTo(1.5 * period)
    crossings = zero_crossings(samples)
    # From rest at θ0: θ = 0 at T/4 and 3T/4, 5T/4.
    assert len(crossings) == 3
    np.testing.assert_allclose(crossings, np.array([0.25, 0.75, 1.25]) * period, rtol=1e-8)
    assert crossings[2] - crossings[0] == pytest.approx(period, rel=1e-8)
    # The large-amplitude period is measurably longer than the small-angle one.
    if theta0 > 2:
        assert period > 1.3 * exact_period(1e-9, gravity)


def total_energy(plant, context):
    return plant.CalcKineticEnergy(context) + plant.CalcPotentialEnergy(context)


@pytest.mark.parametrize("scheme", ["runge_kutta3", "runge_kutta5"])
def test_undamped_acrobot_conserves_energy(scheme):
    plant = MakeAcrobotPlant(AcrobotParameters(b1=0.0, b2=0.0))
    simulator = Simulator(plant)
    ApplySimulatorConfig(SimulatorConfig(integration_scheme=scheme, accuracy=1e-8), simulator)
    context = simulator.get_mutable_context()
    context.SetContinuousState([1.0, 0.5, 0.0, 0.0])
    energy0 = total_energy(plant, context)
    drift = 0.0
    for t in np.arange(1, 11):
        simulator.AdvanceTo(float(t))
        drift = max(drift, abs(total_energy(plant, context) - energy0) / abs(energy0))
    assert drift < 1e-6
    # The motion is no small oscillation: the links went around several times.
    assert simulator.get_num_steps_taken() > 100


def test_damped_acrobot_energy_decreases_monotonically():
    plant = MakeAcrobotPlant()  # b1 = b2 = 0.1
    simulator = Simulator(plant)
    ApplySimulatorConfig(SimulatorConfig(accuracy=1e-6), simulator)
    context = simulator.get_mutable_context()
    context.SetContinuousState([1.0, 0.5, 0.0, 0.0])
    energies = []
    simulator.set_monitor(lambda c: energies.append(total_energy(plant, c)))
    simulator.AdvanceTo(3.0)
    energies = np.array(energies)
    assert len(energies) > 100
    assert np.all(np.diff(energies) <= 1e-12 * abs(energies[0]))
    assert energies[-1] < energies[0] - 0.1  # and it does lose energy
