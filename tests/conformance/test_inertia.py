"""mallard's inertia types, shapes and CalcSpatialInertia against pydrake on random inputs.

Where pydrake's Release wheel reports a broken precondition by aborting (pydrake turns the abort
into SystemExit), mallard raises RuntimeError; where the wheel skips a documented check, mallard
is stricter (``STRICTER`` below lists those cases).
"""

import copy

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.geometry as dg  # noqa: E402
import pydrake.math as dm  # noqa: E402
import pydrake.multibody.math as dmm  # noqa: E402
import pydrake.multibody.tree as dt  # noqa: E402

import mallard.geometry as mg  # noqa: E402
import mallard.math as mm  # noqa: E402
import mallard.multibody.math as mmm  # noqa: E402
import mallard.multibody.tree as mt  # noqa: E402

TOL = dict(rtol=1e-12, atol=1e-12)
RUNS = 10


@pytest.fixture
def rng():
    return np.random.default_rng(20240611)


def close(ours, theirs):
    np.testing.assert_allclose(ours, theirs, **TOL)


def same_inertia(ours, theirs):
    assert type(ours).__name__ == type(theirs).__name__
    close(ours.CopyToFullMatrix3(), theirs.CopyToFullMatrix3())


def same_spatial(ours, theirs):
    assert type(ours).__name__ == type(theirs).__name__ == "SpatialInertia"
    close(ours.get_mass(), theirs.get_mass())
    close(ours.get_com(), theirs.get_com())
    same_inertia(ours.get_unit_inertia(), theirs.get_unit_inertia())
    close(ours.CopyToFullMatrix6(), theirs.CopyToFullMatrix6())


def same_axes(ours, theirs):
    """Rotation matrices whose columns agree up to sign (eigenvector signs are arbitrary)."""
    A, B = ours.matrix(), theirs.matrix()
    signs = np.sign(np.sum(A * B, axis=0))
    close(A * signs, B)


def both_raise(ours, theirs, ours_error=RuntimeError):
    with pytest.raises(ours_error):
        ours()
    with pytest.raises((ours_error, SystemExit)):  # pydrake reports aborts as SystemExit
        theirs()


def rotations(rng):
    rpy = rng.uniform(-np.pi, np.pi, size=3)
    R = dm.RotationMatrix(dm.RollPitchYaw(rpy)).matrix()
    return mm.RotationMatrix(R), dm.RotationMatrix(R)


def unit_vector(rng):
    u = rng.normal(size=3)
    return u / np.linalg.norm(u)


def valid_six(rng):
    """(Ixx, Iyy, Izz, Ixy, Ixz, Iyz) of a random point cloud about a random point."""
    points = rng.normal(size=(5, 3))
    masses = rng.uniform(0.2, 3.0, size=5)
    I = sum(m * ((p @ p) * np.eye(3) - np.outer(p, p)) for m, p in zip(masses, points, strict=True))
    return I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]


def inertia_pair(rng, cls="RotationalInertia"):
    six = valid_six(rng)
    return getattr(mt, cls)(*six), getattr(dt, cls)(*six)


def spatial_pair(rng):
    m = rng.uniform(0.1, 5.0)
    p = rng.normal(size=3)
    G_cm = valid_six(rng)
    ours = mt.SpatialInertia.MakeFromCentralInertia(m, p, mt.RotationalInertia(*G_cm))
    theirs = dt.SpatialInertia.MakeFromCentralInertia(m, p, dt.RotationalInertia(*G_cm))
    return ours, theirs


# ----- RotationalInertia ------------------------------------------------------------------------


def test_rotational_inertia_constructors(rng):
    assert mt.RotationalInertia().IsNaN() and dt.RotationalInertia().IsNaN()
    for _ in range(RUNS):
        six = valid_six(rng)
        same_inertia(mt.RotationalInertia(*six), dt.RotationalInertia(*six))
        same_inertia(mt.RotationalInertia(*six[:3]), dt.RotationalInertia(*six[:3]))
        m, p = rng.uniform(0, 3), rng.normal(size=3)
        same_inertia(mt.RotationalInertia(m, p), dt.RotationalInertia(mass=m, p_PQ_E=p))
        t = rng.uniform(0, 3)
        same_inertia(
            mt.RotationalInertia.TriaxiallySymmetric(t), dt.RotationalInertia.TriaxiallySymmetric(t)
        )


