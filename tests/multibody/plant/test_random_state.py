"""MultibodyPlant random state: the joints' set_random_*_distribution methods, the free-body
distributions and SetRandomContext / SetRandomState: samples in the distributions' supports
with their moments, defaults for the joints without a distribution, zero velocities,
parameters reset, and the errors."""

import math

import numpy as np
import pytest

pytest.importorskip("sympy")

from mallard.common import RandomGenerator  # noqa: E402
from mallard.common._random import gaussian, uniform  # noqa: E402
from mallard.common.eigen_geometry import Quaternion  # noqa: E402
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix  # noqa: E402
from mallard.symbolic import Expression, Variable  # noqa: E402
from mallard.systems.framework import DiagramBuilder  # noqa: E402
from tests.multibody.plant.plant_models import all_joints, box, library  # noqa: E402

M = library("mallard")
T = Variable.Type


def U(name="u"):
    return Expression(Variable(name, T.RANDOM_UNIFORM))


def N(name="n"):
    return Expression(Variable(name, T.RANDOM_GAUSSIAN))


def pendulums(time_step=0.0):
    """Two revolute pendulums from World (a: default angle 0.3; b) and a free body."""
    plant = M.MultibodyPlant(time_step)
    a = plant.AddRigidBody("a", box(M))
    b = plant.AddRigidBody("b", box(M))
    plant.AddRigidBody("free", box(M))
    ja = plant.AddJoint(M.RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [0, 0, 1]))
    plant.AddJoint(M.RevoluteJoint("jb", plant.world_frame(), b.body_frame(), [0, 1, 0]))
    ja.set_default_angle(0.3)
    plant.Finalize()
    return plant


def samples(plant, n, seed=7):
    """n draws of x = [q; v] by SetRandomContext with one generator."""
    context = plant.CreateDefaultContext()
    g = RandomGenerator(seed)
    out = []
    for _ in range(n):
        plant.SetRandomContext(context, g)
        out.append(plant.GetPositionsAndVelocities(context))
    return np.array(out)


@pytest.mark.parametrize("time_step", [0.0, 0.01])
def test_uniform_angle_within_its_support_with_its_moments(time_step):
    plant = pendulums(time_step)
    lo, hi = -1.0, 2.0
    plant.GetJointByName("jb").set_random_angle_distribution(lo + (hi - lo) * U())
    x = samples(plant, 3000)
    qb = x[:, plant.GetJointByName("jb").position_start()]
    assert np.all((lo <= qb) & (qb < hi))
    assert abs(qb.mean() - 0.5) < 0.05  # (lo + hi) / 2; standard error 0.016
    assert abs(qb.var() - 0.75) < 0.05  # (hi - lo)² / 12
    # The joint without a distribution and the free body keep their defaults; v = 0.
    np.testing.assert_array_equal(x[:, plant.GetJointByName("ja").position_start()], 0.3)
    free = plant.GetBodyByName("free")
    default = plant.GetDefaultPositions()[free.floating_positions_start() :][:7]
    np.testing.assert_array_equal(x[:, free.floating_positions_start() :][:, :7], [default] * 3000)
    np.testing.assert_array_equal(x[:, plant.num_positions() :], 0.0)


def test_random_state_draws_joint_after_joint_in_q_order():
    # Joints added tip first: q orders them base to tip, the reverse of their creation.
    plant = M.MultibodyPlant(0.0)
    a, b = plant.AddRigidBody("a", box(M)), plant.AddRigidBody("b", box(M))
    jab = plant.AddJoint(M.RevoluteJoint("jab", a.body_frame(), b.body_frame(), [0, 0, 1]))
    jwa = plant.AddJoint(M.RevoluteJoint("jwa", plant.world_frame(), a.body_frame(), [0, 1, 0]))
    plant.Finalize()
    assert (jwa.position_start(), jab.position_start()) == (0, 1)
    jab.set_random_angle_distribution(N("first"))
    jwa.set_random_angle_distribution(N("second"))
    context = plant.CreateDefaultContext()
    plant.SetVelocities(context, [1.0, 2.0])
    plant.SetRandomContext(context, RandomGenerator(42))
    reference = RandomGenerator(42)
    np.testing.assert_array_equal(
        plant.GetPositions(context), [gaussian(reference), gaussian(reference)]
    )
    np.testing.assert_array_equal(plant.GetVelocities(context), 0.0)


