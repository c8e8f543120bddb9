"""Sample arguments for every kernel, for the compiled-versus-interpreted test.

Each entry maps a kernel's qualified name to a function of a numpy Generator returning the
argument tuple (arrays and scalars; outputs included). Every kernel registered in
``mallard.multibody._kernels.REGISTRY`` must have an entry here.
"""

import numpy as np

_K = "mallard.multibody._kernels."


def _rotation(rng):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def _sym(rng):
    A = rng.normal(size=(3, 3))
    return A @ A.T


CASES = {
    _K + "spatial.cross": lambda r: (r.normal(size=3), r.normal(size=3), np.empty(3)),
    _K + "spatial.rotate": lambda r: (_rotation(r), r.normal(size=3), np.empty(3)),
    _K + "spatial.rotate_transpose": lambda r: (_rotation(r), r.normal(size=3), np.empty(3)),
    _K + "spatial.compose_rotations": lambda r: (_rotation(r), _rotation(r), np.empty((3, 3))),
    _K + "spatial.compose_poses": lambda r: (
        _rotation(r), r.normal(size=3), _rotation(r), r.normal(size=3),
        np.empty((3, 3)), np.empty(3),
    ),
    _K + "spatial.invert_pose": lambda r: (
        _rotation(r), r.normal(size=3), np.empty((3, 3)), np.empty(3)
    ),
    _K + "spatial.rotate_spatial": lambda r: (_rotation(r), r.normal(size=6), np.empty(6)),
    _K + "spatial.shift_motion": lambda r: (r.normal(size=6), r.normal(size=3), np.empty(6)),
    _K + "spatial.shift_force": lambda r: (r.normal(size=6), r.normal(size=3), np.empty(6)),
    _K + "spatial.cross_motion": lambda r: (r.normal(size=6), r.normal(size=6), np.empty(6)),
    _K + "spatial.cross_force": lambda r: (r.normal(size=6), r.normal(size=6), np.empty(6)),
    _K + "spatial.spatial_inertia_times": lambda r: (
        1.7, r.normal(size=3), _sym(r), r.normal(size=6), np.empty(6)
    ),
    _K + "spatial.reexpress_unit_inertia": lambda r: (_rotation(r), _sym(r), np.empty((3, 3))),
    _K + "spatial.shift_unit_inertia": lambda r: (
        r.normal(size=3), _sym(r), r.normal(size=3), np.empty((3, 3))
    ),
    _K + "rotation.rotation_from_quaternion": lambda r: (r.normal(size=4), np.empty((3, 3))),
    _K + "rotation.rotation_about_axis": lambda r: (
        np.array([0.6, 0.0, 0.8]), 0.9, np.empty((3, 3))
    ),
    _K + "rotation.rotation_from_rpy": lambda r: (r.normal(size=3), np.empty((3, 3))),
}
