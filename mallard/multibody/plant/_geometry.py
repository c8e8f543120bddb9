"""MultibodyPlant as a geometry source of a SceneGraph: registration, visual and collision
geometry of bodies (recorded with the SceneGraph: names, poses, shapes, properties), the
collision filters the plant declares, the body frames' ids and the geometry_pose output (X_WB
of every body with a registered frame, as a FramePoseVector).

As Drake's, geometry names and frame names are scoped by the model instance
("instance::name") except in the world and default model instances; a body's frame is
registered with its first geometry, and at Finalize() for every body. At Finalize() the plant
also filters the collisions of bodies welded together and (unless
set_adjacent_bodies_collision_filters(False)) of the two bodies of each joint, except joints
whose parent is World and QuaternionFloatingJoints.
"""

import numpy as np

from mallard.common._pybind import call_form, overloads
from mallard.geometry._collision_filter import CollisionFilterDeclaration, GeometrySet
from mallard.geometry._geometry_instance import GeometryFrame, GeometryInstance
from mallard.geometry._properties import (
    IllustrationProperties,
    MakePhongIllustrationProperties,
    PerceptionProperties,
    ProximityProperties,
)
from mallard.geometry._scene_graph import FramePoseVector
from mallard.geometry._shapes import Shape
from mallard.math import RigidTransform
from mallard.multibody.plant._coulomb_friction import CoulombFriction
from mallard.multibody.tree._indices import BodyIndex
from mallard.multibody.tree._rigid_body import RigidBody


class GeometryLink:
    """A plant's link to its SceneGraph: the SceneGraph and the plant's SourceId in it (None
    until RegisterAsSourceForSceneGraph()), the FrameId of each body's frame and the
    GeometryIds registered on each body (dicts by body index), and whether Finalize() filters
    the collisions of bodies a joint connects."""

    __slots__ = (
        "scene_graph", "source_id", "body_frame_ids", "visual_geometries",
        "collision_geometries", "adjacent_bodies_filtered",
    )  # fmt: skip

    def __init__(self):
        self.scene_graph = self.source_id = None
        self.body_frame_ids = {}  # body index -> FrameId
        self.visual_geometries = {}  # body index -> [GeometryId]
        self.collision_geometries = {}
        self.adjacent_bodies_filtered = True


