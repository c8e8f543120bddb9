"""UnitInertia: the factories against textbook formulas and against numerical integration.

The integrals use weighted point clouds built from Gauss–Legendre rules (in x, y, z for a box;
in radius, cos(polar angle) and a uniform azimuth for round shapes). The integrands are
polynomials of low degree in those variables, so the rules are exact up to round-off and the
results can be compared to ~1e-12.
"""

import numpy as np
import pytest

from mallard.math import RollPitchYaw, RotationMatrix
from mallard.multibody.tree import RotationalInertia, UnitInertia

Z = np.array([0.0, 0.0, 1.0])


# ----- weighted point clouds (points, volume weights) ------------------------------------------


def gauss(n, a, b):
    x, w = np.polynomial.legendre.leggauss(n)
    return (b - a) / 2 * x + (a + b) / 2, w * (b - a) / 2


def azimuths(n=8):
    return np.arange(n) * 2 * np.pi / n, np.full(n, 2 * np.pi / n)


def box_cloud(lx, ly, lz):
    (x, wx), (y, wy), (z, wz) = (
        gauss(3, -lx / 2, lx / 2),
        gauss(3, -ly / 2, ly / 2),
        gauss(3, -lz / 2, lz / 2),
    )
    X, Y, Zs = np.meshgrid(x, y, z, indexing="ij")
    W = np.einsum("i,j,k->ijk", wx, wy, wz)
    return np.stack([X.ravel(), Y.ravel(), Zs.ravel()], axis=1), W.ravel()


def cylinder_cloud(r, z0, z1):
    """Solid cylinder of radius r about z between z0 and z1 (dV = ρ dρ dθ dz)."""
    (rho, wr), (th, wt), (z, wz) = gauss(4, 0, r), azimuths(), gauss(3, z0, z1)
    R, T, Zs = np.meshgrid(rho, th, z, indexing="ij")
    W = np.einsum("i,j,k->ijk", wr * rho, wt, wz)
    pts = np.stack([R * np.cos(T), R * np.sin(T), Zs], axis=-1).reshape(-1, 3)
    return pts, W.ravel()


def ball_cloud(r, u0=-1.0, u1=1.0, center=(0.0, 0.0, 0.0)):
    """Solid ball (or the part with cos(polar) in [u0, u1]); dV = s² ds du dθ."""
    (s, ws), (u, wu), (th, wt) = gauss(5, 0, r), gauss(4, u0, u1), azimuths()
    S, U, T = np.meshgrid(s, u, th, indexing="ij")
    W = np.einsum("i,j,k->ijk", ws * s * s, wu, wt)
    sin = np.sqrt(1 - U * U)
    pts = np.stack([S * sin * np.cos(T), S * sin * np.sin(T), S * U], axis=-1).reshape(-1, 3)
    return pts + np.asarray(center), W.ravel()


def sphere_surface_cloud(r):
    """Thin spherical shell; dA = r² du dθ."""
    (u, wu), (th, wt) = gauss(4, -1, 1), azimuths()
    U, T = np.meshgrid(u, th, indexing="ij")
    W = np.einsum("i,j->ij", wu * r * r, wt)
    sin = np.sqrt(1 - U * U)
    return r * np.stack([sin * np.cos(T), sin * np.sin(T), U], axis=-1).reshape(-1, 3), W.ravel()


def capsule_cloud(r, L):
    clouds = [
        cylinder_cloud(r, -L / 2, L / 2),
        ball_cloud(r, 0.0, 1.0, center=(0, 0, L / 2)),
        ball_cloud(r, -1.0, 0.0, center=(0, 0, -L / 2)),
    ]
    return np.concatenate([c[0] for c in clouds]), np.concatenate([c[1] for c in clouds])


def integrate(cloud, about=(0.0, 0.0, 0.0)):
    """(measure, center of mass, unit inertia about ``about``) of a uniform cloud."""
    pts, w = cloud
    d = pts - np.asarray(about)
    measure = w.sum()
    I = np.einsum("n,n->", w, (d * d).sum(axis=1)) * np.eye(3) - np.einsum("n,ni,nj->ij", w, d, d)
    return measure, (w[:, None] * pts).sum(axis=0) / measure, I / measure


def matrix(G):
    return G.CopyToFullMatrix3()


