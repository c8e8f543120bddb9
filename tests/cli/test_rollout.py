"""``mallard rollout``: the chunk files hold BatchedPlant.Rollout's states of the seeded
samples, the same whatever the chunking; bad options and models the rollouts refuse exit
with one line."""

import numpy as np
import pytest

from mallard.cli._rollout import sample_states
from mallard.distributed import load_npz
from mallard.models import MakeAcrobotPlant
from mallard.multibody.batch import BatchedPlant
from tests.cli.conftest import ACROBOT_URDF, MIMIC_URDF


def _rollout(run, out, *options):
    return run("rollout", str(ACROBOT_URDF), "--duration", "0.03", "--out", str(out), *options)


def test_writes_the_rollouts_of_the_seeded_samples(run, tmp_path):
    result = _rollout(run, tmp_path / "a", "--n", "9", "--chunk-size", "4", "--every", "5")
    assert result.status == 0, result.err
    assert "9 rollouts × 30 steps of 0.001 s" in result.out and "3 chunk files" in result.out
    files = sorted((tmp_path / "a").iterdir())
    assert [f.name for f in files] == [f"chunk-{i:06d}.npz" for i in range(3)]
    data = load_npz(files)
    plant = MakeAcrobotPlant(time_step=1e-3)
    q0, v0 = sample_states(plant, 9, 0, 0.0)
    np.testing.assert_array_equal(data["q0"], q0)
    assert np.all(np.abs(q0) <= np.pi) and not np.any(v0)
    expected = BatchedPlant(plant).Rollout(q0, v0, num_steps=30, every=5)
    np.testing.assert_array_equal(data["x"], expected)  # (the URDF's acrobot is Drake's)
    assert data["ok"].all() and data["index"].tolist() == list(range(9))
    again = _rollout(run, tmp_path / "b", "--n", "9", "--every", "5", "--v-scale", "0")
    assert again.status == 0
    np.testing.assert_array_equal(load_npz(sorted((tmp_path / "b").iterdir()))["x"], data["x"])


def test_bad_options_and_refused_models_exit_with_one_line(run, tmp_path):
    result = _rollout(run, tmp_path, "--n", "0")
    assert result.status == 2 and "--n: invalid positive integer value: '0'" in result.err
    result = run("rollout", str(ACROBOT_URDF), "--n", "3")
    assert result.status == 2 and "--duration" in result.err
    mimic = tmp_path / "mimic.urdf"
    mimic.write_text(MIMIC_URDF)
    result = run("rollout", str(mimic), "--n", "2", "--duration", "0.01", "--out", str(tmp_path))
    assert result.status == 1
    assert len(result.err_lines) == 1 and "it has 1 constraint" in result.err


@pytest.mark.slow  # (a two-process LocalCluster)
def test_the_states_do_not_depend_on_the_chunking_or_the_cluster(run, tmp_path):
    """Each chunk draws its states (blocks of 256 seeded by [seed, block]), here or on the
    workers of --scheduler: the same files' contents whatever --chunk-size and wherever."""
    distributed = pytest.importorskip("distributed")
    options = ("--n", "600", "--every", "10", "--v-scale", "0.5", "--seed", "3")
    assert _rollout(run, tmp_path / "here", *options).status == 0
    here = load_npz(sorted((tmp_path / "here").iterdir()))
    plant = MakeAcrobotPlant(time_step=1e-3)
    q0, v0 = sample_states(plant, 600, 3, 0.5)
    np.testing.assert_array_equal(here["q0"], q0)
    np.testing.assert_array_equal(here["v0"], v0)
    assert np.any(v0) and not np.array_equal(q0[:256], q0[256:512])
    for few, many in zip(sample_states(plant, 9, 3, 0.5), (q0, v0), strict=True):
        np.testing.assert_array_equal(few, many[:9])  # (state i's whatever --n)
    expected = BatchedPlant(plant).Rollout(q0, v0, num_steps=30, every=10)
    np.testing.assert_array_equal(here["x"], expected)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        for chunk_size in ("100", "1024"):
            out = tmp_path / f"cluster-{chunk_size}"
            result = _rollout(
                run, out, *options, "--chunk-size", chunk_size, "--scheduler",
                cluster.scheduler_address,
            )  # fmt: skip
            assert result.status == 0, result.err
            there = load_npz(sorted(out.iterdir()))
            for name in ("index", "q0", "v0", "x", "ok"):
                np.testing.assert_array_equal(there[name], here[name])
