"""SpatialInertia: construction and validity, factories, shifts, re-expression, operators."""

import copy
import pickle

import numpy as np
import pytest

from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.multibody.math import (
    SpatialAcceleration,
    SpatialForce,
    SpatialMomentum,
    SpatialVelocity,
)
from mallard.multibody.tree import RotationalInertia, SpatialInertia, UnitInertia

Z = np.array([0.0, 0.0, 1.0])


def skew(p):
    return np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])


def random_spatial_inertia(rng):
    """A valid M_SP_E: a random point cloud's spatial inertia about the origin."""
    points = rng.normal(size=(6, 3))
    masses = rng.uniform(0.5, 2.0, size=6)
    m = masses.sum()
    com = masses @ points / m
    I = sum(w * ((p @ p) * np.eye(3) - np.outer(p, p)) for w, p in zip(masses, points, strict=True))
    G = I / m
    return SpatialInertia(m, com, UnitInertia(G[0, 0], G[1, 1], G[2, 2], G[0, 1], G[0, 2], G[1, 2]))


@pytest.fixture
def rng():
    return np.random.default_rng(11)


def test_construction_and_access():
    G = UnitInertia(1.0, 1.2, 1.5)
    M = SpatialInertia(2.0, [0.1, 0.2, 0.3], G)
    assert M.get_mass() == 2.0
    np.testing.assert_array_equal(M.get_com(), [0.1, 0.2, 0.3])
    assert type(M.get_unit_inertia()) is UnitInertia
    np.testing.assert_array_equal(M.get_unit_inertia().CopyToFullMatrix3(), np.diag([1, 1.2, 1.5]))
    np.testing.assert_allclose(M.CalcComMoment(), [0.2, 0.4, 0.6])
    I = M.CalcRotationalInertia()
    assert type(I) is RotationalInertia
    np.testing.assert_allclose(I.CopyToFullMatrix3(), np.diag([2, 2.4, 3]))
    # The accessors return copies.
    M.get_com()[0] = 9.0
    assert M.get_com()[0] == 0.1
    kw = SpatialInertia(mass=2.0, p_PScm_E=[0.1, 0.2, 0.3], G_SP_E=G, skip_validity_check=True)
    np.testing.assert_array_equal(kw.CopyToFullMatrix6(), M.CopyToFullMatrix6())


def test_full_matrix6(rng):
    M = random_spatial_inertia(rng)
    m, p, G = M.get_mass(), M.get_com(), M.get_unit_inertia().CopyToFullMatrix3()
    expected = np.block([[m * G, m * skew(p)], [-m * skew(p), m * np.eye(3)]])
    M6 = M.CopyToFullMatrix6()
    np.testing.assert_allclose(M6, expected, rtol=1e-15)
    np.testing.assert_allclose(M6, M6.T)
    assert np.linalg.eigvalsh(M6).min() > 0


def test_make_from_central_inertia(rng):
    I_cm = RotationalInertia(1.0, 2.0, 2.5, 0.1, 0.05, -0.1)
    p = np.array([0.1, 0.2, 0.3])
    M = SpatialInertia.MakeFromCentralInertia(mass=2.0, p_PScm_E=p, I_SScm_E=I_cm)
    np.testing.assert_allclose(
        M.CalcRotationalInertia().CopyToFullMatrix3(),
        I_cm.ShiftFromCenterOfMass(2.0, p).CopyToFullMatrix3(),
        rtol=1e-15,
    )
    # Shifting to the COM recovers the central inertia.
    M_cm = M.Shift(p)
    np.testing.assert_allclose(M_cm.get_com(), 0, atol=1e-16)
    np.testing.assert_allclose(
        M_cm.CalcRotationalInertia().CopyToFullMatrix3(), I_cm.CopyToFullMatrix3(), atol=1e-14
    )


def test_zero_and_nan():
    Z0 = SpatialInertia.Zero()
    assert Z0.IsZero() and not Z0.IsNaN() and Z0.IsPhysicallyValid()
    assert Z0.get_mass() == 0 and not Z0.CopyToFullMatrix6().any()
    N = SpatialInertia.NaN()
    assert N.IsNaN() and not N.IsZero() and not N.IsPhysicallyValid()
    M = SpatialInertia.SolidBoxWithMass(1, 1, 1, 1)
    assert M.SetNaN() is None and M.IsNaN() and np.isnan(M.get_mass())


