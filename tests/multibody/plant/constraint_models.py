"""Models with constraints, built the same way by mallard.all or pydrake.all (``m``): a
four-bar linkage closed by a ball constraint, a pendulum whose bob hangs from the arm by a
distance constraint, a body welded to a pendulum, and a double pendulum with a tendon
constraint. Each builder returns (finalized plant, initial positions q0)."""

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
    plant.Finalize()
    return plant, q0


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
