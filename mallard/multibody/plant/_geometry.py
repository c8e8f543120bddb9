"""MultibodyPlant as a geometry source of a SceneGraph: registration, visual and collision
geometry of bodies (recorded with the SceneGraph: names, poses, shapes, properties; mallard
does no collision queries), the body frames' ids and the geometry_pose output (X_WB of every
body with a registered frame, as a FramePoseVector).

As Drake's, geometry names and frame names are scoped by the model instance
("instance::name") except in the world and default model instances; a body's frame is
registered with its first geometry, and at Finalize() for every body.
"""

import numpy as np

from mallard.geometry._scene_graph import FramePoseVector, GeometryFrame, GeometryInstance
from mallard.math import RigidTransform
from mallard.multibody.tree._indices import BodyIndex
from mallard.multibody.tree._rigid_body import RigidBody


class CoulombFriction:
    """Static and dynamic Coulomb friction coefficients (pydrake.multibody.plant's)."""

    def __init__(self, static_friction=0.0, dynamic_friction=0.0):
        static_friction, dynamic_friction = float(static_friction), float(dynamic_friction)
        if static_friction < 0 or dynamic_friction < 0:
            raise RuntimeError(
                "The given dynamic friction coefficient is negative"
                if dynamic_friction < 0
                else "The given static friction coefficient is negative"
            )
        if dynamic_friction > static_friction:
            raise RuntimeError(
                f"The given dynamic friction ({dynamic_friction}) is greater than the given "
                f"static friction ({static_friction}); dynamic friction must be less than or "
                "equal to static friction."
            )
        self._static = static_friction
        self._dynamic = dynamic_friction

    def static_friction(self):
        return self._static

    def dynamic_friction(self):
        return self._dynamic

    def __eq__(self, other):
        return isinstance(other, CoulombFriction) and (self._static, self._dynamic) == (
            other._static,
            other._dynamic,
        )

    def __repr__(self):
        return f"CoulombFriction(static_friction={self._static}, dynamic_friction={self._dynamic})"


