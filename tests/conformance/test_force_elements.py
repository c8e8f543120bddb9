"""Force elements, MultibodyForces and the element force methods against pydrake.

The same functions build the models in mallard and in pydrake: a tree with a revolute joint
carrying a RevoluteSpring and joint damping, a second revolute with a DoorHinge, a prismatic
with a PrismaticSpring, a ball joint, a free body tied to the tree by a LinearSpringDamper and
a LinearBushingRollPitchYaw between offset frames, in two model instances (gravity disabled
for one). At random states, forces (generalized and per body), time derivatives, energies and
powers, the bushing's spatial forces and the hinge's torque curves agree to 1e-10; errors
have pydrake's types and texts where pydrake raises RuntimeError (where it aborts with
SystemExit, mallard raises RuntimeError).
"""

import numpy as np
import pytest

pytest.importorskip("pydrake")

from tests.multibody.plant.plant_models import library  # noqa: E402

MALLARD, DRAKE = library("mallard"), library("pydrake")
LIBRARIES = (MALLARD, DRAKE)
TOL = dict(rtol=1e-10, atol=1e-10)
NUM_STATES = 3


def close(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), **TOL)


# ---- the model -----------------------------------------------------------------------------
def _inertia(m, rng):
    I = rng.uniform(0.05, 0.2, size=3)
    I[2] = rng.uniform(abs(I[0] - I[1]) + 0.02, I[0] + I[1])
    return m.SpatialInertia.MakeFromCentralInertia(
        rng.uniform(0.5, 2.0), rng.normal(scale=0.2, size=3), m.RotationalInertia(*I)
    )


def build(m, bushing=True, gravity_off_for_other=True):
    """The model in library ``m``; returns (plant, items)."""
    rng = np.random.default_rng(11)

    def pose():
        return m.RigidTransform(m.RollPitchYaw(rng.uniform(-1, 1, 3)), rng.normal(size=3) * 0.3)

    plant = m.MultibodyPlant(0.0)
    robot, other = plant.AddModelInstance("robot"), plant.AddModelInstance("other")
    a, b, c, d = (plant.AddRigidBody(n, robot, _inertia(m, rng)) for n in "abcd")
    free = plant.AddRigidBody("free", other, _inertia(m, rng))
    W = plant.world_frame()
    ja = plant.AddJoint(m.RevoluteJoint("ja", W, a.body_frame(), rng.normal(size=3), 0.3))
    jb = plant.AddJoint(m.PrismaticJoint("jb", a.body_frame(), b.body_frame(), [1, 0.2, 0]))
    plant.AddJoint(m.BallRpyJoint("jc", b.body_frame(), c.body_frame(), 0.2))
    jd = plant.AddJoint(m.RevoluteJoint("jd", c.body_frame(), d.body_frame(), [0, 1, 0]))
    F = plant.AddFrame(m.FixedOffsetFrame("F", c.body_frame(), pose()))
    G = plant.AddFrame(m.FixedOffsetFrame("G", free.body_frame(), pose()))
    items = dict(robot=robot, other=other, a=a, b=b, c=c, d=d, free=free, ja=ja, jb=jb, jd=jd)
    items["bodies"] = [plant.world_body(), a, b, c, d, free]
    items["rs"] = plant.AddForceElement(m.RevoluteSpring(ja, 0.4, 5.0))
    items["ps"] = plant.AddForceElement(m.PrismaticSpring(jb, 0.1, 7.0))
    config = m.DoorHingeConfig(catch_width=0.4, motion_threshold=0.5, spring_zero_angle_rad=-0.5)
    items["hinge"] = plant.AddForceElement(m.DoorHinge(jd, config))
    items["lsd"] = plant.AddForceElement(
        m.LinearSpringDamper(a, [0.1, 0.2, 0.3], free, [-0.1, 0.0, 0.2], 0.7, 20.0, 3.0)
    )
    if bushing:
        items["bushing"] = plant.AddForceElement(
            m.LinearBushingRollPitchYaw(F, G, [1, 2, 3], [0.4, 0.5, 0.6], [7, 8, 9], [1, 1.1, 1.2])
        )
    if gravity_off_for_other:
        plant.mutable_gravity_field().set_enabled(other, False)
    plant.Finalize()
    return plant, items


