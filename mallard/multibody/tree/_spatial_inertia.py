"""SpatialInertia M_SP_E: mass, center of mass and unit inertia of a body S about a point P.

Stored as Drake stores it (and as the kernels take it): the mass m, the position p_PScm_E of
S's center of mass from P, and the unit inertia G_SP_E about P, all expressed in frame E::

    M_SP_E = [ m·G_SP_E       m·[p_PScm_E]× ]
             [ −m·[p_PScm_E]×  m·Id         ]

The constructor and the factories check physical validity; ReExpress, Shift and ``+=`` do not.
"""

import math

import numpy as np

from mallard._scalar import scalar_value, values_or_none
from mallard.multibody.tree._rotational_inertia import (
    RotationalInertia,
    could_be_physically_valid_rows,
    fmt,
    fmt_matrix,
    fmt_vector,
    point_mass,
    point_mass_rows,
    principal_axes,
    reexpress,
    rotation_matrix,
    scalar,
    vector3,
)
from mallard.multibody.tree._unit_inertia import UnitInertia, check_unit_vector

_MODULE = "mallard.multibody.tree"


def _cross(a, b):
    a0, a1, a2 = a.tolist()
    b0, b1, b2 = b.tolist()
    dtype = object if a.dtype == object or b.dtype == object else np.float64
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dtype=dtype)


def _positive(method, name, x):
    """Scalar ``x``, checked to be positive and finite (as the factories require)."""
    s = scalar(x, name)
    value = scalar_value(s)
    if value is not None and not (math.isfinite(value) and value > 0):
        raise RuntimeError(f"{method}(): {name} is not positive and finite: {fmt(value)}.")
    return s


def solid_box_mass(rho, x, y, z):
    """The mass of a solid box of density rho and edge lengths x, y, z (any scalars)."""
    return rho * x * y * z


def solid_sphere_mass(rho, r):
    """The mass of a solid sphere of density rho and radius r (any scalars)."""
    return rho * (4 * np.pi / 3) * r * r * r


def solid_ellipsoid_mass(rho, a, b, c):
    """The mass of a solid ellipsoid of density rho and semi-axes a, b, c (any scalars)."""
    return rho * (4 * np.pi / 3) * a * b * c


def solid_cylinder_mass(rho, r, L):
    """The mass of a solid cylinder of density rho, radius r and length L (any scalars)."""
    return rho * np.pi * r * r * L


def solid_capsule_mass(rho, r, L):
    """The mass of a solid capsule of density rho, radius r and cylinder length L (any
    scalars)."""
    return rho * (np.pi * r * r * (L + 4 * r / 3))


def _validity_error(m, p, G, G_rows=None, p_rows=None):
    """Why (m, p_PScm, G_SP) in float64 is not a physical spatial inertia, or None if it is.
    (``p`` an array or 3 floats; ``G_rows`` and ``p_rows``, if given, are G and
    point_mass(p) as nested lists: then G may be None.)"""
    if not (math.isfinite(m) and m >= 0):
        return f"mass = {fmt(m)} is negative or not finite."
    x, y, z = p.tolist() if isinstance(p, np.ndarray) else p
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        return f"Position vector {fmt_vector(p)} has non-finite elements."
    # I_SScm = (G − point_mass(p))·m, element by element in floats (as numpy computes it;
    # written out: a comprehension of zips costs several times more).
    (g0, g1, g2), (g3, g4, g5), (g6, g7, g8) = G.tolist() if G_rows is None else G_rows
    (q0, q1, q2), (q3, q4, q5), (q6, q7, q8) = (
        point_mass_rows(x, y, z) if p_rows is None else p_rows
    )
    rows = [
        [(g0 - q0) * m, (g1 - q1) * m, (g2 - q2) * m],
        [(g3 - q3) * m, (g4 - q4) * m, (g5 - q5) * m],
        [(g6 - q6) * m, (g7 - q7) * m, (g8 - q8) * m],
    ]
    if could_be_physically_valid_rows(rows):
        return None
    I_SScm = np.array(rows)
    G = np.asarray(G_rows if G is None else G)
    if np.isfinite(I_SScm).all():
        moments = fmt_vector(np.linalg.eigvalsh(I_SScm))
    else:
        moments = "(not computable: non-finite elements)"
    with np.errstate(over="ignore"):  # (an inertia beyond float64 shown as inf, as Drake's)
        I_BP = G * m
    return (
        f" mass = {fmt(m)}\n Center of mass = {fmt_vector(p)}\n"
        f" Inertia about point P, I_BP =\n{fmt_matrix(I_BP)}\n"
        f" Inertia about center of mass, I_BBcm =\n{fmt_matrix(I_SScm)}\n"
        f" Principal moments of inertia about Bcm (center of mass) =\n{moments}\n"
        f" These must be non-negative and satisfy the triangle inequality "
        f"Imin + Imed >= Imax."
    )


