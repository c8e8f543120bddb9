"""Random numbers against pydrake: RandomGenerator's stream, the uniform / Gaussian /
exponential draws of symbolic Evaluate, the uniformly random rotations, and the states
SetRandomContext draws for the same model, distributions and seed."""

import numpy as np
import pytest

pytest.importorskip("pydrake")
pytest.importorskip("sympy")

import pydrake.common as pc  # noqa: E402
import pydrake.common.eigen_geometry as pe  # noqa: E402
import pydrake.math as pm  # noqa: E402
import pydrake.symbolic as ps  # noqa: E402

import mallard.common as mc  # noqa: E402
import mallard.common.eigen_geometry as me  # noqa: E402
import mallard.math as mm  # noqa: E402
import mallard.symbolic as ms  # noqa: E402
from tests.multibody.plant.plant_models import all_joints, library  # noqa: E402

SEEDS = [0, 1, 42, 5489, 2**31 + 11, 2**32 - 1, 2**32 + 3, 2**64 - 1]


@pytest.mark.parametrize("seed", SEEDS + [None])
def test_mt19937_stream(seed):
    a = pc.RandomGenerator() if seed is None else pc.RandomGenerator(seed)
    b = mc.RandomGenerator() if seed is None else mc.RandomGenerator(seed)
    assert [a() for _ in range(1500)] == [b() for _ in range(1500)]  # past one twist (624)


@pytest.mark.parametrize("type_name", ["RANDOM_UNIFORM", "RANDOM_GAUSSIAN", "RANDOM_EXPONENTIAL"])
def test_draws_of_one_random_variable_are_bit_exact(type_name):
    pv = ps.Expression(ps.Variable("v", getattr(ps.Variable.Type, type_name)))
    mv = ms.Expression(ms.Variable("v", getattr(ms.Variable.Type, type_name)))
    for seed in range(40):
        a, b = pc.RandomGenerator(seed), mc.RandomGenerator(seed)
        assert [pv.Evaluate(a) for _ in range(6)] == [mv.Evaluate(b) for _ in range(6)]


def _mixed(sym):
    """Variables of every type, created in a mixed order, and expressions of them."""
    T = sym.Variable.Type
    e = sym.Variable("e", T.RANDOM_EXPONENTIAL)
    n = sym.Variable("n", T.RANDOM_GAUSSIAN)
    u = sym.Variable("u", T.RANDOM_UNIFORM)
    x = sym.Variable("x")
    u2 = sym.Variable("u2", T.RANDOM_UNIFORM)
    raw = np.array([e, n, u, u2], dtype=object)
    composite = np.array([e + 0.5 * n, u * u2 - n, sym.sin(u2) * 2.0 + x])
    return x, raw, composite


def test_matrix_evaluate_draws_once_in_pydrakes_order():
    px, p_raw, p_composite = _mixed(ps)
    mx, m_raw, m_composite = _mixed(ms)
    for seed in range(30):
        a, b = pc.RandomGenerator(seed), mc.RandomGenerator(seed)
        m = np.concatenate([p_raw, p_composite])
        pa = ps.Evaluate(m, {px: 0.25}, a)
        mb = ms.Evaluate(np.concatenate([m_raw, m_composite]), {mx: 0.25}, b)
        np.testing.assert_array_equal(pa[:4], mb[:4])  # the draws themselves: bit-exact
        np.testing.assert_allclose(pa[4:], mb[4:], rtol=4e-16, atol=4e-16)  # sympy's rounding
        assert a() == b()


