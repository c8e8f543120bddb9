"""Force elements: constructors and their errors, getters, Context parameters, forces against
closed forms, energies, and power = −d(PE)/dt along a motion; user ForceElement subclasses."""

import re

import numpy as np
import pytest

from mallard.math import RigidTransform, RollPitchYaw, RotationMatrix
from mallard.multibody.math import SpatialForce
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    BallRpyJoint,
    DoorHinge,
    DoorHingeConfig,
    FixedOffsetFrame,
    ForceElement,
    ForceElementIndex,
    LinearBushingRollPitchYaw,
    LinearSpringDamper,
    ModelInstanceIndex,
    MultibodyForces,
    PrismaticJoint,
    PrismaticSpring,
    RevoluteJoint,
    RevoluteSpring,
    SpatialInertia,
    UniformGravityFieldElement,
    default_model_instance,
)

BOX = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)


def _plant(gravity=(0.0, 0.0, 0.0)):
    plant = MultibodyPlant(0.0)
    plant.mutable_gravity_field().set_gravity_vector(gravity)
    return plant


def _pendulum(axis=(0.0, 0.0, 1.0), gravity=(0.0, 0.0, 0.0)):
    """A body on a revolute joint to World in model instance "m"."""
    plant = _plant(gravity)
    m = plant.AddModelInstance("m")
    body = plant.AddRigidBody("body", m, BOX)
    joint = plant.AddJoint(RevoluteJoint("joint", plant.world_frame(), body.body_frame(), axis))
    return plant, body, joint


def _slider(axis=(1.0, 0.0, 0.0)):
    plant = _plant()
    body = plant.AddRigidBody("body", BOX)
    joint = plant.AddJoint(PrismaticJoint("joint", plant.world_frame(), body.body_frame(), axis))
    return plant, body, joint


def _context(plant, q=None, v=None):
    context = plant.CreateDefaultContext()
    if q is not None:
        plant.SetPositions(context, q)
    if v is not None:
        plant.SetVelocities(context, v)
    return context


def _element_forces(plant, context):
    forces = MultibodyForces(plant)
    plant.CalcForceElementsContribution(context, forces)
    return forces


def _check_power_is_minus_dPE_dt(plant, context, element, h=1e-6, rtol=1e-6):
    """Moves the state along q̇ = N(q)·v for ±h and checks CalcConservativePower =
    −d(PE)/dt by central differences, on the element and on the plant."""
    q, v = plant.GetPositions(context), plant.GetVelocities(context)
    qdot = plant.MapVelocityToQDot(context, v)
    energies = []
    for sign in (1.0, -1.0):
        moved = context.Clone()
        plant.SetPositions(moved, q + sign * h * qdot)
        energies.append((element.CalcPotentialEnergy(moved), plant.EvalPotentialEnergy(moved)))
    for i, power in enumerate(
        (element.CalcConservativePower(context), plant.CalcConservativePower(context))
    ):
        dPE_dt = (energies[0][i] - energies[1][i]) / (2 * h)
        assert power == pytest.approx(-dPE_dt, rel=rtol, abs=1e-8)


# ---- ForceElement and user subclasses ------------------------------------------------------
class _ConstantTorque(ForceElement):
    """A user element: a torque tau on a joint, kept as a Context parameter, with the energy
    hooks reporting made-up values the plant must add up."""

    def __init__(self, joint, tau):
        super().__init__(joint.model_instance())
        self.joint, self.tau, self.calls = joint, tau, 0

    def _default_parameters(self):
        return {"tau": self.tau}

    def CalcAndAddForceContribution(self, context, forces):
        self.calls += 1
        tau = self._parameter(context, "tau")
        self.joint.AddInOneForce(context, 0, tau, forces)

    def CalcPotentialEnergy(self, context):
        return 10.0

    def CalcConservativePower(self, context):
        return 20.0

    def CalcNonConservativePower(self, context):
        return 30.0


def test_user_subclass_in_force_elements_and_forward_dynamics():
    plant, body, joint = _pendulum()
    element = plant.AddForceElement(_ConstantTorque(joint, 2.0))
    assert element.index() == ForceElementIndex(1)
    assert repr(element) == "<_ConstantTorque index=1 model_instance=2>"
    assert element.GetParentPlant() is plant
    plant.Finalize()
    context = _context(plant)
    np.testing.assert_array_equal(_element_forces(plant, context).generalized_forces(), [2.0])
    I_zz = body.default_rotational_inertia().get_moments()[2]
    vdot = plant.EvalTimeDerivatives(context).CopyToVector()[1]
    assert vdot == pytest.approx(2.0 / I_zz, rel=1e-14)
    assert element.calls == 2
    element._set_parameter(context, "tau", -4.0)  # a parameter change reaches the dynamics
    vdot = plant.EvalTimeDerivatives(context).CopyToVector()[1]
    assert vdot == pytest.approx(-4.0 / I_zz, rel=1e-14)
    assert plant.EvalPotentialEnergy(context) == 10.0
    assert plant.CalcConservativePower(context) == 20.0
    assert plant.CalcNonConservativePower(context) == 30.0


