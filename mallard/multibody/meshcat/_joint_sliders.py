"""JointSliders (pydrake.multibody.meshcat's): a Meshcat slider per position of a plant, and a
system whose output is the sliders' positions."""

import logging
import time

import numpy as np

from mallard.systems.framework import LeafSystem

_STOP = "Stop JointSliders"


def _broadcast(name, default, nq, value):
    """``value`` (None, a number or an nq-vector) as an nq-vector (``default`` for None)."""
    if value is None:
        return np.full(nq, default)
    a = np.asarray(value, dtype=float)
    if a.ndim == 0:
        return np.full(nq, float(a))
    if a.size != nq:
        raise RuntimeError(f"Expected {name} of size {nq}, but got size {a.size} instead")
    return a.reshape(-1)


def _slider_names(plant, with_instance):
    """Per position, its slider's name: the joint's ("{joint}_{suffix}" for a joint of several
    positions), then "/{model instance}" if ``with_instance``."""
    names = [None] * plant.num_positions()
    for joint in (plant.get_joint(i) for i in plant.GetJointIndices()):
        for j in range(joint.num_positions()):
            name = joint.name()
            if joint.num_positions() > 1:
                name = f"{name}_{joint.position_suffix(j)}"
            if with_instance:
                name += f"/{plant.GetModelInstanceName(joint.model_instance())}"
            names[joint.position_start() + j] = name
    return names


class JointSliders(LeafSystem):
    """One Meshcat slider per position q of the finalized ``plant``, named by its joint
    (model instance names added if joint names repeat), in [max(lower_limit, the joint's
    lower limit), min(upper_limit, its upper limit)] (defaults ±10) by ``step`` (default
    0.01), starting at ``initial_value`` (default: the plant's default positions); output
    port "positions" gives the sliders' values (the starting values once deleted). The
    limits and step are a number or an nq-vector; the keycodes, none or one per position.
    """

    __module__ = "mallard.multibody.meshcat"
    _cpp_type = "drake::multibody::meshcat::JointSliders<double>"

    def __init__(
        self,
        meshcat,
        plant,
        initial_value=None,
        lower_limit=None,
        upper_limit=None,
        step=None,
        decrement_keycodes=(),
        increment_keycodes=(),
    ):
        super().__init__()
        nq = plant.num_positions()
        if initial_value is not None:
            initial_value = np.asarray(initial_value, dtype=float).reshape(-1)
            if initial_value.size != nq:
                raise RuntimeError(
                    f"Expected initial_value of size {nq}, but got size {initial_value.size} "
                    "instead"
                )
        else:
            initial_value = plant.GetPositions(plant.CreateDefaultContext()).astype(float)
        lower = np.maximum(
            _broadcast("lower_limit", -10.0, nq, lower_limit), plant.GetPositionLowerLimits()
        )
        upper = np.minimum(
            _broadcast("upper_limit", 10.0, nq, upper_limit), plant.GetPositionUpperLimits()
        )
        step = _broadcast("step", 0.01, nq, step)
        for keys, what in ((decrement_keycodes, "decrement"), (increment_keycodes, "increment")):
            if len(keys) not in (0, nq):
                raise RuntimeError(
                    f"Expected {what}_keycodes of size zero or {nq}, but got size {len(keys)} "
                    "instead"
                )
        names = _slider_names(plant, False)
        if len(set(names)) < nq:
            names = _slider_names(plant, True)
        self._meshcat, self._plant = meshcat, plant
        self._names, self._nominal = names, initial_value.copy()
        self._registered = True
        for i, name in enumerate(names):
            meshcat.AddSlider(
                name, lower[i], upper[i], step[i], initial_value[i],
                decrement_keycodes[i] if decrement_keycodes else "",
                increment_keycodes[i] if increment_keycodes else "",
            )  # fmt: skip
        self.DeclareVectorOutputPort("positions", nq, self._calc_output)

    def _calc_output(self, context, output):
        if self._registered:
            output.SetFromVector([self._meshcat.GetSliderValue(n) for n in self._names])
        else:
            output.SetFromVector(self._nominal)

    def Delete(self):
        """Removes the sliders from the Meshcat (the output then gives the starting values)."""
        if self._registered:
            self._registered = False
            for name in self._names:
                self._meshcat.DeleteSlider(name, strict=False)

    def SetPositions(self, q):
        """Moves the sliders to ``q`` (and makes it the output once they are deleted)."""
        q = np.asarray(q, dtype=float).reshape(-1)
        if q.size != len(self._names):
            raise RuntimeError(
                f"Expected q of size {len(self._names)}, but got size {q.size} instead"
            )
        self._nominal = q.copy()
        if self._registered:
            for name, value in zip(self._names, q, strict=True):
                self._meshcat.SetSliderValue(name, value)

    def Run(self, diagram, timeout=None, stop_button_keycode="Escape"):
        """Publishes ``diagram`` (containing this system and its plant) with the plant at the
        sliders' positions, again whenever they move, until the "Stop JointSliders" button
        (or the key ``stop_button_keycode``) is clicked or ``timeout`` seconds pass; returns
        the last positions."""
        root = diagram.CreateDefaultContext()
        sliders_context = self.GetMyContextFromRoot(root)
        plant_context = self._plant.GetMyMutableContextFromRoot(root)
        key = f" or press '{stop_button_keycode}'" if stop_button_keycode else ""
        logging.getLogger("drake").info(f"Press the '{_STOP}' button in Meshcat{key} to continue.")
        self._meshcat.AddButton(_STOP, stop_button_keycode)
        try:
            start = time.monotonic()
            diagram.ExecuteInitializationEvents(root)
            self._plant.SetPositions(plant_context, self.get_output_port().Eval(sliders_context))
            diagram.ForcedPublish(root)
            while self._meshcat.GetButtonClicks(_STOP) < 1:
                if timeout is not None and time.monotonic() - start >= timeout:
                    break
                q = self.get_output_port().Eval(sliders_context)
                if np.array_equal(q, self._plant.GetPositions(plant_context)):
                    time.sleep(0.001)
                    continue
                self._plant.SetPositions(plant_context, q)
                diagram.ForcedPublish(root)
        finally:
            self._meshcat.DeleteButton(_STOP)
        return self._plant.GetPositions(plant_context).copy()
