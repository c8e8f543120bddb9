"""DiscreteContactApproximation and DiscreteContactSolver (pydrake.multibody.plant's enums)."""

from mallard.common._pybind_enum import PybindEnum


class DiscreteContactApproximation(PybindEnum):
    """The approximation of contact a discrete MultibodyPlant uses, and with it its solver:
    kTamsi (0, TAMSI), kSap (1), kSimilar (2) and kLagged (3, Drake's default), all SAP.
    Without contact the three SAP approximations step the same way."""

    __slots__ = ()
    __module__ = "mallard.multibody.plant"
    _MEMBERS = {"kTamsi": 0, "kSap": 1, "kSimilar": 2, "kLagged": 3}


class DiscreteContactSolver(PybindEnum):
    """The solver of a discrete MultibodyPlant's step: kTamsi (0) or kSap (1)."""

    __slots__ = ()
    __module__ = "mallard.multibody.plant"
    _MEMBERS = {"kTamsi": 0, "kSap": 1}
