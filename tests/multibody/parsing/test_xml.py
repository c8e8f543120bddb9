"""The XML layer: elements with their lines, and comments, which expat never sees (they are
taken out first, since expat reads them slowly): lines, texts and errors as if they were
there."""

import gc

import pytest

from mallard.multibody.parsing._xml import XmlSyntaxError, parse_xml

DOCUMENT = b"""<a>
<!-- one
two -->
<b/><!-- three --><c>1 <!--
four
--> 2</c>
<![CDATA[ <!-- not a comment --> ]]><?pi <!-- nor this ?>
<!---->
<d/></a>"""


def test_lines_and_texts_around_comments():
    root = parse_xml(DOCUMENT, "f.urdf")
    assert [(e.tag, e.line) for e in root.children] == [("b", 4), ("c", 4), ("d", 9)]
    assert root.find("c").text == "1  2"
    assert root.text == "<!-- not a comment -->"


def test_a_document_as_str_or_bytes():
    assert parse_xml(DOCUMENT.decode(), "f").find("d").line == 9


@pytest.mark.parametrize(
    "text, line",
    [
        (b"<a>\n<!--\n\n-->\n<b>\n</a>", 6),  # an error after a comment
        (b"<a>\n<!-- never closed\n</a>", 2),  # expat reports it
        (b"<a><!----></a>\n<b/>", 2),
    ],
)
def test_errors_are_located_as_if_comments_were_there(text, line):
    with pytest.raises(XmlSyntaxError) as info:
        parse_xml(text, "f")
    assert info.value.line == line


def test_a_long_comment_with_many_closing_brackets():
    comment = b"<x> -> a-->b " * 100
    root = parse_xml(b"<a><!-- " + comment.replace(b"-->", b"->") + b" -->\n<b/></a>", "f")
    assert root.find("b").line == 2


def test_a_parsed_tree_is_freed_without_the_cycle_collector():

    text = b'<robot name="r"><link name="a"><inertial/></link><!-- c --><link name="b"/></robot>'
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        for source in (text, b"<a><b></a>"):
            try:
                root = parse_xml(source, "f.urdf")
            except XmlSyntaxError:
                pass
            else:
                assert [child.get("name") for child in root.children] == ["a", "b"]
                del root
        assert gc.collect() == 0  # (nothing was left in a reference cycle)
    finally:
        if enabled:
            gc.enable()


def test_texts_around_children_keep_their_inner_whitespace():
    """A text is its element's character data, joined and stripped (leading whitespace-only
    pieces are not kept: stripped either way)."""
    root = parse_xml("<a>\n  <b/> \n <c/>x <d/>  y\n<e>  </e><f> 1 </f></a>", "f")
    assert root.text == "x   y"
    assert root.find("e").text is None and root.find("f").text == "1"
    assert root.find("b").text is None
