"""Index types, MultibodyConstraintId, the world/default indices and JacobianWrtVariable."""

import copy
import operator
import pickle
import sys
import threading
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from mallard.multibody.tree._indices import (
    BodyIndex,
    ForceElementIndex,
    FrameIndex,
    JacobianWrtVariable,
    JointActuatorIndex,
    JointIndex,
    ModelInstanceIndex,
    MultibodyConstraintId,
    default_model_instance,
    shared_index,
    shared_indices,
    world_frame_index,
    world_index,
    world_model_instance,
)

INDEX_TYPES = [
    BodyIndex,
    FrameIndex,
    JointIndex,
    JointActuatorIndex,
    ForceElementIndex,
    ModelInstanceIndex,
]
INVALID = -1234567


class OnlyInt:
    def __int__(self):
        return 4


class OnlyFloat:
    def __float__(self):
        return 4.0


class BigIndex:
    def __index__(self):
        return 2**40


@pytest.fixture(params=INDEX_TYPES, ids=lambda c: c.__name__)
def Index(request):
    return request.param


# ----- construction -----------------------------------------------------------------------------


def test_default_is_invalid(Index):
    i = Index()
    assert not i.is_valid()
    assert int(i) == INVALID
    assert repr(i) == f"{Index.__name__}({INVALID})"


@pytest.mark.parametrize("value", [0, 1, 7, 2**31 - 1])
def test_valid_values(Index, value):
    i = Index(value)
    assert i.is_valid()
    assert int(i) == value


@pytest.mark.parametrize("value", [-1, -(2**31), INVALID])
def test_negative_values_are_invalid_but_accepted(Index, value):
    i = Index(value)
    assert not i.is_valid()
    assert int(i) == value


@pytest.mark.parametrize(
    "value, expected",
    [
        (np.int64(3), 3),
        (np.int32(3), 3),
        (np.uint64(3), 3),
        (np.array(3), 3),
        (True, 1),
        (np.bool_(False), 0),
        (JointIndex(5), 5),
        (JacobianWrtVariable.kV, 1),
        # pybind11's converting pass truncates other numbers (never a Python float).
        (Decimal("2.5"), 2),
        (Fraction(3, 2), 1),
        (np.float32(2.5), 2),
        (OnlyInt(), 4),
    ],
)
def test_constructor_converts_as_pybind11(Index, value, expected):
    assert int(Index(value)) == expected


@pytest.mark.parametrize(
    "value",
    [1.0, 1.5, np.float64(2.0), "1", b"1", None, 2**31, -(2**31) - 1, 2**63, 1j, [1]]
    + [np.array([3]), OnlyFloat(), BigIndex(), object()],
)
def test_constructor_rejects(Index, value):
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        Index(value)


def test_constructor_error_message():
    with pytest.raises(TypeError) as info:
        BodyIndex(1.5)
    assert str(info.value) == (
        "__init__(): incompatible constructor arguments. The following argument types are "
        "supported:\n"
        "    1. mallard.multibody.tree.BodyIndex()\n"
        "    2. mallard.multibody.tree.BodyIndex(arg0: int)\n\n"
        "Invoked with: 1.5"
    )


@pytest.mark.parametrize("args, kwargs", [((1, 2), {}), ((), {"x": 1}), ((), {"arg0": 1})])
def test_constructor_arity(Index, args, kwargs):
    with pytest.raises(TypeError):
        Index(*args, **kwargs)


# ----- conversion and printing ------------------------------------------------------------------


def test_int_conversions(Index):
    i = Index(2)
    assert int(i) == operator.index(i) == 2
    assert type(int(i)) is int
    assert float(i) == 2.0
    assert [10, 11, 12][i] == 12
    assert np.arange(5)[i] == 2
    assert range(10)[Index(2) : Index(4)] == range(2, 4)
    assert operator.mod("%d", i) == "2"
    assert hex(i) == "0x2"
    with pytest.raises(IndexError):
        np.zeros(3)[Index()]


