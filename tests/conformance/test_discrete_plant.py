"""Discrete plants against pydrake's, for each discrete contact approximation (SAP for kSap,
kSimilar, kLagged; TAMSI for kTamsi), and the reaction forces.

Agreement measured and asserted (the same problem solved by the same algorithm: SAP's Newton
iterates and stopping decisions agree, so trajectories agree to round-off, not just to the
solver's tolerance):
* without limits or constraints, a step is the free motion: single steps agree to 1e-15 and
  1 s of 1 ms steps of the acrobot and of the Panda to 1e-12 in q and 1e-11 in v;
* the Panda falling from its home pose through its joint limits (and its fingers' coupler),
  1.5 s of 1 ms steps: 3e-12 in q and 1e-10 in v measured (asserted 1e-9, 1e-8);
* the Panda PD-controlled toward a pose with effort limits, 1 s: 1e-14 in q, 2e-12 in v and
  1.3e-11 N·m in the net actuation measured (asserted 1e-10, 1e-9, 1e-8);
* a coupler with limits on both joints, locked joints, a disarmed PD controller: 1e-10;
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
@pytest.mark.parametrize("approximation", ["kSap", "kSimilar", "kLagged", "kTamsi"])
def test_panda_falling_through_its_limits_agrees(approximation):
    """1.5 s of the Panda falling from its home pose, its joints hitting their limits (TAMSI:
    its penalty limits, the mimic stripped: TAMSI takes no coupler)."""
    tamsi = approximation == "kTamsi"
    logging.disable(logging.WARNING)
    try:
        x0 = np.concatenate((PANDA_HOME, np.zeros(9)))
        nq, out = run_both(
            lambda m: make_panda(m, 1e-3, strip_mimic=tamsi, approximation=approximation),
            x0,
            1500,
            [100, 700, 1500],
        )
    finally:
        logging.disable(logging.NOTSET)
    for xm, xd in out:
        np.testing.assert_allclose(xm[:nq], xd[:nq], atol=1e-9)
        np.testing.assert_allclose(xm[nq:], xd[nq:], atol=1e-8)
    if tamsi:
        return  # (its penalty limits let the joints in)
    panda = make_panda(M, 1e-3)
    lower, upper = panda.GetPositionLowerLimits()[:7], panda.GetPositionUpperLimits()[:7]
    q = out[-1][0][:7]
    assert np.sum(np.isclose(q, lower, atol=1e-3) | np.isclose(q, upper, atol=1e-3)) >= 2


@needs_panda
@pytest.mark.parametrize("approximation", ["kLagged", "kTamsi"])
def test_pd_controlled_panda_agrees(approximation):
    """The arm's 7 joints PD-controlled (Kp = 100, Kd = 10, effort limit 20 N·m, saturated at
    first) toward home + 0.5 rad for 1 s (TAMSI ignores PD gains, as Drake's)."""
    logging.disable(logging.WARNING)
    try:
        plants = [
            make_panda(
                m,
                1e-3,
                strip_mimic=approximation == "kTamsi",
                approximation=approximation,
                pd_gains=(100.0, 10.0),
                effort_limit=20.0,
            )
            for m in (M, D)
        ]
    finally:
        logging.disable(logging.NOTSET)
    results = []
    for plant, module in zip(plants, (M, D), strict=True):
        context = plant.CreateDefaultContext()
        plant.SetPositions(context, PANDA_HOME)
        desired = np.concatenate((PANDA_HOME[:7] + 0.5, np.zeros(7)))
        instance = plant.GetModelInstanceByName("panda")
        plant.get_desired_state_input_port(instance).FixValue(context, desired)
        simulator = module.Simulator(plant, context)
        rows = []
        for t in (0.001, 0.01, 0.2, 1.0):
            simulator.AdvanceTo(t)
            rows.append(
                np.concatenate(
                    (
                        plant.GetPositionsAndVelocities(context),
                        plant.get_net_actuation_output_port().Eval(context),
                    )
                )
            )
        results.append(np.array(rows))
    mallard, drake = results
    np.testing.assert_allclose(mallard[:, :9], drake[:, :9], atol=1e-10)
    np.testing.assert_allclose(mallard[:, 9:18], drake[:, 9:18], atol=1e-9)
    np.testing.assert_allclose(mallard[:, 18:], drake[:, 18:], atol=1e-8)
    if approximation != "kTamsi":
        assert np.any(np.abs(drake[0, 18:]) == 20.0)  # saturated at the first step


def coupled_pair(module, locked=None, approximation=None):
    """Two pendulums (revolute about y, then prismatic along z), coupled q0 = 2·q1 + 0.5, both
    limited; ``locked``: the joint (0 or 1) locked in the returned context."""
    plant = module.MultibodyPlant(0.002)
    a = plant.AddRigidBody(
        "a", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1).Shift([0, 0, -1])
    )
    b = plant.AddRigidBody(
        "b", module.SpatialInertia.SolidSphereWithMass(0.5, 0.1).Shift([0.2, 0, -1])
    )
    ja = plant.AddJoint(
        module.RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 1, 0], 0.1)
    )
    jb = plant.AddJoint(module.PrismaticJoint("jb", a.body_frame(), b.body_frame(), [0, 0, 1]))
    ja.set_position_limits([-0.4], [0.6])
    jb.set_position_limits([-0.05], [0.05])
    if approximation is not None:
        plant.set_discrete_contact_approximation(
            getattr(module.DiscreteContactApproximation, approximation)
        )
    if approximation != "kTamsi":
        plant.AddCouplerConstraint(ja, jb, 2.0, 0.5)
    plant.AddJointActuator("u", jb)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.45, 0.0, 2.0, -1.0])
    plant.get_actuation_input_port().FixValue(context, [3.0])
    if locked is not None:
        (ja, jb)[locked].Lock(context)
    return plant, context