def test_force_element_base():
    element = ForceElement()
    assert element.model_instance() == default_model_instance()
    assert element.index() == ForceElementIndex(-1)
    assert repr(element) == "<ForceElement index=-1 model_instance=1>"
    assert not element.is_ephemeral()
    assert ForceElement(ModelInstanceIndex(3)).model_instance() == ModelInstanceIndex(3)
    with pytest.raises(TypeError, match="model_instance must be a ModelInstanceIndex"):
        ForceElement(3)
    with pytest.raises(RuntimeError, match="not owned by a MultibodyPlant"):
        element.GetParentPlant()
    assert element.CalcPotentialEnergy(None) == 0.0
    assert element.CalcConservativePower(None) == 0.0
    assert element.CalcNonConservativePower(None) == 0.0
    plant = MultibodyPlant(0.0)
    plant.AddForceElement(element)
    plant.Finalize()
    with pytest.raises(NotImplementedError, match="must override CalcAndAddForceContribution"):
        plant.CalcForceElementsContribution(plant.CreateDefaultContext(), MultibodyForces(plant))


def test_context_methods_need_a_finalized_plant_and_its_context():
    plant, _, joint = _pendulum()
    spring = RevoluteSpring(joint, 0.0, 1.0)
    with pytest.raises(RuntimeError, match="not been added to a MultibodyPlant"):
        spring.GetStiffness(None)
    plant.AddForceElement(spring)
    with pytest.raises(RuntimeError, match="finalized"):
        spring.GetStiffness(None)
    plant.Finalize()
    other, _, _ = _pendulum()
    other.Finalize()
    with pytest.raises(RuntimeError, match="was passed the Context of a system"):
        spring.GetStiffness(other.CreateDefaultContext())


# ---- LinearSpringDamper ------------------------------------------------------------------
def _two_sliders():
    """Bodies A (on a prismatic x joint from World) and B (free), a spring from P on A to Q
    on B."""
    plant = _plant()
    m = plant.AddModelInstance("m")
    A = plant.AddRigidBody("A", m, BOX)
    B = plant.AddRigidBody("B", default_model_instance(), BOX)
    plant.AddJoint(PrismaticJoint("x", plant.world_frame(), A.body_frame(), [1, 0, 0]))
    spring = plant.AddForceElement(
        LinearSpringDamper(A, [0.1, 0.2, 0.0], B, [0.0, -0.1, 0.3], 0.5, 40.0, 3.0)
    )
    plant.Finalize()
    return plant, A, B, spring


def test_linear_spring_damper_constructor_and_getters():
    plant, A, B, spring = _two_sliders()
    assert spring.bodyA() is A and spring.bodyB() is B
    np.testing.assert_array_equal(spring.p_AP(), [0.1, 0.2, 0.0])
    np.testing.assert_array_equal(spring.p_BQ(), [0.0, -0.1, 0.3])
    assert (spring.free_length(), spring.stiffness(), spring.damping()) == (0.5, 40.0, 3.0)
    assert spring.model_instance() == A.model_instance() == ModelInstanceIndex(2)
    assert repr(spring) == "<LinearSpringDamper index=1 model_instance=2>"
    for args, match in [
        ((0.0, 1.0, 1.0), "free_length must be positive, got 0.0"),
        ((-1.0, 1.0, 1.0), "free_length must be positive"),
        ((np.nan, 1.0, 1.0), "free_length must be positive, got nan"),
        ((1.0, -1.0, 1.0), "stiffness must be non-negative, got -1.0"),
        ((1.0, 1.0, -1.0), "damping must be non-negative, got -1.0"),
    ]:
        with pytest.raises(RuntimeError, match=f"LinearSpringDamper: {match}"):
            LinearSpringDamper(A, np.zeros(3), B, np.zeros(3), *args)
    with pytest.raises(TypeError, match="bodyB must be a RigidBody"):
        LinearSpringDamper(A, np.zeros(3), A.body_frame(), np.zeros(3), 1.0, 1.0, 1.0)


