"""Meshcat and StartMeshcat (pydrake.geometry's API), drawing with the viewer of the
``meshcat`` package (its three.js bundle and message format), an optional dependency:
``pip install "mallard[viewer]"``."""

import base64
import importlib.util
import os
import pathlib
import tempfile
import threading
import weakref

import numpy as np

from mallard.common._pybind import call_form, overloads
from mallard.geometry._meshcat_animation import MeshcatAnimation
from mallard.geometry._meshcat_controls import MeshcatControls
from mallard.geometry._meshcat_objects import shape_object
from mallard.geometry._meshcat_params import MeshcatParams
from mallard.geometry._meshcat_paths import checked_property, matrix4, normalized_path
from mallard.geometry._rgba import Rgba
from mallard.math import RigidTransform

_INSTALL_HINT = (
    'mallard\'s Meshcat viewer needs the "meshcat" package: pip install "mallard[viewer]"'
)


def _viewer_modules():
    """(umsgpack, the path of the meshcat package's main.min.js, found without importing
    meshcat itself, which imports IPython); ImportError naming the extra."""
    try:
        import umsgpack

        spec = importlib.util.find_spec("meshcat")
    except (ImportError, ValueError) as e:
        raise ImportError(_INSTALL_HINT) from e
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(_INSTALL_HINT)
    bundle = pathlib.Path(spec.submodule_search_locations[0]) / "viewer" / "dist" / "main.min.js"
    if not bundle.is_file():
        raise ImportError(f"{_INSTALL_HINT} (its viewer bundle {bundle} is missing)")
    return umsgpack, bundle


# What StaticHtml() runs after the viewer bundle: the scene's commands (base64 msgpack), then
# "#t=SECONDS" in the URL pauses the recording at that time.
_HTML = """<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>MeshCat</title>
<style>body {{ margin: 0; }} #meshcat-pane {{ width: 100vw; height: 100vh; overflow: hidden; }}
</style></head>
<body>
<div id="meshcat-pane"></div>
<script>
{bundle}
</script>
<script>
var viewer = new MeshCat.Viewer(document.getElementById("meshcat-pane"));
var commands = [{commands}];
commands.forEach(function (text) {{
  var binary = atob(text);
  var bytes = new Uint8Array(binary.length);
  for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  viewer.handle_command_bytearray(bytes);
}});
var seek = /[#&]t=([0-9.eE+-]+)/.exec(window.location.hash);
if (seek && viewer.animator.actions.length > 0) {{
  viewer.animator.pause();
  viewer.animator.seek(parseFloat(seek[1]));
}}
</script>
</body>
</html>
"""


class _Node:
    __slots__ = ("object", "transform", "properties")

    def __init__(self):
        self.object = None
        self.transform = None
        self.properties = {}