def test_rotational_inertia_queries(rng):
    for _ in range(RUNS):
        ours, theirs = inertia_pair(rng)
        close(ours.get_moments(), theirs.get_moments())
        close(ours.get_products(), theirs.get_products())
        close(ours.Trace(), theirs.Trace())
        close(
            ours.CalcMaximumPossibleMomentOfInertia(), theirs.CalcMaximumPossibleMomentOfInertia()
        )
        assert (ours.rows(), ours.cols()) == (theirs.rows(), theirs.cols())
        for i in range(3):
            for j in range(3):
                close(ours[i, j], theirs[i, j])
        close(ours.CalcPrincipalMomentsOfInertia(), theirs.CalcPrincipalMomentsOfInertia())
        moments, R = ours.CalcPrincipalMomentsAndAxesOfInertia()
        moments_d, R_d = theirs.CalcPrincipalMomentsAndAxesOfInertia()
        close(moments, moments_d)
        same_axes(R, R_d)
        assert ours.IsNaN() == theirs.IsNaN() and ours.IsZero() == theirs.IsZero()
        for precision in [0.0, 1e-3, 0.05, 0.2]:
            delta = rng.normal(scale=0.05, size=6)
            six = np.r_[ours.get_moments(), ours.get_products()]
            other = six + delta
            assert ours.IsNearlyEqualTo(mt.RotationalInertia(*other), precision) == (
                theirs.IsNearlyEqualTo(dt.RotationalInertia(*other), precision)
            )
    for args in [(), (0, 0, 0), (1, 1, 1, 0, np.nan, 0)]:
        ours, theirs = mt.RotationalInertia(*args), dt.RotationalInertia(*args)
        assert ours.IsNaN() == theirs.IsNaN() and ours.IsZero() == theirs.IsZero()


def test_could_be_physically_valid(rng):
    eps = np.finfo(float).eps
    cases = [(1, 1, 2), (1, 1, 2.1), (-1, 1, 1), (1, 1, 1, 0.6, 0, 0), (1, 1, 1, 0.4, 0, 0)]
    cases += [(1e6, 1e6, 2e6 * (1 + k * eps)) for k in (0, 4, 64)]
    cases += [(-k * eps, 1, 1) for k in (0, 4, 64)]
    cases += [(np.nan, 1, 1), (np.inf, 1, 1)]
    for _ in range(RUNS):
        six = np.array(valid_six(rng))
        cases.append(tuple(six))
        cases.append(tuple(six + rng.normal(scale=0.5, size=6)))  # often invalid
    for args in cases:
        ours, theirs = mt.RotationalInertia(*args), dt.RotationalInertia(*args)
        assert ours.CouldBePhysicallyValid() == theirs.CouldBePhysicallyValid(), args


def test_rotational_inertia_transformations(rng):
    for _ in range(RUNS):
        ours, theirs = inertia_pair(rng)
        R, R_d = rotations(rng)
        same_inertia(ours.ReExpress(R), theirs.ReExpress(R_AE=R_d))
        m, p, q = rng.uniform(0.1, 3), rng.normal(size=3), rng.normal(size=3)
        same_inertia(ours.ShiftFromCenterOfMass(m, p), theirs.ShiftFromCenterOfMass(m, p))
        same_inertia(ours.ShiftToCenterOfMass(m, p), theirs.ShiftToCenterOfMass(m, p))
        same_inertia(
            ours.ShiftToThenAwayFromCenterOfMass(m, p, q),
            theirs.ShiftToThenAwayFromCenterOfMass(mass=m, p_PBcm_E=p, p_QBcm_E=q),
        )


