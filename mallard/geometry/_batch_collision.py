"""Collision checking of many configurations of a MultibodyPlant at once (BatchedPlant's
CheckCollisions; mallard's own API, beyond pydrake): the plant's SceneGraph's proximity
geometries, each on its body (or anchored), and the pairs the collision filters allow, checked
per configuration by the batched kernel (mallard.geometry._kernels.batch) with the proximity
queries' narrowphase, so that a configuration's answer is that of the plant's own queries
(ComputeSignedDistancePairwiseClosestPoints, HasCollisions) at that configuration.
"""

import collections
import functools

import numpy as np

from mallard._compiled import kernels
from mallard.geometry import _proximity_layout as layout
from mallard.geometry._kernels.batch import GROUP, MIN_DISTANCE, PAIR_DISTANCES, row_size
from mallard.geometry._kernels.bounds import inner_radius, outer_radius
from mallard.multibody._batch_codes import KINDS, PAIR_FAILED
from mallard.multibody._batch_run import Operation

#: BatchedPlant.CheckCollisions' result: per configuration (leading dimension N).
BatchedCollisions = collections.namedtuple(
    "BatchedCollisions", ("collision_free", "min_distance", "pairs", "distances")
)
BatchedCollisions.__doc__ = """The collision checks of N configurations.

``collision_free`` (N,) bool: no unfiltered pair of geometries is within the padding (False
for a configuration that could not be checked).
``min_distance`` (N,): the least signed distance of the unfiltered pairs (negative: the
deepest penetration), +inf if there is no pair; None unless asked for.
``pairs``: the unfiltered pairs (id_A, id_B) (a list, id_A < id_B); ``distances`` (N, len(pairs)):
their signed distances where at most the distance asked for, +inf elsewhere; both None unless
asked for. A configuration that could not be checked has NaN distances."""


class CollisionModel:
    """What BatchedPlant's collision checks need of its plant's geometry: the proximity model,
    per geometry its body's mobod (−1 if anchored) and its pose in that body (in World if
    anchored), the pairs the filters of ``scene_graph_context`` (the SceneGraph's own if None)
    allow, in blocks by carrier (a body, or an anchored geometry) with each carrier's ball,
    and per pair the sums of the geometries' outer and inner radii (see
    mallard.geometry._kernels.batch)."""

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
        outer, inner = _radii(model)
        self._carriers(outer)
        self._blocks(np.argwhere(model.allowed(sg, state)))
        a, b = self.pairs[:, 0], self.pairs[:, 1]
        self.reach = np.ascontiguousarray(outer[a] + outer[b])
        self.inner = np.ascontiguousarray(inner[a] + inner[b])
        self.operation = None  # (the kernel's Operation: made at the first call)

    def _carriers(self, outer):
        """The carriers of the geometries: each body (its mobod) and each anchored geometry
        alone, and per carrier the ball about a point of it (in the body, or World) that holds
        its geometries' balls (infinite if one is, a half space's)."""
        keys = [m if m >= 0 else -1 - g for g, m in enumerate(self.mobod)]
        order = list(dict.fromkeys(keys))
        self.carrier = np.array([order.index(k) for k in keys], dtype=np.int64)
        self.carrier_mobod = np.array([max(k, -1) for k in order], dtype=np.int64)
        self.carrier_ball = np.zeros((len(order), 4))
        for c in range(len(order)):
            members = np.flatnonzero(self.carrier == c)
            p, R = self.X_BG[members, 3], outer[members]
            if np.all(np.isfinite(R)):
                center = ((p - R[:, None]).min(axis=0) + (p + R[:, None]).max(axis=0)) / 2
                radius = (np.linalg.norm(p - center, axis=1) + R).max()
                self.carrier_ball[c] = (*center, radius)
            else:
                self.carrier_ball[c, 3] = np.inf

    def _blocks(self, allowed_pairs):
        """``pairs``, the allowed pairs (a < b) block by block: a block is the pairs between
        two carriers, ``blocks`` (carrier, carrier, first pair, end)."""
        carriers = np.sort(self.carrier[allowed_pairs], axis=1)
        order = np.lexsort(
            (allowed_pairs[:, 1], allowed_pairs[:, 0], carriers[:, 1], carriers[:, 0])
        )
        self.pairs = np.ascontiguousarray(allowed_pairs[order], dtype=np.int64)
        carriers = carriers[order]
        changes = np.any(carriers[1:] != carriers[:-1], axis=1)
        starts = np.flatnonzero(np.r_[True, changes]) if len(carriers) else np.zeros(0, int)
        self.blocks = np.zeros((len(starts), 4), dtype=np.int64)
        self.blocks[:, :2] = carriers[starts]
        self.blocks[:, 2], self.blocks[:, 3] = starts, np.r_[starts[1:], len(carriers)]


