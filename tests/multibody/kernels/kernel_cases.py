"""Sample arguments for every kernel entry point (mallard._compiled), for the
compiled-versus-interpreted test.

Each entry maps an entry point's name to a function of a numpy Generator returning its
argument tuple (arrays and scalars; outputs included). Every entry point must have an entry
here (an entry point of several modes one per mode, named ``entry_point[mode]``). The
kernels an entry point calls are compiled into it, so this covers them all; the helpers
with unit tests of their own (mobilizers, trig, lanes, spatial algebra) are also compiled
alone there.
"""

import numpy as np

from mallard.multibody._layout import (
    BIAS,
    INERTIAS,
    PARAMETERS,
    POSITIONS,
    VELOCITIES,
    WORKSPACE,
)
from mallard.multibody._layout import lanes as compiled_lanes
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


def _sap_args(rng, solve):
    """A SAP problem of 4 velocities in two cliques (one velocity locked), built by
    sap_add_joint_constraints: two limits (one with both rows), a PD controller and a coupler;
    ``solve``: its solve's arguments, else its build's."""
    from mallard.multibody import _layout
    from mallard.multibody.plant._sap_driver import SapProblem

    sizes = _layout.SapSizes(4, 15, 7)
    problem = SapProblem(
        sizes, 1e-2, np.array([0, 0, 1, 1]), np.array([0, 0, 0, 1], dtype=np.int64)
    )
    w = problem.work
    w.v_star[:] = [0.9, -0.4, 0.3, 0.1]
    q, v0 = np.array([0.499, -0.0005, 0.2, 0.0]), np.array([1.0, -0.3, 0.2, 0.1])
    build = (
        problem.si,
        problem.sw,
        q,
        v0,
        np.array([[0, 0, 0], [1, 1, 0]], dtype=np.int64),
        np.array([[-0.5, 0.5], [-0.001, 0.0005]]),
        np.array([[2, 2, 1]], dtype=np.int64),
        np.array([[30.0, 3.0, 0.5, 0.4, 0.0, 0.1]]),
        np.array([[1, 2, 1, 2, 0, 1]], dtype=np.int64),
        np.array([[1.5, 0.01]]),
    )
    if not solve:
        return build
    from mallard._compiled import kernels

    for contact in _contact_args(rng, problem):
        kernels(np.float64).sap_add_contact_constraints(*contact)
    kernels(np.float64).sap_add_joint_constraints(*build)
    w.v[:] = v0
    return problem.si, problem.sw, _spd(rng, 4), rng.uniform(0, 0.1, size=4)


def _solver():
    """The address of SAP's compiled solver (kernels.sap.solve), compiled; 0 interpreted."""
    from mallard._compiled import kernels

    return ByMode(kernels(np.float64).address("sap_solve_at"), 0)


def _epa():
    """The address of EPA compiled once (kernels.epa.penetration_depth), compiled; 0
    interpreted."""
    from mallard._compiled import kernels

    return ByMode(kernels(np.float64).address("epa_at"), 0)


def _pairs():
    """The addresses of the compiled pair kernel and penetration (kernels.discrete_step.
    find_point_pairs), compiled; (0, 0) interpreted."""
    from mallard._compiled import kernels

    k = kernels(np.float64)
    return ByMode((k.address("point_pairs_at"), k.address("penetration_at")), (0, 0))


def _step_velocities():
    """The address of the discrete step's velocities compiled once
    (kernels.step_velocities.sap_velocities_at), compiled; 0 interpreted."""
    from mallard._compiled import kernels

    return ByMode(kernels(np.float64).address("sap_velocities_at"), 0)


def _forward_dynamics():
    """The address of forward dynamics compiled once
    (kernels.engine_by_address.forward_dynamics_at), compiled; 0 interpreted."""
    from mallard._compiled import kernels

    return ByMode(kernels(np.float64).address("forward_dynamics_at"), 0)


def _stages():
    """The address of the stages compiled once (kernels.engine.stages_at), compiled; 0
    interpreted."""
    from mallard._compiled import kernels

    return ByMode(kernels(np.float64).address("stages_at"), 0)


def _step_block(tables):
    """drive_discrete_steps' ``block`` for the tables (joints, geometry, found): compiled,
    STEP_BLOCK int64s holding them (kernels.step_velocities.hold_tables); interpreted, the
    tables."""
    from mallard._compiled import kernels
    from mallard.multibody._kernels.step_velocities import STEP_BLOCK

    block = np.zeros(STEP_BLOCK, dtype=np.int64)
    kernels(np.float64).hold_tables(block, *tables)
    return ByMode(block, tables)


def _tamsi_args(rng):
    """tamsi_step's arguments: 4 velocities, 3 contacts (pressed, sliding and separating:
    fn0 = 20, 5 and 0 N), 1 ms; then the outputs and scratch."""
    nv, nc = 4, 3
    M = _spd(rng, nv)
    J = rng.normal(size=(3 * nc, nv))
    minus_tau = rng.normal(size=nv) * 10.0
    v0 = rng.normal(size=nv) * 0.1
    fn0 = np.array([20.0, 5.0, 0.0])
    stiffness, dissipation, mu = np.full(nc, 1e4), np.array([10.0, 0.0, 5.0]), np.full(nc, 0.5)
    scratch = (np.zeros(nv), np.zeros(3 * nc), np.zeros((nv, nv)), np.zeros((4, nv)),
               np.zeros((nc, 16)))  # fmt: skip
    return (M, J, minus_tau, v0, fn0, stiffness, dissipation, mu, 1e-3, 1e-4) + scratch


