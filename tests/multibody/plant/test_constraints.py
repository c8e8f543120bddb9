"""MultibodyPlant's constraints (plant._constraints, plant._sap_driver): the API (ids, kinds,
specs, removal, active status and distance parameters per Context), every documented error,
SAP's step of a ball and of a compliant distance constraint against closed forms (Drake's
regularization), and the conservation laws of constraints between free bodies. Against
pydrake: tests/conformance/test_constraints.py."""

import copy
import math
import re

import numpy as np
import pytest

from mallard.all import (
    BodyIndex,
    DiscreteContactApproximation,
    DistanceConstraintParams,
    MultibodyConstraintId,
    MultibodyPlant,
    PrismaticJoint,
    RevoluteJoint,
    RigidTransform,
    RollPitchYaw,
    SpatialInertia,
)
from tests.multibody.plant.discrete_helpers import advance

H = 1e-3
#: Drake's near-rigid factor β²/(4π²) of its holonomic constraints (β = 0.1).
NEAR_RIGID = 0.1**2 / (4 * math.pi**2)


def bodies(time_step=H, approximation=None, n=2):
    plant = MultibodyPlant(time_step)
    if approximation is not None:
        plant.set_discrete_contact_approximation(approximation)
    return (plant,) + tuple(
        plant.AddRigidBody(name, SpatialInertia.SolidBoxWithMass(1.0 + i, 0.3, 0.2, 0.1))
        for i, name in enumerate("abcdefgh"[:n])
    )


def one_of_each(plant, a, b):
    """Adds a ball, a weld, a distance and a coupler constraint (in that order); returns
    their ids in Drake's order of kinds (coupler, distance, ball, weld)."""
    ja = plant.AddJoint(RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 1, 0]))
    jb = plant.AddJoint(RevoluteJoint("jb", plant.world_frame(), b.body_frame(), [1, 0, 0]))
    ball = plant.AddBallConstraint(a, [0, 0, 1], b)
    weld = plant.AddWeldConstraint(a, RigidTransform(), b, RigidTransform([0, 0, 1]))
    distance = plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 0.5], 1.0, 1e3, 2.0)
    coupler = plant.AddCouplerConstraint(ja, jb, 2.0)
    return coupler, distance, ball, weld


# ---- the API ------------------------------------------------------------------------------
def test_ids_kinds_specs_and_removal():
    plant, a, b = bodies()
    coupler, distance, ball, weld = one_of_each(plant, a, b)
    assert plant.GetConstraintIds() == [coupler, distance, ball, weld]
    counts = (plant.num_coupler_constraints(), plant.num_distance_constraints(),
              plant.num_ball_constraints(), plant.num_weld_constraints(),
              plant.num_tendon_constraints())  # fmt: skip
    assert counts == (1, 1, 1, 1, 0) and plant.num_constraints() == 4
    spec = plant.get_ball_constraint_specs(ball)
    assert (spec.body_A, spec.body_B, spec.id) == (a.index(), b.index(), ball)
    assert spec.p_BQ is None  # (until Finalize)
    assert list(plant.get_weld_constraint_specs()) == [weld]
    assert plant.get_coupler_constraint_specs(coupler).gear_ratio == 2.0
    with pytest.raises(RuntimeError, match="weld_constraints_specs_.contains"):
        plant.get_weld_constraint_specs(ball)
    (params,) = plant.GetDefaultDistanceConstraintParams().values()
    assert (params.bodyA(), params.bodyB(), params.distance()) == (a.index(), b.index(), 1.0)
    assert (params.stiffness(), params.damping()) == (1e3, 2.0)
    np.testing.assert_array_equal(params.p_BQ(), [0, 0, 0.5])
    plant.RemoveConstraint(weld)
    plant.RemoveConstraint(coupler)
    assert plant.GetConstraintIds() == [distance, ball]
    with pytest.raises(RuntimeError, match=r"RemoveConstraint\(\): The constraint id \d+ does"):
        plant.RemoveConstraint(weld)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        plant.RemoveConstraint(7)
    plant.Finalize()
    # Q where P is in the default Context: both bodies at the origin, P at (0, 0, 1) in a.
    np.testing.assert_array_equal(plant.get_ball_constraint_specs(ball).p_BQ, [0, 0, 1])
    with pytest.raises(RuntimeError, match="Post-finalize calls to 'RemoveConstraint"):
        plant.RemoveConstraint(ball)


