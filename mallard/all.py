"""Every public name of mallard at once, as ``pydrake.all`` offers them."""

from mallard.autodiffutils import *  # noqa: F403
from mallard.common import *  # noqa: F403
from mallard.common.eigen_geometry import *  # noqa: F403
from mallard.common.value import *  # noqa: F403
from mallard.geometry import *  # noqa: F403
from mallard.math import *  # noqa: F403
from mallard.multibody.math import *  # noqa: F403
from mallard.multibody.parsing import *  # noqa: F403
from mallard.multibody.plant import *  # noqa: F403
from mallard.multibody.tree import *  # noqa: F403
from mallard.systems.analysis import *  # noqa: F403
from mallard.systems.controllers import *  # noqa: F403
from mallard.systems.framework import *  # noqa: F403
from mallard.systems.primitives import *  # noqa: F403
from mallard.trajectories import *  # noqa: F403
