"""Point contact of continuous plants against pydrake's: a sphere dropped on a half space
(with spin and slip), a box on spheres on an incline sticking and sliding, and the contact
results' numbers, with the same integrator and step.

Agreement measured (the same dynamics integrated by the same explicit scheme, so to round-off
amplified by the stiff contact; a stiction tolerance of 1 cm/s, which RK2 at 1e-4 s resolves:
with Drake's 1e-4 m/s friction in stiction is too stiff for it, in both libraries): the
dropped sphere ~1e-12 in q and v after 1.5 s; the box on the incline ~1e-12 after 0.5 s;
contact results to 1e-12 relative.
"""

import numpy as np
import pytest

import mallard.all as M

D = pytest.importorskip("pydrake.all")

G = 9.81


def sphere_on_ground(module, model=None, friction=(0.8, 0.5), props=None, time_step=0.0,
                     approximation=None, shape=None):  # fmt: skip
    """A free sphere (r = 0.1 m, 1 kg) above World's half space z ≤ 0: (diagram, plant,
    root context, plant context). Without ``props`` both geometries get only the friction:
    SceneGraph's default stiffness and dissipation apply. ``shape``: the ball's collision
    geometry instead of its sphere."""
    builder = module.DiagramBuilder()
    plant, _ = module.AddMultibodyPlantSceneGraph(builder, time_step)
    if approximation is not None:
        plant.set_discrete_contact_approximation(
            getattr(module.DiscreteContactApproximation, approximation)
        )
    if model is not None:
        plant.set_contact_model(getattr(module.ContactModel, model))
    ball = plant.AddRigidBody("ball", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    for body, geometry, name in (
        (ball, shape or module.Sphere(0.1), "ball"),
        (plant.world_body(), module.HalfSpace(), "ground"),
    ):
        properties = module.ProximityProperties()
        module.AddContactMaterial(
            friction=module.CoulombFriction(*friction), properties=properties, **(props or {})
        )
        plant.RegisterCollisionGeometry(body, module.RigidTransform(), geometry, name, properties)
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    return diagram, plant, root, plant.GetMyContextFromRoot(root)


def box_on_incline(module, theta, mu, time_step=0.0, approximation=None):
    """A 1 kg box (0.2 × 0.2 × 0.1 m) touching an incline of angle ``theta`` about y with four
    spheres (r = 0.01 m) at its bottom corners, stiffness 1e5 N/m each and dissipation 10 s/m,
    friction ``mu`` (static, dynamic); the box's x axis points down the slope."""
    builder = module.DiagramBuilder()
    plant, _ = module.AddMultibodyPlantSceneGraph(builder, time_step)
    if approximation is not None:
        plant.set_discrete_contact_approximation(
            getattr(module.DiscreteContactApproximation, approximation)
        )
    box = plant.AddRigidBody("box", module.SpatialInertia.SolidBoxWithMass(1.0, 0.2, 0.2, 0.1))
    properties = module.ProximityProperties()
    module.AddContactMaterial(
        dissipation=10.0,
        point_stiffness=1e5,
        friction=module.CoulombFriction(*mu),
        properties=properties,
    )
    for i, (x, y) in enumerate([(1, 1), (1, -1), (-1, 1), (-1, -1)]):
        X_BS = module.RigidTransform([0.09 * x, 0.09 * y, -0.05])
        plant.RegisterCollisionGeometry(box, X_BS, module.Sphere(0.01), f"s{i}", properties)
    normal = [np.sin(theta), 0.0, np.cos(theta)]  # the incline descends along +x'
    plant.RegisterCollisionGeometry(
        plant.world_body(),
        module.HalfSpace.MakePose(normal, [0.0, 0.0, 0.0]),
        module.HalfSpace(),
        "incline",
        properties,
    )
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    context = plant.GetMyContextFromRoot(root)
    R = module.RotationMatrix.MakeYRotation(theta)
    # Resting on the corners' spheres at their static penetration (m·g·cos θ/4 per pair of
    # stiffness 5e4 N/m).
    height = 0.06 - G * np.cos(theta) / 4 / 5e4
    p = R.matrix() @ [0, 0, height]
    plant.SetFreeBodyPose(context, box, module.RigidTransform(R, p))
    return diagram, plant, root, context


def run(module, make, times, step, v0=None, **kwargs):
    """[q; v] at each of ``times`` (s) of RK2 at ``step`` s, with a stiction tolerance of
    1 cm/s (which explicit RK2 at that step resolves), and the plant and its context."""
    diagram, plant, root, context = make(module, **kwargs)
    plant.set_stiction_tolerance(1e-2)
    if make is sphere_on_ground:
        plant.SetPositions(context, [1, 0, 0, 0, 0, 0, 0.3])
    if v0 is not None:
        plant.SetVelocities(context, v0)
    simulator = module.Simulator(diagram, root)
    module.ResetIntegratorFromFlags(simulator, "runge_kutta2", step)
    states = []
    for t in times:
        simulator.AdvanceTo(t)
        states.append(plant.GetPositionsAndVelocities(context))
    return states, plant, context


@pytest.mark.slow
def test_dropped_sphere_agrees():
    """Dropped with spin and a sideways velocity: it bounces (Hunt–Crossley), slips then
    rolls (Stribeck), and comes to rest at pydrake's state."""
    v0 = [0.0, 5.0, 1.0, 1.0, 0.0, 0.0]
    times = [0.25, 0.5, 1.0, 1.5]
    (m, plant, context), (d, *_) = (
        run(module, sphere_on_ground, times, 1e-4, v0) for module in (M, D)
    )
    np.testing.assert_allclose(m, d, rtol=0, atol=1e-9)
    # At rest on the ground at penetration m·g/k (SceneGraph's default 1e6 N/m per geometry).
    assert m[-1][6] == pytest.approx(0.1 - G / 5e5, abs=1e-6)
    w, v = m[-1][7:10], m[-1][10:]
    assert abs(v[2]) < 1e-6  # rolling without slip, spin about z kept (no rolling resistance)
    np.testing.assert_allclose(v[:2], np.cross(w, [0, 0, 0.1])[:2], atol=1e-2)  # v_C = 0


def test_contact_results_agree():
    """The contact results and generalized contact forces of pydrake, for states in the
    stiction band, across the Stribeck curve and sliding, approaching and separating."""
    for v in (
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 5e-5, 0, -0.1],
        [0, 0, 0, 1.5e-4, 1e-4, 0.01],
        [0.3, -2.0, 1.0, 0.4, 0.1, -0.3],
    ):
        results = []
        for module in (M, D):
            _, plant, _, context = sphere_on_ground(module, props={"point_stiffness": 3e5})
            plant.SetPositions(context, [0.9, 0.1, 0.3, np.sqrt(0.09), 0.05, -0.02, 0.095])
            plant.SetVelocities(context, v)
            cr = plant.get_contact_results_output_port().Eval(context)
            info = cr.point_pair_contact_info(0)
            port = plant.get_generalized_contact_forces_output_port(
                plant.GetModelInstanceByName("DefaultModelInstance")
            )
            results.append((
                cr.num_point_pair_contacts(), int(info.bodyA_index()), int(info.bodyB_index()),
                info.contact_force(), info.contact_point(), info.separation_speed(),
                info.slip_speed(), info.point_pair().depth, port.Eval(context),
                plant.EvalTimeDerivatives(context).CopyToVector(),
            ))  # fmt: skip
        for a, b in zip(*results, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.abs(b).max())


