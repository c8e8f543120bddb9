"""RotationalInertia I_BP_E: a body B's 3x3 inertia matrix about a point P, expressed in frame E.

Products of inertia use Drake's negated convention (Ixy = -∫xy dm), so the angular momentum is
h = I·ω. The matrix is kept in full (symmetric) as a 3x3 array of dtype float64 or object (see
``mallard._scalar``); it is never modified in place, so copies may share it.

Validity checks that Drake runs only in Debug builds (the ones needing an eigen-solve: after
construction, re-expression, shifting, subtraction) are not run here, as in the Release pydrake
wheel; the cheap checks of obvious user errors (a negative mass, multiplying by a negative
scalar, dividing by a non-positive one) always are.
"""

import math
import numbers

import numpy as np

from mallard._scalar import as_array, as_scalar, scalar_value, values_or_none
from mallard.common._pybind import overloads
from mallard.math import RotationMatrix

_EPS = np.finfo(float).eps
_MODULE = "mallard.multibody.tree"


def fmt(x):
    """A number as C++'s fmt prints it (shortest round trip, no trailing ``.0``)."""
    if isinstance(x, numbers.Real):
        text = repr(float(x))
        return text[:-2] if text.endswith(".0") else text
    return str(x)


def fmt_vector(v):
    return "[" + "  ".join(fmt(x) for x in np.asarray(v).flat) + "]"


def fmt_matrix(m):
    return "\n".join(fmt_vector(row) for row in np.asarray(m))


def vector3(x, name):
    """``x`` as a 3-vector array; TypeError naming ``name`` otherwise (as pybind11 raises)."""
    try:
        return as_array(x, (3,), name)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name} must be a 3-vector, got {x!r}") from e


def scalar(x, name):
    """``x`` as a scalar; TypeError naming ``name`` otherwise."""
    if type(x) is float:
        return x
    if isinstance(x, np.ndarray) and x.dtype == object and x.size == 1:
        x = x.reshape(-1)[0]
    return as_scalar(x, name)


def point_mass_rows(x, y, z):
    """|p|²·Id − p·pᵀ for p = (x, y, z), as nested tuples (rows; any scalars: floats, arrays
    of many, or compiled: the MJCF fast path's kernel)."""
    xy, xz, yz = -x * y, -x * z, -y * z
    return ((y * y + z * z, xy, xz), (xy, x * x + z * z, yz), (xz, yz, x * x + y * y))


def point_mass(p):
    """|p|²·Id − p·pᵀ: the unit inertia about the origin of a unit point mass at p."""
    return np.array(point_mass_rows(*p.tolist()), dtype=p.dtype)


def rotation_matrix(R_AE):
    """The 3x3 array of RotationMatrix ``R_AE``; TypeError for anything else."""
    if not isinstance(R_AE, RotationMatrix):
        raise TypeError(f"R_AE must be a RotationMatrix, got {type(R_AE).__name__}")
    return R_AE.matrix()


def reexpress(R, M):
    """R·M·Rᵀ, symmetrized (M symmetric 3x3; or stacks of them, (n, 3, 3): the MJCF fast
    path's, the same operations matrix by matrix)."""
    out = R @ M @ R.mT
    return (out + out.mT) * 0.5


def could_be_physically_valid(I):
    """Whether the float64 3x3 ``I`` could be a physical rotational inertia.

    True when every element is finite and the principal moments satisfy the triangle inequality
    Imax ≤ Imin + Imed (which implies they are all non-negative), with a tolerance of 16 ε
    relative to the largest possible moment (trace/2), or absolute for inertias below 1 kg·m².
    Equivalently: the largest principal moment is at most trace/2 (+ half the tolerance).
    """
    return could_be_physically_valid_rows(I.tolist())


def could_be_physically_valid_rows(rows):
    """could_be_physically_valid of the 3x3 matrix given as nested lists of floats (rows)."""
    (a, b, c), (d, e, f), (g, h, i) = rows
    # (A finite sum has finite terms; finite terms whose sum overflows are checked one by one.)
    if not math.isfinite(a + b + c + d + e + f + g + h + i) and not all(
        map(math.isfinite, (a, b, c, d, e, f, g, h, i))
    ):
        return False
    half_trace = 0.5 * (a + e + i)
    limit = half_trace + 8 * _EPS * max(1.0, abs(half_trace))
    if max(a, e, i) > limit:  # a diagonal element bounds Imax from below
        return False
    if not (b or c or d or f or g or h):  # (diagonal: the bound below is max(a, e, i), exactly)
        return True
    gershgorin = max(  # (each row's sum of magnitudes, less the diagonal's, plus it)
        abs(a) + abs(b) + abs(c) - abs(a) + a,
        abs(d) + abs(e) + abs(f) - abs(e) + e,
        abs(g) + abs(h) + abs(i) - abs(i) + i,
    )
    if gershgorin <= limit:  # Gershgorin's circles bound Imax from above
        return True
    return bool(np.linalg.eigvalsh(np.array(rows))[2] <= limit)


