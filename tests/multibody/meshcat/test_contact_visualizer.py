"""ContactVisualizer: what it publishes for a ball resting on the ground (the arrow's objects
and poses against the plant's contact results), each of its params honoured, its errors."""

import numpy as np
import pytest

from mallard.geometry import Meshcat, Rgba, Sphere
from mallard.math import RigidTransform, RotationMatrix
from mallard.multibody.meshcat import ContactVisualizer, ContactVisualizerParams
from mallard.multibody.plant import AddMultibodyPlantSceneGraph, CoulombFriction
from mallard.multibody.tree import SpatialInertia
from mallard.systems.analysis import Simulator
from mallard.systems.framework import DiagramBuilder

pytest.importorskip("meshcat")

PATH = "/drake/contact_forces/point/ball+world"


def resting_ball(params=None, duration=0.3, meshcat=None):
    """A 1 kg ball (r = 0.1 m) dropped on the ground (1 ms steps) with a ContactVisualizer:
    (the Meshcat, the plant, its context, the simulator)."""
    from mallard.geometry import HalfSpace

    meshcat = Meshcat() if meshcat is None else meshcat
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, 1e-3)
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    friction = CoulombFriction(1.0, 1.0)
    plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(0.1), "ball", friction)
    plant.RegisterCollisionGeometry(
        plant.world_body(), RigidTransform(), HalfSpace(), "ground", friction
    )
    plant.Finalize()
    args = () if params is None else (params,)
    ContactVisualizer.AddToBuilder(builder, plant, meshcat, *args)
    diagram = builder.Build()
    simulator = Simulator(diagram)
    context = plant.GetMyMutableContextFromRoot(simulator.get_mutable_context())
    plant.SetPositions(context, [1, 0, 0, 0, 0.2, 0, 0.11])
    simulator.AdvanceTo(duration)
    return meshcat, plant, context, simulator


def _matrix(meshcat, path):
    return np.array(meshcat._nodes[path].transform).reshape(4, 4).T


def _object(meshcat, path):
    return meshcat._nodes[path].object


def test_arrow_matches_the_contact_results():
    """At the last publish (t = 0.28125 s, the 1/32 s period) the ball rests: the arrow is at
    the contact point, its z along the force on body B (World: up), its cylinder scaled to
    |f|/10 N/m, its cones just past the cylinder's ends, pointing out."""
    meshcat, plant, context, simulator = resting_ball(duration=0.28125)
    results = plant.get_contact_results_output_port().Eval(context)
    assert results.num_point_pair_contacts() == 1
    info = results.point_pair_contact_info(0)
    f, p = info.contact_force(), info.contact_point()
    assert np.linalg.norm(f) == pytest.approx(9.81, rel=1e-2)
    X = _matrix(meshcat, PATH)
    expected = RigidTransform(RotationMatrix.MakeFromOneVector(f, 2), p).GetAsMatrix4()
    np.testing.assert_allclose(X, expected, atol=1e-12)
    half = np.linalg.norm(f) / 10.0
    np.testing.assert_allclose(_matrix(meshcat, PATH + "/cylinder"), np.diag([1, 1, half, 1]))
    head, tail = _matrix(meshcat, PATH + "/head"), _matrix(meshcat, PATH + "/tail")
    np.testing.assert_allclose(head[:3, 3], [0, 0, -half - 0.004], atol=1e-15)
    np.testing.assert_allclose(tail[:3, 3], [0, 0, half + 0.004], atol=1e-15)
    np.testing.assert_allclose(tail[:3, :3], RotationMatrix.MakeXRotation(np.pi).matrix())
    assert meshcat._nodes[PATH].properties["visible"] is True
    cylinder = _object(meshcat, PATH + "/cylinder")["geometries"][0]
    assert (cylinder["radiusTop"], cylinder["height"]) == (0.002, 2.0)
    cone = _object(meshcat, PATH + "/head")["geometries"][0]
    assert (cone["radiusTop"], cone["radiusBottom"], cone["height"]) == (1.0, 0.0, 0.004)