def test_status_and_distance_parameters_live_in_each_context():
    plant, a, b = bodies()
    coupler, distance, ball, weld = one_of_each(plant, a, b)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    assert all(plant.GetConstraintActiveStatus(context, i) for i in plant.GetConstraintIds())
    plant.SetConstraintActiveStatus(context, ball, False)
    changed = DistanceConstraintParams(b.index(), [0, 0, 0], a.index(), [1, 2, 3], 0.5, 10.0, 0)
    plant.SetDistanceConstraintParams(context, distance, changed)
    clone = context.Clone()
    fresh = plant.CreateDefaultContext()
    for c, expected in ((context, False), (clone, False), (fresh, True)):
        assert plant.GetConstraintActiveStatus(c, ball) is expected
        assert plant.GetConstraintActiveStatus(c, weld)
        params = plant.GetDistanceConstraintParams(c, distance)
        assert params.distance() == (1.0 if expected else 0.5)
        assert list(plant.GetDistanceConstraintParams(c)) == [distance]
    assert plant.GetDefaultDistanceConstraintParams()[distance].distance() == 1.0
    plant.SetDefaultContext(context)
    assert plant.GetConstraintActiveStatus(context, ball)
    assert plant.GetDistanceConstraintParams(context, distance).distance() == 1.0
    converted = plant.ToAutoDiffXd()
    ad_context = converted.CreateDefaultContext()
    assert converted.GetConstraintIds() == plant.GetConstraintIds()
    assert converted.GetDistanceConstraintParams(ad_context, distance).stiffness() == 1e3


def test_distance_constraint_params():
    p = DistanceConstraintParams(BodyIndex(1), [1, 2, 3], BodyIndex(2), [4, 5, 6], 1.5, 2.0, 0)
    assert (p.bodyA(), p.bodyB(), p.distance(), p.stiffness(), p.damping()) == (
        BodyIndex(1), BodyIndex(2), 1.5, 2.0, 0.0,
    )  # fmt: skip
    p.p_AP()[0] = 9.0  # (a copy)
    np.testing.assert_array_equal(p.p_AP(), [1, 2, 3])
    q = copy.deepcopy(p)
    np.testing.assert_array_equal(q.p_BQ(), [4, 5, 6])
    invalid = DistanceConstraintParams()
    assert not invalid.bodyA().is_valid() and invalid.distance() == 0.0
    assert DistanceConstraintParams(
        bodyA=BodyIndex(1), p_AP=[0, 0, 0], bodyB=BodyIndex(2), p_BQ=[0, 0, 0], distance=1.0,
        stiffness=math.inf, damping=0.0,
    ).stiffness() == math.inf  # fmt: skip
    cases = [
        ((BodyIndex(), 1, 1.0, 1.0, 0.0), "Invalid index for body A."),
        ((BodyIndex(1), BodyIndex(), 1.0, 1.0, 0.0), "Invalid index for body B."),
        ((BodyIndex(1), 1, 1.0, 1.0, 0.0), "Body indexes are equal."),
        ((BodyIndex(1), 2, 0.0, 1.0, 0.0), "Distance must be strictly positive."),
        ((BodyIndex(1), 2, math.nan, 1.0, 0.0), "Distance must be strictly positive."),
        ((BodyIndex(1), 2, 1.0, 0.0, 0.0), "Stiffness must be strictly positive."),
        ((BodyIndex(1), 2, 1.0, -1.0, 0.0), "Stiffness must be strictly positive."),
        ((BodyIndex(1), 2, 1.0, 1.0, -1.0), "Damping must be positive or zero."),
    ]
    for (A, B, *values), message in cases:
        B = B if isinstance(B, BodyIndex) else BodyIndex(B)
        with pytest.raises(RuntimeError, match=f"^{message}$"):
            DistanceConstraintParams(A, [0, 0, 0], B, [0, 0, 0], *values)
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        DistanceConstraintParams(1, [0, 0, 0], 2, [0, 0, 0], 1.0, 1.0, 0.0)
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        DistanceConstraintParams(BodyIndex(1), [0, 0], BodyIndex(2), [0, 0, 0], 1.0, 1.0, 0.0)


