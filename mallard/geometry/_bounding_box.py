"""Bounding boxes: pydrake's Aabb and Obb (axis-aligned and oriented boxes posed in a hierarchy
frame H), CalcObb(shape) (the oriented box of a shape in its own frame), and the overlap tests
Drake's bounding volume hierarchies use. Computed as Drake (v1.51) does: an Obb's half widths
are padded on construction (by max(ε·scale, 2e-14), scale the largest of its center's
coordinates and its half widths), a mesh's box is Drake's ObbMaker's (principal axes of its
hull's vertices, then a line search on its volume over small rotations)."""

import enum

import numpy as np

from mallard.common._pybind import overloads
from mallard.geometry._plane import Plane
from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix

#: Obb's least padding of its half widths (Drake's Obb::kTolerance).
_OBB_TOLERANCE = 2e-14
#: Drake's BoxesOverlap's epsilon added to |R_AB| (Gottschalk's robustness value).
_OVERLAP_EPSILON = 1e-6


def _half_width(value, name):
    half_width = np.array(value, dtype=float).reshape(-1)
    if half_width.shape != (3,):
        raise ValueError(f"{name}(): half_width must have 3 elements, got {half_width.shape[0]}")
    if not np.all(half_width >= 0.0):  # (NaN too)
        raise ValueError(f"{name}(): half_width must not be negative (nor NaN), got {half_width}")
    return half_width


def _position(value, name, what):
    p = np.array(value, dtype=float).reshape(-1)
    if p.shape != (3,) or not np.all(np.isfinite(p)):
        raise ValueError(f"{name}(): {what} must be 3 finite numbers, got {value!r}")
    return p


def _boxes_overlap(half_a, half_b, X_AB):
    """Drake's BoxesOverlap: whether the box of half widths ``half_a`` at A's origin and the
    one of ``half_b`` posed at X_AB intersect (the separating axis test, 15 axes)."""
    t = X_AB.translation()
    r = X_AB.rotation().matrix()
    abs_r = np.abs(r) + _OVERLAP_EPSILON
    for i in range(3):
        if abs(t[i]) > half_a[i] + half_b @ abs_r[i, :]:
            return False
    for i in range(3):
        if abs(t @ r[:, i]) > half_b[i] + half_a @ abs_r[:, i]:
            return False
    for i in range(3):
        i1, i2 = (i + 1) % 3, (i + 2) % 3
        for j in range(3):
            j1, j2 = (j + 1) % 3, (j + 2) % 3
            if abs(t[i2] * r[i1, j] - t[i1] * r[i2, j]) > (
                half_a[i1] * abs_r[i2, j]
                + half_a[i2] * abs_r[i1, j]
                + half_b[j1] * abs_r[i, j2]
                + half_b[j2] * abs_r[i, j1]
            ):
                return False
    return True


class Aabb:
    """An axis-aligned bounding box in a hierarchy frame H: centered at ``p_HoBo``, its half
    measures ``half_width`` along H's axes (not negative). No padding."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)
    __slots__ = ("_center", "_half_width")

    def __init__(self, p_HoBo, half_width):
        self._center = _position(p_HoBo, "Aabb", "p_HoBo")
        self._half_width = _half_width(half_width, "Aabb")

    def __getstate__(self):
        return self.center(), self.half_width()  # (pydrake's pickled state)

    def __setstate__(self, state):
        self.__init__(*state)

    def center(self):
        """p_HoBo_H: the box's center in H."""
        return self._center.copy()

    def half_width(self):
        return self._half_width.copy()

    def upper(self):
        """The box's corner of greatest coordinates."""
        return self._center + self._half_width

    def lower(self):
        """The box's corner of least coordinates."""
        return self._center - self._half_width

    def pose(self):
        """X_HB: the box's frame B (H's axes, at its center)."""
        return RigidTransform(self._center)

    def CalcVolume(self):
        return float(8.0 * np.prod(self._half_width))

    def Equal(self, other):
        """Whether the two boxes' centers and half widths are equal to the last bit."""
        return bool(
            np.array_equal(self._center, other._center)
            and np.array_equal(self._half_width, other._half_width)
        )

    @staticmethod
    @overloads("a_G, b_H, X_GH", "aabb_G, obb_H, X_GH", "bv_H, hs_C, X_CH", "bv_H, plane_P, X_PH")
    def HasOverlap(*args, **kwargs):
        """Whether the Aabb ``a_G`` (in G) intersects the Aabb or Obb ``b_H`` (in H), H posed
        at X_GH in G; or, for a HalfSpace, whether any point of the box ``bv_H`` (in H) is on
        or below the half space's boundary, H posed at X_CH in its canonical frame C; or, for
        a Plane ``plane_P`` (in its frame P), whether a point of the box is on the plane, H
        posed at X_PH in P."""
        a_G, b_H, X_GH = _arguments("Aabb.HasOverlap", Aabb.HasOverlap, args, kwargs)
        if _is_halfspace(b_H):
            return _overlaps_halfspace(a_G.pose(), a_G._half_width, X_GH)
        if isinstance(b_H, Plane):
            return _overlaps_plane(a_G.pose(), a_G._half_width, b_H, X_GH)
        if isinstance(b_H, Obb):
            X_AO = RigidTransform(
                X_GH.rotation() @ b_H._pose.rotation(),
                X_GH @ b_H._pose.translation() - a_G._center,
            )
            return _boxes_overlap(a_G._half_width, b_H._half_width, X_AO)
        X_AB = RigidTransform(X_GH.rotation(), X_GH @ b_H._center - a_G._center)
        return _boxes_overlap(a_G._half_width, b_H._half_width, X_AB)

    def __repr__(self):
        return f"Aabb(p_HoBo={self._center.tolist()}, half_width={self._half_width.tolist()})"


