"""A YAML document of a common subset read as JSON: its block structure turned into JSON's
brackets line by line, its scalars quoted by one regular expression, the whole read by the
json module (C): for model directives' files, faster than PyYAML's node graph (libyaml's
composer makes Python objects for every event and node; the benchmark's 200 models: ~3 ms
against ~7 at a load of 15).

``read(text)`` is (the document, the 1-based lines where the values of the mappings at the
third level of nesting start, in order, the number of the mappings' pairs in the text) or
None if ``text`` is outside the subset. The document: a mapping is a dict (JSON's: of a key
given twice, the last value, so that a reader compares the pairs it reads with the text's),
a sequence a list, a plain scalar its text, a quoted one its text in single quotes; a mapping
with a tag (``!Rpy {...}``, only the rotation tags of model directives) has the pair
``"!Rpy": 0`` first, and the empty scalar ``!Identity`` is read as ``!Identity {}``. The
subset: a block mapping at the root; block mappings and sequences (entries scalars or compact
mappings, ``- key: value``); flow mappings and sequences on one line, of at most four levels;
plain scalars (in block context too, without ``,[]{}``); quoted scalars without escapes,
quotes, brackets or line breaks; comment lines. Declined: anything else (empty values, other
tags, anchors, aliases, block scalars, multi-line scalars and collections, comments after
content, lines longer than 1000 characters, tabs, non-ASCII or control characters, documents of
several parts...); the caller reads those with PyYAML, which also reports any error. Which
scalar a plain scalar is (str, int...) is the caller's (PyYAML's resolver)."""

import json
import re

# A plain scalar: it does not start with an indicator (but "-" followed by other than a
# space), and ends before ": ", " #", a flow indicator or a line break; a "?" (which PyYAML
# and libyaml read differently in flow context), quote or backslash in it is outside the
# subset. (Its first character, then the rest.)
_PLAIN_REST = r"(?:[^\s:,?\[\]{}'\"\\]++|:(?=[^\s,?\[\]{}'\"\\])|[ ]++(?=[^\s:,?\[\]{}#'\"\\]))*+"
_PLAIN = rf"(?:[^\s\-?:,\[\]{{}}#&*!|>'\"%@`\\]|-(?=[^\s,?\[\]{{}}'\"\\])){_PLAIN_REST}"
_QUOTED = r"'[^'\"\\\[\]{}]*+'|\"[^'\"\\\[\]{}]*+\""
_TAG = r"!(?:Rpy|AngleAxis|Identity)"
# A line: indentation, a block entry "-", a key and its value, or a scalar (an entry's).
_LINE = re.compile(rf"( *+)(- ++)?(?:({_PLAIN}|{_QUOTED}) *+:(?: ++(.*[^ ]))?|(.*[^ ]))? *+")


def _flow(depth):
    """A flow collection of at most ``depth`` levels (brackets balanced; no quoted scalar has
    any)."""
    inner = r"[^\[\]{}]*+"
    if depth > 1:
        inner = rf"{inner}(?:{_flow(depth - 1)}{inner})*+"
    return rf"(?:\[{inner}\]|\{{{inner}\}})"


# The value after a key's ": ": a scalar, or one flow collection (a tagged mapping perhaps).
_VALUE = re.compile(rf"{_PLAIN}|{_QUOTED}|(?:{_TAG} +)?{_flow(4)}|!Identity")
# The JSON of a YAML text's scalars, in three steps: its double-quoted scalars made single-
# quoted; every scalar, a plain one (which starts after "[", "{", "," or " " in the text of
# _brackets) or a single-quoted one (with its quotes), put in JSON's double quotes (the
# text split at the scalars, joined by '"'); each tag on a mapping made its first pair. Any
# other quote, backslash or tag is left, and JSON does not read it.
_DOUBLE = re.compile(r'"([^\'"\\\[\]{}\n]*+)"')
# (_SCALAR: a plain scalar after "[", "{", "," or " ", or a single-quoted one, written as one
# character of a plain scalar's first or a quote, then what may follow it: a pattern that
# starts with a character set lets the regex engine skip to where a scalar may start, ~12%
# less time than its lookbehind first)
_SCALAR = re.compile(
    r"([^\s?:,\[\]{}#&*!|>\"%@`\\](?:(?<=')[^'\"\\\[\]{}\n]*+'"
    rf"|(?<=[\[{{, ]-)(?=[^\s,?\[\]{{}}'\"\\]){_PLAIN_REST}|(?<=[\[{{, ][^\-']){_PLAIN_REST}))"
)
_MAPPING_TAG = re.compile(rf"({_TAG}) +\{{( *\}})?")
# A ":" between scalars that is not followed by a space: JSON reads it, YAML does not alike.
_JSON_COLON = re.compile(r":(?! )")


