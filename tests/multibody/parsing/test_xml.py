"""The XML layer: elements with their lines, and comments, which expat never sees (they are
taken out first, since expat reads them slowly): lines, texts and errors as if they were
there; the same for both readers (_xml's XmlElements, _xml_view's ElementViews)."""

import gc

import pytest

from mallard.multibody.parsing._xml import XmlSyntaxError, parse_xml
from mallard.multibody.parsing._xml_view import parse_xml_view

READERS = pytest.mark.parametrize("parse", [parse_xml, parse_xml_view])

DOCUMENT = b"""<a>
<!-- one
two -->
<b/><!-- three --><c>1 <!--
four
--> 2</c>
<![CDATA[ <!-- not a comment --> ]]><?pi <!-- nor this ?>
<!---->
<d/></a>"""


@READERS
def test_lines_and_texts_around_comments(parse):
    root = parse(DOCUMENT, "f.urdf")
    assert [(e.tag, e.line) for e in root.children] == [("b", 4), ("c", 4), ("d", 9)]
    assert root.find("c").text == "1  2"
    assert root.text == "<!-- not a comment -->"


@READERS
def test_a_document_as_str_or_bytes(parse):
    assert parse(DOCUMENT.decode(), "f").find("d").line == 9


@pytest.mark.parametrize(
    "text, line",
    [
        (b"<a>\n<!--\n\n-->\n<b>\n</a>", 6),  # an error after a comment
        (b"<a>\n<!-- never closed\n</a>", 2),  # expat reports it
        (b"<a><!----></a>\n<b/>", 2),
    ],
)
@READERS
def test_errors_are_located_as_if_comments_were_there(parse, text, line):
    with pytest.raises(XmlSyntaxError) as info:
        parse(text, "f")
    assert info.value.line == line


@READERS
def test_a_long_comment_with_many_closing_brackets(parse):
    comment = b"<x> -> a-->b " * 100
    root = parse(b"<a><!-- " + comment.replace(b"-->", b"->") + b" -->\n<b/></a>", "f")
    assert root.find("b").line == 2


@READERS
def test_a_parsed_tree_is_freed_without_the_cycle_collector(parse):

    text = b'<robot name="r"><link name="a"><inertial/></link><!-- c --><link name="b"/></robot>'
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        for source in (text, b"<a><b></a>"):
            try:
                root = parse(source, "f.urdf")
            except XmlSyntaxError:
                pass
            else:
                assert [child.get("name") for child in root.children] == ["a", "b"]
                del root
        assert gc.collect() == 0  # (nothing was left in a reference cycle)
    finally:
        if enabled:
            gc.enable()


@READERS
def test_texts_around_children_keep_their_inner_whitespace(parse):
    """A text is its element's character data, joined and stripped (leading whitespace-only
    pieces are not kept: stripped either way)."""
    root = parse("<a>\n  <b/> \n <c/>x <d/>  y\n<e>  </e><f> 1 </f></a>", "f")
    assert root.text == "x   y"
    assert root.find("e").text is None and root.find("f").text == "1"
    assert root.find("b").text is None


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
@READERS
def test_lines_after_each_kind_of_line_break(parse, newline):
    """expat counts "\\r\\n" and a lone "\\r" as one line break (an XML processor reads both
    as "\\n"); an ElementView's line, found from its '<', counts them alike."""
    text = b"<a>\n<b/>\n\n<c><![CDATA[ <x/>\n ]]><?pi <y/>\n?>\n<d/></c>\n<!-- <z/>\n -->\n<e/></a>"
    root = parse(text.replace(b"\n", newline), "f")
    lines = [(e.tag, e.line) for e in root.children]
    assert lines == [("b", 2), ("c", 4), ("e", 10)]
    assert root.find("c").find("d").line == 7


