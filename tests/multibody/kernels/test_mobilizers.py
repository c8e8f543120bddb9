"""The mobilizer kernels against hand-derived poses, finite differences and identities, for every
joint type, compiled and interpreted (on object arrays of floats and of dual numbers)."""

import numpy as np
import pytest

from mallard._compiled import compiled
from mallard.multibody import _joint_types as jt
from mallard.multibody._kernels import mobilizers as mob
from tests.dual import Dual, derivatives, values

TYPES = {
    "weld": jt.WELD,
    "revolute": jt.REVOLUTE,
    "prismatic": jt.PRISMATIC,
    "screw": jt.SCREW,
    "universal": jt.UNIVERSAL,
    "planar": jt.PLANAR,
    "ball_rpy": jt.BALL_RPY,
    "rpy_floating": jt.RPY_FLOATING,
    "quaternion_floating": jt.QUATERNION_FLOATING,
}
SIZES = {
    jt.WELD: (0, 0),
    jt.REVOLUTE: (1, 1),
    jt.PRISMATIC: (1, 1),
    jt.SCREW: (1, 1),
    jt.UNIVERSAL: (2, 2),
    jt.PLANAR: (3, 3),
    jt.BALL_RPY: (3, 3),
    jt.RPY_FLOATING: (6, 6),
    jt.QUATERNION_FLOATING: (7, 6),
}
FUNCTIONS = [
    "calc_X_FM",
    "calc_H_FM",
    "calc_V_FM",
    "calc_A_FM_bias",
    "calc_tau_from_F",
    "calc_qdot_from_v",
    "calc_v_from_qdot",
    "calc_N",
    "calc_Nplus",
    "set_zero_configuration",
]


def Rx(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def Ry(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def Rz(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def vee(W):
    return np.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]]) / 2


def rodrigues(a, theta):
    K = skew(a)
    return np.eye(3) + np.sin(theta) * K + (1 - np.cos(theta)) * K @ K


def random_joint(jtype, rng):
    """(jparam, q, v) at a random state: a random unit axis, pitch, non-unit quaternion."""
    nq, nv = SIZES[jtype]
    jparam = np.zeros(4)
    if jtype in (jt.REVOLUTE, jt.PRISMATIC, jt.SCREW):
        axis = rng.normal(size=3)
        jparam[:3] = axis / np.linalg.norm(axis)
    if jtype == jt.SCREW:
        jparam[3] = rng.choice([-1, 1]) * rng.uniform(0.1, 2.0)
    q = rng.uniform(-2.5, 2.5, size=nq)
    if jtype in (jt.BALL_RPY, jt.RPY_FLOATING):
        q[1] = rng.uniform(-1.3, 1.3)  # away from the pitch = ±π/2 singularity of N(q)
    if jtype == jt.QUATERNION_FLOATING:
        q[:4] *= rng.uniform(0.3, 3.0) / np.linalg.norm(q[:4])
    return jparam, q, rng.normal(size=nv)


class Kernels:
    """Calls the mobilizer kernels compiled, or interpreted, returning fresh float arrays."""

    def __init__(self, mode):
        self.mode = mode

    def _out(self, name, shape, jtype, *args):
        out = np.full(shape, np.nan)
        if self.mode == "compiled":
            compiled(getattr(mob, name))(jtype, *args, out)
            return out
        obj = out.astype(object)
        getattr(mob, name)(jtype, *[a.astype(object) for a in args], obj)
        return obj.astype(float)

    def X_FM(self, jtype, jparam, q):
        R, p = np.full((3, 3), np.nan), np.full(3, np.nan)
        if self.mode == "compiled":
            compiled(mob.calc_X_FM)(jtype, jparam, q, R, p)
            return R, p
        Ro, po = R.astype(object), p.astype(object)
        mob.calc_X_FM(jtype, jparam.astype(object), q.astype(object), Ro, po)
        return Ro.astype(float), po.astype(float)

    def H_FM(self, jtype, jparam, q):
        return self._out("calc_H_FM", (6, SIZES[jtype][1]), jtype, jparam, q)

    def V_FM(self, jtype, jparam, q, v):
        return self._out("calc_V_FM", 6, jtype, jparam, q, v)

    def A_FM_bias(self, jtype, jparam, q, v):
        return self._out("calc_A_FM_bias", 6, jtype, jparam, q, v)

    def tau(self, jtype, jparam, q, F):
        return self._out("calc_tau_from_F", SIZES[jtype][1], jtype, jparam, q, F)

    def qdot(self, jtype, jparam, q, v):
        return self._out("calc_qdot_from_v", SIZES[jtype][0], jtype, jparam, q, v)

    def v(self, jtype, jparam, q, qdot):
        return self._out("calc_v_from_qdot", SIZES[jtype][1], jtype, jparam, q, qdot)

    def N(self, jtype, jparam, q):
        return self._out("calc_N", SIZES[jtype], jtype, jparam, q)

    def Nplus(self, jtype, jparam, q):
        return self._out("calc_Nplus", SIZES[jtype][::-1], jtype, jparam, q)


