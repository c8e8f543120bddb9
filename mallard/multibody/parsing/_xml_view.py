"""XML documents read by C (expat into ElementTree's TreeBuilder: no Python runs per element),
seen through ElementViews, the XmlElement interface made for an element when it is first
reached, so that a parser reading the elements it reads most through their Elements directly
(the URDF parser's links and joints) makes no Python object for them. Lines are found only when
a message asks for one. (_xml.parse_xml builds every XmlElement as expat reads it: cheaper for
a parser that reads every element, as the SDFormat and MJCF parsers do.)"""

import bisect
import re
from xml.parsers import expat

from mallard.multibody.parsing._xml import (
    LINE_BREAK,
    ElementQueries,
    syntax_error,
    without_comments,
)

# An element's start ('<' then a name: group 1), or what may hold one's text without being one.
_STARTS = re.compile(rb"<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<([^/!?])", re.DOTALL)
#: The bytes of XML names (ASCII letters, digits, "_-.", any of UTF-8's multibyte characters'),
#: and what may come before a name (a tag's, an attribute's).
_NAME_BYTES = frozenset(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-." + bytes(range(128, 256))
)
_BEFORE_NAME = frozenset(b"< \t\r\n")


class _Children:
    """ElementView.children: the child ElementViews, made at the first read, which keeps them
    as the view's own attribute (a non-data descriptor: later reads find the attribute; a class
    with ``__getattr__`` instead, for a slot not yet set, pays a hook on every attribute read,
    ~30 times a plain read's cost)."""

    def __get__(self, view, owner=None):
        if view is None:
            return self
        make = view._document.view
        children = view.__dict__["children"] = [make(child) for child in view.element]
        return children


class ElementView(ElementQueries):
    """An XML element as an XmlElement shows it: ``tag``, ``attrib`` (dict), ``children``
    (ElementViews, in order, made when first asked for), ``text`` (its stripped character
    data, or None), ``file`` and ``line`` where it starts, ``find``, ``findall``, ``get``; and
    ``element``, the Element it shows, for a parser to read directly (``view`` then gives a
    child Element's ElementView: one per Element, all reached from the root's). (No link to its
    parent: a tree without cycles is freed as soon as it is dropped, without the cyclic
    garbage collector's passes over it.) Its fields are plain instance attributes (no
    ``__slots__``), ``children`` set by _Children."""

    children = _Children()

    @property
    def text(self):
        element = self.element
        text = element.text
        if len(element):  # (its character data between and after its children too)
            text = "".join([text or "", *[child.tail or "" for child in element]])
        return text.strip() or None if text else None

    @property
    def line(self):
        return self._document.line(self.element)

    def view(self, child):
        """The ElementView of ``child``, one of this element's children as an Element or as
        its ElementView (None: None)."""
        if child is None or type(child) is ElementView:
            return child
        for view in self.children:
            if view.element is child:
                return view
        return None

    def __repr__(self):
        return f"<ElementView {self.tag} at {self.file}:{self.line}>"


class _Document:
    """A document read: its ``file``, its Element tree (``root``) and the text expat read (the
    document without its comments of _xml.CommentLines ``comments``, if it had any)."""

    __slots__ = ("file", "root", "_text", "_comments", "_lines")

    def __init__(self, file, root, text, comments):
        self.file = file
        self.root = root
        self._text = text
        self._comments = comments
        self._lines = None  # (Element -> line, once one is asked for)

    def view(self, element):
        """A new ElementView of ``element``."""
        view = object.__new__(ElementView)
        view.tag = element.tag
        view.attrib = element.attrib
        view.element = element
        view.file = self.file
        view._document = self
        return view

    def line(self, element):
        if self._lines is None:
            self._lines = dict(zip(self.root.iter(), self._start_lines(), strict=True))
        return self._lines[element]

    def _start_lines(self):
        """The line of each element's start, in document order, as expat reports it: the line
        of its '<' (the text's '<'s that neither end an element nor start other markup), or,
        when that is not certain (a DOCTYPE, whose entities may hold elements; an encoding
        whose '<' is not the byte), from a second read by expat."""
        text, comments = self._text, self._comments
        if b"<!DOCTYPE" not in text:
            starts = [m.start() for m in _STARTS.finditer(text) if m.group(1)]
            if len(starts) == sum(1 for _ in self.root.iter()):
                breaks = [m.start() for m in LINE_BREAK.finditer(text)]
                lines = [bisect.bisect_left(breaks, start) + 1 for start in starts]
                if comments is None:
                    return lines
                return [comments.line(n, start) for n, start in zip(lines, starts, strict=True)]
        parser = expat.ParserCreate()
        lines = []

        def start(tag, attrib):
            line = parser.CurrentLineNumber
            if comments is not None:
                line = comments.line(line, parser.CurrentByteIndex)
            lines.append(line)

        parser.StartElementHandler = start
        try:
            parser.Parse(text, True)
        finally:  # (the handler and the parser refer to each other)
            parser.StartElementHandler = None
        return lines


def _may_read_otherwise(text):
    """Whether ElementTree's XMLParser (expat with namespaces: C calling C, 25% faster than
    expat calling the TreeBuilder) may read ``text`` otherwise than expat without namespaces,
    or fail: "!" (a DOCTYPE; CDATA: kept simple), "xmlns" (a default namespace declared), a
    colon that may be in a name (after '<' or whitespace and name characters: ``drake:`` tags
    and attributes, namespaces declared, the ``xml:`` prefix; not package://, a value's), or
    NUL (an encoding of two or four bytes a character, where these bytes are not the text's).
    (Bytes looked for by ``bytes.find``: a single byte is memchr's.)"""
    if b"!" in text or b"\0" in text or b"xmlns" in text:
        return True
    at = text.find(b":")
    while at >= 0:
        start = at
        while start and text[start - 1] in _NAME_BYTES:
            start -= 1
        if start == 0 or text[start - 1] in _BEFORE_NAME:
            return True
        at = text.find(b":", at + 1)
    return False


def parse_xml_view(text, file):
    """The root ElementView of the document ``text`` (``file`` names it in messages);
    _xml.XmlSyntaxError if it is not well-formed XML. (No namespace processing, as parse_xml:
    ``drake:`` tags need no declaration.)"""
    from xml.etree.ElementTree import TreeBuilder, XMLParser  # (not with mallard: ~2 ms)

    text, comments = without_comments(text.encode() if isinstance(text, str) else text)
    if not _may_read_otherwise(text):
        try:
            root = XMLParser(target=TreeBuilder())
            root.feed(text)
            root = root.close()
        except SyntaxError:  # (expat's message, from the reader below)
            pass
        else:
            document = _Document(file, root, text, comments)
            return document.view(document.root)
    parser = expat.ParserCreate()
    parser.buffer_text = True
    builder = TreeBuilder()
    parser.StartElementHandler = builder.start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as e:
        raise syntax_error(e, parser, comments) from None
    finally:
        parser.StartElementHandler = parser.EndElementHandler = None
        parser.CharacterDataHandler = None
    document = _Document(file, builder.close(), text, comments)
    return document.view(document.root)