# ----- closed forms -----------------------------------------------------------------------------


def test_closed_forms():
    np.testing.assert_allclose(
        matrix(UnitInertia.SolidBox(1, 2, 3)), np.diag([13, 10, 5]) / 12, rtol=1e-15
    )
    np.testing.assert_allclose(matrix(UnitInertia.SolidCube(2)), np.eye(3) * 8 / 12, rtol=1e-15)
    np.testing.assert_allclose(matrix(UnitInertia.SolidSphere(2)), np.eye(3) * 0.4 * 4)
    np.testing.assert_allclose(matrix(UnitInertia.HollowSphere(2)), np.eye(3) * 4 * 2 / 3)
    np.testing.assert_allclose(
        matrix(UnitInertia.SolidEllipsoid(1, 2, 3)), np.diag([13, 10, 5]) / 5, rtol=1e-15
    )
    r, L = 0.5, 3.0
    cyl = np.diag([(3 * r * r + L * L) / 12] * 2 + [r * r / 2])
    np.testing.assert_allclose(matrix(UnitInertia.SolidCylinder(r, L, Z)), cyl)
    about_end = cyl + np.diag([L * L / 4, L * L / 4, 0])
    np.testing.assert_allclose(matrix(UnitInertia.SolidCylinderAboutEnd(r, L, Z)), about_end)
    np.testing.assert_allclose(matrix(UnitInertia.ThinRod(L, Z)), np.diag([L * L / 12] * 2 + [0]))
    np.testing.assert_allclose(matrix(UnitInertia.StraightLine(0.7, Z)), np.diag([0.7, 0.7, 0]))
    np.testing.assert_allclose(matrix(UnitInertia.AxiallySymmetric(1, 2, Z)), np.diag([2, 2, 1]))
    # Capsule, r = 1, L = 2: mass splits 0.6 (cylinder) / 0.4 (two hemispheres);
    # Izz = 0.6·1/2 + 0.4·2/5 = 0.46; Ixx = 0.6·7/12 + 0.4·(2/5 + 1 + 3/4) = 1.21.
    np.testing.assert_allclose(
        matrix(UnitInertia.SolidCapsule(1, 2, Z)), np.diag([1.21, 1.21, 0.46]), rtol=1e-15
    )
    p = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(matrix(UnitInertia.PointMass(p)), 14 * np.eye(3) - np.outer(p, p))
    G = UnitInertia.TriaxiallySymmetric(0.3)
    assert type(G) is UnitInertia
    np.testing.assert_array_equal(matrix(G), 0.3 * np.eye(3))


def test_degenerate_sizes():
    np.testing.assert_allclose(matrix(UnitInertia.SolidBox(0, 0, 3)), np.diag([0.75, 0.75, 0]))
    np.testing.assert_allclose(matrix(UnitInertia.SolidBox(0, 2, 3)), np.diag([13, 9, 4]) / 12)
    # A capsule of zero radius is a thin rod; of zero length, a sphere; of both, a point.
    np.testing.assert_allclose(
        matrix(UnitInertia.SolidCapsule(0, 2, Z)), matrix(UnitInertia.ThinRod(2, Z))
    )
    np.testing.assert_allclose(
        matrix(UnitInertia.SolidCapsule(1, 0, Z)), matrix(UnitInertia.SolidSphere(1))
    )
    assert UnitInertia.SolidCapsule(0, 0, Z).IsZero()
    assert UnitInertia.SolidCylinder(0, 0, Z).IsZero()


@pytest.mark.parametrize(
    "G, cloud",
    [
        (UnitInertia.SolidBox(0.3, 1.1, 2.0), box_cloud(0.3, 1.1, 2.0)),
        (UnitInertia.SolidCylinder(0.4, 1.5, Z), cylinder_cloud(0.4, -0.75, 0.75)),
        (UnitInertia.SolidCapsule(0.4, 1.5, Z), capsule_cloud(0.4, 1.5)),
        (UnitInertia.SolidCapsule(1.3, 0.2, Z), capsule_cloud(1.3, 0.2)),
        (UnitInertia.SolidSphere(0.7), ball_cloud(0.7)),
        (UnitInertia.HollowSphere(0.7), sphere_surface_cloud(0.7)),
    ],
    ids=["box", "cylinder", "capsule", "squat capsule", "sphere", "hollow sphere"],
)
def test_against_numerical_integration(G, cloud):
    _, com, G_numeric = integrate(cloud)
    np.testing.assert_allclose(com, 0, atol=1e-14)
    np.testing.assert_allclose(matrix(G), G_numeric, rtol=1e-12, atol=1e-14)


