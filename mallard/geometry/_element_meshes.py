"""pydrake.geometry's meshes of simplices: TriangleSurfaceMesh (of SurfaceTriangle) and
VolumeMesh (of tetrahedra, VolumeElement), their vertices p_MV in the mesh's frame M; the
Aabb and Obb of a set of their vertices (ComputeAabbFor…/ComputeObbFor…), and the bounding box
of a surface mesh's vertices (CalcBoundingBox, PolygonSurfaceMesh's too). Computed as Drake
does: a triangle's normal and area from the cross product of its edges from its first vertex,
barycentric coordinates of the nearest point of the element's plane (or of the point, in a
tetrahedron)."""

import numpy as np


def _checked_index(value, size, what):
    """``value`` as an index in [0, size); RuntimeError (Drake's failed condition) otherwise."""
    index = int(value)
    if not 0 <= index < size:
        raise RuntimeError(f"{what}: condition '0 <= {index} < {size}' failed.")
    return index


class _Element:
    """A simplex of a mesh: the indices of its vertices (not negative)."""

    __slots__ = ("_vertices",)
    _SIZE = 0

    def _set(self, *vertices):
        vertices = tuple(int(v) for v in vertices)
        if min(vertices) < 0:
            raise RuntimeError(
                f"{type(self).__name__}(): vertex indices must not be negative, got {vertices}"
            )
        self._vertices = vertices

    def num_vertices(self):
        return self._SIZE

    def vertex(self, i):
        """The index (in the mesh) of the element's vertex ``i``."""
        return self._vertices[_checked_index(i, self._SIZE, f"{type(self).__name__}.vertex()")]

    def __getstate__(self):
        return self._vertices

    def __setstate__(self, state):
        self._vertices = tuple(state)

    def __repr__(self):
        return f"{type(self).__name__}{self._vertices}"


class SurfaceTriangle(_Element):
    """``SurfaceTriangle(v0, v1, v2)``: a triangle of a TriangleSurfaceMesh, its vertices
    counterclockwise seen from outside (its normal by the right-hand rule)."""

    __module__ = "mallard.geometry"
    __slots__ = ()
    _SIZE = 3

    def __init__(self, v0, v1, v2):
        self._set(v0, v1, v2)


class VolumeElement(_Element):
    """``VolumeElement(v0, v1, v2, v3)``: a tetrahedron of a VolumeMesh; by convention (not
    enforced) v0, v1, v2 wind with their normal pointing inward, toward v3."""

    __module__ = "mallard.geometry"
    __slots__ = ()
    _SIZE = 4

    def __init__(self, v0, v1, v2, v3):
        self._set(v0, v1, v2, v3)


class _SimplexMesh:
    """The vertices (p_MV, n × 3) and elements (of ``_ELEMENT``) of a mesh."""

    _ELEMENT = _Element

    def __init__(self, elements, vertices):
        name = type(self).__name__
        elements = list(elements)
        if not all(isinstance(e, self._ELEMENT) for e in elements):
            raise TypeError(f"{name}(): expected a list of {self._ELEMENT.__name__}")
        if not elements:
            raise RuntimeError(self._EMPTY)
        p = np.array([np.asarray(v, dtype=float).reshape(3) for v in vertices]).reshape(-1, 3)
        if any(max(e._vertices) >= len(p) for e in elements):
            raise RuntimeError(f"{name}(): an element names a vertex that does not exist")
        self._p_MV = p
        self._elements = elements
        self._indices = np.array([e._vertices for e in elements], dtype=np.int64)

    def num_vertices(self):
        return len(self._p_MV)

    def num_elements(self):
        return len(self._elements)

    def vertex(self, v):
        """p_MV of vertex ``v``."""
        return self._p_MV[_checked_index(v, len(self._p_MV), "vertex()")].copy()

    def vertices(self):
        return [p.copy() for p in self._p_MV]

    def element(self, e):
        return self._elements[self._element_index(e)]

    def _element_index(self, e):
        return _checked_index(e, len(self._elements), "element()")

    def _corners(self, e):
        """The positions of element ``e``'s vertices (rows, in its order)."""
        return self._p_MV[self._indices[self._element_index(e)]]

    def _barycentric(self, p_MQ, e):
        """b (Σ bᵢ = 1) of the point Σ bᵢ p_MVᵢ of element ``e``'s affine hull nearest Q: the
        least-squares solution of Σ_{i>0} bᵢ (p_MVᵢ - p_MV₀) = p_MQ - p_MV₀."""
        p = self._corners(e)
        p_V0Q = np.asarray(p_MQ, dtype=float).reshape(3) - p[0]
        b = np.linalg.lstsq((p[1:] - p[0]).T, p_V0Q, rcond=None)[0]
        return np.concatenate(([1.0 - b.sum()], b))

    def __getstate__(self):
        return self._elements, self._p_MV

    def __setstate__(self, state):
        self.__init__(*state)


