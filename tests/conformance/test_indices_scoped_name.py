"""Index types (of multibody elements and of the systems framework), MultibodyConstraintId,
JacobianWrtVariable and ScopedName against pydrake.

Each case runs the same call on both libraries and compares the outcome: the value's repr (and
its int, validity and hash), or the exception's type and message with "pydrake" read as
"mallard". Where Python itself words the message (operators, wrong arity of an index
constructor), only the exception type is compared.
"""

import itertools
import operator
import types
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.multibody.tree as pydrake_tree  # noqa: E402
import pydrake.systems.framework as pydrake_framework  # noqa: E402

from mallard.multibody.tree import _indices, _scoped_name  # noqa: E402
from mallard.systems.framework import _indices as framework_indices  # noqa: E402


class _Names:
    """A library's names, looked up in its modules in turn."""

    def __init__(self, *modules):
        self._modules = modules

    def __getattr__(self, name):
        for module in self._modules:
            value = getattr(module, name, None)
            if value is not None:
                return value
        raise AttributeError(name)


mt = _Names(_indices, _scoped_name, framework_indices)
dt = _Names(pydrake_tree, pydrake_framework)
LIBS = (mt, dt)

INDEX_NAMES = [
    "BodyIndex",
    "FrameIndex",
    "JointIndex",
    "JointActuatorIndex",
    "ForceElementIndex",
    "ModelInstanceIndex",
    # The systems framework's, the same TypeSafeIndex in pydrake.
    "ContinuousStateIndex",
    "DiscreteStateIndex",
    "AbstractStateIndex",
    "NumericParameterIndex",
    "AbstractParameterIndex",
    "InputPortIndex",
    "OutputPortIndex",
    "SubsystemIndex",
    "CacheIndex",
]


class OnlyInt:
    def __int__(self):
        return 4

    def __repr__(self):
        return "OnlyInt()"


class OnlyFloat:
    def __float__(self):
        return 4.5

    def __repr__(self):
        return "OnlyFloat()"


class Index:
    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value

    def __repr__(self):
        return f"Index({self.value})"


class Raises:
    def __index__(self):
        raise ValueError("no")

    def __repr__(self):
        return "Raises()"


# Arguments for constructors and comparisons: plain values, or functions of the library for
# that library's own objects.
ARGUMENTS = [
    0,
    1,
    2,
    7,
    -1,
    -1234567,
    2**31 - 1,
    2**31,
    -(2**31),
    -(2**31) - 1,
    2**40,
    2**63,
    True,
    False,
    1.0,
    2.5,
    -0.0,
    float("nan"),
    np.int64(3),
    np.int32(-3),
    np.uint8(200),
    np.uint64(3),
    np.bool_(True),
    np.float64(2.0),
    np.float32(2.5),
    np.float16(3),
    np.array(3),
    np.array(3.0),
    np.array([3]),
    Decimal("2.5"),
    Decimal(-1),
    Fraction(7, 2),
    1j,
    OnlyInt(),
    OnlyFloat(),
    Index(5),
    Index(2**40),
    Raises(),
    "1",
    b"1",
    None,
    [1],
    (1,),
    lambda m: m.BodyIndex(2),
    lambda m: m.JointIndex(2),
    lambda m: m.ModelInstanceIndex(),
    lambda m: m.JacobianWrtVariable.kV,
]


def arg(a, lib):
    """The argument ``a`` as passed to ``lib``."""
    return a(lib) if isinstance(a, types.FunctionType) else a


def outcome(f, *args, messages=True, **kwargs):
    """("ok", value description) or (exception type, message) of ``f(*args, **kwargs)``."""
    try:
        r = f(*args, **kwargs)
    except Exception as e:
        return type(e).__name__, str(e).replace("pydrake", "mallard") if messages else None
    return "ok", describe(r)


def describe(r):
    if isinstance(r, bool | int | str | float | type(None)):
        return r
    if isinstance(r, mt.ScopedName | dt.ScopedName):
        return ("ScopedName", r.get_namespace(), r.get_element(), r.get_full(), repr(r), str(r))
    if isinstance(r, np.generic):
        return r.item()
    return repr(r)