def states(plant, seed=0):
    """Random [q, v] (normalized quaternion), away from the bushing's gimbal lock."""
    rng = np.random.default_rng(seed)
    for _ in range(NUM_STATES):
        q = rng.normal(scale=0.6, size=plant.num_positions())
        q[5:9] /= np.linalg.norm(q[5:9])
        yield q, rng.normal(size=plant.num_velocities())


def pair(**kwargs):
    """[(plant, items, context)] for mallard and pydrake."""
    out = []
    for m in LIBRARIES:
        plant, items = build(m, **kwargs)
        out.append((plant, items, plant.CreateDefaultContext()))
    return out


def set_state(models, q, v):
    for plant, _, context in models:
        plant.SetPositions(context, q)
        plant.SetVelocities(context, v)


def element_forces(m, plant, items, context):
    """CalcForceElementsContribution: (tau, [F_BBo_W per body], CalcGeneralizedForces)."""
    forces = m.MultibodyForces(plant)
    plant.CalcForceElementsContribution(context, forces)
    body_forces = [b.GetForceInWorld(context, forces).get_coeffs() for b in items["bodies"]]
    return forces.generalized_forces(), body_forces, plant.CalcGeneralizedForces(context, forces)


def compare_forces(models):
    (mp, mi, mc), (dp, di, dc) = models
    m_result, d_result = element_forces(MALLARD, mp, mi, mc), element_forces(DRAKE, dp, di, dc)
    for x, y in zip(m_result, d_result, strict=True):
        close(x, y)
    close(mp.EvalTimeDerivatives(mc).CopyToVector(), dp.EvalTimeDerivatives(dc).CopyToVector())


# ---- the API -----------------------------------------------------------------------------------
#: mallard's hooks for ForceElement subclasses written in Python (pydrake binds none).
HOOKS = {
    "CalcAndAddForceContribution",
    "CalcPotentialEnergy",
    "CalcConservativePower",
    "CalcNonConservativePower",
}


@pytest.mark.parametrize(
    "cls, extra",
    [
        ("MultibodyForces", set()),
        ("DoorHingeConfig", set()),
        ("RigidBody", set()),
        ("ForceElement", HOOKS),
        ("LinearSpringDamper", HOOKS),
        ("RevoluteSpring", HOOKS),
        ("PrismaticSpring", HOOKS),
        ("LinearBushingRollPitchYaw", HOOKS),
        ("DoorHinge", HOOKS),
        ("UniformGravityFieldElement", HOOKS),
    ],
)
def test_same_public_names(cls, extra):
    names = [{n for n in dir(getattr(L, cls)) if not n.startswith("_")} for L in LIBRARIES]
    assert names[0] == names[1] | extra


# ---- forces, dynamics, energy ------------------------------------------------------------------
def test_model_matches():
    (mp, _, _), (dp, _, _) = pair()
    assert (mp.num_positions(), mp.num_velocities()) == (dp.num_positions(), dp.num_velocities())
    assert mp.num_force_elements() == dp.num_force_elements() == 6
    for i in range(6):
        index = MALLARD.ForceElementIndex(i)
        element = mp.get_force_element(index)
        assert repr(element) == repr(dp.get_force_element(DRAKE.ForceElementIndex(i)))


def test_force_elements_contribution_and_time_derivatives():
    models = pair()
    for q, v in states(models[0][0]):
        set_state(models, q, v)
        compare_forces(models)
        (_, mi, mc), (_, di, dc) = models
        for name in ("CalcBushingSpatialForceOnFrameA", "CalcBushingSpatialForceOnFrameC"):
            close(
                getattr(mi["bushing"], name)(mc).get_coeffs(),
                getattr(di["bushing"], name)(dc).get_coeffs(),
            )


