"""An MJCF document read by the compiled XML scan (_xml_scan) for the fast path (_mjcf_fast),
without a dict per element: ``ScanTables``, the tables of _mjcf_tables.Tables (tags, parents,
kinds, lines; attribute dicts made only where asked for) with its whitelist checked over the
scan's tag and name ids, and ``ScanColumns``, an element kind's attributes with their
``<default>``s read by columns from the scan's attribute rows and numbers (the questions of
_mjcf_columns.Columns, the same answers)."""

from itertools import repeat

import numpy as np

from mallard._compiled import kernels
from mallard.multibody.parsing import _mjcf_kernels, _xml_scan  # noqa: F401 (mjcf_table)
from mallard.multibody.parsing._mjcf_defaults import KINDS, merged
from mallard.multibody.parsing._mjcf_frames import numbers
from mallard.multibody.parsing._mjcf_inertias import sizes
from mallard.multibody.parsing._mjcf_tables import ATTRIBUTES, CHILDREN, ORIENTATIONS, Declined
from mallard.multibody.parsing._xml_scan import (
    COUNT,
    ELEMENT,
    FIRST,
    NAME,
    NAME_END,
    NAME_START,
    NUMBER,
    NUMBERS,
    PARENT,
    TAG,
    VALUE,
    VALUE_END,
)

#: The attribute names read by columns (ScanColumns), which the scan's row table holds.
ROWED = ("name", "class", "childclass", "type", "pos", *sorted(ORIENTATIONS), "axis", "ref",
         "damping", "armature", "range", "limited", "size", "fromto", "mesh", "mass",
         "density", "diaginertia", "fullinertia", "contype", "conaffinity", "condim", "group",
         "material", "rgba", "friction", "joint", "ctrlrange", "ctrllimited", "forcerange",
         "forcelimited", "gear", "kp", "kd")  # fmt: skip
#: The tags and attribute names the scan gives ids: every tag of the whitelist (another tag
#: declines), every attribute name it holds (another: id -1), ROWED's first.
TAGS = tuple(sorted(set().union(*CHILDREN.values())))
NAMES = ROWED + tuple(sorted(set().union(*ATTRIBUTES.values()).difference(ROWED)))
_KEYS = (*NAMES, None)  # (by name id: -1, None)
_TAG = {tag: k for k, tag in enumerate(TAGS)}
_DEFAULT = _TAG["default"]
_TAG_NAMES = np.array(TAGS, object)  # (by tag id: a take of the names)
_NAME = {name: k for k, name in enumerate(NAMES)}
_TABLES = ((*_xml_scan.name_table(TAGS), TAGS), (*_xml_scan.name_table(NAMES), NAMES))
_ORIENTATIONS = np.array([_NAME[name] for name in sorted(ORIENTATIONS)], np.intp)
#: _CHILD[parent's tag id (the last row: the document), tag id]: whether CHILDREN allows it.
_CHILD = np.zeros((len(TAGS) + 1, len(TAGS)), bool)
for _parent, _children in CHILDREN.items():
    _CHILD[len(TAGS) if _parent is None else _TAG[_parent], [_TAG[c] for c in _children]] = True
#: _ALLOWED[tag id, name id (the last column: a name of id -1)]: whether Tables.check allows an
#: attribute (the kinds read with their defaults are checked by columns: ScanTables.columns).
_ALLOWED = np.ones((len(TAGS), len(NAMES) + 1), bool)
for _tag, _names in ATTRIBUTES.items():
    if _tag not in KINDS:
        _ALLOWED[_TAG[_tag]] = False
        _ALLOWED[_TAG[_tag], [_NAME[name] for name in _names]] = True
#: The tags whose elements are read by columns (ScanColumns; the others' dicts made at once).
_COLUMNED = np.isin(TAGS, ("body", "joint", "geom", "inertial", "site", "light", "motor",
                           "position"))  # fmt: skip


def read(data, file):
    """The ScanTables of the document ``data`` (str or bytes, without includes), or None where
    the scan declines it or finds it malformed (the caller reads it with expat)."""
    text = data.encode() if isinstance(data, str) else data
    scan = _xml_scan.Scan(text, *_TABLES, rowed=len(ROWED), children=False)
    if scan.status != _xml_scan.OK:
        return None
    return ScanTables(scan, file)


