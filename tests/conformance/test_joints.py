"""The joint classes and JointActuator against pydrake: the same calls on the same model in
both libraries give the same values, and raise in the same cases.

Errors: where pydrake raises RuntimeError, mallard raises RuntimeError with the same text;
where pydrake aborts with SystemExit (a failed DRAKE_DEMAND), mallard raises RuntimeError
naming the element and the method; where pybind11 raises TypeError, mallard raises TypeError.
"""

import importlib
from functools import partial
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("pydrake")

MODULES = ("math", "common.eigen_geometry", "multibody.tree", "multibody.plant")
KINDS = (
    "weld",
    "revolute",
    "prismatic",
    "screw",
    "universal",
    "planar",
    "ball_rpy",
    "rpy_floating",
    "quaternion_floating",
)
CLASSES = (
    "Joint",
    "WeldJoint",
    "RevoluteJoint",
    "PrismaticJoint",
    "ScrewJoint",
    "UniversalJoint",
    "PlanarJoint",
    "BallRpyJoint",
    "RpyFloatingJoint",
    "QuaternionFloatingJoint",
    "JointActuator",
    "PdControllerGains",
)
ROUNDOFF = dict(rtol=0, atol=1e-15)


def namespace(root):
    ns = SimpleNamespace(name=root)
    for module in MODULES:
        m = importlib.import_module(f"{root}.{module}")
        for name in dir(m):
            if not name.startswith("_"):
                setattr(ns, name, getattr(m, name))
    return ns


PD, ML = namespace("pydrake"), namespace("mallard")
LIBS = (PD, ML)


def make_joint(L, kind, F, M):
    X = L.RigidTransform(L.RollPitchYaw(0.1, -0.2, 0.3), [1.0, 2.0, 3.0])
    return {
        "weld": lambda: L.WeldJoint(kind, F, M, X),
        "revolute": lambda: L.RevoluteJoint(kind, F, M, [1.0, 2.0, 2.0], -1.0, 2.0, 0.5),
        "prismatic": lambda: L.PrismaticJoint(kind, F, M, [0.0, 3.0, 4.0], -2.0, 3.0, 0.25),
        "screw": lambda: L.ScrewJoint(kind, F, M, [0.3, -0.2, 1.0], 0.2, 0.1),
        "universal": lambda: L.UniversalJoint(kind, F, M, 0.3),
        "planar": lambda: L.PlanarJoint(kind, F, M, [0.1, 0.2, 0.3]),
        "ball_rpy": lambda: L.BallRpyJoint(kind, F, M, 0.4),
        "rpy_floating": lambda: L.RpyFloatingJoint(kind, F, M, 0.5, 0.6),
        "quaternion_floating": lambda: L.QuaternionFloatingJoint(kind, F, M, 0.7, 0.8),
    }[kind]()


def build(L, finalize=True):
    """Per kind, a body in instance "m" jointed to World through FixedOffsetFrames F and M;
    an actuator on the revolute and one on the prismatic joint; a free body."""
    plant = L.MultibodyPlant(0.0)
    m = plant.AddModelInstance("m")
    M0 = L.SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)
    joints = {}
    for i, kind in enumerate(KINDS):
        body = plant.AddRigidBody(f"B_{kind}", m, M0)
        X_WF = L.RigidTransform(L.RollPitchYaw(0.3 * i, 0.2, -0.1), [0.1 * i, 0.5, -0.2])
        X_BM = L.RigidTransform(L.RollPitchYaw(-0.4, 0.1 * i, 0.7), [0.3, -0.1 * i, 0.2])
        F = plant.AddFrame(L.FixedOffsetFrame(f"F_{kind}", plant.world_frame(), X_WF))
        M = plant.AddFrame(L.FixedOffsetFrame(f"M_{kind}", body.body_frame(), X_BM))
        joints[kind] = plant.AddJoint(make_joint(L, kind, F, M))
    plant.AddRigidBody("free", m, M0)
    actuators = [
        plant.AddJointActuator("a0", joints["prismatic"], 3.0),
        plant.AddJointActuator("a1", joints["revolute"]),
    ]
    if finalize:
        plant.Finalize()
    A = plant.AddRigidBody("A", M0) if not finalize else plant.GetBodyByName("free")
    return SimpleNamespace(
        L=L, plant=plant, joints=joints, actuators=actuators, F=A.body_frame(),
        M=joints["revolute"].child_body().body_frame(),
    )  # fmt: skip


@pytest.fixture(scope="module")
def models():
    return [build(L) for L in LIBS]


