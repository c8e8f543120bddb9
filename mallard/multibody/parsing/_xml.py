"""XML documents as light element trees that remember their file and line (for messages)."""

import bisect
import itertools
import re
from xml.parsers import expat

# Comments, and what may hold the text "<!--" without starting one.
_MARKUP = re.compile(rb"<!--|<!\[CDATA\[|<\?")
_MARKUP_END = {b"<!--": b"-->", b"<![CDATA[": b"]]>", b"<?": b"?>"}
# A line break as expat counts them (an XML processor reads "\r\n" and "\r" as "\n").
LINE_BREAK = re.compile(rb"\r\n?|\n")


class ElementQueries:
    """``find``, ``findall`` and ``get`` of an element with ``children`` and ``attrib``
    (XmlElement's and _xml_view.ElementView's)."""

    __slots__ = ()

    def find(self, tag):
        """The first child named ``tag``, or None."""
        for child in self.children:
            if child.tag == tag:
                return child
        return None

    def findall(self, tag):
        """The children named ``tag``."""
        return [child for child in self.children if child.tag == tag]

    def get(self, name, default=None):
        """The value of attribute ``name``, or ``default``."""
        return self.attrib.get(name, default)


class XmlElement(ElementQueries):
    """An XML element: ``tag``, ``attrib`` (dict), ``children`` (elements, in order), ``text``
    (its stripped character data, or None), and ``file`` and ``line`` where it starts. (No
    link to its parent: a tree without cycles is freed as soon as it is dropped, without the
    cyclic garbage collector's passes over every element.)"""

    __slots__ = ("tag", "attrib", "children", "text", "file", "_line")

    def __init__(self, tag, attrib, file, line):
        self.tag = tag
        self.attrib = attrib
        self.children = []
        self.text = None
        self.file = file
        # (an int; in a document read without its comments, (line, byte offset) in that text
        # and the _CommentLines that give the line in the document)
        self._line = line

    @property
    def line(self):
        line = self._line
        return line if type(line) is int else line[2].line(line[0], line[1])

    def __repr__(self):
        return f"<XmlElement {self.tag} at {self.file}:{self.line}>"


class XmlSyntaxError(ValueError):
    """Malformed XML: ``line`` and ``message`` say where and what."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line


def _end_of(data, opening, start):
    """Where the markup ``opening`` (which ends at ``start``) is closed, or -1. A comment's
    "-->" is looked for at its '>'s (memchr's speed) until many '>'s were not it."""
    if opening != b"<!--":
        return data.find(_MARKUP_END[opening], start)
    position = start
    for _ in range(64):
        end = data.find(b">", position)
        if end < 0 or (end - 2 >= start and data[end - 2 : end] == b"--"):
            return end - 2 if end >= 0 else -1
        position = end + 1
    return data.find(b"-->", max(position - 2, start))


class _CommentLines:
    """The lines of a document that expat read without its comments: a line expat reports,
    plus the line breaks of the comments taken out before the byte it reports it for (counted
    when a line is first asked for: only messages need them)."""

    def __init__(self, data, removed):
        self._data = data
        self._removed = removed  # (offset in the text without comments, start, end in data)
        self._offsets = [offset for offset, _, _ in removed]
        self._breaks = None

    def line(self, line, offset):
        if self._breaks is None:
            counts = (
                len(LINE_BREAK.findall(self._data, start, end)) for _, start, end in self._removed
            )
            self._breaks = list(itertools.accumulate(counts))
        k = bisect.bisect_right(self._offsets, offset)
        return line + (self._breaks[k - 1] if k else 0)


def syntax_error(e, parser, lines):
    """The XmlSyntaxError of expat's ExpatError ``e`` (``parser`` read the text without its
    comments of _CommentLines ``lines``, or None)."""
    line = e.lineno if lines is None else lines.line(e.lineno, parser.ErrorByteIndex)
    return XmlSyntaxError(line, f"Failed to parse XML: {expat.errors.messages[e.code]}")


def comment_spans(data):
    """[(start, end)] of the comments of the bytes ``data``, each from its "<!--" to its
    "-->" (at ``end``), as without_comments takes them out (CDATA sections and processing
    instructions passed over; an unterminated comment, and what follows it, not counted)."""
    spans = []
    if b"!" not in data or b"<!--" not in data:  # (a byte: memchr, ~60x faster)
        return spans
    position = 0
    while (match := _MARKUP.search(data, position)) is not None:
        opening = match.group()
        end = _end_of(data, opening, match.end())
        if end < 0:
            break
        if opening == b"<!--":
            spans.append((match.start(), end))
        position = end + len(_MARKUP_END[opening])
    return spans


def without_comments(data):
    """(the bytes ``data`` without their comments, their _CommentLines or None if there were
    none). expat reads a comment at ~40 MB/s, tinyxml2 (Drake's) ~10x faster: a 30 MB comment
    took a second. An unterminated comment is left for expat to report."""
    spans = comment_spans(data)
    if not spans:
        return data, None
    parts, removed, kept, start = [], [], 0, 0
    for begin, end in spans:
        parts.append(data[start:begin])
        kept += begin - start
        removed.append((kept, begin, end))
        start = end + 3
    parts.append(data[start:])
    return b"".join(parts), _CommentLines(data, removed)


def parse_xml(text, file, keep_text=True):
    """The root XmlElement of the document ``text`` (``file`` names it in messages);
    XmlSyntaxError if it is not well-formed XML. Without ``keep_text``, every element's
    ``text`` is None (for a format whose elements hold none, MJCF: expat then calls no
    Python for the character data, ~1% of an MJCF parse)."""
    # (intern=None: tags and attribute names not interned through a dict per document; equal
    # strings all the same, one lookup and hash less each: ~1% of an MJCF parse)
    parser = expat.ParserCreate(intern=None)
    parser.buffer_text = True
    text, lines = without_comments(text.encode() if isinstance(text, str) else text)
    document = XmlElement(None, {}, file, 0)  # (holds the root element)
    stack = [document]  # (the open elements, innermost last)
    push, pop, new = stack.append, stack.pop, object.__new__

    def start(tag, attrib):  # (XmlElement(...) inlined: this runs for every element)
        element = new(XmlElement)
        element.tag = tag
        element.attrib = attrib
        element.children = []
        element.text = None
        element.file = file
        element._line = parser.CurrentLineNumber
        stack[-1].children.append(element)
        push(element)

    def start_without_comments(tag, attrib):
        start(tag, attrib)
        stack[-1]._line = (parser.CurrentLineNumber, parser.CurrentByteIndex, lines)

    def end(tag):
        element = pop()
        if element.text is not None:  # (the pieces of its character data)
            element.text = "".join(element.text).strip() or None

    def data(text):
        element = stack[-1]
        if element.text is None:
            if not text.isspace():  # (leading whitespace is stripped: not kept)
                element.text = [text]
        else:
            element.text.append(text)

    parser.StartElementHandler = start if lines is None else start_without_comments
    parser.EndElementHandler = end
    if keep_text:
        parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as e:
        raise syntax_error(e, parser, lines) from None
    finally:  # (the handlers and the parser refer to each other: a cycle holding the tree)
        parser.StartElementHandler = parser.EndElementHandler = None
        parser.CharacterDataHandler = None
    return document.children[0]
