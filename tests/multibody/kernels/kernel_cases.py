"""Sample arguments for every kernel entry point (mallard._compiled), for the
compiled-versus-interpreted test.

Each entry maps an entry point's name to a function of a numpy Generator returning its
argument tuple (arrays and scalars; outputs included). Every entry point must have an entry
here. The kernels an entry point calls are compiled into it, so this covers them all; the
helpers with unit tests of their own (mobilizers, trig, lanes, spatial algebra) are also
compiled alone there.
"""

import numpy as np

from mallard.multibody._layout import (
    BIAS,
    INERTIAS,
    LANES,
    PARAMETERS,
    POSITIONS,
    VELOCITIES,
    WORKSPACE,
)
from tests.geometry.kernel_cases import GEOMETRY_CASES  # noqa: E402

ALL = POSITIONS | VELOCITIES | INERTIAS | BIAS


def _spd(rng, n):
    A = rng.normal(size=(n, n))
    return A @ A.T + n * np.eye(n)


def _rotation_pose(rng):
    """A random pose as a 4×3 array [R; pᵀ]."""
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    R = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )
    return np.vstack((R, rng.normal(size=(1, 3))))


def _lcp_args(rng):
    """A 4-row mixed LCP (one equality row) with active and inactive rows at the solution."""
    return _spd(rng, 4), np.array([-1.0, 2.0, -0.5, 0.3]), np.array([False, False, False, True])


def _projection_args(rng):
    """A 4-velocity projection on the 4 rows of _lcp_args (one velocity locked)."""
    n, m = 4, 4
    W, r, equality = _lcp_args(rng)
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


class Sample:
    """A plant with revolute, prismatic, ball, universal, reversed and free joints (one
    actuated with a rotor inertia, one damped) at a random state: its flat model (mi, mf,
    sizes), x, and a Context's workspace ws (parameters set, no stage computed)."""

    def __init__(self, rng):
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
            RevoluteJoint(
                "j0", plant.world_frame(), frame(bodies[0], "c0"), [0, 0.6, 0.8], damping=0.3
            )
        )
        plant.AddJoint(
            PrismaticJoint("j1", frame(bodies[0], "p1"), frame(bodies[1], "c1"), [1, 0, 0])
        )
        plant.AddJoint(BallRpyJoint("j2", frame(bodies[1], "p2"), frame(bodies[2], "c2")))
        plant.AddJoint(UniversalJoint("j3", frame(bodies[2], "p3"), frame(bodies[3], "c3")))
        plant.AddJoint(
            RevoluteJoint("j4", frame(bodies[4], "c4"), frame(bodies[3], "p4"), [1, 0, 0])
        )  # reversed: b4 hangs from b3; b5 is free
        plant.AddJointActuator("a0", j0).set_default_rotor_inertia(0.2)
        plant.Finalize()
        context = plant.CreateDefaultContext()
        q = plant.GetPositions(context) + rng.normal(size=plant.num_positions()) * 0.3
        plant.SetPositions(context, q)
        plant.SetVelocities(context, rng.normal(size=plant.num_velocities()))
        model = plant._engine
        self.mi, self.mf, self.sizes = model.mi, model.mf, model.sizes
        self.x = plant.GetPositionsAndVelocities(context)
        self.ws = plant._engine.cache(context).ws.copy()
        self.rng = rng

    def staged(self):
        """ws with every stage up to date."""
        from mallard._compiled import kernels

        ws = self.ws.copy()
        kernels(np.float64).drive_stages(self.mi, self.mf, self.x, ws, ALL)
        return ws

    def views(self, ws):
        return PARAMETERS.views(ws, self.sizes), WORKSPACE.views(ws, self.sizes)

    def normal(self, *shape):
        return self.rng.normal(size=shape)

    def head(self, need=ALL):
        """(mi, mf, x, ws, need) of a driver."""
        return self.mi, self.mf, self.x, self.ws, need

    def batch(self, size=5, chunks=2, extra=None):
        """(Q, V, wss) for the batched entry points: ``size`` states near the sample's and
        ``chunks`` rows (with room for the lanes, or ``extra`` scalars)."""
        s = self.sizes
        Q = self.x[: s.nq] + 0.3 * self.normal(size, s.nq)
        V = self.normal(size, s.nv)
        extra = LANES * s.lane if extra is None else extra
        return Q, V, np.zeros((chunks, s.row + extra))


