"""RotationalInertia: constructors, queries, shifts, re-expression, operators, errors."""

import copy
import pickle

import numpy as np
import pytest

from mallard.math import RollPitchYaw, RotationMatrix
from mallard.multibody.tree import RotationalInertia, UnitInertia

EPS = np.finfo(float).eps


def full(Ixx, Iyy, Izz, Ixy=0.0, Ixz=0.0, Iyz=0.0):
    return np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])


def random_inertia(rng):
    """A physically valid rotational inertia: a random point cloud's, about its origin."""
    points = rng.normal(size=(5, 3))
    masses = rng.uniform(0.5, 2.0, size=5)
    I = sum(m * ((p @ p) * np.eye(3) - np.outer(p, p)) for m, p in zip(masses, points, strict=True))
    return RotationalInertia(I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2])


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def test_constructors():
    assert np.isnan(RotationalInertia().CopyToFullMatrix3()).all()
    np.testing.assert_array_equal(RotationalInertia(1, 2, 3).CopyToFullMatrix3(), full(1, 2, 3))
    I = RotationalInertia(1, 2, 3, 0.1, 0.2, 0.3)
    np.testing.assert_array_equal(I.CopyToFullMatrix3(), full(1, 2, 3, 0.1, 0.2, 0.3))
    kw = RotationalInertia(Ixx=1, Iyy=2, Izz=3, Ixy=0.1, Ixz=0.2, Iyz=0.3)
    np.testing.assert_array_equal(kw.CopyToFullMatrix3(), I.CopyToFullMatrix3())
    # A particle of mass m at p: m (|p|² Id − p pᵀ); the sign of p does not matter.
    p = np.array([1.0, 2.0, 3.0])
    expected = 2 * (14 * np.eye(3) - np.outer(p, p))
    np.testing.assert_allclose(RotationalInertia(2.0, p).CopyToFullMatrix3(), expected)
    np.testing.assert_allclose(RotationalInertia(mass=2.0, p_PQ_E=-p).CopyToFullMatrix3(), expected)
    assert RotationalInertia(1, 1, 1).CopyToFullMatrix3().dtype == np.float64


def test_constructor_errors():
    with pytest.raises(RuntimeError, match="mass.*non-negative.*-2"):
        RotationalInertia(-2.0, [1, 2, 3])
    with pytest.raises(TypeError, match="p_PQ_E must be a 3-vector"):
        RotationalInertia(1, 2)  # a particle needs a position vector
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        RotationalInertia(1, 2, 3, 4)
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        RotationalInertia(Ixx=1, Iyy=2, Izz_typo=3)


def test_access():
    I = RotationalInertia(1, 2, 3, 0.1, 0.2, 0.3)
    np.testing.assert_array_equal(I.get_moments(), [1, 2, 3])
    np.testing.assert_array_equal(I.get_products(), [0.1, 0.2, 0.3])
    assert I.rows() == 3 and I.cols() == 3
    assert I[0, 1] == I[1, 0] == 0.1 and I[2, 2] == 3.0 and type(I[0, 0]) is float
    assert I.Trace() == 6.0
    assert I.CalcMaximumPossibleMomentOfInertia() == 3.0
    # Returned arrays are copies.
    I.get_moments()[0] = 99.0
    I.CopyToFullMatrix3()[0, 0] = 99.0
    assert I[0, 0] == 1.0
    for bad in [(3, 0), (0, -1)]:
        with pytest.raises(IndexError, match="out of range"):
            I[bad]
    with pytest.raises(IndexError, match=r"Expected \[i,j\]"):
        I[0, 1, 2]
    with pytest.raises(TypeError, match="tuple"):
        I[0]


def test_nan_zero_and_setters():
    assert RotationalInertia().IsNaN() and not RotationalInertia(1, 1, 1).IsNaN()
    assert RotationalInertia(1, 1, 1, 0, np.nan, 0).IsNaN()
    assert RotationalInertia(0, 0, 0).IsZero() and not RotationalInertia(0, 0, 1e-300).IsZero()
    assert not RotationalInertia().IsZero()
    I = RotationalInertia(1, 2, 3)
    assert I.SetZero() is None and I.IsZero()
    assert I.SetToNaN() is None and I.IsNaN()
    tri = RotationalInertia.TriaxiallySymmetric(2.5)
    assert type(tri) is RotationalInertia
    np.testing.assert_array_equal(tri.CopyToFullMatrix3(), 2.5 * np.eye(3))


