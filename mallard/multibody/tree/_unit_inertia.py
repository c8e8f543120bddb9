"""UnitInertia G_BP_E: the rotational inertia of a body B per unit of its mass (I = m·G, in m²).

The static factories give the unit inertias of uniform-density solids about their center of
mass (or an end point, for *AboutEnd). They raise RuntimeError for negative or non-finite
lengths and axes whose norm is not within 1e-14 of 1; the Release pydrake wheel aborts the
process for some of these (and accepts a negative radius for spheres and ellipsoids).
"""

import math

import numpy as np

from mallard._scalar import as_array, scalar_value
from mallard.common._pybind import overloads
from mallard.multibody.tree._rotational_inertia import (
    RotationalInertia,
    fmt,
    point_mass,
    reexpress,
    rotation_matrix,
    scalar,
    vector3,
)

_EPS = np.finfo(float).eps
_UNIT_VECTOR_TOLERANCE = 1e-14


def _length(method, name, x, positive=False):
    """Scalar ``x``, checked to be finite and non-negative (or positive)."""
    s = scalar(x, name)
    value = scalar_value(s)
    if value is None:
        return s
    if not (math.isfinite(value) and (value > 0 if positive else value >= 0)):
        rule = "positive" if positive else "non-negative"
        raise RuntimeError(
            f"{method}(): {name} must be finite and {rule}, got {name} = {fmt(value)}"
        )
    return s


def check_unit_vector(method, u):
    """``u`` as a 3-vector, checked to have a norm within 1e-14 of 1."""
    u = vector3(u, "unit_vector")
    values = u.tolist() if u.dtype == np.float64 else [scalar_value(x) for x in u]
    if None not in values:
        norm = math.sqrt(sum(x * x for x in values))
        if not abs(norm - 1) <= _UNIT_VECTOR_TOLERANCE:
            given = " ".join(map(fmt, values))
            raise RuntimeError(
                f"{method}(): The unit_vector argument {given} is not a unit vector.\n"
                f"|unit_vector| = {fmt(norm)}\n"
                f"||unit_vector| - 1| = {fmt(abs(norm - 1))} is greater than "
                f"{fmt(_UNIT_VECTOR_TOLERANCE)}."
            )
    return u


def axial_moments(J, K, x, y, z):
    """(Ixx, Iyy, Izz, Ixy, Ixz, Iyz) of K·Id + (J − K)·u·uᵀ for u = (x, y, z), unchecked
    (any scalars)."""
    d = J - K
    return K + d * x * x, K + d * y * y, K + d * z * z, d * x * y, d * x * z, d * y * z


def axially_symmetric(J, K, u):
    """K·Id + (J − K)·u·uᵀ, unchecked."""
    xx, yy, zz, xy, xz, yz = axial_moments(J, K, *u.tolist())
    return UnitInertia._make(as_array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]))


def solid_box_moments(x, y, z):
    """(Ixx, Iyy, Izz) of SolidBox(x, y, z), unchecked (any scalars)."""
    x2, y2, z2 = x * x, y * y, z * z
    return (y2 + z2) / 12, (x2 + z2) / 12, (x2 + y2) / 12


def solid_ellipsoid_moments(a, b, c):
    """(Ixx, Iyy, Izz) of SolidEllipsoid(a, b, c), unchecked (any scalars)."""
    a2, b2, c2 = a * a, b * b, c * c
    return (b2 + c2) / 5, (a2 + c2) / 5, (a2 + b2) / 5


def solid_sphere_moment(r):
    """The moment of SolidSphere(r) about any axis through its center, unchecked."""
    return 0.4 * r * r


def solid_cylinder_moments(r, L):
    """(J, K) of SolidCylinder(r, L, u): the moments about its axis and about a perpendicular
    axis through its center, unchecked (any scalars)."""
    return r * r / 2, (3 * r * r + L * L) / 12


