import copy
import pickle

import numpy as np
import pytest

from mallard.common.eigen_geometry import AngleAxis, Quaternion


def rz(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def test_constructors_and_accessors():
    q = Quaternion(np.cos(0.25), 0, 0, np.sin(0.25))
    for a in (
        AngleAxis(0.5, [0, 0, 1]),
        AngleAxis(angle=0.5, axis=np.array([0.0, 0.0, 1.0])),
        AngleAxis(q),
        AngleAxis(quaternion=q),
        AngleAxis(rz(0.5)),
        AngleAxis(rotation=rz(0.5)),
        AngleAxis(other=AngleAxis(0.5, [0, 0, 1])),
    ):
        assert a.angle() == pytest.approx(0.5, abs=1e-15)
        assert type(a.angle()) is float
        np.testing.assert_allclose(a.axis(), [0, 0, 1], atol=1e-15)
    for a in (AngleAxis(), AngleAxis.Identity()):
        assert a.angle() == 0.0
        np.testing.assert_array_equal(a.axis(), [1, 0, 0])


def test_angle_is_kept_as_given_but_conversions_give_angle_in_0_pi():
    a = AngleAxis(7.0, [0, 0, 1])
    assert a.angle() == 7.0
    b = AngleAxis(a.quaternion())
    assert b.angle() == pytest.approx(7.0 - 2 * np.pi, abs=1e-14)
    c = AngleAxis(AngleAxis(-0.5, [0, 0, 1]).quaternion())
    assert c.angle() == pytest.approx(0.5)
    np.testing.assert_allclose(c.axis(), [0, 0, -1])
    d = AngleAxis(rz(-3.0))
    assert d.angle() == pytest.approx(3.0)
    np.testing.assert_allclose(d.axis(), [0, 0, -1], atol=1e-15)


@pytest.mark.parametrize(
    "make",
    [
        lambda: AngleAxis(0.5, [0, 0, 2]),
        lambda: AngleAxis(0.5, [0, 0, 0]),
        lambda: AngleAxis().set_axis([1.0, 1.0, 0.0]),
    ],
)
def test_non_unit_axis_is_refused(make):
    with pytest.raises(RuntimeError, match="Axis is not normalized"):
        make()


@pytest.mark.parametrize("args", [(0.5,), (0.5, [1, 0]), ("a", [1, 0, 0]), (np.eye(4),)])
def test_wrong_arguments(args):
    with pytest.raises(TypeError, match="incompatible arguments"):
        AngleAxis(*args)


def test_rotation_and_quaternion_closed_forms():
    a = AngleAxis(0.5, [0, 0, 1])
    np.testing.assert_allclose(a.rotation(), rz(0.5), atol=1e-16)
    np.testing.assert_allclose(a.quaternion().wxyz(), [np.cos(0.25), 0, 0, np.sin(0.25)])
    rng = np.random.default_rng(0)
    for angle, axis in zip(rng.uniform(-4, 4, 10), rng.normal(size=(10, 3)), strict=True):
        a = AngleAxis(angle, axis / np.linalg.norm(axis))
        np.testing.assert_allclose(a.rotation(), a.quaternion().rotation(), atol=1e-15)
        np.testing.assert_allclose(AngleAxis(a.rotation()).rotation(), a.rotation(), atol=1e-14)


def test_setters_inverse_multiply():
    a = AngleAxis()
    a.set_angle(0.3)
    a.set_axis([0.0, 1.0, 0.0])
    assert a.angle() == 0.3
    np.testing.assert_array_equal(a.axis(), [0, 1, 0])
    inv = a.inverse()
    assert inv.angle() == -0.3
    np.testing.assert_allclose(inv.rotation(), a.rotation().T, atol=1e-16)
    product = a @ AngleAxis(0.2, [0, 1, 0])
    assert isinstance(product, Quaternion)
    np.testing.assert_allclose(product.wxyz(), [np.cos(0.25), 0, np.sin(0.25), 0])
    np.testing.assert_allclose(a.multiply(other=a).rotation(), a.rotation() @ a.rotation())
    a.set_quaternion(Quaternion(np.cos(0.25), 0, 0, np.sin(0.25)))
    assert a.angle() == pytest.approx(0.5)
    a.set_rotation(rz(0.1))
    assert a.angle() == pytest.approx(0.1)
    np.testing.assert_allclose(a.axis(), [0, 0, 1])
    with pytest.raises(TypeError, match="incompatible arguments"):
        a @ [1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="incompatible arguments"):
        a.set_quaternion(rz(0.1))


def test_str_repr_copy_pickle():
    a = AngleAxis(0.5, [0, 0, 1])
    assert str(a) == "AngleAxis(angle=0.5, axis=[0. 0. 1.])"
    assert repr(a).startswith("<mallard.common.eigen_geometry.AngleAxis object at 0x")
    for clone in (copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a))):
        assert clone is not a and clone.angle() == 0.5
        np.testing.assert_array_equal(clone.axis(), [0, 0, 1])
    assert a.__getstate__()[0] == 0.5
