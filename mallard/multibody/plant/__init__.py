"""Mirror of pydrake.multibody.plant."""

from mallard.multibody.plant._multibody_plant import MultibodyPlant

__all__ = ["MultibodyPlant"]
