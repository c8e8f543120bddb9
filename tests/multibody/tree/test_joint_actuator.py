"""JointActuator (effort limit, inputs, actuation vectors, rotor inertia and gear ratio, PD
gains) and PdControllerGains."""

import math

import numpy as np
import pytest

from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import (
    JointActuatorIndex,
    PdControllerGains,
    PrismaticJoint,
    RevoluteJoint,
    SpatialInertia,
)

M0 = SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)


def build(finalize=True):
    """Three one-dof joints; actuators added out of joint order: a0 on j2, a1 on j0, a2 on j1."""
    plant = MultibodyPlant(0.0)
    m = plant.AddModelInstance("m")
    joints = []
    parent = plant.world_frame()
    for i in range(3):
        body = plant.AddRigidBody(f"b{i}", m, M0)
        cls = PrismaticJoint if i == 1 else RevoluteJoint
        joints.append(plant.AddJoint(cls(f"j{i}", parent, body.body_frame(), [0, 0, 1])))
        parent = body.body_frame()
    actuators = [
        plant.AddJointActuator("a0", joints[2]),
        plant.AddJointActuator("a1", joints[0], 5.0),
        plant.AddJointActuator("a2", joints[1], effort_limit=2.5),
    ]
    if finalize:
        plant.Finalize()
    return plant, joints, actuators


@pytest.fixture(scope="module")
def model():
    return build()


def test_identity(model):
    plant, joints, actuators = model
    for i, (actuator, joint) in enumerate(zip(actuators, joints[2:] + joints[:2], strict=True)):
        assert actuator.name() == f"a{i}"
        assert actuator.joint() is joint
        assert actuator.index() == JointActuatorIndex(i)
        assert actuator.model_instance() == plant.GetModelInstanceByName("m")
        assert actuator.GetParentPlant() is plant
        assert not actuator.is_ephemeral()
        assert (actuator.input_start(), actuator.num_inputs()) == (i, 1)
    assert repr(actuators[1]) == "<JointActuator name='a1' index=1 model_instance=2>"
    assert not hasattr(actuators[0], "scoped_name")


def test_input_start_before_finalize():
    _, _, actuators = build(finalize=False)
    assert [a.input_start() for a in actuators] == [0, 1, 2]


def test_effort_limit():
    _, _, actuators = build(finalize=False)
    assert actuators[0].effort_limit() == math.inf
    assert (actuators[1].effort_limit(), actuators[2].effort_limit()) == (5.0, 2.5)
    actuators[0].set_effort_limit(effort_limit=7)
    assert actuators[0].effort_limit() == 7.0
    for bad, text in ((-1, "-1"), (0, "0"), (np.nan, "nan"), (-0.5, "-0.5")):
        message = f"^JointActuator effort limit must be strictly positive \\(not {text}\\)$"
        with pytest.raises(RuntimeError, match=message):
            actuators[0].set_effort_limit(bad)
    with pytest.raises(TypeError):
        actuators[0].set_effort_limit("1")
    assert actuators[0].effort_limit() == 7.0
    actuators[0].set_effort_limit(math.inf)
    assert actuators[0].effort_limit() == math.inf


def test_get_actuation_vector(model):
    _, _, actuators = model
    u = np.array([10.0, 11.0, 12.0])
    for i, actuator in enumerate(actuators):
        np.testing.assert_array_equal(actuator.get_actuation_vector(u), [u[i]])
        np.testing.assert_array_equal(actuator.get_actuation_vector(u=u.reshape(3, 1)), [u[i]])
    actuators[0].get_actuation_vector(u)[0] = 99  # a copy
    assert u[0] == 10
    with pytest.raises(RuntimeError, match="'a0': get_actuation_vector\\(\\): u must have"):
        actuators[0].get_actuation_vector([1.0, 2.0])
    for bad in (4.0, [[1.0, 2.0, 3.0]], ["a", "b", "c"]):
        with pytest.raises(TypeError):
            actuators[0].get_actuation_vector(bad)


def test_set_actuation_vector(model):
    _, _, actuators = model
    u = np.zeros(3)
    assert actuators[2].set_actuation_vector([3.0], u) is None
    actuators[0].set_actuation_vector(u_actuator=np.array([4.0]), u=u)
    np.testing.assert_array_equal(u, [4.0, 0.0, 3.0])
    column = np.zeros((3, 1))
    actuators[1].set_actuation_vector([5.0], column)
    np.testing.assert_array_equal(column[:, 0], [0.0, 5.0, 0.0])
    method = "'a1': set_actuation_vector\\(\\)"
    with pytest.raises(RuntimeError, match=f"{method}: u_actuator must have num_inputs"):
        actuators[1].set_actuation_vector([1.0, 2.0], u)
    with pytest.raises(RuntimeError, match=f"{method}: u must have num_actuated_dofs\\(\\) = 3"):
        actuators[1].set_actuation_vector([1.0], np.zeros(2))
    with pytest.raises(RuntimeError, match=f"{method}: u must be an array, not None"):
        actuators[1].set_actuation_vector([1.0], None)
    read_only = np.zeros(3)
    read_only.flags.writeable = False
    for bad in ([0.0, 0.0, 0.0], np.zeros(3, dtype=int), read_only, np.zeros((1, 3))):
        with pytest.raises(TypeError, match=f"{method}: u must be a writeable float64"):
            actuators[1].set_actuation_vector([1.0], bad)
    np.testing.assert_array_equal(u, [4.0, 0.0, 3.0])


