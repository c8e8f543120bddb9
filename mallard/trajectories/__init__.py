"""Mirror of pydrake.trajectories (minimal): Trajectory and PiecewisePolynomial with its
ZeroOrderHold, FirstOrderHold and CubicHermite constructions."""

from mallard.trajectories._piecewise_polynomial import PiecewisePolynomial, Trajectory

__all__ = ["PiecewisePolynomial", "Trajectory"]
