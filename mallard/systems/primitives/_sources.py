"""Sources: ConstantVectorSource, ConstantValueSource and TrajectorySource."""

import numpy as np

from mallard._scalar import as_array, scalar_value
from mallard._template import array_to_scalar, cast_array
from mallard.common.value import AbstractValue
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._system import system_scalar_type
from mallard.systems.framework._vectors import BasicVector


class ConstantVectorSource(LeafSystem):
    """Output "y0": a constant vector, held as a numeric parameter (so a Context can change
    it with get_mutable_source_value)."""

    _cpp_type = "drake::systems::ConstantVectorSource<double>"

    def __init__(self, source_value):
        super().__init__()
        value = (
            source_value.CopyToVector() if isinstance(source_value, BasicVector) else source_value
        )
        value = as_array(np.atleast_1d(value), name="source_value").reshape(-1)
        self._index = self.DeclareNumericParameter(BasicVector(value))
        self.DeclareVectorOutputPort(
            "y0", value.size, self._calc, {self.numeric_parameter_ticket(self._index)}
        )

    def _scalar_conversion_args(self, T):
        return (cast_array(self._numeric_parameter_models[self._index].CopyToVector(), T),)

    def _calc(self, context, output):
        output._data[:] = context._parameters._numeric._groups[self._index]._data

    def get_source_value(self, context):
        """The value in ``context`` (a BasicVector)."""
        self.ValidateContext(context)
        return context.get_numeric_parameter(self._index)

    def get_mutable_source_value(self, context):
        """The value in ``context``, to modify."""
        self.ValidateContext(context)
        return context.get_mutable_numeric_parameter(self._index)


class ConstantValueSource(LeafSystem):
    """Output "y0": a constant abstract value."""

    _cpp_type = "drake::systems::ConstantValueSource<double>"

    def __init__(self, value):
        super().__init__()
        if not isinstance(value, AbstractValue):
            value = AbstractValue.Make(value)
        self._value = value.Clone()
        self.DeclareAbstractOutputPort("y0", self._value.Clone, self._calc, {self.nothing_ticket()})

    def _scalar_conversion_args(self, T):
        return (self._value,)

    def _calc(self, context, output):
        output.SetFrom(self._value)


class TrajectorySource(LeafSystem):
    """Output "y0": the value of a (one-column) trajectory at the Context's time, followed by
    its first ``output_derivative_order`` derivatives; outside the trajectory's time range
    the value is held and, if ``zero_derivatives_beyond_limits``, the derivatives are
    zero."""

    _cpp_type = "drake::systems::TrajectorySource<double>"

    def __init__(self, trajectory, output_derivative_order=0, zero_derivatives_beyond_limits=True):
        super().__init__()
        if trajectory.cols() != 1:
            raise RuntimeError(
                f"TrajectorySource: the trajectory must have one column, got {trajectory.cols()}"
            )
        if output_derivative_order < 0:
            raise RuntimeError("TrajectorySource: output_derivative_order must be non-negative")
        self._order = int(output_derivative_order)
        self._zero_beyond = bool(zero_derivatives_beyond_limits)
        self._rows = trajectory.rows()
        self._set(trajectory)
        self.DeclareVectorOutputPort(
            "y0", self._rows * (self._order + 1), self._calc, {self.time_ticket()}
        )

    def _set(self, trajectory):
        self._trajectory = trajectory
        self._derivatives = [trajectory.MakeDerivative(k) for k in range(1, self._order + 1)]

    def UpdateTrajectory(self, trajectory):
        """Replaces the trajectory (same number of rows and one column)."""
        if trajectory.rows() != self._rows or trajectory.cols() != 1:
            raise RuntimeError(
                f"TrajectorySource.UpdateTrajectory(): the trajectory must be {self._rows}x1, "
                f"got {trajectory.rows()}x{trajectory.cols()}"
            )
        self._set(trajectory)

    def _scalar_conversion_args(self, T):
        return self._trajectory, self._order, self._zero_beyond

    def _calc(self, context, output):
        t = context.get_time()
        if type(t) is not float:
            t = _failsafe_time(t)
        data, n = output._data, self._rows
        data[:n] = self._trajectory.value(t)[:, 0]
        beyond = self._zero_beyond and not (
            self._trajectory.start_time() <= t <= self._trajectory.end_time()
        )
        for k, derivative in enumerate(self._derivatives, start=1):
            data[k * n : (k + 1) * n] = 0.0 if beyond else derivative.value(t)[:, 0]
        if data.dtype == object:  # (the trajectory is double: its values become constants)
            data[:] = array_to_scalar(data.astype(float), system_scalar_type(self))


def _failsafe_time(t):
    """The double value of the non-double time ``t`` at which a double trajectory is evaluated
    (Drake's ExtractFailsafeTime): RuntimeError if that would drop derivatives or
    variables."""
    derivatives = getattr(t, "derivatives", None)
    if derivatives is not None:
        if np.any(derivatives() != 0.0):
            raise RuntimeError(
                "Cannot take gradients w.r.t. time with this TrajectorySource. You must call "
                "UpdateTrajectory() to provide a Trajectory<AutoDiffXd>."
            )
        return t.value()
    value = scalar_value(t)
    if value is None:
        raise RuntimeError(
            "Cannot output using symbolic time with this TrajectorySource. You must call "
            "UpdateTrajectory() to provide a Trajectory<Expression>."
        )
    return value