class Obb:
    """An oriented bounding box posed at ``X_HB`` in a hierarchy frame H, its half measures
    ``half_width`` along B's axes (not negative), padded as Drake's (see the module's
    docstring)."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)
    __slots__ = ("_pose", "_half_width")

    def __getstate__(self):
        return self.pose(), self.half_width()  # (pydrake's pickled state: padded again)

    def __setstate__(self, state):
        self.__init__(*state)

    def __init__(self, X_HB, half_width):
        if not isinstance(X_HB, RigidTransform):
            raise TypeError(f"Obb(): X_HB must be a RigidTransform, got {type(X_HB).__name__}")
        self._pose = RigidTransform(X_HB)
        half_width = _half_width(half_width, "Obb")
        scale = max(np.abs(X_HB.translation()).max(), half_width.max())
        self._half_width = half_width + max(scale * np.finfo(float).eps, _OBB_TOLERANCE)

    def center(self):
        """p_HoBo_H: the box's center in H."""
        return self._pose.translation()

    def half_width(self):
        """p_BoU_B: the half measures along B's axes."""
        return self._half_width.copy()

    def pose(self):
        """X_HB."""
        return RigidTransform(self._pose)

    def CalcVolume(self):
        return float(8.0 * np.prod(self._half_width))

    def Equal(self, other):
        """Whether the two boxes' poses and half widths are equal to the last bit."""
        return bool(
            np.array_equal(self._pose.GetAsMatrix34(), other._pose.GetAsMatrix34())
            and np.array_equal(self._half_width, other._half_width)
        )

    @staticmethod
    @overloads("a_G, b_H, X_GH", "obb_G, aabb_H, X_GH", "bv_H, hs_C, X_CH", "bv_H, plane_P, X_PH")
    def HasOverlap(*args, **kwargs):
        """Whether the Obb ``a_G`` (in G) intersects the Obb or Aabb ``b_H`` (in H), H posed at
        X_GH in G; or, for a HalfSpace, whether any point of the box ``bv_H`` (in H) is on or
        below the half space's boundary, H posed at X_CH in its canonical frame C; or, for a
        Plane ``plane_P`` (in its frame P), whether a point of the box is on the plane, H
        posed at X_PH in P."""
        a_G, b_H, X_GH = _arguments("Obb.HasOverlap", Obb.HasOverlap, args, kwargs)
        if _is_halfspace(b_H):
            return _overlaps_halfspace(a_G._pose, a_G._half_width, X_GH)
        if isinstance(b_H, Plane):
            return _overlaps_plane(a_G._pose, a_G._half_width, b_H, X_GH)
        if isinstance(b_H, Aabb):
            X_HG = X_GH.inverse()
            X_AO = RigidTransform(
                X_HG.rotation() @ a_G._pose.rotation(), X_HG @ a_G.center() - b_H._center
            )
            return _boxes_overlap(b_H._half_width, a_G._half_width, X_AO)
        X_AB = a_G._pose.InvertAndCompose(X_GH @ b_H._pose)
        return _boxes_overlap(a_G._half_width, b_H._half_width, X_AB)

    def __repr__(self):
        return f"Obb(X_HB={self._pose!r}, half_width={self._half_width.tolist()})"


