"""RemoveJoint and RemoveJointActuator against pydrake: indices are never given again, the
plant's lists, names and counts stay consistent before Finalize, the finalized plant (q, v, u
order, dynamics) is the same, and the errors are Drake's, in Drake's order."""

import importlib

import numpy as np
import pytest

pytest.importorskip("pydrake")


def chain(m, time_step=0.0):
    """World → b0 → b1 → b2 → b3 by revolute joints j0..j3 (j1 about y), actuators a0..a3."""
    plant = m.MultibodyPlant(time_step)
    M = m.SpatialInertia.SolidBoxWithMass(1.0, 0.1, 0.2, 0.3)
    bodies = [plant.AddRigidBody(f"b{i}", M) for i in range(4)]
    joints = []
    for i, body in enumerate(bodies):
        parent = plant.world_frame() if i == 0 else bodies[i - 1].body_frame()
        X = m.RigidTransform([0.0, 0.0, -0.5])
        frame = plant.AddFrame(m.FixedOffsetFrame(f"f{i}", parent, X))
        axis = [0.0, 1.0, 0.0] if i == 1 else [1.0, 0.0, 0.0]
        joints.append(plant.AddJoint(m.RevoluteJoint(f"j{i}", frame, body.body_frame(), axis)))
    actuators = [plant.AddJointActuator(f"a{i}", j) for i, j in enumerate(joints)]
    return plant, bodies, joints, actuators


def remodel(m):
    """Removes a1 and j1 (b1 becomes free), adds a prismatic joint j4 (b0 → b1) with an
    actuator a4; returns what both libraries should agree on."""
    plant, bodies, joints, actuators = chain(m)
    plant.RemoveJointActuator(actuators[1])
    before = [
        plant.num_actuators(),
        [int(i) for i in plant.GetJointActuatorIndices()],
        plant.has_joint_actuator(m.JointActuatorIndex(1)),
    ]
    plant.RemoveJoint(joints[1])
    before += [
        plant.num_joints(),
        [int(i) for i in plant.GetJointIndices()],
        plant.has_joint(m.JointIndex(1)),
        plant.HasJointNamed("j1"),
        [plant.get_joint(i).name() for i in plant.GetJointIndices()],
    ]
    j4 = plant.AddJoint(
        m.PrismaticJoint("j4", bodies[0].body_frame(), bodies[1].body_frame(), [0, 0, 1])
    )
    a4 = plant.AddJointActuator("a4", j4)
    before += [int(j4.index()), int(a4.index())]
    plant.Finalize()
    context = plant.CreateDefaultContext()
    q = plant.GetDefaultPositions()
    for k, joint in enumerate((joints[0], joints[2], joints[3], j4)):
        q[joint.position_start()] = 0.2 * (k + 1)
    v = np.random.default_rng(3).normal(size=plant.num_velocities())
    plant.SetPositionsAndVelocities(context, np.concatenate((q, v)))
    u = np.arange(1.0, plant.num_actuated_dofs() + 1)
    plant.get_actuation_input_port().FixValue(context, u)
    after = [
        plant.num_joints(),
        [int(i) for i in plant.GetJointIndices()],
        plant.GetPositionNames(),
        plant.GetVelocityNames(),
        plant.GetActuatorNames(),
        [a.input_start() for a in (actuators[0], actuators[2], actuators[3], a4)],
        plant.MakeActuationMatrix(),
        plant.MakeActuatorSelectorMatrix([a4.index(), actuators[0].index()]),
        plant.CalcMassMatrix(context),
        plant.EvalTimeDerivatives(context).CopyToVector(),
    ]
    return before, after


def test_remodeled_plant_agrees_with_pydrake():
    (pb, pa), (mb, ma) = (
        remodel(importlib.import_module(f"{r}.all")) for r in ("pydrake", "mallard")
    )
    assert pb == mb
    for p, m in zip(pa, ma, strict=True):
        if isinstance(p, np.ndarray):
            np.testing.assert_allclose(m, p, rtol=1e-12, atol=1e-12)
        else:
            assert m == p


def test_locked_joint_after_removal():
    """Locks, rotor inertias and limits are per joint ordinal: they follow the joint."""
    for root in ("pydrake", "mallard"):
        m = importlib.import_module(f"{root}.all")
        plant, _, joints, actuators = chain(m, time_step=0.01)
        plant.RemoveJointActuator(actuators[0])
        plant.RemoveJointActuator(actuators[1])
        plant.RemoveJoint(joints[1])
        actuators[3].set_default_rotor_inertia(0.5)
        actuators[3].set_default_gear_ratio(2.0)
        plant.Finalize()
        context = plant.CreateDefaultContext()
        plant.get_actuation_input_port().FixValue(context, [0.0, 0.0])
        plant.SetPositionsAndVelocities(context, np.full(plant.num_multibody_states(), 0.3))
        joints[3].Lock(context)
        assert joints[3].is_locked(context) and not joints[2].is_locked(context)
        assert actuators[3].calc_reflected_inertia(context) == 4.0 * 0.5
        m.Simulator(plant, context).AdvanceTo(0.05)
        assert joints[3].GetOneVelocity(context) == 0.0 and joints[2].GetOneVelocity(context)


