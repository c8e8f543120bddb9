"""Many number attributes read at once, for the parsers' bulk paths (_urdf_inertia,
_urdf_joints): texts of plain decimal numbers only, which C++ stream extraction (Drake's reader,
see _attributes.convert_to_doubles) and Python's float() read alike, each text of the expected
count; any other text makes the caller read the elements one by one (and report it)."""

import itertools
import re

#: Texts (joined by NUL) holding anything but ASCII digits, signs, points, exponents,
#: whitespace and ABSENT:
#: not only plain decimal numbers (float() would also read "nan", "inf", "1_0").
_NOT_PLAIN = re.compile(r"[^0-9eE+\-. \t\n\r\f\v\x00\x01]")
#: The text of a value not given (XML allows no such character), read as NaN.
ABSENT = "\x01"


def plain_numbers(texts, counts):
    """The numbers of ``texts`` in order, as floats (NaN for ABSENT), if each text holds
    exactly the count of ``counts`` (as long as ``texts``) of plain decimal numbers (or is
    ABSENT); else None. A number out of range reads as ±inf (the caller rejects it)."""
    joined = "\0".join(texts)
    if _NOT_PLAIN.search(joined) is not None:
        return None
    words = list(map(str.split, joined.replace(ABSENT, "nan").split("\0")))
    if list(map(len, words)) != counts:
        return None
    try:  # (map: no bytecodes a number)
        return list(map(float, itertools.chain.from_iterable(words)))
    except ValueError:  # (signs, points or exponents not making a number: "1e", "+-1", "1.2.3")
        return None