class SpatialInertia:
    """The spatial inertia M_SP_E of a body or composite body S about a point P, in frame E.

    ``SpatialInertia(mass, p_PScm_E, G_SP_E, skip_validity_check=False)`` takes the unit
    inertia G_SP_E about P (not about Scm); it raises RuntimeError unless the result
    IsPhysicallyValid() or ``skip_validity_check``. See also MakeFromCentralInertia().
    """

    __module__ = "mallard.multibody.tree"  # (its public path: pickles name it)

    __slots__ = ("_m", "_p", "_G")
    __array_ufunc__ = None

    def __init__(self, mass, p_PScm_E, G_SP_E, skip_validity_check=False):
        if not isinstance(G_SP_E, UnitInertia):
            raise TypeError(f"G_SP_E must be a UnitInertia, got {type(G_SP_E).__name__}")
        self._m = scalar(mass, "mass")
        self._p = vector3(p_PScm_E, "p_PScm_E")
        self._G = G_SP_E._I
        if not skip_validity_check:
            self._check_physically_valid()

    @classmethod
    def _make(cls, m, p, G):
        """Wraps trusted values (scalar, 3-array, 3x3 array) without checks or copies."""
        obj = object.__new__(cls)
        obj._m = m
        obj._p = p
        obj._G = G
        return obj

    @classmethod
    def _from_row(cls, rows, j):
        """The spatial inertia of row j of ``rows``, a float array of rows [mass, p (3), G (row
        by row, 9)], wrapped (its p and G views of the row)."""
        row = rows[j]
        return cls._make(float(row[0]), row[1:4], row[4:].reshape(3, 3))

    def _check_physically_valid(self, G_rows=None, p_rows=None):
        values = self._values()
        if values is not None:
            error = _validity_error(*values, G_rows, p_rows)
            if error is not None:
                raise RuntimeError(
                    f"Spatial inertia fails SpatialInertia::IsPhysicallyValid().\n{error}"
                )

    def _values(self):
        """(m, p, G) as float64, or None if some scalar has no numerical value."""
        if type(self._m) is float and self._p.dtype == np.float64 and self._G.dtype == np.float64:
            return self._m, self._p, self._G
        m = scalar_value(self._m)
        p = values_or_none(self._p)
        G = values_or_none(self._G)
        return None if m is None or p is None or G is None else (m, p, G)

    # ----- construction -------------------------------------------------------------------------

    @staticmethod
    def MakeFromCentralInertia(mass, p_PScm_E, I_SScm_E):
        """M_SP_E from the mass, p_PScm_E and the rotational inertia I_SScm_E about Scm.

        RuntimeError if mass is not positive or the result is not physically valid.
        """
        if not isinstance(I_SScm_E, RotationalInertia):
            raise TypeError(f"I_SScm_E must be a RotationalInertia, got {type(I_SScm_E).__name__}")
        m = scalar(mass, "mass")
        value = scalar_value(m)
        if value is not None and not value > 0:
            raise RuntimeError(f"MakeFromCentralInertia(): mass must be positive, got {fmt(value)}")
        p = vector3(p_PScm_E, "p_PScm_E")
        I = I_SScm_E._I
        if type(m) is float and p.dtype == np.float64 and I.dtype == np.float64:
            return SpatialInertia._from_central_rows(m, p.tolist(), I.tolist())
        result = SpatialInertia._make(m, p, I / m + point_mass(p))
        result._check_physically_valid()
        return result

    @classmethod
    def _from_central_rows(cls, m, p, I_rows):
        """MakeFromCentralInertia in floats (element by element: the arrays' operations) for
        the float mass ``m`` > 0, p_PScm_E as 3 floats and I_SScm_E as nested lists (rows),
        unconverted; RuntimeError if the result is not physically valid."""
        p_rows = point_mass_rows(*p)
        (i0, i1, i2), (i3, i4, i5), (i6, i7, i8) = I_rows
        (q0, q1, q2), (q3, q4, q5), (q6, q7, q8) = p_rows
        G = [
            [i0 / m + q0, i1 / m + q1, i2 / m + q2],
            [i3 / m + q3, i4 / m + q4, i5 / m + q5],
            [i6 / m + q6, i7 / m + q7, i8 / m + q8],
        ]
        result = cls._make(m, np.array(p, dtype=float), np.array(G))
        result._check_physically_valid(G, p_rows)
        return result

    @staticmethod
    def Zero():
        """Zero mass, center of mass and unit inertia."""
        return SpatialInertia._make(0.0, np.zeros(3), np.zeros((3, 3)))

    @staticmethod
    def NaN():
        """NaN mass, center of mass and unit inertia."""
        return SpatialInertia._make(np.nan, np.full(3, np.nan), np.full((3, 3), np.nan))

    @staticmethod
    def SolidBoxWithDensity(density, lx, ly, lz):
        """A uniform solid box with edge lengths lx, ly, lz, about its center Bo, in B."""
        f = "SolidBoxWithDensity"
        rho = _positive(f, "density", density)
        x, y, z = _box(f, lx, ly, lz)
        return _central(solid_box_mass(rho, x, y, z), UnitInertia.SolidBox(x, y, z))

    @staticmethod
    def SolidBoxWithMass(mass, lx, ly, lz):
        """A uniform solid box of that mass with edge lengths lx, ly, lz, about its center."""
        f = "SolidBoxWithMass"
        m = _positive(f, "mass", mass)
        x, y, z = _box(f, lx, ly, lz)
        return _central(m, UnitInertia.SolidBox(x, y, z))

    @staticmethod
    def SolidCubeWithDensity(density, length):
        """A uniform solid cube with that edge length, about its center."""
        rho = _positive("SolidCubeWithDensity", "density", density)
        L = _positive("SolidCubeWithDensity", "length", length)
        return _central(rho * L * L * L, UnitInertia.SolidCube(L))

    @staticmethod
    def SolidSphereWithDensity(density, radius):
        """A uniform solid sphere, about its center."""
        rho = _positive("SolidSphereWithDensity", "density", density)
        r = _positive("SolidSphereWithDensity", "radius", radius)
        return _central(solid_sphere_mass(rho, r), UnitInertia.SolidSphere(r))

    @staticmethod
    def SolidSphereWithMass(mass, radius):
        """A uniform solid sphere of that mass, about its center."""
        m = _positive("SolidSphereWithMass", "mass", mass)
        r = _positive("SolidSphereWithMass", "radius", radius)
        return _central(m, UnitInertia.SolidSphere(r))

    @staticmethod
    def HollowSphereWithDensity(area_density, radius):
        """A thin uniform spherical shell (area_density in kg/m²), about its center."""
        sigma = _positive("HollowSphereWithDensity", "area_density", area_density)
        r = _positive("HollowSphereWithDensity", "radius", radius)
        return _central(sigma * (4 * np.pi) * r * r, UnitInertia.HollowSphere(r))

    @staticmethod
    def HollowSphereWithMass(mass, radius):
        """A thin uniform spherical shell of that mass, about its center."""
        m = _positive("HollowSphereWithMass", "mass", mass)
        r = _positive("HollowSphereWithMass", "radius", radius)
        return _central(m, UnitInertia.HollowSphere(r))

    @staticmethod
    def SolidEllipsoidWithDensity(density, a, b, c):
        """A uniform solid ellipsoid with semi-axes a, b, c along x, y, z, about its center."""
        f = "SolidEllipsoidWithDensity"
        rho = _positive(f, "density", density)
        a, b, c = _semi_axes(f, a, b, c)
        return _central(solid_ellipsoid_mass(rho, a, b, c), UnitInertia.SolidEllipsoid(a, b, c))

    @staticmethod
    def SolidEllipsoidWithMass(mass, a, b, c):
        """A uniform solid ellipsoid of that mass with semi-axes a, b, c, about its center."""
        f = "SolidEllipsoidWithMass"
        m = _positive(f, "mass", mass)
        a, b, c = _semi_axes(f, a, b, c)
        return _central(m, UnitInertia.SolidEllipsoid(a, b, c))

    @staticmethod
    def SolidCylinderWithDensity(density, radius, length, unit_vector):
        """A uniform solid cylinder with axis ``unit_vector``, about its center."""
        f = "SolidCylinderWithDensity"
        rho = _positive(f, "density", density)
        r, L, u = _axial(f, radius, length, unit_vector)
        return _central(solid_cylinder_mass(rho, r, L), UnitInertia.SolidCylinder(r, L, u))

    @staticmethod
    def SolidCylinderWithMass(mass, radius, length, unit_vector):
        """A uniform solid cylinder of that mass with axis ``unit_vector``, about its center."""
        m = _positive("SolidCylinderWithMass", "mass", mass)
        r, L, u = _axial("SolidCylinderWithMass", radius, length, unit_vector)
        return _central(m, UnitInertia.SolidCylinder(r, L, u))

    @staticmethod
    def SolidCylinderWithDensityAboutEnd(density, radius, length, unit_vector):
        """A uniform solid cylinder about the center Bp of an end face; p_BpBcm = (length/2)·u."""
        f = "SolidCylinderWithDensityAboutEnd"
        rho = _positive(f, "density", density)
        r, L, u = _axial(f, radius, length, unit_vector)
        G = UnitInertia.SolidCylinderAboutEnd(r, L, u)
        return SpatialInertia._make(rho * np.pi * r * r * L, u * (L / 2), G._I)

    @staticmethod
    def SolidCylinderWithMassAboutEnd(mass, radius, length, unit_vector):
        """A uniform solid cylinder of that mass about an end-face center Bp (p_BpBcm = L/2·u)."""
        m = _positive("SolidCylinderWithMassAboutEnd", "mass", mass)
        r, L, u = _axial("SolidCylinderWithMassAboutEnd", radius, length, unit_vector)
        G = UnitInertia.SolidCylinderAboutEnd(r, L, u)
        return SpatialInertia._make(m, u * (L / 2), G._I)

    @staticmethod
    def SolidCapsuleWithDensity(density, radius, length, unit_vector):
        """A uniform solid capsule (cylinder of that length + two hemispheres), about its center."""
        f = "SolidCapsuleWithDensity"
        rho = _positive(f, "density", density)
        r, L, u = _axial(f, radius, length, unit_vector)
        return _central(solid_capsule_mass(rho, r, L), UnitInertia.SolidCapsule(r, L, u))

    @staticmethod
    def SolidCapsuleWithMass(mass, radius, length, unit_vector):
        """A uniform solid capsule of that mass, about its center."""
        m = _positive("SolidCapsuleWithMass", "mass", mass)
        r, L, u = _axial("SolidCapsuleWithMass", radius, length, unit_vector)
        return _central(m, UnitInertia.SolidCapsule(r, L, u))

    @staticmethod
    def ThinRodWithMass(mass, length, unit_vector):
        """A uniform thin rod of that mass along ``unit_vector``, about its center."""
        m = _positive("ThinRodWithMass", "mass", mass)
        L = _positive("ThinRodWithMass", "length", length)
        u = check_unit_vector("ThinRodWithMass", unit_vector)
        return _central(m, UnitInertia.ThinRod(L, u))

    @staticmethod
    def ThinRodWithMassAboutEnd(mass, length, unit_vector):
        """A uniform thin rod about one end Bp; p_BpBcm = (length/2)·u."""
        m = _positive("ThinRodWithMassAboutEnd", "mass", mass)
        L = _positive("ThinRodWithMassAboutEnd", "length", length)
        u = check_unit_vector("ThinRodWithMassAboutEnd", unit_vector)
        G = UnitInertia.StraightLine(L * L / 3, u)
        return SpatialInertia._make(m, u * (L / 2), G._I)

    # ----- access -------------------------------------------------------------------------------

    def get_mass(self):
        """The mass m."""
        return self._m

    def get_com(self):
        """p_PScm_E, the center of mass from the about-point P (a new array)."""
        return self._p.copy()

    def get_unit_inertia(self):
        """G_SP_E, the unit inertia about P."""
        return UnitInertia._make(self._G)

    def CalcComMoment(self):
        """m·p_PScm_E."""
        return self._p * self._m

    def CalcRotationalInertia(self):
        """I_SP_E = m·G_SP_E."""
        return RotationalInertia._make(self._G * self._m)

    def CopyToFullMatrix6(self):
        """The 6x6 matrix [[m·G, m·[p]×], [−m·[p]×, m·Id]]."""
        m, (x, y, z) = self._m, self._p.tolist()
        mc = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]], dtype=self._p.dtype) * m
        return np.block([[self._G * m, mc], [-mc, np.eye(3) * m]])

    # ----- queries and setters ------------------------------------------------------------------

    def IsNaN(self):
        """True if the mass, center of mass or unit inertia has a NaN element."""
        values = self._values()
        return values is not None and any(np.isnan(v).any() for v in values)

    def IsZero(self):
        """True if the mass, center of mass and unit inertia are all exactly zero."""
        values = self._values()
        return values is not None and not any(np.any(v) for v in values)

    def IsPhysicallyValid(self):
        """True if: no NaN; mass ≥ 0 and finite; p_PScm_E finite; the principal moments of the
        rotational inertia about Scm are non-negative and satisfy the triangle inequality."""
        values = self._values()
        if values is None:
            raise RuntimeError(
                "IsPhysicallyValid(): this spatial inertia's elements have no numerical value"
            )
        return _validity_error(*values) is None

    def SetNaN(self):
        """Sets the mass, center of mass and unit inertia to NaN."""
        self._m, self._p, self._G = np.nan, np.full(3, np.nan), np.full((3, 3), np.nan)

    # ----- changes of frame and point -----------------------------------------------------------

    def ReExpress(self, R_AE):
        """M_SP_A: this inertia re-expressed in frame A (p and G rotated by R_AE)."""
        R = rotation_matrix(R_AE)
        return SpatialInertia._make(self._m, R @ self._p, reexpress(R, self._G))

    def Shift(self, p_PQ_E):
        """M_SQ_E, this inertia about the point Q (parallel-axis theorem)."""
        d = vector3(p_PQ_E, "p_PQ_E")
        p_QScm = self._p - d
        return SpatialInertia._make(
            self._m, p_QScm, self._G - point_mass(self._p) + point_mass(p_QScm)
        )

    def CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid(self):
        """([lmax, lmed, lmin], X_EA): the uniform solid ellipsoid with this spatial inertia.

        Its semi-diameters are descending; the columns of R_EA are its axes in that order and
        p_EoAo = p_PScm_E (so X_EA locates the ellipsoid in E when P = Eo). The axis signs may
        differ from pydrake's. RuntimeError if an element is NaN or has no numerical value.
        """
        return self._equivalent_shape(0.2, "CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid")

    def CalcPrincipalHalfLengthsAndPoseForEquivalentShape(self, inertia_shape_factor):
        """([lmax, lmed, lmin], X_EA): the principal half-lengths (descending) and pose of
        the uniform-density shape with this spatial inertia whose moment of inertia about
        its axis a is m·f·(b² + c²) for half-lengths a, b, c, f = ``inertia_shape_factor``:
        1/5 for a solid ellipsoid, 1/3 for a solid box. The columns of R_EA are the axes in
        the order of the half-lengths; p_EoAo = p_PScm_E.
        RuntimeError if f is not in (0, 1] or an element is NaN or has no numerical value.
        """
        f = float(inertia_shape_factor)
        if not 0.0 < f <= 1.0:
            raise RuntimeError(
                "CalcPrincipalHalfLengthsAndPoseForEquivalentShape(): inertia_shape_factor "
                f"must be in (0, 1], got {fmt(f)}."
            )
        return self._equivalent_shape(f, "CalcPrincipalHalfLengthsAndPoseForEquivalentShape")

    def _equivalent_shape(self, f, method):
        from mallard.math import RigidTransform, RotationMatrix

        G_cm = RotationalInertia._make(self._G - point_mass(self._p))
        moments, axes = principal_axes(G_cm._finite_values(method))
        i_min, i_med, i_max = moments.tolist()
        squares = (i_med + i_max - i_min, i_min + i_max - i_med, i_min + i_med - i_max)
        half_lengths = np.sqrt(np.maximum(np.array(squares) / (2.0 * f), 0.0))
        p = values_or_none(self._p)
        return half_lengths, RigidTransform(RotationMatrix(axes), p)

    # ----- operators ----------------------------------------------------------------------------

    def __iadd__(self, M_BP_E):
        """This += M_BP_E: the composite of two bodies' inertias about the same point P, in E."""
        if not isinstance(M_BP_E, SpatialInertia):
            return NotImplemented
        m1, m2 = self._m, M_BP_E._m
        m = m1 + m2
        if scalar_value(m) == 0:  # no mass to weight by: the plain average
            self._p = (self._p + M_BP_E._p) * 0.5
            self._G = (self._G + M_BP_E._G) * 0.5
        else:
            self._p = (self._p * m1 + M_BP_E._p * m2) / m
            self._G = (self._G * m1 + M_BP_E._G * m2) / m
        self._m = m
        return self

    def __mul__(self, other):
        """M·V → SpatialMomentum for a SpatialVelocity; M·A → SpatialForce for an acceleration."""
        from mallard.multibody.math import (
            SpatialAcceleration,
            SpatialForce,
            SpatialMomentum,
            SpatialVelocity,
        )

        if isinstance(other, SpatialVelocity):
            result = SpatialMomentum
        elif isinstance(other, SpatialAcceleration):
            result = SpatialForce
        else:
            return NotImplemented
        w, v = other._c[:3], other._c[3:]
        m, p = self._m, self._p
        rotational = (self._G @ w + _cross(p, v)) * m
        translational = (v - _cross(p, w)) * m
        return result._make(np.concatenate((rotational, translational)))

    # ----- Python protocol ----------------------------------------------------------------------

    def __getstate__(self):
        return self._m, self._p.copy(), UnitInertia._make(self._G)

    def __setstate__(self, state):
        m, p, G = state
        self._m, self._p, self._G = scalar(m, "mass"), vector3(p, "p_PScm_E"), G._I

    def __repr__(self):
        if self.IsZero():
            return "SpatialInertia.Zero()"
        return f"<{_MODULE}.SpatialInertia object at {id(self):#x}>"


def _box(method, lx, ly, lz):
    x = _positive(method, "x-length", lx)
    return x, _positive(method, "y-length", ly), _positive(method, "z-length", lz)


def _semi_axes(method, a, b, c):
    a = _positive(method, "semi-axis a", a)
    return a, _positive(method, "semi-axis b", b), _positive(method, "semi-axis c", c)


def _central(mass, G):
    """The spatial inertia of ``mass`` with unit inertia G about its center of mass."""
    return SpatialInertia._make(mass, np.zeros(3), G._I)


def _axial(method, radius, length, unit_vector):
    r = _positive(method, "radius", radius)
    L = _positive(method, "length", length)
    return r, L, check_unit_vector(method, unit_vector)