class Meshcat:
    """A 3D scene (a tree of "/"-delimited paths holding objects, transforms and properties)
    and its recording, shown by the meshcat three.js viewer.

    ``Meshcat()`` (and StartMeshcat()) is serverless: it keeps the scene in memory and opens
    no socket. StaticHtml() gives a standalone HTML page (the viewer's JavaScript inlined: it
    needs no network) with the scene and the published recording; opened with
    ``#t=SECONDS`` after its URL, it shows the recording paused at that time. web_url()
    writes that page to a temporary file (rewritten at each call, deleted with this object)
    and returns its ``file://`` URL.

    ``Meshcat(port)`` also serves the viewer live at web_url() = "http://localhost:PORT"
    (``port`` 0: any free port; else at least 1024), from a thread of this process that
    stops when this object is deleted: each browser that connects gets the scene, then
    every change.

    Paths are absolute ("/Background") or relative to "/drake"; SetObject(path) puts the
    object at "path/<object>", so SetTransform(path) moves it and everything under path.
    """

    @overloads("port=", "params")
    def __init__(self, *args, **kwargs):
        """``Meshcat(port=None)`` or ``Meshcat(params)`` (a MeshcatParams: its port, host,
        web_url_pattern and initial_properties; mallard's viewer has no stats plot, so
        show_stats_plot and realtime_rate_period have nothing to act on)."""
        _, values = call_form(
            Meshcat.__init__,
            args,
            kwargs,
            "Meshcat",
            lambda form, v: isinstance(next(iter(v.values()), None), MeshcatParams) == (form == 1),
        )
        params = values.get("params") or MeshcatParams(port=values.get("port"))
        port = params.port
        self._params = params
        self._umsgpack, self._bundle = _viewer_modules()
        self._lock = threading.RLock()  # the scene, shared with the server's thread
        self._nodes = {}  # path -> _Node, in the order they were made
        self._recording = False
        self._set_while_recording = True
        self._animation = MeshcatAnimation()
        self._published = None  # the last published animation's set_animation command
        self._html_dir = None
        self._server = None
        server = weakref.ref(self)  # (the controls' callback must not keep us alive)
        self._controls = MeshcatControls(lambda: server() and server()._controls_changed())
        if port is not None:
            port = int(port)
            if port != 0 and port < 1024:
                raise RuntimeError(f"Meshcat(port={port}): the port must be 0 or >= 1024")
            from mallard.geometry._meshcat_server import MeshcatServer

            packed_scene = weakref.WeakMethod(self._packed_scene)  # the server may outlive us

            def scene():
                method = packed_scene()
                return [] if method is None else method()

            self._server = MeshcatServer(port, scene, self._bundle, self._controls, params.host)
            weakref.finalize(self, self._server.close)
        for prop in params.initial_properties:  # (a one-element value is that number)
            value = list(prop.value)
            value = value[0] if len(value) == 1 else value
            value = bool(value) if prop.property == "visible" else value
            self.SetProperty(prop.path, prop.property, value)

    # ---- the scene ---------------------------------------------------------------------------
    def _under(self, path):
        """The paths at or under ``path``."""
        prefix = path.rstrip("/") + "/"
        return [p for p in self._nodes if p == path or p.startswith(prefix)]

    def _apply(self, command):
        """Applies a viewer command to the scene and sends it to the live viewers."""
        with self._lock:
            kind, path = command["type"], command["path"]
            if kind == "delete":
                for p in self._under(path):
                    del self._nodes[p]
            elif kind == "set_animation":
                self._published = command
            else:
                node = self._nodes.setdefault(path, _Node())
                if kind == "set_object":
                    node.object = command["object"]
                elif kind == "set_transform":
                    node.transform = command["matrix"]
                else:
                    node.properties[command["property"]] = command["value"]
            if self._server is not None:
                self._server.send(self._umsgpack.packb(command))

    def SetObject(self, path, shape, rgba=None):
        """Sets the object at ``path`` (at "path/<object>") to ``shape`` drawn in ``rgba``
        (default Rgba(0.9, 0.9, 0.9, 1)). A mesh file the viewer cannot read (not .obj, .stl
        or .dae, or missing) is skipped with a warning; TypeError if ``shape`` is not a
        Shape or ``rgba`` not an Rgba."""
        path = normalized_path(path)
        rgba = Rgba(0.9, 0.9, 0.9, 1.0) if rgba is None else rgba
        if not isinstance(rgba, Rgba):
            raise TypeError(f"Meshcat.SetObject(): rgba must be an Rgba, got {rgba!r}")
        lowered = shape_object(shape, rgba, path)
        if lowered is not None:
            self._apply({"type": "set_object", "path": path, "object": lowered})

    def _records(self, time_in_recording):
        """Whether a call at ``time_in_recording`` is recorded, and whether it is also set."""
        recorded = self._recording and time_in_recording is not None
        return recorded, not recorded or self._set_while_recording

    @overloads("path, X_ParentPath, time_in_recording=", "path, matrix")
    def SetTransform(self, *args, **kwargs):
        """``(path, X_ParentPath, time_in_recording=None)`` or ``(path, matrix)``: sets the
        pose of ``path`` in its parent path (a RigidTransform, or a 4x4 matrix); while
        recording, also records it at ``time_in_recording`` (if given)."""
        if not kwargs and 2 <= len(args) <= 3:  # (the common call, without binding)
            path, X, time_in_recording = (*args, None)[:3]
        else:
            _, values = call_form(Meshcat.SetTransform, args, kwargs, "Meshcat.SetTransform")
            path, X = values["path"], values.get("X_ParentPath", values.get("matrix"))
            time_in_recording = values.get("time_in_recording")
        path = normalized_path(path)
        T = matrix4(X)
        recorded, applied = self._records(time_in_recording)
        if recorded:
            self._animation.SetTransform(self._animation.frame(time_in_recording), path, T)
        if applied:
            matrix = [float(x) for x in T.T.reshape(-1)]  # column-major, as three.js reads it
            self._apply({"type": "set_transform", "path": path, "matrix": matrix})

    def SetProperty(self, path, property, value, time_in_recording=None):  # noqa: A002
        """Sets ``property`` of the object at ``path`` ("visible", "color", "opacity"...) to
        a bool, number or vector; while recording, also records it at ``time_in_recording``
        (if given). TypeError for another kind of value; RuntimeError for a value of the
        wrong kind or size for a property the viewer knows (e.g. "visible" takes a bool)."""
        path = normalized_path(path)
        value, _ = checked_property(property, value)
        recorded, applied = self._records(time_in_recording)
        if recorded:
            frame = self._animation.frame(time_in_recording)
            self._animation.SetProperty(frame, path, property, value)
        if applied:
            command = {"type": "set_property", "path": path, "property": property}
            self._apply(dict(command, value=value))

    def SetCameraPose(self, camera_in_world, target_in_world):
        """Points the viewer's default camera from ``camera_in_world`` at ``target_in_world``
        (both positions in World, z up); the orbit controls then turn about the target."""
        p_WC = np.asarray(camera_in_world, dtype=float).reshape(3)
        p_WT = np.asarray(target_in_world, dtype=float).reshape(3)
        self.SetTransform("/Cameras/default", RigidTransform(p_WT))
        # The camera node is in three.js's y-up frame, a −90° turn about x from World.
        dx, dy, dz = p_WC - p_WT
        self.SetProperty("/Cameras/default/rotated/<object>", "position", [dx, dz, -dy])

    def Delete(self, path=""):
        """Deletes ``path`` and everything under it (default "": all of "/drake")."""
        self._apply({"type": "delete", "path": normalized_path(path)})

    def HasPath(self, path):
        """Whether the scene has ``path`` (or something under it)."""
        with self._lock:
            return bool(self._under(normalized_path(path)))

    def Flush(self):
        """Nothing to wait for: commands are sent as they are made."""

    # ---- recording ---------------------------------------------------------------------------
    def StartRecording(self, frames_per_second=64.0, set_visualizations_while_recording=True):
        """Records the transforms and properties set with a ``time_in_recording`` from now
        on (adding to the frames recorded so far at the same rate). With
        ``set_visualizations_while_recording`` False, recorded calls do not change the
        scene itself."""
        if float(frames_per_second) != self._animation.frames_per_second():
            self._animation = MeshcatAnimation(frames_per_second)
        self._recording = True
        self._set_while_recording = bool(set_visualizations_while_recording)

    def StopRecording(self):
        """Stops recording (the recorded frames are kept)."""
        self._recording = False

    def PublishRecording(self):
        """Sends the recording to the viewer as its animation (StaticHtml() includes it)."""
        self._apply(self._animation.lower())

    def DeleteRecording(self):
        """Discards the recorded frames (a published animation stays published)."""
        self._animation = MeshcatAnimation(self._animation.frames_per_second())

    def get_mutable_recording(self):
        """The MeshcatAnimation being recorded."""
        return self._animation

    get_recording = get_mutable_recording

    # ---- output ------------------------------------------------------------------------------
    def _commands(self):
        """The viewer commands that rebuild the scene and its published animation."""
        commands = []
        with self._lock:
            for path, node in self._nodes.items():
                if node.object is not None:
                    commands.append({"type": "set_object", "path": path, "object": node.object})
                for name, value in node.properties.items():
                    commands.append(
                        {"type": "set_property", "path": path, "property": name, "value": value}
                    )
                if node.transform is not None:
                    commands.append(
                        {"type": "set_transform", "path": path, "matrix": node.transform}
                    )
            if self._published is not None:
                commands.append(self._published)
        return commands

    def _packed_scene(self):
        return [self._umsgpack.packb(c) for c in self._commands()]

    def StaticHtml(self):
        """A standalone HTML page (no network needed) showing the scene and the published
        recording; ``#t=SECONDS`` after its URL shows the recording paused at that time."""
        packed = self._packed_scene()
        commands = ",\n".join(f'"{base64.b64encode(p).decode("ascii")}"' for p in packed)
        bundle = self._bundle.read_text(encoding="utf-8")
        return _HTML.format(bundle=bundle, commands=commands)

    def web_url(self):
        """The live viewer's URL (MeshcatParams.web_url_pattern, its host "*" as
        "localhost"); serverless, the ``file://`` URL of StaticHtml() written now to a
        temporary file."""
        if self._server is not None:
            host = "localhost" if self._params.host in ("*", "127.0.0.1") else self._params.host
            return self._params.web_url_pattern.format(host=host, port=self._server.port())
        if self._html_dir is None:
            self._html_dir = tempfile.TemporaryDirectory(prefix="mallard_meshcat_")
        path = os.path.join(self._html_dir.name, "meshcat.html")
        pathlib.Path(path).write_text(self.StaticHtml(), encoding="utf-8")
        return pathlib.Path(path).as_uri()

    def port(self):
        """The live viewer's port, or None (serverless)."""
        return None if self._server is None else self._server.port()

    def GetNumActiveConnections(self):
        """The number of browsers connected to the live viewer (0 when serverless)."""
        return 0 if self._server is None else self._server.num_connections()

    # ---- added controls (shown by the live viewer) ------------------------------------------
    def _controls_changed(self):
        if self._server is not None:
            self._server.send_controls()

    def AddSlider(self, name, min, max, step, value, decrement_keycode="", increment_keycode=""):  # noqa: A002, E501
        """Adds a slider ``name`` in [min, max] by ``step``, at ``value`` (clamped, then
        rounded to a multiple of ``step``, as Drake's); the keys (JavaScript KeyboardEvent
        codes, e.g. "ArrowLeft") move it by a step. Returns its value. RuntimeError if a
        slider or button has that name."""
        return self._controls.add_slider(
            name, min, max, step, value, decrement_keycode, increment_keycode
        )

    def SetSliderValue(self, name, value):
        """Moves slider ``name`` to ``value`` (clamped and rounded); returns its value."""
        return self._controls.set_slider(name, value)

    def GetSliderValue(self, name):
        """The value of slider ``name`` (as the user last set it in a live viewer)."""
        return self._controls.slider_value(name)

    def GetSliderNames(self):
        return self._controls.slider_names()

    def DeleteSlider(self, name, strict=True):
        """Removes slider ``name``; returns whether it existed (RuntimeError if not, when
        ``strict``)."""
        return self._controls.delete_slider(name, strict)

    def AddButton(self, name, keycode=""):
        """Adds a button ``name`` (also clicked by the key ``keycode``, a KeyboardEvent code);
        adding it again resets its clicks."""
        self._controls.add_button(name, keycode)

    def GetButtonClicks(self, name):
        """How many times button ``name`` was clicked in a live viewer since it was added."""
        return self._controls.button_clicks(name)

    def GetButtonNames(self):
        return self._controls.button_names()

    def DeleteButton(self, name, strict=True):
        return self._controls.delete_button(name, strict)

    def DeleteAddedControls(self):
        """Removes every slider and button."""
        self._controls.delete_all()


def StartMeshcat():
    """A new serverless Meshcat (see Meshcat); ``Meshcat(port=0)`` serves it live."""
    return Meshcat()
