"""Mirror of pydrake.multibody.meshcat: ContactVisualizer, ContactVisualizerParams,
JointSliders."""

from mallard._public import publish
from mallard.multibody.meshcat._contact_visualizer import (
    ContactVisualizer,
    ContactVisualizerParams,
)
from mallard.multibody.meshcat._joint_sliders import JointSliders

__all__ = ["ContactVisualizer", "ContactVisualizerParams", "JointSliders"]

publish(globals())
