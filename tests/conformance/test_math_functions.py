"""pydrake.math's functions beyond rotations against pydrake's: the Riccati and Lyapunov
solvers on well-conditioned problems (1e-10 relative; the two libraries' algorithms differ,
so ill-conditioned problems agree only to their condition number)."""

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.math as pm  # noqa: E402

import mallard.math as mm  # noqa: E402


def problem(seed):
    rng = np.random.default_rng(100 + seed)
    n, m = 1 + seed % 5, 1 + seed % 2
    Q0, R0 = rng.normal(size=(n, n)), rng.normal(size=(m, m))
    A = 0.5 * rng.normal(size=(n, n))
    return A, rng.normal(size=(n, m)), Q0 @ Q0.T + np.eye(n), R0 @ R0.T + np.eye(m), rng


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10 * max(1.0, np.abs(b).max()))


@pytest.mark.parametrize("seed", range(10))
def test_riccati_and_lyapunov(seed):
    A, B, Q, R, rng = problem(seed)
    N = 0.1 * rng.normal(size=B.shape)
    for name, args in [
        ("ContinuousAlgebraicRiccatiEquation", (A, B, Q, R)),
        ("DiscreteAlgebraicRiccatiEquation", (A, B, Q, R)),
        ("DiscreteAlgebraicRiccatiEquation", (A, B, Q, R, N)),
        ("RealContinuousLyapunovEquation", (A - 3 * np.eye(len(A)), Q)),
        ("RealDiscreteLyapunovEquation", (A, Q)),
    ]:
        close(getattr(mm, name)(*args), getattr(pm, name)(*args))


def test_wrap_to_and_scalar_functions():
    from pydrake.autodiffutils import AutoDiffXd as DAD

    from mallard.autodiffutils import AutoDiffXd as MAD

    rng = np.random.default_rng(5)
    for value, low, high in zip(
        rng.uniform(-50, 50, 40), rng.uniform(-5, 0, 40), rng.uniform(0.1, 7, 40), strict=True
    ):
        assert mm.wrap_to(value, low, high) == pm.wrap_to(value, low, high)
        ours = mm.wrap_to(MAD(value, [1.0, 2.0]), MAD(low), MAD(high))
        theirs = pm.wrap_to(DAD(value, [1.0, 2.0]), DAD(low), DAD(high))
        assert ours.value() == theirs.value()
        assert ours.derivatives().tolist() == theirs.derivatives().tolist()
    for x in (1.0, np.nan, np.inf):
        assert mm.isnan(x) == pm.isnan(x)
        assert mm.isnan(MAD(x, [1.0])) == pm.isnan(DAD(x, [1.0]))
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0])
    for name in ("eq", "ne", "lt", "le", "gt", "ge"):
        assert getattr(mm, name)(a, b).tolist() == getattr(pm, name)(a, b).tolist()
    A = rng.normal(size=(4, 4)) + 4 * np.eye(4)
    close(mm.inv(A), pm.inv(A))
    close(mm.matmul(A, A.T), pm.matmul(A, A.T))
    A_ad = np.array([[DAD(x, [x, 1.0]) for x in row] for row in A])
    A_ad_m = np.array([[MAD(x, [x, 1.0]) for x in row] for row in A])
    theirs, ours = pm.inv(A_ad), mm.inv(A_ad_m)
    close([[x.value() for x in row] for row in ours], [[x.value() for x in row] for row in theirs])
    close(
        [[x.derivatives() for x in row] for row in ours],
        [[x.derivatives() for x in row] for row in theirs],
    )