def outcome(call):
    """("ok", result) or (exception type name, message)."""
    try:
        return "ok", call()
    except SystemExit as e:  # pydrake's failed DRAKE_DEMAND
        return "SystemExit", str(e)
    except Exception as e:
        return type(e).__name__, str(e)


def on_both(call, *arguments):
    """The outcomes of ``call`` with each library's arguments: ``arguments`` are pairs
    (pydrake's, mallard's), one per parameter."""
    return [outcome(partial(call, *args)) for args in zip(*arguments, strict=True)]


def plain(value):
    """``value`` as plain data to compare across the libraries."""
    if hasattr(value, "GetAsMatrix34"):
        return value.GetAsMatrix34()
    if hasattr(value, "wxyz"):
        return value.wxyz()
    if hasattr(value, "matrix"):
        return value.matrix()
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if hasattr(value, "type_name") or hasattr(value, "effort_limit"):
        return ("element", value.name())
    return value


def assert_same(pd_value, ml_value, exact=True):
    pd_value, ml_value = plain(pd_value), plain(ml_value)
    if isinstance(pd_value, tuple):
        assert isinstance(ml_value, tuple) and len(pd_value) == len(ml_value)
        for a, b in zip(pd_value, ml_value, strict=True):
            assert_same(a, b, exact)
    elif isinstance(pd_value, np.ndarray) or isinstance(ml_value, np.ndarray):
        assert np.shape(pd_value) == np.shape(ml_value)
        if exact:
            np.testing.assert_array_equal(ml_value, pd_value)
        else:
            np.testing.assert_allclose(ml_value, pd_value, **ROUNDOFF)
    elif isinstance(pd_value, float) and not exact:
        assert ml_value == pytest.approx(pd_value, rel=0, abs=ROUNDOFF["atol"])
    else:
        assert type(ml_value) is type(pd_value) and ml_value == pd_value


def assert_same_outcome(pd_out, ml_out, name, exact=True):
    """Same value, or the same failure by the rules of this module's docstring; ``name``
    must appear in mallard's message where pydrake aborts."""
    (pd_kind, pd_value), (ml_kind, ml_value) = pd_out, ml_out
    assert ml_kind != "SystemExit", ml_value
    if pd_kind == "ok":
        assert ml_kind == "ok", f"mallard raised {ml_kind}: {ml_value}"
        assert_same(pd_value, ml_value, exact)
    elif pd_kind == "RuntimeError":
        assert (ml_kind, ml_value) == (pd_kind, pd_value)
    elif pd_kind == "SystemExit":
        assert ml_kind in ("RuntimeError", "TypeError"), ml_value
        assert f"'{name}'" in ml_value, ml_value
    else:
        assert ml_kind == pd_kind, f"pydrake {pd_kind}: {pd_value}; mallard {ml_kind}: {ml_value}"


def run_both(call, name="", exact=True):
    """``call(model)`` on a fresh model of each library, compared."""
    pd_out, ml_out = (outcome(lambda L=L: call(build(L))) for L in LIBS)
    assert_same_outcome(pd_out, ml_out, name, exact)


# ---- the API -----------------------------------------------------------------------------
@pytest.mark.parametrize("cls", CLASSES)
def test_same_public_names(cls):
    names = [{n for n in dir(getattr(L, cls)) if not n.startswith("_")} for L in LIBS]
    assert names[1] == names[0]


@pytest.mark.parametrize("kind", KINDS)
def test_properties(kind, models):
    for query in (
        lambda j: j.type_name(),
        lambda j: type(j).kTypeName,
        lambda j: (j.num_positions(), j.num_velocities()),
        lambda j: (j.position_start(), j.velocity_start()),
        lambda j: tuple(j.position_suffix(i) for i in range(j.num_positions())),
        lambda j: tuple(j.velocity_suffix(i) for i in range(j.num_velocities())),
        lambda j: j.velocity_suffix(arg0=0),
        lambda j: (j.can_rotate(), j.can_translate()),
        lambda j: (j.name(), int(j.index()), int(j.model_instance()), j.is_ephemeral()),
        lambda j: (j.frame_on_parent().name(), j.frame_on_child().name()),
        lambda j: (j.parent_body().name(), j.child_body().name()),
        lambda j: repr(j),
        lambda j: j.default_positions(),
        lambda j: j.default_damping_vector(),
        lambda j: (j.position_lower_limits(), j.position_upper_limits()),
        lambda j: (j.velocity_lower_limits(), j.velocity_upper_limits()),
        lambda j: (j.acceleration_lower_limits(), j.acceleration_upper_limits()),
    ):
        assert_same_outcome(*on_both(query, [m.joints[kind] for m in models]), kind)


