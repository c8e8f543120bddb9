"""Mirror of pydrake.systems.primitives: sources, arithmetic, routing, sample-and-hold,
integration, filtering, delays, affine and linear systems, linearization, symbolic systems
and logging, with their templates (``Gain_[AutoDiffXd]``, ...)."""

from mallard._public import publish
from mallard._template import TemplateClass
from mallard.systems.primitives._affine_system import AffineSystem, LinearSystem, MatrixGain
from mallard.systems.primitives._discrete import (
    DiscreteDerivative,
    DiscreteTimeDelay,
    StateInterpolatorWithDiscreteDerivative,
)
from mallard.systems.primitives._filters import FirstOrderLowPassFilter
from mallard.systems.primitives._integrator import Integrator
from mallard.systems.primitives._linearize import (
    ControllabilityMatrix,
    FirstOrderTaylorApproximation,
    IsControllable,
    IsDetectable,
    IsObservable,
    IsStabilizable,
    Linearize,
    ObservabilityMatrix,
)
from mallard.systems.primitives._math import Adder, Gain, Saturation
from mallard.systems.primitives._routing import Demultiplexer, Multiplexer, PassThrough
from mallard.systems.primitives._selector import Selector, SelectorParams
from mallard.systems.primitives._sine import Sine
from mallard.systems.primitives._sources import (
    ConstantValueSource,
    ConstantVectorSource,
    TrajectorySource,
)
from mallard.systems.primitives._symbolic_vector_system import SymbolicVectorSystem
from mallard.systems.primitives._vector_log import LogVectorOutput, VectorLog, VectorLogSink
from mallard.systems.primitives._zero_order_hold import ZeroOrderHold

Adder_ = TemplateClass("Adder_", Adder, "system")
AffineSystem_ = TemplateClass("AffineSystem_", AffineSystem, "system")
DiscreteDerivative_ = TemplateClass("DiscreteDerivative_", DiscreteDerivative, "system")
DiscreteTimeDelay_ = TemplateClass("DiscreteTimeDelay_", DiscreteTimeDelay, "system")
FirstOrderLowPassFilter_ = TemplateClass(
    "FirstOrderLowPassFilter_", FirstOrderLowPassFilter, "system"
)
LinearSystem_ = TemplateClass("LinearSystem_", LinearSystem, "system")
MatrixGain_ = TemplateClass("MatrixGain_", MatrixGain, "system")
Selector_ = TemplateClass("Selector_", Selector, "system")
Sine_ = TemplateClass("Sine_", Sine, "system")
StateInterpolatorWithDiscreteDerivative_ = TemplateClass(
    "StateInterpolatorWithDiscreteDerivative_", StateInterpolatorWithDiscreteDerivative, "system"
)
SymbolicVectorSystem_ = TemplateClass("SymbolicVectorSystem_", SymbolicVectorSystem, "system")
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
    "AffineSystem",
    "AffineSystem_",
    "ConstantValueSource",
    "ConstantValueSource_",
    "ConstantVectorSource",
    "ConstantVectorSource_",
    "ControllabilityMatrix",
    "Demultiplexer",
    "Demultiplexer_",
    "DiscreteDerivative",
    "DiscreteDerivative_",
    "DiscreteTimeDelay",
    "DiscreteTimeDelay_",
    "FirstOrderLowPassFilter",
    "FirstOrderLowPassFilter_",
    "FirstOrderTaylorApproximation",
    "Gain",
    "Gain_",
    "Integrator",
    "Integrator_",
    "IsControllable",
    "IsDetectable",
    "IsObservable",
    "IsStabilizable",
    "LinearSystem",
    "LinearSystem_",
    "Linearize",
    "LogVectorOutput",
    "MatrixGain",
    "MatrixGain_",
    "Multiplexer",
    "Multiplexer_",
    "ObservabilityMatrix",
    "PassThrough",
    "PassThrough_",
    "Saturation",
    "Saturation_",
    "Selector",
    "SelectorParams",
    "Selector_",
    "Sine",
    "Sine_",
    "StateInterpolatorWithDiscreteDerivative",
    "StateInterpolatorWithDiscreteDerivative_",
    "SymbolicVectorSystem",
    "SymbolicVectorSystem_",
    "TrajectorySource",
    "TrajectorySource_",
    "VectorLog",
    "VectorLogSink",
    "VectorLogSink_",
    "VectorLog_",
    "ZeroOrderHold",
    "ZeroOrderHold_",
]

publish(globals())
