"""Constraints on SAP plants against pydrake's: trajectories, reaction forces, AutoDiffXd
steps, per-Context status and parameters, parsed constraints and the errors.

Agreement measured (1 s of 1 ms steps; the same problem solved by the same algorithm, so to
round-off; asserted 1e-10 in q and v):
* a four-bar linkage closed by a ball constraint across two trees, each SAP approximation:
  7e-13;
* a pendulum with a bob held by a distance constraint: rigid 4e-11, compliant (k = 1e3 N/m,
  c = 5 N·s/m) 3e-14;
* a box welded to a pendulum: 6e-12;
* a double pendulum with a tendon constraint (compliant and near rigid): see the test;
* two pendulums joined by a coupler, and a four-bar carrying a ball, a compliant distance, a
  weld and a coupler constraint at once: see the tests;
* each of these with constraints deactivated mid-simulation, then reactivated: to round-off
  as the freed motion amplifies it (see the test).

pydrake 1.51 crashes (a segmentation fault) stepping a constraint whose body is World, so no
model here constrains World (mallard's tests do: tests/multibody/plant/test_constraints.py).
"""

import re

import numpy as np
import pytest

import mallard.all as M
from tests.multibody.plant.constraint_models import (
    L3,
    all_kinds,
    coupled_pendulums,
    distance_pendulum,
    four_bar,
    tendon_pendulum,
    welded_box,
)

D = pytest.importorskip("pydrake.all")

APPROXIMATIONS = ["kSap", "kSimilar", "kLagged"]


def simulate(make, duration=1.0, prepare=None, **kwargs):
    """(mallard, pydrake) [q; v] after ``duration`` s from the model's q0 (``prepare(module,
    plant, context)`` first if given)."""
    out = []
    for module in (M, D):
        plant, q0 = make(module, **kwargs)
        context = plant.CreateDefaultContext()
        plant.SetPositions(context, q0)
        if prepare is not None:
            prepare(module, plant, context)
        module.Simulator(plant, context).AdvanceTo(duration)
        out.append(plant.GetPositionsAndVelocities(context))
    return out


@pytest.mark.parametrize("approximation", APPROXIMATIONS)
def test_four_bar_linkage_agrees(approximation):
    mallard, drake = simulate(four_bar, approximation=approximation)
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=1e-10)
    # The linkage stays closed (the ball constraint near rigid) and moves.
    assert abs(drake[0] - 0.6) > 0.1


def test_four_bar_with_its_point_placed_at_finalize_agrees():
    """AddBallConstraint without p_BQ: Q where P is in the default Context at Finalize()."""
    mallard, drake = simulate(four_bar, duration=0.2, p_BQ=None)
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=1e-10)
    plant, q0 = four_bar(M, p_BQ=None)
    (spec,) = plant.get_ball_constraint_specs().values()
    np.testing.assert_allclose(spec.p_BQ, [L3, 0, 0], atol=1e-14)


@pytest.mark.parametrize(
    "approximation, stiffness, damping",
    [("kSap", np.inf, 0.0), ("kLagged", np.inf, 0.0), ("kSap", 1e3, 5.0), ("kSap", np.inf, 1.0)],
)
def test_distance_constrained_pendulum_agrees(approximation, stiffness, damping):
    mallard, drake = simulate(
        distance_pendulum, approximation=approximation, stiffness=stiffness, damping=damping
    )
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=1e-10)


@pytest.mark.parametrize("approximation", ["kSap", "kLagged"])
def test_welded_box_agrees(approximation):
    mallard, drake = simulate(welded_box, approximation=approximation)
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=1e-10)


@pytest.mark.parametrize("stiffness, damping", [(1e3, 10.0), (1e12, 0.0)])
def test_tendon_constrained_double_pendulum_agrees(stiffness, damping):
    mallard, drake = simulate(tendon_pendulum, stiffness=stiffness, damping=damping)
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=1e-10)


@pytest.mark.parametrize("approximation", APPROXIMATIONS)
def test_coupled_pendulums_agree(approximation):
    mallard, drake = simulate(coupled_pendulums, approximation=approximation)
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=1e-10)


@pytest.mark.parametrize("approximation", APPROXIMATIONS)
def test_every_kind_at_once_agrees(approximation):
    mallard, drake = simulate(all_kinds, duration=0.5, approximation=approximation)
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=1e-10)


