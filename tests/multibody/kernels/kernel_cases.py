"""Sample arguments for every kernel, for the compiled-versus-interpreted test.

Each entry maps a kernel's qualified name to a function of a numpy Generator returning the
argument tuple (arrays and scalars; outputs included). Every kernel registered in
``mallard.multibody._kernels.REGISTRY`` must have an entry here.
"""

import numpy as np

from mallard.multibody._kernels.lanes import L
from mallard.multibody._layout import R_PF_IDENTITY, X_MB_IDENTITY, sin_cos_width

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


def _rotation_pose(rng):
    """A random pose as a 4×3 array [R; pᵀ]."""
    return np.vstack((_rotation(rng), rng.normal(size=(1, 3))))


def _sym(rng):
    A = rng.normal(size=(3, 3))
    return A @ A.T


def _spd(rng, n):
    A = rng.normal(size=(n, n))
    return A @ A.T + n * np.eye(n)


def _lcp_args(rng):
    """A 4-row mixed LCP (one equality row) with active and inactive rows at the solution."""
    m = 4
    return (
        _spd(rng, m),
        np.array([-1.0, 2.0, -0.5, 0.3]),
        np.array([False, False, False, True]),
        np.zeros(m),
        np.zeros(m, dtype=np.int64),
        np.zeros((m, m)),
        np.zeros((m, m)),
        np.zeros((m, 1)),
    )


def _projection_args(rng):
    """A 4-velocity projection on the 4 rows of _lcp_args (one velocity locked)."""
    n, m = 4, 4
    W, r, equality = _lcp_args(rng)[:3]
    return (
        _spd(rng, n),
        rng.normal(size=(m, n)),
        r,
        equality,
        np.array([1, 1, 0, 1], dtype=np.int64),
        rng.normal(size=n),
        np.zeros((n, m)),
        np.zeros((n, n)),
        np.zeros((m, m)),
        np.zeros(m),
        np.zeros(m, dtype=np.int64),
        np.zeros((m, m)),
        np.zeros((m, m)),
        np.zeros((m, 1)),
        np.zeros(n),
    )


def _tree(rng):
    """A 5-mobod tree (World, revolute, reversed universal, quaternion floating, screw) with
    random frame offsets and state: (tree, jparam, X_PF_MB, X_kind, q, v, nv). The screw's X_PF
    is a translation and its X_MB the identity (flagged in X_kind)."""
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
    jparam[1, :3] = [0.0, -1.0, 0.0]  # a revolute mobilizer turns about ±e_i
    jparam[4] = [0.48, 0.6, 0.64, 0.3]
    X_PF_MB = np.empty((2, 5, 4, 3))
    for layer in range(2):
        for k in range(5):
            X_PF_MB[layer, k, :3] = _rotation(rng)
            X_PF_MB[layer, k, 3] = rng.normal(size=3)
    X_PF_MB[0, 4, :3] = np.eye(3)
    X_PF_MB[1, 4] = np.vstack((np.eye(3), np.zeros(3)))
    X_kind = np.zeros(5)
    X_kind[4] = R_PF_IDENTITY | X_MB_IDENTITY
    q = rng.normal(size=11)
    v = rng.normal(size=10)
    return tree, jparam, X_PF_MB, X_kind, q, v, 10


def _position_kinematics_args(rng):
    tree, jparam, X_PF_MB, X_kind, q, _, nv = _tree(rng)
    X_pc = np.zeros((4, 5, 4, 3))
    X_pc[:, 0, :3] = np.eye(3)
    H_PB_W, H_FM = np.zeros((nv, 6)), np.zeros((6, 6))
    sc = np.zeros((3, sin_cos_width(q.shape[0])))
    return tree, jparam, X_PF_MB, X_kind, q, X_pc, H_PB_W, H_FM, 2, 0, np.zeros(5), sc  # (ALL)


def _lane_args(rng):
    """(mi, ws0, row): a flat model, its workspace, and a row of a batched workspace with
    room for lanes."""
    from mallard.multibody._kernels.batch import lane_scratch_size

    mi, ws0, row = _batch_row(rng)
    row = np.concatenate((row, rng.normal(size=lane_scratch_size(mi))))
    return mi, ws0, row