@READERS
def test_lines_of_a_document_whose_entities_hold_elements(parse):
    """Elements that no '<' of the text starts (a DOCTYPE's entity): their lines as expat
    reports them (ElementViews read such a document again to find them)."""
    text = b'<?xml version="1.0"?>\n<!DOCTYPE a [\n<!ENTITY e "<b/>">\n]>\n<a>\n&e;\n<c/>&e;</a>'
    root = parse(text, "f")
    assert [(e.tag, e.line) for e in root.children] == [("b", 6), ("c", 7), ("b", 7)]


def test_an_element_view_of_an_element_read_directly():
    """A parser that reads Elements directly gets their one ElementView from the parent's
    ``view`` (the one its ``children`` hold)."""
    root = parse_xml_view(b'<a>\n<b x="1">t</b>\n<c/></a>', "f.urdf")
    b = root.element.find("b")
    assert b.get("x") == "1"
    view = root.view(b)
    assert view is root.children[0] and view.element is b
    assert (view.tag, view.attrib, view.text, view.file, view.line) == (
        "b",
        {"x": "1"},
        "t",
        "f.urdf",
        2,
    )
    assert root.view(view) is view and root.view(None) is None


def _tree(element):
    return (
        element.tag,
        element.attrib,
        element.text,
        element.line,
        [_tree(child) for child in element.children],
    )


@pytest.mark.parametrize(
    "text",
    [
        b'<a x="package://p/m.obj">\n<b y="1 2"/>t:u</a>',  # (colons in values and text)
        b'<a>\n<drake:b drake:x="1"/></a>',  # (prefixes never declared)
        b'<a xmlns="u">\n<b/></a>',
        b'<a xmlns:d="u">\n<d:b d:x="1"/></a>',
        b'<a xml:lang="en">\n<b/></a>',
        b"<a>\n<![CDATA[x]]>\n<b/></a>",
        b'<?xml version="1.0" encoding="UTF-16"?>\n<a>\n<d:b/></a>'.decode().encode("utf-16"),
        b"<a>\n<b>&amp;&#60;</b></a>",
        b'<?xml version="1.0"?>\n<a\tx="1"\n>\n<b/></a>',
    ],
)
def test_both_readers_read_names_with_colons_alike(text):
    """Names with colons are read as written, never as namespaces: the ElementViews' tree
    (read by ElementTree's XMLParser when nothing in the text may make it read otherwise, else
    by expat as _xml) is _xml's."""
    assert _tree(parse_xml_view(text, "f")) == _tree(parse_xml(text, "f"))


@pytest.mark.parametrize(
    "text",
    [b"<a>\n<b></a>", b"<a>\n&e;</a>", b"<a>\n<d:b></a>", b'<a xmlns:d="u">\n<d:b></a>'],
)
def test_both_readers_report_an_error_alike(text):
    errors = []
    for parse in (parse_xml, parse_xml_view):
        with pytest.raises(XmlSyntaxError) as info:
            parse(text, "f")
        errors.append((str(info.value), info.value.line))
    assert errors[0] == errors[1]


def test_a_document_read_without_its_character_data():
    # (MJCF's: its elements hold none) The same tree, lines and errors; every text None.
    kept, dropped = parse_xml(DOCUMENT, "f.xml"), parse_xml(DOCUMENT, "f.xml", keep_text=False)
    assert kept.find("c").text == "1  2"
    assert [(e.tag, e.line, e.text) for e in dropped.children] == [
        ("b", 4, None),
        ("c", 4, None),
        ("d", 9, None),
    ]
    assert dropped.text is None
    for text in (b"<a>x &bad; y</a>", b"<a>\n\n<b>\x01</b></a>", b"<a>x</b>"):
        with pytest.raises(XmlSyntaxError) as with_text:
            parse_xml(text, "f.xml")
        with pytest.raises(XmlSyntaxError) as without:
            parse_xml(text, "f.xml", keep_text=False)
        assert (without.value.line, str(without.value)) == (
            with_text.value.line,
            str(with_text.value),
        )


def test_only_mjcf_documents_are_read_without_character_data():
    from mallard.multibody.parsing._parser import _format_parser, reads_text

    assert [reads_text(_format_parser(f"m.{ext}")) for ext in ("urdf", "sdf", "xml")] == [
        True,
        True,
        False,
    ]