# ---- errors -------------------------------------------------------------------------------
def test_errors_of_adding_constraints():
    plant, a, b = bodies()
    other, c = bodies(n=1)
    X = RigidTransform()
    ja = plant.AddJoint(RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 1, 0]))
    jc = other.AddJoint(RevoluteJoint("jc", other.world_frame(), c.body_frame(), [0, 1, 0]))
    cases = [
        (lambda: plant.AddBallConstraint(a, [0, 0, 0], a),
         RuntimeError, "For a ball constraint, points P and Q must be on two distinct bodies"),
        (lambda: plant.AddWeldConstraint(b, X, b, X),
         RuntimeError, r"AddWeldConstraint\(\): Invalid set of parameters for constraint between "
         "bodies 'b' and 'b'"),
        (lambda: plant.AddDistanceConstraint(a, [0, 0, 0], a, [0, 0, 1], 1.0),
         RuntimeError, "Body indexes are equal."),
        (lambda: plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 1], -1.0),
         RuntimeError, "Distance must be strictly positive."),
        (lambda: plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 1], 1.0, -5.0),
         RuntimeError, "Stiffness must be strictly positive."),
        (lambda: plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 1], 1.0, 5.0, -1.0),
         RuntimeError, "Damping must be positive or zero."),
        (lambda: plant.AddBallConstraint(a, [0, 0, 0], c),
         RuntimeError, "body 'a' is not part of this plant|body 'c' is not part of this plant"),
        (lambda: plant.AddDistanceConstraint(c, [0, 0, 0], b, [0, 0, 1], 1.0),
         RuntimeError, "AddDistanceConstraint\\(\\): body 'a' is not part of this plant"),
        (lambda: plant.AddWeldConstraint(a, X, c, X),
         RuntimeError, "AddWeldConstraint\\(\\): body 'a' is not part of this plant"),
        (lambda: plant.AddCouplerConstraint(ja, jc, 1.0),
         RuntimeError, "AddCouplerConstraint\\(\\): joint 'jc' is not part of this MultibodyPlant"),
        (lambda: plant.AddBallConstraint(a, [0, 0, math.nan], b),
         RuntimeError, r"AddBallConstraint\(\): the constraint between bodies 'a' and 'b' "
         r"needs a finite p_AP, got \[0.0, 0.0, nan\]"),
        (lambda: plant.AddBallConstraint(a, [0, 0, 0], b, [math.inf, 0, 0]),
         RuntimeError, "needs a finite p_BQ"),
        (lambda: plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, math.nan, 0], 1.0),
         RuntimeError, "AddDistanceConstraint.*needs a finite p_BQ"),
        (lambda: plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 0], math.inf),
         RuntimeError, "needs a finite distance, got inf"),
        (lambda: plant.AddWeldConstraint(a, X, b, RigidTransform([0, 0, math.nan])),
         RuntimeError, "AddWeldConstraint.*needs a finite X_BQ"),
        (lambda: plant.AddCouplerConstraint(ja, a, 1.0), TypeError, "expected a Joint"),
        (lambda: plant.AddCouplerConstraint(ja, ja, "2"), TypeError, "gear_ratio must be a number"),
        (lambda: plant.AddBallConstraint(a, [0, 0], b), TypeError, "p_AP must be a 3-vector"),
        (lambda: plant.AddWeldConstraint(a, [0, 0, 0], b, X),
         TypeError, "X_AP must be a RigidTransform"),
        (lambda: plant.AddBallConstraint("a", [0, 0, 0], b), TypeError, "must be a RigidBody"),
    ]  # fmt: skip
    for action, error, message in cases:
        with pytest.raises(error, match=message):
            action()
    assert plant.num_constraints() == 0


