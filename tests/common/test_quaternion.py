import copy
import pickle

import numpy as np
import pytest

from mallard.common.eigen_geometry import Quaternion

S = np.sqrt(0.5)


def rx(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[1.0, 0, 0], [0, c, -s], [0, s, c]])


def random_quaternions(n, seed):
    q = np.random.default_rng(seed).normal(size=(n, 4))
    return [Quaternion(v / np.linalg.norm(v)) for v in q]


def test_constructors_and_accessors():
    for q in (
        Quaternion(S, S, 0, 0),
        Quaternion(w=S, x=S, y=0, z=0),
        Quaternion([S, S, 0, 0]),
        Quaternion(wxyz=np.array([S, S, 0, 0])),
        Quaternion(rx(np.pi / 2)),
        Quaternion(rotation=rx(np.pi / 2)),
        Quaternion(other=Quaternion(S, S, 0, 0)),
    ):
        np.testing.assert_allclose(q.wxyz(), [S, S, 0, 0], atol=1e-16)
        np.testing.assert_allclose(q.xyz(), [S, 0, 0], atol=1e-16)
        assert (q.w(), q.y(), q.z()) == pytest.approx((S, 0, 0))
        assert q.x() == pytest.approx(S)
        assert type(q.w()) is float
    np.testing.assert_array_equal(Quaternion().wxyz(), [1, 0, 0, 0])
    np.testing.assert_array_equal(Quaternion.Identity().wxyz(), [1, 0, 0, 0])


def test_from_matrix_sign_convention():
    # trace > 0: w > 0; otherwise the element along the largest diagonal entry is positive.
    np.testing.assert_allclose(
        Quaternion(rx(-3.1)).wxyz(), [-np.cos(1.55), np.sin(1.55), 0, 0], atol=1e-15
    )
    np.testing.assert_allclose(Quaternion(np.diag([-1.0, -1.0, 1.0])).wxyz(), [0, 0, 0, 1])


@pytest.mark.parametrize(
    "make",
    [
        lambda: Quaternion(1, 2, 3, 4),
        lambda: Quaternion([1 + 2e-5, 0, 0, 0]),
        lambda: Quaternion(2 * np.eye(3)),
        lambda: Quaternion(np.diag([1.0, -1.0, 1.0])),
        lambda: Quaternion().set_wxyz(2, 0, 0, 0),
        lambda: Quaternion().set_wxyz([0, 0, 0, 0]),
        lambda: Quaternion().set_rotation(2 * np.eye(3)),
    ],
)
def test_non_unit_quaternion_is_refused(make):
    with pytest.raises(RuntimeError, match="Quaternion is not normalized: \\|q\\| = "):
        make()


def test_nearly_unit_quaternion_is_accepted():
    np.testing.assert_array_equal(Quaternion(1 + 5e-6, 0, 0, 0).wxyz(), [1 + 5e-6, 0, 0, 0])


@pytest.mark.parametrize("args", [(1, 2, 3), ([1, 0, 0],), (np.eye(4),), ("abc",)])
def test_wrong_arguments(args):
    with pytest.raises(TypeError, match="incompatible arguments"):
        Quaternion(*args)


def test_setters():
    q = Quaternion()
    q.set_wxyz(0, 1, 0, 0)
    np.testing.assert_array_equal(q.wxyz(), [0, 1, 0, 0])
    q.set_wxyz(wxyz=[0, 0, 1, 0])
    np.testing.assert_array_equal(q.wxyz(), [0, 0, 1, 0])
    q.set_rotation(rx(0.4))
    np.testing.assert_allclose(q.wxyz(), [np.cos(0.2), np.sin(0.2), 0, 0], atol=1e-16)


def test_rotation_round_trip():
    for q in random_quaternions(20, 0):
        R = q.rotation()
        np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-15)
        back = Quaternion(R).wxyz()
        np.testing.assert_allclose(back * np.sign(back @ q.wxyz()), q.wxyz(), atol=1e-15)


def test_product_inverse_conjugate():
    a, b = Quaternion(np.cos(0.2), np.sin(0.2), 0, 0), Quaternion(np.cos(0.3), np.sin(0.3), 0, 0)
    np.testing.assert_allclose((a @ b).wxyz(), [np.cos(0.5), np.sin(0.5), 0, 0], atol=1e-16)
    for a, b in zip(random_quaternions(10, 1), random_quaternions(10, 2), strict=True):
        np.testing.assert_allclose(
            a.multiply(b).rotation(), a.rotation() @ b.rotation(), atol=1e-15
        )
        np.testing.assert_allclose((a @ a.inverse()).wxyz(), [1, 0, 0, 0], atol=1e-15)
        np.testing.assert_allclose(a.conjugate().wxyz(), a.wxyz() * [1, -1, -1, -1])
    # k * i = j, i * k = -j
    i, j, k = Quaternion(0, 1, 0, 0), Quaternion(0, 0, 1, 0), Quaternion(0, 0, 0, 1)
    np.testing.assert_array_equal((k @ i).wxyz(), j.wxyz())
    np.testing.assert_array_equal((i @ k).wxyz(), -j.wxyz())
    # The inverse divides by |q|².
    q = Quaternion(1 + 5e-6, 0, 0, 0)
    assert q.inverse().w() == pytest.approx(1 / (1 + 5e-6), rel=1e-15)


def test_rotate_vectors():
    q = Quaternion(rx(0.7))
    v = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(q @ v, rx(0.7) @ v, atol=1e-15)
    np.testing.assert_allclose(q.multiply(vector=v), rx(0.7) @ v, atol=1e-15)
    V = np.arange(6.0).reshape(3, 2)
    np.testing.assert_allclose(q @ V, rx(0.7) @ V, atol=1e-15)
    with pytest.raises(TypeError, match="incompatible arguments"):
        q @ np.ones(4)


def test_normalized():
    q = Quaternion(1 + 5e-6, 0, 0, 0).normalized()
    np.testing.assert_allclose(q.wxyz(), [1, 0, 0, 0], atol=1e-16)


def test_slerp():
    a = Quaternion()
    b = Quaternion(np.cos(0.5), 0, 0, np.sin(0.5))
    np.testing.assert_allclose(a.slerp(0.5, b).wxyz(), [np.cos(0.25), 0, 0, np.sin(0.25)])
    np.testing.assert_allclose(a.slerp(t=0.0, other=b).wxyz(), a.wxyz())
    np.testing.assert_allclose(a.slerp(1.0, b).wxyz(), b.wxyz(), atol=1e-16)
    # Shortest path: -b is the same rotation as b.
    minus_b = Quaternion(-b.wxyz())
    np.testing.assert_allclose(a.slerp(0.5, minus_b).wxyz(), [np.cos(0.25), 0, 0, np.sin(0.25)])
    np.testing.assert_allclose(a.slerp(0.5, a).wxyz(), a.wxyz())


def test_str_repr_and_equality():
    q = Quaternion(-1, 0, 0, 0)
    assert str(q) == "Quaternion(w=-1.0, x=0.0, y=0.0, z=0.0)"
    assert repr(q).startswith("<mallard.common.eigen_geometry.Quaternion object at 0x")
    assert q == q
    assert q != Quaternion(q)


def test_copy_and_pickle():
    q = random_quaternions(1, 3)[0]
    for clone in (copy.copy(q), copy.deepcopy(q), pickle.loads(pickle.dumps(q))):
        assert clone is not q
        np.testing.assert_array_equal(clone.wxyz(), q.wxyz())