def test_rotational_inertia_operators(rng):
    for _ in range(RUNS):
        (a, a_d), (b, b_d) = inertia_pair(rng), inertia_pair(rng)
        s, w = rng.uniform(0.1, 3), rng.normal(size=3)
        same_inertia(a + b, a_d + b_d)
        same_inertia(a - b, a_d - b_d)
        same_inertia(a * s, a_d * s)
        same_inertia(s * a, s * a_d)
        same_inertia(a / s, a_d / s)
        close(a * w, a_d * w)
        for op in ["__iadd__", "__isub__"]:
            x, x_d = copy.copy(a), copy.copy(a_d)
            same_inertia(getattr(x, op)(b), getattr(x_d, op)(b_d))
            same_inertia(x, x_d)
        for op in ["__imul__", "__itruediv__"]:
            x, x_d = copy.copy(a), copy.copy(a_d)
            same_inertia(getattr(x, op)(s), getattr(x_d, op)(s))
            same_inertia(x, x_d)
        (g, g_d), (h, h_d) = inertia_pair(rng, "UnitInertia"), inertia_pair(rng, "UnitInertia")
        for ours, theirs in [(g + h, g_d + h_d), (g - h, g_d - h_d), (g * s, g_d * s)]:
            same_inertia(ours, theirs)  # a RotationalInertia in both
        x, x_d = copy.copy(g), copy.copy(g_d)
        x += h
        x_d += h_d
        same_inertia(x, x_d)


def test_rotational_inertia_setters(rng):
    ours, theirs = inertia_pair(rng)
    ours.SetZero(), theirs.SetZero()
    same_inertia(ours, theirs)
    ours.SetToNaN(), theirs.SetToNaN()
    assert ours.IsNaN() and theirs.IsNaN()


def test_rotational_inertia_errors():
    both_raise(
        lambda: mt.RotationalInertia().CalcPrincipalMomentsOfInertia(),
        lambda: dt.RotationalInertia().CalcPrincipalMomentsOfInertia(),
    )
    both_raise(
        lambda: mt.RotationalInertia().CalcPrincipalMomentsAndAxesOfInertia(),
        lambda: dt.RotationalInertia().CalcPrincipalMomentsAndAxesOfInertia(),
    )
    for ours, theirs in [(mt.RotationalInertia(1, 1, 1), dt.RotationalInertia(1, 1, 1))]:
        with pytest.raises(TypeError):
            ours[0]
        with pytest.raises(TypeError):
            theirs[0]
        with pytest.raises(IndexError):
            ours[0, 1, 2]
        with pytest.raises(IndexError):
            theirs[0, 1, 2]


# Documented errors the Release wheel does not raise (it computes a result); mallard raises.
STRICTER = [
    lambda: mt.RotationalInertia(-1.0, [1, 2, 3]),
    lambda: mt.RotationalInertia(1, 1, 1) * -2.0,
    lambda: mt.RotationalInertia(1, 1, 1) / 0.0,
    lambda: mt.UnitInertia.SolidSphere(-1),
    lambda: mt.UnitInertia.HollowSphere(-1),
    lambda: mt.UnitInertia.SolidEllipsoid(-1, 2, 3),
    lambda: mt.UnitInertia.SolidBox(np.inf, 2, 3),
    lambda: mt.UnitInertia.ThinRod(np.inf, [0, 0, 1]),
    lambda: mt.UnitInertia.StraightLine(np.inf, [0, 0, 1]),
    lambda: mt.UnitInertia.AxiallySymmetric(1, np.inf, [0, 0, 1]),
]


def test_stricter_than_the_release_wheel():
    for make in STRICTER:
        with pytest.raises(RuntimeError):
            make()


# ----- UnitInertia ------------------------------------------------------------------------------


def factory_arguments(rng):
    """Random valid arguments for each UnitInertia factory."""
    L = lambda: rng.uniform(0.05, 3.0)  # noqa: E731
    u = unit_vector(rng)
    K = L()
    return {
        "SolidBox": (L(), L(), L()),
        "SolidCube": (L(),),
        "SolidSphere": (L(),),
        "HollowSphere": (L(),),
        "SolidEllipsoid": (L(), L(), L()),
        "SolidCylinder": (L(), L(), u),
        "SolidCylinderAboutEnd": (L(), L(), u),
        "SolidCapsule": (L(), L(), u),
        "ThinRod": (L(), u),
        "StraightLine": (K, u),
        "AxiallySymmetric": (rng.uniform(0, 2 * K), K, u),
        "PointMass": (rng.normal(size=3),),
        "TriaxiallySymmetric": (L(),),
    }


def test_unit_inertia_factories(rng):
    for _ in range(RUNS):
        for name, args in factory_arguments(rng).items():
            same_inertia(getattr(mt.UnitInertia, name)(*args), getattr(dt.UnitInertia, name)(*args))
    # Degenerate sizes pydrake accepts.
    Z = [0, 0, 1]
    for name, args in [
        ("SolidBox", (0, 0, 3)),
        ("SolidCapsule", (0, 2, Z)),
        ("SolidCapsule", (1, 0, Z)),
        ("SolidCylinder", (0, 0, Z)),
        ("AxiallySymmetric", (0, 0, Z)),
        ("SolidCylinder", (1, 2, [0, 0, 1 + 5e-15])),
    ]:
        same_inertia(getattr(mt.UnitInertia, name)(*args), getattr(dt.UnitInertia, name)(*args))