def test_constant_and_shared_variables():
    plant = pendulums()
    ja, jb = plant.GetJointByName("ja"), plant.GetJointByName("jb")
    ja.set_random_angle_distribution(1.25)  # a float is a (constant) Expression
    u = Variable("shared", T.RANDOM_UNIFORM)
    jb.set_random_angle_distribution(Expression(u))
    context = plant.CreateDefaultContext()
    reference = RandomGenerator(5)
    plant.SetRandomContext(context, RandomGenerator(5))
    assert ja.get_angle(context) == 1.25
    assert jb.get_angle(context) == uniform(reference)


def test_uniform_quaternion_is_uniform_over_rotations():
    plant = pendulums()
    free = plant.GetBodyByName("free")
    plant.SetFreeBodyRandomRotationDistributionToUniform(free)
    x = samples(plant, 1000)
    start = free.floating_positions_start()
    wxyz, p = x[:, start : start + 4], x[:, start + 4 : start + 7]
    np.testing.assert_allclose(np.linalg.norm(wxyz, axis=1), 1.0, atol=1e-14)
    # Haar measure on SO(3): E[R] = 0, and each quaternion component squared has mean 1/4.
    R = np.array([RotationMatrix(Quaternion(q)).matrix() for q in wxyz])
    # (1000 draws: standard errors 0.018 and 0.008.)
    np.testing.assert_allclose(R.mean(axis=0), 0.0, atol=0.07)
    np.testing.assert_allclose((wxyz**2).mean(axis=0), 0.25, atol=0.03)
    # Drake's rule: with no translation distribution, the translation is the zero
    # configuration's, not the default pose's.
    np.testing.assert_array_equal(p, 0.0)


def test_free_body_position_distribution_keeps_rotation_distribution():
    plant = M.MultibodyPlant(0.0)
    body = plant.AddRigidBody("body", box(M))
    plant.SetDefaultFloatingBaseBodyPose(
        body, RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [1, 2, 3])
    )
    plant.Finalize()
    plant.SetFreeBodyRandomPositionDistribution(body, [N("x"), 2.0 + U("y"), Expression(-1.0)])
    x = samples(plant, 1000)
    np.testing.assert_array_equal(x[:, :4], [[1.0, 0.0, 0.0, 0.0]] * 1000)  # zero rotation
    assert abs(x[:, 4].mean()) < 0.1 and abs(x[:, 4].var() - 1.0) < 0.1
    assert np.all((2.0 <= x[:, 5]) & (x[:, 5] < 3.0))
    np.testing.assert_array_equal(x[:, 6], -1.0)
    # A rotation distribution set afterwards keeps the position distribution.
    q = Quaternion(RollPitchYaw(0.0, 0.0, 0.5).ToQuaternion().wxyz())
    plant.SetFreeBodyRandomRotationDistribution(body, q)
    x = samples(plant, 200)
    np.testing.assert_allclose(x[:, :4], [q.wxyz()] * 200)
    np.testing.assert_array_equal(x[:, 6], -1.0)


