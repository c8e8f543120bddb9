"""Plane (pydrake.geometry's): the plane n̂·p = d in a frame F, with the height of a point
above it and whether a box crosses it (the test Drake's bounding volume hierarchies use)."""

import numpy as np

#: The least magnitude of a normal Plane normalizes (Drake's).
_MIN_NORMAL = 1e-10


def _vector(value, name):
    v = np.array(value, dtype=float).reshape(-1)
    if v.shape != (3,):
        raise TypeError(f"Plane: {name} must have 3 elements, got {v.shape[0]}")
    return v


class Plane:
    """``Plane(normal, point_on_plane, already_normalized=False)``: the plane in a frame F
    normal to ``normal`` (n_F, normalized unless ``already_normalized``) through
    ``point_on_plane`` (p_FP). RuntimeError if a normal to normalize has magnitude < 1e-10."""

    __module__ = "mallard.geometry"  # (its public path: pickles name it)
    __slots__ = ("_nhat_F", "_displacement")

    def __init__(self, normal, point_on_plane, already_normalized=False):
        n_F = _vector(normal, "normal")
        p_FP = _vector(point_on_plane, "point_on_plane")
        if not already_normalized:
            magnitude = float(np.linalg.norm(n_F))
            if magnitude < _MIN_NORMAL:  # (NaN passes, as in Drake)
                raise RuntimeError(
                    f"Cannot instantiate plane from normal n_F = {_eigen(n_F)}; its magnitude "
                    f"is too small: {magnitude:g}"
                )
            n_F = n_F / magnitude
        self._nhat_F = n_F
        self._displacement = float(n_F @ p_FP)

    def __getstate__(self):
        return self._nhat_F, self.reference_point()

    def __setstate__(self, state):
        self.__init__(state[0], state[1], already_normalized=True)

    def unit_normal(self):
        """n̂_F: the plane's unit normal, expressed in F."""
        return self._nhat_F.copy()

    def reference_point(self):
        """A point on the plane (p_FP = d·n̂), measured and expressed in F."""
        return self._displacement * self._nhat_F

    def CalcHeight(self, point):
        """The height of point Q (p_FQ) above the plane: positive on the side n̂ points to."""
        return float(self._nhat_F @ _vector(point, "point") - self._displacement)

    def BoxOverlaps(self, half_width, box_center_in_plane, box_orientation_in_plane):
        """Whether a box of ``half_width`` along the axes of its frame B, centered at
        ``box_center_in_plane`` (p_PBo) with orientation ``box_orientation_in_plane`` (R_PB),
        has a point on the plane (P is this plane's frame)."""
        R_PB = box_orientation_in_plane.matrix()
        height = self.CalcHeight(box_center_in_plane)
        reach = np.abs(R_PB.T @ self._nhat_F) @ _vector(half_width, "half_width")
        return bool(abs(height) <= reach)

    def __repr__(self):
        return (
            f"Plane(normal={self._nhat_F.tolist()}, "
            f"point_on_plane={self.reference_point().tolist()}, already_normalized=True)"
        )


def _eigen(v):
    """A vector as Eigen prints it in Drake's messages: [x y z]."""
    return "[" + " ".join(f"{x:g}" for x in v) + "]"