def test_unit_inertia_methods(rng):
    assert mt.UnitInertia().IsNaN() and dt.UnitInertia().IsNaN()
    for _ in range(RUNS):
        six = valid_six(rng)
        ours, theirs = mt.UnitInertia(*six), dt.UnitInertia(*six)
        same_inertia(ours, theirs)
        same_inertia(mt.UnitInertia(*six[:3]), dt.UnitInertia(*six[:3]))
        same_inertia(
            mt.UnitInertia(mt.RotationalInertia(*six)), dt.UnitInertia(dt.RotationalInertia(*six))
        )
        R, R_d = rotations(rng)
        same_inertia(ours.ReExpress(R), theirs.ReExpress(R_d))
        p = rng.normal(size=3)
        same_inertia(ours.ShiftFromCenterOfMass(p), theirs.ShiftFromCenterOfMass(p))
        same_inertia(ours.ShiftToCenterOfMass(p), theirs.ShiftToCenterOfMass(p_QBcm_E=p))
        m = rng.uniform(0.1, 3)
        x, x_d = mt.UnitInertia(), dt.UnitInertia()
        same_inertia(
            x.SetFromRotationalInertia(mt.RotationalInertia(*six), m),
            x_d.SetFromRotationalInertia(I=dt.RotationalInertia(*six), mass=m),
        )
        same_inertia(x, x_d)
        same_inertia(ours * m, theirs * m)


def test_unit_inertia_errors():
    Z, bad = [0, 0, 1], [0, 1, 1]
    cases = [
        ("SolidBox", (-1, 2, 3)),
        ("SolidBox", (1, np.nan, 3)),
        ("SolidCube", (-2,)),
        ("SolidCylinder", (-1, 2, Z)),
        ("SolidCylinder", (1, -2, Z)),
        ("SolidCylinder", (1, 2, bad)),
        ("SolidCylinder", (1, 2, [0, 0, 1 + 1e-13])),
        ("SolidCylinderAboutEnd", (1, -2, Z)),
        ("SolidCylinderAboutEnd", (1, 2, bad)),
        ("SolidCapsule", (-1, 2, Z)),
        ("SolidCapsule", (1, -2, Z)),
        ("SolidCapsule", (1, 2, bad)),
        ("ThinRod", (0, Z)),
        ("ThinRod", (-2, Z)),
        ("ThinRod", (np.nan, Z)),
        ("ThinRod", (2, bad)),
        ("StraightLine", (0, Z)),
        ("StraightLine", (-2, Z)),
        ("StraightLine", (2, bad)),
        ("AxiallySymmetric", (5, 2, Z)),
        ("AxiallySymmetric", (-1, 2, Z)),
        ("AxiallySymmetric", (1, -2, Z)),
        ("AxiallySymmetric", (np.nan, 1, Z)),
        ("AxiallySymmetric", (1, 2, bad)),
    ]
    for name, args in cases:
        both_raise(
            lambda name=name, args=args: getattr(mt.UnitInertia, name)(*args),
            lambda name=name, args=args: getattr(dt.UnitInertia, name)(*args),
        )
    both_raise(
        lambda: mt.UnitInertia().SetFromRotationalInertia(mt.RotationalInertia(1, 1, 1), 0.0),
        lambda: dt.UnitInertia().SetFromRotationalInertia(dt.RotationalInertia(1, 1, 1), 0.0),
    )


# ----- SpatialInertia ---------------------------------------------------------------------------


def test_spatial_inertia_construction(rng):
    for _ in range(RUNS):
        ours, theirs = spatial_pair(rng)
        m, p = theirs.get_mass(), theirs.get_com()
        G = theirs.get_unit_inertia().CopyToFullMatrix3()
        six = (G[0, 0], G[1, 1], G[2, 2], G[0, 1], G[0, 2], G[1, 2])
        same_spatial(ours, theirs)
        same_spatial(
            mt.SpatialInertia(m, p, mt.UnitInertia(*six)),
            dt.SpatialInertia(mass=m, p_PScm_E=p, G_SP_E=dt.UnitInertia(*six)),
        )
    same_spatial(mt.SpatialInertia.Zero(), dt.SpatialInertia.Zero())
    assert mt.SpatialInertia.NaN().IsNaN() and dt.SpatialInertia.NaN().IsNaN()
    assert repr(mt.SpatialInertia.Zero()) == repr(dt.SpatialInertia.Zero())