def test_linear_spring_damper_force_along_the_line():
    plant, A, B, spring = _two_sliders()
    # A at x = 0.3; B at p = (1, 0.5, -0.2), rotated, moving.
    R_WB = RotationMatrix(RollPitchYaw(0.3, -0.2, 0.5))
    q = np.concatenate(([0.3], R_WB.ToQuaternion().wxyz(), [1.0, 0.5, -0.2]))
    v = np.array([0.7, 0.1, -0.2, 0.3, 0.4, -0.5, 0.6])
    context = _context(plant, q, v)
    p_WP = np.array([0.3, 0.0, 0.0]) + spring.p_AP()
    p_WQ = np.array([1.0, 0.5, -0.2]) + R_WB.matrix() @ spring.p_BQ()
    r = p_WQ - p_WP
    length = np.linalg.norm(r)
    r_hat = r / length
    w_WB, v_WBo = v[1:4], v[4:]
    v_WQ = v_WBo + np.cross(w_WB, R_WB.matrix() @ spring.p_BQ())
    length_dot = (v_WQ - [0.7, 0, 0]) @ r_hat
    f_AP = (40.0 * (length - 0.5) + 3.0 * length_dot) * r_hat  # pulls A toward B: stretched
    assert length > 0.5 and f_AP @ r_hat > 0
    forces = _element_forces(plant, context)
    F_A = A.GetForceInWorld(context, forces).get_coeffs()
    F_B = B.GetForceInWorld(context, forces).get_coeffs()
    np.testing.assert_allclose(F_A, np.r_[np.cross(spring.p_AP(), f_AP), f_AP], atol=1e-12)
    p_BoQ_W = p_WQ - [1.0, 0.5, -0.2]
    np.testing.assert_allclose(F_B, np.r_[np.cross(p_BoQ_W, -f_AP), -f_AP], atol=1e-12)
    stretch = length - 0.5
    assert spring.CalcPotentialEnergy(context) == pytest.approx(20.0 * stretch**2, rel=1e-14)
    assert spring.CalcNonConservativePower(context) == pytest.approx(-3.0 * length_dot**2)
    assert spring.CalcConservativePower(context) == pytest.approx(-40.0 * stretch * length_dot)
    _check_power_is_minus_dPE_dt(plant, context, spring)
    assert plant.CalcNonConservativePower(context) == spring.CalcNonConservativePower(context)


def test_linear_spring_damper_compressed_pushes_apart_and_zero_length_raises():
    plant, A, B, spring = _two_sliders()
    # P = (0.1, 0.2, 0), Q = p_WBo + (0, -0.1, 0.3): put Q 0.2 above P (compressed).
    context = _context(plant, [0.0, 1, 0, 0, 0, 0.1, 0.3, -0.1])
    f_AP = A.GetForceInWorld(context, _element_forces(plant, context)).translational()
    np.testing.assert_allclose(f_AP, [0, 0, -40.0 * 0.3], atol=1e-12)
    plant.SetPositions(context, [0.0, 1, 0, 0, 0, 0.1, 0.3, -0.3])  # P and Q coincide
    for method in (
        lambda: plant.CalcForceElementsContribution(context, MultibodyForces(plant)),
        lambda: spring.CalcPotentialEnergy(context),
        lambda: spring.CalcConservativePower(context),
        lambda: spring.CalcNonConservativePower(context),
    ):
        with pytest.raises(RuntimeError, match="The length of the spring became nearly zero"):
            method()