def test_penalty_time_scale_agrees():
    values = []
    for module in (M, D):
        plant = sphere_on_ground(module)[1]
        values.append(plant.get_contact_penalty_method_time_scale())
        plant.set_penetration_allowance(2e-3)
        values.append(plant.get_contact_penalty_method_time_scale())
    np.testing.assert_allclose(values[:2], values[2:], rtol=1e-15)


@pytest.mark.parametrize("theta, mu, slides", [(0.3, (0.5, 0.5), False), (0.5, (0.4, 0.3), True)])
def test_box_on_incline_agrees(theta, mu, slides):
    """tan(0.3) = 0.31 < 0.5: the box sticks (creeping below the stiction tolerance);
    tan(0.5) = 0.55 > 0.4: it slides with a = g·(sin θ − μd·cos θ), as in pydrake."""
    times = [0.3, 0.5]
    (m, *_), (d, *_) = (
        run(module, box_on_incline, times, 1e-4, theta=theta, mu=mu) for module in (M, D)
    )
    np.testing.assert_allclose(m, d, rtol=0, atol=1e-9)
    speed = [np.linalg.norm(x[10:]) for x in m]
    if slides:
        a = G * (np.sin(theta) - mu[1] * np.cos(theta))
        assert (speed[1] - speed[0]) / 0.2 == pytest.approx(a, rel=1e-3)
    else:  # creeping at a slip speed below the stiction tolerance
        assert max(speed) < 1e-2


