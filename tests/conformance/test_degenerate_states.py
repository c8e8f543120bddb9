"""Degenerate states beside pydrake: a zero quaternion raises in both (mallard names the
joint), and a free body far away (1e308 m) has the same finite accelerations and mass matrix."""

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.multibody.plant as d_plant  # noqa: E402
import pydrake.multibody.tree as d_tree  # noqa: E402

import mallard.multibody.plant as m_plant  # noqa: E402
import mallard.multibody.tree as m_tree  # noqa: E402


def _model(plant_module, tree):
    plant = plant_module.MultibodyPlant(0.0)
    inertia = tree.SpatialInertia(2.0, [0.1, 0.2, 0.3], tree.UnitInertia(1.0, 1.2, 1.3))
    base = plant.AddRigidBody("base", inertia)
    link = plant.AddRigidBody("link", inertia)
    plant.AddJoint(tree.RevoluteJoint("j", base.body_frame(), link.body_frame(), [0, 0, 1]))
    plant.Finalize()
    return plant, plant.CreateDefaultContext()


@pytest.fixture(scope="module")
def both():
    return _model(m_plant, m_tree), _model(d_plant, d_tree)


def test_zero_quaternion_raises_in_both(both):
    q = np.r_[np.zeros(4), [1.0, 2.0, 3.0, 0.5]]
    for plant, context in both:
        plant.SetPositions(context, q)
        with pytest.raises(RuntimeError, match="All the elements in a quaternion are zero"):
            plant.CalcMassMatrix(context)


@pytest.mark.parametrize(
    "q",
    [
        [1.0, 0, 0, 0, 1e308, 1e308, 1e308, 0.3],
        [1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308, 1e308],
        [0.5, 0.5, 0.5, 0.5, -1e308, 0, 1e308, 0.3],
    ],
)
def test_far_away_free_body_matches(both, q):
    results = []
    for plant, context in both:
        plant.SetPositions(context, np.array(q))
        plant.SetVelocities(context, np.zeros(plant.num_velocities()))
        vdot = plant.EvalTimeDerivatives(context).get_generalized_velocity().CopyToVector()
        results.append((plant.CalcMassMatrix(context), vdot))
    (M, vdot), (M_d, vdot_d) = results
    assert np.isfinite(vdot_d).all() and np.isfinite(vdot).all()
    np.testing.assert_allclose(M, M_d, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(vdot, vdot_d, rtol=1e-10, atol=1e-10)