def _radii(model):
    """(R, r) per geometry: the radii of balls about its frame's origin that hold it and that
    it holds (mallard.geometry._kernels.batch; a half space: inf, −inf; a Convex or Mesh: its
    hull's farthest vertex, and −inf: its origin need not be inside)."""
    kinds, gf = model.gi[:, layout.KIND], model.gf
    outer = np.array([outer_radius(k, *gf[g]) for g, k in enumerate(kinds)])
    inner = np.array([inner_radius(k, *gf[g]) for g, k in enumerate(kinds)])
    for g, kind in enumerate(kinds):
        if kind == layout.HALFSPACE:
            outer[g], inner[g] = np.inf, -np.inf
        elif kind in (layout.CONVEX, layout.MESH):
            start, count = model.gi[g, layout.HULL_START], model.gi[g, layout.HULL_COUNT]
            outer[g] = np.linalg.norm(model.hv[start : start + count], axis=1).max()
            inner[g] = -np.inf
    return outer, inner


def check_collisions(batched, q, padding, min_distance, pairs_within, scene_graph_context):
    """BatchedPlant.CheckCollisions (see there): (BatchedCollisions, the states' status codes,
    q, a describe function of BatchedPlant._finish for those codes)."""
    method = "CheckCollisions"
    q = batched._array(q, "q", batched._nq, method)
    if q.dtype == object:
        raise TypeError(f"BatchedPlant.{method}(): q must hold numbers (float64)")
    padding = float(padding)
    if not np.isfinite(padding) or padding < 0:
        raise ValueError(f"BatchedPlant.{method}(): padding must be finite and ≥ 0, got {padding}")
    what = MIN_DISTANCE if min_distance else 0
    report = np.inf
    if pairs_within is not None:
        report = float(pairs_within)
        if np.isnan(report):
            raise ValueError(f"BatchedPlant.{method}(): pairs_within must be a number, got NaN")
        what |= PAIR_DISTANCES
    key = id(scene_graph_context)
    cached = getattr(batched, "_collision_model", None)
    if cached is None or cached[0] != key or cached[1] is not scene_graph_context:
        cached = (key, scene_graph_context, CollisionModel(batched, scene_graph_context))
        batched._collision_model = cached
    cm = cached[2]
    size, num_pairs = q.shape[0], len(cm.pairs)
    free = np.zeros(size, dtype=np.uint8)
    least = np.full(size if min_distance else 0, np.inf)
    distances = np.full((size, num_pairs) if pairs_within is not None else (0, 0), np.inf)
    status = np.zeros(size, dtype=np.int64)
    if size:
        model = cm.model
        inputs = (q, model.gi, model.gf, model.hv, cm.mobod, cm.X_BG, cm.pairs, cm.reach,
                  cm.inner, cm.carrier_mobod, cm.carrier_ball, cm.blocks, padding, what,
                  report, kernels(np.float64).address("epa_at"))  # fmt: skip
        outputs = (free, least, distances, status)
        if cm.operation is None:
            row = row_size(batched._mi, len(cm.ids), num_pairs, len(cm.carrier_mobod))
            cm.operation = Operation(
                "batch_collisions", batched._mi, batched._mf, batched._ws0, row, False, GROUP,
                [True] + [False] * (len(inputs) - 1), (inputs, outputs),
            )  # fmt: skip
        cm.operation.run(inputs, outputs, size, batched.num_threads())
    pairs = [(cm.ids[a], cm.ids[b]) for a, b in cm.pairs.tolist()]
    result = BatchedCollisions(
        free.astype(bool),
        least if min_distance else None,
        pairs if pairs_within is not None else None,
        distances if pairs_within is not None else None,
    )
    return result, status, q, functools.partial(_describe_failure, batched, cm)


def _describe_failure(batched, cm, codes, inputs, arguments, i):
    """Why configuration i was not checked (BatchedPlant._describe's, or the pair whose
    narrowphase failed)."""
    code = int(codes[i])
    if code % KINDS != PAIR_FAILED:
        return batched._describe(codes, inputs, arguments, i)
    a, b = cm.pairs[code // KINDS]
    kinds = cm.model.kinds
    return (
        f"the signed distance between geometries {cm.ids[a].get_value()} "
        f"('{layout.FCL_NAMES[kinds[a]]}') and {cm.ids[b].get_value()} "
        f"('{layout.FCL_NAMES[kinds[b]]}') is not supported (or its iterative algorithm "
        "failed), as in QueryObject.ComputeSignedDistancePairwiseClosestPoints"
    )
