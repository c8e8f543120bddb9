"""``<default>`` classes for the MJCF fast path (_mjcf_fast): each class's attributes of an
element kind resolved once (its own, then its parent class's that it does not set), and an
element's attributes merged with its class's by one dict display: the element reader's
apply_defaults (_mujoco), its order of attributes and its rule for orientations."""

from mallard.multibody.parsing._mjcf_tables import ATTRIBUTES, ORIENTATIONS, Declined

#: The element kinds whose defaults the fast path reads.
KINDS = ("joint", "geom", "motor", "position", "mesh", "equality")


def merged(own, default):
    """The attributes of an element of attributes ``own`` with the default ``default`` ((its
    attributes, whether they set an orientation) or None): its own, then the default's others
    in their order; none of the default's orientations if it sets one itself."""
    if default is None:
        return own
    attributes, oriented = default
    if oriented and not ORIENTATIONS.isdisjoint(own):
        others = {k: v for k, v in attributes.items() if k not in own and k not in ORIENTATIONS}
        return {**own, **others}
    return {**own, **attributes, **own}


class Defaults:
    """The classes of a document's ``<default>``s: ``classes[kind][class]`` = (attributes,
    whether they set an orientation), as the element reader's parse_default leaves them."""

    def __init__(self, tables):
        tags, attrs, parents = tables.tags, tables.attrs, tables.parents
        class_of = {}
        for d in tables.kinds.get("default", ()):
            name = attrs[d].get("class")
            if name is None:
                if tags[parents[d]] == "default":  # (the reader's error)
                    raise Declined
                name = "main"
            class_of[d] = name
        if len(set(class_of.values())) != len(class_of):  # (a class given twice)
            raise Declined
        self.classes = {}
        for kind in KINDS:
            by_default = {}
            for i in tables.kinds.get(kind, ()):
                if parents[i] in class_of:
                    by_default.setdefault(parents[i], []).append(i)
            table = self.classes[kind] = {}
            for d in class_of:  # (document order: a class before its nested classes)
                parent = table.get(class_of.get(parents[d]))
                for i in by_default.get(d, ()):
                    attributes = merged(attrs[i], parent)
                    table[class_of[d]] = (attributes, not ORIENTATIONS.isdisjoint(attributes))

    def apply(self, kind, elements, attrs, classes):
        """The attribute dicts of ``elements`` (of ``kind``; ``attrs``: the document's) with
        their defaults, each of its ``class`` or else of ``classes[k]``; Declined for an
        attribute outside the fast path's (ATTRIBUTES)."""
        table = self.classes[kind]
        out = []
        for i, c in zip(elements, classes, strict=True):
            own = attrs[i]
            default = table.get(own.get("class", c))
            if default is None:
                out.append(own)
            elif default[1]:  # (it sets an orientation)
                out.append(merged(own, default))
            else:
                out.append({**own, **default[0], **own})
        if not ATTRIBUTES[kind].issuperset(set().union(*out)):
            raise Declined
        return out
