"""The forest of mobilized bodies ("mobods") that Finalize() builds from bodies and joints.

Drake's rule (reproduced exactly so that q and v are ordered as in pydrake):

1. Every joint touching World starts a tree, in joint index order (World may be either end).
2. Bodies with joints but no path to World get a floating joint to World at a chosen base
   body: the one that is a joint's child least often, then a joint's parent most often, then
   of lowest index; these trees follow the World ones, in the order their bases are chosen.
3. Bodies with no joints at all get a floating joint each, last, in body index order.
4. Mobods are numbered depth first (preorder) from World; the children of a body are ordered
   by the index of the joint connecting them. A joint may connect a child to its parent
   (it is then *reversed*). q and v are assigned in mobod order.

Any loop (including a body with two inboard joints, or a loop of welds) is an error.
"""

from dataclasses import dataclass

_LOOP_ERROR = (
    "The bodies and joints of this system form one or more loops in the system graph. Drake "
    "currently does not support automatic modeling of such systems; however, they can be "
    "modeled with some input changes. See "
    "https://drake.mit.edu/troubleshooting.html#mbp-loops-in-graph for advice on how to model "
    "systems with loops."
)


@dataclass
class Mobod:
    """One mobilized body: its body, its inboard joint (None for World), its parent mobod,
    whether the joint is reversed, and its slots in q and v."""

    body: int
    joint: int | None
    parent: int
    reversed: bool
    q_start: int
    v_start: int


def choose_floating_bases(num_bodies, joint_ends):
    """Body indices that need a floating joint to World, in the order Drake adds them.

    ``joint_ends`` lists (parent body, child body) of every joint, in joint index order.
    """
    touching = [[] for _ in range(num_bodies)]
    for j, (parent, child) in enumerate(joint_ends):
        touching[parent].append(j)
        touching[child].append(j)
    reached = _component(0, touching, joint_ends, set())
    as_child = [0] * num_bodies
    as_parent = [0] * num_bodies
    for parent, child in joint_ends:
        as_parent[parent] += 1
        as_child[child] += 1
    jointed = [b for b in range(1, num_bodies) if touching[b] and b not in reached]
    jointed.sort(key=lambda b: (as_child[b], -as_parent[b], b))
    bases = []
    for b in jointed:
        if b not in reached:
            bases.append(b)
            _component(b, touching, joint_ends, reached)
    bases += [b for b in range(1, num_bodies) if not touching[b]]
    return bases


def _component(start, touching, joint_ends, reached):
    """Adds to ``reached`` every body connected to ``start`` by joints; returns it."""
    stack = [start]
    reached.add(start)
    while stack:
        body = stack.pop()
        for j in touching[body]:
            parent, child = joint_ends[j]
            other = child if parent == body else parent
            if other not in reached:
                reached.add(other)
                stack.append(other)
    return reached


def build_forest(num_bodies, joint_ends, joint_sizes):
    """The mobods in depth-first order, World first, with their q and v slots.

    ``joint_ends`` lists (parent body, child body) of every joint (floating joints included),
    ``joint_sizes`` their (nq, nv). RuntimeError if the bodies and joints form a loop.
    """
    touching = [[] for _ in range(num_bodies)]
    for j, (parent, child) in enumerate(joint_ends):
        touching[parent].append(j)
        touching[child].append(j)
    mobods = []
    mobod_of_body = {}
    q_next = v_next = 0
    stack = [(0, None)]  # (body, its inboard joint), popped in depth-first preorder
    while stack:
        body, inboard = stack.pop()
        if body in mobod_of_body:
            raise RuntimeError(_LOOP_ERROR)
        mobod_of_body[body] = len(mobods)
        if inboard is None:
            mobods.append(Mobod(0, None, 0, False, 0, 0))
        else:
            parent, child = joint_ends[inboard]
            inboard_body = parent if child == body else child
            mobods.append(
                Mobod(body, inboard, mobod_of_body[inboard_body], child != body, q_next, v_next)
            )
            q_next += joint_sizes[inboard][0]
            v_next += joint_sizes[inboard][1]
        children = []
        for j in touching[body]:
            if j != inboard:
                parent, child = joint_ends[j]
                other = child if parent == body else parent
                if other in mobod_of_body:
                    raise RuntimeError(_LOOP_ERROR)
                children.append((other, j))
        stack.extend(reversed(children))
    return mobods
