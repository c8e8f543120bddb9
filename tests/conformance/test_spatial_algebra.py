"""mallard.multibody.math against pydrake.multibody.math on random inputs."""

import copy
import pickle

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.math as dm  # noqa: E402
import pydrake.multibody.math as dmm  # noqa: E402

import mallard.multibody.math as mm  # noqa: E402

NAMES = ["SpatialVelocity", "SpatialAcceleration", "SpatialForce", "SpatialMomentum"]
TOL = dict(rtol=1e-12, atol=1e-12)


def pair(name, c):
    """The same spatial vector in mallard and in pydrake."""
    return getattr(mm, name)(c), getattr(dmm, name)(c)


def check(ours, theirs):
    assert type(ours).__name__ == type(theirs).__name__
    np.testing.assert_allclose(ours.get_coeffs(), theirs.get_coeffs(), **TOL)
    np.testing.assert_allclose(ours.rotational(), theirs.rotational(), **TOL)
    np.testing.assert_allclose(ours.translational(), theirs.translational(), **TOL)


@pytest.fixture
def rng():
    return np.random.default_rng(20240601)


@pytest.mark.parametrize("name", NAMES)
def test_construction_arithmetic_and_repr(name, rng):
    ours_cls, theirs_cls = getattr(mm, name), getattr(dmm, name)
    for _ in range(10):
        a, b, s = rng.normal(size=6), rng.normal(size=6), rng.normal()
        (x, X), (y, Y) = pair(name, a), pair(name, b)
        check(ours_cls(a[:3], a[3:]), theirs_cls(a[:3], a[3:]))
        for ours, theirs in (
            (x + y, X + Y),
            (x - y, X - Y),
            (-x, -X),
            (x * s, X * s),
            (s * x, s * X),
            (ours_cls.Zero(), theirs_cls.Zero()),
            (copy.copy(x), copy.copy(X)),
            (copy.deepcopy(x), copy.deepcopy(X)),
            (pickle.loads(pickle.dumps(x)), X),
        ):
            check(ours, theirs)
            assert repr(ours) == repr(theirs)
        x += y
        X += Y
        x *= s
        X *= s
        x -= y
        X -= Y
        check(x, X)
        check(x.SetZero(), X.SetZero())
    assert repr(ours_cls()) == repr(theirs_cls())
    assert repr(ours_cls([1, 2, 3e-20, -4, 5.5, 1e300])) == repr(
        theirs_cls([1, 2, 3e-20, -4, 5.5, 1e300])
    )


@pytest.mark.parametrize("name", ["SpatialVelocity", "SpatialForce", "SpatialMomentum"])
def test_shift(name, rng):
    for _ in range(20):
        (x, X), p = pair(name, rng.normal(size=6)), rng.normal(size=3)
        check(x.Shift(offset=p), X.Shift(offset=p))


def test_acceleration_shifts(rng):
    for _ in range(20):
        (x, X), p, w = pair("SpatialAcceleration", rng.normal(size=6)), *rng.normal(size=(2, 3))
        check(
            x.Shift(offset=p, angular_velocity_of_this_frame=w),
            X.Shift(offset=p, angular_velocity_of_this_frame=w),
        )
        check(x.ShiftWithZeroAngularVelocity(offset=p), X.ShiftWithZeroAngularVelocity(offset=p))


def test_compositions(rng):
    for _ in range(20):
        (v, V), (v_bc, V_BC) = (pair("SpatialVelocity", rng.normal(size=6)) for _ in range(2))
        (a, A), (a_bc, A_BC) = (pair("SpatialAcceleration", rng.normal(size=6)) for _ in range(2))
        p, w = rng.normal(size=(2, 3))
        check(
            v.ComposeWithMovingFrameVelocity(
                position_of_moving_frame=p, velocity_of_moving_frame=v_bc
            ),
            V.ComposeWithMovingFrameVelocity(
                position_of_moving_frame=p, velocity_of_moving_frame=V_BC
            ),
        )
        check(
            a.ComposeWithMovingFrameAcceleration(
                position_of_moving_frame=p,
                angular_velocity_of_this_frame=w,
                velocity_of_moving_frame=v_bc,
                acceleration_of_moving_frame=a_bc,
            ),
            A.ComposeWithMovingFrameAcceleration(
                position_of_moving_frame=p,
                angular_velocity_of_this_frame=w,
                velocity_of_moving_frame=V_BC,
                acceleration_of_moving_frame=A_BC,
            ),
        )


def test_dot(rng):
    for _ in range(20):
        (v, V), (f, F), (l, L) = (
            pair(n, rng.normal(size=6))
            for n in ("SpatialVelocity", "SpatialForce", "SpatialMomentum")
        )
        for ours, theirs in (
            (v.dot(force=f), V.dot(force=F)),
            (v.dot(momentum=l), V.dot(momentum=L)),
            (f.dot(velocity=v), F.dot(velocity=V)),
            (l.dot(velocity=v), L.dot(velocity=V)),
            (v @ f, V @ F),
            (v @ l, V @ L),
            (f @ v, F @ V),
            (l @ v, L @ V),
        ):
            assert type(ours) is type(theirs) is float
            assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_rotate(name, rng):
    mallard_math = pytest.importorskip("mallard.math")
    if not hasattr(mallard_math, "RotationMatrix"):
        pytest.skip("mallard.math.RotationMatrix not available")
    for _ in range(10):
        R = dm.RotationMatrix(dm.RollPitchYaw(rng.uniform(-np.pi, np.pi, size=3)))
        x, X = pair(name, rng.normal(size=6))
        check(x.Rotate(R_FE=mallard_math.RotationMatrix(R.matrix())), X.Rotate(R_FE=R))


@pytest.mark.parametrize("name", NAMES)
def test_wrong_inputs_raise_type_error_in_both(name):
    for args in (([1, 2],), ([1, 2, 3], [4, 5]), ([1, 2, 3, 4, 5, "a"],)):
        for module in (mm, dmm):
            with pytest.raises(TypeError):
                getattr(module, name)(*args)
    for module in (mm, dmm):
        x = getattr(module, name)(np.ones(6))
        with pytest.raises(TypeError):
            x.Shift([1, 2])
        with pytest.raises(TypeError):
            x + 1
        with pytest.raises(TypeError):
            x / 2
