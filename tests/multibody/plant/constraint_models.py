"""Models with constraints, built the same way by mallard.all or pydrake.all (``m``): a
four-bar linkage closed by a ball constraint, a pendulum whose bob hangs from the arm by a
distance constraint, a body welded to a pendulum, two pendulums joined by a coupler, a
double pendulum with a tendon constraint, and a four-bar carrying every kind at once. Each
builder returns (finalized plant, initial positions q0)."""

import numpy as np

#: The four-bar's ground, crank, coupler and rocker lengths.
L0, L1, L2, L3 = 1.0, 0.4, 1.0, 0.7


def _discrete(m, time_step, approximation):
    plant = m.MultibodyPlant(time_step)
    if approximation is not None:
        plant.set_discrete_contact_approximation(
            getattr(m.DiscreteContactApproximation, approximation)
        )
    return plant


def four_bar_closure(theta1):
    """(crank, coupler relative, rocker) angles that close the four-bar for the crank angle
    ``theta1`` (links along their x axes, joints about y: a link at angle θ points along
    (cos θ, 0, −sin θ))."""
    C = np.array([L1 * np.cos(theta1), -L1 * np.sin(theta1)])
    B = np.array([L0, 0.0])
    d = np.linalg.norm(B - C)
    a = (L2**2 - L3**2 + d**2) / (2 * d)
    h = np.sqrt(L2**2 - a**2)
    P = C + a * (B - C) / d
    D = P + h * np.array([-(B - C)[1], (B - C)[0]]) / d
    phi2 = np.arctan2(-(D - C)[1], (D - C)[0])
    theta3 = np.arctan2(-(D - B)[1], (D - B)[0])
    return np.array([theta1, phi2 - theta1, theta3])


def four_bar(m, time_step=1e-3, approximation=None, theta1=0.6, p_BQ=(L3, 0.0, 0.0)):
    """Crank (revolute at the origin) and coupler (revolute at the crank's tip) in one tree,
    the rocker (revolute at (L0, 0, 0)) in another, the coupler's tip and the rocker's tip
    joined by a ball constraint (``p_BQ`` None: placed at Finalize)."""
    plant = _discrete(m, time_step, approximation)
    q0 = _add_four_bar(m, plant, theta1, p_BQ)
    plant.Finalize()
    return plant, q0


def _add_four_bar(m, plant, theta1, p_BQ):
    """Adds four_bar's links, joints and ball constraint to ``plant``; returns its q0."""

    def link(name, length, mass):
        M = m.SpatialInertia.SolidBoxWithMass(mass, length, 0.05, 0.05).Shift([-length / 2, 0, 0])
        return plant.AddRigidBody(name, M)

    crank, coupler, rocker = (
        link("crank", L1, 1.0),
        link("coupler", L2, 2.0),
        link("rocker", L3, 1.5),
    )
    Y = [0, 1, 0]
    plant.AddJoint(m.RevoluteJoint("j1", plant.world_frame(), crank.body_frame(), Y))
    tip = plant.AddFrame(
        m.FixedOffsetFrame("crank_tip", crank.body_frame(), m.RigidTransform([L1, 0, 0]))
    )
    plant.AddJoint(m.RevoluteJoint("j2", tip, coupler.body_frame(), Y))
    ground = plant.AddFrame(
        m.FixedOffsetFrame("ground_B", plant.world_frame(), m.RigidTransform([L0, 0, 0]))
    )
    plant.AddJoint(m.RevoluteJoint("j3", ground, rocker.body_frame(), Y))
    q0 = four_bar_closure(theta1)
    if p_BQ is None:
        for name, q in zip(("j1", "j2", "j3"), q0, strict=True):
            plant.GetJointByName(name).set_default_angle(q)
    plant.AddBallConstraint(coupler, [L2, 0, 0], rocker, None if p_BQ is None else list(p_BQ))
    return q0


