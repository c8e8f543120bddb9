"""``python -m mallard``: the main job on the demo shapes the package ships.

Until MultibodyPlant exists, it prints the mass properties (mass, center of mass, principal
moments of inertia about the center of mass) of a few solid aluminium shapes.
"""

import numpy as np

from mallard.geometry import Box, Capsule, Cylinder, Ellipsoid, Sphere
from mallard.multibody.tree import CalcSpatialInertia

ALUMINIUM_DENSITY = 2700.0  # kg/m³

DEMO_SHAPES = {
    "Box(0.1, 0.2, 0.3)": Box(0.1, 0.2, 0.3),
    "Sphere(0.1)": Sphere(0.1),
    "Cylinder(0.05, 0.4)": Cylinder(0.05, 0.4),
    "Capsule(0.05, 0.4)": Capsule(0.05, 0.4),
    "Ellipsoid(0.1, 0.2, 0.3)": Ellipsoid(0.1, 0.2, 0.3),
}


def main():
    print(f"Solid shapes of density {ALUMINIUM_DENSITY:g} kg/m³ (about their centers, in SI units)")
    print(f"{'shape':<26}{'mass':>10}   principal moments of inertia")
    for label, shape in DEMO_SHAPES.items():
        M_BBo_B = CalcSpatialInertia(shape, ALUMINIUM_DENSITY)
        moments = M_BBo_B.CalcRotationalInertia().CalcPrincipalMomentsOfInertia()
        print(f"{label:<26}{M_BBo_B.get_mass():>10.4f}   {np.array2string(moments, precision=6)}")
    print("\nMultibodyPlant, parsing and simulation are not built yet; see README.md.")


if __name__ == "__main__":
    main()
