"""ScopedName: construction rules, Make, Join, Parse, setters, identity semantics and errors."""

import copy
import itertools
import operator

import numpy as np
import pytest

from mallard.multibody.tree._scoped_name import ScopedName

Q = "mallard.multibody.tree.ScopedName"


def parts(name):
    return name.get_namespace(), name.get_element()


def misplaced(namespace, element):
    return f"Cannot create a ScopedName('{namespace}', '{element}') with mis-placed delimiters"


def type_error(function, signatures, invoked, constructor=False):
    kind = "constructor" if constructor else "function"
    listing = "\n".join(f"    {i}. {s}" for i, s in enumerate(signatures, 1))
    return (
        f"{function}(): incompatible {kind} arguments. The following argument types are "
        f"supported:\n{listing}\n\nInvoked with: {invoked}"
    )


CTOR_SIGNATURES = (f"{Q}()", f"{Q}(namespace_name: str, element_name: str)")

VALID = [
    # (namespace, element, full)
    ("robot1", "torso", "robot1::torso"),
    ("", "box", "box"),
    ("robot1::left::arm", "end_frame", "robot1::left::arm::end_frame"),
    ("a:", "b", "a:::b"),
    (":a", "b", ":a::b"),
    ("a", ":b", "a:::b"),
    ("a", "b:", "a::b:"),
    ("a", ":", "a:::"),
    (":", ":", "::::"),
    ("a:::b", "c", "a:::b::c"),
    ("a::::b", "c", "a::::b::c"),
    ("it's", 'b"c', "it's::b\"c"),
    ("é", "ü", "é::ü"),
    ("a b", " ", "a b:: "),
]

INVALID = [
    ("::a", "b"),
    ("a::", "b"),
    ("::", "b"),
    ("::a::", "b"),
    ("a:::", "b"),
    (":::a", "b"),
    ("a", ""),
    ("", ""),
    ("a", "b::c"),
    ("a", "::"),
    ("a", "::b"),
    ("a", "b::"),
    ("a", "b:::c"),
    ("", "::"),
]


# ----- construction -----------------------------------------------------------------------------


def test_default_is_empty():
    n = ScopedName()
    assert n.get_full() == n.get_namespace() == n.get_element() == n.to_string() == str(n) == ""
    assert repr(n) == "ScopedName('', '')"


@pytest.mark.parametrize("namespace, element, full", VALID)
def test_constructor(namespace, element, full):
    n = ScopedName(namespace, element)
    assert parts(n) == (namespace, element)
    assert n.get_full() == n.to_string() == str(n) == full
    assert repr(n) == f"ScopedName({namespace!r}, {element!r})"
    k = ScopedName(namespace_name=namespace, element_name=element)
    assert parts(k) == parts(ScopedName(namespace, element_name=element)) == parts(n)


@pytest.mark.parametrize("namespace, element", INVALID)
def test_constructor_rejects_misplaced_delimiters(namespace, element):
    with pytest.raises(RuntimeError) as info:
        ScopedName(namespace, element)
    assert str(info.value) == misplaced(namespace, element)


@pytest.mark.parametrize(
    "args, kwargs, invoked",
    [
        (("a",), {}, "'a'"),
        ((1, "b"), {}, "1, 'b'"),
        (("a", None), {}, "'a', None"),
        (("a", "b", "c"), {}, "'a', 'b', 'c'"),
        ((), {"namespace_name": "a"}, "kwargs: namespace_name='a'"),
        (("a",), {"namespace_name": "b"}, "'a'; kwargs: namespace_name='b'"),
        (("a",), {"element": "b"}, "'a'; kwargs: element='b'"),
        ((memoryview(b"a"), "b"), {}, None),
    ],
)
def test_constructor_type_errors(args, kwargs, invoked):
    with pytest.raises(TypeError) as info:
        ScopedName(*args, **kwargs)
    if invoked is not None:
        assert str(info.value) == type_error("__init__", CTOR_SIGNATURES, invoked, True)


def test_string_like_arguments():
    class MyStr(str):
        def __str__(self):
            return "other"

    n = ScopedName(MyStr("a"), np.str_("b"))
    assert parts(n) == ("a", "b") and type(n.get_namespace()) is str
    assert parts(ScopedName(b"a", bytearray(b"b"))) == ("a", "b")
    assert parts(ScopedName("é".encode(), b"x")) == ("é", "x")