def test_is_physically_valid():
    assert SpatialInertia(1, [0, 0, 0], UnitInertia(1, 1, 2)).IsPhysicallyValid()
    assert SpatialInertia(0, [1, 2, 3], UnitInertia(1, 1, 1)).IsPhysicallyValid()  # no mass
    cases = [
        (SpatialInertia(-1, [0, 0, 0], UnitInertia(1, 1, 1), True), "mass = -1 is negative"),
        (SpatialInertia(np.inf, [0, 0, 0], UnitInertia(1, 1, 1), True), "mass = inf"),
        (SpatialInertia(np.nan, [0, 0, 0], UnitInertia(1, 1, 1), True), "mass = nan"),
        (SpatialInertia(1, [np.inf, 0, 0], UnitInertia(1, 1, 1), True), "non-finite"),
        (SpatialInertia(1, [0, 0, 0], UnitInertia(1, 1, 5), True), "triangle inequality"),
        (SpatialInertia(1, [0, 0, 0], UnitInertia(-1, 1, 1), True), "Principal moments"),
        # Valid about P, but not about the COM: G_SP = G_SScm + PointMass(p) fails.
        (SpatialInertia(1, [1, 2, 3], UnitInertia(1, 2, 3), True), "I_BBcm"),
        (SpatialInertia(1, [0, 0, 0], UnitInertia(), True), "I_BBcm"),
    ]
    for M, message in cases:
        assert not M.IsPhysicallyValid()
        m, p, G = M.get_mass(), M.get_com(), M.get_unit_inertia()
        with pytest.raises(RuntimeError, match=f"IsPhysicallyValid(?s:.*){message}"):
            SpatialInertia(m, p, G)
        SpatialInertia(m, p, G, skip_validity_check=True)


def test_constructor_type_errors():
    with pytest.raises(TypeError, match="UnitInertia"):
        SpatialInertia(1.0, [0, 0, 0], RotationalInertia(1, 1, 1))
    with pytest.raises(TypeError):
        SpatialInertia()
    with pytest.raises(TypeError, match="3-vector"):
        SpatialInertia(1.0, [0, 0], UnitInertia(1, 1, 1))


def test_make_from_central_inertia_errors():
    with pytest.raises(RuntimeError, match="mass must be positive, got -2"):
        SpatialInertia.MakeFromCentralInertia(-2.0, [0, 0, 0], RotationalInertia(1, 1, 1))
    with pytest.raises(RuntimeError, match="mass must be positive, got 0"):
        SpatialInertia.MakeFromCentralInertia(0.0, [0, 0, 0], RotationalInertia(0, 0, 0))
    with pytest.raises(RuntimeError, match="IsPhysicallyValid"):
        SpatialInertia.MakeFromCentralInertia(2.0, [1, 2, 3], RotationalInertia(1, 1, 5))
    with pytest.raises(TypeError, match="RotationalInertia"):
        SpatialInertia.MakeFromCentralInertia(2.0, [1, 2, 3], np.eye(3))


def G_of(M):
    return M.get_unit_inertia().CopyToFullMatrix3()