def test_is_not_an_int(Index):
    i = Index(2)
    assert not isinstance(i, int)
    for op in (operator.add, operator.sub, operator.mul, operator.floordiv):
        with pytest.raises(TypeError):
            op(i, 1)
        with pytest.raises(TypeError):
            op(1, i)
        with pytest.raises(TypeError):
            op(i, i)
    with pytest.raises(TypeError):
        operator.neg(i)
    with pytest.raises(TypeError):
        format(i, "d")


def test_repr_and_str(Index):
    name = Index.__name__
    assert repr(Index(3)) == str(Index(3)) == f"{Index(3)}" == f"{name}(3)"
    assert Index.__module__ == "mallard.multibody.tree"


def test_always_truthy(Index):
    assert bool(Index(0)) and bool(Index()) and bool(Index(3))


# ----- comparison and hashing -------------------------------------------------------------------


def test_equality_with_integers_and_every_index_type(Index):
    i = Index(1)
    assert i == Index(1) and not i != Index(1)
    assert i != Index(2) and not i == Index(2)
    assert i == 1 and 1 == i and i != 2
    assert i == np.int64(1) and np.int64(1) == i
    assert i == True  # noqa: E712 (bool is an int to pybind11)
    assert Index() == INVALID
    for Other in INDEX_TYPES:
        assert i == Other(1) and i != Other(2)


@pytest.mark.parametrize("other", [1.0, np.float64(1.0), "1", None, 2**40, [1], object()])
def test_not_equal_to_non_integers(Index, other):
    i = Index(1)
    assert not i == other
    assert i != other


def test_eq_returns_not_implemented_for_non_integers():
    assert BodyIndex(1).__eq__(1.0) is NotImplemented
    assert BodyIndex(1).__eq__("1") is NotImplemented
    assert BodyIndex(1).__eq__(JointIndex(1)) is True


def test_ordering_only_within_a_type(Index):
    assert Index(1) < Index(2) and not Index(2) < Index(1)
    assert Index(2) > Index(1) and not Index(1) > Index(2)
    assert Index() < Index(0)
    assert sorted([Index(3), Index(1), Index(2)]) == [Index(1), Index(2), Index(3)]
    for op in (operator.le, operator.ge):
        with pytest.raises(TypeError):
            op(Index(1), Index(2))
    for op in (operator.lt, operator.gt):
        with pytest.raises(TypeError):
            op(Index(1), 2)
        with pytest.raises(TypeError):
            op(2, Index(1))
    Other = JointIndex if Index is not JointIndex else BodyIndex
    with pytest.raises(TypeError):
        operator.lt(Index(1), Other(2))


def test_hash_is_drakes_default_hash(Index):
    # FNV-1a (64 bits) of the int32 value's bytes, folded into a hash as Python folds an int.
    assert hash(Index(0)) == 5558979605539197941
    assert hash(Index(1)) == 948793285165995881
    assert hash(Index(5)) == 3260635086596433184
    assert hash(Index()) == 1124796318970442803
    assert hash(Index(2**31 - 1)) == 1823665813826658261


def test_hash_agrees_with_equality(Index):
    assert hash(Index(4)) == hash(Index(4)) == hash(BodyIndex(4)) == hash(JointIndex(4))
    assert len({Index(1), BodyIndex(1), JointIndex(1), FrameIndex(1)}) == 1
    d = {Index(3): "x"}
    assert d[Index(3)] == "x"
    assert d[BodyIndex(3) if Index is not BodyIndex else JointIndex(3)] == "x"
    # Equal to 3, but with a different hash: an int key does not find an index, nor vice versa.
    assert hash(Index(3)) != hash(3)
    with pytest.raises(KeyError):
        d[3]
    with pytest.raises(KeyError):
        {3: "x"}[Index(3)]


# ----- mallard extras: light, immutable, copyable -----------------------------------------------


def test_light_and_shared():
    bases = {Index.__mro__[1] for Index in INDEX_TYPES}
    assert len(bases) == 1
    for Index in INDEX_TYPES:
        i = Index(1)
        assert not hasattr(i, "__dict__")
        with pytest.raises(AttributeError):
            i.extra = 1


