"""An MJCF document read into tables, for the MJCF fast path (_mjcf_fast), and the subset of
MJCF that path reads: a whitelist of tags (by parent) and attributes (by tag). Anything outside
it, and any error, declines the document (``Declined``) to the element reader (_mujoco), which
reads it and gives Drake's located messages."""

import os
import re
import xml.parsers.expat as expat
from collections import defaultdict

import numpy as np

from mallard.multibody.parsing._mujoco import DEFAULT_ELEMENTS, UNSUPPORTED, main_directory
from mallard.multibody.parsing._mujoco_geometry import _UNSUPPORTED as GEOM_UNSUPPORTED

ORIENTATIONS = frozenset(("quat", "axisangle", "euler", "xyaxes", "zaxis"))

#: The tags the fast path reads, by the tag of their parent (None: the document). World's
#: geoms and ``<contact>`` are read only for a SceneGraph (declined); sites and lights are
#: ignored with Drake's warning (IGNORED).
CHILDREN = {
    None: {"mujoco"},
    "mujoco": {
        "compiler",
        "option",
        "default",
        "asset",
        "worldbody",
        "actuator",
        "contact",
        "equality",
    },
    "equality": {"connect", "weld", "joint", "tendon", "flex", "distance"},
    "asset": {"material", "texture", "mesh"},
    "default": {"default", *DEFAULT_ELEMENTS},
    "worldbody": {"body", "geom", "site", "light"},
    "body": {"body", "inertial", "joint", "freejoint", "geom", "site", "light"},
    "actuator": {"motor", "position"},
    "contact": {"pair", "exclude"},
}
#: The children of a body (or World) that Drake ignores with a warning, in its order.
IGNORED = ("site", "light")
_FRAME = {"pos", *ORIENTATIONS}
#: The attributes the fast path reads or Drake ignores (silently, or with its warning:
#: UNSUPPORTED), by tag (joint, geom and the actuators' with their defaults); a tag not here
#: may have any (its element is not read).
ATTRIBUTES = {
    "mujoco": {"model"},
    "compiler": {"angle", "autolimits", "eulerseq", "inertiafromgeom", "meshdir", "assetdir"},
    "option": {"gravity", *UNSUPPORTED["option"]},
    "default": {"class"},
    "asset": set(),
    "mesh": {"name", "class", "file", "scale"},
    "equality": {"name", "class", "body1", "body2", "anchor", "site1", "site2", "active",
                 "solref", "solimp"},
    "worldbody": {*UNSUPPORTED["body"]},
    "actuator": set(),
    "body": {"name", "childclass", *_FRAME, *UNSUPPORTED["body"]},
    "inertial": {"mass", "diaginertia", "fullinertia", *_FRAME},
    "freejoint": {"name"},
    "joint": {"name", "class", "type", "pos", "axis", "ref", "range", "limited", "damping",
              "armature", "margin", "solreflimit", "solimplimit", "solreffriction",
              "solimpfriction", *UNSUPPORTED["joint"]},
    "geom": {"name", "class", "type", "size", "fromto", "mesh", "mass", "density", "contype",
             "conaffinity", "condim", "group", "rgba", "friction", "material", "solref",
             "solimp", "solmix", "margin", "gap", "priority", *_FRAME, *GEOM_UNSUPPORTED},
    "motor": {"name", "class", "joint", "ctrlrange", "ctrllimited", "forcerange",
              "forcelimited", "gear", *UNSUPPORTED["motor"]},
    "position": {"name", "class", "joint", "ctrlrange", "ctrllimited", "forcerange",
                 "forcelimited", "gear", "kp", "kd", "kv", *UNSUPPORTED["motor"],
                 *UNSUPPORTED["position"]},
}  # fmt: skip


#: The stack's mark of an ``<include>`` being read, and how deep includes may nest.
_INCLUDE, _MAX_DEPTH = -2, 32
#: The tags whose lines are read with them (Drake warns of each first one of a body);
#: other elements' lines are found when a warning asks for one (Tables.line).
_LINED = frozenset(IGNORED)
#: Comments, processing instructions and CDATA sections (skipped whole), or a start tag's
#: first character: in a well-formed document every other ``<`` starts an end tag.
_STARTS = re.compile(rb"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[.*?\]\]>|<([A-Za-z_:])", re.S)


class Declined(Exception):
    """The document is outside the fast path's subset, or in error."""