def _driver(*tail):
    """A driver's case: the sample's (mi, mf, x, ws, need) then ``tail(sample)``."""
    return lambda rng: (lambda s: s.head() + tail[0](s))(Sample(rng))


def _staged(tail):
    """A case on the staged workspace: (mi, mf, ws) then ``tail(sample, ws)``."""

    def case(rng):
        s = Sample(rng)
        ws = s.staged()
        return (s.mi, s.mf, ws) + tail(s, ws)

    return case


def _newton_euler(s, ws):
    _, work = s.views(ws)
    n, nv = s.sizes.n, s.sizes.nv
    return (
        work.V_WB.copy(),
        work.A_bias.copy(),
        s.normal(nv),
        s.normal(n, 6),
        s.normal(nv),
        np.zeros((n, 6)),
        np.zeros((n, 6)),
        np.zeros(nv),
    )


def _articulated_body(s, ws):
    params, _ = s.views(ws)
    params.locked[3] = 1.0
    n, nv = s.sizes.n, s.sizes.nv
    diagonal = s.rng.uniform(0, 1, size=nv)
    return s.normal(nv), s.normal(n, 6), diagonal, np.zeros(nv), np.zeros((n, 6))


def _coordinates(name):
    def case(rng):
        s = Sample(rng)
        nq, nv = s.sizes.nq, s.sizes.nv
        q = s.x[:nq]
        if name == "drive_qdot":
            return s.mi, s.mf, q, s.normal(nv), np.zeros(nq)
        if name == "drive_v":
            return s.mi, s.mf, q, s.normal(nq), np.zeros(nv)
        if name == "drive_N":
            return s.mi, s.mf, q, np.zeros((nq, nv))
        return s.mi, s.mf, q, np.zeros((nv, nq))

    return case


def _derivatives(which):
    def case(rng):
        s = Sample(rng)
        nq, nv, n = s.sizes.nq, s.sizes.nv, s.sizes.n
        dws = np.zeros(s.sizes.dws)
        if which == "inverse":
            return s.head() + (
                s.normal(nv),
                s.normal(n, 6),
                dws,
                np.zeros((nv, nq)),
                np.zeros((nv, nv)),
            )
        return s.head() + (
            s.normal(s.sizes.nu),
            s.normal(nv),
            s.normal(n, 6),
            dws,
            np.zeros((nv, nq)),
            np.zeros((nv, nv)),
            np.zeros((nv, nv)),
        )

    return case


def _batch(name):
    """The arguments of batched entry point ``name`` (see kernels.batch)."""

    def case(rng):
        s = Sample(rng)
        nq, nv, nu, n = s.sizes.nq, s.sizes.nv, s.sizes.nu, s.sizes.n
        head = (s.mi, s.mf, s.ws)
        Q, V, wss = s.batch()
        size = Q.shape[0]
        if name == "batch_body_poses":
            return head + (Q, wss, np.zeros((size, n, 4, 4)))
        if name == "batch_mass_matrix":
            return head + (Q, wss, np.zeros((size, nv, nv)))
        if name == "batch_inverse_dynamics":
            return head + (Q, V, s.normal(size, nv), s.normal(size, nv), wss, np.zeros((size, nv)))
        if name == "batch_forward_dynamics":
            tau, u = s.normal(size, nv), s.normal(size, nu)
            status = np.zeros(size, dtype=np.int64)
            return head + (Q, V, tau, u, wss, np.zeros((size, nv)), status)
        if name == "batch_point_jacobian":
            P = s.normal(size, 3)
            return head + (Q, 3, _rotation_pose(rng), P, wss, np.zeros((size, 6, nv)))
        Q, V, wss = s.batch(extra=s.sizes.dws)
        if name == "batch_inverse_dynamics_derivatives":
            outputs = (np.zeros((size, nv, nq)), np.zeros((size, nv, nv)), np.zeros((size, nv, nv)))
            return head + (Q, V, s.normal(size, nv), wss) + outputs
        tau, u = s.normal(size, nv), s.normal(size, nu)
        outputs = (np.zeros((size, nv, nq)), np.zeros((size, nv, nv)), np.zeros((size, nv, nv)))
        return head + (Q, V, tau, u, wss) + outputs + (np.zeros(size, dtype=np.int64),)

    return case


