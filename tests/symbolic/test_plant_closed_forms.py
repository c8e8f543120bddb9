"""The symbolic dynamics of the acrobot and the cart-pole simplify to their closed forms:
mass matrix M(q), bias term C(q, v)·v and gravity term tau_g(q) of a symbolic plant
(``plant.ToSymbolic()``), and inverse dynamics run by the kernels on object arrays of
Expressions (mallard.multibody.batch)."""

import numpy as np
import pytest

sympy = pytest.importorskip("sympy")

from mallard.models import AcrobotParameters, MakeAcrobotPlant  # noqa: E402
from mallard.multibody.batch import BatchedPlant  # noqa: E402
from mallard.multibody.parsing import Parser  # noqa: E402
from mallard.multibody.plant import MultibodyPlant  # noqa: E402
from mallard.symbolic import Evaluate, Expression, MakeVectorVariable, to_sympy  # noqa: E402

from .trig_identity import assert_trig_equal  # noqa: E402

G = 9.81


def _acrobot_closed_form(q, v):
    """Spong's acrobot (q = 0 hanging down) with the parameters of MakeAcrobotPlant: M, C·v,
    tau_g and the damping forces as sympy expressions of q = (q1, q2), v = (q̇1, q̇2)."""
    p = AcrobotParameters()
    (q1, q2), (w1, w2) = q, v
    I1, I2 = p.Ic1 + p.m1 * p.lc1**2, p.Ic2 + p.m2 * p.lc2**2
    c2, s2 = sympy.cos(q2), sympy.sin(q2)
    h = p.m2 * p.l1 * p.lc2
    M = [[I1 + I2 + p.m2 * p.l1**2 + 2 * h * c2, I2 + h * c2], [I2 + h * c2, I2]]
    Cv = [-2 * h * s2 * w1 * w2 - h * s2 * w2**2, h * s2 * w1**2]
    s1, s12 = sympy.sin(q1), sympy.sin(q1 + q2)
    tau_g = [
        -p.m1 * G * p.lc1 * s1 - p.m2 * G * (p.l1 * s1 + p.lc2 * s12),
        -p.m2 * G * p.lc2 * s12,
    ]
    damping = [p.b1 * w1, p.b2 * w2]
    return np.array(M, dtype=object), np.array(Cv), np.array(tau_g), np.array(damping)


def _cart_pole_closed_form(q, v, mc=10.0, mp=1.0, l=0.5, Ip=0.08333333333333333):
    """The cart-pole of cart_pole.urdf: a cart of mass mc on x, a pole of mass mp whose center
    of mass is l from the hinge (θ = 0 hanging down) with inertia Ip about it."""
    (_, theta), (_, theta_dot) = q, v
    c, s = sympy.cos(theta), sympy.sin(theta)
    M = [[mc + mp, -mp * l * c], [-mp * l * c, mp * l**2 + Ip]]
    Cv = [mp * l * s * theta_dot**2, 0]
    tau_g = [0, -mp * G * l * s]
    return np.array(M, dtype=object), np.array(Cv, dtype=object), np.array(tau_g, dtype=object)


def _sympy(variables):
    return [to_sympy(x) for x in variables]


def _cart_pole():
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModelsFromUrl("package://mallard/cart_pole.urdf")
    plant.Finalize()
    return plant


def _symbolic_state(plant):
    """A symbolic plant and its Context at q = q(i), v = v(i) (Variables)."""
    if not hasattr(plant, "ToSymbolic"):
        pytest.skip("MultibodyPlant.ToSymbolic() is not available")
    symbolic = plant.ToSymbolic()
    context = symbolic.CreateDefaultContext()
    q = MakeVectorVariable(plant.num_positions(), "q")
    v = MakeVectorVariable(plant.num_velocities(), "v")
    symbolic.SetPositions(context, q)
    symbolic.SetVelocities(context, v)
    return symbolic, context, q, v