def test_params_are_honoured():
    """prefix, color, radius, newtons_per_meter; a force below force_threshold hides the
    arrow (its objects are still made, as Drake's)."""
    params = ContactVisualizerParams(
        prefix="forces", color=Rgba(1, 0, 0, 1), radius=0.01, newtons_per_meter=100.0
    )
    meshcat, plant, context, _ = resting_ball(params, duration=0.28125)
    path = "/drake/forces/point/ball+world"
    assert not meshcat.HasPath("contact_forces")
    f = plant.get_contact_results_output_port().Eval(context).point_pair_contact_info(0)
    half = np.linalg.norm(f.contact_force()) / 100.0
    np.testing.assert_allclose(_matrix(meshcat, path + "/cylinder"), np.diag([1, 1, half, 1]))
    np.testing.assert_allclose(_matrix(meshcat, path + "/head")[2, 3], -half - 0.02)
    cylinder = _object(meshcat, path + "/cylinder")
    assert cylinder["geometries"][0]["radiusTop"] == 0.01
    assert cylinder["materials"][0]["color"] == 0xFF0000
    hidden = ContactVisualizerParams(force_threshold=100.0)
    meshcat, *_ = resting_ball(hidden, duration=0.28125)
    assert meshcat._nodes[PATH].properties["visible"] is False
    assert meshcat.HasPath(PATH + "/cylinder")


def test_hidden_when_the_contact_ends():
    """Once the ball is thrown off the ground, its arrow is hidden."""
    meshcat, plant, context, simulator = resting_ball(duration=0.2)
    assert meshcat._nodes[PATH].properties["visible"] is True
    plant.SetVelocities(context, [0, 0, 0, 0, 0, 5.0])
    simulator.AdvanceTo(0.3)
    assert plant.get_contact_results_output_port().Eval(context).num_point_pair_contacts() == 0
    assert meshcat._nodes[PATH].properties["visible"] is False


def test_publish_period_and_deletion_at_initialization():
    meshcat = Meshcat()
    meshcat.SetObject("contact_forces/stale", Sphere(1.0))
    poses = []
    set_transform = meshcat.SetTransform

    def counting(path, X, *rest):
        if path.endswith("ball+world"):
            poses.append(path)
        return set_transform(path, X, *rest)

    meshcat.SetTransform = counting
    resting_ball(ContactVisualizerParams(publish_period=0.1), duration=0.35, meshcat=meshcat)
    assert not meshcat.HasPath("contact_forces/stale")  # deleted at initialization
    assert len(poses) == 3  # at 0.1, 0.2, 0.3 (none at 0: the ball starts in the air)
    meshcat = Meshcat()
    meshcat.SetObject("contact_forces/stale", Sphere(1.0))
    params = ContactVisualizerParams(delete_on_initialization_event=False)
    resting_ball(params, duration=0.1, meshcat=meshcat)
    assert meshcat.HasPath("contact_forces/stale")


def test_delete_and_forced_publish():
    meshcat, plant, context, simulator = resting_ball(duration=0.1)
    diagram = simulator.get_system()
    visualizer = next(s for s in diagram.GetSystems() if isinstance(s, ContactVisualizer))
    visualizer.Delete()
    assert not meshcat.HasPath("contact_forces")
    visualizer.ForcedPublish(visualizer.GetMyContextFromRoot(simulator.get_context()))
    assert meshcat._nodes[PATH].properties["visible"] is True


def test_bad_params_raise():
    with pytest.raises(RuntimeError, match="force_threshold must be > 0"):
        ContactVisualizer(Meshcat(), ContactVisualizerParams(force_threshold=0.0))
    with pytest.raises(RuntimeError, match="publish_period must be >= 0"):
        ContactVisualizer(Meshcat(), ContactVisualizerParams(publish_period=-1.0))
    with pytest.raises(TypeError, match="must be a Meshcat"):
        ContactVisualizer("meshcat")
    with pytest.raises(TypeError):
        ContactVisualizer.AddToBuilder(DiagramBuilder(), 3)
