"""A box, capsule or cylinder against a half space with a face or side parallel to its
boundary, against pydrake: FCL's closed forms (which Drake uses) touch at the face's center
(a box face down, a capsule or cylinder lying flat, a cylinder upright) when the axis is
parallel within 1e-7 (as a cosine), and at the deepest corner or rim point otherwise. (Found
by the stack of boxes of test_contact_scenes.py: mallard touched at a corner, and an upright
cylinder gave NaN.)"""

import numpy as np
import pytest

import mallard.all as M

D = pytest.importorskip("pydrake.all")

SHAPES = {
    "box": (lambda m: m.Box(0.2, 0.3, 0.1), 0.0499),
    "capsule": (lambda m: m.Capsule(0.05, 0.3), 0.199),
    "cylinder": (lambda m: m.Cylinder(0.05, 0.3), 0.149),
}
TURNS = {
    "none": lambda m: m.RotationMatrix(),
    "about z": lambda m: m.RotationMatrix.MakeZRotation(0.4),
    "1e-9 tilt": lambda m: m.RotationMatrix.MakeXRotation(1e-9),
    "1e-3 tilt": lambda m: m.RotationMatrix.MakeXRotation(1e-3),
    "lying": lambda m: m.RotationMatrix.MakeXRotation(np.pi / 2),
    "lying, 1e-9 tilt": lambda m: m.RotationMatrix.MakeXRotation(np.pi / 2 + 1e-9),
    "upside down": lambda m: m.RotationMatrix.MakeYRotation(np.pi),
}


def penetration(module, shape, turn, z):
    builder = module.DiagramBuilder()
    plant, scene_graph = module.AddMultibodyPlantSceneGraph(builder, 0.0)
    body = plant.AddRigidBody("b", module.SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    friction = module.CoulombFriction(1.0, 1.0)
    plant.RegisterCollisionGeometry(body, module.RigidTransform(), shape(module), "b", friction)
    plant.RegisterCollisionGeometry(
        plant.world_body(), module.RigidTransform(), module.HalfSpace(), "ground", friction
    )
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    context = plant.GetMyContextFromRoot(root)
    plant.SetFreeBodyPose(context, body, module.RigidTransform(turn(module), [0.3, 0.2, z]))
    query = scene_graph.get_query_output_port().Eval(scene_graph.GetMyContextFromRoot(root))
    return [
        np.concatenate([p.p_WCa, p.p_WCb, p.nhat_BA_W, [p.depth]])
        for p in query.ComputePointPairPenetration()
    ]


@pytest.mark.parametrize("turn", TURNS)
@pytest.mark.parametrize("shape", SHAPES)
def test_parallel_faces_as_pydrake(shape, turn):
    make, z = SHAPES[shape]
    if "lying" in turn:
        z = 0.049
    mine, theirs = (penetration(module, make, TURNS[turn], z) for module in (M, D))
    assert len(mine) == len(theirs) == 1
    np.testing.assert_allclose(mine[0], theirs[0], rtol=0, atol=1e-14)
    assert np.all(np.isfinite(mine[0]))