TYPE_QUERIES = {
    "weld": [lambda j: j.X_FM()],
    "revolute": [
        lambda j: j.revolute_axis(),
        lambda j: j.default_damping(),
        lambda j: (j.position_lower_limit(), j.position_upper_limit()),
        lambda j: (j.velocity_lower_limit(), j.velocity_upper_limit()),
        lambda j: (j.acceleration_lower_limit(), j.acceleration_upper_limit()),
        lambda j: j.get_default_angle(),
    ],
    "prismatic": [
        lambda j: j.translation_axis(),
        lambda j: j.default_damping(),
        lambda j: (j.position_lower_limit(), j.position_upper_limit()),
        lambda j: j.get_default_translation(),
    ],
    "screw": [
        lambda j: (j.screw_pitch(), j.default_damping()),
        lambda j: (j.get_default_rotation(), j.get_default_translation()),
    ],
    "universal": [lambda j: j.default_damping(), lambda j: j.get_default_angles()],
    "planar": [
        lambda j: j.default_damping(),
        lambda j: (j.get_default_translation(), j.get_default_rotation()),
    ],
    "ball_rpy": [lambda j: j.default_damping(), lambda j: j.get_default_angles()],
    "rpy_floating": [
        lambda j: (j.default_angular_damping(), j.default_translational_damping()),
        lambda j: (j.get_default_angles(), j.get_default_translation()),
        lambda j: j.GetDefaultPosePair(),
        lambda j: j.GetDefaultPose(),
    ],
    "quaternion_floating": [
        lambda j: (j.default_angular_damping(), j.default_translational_damping()),
        lambda j: (j.get_default_quaternion(), j.get_default_translation()),
        lambda j: j.GetDefaultPosePair(),
        lambda j: j.GetDefaultPose(),
    ],
}


@pytest.mark.parametrize("kind", KINDS)
def test_type_specific_queries(kind, models):
    for query in TYPE_QUERIES[kind]:
        assert_same_outcome(*on_both(query, [m.joints[kind] for m in models]), kind)


def test_axes_are_normalized_like_drake():
    rng = np.random.default_rng(3)
    axes = [rng.normal(size=3) * s for s in (1e-3, 1, 1e3) for _ in range(10)]

    def normalized(m):
        return tuple(
            (
                m.L.RevoluteJoint("r", m.F, m.M, a).revolute_axis(),
                m.L.PrismaticJoint("p", m.F, m.M, a).translation_axis(),
            )
            for a in axes
        )

    run_both(normalized)


# ---- defaults ----------------------------------------------------------------------------
def rotation(L, rpy):
    return L.RotationMatrix(L.RollPitchYaw(*rpy))


DEFAULT_CALLS = {
    "revolute": [lambda L, j: j.set_default_angle(angle=0.7)],
    "prismatic": [lambda L, j: j.set_default_translation(translation=-0.2)],
    "screw": [
        lambda L, j: j.set_default_rotation(theta=1.3),
        lambda L, j: j.set_default_translation(z=0.45),
        lambda L, j: j.set_default_translation(z=-1.7e-3),
    ],
    "universal": [lambda L, j: j.set_default_angles(angles=[0.5, -0.6])],
    "planar": [
        lambda L, j: j.set_default_translation(p_FoMo_F=[1.0, 2.0]),
        lambda L, j: j.set_default_rotation(theta=3.0),
        lambda L, j: j.set_default_pose(p_FoMo_F=[4.0, 5.0], theta=6.0),
    ],
    "ball_rpy": [lambda L, j: j.set_default_angles(angles=[0.4, 0.5, 0.6])],
    "rpy_floating": [
        lambda L, j: j.set_default_angles(angles=[0.1, 0.2, 0.3]),
        lambda L, j: j.set_default_translation(p_FM=[1.0, 2.0, 3.0]),
        lambda L, j: j.SetDefaultPose(
            X_FM=L.RigidTransform(rotation(L, [0.5, -0.4, 0.3]), [4, 5, 6])
        ),
        lambda L, j: j.SetDefaultPosePair(
            q_FM=L.Quaternion([0.5, 0.5, 0.5, 0.5]), p_FM=[7.0, 8.0, 9.0]
        ),
        lambda L, j: j.SetDefaultPose(L.RigidTransform(rotation(L, [-2.0, 1.0, 3.0]), [1, 2, 3])),
    ],
    "quaternion_floating": [
        lambda L, j: j.set_default_quaternion(q_FM=L.Quaternion([0.5, 0.5, 0.5, 0.5])),
        lambda L, j: j.set_default_translation(translation=[1.0, 2.0, 3.0]),
        lambda L, j: j.SetDefaultPose(
            X_FM=L.RigidTransform(rotation(L, [0.5, -0.4, 0.3]), [4, 5, 6])
        ),
        lambda L, j: j.SetDefaultPose(L.RigidTransform(rotation(L, [-2.0, 1.0, 3.0]), [1, 2, 3])),
        lambda L, j: j.SetDefaultPosePair(
            q_FM=L.RollPitchYaw(0.2, 0.1, -3.0).ToQuaternion(), p_FM=[7.0, 8.0, 9.0]
        ),
        lambda L, j: j.set_default_positions([2.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0]),
    ],
}