@pytest.mark.parametrize(
    "locked, approximation", [(None, None), (0, None), (1, None), (0, "kTamsi"), (None, "kTamsi")]
)
def test_coupler_limits_and_locks_agree(locked, approximation):
    states = []
    for module in (M, D):
        plant, context = coupled_pair(module, locked, approximation)
        module.Simulator(plant, context).AdvanceTo(0.5)
        states.append(plant.GetPositionsAndVelocities(context))
    np.testing.assert_allclose(states[0], states[1], atol=1e-10)


def test_a_disarmed_pd_controller_ignores_its_input_as_drake():
    """An actuator with PD gains whose desired state input has no value: Drake's SAP leaves
    its input u out of the free motion (and applies no PD), reporting u as net actuation."""
    states = []
    for module in (M, D):
        plant = module.MultibodyPlant(0.002)
        body = plant.AddRigidBody(
            "a", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1).Shift([0, 0, -1])
        )
        joint = plant.AddJoint(
            module.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 1, 0])
        )
        actuator = plant.AddJointActuator("u", joint)
        actuator.set_controller_gains(module.PdControllerGains(p=10.0, d=1.0))
        plant.Finalize()
        context = plant.CreateDefaultContext()
        plant.SetPositions(context, [0.3])
        plant.get_actuation_input_port().FixValue(context, [5.0])
        module.Simulator(plant, context).AdvanceTo(0.1)
        states.append(
            np.concatenate(
                (
                    plant.GetPositionsAndVelocities(context),
                    plant.get_net_actuation_output_port().Eval(context),
                )
            )
        )
    np.testing.assert_allclose(states[0], states[1], atol=1e-12)
    assert states[0][2] == 5.0


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
    np.testing.assert_allclose(forces[0], forces[1], rtol=1e-10, atol=1e-10)


def _autodiff_step(module, plant, x0):
    """(x⁺, ∂x⁺/∂x0) of one forced step of ``plant`` (AutoDiffXd) from x0 (with u = 3)."""
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, module.InitializeAutoDiff(x0).reshape(-1))
    plant.get_actuation_input_port().FixValue(context, np.array([module.AutoDiffXd(3.0)]))
    state = context.Clone().get_mutable_state()
    plant.CalcForcedUnrestrictedUpdate(context, state)
    x = state.get_discrete_state().get_vector(0).CopyToVector()
    return module.ExtractValue(x).reshape(-1), module.ExtractGradient(x)