def same(call, *args, messages=True, **kwargs):
    """Asserts ``call(lib)`` has the same outcome for mallard and pydrake; returns it."""
    mine = outcome(call, mt, *args, messages=messages, **kwargs)
    theirs = outcome(call, dt, *args, messages=messages, **kwargs)
    assert mine == theirs, (args, kwargs)
    return mine


# ----- indices ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", INDEX_NAMES)
def test_index_construction(name):
    same(lambda m: getattr(m, name)())
    for a in ARGUMENTS:
        for query in (repr, str, int, hash, lambda i: i.is_valid()):
            same(lambda m, a=a, q=query: q(getattr(m, name)(arg(a, m))))


@pytest.mark.parametrize("name", INDEX_NAMES)
def test_index_arity_errors(name):
    same(lambda m: getattr(m, name)(1, 2), messages=False)
    same(lambda m: getattr(m, name)(x=1), messages=False)
    same(lambda m: getattr(m, name)(arg0=1), messages=False)


def test_index_hash_over_many_values():
    rng = np.random.default_rng(7)
    values = [*range(-5, 300), *rng.integers(-(2**31), 2**31, size=300).tolist()]
    for name in INDEX_NAMES:
        for v in values:
            assert hash(getattr(mt, name)(v)) == hash(getattr(dt, name)(v)), (name, v)


def test_index_equality():
    for name, a, b in itertools.product(INDEX_NAMES, ARGUMENTS[:14], ARGUMENTS):
        same(lambda m, n=name, a=a, b=b: getattr(m, n)(arg(a, m)) == arg(b, m))
        same(lambda m, n=name, a=a, b=b: getattr(m, n)(arg(a, m)) != arg(b, m))
        same(lambda m, n=name, a=a, b=b: arg(b, m) == getattr(m, n)(arg(a, m)))
    for n1, n2 in itertools.product(INDEX_NAMES, repeat=2):
        for v1, v2 in itertools.product([0, 1, -1234567], repeat=2):

            def pair(m, n1=n1, n2=n2, v1=v1, v2=v2):
                return getattr(m, n1)(v1), getattr(m, n2)(v2)

            same(lambda m, pair=pair: operator.eq(*pair(m)))
            same(lambda m, pair=pair: len(set(pair(m))))


def test_index_ordering_and_arithmetic():
    ops = (operator.lt, operator.gt, operator.le, operator.ge, operator.add, operator.sub)
    for op, n1, n2 in itertools.product(ops, INDEX_NAMES[:3], INDEX_NAMES[:3]):
        for v1, v2 in [(1, 2), (2, 1), (1, 1), (-1234567, 0)]:

            def call(m, op=op, n1=n1, n2=n2, v1=v1, v2=v2):
                return op(getattr(m, n1)(v1), getattr(m, n2)(v2))

            same(call, messages=False)
    for op in ops + (operator.mul,):
        same(lambda m, op=op: op(m.BodyIndex(1), 2), messages=False)
        same(lambda m, op=op: op(2, m.BodyIndex(1)), messages=False)
        same(lambda m, op=op: op(m.BodyIndex(1), 2.0), messages=False)
    same(lambda m: -m.BodyIndex(1), messages=False)
    same(lambda m: sorted([m.JointIndex(3), m.JointIndex(1), m.JointIndex(2)]))


def test_index_as_an_integer():
    for name in INDEX_NAMES:
        same(lambda m, n=name: [10, 11, 12][getattr(m, n)(2)])
        same(lambda m, n=name: np.arange(5)[getattr(m, n)(3)])
        same(lambda m, n=name: float(getattr(m, n)(3)))
        same(lambda m, n=name: operator.index(getattr(m, n)(3)))
        same(lambda m, n=name: bool(getattr(m, n)()))
        same(lambda m, n=name: isinstance(getattr(m, n)(3), int))
        same(lambda m, n=name: f"{getattr(m, n)(3)}")
        same(lambda m, n=name: format(getattr(m, n)(3), "d"), messages=False)
        same(lambda m, n=name: {3: "x"}[getattr(m, n)(3)], messages=False)
        same(lambda m, n=name: {getattr(m, n)(3): "x"}[3], messages=False)


