"""An XML document's UTF-8 bytes read by one compiled kernel (:func:`xml_scan`) into arrays:
no Python object per element (ElementTree makes an Element and an attribute dict for each),
its numbers converted in the kernel; then tables and columns over those arrays
(:class:`Scan`: "every joint's origin's xyz as an (n, 3) array, NaN where absent"), for a
reader's fast path (_urdf_fast).

The scan reads the documents it fully understands: ASCII bytes, an XML declaration of
version 1.x (UTF-8 or US-ASCII, if it names its encoding: :data:`DECLARATION`), comments,
elements and attributes (quoted by " or '), character data of neither '&' nor a control
character. It declines (DECLINE) a DOCTYPE, CDATA, a processing instruction, an entity or
character reference ('&'), a non-ASCII byte, an attribute value holding a tab or line break
(which XML normalizes to a space), a document mostly of comments (the reader takes them out at
memchr's speed: _xml.comment_spans), and it finds some documents malformed (MALFORMED: tags not
matched, an attribute repeated, text after the root...); either way the reader reads the
document (_xml_view), which gives Drake's message with file and line. Where it reads a
document, its elements, attributes and values are ElementTree's of the same bytes
(tests/multibody/parsing/test_xml_scan.py).

Numbers: a whitespace-separated word of ≤ 15 significant digits and a decimal exponent of
magnitude ≤ 22 is m·10^e or m/10^-e (Clinger's fast path: both operands exact, one correctly
rounded operation, so the bits of Python's ``float``); an attribute with another word (a name,
a longer number, "nan"...) has no numbers (count -1): :meth:`Scan.numbers` reads it as the
reader does (_plain_numbers)."""

import re

import numpy as np

from mallard._compiled import entry_point, kernels
from mallard.multibody._kernels._machinery import jitable
from mallard.multibody.parsing._plain_numbers import plain_numbers
from mallard.multibody.parsing._xml import comment_spans

OK, DECLINE, MALFORMED = 0, 1, 2
_POW10 = np.array([10.0**k for k in range(23)])
#: The most nested elements the scan reads (deeper: declined).
MAX_DEPTH = 256

#: The XML declarations the scan reads past (its encoding, if named, one whose bytes it reads).
DECLARATION = re.compile(
    rb"<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(\"1\.[0-9]+\"|'1\.[0-9]+')"
    rb"([ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(\"(?i:utf-8|us-ascii)\"|'(?i:utf-8|us-ascii)'))?"
    rb"([ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(\"(yes|no)\"|'(yes|no)'))?[ \t\r\n]*\?>"
)
_TAG_NAME = re.compile(rb"[^ \t\r\n/>]+")
#: The columns of an element's row: tag id, parent (-1: the root's), the offset of its '<', its
#: first attribute row, its attribute count, where its content starts and ends (after its start
#: tag's '>', at its end tag's '<'; both after "/>" for an empty-element tag), the line of its
#: '<' as expat counts them ("\r\n", "\r" and "\n" each end a line).
TAG, PARENT, OFFSET, FIRST, COUNT, CONTENT, END, LINE = range(8)
#: The columns of an attribute's row: element, name id, value start and end, name start and
#: end, first number, numbers (-1: a word is not a fast-path number).
ELEMENT, NAME, VALUE, VALUE_END, NAME_START, NAME_END, NUMBER, NUMBERS = range(8)


@jitable
def _is_name_start(c):
    return (65 <= c <= 90) or (97 <= c <= 122) or c == 95 or c == 58


@jitable
def _is_name(c):
    return _is_name_start(c) or (48 <= c <= 57) or c == 45 or c == 46


@jitable
def _is_space(c):
    return c == 32 or c == 9 or c == 10 or c == 13


@jitable
def _line_end(buf, i):
    """1 where the byte at ``i`` ends a line ("\r", or "\n" but after "\r"), else 0."""
    c = buf[i]
    if c == 13 or (c == 10 and not (i > 0 and buf[i - 1] == 13)):
        return 1
    return 0