def test_matrix_utilities():
    rng = np.random.default_rng(6)
    p = rng.normal(size=3)
    close(mm.VectorToSkewSymmetric(p), pm.VectorToSkewSymmetric(p))
    S = rng.normal(size=(4, 4))
    S = S + S.T
    near = S + 1e-9 * rng.normal(size=(4, 4))
    for M in (S, near, rng.normal(size=(3, 4)), np.eye(3)):
        assert mm.IsSymmetric(M) == pm.IsSymmetric(M)
        assert mm.IsSymmetric(M, 1e-8) == pm.IsSymmetric(M, 1e-8)
    for M, tolerance in ((S, 0.0), (S @ S, 0.0), (S @ S, 1e-3), (np.diag([1.0, 0.0]), 0.0)):
        assert mm.IsPositiveDefinite(M, tolerance) == pm.IsPositiveDefinite(M, tolerance)
    Y = S @ S.T + np.eye(4)
    close(
        mm.DecomposePSDmatrixIntoXtransposeTimesX(Y, 1e-10),
        pm.DecomposePSDmatrixIntoXtransposeTimesX(Y, 1e-10),
    )
    V = rng.normal(size=(2, 4))
    low_rank = V.T @ V
    ours = mm.DecomposePSDmatrixIntoXtransposeTimesX(low_rank, 1e-10)
    theirs = pm.DecomposePSDmatrixIntoXtransposeTimesX(low_rank, 1e-10)
    assert ours.shape == theirs.shape == (2, 4)
    close(ours.T @ ours, theirs.T @ theirs)  # (the rows are unique up to an orthogonal map)
    indefinite = np.diag([1.0, -1.0])
    assert mm.DecomposePSDmatrixIntoXtransposeTimesX(indefinite, 1e-10, True).shape == (0, 2)
    assert pm.DecomposePSDmatrixIntoXtransposeTimesX(indefinite, 1e-10, True).shape == (0, 2)


def test_closest_quaternion():
    import pydrake.common.eigen_geometry as pe

    import mallard.common.eigen_geometry as me

    rng = np.random.default_rng(7)
    for _ in range(10):
        q1, q2 = (q / np.linalg.norm(q) for q in rng.normal(size=(2, 4)))
        ours = mm.ClosestQuaternion(me.Quaternion(q1), me.Quaternion(q2))
        theirs = pm.ClosestQuaternion(pe.Quaternion(q1), pe.Quaternion(q2))
        close(ours.wxyz(), theirs.wxyz())


def test_soft_min_max():
    from pydrake.autodiffutils import AutoDiffXd as DAD

    from mallard.autodiffutils import AutoDiffXd as MAD

    x = [1.0, 2.5, -0.5, 2.4]
    for name in ("SoftOverMax", "SoftUnderMax", "SoftOverMin", "SoftUnderMin"):
        for alpha in (1.0, 0.3, 20.0):
            close(getattr(mm, name)(x, alpha), getattr(pm, name)(x, alpha=alpha))
            ours = getattr(mm, name)([MAD(v, [v, 1.0]) for v in x], alpha)
            theirs = getattr(pm, name)([DAD(v, [v, 1.0]) for v in x], alpha)
            close(ours.value(), theirs.value())
            close(ours.derivatives(), theirs.derivatives())
        with pytest.raises(RuntimeError, match="alpha must be positive"):  # (pydrake aborts)
            getattr(mm, name)(x, alpha=0.0)


def test_numerical_gradient():
    def f(x):
        return np.array([x[0] ** 2 * np.sin(x[1]), np.exp(0.1 * x[0]) + x[1] ** 3, x[2]])

    rng = np.random.default_rng(8)
    for scale in (1e-3, 1.0, 1e3):
        x = scale * rng.normal(size=3)
        for method in ("kForward", "kBackward", "kCentral"):
            for accuracy in (1e-15, 1e-10):
                ours = mm.ComputeNumericalGradient(
                    f,
                    x,
                    mm.NumericalGradientOption(
                        getattr(mm.NumericalGradientMethod, method), accuracy
                    ),  # fmt: skip
                )
                theirs = pm.ComputeNumericalGradient(
                    f,
                    x,
                    pm.NumericalGradientOption(
                        getattr(pm.NumericalGradientMethod, method), accuracy
                    ),  # fmt: skip
                )
                np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)
    close(mm.ComputeNumericalGradient(f, x), pm.ComputeNumericalGradient(f, x))
    option = mm.NumericalGradientOption(mm.NumericalGradientMethod.kCentral, 1e-6)
    theirs = pm.NumericalGradientOption(pm.NumericalGradientMethod.kCentral, 1e-6)
    assert option.perturbation_size() == theirs.perturbation_size()
    assert repr(option) == repr(theirs)