def test_world_and_default_indices():
    for f in ("world_index", "world_frame_index", "world_model_instance", "default_model_instance"):
        same(lambda m, f=f: getattr(m, f)())
        same(lambda m, f=f: getattr(m, f)().is_valid())
        same(lambda m, f=f: hash(getattr(m, f)()))
        same(lambda m, f=f: getattr(m, f)(1), messages=False)


# ----- MultibodyConstraintId --------------------------------------------------------------------


def test_constraint_id():
    same(lambda m: m.MultibodyConstraintId())
    same(lambda m: m.MultibodyConstraintId(1))
    for m in LIBS:
        a, b = m.MultibodyConstraintId.get_new_id(), m.MultibodyConstraintId.get_new_id()
        assert repr(a) == f"<MultibodyConstraintId value={a.get_value()}>"
        assert a.is_valid() and a == a and a != b and (a < b) != (b < a)
        assert a != a.get_value()
    same(
        lambda m: m.MultibodyConstraintId.get_new_id() <= m.MultibodyConstraintId.get_new_id(),
        messages=False,
    )
    same(lambda m: m.MultibodyConstraintId.get_new_id() < 1, messages=False)
    same(lambda m: int(m.MultibodyConstraintId.get_new_id()), messages=False)
    for _ in range(20):
        theirs = dt.MultibodyConstraintId.get_new_id()
        mine = mt.MultibodyConstraintId.get_new_id()
        mine._value = theirs.get_value()
        assert hash(mine) == hash(theirs)


# ----- JacobianWrtVariable ----------------------------------------------------------------------


def test_jacobian_wrt_variable():
    for member in ("kQDot", "kV"):
        for query in (repr, str, int, hash, operator.index, lambda x: x.name, lambda x: x.value):
            same(lambda m, q=query, k=member: q(getattr(m.JacobianWrtVariable, k)))
    same(lambda m: {k: repr(v) for k, v in m.JacobianWrtVariable.__members__.items()})
    for a in ARGUMENTS:
        same(lambda m, a=a: m.JacobianWrtVariable(arg(a, m)))
        same(lambda m, a=a: hash(m.JacobianWrtVariable(arg(a, m))))
        same(lambda m, a=a: m.JacobianWrtVariable(arg(a, m)).name)
        same(lambda m, a=a: m.JacobianWrtVariable.kV == arg(a, m))
        same(lambda m, a=a: m.JacobianWrtVariable.kV != arg(a, m))
        same(lambda m, a=a: arg(a, m) == m.JacobianWrtVariable.kV)
    same(lambda m: m.JacobianWrtVariable())
    same(lambda m: m.JacobianWrtVariable(value=1))
    same(lambda m: m.JacobianWrtVariable(x=1))
    same(lambda m: m.JacobianWrtVariable(1, 2))
    same(lambda m: m.JacobianWrtVariable(1) == m.JacobianWrtVariable.kV)
    same(lambda m: m.JacobianWrtVariable(5) == m.JacobianWrtVariable(5))
    for op in (operator.lt, operator.le, operator.gt, operator.ge):
        same(
            lambda m, op=op: op(m.JacobianWrtVariable.kQDot, m.JacobianWrtVariable.kV),
            messages=False,
        )


# ----- ScopedName -------------------------------------------------------------------------------


def strings(alphabet, max_length):
    return [
        "".join(p) for n in range(max_length + 1) for p in itertools.product(alphabet, repeat=n)
    ]


SPECIAL = ["robot1", "a::b::c", "it's", 'say "hi"', "é::ü", " ", "a\nb", "x:y", "::::a::::"]