def _contact_args(rng, problem):
    """sap_add_contact_constraints' arguments for ``problem`` (4 velocities in cliques 0, 0,
    1, 1): a friction cone contact across both cliques, then a lagged and a similar
    Hunt–Crossley contact (one clique each)."""
    from mallard.multibody._layout import SAP_FRICTION_CONE, SAP_HUNT_CROSSLEY

    cone = np.array([[0.5, 1e4, 0.1, 1.0, 1e-3, 0, 0, 0, 0, 0]])
    hunt_crossley = np.array([[1.0, 0.5, 1e4, 10.0, 1e-4, 1e-3, 2.0, -0.1, 0, 0],
                              [0.0, 0.6, 1e4, 10.0, 1e-4, 1e-3, 3.0, 0.05, 0, 0]])  # fmt: skip
    return (
        (problem.si, problem.sw, SAP_FRICTION_CONE, np.array([[0, 1]], dtype=np.int64),
         rng.normal(size=(3, 4)), np.array([-1e-3]), cone),
        (problem.si, problem.sw, SAP_HUNT_CROSSLEY, np.array([[0, -1], [1, -1]], dtype=np.int64),
         rng.normal(size=(6, 4)), np.array([-2e-4, -3e-4]), hunt_crossley),
    )  # fmt: skip


def _sap_problem(nv, nk, nc):
    """An empty SapProblem (h = 0.01) of ``nv`` velocities in cliques 0, 0, 1, 1, ..."""
    from mallard.multibody import _layout
    from mallard.multibody.plant._sap_driver import SapProblem

    clique = np.arange(nv) // 2
    return SapProblem(_layout.SapSizes(nv, nk, nc), 1e-2, clique, np.zeros(nv, dtype=np.int64))


def _holonomic_args(rng):
    """sap_add_holonomic_constraints' arguments: three constraints (3, 1 and 2 rows; one
    across two cliques) appended to an empty problem of 4 velocities."""
    from mallard.multibody import _layout
    from mallard.multibody.plant._sap_driver import SapProblem

    problem = SapProblem(
        _layout.SapSizes(4, 6, 3), 1e-2, np.array([0, 0, 1, 1]), np.zeros(4, dtype=np.int64)
    )
    rows = np.array([[3, 0, 1], [1, 1, -1], [2, 0, -1]], dtype=np.int64)
    par = np.array([[-np.inf, np.inf, np.inf, 0.0, 0.1], [-np.inf, np.inf, 1e3, 0.01, 0.1],
                    [0.0, np.inf, 1e4, 0.0, 0.1]])  # fmt: skip
    return problem.si, problem.sw, rows, rng.normal(size=(6, 4)), rng.normal(size=6), par


def _body_constraints(s):
    """drive_body_constraints' arguments after the driver's head: a ball, a distance and a
    weld constraint (the weld to World) between the sample's mobods."""
    from mallard.multibody._layout import BALL_CONSTRAINT, DISTANCE_CONSTRAINT, WELD_CONSTRAINT

    table = np.array(
        [[BALL_CONSTRAINT, 1, 3, 0], [DISTANCE_CONSTRAINT, 2, 5, 3], [WELD_CONSTRAINT, 4, 0, 4]],
        dtype=np.int64,
    )
    X = np.array([[_rotation_pose(s.rng), _rotation_pose(s.rng)] for _ in range(3)])
    nv, nk = s.sizes.nv, 10
    outputs = (np.zeros((2, 6, nv)), np.zeros((nk, nv)), np.zeros(nk), np.zeros((nk, 2, 6)))
    return (table, X, np.array([0.0, 1e-3, 0.0])) + outputs


def _point_contact(s):
    """drive_point_contact's arguments after the driver's head: 12 pairs between the sample's
    bodies and World (some with a negative normal force, slip speeds on every branch of the
    Stribeck curve), then the outputs."""
    n, nb = 12, s.sizes.n
    bodies = s.rng.integers(0, nb, size=(n, 4)).astype(np.int64)
    nhat = s.normal(n, 3)
    nhat /= np.linalg.norm(nhat, axis=1)[:, None]
    pairs = np.hstack((s.rng.uniform(0, 0.01, (n, 1)), nhat, s.normal(n, 3), s.normal(n, 3)))
    par = np.column_stack((
        s.rng.uniform(1e3, 1e5, n), s.rng.uniform(0, 5, n), np.full(n, 0.8), np.full(n, 0.5)
    ))  # fmt: skip
    outputs = (np.zeros((n, 8)), np.zeros(n, dtype=np.int64), np.zeros((nb, 6)))
    return (bodies, pairs, par, 1.0 / 0.7) + outputs


def _contact_pairs(rng):
    """contact_pairs' arguments: 7 pairs among 5 geometries (one with zero stiffness and
    friction, as a pair of them), then the outputs."""
    values = np.column_stack((rng.uniform(1e3, 1e5, 5), rng.uniform(0, 50, 5),
                              rng.uniform(0.2, 1, 5), rng.uniform(0.1, 0.2, 5),
                              rng.uniform(0, 0.1, 5)))  # fmt: skip
    values[4, :4] = 0.0
    ab = np.array([[0, 1], [0, 2], [1, 3], [2, 4], [3, 4], [4, 4], [1, 2]], dtype=np.int64)
    body = np.array([1, 2, 3, 0, 4], dtype=np.int64)
    mobod = np.array([1, 3, 2, 0, 4], dtype=np.int64)
    return ab, body, mobod, values, np.zeros((7, 4), dtype=np.int64), np.zeros((7, 7))


