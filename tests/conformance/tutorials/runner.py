"""Runs a tutorial's code under pydrake and under mallard (the same code, its imports naming
one library or the other: ``{lib}`` in the source) and compares what each prints.

The outputs agree when, after the library's name and object addresses are set aside (``<...
LinearSystem object at 0x7f...>`` and ``Name@0000558a...`` differ from run to run), their
words are the same and their numbers agree to 1e-9 (absolute, or relative to the larger)."""

import contextlib
import io
import math
import re
import textwrap

import numpy as np

_ADDRESS = re.compile(r"<([\w.]+\.)?(\w+(?:𝓣\w+𝓤)?) object at 0x[0-9a-f]+>|@[0-9a-f]{16}")
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)")


def run(source, lib, seed=0):
    """What ``source`` (with ``{lib}`` in its imports) prints when run with ``lib`` ("pydrake"
    or "mallard"), numpy's random generator seeded first."""
    code = textwrap.dedent(source).replace("{lib}", lib)
    np.random.seed(seed)
    out = io.StringIO()
    namespace = {"__name__": "tutorial"}
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"<tutorial under {lib}>", "exec"), namespace)
    return out.getvalue()


def _normalized(text):
    text = text.replace("pydrake", "LIB").replace("mallard", "LIB")
    return _ADDRESS.sub(lambda m: f"<{m.group(2)} object>" if m.group(2) else "@ADDRESS", text)


def assert_same_output(expected, actual, tol=1e-9):
    """``actual`` prints what ``expected`` does (see the module docstring)."""
    expected, actual = _normalized(expected), _normalized(actual)
    words_e, words_a = _NUMBER.split(expected), _NUMBER.split(actual)
    numbers_e, numbers_a = _NUMBER.findall(expected), _NUMBER.findall(actual)
    assert [w.strip() for w in words_a] == [w.strip() for w in words_e], (
        f"the outputs differ:\n--- pydrake:\n{expected}\n--- mallard:\n{actual}"
    )
    for e, a in zip(numbers_e, numbers_a, strict=True):
        x, y = float(e), float(a)
        if math.isnan(x) and math.isnan(y):
            continue
        assert abs(x - y) <= tol * max(1.0, abs(x), abs(y)), (
            f"{a} (mallard) != {e} (pydrake) in:\n--- pydrake:\n{expected}\n--- mallard:\n{actual}"
        )


def compare(source, tol=1e-9):
    """Runs ``source`` under both libraries and compares the outputs; returns mallard's."""
    expected = run(source, "pydrake")
    actual = run(source, "mallard")
    assert_same_output(expected, actual, tol)
    return actual