class GeometryMixin:
    """Geometry-source methods of MultibodyPlant."""

    def _init_geometry(self):
        self._scene_graph = None
        self._source_id = None
        self._body_frame_ids = {}  # body index -> FrameId
        self._visual_geometries = {}  # body index -> [GeometryId]
        self._collision_geometries = {}

    # ---- registration ------------------------------------------------------------------------
    def RegisterAsSourceForSceneGraph(self, scene_graph):
        """Registers this plant as a geometry source of ``scene_graph`` (before Finalize(),
        once); returns its SourceId."""
        from mallard.geometry import SceneGraph

        self._throw_if_finalized("RegisterAsSourceForSceneGraph")
        if not isinstance(scene_graph, SceneGraph):
            raise TypeError(
                "RegisterAsSourceForSceneGraph(): expected a SceneGraph, got "
                f"{type(scene_graph).__name__}"
            )
        if self._scene_graph is not None:
            raise RuntimeError(
                "RegisterAsSourceForSceneGraph(): this MultibodyPlant is already registered "
                "as a geometry source (condition '!geometry_source_is_registered()' failed)."
            )
        self._scene_graph = scene_graph
        self._source_id = scene_graph.RegisterSource(self.get_name() or "MultibodyPlant")
        self._body_frame_ids[0] = scene_graph.world_frame_id()
        return self._source_id

    def geometry_source_is_registered(self):
        return self._source_id is not None

    def get_source_id(self):
        """The SourceId of this plant in its SceneGraph, or None."""
        return self._source_id

    def _scoped_geometry_name(self, model_instance, name):
        if int(model_instance) <= 1:
            return name
        return f"{self._instance_names[int(model_instance)]}::{name}"

    def _body_frame_id(self, body):
        """The FrameId of ``body`` (registering its frame on first use)."""
        b = int(body.index())
        frame_id = self._body_frame_ids.get(b)
        if frame_id is None:
            frame = GeometryFrame(
                self._scoped_geometry_name(body.model_instance(), body.name()),
                int(body.model_instance()),
            )
            frame_id = self._scene_graph.RegisterFrame(self._source_id, frame)
            self._body_frame_ids[b] = frame_id
        return frame_id

    def _register_geometry(self, method, body, args, properties_of):
        self._throw_if_finalized(method)
        if not isinstance(body, RigidBody) or body._plant is not self:
            raise RuntimeError(f"{method}(): the body must be a RigidBody of this plant")
        if self._scene_graph is None:
            raise RuntimeError(
                f"{method}(): this MultibodyPlant is not registered as a geometry source "
                "(condition 'geometry_source_is_registered()' failed): call "
                "RegisterAsSourceForSceneGraph() first"
            )
        if len(args) == 1 and isinstance(args[0], GeometryInstance):
            instance = args[0]
        else:
            if len(args) < 3:
                raise TypeError(f"{method}(): expected (body, X_BG, shape, name, ...)")
            X_BG, shape, name, *rest = args
            if not isinstance(X_BG, RigidTransform):
                raise TypeError(f"{method}(): X_BG must be a RigidTransform, got {X_BG!r}")
            instance = GeometryInstance(X_BG, shape, name)
            properties_of(instance, rest[0] if rest else None)
        instance.set_name(self._scoped_geometry_name(body.model_instance(), instance.name()))
        return self._scene_graph.RegisterGeometry(
            self._source_id, self._body_frame_id(body), instance
        )

    def RegisterVisualGeometry(self, body, *args):
        """``(body, X_BG, shape, name, diffuse_color)`` (an RGBA 4-vector or Rgba),
        ``(body, X_BG, shape, name, properties)`` or ``(body, geometry_instance)``: adds a
        visual (illustration) geometry to ``body``; returns its GeometryId."""

        def properties_of(instance, value):
            if value is None:
                value = {}
            elif not isinstance(value, dict):
                rgba = getattr(value, "rgba", None)
                rgba = rgba() if callable(rgba) else rgba  # Rgba.rgba is a property
                diffuse = np.asarray(value if rgba is None else rgba, dtype=float)
                value = {"phong": {"diffuse": diffuse.reshape(-1)}}
            instance.set_illustration_properties(value)

        geometry_id = self._register_geometry("RegisterVisualGeometry", body, args, properties_of)
        self._visual_geometries.setdefault(int(body.index()), []).append(geometry_id)
        return geometry_id

    def RegisterCollisionGeometry(self, body, *args):
        """``(body, X_BG, shape, name, coulomb_friction)``, ``(body, X_BG, shape, name,
        properties)`` or ``(body, geometry_instance)``: adds a collision (proximity)
        geometry to ``body``; returns its GeometryId (mallard does no collision queries)."""

        def properties_of(instance, value):
            if value is None:
                value = {}
            elif isinstance(value, CoulombFriction):
                value = {"material": {"coulomb_friction": value}}
            instance.set_proximity_properties(value)

        geometry_id = self._register_geometry(
            "RegisterCollisionGeometry", body, args, properties_of
        )
        self._collision_geometries.setdefault(int(body.index()), []).append(geometry_id)
        return geometry_id

    def _register_all_body_frames(self):
        """At Finalize(): every body gets a frame, as in Drake."""
        if self._scene_graph is not None:
            for body in self._bodies[1:]:
                self._body_frame_id(body)

    # ---- queries -----------------------------------------------------------------------------
    def GetVisualGeometriesForBody(self, body):
        return list(self._visual_geometries.get(int(body.index()), []))

    def GetCollisionGeometriesForBody(self, body):
        return list(self._collision_geometries.get(int(body.index()), []))

    def num_visual_geometries(self):
        return sum(len(ids) for ids in self._visual_geometries.values())

    def num_collision_geometries(self):
        return sum(len(ids) for ids in self._collision_geometries.values())

    def GetBodyFrameIdIfExists(self, body_index):
        return self._body_frame_ids.get(int(body_index))

    def GetBodyFrameIdOrThrow(self, body_index):
        frame_id = self._body_frame_ids.get(int(body_index))
        if frame_id is None:
            raise RuntimeError(
                f"Body '{self.get_body(BodyIndex(int(body_index))).name()}' does not have "
                "geometry registered with it."
            )
        return frame_id

    def GetBodyFromFrameId(self, frame_id):
        """The body whose frame is ``frame_id``, or None."""
        for b, other in self._body_frame_ids.items():
            if other == frame_id:
                return self._bodies[b]
        return None

    def EvalSceneGraphInspector(self, context):
        if self._scene_graph is None:
            raise RuntimeError(
                "EvalSceneGraphInspector(): this plant is not registered with a SceneGraph"
            )
        return self._scene_graph.model_inspector()

    # ---- geometry_pose output ----------------------------------------------------------------
    def _calc_geometry_poses(self, context, value):
        """X_WB (a FramePoseVector) of every body with a registered frame (World excepted)."""
        if not self._is_finalized:
            self._throw_if_not_finalized("get_geometry_pose_output_port().Eval")
        poses = FramePoseVector()
        for b, frame_id in self._body_frame_ids.items():
            if b:
                poses.set_value(frame_id, self.EvalBodyPoseInWorld(context, self._bodies[b]))
        value.set_value(poses)
