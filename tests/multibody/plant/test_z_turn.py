"""plant._topology.z_turn: the turned frame a revolute mobilizer rotates about (its z axis)."""

import numpy as np
import pytest

from mallard.math import RotationMatrix
from mallard.multibody.plant._topology import z_axis_rotations, z_turn, z_turns

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


def test_z_axis_rotations_are_make_from_one_vector_to_the_bit():
    """_topology.z_axis_rotations (the mobilizer frames' R_FM, all at once) gives the floats
    of RotationMatrix.MakeFromOneVector(u, 2) for each u, and its error for a zero u."""
    rng = np.random.default_rng(3)
    u = rng.normal(size=(500, 3))
    u[:250] /= np.linalg.norm(u[:250], axis=1)[:, None]
    u = np.vstack((u, [[0.0, 0.0, 1.0], [-0.0, 0.6, -0.8], [0.6, 0.8, 0.0], [1e-9, 0.0, 1.0]]))
    expected = np.array([RotationMatrix.MakeFromOneVector(u_k, 2).matrix() for u_k in u])
    assert z_axis_rotations(u).tobytes() == expected.tobytes()
    with pytest.raises(RuntimeError, match="cannot be made a unit vector"):
        z_axis_rotations(np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]))


def test_z_turns_of_many_axes_are_those_of_one_at_a_time():
    rng = np.random.default_rng(4)
    axes = rng.normal(size=(300, 3))
    axes /= np.linalg.norm(axes, axis=1)[:, None]
    assert z_turns(axes).tobytes() == np.array([z_turn(a.tolist()) for a in axes]).tobytes()
