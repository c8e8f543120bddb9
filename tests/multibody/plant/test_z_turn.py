"""plant._topology.z_turn: the turned frame a revolute mobilizer rotates about (its z axis)."""

import numpy as np
import pytest

from mallard.multibody.plant._topology import z_turn

_AXES = [
    *(sign * np.eye(3)[i] for i in range(3) for sign in (1.0, -1.0)),
    np.array([0.0, 0.6, 0.8]),
    np.array([0.48, -0.6, 0.64]),
    np.array([1.0, 2.0, 2.0]) / 3.0,
]


@pytest.mark.parametrize("axis", _AXES, ids=lambda a: str(np.round(a, 2)))
def test_z_turn_is_a_rotation_taking_z_to_the_axis(axis):
    X_JZ = z_turn(axis)
    R = X_JZ[:3]
    np.testing.assert_array_equal(X_JZ[3], 0.0)
    np.testing.assert_allclose(R @ [0.0, 0.0, 1.0], axis, atol=1e-15)
    np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-15)
    assert np.linalg.det(R) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("axis", _AXES[:6], ids=lambda a: str(a))
def test_z_turn_of_a_coordinate_axis_is_a_signed_permutation(axis):
    R = z_turn(axis)[:3]
    assert set(np.abs(R).ravel()) == {0.0, 1.0}
    np.testing.assert_array_equal(np.abs(R).sum(axis=0), 1.0)