def test_context_parameters():
    models = pair()
    q, v = next(states(models[0][0], seed=1))
    set_state(models, q, v)
    for _, items, context in models:
        items["rs"].SetNominalAngle(context, -0.3)
        items["rs"].SetStiffness(context, 11.0)
        bushing = items["bushing"]
        bushing.SetTorqueStiffnessConstants(context, [3, 1, 2])
        bushing.SetTorqueDampingConstants(context, [0.1, 0.0, 0.3])
        bushing.SetForceStiffnessConstants(context, [20, 0, 5])
        bushing.SetForceDampingConstants(context, [0.5, 0.6, 0.0])
    (_, mi, mc), (_, di, dc) = models
    assert mi["rs"].GetNominalAngle(mc) == di["rs"].GetNominalAngle(dc) == -0.3
    assert mi["rs"].GetStiffness(mc) == di["rs"].GetStiffness(dc) == 11.0
    for name in ("TorqueStiffness", "TorqueDamping", "ForceStiffness", "ForceDamping"):
        getter = f"Get{name}Constants"
        np.testing.assert_array_equal(
            getattr(mi["bushing"], getter)(mc), getattr(di["bushing"], getter)(dc)
        )
    compare_forces(models)


def test_energy_and_power():
    models = pair(bushing=False)
    for q, v in states(models[0][0], seed=2):
        set_state(models, q, v)
        (mp, _, mc), (dp, _, dc) = models
        elements = [mp.get_force_element(MALLARD.ForceElementIndex(i)) for i in range(5)]
        for method, element_method in (
            ("EvalPotentialEnergy", "CalcPotentialEnergy"),
            ("CalcConservativePower", "CalcConservativePower"),
            ("CalcNonConservativePower", "CalcNonConservativePower"),
        ):
            expected = getattr(dp, method)(dc)
            close(getattr(mp, method)(mc), expected)
            # pydrake binds no per-element energy: their sum must give the plant's.
            close(sum(getattr(e, element_method)(mc) for e in elements), expected)
        compare_forces(models)


@pytest.mark.parametrize("gravity_off_for_other", [True, False])
def test_gravity_generalized_forces(gravity_off_for_other):
    models = pair(gravity_off_for_other=gravity_off_for_other)
    for q, v in states(models[0][0], seed=3):
        set_state(models, q, v)
        (mp, mi, mc), (dp, di, dc) = models
        tau_g = mp.gravity_field().CalcGravityGeneralizedForces(mc)
        close(tau_g, dp.gravity_field().CalcGravityGeneralizedForces(dc))
        close(tau_g, dp.CalcGravityGeneralizedForces(dc))
        for plant, items, _ in models:
            expected = not gravity_off_for_other
            assert plant.gravity_field().is_enabled(items["other"]) is expected
            assert plant.gravity_field().is_enabled(items["robot"]) is True
        if gravity_off_for_other:  # no gravity on the free body's six velocities
            np.testing.assert_array_equal(tau_g[-6:], np.zeros(6))


def test_door_hinge_torques():
    hinges = []
    for m in LIBRARIES:
        plant = m.MultibodyPlant(0.0)
        body = plant.AddRigidBody("b", m.SpatialInertia.SolidBoxWithMass(1, 0.1, 0.1, 0.1))
        joint = plant.AddJoint(
            m.RevoluteJoint("j", plant.world_frame(), body.body_frame(), [0, 0, 1])
        )
        hinges.append(
            [
                m.DoorHinge(joint, m.DoorHingeConfig()),
                m.DoorHinge(joint, m.DoorHingeConfig(catch_width=0.3, motion_threshold=0.2)),
                m.DoorHinge(joint, m.DoorHingeConfig(catch_width=0.0, motion_threshold=0.0)),
            ]
        )
    for m_hinge, d_hinge in zip(*hinges, strict=True):
        assert repr(m_hinge.config()) == repr(d_hinge.config())
        for x in np.linspace(-2.0, 2.0, 41):
            close(m_hinge.CalcHingeSpringTorque(x), d_hinge.CalcHingeSpringTorque(x))
            close(
                m_hinge.CalcHingeFrictionalTorque(x / 4), d_hinge.CalcHingeFrictionalTorque(x / 4)
            )
            close(m_hinge.CalcHingeTorque(x, -x / 3), d_hinge.CalcHingeTorque(x, -x / 3))


