"""The position kinematics' fast paths against the general formulas: revolute mobilizers about
each signed coordinate axis (X_WM = X_WF·X_FM with calc_X_FM's rotation), and the skipped
products of identity X_PF rotations and X_MB poses (the same poses as computing them)."""

from types import SimpleNamespace

import numpy as np
import pytest

from mallard._compiled import compiled
from mallard.multibody._joint_types import REVOLUTE
from mallard.multibody._kernels import kinematics as kin
from mallard.multibody._kernels.mobilizers import NUM_VELOCITIES, calc_X_FM
from mallard.multibody._layout import (
    JTYPE,
    PARAMETERS,
    PARENT,
    R_PF_IDENTITY,
    V_START,
    WORKSPACE,
    X_MB_IDENTITY,
    Model,
    model_sizes,
)

from .kernel_cases import _rotation_pose


def _random_pose(rng):
    Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    X = np.empty((4, 3))
    X[:3] = Q * np.sign(np.linalg.det(Q))
    X[3] = rng.normal(size=3)
    return X


@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("sign", [1.0, -1.0])
@pytest.mark.parametrize("reversed_joint", [False, True])
@pytest.mark.parametrize("run", [kin._revolute_X_WM, compiled(kin._revolute_X_WM)])
def test_revolute_about_each_signed_axis(axis, sign, reversed_joint, run):
    rng = np.random.default_rng(axis)
    X_WF = _random_pose(rng)
    jparam = np.zeros(4)
    jparam[axis] = sign
    theta = 0.83
    R_FM, p_FM = np.empty((3, 3)), np.empty(3)
    calc_X_FM(REVOLUTE, jparam, np.array([theta]), R_FM, p_FM)
    if reversed_joint:
        R_FM = R_FM.T
    T = run(tuple(X_WF.ravel()), np.cos(theta), np.sin(theta), jparam, reversed_joint)
    X_WM = np.array(T).reshape(4, 3)
    np.testing.assert_allclose(X_WM[:3], X_WF[:3] @ R_FM, atol=1e-15)
    np.testing.assert_array_equal(X_WM[3], X_WF[3])


def _sample_tree(rng):
    """A 5-mobod tree (World, revolute, reversed universal, quaternion floating, screw) with
    random frame offsets and state: (model, params, work, q) of kernels.kinematics. The screw's
    X_PF is a translation and its X_MB the identity (flagged in X_kind)."""
    tree = np.array(
        [
            [0, 0, 0, 0, 0, 0],
            [0, 1, 0, 0, 0, 1],
            [1, 4, 1, 1, 1, 2],
            [0, 8, 3, 3, 0, 3],
            [3, 3, 10, 9, 0, 4],
        ],
        dtype=np.int64,
    )
    jparam = np.zeros((5, 4))
    jparam[1, :3] = [0.0, -1.0, 0.0]  # a revolute mobilizer turns about ±e_i
    jparam[4] = [0.48, 0.6, 0.64, 0.3]
    sizes = model_sizes(5, 11, 10, 0)
    zeros = np.zeros(5, dtype=np.int64)
    unread = np.zeros(10, dtype=np.int64)  # (dof_parent: kinematics does not read it)
    model = Model(5, 11, 10, 0, tree, jparam, np.zeros(0, dtype=np.int64), zeros, zeros, unread)
    ws = np.zeros(sizes.ws)
    params, work = PARAMETERS.views(ws, sizes), WORKSPACE.views(ws, sizes)
    for layer in range(2):
        for k in range(5):
            params.X_PF_MB[layer, k] = _rotation_pose(rng)
    params.X_PF_MB[0, 4, :3] = np.eye(3)
    params.X_PF_MB[1, 4] = np.vstack((np.eye(3), np.zeros(3)))
    params.X_kind[4] = R_PF_IDENTITY | X_MB_IDENTITY
    work.X_pc[:, 0, :3] = np.eye(3)
    return model, params, work, rng.normal(size=11)


def _kinematics(compile_kernel, seed):
    """(a, run): the sample tree's model, params, work and q as attributes of ``a``, and
    run(what, tip=0), which sets X_pc's mobods and H_PB_W to NaN (so that what the call leaves
    alone shows), then calls calc_position_kinematics, compiled or interpreted, on them."""
    fn = compiled(kin.calc_position_kinematics) if compile_kernel else kin.calc_position_kinematics
    model, params, work, q = _sample_tree(np.random.default_rng(seed))
    a = SimpleNamespace(
        tree=model.tree, X_PF_MB=params.X_PF_MB, X_kind=params.X_kind, X_pc=work.X_pc,
        H_PB_W=work.H_PB_W,
    )  # fmt: skip

    def run(what, tip=0):
        a.X_pc[:, 1:] = np.nan
        a.H_PB_W[:] = np.nan
        fn(model, params, work, q, what, tip)

    return a, run


