"""Sample arguments of the proximity kernels' entry points (mallard.geometry._kernels.queries),
for the compiled-versus-interpreted test (tests/multibody/kernels/kernel_cases.py takes them):
a scene of every shape at random poses close enough that every algorithm runs (closed forms,
MPR, GJK, EPA)."""

import os
import tempfile

import numpy as np

import mallard.all as ml
from mallard._compiled import kernels
from mallard.geometry import _proximity_layout as layout
from mallard.geometry._proximity_engine import ProximityModel

OCTAHEDRON = """v 0.3 0 0
v -0.25 0.01 0
v 0.02 0.2 -0.01
v 0 -0.22 0.03
v 0.01 0 0.35
v 0 0.02 -0.3
f 1 3 5
f 3 2 5
f 2 4 5
f 4 1 5
f 3 1 6
f 2 3 6
f 4 2 6
f 1 4 6
"""


def _model():
    path = os.path.join(tempfile.mkdtemp(), "octahedron.obj")
    with open(path, "w") as f:
        f.write(OCTAHEDRON)
    sg = ml.SceneGraph()
    source = sg.RegisterSource("s")
    shapes = [
        ml.Sphere(0.3),
        ml.Box(0.6, 0.4, 0.3),
        ml.Capsule(0.15, 0.5),
        ml.Cylinder(0.2, 0.5),
        ml.Ellipsoid(0.3, 0.2, 0.25),
        ml.HalfSpace(),
        ml.Convex(path),
        ml.Sphere(0.2),
    ]
    for i, shape in enumerate(shapes):
        frame = sg.RegisterFrame(source, ml.GeometryFrame(f"f{i}"))
        instance = ml.GeometryInstance(ml.RigidTransform(), shape, f"g{i}")
        instance.set_proximity_properties(ml.ProximityProperties())
        sg.RegisterGeometry(source, frame, instance)
    return ProximityModel(sg)


def _poses(rng, n):
    X = np.zeros((n, 4, 3))
    for g in range(n):
        q = rng.normal(size=4)
        X[g, :3] = ml.RotationMatrix(ml.Quaternion(q / np.linalg.norm(q))).matrix()
        X[g, 3] = rng.uniform(-0.25, 0.25, 3)
    return X


def _pairs(model, keep):
    n = len(model.ids)
    pairs = [
        (a, b) for a in range(n) for b in range(a + 1, n) if keep(model.kinds[a], model.kinds[b])
    ]
    return np.array(pairs, dtype=np.int64)


def _held(m):
    """The entry points' first argument (kernels.queries) for each mode: compiled, the
    model's ``held`` (the ByMode keeps the model); interpreted, a copy of its arrays (the
    float ones as object arrays); the block holds the addresses of the kernels compiled once
    (EPA's, the penetration's), as ProximityModel.call sets them for the queries that may run
    them."""
    from tests.multibody.kernels.kernel_cases import ByMode

    for name in ("proximity_signed_distances", "proximity_penetrations"):
        m.hold_addresses(name)
    arrays = tuple(a.astype(object) if a.dtype == float else a.copy() for a in m.held_arrays)
    held = ByMode(m.held, arrays)
    held.model = m
    return held


def _candidates(rng):
    m = _model()
    n = len(m.ids)
    allowed = np.triu(np.ones((n, n), dtype=np.uint8), 1)
    pairs = np.zeros((n * n, 2), dtype=np.int64)
    boxes = np.zeros((n, 6))
    X = _poses(rng, n)
    kernels(object).proximity_boxes(m.held_arrays, X, False, boxes)  # (interpreted)
    return _held(m), boxes, allowed, 0.05, np.arange(n, dtype=np.int64), pairs


def _boxes(rng):
    m = _model()
    n = len(m.ids)
    return _held(m), _poses(rng, n), bool(rng.integers(2)), np.zeros((n, 6))


def _penetrations(rng):
    m = _model()
    pairs = _pairs(m, lambda a, b: not (a == b == layout.HALFSPACE))
    out = np.zeros((len(pairs), layout.PENETRATION))
    found = np.zeros((len(pairs), 2), dtype=np.int64)
    return _held(m), _poses(rng, len(m.ids)), pairs, len(pairs), out, found


def _signed_distances(rng):
    m = _model()
    H, S = layout.HALFSPACE, layout.SPHERE
    pairs = _pairs(m, lambda a, b: not ((a == H and b != S) or (b == H and a != S)))
    out = np.zeros((len(pairs), layout.DISTANCE))
    return _held(m), _poses(rng, len(m.ids)), pairs, len(pairs), np.inf, out


def _intersecting(rng):
    m = _model()
    pairs = _pairs(m, lambda a, b: True)
    X = _poses(rng, len(m.ids))
    X[:, 3] *= 4.0  # (apart: most pairs are tested before one is found touching)
    last = np.array([-1, -1, 0], dtype=np.int64)
    if rng.integers(2):  # (a pair found touching by a previous call, tested first)
        last[:] = *pairs[rng.integers(len(pairs))], 0
    return _held(m), X, pairs, len(pairs), last


def _point_distances(rng):
    m = _model()
    n = len(m.ids)
    return (_held(m), _poses(rng, n), rng.uniform(-0.3, 0.3, 3), np.inf, -1.0,
            m.point_supported, np.zeros((n, layout.POINT)), np.zeros(n, np.int64))  # fmt: skip


def _geometry_poses(rng):
    m = _model()
    m.X_FG[:] = _poses(rng, len(m.ids))
    return _held(m), _poses(rng, len(m.frames)), np.zeros((len(m.ids), 4, 3))


GEOMETRY_CASES = {
    "proximity_poses": _geometry_poses,
    "proximity_boxes": _boxes,
    "proximity_candidates": _candidates,
    "proximity_penetrations": _penetrations,
    "proximity_signed_distances": _signed_distances,
    "proximity_intersecting": _intersecting,
    "proximity_point_distances": _point_distances,
}
