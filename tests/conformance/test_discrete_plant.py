"""Discrete plants against pydrake's (SAP, its default solver), and the Panda acceptance
test (limits held, no energy gain at them).

Agreement measured and asserted:
* without limits or constraints, SAP's step is the semi-implicit Euler step with implicit
  damping to round-off: single steps agree to 1e-15 and 1 s of 1 ms steps (1000 steps) of
  the acrobot and of the Panda (limits and mimic stripped) to 1e-12 in q and 1e-11 in v;
* with limits, SAP's limits are compliant (penetration ~1e-9 rad at 1 ms, released
  slowly) where mallard's are exact: the Panda falling from its home pose agrees to 1e-8
  for the first 100 steps, then the limit impacts make the two drift apart (0.03 rad at 1 s
  measured; asserted < 0.1 rad);
* reaction forces agree to 1e-10 (continuous, and discrete after a step, at a limit too).
"""

import logging

import numpy as np
import pytest

import mallard.all as M
from tests.multibody.plant.discrete_helpers import PANDA_HOME, advance, make_panda, panda_root

D = pytest.importorskip("pydrake.all")
needs_panda = pytest.mark.skipif(panda_root() is None, reason="example-robot-data missing")

ACROBOT = "mallard/models/acrobot.urdf"


def acrobot(module, time_step):
    import os

    plant = module.MultibodyPlant(time_step)
    module.Parser(plant).AddModels(
        os.path.join(os.path.dirname(M.__file__), "models", "acrobot.urdf")
    )
    plant.Finalize()
    return plant


def run_both(make, x0, steps, checkpoints):
    """(mallard, pydrake) states at the ``checkpoints`` (step counts)."""
    pm, pd = make(M), make(D)
    cm, cd = pm.CreateDefaultContext(), pd.CreateDefaultContext()
    pm.SetPositionsAndVelocities(cm, x0)
    pd.SetPositionsAndVelocities(cd, x0)
    simulators = M.Simulator(pm, cm), D.Simulator(pd, cd)
    h, out = pm.time_step(), []
    for n in checkpoints:
        for simulator in simulators:
            simulator.AdvanceTo(n * h)
        out.append((pm.GetPositionsAndVelocities(cm), pd.GetPositionsAndVelocities(cd)))
    return pm.num_positions(), out


def test_acrobot_discrete_trajectory_agrees_to_round_off():
    nq, out = run_both(lambda m: acrobot(m, 1e-3), np.array([1.0, 0.5, 0.0, 0.0]), 1000, [1, 1000])
    (xm1, xd1), (xm, xd) = out
    np.testing.assert_allclose(xm1, xd1, atol=1e-15)
    np.testing.assert_allclose(xm[:nq], xd[:nq], atol=1e-12)
    np.testing.assert_allclose(xm[nq:], xd[nq:], atol=1e-11)


@needs_panda
def test_panda_discrete_trajectory_without_limits_agrees_to_round_off():
    logging.disable(logging.WARNING)
    try:
        x0 = np.concatenate((PANDA_HOME, np.zeros(9)))
        nq, out = run_both(lambda m: make_panda(m, 1e-3, True, True), x0, 1000, [1, 1000])
    finally:
        logging.disable(logging.NOTSET)
    (xm1, xd1), (xm, xd) = out
    np.testing.assert_allclose(xm1, xd1, atol=1e-15)
    np.testing.assert_allclose(xm[:nq], xd[:nq], atol=1e-12)
    np.testing.assert_allclose(xm[nq:], xd[nq:], atol=1e-11)


@needs_panda
def test_panda_discrete_with_limits_and_mimic_stays_close_to_sap():
    logging.disable(logging.WARNING)
    try:
        x0 = np.concatenate((PANDA_HOME, np.zeros(9)))
        nq, out = run_both(lambda m: make_panda(m, 1e-3), x0, 1000, [100, 1000])
    finally:
        logging.disable(logging.NOTSET)
    (xm, xd), (xm1, xd1) = out
    np.testing.assert_allclose(xm[:nq], xd[:nq], atol=1e-8)
    assert np.max(np.abs(xm1[:nq] - xd1[:nq])) < 0.1