def test_tamsi_continuous_and_finalized_plants_refuse_or_raise():
    plant, a, b = bodies(approximation=DiscreteContactApproximation.kTamsi)
    ja = plant.AddJoint(RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 1, 0]))
    jb = plant.AddJoint(RevoluteJoint("jb", plant.world_frame(), b.body_frame(), [0, 1, 0]))
    for kind, add in (
        ("ball", lambda: plant.AddBallConstraint(a, [0, 0, 0], b)),
        ("distance", lambda: plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 1], 1.0)),
        ("weld", lambda: plant.AddWeldConstraint(a, RigidTransform(), b, RigidTransform())),
        ("coupler", lambda: plant.AddCouplerConstraint(ja, jb, 1.0)),
    ):
        with pytest.raises(RuntimeError, match=f"TAMSI does not support {kind} constraints"):
            add()
    plant, a, b = bodies()
    plant.AddBallConstraint(a, [0, 0, 0], b)
    with pytest.raises(RuntimeError, match=r"\(num_constraints\(\) == 1\)"):
        plant.set_discrete_contact_approximation(DiscreteContactApproximation.kTamsi)
    joint = plant.AddJoint(RevoluteJoint("j", plant.world_frame(), a.body_frame(), [0, 1, 0]))
    with pytest.raises(RuntimeError, match="This plant has 1 user-added constraints"):
        plant.RemoveJoint(joint)
    plant.Finalize()
    with pytest.raises(RuntimeError, match="Post-finalize calls to 'AddDistanceConstraint"):
        plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 1], 1.0)
    continuous, a, b = bodies(0.0)
    continuous.AddWeldConstraint(a, RigidTransform(), b, RigidTransform())  # (allowed)
    continuous.Finalize()
    with pytest.raises(RuntimeError, match="Continuous time does not support constraints"):
        continuous.EvalTimeDerivatives(continuous.CreateDefaultContext())


def test_errors_of_the_per_context_api():
    plant, a, b = bodies()
    coupler, distance, ball, weld = one_of_each(plant, a, b)
    unknown = MultibodyConstraintId.get_new_id()
    other, _, _ = bodies()
    other.Finalize()
    with pytest.raises(RuntimeError, match="Pre-finalize calls to 'GetConstraintActiveStatus"):
        plant.GetConstraintActiveStatus(other.CreateDefaultContext(), ball)
    with pytest.raises(RuntimeError, match="Pre-finalize calls to 'SetConstraintActiveStatus"):
        plant.SetConstraintActiveStatus(other.CreateDefaultContext(), ball, True)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    for call in (  # (an id that is no MultibodyConstraintId)
        lambda: plant.GetConstraintActiveStatus(context, int(ball.get_value())),
        lambda: plant.SetConstraintActiveStatus(context, "ball", False),
        lambda: plant.GetDistanceConstraintParams(context, int(distance.get_value())),
        lambda: plant.SetDistanceConstraintParams(
            context, 0, plant.GetDistanceConstraintParams(context, distance)
        ),
    ):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            call()
    with pytest.raises(RuntimeError, match="does not belong to any multibody constraint"):
        plant.GetConstraintActiveStatus(context, unknown)
    with pytest.raises(RuntimeError, match="does not belong to any multibody constraint"):
        plant.SetConstraintActiveStatus(context, unknown, False)
    with pytest.raises(RuntimeError, match=r"The constraint id \d+ does not match any distance"):
        plant.GetDistanceConstraintParams(context, ball)
    params = DistanceConstraintParams(BodyIndex(1), [0] * 3, BodyIndex(9), [0] * 3, 1.0, 1.0, 0)
    with pytest.raises(RuntimeError, match="Index 9 provided for body B does not correspond"):
        plant.SetDistanceConstraintParams(context, distance, params)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        plant.SetDistanceConstraintParams(context, distance, None)
    for p_BQ, length, name in (([0, 0, math.nan], 1.0, "p_BQ"), ([0, 0, 0], math.inf, "distance")):
        params = DistanceConstraintParams(BodyIndex(1), [0] * 3, BodyIndex(2), p_BQ, length, 1, 0)
        with pytest.raises(RuntimeError, match=f"SetDistanceConstraintParams.*'a' and 'b'.*{name}"):
            plant.SetDistanceConstraintParams(context, distance, params)
    with pytest.raises(RuntimeError, match="Context"):
        plant.GetConstraintActiveStatus(other.CreateDefaultContext(), ball)


