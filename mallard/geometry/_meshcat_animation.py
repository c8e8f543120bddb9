"""MeshcatAnimation: transforms and properties of scene paths at frames of a fixed rate, as
Meshcat records them between StartRecording() and StopRecording() (pydrake.geometry's)."""

import enum
import math

from mallard.geometry._meshcat_paths import checked_property, matrix4, normalized_path
from mallard.math import RotationMatrix


def _vector(value):
    return [float(x) for x in value]


class MeshcatAnimation:
    """Key frames (frame k is at time k / frames_per_second) of the transforms and properties
    of scene paths; a later value at the same frame replaces the earlier one.

    ``autoplay`` (default True), ``loop_mode`` (default kLoopRepeat), ``repetitions``
    (default 1) and ``clamp_when_finished`` (default True: the last frame stays when it
    ends) are the player's options.
    """

    class LoopMode(enum.IntEnum):
        """How the player loops (three.js's values)."""

        kLoopOnce = 2200
        kLoopRepeat = 2201
        kLoopPingPong = 2202

    def __init__(self, frames_per_second=64.0):
        frames_per_second = float(frames_per_second)
        if not frames_per_second > 0:
            raise RuntimeError(
                f"MeshcatAnimation: frames_per_second must be positive, got {frames_per_second}"
            )
        self._fps = frames_per_second
        self._tracks = {}  # path -> property -> (js type, {frame: value})
        self._start_time = 0.0
        self._autoplay = True
        self._loop_mode = MeshcatAnimation.LoopMode.kLoopRepeat
        self._repetitions = 1
        self._clamp_when_finished = True

    def frames_per_second(self):
        return self._fps

    def start_time(self):
        """The time of frame 0 (default 0): frame() counts from it."""
        return self._start_time

    def set_start_time(self, time):
        self._start_time = float(time)

    def frame(self, time_from_start):
        """The frame at ``time_from_start`` (seconds): floor((time − start_time()) · fps).
        RuntimeError for a time before start_time()."""
        time = float(time_from_start)
        if not time >= self._start_time:
            raise RuntimeError(
                f"MeshcatAnimation.frame(): time {time} is before start_time() {self._start_time}"
            )
        return math.floor((time - self._start_time) * self._fps)

    def autoplay(self):
        return self._autoplay

    def set_autoplay(self, play):
        self._autoplay = bool(play)

    def loop_mode(self):
        return self._loop_mode

    def set_loop_mode(self, mode):
        self._loop_mode = MeshcatAnimation.LoopMode(mode)

    def repetitions(self):
        return self._repetitions

    def set_repetitions(self, repetitions):
        self._repetitions = int(repetitions)

    def clamp_when_finished(self):
        return self._clamp_when_finished

    def set_clamp_when_finished(self, clamp):
        self._clamp_when_finished = bool(clamp)

    def _set(self, frame, path, name, js_type, value):
        if int(frame) < 0:
            raise RuntimeError(f"MeshcatAnimation: frame must be non-negative, got {frame}")
        track = self._tracks.setdefault(path, {}).setdefault(name, (js_type, {}))
        track[1][int(frame)] = value

    def SetTransform(self, frame, path, X_ParentPath):
        """Records the pose of ``path`` in its parent (a RigidTransform or 4x4 matrix) at
        ``frame``, as its position and quaternion."""
        T = matrix4(X_ParentPath)
        w, x, y, z = RotationMatrix(T[:3, :3]).ToQuaternion().wxyz()
        path = normalized_path(path)
        self._set(frame, path, "position", "vector3", _vector(T[:3, 3]))
        self._set(frame, path, "quaternion", "quaternion", [float(x), float(y), float(z), float(w)])

    def SetProperty(self, frame, path, property, value):  # noqa: A002 (pydrake's name)
        """Records ``property`` of ``path`` at ``frame``: a bool, a number or a vector."""
        value, js_type = checked_property(property, value)
        self._set(frame, normalized_path(path), property, js_type, value)

    def get_key_frame(self, frame, path, property):  # noqa: A002
        """The value recorded for ``property`` of ``path`` at ``frame``; RuntimeError if
        none ("position" and "quaternion" hold a transform)."""
        path = normalized_path(path)
        try:
            return self._tracks[path][property][1][int(frame)]
        except KeyError:
            raise RuntimeError(
                f"MeshcatAnimation: no key frame {frame} for the property '{property}' of "
                f"the path '{path}'"
            ) from None

    def end_time(self):
        """The time of the last key frame in the animation: its frame / fps (0 if none)."""
        frames = [f for t in self._tracks.values() for _, keys in t.values() for f in keys]
        return max(frames, default=0) / self._fps

    def lower(self):
        """The viewer's ``set_animation`` command."""
        animations = []
        for path, properties in self._tracks.items():
            tracks = []
            for name, (js_type, keys) in properties.items():
                frames = sorted(keys)
                tracks.append(
                    {
                        "name": f".{name}",
                        "type": js_type,
                        "keys": [{"time": f, "value": keys[f]} for f in frames],
                    }
                )
            clip = {"fps": self._fps, "name": "default", "tracks": tracks}
            animations.append({"path": path, "clip": clip})
        options = {
            "play": self._autoplay,
            "loopMode": int(self._loop_mode),
            "repetitions": self._repetitions,
            "clampWhenFinished": self._clamp_when_finished,
        }
        return {"type": "set_animation", "path": "", "animations": animations, "options": options}
