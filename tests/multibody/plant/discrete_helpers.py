"""Helpers of the discrete-plant tests: advancing a discrete plant with the Simulator, and the
Panda model of example-robot-data."""

import os
import re

import numpy as np

from mallard.systems.analysis import Simulator
from mallard.systems.framework._events import TriggerType


def panda_root():
    """The panda_description folder of example-robot-data, or None."""
    import sysconfig

    root = os.path.join(
        sysconfig.get_paths()["purelib"],
        "cmeel.prefix/share/example-robot-data/robots/panda_description",
    )
    return root if os.path.isdir(root) else None


def panda_urdf(strip_mimic=False, strip_limits=False):
    """The Panda URDF text (optionally without its mimic tags or position limits)."""
    with open(os.path.join(panda_root(), "urdf", "panda.urdf")) as f:
        text = f.read()
    if strip_mimic:
        text = re.sub(r"<mimic[^>]*/>", "", text)
    if strip_limits:
        text = re.sub(r' lower="[^"]*"', "", text)
        text = re.sub(r' upper="[^"]*"', "", text)
    return text


PANDA_HOME = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.0, 0.0])


def make_panda(
    module,
    time_step,
    strip_mimic=False,
    strip_limits=False,
    approximation=None,
    pd_gains=None,
    effort_limit=None,
):
    """A finalized Panda (panda_link0 welded to World) of ``module`` (mallard.all or
    pydrake.all), with the discrete contact ``approximation`` (a DiscreteContactApproximation
    member's name) if given; ``pd_gains`` (p, d): an actuator on each of the arm's 7 joints,
    PD-controlled, with ``effort_limit`` if given."""
    plant = module.MultibodyPlant(time_step)
    parser = module.Parser(plant)
    parser.package_map().Add("panda_description", panda_root())
    parser.AddModelsFromString(panda_urdf(strip_mimic, strip_limits), "urdf")
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    if approximation is not None:
        plant.set_discrete_contact_approximation(
            getattr(module.DiscreteContactApproximation, approximation)
        )
    if pd_gains is not None:
        for i in range(1, 8):
            actuator = plant.AddJointActuator(f"a{i}", plant.GetJointByName(f"panda_joint{i}"))
            actuator.set_controller_gains(module.PdControllerGains(p=pd_gains[0], d=pd_gains[1]))
            if effort_limit is not None:
                actuator.set_effort_limit(effort_limit)
    plant.Finalize()
    return plant


def periodic_update(plant):
    """The plant's (only) periodic update event."""
    (event,) = [e for e in plant._events if e.trigger == TriggerType.kPeriodic]
    return event


def advance(plant, context, steps):
    """Advances ``context`` of the discrete ``plant`` by ``steps`` periodic updates with a
    Simulator (the update at the context's current time included, the one at the end not).
    Times are whole multiples k·h, as the periodic event's own times are."""
    h = plant.time_step()
    t_final = (round(context.get_time() / h) + steps) * h
    Simulator(plant, context).AdvanceTo(t_final)