def test_factories():
    rho, m = 3.0, 2.5
    r, L = 0.4, 1.5
    M = SpatialInertia.SolidBoxWithDensity(rho, 1, 2, 3)
    assert M.get_mass() == pytest.approx(rho * 6)
    np.testing.assert_array_equal(G_of(M), UnitInertia.SolidBox(1, 2, 3).CopyToFullMatrix3())
    M = SpatialInertia.SolidBoxWithMass(m, lx=1, ly=2, lz=3)
    assert M.get_mass() == m and M.get_com().tolist() == [0, 0, 0]
    M = SpatialInertia.SolidCubeWithDensity(rho, 2.0)
    assert M.get_mass() == pytest.approx(rho * 8)
    np.testing.assert_allclose(G_of(M), np.eye(3) * 4 / 6)
    M = SpatialInertia.SolidSphereWithDensity(rho, r)
    assert M.get_mass() == pytest.approx(rho * 4 / 3 * np.pi * r**3)
    np.testing.assert_allclose(G_of(M), np.eye(3) * 0.4 * r * r)
    assert SpatialInertia.SolidSphereWithMass(m, r).get_mass() == m
    M = SpatialInertia.HollowSphereWithDensity(area_density=rho, radius=r)
    assert M.get_mass() == pytest.approx(rho * 4 * np.pi * r * r)
    np.testing.assert_allclose(G_of(M), np.eye(3) * 2 / 3 * r * r)
    assert SpatialInertia.HollowSphereWithMass(m, r).get_mass() == m
    M = SpatialInertia.SolidEllipsoidWithDensity(rho, 1, 2, 3)
    assert M.get_mass() == pytest.approx(rho * 4 / 3 * np.pi * 6)
    np.testing.assert_allclose(G_of(M), np.diag([13, 10, 5]) / 5)
    assert SpatialInertia.SolidEllipsoidWithMass(m, 1, 2, 3).get_mass() == m
    M = SpatialInertia.SolidCylinderWithDensity(rho, r, L, Z)
    assert M.get_mass() == pytest.approx(rho * np.pi * r * r * L)
    np.testing.assert_allclose(G_of(M), UnitInertia.SolidCylinder(r, L, Z).CopyToFullMatrix3())
    assert SpatialInertia.SolidCylinderWithMass(m, r, L, Z).get_mass() == m
    M = SpatialInertia.SolidCapsuleWithDensity(rho, r, L, Z)
    assert M.get_mass() == pytest.approx(rho * (np.pi * r * r * L + 4 / 3 * np.pi * r**3))
    np.testing.assert_allclose(G_of(M), UnitInertia.SolidCapsule(r, L, Z).CopyToFullMatrix3())
    assert SpatialInertia.SolidCapsuleWithMass(m, r, L, Z).get_mass() == m
    M = SpatialInertia.ThinRodWithMass(m, L, Z)
    np.testing.assert_allclose(G_of(M), np.diag([L * L / 12, L * L / 12, 0]))
    for M in SpatialInertia.ThinRodWithMass(m, L, Z), SpatialInertia.SolidBoxWithMass(m, 1, 2, 3):
        assert M.IsPhysicallyValid()


def test_about_end_factories():
    rho, m, r, L = 3.0, 2.5, 0.4, 1.5
    u = RotationMatrix(RollPitchYaw(0.3, 0.2, 0.1)).matrix()[:, 2]
    pairs = [
        (
            SpatialInertia.SolidCylinderWithDensityAboutEnd(rho, r, L, u),
            SpatialInertia.SolidCylinderWithDensity(rho, r, L, u),
        ),
        (
            SpatialInertia.SolidCylinderWithMassAboutEnd(m, r, L, u),
            SpatialInertia.SolidCylinderWithMass(m, r, L, u),
        ),
        (SpatialInertia.ThinRodWithMassAboutEnd(m, L, u), SpatialInertia.ThinRodWithMass(m, L, u)),
    ]
    for about_end, central in pairs:
        # About the end point Bp, with p_BpBcm = (L/2)·u: the central inertia shifted by −L/2·u.
        np.testing.assert_allclose(about_end.get_com(), L / 2 * u, rtol=1e-15)
        shifted = central.Shift(-L / 2 * u)
        np.testing.assert_allclose(
            about_end.CopyToFullMatrix6(), shifted.CopyToFullMatrix6(), rtol=1e-13, atol=1e-15
        )
    # A rod about its end: m·L²/3 about perpendicular axes.
    G = G_of(SpatialInertia.ThinRodWithMassAboutEnd(m, L, Z))
    np.testing.assert_allclose(G, np.diag([L * L / 3, L * L / 3, 0]))


