"""CalcSpatialInertia(shape, density) for the basic shapes."""

import numpy as np
import pytest

from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Sphere
from mallard.multibody.tree import CalcSpatialInertia, SpatialInertia

Z = [0.0, 0.0, 1.0]
RHO = 1000.0


@pytest.mark.parametrize(
    "shape, expected",
    [
        (Box(0.1, 0.2, 0.3), SpatialInertia.SolidBoxWithDensity(RHO, 0.1, 0.2, 0.3)),
        (Sphere(0.2), SpatialInertia.SolidSphereWithDensity(RHO, 0.2)),
        (Cylinder(0.1, 0.5), SpatialInertia.SolidCylinderWithDensity(RHO, 0.1, 0.5, Z)),
        (Capsule(0.1, 0.5), SpatialInertia.SolidCapsuleWithDensity(RHO, 0.1, 0.5, Z)),
        (Ellipsoid(0.1, 0.2, 0.3), SpatialInertia.SolidEllipsoidWithDensity(RHO, 0.1, 0.2, 0.3)),
    ],
    ids=lambda x: type(x).__name__,
)
def test_shapes(shape, expected):
    M = CalcSpatialInertia(shape=shape, density=RHO)
    assert isinstance(M, SpatialInertia) and M.IsPhysicallyValid()
    np.testing.assert_array_equal(M.CopyToFullMatrix6(), expected.CopyToFullMatrix6())


def test_masses():
    assert CalcSpatialInertia(Box(1, 2, 3), 2.0).get_mass() == pytest.approx(12.0)
    assert CalcSpatialInertia(Sphere(1), 3.0).get_mass() == pytest.approx(4 * np.pi)
    assert CalcSpatialInertia(Cylinder(1, 2), 1.0).get_mass() == pytest.approx(2 * np.pi)
    capsule = CalcSpatialInertia(Capsule(1, 2), 1.0)
    assert capsule.get_mass() == pytest.approx(2 * np.pi + 4 * np.pi / 3)
    assert CalcSpatialInertia(Ellipsoid(1, 2, 3), 1.0).get_mass() == pytest.approx(8 * np.pi)


def test_errors():
    with pytest.raises(ValueError, match="Cannot compute mass of a HalfSpace"):
        CalcSpatialInertia(HalfSpace(), RHO)
    with pytest.raises(RuntimeError, match="density is not positive and finite: 0."):
        CalcSpatialInertia(Box(1, 1, 1), 0.0)
    with pytest.raises(RuntimeError, match="density is not positive and finite: nan."):
        CalcSpatialInertia(Capsule(1, 1), np.nan)
    with pytest.raises(RuntimeError, match="radius is not positive and finite: 0."):
        CalcSpatialInertia(Sphere(0), RHO)  # a zero-radius sphere has no volume
    with pytest.raises(TypeError, match="must be a Shape"):
        CalcSpatialInertia("box", RHO)