def test_tendon_constraint_errors_and_three_trees():
    plant, a, b = bodies(n=3)[:3]
    c = plant.GetBodyByName("c")
    joints = [
        plant.AddJoint(RevoluteJoint(f"j{i}", plant.world_frame(), body.body_frame(), [0, 1, 0]))
        for i, body in enumerate((a, b, c))
    ]
    i0, i1, i2 = (j.index() for j in joints)
    cases = [
        (([], []), "condition 'joints.size() > 0' failed"),
        (([i0, i0], [1.0, 1.0]), "Duplicated joint in `joints`"),
        (([i0], [1.0, 2.0]), "condition 'a.size() == joints.size()' failed"),
        (([i0], [1.0], 0.0, math.inf), "condition '*lower_limit < kInf' failed"),
        (([i0], [1.0], 0.0, None, -math.inf), "condition '*upper_limit > -kInf' failed"),
        (([i0], [1.0]), "condition '*lower_limit != -kInf || *upper_limit != kInf' failed"),
        (([i0], [1.0], 0.0, 1.0, 0.0), "condition '*lower_limit <= *upper_limit' failed"),
        (([i0], [1.0], 0.0, 0.0, None, 0.0), "condition '*stiffness > 0.0' failed"),
        (([i0], [1.0], 0.0, 0.0, None, None, -1.0), "condition '*damping >= 0.0' failed"),
    ]
    for args, message in cases:
        with pytest.raises(
            RuntimeError, match=f"AddTendonConstraint\\(\\): .*{re.escape(message)}"
        ):
            plant.AddTendonConstraint(*args)
    plant.AddTendonConstraint([i0, i1, i2], [1.0, 1.0, 1.0], upper_limit=0.0)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, [0.3, 0.3, 0.3])
    with pytest.raises(RuntimeError, match="belong to more than two kinematic trees"):
        advance(plant, context, 1)


@pytest.mark.parametrize("kind", ["ball", "weld", "distance"])
def test_constraints_between_bodies_welded_to_world_raise_at_the_step(kind):
    plant, a, b = bodies()
    plant.WeldFrames(plant.world_frame(), a.body_frame())
    plant.WeldFrames(plant.world_frame(), b.body_frame(), RigidTransform([0, 0, 1]))
    if kind == "ball":
        plant.AddBallConstraint(a, [0, 0, 0], b, [0, 0, 0])
    elif kind == "weld":
        plant.AddWeldConstraint(a, RigidTransform(), b, RigidTransform())
    else:
        plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 0], 1.0)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    name = {"ball": "ball Constraint", "weld": "weld constraint"}.get(kind, "distance constraint")
    with pytest.raises(
        RuntimeError,
        match=f"Creating a {name} between bodies 'a' and 'b' where both are welded to the world",
    ):
        advance(plant, context, 1)


def test_a_distance_nonphysically_small_raises_at_the_step():
    plant, a, b = bodies()
    plant.AddDistanceConstraint(a, [0, 0, 0], b, [0, 0, 0], 2.0)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    with pytest.raises(RuntimeError) as info:
        advance(plant, context, 1)
    assert str(info.value) == (
        "The distance is 0. This is nonphysically small when compared to the free length of "
        "the constraint, 2. "
    )


# ---- SAP's step against closed forms --------------------------------------------------------
def test_ball_constraint_to_world_is_drakes_near_rigid_regularization():
    """A free box (mass m) whose origin is held at a point of World 1 mm away: per axis,
    m·(v − v*) = γ = (v̂ − v)/R with R = β²/(4π²)·w, w = ‖W‖_F/3 = 1/(√3·m) (W = I/m), and
    v̂ = −g/(2h) (near rigid: critically damped at the time step)."""
    plant, a = bodies(n=1)
    plant.AddBallConstraint(plant.world_body(), [0.0, 0.0, 0.0], a, [0, 0, 0])
    plant.Finalize()
    context = plant.CreateDefaultContext()
    p0 = np.array([1e-3, -2e-3, 0.5e-3])
    v0 = np.array([0.1, 0.2, -0.3])
    plant.SetPositionsAndVelocities(context, np.concatenate(([1, 0, 0, 0], p0, [0, 0, 0], v0)))
    m = a.default_mass()
    v_star = v0 + H * np.array([0, 0, -9.81])
    R = NEAR_RIGID / (math.sqrt(3) * m)
    v_hat = -p0 / (2 * H)
    v = (m * v_star + v_hat / R) / (m + 1 / R)
    advance(plant, context, 1)
    np.testing.assert_allclose(plant.GetVelocities(context)[3:], v, rtol=1e-9)
    np.testing.assert_allclose(plant.GetVelocities(context)[:3], 0, atol=1e-12)
    # The reaction force of the floating joint is zero (to round-off of the constraint's
    # force): the constraint holds the body.
    (F,) = plant.get_reaction_forces_output_port().Eval(context)
    force = m * np.linalg.norm(v - v_star) / H
    assert force > 100.0
    np.testing.assert_allclose(F.translational(), 0, atol=1e-11 * force)


