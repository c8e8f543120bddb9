"""Drake's warnings for what the MJCF fast path's subset ignores (_mjcf_fast), in the element
reader's order (_mujoco): each warned attribute of an element (UNSUPPORTED, with its defaults)
and the first ignored child of each kind of a body or World, ordered by where the reader
meets them: ``<option>``'s first, the ``<asset>``s' (a texture's), then each body's (its
geoms', its joints', its own, its ignored children's) before its nested bodies', then the
actuators'."""

from mallard.multibody.parsing._mjcf_tables import IGNORED
from mallard.multibody.parsing._mujoco import TEXTURE_WARNING, UNSUPPORTED
from mallard.multibody.parsing._mujoco_geometry import _UNSUPPORTED as GEOM_UNSUPPORTED

#: A body's phases in the reader's parse_body that warn: its geoms, its joints, itself.
_GEOMS, _JOINTS, _BODY = 1, 3, 4


def _attributes(out, key, attributes, names, tag, at):
    """Appends the warnings of the attributes ``names`` that ``attributes`` (a dict) holds,
    each keyed ``key`` + its place in ``names``."""
    if attributes.keys().isdisjoint(names):
        return
    for order, name in enumerate(names):
        if name in attributes:
            out.append((
                (*key, order), at,
                f"The attribute '{name}' found in a '{tag}' tag is currently unsupported and "
                "will be ignored.",
            ))  # fmt: skip


def warnings(tables, geoms, geom_attrs, joints, joint_attrs, actuators, actuator_attrs):
    """[(element, message)] of the document of ``tables`` (each at its element's place), in
    the reader's order (the elements and their attribute dicts with their defaults: the
    bodies' geoms, joints, the actuators in the reader's order)."""
    tags, attrs, parents, kinds = tables.tags, tables.attrs, tables.parents, tables.kinds
    out = []
    for i in kinds.get("option", ()):
        _attributes(out, (-1, 0, i), attrs[i], UNSUPPORTED["option"], "option", i)
    for i in {parents[t] for t in kinds.get("texture", ()) if tags[parents[t]] == "asset"}:
        out.append(((-1, 1, i), i, TEXTURE_WARNING))
    for i in (*kinds.get("worldbody", ()), *kinds.get("body", ())):
        _attributes(out, (i, _BODY, 0), attrs[i], UNSUPPORTED["body"], tags[i], i)
    for g, a in zip(geoms, geom_attrs, strict=True):
        _attributes(out, (parents[g], _GEOMS, g), a, GEOM_UNSUPPORTED, "geom", g)
    for j, a in zip(joints, joint_attrs, strict=True):
        _attributes(out, (parents[j], _JOINTS, j), a, UNSUPPORTED["joint"], "joint", j)
    after = len(tags)  # (the actuators after every body)
    for place, (i, a) in enumerate(zip(actuators, actuator_attrs, strict=True)):
        names = UNSUPPORTED["motor"]
        if tags[i] == "position":
            names += UNSUPPORTED["position"]
        _attributes(out, (after + place, 0, 0), a, names, tags[i], i)
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
