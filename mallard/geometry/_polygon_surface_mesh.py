"""PolygonSurfaceMesh (pydrake.geometry's): a surface of planar polygons, as Drake reports the
convex hull of a Mesh or Convex; and the OBJ reading and convex hull that make it.

Reading .obj files is mallard's own (vertices and faces, polygons split into triangle fans, as
Drake's reader does); the convex hull is scipy's (Qhull, the library Drake uses too), an
optional dependency (mallard[mesh]): the coplanar triangles of a hull facet are merged into one
polygon, as Drake's hulls have.
"""

import numpy as np


class SurfacePolygon:
    """One polygon of a PolygonSurfaceMesh: the indices of its vertices, counterclockwise
    seen from outside."""

    __slots__ = ("_vertices",)

    def __init__(self, vertices):
        self._vertices = tuple(int(v) for v in vertices)

    def num_vertices(self):
        return len(self._vertices)

    def vertex(self, i):
        return self._vertices[i]


class PolygonSurfaceMesh:
    """A closed surface of planar polygons (vertices p_MV in the mesh's frame M):
    ``PolygonSurfaceMesh()`` (empty) or ``PolygonSurfaceMesh(face_data, vertices)`` with
    ``face_data`` the polygons one after the other, each its vertex count then its vertex
    indices (counterclockwise seen from outside), as Drake stores them."""

    def __init__(self, face_data=(), vertices=()):
        face_data = [int(i) for i in face_data]
        polygons, k = [], 0
        while k < len(face_data):
            n = face_data[k]
            if n < 3 or k + 1 + n > len(face_data):
                raise RuntimeError(
                    f"PolygonSurfaceMesh: face_data ends inside a polygon, or a polygon has "
                    f"fewer than 3 vertices (at entry {k})"
                )
            polygons.append(face_data[k + 1 : k + 1 + n])
            k += 1 + n
        self._vertices = np.asarray(vertices, dtype=float).reshape(-1, 3)
        if any(not 0 <= v < len(self._vertices) for p in polygons for v in p):
            raise RuntimeError("PolygonSurfaceMesh: face_data names a vertex that does not exist")
        self._polygons = [SurfacePolygon(p) for p in polygons]

    @classmethod
    def _of_polygons(cls, vertices, polygons):
        """The mesh of ``vertices`` and polygons given as lists of vertex indices."""
        return cls([x for p in polygons for x in (len(p), *p)], vertices)

    def face_data(self):
        """The polygons one after the other: each its vertex count, then its vertices."""
        return [x for p in self._polygons for x in (len(p._vertices), *p._vertices)]

    def num_vertices(self):
        return len(self._vertices)

    def vertex(self, v):
        """p_MV of vertex ``v``."""
        return self._vertices[v].copy()

    def num_faces(self):
        return len(self._polygons)

    num_elements = num_faces

    def element(self, e):
        """The SurfacePolygon ``e``."""
        return self._polygons[e]

    def _fan(self, f):
        """The triangles (as vertex index triples) of polygon ``f``'s fan."""
        v = self._polygons[f]._vertices
        return [(v[0], v[i], v[i + 1]) for i in range(1, len(v) - 1)]

    def _area_vector(self, f):
        """Twice the area times the unit normal of polygon ``f`` (summed over its fan)."""
        p = self._vertices
        return sum(np.cross(p[b] - p[a], p[c] - p[a]) for a, b, c in self._fan(f))

    def area(self, f):
        return 0.5 * float(np.linalg.norm(self._area_vector(f)))

    def total_area(self):
        return sum(self.area(f) for f in range(self.num_faces()))

    def face_normal(self, f):
        """The outward unit normal of polygon ``f``."""
        n = self._area_vector(f)
        return n / np.linalg.norm(n)

    def centroid(self):
        """The area-weighted centroid of the surface (of its polygons, not of the volume)."""
        p = self._vertices
        weighted, total = np.zeros(3), 0.0
        for f in range(self.num_faces()):
            for a, b, c in self._fan(f):
                area = 0.5 * np.linalg.norm(np.cross(p[b] - p[a], p[c] - p[a]))
                weighted += area * (p[a] + p[b] + p[c]) / 3.0
                total += area
        return weighted / total

    def element_centroid(self, e):
        """The area-weighted centroid of polygon ``e``."""
        p = self._vertices
        fan = self._fan(e)
        areas = [np.linalg.norm(np.cross(p[b] - p[a], p[c] - p[a])) for a, b, c in fan]
        centers = [(p[a] + p[b] + p[c]) / 3.0 for a, b, c in fan]
        return np.average(centers, axis=0, weights=areas)

    def CalcBoundingBox(self):
        """(center, size) of the vertices' axis-aligned box, in M."""
        from mallard.geometry._element_meshes import bounding_box

        return bounding_box(self._vertices)

    def _triangles(self):
        """Every polygon's fan, as an (n, 3) index array."""
        return np.array([t for f in range(self.num_faces()) for t in self._fan(f)], dtype=int)