ERRORS = [
    ("force elements", r"RemoveJoint: This plant has 1 user-added force elements\. This plant "
     r"must have 0 user-added force elements in order to remove joint with index 1\."),
    ("constraints", r"RemoveJoint: This plant has 1 user-added constraints\. This plant must "
     r"have 0 user-added constraints in order to remove joint with index 1\."),
    ("actuator", r"RemoveJoint: joint with index 1 has the following dependent model elements "
     r"which must be removed prior to joint removal: \[JointActuator\(name: a1, index: 1\)\]\."),
    ("finalized", r"Post-finalize calls to 'RemoveJoint\(\)' are not allowed"),
    ("foreign", r"This multibody element does not belong to the supplied MultibodyTree\."),
    ("removed", r"This multibody element does not belong to the supplied MultibodyTree\."),
]  # fmt: skip


@pytest.mark.parametrize("case, message", ERRORS)
def test_remove_joint_errors(case, message):
    for root in ("pydrake", "mallard"):
        m = importlib.import_module(f"{root}.all")
        plant, bodies, joints, actuators = chain(m, time_step=0.01)
        for a in (actuators[1],) if case != "actuator" else ():
            plant.RemoveJointActuator(a)
        if case == "force elements":
            plant.AddForceElement(m.LinearSpringDamper(bodies[0], [0, 0, 0], bodies[1],
                                                       [0, 0, 0], 1.0, 1.0, 1.0))  # fmt: skip
        elif case == "constraints":
            plant.AddCouplerConstraint(joints[2], joints[3], 1.0)
        elif case == "finalized":
            plant.Finalize()
        elif case == "removed":
            plant.RemoveJoint(joints[1])
        target = joints[1]
        if case == "foreign":
            target = chain(m)[2][1]
        with pytest.raises(RuntimeError, match=message):
            plant.RemoveJoint(target)


def test_remove_actuator_errors_and_lookups():
    for root in ("pydrake", "mallard"):
        m = importlib.import_module(f"{root}.all")
        plant, _, joints, actuators = chain(m)
        other = chain(m)[3][0]
        with pytest.raises(RuntimeError, match="does not belong to the supplied MultibodyTree"):
            plant.RemoveJointActuator(other)
        plant.RemoveJointActuator(actuators[2])
        with pytest.raises(RuntimeError, match=r"The JointActuatorIndex\(2\) has been removed"):
            plant.get_joint_actuator(m.JointActuatorIndex(2))
        with pytest.raises(RuntimeError, match=r"JointActuatorIndex\(9\) is out of bounds \(must "
                           r"be less than 4\)"):  # fmt: skip
            plant.get_joint_actuator(m.JointActuatorIndex(9))
        plant.RemoveJointActuator(actuators[1])
        plant.RemoveJoint(joints[1])
        with pytest.raises(RuntimeError, match=r"The JointIndex\(1\) has been removed"):
            plant.get_joint(m.JointIndex(1))
        with pytest.raises(RuntimeError, match="There is no Joint named 'j1'"):
            plant.GetJointByName("j1")
        plant.Finalize()
        with pytest.raises(RuntimeError, match="Post-finalize calls to 'RemoveJointActuator"):
            plant.RemoveJointActuator(actuators[0])


def test_removed_elements_are_detached():
    """mallard: a removed joint or actuator belongs to no plant (pydrake deletes it)."""
    import mallard.all as M

    plant, _, joints, actuators = chain(M)
    plant.RemoveJointActuator(actuators[1])
    plant.RemoveJoint(joints[1])
    with pytest.raises(RuntimeError, match="not owned by a MultibodyPlant"):
        joints[1].GetParentPlant()
    assert joints[1].index() == M.JointIndex(-1) and actuators[1].index() == M.JointActuatorIndex(
        -1
    )
    with pytest.raises(TypeError, match="expected a Joint"):
        plant.RemoveJoint(actuators[0])
    plant.AddJoint(M.RevoluteJoint("j1", joints[0].child_body().body_frame(),
                                   joints[2].parent_body().body_frame(), [1, 0, 0]))  # fmt: skip
    plant.Finalize()
    assert plant.num_positions() == 4 and plant.num_actuated_dofs() == 3