@jitable
def _same(buf, a0, a1, b0, b1):
    if a1 - a0 != b1 - b0:
        return False
    for i in range(a1 - a0):
        if buf[a0 + i] != buf[b0 + i]:
            return False
    return True


@jitable
def _name_id(buf, s, e, names, lengths, buckets):
    """The row of buf[s:e] in the padded name table ``names``, or -1 (the rows of its first
    byte's bucket compared: ``buckets``, name_table's)."""
    c = buf[s]
    for q in range(buckets[c], buckets[c + 1]):
        k = buckets[q]
        if lengths[k] == e - s:
            same = True
            for i in range(e - s):
                if names[k, i] != buf[s + i]:
                    same = False
                    break
            if same:
                return k
    return -1


@jitable
def _number(buf, s, e, out, at):
    """Whether the word buf[s:e] is a number of Clinger's fast path; if so it is out[at]."""
    i, negative = s, False
    if buf[i] == 45 or buf[i] == 43:
        negative = buf[i] == 45
        i += 1
    m = digits = exponent = 0  # (the significand's digits, from the first non-zero one)
    seen = False
    while i < e and 48 <= buf[i] <= 57:
        seen = True
        if m or buf[i] != 48:
            m, digits = m * 10 + (buf[i] - 48), digits + 1
        i += 1
        if digits > 15:
            return False
    if i < e and buf[i] == 46:
        i += 1
        while i < e and 48 <= buf[i] <= 57:
            seen = True
            if m or buf[i] != 48:
                m, digits = m * 10 + (buf[i] - 48), digits + 1
            exponent -= 1
            i += 1
            if digits > 15:
                return False
    if not seen:
        return False
    if i < e and (buf[i] == 101 or buf[i] == 69):
        i += 1
        sign = 1
        if i < e and (buf[i] == 45 or buf[i] == 43):
            sign = -1 if buf[i] == 45 else 1
            i += 1
        if i == e:
            return False
        x = 0
        while i < e and 48 <= buf[i] <= 57:
            x = min(x * 10 + (buf[i] - 48), 10000)
            i += 1
        exponent += sign * x
    if i != e:
        return False
    value = float(m)
    if m != 0:
        if exponent < -22 or exponent > 22:
            return False
        value = value / _POW10[-exponent] if exponent < 0 else value * _POW10[exponent]
    out[at] = -value if negative else value
    return True


@jitable
def _numbers(buf, v0, v1, numbers, nn):
    """How many numbers the attribute value buf[v0:v1] holds, written to numbers[nn:], or -1
    if a word is not a fast-path number (or they would not fit)."""
    count, k = 0, v0
    while k < v1:
        while k < v1 and buf[k] == 32:
            k += 1
        if k == v1:
            break
        w0 = k
        while k < v1 and buf[k] != 32:
            k += 1
        if nn + count == numbers.shape[0] or not _number(buf, w0, k, numbers, nn + count):
            return -1
        count += 1
    return count


