"""BatchedPlant.Rollout against pydrake's Simulator on the Panda, whose rollouts run its model
with its four welded bodies merged into composites (mallard.multibody._welded_composites):
1 s of 1 ms steps from states near home, without its position limits (the free motion) and
with them (SAP's limit constraints), the mimic stripped (rollouts take no coupler). Measured:
3e-13 in q and 4e-12 in v without limits, 2e-13 and 3e-11 with them (asserted 1e-10 and
1e-9, 1e-9 and 1e-8, as tests/conformance/test_discrete_plant.py's Simulator runs)."""

import logging

import numpy as np
import pytest

import mallard.all as M
from mallard.multibody.batch import BatchedPlant
from tests.multibody.plant.discrete_helpers import PANDA_HOME, make_panda, panda_root

D = pytest.importorskip("pydrake.all")
needs_panda = pytest.mark.skipif(panda_root() is None, reason="example-robot-data missing")


def _pydrake_states(plant, q0, v0, steps, every):
    """pydrake's Simulator states of ``plant`` from (q0, v0) after every ``every``-th of
    ``steps`` steps."""
    context = plant.CreateDefaultContext()
    plant.SetPositions(context, q0)
    plant.SetVelocities(context, v0)
    simulator = D.Simulator(plant, context)
    simulator.Initialize()
    h, states = plant.time_step(), []
    for s in range(1, steps // every + 1):
        simulator.AdvanceTo(s * every * h)
        states.append(plant.GetPositionsAndVelocities(context).copy())
    return np.array(states)


@needs_panda
@pytest.mark.parametrize("limits", [False, True], ids=["free", "limits"])
def test_panda_rollouts_agree_with_pydrakes_simulator(limits):
    logging.disable(logging.WARNING)
    try:
        mallard, pydrake = (
            make_panda(m, 1e-3, strip_mimic=True, strip_limits=not limits) for m in (M, D)
        )
    finally:
        logging.disable(logging.NOTSET)
    rng = np.random.default_rng(21)
    q0 = PANDA_HOME + rng.uniform(-0.3, 0.3, (3, 9))
    v0 = rng.normal(size=(3, 9)) * 0.1
    X, status = BatchedPlant(mallard).Rollout(q0, v0, num_steps=1000, every=100,
                                              return_status=True)  # fmt: skip
    assert status.ok.all()
    tolerances = (1e-9, 1e-8) if limits else (1e-10, 1e-9)
    for i in range(3):
        expected = _pydrake_states(pydrake, q0[i], v0[i], 1000, 100)
        np.testing.assert_allclose(X[i, :, :9], expected[:, :9], rtol=0, atol=tolerances[0])
        np.testing.assert_allclose(X[i, :, 9:], expected[:, 9:], rtol=0, atol=tolerances[1])
    if limits:  # (it fell onto its limits)
        lower, upper = mallard.GetPositionLowerLimits()[:7], mallard.GetPositionUpperLimits()[:7]
        q = X[:, -1, :7]
        assert np.sum(np.isclose(q, lower, atol=1e-3) | np.isclose(q, upper, atol=1e-3)) >= 2