def test_factory_errors():
    axis = [0.0, 1.0, 1.0]
    cases = [
        (lambda: SpatialInertia.SolidBoxWithDensity(0, 1, 2, 3), "density is not positive"),
        (lambda: SpatialInertia.SolidBoxWithDensity(2, -1, 2, 3), "x-length .*: -1."),
        (lambda: SpatialInertia.SolidBoxWithMass(np.inf, 1, 2, 3), "mass .*: inf."),
        (lambda: SpatialInertia.SolidBoxWithMass(1, 1, 2, np.nan), "z-length .*: nan."),
        (lambda: SpatialInertia.SolidCubeWithDensity(1, 0), "length is not positive"),
        (lambda: SpatialInertia.SolidCubeWithDensity(-1, 1), "density is not positive"),
        (lambda: SpatialInertia.SolidSphereWithDensity(1, 0), "radius is not positive"),
        (lambda: SpatialInertia.SolidSphereWithMass(0, 1), "mass is not positive"),
        (lambda: SpatialInertia.HollowSphereWithDensity(0, 1), "area_density is not positive"),
        (lambda: SpatialInertia.HollowSphereWithMass(1, -1), "radius is not positive"),
        (lambda: SpatialInertia.SolidEllipsoidWithDensity(1, 1, 0, 3), "semi-axis b is not"),
        (lambda: SpatialInertia.SolidEllipsoidWithMass(-1, 1, 2, 3), "mass is not"),
        (lambda: SpatialInertia.SolidCylinderWithDensity(1, 0, 2, Z), "radius is not"),
        (lambda: SpatialInertia.SolidCylinderWithDensity(1, 1, 2, axis), "not a unit vector"),
        (lambda: SpatialInertia.SolidCylinderWithMass(1, 1, 0, Z), "length is not"),
        (lambda: SpatialInertia.SolidCylinderWithMass(1, 1, 2, axis), "not a unit vector"),
        (lambda: SpatialInertia.SolidCylinderWithDensityAboutEnd(0, 1, 2, Z), "density is not"),
        (lambda: SpatialInertia.SolidCylinderWithDensityAboutEnd(1, 1, 2, axis), "unit vector"),
        (lambda: SpatialInertia.SolidCylinderWithMassAboutEnd(1, -1, 2, Z), "radius is not"),
        (lambda: SpatialInertia.SolidCylinderWithMassAboutEnd(1, 1, 2, axis), "unit vector"),
        (lambda: SpatialInertia.SolidCapsuleWithDensity(1, 1, 0, Z), "length is not"),
        (lambda: SpatialInertia.SolidCapsuleWithDensity(1, 1, 2, axis), "unit vector"),
        (lambda: SpatialInertia.SolidCapsuleWithMass(-1, 1, 2, Z), "mass is not"),
        (lambda: SpatialInertia.SolidCapsuleWithMass(1, 0, 2, Z), "radius is not"),
        (lambda: SpatialInertia.ThinRodWithMass(0, 1, Z), "mass is not"),
        (lambda: SpatialInertia.ThinRodWithMass(1, 0, Z), "length is not"),
        (lambda: SpatialInertia.ThinRodWithMass(1, 1, axis), "unit vector"),
        (lambda: SpatialInertia.ThinRodWithMassAboutEnd(0, 1, Z), "mass is not"),
        (lambda: SpatialInertia.ThinRodWithMassAboutEnd(1, -1, Z), "length is not"),
        (lambda: SpatialInertia.ThinRodWithMassAboutEnd(1, 1, axis), "unit vector"),
    ]
    for make, message in cases:
        with pytest.raises(RuntimeError, match=message):
            make()


def test_shift_and_reexpress(rng):
    for _ in range(5):
        M = random_spatial_inertia(rng)
        m, p = M.get_mass(), M.get_com()
        d = rng.normal(size=3)
        M_Q = M.Shift(p_PQ_E=d)
        np.testing.assert_allclose(M_Q.get_com(), p - d)
        np.testing.assert_allclose(M_Q.Shift(-d).CopyToFullMatrix6(), M.CopyToFullMatrix6())
        # Shift = ShiftToThenAwayFromCenterOfMass on the rotational inertia.
        I_Q = M.CalcRotationalInertia().ShiftToThenAwayFromCenterOfMass(m, p, p - d)
        np.testing.assert_allclose(
            M_Q.CalcRotationalInertia().CopyToFullMatrix3(), I_Q.CopyToFullMatrix3(), rtol=1e-12
        )
        # Momentum and energy agree about P and Q: with V_P = T·V_Q, where
        # v_P = v_Q + w × p_QP = v_Q + [d]×·w, the 6x6 matrices satisfy M_Q = Tᵀ·M_P·T.
        T = np.block([[np.eye(3), np.zeros((3, 3))], [skew(d), np.eye(3)]])
        np.testing.assert_allclose(
            M_Q.CopyToFullMatrix6(), T.T @ M.CopyToFullMatrix6() @ T, rtol=1e-12, atol=1e-12
        )
        R = RotationMatrix(RollPitchYaw(*rng.uniform(-3, 3, size=3)))
        M_A = M.ReExpress(R_AE=R)
        B = np.kron(np.eye(2), R.matrix())
        np.testing.assert_allclose(
            M_A.CopyToFullMatrix6(), B @ M.CopyToFullMatrix6() @ B.T, atol=1e-12
        )
        assert M_A.get_mass() == m and M_A.IsPhysicallyValid()
    with pytest.raises(TypeError, match="RotationMatrix"):
        M.ReExpress(np.eye(3))


