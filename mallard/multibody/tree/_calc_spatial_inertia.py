"""CalcSpatialInertia(shape, density): the spatial inertia of a uniform solid shape."""

import numpy as np

from mallard.multibody.tree._spatial_inertia import SpatialInertia

_Z = np.array([0.0, 0.0, 1.0])


def CalcSpatialInertia(shape, density):
    """M_BBo_B of a body B of uniform ``density`` (kg/m³) filling ``shape``, about the origin Bo
    of the shape's canonical frame and expressed in it (frames S and B coincide).

    RuntimeError if density is not positive and finite, or the shape has zero volume (a zero
    radius Sphere); ValueError for a HalfSpace (infinite mass) or a shape not supported yet.
    """
    from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, HalfSpace, Shape, Sphere

    kind = type(shape)
    if kind is Box:
        return SpatialInertia.SolidBoxWithDensity(density, *shape.size().tolist())
    if kind is Sphere:
        return SpatialInertia.SolidSphereWithDensity(density, shape.radius())
    if kind is Cylinder:
        return SpatialInertia.SolidCylinderWithDensity(density, shape.radius(), shape.length(), _Z)
    if kind is Capsule:
        return SpatialInertia.SolidCapsuleWithDensity(density, shape.radius(), shape.length(), _Z)
    if kind is Ellipsoid:
        return SpatialInertia.SolidEllipsoidWithDensity(density, shape.a(), shape.b(), shape.c())
    if kind is HalfSpace:
        raise ValueError("CalcSpatialInertia: Cannot compute mass of a HalfSpace")
    if isinstance(shape, Shape):
        raise ValueError(f"CalcSpatialInertia: {kind.__name__} is not yet supported")
    raise TypeError(f"CalcSpatialInertia(): shape must be a Shape, got {kind.__name__}")
