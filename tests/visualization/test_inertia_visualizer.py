"""Inertia-equivalent shapes: SpatialInertia.CalcPrincipalHalfLengthsAndPoseForEquivalentShape
(against pydrake's solid ellipsoid and the closed form of a box) and InertiaVisualizer (its
ellipsoids, where the SceneGraph puts them, and how MeshcatVisualizer draws them)."""

import math
import os

import numpy as np
import pytest

import mallard.multibody.tree as ml_tree
from mallard.geometry import Ellipsoid, Role, Sphere
from mallard.math import RollPitchYaw
from mallard.multibody.parsing import Parser
from mallard.multibody.plant import AddMultibodyPlantSceneGraph
from mallard.multibody.tree import RotationalInertia, SpatialInertia
from mallard.systems.framework import DiagramBuilder
from mallard.visualization import InertiaVisualizer
from mallard.visualization._inertia_visualizer import (
    INERTIA_COLOR,
    MIN_HALF_LENGTH_RATIO,
    POINT_MASS_DENSITY,
)

ACROBOT = os.path.join(os.path.dirname(__file__), "../../mallard/models/acrobot.urdf")


def general_inertia(module):
    """A body's spatial inertia about its origin with a rotated, non-diagonal central
    inertia (the same numbers in mallard or pydrake.multibody.tree)."""
    R = RollPitchYaw(0.3, -0.7, 1.1).ToRotationMatrix().matrix()
    I = R @ np.diag([0.02, 0.05, 0.06]) @ R.T
    central = module.RotationalInertia(I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2])
    return module.SpatialInertia.MakeFromCentralInertia(2.5, [0.1, -0.2, 0.3], central)


def test_solid_ellipsoid_matches_pydrake():
    pd_tree = pytest.importorskip("pydrake.multibody.tree")
    half_lengths, X_BA = general_inertia(ml_tree).CalcPrincipalHalfLengthsAndPoseForEquivalentShape(
        0.2
    )
    pd_half_lengths, pd_X_BA = general_inertia(
        pd_tree
    ).CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()
    np.testing.assert_allclose(half_lengths, pd_half_lengths, rtol=1e-12)
    np.testing.assert_allclose(X_BA.translation(), pd_X_BA.translation(), rtol=1e-15)
    R, pd_R = X_BA.rotation().matrix(), pd_X_BA.rotation().matrix()
    np.testing.assert_allclose(np.abs(np.sum(R * pd_R, axis=0)), 1.0, rtol=1e-10)  # axes ± equal


def test_other_shape_factors_scale_the_half_lengths():
    M = general_inertia(ml_tree)
    ellipsoid, _ = M.CalcPrincipalSemiDiametersAndPoseForSolidEllipsoid()
    for f in (1 / 3, 0.5, 1.0):
        half_lengths, _ = M.CalcPrincipalHalfLengthsAndPoseForEquivalentShape(f)
        np.testing.assert_allclose(half_lengths, ellipsoid * math.sqrt(0.2 / f), rtol=1e-14)


def test_solid_box_half_lengths_are_its_closed_form():
    """A solid box's moments are m (b² + c²) / 3 for half-lengths a, b, c: factor 1/3."""
    M = SpatialInertia.SolidBoxWithMass(3.0, 0.2, 0.6, 0.4)
    half_lengths, X = M.CalcPrincipalHalfLengthsAndPoseForEquivalentShape(1 / 3)
    np.testing.assert_allclose(half_lengths, [0.3, 0.2, 0.1], rtol=1e-14)
    np.testing.assert_allclose(np.abs(X.rotation().matrix()), [[0, 0, 1], [1, 0, 0], [0, 1, 0]])


def test_shape_factor_out_of_range_is_an_error():
    M = SpatialInertia.SolidBoxWithMass(1.0, 1.0, 1.0, 1.0)
    for f in (0.0, -0.2, 1.5, float("nan")):
        with pytest.raises(RuntimeError, match=r"inertia_shape_factor must be in \(0, 1\]"):
            M.CalcPrincipalHalfLengthsAndPoseForEquivalentShape(f)
    with pytest.raises(RuntimeError):
        SpatialInertia.NaN().CalcPrincipalHalfLengthsAndPoseForEquivalentShape(0.2)


def add_acrobot(builder):
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    Parser(plant).AddModels(ACROBOT)
    return plant, scene_graph


