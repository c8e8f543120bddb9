"""MultibodyPlant ports: the ports declared before and after Finalize() in pydrake's order,
their accessors and errors, and the values of the state, body-kinematics and actuation
ports."""

import re

import numpy as np
import pytest

from mallard.common.value import AbstractValue
from mallard.math import RigidTransform
from mallard.multibody.math import SpatialVelocity
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import ModelInstanceIndex, default_model_instance
from mallard.systems.framework import PortDataType
from tests.multibody.plant.plant_models import box, library, revolute

M = library("mallard")
MI = ModelInstanceIndex


def raises(exc, message):
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


def ports_model(time_step=0.0, finalize=True):
    """The notes' §10 model: a (m1, revolute ja, actuated), b (m2, revolute), c (m2, free)."""
    plant = MultibodyPlant(time_step)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    a = plant.AddRigidBody("a", m1, box(M))
    b = plant.AddRigidBody("b", m2, box(M))
    plant.AddRigidBody("c", m2, box(M))
    plant.AddJointActuator("act", revolute(M, plant, "ja", plant.world_body(), a))
    revolute(M, plant, "jb", plant.world_body(), b)
    if finalize:
        plant.Finalize()
    return plant


INPUTS = [
    ("geometry_query", PortDataType.kAbstractValued, 0),
    ("actuation", PortDataType.kVectorValued, 1),
    ("applied_generalized_force", PortDataType.kVectorValued, 8),
    ("applied_spatial_force", PortDataType.kAbstractValued, 0),
    ("WorldModelInstance_actuation", PortDataType.kVectorValued, 0),
    ("WorldModelInstance_desired_state", PortDataType.kVectorValued, 0),
    ("DefaultModelInstance_actuation", PortDataType.kVectorValued, 0),
    ("DefaultModelInstance_desired_state", PortDataType.kVectorValued, 0),
    ("m1_actuation", PortDataType.kVectorValued, 1),
    ("m1_desired_state", PortDataType.kVectorValued, 2),
    ("m2_actuation", PortDataType.kVectorValued, 0),
    ("m2_desired_state", PortDataType.kVectorValued, 0),
]
OUTPUTS = [
    ("geometry_pose", 0),
    ("deformable_body_configuration", 0),
    ("state", 17),
    ("body_poses", 0),
    ("body_spatial_velocities", 0),
    ("body_spatial_accelerations", 0),
    ("generalized_acceleration", 8),
    ("net_actuation", 1),
    ("reaction_forces", 0),
    ("contact_results", 0),
] + [
    (f"{instance}_{what}", size)
    for instance, sizes in [
        ("WorldModelInstance", (0, 0, 0, 0)),
        ("DefaultModelInstance", (0, 0, 0, 0)),
        ("m1", (2, 1, 1, 1)),
        ("m2", (15, 7, 7, 0)),
    ]
    for what, size in zip(
        ("state", "generalized_acceleration", "generalized_contact_forces", "net_actuation"),
        sizes,
        strict=True,
    )
]


def test_ports_before_finalize():
    plant = ports_model(finalize=False)
    assert plant.num_input_ports() == 1 and plant.num_output_ports() == 2
    assert plant.get_input_port(0).get_name() == "geometry_query"
    assert [plant.get_output_port(i).get_name() for i in range(2)] == [
        "geometry_pose",
        "deformable_body_configuration",
    ]
    assert plant.get_geometry_query_input_port() is plant.get_input_port(0)
    assert plant.get_geometry_pose_output_port() is plant.get_output_port(0)


@pytest.mark.parametrize("time_step", [0.0, 0.01])
def test_ports_after_finalize(time_step):
    plant = ports_model(time_step)
    inputs = [plant.get_input_port(i) for i in range(plant.num_input_ports())]
    assert [(p.get_name(), p.get_data_type(), p.size()) for p in inputs] == INPUTS
    outputs = [plant.get_output_port(i) for i in range(plant.num_output_ports())]
    assert [(p.get_name(), p.size()) for p in outputs] == OUTPUTS
    assert [p.get_index() for p in inputs] == list(range(12))
    assert all(p.get_system() is plant for p in inputs + outputs)