def test_getters():
    (_, mi, _), (_, di, _) = pair()
    for name, getters in [
        ("rs", ("default_nominal_angle", "default_stiffness", "model_instance")),
        ("ps", ("nominal_position", "stiffness", "model_instance")),
        ("lsd", ("free_length", "stiffness", "damping", "p_AP", "p_BQ", "model_instance")),
        (
            "bushing",
            (
                "torque_stiffness_constants",
                "torque_damping_constants",
                "force_stiffness_constants",
                "force_damping_constants",
                "model_instance",
            ),
        ),
        ("hinge", ("model_instance",)),
    ]:
        for getter in getters:
            x, y = getattr(mi[name], getter)(), getattr(di[name], getter)()
            if getter == "model_instance":
                assert int(x) == int(y)
            else:
                np.testing.assert_array_equal(x, y)
    for name, getter, element in [
        ("rs", "joint", "ja"),
        ("ps", "joint", "jb"),
        ("hinge", "joint", "jd"),
        ("lsd", "bodyA", "a"),
        ("lsd", "bodyB", "free"),
        ("bushing", "link0", "c"),
        ("bushing", "link1", "free"),
    ]:
        assert getattr(mi[name], getter)() is mi[element]
        assert repr(getattr(mi[name], getter)()) == repr(getattr(di[name], getter)())
    assert repr(mi["bushing"].frameA()) == repr(di["bushing"].frameA())


# ---- MultibodyForces, RigidBody and Joint force methods ------------------------------------------
def _every_joint(m):
    plant = m.MultibodyPlant(0.0)
    W = plant.world_frame()
    rng = np.random.default_rng(4)
    F = [plant.AddRigidBody(f"b{i}", _inertia(m, rng)).body_frame() for i in range(8)]
    joints = [
        m.RevoluteJoint("rev", W, F[0], [0, 0.6, 0.8], 0.1),
        m.PrismaticJoint("pri", W, F[1], [0, 1, 1], damping=0.2),
        m.ScrewJoint("scr", W, F[2], 0.3, 0.3),
        m.UniversalJoint("uni", W, F[3], 0.4),
        m.PlanarJoint("pla", W, F[4], [0.5, 0.6, 0.7]),
        m.BallRpyJoint("ball", W, F[5], 0.8),
        m.RpyFloatingJoint("rpy", W, F[6], 0.9, 1.0),
        m.QuaternionFloatingJoint("quat", F[6], F[7], 1.1, 1.2),
    ]
    joints = [plant.AddJoint(j) for j in joints]
    E = plant.AddFrame(
        m.FixedOffsetFrame("E", F[6], m.RigidTransform(m.RollPitchYaw(1, 2, 3), [1, 2, 3]))
    )
    plant.Finalize()
    context = plant.CreateDefaultContext()
    rng = np.random.default_rng(9)
    q = rng.normal(size=plant.num_positions())
    plant.SetPositions(context, q)
    plant.SetVelocities(context, rng.normal(size=plant.num_velocities()))
    return plant, joints, [f.body() for f in F], E, context


def test_body_and_joint_force_methods():
    results = []
    for m in LIBRARIES:
        plant, joints, bodies, E, context = _every_joint(m)
        forces = m.MultibodyForces(plant)
        for i, body in enumerate(bodies):
            body.AddInForceInWorld(context, m.SpatialForce([i, 2, 3], [4, -i, 6]), forces)
            F_Bp_E = m.SpatialForce([1, -i, 0.5], [0.2, 0.3, i])
            body.AddInForce(context, [0.1 * i, -0.2, 0.3], F_Bp_E, E, forces)
            body.AddInForce(context, [0.3, 0.1, -0.2 * i], F_Bp_E, body.body_frame(), forces)
        for joint in joints[:5]:
            for dof in range(joint.num_velocities()):
                joint.AddInOneForce(context, dof, 0.5 + dof, forces)
        # Drake's AddInDamping of the universal, ball and rpy-floating joints overwrites
        # their generalized forces instead of adding to them (mallard adds): compare each
        # joint's damping from zero forces.
        damping = []
        for joint in joints:
            alone = m.MultibodyForces(plant)
            joint.AddInDamping(context, alone)
            damping.append(alone.generalized_forces())
        results.append(
            [forces.generalized_forces(), plant.CalcGeneralizedForces(context, forces)]
            + damping
            + [b.GetForceInWorld(context, forces).get_coeffs() for b in bodies]
            + [b.EvalSpatialAccelerationInWorld(context).get_coeffs() for b in bodies]
            + [b.CalcCenterOfMassTranslationalAccelerationInWorld(context) for b in bodies]
        )
    for x, y in zip(*results, strict=True):
        close(x, y)


