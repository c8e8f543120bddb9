"""MultibodyForces: generalized forces and per-body spatial forces applied to a plant."""

import numbers

import numpy as np

from mallard.common._pybind import overloads


def _count(value, name):
    """``value`` as a non-negative int (pybind11 takes ints only, not floats)."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"MultibodyForces(): {name} must be an int, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"MultibodyForces(): {name} must be non-negative, got {value}")
    return int(value)


class MultibodyForces:
    """Applied forces: generalized forces tau (size nv) and one spatial force F_BBo_W per
    body (on body B at its origin Bo, expressed in World; indexed by BodyIndex).

    Constructors: ``MultibodyForces(plant)`` (the plant must be finalized) or
    ``MultibodyForces(nb, nv)``. All forces start at zero.
    """

    __slots__ = ("_tau", "_F_BBo_W")

    @overloads("plant", "nb, nv")
    def __init__(self, *args, **kwargs):
        if len(args) + len(kwargs) == 1:
            plant = args[0] if args else kwargs.get("plant")
            if not hasattr(plant, "num_velocities"):
                raise TypeError(
                    f"MultibodyForces(): takes (plant) or (nb, nv), got {type(plant).__name__}"
                )
            # As in Drake, an unfinalized plant raises from num_velocities().
            nv, nb = plant.num_velocities(), plant.num_bodies()
            # A plant of AutoDiffXd or Expression (MultibodyPlant_[T]) takes object arrays.
            dtype = float if getattr(type(plant), "_template_scalar", float) is float else object
        else:
            values = dict(zip(("nb", "nv"), args, strict=False)) | kwargs
            if len(args) > 2 or set(values) != {"nb", "nv"}:
                raise TypeError(
                    "MultibodyForces(): takes (plant) or (nb, nv), got "
                    f"{len(args)} positional and keyword arguments {sorted(kwargs)}"
                )
            nb, nv = _count(values["nb"], "nb"), _count(values["nv"], "nv")
            dtype = float
        self._tau = np.zeros(nv, dtype=dtype)
        self._F_BBo_W = np.zeros((nb, 6), dtype=dtype)

    def num_bodies(self):
        """The number of bodies (World included) these forces are for."""
        return self._F_BBo_W.shape[0]

    def num_velocities(self):
        """The number of generalized velocities, that of generalized forces."""
        return self._tau.shape[0]

    def generalized_forces(self):
        """The generalized forces (a copy, as pydrake returns one; see
        mutable_generalized_forces() to modify them)."""
        return self._tau.copy()

    def mutable_generalized_forces(self):
        """The generalized forces, as a view to modify in place."""
        return self._tau

    def SetZero(self):
        """Sets every force to zero; returns self."""
        self._tau[:] = 0.0
        self._F_BBo_W[:] = 0.0
        return self

    def AddInForces(self, addend):
        """Adds the forces of ``addend`` (of the same sizes) to these."""
        if not isinstance(addend, MultibodyForces):
            raise TypeError(
                f"AddInForces(): addend must be a MultibodyForces, got {type(addend).__name__}"
            )
        for what, mine, theirs in (
            ("bodies", self.num_bodies(), addend.num_bodies()),
            ("velocities", self.num_velocities(), addend.num_velocities()),
        ):
            if mine != theirs:
                raise RuntimeError(
                    f"MultibodyForces.AddInForces(): the addend has {theirs} {what}, these "
                    f"forces have {mine}; they must have the same number"
                )
        self._tau += addend._tau
        self._F_BBo_W += addend._F_BBo_W

    # ---- for the plant and the elements ----------------------------------------------------
    def _check_plant(self, plant, method):
        """RuntimeError naming ``method`` unless these forces have the sizes of ``plant``."""
        if (self.num_bodies(), self.num_velocities()) != (
            plant.num_bodies(),
            plant.num_velocities(),
        ):
            raise RuntimeError(
                f"{method}(): the MultibodyForces are not compatible with this plant "
                f"({self.num_bodies()} bodies and {self.num_velocities()} velocities, the plant "
                f"has {plant.num_bodies()} and {plant.num_velocities()})"
            )

    def _add_force_at(self, body, p_BoQ_W, f_W):
        """Adds a force f_W applied at point Q of ``body`` (p_BoQ_W from Bo, in World) to the
        body's spatial force at Bo."""
        F = self._F_BBo_W[int(body.index())]
        F[:3] += np.cross(p_BoQ_W, f_W)
        F[3:] += f_W
