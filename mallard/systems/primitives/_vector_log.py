"""VectorLog, VectorLogSink and LogVectorOutput: recording a vector signal over time."""

import numpy as np

from mallard._scalar import as_array
from mallard._template import convert_value, instantiation
from mallard.systems.framework._events import TriggerType
from mallard.systems.framework._leaf_system import LeafSystem
from mallard.systems.framework._system import system_scalar_type


class VectorLog:
    """Samples (time, vector of ``input_size``) in the order added; storage grows by
    doubling, so adding a sample costs no allocation in the common case. ``VectorLog_[T]``
    stores scalars of type T (object arrays)."""

    kDefaultCapacity = 1000

    def __init__(self, input_size):
        self._input_size = int(input_size)
        self._times = np.empty(self.kDefaultCapacity)
        self._data = np.empty((self._input_size, self.kDefaultCapacity))
        self._num_samples = 0

    def get_input_size(self):
        return self._input_size

    def num_samples(self):
        return self._num_samples

    def sample_times(self):
        """The times of the samples (a read-only view)."""
        view = self._times[: self._num_samples]
        view.flags.writeable = False
        return view

    def data(self):
        """The samples as columns of an (input_size × num_samples) matrix (read-only)."""
        view = self._data[:, : self._num_samples]
        view.flags.writeable = False
        return view

    def Reserve(self, capacity):
        """Makes room for ``capacity`` samples."""
        capacity = int(capacity)
        if capacity > self._times.size:
            times = np.empty(capacity, dtype=self._times.dtype)
            data = np.empty((self._input_size, capacity), dtype=self._data.dtype)
            n = self._num_samples
            times[:n] = self._times[:n]
            data[:, :n] = self._data[:, :n]
            self._times, self._data = times, data

    def AddData(self, time, sample):
        """Appends ``sample`` (a vector of input_size) at ``time``."""
        n = self._num_samples
        if n == self._times.size:
            self.Reserve(max(2 * n, 1))
        sample = as_array(sample, name="sample").reshape(-1)
        if sample.size != self._input_size:
            raise RuntimeError(
                f"VectorLog.AddData(): expected a sample of size {self._input_size}, got "
                f"{sample.size}"
            )
        self._times[n] = time
        self._data[:, n] = sample
        self._num_samples = n + 1

    def Clear(self):
        """Forgets the samples (keeping the storage)."""
        self._num_samples = 0

    def __repr__(self):
        return f"VectorLog(input_size={self._input_size}, num_samples={self._num_samples})"


_ALLOWED_TRIGGERS = (TriggerType.kForced, TriggerType.kPeriodic, TriggerType.kPerStep)


class VectorLogSink(LeafSystem):
    """``VectorLogSink(input_size, publish_period=0.0)`` or ``(input_size, publish_triggers,
    publish_period=0.0)``: records input "data" with its time, in a VectorLog kept in the
    Context (FindLog, GetLog).

    It records on the ``publish_triggers`` (a set of TriggerType among kForced, kPeriodic and
    kPerStep): by default kForced and kPerStep if ``publish_period`` is 0, kForced and
    kPeriodic (every ``publish_period`` seconds from 0) otherwise.
    """

    _cpp_type = "drake::systems::VectorLogSink<double>"

    def __init__(self, input_size, publish_triggers=None, publish_period=None):
        super().__init__()
        if publish_triggers is not None and not isinstance(
            publish_triggers, (set, frozenset, list, tuple)
        ):
            publish_triggers, publish_period = None, publish_triggers
        period = 0.0 if publish_period is None else float(publish_period)
        if not period >= 0:
            raise RuntimeError(f"VectorLogSink: publish_period must be >= 0, got {period}")
        if publish_triggers is None:
            triggers = {
                TriggerType.kForced,
                TriggerType.kPeriodic if period > 0 else TriggerType.kPerStep,
            }
        else:
            triggers = {TriggerType(t) for t in publish_triggers}
            if not triggers or any(t not in _ALLOWED_TRIGGERS for t in triggers):
                raise RuntimeError(
                    "VectorLogSink: publish_triggers must be a non-empty subset of {kForced, "
                    f"kPeriodic, kPerStep}}, got {sorted(t.name for t in triggers)}"
                )
            if (TriggerType.kPeriodic in triggers) != (period > 0):
                raise RuntimeError(
                    "VectorLogSink: publish_period must be > 0 exactly when publish_triggers "
                    f"contains kPeriodic (got publish_period {period})"
                )
        self._input_size = int(input_size)
        self._triggers, self._period = triggers, period
        self._u = self.DeclareVectorInputPort("data", self._input_size)
        if TriggerType.kForced in triggers:
            self.DeclareForcedPublishEvent(self._write)
        if TriggerType.kPeriodic in triggers:
            self.DeclarePeriodicPublishEvent(period, 0.0, self._write)
        if TriggerType.kPerStep in triggers:
            self.DeclarePerStepPublishEvent(self._write)

    def _write(self, context):
        self._log(context).AddData(context._time, self._u.EvalBasicVector(context)._data)

    def _log(self, context):
        log = context._cache.get("vector_log")
        if log is None:
            log = VectorLog(self._input_size)
            T = system_scalar_type(self)
            if T is not float:
                log = convert_value(log, T)
            context._cache["vector_log"] = log
        return log

    def _scalar_conversion_args(self, T):
        return self._input_size, self._triggers, self._period

    def GetLog(self, context):
        """The VectorLog in ``context`` (this system's Context)."""
        self.ValidateContext(context)
        return self._log(context)

    def GetMutableLog(self, context):
        self.ValidateContext(context)
        return self._log(context)

    def FindLog(self, context):
        """The VectorLog in ``context`` (the root Context of a Diagram containing this
        system, or this system's)."""
        return self._log(self.GetMyContextFromRoot(context))

    def FindMutableLog(self, context):
        return self._log(self.GetMyContextFromRoot(context))


def LogVectorOutput(src, builder, publish_triggers=None, publish_period=None):
    """Adds to ``builder`` a VectorLogSink (of the builder's scalar type) of ``src``'s size,
    connected to ``src`` (an output port); returns it. The other arguments are
    VectorLogSink's."""
    sink = instantiation(VectorLogSink, system_scalar_type(builder), "system")
    logger = builder.AddSystem(sink(src.size(), publish_triggers, publish_period))
    builder.Connect(src, logger.get_input_port())
    return logger
