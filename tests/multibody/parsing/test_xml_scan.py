"""The compiled XML scan (_xml_scan) against ElementTree (the reader's read, _xml_view): on
every URDF of the corpus (tests/multibody/parsing/test_urdf_fast_path.corpus) and the 200-link
chain, and on seeded random byte edits of a small document, where the scan reads a document
it shows ElementTree's tree (the same elements in order, tags, attribute dicts, parents, a
leaf's content without markup), each number it converts equal to ``float``'s to the bit;
where it declines or finds a document malformed, the reader reads it."""

import random

import numpy as np
import pytest

from mallard.multibody.parsing import _urdf_fast, _xml_scan
from mallard.multibody.parsing._xml import XmlSyntaxError
from mallard.multibody.parsing._xml_view import parse_xml_view
from tests.multibody.parsing.test_urdf_fast_path import benchmark, corpus

_TABLES = (
    (*_xml_scan.name_table(_urdf_fast.TAGS), _urdf_fast.TAGS),
    (*_xml_scan.name_table(_urdf_fast.ATTRIBUTES), _urdf_fast.ATTRIBUTES),
)


def _tree(text):
    try:
        return parse_xml_view(text, "f").element
    except XmlSyntaxError:
        return None


def _assert_same(scan, root):
    """The scan's arrays show ElementTree's tree ``root``; returns how many numbers it
    converted."""
    text, elements = scan.text, list(root.iter())
    assert len(elements) == len(scan.elements)
    index = {id(element): e for e, element in enumerate(elements)}
    tags, names = _urdf_fast.TAGS, _urdf_fast.ATTRIBUTES
    rows = scan.attributes.tolist()
    for e, (element, row) in enumerate(zip(elements, scan.elements.tolist(), strict=True)):
        assert text[row[2] + 1 : row[2] + 1 + len(element.tag)].decode() == element.tag
        assert (tags.index(element.tag) if element.tag in tags else -1) == row[0]
        assert all(scan.elements[index[id(child)], 1] == e for child in element)
        content = text[row[5] : row[6]]
        if not len(element) and b"<" not in content and b"\r" not in content:  # (its text)
            assert content.decode() == (element.text or "")
        attrib = {}
        for r in rows[row[3] : row[3] + row[4]]:
            name, value = text[r[4] : r[5]].decode(), text[r[2] : r[3]].decode()
            assert r[0] == e and (names.index(name) if name in names else -1) == r[1]
            attrib[name] = value
            if r[7] >= 0:
                got = scan.values[r[6] : r[6] + r[7]]
                want = np.array([float(word) for word in value.split()])
                assert got.tobytes() == want.tobytes(), value
        assert attrib == element.attrib
    return len(scan.values)


def test_the_scan_shows_elementtrees_tree_of_every_urdf():
    documents = {path: open(path, "rb").read() for path in corpus()}
    documents["chain"] = benchmark.chain_urdf(200).encode()
    read = numbers = 0
    for label, text in documents.items():
        scan, root = _xml_scan.Scan(text, *_TABLES), _tree(text)
        if scan.status == _xml_scan.OK:
            assert root is not None, label
            numbers += _assert_same(scan, root)
            read += 1
    assert read >= 0.9 * len(documents) and numbers > 10_000


@pytest.mark.parametrize("seed", range(2))
def test_byte_edits_are_read_as_elementtree_reads_them_or_left_to_it(seed):
    base = f'<?xml version="1.0"?>\n<!-- c -->\n{benchmark.chain_urdf(3)}\n<!-- d -->\n'.encode()
    rng, alphabet = random.Random(seed), b"<>/=\"' \n\t!?-&ab:1.e+x\r]\x00\x01\xc3"
    statuses = set()
    for _ in range(2000):
        text = bytearray(base)
        for _ in range(rng.randrange(1, 4)):
            k, op = rng.randrange(len(text) + 1), rng.randrange(3)
            if op == 1:
                text[k:k] = bytes([rng.choice(alphabet)])
            elif k < len(text):
                if op == 0:
                    del text[k]
                else:
                    text[k] = rng.choice(alphabet)
        scan, root = _xml_scan.Scan(bytes(text), *_TABLES), _tree(bytes(text))
        statuses.add(scan.status)
        if scan.status == _xml_scan.OK:
            assert root is not None, bytes(text)
            _assert_same(scan, root)
    assert statuses == {_xml_scan.OK, _xml_scan.DECLINE, _xml_scan.MALFORMED}


def test_numbers_beyond_the_fast_path_are_read_as_float_reads_them():
    scan = _xml_scan.Scan(
        b'<robot><origin xyz="0.12345678901234567 1e-30 2"/><origin xyz="1 2 3"/>'
        b'<origin xyz="nan 0 0"/><origin xyz="1 2"/></robot>',
        *_TABLES,
    )
    origins = scan.children(0, _urdf_fast.TAGS.index("origin"))
    rows = scan.attribute(origins, _urdf_fast.ATTRIBUTES.index("xyz"))
    assert scan.attributes[rows[0], 7] == -1 and scan.attributes[rows[1], 7] == 3
    values = scan.numbers(rows[:2, None], (3,))
    assert values.tobytes() == np.array([[0.12345678901234567, 1e-30, 2], [1, 2, 3]]).tobytes()
    assert scan.numbers(rows[2:3, None], (3,)) is None
    assert scan.numbers(rows[3:, None], (3,)) is None


