"""Shift, composition, dot and Rotate: rigid-body closed forms and identities."""

import numpy as np
import pytest

from mallard.multibody.math import (
    SpatialAcceleration,
    SpatialForce,
    SpatialMomentum,
    SpatialVelocity,
)
from tests.dual import Dual

rng = np.random.default_rng(7)


def rand6(cls):
    return cls(rng.normal(size=6))


def skew(w):
    return np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])


def rot_x(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rot_z(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


# ---------------------------------------------------------------------------------------------
# Shift: closed forms.


def test_velocity_shift_spinning_disk():
    # A disk spinning at rate 2 about z, its center Bo moving at (1, 0, 0): the rim point C at
    # p_BoCo = (0.5, 0, 0) moves at v + w × p = (1, 1, 0).
    V_MB = SpatialVelocity(w=[0, 0, 2], v=[1, 0, 0])
    V_MC = V_MB.Shift(offset=[0.5, 0, 0])
    np.testing.assert_array_equal(V_MC.rotational(), [0, 0, 2])
    np.testing.assert_array_equal(V_MC.translational(), [1, 1, 0])
    # A point on the axis moves with the center; Shift does not modify this.
    np.testing.assert_array_equal(V_MB.Shift([0, 0, 3]).get_coeffs(), [0, 0, 2, 1, 0, 0])
    np.testing.assert_array_equal(V_MB.get_coeffs(), [0, 0, 2, 1, 0, 0])


def test_force_shift_is_moment_of_force():
    # Weight m g acting at P; about Q = P + (1, 0, 0) the moment is r_QP × f = (0, -m g, 0).
    m_g = 9.81 * 2
    F_P = SpatialForce(tau=[0, 0, 0], f=[0, 0, -m_g])
    F_Q = F_P.Shift(offset=[1, 0, 0])
    np.testing.assert_allclose(F_Q.rotational(), [0, -m_g, 0], atol=1e-15)
    np.testing.assert_array_equal(F_Q.translational(), [0, 0, -m_g])


def test_momentum_shift_particle():
    # A particle of mass m at P moving with velocity v: L about P = [0; m v], and about Q the
    # angular momentum is p_QP × m v = -p_PQ × m v.
    m, v, p_PQ = 3.0, np.array([1.0, 2.0, -1.0]), np.array([0.5, -2.0, 1.5])
    L_Q = SpatialMomentum(h=np.zeros(3), l=m * v).Shift(offset=p_PQ)
    np.testing.assert_allclose(L_Q.rotational(), np.cross(-p_PQ, m * v), atol=1e-14)
    np.testing.assert_array_equal(L_Q.translational(), m * v)


def test_acceleration_shift_centripetal_and_tangential():
    # Rotation about z at rate w with angular acceleration alpha, origin Bo fixed: the point at
    # radius r on x has tangential acceleration alpha r (y) and centripetal -w² r (x).
    w, alpha, r = 3.0, 0.5, 2.0
    A_MB = SpatialAcceleration(alpha=[0, 0, alpha], a=[0, 0, 0])
    A_MC = A_MB.Shift(offset=[r, 0, 0], angular_velocity_of_this_frame=[0, 0, w])
    np.testing.assert_allclose(A_MC.get_coeffs(), [0, 0, alpha, -(w**2) * r, alpha * r, 0])
    np.testing.assert_allclose(
        A_MB.ShiftWithZeroAngularVelocity(offset=[r, 0, 0]).get_coeffs(),
        [0, 0, alpha, 0, alpha * r, 0],
    )


def test_acceleration_shift_with_zero_angular_velocity_matches_shift():
    A, p = rand6(SpatialAcceleration), rng.normal(size=3)
    np.testing.assert_allclose(
        A.ShiftWithZeroAngularVelocity(p).get_coeffs(), A.Shift(p, np.zeros(3)).get_coeffs()
    )


def test_acceleration_shift_matches_finite_difference_of_velocity_shift():
    # Frame B spins about a fixed axis u with w(t) = (w0 + alpha0 t) u while Bo accelerates
    # uniformly; C is fixed to B, so A_MC = d/dt V_MB(t).Shift(R_MB(t) p_BoCo_B).
    u = np.array([0.3, -1.2, 0.7]) / np.linalg.norm([0.3, -1.2, 0.7])
    w0, alpha0 = 1.4, 0.6
    v0, a_MBo = np.array([1.0, -0.5, 0.2]), np.array([0.1, 0.2, -0.3])
    p_BoCo_B = np.array([0.4, 1.1, -0.8])

    def R_MB(t):
        angle = w0 * t + 0.5 * alpha0 * t**2
        return (
            np.cos(angle) * np.eye(3)
            + np.sin(angle) * skew(u)
            + (1 - np.cos(angle)) * np.outer(u, u)
        )

    def V_MC(t):
        return SpatialVelocity((w0 + alpha0 * t) * u, v0 + a_MBo * t).Shift(R_MB(t) @ p_BoCo_B)

    t, h = 0.7, 1e-5
    fd = (V_MC(t + h).get_coeffs() - V_MC(t - h).get_coeffs()) / (2 * h)
    A_MC = SpatialAcceleration(alpha0 * u, a_MBo).Shift(
        offset=R_MB(t) @ p_BoCo_B, angular_velocity_of_this_frame=(w0 + alpha0 * t) * u
    )
    np.testing.assert_allclose(A_MC.get_coeffs(), fd, atol=1e-8)


def test_shift_errors():
    V, A = rand6(SpatialVelocity), rand6(SpatialAcceleration)
    for call in (
        lambda: V.Shift([1, 2]),
        lambda: rand6(SpatialForce).Shift(np.ones(4)),
        lambda: rand6(SpatialMomentum).Shift("abc"),
        lambda: A.Shift([1, 2, 3], [1, 2]),
        lambda: A.ShiftWithZeroAngularVelocity(np.ones((3, 3))),
    ):
        with pytest.raises(TypeError, match="must be a 3-vector"):
            call()
    with pytest.raises(TypeError):
        A.Shift([1, 2, 3])


def test_shift_with_dual_offset_gives_derivative():
    # d/ds of V.Shift(s·e) is w × e: forward-mode duals propagate through Shift.
    V, e = rand6(SpatialVelocity), np.array([0.2, -1.0, 0.5])
    p = np.array([Dual(0.0, ei) for ei in e], dtype=object)
    shifted = V.Shift(p).get_coeffs()
    assert shifted.dtype == object
    np.testing.assert_allclose([x.b for x in shifted[3:]], np.cross(V.rotational(), e))
    np.testing.assert_allclose([x.a for x in shifted[3:]], V.translational())


# ---------------------------------------------------------------------------------------------
# Composition with a moving frame, checked against finite differences of an analytic motion:
# B rotates in M about z by θ1(t) with origin path p_MoBo(t); C rotates in B about x by θ2(t)
# with origin path p_BoCo_B(t). Everything is expressed in E = M.


def th1(t):
    return 0.3 * t + 0.2 * t**2, 0.3 + 0.4 * t, 0.4


def th2(t):
    return np.sin(1.3 * t), 1.3 * np.cos(1.3 * t), -1.69 * np.sin(1.3 * t)


def p_MoBo(t):
    return (
        np.array([np.sin(t), t**2, np.cos(2 * t)]),
        np.array([np.cos(t), 2 * t, -2 * np.sin(2 * t)]),
        np.array([-np.sin(t), 2.0, -4 * np.cos(2 * t)]),
    )


def p_BoCo_B(t):
    return (
        np.array([t, t**3, np.sin(t)]),
        np.array([1.0, 3 * t**2, np.cos(t)]),
        np.array([0.0, 6 * t, -np.sin(t)]),
    )


def motion(t):
    """Inputs of the compositions at time t, plus the pose of C in M."""
    q1, q1d, q1dd = th1(t)
    q2, q2d, q2dd = th2(t)
    p_B, v_B, a_B = p_MoBo(t)
    p_C, v_C, a_C = p_BoCo_B(t)
    R_MB = rot_z(q1)
    z, x = np.array([0, 0, 1.0]), np.array([1.0, 0, 0])
    return dict(
        R_MC=R_MB @ rot_x(q2),
        p_MoCo=p_B + R_MB @ p_C,
        p_BoCo_M=R_MB @ p_C,
        w_MB=q1d * z,
        V_MB=SpatialVelocity(q1d * z, v_B),
        A_MB=SpatialAcceleration(q1dd * z, a_B),
        V_BC=SpatialVelocity(R_MB @ (q2d * x), R_MB @ v_C),
        A_BC=SpatialAcceleration(R_MB @ (q2dd * x), R_MB @ a_C),
    )


def composed_velocity(t):
    m = motion(t)
    return m["V_MB"].ComposeWithMovingFrameVelocity(m["p_BoCo_M"], m["V_BC"])


def test_compose_velocity_matches_finite_differences():
    t, h = 0.9, 1e-6
    plus, minus, m = motion(t + h), motion(t - h), motion(t)
    w_skew = (plus["R_MC"] - minus["R_MC"]) / (2 * h) @ m["R_MC"].T
    w_fd = np.array([w_skew[2, 1], w_skew[0, 2], w_skew[1, 0]])
    v_fd = (plus["p_MoCo"] - minus["p_MoCo"]) / (2 * h)
    V_MC = composed_velocity(t)
    np.testing.assert_allclose(V_MC.rotational(), w_fd, atol=1e-8)
    np.testing.assert_allclose(V_MC.translational(), v_fd, atol=1e-8)


def test_compose_acceleration_matches_finite_differences():
    t, h = 0.9, 1e-5
    fd = (composed_velocity(t + h).get_coeffs() - composed_velocity(t - h).get_coeffs()) / (2 * h)
    m = motion(t)
    A_MC = m["A_MB"].ComposeWithMovingFrameAcceleration(
        position_of_moving_frame=m["p_BoCo_M"],
        angular_velocity_of_this_frame=m["w_MB"],
        velocity_of_moving_frame=m["V_BC"],
        acceleration_of_moving_frame=m["A_BC"],
    )
    np.testing.assert_allclose(A_MC.get_coeffs(), fd, atol=1e-8)


def test_compose_with_rigidly_fixed_frame_is_shift():
    V, A, p = rand6(SpatialVelocity), rand6(SpatialAcceleration), rng.normal(size=3)
    w = V.rotational()
    np.testing.assert_allclose(
        V.ComposeWithMovingFrameVelocity(p, SpatialVelocity.Zero()).get_coeffs(),
        V.Shift(p).get_coeffs(),
    )
    np.testing.assert_allclose(
        A.ComposeWithMovingFrameAcceleration(
            p, w, SpatialVelocity.Zero(), SpatialAcceleration.Zero()
        ).get_coeffs(),
        A.Shift(p, w).get_coeffs(),
    )


def test_compose_then_shift_consistency():
    # Composing to C and then shifting to a point D fixed to C equals composing directly to D
    # with D's velocity in B (V_BC shifted to D in the frame C that carries it).
    V_MB, V_BC = rand6(SpatialVelocity), rand6(SpatialVelocity)
    p_BoCo, p_CoDo = rng.normal(size=3), rng.normal(size=3)
    via_C = V_MB.ComposeWithMovingFrameVelocity(p_BoCo, V_BC).Shift(p_CoDo)
    direct = V_MB.ComposeWithMovingFrameVelocity(p_BoCo + p_CoDo, V_BC.Shift(p_CoDo))
    np.testing.assert_allclose(via_C.get_coeffs(), direct.get_coeffs(), atol=1e-14)


def test_compose_errors():
    V, A = rand6(SpatialVelocity), rand6(SpatialAcceleration)
    with pytest.raises(TypeError, match="velocity_of_moving_frame must be a SpatialVelocity"):
        V.ComposeWithMovingFrameVelocity(np.zeros(3), A)
    with pytest.raises(TypeError, match="position_of_moving_frame must be a 3-vector"):
        V.ComposeWithMovingFrameVelocity(np.zeros(2), V)
    with pytest.raises(TypeError, match="acceleration_of_moving_frame must be a Spatial"):
        A.ComposeWithMovingFrameAcceleration(np.zeros(3), np.zeros(3), V, V)
    with pytest.raises(TypeError, match="velocity_of_moving_frame must be a SpatialVelocity"):
        A.ComposeWithMovingFrameAcceleration(np.zeros(3), np.zeros(3), A, A)
    with pytest.raises(TypeError, match="angular_velocity_of_this_frame must be a 3-vector"):
        A.ComposeWithMovingFrameAcceleration(np.zeros(3), np.zeros(4), V, A)


# ---------------------------------------------------------------------------------------------
# dot: power and kinetic energy.


def test_dot_values_and_operators():
    V, F = SpatialVelocity([1, 2, 3, 4, 5, 6]), SpatialForce([1, 0, 2, 0, 3, 1])
    L = SpatialMomentum([1, 1, 1, 2, 2, 2])
    for result in (V.dot(F), V.dot(force=F), F.dot(V), F.dot(velocity=V), V @ F, F @ V):
        assert type(result) is float and result == 28.0
    for result in (V.dot(L), V.dot(momentum=L), L.dot(velocity=V), V @ L, L @ V):
        assert type(result) is float and result == 36.0


def test_power_is_invariant_under_shift():
    # The power of a force is the same whichever point of the body both are shifted to.
    V_P, F_P, p_PQ = rand6(SpatialVelocity), rand6(SpatialForce), rng.normal(size=3)
    assert V_P.Shift(p_PQ).dot(F_P.Shift(p_PQ)) == pytest.approx(V_P.dot(F_P), rel=1e-13)


def test_kinetic_energy_of_rigid_body():
    # L_Bcm = [I w; m v]: V·L = wᵀ I w + m v·v = 2 KE, and the same about any other point.
    m, I = 2.5, np.diag([0.3, 0.5, 0.7])
    w, v = np.array([0.2, -1.0, 0.4]), np.array([1.0, 2.0, -0.5])
    V, L = SpatialVelocity(w, v), SpatialMomentum(I @ w, m * v)
    two_ke = w @ I @ w + m * v @ v
    assert V.dot(L) == pytest.approx(two_ke, rel=1e-14)
    p = np.array([0.3, -0.2, 1.1])
    assert V.Shift(p).dot(L.Shift(p)) == pytest.approx(two_ke, rel=1e-14)


def test_dot_errors():
    V, F, L, A = (
        rand6(c) for c in (SpatialVelocity, SpatialForce, SpatialMomentum, SpatialAcceleration)
    )
    for call, match in (
        (lambda: V.dot(V), "argument must be a SpatialForce or SpatialMomentum"),
        (lambda: V.dot(force=L), "force must be a SpatialForce"),
        (lambda: V.dot(momentum=F), "momentum must be a SpatialMomentum"),
        (lambda: V.dot(F, force=F), "exactly one"),
        (lambda: V.dot(), "exactly one"),
        (lambda: F.dot(F), "velocity must be a SpatialVelocity"),
        (lambda: L.dot(A), "velocity must be a SpatialVelocity"),
        (lambda: V @ A, "unsupported operand"),
        (lambda: F @ L, "unsupported operand"),
        (lambda: L @ L, "unsupported operand"),
    ):
        with pytest.raises(TypeError, match=match):
            call()
    assert not hasattr(A, "dot")


# ---------------------------------------------------------------------------------------------
# Rotate (re-expression). Needs mallard.math.RotationMatrix.


@pytest.fixture
def RotationMatrix():
    module = pytest.importorskip("mallard.math")
    if not hasattr(module, "RotationMatrix"):
        pytest.skip("mallard.math.RotationMatrix not available")
    return module.RotationMatrix


@pytest.mark.parametrize(
    "cls", [SpatialVelocity, SpatialAcceleration, SpatialForce, SpatialMomentum]
)
def test_rotate_quarter_turn(RotationMatrix, cls):
    # A quarter turn about z maps x to y and y to -x, in both halves.
    R_FE = RotationMatrix(rot_z(np.pi / 2))
    x_F = cls([1, 2, 3, 4, 5, 6]).Rotate(R_FE=R_FE)
    assert type(x_F) is cls
    np.testing.assert_allclose(x_F.get_coeffs(), [-2, 1, 3, -5, 4, 6], atol=1e-15)


def test_rotate_preserves_power_and_commutes_with_shift(RotationMatrix):
    R = rot_z(0.4) @ rot_x(-1.1)
    R_FE = RotationMatrix(R)
    V_E, F_E, p_E = rand6(SpatialVelocity), rand6(SpatialForce), rng.normal(size=3)
    assert V_E.Rotate(R_FE).dot(F_E.Rotate(R_FE)) == pytest.approx(V_E.dot(F_E), rel=1e-13)
    np.testing.assert_allclose(
        V_E.Shift(p_E).Rotate(R_FE).get_coeffs(),
        V_E.Rotate(R_FE).Shift(R @ p_E).get_coeffs(),
        atol=1e-14,
    )


def test_rotate_errors(RotationMatrix):
    V = rand6(SpatialVelocity)
    with pytest.raises(TypeError, match="R_FE must be a RotationMatrix"):
        V.Rotate(np.eye(3))
    # As in pydrake, `R @ V` is not an operation: re-expression is spelled V.Rotate(R).
    with pytest.raises(TypeError):
        RotationMatrix(np.eye(3)) @ V