@pytest.mark.parametrize("kind", [k for k in KINDS if k in DEFAULT_CALLS])
def test_default_setters(kind):
    """After each default setter: the same default positions, getters and default Context."""
    models = build(PD), build(ML)
    libs, joints = [m.L for m in models], [m.joints[kind] for m in models]
    for set_default in DEFAULT_CALLS[kind]:
        assert_same_outcome(*on_both(set_default, libs, joints), kind)
        # Conversions between rotation representations (mallard.math) may round differently.
        exact = not any("Pose" in name for name in set_default.__code__.co_names)
        for query in TYPE_QUERIES[kind] + [lambda j: j.default_positions()]:
            derived = TYPE_QUERIES[kind][-2 if kind == "rpy_floating" else -1 :]  # poses
            exact_query = exact and query not in derived
            assert_same_outcome(*on_both(query, joints), kind, exact=exact_query)
        q = [m.plant.GetPositions(m.plant.CreateDefaultContext()) for m in models]
        assert_same(*q, exact=exact)


# ---- state in a Context ------------------------------------------------------------------
STATE_CALLS = {
    "revolute": [
        lambda L, j, c: j.set_angle(c, angle=0.3),
        lambda L, j, c: j.set_angular_rate(c, angle=-0.4),
    ],
    "prismatic": [
        lambda L, j, c: j.set_translation(c, translation=0.3),
        lambda L, j, c: j.set_translation_rate(c, translation_dot=-0.4),
    ],
    "screw": [
        lambda L, j, c: j.set_translation(c, translation=0.1),
        lambda L, j, c: j.set_angular_velocity(c, theta_dot=0.3),
        lambda L, j, c: j.set_translational_velocity(c, translation_dot=-0.05),
    ],
    "universal": [
        lambda L, j, c: j.set_angles(c, angles=[0.1, 0.2]),
        lambda L, j, c: j.set_angular_rates(c, theta_dot=[3.0, 4.0]),
    ],
    "planar": [
        lambda L, j, c: j.set_translation(c, p_FoMo_F=[0.1, 0.2]),
        lambda L, j, c: j.set_rotation(c, theta=0.3),
        lambda L, j, c: j.set_pose(c, p_FoMo_F=[1.0, 2.0], theta=3.0),
        lambda L, j, c: j.set_translational_velocity(c, v_FoMo_F=[4.0, 5.0]),
        lambda L, j, c: j.set_angular_velocity(c, theta_dot=6.0),
    ],
    "ball_rpy": [
        lambda L, j, c: j.set_angles(c, angles=[0.1, 0.2, 0.3]),
        lambda L, j, c: j.set_angular_velocity(c, w_FM=[1.0, 2.0, 3.0]),
    ],
    "rpy_floating": [
        lambda L, j, c: j.set_angles(c, angles=[0.1, 0.2, 0.3]),
        lambda L, j, c: j.SetTranslation(c, p_FM=[1.0, 2.0, 3.0]),
        lambda L, j, c: j.SetOrientation(c, R_FM=rotation(L, [-0.5, 0.4, 0.2])),
        lambda L, j, c: j.SetPose(
            c, X_FM=L.RigidTransform(rotation(L, [-2.0, 1.0, 3.0]), [4, 5, 6])
        ),
        lambda L, j, c: j.set_angular_velocity(c, w_FM=[1.0, 2.0, 3.0]),
        lambda L, j, c: j.set_translational_velocity(c, v_FM=[4.0, 5.0, 6.0]),
    ],
    "quaternion_floating": [
        lambda L, j, c: j.SetQuaternion(c, q_FM=L.Quaternion([0.5, 0.5, 0.5, 0.5])),
        lambda L, j, c: j.SetTranslation(c, p_FM=[1.0, 2.0, 3.0]),
        lambda L, j, c: j.SetOrientation(c, R=rotation(L, [-2.0, 1.0, 3.0])),
        lambda L, j, c: j.SetPose(
            c, X_FM=L.RigidTransform(rotation(L, [0.5, -0.4, 0.3]), [4, 5, 6])
        ),
        lambda L, j, c: j.set_angular_velocity(c, w_FM=[1.0, 2.0, 3.0]),
        lambda L, j, c: j.set_translational_velocity(c, v_FM=[4.0, 5.0, 6.0]),
    ],
}
STATE_QUERIES = {
    "revolute": [lambda j, c: (j.get_angle(c), j.get_angular_rate(c))],
    "prismatic": [lambda j, c: (j.get_translation(c), j.get_translation_rate(c))],
    "screw": [
        lambda j, c: (j.get_rotation(c), j.get_translation(c)),
        lambda j, c: (j.get_angular_velocity(c), j.get_translational_velocity(c)),
    ],
    "universal": [lambda j, c: (j.get_angles(c), j.get_angular_rates(c))],
    "planar": [
        lambda j, c: (j.get_translation(c), j.get_rotation(c)),
        lambda j, c: (j.get_translational_velocity(c), j.get_angular_velocity(c)),
    ],
    "ball_rpy": [lambda j, c: (j.get_angles(c), j.get_angular_velocity(c))],
    "rpy_floating": [
        lambda j, c: (j.get_angles(c), j.get_translation(c)),
        lambda j, c: (j.get_angular_velocity(c), j.get_translational_velocity(c)),
        lambda j, c: j.GetPose(c),
    ],
    "quaternion_floating": [
        lambda j, c: (j.get_quaternion(c), j.get_translation(c)),
        lambda j, c: (j.get_angular_velocity(c), j.get_translational_velocity(c)),
        lambda j, c: j.GetPose(c),
    ],
}