def could_be_physically_valid_batch(a, b, c, d, e, f, g, h, i):
    """could_be_physically_valid_rows of n matrices at once, each given by its elements as
    arrays (``a b c / d e f / g h i``, finite float64): a boolean array, by the same operations
    element by element (and the same eigenvalues where the bounds do not decide)."""
    half_trace = 0.5 * (a + e + i)
    limit = half_trace + 8 * _EPS * np.maximum(1.0, np.abs(half_trace))
    valid = np.maximum(np.maximum(a, e), i) <= limit
    diagonal = (b == 0.0) & (c == 0.0) & (d == 0.0) & (f == 0.0) & (g == 0.0) & (h == 0.0)
    gershgorin = np.maximum(
        np.maximum(np.abs(a) + np.abs(b) + np.abs(c) - np.abs(a) + a,
                   np.abs(d) + np.abs(e) + np.abs(f) - np.abs(e) + e),
        np.abs(g) + np.abs(h) + np.abs(i) - np.abs(i) + i,
    )  # fmt: skip
    undecided = np.flatnonzero(valid & ~diagonal & (gershgorin > limit))
    if undecided.size:
        rows = np.stack((a, b, c, d, e, f, g, h, i), axis=1)[undecided].reshape(-1, 3, 3)
        valid[undecided] = np.linalg.eigvalsh(rows)[:, 2] <= limit[undecided]
    return valid


def principal_axes(I):
    """(moments ascending, right-handed 3x3 of the matching axes) of float64 symmetric ``I``.

    The axes are the identity when the three moments are equal.
    """
    moments, axes = np.linalg.eigh(I)
    if moments[2] - moments[0] <= 8 * _EPS * abs(moments[2]):
        axes = np.eye(3)
    elif np.linalg.det(axes) < 0:
        axes[:, 2] = -axes[:, 2]
    return moments, axes


def _bind(cls_name, args, kwargs, overloads):
    """Matches (args, kwargs) to the overload (a tuple of parameter names) with that arity."""
    count = len(args) + len(kwargs)
    for names in overloads:
        if len(names) == count:
            values = dict(zip(names, args, strict=False))
            if all(k in names and k not in values for k in kwargs):
                values.update(kwargs)
                return names, values
    given = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
    supported = "; ".join(f"{cls_name}({', '.join(names)})" for names in overloads)
    raise TypeError(
        f"{cls_name}(): incompatible constructor arguments. Supported: {supported}. "
        f"Invoked with: ({given})"
    )