class ScanTables:
    """The tables of _mjcf_tables.Tables over a scan: ``tags``, ``parents``, ``kinds``,
    ``attrs`` (each element's dict made when first asked for: _Attributes), ``files`` (none:
    no includes), ``lines(elements)``; ``columns`` of a kind."""

    __slots__ = ("file", "tags", "attrs", "parents", "kinds", "files", "scan", "_ids")

    def __init__(self, scan, file):
        ids = scan.elements[:, TAG]
        if (ids < 0).any():
            raise Declined  # (a tag outside the whitelist)
        self.scan, self.file, self.files, self._ids = scan, file, {}, ids
        self.tags = _TAG_NAMES.take(ids).tolist()
        self.parents = scan.elements[:, PARENT].tolist()
        order = np.argsort(ids.astype(np.int16), kind="stable").tolist()  # (a radix sort)
        counts = np.bincount(ids, minlength=len(TAGS))
        ends = np.cumsum(counts).tolist()
        self.kinds = {
            TAGS[t]: order[ends[t] - c : ends[t]]
            for t, c in enumerate(counts.tolist()) if c
        }  # fmt: skip
        # (the dicts of the tags not read by columns and of the <default>s' children: at once)
        self.attrs = _Attributes(scan)
        parents = scan.elements[:, PARENT]
        under_defaults = (ids[parents] == _DEFAULT) & (parents >= 0)
        self.attrs.read(np.flatnonzero(~_COLUMNED[ids] | under_defaults).tolist())

    def lines(self, elements):
        return self.scan.lines(elements)

    def check(self):
        """Tables.check over the ids: each tag one CHILDREN allows under its parent's, each
        attribute of a checked tag one of ATTRIBUTES'."""
        ids, scan = self._ids, self.scan
        parents = scan.elements[:, PARENT]
        if not _CHILD[np.where(parents < 0, len(TAGS), ids[parents]), ids].all():
            raise Declined
        attributes = scan.attributes
        if not _ALLOWED[ids[attributes[:, ELEMENT]], attributes[:, NAME]].all():
            raise Declined

    def columns(self, kind, elements, defaults=None, classes=None):
        """The ScanColumns of ``elements`` of ``kind``, with their ``defaults`` (a Defaults;
        each element's of its ``class``, else of ``classes[k]``) or none; Declined for an
        attribute outside the fast path's (ATTRIBUTES) where defaults are given (the others
        are checked by ``check``)."""
        elements = np.array(elements, np.intp)
        if defaults is None:
            return ScanColumns(self.scan, elements, np.full(len(elements), -1, np.intp), [])
        table = defaults.classes[kind]
        listing, index = list(table.values()), {name: k for k, name in enumerate(table)}
        own = self.scan.row[elements, _NAME["class"]]
        at = np.flatnonzero(own >= 0)
        n, mine = len(elements), len(at)
        if mine < n:
            places = np.fromiter(map(index.get, classes, repeat(-1, n)), np.intp, n)
        else:  # (each element's own)
            places = np.empty(n, np.intp)
        if mine:
            places[at] = _places(self.scan, own[at], index)
        columns = ScanColumns(self.scan, elements, places, listing)
        if not ATTRIBUTES[kind].issuperset(columns.names):
            raise Declined
        return columns


def _places(scan, rows, index):
    """The places (``index``: {name: place}) of the names that are the values of the attribute
    rows ``rows`` (present; -1: another name): by the scan's name lookup (mjcf_name_ids, the
    names' table made once), no value decoded; by their texts where a name is empty or not
    ASCII, or a value empty."""
    names = tuple(index)
    if not names:  # (no class of this kind: none found)
        return np.full(len(rows), -1, np.intp)
    table = _READ.get(("names", names))
    if table is None and all(names) and all(map(str.isascii, names)):
        table = _READ["names", names] = _xml_scan.name_table(names)
    if table is not None:
        out = np.empty(len(rows), np.intp)
        if kernels(np.float64).mjcf_name_ids(scan.buffer, rows, scan.attributes, *table, out):
            return out
    values = _strings(scan, rows)
    return np.fromiter(map(index.get, values, repeat(-1, len(values))), np.intp, len(values))