def test_every_joint_type_draws_its_positions():
    plant = all_joints(M)
    joint = plant.GetJointByName
    joint("rev").set_random_angle_distribution(U("a"))
    joint("pri").set_random_translation_distribution(-U("b"))
    joint("scr").set_random_pose_distribution(np.array([[10.0 + U("c")]]))
    joint("uni").set_random_angles_distribution([U("d"), 2.0])
    joint("pla").set_random_pose_distribution(np.array([3.0, U("e")]), 4.0 + U("f"))
    joint("ball").set_random_angles_distribution(np.array([U("g"), 0.5, -0.5]))
    joint("rpyf").set_random_translation_distribution([5.0, 6.0, U("h")])
    joint("rpyf").set_random_angles_distribution([0.1, U("i"), 0.3])
    joint("quatf").set_random_translation_distribution([U("j"), 7.0, 8.0])
    x = samples(plant, 200)
    q = {
        name: x[:, joint(name).position_start() :][:, : joint(name).num_positions()]
        for name in ("rev", "pri", "scr", "uni", "pla", "ball", "rpyf", "quatf")
    }
    unit = (0.0, 1.0)

    def inside(values, lo, hi):
        return np.all((lo <= values) & (values < hi)) and values.std() > 0.1 * (hi - lo)

    assert inside(q["rev"][:, 0], *unit)
    assert inside(q["pri"][:, 0], -1.0, 0.0 + 1e-300)
    assert inside(q["scr"][:, 0], 10.0, 11.0)
    assert inside(q["uni"][:, 0], *unit) and np.all(q["uni"][:, 1] == 2.0)
    assert np.all(q["pla"][:, 0] == 3.0) and inside(q["pla"][:, 1], *unit)
    assert inside(q["pla"][:, 2], 4.0, 5.0)
    assert inside(q["ball"][:, 0], *unit) and np.all(q["ball"][:, 1:] == [0.5, -0.5])
    assert np.all(q["rpyf"][:, [0, 2, 3, 4]] == [0.1, 0.3, 5.0, 6.0])
    assert inside(q["rpyf"][:, 1], *unit) and inside(q["rpyf"][:, 5], *unit)
    assert np.all(q["quatf"][:, [0, 1, 2, 3, 5, 6]] == [1.0, 0.0, 0.0, 0.0, 7.0, 8.0])
    assert inside(q["quatf"][:, 4], *unit)
    # The same draws again with the same seed.
    np.testing.assert_array_equal(samples(plant, 200), x)


def test_parameters_are_reset_to_defaults():
    plant = pendulums()
    context = plant.CreateDefaultContext()
    body = plant.GetBodyByName("a")
    body.SetMass(context, 5.0)
    plant.SetRandomContext(context, RandomGenerator())
    assert body.get_mass(context) == 1.0


def test_generator_none():
    plant = pendulums()
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, np.ones(plant.num_positions()))
    plant.SetRandomContext(context, None)  # no distribution: the default state
    np.testing.assert_array_equal(plant.GetPositions(context), plant.GetDefaultPositions())
    plant.GetJointByName("jb").set_random_angle_distribution(U("needs_a_generator"))
    with pytest.raises(RuntimeError, match="does not have an entry for the variable needs_a_gen"):
        plant.SetRandomContext(context, None)
    with pytest.raises(TypeError, match="SetRandomState: expected a RandomGenerator, got int"):
        plant.SetRandomContext(context, 5)


def test_continuous_variable_in_a_distribution_raises():
    plant = pendulums()
    plant.GetJointByName("jb").set_random_angle_distribution(Variable("x") + U())
    context = plant.CreateDefaultContext()
    with pytest.raises(RuntimeError, match="does not have an entry for the variable x"):
        plant.SetRandomContext(context, RandomGenerator())


def test_set_random_state_into_a_state_and_through_a_diagram():
    builder = DiagramBuilder()
    plant = builder.AddSystem(pendulums())
    diagram = builder.Build()
    jb = plant.GetJointByName("jb")
    jb.set_random_angle_distribution(N())
    root = diagram.CreateDefaultContext()
    diagram.SetRandomContext(root, RandomGenerator(3))
    context = plant.GetMyContextFromRoot(root)
    assert jb.get_angle(context) == gaussian(RandomGenerator(3))
    # SetRandomState writes the State it is given; the Context stays as it was.
    scratch = context.Clone()
    plant.SetRandomState(context, scratch.get_mutable_state(), RandomGenerator(4))
    assert jb.get_angle(scratch) == gaussian(RandomGenerator(4))
    assert jb.get_angle(context) == gaussian(RandomGenerator(3))


