"""Drake's tutorial multibody_plant_autodiff_mass under mallard: the gravity forces of two
free bodies differentiated with respect to their masses."""

import pytest

pytest.importorskip("pydrake")

from tests.conformance.tutorials.runner import compare  # noqa: E402

SOURCE = """
import numpy as np
from {lib}.autodiffutils import AutoDiffXd
from {lib}.multibody.plant import MultibodyPlant, MultibodyPlant_
from {lib}.multibody.tree import SpatialInertia, UnitInertia

plant = MultibodyPlant(time_step=0.0)
bodies = [
    plant.AddRigidBody(name, M_BBo_B=SpatialInertia(
        mass=mass, p_PScm_E=[0, 0, 0], G_SP_E=UnitInertia(0.1, 0.1, 0.1)))
    for name, mass in (("body1", 2.0), ("body2", 0.5))
]
plant.Finalize()
plant_ad = plant.ToScalarType[AutoDiffXd]()
bodies_ad = [plant_ad.get_body(body.index()) for body in bodies]
context_ad = plant_ad.CreateDefaultContext()
bodies_ad[0].SetMass(context_ad, AutoDiffXd(2.0, [1.0, 0.0]))
bodies_ad[1].SetMass(context_ad, AutoDiffXd(0.5, [0.0, 1.0]))

def z_component(plant, body, v):
    assert body.is_floating_base_body()
    start = body.floating_velocities_start_in_v()
    return v[start:start + 6][-3:][2]

@np.vectorize
def text(x):
    return f"AutoDiffXd({x.value()}, derivatives={x.derivatives()})"

tau_g = plant_ad.CalcGravityGeneralizedForces(context_ad)
for body in bodies_ad:
    print(text(z_component(plant_ad, body, tau_g)))
"""


def test_gravity_derivatives_with_respect_to_masses():
    compare(SOURCE)