def _combine(rng):
    m, size = 3, 7
    return np.zeros(size), rng.normal(size=size), rng.normal(size=(m, size)), rng.normal(size=m)


CASES = {
    "drive_stages": _driver(lambda s: ()),
    "drive_poses": lambda rng: Sample(rng).head()[:4],
    "drive_mass_matrix": _driver(lambda s: ()),
    "drive_inverse_dynamics": _driver(
        lambda s: (s.normal(s.sizes.nv), s.normal(s.sizes.nv), s.normal(s.sizes.n, 6))
    ),
    "drive_force_elements": _driver(lambda s: (np.zeros((s.sizes.n, 6)), np.zeros(s.sizes.nv))),
    "drive_forward_dynamics": _driver(
        lambda s: (s.normal(s.sizes.nu), s.normal(s.sizes.nv), s.normal(s.sizes.n, 6))
    ),
    "drive_point_jacobian": _driver(lambda s: (3, _rotation_pose(s.rng), s.normal(3))),
    "drive_point_jacobians": _staged(
        lambda s, ws: (3, s.normal(2, 3), np.zeros((2, 6, s.sizes.nv)))
    ),
    "drive_gravity_body_forces": _staged(lambda s, ws: (np.zeros((s.sizes.n, 6)),)),
    "drive_newton_euler": _staged(_newton_euler),
    "drive_articulated_body": _staged(_articulated_body),
    "drive_spatial_accelerations": _staged(
        lambda s, ws: (s.normal(s.sizes.nv), np.zeros((s.sizes.n, 6)))
    ),
    "drive_generalized_forces": _staged(
        lambda s, ws: (s.normal(s.sizes.n, 6), np.zeros((s.sizes.n, 6)), np.zeros(s.sizes.nv))
    ),
    "drive_qdot": _coordinates("drive_qdot"),
    "drive_v": _coordinates("drive_v"),
    "drive_N": _coordinates("drive_N"),
    "drive_Nplus": _coordinates("drive_Nplus"),
    "copy_if_finite": lambda r: (r.normal(size=3), np.zeros(5), 1),
    "drive_inverse_dynamics_derivatives": _derivatives("inverse"),
    "drive_forward_dynamics_derivatives": _derivatives("forward"),
    "batch_body_poses": _batch("batch_body_poses"),
    "batch_mass_matrix": _batch("batch_mass_matrix"),
    "batch_inverse_dynamics": _batch("batch_inverse_dynamics"),
    "batch_forward_dynamics": _batch("batch_forward_dynamics"),
    "batch_point_jacobian": _batch("batch_point_jacobian"),
    "batch_inverse_dynamics_derivatives": _batch("batch_inverse_dynamics_derivatives"),
    "batch_forward_dynamics_derivatives": _batch("batch_forward_dynamics_derivatives"),
    "constraint_residuals": lambda r: (
        r.normal(size=(3, 4)),
        r.normal(size=(3, 3)),
        np.array([0, 1, 2], dtype=np.int64),
        np.array([0, 3, 1], dtype=np.int64),
        r.normal(size=4),
        1e-3,
        r.normal(size=4),
        np.zeros(3),
    ),
    "project_velocities": _projection_args,
    "combine": lambda r: _combine(r) + (3, False),
    "combine_error": lambda r: (lambda a: (a[0], a[2], a[3], 3))(_combine(r)),
    "rk3_error": lambda r: (np.zeros(7), r.normal(size=7), r.normal(size=7), r.normal(size=7), 0.1),
    "weighted_max_abs": lambda r: (r.normal(size=7), r.uniform(0, 1, size=7)),
}

CASES.update(GEOMETRY_CASES)  # (the proximity queries' entry points)

#: Workspace arguments not compared (by position): the batched entry points' rows hold lanes
#: of L states compiled and of one interpreted (kernels.lane_views.lane_width), so their
#: layouts differ; their results are compared.
UNCOMPARED = {
    "batch_body_poses": 4,
    "batch_mass_matrix": 4,
    "batch_inverse_dynamics": 7,
    "batch_forward_dynamics": 7,
    "batch_point_jacobian": 7,
}
