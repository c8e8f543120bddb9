"""_topology.build_forest: Drake's order of trees, floating bases and q/v slots (and its
shortcut for a tree already in that order, _ordered_forest)."""

import numpy as np
import pytest

from mallard.multibody.plant import _topology
from mallard.multibody.plant._topology import build_forest
from tests.multibody.plant.plant_models import library, reversed_joints

FLOATING = (7, 6)


def test_world_trees_then_floating_bases_then_unjointed_bodies():
    # Joints 0: 2→3, 1: World→1, 2: 5→4; bodies 2-3 and 4-5 are not connected to World (bases:
    # the body that is a joint's child least often, then a parent most often: 2, then 5) and
    # body 6 has no joint (floating, last).
    joint_rows = [(2, 3, 1, 1, 1, 0), (0, 1, 1, 1, 1, 0), (5, 4, 0, 0, 1, 0)]
    rows, bases = build_forest(7, joint_rows, FLOATING)
    assert bases == [2, 5, 6]
    assert len(joint_rows) == 3  # (read, not changed: the floating joints are the caller's)
    assert rows.dtype == np.int64
    # (per mobod after World: body, joint, parent, reversed, q start, v start)
    assert rows.tolist() == [
        [1, 1, 0, 0, 0, 0],
        [2, 3, 0, 0, 1, 1],
        [3, 0, 2, 0, 8, 7],
        [5, 4, 0, 0, 9, 8],
        [4, 2, 4, 0, 16, 14],
        [6, 5, 0, 0, 16, 14],
    ]


def test_reversed_joint_and_children_in_joint_order():
    # World→2 (joint 2), 1→2 (joint 0: reversed, 2 is inboard of 1), 2→3 (joint 1).
    joint_rows = [(1, 2, 1, 1), (2, 3, 1, 1), (0, 2, 0, 0)]
    rows, bases = build_forest(4, joint_rows, FLOATING)
    assert bases == []
    assert rows[:, (0, 1, 3)].tolist() == [[2, 2, 0], [1, 0, 1], [3, 1, 0]]


@pytest.mark.parametrize(
    "ends",
    [
        [(0, 1), (1, 2), (2, 0)],  # a loop through World
        [(1, 2), (2, 3), (3, 1)],  # a loop of a floating base's tree
        [(0, 1), (0, 1)],  # two joints between the same bodies
    ],
)
def test_loops_raise(ends):
    with pytest.raises(RuntimeError, match="form one or more loops"):
        build_forest(4, [(*e, 1, 1) for e in ends], FLOATING)


def _random_models(rng, count):
    """(num_bodies, joint_rows) of random models: trees in depth-first order (World's, or one
    floating base's), some shuffled, relabeled or with a joint reversed; and random graphs."""
    for _ in range(count):
        n = int(rng.integers(1, 12))
        if rng.random() < 0.6:
            floating = n >= 2 and rng.random() < 0.4
            path, rows = [1] if floating else [0], []
            for b in range(2 if floating else 1, n):
                p = path[int(rng.integers(len(path)))]
                path = [*path[: path.index(p) + 1], b]
                rows.append([p, b, int(rng.integers(3)), int(rng.integers(3))])
            if rows and rng.random() < 0.3:
                rng.shuffle(rows)
            if rows and rng.random() < 0.2:
                label = [0, *rng.permutation(np.arange(1, n)).tolist()]
                rows = [[label[a], label[b], q, v] for a, b, q, v in rows]
            if rows and rng.random() < 0.1:
                i = int(rng.integers(len(rows)))
                rows[i][:2] = rows[i][1::-1]
        else:
            ends = rng.integers(n, size=(int(rng.integers(n + 2)), 2)).tolist()
            rows = [[a, b, int(rng.integers(3)), int(rng.integers(3))] for a, b in ends if a != b]
        yield n, [tuple(row) for row in rows]


def _forest(num_bodies, joint_rows):
    try:
        rows, bases = build_forest(num_bodies, joint_rows, FLOATING)
    except RuntimeError as error:
        return str(error)
    return rows.tolist(), rows.dtype, rows.shape, bases


def test_ordered_trees_as_grown(monkeypatch):
    # A tree whose joints are already in the depth-first order (_ordered_forest) gets the
    # forest the depth-first walk grows: the same mobods, bases and errors.
    models = list(_random_models(np.random.default_rng(7), 4000))
    ordered = [_topology._ordered_forest(n, rows, FLOATING) is not None for n, rows in models]
    fast = [_forest(n, rows) for n, rows in models]
    monkeypatch.setattr(_topology, "_ordered_forest", lambda *args: None)
    assert fast == [_forest(n, rows) for n, rows in models]
    assert 1000 < sum(ordered) < 3000  # (both paths taken)


def test_mobods_of_a_finalized_plant():
    # Topology.mobods, made when first asked for, are the tree's rows as Mobods (World's
    # joint None, reversed a bool), as the forest grew them.
    plant = reversed_joints(library("mallard"))
    topology = plant._topology
    mobods = topology.mobods
    assert mobods is topology.mobods  # (made once)
    assert mobods[0] == _topology.Mobod(0, None, 0, False, 0, 0)
    assert [type(m.reversed) for m in mobods] == [bool] * len(mobods)
    assert sum(m.reversed for m in mobods) == 3  # (jzy, jpw and the weld)
    rows = [[m.body, m.joint, m.parent, m.reversed, m.q_start, m.v_start] for m in mobods[1:]]
    tree = topology.tree[1:]
    columns = (tree[:, 5], topology.mobod_joint[1:], *tree[:, (0, 4, 2, 3)].T)
    assert rows == np.column_stack(columns).tolist()
    assert [topology.inboard_joint_of_body[m.body] for m in mobods[1:]] == [
        plant._joints[m.joint] for m in mobods[1:]
    ]
