"""MultibodyForces: generalized forces and per-body spatial forces applied to a plant."""

import numpy as np


class MultibodyForces:
    """Applied forces: ``generalized_forces()`` (size nv) and one spatial force F_BBo_W per
    body (at Bo, expressed in World; indexed by BodyIndex).

    Constructors: ``MultibodyForces(plant)`` (finalized) or ``MultibodyForces(nb, nv)``.
    """

    __slots__ = ("_tau", "_F_BBo_W")

    def __init__(self, *args, **kwargs):
        if len(args) + len(kwargs) == 1:
            plant = args[0] if args else kwargs["plant"]
            if not plant.is_finalized():
                raise RuntimeError(
                    "MultibodyForces(plant): the plant must be finalized (call Finalize() first)"
                )
            nb, nv = plant.num_bodies(), plant.num_velocities()
        else:
            names = ("nb", "nv")
            values = dict(zip(names, args, strict=False)) | kwargs
            nb, nv = int(values["nb"]), int(values["nv"])
        self._tau = np.zeros(nv)
        self._F_BBo_W = np.zeros((nb, 6))

    def num_bodies(self):
        return self._F_BBo_W.shape[0]

    def num_velocities(self):
        return self._tau.shape[0]

    def generalized_forces(self):
        """The generalized forces (a view; see mutable_generalized_forces to modify)."""
        return self._tau

    def mutable_generalized_forces(self):
        """The generalized forces, writeable in place."""
        return self._tau

    def SetZero(self):
        """Sets every force to zero; returns self."""
        self._tau[:] = 0.0
        self._F_BBo_W[:] = 0.0
        return self

    def _check_compatible(self, other, method):
        if not isinstance(other, MultibodyForces):
            raise TypeError(f"{method}(): expected MultibodyForces, got {type(other).__name__}")
        if (other.num_bodies(), other.num_velocities()) != (
            self.num_bodies(),
            self.num_velocities(),
        ):
            raise RuntimeError(
                f"{method}(): the forces are not compatible: {other.num_bodies()} bodies and "
                f"{other.num_velocities()} velocities, expected {self.num_bodies()} and "
                f"{self.num_velocities()}"
            )

    def AddInForces(self, addend):
        """Adds the forces of ``addend`` (of the same sizes) to these."""
        self._check_compatible(addend, "AddInForces")
        self._tau += addend._tau
        self._F_BBo_W += addend._F_BBo_W

    def _check_plant(self, plant, method):
        if (self.num_bodies(), self.num_velocities()) != (
            plant.num_bodies(),
            plant.num_velocities(),
        ):
            raise RuntimeError(
                f"{method}(): the MultibodyForces are not compatible with this plant "
                f"({self.num_bodies()} bodies and {self.num_velocities()} velocities, the plant "
                f"has {plant.num_bodies()} and {plant.num_velocities()})"
            )

    def _add_force_at(self, body, p_BoQ_W, f_W, torque_W=None):
        """Adds a force f_W applied at point Q of ``body`` (p_BoQ_W from Bo, in World), and a
        torque, to the body's spatial force at Bo."""
        F = self._F_BBo_W[int(body.index())]
        F[:3] += np.cross(p_BoQ_W, f_W)
        if torque_W is not None:
            F[:3] += torque_W
        F[3:] += f_W