@entry_point
@jitable
def xml_scan(
    buf, start, tags, tag_lengths, tag_buckets, names, name_lengths, name_buckets, elements,
    attributes, numbers, first_child, attribute_row, stack, counts,
):  # fmt: skip
    """OK, DECLINE or MALFORMED for the document ``buf`` (uint8) from ``start`` (after its XML
    declaration); tag and attribute names given ids by their rows in the padded tables
    ``tags`` and ``names`` (of lengths ``tag_lengths``, ``name_lengths``, by first byte in
    ``tag_buckets``, ``name_buckets``: name_table's; -1: another name). On OK, counts =
    (elements, attributes, numbers) of rows written, in document order: rows of ``elements``
    (TAG... END) and ``attributes`` (ELEMENT... NUMBERS), the ``numbers``; and in the tables
    ``first_child`` and ``attribute_row`` (given all -1, a row more than ``elements``) the
    first child of element e of tag id t at [e, t], e's attribute row of name id a at [e, a]
    (for the ids of their columns: a table may have fewer columns than names, or none).
    ``stack``: (MAX_DEPTH, 2) int32, the open elements and their tags' ends."""
    n = buf.shape[0]
    depth = ne = na = nn = 0
    line = 1
    for i in range(start):  # (the XML declaration's lines)
        line += _line_end(buf, i)
    i, root_done = start, False
    while i < n:
        c = buf[i]
        if c != 60:  # (character data)
            if c >= 128 or c == 38 or (c < 32 and not _is_space(c)):
                return DECLINE
            if c == 10 or c == 13:
                line += _line_end(buf, i)
            if depth == 0 and not _is_space(c):
                return MALFORMED
            if c == 62 and i >= 2 and buf[i - 1] == 93 and buf[i - 2] == 93:  # ("]]>")
                return MALFORMED
            i += 1
            continue
        if i + 1 >= n:
            return MALFORMED
        c = buf[i + 1]
        if c == 33:  # ("<!": a comment, else declined)
            if not (i + 3 < n and buf[i + 2] == 45 and buf[i + 3] == 45):
                return DECLINE
            j = i + 4
            while True:
                if j + 1 >= n:
                    return MALFORMED
                if buf[j] == 45 and buf[j + 1] == 45:
                    if j + 2 < n and buf[j + 2] == 62:
                        break
                    return MALFORMED
                if buf[j] >= 128 or (buf[j] < 32 and not _is_space(buf[j])):
                    return DECLINE
                line += _line_end(buf, j)
                j += 1
            i = j + 3
            continue
        if c == 63:  # (a processing instruction)
            return DECLINE
        if c == 47:  # (an end tag)
            if depth == 0:
                return MALFORMED
            j = i + 2
            while j < n and _is_name(buf[j]):
                j += 1
            open_element = stack[depth - 1, 0]
            if not _same(buf, i + 2, j, elements[open_element, OFFSET] + 1, stack[depth - 1, 1]):
                return MALFORMED
            while j < n and _is_space(buf[j]):
                line += _line_end(buf, j)
                j += 1
            if j >= n or buf[j] != 62:
                return MALFORMED
            elements[open_element, END] = i
            depth -= 1
            root_done = depth == 0
            i = j + 1
            continue
        if root_done:
            return MALFORMED
        if not _is_name_start(c):
            return DECLINE
        j = i + 2
        while j < n and _is_name(buf[j]):
            j += 1
        if ne == elements.shape[0] or depth == stack.shape[0]:
            return DECLINE
        e, tag_end, first = ne, j, na
        ne += 1
        tag = _name_id(buf, i + 1, j, tags, tag_lengths, tag_buckets)
        parent = stack[depth - 1, 0] if depth > 0 else -1
        elements[e, TAG], elements[e, PARENT] = tag, parent
        if 0 <= tag < first_child.shape[1] and parent >= 0 and first_child[parent, tag] < 0:
            first_child[parent, tag] = e
        elements[e, OFFSET], elements[e, LINE] = i, line
        elements[e, FIRST] = na
        closed = False
        while True:  # (attributes, then '>' or "/>")
            spaced = False
            while j < n and _is_space(buf[j]):
                line += _line_end(buf, j)
                spaced, j = True, j + 1
            if j >= n:
                return MALFORMED
            if buf[j] == 62:
                j += 1
                break
            if buf[j] == 47:
                if j + 1 < n and buf[j + 1] == 62:
                    closed, j = True, j + 2
                    break
                return MALFORMED
            if not spaced or not _is_name_start(buf[j]):
                return MALFORMED if buf[j] < 128 else DECLINE
            a0 = j
            while j < n and _is_name(buf[j]):
                j += 1
            a1 = j
            while j < n and _is_space(buf[j]):
                line += _line_end(buf, j)
                j += 1
            if j >= n or buf[j] != 61:
                return MALFORMED
            j += 1
            while j < n and _is_space(buf[j]):
                line += _line_end(buf, j)
                j += 1
            if j >= n or (buf[j] != 34 and buf[j] != 39):
                return MALFORMED
            quote = buf[j]
            j += 1
            v0 = j
            while j < n and buf[j] != quote:
                if buf[j] == 60:
                    return MALFORMED
                if buf[j] == 38 or buf[j] >= 128 or buf[j] < 32:  # (&, non-ASCII, normalized)
                    return DECLINE
                j += 1
            if j >= n:
                return MALFORMED
            v1 = j
            j += 1
            for k in range(first, na):
                if _same(buf, a0, a1, attributes[k, NAME_START], attributes[k, NAME_END]):
                    return MALFORMED
            if na == attributes.shape[0]:
                return DECLINE
            count = _numbers(buf, v0, v1, numbers, nn)
            attributes[na, ELEMENT] = e
            name = _name_id(buf, a0, a1, names, name_lengths, name_buckets)
            attributes[na, NAME] = name
            if 0 <= name < attribute_row.shape[1]:
                attribute_row[e, name] = na
            attributes[na, VALUE], attributes[na, VALUE_END] = v0, v1
            attributes[na, NAME_START], attributes[na, NAME_END] = a0, a1
            attributes[na, NUMBER], attributes[na, NUMBERS] = nn, count
            nn += max(count, 0)
            na += 1
        elements[e, COUNT] = na - first
        elements[e, CONTENT] = j
        if not closed:
            stack[depth, 0], stack[depth, 1] = e, tag_end
            depth += 1
        else:
            elements[e, END] = j
            root_done = depth == 0
        i = j
    if depth != 0 or not root_done:
        return MALFORMED
    counts[0], counts[1], counts[2] = ne, na, nn
    return OK