@pytest.mark.parametrize("kind", [k for k in KINDS if k in STATE_CALLS])
def test_state_setters(kind, models):
    """Each setter returns the joint and leaves the same q and v; the getters agree."""
    contexts = [m.plant.CreateDefaultContext() for m in models]
    joints = [m.joints[kind] for m in models]
    exact = True
    for set_state in STATE_CALLS[kind]:
        for m, c in zip(models, contexts, strict=True):
            assert set_state(m.L, m.joints[kind], c) is m.joints[kind]
        # Conversions between rotation representations (mallard.math) may round differently.
        exact = exact and not {"SetOrientation", "SetPose"} & set(set_state.__code__.co_names)
        for get in ("GetPositions", "GetVelocities"):
            values = [getattr(m.plant, get)(c) for m, c in zip(models, contexts, strict=True)]
            assert_same(*values, exact=exact)
        for query in STATE_QUERIES[kind]:
            assert_same_outcome(*on_both(query, joints, contexts), kind, exact=False)
        for query in (
            lambda j, c: (j.GetOnePosition(c), j.GetOneVelocity(c)),
            lambda j, c: j.GetDampingVector(c),
            lambda j, c: j.is_locked(c),
        ):
            assert_same_outcome(*on_both(query, joints, contexts), kind)


def test_X_FM_and_lock(models):
    rng = np.random.default_rng(11)
    contexts = [m.plant.CreateDefaultContext() for m in models]
    nq, nv = models[0].plant.num_positions(), models[0].plant.num_velocities()
    for _ in range(3):
        q, v = rng.uniform(-2, 2, size=nq), rng.uniform(-2, 2, size=nv)
        for m, c in zip(models, contexts, strict=True):
            m.plant.SetPositions(c, q)
            m.plant.SetVelocities(c, v)
        for kind in KINDS:
            X = [
                m.plant.CalcRelativeTransform(
                    c, m.joints[kind].frame_on_parent(), m.joints[kind].frame_on_child()
                )
                for m, c in zip(models, contexts, strict=True)
            ]
            np.testing.assert_allclose(plain(X[1]), plain(X[0]), rtol=0, atol=1e-13)
    for kind in KINDS:
        for m, c in zip(models, contexts, strict=True):
            m.joints[kind].Lock(c)
        assert_same(*(m.plant.GetVelocities(c) for m, c in zip(models, contexts, strict=True)))
        assert all(m.joints[kind].is_locked(c) for m, c in zip(models, contexts, strict=True))


# ---- damping and limits ------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_damping_and_limits(kind):
    def calls(m):
        j = m.joints[kind]
        nq, nv = j.num_positions(), j.num_velocities()
        c = m.plant.CreateDefaultContext()
        j.SetDampingVector(c, damping=np.arange(nv) + 0.5)
        j.set_position_limits(lower_limits=-np.arange(nq) - 1, upper_limits=np.arange(nq) + 1)
        j.set_velocity_limits(-np.arange(nv) - 2, np.arange(nv) + 2)
        j.set_acceleration_limits(-np.arange(nv) - 3, np.arange(nv) + 3)
        result = (
            j.GetDampingVector(c).copy(),  # pydrake's is a view of the Context's value
            j.GetDampingVector(m.plant.CreateDefaultContext()).copy(),
            j.position_lower_limits(),
            j.velocity_upper_limits(),
            j.acceleration_lower_limits(),
            m.plant.GetPositionLowerLimits(),
            m.plant.GetVelocityUpperLimits(),
        )
        if kind in ("revolute", "prismatic", "screw"):
            j.SetDamping(c, damping=2.5)
            result += (j.GetDamping(c),)
        return result

    run_both(calls, kind)


