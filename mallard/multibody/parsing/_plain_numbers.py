"""Many number attributes read at once, for the parsers' bulk paths (_urdf_inertia,
_urdf_joints): texts of plain decimal numbers only, which C++ stream extraction (Drake's reader,
see _attributes.convert_to_doubles) and Python's float() read alike, each text of the expected
count; any other text makes the caller read the elements one by one (and report it)."""

import numpy as np

#: The bytes of plain decimal numbers, whitespace, the texts' separator NUL and ABSENT (any
#: other character, as in "nan", "inf", "1_0", which float() would read, makes texts not plain).
_PLAIN = b"0123456789eE+-. \t\n\r\f\v\x00\x01"
#: The text of a value not given (XML allows no such character), read as NaN.
ABSENT = "\x01"


def plain_numbers(texts, count):
    """The numbers of ``texts`` in order, a float array (NaN for ABSENT), if each text holds
    exactly ``count`` plain decimal numbers (or is ABSENT, when ``count`` is 1); else None. A
    number out of range reads as ±inf (the caller rejects it). (Each read by float(), into
    the array by np.fromiter: no list of floats, no dtype discovery per item.)"""
    joined = "\0".join(texts)
    # (ASCII: its bytes are its characters; deleting the plain ones leaves nothing)
    if not joined.isascii() or joined.encode().translate(None, _PLAIN):
        return None
    try:
        if count == 1:  # (float() reads one number between whitespace, and fails on two)
            words = joined.replace(ABSENT, "nan").split("\0")
            return np.fromiter(map(float, words), float, len(words))
        words = joined.replace("\0", " \0 ").split()  # (a NUL word between two texts' words)
        if len(words) != (count + 1) * len(texts) - 1:
            return None
        if words[count :: count + 1] != ["\0"] * (len(texts) - 1):  # (a text of another count)
            return None
        del words[count :: count + 1]
        return np.fromiter(map(float, words), float, len(words))
    except ValueError:  # (signs, points or exponents not making a number: "1e", "+-1", "1.2.3")
        return None