def test_could_be_physically_valid(rng):
    for _ in range(20):
        assert random_inertia(rng).CouldBePhysicallyValid()
    assert RotationalInertia(0, 0, 0).CouldBePhysicallyValid()
    assert RotationalInertia(1, 1, 2).CouldBePhysicallyValid()  # a thin disk: on the boundary
    assert not RotationalInertia(1, 1, 2 + 1e-9).CouldBePhysicallyValid()  # triangle inequality
    assert not RotationalInertia(-1, 1, 1).CouldBePhysicallyValid()
    assert not RotationalInertia().CouldBePhysicallyValid()
    assert not RotationalInertia(np.inf, 1, 1).CouldBePhysicallyValid()
    # Positive moments but principal moments 0.4, 1, 1.6 break the triangle inequality.
    assert not RotationalInertia(1, 1, 1, 0.6, 0, 0).CouldBePhysicallyValid()
    assert RotationalInertia(1, 1, 1, 0.4, 0, 0).CouldBePhysicallyValid()
    # Round-off tolerance: 16 ε relative to trace/2 (absolute below 1).
    assert RotationalInertia(1e6, 1e6, 2e6 * (1 + 8 * EPS)).CouldBePhysicallyValid()
    assert not RotationalInertia(1e6, 1e6, 2e6 * (1 + 64 * EPS)).CouldBePhysicallyValid()
    assert RotationalInertia(-8 * EPS, 1, 1).CouldBePhysicallyValid()
    assert not RotationalInertia(-64 * EPS, 1, 1).CouldBePhysicallyValid()
    # Rotating a valid inertia keeps it valid, also when Gershgorin's bound cannot decide.
    R = RotationMatrix(RollPitchYaw(0.3, -0.7, 1.1))
    assert RotationalInertia(1, 1, 2).ReExpress(R).CouldBePhysicallyValid()
    assert not RotationalInertia(1, 1, 2.01).ReExpress(R).CouldBePhysicallyValid()


def test_principal_moments_and_axes(rng):
    for _ in range(10):
        I = random_inertia(rng)
        moments = I.CalcPrincipalMomentsOfInertia()
        assert moments[0] <= moments[1] <= moments[2]
        moments2, R_EA = I.CalcPrincipalMomentsAndAxesOfInertia()
        np.testing.assert_allclose(moments2, moments, rtol=1e-14)
        R = R_EA.matrix()
        assert np.linalg.det(R) == pytest.approx(1.0)
        # The axes diagonalize I: I = R diag(moments) Rᵀ, and each column is an eigenvector.
        np.testing.assert_allclose(R @ np.diag(moments) @ R.T, I.CopyToFullMatrix3(), atol=1e-12)
        for k in range(3):
            np.testing.assert_allclose(I * R[:, k], moments[k] * R[:, k], atol=1e-12)
        # The trace is invariant; the maximum possible moment bounds the largest one.
        assert moments.sum() == pytest.approx(I.Trace())
        assert I.Trace() / 3 <= moments[2] <= I.CalcMaximumPossibleMomentOfInertia() + 1e-12
    moments, R_EA = RotationalInertia(2, 2, 2).CalcPrincipalMomentsAndAxesOfInertia()
    np.testing.assert_array_equal(moments, [2, 2, 2])
    np.testing.assert_array_equal(R_EA.matrix(), np.eye(3))
    R = RotationMatrix(RollPitchYaw(0.2, 0.4, 0.6))
    I = RotationalInertia(1, 2, 3).ReExpress(R)
    moments, R_EA = I.CalcPrincipalMomentsAndAxesOfInertia()
    np.testing.assert_allclose(moments, [1, 2, 3], rtol=1e-14)
    np.testing.assert_allclose(np.abs(R_EA.matrix()), np.abs(R.matrix()), atol=1e-14)


def test_principal_moment_errors():
    for method in ["CalcPrincipalMomentsOfInertia", "CalcPrincipalMomentsAndAxesOfInertia"]:
        with pytest.raises(RuntimeError, match="Unable to calculate the eigenvalues"):
            getattr(RotationalInertia(), method)()
        with pytest.raises(RuntimeError, match="finite"):
            getattr(RotationalInertia(np.inf, 1, 1), method)()


def test_is_nearly_equal_to():
    a, b = RotationalInertia(1, 1, 1), RotationalInertia(2, 2, 2)
    # |a − b|max = 1; min(trace/2) = 1.5.
    assert a.IsNearlyEqualTo(b, 1 / 1.5) and not a.IsNearlyEqualTo(b, 0.66)
    assert b.IsNearlyEqualTo(other=a, precision=0.67)
    assert a.IsNearlyEqualTo(a, 0.0)
    assert not RotationalInertia().IsNearlyEqualTo(RotationalInertia(), 1.0)
    # The comparison is element-wise: two products off by 0.1 each are within 0.07·1.5.
    assert a.IsNearlyEqualTo(RotationalInertia(1, 1, 1, 0.1, 0.1, 0), 0.07)
    with pytest.raises(TypeError):
        a.IsNearlyEqualTo(np.eye(3), 0.1)


def test_reexpress(rng):
    for _ in range(5):
        I = random_inertia(rng)
        R = RotationMatrix(RollPitchYaw(*rng.uniform(-3, 3, size=3)))
        I_A = I.ReExpress(R_AE=R)
        assert type(I_A) is RotationalInertia
        expected = R.matrix() @ I.CopyToFullMatrix3() @ R.matrix().T
        np.testing.assert_allclose(I_A.CopyToFullMatrix3(), expected, atol=1e-13)
        np.testing.assert_array_equal(I_A.CopyToFullMatrix3(), I_A.CopyToFullMatrix3().T)
        assert I_A.Trace() == pytest.approx(I.Trace())
        np.testing.assert_allclose(
            I_A.ReExpress(R.inverse()).CopyToFullMatrix3(), I.CopyToFullMatrix3(), atol=1e-13
        )
    with pytest.raises(TypeError, match="RotationMatrix"):
        I.ReExpress(np.eye(3))


