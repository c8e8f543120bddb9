"""ContactModel (pydrake.multibody.plant's enum)."""

from mallard.common._pybind_enum import PybindEnum


class ContactModel(PybindEnum):
    """The contact model of a MultibodyPlant: kHydroelastic (0), kPoint (1) or
    kHydroelasticWithFallback (2, Drake's default: hydroelastic where both geometries have a
    hydroelastic representation, point contact for the other pairs). kHydroelasticsOnly and
    kPointContactOnly are Drake's legacy aliases of kHydroelastic and kPoint."""

    __slots__ = ()
    __module__ = "mallard.multibody.plant"
    _MEMBERS = {"kHydroelastic": 0, "kPoint": 1, "kHydroelasticWithFallback": 2}


ContactModel.kHydroelasticsOnly = ContactModel.kHydroelastic
ContactModel.kPointContactOnly = ContactModel.kPoint
ContactModel.__members__ = {
    **ContactModel.__members__,
    "kHydroelasticsOnly": ContactModel.kHydroelastic,
    "kPointContactOnly": ContactModel.kPoint,
}