# ----- Make -------------------------------------------------------------------------------------


@pytest.mark.parametrize("namespace, element, full", VALID)
def test_make(namespace, element, full):
    n = ScopedName.Make(namespace, element)
    assert type(n) is ScopedName and parts(n) == (namespace, element) and n.get_full() == full
    assert parts(ScopedName.Make(namespace_name=namespace, element_name=element)) == parts(n)


@pytest.mark.parametrize("namespace, element", INVALID)
def test_make_returns_none(namespace, element):
    assert ScopedName.Make(namespace, element) is None


def test_make_type_errors():
    signature = (f"(namespace_name: str, element_name: str) -> Optional[{Q}]",)
    for args, kwargs, invoked in [
        ((1, 2), {}, "1, 2"),
        (("a",), {}, "'a'"),
        ((1,), {"element_name": 2}, "1; kwargs: element_name=2"),
    ]:
        with pytest.raises(TypeError) as info:
            ScopedName.Make(*args, **kwargs)
        assert str(info.value) == type_error("Make", signature, invoked)


# ----- Parse and Join ---------------------------------------------------------------------------

PARSE = [
    ("a::b", ("a", "b")),
    ("a::b::c", ("a::b", "c")),
    ("b", ("", "b")),
    ("", ("", "")),
    ("::", ("", "")),
    ("::::", ("", "")),
    ("::a::b::", ("a", "b")),
    ("::::a::::", ("", "a")),
    (":::a", ("", ":a")),
    (":::::a", ("", ":a")),
    ("a:::", ("", "a:")),
    ("a:::b", ("a:", "b")),
    ("a::::b", ("a", "b")),
    # "::::" collapses to "::" from the right: "a" ":" "::::" "b" -> "a:::b".
    ("a:::::b", ("a:", "b")),
    ("a::::::b", ("a", "b")),
    ("a::::b::::c", ("a::b", "c")),
    (":a", ("", ":a")),
    ("a:", ("", "a:")),
    (":", ("", ":")),
    (":::", ("", ":")),
    ("x:y::z", ("x:y", "z")),
]


@pytest.mark.parametrize("text, expected", PARSE)
def test_parse(text, expected):
    n = ScopedName.Parse(text)
    assert type(n) is ScopedName and parts(n) == expected
    assert parts(ScopedName.Parse(scoped_name=text)) == expected


JOIN = [
    (("a", "b"), ("a", "b")),
    (("::a::", "::b::"), ("a", "b")),
    (("a::b", "c::d"), ("a::b::c", "d")),
    (("", "b"), ("", "b")),
    (("a", ""), ("", "a")),
    (("", ""), ("", "")),
    (("::", "::"), ("", "")),
    (("::::a", "b::::"), ("a", "b")),
    (("a", "b::"), ("a", "b")),
    (("a:", "b"), ("a:", "b")),
    # Joined first, then parsed: "a" "::" ":b" is "a:::b".
    (("a", ":b"), ("a:", "b")),
    (("a", ":::b"), ("a:", "b")),
    ((":::a", ":::b"), (":a:", "b")),
    (("a::::b", "c"), ("a::b", "c")),
    (("a", "b::::c"), ("a::b", "c")),
]


@pytest.mark.parametrize("names, expected", JOIN)
def test_join(names, expected):
    n = ScopedName.Join(*names)
    assert type(n) is ScopedName and parts(n) == expected
    assert parts(ScopedName.Join(name1=names[0], name2=names[1])) == expected


def test_parse_and_join_type_errors():
    parse = (f"(scoped_name: str) -> {Q}",)
    join = (f"(name1: str, name2: str) -> {Q}",)
    for call, function, signature, args, kwargs, invoked in [
        (ScopedName.Parse, "Parse", parse, (1,), {}, "1"),
        (ScopedName.Parse, "Parse", parse, (), {}, ""),
        (ScopedName.Parse, "Parse", parse, ("a",), {"x": 1}, "'a'; kwargs: x=1"),
        (ScopedName.Join, "Join", join, (1, "b"), {}, "1, 'b'"),
        (ScopedName.Join, "Join", join, ("a",), {}, "'a'"),
    ]:
        with pytest.raises(TypeError) as info:
            call(*args, **kwargs)
        assert str(info.value) == type_error(function, signature, invoked)


def test_static_methods_from_an_instance():
    n = ScopedName("a", "b")
    assert parts(n.Parse("x::y")) == ("x", "y")
    assert parts(n.Join("x", "y")) == ("x", "y")
    assert n.Make("x", "") is None