@pytest.mark.parametrize("seed", SEEDS[:5])
def test_uniformly_random_rotations(seed):
    q = pm.UniformlyRandomQuaternion(pc.RandomGenerator(seed))
    assert np.array_equal(q.wxyz(), mm.UniformlyRandomQuaternion(mc.RandomGenerator(seed)).wxyz())
    np.testing.assert_allclose(
        mm.UniformlyRandomRotationMatrix(mc.RandomGenerator(seed)).matrix(),
        pm.UniformlyRandomRotationMatrix(pc.RandomGenerator(seed)).matrix(),
        atol=2e-15,
    )
    np.testing.assert_allclose(
        mm.UniformlyRandomRPY(mc.RandomGenerator(seed)),
        pm.UniformlyRandomRPY(pc.RandomGenerator(seed)),
        atol=2e-15,
    )
    pa = pm.UniformlyRandomAngleAxis(pc.RandomGenerator(seed))
    ma = mm.UniformlyRandomAngleAxis(mc.RandomGenerator(seed))
    np.testing.assert_allclose(
        [ma.angle(), *ma.axis()], [pa.angle(), *pa.axis()], rtol=0, atol=2e-15
    )


def _distributions(plant, sym, Quaternion):
    """The same distributions on every joint of ``all_joints`` (variables of every type)."""
    T = sym.Variable.Type

    def var(name, type_):
        return sym.Expression(sym.Variable(name, getattr(T, type_)))

    joint = plant.GetJointByName
    joint("rev").set_random_angle_distribution(-1.0 + 2.0 * var("a", "RANDOM_UNIFORM"))
    joint("pri").set_random_translation_distribution(var("b", "RANDOM_GAUSSIAN"))
    joint("scr").set_random_pose_distribution(np.array([[var("c", "RANDOM_EXPONENTIAL")]]))
    joint("uni").set_random_angles_distribution([var("d", "RANDOM_GAUSSIAN"), 0.25])
    joint("pla").set_random_pose_distribution(
        np.array([var("e", "RANDOM_UNIFORM"), 1.5]), var("f", "RANDOM_GAUSSIAN")
    )
    joint("ball").set_random_angles_distribution(
        np.array([var("g", "RANDOM_UNIFORM"), var("h", "RANDOM_EXPONENTIAL"), -0.5])
    )
    joint("rpyf").set_random_translation_distribution([var("i", "RANDOM_GAUSSIAN"), 6.0, 0.0])
    joint("rpyf").set_random_angles_distribution([0.1, var("j", "RANDOM_UNIFORM"), 0.3])
    joint("quatf").set_random_translation_distribution([var("k", "RANDOM_UNIFORM"), 7.0, 8.0])
    w = var("w", "RANDOM_GAUSSIAN")
    joint("quatf").set_random_quaternion_distribution(
        Quaternion(w, sym.Expression(0.0), sym.Expression(1.0), sym.Expression(0.0))
    )
    plant.GetJointByName(  # the free body's joint, named as the body
        "free"
    ).set_random_quaternion_distribution_to_uniform()


@pytest.mark.parametrize("time_step", [0.0, 0.001])
def test_set_random_context_matches_pydrake(time_step):
    p, m = library("pydrake"), library("mallard")
    p_plant, m_plant = all_joints(p, time_step), all_joints(m, time_step)
    _distributions(p_plant, ps, pe.Quaternion_[ps.Expression])
    _distributions(m_plant, ms, me.Quaternion_[ms.Expression])
    p_context, m_context = p_plant.CreateDefaultContext(), m_plant.CreateDefaultContext()
    free = p_plant.GetBodyByName("Brev")
    free.SetMass(p_context, 3.0)  # SetRandomContext resets the parameters
    m_plant.GetBodyByName("Brev").SetMass(m_context, 3.0)
    for seed in [0, 9, 123]:
        a, b = pc.RandomGenerator(seed), mc.RandomGenerator(seed)
        for _ in range(3):
            p_plant.SetRandomContext(p_context, a)
            m_plant.SetRandomContext(m_context, b)
            np.testing.assert_allclose(
                m_plant.GetPositionsAndVelocities(m_context),
                p_plant.GetPositionsAndVelocities(p_context),
                rtol=4e-16,
                atol=4e-16,
            )
        assert a() == b()  # the same number of draws
    assert m_plant.GetBodyByName("Brev").get_mass(m_context) == free.get_mass(p_context) == 1.0