def _toggled(module, make, times=(0.2, 0.4, 0.6), toggle=True, dq0=0.0):
    """[q; v] of ``make``'s model (q0[0] moved by ``dq0``) at ``times``, every other
    constraint (by GetConstraintIds) inactive from times[0] to times[1] if ``toggle``."""
    plant, q0 = make(module)
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, q0 + np.eye(len(q0))[0] * dq0)
    simulator = module.Simulator(plant, context)
    states = []
    for t, status in zip(times, (False, True, None), strict=True):
        simulator.AdvanceTo(t)
        states.append(plant.GetPositionsAndVelocities(context))
        for cid in plant.GetConstraintIds()[::2] if toggle and status is not None else ():
            plant.SetConstraintActiveStatus(context, cid, status)
            assert plant.GetConstraintActiveStatus(context, cid) is status
    return np.concatenate(states)


@pytest.mark.parametrize(
    "make",
    [four_bar, distance_pendulum, welded_box, coupled_pendulums, tendon_pendulum, all_kinds],
)
def test_active_status_toggled_mid_simulation_agrees(make):
    """Off for 0.2 s (0.15 s for the tendon, off as it passes its limit), then on again: the
    same motion as pydrake's, not the untoggled one. Freed, the linkages swing fast (up to
    25 rad/s) and the reactivated constraints snap back, which amplifies round-off: the
    libraries agree within the change that moving q0[0] by 3e-11 (round-off accumulated over
    the steps) makes (measured: 5e-14 to 6e-9, at most about the change that 1e-11 makes)."""
    times = (0.45, 0.6, 0.8) if make is tendon_pendulum else (0.2, 0.4, 0.6)
    mallard, drake = _toggled(M, make, times), _toggled(D, make, times)
    sensitivity = np.abs(_toggled(M, make, times, dq0=3e-11) - mallard).max()
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=max(1e-10, sensitivity))
    assert np.abs(mallard - _toggled(M, make, times, toggle=False)).max() > 1e-3


def test_active_status_and_distance_parameters_per_context_agree():
    """0.3 s as added, then 0.3 s with the ball constraint off and the distance constraint
    compliant, its point Q moved (in the Context), then the distance constraint as added."""
    out = []
    for module in (M, D):
        results = []
        for make in (four_bar, distance_pendulum):
            plant, q0 = make(module)
            context = plant.CreateDefaultContext()
            plant.SetPositions(context, q0)
            (cid,) = plant.GetConstraintIds()
            simulator = module.Simulator(plant, context)
            simulator.AdvanceTo(0.3)
            if make is four_bar:
                plant.SetConstraintActiveStatus(context, cid, False)
            else:
                p = plant.GetDistanceConstraintParams(context, cid)
                softer = module.DistanceConstraintParams(
                    p.bodyA(), p.p_AP(), p.bodyB(), [0.01, 0, 0], 0.28, 1e3, 2.0
                )
                plant.SetDistanceConstraintParams(context, cid, softer)
            simulator.AdvanceTo(0.6)
            results.append(plant.GetPositionsAndVelocities(context))
            if make is distance_pendulum:
                defaults = plant.GetDefaultDistanceConstraintParams()[cid]
                plant.SetDistanceConstraintParams(context, cid, defaults)
                simulator.AdvanceTo(0.8)
                results.append(plant.GetPositionsAndVelocities(context))
        out.append(np.concatenate(results))
    np.testing.assert_allclose(out[0], out[1], rtol=1e-10, atol=1e-10)


def test_constraints_with_a_locked_joint_agree():
    def lock(module, plant, context):
        plant.GetJointByName("j3").Lock(context)

    mallard, drake = simulate(four_bar, duration=0.3, prepare=lock)
    np.testing.assert_allclose(mallard, drake, rtol=0, atol=1e-10)


@pytest.mark.parametrize("make", [four_bar, distance_pendulum, welded_box])
def test_reaction_forces_agree(make):
    """The joints' reaction forces after a step, the constraints' spatial forces applied (as
    Drake's SapDriver reports them)."""
    forces = []
    for module in (M, D):
        plant, q0 = make(module)
        context = plant.CreateDefaultContext()
        plant.SetPositions(context, q0)
        module.Simulator(plant, context).AdvanceTo(0.05)
        F = plant.get_reaction_forces_output_port().Eval(context)
        forces.append(np.array([np.concatenate((f.rotational(), f.translational())) for f in F]))
    scale = np.abs(forces[1]).max()
    assert scale > 1.0
    np.testing.assert_allclose(forces[0], forces[1], rtol=0, atol=1e-9 * scale)


def _autodiff_step(module, plant, x0):
    """(x⁺, ∂x⁺/∂x0) of one forced step of ``plant`` (AutoDiffXd) from x0."""
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, module.InitializeAutoDiff(x0).reshape(-1))
    state = context.Clone().get_mutable_state()
    plant.CalcForcedUnrestrictedUpdate(context, state)
    x = state.get_discrete_state().get_vector(0).CopyToVector()
    return module.ExtractValue(x).reshape(-1), module.ExtractGradient(x)