class Sample:
    """A plant with revolute, prismatic, ball, universal, reversed and free joints (one
    actuated with a rotor inertia, one damped) at a random state: its flat model (mi, mf,
    sizes), x, and a Context's workspace ws (parameters set, no stage computed). ``covered``:
    revolute and prismatic joints instead of the ball and universal ones, the free body
    welded (a model kernels.recursive_derivatives covers)."""

    def __init__(self, rng, covered=False):
        from mallard.math import RigidTransform, RollPitchYaw
        from mallard.multibody.plant import MultibodyPlant
        from mallard.multibody.tree import (
            BallRpyJoint,
            FixedOffsetFrame,
            PrismaticJoint,
            RevoluteJoint,
            SpatialInertia,
            UniversalJoint,
            WeldJoint,
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
        p2, c2 = frame(bodies[1], "p2"), frame(bodies[2], "c2")
        p3, c3 = frame(bodies[2], "p3"), frame(bodies[3], "c3")
        if covered:
            plant.AddJoint(RevoluteJoint("j2", p2, c2, [0, 0, 1]))
            plant.AddJoint(PrismaticJoint("j3", p3, c3, [0, 1, 0]))
            X_WB5 = RigidTransform(RollPitchYaw(0.1, 0.2, 0.3), [0.5, 0.0, 0.2])
            plant.AddJoint(WeldJoint("j5", plant.world_frame(), bodies[5].body_frame(), X_WB5))
        else:
            plant.AddJoint(BallRpyJoint("j2", p2, c2))
            plant.AddJoint(UniversalJoint("j3", p3, c3))
        plant.AddJoint(
            RevoluteJoint("j4", frame(bodies[4], "c4"), frame(bodies[3], "p4"), [1, 0, 0])
        )  # reversed: b4 hangs from b3; b5 is free (or welded)
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

    def batch(self, size=5):
        """(Q, V) for the batched entry points: ``size`` states near the sample's."""
        s = self.sizes
        Q = self.x[: s.nq] + 0.3 * self.normal(size, s.nq)
        return Q, self.normal(size, s.nv)


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
    """drive_dynamics_derivatives' arguments for inverse or forward dynamics (the derivatives'
    kernel called by address compiled: kernels.engine_derivatives)."""
    from mallard._compiled import DERIVATIVES_AT, kernels
    from mallard.multibody._batch_codes import FORWARD, INVERSE

    def case(rng):
        s = Sample(rng)
        nq, nv, n = s.sizes.nq, s.sizes.nv, s.sizes.n
        mi, mf, x, ws, need = s.head()
        at = ByMode(*(kernels(t).addresses(DERIVATIVES_AT) for t in (np.float64, object)))
        outputs = (np.zeros(s.sizes.dws), np.zeros((nv, nq)), np.zeros((nv, nv)))
        if which == "inverse":
            inputs = (INVERSE, mi, mf, x, ws, need, s.normal(nv), np.zeros(nv), s.normal(n, 6))
            return inputs + outputs + (np.zeros((nv, nv)), at)
        inputs = (FORWARD, mi, mf, x, ws, need, s.normal(s.sizes.nu), s.normal(nv))
        return inputs + (s.normal(n, 6),) + outputs + (np.zeros((nv, nv)), at)

    return case


class ByMode:
    """An argument that differs compiled and interpreted: a row of the batched kernels, whose
    lanes are L wide compiled and one interpreted (kernels.batch), or the ``flags`` of its
    groups."""

    def __init__(self, compiled, interpreted):
        self.compiled, self.interpreted = compiled, interpreted


def _batch_row(s, lanes, extra=0, derivatives=False):
    """A new row of the batched kernels, for each mode (kernels.batch.batch_new_row), with
    ``extra`` slots past it; ``lanes``: with lanes, else a derivative row (kernels.single);
    ``derivatives``: with lanes, derivative rows in lanes and one more (kernels.batch's
    derivatives)."""
    from mallard._compiled import kernels

    rows = []
    for dtype, width in ((np.float64, compiled_lanes()), (object, 1)):
        size = s.sizes.row + (width * s.sizes.lane if lanes else s.sizes.drow)
        if derivatives:
            size = s.sizes.row + -(-width * s.sizes.lane // 8) * 8 + (width + 1) * s.sizes.drow
        row = np.zeros(size + extra, dtype=dtype)
        kernels(dtype).batch_new_row(s.mi, s.ws.astype(dtype), row[:size], lanes)
        rows.append(row)
    return ByMode(*rows)


def _flags(size):
    """A call's ``flags`` (kernels.batch) for ``size`` states, for each mode (groups of L
    states compiled, of one interpreted)."""
    return ByMode(
        np.zeros(2 + -(-size // compiled_lanes()), dtype=np.int64),
        np.zeros(2 + size, dtype=np.int64),
    )


def _batch(name):
    """The arguments of batched entry point ``name`` (see kernels.batch), run by one thread
    (ALONE); ``batch_evaluate`` for an operation (``name`` + ``[mass_matrix]``,
    ``[forward_dynamics]`` or ``[jacobian]``) and
    ``batch_dynamics_derivatives`` for inverse or forward dynamics (``name`` + ``[inverse]``
    or ``[forward]``: a model in lanes; ``[inverse, by state]``, ``[forward, by state]``: one
    of every joint type, its states one by one, by the derivatives' kernel by address)."""
    from mallard._compiled import DERIVATIVES_AT, kernels
    from mallard.multibody._batch_codes import (
        ALONE,
        FORWARD,
        FORWARD_DYNAMICS,
        INVERSE,
        MASS_MATRIX,
        POINT_JACOBIAN,
    )

    def case(rng):
        derivatives = "derivatives" in name  # (a model in lanes: kernels.recursive_derivatives)
        s = Sample(rng, covered=derivatives and "by state" not in name)
        nq, nv, nu, n = s.sizes.nq, s.sizes.nv, s.sizes.nu, s.sizes.n
        Q, V = s.batch()
        size = Q.shape[0]
        status = np.zeros(size, dtype=np.int64)
        tail = (_batch_row(s, True, derivatives=derivatives), _flags(size), ALONE)
        if name == "batch_body_poses":
            return (s.mi, s.mf, Q) + tail + (np.zeros((size, n, 4, 4)), status)
        if name == "batch_inverse_dynamics":
            inputs = (Q, V, s.normal(size, nv), s.normal(size, nv))
            return (s.mi, s.mf) + inputs + tail + (np.zeros((size, nv)), status)
        if name.startswith("batch_evaluate"):
            none, frame = np.zeros((0, 0)), (0, np.zeros((4, 3)))
            op = name[len("batch_evaluate[") : -1]
            if op == "mass_matrix":
                inputs = (MASS_MATRIX, Q, none, none, none) + frame
                output = np.zeros((size, nv, nv))
            elif op == "forward_dynamics":
                inputs = (FORWARD_DYNAMICS, Q, V, s.normal(size, nv), s.normal(size, nu)) + frame
                output = np.zeros((size, 1, nv))
            else:
                inputs = (POINT_JACOBIAN, Q, s.normal(size, 3), none, none, 3, _rotation_pose(rng))
                output = np.zeros((size, 6, nv))
            return (s.mi, s.mf) + inputs + tail + (output, status)
        outputs = (np.zeros((size, nv, nq)), np.zeros((size, nv, nv)), np.zeros((size, nv, nv)))
        at = ByMode(*(kernels(t).addresses(DERIVATIVES_AT) for t in (np.float64, object)))
        if name.startswith("batch_dynamics_derivatives[inverse"):
            inputs = (INVERSE, at, Q, V, s.normal(size, nv), np.zeros((0, 0)))
        else:
            inputs = (FORWARD, at, Q, V, s.normal(size, nv), s.normal(size, nu))
        return (s.mi, s.mf) + inputs + tail + outputs + (status,)

    return case


def _held(s, frame=None):
    """The single-state entry points' first argument (kernels.single) for each mode: compiled,
    the address of a Held of (mi, mf, a new row[, the frame record ``frame``]), which the
    ByMode keeps; interpreted, the tuple (mi, mf, row[, frame]) of object arrays."""
    from mallard.multibody._kernels.single import Held

    rows = _batch_row(s, False)
    held = Held(s.mi, s.mf, rows.compiled, frame)
    interpreted = (s.mi.astype(object), s.mf.astype(object), rows.interpreted)
    if frame is not None:
        interpreted += (frame.astype(object),)
    arrays = ByMode(held.address, interpreted)
    arrays.held = held
    return arrays


def _single(name):
    """The arguments of single-state entry point ``name`` (kernels.single), with the optional
    inputs given."""

    def case(rng):
        s = Sample(rng)
        nq, nv, nu, n = s.sizes.nq, s.sizes.nv, s.sizes.nu, s.sizes.n
        Q, V = s.batch(1)
        q, v = Q[0], V[0]
        head = (_held(s),)
        if name == "single_body_poses":
            return head + (q, np.zeros((n, 4, 4)))
        if name == "single_mass_matrix":
            return head + (q, np.zeros((nv, nv)))
        if name == "single_inverse_dynamics":
            return head + (q, v, s.normal(nv), s.normal(nv), np.zeros(nv))
        if name == "single_forward_dynamics":
            return head + (q, v, s.normal(nv), 4.0 * s.normal(nu), np.zeros(nv))
        if name in ("single_point_jacobian", "single_frame_jacobian"):
            from mallard.multibody._kernels.single import frame_record

            held = _held(s, frame_record(3, _rotation_pose(rng)))
            point = (s.normal(3),) if name == "single_point_jacobian" else ()
            return (held, q, *point, np.zeros((6, nv)))
        outputs = (np.zeros((nv, nq)), np.zeros((nv, nv)), np.zeros((nv, nv)))
        head[0].held.hold_derivatives()
        if name == "single_inverse_dynamics_derivatives":
            return head + (q, v, s.normal(nv)) + outputs
        return head + (q, v, s.normal(nv), 4.0 * s.normal(nu)) + outputs + (np.zeros((nv, nu)),)

    return case


def _rollout(rng):
    """batch_rollout's arguments: 5 states, 3 steps of RK2 with actuation and a PD law on
    (q[0], v[0]), every step kept (kernels.rollouts)."""
    from mallard.multibody._batch_codes import ALONE, RUNGE_KUTTA2
    from mallard.multibody.plant._stepping import found_arrays, no_geometry

    s = Sample(rng)
    nq, nu, nx = s.sizes.nq, s.sizes.nu, s.sizes.nx
    Q, V = s.batch()
    size, steps = Q.shape[0], 3
    inputs = (
        np.concatenate((Q, V), axis=1),
        s.normal(size, steps, nu),
        s.normal(size, 2 * nu),
        np.abs(s.normal(2, nu)),
        np.array([[0] * nu, [nq] * nu], dtype=np.int64),
        1e-2,
        RUNGE_KUTTA2,
        steps,
        1,
        np.zeros((0, 3), dtype=np.int64),
        np.zeros((0, 2)),
        np.zeros(s.sizes.nv),
        np.zeros(s.sizes.nv),
        0,
        0,
        0,
        (0, 0),
        0,
        no_geometry(np.zeros(s.sizes.n, np.int64)),
        0,
    )
    found = sum(a.size for a in found_arrays(0, 0, 0, 0, 0, s.sizes.nv))  # (the row's scratch)
    tail = (_batch_row(s, True, found), _flags(size), ALONE)
    return (s.mi, s.mf) + inputs + tail + (np.zeros((size, steps, nx)), np.zeros(size, np.int64))


def _contact_tables(s, room, nk):
    """kernels.discrete_step's (geometry, found) for the geometry cases' scene on the sample's
    mobods (the half space on World), kSap's contact (a pair of the ellipsoid and the convex
    shape marked as one the Python path raises for), ``room`` contacts."""
    from mallard.geometry import _proximity_layout as layout
    from mallard.multibody._layout import SAP_FRICTION_CONE
    from mallard.multibody.plant._stepping import found_arrays
    from tests.geometry.kernel_cases import _model, _poses

    m = _model()
    ng, nf, n = len(m.ids), len(m.frames), s.sizes.n
    frame_mobod = s.rng.integers(1, n, nf).astype(np.int64)
    frame_mobod[m.gi[m.kinds == layout.HALFSPACE, layout.FRAME]] = -1
    mobod = frame_mobod[m.gi[:, layout.FRAME]].copy()
    body = np.maximum(mobod, 0)
    allowed = np.triu(np.ones((ng, ng), dtype=np.uint8), 1)
    allowed[mobod[:, None] == mobod[None, :]] = 0
    allowed[4, 6] = 2
    values = np.column_stack((s.rng.uniform(1e3, 1e5, ng), s.rng.uniform(0, 50, ng),
                              s.rng.uniform(0.2, 1, ng), s.rng.uniform(0.1, 0.2, ng),
                              s.rng.uniform(0, 0.1, ng)))  # fmt: skip
    body_clique = np.zeros(n, dtype=np.int64)
    body_clique[0] = -1
    settings = np.array([SAP_FRICTION_CONE, 0.0, 1.0, 1e-4])
    geometry = (m.gi, m.gf, m.hv, frame_mobod, _poses(s.rng, ng), allowed, body, mobod, values,
                body_clique, settings)  # fmt: skip
    return geometry, found_arrays(ng, nf, room, nk, 1, s.sizes.nv)


def _discrete_steps(rng):
    """Four updates of the sample until another event at 3.5 ms, through SAP: point contact
    (the geometry cases' scene on its bodies), a limit just crossed, a PD controller, a
    coupler."""
    from mallard.multibody import _layout
    from mallard.multibody.plant._sap_driver import SapProblem

    s = Sample(rng)
    nq, nv, n, nu = s.sizes.nq, s.sizes.nv, s.sizes.n, s.sizes.nu
    room = 12
    problem = SapProblem(_layout.SapSizes(nv, 4 + 3 * room, 3 + room), 1e-3,
                         np.zeros(nv, dtype=np.int64), np.zeros(nv, np.int64))  # fmt: skip
    x = s.x.copy()
    joints = (
        np.array([[0, 0, 0]], dtype=np.int64),
        np.array([[x[0] - 1e-6, x[0] + 0.5]]),
        np.array([[1, 1, 0]], dtype=np.int64),
        np.array([[30.0, 3.0, 0.5, 0.1, 0.0, 0.2]]),
        np.array([[2, 3, 2, 3, 0, 0]], dtype=np.int64),
        np.array([[1.5, 0.01]]),
    )
    return (s.mi, s.mf, s.ws, x, s.normal(nu), s.normal(nv), s.normal(n, 6)) + (
        s.rng.uniform(0, 1e-3, size=nv),
        problem.si,
        problem.sw,
        _solver(),
        _pairs(),
        _step_velocities(),
        _step_block((joints, *_contact_tables(s, room, problem.sizes.nk))),
        _forward_dynamics(),
        np.zeros(5 * nv + 2 * nq),
        0.0,
        True,
        0.0035,
        0.1,
        1e-3,
        0.0,
    )


def _held_tables(rng):
    """hold_tables' arguments: a block, then _discrete_steps' tables (joints, geometry,
    found)."""
    from mallard.multibody._kernels.step_velocities import STEP_BLOCK

    tables = _discrete_steps(rng)[13].interpreted
    return (np.zeros(STEP_BLOCK, dtype=np.int64), *tables)


def _contact_problem(s, ws):
    """drive_contact_problem's arguments after (mi, mf, ws): 5 pairs between the sample's
    mobods and World (rows as ComputePointPairPenetration's), kLagged's Hunt–Crossley
    constraints, then the outputs."""
    from mallard.multibody._layout import SAP_HUNT_CROSSLEY

    n, nv, nb = 5, s.sizes.nv, s.sizes.n
    bodies = s.rng.integers(0, nb, size=(n, 4)).astype(np.int64)
    rows = s.normal(n, 10)
    rows[:, 0] = np.abs(rows[:, 0])
    rows[:, 1:4] /= np.linalg.norm(rows[:, 1:4], axis=1)[:, None]
    par = np.abs(s.normal(n, 7))
    body_clique = s.rng.integers(-1, 2, nb).astype(np.int64)
    outputs = (np.zeros((n, 3)), np.zeros((n, 3)), np.zeros((n, 3, 3)), np.zeros((2, 6, nv)),
               np.zeros((3 * n, nv)), np.zeros(n), np.zeros((n, 2), np.int64),
               np.zeros((n, 10)))  # fmt: skip
    return (bodies, rows, par, s.normal(nv), SAP_HUNT_CROSSLEY, 1.0, 1.0, 1e-4,
            body_clique) + outputs  # fmt: skip


def _explicit_steps(rng):
    """Error-controlled RK3 steps of the sample (whose free and ball joints weigh q's error
    through N) to a boundary at 4 ms."""
    from mallard.systems.analysis import _kernels as rules

    s = Sample(rng)
    nq, nv, n, nu = s.sizes.nq, s.sizes.nv, s.sizes.n, s.sizes.nu
    nx = nq + nv
    control = np.full(rules.CONTROL_SIZE, np.nan)
    control[rules.REQ_INITIAL_STEP_SIZE] = 1e-3
    control[rules.MAX_STEP_SIZE] = 0.1
    control[rules.ACCURACY_IN_USE] = 1e-3
    control[rules.REQ_MIN_STEP_SIZE] = 0.0
    control[rules.PUBLISH_TIME] = np.inf
    control[rules.UPDATE_TIME] = 0.01
    control[rules.BOUNDARY_TIME] = 0.004
    control[rules.TIME] = 0.0
    counts = np.zeros(rules.COUNTS_SIZE, dtype=np.int64)
    counts[rules.SCHEME] = rules.RUNGE_KUTTA3
    counts[rules.ERROR_ORDER] = 3
    counts[rules.THROWS] = 1
    counts[rules.MAPPED] = 1
    weights = np.concatenate((np.zeros(nq), np.ones(nv)))
    return (s.mi, s.mf, s.ws, s.x.copy(), s.normal(nu), s.normal(nv), s.normal(n, 6)) + (
        _forward_dynamics(),
        np.zeros((3, nx)),
        np.zeros(nx),
        np.zeros(nx),
        np.zeros(nx),
        np.zeros(3),
        weights,
        np.ones(nv),
        np.zeros(3 * nx),
        control,
        counts,
    )


def _new_row(rng):
    s = Sample(rng)
    return (s.mi, s.ws, _batch_row(s, True), True)


def _combine(rng):
    m, size = 3, 7
    return np.zeros(size), rng.normal(size=size), rng.normal(size=(m, size)), rng.normal(size=m)


CASES = {
    "drive_stages": _driver(lambda s: ()),
    "drive_mass_matrix": _driver(lambda s: (_stages(),)),
    "drive_inverse_dynamics": _driver(
        lambda s: (s.normal(s.sizes.nv), s.normal(s.sizes.nv), s.normal(s.sizes.n, 6), _stages())
    ),
    "drive_force_elements": _driver(
        lambda s: (np.zeros((s.sizes.n, 6)), np.zeros(s.sizes.nv), _stages())
    ),
    "drive_forward_dynamics": _driver(
        lambda s: (
            s.normal(s.sizes.nu),
            s.normal(s.sizes.nv),
            s.normal(s.sizes.n, 6),
            _forward_dynamics(),
        )  # fmt: skip
    ),
    "drive_point_jacobian": _driver(lambda s: (3, _rotation_pose(s.rng), s.normal(3), _stages())),
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
    "drive_dynamics_derivatives[inverse]": _derivatives("inverse"),
    "drive_dynamics_derivatives[forward]": _derivatives("forward"),
    "batch_body_poses": _batch("batch_body_poses"),
    "batch_inverse_dynamics": _batch("batch_inverse_dynamics"),
    **{
        f"batch_evaluate[{op}]": _batch(f"batch_evaluate[{op}]")
        for op in ("mass_matrix", "forward_dynamics", "jacobian")
    },
    "batch_dynamics_derivatives[inverse]": _batch("batch_dynamics_derivatives[inverse]"),
    "batch_dynamics_derivatives[forward]": _batch("batch_dynamics_derivatives[forward]"),
    **{
        f"batch_dynamics_derivatives[{d}, by state]": _batch(
            f"batch_dynamics_derivatives[{d}, by state]"
        )
        for d in ("inverse", "forward")
    },
    "single_body_poses": _single("single_body_poses"),
    "single_mass_matrix": _single("single_mass_matrix"),
    "single_inverse_dynamics": _single("single_inverse_dynamics"),
    "single_forward_dynamics": _single("single_forward_dynamics"),
    "single_point_jacobian": _single("single_point_jacobian"),
    "single_frame_jacobian": _single("single_frame_jacobian"),
    "single_inverse_dynamics_derivatives": _single("single_inverse_dynamics_derivatives"),
    "single_forward_dynamics_derivatives": _single("single_forward_dynamics_derivatives"),
    "sap_add_joint_constraints": lambda r: _sap_args(r, False),
    "sap_solve": lambda r: _sap_args(r, True) + (_solver(),),
    "sap_gradient": lambda r: _sap_args(r, True),
    "batch_rollout": _rollout,
    "batch_new_row": _new_row,
    "batch_unfinished": lambda r: (np.array([9, 4, 4, 3, 4, 0], dtype=np.int64),),
    "sap_add_holonomic_constraints": _holonomic_args,
    "tamsi_step": _tamsi_args,
    "sap_add_contact_constraints": lambda r: _contact_args(r, _sap_problem(4, 15, 7))[0],
    "drive_body_constraints": _driver(lambda s: _body_constraints(s) + (_stages(),)),
    "drive_point_contact": _driver(lambda s: _point_contact(s) + (_stages(),)),
    "drive_contact_problem": _staged(_contact_problem),
    "contact_pairs": lambda r: _contact_pairs(r),
    "combine": lambda r: _combine(r) + (3, False),
    "combine_error": lambda r: (lambda a: (a[0], a[2], a[3], 3))(_combine(r)),
    "rk3_error": lambda r: (np.zeros(7), r.normal(size=7), r.normal(size=7), r.normal(size=7), 0.1),
    "weighted_max_abs": lambda r: (r.normal(size=7), r.uniform(0, 1, size=7)),
    "drive_discrete_steps": _discrete_steps,
    "drive_explicit_steps": _explicit_steps,
    "hold_tables": _held_tables,
}


def _batch_collisions(rng):
    """The batched collision checks (mallard.geometry._kernels.batch) of Sample's plant with
    the proximity cases' scene on its bodies (the half space anchored), every pair but a half
    space with a shape other than a sphere (which Drake's signed distance does not support),
    one block of every pair: the least distance and the pairs within 0.5, one thread."""
    from mallard.geometry import _proximity_layout as layout
    from mallard.geometry._batch_collision import _radii
    from mallard.geometry._kernels.batch import MIN_DISTANCE, PAIR_DISTANCES, row_size
    from mallard.multibody._batch_codes import ALONE, GROUPS
    from tests.geometry.kernel_cases import _model, _pairs, _poses

    s = Sample(rng)
    m = _model()
    ng = len(m.ids)
    mobod = rng.integers(1, s.sizes.n, ng)
    mobod[m.kinds == layout.HALFSPACE] = -1
    X_BG = _poses(rng, ng)
    pairs = _pairs(m, lambda a, b: layout.HALFSPACE not in (a, b) or layout.SPHERE in (a, b))
    num_pairs = len(pairs)
    Q, _ = s.batch()
    size = Q.shape[0]
    outer, inner = _radii(m)
    a, b = pairs[:, 0], pairs[:, 1]
    carriers = (np.array([-1]), np.array([[0.0, 0.0, 0.0, np.inf]]))
    blocks = np.array([[0, 0, 0, num_pairs]])
    row = np.zeros(row_size(s.mi, ng, num_pairs, 1))
    row[: s.ws.size] = s.ws  # (as kernels.batch.batch_new_row makes it)
    return (s.mi, s.mf, Q, m.gi, m.gf, m.hv, mobod, X_BG, pairs, outer[a] + outer[b],
            inner[a] + inner[b]) + carriers + (blocks, 0.05, MIN_DISTANCE | PAIR_DISTANCES,
            0.5, _epa(), row, np.zeros(GROUPS + size, dtype=np.int64), ALONE,
            np.zeros(size, dtype=np.uint8), np.zeros(size), np.zeros((size, num_pairs)),
            np.zeros(size, dtype=np.int64))  # fmt: skip


CASES.update(GEOMETRY_CASES)  # (the proximity queries' entry points)
CASES["batch_collisions"] = _batch_collisions

#: Arguments not compared (by position): the batched entry points' rows, whose lanes are L
#: wide compiled and one interpreted (kernels.lane_views.lane_width), and the ``flags`` of
#: their groups (L states compiled, one interpreted); their results are compared.
UNCOMPARED = {
    # (dws: its block holds addresses compiled; at: the kernels' addresses, zeros interpreted)
    "drive_dynamics_derivatives[inverse]": (9, 13),
    "drive_dynamics_derivatives[forward]": (9, 13),
    "drive_discrete_steps": (13,),  # (block: the addresses of its arrays, compiled)
    "hold_tables": (0,),
    "batch_body_poses": (3, 4),
    "batch_inverse_dynamics": (6, 7),
    **{f"batch_evaluate[{op}]": (9, 10) for op in ("mass_matrix", "forward_dynamics", "jacobian")},
    "batch_dynamics_derivatives[inverse]": (3, 8, 9),
    "batch_dynamics_derivatives[forward]": (3, 8, 9),
    "batch_dynamics_derivatives[inverse, by state]": (3, 8, 9),
    "batch_dynamics_derivatives[forward, by state]": (3, 8, 9),
    "batch_rollout": (22, 23),
    "batch_new_row": (2,),
    "batch_collisions": (18, 19),
}


# ---- the XML scan (mallard.multibody.parsing._xml_scan): a small URDF, its numbers and names
_URDF = (
    b'<?xml version="1.0"?>\n<robot name="r"><!-- a comment -->\n'
    b'<link name="a"><inertial><origin xyz="0 0 -0.25" rpy="0.1 1e-3 2.5E2"/>'
    b'<mass value="1.5"/></inertial></link>\n'
    b'<link name="b"><inertial><origin xyz="0.123456789012345678901 0 1" rpy="0 0 0"/>'
    b'</inertial></link><link name="c"/>'
    b'<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
    b'<axis xyz="0 1 0"/><limit lower="-1.25" upper="1.5"/></joint></robot>'
)


def _scanned():
    """The URDF fast path's name tables and the scan of _URDF (compiled)."""
    from mallard.multibody.parsing import _urdf_fast, _xml_scan

    tags = (*_xml_scan.name_table(_urdf_fast.TAGS), _urdf_fast.TAGS)
    names = (*_xml_scan.name_table(_urdf_fast.ATTRIBUTES), _urdf_fast.ATTRIBUTES)
    return tags, names, _xml_scan.Scan(_URDF, tags, names)


def _xml_scan(rng):
    tags, names, scan = _scanned()
    start = _URDF.index(b"?>") + 2
    ne, na = _URDF.count(b"<"), _URDF.count(b"=")
    return (np.frombuffer(_URDF, np.uint8).copy(), start, *tags[:-1], *names[:-1],
            np.zeros((ne, 8), np.int32), np.zeros((na, 8), np.int32),
            np.zeros(na + _URDF.count(b" ")), np.full((ne + 1, len(tags[-1])), -1, np.int32),
            np.full((ne + 1, len(names[-1])), -1, np.int32),
            np.zeros((256, 2), np.int32), np.zeros(3, np.int64))  # fmt: skip


def _xml_numbers(rng):
    from mallard.multibody.parsing._urdf_fast import _A, _T

    _, _, scan = _scanned()
    inertials = scan.child(scan.children(0, _T["link"]), _T["inertial"])
    origins = scan.child(inertials, _T["origin"])  # (-1 for the link without an inertial)
    rows = scan.attribute(origins, [_A["xyz"], _A["rpy"]]).astype(np.int32)
    counts = np.array([3, 3], np.int64)
    return (rows, counts, scan.attributes.copy(), scan.values.copy(), np.nan,
            np.zeros((len(rows), 6)), np.zeros(rows.size, np.int64))  # fmt: skip


def _xml_strings(rng):
    from mallard.multibody.parsing._urdf_fast import _A, _T

    _, _, scan = _scanned()
    links = scan.children(0, _T["link"])
    rows = scan.attribute(links, _A["name"]).astype(np.int32)
    return (np.frombuffer(_URDF, np.uint8).copy(), rows, scan.attributes.copy(),
            np.zeros(len(_URDF), np.uint8))  # fmt: skip


CASES.update(xml_scan=_xml_scan, xml_numbers=_xml_numbers, xml_strings=_xml_strings)


# ---- the MJCF fast path's math (mallard.multibody.parsing._mjcf_kernels): geoms of each
# shape, with and without fromto, at a given mass or density; each orientation kind
def _mjcf_geom_inertias(rng):
    from mallard.common._quaternion import quaternion_to_matrix

    n = 10
    codes = np.arange(n) % 5
    fromto = (codes == 1) | (codes == 2)
    fromto[[1, 2]] = False  # (a capsule and a cylinder by their sizes)
    size = rng.uniform(0.05, 0.5, (n, 3))
    ends = np.where(fromto[:, None], rng.normal(size=(n, 6)), np.nan)
    mass = np.where(np.arange(n) % 3 == 0, rng.uniform(0.5, 2.0, n), np.nan)
    density = np.where(np.arange(n) % 3 == 1, rng.uniform(500.0, 2000.0, n), np.nan)
    R_BG = np.array([quaternion_to_matrix(q / np.linalg.norm(q), 2.0).ravel()
                     for q in rng.normal(size=(n, 4))])  # fmt: skip
    p_BG = rng.normal(size=(n, 3))
    return (codes, fromto, size, ends, mass, density, R_BG, p_BG, np.zeros((n, 9)),
            np.zeros((n, 3)), np.zeros(n), np.zeros((6, n)))  # fmt: skip


def _mjcf_rotations(rng):
    n = 10
    codes = np.arange(n) % 5 - 1  # (NONE, QUAT, AXISANGLE, EULER, XYAXES)
    return (codes, rng.normal(size=(n, 4)), rng.normal(size=(n, 4)), rng.normal(size=(n, 3)),
            rng.normal(size=(n, 6)), True, np.array([3, 2, 1]), np.array([True, False, True]),
            np.zeros((n, 9)))  # fmt: skip


def _mjcf_body_rows(rng):
    n = 9  # (geoms of 4 bodies, one of them massless)
    mass = rng.uniform(0.5, 2.0, n)
    mass[4] = 0.0
    return (np.array([0, 0, 1, 1, 1, 2, 3, 3, 3]), rng.normal(size=(n, 9)),
            rng.normal(size=(n, 3)), mass, np.zeros((4, 13)))  # fmt: skip


def _mjcf_inertial_rows(rng):
    n = 6  # (diagonal, turned, full inertias; a NaN moment marks a full one)
    moments = rng.uniform(0.1, 1.0, (n, 3))
    moments[[4, 5], 0] = np.nan
    turned_at = np.array([-1, 0, -1, 1, -1, -1])
    return (rng.uniform(0.5, 2.0, n), moments, rng.uniform(0.1, 1.0, (n, 6)),
            rng.normal(size=(2, 9)), turned_at, rng.normal(size=(n, 3)), np.zeros((n, 13)),
            np.zeros((9, n)))  # fmt: skip


def _mjcf_table(rng):
    # (4 elements, specs of 3 and 1 numbers: own numbers, a word not a fast-path number (row
    # 2: slow), a class's default (an orientation: not where the element sets one), the
    # default text's)
    attributes = np.zeros((3, 8), np.int32)
    attributes[:, 6], attributes[:, 7] = (0, 3, 0), (3, 1, -1)
    rows = np.array([[0, 1], [-1, -1], [2, -1], [-1, 1]], np.int32)
    holds = np.array([[True, False], [False, True], [False, False]])
    by_class = np.array([[1.0, 2.0, 3.0, np.nan], [np.nan, np.nan, np.nan, 4.0], [np.nan] * 4])
    return (rows, np.array([3, 1]), attributes, rng.normal(size=4), np.array([0, -1, 1, 0]),
            holds, by_class, np.zeros((3, 2), bool), np.array([True, False]),
            np.array([False, False, True, True]), np.array([np.nan, np.nan, np.nan, 5.0]),
            np.array([False, False]), np.zeros((4, 4)), np.zeros(8, np.int64))  # fmt: skip


def _mjcf_name_ids(rng):
    from mallard.multibody.parsing import _mjcf_scan, _xml_scan

    text = b'<mujoco><default class="a"/><body childclass="b"/><body childclass="c"/></mujoco>'
    scan = _xml_scan.Scan(text, *_mjcf_scan._TABLES)
    rows = np.array([1, 2, 0], np.int32)  # (b, c and a; c: another name, -1)
    return (scan.buffer, rows, scan.attributes.copy(), *_xml_scan.name_table(("a", "b")),
            np.zeros(3, np.intp))  # fmt: skip


CASES.update(
    mjcf_name_ids=_mjcf_name_ids,
    mjcf_table=_mjcf_table,
    mjcf_inertial_rows=_mjcf_inertial_rows,
    mjcf_geom_inertias=_mjcf_geom_inertias,
    mjcf_rotations=_mjcf_rotations,
    mjcf_body_rows=_mjcf_body_rows,
)