# ---- RevoluteSpring and PrismaticSpring ------------------------------------------------------
def test_revolute_spring():
    plant, _, joint = _pendulum(axis=(0, 0.6, 0.8))
    spring = RevoluteSpring(joint, 0.4, 5.0)
    assert spring.model_instance() == joint.model_instance() == ModelInstanceIndex(2)
    assert (spring.default_nominal_angle(), spring.default_stiffness()) == (0.4, 5.0)
    with pytest.raises(RuntimeError, match=r"RevoluteSpring.joint\(\): .* not been added"):
        spring.joint()
    with pytest.raises(RuntimeError, match="RevoluteSpring: stiffness must be non-negative"):
        RevoluteSpring(joint, 0.0, -1.0)
    with pytest.raises(TypeError, match="joint must be a RevoluteJoint"):
        RevoluteSpring(spring, 0.0, 1.0)
    plant.AddForceElement(spring)
    assert spring.joint() is joint
    plant.Finalize()
    context = _context(plant, [1.1], [0.5])
    assert (spring.GetNominalAngle(context), spring.GetStiffness(context)) == (0.4, 5.0)
    np.testing.assert_allclose(_element_forces(plant, context).generalized_forces(), [-3.5])
    assert spring.CalcPotentialEnergy(context) == pytest.approx(0.5 * 5 * 0.7**2, rel=1e-14)
    assert spring.CalcConservativePower(context) == pytest.approx(-3.5 * 0.5, rel=1e-14)
    assert spring.CalcNonConservativePower(context) == 0.0
    _check_power_is_minus_dPE_dt(plant, context, spring)
    # Context parameters: per Context, defaults unchanged, forces and dynamics updated.
    vdot_before = plant.EvalTimeDerivatives(context).CopyToVector()[1]
    spring.SetNominalAngle(context, 1.0)
    spring.SetStiffness(context, 8.0)
    assert (spring.GetNominalAngle(context), spring.GetStiffness(context)) == (1.0, 8.0)
    np.testing.assert_allclose(_element_forces(plant, context).generalized_forces(), [-0.8])
    assert plant.EvalTimeDerivatives(context).CopyToVector()[1] == pytest.approx(
        vdot_before * 0.8 / 3.5, rel=1e-12
    )
    assert (spring.default_nominal_angle(), spring.default_stiffness()) == (0.4, 5.0)
    assert spring.GetStiffness(plant.CreateDefaultContext()) == 5.0
    with pytest.raises(RuntimeError, match="stiffness must be non-negative, got -1.0"):
        spring.SetStiffness(context, -1.0)


def test_prismatic_spring():
    plant, _, joint = _slider(axis=(0, 0, 2))
    spring = PrismaticSpring(joint, 0.1, 7.0)
    assert (spring.nominal_position(), spring.stiffness()) == (0.1, 7.0)
    assert spring.model_instance() == default_model_instance()
    assert repr(spring) == "<PrismaticSpring index=-1 model_instance=1>"
    with pytest.raises(RuntimeError, match="PrismaticSpring: stiffness must be non-negative"):
        PrismaticSpring(joint, 0.0, -1e-9)
    with pytest.raises(TypeError, match="joint must be a PrismaticJoint"):
        PrismaticSpring(
            RevoluteJoint("r", joint.frame_on_parent(), joint.frame_on_child(), [0, 0, 1]), 0.0, 1.0
        )
    with pytest.raises(RuntimeError, match="not been added"):
        spring.joint()
    plant.AddForceElement(spring)
    plant.Finalize()
    context = _context(plant, [-0.3], [2.0])
    np.testing.assert_allclose(_element_forces(plant, context).generalized_forces(), [2.8])
    assert spring.CalcPotentialEnergy(context) == pytest.approx(0.5 * 7 * 0.16, rel=1e-14)
    assert spring.CalcConservativePower(context) == pytest.approx(2.8 * 2.0, rel=1e-14)
    assert spring.CalcNonConservativePower(context) == 0.0
    _check_power_is_minus_dPE_dt(plant, context, spring)
    # The spring and the mass: ẍ = −k·(x − x₀)/m.
    assert plant.EvalTimeDerivatives(context).CopyToVector()[1] == pytest.approx(2.8)


# ---- DoorHinge -----------------------------------------------------------------------------
_DEFAULTS = dict(
    spring_zero_angle_rad=-1.5,
    spring_constant=1.5,
    dynamic_friction_torque=3.0,
    static_friction_torque=2.0,
    viscous_friction=1.0,
    catch_width=0.02,
    catch_torque=15.0,
    motion_threshold=0.001,
)


def test_door_hinge_config():
    config = DoorHingeConfig()
    for name, value in _DEFAULTS.items():
        assert getattr(config, name) == value
    assert repr(config) == (
        "DoorHingeConfig(spring_zero_angle_rad=-1.5, spring_constant=1.5, "
        "dynamic_friction_torque=3.0, static_friction_torque=2.0, viscous_friction=1.0, "
        "catch_width=0.02, catch_torque=15.0, motion_threshold=0.001)"
    )
    config = DoorHingeConfig(spring_constant=3, catch_width=0.5)
    assert (config.spring_constant, config.catch_width) == (3.0, 0.5)
    assert isinstance(config.spring_constant, float)
    config.viscous_friction = 2
    assert config.viscous_friction == 2.0
    with pytest.raises(AttributeError, match="foo"):
        DoorHingeConfig(foo=1.0)
    with pytest.raises(TypeError):
        DoorHingeConfig(1.0)


