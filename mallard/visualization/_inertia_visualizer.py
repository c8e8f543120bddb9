"""InertiaVisualizer (Drake's drake::visualization::InertiaVisualizer, which pydrake does not
bind): for every body with mass, the uniform solid ellipsoid with the body's spatial inertia,
as illustration geometry that any geometry visualizer (MeshcatVisualizer) draws."""

import math

import numpy as np

from mallard.common.value import AbstractValue
from mallard.geometry import (
    Ellipsoid,
    FramePoseVector,
    GeometryFrame,
    GeometryInstance,
    MakePhongIllustrationProperties,
    Rgba,
    Sphere,
)
from mallard.math import RigidTransform
from mallard.multibody.tree import BodyIndex
from mallard.systems.framework import LeafSystem

#: Drake's inertia shape factor of a solid ellipsoid: I_a = m (b² + c²) / 5.
ELLIPSOID_SHAPE_FACTOR = 0.2
#: The color of the ellipsoids: translucent blue.
INERTIA_COLOR = Rgba(0.0, 0.0, 1.0, 0.2)
#: The density (kg/m³, water's) of the sphere drawn for a point mass.
POINT_MASS_DENSITY = 1000.0
#: The smallest half-length drawn, as a fraction of the largest (for rods and plates).
MIN_HALF_LENGTH_RATIO = 0.01


def equivalent_shape(M_BBo_B):
    """(shape, X_BG) drawing a body's spatial inertia: its solid ellipsoid (each half-length
    at least MIN_HALF_LENGTH_RATIO of the largest), or for a point mass the sphere of
    POINT_MASS_DENSITY of its mass, at its center of mass."""
    half_lengths, X_BA = M_BBo_B.CalcPrincipalHalfLengthsAndPoseForEquivalentShape(
        ELLIPSOID_SHAPE_FACTOR
    )
    largest = float(half_lengths[0])
    if largest <= 0.0:
        mass = M_BBo_B.get_mass()
        radius = (3.0 * mass / (4.0 * math.pi * POINT_MASS_DENSITY)) ** (1.0 / 3.0)
        return Sphere(radius), RigidTransform(X_BA.translation())
    a, b, c = np.maximum(half_lengths, MIN_HALF_LENGTH_RATIO * largest).tolist()
    return Ellipsoid(a, b, c), X_BA


class InertiaVisualizer(LeafSystem):
    """A geometry source of ``scene_graph`` ("inertia_visualizer") with a frame on each body
    of ``plant`` (finalized) that has mass, holding the body's equivalent_shape() in
    INERTIA_COLOR (illustration role). Its input takes the plant's body poses; its output
    gives its frames' poses to the SceneGraph. The inertias are the bodies' defaults."""

    def __init__(self, plant, scene_graph):
        super().__init__()
        if not plant.is_finalized():
            raise RuntimeError(
                "InertiaVisualizer: the plant must be finalized (call plant.Finalize() first)"
            )
        self.set_name("inertia_visualizer")
        self._source_id = scene_graph.RegisterSource("inertia_visualizer")
        self._frames = {}  # body index -> FrameId
        for i in range(1, plant.num_bodies()):
            body = plant.get_body(BodyIndex(i))
            M_BBo_B = body.default_spatial_inertia()
            if not M_BBo_B.get_mass() > 0:
                continue
            frame_id = scene_graph.RegisterFrame(
                self._source_id, GeometryFrame(f"InertiaVisualizer::{body.scoped_name()}")
            )
            shape, X_BG = equivalent_shape(M_BBo_B)
            instance = GeometryInstance(X_BG, shape, f"{body.name()}_inertia")
            instance.set_illustration_properties(MakePhongIllustrationProperties(INERTIA_COLOR))
            scene_graph.RegisterGeometry(self._source_id, frame_id, instance)
            self._frames[i] = frame_id
        self._body_poses_port = self.DeclareAbstractInputPort(
            "plant_body_poses", AbstractValue.Make([RigidTransform()])
        )
        self._pose_port = self.DeclareAbstractOutputPort(
            "geometry_pose", FramePoseVector, self._calc_frame_poses
        )

    @staticmethod
    def AddToBuilder(builder, plant, scene_graph):
        """Adds an InertiaVisualizer to ``builder`` and connects it to ``plant`` and
        ``scene_graph``; returns it."""
        visualizer = builder.AddSystem(InertiaVisualizer(plant, scene_graph))
        builder.Connect(plant.get_body_poses_output_port(), visualizer._body_poses_port)
        builder.Connect(
            visualizer._pose_port, scene_graph.get_source_pose_port(visualizer._source_id)
        )
        return visualizer

    def _calc_frame_poses(self, context, value):
        X_WB = self._body_poses_port.Eval(context)
        poses = FramePoseVector()
        for i, frame_id in self._frames.items():
            poses.set_value(frame_id, X_WB[i])
        value.set_value(poses)
