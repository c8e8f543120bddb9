"""MultibodyPlant_[AutoDiffXd] against pydrake's: the same model (every joint type) converted
with ToAutoDiffXd() in both libraries, the state (and a mass) seeded, and the values and
gradients of the dynamics compared to 1e-10 relative to the largest entry."""

import numpy as np
import pytest

pytest.importorskip("pydrake")

import pydrake.autodiffutils as d_ad  # noqa: E402

import mallard.autodiffutils as m_ad  # noqa: E402
from tests.multibody.plant.plant_models import dynamics_model, library  # noqa: E402

LIBRARIES = {"mallard": (library("mallard"), m_ad), "pydrake": (library("pydrake"), d_ad)}


def _quantities(m, ad):
    return {
        "mass_matrix": lambda p, c: p.CalcMassMatrix(c),
        "bias_term": lambda p, c: p.CalcBiasTerm(c),
        "gravity": lambda p, c: p.CalcGravityGeneralizedForces(c),
        "inverse_dynamics": lambda p, c: p.CalcInverseDynamics(
            c, np.linspace(-1, 1, p.num_velocities()), m.MultibodyForces_[ad.AutoDiffXd](p)
        ),
        "forward_dynamics": lambda p, c: p.EvalTimeDerivatives(c).CopyToVector(),
        "frame_jacobian": lambda p, c: p.CalcJacobianSpatialVelocity(
            c,
            m.JacobianWrtVariable.kV,
            p.GetFrameByName("F_tool"),
            [0.1, -0.2, 0.3],
            p.GetFrameByName("F_world"),
            p.world_frame(),
        ),
        "kinetic_energy": lambda p, c: np.array([p.CalcKineticEnergy(c)]),
        "potential_energy": lambda p, c: np.array([p.CalcPotentialEnergy(c)]),
    }


@pytest.fixture(scope="module")
def results():
    """Per library: {quantity: (value, gradient)} with x and the mass of l2 seeded."""
    rng = np.random.default_rng(11)
    out = {}
    x0 = None
    for name, (m, ad) in LIBRARIES.items():
        plant, _ = dynamics_model(m)
        plant_ad = plant.ToAutoDiffXd()
        context = plant_ad.CreateDefaultContext()
        if x0 is None:
            q0 = plant.GetPositions(plant.CreateDefaultContext())
            x0 = np.concatenate(
                (
                    q0 + 0.3 * rng.normal(size=plant.num_positions()),
                    rng.normal(size=plant.num_velocities()),
                )
            )
        n = len(x0) + 1
        plant_ad.SetPositionsAndVelocities(context, ad.InitializeAutoDiff(x0, n, 0)[:, 0])
        body = plant_ad.GetBodyByName("l2")
        mass = np.zeros(n)
        mass[-1] = 1.0
        body.SetMass(context, ad.AutoDiffXd(body.default_mass(), mass))
        out[name] = {}
        for q, f in _quantities(m, ad).items():
            r = np.asarray(f(plant_ad, context))
            r = r.reshape(-1, 1) if r.ndim == 1 else r
            out[name][q] = (ad.ExtractValue(r), ad.ExtractGradient(r))
    return out


@pytest.mark.parametrize("quantity", sorted(_quantities(*LIBRARIES["mallard"])))
def test_values_and_gradients_match_pydrake(results, quantity):
    for ours, theirs, what in zip(
        results["mallard"][quantity],
        results["pydrake"][quantity],
        ("value", "gradient"),
        strict=True,
    ):
        assert ours.shape == theirs.shape, what
        if what == "gradient":  # x (nq + nv = 79) and the mass seeded; some entries move
            assert theirs.shape[1] == 80 and np.abs(theirs).max() > 0
        scale = max(1.0, np.abs(theirs).max())
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10 * scale, err_msg=what)