@jitable
def own_numbers(attributes, values, r, k, out, i, at):
    """Copies the k numbers of attribute row ``r`` into out[i, at : at + k]: 1, or 0 where it
    holds a word not a fast-path number (its text the caller's to read), -1 where it holds
    numbers of another count."""
    count = attributes[r, NUMBERS]
    if count < 0:
        return 0
    if count != k:
        return -1
    first = attributes[r, NUMBER]
    for q in range(k):
        out[i, at + q] = values[first + q]
    return 1


@entry_point
@jitable
def xml_numbers(rows, counts, attributes, values, absent, out, slow):
    """Gathers the numbers of the attribute rows ``rows`` ((n, m) int32, -1: absent), counts[j]
    of each of column j, into ``out`` ((n, sum(counts)); column j's from sum(counts[:j])),
    ``absent`` where -1. Returns how many cells (i·m + j, written to ``slow``) hold a word
    not a fast-path number (their text is the caller's to read), or -1 if a cell holds numbers
    of another count."""
    n, m = rows.shape
    count = 0
    for i in range(n):
        c = 0
        for j in range(m):
            k, r = counts[j], rows[i, j]
            if r < 0:
                for q in range(k):
                    out[i, c + q] = absent
            else:
                copied = own_numbers(attributes, values, r, k, out, i, c)
                if copied < 0:
                    return -1
                if copied == 0:
                    slow[count] = i * m + j
                    count += 1
            c += k
    return count


@entry_point
@jitable
def xml_strings(buf, rows, attributes, out):
    """Copies the values of the attribute rows ``rows`` (int32) from the document ``buf`` to
    ``out``, each followed by a NUL; returns the bytes written, or -1 if one is absent (-1)
    or empty."""
    at = 0
    for r in rows:
        if r < 0 or attributes[r, VALUE] == attributes[r, VALUE_END]:
            return -1
        for i in range(attributes[r, VALUE], attributes[r, VALUE_END]):
            out[at] = buf[i]
            at += 1
        out[at] = 0
        at += 1
    return at


