"""SDFormat poses and frame semantics, as libsdformat computes them.

Poses are kept as libsdformat keeps them (a unit quaternion and a position, composed with
its formulas), so that results Drake tests for exact identity come out identical here. The
frame graph holds every named frame of a document (links, joints, frames, model frames,
world): each vertex has the frame its pose is ``relative_to`` (the pose graph) and the frame
it is ``attached_to`` (the attached-to graph, whose sinks are links).

libsdformat resolves a pose by walking from the frame up to its scope each time, which takes
time quadratic in the depth of the graph (a chain of 2000 links, each relative to the last,
takes pydrake 10 s). Once a document's graph is complete (``cache_poses``), each pose is
resolved once, and a frame more than ``EXACT_DEPTH`` edges below its scope composes the walk of
its last ``EXACT_DEPTH`` edges with the pose of the frame it reached: identical to
libsdformat's result up to that depth, different in the last bits beyond it.
"""

import math

import numpy as np

from mallard.common._quaternion import quaternion_to_matrix
from mallard.math import RigidTransform, RotationMatrix


def _qmul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (
        aw * bw - ax * bx - ay * by - az * bz,
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
    )


def _qinv(q):
    w, x, y, z = q
    s = w * w + x * x + y * y + z * z
    if abs(s) <= 1e-6:
        return (1.0, 0.0, 0.0, 0.0)
    return (w / s, -x / s, -y / s, -z / s)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _qrotate(q, v):
    """q * v as libsdformat's quaternion-vector product: v + 2w(u×v) + 2u×(u×v)."""
    u = q[1:]
    uv = _cross(u, v)
    uuv = _cross(u, uv)
    return tuple(a + 2.0 * q[0] * b + 2.0 * c for a, b, c in zip(v, uv, uuv, strict=True))


def _qnormalized(q):
    s = math.sqrt(sum(c * c for c in q))
    if abs(s) <= 1e-6:
        return (1.0, 0.0, 0.0, 0.0)
    return tuple(c / s for c in q)


class Pose:
    """X_AB as libsdformat's Pose3d: position ``p`` and quaternion ``q`` (w, x, y, z)."""

    __slots__ = ("p", "q")

    def __init__(self, p=(0.0, 0.0, 0.0), q=(1.0, 0.0, 0.0, 0.0)):
        self.p = tuple(float(c) for c in p)
        self.q = tuple(float(c) for c in q)

    @classmethod
    def _make(cls, p, q):
        """The pose of the float tuples ``p`` and ``q``, taken as they are."""
        pose = object.__new__(cls)
        pose.p = p
        pose.q = q
        return pose

    @staticmethod
    def from_rpy(p, rpy):
        """The pose at ``p`` with roll-pitch-yaw angles ``rpy`` (libsdformat's formula)."""
        phi, the, psi = (a / 2.0 for a in rpy)
        cr, sr, cp, sp, cy, sy = (
            math.cos(phi),
            math.sin(phi),
            math.cos(the),
            math.sin(the),
            math.cos(psi),
            math.sin(psi),
        )
        q = (
            cr * cp * cy + sr * sp * sy,
            sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy,
        )
        return Pose(p, _qnormalized(q))

    @staticmethod
    def from_rigid_transform(X):
        """The pose of a RigidTransform (its rotation as a quaternion)."""
        q = X.rotation().ToQuaternion()
        return Pose(X.translation(), (q.w(), q.x(), q.y(), q.z()))

    def rotate(self, v):
        """R v, as q v q⁻¹."""
        t = _qmul(self.q, _qmul((0.0, *v), _qinv(self.q)))
        return t[1:]

    def inverse(self):
        inv = _qinv(self.q)
        return Pose._make(_qrotate(inv, tuple(-c for c in self.p)), inv)

    def __mul__(self, other):
        """X_OQ = X_OP * X_PQ."""
        (x, y, z), (rx, ry, rz) = self.p, self.rotate(other.p)
        return Pose._make((x + rx, y + ry, z + rz), _qmul(self.q, other.q))

    def to_rigid_transform(self):
        """The RigidTransform Drake makes of this pose (rotation from the quaternion)."""
        q = np.array(self.q)
        R = quaternion_to_matrix(q, 2.0 / (q @ q))
        return RigidTransform(RotationMatrix._make(R), np.array(self.p))

    def __repr__(self):
        return f"Pose(p={self.p}, q={self.q})"


IDENTITY = Pose()

#: How deep a frame may be below its scope and still have its pose composed exactly as
#: libsdformat composes it (see the module's docstring).
EXACT_DEPTH = 16


class FrameError(Exception):
    """A frame-graph problem; ``element`` (an XmlElement or None) says where."""

    def __init__(self, message, element=None):
        super().__init__(message)
        self.element = element


class Vertex:
    """A named frame of the document.

    ``kind`` is "link", "joint", "frame", "model" (a model frame ``__model__``), "world" or
    "root" (above a root-level model). ``scope`` is the Scope that names it; ``pose_parent``
    and ``pose`` give X_RF (R = pose_parent); ``attached`` is the frame it is attached to
    (None for links, the world and static model frames). ``body`` is the plant RigidBody of a
    link, once created.
    """

    __slots__ = (
        "name",
        "kind",
        "scope",
        "pose_parent",
        "pose",
        "attached",
        "element",
        "body",
        "child",
        "parent",
        "axis_in_model",
        "attached_to_name",
        "plant_frame",
    )

    def __init__(self, name, kind, scope, element=None):
        self.name = name
        self.kind = kind
        self.scope = scope
        self.pose_parent = None
        self.pose = IDENTITY
        self.attached = None
        self.element = element
        self.body = None
        self.child = self.parent = None  # a joint's child and parent frames
        self.axis_in_model = False  # SDFormat 1.6's use_parent_model_frame
        self.attached_to_name = None
        self.plant_frame = None  # the plant Frame made for an explicit frame

    def scoped_name(self):
        return f"{self.scope.scoped_name()}::{self.name}" if self.scope.name else self.name

    def __repr__(self):
        return f"<Vertex {self.kind} {self.scoped_name()}>"


