"""A plant's flat model with its welded bodies merged into composite bodies, for the kernels
that need only the state's dynamics (BatchedPlant's rollouts: kernels.rollouts).

A weld mobod moves with its parent: its body is folded, once, into its nearest ancestor that
is not a weld (its *representative*), so that the kinematics and articulated-body sweeps of
every step skip it. Per kept mobod k (World and the mobods of the other joint types, numbered
base to tip as before):

* its body is the composite of its own and of the welded bodies it represents: the sum of
  their spatial inertias about Bo, in k's body frame B (each part's pose in B, X_BJ, the
  product of the welds' X_PF·X_MB; parts without mass left out); a body that represents no
  welded body of nonzero mass keeps its parameters bit for bit;
* its parent is its old parent's representative, and X_PF = X_RP·X_PF, X_RP the old parent's
  pose in the representative's body frame (unchanged, bit for bit, if the old parent is kept);
* bodies welded to World (directly or through other welds) are left out: World's
  acceleration is zero and its inertia not used.

The positions and velocities (q, v), the actuators, damping, reflected inertias, effort
limits and gravity are unchanged: the merged model's forward dynamics are the plant's, to
rounding (the composites' sums are formed once, in another order). Not merged: a plant whose
welded bodies feel gravity differently from their representative's (gravity disabled in one
model instance), and parameters of other scalars than float64 (the caller keeps the plant's
model then, as it does for a plant with contact, whose geometry sits on the bodies).
"""

from typing import NamedTuple

import numpy as np

from mallard.math import RotationMatrix
from mallard.multibody import _layout
from mallard.multibody._joint_types import WELD
from mallard.multibody._layout import BODY, JTYPE, PARAMETERS, PARENT, WORKSPACE
from mallard.multibody.plant._engine import (
    _IDENTITY_POSE,
    _compose,
    _dof_parent,
    _identity_bits,
    _subtree_v_end,
)
from mallard.multibody.tree import SpatialInertia


class MergedModel(NamedTuple):
    """A flat model (``mi``, ``mf``, ``sizes``, see _layout) and its parameters ``ws0`` (a
    workspace with its parameter sections set, as Engine.snapshot's); ``mobods[k]``: the
    plant's mobod of mobod k (to name it in messages)."""

    mi: np.ndarray
    mf: np.ndarray
    ws0: np.ndarray
    sizes: tuple
    mobods: np.ndarray


def merge_welded_bodies(engine, ws0):
    """The MergedModel of ``engine``'s plant (a plant.Engine) with the parameters ``ws0`` (a
    workspace of its model), or None if it has no weld mobod or its welds are not merged
    (see the module's docstring)."""
    sizes, tables = engine.sizes, engine.tables
    tree, mask = tables.tree, tables.gravity_mask
    n = tree.shape[0]
    welded = tree[1:, JTYPE] == WELD
    if ws0.dtype != np.float64 or not welded.any():
        return None
    params = PARAMETERS.views(ws0, sizes)
    mass = params.m_B
    representative = list(range(n))
    X_RB = [None] * n  # each body's pose in its representative's body frame (None: itself)
    for k in range(1, n):
        if tree[k, JTYPE] != WELD:
            continue
        parent = tree[k, PARENT]
        representative[k] = r = representative[parent]
        X_PB = _compose(params.X_PF_MB[0, k], params.X_PF_MB[1, k])
        X_RB[k] = X_PB if X_RB[parent] is None else _compose(X_RB[parent], X_PB)
        if r != 0 and mass[tree[k, BODY]] != 0.0 and mask[k] != mask[r]:
            return None
    kept = [0] + [k for k in range(1, n) if tree[k, JTYPE] != WELD]
    index = {k: i for i, k in enumerate(kept)}
    m = len(kept)
    merged_tree = tree[kept].copy()
    merged_tree[:, BODY] = np.arange(m)
    merged_sizes = _layout.model_sizes(m, sizes.nq, sizes.nv, sizes.nu)
    merged_ws0 = np.zeros(merged_sizes.ws)
    WORKSPACE.views(merged_ws0, merged_sizes).X_pc[:, 0] = _IDENTITY_POSE
    merged = PARAMETERS.views(merged_ws0, merged_sizes)
    merged.X_PF_MB[:, 0] = _IDENTITY_POSE
    for i, k in enumerate(kept[1:], start=1):
        parent = tree[k, PARENT]
        merged_tree[i, PARENT] = index[representative[parent]]
        X_PF, X_MB = params.X_PF_MB[0, k], params.X_PF_MB[1, k]
        if X_RB[parent] is not None:
            X_PF = _compose(X_RB[parent], X_PF)
        merged.X_PF_MB[0, i], merged.X_PF_MB[1, i] = X_PF, X_MB
        merged.X_kind[i] = _identity_bits(X_PF, X_MB)
        merged.locked[i] = params.locked[k]
        parts = [j for j in range(1, n) if representative[j] == k and j != k]
        b = tree[k, BODY]
        if not any(mass[tree[j, BODY]] != 0.0 for j in parts):
            merged.m_B[i], merged.com_B[i], merged.G_B[i] = mass[b], params.com_B[b], params.G_B[b]
            continue
        massive = [j for j in [k, *parts] if mass[tree[j, BODY]] != 0.0]
        M_BBo_B = _inertia_in(params, tree[massive[0], BODY], X_RB[massive[0]])
        for j in massive[1:]:  # (the composite about Bo, in B)
            M_BBo_B += _inertia_in(params, tree[j, BODY], X_RB[j])
        merged.m_B[i], merged.com_B[i], merged.G_B[i] = M_BBo_B._m, M_BBo_B._p, M_BBo_B._G
    for name in ("damping", "reflected", "effort_limits", "g_W"):
        getattr(merged, name)[:] = getattr(params, name)
    mi = _layout.build_mi(
        merged_sizes,
        {
            "tree": merged_tree,
            "actuated_v": tables.actuated_v,
            "gravity_mask": mask[kept],
            "v_end": _subtree_v_end(merged_tree, sizes.nv),
            "dof_parent": _dof_parent(merged_tree, sizes.nv),
        },
    )
    mf = np.ascontiguousarray(engine.mf.reshape(n, -1)[kept].reshape(-1))
    return MergedModel(mi, mf, merged_ws0, merged_sizes, np.array(kept, dtype=np.int64))


def _inertia_in(params, b, X_RB):
    """M_BRo_R: body b's spatial inertia about Ro, in the frame R of its representative's
    body, its pose there X_RB (None: R = B)."""
    M_BBo_B = SpatialInertia._make(params.m_B[b], params.com_B[b].copy(), params.G_B[b].copy())
    if X_RB is None:
        return M_BBo_B
    R_RB, p_RoBo_R = RotationMatrix._make(X_RB[:3].copy()), X_RB[3]
    return M_BBo_B.ReExpress(R_RB).Shift(-p_RoBo_R)