def test_bspline_basis():
    bases = [
        (3, 5, "kClampedUniform", 0.0, 1.0),
        (4, 7, "kUniform", -1.0, 2.0),
        (2, 4, "kClampedUniform", 0.5, 3.0),
    ]
    rng = np.random.default_rng(9)
    for order, n, kind, t0, t1 in bases:
        ours = mm.BsplineBasis(order, n, getattr(mm.KnotVectorType, kind), t0, t1)
        theirs = pm.BsplineBasis(order, n, getattr(pm.KnotVectorType, kind), t0, t1)
        close(ours.knots(), theirs.knots())
        for name in ("order", "degree", "num_basis_functions"):
            assert getattr(ours, name)() == getattr(theirs, name)()
        close(ours.initial_parameter_value(), theirs.initial_parameter_value())
        close(ours.final_parameter_value(), theirs.final_parameter_value())
        points = [rng.normal(size=2) for _ in range(n)]
        a, b = ours.initial_parameter_value(), ours.final_parameter_value()
        for t in [a, b, *rng.uniform(a, b, 10), *ours.knots()[order - 1 : n + 1]]:
            assert ours.FindContainingInterval(t) == theirs.FindContainingInterval(t)
            assert ours.ComputeActiveBasisFunctionIndices(t) == (
                theirs.ComputeActiveBasisFunctionIndices(t)
            )
            close(ours.EvaluateCurve(points, t), theirs.EvaluateCurve(points, t))
            for i in range(n):
                close(ours.EvaluateBasisFunctionI(i, t), theirs.EvaluateBasisFunctionI(i, t))
        interval = [a + 0.2 * (b - a), a + 0.5 * (b - a)]
        assert ours.ComputeActiveBasisFunctionIndices(interval) == (
            theirs.ComputeActiveBasisFunctionIndices(interval)
        )
    knots = [0.0, 0.0, 0.0, 0.3, 0.7, 1.0, 1.0, 1.0]
    ours, theirs = mm.BsplineBasis(3, knots), pm.BsplineBasis(order=3, knots=knots)
    assert ours.num_basis_functions() == theirs.num_basis_functions()
    assert ours == mm.BsplineBasis(ours) and ours != mm.BsplineBasis(3, 5)


def test_barycentric_mesh():
    grid = [{0.0, 1.0, 2.5}, {-1.0, 1.0}, {5.0}, {0.0, 0.5, 1.0, 2.0}]
    ours, theirs = mm.BarycentricMesh(grid), pm.BarycentricMesh(grid)
    for name in ("get_num_mesh_points", "get_num_interpolants", "get_input_size"):
        assert getattr(ours, name)() == getattr(theirs, name)()
    assert ours.get_input_grid() == theirs.get_input_grid()
    close(ours.get_all_mesh_points(), theirs.get_all_mesh_points())
    close(ours.get_mesh_point(7), theirs.get_mesh_point(7))
    rng = np.random.default_rng(10)
    values = rng.normal(size=(2, ours.get_num_mesh_points()))
    for _ in range(30):
        x = rng.uniform([-0.5, -1.5, 4.0, -0.2], [3.0, 1.5, 6.0, 2.5])
        (i_m, w_m), (i_d, w_d) = ours.EvalBarycentricWeights(x), theirs.EvalBarycentricWeights(x)
        assert i_m.tolist() == i_d.tolist()
        close(w_m, w_d)
        close(ours.Eval(values, x), theirs.Eval(values, x))

    def func(x):
        return np.array([x[0] + 2 * x[1], x[3] ** 2])

    close(ours.MeshValuesFrom(func), theirs.MeshValuesFrom(func))


def test_cast():
    import pydrake.autodiffutils as dad
    import pydrake.common.eigen_geometry as pe
    import pydrake.symbolic as ds

    import mallard.autodiffutils as mad
    import mallard.common.eigen_geometry as me
    import mallard.symbolic as ms

    def table(lib_math, lib_geometry, AD, Expression):
        out = {}
        for name in ("RotationMatrix", "RigidTransform", "Quaternion", "AngleAxis", "Isometry3"):
            cls = getattr(lib_math, name, None) or getattr(lib_geometry, name)
            obj = cls()
            for src in (float, AD, Expression):
                o = obj if src is float else obj.cast[src]()
                for dst in (float, AD, Expression):
                    try:
                        o.cast[dst]()
                        out[(name, src.__name__, dst.__name__)] = True
                    except RuntimeError:
                        out[(name, src.__name__, dst.__name__)] = False
        return out

    assert table(mm, me, mad.AutoDiffXd, ms.Expression) == table(
        pm, pe, dad.AutoDiffXd, ds.Expression
    )
    R = mm.RotationMatrix.MakeXRotation(0.3).cast[mad.AutoDiffXd]()
    assert isinstance(R, mm.RotationMatrix_[mad.AutoDiffXd])
    close([[x.value() for x in row] for row in R.matrix()],
          pm.RotationMatrix.MakeXRotation(0.3).matrix())  # fmt: skip