def test_autodiff_step_through_sap_agrees():
    """SAP's solution differentiated by the implicit function theorem, as Drake's
    SapSolver<AutoDiffXd>: a step with the coupler and both limits active."""
    out = []
    for module in (M, D):
        plant, _ = coupled_pair(module)
        out.append(_autodiff_step(module, plant.ToAutoDiffXd(), np.array([0.59, 0.04, 2.0, -1.0])))
    np.testing.assert_allclose(out[0][0], out[1][0], atol=1e-14)
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-11, atol=1e-11)


@needs_panda
def test_a_discrete_plants_accelerations_are_its_steps():
    """As Drake's, a discrete plant's forward dynamics is its step's (v⁺ − v)/h: here with
    joint 4 driven into its lower limit."""
    out = []
    logging.disable(logging.WARNING)
    try:
        for module in (M, D):
            plant = make_panda(module, 1e-3)
            context = plant.CreateDefaultContext()
            q = PANDA_HOME.copy()
            q[3] = -3.0716
            v = np.zeros(9)
            v[3] = -1.0
            plant.SetPositionsAndVelocities(context, np.concatenate((q, v)))
            A = plant.EvalBodySpatialAccelerationInWorld(
                context, plant.GetBodyByName("panda_link7")
            )
            a = plant.CalcCenterOfMassTranslationalAccelerationInWorld(context)
            out.append(np.concatenate((A.rotational(), A.translational(), a)))
    finally:
        logging.disable(logging.NOTSET)
    np.testing.assert_allclose(out[0], out[1], rtol=1e-12, atol=1e-10)
    assert abs(out[1][0]) > 100  # the limit's impulse shows


def three_trees(module, locked):
    """Three pendulums (three trees), the first two coupled across trees (q0 = −1.5·q1 +
    0.05), the third carrying a slider; every joint limited; ``locked``: a joint's name."""
    plant = module.MultibodyPlant(0.002)
    joints = []
    for i in range(3):
        inertia = module.SpatialInertia.SolidSphereWithMass(1.0 + i, 0.1).Shift([0, 0, -1])
        body = plant.AddRigidBody(f"b{i}", inertia)
        joint = plant.AddJoint(
            module.RevoluteJoint(f"j{i}", plant.world_frame(), body.body_frame(), [0, 1, 0], 0.05)
        )
        joint.set_position_limits([-0.3], [0.3 + 0.1 * i])
        joints.append(joint)
    inertia = module.SpatialInertia.SolidSphereWithMass(0.3, 0.1).Shift([0, 0, -0.5])
    slider = plant.AddRigidBody("c", inertia)
    joint = plant.AddJoint(
        module.PrismaticJoint(
            "jc", joints[2].child_body().body_frame(), slider.body_frame(), [1, 0, 0]
        )
    )
    joint.set_position_limits([-0.05], [0.05])
    plant.AddCouplerConstraint(joints[0], joints[1], -1.5, 0.05)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, [0.2, -0.1, 0.35, 0.0, 1.0, 2.0, -3.0, 0.5])
    if locked is not None:
        plant.GetJointByName(locked).Lock(context)
    return plant, context


@pytest.mark.parametrize("locked", [None, "j0", "j2", "jc"])
def test_constraints_across_trees_and_locks_agree(locked):
    """SAP's cliques (trees), a coupler between two, limits on all, a lock (its velocity known,
    its tree's other velocities participating): to round-off (7e-15 measured)."""
    states = []
    for module in (M, D):
        plant, context = three_trees(module, locked)
        module.Simulator(plant, context).AdvanceTo(0.4)
        states.append(plant.GetPositionsAndVelocities(context))
    np.testing.assert_allclose(states[0], states[1], atol=1e-12)
