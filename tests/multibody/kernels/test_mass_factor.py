"""kernels.mass_factor: M = Lᵀ·L by the tree's sparsity (no fill outside the ancestor
pattern), restricted to the free dofs, solves and inverts the restricted system and leaves the
others zero; compiled and interpreted alike."""

import numpy as np
import pytest

from mallard._compiled import compiled
from mallard.multibody._joint_types import BALL_RPY, QUATERNION_FLOATING, REVOLUTE, WELD
from mallard.multibody._kernels import mass_factor
from mallard.multibody._kernels.mobilizers import NUM_VELOCITIES
from mallard.multibody._layout import JTYPE, PARENT, V_START, Model
from mallard.multibody.plant._engine import _dof_parent


def _random_tree(rng, n=14):
    """A Model of n mobods (World included) numbered depth first, a quaternion floating root
    and random branches of welds, revolute and ball joints; and each dof's ancestors' mask
    (A[i, j]: j ⪯ i)."""
    parent = [0, 0]
    for k in range(2, n):
        # (depth first: the parent is the previous mobod or one of its ancestors)
        p = k - 1
        while p > 1 and rng.random() < 0.4:
            p = parent[p]
        parent.append(p)
    types = [WELD, QUATERNION_FLOATING] + list(rng.choice([WELD, REVOLUTE, BALL_RPY], n - 2))
    tree = np.zeros((n, 6), dtype=np.int64)
    nv = 0
    for k in range(1, n):
        tree[k, PARENT], tree[k, JTYPE], tree[k, V_START] = parent[k], types[k], nv
        nv += NUM_VELOCITIES[types[k]]
    v_end = np.zeros(n, dtype=np.int64)
    for k in range(n - 1, 0, -1):
        v_end[k] = max(v_end[k], tree[k, V_START] + NUM_VELOCITIES[types[k]])
        v_end[parent[k]] = max(v_end[parent[k]], v_end[k])
    A = np.zeros((nv, nv), dtype=bool)
    for k in range(1, n):
        for i in range(tree[k, V_START], tree[k, V_START] + NUM_VELOCITIES[types[k]]):
            A[i, tree[k, V_START] : i + 1] = True
            a = parent[k]
            while a > 0:
                s = tree[a, V_START]
                A[i, s : s + NUM_VELOCITIES[types[a]]] = True
                a = parent[a]
    # λ(i): the nearest of i's strict ancestors (its highest-numbered one), −1 for none.
    dof_parent = np.array([max(np.flatnonzero(A[i, :i]), default=-1) for i in range(nv)])
    assert _dof_parent(tree, nv).tolist() == dof_parent.tolist()  # (the plant's table, at Finalize)
    empty = np.zeros(0, dtype=np.int64)
    ones = np.ones(n, np.int64)
    model = Model(n, nv + 1, nv, 0, tree, np.zeros((n, 4)), empty, ones, v_end, dof_parent)
    return model, A


def _tree_spd(rng, A):
    """A symmetric positive definite matrix with the pattern of a tree's mass matrix: Rᵀ·R, R
    lower triangular on the ancestors' mask A."""
    R = np.where(A, rng.normal(size=A.shape), 0.0)
    R[np.diag_indices_from(R)] = rng.uniform(1.0, 2.0, size=A.shape[0])
    return R.T @ R


@pytest.mark.parametrize("interpreted", [False, True])
def test_factor_solve_and_inverse_on_the_free_dofs(interpreted):
    rng = np.random.default_rng(4)
    kernels = (mass_factor.factor, mass_factor.solve, mass_factor.inverse)
    factor, solve, inverse = kernels if interpreted else [compiled(f) for f in kernels]
    for trial in range(6):
        model, A = _random_tree(rng)
        M = _tree_spd(rng, A)
        nv = M.shape[0]
        outside = ~(A | A.T)
        assert not M[outside].any() and not outside[np.tril_indices(nv)].all()
        free = np.ones(nv)
        free[rng.choice(nv, size=trial % 3, replace=False)] = 0.0
        kept = free != 0
        L = np.full((nv, nv), np.nan)
        assert factor(model, M, free, L)
        assert np.isnan(L[~A]).all()  # (nothing written outside the pattern: no fill)
        L = np.where(A, L, 0.0)
        restricted = np.where(np.outer(kept, kept), M, 0.0) + np.diag(~kept)
        np.testing.assert_allclose(L.T @ L, restricted, rtol=1e-12, atol=1e-12)
        B = rng.normal(size=(nv, 3))
        x = B.copy()
        solve(model, L, free, x, -1.0)
        expected = -np.linalg.solve(M[np.ix_(kept, kept)], B[kept])
        np.testing.assert_allclose(x[kept], expected, rtol=1e-10, atol=1e-12)
        assert not x[~kept].any()
        Minv = np.full((nv, nv), np.nan)
        inverse(model, L, free, Minv)
        expected = np.zeros((nv, nv))
        expected[np.ix_(kept, kept)] = np.linalg.inv(M[np.ix_(kept, kept)])
        np.testing.assert_allclose(Minv, expected, rtol=1e-10, atol=1e-12)
        assert not Minv[~kept].any() and not Minv[:, ~kept].any()


def test_not_positive_definite():
    rng = np.random.default_rng(5)
    model, A = _random_tree(rng)
    M = _tree_spd(rng, A)
    nv = M.shape[0]
    M[nv - 1, nv - 1] = -1.0
    assert not compiled(mass_factor.factor)(model, M, np.ones(nv), np.zeros((nv, nv)))