def test_door_hinge_constructor():
    plant, _, joint = _pendulum()
    for name in _DEFAULTS:
        config = DoorHingeConfig(**{name: -1.0})
        if name in ("spring_zero_angle_rad", "catch_torque"):
            DoorHinge(joint, config)  # may be negative
        else:
            with pytest.raises(RuntimeError, match=f"DoorHinge: config.{name} must be non-neg"):
                DoorHinge(joint, config)
    config = DoorHingeConfig()
    hinge = DoorHinge(joint, config)
    assert hinge.model_instance() == ModelInstanceIndex(2)
    assert repr(hinge) == "<DoorHinge index=-1 model_instance=2>"
    assert hinge.config() is not config and repr(hinge.config()) == repr(config)
    config.spring_constant = 100.0  # the hinge keeps its own copy ...
    assert hinge.CalcHingeSpringTorque(0.5) == pytest.approx(-3.0)
    hinge.config().spring_constant = 100.0  # ... which config() returns, as pydrake does
    assert hinge.CalcHingeSpringTorque(0.5) == pytest.approx(-200.0)
    with pytest.raises(RuntimeError, match="not been added"):
        hinge.joint()
    with pytest.raises(TypeError, match="joint must be a RevoluteJoint"):
        DoorHinge(config, config)
    with pytest.raises(TypeError, match="config must be a DoorHingeConfig"):
        DoorHinge(joint, _DEFAULTS)


def test_door_hinge_torques_follow_the_documented_curves():
    plant, _, joint = _pendulum()
    config = DoorHingeConfig(catch_width=0.3, motion_threshold=0.2)
    hinge = DoorHinge(joint, config)
    c = hinge.config()

    def s(t, x):
        return np.tanh(x / t)

    def doublet(t, x):
        return 2 * s(t, x) * (1 - s(t, x) ** 2)

    for q in np.linspace(-0.5, 2.0, 11):
        spring = -c.spring_constant * (q - c.spring_zero_angle_rad)
        catch = c.catch_torque * doublet(c.catch_width / 2, q - c.catch_width / 2)
        assert hinge.CalcHingeSpringTorque(q) == pytest.approx(spring + catch, rel=1e-14)
    for rate in np.linspace(-1.0, 1.0, 11):
        t = c.motion_threshold
        friction = (
            -c.dynamic_friction_torque * s(t, rate)
            - c.static_friction_torque * doublet(t, rate)
            - c.viscous_friction * rate
        )
        assert hinge.CalcHingeFrictionalTorque(rate) == pytest.approx(friction, abs=1e-14)
        assert hinge.CalcHingeTorque(0.7, rate) == pytest.approx(
            friction + hinge.CalcHingeSpringTorque(0.7), abs=1e-13
        )
    # The catch pulls a nearly closed door shut and pushes a nearly open one out; beyond
    # it only the spring acts.
    assert doublet(0.15, 0.05 - 0.15) < 0 < doublet(0.15, 0.25 - 0.15)
    # Without a catch or a motion threshold: the spring alone, and +k_vf·q̇ (Drake's sign).
    bare = DoorHinge(joint, DoorHingeConfig(catch_width=0.0, motion_threshold=0.0))
    assert bare.CalcHingeSpringTorque(0.5) == -1.5 * (0.5 + 1.5)
    assert bare.CalcHingeFrictionalTorque(0.5) == 0.5


def test_door_hinge_force_energy_and_power():
    plant, _, joint = _pendulum()
    hinge = plant.AddForceElement(DoorHinge(joint, DoorHingeConfig(catch_width=0.3)))
    assert hinge.joint() is joint
    plant.Finalize()
    context = _context(plant, [0.0], [0.0])
    assert hinge.CalcPotentialEnergy(context) == 0.0  # zero when closed
    for q, v in [(0.1, 0.3), (0.25, -0.002), (1.3, 0.0005)]:
        plant.SetPositions(context, [q])
        plant.SetVelocities(context, [v])
        np.testing.assert_allclose(
            _element_forces(plant, context).generalized_forces(), [hinge.CalcHingeTorque(q, v)]
        )
        assert hinge.CalcConservativePower(context) == v * hinge.CalcHingeSpringTorque(q)
        assert hinge.CalcNonConservativePower(context) == v * hinge.CalcHingeFrictionalTorque(v)
        assert plant.CalcNonConservativePower(context) == hinge.CalcNonConservativePower(context)
        _check_power_is_minus_dPE_dt(plant, context, hinge, h=1e-7, rtol=1e-5)


