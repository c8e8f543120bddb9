"""MeshcatVisualizer: draws a SceneGraph's geometry in a Meshcat and moves it with the frame
poses of each publish (pydrake.geometry's MeshcatVisualizer and MeshcatVisualizerParams)."""

import dataclasses

from mallard.common._pybind import call_form, overloads
from mallard.geometry._meshcat import Meshcat
from mallard.geometry._query_object import QueryObject
from mallard.geometry._rgba import Rgba, illustration_color
from mallard.geometry._scene_graph import Role, SceneGraph
from mallard.systems.framework import LeafSystem


@dataclasses.dataclass
class MeshcatVisualizerParams:
    """MeshcatVisualizer's settings (pydrake's fields and defaults).

    ``publish_period`` (s) between publishes; ``role`` of the geometry drawn;
    ``default_color`` for geometry without a ("phong", "diffuse") property; ``prefix``, the
    Meshcat path everything is drawn under; ``delete_on_initialization_event`` clears it when
    a simulation is initialized; ``visible_by_default`` sets its "visible" property. The
    alpha slider and hydroelastic surfaces need a live server or contact (neither in
    mallard): enabling them raises NotImplementedError.
    """

    publish_period: float = 1.0 / 64
    role: Role = Role.kIllustration
    default_color: Rgba = dataclasses.field(default_factory=lambda: Rgba(0.9, 0.9, 0.9, 1.0))
    prefix: str = "visualizer"
    delete_on_initialization_event: bool = True
    enable_alpha_slider: bool = False
    initial_alpha_slider_value: float = 1.0
    visible_by_default: bool = True
    show_hydroelastic: bool = False
    include_unspecified_accepting: bool = True


def _diffuse(properties, default_color):
    """The Rgba of a geometry's ("phong", "diffuse") property, else ``default_color``."""
    rgba = illustration_color(properties)
    return default_color if rgba is None else rgba


class MeshcatVisualizer(LeafSystem):
    """Draws the geometry of ``params.role`` that a SceneGraph's QueryObject (its "query"
    input port) sees, under the Meshcat path ``params.prefix``: each geometry frame F at
    "prefix/F's name" ("::" making subpaths) and each geometry G at "prefix/F/G's id".

    The objects are sent at the first publish (and again after an initialization event);
    every publish (periodic, at initialization, forced) sets the frames' poses X_WF, recorded
    at the Context's time while the Meshcat records.
    """

    def __init__(self, meshcat, params=None):
        super().__init__()
        params = MeshcatVisualizerParams() if params is None else params
        if not isinstance(meshcat, Meshcat):
            raise TypeError(f"MeshcatVisualizer: meshcat must be a Meshcat, got {meshcat!r}")
        if params.enable_alpha_slider:
            raise NotImplementedError(
                "MeshcatVisualizerParams.enable_alpha_slider: mallard's Meshcat has no server "
                "and no sliders"
            )
        if params.show_hydroelastic:
            raise NotImplementedError(
                "MeshcatVisualizerParams.show_hydroelastic: mallard has no hydroelastic contact"
            )
        if params.role not in (Role.kIllustration, Role.kProximity, Role.kPerception):
            raise RuntimeError(
                f"MeshcatVisualizer: params.role must be kIllustration, kProximity or "
                f"kPerception, got {params.role!r}"
            )
        self._meshcat = meshcat
        self._params = dataclasses.replace(params)
        self._prefix = params.prefix
        self._frames = None  # FrameId -> path, once the objects are set
        self.set_name(f"meshcat_visualizer({params.prefix})")
        self._query_port = self.DeclareAbstractInputPort("query_object", QueryObject())
        self.DeclarePeriodicPublishEvent(params.publish_period, 0.0, self._publish)
        self.DeclareForcedPublishEvent(self._publish)
        if params.delete_on_initialization_event:
            self.DeclareInitializationPublishEvent(self._on_initialization)

    @staticmethod
    @overloads(
        "builder, scene_graph, meshcat, params=", "builder, query_object_port, meshcat, params="
    )
    def AddToBuilder(*args, **kwargs):
        """Adds a MeshcatVisualizer to ``builder``, its input connected to the query output
        of ``scene_graph`` (a SceneGraph), or to ``query_object_port`` (a QueryObject output
        port); returns it."""
        _, values = call_form(
            MeshcatVisualizer.AddToBuilder,
            args,
            kwargs,
            "MeshcatVisualizer.AddToBuilder",
            lambda form, v: isinstance(list(v.values())[1], SceneGraph) == (form == 0),
        )
        builder, source, meshcat, params = values.values()
        visualizer = builder.AddSystem(MeshcatVisualizer(meshcat, params))
        port = source.get_query_output_port() if isinstance(source, SceneGraph) else source
        builder.Connect(port, visualizer.get_query_input_port())
        return visualizer

    def get_query_input_port(self):
        return self._query_port

    def Delete(self):
        """Deletes everything this visualizer drew (the objects are sent again at the next
        publish)."""
        self._meshcat.Delete(self._prefix)
        self._frames = None

    # ---- recording (the Meshcat's, at one frame per publish period) --------------------------
    def StartRecording(self, set_transforms_while_recording=True):
        """Starts the Meshcat's recording at 1 / publish_period frames per second; returns
        the MeshcatAnimation."""
        self._meshcat.StartRecording(
            1.0 / self._params.publish_period, set_transforms_while_recording
        )
        return self._meshcat.get_mutable_recording()

    def StopRecording(self):
        self._meshcat.StopRecording()

    def PublishRecording(self):
        self._meshcat.PublishRecording()

    def DeleteRecording(self):
        self._meshcat.DeleteRecording()

    def get_mutable_recording(self):
        return self._meshcat.get_mutable_recording()

    # ---- events ------------------------------------------------------------------------------
    def _on_initialization(self, context):
        self.Delete()
        self._publish(context)

    def _set_objects(self, query):
        inspector = query.inspector()
        role = self._params.role
        meshcat = self._meshcat
        frames = {}
        for geometry_id in inspector.GetAllGeometryIds(role):
            frame_id = inspector.GetFrameId(geometry_id)
            if frame_id not in frames:
                frame_name = inspector.GetName(frame_id).replace("::", "/")
                frames[frame_id] = f"{self._prefix}/{frame_name}"
            path = f"{frames[frame_id]}/{geometry_id.get_value()}"
            properties = inspector.GetProperties(geometry_id, role)
            rgba = _diffuse(properties, self._params.default_color)
            meshcat.SetObject(path, inspector.GetShape(geometry_id), rgba)
            meshcat.SetTransform(path, inspector.GetPoseInFrame(geometry_id))
        if not self._params.visible_by_default:
            meshcat.SetProperty(self._prefix, "visible", False)
        world = inspector.world_frame_id()
        self._frames = {f: path for f, path in frames.items() if f != world}

    def _publish(self, context):
        query = self._query_port.Eval(context)
        if self._frames is None:
            self._set_objects(query)
        time = context.get_time()
        for frame_id, path in self._frames.items():
            self._meshcat.SetTransform(path, query.GetPoseInWorld(frame_id), time)