@pytest.fixture
def exported(monkeypatch):
    """Makes ``cls`` importable from mallard.multibody.tree (as pickle needs) until it is."""
    import mallard.multibody.tree as tree

    def export(cls):
        monkeypatch.setattr(tree, cls.__name__, cls, raising=False)

    return export


def test_copy_and_pickle(Index, exported):
    exported(Index)
    for i in (Index(3), Index()):
        for j in (copy.copy(i), copy.deepcopy(i), pickle.loads(pickle.dumps(i))):
            assert type(j) is Index and j == i and repr(j) == repr(i)


# ----- module functions -------------------------------------------------------------------------


def test_world_and_default_indices():
    assert type(world_index()) is BodyIndex and world_index() == 0
    assert type(world_frame_index()) is FrameIndex and world_frame_index() == 0
    assert type(world_model_instance()) is ModelInstanceIndex and world_model_instance() == 0
    assert type(default_model_instance()) is ModelInstanceIndex and default_model_instance() == 1
    assert repr(default_model_instance()) == "ModelInstanceIndex(1)"
    for i in (world_index(), world_frame_index(), world_model_instance(), default_model_instance()):
        assert i.is_valid()


def test_shared_indices(Index):
    shared = shared_indices(Index, 5)
    assert len(shared) >= 5
    assert [type(i) for i in shared[:5]] == [Index] * 5 and shared[:5] == [0, 1, 2, 3, 4]
    assert shared_indices(Index, 3)[2] is shared[2] is shared_index(Index, 2)
    assert shared_index(Index, 40) == 40
    assert shared_indices(Index, 41)[40] is shared_index(Index, 40)


def test_shared_indices_grown_from_several_threads():
    class GrownIndex(BodyIndex):
        __slots__ = ()

    def grow():
        for stop in range(1, 3000, 7):
            assert shared_indices(GrownIndex, stop)[stop - 1] == stop - 1

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # (threads switch often: without the lock, ~1 run in 10 fails)
    try:
        threads = [threading.Thread(target=grow) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    shared = shared_indices(GrownIndex, 3000)
    assert [int(i) for i in shared] == list(range(len(shared)))


def test_plant_elements_have_shared_indices():
    from mallard.multibody.plant import MultibodyPlant
    from mallard.multibody.tree import SpatialInertia

    plants = [MultibodyPlant(0.0) for _ in range(2)]
    M = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)
    bodies = [p.AddRigidBody("b", M) for p in plants]
    assert bodies[0].index() is bodies[1].index() is shared_index(BodyIndex, 1)
    assert bodies[0].body_frame().index() is shared_index(FrameIndex, 1)


# ----- MultibodyConstraintId --------------------------------------------------------------------


@pytest.mark.parametrize("args, kwargs", [((), {}), ((1,), {}), ((), {"value": 1})])
def test_constraint_id_has_no_constructor(args, kwargs):
    with pytest.raises(TypeError) as info:
        MultibodyConstraintId(*args, **kwargs)
    assert (
        str(info.value) == "mallard.multibody.tree.MultibodyConstraintId: No constructor defined!"
    )


def test_constraint_id():
    a, b = MultibodyConstraintId.get_new_id(), MultibodyConstraintId.get_new_id()
    assert type(a) is MultibodyConstraintId
    assert a.is_valid() and b.is_valid()
    assert type(a.get_value()) is int and a.get_value() != b.get_value()
    assert repr(a) == str(a) == f"<MultibodyConstraintId value={a.get_value()}>"
    assert a == a and a != b and not a == b
    assert (a < b) != (b < a) and (a > b) == (b < a)
    with pytest.raises(TypeError):
        operator.le(a, b)
    # Ids are not integers.
    assert a != a.get_value() and not a == a.get_value()
    with pytest.raises(TypeError):
        int(a)
    with pytest.raises(TypeError):
        [0, 1, 2][a]
    with pytest.raises(TypeError):
        operator.lt(a, 1)
    assert {a: 1}[copy.copy(a)] == 1
    assert MultibodyConstraintId.get_new_id.__doc__


