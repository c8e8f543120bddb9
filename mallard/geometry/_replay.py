"""Replay: a recording of a SceneGraph's geometry in motion, written as one self-contained
HTML page that draws it with mallard's own small WebGL viewer (replay_viewer.js beside this
file; no three.js, no network, no package beyond numpy).

The page holds each shape once (a mesh file's triangles once however many geometries use
it, in float32 and 16- or 32-bit indices) and the poses of the geometry frames at the
recorded times (a position and a quaternion per frame, float32), so its size is about the
meshes' triangles plus the trajectory. The viewer frames the bounding box of the motion,
draws a floor grid below it, shows the title, the time and a play/pause button and slider;
"#t=SECONDS" after the page's URL shows it paused at that time, "&floor=0" hides the grid.
Contact forces recorded beside the poses (AddContactForces) are drawn as ContactVisualizer
draws point contacts: a double-sided green arrow per contact, centered at the contact point,
each half |f|/newtons_per_meter long along the force on body B (a ContactResults'
contact_force), at the sample nearest the time shown.
"""

import base64
import html
import json
import pathlib
import warnings

import numpy as np

from mallard.geometry._mesh import _MeshFile
from mallard.geometry._mesh_data import MeshFileError, read_mesh
from mallard.geometry._rgba import Rgba, illustration_color
from mallard.geometry._scene_graph import Role
from mallard.geometry._shapes import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Sphere

_VIEWER = pathlib.Path(__file__).with_name("replay_viewer.js")
_DEFAULT_COLOR = Rgba(0.9, 0.9, 0.9, 1.0)
#: The camera follows the model when the center of its box travels farther than this many
#: times the box's diagonal.
_FOLLOW_RATIO = 1.5
#: Without a scale given, the largest contact force (its 90th percentile over the recorded
#: times, so that impacts do not shrink the rest) is drawn this fraction of the largest size
#: of the model's box long (each half of its double-sided arrow).
_ARROW_FRACTION = 0.25

_PAGE = """<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>{title} · mallard replay</title>
<style>
html, body {{ margin: 0; height: 100%; overflow: hidden; background: #eef0f4;
  font: 14px system-ui, sans-serif; color: #1d2330; }}
canvas {{ display: block; width: 100vw; height: 100vh; }}
#title {{ position: absolute; top: 10px; left: 14px; pointer-events: none; }}
#title b {{ font-size: 18px; }}
#title div {{ color: #555c6b; font-size: 12px; margin-top: 2px; }}
#controls {{ position: absolute; left: 0; right: 0; bottom: 0; height: 40px; display: flex;
  align-items: center; gap: 10px; padding: 0 14px; background: rgba(255, 255, 255, 0.8); }}
#controls input {{ flex: 1; }}
#controls button {{ width: 34px; height: 26px; font-size: 14px; }}
#time {{ font-variant-numeric: tabular-nums; min-width: 150px; text-align: right; }}
#help {{ position: absolute; top: 12px; right: 14px; color: #777e8c; font-size: 11px;
  pointer-events: none; text-align: right; }}
</style></head>
<body>
<canvas id="view"></canvas>
<div id="title"><b>{title}</b><div>{subtitle}</div></div>
<div id="help">drag: turn · shift+drag or right-drag: pan · wheel: zoom<br>
space: play/pause · double-click: reset the view</div>
<div id="controls"><button id="play" title="play/pause (space)">&#10074;&#10074;</button>
<input id="scrub" type="range" min="0" max="1000" value="0" step="1">
<span id="time"></span></div>
<script type="application/json" id="mallard-scene">{scene}</script>
<script>
{viewer}
</script>
</body>
</html>
"""


def _base64(array, dtype):
    return base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode("ascii")


def _rows(X):
    """The 12 numbers of a pose's 3x4 matrix [R | p], row by row."""
    return [float(x) for x in np.asarray(X.GetAsMatrix34(), dtype=float).reshape(-1)]


