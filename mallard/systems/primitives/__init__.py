"""Mirror of pydrake.systems.primitives: sources, arithmetic, routing, sample-and-hold,
integration and logging systems."""

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

__all__ = [
    "Adder",
    "ConstantValueSource",
    "ConstantVectorSource",
    "Demultiplexer",
    "Gain",
    "Integrator",
    "LogVectorOutput",
    "Multiplexer",
    "PassThrough",
    "Saturation",
    "TrajectorySource",
    "VectorLog",
    "VectorLogSink",
    "ZeroOrderHold",
]