@pytest.mark.parametrize("make", [four_bar, distance_pendulum, welded_box, tendon_pendulum])
def test_autodiff_steps_agree(make):
    """The step differentiated through SAP's solution (implicit function theorem, as Drake's
    SapSolver<AutoDiffXd>) with each kind of constraint active."""
    out = []
    for module in (M, D):
        plant, q0 = make(module)
        x0 = np.concatenate((q0, 0.3 * np.ones(plant.num_velocities())))
        if make is tendon_pendulum:
            x0[:2] = [0.9, -0.1]  # (the tendon beyond its upper limit: active)
        out.append(_autodiff_step(module, plant.ToAutoDiffXd(), x0))
    np.testing.assert_allclose(out[0][0], out[1][0], rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(out[0][1], out[1][1], rtol=1e-9, atol=1e-9)


def _parsed(module, text, kind):
    plant = module.MultibodyPlant(1e-3)
    module.Parser(plant).AddModelsFromString(text, kind)
    plant.Finalize()
    return plant


_BODY = (
    '<inertial><origin xyz="0 0 -0.5"/><mass value="1"/>'
    '<inertia ixx="0.02" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>'
)
PARSED_URDF = f"""<robot name="r" xmlns:drake="http://drake.mit.edu"><link name="world"/>
<link name="l1">{_BODY}</link><link name="l2">{_BODY}</link><link name="l3">{_BODY}</link>
<joint name="j1" type="continuous"><parent link="world"/><child link="l1"/><axis xyz="0 1 0"/>
</joint>
<joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/><origin xyz="0 0 -1"/>
<axis xyz="0 1 0"/></joint>
<joint name="j3" type="continuous"><parent link="world"/><child link="l3"/><origin xyz="1 0 0"/>
<axis xyz="0 1 0"/></joint>
<drake:ball_constraint><drake:ball_constraint_body_A name="l2"/>
<drake:ball_constraint_body_B name="l3"/><drake:ball_constraint_p_AP value="1 0 0"/>
<drake:ball_constraint_p_BQ value="0 0 -1"/></drake:ball_constraint>
<drake:tendon_constraint><drake:tendon_constraint_joint name="j1" a="1.0"/>
<drake:tendon_constraint_joint name="j3" a="1.0"/>
<drake:tendon_constraint_offset value="0"/><drake:tendon_constraint_lower_limit value="-0.2"/>
<drake:tendon_constraint_upper_limit value="0.2"/>
<drake:tendon_constraint_stiffness value="500"/><drake:tendon_constraint_damping value="1"/>
</drake:tendon_constraint></robot>"""


def test_parsed_constraints_agree():
    """A URDF's ball constraint (closing a double pendulum and a pendulum into a
    parallelogram) and tendon constraint (q1 + q3 ≤ 0.2, across the two trees): the same
    constraints, and the same motion."""
    states = []
    for module in (M, D):
        plant = _parsed(module, PARSED_URDF, "urdf")
        assert plant.num_constraints() == 2
        context = plant.CreateDefaultContext()
        plant.SetPositionsAndVelocities(context, [0.0, 0.0, 0.0, 1.0, -0.1, 1.0])
        module.Simulator(plant, context).AdvanceTo(0.5)
        states.append(plant.GetPositionsAndVelocities(context))
    np.testing.assert_allclose(states[0], states[1], rtol=0, atol=1e-10)


def test_errors_agree_with_pydrake():
    """The messages of bad constraints, compared with pydrake's."""

    def message(module, action):
        with pytest.raises(RuntimeError) as info:
            action(module)
        return re.sub(r"id \d+", "id N", str(info.value))  # (ids count per library)

    def bodies(module, time_step=0.01, tamsi=False):
        plant = module.MultibodyPlant(time_step)
        if tamsi:
            plant.set_discrete_contact_approximation(module.DiscreteContactApproximation.kTamsi)
        a = plant.AddRigidBody("a", module.SpatialInertia.SolidSphereWithMass(1, 0.1))
        b = plant.AddRigidBody("b", module.SpatialInertia.SolidSphereWithMass(1, 0.1))
        return plant, a, b

    def tamsi(add):
        return lambda m: add(m, *bodies(m, 0.01, tamsi=True))

    def finalized(add):
        def action(m):
            plant, a, b = bodies(m)
            plant.Finalize()
            add(m, plant, a, b)

        return action

    def continuous_dynamics(m):
        plant, a, b = bodies(m, 0.0)
        plant.AddBallConstraint(a, [0, 0, 0], b, [0, 0, 1])
        plant.Finalize()
        plant.EvalTimeDerivatives(plant.CreateDefaultContext())

    def tamsi_after(m):
        plant, a, b = bodies(m)
        plant.AddWeldConstraint(a, m.RigidTransform(), b, m.RigidTransform())
        plant.set_discrete_contact_approximation(m.DiscreteContactApproximation.kTamsi)

    def removed_twice(m):
        plant, a, b = bodies(m)
        cid = plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 0], 1.0)
        plant.RemoveConstraint(cid)
        assert plant.num_constraints() == 0
        plant.RemoveConstraint(cid)

    def short_distance(m):
        plant, a, b = bodies(m)
        plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 0], 2.0)
        plant.Finalize()
        context = plant.CreateDefaultContext()
        plant.CalcForcedUnrestrictedUpdate(context, context.Clone().get_mutable_state())

    def both_anchored(kind):
        def action(m):
            plant, a, b = bodies(m)
            plant.WeldFrames(plant.world_frame(), a.body_frame())
            plant.WeldFrames(plant.world_frame(), b.body_frame(), m.RigidTransform([0, 0, 1]))
            if kind == "ball":
                plant.AddBallConstraint(a, [0, 0, 0], b, [0, 0, 0])
            else:
                plant.AddWeldConstraint(a, m.RigidTransform(), b, m.RigidTransform())
            plant.Finalize()
            context = plant.CreateDefaultContext()
            plant.CalcForcedUnrestrictedUpdate(context, context.Clone().get_mutable_state())

        return action

    def distance_params(m, *args):
        m.DistanceConstraintParams(m.BodyIndex(1), [0, 0, 0], m.BodyIndex(2), [0, 0, 0], *args)

    def set_params(body_B, of_ball=False):
        def action(m):
            plant, a, b = bodies(m)
            cid = plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 1], 1.0)
            ball = plant.AddBallConstraint(a, [0, 0, 0], b, [0, 0, 1])
            plant.Finalize()
            context = plant.CreateDefaultContext()
            params = m.DistanceConstraintParams(
                m.BodyIndex(1), [0, 0, 0], m.BodyIndex(body_B), [0, 0, 0], 1.0, 1.0, 0.0
            )
            plant.SetDistanceConstraintParams(context, ball if of_ball else cid, params)

        return action

    actions = [
        lambda m: (lambda p, a, b: p.AddBallConstraint(a, [0, 0, 0], a, [0, 0, 1]))(*bodies(m)),
        lambda m: (
            lambda p, a, b: p.AddWeldConstraint(a, m.RigidTransform(), a, m.RigidTransform())
        )(*bodies(m)),  # fmt: skip
        lambda m: (lambda p, a, b: p.AddDistanceConstraint(a, [0, 0, 0], a, [0, 0, 1], 1.0))(
            *bodies(m)
        ),
        tamsi(lambda m, p, a, b: p.AddBallConstraint(a, [0, 0, 0], b)),
        tamsi(lambda m, p, a, b: p.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 0], 1.0)),
        tamsi(lambda m, p, a, b: p.AddWeldConstraint(a, m.RigidTransform(), b, m.RigidTransform())),
        finalized(lambda m, p, a, b: p.AddBallConstraint(a, [0, 0, 0], b)),
        finalized(
            lambda m, p, a, b: p.AddWeldConstraint(a, m.RigidTransform(), b, m.RigidTransform())
        ),  # fmt: skip
        finalized(lambda m, p, a, b: p.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 0], 1.0)),
        continuous_dynamics,
        tamsi_after,
        removed_twice,
        short_distance,
        both_anchored("ball"),
        both_anchored("weld"),
        set_params(2, of_ball=True),
        set_params(7),
        lambda m: distance_params(m, 0.0, 1.0, 0.0),
        lambda m: distance_params(m, 1.0, -1.0, 0.0),
        lambda m: distance_params(m, 1.0, 0.0, 0.0),
        lambda m: distance_params(m, 1.0, 1.0, -1.0),
        lambda m: distance_params(m, float("nan"), 1.0, 0.0),
        lambda m: m.DistanceConstraintParams(
            m.BodyIndex(1), [0] * 3, m.BodyIndex(1), [0] * 3, 1.0, 1.0, 0.0
        ),  # fmt: skip
        lambda m: m.DistanceConstraintParams(
            m.BodyIndex(), [0] * 3, m.BodyIndex(1), [0] * 3, 1.0, 1.0, 0.0
        ),  # fmt: skip
    ]
    for i, action in enumerate(actions):
        assert message(M, action) == message(D, action), i