def test_semi_diameters_and_pose(rng):
    a, b, c = 1.0, 3.0, 2.0
    M_cm = SpatialInertia.SolidEllipsoidWithMass(2.0, a, b, c)
    R = RotationMatrix(RollPitchYaw(0.3, -0.2, 0.9))
    p = np.array([0.5, -1.0, 2.0])
    M = M_cm.ReExpress(R).Shift(-p)  # about a point P with p_PBcm = p
    semi, X = M.CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()
    np.testing.assert_allclose(semi, [3, 2, 1], rtol=1e-13)
    assert isinstance(X, RigidTransform)
    np.testing.assert_allclose(X.translation(), p, rtol=1e-15)
    # The axes are B's y, z, x (by decreasing semi-diameter), up to sign.
    expected = R.matrix()[:, [1, 2, 0]]
    np.testing.assert_allclose(np.abs(X.rotation().matrix()), np.abs(expected), atol=1e-12)
    # The ellipsoid found has this spatial inertia.
    again = SpatialInertia.SolidEllipsoidWithMass(2.0, *semi).ReExpress(X.rotation())
    np.testing.assert_allclose(
        again.Shift(-p).CopyToFullMatrix6(), M.CopyToFullMatrix6(), rtol=1e-12, atol=1e-12
    )
    semi, X = SpatialInertia.Zero().CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()
    assert not semi.any() and X.rotation().IsExactlyIdentity()
    with pytest.raises(RuntimeError, match="Unable to calculate the eigenvalues"):
        SpatialInertia.NaN().CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()


def test_iadd(rng):
    M1, M2 = random_spatial_inertia(rng), random_spatial_inertia(rng)
    expected = M1.CopyToFullMatrix6() + M2.CopyToFullMatrix6()
    alias = M1
    M1 += M2
    assert M1 is alias
    np.testing.assert_allclose(M1.CopyToFullMatrix6(), expected, rtol=1e-13)
    # With no total mass there is nothing to weight by: the plain average (as pydrake).
    M = SpatialInertia(0, [1, 2, 3], UnitInertia(1, 1, 1))
    M += SpatialInertia.Zero()
    np.testing.assert_array_equal(M.get_com(), [0.5, 1, 1.5])
    np.testing.assert_array_equal(M.get_unit_inertia().get_moments(), [0.5, 0.5, 0.5])
    with pytest.raises(TypeError):
        M += 1.0
    with pytest.raises(TypeError):
        M1 + M2  # noqa: B018  (pydrake has only +=)


def test_times_spatial_velocity_and_acceleration(rng):
    M = random_spatial_inertia(rng)
    c = rng.normal(size=6)
    L = M * SpatialVelocity(c)
    assert isinstance(L, SpatialMomentum)
    np.testing.assert_allclose(L.get_coeffs(), M.CopyToFullMatrix6() @ c, rtol=1e-13)
    F = M * SpatialAcceleration(c)
    assert isinstance(F, SpatialForce)
    np.testing.assert_allclose(F.get_coeffs(), M.CopyToFullMatrix6() @ c, rtol=1e-13)
    with pytest.raises(TypeError):
        M * 2.0  # noqa: B018
    with pytest.raises(TypeError):
        M * c  # noqa: B018


def test_copy_pickle_repr(rng):
    M = random_spatial_inertia(rng)
    for other in [copy.copy(M), copy.deepcopy(M), pickle.loads(pickle.dumps(M))]:
        assert other is not M
        np.testing.assert_array_equal(other.CopyToFullMatrix6(), M.CopyToFullMatrix6())
    m, p, G = M.__getstate__()
    assert m == M.get_mass() and type(G) is UnitInertia
    other = copy.copy(M)
    other += M  # the copy changes, the original does not
    assert M.get_mass() == m
    assert repr(SpatialInertia.Zero()) == "SpatialInertia.Zero()"
    assert repr(M).startswith("<mallard.multibody.tree.SpatialInertia object at 0x")
