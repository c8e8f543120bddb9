"""Issue 20's bad input, in continuous and discrete plants alike: a negative contact property
set on a geometry (stiffness, dissipation, relaxation time), μ_dynamic > μ_static, a
hydroelastic pair, constraints on a continuous plant: each a clear error at the public API
naming the geometry or constraint. (pydrake, given a negative stiffness or dissipation,
computes silently in a continuous plant and aborts the process in a discrete one.)"""

import pytest

from mallard.geometry import (
    AddCompliantHydroelasticProperties,
    AddContactMaterial,
    AddRigidHydroelasticProperties,
    HalfSpace,
    ProximityProperties,
    Sphere,
)
from mallard.math import RigidTransform
from mallard.multibody.plant import (
    AddMultibodyPlantSceneGraph,
    ContactModel,
    CoulombFriction,
)
from mallard.multibody.tree import SpatialInertia
from mallard.systems.analysis import Simulator
from mallard.systems.framework import DiagramBuilder

TIME_STEPS = [0.0, 1e-3]


def ball_on_ground(time_step, ball_properties, ground_properties=None, model=None):
    """A ball (r = 0.1 m) 1 cm into the ground: (diagram, plant, root context)."""
    builder = DiagramBuilder()
    plant, _ = AddMultibodyPlantSceneGraph(builder, time_step)
    if model is not None:
        plant.set_contact_model(model)
    ball = plant.AddRigidBody("ball", SpatialInertia.SolidSphereWithMass(1.0, 0.1))
    plant.RegisterCollisionGeometry(ball, RigidTransform(), Sphere(0.1), "ball", ball_properties)
    if ground_properties is None:
        ground_properties = ProximityProperties()
        AddContactMaterial(friction=CoulombFriction(1.0, 1.0), properties=ground_properties)
    plant.RegisterCollisionGeometry(
        plant.world_body(), RigidTransform(), HalfSpace(), "ground", ground_properties
    )
    plant.Finalize()
    diagram = builder.Build()
    root = diagram.CreateDefaultContext()
    plant.SetPositions(plant.GetMyContextFromRoot(root), [1, 0, 0, 0, 0, 0, 0.09])
    return diagram, plant, root


def _with(name, value):
    properties = ProximityProperties()
    AddContactMaterial(friction=CoulombFriction(1.0, 1.0), properties=properties)
    properties.AddProperty("material", name, value)
    return properties


@pytest.mark.parametrize("time_step", TIME_STEPS)
@pytest.mark.parametrize("name", ["point_contact_stiffness", "hunt_crossley_dissipation"])
def test_negative_stiffness_or_dissipation_names_the_geometry(time_step, name):
    diagram, _, root = ball_on_ground(time_step, _with(name, -1.0))
    with pytest.raises(RuntimeError, match=rf"\('material', '{name}'\) of geometry 'ball' is -1"):
        Simulator(diagram, root).AdvanceTo(0.002)


def test_negative_relaxation_time_names_the_geometry_and_body():
    diagram, _, root = ball_on_ground(1e-3, _with("relaxation_time", -1.0))
    with pytest.raises(RuntimeError, match="relaxation_time = -1 .* geometry ball on body ball"):
        Simulator(diagram, root).AdvanceTo(0.002)


def test_negative_material_values_at_the_api():
    with pytest.raises(RuntimeError, match="dissipation can't be negative"):
        AddContactMaterial(dissipation=-1.0, properties=ProximityProperties())
    with pytest.raises(RuntimeError, match="point_contact_stiffness must be strictly positive"):
        AddContactMaterial(point_stiffness=-1.0, properties=ProximityProperties())
    with pytest.raises(RuntimeError, match="given static friction is negative"):
        CoulombFriction(-0.1, 0.0)
    with pytest.raises(RuntimeError, match="given dynamic friction is negative"):
        CoulombFriction(0.1, -0.1)
    with pytest.raises(RuntimeError, match=r"dynamic friction \(0.3\) is greater than"):
        CoulombFriction(0.2, 0.3)


@pytest.mark.parametrize("time_step", TIME_STEPS)
def test_a_hydroelastic_pair_names_both_geometries(time_step):
    soft, rigid = ProximityProperties(), ProximityProperties()
    AddCompliantHydroelasticProperties(0.05, 1e6, soft)
    AddRigidHydroelasticProperties(rigid)
    diagram, plant, root = ball_on_ground(
        time_step, soft, rigid, ContactModel.kHydroelasticWithFallback
    )
    with pytest.raises(NotImplementedError, match="'ball' .* and 'ground' .* hydroelastic"):
        Simulator(diagram, root).AdvanceTo(0.002)