def test_parse_always_gives_a_valid_name_that_round_trips():
    for chars in itertools.product("a:", repeat=7):
        text = "".join(chars)
        n = ScopedName.Parse(text)
        namespace, element = parts(n)
        if element:
            assert parts(ScopedName(namespace, element)) == (namespace, element)
            assert parts(ScopedName.Parse(n.get_full())) == (namespace, element)
        else:
            assert namespace == "" and n.get_full() == ""


# ----- setters ----------------------------------------------------------------------------------


def test_set_element():
    n = ScopedName("a", "b")
    assert n.set_element("c") is None
    assert parts(n) == ("a", "c") and n.get_full() == "a::c"
    n.set_element(element_name="d:")
    assert parts(n) == ("a", "d:")
    m = ScopedName()
    m.set_element("x")
    assert parts(m) == ("", "x") and m.get_full() == "x"
    ScopedName.set_element(m, "y")
    assert m.get_full() == "y"


@pytest.mark.parametrize("element", ["", "x::y", "::", "x::"])
def test_set_element_errors_leave_name_unchanged(element):
    n = ScopedName("a", "b")
    with pytest.raises(RuntimeError) as info:
        n.set_element(element)
    assert str(info.value) == misplaced("a", element)
    assert parts(n) == ("a", "b") and n.get_full() == "a::b"


def test_set_namespace():
    n = ScopedName("a", "b")
    assert n.set_namespace("m::n") is None
    assert parts(n) == ("m::n", "b") and n.get_full() == "m::n::b"
    n.set_namespace(namespace_name="")
    assert parts(n) == ("", "b") and n.get_full() == "b"


@pytest.mark.parametrize("namespace", ["::z", "z::", "::"])
def test_set_namespace_errors_leave_name_unchanged(namespace):
    n = ScopedName("a", "b")
    with pytest.raises(RuntimeError) as info:
        n.set_namespace(namespace)
    assert str(info.value) == misplaced(namespace, "b")
    assert parts(n) == ("a", "b") and n.get_full() == "a::b"


@pytest.mark.parametrize("namespace", ["a", ""])
def test_set_namespace_of_an_empty_name_raises(namespace):
    # The element is empty, so no namespace makes a valid name.
    with pytest.raises(RuntimeError) as info:
        ScopedName().set_namespace(namespace)
    assert str(info.value) == misplaced(namespace, "")


def test_setter_type_errors():
    n = ScopedName("a", "b")
    for setter, parameter, args, kwargs, invoked in [
        ("set_element", "element_name", (1,), {}, "ScopedName('a', 'b'), 1"),
        ("set_element", "element_name", (), {}, "ScopedName('a', 'b')"),
        ("set_namespace", "namespace_name", (None,), {}, "ScopedName('a', 'b'), None"),
        ("set_namespace", "namespace_name", (), {"x": "c"}, "ScopedName('a', 'b'); kwargs: x='c'"),
    ]:
        with pytest.raises(TypeError) as info:
            getattr(n, setter)(*args, **kwargs)
        signature = (f"(self: {Q}, {parameter}: str) -> None",)
        assert str(info.value) == type_error(setter, signature, invoked)
    assert parts(n) == ("a", "b")


def test_getters_take_no_arguments():
    n = ScopedName("a", "b")
    for getter in ("get_full", "get_namespace", "get_element", "to_string"):
        with pytest.raises(TypeError):
            getattr(n, getter)(1)


# ----- identity semantics, copies ---------------------------------------------------------------


def test_compares_and_hashes_by_identity():
    a, b = ScopedName("a", "b"), ScopedName.Parse("a::b")
    assert a == a and not a == b and a != b
    assert a != "a::b"
    assert len({a, b}) == 2
    with pytest.raises(TypeError):
        operator.lt(a, b)


def test_copies_are_independent():
    a = ScopedName("a", "b")
    for c in (copy.copy(a), copy.deepcopy(a), a.__copy__(), a.__deepcopy__({})):
        assert type(c) is ScopedName and c is not a and parts(c) == ("a", "b")
        c.set_element("z")
        assert parts(a) == ("a", "b")


def test_light():
    n = ScopedName("a", "b")
    assert not hasattr(n, "__dict__")
    assert ScopedName.__module__ == "mallard.multibody.tree"