# ---- errors ------------------------------------------------------------------------------
CONSTRUCTOR_ERRORS = [
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 0]),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 2.2e-16], -1, 1),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1], -1),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1], -1, 1, -1),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1], 1, -1),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1], pos_lower_limit=-1),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1], 0.5, damping=1),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 1]),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1], [0.5]),
    lambda m: m.L.RevoluteJoint(1, m.F, m.M, [0, 0, 1]),
    lambda m: m.L.RevoluteJoint("r", m.F.body(), m.M, [0, 0, 1]),
    lambda m: m.L.PrismaticJoint("r", m.F, m.M, [0, 0, 1e-8]),
    lambda m: m.L.PrismaticJoint("r", m.F, m.M, [0, 0, 1], damping=-1),
    lambda m: m.L.PrismaticJoint("r", m.F, m.M, [0, 0, 1], 1, -1),
    lambda m: m.L.ScrewJoint("r", m.F, m.M, [0, 0, 0], 0.1, 0.0),
    lambda m: m.L.ScrewJoint("r", m.F, m.M, 0.1, -1.0),
    lambda m: m.L.ScrewJoint("r", m.F, m.M, 0.1),
    lambda m: m.L.UniversalJoint("r", m.F, m.M, -1),
    lambda m: m.L.UniversalJoint("r", m.F, m.M, damping=np.nan),
    lambda m: m.L.PlanarJoint("r", m.F, m.M, [1, -2, 3]),
    lambda m: m.L.PlanarJoint("r", m.F, m.M, [1, 2]),
    lambda m: m.L.BallRpyJoint("r", m.F, m.M, -1),
    lambda m: m.L.RpyFloatingJoint("r", m.F, m.M, -1),
    lambda m: m.L.RpyFloatingJoint("r", m.F, m.M, 0, -1),
    lambda m: m.L.QuaternionFloatingJoint("r", m.F, m.M, -1),
    lambda m: m.L.QuaternionFloatingJoint("r", m.F, m.M, 0, -1),
    lambda m: m.L.WeldJoint("r", m.F, m.M, [1, 2, 3]),
    lambda m: m.L.Joint("r", m.F, m.M),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1]).GetParentPlant(),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1]).position_start(),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1]).can_rotate(),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1]).position_suffix(0),
    lambda m: m.L.RevoluteJoint("r", m.F, m.M, [0, 0, 1]).GetOnePosition(
        m.plant.CreateDefaultContext()
    ),
    lambda m: m.plant.AddJoint(m.L.RevoluteJoint("r", m.F, m.F, [0, 0, 1])),
]


@pytest.mark.parametrize("index", range(len(CONSTRUCTOR_ERRORS)))
def test_constructor_errors(index, models):
    call = CONSTRUCTOR_ERRORS[index]
    pd_out, ml_out = (outcome(lambda m=m: call(m)) for m in models)
    assert pd_out[0] != "ok", "no longer an error in pydrake"
    assert_same_outcome(pd_out, ml_out, "r")


def joint_errors(kind):
    """Calls on joint ``kind`` (with a Context) that raise for some or all types."""
    return [
        lambda L, j, c: j.GetDefaultPose(),
        lambda L, j, c: j.GetDefaultPosePair(),
        lambda L, j, c: j.SetDefaultPose(L.RigidTransform([1.0, 2.0, 3.0])),
        lambda L, j, c: j.SetDefaultPosePair(L.Quaternion(), [1.0, 2.0, 3.0]),
        lambda L, j, c: j.GetOnePosition(c),
        lambda L, j, c: j.GetOneVelocity(c),
        lambda L, j, c: j.set_default_positions([1.0] * 8),
        lambda L, j, c: j.set_default_positions(0.5),
        lambda L, j, c: j.set_position_limits([1.0], [2.0]),
        lambda L, j, c: j.set_position_limits(
            np.ones(j.num_positions()), np.zeros(j.num_positions())
        ),
        lambda L, j, c: j.set_velocity_limits([1.0] * 9, [2.0] * 9),
        lambda L, j, c: j.set_acceleration_limits(
            np.ones(j.num_velocities()), -np.ones(j.num_velocities())
        ),
        lambda L, j, c: j.set_default_damping_vector([1.0] * j.num_velocities()),
        lambda L, j, c: j.SetDampingVector(c, [-1.0] * j.num_velocities()),
        lambda L, j, c: j.SetDampingVector(c, [1.0] * 9),
        lambda L, j, c: j.SetDampingVector(c, 2.0),
        lambda L, j, c: j.position_suffix(7),
        lambda L, j, c: j.velocity_suffix(-1),
    ]