# ---- discrete plants -----------------------------------------------------------------------------
APPROXIMATIONS = ["kSap", "kSimilar", "kLagged"]


def run_discrete(module, make, times, **kwargs):
    """[q; v] at each of ``times`` of a discrete plant (1 ms steps), its contact results'
    numbers and its generalized contact forces at the end."""
    diagram, plant, root, context = make(module, time_step=1e-3, **kwargs)
    if make is sphere_on_ground:
        plant.SetPositions(context, [1, 0, 0, 0, 0, 0, 0.2])
        plant.SetVelocities(context, [0.0, 3.0, 1.0, 1.0, 0.0, 0.0])
    simulator = module.Simulator(diagram, root)
    states = []
    for t in times:
        simulator.AdvanceTo(t)
        states.append(plant.GetPositionsAndVelocities(context))
    results = plant.get_contact_results_output_port().Eval(context)
    numbers = []
    for i in range(results.num_point_pair_contacts()):
        info = results.point_pair_contact_info(i)
        numbers.append(np.concatenate((
            [int(info.bodyA_index()), int(info.bodyB_index())], info.contact_force(),
            info.contact_point(), [info.separation_speed(), info.slip_speed()],
        )))  # fmt: skip
    instance = plant.GetModelInstanceByName("DefaultModelInstance")
    tau = plant.get_generalized_contact_forces_output_port(instance).Eval(context)
    return np.array(states), np.array(numbers), tau


@pytest.mark.parametrize("approximation", APPROXIMATIONS)
def test_discrete_dropped_sphere_agrees(approximation):
    """A sphere dropped with spin on a half space (k = 1e5 N/m, d = 10 s/m): it bounces,
    slips and rolls; each SAP approximation agrees with pydrake's over 1 s of 1 ms steps."""
    props = {"dissipation": 10.0, "point_stiffness": 1e5}
    m, d = (
        run_discrete(module, sphere_on_ground, [0.2, 0.5, 1.0], props=props,
                     approximation=approximation)
        for module in (M, D)
    )  # fmt: skip
    np.testing.assert_allclose(m[0], d[0], rtol=0, atol=1e-10)
    assert m[1].shape == d[1].shape == (1, 10)
    np.testing.assert_allclose(m[1], d[1], rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(m[2], d[2], rtol=1e-8, atol=1e-12)
    assert m[0][-1][6] == pytest.approx(0.1 - G / 5e4, rel=1e-2)  # resting near m·g/k


@pytest.mark.parametrize("approximation", APPROXIMATIONS)
@pytest.mark.parametrize("theta, mu", [(0.3, (0.5, 0.5)), (0.5, (0.4, 0.3))])
def test_discrete_box_on_incline_agrees(approximation, theta, mu):
    """The box on four spheres on the incline: sticks below tan θ = μ, slides above, as in
    pydrake (0.5 s of 1 ms steps)."""
    m, d = (
        run_discrete(module, box_on_incline, [0.3, 0.5], theta=theta, mu=mu,
                     approximation=approximation)
        for module in (M, D)
    )  # fmt: skip
    # kSimilar sliding: a step in 0.3-0.5 s ends at another iterate within SAP's relative
    # tolerance (1e-6) in each library (their factorizations, and the problem data's last bits:
    # geometry poses, normal velocities, round differently), up to 2.2e-4 after (the box's
    # angular velocity at 0.5 s).
    tolerance = 5e-4 if approximation == "kSimilar" and mu[0] < np.tan(theta) else 1e-10
    np.testing.assert_allclose(m[0], d[0], rtol=0, atol=tolerance)
    np.testing.assert_allclose(m[1], d[1], rtol=1e-8 if tolerance < 1e-8 else 1e-3, atol=1e-10)
    speed = [np.linalg.norm(x[10:]) for x in m[0]]
    if mu[0] > np.tan(theta):
        assert max(speed) < 1e-3
    else:  # (SAP's regularized friction slides a few % slower than Coulomb's)
        a = G * (np.sin(theta) - mu[1] * np.cos(theta))
        assert (speed[1] - speed[0]) / 0.2 == pytest.approx(a, rel=5e-2)
