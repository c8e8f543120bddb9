"""The lane width (_layout.lanes: eight float64 where numba compiles for AVX-512, else four)
changes no result: BatchedPlant's results and rollouts computed in a process whose kernels
numba compiles without AVX-512 (four lanes, ``NUMBA_CPU_FEATURES``) are this process's, bit
for bit."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mallard.models import MakeAcrobotPlant
from mallard.multibody._layout import lanes, lanes_of
from mallard.multibody.batch import BatchedPlant
from tests.multibody.test_batch import build_model, random_states
from tests.multibody.test_batch_rollout import (
    H_CONTINUOUS,
    H,
    _limited_chain,
    acrobot_states,
    free_body_plant,
    free_body_states,
)

ROOT = Path(__file__).resolve().parents[2]

#: States per batch: a group of eight and a part of one, or three groups of four and a part.
SIZE = 13


def test_the_width_is_eight_with_avx512_else_four():
    assert lanes_of("+avx2,+fma,+avx512f,+avx512dq") == 8
    assert lanes_of("+avx2,+fma,-avx512f,-avx512dq") == 4
    assert lanes_of("") == 4
    assert lanes() in (4, 8)


def results():
    """{name: array} of BatchedPlant's results on SIZE random states: body poses and mass
    matrices of a tree of every joint type (the outputs leave the lanes through
    lanes.transpose), and rollouts (discrete with actuation and a PD target, a free body's
    quaternion, joint limits through SAP, and a continuous plant's Runge-Kutta 3). (Every
    batched result is the single-state kernel's to the last bit, at this process's width:
    test_batch.py, test_batch_rollout.py.)"""
    found = {"lanes": np.array(lanes())}
    plant = build_model()
    batched = BatchedPlant(plant)
    q, _ = random_states(plant, SIZE)
    found["poses"] = batched.CalcAllBodyPosesInWorld(q)
    found["M"] = batched.CalcMassMatrix(q)
    rng = np.random.default_rng(2)
    acrobot = BatchedPlant(MakeAcrobotPlant(time_step=H))
    q0, v0 = acrobot_states(rng, SIZE)
    U = rng.normal(size=(SIZE, 30, 1))
    found["acrobot"] = acrobot.Rollout(q0, v0, U)
    gains = (np.array([30.0]), np.array([2.0]))
    target = rng.normal(size=(SIZE, 2))
    found["acrobot_pd"] = acrobot.Rollout(q0, v0, U, pd_target=target, pd_gains=gains)
    found["acrobot_rk3"] = BatchedPlant(MakeAcrobotPlant()).Rollout(
        q0, v0, U, time_step=H_CONTINUOUS, integrator="runge_kutta3"
    )
    q0, v0 = free_body_states(rng, SIZE)
    found["free_body"] = BatchedPlant(free_body_plant(H)).Rollout(q0, v0, num_steps=30)
    chain = _limited_chain(H)
    q0 = rng.uniform(-0.15, 0.25, (SIZE, 3))
    v0 = rng.normal(size=(SIZE, 3)) * 3.0
    found["limits"] = chain.Rollout(q0, v0, rng.normal(size=(SIZE, 80, 1)) * 5.0)
    return found


@pytest.mark.slow
def test_four_lanes_give_the_bits_of_eight(tmp_path):
    if lanes() != 8:
        pytest.skip("numba compiles for a CPU without AVX-512 here: four lanes only")
    import llvmlite.binding

    features = llvmlite.binding.get_host_cpu_features().flatten().replace("+avx512", "-avx512")
    path = tmp_path / "four.npz"
    script = (
        "import numpy as np; from tests.multibody.test_lane_width import results; "
        f"np.savez({str(path)!r}, **results())"
    )
    env = dict(os.environ, NUMBA_CPU_FEATURES=features, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, check=True)
    four, eight = dict(np.load(path)), results()
    assert four.pop("lanes") == 4 and eight.pop("lanes") == 8
    assert four.keys() == eight.keys()
    for name, value in eight.items():
        assert value.dtype == np.float64 and np.isfinite(value).all(), name
        assert np.array_equal(four[name].view(np.int64), value.view(np.int64)), name