class _Outside(Exception):
    """The document is outside the subset."""


def _first_pair(match):
    tag, empty = match.groups()
    return f'{{"{tag}":0}}' if empty else f'{{"{tag}":0,'


def read(text):
    """(the document, the lines of the values at the third level, the number of pairs) of the
    YAML ``text``, or None if it is outside the subset."""
    # (outside the subset wherever they are: characters other than printable ASCII and line
    # feeds; str's tests in C, ~2x faster than a search for them)
    if not (text.isascii() and text.replace("\n", "").isprintable()):
        return None
    try:
        brackets, lines = _brackets(text)
        text = "".join(brackets)
        if '"' in text:
            text = _DOUBLE.sub(r"'\1'", text)
        parts = _SCALAR.split(text)  # (the text between scalars, a scalar, ...)
        between = "\0".join(parts[::2])
        if _JSON_COLON.search(between):
            return None
        pairs = between.count(":")  # (a pair's ":" each, once JSON reads the text)
        text = '"'.join(parts)
        if "!" in text:
            text, tags = _MAPPING_TAG.subn(_first_pair, text)
            pairs += tags
        return json.loads(text), lines, pairs
    except (_Outside, ValueError):  # (json.JSONDecodeError is a ValueError)
        return None


def _brackets(text):
    """The text with its block structure in JSON's brackets, in pieces; the lines of the values
    at the third level of nesting."""
    out = []
    append = out.append
    stack = []  # the open block collections: [column, is a sequence]
    pending = False  # whether the last key's value is on the lines below
    lines = []
    for number, line in enumerate(text.split("\n"), 1):
        match = _LINE.fullmatch(line)
        if match is None or len(line) > 1000:  # (libyaml's keys end within 1024 characters)
            raise _Outside
        indentation, entry, key, value, scalar = match.groups()
        if not (entry or key or scalar) or scalar and scalar[0] == "#" and not entry:
            continue  # (a blank or comment line)
        column = len(indentation)
        if pending:  # (the first line of the last key's value, deeper or an indentless entry)
            top = stack[-1][0]
            if not (column > top or column == top and entry):
                raise _Outside  # (an empty value)
            if len(stack) == 3 and not entry:  # (a value at the third level: its first line)
                lines.append(number)
            append("[" if entry else "{")
            stack.append((column, bool(entry)))
            pending = False
        elif not stack:  # (the root: a block mapping at column 0)
            if entry or not key or column:
                raise _Outside
            append("{")
            stack.append((0, False))
        else:
            top, sequence = stack[-1]
            while top > column or top == column and sequence and not entry:
                append("]" if sequence else "}")
                stack.pop()
                if not stack:
                    raise _Outside
                top, sequence = stack[-1]
            if top != column or sequence != bool(entry):
                raise _Outside
            append(",")
        if entry:
            if not key:  # (a scalar)
                if not scalar or _VALUE.fullmatch(scalar) is None or scalar[0] in "[{!":
                    raise _Outside
                append(scalar)
                continue
            append("{")  # (a compact mapping)
            stack.append((column + len(entry), False))
        elif not key:
            raise _Outside
        append(key + ": ")
        if not value:
            pending = True
            continue
        if _VALUE.fullmatch(value) is None:
            raise _Outside
        if len(stack) == 3:
            lines.append(number)
        append("!Identity {}" if value == "!Identity" else value)
    if pending:
        raise _Outside
    while stack:
        append("]" if stack.pop()[1] else "}")
    return out, lines
