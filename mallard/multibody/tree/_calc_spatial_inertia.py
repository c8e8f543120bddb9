"""CalcSpatialInertia(shape, density): the spatial inertia of a uniform solid shape."""

import numpy as np

from mallard.geometry import (
    Box,
    Capsule,
    Convex,
    Cylinder,
    Ellipsoid,
    HalfSpace,
    Mesh,
    Shape,
    Sphere,
)
from mallard.geometry._mesh import _inertia_error
from mallard.multibody.tree._spatial_inertia import (
    SpatialInertia,
    solid_box_mass,
    solid_capsule_mass,
    solid_cylinder_mass,
    solid_ellipsoid_mass,
    solid_sphere_mass,
)
from mallard.multibody.tree._unit_inertia import (
    UnitInertia,
    axial_moments,
    solid_box_moments,
    solid_capsule_moments,
    solid_cylinder_moments,
    solid_ellipsoid_moments,
    solid_sphere_moment,
)

_Z = np.array([0.0, 0.0, 1.0])


def CalcSpatialInertia(shape, density):
    """M_BBo_B of a body B of uniform ``density`` (kg/m³) filling ``shape``, about the origin Bo
    of the shape's canonical frame and expressed in it (frames S and B coincide).

    A Mesh is the solid its closed, outward-wound .obj surface encloses; a Convex its convex
    hull. RuntimeError if density is not positive and finite, the shape has zero volume (a zero
    radius Sphere); ValueError for a HalfSpace (infinite mass), a mesh file that is not .obj, a
    mesh whose volume is not positive (open, or wound inward), or a shape not supported yet.
    """
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
    if kind in (Mesh, Convex):
        return _from_moments(shape._moments(_inertia_error), density, shape.filename())
    if isinstance(shape, Shape):
        raise ValueError(f"CalcSpatialInertia: {kind.__name__} is not yet supported")
    raise TypeError(f"CalcSpatialInertia(): shape must be a Shape, got {kind.__name__}")


def unit_density_inertia(kind, measures):
    """(volume, (Ixx, Iyy, Izz, Ixy, Ixz, Iyz) of G_BBo_B) of CalcSpatialInertia(shape, 1.0)
    for the ``kind`` (Box, Sphere, Cylinder, Capsule or Ellipsoid) of positive ``measures``
    (its constructor's), in floats: the same arithmetic (its mass is the volume, its center
    of mass Bo)."""
    if kind is Box:
        x, y, z = measures
        return solid_box_mass(1.0, x, y, z), (*solid_box_moments(x, y, z), 0.0, 0.0, 0.0)
    if kind is Sphere:
        (r,) = measures
        I = solid_sphere_moment(r)  # (TriaxiallySymmetric: I·Id)
        return solid_sphere_mass(1.0, r), (I * 1.0, I * 1.0, I * 1.0, I * 0.0, I * 0.0, I * 0.0)
    if kind is Ellipsoid:
        a, b, c = measures
        moments = solid_ellipsoid_moments(a, b, c)
        return solid_ellipsoid_mass(1.0, a, b, c), (*moments, 0.0, 0.0, 0.0)
    r, L = measures
    if kind is Cylinder:
        J, K = solid_cylinder_moments(r, L)
        return solid_cylinder_mass(1.0, r, L), axial_moments(J, K, 0.0, 0.0, 1.0)
    J, K = solid_capsule_moments(r, L, 3 * L + 4 * r)
    return solid_capsule_mass(1.0, r, L), axial_moments(J, K, 0.0, 0.0, 1.0)


def _from_moments(moments, density, filename):
    """M_BBo_B of uniform ``density`` from the (volume, ∫p dV, ∫p pᵀ dV) of a mesh."""
    volume, first, second = moments
    if not volume >= 1e-14:
        raise ValueError(
            "CalcSpatialInertia(): The calculated volume of a triangle surface mesh is "
            f"{volume!r} whereas a reasonable positive value of at least 1e-14 was expected. "
            "The mesh may have bad geometry, e.g., it is an open mesh or the winding (order of "
            f"vertices) of at least one face does not produce an outward normal ('{filename}')."
        )
    density = float(density)
    if not (np.isfinite(density) and density > 0):
        raise RuntimeError(f"CalcSpatialInertia(): density must be positive; got {density!r}")
    p_BoBcm_B = first / volume
    G_BBo_B = np.trace(second) / volume * np.eye(3) - second / volume
    G = G_BBo_B
    unit = UnitInertia(G[0, 0], G[1, 1], G[2, 2], G[0, 1], G[0, 2], G[1, 2])
    return SpatialInertia(density * volume, p_BoBcm_B, unit)
