"""Models mallard ships (mallard's own module, not in pydrake): MakeAcrobotPlant, built with
the plant API, and the URDF files of package "mallard", loaded with
``Parser(plant).AddModelsFromUrl("package://mallard/<name>.urdf")``: pendulum.urdf,
acrobot.urdf (the parameters of MakeAcrobotPlant) and cart_pole.urdf."""

from mallard._public import publish
from mallard.models._acrobot import AcrobotParameters, MakeAcrobotPlant

__all__ = ["AcrobotParameters", "MakeAcrobotPlant"]

publish(globals())