def test_spatial_inertia_validity(rng):
    eps = np.finfo(float).eps
    cases = [
        (1, [0, 0, 0], (1, 1, 2)),
        (1, [0, 0, 0], (1, 1, 2 * (1 + 8 * eps))),
        (1, [0, 0, 0], (1, 1, 2 * (1 + 64 * eps))),
        (1, [0, 0, 0], (1, 1, 5)),
        (1, [1, 2, 3], (1, 2, 3)),
        (0, [1, 2, 3], (1, 1, 1)),
        (0, [1, 2, 3], (-1, 1, 1)),
        (-1, [0, 0, 0], (1, 1, 1)),
        (np.nan, [0, 0, 0], (1, 1, 1)),
        (np.inf, [0, 0, 0], (1, 1, 1)),
        (1, [np.inf, 0, 0], (1, 1, 1)),
        (1, [np.nan, 0, 0], (1, 1, 1)),
    ]
    for _ in range(RUNS):
        m, p, G = rng.uniform(0.1, 3), rng.normal(size=3), np.array(valid_six(rng))
        cases.append((m, p, tuple(G)))
        cases.append((m, p, tuple(G + rng.normal(size=6))))
    for m, p, six in cases:
        ours = mt.SpatialInertia(m, p, mt.UnitInertia(*six), skip_validity_check=True)
        theirs = dt.SpatialInertia(m, p, dt.UnitInertia(*six), skip_validity_check=True)
        valid = theirs.IsPhysicallyValid()
        assert ours.IsPhysicallyValid() == valid, (m, p, six)
        if valid:
            same_spatial(mt.SpatialInertia(m, p, mt.UnitInertia(*six)), theirs)
        else:
            both_raise(
                lambda m=m, p=p, six=six: mt.SpatialInertia(m, p, mt.UnitInertia(*six)),
                lambda m=m, p=p, six=six: dt.SpatialInertia(m, p, dt.UnitInertia(*six)),
            )


def spatial_factory_arguments(rng):
    L = lambda: rng.uniform(0.05, 3.0)  # noqa: E731
    u = unit_vector(rng)
    return {
        "SolidBoxWithDensity": (L(), L(), L(), L()),
        "SolidBoxWithMass": (L(), L(), L(), L()),
        "SolidCubeWithDensity": (L(), L()),
        "SolidSphereWithDensity": (L(), L()),
        "SolidSphereWithMass": (L(), L()),
        "HollowSphereWithDensity": (L(), L()),
        "HollowSphereWithMass": (L(), L()),
        "SolidEllipsoidWithDensity": (L(), L(), L(), L()),
        "SolidEllipsoidWithMass": (L(), L(), L(), L()),
        "SolidCylinderWithDensity": (L(), L(), L(), u),
        "SolidCylinderWithMass": (L(), L(), L(), u),
        "SolidCylinderWithDensityAboutEnd": (L(), L(), L(), u),
        "SolidCylinderWithMassAboutEnd": (L(), L(), L(), u),
        "SolidCapsuleWithDensity": (L(), L(), L(), u),
        "SolidCapsuleWithMass": (L(), L(), L(), u),
        "ThinRodWithMass": (L(), L(), u),
        "ThinRodWithMassAboutEnd": (L(), L(), u),
    }


def test_spatial_inertia_factories(rng):
    for _ in range(RUNS):
        for name, args in spatial_factory_arguments(rng).items():
            same_spatial(
                getattr(mt.SpatialInertia, name)(*args), getattr(dt.SpatialInertia, name)(*args)
            )


