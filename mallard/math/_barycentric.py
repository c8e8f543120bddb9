"""BarycentricMesh: interpolation on a grid, over the simplices of its Kuhn triangulation
(n + 1 mesh points for n non-singleton dimensions)."""

import bisect

import numpy as np

from mallard._scalar import as_array


class BarycentricMesh:
    """``BarycentricMesh(input_grid)``: the grid of the points whose i-th coordinate is one of
    ``input_grid[i]`` (a set of floats). Mesh point j has its coordinate of dimension 0 vary
    fastest. Inputs outside the grid are projected onto it."""

    def __init__(self, input_grid):
        grid = [sorted({float(x) for x in coordinates}) for coordinates in input_grid]
        if not grid:
            raise RuntimeError("BarycentricMesh: the grid must have at least one dimension")
        if any(not coordinates for coordinates in grid):
            raise RuntimeError("BarycentricMesh: every dimension needs at least one value")
        self._grid = grid
        self._stride = []
        stride = 1
        for coordinates in grid:
            self._stride.append(stride)
            stride *= len(coordinates)
        self._num_points = stride
        self._num_interpolants = 1 + sum(len(c) > 1 for c in grid)

    def get_input_grid(self):
        return [set(c) for c in self._grid]

    def get_input_size(self):
        return len(self._grid)

    def get_num_mesh_points(self):
        return self._num_points

    def get_num_interpolants(self):
        return self._num_interpolants

    def get_mesh_point(self, index):
        """The coordinates of mesh point ``index``."""
        index = int(index)
        if not 0 <= index < self._num_points:
            raise RuntimeError(
                f"BarycentricMesh: there is no mesh point {index} (there are {self._num_points})"
            )
        point = np.empty(len(self._grid))
        for i, coordinates in enumerate(self._grid):
            index, j = divmod(index, len(coordinates))
            point[i] = coordinates[j]
        return point

    def get_all_mesh_points(self):
        """Every mesh point, one per column."""
        return np.column_stack([self.get_mesh_point(j) for j in range(self._num_points)])

    def _input(self, input):
        x = as_array(input, name="input").reshape(-1)
        if x.size != len(self._grid):
            raise RuntimeError(
                f"BarycentricMesh: the input must have {len(self._grid)} elements, got {x.size}"
            )
        return x

    def EvalBarycentricWeights(self, input):
        """(mesh point indices, weights) of the simplex containing ``input``."""
        x = self._input(input)
        positions = []  # (fraction in [0, 1], dimension)
        inside = {}
        corner = 0  # the simplex's corner with every coordinate at its cell's upper end
        for i, coordinates in enumerate(self._grid):
            if len(coordinates) == 1:
                continue
            right = bisect.bisect_left(coordinates, x[i])
            if right == len(coordinates) or right == 0:
                inside[i] = False
                right = min(right, len(coordinates) - 1)
                fraction = 1.0
            else:
                inside[i] = True
                left_value, right_value = coordinates[right - 1], coordinates[right]
                fraction = (x[i] - left_value) / (right_value - left_value)
            positions.append((fraction, i))
            corner += self._stride[i] * right
        positions.sort()
        m = self._num_interpolants
        indices = np.empty(m, dtype=np.int32)
        weights = np.empty(m)
        indices[0] = corner
        weights[0] = positions[0][0] if positions else 1.0
        for k in range(1, m):
            dimension = positions[k - 1][1]
            if inside[dimension]:
                corner -= self._stride[dimension]
            indices[k] = corner
            if k == m - 1:
                weights[k] = 1.0 - positions[k - 1][0]
            else:
                weights[k] = positions[k][0] - positions[k - 1][0]
        return indices, weights

    def Eval(self, mesh_values, input):
        """The interpolated value at ``input`` of ``mesh_values`` (one column per mesh
        point)."""
        values = as_array(mesh_values, name="mesh_values")
        values = values.reshape(1, -1) if values.ndim == 1 else values
        if values.shape[1] != self._num_points:
            raise RuntimeError(
                f"BarycentricMesh.Eval(): mesh_values must have {self._num_points} columns, "
                f"got {values.shape[1]}"
            )
        indices, weights = self.EvalBarycentricWeights(input)
        output = weights[0] * values[:, indices[0]]
        for k in range(1, len(indices)):
            output = output + weights[k] * values[:, indices[k]]
        return output

    def MeshValuesFrom(self, vector_func):
        """The matrix of ``vector_func`` (a vector function) at every mesh point, one column
        per point."""
        columns = [
            np.asarray(vector_func(self.get_mesh_point(j)), dtype=float).reshape(-1)
            for j in range(self._num_points)
        ]
        return np.column_stack(columns)