def test_distribution_before_finalize_raises():
    plant = M.MultibodyPlant(0.0)
    body = plant.AddRigidBody("a", box(M))
    joint = plant.AddJoint(M.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1]))
    with pytest.raises(
        RuntimeError,
        match=r"RevoluteJoint 'j': set_random_angle_distribution\(\) may only be called after "
        "the MultibodyPlant is finalized",
    ):
        joint.set_random_angle_distribution(U())
    with pytest.raises(RuntimeError, match="SetRandomState"):
        plant.SetRandomState(None, None, RandomGenerator())


def test_bad_arguments_raise_type_error():
    plant = all_joints(M)
    joint = plant.GetJointByName
    with pytest.raises(TypeError, match="RevoluteJoint 'rev'.*angle must be an Expression"):
        joint("rev").set_random_angle_distribution("0.5")
    with pytest.raises(TypeError, match="angles must be a vector of 2 Expressions"):
        joint("uni").set_random_angles_distribution([U(), U(), U()])
    with pytest.raises(TypeError, match="translation must be a vector of 3 Expressions"):
        joint("quatf").set_random_translation_distribution([1.0, 2.0])
    with pytest.raises(TypeError, match="q_FM must be a Quaternion"):
        joint("quatf").set_random_quaternion_distribution(np.array([1.0, 0.0, 0.0, 0.0]))
    with pytest.raises(TypeError, match="theta must be a vector of 1 Expressions"):
        joint("scr").set_random_pose_distribution([U(), U()])


def test_free_body_distribution_errors():
    plant = all_joints(M)
    for method, args in [
        ("SetFreeBodyRandomPositionDistribution", ([U(), U(), U()],)),
        ("SetFreeBodyRandomRotationDistribution", (Quaternion(),)),
        ("SetFreeBodyRandomRotationDistributionToUniform", ()),
    ]:
        with pytest.raises(RuntimeError, match="Body 'Brev' is not a free body."):
            getattr(plant, method)(plant.GetBodyByName("Brev"), *args)
    rpy_plant = M.MultibodyPlant(0.0)
    body = rpy_plant.AddRigidBody("b", box(M))
    rpy_plant.AddJoint(M.RpyFloatingJoint("rpy", rpy_plant.world_frame(), body.body_frame()))
    rpy_plant.Finalize()
    with pytest.raises(RuntimeError, match="mobilized by RpyFloatingJoint 'rpy', not a Quat"):
        rpy_plant.SetFreeBodyRandomRotationDistributionToUniform(body)
    rpy_plant.SetFreeBodyRandomPositionDistribution(body, [1.0, 2.0, U()])
    x = samples(rpy_plant, 20)
    assert np.all(x[:, :5] == [0.0, 0.0, 0.0, 1.0, 2.0]) and np.all(x[:, 5] < 1.0)


def test_scalar_conversion_drops_the_distributions():
    # As pydrake: the joints of the converted plant have no distribution.
    plant = pendulums()
    plant.GetJointByName("jb").set_random_angle_distribution(1.0 + U())
    for converted in (plant.ToAutoDiffXd(), plant.ToSymbolic()):
        context = converted.CreateDefaultContext()
        converted.SetRandomContext(context, RandomGenerator())
        q = [
            float(x.value() if hasattr(x, "value") else x.Evaluate())
            for x in converted.GetPositions(context)
        ]
        np.testing.assert_array_equal(q, plant.GetDefaultPositions())
    context = plant.CreateDefaultContext()
    plant.SetRandomContext(context, RandomGenerator())
    assert plant.GetJointByName("jb").get_angle(context) >= 1.0  # the original keeps it


def test_uniform_quaternion_draws_match_uniformly_random_quaternion():
    plant = pendulums()
    free = plant.GetBodyByName("free")
    plant.SetFreeBodyRandomRotationDistributionToUniform(free)
    context = plant.CreateDefaultContext()
    plant.SetRandomContext(context, RandomGenerator(12))
    expected = M.UniformlyRandomQuaternion(RandomGenerator(12)).wxyz()
    start = free.floating_positions_start()
    np.testing.assert_allclose(
        plant.GetPositions(context)[start : start + 4], expected, rtol=0, atol=4e-16
    )
    assert math.isclose(np.linalg.norm(expected), 1.0, abs_tol=1e-15)