def test_scoped_name_parse():
    for text in strings("a:", 8) + strings("ab:", 5) + SPECIAL:
        same(lambda m, t=text: m.ScopedName.Parse(t))
    same(lambda m: m.ScopedName.Parse(scoped_name="x::y"))
    for bad in [1, None, b"a::b", bytearray(b"a::b"), memoryview(b"a"), ["a"]]:
        same(lambda m, b=bad: m.ScopedName.Parse(b))
    same(lambda m: m.ScopedName.Parse())
    same(lambda m: m.ScopedName.Parse("a", "b"))
    same(lambda m: m.ScopedName.Parse("a", x=1))


def test_scoped_name_join():
    names = strings("a:", 4) + SPECIAL
    for n1, n2 in itertools.product(names, repeat=2):
        same(lambda m, n1=n1, n2=n2: m.ScopedName.Join(n1, n2))
    same(lambda m: m.ScopedName.Join(name1="a", name2="b"))
    same(lambda m: m.ScopedName.Join("a", name2="b"))
    same(lambda m: m.ScopedName.Join(1, "b"))
    same(lambda m: m.ScopedName.Join("a"))
    same(lambda m: m.ScopedName.Join(name1="a"))


def test_scoped_name_constructor_and_make():
    same(lambda m: m.ScopedName())
    names = strings("a:", 4) + SPECIAL
    for ns, el in itertools.product(names, repeat=2):
        same(lambda m, ns=ns, el=el: m.ScopedName(ns, el))
        same(lambda m, ns=ns, el=el: m.ScopedName.Make(ns, el))
    for args, kwargs in [
        (("a",), {}),
        ((1, "b"), {}),
        (("a", None), {}),
        (("a", "b", "c"), {}),
        ((b"a", bytearray(b"b")), {}),
        ((np.str_("a"), "b"), {}),
        ((), {"namespace_name": "a"}),
        ((), {"namespace_name": "a", "element_name": "b"}),
        (("a",), {"element_name": "b"}),
        (("a",), {"namespace_name": "b"}),
        (("a",), {"element": "b"}),
    ]:
        same(lambda m, a=args, k=kwargs: m.ScopedName(*a, **k))
        same(lambda m, a=args, k=kwargs: m.ScopedName.Make(*a, **k))


def test_scoped_name_setters():
    values = strings("a:", 3) + SPECIAL + [1, None, b"x"]
    starts = [(), ("a", "b"), ("", "b"), ("a::b", "c")]
    for start, v, setter in itertools.product(starts, values, ("set_element", "set_namespace")):

        def call(m, start=start, v=v, setter=setter):
            n = m.ScopedName(*start)
            try:
                result = getattr(n, setter)(v)
            finally:
                after = describe(n)
            return result, after

        same(call)
    for setter in ("set_element", "set_namespace"):
        same(lambda m, s=setter: getattr(m.ScopedName("a", "b"), s)())
        same(lambda m, s=setter: getattr(m.ScopedName("a", "b"), s)(x="c"))
    same(lambda m: describe(m.ScopedName("a", "b").set_element(element_name="c")))
    same(lambda m: describe(m.ScopedName("a", "b").set_namespace(namespace_name="c")))


def test_scoped_name_semantics():
    same(lambda m: m.ScopedName("a", "b") == m.ScopedName("a", "b"))
    same(lambda m: m.ScopedName("a", "b") != m.ScopedName("a", "b"))
    same(lambda m: (lambda n: n == n and hash(n) == hash(n))(m.ScopedName("a", "b")))
    same(lambda m: m.ScopedName("a", "b") == "a::b")
    same(lambda m: m.ScopedName("a", "b") < m.ScopedName("a", "c"), messages=False)
    same(lambda m: m.ScopedName("a", "b").__copy__())
    same(lambda m: m.ScopedName("a", "b").__deepcopy__({}))
    same(lambda m: m.ScopedName("a", "b").Parse("x::y"))
    for getter in ("get_full", "get_namespace", "get_element", "to_string"):
        same(lambda m, g=getter: type(getattr(m.ScopedName("a::b", "c"), g)()).__name__)
        same(lambda m, g=getter: getattr(m.ScopedName("a", "b"), g)(1), messages=False)