def test_capsule_volume_and_about_end_by_integration():
    r, L = 0.4, 1.5
    volume, _, _ = integrate(capsule_cloud(r, L))
    assert volume == pytest.approx(np.pi * r * r * (L + 4 * r / 3), rel=1e-13)
    _, com, G_end = integrate(cylinder_cloud(r, 0.0, L))  # about the center of its bottom face
    np.testing.assert_allclose(com, [0, 0, L / 2], atol=1e-14)
    np.testing.assert_allclose(
        matrix(UnitInertia.SolidCylinderAboutEnd(r, L, Z)), G_end, rtol=1e-12, atol=1e-14
    )


def test_ellipsoid_by_integration():
    a, b, c = 0.5, 1.2, 2.0
    pts, w = ball_cloud(1.0)
    _, _, G = integrate((pts * [a, b, c], w * a * b * c))
    np.testing.assert_allclose(
        matrix(UnitInertia.SolidEllipsoid(a, b, c)), G, rtol=1e-12, atol=1e-14
    )


def test_axis_along_any_unit_vector():
    R = RotationMatrix(RollPitchYaw(0.4, -1.0, 2.2))
    u = R.matrix()[:, 2]  # the cylinder axis z of a frame C, expressed in B: u = R_BC · z
    for name in ["SolidCylinder", "SolidCylinderAboutEnd", "SolidCapsule"]:
        G_B = getattr(UnitInertia, name)(0.3, 1.7, u)
        G_C = getattr(UnitInertia, name)(0.3, 1.7, Z)
        np.testing.assert_allclose(matrix(G_B), matrix(G_C.ReExpress(R)), atol=1e-15)
    np.testing.assert_allclose(
        matrix(UnitInertia.ThinRod(2.0, u)), matrix(UnitInertia.ThinRod(2.0, Z).ReExpress(R))
    )
    # AxiallySymmetric: moment J about u, K about any perpendicular axis.
    G = UnitInertia.AxiallySymmetric(moment_parallel=0.5, moment_perpendicular=1.0, unit_vector=u)
    assert u @ (G * u) == pytest.approx(0.5)
    v = R.matrix()[:, 0]
    assert v @ (G * v) == pytest.approx(1.0)


def test_constructors_and_methods():
    assert UnitInertia().IsNaN()
    np.testing.assert_array_equal(matrix(UnitInertia(1, 2, 3)), np.diag([1, 2, 3]))
    G6 = UnitInertia(1, 2, 3, 0.1, 0.2, 0.3)
    np.testing.assert_array_equal(G6.get_products(), [0.1, 0.2, 0.3])
    G = UnitInertia(RotationalInertia(1, 2, 3))
    assert type(G) is UnitInertia and G.get_moments().tolist() == [1, 2, 3]
    assert UnitInertia(I=RotationalInertia(4, 4, 4))[1, 1] == 4
    R = RotationMatrix(RollPitchYaw(0.1, 0.2, 0.3))
    G_A = G6.ReExpress(R)
    assert type(G_A) is UnitInertia
    np.testing.assert_allclose(matrix(G_A), R.matrix() @ matrix(G6) @ R.matrix().T, atol=1e-15)
    # SetFromRotationalInertia: G = I / mass, in place, returning this.
    G = UnitInertia(1, 1, 1)
    assert G.SetFromRotationalInertia(I=RotationalInertia(2, 4, 4), mass=2.0) is G
    np.testing.assert_array_equal(G.get_moments(), [1, 2, 2])
    # Shifts: G_BQ = G_BBcm + PointMass(p_BcmQ); and back.
    G_cm = UnitInertia.SolidBox(1, 2, 3)
    p = np.array([0.3, -0.2, 0.5])
    G_Q = G_cm.ShiftFromCenterOfMass(p)
    assert type(G_Q) is UnitInertia
    np.testing.assert_allclose(matrix(G_Q), matrix(G_cm) + matrix(UnitInertia.PointMass(p)))
    np.testing.assert_allclose(matrix(G_Q.ShiftToCenterOfMass(p_QBcm_E=-p)), matrix(G_cm))
    # Inherited: the mass-weighted shift gives a RotationalInertia.
    I = G_cm.ShiftToThenAwayFromCenterOfMass(1.0, p, -p)
    assert type(I) is RotationalInertia
    # Scaling a unit inertia by a mass gives a rotational inertia.
    I = G_cm * 3.0
    assert type(I) is RotationalInertia
    np.testing.assert_allclose(matrix(I), 3 * matrix(G_cm))


