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



def _tree(rng):
    """A 5-mobod tree (World, revolute, reversed universal, quaternion floating, screw) with
    random frame offsets and state: (tree, jparam, X_PF_MB, q, v, nv)."""
    tree = np.array(
        [
            [0, 0, 0, 0, 0, 0],
            [0, 1, 0, 0, 0, 1],
            [1, 4, 1, 1, 1, 2],
            [0, 8, 3, 3, 0, 3],
            [3, 3, 10, 9, 0, 4],
        ],
        dtype=np.int64,
    )
    jparam = np.zeros((5, 4))
    jparam[1, :3] = [0.0, 0.6, 0.8]
    jparam[4] = [0.48, 0.6, 0.64, 0.3]
    X_PF_MB = np.empty((2, 5, 4, 3))
    for layer in range(2):
        for k in range(5):
            X_PF_MB[layer, k, :3] = _rotation(rng)
            X_PF_MB[layer, k, 3] = rng.normal(size=3)
    q = rng.normal(size=11)
    v = rng.normal(size=10)
    return tree, jparam, X_PF_MB, q, v, 10


def _position_kinematics_args(rng):
    tree, jparam, X_PF_MB, q, _, nv = _tree(rng)
    X_pc = np.zeros((4, 5, 4, 3))
    X_pc[:, 0, :3] = np.eye(3)
    return tree, jparam, X_PF_MB, q, X_pc, np.zeros((nv, 6)), np.zeros((6, 6))


def _velocity_kinematics_args(rng):
    from mallard.multibody._kernels import compiled
    from mallard.multibody._kernels.kinematics import calc_position_kinematics

    args = _position_kinematics_args(rng)
    compiled(calc_position_kinematics)(*args)
    tree, _, _, _, X_pc, H_PB_W, _ = args
    return tree, X_pc, H_PB_W, rng.normal(size=H_PB_W.shape[0]), np.zeros((5, 6))

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
    _K + "mobilizers.num_positions": lambda r: (8,),
    _K + "mobilizers.num_velocities": lambda r: (8,),
    _K + "mobilizers.set_zero_configuration": lambda r: (8, np.empty(7)),
    _K + "mobilizers.calc_X_FM": lambda r: (
        8,
        np.zeros(4),
        np.r_[2.0 * r.normal(size=4), r.normal(size=3)],
        np.empty((3, 3)),
        np.empty(3),
    ),
    _K + "mobilizers.calc_H_FM": lambda r: (4, np.zeros(4), r.normal(size=2), np.empty((6, 2))),
    _K + "mobilizers.calc_V_FM": lambda r: (
        3,
        np.array([0.6, 0.0, 0.8, 0.4]),
        r.normal(size=1),
        r.normal(size=1),
        np.empty(6),
    ),
    _K + "mobilizers.calc_A_FM_bias": lambda r: (
        4,
        np.zeros(4),
        r.normal(size=2),
        r.normal(size=2),
        np.empty(6),
    ),
    _K + "mobilizers.calc_tau_from_F": lambda r: (
        3,
        np.array([0.6, 0.0, 0.8, -0.7]),
        r.normal(size=1),
        r.normal(size=6),
        np.empty(1),
    ),
    _K + "mobilizers.calc_qdot_from_v": lambda r: (
        8,
        np.zeros(4),
        r.normal(size=7),
        r.normal(size=6),
        np.empty(7),
    ),
    _K + "mobilizers.calc_v_from_qdot": lambda r: (
        7,
        np.zeros(4),
        r.normal(size=6),
        r.normal(size=6),
        np.empty(6),
    ),
    _K + "mobilizers.calc_N": lambda r: (7, np.zeros(4), r.normal(size=6), np.empty((6, 6))),
    _K + "mobilizers.calc_Nplus": lambda r: (8, np.zeros(4), r.normal(size=7), np.empty((6, 7))),
    _K + "mobilizers._rpy_rates_from_w": lambda r: (
        r.normal(size=3),
        r.normal(size=3),
        np.empty(3),
    ),
    _K + "mobilizers._set_identity": lambda r: (np.empty((3, 3)),),
    _K + "kinematics.calc_position_kinematics": _position_kinematics_args,
    _K + "kinematics._across_mobilizer_jacobian": lambda r: (
        lambda a: (a[0][2], a[1][2], a[3], a[4][1, 2], a[4][2, 2], a[4][3, 2], a[5], a[6])
    )(_position_kinematics_args(r)),
    _K + "kinematics.calc_velocity_kinematics": _velocity_kinematics_args,
}