class GeometryMixin:
    """Geometry-source methods of MultibodyPlant (its GeometryLink: ``_geometry_link``)."""

    def _init_geometry(self):
        self._geometry_link = GeometryLink()

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
        if self._geometry_link.scene_graph is not None:
            raise RuntimeError(
                "RegisterAsSourceForSceneGraph(): this MultibodyPlant is already registered "
                "as a geometry source (condition '!geometry_source_is_registered()' failed)."
            )
        self._geometry_link.scene_graph = scene_graph
        self._geometry_link.source_id = scene_graph.RegisterSource(
            self.get_name() or "MultibodyPlant"
        )
        self._geometry_link.body_frame_ids[0] = scene_graph.world_frame_id()
        return self._geometry_link.source_id

    def geometry_source_is_registered(self):
        return self._geometry_link.source_id is not None

    def get_source_id(self):
        """The SourceId of this plant in its SceneGraph, or None."""
        return self._geometry_link.source_id

    def _scoped_geometry_name(self, model_instance, name):
        if int(model_instance) <= 1:
            return name
        return f"{self._instance_names[int(model_instance)]}::{name}"

    def _body_frame_id(self, body):
        """The FrameId of ``body`` (registering its frame on first use)."""
        b = int(body.index())
        frame_id = self._geometry_link.body_frame_ids.get(b)
        if frame_id is None:
            frame = GeometryFrame(
                self._scoped_geometry_name(body.model_instance(), body.name()),
                int(body.model_instance()),
            )
            frame_id = self._geometry_link.scene_graph._register_frame(
                self._geometry_link.source_id, frame
            )
            self._geometry_link.body_frame_ids[b] = frame_id
        return frame_id

    def _register_geometry(self, function, args, kwargs, properties_of):
        """Registers the geometry of a call of ``function`` (RegisterVisualGeometry or
        RegisterCollisionGeometry), its properties set by ``properties_of(instance, value)``
        from the call's last argument; returns (body, its GeometryId)."""
        method = function.__name__
        _, values = call_form(function, args, kwargs, f"MultibodyPlant.{method}")
        body = values.pop("body")
        self._check_geometry_body(method, body)
        if "geometry_instance" in values:
            instance = values["geometry_instance"]
            if not isinstance(instance, GeometryInstance):
                raise TypeError(f"{method}(): expected a GeometryInstance, got {instance!r}")
        else:
            X_BG, shape, name, value = values.values()
            if not isinstance(X_BG, RigidTransform):
                raise TypeError(f"{method}(): X_BG must be a RigidTransform, got {X_BG!r}")
            if not isinstance(shape, Shape):
                raise TypeError(f"{method}(): shape must be a Shape, got {shape!r}")
            instance = GeometryInstance(X_BG, shape, name)
            properties_of(instance, value)
        return body, self._register_instance(body, instance)

    def _check_geometry_body(self, method, body):
        """The errors of registering geometry on ``body`` by ``method`` (its name)."""
        self._throw_if_finalized(method)
        if not isinstance(body, RigidBody) or body._plant is not self:
            raise RuntimeError(f"{method}(): the body must be a RigidBody of this plant")
        if self._geometry_link.scene_graph is None:
            raise RuntimeError(
                f"{method}(): this MultibodyPlant is not registered as a geometry source "
                "(condition 'geometry_source_is_registered()' failed): call "
                "RegisterAsSourceForSceneGraph() first"
            )

    def _register_instance(self, body, instance, owned=False):
        """Registers ``instance`` (its name scoped by ``body``'s model instance) on
        ``body``'s frame; returns its GeometryId (``owned``: see SceneGraph's
        ``_register_geometry``)."""
        instance.set_name(self._scoped_geometry_name(body.model_instance(), instance.name()))
        if instance.proximity_properties() is not None:
            check = getattr(instance.shape(), "_check_for_proximity", None)
            if check is not None:
                check()
        return self._geometry_link.scene_graph._register_geometry(
            self._geometry_link.source_id, self._body_frame_id(body), instance, owned
        )

    def _register_parsed_geometry(self, visual, body, instance):
        """RegisterVisualGeometry (``visual``) or RegisterCollisionGeometry of a parser's
        ``(body, instance)``, the instance and its property sets made for this call (the
        SceneGraph keeps them uncopied); returns its GeometryId."""
        link = self._geometry_link
        method, by_body = (
            ("RegisterVisualGeometry", link.visual_geometries)
            if visual
            else ("RegisterCollisionGeometry", link.collision_geometries)
        )
        self._check_geometry_body(method, body)
        geometry_id = self._register_instance(body, instance, owned=True)
        by_body.setdefault(int(body.index()), []).append(geometry_id)
        return geometry_id

    @overloads(
        "body, X_BG, shape, name, diffuse_color",
        "body, X_BG, shape, name, properties",
        "body, geometry_instance",
    )
    def RegisterVisualGeometry(self, *args, **kwargs):
        """``(body, X_BG, shape, name, diffuse_color)`` (an RGBA 4-vector or Rgba),
        ``(body, X_BG, shape, name, properties)`` (IllustrationProperties, also used as the
        perception properties) or ``(body, geometry_instance)``: adds a visual geometry
        (illustration and perception roles) to ``body``; returns its GeometryId."""

        def properties_of(instance, value):
            if isinstance(value, IllustrationProperties):
                illustration = value
            else:
                rgba = getattr(value, "rgba", None)  # Rgba.rgba is a property
                illustration = MakePhongIllustrationProperties(value if rgba is None else rgba)
            instance.set_illustration_properties(illustration)
            instance.set_perception_properties(PerceptionProperties(illustration))

        body, geometry_id = self._register_geometry(
            GeometryMixin.RegisterVisualGeometry, args, kwargs, properties_of
        )
        self._geometry_link.visual_geometries.setdefault(int(body.index()), []).append(geometry_id)
        return geometry_id

    @overloads(
        "body, X_BG, shape, name, properties",
        "body, X_BG, shape, name, coulomb_friction",
        "body, geometry_instance",
    )
    def RegisterCollisionGeometry(self, *args, **kwargs):
        """``(body, X_BG, shape, name, coulomb_friction)``, ``(body, X_BG, shape, name,
        properties)`` (ProximityProperties) or ``(body, geometry_instance)``: adds a collision
        (proximity) geometry to ``body``; returns its GeometryId. A Mesh or Convex must name
        a readable file (RuntimeError naming it, nothing registered)."""

        def properties_of(instance, value):
            if isinstance(value, CoulombFriction):
                friction, value = value, ProximityProperties()
                value.AddProperty("material", "coulomb_friction", friction)
            elif not isinstance(value, ProximityProperties):
                raise TypeError(
                    "RegisterCollisionGeometry(): expected a CoulombFriction or "
                    f"ProximityProperties, got {type(value).__name__}"
                )
            instance.set_proximity_properties(value)

        body, geometry_id = self._register_geometry(
            GeometryMixin.RegisterCollisionGeometry, args, kwargs, properties_of
        )
        self._geometry_link.collision_geometries.setdefault(int(body.index()), []).append(
            geometry_id
        )
        return geometry_id

    # ---- collision filters -------------------------------------------------------------------
    def set_adjacent_bodies_collision_filters(self, value):
        """Whether Finalize() filters the collisions of the two bodies of each joint (true by
        default); before Finalize() only."""
        if self._is_finalized:
            raise RuntimeError(
                "Post-finalize calls to 'set_adjacent_bodies_collision_filters()' are not "
                "allowed; calls to this method must happen before Finalize()."
            )
        self._geometry_link.adjacent_bodies_filtered = bool(value)

    def get_adjacent_bodies_collision_filters(self):
        return self._geometry_link.adjacent_bodies_filtered

    def CollectRegisteredGeometries(self, bodies):
        """A GeometrySet of the frames of ``bodies`` (every geometry registered to them)."""
        if self._geometry_link.scene_graph is None:
            raise RuntimeError(
                "CollectRegisteredGeometries(): this MultibodyPlant was not registered with "
                "a SceneGraph (condition 'geometry_source_is_registered()' failed)."
            )
        geometry_set = GeometrySet()
        for body in bodies:
            frame_id = self._geometry_link.body_frame_ids.get(int(body.index()))
            if frame_id is not None:
                geometry_set.Add(frame_id)
        return geometry_set

    def _finalize_geometry(self):
        """At Finalize(): every body gets a frame, and the plant's collision filters are
        declared (welded bodies; adjacent bodies if enabled), as in Drake."""
        if self._geometry_link.scene_graph is None:
            return
        for body in self._bodies[1:]:
            self._body_frame_id(body)
        declaration = CollisionFilterDeclaration()
        if self._geometry_link.adjacent_bodies_filtered:
            for joint in self._joints:
                parent, child = joint.parent_body(), joint.child_body()
                if int(parent.index()) == 0 or joint.type_name() == "quaternion_floating":
                    continue
                declaration.ExcludeBetween(
                    self.CollectRegisteredGeometries([parent]),
                    self.CollectRegisteredGeometries([child]),
                )
        groups = {}
        for b, group in enumerate(self._welded_groups()):
            groups.setdefault(group, []).append(self._bodies[b])
        for bodies in groups.values():
            if len(bodies) > 1:
                declaration.ExcludeWithin(self.CollectRegisteredGeometries(bodies))
        self._geometry_link.scene_graph.collision_filter_manager().Apply(declaration)

    # ---- transactions (a parser's model that failed to load) ----------------------------------
    def _geometry_checkpoint(self):
        """What geometry registration has added so far, for ``_geometry_rollback``."""
        return (
            {b: list(ids) for b, ids in self._geometry_link.visual_geometries.items()},
            {b: list(ids) for b, ids in self._geometry_link.collision_geometries.items()},
            dict(self._geometry_link.body_frame_ids),
            self._geometry_link.scene_graph._checkpoint(),
        )

    def _geometry_rollback(self, checkpoint):
        """Unregisters the frames and geometries registered since ``checkpoint`` and restores
        the collision filters."""
        link = self._geometry_link
        visual, collision, frames, scene_graph = checkpoint
        link.visual_geometries, link.collision_geometries = visual, collision
        link.body_frame_ids = frames
        link.scene_graph._rollback(scene_graph)

    # ---- queries -----------------------------------------------------------------------------
    def GetVisualGeometriesForBody(self, body):
        return list(self._geometry_link.visual_geometries.get(int(body.index()), []))

    def GetCollisionGeometriesForBody(self, body):
        return list(self._geometry_link.collision_geometries.get(int(body.index()), []))

    def num_visual_geometries(self):
        return sum(len(ids) for ids in self._geometry_link.visual_geometries.values())

    def num_collision_geometries(self):
        return sum(len(ids) for ids in self._geometry_link.collision_geometries.values())

    def GetBodyFrameIdIfExists(self, body_index):
        return self._geometry_link.body_frame_ids.get(int(body_index))

    def GetBodyFrameIdOrThrow(self, body_index):
        frame_id = self._geometry_link.body_frame_ids.get(int(body_index))
        if frame_id is None:
            raise RuntimeError(
                f"Body '{self.get_body(BodyIndex(int(body_index))).name()}' does not have "
                "geometry registered with it."
            )
        return frame_id

    def GetBodyFromFrameId(self, frame_id):
        """The body whose frame is ``frame_id``, or None."""
        for b, other in self._geometry_link.body_frame_ids.items():
            if other == frame_id:
                return self._bodies[b]
        return None

    def EvalSceneGraphInspector(self, context):
        if self._geometry_link.scene_graph is None:
            raise RuntimeError(
                "EvalSceneGraphInspector(): this plant is not registered with a SceneGraph"
            )
        return self._geometry_link.scene_graph.model_inspector()

    # ---- geometry_pose output ----------------------------------------------------------------
    def _geometry_pose_version(self, context):
        """What the geometry_pose output's value in ``context`` depends on: the Context's
        positions and parameters stamps (SceneGraph keeps its geometries' poses while they
        are unchanged)."""
        return context._serial_q, context._serial_p

    def _geometry_frame_rows(self, frame_ids):
        """The rows of ``_geometry_frame_poses`` for the frames ``frame_ids`` of this plant's
        bodies (SceneGraph's queries ask once per set of frames), or None if the plant is not
        finalized or one of the frames is not a body's."""
        if not self._is_finalized:
            return None
        frame_mobods = self.__dict__.get("_frame_mobods")  # (fixed from Finalize() on)
        if frame_mobods is None:
            mobod = self._topology.mobod_of_body
            body_frames = self._geometry_link.body_frame_ids.items()
            frame_mobods = self._frame_mobods = {f: int(mobod[b]) for b, f in body_frames if b}
        try:
            return np.array([frame_mobods[f] for f in frame_ids], dtype=np.int64)
        except KeyError:
            return None

    def _geometry_frame_poses(self, context, rows):
        """X_WF (len(rows), 4, 3) of the frames whose ``rows`` _geometry_frame_rows gave, the
        numbers of the geometry_pose output (SceneGraph's queries read them without making a
        FramePoseVector), or None if the plant is not of double."""
        if self._x_of(context._state).dtype != np.float64:
            return None
        return self._posed_cache(context).work.X_pc[3][rows]

    def _calc_geometry_poses(self, context, value):
        """X_WB (a FramePoseVector) of every body with a registered frame (World excepted)."""
        if not self._is_finalized:
            self._throw_if_not_finalized("get_geometry_pose_output_port().Eval")
        poses = FramePoseVector()
        for b, frame_id in self._geometry_link.body_frame_ids.items():
            if b:
                poses.set_value(frame_id, self.EvalBodyPoseInWorld(context, self._bodies[b]))
        value.set_value(poses)