def name_table(names):
    """The padded table (uint8 rows), lengths and buckets of the ``names`` the scan gives ids
    (their rows): buckets[c] : buckets[c + 1] are the places in ``buckets`` of the rows of
    the names of first byte c."""
    table = np.zeros((len(names), max(map(len, names))), np.uint8)
    for k, name in enumerate(names):
        table[k, : len(name)] = np.frombuffer(name.encode(), np.uint8)
    order = sorted(range(len(names)), key=lambda k: table[k, 0])
    starts = 257 + np.searchsorted(table[order, 0], np.arange(257))
    buckets = np.concatenate((starts, order)).astype(np.int64)
    return table, np.array([len(name) for name in names], np.int64), buckets


class Scan:
    """A document read by the scan (``status`` OK), or not (DECLINE, MALFORMED: its arrays
    None). ``text`` (bytes), ``elements``, ``attributes``, ``values`` (its numbers), the ids
    of ``tags`` and ``names`` it was read with; and the tables a reader queries:
    ``children(parent, tag)``, ``child(elements, tag)`` (each one's first child of ``tag``,
    -1 where none or where the element is -1), ``attribute(elements, name)`` (the attribute
    rows, -1 where absent), ``numbers``, ``strings``; an element's ``tag``, ``attrib``,
    ``content``, ``children_of``, ``line``."""

    def __init__(self, text, tags, names, rowed=None, children=True):
        """Reads ``text`` (bytes) with ``tags`` and ``names``: name_table's tables of the tag
        and attribute names given ids, then the tuple of the names (``tags[-1]``,
        ``names[-1]``); ``rowed``: how many of the names (the first) have a column in the
        row table (None: all); ``children``: whether the first-child table is made."""
        self.text, self.tags, self.names = text, tags, names
        self.elements = self.attributes = self.values = self.buffer = None
        start = 0
        if text.startswith(b"<?"):
            declaration = DECLARATION.match(text)
            if declaration is None:
                self.status = DECLINE
                return
            start = declaration.end()
        # (at most an element per '<' (the tables filled: tight), an attribute per 5 bytes
        # (' a=""'), a number per 2 (a digit and a space or quote): pages only touched
        # where written)
        if 2 * sum(end + 3 - begin for begin, end in comment_spans(text)) > len(text):
            # (mostly comments: the reader takes them out at memchr's speed, where the scan
            # reads each of their bytes)
            self.status = DECLINE
            return
        buf = np.frombuffer(text, np.uint8)
        ne, na = np.count_nonzero(buf == 60), len(text) // 5 + 1  # (the '<'s: bytes.count's 1/4)
        elements = np.empty((ne, 8), np.int32)
        attributes = np.empty((na, 8), np.int32)
        numbers = np.empty(len(text) // 2 + 1)
        counts = np.zeros(3, np.int64)
        stack = np.empty((MAX_DEPTH, 2), np.int32)
        # (the tables' last row, all -1, answers the element -1: absent)
        self.first = np.full((ne + 1, len(tags[-1]) if children else 0), -1, np.int32)
        self.row = np.full((ne + 1, len(names[-1]) if rowed is None else rowed), -1, np.int32)
        self.buffer = buf
        self.status = kernels(np.float64).xml_scan(
            buf, start, *tags[:-1], *names[:-1], elements, attributes, numbers, self.first,
            self.row, stack, counts,
        )  # fmt: skip
        if self.status == OK:
            ne, na, nn = counts.tolist()
            self.elements, self.attributes, self.values = (
                elements[:ne], attributes[:na], numbers[:nn]
            )  # fmt: skip

    def children(self, parent, tag):
        """The children of element ``parent`` of tag id ``tag``, in order."""
        elements = self.elements
        return np.flatnonzero((elements[:, TAG] == tag) & (elements[:, PARENT] == parent))

    def child(self, elements, tag):
        """The first child of ``tag`` (a tag id: (n,); a list of them: (n, len(tag)))."""
        return self.first[elements, tag] if type(tag) is int else self.first[elements[:, None], tag]

    def attribute(self, elements, name):
        """The row of attribute ``name`` (an id: (n,); a list of them: (n, len(name)))."""
        return self.row[elements, name] if type(name) is int else self.row[elements[:, None], name]

    def numbers(self, rows, counts, absent=np.nan):
        """The numbers of the attribute rows ``rows`` ((n, m)), counts[j] of each of column j,
        as (n, sum(counts)) (xml_numbers' columns), ``absent`` where -1; each read as
        _plain_numbers reads its text (the scan's fast-path numbers, else its float()); None if
        a present one is not plain decimal numbers of its count."""
        rows = np.ascontiguousarray(rows, np.int32)
        counts = np.array(counts, np.int64)
        out = np.empty((len(rows), int(counts.sum())))
        slow = np.empty(rows.size, np.int64)
        found = kernels(np.float64).xml_numbers(
            rows, counts, self.attributes, self.values, absent, out, slow
        )
        if found > 0 and not self.read_slow(rows, counts, slow[:found], out):
            return None
        return None if found < 0 else out

    def read_slow(self, rows, counts, cells, out):
        """Reads the numbers of the ``cells`` (i·m + j) of the attribute rows ``rows`` ((n, m);
        counts[j] of each of column j) that hold a word not a fast-path number into ``out``
        (xml_numbers' columns), their texts at once for each count, as _plain_numbers reads
        them; whether each is plain decimal numbers of its count."""
        at, column = divmod(cells, rows.shape[1])
        k, text = counts[column], self.text
        spans = self.attributes[rows[at, column], VALUE:NAME_START].tolist()
        texts = [text[a:b].decode() for a, b in spans]
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))[column]
        for size in np.unique(k).tolist():
            cells = np.flatnonzero(k == size)
            values = plain_numbers([texts[c] for c in cells.tolist()], size)
            if values is None:
                return False
            places = starts[cells, None] + np.arange(size)
            out[at[cells, None], places] = values.reshape(len(cells), size)
        return True

    def strings(self, rows):
        """The values (str) of the attribute rows ``rows``, decoded at once; None if one is
        absent (-1) or empty."""
        rows = np.ascontiguousarray(rows, np.int32)
        spans = self.attributes[rows, VALUE_END] - self.attributes[rows, VALUE]
        out = np.empty(int(spans.sum()) + len(rows), np.uint8)  # (rows -1: any span, then -1)
        end = kernels(np.float64).xml_strings(self.buffer, rows, self.attributes, out)
        if end < 0:
            return None
        return out[: end - 1].tobytes().decode().split("\0") if len(rows) else []

    def tag(self, element):
        """The tag (str) of ``element``."""
        return _TAG_NAME.match(self.text, int(self.elements[element, OFFSET]) + 1).group().decode()

    def attrib(self, element):
        """The attributes of ``element``: {name: value} (str), in order."""
        text = self.text
        first, count = self.elements[element, FIRST : COUNT + 1].tolist()
        rows = self.attributes[first : first + count, VALUE : NAME_END + 1].tolist()
        return {text[a:b].decode(): text[v:w].decode() for v, w, a, b in rows}

    def content(self, element):
        """The bytes between ``element``'s start and end tags (b"" for an empty-element tag)."""
        start, end = self.elements[element, CONTENT : END + 1].tolist()
        return self.text[start:end]

    def children_of(self, element):
        """The children of ``element`` (rows), in order: among the rows of its subtree (those
        after it that start before its end tag), those whose parent it is."""
        elements = self.elements
        stop = np.searchsorted(elements[:, OFFSET], elements[element, END])
        return element + 1 + np.flatnonzero(elements[element + 1 : stop, PARENT] == element)

    def line(self, element):
        """The line of element ``element``'s start, as expat counts them."""
        return self.lines([element])[0]

    def lines(self, elements):
        """The lines of the starts of ``elements`` (a list), as expat counts them (LINE)."""
        return self.elements[elements, LINE].tolist()