def _strings(scan, rows):
    """The values (str) of the attribute rows ``rows`` (present), decoded at once (one by one
    where one is empty)."""
    values = scan.strings(rows)
    if values is None:
        text = scan.text
        spans = scan.attributes[rows, VALUE : VALUE_END + 1].tolist()
        values = [text[a:b].decode() for a, b in spans]
    return values


class _Attributes(dict):
    """The attribute dicts of a scan's elements ({element: dict}), each made when first
    asked for (``attrs[element]``), or of many elements at once (``read``)."""

    __slots__ = ("_scan",)

    def __init__(self, scan):
        super().__init__()
        self._scan = scan

    def __missing__(self, i):
        attrib = self[i] = self._scan.attrib(i)
        return attrib

    def read(self, elements):
        """Makes the dicts of ``elements`` at once: their keys by the scan's name ids, their
        values in one decode."""
        scan = self._scan
        first, count = scan.elements[elements, FIRST : COUNT + 1].T
        rows = np.repeat(first - np.cumsum(count) + count, count) + np.arange(count.sum())
        keys = list(map(_KEYS.__getitem__, scan.attributes[rows, NAME].tolist()))
        if None in keys:  # (a name of id -1: sliced)
            text, attributes = scan.text, scan.attributes
            for k in [k for k, key in enumerate(keys) if key is None]:
                start, end = attributes[rows[k], NAME_START : NAME_END + 1]
                keys[k] = text[start:end].decode()
        values = _strings(scan, rows)
        ends = np.cumsum(count).tolist()
        spans = list(map(slice, [0, *ends[:-1]], ends))
        dicts = map(dict, map(zip, map(keys.__getitem__, spans), map(values.__getitem__, spans)))
        self.update(zip(elements, dicts, strict=True))


def _numbers(text, count):
    """_mjcf_frames.numbers of one text (a default's), read once."""
    values = _READ.get((text, count))
    if values is None:
        if len(_READ) >= _MAX_READ:
            _READ.clear()
        values = _READ[text, count] = numbers([text], count)
        values.flags.writeable = False
    return values


def _defaults(specs):
    """The numbers of the texts ``default`` of ``specs`` ((name, count, default) each; NaN
    for None and "", required) in a row, read once."""
    row = _READ.get(specs)
    if row is None:
        row = np.concatenate([
            np.full(count, np.nan) if not default else _numbers(default, count).reshape(-1)
            for _, count, default in specs
        ])  # fmt: skip
        row.flags.writeable = False
        _READ[specs] = row
    return row


def _layout(specs):
    """(the row table's columns of the names of ``specs``, their counts, whether each is an
    orientation, whether each is required (default ""), the numbers of their default texts in
    a row (_defaults)), made once per specs."""
    layout = _READ.get(("layout", specs))
    if layout is None:
        layout = _READ["layout", specs] = (
            np.array([_NAME[name] for name, _, _ in specs], np.intp),
            np.array([count for _, count, _ in specs], np.int64),
            np.array([name in ORIENTATIONS for name, _, _ in specs]),
            np.array([default == "" for _, _, default in specs]),
            _defaults(specs),
        )
    return layout


#: The numbers of defaults' texts read: {(text, count): (1, count) or (1,) array}, rows of
#: _defaults ({specs: row}), layouts ({("layout", specs): _layout's}) and name tables
#: ({("names", names): name_table's}); at most _MAX_READ (then read anew).
_READ, _MAX_READ = {}, 4096


