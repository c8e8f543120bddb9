"""Drake's warnings for what the MJCF fast path's subset ignores (_mjcf_fast), in the element
reader's order (_mujoco): each warned attribute of an element (UNSUPPORTED, with its defaults)
and the first ignored child of each kind of a body or World, ordered by where the reader
meets them: ``<option>``'s first, the ``<asset>``s' (a texture's), then each body's (its
geoms', its joints', its own, its ignored children's) before its nested bodies', then the
actuators'."""

import numpy as np

from mallard.multibody.parsing._mjcf_columns import Columns
from mallard.multibody.parsing._mjcf_tables import IGNORED
from mallard.multibody.parsing._mujoco import TEXTURE_WARNING, UNSUPPORTED
from mallard.multibody.parsing._mujoco_geometry import _UNSUPPORTED as GEOM_UNSUPPORTED

#: A body's phases in the reader's parse_body that warn: its geoms, its joints, itself.
_GEOMS, _JOINTS, _BODY = 1, 3, 4


def unsupported(name, tag):
    """Drake's warning for the attribute ``name`` of a ``tag`` element that it ignores (the
    element reader's warn_unsupported_attribute's text)."""
    return (
        f"The attribute '{name}' found in a '{tag}' tag is currently unsupported and will be "
        "ignored."
    )


def joint_key(parents, j):
    """The order key of joint ``j``'s attribute warnings (+ the attribute's place); the
    joint's warnings before them sort below it (+ a negative place)."""
    return (parents[j], _JOINTS, j)


def geom_key(parents, g):
    """The order key of geom ``g``'s attribute warnings, as joint_key."""
    return (parents[g], _GEOMS, g)


def actuator_key(after, place):
    """The order key of the attribute warnings of the actuator at ``place`` in the reader's
    order (``after``: a number past every element's), as joint_key."""
    return (after + place, 0, 0)


def _attributes(out, names, columns, elements, key, tag):
    """Appends the warnings of the attributes ``names`` that the elements ``elements`` hold
    (their Columns ``columns``), each keyed ``key(element)`` + the attribute's place in
    ``names``, of the tag ``tag(element)``."""
    held = columns.names
    for order, name in enumerate(names):
        if name in held:
            for k in np.flatnonzero(columns.has(name)).tolist():
                at = elements[k]
                out.append(((*key(at), order), at, unsupported(name, tag(at))))


def warnings(tables, bodies, geoms, joints, actuators, more):
    """[(element, message)] of the document of ``tables`` (each at its element's place), in
    the reader's order (``bodies``, ``geoms``, ``joints``: (the elements, their Columns with
    their defaults), the bodies' geoms and joints; ``actuators``: the same of the actuators,
    in the reader's order; ``more``: the fast path's other warnings,
    (key, element, message) each, keyed by joint_key or actuator_key)."""
    tags, attrs, parents, kinds = tables.tags, tables.attrs, tables.parents, tables.kinds
    out = list(more)
    for i in kinds.get("option", ()):
        _attributes(out, UNSUPPORTED["option"], Columns([attrs[i]]), (i,), lambda i: (-1, 0, i),
                    tags.__getitem__)  # fmt: skip
    for i in {parents[t] for t in kinds.get("texture", ()) if tags[parents[t]] == "asset"}:
        out.append(((-1, 1, i), i, TEXTURE_WARNING))
    worlds = kinds.get("worldbody", ())
    for elements, columns in ((worlds, Columns([attrs[i] for i in worlds])), bodies):
        _attributes(out, UNSUPPORTED["body"], columns, elements, lambda i: (i, _BODY, 0),
                    tags.__getitem__)  # fmt: skip
    _attributes(out, GEOM_UNSUPPORTED, geoms[1], geoms[0], lambda g: geom_key(parents, g),
                lambda g: "geom")  # fmt: skip
    _attributes(out, UNSUPPORTED["joint"], joints[1], joints[0], lambda j: joint_key(parents, j),
                lambda j: "joint")  # fmt: skip
    actuators, actuator_columns = actuators
    place = {i: k for k, i in enumerate(actuators)}
    after = len(tags)  # (the actuators after every body)
    # (a position's names: a motor's, then its own, which a motor does not hold: the whitelist)
    _attributes(out, UNSUPPORTED["motor"] + UNSUPPORTED["position"], actuator_columns,
                actuators, lambda i: actuator_key(after, place[i]), tags.__getitem__)  # fmt: skip
    for order, tag in enumerate(IGNORED):
        seen = set()
        for i in kinds.get(tag, ()):
            p = parents[i]
            if p not in seen:  # (the first such child of each body)
                seen.add(p)
                out.append((
                    (p, _BODY, 1, order), i,
                    f"The tag '{tag}' found as a child of '{tags[p]}' is currently unsupported "
                    "and will be ignored.",
                ))  # fmt: skip
    out.sort(key=lambda warning: warning[0])
    return [(at, message) for _, at, message in out]