def test_inertia_ellipsoids_of_the_acrobot():
    """link1 (1 kg, I = 0.083 kg m² about x and y at its center of mass, none about z) is the
    ellipsoid of half-lengths √(2·0.083 / (2·0.2)) along z and 1% of that across."""
    builder = DiagramBuilder()
    plant, scene_graph = add_acrobot(builder)
    plant.Finalize()
    InertiaVisualizer.AddToBuilder(builder, plant, scene_graph)
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    plant.SetPositions(plant.GetMyMutableContextFromRoot(context), [0.4, -0.9])
    inspector = scene_graph.model_inspector()
    ids = [
        g
        for g in inspector.GetAllGeometryIds(Role.kIllustration)
        if inspector.GetOwningSourceName(g) == "inertia_visualizer"
    ]
    assert len(ids) == 2
    query = scene_graph.get_query_output_port().Eval(scene_graph.GetMyContextFromRoot(context))
    plant_context = plant.GetMyContextFromRoot(context)
    for g, name, com, moment in zip(
        ids, ("link1", "link2"), (-0.5, -1.0), (0.083, 0.33), strict=True
    ):
        assert inspector.GetName(g) == f"{name}_inertia"
        assert inspector.GetName(inspector.GetFrameId(g)) == f"InertiaVisualizer::acrobot::{name}"
        shape = inspector.GetShape(g)
        assert isinstance(shape, Ellipsoid)
        c = math.sqrt(2 * moment / (2 * 0.2))
        np.testing.assert_allclose(
            sorted([shape.a(), shape.b(), shape.c()]),
            [MIN_HALF_LENGTH_RATIO * c, MIN_HALF_LENGTH_RATIO * c, c],
            rtol=1e-12,
        )
        X_BG = inspector.GetPoseInFrame(g)
        np.testing.assert_allclose(X_BG.translation(), [0, 0, com], atol=1e-15)
        long_axis = X_BG.rotation().matrix()[:, np.argmax([shape.a(), shape.b(), shape.c()])]
        np.testing.assert_allclose(np.abs(long_axis), [0, 0, 1], atol=1e-12)
        X_WB = plant.EvalBodyPoseInWorld(plant_context, plant.GetBodyByName(name))
        np.testing.assert_allclose(
            query.GetPoseInWorld(g).GetAsMatrix4(), (X_WB @ X_BG).GetAsMatrix4(), atol=1e-14
        )
        properties = inspector.GetIllustrationProperties(g)
        assert properties.GetProperty("phong", "diffuse") == INERTIA_COLOR


def test_point_mass_is_a_sphere_of_water_and_massless_bodies_are_skipped():
    builder = DiagramBuilder()
    plant, scene_graph = AddMultibodyPlantSceneGraph(builder, 0.0)
    point_mass = SpatialInertia.MakeFromCentralInertia(
        4.0, [0.0, 0.0, 0.5], RotationalInertia(0.0, 0.0, 0.0)
    )
    plant.AddRigidBody("point", point_mass)
    plant.AddRigidBody("massless", SpatialInertia.Zero())
    plant.Finalize()
    InertiaVisualizer.AddToBuilder(builder, plant, scene_graph)
    inspector = scene_graph.model_inspector()
    (g,) = inspector.GetAllGeometryIds(Role.kIllustration)
    sphere = inspector.GetShape(g)
    assert isinstance(sphere, Sphere)
    # Its volume holds the mass at water's density: 4/3 π r³ ρ = m.
    assert 4 / 3 * math.pi * sphere.radius() ** 3 * POINT_MASS_DENSITY == pytest.approx(4.0)
    np.testing.assert_allclose(inspector.GetPoseInFrame(g).translation(), [0, 0, 0.5])


def test_the_plant_must_be_finalized():
    builder = DiagramBuilder()
    plant, scene_graph = add_acrobot(builder)
    with pytest.raises(RuntimeError, match="the plant must be finalized"):
        InertiaVisualizer(plant, scene_graph)


def test_meshcat_draws_the_ellipsoids():
    pytest.importorskip("meshcat")
    from mallard.geometry import MeshcatVisualizer, StartMeshcat

    builder = DiagramBuilder()
    plant, scene_graph = add_acrobot(builder)
    plant.Finalize()
    InertiaVisualizer.AddToBuilder(builder, plant, scene_graph)
    meshcat = StartMeshcat()
    MeshcatVisualizer.AddToBuilder(builder, scene_graph, meshcat)
    diagram = builder.Build()
    context = diagram.CreateDefaultContext()
    diagram.ForcedPublish(context)
    assert meshcat.HasPath("visualizer/InertiaVisualizer/acrobot/link1")
    assert meshcat.HasPath("visualizer/acrobot/link1")
