"""Mirror of pydrake.common."""

from mallard._public import publish
from mallard.common._random import RandomDistribution, RandomGenerator
from mallard.common._utilities import configure_logging, temp_directory

__all__ = ["RandomDistribution", "RandomGenerator", "configure_logging", "temp_directory"]

publish(globals())