# ---- OBJ files ---------------------------------------------------------------------------------
def read_obj(path):
    """(vertices (n, 3), triangles (m, 3) of vertex indices) of the .obj file at ``path``:
    its ``v`` lines and its ``f`` lines (polygons as triangle fans; 1-based or negative
    indices; texture and normal indices ignored). RuntimeError if the file cannot be read or
    a face names a vertex that does not exist."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except OSError:
        raise RuntimeError(f"MemoryFile::Make() cannot read the file '{path}'.") from None
    vertices, faces = [], []
    for number, line in enumerate(lines, 1):
        fields = line.split()
        if not fields:
            continue
        try:
            if fields[0] == "v":
                vertices.append([float(x) for x in fields[1:4]])
            elif fields[0] == "f":
                face = []
                for field in fields[1:]:
                    i = int(field.split("/")[0])
                    face.append(i - 1 if i > 0 else len(vertices) + i)
                if any(not 0 <= i < len(vertices) for i in face):
                    raise ValueError("a face names a vertex that does not exist")
                faces.append(face)
        except ValueError as e:
            raise RuntimeError(
                f"{path}:{number}: cannot read the OBJ line '{line.strip()}': {e}"
            ) from None
    vertices = np.array(vertices, dtype=float).reshape(-1, 3)
    triangles = [t for face in faces for t in _triangulate(vertices, face)]
    return vertices, np.array(triangles, dtype=int).reshape(-1, 3)


def _triangulate(p, face):
    """The triangles of an OBJ polygon, as Drake's OBJ reader (tinyobjloader) makes them: a
    quad split along its shorter diagonal; a larger polygon clipped ear by ear in its
    projection on the two axes other than its normal's largest, starting at its first
    vertex. (The volume of a mesh with non-planar polygons depends on this choice.)"""
    n = len(face)
    if n <= 3:
        return [tuple(face)] if n == 3 else []
    if n == 4:
        a, b, c, d = face
        if np.sum((p[c] - p[a]) ** 2) < np.sum((p[d] - p[b]) ** 2):
            return [(a, b, c), (a, c, d)]
        return [(a, b, d), (b, c, d)]
    u, v = _projection_axes(p, face)
    remaining, guess, triangles = list(face), 0, []
    tries, size = n, n
    while len(remaining) > 3 and tries > 0:
        m = len(remaining)
        guess %= m
        tries, size = (m, m) if size != m else (tries - 1, size)
        ear = [remaining[(guess + k) % m] for k in range(3)]
        x, y = p[ear, u], p[ear, v]
        turn = (x[1] - x[0]) * (y[2] - y[1]) - (y[1] - y[0]) * (x[2] - x[1])
        if turn * (x[0] * y[1] - y[0] * x[1]) < 0 or any(
            _in_triangle(x, y, p[remaining[(guess + k) % m], u], p[remaining[(guess + k) % m], v])
            for k in range(3, m)
        ):
            guess += 1
            continue
        triangles.append(tuple(ear))
        del remaining[(guess + 1) % m]
    if len(remaining) == 3:
        triangles.append(tuple(remaining))
    return triangles


def _projection_axes(p, face):
    """The two axes (of x, y, z) to project a polygon on: those other than the largest
    component of the normal at its first corner that is not degenerate."""
    n = len(face)
    for k in range(n):
        e0 = p[face[(k + 1) % n]] - p[face[k]]
        e1 = p[face[(k + 2) % n]] - p[face[(k + 1) % n]]
        c = np.abs(np.cross(e0, e1))
        if np.any(c > np.finfo(float).eps):
            if c[0] > c[1] and c[0] > c[2]:
                return 1, 2
            return (0, 1) if c[2] > c[0] and c[2] > c[1] else (0, 2)
    return 1, 2


def _in_triangle(x, y, px, py):
    """Whether (px, py) is inside the triangle (x, y) (crossing parity)."""
    inside, j = False, 2
    for i in range(3):
        if (y[i] > py) != (y[j] > py) and px < (x[j] - x[i]) * (py - y[i]) / (y[j] - y[i]) + x[i]:
            inside = not inside
        j = i
    return inside


# ---- convex hulls ------------------------------------------------------------------------------
def convex_hull(points, description):
    """The PolygonSurfaceMesh of the convex hull of ``points`` (n, 3), its coplanar triangles
    merged into polygons. RuntimeError if the points are degenerate (fewer than four, or all
    collinear); points all on one plane give a two-sided planar polygon, as in Drake."""
    try:
        from scipy.spatial import ConvexHull, QhullError
    except ImportError:
        raise ImportError(
            f"The convex hull of {description} needs scipy (pip install 'mallard[mesh]')."
        ) from None
    points = np.asarray(points, dtype=float).reshape(-1, 3)
    if len(points) < 4:
        raise RuntimeError(
            f"Cannot compute the convex hull of {description}: it has fewer than four vertices."
        )
    planar = _planar_basis(points)
    if planar is not None:
        return _planar_hull(points, planar, description)
    try:
        hull = ConvexHull(points)
    except QhullError as e:
        raise RuntimeError(f"Cannot compute the convex hull of {description}: {e}") from None
    return _merge_coplanar(points, hull)


def _planar_basis(points):
    """(origin, u, v, n) if ``points`` lie on one plane (relative tolerance 1e-12), else None."""
    centered = points - points.mean(axis=0)
    _, s, Vt = np.linalg.svd(centered, full_matrices=False)
    if s[0] == 0 or s[2] > 1e-12 * s[0]:
        return None
    return points.mean(axis=0), Vt[0], Vt[1], Vt[2]


def _planar_hull(points, basis, description):
    from scipy.spatial import ConvexHull, QhullError

    origin, u, v, _ = basis
    uv = np.column_stack([(points - origin) @ u, (points - origin) @ v])
    try:
        hull = ConvexHull(uv)
    except QhullError:
        raise RuntimeError(
            f"Cannot compute the convex hull of {description}: its vertices are collinear."
        ) from None
    ring = list(hull.vertices)  # counterclockwise about +n for 2D hulls
    used = sorted(ring)
    index = {old: new for new, old in enumerate(used)}
    loop = [index[i] for i in ring]
    return PolygonSurfaceMesh._of_polygons(points[used], [loop, loop[::-1]])


def _merge_coplanar(points, hull):
    """Merges the triangles of each Qhull facet (identical hyperplanes) into a polygon whose
    vertices go counterclockwise about its outward normal."""
    groups = {}
    for simplex, equation in zip(hull.simplices, hull.equations, strict=True):
        groups.setdefault(tuple(np.round(equation, 12)), []).append(simplex)
    used = sorted(set(int(i) for s in hull.simplices for i in s))
    index = {old: new for new, old in enumerate(used)}
    polygons = []
    for equation, triangles in groups.items():
        normal = np.array(equation[:3])
        ring = sorted({int(i) for t in triangles for i in t})
        center = points[ring].mean(axis=0)
        axis_u = points[ring[0]] - center
        axis_u /= np.linalg.norm(axis_u)
        axis_v = np.cross(normal, axis_u)
        angles = [
            np.arctan2((points[i] - center) @ axis_v, (points[i] - center) @ axis_u) for i in ring
        ]
        polygons.append([index[ring[k]] for k in np.argsort(angles)])
    return PolygonSurfaceMesh._of_polygons(points[used], polygons)


# ---- mass properties -----------------------------------------------------------------------------
def closed_mesh_moments(vertices, triangles):
    """(volume, first moment ∫p dV, second moment ∫p pᵀ dV) of the solid a closed,
    outward-wound triangle surface encloses, about the origin of the vertices' frame
    (divergence theorem: a signed tetrahedron from the origin per triangle)."""
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    det = np.einsum("ij,ij->i", a, np.cross(b, c))
    volume = float(det.sum()) / 6.0
    first = (det[:, None] * (a + b + c)).sum(axis=0) / 24.0
    s = a + b + c
    outer = (
        np.einsum("i,ij,ik->jk", det, a, a)
        + np.einsum("i,ij,ik->jk", det, b, b)
        + np.einsum("i,ij,ik->jk", det, c, c)
        + np.einsum("i,ij,ik->jk", det, s, s)
    )
    return volume, first, outer / 120.0