def distance_pendulum(m, time_step=1e-3, approximation=None, stiffness=np.inf, damping=0.0):
    """An arm (revolute about y at the origin) and a free bob held 0.3 m from the arm's tip by
    a distance constraint (rigid, or a spring of ``stiffness`` and ``damping``)."""
    plant = _discrete(m, time_step, approximation)
    arm = plant.AddRigidBody(
        "arm", m.SpatialInertia.SolidBoxWithMass(1.0, 0.5, 0.05, 0.05).Shift([0, 0, -0.25])
    )
    plant.AddJoint(m.RevoluteJoint("j", plant.world_frame(), arm.body_frame(), [0, 1, 0]))
    bob = plant.AddRigidBody("bob", m.SpatialInertia.SolidSphereWithMass(0.5, 0.05))
    plant.AddDistanceConstraint(arm, [0, 0, -0.5], bob, [0, 0, 0], 0.3, stiffness, damping)
    plant.Finalize()
    return plant, np.array([0.4, 1, 0, 0, 0, 0.25, 0.05, -0.7])


def welded_box(m, time_step=1e-3, approximation=None):
    """A pendulum (revolute about y) and a free box welded to it (frame P of the pendulum,
    frame Q of the box), starting 0.1 m and a few degrees from the weld."""
    plant = _discrete(m, time_step, approximation)
    a = plant.AddRigidBody(
        "a", m.SpatialInertia.SolidBoxWithMass(1.0, 0.3, 0.2, 0.1).Shift([0.1, 0, -0.2])
    )
    plant.AddJoint(m.RevoluteJoint("j", plant.world_frame(), a.body_frame(), [0, 1, 0]))
    b = plant.AddRigidBody("b", m.SpatialInertia.SolidBoxWithMass(0.7, 0.2, 0.2, 0.3))
    X_AP = m.RigidTransform(m.RollPitchYaw(0.1, 0.2, 0.3), [0.2, 0.0, -0.4])
    X_BQ = m.RigidTransform(m.RollPitchYaw(-0.2, 0.1, 0.0), [0.0, 0.05, 0.1])
    plant.AddWeldConstraint(a, X_AP, b, X_BQ)
    plant.Finalize()
    w, x, y, z = m.RotationMatrix(m.RollPitchYaw(0.15, 0.25, 0.3)).ToQuaternion().wxyz()
    return plant, np.array([0.3, w, x, y, z, 0.25, 0.03, -0.55])


def coupled_pendulums(m, time_step=1e-3, approximation=None, gear_ratio=-1.5, offset=0.1):
    """Two pendulums (revolutes about y at the origin and at (1, 0, 0), two trees) coupled by
    q_a = gear_ratio·q_b + offset, starting 0.2 rad from it."""
    plant = _discrete(m, time_step, approximation)
    joints = []
    for name, x, mass in (("a", 0.0, 1.0), ("b", 1.0, 0.6)):
        body = plant.AddRigidBody(
            name, m.SpatialInertia.SolidBoxWithMass(mass, 0.05, 0.05, 0.6).Shift([0, 0, -0.3])
        )
        frame = plant.AddFrame(
            m.FixedOffsetFrame(f"pivot_{name}", plant.world_frame(), m.RigidTransform([x, 0, 0]))
        )
        joints.append(
            plant.AddJoint(m.RevoluteJoint(f"j{name}", frame, body.body_frame(), [0, 1, 0]))
        )
    plant.AddCouplerConstraint(joints[0], joints[1], gear_ratio, offset)
    plant.Finalize()
    return plant, np.array([gear_ratio * 0.4 + offset + 0.2, 0.4])