def test_constraint_id_hash_is_drakes_default_hash():
    a = MultibodyConstraintId.get_new_id()
    a._value = 2  # FNV-1a of the int64 value's bytes.
    assert hash(a) == 485691962481495566


def test_constraint_ids_are_unique_across_threads():
    ids = []

    def make():
        ids.extend(MultibodyConstraintId.get_new_id().get_value() for _ in range(2000))

    threads = [threading.Thread(target=make) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(ids)) == len(ids) == 8000


# ----- JacobianWrtVariable ----------------------------------------------------------------------

J = JacobianWrtVariable


def test_jacobian_wrt_variable_members():
    assert repr(J.kQDot) == "<JacobianWrtVariable.kQDot: 0>"
    assert repr(J.kV) == "<JacobianWrtVariable.kV: 1>"
    assert str(J.kV) == f"{J.kV}" == "JacobianWrtVariable.kV"
    assert (J.kQDot.name, J.kQDot.value, J.kV.name, J.kV.value) == ("kQDot", 0, "kV", 1)
    assert int(J.kQDot) == 0 and operator.index(J.kV) == 1 and [5, 6][J.kV] == 6
    assert J.__members__ == {"kQDot": J.kQDot, "kV": J.kV}
    assert type(J.kV) is J and J.__module__ == "mallard.multibody.tree"
    assert J.kV.kQDot is J.kQDot


def test_jacobian_wrt_variable_constructor():
    assert J(0) is J.kQDot and J(1) is J.kV
    assert J(value=1) is J.kV
    assert J(np.int64(1)) is J.kV and J(True) is J.kV and J(J.kV) is J.kV
    assert J(BodyIndex(0)) is J.kQDot
    unnamed = J(5)
    assert repr(unnamed) == "<JacobianWrtVariable.???: 5>"
    assert str(unnamed) == "JacobianWrtVariable.???"
    assert (unnamed.name, unnamed.value) == ("???", 5)
    assert unnamed == J(5) and unnamed != J.kV
    assert J(-(2**31)).value == -(2**31)


@pytest.mark.parametrize(
    "args, kwargs, invoked",
    [
        ((1.0,), {}, "1.0"),
        (("kV",), {}, "'kV'"),
        ((None,), {}, "None"),
        ((2**31,), {}, "2147483648"),
        ((), {}, ""),
        ((0, 1), {}, "0, 1"),
        ((), {"x": 1}, "kwargs: x=1"),
    ],
)
def test_jacobian_wrt_variable_constructor_errors(args, kwargs, invoked):
    with pytest.raises(TypeError) as info:
        J(*args, **kwargs)
    assert str(info.value) == (
        "__init__(): incompatible constructor arguments. The following argument types are "
        "supported:\n"
        "    1. mallard.multibody.tree.JacobianWrtVariable(value: int)\n\n"
        f"Invoked with: {invoked}"
    )


def test_jacobian_wrt_variable_comparison_and_hash():
    assert J.kV == J.kV and J.kV != J.kQDot and J(1) == J.kV
    # Members equal only members.
    assert J.kV != 1 and not J.kV == 1 and J.kV.__eq__(1) is False
    assert J.kV != np.int64(1) and J.kV != BodyIndex(1)
    assert hash(J.kQDot) == 0 and hash(J.kV) == 1 and hash(J(-1)) == -2
    assert {J.kV: "v"}[J(1)] == "v"
    for op in (operator.lt, operator.le, operator.gt, operator.ge):
        with pytest.raises(TypeError):
            op(J.kQDot, J.kV)
    assert bool(J.kQDot)


def test_jacobian_wrt_variable_copy_and_pickle(exported):
    exported(J)
    for m in (J.kQDot, J.kV):
        assert copy.copy(m) is m and copy.deepcopy(m) is m and pickle.loads(pickle.dumps(m)) == m
    assert pickle.loads(pickle.dumps(J(7))) == J(7)