def test_spatial_inertia_factory_errors(rng):
    for name, args in spatial_factory_arguments(rng).items():
        for k in range(len(args)):
            bad_values = [0.0, -1.0, np.inf, np.nan] if np.ndim(args[k]) == 0 else [[0, 1, 1]]
            for bad in bad_values:
                broken = args[:k] + (bad,) + args[k + 1 :]
                both_raise(
                    lambda name=name, broken=broken: getattr(mt.SpatialInertia, name)(*broken),
                    lambda name=name, broken=broken: getattr(dt.SpatialInertia, name)(*broken),
                )
    both_raise(
        lambda: mt.SpatialInertia.MakeFromCentralInertia(
            2, [1, 2, 3], mt.RotationalInertia(1, 1, 5)
        ),
        lambda: dt.SpatialInertia.MakeFromCentralInertia(
            2, [1, 2, 3], dt.RotationalInertia(1, 1, 5)
        ),
    )
    both_raise(
        lambda: mt.SpatialInertia.MakeFromCentralInertia(
            -2, [0, 0, 0], mt.RotationalInertia(1, 1, 1)
        ),
        lambda: dt.SpatialInertia.MakeFromCentralInertia(
            -2, [0, 0, 0], dt.RotationalInertia(1, 1, 1)
        ),
    )


def test_spatial_inertia_methods(rng):
    for _ in range(RUNS):
        ours, theirs = spatial_pair(rng)
        close(ours.CalcComMoment(), theirs.CalcComMoment())
        same_inertia(ours.CalcRotationalInertia(), theirs.CalcRotationalInertia())
        assert ours.IsNaN() == theirs.IsNaN() and ours.IsZero() == theirs.IsZero()
        R, R_d = rotations(rng)
        same_spatial(ours.ReExpress(R), theirs.ReExpress(R_d))
        d = rng.normal(size=3)
        same_spatial(ours.Shift(d), theirs.Shift(p_PQ_E=d))
        semi, X = ours.CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()
        semi_d, X_d = theirs.CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()
        close(semi, semi_d)
        close(X.translation(), X_d.translation())
        same_axes(X.rotation(), X_d.rotation())
        (other, other_d) = spatial_pair(rng)
        x, x_d = copy.copy(ours), copy.copy(theirs)
        x += other
        x_d += other_d
        same_spatial(x, x_d)
        c = rng.normal(size=6)
        close(
            (ours * mmm.SpatialVelocity(c)).get_coeffs(),
            (theirs * dmm.SpatialVelocity(c)).get_coeffs(),
        )
        close(
            (ours * mmm.SpatialAcceleration(c)).get_coeffs(),
            (theirs * dmm.SpatialAcceleration(c)).get_coeffs(),
        )
        x, x_d = copy.copy(ours), copy.copy(theirs)
        x.SetNaN(), x_d.SetNaN()
        assert x.IsNaN() and x_d.IsNaN()
    zero_sum, zero_sum_d = (
        mt.SpatialInertia(0, [1, 2, 3], mt.UnitInertia(1, 1, 1)),
        dt.SpatialInertia(0, [1, 2, 3], dt.UnitInertia(1, 1, 1)),
    )
    zero_sum += mt.SpatialInertia.Zero()
    zero_sum_d += dt.SpatialInertia.Zero()
    same_spatial(zero_sum, zero_sum_d)
    both_raise(
        lambda: mt.SpatialInertia.NaN().CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid(),
        lambda: dt.SpatialInertia.NaN().CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid(),
    )


# ----- shapes and CalcSpatialInertia ------------------------------------------------------------


def shape_pairs(rng):
    L = lambda: float(np.round(rng.uniform(0.05, 3.0), 3))  # noqa: E731
    args = {
        "Box": (L(), L(), L()),
        "Sphere": (L(),),
        "Cylinder": (L(), L()),
        "Capsule": (L(), L()),
        "Ellipsoid": (L(), L(), L()),
    }
    return [(getattr(mg, n)(*a), getattr(dg, n)(*a)) for n, a in args.items()]