def all_kinds(m, time_step=1e-3, approximation=None):
    """The four-bar (its ball constraint) with a bob hanging 0.3 m from the rocker's tip by a
    compliant distance constraint, a box welded to the coupler's middle, and a pendulum at
    (0, 0.5, 0) coupled to the crank (q_p = 0.5·q1)."""
    plant = _discrete(m, time_step, approximation)
    q0 = _add_four_bar(m, plant, 0.6, (L3, 0.0, 0.0))
    coupler, rocker = plant.GetBodyByName("coupler"), plant.GetBodyByName("rocker")
    bob = plant.AddRigidBody("bob", m.SpatialInertia.SolidSphereWithMass(0.3, 0.05))
    plant.AddDistanceConstraint(rocker, [L3, 0, 0], bob, [0, 0, 0], 0.3, 2e3, 5.0)
    box = plant.AddRigidBody("box", m.SpatialInertia.SolidBoxWithMass(0.5, 0.1, 0.2, 0.1))
    plant.AddWeldConstraint(
        coupler, m.RigidTransform([L2 / 2, 0, 0.05]), box, m.RigidTransform([0, 0, -0.05])
    )
    pendulum = plant.AddRigidBody(
        "pendulum", m.SpatialInertia.SolidBoxWithMass(0.4, 0.05, 0.05, 0.5).Shift([0, 0, -0.25])
    )
    pivot = plant.AddFrame(
        m.FixedOffsetFrame("pivot", plant.world_frame(), m.RigidTransform([0, 0.5, 0]))
    )
    jp = plant.AddJoint(m.RevoluteJoint("jp", pivot, pendulum.body_frame(), [0, 1, 0]))
    plant.AddCouplerConstraint(jp, plant.GetJointByName("j1"), 0.5)
    plant.Finalize()
    # Each free body where its constraint puts it (the bob 0.3 m under the rocker's tip).
    context = plant.CreateDefaultContext()
    for name, q in zip(("j1", "j2", "j3"), q0, strict=True):
        plant.GetJointByName(name).set_angle(context, q)
    plant.GetJointByName("jp").set_angle(context, 0.5 * q0[0])
    X_WT = plant.CalcRelativeTransform(context, plant.world_frame(), rocker.body_frame())
    plant.SetFreeBodyPose(context, bob, m.RigidTransform(X_WT.multiply([L3, 0, 0]) - [0, 0, 0.3]))
    X_WC = plant.CalcRelativeTransform(context, plant.world_frame(), coupler.body_frame())
    plant.SetFreeBodyPose(context, box, X_WC.multiply(m.RigidTransform([L2 / 2, 0, 0.1])))
    return plant, plant.GetPositions(context)


#: A double pendulum (URDF) with a tendon constraint −0.5 ≤ q1 − 2·q2 + 0.1 ≤ 0.5.
TENDON_URDF = """<robot name="r" xmlns:drake="http://drake.mit.edu">
  <link name="world"/>
  <link name="l1"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    <inertia ixx="0.02" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l2"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    <inertia ixx="0.02" iyy="0.02" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j1" type="continuous"><parent link="world"/><child link="l1"/>
    <axis xyz="0 1 0"/></joint>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/>
    <origin xyz="0 0 -1"/><axis xyz="0 1 0"/></joint>
  <drake:tendon_constraint>
    <drake:tendon_constraint_joint name="j1" a="1.0"/>
    <drake:tendon_constraint_joint name="j2" a="-2.0"/>
    <drake:tendon_constraint_offset value="0.1"/>
    <drake:tendon_constraint_lower_limit value="-0.5"/>
    <drake:tendon_constraint_upper_limit value="0.5"/>
    <drake:tendon_constraint_stiffness value="STIFFNESS"/>
    <drake:tendon_constraint_damping value="DAMPING"/>
  </drake:tendon_constraint>
</robot>"""


def tendon_pendulum(m, time_step=1e-3, approximation=None, stiffness=1e3, damping=10.0):
    """The double pendulum of TENDON_URDF (a ``stiffness`` of 1e12 is near rigid), swinging
    from q = (0.8, 0.2), its tendon at its upper limit."""
    plant = _discrete(m, time_step, approximation)
    text = TENDON_URDF.replace("STIFFNESS", repr(stiffness)).replace("DAMPING", repr(damping))
    m.Parser(plant).AddModelsFromString(text, "urdf")
    plant.Finalize()
    return plant, np.array([0.8, 0.2])