@pytest.mark.parametrize("compile_kernel", [False, True])
def test_identity_bits_skip_only_identity_products(compile_kernel):
    """With the bits set, a tree whose flagged poses are identities gives the poses and
    Jacobian columns it gives with no bits set (the products computed)."""
    a, run = _kinematics(compile_kernel, 3)
    for k in range(1, 5):
        a.X_PF_MB[0, k, :3] = np.eye(3)
        a.X_PF_MB[1, k] = np.vstack((np.eye(3), np.zeros(3)))
    results = []
    for bits in (0.0, float(R_PF_IDENTITY | X_MB_IDENTITY)):
        a.X_kind[1:] = bits
        run(kin.ALL)
        results.append((a.X_pc[1:].copy(), a.H_PB_W.copy()))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])


@pytest.mark.parametrize("compile_kernel", [False, True])
def test_poses_and_columns_are_those_of_the_full_computation(compile_kernel):
    """POSES computes X_WB (layer 3) as ALL does and leaves the other layers and the Jacobian
    columns alone; COLUMNS computes X_WB and the columns, and the joint frames' poses only of
    the joints whose columns come from a pass of their own (here the universal and the screw
    joints, mobods 2 and 4)."""
    a, run = _kinematics(compile_kernel, 4)
    run(kin.ALL)
    full, full_H = a.X_pc.copy(), a.H_PB_W.copy()
    run(kin.POSES)
    np.testing.assert_array_equal(a.X_pc[3], full[3])
    assert np.isnan(a.X_pc[1:3, 1:]).all() and np.isnan(a.H_PB_W).all()
    run(kin.COLUMNS)
    np.testing.assert_array_equal(a.X_pc[3], full[3])
    np.testing.assert_array_equal(a.H_PB_W, full_H)
    np.testing.assert_array_equal(a.X_pc[1:3, [2, 4]], full[1:3, [2, 4]])
    assert np.isnan(a.X_pc[1:3, [1, 3]]).all()


@pytest.mark.parametrize("compile_kernel", [False, True])
def test_dynamics_stores_what_the_acceleration_bias_reads(compile_kernel):
    """DYNAMICS computes X_WB and the columns as ALL does, and of the joint frames' poses
    only those calc_acceleration_bias reads: X_WF and X_WM of the joints outside the main
    loop (universal, screw: mobods 2, 4) and of the quaternion floating one (mobod 3), and
    X_WM's origin of the revolute one (mobod 1)."""
    a, run = _kinematics(compile_kernel, 6)
    run(kin.ALL)
    full, full_H = a.X_pc.copy(), a.H_PB_W.copy()
    run(kin.DYNAMICS)
    np.testing.assert_array_equal(a.X_pc[3], full[3])
    np.testing.assert_array_equal(a.H_PB_W, full_H)
    np.testing.assert_array_equal(a.X_pc[1:3, 2:5], full[1:3, 2:5])
    np.testing.assert_array_equal(a.X_pc[2, 1, 3], full[2, 1, 3])
    assert np.isnan(a.X_pc[1, 1]).all() and np.isnan(a.X_pc[2, 1, :3]).all()


@pytest.mark.parametrize("compile_kernel", [False, True])
@pytest.mark.parametrize("tip", [1, 2, 4])
def test_path_gives_the_path_of_the_full_computation(compile_kernel, tip):
    """With tip > 0, the poses and Jacobian columns of the tip and its ancestors are those of
    the full computation, and nothing else is written."""
    a, run = _kinematics(compile_kernel, 5)
    tree = a.tree
    run(kin.ALL)
    full_X, full_H = a.X_pc.copy(), a.H_PB_W.copy()
    run(kin.ALL, tip)
    path = []
    k = tip
    while k > 0:
        path.append(k)
        k = tree[k, PARENT]
    for k in range(1, tree.shape[0]):
        v = range(tree[k, V_START], tree[k, V_START] + NUM_VELOCITIES[tree[k, JTYPE]])
        if k in path:
            np.testing.assert_array_equal(a.X_pc[1:, k], full_X[1:, k])
            np.testing.assert_array_equal(a.H_PB_W[v], full_H[v])
        else:
            assert np.isnan(a.X_pc[1:, k]).all() and np.isnan(a.H_PB_W[v]).all()
