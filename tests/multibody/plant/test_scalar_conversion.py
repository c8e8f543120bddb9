"""Scalar conversion between MultibodyPlant, MultibodyPlant_[AutoDiffXd] and
MultibodyPlant_[Expression]: every conversion Drake allows, the errors it raises, and a
symbolic plant whose mass matrix, bias term and gravity forces, evaluated at a state, are the
double plant's."""

import numpy as np
import pytest

from mallard.autodiffutils import AutoDiffXd
from mallard.multibody.plant import MultibodyPlant, MultibodyPlant_
from tests.multibody.plant.plant_models import library

m = library("mallard")


def _arm():
    """Revolute (z) then prismatic (x) then ball-rpy joint, with offset frames."""
    plant = MultibodyPlant(0.0)
    a = plant.AddRigidBody("a", m.SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3))
    b = plant.AddRigidBody("b", m.SpatialInertia.SolidBoxWithMass(2.0, 0.3, 0.1, 0.2))
    c = plant.AddRigidBody("c", m.SpatialInertia.SolidCylinderWithMass(0.5, 0.1, 0.4, [0, 0, 1]))
    F = plant.AddFrame(m.FixedOffsetFrame("F", a.body_frame(), m.RigidTransform([0.3, 0, 0.1])))
    plant.AddJoint(m.RevoluteJoint("j1", plant.world_frame(), a.body_frame(), [0, 0, 1], 0.1))
    plant.AddJoint(m.PrismaticJoint("j2", F, b.body_frame(), [1, 0, 0]))
    plant.AddJoint(m.BallRpyJoint("j3", b.body_frame(), c.body_frame()))
    plant.Finalize()
    return plant


def _double(x):
    """The double value of a scalar of any type."""
    return x.value() if isinstance(x, AutoDiffXd) else x.Evaluate() if hasattr(x, "Evaluate") else x


def test_every_conversion_between_scalar_types():
    symbolic = pytest.importorskip("mallard.symbolic")
    plant = _arm()
    x = np.linspace(0.1, 1.0, plant.num_multibody_states())
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, x)
    M = plant.CalcMassMatrix(context)
    types = {float: MultibodyPlant, AutoDiffXd: MultibodyPlant_[AutoDiffXd]}
    types[symbolic.Expression] = MultibodyPlant_[symbolic.Expression]
    for T_from in types:
        source = plant if T_from is float else plant.ToScalarType[T_from]()
        for T_to, cls in types.items():
            if T_to is T_from:
                with pytest.raises(RuntimeError, match="does not support scalar conversion"):
                    source.ToScalarType[T_to]()
                continue
            converted = source.ToScalarType[T_to]()
            assert type(converted) is cls
            c = converted.CreateDefaultContext()
            converted.SetPositionsAndVelocities(c, x)
            values = np.vectorize(_double, otypes=[float])(converted.CalcMassMatrix(c))
            np.testing.assert_allclose(values, M, rtol=1e-14, atol=1e-14)


def test_system_type_names_and_errors():
    plant = _arm()
    with pytest.raises(RuntimeError, match="MultibodyPlant<double> does not support scalar "):
        plant.ToScalarType[float]()
    plant_ad = plant.ToAutoDiffXd()
    assert plant_ad.GetSystemType() == "drake::multibody::MultibodyPlant<drake::AutoDiffXd>"
    with pytest.raises(RuntimeError, match="to type drake::AutoDiffXd"):
        plant_ad.ToAutoDiffXd()
    with pytest.raises(RuntimeError, match="does not support scalar conversion"):
        m.LeafSystem().ToAutoDiffXd()


def test_symbolic_dynamics_evaluate_to_the_double_plant():
    symbolic = pytest.importorskip("mallard.symbolic")
    plant = _arm()
    plant_sym = plant.ToSymbolic()
    nq, nv = plant.num_positions(), plant.num_velocities()
    q, v = symbolic.MakeVectorVariable(nq, "q"), symbolic.MakeVectorVariable(nv, "v")
    context_sym = plant_sym.CreateDefaultContext()
    plant_sym.SetPositions(context_sym, q)
    plant_sym.SetVelocities(context_sym, v)
    M = plant_sym.CalcMassMatrix(context_sym)
    Cv = plant_sym.CalcBiasTerm(context_sym)
    tau_g = plant_sym.CalcGravityGeneralizedForces(context_sym)
    assert M[0, 0].GetVariables().size() > 0  # a function of q, not a number
    context = plant.CreateDefaultContext()
    for x in (np.linspace(-0.5, 0.7, nq + nv), np.linspace(1.0, -0.3, nq + nv)):
        env = dict(zip(list(q) + list(v), x, strict=True))
        plant.SetPositionsAndVelocities(context, x)
        close = dict(rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(
            symbolic.Evaluate(M, env), plant.CalcMassMatrix(context), **close
        )
        np.testing.assert_allclose(
            symbolic.Evaluate(Cv, env)[:, 0], plant.CalcBiasTerm(context), **close
        )
        np.testing.assert_allclose(
            symbolic.Evaluate(tau_g, env)[:, 0],
            plant.CalcGravityGeneralizedForces(context),
            **close,
        )


def test_plant_constructed_with_autodiff_scalars():
    plant = MultibodyPlant_[AutoDiffXd](0.0)
    body = plant.AddRigidBody("b", m.SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.1, 0.1))
    joint = plant.AddJoint(
        m.RevoluteJoint_[AutoDiffXd]("j", plant.world_frame(), body.body_frame(), [0, 0, 1])
    )
    assert isinstance(body, m.RigidBody_[AutoDiffXd])
    plant.Finalize()
    assert isinstance(joint, m.RevoluteJoint_[AutoDiffXd])
    context = plant.CreateDefaultContext()
    body.SetMass(context, AutoDiffXd(2.0, [1.0]))
    (Izz,) = plant.CalcMassMatrix(context)[0]
    # Izz = m (0.1² + 0.1²) / 12 for the cube about its center (the joint axis): dIzz/dm.
    assert Izz.value() == pytest.approx(2.0 * 0.02 / 12, rel=1e-14)
    np.testing.assert_allclose(Izz.derivatives(), [0.02 / 12], rtol=1e-14)
    q = plant.GetPositions(context)
    assert q.dtype == object and type(q[0]) is AutoDiffXd


def test_converted_plant_evaluates_its_per_instance_outputs():
    """Each model instance's output ports of a converted plant compute from the converted
    plant's Context (their calcs are rebound to it), equal to the double plant's."""
    plant = _arm()
    x = np.linspace(0.1, 1.0, plant.num_multibody_states())
    context = plant.CreateDefaultContext()
    plant.SetPositionsAndVelocities(context, x)
    converted = plant.ToAutoDiffXd()
    c = converted.CreateDefaultContext()
    converted.SetPositionsAndVelocities(c, x)
    instance = m.default_model_instance()
    for name in ("get_state_output_port", "get_generalized_acceleration_output_port"):
        expected = getattr(plant, name)(instance).Eval(context)
        values = getattr(converted, name)(instance).Eval(c)
        np.testing.assert_allclose(np.vectorize(_double, otypes=[float])(values), expected)