@pytest.mark.parametrize("urdf", [False, True], ids=["MakeAcrobotPlant", "acrobot.urdf"])
def test_acrobot(urdf):
    if urdf:
        plant = MultibodyPlant(0.0)
        Parser(plant).AddModelsFromUrl("package://mallard/acrobot.urdf")
        plant.Finalize()
    else:
        plant = MakeAcrobotPlant()
    symbolic, context, q, v = _symbolic_state(plant)
    M, Cv, tau_g, _ = _acrobot_closed_form(_sympy(q), _sympy(v))
    M_sym = symbolic.CalcMassMatrix(context)
    assert M_sym.shape == (2, 2) and all(isinstance(e, Expression) for e in M_sym.flat)
    assert_trig_equal(M_sym, M, q)
    assert_trig_equal(symbolic.CalcBiasTerm(context), Cv, q)
    assert_trig_equal(symbolic.CalcGravityGeneralizedForces(context), tau_g, q)


def test_cart_pole():
    symbolic, context, q, v = _symbolic_state(_cart_pole())
    M, Cv, tau_g = _cart_pole_closed_form(_sympy(q), _sympy(v))
    assert_trig_equal(symbolic.CalcMassMatrix(context), M, q)
    assert_trig_equal(symbolic.CalcBiasTerm(context), Cv, q)
    assert_trig_equal(symbolic.CalcGravityGeneralizedForces(context), tau_g, q)


def _kernel_inverse_dynamics(plant):
    """Inverse dynamics run by the kernels on Expressions of q, v, v̇ (no symbolic plant)."""
    nq, nv = plant.num_positions(), plant.num_velocities()
    q, v = MakeVectorVariable(nq, "q"), MakeVectorVariable(nv, "v")
    vdot = MakeVectorVariable(nv, "a")

    def batch(x):
        return np.array([[Expression(e) for e in x]], dtype=object)

    tau = BatchedPlant(plant).CalcInverseDynamics(batch(q), batch(v), batch(vdot))[0]
    return tau, q, _sympy(q), _sympy(v), _sympy(vdot)


def test_acrobot_inverse_dynamics_by_the_kernels():
    """tau = M·v̇ + C·v − tau_g + damping·v."""
    tau, q, Q, V, A = _kernel_inverse_dynamics(MakeAcrobotPlant())
    M, Cv, tau_g, damping = _acrobot_closed_form(Q, V)
    assert_trig_equal(tau, M.dot(A) + Cv - tau_g + damping, q)


def test_cart_pole_inverse_dynamics_by_the_kernels():
    tau, q, Q, V, A = _kernel_inverse_dynamics(_cart_pole())
    M, Cv, tau_g = _cart_pole_closed_form(Q, V)
    assert_trig_equal(tau, M.dot(A) + Cv - tau_g, q)


def test_symbolic_results_evaluate_to_the_double_plant():
    """Sanity of the symbolic path against the compiled one at a numeric state."""
    plant = MakeAcrobotPlant()
    symbolic, context, q, v = _symbolic_state(plant)
    x0 = {q[0]: 0.3, q[1]: -1.1, v[0]: 0.7, v[1]: 2.0}
    numeric = plant.CreateDefaultContext()
    plant.SetPositions(numeric, [0.3, -1.1])
    plant.SetVelocities(numeric, [0.7, 2.0])
    np.testing.assert_allclose(
        Evaluate(symbolic.CalcMassMatrix(context), x0), plant.CalcMassMatrix(numeric), rtol=1e-14
    )
    np.testing.assert_allclose(
        Evaluate(symbolic.CalcBiasTerm(context), x0)[:, 0], plant.CalcBiasTerm(numeric), rtol=1e-13
    )


def test_forward_dynamics_needs_a_numeric_pivot():
    """The articulated-body algorithm branches on its pivots' signs: with symbolic q it
    raises, naming the variables the condition depends on."""
    symbolic, context, _, _ = _symbolic_state(MakeAcrobotPlant())
    with pytest.raises(RuntimeError, match=r"depends on the variables \{q\(0\), q\(1\)\}"):
        symbolic.EvalTimeDerivatives(context)
