"""Mirror of pydrake.trajectories (minimal): Trajectory and PiecewisePolynomial with its
ZeroOrderHold, FirstOrderHold and CubicHermite constructions."""

from mallard._public import publish
from mallard._template import module_getattr
from mallard.trajectories._piecewise_polynomial import PiecewisePolynomial, Trajectory

__all__ = ["PiecewisePolynomial", "Trajectory"]


def __getattr__(name):
    """``Class_[T]`` and ``Class_𝓣T𝓤``: the names pickles give template instantiations (as
    pydrake's modules answer them)."""
    return module_getattr(__name__, globals(), name)


publish(globals())
