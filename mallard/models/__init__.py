"""Models mallard ships, built with the plant API (mallard's own module, not in pydrake)."""

from mallard.models._acrobot import AcrobotParameters, MakeAcrobotPlant

__all__ = ["AcrobotParameters", "MakeAcrobotPlant"]