TYPE_ERRORS = {
    "revolute": [
        lambda L, j, c: j.set_angle(c, [0.3]),
        lambda L, j, c: j.set_angle(c, "1"),
        lambda L, j, c: j.set_default_damping(1.0),
        lambda L, j, c: j.SetDamping(c, -3.0),
        lambda L, j, c: j.SetDamping(c, np.nan),
    ],
    "prismatic": [
        lambda L, j, c: j.set_default_damping(-1.0),
        lambda L, j, c: j.SetDamping(c, -1.0),
    ],
    "screw": [lambda L, j, c: j.SetDamping(c, -1.0)],
    "universal": [
        lambda L, j, c: j.set_angles(c, [0.1, 0.2, 0.3]),
        lambda L, j, c: j.set_default_angles([1.0]),
    ],
    "planar": [lambda L, j, c: j.set_translation(c, [1.0, 2.0, 3.0])],
    "ball_rpy": [
        lambda L, j, c: j.set_angles(c, np.array([[1.0, 2.0, 3.0]])),
        lambda L, j, c: j.set_angles(c, [1, 2, "a"]),
    ],
    "rpy_floating": [
        lambda L, j, c: j.SetOrientation(c, L.RigidTransform()),
        lambda L, j, c: j.SetPose(c, L.RotationMatrix()),
    ],
    "quaternion_floating": [
        lambda L, j, c: j.SetQuaternion(c, [1.0, 0.0, 0.0, 0.0]),
        lambda L, j, c: j.set_default_quaternion([1.0, 0.0, 0.0, 0.0]),
    ],
}


@pytest.mark.parametrize("kind", KINDS)
def test_joint_errors(kind):
    for call in joint_errors(kind) + TYPE_ERRORS.get(kind, []):
        run_both(
            lambda m, call=call: call(m.L, m.joints[kind], m.plant.CreateDefaultContext()), kind
        )


def test_set_default_positions_message_before_finalize():
    for kind in ("revolute", "planar"):
        run_both(lambda m, kind=kind: m.joints[kind].set_default_positions([1.0] * 5), kind)


def test_screw_of_zero_pitch_errors():
    def call(m):
        plant = m.L.MultibodyPlant(0.0)
        body = plant.AddRigidBody("b", m.L.SpatialInertia.SolidBoxWithMass(1, 1, 1, 1))
        screw = plant.AddJoint(m.L.ScrewJoint("s", plant.world_frame(), body.body_frame(), 0, 0))
        plant.Finalize()
        screw.set_translation(plant.CreateDefaultContext(), 0.1)

    run_both(call, "s")


# ---- JointActuator -----------------------------------------------------------------------
ACTUATOR_CALLS = [
    lambda L, a, c: (a.name(), a.joint().name(), int(a.index()), int(a.model_instance())),
    lambda L, a, c: (a.input_start(), a.num_inputs(), a.effort_limit()),
    lambda L, a, c: (a.default_rotor_inertia(), a.default_gear_ratio()),
    lambda L, a, c: a.default_reflected_inertia(),
    lambda L, a, c: (a.rotor_inertia(c), a.gear_ratio(c), a.calc_reflected_inertia(c)),
    lambda L, a, c: (a.SetRotorInertia(c, 5.0), a.SetGearRatio(c, gear_ratio=0.5)),
    lambda L, a, c: (a.rotor_inertia(c), a.gear_ratio(c), a.calc_reflected_inertia(c)),
    lambda L, a, c: a.get_actuation_vector(u=np.array([4.0, 5.0])),
    lambda L, a, c: a.get_actuation_vector([4.0, 5.0, 6.0]),
    lambda L, a, c: a.get_actuation_vector(4.0),
    lambda L, a, c: a.set_effort_limit(effort_limit=7),
    lambda L, a, c: a.effort_limit(),
    lambda L, a, c: a.set_effort_limit(-1),
    lambda L, a, c: a.set_effort_limit(0),
    lambda L, a, c: a.set_effort_limit(np.nan),
    lambda L, a, c: a.set_effort_limit(0.25),
    lambda L, a, c: a.effort_limit(),
    lambda L, a, c: a.has_controller(),
    lambda L, a, c: a.get_controller_gains(),
    lambda L, a, c: a.set_controller_gains(L.PdControllerGains(p=1, d=-1)),
    lambda L, a, c: a.set_controller_gains(L.PdControllerGains(p=-1, d=1)),
    lambda L, a, c: a.set_controller_gains(L.PdControllerGains(p=np.inf, d=1)),
    lambda L, a, c: a.set_controller_gains(1.0),
    lambda L, a, c: a.set_controller_gains(gains=L.PdControllerGains(p=10, d=1)),
    lambda L, a, c: (a.get_controller_gains().p, a.get_controller_gains().d, a.has_controller()),
    lambda L, a, c: a.set_controller_gains(L.PdControllerGains(p=0, d=0)),
    lambda L, a, c: a.has_controller(),
    lambda L, a, c: L.PdControllerGains(1, 2),
]


