"""TAMSI's discrete contact (DiscreteContactApproximation.kTamsi) against pydrake's: a sphere
dropped on a half space, a box on an incline sticking and sliding, two spheres stacked, a
pendulum hitting its joint limit while its bob drags on the ground, and the derivatives of an
AutoDiffXd plant's steps, with the same time step (1 ms).

Agreement measured: the dropped sphere ~5e-16 in q and v after 1.5 s, its contact results and
generalized contact forces to round-off; the other scenes ~1e-13 or better.
"""

import numpy as np
import pytest

import mallard.all as M

D = pytest.importorskip("pydrake.all")

from tests.conformance.test_contact import box_on_incline, run_discrete, sphere_on_ground  # noqa: E402

G = 9.81
PROPS = {"dissipation": 10.0, "point_stiffness": 1e5}  # (a pair: k = 5e4 N/m, d = 10 s/m)


def test_dropped_sphere_agrees_and_rests_at_mg_over_k():
    """Dropped with spin and a sideways velocity: it bounces, slips, rolls and comes to rest;
    1.5 s of 1 ms steps, its contact results and generalized contact forces agree with
    pydrake's, and it rests at the penetration m·g/k (TAMSI's fn = k·x at vn = 0)."""
    times = [0.2, 0.5, 1.0, 1.5]
    m, d = (
        run_discrete(module, sphere_on_ground, times, props=PROPS, approximation="kTamsi")
        for module in (M, D)
    )  # fmt: skip
    np.testing.assert_allclose(m[0], d[0], rtol=0, atol=1e-6)
    np.testing.assert_allclose(m[0], d[0], rtol=0, atol=1e-12)  # (measured ~5e-16)
    assert m[1].shape == d[1].shape == (1, 10)
    np.testing.assert_allclose(m[1], d[1], rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(m[2], d[2], rtol=1e-8, atol=1e-12)
    assert m[0][-1][6] == pytest.approx(0.1 - 1.0 * G / 5e4, abs=1e-12)
    np.testing.assert_allclose(m[2], [0, 0, 0, 0, 0, G], atol=1e-9)


@pytest.mark.parametrize("theta, mu", [(0.3, (0.5, 0.5)), (0.5, (0.4, 0.3))])
def test_box_on_incline_sticks_and_slides(theta, mu):
    """The box on four spheres on the incline (0.5 s): it sticks below tan θ = μ (its slip
    within TAMSI's stiction tolerance, 1e-4 m/s), slides above with Coulomb's acceleration
    g·(sin θ − μd·cos θ), as in pydrake."""
    m, d = (
        run_discrete(module, box_on_incline, [0.3, 0.5], theta=theta, mu=mu,
                     approximation="kTamsi")
        for module in (M, D)
    )  # fmt: skip
    np.testing.assert_allclose(m[0], d[0], rtol=0, atol=1e-10)
    assert m[1].shape == d[1].shape == (4, 10)
    np.testing.assert_allclose(m[1], d[1], rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(m[2], d[2], rtol=1e-8, atol=1e-10)
    speed = [np.linalg.norm(x[10:]) for x in m[0]]
    if mu[0] > np.tan(theta):
        assert max(speed) < 1e-4
    else:
        a = G * (np.sin(theta) - mu[1] * np.cos(theta))
        assert (speed[1] - speed[0]) / 0.2 == pytest.approx(a, rel=1e-3)


def stacked_spheres(module):
    """Two free spheres (r = 0.1 m, 1 kg) stacked on World's half space, dropped from 1 cm
    above their contacts: (diagram, plant, root, plant context)."""
    builder = module.DiagramBuilder()
    plant, _ = module.AddMultibodyPlantSceneGraph(builder, 1e-3)
    plant.set_discrete_contact_approximation(module.DiscreteContactApproximation.kTamsi)
    properties = module.ProximityProperties()
    module.AddContactMaterial(
        friction=module.CoulombFriction(0.6, 0.5), properties=properties, **PROPS
    )
    for name in ("lower", "upper"):
        body = plant.AddRigidBody(name, module.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        plant.RegisterCollisionGeometry(
            body, module.RigidTransform(), module.Sphere(0.1), name, properties
        )
    plant.RegisterCollisionGeometry(
        plant.world_body(), module.RigidTransform(), module.HalfSpace(), "ground", properties
    )
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    context = plant.GetMyContextFromRoot(root)
    plant.SetPositions(context, [1, 0, 0, 0, 0, 0, 0.11, 1, 0, 0, 0, 0, 0, 0.32])
    return diagram, plant, root, context


def test_stacked_spheres_agree_and_rest_at_the_closed_form():
    """Two spheres stacked: 1 s agrees with pydrake, and the stack rests at the penetrations
    2·m·g/k (ground) and m·g/k (between the spheres)."""
    out = []
    for module in (M, D):
        diagram, plant, root, context = stacked_spheres(module)
        simulator = module.Simulator(diagram, root)
        states = []
        for t in (0.1, 0.3, 1.0):
            simulator.AdvanceTo(t)
            states.append(plant.GetPositionsAndVelocities(context))
        results = plant.get_contact_results_output_port().Eval(context)
        forces = [results.point_pair_contact_info(i).contact_force() for i in range(2)]
        out.append((np.array(states), np.array(forces)))
    (m, fm), (d, fd) = out
    np.testing.assert_allclose(m, d, rtol=0, atol=1e-10)
    np.testing.assert_allclose(fm, fd, rtol=1e-8, atol=1e-9)
    k = 5e4
    lower, upper = m[-1][6], m[-1][13]
    assert lower == pytest.approx(0.1 - 2 * G / k, abs=1e-9)
    assert upper - lower == pytest.approx(0.2 - G / k, abs=1e-9)


def test_locked_sphere_carries_the_other():
    """The lower sphere of the stack locked 1 cm above the ground (its joint's velocities
    left out of TAMSI's problem, as in Drake): the upper one lands on it and comes to rest
    at the penetration m·g/k, as in pydrake."""
    out = []
    for module in (M, D):
        diagram, plant, root, context = stacked_spheres(module)
        plant.GetJointByName("lower").Lock(context)
        simulator = module.Simulator(diagram, root)
        states = []
        for t in (0.1, 0.5):
            simulator.AdvanceTo(t)
            states.append(plant.GetPositionsAndVelocities(context))
        out.append(np.array(states))
    np.testing.assert_allclose(out[0], out[1], rtol=0, atol=1e-10)
    assert out[0][-1][6] == 0.11 and out[0][-1][13] == pytest.approx(0.31 - G / 5e4, abs=1e-9)


def limited_slider(module):
    """A 1 kg sphere (r = 0.1 m) on a prismatic joint along x (limits ±0.1 m) whose center
    is 0.0999 m above the ground (penetration 0.1 mm: fn = 5 N), launched at 1 m/s: it slides,
    friction slowing it, into its upper limit: (diagram, plant, root, plant context)."""
    builder = module.DiagramBuilder()
    plant, _ = module.AddMultibodyPlantSceneGraph(builder, 1e-3)
    plant.set_discrete_contact_approximation(module.DiscreteContactApproximation.kTamsi)
    ball = plant.AddRigidBody("ball", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    X_WP = module.RigidTransform([0, 0, 0.0999])
    slider = plant.AddJoint(module.PrismaticJoint(
        "slider", plant.AddFrame(module.FixedOffsetFrame("P", plant.world_frame(), X_WP)),
        ball.body_frame(), [1, 0, 0], -0.1, 0.1,
    ))  # fmt: skip
    properties = module.ProximityProperties()
    module.AddContactMaterial(
        friction=module.CoulombFriction(0.6, 0.5), properties=properties, **PROPS
    )
    plant.RegisterCollisionGeometry(
        ball, module.RigidTransform(), module.Sphere(0.1), "ball", properties
    )
    plant.RegisterCollisionGeometry(
        plant.world_body(), module.RigidTransform(), module.HalfSpace(), "ground", properties
    )
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    context = plant.GetMyContextFromRoot(root)
    slider.set_translation_rate(context, 1.0)
    return diagram, plant, root, context


def test_joint_limits_and_contact_together():
    """The slider slides on the ground into its upper limit (TAMSI's penalty force) and is
    stopped there: 0.5 s agrees with pydrake; the limit was passed by the penalty's give. Its
    joint's reaction force (the contact's normal force and friction among what it balances)
    agrees with pydrake's while sliding."""
    out = []
    for module in (M, D):
        diagram, plant, root, context = limited_slider(module)
        simulator = module.Simulator(diagram, root)
        states = []
        for i in range(1, 101):
            simulator.AdvanceTo(0.005 * i)
            states.append(plant.GetPositionsAndVelocities(context))
            if i == 10:
                F = plant.get_reaction_forces_output_port().Eval(context)[0]
                reaction = np.concatenate((F.rotational(), F.translational()))
        contacts = plant.get_contact_results_output_port().Eval(context)
        out.append((np.array(states), contacts.num_point_pair_contacts(), reaction))
    (m, contacts, reaction), (d, _, expected) = out
    np.testing.assert_allclose(m, d, rtol=0, atol=1e-10)
    np.testing.assert_allclose(reaction, expected, rtol=1e-10, atol=1e-10)
    assert reaction[5] == pytest.approx(G - 5.0, abs=1e-2)  # (m·g less the normal force)
    assert contacts == 1 and m[:, 0].max() > 0.1  # (into the limit, in contact)
    assert abs(m[-1, 1]) < 0.5  # (stopped or bounced back slowly)


def _autodiff_final_state(module, approximation, steps, shape=None):
    """The sphere dropped onto the ground sliding and spinning (1 ms steps, an AutoDiffXd
    plant, the initial velocities seeded): the state after ``steps`` steps and its gradient
    with respect to v0. ``shape``: the ball's collision geometry replaced."""
    diagram, plant, root, context = sphere_on_ground(
        module, props=PROPS, time_step=1e-3, approximation=approximation, shape=shape
    )
    ad = diagram.ToAutoDiffXd()
    ad_plant = ad.GetSubsystemByName(plant.get_name())
    ad_context = ad_plant.GetMyContextFromRoot(ad.CreateDefaultContext())
    q0, v0 = [1.0, 0, 0, 0, 0, 0, 0.1005], [0, 0, 0.5, 0.2, 0, -0.3]
    seeded = [module.AutoDiffXd(value, np.zeros(6)) for value in q0]
    seeded += list(module.InitializeAutoDiff(v0).reshape(-1))
    ad_plant.SetPositionsAndVelocities(ad_context, seeded)
    state = ad_plant.CreateDefaultContext().get_mutable_state()
    for _ in range(steps):
        ad_plant.CalcForcedUnrestrictedUpdate(ad_context, state)
        ad_plant.SetPositionsAndVelocities(
            ad_context, state.get_discrete_state().get_vector(0).CopyToVector()
        )
    x = ad_plant.GetPositionsAndVelocities(ad_context)
    return module.ExtractValue(x).reshape(-1), module.ExtractGradient(x)


@pytest.mark.parametrize("approximation", ["kTamsi", "kSap", "kSimilar", "kLagged"])
def test_autodiff_gradients_agree(approximation):
    """An AutoDiffXd plant in contact, as pydrake computes it: TAMSI interpreted (derivatives
    through the Newton iterations, as Drake's TamsiSolver<AutoDiffXd>), SAP solved in double
    and differentiated by the implicit function theorem with the contact constraints' data of
    AutoDiffXd scalars (as Drake's SapSolver<AutoDiffXd>). After 40 steps of landing, sliding
    and spinning, the state and its gradient with respect to the initial velocities (the
    height's among them) agree with pydrake's."""
    (xm, gm), (xd, gd) = (_autodiff_final_state(module, approximation, 40) for module in (M, D))
    np.testing.assert_allclose(xm, xd, rtol=0, atol=1e-12)
    assert np.abs(gd).max() > 1e-2 and np.abs(gd[6]).max() > 1e-5  # (∂z/∂v0 among them)
    np.testing.assert_allclose(gm, gd, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("approximation", ["kTamsi", "kLagged"])
def test_autodiff_contact_of_unsupported_shapes_raises_as_pydrake(approximation):
    """A box falling onto the half space: AutoDiffXd penetration queries do not take the pair,
    and both raise Drake's error at a step (pydrake's one step earlier, while the box is
    0.2 mm above the ground: its broadphase's boxes are looser than mallard's)."""
    messages = []
    for module in (M, D):
        with pytest.raises(RuntimeError) as error:
            _autodiff_final_state(module, approximation, 5, shape=module.Box(0.2, 0.2, 0.2))
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert "'Box' and 'Halfspace' are not supported for scalar type" in messages[0]


def _autodiff_contact_results(module, approximation):
    """The contact force (value, gradient), the generalized contact forces' gradient and the
    slip and separation speeds' gradients after 5 steps of the Simulator on the AutoDiffXd
    diagram of the sphere pressed into the ground, the initial velocities seeded."""
    diagram, plant, _, _ = sphere_on_ground(
        module, props=PROPS, time_step=1e-3, approximation=approximation
    )
    ad = diagram.ToAutoDiffXd()
    ad_plant = ad.GetSubsystemByName(plant.get_name())
    root = ad.CreateDefaultContext()
    context = ad_plant.GetMyMutableContextFromRoot(root)
    q0, v0 = [1.0, 0, 0, 0, 0, 0, 0.0995], [0, 0, 0.5, 0.2, 0, -0.3]
    seeded = [module.AutoDiffXd(value, np.zeros(6)) for value in q0]
    seeded += list(module.InitializeAutoDiff(v0).reshape(-1))
    ad_plant.SetPositionsAndVelocities(context, seeded)
    module.Simulator_[module.AutoDiffXd](ad, root).AdvanceTo(0.005)
    info = ad_plant.get_contact_results_output_port().Eval(context).point_pair_contact_info(0)
    instance = ad_plant.GetModelInstanceByName("DefaultModelInstance")
    tau = ad_plant.get_generalized_contact_forces_output_port(instance).Eval(context)
    speeds = np.array([info.slip_speed(), info.separation_speed()])
    f = info.contact_force()
    return (module.ExtractValue(f).ravel(), module.ExtractGradient(f),
            module.ExtractGradient(tau), module.ExtractGradient(speeds))  # fmt: skip


@pytest.mark.parametrize("approximation", ["kTamsi", "kSap", "kLagged"])
def test_autodiff_contact_results_agree(approximation):
    """An AutoDiffXd plant's contact results and generalized contact forces (of its last
    step, the sampled output ports) and their gradients agree with pydrake's (kSap's friction
    gradients to 4e-8: its iterations stop at a relative tolerance of 1e-6, where each
    library's last iterate differs by round-off)."""
    m, d = (_autodiff_contact_results(module, approximation) for module in (M, D))
    scale = np.abs(d[1]).max()
    assert scale > 1e-2
    rtol = 1e-7 if approximation == "kSap" else 1e-9
    for mine, theirs in zip(m, d, strict=True):
        np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=rtol * scale)


def test_failure_to_converge_raises_as_pydrake():
    """A 1 s step of a sphere thrown into a very stiff ground (k = 1e12 N/m): TAMSI's Newton
    fails with every substepping (up to 20), and both raise Drake's error."""
    messages = []
    for module in (M, D):
        builder = module.DiagramBuilder()
        plant, _ = module.AddMultibodyPlantSceneGraph(builder, 1.0)
        plant.set_discrete_contact_approximation(module.DiscreteContactApproximation.kTamsi)
        ball = plant.AddRigidBody("ball", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
        properties = module.ProximityProperties()
        module.AddContactMaterial(
            dissipation=1e3, point_stiffness=1e12, friction=module.CoulombFriction(0.5, 0.5),
            properties=properties,
        )  # fmt: skip
        for body, shape in ((ball, module.Sphere(0.1)), (plant.world_body(), module.HalfSpace())):
            plant.RegisterCollisionGeometry(
                body, module.RigidTransform(), shape, str(body.index()), properties
            )
        plant.Finalize()
        diagram = builder.Build()
        root = diagram.CreateDefaultContext()
        context = plant.GetMyContextFromRoot(root)
        plant.SetPositions(context, [1, 0, 0, 0, 0, 0, 0.0999])
        plant.SetVelocities(context, [0, 0, 0, 10, 0, -100])
        with pytest.raises(RuntimeError) as error:
            module.Simulator(diagram, root).AdvanceTo(1.0)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith(
        "MultibodyPlant's discrete update solver failed to converge at simulation time = 0 "
        "with discrete update period = 1."
    )
