"""Every public name of mallard at once, as ``pydrake.all`` offers them."""

from mallard.common.eigen_geometry import *  # noqa: F403
from mallard.geometry import *  # noqa: F403
from mallard.math import *  # noqa: F403
from mallard.multibody.math import *  # noqa: F403
from mallard.multibody.tree import *  # noqa: F403
