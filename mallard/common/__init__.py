"""Mirror of pydrake.common."""

from mallard.common._random import RandomDistribution, RandomGenerator

__all__ = ["RandomDistribution", "RandomGenerator"]
