"""The shape specifications of mallard.geometry."""

import copy
import pickle

import numpy as np
import pytest

from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Shape, Sphere


def test_box():
    box = Box(1.0, 2.0, 3.5)
    assert (box.width(), box.depth(), box.height()) == (1.0, 2.0, 3.5)
    np.testing.assert_array_equal(box.size(), [1.0, 2.0, 3.5])
    assert repr(box) == "Box(width=1, depth=2, height=3.5)"
    assert repr(Box([0.1, 0.2, 0.3])) == "Box(width=0.1, depth=0.2, height=0.3)"
    assert repr(Box(measures=np.array([1, 2, 3]))) == "Box(width=1, depth=2, height=3)"
    assert repr(Box(width=1, depth=2, height=3)) == "Box(width=1, depth=2, height=3)"
    np.testing.assert_array_equal(Box.MakeCube(0.5).size(), [0.5, 0.5, 0.5])
    assert isinstance(box, Shape)


def test_round_shapes():
    sphere = Sphere(radius=0.25)
    assert sphere.radius() == 0.25 and repr(sphere) == "Sphere(radius=0.25)"
    assert repr(Sphere(0)) == "Sphere(radius=0)"  # a zero radius is allowed
    for cls in (Cylinder, Capsule):
        shape = cls(0.5, 2.0)
        assert (shape.radius(), shape.length()) == (0.5, 2.0)
        assert repr(shape) == f"{cls.__name__}(radius=0.5, length=2)"
        assert repr(cls([0.5, 2.0])) == repr(cls(radius=0.5, length=2.0)) == repr(shape)
    assert not isinstance(Capsule(1, 1), Cylinder)
    ellipsoid = Ellipsoid(1, 2, 3)
    assert (ellipsoid.a(), ellipsoid.b(), ellipsoid.c()) == (1.0, 2.0, 3.0)
    assert repr(ellipsoid) == repr(Ellipsoid([1, 2, 3])) == "Ellipsoid(a=1, b=2, c=3)"
    assert repr(HalfSpace()) == "HalfSpace()"


def test_clone_copy_pickle_equality():
    for shape in [
        Box(1, 2, 3),
        Sphere(1),
        Cylinder(1, 2),
        Capsule(1, 2),
        Ellipsoid(1, 2, 3),
        HalfSpace(),
    ]:
        for other in [shape.Clone(), copy.copy(shape), pickle.loads(pickle.dumps(shape))]:
            assert type(other) is type(shape) and other is not shape
            assert repr(other) == repr(shape)
            assert other != shape  # identity equality, as pydrake


def test_errors():
    cases = [
        (lambda: Box(0, 2, 3), "Box.*width must be finite and positive, got width = 0"),
        (lambda: Box(1, -2, 3), "depth.*-2"),
        (lambda: Box([1, 2, np.inf]), "height.*inf"),
        (lambda: Sphere(-1), "radius must be finite and non-negative"),
        (lambda: Sphere(np.nan), "radius.*nan"),
        (lambda: Cylinder(0, 2), "Cylinder.*radius must be finite and positive"),
        (lambda: Cylinder(1, -2), "length.*-2"),
        (lambda: Capsule(0, 2), "Capsule.*radius"),
        (lambda: Capsule([1, 0]), "Capsule.*length.*0"),
        (lambda: Ellipsoid(1, 0, 3), "Ellipsoid.*b must be finite and positive"),
    ]
    for make, message in cases:
        with pytest.raises(RuntimeError, match=message):
            make()
    with pytest.raises(TypeError, match="No constructor defined"):
        Shape()
    with pytest.raises(TypeError):
        Box(1, 2)
    with pytest.raises(TypeError):
        Box([1, 2])
    with pytest.raises(TypeError):
        Cylinder(1, 2, 3)
    with pytest.raises(TypeError):
        Sphere("one")
