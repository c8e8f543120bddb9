"""pydrake.math's functions beyond rotations: closed forms and the errors pydrake leaves to
debug-only assertions (their agreement with pydrake is in tests/conformance)."""

import numpy as np
import pytest

import mallard.math as mm
from mallard.autodiffutils import AutoDiffXd


def test_wrap_to():
    assert mm.wrap_to(7.0, 0.0, 2.0) == 1.0 and mm.wrap_to(-0.5, 0.0, 2.0) == 1.5
    assert mm.wrap_to(2.0, 0.0, 2.0) == 0.0  # [low, high)
    wrapped = mm.wrap_to(AutoDiffXd(3.5, [1.0]), 0.0, 1.0)
    assert (wrapped.value(), wrapped.derivatives().tolist()) == (0.5, [1.0])
    with pytest.raises(RuntimeError, match="low must be less than high"):
        mm.wrap_to(1.0, 2.0, 1.0)
    with pytest.raises(RuntimeError, match="must be finite"):
        mm.wrap_to(1.0, 0.0, np.inf)


def test_scalar_function_errors():
    with pytest.raises(TypeError, match="expected a float or AutoDiffXd"):
        mm.isnan("x")
    sym = pytest.importorskip("mallard.symbolic")
    with pytest.raises(NotImplementedError, match="Expression overload"):
        mm.isnan(sym.Expression(sym.Variable("x")))
    with pytest.raises(RuntimeError, match="singular"):
        mm.inv(np.array([[AutoDiffXd(1.0), AutoDiffXd(2.0)], [AutoDiffXd(2.0), AutoDiffXd(4.0)]]))
    with pytest.raises(RuntimeError, match="square"):
        mm.inv(np.ones((2, 3)))
    x = sym.Variable("x")
    inverse = mm.inv(np.array([[sym.Expression(x), 0.0], [0.0, 2.0]], dtype=object))
    assert inverse[0, 0].EqualTo(1 / x) and inverse[1, 1].Evaluate() == 0.5


def test_matrix_utility_errors():
    with pytest.raises(RuntimeError, match="tolerance must be >= 0"):
        mm.IsPositiveDefinite(np.eye(2), -1.0)
    with pytest.raises(RuntimeError, match="square"):
        mm.IsPositiveDefinite(np.ones((2, 3)))
    with pytest.raises(RuntimeError, match="is not positive semidefinite"):
        mm.DecomposePSDmatrixIntoXtransposeTimesX(np.diag([1.0, -1.0]), 1e-10)
    with pytest.raises(RuntimeError, match="zero_tol should be non-negative"):
        mm.DecomposePSDmatrixIntoXtransposeTimesX(np.eye(2), -1.0)
    with pytest.raises(TypeError, match="must be a Quaternion"):
        mm.ClosestQuaternion([1, 0, 0, 0], [1, 0, 0, 0])
    with pytest.raises(RuntimeError, match="alpha must be finite"):
        mm.SoftOverMax([1.0], np.inf)
    with pytest.raises(RuntimeError, match="must not be empty"):
        mm.SoftUnderMin([])


def test_soft_min_max_bounds():
    x = [0.3, -1.0, 2.0]
    for alpha in (0.5, 5.0, 50.0):
        assert mm.SoftOverMax(x, alpha) >= max(x) >= mm.SoftUnderMax(x, alpha)
        assert mm.SoftOverMin(x, alpha) >= min(x) >= mm.SoftUnderMin(x, alpha)
    assert abs(mm.SoftOverMax(x, 200.0) - 2.0) < 1e-6


def test_numerical_gradient_closed_form():
    A = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.0]])
    for method in mm.NumericalGradientMethod:
        option = mm.NumericalGradientOption(method)
        np.testing.assert_allclose(
            mm.ComputeNumericalGradient(lambda x: A @ x, [0.3, -2.0], option), A, atol=1e-7
        )
    with pytest.raises(TypeError, match="NumericalGradientMethod"):
        mm.NumericalGradientOption("central")


def test_bspline_and_barycentric_errors():
    with pytest.raises(RuntimeError, match="greater than or equal to the order"):
        mm.BsplineBasis(4, 3)
    with pytest.raises(RuntimeError, match="twice the order"):
        mm.BsplineBasis(3, [0.0, 1.0, 2.0])
    with pytest.raises(RuntimeError, match="non-decreasing"):
        mm.BsplineBasis(1, [1.0, 0.0])
    basis = mm.BsplineBasis(3, 5)
    with pytest.raises(RuntimeError, match="outside"):
        basis.EvaluateCurve([0.0] * 5, 1.5)
    with pytest.raises(RuntimeError, match="expected 5 control points"):
        basis.EvaluateCurve([0.0] * 4, 0.5)
    # A clamped basis sums to one and interpolates its end points.
    t = np.linspace(0, 1, 11)
    np.testing.assert_allclose(
        [sum(basis.EvaluateBasisFunctionI(i, ti) for i in range(5)) for ti in t], 1.0
    )
    assert basis.EvaluateCurve([2.0, 0, 0, 0, 3.0], 1.0) == 3.0
    with pytest.raises(RuntimeError, match="at least one value"):
        mm.BarycentricMesh([{0.0}, set()])
    mesh = mm.BarycentricMesh([{0.0, 1.0}, {0.0, 1.0}])
    with pytest.raises(RuntimeError, match="must have 2 elements"):
        mesh.EvalBarycentricWeights([0.5])
    # Linear functions are interpolated exactly.
    values = mesh.MeshValuesFrom(lambda x: np.array([2 * x[0] - x[1] + 1]))
    assert abs(mesh.Eval(values, [0.3, 0.8])[0] - (0.6 - 0.8 + 1)) < 1e-15