def test_shifts(rng):
    for _ in range(5):
        I_cm = random_inertia(rng)
        m = rng.uniform(0.5, 3)
        p, q = rng.normal(size=3), rng.normal(size=3)
        I_Q = I_cm.ShiftFromCenterOfMass(m, p)
        # Parallel-axis theorem, written out.
        expected = I_cm.CopyToFullMatrix3() + m * ((p @ p) * np.eye(3) - np.outer(p, p))
        np.testing.assert_allclose(I_Q.CopyToFullMatrix3(), expected, rtol=1e-14)
        # Shifting there and back is the identity.
        back = I_Q.ShiftToCenterOfMass(mass=m, p_QBcm_E=-p)
        np.testing.assert_allclose(back.CopyToFullMatrix3(), I_cm.CopyToFullMatrix3(), atol=1e-12)
        # ShiftToThenAwayFromCenterOfMass = ShiftToCenterOfMass then ShiftFromCenterOfMass.
        I_P = I_Q
        both = I_P.ShiftToThenAwayFromCenterOfMass(m, p_PBcm_E=-p, p_QBcm_E=q)
        two = I_P.ShiftToCenterOfMass(m, -p).ShiftFromCenterOfMass(m, -q)
        np.testing.assert_allclose(both.CopyToFullMatrix3(), two.CopyToFullMatrix3(), atol=1e-12)
        assert type(both) is RotationalInertia


def test_operators():
    a = RotationalInertia(1, 2, 3, 0.1, 0.2, 0.3)
    b = RotationalInertia(2, 2, 2)
    A, B = a.CopyToFullMatrix3(), b.CopyToFullMatrix3()
    np.testing.assert_allclose((a + b).CopyToFullMatrix3(), A + B)
    np.testing.assert_allclose((a - b).CopyToFullMatrix3(), A - B)
    np.testing.assert_allclose((a * 2).CopyToFullMatrix3(), 2 * A)
    np.testing.assert_allclose((2 * a).CopyToFullMatrix3(), 2 * A)
    np.testing.assert_allclose((np.float64(2) * a).CopyToFullMatrix3(), 2 * A)
    np.testing.assert_allclose((a / 4).CopyToFullMatrix3(), A / 4)
    w = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(a * w, A @ w)
    np.testing.assert_allclose(a * list(w), A @ w)
    c = RotationalInertia(1, 1, 1)
    alias = c
    c += b
    c -= RotationalInertia(0.5, 0.5, 0.5)
    c *= 2
    c /= 5
    assert c is alias
    np.testing.assert_allclose(c.CopyToFullMatrix3(), np.eye(3) * (1 + 2 - 0.5) * 2 / 5)
    with pytest.raises(TypeError):
        -a  # noqa: B018  (pydrake has no unary minus)
    with pytest.raises(TypeError):
        a + 1.0
    with pytest.raises(TypeError):
        a * a
    with pytest.raises(TypeError):
        w * a


def test_operator_errors():
    a = RotationalInertia(1, 1, 1)
    with pytest.raises(RuntimeError, match="negative.*-2"):
        a * -2.0
    with pytest.raises(RuntimeError, match="negative"):
        -1.0 * a
    with pytest.raises(RuntimeError, match="not positive.*0"):
        a / 0.0
    with pytest.raises(RuntimeError, match="not positive"):
        a /= -1.0


def test_unit_inertia_operands_give_rotational_inertia():
    G = UnitInertia(1, 2, 3)
    for result in [G + G, G - UnitInertia(0.5, 0.5, 0.5), G * 2.0, 2.0 * G, G / 2.0]:
        assert type(result) is RotationalInertia
    alias = G
    G += UnitInertia(1, 1, 1)  # as in pydrake, G is updated and the name binds a copy
    assert type(G) is RotationalInertia and type(alias) is UnitInertia
    np.testing.assert_array_equal(alias.get_moments(), [2, 3, 4])
    np.testing.assert_array_equal(G.get_moments(), [2, 3, 4])


def test_copy_pickle_repr():
    a = RotationalInertia(1, 2, 3, 0.1, 0.2, 0.3)
    for b in [copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))]:
        assert type(b) is RotationalInertia and b is not a
        np.testing.assert_array_equal(b.CopyToFullMatrix3(), a.CopyToFullMatrix3())
    b = copy.copy(a)
    b += a  # the copy changes, the original does not
    assert a[0, 0] == 1.0 and b[0, 0] == 2.0
    np.testing.assert_array_equal(a.__getstate__(), a.CopyToFullMatrix3())
    assert repr(a).startswith("<mallard.multibody.tree.RotationalInertia object at 0x")
    assert str(a) == repr(a)
    assert a != RotationalInertia(1, 2, 3, 0.1, 0.2, 0.3)  # identity equality, as pydrake