def quaternions(R):
    """The unit quaternions [x, y, z, w] (w >= 0) of the rotation matrices R (..., 3, 3)."""
    R = np.asarray(R, dtype=float)
    m = {(i, j): R[..., i, j] for i in range(3) for j in range(3)}
    # Four vectors proportional to the quaternion, each over one of its components' squares
    # (times 4); the one over the largest is divided by (Shepperd's method).
    w2 = 1.0 + m[0, 0] + m[1, 1] + m[2, 2]
    x2 = 1.0 + m[0, 0] - m[1, 1] - m[2, 2]
    y2 = 1.0 - m[0, 0] + m[1, 1] - m[2, 2]
    z2 = 1.0 - m[0, 0] - m[1, 1] + m[2, 2]
    sx, sy, sz = m[2, 1] + m[1, 2], m[0, 2] + m[2, 0], m[1, 0] + m[0, 1]  # symmetric parts
    dx, dy, dz = m[2, 1] - m[1, 2], m[0, 2] - m[2, 0], m[1, 0] - m[0, 1]  # skew parts
    candidates = np.stack(
        [[dx, dy, dz, w2], [x2, sz, sy, dx], [sz, y2, sx, dy], [sy, sx, z2, dz]], axis=0
    )  # (4 candidates, 4 components, ...)
    candidates = np.moveaxis(candidates, (0, 1), (-2, -1))
    best = np.argmax(np.stack([w2, x2, y2, z2], axis=-1), axis=-1)
    q = np.take_along_axis(candidates, best[..., None, None], axis=-2)[..., 0, :]
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    return np.where(q[..., 3:] < 0, -q, q)