@pytest.fixture(params=["compiled", "interpreted"])
def k(request):
    return Kernels(request.param)


def test_sizes_and_codes():
    assert [getattr(jt, name.upper()) for name in TYPES] == list(range(9))
    for jtype, (nq, nv) in SIZES.items():
        assert (mob.NUM_POSITIONS[jtype], mob.NUM_VELOCITIES[jtype]) == (nq, nv)
        assert compiled(mob.num_positions)(jtype) == mob.num_positions(jtype) == nq
        assert compiled(mob.num_velocities)(jtype) == mob.num_velocities(jtype) == nv


@pytest.mark.parametrize("jtype", TYPES.values(), ids=TYPES.keys())
def test_zero_configuration_is_identity(jtype, k):
    nq = SIZES[jtype][0]
    q = np.full(nq, np.nan)
    if k.mode == "compiled":
        compiled(mob.set_zero_configuration)(jtype, q)
    else:
        q_obj = q.astype(object)
        mob.set_zero_configuration(jtype, q_obj)
        q = q_obj.astype(float)
    expected = np.zeros(nq)
    if jtype == jt.QUATERNION_FLOATING:
        expected[0] = 1.0
    np.testing.assert_array_equal(q, expected)
    R, p = k.X_FM(jtype, np.array([0.0, 0.0, 1.0, 0.3]), q)
    np.testing.assert_allclose(R, np.eye(3), atol=1e-15)
    np.testing.assert_allclose(p, np.zeros(3), atol=1e-15)


def test_hand_derived_poses(k):
    a = np.array([0.6, 0.0, 0.8])
    z = np.zeros(3)
    half_turn_about_a = 2 * np.outer(a, a) - np.eye(3)  # rotation by π about unit a
    quarter_z = np.array([[0.0, -1, 0], [1, 0, 0], [0, 0, 1]])
    r, p, y = 0.3, -1.1, 2.0
    u = np.array([1.0, -2.0, 2.0]) / 3
    theta = 0.8
    cases = [
        (jt.WELD, [0, 0, 0, 0], [], np.eye(3), z),
        (jt.REVOLUTE, [*a, 0], [np.pi], half_turn_about_a, z),
        (jt.REVOLUTE, [0, 0, 1, 0], [np.pi / 2], quarter_z, z),
        (jt.PRISMATIC, [*a, 0], [2.0], np.eye(3), [1.2, 0, 1.6]),
        # Half a turn of a screw with pitch 0.5 m/rev advances 0.25 m along the axis...
        (jt.SCREW, [0, 0, 1, 0.5], [np.pi], np.diag([-1.0, -1, 1]), [0, 0, 0.25]),
        # ...and with a negative pitch, a positive rotation moves toward −â.
        (jt.SCREW, [*a, -2.0], [np.pi], half_turn_about_a, -0.5 * 2.0 * a),
        (jt.UNIVERSAL, [0] * 4, [np.pi / 2, np.pi / 2], [[0, 0, 1], [1, 0, 0], [0, 1, 0]], z),
        (jt.UNIVERSAL, [0] * 4, [r, p], Rx(r) @ Ry(p), z),
        (jt.PLANAR, [0] * 4, [1.0, 2.0, np.pi / 2], quarter_z, [1, 2, 0]),
        (jt.BALL_RPY, [0] * 4, [r, p, y], Rz(y) @ Ry(p) @ Rx(r), z),
        (jt.BALL_RPY, [0] * 4, [0, 0, np.pi / 2], quarter_z, z),
        (jt.RPY_FLOATING, [0] * 4, [r, p, y, 4, 5, 6], Rz(y) @ Ry(p) @ Rx(r), [4, 5, 6]),
        # A quaternion of norm 2: R is that of the normalized quaternion.
        (
            jt.QUATERNION_FLOATING,
            [0] * 4,
            [2 * np.cos(theta / 2), *(2 * np.sin(theta / 2) * u), 7, 8, 9],
            rodrigues(u, theta),
            [7, 8, 9],
        ),
    ]
    for jtype, jparam, q, R_expected, p_expected in cases:
        R, p = k.X_FM(jtype, np.array(jparam, dtype=float), np.array(q, dtype=float))
        np.testing.assert_allclose(R, R_expected, atol=1e-14, err_msg=f"type {jtype}")
        np.testing.assert_allclose(p, p_expected, atol=1e-14, err_msg=f"type {jtype}")
        np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-14)