def test_port_accessors():
    plant = ports_model()
    m1, m2 = MI(2), MI(3)
    named = {
        "actuation": plant.get_actuation_input_port(),
        "m1_actuation": plant.get_actuation_input_port(m1),
        "m2_desired_state": plant.get_desired_state_input_port(m2),
        "applied_generalized_force": plant.get_applied_generalized_force_input_port(),
        "applied_spatial_force": plant.get_applied_spatial_force_input_port(),
        "geometry_query": plant.get_geometry_query_input_port(),
    }
    for name, port in named.items():
        assert plant.GetInputPort(name) is port
    named = {
        "state": plant.get_state_output_port(),
        "m1_state": plant.get_state_output_port(m1),
        "body_poses": plant.get_body_poses_output_port(),
        "body_spatial_velocities": plant.get_body_spatial_velocities_output_port(),
        "body_spatial_accelerations": plant.get_body_spatial_accelerations_output_port(),
        "generalized_acceleration": plant.get_generalized_acceleration_output_port(),
        "m2_generalized_acceleration": plant.get_generalized_acceleration_output_port(m2),
        "m2_generalized_contact_forces": plant.get_generalized_contact_forces_output_port(m2),
        "net_actuation": plant.get_net_actuation_output_port(),
        "DefaultModelInstance_net_actuation": plant.get_net_actuation_output_port(
            default_model_instance()
        ),
        "reaction_forces": plant.get_reaction_forces_output_port(),
        "contact_results": plant.get_contact_results_output_port(),
        "geometry_pose": plant.get_geometry_pose_output_port(),
    }
    for name, port in named.items():
        assert plant.GetOutputPort(name) is port
    assert plant.HasInputPort("m2_actuation") and not plant.HasOutputPort("m3_state")


@pytest.mark.parametrize(
    "getter",
    [
        "get_actuation_input_port",
        "get_applied_generalized_force_input_port",
        "get_applied_spatial_force_input_port",
        "get_state_output_port",
        "get_body_poses_output_port",
        "get_body_spatial_velocities_output_port",
        "get_body_spatial_accelerations_output_port",
        "get_generalized_acceleration_output_port",
        "get_net_actuation_output_port",
        "get_reaction_forces_output_port",
        "get_contact_results_output_port",
    ],
)
def test_port_getters_before_finalize(getter):
    plant = ports_model(finalize=False)
    message = f"Pre-finalize calls to '{getter}()' are not allowed; you must call Finalize() first."
    with raises(RuntimeError, message):
        getattr(plant, getter)()


@pytest.mark.parametrize(
    "getter",
    [
        "get_actuation_input_port",
        "get_desired_state_input_port",
        "get_state_output_port",
        "get_generalized_acceleration_output_port",
        "get_generalized_contact_forces_output_port",
        "get_net_actuation_output_port",
    ],
)
def test_per_instance_port_getters(getter):
    plant = ports_model(finalize=False)
    message = f"Pre-finalize calls to '{getter}()' are not allowed; you must call Finalize() first."
    with raises(RuntimeError, message):
        getattr(plant, getter)(MI(2))
    plant.Finalize()
    # pydrake: SystemExit.
    with raises(
        RuntimeError, "The given ModelInstanceIndex(9) is out of bounds (must be less than 4)"
    ):
        getattr(plant, getter)(MI(9))
    with pytest.raises(TypeError):
        getattr(plant, getter)(2)