def test_compliant_distance_constraint_is_an_implicit_spring_damper():
    """A prismatic slider (mass m) along x tied to a World point by a distance constraint of
    stiffness k and damping c: γ = −h·(k·(g + h·v) + c·v), so
    v = (m·v* − h·k·g)/(m + h²·k + h·c) (the spring at the step's end, Drake's compliant
    regime R = 1/(h·(h + c/k)·k))."""
    k, c, length = 100.0, 1.0, 0.5
    plant, a = bodies(n=1)
    plant.AddJoint(PrismaticJoint("x", plant.world_frame(), a.body_frame(), [1, 0, 0]))
    plant.AddDistanceConstraint(plant.world_body(), [0, 0, 0], a, [0, 0, 0], length, k, c)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    q0, v0 = 0.7, -0.3
    plant.SetPositionsAndVelocities(context, [q0, v0])
    m = a.default_mass()
    g = q0 - length
    v = (m * v0 - H * k * g) / (m + H * H * k + H * c)
    advance(plant, context, 1)
    assert plant.GetVelocities(context)[0] == pytest.approx(v, rel=1e-12)


# ---- conservation laws ------------------------------------------------------------------
def _linear_momentum(plant, context):
    return sum(
        plant.get_body(BodyIndex(i)).default_mass()
        * plant.EvalBodySpatialVelocityInWorld(
            context, plant.get_body(BodyIndex(i))
        ).translational()
        for i in range(1, plant.num_bodies())
    )  # (the bodies' centers of mass are at their origins)


@pytest.mark.parametrize("kind", ["ball", "distance", "weld"])
def test_constraint_impulses_are_equal_and_opposite(kind):
    """Between two free bodies without gravity: the constraint's spatial forces on A and B
    (those the reaction forces take) sum to zero force (the linear momentum is conserved),
    and to zero moment for the weld (applied at one point, M) and the distance constraint
    (along PQ), as Drake designs them."""
    plant, a, b = bodies()
    plant.mutable_gravity_field().set_gravity_vector([0, 0, 0])
    if kind == "ball":
        plant.AddBallConstraint(a, [0.2, 0, 0], b, [-0.1, 0.05, 0])
    elif kind == "distance":
        plant.AddDistanceConstraint(a, [0.2, 0, 0], b, [-0.1, 0.05, 0], 0.4)
    else:
        X_AP = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0.2, 0, 0])
        plant.AddWeldConstraint(a, X_AP, b, RigidTransform([-0.1, 0.05, 0]))
    plant.Finalize()
    context = plant.CreateDefaultContext()
    quaternion = np.array([0.9, 0.1, 0.2, 0.3]) / np.linalg.norm([0.9, 0.1, 0.2, 0.3])
    q = np.concatenate(([1, 0, 0, 0, 0, 0, 0], quaternion, [0.35, 0.02, -0.01]))
    v = np.array([0.3, -0.2, 0.1, 0.5, 0.0, -0.4, -1.0, 0.4, 0.2, 0.1, 0.3, 0.2])
    plant.SetPositionsAndVelocities(context, np.concatenate((q, v)))
    L0 = _linear_momentum(plant, context)
    advance(plant, context, 1)
    F = plant._step_memory(context).constraint_forces  # F_BBo_W per body, at the step's start
    x0 = plant._step_memory(context).x0
    p_WBo = {1: x0[4:7], 2: x0[11:14]}
    scale = np.abs(F[1:]).max()
    assert scale > 1.0
    np.testing.assert_allclose(F[1, 3:] + F[2, 3:], 0, atol=1e-15 * scale)
    moment = sum(F[i, :3] + np.cross(p_WBo[i], F[i, 3:]) for i in (1, 2))
    if kind != "ball":
        np.testing.assert_allclose(moment, 0, atol=1e-14 * scale)
    advance(plant, context, 50)
    np.testing.assert_allclose(_linear_momentum(plant, context), L0, atol=1e-10)