def test_multibody_forces():
    for m in LIBRARIES:
        forces = m.MultibodyForces(nb=3, nv=4)
        assert (forces.num_bodies(), forces.num_velocities()) == (3, 4)
        forces.mutable_generalized_forces()[:] = [1, 2, 3, 4]
        copy = forces.generalized_forces()
        copy[0] = 9.0
        np.testing.assert_array_equal(forces.generalized_forces(), [1, 2, 3, 4])
        other = m.MultibodyForces(3, 4)
        other.mutable_generalized_forces()[:] = 1.0
        forces.AddInForces(other)
        np.testing.assert_array_equal(forces.generalized_forces(), [2, 3, 4, 5])
        assert forces.SetZero() is forces
        np.testing.assert_array_equal(forces.generalized_forces(), np.zeros(4))


# ---- errors --------------------------------------------------------------------------------------
def _outcome(call):
    try:
        call()
    except BaseException as e:  # pydrake's aborts are SystemExit
        return e
    return None


def _model_for_errors(m):
    plant, items = build(m)
    context = plant.CreateDefaultContext()
    plant_ball, joints, bodies, E, ball_context = _every_joint(m)
    items.update(context=context, joints=joints, ball_plant=plant_ball, ball_context=ball_context)
    return plant, items


def _error_cases(m, plant, items):
    """(name, call) pairs; each call raises in pydrake."""
    ctx, a, b, jd = items["context"], items["a"], items["b"], items["jd"]
    zero = np.zeros(3)
    unfinalized = m.MultibodyPlant(0.0)

    def zero_length():
        # a LinearSpringDamper whose ends coincide
        p = m.MultibodyPlant(0.0)
        body = p.AddRigidBody("x", m.SpatialInertia.SolidBoxWithMass(1, 0.1, 0.1, 0.1))
        p.AddForceElement(m.LinearSpringDamper(p.world_body(), zero, body, zero, 1.0, 1.0, 1.0))
        p.Finalize()
        p.CalcForceElementsContribution(p.CreateDefaultContext(), m.MultibodyForces(p))

    def gimbal_lock():
        # Frame G (C) pitched by 90° − 1e-3 rad about frame F's (A's) y axis.
        c = plant.CreateDefaultContext()
        F, G = items["bushing"].frameA(), items["bushing"].frameC()
        X_FG = m.RigidTransform(m.RotationMatrix.MakeYRotation(np.pi / 2 - 1e-3), zero)
        X_WG = F.CalcPoseInWorld(c) @ X_FG
        plant.SetFreeBodyPose(c, items["free"], X_WG @ G.CalcPoseInBodyFrame(c).inverse())
        items["bushing"].CalcBushingSpatialForceOnFrameC(c)

    ball_plant, ball_ctx, joints = items["ball_plant"], items["ball_context"], items["joints"]
    wrong = m.MultibodyForces(2, 2)
    config = m.DoorHingeConfig()
    config.catch_width = -1.0
    bushing_args = ([1, 1, 1], [1, -1, 1], [1, 1, 1], [1, 1, 1])
    F = items["bushing"].frameA()
    return [
        ("zero length", zero_length),
        ("PE", lambda: plant.EvalPotentialEnergy(ctx)),
        ("CP", lambda: plant.CalcConservativePower(ctx)),
        ("NCP", lambda: plant.CalcNonConservativePower(ctx)),
        ("gimbal lock", gimbal_lock),
        ("second gravity", lambda: unfinalized.AddForceElement(m.UniformGravityFieldElement())),
        ("is_enabled", lambda: plant.gravity_field().is_enabled(m.ModelInstanceIndex(9))),
        (
            "set_enabled",
            lambda: unfinalized.mutable_gravity_field().set_enabled(m.ModelInstanceIndex(9), True),
        ),
        ("post-finalize", lambda: plant.mutable_gravity_field().set_enabled(items["robot"], True)),
        ("forces pre-finalize", lambda: m.MultibodyForces(unfinalized)),
        (
            "ball one force",
            lambda: joints[5].AddInOneForce(ball_ctx, 0, 1.0, m.MultibodyForces(ball_plant)),
        ),
        (
            "rpy one force",
            lambda: joints[6].AddInOneForce(ball_ctx, 0, 1.0, m.MultibodyForces(ball_plant)),
        ),
        (
            "quat one force",
            lambda: joints[7].AddInOneForce(ball_ctx, 0, 1.0, m.MultibodyForces(ball_plant)),
        ),
        # pydrake aborts (SystemExit) on these:
        ("free length", lambda: m.LinearSpringDamper(a, zero, b, zero, 0.0, 1.0, 1.0)),
        ("spring k", lambda: m.LinearSpringDamper(a, zero, b, zero, 1.0, -1.0, 1.0)),
        ("spring d", lambda: m.LinearSpringDamper(a, zero, b, zero, 1.0, 1.0, -1.0)),
        ("revolute k", lambda: m.RevoluteSpring(items["ja"], 0.0, -1.0)),
        ("prismatic k", lambda: m.PrismaticSpring(items["jb"], 0.0, -1.0)),
        ("SetStiffness", lambda: items["rs"].SetStiffness(ctx, -1.0)),
        ("hinge config", lambda: m.DoorHinge(jd, config)),
        ("bushing constants", lambda: m.LinearBushingRollPitchYaw(F, F, *bushing_args)),
        ("AddInForces", lambda: m.MultibodyForces(2, 2).AddInForces(m.MultibodyForces(3, 2))),
        (
            "dof range",
            lambda: joints[0].AddInOneForce(ball_ctx, 1, 1.0, m.MultibodyForces(ball_plant)),
        ),
        ("one force size", lambda: joints[0].AddInOneForce(ball_ctx, 0, 1.0, wrong)),
        ("damping size", lambda: joints[0].AddInDamping(ball_ctx, wrong)),
        ("in world size", lambda: a.AddInForceInWorld(ctx, m.SpatialForce(zero, zero), wrong)),
        ("at point size", lambda: a.AddInForce(ctx, zero, m.SpatialForce(zero, zero), F, wrong)),
        ("get size", lambda: a.GetForceInWorld(ctx, wrong)),
        ("forces size", lambda: plant.CalcForceElementsContribution(ctx, wrong)),
        ("unowned joint", lambda: m.RevoluteSpring(items["ja"], 0.0, 1.0).joint()),
        ("unowned hinge joint", lambda: m.DoorHinge(jd, m.DoorHingeConfig()).joint()),
        ("unowned frameA", lambda: m.LinearBushingRollPitchYaw(F, F, *[[1, 1, 1]] * 4).frameA()),
        ("unowned gravity", lambda: m.UniformGravityFieldElement().is_enabled(items["robot"])),
        (
            "unowned gravity tau",
            lambda: m.UniformGravityFieldElement().CalcGravityGeneralizedForces(ctx),
        ),
        # argument conversion
        ("config positional", lambda: m.DoorHingeConfig(1.0)),
        ("config keyword", lambda: m.DoorHingeConfig(foo=1.0)),
        ("spring on prismatic", lambda: m.RevoluteSpring(items["jb"], 0.0, 1.0)),
        ("float nb", lambda: m.MultibodyForces(1.0, 2)),
        ("short p_AP", lambda: m.LinearSpringDamper(a, [1, 2], b, zero, 1.0, 1.0, 1.0)),
        ("text angle", lambda: m.RevoluteSpring(items["ja"], "0", 1.0)),
        (
            "float dof",
            lambda: joints[0].AddInOneForce(ball_ctx, 0.0, 1.0, m.MultibodyForces(ball_plant)),
        ),
        ("short constants", lambda: items["bushing"].SetForceDampingConstants(ctx, [1.0, 2.0])),
    ]


def test_errors():
    (mp, mi), (dp, di) = (_model_for_errors(m) for m in LIBRARIES)
    m_cases, d_cases = _error_cases(MALLARD, mp, mi), _error_cases(DRAKE, dp, di)
    for (name, m_call), (_, d_call) in zip(m_cases, d_cases, strict=True):
        expected, got = _outcome(d_call), _outcome(m_call)
        assert expected is not None, name
        if isinstance(expected, SystemExit):
            assert type(got) is RuntimeError, (name, got)
        elif isinstance(expected, RuntimeError):
            assert type(got) is RuntimeError and str(got) == str(expected), (name, got, expected)
        else:
            assert type(got) is type(expected), (name, got, expected)