@pytest.mark.parametrize("time_step", [0.0, 0.01])
def test_state_and_body_outputs(time_step):
    plant = ports_model(time_step)
    context = plant.CreateDefaultContext()
    x = np.arange(1.0, 18.0) / 10
    plant.SetPositionsAndVelocities(context, x)
    np.testing.assert_array_equal(plant.get_state_output_port().Eval(context), x)
    for i in range(4):
        np.testing.assert_array_equal(
            plant.get_state_output_port(MI(i)).Eval(context),
            plant.GetPositionsAndVelocities(context, MI(i)),
        )
    poses = plant.get_body_poses_output_port().Eval(context)
    velocities = plant.get_body_spatial_velocities_output_port().Eval(context)
    assert len(poses) == len(velocities) == plant.num_bodies()
    for i, (X, V) in enumerate(zip(poses, velocities, strict=True)):
        body = plant.get_body(M.BodyIndex(i))
        assert isinstance(X, RigidTransform) and isinstance(V, SpatialVelocity)
        assert X.IsExactlyEqualTo(plant.EvalBodyPoseInWorld(context, body))
        np.testing.assert_array_equal(
            V.get_coeffs(), plant.EvalBodySpatialVelocityInWorld(context, body).get_coeffs()
        )
    assert poses[0].IsExactlyIdentity() and not velocities[0].get_coeffs().any()
    value = plant.get_body_poses_output_port().Allocate()
    assert isinstance(value, AbstractValue)
    plant.get_body_poses_output_port().Calc(context, value)
    assert len(value.get_value()) == plant.num_bodies()
    state = plant.get_state_output_port().Eval(context)
    state[0] = 99.0  # a copy
    assert plant.GetPositions(context)[0] == 0.1


def actuation_model():
    """Instances m1 (actuators on ja, jc) and m2 (on jb): u = [u_ja, u_jb, u_jc]."""
    plant = MultibodyPlant(0.0)
    m1, m2 = plant.AddModelInstance("m1"), plant.AddModelInstance("m2")
    a, c = (plant.AddRigidBody(n, m1, box(M)) for n in "ac")
    b = plant.AddRigidBody("b", m2, box(M))
    for name, body in (("ja", a), ("jb", b), ("jc", c)):
        plant.AddJointActuator("u_" + name, revolute(M, plant, name, plant.world_body(), body))
    plant.Finalize()
    return plant


