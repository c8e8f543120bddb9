"""kernels.dynamics' products by a rigid body's articulated inertia (a leaf mobod's, in the
articulated body algorithm): without the products by its zeros (B = [h]×'s diagonal, C = m·E's
off-diagonal terms), the same values as the general 21-term forms, compiled and interpreted."""

import numba
import numpy as np

from mallard._compiled import kernels
from mallard.multibody._kernels import dynamics
from mallard.multibody._kernels.dynamics import (
    _articulated_times,
    _one_dof_column,
    _rigid_articulated,
    _shift_articulated,
    _shift_rigid,
)

from .kernel_cases import CASES, ByMode


@numba.njit
def _compiled_forms(m, h, I, x, p, z):
    Pa = _rigid_articulated(m, h, I)
    w0 = (x[0], x[1], x[2], 0.0, 0.0, 0.0)
    v0 = (0.0, 0.0, 0.0, x[3], x[4], x[5])
    return (
        (_articulated_times(Pa, x, True), _articulated_times(Pa, x, False)),
        (_one_dof_column(Pa, w0, z, 3, True), _one_dof_column(Pa, w0, z, 3, False)),
        (_one_dof_column(Pa, v0, z, 0, True), _one_dof_column(Pa, v0, z, 0, False)),
        (_one_dof_column(Pa, x, z, -1, True), _one_dof_column(Pa, x, z, -1, False)),
        (_shift_rigid(Pa, p), _shift_articulated(Pa, p)),
    )


def _interpreted_forms(m, h, I, x, p, z):
    return _compiled_forms.py_func(m, h, I, x, p, z)


def _flat(result):
    """A tuple of numbers and tuples, as one array."""
    if isinstance(result, tuple):
        return np.concatenate([_flat(r) for r in result])
    return np.array([result], dtype=float)


def test_rigid_forms_equal_the_general_ones():
    """U = Pa·H of each one-dof column kind, Pa·c and the shift Φᵀ·Pa·Φ of a rigid body's Pa:
    the rigid forms' values are the general forms' (np.array_equal: all but a zero's sign)."""
    rng = np.random.default_rng(11)
    for _ in range(200):
        m = rng.uniform(0.1, 5.0)
        h = m * rng.normal(scale=0.3, size=3)
        G = rng.normal(size=(3, 3))
        S = m * (G @ G.T + np.eye(3))
        I = (S[0, 0], S[1, 1], S[2, 2], S[0, 1], S[0, 2], S[1, 2])  # (body_inertia's 6-tuple)
        x, z = tuple(rng.normal(size=6)), tuple(rng.normal(size=6))
        p = tuple(rng.normal(size=3) * rng.choice([1e-3, 1.0, 1e3]))
        for forms in (_compiled_forms, _interpreted_forms):
            for rigid, general in forms(m, h, I, x, p, z):
                assert np.array_equal(_flat(rigid), _flat(general))


def test_p_formed_by_the_first_child_equals_p_stored(monkeypatch):
    """P[k]'s rigid part formed by the first of k's children the tip-to-base sweep takes
    (trees of up to dynamics._FORMED_BY_CHILD mobods) or stored by articulated_own (larger
    trees; here the bound lowered): the same workspace after the forward dynamics, to the bit
    (interpreted). (A mobod of several children: the G1's rows, docs/performance_history.md,
    helper T8.)"""
    workspaces = []
    for bound in (dynamics._FORMED_BY_CHILD, 0):
        monkeypatch.setattr(dynamics, "_FORMED_BY_CHILD", bound)
        args = CASES["drive_forward_dynamics"](np.random.default_rng(3))
        args = [a.interpreted if isinstance(a, ByMode) else a for a in args]
        args = [a.astype(object) if isinstance(a, np.ndarray) else a for a in args]
        assert kernels(object).drive_forward_dynamics(*args) < 0
        workspaces.append(args[3].astype(float))
    np.testing.assert_array_equal(workspaces[0], workspaces[1])