class TriangleSurfaceMesh(_SimplexMesh):
    """``TriangleSurfaceMesh(triangles, vertices)``: a surface of SurfaceTriangle over
    ``vertices`` (p_MV, in the mesh's frame M). RuntimeError without triangles."""

    __module__ = "mallard.geometry"
    _ELEMENT = SurfaceTriangle
    _EMPTY = "A mesh must contain at least one triangle"

    def __init__(self, triangles, vertices):
        super().__init__(triangles, vertices)
        p = self._p_MV[self._indices]
        cross = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
        norm = np.linalg.norm(cross, axis=1)
        self._areas = 0.5 * norm
        self._normals = cross / np.where(norm > 0.0, norm, 1.0)[:, None]  # (0 if degenerate)
        self._centroids = p.sum(axis=1) / 3.0

    num_triangles = _SimplexMesh.num_elements

    def triangles(self):
        return list(self._elements)

    def area(self, t):
        return float(self._areas[self._element_index(t)])

    def total_area(self):
        return float(self._areas.sum())

    def face_normal(self, t):
        """The unit normal of triangle ``t`` (right-hand rule; zero if it is degenerate)."""
        return self._normals[self._element_index(t)].copy()

    def element_centroid(self, t):
        return self._centroids[self._element_index(t)].copy()

    def centroid(self):
        """p_MSc: the area-weighted centroid of the triangles (zero if their area is zero)."""
        total = self._areas.sum()
        if total == 0.0:
            return np.zeros(3)
        return self._areas @ self._centroids / total

    def CalcBoundingBox(self):
        """(center, size) of the vertices' axis-aligned box, in M."""
        return bounding_box(self._p_MV)

    def CalcBarycentric(self, p_MQ, t):
        """The barycentric coordinates, in triangle ``t``, of Q's projection on its plane."""
        return self._barycentric(p_MQ, t)

    def CalcCartesianFromBarycentric(self, element_index, b_Q):
        """p_MQ of the point of barycentric coordinates ``b_Q`` in triangle ``element_index``."""
        return np.asarray(b_Q, dtype=float).reshape(3) @ self._corners(element_index)

    def Equal(self, mesh):
        """Whether ``mesh`` has the same triangles and, exactly, the same vertices."""
        return _same_elements(self, mesh) and bool(np.array_equal(self._p_MV, mesh._p_MV))


class VolumeMesh(_SimplexMesh):
    """``VolumeMesh(elements, vertices)``: tetrahedra (VolumeElement) over ``vertices``
    (p_MV, in the mesh's frame M)."""

    __module__ = "mallard.geometry"
    _ELEMENT = VolumeElement
    _EMPTY = "A mesh must contain at least one tetrahedron"

    def tetrahedra(self):
        return list(self._elements)

    def CalcTetrahedronVolume(self, e):
        """The signed volume of tetrahedron ``e`` (positive when it follows the convention)."""
        p = self._corners(e)
        return float(np.linalg.det(p[1:] - p[0])) / 6.0

    def CalcVolume(self):
        return float(sum(self.CalcTetrahedronVolume(e) for e in range(len(self._elements))))

    def edge_vector(self, e, a, b):
        """p_AB_M: from vertex ``a`` to vertex ``b`` of tetrahedron ``e`` (local indices,
        0 <= a < b < 4)."""
        p = self._corners(e)
        a, b = (_checked_index(i, 4, "edge_vector()") for i in (a, b))
        if not a < b:
            raise RuntimeError(f"edge_vector(): condition '{a} < {b}' failed.")
        return p[b] - p[a]

    def inward_normal(self, e, f):
        """The unit normal of the face of tetrahedron ``e`` opposite its vertex ``f``, pointing
        inward for a tetrahedron that follows the convention."""
        p = self._corners(e)
        f = _checked_index(f, 4, "inward_normal()")
        a, b, c = (p[(f + k) % 4] for k in (1, 2, 3))
        n = np.cross(b - a, c - a) * (1.0 if f % 2 else -1.0)
        norm = np.linalg.norm(n)
        return n / norm if norm > 0.0 else n

    def CalcBarycentric(self, p_MQ, e):
        """The barycentric coordinates of Q in tetrahedron ``e`` (some negative outside it)."""
        return self._barycentric(p_MQ, e)

    def Equal(self, mesh, vertex_tolerance=0.0):
        """Whether ``mesh`` has the same tetrahedra and vertices each within
        ``vertex_tolerance`` (Euclidean distance) of this one's."""
        if not _same_elements(self, mesh) or self._p_MV.shape != mesh._p_MV.shape:
            return False
        return bool(np.all(np.linalg.norm(self._p_MV - mesh._p_MV, axis=1) <= vertex_tolerance))


def _same_elements(a, b):
    return a._indices.shape == b._indices.shape and bool(np.array_equal(a._indices, b._indices))


def bounding_box(p_MV):
    """(center, size) of the axis-aligned box of the points p_MV (rows), as Drake computes it
    (for no points: center 0, size -inf)."""
    lower = np.full(3, np.finfo(float).max)
    upper = np.full(3, -np.finfo(float).max)
    if len(p_MV):
        lower, upper = np.minimum(lower, p_MV.min(axis=0)), np.maximum(upper, p_MV.max(axis=0))
    with np.errstate(over="ignore"):
        return (upper + lower) / 2.0, upper - lower


def mesh_vertices(mesh, vertices, name):
    """The positions of the vertex indices ``vertices`` of ``mesh``, in increasing order;
    RuntimeError (naming ``name``) if there are none."""
    indices = sorted({int(v) for v in vertices})
    if not indices:
        raise RuntimeError(f"{name}(): the set of vertices is empty")
    return np.array([mesh.vertex(v) for v in indices])
