"""Mirror of pydrake.systems.primitives: sources, arithmetic, routing, sample-and-hold,
integration and logging systems, with their templates (``Gain_[AutoDiffXd]``, ...)."""

from mallard._template import TemplateClass
from mallard.systems.primitives._integrator import Integrator
from mallard.systems.primitives._math import Adder, Gain, Saturation
from mallard.systems.primitives._routing import Demultiplexer, Multiplexer, PassThrough
from mallard.systems.primitives._sources import (
    ConstantValueSource,
    ConstantVectorSource,
    TrajectorySource,
)
from mallard.systems.primitives._vector_log import LogVectorOutput, VectorLog, VectorLogSink
from mallard.systems.primitives._zero_order_hold import ZeroOrderHold

Adder_ = TemplateClass("Adder_", Adder, "system")
ConstantValueSource_ = TemplateClass("ConstantValueSource_", ConstantValueSource, "system")
ConstantVectorSource_ = TemplateClass("ConstantVectorSource_", ConstantVectorSource, "system")
Demultiplexer_ = TemplateClass("Demultiplexer_", Demultiplexer, "system")
Gain_ = TemplateClass("Gain_", Gain, "system")
Integrator_ = TemplateClass("Integrator_", Integrator, "system")
Multiplexer_ = TemplateClass("Multiplexer_", Multiplexer, "system")
PassThrough_ = TemplateClass("PassThrough_", PassThrough, "system")
Saturation_ = TemplateClass("Saturation_", Saturation, "system")
TrajectorySource_ = TemplateClass("TrajectorySource_", TrajectorySource, "system")
VectorLog_ = TemplateClass("VectorLog_", VectorLog)
VectorLogSink_ = TemplateClass("VectorLogSink_", VectorLogSink, "system")
ZeroOrderHold_ = TemplateClass("ZeroOrderHold_", ZeroOrderHold, "system")

__all__ = [
    "Adder",
    "Adder_",
    "ConstantValueSource",
    "ConstantValueSource_",
    "ConstantVectorSource",
    "ConstantVectorSource_",
    "Demultiplexer",
    "Demultiplexer_",
    "Gain",
    "Gain_",
    "Integrator",
    "Integrator_",
    "LogVectorOutput",
    "Multiplexer",
    "Multiplexer_",
    "PassThrough",
    "PassThrough_",
    "Saturation",
    "Saturation_",
    "TrajectorySource",
    "TrajectorySource_",
    "VectorLog",
    "VectorLog_",
    "VectorLogSink",
    "VectorLogSink_",
    "ZeroOrderHold",
    "ZeroOrderHold_",
]