class Scope:
    """The names a model (or the world) defines: its frame vertex and its children by name;
    nested models are named by their model-frame vertex (whose ``scope`` is their own)."""

    def __init__(self, name, kind, parent=None, element=None):
        self.name = name
        self.parent = parent
        self.element = element
        self.kind = kind  # "model" or "world" or "root"
        vertex_name = {"model": "__model__", "world": "world", "root": "__root__"}[kind]
        self.vertex = Vertex(vertex_name, kind, self, element)
        self.names = {}
        self.links, self.joints, self.frames, self.models = [], [], [], []
        self.static = False
        self.pose_element = None
        self.canonical_link = None
        self.placement_frame = None
        self.include = None
        self.interface = None  # the model instance of an included URDF model
        self.interface_pose = None  # ... and the pose of its model frame in the world
        self.canonical = None  # the canonical link vertex, once the graph is connected
        self.model_frame = None  # the plant's __model__ frame, once added
        self.instance = None  # the plant's model instance, once added
        self.poses = None  # id(vertex) -> its pose in this scope, once the graph is complete

    def scoped_name(self):
        if self.parent is None or self.parent.kind != "model":
            return self.name
        return f"{self.parent.scoped_name()}::{self.name}"

    def add(self, vertex):
        self.names[vertex.name] = vertex
        return vertex

    def add_model(self, nested):
        self.names[nested.name] = nested.vertex
        return nested

    def lookup(self, name):
        """The vertex named ``name`` (``inner::link`` for nested ones, ``__model__``), or
        None."""
        if name == self.vertex.name:
            return self.vertex
        head, sep, rest = name.partition("::")
        if not sep:
            return self.names.get(name)
        vertex = self.names.get(head)
        if vertex is None or vertex.kind != "model":
            return None
        return vertex.scope.lookup(rest)


def _walk(vertex, scope, limit=math.inf):
    """(X_VF, V): the pose of ``vertex`` F in the frame V reached after ``limit`` edges up
    the pose graph, or in the scope's frame S if it comes first (V is then S), composed
    by libsdformat's walk (edges composed from F up)."""
    pose = IDENTITY
    visited = set()
    v = vertex
    steps = 0
    while v is not scope.vertex and steps < limit:
        if id(v) in visited:
            raise FrameError(
                f"PoseRelativeToGraph cycle detected, already visited vertex [{v.scoped_name()}].",
                vertex.element,
            )
        visited.add(id(v))
        if v.pose_parent is None:
            raise FrameError(
                f"PoseRelativeToGraph frame [{vertex.scoped_name()}] is not in the scope "
                f"of [{scope.vertex.scoped_name()}].",
                vertex.element,
            )
        pose = v.pose * pose
        v = v.pose_parent
        steps += 1
    return pose, v


def pose_in_scope(vertex, scope):
    """X_SF of ``vertex`` F in the frame S of ``scope``: libsdformat's walk, or, once the
    graph is complete (``cache_poses``), the pose resolved once (see the module's
    docstring)."""
    cache = scope.poses
    if cache is None:
        return _walk(vertex, scope)[0]
    pending = []  # (frame, its pose in the frame EXACT_DEPTH edges up, that frame)
    seen = set()
    v = vertex
    while v is not scope.vertex and id(v) not in cache:
        if id(v) in seen:
            _walk(vertex, scope)  # (a cycle: raises libsdformat's error)
        seen.add(id(v))
        X_UV, u = _walk(v, scope, EXACT_DEPTH)
        pending.append((v, X_UV, u))
        v = u
    for v, X_UV, u in reversed(pending):
        cache[id(v)] = X_UV if u is scope.vertex else cache[id(u)] * X_UV
    return cache[id(vertex)] if vertex is not scope.vertex else IDENTITY


def check_poses(vertices, scope):
    """The FrameError that resolving the pose of each of ``vertices`` in ``scope`` would
    raise first (a cycle, or a frame not in the scope), found in time linear in the graph."""
    resolved = {id(scope.vertex)}
    for vertex in vertices:
        path = set()
        v = vertex
        while id(v) not in resolved:
            if id(v) in path or v.pose_parent is None:
                _walk(vertex, scope)  # (raises libsdformat's error)
            path.add(id(v))
            v = v.pose_parent
        resolved |= path


def cache_poses(scope):
    """Resolves each pose of ``scope`` and the scopes nested in it once from now on (their
    pose graphs are complete)."""
    scope.poses = {}
    for nested in scope.models:
        cache_poses(nested)


def resolve_pose(vertex, relative_to, scope):
    """X_RF of ``vertex`` F relative to the vertex R ``relative_to`` (None: the scope's
    frame), both resolved within ``scope``."""
    pose = pose_in_scope(vertex, scope)
    if relative_to is None or relative_to is scope.vertex:
        return pose
    return pose_in_scope(relative_to, scope).inverse() * pose


def attached_body(vertex):
    """The link (or static-model / world vertex) that ``vertex`` is attached to."""
    visited = set()
    v = vertex
    while v.attached is not None:
        if id(v) in visited:
            raise FrameError(
                f"FrameAttachedToGraph cycle detected, already visited vertex [{v.scoped_name()}].",
                vertex.element,
            )
        visited.add(id(v))
        v = v.attached
    return v