def test_net_actuation():
    plant = actuation_model()
    m1, m2 = MI(2), MI(3)
    context = plant.CreateDefaultContext()
    net = plant.get_net_actuation_output_port()
    np.testing.assert_array_equal(net.Eval(context), [0, 0, 0])  # nothing connected
    plant.get_actuation_input_port(m1).FixValue(context, [1.0, 2.0])
    np.testing.assert_array_equal(net.Eval(context), [1, 0, 2])
    plant.get_actuation_input_port(m2).FixValue(context, [5.0])
    np.testing.assert_array_equal(net.Eval(context), [1, 5, 2])
    # The whole-plant input adds to the per-instance ones, as in pydrake 1.51.
    plant.get_actuation_input_port().FixValue(context, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(net.Eval(context), [2, 7, 5])
    np.testing.assert_array_equal(plant.get_net_actuation_output_port(m1).Eval(context), [2, 5])
    np.testing.assert_array_equal(plant.get_net_actuation_output_port(m2).Eval(context), [7])
    assert plant.get_net_actuation_output_port(MI(1)).Eval(context).shape == (0,)
    only_whole = plant.CreateDefaultContext()
    plant.get_actuation_input_port().FixValue(only_whole, np.array([[4.0], [5.0], [6.0]]))
    np.testing.assert_array_equal(net.Eval(only_whole), [4, 5, 6])


@pytest.mark.parametrize("whole", [True, False])
def test_nan_in_an_actuation_input_is_an_error(whole):
    """pydrake's messages, for the whole-plant input and a model instance's."""
    plant = actuation_model()
    context = plant.CreateDefaultContext()
    if whole:
        plant.get_actuation_input_port().FixValue(context, [1.0, np.nan, 3.0])
        message = "Detected NaN in the actuation input port for all instances."
    else:
        plant.get_actuation_input_port(MI(3)).FixValue(context, [np.nan])
        message = "Actuation input port for model instance m2 contains NaN."
    for evaluate in (plant.get_net_actuation_output_port().Eval, plant.EvalTimeDerivatives):
        with raises(RuntimeError, message):
            evaluate(context)
    plant.get_actuation_input_port().FixValue(context, [np.inf, 0.0, 0.0])
    plant.get_actuation_input_port(MI(3)).FixValue(context, [0.0])
    assert np.isinf(plant.get_net_actuation_output_port().Eval(context)[0])  # ∞ is no NaN


def test_actuation_port_sizes_are_checked():
    plant = actuation_model()
    context = plant.CreateDefaultContext()
    message = (
        "System::FixInputPortTypeCheck(): expected value of type "
        "drake::systems::BasicVector<double> with size=3 for input port 'actuation' (index 1) "
        "but the actual type was drake::systems::BasicVector<double> with size=2. (System ::_)"
    )
    with raises(RuntimeError, message):
        plant.get_actuation_input_port().FixValue(context, [1.0, 2.0])
    with pytest.raises(RuntimeError, match="'m1_actuation' \\(index 8\\)"):
        plant.get_actuation_input_port(MI(2)).FixValue(context, [1.0])
    assert plant.get_desired_state_input_port(MI(2)).size() == 4


def test_port_evaluation_checks_the_context():
    plant = ports_model()
    other = ports_model().CreateDefaultContext()
    message = (
        "OutputPort: The Context given as an argument was not created for this OutputPort[2] "
        "(state) of System ::_ (MultibodyPlant<double>)"
    )
    with raises(RuntimeError, message):
        plant.get_state_output_port().Eval(other)
    with pytest.raises(RuntimeError, match="was not created for this InputPort\\[1\\]"):
        plant.get_actuation_input_port().FixValue(other, [1.0])


def test_geometry_pose_port_is_empty_without_a_scene_graph():
    plant = ports_model()
    context = plant.CreateDefaultContext()
    assert not plant.get_geometry_query_input_port().HasValue(context)
    assert plant.get_geometry_pose_output_port().Eval(context).ids() == []


def moving_context(plant):
    context = plant.CreateDefaultContext()
    q = np.linspace(0.1, 1.0, plant.num_positions())
    v = np.linspace(-1.0, 1.0, plant.num_velocities())
    plant.SetPositionsAndVelocities(context, np.r_[q, v])
    plant.get_actuation_input_port().FixValue(context, [0.5])
    return context


def test_acceleration_outputs_of_a_continuous_plant():
    plant = ports_model()
    context = moving_context(plant)
    vdot = plant.EvalTimeDerivatives(context).get_generalized_velocity().CopyToVector()
    np.testing.assert_array_equal(
        plant.get_generalized_acceleration_output_port().Eval(context), vdot
    )
    assert vdot[-1] == pytest.approx(-9.81)  # c falls freely
    m2 = MI(3)
    np.testing.assert_array_equal(
        plant.get_generalized_acceleration_output_port(m2).Eval(context),
        plant.GetVelocitiesFromArray(m2, vdot),
    )
    accelerations = plant.get_body_spatial_accelerations_output_port().Eval(context)
    assert len(accelerations) == plant.num_bodies()
    for i, A in enumerate(accelerations):
        expected = plant.EvalBodySpatialAccelerationInWorld(context, plant.get_body(M.BodyIndex(i)))
        np.testing.assert_array_equal(A.get_coeffs(), expected.get_coeffs())
    assert not plant.get_generalized_contact_forces_output_port(m2).Eval(context).any()
    np.testing.assert_array_equal(plant.get_net_actuation_output_port().Eval(context), [0.5])


def test_sampled_outputs_of_a_discrete_plant():
    """pydrake reports the last discrete update; before the first one (and mallard runs
    none), zeros."""
    plant = ports_model(time_step=0.01)
    context = moving_context(plant)
    for port in (
        plant.get_generalized_acceleration_output_port(),
        plant.get_generalized_acceleration_output_port(MI(3)),
        plant.get_generalized_contact_forces_output_port(MI(3)),
        plant.get_net_actuation_output_port(),
        plant.get_net_actuation_output_port(MI(2)),
    ):
        value = port.Eval(context)
        assert value.shape == (port.size(),) and not value.any()
    accelerations = plant.get_body_spatial_accelerations_output_port().Eval(context)
    assert len(accelerations) == 4 and not any(A.get_coeffs().any() for A in accelerations)