def _overlaps_halfspace(X_HB, half_width, X_CH):
    """Whether the box of ``half_width`` posed at X_HB in H has a point on or below the
    boundary of a half space, H posed at X_CH in the half space's canonical frame C (boundary
    z = 0, inside z < 0): its center's height at most its extent along Cz."""
    R_CB = (X_CH.rotation() @ X_HB.rotation()).matrix()
    clearance = np.abs(R_CB[2]) @ half_width
    height = X_CH.translation()[2] + X_CH.rotation().matrix()[2] @ X_HB.translation()
    return bool(height <= clearance)


def _overlaps_plane(X_HB, half_width, plane_P, X_PH):
    """Whether the box of ``half_width`` posed at X_HB in H has a point on ``plane_P``, H
    posed at X_PH in the plane's frame P."""
    X_PB = X_PH @ X_HB
    return plane_P.BoxOverlaps(half_width, X_PB.translation(), X_PB.rotation())


def _is_halfspace(shape):
    from mallard.geometry._shapes import HalfSpace

    return isinstance(shape, HalfSpace)


def _arguments(name, method, args, kwargs):
    """The three arguments of a call of an overloaded HasOverlap, given by position or by
    the names of one of its call forms."""
    if len(args) + len(kwargs) == 3:
        for form in method.__overloads__:
            names = [n.strip() for n in form.split(",")]
            if set(kwargs) == set(names[len(args) :]):
                return (*args, *(kwargs[n] for n in names[len(args) :]))
    forms = "; ".join(f"({form})" for form in method.__overloads__)
    raise TypeError(f"{name}(): incompatible arguments; it takes {forms}")


