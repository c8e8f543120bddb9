"""Helpers of the discrete-plant tests: advancing a discrete plant by its declared periodic
update (until mallard has a Simulator), and the Panda model of example-robot-data."""

import os
import re

import numpy as np

from mallard.systems.framework._events import EventKind, TriggerType


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


def make_panda(module, time_step, strip_mimic=False, strip_limits=False):
    """A finalized Panda (panda_link0 welded to World) of ``module`` (mallard.all or
    pydrake.all)."""
    plant = module.MultibodyPlant(time_step)
    parser = module.Parser(plant)
    parser.package_map().Add("panda_description", panda_root())
    parser.AddModelsFromString(panda_urdf(strip_mimic, strip_limits), "urdf")
    plant.WeldFrames(plant.world_frame(), plant.GetFrameByName("panda_link0"))
    plant.Finalize()
    return plant


def periodic_update(plant):
    """The plant's (only) periodic update event."""
    (event,) = [e for e in plant._events if e.trigger == TriggerType.kPeriodic]
    return event


def advance(plant, context, steps):
    """Runs ``steps`` discrete updates of ``plant`` in ``context`` by its declared periodic
    event, as a Simulator would (time advanced by the period)."""
    event = periodic_update(plant)
    for _ in range(steps):
        state = context.get_state().Clone()
        if event.kind == EventKind.kUnrestrictedUpdate:
            event.handler(context, state)
        else:
            event.handler(context, state.get_mutable_discrete_state())
        context.get_mutable_state().SetFrom(state)
        context.SetTime(context.get_time() + event.period_sec)