@needs_panda
def test_panda_falling_for_one_second_holds_its_limits_without_energy_gain():
    """The acceptance test: 1000 steps of 1 ms from the home pose, mimic → coupler."""
    logging.disable(logging.WARNING)
    try:
        plant = make_panda(M, 1e-3)
    finally:
        logging.disable(logging.NOTSET)
    assert plant.num_constraints() == 1  # the fingers' mimic
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, PANDA_HOME)
    lower, upper = plant.GetPositionLowerLimits(), plant.GetPositionUpperLimits()
    energy0 = plant.EvalKineticEnergy(context) + plant.EvalPotentialEnergy(context)
    worst, limited_steps = 0.0, 0
    for _ in range(1000):
        # The step's free velocity v* and metric A = M + h·D: the constraints (limits and
        # the coupler, both satisfied by q here, so v = 0 is feasible) are an A-projection
        # onto a convex set holding 0, which never adds kinetic energy: ‖v⁺‖_A ≤ ‖v*‖_A.
        h = plant.time_step()
        v_star = plant.GetVelocities(context) + h * plant._forward_dynamics(context).work.vdot
        A = plant.CalcMassMatrix(context) + np.diag(plant._step_diagonal(context))
        advance(plant, context, 1)
        v_next = plant.GetVelocities(context)
        q = plant.GetPositions(context)
        worst = max(worst, np.max(lower - q), np.max(q - upper))
        if np.any(
            np.isclose(q[:7], lower[:7], atol=1e-9) | np.isclose(q[:7], upper[:7], atol=1e-9)
        ):
            limited_steps += 1
            assert v_next @ A @ v_next <= v_star @ A @ v_star * (1 + 1e-12)
    assert worst <= 1e-6
    assert limited_steps > 100  # the arm does reach its limits (670 steps measured)
    final = plant.EvalKineticEnergy(context) + plant.EvalPotentialEnergy(context)
    assert final < energy0 - 10.0  # the inelastic limits took energy out (42 J measured)
    q = plant.GetPositions(context)
    assert q[7] == pytest.approx(q[8], abs=1e-12)  # the coupler


def reaction_pendulum(module, time_step, limits=None):
    plant = module.MultibodyPlant(time_step)
    body = plant.AddRigidBody(
        "b", module.SpatialInertia.SolidSphereWithMass(2.0, 0.1).Shift([0.3, 0, -1])
    )
    F = plant.AddFrame(
        module.FixedOffsetFrame(
            "F",
            plant.world_frame(),
            module.RigidTransform(module.RollPitchYaw(0.1, 0.2, 0.3), [0, 0, 1]),
        )
    )
    Mf = plant.AddFrame(
        module.FixedOffsetFrame(
            "M",
            body.body_frame(),
            module.RigidTransform(module.RollPitchYaw(0.3, 0.2, 0.1), [0.1, 0, 0]),
        )
    )
    joint = plant.AddJoint(module.RevoluteJoint("j", F, Mf, [0, 1, 0], 0.5))
    if limits:
        joint.set_position_limits([limits[0]], [limits[1]])
    plant.Finalize()
    return plant


@pytest.mark.parametrize("time_step, limits", [(0.0, None), (0.01, None), (0.01, (-0.1, 0.1))])
def test_reaction_forces_agree_with_pydrake(time_step, limits):
    logging.disable(logging.WARNING)
    try:
        forces = []
        for module in (M, D):
            plant = reaction_pendulum(module, time_step, limits)
            context = plant.CreateDefaultContext()
            plant.SetPositionsAndVelocities(context, [0.1, 0.3])
            if time_step:
                if module is M:
                    advance(plant, context, 1)
                else:
                    D.Simulator(plant, context).AdvanceTo(time_step)
            (F,) = plant.get_reaction_forces_output_port().Eval(context)
            forces.append(np.concatenate((F.rotational(), F.translational())))
    finally:
        logging.disable(logging.NOTSET)
    # At the limit SAP leaves 7e-7 rad of penetration (and its force is compliant): 2e-3
    # relative there; to round-off otherwise.
    np.testing.assert_allclose(forces[0], forces[1], rtol=1e-3 if limits else 1e-10, atol=1e-10)