class HydroelasticContactRepresentation(enum.Enum):
    """How a hydroelastic contact surface is represented (QueryObject.ComputeContactSurfaces,
    not implemented in mallard yet): triangles or polygons."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)

    kTriangle = 0
    kPolygon = 1


# ---- the oriented box of a shape ---------------------------------------------------------------
def CalcObb(shape):
    """The oriented bounding box of ``shape`` in its own frame (None for a HalfSpace): a box,
    sphere, capsule, cylinder or ellipsoid's own box, about its origin and along its axes; a
    Mesh's or Convex's that of its convex hull's vertices (Drake's ObbMaker). RuntimeError
    where the hull cannot be computed (Mesh.GetConvexHull's errors)."""
    from mallard.geometry import _shapes as shapes
    from mallard.geometry._mesh import Convex, Mesh

    identity = RigidTransform()
    if isinstance(shape, shapes.Box):
        return Obb(identity, shape.size() / 2)
    if isinstance(shape, shapes.Sphere):
        return Obb(identity, np.full(3, shape.radius()))
    if isinstance(shape, shapes.Capsule):
        r = shape.radius()
        return Obb(identity, [r, r, shape.length() / 2.0 + r])
    if isinstance(shape, shapes.Cylinder):
        r = shape.radius()
        return Obb(identity, [r, r, shape.length() / 2.0])
    if isinstance(shape, shapes.Ellipsoid):
        return Obb(identity, [shape.a(), shape.b(), shape.c()])
    if isinstance(shape, shapes.HalfSpace):
        return None
    if isinstance(shape, Mesh | Convex):
        return _ObbMaker(shape.GetConvexHull()._vertices).compute()
    raise TypeError(f"CalcObb(): expected a Shape, got {type(shape).__name__}")


class _ObbMaker:
    """Drake's ObbMaker of a set of vertices p_MV (n × 3, in a frame M)."""

    #: The step of the volume's gradient over roll, pitch and yaw (5°).
    _H = 5.0 * np.pi / 180.0

    def __init__(self, vertices):
        self._p_MV = np.asarray(vertices, dtype=float)

    def compute(self):
        return self._optimize(self._box(self._principal_axes()))

    def _principal_axes(self):
        """R_MB: B's axes along the vertices' principal axes, of decreasing variance
        (Bz = Bx × By), from their covariance summed in the vertices' order as Drake does."""
        p_MV = self._p_MV
        one_over_n = 1.0 / len(p_MV)
        p_MC = np.zeros(3)
        for p in p_MV:
            p_MC += p
        p_MC *= one_over_n
        covariance = np.zeros((3, 3))
        for p in p_MV:
            d = p - p_MC
            covariance += np.outer(d, d)
        covariance *= one_over_n
        vectors = _eigenvectors(covariance)  # (of increasing eigenvalues)
        Bx, By = vectors[:, 2], vectors[:, 1]
        return RotationMatrix(np.column_stack((Bx, By, np.cross(Bx, By))))

    def _box(self, R_MB):
        """The least box with orientation R_MB holding the vertices."""
        p_FV = self._p_MV @ R_MB.matrix()  # (R_FM·p_MV, row by row)
        lower, upper = p_FV.min(axis=0), p_FV.max(axis=0)
        p_MBo = R_MB @ ((upper + lower) / 2.0)
        return Obb(RigidTransform(R_MB, p_MBo), (upper - lower) / 2.0)

    def _volume_gradient(self, box):
        R_MB = box._pose.rotation()
        volume = box.CalcVolume()
        h = self._H
        steps = (RollPitchYaw(h, 0, 0), RollPitchYaw(0, h, 0), RollPitchYaw(0, 0, h))
        return np.array(
            [(self._box(R_MB @ RotationMatrix(s)).CalcVolume() - volume) / h for s in steps]
        )

    def _optimize(self, box0):
        """One step of gradient descent on the box's volume over roll, pitch and yaw, with
        Drake's line search (at most 20 tries; the step grows ×1.5 on success, shrinks ÷10 on
        failure)."""
        R_MB0 = box0._pose.rotation()
        volume0 = box0.CalcVolume()
        volume, box = volume0, box0
        gradient = self._volume_gradient(box0)
        norm = np.linalg.norm(gradient)
        if norm <= 1e-9:  # (Drake's: too little to be worth a search)
            return box0
        increment = 0.1 * volume0 / norm
        min_increment = increment / 1e6
        step = 0.0
        for _ in range(20):
            step -= increment
            trial = self._box(R_MB0 @ RotationMatrix(RollPitchYaw(step * gradient)))
            trial_volume = trial.CalcVolume()
            if trial_volume < volume:
                improvement = (volume - trial_volume) / volume
                volume, box = trial_volume, trial
                if improvement < 0.001:
                    break
                increment *= 1.5
                continue
            step += increment
            if increment <= min_increment:
                break
            increment /= 10.0
        return box if box.CalcVolume() < volume0 else box0


# ---- Eigen's SelfAdjointEigenSolver::computeDirect (3 × 3), which Drake's ObbMaker uses -------
def _eigenvectors(A):
    """The unit eigenvectors (columns, of increasing eigenvalues) of the symmetric 3 × 3 matrix
    A by Eigen's closed form (its choice of vectors and signs, which the box depends on)."""
    eps = np.finfo(float).eps
    shift = np.trace(A) / 3.0
    m = np.tril(A) + np.tril(A, -1).T
    m[np.diag_indices(3)] -= shift
    scale = np.abs(m).max()
    if scale > 0:
        m /= scale
    roots = _roots(m)
    vectors = np.zeros((3, 3))
    if roots[2] - roots[0] <= eps:
        return np.eye(3)
    d0, d1 = roots[2] - roots[1], roots[1] - roots[0]
    k, l = 0, 2
    if d0 > d1:
        k, l = l, k
        d0 = d1
    vectors[:, k], vectors[:, l] = _kernel(m - roots[k] * np.eye(3))
    if d0 <= 2 * eps * d1:
        v = vectors[:, l]
        v -= (vectors[:, k] @ v) * v  # (Eigen's own update)
        vectors[:, l] = v / np.linalg.norm(v)
    else:
        vectors[:, l] = _kernel(m - roots[l] * np.eye(3))[0]
    c = np.cross(vectors[:, 2], vectors[:, 0])
    vectors[:, 1] = c / np.linalg.norm(c)
    return vectors


def _roots(m):
    """The eigenvalues of the symmetric m, increasing (Eigen's computeRoots)."""
    c0 = (
        m[0, 0] * m[1, 1] * m[2, 2]
        + 2.0 * m[1, 0] * m[2, 0] * m[2, 1]
        - m[0, 0] * m[2, 1] * m[2, 1]
        - m[1, 1] * m[2, 0] * m[2, 0]
        - m[2, 2] * m[1, 0] * m[1, 0]
    )
    c1 = (
        m[0, 0] * m[1, 1]
        - m[1, 0] * m[1, 0]
        + m[0, 0] * m[2, 2]
        - m[2, 0] * m[2, 0]
        + m[1, 1] * m[2, 2]
        - m[2, 1] * m[2, 1]
    )
    c2 = m[0, 0] + m[1, 1] + m[2, 2]
    c2_over_3 = c2 * (1.0 / 3.0)
    a_over_3 = max((c2 * c2_over_3 - c1) * (1.0 / 3.0), 0.0)
    half_b = 0.5 * (c0 + c2_over_3 * (2.0 * c2_over_3 * c2_over_3 - c1))
    q = max(a_over_3 * a_over_3 * a_over_3 - half_b * half_b, 0.0)
    rho = np.sqrt(a_over_3)
    theta = np.arctan2(np.sqrt(q), half_b) * (1.0 / 3.0)
    cos_theta, sin_theta = np.cos(theta), np.sin(theta)
    sqrt3 = np.sqrt(3.0)
    return (
        c2_over_3 - rho * (cos_theta + sqrt3 * sin_theta),
        c2_over_3 - rho * (cos_theta - sqrt3 * sin_theta),
        c2_over_3 + 2.0 * rho * cos_theta,
    )


def _kernel(m):
    """(the unit vector of m's kernel, m's column of largest diagonal element): m of rank 2
    (Eigen's extract_kernel)."""
    i0 = int(np.argmax(np.abs(np.diag(m))))
    representative = m[:, i0].copy()
    c0 = np.cross(representative, m[:, (i0 + 1) % 3])
    c1 = np.cross(representative, m[:, (i0 + 2) % 3])
    n0, n1 = c0 @ c0, c1 @ c1
    return (c0 / np.sqrt(n0) if n0 > n1 else c1 / np.sqrt(n1)), representative


# ---- the boxes of a mesh's vertices ------------------------------------------------------------
def _aabb_of(p_MV):
    """Drake's AabbMaker: the least axis-aligned box of the points p_MV (rows)."""
    lower, upper = p_MV.min(axis=0), p_MV.max(axis=0)
    center = (lower + upper) / 2.0
    return Aabb(center, upper - center)


def ComputeAabbForTriangleMesh(mesh_M, vertices):
    """The Aabb (in the mesh's frame M) of the vertices of ``mesh_M`` (a TriangleSurfaceMesh)
    whose indices are in the set ``vertices`` (RuntimeError if it is empty)."""
    return _aabb_of(_vertices_of(mesh_M, vertices, "TriangleSurfaceMesh", "ComputeAabb"))


def ComputeAabbForVolumeMesh(mesh_M, vertices):
    """The Aabb (in M) of the vertices ``vertices`` of the VolumeMesh ``mesh_M``."""
    return _aabb_of(_vertices_of(mesh_M, vertices, "VolumeMesh", "ComputeAabb"))


def ComputeObbForTriangleMesh(mesh_M, vertices):
    """The Obb (in M) of the vertices ``vertices`` of the TriangleSurfaceMesh ``mesh_M``
    (Drake's ObbMaker over them, in increasing index order)."""
    p_MV = _vertices_of(mesh_M, vertices, "TriangleSurfaceMesh", "ComputeObb")
    return _ObbMaker(p_MV).compute()


def ComputeObbForVolumeMesh(mesh_M, vertices):
    """The Obb (in M) of the vertices ``vertices`` of the VolumeMesh ``mesh_M``."""
    return _ObbMaker(_vertices_of(mesh_M, vertices, "VolumeMesh", "ComputeObb")).compute()


def _vertices_of(mesh, vertices, kind, what):
    from mallard.geometry import _element_meshes as meshes

    name = f"{what}For{kind.replace('TriangleSurface', 'Triangle')}"
    if not isinstance(mesh, getattr(meshes, kind)):
        raise TypeError(f"{name}(): expected a {kind}, got {type(mesh).__name__}")
    return meshes.mesh_vertices(mesh, vertices, name)
