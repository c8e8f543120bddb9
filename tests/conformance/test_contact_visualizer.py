"""ContactVisualizer against pydrake's: the same scene (a sphere and a box of two geometries
on a half space, a discrete plant) publishes the same Meshcat paths ("contact_forces/point/
{A}+{B}" with Drake's geometry names), arrow poses and visibility; ContactVisualizerParams'
fields and defaults are pydrake's."""

import numpy as np
import pytest

import mallard.all as M

D = pytest.importorskip("pydrake.all")
pytest.importorskip("meshcat")
umsgpack = pytest.importorskip("umsgpack")

#: The arrows' paths the scene could make (both orders of each pair, and wrong names).
CANDIDATES = [
    f"contact_forces/point/{a}+{b}"
    for a, b in [
        ("ball", "world"),
        ("world", "ball"),
        ("box.left", "world"),
        ("box.right", "world"),
        ("world", "box.left"),
        ("box", "world"),
        ("box.left", "ball"),
    ]
]


def scene(module, overload):
    """A ball resting on the ground and a box on two small spheres ("left", "right") beside
    it, simulated 0.2 s with a ContactVisualizer added by ``overload`` (0: plant, 1:
    contact results and query ports, 2: contact results only); returns the Meshcat, the
    plant and its context."""
    meshcat = module.Meshcat()
    builder = module.DiagramBuilder()
    plant, scene_graph = module.AddMultibodyPlantSceneGraph(builder, 1e-3)
    friction = module.CoulombFriction(1.0, 1.0)
    ball = plant.AddRigidBody("ball", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    plant.RegisterCollisionGeometry(
        ball, module.RigidTransform(), module.Sphere(0.1), "ball", friction
    )
    box = plant.AddRigidBody("box", module.SpatialInertia.SolidBoxWithMass(2.0, 0.4, 0.1, 0.1))
    for name, x in (("left", -0.15), ("right", 0.15)):
        plant.RegisterCollisionGeometry(
            box, module.RigidTransform([x, 0, -0.05]), module.Sphere(0.02), name, friction
        )
    plant.RegisterCollisionGeometry(
        plant.world_body(), module.RigidTransform(), module.HalfSpace(), "ground", friction
    )
    plant.Finalize()
    Visualizer = module.ContactVisualizer
    if overload == 0:
        Visualizer.AddToBuilder(builder, plant, meshcat)
    elif overload == 1:
        Visualizer.AddToBuilder(
            builder,
            plant.get_contact_results_output_port(),
            scene_graph.get_query_output_port(),
            meshcat,
        )
    else:
        Visualizer.AddToBuilder(builder, plant.get_contact_results_output_port(), meshcat)
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    context = plant.GetMyContextFromRoot(root)
    plant.SetFreeBodyPose(context, ball, module.RigidTransform([0, 0, 0.099]))
    plant.SetFreeBodyPose(context, box, module.RigidTransform([0.5, 0, 0.069]))
    module.Simulator(diagram, root).AdvanceTo(0.2)
    return meshcat, plant, context


def _pose(module, meshcat, path):
    """The 4×4 pose set at ``path`` (column-major as sent to the viewer)."""
    if module is D:
        command = umsgpack.unpackb(meshcat._GetPackedTransform(path))
        matrix = command["matrix"]
    else:
        matrix = meshcat._nodes["/drake/" + path].transform
    return np.array(matrix).reshape(4, 4).T


def _visible(module, meshcat, path):
    if module is D:
        return umsgpack.unpackb(meshcat._GetPackedProperty(path, "visible"))["value"]
    return meshcat._nodes["/drake/" + path].properties["visible"]


@pytest.mark.parametrize("overload", [0, 1])
def test_paths_poses_and_visibility_as_pydrake(overload):
    published = {}
    for module in (M, D):
        meshcat, plant, context = scene(module, overload)
        paths = [p for p in CANDIDATES if meshcat.HasPath(p)]
        published[module] = (
            paths,
            [_pose(module, meshcat, p) for p in paths],
            [_visible(module, meshcat, p) for p in paths],
        )
    (paths, poses, visible), (their_paths, their_poses, their_visible) = published.values()
    assert (
        paths
        == their_paths
        == [
            "contact_forces/point/ball+world",
            "contact_forces/point/box.left+world",
            "contact_forces/point/box.right+world",
        ]
    )
    np.testing.assert_allclose(poses, their_poses, rtol=0, atol=1e-9)
    assert visible == their_visible == [True, True, True]


def test_without_a_query_port_as_pydrake():
    """Without the query_object input, a body's geometries are named by their ids."""
    for module in (M, D):
        meshcat, plant, context = scene(module, 2)
        assert meshcat.HasPath("contact_forces/point/ball+world")
        assert not meshcat.HasPath("contact_forces/point/box.left+world")


def test_params_as_pydrake():
    mine, theirs = M.ContactVisualizerParams(), D.ContactVisualizerParams()
    assert repr(mine) == repr(theirs)
    fields = [f for f in dir(theirs) if not f.startswith("_")]
    assert sorted(vars(mine)) == sorted(fields)
    changed = M.ContactVisualizerParams(radius=0.01, prefix="f", newtons_per_meter=3.0)
    assert (changed.radius, changed.prefix, changed.newtons_per_meter) == (0.01, "f", 3.0)


def test_meshcat_cone_as_pydrake():
    for args, kwargs in [((1.0,), {}), ((1.0, 2.0, 3.0), {}), ((2.0,), {"b": 3.0})]:
        mine, theirs = M.MeshcatCone(*args, **kwargs), D.MeshcatCone(*args, **kwargs)
        assert repr(mine) == repr(theirs)
        assert (mine.height(), mine.a(), mine.b()) == (theirs.height(), theirs.a(), theirs.b())
    measures = np.array([1.0, 2.0, 3.0])
    assert repr(M.MeshcatCone(measures)) == repr(D.MeshcatCone(measures))
    with pytest.raises(RuntimeError, match="height must be finite and positive"):
        M.MeshcatCone(-1.0)
    with pytest.raises(SystemExit, match="height"):  # (pydrake's failed DRAKE_THROW_UNLESS)
        D.MeshcatCone(-1.0)