def test_shapes_and_calc_spatial_inertia(rng):
    for _ in range(RUNS):
        density = rng.uniform(1, 3000)
        for ours, theirs in shape_pairs(rng):
            assert repr(ours) == repr(theirs)
            assert repr(ours.Clone()) == repr(theirs.Clone())
            same_spatial(
                mt.CalcSpatialInertia(ours, density), dt.CalcSpatialInertia(theirs, density)
            )
    close(mg.Box([1, 2, 3]).size(), dg.Box([1, 2, 3]).size())
    for name in ["Box", "Ellipsoid"]:
        ours, theirs = getattr(mg, name)(1.5, 2, 3), getattr(dg, name)(1.5, 2, 3)
        assert repr(ours) == repr(theirs)
    for name in ["Cylinder", "Capsule"]:
        assert repr(getattr(mg, name)([0.5, 2])) == repr(getattr(dg, name)([0.5, 2]))
    assert repr(mg.Sphere(0)) == repr(dg.Sphere(0))
    assert repr(mg.HalfSpace()) == repr(dg.HalfSpace())
    with pytest.raises(ValueError, match="HalfSpace"):
        mt.CalcSpatialInertia(mg.HalfSpace(), 1.0)
    with pytest.raises(ValueError, match="HalfSpace"):
        dt.CalcSpatialInertia(dg.HalfSpace(), 1.0)
    for density in [0.0, -1.0, np.nan]:
        both_raise(
            lambda d=density: mt.CalcSpatialInertia(mg.Box(1, 2, 3), d),
            lambda d=density: dt.CalcSpatialInertia(dg.Box(1, 2, 3), d),
        )
    both_raise(
        lambda: mt.CalcSpatialInertia(mg.Sphere(0), 1.0),
        lambda: dt.CalcSpatialInertia(dg.Sphere(0), 1.0),
    )


def test_shape_errors():
    cases = [
        ("Box", (0, 2, 3)),
        ("Box", (-1, 2, 3)),
        ("Box", (np.inf, 2, 3)),
        ("Box", (1, np.nan, 3)),
        ("Sphere", (-1,)),
        ("Sphere", (np.inf,)),
        ("Cylinder", (0, 2)),
        ("Cylinder", (1, -2)),
        ("Capsule", (0, 2)),
        ("Capsule", (1, 0)),
        ("Ellipsoid", (0, 2, 3)),
        ("Ellipsoid", (1, 2, -3)),
    ]
    for name, args in cases:
        both_raise(
            lambda name=name, args=args: getattr(mg, name)(*args),
            lambda name=name, args=args: getattr(dg, name)(*args),
        )
    both_raise(mg.Shape, dg.Shape, ours_error=TypeError)


# ----- non-double scalars -----------------------------------------------------------------------


def test_autodiff_scalars(rng):
    """Object arrays of pydrake AutoDiffXd give pydrake's values and derivatives."""
    from pydrake.autodiffutils import AutoDiffXd

    def ad(x, i):
        return AutoDiffXd(x, np.eye(3)[i])

    def value_and_gradient(x):
        if not isinstance(x, AutoDiffXd):
            return float(x), np.zeros(3)
        d = x.derivatives()
        return x.value(), d if d.size else np.zeros(3)

    SI_ad, RI_ad = dt.SpatialInertia_[AutoDiffXd], dt.RotationalInertia_[AutoDiffXd]
    m, r, L = ad(2.0, 0), ad(0.3, 1), ad(1.2, 2)
    u = unit_vector(rng)
    pairs = [
        (
            mt.SpatialInertia.SolidCapsuleWithMass(m, r, L, u),
            SI_ad.SolidCapsuleWithMass(m, r, L, u),
        ),
        (
            mt.SpatialInertia.SolidCylinderWithDensityAboutEnd(m, r, L, u),
            SI_ad.SolidCylinderWithDensityAboutEnd(m, r, L, u),
        ),
        (
            mt.SpatialInertia.SolidBoxWithMass(m, r, L, 0.5).Shift([r, L, 0.1]),
            SI_ad.SolidBoxWithMass(m, r, L, 0.5).Shift([r, L, 0.1]),
        ),
    ]
    for ours, theirs in pairs:
        M, M_d = ours.CopyToFullMatrix6(), theirs.CopyToFullMatrix6()
        assert M.dtype == object
        for a, b in zip(M.flat, M_d.flat, strict=True):
            (va, ga), (vb, gb) = value_and_gradient(a), value_and_gradient(b)
            close(va, vb)
            close(ga, gb)
    I = mt.RotationalInertia(m, [r, L, 0.5])
    I_d = RI_ad(m, [r, L, 0.5])
    for a, b in zip(I.CopyToFullMatrix3().flat, I_d.CopyToFullMatrix3().flat, strict=True):
        (va, ga), (vb, gb) = value_and_gradient(a), value_and_gradient(b)
        close(va, vb)
        close(ga, gb)
    assert I.CouldBePhysicallyValid() and I_d.CouldBePhysicallyValid()