def solid_capsule_moments(r, L, total):
    """(J, K) of SolidCapsule(r, L, u) (as solid_cylinder_moments) for ``total`` = 3·L + 4·r
    not zero, unchecked (any scalars). With the masses split by volume, m_cyl : m_hemispheres
    = 3·L : 4·r, each hemisphere (centroid 3r/8 from its flat face) contributes (2/5)·r² about
    the axis and, about a perpendicular axis through the capsule's center, (2/5)·r² − (3r/8)²
    + (L/2 + 3r/8)² = (2/5)·r² + L²/4 + (3/8)·r·L."""
    m_cyl, m_caps = 3 * L / total, 4 * r / total
    r2, L2 = r * r, L * L
    J = m_cyl * r2 / 2 + m_caps * 0.4 * r2
    K = m_cyl * (3 * r2 + L2) / 12 + m_caps * (0.4 * r2 + L2 / 4 + 0.375 * r * L)
    return J, K


class UnitInertia(RotationalInertia):
    """The unit inertia G_BP_E of a body B about a point P, expressed in a frame E.

    Constructors: ``UnitInertia()`` (all NaN); ``(Ixx, Iyy, Izz)``;
    ``(Ixx, Iyy, Izz, Ixy, Ixz, Iyz)``; ``(I)`` taking the values of a RotationalInertia as is.
    Multiplying or dividing by a scalar, adding or subtracting gives a RotationalInertia.
    """

    __module__ = "mallard.multibody.tree"  # (its public path: pickles name it)

    __slots__ = ()
    _OVERLOADS = (
        (),
        ("Ixx", "Iyy", "Izz"),
        ("Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"),
        ("I",),
    )

    @overloads(lambda: UnitInertia._OVERLOADS)
    def __init__(self, *args, **kwargs):
        if len(args) + len(kwargs) == 1:
            (I,) = args or tuple(kwargs.values())
            if set(kwargs) <= {"I"} and isinstance(I, RotationalInertia):
                self._I = I._I
                return
        super().__init__(*args, **kwargs)

    # ----- changes of frame, point and mass -----------------------------------------------------

    def ReExpress(self, R_AE):
        """G_BP_A = R_AE · G_BP_E · R_AEᵀ."""
        return UnitInertia._make(reexpress(rotation_matrix(R_AE), self._I))

    def SetFromRotationalInertia(self, I, mass):
        """Sets this to I / mass (mass > 0, else RuntimeError); returns this."""
        if not isinstance(I, RotationalInertia):
            raise TypeError(f"I must be a RotationalInertia, got {type(I).__name__}")
        m = scalar(mass, "mass")
        value = scalar_value(m)
        if value is not None and not value > 0:
            raise RuntimeError(
                f"SetFromRotationalInertia(): mass must be positive, got mass = {fmt(value)}"
            )
        self._I = I._I / m
        return self

    def ShiftFromCenterOfMass(self, p_BcmQ_E):
        """G_BQ_E from this = G_BBcm_E (parallel-axis theorem)."""
        return UnitInertia._make(self._I + point_mass(vector3(p_BcmQ_E, "p_BcmQ_E")))

    def ShiftToCenterOfMass(self, p_QBcm_E):
        """G_BBcm_E from this = G_BQ_E (parallel-axis theorem; may be non-physical)."""
        return UnitInertia._make(self._I - point_mass(vector3(p_QBcm_E, "p_QBcm_E")))

    # ----- factories ----------------------------------------------------------------------------

    @staticmethod
    def PointMass(p_FQ):
        """G_QFo_F = |p|²·Id − p·pᵀ: a unit point mass at Q, about Fo."""
        return UnitInertia._make(point_mass(vector3(p_FQ, "p_FQ")))

    @staticmethod
    def SolidEllipsoid(a, b, c):
        """A solid ellipsoid with semi-axes a, b, c along x, y, z, about its center."""
        f = "SolidEllipsoid"
        a, b, c = _length(f, "a", a), _length(f, "b", b), _length(f, "c", c)
        return _diagonal(*solid_ellipsoid_moments(a, b, c))

    @staticmethod
    def SolidSphere(r):
        """A solid sphere of radius r about its center: (2/5)·r²·Id."""
        r = _length("SolidSphere", "r", r)
        return UnitInertia.TriaxiallySymmetric(solid_sphere_moment(r))

    @staticmethod
    def HollowSphere(r):
        """A thin spherical shell of radius r about its center: (2/3)·r²·Id."""
        r = _length("HollowSphere", "r", r)
        return UnitInertia.TriaxiallySymmetric(2 * r * r / 3)

    @staticmethod
    def SolidBox(Lx, Ly, Lz):
        """A solid box with edge lengths Lx, Ly, Lz about its center (zero lengths allowed)."""
        f = "SolidBox"
        x, y, z = _length(f, "Lx", Lx), _length(f, "Ly", Ly), _length(f, "Lz", Lz)
        return _diagonal(*solid_box_moments(x, y, z))

    @staticmethod
    def SolidCube(L):
        """A solid cube with edge length L about its center: (1/6)·L²·Id."""
        L = _length("SolidCube", "L", L)
        return UnitInertia.TriaxiallySymmetric(L * L / 6)

    @staticmethod
    def SolidCylinder(radius, length, unit_vector):
        """A solid cylinder about its center, its axis along ``unit_vector``."""
        r, L, u = _axial_arguments("SolidCylinder", radius, length, unit_vector)
        return axially_symmetric(*solid_cylinder_moments(r, L), u)

    @staticmethod
    def SolidCylinderAboutEnd(radius, length, unit_vector):
        """A solid cylinder about the center Bp of one end face, p_BpBcm = (length/2)·u."""
        r, L, u = _axial_arguments("SolidCylinderAboutEnd", radius, length, unit_vector)
        return axially_symmetric(r * r / 2, (3 * r * r + 4 * L * L) / 12, u)

    @staticmethod
    def SolidCapsule(radius, length, unit_vector):
        """A solid capsule (a cylinder of that radius and length capped by two hemispheres)
        about its center, its axis along ``unit_vector`` (see solid_capsule_moments)."""
        r, L, u = _axial_arguments("SolidCapsule", radius, length, unit_vector)
        total = 3 * L + 4 * r
        if scalar_value(total) == 0:
            return UnitInertia.TriaxiallySymmetric(0.0)
        return axially_symmetric(*solid_capsule_moments(r, L, total), u)

    @staticmethod
    def ThinRod(length, unit_vector):
        """A thin rod about its center: moment length²/12 about perpendicular axes, 0 axially."""
        L = _length("ThinRod", "length", length, positive=True)
        u = check_unit_vector("ThinRod", unit_vector)
        return axially_symmetric(0.0, L * L / 12, u)

    @staticmethod
    def StraightLine(moment_perpendicular, unit_vector):
        """A straight line segment about a point on it: K about perpendicular axes, 0 axially."""
        K = _length("StraightLine", "moment_perpendicular", moment_perpendicular, positive=True)
        u = check_unit_vector("StraightLine", unit_vector)
        return axially_symmetric(0.0, K, u)

    @staticmethod
    def AxiallySymmetric(moment_parallel, moment_perpendicular, unit_vector):
        """G = K·Id + (J − K)·u·uᵀ: moment J about the axis u, K about every perpendicular axis.

        RuntimeError if J or K is negative or not finite, or J > 2·K (the triangle inequality).
        """
        J = _length("AxiallySymmetric", "moment_parallel", moment_parallel)
        K = _length("AxiallySymmetric", "moment_perpendicular", moment_perpendicular)
        j, k = scalar_value(J), scalar_value(K)
        if j is not None and k is not None and j > 2 * (1 + 16 * _EPS) * k:
            raise RuntimeError(
                f"AxiallySymmetric(): moment_parallel (J = {fmt(j)}) must not exceed twice "
                f"moment_perpendicular (K = {fmt(k)}): J > 2 K violates the triangle inequality"
            )
        u = check_unit_vector("AxiallySymmetric", unit_vector)
        return axially_symmetric(J, K, u)


def _diagonal(Ixx, Iyy, Izz):
    """The UnitInertia diag(Ixx, Iyy, Izz)."""
    return UnitInertia._make(as_array([[Ixx, 0.0, 0.0], [0.0, Iyy, 0.0], [0.0, 0.0, Izz]]))


def _axial_arguments(method, radius, length, unit_vector):
    r = _length(method, "radius", radius)
    L = _length(method, "length", length)
    return r, L, check_unit_vector(method, unit_vector)
