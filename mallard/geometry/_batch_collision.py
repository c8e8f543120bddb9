"""Collision checking of many configurations of a MultibodyPlant at once (BatchedPlant's
CheckCollisions; mallard's own API, beyond pydrake): the plant's SceneGraph's proximity
geometries, each on its body (or anchored), and the pairs the collision filters allow, checked
per configuration by the batched kernel (mallard.geometry._kernels.batch) with the proximity
queries' narrowphase, so that a configuration's answer is that of the plant's own queries
(ComputeSignedDistancePairwiseClosestPoints, HasCollisions) at that configuration.
"""

import collections

import numpy as np

from mallard._compiled import kernels
from mallard.geometry import _proximity_layout as layout

#: BatchedPlant.CheckCollisions' result: per configuration (leading dimension N).
BatchedCollisions = collections.namedtuple(
    "BatchedCollisions", ("collision_free", "min_distance", "pairs", "distances")
)
BatchedCollisions.__doc__ = """The collision checks of N configurations.

``collision_free`` (N,) bool: no unfiltered pair of geometries is within the padding.
``min_distance`` (N,): the least signed distance of the unfiltered pairs (negative: the
deepest penetration), +inf if there is no pair; None unless asked for.
``pairs``: the unfiltered pairs (id_A, id_B) (a list, id_A < id_B); ``distances`` (N, len(pairs)):
their signed distances where at most the distance asked for, +inf elsewhere; both None unless
asked for."""

_MIN_DISTANCE, _PAIR_DISTANCES = 1, 2  # (kernels.batch's flags)


class CollisionModel:
    """What BatchedPlant's collision checks need of its plant's geometry: the proximity model,
    per geometry its body's mobod (−1 if anchored) and its pose in that body (in World if
    anchored), and the pairs the filters of ``scene_graph_context`` (the SceneGraph's own if
    None) allow."""

    def __init__(self, batched, scene_graph_context=None):
        plant = batched.plant()
        sg = plant._geometry_link.scene_graph
        if sg is None:
            raise RuntimeError(
                "BatchedPlant.CheckCollisions(): the plant has no collision geometry: it is not "
                "registered as a geometry source of a SceneGraph"
            )
        state = (
            sg._filters if scene_graph_context is None else sg._context_filters(scene_graph_context)
        )
        model = sg._proximity_model()
        self.model = model
        self.ids = model.ids
        n = len(model.ids)
        self.mobod = np.full(n, -1, dtype=np.int64)
        self.X_BG = model.X_FG.copy()
        for g in range(n):
            frame = model.frames[model.gi[g, layout.FRAME]]
            if frame == sg._world_frame_id:
                continue
            body = plant.GetBodyFromFrameId(frame)
            if body is None or sg._frames[frame].source != plant.get_source_id():
                raise NotImplementedError(
                    f"BatchedPlant.CheckCollisions(): geometry {model.ids[g].get_value()} is on "
                    f"frame '{sg._frames[frame].name}', which is not a body of the plant: only the "
                    "plant's geometries and anchored ones are checked"
                )
            self.mobod[g] = batched._engine.frame_mobod(body.body_frame(), "body")
        self.allowed = model.allowed(sg, state)
        self.pairs = np.ascontiguousarray(np.argwhere(self.allowed), dtype=np.int64)


def check_collisions(batched, q, padding, min_distance, pairs_within, scene_graph_context):
    """BatchedPlant.CheckCollisions (see there)."""
    method = "CheckCollisions"
    q = batched._array(q, "q", batched._nq, method)
    if q.dtype == object:
        raise TypeError(f"BatchedPlant.{method}(): q must hold numbers (float64)")
    bad = np.argwhere(~np.isfinite(q))
    if bad.size:
        i, j = (int(k) for k in bad[0])
        raise ValueError(
            f"BatchedPlant.{method}(): q[{i}, {j}] = {float(q[i, j])!r} is not finite "
            f"({batched._element('q', j)})"
        )
    padding = float(padding)
    if not np.isfinite(padding) or padding < 0:
        raise ValueError(f"BatchedPlant.{method}(): padding must be finite and ≥ 0, got {padding}")
    what = _MIN_DISTANCE if min_distance else 0
    report = np.inf
    if pairs_within is not None:
        report = float(pairs_within)
        if np.isnan(report):
            raise ValueError(f"BatchedPlant.{method}(): pairs_within must be a number, got NaN")
        what |= _PAIR_DISTANCES
    key = id(scene_graph_context)
    cached = getattr(batched, "_collision_model", None)
    if cached is None or cached[0] != key or cached[1] is not scene_graph_context:
        cached = (key, scene_graph_context, CollisionModel(batched, scene_graph_context))
        batched._collision_model = cached
    cm = cached[2]
    model = cm.model
    size, ng, num_pairs = q.shape[0], len(cm.ids), len(cm.pairs)
    free = np.ones(size, dtype=np.uint8)
    least = np.full(size if min_distance else 0, np.inf)
    distances = np.full((size, num_pairs) if pairs_within is not None else (0, 0), np.inf)
    status = np.zeros(size, dtype=np.int64)
    if size and num_pairs:
        from mallard.geometry._kernels.batch import geometry_row_sizes

        floats, ints = geometry_row_sizes(ng, num_pairs)
        kernels(np.float64).batch_collisions(
            batched._mi, batched._mf, batched._ws0.astype(float, copy=False), q, model.gi,
            model.gf, model.hv, cm.mobod, cm.X_BG, cm.allowed, cm.pairs, padding, what, report,
            np.empty(batched._sizes.row), np.zeros(floats), np.zeros(ints, dtype=np.int64), free,
            least, distances, status,
        )  # fmt: skip
        failed = np.flatnonzero(status)
        if failed.size:
            i = int(failed[0])
            code = -int(status[i]) - 1
            a, b = divmod(code, ng)
            names = layout.FCL_NAMES[model.kinds[a]], layout.FCL_NAMES[model.kinds[b]]
            raise RuntimeError(
                f"BatchedPlant.{method}(): configuration {i}: the signed distance between "
                f"geometries {cm.ids[a].get_value()} ('{names[0]}') and {cm.ids[b].get_value()} "
                f"('{names[1]}') is not supported (or its iterative algorithm failed), as in "
                "QueryObject.ComputeSignedDistancePairwiseClosestPoints"
            )
    pairs = [(cm.ids[a], cm.ids[b]) for a, b in cm.pairs.tolist()]
    return BatchedCollisions(
        free.astype(bool),
        least if min_distance else None,
        pairs if pairs_within is not None else None,
        distances if pairs_within is not None else None,
    )