def test_rotor_inertia_and_gear_ratio():
    plant, _, actuators = build(finalize=False)
    a = actuators[1]
    assert (a.default_rotor_inertia(), a.default_gear_ratio(), a.default_reflected_inertia()) == (
        0.0,
        1.0,
        0.0,
    )
    a.set_default_rotor_inertia(rotor_inertia=2.0)
    a.set_default_gear_ratio(gear_ratio=3.0)
    assert a.default_reflected_inertia() == 18.0
    a.set_default_gear_ratio(-3.0)  # accepted, as in pydrake
    assert a.default_gear_ratio() == -3.0
    with pytest.raises(TypeError):
        a.set_default_rotor_inertia([2.0])
    plant.Finalize()
    context = plant.CreateDefaultContext()
    assert (a.rotor_inertia(context), a.gear_ratio(context)) == (2.0, -3.0)
    assert a.calc_reflected_inertia(context) == 18.0
    assert a.SetRotorInertia(context, rotor_inertia=5.0) is None
    a.SetGearRatio(context, gear_ratio=0.5)
    assert (a.rotor_inertia(context), a.gear_ratio(context)) == (5.0, 0.5)
    assert a.calc_reflected_inertia(context) == 1.25
    assert (actuators[0].rotor_inertia(context), actuators[0].gear_ratio(context)) == (0.0, 1.0)
    assert a.default_reflected_inertia() == 18.0
    assert a.rotor_inertia(plant.CreateDefaultContext()) == 2.0
    # New defaults after Finalize() apply to the Contexts created afterwards, as in pydrake.
    a.set_default_rotor_inertia(4.0)
    assert a.rotor_inertia(context) == 5.0
    assert a.rotor_inertia(plant.CreateDefaultContext()) == 4.0
    with pytest.raises(TypeError):
        a.SetGearRatio(context, "1")
    other, _, _ = build()
    with pytest.raises(RuntimeError, match="Context"):
        a.rotor_inertia(other.CreateDefaultContext())


def test_pd_controller_gains():
    gains = PdControllerGains()
    assert (gains.p, gains.d) == (0.0, 0.0)
    gains = PdControllerGains(p=1, d=2)
    assert (gains.p, gains.d) == (1.0, 2.0) and isinstance(gains.p, float)
    gains.p, gains.d = 3, np.float32(4)
    assert (gains.p, gains.d) == (3.0, 4.0)
    assert repr(gains) == "PdControllerGains(p=3.0, d=4.0)"
    with pytest.raises(TypeError):
        PdControllerGains(1, 2)
    with pytest.raises(AttributeError, match="no attribute 'x'"):
        PdControllerGains(p=1, x=2)
    with pytest.raises(TypeError):
        gains.p = "a"


def test_controller_gains():
    plant, _, actuators = build(finalize=False)
    a = actuators[0]
    assert not a.has_controller()
    with pytest.raises(
        RuntimeError, match="'a0': get_controller_gains\\(\\): this actuator has no"
    ):
        a.get_controller_gains()
    a.set_controller_gains(gains=PdControllerGains(p=10, d=1))
    assert a.has_controller()
    gains = a.get_controller_gains()
    assert (gains.p, gains.d) == (10.0, 1.0)
    gains.p = 99  # a copy
    assert a.get_controller_gains().p == 10.0
    a.set_controller_gains(PdControllerGains(p=0, d=2))  # p = 0 is accepted, as in pydrake
    assert a.get_controller_gains().p == 0.0
    for p, d in ((-1, 1), (1, -1), (np.nan, 1), (1, np.inf), (np.inf, 1)):
        with pytest.raises(RuntimeError, match="'a0': set_controller_gains\\(\\): the gains must"):
            a.set_controller_gains(PdControllerGains(p=p, d=d))
    assert (a.get_controller_gains().p, a.get_controller_gains().d) == (0.0, 2.0)
    with pytest.raises(TypeError):
        a.set_controller_gains((1.0, 2.0))
    a.set_controller_gains(PdControllerGains(p=0, d=0))  # removes the controller
    assert not a.has_controller()
    plant.Finalize()
    plant.CreateDefaultContext()
    actuators[1].set_controller_gains(PdControllerGains(p=2, d=3))  # allowed, as in pydrake 1.51
    assert actuators[1].get_controller_gains().d == 3.0