# ---- LinearBushingRollPitchYaw -----------------------------------------------------------------
def _bushing_model(**constants):
    """Frame A fixed on World (offset), frame C on a free body; a bushing from A to C."""
    plant = _plant()
    m = plant.AddModelInstance("m")
    body = plant.AddRigidBody("body", m, BOX)
    X_WA = RigidTransform(RollPitchYaw(0.2, -0.1, 0.3), [0.1, 0.2, 0.3])
    A = plant.AddFrame(FixedOffsetFrame("A", plant.world_frame(), X_WA))
    C = plant.AddFrame(FixedOffsetFrame("C", body.body_frame(), RigidTransform([0, 0, 0.1])))
    values = dict(k012=[1, 2, 3], d012=[0.1, 0.2, 0.3], kxyz=[10, 20, 30], dxyz=[1, 2, 3])
    values.update(constants)
    bushing = LinearBushingRollPitchYaw(A, C, *values.values())
    return plant, body, A, C, bushing


def _place_C(plant, context, body, A, R_AC, p_AoCo_A, V_AC_A=(0, 0, 0, 0, 0, 0)):
    """Sets the free body so that frame C has pose (R_AC, p_AoCo_A) and spatial velocity
    V_AC_A in A."""
    X_WA = A.CalcPoseInWorld(context)
    X_AC = RigidTransform(R_AC, p_AoCo_A)
    X_WB = X_WA @ X_AC @ RigidTransform([0, 0, -0.1])
    plant.SetFreeBodyPose(context, body, X_WB)
    R_WA, V_AC_A = X_WA.rotation().matrix(), np.asarray(V_AC_A, dtype=float)
    w_W, v_WCo = R_WA @ V_AC_A[:3], R_WA @ V_AC_A[3:]
    p_CoBo_W = X_WB.translation() - (X_WA @ X_AC).translation()
    plant.SetVelocities(context, np.r_[w_W, v_WCo + np.cross(w_W, p_CoBo_W)])