@pytest.mark.parametrize("jtype", TYPES.values(), ids=TYPES.keys())
def test_H_FM_is_the_derivative_of_X_FM(jtype, k):
    """w_FM = vee(Ṙ_FM·R_FMᵀ) and v_FMo = ṗ_FM along q̇ = N(q)·v equal H_FM·v = V_FM."""
    rng = np.random.default_rng(100 + jtype)
    h = 1e-6
    for _ in range(5):
        jparam, q, v = random_joint(jtype, rng)
        qdot = k.qdot(jtype, jparam, q, v)
        R, _ = k.X_FM(jtype, jparam, q)
        R_plus, p_plus = k.X_FM(jtype, jparam, q + h * qdot)
        R_minus, p_minus = k.X_FM(jtype, jparam, q - h * qdot)
        w_fd = vee((R_plus - R_minus) / (2 * h) @ R.T)
        v_fd = (p_plus - p_minus) / (2 * h)
        H = k.H_FM(jtype, jparam, q)
        V = k.V_FM(jtype, jparam, q, v)
        np.testing.assert_allclose(H @ v, np.r_[w_fd, v_fd], atol=1e-8)
        np.testing.assert_allclose(V, H @ v, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("jtype", TYPES.values(), ids=TYPES.keys())
def test_A_FM_bias_is_the_time_derivative_of_V_FM_at_constant_v(jtype, k):
    rng = np.random.default_rng(200 + jtype)
    h = 1e-5
    for _ in range(5):
        jparam, q, v = random_joint(jtype, rng)
        qdot = k.qdot(jtype, jparam, q, v)
        V_plus = k.V_FM(jtype, jparam, q + h * qdot, v)
        V_minus = k.V_FM(jtype, jparam, q - h * qdot, v)
        A = k.A_FM_bias(jtype, jparam, q, v)
        np.testing.assert_allclose(A, (V_plus - V_minus) / (2 * h), atol=1e-8)
        if jtype == jt.UNIVERSAL:
            assert np.linalg.norm(A) > 1e-3 * abs(v[0] * v[1])


@pytest.mark.parametrize("jtype", TYPES.values(), ids=TYPES.keys())
def test_N_and_Nplus(jtype, k):
    rng = np.random.default_rng(300 + jtype)
    nq, nv = SIZES[jtype]
    for _ in range(5):
        jparam, q, v = random_joint(jtype, rng)
        N, Nplus = k.N(jtype, jparam, q), k.Nplus(jtype, jparam, q)
        assert N.shape == (nq, nv) and Nplus.shape == (nv, nq)
        np.testing.assert_allclose(Nplus @ N, np.eye(nv), atol=1e-13)
        qdot = k.qdot(jtype, jparam, q, v)
        np.testing.assert_allclose(qdot, N @ v, rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(N @ Nplus @ qdot, qdot, atol=1e-13)
        np.testing.assert_allclose(k.v(jtype, jparam, q, qdot), v, atol=1e-13)
        qdot_any = rng.normal(size=nq)
        np.testing.assert_allclose(
            k.v(jtype, jparam, q, qdot_any), Nplus @ qdot_any, rtol=1e-13, atol=1e-14
        )


def test_quaternion_rates_for_a_non_unit_quaternion(k):
    """q̇ = ½·(0, w)⊗q with the raw q; N⁺ ignores the rate along q (a change of norm only)."""
    rng = np.random.default_rng(4)
    jtype = jt.QUATERNION_FLOATING
    jparam, q, v = random_joint(jtype, rng)
    q[:4] *= 2.7 / np.linalg.norm(q[:4])
    w = v[:3]
    s, u = q[0], q[1:4]
    expected = 0.5 * np.r_[-w @ u, s * w + np.cross(w, u)]
    qdot = k.qdot(jtype, jparam, q, v)
    np.testing.assert_allclose(qdot[:4], expected, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(qdot[4:], v[3:], rtol=1e-15)
    assert qdot[:4] @ q[:4] == pytest.approx(0.0, abs=1e-14)  # rates keep |q| constant
    np.testing.assert_allclose(
        k.v(jtype, jparam, q, np.r_[q[:4], 0, 0, 0]), np.zeros(6), atol=1e-15
    )


@pytest.mark.parametrize("jtype", TYPES.values(), ids=TYPES.keys())
def test_tau_from_F_is_the_transpose_of_H(jtype, k):
    """τ = H_FMᵀ·F, so the power τᵀv equals Fᵀ·(H_FM·v) = Fᵀ·V_FM."""
    rng = np.random.default_rng(400 + jtype)
    for _ in range(5):
        jparam, q, v = random_joint(jtype, rng)
        F = rng.normal(size=6)
        tau = k.tau(jtype, jparam, q, F)
        np.testing.assert_allclose(tau, k.H_FM(jtype, jparam, q).T @ F, rtol=1e-13, atol=1e-14)
        assert tau @ v == pytest.approx(F @ k.V_FM(jtype, jparam, q, v), rel=1e-12, abs=1e-14)


def _arguments(name, jtype, rng):
    """Float arguments (outputs as NaN) for mobilizer function ``name`` at a random state."""
    nq, nv = SIZES[jtype]
    jparam, q, v = random_joint(jtype, rng)
    outs = {
        "calc_X_FM": ((3, 3), (3,)),
        "calc_H_FM": ((6, nv),),
        "calc_V_FM": ((6,),),
        "calc_A_FM_bias": ((6,),),
        "calc_tau_from_F": ((nv,),),
        "calc_qdot_from_v": ((nq,),),
        "calc_v_from_qdot": ((nv,),),
        "calc_N": ((nq, nv),),
        "calc_Nplus": ((nv, nq),),
        "set_zero_configuration": ((nq,),),
    }[name]
    ins = {
        "calc_V_FM": (q, v),
        "calc_A_FM_bias": (q, v),
        "calc_tau_from_F": (q, rng.normal(size=6)),
        "calc_qdot_from_v": (q, v),
        "calc_v_from_qdot": (q, rng.normal(size=nq)),
        "set_zero_configuration": (),
    }.get(name, (q,))
    if name != "set_zero_configuration":
        ins = (jparam, *ins)
    return (jtype, *ins, *(np.full(shape, np.nan) for shape in outs))


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("jtype", TYPES.values(), ids=TYPES.keys())
def test_compiled_equals_interpreted_on_object_arrays(name, jtype):
    rng = np.random.default_rng(500 + jtype)
    args = _arguments(name, jtype, rng)
    float_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    object_args = [a.astype(object) if isinstance(a, np.ndarray) else a for a in args]
    compiled(getattr(mob, name))(*float_args)
    getattr(mob, name)(*object_args)
    for a, b in zip(float_args, object_args, strict=True):
        if isinstance(a, np.ndarray):
            assert not np.isnan(a).any(), f"{name} left an output entry unwritten"
            np.testing.assert_allclose(a, b.astype(float), rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("jtype", TYPES.values(), ids=TYPES.keys())
def test_dual_numbers_give_exact_velocity_and_bias(jtype):
    """Interpreted on dual numbers q + ε·q̇, X_FM's derivative is H_FM·v exactly (no truncation
    error), and V_FM's derivative at constant v is Ḣ_FM·v = calc_A_FM_bias."""
    rng = np.random.default_rng(600 + jtype)
    nq, nv = SIZES[jtype]
    for _ in range(3):
        jparam, q, v = random_joint(jtype, rng)
        qdot = np.empty(nq)
        compiled(mob.calc_qdot_from_v)(jtype, jparam, q, v, qdot)
        q_dual = np.array([Dual(a, b) for a, b in zip(q, qdot, strict=True)] + [None])[:-1]
        R, p = np.empty((3, 3), dtype=object), np.empty(3, dtype=object)
        mob.calc_X_FM(jtype, jparam.astype(object), q_dual, R, p)
        R_value, R_dot = values(R), derivatives(R)
        p_dot = derivatives(p)
        V = np.empty(6)
        compiled(mob.calc_V_FM)(jtype, jparam, q, v, V)
        np.testing.assert_allclose(np.r_[vee(R_dot @ R_value.T), p_dot], V, atol=1e-13)
        np.testing.assert_allclose(R_dot @ R_value.T, skew(V[:3]), atol=1e-13)  # skew-symmetric

        V_dual = np.empty(6, dtype=object)
        mob.calc_V_FM(jtype, jparam.astype(object), q_dual, v.astype(object), V_dual)
        A = np.empty(6)
        compiled(mob.calc_A_FM_bias)(jtype, jparam, q, v, A)
        np.testing.assert_allclose(derivatives(V_dual), A, atol=1e-13)
