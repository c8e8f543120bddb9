"""RotationMatrix, RollPitchYaw and RigidTransform on symbolic angles compose to their closed
forms."""

import numpy as np
import pytest

sympy = pytest.importorskip("sympy")

from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix  # noqa: E402
from mallard.symbolic import Evaluate, Expression, Variable, to_sympy  # noqa: E402

from .trig_identity import assert_trig_equal  # noqa: E402


def _Rz(t):
    c, s = sympy.cos(t), sympy.sin(t)
    return sympy.Matrix([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _Ry(t):
    c, s = sympy.cos(t), sympy.sin(t)
    return sympy.Matrix([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def _Rx(t):
    c, s = sympy.cos(t), sympy.sin(t)
    return sympy.Matrix([[1, 0, 0], [0, c, -s], [0, s, c]])


def _array(m):
    return np.array(m.tolist(), dtype=object)


def test_rotations_about_one_axis_add_their_angles():
    a, b = Variable("a"), Variable("b")
    R = RotationMatrix.MakeZRotation(Expression(a)) @ RotationMatrix.MakeZRotation(Expression(b))
    assert R.matrix().dtype == object
    A, B = to_sympy(a), to_sympy(b)
    assert_trig_equal(R.matrix(), _array(_Rz(A + B)), [a, b])
    # Its inverse undoes it.
    identity = (R.inverse() @ R).matrix()
    assert_trig_equal(identity, np.eye(3, dtype=object), [a, b])


def test_roll_pitch_yaw_is_the_product_of_axis_rotations():
    r, p, y = Variable("r"), Variable("p"), Variable("y")
    R = RollPitchYaw(Expression(r), Expression(p), Expression(y)).ToRotationMatrix()
    R_expected = _Rz(to_sympy(y)) * _Ry(to_sympy(p)) * _Rx(to_sympy(r))
    assert_trig_equal(R.matrix(), _array(R_expected), [r, p, y])
    env = {r: 0.3, p: -0.4, y: 1.1}
    np.testing.assert_allclose(
        Evaluate(R.matrix(), env), RollPitchYaw(0.3, -0.4, 1.1).ToRotationMatrix().matrix()
    )


def test_rigid_transforms_compose():
    """X_AC = X_AB·X_BC with X_AB = (R_z(a), p_AoBo_A = [l, 0, 0]) and X_BC = (R_z(b),
    p_BoCo_B = [m, 0, 0]): R_AC = R_z(a + b), p_AoCo_A = [l + m cos a, m sin a, 0]."""
    a, b, l, m = (Variable(n) for n in "ablm")
    X_AB = RigidTransform(RotationMatrix.MakeZRotation(Expression(a)), [l, 0.0, 0.0])
    X_BC = RigidTransform(RotationMatrix.MakeZRotation(Expression(b)), [m, 0.0, 0.0])
    X_AC = X_AB @ X_BC
    A, B, L, M = (to_sympy(v) for v in (a, b, l, m))
    p_expected = [L + M * sympy.cos(A), M * sympy.sin(A), 0]
    assert_trig_equal(X_AC.translation(), np.array(p_expected, dtype=object), [a, b])
    assert_trig_equal(X_AC.rotation().matrix(), _array(_Rz(A + B)), [a, b])
    # Values at a state agree with the float transforms.
    env = {a: 0.7, b: -1.3, l: 1.0, m: 0.5}
    X_float = RigidTransform(RotationMatrix.MakeZRotation(0.7), [1.0, 0, 0]) @ RigidTransform(
        RotationMatrix.MakeZRotation(-1.3), [0.5, 0, 0]
    )
    X_AC_values = Evaluate(X_AC.GetAsMatrix4(), env)
    np.testing.assert_allclose(X_AC_values, X_float.GetAsMatrix4(), atol=1e-15)


def test_variables_are_stored_as_expressions():
    """As in pydrake, a Variable given where an Expression goes becomes an Expression: in a
    value type's scalars and in a symbolic plant's state."""
    from mallard.models import MakeAcrobotPlant
    from mallard.symbolic import MakeVectorVariable

    t = Variable("t")
    R = RotationMatrix.MakeZRotation(t).matrix()
    assert not any(isinstance(e, Variable) for e in R.flat)
    assert isinstance(R[0, 1], Expression)
    assert sympy.simplify(to_sympy(R[0, 1]) + sympy.sin(to_sympy(t))) == 0
    plant = MakeAcrobotPlant().ToSymbolic()
    context = plant.CreateDefaultContext()
    q = MakeVectorVariable(2, "q")
    plant.SetPositions(context, q)
    stored = plant.GetPositions(context)
    assert all(isinstance(e, Expression) for e in stored)
    assert all(stored[i].EqualTo(Expression(q[i])) for i in range(2))