class RotationalInertia:
    """The rotational inertia I_BP_E of a body B about a point P, expressed in a frame E.

    Constructors: ``RotationalInertia()`` (all NaN); ``(Ixx, Iyy, Izz)`` (zero products);
    ``(Ixx, Iyy, Izz, Ixy, Ixz, Iyz)``; ``(mass, p_PQ_E)``, the inertia about P of a particle of
    that mass at Q (RuntimeError if mass < 0).
    """

    __module__ = "mallard.multibody.tree"  # (its public path: pickles name it)

    __slots__ = ("_I",)
    __array_ufunc__ = None  # numpy defers to our reflected operators (2.0 * I, w * I)
    _OVERLOADS = (
        (),
        ("Ixx", "Iyy", "Izz"),
        ("Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz"),
        ("mass", "p_PQ_E"),
    )

    @overloads(lambda: RotationalInertia._OVERLOADS)
    def __init__(self, *args, **kwargs):
        if len(args) in (3, 6) and not kwargs and all(isinstance(x, float) for x in args):
            xx, yy, zz, xy, xz, yz = args if len(args) == 6 else (*args, 0.0, 0.0, 0.0)
            self._I = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
            return
        names, v = _bind(type(self).__name__, args, kwargs, self._OVERLOADS)
        if not names:
            self._I = np.full((3, 3), np.nan)
        elif names[0] == "mass":
            mass = scalar(v["mass"], "mass")
            value = scalar_value(mass)
            if value is not None and value < 0:
                raise RuntimeError(
                    f"RotationalInertia(): the mass of a particle must be non-negative, "
                    f"got mass = {fmt(value)}"
                )
            self._I = point_mass(vector3(v["p_PQ_E"], "p_PQ_E")) * mass
        else:
            m = [scalar(v[n], n) for n in names] + [0.0] * (6 - len(names))
            self._I = as_array([[m[0], m[3], m[4]], [m[3], m[1], m[5]], [m[4], m[5], m[2]]])

    @classmethod
    def _make(cls, I):
        """Wraps a trusted symmetric 3x3 array without checks or copy."""
        obj = object.__new__(cls)
        obj._I = I
        return obj

    @classmethod
    def TriaxiallySymmetric(cls, I_triaxial):
        """The inertia I_triaxial·Id: equal moments about any axis through P, no products."""
        return cls._make(np.eye(3) * scalar(I_triaxial, "I_triaxial"))

    # ----- access -------------------------------------------------------------------------------

    def rows(self):
        """3, as Eigen's rows()."""
        return 3

    def cols(self):
        """3, as Eigen's cols()."""
        return 3

    def __getitem__(self, index):
        """The (i, j) element, as ``I[i, j]``."""
        if not isinstance(index, tuple):
            raise TypeError(f"RotationalInertia indices must be a tuple (i, j), got {index!r}")
        if len(index) != 2:
            raise IndexError("Expected [i,j] for __getitem__.")
        i, j = (int(k) if isinstance(k, numbers.Integral) else k for k in index)
        if not (isinstance(i, int) and isinstance(j, int)):
            raise TypeError(f"RotationalInertia indices must be integers, got {index!r}")
        if not (0 <= i < 3 and 0 <= j < 3):
            raise IndexError(f"RotationalInertia index ({i}, {j}) is out of range [0, 3)")
        return self._I.item(i, j)

    def get_moments(self):
        """[Ixx, Iyy, Izz]."""
        return self._I.diagonal().copy()

    def get_products(self):
        """[Ixy, Ixz, Iyz]."""
        I = self._I
        return np.array([I[0, 1], I[0, 2], I[1, 2]], dtype=I.dtype)

    def CopyToFullMatrix3(self):
        """The full symmetric 3x3 matrix, as a new array."""
        return self._I.copy()

    def Trace(self):
        """Ixx + Iyy + Izz (the same in every expressed-in frame)."""
        return self._I.item(0, 0) + self._I.item(1, 1) + self._I.item(2, 2)

    def CalcMaximumPossibleMomentOfInertia(self):
        """trace/2: the largest moment this inertia can have about any axis through P."""
        return 0.5 * self.Trace()

    # ----- queries ------------------------------------------------------------------------------

    def IsNaN(self):
        """True if any element is NaN."""
        values = values_or_none(self._I)
        return values is not None and bool(np.isnan(values).any())

    def IsZero(self):
        """True if every element is exactly zero."""
        values = values_or_none(self._I)
        return values is not None and not values.any()

    def _values(self, method):
        values = values_or_none(self._I)
        if values is None:
            raise RuntimeError(
                f"{method}(): the elements of this rotational inertia have no numerical value"
            )
        return values

    def CouldBePhysicallyValid(self):
        """Whether this could be a physical inertia: no NaN, principal moments non-negative and
        satisfying the triangle inequality (necessary; sufficient only about the COM)."""
        return could_be_physically_valid(self._values("CouldBePhysicallyValid"))

    def IsNearlyEqualTo(self, other, precision):
        """max |this − other| ≤ precision · min(trace_this, trace_other) / 2 (element-wise)."""
        _require_inertia(other, "other")
        a, b = self._values("IsNearlyEqualTo"), other._values("IsNearlyEqualTo")
        limit = float(precision) * min(0.5 * np.trace(a), 0.5 * np.trace(b))
        return bool(np.abs(a - b).max() <= limit)

    def _finite_values(self, method):
        values = values_or_none(self._I)
        if values is None or not np.isfinite(values).all():
            raise RuntimeError(
                f"{method}(): Unable to calculate the eigenvalues or eigenvectors of the 3x3 "
                f"matrix associated with a RotationalInertia: its elements are not all real "
                f"finite doubles:\n{fmt_matrix(self._I)}"
            )
        return values

    def CalcPrincipalMomentsOfInertia(self):
        """The principal moments [Imin, Imed, Imax], ascending (RuntimeError if not finite)."""
        return np.linalg.eigvalsh(self._finite_values("CalcPrincipalMomentsOfInertia"))

    def CalcPrincipalMomentsAndAxesOfInertia(self):
        """(moments ascending, R_EA): the columns of R_EA are the principal axes, in order.

        R_EA is right-handed; it is the identity when all three moments are equal. The sign of
        each axis is otherwise arbitrary (it may differ from pydrake's).
        """
        values = self._finite_values("CalcPrincipalMomentsAndAxesOfInertia")
        moments, axes = principal_axes(values)
        return moments, RotationMatrix(axes)

    # ----- changes of frame and point -----------------------------------------------------------

    def ReExpress(self, R_AE):
        """I_BP_A = R_AE · I_BP_E · R_AEᵀ, this inertia re-expressed in frame A."""
        return self._make(reexpress(rotation_matrix(R_AE), self._I))

    def ShiftFromCenterOfMass(self, mass, p_BcmQ_E):
        """I_BQ_E from this = I_BBcm_E: adds the inertia of ``mass`` at Q about Bcm."""
        p = vector3(p_BcmQ_E, "p_BcmQ_E")
        return RotationalInertia._make(self._I + point_mass(p) * scalar(mass, "mass"))

    def ShiftToCenterOfMass(self, mass, p_QBcm_E):
        """I_BBcm_E from this = I_BQ_E: removes the inertia of ``mass`` at Bcm about Q."""
        p = vector3(p_QBcm_E, "p_QBcm_E")
        return RotationalInertia._make(self._I - point_mass(p) * scalar(mass, "mass"))

    def ShiftToThenAwayFromCenterOfMass(self, mass, p_PBcm_E, p_QBcm_E):
        """I_BQ_E from this = I_BP_E, shifting to Bcm and then away from it to Q."""
        p_P = vector3(p_PBcm_E, "p_PBcm_E")
        p_Q = vector3(p_QBcm_E, "p_QBcm_E")
        shift = (point_mass(p_Q) - point_mass(p_P)) * scalar(mass, "mass")
        return RotationalInertia._make(self._I + shift)

    # ----- setters ------------------------------------------------------------------------------

    def SetZero(self):
        """Sets every element to zero."""
        self._I = np.zeros((3, 3))

    def SetToNaN(self):
        """Sets every element to NaN."""
        self._I = np.full((3, 3), np.nan)

    # ----- arithmetic (results are RotationalInertia, even for UnitInertia operands) ------------

    def __add__(self, I_BP_E):
        if not isinstance(I_BP_E, RotationalInertia):
            return NotImplemented
        return RotationalInertia._make(self._I + I_BP_E._I)

    def __sub__(self, I_BP_E):
        if not isinstance(I_BP_E, RotationalInertia):
            return NotImplemented
        return RotationalInertia._make(self._I - I_BP_E._I)

    def __mul__(self, other):
        """``I * s`` (s ≥ 0) → RotationalInertia; ``I * w`` (a 3-vector) → the 3-vector I·w."""
        if isinstance(other, RotationalInertia):
            return NotImplemented
        if isinstance(other, (np.ndarray, list, tuple)) and np.size(other) == 3:
            return self._I @ vector3(other, "w")
        s = _factor(other, "nonnegative_scalar", "multiply", lambda v: v >= 0, "negative")
        if s is NotImplemented:
            return NotImplemented
        return RotationalInertia._make(self._I * s)

    def __rmul__(self, other):
        if isinstance(other, (np.ndarray, list, tuple)):
            return NotImplemented
        return self.__mul__(other)

    def __truediv__(self, other):
        s = _factor(other, "positive_scalar", "divide", lambda v: v > 0, "not positive")
        if s is NotImplemented:
            return NotImplemented
        return RotationalInertia._make(self._I / s)

    def _updated(self, result):
        """Stores ``result`` (a RotationalInertia) in this; returns what ``op=`` binds.

        As in pydrake, ``G op= x`` on a UnitInertia G updates G and binds a RotationalInertia.
        """
        if result is NotImplemented:
            return result
        self._I = result._I
        return self if type(self) is RotationalInertia else result

    def __iadd__(self, I_BP_E):
        return self._updated(self.__add__(I_BP_E))

    def __isub__(self, I_BP_E):
        return self._updated(self.__sub__(I_BP_E))

    def __imul__(self, nonnegative_scalar):
        if isinstance(nonnegative_scalar, (np.ndarray, list, tuple)):
            return NotImplemented
        return self._updated(self.__mul__(nonnegative_scalar))

    def __itruediv__(self, positive_scalar):
        return self._updated(self.__truediv__(positive_scalar))

    # ----- Python protocol ----------------------------------------------------------------------

    def __getstate__(self):
        return self._I.copy()

    def __setstate__(self, state):
        self._I = np.array(as_array(state, (3, 3), "state"))

    def __repr__(self):
        return f"<{_MODULE}.{type(self).__name__} object at {id(self):#x}>"


def _require_inertia(other, name):
    if not isinstance(other, RotationalInertia):
        raise TypeError(f"{name} must be a RotationalInertia, got {type(other).__name__}")


def _factor(x, name, verb, ok, broken):
    """Scalar ``x`` checked by ``ok`` on its value, or NotImplemented if ``x`` is no scalar."""
    try:
        s = scalar(x, name)
    except TypeError:
        return NotImplemented
    value = scalar_value(s)
    if value is not None and not ok(value):
        raise RuntimeError(
            f"RotationalInertia: cannot {verb} a rotational inertia by a scalar that is "
            f"{broken}: {name} = {fmt(value)}"
        )
    return s
