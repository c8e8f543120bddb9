"""Every public name of mallard at once, as ``pydrake.all`` offers them."""

from mallard.autodiffutils import *  # noqa: F403
from mallard.common import *  # noqa: F403
from mallard.common.containers import *  # noqa: F403
from mallard.common.eigen_geometry import *  # noqa: F403
from mallard.common.value import *  # noqa: F403
from mallard.common.yaml import *  # noqa: F403
from mallard.geometry import *  # noqa: F403
from mallard.math import *  # noqa: F403
from mallard.multibody.math import *  # noqa: F403
from mallard.multibody.meshcat import *  # noqa: F403
from mallard.multibody.parsing import *  # noqa: F403
from mallard.multibody.plant import *  # noqa: F403
from mallard.multibody.tree import *  # noqa: F403
from mallard.systems.analysis import *  # noqa: F403
from mallard.systems.controllers import *  # noqa: F403
from mallard.systems.drawing import *  # noqa: F403
from mallard.systems.framework import *  # noqa: F403
from mallard.systems.planar_scenegraph_visualizer import *  # noqa: F403
from mallard.systems.primitives import *  # noqa: F403
from mallard.systems.pyplot_visualizer import *  # noqa: F403
from mallard.systems.scalar_conversion import *  # noqa: F403
from mallard.trajectories import *  # noqa: F403
from mallard.visualization import *  # noqa: F403


def __getattr__(name):
    """mallard.symbolic's names (Variable, Expression, ...), imported on first use: sympy, which
    it needs, is an optional extra and slow to import. ``from mallard.all import *`` leaves
    them out; ``from mallard.all import Variable`` works. Also the instantiations of the
    templates by pydrake's names (``RigidTransform_𝓣AutoDiffXd𝓤``, ``Value𝓣str𝓤``, as pydrake.all
    has them)."""
    try:
        import mallard.symbolic as symbolic
    except ImportError:
        symbolic = None
    if symbolic is not None and name in symbolic.__all__:
        return getattr(symbolic, name)
    if name.startswith("Value𝓣"):  # (Value[T] is Value for every T in mallard)
        return globals()["Value"]
    if "𝓣" in name:
        from mallard._template import module_getattr

        return module_getattr(__name__, globals(), name)
    raise AttributeError(f"module 'mallard.all' has no attribute '{name}'")