def set_actuation(L, a, u_actuator, u):
    a.set_actuation_vector(u_actuator, u)
    return u


ACTUATION_VECTOR_CALLS = [
    lambda L, a: set_actuation(L, a, [3.0], np.zeros(2)),
    lambda L, a: set_actuation(L, a, u_actuator=np.array([3.0]), u=np.zeros((2, 1))),
    lambda L, a: set_actuation(L, a, [3.0, 4.0], np.zeros(2)),
    lambda L, a: set_actuation(L, a, [3.0], np.zeros(3)),
    lambda L, a: set_actuation(L, a, [3.0], None),
    lambda L, a: set_actuation(L, a, [3.0], [0.0, 0.0]),
    lambda L, a: set_actuation(L, a, [3.0], np.zeros(2, dtype=int)),
]


@pytest.mark.parametrize("which", [0, 1])
def test_actuator(which):
    models = build(PD), build(ML)
    libs, actuators = [m.L for m in models], [m.actuators[which] for m in models]
    contexts = [m.plant.CreateDefaultContext() for m in models]
    for call in ACTUATOR_CALLS:
        assert_same_outcome(*on_both(call, libs, actuators, contexts), f"a{which}")
    for call in ACTUATION_VECTOR_CALLS:
        assert_same_outcome(*on_both(call, libs, actuators), f"a{which}")


def test_actuator_defaults_before_finalize():
    def call(m):
        a = m.actuators[1]
        a.set_default_rotor_inertia(rotor_inertia=2.0)
        a.set_default_gear_ratio(gear_ratio=-3.0)
        a.set_controller_gains(m.L.PdControllerGains(p=1, d=1))
        m.plant.Finalize()
        c = m.plant.CreateDefaultContext()
        u = np.zeros(2)
        a.set_actuation_vector([7.0], u)
        gains = a.get_controller_gains()
        return (
            a.input_start(),
            a.default_reflected_inertia(),
            a.calc_reflected_inertia(c),
            u,
            (gains.p, gains.d),
        )

    pd_out, ml_out = (outcome(lambda L=L: call(build(L, finalize=False))) for L in LIBS)
    assert_same_outcome(pd_out, ml_out, "a1")


# ---- random distributions (tests/conformance/test_random.py compares random ones) --------
RANDOM = [
    ("revolute", "set_random_angle_distribution", (0.3,)),
    ("prismatic", "set_random_translation_distribution", (0.3,)),
    ("screw", "set_random_pose_distribution", ([0.3],)),
    ("universal", "set_random_angles_distribution", ([0.1, 0.2],)),
    ("planar", "set_random_pose_distribution", ([0.1, 0.2], 0.3)),
    ("ball_rpy", "set_random_angles_distribution", ([0.1, 0.2, 0.3],)),
    ("rpy_floating", "set_random_angles_distribution", ([0.1, 0.2, 0.3],)),
    ("rpy_floating", "set_random_translation_distribution", ([0.1, 0.2, 0.3],)),
    ("quaternion_floating", "set_random_quaternion_distribution_to_uniform", ()),
    ("quaternion_floating", "set_random_translation_distribution", ([1.0, 2.0, 3.0],)),
]


@pytest.mark.parametrize("kind, method, args", RANDOM)
def test_random_distributions(kind, method, args):
    """Both take constant distributions and SetRandomContext gives the same state."""
    pytest.importorskip("sympy")
    x = []
    for L, common in ((PD, "pydrake.common"), (ML, "mallard.common")):
        model = build(L)  # not the shared models: the distribution stays with the joint
        assert getattr(model.joints[kind], method)(*args) is None
        context = model.plant.CreateDefaultContext()
        generator = importlib.import_module(common).RandomGenerator(3)
        model.plant.SetRandomContext(context, generator)
        x.append(model.plant.GetPositionsAndVelocities(context))
    np.testing.assert_allclose(x[1], x[0], rtol=0, atol=4e-16)
