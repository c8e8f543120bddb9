"""Mirror of pydrake.multibody.meshcat: JointSliders."""

from mallard._public import publish
from mallard.multibody.meshcat._joint_sliders import JointSliders

__all__ = ["JointSliders"]

publish(globals())