def _lane_row_args(rng):
    """(mi, ws0, lanes): a flat model, its workspace and a random lane row (L lanes)."""
    from mallard.multibody._kernels.batch import lane_scratch_size

    mi, ws0, _ = _lane_args(rng)
    return mi, ws0, rng.normal(size=(lane_scratch_size(mi) // L, L))


def _velocity_kinematics_args(rng):
    from mallard._compiled import compiled
    from mallard.multibody._kernels.kinematics import calc_position_kinematics

    args = _position_kinematics_args(rng)
    compiled(calc_position_kinematics)(*args)
    tree, _, _, _, _, X_pc, H_PB_W, *_ = args
    return tree, X_pc, H_PB_W, rng.normal(size=H_PB_W.shape[0]), np.zeros((5, 6))


def _dynamics_args(rng):
    """Kinematics of the sample tree and random body inertias: (tree, jparam, q, v, X_pc,
    H_PB_W, V_WB, m_W, h_W, I_W)."""
    from mallard._compiled import compiled
    from mallard.multibody._kernels.kinematics import calc_velocity_kinematics

    tree, jparam, _, _, q, _, _ = _tree(rng)
    args = _position_kinematics_args(rng)
    q = args[4]
    from mallard.multibody._kernels.kinematics import calc_position_kinematics

    compiled(calc_position_kinematics)(*args)
    X_pc, H_PB_W = args[5], args[6]
    v = rng.normal(size=H_PB_W.shape[0])
    V_WB = np.zeros((5, 6))
    compiled(calc_velocity_kinematics)(tree, X_pc, H_PB_W, v, V_WB)
    m_W = rng.uniform(0.5, 2.0, size=5)
    h_W = rng.normal(size=(5, 3)) * 0.1
    I_W = np.array([_sym(rng) + 3 * np.eye(3) for _ in range(5)])
    return tree, jparam, q, v, X_pc, H_PB_W, V_WB, m_W, h_W, I_W


def _bias_args(rng):
    tree, jparam, q, v, X_pc, _, V_WB, *_ = _dynamics_args(rng)
    return tree, jparam, q, v, X_pc, V_WB, np.zeros((5, 6)), np.zeros(12)


def _abias(rng):
    tree, jparam, q, v, X_pc, H_PB_W, V_WB, m_W, h_W, I_W = _dynamics_args(rng)
    return tree, X_pc, H_PB_W, V_WB, rng.normal(size=(5, 6)), m_W, h_W, I_W


def _inverse_dynamics_args(rng):
    tree, X_pc, H_PB_W, V_WB, A_bias, m_W, h_W, I_W = _abias(rng)
    nv = H_PB_W.shape[0]
    return (
        tree,
        X_pc,
        H_PB_W,
        V_WB,
        A_bias,
        m_W,
        h_W,
        I_W,
        rng.normal(size=nv),
        rng.normal(size=(5, 6)),
        rng.normal(size=nv),
        np.zeros((5, 6)),
        np.zeros((5, 6)),
        np.zeros(nv),
    )


def _forward_dynamics_args(rng):
    tree, X_pc, H_PB_W, V_WB, A_bias, m_W, h_W, I_W = _abias(rng)
    nv = H_PB_W.shape[0]
    locked = np.zeros(5, dtype=np.int64)
    locked[2] = 1
    return (
        tree,
        X_pc,
        H_PB_W,
        V_WB,
        A_bias,
        m_W,
        h_W,
        I_W,
        rng.normal(size=nv),
        rng.normal(size=(5, 6)),
        rng.uniform(0, 1, size=nv),
        locked,
        np.zeros((5, 6, 6)),
        np.zeros((5, 6)),
        np.zeros((nv, 6)),
        np.zeros((5, 6, 6)),
        np.zeros(nv),
        np.zeros(nv),
        np.zeros((5, 6)),
    )


def _mass_matrix_args(rng):
    tree, X_pc, H_PB_W, _, _, m_W, h_W, I_W = _abias(rng)
    nv = H_PB_W.shape[0]
    return (
        tree,
        np.array([nv, 3, 3, nv, nv]),  # (the dofs of each mobod's subtree end there)
        X_pc,
        H_PB_W,
        m_W,
        h_W,
        I_W,
        rng.uniform(0, 1, size=nv),
        np.zeros(5),
        np.zeros((5, 3)),
        np.zeros((5, 3, 3)),
        np.zeros((nv, 6)),
        np.zeros((6, nv)),
        np.zeros((nv, nv)),
    )


def _pose_tuple(rng):
    """A random pose as a 12-tuple (see kernels.pose)."""
    X = _rotation_pose(rng)
    return tuple(X[:3].reshape(-1)) + tuple(X[3])


def _engine_args(rng):
    """(mi, mf, x, ws) of a plant with revolute, prismatic, ball, universal and free joints
    (some reversed, locked, actuated, damped), at a random state."""
    from mallard.math import RigidTransform, RollPitchYaw
    from mallard.multibody.plant import MultibodyPlant
    from mallard.multibody.tree import (
        BallRpyJoint,
        FixedOffsetFrame,
        PrismaticJoint,
        RevoluteJoint,
        SpatialInertia,
        UniversalJoint,
    )

    plant = MultibodyPlant(0.0)
    bodies = [
        plant.AddRigidBody(f"b{i}", SpatialInertia.SolidBoxWithMass(1.0 + i, 0.3, 0.2, 0.1))
        for i in range(6)
    ]

    def frame(body, name):
        X = RigidTransform(RollPitchYaw(*rng.normal(size=3)), rng.normal(size=3))
        return plant.AddFrame(FixedOffsetFrame(name, body.body_frame(), X))

    j0 = plant.AddJoint(
        RevoluteJoint("j0", plant.world_frame(), frame(bodies[0], "c0"), [0, 0.6, 0.8], damping=0.3)
    )
    plant.AddJoint(PrismaticJoint("j1", frame(bodies[0], "p1"), frame(bodies[1], "c1"), [1, 0, 0]))
    plant.AddJoint(BallRpyJoint("j2", frame(bodies[1], "p2"), frame(bodies[2], "c2")))
    plant.AddJoint(UniversalJoint("j3", frame(bodies[2], "p3"), frame(bodies[3], "c3")))
    plant.AddJoint(
        RevoluteJoint("j4", frame(bodies[4], "c4"), frame(bodies[3], "p4"), [1, 0, 0])
    )  # reversed: b4 hangs from b3
    a = plant.AddJointActuator("a0", j0)
    a.set_default_rotor_inertia(0.2)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    q = plant.GetPositions(context) + rng.normal(size=plant.num_positions()) * 0.3
    plant.SetPositions(context, q)
    plant.SetVelocities(context, rng.normal(size=plant.num_velocities()))
    ec = plant._engine(context)
    model = plant._engine_model
    return model.mi, model.mf, plant._x(context).copy(), ec.ws.copy(), plant


def _driver_args(rng, *extra):
    mi, mf, x, ws, plant = _engine_args(rng)
    return (mi, mf, x, ws, 15) + tuple(f(plant, rng) for f in extra)


def _with_parameters(args):
    """A driver's arguments (mi, mf, x, ws, ...) with ws passed twice: as the parameters'
    workspace and the state's."""
    return (*args[:4], args[3], *args[4:])


def _vdot(plant, rng):
    return rng.normal(size=plant.num_velocities())


def _body_forces(plant, rng):
    return rng.normal(size=(plant.num_bodies(), 6))


def _actuation(plant, rng):
    return rng.normal(size=plant.num_actuated_dofs())


def _batch_args(rng, size=5, chunks=2):
    """(mi, mf, ws0, Q, V, wss, plant) for the batched entry points: the sample plant's flat
    model and workspace, ``size`` random states near the sample's and ``chunks`` rows."""
    from mallard.multibody._kernels.batch import scratch_size

    mi, mf, x, ws, plant = _engine_args(rng)
    nq, nv = plant.num_positions(), plant.num_velocities()
    Q = x[:nq] + 0.3 * rng.normal(size=(size, nq))
    V = rng.normal(size=(size, nv))
    wss = np.zeros((chunks, ws.shape[0] + scratch_size(mi)))
    return mi, mf, ws, Q, V, wss, plant


def _batch_case(name):
    """The argument tuple of batched entry point ``name`` (see kernels.batch)."""

    def case(rng):
        from mallard.multibody._kernels.batch import lane_scratch_size

        mi, mf, ws0, Q, V, wss, plant = _batch_args(rng)
        size, nv, nu = Q.shape[0], plant.num_velocities(), plant.num_actuated_dofs()
        n = plant.num_bodies()
        if name == "batch_body_poses":
            wss = np.zeros((wss.shape[0], wss.shape[1] + lane_scratch_size(mi)))
            return mi, mf, ws0, Q, wss, np.zeros((size, n, 4, 4))
        if name == "batch_mass_matrix":
            wss = np.zeros((wss.shape[0], wss.shape[1] + lane_scratch_size(mi)))
            return mi, mf, ws0, Q, wss, np.zeros((size, nv, nv))
        if name == "batch_inverse_dynamics":
            wss = np.zeros((wss.shape[0], wss.shape[1] + lane_scratch_size(mi)))
            vdot, tau = rng.normal(size=(size, nv)), rng.normal(size=(size, nv))
            return mi, mf, ws0, Q, V, vdot, tau, wss, np.zeros((size, nv))
        if name == "batch_forward_dynamics":
            wss = np.zeros((wss.shape[0], wss.shape[1] + lane_scratch_size(mi)))
            tau, u = rng.normal(size=(size, nv)), rng.normal(size=(size, nu))
            status = np.zeros(size, dtype=np.int64)
            return mi, mf, ws0, Q, V, tau, u, wss, np.zeros((size, nv)), status
        k, X_BF, P = 3, _rotation_pose(rng), rng.normal(size=(size, 3))
        wss = np.zeros((wss.shape[0], wss.shape[1] + lane_scratch_size(mi)))
        return mi, mf, ws0, Q, k, X_BF, P, wss, np.zeros((size, 6, nv))

    return case


def _batch_row(rng):
    """(mi, ws0, row): a flat model, its workspace and a row of a batched workspace."""
    mi, _, ws0, _, _, wss, _ = _batch_args(rng)
    return mi, ws0, rng.normal(size=wss.shape[1])


def _stages_done(rng):
    """(mi, mf, x, ws, plant) of the sample plant with every stage of ws up to date."""
    from mallard._compiled import compiled
    from mallard.multibody._kernels.engine import drive_stages

    mi, mf, x, ws, plant = _engine_args(rng)
    compiled(drive_stages)(mi, mf, x, ws, 15)
    return mi, mf, x, ws, plant


def _gravity_args(rng):
    """(mi, ws, ws, F_B) with the inertias stage of the sample workspace up to date (ws: the
    parameters' workspace and the state's)."""
    from mallard._compiled import compiled
    from mallard.multibody._kernels.engine import drive_stages

    mi, mf, x, ws, plant = _engine_args(rng)
    compiled(drive_stages)(mi, mf, x, ws, 15)
    return mi, ws, ws, rng.normal(size=(plant.num_bodies(), 6))


def _derivative_args(rng):
    """The arguments of the derivative kernels at the sample plant's state, its stages and
    primal Newton–Euler pass computed: a dict."""
    from mallard.multibody import _layout as L
    from mallard._compiled import compiled
    from mallard.multibody._kernels.derivatives import dws_size
    from mallard.multibody._kernels.engine import drive_stages
    from mallard.multibody._kernels.engine_derivatives import _inverse_dynamics_derivatives

    mi, mf, x, ws, plant = _engine_args(rng)
    n, nq, nv = int(mi[L.N]), plant.num_positions(), plant.num_velocities()
    compiled(drive_stages)(mi, mf, x, ws, 15)
    vdot, F_B = _vdot(plant, rng), _body_forces(plant, rng)
    dws = np.zeros(dws_size(n, nv))
    compiled(_inverse_dynamics_derivatives)(
        mi, mf, x, ws, vdot, F_B, dws, np.zeros((nv, nq)), np.zeros((nv, nv))
    )

    def view(section, *shape):
        o = int(mi[L.OFFSETS + section])
        return ws[o : o + int(np.prod(shape))].reshape(shape)

    ec = plant._engine_model
    tree = mi[mi[L.TREE] : mi[L.TREE] + 6 * n].reshape((n, 6))
    return dict(
        mi=mi, mf=mf, x=x, ws=ws, plant=plant, n=n, nq=nq, nv=nv, vdot=vdot, F_B=F_B, dws=dws,
        tree=tree, jparam=ec.mf[: 4 * n].reshape((n, 4)), q=x[:nq], v=x[nq:],
        X_pc=view(L.S_X_PC, 4, n, 4, 3), H=view(L.S_H_PB_W, nv, 6), V=view(L.S_V_WB, n, 6),
        m=view(L.S_M_W, n), h=view(L.S_H_W, n, 3), I=view(L.S_I_W, n, 3, 3),
        g=view(L.S_G_W, 3), mask=mi[mi[L.GRAVITY_MASK] : mi[L.GRAVITY_MASK] + n],
        damping=view(L.S_DAMPING, nv), M=view(L.S_M, nv, nv),
    )  # fmt: skip


def _tangent_case(which):
    """Arguments of derivatives.calc_sweep_constants, calc_inverse_dynamics_tangents (the q
    directions) or calc_inverse_dynamics_derivatives."""

    def case(rng):
        from mallard.multibody._kernels import derivatives as D

        a = _derivative_args(rng)
        n, nq, nv, dws = a["n"], a["nq"], a["nv"], a["dws"]
        common = (
            a["tree"], a["jparam"], a["q"], a["v"], a["vdot"], a["X_pc"], a["H"], a["V"],
            a["m"], a["h"], a["I"], a["g"], a["mask"],
        )  # fmt: skip
        active = np.zeros(n, dtype=np.int64)
        if which == "constants":
            A_WB = D.dws_block(dws, n, nv, D.S_A_WB).copy()
            K, HJ = np.zeros((n, 18)), np.zeros((nv, 12))
            return a["tree"], a["X_pc"], a["H"], a["V"], a["I"], a["h"], A_WB, K, HJ
        if which == "tangent":
            sections = (D.S_A_WB, D.S_F, D.S_K, D.S_HJ, D.S_DP_B, D.S_DV, D.S_DA, D.S_DF, D.S_DH)
            views = [D.dws_block(dws, n, nv, s).copy() for s in sections]
            views.insert(4, active)
            views += [np.zeros((6, 6)), np.zeros((6, 6)), np.zeros((6, 7))]
            views += [np.zeros(6) for _ in range(4)]
            return common + (1,) + tuple(views) + (np.zeros((nv, nq)),)
        dq, dv = np.zeros((nv, nq)), np.zeros((nv, nv))
        return common + (a["damping"], active, dws, dq, dv)

    return case


def _derivative_driver_case(which):
    def case(rng):
        a = _derivative_args(rng)
        nq, nv = a["nq"], a["nv"]
        head = (a["mi"], a["mf"], a["x"], a["ws"])
        outputs = (a["dws"], np.zeros((nv, nq)), np.zeros((nv, nv)))
        if which == "inner":
            return head + (a["vdot"], a["F_B"]) + outputs
        if which == "inverse":
            return head + (15, a["vdot"], a["F_B"]) + outputs
        u, tau = _actuation(a["plant"], rng), _vdot(a["plant"], rng)
        return head + (15, u, tau, a["F_B"]) + outputs + (np.zeros((nv, nv)),)

    return case


def _derivative_batch_case(which):
    def case(rng):
        from mallard.multibody._kernels.derivatives import dws_size

        mi, mf, ws0, Q, V, wss, plant = _batch_args(rng)
        size, nq, nv = Q.shape[0], plant.num_positions(), plant.num_velocities()
        extra = dws_size(len(plant._mobods), nv)
        wss = np.zeros((wss.shape[0], wss.shape[1] + extra))
        dq, dv, M = np.zeros((size, nv, nq)), np.zeros((size, nv, nv)), np.zeros((size, nv, nv))
        if which == "inverse":
            return mi, mf, ws0, Q, V, rng.normal(size=(size, nv)), wss, dq, dv, M
        tau, u = rng.normal(size=(size, nv)), rng.normal(size=(size, plant.num_actuated_dofs()))
        status = np.zeros(size, dtype=np.int64)
        return mi, mf, ws0, Q, V, tau, u, wss, dq, dv, M, status

    return case


CASES = {
    _K + "spatial.cross": lambda r: (r.normal(size=3), r.normal(size=3), np.empty(3)),
    _K + "spatial.rotate": lambda r: (_rotation(r), r.normal(size=3), np.empty(3)),
    _K + "spatial.rotate_transpose": lambda r: (_rotation(r), r.normal(size=3), np.empty(3)),
    _K + "spatial.compose_rotations": lambda r: (_rotation(r), _rotation(r), np.empty((3, 3))),
    _K + "spatial.compose_poses": lambda r: (
        _rotation(r),
        r.normal(size=3),
        _rotation(r),
        r.normal(size=3),
        np.empty((3, 3)),
        np.empty(3),
    ),
    _K + "spatial.invert_pose": lambda r: (
        _rotation(r),
        r.normal(size=3),
        np.empty((3, 3)),
        np.empty(3),
    ),
    _K + "spatial.rotate_spatial": lambda r: (_rotation(r), r.normal(size=6), np.empty(6)),
    _K + "spatial.shift_motion": lambda r: (r.normal(size=6), r.normal(size=3), np.empty(6)),
    _K + "spatial.shift_force": lambda r: (r.normal(size=6), r.normal(size=3), np.empty(6)),
    _K + "spatial.cross_motion": lambda r: (r.normal(size=6), r.normal(size=6), np.empty(6)),
    _K + "spatial.cross_force": lambda r: (r.normal(size=6), r.normal(size=6), np.empty(6)),
    _K + "spatial.spatial_inertia_times": lambda r: (
        1.7,
        r.normal(size=3),
        _sym(r),
        r.normal(size=6),
        np.empty(6),
    ),
    _K + "spatial.reexpress_unit_inertia": lambda r: (_rotation(r), _sym(r), np.empty((3, 3))),
    _K + "spatial.shift_unit_inertia": lambda r: (
        r.normal(size=3),
        _sym(r),
        r.normal(size=3),
        np.empty((3, 3)),
    ),
    _K + "rotation.rotation_from_quaternion": lambda r: (r.normal(size=4), np.empty((3, 3))),
    _K + "rotation.rotation_about_axis": lambda r: (
        np.array([0.6, 0.0, 0.8]),
        0.9,
        np.empty((3, 3)),
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
    _K + "kinematics._across_mobilizer_column": lambda r: (
        np.array([1, 4, 1, 1, 1, 2]),
        _pose_tuple(r),
        _pose_tuple(r),
        _pose_tuple(r),
        tuple(r.normal(size=6)),
        np.zeros((4, 6)),
        2,
    ),
    _K + "kinematics._axis_column": lambda r: (
        np.array([1, 1, 0, 2, 1, 2]),
        True,
        tuple(r.normal(size=3)),
        _pose_tuple(r),
        _pose_tuple(r),
        np.zeros((4, 6)),
    ),
    _K + "kinematics._quaternion_X_FM": lambda r: (r.normal(size=9), 1),
    _K + "kinematics._revolute_X_WM": lambda r: (
        _pose_tuple(r),
        np.cos(0.7),
        np.sin(0.7),
        np.array([-1.0, 0.0, 0.0, 0.0]),
        True,
    ),
    _K + "kinematics._path": lambda r: (_tree(r)[0], 4, np.zeros(5)),
    _K + "kinematics._prismatic_X_FM": lambda r: (np.array([0.0, 0.6, 0.8, 0.0]), 0.7),
    _K + "kinematics.calc_velocity_kinematics": _velocity_kinematics_args,
    _K + "dynamics.calc_acceleration_bias": _bias_args,
    _K + "dynamics._across_mobilizer_bias": lambda r: (
        1,
        _rotation_pose(r),
        _rotation_pose(r),
        _rotation_pose(r),
        r.normal(size=6),
        r.normal(size=6),
    ),
    _K + "dynamics.calc_spatial_accelerations": lambda r: (
        lambda a: (a[0], a[1], a[2], a[4], r.normal(size=a[2].shape[0]), np.zeros((5, 6)))
    )(_abias(r)),
    _K + "dynamics._compose_acceleration": lambda r: (
        lambda a: (a[0], a[1], a[4], r.normal(size=(5, 6)), 3)
    )(_abias(r)),
    _K + "dynamics.calc_body_inertias": lambda r: (
        lambda a: (
            a[0],
            a[4],
            r.uniform(1, 2, 5),
            r.normal(size=(5, 3)),
            np.array([_sym(r) for _ in range(5)]),
            np.zeros(5),
            np.zeros((5, 3)),
            np.zeros((5, 3, 3)),
        )
    )(_dynamics_args(r)),
    _K + "dynamics._bias_force": lambda r: (1.5, r.normal(size=3), _sym(r), r.normal(size=6)),
    _K + "dynamics._shift_force_to_parent": lambda r: (
        lambda a: (a[0], a[1], r.normal(size=(5, 6)), 4)
    )(_abias(r)),
    _K + "dynamics._project": lambda r: (
        lambda a: (a[0], a[2], r.normal(size=(5, 6)), 2, np.zeros(a[2].shape[0]))
    )(_abias(r)),
    _K + "dynamics.calc_generalized_forces": lambda r: (
        lambda a: (
            a[0],
            a[1],
            a[2],
            r.normal(size=(5, 6)),
            np.zeros((5, 6)),
            np.zeros(a[2].shape[0]),
        )
    )(_abias(r)),
    _K + "dynamics.calc_inverse_dynamics": _inverse_dynamics_args,
    _K + "dynamics.calc_mass_matrix": _mass_matrix_args,
    _K + "dynamics.calc_forward_dynamics": _forward_dynamics_args,
    _K + "dynamics._p_PoBo": lambda r: (_abias(r)[1], 3, 0),
    _K + "dynamics._unsigned": lambda r: (7,),
    _K + "trig.sin_cos_polynomial": lambda r: (r.uniform(-20.0, 20.0),),
    _K + "trig._pad": lambda r: (r.normal(size=5), np.zeros((3, 32))),
    _K + "kinematics._in_main_loop": lambda r: (4,),
    _K + "engine._gravity_force": lambda r: (
        r.uniform(0.5, 2.0, size=3),
        r.normal(size=(3, 3)),
        r.normal(size=3),
        1,
    ),
    "mallard.multibody._layout.sin_cos_width": lambda r: (33,),
    _K + "dynamics._row6": lambda r: (r.normal(size=(5, 6)), 2),
    _K + "dynamics._dot6": lambda r: (r.normal(size=6), r.normal(size=6)),
    _K + "dynamics._body_force": lambda r: (
        lambda a: (
            a[5],
            a[6],
            a[7],
            a[3],
            r.normal(size=(5, 6)),
            3,
            tuple(r.normal(size=3)),
            tuple(r.normal(size=3)),
        )
    )(_abias(r)),
    _K + "dynamics._load_articulated": lambda r: (r.normal(size=(5, 6, 6)), 2),
    _K + "dynamics._store_articulated": lambda r: (
        tuple(r.normal(size=21)),
        np.zeros((5, 6, 6)),
        2,
    ),
    _K + "dynamics._add_articulated": lambda r: (
        tuple(r.normal(size=21)),
        r.normal(size=(5, 6, 6)),
        2,
    ),
    _K + "dynamics._rigid_articulated": lambda r: (1.5, r.normal(size=3), _sym(r)),
    _K + "dynamics._articulated_times": lambda r: (tuple(r.normal(size=21)), r.normal(size=6)),
    _K + "dynamics._remove_dof": lambda r: (
        tuple(r.normal(size=21)),
        tuple(r.normal(size=6)),
        tuple(r.normal(size=6)),
    ),
    _K + "dynamics._shift_articulated": lambda r: (
        tuple(r.normal(size=21)),
        tuple(r.normal(size=3)),
    ),
    _K + "dynamics.calc_qdot": lambda r: (lambda t: (t[0], t[1], t[4], t[5], np.zeros(11)))(
        _tree(r)
    ),
    _K + "dynamics._shift_to_parent": lambda r: (r.normal(size=6), tuple(r.normal(size=3))),
    _K + "dynamics._add6": lambda r: (r.normal(size=6), r.normal(size=6)),
    _K + "dynamics._axpy6": lambda r: (1.3, r.normal(size=6), r.normal(size=6)),
    _K + "jacobians.calc_point_jacobian": lambda r: (
        lambda a: (a[0], a[1], a[2], 4, r.normal(size=3), np.zeros((6, a[2].shape[0])))
    )(_abias(r)),
    _K + "vec3.load": lambda r: (r.normal(size=3),),
    _K + "vec3.add": lambda r: (r.normal(size=3), r.normal(size=3)),
    _K + "vec3.sub": lambda r: (r.normal(size=3), r.normal(size=3)),
    _K + "vec3.scale": lambda r: (1.7, r.normal(size=3)),
    _K + "vec3.cross3": lambda r: (r.normal(size=3), r.normal(size=3)),
    _K + "vec3.dot3": lambda r: (r.normal(size=3), r.normal(size=3)),
    _K + "vec3.mat_vec": lambda r: (_rotation(r), r.normal(size=3)),
    _K + "vec3.store": lambda r: (r.normal(size=3), np.zeros(3)),
    _K + "vec3.store_add": lambda r: (r.normal(size=3), r.normal(size=3)),
    _K + "vec3.row3": lambda r: (r.normal(size=(4, 6)), 2, 3),
    _K + "vec3.store_row3": lambda r: (tuple(r.normal(size=3)), np.zeros((4, 6)), 2, 3),
    _K + "vec3.add_row3": lambda r: (tuple(r.normal(size=3)), r.normal(size=(4, 6)), 2, 3),
    _K + "vec3.sym_vec": lambda r: (tuple(r.normal(size=6)), r.normal(size=3)),
    _K + "engine._v1": lambda r: (np.arange(12, dtype=np.int64), r.normal(size=30), 1, 3),
    _K + "engine._v2": lambda r: (np.arange(12, dtype=np.int64), r.normal(size=30), 1, 2, 3),
    _K + "engine._v3": lambda r: (np.arange(12, dtype=np.int64), r.normal(size=30), 1, 2, 2, 2),
    _K + "engine._v4": lambda r: (np.arange(12, dtype=np.int64), r.normal(size=30), 1, 2, 2, 2, 2),
    _K + "engine._tree": lambda r: (_engine_args(r)[0],),
    _K + "engine._jparam": lambda r: _engine_args(r)[:2],
    _K + "engine.run_stages": lambda r: _with_parameters(_driver_args(r)),
    _K + "engine.drive_stages": lambda r: _driver_args(r),
    _K + "engine.drive_poses": lambda r: _driver_args(r)[:4],
    _K + "engine._position_kinematics": lambda r: (
        lambda a: (*a[:4], a[3], 1, 0)  # (COLUMNS)
    )(_driver_args(r)),
    _K + "engine.body_inertias": lambda r: (lambda a: (a[0], a[3], a[3]))(_stages_done(r)),
    _K + "engine.drive_mass_matrix": lambda r: _driver_args(r),
    _K + "engine.mass_matrix_into": lambda r: (
        lambda a: (a[0], a[3], a[3], np.zeros((a[4].num_velocities(),) * 2))
    )(_stages_done(r)),
    _K + "engine._gather_body_forces": lambda r: (
        _tree(r)[0],
        r.normal(size=(5, 6)),
        np.zeros((5, 6)),
    ),
    _K + "engine._gravity_body_forces": _gravity_args,
    _K + "engine.add_gravity_forces": _gravity_args,
    _K + "engine.drive_force_elements": lambda r: _with_parameters(
        _driver_args(r, _body_forces, _vdot)
    ),
    _K + "engine.drive_inverse_dynamics": lambda r: _with_parameters(
        _driver_args(r, _vdot, _vdot, _body_forces)
    ),
    _K + "engine.drive_forward_dynamics": lambda r: _with_parameters(
        _driver_args(r, _actuation, _vdot, _body_forces)
    ),
    _K + "engine.drive_point_jacobian": lambda r: (
        _driver_args(r) + (3, _rotation_pose(r), r.normal(size=3))
    ),
    _K + "engine.point_jacobian_into": lambda r: (
        lambda a: (
            a[0],
            a[3],
            3,
            _rotation_pose(r),
            r.normal(size=3),
            np.zeros((6, a[4].num_velocities())),
        )
    )(_stages_done(r)),  # fmt: skip
    _K + "engine.copy_if_finite": lambda r: (r.normal(size=3), np.zeros(5), 2),
    _K + "batch._chunk_start": lambda r: (3, 4, 10),
    _K + "batch._begin_chunk": _batch_row,
    _K + "batch._fill": lambda r: (r.normal(size=5), 0.5),
    _K + "batch.scratch_size": lambda r: (_batch_row(r)[0],),
    _K + "batch._part": lambda r: (lambda a: (a[0], a[2], 3))(_batch_row(r)),
    _K + "batch._load_state": lambda r: (
        lambda a: (a[0], a[3], a[4], 2, np.zeros(a[3].shape[1] + a[4].shape[1]))
    )(_batch_args(r)),
    _K + "batch._load_inputs": lambda r: (
        r.normal(size=(3, 4)),
        np.zeros((0, 2)),
        1,
        np.zeros(4),
        r.normal(size=2),
    ),
    _K + "batch.batch_body_poses": _batch_case("batch_body_poses"),
    _K + "batch._lane_row": lambda r: (*_lane_args(r)[::2], 1),
    _K + "batch._begin_lanes": _lane_row_args,
    _K + "batch._load_lanes": lambda r: (r.normal(size=(3, 5)), 1, 3, r.normal(size=(6, L)), True),
    _K + "batch._store_lane_matrix": lambda r: (
        r.normal(size=(5, 6, L)),
        np.zeros((4, 5, 6)),
        1,
        3,
    ),
    _K + "batch.batch_mass_matrix": _batch_case("batch_mass_matrix"),
    _K + "batch.batch_inverse_dynamics": _batch_case("batch_inverse_dynamics"),
    _K + "batch.batch_forward_dynamics": _batch_case("batch_forward_dynamics"),
    _K + "batch.batch_point_jacobian": _batch_case("batch_point_jacobian"),
    _K + "lcp.solve_mixed_lcp": _lcp_args,
    _K + "lcp.constraint_residuals": lambda r: (
        r.normal(size=(3, 4)),
        r.normal(size=(3, 3)),
        np.array([0, 1, 2], dtype=np.int64),
        np.array([0, 3, 1], dtype=np.int64),
        r.normal(size=4),
        1e-3,
        r.normal(size=4),
        np.zeros(3),
    ),
    _K + "lcp.project_velocities": _projection_args,
    _K + "pose.load_pose": lambda r: (_rotation_pose(r),),
    _K + "pose.store_pose": lambda r: (_pose_tuple(r), np.zeros((4, 3))),
    _K + "pose.pose_mul": lambda r: (_pose_tuple(r), _pose_tuple(r)),
    _K + "pose.pose_inv": lambda r: (_pose_tuple(r),),
    _K + "pose.pose_mul_translation": lambda r: (
        _pose_tuple(r),
        (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0) + tuple(r.normal(size=3)),
    ),
    _K + "pose.rotate3": lambda r: (_pose_tuple(r), r.normal(size=3)),
    _K + "pose.position": lambda r: (_pose_tuple(r),),
    _K + "derivatives.dws_block": lambda r: (r.normal(size=500), 5, 4, 12),
    _K + "derivatives._joint_tangent": lambda r: (
        4,
        np.zeros(4),
        r.normal(size=2),
        r.normal(size=2),
        1,
        0,
        np.zeros((6, 6)),
        np.zeros((6, 6)),
        np.zeros(6),
        np.zeros(6),
    ),
    _K + "derivatives._across_mobilizer_bias_tangent": lambda r: (
        1,
        _rotation_pose(r),
        _rotation_pose(r),
        _rotation_pose(r),
        r.normal(size=6),
        r.normal(size=6),
        r.normal(size=6),
        r.normal(size=6),
        tuple(r.normal(size=3)),
        tuple(r.normal(size=3)),
        tuple(r.normal(size=3)),
        tuple(r.normal(size=3)),
        tuple(r.normal(size=3)),
    ),
    _K + "derivatives._owner": lambda r: (_tree(r)[0], 1, 5),
    _K + "derivatives._origin": lambda r: (r.normal(size=(4, 3, 4, 3)), 2, 1),
    _K + "derivatives._inertia_times": lambda r: (r.normal(size=(3, 3, 3)), 1, (0.5, -1.0, 2.0)),
    _K + "derivatives.calc_sweep_constants": _tangent_case("constants"),
    _K + "derivatives.calc_inverse_dynamics_tangents": _tangent_case("tangent"),
    _K + "derivatives.calc_inverse_dynamics_derivatives": _tangent_case("derivatives"),
    _K + "dense.cholesky_factor": lambda r: (
        _spd(r, 4),
        np.array([1, 0, 1, 1], dtype=np.int64),
        np.zeros((4, 4)),
    ),
    _K + "dense.cholesky_solve": lambda r: (
        np.linalg.cholesky(_spd(r, 4)),
        np.array([1, 1, 0, 1], dtype=np.int64),
        r.normal(size=(4, 3)),
        -1.0,
    ),
    _K + "engine_derivatives._inverse_dynamics_derivatives": _derivative_driver_case("inner"),
    _K + "engine_derivatives.drive_inverse_dynamics_derivatives": _derivative_driver_case(
        "inverse"
    ),
    _K + "engine_derivatives.drive_forward_dynamics_derivatives": _derivative_driver_case(
        "forward"
    ),
    _K + "batch._past_scratch": lambda r: (lambda a: (a[0], a[2]))(_batch_row(r)),
    _K + "batch.batch_inverse_dynamics_derivatives": _derivative_batch_case("inverse"),
    _K + "batch.batch_forward_dynamics_derivatives": _derivative_batch_case("forward"),
}

#: Workspace arguments not compared (by position): the batched entry points' rows hold lanes
#: of L states compiled and of one interpreted (kernels.lane_views.lane_width), so their
#: layouts differ; their results are compared.
UNCOMPARED = {
    _K + "batch.batch_body_poses": 4,
    _K + "batch.batch_mass_matrix": 4,
    _K + "batch.batch_inverse_dynamics": 7,
    _K + "batch.batch_forward_dynamics": 7,
    _K + "batch.batch_point_jacobian": 7,
}