def test_columns_of_numbers_and_strings_are_gathered_in_one_call_each():
    scan = _xml_scan.Scan(
        b'<robot><origin xyz="1 2 3" rpy="0.12345678901234567"/><origin rpy="4"/>'
        b'<origin xyz="0.10000000000000000001 5 6" rpy="7"/><origin xyz="1 2" rpy="8"/>'
        b'<origin xyz="" rpy="name"/></robot>',
        *_TABLES,
    )
    origins = scan.children(0, _urdf_fast.TAGS.index("origin"))
    rows = scan.attribute(origins, [_urdf_fast.ATTRIBUTES.index(a) for a in ("xyz", "rpy")])
    values = scan.numbers(rows[:3], (3, 1), -1.0)  # (-1 where absent; fast and slow cells)
    expected = [[1, 2, 3, 0.12345678901234567], [-1, -1, -1, 4], [0.1, 5, 6, 7]]
    assert values.tobytes() == np.array(expected).tobytes()
    assert scan.numbers(rows[:4], (3, 1)) is None  # (two numbers where three are read)
    assert scan.numbers(rows[4:, 1:], (1,)) is None  # (a word not a number)
    assert scan.strings(rows[[0, 2, 3], 1]) == ["0.12345678901234567", "7", "8"]
    assert scan.strings(rows[:0, 1]) == []
    assert scan.strings(rows[:2, 0]) is None and scan.strings(rows[4:, 0]) is None


def test_a_row_table_of_the_first_names_and_no_first_child_table():
    """Scan(rowed=k, children=False) (the MJCF fast path's): the same element, attribute and
    number arrays, a row table of the first k names' columns, no first-child table."""
    text = benchmark.chain_urdf(9).encode()
    full, part = _xml_scan.Scan(text, *_TABLES), _xml_scan.Scan(text, *_TABLES, 3, False)
    for name in ("elements", "attributes", "values"):
        assert np.array_equal(getattr(full, name), getattr(part, name))
    assert np.array_equal(full.row[:, :3], part.row) and part.first.shape == (len(full.row), 0)


def test_the_mjcf_scans_ids_are_the_places_of_its_tags_and_names():
    """The MJCF fast path's tables (_mjcf_scan: names looked up in their first byte's bucket):
    each tag's and attribute name's id is its place in TAGS and NAMES (-1: another name)."""
    from mallard.multibody.parsing import _mjcf_scan
    from tests.multibody.parsing.test_mjcf_fast_path import with_assets

    text = with_assets(benchmark.robot_mjcf(30)).replace("<geom ", '<geom user="1" ', 1)
    scan = _xml_scan.Scan(text.encode(), *_mjcf_scan._TABLES)
    root, elements = _tree(text.encode()), scan.elements
    for element, row in zip(root.iter(), elements.tolist(), strict=True):
        assert _mjcf_scan.TAGS[row[0]] == element.tag
    names = [text[a:b] for a, b in scan.attributes[:, 4:6].tolist()]
    ids = [_mjcf_scan.NAMES.index(n) if n in _mjcf_scan.NAMES else -1 for n in names]
    assert scan.attributes[:, 1].tolist() == ids and -1 in ids


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_the_lines_of_elements_are_expats_at_once_or_one_by_one(end):
    """Scan.lines (the MJCF fast path's warnings' lines, at once) and Scan.line: the lines
    expat gives each start tag, with lines ended by "\\n", "\\r\\n" or "\\r" (counted by the
    scan wherever they are: between elements, in comments, between attributes and around their
    '=', before a tag's end, in the XML declaration)."""
    from xml.parsers import expat

    chain = benchmark.chain_urdf(3)
    chain = chain.replace("<!-- ", "<!--\n").replace(
        '<link name="link1">', '<!--\n\n-->\n<link\n name\n=\n"link1"\n>'
    )
    chain = chain.replace("</joint>", "</joint\n\n>", 1).replace(
        'type="revolute"', 'type="revolute"\n\n', 1
    )
    text = end.join(('<?xml version="1.0"\nencoding="UTF-8"?>\n' + chain).splitlines()).encode()
    want, parser = [], expat.ParserCreate()
    parser.StartElementHandler = lambda tag, attrib: want.append(parser.CurrentLineNumber)
    parser.Parse(text, True)
    scan = _xml_scan.Scan(text, *_TABLES)
    everyone = list(range(len(scan.elements)))
    assert scan.lines(everyone[::-1]) == want[::-1] and scan.lines([]) == []
    assert [scan.line(e) for e in everyone] == want


def test_a_document_mostly_of_comments_is_left_to_the_reader():
    """The scan reads a document's comments (the reader takes them out at memchr's speed:
    _xml.comment_spans), but declines one whose comments are most of its bytes; the reader's
    plant is the one the Parser gives."""
    chain = benchmark.chain_urdf(9)
    body = chain.index("<link")
    some = (chain[:body] + "<!-- a comment -->" + chain[body:]).encode()
    assert _xml_scan.Scan(some, *_TABLES).status == _xml_scan.OK
    mostly = (chain[:body] + "<!--" + "x" * (2 * len(chain)) + "-->" + chain[body:]).encode()
    assert _xml_scan.Scan(mostly, *_TABLES).status == _xml_scan.DECLINE
    assert _tree(mostly) is not None  # (well-formed: the reader reads it)
