"""Numeric XML attributes read as Drake's tinyxml helpers read them (detail_tinyxml.cc).

Numbers are read as a C++ ``std::istringstream >> double`` loop in the classic locale does:
whitespace-separated decimal numbers, stopping at the first text that does not start a number
(so "1.5abc" reads 1.5, "inf", "nan" and "1e400" read nothing). So every number read here is
finite (``_numbers``: Drake's URDF parser rejects NaN and inf in every field); the messages
about a value that holds one say so.
"""

import math
import re

import numpy as np

from mallard.math import RigidTransform
from mallard.math._roll_pitch_yaw import matrix_from_rpy
from mallard.multibody.parsing._numbers import has_nonfinite_token

_DECIMAL = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBER = re.compile(rf"\s*({_DECIMAL})", re.ASCII)  # (C++ reads no other digits or spaces)


def convert_to_doubles(text):
    """The numbers at the start of ``text``, as C++ stream extraction reads them."""
    # The common case first: ASCII words that Python reads as finite numbers. Python also
    # reads "1_0" and non-ASCII digits, which C++ does not, and "nan", "inf", "1e400" as not
    # finite: those take the reader below.
    if text.isascii() and "_" not in text:
        try:
            values = list(map(float, text.split()))  # (map: no bytecodes a number)
        except ValueError:
            pass
        else:
            if math.isfinite(sum(values)) or all(map(math.isfinite, values)):
                return values  # (the sum first: one test in the common case)
    values = []
    position = 0
    while True:
        match = _NUMBER.match(text, position)
        if match is None:
            return values
        value = float(match.group(1))
        if math.isinf(value):  # out of range: the stream fails
            return values
        values.append(value)
        position = match.end()


def _finite_hint(text):
    """What to add to Drake's message about the numbers of ``text``: why "nan" or "inf"
    are not read."""
    return (
        " (numbers must be finite: NaN and inf are not read)" if has_nonfinite_token(text) else ""
    )


def parse_scalar(node, name, diagnostics, default=None):
    """The value of numeric attribute ``name`` of ``node``, or ``default`` if it is absent.
    An error (located at ``node``) unless it holds exactly one number."""
    text = node.attrib.get(name)
    if text is None:
        return default
    try:  # (the common case: one number; see convert_to_doubles)
        value = float(text)
    except ValueError:
        pass
    else:
        if math.isfinite(value) and text.isascii() and "_" not in text:
            return value
    values = convert_to_doubles(text)
    if len(values) != 1:
        diagnostics.error(
            node, f"Expected single value for attribute '{name}' got '{text}'{_finite_hint(text)}"
        )
    return values[0] if values else None


def parse_floats(node, name, size):
    """The ``size`` numbers of attribute ``name`` of ``node`` as a list of floats, or None if
    it is absent. ValueError (as pydrake's) if it does not hold exactly ``size`` numbers."""
    text = node.attrib.get(name)
    if text is None:
        return None
    values = convert_to_doubles(text)
    if len(values) != size:
        raise ValueError(
            f"{node.file}:{node.line}: error: Expected {size} values for attribute {name} "
            f"got {text}{_finite_hint(text)}"
        )
    return values


def parse_vector(node, name, size):
    """parse_floats as an array."""
    values = parse_floats(node, name, size)
    return None if values is None else np.array(values)


def parse_three_vector(node, name):
    """A 3-vector attribute that may also be given as one scalar (for all three), or None."""
    text = node.get(name)
    if text is None:
        return None
    if " " in text:
        return parse_vector(node, name, 3)
    values = convert_to_doubles(text)
    if len(values) != 1:
        raise ValueError(
            f"{node.file}:{node.line}: error: Expected single value for attribute '{name}' "
            f"got '{text}'{_finite_hint(text)}"
        )
    return np.full(3, values[0])


_IDENTITY = np.eye(3)


def origin_to_transform(node):
    """The pose given by the ``xyz`` and ``rpy`` attributes of ``node`` (zero if absent)."""
    xyz = parse_floats(node, "xyz", 3)
    rpy = parse_floats(node, "rpy", 3)
    p = np.zeros(3) if xyz is None else np.array(xyz)
    R = _IDENTITY.copy() if rpy is None else matrix_from_rpy(*rpy)
    return RigidTransform._make(R, p)