def test_bushing_constructor_getters_and_parameters():
    plant, body, A, C, bushing = _bushing_model()
    assert bushing.model_instance() == C.model_instance() == ModelInstanceIndex(2)
    np.testing.assert_array_equal(bushing.torque_stiffness_constants(), [1, 2, 3])
    np.testing.assert_array_equal(bushing.torque_damping_constants(), [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(bushing.force_stiffness_constants(), [10, 20, 30])
    np.testing.assert_array_equal(bushing.force_damping_constants(), [1, 2, 3])
    for getter in (bushing.frameA, bushing.frameC, bushing.link0, bushing.link1):
        with pytest.raises(RuntimeError, match="not been added to a MultibodyPlant"):
            getter()
    for name in ("k012", "d012", "kxyz", "dxyz"):
        with pytest.raises(RuntimeError, match="LinearBushingRollPitchYaw: .* non-negative"):
            _bushing_model(**{name: [1, -1, 1]})
    with pytest.raises(TypeError, match="must be a 3-vector"):
        _bushing_model(kxyz=[1, 2])
    with pytest.raises(TypeError, match="frameC must be a Frame"):
        LinearBushingRollPitchYaw(A, body, *([[1, 1, 1]] * 4))
    plant.AddForceElement(bushing)
    assert (bushing.frameA(), bushing.frameC()) == (A, C)
    assert (bushing.link0(), bushing.link1()) == (plant.world_body(), body)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    for name in ("TorqueStiffness", "TorqueDamping", "ForceStiffness", "ForceDamping"):
        get, set_ = getattr(bushing, f"Get{name}Constants"), getattr(bushing, f"Set{name}Constants")
        default = get(context)
        set_(context, [4.0, -5.0, 6.0])  # not checked, as in pydrake
        np.testing.assert_array_equal(get(context), [4, -5, 6])
        np.testing.assert_array_equal(get(plant.CreateDefaultContext()), default)
        with pytest.raises(TypeError):
            set_(context, [1.0, 2.0])


@pytest.mark.parametrize("yaw_rate, v_ACo_A", [(0.0, [0, 0, 0]), (0.5, [0.3, -0.2, 0.1])])
def test_bushing_forces_in_closed_form(yaw_rate, v_ACo_A):
    """C displaced along A's x and rotated about A's z (yaw only): the halfway frame B is the
    half rotation, 𝐟 = −(Kxyz·[x y z]_B + Dxyz·[ẋ ẏ ż]_B), and the gimbal torque is
    𝐭 = −(k₂·yaw + d₂·ẏaw)·Az."""
    plant, body, A, C, bushing = _bushing_model()
    plant.AddForceElement(bushing)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    yaw, p_AoCo_A = 0.4, np.array([0.2, 0.0, 0.0])
    w_AC_A = np.array([0, 0, yaw_rate])
    R_AC = RotationMatrix.MakeZRotation(yaw)
    _place_C(plant, context, body, A, R_AC, p_AoCo_A, np.r_[w_AC_A, v_ACo_A])
    R_AB = RotationMatrix.MakeZRotation(yaw / 2).matrix()
    p_B = R_AB.T @ p_AoCo_A
    p_dot_B = R_AB.T @ (v_ACo_A - np.cross(w_AC_A / 2, p_AoCo_A))
    f_A = R_AB @ -(np.array([10, 20, 30]) * p_B + np.array([1, 2, 3]) * p_dot_B)
    t_A = np.array([0, 0, -3 * yaw - 0.3 * yaw_rate])
    R_CA = R_AC.matrix().T
    F_C = bushing.CalcBushingSpatialForceOnFrameC(context).get_coeffs()
    F_A = bushing.CalcBushingSpatialForceOnFrameA(context).get_coeffs()
    np.testing.assert_allclose(F_C[:3], R_CA @ (t_A + np.cross(-p_AoCo_A / 2, f_A)), atol=1e-14)
    np.testing.assert_allclose(F_C[3:], R_CA @ f_A, atol=1e-14)
    np.testing.assert_allclose(F_A[:3], -t_A + np.cross(p_AoCo_A / 2, -f_A), atol=1e-14)
    np.testing.assert_allclose(F_A[3:], -f_A, atol=1e-14)
    # The plant applies F_C to the body (shifted from Co to Bo, in World) and F_A to World.
    forces = _element_forces(plant, context)
    X_WC, X_WA = C.CalcPoseInWorld(context), A.CalcPoseInWorld(context)
    R_WC, R_WA = X_WC.rotation().matrix(), X_WA.rotation().matrix()
    F_C_W = SpatialForce(R_WC @ F_C[:3], R_WC @ F_C[3:])
    expected = F_C_W.Shift(body.EvalPoseInWorld(context).translation() - X_WC.translation())
    np.testing.assert_allclose(
        body.GetForceInWorld(context, forces).get_coeffs(), expected.get_coeffs(), atol=1e-13
    )
    F_A_W = SpatialForce(R_WA @ F_A[:3], R_WA @ F_A[3:]).Shift(-X_WA.translation())
    np.testing.assert_allclose(
        plant.world_body().GetForceInWorld(context, forces).get_coeffs(),
        F_A_W.get_coeffs(),
        atol=1e-13,
    )


def test_bushing_energy_raises_and_gimbal_lock():
    plant, body, A, C, bushing = _bushing_model()
    plant.AddForceElement(bushing)
    plant.Finalize()
    context = plant.CreateDefaultContext()
    for method in ("CalcPotentialEnergy", "CalcConservativePower", "CalcNonConservativePower"):
        message = (
            f"Error: LinearBushingRollPitchYaw::{method}() has not been implemented.  "
            "Related: Issues #12982 and #12752."
        )
        with pytest.raises(RuntimeError, match=f"^{re.escape(message)}$"):
            getattr(bushing, method)(context)
    with pytest.raises(RuntimeError, match="CalcPotentialEnergy"):
        plant.EvalPotentialEnergy(context)
    _place_C(plant, context, body, A, RotationMatrix.MakeYRotation(np.pi / 2 - 1e-3), [0, 0, 0])
    for method in (
        bushing.CalcBushingSpatialForceOnFrameA,
        bushing.CalcBushingSpatialForceOnFrameC,
        lambda c: plant.CalcForceElementsContribution(c, MultibodyForces(plant)),
    ):
        with pytest.raises(RuntimeError) as info:
            method(context)
        assert str(info.value).startswith(
            "LinearBushingRollPitchYaw::CalcBushingRollPitchYawAngleRates(): Pitch angle p = "
            "89.9427 degrees is within 0.00800009 degrees of gimbal-lock which means"
        )


# ---- UniformGravityFieldElement ---------------------------------------------------------------
def test_gravity_element():
    plant, body, joint = _pendulum(axis=(1, 0, 0), gravity=(0, 0, -9.81))
    plant.AddRigidBody("lone", default_model_instance(), BOX)  # free, gravity disabled below
    gravity = plant.mutable_gravity_field()
    assert repr(gravity) == "<UniformGravityFieldElement index=0 model_instance=0>"
    unowned = UniformGravityFieldElement()
    with pytest.raises(RuntimeError, match="not owned by a MultibodyPlant"):
        unowned.is_enabled(default_model_instance())
    with pytest.raises(RuntimeError, match="This model already contains a gravity field element"):
        plant.AddForceElement(unowned)
    with pytest.raises(RuntimeError, match="^Model instance index is invalid.$"):
        gravity.is_enabled(ModelInstanceIndex(9))
    with pytest.raises(RuntimeError, match="^Model instance index is invalid.$"):
        gravity.set_enabled(ModelInstanceIndex(9), False)
    gravity.set_enabled(default_model_instance(), False)
    plant.Finalize()
    with pytest.raises(RuntimeError, match="^Gravity can only be enabled pre-finalize.$"):
        gravity.set_enabled(default_model_instance(), True)
    with pytest.raises(RuntimeError, match="has not been added to a MultibodyPlant"):
        unowned.CalcGravityGeneralizedForces(None)
    # With its COM 0.5 below the x axis, the pendulum's COM is at height −0.5·cos θ.
    context = plant.CreateDefaultContext()
    body.SetCenterOfMassInBodyFrame(context, [0, 0, -0.5])
    theta, theta_dot = 0.3, 0.7
    plant.SetPositions(context, np.r_[theta, 1, 0, 0, 0, 1, 2, 3])
    plant.SetVelocities(context, np.r_[theta_dot, np.ones(6)])
    tau_g = gravity.CalcGravityGeneralizedForces(context)
    np.testing.assert_array_equal(tau_g, plant.CalcGravityGeneralizedForces(context))
    # m·g·ℓ·sin θ about the x axis; nothing on the disabled lone body.
    np.testing.assert_allclose(tau_g, np.r_[-9.81 * 0.5 * np.sin(theta), np.zeros(6)], atol=1e-14)
    height = -0.5 * np.cos(theta)
    assert gravity.CalcPotentialEnergy(context) == pytest.approx(9.81 * height, rel=1e-14)
    assert gravity.CalcConservativePower(context) == pytest.approx(tau_g[0] * theta_dot)
    assert gravity.CalcNonConservativePower(context) == 0.0
    forces = MultibodyForces(plant)
    gravity.CalcAndAddForceContribution(context, forces)
    np.testing.assert_array_equal(forces._F_BBo_W, _element_forces(plant, context)._F_BBo_W)
    np.testing.assert_allclose(plant.CalcGeneralizedForces(context, forces), tau_g, atol=1e-15)
    assert plant.EvalPotentialEnergy(context) == pytest.approx(9.81 * height, rel=1e-14)
    _check_power_is_minus_dPE_dt(plant, context, gravity)


# ---- everything at once: energy balance along a simulated motion -----------------------------
def test_energy_balance_of_springs_hinge_and_gravity():
    """d(KE + PE)/dt = non-conservative power (joint damping adds −Σ d·v², which the plant's
    CalcNonConservativePower leaves out, as Drake's does)."""
    plant = _plant(gravity=(0, -3.0, -9.81))
    a = plant.AddRigidBody("a", BOX)
    b = plant.AddRigidBody("b", BOX)
    ja = plant.AddJoint(RevoluteJoint("ja", plant.world_frame(), a.body_frame(), [1, 0, 0], 0.2))
    plant.AddJoint(BallRpyJoint("jb", a.body_frame(), b.body_frame(), 0.1))
    plant.AddForceElement(RevoluteSpring(ja, 0.3, 4.0))
    plant.AddForceElement(DoorHinge(ja, DoorHingeConfig(catch_width=0.3, motion_threshold=0.5)))
    plant.AddForceElement(
        LinearSpringDamper(plant.world_body(), [0, 0, 1], b, [0.1, 0, 0], 0.5, 30.0, 0.7)
    )
    plant.Finalize()
    context = _context(plant, [0.2, 0.1, -0.2, 0.3], [0.5, -0.4, 0.3, 0.2])
    xdot = plant.EvalTimeDerivatives(context).CopyToVector()
    h = 1e-6
    energies = []
    for sign in (1, -1):
        moved = context.Clone()
        moved.SetContinuousState(
            context.get_continuous_state_vector().CopyToVector() + sign * h * xdot
        )
        energies.append(plant.EvalKineticEnergy(moved) + plant.EvalPotentialEnergy(moved))
    dE_dt = (energies[0] - energies[1]) / (2 * h)
    v = plant.GetVelocities(context)
    damping = np.r_[0.2, 0.1, 0.1, 0.1]
    assert dE_dt == pytest.approx(
        plant.CalcNonConservativePower(context) - damping @ (v * v), rel=1e-6
    )


def test_spatial_force_type_is_checked():
    plant, body, _ = _pendulum()
    plant.Finalize()
    context = plant.CreateDefaultContext()
    with pytest.raises(TypeError, match="F_Bo_W must be a SpatialForce"):
        body.AddInForceInWorld(context, np.zeros(6), MultibodyForces(plant))
    body.AddInForceInWorld(context, SpatialForce(np.zeros(6)), MultibodyForces(plant))