class ScanColumns:
    """The attributes of a kind's ``elements`` of a scan, each with its default
    ``defaults[classes[k]]`` ((attributes, whether they set an orientation), as Defaults holds
    them; -1: none) as _mjcf_defaults.merged merges them, by columns (_mjcf_columns)."""

    __slots__ = ("_scan", "elements", "classes", "defaults", "_table", "_rows", "_oriented",
                 "_names", "_made")  # fmt: skip

    def __init__(self, scan, elements, classes, defaults, table=None):
        """``table``: the scan's row table's rows of ``elements``, if at hand."""
        self._scan, self.elements, self.classes, self.defaults = scan, elements, classes, defaults
        self._table = scan.row[elements] if table is None else table  # (ROWED's rows)
        self._rows, self._oriented, self._names, self._made = {}, None, None, {}

    def __len__(self):
        return len(self.elements)

    def _row(self, name):
        """The attribute rows of ``name`` of the elements themselves (-1: absent)."""
        rows = self._rows.get(name)
        if rows is None:
            k, scan = _NAME.get(name), self._scan
            if k is None:  # (a name no element holds: outside the whitelist)
                rows = np.full(len(self.elements), -1, np.int32)
            elif k < len(ROWED):
                rows = self._table[:, k]
            else:  # (not in the row table: the attribute rows of the name, of these elements)
                rows = np.full(len(self.elements), -1, np.int32)
                at = np.flatnonzero(scan.attributes[:, NAME] == k)
                place = np.full(len(scan.elements), -1, np.intp)
                place[self.elements] = np.arange(len(self.elements))
                mine = place[scan.attributes[at, ELEMENT]]
                rows[mine[mine >= 0]] = at[mine >= 0]
            self._rows[name] = rows
        return rows

    def _given(self, name, own):
        """Where the element's default gives ``name`` (None: nowhere): it has a default that
        holds it, does not hold it itself, nor (an orientation) any orientation itself."""
        given = [name in attributes for attributes, _ in self.defaults]
        if not any(given):
            return None
        given = np.array([*given, False])[self.classes] & ~own
        if name in ORIENTATIONS:
            given &= ~self._own_orientation()
        return given if given.any() else None

    def _own_orientation(self):
        """Whether each element sets an orientation itself."""
        if self._oriented is None:
            rows = self._table[:, _ORIENTATIONS]
            self._oriented = (rows >= 0).any(axis=1)
        return self._oriented

    @property
    def names(self):
        """The attribute names the elements hold (None for a name the scan gives no id:
        in no kind's whitelist), with those of their defaults."""
        if self._names is None:
            scan = self._scan
            held = self._table >= 0
            if np.count_nonzero(held) == scan.elements[self.elements, COUNT].sum():  # (ROWED's)
                names = set(map(ROWED.__getitem__, np.flatnonzero(held.any(axis=0)).tolist()))
            else:  # (the names of the elements' attribute rows)
                first, count = scan.elements[self.elements, FIRST : COUNT + 1].T
                rows = np.repeat(first - np.cumsum(count) + count, count) + np.arange(count.sum())
                held = np.bincount(scan.attributes[rows, NAME] + 1, minlength=len(_KEYS))
                names = set(map(_KEYS.__getitem__, (np.flatnonzero(held) - 1).tolist()))
            for c in set(self.classes.tolist()):
                if c >= 0:
                    names.update(self.defaults[c][0])
            self._names = names
        return self._names

    def has(self, name):
        made = self._made.get(("has", name))
        if made is None:
            own = self._row(name) >= 0
            given = self._given(name, own)
            made = self._made["has", name] = own if given is None else own | given
            made.flags.writeable = False
        return made

    def any_of(self, names):
        if self.defaults:
            return np.logical_or.reduce([self.has(name) for name in sorted(names)])
        return (self._table[:, [_NAME[name] for name in sorted(names)]] >= 0).any(axis=1)

    def texts(self, name, default=None):
        made = self._made.get(("texts", name, default))
        if made is not None:
            return made
        rows = self._row(name)
        own = rows >= 0
        at = np.flatnonzero(own)
        if len(at) == len(rows):  # (each element's own)
            out = _strings(self._scan, rows)
        else:
            out = [default] * len(rows)
            for k, value in zip(at.tolist(), _strings(self._scan, rows[at]), strict=True):
                out[k] = value
            given = self._given(name, own)
            if given is not None:
                defaults, classes = self.defaults, self.classes
                for k in np.flatnonzero(given).tolist():
                    out[k] = defaults[classes[k]][0][name]
        self._made["texts", name, default] = out
        return out

    def numbers(self, name, count, default):
        return self.table(((name, count, default),))[0]

    def table(self, specs):
        """[numbers(name, count, default) for each (name, count, default) of ``specs``]: each
        element's own numbers (the scan's), else its default's where it gives the attribute
        (each default's text read once), else those of the text ``default``, gathered by one
        kernel (_mjcf_kernels.mjcf_table); the texts not of the scan's fast-path numbers read
        by _plain_numbers."""
        if not specs:
            return []
        specs = tuple(specs)
        ids, counts, oriented, required, default_row = _layout(specs)
        scan, n = self._scan, len(self.elements)
        rows = self._table.take(ids, axis=1)  # (C order: one compiled signature)
        holds, by_class, bad = self._by_class(specs, counts)
        own = self._own_orientation() if holds[:, oriented].any() else np.zeros(n, bool)
        out, slow = np.empty((n, len(default_row))), np.empty(rows.size, np.int64)
        found = kernels(np.float64).mjcf_table(
            rows, counts, scan.attributes, scan.values, self.classes, holds, by_class, bad,
            oriented, own, default_row, required, out, slow,
        )  # fmt: skip
        if found < 0:
            raise Declined
        if found:  # (not plain decimals, or inf: declined)
            if not scan.read_slow(rows, counts, slow[:found], out) or np.isinf(out).any():
                raise Declined
        columns, at = [], 0
        for count in counts.tolist():
            part = out[:, at] if count == 1 else out[:, at : at + count]
            columns.append(np.ascontiguousarray(part))
            at += count
        return columns

    def _by_class(self, specs, counts):
        """(whether each default holds each spec's attribute ((defaults + 1, m), the last row
        none), the numbers of their texts ((defaults + 1, sum(counts)), NaN where not held),
        whether each held text is not plain numbers of its count (declined where used))."""
        m, C = len(specs), len(self.defaults)
        holds, bad = np.zeros((C + 1, m), bool), np.zeros((C + 1, m), bool)
        by_class = np.full((C + 1, int(counts.sum())), np.nan)
        starts = (np.cumsum(counts) - counts).tolist()
        for c, (attributes, _) in enumerate(self.defaults):
            for j, (name, count, _) in enumerate(specs):
                text = attributes.get(name)
                if text is not None:
                    holds[c, j] = True
                    try:
                        by_class[c, starts[j] : starts[j] + count] = _numbers(text, count).ravel()
                    except Declined:
                        bad[c, j] = True
        return holds, by_class, bad

    def sizes(self, name, counts):
        """Columns.sizes: the scan's numbers of 1 to 3 words as they are, other texts (of
        defaults, of other counts, not the scan's numbers) by _mjcf_inertias.sizes."""
        rows = self._row(name)
        own = rows >= 0
        attributes = self._scan.attributes
        found = np.where(own, attributes[rows, NUMBERS], 0)
        out = np.full((len(rows), 3), np.nan)
        values = self._scan.values
        for c in (1, 2, 3):
            at = np.flatnonzero(found == c)
            if len(at):
                out[at, :c] = values[attributes[rows[at], NUMBER][:, None] + np.arange(c)]
        rest = np.flatnonzero((found < 1) | (found > 3))
        if len(rest):
            texts = self.take(rest).texts(name, "")
            out[rest] = sizes(texts, [counts[k] for k in rest.tolist()])
        return out

    def looks(self, names):
        defaults = self.defaults
        by_class = [tuple(map(attributes.get, names)) for attributes, _ in defaults]
        by_class.append((None,) * len(names))
        out = list(map(by_class.__getitem__, self.classes.tolist()))
        ids = [_NAME[name] for name in names]
        own = (self._table[:, ids] >= 0).any(axis=1)
        for k in np.flatnonzero(own).tolist():
            out[k] = tuple(map(self.attrib(k).get, names))
        return out

    def attrib(self, k):
        c = self.classes[k]
        return merged(self._scan.attrib(self.elements[k]), self.defaults[c] if c >= 0 else None)

    def take(self, places):
        places = np.asarray(places, np.intp)
        return ScanColumns(self._scan, self.elements[places], self.classes[places], self.defaults,
                           self._table[places])  # fmt: skip

    @staticmethod
    def joined(parts):
        elements, classes, defaults = [], [], []
        for part in parts:
            elements.append(part.elements)
            classes.append(np.where(part.classes < 0, -1, part.classes + len(defaults)))
            defaults += part.defaults
        joined = ScanColumns(parts[0]._scan, np.concatenate(elements), np.concatenate(classes),
                             defaults, np.concatenate([part._table for part in parts]))  # fmt: skip
        if all(part._names is not None for part in parts):  # (their names' union: made)
            joined._names = set().union(*(part._names for part in parts))
        return joined