class Tables:
    """A document as tables: each element's tag, attribute dict (expat's), line and parent
    (-1 for the root), numbered in document order, each ``<include>`` replaced by the
    elements of its file (below its root: the element reader's expand_includes); ``kinds``:
    {tag: its elements, in order}; ``file``: the name messages give, ``files``: {element: its
    file} of the included elements; ``lines(elements)``: their lines; ``columns`` of a kind. (The
    same tables over the compiled scan: _mjcf_scan.ScanTables.)"""

    __slots__ = ("file", "tags", "attrs", "_lines", "parents", "kinds", "files", "_data")

    def __init__(self, data, file, includes=False):
        """``includes``: whether the document may hold ``<include>``s (else read without
        looking for them, and only the lines of _LINED tags with them)."""
        self.file = file
        self.tags, self.attrs, self.parents, self._lines = [], [], [], {}
        self.kinds = defaultdict(list)
        self.files = {}
        self._data = data.encode() if isinstance(data, str) else data
        self._read(self._data, file, main_directory(file) if includes else None, None, 0)

    def lines(self, elements):
        """The lines of ``elements``' start tags in their files, as expat counts lines (those
        not read with the elements: all at once, from the document's bytes)."""
        if any(i not in self._lines for i in elements):
            self._lines = dict(enumerate(_start_lines(self._data, len(self.tags))))
        return list(map(self._lines.__getitem__, elements))

    def columns(self, kind, elements, defaults=None, classes=None):
        """The Columns of ``elements`` of ``kind``: their attribute dicts with their
        ``defaults`` (Defaults.apply: each element's of its ``class``, else of ``classes[k]``;
        Declined for an attribute outside ATTRIBUTES) or as they are (checked by ``check``)."""
        from mallard.multibody.parsing._mjcf_columns import Columns  # (it imports this module)

        if defaults is None:
            return Columns([self.attrs[i] for i in elements])
        return Columns(defaults.apply(kind, elements, self.attrs, classes))

    def _read(self, data, file, main_dir, parent, depth):
        """Appends the elements of the document ``data`` (named ``file``); ``main_dir``: the
        directory includes are found from (None: no includes looked for); ``parent``: for an
        included document, the element its root's children are placed under (its root not
        read), else None; ``depth``: of the include."""
        parser = expat.ParserCreate(intern=None)
        tags, attrs, lines, parents, kinds = (
            self.tags, self.attrs, self._lines, self.parents, self.kinds
        )  # fmt: skip
        stack = [-1]
        push, pop = stack.append, stack.pop

        def start(tag, attrib):
            i = len(tags)
            parents.append(stack[-1])
            push(i)
            tags.append(tag)
            attrs.append(attrib)
            kinds[tag].append(i)
            if tag in _LINED:
                lines[i] = parser.CurrentLineNumber

        def start_including(tag, attrib):
            top = stack[-1]
            if top == _INCLUDE:
                raise Declined  # (an include's children: not read by the reader)
            if parent is not None and len(stack) == 1:  # (an included root)
                push(parent)
            elif tag == "include":
                self._include(attrib.get("file"), top, main_dir, depth)
                push(_INCLUDE)
            else:
                if parent is not None:
                    self.files[len(tags)] = file
                lines[len(tags)] = parser.CurrentLineNumber  # (every line: several files)
                start(tag, attrib)

        parser.StartElementHandler = start if main_dir is None else start_including
        parser.EndElementHandler = lambda tag: pop()
        try:  # (str as the element reader's parse_xml reads it: its UTF-8 bytes)
            parser.Parse(data, True)
        except expat.ExpatError:
            raise Declined from None
        finally:  # (no cycle through the handlers: the tables are freed with the parse)
            parser.StartElementHandler = parser.EndElementHandler = None

    def _include(self, name, parent, main_dir, depth):
        """Reads the file ``name`` of an ``<include>`` (relative to ``main_dir``) below the
        element ``parent``; Declined where the reader errs (no file, unreadable)."""
        if name is None or depth >= _MAX_DEPTH:
            raise Declined
        path = os.path.abspath(os.path.join(main_dir, name))
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            raise Declined from None
        self._read(data, path, main_dir, parent, depth + 1)

    def check(self):
        """Declined unless every tag is one CHILDREN allows under its parent and the
        attributes of the tags of ATTRIBUTES other than joint, geom, mesh, equality and the
        actuators (checked with their defaults: _mjcf_defaults) are its."""
        tags, parents = self.tags, self.parents
        for tag, elements in self.kinds.items():
            under = {None if p < 0 else tags[p] for p in map(parents.__getitem__, elements)}
            for parent in under:
                allowed = CHILDREN.get(parent)
                if allowed is None or tag not in allowed:
                    raise Declined
            if tag in ("joint", "geom", "motor", "position", "mesh", "equality"):
                continue
            allowed = ATTRIBUTES.get(tag)
            if allowed is not None:
                if not allowed.issuperset(set().union(*map(self.attrs.__getitem__, elements))):
                    raise Declined


def _start_lines(data, count):
    """The line of each of the ``count`` start tags of the well-formed document ``data``
    (bytes, without includes), in order, as expat counts lines: by the offsets of the start
    tags (_STARTS) where that scan finds them all (no DOCTYPE, no carriage return, an
    encoding whose ``<`` and line feed are bytes), else by expat."""
    if b"<!DOCTYPE" not in data and b"\r" not in data:
        offsets = [m.start() for m in _STARTS.finditer(data) if m.group(1)]
        if len(offsets) == count:
            newlines = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
            return (np.searchsorted(newlines, offsets) + 1).tolist()
    parser, lines = expat.ParserCreate(), []
    parser.StartElementHandler = lambda tag, attrib: lines.append(parser.CurrentLineNumber)
    try:
        parser.Parse(data, True)
    finally:
        parser.StartElementHandler = None
    return lines
