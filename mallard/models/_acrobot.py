"""The acrobot: a planar double pendulum actuated at the elbow (Spong 1994), with the
parameters of Drake's acrobot example."""

from dataclasses import dataclass

import numpy as np

from mallard.math import RigidTransform
from mallard.multibody.plant import MultibodyPlant
from mallard.multibody.tree import RevoluteJoint, RotationalInertia, SpatialInertia


@dataclass
class AcrobotParameters:
    """Link lengths l, masses m, distances lc from each joint to the link's center of mass,
    moments of inertia Ic about the center of mass (about the joint axis), joint damping b."""

    l1: float = 1.0
    l2: float = 2.0
    m1: float = 1.0
    m2: float = 1.0
    lc1: float = 0.5
    lc2: float = 1.0
    Ic1: float = 0.083
    Ic2: float = 0.33
    b1: float = 0.1
    b2: float = 0.1


def MakeAcrobotPlant(parameters=None, time_step=0.0):
    """A finalized MultibodyPlant of the acrobot: links hang along −z from revolute joints
    "shoulder" and "elbow" about the y axis; the elbow is actuated ("elbow" actuator)."""
    p = parameters or AcrobotParameters()
    plant = MultibodyPlant(time_step)
    links = []
    for name, m, lc, Ic in (("link1", p.m1, p.lc1, p.Ic1), ("link2", p.m2, p.lc2, p.Ic2)):
        I_BBcm = RotationalInertia(Ic, Ic, 0.0)
        links.append(
            plant.AddRigidBody(name, SpatialInertia.MakeFromCentralInertia(m, [0, 0, -lc], I_BBcm))
        )
    axis = np.array([0.0, 1.0, 0.0])
    plant.AddJoint(
        RevoluteJoint("shoulder", plant.world_frame(), links[0].body_frame(), axis, damping=p.b1)
    )
    elbow = plant.AddJoint(
        RevoluteJoint(
            "elbow",
            plant.AddFrame(_offset_frame("elbow_parent", links[0], p.l1)),
            links[1].body_frame(),
            axis,
            damping=p.b2,
        )
    )
    plant.AddJointActuator("elbow", elbow)
    plant.Finalize()
    return plant


def _offset_frame(name, body, length):
    from mallard.multibody.tree import FixedOffsetFrame

    return FixedOffsetFrame(name, body.body_frame(), RigidTransform([0.0, 0.0, -length]))
