import copy
import pickle

import numpy as np
import pytest

from mallard.common.eigen_geometry import Isometry3, Quaternion


def rz(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def homogeneous(R, p):
    M = np.eye(4)
    M[:3, :3], M[:3, 3] = R, p
    return M


P = np.array([1.0, 2.0, 3.0])
M = homogeneous(rz(0.3), P)


def test_constructors_and_accessors():
    for X in (
        Isometry3(M),
        Isometry3(matrix=M),
        Isometry3(rz(0.3), P),
        Isometry3(rotation=rz(0.3), translation=P),
        Isometry3(quaternion=Quaternion(rz(0.3)), translation=P),
        Isometry3(other=Isometry3(M)),
    ):
        np.testing.assert_allclose(X.matrix(), M, atol=1e-15)
        np.testing.assert_allclose(X.rotation(), rz(0.3), atol=1e-15)
        np.testing.assert_array_equal(X.translation(), P)
        np.testing.assert_allclose(X.quaternion().wxyz(), [np.cos(0.15), 0, 0, np.sin(0.15)])
    np.testing.assert_array_equal(Isometry3().matrix(), np.eye(4))
    np.testing.assert_array_equal(Isometry3.Identity().matrix(), np.eye(4))


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Isometry3(2 * np.eye(4)), "not orthonormal"),
        (lambda: Isometry3(rz(0.3) * 1.0001, P), "not orthonormal"),
        (lambda: Isometry3(homogeneous(np.diag([1.0, 1.0, -1.0]), P)), "right-hand rule"),
        (lambda: Isometry3(M + np.outer([0, 0, 0, 1], [1, 0, 0, 0])), "improperly scaled"),
        (lambda: Isometry3().set_rotation(2 * np.eye(3)), "not orthonormal"),
        (lambda: Isometry3().set_matrix(2 * np.eye(4)), "not orthonormal"),
    ],
)
def test_invalid_matrices_are_refused(make, message):
    with pytest.raises(RuntimeError, match=message):
        make()


def test_nearly_valid_matrix_is_accepted():
    X = Isometry3(rz(0.3) * (1 + 1e-6), P)
    np.testing.assert_array_equal(X.rotation(), rz(0.3) * (1 + 1e-6))


def test_setters():
    X = Isometry3()
    X.set_rotation(rz(0.3))
    X.set_translation(P)
    np.testing.assert_array_equal(X.matrix(), M)
    X.set_quaternion(Quaternion(np.cos(0.5), 0, 0, np.sin(0.5)))
    np.testing.assert_allclose(X.rotation(), rz(1.0), atol=1e-15)
    np.testing.assert_array_equal(X.translation(), P)
    X.set_matrix(np.eye(4))
    np.testing.assert_array_equal(X.matrix(), np.eye(4))


def test_compose_apply_inverse():
    X = Isometry3(M)
    Y = Isometry3(homogeneous(rz(-1.2), [0.5, -1, 2]))
    np.testing.assert_allclose((X @ Y).matrix(), M @ Y.matrix(), atol=1e-15)
    np.testing.assert_allclose(X.multiply(other=Y).matrix(), M @ Y.matrix(), atol=1e-15)
    np.testing.assert_allclose(X.inverse().matrix(), np.linalg.inv(M), atol=1e-15)
    v = np.array([1.0, 1.0, 1.0])
    np.testing.assert_allclose(X @ v, rz(0.3) @ v + P)
    np.testing.assert_allclose(X.multiply(position=v), rz(0.3) @ v + P)
    V = np.arange(6.0).reshape(3, 2)
    np.testing.assert_allclose(X @ V, rz(0.3) @ V + P[:, None])
    with pytest.raises(TypeError, match="incompatible arguments"):
        X @ np.ones(4)


def test_str_repr_copy_pickle():
    X = Isometry3(M)
    assert str(X) == str(M)
    assert repr(X).startswith("<mallard.common.eigen_geometry.Isometry3 object at 0x")
    for clone in (copy.copy(X), copy.deepcopy(X), pickle.loads(pickle.dumps(X))):
        assert clone is not X
        np.testing.assert_array_equal(clone.matrix(), M)