def _corners(lo, hi):
    """The 8 corners (8, 3) of the box [lo, hi]."""
    return np.array(
        [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    )


class Replay:
    """Records the poses of the geometry frames of a SceneGraph (through its QueryObject)
    at given times, and writes them with the geometry of ``role`` as a replay page (Html).

    Geometry on the world frame is drawn still; a HalfSpace as a large square. A mesh file
    that cannot be read (a format other than .obj, .stl and .dae, missing, malformed) is
    left out with a warning. Colors: a geometry's ("phong", "diffuse") property, else the
    mesh file's own material colors (Collada), else light gray.
    """

    def __init__(self, inspector, role=Role.kIllustration):
        self._meshes = []  # the triangles of each mesh file, once
        mesh_index = {}  # filename -> index in _meshes, or None if unreadable
        self._objects = []
        self._local_corners = []  # per object: (frame index or -1, its 8 corners in the frame)
        self._frame_ids = []
        world = inspector.world_frame_id()
        for geometry_id in inspector.GetAllGeometryIds(role):
            shape = inspector.GetShape(geometry_id)
            properties = inspector.GetProperties(geometry_id, role)
            explicit = illustration_color(properties)
            color = explicit if explicit is not None else _DEFAULT_COLOR
            drawn = self._shape(shape, mesh_index)
            if drawn is None:
                continue
            description, lo, hi = drawn
            frame_id = inspector.GetFrameId(geometry_id)
            if frame_id == world:
                frame = -1
            else:
                if frame_id not in self._frame_ids:
                    self._frame_ids.append(frame_id)
                frame = self._frame_ids.index(frame_id)
            X_FG = inspector.GetPoseInFrame(geometry_id)
            description.update(
                frame=frame,
                pose=_rows(X_FG),
                color=[float(c) for c in color.rgba],
                mesh_colors=explicit is None,
            )
            self._objects.append(description)
            if lo is not None:
                corners = _corners(lo, hi) @ X_FG.rotation().matrix().T + X_FG.translation()
                self._local_corners.append((frame, corners))
        self._times = []
        self._poses = []  # per time: (frames, 7) positions and quaternions
        self._contacts = {}  # index in _times -> (p_WC (n, 3), f_W (n, 3))

    def _shape(self, shape, mesh_index):
        """(description, lo, hi) of a shape: its viewer description and its bounding box in
        its own frame (None for a HalfSpace); None if it cannot be drawn."""
        if isinstance(shape, Box):
            size = np.array([shape.width(), shape.depth(), shape.height()])
            return {"type": "box", "size": size.tolist()}, -size / 2, size / 2
        if isinstance(shape, Sphere):
            r = shape.radius()
            return {"type": "sphere", "radius": r}, -np.full(3, r), np.full(3, r)
        if isinstance(shape, Ellipsoid):
            radii = np.array([shape.a(), shape.b(), shape.c()])
            return {"type": "ellipsoid", "radii": radii.tolist()}, -radii, radii
        if isinstance(shape, (Cylinder, Capsule)):
            r, length = shape.radius(), shape.length()
            kind = "cylinder" if isinstance(shape, Cylinder) else "capsule"
            half = np.array([r, r, length / 2 + (r if kind == "capsule" else 0.0)])
            return {"type": kind, "radius": r, "length": length}, -half, half
        if isinstance(shape, HalfSpace):
            return {"type": "halfspace"}, None, None
        if isinstance(shape, _MeshFile):
            filename = shape.filename()
            if filename not in mesh_index:
                try:
                    mesh = read_mesh(filename)
                except MeshFileError as e:
                    warnings.warn(f"replay: a mesh is left out: {e}", stacklevel=4)
                    mesh = None
                mesh_index[filename] = None if mesh is None else len(self._meshes)
                if mesh is not None:
                    self._meshes.append(mesh)
            index = mesh_index[filename]
            if index is None:
                return None
            vertices = self._meshes[index].vertices * shape.scale3()
            description = {"type": "mesh", "mesh": index, "scale": shape.scale3().tolist()}
            return description, vertices.min(axis=0), vertices.max(axis=0)
        warnings.warn(
            f"replay: a {type(shape).__name__} cannot be drawn; it is left out", stacklevel=4
        )
        return None

    def num_frames(self):
        """The number of moving geometry frames recorded."""
        return len(self._frame_ids)

    def AddPoses(self, time, query_object):
        """Records the world poses of the geometry frames, from ``query_object`` (a
        QueryObject), at ``time`` (s; later than the last recorded time)."""
        time = float(time)
        if self._times and not time > self._times[-1]:
            raise ValueError(
                f"Replay.AddPoses(): time {time} is not after the last recorded {self._times[-1]}"
            )
        poses = np.empty((len(self._frame_ids), 7))
        for i, frame_id in enumerate(self._frame_ids):
            X_WF = query_object.GetPoseInWorld(frame_id)
            poses[i, :3] = X_WF.translation()
            poses[i, 3:] = quaternions(X_WF.rotation().matrix())
        self._times.append(time)
        self._poses.append(poses)

    def AddContactForces(self, time, p_WC, f_W):
        """Records contact forces at ``time`` (the last time AddPoses recorded): ``f_W``
        (n, 3, N, expressed in World) applied at the points ``p_WC`` (n, 3, m, in World), as
        a ContactResults' contact_force() and contact_point()."""
        time = float(time)
        if not self._times or time != self._times[-1]:
            raise ValueError(
                f"Replay.AddContactForces(): time {time} is not the last time AddPoses "
                f"recorded ({self._times[-1] if self._times else 'none yet'})"
            )
        p_WC = np.asarray(p_WC, dtype=float).reshape(-1, 3)
        f_W = np.asarray(f_W, dtype=float).reshape(-1, 3)
        if len(p_WC) != len(f_W):
            raise ValueError(f"Replay.AddContactForces(): {len(p_WC)} points but {len(f_W)} forces")
        self._contacts[len(self._times) - 1] = (p_WC, f_W)

    def num_contact_forces(self):
        """The number of contact forces recorded, over every time."""
        return sum(len(f) for _, f in self._contacts.values())

    def boxes(self):
        """(lo, hi), each (times, 3): at each recorded time, the box in World that holds the
        geometry (a HalfSpace aside); None if nothing was recorded or nothing has a size."""
        if not self._times or not self._local_corners:
            return None
        positions = np.array([p[:, :3] for p in self._poses])  # (times, frames, 3)
        rotations = _rotation_matrices(np.array([p[:, 3:] for p in self._poses]))
        points = []
        for frame, corners in self._local_corners:
            if frame < 0:
                points.append(np.broadcast_to(corners, (len(self._times), 8, 3)))
            else:
                R, p = rotations[:, frame], positions[:, frame]
                points.append(np.einsum("tij,cj->tci", R, corners) + p[:, None])
        points = np.concatenate(points, axis=1)
        return points.min(axis=1), points.max(axis=1)

    def _view(self):
        """How the viewer frames the motion: (the box it frames, the floor's height, the
        centers of the box it follows at each time or None).

        When the model's box moves less than about its size (a swinging arm), the camera
        frames the box of the whole motion and the floor is below it (at z = 0 or lower;
        framed too when it is at most the box's height below it); when it travels
        farther (a falling robot), the camera follows the model's box at each time, framed
        at its largest, and the floor is below its start."""
        boxes = self.boxes()
        if boxes is None:
            return (np.array([-1.0, -1.0, 0.0]), np.array([1.0, 1.0, 1.0])), 0.0, None
        lo, hi = boxes
        union_lo, union_hi = lo.min(axis=0), hi.max(axis=0)
        size = (hi - lo).max(axis=0)
        centers = (lo + hi) / 2
        travel = np.linalg.norm(np.ptp(centers, axis=0))
        if travel <= _FOLLOW_RATIO * max(np.linalg.norm(size), 1e-9):
            floor = min(0.0, float(union_lo[2]))
            if union_lo[2] - floor <= union_hi[2] - union_lo[2]:  # the floor is near: framed
                union_lo = np.array([union_lo[0], union_lo[1], floor])
            return (union_lo, union_hi), floor, None
        return (centers[0] - size / 2, centers[0] + size / 2), min(0.0, float(lo[0, 2])), centers

    def _arrows(self, newtons_per_meter, size):
        """The contacts' scene entry: per recorded time, its first arrow ("offsets", int32,
        times + 1) and per arrow its point and half vector f/newtons_per_meter ("arrows",
        float32, (n, 6)); None without contact forces."""
        if not self.num_contact_forces():
            return None
        forces = [self._contacts.get(i, (np.zeros((0, 3)),) * 2) for i in range(len(self._times))]
        if newtons_per_meter is None:
            largest = [np.linalg.norm(f, axis=1).max() for _, f in forces if len(f)]
            newtons_per_meter = np.percentile(largest, 90) / (_ARROW_FRACTION * size) or 1.0
        counts = [len(f) for _, f in forces]
        offsets = np.concatenate([[0], np.cumsum(counts)])
        arrows = np.concatenate([np.hstack([p, f / newtons_per_meter]) for p, f in forces])
        return {
            "offsets": _base64(offsets, np.int32),
            "arrows": _base64(arrows, np.float32),
            "newtons_per_meter": float(newtons_per_meter),
        }

    def _scene(self, title, newtons_per_meter=None):
        (lo, hi), floor, centers = self._view()
        meshes = []
        for mesh in self._meshes:
            index_type = np.uint16 if len(mesh.vertices) <= 65536 else np.uint32
            meshes.append(
                {
                    "vertices": _base64(mesh.vertices, np.float32),
                    "triangles": _base64(mesh.triangles, index_type),
                    "index_bytes": np.dtype(index_type).itemsize,
                    "parts": [[first, count, rgba] for first, count, rgba in mesh.parts],
                }
            )
        times = np.array(self._times if self._times else [0.0])
        poses = np.array(self._poses) if self._poses else np.zeros((1, self.num_frames(), 7))
        if self.num_frames() and not self._poses:
            poses[..., 6] = 1.0
        return {
            "title": title,
            "bounds": [lo.tolist(), hi.tolist()],
            "floor": floor,
            "follow": None if centers is None else _base64(centers, np.float32),
            "meshes": meshes,
            "objects": self._objects,
            "num_frames": self.num_frames(),
            "times": _base64(times, np.float64),
            "poses": _base64(poses, np.float32),
            "contacts": self._arrows(newtons_per_meter, float(np.max(hi - lo))),
        }

    def Html(self, title, subtitle="", newtons_per_meter=None):
        """The replay as a standalone HTML page (str) titled ``title`` (e.g. the model's
        name), with ``subtitle`` under it; contact forces drawn ``newtons_per_meter`` N per m
        of arrow (default: the largest force about a quarter of the model's size)."""
        scene = json.dumps(self._scene(title, newtons_per_meter), separators=(",", ":"))
        return _PAGE.format(
            title=html.escape(title),
            subtitle=html.escape(subtitle),
            scene=scene.replace("</", "<\\/"),
            viewer=_VIEWER.read_text(encoding="utf-8"),
        )


def _rotation_matrices(q):
    """The rotation matrices (..., 3, 3) of unit quaternions [x, y, z, w] (..., 4)."""
    x, y, z, w = (q[..., i] for i in range(4))
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
            np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
            np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
        ],
        -2,
    )