def test_factory_errors():
    bad_axis = [0.0, 0.0, 1 + 1e-13]
    cases = [
        (lambda: UnitInertia.SolidBox(-1, 2, 3), "Lx must be finite and non-negative"),
        (lambda: UnitInertia.SolidBox(1, np.nan, 3), "Ly must be finite"),
        (lambda: UnitInertia.SolidBox(1, 2, np.inf), "Lz must be finite"),
        (lambda: UnitInertia.SolidCube(-2), "L must be finite and non-negative, got L = -2"),
        (lambda: UnitInertia.SolidSphere(-1), "r must be finite and non-negative"),
        (lambda: UnitInertia.HollowSphere(np.nan), "r must be finite"),
        (lambda: UnitInertia.SolidEllipsoid(1, -2, 3), "b must be finite and non-negative"),
        (lambda: UnitInertia.SolidCylinder(-1, 2, Z), "radius must be finite and non-negative"),
        (lambda: UnitInertia.SolidCylinder(1, -2, Z), "length must be finite and non-negative"),
        (lambda: UnitInertia.SolidCylinder(1, 2, bad_axis), "not a unit vector"),
        (lambda: UnitInertia.SolidCylinderAboutEnd(1, -2, Z), "length must be finite"),
        (lambda: UnitInertia.SolidCylinderAboutEnd(1, 2, [0, 1, 1]), "not a unit vector"),
        (lambda: UnitInertia.SolidCapsule(-1, 2, Z), "radius must be finite"),
        (lambda: UnitInertia.SolidCapsule(1, np.inf, Z), "length must be finite"),
        (lambda: UnitInertia.SolidCapsule(1, 2, [0, 2, 0]), "not a unit vector"),
        (lambda: UnitInertia.ThinRod(0, Z), "length must be finite and positive, got length = 0"),
        (lambda: UnitInertia.ThinRod(-1, Z), "length must be finite and positive"),
        (lambda: UnitInertia.ThinRod(2, [1, 1, 0]), "not a unit vector"),
        (lambda: UnitInertia.StraightLine(0, Z), "moment_perpendicular must be finite and pos"),
        (lambda: UnitInertia.StraightLine(1, [0, 0, 0.5]), "not a unit vector"),
        (lambda: UnitInertia.AxiallySymmetric(-1, 2, Z), "moment_parallel must be finite"),
        (lambda: UnitInertia.AxiallySymmetric(1, -2, Z), "moment_perpendicular must be finite"),
        (lambda: UnitInertia.AxiallySymmetric(5, 2, Z), "J = 5.*K = 2.*triangle inequality"),
        (lambda: UnitInertia.AxiallySymmetric(1, 1, [np.nan, 0, 1]), "not a unit vector"),
    ]
    for make, message in cases:
        with pytest.raises(RuntimeError, match=message):
            make()
    # The unit-vector tolerance is 1e-14 on the norm.
    UnitInertia.SolidCylinder(1, 2, [0.0, 0.0, 1 + 5e-15])
    with pytest.raises(RuntimeError, match=r"\|unit_vector\| = 1.0000000000001"):
        UnitInertia.SolidCylinder(1, 2, bad_axis)
    # J = 2K is allowed (a thin disk), up to round-off.
    UnitInertia.AxiallySymmetric(2 * (1 + 8 * np.finfo(float).eps), 1, Z)
    with pytest.raises(RuntimeError, match="mass must be positive, got mass = 0"):
        UnitInertia().SetFromRotationalInertia(RotationalInertia(1, 1, 1), 0.0)
    with pytest.raises(TypeError, match="3-vector"):
        UnitInertia.SolidCylinder(1, 2, [0, 1])
