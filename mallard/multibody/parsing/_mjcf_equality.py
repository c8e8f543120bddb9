"""The ``<equality>``s of a document for the MJCF fast path (_mjcf_fast), added after its
bodies by the element reader's own add_connect (a ball constraint of each ``<connect>``, with
its ``<default>``s) and Drake's warnings for the constraints it ignores (weld, joint, tendon,
flex, distance: the first of each kind), in the reader's order (after the actuators)."""

from mallard.multibody.parsing._mjcf_tables import Declined
from mallard.multibody.parsing._mujoco import add_connect
from mallard.multibody.parsing._mujoco_geometry import warn_unsupported_element

#: The children of ``<equality>`` Drake ignores with a warning, in its order.
IGNORED = ("weld", "joint", "tendon", "flex", "distance")


class _Element:
    """An element of the tables as the reader's functions read it: ``index`` (its place in
    the tables: where its messages are located), tag, attributes (defaults applied) and
    children."""

    __slots__ = ("index", "tag", "attrib", "children")

    def __init__(self, index, tag, attrib, children=()):
        self.index, self.tag, self.attrib, self.children = index, tag, attrib, children

    def get(self, name, default=None):
        return self.attrib.get(name, default)

    def find(self, tag):
        return next((child for child in self.children if child.tag == tag), None)


class _Recording:
    """Diagnostics that record warnings as (element index, message); an error declines."""

    def __init__(self):
        self.warned = []

    def error(self, *args, **kwargs):
        raise Declined

    def warning(self, node, message):
        self.warned.append((node.index, message))


def add_equalities(tables, defaults, plant, instance):
    """Adds the ``<equality>`` constraints of the document of ``tables`` (its ``defaults``)
    to ``plant``'s model ``instance``; returns Drake's warnings [(element, message)] in the
    reader's order. Declined where the reader errs."""
    tags, attrs, parents, kinds = tables.tags, tables.attrs, tables.parents, tables.kinds
    diagnostics = _Recording()
    for e in kinds.get("equality", ()):
        if tags[parents[e]] != "mujoco":
            continue  # (a <default>'s)
        children = [i for tag in ("connect", *IGNORED) for i in kinds.get(tag, ())
                    if parents[i] == e]  # fmt: skip
        children.sort()
        connects = [i for i in children if tags[i] == "connect"]
        with_defaults = dict(zip(connects, defaults.apply("equality", connects, attrs,
                                                          ["main"] * len(connects)),
                                 strict=True))  # fmt: skip
        elements = [_Element(i, tags[i], with_defaults.get(i, attrs[i])) for i in children]
        for element in elements:
            if element.tag == "connect":
                add_connect(diagnostics, plant, instance, element)
        node = _Element(e, "equality", attrs[e], elements)
        for tag in IGNORED:
            warn_unsupported_element(diagnostics, node, tag)
    return diagnostics.warned
